//! Symbol tables: lookup of symbol-defining ops (`sym_name`) by name, as MLIR's
//! `SymbolTable`.

use crate::attributes::Attribute;
use crate::ir::{Ir, OpId};
use crate::registry::DialectRegistry;

/// The `sym_name` of a symbol-defining op.
pub fn symbol_name(ir: &Ir, op: OpId) -> Option<&str> {
    ir.attr(op, "sym_name").and_then(Attribute::as_str)
}

/// Finds the op named `name` directly inside symbol table `table`.
pub fn lookup_in(ir: &Ir, table: OpId, name: &str) -> Option<OpId> {
    ir.regions(table)
        .iter()
        .flat_map(|&r| ir.blocks(r).iter().copied())
        .flat_map(|b| ir.block_op_iter(b))
        .find(|&op| symbol_name(ir, op) == Some(name))
}

/// The closest ancestor of `op` (excluding `op`) that is a symbol table.
pub fn nearest_symbol_table(ir: &Ir, registry: &DialectRegistry, op: OpId) -> Option<OpId> {
    let mut cur = ir.parent_op(op);
    while let Some(o) = cur {
        if registry.traits_of(ir, o).symbol_table {
            return Some(o);
        }
        cur = ir.parent_op(o);
    }
    None
}

/// Resolves a (possibly nested) symbol reference from `from`, searching enclosing symbol
/// tables outwards as MLIR does for flat references.
pub fn resolve_symbol_ref(ir: &Ir, registry: &DialectRegistry, from: OpId, reference: &Attribute) -> Option<OpId> {
    let Attribute::SymbolRef { root, nested } = reference else { return None };
    let mut table = nearest_symbol_table(ir, registry, from);
    while let Some(t) = table {
        if let Some(mut found) = lookup_in(ir, t, root) {
            for n in nested {
                found = lookup_in(ir, found, n)?;
            }
            return Some(found);
        }
        table = nearest_symbol_table(ir, registry, t);
    }
    None
}
