//! The one interface both execution-time models implement.

use crate::device::DeviceLimits;
use crate::error::{Result, TileModelError};
use crate::inputs::LayoutInputs;
use crate::inter::PerWavefront;

/// One named part of a prediction (e.g. the launches' share), in seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    /// What it is.
    pub name: &'static str,
    /// Seconds.
    pub seconds: f64,
}

/// A model's estimate of a layout's execution time with its main terms.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    /// The estimated execution time in seconds.
    pub seconds: f64,
    /// The terms it is made of (they sum to `seconds` unless a model combines them otherwise,
    /// as seed 004's `max` does).
    pub terms: Vec<Term>,
}

/// An analytical execution-time model of wavefront-tiled programs on a GPU (thesis Ch. 5,
/// seed 004), with its device and program parameters already resolved (`Sync`: the search
/// visits tile sizes on several threads).
pub trait TileModel: Sync {
    /// Short name (`thesis`, `prajapati`).
    fn name(&self) -> &'static str;

    /// The equations it implements, for reports.
    fn equations(&self) -> &'static str;

    /// The estimated execution time of `layout` on `device`.
    fn predict(&self, layout: &LayoutInputs<'_>, device: &DeviceLimits) -> Result<Prediction>;

    /// A time no layout of one tile size predicts less than, whatever its block (the search's
    /// branch and bound); `0` when the parameters allow no useful bound.
    fn lower_bound(&self, bound: &BoundInputs<'_>, device: &DeviceLimits) -> f64;

    /// A time no layout of one tile size on any of `blocks` predicts less than (the search's
    /// branch and bound over the blocks that pass the blockDim constraint and fit on an SM, so
    /// that a size whose blocks are all slow is skipped before its tiles are counted in full);
    /// with no blocks, or by default, [`TileModel::lower_bound`]. The least over the blocks of a
    /// bound that depends on a block only through its [`BlockFacts`], so that blocks with the
    /// same facts may be passed once (the search passes one per thread count before counting).
    fn lower_bound_over_blocks(&self, bound: &BoundInputs<'_>, blocks: &[BlockFacts], device: &DeviceLimits) -> f64 {
        if blocks.is_empty() {
            return self.lower_bound(bound, device);
        }
        blocks.iter().map(|block| self.lower_bound_for_block(bound, block, device)).fold(f64::INFINITY, f64::min)
    }

    /// A time no layout of one tile size on `block` predicts less than (the search's bound per
    /// block, before or after the tiles are counted); by default [`TileModel::lower_bound`].
    fn lower_bound_for_block(&self, bound: &BoundInputs<'_>, block: &BlockFacts, device: &DeviceLimits) -> f64 {
        let _ = block;
        self.lower_bound(bound, device)
    }

    /// [`TileModel::lower_bound_for_block`] of each of `blocks`, in order (a model may share
    /// the work every block's bound needs).
    fn lower_bounds_per_block(
        &self,
        bound: &BoundInputs<'_>,
        blocks: &[BlockFacts],
        device: &DeviceLimits,
    ) -> Vec<f64> {
        blocks.iter().map(|block| self.lower_bound_for_block(bound, block, device)).collect()
    }

    /// Whether [`TileModel::lower_bound_for_block`] grows when a block's exact warps
    /// [`BlockFacts::warps`] replace their lower bound `Σ_e ⌈H_e/32⌉`: only then is it worth
    /// the search's while to count them before the tiles (thesis Eq. 5.3's `G_e`).
    fn bound_uses_warps(&self) -> bool {
        false
    }

    /// Whether the prediction never falls when a layout's warps `G_e` grow (all else equal):
    /// then predicting with [`LayoutInputs::with_fewest_warps`] bounds a block's time from
    /// below before its `G_e` are counted.
    fn monotone_in_warps(&self) -> bool;

    /// The term of every prediction that a run of the program pays once, however many nests
    /// and host iterations it has (thesis Eq. 5.8's `σ_ker`); `None` when every term grows
    /// with the launches. [`crate::nests::search_nests`] counts it once per run.
    fn run_constant(&self) -> Option<Term> {
        None
    }
}

/// What [`TileModel::lower_bound_over_blocks`] knows of one block before the tiles are counted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlockFacts {
    /// Threads per block.
    pub threads: u32,
    /// Resident blocks per SM (thesis Table 5.1's `B`, at least 1).
    pub blocks_per_sm: u32,
    /// Warp-iterations of a staged tile's copy loops on the block
    /// ([`crate::inputs::LayoutInputs::copy_warps`]).
    pub copy_warps: u64,
    /// `Σ_e G_e` of a full tile on the block, every statement group counted
    /// ([`crate::inputs::LayoutInputs::total_warps`]), when counted; `None`: a bound uses its
    /// lower bound `Σ_e ⌈H_e/32⌉` (a warp-iteration covers at most 32 points). The warps need
    /// no inter-tile counting, and on blocks that fit a step's points badly they are far above
    /// that bound, so the search counts them first for the blocks that decide whether a size is
    /// counted at all.
    pub warps: Option<u64>,
}

/// What a tile size's lower bound may use: its block-independent inputs and, before the tiles
/// are counted, lower bounds of the wavefronts and tiles.
#[derive(Debug, Clone, Copy)]
pub struct BoundInputs<'a> {
    /// `H_e` of a full tile's steps.
    pub points: &'a [u64],
    /// Statement groups per step.
    pub groups: usize,
    /// The full tile's memory use.
    pub memory: &'a crate::footprint::TileMemory,
    /// Whether tiles are staged.
    pub staged: bool,
    /// Bytes per element.
    pub element_bytes: u32,
    /// Per wavefront, its tiles and full tiles when counted (at most the final counts: a count
    /// may be partial, [`crate::inter::count_tiles_unless`]); else `None`, and `wavefronts`,
    /// `tiles` and `full` bound them from below.
    pub per_wavefront: Option<PerWavefront<'a>>,
    /// At most the number of inter-tile wavefronts.
    pub wavefronts: f64,
    /// At most the number of tiles.
    pub tiles: f64,
    /// At most the number of full tiles (e.g. [`crate::inter::TileGeometry::full_tiles_lower_bound`]
    /// before counting; 0 says nothing): [`BoundInputs::border_weighted_tiles`] weighs them
    /// fully when it is above the full tiles per wavefront counted so far.
    pub full: f64,
}

