//! `stencil-lowering`: from the polyhedral model to executable IR (DESIGN §2, §7).
//!
//! `docs/passes.md` documents every pass, its options and what it records on the IR.

#![warn(missing_docs)]

use stencil_ir::pass::PassRegistry;

/// Registers every pass of this crate.
pub fn register_passes(registry: &mut PassRegistry) {
    let _ = registry;
}
