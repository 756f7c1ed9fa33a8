//! Data race detection with shadow memory.
//!
//! Execution is cut into *phases*: a phase is the stretch of one block between two barriers
//! (or the start or end of the block). Phases get increasing numbers over the whole
//! simulation, so a record of an access carries its phase and "same phase" means "same block,
//! no barrier in between". Every tracked element (of global and workgroup memory) has a
//! shadow cell with
//!
//! * the last write (thread, op, phase);
//! * up to two reads of the current phase by *distinct* threads — enough to know whether a
//!   thread other than a given one has read, which is all a write needs to check;
//! * up to two reads of the current launch by *distinct blocks*, for the same reason across
//!   blocks (global memory only).
//!
//! Rules: within a block, two accesses to an element in the same phase by different threads,
//! at least one a write, race; within a launch, two accesses to a global element by different
//! blocks, at least one a write, race (blocks never synchronise within a launch). Records of
//! earlier phases or launches are recognised by their phase numbers, so nothing is cleared
//! between blocks or launches.

use super::report::{AccessKind, RaceScope};

/// One recorded access: linear thread number in the launch (block-major), op site, phase
/// (0: no access recorded).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rec {
    pub thread: u32,
    pub site: u32,
    pub phase: u32,
}

#[derive(Copy, Clone, Debug, Default)]
struct Cell {
    write: Rec,
    reads: [Rec; 2],
    block_reads: [Rec; 2],
}

/// What an access revealed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    /// The earlier access it races with.
    pub earlier: Rec,
    pub earlier_kind: AccessKind,
    pub scope: RaceScope,
}

/// A read of workgroup memory that no thread of the block had written: reported when its
/// phase ends unless another thread wrote the element in that phase (then the read raced
/// with that write, which is the real bug — a missing barrier — and is reported as such).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct UnwrittenRead {
    pub handle: u32,
    pub pos: usize,
    pub reader: Rec,
}

/// The shadow cells of a buffer could not be allocated (60 bytes per element).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShadowTooLarge;

/// Which memory an access goes to, for the rules that differ.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tracked {
    Global,
    Workgroup,
}

/// Shadow cells of every tracked buffer (by handle) and the current phase numbers.
#[derive(Debug, Default)]
pub(crate) struct RaceDetector {
    shadows: Vec<Vec<Cell>>,
    phase: u32,
    launch_start: u32,
    block_start: u32,
    threads_per_block: u32,
    /// Reads of unwritten workgroup elements in the current phase.
    unwritten: Vec<UnwrittenRead>,
}

impl RaceDetector {
    /// Starts a launch whose blocks have `threads_per_block` threads.
    pub fn begin_launch(&mut self, threads_per_block: u32) {
        // Phase numbers only grow; long before they could wrap, start afresh (a clear costs
        // one pass over the shadows, once every two billion phases).
        if self.phase > u32::MAX / 2 {
            self.shadows.clear();
            self.phase = 0;
        }
        self.launch_start = self.phase + 1;
        self.threads_per_block = threads_per_block.max(1);
    }

    /// Starts a block (its first phase begins with the next [`RaceDetector::begin_phase`]).
    pub fn begin_block(&mut self) {
        self.block_start = self.phase + 1;
    }

    /// Starts a phase: the block's start, or the passing of a barrier.
    pub fn begin_phase(&mut self) {
        self.phase += 1;
        self.unwritten.clear();
    }

    /// At the end of a phase: the first read of workgroup memory that nothing had written
    /// and that did not race with a write of another thread in the phase.
    pub fn end_phase(&self) -> Option<UnwrittenRead> {
        self.unwritten.iter().copied().find(|u| {
            let write = self.shadows.get(u.handle as usize).and_then(|s| s.get(u.pos)).map(|c| c.write);
            !write.is_some_and(|w| w.phase == self.phase && w.thread != u.reader.thread)
        })
    }