impl BoundInputs<'_> {
    /// A lower bound of `Σ_w max(1, n_w / P)`: tile executions on the slowest SM when every
    /// wavefront has work and the tiles spread evenly. With (partial) counts, `Σ_w ⌈n_w / P⌉`
    /// of those counted, or `tiles / P` when more (`Σ_w ⌈n_w / P⌉ ≥ Σ_w n_w / P`, and `tiles`
    /// is at most the final total: during a count, the tiles counted plus a bound of the rest).
    pub fn spread_tiles(&self, device: &DeviceLimits) -> f64 {
        let sms = u64::from(device.multiprocessors.max(1));
        let p = sms as f64;
        match self.per_wavefront {
            // In integers: `⌈n / P⌉` exactly, without a floating-point division and a rounding
            // call per wavefront (the same sums as `(n / P).ceil()` in `f64` for the counts of
            // any search, under 2^32 per wavefront, whose quotients are never within an `f64`
            // rounding of an integer; the sum is exact below 2^53).
            Some(c) => (c.sum_tiles(|n| n.div_ceil(sms)) as f64).max(self.tiles / p),
            None => self.wavefronts.max(self.tiles / p),
        }
    }

    /// A lower bound of thesis §5.3.4's `Σ_w ⌈n_w / P⌉·(f_w + 0.5·(n_w − f_w)) / n_w` (the
    /// slowest SM's tiles, border tiles at half weight; `f_w` full tiles of `n_w`):
    /// `Σ_w 0.5·⌈n_w / P⌉ + 0.5·f_w / P`, since `⌈n / P⌉·f / n ≥ f / P`. Each part only grows
    /// with `n_w` and `f_w`, so partial counts bound it too, and `Σ_w f_w` is at least both the
    /// full tiles counted so far and [`BoundInputs::full`]. Without counts,
    /// `0.5·`[`BoundInputs::spread_tiles`]` + 0.5·full / P`.
    pub fn border_weighted_tiles(&self, device: &DeviceLimits) -> f64 {
        self.border_weighted_with(self.spread_tiles(device), device)
    }

    /// [`BoundInputs::border_weighted_tiles`] with [`BoundInputs::spread_tiles`] given (`spread`):
    /// for the bounds that need both, which then sum the wavefronts once.
    pub fn border_weighted_with(&self, spread: f64, device: &DeviceLimits) -> f64 {
        let p = f64::from(device.multiprocessors.max(1));
        // In integers ([`sum_saturating`]), exactly the f64 sum of the same counts below 2^53.
        let counted = self.per_wavefront.map_or(0.0, |c| c.sum_full(|n| n) as f64);
        0.5 * spread + 0.5 * counted.max(self.full) / p
    }
}

