//! The DRAM traffic of a launch, estimated as the distinct 32-byte sectors of global memory it
//! reads and writes (docs/cost-model.md, "DRAM traffic").
//!
//! The simulator's access counts are what the threads *ask for*: a 5-point stencil asks for
//! five elements per point, while on a GPU four of them hit in L1 or L2. NVIDIA's L2 moves data
//! to and from DRAM in 32-byte sectors, so a launch that touches a sector many times (neighbour
//! loads, a tile's halo read by its threads, a global-memory tile walked by many wavefront
//! steps) pays for it once, as long as the cache keeps it between those touches. The estimate
//! assumes it does for the whole launch and nothing between launches: stencil reuse spans a few
//! rows or planes (kilobytes to a few MiB, well within the 50 MiB of an H100's L2) and the large
//! problems the benchmarks time have fields far larger than L2, so a field read by one launch
//! comes from DRAM again in the next.

/// Bytes per DRAM sector (the unit of L2 ↔ DRAM transfers on NVIDIA GPUs since Volta).
pub const SECTOR_BYTES: u64 = 32;

/// The sectors one launch has touched, per global buffer and access kind, as bit sets.
#[derive(Clone, Debug, Default)]
pub(super) struct Sectors {
    /// By buffer handle: one bit per sector read.
    read: Vec<Vec<u64>>,
    /// By buffer handle: one bit per sector written.
    written: Vec<Vec<u64>>,
}

/// A sector the warp-synchronous run marked, so that it can unmark it when the block falls
/// back to the thread-by-thread run (which marks it again).
#[derive(Copy, Clone, Debug)]
pub(super) struct Marked {
    write: bool,
    handle: u32,
    sector: u64,
}

impl Sectors {
    /// Marks the sector holding element `pos` (of `bytes` bytes; elements are laid out densely
    /// from a sector boundary, as `cudaMalloc` aligns allocations) of buffer `handle`. Returns
    /// the mark when the sector was new to the launch.
    #[inline]
    pub fn touch(&mut self, handle: u32, pos: usize, bytes: u32, write: bool) -> Option<Marked> {
        let sector = (pos as u64).saturating_mul(u64::from(bytes)) / SECTOR_BYTES;
        let sets = if write { &mut self.written } else { &mut self.read };
        let h = handle as usize;
        if sets.len() <= h {
            sets.resize_with(h + 1, Vec::new);
        }
        let set = &mut sets[h];
        let (word, bit) = ((sector / 64) as usize, sector % 64);
        if set.len() <= word {
            set.resize(word + 1, 0);
        }
        let mask = 1u64 << bit;
        if set[word] & mask != 0 {
            return None;
        }
        set[word] |= mask;
        Some(Marked { write, handle, sector })
    }

    /// Unmarks what [`Sectors::touch`] marked.
    pub fn undo(&mut self, m: Marked) {
        let sets = if m.write { &mut self.written } else { &mut self.read };
        if let Some(word) = sets.get_mut(m.handle as usize).and_then(|s| s.get_mut((m.sector / 64) as usize)) {
            *word &= !(1u64 << (m.sector % 64));
        }
    }

    /// Bytes the launch read from and wrote to DRAM (distinct sectors × 32), forgetting every
    /// sector for the next launch (the allocations stay).
    pub fn take_bytes(&mut self) -> (u64, u64) {
        let drain = |sets: &mut Vec<Vec<u64>>| {
            let mut sectors = 0u64;
            for set in sets.iter_mut() {
                sectors += set.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
                set.fill(0);
            }
            sectors * SECTOR_BYTES
        };
        (drain(&mut self.read), drain(&mut self.written))
    }
}

#[cfg(test)]
mod tests {
    use super::Sectors;

    #[test]
    fn a_sector_counts_once_per_launch_and_kind() {
        let mut s = Sectors::default();
        // f64: four elements per sector. Elements 0..8 of buffer 3: two sectors, each new once.
        let new: Vec<bool> = (0..8).map(|p| s.touch(3, p, 8, false).is_some()).collect();
        assert_eq!(new, [true, false, false, false, true, false, false, false]);
        // Writing a sector already read is a write of its own; another buffer is another set.
        assert!(s.touch(3, 1, 8, true).is_some());
        assert!(s.touch(0, 1, 8, false).is_some());
        // f32 element 9 lies in sector 1 (bytes 36..40).
        assert!(s.touch(7, 9, 4, false).is_some());
        assert!(s.touch(7, 15, 4, false).is_none());
        assert_eq!(s.take_bytes(), (4 * 32, 32));
        // The next launch starts afresh.
        assert_eq!(s.take_bytes(), (0, 0));
        assert!(s.touch(3, 0, 8, false).is_some());
    }

    #[test]
    fn undo_forgets_a_new_sector() {
        let mut s = Sectors::default();
        let m = s.touch(1, 100, 8, true).expect("new");
        s.undo(m);
        assert_eq!(s.take_bytes(), (0, 0));
        assert!(s.touch(1, 100, 8, true).is_some());
    }
}
