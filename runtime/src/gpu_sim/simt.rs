//! Warp-synchronous execution of a block: the fast path of the simulator.
//!
//! Running threads one by one costs an instruction dispatch, an operand decode and a counter
//! update per thread and instruction. Here the 32 threads of a warp run together, as on a
//! GPU: one dispatch per instruction for all lanes at the same program counter, registers
//! laid out lane-contiguous (`regs[register × 32 + lane]`), so that arithmetic is a loop over
//! lanes the compiler vectorises. Lanes that branch apart wait; the lanes with the smallest
//! program counter run first, which reconverges structured control flow (the kernel's code is
//! laid out in program order: `if` bodies before their join, loop bodies between head and
//! latch, exits after), and lanes falling into a waiting lane's program counter merge with it.
//!
//! The thread-by-thread run (`thread.rs`) stays the definition of what the simulator does.
//! Interleaving threads changes nothing a program can observe as long as no thread sees
//! another's access within a phase — exactly what the race detector checks. So a block runs
//! here first, with every check; wherever the thread-by-thread run could have reported
//! anything — a race, a read of unwritten workgroup memory, an error of any kind, a divergent
//! barrier, a thread over its instruction budget — the block is rolled back (global stores
//! undone from a log, shadow cells restored, its buffers freed in reverse so handles are
//! reused as before, counters dropped) and runs again thread by thread, which reports it
//! exactly as before, in the chosen thread order. Blocks that finish here are
//! indistinguishable from thread-by-thread runs: results, every counter, and the shadow state
//! later blocks check against (`RaceDetector::access_simt`).
//!
//! A register every lane of a warp holds the same value in is *uniform* (constants, arguments,
//! block ids, and what is computed from them only); an instruction whose operands all are
//! uniform runs once, in lane 0; its result stays in lane 0 until an instruction reads it lane by
//! lane, which first copies it to the other lanes. An instruction that defines an
//! SSA value (`arith`/`math`, `affine.apply`/`min`/`max`, loop bounds) writes a result from
//! uniform operands to every lane of the warp, also to lanes that do not run it, which keeps
//! it uniform in divergent code (the guarded body of a tile, where most index arithmetic
//! runs). That is safe: a lane that does not run the instruction at `p` is waiting at a
//! larger program counter `q` (the lanes at the smallest run), stopped at a barrier it
//! resumes after (only lanes running before the earliest such barrier write every lane), or
//! has returned (its registers are dead). Writing its copy of the register `R` matters only if
//! `R` holds a value `v` live for it at `q`. The result `w` is defined at `p` only (SSA), and
//! register allocation gave `v` and `w` one register only if their live intervals — hulls
//! over code positions, containing each value's definitions and live positions
//! (`regalloc.rs`) — are disjoint. If `v` was defined before `p`, its interval spans `p`
//! up to `q`: a contradiction. If it was defined after `p` (and before `q`) in the current
//! iteration of every loop around `p`, the lane ran that code while the running lanes were
//! still before it, which smallest-first scheduling forbids (the lanes of a loop go around it
//! together); if in an earlier iteration, `v` is live around that loop's back edge and its
//! interval spans the whole loop, `p` included. And `v` is not `w`: the lane skipped `p` in
//! this iteration, so `p` does not dominate `q`. Copies between registers (`iter_args`,
//! results, loop counters) define one register in several places, so none of this holds for
//! them: they write only the lanes that run them.
//!
//! Counting follows the warp model (`warp.rs`) exactly: per warp, phase and basic block, how
//! many times each lane entered it. An entry by every lane of the warp is one count for all
//! (the common case); others count per lane. At the end of the warp's phase the warp issued
//! each block as often as its busiest lane entered it.

use super::kernel::{leaders, Insn, Kernel, RegRole, Special};
use super::launch::{LaunchRun, MemClass, Stop};
use super::race::{CellUndo, Tracked};
use super::report::AccessKind;
use super::sectors::Marked;
use super::warp::{is_counted, Entries, WARP_SIZE};
use crate::loops::memory::{is_flat_view, Buffer};
use crate::loops::steps::Index;
use crate::loops::MemRef;
use crate::scalar::semantics::{cmpi, ibin, int_cast, IBinOp};
use crate::scalar::CastKind;
use crate::scalar::{exec, sext, zext, Elem, Reg, Regs, ScalarInsn};

/// Lanes per warp as a register stride.
const W: usize = WARP_SIZE;

/// Not the first instruction of a basic block.
const NO_BLOCK: u32 = u32::MAX;

/// No register.
const NO_REG: Reg = Reg::MAX;

/// What the warp loop needs to know of an instruction besides the instruction.
#[derive(Copy, Clone, Debug)]
struct Meta {
    /// The number of the basic block it starts ([`NO_BLOCK`] if it starts none).
    block: u32,
    /// The register it writes ([`NO_REG`] for none).
    def: Reg,
    /// Its operand registers: `SimtTables::uses[uses.0..uses.1]`.
    uses: (u32, u32),
}

/// Per-kernel tables of the warp-synchronous run, built with the kernel.
#[derive(Clone, Debug, Default)]
pub(crate) struct SimtTables {
    /// Per instruction, what the warp loop needs besides the instruction, side by side so
    /// that one cache line holds it.
    meta: Box<[Meta]>,
    /// Per basic block: instructions (for the instruction count) and counted instructions
    /// (warp model weights).
    sizes: Box<[(u64, u64)]>,
    /// Per basic block, its first instruction (`SimOptions::profile`).
    starts: Box<[u32]>,
    /// The operand registers of every instruction, one after another (`Meta::uses`).
    uses: Box<[Reg]>,
    /// Per instruction, the operands of a scalar instruction (at most three) padded with the
    /// spare register `num_regs`, always uniform and never lazy: the run of scalar instructions
    /// checks them without a loop, whose exits the branch predictor misses.
    scalar_operands: Box<[[Reg; 3]]>,
    /// Whether blocks of the kernel can run warp-synchronously: `memref.alloca` allocates per
    /// thread while running, which this path does not model (such kernels run thread by
    /// thread).
    pub usable: bool,
}

impl SimtTables {
    /// The tables of `code`, whose registers are numbered below `num_regs`.
    pub fn new(code: &[Insn], num_regs: usize) -> Self {
        let spare = num_regs as Reg;
        let (mut scalar_operands, mut wide_scalars) = (vec![], false);
        let leader = leaders(code);
        let n = code.len();
        let mut block_at = vec![NO_BLOCK; n];
        let (mut sizes, mut starts) = (vec![], vec![]);
        let mut i = 0;
        while i < n {
            let end = (i + 1..=n).find(|&j| leader[j]).unwrap_or(n);
            block_at[i] = sizes.len() as u32;
            starts.push(i as u32);
            let counted = code[i..end].iter().filter(|insn| is_counted(insn)).count() as u64;
            sizes.push(((end - i) as u64, counted));
            i = end;
        }
        let (mut uses, mut meta) = (vec![], vec![]);
        for (insn, &block) in code.iter().zip(&block_at) {
            let start = uses.len() as u32;
            let mut def = NO_REG;
            insn.clone().visit_regs(&mut |r, role| match role {
                RegRole::Use => uses.push(*r),
                RegRole::Def => def = *r,
            });
            // The latch updates its counter in place (visited as a use).
            if let Insn::LoopNext { counter, .. } = insn {
                def = *counter;
            }
            let mut operands = [spare; 3];
            if let (Insn::Scalar { .. }, Some(scalar)) = (insn, uses.get(start as usize..)) {
                match operands.get_mut(..scalar.len()) {
                    Some(slots) => slots.copy_from_slice(scalar),
                    // No scalar instruction has more (`ScalarInsn::visit_regs`); should one
                    // come, its kernels run thread by thread rather than wrongly.
                    None => wide_scalars = true,
                }
            }
            scalar_operands.push(operands);
            meta.push(Meta { block, def, uses: (start, uses.len() as u32) });
        }
        let usable = !wide_scalars && !code.iter().any(|insn| matches!(insn, Insn::Alloca { .. }));
        SimtTables {
            meta: meta.into(),
            sizes: sizes.into(),
            starts: starts.into(),
            uses: uses.into(),
            scalar_operands: scalar_operands.into(),
            usable,
        }
    }
}

