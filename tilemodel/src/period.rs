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
//! their difference with one running sum per residue of `δ`. Once every copy that meets a
//! wavefront is among the `r` (past the short count's wavefronts, before the last copy's), a
//! wavefront's count is the sum of the difference over its residue: periodic with period `δ`.
//! That stretch is kept once with how often it repeats ([`crate::inter::Repeat`]), so the
//! result costs the short counts' wavefronts, not the run's; the short counts are made the same
//! way along another long iterator, if any (and written out).
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
use crate::inter::{cost_of_ranges, gcd, InterTileCounts, Repeat, MAX_WAVEFRONTS};
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
    /// their cost ([`cost_of_ranges`], tile-row prefixes) plus their wavefronts (the arrays
    /// they fill and the sums kept, about a thirty-second of a prefix's work each) cost less
    /// than the direct count, its prefixes and its `span` wavefronts (`None`: if any repeats).
    /// The statements with instances must share their band map (module documentation).
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
            // The short counts' prefixes, and their wavefronts (twice: two counts).
            let wavefronts: u64 = ranges
                .iter()
                .zip(sizes)
                .map(|(&(lo, hi), &s)| (hi.div_euclid(s) - lo.div_euclid(s)).max(0) as u64)
                .fold(1u64, u64::saturating_add);
            let cost = cost_of_ranges(&ranges, sizes, shape.statements.len()).saturating_add(wavefronts / 16);
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
        let direct = direct.saturating_add(span as u64 / 32);
        margin.is_none_or(|m| cost.saturating_mul(m) < direct).then_some(period)
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
    let long = Line::of(&count(&period.cut(shape, period.repeats))?)?;
    let short = Line::of(&count(&period.cut(shape, period.repeats + 1))?)?;
    if period.shift >= 0 {
        return spread(&long, &short, period.shift, period.repeats);
    }
    // The copies move to lower wavefronts: the same sums on the counts read backwards.
    reversed(spread(&long.reversed()?, &short.reversed()?, -period.shift, period.repeats)?)
}

/// One count's wavefronts written out: the first one's number and the counts of each.
struct Line {
    first: i64,
    tiles: Vec<u64>,
    full: Vec<u64>,
}

impl Line {
    /// A short count's wavefronts (itself kept by period along another iterator, maybe),
    /// written out: at most the wavefronts one count holds.
    fn of(counts: &InterTileCounts) -> Result<Line> {
        let (tiles, full) = counts.per_wavefront().written_out(MAX_WAVEFRONTS)?;
        Ok(Line { first: counts.first_wavefront, tiles, full })
    }

    /// The wavefronts numbered backwards (`w → −w`).
    fn reversed(&self) -> Result<Line> {
        let first = last_wavefront(self.first, self.tiles.len() as u64)?;
        let backwards = |v: &[u64]| v.iter().rev().copied().collect();
        Ok(Line { first, tiles: backwards(&self.tiles), full: backwards(&self.full) })
    }
}

/// `counts` with the wavefronts numbered backwards (`w → −w`): the kept entries reversed, the
/// repeated stretch with them (`H B B^times T` read backwards is `T' B' B'^times H'`).
fn reversed(mut counts: InterTileCounts) -> Result<InterTileCounts> {
    counts.first_wavefront = last_wavefront(counts.first_wavefront, counts.per_wavefront().count())?;
    let kept = counts.tiles.len();
    counts.tiles.reverse();
    counts.full.reverse();
    counts.repeat = counts.repeat.map(|r| Repeat { start: kept - (r.start + r.len), ..r });
    Ok(counts)
}

/// `−(first + n − 1)`: the first of `n` wavefronts from `first` numbered backwards, checked.
fn last_wavefront(first: i64, n: u64) -> Result<i64> {
    let last = i128::from(first) + i128::from(n) - 1;
    i64::try_from(-last).map_err(|_| TileModelError::Overflow("inter-tile counts by period"))
}

