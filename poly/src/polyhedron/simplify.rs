//! Simplification: redundancy removal, implicit equalities, gist and the canonical form used
//! for stable printing.

use std::cmp::Ordering;

use super::Polyhedron;
use crate::affine::AffineForm;
use crate::constraint::{normalize_equality, Normalized};
use crate::error::{overflow, Result};
use crate::int::cancel_factor;
use crate::limits::Limits;
use crate::system::System;

impl Polyhedron {
    /// The same set without inequalities implied by the others: syntactic deduplication, then
    /// one exact LP per inequality (`f ≥ 0` is redundant iff `min f ≥ 0` over the rest), at most
    /// [`Limits::max_redundancy_checks`] of them.
    pub fn remove_redundancies(&self, limits: &Limits) -> Result<Polyhedron> {
        let mut p = self.clone();
        p.sys.remove_redundant(&[], limits)?;
        Ok(p)
    }

    /// The same set with every inequality that is tight on all rational points turned into an
    /// equality (one LP per inequality).
    pub fn detect_equalities(&self, limits: &Limits) -> Result<Polyhedron> {
        let mut p = self.clone();
        p.sys.detect_equalities(limits)?;
        Ok(p)
    }

    /// Removes the inequalities of `self` that `context` (same space) together with the other
    /// inequalities implies, and the equalities `context` contains syntactically:
    /// `gist(self, context) ∩ context = self ∩ context` (isl's `gist`, simplified).
    pub fn gist(&self, context: &Polyhedron, limits: &Limits) -> Result<Polyhedron> {
        self.space.check_compatible(&context.space, "Polyhedron::gist")?;
        let mut p = self.clone();
        let ctx = context_rows(context)?;
        p.sys.eqs.retain(|e| !context.sys.eqs.contains(e));
        p.sys.remove_redundant(&ctx, limits)?;
        Ok(p)
    }

    /// A canonical description of the same integer set, for stable printing: implicit
    /// equalities made explicit; equalities in reduced echelon form, each solved for its first
    /// column (so in a dependence polyhedron `[source, target, params]` the source iterators are
    /// expressed through the target ones, as in thesis Table 3.1) and that column eliminated
    /// from every other constraint; redundant inequalities removed (constraints implied by
    /// `context` dropped, as in [`Polyhedron::gist`]); rows sorted by first column, lower
    /// bounds before upper bounds.
    pub fn canonicalize(&self, context: Option<&Polyhedron>, limits: &Limits) -> Result<Polyhedron> {
        if self.sys.empty {
            return Ok(self.clone());
        }
        let ctx = match context {
            Some(c) => {
                self.space.check_compatible(&c.space, "Polyhedron::canonicalize")?;
                context_rows(c)?
            }
            None => Vec::new(),
        };
        // Implicit equalities, relative to the context.
        let mut sys = self.sys.clone();
        sys.dedupe()?;
        let mut with_ctx = sys.clone();
        for f in &ctx {
            with_ctx.push_ineq(f)?;
        }
        let mut i = if has_strict_interior(&sys, &ctx, limits)? { sys.ineqs.len() } else { 0 };
        while i < sys.ineqs.len() {
            let neg = sys.ineqs[i].checked_neg()?;
            match with_ctx.rational_min(&neg, &[], limits)? {
                crate::lp::simplex::LpOutcome::Infeasible => {
                    sys.set_empty();
                    return Polyhedron::from_system(self.space.clone(), sys);
                }
                crate::lp::simplex::LpOutcome::Optimal { value, .. } if value.numerator() >= 0 => {
                    let f = sys.ineqs.remove(i);
                    sys.push_eq(&f)?;
                }
                _ => i += 1,
            }
        }
        echelon(&mut sys)?;
        if let Some(c) = context {
            sys.eqs.retain(|e| !c.sys.eqs.contains(e));
        }
        sys.remove_redundant(&ctx, limits)?;
        sys.eqs.sort_by(row_order);
        sys.ineqs.sort_by(row_order);
        Polyhedron::from_system(self.space.clone(), sys)
    }
}

