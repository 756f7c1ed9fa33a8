//! `stencil-tilemodel`: model-driven tile and block sizes for wavefront-tiled stencils on GPUs
//! (issue 15; `docs/tile-models.md`). It knows nothing about the IR: it reads the polyhedral
//! tiling of `stencil-poly` and a few facts the caller supplies (element sizes, operations per
//! point).
//!
//! * [`shape::BandShape`]: the tiled band as the models see it, read once from a
//!   [`stencil_poly::tiling::TiledSchedule`].
//! * Exact model inputs for any tile size and thread organisation: the inter-tile wavefronts
//!   and their full and border tiles ([`inter`]), a full tile's intra-tile wavefronts with their
//!   points `H_e` and warps `G_e` ([`intra`]), its loads, stores and shared memory `N_mem`,
//!   `S_TB` ([`footprint`]), blocks per SM ([`device`], thesis Table 5.1 generalised) —
//!   assembled in [`inputs`]. Tests check them against enumeration.
//! * Two models behind [`model::TileModel`]: thesis Ch. 5 ([`thesis`], Eq. 5.2–5.11, §5.3.4)
//!   and seed 004, Prajapati et al. ([`prajapati`], Eq. 2, 8–12).
//! * Calibration files per device ([`calibration`], with a built-in H100 file) and the
//!   least-squares fits that produce them from measured times ([`fit`]).
//! * How neighbouring threads of a tile move through the arrays ([`threads`]: coalescing).
//! * The search of thesis Alg. 5.1 with its pruning ([`mod@search`]), and over the nests of a
//!   program inside host loops ([`nests`], [`shape::ProgramShape`]).

#![warn(missing_docs)]

pub mod calibration;
pub mod device;
pub mod error;
pub mod fit;
pub mod footprint;
pub mod inputs;
pub mod inter;
pub mod intra;
pub mod model;
pub mod nests;
mod period;
pub mod prajapati;
pub mod search;
pub mod shape;
pub mod thesis;
pub mod threads;

pub use calibration::Calibration;
pub use device::{block_limits, residency, BlockLimits, DeviceLimits, Residency, SmResources};
pub use error::{Result, TileModelError};
pub use inputs::{LayoutInputs, TileInputs};
pub use inter::{count_tiles, count_tiles_by_rows, InterTileCounts, PerWavefront, Repeat, TileGeometry};
pub use intra::Block;
pub use model::{ModelKind, Prediction, TileModel};
pub use nests::search_nests;
pub use search::{search, SearchOptions, SearchReport};
pub use shape::{BandShape, HostLoop, IntraWavefront, ProgramFacts, ProgramShape};
pub use threads::{thread_steps, Coalescing, ThreadStep};
