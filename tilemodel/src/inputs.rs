//! The model inputs of one tile layout (a tile size and a thread organisation, thesis §5.4),
//! assembled from the exact counts of [`crate::inter`], [`crate::intra`] and
//! [`crate::footprint`], and the residency of [`crate::device`].

use crate::device::{residency, DeviceLimits, Residency};
use crate::error::Result;
use crate::footprint::{global_memory, staged_memory, TileMemory};
use crate::inter::{count_tiles, InterTileCounts, TileGeometry};
use crate::intra::{wavefront_points, wavefront_warps, Block};
use crate::shape::BandShape;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, OnceLock};

/// Everything about one tile size that does not depend on the thread organisation.
#[derive(Debug, Clone, PartialEq)]
pub struct TileInputs {
    /// The tile size per band row (thesis Eq. 3.14's `s`).
    pub sizes: Vec<i64>,
    /// Inter-tile wavefronts and their tiles.
    pub inter: InterTileCounts,
    /// `H_e` of each intra-tile wavefront step of a full tile.
    pub points: Vec<u64>,
    /// Statement groups per step (barrier-separated phases, thesis Fig. 4.7).
    pub groups: usize,
    /// Loads, stores and shared memory of a full tile.
    pub memory: TileMemory,
    /// Whether tiles are staged in shared memory.
    pub staged: bool,
    /// The models' sums over `inter`'s wavefronts, by what they depend on besides the counts
    /// (blocks per SM, threads): the blocks of one size share a few such keys, and summing
    /// thousands of wavefronts per block was most of the evaluation of 2-D sizes. They are
    /// `inter`'s as it is: code that changes `inter` after a prediction must reset them
    /// (`WavefrontSums::default()`); nothing in the crate does.
    pub wavefront_sums: WavefrontSums,
}

/// Sums over a tile's inter-tile wavefronts that a model makes per layout (Prajapati Eq. 2's
/// rounds, thesis Eq. 5.9–5.11's critical tiles), kept by key: a sum depends on the counts and
/// on a few numbers of the block (its blocks per SM, its warps) and the device, and the search
/// evaluates tens of blocks per tile size (`search::evaluate_blocks`). The same key gives the
/// same sum, computed by the same code in the same order, so the predictions are unchanged.
/// The sums run over the wavefronts' [`WavefrontClass`]es, made once per tile: a long run's
/// thousands of wavefronts repeat a few counts (the tiles repeat along time, `crate::period`).
/// Derived data: clones carry it, and it takes no part in equality.
#[derive(Debug, Default)]
pub struct WavefrontSums {
    sums: Mutex<Vec<([u64; 5], [f64; 3])>>,
    classes: OnceLock<Vec<WavefrontClass>>,
}

/// Wavefronts with the same tiles and full tiles: a model's per-wavefront term is the same for
/// each, so a sum over the wavefronts is a sum over the classes, each term times its count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct WavefrontClass {
    /// Tiles of each of these wavefronts (at least 1: wavefronts without tiles are left out).
    pub tiles: u64,
    /// Full tiles of each.
    pub full: u64,
    /// How many wavefronts have these counts.
    pub count: u64,
}

impl WavefrontSums {
    /// The classes of `inter`'s wavefronts with tiles, by tiles then full tiles (made the first
    /// time they are asked: `inter` must be the counts these sums belong to).
    pub fn classes(&self, inter: &InterTileCounts) -> &[WavefrontClass] {
        self.classes.get_or_init(|| wavefront_classes(inter))
    }

