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
//! * Eq. 9: `c = Σ_steps (⌈x / n_V⌉·C_iter + τ_sync)` with `x` the step's points, once per
//!   statement group; adapted: a block of `K < n_V` threads uses only `K` lanes, so
//!   `n_V' = min(n_V, K)`.
//! * Eq. 12: `T_tile(k) = m' + c + (k − 1)·max(m', c)`.
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

/// The key of Eq. 2's rounds in [`crate::inputs::WavefrontSums`] (followed by `k` and `n_SM`).
const PRAJAPATI_ROUNDS: u64 = 0;

/// Seed 004's model with resolved parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrajapatiModel {
    /// Its parameters.
    pub params: PrajapatiParams,
}

/// The parameter-free quantities of one layout: `T_alg = N_w·T_sync + R·(m' + c) + R2·max(m', c)`
/// with `m' = words·L + barriers_m·τ`, `c = iters·C_iter + barriers_c·τ`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrajapatiParts {
    /// `N_w`.
    pub wavefronts: f64,
    /// `R = Σ_i ⌈⌈w(i)/k_i⌉ / n_SM⌉`.
    pub rounds: f64,
    /// `R2 = Σ_i ⌈⌈w(i)/k_i⌉ / n_SM⌉·(k_i − 1)`.
    pub overlapped: f64,
    /// `M_io`.
    pub words: f64,
    /// Barriers in `m'` (2 when staged).
    pub memory_barriers: f64,
    /// `Σ_steps ⌈x / n_V'⌉` over the statement groups.
    pub iterations: f64,
    /// Barriers in `c` (one per step and group).
    pub compute_barriers: f64,
}

