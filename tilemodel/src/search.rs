//! Model-driven tile-layout selection: thesis Alg. 5.1 (§5.4.1) over tile sizes per band row and
//! thread organisations, with its pruning.
//!
//! For every tile size `s` that satisfies the **tile size constraint** — staged shared memory
//! per block `S_TB` at most the limit (the upper bound), data reuse `D = L_TILE / N_mem` at least
//! a threshold (the lower bound; staged tiles only: without staging every access goes to global
//! memory and `D` says nothing) — and every thread organisation that satisfies the **blockDim
//! constraint** — a multiple of 32 threads from 32 to 1024 (§5.4.1: "the SP performance usually
//! suffers with too many or too few threads"), no more threads than the largest intra-tile
//! wavefront has points rounded up to a warp, and no more threads along y or z than the loop
//! mapped there has iterations (every thread has work); and, ours, for every size the block
//! that follows its tile ([`Block::following_tile`], `gpu-map`'s default, which need not be a
//! power of two or whole warps: on the H200 3-D SOR's 6x2x6x24 tiles ran 1.26× faster on it,
//! 24×6×1, than on the power of two 32×4×2 the search chose without it) — the search computes
//! `B` from Table 5.1 with the registers per thread `R_T` (line 1: one value for every layout)
//! and evaluates the model (line 8), keeping the best layouts. The block-independent inputs of
//! a size (its tiles, footprint, `H_e`) are computed once and shared by all its blocks.
//!
//! The candidate sizes per row are `1, 2, 3, 4, 6, 8, 12, 16, …` (powers of two and three times
//! them) up to the first one that covers the row's whole range at the problem sizes (a larger
//! size is the same tiling). Every rejected layout is counted under the reason that pruned it,
//! which `stencil-opt --explain-tile-sizes` prints.
//!
//! On several threads the queue's sizes are visited ahead of their turn and committed in order
//! (`search/ahead.rs`), with the result of the walk on one thread. The thread blocks (candidates,
//! the blockDim constraint, residency) are in `search/blocks.rs`, the counts the walk keeps per
//! family of sizes in `search/memo.rs`.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use crate::calibration::Calibration;
use crate::device::DeviceLimits;
use crate::error::{Result, TileModelError};
use crate::footprint::{global_memory, staged_memory, SharedBytesPlan, TileMemory};
use crate::inputs::{LayoutInputs, TileInputs};
use crate::inter::{count_cost, count_tiles, count_tiles_unless, lower_bounds, PerWavefront, TileGeometry};
use crate::intra::{warps_cost, wavefront_points, wavefront_warps, Block, FirstLanes, WARP};
use crate::model::{BlockFacts, BoundInputs, ModelKind, Prediction, TileModel};
use crate::shape::BandShape;

mod ahead;
mod blocks;
mod memo;

use ahead::{parallel_map, read_lock, write_lock, Ahead, MadeAhead};
pub use blocks::{block_candidates, block_constraint_of};
use blocks::{block_constraint, block_facts, loop_extents, own_block, size_blocks, Residencies, ThreadGroups};
use memo::{CountMemo, Memo, Seen};

/// Options of [`search`].
#[derive(Debug, Clone, PartialEq)]
pub struct SearchOptions {
    /// The model whose prediction ranks layouts.
    pub model: ModelKind,
    /// Whether tiles are staged in shared memory (`gpu-map{staging}`).
    pub staged: bool,
    /// Most shared memory per block in bytes (`gpu-map{shared-memory}`).
    pub shared_limit: u64,
    /// Registers per thread `R_T` (thesis Alg. 5.1 line 1).
    pub registers: u32,
    /// The data-reuse threshold `D_min` of the tile size constraint (staged tiles); `None`:
    /// [`DEFAULT_MIN_REUSE`], capped at half the reuse of the largest tile within the
    /// shared-memory bound.
    pub min_reuse: Option<f64>,
    /// Search only this tile size (e.g. `gpu-map{block=auto}` after explicit sizes).
    pub fixed_sizes: Option<Vec<i64>>,
    /// Search only this block.
    pub fixed_block: Option<Block>,
    /// The largest tile size per row considered.
    pub max_size: i64,
    /// Per band row, the extent whose tile sizes ([`row_sizes`]) are considered; `None`: the
    /// band's own ([`BandShape::row_ranges`]). The nests of one program search the sizes of
    /// their widest extents alike ([`crate::nests`]).
    pub size_extents: Option<Vec<i64>>,
    /// How many of the best layouts to report.
    pub keep: usize,
    /// Only layouts predicted at most this many seconds matter (`staging=auto`: the other
    /// staging's best): the branch and bound prunes against it from the start, and the report
    /// keeps none slower. With it, a search that keeps nothing is no error: its report has no
    /// choice.
    pub beat: Option<f64>,
    /// Threads the search visits sizes on; 0: as many as the machine runs at once where the
    /// search is large enough to gain from them (`PARALLEL_FROM` sizes), else one. The result
    /// and the report do not depend on it.
    pub threads: usize,
}

/// The largest tile size per row a search of skewed intra-tile wavefronts considers. Counting a
/// skewed tile's warps costs per step and lane, and its steps are the sum of its sizes: with
/// sizes up to [`SearchOptions::max_size`] a long time loop made the search run for minutes
/// (3-D Jacobi at its defaults with T=200: over 60 s; the fuzzer's long time loop never ended).
/// Skewed tiles that large are not what the skew is for either: on the H200 every skewed layout
/// measured ran 3–6× slower than the first hyperplane's (docs/tile-models.md).
pub const MAX_SKEWED_SIZE: i64 = 64;

/// The largest size per row `options` let a search of `shape` consider.
fn searched_max_size(shape: &BandShape, options: &SearchOptions) -> i64 {
    match shape.intra {
        crate::shape::IntraWavefront::Skew => options.max_size.min(MAX_SKEWED_SIZE),
        crate::shape::IntraWavefront::FirstHyperplane => options.max_size,
    }
}

/// The most threads a search runs on: a larger [`SearchOptions::threads`] is taken as this
/// many (each thread keeps a window of sizes ahead, and no machine has more cores to give).
pub const MAX_THREADS: usize = 256;

impl SearchOptions {
    /// The threads to search on ([`SearchOptions::threads`], at most [`MAX_THREADS`]).
    pub fn worker_threads(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
        .min(MAX_THREADS)
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            model: ModelKind::Thesis,
            staged: true,
            shared_limit: 48 * 1024,
            registers: 128,
            min_reuse: None,
            fixed_sizes: None,
            fixed_block: None,
            max_size: 1024,
            size_extents: None,
            keep: 10,
            beat: None,
            threads: 0,
        }
    }
}

/// The default data-reuse threshold: a staged tile must update at least as many points as it
/// moves elements. Thesis §5.5.2 used 300, 6 and 1 for 1-, 2- and 3-D SOR on a Tesla C1060
/// with its own footprint count; our staged footprints (the whole projection of a skewed tile
/// onto the array) give smaller `D`, and only the 3-D value leaves feasible tiles at every size.
pub const DEFAULT_MIN_REUSE: f64 = 1.0;

/// What one tile-row prefix of [`crate::inter::count_tiles`] costs, in the lane-iterations of
/// [`crate::intra::warps_cost`] (measured on the examples' 2-D and 3-D bands: 0.4–9 µs a prefix,
/// 6–65 ns a lane-iteration; the search only uses it to choose whether a size's warps or its
/// tiles are counted first, which changes its speed, not its result).
const LANE_ITERATIONS_PER_PREFIX: u64 = 64;

/// The cost of a block's `G_e` ([`crate::intra::warps_cost`]) from which `evaluate_blocks`
/// first bounds its time with one lane per warp ([`crate::intra::wavefront_warps_at_least`]):
/// cheaper warps (every step alike, or few and short) are counted at once, as the bound would
/// cost about as much as it saves.
const FIRST_LANES_FROM: u64 = 16 * LANE_ITERATIONS_PER_PREFIX;

