//! The pipeline contracts of the stencil passes ([`PassContract`]): they work on
//! `stencil.program` ops, and `poly-codegen` and `gpu-map` lower those away. With them the pass
//! manager refuses `poly-codegen,gpu-map` or `poly-codegen,poly-tile{…}` before reading any
//! input, and a pass that finds no program fails instead of doing nothing.

use stencil_ir::pass::PassContract;

/// The op every stencil pass works on.
pub const PROGRAM_OP: &str = "stencil.program";

/// A pass that analyses or rewrites `stencil.program` ops in place: it runs on the module (all
/// programs) or nested on one program (`builtin.module(stencil.program(p))`).
pub const fn program_pass(usage: &'static str) -> PassContract {
    PassContract {
        anchors: &["builtin.module", PROGRAM_OP],
        works_on: Some(PROGRAM_OP),
        lowers: None,
        unique: false,
        produces: None,
        records: &[],
        discards: &[],
        usage,
    }
}

/// A pass that replaces every `stencil.program` by lowered IR in the enclosing module, so it
/// can only run on modules.
pub const fn lowering_pass(usage: &'static str) -> PassContract {
    PassContract {
        anchors: &["builtin.module"],
        works_on: Some(PROGRAM_OP),
        lowers: Some(PROGRAM_OP),
        unique: false,
        produces: None,
        records: &[],
        discards: &[],
        usage,
    }
}
