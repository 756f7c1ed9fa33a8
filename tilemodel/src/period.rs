//! Inter-tile counts of a long domain from two short ones: the tiles repeat along an iterator
//! whose range is long (the time of an SOR run of thousands of sweeps, a row of 2^21 points).
//!
//! **Why it is exact.** Take one statement, an iterator `j` of it with column `c = map·e_j` and
//! range length `len`, and `Δ` the least step with `s_k | Δ·c_k` for every band row `k`. Then
//! `v = Δ·c` moves tile corners `Y = s∘T` to tile corners, and the wavefront `Σ_k T_k` by
//! `δ = Σ_k Δ·c_k / s_k`. The statement's image `P` is a parallelepiped with `c` among its
//! generators, so its tile zonotope `Z = P ⊕ [−(s − 1), 0]` (the corners of the tiles counted,
//! [`crate::inter`]) is `Q ⊕ [0, len − 1]·c` for a zonotope `Q` independent of `len`. On every
//! line along `c` it is one interval, `[a, b + len − 1]` where `[a, b]` is `Q`'s, so with `Z_n`
//! the zonotope at length `n`:
//!
//! * `Z_{n+Δ} = Z_n ∪ (Z_n + v)` when `Δ ≤ n − 1` (the two intervals meet), and
//! * `Z_n ∩ (Z_n + v) = Z_{n−Δ} + v` when `n > Δ` (both are `[a + Δ, b + n − 1]`).
//!
//! The tile corners are the lattice points of `Z`, and `v` is a lattice vector, so per
//! wavefront `w` the tiles at length `n + Δ` are `t_w(n) + t_{w−δ}(n) − t_{w−δ}(n − Δ)`: the
//! difference `D = t(n) − t(n − Δ)` (the tiles the last `Δ` values add) only moves by `δ` from
//! one length to the next, and `t(n + r·Δ) = t(n) + Σ_{q=1..r} D` shifted by `q·δ`. The full
//! tiles (boxes inside `P`: the erosion, a slab along the inverse map's row `j`, `lower_j −
//! min ≤ N_j·Y ≤ upper_j − max` with `max − min = Σ_k |N_{jk}|·(s_k − 1)` the box's spread along
//! it) obey the same two identities once the slab is at least `Δ` plus that spread long.
//!
//! So [`by_period`] counts the domain with the iterator cut by `r` steps of `Δ` and by `r + 1`
//! (the most that keep both identities, plus less than `Δ`), and adds the shifted copies of
//! their difference with one running sum per residue of `δ` — `O(wavefronts)` instead of a
//! count over the whole range; the short counts are made the same way along another long
//! iterator, if any.
//!
//! **Several statements** that share the band map (Jacobi-like programs: a statement and its
//! copy, shifted) and are cut alike: on a line along `c` each statement `S` present has its
//! interval `[a_S, b_S + L_S]`, and the tiles there are their union. The first identity holds
//! statement by statement. The second holds when no statement's interval ends before another's
//! starts plus `Δ` (then every point of `I_S ∩ (I_{S'} + Δ)` lies in `I_S ∩ (I_S + Δ)` or
//! `I_{S'} ∩ (I_{S'} + Δ)`): with `N_j` the inverse's row `j` (`N_j·c = 1`, so it measures
//! along `c`), `a_S − b_{S'}` is at most `α_S − α_{S'}` plus the spread, `α_S = N_j·shift_S +
//! lower_{S,j}`; so every `β_{S'} = N_j·shift_{S'} + upper_{S',j}` at least `Δ` plus the spread
//! past every `α_S` suffices. The full tiles (the intersection of the statements' erosions, one
//! slab along `N_j` from the greatest start to the least end) need the same. `tests/counting.rs`
//! compares it with [`crate::inter::count_tiles_by_rows`].

use crate::error::{Result, TileModelError};
use crate::inter::{cost_of_ranges, gcd, InterTileCounts};
use crate::shape::BandShape;

/// The iterator a count by period shortens, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Period {
    /// The statements with instances (they share the band map), and the iterator.
    statements: Vec<usize>,
    iterator: usize,
    /// `Δ`: the least step of the iterator that moves tile corners to tile corners.
    step: i64,
    /// `δ`: how far that step moves a tile's wavefront.
    shift: i64,
    /// The steps `r` cut from every statement's range for the count at `n` (one more for the
    /// one at `n − Δ`), and added back by the sums.
    repeats: i64,
}

