//! Fourier–Motzkin elimination (projection) with redundancy removal and an exactness flag.
//!
//! Eliminating `x` from `{l_i: a_i x ≥ L_i} ∪ {u_j: b_j x ≤ U_j}` keeps the constraints without
//! `x` and adds `b_j·l_i + a_i·u_j` for every pair — the rational projection (thesis §3.2 and
//! Pluto's `fourier_motzkin_eliminate`). A variable that sits in an equality is eliminated by
//! Gaussian elimination instead, and the next variable is always the one that produces the
//! fewest rows (Pluto's heuristic). After every step the system is deduplicated and, when it
//! grew, redundant rows are removed by exact linear programming — every row the step left,
//! even past [`Limits::max_redundancy_checks`] (at most [`Limits::max_constraints`] LPs): a row
//! left unchecked is combined pairwise again by the next step, which is how redundant rows
//! make Fourier–Motzkin blow up.
//!
//! Over the integers the rational shadow can contain points with no integer preimage. Pugh's
//! condition decides exactness: a pair is exact when `a_i = 1` or `b_j = 1`, an equality when
//! its coefficient is ±1. [`Projection::exact`] reports whether every step was exact; when it is,
//! the result is exactly the integer projection.

use crate::affine::AffineForm;
use crate::constraint::Semantics;
use crate::error::{PolyError, Result};
use crate::int::cancel_factor;
use crate::limits::Limits;
use crate::system::System;

/// Result of a projection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Projection<T> {
    /// The projected set: exactly the integer projection when `exact`, otherwise a superset of
    /// it contained in the rational projection.
    pub set: T,
    /// Whether the elimination was exact over the integers.
    pub exact: bool,
}

/// Eliminates the columns `cols` from `sys` (their coefficients become zero everywhere; the
/// caller removes the columns). Returns whether every step was integer-exact.
pub(crate) fn eliminate(sys: &mut System, cols: &[usize], limits: &Limits) -> Result<bool> {
    eliminate_within(sys, cols, limits, None)
}

/// A bound on the rows the Fourier–Motzkin steps of one elimination may produce in all: the
/// projection's cost, which grows with them (each produced row is combined again by later
/// steps and checked for redundancy by a linear program). The limit and context name what a
/// refusal reports.
#[derive(Copy, Clone, Debug)]
pub(crate) struct RowBudget {
    /// Rows the steps may produce together (`l·u` summed over the steps).
    pub rows: usize,
    /// The [`Limits`] field that set it, for the error.
    pub limit: &'static str,
    /// What was being projected, for the error.
    pub context: &'static str,
}

/// [`eliminate`] refused with [`PolyError::LimitExceeded`] once its steps would produce more
/// rows than `budget` allows (none: only the per-step [`Limits::max_constraints`]).
pub(crate) fn eliminate_within(
    sys: &mut System,
    cols: &[usize],
    limits: &Limits,
    budget: Option<RowBudget>,
) -> Result<bool> {
    let mut produced_so_far = 0usize;
    let mut remaining: Vec<usize> = cols.to_vec();
    let mut exact = true;
    sys.dedupe()?;
    while !remaining.is_empty() && !sys.empty {
        // Gaussian elimination first: a remaining column inside an equality.
        let mut by_eq: Option<(usize, usize, u64)> = None; // (position in remaining, eq index, |coef|)
        for (ri, &c) in remaining.iter().enumerate() {
            for (ei, e) in sys.eqs.iter().enumerate() {
                let a = e.coeff(c).unsigned_abs();
                if a != 0 && by_eq.is_none_or(|(_, _, b)| a < b) {
                    by_eq = Some((ri, ei, a));
                }
            }
        }
        if let Some((ri, ei, _)) = by_eq {
            let col = remaining.swap_remove(ri);
            exact &= eliminate_with_equality(sys, col, ei)?;
        } else {
            // Fourier–Motzkin on the column that produces the fewest rows.
            let (ri, produced, _) = remaining
                .iter()
                .enumerate()
                .map(|(ri, &c)| {
                    let l = sys.ineqs.iter().filter(|f| f.coeff(c) > 0).count();
                    let u = sys.ineqs.iter().filter(|f| f.coeff(c) < 0).count();
                    (ri, l.saturating_mul(u), (l as i128) * (u as i128) - (l + u) as i128)
                })
                .min_by_key(|&(_, _, cost)| cost)
                .ok_or(PolyError::Internal("empty elimination list"))?;
            let col = remaining.swap_remove(ri);
            if let Some(budget) = budget {
                produced_so_far = produced_so_far.saturating_add(produced);
                if produced_so_far > budget.rows {
                    return Err(PolyError::LimitExceeded {
                        limit: budget.limit,
                        value: budget.rows,
                        context: budget.context,
                    });
                }
            }
            let before = sys.ineqs.len();
            exact &= fm_step(sys, col, limits)?;
            sys.dedupe()?;
            if sys.ineqs.len() > before {
                sys.remove_redundant(&[], &step_budget(sys, limits))?;
            }
        }
    }
    if sys.sem == Semantics::Rational {
        exact = true;
    }
    Ok(exact)
}