/// Why a region of the search space was pruned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PruneReason {
    /// Staged shared memory per block above the limit (tile size constraint, upper bound).
    SharedMemory,
    /// Data reuse below the threshold (tile size constraint, lower bound).
    Reuse,
    /// More threads than the largest intra-tile wavefront has points (blockDim constraint).
    BlockTooLarge,
    /// More threads along y or z than the loop mapped there has iterations, or along x more
    /// than that loop's iterations rounded up to a power of two (at least 8; 32 when the block
    /// maps one loop, so that it is one warp at least).
    IdleAxis,
    /// A block does not fit on an SM (registers, shared memory or threads; Table 5.1's
    /// `B = 0`).
    DoesNotFit,
    /// Not Alg. 5.1's: the model's lower bound for the size is above the layouts kept (branch
    /// and bound; no better layout is lost).
    Bound,
    /// Not Alg. 5.1's: the model's time for the block with the fewest possible warps per step,
    /// or with each warp's first lane's points as its warps (at most `G_e`), is above the
    /// layouts kept (branch and bound per block; no better layout is lost).
    BlockBound,
    /// Not Alg. 5.1's: tiles so small for the problem that they make more inter-tile
    /// wavefronts (launches) than one count of tiles holds ([`crate::inter::MAX_WAVEFRONTS`]),
    /// where the counts do not repeat within that many (a long run's do: `crate::period`);
    /// larger sizes are searched.
    TooManyWavefronts,
}

impl PruneReason {
    /// What the reason means, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            PruneReason::SharedMemory => "tile size constraint (upper bound): staged tile needs more shared memory per block than the limit",
            PruneReason::Reuse => "tile size constraint (lower bound): data reuse L_TILE / N_mem below the threshold",
            PruneReason::BlockTooLarge => "blockDim constraint: more threads than the largest intra-tile wavefront has points (rounded up to a warp)",
            PruneReason::IdleAxis => "blockDim constraint: more threads along an axis than the loop mapped there has iterations (x: rounded up to a power of two, at least 8, or 32 with one loop)",
            PruneReason::DoesNotFit => "Table 5.1: B = 0, a block does not fit on an SM (registers per block, shared memory or threads)",
            PruneReason::Bound => "branch and bound: the model's lower bound for every block of the size is above the layouts kept",
            PruneReason::BlockBound => "branch and bound: the model's time with fewer warps per step than the block's (⌈H_e/32⌉, or each warp's first lane's points) is above the layouts kept",
            PruneReason::TooManyWavefronts => "count limit: more inter-tile wavefronts (launches) than one count of tiles holds (2^20), and no shorter repeated stretch",
        }
    }

    /// Whether it prunes tile sizes (with all their blocks) rather than single layouts.
    pub fn prunes_sizes(self) -> bool {
        matches!(
            self,
            PruneReason::SharedMemory | PruneReason::Reuse | PruneReason::Bound | PruneReason::TooManyWavefronts
        )
    }
}

/// One pruned region: how many sizes (or layouts) and the first example met.
#[derive(Debug, Clone, PartialEq)]
pub struct PrunedRegion {
    /// Why.
    pub reason: PruneReason,
    /// Tile sizes (size reasons) or layouts (block reasons) pruned.
    pub count: u64,
    /// The first one met, with the figure that pruned it.
    pub example: String,
}

/// A ranked layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// The tile size per band row.
    pub sizes: Vec<i64>,
    /// The thread organisation.
    pub block: Block,
    /// The model's estimate.
    pub prediction: Prediction,
    /// Inter-tile wavefronts (launches).
    pub wavefronts: usize,
    /// Tiles in all wavefronts, and how many of them are full.
    pub tiles: u64,
    /// Full tiles.
    pub full_tiles: u64,
    /// Intra-tile wavefront steps of a full tile.
    pub steps: usize,
    /// `N_mem` of a full tile.
    pub accesses: u64,
    /// Shared memory per block in bytes.
    pub shared_bytes: u64,
    /// Resident blocks per SM.
    pub blocks_per_sm: u32,
    /// Data reuse `L_TILE / N_mem`.
    pub reuse: f64,
}

/// What [`search`] found and how.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchReport {
    /// The model that ranked the layouts.
    pub model: ModelKind,
    /// Its equations.
    pub equations: &'static str,
    /// The best layouts, best first.
    pub best: Vec<Ranked>,
    /// The pruned regions, by reason.
    pub pruned: Vec<PrunedRegion>,
    /// Tile sizes considered.
    pub sizes_considered: u64,
    /// Layouts evaluated by the model.
    pub evaluated: u64,
    /// The options the search ran with.
    pub options: SearchOptions,
    /// The data-reuse threshold applied (staged tiles).
    pub reuse_threshold: f64,
    /// The problem sizes.
    pub params: Vec<(String, i64)>,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// For a program of several nests ([`crate::nests::search_nests`]): how their searches
    /// were combined, and whether the choice is proven the best; `None` for one nest.
    pub composition: Option<String>,
}

impl SearchReport {
    /// The chosen layout.
    pub fn choice(&self) -> Option<&Ranked> {
        self.best.first()
    }

    /// The report as JSON (what `stencil-opt --explain-tile-sizes-json` writes).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let layouts: Vec<serde_json::Value> = self
            .best
            .iter()
            .map(|r| {
                json!({
                    "sizes": r.sizes,
                    "block": [r.block.x, r.block.y, r.block.z],
                    "predicted_s": r.prediction.seconds,
                    "terms": r.prediction.terms.iter().map(|t| json!({"name": t.name, "seconds": t.seconds})).collect::<Vec<_>>(),
                    "wavefronts": r.wavefronts,
                    "tiles": r.tiles,
                    "full_tiles": r.full_tiles,
                    "steps": r.steps,
                    "n_mem": r.accesses,
                    "shared_bytes": r.shared_bytes,
                    "blocks_per_sm": r.blocks_per_sm,
                    "reuse": r.reuse,
                })
            })
            .collect();
        json!({
            "model": self.model.name(),
            "equations": self.equations,
            "params": self.params.iter().map(|(n, v)| (n.clone(), serde_json::Value::from(*v))).collect::<serde_json::Map<_, _>>(),
            "staged": self.options.staged,
            "shared_limit": self.options.shared_limit,
            "registers": self.options.registers,
            "reuse_threshold": self.reuse_threshold,
            "sizes_considered": self.sizes_considered,
            "evaluated": self.evaluated,
            "elapsed_s": self.elapsed.as_secs_f64(),
            "composition": self.composition,
            "layouts": layouts,
            "pruned": self.pruned.iter().map(|p| json!({
                "reason": format!("{:?}", p.reason),
                "description": p.reason.describe(),
                "count": p.count,
                "example": p.example,
            })).collect::<Vec<_>>(),
        })
    }
}

/// Candidate sizes of one row whose range has `extent` values: `1, 2, 3, 4, 6, 8, …` up to the
/// first that covers it, at most `max_size`.
pub fn row_sizes(extent: i64, max_size: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut p = 1i64;
    'grid: loop {
        for v in [p, 3 * p / 2] {
            if v < 1 || out.last() == Some(&v) || v > max_size {
                continue;
            }
            out.push(v);
            if v >= extent {
                break 'grid;
            }
        }
        if p > max_size {
            break;
        }
        p *= 2;
    }
    out
}

/// A tally of pruned regions.
#[derive(Default)]
struct Tally {
    regions: BTreeMap<PruneReason, PrunedRegion>,
    /// The reasons (bits by [`PruneReason::bit`]) of the tally this one is for
    /// ([`Tally::absorb`]) that have their region already: their examples are not made here.
    known: u16,
}

impl PruneReason {
    /// The reason's bit in a set of reasons.
    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

impl Tally {
    /// An empty tally of one size's visit, for a tally whose regions are `known`.
    fn within(known: u16) -> Tally {
        Tally { regions: BTreeMap::new(), known }
    }

