//! Exact intra-tile counts of a full tile (thesis §5.3.1): its intra-tile wavefronts, the
//! points `H_e` of each (Eq. 5.3, 5.6) and the warps `G_e` that execute them (Eq. 5.3) under the
//! GPU mapping's distribution of points over threads.
//!
//! A full tile's points are the box `[0, s_1) × … × [0, s_m)` in band coordinates
//! ([`crate::shape`]). With the first hyperplane as intra-tile wavefront every step `e` is the
//! slice `y_1 = e` (`s_1` steps of `s_2 ⋯ s_m` points); with the skew `Θ_S` (Eq. 3.19) step `e`
//! is the diagonal slice `Σ_k y_k = e` (`1 + Σ_k (s_k − 1)` steps).
//!
//! **Warps.** The mapping (`gpu-map`'s wavefront strategy, docs/passes.md) runs the parallel
//! point loops `y_2, …, y_m` of a step (at most three) on the block's threads: the innermost on
//! `threadIdx.x`, the next on `y`, the outermost on the remaining thread dimensions linearised
//! (so with one loop, on all threads); each loop starts at its lower bound plus the thread's id
//! there and strides by the threads along it. Warps are 32 consecutive linear thread ids (`x`
//! fastest). As in the simulator's warp model (docs/cost-model.md), a warp issues the loop body
//! as many times as its busiest lane runs it: `G_e = Σ_warps max_lanes (points of the lane in
//! step e)` — one warp when a step has at most 32 points, as thesis Eq. 5.3 counts it. A lane's
//! count falls as its `x` grows (the innermost loop gives thread `x` `⌈(len − x)/b_x⌉` points
//! of a row), so only the first lane of each `(y, z)` group of a warp needs counting.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::error::{Result, TileModelError};
use crate::shape::{BandShape, IntraWavefront};

/// A thread organisation (CUDA's `blockDim`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block {
    /// Threads along x.
    pub x: u32,
    /// Threads along y.
    pub y: u32,
    /// Threads along z.
    pub z: u32,
}

impl Block {
    /// A block of `x × y × z` threads.
    pub fn new(x: u32, y: u32, z: u32) -> Block {
        Block { x, y, z }
    }

    /// Threads per block (`K` of thesis Table 5.1).
    pub fn threads(&self) -> u32 {
        self.x * self.y * self.z
    }

    /// The block that follows a tile of `sizes` (one per band row, outermost first): the one
    /// `gpu-map`'s wavefront mapping takes when no block is given, and a candidate of every
    /// size in the search (`search::search`). Inside a tile the points of an intra-tile
    /// wavefront step are the parallel loops of the band's rows after the first (thesis §4: the
    /// first hyperplane carries the dependences), innermost on `x`, whose extents are at most
    /// those rows' tile sizes; a block shaped like them gives each thread a point per step,
    /// where a power of two leaves lanes idle (8×8×4 over tiles of 6: 58 % of them) and a linear
    /// block runs the outer loops in sequence in every thread. Per loop from the innermost: as
    /// few turns as the threads left (of [`FOLLOWING_THREADS`]) allow, spread evenly, so the
    /// block is the tile's own extents when they fit; one loop alone gets a warp at least.
    /// A band of one row (no parallel point loop) gets a linear block of
    /// [`FOLLOWING_THREADS`].
    pub fn following_tile(sizes: &[i64]) -> Block {
        let loops = sizes.len().saturating_sub(1).min(3);
        let most = i64::from(FOLLOWING_THREADS);
        if loops == 0 {
            return Block::new(FOLLOWING_THREADS, 1, 1);
        }
        let mut block = [1i64; 3];
        let mut left = most;
        for (k, slot) in block.iter_mut().enumerate().take(loops) {
            let size = sizes[sizes.len() - 1 - k].clamp(1, most);
            // Along z at most CUDA's 64 threads: a tile 128 deep there takes two turns.
            let room = if k == 2 { left.min(MAX_BLOCK_Z) } else { left };
            // `room ≥ 1`, and `⌈size / turns⌉ ≤ room ≤ left`: what is left stays at least 1.
            let turns = (size + room - 1) / room;
            *slot = (size + turns - 1) / turns;
            left /= *slot;
        }
        if loops == 1 {
            block[0] = block[0].max(i64::from(WARP));
        }
        // Each entry is within [1, 256]: the casts are exact.
        Block::new(block[0] as u32, block[1] as u32, block[2] as u32)
    }
}

/// The most threads of a [`Block::following_tile`] block.
pub const FOLLOWING_THREADS: u32 = 256;

/// The most threads along a block's z that CUDA launches.
pub const MAX_BLOCK_Z: i64 = 64;

impl std::fmt::Display for Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}x{}", self.x, self.y, self.z)
    }
}

/// Threads per warp.
pub const WARP: u32 = 32;

/// The most intra-tile wavefront steps a tile the models take may have. The models' inputs
/// hold a few arrays of one entry per step (points `H_e`, warps `G_e`), walked for every block;
/// explicit tile sizes far past the problem (`poly-tile{sizes=10000000}`: 4·10^7 steps in 3-D)
/// made `gpu-map{block=auto}` take gigabytes and minutes before this bound. A million steps,
/// each a barrier, is a tile no GPU block runs sensibly (the search's own sizes stop at 1024 per
/// row).
pub const MAX_INTRA_STEPS: u64 = 1 << 20;