    /// Records an access by `thread` at `site` to element `pos` of buffer `handle` (of `len`
    /// elements) and says what it reveals; fails only when the buffer's shadow cells cannot
    /// be allocated.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn access(
        &mut self,
        handle: u32,
        len: usize,
        pos: usize,
        kind: AccessKind,
        memory: Tracked,
        thread: u32,
        site: u32,
    ) -> Result<Option<Finding>, ShadowTooLarge> {
        let (phase, launch_start, block_start, tpb) =
            (self.phase, self.launch_start, self.block_start, self.threads_per_block);
        let h = handle as usize;
        if self.shadows.len() <= h {
            self.shadows.resize_with(h + 1, Vec::new);
        }
        let shadow = &mut self.shadows[h];
        if shadow.len() != len {
            // A new buffer in this handle's slot: its old records are meaningless.
            *shadow = crate::field::try_filled_vec(len, Cell::default()).ok_or(ShadowTooLarge)?;
        }
        let Some(cell) = shadow.get_mut(pos) else { return Ok(None) };
        let me = Rec { thread, site, phase };
        let my_block = thread / tpb;
        let block_of = |r: &Rec| r.thread / tpb;
        let global = memory == Tracked::Global;
        let in_phase = |r: &Rec| r.phase == phase && r.thread != thread;
        let in_launch = |r: &Rec| r.phase >= launch_start && block_of(r) != my_block;
        let race = |earlier: Rec, earlier_kind, scope| Some(Finding { earlier, earlier_kind, scope });
        let mut finding = None;
        match kind {
            AccessKind::Write => {
                if in_phase(&cell.write) {
                    finding = race(cell.write, AccessKind::Write, RaceScope::WithinBlock);
                } else if let Some(r) = cell.reads.iter().find(|r| in_phase(r)) {
                    finding = race(*r, AccessKind::Read, RaceScope::WithinBlock);
                } else if global && in_launch(&cell.write) {
                    finding = race(cell.write, AccessKind::Write, RaceScope::AcrossBlocks);
                } else if let Some(r) = cell.block_reads.iter().find(|r| global && in_launch(r)) {
                    finding = race(*r, AccessKind::Read, RaceScope::AcrossBlocks);
                }
                cell.write = me;
            }
            AccessKind::Read => {
                if memory == Tracked::Workgroup && cell.write.phase < block_start {
                    self.unwritten.push(UnwrittenRead { handle, pos, reader: me });
                } else if in_phase(&cell.write) {
                    finding = race(cell.write, AccessKind::Write, RaceScope::WithinBlock);
                } else if global && in_launch(&cell.write) {
                    finding = race(cell.write, AccessKind::Write, RaceScope::AcrossBlocks);
                }
                // Keep a second reader only when it differs from the first (by thread within
                // the phase, by block within the launch): then "someone other than X read"
                // is answered exactly by the two.
                if cell.reads[0].phase != phase {
                    cell.reads = [me, Rec::default()];
                } else if cell.reads[0].thread != thread && cell.reads[1].phase != phase {
                    cell.reads[1] = me;
                }
                if global {
                    if cell.block_reads[0].phase < launch_start {
                        cell.block_reads = [me, Rec::default()];
                    } else if block_of(&cell.block_reads[0]) != my_block && cell.block_reads[1].phase < launch_start {
                        cell.block_reads[1] = me;
                    }
                }
            }
        }
        Ok(finding)
    }
}

/// A shadow cell as it was before the warp-synchronous run of a block first touched it
/// (`simt.rs`): what [`RaceDetector::roll_back`] restores.
#[derive(Copy, Clone, Debug)]
pub(crate) struct CellUndo {
    handle: u32,
    pos: usize,
    cell: Cell,
}

impl RaceDetector {
    /// The current phase number: what [`RaceDetector::roll_back`] returns to.
    pub fn phase(&self) -> u32 {
        self.phase
    }