    fn prune(&mut self, reason: PruneReason, example: impl FnOnce() -> String) {
        let known = self.known & reason.bit() != 0;
        let example = move || if known { String::new() } else { example() };
        self.regions.entry(reason).or_insert_with(|| PrunedRegion { reason, count: 0, example: example() }).count += 1;
    }

    /// Whether a region of `reason` has been pruned (and has its first example).
    fn has(&self, reason: PruneReason) -> bool {
        self.known & reason.bit() != 0 || self.regions.contains_key(&reason)
    }

    /// The reasons with a region, as a set of bits.
    fn known(&self) -> u16 {
        self.regions.keys().fold(self.known, |set, r| set | r.bit())
    }

    /// `count` more pruned for `reason`, whose region has its example already.
    fn prune_more(&mut self, reason: PruneReason, count: u64) {
        if self.has(reason) {
            self.regions
                .entry(reason)
                .or_insert_with(|| PrunedRegion { reason, count: 0, example: String::new() })
                .count += count;
        }
    }

    /// Adds the regions of `visit`'s tally (made for this one: [`Tally::within`] its known
    /// reasons or fewer), whose examples come after this one's.
    fn absorb(&mut self, visit: Tally) {
        for (reason, region) in visit.regions {
            self.regions.entry(reason).or_insert(PrunedRegion { count: 0, ..region.clone() }).count += region.count;
        }
    }
}

fn sizes_text(s: &[i64]) -> String {
    s.iter().map(i64::to_string).collect::<Vec<_>>().join("x")
}

/// Thesis Alg. 5.1 over `shape` with the calibration's model for `program` (see the module
/// documentation); an error when every layout is pruned.
pub fn search(
    shape: &BandShape,
    program: &str,
    calibration: &Calibration,
    options: &SearchOptions,
) -> Result<SearchReport> {
    let start = Instant::now();
    let device = &calibration.device;
    let model: Box<dyn TileModel> = calibration.model(
        options.model,
        program,
        options.staged,
        shape.operations_per_point(),
        shape.element_bytes(),
        shape.data_bytes(),
    );
    let geometry = TileGeometry::new(shape);
    let counts = CountMemo::new(shape);
    let m = shape.width;
    let grids: Vec<Vec<i64>> = match &options.fixed_sizes {
        Some(s) => {
            if s.len() != m || s.iter().any(|&v| v < 1) {
                return Err(TileModelError::InvalidInput(format!(
                    "tile sizes {} for a band of {m} rows",
                    sizes_text(s)
                )));
            }
            s.iter().map(|&v| vec![v]).collect()
        }
        None => match &options.size_extents {
            Some(extents) if extents.len() == m => {
                extents.iter().map(|&e| row_sizes(e, searched_max_size(shape, options))).collect()
            }
            Some(extents) => {
                return Err(TileModelError::InvalidInput(format!(
                    "{} size extents for a band of {m} rows",
                    extents.len()
                )))
            }
            None => shape
                .row_ranges()
                .iter()
                .map(|&(lo, hi)| row_sizes(hi - lo + 1, searched_max_size(shape, options)))
                .collect(),
        },
    };
    // The grid's largest size has the most intra-tile steps (explicit sizes far past the
    // problem have hundreds of millions): refused before any of its arrays is made.
    let largest: Vec<i64> = grids.iter().map(|g| g.last().copied().unwrap_or(1)).collect();
    crate::intra::check_tile_sizes(shape, &largest)?;
    let blocks = match options.fixed_block {
        Some(b) => vec![b],
        None => block_candidates(m - 1, device),
    };
    let mut tally = Tally::default();
    let mut best: Vec<Ranked> = Vec::new();
    let mut evaluated = 0u64;
    // Pass 1: the tile size constraint's shared-memory bound (a closed form per size).
    let mut screened: Vec<Vec<i64>> = Vec::new();
    let mut index = vec![0usize; m];
    let mut considered = 0u64;
    let plan = SharedBytesPlan::new(shape);
    let last = m - 1;
    loop {
        let sizes: Vec<i64> = index.iter().zip(&grids).map(|(&k, g)| g[k]).collect();
        considered += 1;
        if within_shared_memory(shape, &plan, &sizes, options, &mut tally)? {
            screened.push(sizes);
        } else if options.staged && plan.is_monotone() {
            // The shared memory only grows with each size (`SharedBytesPlan::is_monotone`), and
            // the last row's grid is increasing: the rest of this row is over the limit too, as
            // long as the largest of it computes without overflow (then so does every size in
            // between, each at most it). Tallied as each would be (the first example stays).
            let row = &grids[last];
            let rest = row.len() - 1 - index[last];
            if rest > 0 {
                let mut largest = sizes;
                largest[last] = row[row.len() - 1];
                if plan.bytes(shape, &largest).is_ok() {
                    considered += rest as u64;
                    tally.prune_more(PruneReason::SharedMemory, rest as u64);
                    index[last] = row.len() - 1;
                }
            }
        }
        if !next_index(&mut index, &grids) {
            break;
        }
    }
    // The reuse threshold: given, or the default capped at half the reuse of the largest tile
    // within the shared-memory bound (so that a program whose staged tiles all move more
    // elements than they update still gets its best ones).
    let threshold = match options.min_reuse {
        Some(t) => t,
        None => {
            let largest = screened.iter().max_by_key(|s| s.iter().map(|&v| v as u128).product::<u128>());
            match largest {
                Some(s) if options.staged => DEFAULT_MIN_REUSE.min(0.5 * reuse(&staged_memory(shape, s)?, s)),
                _ => DEFAULT_MIN_REUSE,
            }
        }
    };
    // Pass 2: Alg. 5.1's loops over the surviving sizes and the blocks, as a branch and
    // bound: sizes in the order of a lower bound of their time that needs no counting, and a
    // size is skipped once its bound (then one with its footprint, then one with its tiles
    // counted) cannot beat the layouts kept. This changes how many layouts are evaluated, not
    // which are best.
    let groups = shape.phases.len().max(1);
    let threads = match options.threads {
        0 if screened.len() < PARALLEL_FROM => 1,
        _ => options.worker_threads(),
    };
    let walk = Walk {
        shape,
        sizes: &screened,
        geometry: &geometry,
        model: model.as_ref(),
        device,
        options,
        blocks: &blocks,
        by_threads: &ThreadGroups::new(&blocks),
        narrowest: blocks.iter().map(|b| b.x).min().unwrap_or(WARP),
        groups,
        // A given size is evaluated as given: no reuse bound, no branch and bound.
        constrained: options.fixed_sizes.is_none(),
        threshold,
        keep: options.keep.max(1),
        shares_counts: threads > 1,
    };
    let keys = parallel_map(&screened, threads, |sizes| walk.order_key(sizes));
    // In the order of the key, ties in the grid's order (a stable sort of the sizes, on pairs).
    let mut queue: Vec<QueueItem> = keys.into_iter().zip(0..).collect();
    queue.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let counts = RwLock::new(counts);
    let mut residencies = Residencies::default();
    // Each size is committed in the queue's order: its visit (made ahead on a worker thread, or
    // here) merged into the tally and the memo, and its layouts evaluated. A visit that holds at
    // the size's turn (`Visit::holds`: the same prune reasons with examples, and every question
    // it asked of its cutoff answered alike by the cutoff then), made with the memo's counts of
    // its family as they are then, is the one it would have had then; the others are made again
    // (`Ahead`). Once the bound's region has its first
    // example, the memo's counts need not be the same: with other counts of the family (or
    // none) a visit prunes the size for the bound or evaluates it as with these (a count that
    // stopped bounds the size below its own count, which bounds it below its time, and exact
    // counts are the same), and only the example's figure could tell them apart.
    let mut commit = |i: usize, ahead: Option<MadeAhead<'_>>| -> Result<Option<Standing>> {
        let now = Standing::of(&walk, &best, &tally);
        // The rest of the queue is pruned for the bound once this size's key is beyond the
        // cutoff: every later key is at least this one, and each size's first bound is at least
        // its key (`Walk::first_bound`), so each visit would prune its size there; counted at once
        // when the bound's region has its example (which a visit sets, with its figure).
        if now.knows_bound() && now.cutoff(&walk).is_some_and(|cutoff| beyond(queue[i].0, cutoff)) {
            tally.prune_more(PruneReason::Bound, (queue.len() - i) as u64);
            return Ok(None);
        }
        let visit = match ahead {
            Some(Some(Ok(visit)))
                if visit.holds(&walk, now) && (now.knows_bound() || read_lock(&counts).unchanged(&visit)) =>
            {
                visit
            }
            _ => walk.visit(now, &counts, &queue[i], &mut residencies)?,
        };
        tally.absorb(visit.tally);
        if let Some(memo) = visit.counted {
            write_lock(&counts).keep(visit.family, memo);
        }
        if let Some(ready) = visit.ready {
            evaluate_blocks(
                shape,
                &ready.tile,
                &ready.blocks,
                &ready.counted_warps,
                model.as_ref(),
                device,
                options,
                &mut tally,
                &mut best,
                &mut evaluated,
            )?;
        }
        Ok(Some(Standing::of(&walk, &best, &tally)))
    };
    if threads > 1 {
        Ahead::run(&walk, &queue, &counts, threads, &mut commit)?;
    } else {
        for i in 0..queue.len() {
            if commit(i, None)?.is_none() {
                break;
            }
        }
    }
    let pruned: Vec<PrunedRegion> = tally.regions.into_values().collect();
    // Layouts `evaluate_blocks` kept before the list was full may be slower than the time to
    // beat (with the same tolerance as the pruning).
    if let Some(beat) = options.beat {
        best.retain(|r| !beyond(r.prediction.seconds, beat));
    }
    if best.is_empty() && options.beat.is_none() {
        let why: Vec<String> =
            pruned.iter().map(|p| format!("{} × {} (e.g. {})", p.count, p.reason.describe(), p.example)).collect();
        return Err(TileModelError::NoLayout(format!(
            "{considered} tile sizes, every layout pruned: {}",
            why.join("; ")
        )));
    }
    let elapsed = start.elapsed();
    tracing::debug!(sizes = considered, layouts = evaluated, ?elapsed, "tile-size search");
    Ok(SearchReport {
        model: options.model,
        equations: model.equations(),
        best,
        pruned,
        sizes_considered: considered,
        evaluated,
        options: options.clone(),
        reuse_threshold: threshold,
        params: shape.params.clone(),
        elapsed,
        composition: None,
    })
}