/// Whether some rational point of `sys ∩ context` satisfies every inequality of `sys`
/// strictly — then none of them is an implicit equality (the average of points that are
/// strictly inside each one is strictly inside all).
fn has_strict_interior(sys: &System, context: &[AffineForm], limits: &Limits) -> Result<bool> {
    if sys.ineqs.is_empty() {
        return Ok(true);
    }
    Ok(crate::redundancy::strict_interior_point(sys, context, limits)?.is_some())
}

/// The context as inequalities (equalities as opposite pairs).
fn context_rows(context: &Polyhedron) -> Result<Vec<AffineForm>> {
    let mut rows = context.sys.ineqs.clone();
    for e in &context.sys.eqs {
        rows.push(e.clone());
        rows.push(e.checked_neg()?);
    }
    if context.sys.empty {
        rows.push(AffineForm::constant_form(context.n_columns(), -1));
    }
    Ok(rows)
}

/// Brings the equalities to reduced echelon form over the integers (pivot = first non-zero
/// column) and eliminates every pivot column from the other rows and the inequalities.
fn echelon(sys: &mut System) -> Result<()> {
    let mut pending = std::mem::take(&mut sys.eqs);
    let mut done: Vec<AffineForm> = Vec::new();
    while !pending.is_empty() {
        let k = (0..pending.len())
            .min_by_key(|&k| (pending[k].first_nonzero().unwrap_or(usize::MAX), pending[k].coeffs().to_vec()))
            .unwrap_or(0);
        let e = pending.swap_remove(k);
        let Some(p) = e.first_nonzero() else { continue };
        let a = e.coeff(p);
        let scale = a.checked_abs().ok_or_else(|| overflow("echelon form"))?;
        let reduce = |f: &AffineForm| -> Result<AffineForm> {
            let b = f.coeff(p);
            if b == 0 {
                Ok(f.clone())
            } else {
                AffineForm::combine(scale, f, cancel_factor(a, b, "echelon form")?, &e)
            }
        };
        let sem = sys.sem;
        let next = |rows: Vec<AffineForm>| -> Result<Option<Vec<AffineForm>>> {
            let mut out = Vec::with_capacity(rows.len());
            for f in &rows {
                match normalize_equality(&reduce(f)?, sem)? {
                    Normalized::Tautology => {}
                    Normalized::Contradiction => return Ok(None),
                    Normalized::Form(g) => out.push(g),
                }
            }
            Ok(Some(out))
        };
        let (Some(np), Some(nd)) = (next(pending)?, next(done)?) else {
            sys.set_empty();
            return Ok(());
        };
        pending = np;
        done = nd;
        let ineqs = std::mem::take(&mut sys.ineqs);
        for f in &ineqs {
            sys.push_ineq(&reduce(f)?)?;
        }
        if sys.empty {
            return Ok(());
        }
        done.push(e);
    }
    sys.eqs = done;
    sys.dedupe()
}

/// Row order for printing: by first non-zero column, lower bounds (positive leading coefficient)
/// first, then by coefficients and constant.
fn row_order(a: &AffineForm, b: &AffineForm) -> Ordering {
    let pa = a.first_nonzero().unwrap_or(usize::MAX);
    let pb = b.first_nonzero().unwrap_or(usize::MAX);
    pa.cmp(&pb)
        .then_with(|| (a.coeff(pa) < 0).cmp(&(b.coeff(pb) < 0)))
        .then_with(|| a.coeffs().iter().map(|c| c.unsigned_abs()).cmp(b.coeffs().iter().map(|c| c.unsigned_abs())))
        .then_with(|| a.coeffs().cmp(b.coeffs()))
        .then_with(|| a.constant().cmp(&b.constant()))
}