    /// Undoes a warp-synchronous block: restores the cells in `undo` (their states before the
    /// block, latest first) and the phase number `phase` it started from, so that the block
    /// can run again thread by thread as if the first attempt had never happened.
    pub fn roll_back(&mut self, phase: u32, undo: &mut Vec<CellUndo>) {
        for u in undo.drain(..).rev() {
            if let Some(cell) = self.shadows.get_mut(u.handle as usize).and_then(|s| s.get_mut(u.pos)) {
                *cell = u.cell;
            }
        }
        self.phase = phase;
        self.unwritten.clear();
    }

    /// [`RaceDetector::access`] for the warp-synchronous run of a block, which executes the
    /// threads of a warp interleaved instruction by instruction instead of one after another.
    /// Returns `false` — the block must be rolled back and run thread by thread — wherever the
    /// thread-by-thread run could report something: a race, a read of unwritten workgroup
    /// memory, shadow cells that do not fit. Otherwise no thread saw another's write within a
    /// phase, so both runs compute the same, and the cells end as the thread-by-thread run
    /// leaves them: the last write is the same (one thread writes an element per phase, in
    /// program order), reads of the phase matter only within it, and the first reads of the
    /// block that blocks remember are kept by the thread-by-thread order (`rank`: each
    /// thread's position in the phase's thread order, by thread number in the block). The
    /// first touch of a cell in the block saves its state in `undo`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn access_simt(
        &mut self,
        handle: u32,
        len: usize,
        pos: usize,
        kind: AccessKind,
        memory: Tracked,
        thread: u32,
        site: u32,
        rank: &[u32],
        undo: &mut Vec<CellUndo>,
    ) -> bool {
        let (phase, launch_start, block_start, tpb) =
            (self.phase, self.launch_start, self.block_start, self.threads_per_block);
        let h = handle as usize;
        if self.shadows.len() <= h {
            self.shadows.resize_with(h + 1, Vec::new);
        }
        let shadow = &mut self.shadows[h];
        if shadow.len() != len {
            match crate::field::try_filled_vec(len, Cell::default()) {
                Some(cells) => *shadow = cells,
                None => return false,
            }
        }
        let Some(cell) = shadow.get_mut(pos) else { return true };
        // A later read never has an earlier phase than the first read it might replace,
        // and a second read never an earlier one than the first.
        let last =
            cell.write.phase.max(cell.reads[0].phase).max(cell.block_reads[0].phase).max(cell.block_reads[1].phase);
        if last < block_start {
            undo.push(CellUndo { handle, pos, cell: *cell });
        }
        let me = Rec { thread, site, phase };
        let global = memory == Tracked::Global;
        let in_phase = |r: &Rec| r.phase == phase && r.thread != thread;
        let in_launch = |r: &Rec| r.phase >= launch_start && r.thread / tpb != thread / tpb;
        match kind {
            AccessKind::Write => {
                if in_phase(&cell.write)
                    || cell.reads.iter().any(in_phase)
                    || (global && (in_launch(&cell.write) || cell.block_reads.iter().any(in_launch)))
                {
                    return false;
                }
                cell.write = me;
            }
            AccessKind::Read => {
                if (memory == Tracked::Workgroup && cell.write.phase < block_start)
                    || in_phase(&cell.write)
                    || (global && in_launch(&cell.write))
                {
                    return false;
                }
                if cell.reads[0].phase != phase {
                    cell.reads = [me, Rec::default()];
                } else if cell.reads[0].thread != thread && cell.reads[1].phase != phase {
                    cell.reads[1] = me;
                }
                if global {
                    // Whether a read `r` of this block comes before this one in the
                    // thread-by-thread order: an earlier phase, the same thread (program
                    // order), or a thread that runs earlier in the phase.
                    let rank_of = |t: u32| rank.get((t % tpb) as usize).copied().unwrap_or(u32::MAX);
                    let before = |r: &Rec| r.phase < phase || r.thread == thread || rank_of(r.thread) < rank_of(thread);
                    let reads = &mut cell.block_reads;
                    if reads[0].phase < launch_start {
                        *reads = [me, Rec::default()];
                    } else if reads[0].phase >= block_start {
                        if !before(&reads[0]) {
                            reads[0] = me;
                        }
                    } else if reads[1].phase < launch_start || (reads[1].phase >= block_start && !before(&reads[1])) {
                        reads[1] = me;
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: AccessKind = AccessKind::Write;
    const R: AccessKind = AccessKind::Read;

    /// `RaceDetector::access` on small buffers, whose shadows always fit.
    fn access(
        d: &mut RaceDetector,
        handle: u32,
        pos: usize,
        kind: AccessKind,
        memory: Tracked,
        thread: u32,
        site: u32,
    ) -> Option<Finding> {
        d.access(handle, 8, pos, kind, memory, thread, site).expect("8 shadow cells fit")
    }

    fn detector(tpb: u32) -> RaceDetector {
        let mut d = RaceDetector::default();
        d.begin_launch(tpb);
        d.begin_block();
        d.begin_phase();
        d
    }

    #[test]
    fn reads_by_many_threads_do_not_race_but_a_later_write_does() {
        let mut d = detector(4);
        for t in 0..4 {
            assert_eq!(access(&mut d, 0, 3, R, Tracked::Global, t, 1), None);
        }
        let found = access(&mut d, 0, 3, W, Tracked::Global, 0, 2);
        assert!(matches!(found, Some(Finding { earlier_kind: AccessKind::Read, earlier, .. }) if earlier.thread != 0));
    }

    #[test]
    fn a_barrier_separates_accesses_of_one_block() {
        let mut d = detector(4);
        assert_eq!(access(&mut d, 0, 1, W, Tracked::Workgroup, 0, 1), None);
        d.begin_phase();
        assert_eq!(access(&mut d, 0, 1, R, Tracked::Workgroup, 1, 2), None);
        assert_eq!(access(&mut d, 0, 1, R, Tracked::Workgroup, 2, 2), None);
        let found = access(&mut d, 0, 1, W, Tracked::Workgroup, 3, 3);
        assert!(matches!(found, Some(Finding { scope: RaceScope::WithinBlock, .. })));
    }

    #[test]
    fn blocks_race_on_global_memory_even_across_barriers() {
        let mut d = detector(2);
        assert_eq!(access(&mut d, 0, 5, W, Tracked::Global, 0, 1), None);
        d.begin_block();
        d.begin_phase();
        d.begin_phase();
        let found = access(&mut d, 0, 5, R, Tracked::Global, 3, 2);
        assert!(matches!(found, Some(Finding { scope: RaceScope::AcrossBlocks, earlier_kind: AccessKind::Write, .. })));
        // A new launch forgets the old one.
        d.begin_launch(2);
        d.begin_block();
        d.begin_phase();
        assert_eq!(access(&mut d, 0, 5, W, Tracked::Global, 1, 1), None);
    }

    #[test]
    fn unwritten_workgroup_reads_are_found_unless_they_race() {
        let mut d = detector(2);
        assert_eq!(access(&mut d, 1, 0, R, Tracked::Workgroup, 0, 1), None);
        assert_eq!(d.end_phase().map(|u| (u.pos, u.reader.thread)), Some((0, 0)));
        d.begin_phase();
        assert_eq!(access(&mut d, 1, 1, R, Tracked::Workgroup, 0, 1), None);
        // Another thread writes it in the same phase: a race (missing barrier), not an
        // uninitialised read.
        assert!(access(&mut d, 1, 1, W, Tracked::Workgroup, 1, 2).is_some());
        assert_eq!(d.end_phase(), None);
        d.begin_block();
        d.begin_phase();
        // Written by the previous block only: unwritten for this one.
        assert_eq!(access(&mut d, 1, 1, R, Tracked::Workgroup, 2, 1), None);
        assert!(d.end_phase().is_some());
    }
}