    /// The sums under `key` (which must name everything `sums` depends on besides the tile's
    /// counts), made by `sums` the first time this key is asked.
    pub fn get_or(&self, key: [u64; 5], sums: impl FnOnce() -> Result<[f64; 3]>) -> Result<[f64; 3]> {
        let known = self.kept().iter().find(|(k, _)| *k == key).map(|&(_, v)| v);
        if let Some(v) = known {
            return Ok(v);
        }
        // Not under the lock: `sums` may be long, and a poisoned or raced entry costs only a sum.
        let v = sums()?;
        self.kept().push((key, v));
        Ok(v)
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, Vec<([u64; 5], [f64; 3])>> {
        self.sums.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// [`WavefrontSums::classes`]: runs of equal neighbours grouped by a small hash map (a long
/// run has thousands of wavefronts and a few dozen classes, mostly in runs), then sorted, so
/// the sums' order is fixed.
fn wavefront_classes(inter: &InterTileCounts) -> Vec<WavefrontClass> {
    let mut by_counts: HashMap<(u64, u64), u64, BuildHasherDefault<PairHasher>> = HashMap::default();
    let mut run: Option<((u64, u64), u64)> = None;
    let mut add = |(pair, length): ((u64, u64), u64)| {
        let class = by_counts.entry(pair).or_insert(0);
        *class = class.saturating_add(length);
    };
    // Each entry stands for `weight` wavefronts (a long run's repeated stretch, more).
    let per_wavefront = inter.per_wavefront();
    for (i, pair) in inter.tiles.iter().copied().zip(inter.full.iter().copied()).enumerate() {
        let weight = per_wavefront.weight(i);
        match &mut run {
            Some((last, length)) if *last == pair => *length = length.saturating_add(weight),
            _ => run.replace((pair, weight)).into_iter().for_each(&mut add),
        }
    }
    run.into_iter().for_each(add);
    by_counts.retain(|&(tiles, _), _| tiles > 0);
    let mut out: Vec<WavefrontClass> =
        by_counts.into_iter().map(|((tiles, full), count)| WavefrontClass { tiles, full, count }).collect();
    out.sort_unstable();
    out
}

/// A multiply-rotate hasher for [`wavefront_classes`]' pairs of counts (the standard hasher,
/// keyed against flooding, costs more than the sums it saves; these keys are our own counts).
#[derive(Default)]
struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Clone for WavefrontSums {
    fn clone(&self) -> WavefrontSums {
        let classes = OnceLock::new();
        if let Some(c) = self.classes.get() {
            let _ = classes.set(c.clone());
        }
        WavefrontSums { sums: Mutex::new(self.kept().clone()), classes }
    }
}

impl PartialEq for WavefrontSums {
    /// Always: the sums follow from the counts, which equality compares.
    fn eq(&self, _: &WavefrontSums) -> bool {
        true
    }
}

impl TileInputs {
    /// The inputs of `sizes` for `shape` (its [`TileGeometry`] precomputed), staged or not.
    pub fn new(shape: &BandShape, geometry: &TileGeometry, sizes: &[i64], staged: bool) -> Result<TileInputs> {
        let memory = if staged { staged_memory(shape, sizes)? } else { global_memory(shape, sizes) };
        TileInputs::with_memory(shape, geometry, sizes, staged, memory)
    }

    /// [`TileInputs::new`] with the memory use already counted.
    pub fn with_memory(
        shape: &BandShape,
        geometry: &TileGeometry,
        sizes: &[i64],
        staged: bool,
        memory: TileMemory,
    ) -> Result<TileInputs> {
        crate::intra::check_tile_sizes(shape, sizes)?;
        Ok(TileInputs::with_counts(shape, sizes, staged, memory, count_tiles(shape, geometry, sizes)?))
    }

    /// [`TileInputs::with_memory`] with the inter-tile counts already made (the search counts
    /// with [`crate::inter::count_tiles_unless`], which may give up early).
    pub fn with_counts(
        shape: &BandShape,
        sizes: &[i64],
        staged: bool,
        memory: TileMemory,
        inter: InterTileCounts,
    ) -> TileInputs {
        TileInputs {
            sizes: sizes.to_vec(),
            inter,
            points: wavefront_points(shape, sizes),
            groups: shape.phases.len().max(1),
            memory,
            staged,
            wavefront_sums: WavefrontSums::default(),
        }
    }

    /// `L_TILE = s_1 × … × s_m`, the points of a full tile (thesis Eq. 5.6).
    pub fn tile_points(&self) -> u64 {
        self.sizes.iter().map(|&s| s as u64).product()
    }

    /// The [`WavefrontClass`]es of this tile's inter-tile wavefronts (made once).
    pub fn wavefront_classes(&self) -> &[WavefrontClass] {
        self.wavefront_sums.classes(&self.inter)
    }

    /// Intra-tile wavefront steps of a full tile.
    pub fn steps(&self) -> usize {
        self.points.len()
    }

    /// The points of the largest intra-tile wavefront.
    pub fn largest_wavefront(&self) -> u64 {
        self.points.iter().copied().max().unwrap_or(0)
    }

    /// The data reuse rate `D = L_TILE / N_mem` (thesis §5.4.1).
    pub fn reuse(&self) -> f64 {
        self.tile_points() as f64 / self.memory.accesses().max(1) as f64
    }

    /// Barriers a block passes per full tile in the mapping: one after each statement group of
    /// each step, and one after the loads when staged (thesis Eq. 5.7 counts `U − L + 3`,
    /// including Fig. 5.2's ③, which our mapping does not need, docs/passes.md).
    pub fn barriers_per_tile(&self) -> u64 {
        (self.steps() * self.groups) as u64 + u64::from(self.staged)
    }
}

/// One tile layout with everything the models read.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutInputs<'a> {
    /// The block-independent part.
    pub tile: &'a TileInputs,
    /// The thread organisation.
    pub block: Block,
    /// `G_e` of each step of a full tile on this block.
    pub warps: Vec<u64>,
    /// Warp-iterations of a staged tile's copy loops on this block (each loop's cells cyclic
    /// over the block's threads, the busiest lane of each warp counted, as for `G_e`).
    pub copy_warps: u64,
    /// Registers per thread `R_T` (thesis Alg. 5.1 line 1).
    pub registers: u32,
    /// Resident blocks per SM (thesis Table 5.1's `B`, seed 004's `k`).
    pub residency: Residency,
    /// Bytes per element.
    pub element_bytes: u32,
    /// Arithmetic operations per point (all statements).
    pub operations_per_point: u32,
}

impl<'a> LayoutInputs<'a> {
    /// The layout of `tile` on `block` with `registers` per thread on `device`.
    pub fn new(
        shape: &BandShape,
        tile: &'a TileInputs,
        block: Block,
        registers: u32,
        device: &DeviceLimits,
    ) -> Result<LayoutInputs<'a>> {
        Ok(LayoutInputs {
            tile,
            block,
            warps: wavefront_warps(shape, &tile.sizes, block)?,
            copy_warps: tile.memory.copy_loops.iter().map(|&cells| cyclic_warps(cells, block.threads())).sum(),
            registers,
            residency: residency(device, block.threads(), registers, tile.memory.shared_bytes),
            element_bytes: shape.element_bytes(),
            operations_per_point: shape.operations_per_point(),
        })
    }

    /// [`LayoutInputs::new`] with `G_e` already counted (`warps`, as
    /// [`crate::intra::wavefront_warps`] gives them: the search counts them before the tiles to
    /// bound a block's time, and does not count them twice).
    pub fn with_warps(
        shape: &BandShape,
        tile: &'a TileInputs,
        block: Block,
        warps: Vec<u64>,
        registers: u32,
        device: &DeviceLimits,
    ) -> LayoutInputs<'a> {
        LayoutInputs {
            tile,
            block,
            warps,
            copy_warps: tile.memory.copy_loops.iter().map(|&cells| cyclic_warps(cells, block.threads())).sum(),
            registers,
            residency: residency(device, block.threads(), registers, tile.memory.shared_bytes),
            element_bytes: shape.element_bytes(),
            operations_per_point: shape.operations_per_point(),
        }
    }

