//! The warp-instruction model: what a GPU would issue for the threads the simulator runs one
//! by one (docs/cost-model.md, "Warp instructions").
//!
//! A GPU issues instructions per warp — 32 threads of a block by linear thread id, x fastest
//! — and a warp pays for an instruction when at least one of its lanes executes it. The
//! simulator runs threads independently, so it counts, per thread and per phase (the code
//! between two barriers), how many times each static instruction ran; at the end of every
//! phase those counts are folded per warp: the warp issued each instruction as many times as
//! its busiest lane ran it. For structured control flow that is exact up to reconvergence:
//! both sides of a divergent branch are issued once if any lane takes them, and a loop is
//! issued for the largest trip count among the lanes.
//!
//! Counting stays cheap: each thread has a counter per *counted* static instruction (a compact
//! slot index assigned when the kernel is compiled) and a list of the slots it touched in the
//! current phase, so folding costs what the phase executed, not the kernel's size.

use super::kernel::Insn;

/// Threads per warp on NVIDIA GPUs.
pub const WARP_SIZE: usize = 32;

/// The slot of an instruction that does not count as issued.
pub(crate) const NOT_COUNTED: u32 = u32::MAX;

/// Whether an instruction counts as one issued instruction.
///
/// Counted: everything that computes or moves data, or decides control flow — `arith`/`math`
/// ops, loads and stores, `affine.apply`/`min`/`max`, the bounds of `affine` loops,
/// `memref.dim`, a loop's test (once per iteration and once at exit) and its increment, the
/// branch of an `if`, `gpu.barrier` and `gpu.return`. Not counted: what a GPU compiler removes
/// or what has no instruction of its own — register copies between SSA values (iter_args,
/// yields), the jump closing the `then` side of an `if` (part of the branch), casts between
/// memref types, `memref.alloca` (a stack frame, no instruction), and the simulator's own
/// check that a loop step is positive.
pub(crate) fn is_counted(insn: &Insn) -> bool {
    match insn {
        Insn::Scalar { .. }
        | Insn::Load { .. }
        | Insn::Store { .. }
        | Insn::Apply { .. }
        | Insn::Bound { .. }
        | Insn::Dim { .. }
        | Insn::LoopTest { .. }
        | Insn::LoopNext { .. }
        | Insn::BranchIfFalse { .. }
        | Insn::BranchUnlessSet { .. }
        | Insn::Barrier { .. }
        | Insn::Return { .. } => true,
        Insn::Move { .. } | Insn::Jump { .. } | Insn::Cast { .. } | Insn::Alloca { .. } | Insn::CheckStep { .. } => {
            false
        }
    }
}

/// The slot of every instruction of `code` (its index among the counted ones, or
/// [`NOT_COUNTED`]) and the number of slots.
pub(crate) fn assign_slots(code: &[Insn]) -> (Box<[u32]>, usize) {
    let mut next = 0u32;
    let slots = code
        .iter()
        .map(|insn| {
            if is_counted(insn) {
                next += 1;
                next - 1
            } else {
                NOT_COUNTED
            }
        })
        .collect();
    (slots, next as usize)
}

/// What one phase of one block issued.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PhaseCount {
    /// Warp-instructions: per warp and counted instruction, the most times one lane ran it.
    pub warp_instructions: u64,
    /// Counted instructions executed by all threads.
    pub thread_instructions: u64,
}

/// The counters of one thread, borrowed while it runs.
pub(crate) struct Lane<'a> {
    counts: &'a mut [u64],
    touched: &'a mut Vec<u32>,
}

impl Lane<'_> {
    /// Counts one execution of the instruction in `slot`.
    #[inline]
    pub fn count(&mut self, slot: u32) {
        let c = &mut self.counts[slot as usize];
        if *c == 0 {
            self.touched.push(slot);
        }
        *c += 1;
    }
}

