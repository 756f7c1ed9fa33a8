//! Polyhedral code generation: scanning a union of transformed statement domains into a loop
//! AST with exact bounds (DESIGN §5 "Scanning"; thesis §3.2.7's tiled loop nests, Figs. 3.16,
//! 4.2, 4.7).
//!
//! * [`ScanProblem`]: per statement a domain over `[dims, iterators, params]` (e.g. a
//!   [`crate::tiling::TiledSchedule`] through [`ScanProblem::from_tiled`]), the dimensions
//!   with their parallel flags, and the parameter context.
//! * [`generate`]: the loop nest ([`LoopNest`], [`LoopAst`]): loops with `max` of `ceild`
//!   lower bounds and `min` of `floord` upper bounds, scalar dimensions as statement
//!   sequences, guards only where a statement's domain is narrower than its loops, each loop
//!   marked DOALL/DOSEQ, and each statement called with its original iterators as affine
//!   forms of the loop variables.
//! * [`dimension_range`]: the range of one dimension over everything inside a loop prefix (the
//!   tiles of one inter-tile wavefront, to size a GPU grid).
//! * [`full_tiles`]: simpler loops for the tiles that lie wholly inside the domains, and the test
//!   that tells them from the partial ones (full/partial tile separation).
//! * [`tile_footprints`]: per array, the box of elements one tile touches and exact tests for
//!   the elements it reads and writes (GPU shared-memory staging).
//! * [`LoopNest::execute`]: an exact interpreter for tests; `Display` prints C-like
//!   pseudo-code.

mod ast;
mod display;
mod error;
mod execute;
mod footprint;
mod full_tile;
mod hull;
mod invert;
mod problem;
mod range;
mod scan;

pub use ast::{Bound, ForLoop, Guard, GuardKind, LoopAst, LoopInfo, LoopNest, NestStatement, ScanDim};
pub use error::{CodegenError, CodegenResult};
pub use execute::ExecuteOptions;
pub use footprint::{tile_footprints, ArrayFootprint, ElementRegion, FootprintBase, OriginCandidate};
pub use full_tile::{full_tiles, FullTiles};
pub use problem::{ScanOptions, ScanProblem, ScanStatement};
pub use range::{dimension_range, DimensionRange};
pub use scan::generate;