impl Period {
    /// The period of `shape` at `sizes` whose short counts cost the least, if `margin` times
    /// their cost ([`cost_of_ranges`], tile-row prefixes) and the sums over the `span`
    /// wavefronts (about a thirty-second of a prefix's work each) cost less than the direct
    /// count (`None`: if any repeats). The statements with instances must share their
    /// band map (module documentation).
    fn of(shape: &BandShape, sizes: &[i64], span: usize, margin: Option<u64>) -> Option<Period> {
        let statements: Vec<usize> =
            (0..shape.statements.len()).filter(|&s| shape.statements[s].instances() > 0).collect();
        let first = &shape.statements[*statements.first()?];
        if statements
            .iter()
            .any(|&s| shape.statements[s].map != first.map || shape.statements[s].inverse != first.inverse)
        {
            return None;
        }
        let direct = cost_of_ranges(&shape.row_ranges(), sizes, shape.statements.len());
        let mut best: Option<(u64, Period)> = None;
        for j in 0..first.lower.len() {
            // Δ = lcm_k s_k / gcd(s_k, c_k), and the box's spread along the inverse's row j.
            let mut step = 1i64;
            let mut spread = 0i64;
            for (k, &size) in sizes.iter().enumerate() {
                let c = *first.map.get(k)?.get(j)?;
                if c != 0 {
                    let need = size / gcd(size, c.checked_abs()?);
                    step = step.checked_mul(need / gcd(step, need))?;
                }
                let n = *first.inverse.get(j)?.get(k)?;
                spread = spread.checked_add(n.checked_abs()?.checked_mul(size - 1)?)?;
            }
            // Each statement's range along the inverse's row j, `N_j·shift + [lower_j, upper_j]`:
            // both identities hold while every statement's end is at least Δ plus the spread
            // past every statement's start (module documentation); the cut keeps that.
            let mut starts = i64::MIN;
            let mut ends = i64::MAX;
            for &s in &statements {
                let st = &shape.statements[s];
                let at: i64 = first.inverse[j]
                    .iter()
                    .zip(&st.shift)
                    .try_fold(0i64, |a, (&n, &c)| a.checked_add(n.checked_mul(c)?))?;
                starts = starts.max(at.checked_add(st.lower[j])?);
                ends = ends.min(at.checked_add(st.upper[j])?);
            }
            let room = ends.checked_sub(starts)?.checked_sub(spread)?.checked_sub(step)?;
            if room < step {
                continue;
            }
            let repeats = room / step;
            // The rows' ranges with the iterator cut, over the statements.
            let mut ranges = vec![(i64::MAX, i64::MIN); shape.width];
            let cut = repeats.checked_mul(step)?;
            for &s in &statements {
                for (k, range) in ranges.iter_mut().enumerate() {
                    let (lo, hi) = shape.statements[s].row_range(k, Some((j, cut)));
                    let (lo, hi) = (i64::try_from(lo).ok()?, i64::try_from(hi).ok()?);
                    *range = (range.0.min(lo), range.1.max(hi));
                }
            }
            let cost = cost_of_ranges(&ranges, sizes, shape.statements.len());
            if best.as_ref().is_some_and(|(c, _)| *c <= cost) {
                continue;
            }
            let mut shift = 0i64;
            for (k, &size) in sizes.iter().enumerate() {
                shift = shift.checked_add(step.checked_mul(first.map[k][j])? / size)?;
            }
            best = Some((cost, Period { statements: statements.clone(), iterator: j, step, shift, repeats }));
        }
        let (cost, period) = best?;
        let sums = (span as u64) / 32;
        margin.is_none_or(|m| cost.saturating_mul(m).saturating_add(sums) < direct).then_some(period)
    }

    /// `shape` with every statement's range along the period's iterator shortened by `steps`
    /// steps.
    fn cut(&self, shape: &BandShape, steps: i64) -> BandShape {
        let mut short = shape.counting_copy();
        for &s in &self.statements {
            let st = &mut short.statements[s];
            st.upper[self.iterator] -= steps * self.step;
        }
        short
    }
}

/// The counts of `shape` at `sizes` (`span` wavefronts at most) from counts (by `count`) of the
/// domain cut along an iterator whose tiles repeat, when that costs less (module
/// documentation: [`Period::of`] with `margin`); `None` when it would not (`margin` `None`:
/// whenever an iterator repeats, which the tests compare with the direct count).
pub(crate) fn by_period(
    shape: &BandShape,
    sizes: &[i64],
    span: usize,
    margin: Option<u64>,
    count: &mut dyn FnMut(&BandShape) -> Result<InterTileCounts>,
) -> Option<Result<InterTileCounts>> {
    let period = Period::of(shape, sizes, span, margin)?;
    Some(compose(&period, shape, count))
}

