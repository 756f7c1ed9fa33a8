//! `stencil-lowering`: from the polyhedral model to executable IR (DESIGN §2, §7).
//!
//! * [`codegen`]: the pass `poly-codegen` — a `stencil.program`'s scheduled and tiled
//!   iteration space scanned into `affine` loops inside a `func.func` over memrefs (the
//!   lowered-program convention of `docs/runtime.md`).
//! * [`gpu_map`]: the pass `gpu-map` — a host function launching one kernel per inter-tile
//!   wavefront, and the kernels (tiles cyclic over blocks, barriers between intra-tile
//!   wavefronts, points cyclic over threads); `gpu-map{naive}` is the hand-written baseline.
//! * [`ptx`]: `gpu.module`s compiled to PTX by real MLIR 22 (melior), with each kernel's
//!   parameter ABI; [`ptxas`]: assembles PTX and reports registers, spills and shared memory
//!   (`docs/gpu.md`).
//!
//! `docs/passes.md` documents every pass, its options and what it records on the IR.

#![warn(missing_docs)]

mod affine_build;
pub mod codegen;
pub mod gpu_map;
pub mod ptx;
pub mod ptxas;

use stencil_ir::pass::PassRegistry;

/// Registers every pass of this crate.
pub fn register_passes(registry: &mut PassRegistry) {
    registry.register(codegen::pass_info());
    registry.register(gpu_map::pass_info());
}