/// Whether blocks are tried warp-synchronously: always, except in the unit tests that
/// compare both runs.
#[cfg(not(test))]
#[inline(always)]
pub(super) fn enabled() -> bool {
    true
}

/// Counts fallbacks (unit tests only).
#[cfg(not(test))]
#[inline(always)]
pub(super) fn fell_back() {}

#[cfg(test)]
thread_local! {
    static ENABLED: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
    static FALLBACKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
pub(super) fn enabled() -> bool {
    ENABLED.with(|e| e.get())
}

#[cfg(test)]
pub(super) fn fell_back() {
    FALLBACKS.with(|f| f.set(f.get() + 1));
}

/// The block must run again thread by thread (see the module documentation).
#[derive(Copy, Clone, Debug)]
pub(super) struct Fallback;

type Simt<T = ()> = Result<T, Fallback>;

/// Counters of one block, added to the launch's when the block finishes.
#[derive(Copy, Clone, Debug, Default)]
struct Tally {
    instructions: u64,
    warp_instructions: u64,
    thread_instructions: u64,
    barriers: u64,
    global_loads: u64,
    global_stores: u64,
    global_bytes_read: u64,
    global_bytes_written: u64,
    workgroup_loads: u64,
    workgroup_stores: u64,
}

impl Tally {
    /// Counts `n` accesses of `kind` (`bytes` each) to a buffer of `class` and says how the race
    /// detector tracks them (`None`: private memory, not tracked), as the thread-by-thread run's
    /// `LaunchRun::track` counts them.
    fn count(&mut self, class: MemClass, kind: AccessKind, n: u64, bytes: u32) -> Option<Tracked> {
        match (class, kind) {
            (MemClass::Private, _) => None,
            (MemClass::Global, AccessKind::Read) => {
                self.global_loads += n;
                self.global_bytes_read += n * u64::from(bytes);
                Some(Tracked::Global)
            }
            (MemClass::Global, AccessKind::Write) => {
                self.global_stores += n;
                self.global_bytes_written += n * u64::from(bytes);
                Some(Tracked::Global)
            }
            (MemClass::Workgroup(_), AccessKind::Read) => {
                self.workgroup_loads += n;
                Some(Tracked::Workgroup)
            }
            (MemClass::Workgroup(_), AccessKind::Write) => {
                self.workgroup_stores += n;
                Some(Tracked::Workgroup)
            }
        }
    }
}

/// A race check's answer as the warp loop takes it: a finding makes the block fall back.
fn checked(clean: bool) -> Simt {
    if clean {
        Ok(())
    } else {
        Err(Fallback)
    }
}

/// Buffers reused by every block of a launch.
pub(super) struct SimtScratch {
    /// Registers: per warp, `num_regs × 32`.
    frames: Vec<u64>,
    /// Per warp and register, whether every lane of the warp holds the same value (then an
    /// instruction whose operands all are runs once for the warp).
    uniform: Vec<bool>,
    /// Per warp and register: uniform, and only lane 0 written yet (the other lanes are
    /// filled in when an instruction reads the register lane by lane).
    lazy: Vec<bool>,
    /// Per basic block, the entries by all lanes of the running warp in its current phase.
    full: Vec<u64>,
    /// Per basic block and lane, the other entries.
    part: Vec<u64>,
    /// Per basic block, whether it is in `touched`.
    seen: Vec<bool>,
    /// The basic blocks `full` or `part` hold counts of.
    touched: Vec<u32>,
    /// Global stores of the block: handle, position, previous value.
    stores: Vec<(u32, usize, u64)>,
    /// DRAM sectors the block was the first of its launch to touch (unmarked on fallback).
    marked: Vec<Marked>,
    /// Shadow cells before the block.
    cells: Vec<CellUndo>,
    /// Per thread of the block, its position in the current phase's thread order.
    rank: Vec<u32>,
    /// Per thread, where it stopped in the current phase.
    stops: Vec<Option<Stop>>,
    /// With `SimOptions::profile`, per basic block: the warps' entries (the busiest lane's)
    /// of the blocks run warp-synchronously so far, and those of the running block (kept apart:
    /// a block that falls back to the thread-by-thread run is counted there).
    entries: Option<BlockEntries>,
    /// Per warp: where it resumes, instructions issued in the block.
    warps: Vec<(usize, u64)>,
}

/// `SimtScratch::entries`: per basic block the committed warp and lane entries, and the
/// running block's (basic block, entries) pairs.
type BlockEntries = (Vec<Entries>, Vec<(u32, Entries)>);

impl SimtScratch {
    /// Scratch space for blocks of `tpb` threads of `kernel`.
    pub fn new(kernel: &Kernel, tpb: usize) -> Self {
        let warps = tpb.div_ceil(W);
        let blocks = kernel.simt.sizes.len();
        SimtScratch {
            frames: vec![0; warps * kernel.num_regs * W],
            uniform: vec![false; warps * (kernel.num_regs + 1)],
            lazy: vec![false; warps * (kernel.num_regs + 1)],
            full: vec![0; blocks],
            part: vec![0; blocks * W],
            seen: vec![false; blocks],
            touched: vec![],
            stores: vec![],
            marked: vec![],
            cells: vec![],
            rank: vec![0; tpb],
            stops: vec![None; tpb],
            entries: None,
            warps: vec![(0, 0); warps],
        }
    }

    /// Also sums the warps' entries per basic block (`SimOptions::profile`).
    pub fn with_entries(mut self) -> Self {
        self.entries = Some((vec![Entries::default(); self.full.len()], vec![]));
        self
    }

    /// The summed entries per instruction index of each basic block's first instruction
    /// (empty without [`SimtScratch::with_entries`]).
    pub fn take_entries(&mut self, tables: &SimtTables) -> Vec<(usize, Entries)> {
        let Some((by_block, _)) = self.entries.take() else { return vec![] };
        by_block.iter().zip(tables.starts.iter()).filter(|(e, _)| e.warps > 0).map(|(&e, &i)| (i as usize, e)).collect()
    }
}

/// Iterates over the set bits of `mask`, lowest first.
#[inline(always)]
fn lanes(mask: u32, mut f: impl FnMut(usize)) {
    let mut m = mask;
    while m != 0 {
        f(m.trailing_zeros() as usize);
        m &= m - 1;
    }
}

/// Like [`lanes`], stopping at the first `Err`.
#[inline(always)]
fn try_lanes(mask: u32, mut f: impl FnMut(usize) -> Simt) -> Simt {
    let mut m = mask;
    while m != 0 {
        f(m.trailing_zeros() as usize)?;
        m &= m - 1;
    }
    Ok(())
}

/// One lane's view of a warp's registers, for the scalar executor and affine evaluation.
struct Lane<'a> {
    regs: &'a mut [u64],
    lane: usize,
}

impl Regs for Lane<'_> {
    #[inline(always)]
    fn get(&self, r: Reg) -> u64 {
        self.regs[r as usize * W + self.lane]
    }
    #[inline(always)]
    fn set(&mut self, r: Reg, v: u64) {
        self.regs[r as usize * W + self.lane] = v;
    }
}

/// Register `r` of every lane.
#[inline(always)]
fn row(regs: &[u64], r: Reg) -> [u64; W] {
    let mut out = [0; W];
    out.copy_from_slice(&regs[r as usize * W..(r as usize + 1) * W]);
    out
}

/// Copies lane 0 of register `r` to every lane.
#[inline(always)]
fn broadcast(regs: &mut [u64], r: Reg) {
    let row = &mut regs[r as usize * W..(r as usize + 1) * W];
    let v = row[0];
    row.fill(v);
}

/// Before an instruction reads or writes register `r` lane by lane: if only lane 0 holds its
/// (uniform) value yet, copies it to the other lanes.
#[inline(always)]
fn fill_lanes(regs: &mut [u64], lazy: &mut [bool], r: Reg) {
    if lazy[r as usize] {
        lazy[r as usize] = false;
        broadcast(regs, r);
    }
}

/// Register `d` of every lane to write, and registers `a`, `b` of every lane to read, without
/// copying them (`None` when `d` is one of them).
#[inline(always)]
fn rows_mut(regs: &mut [u64], d: Reg, a: Reg, b: Reg) -> Option<(&mut [u64], &[u64], &[u64])> {
    let (d, a, b) = (d as usize, a as usize, b as usize);
    if d == a || d == b {
        return None;
    }
    let (lo, rest) = regs.split_at_mut(d * W);
    let (out, hi) = rest.split_at_mut(W);
    let (lo, hi) = (&*lo, &*hi);
    let get = |r: usize| if r < d { lo.get(r * W..(r + 1) * W) } else { hi.get((r - d - 1) * W..(r - d) * W) };
    Some((out, get(a)?, get(b)?))
}