/// An error naming `sizes` when a full tile of them has more than [`MAX_INTRA_STEPS`] steps
/// ([`wavefront_steps`]) or more points than 64 bits count ([`wavefront_points`] counts them in
/// `u64`): both in 128 bits.
pub fn check_tile_sizes(shape: &BandShape, sizes: &[i64]) -> Result<()> {
    let text = || sizes.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
    let steps: u128 = match shape.intra {
        IntraWavefront::FirstHyperplane => sizes.first().map_or(0, |&s| s.max(0) as u128),
        IntraWavefront::Skew => 1 + sizes.iter().map(|&s| (s.max(1) - 1) as u128).sum::<u128>(),
    };
    if steps > u128::from(MAX_INTRA_STEPS) {
        return Err(TileModelError::InvalidInput(format!(
            "tiles of sizes {} have {steps} intra-tile wavefront steps, more than the tile model takes ({MAX_INTRA_STEPS}): choose tile sizes within the problem's extents",
            text()
        )));
    }
    let points = sizes.iter().try_fold(1u128, |p, &s| p.checked_mul(s.max(0) as u128));
    if points.is_none_or(|p| p > u128::from(u64::MAX)) {
        return Err(TileModelError::InvalidInput(format!(
            "tiles of sizes {} hold more points than the tile model counts (2^64): choose tile sizes within the problem's extents",
            text()
        )));
    }
    Ok(())
}

/// Number of intra-tile wavefronts (steps) of a full tile (`U_{e'_1} − L_{e'_1} + 1`).
pub fn wavefront_steps(shape: &BandShape, sizes: &[i64]) -> usize {
    match shape.intra {
        IntraWavefront::FirstHyperplane => sizes[0] as usize,
        IntraWavefront::Skew => 1 + sizes.iter().map(|&s| (s - 1) as usize).sum::<usize>(),
    }
}

/// `H_e`: the points of each intra-tile wavefront step of a full tile.
pub fn wavefront_points(shape: &BandShape, sizes: &[i64]) -> Vec<u64> {
    match shape.intra {
        IntraWavefront::FirstHyperplane => {
            let slice: u64 = sizes[1..].iter().map(|&s| s as u64).product();
            vec![slice; sizes[0] as usize]
        }
        IntraWavefront::Skew if sizes.iter().all(|&s| s >= 1) => box_points_by_sum(sizes),
        IntraWavefront::Skew => {
            // Points of the box with coordinate sum e: the convolution of the rows' ranges.
            let mut counts = vec![1u64];
            for &s in sizes {
                let s = s as usize;
                let mut next = vec![0u64; counts.len() + s - 1];
                // A running window sum: next[e] = Σ_{y < s} counts[e − y].
                let mut window = 0u64;
                for (e, slot) in next.iter_mut().enumerate() {
                    if e < counts.len() {
                        window += counts[e];
                    }
                    if e >= s {
                        window -= counts[e - s];
                    }
                    *slot = window;
                }
                counts = next;
            }
            counts
        }
    }
}

/// `H_e` of a skewed full tile (thesis Eq. 5.2's points per intra-tile wavefront): the points
/// of the box `[0, s_1 − 1] × ⋯ × [0, s_m − 1]` (every `s_k ≥ 1`) with coordinate sum `e`, the
/// convolution of the rows' ranges, in one array of the final length: per row, the running sums
/// `P` in place, then `next[e] = P[e] − P[e − s]` from the top down (`P[e − s]` not yet
/// overwritten). The rows go from the shortest up (convolution commutes: the same integers in
/// any order, exact in `u64` as no partial sum exceeds the box's points), so the passes run
/// over the short prefixes first. The search asks for every size it screens, twice (its two
/// passes over the sizes of Alg. 5.1); tests check it against the plain convolution.
fn box_points_by_sum(sizes: &[i64]) -> Vec<u64> {
    let mut rows: Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
    rows.sort_unstable();
    let len = 1 + rows.iter().map(|&s| s - 1).sum::<usize>();
    let mut counts = vec![0u64; len];
    counts[0] = 1;
    let mut filled = 1;
    for s in rows {
        let next = filled + s - 1;
        for e in 1..next {
            counts[e] += counts[e - 1];
        }
        for e in (s..next).rev() {
            counts[e] -= counts[e - s];
        }
        filled = next;
    }
    counts
}

/// How the point loops of a step map to one thread: per loop (outermost first), the thread's
/// offset and the stride.
type LaneIds = [(i64, i64); 3];

/// `G_e`: per intra-tile wavefront step of a full tile, the warps executing its points on
/// `block` (module documentation).
pub fn wavefront_warps(shape: &BandShape, sizes: &[i64], block: Block) -> Result<Vec<u64>> {
    warps_of_lanes(shape, sizes, block, false)
}

/// A lower bound of [`wavefront_warps`] per step: per warp, the points of its first lane alone
/// (a warp issues the loop body as often as its busiest lane runs it, so at least as often as
/// any one lane does). It counts one lane per warp instead of the first of each `(y, z)` group
/// (four with blocks 8 wide), and the first lane (`x = 0`, the warp's first `y` and `z`) is
/// usually the busiest: the search bounds a block's time with it before counting `G_e`.
pub fn wavefront_warps_at_least(shape: &BandShape, sizes: &[i64], block: Block) -> Result<Vec<u64>> {
    warps_of_lanes(shape, sizes, block, true)
}

/// [`wavefront_warps`], or with `first_only` [`wavefront_warps_at_least`].
fn warps_of_lanes(shape: &BandShape, sizes: &[i64], block: Block, first_only: bool) -> Result<Vec<u64>> {
    let (leaders, loops) = leaders_of(shape, block)?;
    let steps = counted_steps(shape, sizes);
    let mut per_step = vec![0u64; steps];
    let mut kept = KeptSums::new();
    for warp in leaders.iter() {
        let lanes = if first_only { &warp[..warp.len().min(1)] } else { &warp[..] };
        let most = warp_most(shape.intra, sizes, lanes, loops, vec![0; steps], &mut kept);
        per_step.iter_mut().zip(most).for_each(|(g, n)| *g += n);
    }
    Ok(every_step(shape, sizes, per_step))
}

