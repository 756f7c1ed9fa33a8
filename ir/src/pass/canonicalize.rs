//! `canonicalize`: a greedy rewrite driver in the manner of MLIR's canonicalizer. It removes
//! trivially dead ops, folds ops through their [`crate::registry::FoldFn`] (materializing
//! constants with the dialect's hook), runs each op's canonicalization patterns, and hoists
//! and uniques constants at the top of the enclosing isolated region, until a fixed point.

use super::{OptionInfo, OptionKind, Pass, PassContext, PassContract, PassFactory, PassInfo};
use crate::attributes::Attribute;
use crate::diagnostics::DiagResult;
use crate::ir::{InsertPoint, Ir, OpId, ValueId, WalkOrder};
use crate::registry::{DialectRegistry, FoldResult};
use std::collections::HashMap;

/// Registration record.
pub fn info() -> PassInfo {
    PassInfo {
        argument: "canonicalize",
        summary: "Fold constants, remove dead pure ops and apply canonicalization patterns to a fixed point",
        options: vec![OptionInfo {
            name: "max-iterations",
            kind: OptionKind::Int,
            default: "10",
            description: "Maximum number of sweeps over the IR before giving up on reaching a fixed point",
        }],
        factory: PassFactory::new(|opts| {
            let max_iterations = opts.int("max-iterations");
            if max_iterations < 1 {
                return Err("option 'max-iterations' of pass 'canonicalize' must be at least 1".into());
            }
            Ok(Box::new(Canonicalize { max_iterations: max_iterations as usize }))
        }),
        contract: PassContract::default(),
    }
}

struct Canonicalize {
    max_iterations: usize,
}

impl Pass for Canonicalize {
    fn argument(&self) -> &'static str {
        "canonicalize"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        for iteration in 0..self.max_iterations {
            let changed = sweep(ir, root, cx.registry);
            tracing::debug!(iteration, changed, "canonicalize sweep");
            if !changed {
                break;
            }
        }
        Ok(())
    }
}

/// One sweep over every op below `root`; returns whether anything changed.
pub fn sweep(ir: &mut Ir, root: OpId, registry: &DialectRegistry) -> bool {
    let mut changed = unique_constants(ir, root, registry);
    for op in ir.collect_ops(root, WalkOrder::PostOrder) {
        if op == root || !ir.is_alive(op) {
            continue;
        }
        if is_trivially_dead(ir, registry, op) {
            tracing::trace!(op = ir.op_name(op), "erasing dead op");
            ir.erase_op(op);
            changed = true;
            continue;
        }
        if try_fold(ir, registry, op) {
            changed = true;
            continue;
        }
        if let Some(pattern) = registry.def_of(ir, op).and_then(|d| d.canonicalize) {
            changed |= pattern(ir, op);
        }
    }
    changed
}

/// An op is dead when nothing uses its results and removing it has no visible effect: pure
/// ops and ops that only read memory, without regions.
pub fn is_trivially_dead(ir: &Ir, registry: &DialectRegistry, op: OpId) -> bool {
    let traits = registry.traits_of(ir, op);
    (traits.pure || traits.reads_memory)
        && !traits.terminator
        && ir.regions(op).is_empty()
        && ir.results(op).iter().all(|&r| ir.is_unused(r))
}

/// The constant a value holds, if it is defined by a constant-like op.
pub fn constant_value(ir: &Ir, registry: &DialectRegistry, v: ValueId) -> Option<Attribute> {
    let def = ir.defining_op(v)?;
    if !registry.traits_of(ir, def).constant_like {
        return None;
    }
    ir.attr(def, "value").cloned()
}

