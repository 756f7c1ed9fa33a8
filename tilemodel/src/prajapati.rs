//! The execution-time model of seed 004 (Prajapati et al., §4), adapted from hybrid-hexagonal
//! tiles to our wavefront tiles: the inter-tile wavefronts, their tiles and a tile's
//! footprint and steps are the exact counts of [`crate::inputs`] instead of the hexagon
//! formulas (their Eq. 3–5, 7, 13–30); their §7 says this is the intended generalisation
//! ("for rectangular tiles … the formulae for N_w, m_i, m_o … will be different, but the
//! elementary parameters will be the same").
//!
//! * Eq. 2: `T_alg = Σ_i (⌈⌈w(i)/k⌉ / n_SM⌉·T_tile(k) + T_sync)` over the `N_w` wavefronts,
//!   `w(i)` tiles each; `k` = resident blocks per SM (Eq. 11, [`crate::device::residency`]).
//!   Adapted: a wavefront with fewer than `k·n_SM` tiles holds only `k_i = min(k, ⌈w(i) /
//!   n_SM⌉)` per SM.
//! * Eq. 8: `m' = M_io·L + 2·τ_sync` (`M_io` in 4-byte words, [`io_words`]: the buffer cells
//!   a staged tile's copy loops visit, as they cost in our mapping); without staging the
//!   accesses move `M_io` words but there are no staging barriers.
//! * Eq. 9: `c = Σ_steps (⌈x / n_V⌉·C_iter + τ_sync)`, once per statement group, with `x` the
//!   lanes the step occupies in our mapping: `32·G_e` (its warp-iterations, [`lane_iterations`]).
//!   Seed 004 counts the step's points because HHC runs full warps without divergence (their
//!   §7, "Limitations" and "Execution of full warps"); our mapping spreads a step's points
//!   cyclically over the block's loops, and a warp issues for its busiest lane (the simulator's
//!   warp model, docs/cost-model.md), so a step of a 3-D tile on an `8×4×2` block runs idle lanes
//!   that its points do not show.
//! * Eq. 12: `T_tile(k) = m' + c + (k − 1)·max(m', c)`.
//! * Adapted to GPUs that keep their vector units busy only with enough warps (seed 004 §7:
//!   threads per block are not modelled, the thread counts of their measurements were chosen
//!   among the best-performing ones, and `C_iter`, `L` are times on an SM kept busy, §5.2). An
//!   SM's schedulers issue every cycle only with `issue_latency_warps` ready warps each
//!   (docs/cost-model.md: 4 × 4 on the H100); wavefront `i` leaves an SM `k_i` blocks of
//!   `⌈K/32⌉` warps, which issue at the efficiency `e_i = min(1, k_i·⌈K/32⌉ / 16)` — the thesis
//!   model's `e_w` ([`crate::thesis`]). The tile's loop iterations (`C_iter`) and its transfers,
//!   which in our mapping are loops of the same threads (`L`), take `1/e_i` as long; a barrier
//!   (`τ_sync`) does not. This replaces the earlier `n_V' = min(n_V, K)` (a block of `K` threads
//!   uses at most `K` lanes), which treated every block of `n_V` threads or more as filling the
//!   SM: on the simulator's sweep of 2026-11-27 a 3-D tile on 128 threads ran 1.3–1.6× faster
//!   than on 64, both predicted alike. The slowdown enters the parts as the mean over the
//!   rounds, `ē⁻¹ = Σ_i r_i/e_i / Σ_i r_i` (in the parts' `words`, `iterations`): exact for Eq. 2's
//!   `m' + c` of every round, and for Eq. 12's overlapped tiles where the wavefronts with
//!   `k_i > 1` run at the mean efficiency (always where every `k_i = 1`, as at the simulator's
//!   sizes, or every `e_i = 1`); elsewhere their work takes the mean slowdown.
//!
//! Border tiles are not distinguished (seed 004 does not).

use crate::device::DeviceLimits;
use crate::error::Result;
use crate::footprint::TileMemory;
use crate::inputs::LayoutInputs;
use crate::model::{resident_blocks, BlockFacts, BoundInputs, Prediction, Term, TileModel};

