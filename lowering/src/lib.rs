//! `stencil-lowering`: from the polyhedral model to executable IR (DESIGN §2, §7).
//!
//! * [`codegen`]: the pass `poly-codegen` — a `stencil.program`'s scheduled and tiled
//!   iteration space scanned into `affine` loops inside a `func.func` over memrefs (the
//!   lowered-program convention of `docs/runtime.md`).
//!
//! `docs/passes.md` documents every pass, its options and what it records on the IR.

#![warn(missing_docs)]

mod affine_build;
pub mod codegen;

use stencil_ir::pass::PassRegistry;

/// Registers every pass of this crate.
pub fn register_passes(registry: &mut PassRegistry) {
    registry.register(codegen::pass_info());
}
