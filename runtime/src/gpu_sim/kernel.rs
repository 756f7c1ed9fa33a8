//! The compiled form of a kernel: a flat instruction list with explicit jump targets, so that
//! a thread can stop at a `gpu.barrier` anywhere (inside loops and ifs) and resume later from
//! its program counter and registers alone. The loop interpreter's step tree cannot do that:
//! its position inside nested loops lives on the Rust call stack.

use crate::loops::affine_eval::{CompiledMap, CompiledSet};
use crate::loops::steps::{AffineBound, Index, Site, SiteId, ViewSize};
use crate::scalar::{Reg, ScalarInsn, ValueKind};
use stencil_ir::{Location, Type};

/// Position of an instruction in [`Kernel::code`].
pub(crate) type Label = u32;

/// A value fixed for the whole thread: its position in the launch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Special {
    /// `gpu.thread_id` along a dimension (0 = x).
    ThreadId(usize),
    /// `gpu.block_id`.
    BlockId(usize),
    /// `gpu.block_dim`.
    BlockDim(usize),
    /// `gpu.grid_dim`.
    GridDim(usize),
}

/// A workgroup or private memory attribution: a buffer of static shape created per block
/// (workgroup) or per thread (private) and bound to an entry-block argument.
#[derive(Clone, Debug)]
pub(crate) struct Attribution {
    pub reg: Reg,
    pub kind: ValueKind,
    pub shape: Vec<usize>,
    /// Size in bytes on a device (elements × element size).
    pub bytes: u64,
}

/// One instruction. Memory accesses carry the element size in bytes (for the global traffic
/// counters); every instruction that can fail carries the site of its op.
#[derive(Clone, Debug)]
pub(crate) enum Insn {
    /// An `arith`/`math` op, executed by the shared scalar executor.
    Scalar { insn: ScalarInsn, site: SiteId },
    /// `memref.load` / `affine.load`.
    Load { dst: Reg, mem: Reg, index: Index, bytes: u32, site: SiteId },
    /// `memref.store` / `affine.store`.
    Store { value: Reg, mem: Reg, index: Index, bytes: u32, site: SiteId },
    /// `affine.apply`, `affine.min` / `affine.max` (`fold`).
    Apply { dst: Reg, map: CompiledMap, fold: Option<bool>, site: SiteId },
    /// An `affine.for` / `affine.parallel` bound: max (lower) or min (upper) of map results.
    Bound { dst: Reg, bound: AffineBound, lower: bool, site: SiteId },
    /// `memref.alloca`: a thread-private buffer, freed when the thread returns.
    Alloca { dst: Reg, kind: ValueKind, shape: Box<[Option<usize>]>, sizes: Box<[Reg]>, site: SiteId },
    /// `memref.dim`.
    Dim { dst: Reg, mem: Reg, dim: Reg, site: SiteId },
    /// `memref.cast`: the handle, with its static sizes checked.
    Cast { dst: Reg, src: Reg, shape: Box<[Option<usize>]>, site: SiteId },
    /// `memref.reinterpret_cast` to a flat view of a whole buffer (`Step::FlatView`).
    FlatView { dst: Reg, src: Reg, size: ViewSize, site: SiteId },
    /// Register copy (iter_args, yields, results).
    Move { dst: Reg, src: Reg },
    /// Fails unless the `scf.for` / `scf.parallel` step in `step` is positive.
    CheckStep { step: Reg, site: SiteId },
    /// Loop head: leaves to `exit` unless `counter < upper` (at `width` bits, unsigned if
    /// asked), else sets the induction variable `iv` from the counter.
    LoopTest { counter: Reg, upper: Reg, iv: Reg, width: u8, unsigned: bool, exit: Label },
    /// Loop latch: `counter += step`, back to `head` (to `exit` on overflow, as the loop
    /// interpreter does).
    LoopNext { counter: Reg, step: Reg, head: Label, exit: Label },
    /// Unconditional jump.
    Jump { target: Label },
    /// Jumps to `target` when the `i1` in `cond` is false.
    BranchIfFalse { cond: Reg, target: Label },
    /// Jumps to `target` unless the `affine.if` set holds.
    BranchUnlessSet { set: CompiledSet, target: Label, site: SiteId },
    /// `gpu.barrier`: the thread stops until every thread of its block arrives.
    Barrier { site: SiteId },
    /// `gpu.return`: the thread is done.
    Return { site: SiteId },
}

