//! The closed-form count of the last two tile coordinates at a fixed prefix
//! (`crate::inter`'s "Faster" steps 1–3): the lines of each facet in the plane of
//! `(u, v) = (T_{m−2}, T_{m−1})` ([`Line`]), the ceiling of their pointwise maximum as pieces
//! ([`Envelope`]), and one polygon's lower and upper envelopes over its `u` range ([`Sweep`]);
//! with the exact integer helpers they need.

use super::gcd;
use crate::error::{Result, TileModelError};

/// `a·b`, an error on overflow.
#[inline]
pub(super) fn mul(a: i128, b: i128) -> Result<i128> {
    if let (Ok(x), Ok(y)) = (i64::try_from(a), i64::try_from(b)) {
        // Cannot overflow, and one machine multiplication (the checked 128-bit one is a call).
        return Ok(i128::from(x) * i128::from(y));
    }
    a.checked_mul(b).ok_or(TileModelError::Overflow("tile facets"))
}

/// `a − b`, an error on overflow.
#[inline]
pub(super) fn sub(a: i128, b: i128) -> Result<i128> {
    a.checked_sub(b).ok_or(TileModelError::Overflow("tile facets"))
}

/// `⌊a / b⌋` for `b ≠ 0` (either sign).
fn floor_any(a: i128, b: i128) -> i128 {
    if b < 0 {
        floor_i128(-a, -b)
    } else {
        floor_i128(a, b)
    }
}

/// The line `ℓ(u) = (c − a·u) / b` (`b > 0`) of one facet in the plane of the last two tile
/// coordinates `(u, v) = (T_{m−2}, T_{m−1})`.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Line {
    pub(super) a: i128,
    pub(super) b: i128,
    pub(super) c: i128,
}

impl Line {
    /// The sign of `self(u) − other(u)`: of `(c − a·u)·b' − (c' − a'·u)·b`.
    fn compare_at(&self, other: &Line, u: i128) -> Result<std::cmp::Ordering> {
        let x = mul(sub(self.c, mul(self.a, u)?)?, other.b)?;
        let y = mul(sub(other.c, mul(other.a, u)?)?, self.b)?;
        Ok(x.cmp(&y))
    }

    /// `a·b' − a'·b`: negative iff `self` rises faster than `other` (slope `−a/b`).
    #[inline]
    pub(super) fn slope_gap(&self, other: &Line) -> Result<i128> {
        sub(mul(self.a, other.b)?, mul(other.a, self.b)?)
    }
}

/// What `Counter::progressions` (`inter/counter.rs`) derives from a line's direction `(a, b)`
/// alone: `p = b − a`, the period `b/g` and stride `p/g` (`g = gcd(a, b)`), and the quotient
/// and remainder of `p` and of `−p` by `b` ([`Stepper`]'s `k`, `d`; `None` where they do not
/// fit 64 bits).
#[derive(Debug, Clone, Copy)]
pub(super) struct Direction {
    pub(super) a: i64,
    pub(super) b: i64,
    pub(super) p: i64,
    pub(super) period: i64,
    pub(super) stride: i64,
    pub(super) up: Option<(i64, i64)>,
    pub(super) down: Option<(i64, i64)>,
    /// The index in `Counter::strided` of the marks of its stride, for the tiles and for the
    /// full tiles, once known (the strided arrays live as long as the count's directions).
    pub(super) marks: [Option<usize>; 2],
}

impl Direction {
    /// `None` when `b − a` overflows (`b > 0`).
    pub(super) fn new(a: i64, b: i64) -> Option<Direction> {
        let p = b.checked_sub(a)?;
        let g = gcd(a.checked_abs()?, b);
        let parts = |step: i128| -> Option<(i64, i64)> {
            let b = i128::from(b);
            Some((i64::try_from(step.div_euclid(b)).ok()?, i64::try_from(step.rem_euclid(b)).ok()?))
        };
        Some(Direction {
            a,
            b,
            p,
            period: b / g,
            stride: p / g,
            up: parts(i128::from(p)),
            down: parts(-i128::from(p)),
            marks: [None; 2],
        })
    }
}