/// Which model: the names `poly-tile{model=…}` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ModelKind {
    /// Thesis Ch. 5 (Eq. 5.2–5.11, §5.3.4): [`crate::thesis::ThesisModel`].
    #[default]
    Thesis,
    /// Seed 004, Prajapati et al. (Eq. 2, 8–12): [`crate::prajapati::PrajapatiModel`].
    Prajapati,
}

impl ModelKind {
    /// Every model, in the order reports list them.
    pub const ALL: [ModelKind; 2] = [ModelKind::Thesis, ModelKind::Prajapati];

    /// Parses `thesis` or `prajapati`.
    pub fn parse(text: &str) -> Result<ModelKind> {
        match text {
            "thesis" => Ok(ModelKind::Thesis),
            "prajapati" => Ok(ModelKind::Prajapati),
            other => Err(TileModelError::InvalidInput(format!(
                "unknown tile model '{other}': choose thesis (thesis Ch. 5) or prajapati (Prajapati et al.)"
            ))),
        }
    }

    /// The name [`ModelKind::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Thesis => "thesis",
            ModelKind::Prajapati => "prajapati",
        }
    }
}

/// `Σ f(v)` over `values`, saturating at `u64::MAX`. The models' bounds sum arrays of a tile's
/// steps or of its wavefronts, thousands long, for every size the search screens (10^5 on 3-D
/// bands), so without a chain of dependent floating-point or saturating additions: the high
/// and the low 32 bits of the terms are summed apart (plain additions the compiler vectorises,
/// neither of which can overflow below 2^32 terms) and put together in `u128`.
pub(crate) fn sum_saturating(values: &[u64], f: impl Fn(u64) -> u64) -> u64 {
    const LOW: u64 = 0xffff_ffff;
    let mut total = 0u128;
    // Chunks of fewer than 2^32 terms: each part's sum stays below 2^64.
    for chunk in values.chunks(1 << 31) {
        let (high, low) = chunk.iter().map(|&v| f(v)).fold((0u64, 0u64), |(h, l), x| (h + (x >> 32), l + (x & LOW)));
        total += (u128::from(high) << 32) + u128::from(low);
    }
    u64::try_from(total).unwrap_or(u64::MAX)
}

/// Blocks per SM, an error when a block does not fit (thesis Table 5.1's `B = 0`).
pub(crate) fn resident_blocks(layout: &LayoutInputs<'_>) -> Result<u64> {
    match layout.residency.blocks_per_sm {
        0 => Err(TileModelError::InvalidInput(format!(
            "a block of {} threads with {} registers each and {} bytes of shared memory does not fit on an SM ({})",
            layout.block.threads(),
            layout.registers,
            layout.tile.memory.shared_bytes,
            layout.residency.limiter
        ))),
        b => Ok(u64::from(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::sum_saturating;

    /// The plain sum where it cannot overflow, the saturating one where it could (both exact
    /// until they saturate).
    #[test]
    fn sums_saturate_only_past_the_largest_integer() {
        assert_eq!(sum_saturating(&[], |v| v), 0);
        assert_eq!(sum_saturating(&[1, 33, 64, 0], |v| v.div_ceil(32)), 1 + 2 + 2);
        let half = u64::MAX / 2;
        assert_eq!(sum_saturating(&[half, half], |v| v), 2 * half);
        assert_eq!(sum_saturating(&[half, half, 2], |v| v), u64::MAX);
        assert_eq!(sum_saturating(&[u64::MAX, 1, u64::MAX], |v| v), u64::MAX);
        assert_eq!(sum_saturating(&[u64::MAX, 1], |v| v / 2), u64::MAX / 2);
    }
}