impl PrajapatiParts {
    /// The parts of `layout` on `device`.
    pub fn new(layout: &LayoutInputs<'_>, device: &DeviceLimits) -> Result<PrajapatiParts> {
        let k = resident_blocks(layout)?;
        let p = u64::from(device.multiprocessors.max(1));
        // `R` and `R2` depend on the block only through `k`: summed once per `k` and tile.
        let [rounds, overlapped, _] = layout.tile.wavefront_sums.get_or([PRAJAPATI_ROUNDS, k, p, 0, 0], || {
            let (mut rounds, mut overlapped) = (0u64, 0u64);
            for &w in layout.tile.inter.tiles.iter().filter(|&&w| w > 0) {
                let ki = k.min(w.div_ceil(p)).max(1);
                let r = w.div_ceil(ki).div_ceil(p);
                rounds += r;
                overlapped += r * (ki - 1);
            }
            Ok([rounds as f64, overlapped as f64, 0.0])
        })?;
        let lanes = u64::from(device.vector_units(layout.element_bytes).min(layout.block.threads()).max(1));
        let groups = layout.tile.groups as u64;
        let iterations: u64 = iterations_of(&layout.tile.points, lanes).saturating_mul(groups);
        Ok(PrajapatiParts {
            wavefronts: layout.tile.inter.wavefronts() as f64,
            rounds,
            overlapped,
            words: io_words(&layout.tile.memory, layout.tile.staged, layout.element_bytes) as f64,
            memory_barriers: if layout.tile.staged { 2.0 } else { 0.0 },
            iterations: iterations as f64,
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
    /// The bound of [`PrajapatiModel::lower_bound`] for blocks computing with `lanes` lanes, and,
    /// when known (`resident`), holding `k` blocks per SM.
    fn bound_with_lanes(&self, b: &BoundInputs<'_>, lanes: u64, resident: Option<u32>, device: &DeviceLimits) -> f64 {
        match self.memory_and_compute(b, lanes) {
            Some((memory, compute)) => {
                self.combine(b, memory, compute, b.spread_tiles(device), rounds_at_least(b, resident, device))
            }
            None => 0.0,
        }
    }

    /// `m'` and the least `c` with `lanes` lanes (Eq. 8, 9); `None` when a parameter's sign
    /// allows no bound.
    fn memory_and_compute(&self, b: &BoundInputs<'_>, lanes: u64) -> Option<(f64, f64)> {
        let p = &self.params;
        if p.l_word < 0.0 || p.tau_sync < 0.0 || p.c_iter < 0.0 || p.t_sync < 0.0 {
            return None;
        }
        let groups = b.groups as f64;
        let iterations: f64 = iterations_of(b.points, lanes) as f64 * groups;
        let memory = io_words(b.memory, b.staged, b.element_bytes) as f64 * p.l_word
            + if b.staged { 2.0 * p.tau_sync } else { 0.0 };
        let compute = iterations * p.c_iter + b.points.len() as f64 * groups * p.tau_sync;
        Some((memory, compute))
    }

    /// `N_w·T_sync + spread·max(m', c) + rounds·min(m', c)`.
    fn combine(&self, b: &BoundInputs<'_>, memory: f64, compute: f64, spread: f64, rounds: f64) -> f64 {
        b.wavefronts * self.params.t_sync + spread * memory.max(compute) + rounds * memory.min(compute)
    }
}

/// `Σ_x ⌈x / lanes⌉` over a tile's steps: Eq. 9's iterations of `n_V' = lanes` lanes (`≥ 1`).
/// The bounds take it for every screened size (over 10^5 on 3-D bands), so a power of two (as
/// the vector units are) is divided by a shift, not a division per step; the same integers.
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
        return match b.tiles_per_wavefront {
            Some(t) => t.iter().filter(|&&n| n > 0).count() as f64,
            None => b.wavefronts,
        };
    };
    let spread = b.tiles / (k * sms) as f64;
    match b.tiles_per_wavefront {
        Some(t) => t.iter().filter(|&&n| n > 0).map(|&n| n.div_ceil(k * sms) as f64).sum::<f64>().max(spread),
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

    /// Eq. 9 counts iterations of `n_V'` lanes, not warps: `G_e` does not enter.
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
    /// wavefronts with tiles; `c` is smallest when the block has at least `n_V` threads.
    fn lower_bound(&self, b: &BoundInputs<'_>, device: &DeviceLimits) -> f64 {
        let lanes = u64::from(device.vector_units(b.element_bytes).max(1));
        self.bound_with_lanes(b, lanes, None, device)
    }

    /// [`PrajapatiModel::lower_bound`] per block, the least over `blocks`: a block of `K`
    /// threads computes with `n_V' = min(n_V, K)` lanes (Eq. 9 adapted), so its `c` is exact,
    /// and its blocks per SM `k` (Eq. 11) bound the rounds (`rounds_at_least`).
    fn lower_bound_over_blocks(&self, b: &BoundInputs<'_>, blocks: &[BlockFacts], device: &DeviceLimits) -> f64 {
        let most = device.vector_units(b.element_bytes);
        let mut kinds: Vec<(u32, u32)> = blocks.iter().map(|k| (most.min(k.threads).max(1), k.blocks_per_sm)).collect();
        kinds.sort_unstable();
        kinds.dedup();
        if kinds.is_empty() {
            return self.lower_bound(b, device);
        }
        // The parts shared by blocks of the same lanes, or the same blocks per SM, once.
        let spread = b.spread_tiles(device);
        let mut lanes: Vec<(u32, Option<(f64, f64)>)> = Vec::new();
        let mut rounds: Vec<(u32, f64)> = Vec::new();
        let mut least = f64::INFINITY;
        for &(l, k) in &kinds {
            let parts = match lanes.iter().find(|(x, _)| *x == l) {
                Some(&(_, parts)) => parts,
                None => {
                    let parts = self.memory_and_compute(b, u64::from(l));
                    lanes.push((l, parts));
                    parts
                }
            };
            let Some((memory, compute)) = parts else { return 0.0 };
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

    /// [`PrajapatiModel::lower_bound`] with the block's lanes `n_V' = min(n_V, K)` and blocks
    /// per SM.
    fn lower_bound_for_block(&self, b: &BoundInputs<'_>, block: &BlockFacts, device: &DeviceLimits) -> f64 {
        let lanes = device.vector_units(b.element_bytes).min(block.threads).max(1);
        self.bound_with_lanes(b, u64::from(lanes), Some(block.blocks_per_sm), device)
    }
}
