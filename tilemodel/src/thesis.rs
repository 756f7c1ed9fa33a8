//! The execution-time model of thesis Ch. 5 (seed 000): intra-tile execution (§5.3.1),
//! inter-tile execution (§5.3.2) and the border-tile correction (§5.3.4), over the exact inputs
//! of [`crate::inputs`].
//!
//! * Eq. 5.5: `T_mem = γ·N_mem`, `N_mem` counted as our mapping makes them
//!   ([`crate::inputs::LayoutInputs::memory_work`]): a staged tile's copy loops visit every
//!   cell of their buffer box and test it, so `N_mem` is their warp-iterations; without
//!   staging, the tile's global loads and stores.
//! * Eq. 5.7: `T_TILE = α·Σ_e G_e + n_bar·σ_thd + β·L_TILE + γ·N_mem`, with `n_bar` the
//!   barriers our mapping runs per tile (one per statement group per step, plus one after the
//!   loads when staged: the thesis' `U − L + 3` counts Fig. 5.2's ③ too) and, for programs
//!   whose statements run in several groups per step (Fig. 4.7), `G` and `H` summed over them.
//! * Eq. 5.9–5.11: an inter-tile wavefront of `n` tiles on `P` SMs holding `B` blocks each
//!   (Table 5.1, [`crate::device::residency`]) runs `I = ⌈n / (B·P)⌉` rounds; the slowest SM
//!   runs `B` tiles in each of the first `I − 1` rounds and `⌈r / P⌉` in the last, `r` the
//!   tiles left for it (Eq. 5.11 writes `n mod B·P`, which is 0 for a full last round: we use
//!   `r = n − (I − 1)·B·P`). Eq. 5.10: `T_w = (that many tiles)·T_TILE + σ_blk`.
//! * §5.3.4: a border (non-full) tile costs `0.5·T_TILE`; we scale each wavefront's tiles on
//!   the slowest SM by `(full + 0.5·border) / n` — except a staged tile's copies, which walk
//!   the whole buffer box whatever the tile holds.
//! * Eq. 5.8: `T_total = Σ_w T_w + σ_ker`.
//! * Adapted to GPUs that hide latency only with enough warps (the H100's schedulers issue
//!   every cycle only with about `issue_latency_warps` = 4 ready warps each, the simulator's
//!   cost model, docs/cost-model.md): Eq. 5.3's `α·G_e` counts warp-executions at the SM's full
//!   issue rate, which needs `4 × 4` resident warps; a wavefront whose tiles leave an SM fewer
//!   (`q_w = min(B, ⌈n_w / P⌉)` blocks of `⌈K/32⌉` warps) runs its work terms (`α`, `β`, `γ`)
//!   at the efficiency `e_w = min(1, q_w·⌈K/32⌉ / 16)`, so they are divided by it. The thesis'
//!   Tesla C1060 runs had large tiles filling every SM (`e_w = 1`, the original equations).
//!
//! * Ours, not the thesis': **tile set-up** `σ_tile` per tile. In our mapping the first warp
//!   of a block finds its tile (from the block and the wavefront) and computes whether it is
//!   full, once per tile, whatever the tile holds, and passes them to the other warps;
//!   `T_total` adds `σ_tile·Σ_w slowest_w / e_w` (the copies' weight of [`critical_tiles`]).
//!   Until the kernels left the set-up to the first warp, every warp computed it and the term
//!   was `σ_tile·K_w·…` (`K_w` warps per block): fitted so to the H200's 59 calibration runs
//!   `σ_tile` is 0.22 µs per warp and tile, and on 150 other layouts timed there it raised the
//!   rank correlation for 2-D/3-D SOR and 2-D Jacobi from 0.76/0.50/0.80 to 0.94/0.79/0.91
//!   (`bench/results/2026-11-26-tile-setup-term.txt`; one-warp blocks ran 3-D tiles 1.3–1.7×
//!   faster than four-warp ones, which the thesis' terms alone predict the other way round).
//!   The value is the issue time of one warp's set-up, which the kernels now pay once per
//!   tile; a calibration of the current kernels has yet to confirm it.
//!
//! `T_total` is linear in its seven parameters (§5.3.3), which is how calibration fits them:
//! [`thesis_features`] gives each parameter's coefficient.

use crate::device::DeviceLimits;
use crate::error::Result;
use crate::inputs::LayoutInputs;
use crate::model::{resident_blocks, BlockFacts, BoundInputs, Prediction, Term, TileModel};

