//! Redundancy removal for large constraint systems by Clarkson's algorithm (K. L. Clarkson,
//! "More output-sensitive geometric algorithms", FOCS 1994; the method cdd and other
//! polyhedral libraries use for large systems).
//!
//! The plain method ([`System::remove_redundant_plain`]) solves one linear program per
//! inequality over *all* the other rows: `m` programs of `m` rows. Clarkson's keeps the rows
//! already known to be needed (`kept`) and tests each candidate `f_h ≥ 0` against those alone:
//!
//! 1. `min f_h` subject to the equalities, the context, `kept` and `f_h ≥ −1`. If the minimum
//!    is `≥ 0`, the kept rows imply `f_h ≥ 0` and `h` is redundant.
//! 2. Otherwise the optimum `x` violates `f_h` while satisfying every kept row (and every row
//!    dropped so far, which the kept rows imply). Walking from a point `z` of the set towards
//!    `x`, the first undecided row the segment leaves is needed: just past that crossing a
//!    point violates it and satisfies every other row. That row joins `kept` and `h` is tested
//!    again.
//!
//! Every program has at most as many rows as the result, so a system whose needed part is small
//! costs little even with a thousand rows (the Farkas systems of multi-statement scheduling
//! problems: 1 120 rows, 41 needed, for the MLSOR rewrite of 2-D SOR).
//!
//! The walk needs `z` positive on every row it may cross: a point in the relative interior,
//! where only the implicit equalities (rows zero on the whole set, common in Farkas systems)
//! are zero. Those are found by a few programs that lift the rows zero at the current point
//! ([`relative_interior`]) and decided last, mostly by the plain program. Rows that coincide
//! on the set's affine hull are crossed together, so of each such class only the tightest is
//! kept up front ([`hull_duplicates`]), and `z` is moved off the vertex the programs return in
//! a fixed pseudo-random direction, so that two rows are rarely crossed at one point. Where
//! they are anyway, or exact arithmetic would overflow, the candidate takes the plain program:
//! the outcome is always an exact description of the same set.

use std::cmp::Ordering;

use crate::affine::AffineForm;
use crate::error::Result;
use crate::limits::Limits;
use crate::lp::rational::Rational;
use crate::lp::simplex::{solve, LpOutcome};
use crate::system::System;

/// Systems with at most this many inequalities keep the plain method, so that small systems —
/// dependence polyhedra, tilings, what the lit tests print — keep the very rows they had where
/// the irredundant description is not unique (implicit equalities). Clarkson's is faster from
/// small sizes on (random full-dimensional systems of 4 columns, release: 2.4× at 16–48 rows,
/// 4–5× at 64–128), so the bound could come down once those outputs are re-checked.
pub(crate) const CLARKSON_MIN_ROWS: usize = 64;

/// What is known about an inequality.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Status {
    Undecided,
    Kept,
    Dropped,
}

/// A rational point as integer numerators over one positive denominator, so that a form's
/// value times the denominator is an integer.
struct Scaled {
    numerators: Vec<i128>,
    denominator: i128,
}

impl Scaled {
    /// `None` when the common denominator overflows.
    fn of(point: &[Rational]) -> Option<Scaled> {
        let mut denominator: i128 = 1;
        for r in point {
            let g = i128::try_from(crate::int::gcd_i128(denominator, r.denominator())).ok()?.max(1);
            denominator = denominator.checked_mul(r.denominator() / g)?;
        }
        let numerators =
            point.iter().map(|r| r.numerator().checked_mul(denominator / r.denominator())).collect::<Option<_>>()?;
        Some(Scaled { numerators, denominator })
    }

    /// `(self + other) / 2`, or `None` on overflow.
    fn midpoint(&self, other: &Scaled) -> Option<Scaled> {
        let numerators = self
            .numerators
            .iter()
            .zip(&other.numerators)
            .map(|(&a, &b)| a.checked_mul(other.denominator)?.checked_add(b.checked_mul(self.denominator)?))
            .collect::<Option<Vec<_>>>()?;
        let denominator = self.denominator.checked_mul(other.denominator)?.checked_mul(2)?;
        Scaled { numerators, denominator }.reduced()
    }