/// Writes `values` to the lanes of `wide` of register `dst`.
#[inline(always)]
fn put(regs: &mut [u64], dst: Reg, wide: u32, values: [u64; W]) {
    let out = &mut regs[dst as usize * W..(dst as usize + 1) * W];
    if wide == u32::MAX {
        out.copy_from_slice(&values);
    } else {
        lanes(wide, |l| out[l] = values[l]);
    }
}

/// `dst = f(a)` in the lanes of `wide` (computed in every lane: a loop the compiler
/// vectorises; `f` must not fail on the values of lanes that do not run).
#[inline(always)]
fn unary(regs: &mut [u64], wide: u32, dst: Reg, a: Reg, f: impl Fn(u64) -> u64) {
    if wide == u32::MAX {
        if let Some((out, x, _)) = rows_mut(regs, dst, a, a) {
            for (o, &x) in out.iter_mut().zip(x) {
                *o = f(x);
            }
            return;
        }
    }
    let x = row(regs, a);
    let mut v = [0; W];
    for l in 0..W {
        v[l] = f(x[l]);
    }
    put(regs, dst, wide, v);
}

/// `dst = f(a, b)` in the lanes of `wide`.
#[inline(always)]
fn binary(regs: &mut [u64], wide: u32, dst: Reg, a: Reg, b: Reg, f: impl Fn(u64, u64) -> u64) {
    if wide == u32::MAX {
        if let Some((out, x, y)) = rows_mut(regs, dst, a, b) {
            for (o, (&x, &y)) in out.iter_mut().zip(x.iter().zip(y)) {
                *o = f(x, y);
            }
            return;
        }
    }
    if wide == u32::MAX {
        let (x, y) = (row(regs, a), row(regs, b));
        let out = &mut regs[dst as usize * W..(dst as usize + 1) * W];
        for (o, (&x, &y)) in out.iter_mut().zip(x.iter().zip(&y)) {
            *o = f(x, y);
        }
    } else {
        // Partly active warps run a few lanes (about four in tiled 3-D kernels): lane by lane,
        // without copying the operand rows.
        let (d, a, b) = (dst as usize * W, a as usize * W, b as usize * W);
        lanes(wide, |l| regs[d + l] = f(regs[a + l], regs[b + l]));
    }
}

/// `dst = f(a, b, c)` in the lanes of `wide`.
#[inline(always)]
fn ternary(regs: &mut [u64], wide: u32, dst: Reg, a: Reg, b: Reg, c: Reg, f: impl Fn(u64, u64, u64) -> u64) {
    let (x, y, z) = (row(regs, a), row(regs, b), row(regs, c));
    let mut v = [0; W];
    for l in 0..W {
        v[l] = f(x[l], y[l], z[l]);
    }
    put(regs, dst, wide, v);
}

#[inline(always)]
fn f64s(f: impl Fn(f64, f64) -> f64) -> impl Fn(u64, u64) -> u64 {
    move |a, b| f(f64::from_reg(a), f64::from_reg(b)).to_reg()
}

#[inline(always)]
fn f32s(f: impl Fn(f32, f32) -> f32) -> impl Fn(u64, u64) -> u64 {
    move |a, b| f(f32::from_reg(a), f32::from_reg(b)).to_reg()
}

