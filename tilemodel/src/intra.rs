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
}

impl std::fmt::Display for Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}x{}", self.x, self.y, self.z)
    }
}

/// Threads per warp.
pub const WARP: u32 = 32;

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

/// How the point loops of a step map to one thread: per loop (outermost first), the thread's
/// offset and the stride.
type LaneIds = [(i64, i64); 3];

/// `G_e`: per intra-tile wavefront step of a full tile, the warps executing its points on
/// `block` (module documentation).
pub fn wavefront_warps(shape: &BandShape, sizes: &[i64], block: Block) -> Result<Vec<u64>> {
    let loops = shape.width - 1;
    if !(1..=3).contains(&loops) {
        return Err(TileModelError::Unsupported(format!(
            "{loops} parallel point loops per intra-tile wavefront (the mapping puts 1 to 3 on threads)"
        )));
    }
    if block.threads() == 0 {
        return Err(TileModelError::InvalidInput("a block without threads".into()));
    }
    let leaders = leading_lanes(block, loops);
    let count_step = |e: i64| -> u64 {
        leaders
            .iter()
            .map(|warp| warp.iter().map(|ids| lane_points(shape.intra, sizes, e, ids, loops)).max().unwrap_or(0))
            .sum()
    };
    Ok(match shape.intra {
        IntraWavefront::FirstHyperplane => vec![count_step(0); sizes[0] as usize],
        IntraWavefront::Skew => (0..wavefront_steps(shape, sizes) as i64).map(count_step).collect(),
    })
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

/// The points a thread with `ids` runs in step `e` of a full tile.
fn lane_points(intra: IntraWavefront, sizes: &[i64], e: i64, ids: &LaneIds, loops: usize) -> u64 {
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

    fn test_shape(intra: IntraWavefront, width: usize) -> BandShape {
        BandShape { width, intra, statements: vec![], phases: vec![vec![]], arrays: vec![], params: vec![] }
    }
}