    /// The layout with `G_e` replaced by its lower bound `⌈H_e / 32⌉` (a warp-iteration covers
    /// at most 32 points), everything else exact, without counting warps: what the search's
    /// per-block bound predicts with (models whose time does not fall as `G_e` grows).
    pub fn with_fewest_warps(
        shape: &BandShape,
        tile: &'a TileInputs,
        block: Block,
        registers: u32,
        device: &DeviceLimits,
    ) -> LayoutInputs<'a> {
        let fewest = tile.points.iter().map(|&h| h.div_ceil(u64::from(crate::intra::WARP))).collect();
        LayoutInputs::with_warps(shape, tile, block, fewest, registers, device)
    }

    /// `Σ_e G_e` over a full tile's steps, every statement group counted.
    pub fn total_warps(&self) -> u64 {
        self.warps.iter().sum::<u64>() * self.tile.groups as u64
    }

    /// `Σ_e H_e` over a full tile's steps: the points whose statements the tile runs. With
    /// several statement groups per step each group runs its own statements on the step's
    /// points, so a point's statements still run once in all — the groups add loop turns
    /// ([`LayoutInputs::total_warps`]) and barriers, not statement work.
    pub fn total_points(&self) -> u64 {
        self.tile.points.iter().sum::<u64>()
    }

    /// Thesis Eq. 5.5's `N_mem` in our mapping: the warp-iterations of the copy loops when
    /// staged (what the copies cost: every buffer cell is visited and tested), else the
    /// tile's global accesses (made inside the loop body).
    pub fn memory_work(&self) -> u64 {
        if self.tile.staged {
            self.copy_warps
        } else {
            self.tile.memory.accesses()
        }
    }
}

