//! `stencil-passes`: the passes of stencil-opt over IR (DESIGN §2: they depend on the IR, the
//! dialects and the IR-free polyhedral library `stencil-poly`).
//!
//! * [`stencil_to_poly`]: extraction of the SCoP of a `stencil.program` — iteration domains,
//!   access relations and the original schedule as β vectors (thesis §3.2) — the pass
//!   `stencil-to-poly`, and the dependence report of `stencil-opt --test-print-dependences`.
//!
//! `docs/passes.md` documents every pass, its options and what it records on the IR.

#![warn(missing_docs)]

pub mod stencil_to_poly;

use stencil_ir::pass::PassRegistry;

/// Registers every pass of this crate (thesis §3.2's SCoP extraction first; the scheduling and
/// tiling passes of Ch. 3–5 build on it).
pub fn register_passes(registry: &mut PassRegistry) {
    registry.register(stencil_to_poly::pass_info());
}