/// Seed 004's measured parameters (their Table 3, 4), in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrajapatiParams {
    /// `L`: time per 4-byte word of global-memory transfer of one tile (on one SM while all
    /// SMs transfer).
    pub l_word: f64,
    /// `τ_sync`: one barrier.
    pub tau_sync: f64,
    /// `T_sync`: one host–GPU synchronisation (a launch boundary).
    pub t_sync: f64,
    /// `C_iter`: one iteration of the loop body on one vector unit (program-dependent).
    pub c_iter: f64,
}

impl PrajapatiParams {
    /// The parameters in the order of [`PrajapatiParts::features`].
    pub fn to_vector(self) -> [f64; 4] {
        [self.l_word, self.tau_sync, self.t_sync, self.c_iter]
    }

    /// The inverse of [`PrajapatiParams::to_vector`].
    pub fn from_vector(v: [f64; 4]) -> PrajapatiParams {
        PrajapatiParams { l_word: v[0], tau_sync: v[1], t_sync: v[2], c_iter: v[3] }
    }

    /// Parameter names, in the order of [`PrajapatiParams::to_vector`].
    pub const NAMES: [&'static str; 4] = ["l_word", "tau_sync", "t_sync", "c_iter"];
}

/// `M_io` in 4-byte words as our mapping moves them: a staged tile's copy loops visit every
/// cell of their buffer box (testing membership), so their cells count; without staging, the
/// tile's global loads and stores.
pub fn io_words(memory: &TileMemory, staged: bool, element_bytes: u32) -> u64 {
    if staged {
        (memory.copy_cells() * u64::from(element_bytes)).div_ceil(4)
    } else {
        memory.words()
    }
}

/// Warps an SM needs resident to issue every cycle: `issue_latency_warps` per scheduler.
fn issue_warps(device: &DeviceLimits) -> f64 {
    (device.issue_latency_warps * f64::from(device.schedulers_per_sm.max(1))).max(1.0)
}

/// `e = min(1, k·warps / needed)`: the share of an SM's issue rate that `k` resident blocks of
/// `warps` warps keep busy.
fn efficiency(k: u64, warps: u64, needed: f64) -> f64 {
    ((k * warps) as f64 / needed).min(1.0)
}

/// The least slowdown `1/e_i` of any wavefront for blocks of `threads` threads, `k` per SM
/// (`k_i ≤ k`, so `e_i ≤ min(1, k·⌈K/32⌉ / needed)`).
fn least_slowdown(threads: u32, k: u32, device: &DeviceLimits) -> f64 {
    let warps = u64::from(threads.div_ceil(crate::intra::WARP).max(1));
    1.0 / efficiency(u64::from(k.max(1)), warps, issue_warps(device))
}

/// The key of Eq. 2's rounds in [`crate::inputs::WavefrontSums`] (followed by `k`, `n_SM`, the
/// block's warps and the warps an SM needs to issue every cycle).
const PRAJAPATI_ROUNDS: u64 = 0;

/// Seed 004's model with resolved parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrajapatiModel {
    /// Its parameters.
    pub params: PrajapatiParams,
}

/// The parameter-free quantities of one layout: `T_alg = N_w·T_sync + R·(m' + c) + R2·max(m', c)`
/// with `m' = words·L + barriers_m·τ`, `c = iters·C_iter + barriers_c·τ`, where `words` and
/// `iters` include the mean slowdown `ē⁻¹` of the rounds (the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrajapatiParts {
    /// `N_w`.
    pub wavefronts: f64,
    /// `R = Σ_i ⌈⌈w(i)/k_i⌉ / n_SM⌉`.
    pub rounds: f64,
    /// `R2 = Σ_i ⌈⌈w(i)/k_i⌉ / n_SM⌉·(k_i − 1)`.
    pub overlapped: f64,
    /// `M_io·ē⁻¹`: the words, times the rounds' mean slowdown.
    pub words: f64,
    /// Barriers in `m'` (2 when staged).
    pub memory_barriers: f64,
    /// `Σ_steps ⌈32·G_e / n_V⌉·ē⁻¹` over the statement groups.
    pub iterations: f64,
    /// Barriers in `c` (one per step and group).
    pub compute_barriers: f64,
}