fn try_fold(ir: &mut Ir, registry: &DialectRegistry, op: OpId) -> bool {
    let Some(def) = registry.def_of(ir, op) else { return false };
    let Some(fold) = def.fold else { return false };
    if def.traits.constant_like {
        return false;
    }
    let constants: Vec<Option<Attribute>> = ir.operands(op).iter().map(|&v| constant_value(ir, registry, v)).collect();
    let Some(result) = fold(ir, op, &constants) else { return false };
    let results = ir.results(op).to_vec();
    match result {
        FoldResult::Values(values) => {
            if values.len() != results.len() || values.iter().any(|v| results.contains(v)) {
                return false;
            }
            ir.replace_op(op, &values);
            true
        }
        FoldResult::Constants(attrs) => {
            if attrs.len() != results.len() {
                return false;
            }
            let dialect = def.name.split('.').next().unwrap_or_default();
            let Some(materialize) = registry.dialect(dialect).and_then(|d| d.materialize_constant) else {
                return false;
            };
            let mut values = vec![];
            for (attr, &r) in attrs.iter().zip(&results) {
                let ty = ir.value_type(r).clone();
                let Some(state) = materialize(attr, &ty, ir.location(op).clone()) else { return false };
                let c = ir.build(InsertPoint::Before(op), state);
                values.push(ir.result(c, 0));
            }
            ir.replace_op(op, &values);
            true
        }
    }
}

/// Moves constants to the start of the entry block of their closest isolated-from-above
/// ancestor and removes duplicates there (MLIR's `OperationFolder` does the same), so that
/// folding does not leave a trail of equal constants. Returns whether anything changed.
fn unique_constants(ir: &mut Ir, root: OpId, registry: &DialectRegistry) -> bool {
    let mut changed = false;
    // Per insertion block: constants already placed, and the last one placed.
    let mut seen: HashMap<(crate::ir::BlockId, ConstantKey), OpId> = HashMap::new();
    let mut last_placed: HashMap<crate::ir::BlockId, OpId> = HashMap::new();
    for op in ir.collect_ops(root, WalkOrder::PreOrder) {
        if !ir.is_alive(op) || !registry.traits_of(ir, op).constant_like || ir.results(op).len() != 1 {
            continue;
        }
        let Some(target) = insertion_block(ir, registry, op) else { continue };
        let key = ConstantKey::of(ir, op);
        if let Some(&existing) = seen.get(&(target, key.clone())) {
            let v = ir.result(existing, 0);
            ir.replace_op(op, &[v]);
            changed = true;
            continue;
        }
        seen.insert((target, key), op);
        let at = match last_placed.get(&target) {
            Some(&prev) => InsertPoint::After(prev),
            None => InsertPoint::Start(target),
        };
        let already_there = match at {
            InsertPoint::After(prev) => ir.next_op(prev) == Some(op),
            InsertPoint::Start(b) => ir.first_op(b) == Some(op),
            _ => false,
        };
        if !already_there {
            ir.move_op(op, at);
            changed = true;
        }
        last_placed.insert(target, op);
    }
    changed
}

/// Where constants are hoisted to: the entry block of the closest enclosing op that is
/// isolated from above or asks to keep constants (`OpTraits::constants_scope`).
fn insertion_block(ir: &Ir, registry: &DialectRegistry, op: OpId) -> Option<crate::ir::BlockId> {
    let mut cur = ir.parent_op(op)?;
    loop {
        let traits = registry.traits_of(ir, cur);
        if traits.isolated_from_above || traits.constants_scope {
            let region = *ir.regions(cur).first()?;
            return ir.entry_block(region);
        }
        cur = ir.parent_op(cur)?;
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct ConstantKey {
    name: String,
    properties: Vec<crate::attributes::NamedAttribute>,
    attributes: Vec<crate::attributes::NamedAttribute>,
    ty: crate::types::Type,
}

impl ConstantKey {
    fn of(ir: &Ir, op: OpId) -> Self {
        ConstantKey {
            name: ir.op_name(op).to_string(),
            properties: ir.properties(op).to_vec(),
            attributes: ir.attributes(op).to_vec(),
            ty: ir.value_type(ir.result(op, 0)).clone(),
        }
    }
}
