//! Constraint systems: the raw equalities and inequalities behind a polyhedron, with
//! normalisation and syntactic / LP-based redundancy removal.

use std::collections::HashSet;

use crate::affine::AffineForm;
use crate::constraint::{normalize_equality, normalize_inequality, Normalized, Semantics};
use crate::error::{PolyError, Result};
use crate::limits::Limits;
use crate::lp::simplex::{solve, LpOutcome};

/// Which list a constraint goes to.
#[derive(Copy, Clone)]
enum Kind {
    Equality,
    Inequality,
}

/// How [`System::push`] knows whether a constraint is there already.
enum Seen<'a> {
    /// By scanning its list.
    InList,
    /// By a set of the list's rows, kept up to date.
    InSet(&'a mut HashSet<AffineForm>),
}

/// `{x : eq(x) = 0 ∀eq, ineq(x) ≥ 0 ∀ineq}` over `n` columns, read over the integers or the
/// rationals (which only changes how constraints are normalised).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct System {
    pub n: usize,
    pub eqs: Vec<AffineForm>,
    pub ineqs: Vec<AffineForm>,
    /// A contradiction was found: the set is empty (the constraint lists are then cleared).
    pub empty: bool,
    pub sem: Semantics,
}

impl System {
    pub fn new(n: usize, sem: Semantics) -> System {
        System { n, eqs: Vec::new(), ineqs: Vec::new(), empty: false, sem }
    }

    fn check(&self, f: &AffineForm) -> Result<()> {
        if f.n_columns() == self.n {
            Ok(())
        } else {
            Err(PolyError::SpaceMismatch { context: "constraint system", expected: self.n, found: f.n_columns() })
        }
    }

    pub fn set_empty(&mut self) {
        self.empty = true;
        self.eqs.clear();
        self.ineqs.clear();
    }

    /// Adds `f = 0` (normalised).
    pub fn push_eq(&mut self, f: &AffineForm) -> Result<()> {
        self.push(Kind::Equality, f, Seen::InList)
    }

    /// Adds `f ≥ 0` (normalised).
    pub fn push_ineq(&mut self, f: &AffineForm) -> Result<()> {
        self.push(Kind::Inequality, f, Seen::InList)
    }