/// `⌊(n₀ + i·step) / b⌋` for `i = 0, 1, …` by additions: the quotient and the remainder in
/// `[0, b)` carried from one `i` to the next (exact: `n + step = (q + k)·b + (r + d)` with
/// `step = k·b + d`, `0 ≤ d < b`, and one carry when `r + d ≥ b`).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Stepper {
    pub(super) q: i64,
    r: i64,
    b: i64,
    k: i64,
    d: i64,
}

impl Stepper {
    /// The sequence from `n0`; its values up to `i = steps` must fit in 64 bits.
    fn new(n0: i128, step: i128, b: i128, steps: i128) -> Result<Stepper> {
        let overflow = || TileModelError::Overflow("tile facets");
        let last = n0.checked_add(mul(step, steps)?).ok_or_else(overflow)?;
        let fits = |v: i128| i64::try_from(v).map_err(|_| overflow());
        // Both ends fit, so every quotient in between does (they are monotone); `r + d < 2b`.
        fits(floor_i128(last, b))?;
        if b > i128::from(i64::MAX / 2) {
            return Err(overflow());
        }
        if let (Ok(n0), Ok(step), Ok(b)) = (i64::try_from(n0), i64::try_from(step), i64::try_from(b)) {
            // The same in 64 bits (several times faster than the 128-bit division routines).
            return Ok(Stepper {
                q: n0.div_euclid(b),
                r: n0.rem_euclid(b),
                b,
                k: step.div_euclid(b),
                d: step.rem_euclid(b),
            });
        }
        Ok(Stepper {
            q: fits(floor_i128(n0, b))?,
            r: fits(n0.rem_euclid(b))?,
            b: fits(b)?,
            k: fits(step.div_euclid(b))?,
            d: fits(step.rem_euclid(b))?,
        })
    }

    /// [`Stepper::new`] with `step`'s quotient and remainder by `b` known (`parts`, from
    /// [`Direction`]): the same stepper, without their divisions when every value fits 64 bits
    /// (else, or without `parts`, [`Stepper::new`] itself).
    #[inline]
    pub(super) fn stepping(n0: i128, step: i128, b: i128, steps: i128, parts: Option<(i64, i64)>) -> Result<Stepper> {
        let last = n0.checked_add(mul(step, steps)?).ok_or(TileModelError::Overflow("tile facets"))?;
        match (parts, i64::try_from(n0), i64::try_from(last), i64::try_from(b)) {
            // `last` fits, so its quotient does (`b ≥ 1`): `new`'s checks pass, and its 64-bit
            // path computes these same numbers.
            (Some((k, d)), Ok(n0), Ok(_), Ok(b)) if b <= i64::MAX / 2 && b > 0 => {
                Ok(Stepper { q: n0.div_euclid(b), r: n0.rem_euclid(b), b, k, d })
            }
            _ => Stepper::new(n0, step, b, steps),
        }
    }

    /// The next value. The one after the last value asked for may not fit and is never read:
    /// the quotient wraps there.
    #[inline]
    pub(super) fn advance(&mut self) {
        self.q = self.q.wrapping_add(self.k);
        self.r += self.d;
        if self.r >= self.b {
            self.r -= self.b;
            self.q = self.q.wrapping_add(1);
        }
    }
}

/// The pointwise maximum of lines over the integers `u1..=u2` as pieces (first `u`, line), and
/// its ceiling stepped along `u`. `⌈max_f ℓ_f(u)⌉ = max_f ⌈ℓ_f(u)⌉` (the ceiling is monotone),
/// so on each piece one line's ceiling is the bound.
#[derive(Debug, Clone, Default)]
pub(super) struct Envelope {
    pub(super) pieces: Vec<(i64, Line)>,
    /// Whether its lines and range are within [`small_lines`]' bounds (so are its pieces').
    pub(super) small: bool,
    /// Scratch: the lines, one per `(a, b)`.
    parallel: Vec<Line>,
    end: i64,
    at: usize,
    next: i64,
    step: Stepper,
}