/// Per-thread execution counts of one block, folded per warp at the end of every phase.
/// Made once per launch and reused by its blocks (every count is back to zero after a fold).
pub(crate) struct WarpCounter {
    slots: usize,
    threads: usize,
    /// `threads × slots` counts of the current phase.
    counts: Vec<u64>,
    /// Per thread, the slots it ran in the current phase.
    touched: Vec<Vec<u32>>,
    /// Per slot, the largest count among the lanes of the warp being folded.
    warp_max: Vec<u64>,
    /// The slots `warp_max` holds.
    warp_touched: Vec<u32>,
}

impl WarpCounter {
    /// Counters for blocks of `threads` threads of a kernel with `slots` counted instructions.
    pub fn new(threads: usize, slots: usize) -> Self {
        WarpCounter {
            slots,
            threads,
            counts: vec![0; threads * slots],
            touched: vec![Vec::new(); threads],
            warp_max: vec![0; slots],
            warp_touched: Vec::new(),
        }
    }

    /// The counters of thread `t` (its linear id in the block).
    pub fn lane(&mut self, t: usize) -> Lane<'_> {
        Lane { counts: &mut self.counts[t * self.slots..(t + 1) * self.slots], touched: &mut self.touched[t] }
    }

    /// Ends a phase: folds the counts of every warp and resets them.
    pub fn fold(&mut self) -> PhaseCount {
        let mut out = PhaseCount::default();
        for first in (0..self.threads).step_by(WARP_SIZE) {
            for t in first..(first + WARP_SIZE).min(self.threads) {
                let counts = &mut self.counts[t * self.slots..(t + 1) * self.slots];
                for &slot in &self.touched[t] {
                    let c = std::mem::take(&mut counts[slot as usize]);
                    out.thread_instructions += c;
                    let m = &mut self.warp_max[slot as usize];
                    if *m == 0 {
                        self.warp_touched.push(slot);
                    }
                    *m = (*m).max(c);
                }
                self.touched[t].clear();
            }
            for &slot in &self.warp_touched {
                out.warp_instructions += std::mem::take(&mut self.warp_max[slot as usize]);
            }
            self.warp_touched.clear();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{WarpCounter, WARP_SIZE};

    /// Runs `counts[t]` = list of (slot, times) for every thread, folds, returns the result.
    fn fold(threads: usize, slots: usize, per_thread: impl Fn(usize) -> Vec<(u32, u64)>) -> (u64, u64) {
        let mut w = WarpCounter::new(threads, slots);
        for t in 0..threads {
            let mut lane = w.lane(t);
            for (slot, times) in per_thread(t) {
                for _ in 0..times {
                    lane.count(slot);
                }
            }
        }
        let p = w.fold();
        (p.warp_instructions, p.thread_instructions)
    }

    #[test]
    fn a_warp_issues_each_instruction_for_its_busiest_lane() {
        // 32 lanes running slot 0 once: one warp-instruction, 32 thread-instructions.
        assert_eq!(fold(WARP_SIZE, 2, |_| vec![(0, 1)]), (1, 32));
        // Only lane 5 runs slot 1 three times: 3 warp-instructions.
        assert_eq!(fold(WARP_SIZE, 2, |t| if t == 5 { vec![(1, 3)] } else { vec![] }), (3, 3));
        // Two warps of 32 and a partial warp of 8: three warp-instructions.
        assert_eq!(fold(72, 1, |_| vec![(0, 1)]), (3, 72));
    }

    #[test]
    fn counts_are_reset_after_a_fold() {
        let mut w = WarpCounter::new(40, 3);
        w.lane(39).count(2);
        assert_eq!(w.fold().warp_instructions, 1);
        assert_eq!(w.fold().warp_instructions, 0, "a fold starts the next phase from zero");
        w.lane(0).count(2);
        w.lane(33).count(2);
        assert_eq!(w.fold().warp_instructions, 2, "lanes 0 and 33 are in different warps");
    }
}
