//! The compiled form of a function: a tree of [`Step`]s mirroring the structured control
//! flow, with every SSA value in a register of the function's frame.

use super::affine_eval::{CompiledMap, CompiledSet};
use crate::scalar::{Reg, ScalarInsn, ValueKind};
use stencil_ir::Location;

/// Index into a function's [`Site`] table.
pub(crate) type SiteId = u32;

/// Where an op came from, for error messages.
#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub location: Location,
    pub op: String,
}

/// A region's steps and the registers its terminator yields.
#[derive(Clone, Debug, Default)]
pub(crate) struct Body {
    pub steps: Box<[Step]>,
    pub yields: Box<[Reg]>,
}

/// One bound of a dimension: the max (lower) or min (upper) of a group of map results.
#[derive(Clone, Debug)]
pub(crate) struct AffineBound {
    pub map: CompiledMap,
    pub range: std::ops::Range<usize>,
}

/// How an `affine.parallel` reduction combines values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ReductionKind {
    AddF,
    MulF,
    MaximumF,
    MinimumF,
    MaxNumF,
    MinNumF,
    AddI,
    MulI,
    AndI,
    OrI,
    XorI,
    MaxS,
    MinS,
    MaxU,
    MinU,
    Assign,
}

/// An `scf.parallel` reduction: the accumulator, and the region combining it with a value.
#[derive(Clone, Debug)]
pub(crate) struct Reducer {
    /// Register of the value reduced in each iteration.
    pub operand: Reg,
    /// The region's `(lhs, rhs)` arguments.
    pub lhs: Reg,
    pub rhs: Reg,
    /// The region, yielding the combined value.
    pub body: Body,
}

/// One step.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// An `arith`/`math` op.
    Scalar { insn: ScalarInsn, site: SiteId },
    /// `memref.load` / `affine.load` (with `map`).
    Load { dst: Reg, mem: Reg, index: Index, site: SiteId },
    /// `memref.store` / `affine.store`.
    Store { value: Reg, mem: Reg, index: Index, site: SiteId },
    /// `affine.apply` (one result), `affine.min` / `affine.max` (`fold`).
    Apply { dst: Reg, map: CompiledMap, fold: Option<bool>, site: SiteId },
    /// `memref.alloc` / `memref.alloca`.
    Alloc { dst: Reg, kind: ValueKind, shape: Box<[Option<usize>]>, sizes: Box<[Reg]>, stack: bool, site: SiteId },
    /// `memref.dealloc`.
    Dealloc { mem: Reg, site: SiteId },
    /// `memref.dim`.
    Dim { dst: Reg, mem: Reg, dim: Reg, site: SiteId },
    /// `memref.copy`.
    Copy { src: Reg, dst: Reg, site: SiteId },
    /// `memref.cast`: the handle with its static sizes checked.
    Cast { dst: Reg, src: Reg, shape: Box<[Option<usize>]>, site: SiteId },
    /// `memref.reinterpret_cast` to offset 0, one size and stride 1: the handle marked as a flat
    /// view ([`super::memory::FLAT_VIEW`]), once `size` is checked to be the buffer's length.
    FlatView { dst: Reg, src: Reg, size: ViewSize, site: SiteId },
    /// `scf.for`.
    For { lower: Reg, upper: Reg, step: Reg, unsigned: bool, lp: Loop, site: SiteId },
    /// `affine.for`.
    AffineFor { lower: AffineBound, upper: AffineBound, step: i64, lp: Loop, site: SiteId },
    /// `scf.if` / `affine.if`.
    If { cond: Cond, then_body: Body, else_body: Body, results: Box<[Reg]>, site: SiteId },
    /// `scf.parallel`, run sequentially in lexicographic order.
    Parallel {
        lowers: Box<[Reg]>,
        uppers: Box<[Reg]>,
        steps: Box<[Reg]>,
        ivs: Box<[Reg]>,
        inits: Box<[Reg]>,
        reducers: Box<[Reducer]>,
        body: Body,
        results: Box<[Reg]>,
        site: SiteId,
    },
    /// `affine.parallel`, run sequentially in lexicographic order.
    AffineParallel {
        lowers: Box<[AffineBound]>,
        uppers: Box<[AffineBound]>,
        steps: Box<[i64]>,
        ivs: Box<[Reg]>,
        reductions: Box<[(ReductionKind, ValueKind)]>,
        body: Body,
        results: Box<[Reg]>,
        site: SiteId,
    },
    /// `scf.while`.
    While {
        inits: Box<[Reg]>,
        before_args: Box<[Reg]>,
        before: Body,
        after_args: Box<[Reg]>,
        after: Body,
        results: Box<[Reg]>,
    },
    /// `func.call`.
    Call { func: usize, args: Box<[Reg]>, results: Box<[Reg]>, site: SiteId },
    /// `gpu.launch_func` (synchronous): runs kernel number `kernel` of the GPU simulator.
    Launch { kernel: usize, grid: [Reg; 3], block: [Reg; 3], args: Box<[Reg]>, site: SiteId },
}

/// The index of a memory access.
#[derive(Clone, Debug)]
pub(crate) enum Index {
    /// One register per dimension (`memref.load`).
    Regs(Box<[Reg]>),
    /// An affine map over registers (`affine.load`).
    Map(CompiledMap),
}

/// The condition of an `if`.
#[derive(Clone, Debug)]
pub(crate) enum Cond {
    /// An `i1` register.
    Reg(Reg),
    /// An integer set over registers.
    Set(CompiledSet),
}

/// The shared part of `scf.for` and `affine.for`.
#[derive(Clone, Debug)]
pub(crate) struct Loop {
    pub iv: Reg,
    /// The induction variable's width (64 for `index`).
    pub width: u8,
    /// Loop-carried values: block argument registers and their initial values.
    pub iter_args: Box<[Reg]>,
    pub inits: Box<[Reg]>,
    pub body: Body,
    pub results: Box<[Reg]>,
}

/// A compiled function.
#[derive(Clone, Debug)]
pub(crate) struct Function {
    pub name: String,
    pub location: Location,
    pub arg_types: Vec<stencil_ir::Type>,
    pub result_types: Vec<stencil_ir::Type>,
    pub num_regs: usize,
    /// Constants loaded into the frame when it is created.
    pub constants: Box<[(Reg, u64)]>,
    pub args: Box<[Reg]>,
    pub body: Body,
    pub sites: Vec<Site>,
}

/// The size of a flat view: known when compiling, or in a register.
#[derive(Copy, Clone, Debug)]
pub(crate) enum ViewSize {
    /// A static size.
    Static(i64),
    /// A size operand.
    Dynamic(Reg),
}

impl ViewSize {
    /// The size, reading a dynamic one with `read` (a register's bits).
    #[inline]
    pub(crate) fn value(self, read: impl FnOnce(Reg) -> u64) -> i64 {
        match self {
            ViewSize::Static(n) => n,
            ViewSize::Dynamic(r) => read(r) as i64,
        }
    }
}
