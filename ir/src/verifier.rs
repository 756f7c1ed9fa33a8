//! Structural and per-op verification.
//!
//! Structural checks: every operand is defined and dominates its use inside structured
//! regions (defined earlier in the same block or in an enclosing block, never across an
//! isolated-from-above boundary), terminators end their blocks, single-block regions, symbol
//! uniqueness in symbol tables, registration. Then each registered op's own verifier runs.
//! Like naga's validator it never mutates the IR.

use crate::diagnostics::{DiagResult, Diagnostic};
use crate::ir::{Ir, OpId, RegionId, ValueDef, ValueId};
use crate::location::Location;
use crate::registry::DialectRegistry;
use std::collections::HashMap;

const NOT_VISIBLE: u32 = u32::MAX;

/// Verifies `root` and everything nested in it. Returns the first error found.
pub fn verify(ir: &Ir, registry: &DialectRegistry, root: OpId, allow_unregistered: bool) -> DiagResult<()> {
    let mut v =
        Verifier { ir, registry, allow_unregistered, depth_of: vec![NOT_VISIBLE; ir.value_capacity()], barrier: 0 };
    v.verify_op(root, 0)
}

/// Rejects an affine map or integer set attribute of `op` whose exact simplification leaves
/// `i64`. The parser refuses such folds in text, but generic-form input spells unfolded
/// expressions (`affine_map<() -> (9223372036854775807 + 1)>` folds at parse, yet `(d0 *
/// 4294967296) * 4294967296` built by a pass stays unfolded): whatever built it, the value
/// such an expression stands for is not an `i64` computation, so no op may carry one.
fn check_affine_folds(ir: &Ir, op: OpId) -> DiagResult<()> {
    fn walk(a: &crate::attributes::Attribute) -> Result<(), crate::affine::AffineOverflow> {
        use crate::attributes::Attribute;
        match a {
            Attribute::AffineMap(m) => m.results.iter().try_for_each(|e| e.check_folds()),
            Attribute::IntegerSet(s) => s.constraints.iter().try_for_each(|c| c.expr.check_folds()),
            Attribute::Array(items) => items.iter().try_for_each(walk),
            Attribute::Dictionary(entries) => entries.iter().try_for_each(|e| walk(&e.value)),
            _ => Ok(()),
        }
    }
    for named in ir.properties(op).iter().chain(ir.attributes(op)) {
        if let Err(e) = walk(&named.value) {
            return Err(Diagnostic::error(
                ir.location(op).clone(),
                format!("'{}' op attribute '{}': {e}", ir.op_name(op), named.name),
            ));
        }
    }
    Ok(())
}

struct Verifier<'a> {
    ir: &'a Ir,
    registry: &'a DialectRegistry,
    allow_unregistered: bool,
    /// Region depth at which each currently visible value was defined.
    depth_of: Vec<u32>,
    /// Values defined at depths below this are hidden (isolated-from-above boundary).
    barrier: u32,
}