/// `t(n) + Σ_{q=1..r} S_{q·δ} (t(n) − t(n − Δ))` over every wavefront, for the tiles and the
/// full tiles, with `δ ≥ 0`: `long` is `t(n)`, `short` is `t(n − Δ)`.
///
/// With `D = t(n) − t(n − Δ)` on the `L` wavefronts of `long` (from 0), the copies at `o` are
/// `Σ_{q=1..r} D[o − q·δ]`; where `o − δ ≥ L − 1` and `o ≤ r·δ` every `q` that meets `D` is
/// in `1..=r`, so there the counts are `Σ_{i ≡ o (mod δ)} D[i]`: periodic with period `δ`, and
/// `long` adds nothing (`o ≥ L`). That stretch, thousands of periods in a long run, is kept
/// once with how often it repeats ([`Repeat`]); the wavefronts before and after it are
/// computed by a running sum along each residue of `δ` (`c[o] = c[o − δ] + D[o − δ] −
/// D[o − (r + 1)·δ]`), the ones after it starting from the stretch's values.
fn spread(long: &Line, short: &Line, delta: i64, r: i64) -> Result<InterTileCounts> {
    let overflow = || TileModelError::Overflow("inter-tile counts by period");
    let len = long.tiles.len();
    if len == 0 {
        return InterTileCounts::launched(long.first, Vec::new(), Vec::new());
    }
    let inside = usize::try_from(short.first - long.first).map_err(|_| bug())?;
    let l = i64::try_from(len).map_err(|_| overflow())?;
    if delta == 0 {
        let tiles = in_place_copies(&long.tiles, &short.tiles, inside, r)?;
        let full = in_place_copies(&long.full, &short.full, inside, r)?;
        return InterTileCounts::launched(long.first, tiles, full);
    }
    // Wavefronts `o` (from `long.first`) up to `span`; the periodic stretch `[p0, p1]`.
    let reach = delta.checked_mul(r).ok_or_else(overflow)?;
    let span = l.checked_add(reach).ok_or_else(overflow)?;
    let p0 = l - 1 + delta;
    let periods = if reach >= p0 { (reach - p0 + 1) / delta } else { 0 };
    // Kept: `[0, head)` and `[tail, span)`; `[p0, p0 + δ)` (in the head) stands for `periods`.
    let (head, tail) = if periods >= 2 { (p0 + delta, p0 + periods * delta) } else { (span, span) };
    let kept = head + (span - tail);
    if kept as u64 > MAX_WAVEFRONTS + 1 {
        return Err(TileModelError::TooManyWavefronts(format!(
            "a count by period keeps {kept} inter-tile wavefronts, more than the {MAX_WAVEFRONTS} one count of tiles holds"
        )));
    }
    let far = delta.checked_mul(r.checked_add(1).ok_or_else(overflow)?).ok_or_else(overflow)?;
    let one = |long_counts: &[u64], short_counts: &[u64]| -> Result<Vec<u64>> {
        let difference = difference(long_counts, short_counts, inside)?;
        let at = |o: i64| usize::try_from(o).ok().and_then(|i| difference.get(i)).copied().unwrap_or(0);
        let mut out = vec![0i64; kept as usize];
        // The head: the running sums from the first wavefront.
        for o in 0..head {
            let previous = if o >= delta { out[(o - delta) as usize] } else { 0 };
            out[o as usize] =
                previous.checked_add(at(o - delta)).and_then(|v| v.checked_sub(at(o - far))).ok_or_else(overflow)?;
        }
        // The tail: its first period continues the stretch's values.
        for o in tail..span {
            let from = o - delta;
            let previous = if from >= tail {
                out[(head + from - tail) as usize]
            } else {
                out[(p0 + (from - p0) % delta) as usize]
            };
            out[(head + o - tail) as usize] =
                previous.checked_add(at(o - delta)).and_then(|v| v.checked_sub(at(o - far))).ok_or_else(overflow)?;
        }
        for (o, &n) in out.iter_mut().zip(long_counts) {
            *o = o.checked_add(i64::try_from(n).map_err(|_| overflow())?).ok_or_else(overflow)?;
        }
        out.into_iter().map(|n| u64::try_from(n).map_err(|_| bug())).collect()
    };
    let counts = InterTileCounts {
        first_wavefront: long.first,
        tiles: one(&long.tiles, &short.tiles)?,
        full: one(&long.full, &short.full)?,
        repeat: (periods >= 2).then(|| Repeat { start: p0 as usize, len: delta as usize, times: (periods - 1) as u64 }),
    };
    counts.trimmed()
}

/// `long + r·(long − short)` entry by entry (`short` from entry `inside` of `long` on): the
/// counts when the copies do not move (`δ = 0`).
fn in_place_copies(long: &[u64], short: &[u64], inside: usize, r: i64) -> Result<Vec<u64>> {
    let overflow = || TileModelError::Overflow("inter-tile counts by period");
    difference(long, short, inside)?
        .into_iter()
        .zip(long)
        .map(|(d, &n)| {
            d.checked_mul(r)
                .and_then(|c| c.checked_add(i64::try_from(n).ok()?))
                .and_then(|v| u64::try_from(v).ok())
                .ok_or_else(overflow)
        })
        .collect()
}

/// `t(n) − t(n − Δ)`: the tiles the last `Δ` values add, at least 0 (the shorter domain's tiles
/// are some of the longer's, at the same wavefronts); `short` from entry `inside` of `long` on.
fn difference(long: &[u64], short: &[u64], inside: usize) -> Result<Vec<i64>> {
    let overflow = || TileModelError::Overflow("inter-tile counts by period");
    let mut difference: Vec<i64> =
        long.iter().map(|&n| i64::try_from(n).map_err(|_| overflow())).collect::<Result<_>>()?;
    for (i, &n) in short.iter().enumerate() {
        let d = difference.get_mut(inside + i).ok_or_else(bug)?;
        *d = d.checked_sub(i64::try_from(n).map_err(|_| overflow())?).filter(|&v| v >= 0).ok_or_else(bug)?;
    }
    Ok(difference)
}

fn bug() -> TileModelError {
    TileModelError::InvalidInput("a shorter domain has more tiles than a longer one (a counting bug)".into())
}
