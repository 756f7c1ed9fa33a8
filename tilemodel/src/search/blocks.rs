//! The thread blocks of the search (thesis Alg. 5.1's thread organisations): the candidates per
//! band width, the block that follows a tile, the blockDim constraint, and what the model's
//! per-block bound needs of a block before its tile's warps are counted (residency by threads).

use std::borrow::Cow;
use std::collections::HashMap;

use super::{rounded_to_warp, PruneReason, SearchOptions};
use crate::device::DeviceLimits;
use crate::footprint::TileMemory;
use crate::inputs::cyclic_warps;
use crate::intra::{wavefront_points, Block, WARP};
use crate::model::BlockFacts;
use crate::shape::BandShape;

/// The blocks of one tile size: the search's list ([`block_candidates`]) and, unless the
/// options fix the block, the one that follows the tile ([`Block::following_tile`]) when the
/// list lacks it and it is at least `narrowest` (the list's least width) along x and a warp in
/// all. (A narrower block spreads a warp over rows of the arrays, which the models do not
/// charge: 3-D SOR at 256³ chose tiles one point wide on 1×16×16 blocks.)
pub(super) fn size_blocks<'a>(
    blocks: &'a [Block],
    narrowest: u32,
    sizes: &[i64],
    options: &SearchOptions,
) -> Cow<'a, [Block]> {
    match own_block(blocks, narrowest, sizes, options) {
        None => Cow::Borrowed(blocks),
        Some(own) => {
            let mut with_own = blocks.to_vec();
            with_own.push(own);
            Cow::Owned(with_own)
        }
    }
}

/// The block [`size_blocks`] adds to the search's list for `sizes`, if any.
pub(super) fn own_block(blocks: &[Block], narrowest: u32, sizes: &[i64], options: &SearchOptions) -> Option<Block> {
    let own = Block::following_tile(sizes);
    let adds = options.fixed_block.is_none() && !blocks.contains(&own) && own.x >= narrowest && own.threads() >= WARP;
    adds.then_some(own)
}

/// The search's blocks grouped by their threads, for [`ThreadGroups::facts`].
pub(super) struct ThreadGroups(Vec<(u32, Vec<Block>)>);

impl ThreadGroups {
    pub(super) fn new(blocks: &[Block]) -> ThreadGroups {
        let mut groups: Vec<(u32, Vec<Block>)> = Vec::new();
        for &block in blocks {
            match groups.iter_mut().find(|(threads, _)| *threads == block.threads()) {
                Some((_, group)) => group.push(block),
                None => groups.push((block.threads(), vec![block])),
            }
        }
        ThreadGroups(groups)
    }

    /// What [`block_facts`] gives for the search's blocks and `own` ([`own_block`]), one entry
    /// per thread count instead of one per block. Before the warps are counted a block's facts
    /// are a function of its threads (blocks per SM from the threads, the registers and the
    /// tile's shared memory; copy warps from the threads and the tile's copy loops), and a
    /// model's bound over blocks is the least of a bound that depends on a block only through
    /// its facts ([`TileModel::lower_bound_over_blocks`](crate::model::TileModel::lower_bound_over_blocks)): over these it is the same value. A
    /// thread count is in when one of its blocks passes the blockDim constraint, which stops at
    /// the first that does.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn facts(
        &self,
        shape: &BandShape,
        sizes: &[i64],
        points: &[u64],
        memory: &TileMemory,
        own: Option<Block>,
        device: &DeviceLimits,
        options: &SearchOptions,
        residencies: &mut Residencies,
    ) -> Vec<BlockFacts> {
        let largest = rounded_to_warp(points.iter().copied().max().unwrap_or(0));
        let extents = loop_extents(sizes);
        let passes =
            |block: Block| options.fixed_block.is_some() || block_constraint(shape, largest, &extents, block).is_none();
        let own_passes = own.filter(|&b| passes(b));
        let own_threads = own_passes.map(|b| b.threads());
        let mut threads: Vec<u32> = self
            .0
            .iter()
            .filter(|(t, group)| own_threads == Some(*t) || group.iter().any(|&b| passes(b)))
            .map(|(t, _)| *t)
            .collect();
        if let Some(t) = own_threads.filter(|t| !threads.contains(t)) {
            threads.push(t);
        }
        residencies.for_shared_bytes(memory.shared_bytes);
        threads.into_iter().filter_map(|t| facts_of(t, memory, device, options, residencies)).collect()
    }
}

/// Thread organisations for `loops` parallel point loops (module documentation).
pub fn block_candidates(loops: usize, device: &DeviceLimits) -> Vec<Block> {
    let max = device.max_threads_per_block.min(1024);
    let pow2 = |lo: u32, hi: u32| (0..11).map(|k| 1u32 << k).filter(move |&v| v >= lo && v <= hi);
    let mut out = Vec::new();
    match loops {
        1 => out.extend((1..=max / WARP).map(|k| Block::new(k * WARP, 1, 1))),
        2 => {
            for x in pow2(8, max) {
                for y in pow2(1, max / x) {
                    out.push(Block::new(x, y, 1));
                }
            }
        }
        _ => {
            for x in pow2(8, max) {
                for y in pow2(1, max / x) {
                    for z in pow2(1, max / (x * y)) {
                        out.push(Block::new(x, y, z));
                    }
                }
            }
        }
    }
    out.retain(|b| b.threads() % WARP == 0 && b.threads() >= WARP && b.threads() <= max);
    out
}