impl Verifier<'_> {
    fn verify_op(&mut self, op: OpId, depth: u32) -> DiagResult<()> {
        let ir = self.ir;
        let loc = ir.location(op).clone();
        let def = self.registry.def_of(ir, op);
        if def.is_none() && !self.allow_unregistered {
            return Err(Diagnostic::error(
                loc,
                format!("unregistered operation '{}'; use --allow-unregistered-dialect to allow it", ir.op_name(op)),
            ));
        }
        for (i, &v) in ir.operands(op).iter().enumerate() {
            self.check_operand(op, i, v)?;
        }
        check_affine_folds(ir, op)?;
        let traits = def.map(|d| d.traits).unwrap_or_default();
        if traits.symbol_table {
            self.check_symbol_table(op)?;
        }
        let saved_barrier = self.barrier;
        if traits.isolated_from_above {
            self.barrier = depth + 1;
        }
        for (ri, &region) in ir.regions(op).iter().enumerate() {
            self.verify_region(op, ri, region, depth + 1, def.is_some(), traits)?;
        }
        self.barrier = saved_barrier;
        if let Some(verify) = def.and_then(|d| d.verify) {
            verify(ir, op, self.registry)?;
        }
        Ok(())
    }

    fn verify_region(
        &mut self,
        op: OpId,
        index: usize,
        region: RegionId,
        depth: u32,
        registered: bool,
        traits: crate::registry::OpTraits,
    ) -> DiagResult<()> {
        let ir = self.ir;
        let blocks = ir.blocks(region);
        if traits.single_block && blocks.len() > 1 {
            return Err(Diagnostic::error(
                ir.location(op).clone(),
                format!("'{}' expects region #{index} to have 0 or 1 blocks", ir.op_name(op)),
            ));
        }
        for &block in blocks {
            for &a in ir.block_args(block) {
                self.depth_of[a.index_usize()] = depth;
            }
            let ops = ir.block_ops(block);
            for (pos, &inner) in ops.iter().enumerate() {
                self.verify_op(inner, depth)?;
                for &r in ir.results(inner) {
                    self.depth_of[r.index_usize()] = depth;
                }
                let is_terminator = self.registry.traits_of(ir, inner).terminator;
                if is_terminator && pos + 1 != ops.len() {
                    return Err(Diagnostic::error(
                        ir.location(inner).clone(),
                        format!("'{}' must be the last operation in the parent block", ir.op_name(inner)),
                    ));
                }
            }
            if registered && !traits.no_terminator {
                match ops.last() {
                    None => {
                        return Err(Diagnostic::error(
                            ir.location(op).clone(),
                            format!(
                                "empty block in region #{index} of '{}': expected at least a terminator",
                                ir.op_name(op)
                            ),
                        ))
                    }
                    Some(&last) => {
                        let last_def = self.registry.def_of(ir, last);
                        // Unregistered ops may be terminators; accept them as MLIR does.
                        if last_def.is_some_and(|d| !d.traits.terminator) {
                            return Err(Diagnostic::error(
                                ir.location(last).clone(),
                                format!(
                                    "block in region #{index} of '{}' does not end with a terminator (found '{}')",
                                    ir.op_name(op),
                                    ir.op_name(last)
                                ),
                            )
                            .with_note(ir.location(op).clone(), "in this operation"));
                        }
                    }
                }
            }
            // Values of this block go out of scope for following blocks and siblings.
            for &a in ir.block_args(block) {
                self.depth_of[a.index_usize()] = NOT_VISIBLE;
            }
            for &inner in &ops {
                for &r in ir.results(inner) {
                    self.depth_of[r.index_usize()] = NOT_VISIBLE;
                }
            }
        }
        Ok(())
    }

    fn check_operand(&self, op: OpId, index: usize, v: ValueId) -> DiagResult<()> {
        let ir = self.ir;
        let loc = ir.location(op).clone();
        let def_loc = match ir.value_def(v) {
            ValueDef::Undefined => {
                return Err(Diagnostic::error(
                    loc,
                    format!("operand #{index} of '{}' is an undefined or erased value", ir.op_name(op)),
                ));
            }
            ValueDef::Result { op: def_op, .. } => ir.location(def_op).clone(),
            ValueDef::BlockArgument { block, .. } => {
                ir.block_parent_op(block).map(|o| ir.location(o).clone()).unwrap_or(Location::Unknown)
            }
        };
        let depth = self.depth_of[v.index_usize()];
        if depth == NOT_VISIBLE {
            return Err(Diagnostic::error(loc, format!("operand #{index} does not dominate this use"))
                .with_note(def_loc, "operand defined here"));
        }
        if depth < self.barrier {
            return Err(Diagnostic::error(loc, "using value defined outside the region")
                .with_note(def_loc, "required by region isolation constraints"));
        }
        Ok(())
    }

    fn check_symbol_table(&self, op: OpId) -> DiagResult<()> {
        let ir = self.ir;
        let mut seen: HashMap<&str, &Location> = HashMap::new();
        for &region in ir.regions(op) {
            for &block in ir.blocks(region) {
                for inner in ir.block_op_iter(block) {
                    let Some(name) = ir.attr(inner, "sym_name").and_then(|a| a.as_str()) else { continue };
                    if let Some(prev) = seen.insert(name, ir.location(inner)) {
                        return Err(Diagnostic::error(
                            ir.location(inner).clone(),
                            format!("redefinition of symbol named '{name}'"),
                        )
                        .with_note(prev.clone(), "see existing symbol definition here"));
                    }
                }
            }
        }
        Ok(())
    }
}

trait IndexUsize {
    fn index_usize(self) -> usize;
}

impl IndexUsize for ValueId {
    fn index_usize(self) -> usize {
        crate::entity::EntityId::index(self)
    }
}