/// The data reuse `D = L_TILE / N_mem` (thesis §5.4.1) of a tile of `sizes` moving `memory`
/// (`TileInputs::reuse` once the tile's inputs are made).
fn reuse(memory: &TileMemory, sizes: &[i64]) -> f64 {
    sizes.iter().map(|&s| s as f64).product::<f64>() / memory.accesses().max(1) as f64
}

/// Searches with at least this many sizes left after the shared-memory bound visit them on
/// several threads: the global-memory 3-D searches at GPU sizes (39 000–61 000 sizes, 0.2–0.8 s
/// on one thread). Smaller ones take under 70 ms on one (1-D, 2-D, staged 3-D), and on several
/// their first visits, made ahead with a cutoff that is still falling, cost more than the
/// threads save (1-D SOR at 65 536, T = 512: 5 → 12 ms on two threads).
const PARALLEL_FROM: usize = 8192;

/// A size of the branch and bound's queue: its order key ([`Walk::order_key`]) and its index in
/// the sizes the shared-memory bound left ([`Walk::sizes`]).
type QueueItem = (f64, usize);

/// What a size's visit reads of the search's state besides the memo of counts: the time a
/// layout must beat to be kept (the worst kept once the list is full, or the time to beat if
/// lower) and which prune reasons already have their first example. Only committing a visit
/// changes it, and two visits of a size with equal standings (and counts) are the same.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Standing {
    worst: Option<f64>,
    known: u16,
}

impl Standing {
    fn of(walk: &Walk<'_>, best: &[Ranked], tally: &Tally) -> Standing {
        let worst = if best.len() >= walk.keep { best.last().map(|r| r.prediction.seconds) } else { None };
        Standing { worst: [worst, walk.options.beat].into_iter().flatten().reduce(f64::min), known: tally.known() }
    }

    /// Whether the bound's region has its first example.
    fn knows_bound(self) -> bool {
        self.known & PruneReason::Bound.bit() != 0
    }

    /// The cutoff, where the branch and bound applies (not to a given size).
    fn cutoff(self, walk: &Walk<'_>) -> Option<f64> {
        self.worst.filter(|_| walk.constrained)
    }
}

/// What the branch and bound's visits of sizes share and never change.
struct Walk<'a> {
    shape: &'a BandShape,
    /// The sizes the shared-memory bound left, which the queue's items index.
    sizes: &'a [Vec<i64>],
    geometry: &'a TileGeometry,
    model: &'a dyn TileModel,
    device: &'a DeviceLimits,
    options: &'a SearchOptions,
    /// The search's block candidates.
    blocks: &'a [Block],
    /// The same, grouped by their threads.
    by_threads: &'a ThreadGroups,
    /// Their least width along x.
    narrowest: u32,
    groups: usize,
    /// Whether the bounds apply (not to a given size).
    constrained: bool,
    /// The reuse threshold of staged tiles.
    threshold: f64,
    /// Layouts kept (at least 1).
    keep: usize,
    /// Whether visits share their counts before they are committed ([`CountMemo::ahead`]):
    /// when several threads visit sizes ahead of their turn.
    shares_counts: bool,
}

/// Whether a layout predicted in `bound` seconds or more cannot beat `cutoff`: with a tolerance
/// that keeps ties (a bound computed in another order of floating-point operations may exceed
/// an equal prediction by a rounding). Every comparison of the search with its cutoff.
pub(crate) fn beyond(bound: f64, cutoff: f64) -> bool {
    bound > cutoff * (1.0 + 1e-9)
}

/// The standing a visit is made with, and what it asked of its cutoff: the least bound it found
/// beyond it and the greatest it found within. The visit is the same with any cutoff that
/// answers those two alike ([`Visit::holds`]): each question only compares a bound with the
/// cutoff, and the answer is monotone in the bound.
struct Against {
    standing: Standing,
    least_beyond: Cell<f64>,
    most_within: Cell<f64>,
}

impl Against {
    fn new(standing: Standing) -> Against {
        Against { standing, least_beyond: Cell::new(f64::INFINITY), most_within: Cell::new(f64::NEG_INFINITY) }
    }
}

/// One size's visit: what it pruned, the counts it made, and the size's layouts to evaluate
/// when no bound pruned it.
struct Visit<'a> {
    tally: Tally,
    /// What it was made against.
    against: Against,
    /// The size's family ([`CountMemo::family`]), the generation of the family's counts it read
    /// from the memo when it did (`Some(None)`: none were kept), and the counts it made (for
    /// the family's later sizes: none without a family).
    family: Option<Vec<i64>>,
    read: Option<Option<u64>>,
    counted: Option<Memo>,
    ready: Option<Ready<'a>>,
}

/// A size whose blocks [`evaluate_blocks`] evaluates.
struct Ready<'a> {
    tile: TileInputs,
    blocks: Cow<'a, [Block]>,
    /// Blocks whose warps were counted before the tiles.
    counted_warps: Vec<(Block, Vec<u64>)>,
}

impl Visit<'_> {
    /// Whether the visit is the one the size would have with the standing `now` (the memo of
    /// counts aside): the same prune reasons with examples, a cutoff or none alike, and a cutoff
    /// that answers every question the visit asked of its own alike.
    fn holds(&self, walk: &Walk<'_>, now: Standing) -> bool {
        let then = self.against.standing;
        then.known == now.known
            && then.worst.is_some() == now.worst.is_some()
            && now.cutoff(walk).is_none_or(|w| {
                beyond(self.against.least_beyond.get(), w) && !beyond(self.against.most_within.get(), w)
            })
    }
}