/// The longest range of the loop on each thread dimension (x, y, z) over a full tile's steps.
pub(super) fn loop_extents(sizes: &[i64]) -> [i64; 3] {
    // Point loops over band coordinates 1..m, innermost on x; with the skew a loop's range is
    // at most its row's size, which the middle steps reach.
    let loops: Vec<i64> = sizes[1..].to_vec();
    let c = loops.len();
    let mut e = [1i64; 3];
    match c {
        1 => e[0] = loops[0],
        2 => {
            e[0] = loops[1];
            e[1] = loops[0];
        }
        _ => {
            e[0] = loops[2];
            e[1] = loops[1];
            e[2] = loops[0];
        }
    }
    e
}

/// The blockDim constraint (module documentation) on `block` for tiles of `sizes`: the reason the
/// search would not consider the layout, if there is one (a calibration run's layout the search
/// cannot choose, `stencil-calibrate compare`).
pub fn block_constraint_of(shape: &BandShape, sizes: &[i64], block: Block) -> Option<PruneReason> {
    let largest = rounded_to_warp(wavefront_points(shape, sizes).into_iter().max().unwrap_or(0));
    block_constraint(shape, largest, &loop_extents(sizes), block)
}

/// The blockDim constraint (module documentation) on `block` for a tile whose largest
/// intra-tile wavefront, rounded up to a warp, has `largest` points and whose loops on x, y, z
/// have `extents` iterations: the reason it fails, if it does.
pub(super) fn block_constraint(
    shape: &BandShape,
    largest: u64,
    extents: &[i64; 3],
    block: Block,
) -> Option<PruneReason> {
    if u64::from(block.threads()) > largest {
        return Some(PruneReason::BlockTooLarge);
    }
    // A block of one parallel loop is one warp at least; of two or three, 8 along x.
    let smallest = if shape.width == 2 { i64::from(WARP) } else { 8 };
    let x_cap = smallest.max((extents[0].max(1) as u64).next_power_of_two() as i64);
    if i64::from(block.y) > extents[1] || i64::from(block.z) > extents[2] || i64::from(block.x) > x_cap {
        return Some(PruneReason::IdleAxis);
    }
    None
}

/// The residency `B` (thesis Table 5.1) of blocks at one amount of shared memory per block, by
/// their threads, computed when first asked: `B` depends on the block's threads, the registers
/// (one value per search) and the shared bytes alone, and global-memory tiles share none, so
/// every size of a global search asks for the same values (the blocks' bounds before counting,
/// for tens of thousands of sizes on 3-D bands). The same function on the same arguments: the
/// same `B`.
#[derive(Default)]
pub(super) struct Residencies {
    /// The shared bytes per block the values are for.
    shared_bytes: Option<u64>,
    /// By threads per block, once computed.
    of: HashMap<u32, crate::device::Residency>,
}

impl Residencies {
    /// Forgets the values unless they are for `shared_bytes`.
    pub(super) fn for_shared_bytes(&mut self, shared_bytes: u64) {
        if self.shared_bytes != Some(shared_bytes) {
            self.shared_bytes = Some(shared_bytes);
            self.of.clear();
        }
    }

    /// The residency of blocks of `threads` threads, from `compute` the first time.
    pub(super) fn get(
        &mut self,
        threads: u32,
        compute: impl FnOnce() -> crate::device::Residency,
    ) -> crate::device::Residency {
        *self.of.entry(threads).or_insert_with(compute)
    }
}

/// Every block the search's `evaluate_blocks` would evaluate for a tile size (those that pass
/// the blockDim constraint and fit on an SM) with what the model's per-block bound needs of it,
/// before its tiles are counted: the same checks, on the same block-independent inputs. The
/// warps are left to the caller (`None`: their lower bound).
#[allow(clippy::too_many_arguments)]
pub(super) fn block_facts(
    shape: &BandShape,
    sizes: &[i64],
    points: &[u64],
    memory: &TileMemory,
    blocks: &[Block],
    device: &DeviceLimits,
    options: &SearchOptions,
    residencies: &mut Residencies,
) -> (Vec<Block>, Vec<BlockFacts>) {
    let largest = rounded_to_warp(points.iter().copied().max().unwrap_or(0));
    let extents = loop_extents(sizes);
    residencies.for_shared_bytes(memory.shared_bytes);
    blocks
        .iter()
        .filter(|&&block| options.fixed_block.is_some() || block_constraint(shape, largest, &extents, block).is_none())
        .filter_map(|&block| facts_of(block.threads(), memory, device, options, residencies).map(|f| (block, f)))
        .unzip()
}

/// A block of `threads` threads' [`BlockFacts`] before its warps are counted, or `None` when
/// it does not fit on an SM with the tile's `memory` (`residencies` for its shared bytes).
pub(super) fn facts_of(
    threads: u32,
    memory: &TileMemory,
    device: &DeviceLimits,
    options: &SearchOptions,
    residencies: &mut Residencies,
) -> Option<BlockFacts> {
    let fits =
        residencies.get(threads, || crate::device::residency(device, threads, options.registers, memory.shared_bytes));
    (fits.blocks_per_sm > 0).then(|| BlockFacts {
        threads,
        blocks_per_sm: fits.blocks_per_sm,
        copy_warps: memory.copy_loops.iter().map(|&cells| cyclic_warps(cells, threads)).sum(),
        warps: None,
    })
}
