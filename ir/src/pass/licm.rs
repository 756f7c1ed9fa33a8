//! `loop-invariant-code-motion` (MLIR's pass of that name): a pure op in the body of a loop
//! whose operands are all defined outside the loop computes the same value in every iteration,
//! so it moves in front of the loop. Loops are visited innermost first, and an op moved out of
//! an inner loop may move on out of the loops around it.
//!
//! Only ops that may run where they did not before are moved: pure (no side effects), without
//! regions, not reading memory and [speculatable](crate::registry::DialectRegistry::speculatable)
//! — an integer division by a loop-invariant zero in a loop that runs no iteration must stay
//! where it never runs, while one by the constant 2 moves (as in MLIR). Ops nested deeper than
//! the loop body's own blocks (inside an `if`) stay too, as in MLIR's pass — unless
//! `speculate=true` (not in MLIR): then an invariant op inside
//! the `if`s of a loop's body moves as well, as LLVM's loop-invariant code motion hoists
//! instructions that are safe to execute speculatively. The same ops qualify (they cannot
//! trap or touch memory, so running one where its condition was false changes nothing); the
//! GPU cost report's clean-up uses it, so that the simulator does not charge a kernel for
//! invariant arithmetic under a per-thread guard that the way to PTX hoists.

use super::{OptionInfo, OptionKind, Pass, PassContext, PassContract, PassFactory, PassInfo};
use crate::diagnostics::DiagResult;
use crate::ir::{InsertPoint, Ir, OpId, ValueDef, ValueId, WalkOrder};
use crate::registry::DialectRegistry;

/// Registration record.
pub fn info() -> PassInfo {
    PassInfo {
        argument: "loop-invariant-code-motion",
        summary: "Move pure ops whose operands are defined outside a loop in front of the loop (innermost loops first)",
        options: vec![OptionInfo {
            name: "speculate",
            kind: OptionKind::Bool,
            default: "false",
            description: "Also move invariant ops out of the ifs in a loop's body (not in MLIR's pass): only ops that cannot trap or touch memory, which may then run where the condition was false, as LLVM hoists safe-to-speculate instructions",
        }],
        factory: PassFactory::new(|opts| Ok(Box::new(LoopInvariantCodeMotion { speculate: opts.bool("speculate") }))),
        contract: PassContract::default(),
    }
}

struct LoopInvariantCodeMotion {
    /// `speculate=true`: also from the `if`s of a loop's body.
    speculate: bool,
}

impl Pass for LoopInvariantCodeMotion {
    fn argument(&self) -> &'static str {
        "loop-invariant-code-motion"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        let moved = hoist_invariants_speculating(ir, root, cx.registry, self.speculate);
        tracing::debug!(moved, "loop-invariant-code-motion finished");
        Ok(())
    }
}

/// Moves the loop-invariant ops of every loop below `root` in front of their loops (MLIR's
/// pass); returns how many ops moved (an op moved out of two loops counts twice).
pub fn hoist_invariants(ir: &mut Ir, root: OpId, registry: &DialectRegistry) -> usize {
    hoist_invariants_speculating(ir, root, registry, false)
}

/// [`hoist_invariants`], with `speculate` also from the `if`s in the loops' bodies (module
/// documentation).
pub fn hoist_invariants_speculating(ir: &mut Ir, root: OpId, registry: &DialectRegistry, speculate: bool) -> usize {
    let mut moved = 0;
    // Post-order: inner loops before the loops around them.
    for op in ir.collect_ops(root, WalkOrder::PostOrder) {
        if op != root && ir.is_alive(op) && registry.traits_of(ir, op).loop_like {
            moved += hoist_from(ir, registry, op, speculate);
        }
    }
    moved
}

/// Moves the invariant ops of `lp`'s body blocks (with `speculate`, also of the `if`s in them)
/// in front of it, until none is left.
fn hoist_from(ir: &mut Ir, registry: &DialectRegistry, lp: OpId, speculate: bool) -> usize {
    let mut moved = 0;
    loop {
        let mut changed = false;
        // Pre-order: an op before the ops that use it, so that a chain moves in one sweep.
        let candidates: Vec<OpId> = if speculate {
            ir.collect_ops(lp, WalkOrder::PreOrder).into_iter().filter(|&op| guarded_in(ir, registry, op, lp)).collect()
        } else {
            ir.regions(lp).iter().flat_map(|&r| ir.blocks(r).to_vec()).flat_map(|b| ir.block_ops(b)).collect()
        };
        for op in candidates {
            let t = registry.traits_of(ir, op);
            let movable = t.pure
                && registry.speculatable(ir, op)
                && !t.terminator
                && !t.reads_memory
                && ir.regions(op).is_empty();
            if movable && ir.operands(op).iter().all(|&v| defined_outside(ir, v, lp)) {
                ir.move_op(op, InsertPoint::Before(lp));
                moved += 1;
                changed = true;
            }
        }
        if !changed {
            return moved;
        }
    }
}

/// Whether `op` lies in `lp`'s body with only non-loop ops between (its own blocks, or the
/// regions of `if`s in them): not in an inner loop — its invariants moved out already, and the
/// rest varies with it — and not behind an op isolated from above.
fn guarded_in(ir: &Ir, registry: &DialectRegistry, op: OpId, lp: OpId) -> bool {
    let mut parent = ir.parent_op(op);
    while let Some(p) = parent {
        if p == lp {
            return true;
        }
        let t = registry.traits_of(ir, p);
        if t.loop_like || t.isolated_from_above {
            return false;
        }
        parent = ir.parent_op(p);
    }
    false
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