impl<'a> Walk<'a> {
    /// The order key of `sizes` in the branch and bound's queue (every screened size: over
    /// 10^5 on 3-D bands): the model's bound with the plain tile bound
    /// `instances / (s_1 ⋯ s_m)` and no memory. The tighter bounds moved sizes whose tiles are
    /// far from full back in the order, which on Jacobi 3-D at 512^3 met the best layouts later
    /// (three times the layouts evaluated). It is a lower bound of the size's time too, so the
    /// queue's sizes from the first whose key is beyond the cutoff on are all pruned at once
    /// (`search`): the tighter bounds are made only for the sizes before it
    /// ([`Walk::first_bound`]).
    fn order_key(&self, sizes: &[i64]) -> f64 {
        let points = wavefront_points(self.shape, sizes);
        let no_memory = TileMemory::default();
        let (wavefronts, tiles) = lower_bounds(self.shape, sizes);
        self.model.lower_bound(&self.bound_inputs(&points, &no_memory, [wavefronts, tiles, 0.0]), self.device)
    }

    /// The first bound of a size's visit and the cheaper bounds of its wavefronts, tiles and
    /// full tiles (`size_lower_bounds`; the layered ones, `inter::layered_tiles`, are for the
    /// sizes this bound leaves): the model's bound with those and, where the tile has no
    /// staging, its global loads and stores — its points' accesses (`global_memory`, a few
    /// multiplications), the memory every later bound of the visit charges too, so that a size
    /// whose memory alone loses to the time to beat goes at its first look instead of after the
    /// blocks' bound. At least the size's `key` (the greater of two lower bounds of its time),
    /// so that a size whose key is beyond the cutoff is pruned here, as the queue's rest is.
    /// With them the memory it charged: a global tile's, which the visit goes on with, or none.
    fn first_bound(&self, sizes: &[i64], points: &[u64], key: f64) -> (f64, [f64; 3], TileMemory) {
        let (wavefronts, tiles, full) = size_lower_bounds(self.shape, self.geometry, sizes);
        let memory = if self.options.staged { TileMemory::default() } else { global_memory(self.shape, sizes) };
        let bound = self.model.lower_bound(&self.bound_inputs(points, &memory, [wavefronts, tiles, full]), self.device);
        (bound.max(key), [wavefronts, tiles, full], memory)
    }

    /// Whether the caller visits sizes alone at `standing`: while the bounds apply and there is
    /// no cutoff yet, as a visit without one counts every size in full (most of a 1-D search's
    /// sizes would be counted before the first layout is kept).
    fn alone(&self, standing: Standing) -> bool {
        self.constrained && standing.worst.is_none()
    }

    /// The standing before any size is committed: nothing kept, no region pruned.
    fn standing_at_start(&self) -> Standing {
        Standing::of(self, &[], &Tally::default())
    }

    /// Whether a layout predicted in `bound` seconds or more cannot be kept (`beyond`), noted in
    /// `against`.
    fn beyond(&self, against: &Against, bound: f64) -> bool {
        let Some(cutoff) = against.standing.cutoff(self) else { return false };
        let out = beyond(bound, cutoff);
        if out {
            against.least_beyond.set(against.least_beyond.get().min(bound));
        } else {
            against.most_within.set(against.most_within.get().max(bound));
        }
        out
    }

    /// Prunes `sizes` for the bound when `bound` is beyond the cutoff; whether it did.
    fn skip(&self, against: &Against, tally: &mut Tally, bound: f64, sizes: &[i64]) -> bool {
        let out = self.beyond(against, bound);
        if out {
            tally.prune(PruneReason::Bound, || {
                format!("{} cannot take less than {:.3} ms", sizes_text(sizes), bound * 1e3)
            });
        }
        out
    }

    /// The bound inputs every size shares, with `memory`, its points and its tile bounds.
    fn bound_inputs<'b>(&self, points: &'b [u64], memory: &'b TileMemory, bounds: [f64; 3]) -> BoundInputs<'b> {
        let [wavefronts, tiles, full] = bounds;
        BoundInputs {
            points,
            groups: self.groups,
            memory,
            staged: self.options.staged,
            element_bytes: self.shape.element_bytes(),
            per_wavefront: None,
            wavefronts,
            tiles,
            full,
        }
    }

