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
//! Counting stays cheap. Every instruction of a basic block (a straight run of code entered
//! only at its first instruction and left only after its last; a barrier ends one) runs as
//! often as the block is entered, so the simulator counts block entries only, in a compact
//! slot per basic block, and weighs them by the block's counted instructions. A thread runs a
//! whole phase in one go, so one scratch counter per slot serves every thread in turn; when
//! the thread stops, the slots it touched are folded into its warp's maxima and reset.
//! Memory stays at one counter per warp and slot, and the work at one count per block entered.

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
        // A view is a descriptor the PTX computes once per kernel, like a cast.
        Insn::Move { .. }
        | Insn::Jump { .. }
        | Insn::Cast { .. }
        | Insn::FlatView { .. }
        | Insn::Alloca { .. }
        | Insn::CheckStep { .. } => false,
    }
}

/// The counting slots of `code`: per instruction, the slot of the basic block it starts
/// ([`NOT_COUNTED`] for every other instruction, and for blocks without counted
/// instructions), and per slot the block's counted instructions.
pub(crate) fn basic_block_slots(code: &[Insn]) -> (Box<[u32]>, Box<[u64]>) {
    let n = code.len();
    let leader = super::kernel::leaders(code);
    let mut slots = vec![NOT_COUNTED; n];
    let mut weights = vec![];
    let mut i = 0;
    while i < n {
        let end = (i + 1..=n).find(|&j| leader[j]).unwrap_or(n);
        let weight = code[i..end].iter().filter(|insn| is_counted(insn)).count() as u64;
        if weight > 0 {
            slots[i] = weights.len() as u32;
            weights.push(weight);
        }
        i = end;
    }
    (slots.into(), weights.into())
}

/// What one phase of one block issued.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PhaseCount {
    /// Warp-instructions: per warp and counted instruction, the most times one lane ran it.
    pub warp_instructions: u64,
    /// Counted instructions executed by all threads.
    pub thread_instructions: u64,
}

/// The counters of the running thread.
pub(crate) struct Lane<'a> {
    counts: &'a mut [u64],
    touched: &'a mut Vec<u32>,
}

impl Lane<'_> {
    /// Counts one entry into the basic block of `slot`.
    #[inline]
    pub fn count(&mut self, slot: u32) {
        let c = &mut self.counts[slot as usize];
        if *c == 0 {
            self.touched.push(slot);
        }
        *c += 1;
    }
}

/// Execution counts of one block's threads, folded per warp: each thread's counts when it
/// stops, the warps' maxima at the end of every phase. Made once per launch and reused by its
/// blocks (every count is back to zero after a fold).
pub(crate) struct WarpCounter {
    /// Counted instructions of each slot's basic block.
    weights: Vec<u64>,
    slots: usize,
    /// Counts of the running thread, per slot.
    counts: Vec<u64>,
    /// The slots the running thread touched.
    touched: Vec<u32>,
    /// `warps × slots`: per warp and slot, the most times one of its lanes ran the
    /// instruction in the current phase.
    warp_max: Vec<u64>,
    /// Per warp, the slots `warp_max` holds.
    warp_touched: Vec<Vec<u32>>,
    /// Counted instructions executed by the block's threads in the current phase.
    thread_instructions: u64,
    /// With `SimOptions::profile`: per slot, the warp's entries into its basic block (the
    /// busiest lane's) and the lanes' (each lane's), summed over the warps, phases and blocks
    /// folded so far.
    entries: Option<Vec<Entries>>,
}

/// Entries into one basic block (`SimOptions::profile`): by warps (the busiest lane's each
/// time) and by lanes (every lane's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entries {
    /// Warp entries: the warp model issues the block's instructions once for each.
    pub warps: u64,
    /// Lane entries: each lane runs the block's instructions once for each.
    pub lanes: u64,
}

impl WarpCounter {
    /// Counters for blocks of `threads` threads of a kernel whose slots have `weights` counted
    /// instructions each.
    pub fn new(threads: usize, weights: &[u64]) -> Self {
        let warps = threads.div_ceil(WARP_SIZE);
        let slots = weights.len();
        WarpCounter {
            weights: weights.to_vec(),
            slots,
            counts: vec![0; slots],
            touched: Vec::new(),
            warp_max: vec![0; warps * slots],
            warp_touched: vec![Vec::new(); warps],
            thread_instructions: 0,
            entries: None,
        }
    }

    /// Also sums, per slot, the warps' and the lanes' entries into its basic block
    /// (`SimOptions::profile`): [`WarpCounter::take_entries`] hands them over.
    pub fn with_entries(mut self) -> Self {
        self.entries = Some(vec![Entries::default(); self.slots]);
        self
    }

    /// The per-slot entries summed since [`WarpCounter::with_entries`] (empty without it).
    pub fn take_entries(&mut self) -> Vec<Entries> {
        self.entries.take().unwrap_or_default()
    }

