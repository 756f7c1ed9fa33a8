//! `stencil-passes`: the passes of stencil-opt over IR (DESIGN §2: they depend on the IR, the
//! dialects and the IR-free polyhedral library `stencil-poly`).
//!
//! * [`stencil_to_poly`]: extraction of the SCoP of a `stencil.program` — iteration domains,
//!   access relations and the original schedule as β vectors (thesis §3.2) — the pass
//!   `stencil-to-poly`, and the dependence report of `stencil-opt --test-print-dependences`.
//! * [`schedule`]: the passes `poly-schedule` (Pluto's tiling hyperplanes with balanced
//!   intra-tile wavefronts, thesis Ch. 4), `poly-verify-schedule` (the legality checker on
//!   the stored schedules), `poly-remove-false-deps` (array copying, thesis Alg. 4.2), and the
//!   report of `stencil-opt --test-print-schedule`.
//! * [`sor`]: SOR recognition with an e-graph (egg) and the non-dependence-preserving
//!   rewrites of thesis Ch. 6: `stencil-recognize-sor`, `stencil-rbsor`, `stencil-mlsor`.
//!
//! * [`raise`]: `raise-affine-to-stencil`, upstream `affine` loop nests that are iterative
//!   stencils become `stencil.program`s called from the original function (the input path of
//!   other MLIR compilers), and the lowering of those calls once the program is lowered.
//!
//! * [`tile`]: `poly-tile`, rectangular tiles with inter- and intra-tile wavefronts; with
//!   `sizes=auto` the sizes come from [`tile_model`] (the thesis Ch. 5 / Prajapati et al.
//!   models of `stencil-tilemodel`, thesis Alg. 5.1).
//!
//! `docs/passes.md` documents every pass, its options and what it records on the IR.

#![warn(missing_docs)]

pub mod contract;
pub mod raise;
pub mod schedule;
pub mod sor;
pub mod stencil_to_poly;
pub mod tile;
pub mod tile_model;

use stencil_ir::pass::PassRegistry;

/// Registers every pass of this crate (thesis §3.2's SCoP extraction first; the scheduling
/// passes of Ch. 4 build on it).
pub fn register_passes(registry: &mut PassRegistry) {
    registry.register(stencil_to_poly::pass_info());
    registry.register(schedule::pass_info());
    registry.register(schedule::verify_pass_info());
    registry.register(schedule::remove_false_deps_pass_info());
    registry.register(tile::pass_info());
    registry.register(sor::pass::recognize_pass_info());
    registry.register(sor::pass::rbsor_pass_info());
    registry.register(sor::pass::mlsor_pass_info());
    registry.register(raise::pass_info());
}
