//! The `scf` dialect (being written).

use stencil_ir::registry::DialectRegistry;

/// Registers the dialect.
pub fn register(_r: &mut DialectRegistry) {}