impl PrajapatiParts {
    /// The parts of `layout` on `device`.
    pub fn new(layout: &LayoutInputs<'_>, device: &DeviceLimits) -> Result<PrajapatiParts> {
        let k = resident_blocks(layout)?;
        let p = u64::from(device.multiprocessors.max(1));
        let warps = u64::from(layout.block.threads().div_ceil(crate::intra::WARP).max(1));
        let needed = issue_warps(device);
        // `R`, `R2` and `Σ r_i/e_i` depend on the block only through `k` and its warps: summed
        // once per both and tile.
        let key = [PRAJAPATI_ROUNDS, k, p, warps, needed.to_bits()];
        let [rounds, overlapped, slowed] = layout.tile.wavefront_sums.get_or(key, || {
            let (mut rounds, mut overlapped, mut slowed) = (0u64, 0u64, 0.0f64);
            for class in layout.tile.wavefront_classes() {
                let (w, times) = (class.tiles, class.count);
                let ki = k.min(w.div_ceil(p)).max(1);
                let r = w.div_ceil(ki).div_ceil(p);
                rounds += times * r;
                overlapped += times * r * (ki - 1);
                slowed += times as f64 * (r as f64 / efficiency(ki, warps, needed));
            }
            Ok([rounds as f64, overlapped as f64, slowed])
        })?;
        let slowdown = if rounds > 0.0 { slowed / rounds } else { 1.0 };
        let lanes = u64::from(device.vector_units(layout.element_bytes).max(1));
        let groups = layout.tile.groups as u64;
        let iterations = lane_iterations(&layout.warps, lanes).saturating_mul(groups);
        Ok(PrajapatiParts {
            wavefronts: layout.tile.inter.wavefronts() as f64,
            rounds,
            overlapped,
            words: io_words(&layout.tile.memory, layout.tile.staged, layout.element_bytes) as f64 * slowdown,
            memory_barriers: if layout.tile.staged { 2.0 } else { 0.0 },
            iterations: iterations as f64 * slowdown,
            compute_barriers: (layout.tile.steps() as u64 * groups) as f64,
        })
    }

    /// `m'` and `c` at `params`.
    pub fn memory_and_compute(&self, params: &PrajapatiParams) -> (f64, f64) {
        (
            self.words * params.l_word + self.memory_barriers * params.tau_sync,
            self.iterations * params.c_iter + self.compute_barriers * params.tau_sync,
        )
    }

    /// The coefficient of each parameter ([`PrajapatiParams::to_vector`] order) in `T_alg`
    /// when the `max` of Eq. 12 picks `m'` (`memory_bound`) or `c`.
    pub fn features(&self, memory_bound: bool) -> [f64; 4] {
        let (rm, rc) = if memory_bound {
            (self.rounds + self.overlapped, self.rounds)
        } else {
            (self.rounds, self.rounds + self.overlapped)
        };
        [rm * self.words, rm * self.memory_barriers + rc * self.compute_barriers, self.wavefronts, rc * self.iterations]
    }
}

impl PrajapatiModel {
    /// The bound of [`PrajapatiModel::lower_bound`] for blocks whose tiles run at least
    /// `slowdown` times as long as on a busy SM, with at least `iterations` (Eq. 9, all groups)
    /// and, when known (`resident`), holding `k` blocks per SM.
    fn bound_with(
        &self,
        b: &BoundInputs<'_>,
        iterations: f64,
        slowdown: f64,
        resident: Option<u32>,
        device: &DeviceLimits,
    ) -> f64 {
        match self.memory_and_compute(b, iterations, slowdown) {
            Some((memory, compute)) => {
                self.combine(b, memory, compute, b.spread_tiles(device), rounds_at_least(b, resident, device))
            }
            None => 0.0,
        }
    }

    /// `m'` and the least `c` (Eq. 8, 9) with `iterations` and the work slowed by `slowdown`;
    /// `None` when a parameter's sign allows no bound.
    fn memory_and_compute(&self, b: &BoundInputs<'_>, iterations: f64, slowdown: f64) -> Option<(f64, f64)> {
        let p = &self.params;
        if p.l_word < 0.0 || p.tau_sync < 0.0 || p.c_iter < 0.0 || p.t_sync < 0.0 {
            return None;
        }
        let groups = b.groups as f64;
        let memory = io_words(b.memory, b.staged, b.element_bytes) as f64 * slowdown * p.l_word
            + if b.staged { 2.0 * p.tau_sync } else { 0.0 };
        let compute = iterations * slowdown * p.c_iter + b.points.len() as f64 * groups * p.tau_sync;
        Some((memory, compute))
    }

    /// `N_w·T_sync + spread·max(m', c) + rounds·min(m', c)`.
    fn combine(&self, b: &BoundInputs<'_>, memory: f64, compute: f64, spread: f64, rounds: f64) -> f64 {
        b.wavefronts * self.params.t_sync + spread * memory.max(compute) + rounds * memory.min(compute)
    }
}