    /// The same point with the common factor of its numerators and denominator divided out.
    fn reduced(self) -> Option<Scaled> {
        let g = self
            .numerators
            .iter()
            .fold(self.denominator.unsigned_abs(), |g, &x| crate::int::gcd_u128(g, x.unsigned_abs()));
        let g = i128::try_from(g).ok()?.max(1);
        Some(Scaled { numerators: self.numerators.iter().map(|x| x / g).collect(), denominator: self.denominator / g })
    }

    /// `f(point) · denominator`, or `None` on overflow.
    fn value(&self, f: &AffineForm) -> Option<i128> {
        i128::from(f.constant()).checked_mul(self.denominator)?.checked_add(dot(f.coeffs(), &self.numerators)?)
    }
}

/// `Σ_k a_k·v_k` of a form's coefficients and a vector, or `None` on overflow.
fn dot(a: &[i64], v: &[i128]) -> Option<i128> {
    a.iter()
        .zip(v)
        .filter(|(&c, _)| c != 0)
        .try_fold(0i128, |acc, (&c, &x)| acc.checked_add(i128::from(c).checked_mul(x)?))
}

/// A point strictly inside `sys ∩ context` relative to the equalities (every inequality of
/// `sys` positive there; the context's may be tight), or `None` when there is none.
pub(crate) fn strict_interior_point(
    sys: &System,
    context: &[AffineForm],
    limits: &Limits,
) -> Result<Option<Vec<Rational>>> {
    Ok(match deepest_point(sys, context, limits)? {
        Some((point, true)) => Some(point),
        _ => None,
    })
}

/// One program: maximise `ε ≤ 1` subject to `f_i ≥ ε` for the inequalities of `sys` (the
/// context's `≥ 0`). The optimum's point and whether `ε > 0` there; `None` when the set is
/// empty (`ε < 0`: the point is outside it).
fn deepest_point(sys: &System, context: &[AffineForm], limits: &Limits) -> Result<Option<(Vec<Rational>, bool)>> {
    let n = sys.n + 1;
    let widen = |f: &AffineForm, eps: i64| -> Result<AffineForm> {
        let mapping: Vec<usize> = (0..sys.n).collect();
        let mut g = f.remap(n, &mapping)?;
        g.set_coeff(sys.n, eps);
        Ok(g)
    };
    let eqs = sys.eqs.iter().map(|e| widen(e, 0)).collect::<Result<Vec<_>>>()?;
    let mut ineqs = sys.ineqs.iter().map(|f| widen(f, -1)).collect::<Result<Vec<_>>>()?;
    for f in context {
        ineqs.push(widen(f, 0)?);
    }
    ineqs.push(AffineForm::from_terms(n, &[(sys.n, -1)], 1)?);
    let objective = AffineForm::from_terms(n, &[(sys.n, -1)], 0)?;
    Ok(match solve(n, &eqs, &[&ineqs], Some(&objective), limits)? {
        // The objective is −ε.
        LpOutcome::Optimal { value, mut point } if value.numerator() <= 0 => {
            point.truncate(sys.n);
            Some((point, value.numerator() < 0))
        }
        // ε < 0, or no ε at all (contradictory equalities): the set is empty.
        LpOutcome::Optimal { .. } | LpOutcome::Infeasible | LpOutcome::Unbounded => None,
    })
}

/// Most rounds [`relative_interior`] spends moving its point off rows that are not implicit
/// equalities.
const MAX_INTERIOR_ROUNDS: usize = 32;

/// A point of the set and which inequalities are zero there.
struct Inside {
    point: Scaled,
    tight: Vec<bool>,
}