/// The steps [`wavefront_warps`] counts: every skewed step; one with the first hyperplane, whose
/// steps are all alike.
fn counted_steps(shape: &BandShape, sizes: &[i64]) -> usize {
    match shape.intra {
        IntraWavefront::FirstHyperplane => 1,
        IntraWavefront::Skew => wavefront_steps(shape, sizes),
    }
}

/// The counted steps' values ([`counted_steps`]) as every step's (the first hyperplane: one for
/// all `s_0` steps).
fn every_step(shape: &BandShape, sizes: &[i64], counted: Vec<u64>) -> Vec<u64> {
    match shape.intra {
        IntraWavefront::FirstHyperplane => vec![counted.first().copied().unwrap_or(0); sizes[0] as usize],
        IntraWavefront::Skew => counted,
    }
}

/// Per counted step, the most points of `most`'s and of each of `lanes` (a warp issues the loop
/// body as often as its busiest lane runs it, module documentation).
fn warp_most(
    intra: IntraWavefront,
    sizes: &[i64],
    lanes: &[LaneIds],
    loops: usize,
    mut most: Vec<u64>,
    kept: &mut KeptSums,
) -> Vec<u64> {
    let steps = most.len();
    for ids in lanes {
        lane_steps_each(intra, sizes, ids, loops, steps, kept, |e, n| most[e] = most[e].max(n));
    }
    most
}

/// Per warp of a block, the ids of its lanes that lead a `(y, z)` group.
type Leaders = Rc<Vec<Vec<LaneIds>>>;

thread_local! {
    /// [`leading_lanes`] per block and point loops, kept for the thread's later layouts: they
    /// depend on the block alone, and the search asks for the same few blocks at every tile
    /// size (building them anew was a tenth of a 3-D search's time).
    static LEADERS: RefCell<HashMap<(Block, usize), Leaders>> = RefCell::new(HashMap::new());
}

/// Per warp of `block`, the ids of its lanes that lead a `(y, z)` group, and the parallel
/// point loops; an error for bands the mapping does not cover.
fn leaders_of(shape: &BandShape, block: Block) -> Result<(Leaders, usize)> {
    let loops = shape.width - 1;
    if !(1..=3).contains(&loops) {
        return Err(TileModelError::Unsupported(format!(
            "{loops} parallel point loops per intra-tile wavefront (the mapping puts 1 to 3 on threads)"
        )));
    }
    if block.threads() == 0 {
        return Err(TileModelError::InvalidInput("a block without threads".into()));
    }
    let leaders = LEADERS.with(|cache| {
        Rc::clone(cache.borrow_mut().entry((block, loops)).or_insert_with(|| Rc::new(leading_lanes(block, loops))))
    });
    Ok((leaders, loops))
}

/// Each warp's first lane's points in every step of a full tile on one block: what
/// [`wavefront_warps_at_least`] sums per step ([`FirstLanes::at_least`]), kept so that
/// [`FirstLanes::warps`] counts only the other lanes for the exact `G_e` (the search bounds a
/// block with the first lanes and then, when the bound does not prune it, needs its `G_e`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstLanes {
    block: Block,
    sizes: Vec<i64>,
    /// Warps per block.
    warp_count: usize,
    /// Per step counted (one with the first hyperplane, whose steps are all alike), per warp.
    points: Vec<u64>,
}

impl FirstLanes {
    /// The first lanes of `block`'s warps on a full tile of `sizes`.
    pub fn new(shape: &BandShape, sizes: &[i64], block: Block) -> Result<FirstLanes> {
        let (leaders, loops) = leaders_of(shape, block)?;
        let steps = counted_steps(shape, sizes);
        let count = leaders.len();
        let mut points = vec![0u64; steps * count];
        let mut kept = KeptSums::new();
        for (w, warp) in leaders.iter().enumerate() {
            if let Some(ids) = warp.first() {
                lane_steps_each(shape.intra, sizes, ids, loops, steps, &mut kept, |e, n| points[e * count + w] = n);
            }
        }
        Ok(FirstLanes { block, sizes: sizes.to_vec(), warp_count: leaders.len(), points })
    }

    /// Per step counted, per warp.
    fn rows(&self) -> impl Iterator<Item = &[u64]> {
        self.points.chunks(self.warp_count.max(1))
    }

    /// [`wavefront_warps_at_least`]: per step, the sum of the first lanes' points.
    pub fn at_least(&self, shape: &BandShape) -> Vec<u64> {
        let per_step: Vec<u64> = self.rows().map(|row| row.iter().sum()).collect();
        every_step(shape, &self.sizes, per_step)
    }

    /// [`wavefront_warps`] of the same block and sizes (`shape` the same band): per step and
    /// warp, the most points of its lanes leading a `(y, z)` group, the first lane's taken from
    /// here — the same maximum over the same lanes.
    pub fn warps(&self, shape: &BandShape) -> Result<Vec<u64>> {
        let (leaders, loops) = leaders_of(shape, self.block)?;
        let mut per_step = vec![0u64; self.rows().count()];
        let mut kept = KeptSums::new();
        for (w, warp) in leaders.iter().enumerate() {
            let first: Vec<u64> = self.rows().map(|row| row.get(w).copied().unwrap_or(0)).collect();
            let most = warp_most(shape.intra, &self.sizes, warp.get(1..).unwrap_or(&[]), loops, first, &mut kept);
            per_step.iter_mut().zip(most).for_each(|(g, n)| *g += n);
        }
        Ok(every_step(shape, &self.sizes, per_step))
    }
}