    /// The counters for the next thread to run; [`WarpCounter::end_thread`] when it stops.
    pub fn lane(&mut self) -> Lane<'_> {
        Lane { counts: &mut self.counts, touched: &mut self.touched }
    }

    /// Folds what thread `t` (its linear id in the block) just ran into its warp's maxima.
    pub fn end_thread(&mut self, t: usize) {
        let warp = t / WARP_SIZE;
        let maxima = &mut self.warp_max[warp * self.slots..(warp + 1) * self.slots];
        for &slot in &self.touched {
            let c = std::mem::take(&mut self.counts[slot as usize]);
            self.thread_instructions += c * self.weights[slot as usize];
            if let Some(entries) = self.entries.as_mut() {
                entries[slot as usize].lanes += c;
            }
            let m = &mut maxima[slot as usize];
            if *m == 0 {
                self.warp_touched[warp].push(slot);
            }
            *m = (*m).max(c);
        }
        self.touched.clear();
    }

    /// Ends a phase: sums the warps' maxima and resets them.
    pub fn fold(&mut self) -> PhaseCount {
        let mut out =
            PhaseCount { warp_instructions: 0, thread_instructions: std::mem::take(&mut self.thread_instructions) };
        for (warp, touched) in self.warp_touched.iter_mut().enumerate() {
            let maxima = &mut self.warp_max[warp * self.slots..(warp + 1) * self.slots];
            for &slot in touched.iter() {
                let most = std::mem::take(&mut maxima[slot as usize]);
                out.warp_instructions += most * self.weights[slot as usize];
                if let Some(entries) = self.entries.as_mut() {
                    entries[slot as usize].warps += most;
                }
            }
            touched.clear();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{basic_block_slots, PhaseCount, WarpCounter, NOT_COUNTED, WARP_SIZE};
    use crate::gpu_sim::kernel::Insn;

    /// Enters, in every thread `t`, the slots `per_thread(t)` lists (slot, times); folds.
    fn fold(threads: usize, weights: &[u64], per_thread: impl Fn(usize) -> Vec<(u32, u64)>) -> (u64, u64) {
        let mut w = WarpCounter::new(threads, weights);
        for t in 0..threads {
            let mut lane = w.lane();
            for (slot, times) in per_thread(t) {
                for _ in 0..times {
                    lane.count(slot);
                }
            }
            w.end_thread(t);
        }
        let p = w.fold();
        (p.warp_instructions, p.thread_instructions)
    }

    #[test]
    fn a_warp_issues_each_instruction_for_its_busiest_lane() {
        // 32 lanes entering a one-instruction block once: one warp-instruction, 32 threads'.
        assert_eq!(fold(WARP_SIZE, &[1, 1], |_| vec![(0, 1)]), (1, 32));
        // Only lane 5 enters slot 1, three times: 3 warp-instructions.
        assert_eq!(fold(WARP_SIZE, &[1, 1], |t| if t == 5 { vec![(1, 3)] } else { vec![] }), (3, 3));
        // Two warps of 32 and a partial warp of 8: three warp-instructions.
        assert_eq!(fold(72, &[1], |_| vec![(0, 1)]), (3, 72));
        // A block of 4 instructions counts 4 per entry; lanes entering it 1 or 2 times.
        assert_eq!(fold(WARP_SIZE, &[4], |t| vec![(0, 1 + (t % 2) as u64)]), (8, 4 * 48));
    }

    #[test]
    fn counts_are_reset_after_a_fold() {
        let mut w = WarpCounter::new(40, &[1, 1, 1]);
        w.lane().count(2);
        w.end_thread(39);
        assert_eq!(w.fold(), PhaseCount { warp_instructions: 1, thread_instructions: 1 });
        assert_eq!(w.fold(), PhaseCount::default(), "a fold starts the next phase from zero");
        for t in [0, 33, 1] {
            w.lane().count(2);
            w.end_thread(t);
        }
        assert_eq!(w.fold().warp_instructions, 2, "lanes 0 and 1 share a warp, 33 is in the next");
    }

    #[test]
    fn basic_blocks_end_at_jumps_targets_and_barriers() {
        // 0: branch to 3 | 1: copy, 2: jump to 4 | 3: copy | 4: barrier | 5: return.
        let code = [
            Insn::BranchIfFalse { cond: 0, target: 3 },
            Insn::Move { dst: 1, src: 2 },
            Insn::Jump { target: 4 },
            Insn::Move { dst: 1, src: 3 },
            Insn::Barrier { site: 0 },
            Insn::Return { site: 0 },
        ];
        let (slots, weights) = basic_block_slots(&code);
        // Blocks of copies and jumps count nothing and get no slot.
        assert_eq!(&*slots, &[0, NOT_COUNTED, NOT_COUNTED, NOT_COUNTED, 1, 2]);
        assert_eq!(&*weights, &[1, 1, 1]);
    }
}