/// The least Eq. 9 iterations of any block, every statement group counted: a step's lanes
/// `32·G_e ≥ H_e` (a warp-iteration covers at most 32 points), so `Σ ⌈H_e / n_V⌉`.
fn fewest_iterations(b: &BoundInputs<'_>, lanes: u64) -> f64 {
    iterations_of(b.points, lanes) as f64 * b.groups as f64
}

/// `Σ_e ⌈32·G_e / lanes⌉` over a tile's steps (`warps` = `G_e`): Eq. 9's iterations of the lanes
/// the steps' warp-iterations occupy, on `n_V = lanes` vector units.
pub fn lane_iterations(warps: &[u64], lanes: u64) -> u64 {
    let lanes = lanes.max(1);
    let warp = u64::from(crate::intra::WARP);
    warps.iter().fold(0u64, |a, &g| a.saturating_add(g.saturating_mul(warp).div_ceil(lanes)))
}

/// `Σ_x ⌈x / lanes⌉` over a tile's steps: Eq. 9's iterations of `x` points on `lanes` lanes
/// (`≥ 1`), the least of [`lane_iterations`] for any block (`32·G_e ≥ H_e`). The bounds take it
/// for every screened size (over 10^5 on 3-D bands), so a power of two (as the vector units
/// are) is divided by a shift, not a division per step; the same integers.
pub fn iterations_of(points: &[u64], lanes: u64) -> u64 {
    let lanes = lanes.max(1);
    if lanes.is_power_of_two() {
        let shift = lanes.trailing_zeros();
        points.iter().fold(0u64, |a, &x| a.saturating_add((x >> shift) + u64::from(x & (lanes - 1) != 0)))
    } else {
        points.iter().fold(0u64, |a, &x| a.saturating_add(x.div_ceil(lanes)))
    }
}

/// A lower bound of Eq. 2's rounds `R = Σ_i r_i`, `r_i = ⌈⌈w(i)/k_i⌉ / n_SM⌉` (each `≥ 1` where
/// wavefront `i` has tiles): without the blocks per SM `k`, the wavefronts with tiles (every one
/// of the lower bound's has some, `inter::lower_bounds`; counted, maybe partly, ones at most as
/// many as the final counts have). With `k` (`resident`), `r_i ≥ ⌈w(i) / (k·n_SM)⌉` too
/// (`k_i ≤ k`), which only grows with the (partial) counts, and their sum is at least
/// `tiles / (k·n_SM)` — wavefronts of many tiles take several rounds, each paying Eq. 12's
/// `min(m', c)`.
fn rounds_at_least(b: &BoundInputs<'_>, resident: Option<u32>, device: &DeviceLimits) -> f64 {
    let sms = u64::from(device.multiprocessors.max(1));
    let Some(k) = resident.map(|k| u64::from(k.max(1))) else {
        return match b.per_wavefront {
            Some(c) => c.sum_tiles(|n| u64::from(n > 0)) as f64,
            None => b.wavefronts,
        };
    };
    let spread = b.tiles / (k * sms) as f64;
    match b.per_wavefront {
        // In integers (`PerWavefront`'s sums), exactly the f64 sum of the same integers below
        // 2^53.
        Some(c) => (c.sum_tiles(|n| n.div_ceil(k * sms)) as f64).max(spread),
        None => b.wavefronts.max(spread),
    }
}