/// An estimate of the work of [`wavefront_warps`] on `block`, in lane-iterations: the steps it
/// counts (one with the first hyperplane, whose steps are all alike), times the lanes it counts
/// per step (the first of each `(y, z)` group of a warp), times the iterations of the loops it
/// enumerates per lane (with the skew all but the last two, which are summed in closed form;
/// without, all but the last); one more per warp and step. The search weighs it against the
/// cost of counting the tiles ([`crate::inter::count_cost`]) to choose which comes first.
/// With three point loops `lane_steps_each` now takes about two per lane and step instead of
/// `⌈s_1 / b_z⌉`; the estimate is left as it was: lowering it (measured on 3-D Jacobi and SOR,
/// thesis model) counted the warps first more often at the same speed.
pub fn warps_cost(shape: &BandShape, sizes: &[i64], block: Block) -> u64 {
    let loops = shape.width.saturating_sub(1);
    let (bx, by, bz) = (u64::from(block.x.max(1)), u64::from(block.y.max(1)), u64::from(block.z.max(1)));
    let warps = u64::from(block.threads().div_ceil(WARP));
    let leaders = if loops <= 1 { warps } else { warps * (u64::from(WARP) / bx).max(1) };
    let row = |k: usize| sizes.get(k).map_or(1, |&s| s.max(1) as u64);
    let (steps, per_lane) = match shape.intra {
        IntraWavefront::FirstHyperplane => (
            1,
            match loops {
                0 | 1 => 1,
                2 => row(1).div_ceil(by * bz),
                _ => row(1).div_ceil(bz) * row(2).div_ceil(by),
            },
        ),
        IntraWavefront::Skew => {
            (wavefront_steps(shape, sizes) as u64, if loops >= 3 { row(1).div_ceil(bz) } else { 1 })
        }
    };
    steps.saturating_mul(leaders.saturating_mul(per_lane).saturating_add(warps))
}

/// Per warp of `block`, the ids of its lanes that lead a `(y, z)` group (module docs).
fn leading_lanes(block: Block, loops: usize) -> Vec<Vec<LaneIds>> {
    let (bx, by, bz) = (i64::from(block.x), i64::from(block.y), i64::from(block.z));
    let k = bx * by * bz;
    let ids = |l: i64| -> LaneIds {
        let (x, y, z) = (l % bx, (l / bx) % by, l / (bx * by));
        match loops {
            1 => [(l, k), (0, 1), (0, 1)],
            2 => [(y + by * z, by * bz), (x, bx), (0, 1)],
            _ => [(z, bz), (y, by), (x, bx)],
        }
    };
    let warps = (k + i64::from(WARP) - 1) / i64::from(WARP);
    (0..warps)
        .map(|w| {
            let first = w * i64::from(WARP);
            let last = (first + i64::from(WARP)).min(k);
            let mut lanes: Vec<LaneIds> = Vec::new();
            let mut previous: Option<(i64, i64)> = None;
            for l in first..last {
                let group = (l / bx) % by + by * (l / (bx * by));
                if loops == 1 {
                    if l == first {
                        lanes.push(ids(l));
                    }
                } else if previous != Some((group, 0)) {
                    lanes.push(ids(l));
                    previous = Some((group, 0));
                }
            }
            lanes
        })
        .collect()
}

/// The points a thread with `ids` runs in step `e` of a full tile: the loops enumerated down to
/// the last two, which are summed in closed form ([`last_two_loops`]).
fn lane_points(intra: IntraWavefront, sizes: &[i64], e: i64, ids: &LaneIds, loops: usize) -> u64 {
    if intra == IntraWavefront::FirstHyperplane {
        return first_hyperplane_lane_points(sizes, ids, loops);
    }
    if loops < 2 {
        return lane_points_by_loops(intra, sizes, e, ids, loops);
    }
    let Some(rest) = skew_rests(sizes) else {
        return lane_points_by_loops(intra, sizes, e, ids, loops);
    };
    fn go(p: usize, prefix: i64, loops: usize, sizes: &[i64], rest: &[i64; 5], e: i64, ids: &LaneIds) -> u64 {
        if p + 2 == loops {
            return last_two_loops(sizes, rest, e, prefix, p, ids);
        }
        let (lo, hi) = skew_range(sizes, rest, e, p, prefix);
        let (id, stride) = ids[p];
        let mut total = 0;
        let mut v = lo + id;
        while v <= hi {
            total += go(p + 1, prefix + v, loops, sizes, rest, e, ids);
            v += stride;
        }
        total
    }
    go(0, 0, loops, sizes, &rest, e, ids)
}

/// [`lane_steps_each`]' running sums of the inner loops' points along the outer stride, by the inner
/// loops' ids and the outer stride, for the lanes of one block on one size.
type KeptSums = Vec<(((i64, i64), (i64, i64), i64), Vec<u64>)>;

/// `Σ_{j' > j} (s_{j'} − 1)` per row `j`, once per lane rather than per loop iteration (the
/// ranges of [`skew_range`] need it for every outer value); `None` past five rows.
fn skew_rests(sizes: &[i64]) -> Option<[i64; 5]> {
    let mut rest = [0i64; 5];
    if sizes.len() > rest.len() {
        return None;
    }
    for j in (0..sizes.len().saturating_sub(1)).rev() {
        rest[j] = rest[j + 1] + (sizes[j + 1] - 1);
    }
    Some(rest)
}