/// The limits of the redundancy removal after a growing step: one LP for every row the step
/// left (at most [`Limits::max_constraints`]), when that is more than
/// [`Limits::max_redundancy_checks`], unless the budget is 0 (syntactic only).
///
/// A step that combines `l` lower with `u` upper bounds leaves up to `l·u` rows, typically a
/// few of them irredundant; rows left unchecked once a smaller budget runs out are combined
/// pairwise again by the next step. On a 3-D two-statement stencil tiled 2×2×2×2
/// (`poly/tests/codegen_scan.rs`) dropping the tile dimensions one by one then grew
/// 58 → 76 → 479 rows and past `max_constraints` (47 144 pairs), where checking every row
/// gives 58 → 39 → 15 → 4 (550, 236 and 42 LPs).
fn step_budget(sys: &System, limits: &Limits) -> Limits {
    let checks = match limits.max_redundancy_checks {
        0 => 0,
        n => n.max(sys.ineqs.len()),
    };
    Limits { max_redundancy_checks: checks, ..*limits }
}

/// Removes column `col` using equality `ei`; exact iff its coefficient is ±1.
fn eliminate_with_equality(sys: &mut System, col: usize, ei: usize) -> Result<bool> {
    let eq = sys.eqs.remove(ei);
    let a = eq.coeff(col);
    let (scale, sign) = (a.checked_abs().ok_or_else(|| crate::error::overflow("Gaussian elimination"))?, a.signum());
    let eqs = std::mem::take(&mut sys.eqs);
    let ineqs = std::mem::take(&mut sys.ineqs);
    for f in eqs {
        let b = f.coeff(col);
        let g = if b == 0 {
            f
        } else {
            AffineForm::combine(scale, &f, cancel_factor(sign, b, "Gaussian elimination")?, &eq)?
        };
        sys.push_eq(&g)?;
    }
    for f in ineqs {
        let b = f.coeff(col);
        let g = if b == 0 {
            f
        } else {
            AffineForm::combine(scale, &f, cancel_factor(sign, b, "Gaussian elimination")?, &eq)?
        };
        sys.push_ineq(&g)?;
    }
    sys.dedupe()?;
    Ok(scale == 1)
}

/// One Fourier–Motzkin step on `col`; returns Pugh's exactness of the step.
fn fm_step(sys: &mut System, col: usize, limits: &Limits) -> Result<bool> {
    let ineqs = std::mem::take(&mut sys.ineqs);
    let (mut lower, mut upper) = (Vec::new(), Vec::new());
    for f in ineqs {
        match f.coeff(col).signum() {
            1 => lower.push(f),
            -1 => upper.push(f),
            _ => sys.ineqs.push(f),
        }
    }
    let mut exact = true;
    let produced = lower.len().saturating_mul(upper.len());
    if sys.ineqs.len().saturating_add(produced) > limits.max_constraints {
        return Err(PolyError::LimitExceeded {
            limit: "max_constraints",
            value: limits.max_constraints,
            context: "Fourier-Motzkin elimination",
        });
    }
    for l in &lower {
        let a = l.coeff(col);
        for u in &upper {
            let b = u.coeff(col).checked_neg().ok_or_else(|| crate::error::overflow("Fourier-Motzkin"))?;
            exact &= a == 1 || b == 1;
            sys.push_ineq(&AffineForm::combine(b, l, a, u)?)?;
            if sys.empty {
                return Ok(true);
            }
        }
    }
    Ok(exact)
}

/// Drops the columns `cols` (all-zero after elimination) from every constraint.
pub(crate) fn drop_columns(sys: &mut System, cols: &[usize]) -> Result<()> {
    let keep: Vec<usize> = (0..sys.n).filter(|c| !cols.contains(c)).collect();
    let n = keep.len();
    let shrink = |f: &AffineForm| AffineForm::new(keep.iter().map(|&c| f.coeff(c)).collect(), f.constant());
    let eqs: Vec<AffineForm> = sys.eqs.iter().map(shrink).collect();
    let ineqs: Vec<AffineForm> = sys.ineqs.iter().map(shrink).collect();
    let empty = sys.empty;
    *sys = System::new(n, sys.sem);
    if empty {
        sys.set_empty();
        return Ok(());
    }
    for e in &eqs {
        sys.push_eq(e)?;
    }
    for f in &ineqs {
        sys.push_ineq(f)?;
    }
    sys.dedupe()
}