/// `arith.floordivsi` for a divisor that is neither 0 nor -1.
#[inline(always)]
fn floor_div_nonzero(x: i64, y: i64) -> i64 {
    let q = x / y;
    if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

/// `arith.ceildivsi` for a divisor that is neither 0 nor -1.
#[inline(always)]
fn ceil_div_nonzero(x: i64, y: i64) -> i64 {
    let q = x / y;
    if x % y != 0 && ((x < 0) == (y < 0)) {
        q + 1
    } else {
        q
    }
}

/// Runs a scalar instruction for the lanes of `wide` (those of `mask`, and padding lanes
/// whose registers mean nothing) as one loop over all lanes, where the instruction is common
/// enough to deserve one; `Ok(false)` for the others. A fault in a lane of `mask` is a
/// [`Fallback`]; elsewhere it is ignored (the lane does not run the instruction).
#[inline(always)]
fn vector_scalar(insn: &ScalarInsn, regs: &mut [u64], mask: u32, wide: u32) -> Simt<bool> {
    match *insn {
        ScalarInsn::AddF64 { dst, a, b } => binary(regs, wide, dst, a, b, f64s(|x, y| x + y)),
        ScalarInsn::SubF64 { dst, a, b } => binary(regs, wide, dst, a, b, f64s(|x, y| x - y)),
        ScalarInsn::MulF64 { dst, a, b } => binary(regs, wide, dst, a, b, f64s(|x, y| x * y)),
        ScalarInsn::DivF64 { dst, a, b } => binary(regs, wide, dst, a, b, f64s(|x, y| x / y)),
        ScalarInsn::FmaF64 { dst, a, b, c } => ternary(regs, wide, dst, a, b, c, |x, y, z| {
            f64::from_reg(x).mul_add(f64::from_reg(y), f64::from_reg(z)).to_reg()
        }),
        ScalarInsn::AddF32 { dst, a, b } => binary(regs, wide, dst, a, b, f32s(|x, y| x + y)),
        ScalarInsn::SubF32 { dst, a, b } => binary(regs, wide, dst, a, b, f32s(|x, y| x - y)),
        ScalarInsn::MulF32 { dst, a, b } => binary(regs, wide, dst, a, b, f32s(|x, y| x * y)),
        ScalarInsn::DivF32 { dst, a, b } => binary(regs, wide, dst, a, b, f32s(|x, y| x / y)),
        ScalarInsn::FmaF32 { dst, a, b, c } => ternary(regs, wide, dst, a, b, c, |x, y, z| {
            f32::from_reg(x).mul_add(f32::from_reg(y), f32::from_reg(z)).to_reg()
        }),
        ScalarInsn::Select { dst, cond, a, b } => {
            ternary(regs, wide, dst, cond, a, b, |c, x, y| if c != 0 { x } else { y })
        }
        // `index` arithmetic (64 bits, where the canonical form needs no sign extension).
        // Bitwise operations, minima and maxima of canonical values are canonical at
        // every width.
        ScalarInsn::IBinary { op, width, dst, a, b }
            if matches!(op, IBinOp::And | IBinOp::Or | IBinOp::Xor | IBinOp::MinS | IBinOp::MaxS)
                || (width == 64 && matches!(op, IBinOp::Add | IBinOp::Sub | IBinOp::Mul)) =>
        {
            let i = |f: fn(i64, i64) -> i64| move |x: u64, y: u64| f(x as i64, y as i64) as u64;
            match op {
                IBinOp::Add => binary(regs, wide, dst, a, b, i(i64::wrapping_add)),
                IBinOp::Sub => binary(regs, wide, dst, a, b, i(i64::wrapping_sub)),
                IBinOp::Mul => binary(regs, wide, dst, a, b, i(i64::wrapping_mul)),
                IBinOp::And => binary(regs, wide, dst, a, b, |x, y| x & y),
                IBinOp::Or => binary(regs, wide, dst, a, b, |x, y| x | y),
                IBinOp::Xor => binary(regs, wide, dst, a, b, |x, y| x ^ y),
                IBinOp::MinS => binary(regs, wide, dst, a, b, i(i64::min)),
                _ => binary(regs, wide, dst, a, b, i(i64::max)),
            }
        }
        ScalarInsn::IBinary { op, width, dst, a, b } => {
            let w = width;
            let i = |f: fn(i64, i64) -> i64| move |x: u64, y: u64| sext(f(x as i64, y as i64), w) as u64;
            match op {
                IBinOp::Add => binary(regs, wide, dst, a, b, i(i64::wrapping_add)),
                IBinOp::Sub => binary(regs, wide, dst, a, b, i(i64::wrapping_sub)),
                IBinOp::Mul => binary(regs, wide, dst, a, b, i(i64::wrapping_mul)),
                IBinOp::And => binary(regs, wide, dst, a, b, i(|x, y| x & y)),
                IBinOp::Or => binary(regs, wide, dst, a, b, i(|x, y| x | y)),
                IBinOp::Xor => binary(regs, wide, dst, a, b, i(|x, y| x ^ y)),
                IBinOp::MinS => binary(regs, wide, dst, a, b, i(i64::min)),
                IBinOp::MaxS => binary(regs, wide, dst, a, b, i(i64::max)),
                // Divisions by a divisor that cannot fault (neither 0 nor -1, whose only fault
                // is the minimum divided by it) in any lane, at 64 bits (`index`): plain
                // loops.
                IBinOp::DivU | IBinOp::RemU
                    if w == 64 && regs[b as usize * W..(b as usize + 1) * W].iter().all(|&d| d != 0) =>
                {
                    if op == IBinOp::DivU {
                        binary(regs, wide, dst, a, b, |x, y| x / y);
                    } else {
                        binary(regs, wide, dst, a, b, |x, y| x % y);
                    }
                }
                IBinOp::FloorDivS | IBinOp::CeilDivS | IBinOp::DivS | IBinOp::RemS
                    if w == 64
                        && regs[b as usize * W..(b as usize + 1) * W].iter().all(|&d| d != 0 && d != u64::MAX) =>
                {
                    let i = |f: fn(i64, i64) -> i64| move |x: u64, y: u64| f(x as i64, y as i64) as u64;
                    match op {
                        IBinOp::FloorDivS => binary(regs, wide, dst, a, b, i(floor_div_nonzero)),
                        IBinOp::CeilDivS => binary(regs, wide, dst, a, b, i(ceil_div_nonzero)),
                        IBinOp::DivS => binary(regs, wide, dst, a, b, i(|x, y| x / y)),
                        _ => binary(regs, wide, dst, a, b, i(|x, y| x % y)),
                    }
                }
                // Divisions and the rest may fault: lane by lane, faults of lanes that do not
                // run ignored.
                _ => {
                    let (x, y) = (row(regs, a), row(regs, b));
                    let mut v = [0; W];
                    for l in 0..W {
                        match ibin(op, x[l] as i64, y[l] as i64, w) {
                            Ok(r) => v[l] = r as u64,
                            Err(_) if mask & (1 << l) != 0 => return Err(Fallback),
                            Err(_) => {}
                        }
                    }
                    put(regs, dst, wide, v);
                }
            }
        }
        ScalarInsn::CmpI { pred, width: 64, dst, a, b } => {
            let c = |f: fn(i64, i64) -> bool| move |x: u64, y: u64| if f(x as i64, y as i64) { u64::MAX } else { 0 };
            match pred {
                0 => binary(regs, wide, dst, a, b, c(|x, y| x == y)),
                1 => binary(regs, wide, dst, a, b, c(|x, y| x != y)),
                2 => binary(regs, wide, dst, a, b, c(|x, y| x < y)),
                3 => binary(regs, wide, dst, a, b, c(|x, y| x <= y)),
                4 => binary(regs, wide, dst, a, b, c(|x, y| x > y)),
                5 => binary(regs, wide, dst, a, b, c(|x, y| x >= y)),
                6 => binary(regs, wide, dst, a, b, c(|x, y| (x as u64) < (y as u64))),
                7 => binary(regs, wide, dst, a, b, c(|x, y| (x as u64) <= (y as u64))),
                8 => binary(regs, wide, dst, a, b, c(|x, y| (x as u64) > (y as u64))),
                _ => binary(regs, wide, dst, a, b, c(|x, y| (x as u64) >= (y as u64))),
            }
        }
        ScalarInsn::CmpI { pred, width, dst, a, b } => {
            binary(regs, wide, dst, a, b, |x, y| if cmpi(pred, x as i64, y as i64, width) { u64::MAX } else { 0 })
        }
        ScalarInsn::Cast { kind: CastKind::Int { from, to, unsigned }, dst, a } => {
            unary(regs, wide, dst, a, |x| int_cast(x as i64, from, to, unsigned) as u64)
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Runs a scalar instruction in lane 0 only (its operands are uniform). `index` additions,
/// subtractions and multiplications — most of the uniform instructions of tiled kernels, which
/// compute tile and loop bounds — are done here directly (as `ibin` defines them at 64 bits);
/// the rest by the shared scalar executor, whose generic dispatch costs more than they do.
#[inline(always)]
fn uniform_scalar(insn: &ScalarInsn, regs: &mut [u64]) -> Simt {
    type IndexOp = fn(i64, i64) -> i64;
    let (a, b, dst, f): (Reg, Reg, Reg, IndexOp) = match *insn {
        ScalarInsn::IBinary { op: IBinOp::Add, width: 64, dst, a, b } => (a, b, dst, i64::wrapping_add),
        ScalarInsn::IBinary { op: IBinOp::Mul, width: 64, dst, a, b } => (a, b, dst, i64::wrapping_mul),
        ScalarInsn::IBinary { op: IBinOp::Sub, width: 64, dst, a, b } => (a, b, dst, i64::wrapping_sub),
        _ => return exec(insn, &mut Lane { regs, lane: 0 }).map_err(|_| Fallback),
    };
    regs[dst as usize * W] = f(regs[a as usize * W] as i64, regs[b as usize * W] as i64) as u64;
    Ok(())
}

/// The position of the element `index` selects in `buffer`, seen through a memref register
/// that is `flat` or not, for `lane` (`None`: out of bounds or not computable, which the
/// thread-by-thread run reports).
#[inline(always)]
fn position(buffer: &Buffer, flat: bool, index: &Index, lane: &Lane<'_>) -> Option<usize> {
    match index {
        Index::Regs(regs) => buffer.position(flat, regs.len(), |d| Some(lane.get(regs[d]) as i64)),
        Index::Map(map) => buffer.position(flat, map.results.len(), |d| map.eval(d, lane)),
    }
}

impl LaunchRun<'_> {
    /// Runs block `linear` warp-synchronously. On [`Fallback`] everything the attempt changed
    /// is undone, and the caller runs the block thread by thread.
    pub(super) fn block_simt(&mut self, linear: u64, template: &[u64], s: &mut SimtScratch) -> Simt {
        let phase = self.races.phase();
        s.stores.clear();
        s.marked.clear();
        s.cells.clear();
        let mut owned = vec![];
        match self.block_simt_inner(linear, template, s, &mut owned) {
            Ok(tally) => {
                let st = &mut *self.stats;
                st.instructions += tally.instructions;
                st.warp_instructions += tally.warp_instructions;
                st.thread_instructions += tally.thread_instructions;
                st.barriers += tally.barriers;
                st.global_loads += tally.global_loads;
                st.global_stores += tally.global_stores;
                st.global_bytes_read += tally.global_bytes_read;
                st.global_bytes_written += tally.global_bytes_written;
                st.workgroup_loads += tally.workgroup_loads;
                st.workgroup_stores += tally.workgroup_stores;
                st.busiest_block_warp_instructions = st.busiest_block_warp_instructions.max(tally.warp_instructions);
                st.busiest_block_barriers = st.busiest_block_barriers.max(tally.barriers);
                if let Some((by_block, pending)) = s.entries.as_mut() {
                    for (b, e) in pending.drain(..) {
                        let sum = &mut by_block[b as usize];
                        sum.warps += e.warps;
                        sum.lanes += e.lanes;
                    }
                }
                // Freed in allocation order, as the thread-by-thread run frees them.
                for m in owned {
                    self.free(m);
                }
                Ok(())
            }
            Err(Fallback) => {
                if let Some((_, pending)) = s.entries.as_mut() {
                    pending.clear();
                }
                // The warp that gave up left counts behind.
                for &b in s.touched.iter() {
                    let b = b as usize;
                    s.full[b] = 0;
                    s.part[b * W..(b + 1) * W].fill(0);
                    s.seen[b] = false;
                }
                s.touched.clear();
                for &(handle, pos, bits) in s.stores.iter().rev() {
                    if let Some(b) = self.memory.get_mut(MemRef(handle)) {
                        b.undo_write(pos, bits);
                    }
                }
                for &m in s.marked.iter() {
                    self.sectors.undo(m);
                }
                self.races.roll_back(phase, &mut s.cells);
                // In reverse, so that the free list — and the handles the next run gets — is
                // as before the attempt.
                for &m in owned.iter().rev() {
                    self.free(m);
                }
                Err(Fallback)
            }
        }
    }

    fn block_simt_inner(
        &mut self,
        linear: u64,
        template: &[u64],
        s: &mut SimtScratch,
        owned: &mut Vec<MemRef>,
    ) -> Simt<Tally> {
        let k = self.kernel;
        let block_id = super::launch::delinearize(linear, self.grid);
        self.races.begin_block();
        let mut workgroup = Vec::with_capacity(k.workgroup.len());
        for (n, a) in k.workgroup.iter().enumerate() {
            let m = self.memory.alloc(a.shape.clone(), a.kind).ok_or(Fallback)?;
            owned.push(m);
            self.set_class(m, MemClass::Workgroup(n));
            workgroup.push(m);
        }
        let n = self.tpb as usize;
        let num_regs = k.num_regs;
        let frame = num_regs * W;
        s.lazy.fill(false);
        for (w, (regs, uniform)) in s.frames.chunks_mut(frame).zip(s.uniform.chunks_mut(num_regs + 1)).enumerate() {
            // Only the pinned registers start with a value; the others are written first.
            let pinned = k.pinned.min(num_regs);
            for (r, &bits) in template.iter().enumerate().take(pinned) {
                regs[r * W..(r + 1) * W].fill(bits);
            }
            uniform[..pinned].fill(true);
            uniform[pinned..num_regs].fill(false);
            // The spare register (`SimtTables::scalar_operands`).
            uniform[num_regs] = true;
            for lane in 0..W.min(n - w * W) {
                let id = super::launch::delinearize((w * W + lane) as u64, self.block);
                for &(r, special) in k.specials.iter() {
                    match special {
                        Special::ThreadId(d) => regs[r as usize * W + lane] = u64::from(id[d]),
                        Special::BlockId(d) => regs[r as usize * W + lane] = u64::from(block_id[d]),
                        Special::BlockDim(_) | Special::GridDim(_) => {}
                    }
                }
                for (a, m) in k.workgroup.iter().zip(&workgroup) {
                    regs[a.reg as usize * W + lane] = u64::from(m.0);
                }
                for a in k.private.iter() {
                    let m = self.alloc_private(a.shape.clone(), a.kind).ok_or(Fallback)?;
                    owned.push(m);
                    regs[a.reg as usize * W + lane] = u64::from(m.0);
                }
            }
            // Thread ids differ between lanes (all but the y and z ids of a warp within one
            // row, say), private buffers always.
            let nlanes = W.min(n - w * W);
            for r in k.specials.iter().map(|&(r, _)| r).chain(k.private.iter().map(|a| a.reg)) {
                let row = &regs[r as usize * W..r as usize * W + nlanes];
                uniform[r as usize] = row.iter().all(|&v| v == row[0]);
            }
        }
        s.warps.iter_mut().for_each(|w| *w = (0, 0));
        let gtid0 = (linear * u64::from(self.tpb)) as u32;
        let mut tally = Tally::default();
        loop {
            self.races.begin_phase();
            // The thread order of the phase, as the thread-by-thread run would draw it.
            let salt = (self.stats.barriers + tally.barriers) ^ (u64::from(gtid0) << 20);
            let order = self.options.thread_order.permutation(n, salt).ok_or(Fallback)?;
            for (i, &t) in order.iter().enumerate() {
                s.rank[t] = i as u32;
            }
            s.stops.iter_mut().for_each(|stop| *stop = None);
            for w in 0..s.warps.len() {
                self.warp_phase(w, gtid0, s, &mut tally)?;
            }
            // Every thread at one barrier, or all returned; anything else is an error the
            // thread-by-thread run reports.
            match s.stops.first().copied().flatten() {
                Some(Stop::Barrier(site)) if s.stops.iter().all(|&t| t == Some(Stop::Barrier(site))) => {
                    tally.barriers += 1;
                }
                Some(Stop::Return(_)) if s.stops.iter().all(|t| matches!(t, Some(Stop::Return(_)))) => {
                    return Ok(tally);
                }
                _ => return Err(Fallback),
            }
        }
    }

    /// Runs warp `w` from where it resumes until each of its lanes stops at a barrier or
    /// returns, then folds its counts into `tally`.
    fn warp_phase(&mut self, w: usize, gtid0: u32, s: &mut SimtScratch, tally: &mut Tally) -> Simt {
        let k = self.kernel;
        let code = &k.code;
        let tables = &k.simt;
        let budget = self.options.max_instructions_per_thread;
        let n = self.tpb as usize;
        let nlanes = W.min(n - w * W);
        // The lanes of the warp; lanes past the end of a partial warp are padding whose
        // registers arithmetic may write freely.
        let all: u32 = if nlanes == W { u32::MAX } else { (1u32 << nlanes) - 1 };
        let frame = k.num_regs * W;
        let SimtScratch {
            frames,
            uniform,
            lazy,
            full,
            part,
            seen,
            touched,
            stores,
            marked,
            cells,
            rank,
            stops,
            entries: entries_of_block,
            warps,
        } = s;
        let regs = &mut frames[w * frame..(w + 1) * frame];
        let stride = k.num_regs + 1;
        let uni = &mut uniform[w * stride..(w + 1) * stride];
        let lazy = &mut lazy[w * stride..(w + 1) * stride];
        let (mut pc, mut issued) = warps[w];
        let mut pcs = [pc as u32; W];
        let mut mask = all;
        let mut waiting = 0u32;
        // The smallest program counter lanes stopped at a barrier resume from: lanes running
        // before it may write every lane (see the module documentation).
        let mut stopped_at = usize::MAX;
        let first = w * W;
        // Chooses the lanes to run next: those at the smallest program counter among
        // `waiting`; `None` when no lane waits.
        let next = |pcs: &[u32; W], waiting: &mut u32, mask: &mut u32, pc: &mut usize| -> bool {
            if *waiting == 0 {
                return false;
            }
            let mut min = u32::MAX;
            lanes(*waiting, |l| min = min.min(pcs[l]));
            let mut at = 0u32;
            lanes(*waiting, |l| {
                if pcs[l] == min {
                    at |= 1 << l;
                }
            });
            *waiting &= !at;
            *mask = at;
            *pc = min as usize;
            true
        };
        loop {
            let Some((insn, _)) = code.get(pc) else { return Err(Fallback) };
            let meta = tables.meta[pc];
            let b = meta.block;
            if b != NO_BLOCK {
                if waiting != 0 {
                    // Lanes waiting here join (control fell into their program counter).
                    let mut join = 0u32;
                    lanes(waiting, |l| {
                        if pcs[l] as usize == pc {
                            join |= 1 << l;
                        }
                    });
                    waiting &= !join;
                    mask |= join;
                }
                let bi = b as usize;
                if !seen[bi] {
                    seen[bi] = true;
                    touched.push(b);
                }
                if mask == all {
                    full[bi] += 1;
                } else {
                    lanes(mask, |l| part[bi * W + l] += 1);
                }
            }
            issued += 1;
            // A lane runs at most what its warp issues: within the budget, no lane is over.
            if issued > budget {
                return Err(Fallback);
            }
            // Register-only instructions may run in the padding lanes too.
            let wide = if mask == all { u32::MAX } else { mask };
            // Whether every lane has the same operands, and whether moreover every lane runs
            // it: then it runs once, in lane 0.
            let (u0, u1) = meta.uses;
            let def = meta.def;
            let operands_uniform = tables.uses[u0 as usize..u1 as usize].iter().all(|&r| uni[r as usize]);
            let uniform = mask == all && operands_uniform;
            let operands_uniform = operands_uniform && (mask == all || pc < stopped_at);
            // Instructions that read lane 0 only: uniform computations and uniform control.
            // Every other one reads (and writes) lane by lane: fill in its lazy registers.
            let lane_zero = match insn {
                Insn::Scalar { .. } | Insn::Apply { .. } | Insn::Bound { .. } => operands_uniform,
                Insn::LoopTest { .. }
                | Insn::LoopNext { .. }
                | Insn::BranchIfFalse { .. }
                | Insn::BranchUnlessSet { .. }
                | Insn::CheckStep { .. } => uniform,
                _ => false,
            };
            if !lane_zero {
                for &r in tables.uses[u0 as usize..u1 as usize].iter().chain((def != NO_REG).then_some(&def)) {
                    fill_lanes(regs, lazy, r);
                }
            }
            // Where the lanes of `mask` go: (lanes to `target`, target); the others fall
            // through.
            let mut branch: Option<(u32, usize)> = None;
            match insn {
                // An SSA value computed from uniform operands is written to every lane, also
                // to lanes that do not run the instruction (see the module documentation).
                Insn::Scalar { insn, .. } => {
                    // Index arithmetic comes in long straight runs of scalar instructions (nine
                    // in ten instructions of tiled kernels): they run here one after another
                    // with what each needs of the loop above, without its dispatch.
                    let (mut insn, mut def, mut operands_uniform) = (insn, def, operands_uniform);
                    loop {
                        if operands_uniform {
                            uniform_scalar(insn, regs)?;
                            lazy[def as usize] = true;
                        } else if !vector_scalar(insn, regs, mask, wide)? {
                            try_lanes(mask, |lane| {
                                exec(insn, &mut Lane { regs: &mut *regs, lane }).map_err(|_| Fallback)
                            })?;
                        }
                        uni[def as usize] = operands_uniform;
                        // The next one, unless it starts a basic block (counted above).
                        let Some((Insn::Scalar { insn: next, .. }, _)) = code.get(pc + 1) else { break };
                        let meta = tables.meta[pc + 1];
                        if meta.block != NO_BLOCK {
                            break;
                        }
                        pc += 1;
                        issued += 1;
                        if issued > budget {
                            return Err(Fallback);
                        }
                        let [x, y, z] = tables.scalar_operands[pc];
                        // `&`, not `&&`: no branches.
                        operands_uniform =
                            uni[x as usize] & uni[y as usize] & uni[z as usize] && (mask == all || pc < stopped_at);
                        if !operands_uniform {
                            for r in [x, y, z, meta.def] {
                                fill_lanes(regs, lazy, r);
                            }
                        }
                        (insn, def) = (next, meta.def);
                    }
                }
                Insn::Load { dst, mem, index, bytes, site } => {
                    uni[*dst as usize] = false;
                    if uni[*mem as usize] {
                        // One buffer for every lane (the common case): looked up once.
                        let handle = regs[*mem as usize * W] as u32;
                        let flat = is_flat_view(regs[*mem as usize * W]);
                        let buffer = self.memory.get(MemRef(handle)).ok_or(Fallback)?;
                        let len = buffer.len();
                        let class = self.classes.get(handle as usize).copied().unwrap_or(MemClass::Global);
                        let tracked = tally.count(class, AccessKind::Read, u64::from(mask.count_ones()), *bytes);
                        let races = &mut *self.races;
                        let sectors = &mut *self.sectors;
                        try_lanes(mask, |lane| {
                            let pos =
                                position(buffer, flat, index, &Lane { regs: &mut *regs, lane }).ok_or(Fallback)?;
                            regs[*dst as usize * W + lane] = buffer.read(pos).ok_or(Fallback)?;
                            let Some(tracked) = tracked else { return Ok(()) };
                            if class == MemClass::Global {
                                marked.extend(sectors.touch(handle, pos, *bytes, false));
                            }
                            let thread = gtid0 + (first + lane) as u32;
                            checked(races.access_simt(
                                handle,
                                len,
                                pos,
                                AccessKind::Read,
                                tracked,
                                thread,
                                *site,
                                rank,
                                cells,
                            ))
                        })?;
                    } else {
                        try_lanes(mask, |lane| {
                            let view = Lane { regs: &mut *regs, lane };
                            let handle = view.get(*mem) as u32;
                            let buffer = self.memory.get(MemRef(handle)).ok_or(Fallback)?;
                            let pos = position(buffer, is_flat_view(view.get(*mem)), index, &view).ok_or(Fallback)?;
                            let value = buffer.read(pos).ok_or(Fallback)?;
                            let len = buffer.len();
                            regs[*dst as usize * W + lane] = value;
                            let class = self.classes.get(handle as usize).copied().unwrap_or(MemClass::Global);
                            let Some(tracked) = tally.count(class, AccessKind::Read, 1, *bytes) else { return Ok(()) };
                            if class == MemClass::Global {
                                marked.extend(self.sectors.touch(handle, pos, *bytes, false));
                            }
                            let thread = gtid0 + (first + lane) as u32;
                            checked(self.races.access_simt(
                                handle,
                                len,
                                pos,
                                AccessKind::Read,
                                tracked,
                                thread,
                                *site,
                                rank,
                                cells,
                            ))
                        })?;
                    }
                }
                Insn::Store { value, mem, index, bytes, site } => {
                    let kind = AccessKind::Write;
                    try_lanes(mask, |lane| {
                        let view = Lane { regs: &mut *regs, lane };
                        let handle = view.get(*mem) as u32;
                        let bits = view.get(*value);
                        let buffer = self.memory.get_mut(MemRef(handle)).ok_or(Fallback)?;
                        let pos = position(buffer, is_flat_view(view.get(*mem)), index, &view).ok_or(Fallback)?;
                        let old = buffer.read(pos).ok_or(Fallback)?;
                        let len = buffer.len();
                        if !buffer.write(pos, bits) {
                            return Err(Fallback);
                        }
                        let class = self.classes.get(handle as usize).copied().unwrap_or(MemClass::Global);
                        // Private and workgroup buffers are freed when the block is undone: only
                        // global stores need restoring.
                        if class == MemClass::Global {
                            stores.push((handle, pos, old));
                            marked.extend(self.sectors.touch(handle, pos, *bytes, true));
                        }
                        let Some(tracked) = tally.count(class, kind, 1, *bytes) else { return Ok(()) };
                        let thread = gtid0 + (first + lane) as u32;
                        checked(self.races.access_simt(handle, len, pos, kind, tracked, thread, *site, rank, cells))
                    })?;
                }
                Insn::Apply { dst, map, fold, .. } => {
                    let uniform = operands_uniform;
                    uni[*dst as usize] = uniform;
                    try_lanes(if uniform { 1 } else { mask }, |lane| {
                        let view = Lane { regs: &mut *regs, lane };
                        let v = match fold {
                            None => map.eval(0, &view),
                            Some(max) => map.fold(0..map.results.len(), &view, *max),
                        };
                        regs[*dst as usize * W + lane] = v.ok_or(Fallback)? as u64;
                        Ok(())
                    })?;
                    lazy[*dst as usize] = uniform;
                }
                Insn::Bound { dst, bound, lower, .. } => {
                    let uniform = operands_uniform;
                    uni[*dst as usize] = uniform;
                    try_lanes(if uniform { 1 } else { mask }, |lane| {
                        let v = bound
                            .map
                            .fold(bound.range.clone(), &Lane { regs: &mut *regs, lane }, *lower)
                            .ok_or(Fallback)?;
                        regs[*dst as usize * W + lane] = v as u64;
                        Ok(())
                    })?;
                    lazy[*dst as usize] = uniform;
                }
                // Kernels with allocas do not run here (`SimtTables::usable`).
                Insn::Alloca { .. } => return Err(Fallback),
                Insn::Dim { dst, mem, dim, .. } => {
                    uni[*dst as usize] = false;
                    try_lanes(mask, |lane| {
                        let bits = regs[*mem as usize * W + lane];
                        let buffer = self.memory.get(MemRef(bits as u32)).ok_or(Fallback)?;
                        let d = regs[*dim as usize * W + lane] as i64;
                        let n = usize::try_from(d)
                            .ok()
                            .and_then(|d| buffer.seen_dim(is_flat_view(bits), d))
                            .ok_or(Fallback)?;
                        regs[*dst as usize * W + lane] = n as u64;
                        Ok(())
                    })?;
                }
                Insn::Cast { dst, src, shape, .. } => {
                    uni[*dst as usize] = false;
                    try_lanes(mask, |lane| {
                        let bits = regs[*src as usize * W + lane];
                        let buffer = self.memory.get(MemRef(bits as u32)).ok_or(Fallback)?;
                        if !buffer.seen_shape_fits(is_flat_view(bits), shape) {
                            return Err(Fallback);
                        }
                        regs[*dst as usize * W + lane] = bits;
                        Ok(())
                    })?;
                }
                Insn::FlatView { dst, src, size, .. } => {
                    uni[*dst as usize] = false;
                    try_lanes(mask, |lane| {
                        let bits = regs[*src as usize * W + lane];
                        let buffer = self.memory.get(MemRef(bits as u32)).ok_or(Fallback)?;
                        let size = size.value(|r| regs[r as usize * W + lane]);
                        regs[*dst as usize * W + lane] = buffer.flat_view(bits, size).ok_or(Fallback)?;
                        Ok(())
                    })?;
                }
                Insn::Move { dst, src } => {
                    uni[*dst as usize] = uniform;
                    if wide == u32::MAX {
                        let (d, s) = (*dst as usize * W, *src as usize * W);
                        regs.copy_within(s..s + W, d);
                    } else {
                        lanes(mask, |l| regs[*dst as usize * W + l] = regs[*src as usize * W + l]);
                    }
                }
                Insn::CheckStep { step, .. } => {
                    try_lanes(if uniform { 1 } else { mask }, |l| {
                        if (regs[*step as usize * W + l] as i64) <= 0 {
                            Err(Fallback)
                        } else {
                            Ok(())
                        }
                    })?;
                }
                Insn::LoopTest { counter, upper, iv, width, unsigned, exit } => {
                    let mut out = 0u32;
                    lanes(if uniform { 1 } else { mask }, |l| {
                        let (c, ub) = (regs[*counter as usize * W + l] as i64, regs[*upper as usize * W + l] as i64);
                        let below = if *unsigned { zext(c, *width) < zext(ub, *width) } else { c < ub };
                        if below {
                            regs[*iv as usize * W + l] = sext(c, *width) as u64;
                        } else {
                            out |= 1 << l;
                        }
                    });
                    if uniform {
                        out = if out == 0 { 0 } else { mask };
                        if out == 0 {
                            lazy[*iv as usize] = true;
                            uni[*iv as usize] = true;
                        }
                    } else if out != mask {
                        uni[*iv as usize] = false;
                    }
                    branch = Some((out, *exit as usize));
                }
                Insn::LoopNext { counter, step, head, exit } => {
                    let mut over = 0u32;
                    lanes(if uniform { 1 } else { mask }, |l| {
                        let c = regs[*counter as usize * W + l] as i64;
                        match c.checked_add(regs[*step as usize * W + l] as i64) {
                            Some(next) => regs[*counter as usize * W + l] = next as u64,
                            None => over |= 1 << l,
                        }
                    });
                    if uniform {
                        if over == 0 {
                            lazy[*counter as usize] = true;
                        } else {
                            over = mask;
                        }
                    } else if over != mask {
                        uni[*counter as usize] = false;
                    }
                    // Every lane leaves: those that wrapped to the exit, the others back to
                    // the head.
                    if over == 0 {
                        branch = Some((mask, *head as usize));
                    } else {
                        lanes(mask & !over, |l| pcs[l] = *head);
                        lanes(over, |l| pcs[l] = *exit);
                        waiting |= mask;
                        if !next(&pcs, &mut waiting, &mut mask, &mut pc) {
                            break;
                        }
                        continue;
                    }
                }
                Insn::Jump { target } => branch = Some((mask, *target as usize)),
                Insn::BranchIfFalse { cond, target } => {
                    let mut taken = 0u32;
                    lanes(if uniform { 1 } else { mask }, |l| {
                        if regs[*cond as usize * W + l] == 0 {
                            taken |= 1 << l;
                        }
                    });
                    if uniform && taken != 0 {
                        taken = mask;
                    }
                    branch = Some((taken, *target as usize));
                }
                Insn::BranchUnlessSet { set, target, .. } => {
                    let mut taken = 0u32;
                    try_lanes(if uniform { 1 } else { mask }, |lane| {
                        if !set.contains(&Lane { regs: &mut *regs, lane }).ok_or(Fallback)? {
                            taken |= 1 << lane;
                        }
                        Ok(())
                    })?;
                    if uniform && taken != 0 {
                        taken = mask;
                    }
                    branch = Some((taken, *target as usize));
                }
                Insn::Barrier { site } | Insn::Return { site } => {
                    let stop = match insn {
                        Insn::Barrier { .. } => Stop::Barrier(*site),
                        _ => Stop::Return(*site),
                    };
                    lanes(mask, |l| stops[first + l] = Some(stop));
                    if matches!(stop, Stop::Barrier(_)) {
                        stopped_at = stopped_at.min(pc + 1);
                    }
                    // Every lane of a warp that finishes the phase stops at this barrier (or
                    // the block falls back), so one resume point serves the warp.
                    warps[w].0 = pc + 1;
                    if !next(&pcs, &mut waiting, &mut mask, &mut pc) {
                        break;
                    }
                    continue;
                }
            }
            match branch {
                None => pc += 1,
                Some((taken, target)) => {
                    if taken == mask {
                        pc = target;
                    } else if taken == 0 {
                        pc += 1;
                    } else {
                        lanes(taken, |l| pcs[l] = target as u32);
                        lanes(mask & !taken, |l| pcs[l] = (pc + 1) as u32);
                        waiting |= mask;
                        next(&pcs, &mut waiting, &mut mask, &mut pc);
                        continue;
                    }
                    // All lanes went one way; if others wait at a smaller program counter,
                    // they run first.
                    if waiting != 0 {
                        lanes(mask, |l| pcs[l] = pc as u32);
                        waiting |= mask;
                        next(&pcs, &mut waiting, &mut mask, &mut pc);
                    }
                }
            }
        }
        warps[w].1 = issued;
        // The warp model's fold: the warp issued each basic block as often as its busiest
        // lane entered it.
        for &b in touched.iter() {
            let bi = b as usize;
            seen[bi] = false;
            let (size, weight) = tables.sizes[bi];
            let f = std::mem::take(&mut full[bi]);
            let lanes_counts = &mut part[bi * W..(bi + 1) * W];
            let (mut most, mut sum) = (0u64, 0u64);
            for c in lanes_counts.iter_mut().take(nlanes) {
                most = most.max(*c);
                sum += *c;
                *c = 0;
            }
            let entries = f * nlanes as u64 + sum;
            tally.instructions += entries * size;
            tally.thread_instructions += entries * weight;
            tally.warp_instructions += (f + most) * weight;
            if let Some((_, pending)) = entries_of_block.as_mut() {
                pending.push((b, Entries { warps: f + most, lanes: entries }));
            }
        }
        touched.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{ENABLED, FALLBACKS};
    use crate::gpu_sim::{simulate_module, Order, RacePolicy, SimOptions, SimReport};
    use crate::loops::{Memory, Value};
    use crate::{FieldData, FieldValues};
    use stencil_ir::parser::{parse_source, ParserConfig};
    use stencil_ir::{Module, SourceFile};

    /// Three blocks of 40 threads (a full and a partial warp): a branch whose sides differ,
    /// a loop whose trip count depends on the thread, integer division and affine maps of
    /// thread ids, and a workgroup tile reversed through barriers inside a loop. The divergent
    /// side computes uniform `index` values that wrap around (run once per warp, in lane 0)
    /// and casts and selects lane by lane in a partly active warp.
    const MIXED: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mixed(%in: memref<?xf64>, %out: memref<?xf64>)
        workgroup(%tile : memref<40xf64, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c39 = arith.constant 39 : index
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %base = arith.muli %bx, %bd : index
      %g = arith.addi %base, %tx : index
      %v = memref.load %in[%g] : memref<?xf64>
      %r = arith.remui %tx, %c3 : index
      %odd = arith.cmpi ne, %r, %c0 : index
      %w = scf.if %odd -> (f64) {
        %a = arith.mulf %v, %v : f64
        scf.yield %a : f64
      } else {
        %q = arith.floordivsi %tx, %c3 : index
        %big = arith.constant 9223372036854775807 : index
        %c0i = arith.constant 0 : i64
        %wrap = arith.addi %big, %bd : index
        %wm = arith.muli %wrap, %c3 : index
        %ws = arith.subi %wm, %big : index
        %wr = arith.remui %ws, %c3 : index
        %qw = arith.addi %q, %wr : index
        %qi = arith.index_cast %qw : index to i64
        %qneg = arith.cmpi slt, %qi, %c0i : i64
        %s = scf.for %i = %c0 to %qw step %c1 iter_args(%acc = %v) -> (f64) {
          %n = arith.addf %acc, %v : f64
          %pick = arith.select %qneg, %acc, %n : f64
          scf.yield %pick : f64
        }
        scf.yield %s : f64
      }
      scf.for %t = %c0 to %c2 step %c1 {
        memref.store %w, %tile[%tx] : memref<40xf64, #gpu.address_space<workgroup>>
        gpu.barrier
        %m = arith.subi %c39, %tx : index
        %x = memref.load %tile[%m] : memref<40xf64, #gpu.address_space<workgroup>>
        %y = affine.apply affine_map<(d0, d1) -> (d0 floordiv 4 + d1)>(%tx, %t)
        %z = arith.index_cast %y : index to i64
        %f = arith.sitofp %z : i64 to f64
        %o = arith.addf %x, %f : f64
        memref.store %o, %out[%g] : memref<?xf64>
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func @run(%in: memref<?xf64>, %out: memref<?xf64>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c40 = arith.constant 40 : index
    gpu.launch_func @k::@mixed blocks in (%c3, %c1, %c1) threads in (%c40, %c1, %c1) args(%in : memref<?xf64>, %out : memref<?xf64>)
    return
  }
}
"#;

    fn parse(text: &str) -> Module {
        let registry = stencil_dialects::registry();
        let source = SourceFile::new("test.mlir", text);
        parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: false })
            .unwrap_or_else(|d| panic!("parse failed:\n{}", d.render()))
    }

    /// Runs `@run` warp-synchronously or thread by thread: the output, the report or the
    /// error's text, and how many blocks fell back.
    fn run(text: &str, options: &SimOptions, warps: bool) -> (Vec<u64>, Result<SimReport, String>, u64) {
        let module = parse(text);
        let mut memory = Memory::new();
        let field = |values: Vec<f64>| FieldData { shape: vec![values.len()], values: FieldValues::F64(values) };
        let input = memory.insert_field(field((0..120).map(|i| 1.0 + f64::from(i) * 0.37).collect()));
        let output = memory.insert_field(field(vec![0.0; 120]));
        ENABLED.with(|e| e.set(warps));
        FALLBACKS.with(|f| f.set(0));
        let result =
            simulate_module(&module, "run", &[Value::MemRef(input), Value::MemRef(output)], &mut memory, options)
                .map(|(_, report)| report)
                .map_err(|e| e.to_string());
        ENABLED.with(|e| e.set(true));
        let out = match memory.take_field(output).map(|f| f.values) {
            Some(FieldValues::F64(v)) => v.iter().map(|x| x.to_bits()).collect(),
            _ => panic!("the output field is gone"),
        };
        (out, result, FALLBACKS.with(|f| f.get()))
    }

    fn orders() -> Vec<SimOptions> {
        [Order::Forward, Order::Reverse, Order::Shuffled { seed: 11 }]
            .into_iter()
            .map(|o| SimOptions::default().with_order(o))
            .collect()
    }

    #[test]
    fn warps_compute_and_count_what_threads_one_by_one_do() {
        // With the profile too: per op, the same warp- and thread-instructions both ways.
        let profiled = orders().into_iter().map(|o| o.with_profile(true));
        for options in orders().into_iter().chain(profiled) {
            let (out, report, fallbacks) = run(MIXED, &options, true);
            let (expected_out, expected, _) = run(MIXED, &options, false);
            assert_eq!(fallbacks, 0, "a race-free kernel runs warp-synchronously ({options:?})");
            assert_eq!(out, expected_out, "{options:?}");
            let report = report.expect("race-free");
            assert_eq!(report, expected.expect("race-free"), "every counter ({options:?})");
            assert!(report.launches[0].warp_instructions > 0);
            if options.profile {
                let lanes: u64 = report.launches[0].profile.iter().map(|(_, n)| n.thread_instructions).sum();
                assert_eq!(lanes, report.launches[0].thread_instructions, "{options:?}");
                assert!(report.launches[0].profile.iter().any(|(_, n)| n.lane_utilisation() < Some(1.0)));
            }
        }
    }

    /// A flat view made inside the kernel (`memref.reinterpret_cast`, as the PTX lowering makes
    /// them): loads through it, `memref.dim` of it and a cast of it compute and count the same
    /// warp-synchronously and thread by thread; a size that is not the buffer's is refused.
    #[test]
    fn flat_views_run_alike_by_warps_and_by_threads() {
        let flat = MIXED.replacen(
            "      %v = memref.load %in[%g] : memref<?xf64>\n",
            "      %c0v = arith.constant 0 : index\n      %n = memref.dim %in, %c0v : memref<?xf64>\n      %view = memref.reinterpret_cast %in to offset: [0], sizes: [%n], strides: [1] : memref<?xf64> to memref<?xf64>\n      %vn = memref.dim %view, %c0v : memref<?xf64>\n      %same = memref.cast %view : memref<?xf64> to memref<120xf64>\n      %last = arith.subi %vn, %g : index\n      %lastm = arith.subi %last, %c1 : index\n      %v = memref.load %same[%lastm] : memref<120xf64>\n",
            1,
        );
        assert_ne!(flat, MIXED);
        for options in orders() {
            let (out, report, fallbacks) = run(&flat, &options, true);
            let (expected_out, expected, _) = run(&flat, &options, false);
            assert_eq!(fallbacks, 0, "{options:?}");
            assert_eq!(out, expected_out, "{options:?}");
            assert_eq!(report.expect("race-free"), expected.expect("race-free"), "{options:?}");
            // The view reads the input backwards: not the output of the kernel without it.
            assert_ne!(out, run(MIXED, &options, true).0);
        }
        let wrong = flat.replace("sizes: [%n]", "sizes: [%g]");
        let (_, report, _) = run(&wrong, &SimOptions::default(), true);
        let error = report.expect_err("a view of another size");
        assert!(error.contains("views a buffer of 120 elements as"), "{error}");
    }

    #[test]
    fn races_and_errors_are_reported_by_the_thread_by_thread_run() {
        // Without the first barrier, a thread reads the tile element another writes.
        let racy = MIXED.replacen("        gpu.barrier\n", "", 1);
        assert_ne!(racy, MIXED);
        // Out of bounds: block 2 reads past the input.
        let oob = MIXED
            .replace("%v = memref.load %in[%g]", "%g1 = arith.addi %g, %c1 : index\n      %v = memref.load %in[%g1]");
        // Every block reads the first 40 inputs, two per thread in a lane-dependent order;
        // the last block writes one: a race across blocks with the first read of it that the
        // thread-by-thread order saw.
        let across = MIXED.replace(
            "      %r = arith.remui %tx, %c3 : index\n",
            "      %c7 = arith.constant 7 : index\n      %c40 = arith.constant 40 : index\n      %p = arith.muli %tx, %c7 : index\n      %p40 = arith.remui %p, %c40 : index\n      %u = memref.load %in[%p40] : memref<?xf64>\n      %u2 = memref.load %in[%tx] : memref<?xf64>\n      %last = arith.cmpi eq, %g, %c39 : index\n      %c2b = arith.constant 2 : index\n      %lastb = arith.cmpi eq, %bx, %c2b : index\n      %five = arith.cmpi eq, %tx, %c3 : index\n      %both = arith.andi %lastb, %five : i1\n      scf.if %both {\n        memref.store %u, %in[%c3] : memref<?xf64>\n      }\n      %r = arith.remui %tx, %c3 : index\n",
        );
        assert_ne!(across, MIXED);
        for options in orders() {
            for policy in [RacePolicy::Fail, RacePolicy::Collect, RacePolicy::Ignore] {
                let options = options.with_races(policy);
                for text in [&racy, &oob, &across] {
                    let (out, report, fallbacks) = run(text, &options, true);
                    let (expected_out, expected, _) = run(text, &options, false);
                    assert!(fallbacks > 0, "{options:?}");
                    assert_eq!(out, expected_out, "{options:?}");
                    assert_eq!(report, expected, "{options:?}");
                }
            }
        }
        let (_, report, _) = run(&racy, &SimOptions::default(), true);
        assert!(report.is_err_and(|e| e.contains("data race")));
        let (_, report, _) = run(&across, &SimOptions::default(), true);
        assert!(report.is_err_and(|e| e.contains("data race")));
        let (_, report, _) = run(&oob, &SimOptions::default(), true);
        assert!(report.is_err_and(|e| e.contains("out of bounds") || e.contains("outside")), "an out-of-bounds error");
    }
}