/// [`lane_points`] of the counted steps `0..steps` of a full tile, for the thread with `ids`,
/// handed to `sink` step by step (`sink(e, points)`; no vector per lane: the search asks for the
/// lanes of every block it weighs, half a million per 3-D search).
/// With the skew and three point loops, the two inner loops' points at step `e` and outer value
/// `v` depend on `d = e − v` alone (every bound of [`skew_range`] and [`last_two_loops`] is a
/// function of `e − prefix`): they are counted once per `d` (`F(d)`, `0 ≤ d < steps`, as
/// `v ≤ e`), and step `e`'s points, `Σ F(e − v)` over the outer loop's values
/// `v = lo + id + k·stride ≤ hi`, are a difference of two running sums of `F` along the stride
/// — `steps` closed forms per lane instead of `steps·⌈s_1 / stride⌉` (the warps of 3-D bands,
/// thesis Eq. 5.3's `G_e`, were most of their searches). The same integers as [`lane_points`].
///
/// `F` and its running sums depend on the inner loops' ids and the outer stride alone, which
/// lanes of one block share across its warps (they differ in `z`): `kept` holds them for the
/// lanes of one block and size (the caller's).
fn lane_steps_each(
    intra: IntraWavefront,
    sizes: &[i64],
    ids: &LaneIds,
    loops: usize,
    steps: usize,
    kept: &mut KeptSums,
    mut sink: impl FnMut(usize, u64),
) {
    let rest = match skew_rests(sizes) {
        Some(rest) if intra == IntraWavefront::Skew && loops == 3 && sizes.len() == 4 => rest,
        // Two loops: each step's points are the closed form itself (as in `lane_points`), with
        // the rests once per lane.
        Some(rest) if intra == IntraWavefront::Skew && loops == 2 && sizes.len() == 3 => {
            for e in 0..steps {
                sink(e, last_two_loops(sizes, &rest, e as i64, 0, 0, ids));
            }
            return;
        }
        _ => {
            for e in 0..steps {
                sink(e, lane_points(intra, sizes, e as i64, ids, loops));
            }
            return;
        }
    };
    let (id, stride) = ids[0];
    let step = stride.max(1) as usize;
    let key = (ids[1], ids[2], stride);
    let at = match kept.iter().position(|(k, a)| *k == key && a.len() == steps) {
        Some(at) => at,
        None => {
            // `along[d] = F(d) + F(d − stride) + …` (at most the tile's points: no overflow).
            let mut along = vec![0u64; steps];
            for d in 0..steps {
                let before = if d >= step { along[d - step] } else { 0 };
                along[d] = last_two_loops(sizes, &rest, d as i64, 0, 1, ids) + before;
            }
            kept.push((key, along));
            kept.len() - 1
        }
    };
    let along = &kept[at].1;
    for (e, index) in (0..steps as i64).zip(0..steps) {
        let (lo, hi) = skew_range(sizes, &rest, e, 0, 0);
        let first = lo + id;
        if first > hi {
            sink(index, 0);
            continue;
        }
        // `d` from `e − first` (the first value) down to `e − last` (the last one), all in
        // `0..steps` as `0 ≤ lo ≤ first ≤ last ≤ hi ≤ e`.
        let last = first + (hi - first) / stride * stride;
        let (top, bottom) = ((e - first) as usize, (e - last) as usize);
        sink(index, along[top] - if bottom >= step { along[bottom - step] } else { 0 });
    }
}

/// The range of point loop `p` (band coordinate `p + 1`) of skewed step `e` given the sum
/// `prefix` of the outer loops' coordinates: the box row `[0, s_j − 1]` cut by
/// `e − (s_0 − 1) − prefix − Σ_{j' > j} (s_{j'} − 1) ≤ y_j ≤ e − prefix` (the remaining
/// coordinates, `y_0` included, must make up the sum `e`; `rest[j]` is that sum over `j' > j`).
fn skew_range(sizes: &[i64], rest: &[i64; 5], e: i64, p: usize, prefix: i64) -> (i64, i64) {
    let j = p + 1;
    ((e - (sizes[0] - 1) - prefix - rest[j]).max(0), (sizes[j] - 1).min(e - prefix))
}

