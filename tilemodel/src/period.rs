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
//! So [`by_period`] counts the domain with the iterator cut to `n` and to `n − Δ` (the least
//! lengths for which both identities hold, plus less than `Δ`), and adds the shifted copies of
//! their difference with one running sum per residue of `δ` — `O(wavefronts)` instead of a
//! count over the whole range; the short counts are made the same way along another long
//! iterator, if any. Only for bands of one statement with instances (with several, the tiles of
//! one statement at one end and another at the other end would need more than the identities
//! above). `tests/counting.rs` compares it with [`crate::inter::count_tiles_by_rows`].

use crate::error::{Result, TileModelError};
use crate::inter::{cost_of_ranges, InterTileCounts};
use crate::shape::{BandShape, StatementShape};

/// The iterator a count by period shortens, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Period {
    /// The statement and its iterator.
    statement: usize,
    iterator: usize,
    /// `Δ`: the least step of the iterator that moves tile corners to tile corners.
    step: i64,
    /// `δ`: how far that step moves a tile's wavefront.
    shift: i64,
    /// The length counted (`n`; the one below it is `n − Δ`), and the steps `r` added to it.
    counted: i64,
    repeats: i64,
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

impl Period {
    /// The period of `shape` at `sizes` whose short counts cost the least, if counting by it
    /// costs less than half the direct count: two counts ([`cost_of_ranges`], tile-row
    /// prefixes) and the sums over the `span` wavefronts (about a thirty-second of a prefix's
    /// work each).
    fn of(shape: &BandShape, sizes: &[i64], span: usize, always: bool) -> Option<Period> {
        let mut active = shape.statements.iter().enumerate().filter(|(_, s)| s.instances() > 0);
        let (statement, s) = active.next()?;
        if active.next().is_some() {
            return None;
        }
        let direct = cost_of_ranges(&shape.row_ranges(), sizes, shape.statements.len());
        let mut best: Option<(u64, Period)> = None;
        for j in 0..s.lower.len() {
            let len = s.upper[j].checked_sub(s.lower[j])?.checked_add(1)?;
            // Δ = lcm_k s_k / gcd(s_k, c_k), and the box's spread along the inverse's row j.
            let mut step = 1i64;
            let mut spread = 0i64;
            for (k, &size) in sizes.iter().enumerate() {
                let c = *s.map.get(k)?.get(j)?;
                if c != 0 {
                    let need = size / gcd(size, c);
                    step = step.checked_mul(need / gcd(step, need))?;
                }
                let n = *s.inverse.get(j)?.get(k)?;
                spread = spread.checked_add(n.checked_abs()?.checked_mul(size - 1)?)?;
            }
            // Both identities hold from this length on (module documentation); one step more
            // at least, or nothing repeats.
            let least = step.checked_add(1)?.checked_add(spread)?;
            if len < least.checked_add(step)? {
                continue;
            }
            let repeats = (len - least) / step;
            let counted = len - repeats * step;
            // The rows' ranges with the iterator cut (the statement is the band's only one).
            let mut cut = s.clone();
            cut.upper[j] = cut.lower[j] + counted - 1;
            let ranges: Vec<(i64, i64)> = (0..shape.width).map(|k| row_range(&cut, k)).collect::<Option<_>>()?;
            let cost = cost_of_ranges(&ranges, sizes, shape.statements.len());
            if best.is_some_and(|(c, _)| c <= cost) {
                continue;
            }
            let mut shift = 0i64;
            for (k, &size) in sizes.iter().enumerate() {
                shift = shift.checked_add(step.checked_mul(s.map[k][j])? / size)?;
            }
            best = Some((cost, Period { statement, iterator: j, step, shift, counted, repeats }));
        }
        let (cost, period) = best?;
        let sums = (span as u64) / 32;
        (always || cost.saturating_mul(4).saturating_add(sums) < direct).then_some(period)
    }

    /// `shape` with the period's iterator cut to `length` values.
    fn cut(&self, shape: &BandShape, length: i64) -> BandShape {
        let mut short = shape.clone();
        let s = &mut short.statements[self.statement];
        s.upper[self.iterator] = s.lower[self.iterator] + length - 1;
        short
    }
}

/// The range of band row `k` over `s`'s domain (`BandShape::row_ranges` of one statement), or
/// `None` past 64 bits.
fn row_range(s: &StatementShape, k: usize) -> Option<(i64, i64)> {
    let mut lo = i128::from(*s.shift.get(k)?);
    let mut hi = lo;
    for (j, &c) in s.map.get(k)?.iter().enumerate() {
        let (x, y) = (i128::from(c) * i128::from(s.lower[j]), i128::from(c) * i128::from(s.upper[j]));
        lo += x.min(y);
        hi += x.max(y);
    }
    Some((i64::try_from(lo).ok()?, i64::try_from(hi).ok()?))
}

/// The counts of `shape` at `sizes` (`span` wavefronts at most) from counts (by `count`) of the
/// domain cut along an iterator whose tiles repeat, when that costs less (module
/// documentation); `None` when it would not (`always`: whenever an iterator repeats, which the
/// tests compare with the direct count).
pub(crate) fn by_period(
    shape: &BandShape,
    sizes: &[i64],
    span: usize,
    always: bool,
    count: &mut dyn FnMut(&BandShape) -> Result<InterTileCounts>,
) -> Option<Result<InterTileCounts>> {
    let period = Period::of(shape, sizes, span, always)?;
    Some(compose(&period, shape, count))
}

fn compose(
    period: &Period,
    shape: &BandShape,
    count: &mut dyn FnMut(&BandShape) -> Result<InterTileCounts>,
) -> Result<InterTileCounts> {
    let long = count(&period.cut(shape, period.counted))?;
    let short = count(&period.cut(shape, period.counted - period.step))?;
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
    let mut tiles = spread(&long.tiles, &short.tiles, inside, before, period, span)?;
    let mut full = spread(&long.full, &short.full, inside, before, period, span)?;
    // As a direct count: from the first to the last wavefront with tiles.
    let first = tiles.iter().position(|&t| t > 0).unwrap_or(0);
    let last = tiles.iter().rposition(|&t| t > 0).map_or(first, |l| l + 1);
    tiles.truncate(last);
    full.truncate(last);
    tiles.drain(..first);
    full.drain(..first);
    Ok(InterTileCounts { first_wavefront: lo + first as i64, tiles, full })
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
    out.into_iter().map(|n| u64::try_from(n).map_err(|_| overflow())).collect()
}
