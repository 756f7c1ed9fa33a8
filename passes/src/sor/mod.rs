//! SOR-like nests: recognition of a relaxed Gauss-Seidel update with an e-graph (egg), and the
//! two non-dependence-preserving rewrites of thesis Ch. 6 built on it — red-black SOR
//! (§6.5.1.2, the baseline) and the parallel multi-layer SOR method MLSOR (§6.4).
//!
//! * [`lang`]: the e-graph language, constant folding and rule sets;
//! * [`mod@recognize`]: structure, weights and the e-graph proof of one apply's update;
//! * [`iteration`]: the rewrites' input (a time loop of SOR or SSOR sweeps) and the
//!   [`SorRewrite`] interface;
//! * [`rbsor`], [`mlsor`]: the two rewrites;
//! * [`pass`]: the passes `stencil-recognize-sor`, `stencil-rbsor` and `stencil-mlsor`.
//!
//! `docs/passes.md` documents the passes and what they record.

mod build;
pub mod iteration;
pub mod lang;
pub mod mlsor;
pub mod pass;
pub mod rbsor;
pub mod recognize;

pub use iteration::{sor_iterations, RewriteSummary, SorIteration, SorRewrite, REWRITE_ATTR};
pub use lang::RuleSet;
pub use mlsor::{Directions, Mlsor, MlsorTile, TILE_ATTR as MLSOR_TILE_ATTR};
pub use rbsor::RedBlack;
pub use recognize::{recognize, Omega, RecognitionOptions, Refusal, Refused, SorUpdate};