/// The points of the last two point loops `p`, `p + 1` of skewed step `e` (outer sum `prefix`)
/// for a thread with `ids`, in closed form: the outer loop runs `v = lo + id_o + k·st_o`; the
/// inner one `⌊(H(v) − L(v)) / st_i⌋ + 1` times where `H(v) − L(v) ≥ 0`, with
/// `L(v) = max(0, α − v) + id_i` and `H(v) = min(β, γ − v)` ([`skew_range`]). Between the
/// breakpoints `v = α` and `v = γ − β` both are affine, so `H − L = c + σ·v` with
/// `σ ∈ {−1, 0, 1}`; on the part of each piece where it is non-negative the counts are
/// `Σ_k ⌊(c + σ·v_0 + σ·st_o·k) / st_i⌋ + 1`, a [`floor_sum`].
fn last_two_loops(sizes: &[i64], rest: &[i64; 5], e: i64, prefix: i64, p: usize, ids: &LaneIds) -> u64 {
    let (lo, hi) = skew_range(sizes, rest, e, p, prefix);
    let ((id_o, st_o), (id_i, st_i)) = (ids[p], ids[p + 1]);
    let first = lo + id_o;
    if first > hi {
        return 0;
    }
    let j = p + 2;
    let alpha = e - (sizes[0] - 1) - prefix - rest[j];
    let (beta, gamma) = (sizes[j] - 1, e - prefix);
    // Pieces of v: below/above α (L = α − v + id_i or id_i), below/above γ − β (H = β or γ − v).
    let mut cuts = [first, alpha + 1, gamma - beta + 1, hi + 1];
    cuts[1..3].sort_unstable();
    let mut total: i128 = 0;
    for w in 0..3 {
        let (a, b) = (cuts[w].max(first), (cuts[w + 1] - 1).min(hi));
        if a > b {
            continue;
        }
        // On a..=b: L = l0 + l1·v, H = h0 + h1·v.
        let (l0, l1) = if a <= alpha { (alpha + id_i, -1) } else { (id_i, 0) };
        let (h0, h1) = if b <= gamma - beta { (beta, 0) } else { (gamma, -1) };
        let (c, sigma) = (h0 - l0, h1 - l1);
        // Where c + σ·v ≥ 0.
        let (mut a, mut b) = (a, b);
        match sigma {
            1 => a = a.max(-c),
            -1 => b = b.min(c),
            _ if c < 0 => continue,
            _ => {}
        }
        // The outer loop's values in a..=b: first + st_o·k.
        let k0 = (a - first + st_o - 1).div_euclid(st_o).max(0);
        let k1 = (b - first).div_euclid(st_o);
        if k1 < k0 {
            continue;
        }
        let n = k1 - k0 + 1;
        let v0 = first + st_o * k0;
        total += floor_sum(n, st_i, sigma * st_o, c + sigma * v0) + i128::from(n);
    }
    total as u64
}

/// `Σ_{k=0}^{n−1} ⌊(a·k + b) / m⌋` for `m > 0` (any signs of `a`, `b`), by the standard
/// Euclid-like reduction (AtCoder Library's `floor_sum`): shift `a`, `b` into `[0, m)` (their
/// quotients contribute `⌊a/m⌋·n(n−1)/2 + ⌊b/m⌋·n`), then count the lattice points under the
/// line by swapping the axes, which turns `(n, m, a, b)` into `(⌊(a·n + b)/m⌋, a, m, (a·n + b) mod m)`.
pub fn floor_sum(n: i64, m: i64, a: i64, b: i64) -> i128 {
    // In 64 bits when the operands are at most 2^20 (tile sizes and thread strides are): `n`
    // never grows (`⌊(a·n + b)/m⌋ ≤ n` with `a, b < m`), every term is at most 2^59 and the
    // partial sums at most 2^61, so nothing overflows; the 128-bit divisions were a third of
    // the warps' counting.
    const SMALL: i64 = 1 << 20;
    if (0..=SMALL).contains(&n)
        && (1..=SMALL).contains(&m)
        && (-SMALL..=SMALL).contains(&a)
        && (-SMALL..=SMALL).contains(&b)
    {
        return i128::from(floor_sum_small(n, m, a, b));
    }
    floor_sum_i128(i128::from(n), i128::from(m), i128::from(a), i128::from(b))
}

/// The body of [`floor_sum`] (the Euclid-like reduction), written once for the two widths it
/// runs in.
macro_rules! floor_sum_body {
    ($n:expr, $m:expr, $a:expr, $b:expr) => {{
        let (n, m, mut a, mut b) = ($n, $m, $a, $b);
        let mut total = 0;
        if !(0..m).contains(&a) {
            total += a.div_euclid(m) * (n * (n - 1) / 2);
            a = a.rem_euclid(m);
        }
        if !(0..m).contains(&b) {
            total += b.div_euclid(m) * n;
            b = b.rem_euclid(m);
        }
        let (mut n, mut m) = (n, m);
        loop {
            if a >= m {
                total += (n * (n - 1) / 2) * (a / m);
                a %= m;
            }
            if b >= m {
                total += n * (b / m);
                b %= m;
            }
            let y_max = a * n + b;
            if y_max < m {
                return total;
            }
            n = y_max / m;
            b = y_max % m;
            std::mem::swap(&mut m, &mut a);
        }
    }};
}

/// [`floor_sum`] in 64 bits, for operands of at most 2^20 (see there).
fn floor_sum_small(n: i64, m: i64, a: i64, b: i64) -> i64 {
    floor_sum_body!(n, m, a, b)
}

/// [`floor_sum`] in 128 bits, for any `i64` operands.
fn floor_sum_i128(n: i128, m: i128, a: i128, b: i128) -> i128 {
    floor_sum_body!(n, m, a, b)
}

/// [`lane_points`] under the first hyperplane: every loop runs over its whole row whatever the
/// outer loops' values (no skew inside the tile), so a lane's points are the product of its
/// values per loop — `⌈(s − id) / stride⌉` of row `s` — instead of the nested enumeration of
/// [`lane_points_by_loops`] (which the tests compare it with). Every step is alike.
fn first_hyperplane_lane_points(sizes: &[i64], ids: &LaneIds, loops: usize) -> u64 {
    (0..loops)
        .map(|p| {
            let (id, stride) = ids[p];
            let last = sizes[p + 1] - 1;
            if id > last {
                0
            } else {
                ((last - id) / stride + 1) as u64
            }
        })
        .product()
}