impl Envelope {
    /// The pieces of `max(lines)` on `u1..=u2` (`u1 ≤ u2`, `lines` not empty): start with the
    /// highest line at `u1` (on a tie the one rising fastest); the next piece starts at the first
    /// integer where a line rising faster than the current one exceeds it — `ℓ(u) > ℓ_c(u)` iff
    /// `u·(a·b_c − a_c·b) < c·b_c − c_c·b` with `a·b_c − a_c·b < 0`, i.e.
    /// `u ≥ ⌊(c·b_c − c_c·b) / (a·b_c − a_c·b)⌋ + 1` — and is the highest line there. The
    /// maximum is convex, so slopes only grow and there are at most `lines.len()` pieces.
    pub(super) fn build(&mut self, all: &[Line], u1: i64, u2: i64) -> Result<()> {
        // Facets that differ only in the prefix coordinates give parallel lines with the same
        // `(a, b)`: only the highest of them can be the maximum.
        let mut parallel = std::mem::take(&mut self.parallel);
        parallel.clear();
        for l in all {
            match parallel.iter_mut().find(|p| p.a == l.a && p.b == l.b) {
                Some(p) => p.c = p.c.max(l.c),
                None => parallel.push(*l),
            }
        }
        let built = self.build_pieces(&parallel, u1, u2);
        self.parallel = parallel;
        built
    }

    /// [`Envelope::build`] for lines of distinct directions (no two with the same `(a, b)`).
    pub(super) fn build_distinct(&mut self, lines: &[Line], u1: i64, u2: i64) -> Result<()> {
        self.build_pieces(lines, u1, u2)
    }

    /// The pieces of the maximum of `lines`, of distinct directions (see [`Envelope::build`]).
    fn build_pieces(&mut self, lines: &[Line], u1: i64, u2: i64) -> Result<()> {
        self.small = small_lines(lines, u1, u2);
        if self.small {
            self.build_small_pieces(lines, u1, u2);
            return Ok(());
        }
        self.build_wide_pieces(lines, u1, u2)
    }

    /// [`Envelope::build_pieces`] in checked 128-bit arithmetic (any lines).
    fn build_wide_pieces(&mut self, lines: &[Line], u1: i64, u2: i64) -> Result<()> {
        self.pieces.clear();
        self.end = u2;
        let mut u = i128::from(u1);
        let mut current = highest(lines, u)?;
        self.pieces.push((u1, current));
        loop {
            // The next piece's line is the highest at `n` (on a tie the one rising fastest), and
            // only the lines that first exceed the current one at `n` can be: the others rising
            // faster are still below it there, and those rising no faster stay below it (the
            // current line is the highest at `u` ≤ `n`). So `highest` over those alone, as the
            // crossings are found.
            let mut next: Option<(i128, Line)> = None;
            let last = i128::from(u2);
            for l in lines {
                let gap = l.slope_gap(&current)?;
                if gap >= 0 {
                    continue;
                }
                let e = sub(mul(l.c, current.b)?, mul(current.c, l.b)?)?;
                // `first = ⌊e / gap⌋ + 1` is at most `n` (the best so far, or `u2` past which no
                // piece starts) iff `⌊e / gap⌋ < n`, iff `e / gap < n`, iff `e > gap·n` (`gap <
                // 0`): the others can neither start the next piece nor tie with it, and are
                // passed without their division.
                let limit = next.map_or(last, |(n, _)| n.min(last));
                if e <= mul(gap, limit)? {
                    continue;
                }
                let first = floor_any(e, gap) + 1;
                next = match next {
                    None => Some((first, *l)),
                    Some((n, _)) if first < n => Some((first, *l)),
                    Some((n, best)) if first == n => {
                        let better = match l.compare_at(&best, n)? {
                            std::cmp::Ordering::Greater => true,
                            std::cmp::Ordering::Equal => l.slope_gap(&best)? < 0,
                            std::cmp::Ordering::Less => false,
                        };
                        Some((n, if better { *l } else { best }))
                    }
                    keep => keep,
                };
            }
            match next {
                Some((n, line)) if n <= i128::from(u2) => {
                    debug_assert!(n > u);
                    u = n;
                    debug_assert!(highest(lines, u).is_ok_and(|h| h.compare_at(&line, u).is_ok_and(|o| o.is_eq())));
                    current = line;
                    self.pieces.push((n as i64, current));
                }
                _ => return Ok(()),
            }
        }
    }