/// The name of Eq. 5.8's `σ_ker` term in predictions.
const KERNEL_START: &str = "kernel start (σ_ker)";

/// The six parameters of thesis §5.3.3 and our tile set-up cost, in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThesisParams {
    /// `σ_ker`: kernel (program) start-up.
    pub sigma_ker: f64,
    /// `σ_blk`: the synchronisation between inter-tile wavefronts (in our mapping, the gap
    /// between two launches).
    pub sigma_blk: f64,
    /// `σ_thd`: one `__syncthreads`.
    pub sigma_thd: f64,
    /// `α`: one warp executing the loop body once (program-dependent).
    pub alpha: f64,
    /// `β`: the correction per point (program-dependent; usually negative, §5.5.3).
    pub beta: f64,
    /// `γ`: one load or store between global and shared memory (program-dependent).
    pub gamma: f64,
    /// `σ_tile` (ours, not the thesis'): one warp setting up one tile — finding the tile from
    /// its block and wavefront and the bounds of its loops, which every warp of the block does
    /// itself once per tile. Device-wide; 0 in files without it.
    pub sigma_tile: f64,
}

impl ThesisParams {
    /// The parameters in the order of [`thesis_features`].
    pub fn to_vector(self) -> [f64; 7] {
        [self.sigma_ker, self.sigma_blk, self.sigma_thd, self.alpha, self.beta, self.gamma, self.sigma_tile]
    }

    /// The inverse of [`ThesisParams::to_vector`].
    pub fn from_vector(v: [f64; 7]) -> ThesisParams {
        ThesisParams {
            sigma_ker: v[0],
            sigma_blk: v[1],
            sigma_thd: v[2],
            alpha: v[3],
            beta: v[4],
            gamma: v[5],
            sigma_tile: v[6],
        }
    }

    /// Parameter names, in the order of [`ThesisParams::to_vector`].
    pub const NAMES: [&'static str; 7] =
        ["sigma_ker", "sigma_blk", "sigma_thd", "alpha", "beta", "gamma", "sigma_tile"];
}

/// Thesis Ch. 5's model with resolved parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThesisModel {
    /// Its parameters.
    pub params: ThesisParams,
}

/// Tile executions on the critical path (Eq. 5.9–5.11: the tiles the slowest SM runs, summed
/// over the wavefronts) in the three weightings the terms of `T_TILE` need.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CriticalTiles {
    /// With §5.3.4's border factor: the barriers' weight.
    pub border: f64,
    /// With the border factor and each wavefront's issue efficiency `e_w`: the weight of the
    /// work that scales with a tile's points (`α`, `β`, and `γ` without staging).
    pub work: f64,
    /// With `e_w` only: the weight of a staged tile's copies, which walk the whole buffer box
    /// of a border tile too.
    pub copies: f64,
}

/// The [`CriticalTiles`] of `layout` on `device`.
pub fn critical_tiles(layout: &LayoutInputs<'_>, device: &DeviceLimits) -> Result<CriticalTiles> {
    let b = resident_blocks(layout)?;
    let p = u64::from(device.multiprocessors.max(1));
    let warps = f64::from(layout.block.threads().div_ceil(crate::intra::WARP));
    let needed = device.issue_latency_warps * f64::from(device.schedulers_per_sm.max(1));
    // The sums depend on the block only through `B` and its warps: once per both and tile.
    let key = [THESIS_CRITICAL_TILES, b, p, warps.to_bits(), needed.to_bits()];
    let [border, work, copies] =
        layout.tile.wavefront_sums.get_or(key, || Ok(critical_sums(layout, b, p, warps, needed)))?;
    Ok(CriticalTiles { border, work, copies })
}

/// The key of [`critical_tiles`]' sums in [`crate::inputs::WavefrontSums`] (followed by `B`,
/// `P`, the block's warps and the warps an SM needs to issue every cycle).
const THESIS_CRITICAL_TILES: u64 = 1;