    /// Thesis Alg. 5.1's loop body for one size of the queue, as a branch and bound against
    /// `standing`, up to the layouts to evaluate; `counts` the memo of the counts committed so
    /// far.
    fn visit(
        &self,
        standing: Standing,
        counts: &RwLock<CountMemo>,
        item: &QueueItem,
        residencies: &mut Residencies,
    ) -> Result<Visit<'a>> {
        let (shape, model, device, options) = (self.shape, self.model, self.device, self.options);
        let (key, index) = *item;
        let sizes = &self.sizes[index][..];
        let points = wavefront_points(shape, sizes);
        let (bound, cheaper, mut charged) = self.first_bound(sizes, &points, key);
        let mut visit = Visit {
            tally: Tally::within(standing.known),
            against: Against::new(standing),
            family: None,
            read: None,
            counted: None,
            ready: None,
        };
        let (tally, against) = (&mut visit.tally, &visit.against);
        if self.skip(against, tally, bound, sizes) {
            return Ok(visit);
        }
        // Global tiles: the blocks' bound before counting (below) first with the cheaper tile
        // bounds, before the layered ones (`inter::layered_tiles`, the parallelepiped's layers:
        // most of this loop's time on 3-D Jacobi, where they skip few sizes and this bound most).
        // It is at most that bound with the layered tiles and any warps counted (it only grows
        // with the tiles, full tiles and warps, as the counts below rely on), so a size it skips
        // is one that bound skips too, for the same reason (no reuse bound without staging) and
        // against the same cutoff; only once the region has its first example, so that the
        // example and its figure stay those of the bound that pruned it first.
        let mut early: Option<(TileMemory, Vec<Block>, Vec<BlockFacts>)> = None;
        let mut listed: Option<Cow<'a, [Block]>> = None;
        let mut layered: Option<[f64; 3]> = None;
        // Most sizes of a 3-D search end here (3-D SOR at 512^3: 50 000 of 68 400), so the bound
        // is taken over one block per thread count (`ThreadGroups::facts`: the same least, without
        // checking each of a 3-D band's ~100 blocks), and the blocks are listed only for the
        // sizes it leaves: first with the cheaper tile bounds, then with the layered ones (which
        // take longer than this bound; at most the bound over the listed blocks below, which
        // only adds their warps).
        if against.standing.cutoff(self).is_some() && !options.staged && tally.has(PruneReason::Bound) {
            // (the global tile's memory: the first bound charged it)
            let memory = std::mem::take(&mut charged);
            let own = own_block(self.blocks, self.narrowest, sizes, options);
            let facts = self.by_threads.facts(shape, sizes, &points, &memory, own, device, options, residencies);
            let cheap = self.bound_inputs(&points, &memory, cheaper);
            if self.beyond(against, model.lower_bound_over_blocks(&cheap, &facts, device)) {
                tally.prune_more(PruneReason::Bound, 1);
                return Ok(visit);
            }
            let tighter_tiles = layered_lower_bounds(shape, self.geometry, sizes, cheaper);
            let tighter = self.bound_inputs(&points, &memory, tighter_tiles);
            if self.beyond(against, model.lower_bound_over_blocks(&tighter, &facts, device)) {
                tally.prune_more(PruneReason::Bound, 1);
                return Ok(visit);
            }
            layered = Some(tighter_tiles);
            let blocks = size_blocks(self.blocks, self.narrowest, sizes, options);
            let (fitting, facts) = block_facts(shape, sizes, &points, &memory, &blocks, device, options, residencies);
            listed = Some(blocks);
            early = Some((memory, fitting, facts));
        }
        let blocks = listed.unwrap_or_else(|| size_blocks(self.blocks, self.narrowest, sizes, options));
        let layered = layered.unwrap_or_else(|| layered_lower_bounds(shape, self.geometry, sizes, cheaper));
        let no_memory = TileMemory::default();
        if self.skip(against, tally, model.lower_bound(&self.bound_inputs(&points, &no_memory, layered), device), sizes)
        {
            return Ok(visit);
        }
        let (memory, early) = match early {
            Some((memory, fitting, facts)) => (memory, Some((fitting, facts))),
            None if options.staged => (staged_memory(shape, sizes)?, None),
            None => (charged, None),
        };
        let reuse = reuse(&memory, sizes);
        if self.constrained && options.staged && reuse < self.threshold {
            let threshold = self.threshold;
            tally.prune(PruneReason::Reuse, || format!("{} has D = {reuse:.3} < {threshold:.3}", sizes_text(sizes)));
            return Ok(visit);
        }
        let with_memory = self.bound_inputs(&points, &memory, layered);
        // The blocks the size would be evaluated on: the bound over them is the least of theirs.
        let (fitting, mut facts) = match early {
            Some(made) => made,
            None => block_facts(shape, sizes, &points, &memory, &blocks, device, options, residencies),
        };
        // No block can run the size (too few points per step, too short loops, or none fits on
        // an SM): every layout of it is pruned for that reason, without counting its tiles —
        // which the bounds above cannot tell (they are the model's bounds over the blocks that
        // fit, and with none they fall back to the bound for any block), and which on 3-D
        // bands are the slowest counts of all (tiles of one or three points per row).
        if fitting.is_empty() {
            let largest = rounded_to_warp(points.iter().copied().max().unwrap_or(0));
            let extents = loop_extents(sizes);
            for &block in blocks.iter() {
                if !prune_unfit(shape, sizes, largest, &extents, block, options, tally) {
                    does_not_fit(device, sizes, block, options, memory.shared_bytes, tally);
                }
            }
            return Ok(visit);
        }
        // The exact warps `G_e` (thesis Eq. 5.3) of the blocks whose bound with the fewest warps
        // `⌈H_e/32⌉` could still beat the layouts kept, when counting them costs less than
        // counting the tiles: they need no inter-tile counting, and on blocks that fit a step's
        // points badly they are well above that bound, so that many sizes are skipped before
        // their count (and counts stop sooner). The other blocks' bounds are above the layouts
        // kept already, and only grow with the counts. When the tiles cost less (large skewed
        // tiles: hundreds of steps, few tiles), they are counted first, and `evaluate_blocks`
        // counts the warps of the blocks the counts leave, as before. It reuses the warps
        // counted here.
        let mut counted_warps: Vec<(Block, Vec<u64>)> = Vec::new();
        if against.standing.cutoff(self).is_some() && model.bound_uses_warps() {
            let bounds = model.lower_bounds_per_block(&with_memory, &facts, device);
            let open: Vec<usize> = (0..facts.len()).filter(|&i| !self.beyond(against, bounds[i])).collect();
            // (plus a prefix's worth per block for the setting up, which the estimate leaves out)
            let warps_cost: u64 = open
                .iter()
                .map(|&i| warps_cost(shape, sizes, fitting[i]).saturating_add(LANE_ITERATIONS_PER_PREFIX))
                .sum();
            if warps_cost <= count_cost(shape, sizes).saturating_mul(LANE_ITERATIONS_PER_PREFIX) {
                for i in open {
                    let warps = wavefront_warps(shape, sizes, fitting[i])?;
                    facts[i].warps = Some(warps.iter().sum::<u64>() * self.groups as u64);
                    counted_warps.push((fitting[i], warps));
                }
            }
        }
        if self.skip(against, tally, model.lower_bound_over_blocks(&with_memory, &facts, device), sizes) {
            return Ok(visit);
        }
        // A size of the same family under a row symmetry (`inter::row_symmetries`) was counted
        // before: its counts are this size's. When that count stopped, the tiles it had counted
        // then (each at most this size's final count of its wavefront) bound this size's time
        // too: with a cutoff that has only fallen since, a bound above it skips the size, as its
        // own count would have (the bound only grows with the counts).
        // Once the bound's region has its first example, also the counts of visits not yet
        // committed (see `search`: they change no decision).
        let memo = {
            let counts = read_lock(counts);
            visit.family = counts.family(sizes);
            let kept = counts.get(&visit.family);
            visit.read = Some(kept.map(|(generation, _)| *generation));
            match kept {
                Some((_, memo)) => Some(memo.clone()),
                None if self.shares_counts && against.standing.knows_bound() => counts.ahead(&visit.family).cloned(),
                None => None,
            }
        };
        let known = match (memo, against.standing.cutoff(self)) {
            (Some(Memo::Counted(counted)), _) => Some(counted),
            (Some(Memo::Stopped(seen)), Some(_)) => {
                let at_least = model.lower_bound_over_blocks(&seen.bound(&with_memory), &facts, device);
                if self.beyond(against, at_least) {
                    tally.prune(PruneReason::Bound, || {
                        format!("{} cannot take less than {:.3} ms", sizes_text(sizes), at_least * 1e3)
                    });
                    return Ok(visit);
                }
                None
            }
            _ => None,
        };
        // Counting stops once the bound with the tiles counted so far cannot beat the layouts
        // kept: the bound with all of them (below) would skip the size too, as it only grows
        // with the tiles per wavefront (see `count_tiles_unless`). The tiles in all are at
        // least those counted plus the count's bound of those left (`inter::Stop`).
        let mut at_least = 0.0;
        let inter = match (known, against.standing.cutoff(self)) {
            (Some(inter), _) => Some(inter),
            (None, Some(_)) => {
                let mut seen = Seen::default();
                let counted = count_tiles_unless(shape, self.geometry, sizes, &mut |partial| {
                    // Per wavefront when shown, else the totals with the bounds before counting.
                    let per_wavefront = !partial.tiles.is_empty();
                    let partly = BoundInputs {
                        per_wavefront: per_wavefront.then(|| PerWavefront::plain(partial.tiles, partial.full)),
                        tiles: with_memory.tiles.max(partial.tiles_at_least as f64),
                        full: with_memory.full.max(partial.full_at_least as f64),
                        ..with_memory
                    };
                    at_least = model.lower_bound_over_blocks(&partly, &facts, device);
                    let out = self.beyond(against, at_least);
                    if out {
                        seen = Seen::of(partial);
                    }
                    out
                });
                let counted = match counted {
                    Err(TileModelError::TooManyWavefronts(why)) => {
                        tally.prune(PruneReason::TooManyWavefronts, || why);
                        return Ok(visit);
                    }
                    counted => counted?,
                };
                visit.counted = visit.family.is_some().then(|| match &counted {
                    Some(counted) => Memo::Counted(counted.clone()),
                    None => Memo::Stopped(seen),
                });
                counted
            }
            (None, None) => {
                let counted = match count_tiles(shape, self.geometry, sizes) {
                    Err(TileModelError::TooManyWavefronts(why)) => {
                        tally.prune(PruneReason::TooManyWavefronts, || why);
                        return Ok(visit);
                    }
                    counted => counted?,
                };
                visit.counted = visit.family.is_some().then(|| Memo::Counted(counted.clone()));
                Some(counted)
            }
        };
        if let Some(memo) = visit.counted.as_ref().filter(|_| self.shares_counts && against.standing.knows_bound()) {
            write_lock(counts).note_ahead(&visit.family, memo);
        }
        let Some(inter) = inter else {
            tally.prune(PruneReason::Bound, || {
                format!("{} cannot take less than {:.3} ms", sizes_text(sizes), at_least * 1e3)
            });
            return Ok(visit);
        };
        let tile = TileInputs::with_counts(shape, sizes, options.staged, memory, inter);
        let counted = BoundInputs {
            points: &tile.points,
            groups: tile.groups,
            memory: &tile.memory,
            staged: options.staged,
            element_bytes: shape.element_bytes(),
            per_wavefront: Some(tile.inter.per_wavefront()),
            wavefronts: tile.inter.wavefronts() as f64,
            tiles: tile.inter.total_tiles() as f64,
            full: tile.inter.total_full() as f64,
        };
        if self.skip(against, tally, model.lower_bound_over_blocks(&counted, &facts, device), sizes) {
            return Ok(visit);
        }
        visit.ready = Some(Ready { tile, blocks, counted_warps });
        Ok(visit)
    }
}