fn compose(
    period: &Period,
    shape: &BandShape,
    count: &mut dyn FnMut(&BandShape) -> Result<InterTileCounts>,
) -> Result<InterTileCounts> {
    let long = count(&period.cut(shape, period.repeats))?;
    let short = count(&period.cut(shape, period.repeats + 1))?;
    let overflow = || TileModelError::Overflow("inter-tile counts by period");
    // Every wavefront either count has, and those the copies of the difference move to.
    let reach = i128::from(period.shift) * i128::from(period.repeats);
    let long_end = long.first_wavefront as i128 + long.tiles.len() as i128;
    let lo = (long.first_wavefront as i128).min(long.first_wavefront as i128 + reach);
    let hi = long_end.max(long_end + reach);
    let span = usize::try_from(hi - lo).map_err(|_| overflow())?;
    if span as u64 > crate::inter::MAX_WAVEFRONTS + 1 {
        return Err(overflow());
    }
    let lo = i64::try_from(lo).map_err(|_| overflow())?;
    // Where the long count's and the short count's wavefronts start in the result's, and the
    // short's in the long's (its tiles are some of the long's, so its range lies inside).
    let before = usize::try_from(long.first_wavefront - lo).map_err(|_| overflow())?;
    let inside = usize::try_from(short.first_wavefront - long.first_wavefront).map_err(|_| overflow())?;
    let tiles = spread(&long.tiles, &short.tiles, inside, before, period, span)?;
    let full = spread(&long.full, &short.full, inside, before, period, span)?;
    InterTileCounts::launched(lo, tiles, full)
}

/// `t(n) + Σ_{q=1..r} S_{q·δ} (t(n) − t(n − Δ))` over the result's `span` wavefronts, for the
/// tiles or the full tiles: `long` is `t(n)` (from wavefront `before` of the result on), `short`
/// is `t(n − Δ)` (from wavefront `inside` of `long` on).
fn spread(long: &[u64], short: &[u64], inside: usize, before: usize, period: &Period, span: usize) -> Result<Vec<u64>> {
    let overflow = || TileModelError::Overflow("inter-tile counts by period");
    let bug =
        || TileModelError::InvalidInput("a shorter domain has more tiles than a longer one (a counting bug)".into());
    // The difference: the tiles the last Δ values add (at least 0: the shorter domain's tiles
    // are some of the longer's, at the same wavefronts).
    let mut difference: Vec<i64> =
        long.iter().map(|&n| i64::try_from(n).map_err(|_| overflow())).collect::<Result<_>>()?;
    for (i, &n) in short.iter().enumerate() {
        let d = difference.get_mut(inside + i).ok_or_else(bug)?;
        *d = d.checked_sub(i64::try_from(n).map_err(|_| overflow())?).filter(|&v| v >= 0).ok_or_else(bug)?;
    }
    // copies[o] = Σ_{q=1..r} difference at o − q·δ, by a running sum along each residue of δ:
    // copies[o] = copies[o − δ] + difference at o − δ − difference at o − (r + 1)·δ.
    let (delta, r) = (period.shift, period.repeats);
    let mut out = vec![0i64; span];
    if delta == 0 {
        for (o, &d) in out[before..].iter_mut().zip(&difference) {
            *o = d.checked_mul(r).ok_or_else(overflow)?;
        }
    } else {
        let far = delta.checked_mul(r.checked_add(1).ok_or_else(overflow)?).ok_or_else(overflow)?;
        let at = |o: i64| -> i64 {
            usize::try_from(o - before as i64).ok().and_then(|i| difference.get(i)).copied().unwrap_or(0)
        };
        let step = |o: usize, out: &mut [i64]| -> Result<()> {
            let w = o as i64;
            let previous = usize::try_from(w - delta).ok().and_then(|p| out.get(p)).copied().unwrap_or(0);
            out[o] =
                previous.checked_add(at(w - delta)).and_then(|v| v.checked_sub(at(w - far))).ok_or_else(overflow)?;
            Ok(())
        };
        if delta > 0 {
            for o in 0..span {
                step(o, &mut out)?;
            }
        } else {
            for o in (0..span).rev() {
                step(o, &mut out)?;
            }
        }
    }
    for (o, &n) in out[before..].iter_mut().zip(long) {
        *o = o.checked_add(n as i64).ok_or_else(overflow)?;
    }
    if out.iter().any(|&n| n < 0) {
        return Err(bug());
    }
    // In place (the same size and alignment): no second array of the span.
    Ok(out.into_iter().map(|n| n as u64).collect())
}