/// How an instruction names a register (liveness and register allocation, `regalloc.rs`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum RegRole {
    /// Read.
    Use,
    /// Written. A loop test writes its induction variable only when it enters the body, but
    /// counts as a definition all the same: on the exit path the variable is dead (SSA scopes
    /// it to the body, and the next entry writes it before any read), and an instruction that
    /// does not write cannot clobber a register that shares its slot.
    Def,
}

impl Insn {
    /// Calls `f` on every register field of the instruction once (a renaming must not see a
    /// field twice), operands before results.
    pub(crate) fn visit_regs(&mut self, f: &mut impl FnMut(&mut Reg, RegRole)) {
        let mut uses = |r: &mut Reg| f(r, RegRole::Use);
        match self {
            Insn::Scalar { insn, .. } => {
                insn.visit_regs(&mut |r, def| f(r, if def { RegRole::Def } else { RegRole::Use }))
            }
            Insn::Load { dst, mem, index, .. } => {
                uses(mem);
                index.visit_regs(&mut uses);
                f(dst, RegRole::Def);
            }
            Insn::Store { value, mem, index, .. } => {
                uses(value);
                uses(mem);
                index.visit_regs(&mut uses);
            }
            Insn::Apply { dst, map, .. } => {
                map.visit_regs(&mut uses);
                f(dst, RegRole::Def);
            }
            Insn::Bound { dst, bound, .. } => {
                bound.map.visit_regs(&mut uses);
                f(dst, RegRole::Def);
            }
            Insn::Alloca { dst, sizes, .. } => {
                sizes.iter_mut().for_each(&mut uses);
                f(dst, RegRole::Def);
            }
            Insn::Dim { dst, mem, dim, .. } => {
                uses(mem);
                uses(dim);
                f(dst, RegRole::Def);
            }
            Insn::Cast { dst, src, .. } | Insn::Move { dst, src } => {
                uses(src);
                f(dst, RegRole::Def);
            }
            Insn::FlatView { dst, src, size, .. } => {
                uses(src);
                if let ViewSize::Dynamic(size) = size {
                    uses(size);
                }
                f(dst, RegRole::Def);
            }
            Insn::CheckStep { step, .. } => uses(step),
            Insn::LoopTest { counter, upper, iv, .. } => {
                uses(counter);
                uses(upper);
                f(iv, RegRole::Def);
            }
            // The counter is read and written in place: one visit as a use, whose position
            // the counter's live interval covers anyway.
            Insn::LoopNext { counter, step, .. } => {
                uses(counter);
                uses(step);
            }
            Insn::BranchIfFalse { cond, .. } => uses(cond),
            Insn::BranchUnlessSet { set, .. } => set.visit_regs(&mut uses),
            Insn::Jump { .. } | Insn::Barrier { .. } | Insn::Return { .. } => {}
        }
    }

    /// Where control may go after this instruction other than the next one (jump targets), and
    /// whether it may fall through to the next one.
    pub(crate) fn successors(&self) -> (Option<Label>, Option<Label>, bool) {
        match *self {
            Insn::Jump { target } => (Some(target), None, false),
            Insn::BranchIfFalse { target, .. } | Insn::BranchUnlessSet { target, .. } => (Some(target), None, true),
            Insn::LoopTest { exit, .. } => (Some(exit), None, true),
            Insn::LoopNext { head, exit, .. } => (Some(head), Some(exit), false),
            // A thread stops at a barrier and resumes at the next instruction.
            Insn::Barrier { .. } => (None, None, true),
            Insn::Return { .. } => (None, None, false),
            _ => (None, None, true),
        }
    }