impl TileModel for PrajapatiModel {
    fn name(&self) -> &'static str {
        "prajapati"
    }

    fn equations(&self) -> &'static str {
        "seed 004 (Prajapati et al.): Eq. 2 (T_alg), 8 (m'), 9 (c), 11 (k), 12 (T_tile(k))"
    }

    /// Eq. 9 counts the lanes of the warp-iterations `32·G_e`: more warps never predict less.
    fn monotone_in_warps(&self) -> bool {
        true
    }

    fn predict(&self, layout: &LayoutInputs<'_>, device: &DeviceLimits) -> Result<Prediction> {
        let parts = PrajapatiParts::new(layout, device)?;
        let (memory, compute) = parts.memory_and_compute(&self.params);
        let terms = vec![
            Term { name: "launch syncs (T_sync)", seconds: parts.wavefronts * self.params.t_sync },
            Term { name: "memory m' (L, τ_sync)", seconds: parts.rounds * memory },
            Term { name: "compute c (C_iter, τ_sync)", seconds: parts.rounds * compute },
            Term { name: "overlapped tiles (k − 1)·max(m', c)", seconds: parts.overlapped * memory.max(compute) },
        ];
        Ok(Prediction { seconds: terms.iter().map(|t| t.seconds).sum(), terms })
    }

    /// `N_w·T_sync + Σ_w max(1, w / n_SM)·max(m', c_min) + N'·min(m', c_min)`: wavefront `i`
    /// takes `r_i·T_tile(k_i) = r_i·(k_i·max(m', c) + min(m', c))` (Eq. 2, 12: `m' + c + (k − 1)·max`)
    /// with `r_i ≥ 1` and `r_i·k_i ≥ ⌈w(i) / n_SM⌉` rounds of tiles for any `k`, `N'` the
    /// wavefronts with tiles; `c` is smallest with the fewest warp-iterations `⌈H_e/32⌉` and the
    /// work at full issue efficiency (`1/e_i ≥ 1`).
    fn lower_bound(&self, b: &BoundInputs<'_>, device: &DeviceLimits) -> f64 {
        let lanes = u64::from(device.vector_units(b.element_bytes).max(1));
        self.bound_with(b, fewest_iterations(b, lanes), 1.0, None, device)
    }

    /// [`PrajapatiModel::lower_bound`] per block, the least over `blocks`: a block of `⌈K/32⌉`
    /// warps, `k` per SM, slows every wavefront's work by `1/e_i ≥ 1/min(1, k·⌈K/32⌉/16)`
    /// (`k_i ≤ k`), its iterations are at least `⌈32·ΣG/n_V⌉` when its warps are counted, and
    /// its blocks per SM `k` (Eq. 11) bound the rounds (`rounds_at_least`).
    fn lower_bound_over_blocks(&self, b: &BoundInputs<'_>, blocks: &[BlockFacts], device: &DeviceLimits) -> f64 {
        let lanes = u64::from(device.vector_units(b.element_bytes).max(1));
        let fewest = fewest_iterations(b, lanes);
        let mut kinds: Vec<(u32, u32, u64)> = blocks
            .iter()
            .map(|k| (k.threads.div_ceil(crate::intra::WARP).max(1), k.blocks_per_sm, k.warps.unwrap_or(0)))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        if kinds.is_empty() {
            return self.lower_bound(b, device);
        }
        // The tiles' spread, once; the rounds shared by blocks of the same blocks per SM, once.
        let spread = b.spread_tiles(device);
        let mut rounds: Vec<(u32, f64)> = Vec::new();
        let mut least = f64::INFINITY;
        for &(warps, k, counted) in &kinds {
            let iterations = block_iterations(fewest, counted, lanes);
            let slowdown = least_slowdown(warps * crate::intra::WARP, k, device);
            let Some((memory, compute)) = self.memory_and_compute(b, iterations, slowdown) else { return 0.0 };
            let r = match rounds.iter().find(|(x, _)| *x == k) {
                Some(&(_, r)) => r,
                None => {
                    let r = rounds_at_least(b, Some(k), device);
                    rounds.push((k, r));
                    r
                }
            };
            least = least.min(self.combine(b, memory, compute, spread, r));
        }
        least
    }

    /// [`PrajapatiModel::lower_bound`] with the block's least slowdown, iterations and blocks
    /// per SM.
    fn lower_bound_for_block(&self, b: &BoundInputs<'_>, block: &BlockFacts, device: &DeviceLimits) -> f64 {
        let lanes = u64::from(device.vector_units(b.element_bytes).max(1));
        let iterations = block_iterations(fewest_iterations(b, lanes), block.warps.unwrap_or(0), lanes);
        let slowdown = least_slowdown(block.threads, block.blocks_per_sm, device);
        self.bound_with(b, iterations, slowdown, Some(block.blocks_per_sm), device)
    }
}

/// The least Eq. 9 iterations of a block: `fewest` (any block's), or, with its `ΣG` counted
/// (`warps > 0`, every group), `Σ ⌈32·G_e/n_V⌉ ≥ ⌈32·ΣG / n_V⌉` when more.
fn block_iterations(fewest: f64, warps: u64, lanes: u64) -> f64 {
    let counted = warps.saturating_mul(u64::from(crate::intra::WARP)).div_ceil(lanes.max(1)) as f64;
    fewest.max(counted)
}
