//! The execution-time model of thesis Ch. 5 (seed 000): intra-tile execution (§5.3.1),
//! inter-tile execution (§5.3.2) and the border-tile correction (§5.3.4), over the exact inputs
//! of [`crate::inputs`].
//!
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
//!   the slowest SM by `(full + 0.5·border) / n`.
//! * Eq. 5.8: `T_total = Σ_w T_w + σ_ker`.
//!
//! `T_total` is linear in its six parameters (§5.3.3), which is how calibration fits them:
//! [`thesis_features`] gives each parameter's coefficient.

use crate::device::DeviceLimits;
use crate::error::Result;
use crate::inputs::LayoutInputs;
use crate::model::{resident_blocks, BoundInputs, Prediction, Term, TileModel};

/// The six parameters of thesis §5.3.3, in seconds.
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
}

impl ThesisParams {
    /// The parameters in the order of [`thesis_features`].
    pub fn to_vector(self) -> [f64; 6] {
        [self.sigma_ker, self.sigma_blk, self.sigma_thd, self.alpha, self.beta, self.gamma]
    }

    /// The inverse of [`ThesisParams::to_vector`].
    pub fn from_vector(v: [f64; 6]) -> ThesisParams {
        ThesisParams { sigma_ker: v[0], sigma_blk: v[1], sigma_thd: v[2], alpha: v[3], beta: v[4], gamma: v[5] }
    }

    /// Parameter names, in the order of [`ThesisParams::to_vector`].
    pub const NAMES: [&'static str; 6] = ["sigma_ker", "sigma_blk", "sigma_thd", "alpha", "beta", "gamma"];
}

/// Thesis Ch. 5's model with resolved parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThesisModel {
    /// Its parameters.
    pub params: ThesisParams,
}

/// Tile executions on the critical path: `Σ_w` (tiles the slowest SM runs in wavefront `w`,
/// Eq. 5.9–5.11) × the border-tile factor of §5.3.4.
pub fn critical_tiles(layout: &LayoutInputs<'_>, device: &DeviceLimits) -> Result<f64> {
    let b = resident_blocks(layout)?;
    let p = u64::from(device.multiprocessors.max(1));
    let mut total = 0.0;
    for (&n, &full) in layout.tile.inter.tiles.iter().zip(&layout.tile.inter.full) {
        if n == 0 {
            continue;
        }
        let bp = b * p;
        let rounds = n.div_ceil(bp);
        let left = n - (rounds - 1) * bp;
        let slowest = (rounds - 1) * b + left.div_ceil(p);
        let border = (full as f64 + 0.5 * (n - full) as f64) / n as f64;
        total += slowest as f64 * border;
    }
    Ok(total)
}

/// The coefficient of each parameter ([`ThesisParams::to_vector`] order) in `T_total`:
/// `[1, N_w, C·n_bar, C·ΣG, C·ΣH, C·N_mem]` with `C` = [`critical_tiles`].
pub fn thesis_features(layout: &LayoutInputs<'_>, device: &DeviceLimits) -> Result<[f64; 6]> {
    let c = critical_tiles(layout, device)?;
    Ok([
        1.0,
        layout.tile.inter.wavefronts() as f64,
        c * layout.tile.barriers_per_tile() as f64,
        c * layout.total_warps() as f64,
        c * layout.total_points() as f64,
        c * layout.tile.memory.accesses() as f64,
    ])
}

impl TileModel for ThesisModel {
    fn name(&self) -> &'static str {
        "thesis"
    }

    fn equations(&self) -> &'static str {
        "thesis Ch. 5: Eq. 5.7 (T_TILE), 5.8-5.11 (T_total), 5.3.4 (border tiles)"
    }

    fn predict(&self, layout: &LayoutInputs<'_>, device: &DeviceLimits) -> Result<Prediction> {
        let f = thesis_features(layout, device)?;
        let p = self.params.to_vector();
        let names = [
            "kernel start (σ_ker)",
            "wavefront syncs (σ_blk)",
            "barriers (σ_thd)",
            "warps (α)",
            "points (β)",
            "memory (γ)",
        ];
        let terms: Vec<Term> =
            names.iter().zip(f.iter().zip(p)).map(|(&name, (&x, y))| Term { name, seconds: x * y }).collect();
        Ok(Prediction { seconds: terms.iter().map(|t| t.seconds).sum(), terms })
    }

    /// `σ_ker + σ_blk·N_w + 0.5·Σ_w ⌈n_w / P⌉·T_TILE_min`: the slowest SM runs at least
    /// `⌈n_w / P⌉` tiles of wavefront `w` (Eq. 5.9–5.11 for any `B`), a border tile costs at
    /// least half a tile (§5.3.4), and no block needs fewer than `⌈H_e / 32⌉` warps per step.
    fn lower_bound(&self, b: &BoundInputs<'_>, device: &DeviceLimits) -> f64 {
        let p = &self.params;
        if p.alpha < 0.0 || p.sigma_thd < 0.0 || p.gamma < 0.0 || p.sigma_blk < 0.0 {
            return 0.0;
        }
        let groups = b.groups as f64;
        let warps: f64 = b.points.iter().map(|&h| h.div_ceil(32) as f64).sum::<f64>() * groups;
        let points: f64 = b.points.iter().sum::<u64>() as f64 * groups;
        let barriers = b.points.len() as f64 * groups + if b.staged { 1.0 } else { 0.0 };
        let tile = p.alpha * warps + p.sigma_thd * barriers + p.beta * points + p.gamma * b.memory.accesses() as f64;
        if tile < 0.0 {
            return 0.0;
        }
        p.sigma_ker.max(0.0) + p.sigma_blk * b.wavefronts + 0.5 * b.spread_tiles(device) * tile
    }
}