/// Warp-iterations of a loop of `n` iterations cyclic over `threads` threads: per warp, the
/// iterations of its busiest (first) lane.
pub fn cyclic_warps(n: u64, threads: u32) -> u64 {
    let k = u64::from(threads.max(1));
    (0..k.div_ceil(u64::from(crate::intra::WARP)))
        .map(|w| {
            let first = w * u64::from(crate::intra::WARP);
            if first >= n {
                0
            } else {
                (n - first).div_ceil(k)
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::{wavefront_classes, WavefrontClass, WavefrontSums};
    use crate::inter::InterTileCounts;

    fn class(tiles: u64, full: u64, count: u64) -> WavefrontClass {
        WavefrontClass { tiles, full, count }
    }

    #[test]
    fn classes_count_the_wavefronts_with_tiles_by_their_counts() {
        // Runs, repeats apart, and empty wavefronts (left out).
        let inter = InterTileCounts {
            first_wavefront: 0,
            tiles: vec![3, 3, 0, 5, 3, 5, 5, 3, 1],
            full: vec![1, 1, 0, 2, 1, 2, 2, 0, 0],
            repeat: None,
        };
        let classes = wavefront_classes(&inter);
        assert_eq!(classes, [class(1, 0, 1), class(3, 0, 1), class(3, 1, 3), class(5, 2, 3)]);
        let counted: u64 = classes.iter().map(|c| c.count).sum();
        assert_eq!(counted, 8, "every wavefront with tiles, once");
        let tiles: u64 = classes.iter().map(|c| c.tiles * c.count).sum();
        assert_eq!(tiles, inter.total_tiles());
        // Made once: the cache answers the same slice.
        let sums = WavefrontSums::default();
        assert_eq!(sums.classes(&inter), &classes[..]);
        assert_eq!(sums.clone().classes(&inter), &classes[..]);
    }

    #[test]
    fn no_wavefront_with_tiles_has_no_class() {
        let inter = InterTileCounts { first_wavefront: 4, tiles: vec![0, 0], full: vec![0, 0], repeat: None };
        assert!(wavefront_classes(&inter).is_empty());
        let empty = InterTileCounts { first_wavefront: 0, tiles: vec![], full: vec![], repeat: None };
        assert!(wavefront_classes(&empty).is_empty());
    }
}