/// [`critical_tiles`]' three sums over the wavefronts, `B` blocks per SM, `P` SMs, `warps` per
/// block, `needed` warps per SM for full issue.
fn critical_sums(layout: &LayoutInputs<'_>, b: u64, p: u64, warps: f64, needed: f64) -> [f64; 3] {
    let mut c = CriticalTiles { border: 0.0, work: 0.0, copies: 0.0 };
    for class in layout.tile.wavefront_classes() {
        let (n, full, times) = (class.tiles, class.full, class.count as f64);
        let bp = b * p;
        let rounds = n.div_ceil(bp);
        let left = n - (rounds - 1) * bp;
        let slowest = (rounds - 1) * b + left.div_ceil(p);
        let border = (full as f64 + 0.5 * (n - full) as f64) / n as f64;
        // Blocks resident on an SM while the wavefront runs, and the share of the SM's issue
        // rate their warps keep busy.
        let resident = b.min(n.div_ceil(p)) as f64;
        let efficiency = (resident * warps / needed).min(1.0);
        c.border += times * (slowest as f64 * border);
        c.work += times * (slowest as f64 * border / efficiency);
        c.copies += times * (slowest as f64 / efficiency);
    }
    [c.border, c.work, c.copies]
}

/// The coefficient of each parameter ([`ThesisParams::to_vector`] order) in `T_total`:
/// `[1, N_w, C_b·n_bar, C_w·ΣG, C_w·ΣH, C_m·N_mem, C_c]` with the weights of
/// [`critical_tiles`] (`C_m`: the copies' when staged, else the work's; `C_c` the copies',
/// every tile whole) and `N_mem` = [`LayoutInputs::memory_work`].
pub fn thesis_features(layout: &LayoutInputs<'_>, device: &DeviceLimits) -> Result<[f64; 7]> {
    let c = critical_tiles(layout, device)?;
    let memory = if layout.tile.staged { c.copies } else { c.work };
    Ok([
        1.0,
        layout.tile.inter.wavefronts() as f64,
        c.border * layout.tile.barriers_per_tile() as f64,
        c.work * layout.total_warps() as f64,
        c.work * layout.total_points() as f64,
        memory * layout.memory_work() as f64,
        // One warp sets up every tile, whole or border: the copies' weight.
        c.copies,
    ])
}

/// The block-independent parts of [`ThesisModel::lower_bound`]'s `T_TILE` (Eq. 5.7).
#[derive(Debug, Clone, Copy)]
struct TileParts {
    /// `Σ_e ⌈H_e/32⌉` over the steps and statement groups: the fewest warps `ΣG` of any block.
    fewest_warps: f64,
    /// `β·ΣH`.
    points: f64,
    /// `σ_thd·n_bar`.
    barriers: f64,
}

impl ThesisModel {
    /// The parts of [`ThesisModel::lower_bound`]'s `T_TILE` that do not depend on the block;
    /// `None` when a parameter's sign allows no bound.
    fn tile_parts(&self, b: &BoundInputs<'_>) -> Option<TileParts> {
        let p = &self.params;
        if p.alpha < 0.0 || p.sigma_thd < 0.0 || p.gamma < 0.0 || p.sigma_blk < 0.0 || p.sigma_tile < 0.0 {
            return None;
        }
        let groups = b.groups as f64;
        // In integers ([`crate::model::sum_saturating`]), exactly the f64 sums of the same
        // integers below 2^53.
        let warps = crate::model::sum_saturating(b.points, |h| h.div_ceil(32)) as f64 * groups;
        // A point's statements run once whatever the groups (`LayoutInputs::total_points`).
        let points = crate::model::sum_saturating(b.points, |h| h) as f64;
        let barriers = b.points.len() as f64 * groups + if b.staged { 1.0 } else { 0.0 };
        // The work terms are weighted by `C_w ≥ C_b` in T_total (issue efficiency), so they must
        // be non-negative on their own for `C_b` to bound their weight from below; with `α ≥ 0`
        // they are then with any block's warps `ΣG ≥ Σ⌈H_e/32⌉` too.
        // With `β = −α/32` exactly (a fit whose runs had full warps only: `β' = β + α/32`
        // undetermined, 0) the two cancel on full warps up to a rounding, which must not count
        // as negative (the bound would be 0, and the search would prune nothing: 3-D SOR at 512³
        // took 5 s instead of 1).
        let work = p.alpha * warps + p.beta * points;
        let rounding = 1e-9 * (p.alpha * warps).abs().max((p.beta * points).abs());
        (work >= -rounding).then_some(TileParts {
            fewest_warps: warps,
            points: p.beta * points,
            barriers: p.sigma_thd * barriers,
        })
    }

    /// `α·ΣG + β·ΣH` on `block`: its exact warps when counted, else the fewest.
    fn work(&self, parts: &TileParts, block: &BlockFacts) -> f64 {
        self.params.alpha * block.warps.map_or(parts.fewest_warps, |w| w as f64) + parts.points
    }
}