/// A point of `sys ∩ context` in the relative interior of `sys`: every inequality that is not
/// an implicit equality positive there. One program when a strictly interior point exists;
/// otherwise from that program's point, rounds of `max Σ_{tight} f_i` subject to the set and
/// `f_i ≤ 1` for each tight row (so that the optimum lifts as many as it can at once): a
/// positive optimum frees some tight rows (the midpoint of the two points keeps every positive
/// row positive), a zero one proves the tight rows implicit equalities. `None` when the set is
/// empty, the arithmetic overflows or the rounds run out.
fn relative_interior(sys: &System, context: &[AffineForm], limits: &Limits) -> Result<Option<Inside>> {
    let m = sys.ineqs.len();
    let Some((point, strict)) = deepest_point(sys, context, limits)? else { return Ok(None) };
    let Some(mut z) = Scaled::of(&point) else { return Ok(None) };
    if strict {
        return Ok(Some(Inside { point: z, tight: vec![false; m] }));
    }
    for _ in 0..MAX_INTERIOR_ROUNDS {
        let Some(tight) = tight_rows(sys, &z) else { return Ok(None) };
        if !tight.contains(&true) {
            return Ok(Some(Inside { point: z, tight }));
        }
        let mut objective = AffineForm::constant_form(sys.n, 0);
        let mut caps = Vec::new();
        for (f, _) in sys.ineqs.iter().zip(&tight).filter(|(_, &t)| t) {
            let (Ok(next), Ok(cap)) =
                (objective.checked_sub(f), f.checked_neg().and_then(|g| g.checked_add_constant(1)))
            else {
                return Ok(None);
            };
            objective = next;
            caps.push(cap);
        }
        match solve(sys.n, &sys.eqs, &[&sys.ineqs, context, &caps], Some(&objective), limits)? {
            LpOutcome::Optimal { value, point } if value.numerator() < 0 => {
                let Some(next) = Scaled::of(&point).and_then(|p| z.midpoint(&p)) else { return Ok(None) };
                z = next;
            }
            // Nothing lifts them: the tight rows are zero on the whole set.
            LpOutcome::Optimal { .. } => return Ok(Some(Inside { point: z, tight })),
            // The point satisfies every constraint and the caps bound the objective.
            LpOutcome::Infeasible | LpOutcome::Unbounded => return Ok(None),
        }
    }
    Ok(None)
}

/// Which inequalities are zero at `z` (`None` on overflow).
fn tight_rows(sys: &System, z: &Scaled) -> Option<Vec<bool>> {
    sys.ineqs.iter().map(|f| Some(z.value(f)? == 0)).collect()
}

/// Removes the inequalities of `sys` that the others and `context` imply, by Clarkson's
/// algorithm (module documentation). Returns `false`, leaving `sys` as it was, when no point
/// of the set in its relative interior is found (the caller then uses the plain method).
/// Candidates whose crossing is not conclusive take the plain test, and those count against
/// `limits.max_redundancy_checks`; once it is spent such candidates are kept. `sys` changes
/// only when it returns `true`: an error leaves it as it was.
pub(crate) fn remove_redundant_clarkson(sys: &mut System, context: &[AffineForm], limits: &Limits) -> Result<bool> {
    let Some(inside) = relative_interior(sys, context, limits)? else { return Ok(false) };
    let basis = hull_basis(sys, &inside.tight);
    // The interior programs' optima are vertices of their own polytopes, on many hyperplanes
    // at once; segments from such a point often cross two rows at one point (a third of the
    // candidates of PolyBench FDTD's Farkas systems). A point moved off it in a fixed
    // pseudo-random direction inside the subspace is crossed generically.
    let z = match (&basis, context.is_empty()) {
        (Some(b), true) => moved_off(&inside.point, sys, b).unwrap_or(inside.point),
        _ => inside.point,
    };
    let mut run = Run::new(sys, context, limits, z);
    // Rows that coincide on the subspace are crossed together by every segment: of each such
    // class only the tightest can be a facet.
    if let Some(b) = &basis {
        for i in hull_duplicates(sys, b, &run.z) {
            if run.status[i] == Status::Undecided {
                run.status[i] = Status::Dropped;
            }
        }
    }
    // Rows positive at the point first; the implicit equalities (crossed at the point itself,
    // often several at once, so mostly decided by the plain test) last, when few rows are left
    // to test them against.
    let m = sys.ineqs.len();
    for h in (0..m).filter(|&i| !inside.tight[i]).chain((0..m).filter(|&i| inside.tight[i])) {
        run.decide(h)?;
    }
    let mut status = run.status.into_iter();
    sys.ineqs.retain(|_| status.next() != Some(Status::Dropped));
    Ok(true)
}