    /// [`Envelope::build_pieces`] in 64-bit arithmetic, for lines and a range within
    /// [`small_lines`]' bounds (the search's counts: the 128-bit products and their overflow
    /// checks were most of the envelopes' time). Every product below stays under `2^62` there
    /// (`|a|, |b|, |u| < 2^20`, `|c| < 2^40`: slope gaps under `2^41`, `c·b'` under `2^60`,
    /// `gap·n` under `2^61`, `(c − a·u)·b'` under `2^61`), so each value is the 128-bit one
    /// and the pieces are the same: the same highest line at `u1`, the same crossings
    /// `⌊e / gap⌋ + 1`, the same ties.
    fn build_small_pieces(&mut self, lines: &[Line], u1: i64, u2: i64) {
        self.pieces.clear();
        self.end = u2;
        let narrow = |l: &Line| (l.a as i64, l.b as i64, l.c as i64);
        // `a·b' − a'·b`, and the order of the two lines' values at `u` (`Line::compare_at`).
        let gap = |x: (i64, i64, i64), y: (i64, i64, i64)| x.0 * y.1 - y.0 * x.1;
        let compare =
            |x: (i64, i64, i64), y: (i64, i64, i64), u: i64| ((x.2 - x.0 * u) * y.1).cmp(&((y.2 - y.0 * u) * x.1));
        // Whether `x` is above `y` at `u`, or level with it and rising faster (`highest`).
        let better = |x: (i64, i64, i64), y: (i64, i64, i64), u: i64| match compare(x, y, u) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => gap(x, y) < 0,
            std::cmp::Ordering::Less => false,
        };
        let mut current = 0;
        for i in 1..lines.len() {
            if better(narrow(&lines[i]), narrow(&lines[current]), u1) {
                current = i;
            }
        }
        self.pieces.push((u1, lines[current]));
        loop {
            let c = narrow(&lines[current]);
            let mut next: Option<(i64, usize)> = None;
            for (i, l) in lines.iter().enumerate() {
                let x = narrow(l);
                let g = gap(x, c);
                if g >= 0 {
                    continue;
                }
                let e = x.2 * c.1 - c.2 * x.1;
                let limit = next.map_or(u2, |(n, _)| n.min(u2));
                if e <= g * limit {
                    continue;
                }
                // ⌊e / g⌋ + 1 with g < 0.
                let first = (-e).div_euclid(-g) + 1;
                next = match next {
                    Some((n, best)) if first == n => {
                        Some((n, if better(x, narrow(&lines[best]), n) { i } else { best }))
                    }
                    _ => Some((first, i)),
                };
            }
            match next {
                Some((n, i)) if n <= u2 => {
                    current = i;
                    self.pieces.push((n, lines[i]));
                }
                _ => return,
            }
        }
    }

    /// Positions the stepping at the first piece.
    pub(super) fn start(&mut self) -> Result<()> {
        self.at = 0;
        self.enter()
    }

    fn enter(&mut self) -> Result<()> {
        let (u, line) = self.pieces[self.at];
        self.next = self.pieces.get(self.at + 1).map_or(i64::MAX, |p| p.0);
        let last = self.next.saturating_sub(1).min(self.end);
        // ⌈(c − a·u)/b⌉ = −⌊(a·u − c)/b⌋.
        let n0 = sub(mul(line.a, i128::from(u))?, line.c)?;
        self.step = Stepper::new(n0, line.a, line.b, i128::from(last) - i128::from(u))?;
        Ok(())
    }

    /// `⌈max_f ℓ_f(u)⌉`, for `u` = the first `u`, then every next one in turn.
    #[inline]
    fn ceil_next(&mut self, u: i64) -> Result<i64> {
        if u == self.next {
            self.at += 1;
            self.enter()?;
        }
        let v = -self.step.q;
        self.step.advance();
        Ok(v)
    }
}

/// Whether [`Envelope::build_small_pieces`] may build the envelope of `lines` on `u1..=u2` in
/// 64 bits: `|a|, |b|, |u1|, |u2| < 2^20` and `|c| < 2^40`.
fn small_lines(lines: &[Line], u1: i64, u2: i64) -> bool {
    const COEFFICIENT: u128 = 1 << 20;
    const CONSTANT: u128 = 1 << 40;
    u128::from(u1.unsigned_abs()) < COEFFICIENT
        && u128::from(u2.unsigned_abs()) < COEFFICIENT
        && lines.iter().all(|l| {
            l.a.unsigned_abs() < COEFFICIENT && l.b.unsigned_abs() < COEFFICIENT && l.c.unsigned_abs() < CONSTANT
        })
}

