//! Integer minimisation of an affine objective: equality compression, then branch-and-bound on
//! the exact simplex (depth first, bound pruning on the rational relaxation).
//!
//! Bounded / unbounded / infeasible are distinguished exactly: when the rational relaxation is
//! unbounded we first look for *any* integer point; if there is one the integer program is
//! unbounded too (an integer point plus integer multiples of a rational recession ray stay in
//! the polyhedron), otherwise it is infeasible. The number of nodes is bounded by
//! [`Limits::max_branch_nodes`].

use crate::affine::AffineForm;
use crate::constraint::{normalize_equality, normalize_inequality, Normalized, Semantics};
use crate::error::{overflow, PolyError, Result};
use crate::int::to_i64;
use crate::limits::Limits;
use crate::lp::lattice::solve_equalities;
use crate::lp::simplex::{solve, LpOutcome};

/// Outcome of an integer program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IlpOutcome {
    /// No integer point.
    Infeasible,
    /// Integer points exist and the objective is unbounded below on them.
    Unbounded,
    /// An optimal integer point and its objective value (0 without objective).
    Optimal { value: i64, point: Vec<i64> },
}

/// Minimises `objective` over the integer points of `{eq = 0, ineq ≥ 0}` (any integer point
/// when `objective` is `None`).
pub(crate) fn minimize(
    n: usize,
    equalities: &[AffineForm],
    inequalities: &[AffineForm],
    objective: Option<&AffineForm>,
    limits: &Limits,
) -> Result<IlpOutcome> {
    let mut eqs = Vec::with_capacity(equalities.len());
    for f in equalities {
        if f.n_columns() != n {
            return Err(PolyError::SpaceMismatch { context: "integer program", expected: n, found: f.n_columns() });
        }
        match normalize_equality(f, Semantics::Integer)? {
            Normalized::Tautology => {}
            Normalized::Contradiction => return Ok(IlpOutcome::Infeasible),
            Normalized::Form(g) => eqs.push(g),
        }
    }
    let Some(lattice) = solve_equalities(n, &eqs)? else {
        return Ok(IlpOutcome::Infeasible);
    };
    let mut ineqs = Vec::with_capacity(inequalities.len());
    for f in inequalities {
        if f.n_columns() != n {
            return Err(PolyError::SpaceMismatch { context: "integer program", expected: n, found: f.n_columns() });
        }
        // Tightening in the compressed space is what cuts thin (lattice-free) slabs.
        match normalize_inequality(&lattice.pull_back(f)?, Semantics::Integer)? {
            Normalized::Tautology => {}
            Normalized::Contradiction => return Ok(IlpOutcome::Infeasible),
            Normalized::Form(g) => ineqs.push(g),
        }
    }
    let r = lattice.rank();
    let obj = objective.map(|f| lattice.pull_back(f)).transpose()?;
    let found = if r == 0 {
        // Every inequality was constant and true.
        Some(Vec::new())
    } else {
        match solve(r, &[], &[&ineqs], obj.as_ref(), limits)? {
            LpOutcome::Infeasible => None,
            LpOutcome::Unbounded => {
                return Ok(match search(r, &ineqs, None, limits)? {
                    Some(_) => IlpOutcome::Unbounded,
                    None => IlpOutcome::Infeasible,
                });
            }
            LpOutcome::Optimal { .. } => search(r, &ineqs, obj.as_ref(), limits)?,
        }
    };
    let Some(z) = found else {
        return Ok(IlpOutcome::Infeasible);
    };
    let point = lattice.point(&z)?;
    let value = match objective {
        Some(f) => f.eval(&point)?,
        None => 0,
    };
    Ok(IlpOutcome::Optimal { value, point })
}