/// [`lane_points`] by enumerating every loop but the innermost (the earlier count, kept for
/// one loop and for bands of more than five rows, and as the tests' oracle).
fn lane_points_by_loops(intra: IntraWavefront, sizes: &[i64], e: i64, ids: &LaneIds, loops: usize) -> u64 {
    // Loop p runs over band coordinate p + 1.
    let range = |p: usize, prefix: i64| -> (i64, i64) {
        let j = p + 1;
        match intra {
            IntraWavefront::FirstHyperplane => (0, sizes[j] - 1),
            IntraWavefront::Skew => {
                let rest: i64 = sizes[j + 1..].iter().map(|&s| s - 1).sum();
                ((e - (sizes[0] - 1) - prefix - rest).max(0), (sizes[j] - 1).min(e - prefix))
            }
        }
    };
    fn go(p: usize, prefix: i64, loops: usize, ids: &LaneIds, range: &dyn Fn(usize, i64) -> (i64, i64)) -> u64 {
        let (lo, hi) = range(p, prefix);
        let (id, stride) = ids[p];
        let first = lo + id;
        if first > hi {
            return 0;
        }
        if p + 1 == loops {
            return ((hi - first) / stride + 1) as u64;
        }
        let mut total = 0;
        let mut v = first;
        while v <= hi {
            total += go(p + 1, prefix + v, loops, ids, range);
            v += stride;
        }
        total
    }
    go(0, 0, loops, ids, &range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn following_blocks_follow_the_tile() {
        let b = |x, y, z| Block::new(x, y, z);
        assert_eq!(Block::following_tile(&[]), b(256, 1, 1), "untiled");
        assert_eq!(Block::following_tile(&[16]), b(256, 1, 1), "one band row: no parallel point loop");
        assert_eq!(Block::following_tile(&[16, 96]), b(96, 1, 1), "1-D: one loop, its extent");
        assert_eq!(Block::following_tile(&[16, 8]), b(32, 1, 1), "1-D: at least a warp");
        assert_eq!(Block::following_tile(&[16, 16, 16]), b(16, 16, 1), "2-D tiles of 16: a point per thread");
        assert_eq!(Block::following_tile(&[32, 32, 32]), b(32, 8, 1), "2-D tiles of 32: 256 threads");
        assert_eq!(Block::following_tile(&[4, 4, 4, 4]), b(4, 4, 4), "3-D tiles of 4");
        assert_eq!(Block::following_tile(&[3, 6, 6, 6]), b(6, 6, 6), "3-D tiles of 6: the tile's extents");
        assert_eq!(Block::following_tile(&[6, 2, 6, 24]), b(24, 6, 1), "3-D: no thread left for z, two turns");
        assert_eq!(
            Block::following_tile(&[8, 64, 5]),
            b(5, 32, 1),
            "y in two even turns: 51 threads are left for 64 rows"
        );
        assert_eq!(Block::following_tile(&[8, 12, 48]), b(48, 4, 1), "x whole, y in three turns of 4");
        assert_eq!(Block::following_tile(&[8, 600, 600]), b(256, 1, 1), "no thread left for y");
        // CUDA launches at most 64 threads along z: a tile 128 deep there takes two turns.
        assert_eq!(Block::following_tile(&[2, 128, 1, 1]), b(1, 1, 64), "z at most 64");
        assert_eq!(Block::following_tile(&[2, 100, 2, 1]), b(1, 2, 50), "z in two even turns");
    }

    /// The plain convolution of the rows' ranges, row by row in the given order.
    fn convolved(sizes: &[i64]) -> Vec<u64> {
        let mut counts = vec![1u64];
        for &s in sizes {
            let mut next = vec![0u64; counts.len() + s as usize - 1];
            for (e, &c) in counts.iter().enumerate() {
                for slot in &mut next[e..e + s as usize] {
                    *slot += c;
                }
            }
            counts = next;
        }
        counts
    }

    /// `box_points_by_sum` (one array, rows sorted) against the plain convolution: every box
    /// of 1 to 4 rows of sizes 1 to 7, and GPU-sized boxes in several row orders.
    #[test]
    fn box_points_by_sum_is_the_convolution() {
        for m in 1..=4u32 {
            for code in 0..7i64.pow(m) {
                let sizes: Vec<i64> = (0..m).map(|k| code / 7i64.pow(k) % 7 + 1).collect();
                assert_eq!(box_points_by_sum(&sizes), convolved(&sizes), "sizes {sizes:?}");
            }
        }
        for sizes in [[24, 512, 512, 768], [768, 3, 512, 1], [1, 1, 1, 96], [20, 8, 12, 16], [16, 12, 8, 20]] {
            assert_eq!(box_points_by_sum(&sizes), convolved(&sizes), "sizes {sizes:?}");
        }
    }

    #[test]
    fn skewed_slices_of_a_square() {
        // A 3 × 2 box: sums 0..3 have 1, 2, 2, 1 points.
        let shape = test_shape(IntraWavefront::Skew, 2);
        assert_eq!(wavefront_points(&shape, &[3, 2]), vec![1, 2, 2, 1]);
    }

    #[test]
    fn warps_of_one_dimensional_slices() {
        let shape = test_shape(IntraWavefront::FirstHyperplane, 2);
        // 100 points on 64 threads: lanes 0..35 run two points, the rest one; two warps.
        assert_eq!(wavefront_warps(&shape, &[4, 100], Block::new(64, 1, 1)).unwrap(), vec![4; 4]);
        // 40 points on 256 threads: two warps with work.
        assert_eq!(wavefront_warps(&shape, &[1, 40], Block::new(256, 1, 1)).unwrap(), vec![2]);
    }

    #[test]
    fn floor_sums_agree_with_the_sums() {
        for n in 0..12i64 {
            for m in 1..7i64 {
                for a in -9..10i64 {
                    for b in -12..13i64 {
                        let direct: i128 = (0..n).map(|k| i128::from((a * k + b).div_euclid(m))).sum();
                        assert_eq!(floor_sum(n, m, a, b), direct, "n={n} m={m} a={a} b={b}");
                    }
                }
            }
        }
    }

    #[test]
    fn floor_sums_of_large_operands_agree_with_the_sums() {
        // Beyond the 64-bit path's 2^20 and around it.
        let big = [-(1i64 << 33) - 7, -(1 << 21) - 1, -(1 << 20), (1 << 20) - 3, 1 << 20, (1 << 20) + 1, 1 << 35];
        for n in [0i64, 1, 5, 12] {
            for &m in &[1i64, 7, (1 << 20) + 5, 1 << 20, 1 << 31] {
                for &a in big.iter().chain(&[-3, 0, 5]) {
                    for &b in big.iter().chain(&[-2, 0, 9]) {
                        let direct: i128 = (0..n)
                            .map(|k| (i128::from(a) * i128::from(k) + i128::from(b)).div_euclid(i128::from(m)))
                            .sum();
                        assert_eq!(floor_sum(n, m, a, b), direct, "n={n} m={m} a={a} b={b}");
                    }
                }
            }
        }
    }

    #[test]
    fn closed_form_lanes_agree_with_the_loops() {
        // Every skewed step of boxes up to 5 wide in 3 and 4 rows, every thread offset and
        // stride up to 4 per loop.
        let mut checked = 0;
        for sizes in [
            vec![3i64, 4, 2],
            vec![1, 5, 3],
            vec![4, 1, 4],
            vec![2, 3, 4, 2],
            vec![3, 2, 1, 4],
            vec![1, 4, 4, 3],
            vec![2, 5, 3, 4],
            vec![3, 5, 5, 2],
        ] {
            let loops = sizes.len() - 1;
            let steps = 1 + sizes.iter().map(|s| s - 1).sum::<i64>();
            let mut shared = KeptSums::new();
            for code in 0..(16i64.pow(loops as u32)) {
                let mut ids: LaneIds = [(0, 1); 3];
                for (p, id) in ids.iter_mut().enumerate().take(loops) {
                    let c = (code >> (4 * p)) & 15;
                    let stride = 1 + c / 4;
                    *id = (c % 4 % stride, stride);
                }
                let by_loops: Vec<u64> =
                    (0..steps).map(|e| lane_points_by_loops(IntraWavefront::Skew, &sizes, e, &ids, loops)).collect();
                for e in 0..steps {
                    assert_eq!(
                        lane_points(IntraWavefront::Skew, &sizes, e, &ids, loops),
                        by_loops[e as usize],
                        "sizes {sizes:?} e {e} ids {ids:?}"
                    );
                    checked += 1;
                }
                // Every step at once (with three loops: by the running sums along the stride).
                let mut all = vec![0; steps as usize];
                let sink = |e: usize, n: u64| all[e] = n;
                lane_steps_each(IntraWavefront::Skew, &sizes, &ids, loops, steps as usize, &mut Vec::new(), sink);
                assert_eq!(all, by_loops, "sizes {sizes:?} ids {ids:?}");
                // And with the sums kept from the other lanes of the same outer stride (as a
                // block's warps share them): kept by the right key, they are the same.
                let mut all = vec![0; steps as usize];
                let sink = |e: usize, n: u64| all[e] = n;
                lane_steps_each(IntraWavefront::Skew, &sizes, &ids, loops, steps as usize, &mut shared, sink);
                assert_eq!(all, by_loops, "sizes {sizes:?} ids {ids:?}, kept sums");
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn first_hyperplane_lanes_are_products_of_the_loops() {
        // Every box of 1-3 loops with rows up to 5 after the first, every thread offset and
        // stride up to 4 per loop: the product agrees with the nested enumeration.
        let mut checked = 0;
        for loops in 1..=3usize {
            for code in 0..5i64.pow(loops as u32) {
                let mut sizes = vec![3i64];
                sizes.extend((0..loops).map(|p| code / 5i64.pow(p as u32) % 5 + 1));
                for lane in 0..(16i64.pow(loops as u32)) {
                    let mut ids: LaneIds = [(0, 1); 3];
                    for (p, id) in ids.iter_mut().enumerate().take(loops) {
                        let c = (lane >> (4 * p)) & 15;
                        let stride = 1 + c / 4;
                        *id = (c % 4 % stride, stride);
                    }
                    assert_eq!(
                        first_hyperplane_lane_points(&sizes, &ids, loops),
                        lane_points_by_loops(IntraWavefront::FirstHyperplane, &sizes, 0, &ids, loops),
                        "sizes {sizes:?} ids {ids:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn first_lanes_give_the_same_warps() {
        // Every block shape of 1-3 loops the search tries on small tiles, both wavefronts: the
        // warps from the kept first lanes are `wavefront_warps`', their sums
        // `wavefront_warps_at_least`'.
        let h100 = crate::device::DeviceLimits::h100();
        let mut checked = 0;
        for intra in [IntraWavefront::Skew, IntraWavefront::FirstHyperplane] {
            for sizes in [vec![3i64, 40], vec![2, 5, 37], vec![1, 9, 4], vec![3, 4, 6, 5], vec![2, 7, 3, 12]] {
                let shape = test_shape(intra, sizes.len());
                for block in crate::search::block_candidates(sizes.len() - 1, &h100) {
                    let lanes = FirstLanes::new(&shape, &sizes, block).unwrap();
                    assert_eq!(lanes.warps(&shape).unwrap(), wavefront_warps(&shape, &sizes, block).unwrap());
                    assert_eq!(lanes.at_least(&shape), wavefront_warps_at_least(&shape, &sizes, block).unwrap());
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }

    fn test_shape(intra: IntraWavefront, width: usize) -> BandShape {
        BandShape { width, intra, statements: vec![], phases: vec![vec![]], arrays: vec![], params: vec![] }
    }
}