/// The highest of `lines` at `u`, on a tie the one rising fastest.
fn highest(lines: &[Line], u: i128) -> Result<Line> {
    let mut best = lines[0];
    for l in &lines[1..] {
        let better = match l.compare_at(&best, u)? {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => l.slope_gap(&best)? < 0,
            std::cmp::Ordering::Less => false,
        };
        if better {
            best = *l;
        }
    }
    Ok(best)
}

/// One polygon of the last two tile coordinates at a fixed prefix: `u` in `lo..=hi`,
/// `⌈max lower lines⌉ ≤ v ≤ ⌊min upper lines⌋`. Upper lines are kept negated
/// (`⌊min ℓ⌋ = −⌈max (−ℓ)⌉`) so that both bounds are [`Envelope`]s.
#[derive(Debug, Clone, Default)]
pub(super) struct Sweep {
    pub(super) lo: i64,
    pub(super) hi: i64,
    pub(super) lower_lines: Vec<Line>,
    pub(super) upper_lines: Vec<Line>,
    pub(super) lower: Envelope,
    pub(super) upper: Envelope,
}

impl Sweep {
    pub(super) fn clear(&mut self, lo: i64, hi: i64) {
        self.lo = lo;
        self.hi = hi;
        self.lower_lines.clear();
        self.upper_lines.clear();
    }

    /// Adds `lo ≤ a·u + b·v ≤ hi`; `false` when it leaves no point for any `u`.
    pub(super) fn constrain(&mut self, mut a: i128, mut b: i128, mut lo: i128, mut hi: i128) -> Result<bool> {
        if b < 0 {
            (a, b, lo, hi) = (-a, -b, -hi, -lo);
        }
        if b > 0 {
            // v ≥ (lo − a·u)/b and v ≤ (hi − a·u)/b, i.e. −v ≥ (−hi + a·u)/b.
            self.lower_lines.push(Line { a, b, c: lo });
            self.upper_lines.push(Line { a: -a, b, c: -hi });
            return Ok(true);
        }
        if a < 0 {
            (a, lo, hi) = (-a, -hi, -lo);
        }
        if a == 0 {
            return Ok(lo <= 0 && 0 <= hi);
        }
        // lo ≤ a·u ≤ hi with a > 0: clamp the u range (to within the old one, so it fits).
        let l = (-floor_i128(-lo, a)).max(i128::from(self.lo));
        let h = floor_i128(hi, a).min(i128::from(self.hi));
        if l > h {
            (self.lo, self.hi) = (1, 0);
            return Ok(false);
        }
        (self.lo, self.hi) = (l as i64, h as i64);
        Ok(true)
    }

    /// [`Sweep::build`] for lines of distinct directions (no two with the same `(a, b)`).
    pub(super) fn build_distinct(&mut self) -> Result<()> {
        if self.lower_lines.is_empty() || self.upper_lines.is_empty() {
            return Err(TileModelError::InvalidInput("a tile polytope is unbounded along its last row".into()));
        }
        self.lower.build_distinct(&self.lower_lines, self.lo, self.hi)?;
        self.upper.build_distinct(&self.upper_lines, self.lo, self.hi)
    }

    /// Builds both envelopes on `lo..=hi` (not empty).
    pub(super) fn build(&mut self) -> Result<()> {
        if self.lower_lines.is_empty() || self.upper_lines.is_empty() {
            // A bounded polytope has a facet with a non-zero last coefficient at every level.
            return Err(TileModelError::InvalidInput("a tile polytope is unbounded along its last row".into()));
        }
        self.lower.build(&self.lower_lines, self.lo, self.hi)?;
        self.upper.build(&self.upper_lines, self.lo, self.hi)
    }

    /// Builds both envelopes and positions their stepping at `lo`.
    pub(super) fn start(&mut self) -> Result<()> {
        self.build()?;
        self.lower.start()?;
        self.upper.start()
    }

    /// The intersection of the polygons `sweeps[s]`, `s` in `members` (their lines together).
    pub(super) fn intersect(&mut self, sweeps: &[Sweep], members: impl Iterator<Item = usize> + Clone) {
        let lo = members.clone().map(|s| sweeps[s].lo).max().unwrap_or(1);
        let hi = members.clone().map(|s| sweeps[s].hi).min().unwrap_or(0);
        self.clear(lo, hi);
        for s in members {
            self.lower_lines.extend_from_slice(&sweeps[s].lower_lines);
            self.upper_lines.extend_from_slice(&sweeps[s].upper_lines);
        }
    }