/// Depth-first branch-and-bound over `z ∈ Zʳ` with `ineqs ≥ 0`; the relaxation must be bounded
/// for `obj` (or `obj` is `None`, a pure feasibility search that stops at the first point).
fn search(r: usize, ineqs: &[AffineForm], obj: Option<&AffineForm>, limits: &Limits) -> Result<Option<Vec<i64>>> {
    let mut stack: Vec<Vec<AffineForm>> = vec![Vec::new()];
    let mut best: Option<(i128, Vec<i64>)> = None;
    let mut nodes = 0usize;
    while let Some(bounds) = stack.pop() {
        nodes += 1;
        if nodes > limits.max_branch_nodes {
            return Err(PolyError::LimitExceeded {
                limit: "max_branch_nodes",
                value: limits.max_branch_nodes,
                context: "integer branch-and-bound",
            });
        }
        let (value, point) = match solve(r, &[], &[ineqs, &bounds], obj, limits)? {
            LpOutcome::Infeasible => continue,
            LpOutcome::Unbounded => {
                return Err(PolyError::Internal("branch-and-bound node unbounded under a bounded root"))
            }
            LpOutcome::Optimal { value, point } => (value, point),
        };
        if let Some((bv, _)) = &best {
            if value.ceil() >= *bv {
                continue;
            }
        }
        match point.iter().position(|p| !p.is_integer()) {
            None => {
                let z = point
                    .iter()
                    .map(|p| to_i64(p.numerator(), "branch-and-bound point"))
                    .collect::<Result<Vec<_>>>()?;
                if obj.is_none() {
                    return Ok(Some(z));
                }
                best = Some((value.ceil(), z));
            }
            Some(j) => {
                // Branch on z_j ≤ ⌊v⌋ (explored first) and z_j ≥ ⌊v⌋ + 1, i.e. z_j − ⌊v⌋ − 1 ≥ 0.
                let f = to_i64(point[j].floor(), "branch-and-bound bound")?;
                let up_const =
                    f.checked_add(1).and_then(i64::checked_neg).ok_or_else(|| overflow("branch-and-bound bound"))?;
                let up = AffineForm::from_terms(r, &[(j, 1)], up_const)?;
                let down = AffineForm::from_terms(r, &[(j, -1)], f)?;
                let mut b_up = bounds.clone();
                b_up.push(up);
                let mut b_down = bounds;
                b_down.push(down);
                stack.push(b_up);
                stack.push(b_down);
            }
        }
    }
    Ok(best.map(|(_, z)| z))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(c: &[i64], k: i64) -> AffineForm {
        AffineForm::new(c.to_vec(), k)
    }

    #[test]
    fn integer_optimum_differs_from_rational_one() {
        // min -y s.t. 3x - 2y ≥ 0? Classic: max y s.t. -x + y ≤ 1, 3x + 2y ≤ 12, 2x + 3y ≤ 12, x,y ≥ 0
        // rational optimum y = 2.8 at (1.8, 2.8); integer optimum y = 2.
        let ineqs = [form(&[1, -1], 1), form(&[-3, -2], 12), form(&[-2, -3], 12), form(&[1, 0], 0), form(&[0, 1], 0)];
        let out = minimize(2, &[], &ineqs, Some(&form(&[0, -1], 0)), &Limits::default()).unwrap();
        assert!(matches!(out, IlpOutcome::Optimal { value: -2, .. }), "{out:?}");
    }

    #[test]
    fn thin_unbounded_slab_without_integer_points() {
        // 1 ≤ 3x − 3y ≤ 2: rationally unbounded along x = y, integer-empty.
        let ineqs = [form(&[3, -3], -1), form(&[-3, 3], 2)];
        assert_eq!(
            minimize(2, &[], &ineqs, Some(&form(&[1, 0], 0)), &Limits::default()).unwrap(),
            IlpOutcome::Infeasible
        );
    }

    #[test]
    fn unbounded_integer_program() {
        // x − 2y = 1, y ≤ 0: min y is unbounded.
        let out = minimize(2, &[form(&[1, -2], -1)], &[form(&[0, -1], 0)], Some(&form(&[0, 1], 0)), &Limits::default());
        assert_eq!(out.unwrap(), IlpOutcome::Unbounded);
    }

    #[test]
    fn equality_lattice_is_respected() {
        // 3x + 5y = 1, 0 ≤ x ≤ 10: min x = 2 (y = −1).
        let out = minimize(
            2,
            &[form(&[3, 5], -1)],
            &[form(&[1, 0], 0), form(&[-1, 0], 10)],
            Some(&form(&[1, 0], 0)),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(out, IlpOutcome::Optimal { value: 2, point: vec![2, -1] });
    }
}