impl TileModel for ThesisModel {
    fn name(&self) -> &'static str {
        "thesis"
    }

    fn equations(&self) -> &'static str {
        "thesis Ch. 5: Eq. 5.7 (T_TILE), 5.8-5.11 (T_total), 5.3.4 (border tiles)"
    }

    /// `G_e` enters only as `α·C_w·Σ G_e` (Eq. 5.3), so with `α ≥ 0`.
    fn monotone_in_warps(&self) -> bool {
        self.params.alpha >= 0.0
    }

    /// Eq. 5.8's `σ_ker`: once per run.
    fn run_constant(&self) -> Option<Term> {
        Some(Term { name: KERNEL_START, seconds: self.params.sigma_ker })
    }

    fn predict(&self, layout: &LayoutInputs<'_>, device: &DeviceLimits) -> Result<Prediction> {
        let f = thesis_features(layout, device)?;
        let p = self.params.to_vector();
        let names = [
            KERNEL_START,
            "wavefront syncs (σ_blk)",
            "barriers (σ_thd)",
            "warps (α)",
            "points (β)",
            "memory (γ)",
            "tile set-up (σ_tile)",
        ];
        let terms: Vec<Term> =
            names.iter().zip(f.iter().zip(p)).map(|(&name, (&x, y))| Term { name, seconds: x * y }).collect();
        Ok(Prediction { seconds: terms.iter().map(|t| t.seconds).sum(), terms })
    }

    /// `σ_ker + σ_blk·N_w + C_b_min·(α·ΣG_min + β·ΣH + σ_thd·n_bar) + C_m_min·γ·N_mem_min`, at
    /// most [`thesis_features`]' `T_total` for every block (B), because:
    /// * the slowest SM runs exactly `⌈n_w / P⌉` tiles of wavefront `w` whatever `B`
    ///   (Eq. 5.9–5.11: `(I − 1)·B + ⌈r / P⌉ = ⌈n_w / P⌉` with `n_w = (I − 1)·B·P + r`), so
    ///   [`critical_tiles`]' border weight `C_b` is `Σ_w ⌈n_w / P⌉·(f_w + 0.5·(n_w − f_w)) / n_w`,
    ///   at least [`BoundInputs::border_weighted_tiles`] (§5.3.4: half weight for border tiles);
    /// * the work weight `C_w` divides `C_b`'s terms by `e_w ≤ 1`, so `C_w ≥ C_b`, and the
    ///   copies' weight of a staged tile `Σ_w ⌈n_w / P⌉ / e_w ≥` [`BoundInputs::spread_tiles`]
    ///   (without staging the memory is weighted by `C_w`);
    /// * no block needs fewer than `⌈H_e / 32⌉` warps per step, nor fewer copy warp-iterations
    ///   than the largest block's;
    /// * the tile set-up weight `Σ_w ⌈n_w / P⌉ / e_w` is at least [`BoundInputs::spread_tiles`],
    ///   and one warp sets a tile up;
    /// * every parameter multiplying a weight is non-negative (else no bound: 0), and
    ///   `α·ΣG + β·ΣH ≥ 0` on its own (it is weighted by `C_w`, which may exceed `C_b`).
    ///
    /// Partial counts (tiles and full tiles per wavefront, each at most its final count) give a
    /// lower bound too: every weight only grows with them. `tests/search.rs` checks the bound
    /// against the predictions.
    fn lower_bound(&self, b: &BoundInputs<'_>, device: &DeviceLimits) -> f64 {
        let p = &self.params;
        let Some(parts) = self.tile_parts(b) else { return 0.0 };
        let work = p.alpha * parts.fewest_warps + parts.points;
        // The copy loops' warp-iterations are at least one lane's share on the largest block.
        let memory = if b.staged {
            b.memory.copy_loops.iter().map(|&c| c.div_ceil(1024)).sum::<u64>()
        } else {
            b.memory.accesses()
        };
        let spread = b.spread_tiles(device);
        let border = b.border_weighted_with(spread, device);
        let copies = if b.staged { spread } else { border };
        // Set-up: one warp per tile, at the copies' weight (`≥ spread`).
        p.sigma_ker
            + p.sigma_blk * b.wavefronts
            + border * (work + parts.barriers)
            + copies * p.gamma * memory as f64
            + spread * p.sigma_tile
    }

    /// [`ThesisModel::lower_bound`] per block, the least over `blocks`: a block's issue
    /// efficiency is `e_w = min(1, min(B, ⌈n_w / P⌉)·⌈K/32⌉ / (4·schedulers)) ≤ e_B =
    /// min(1, B·⌈K/32⌉ / (4·schedulers))` in every wavefront (the module documentation), so its
    /// work weight `C_w ≥ C_b / e_B` and a staged tile's copies weight
    /// `Σ_w ⌈n_w / P⌉ / e_w ≥` [`BoundInputs::spread_tiles`]` / e_B`; its copy warp-iterations
    /// are known exactly, and so are its warps `ΣG_e` (Eq. 5.3) when [`BlockFacts::warps`] has
    /// them (with `α ≥ 0` more warps only add). Each weight still only grows with the (partial)
    /// counts. The parts every block shares (the weights, which sum over the wavefronts) are
    /// computed once.
    fn lower_bound_over_blocks(&self, b: &BoundInputs<'_>, blocks: &[BlockFacts], device: &DeviceLimits) -> f64 {
        if blocks.is_empty() {
            return self.lower_bound(b, device);
        }
        self.lower_bounds_per_block(b, blocks, device).into_iter().fold(f64::INFINITY, f64::min)
    }

    /// [`ThesisModel::lower_bound_over_blocks`] on one block.
    fn lower_bound_for_block(&self, b: &BoundInputs<'_>, block: &BlockFacts, device: &DeviceLimits) -> f64 {
        self.lower_bound_over_blocks(b, std::slice::from_ref(block), device)
    }

    /// Each block's bound of [`ThesisModel::lower_bound_over_blocks`], the parts they share
    /// computed once.
    fn lower_bounds_per_block(&self, b: &BoundInputs<'_>, blocks: &[BlockFacts], device: &DeviceLimits) -> Vec<f64> {
        let p = &self.params;
        let Some(parts) = self.tile_parts(b) else {
            return vec![self.lower_bound(b, device); blocks.len()];
        };
        let needed = device.issue_latency_warps * f64::from(device.schedulers_per_sm.max(1));
        let spread = b.spread_tiles(device);
        let border = b.border_weighted_with(spread, device);
        let fixed = p.sigma_ker + p.sigma_blk * b.wavefronts + border * parts.barriers;
        blocks
            .iter()
            .map(|block| {
                let warps = f64::from(block.threads.div_ceil(crate::intra::WARP));
                let e = (f64::from(block.blocks_per_sm.max(1)) * warps / needed).min(1.0);
                let (memory, copies) =
                    if b.staged { (block.copy_warps, spread / e) } else { (b.memory.accesses(), border / e) };
                // The set-up's weight `Σ_w ⌈n_w/P⌉ / e_w ≥ spread / e_B` (one warp per tile).
                fixed
                    + border / e * self.work(&parts, block)
                    + copies * p.gamma * memory as f64
                    + spread / e * p.sigma_tile
            })
            .collect()
    }

    /// `α·C_w·ΣG_e` (Eq. 5.3, 5.7) rises with the warps when `α > 0`.
    fn bound_uses_warps(&self) -> bool {
        self.params.alpha > 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::footprint::TileMemory;
    use crate::model::BoundInputs;

    /// A fit whose runs had full warps only leaves `β' = β + α/32` at 0, so `β = −α/32`, and the
    /// work of full warps cancels up to a rounding — here that of reading the H200 file's
    /// decimal `β` back (`α·1 + β·32 = −8.3·10⁻²⁵`). The lower bound must keep its other terms
    /// (launches, barriers, memory), not fall to 0 as for a really negative work.
    #[test]
    fn work_that_cancels_on_full_warps_keeps_the_bound() {
        let params = ThesisParams {
            sigma_ker: 0.0,
            sigma_blk: 1e-6,
            sigma_thd: 1e-8,
            alpha: 6.759291235433671e-9,
            beta: -2.1122785110730224e-10,
            gamma: 3e-11,
            sigma_tile: 0.0,
        };
        let memory = TileMemory { loads: 7 * 32, stores: 32, ..TileMemory::default() };
        let points = [32u64];
        let b = BoundInputs {
            points: &points,
            groups: 1,
            memory: &memory,
            staged: false,
            element_bytes: 8,
            per_wavefront: None,
            wavefronts: 10.0,
            tiles: 5000.0,
            full: 5000.0,
        };
        let model = ThesisModel { params };
        let work = params.alpha + params.beta * 32.0;
        assert!(work < 0.0 && work > -1e-20, "the work cancels to a rounding below 0: {work}");
        let bound = model.lower_bound(&b, &DeviceLimits::h100());
        assert!(bound > params.sigma_blk * 10.0, "the bound keeps launches, barriers and memory: {bound}");
    }
}