/// The cheaper lower bounds of a size's inter-tile wavefronts, tiles and full tiles before
/// counting: [`TileGeometry::instance_lower_bounds`] and
/// [`TileGeometry::full_tiles_volume_bound`] (the cheaper parts of
/// [`TileGeometry::lower_bounds`] and [`TileGeometry::full_tiles_lower_bound`]); full tiles are
/// tiles, so they bound the tiles too.
fn size_lower_bounds(shape: &BandShape, geometry: &TileGeometry, sizes: &[i64]) -> (f64, f64, f64) {
    let (wavefronts, tiles) = geometry.instance_lower_bounds(shape, sizes);
    let full = geometry.full_tiles_volume_bound(shape, sizes);
    (wavefronts, tiles.max(full), full)
}

/// [`TileGeometry::lower_bounds`] and [`TileGeometry::full_tiles_lower_bound`] (the tiles at
/// least the full tiles) from the same size's [`size_lower_bounds`] (`cheaper`: its
/// wavefronts, tiles and full tiles), adding only what the layers add
/// ([`TileGeometry::layer_bounds`]): the layered tiles and full tiles are the greater of the
/// cheaper ones and the layers' (maxima of the same integers), so the result is the same to
/// the bit, and the visit of a size does not compute the cheaper parts again.
fn layered_lower_bounds(shape: &BandShape, geometry: &TileGeometry, sizes: &[i64], cheaper: [f64; 3]) -> [f64; 3] {
    let [wavefronts, tiles, full] = cheaper;
    let (layered, full_by_layers) = geometry.layer_bounds(shape, sizes);
    let full = full.max(full_by_layers);
    [wavefronts, tiles.max(layered).max(full), full]
}

/// Advances a mixed-radix counter over the size grids (one position per row, the last row
/// fastest): the search's order of tile sizes; `false` after the last.
pub fn next_index(index: &mut [usize], grids: &[Vec<i64>]) -> bool {
    for k in (0..index.len()).rev() {
        index[k] += 1;
        if index[k] < grids[k].len() {
            return true;
        }
        index[k] = 0;
    }
    false
}

/// The tile size constraint's upper bound (Alg. 5.1 line 3): whether a staged tile's shared
/// memory fits the limit (always, without staging).
fn within_shared_memory(
    shape: &BandShape,
    plan: &SharedBytesPlan,
    sizes: &[i64],
    options: &SearchOptions,
    tally: &mut Tally,
) -> Result<bool> {
    if !options.staged {
        return Ok(true);
    }
    let shared = plan.bytes(shape, sizes)?;
    if shared > options.shared_limit {
        tally.prune(PruneReason::SharedMemory, || {
            format!("{} needs {shared} bytes > {} bytes", sizes_text(sizes), options.shared_limit)
        });
        return Ok(false);
    }
    Ok(true)
}

/// Evaluates every block of one tile size (Alg. 5.1 lines 5–13).
#[allow(clippy::too_many_arguments)]
fn evaluate_blocks(
    shape: &BandShape,
    tile: &TileInputs,
    blocks: &[Block],
    counted_warps: &[(Block, Vec<u64>)],
    model: &dyn TileModel,
    device: &DeviceLimits,
    options: &SearchOptions,
    tally: &mut Tally,
    best: &mut Vec<Ranked>,
    evaluated: &mut u64,
) -> Result<()> {
    let sizes = &tile.sizes[..];
    let largest = rounded_to_warp(tile.largest_wavefront());
    let extents = loop_extents(sizes);
    for &block in blocks {
        if prune_unfit(shape, sizes, largest, &extents, block, options, tally) {
            continue;
        }
        // The warps counted before the tiles (`search`): the layout is exact, and no bound
        // with fewer warps is needed.
        let known = counted_warps.iter().find(|(b, _)| *b == block).map(|(_, warps)| warps);
        // Branch and bound per block: with G_e at its lower bound the model's time is a lower
        // bound of the block's (monotone models); skip counting G_e when it cannot make the list.
        let worst = best.last().map(|r| r.prediction.seconds);
        if let Some(w) =
            worst.filter(|_| known.is_none() && best.len() >= options.keep.max(1) && model.monotone_in_warps())
        {
            let cheap = LayoutInputs::with_fewest_warps(shape, tile, block, options.registers, device);
            if cheap.residency.blocks_per_sm > 0 {
                let at_least = model.predict(&cheap, device)?.seconds;
                if beyond(at_least, w) {
                    tally.prune(PruneReason::BlockBound, || {
                        format!("{} on {block} cannot take less than {:.3} ms", sizes_text(sizes), at_least * 1e3)
                    });
                    continue;
                }
            }
        }
        // Residency first: it does not need the warps, which are the costly part of a layout.
        if does_not_fit(device, sizes, block, options, tile.memory.shared_bytes, tally) {
            continue;
        }
        // Before counting `G_e` when it is costly (skewed 3-D steps, hundreds of them): the time
        // with each warp's first lane's points as its warps, at most `G_e` (thesis Eq. 5.3), is
        // a lower bound of the block's (models whose time does not fall as `G_e` grows). The
        // first lanes' points are kept for `G_e`, which then counts only the other lanes.
        let mut first_lanes = None;
        if let Some(w) = best.last().map(|r| r.prediction.seconds).filter(|_| {
            known.is_none()
                && best.len() >= options.keep.max(1)
                && model.monotone_in_warps()
                && model.bound_uses_warps()
                && block.x < WARP
                && warps_cost(shape, sizes, block) >= FIRST_LANES_FROM
        }) {
            let lanes = FirstLanes::new(shape, sizes, block)?;
            let some = LayoutInputs::with_warps(shape, tile, block, lanes.at_least(shape), options.registers, device);
            let at_least = model.predict(&some, device)?.seconds;
            if beyond(at_least, w) {
                tally.prune(PruneReason::BlockBound, || {
                    format!("{} on {block} cannot take less than {:.3} ms", sizes_text(sizes), at_least * 1e3)
                });
                continue;
            }
            first_lanes = Some(lanes);
        }
        let layout = match (known, first_lanes) {
            (Some(warps), _) => LayoutInputs::with_warps(shape, tile, block, warps.clone(), options.registers, device),
            (None, Some(lanes)) => {
                LayoutInputs::with_warps(shape, tile, block, lanes.warps(shape)?, options.registers, device)
            }
            (None, None) => LayoutInputs::new(shape, tile, block, options.registers, device)?,
        };
        let prediction = model.predict(&layout, device)?;
        let worst = best.last().map(|r| r.prediction.seconds);
        let out = best.len() >= options.keep && worst.is_some_and(|w| beyond(prediction.seconds, w));
        // A block whose warps were counted before the tiles is predicted exactly, without the
        // bound with fewer warps above: when that prediction cannot make the list, it counts as
        // pruned by the bound (as it was before), so that `evaluated` still says how many
        // layouts passed every bound.
        if out && known.is_some() && model.monotone_in_warps() {
            tally.prune(PruneReason::BlockBound, || {
                format!("{} on {block} cannot take less than {:.3} ms", sizes_text(sizes), prediction.seconds * 1e3)
            });
            continue;
        }
        *evaluated += 1;
        if out {
            continue;
        }
        let ranked = Ranked {
            sizes: sizes.to_vec(),
            block,
            prediction,
            wavefronts: tile.inter.wavefronts(),
            tiles: tile.inter.total_tiles(),
            full_tiles: tile.inter.total_full(),
            steps: tile.steps(),
            accesses: tile.memory.accesses(),
            shared_bytes: tile.memory.shared_bytes,
            blocks_per_sm: layout.residency.blocks_per_sm,
            reuse: tile.reuse(),
        };
        // Ties (the thesis model often gives every block of a size the same time) go to the
        // block with more threads: more warps to hide latency, which the model does not see.
        let at = best.partition_point(|r| better(r, &ranked));
        best.insert(at, ranked);
        best.truncate(options.keep.max(1));
    }
    Ok(())
}

