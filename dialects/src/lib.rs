//! `stencil-dialects`: the ops stencil-opt understands, each with its custom syntax (matching
//! MLIR 22 for upstream dialects), traits, verifier and folder.
//!
//! One module per dialect holds its op definitions, syntax and verifiers together (as xDSL
//! does); [`registry`] registers them all.

pub mod affine;
pub mod arith;
pub mod builtin;
pub mod func;
pub mod gpu;
pub mod math;
pub mod memref;
pub mod scf;
pub mod stencil;
pub mod support;
#[cfg(test)]
mod testing;

use stencil_ir::DialectRegistry;

/// A registry with every dialect of this crate.
pub fn registry() -> DialectRegistry {
    let mut r = DialectRegistry::new();
    builtin::register(&mut r);
    func::register(&mut r);
    arith::register(&mut r);
    math::register(&mut r);
    memref::register(&mut r);
    scf::register(&mut r);
    affine::register(&mut r);
    gpu::register(&mut r);
    stencil::register(&mut r);
    r
}