    /// The interval of `v` at `u` when `u` is in range and it is not empty; `u` must run through
    /// `lo..=hi` in order (values outside are skipped without stepping).
    #[inline]
    pub(super) fn next(&mut self, u: i64) -> Result<Option<(i64, i64)>> {
        if u < self.lo || u > self.hi {
            return Ok(None);
        }
        let lo = self.lower.ceil_next(u)?;
        let hi = -self.upper.ceil_next(u)?;
        Ok((lo <= hi).then_some((lo, hi)))
    }
}

/// Sorts and merges closed intervals in place (adjacent ones join: they cover consecutive
/// wavefronts the same way).
pub(super) fn merge_in_place(v: &mut Vec<(i64, i64)>) {
    v.sort_unstable();
    let mut n = 0;
    for i in 0..v.len() {
        let (lo, hi) = v[i];
        if n > 0 && lo <= v[n - 1].1.saturating_add(1) {
            v[n - 1].1 = v[n - 1].1.max(hi);
        } else {
            v[n] = (lo, hi);
            n += 1;
        }
    }
    v.truncate(n);
}

/// Sorted, merged closed intervals.
pub(super) fn merge(mut v: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    v.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(v.len());
    for (lo, hi) in v {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// `⌊a / b⌋`. The counts' operands almost always fit in 64 bits, where division is several
/// times cheaper than the 128-bit library routine (which dominated the search's time).
#[inline]
pub(super) fn floor_i128(a: i128, b: i128) -> i128 {
    match (i64::try_from(a), i64::try_from(b)) {
        (Ok(x), Ok(y)) if y != -1 => i128::from(x.div_euclid(y)),
        _ => a.div_euclid(b),
    }
}

/// `⌈a / b⌉`.
#[inline]
pub(super) fn ceil_i128(a: i128, b: i128) -> i128 {
    -floor_i128(-a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_and_ceiling_agree_with_128_bit_division() {
        let big = i128::from(i64::MAX);
        for a in [-7i128, -6, -1, 0, 1, 6, 7, big, -big - 1, big + 5, -big - 9] {
            for b in [1i128, 2, 3, 7, big, big + 3] {
                assert_eq!(floor_i128(a, b), a.div_euclid(b), "{a} / {b}");
                assert_eq!(ceil_i128(a, b), -((-a).div_euclid(b)), "{a} / {b}");
            }
        }
    }

    /// The 64-bit envelopes are the 128-bit ones, piece for piece (the same starts, the same
    /// lines, ties included), on random lines of distinct directions within `small_lines`'
    /// bounds, many of them parallel-ish and crossing at or between integers.
    #[test]
    fn small_envelopes_are_the_wide_ones() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        let mut differing_pieces = 0;
        for round in 0..20_000 {
            let count = 1 + next(6) as usize;
            let mut lines: Vec<Line> = Vec::new();
            while lines.len() < count {
                let scale = if round % 3 == 0 { 1 } else { 1 + next(40) as i128 };
                let a = (next(9) as i128 - 4) * scale;
                let b = (1 + next(4) as i128) * scale;
                let c = next(2001) as i128 - 1000 + if round % 5 == 0 { (1 << 39) - 5000 } else { 0 };
                if !lines.iter().any(|l| l.a == a && l.b == b) {
                    lines.push(Line { a, b, c });
                }
            }
            let u1 = next(200) as i64 - 100;
            let u2 = u1 + next(300) as i64;
            assert!(small_lines(&lines, u1, u2));
            let (mut small, mut wide) = (Envelope::default(), Envelope::default());
            small.build_small_pieces(&lines, u1, u2);
            wide.build_wide_pieces(&lines, u1, u2).unwrap();
            let key = |e: &Envelope| e.pieces.iter().map(|(u, l)| (*u, l.a, l.b, l.c)).collect::<Vec<_>>();
            assert_eq!(key(&small), key(&wide), "lines {lines:?} on {u1}..={u2}");
            differing_pieces += usize::from(small.pieces.len() > 1);
        }
        // The envelopes have several pieces often enough to test the crossings.
        assert!(differing_pieces > 2_000, "{differing_pieces}");
    }
}