/// `points` rounded up to a whole number of warps.
fn rounded_to_warp(points: u64) -> u64 {
    points.div_ceil(u64::from(WARP)) * u64::from(WARP)
}

/// Tallies `block` as pruned by the blockDim constraint ([`block_constraint`]) when it fails it
/// for a tile of `sizes` (never for a block the options fix); whether it did.
fn prune_unfit(
    shape: &BandShape,
    sizes: &[i64],
    largest: u64,
    extents: &[i64; 3],
    block: Block,
    options: &SearchOptions,
    tally: &mut Tally,
) -> bool {
    if options.fixed_block.is_some() {
        return false;
    }
    match block_constraint(shape, largest, extents, block) {
        Some(PruneReason::BlockTooLarge) => tally.prune(PruneReason::BlockTooLarge, || {
            format!("{} on {block}: {} threads > {largest}", sizes_text(sizes), block.threads())
        }),
        Some(reason) => tally.prune(reason, || {
            format!(
                "{} on {block}: loops of {}, {} and {} iterations on x, y and z",
                sizes_text(sizes),
                extents[0],
                extents[1],
                extents[2]
            )
        }),
        None => return false,
    }
    true
}

/// Tallies `block` as pruned because no block of it fits on an SM (Table 5.1's `B = 0`) with
/// `shared_bytes` of shared memory per block; whether it was.
fn does_not_fit(
    device: &DeviceLimits,
    sizes: &[i64],
    block: Block,
    options: &SearchOptions,
    shared_bytes: u64,
    tally: &mut Tally,
) -> bool {
    let fits = crate::device::residency(device, block.threads(), options.registers, shared_bytes);
    if fits.blocks_per_sm > 0 {
        return false;
    }
    tally.prune(PruneReason::DoesNotFit, || {
        format!(
            "{} on {block}: {} registers × {} threads, {shared_bytes} bytes shared ({})",
            sizes_text(sizes),
            options.registers,
            block.threads(),
            fits.limiter
        )
    });
    true
}

/// Whether `a` ranks before `b`: a shorter predicted time, or on a tie more threads, then the
/// smaller tile sizes.
fn better(a: &Ranked, b: &Ranked) -> bool {
    let (x, y) = (a.prediction.seconds, b.prediction.seconds);
    if (x - y).abs() > 1e-9 * x.abs().max(y.abs()) {
        return x < y;
    }
    (std::cmp::Reverse(a.block.threads()), &a.sizes) <= (std::cmp::Reverse(b.block.threads()), &b.sizes)
}

impl fmt::Display for SearchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let params: Vec<String> = self.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
        writeln!(f, "tile sizes by the {} model ({}) at {}", self.model.name(), self.equations, params.join(", "))?;
        writeln!(
            f,
            "  mapping: {}, shared memory limit {} bytes, {} registers per thread, reuse threshold {}",
            if self.options.staged { "staged in shared memory" } else { "global memory" },
            self.options.shared_limit,
            self.options.registers,
            match self.options.min_reuse {
                Some(t) => format!("{t}"),
                None if self.options.staged => format!("{:.3} (automatic)", self.reuse_threshold),
                None => "n/a (not staged)".to_string(),
            }
        )?;
        // The search's own time is not printed (it is in the `debug` trace): the explanation is
        // the same at every run, so tests can compare it whole.
        writeln!(f, "  searched {} tile sizes, evaluated {} layouts", self.sizes_considered, self.evaluated)?;
        if let Some(composition) = &self.composition {
            writeln!(f, "  {composition}")?;
        }
        writeln!(
            f,
            "  {:>4}  {:<14} {:<10} {:>12}  {:>9} {:>9} {:>6} {:>8} {:>8} {:>6} {:>7}",
            "rank", "tile", "block", "predicted", "launches", "tiles", "full", "steps", "N_mem", "B/SM", "reuse"
        )?;
        for (k, r) in self.best.iter().enumerate() {
            writeln!(
                f,
                "  {:>4}  {:<14} {:<10} {:>9.3} ms  {:>9} {:>9} {:>5.0}% {:>8} {:>8} {:>6} {:>7.2}",
                k + 1,
                sizes_text(&r.sizes),
                r.block.to_string(),
                r.prediction.seconds * 1e3,
                r.wavefronts,
                r.tiles,
                100.0 * r.full_tiles as f64 / r.tiles.max(1) as f64,
                r.steps,
                r.accesses,
                r.blocks_per_sm,
                r.reuse
            )?;
        }
        if let Some(best) = self.best.first() {
            let terms: Vec<String> =
                best.prediction.terms.iter().map(|t| format!("{} {:.3} ms", t.name, t.seconds * 1e3)).collect();
            writeln!(f, "  best layout's terms: {}", terms.join(", "))?;
            // A negative term is a fitted constant's share, not a time: the calibration's β
            // (per active lane of a warp-iteration) may be negative as long as no warp-iteration
            // costs less than nothing (α + 32·β ≥ 0, docs/tile-models.md).
            if best.prediction.terms.iter().any(|t| t.seconds < 0.0) {
                writeln!(
                    f,
                    "  (a negative term is a fitted constant's share, not a time: with a negative β a warp-iteration of k active lanes costs α + k·β, never below 0)"
                )?;
            }
        }
        if self.pruned.is_empty() {
            writeln!(f, "  nothing pruned")?;
        }
        for p in &self.pruned {
            let unit = if p.reason.prunes_sizes() { "tile sizes" } else { "layouts" };
            writeln!(f, "  pruned {} {unit}: {} (first: {})", p.count, p.reason.describe(), p.example)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_grids_stop_at_the_first_covering_size() {
        assert_eq!(row_sizes(10, 1024), vec![1, 2, 3, 4, 6, 8, 12]);
        assert_eq!(row_sizes(1, 1024), vec![1]);
        assert_eq!(row_sizes(100, 16), vec![1, 2, 3, 4, 6, 8, 12, 16]);
    }

    #[test]
    fn threads_asked_for_are_at_most_the_cap() {
        let many = SearchOptions { threads: 100_000, ..SearchOptions::default() };
        assert_eq!(many.worker_threads(), MAX_THREADS);
        let two = SearchOptions { threads: 2, ..SearchOptions::default() };
        assert_eq!(two.worker_threads(), 2);
    }

    #[test]
    fn blocks_are_whole_warps() {
        let h100 = DeviceLimits::h100();
        assert_eq!(block_candidates(1, &h100).len(), 32);
        for loops in 1..=3 {
            for b in block_candidates(loops, &h100) {
                assert!(b.threads() % 32 == 0 && b.threads() <= 1024, "{b}");
            }
        }
    }

    /// The kept residencies are each block's own at the shared bytes asked for, through changes
    /// of the shared bytes (staged tiles: one amount per size) and back, and at a register count
    /// where some blocks do not fit.
    #[test]
    fn kept_residencies_are_the_blocks_own() {
        let h100 = DeviceLimits::h100();
        // With blocks of the same threads in other shapes, and the tile-following ones.
        let mut blocks = block_candidates(3, &h100);
        blocks.extend([Block::new(24, 6, 1), Block::new(6, 6, 6), Block::new(8, 18, 1)]);
        for registers in [32, 64, 128] {
            let mut kept = Residencies::default();
            for shared in [0u64, 0, 48 * 1024, 48 * 1024, 100 * 1024, 0, 200 * 1024, 12 * 1024, 0] {
                kept.for_shared_bytes(shared);
                // Every other block first, then all (some kept, some computed now).
                for i in (0..blocks.len()).step_by(2).chain(0..blocks.len()) {
                    let fresh = crate::device::residency(&h100, blocks[i].threads(), registers, shared);
                    let threads = blocks[i].threads();
                    let got = kept.get(threads, || crate::device::residency(&h100, threads, registers, shared));
                    assert_eq!(got, fresh, "block {} at {shared} bytes, {registers} registers", blocks[i]);
                }
            }
        }
    }
}