    /// Adds every `eq = 0` then every `ineq ≥ 0` (normalised), as [`System::push_eq`] and
    /// [`System::push_ineq`] one by one would, with one hash lookup per row instead of a scan
    /// of the rows so far (intersections of hundreds of dependence systems).
    pub fn extend<'a>(
        &mut self,
        eqs: impl IntoIterator<Item = &'a AffineForm>,
        ineqs: impl IntoIterator<Item = &'a AffineForm>,
    ) -> Result<()> {
        let mut seen: HashSet<AffineForm> = self.eqs.iter().cloned().collect();
        for f in eqs {
            self.push(Kind::Equality, f, Seen::InSet(&mut seen))?;
        }
        let mut seen: HashSet<AffineForm> = self.ineqs.iter().cloned().collect();
        for f in ineqs {
            self.push(Kind::Inequality, f, Seen::InSet(&mut seen))?;
        }
        Ok(())
    }

    /// Adds `f` normalised as a constraint of `kind`, unless it is a tautology, already there
    /// (`seen`) or a contradiction (then the system becomes empty).
    fn push(&mut self, kind: Kind, f: &AffineForm, seen: Seen<'_>) -> Result<()> {
        self.check(f)?;
        if self.empty {
            return Ok(());
        }
        let normalized = match kind {
            Kind::Equality => normalize_equality(f, self.sem)?,
            Kind::Inequality => normalize_inequality(f, self.sem)?,
        };
        match normalized {
            Normalized::Tautology => {}
            Normalized::Contradiction => self.set_empty(),
            Normalized::Form(g) => {
                let rows = match kind {
                    Kind::Equality => &mut self.eqs,
                    Kind::Inequality => &mut self.ineqs,
                };
                let fresh = match seen {
                    Seen::InList => !rows.contains(&g),
                    Seen::InSet(set) => set.insert(g.clone()),
                };
                if fresh {
                    rows.push(g);
                }
            }
        }
        Ok(())
    }

    /// Syntactic redundancy removal: of parallel inequalities keep the tightest, turn
    /// `f ≥ 0 ∧ −f ≥ 0` into `f = 0`, detect `f ≥ 1 ∧ −f ≥ 0` contradictions, drop inequalities
    /// implied by an equality with the same normal. Keeps first-occurrence order.
    pub fn dedupe(&mut self) -> Result<()> {
        if self.empty {
            return Ok(());
        }
        // Sorted (normal, constant, index): the tightest row of each normal comes first.
        let mut by_normal: Vec<(&[i64], i64, usize)> =
            self.ineqs.iter().enumerate().map(|(i, f)| (f.coeffs(), f.constant(), i)).collect();
        by_normal.sort_unstable();
        let best = |normal: &[i64]| -> Option<(usize, i64)> {
            let k = by_normal.partition_point(|e| e.0 < normal);
            by_normal.get(k).filter(|e| e.0 == normal).map(|e| (e.2, e.1))
        };
        let mut eqs_sorted: Vec<(&[i64], i64)> = self.eqs.iter().map(|e| (e.coeffs(), e.constant())).collect();
        eqs_sorted.sort_unstable();
        let eq_const = |normal: &[i64]| -> Option<i64> {
            let k = eqs_sorted.partition_point(|e| e.0 < normal);
            eqs_sorted.get(k).filter(|e| e.0 == normal).map(|e| e.1)
        };
        let mut keep = vec![false; self.ineqs.len()];
        let mut new_eqs = Vec::new();
        let mut contradiction = false;
        for (i, f) in self.ineqs.iter().enumerate() {
            // Only the tightest row of each normal (the first in sorted order) survives.
            if best(f.coeffs()).map(|(bi, _)| bi) != Some(i) {
                continue;
            }
            // The opposite normal (absent when a coefficient is i64::MIN: nothing matches it).
            let neg: Option<Vec<i64>> = f.coeffs().iter().map(|&c| c.checked_neg()).collect();
            // Against an equality g = 0 with the same (or opposite) normal.
            if let Some(c) = eq_const(f.coeffs()) {
                // f = g + (f.c − c) ≥ 0  ⇔  f.c ≥ c.
                if f.constant() < c {
                    contradiction = true;
                }
                continue;
            }
            if let Some(neg) = neg {
                if let Some(c) = eq_const(&neg) {
                    // f = −g + (f.c + c) ≥ 0  ⇔  f.c + c ≥ 0.
                    if i128::from(f.constant()) + i128::from(c) < 0 {
                        contradiction = true;
                    }
                    continue;
                }
                if let Some((_, c2)) = best(&neg) {
                    let s = i128::from(f.constant()) + i128::from(c2);
                    if s < 0 {
                        contradiction = true;
                        continue;
                    }
                    if s == 0 {
                        // f ≥ 0 and −f ≥ 0: an equality (added once, from the first of the pair).
                        if f.first_nonzero().map(|c| f.coeff(c) > 0).unwrap_or(false) {
                            new_eqs.push(f.clone());
                        }
                        continue;
                    }
                }
            }
            keep[i] = true;
        }
        if contradiction {
            self.set_empty();
            return Ok(());
        }
        let mut k = keep.iter();
        self.ineqs.retain(|_| *k.next().unwrap_or(&false));
        for e in new_eqs {
            self.push_eq(&e)?;
        }
        Ok(())
    }

    /// Whether the system has a rational point.
    pub fn rationally_feasible(&self, limits: &Limits) -> Result<bool> {
        if self.empty {
            return Ok(false);
        }
        Ok(!matches!(solve(self.n, &self.eqs, &[&self.ineqs], None, limits)?, LpOutcome::Infeasible))
    }

    /// Rational minimum of `f` over the system together with `extra` inequalities.
    pub fn rational_min(&self, f: &AffineForm, extra: &[AffineForm], limits: &Limits) -> Result<LpOutcome> {
        solve(self.n, &self.eqs, &[&self.ineqs, extra], Some(f), limits)
    }

    /// Removes inequalities implied (over the rationals) by the others plus `context`
    /// inequalities. Exact: the set is unchanged, and every inequality kept is needed unless a
    /// budget ran out. Large systems go through Clarkson's algorithm
    /// ([`crate::redundancy`]: programs over the rows found needed so far), the others and
    /// those without a point in their relative interior through
    /// [`System::remove_redundant_plain`].
    pub fn remove_redundant(&mut self, context: &[AffineForm], limits: &Limits) -> Result<()> {
        self.dedupe()?;
        if !self.empty && self.ineqs.len() > crate::redundancy::CLARKSON_MIN_ROWS {
            // It changes the system only when it succeeds; where its programs fail (a limit,
            // overflow) the plain method decides, as it did before.
            match crate::redundancy::remove_redundant_clarkson(self, context, limits) {
                Ok(true) => return Ok(()),
                Ok(false) => {}
                Err(e) => tracing::debug!(error = %e, "Clarkson's redundancy removal failed; the plain method runs"),
            }
        }
        self.remove_redundant_plain(context, limits)
    }

    /// The plain method: one linear program per inequality over all the others, at most
    /// `limits.max_redundancy_checks` of them. An inequality `f ≥ 0` is redundant iff
    /// `min f ≥ 0` over the rest; once the budget is spent the remaining inequalities are
    /// simply kept.
    pub(crate) fn remove_redundant_plain(&mut self, context: &[AffineForm], limits: &Limits) -> Result<()> {
        let mut checks = 0usize;
        let mut i = 0;
        while i < self.ineqs.len() && !self.empty {
            if self.sole_bound(i, context) {
                i += 1;
                continue;
            }
            if checks >= limits.max_redundancy_checks {
                break;
            }
            checks += 1;
            let f = self.ineqs.remove(i);
            match solve(self.n, &self.eqs, &[&self.ineqs, context], Some(&f), limits)? {
                LpOutcome::Infeasible => {
                    self.set_empty();
                    return Ok(());
                }
                LpOutcome::Optimal { value, .. } if value.numerator() >= 0 => {}
                _ => {
                    self.ineqs.insert(i, f);
                    i += 1;
                }
            }
        }
        Ok(())
    }

    /// Whether inequality `i` is the only constraint bounding some column `c` in one direction:
    /// no other inequality or context row has a coefficient of the same sign on `c`, and every
    /// equality that mentions `c` also has a private column (in no other row) that can absorb a
    /// change of `c`. Without inequality `i` the set would then be unbounded in that direction,
    /// so `i` is not redundant — no LP needed. (After [`crate::Polyhedron::canonicalize`]'s
    /// echelon step every pivot column is private.)
    pub(crate) fn sole_bound(&self, i: usize, context: &[AffineForm]) -> bool {
        let f = &self.ineqs[i];
        let mentions = |col: usize| -> usize {
            self.eqs.iter().chain(&self.ineqs).chain(context).filter(|g| g.coeff(col) != 0).count()
        };
        (0..self.n).any(|c| {
            let sign = f.coeff(c).signum();
            sign != 0
                && self
                    .ineqs
                    .iter()
                    .enumerate()
                    .chain(context.iter().map(|g| (usize::MAX, g)))
                    .all(|(k, g)| k == i || g.coeff(c).signum() != sign)
                && self
                    .eqs
                    .iter()
                    .filter(|e| e.coeff(c) != 0)
                    .all(|e| (0..self.n).any(|p| p != c && e.coeff(p) != 0 && mentions(p) == 1))
        })
    }

    /// Turns every inequality that is tight on the whole (rational) set into an equality.
    pub fn detect_equalities(&mut self, limits: &Limits) -> Result<()> {
        if self.empty {
            return Ok(());
        }
        let mut i = 0;
        while i < self.ineqs.len() {
            // max f ≤ 0  ⇔  min (−f) ≥ 0.
            let neg = self.ineqs[i].checked_neg()?;
            match solve(self.n, &self.eqs, &[&self.ineqs], Some(&neg), limits)? {
                LpOutcome::Infeasible => {
                    self.set_empty();
                    return Ok(());
                }
                LpOutcome::Optimal { value, .. } if value.numerator() >= 0 => {
                    let f = self.ineqs.remove(i);
                    self.push_eq(&f)?;
                    if self.empty {
                        return Ok(());
                    }
                }
                _ => i += 1,
            }
        }
        Ok(())
    }
}
