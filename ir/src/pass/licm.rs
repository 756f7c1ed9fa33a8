//! `loop-invariant-code-motion` (MLIR's pass of that name): a pure op in the body of a loop
//! whose operands are all defined outside the loop computes the same value in every iteration,
//! so it moves in front of the loop. Loops are visited innermost first, and an op moved out of
//! an inner loop may move on out of the loops around it.
//!
//! Only ops that may run where they did not before are moved: pure (no side effects), without
//! regions, not reading memory and not [`may_trap`](crate::registry::OpTraits::may_trap) —
//! an integer division by a loop-invariant zero in a loop that runs no iteration must stay
//! where it never runs. Ops nested deeper than the loop body's own blocks (inside an `if`) stay
//! too.

use super::{Pass, PassContext, PassContract, PassInfo};
use crate::diagnostics::DiagResult;
use crate::ir::{InsertPoint, Ir, OpId, ValueDef, ValueId, WalkOrder};
use crate::registry::DialectRegistry;

/// Registration record.
pub fn info() -> PassInfo {
    PassInfo {
        argument: "loop-invariant-code-motion",
        summary: "Move pure ops whose operands are defined outside a loop in front of the loop (innermost loops first)",
        options: vec![],
        factory: |_| Ok(Box::new(LoopInvariantCodeMotion)),
        contract: PassContract::default(),
    }
}

struct LoopInvariantCodeMotion;

impl Pass for LoopInvariantCodeMotion {
    fn argument(&self) -> &'static str {
        "loop-invariant-code-motion"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        let moved = hoist_invariants(ir, root, cx.registry);
        tracing::debug!(moved, "loop-invariant-code-motion finished");
        Ok(())
    }
}

/// Moves the loop-invariant ops of every loop below `root` in front of their loops; returns how
/// many ops moved (an op moved out of two loops counts twice).
pub fn hoist_invariants(ir: &mut Ir, root: OpId, registry: &DialectRegistry) -> usize {
    let mut moved = 0;
    // Post-order: inner loops before the loops around them.
    for op in ir.collect_ops(root, WalkOrder::PostOrder) {
        if op != root && ir.is_alive(op) && registry.traits_of(ir, op).loop_like {
            moved += hoist_from(ir, registry, op);
        }
    }
    moved
}

/// Moves the invariant ops of `lp`'s body blocks in front of it, until none is left.
fn hoist_from(ir: &mut Ir, registry: &DialectRegistry, lp: OpId) -> usize {
    let mut moved = 0;
    loop {
        let mut changed = false;
        for region in ir.regions(lp).to_vec() {
            for block in ir.blocks(region).to_vec() {
                for op in ir.block_ops(block) {
                    let t = registry.traits_of(ir, op);
                    let movable =
                        t.pure && !t.may_trap && !t.terminator && !t.reads_memory && ir.regions(op).is_empty();
                    if movable && ir.operands(op).iter().all(|&v| defined_outside(ir, v, lp)) {
                        ir.move_op(op, InsertPoint::Before(lp));
                        moved += 1;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return moved;
        }
    }
}

/// Whether `value` is defined outside `lp` (not by it, nor by an op or block inside it).
fn defined_outside(ir: &Ir, value: ValueId, lp: OpId) -> bool {
    match ir.value_def(value) {
        ValueDef::Result { op, .. } => !ir.is_ancestor(lp, op),
        ValueDef::BlockArgument { block, .. } => {
            ir.block_parent_op(block).is_none_or(|owner| !ir.is_ancestor(lp, owner))
        }
        ValueDef::Undefined => false,
    }
}