/// The state of one run of Clarkson's algorithm over `sys`.
struct Run<'a> {
    sys: &'a System,
    context: &'a [AffineForm],
    limits: &'a Limits,
    /// The point the segments start from: every row non-negative, undecided ones positive
    /// unless they are implicit equalities.
    z: Scaled,
    status: Vec<Status>,
    /// The rows of status `Kept`, in the order they were found.
    kept: Vec<AffineForm>,
    plain_checks: usize,
}

impl<'a> Run<'a> {
    /// Rows that alone bound a column in one direction are kept without a test.
    fn new(sys: &'a System, context: &'a [AffineForm], limits: &'a Limits, z: Scaled) -> Run<'a> {
        let status: Vec<Status> = (0..sys.ineqs.len())
            .map(|i| if sys.sole_bound(i, context) { Status::Kept } else { Status::Undecided })
            .collect();
        let kept = sys.ineqs.iter().zip(&status).filter(|(_, s)| **s == Status::Kept).map(|(f, _)| f.clone()).collect();
        Run { sys, context, limits, z, status, kept, plain_checks: 0 }
    }

    /// Decides row `h`, keeping the facets met on the way.
    fn decide(&mut self, h: usize) -> Result<()> {
        let sys = self.sys;
        while self.status[h] == Status::Undecided {
            let f = &sys.ineqs[h];
            let floor = [f.checked_add_constant(1)?];
            let crossed = match solve(sys.n, &sys.eqs, &[&self.kept, self.context, &floor], Some(f), self.limits)? {
                LpOutcome::Optimal { value, .. } if value.numerator() >= 0 => {
                    self.status[h] = Status::Dropped;
                    return Ok(());
                }
                LpOutcome::Optimal { point, .. } => {
                    Scaled::of(&point).and_then(|x| first_crossed(&sys.ineqs, &self.status, &self.z, &x))
                }
                // The point satisfies every constraint of the program and the floor bounds
                // it: neither happens, but the plain test is always right.
                LpOutcome::Infeasible | LpOutcome::Unbounded => None,
            };
            let facet = match crossed {
                Some(g) => g,
                None if self.plain_checks >= self.limits.max_redundancy_checks => h,
                None => {
                    self.plain_checks += 1;
                    if self.implied_by_the_rest(h)? {
                        self.status[h] = Status::Dropped;
                        return Ok(());
                    }
                    h
                }
            };
            self.status[facet] = Status::Kept;
            self.kept.push(sys.ineqs[facet].clone());
        }
        Ok(())
    }

    /// The plain test of row `h`: `min f_h ≥ 0` over the equalities, the context and every
    /// row not dropped but `h`.
    fn implied_by_the_rest(&self, h: usize) -> Result<bool> {
        let sys = self.sys;
        let rest: Vec<AffineForm> = (0..sys.ineqs.len())
            .filter(|&i| i != h && self.status[i] != Status::Dropped)
            .map(|i| sys.ineqs[i].clone())
            .collect();
        Ok(match solve(sys.n, &sys.eqs, &[&rest, self.context], Some(&sys.ineqs[h]), self.limits)? {
            LpOutcome::Optimal { value, .. } => value.numerator() >= 0,
            // Without h the set is not empty (it has the point); unbounded: not implied.
            LpOutcome::Infeasible | LpOutcome::Unbounded => false,
        })
    }
}

/// An integer basis of the directions the set's affine hull leaves free: the kernel of the
/// equalities and the `tight` inequalities, its implicit equalities (`None` on overflow).
fn hull_basis(sys: &System, tight: &[bool]) -> Option<Vec<Vec<i64>>> {
    let rows: Vec<Vec<i64>> = sys
        .eqs
        .iter()
        .chain(sys.ineqs.iter().zip(tight).filter(|(_, &t)| t).map(|(f, _)| f))
        .map(|e| e.coeffs().to_vec())
        .collect();
    crate::schedule::ortho::right_kernel(&rows, sys.n).ok()
}

/// The rows implied by another row on the set's affine hull, where a row is `u·y + f(z)` in the
/// coordinates `y` of `basis` around the point `z` of the hull: rows with the same direction
/// `u` (up to a positive factor) bound the same half-spaces, and only the tightest (least
/// `f(z)/|u|`; the first of equals) counts; a row with `u = 0` is a constant there, implied
/// when positive (an implicit equality, zero at `z`, is left alone). Rows whose figures
/// overflow are left alone.
fn hull_duplicates(sys: &System, basis: &[Vec<i64>], z: &Scaled) -> Vec<usize> {
    let basis: Vec<Vec<i128>> = basis.iter().map(|b| b.iter().map(|&x| i128::from(x)).collect()).collect();
    let mut signatures: Vec<(Vec<i128>, i128, i128, usize)> = Vec::new();
    let mut implied = Vec::new();
    for (i, f) in sys.ineqs.iter().enumerate() {
        let direction: Option<Vec<i128>> = basis.iter().map(|b| dot(f.coeffs(), b)).collect();
        let (Some(direction), Some(at_z)) = (direction, z.value(f)) else { continue };
        let g = direction.iter().fold(0u128, |g, &d| crate::int::gcd_u128(g, d.unsigned_abs()));
        let Ok(g) = i128::try_from(g) else { continue };
        if g == 0 {
            // Constant on the subspace: implied when positive; a tight row is left alone.
            if at_z > 0 {
                implied.push(i);
            }
            continue;
        }
        let unit: Vec<i128> = direction.iter().map(|d| d / g).collect();
        signatures.push((unit, at_z, g, i));
    }
    signatures.sort_by(|a, b| a.0.cmp(&b.0).then(a.3.cmp(&b.3)));
    for class in signatures.chunk_by(|a, b| a.0 == b.0) {
        // The tightest: least at_z / g (the first of equals); a class whose comparison
        // overflows is left alone.
        let mut tightest = &class[0];
        for s in &class[1..] {
            match (s.1.checked_mul(tightest.2), tightest.1.checked_mul(s.2)) {
                (Some(x), Some(y)) if x < y => tightest = s,
                (Some(_), Some(_)) => {}
                _ => return implied,
            }
        }
        implied.extend(class.iter().filter(|s| s.3 != tightest.3).map(|s| s.3));
    }
    implied
}

/// `z + r/K` for a pseudo-random integer direction `r` spanned by `basis` (inside the set's
/// affine hull) and the least `K ≥ 1` that keeps every inequality positive that is positive at
/// `z` (the hull's implicit equalities stay zero); `None` (keep `z`) on overflow or when the
/// hull leaves no direction.
fn moved_off(z: &Scaled, sys: &System, basis: &[Vec<i64>]) -> Option<Scaled> {
    if basis.is_empty() {
        return None;
    }
    // A fixed xorshift sequence: the same direction on every run, so results are reproducible.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut direction = vec![0i128; sys.n];
    for b in basis {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let c = i128::from((state % 61) as i64 - 30);
        for (d, &x) in direction.iter_mut().zip(b) {
            *d = d.checked_add(c.checked_mul(i128::from(x))?)?;
        }
    }
    // K · f(z)·Dz + (a·r)·Dz > 0 for every row: K > −(a·r)·Dz / (f(z)·Dz) where a·r < 0.
    let mut k: i128 = 1;
    for f in &sys.ineqs {
        let along = dot(f.coeffs(), &direction)?;
        if along < 0 {
            let fz = z.value(f)?;
            if fz <= 0 {
                return None;
            }
            k = k.max(along.checked_neg()?.checked_mul(z.denominator)? / fz + 1);
        }
    }
    let numerators = z
        .numerators
        .iter()
        .zip(&direction)
        .map(|(&x, &r)| k.checked_mul(x)?.checked_add(z.denominator.checked_mul(r)?))
        .collect::<Option<Vec<_>>>()?;
    Scaled { numerators, denominator: k.checked_mul(z.denominator)? }.reduced()
}

/// The exact product of two non-negative numbers as `(high, low)` 128-bit halves, so that
/// products compare without overflow; `None` for a negative factor.
fn wide_product(a: i128, b: i128) -> Option<(u128, u128)> {
    let (a, b) = (u128::try_from(a).ok()?, u128::try_from(b).ok()?);
    let mask = u128::from(u64::MAX);
    let (a1, a0, b1, b0) = (a >> 64, a & mask, b >> 64, b & mask);
    // a·b = a1·b1·2^128 + (a1·b0 + a0·b1)·2^64 + a0·b0, each partial product below 2^128.
    let (middle, carry) = (a1 * b0).overflowing_add(a0 * b1);
    let (low, carry_low) = (a0 * b0).overflowing_add(middle << 64);
    let high = a1 * b1 + (middle >> 64) + (u128::from(carry) << 64) + u128::from(carry_low);
    Some((high, low))
}

/// On the segment from `z` (every undecided row positive there but the implicit equalities,
/// which the segment crosses at `t = 0` if `x` violates them) to `x`, the undecided row crossed
/// first: `t_g = f_g(z) / (f_g(z) − f_g(x))` least over the rows with `f_g(x) < 0`. `None` when
/// two rows are crossed at the same point, none is, or the arithmetic overflows.
fn first_crossed(rows: &[AffineForm], status: &[Status], z: &Scaled, x: &Scaled) -> Option<usize> {
    // t_g = a / b with a = f_g(z)·Dz·Dx / Dz = FZ·Dx and b = FZ·Dx − FX·Dz, both positive.
    let mut best: Option<(usize, i128, i128)> = None;
    let mut tie = false;
    for (g, f) in rows.iter().enumerate() {
        if status[g] != Status::Undecided {
            continue;
        }
        let fx = x.value(f)?;
        if fx >= 0 {
            continue;
        }
        let fz = z.value(f)?;
        let a = fz.checked_mul(x.denominator)?;
        let b = a.checked_sub(fx.checked_mul(z.denominator)?)?;
        match best {
            None => best = Some((g, a, b)),
            Some((_, a0, b0)) => match wide_product(a, b0)?.cmp(&wide_product(a0, b)?) {
                Ordering::Less => {
                    best = Some((g, a, b));
                    tie = false;
                }
                Ordering::Equal => tie = true,
                Ordering::Greater => {}
            },
        }
    }
    if tie {
        return None;
    }
    best.map(|(g, _, _)| g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::Semantics;
    use proptest::prelude::*;

    fn form(c: &[i64], k: i64) -> AffineForm {
        AffineForm::new(c.to_vec(), k)
    }

    fn system(n: usize, eqs: &[AffineForm], ineqs: &[AffineForm]) -> System {
        let mut sys = System::new(n, Semantics::Integer);
        for e in eqs {
            sys.push_eq(e).unwrap();
        }
        for f in ineqs {
            sys.push_ineq(f).unwrap();
        }
        sys.dedupe().unwrap();
        sys
    }

    /// Whether the equalities and `rows` imply `f ≥ 0` over the rationals.
    fn implies(n: usize, eqs: &[AffineForm], rows: &[AffineForm], f: &AffineForm) -> bool {
        match solve(n, eqs, &[rows], Some(f), &Limits::default()).unwrap() {
            LpOutcome::Optimal { value, .. } => value.numerator() >= 0,
            LpOutcome::Infeasible => true,
            LpOutcome::Unbounded => false,
        }
    }

    /// `reduced` describes the same set as `input` with a subset of its rows, none of them
    /// implied by the others.
    fn assert_exact_and_irredundant(input: &System, reduced: &System) {
        assert!(reduced.ineqs.iter().all(|f| input.ineqs.contains(f)), "rows not of the input");
        for f in &input.ineqs {
            assert!(implies(input.n, &reduced.eqs, &reduced.ineqs, f), "{f:?} is not implied by the result");
        }
        for (i, f) in reduced.ineqs.iter().enumerate() {
            let others: Vec<AffineForm> =
                reduced.ineqs.iter().enumerate().filter(|&(k, _)| k != i).map(|(_, g)| g.clone()).collect();
            assert!(!implies(input.n, &reduced.eqs, &others, f), "{f:?} is kept but redundant");
        }
    }

    /// A polygon of 90 tangents to a circle (every one a facet) and 45 looser copies.
    fn polygon() -> Vec<AffineForm> {
        let mut rows = Vec::new();
        for k in 0..90i32 {
            let angle = f64::from(k) * std::f64::consts::TAU / 90.0;
            let (a, b) = ((1000.0 * angle.cos()).round() as i64, (1000.0 * angle.sin()).round() as i64);
            rows.push(form(&[-a, -b], 100_000));
            if k % 2 == 0 {
                rows.push(form(&[-a, -b], 120_000 + i64::from(k)));
            }
        }
        rows
    }

    #[test]
    fn a_full_dimensional_set_keeps_exactly_its_facets_in_order() {
        let input = system(2, &[], &polygon());
        let mut fast = input.clone();
        assert!(remove_redundant_clarkson(&mut fast, &[], &Limits::default()).unwrap());
        let mut plain = input.clone();
        plain.remove_redundant_plain(&[], &Limits::default()).unwrap();
        assert_eq!(fast, plain);
        assert_exact_and_irredundant(&input, &fast);
    }

    #[test]
    fn implicit_equalities_and_rows_equal_on_the_hull() {
        // x0 ≤ x1 ≤ x2 ≤ x0 (all three implicit equalities), the polygon over (x0, x3), and
        // copies of its rows that differ by multiples of x1 − x2 (zero on the set).
        let mut rows = vec![form(&[-1, 1, 0, 0], 0), form(&[0, -1, 1, 0], 0), form(&[1, 0, -1, 0], 0)];
        for (k, f) in polygon().iter().enumerate() {
            let (a, b) = (f.coeff(0), f.coeff(1));
            rows.push(form(&[a, 0, 0, b], f.constant()));
            if k % 3 == 0 {
                let shift = i64::try_from(k).unwrap() % 7 - 3;
                rows.push(form(&[a, shift, -shift, b], f.constant()));
            }
        }
        let input = system(4, &[], &rows);
        let inside = relative_interior(&input, &[], &Limits::default()).unwrap().expect("a relative interior point");
        assert_eq!(inside.tight.iter().filter(|&&t| t).count(), 3);
        let mut fast = input.clone();
        assert!(remove_redundant_clarkson(&mut fast, &[], &Limits::default()).unwrap());
        assert_exact_and_irredundant(&input, &fast);
    }

    #[test]
    fn an_empty_set_is_found_empty() {
        // x ≥ 1, y ≥ 1, x + y ≤ 1 among the polygon's rows over (x, y) scaled far out.
        let mut rows: Vec<AffineForm> = polygon().iter().map(|f| form(f.coeffs(), f.constant() * 10)).collect();
        rows.extend([form(&[1, 0], -1), form(&[0, 1], -1), form(&[-1, -1], 1)]);
        let mut sys = system(2, &[], &rows);
        assert!(relative_interior(&sys, &[], &Limits::default()).unwrap().is_none());
        sys.remove_redundant(&[], &Limits::default()).unwrap();
        assert!(sys.empty);
    }

    #[test]
    fn products_compare_exactly_past_128_bits() {
        let big = i128::MAX / 3;
        assert!(wide_product(big, big + 1).unwrap() > wide_product(big + 1, big - 1).unwrap());
        assert_eq!(wide_product(1 << 100, 1 << 100).unwrap(), (1 << 72, 0));
        assert_eq!(wide_product(-1, 2), None);
    }

    /// Random systems over a box, large enough for Clarkson's method, with implicit
    /// equalities and rows equal on an equality's hyperplane; every row holds at the origin,
    /// so no set is empty.
    fn random_system() -> impl Strategy<Value = (usize, Vec<AffineForm>, Vec<AffineForm>)> {
        (2usize..=4).prop_flat_map(|n| {
            (
                Just(n),
                proptest::collection::vec(proptest::collection::vec(-3i64..=3, n), 0..=1),
                proptest::collection::vec((proptest::collection::vec(-3i64..=3, n), 0i64..=12), 70..=110),
                any::<bool>(),
            )
                .prop_map(|(n, eqs, rows, cycle)| {
                    let eqs: Vec<AffineForm> = eqs.into_iter().map(|c| AffineForm::new(c, 0)).collect();
                    let mut ineqs: Vec<AffineForm> = (0..n)
                        .flat_map(|k| {
                            let mut lo = vec![0; n];
                            lo[k] = 1;
                            let hi: Vec<i64> = lo.iter().map(|c| -c).collect();
                            [AffineForm::new(lo, 6), AffineForm::new(hi, 6)]
                        })
                        .collect();
                    for (c, k) in rows {
                        let f = AffineForm::new(c, k);
                        // Every fourth row also shifted by the equality (the same row on it).
                        if let (Some(e), true) = (eqs.first(), k % 4 == 0) {
                            ineqs.push(f.checked_add(e).unwrap());
                        }
                        ineqs.push(f);
                    }
                    if cycle {
                        // x0 ≤ x1 ≤ x0 + 0 through a third column: implicit equalities.
                        let mut a = vec![0; n];
                        a[0] = -1;
                        a[1] = 1;
                        let mut b = vec![0; n];
                        b[1] = -1;
                        b[n - 1] += 1;
                        let c: Vec<i64> = a.iter().zip(&b).map(|(x, y)| -x - y).collect();
                        ineqs.extend([AffineForm::new(a, 0), AffineForm::new(b, 0), AffineForm::new(c, 0)]);
                    }
                    (n, eqs, ineqs)
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        /// Both methods describe the input's set with some of its rows, none redundant; on a
        /// full-dimensional set (a unique irredundant description) they agree row for row.
        #[test]
        fn clarkson_agrees_with_the_plain_method((n, eqs, ineqs) in random_system()) {
            let input = system(n, &eqs, &ineqs);
            let mut fast = input.clone();
            fast.remove_redundant(&[], &Limits::default()).unwrap();
            let mut plain = input.clone();
            plain.remove_redundant_plain(&[], &Limits::default()).unwrap();
            prop_assert_eq!(fast.empty, plain.empty);
            if !plain.empty {
                assert_exact_and_irredundant(&input, &fast);
                assert_exact_and_irredundant(&input, &plain);
                if input.eqs.is_empty() && strict_interior_point(&input, &[], &Limits::default()).unwrap().is_some() {
                    prop_assert_eq!(&fast.ineqs, &plain.ineqs);
                }
            }
        }
    }
}