    /// Whether the instruction ends a basic block (it jumps, branches or stops the thread).
    pub(crate) fn ends_block(&self) -> bool {
        matches!(
            self,
            Insn::Jump { .. }
                | Insn::BranchIfFalse { .. }
                | Insn::BranchUnlessSet { .. }
                | Insn::LoopTest { .. }
                | Insn::LoopNext { .. }
                | Insn::Barrier { .. }
                | Insn::Return { .. }
        )
    }
}

impl Index {
    /// Calls `f` on every register the index reads.
    pub(crate) fn visit_regs(&mut self, f: &mut impl FnMut(&mut Reg)) {
        match self {
            Index::Regs(regs) => regs.iter_mut().for_each(f),
            Index::Map(map) => map.visit_regs(f),
        }
    }
}

/// The first instruction of every basic block of `code` — a straight run entered only at its
/// first instruction and left only after its last: instruction 0, every jump target, and every
/// instruction after one that jumps, branches or stops the thread (a thread resumes after a
/// barrier, so a phase never begins inside a block). `leaders[code.len()]` is true.
pub(crate) fn leaders(code: &[Insn]) -> Vec<bool> {
    let n = code.len();
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    leader[n] = true;
    for (i, insn) in code.iter().enumerate() {
        if !insn.ends_block() {
            continue;
        }
        leader[i + 1] = true;
        let (a, b, _) = insn.successors();
        for t in [a, b].into_iter().flatten() {
            leader[(t as usize).min(n)] = true;
        }
    }
    leader
}

/// A compiled `gpu.func ... kernel`.
#[derive(Clone, Debug)]
pub(crate) struct Kernel {
    /// `module::kernel`.
    pub name: String,
    pub location: Location,
    pub arg_types: Vec<Type>,
    pub args: Box<[Reg]>,
    pub workgroup: Box<[Attribution]>,
    pub private: Box<[Attribution]>,
    /// Registers holding thread/block ids and sizes, set when a thread starts.
    pub specials: Box<[(Reg, Special)]>,
    pub num_regs: usize,
    /// Registers `0..pinned` hold values set when a thread starts (constants, arguments, ids,
    /// attributions, zero for registers read before written); every other register is
    /// written before it is read (`regalloc.rs` numbers the pinned registers first).
    pub pinned: usize,
    /// Constants loaded into every thread's registers when it starts.
    pub constants: Box<[(Reg, u64)]>,
    /// The instructions, each with the warp model's counting slot of the basic block it
    /// starts (`warp::NOT_COUNTED` for the others); side by side, one load fetches both.
    pub code: Box<[(Insn, u32)]>,
    /// Per slot, the counted instructions of its basic block.
    pub slot_weights: Box<[u64]>,
    /// Tables of the warp-synchronous run (`simt.rs`).
    pub simt: super::simt::SimtTables,
    pub sites: Vec<Site>,
    /// Per instruction of `code`, the location of the op it was compiled from: where
    /// `SimOptions::profile` attributes warp-instructions.
    pub locations: Box<[Location]>,
    /// The block size the kernel promises to be launched with (`known_block_size`): MLIR
    /// folds `gpu.block_dim` to it, so a launch with another block is refused.
    pub known_block: Option<[u64; 3]>,
}

impl Kernel {
    /// Total workgroup memory of one block, in bytes.
    pub fn workgroup_bytes(&self) -> u64 {
        self.workgroup.iter().map(|a| a.bytes).sum()
    }

    /// The name as MLIR writes a reference to it: `@module::@kernel`.
    pub fn symbol(&self) -> String {
        format!("@{}", self.name.replace("::", "::@"))
    }
}
