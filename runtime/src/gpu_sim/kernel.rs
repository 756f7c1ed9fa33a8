//! The compiled form of a kernel: a flat instruction list with explicit jump targets, so that
//! a thread can stop at a `gpu.barrier` anywhere (inside loops and ifs) and resume later from
//! its program counter and registers alone. The loop interpreter's step tree cannot do that:
//! its position inside nested loops lives on the Rust call stack.

use crate::loops::affine_eval::{CompiledMap, CompiledSet};
use crate::loops::steps::{AffineBound, Index, Site, SiteId};
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
    /// Constants loaded into every thread's registers when it starts.
    pub constants: Box<[(Reg, u64)]>,
    /// The instructions, each with the warp model's counting slot of the basic block it
    /// starts (`warp::NOT_COUNTED` for the others); side by side, one load fetches both.
    pub code: Box<[(Insn, u32)]>,
    /// Per slot, the counted instructions of its basic block.
    pub slot_weights: Box<[u64]>,
    pub sites: Vec<Site>,
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
