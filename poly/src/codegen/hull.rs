//! A convex polyhedron containing a union of polyhedra, for the loop bounds shared by several
//! statements.
//!
//! Every constraint direction `a` found in one of the pieces is relaxed to the tightest
//! constant that holds on all of them: `a·x ≥ min_i ⌈min_{P_i} a·x⌉`, one exact rational
//! linear program per piece (isl's "simple hull" with relaxed constants; `a·x` is an integer
//! on integer points, so rounding the rational minimum up keeps every integer point, and no
//! branch-and-bound runs on the unbounded parametric pieces). Directions unbounded
//! on some piece are dropped. For pieces that are shifted copies of each other — statements
//! fused with different shifts, the common case after scheduling — this is the exact convex
//! hull, so the shared loop has no empty iteration.
//!
//! When no such direction bounds the scanned dimension (a bound that is the `max` of
//! incomparable parametric expressions, e.g. statements fused over `i < N` and `i < M`), the
//! closed convex hull of the union is computed exactly by Balas' lifting — `x = Σ y_p`,
//! `A_p y_p + λ_p b_p ≥ 0`, `Σ λ_p = 1`, `λ ≥ 0` — and Fourier–Motzkin projection onto `x`
//! (here `i ≤ N + M − 2`: correct, with iterations the guards then skip).

use crate::affine::AffineForm;
use crate::error::Result;
use crate::limits::Limits;
use crate::lp::simplex::LpOutcome;
use crate::polyhedron::Polyhedron;

/// A polyhedron containing every integer point of every piece (all over the same space),
/// bounded in column `dim` when every piece is.
pub(crate) fn union_hull(parts: &[Polyhedron], dim: usize, limits: &Limits) -> Result<Polyhedron> {
    let hull = relaxed_hull(parts, limits)?;
    let bounded = |lower: bool| {
        let sign = |c: i64| if lower { c > 0 } else { c < 0 };
        hull.inequalities().iter().any(|f| sign(f.coeff(dim))) || hull.equalities().iter().any(|e| e.coeff(dim) != 0)
    };
    if bounded(true) && bounded(false) {
        return Ok(hull);
    }
    hull.intersect(&balas_hull(parts, limits)?)?.remove_redundancies(limits)
}

/// The closed convex hull of the pieces by Balas' lifting and projection.
fn balas_hull(parts: &[Polyhedron], limits: &Limits) -> Result<Polyhedron> {
    let Some(first) = parts.first() else {
        return Err(crate::error::PolyError::Internal("the hull of no polyhedra"));
    };
    let space = first.space();
    let n = space.n_columns();
    let r = parts.len();
    // Columns: x (n, dims of `space` then its params as dims), y_1..y_{r-1} (n each),
    // λ_1..λ_{r-1}; piece 0 uses y_0 = x − Σ y_p and λ_0 = 1 − Σ λ_p.
    let lifted_cols = n + (r - 1) * (n + 1);
    let names: Vec<String> = (0..lifted_cols).map(|c| format!("z{c}")).collect();
    let lifted = crate::space::Space::set(names);
    let y = |p: usize, c: usize| n + (p - 1) * n + c;
    let lambda = |p: usize| n + (r - 1) * n + (p - 1);
    let mut q = Polyhedron::universe(lifted);
    // Homogenised row of piece p: Σ_c f_c·y_p[c] + f_0·λ_p.
    let row = |p: usize, f: &AffineForm| -> Result<AffineForm> {
        let mut terms: Vec<(usize, i64)> = Vec::new();
        if p == 0 {
            for c in 0..n {
                terms.push((c, f.coeff(c)));
                for o in 1..r {
                    terms.push((y(o, c), f.coeff(c).checked_neg().ok_or(crate::error::overflow("convex hull"))?));
                }
            }
            for o in 1..r {
                terms.push((lambda(o), f.constant().checked_neg().ok_or(crate::error::overflow("convex hull"))?));
            }
            AffineForm::from_terms(lifted_cols, &terms, f.constant())
        } else {
            for c in 0..n {
                terms.push((y(p, c), f.coeff(c)));
            }
            terms.push((lambda(p), f.constant()));
            AffineForm::from_terms(lifted_cols, &terms, 0)
        }
    };
    for (p, piece) in parts.iter().enumerate() {
        for e in piece.equalities() {
            q.add_equality(&row(p, e)?)?;
        }
        for f in piece.inequalities() {
            q.add_inequality(&row(p, f)?)?;
        }
        if p > 0 {
            q.add_inequality(&AffineForm::unit(lifted_cols, lambda(p))?)?;
        }
    }
    let sum: Vec<(usize, i64)> = (1..r).map(|p| (lambda(p), -1)).collect();
    q.add_inequality(&AffineForm::from_terms(lifted_cols, &sum, 1)?)?;
    // Fourier–Motzkin eliminates the (r − 1)(n + 1) lifted columns one by one, each step
    // combining the rows that bound the column from below with those from above and checking
    // the results for redundancy by linear programs: exponential in the worst case (five fused
    // 3-D statements once took minutes). The rows the steps produce bound that cost, so the
    // projection is refused beyond `max_hull_projection_rows` of them rather than at a number
    // of columns: three fused 3-D statements project 28 columns in about a millisecond.
    let budget = crate::fourier_motzkin::RowBudget {
        rows: limits.max_hull_projection_rows,
        limit: "max_hull_projection_rows",
        context: "the convex hull of the loop bounds of statements fused over different extents (Balas' lifting; \
                  tiling them first with poly-tile, or not fusing them with poly-schedule{fuse=none}, avoids it)",
    };
    let projected = q.project_out_within(n, lifted_cols - n, limits, Some(budget))?.set;
    let mut hull = Polyhedron::universe(space.clone());
    for e in projected.equalities() {
        hull.add_equality(&AffineForm::new(e.coeffs().to_vec(), e.constant()))?;
    }
    for f in projected.inequalities() {
        hull.add_inequality(&AffineForm::new(f.coeffs().to_vec(), f.constant()))?;
    }
    Ok(hull)
}

/// Every direction of every piece, relaxed to hold on all pieces (see the module
/// documentation).
fn relaxed_hull(parts: &[Polyhedron], limits: &Limits) -> Result<Polyhedron> {
    let Some(first) = parts.first() else {
        return Err(crate::error::PolyError::Internal("the hull of no polyhedra"));
    };
    if parts.iter().all(|p| p.equalities() == first.equalities() && p.inequalities() == first.inequalities()) {
        return Ok(first.clone());
    }
    let mut dirs: Vec<AffineForm> = Vec::new();
    for p in parts {
        for f in p.inequalities() {
            dirs.push(AffineForm::new(f.coeffs().to_vec(), 0));
        }
        for e in p.equalities() {
            dirs.push(AffineForm::new(e.coeffs().to_vec(), 0));
            dirs.push(AffineForm::new(e.coeffs().to_vec(), 0).checked_neg()?);
        }
    }
    dirs.sort();
    dirs.dedup();
    let mut hull = Polyhedron::universe(first.space().clone());
    'dirs: for a in dirs {
        let mut need: Option<i64> = None;
        for p in parts {
            match p.system().rational_min(&a, &[], limits)? {
                LpOutcome::Optimal { value, .. } => {
                    let neg = value
                        .ceil()
                        .checked_neg()
                        .ok_or(crate::error::PolyError::Overflow { operation: "union hull" })?;
                    let c = crate::int::to_i64(neg, "union hull")?;
                    need = Some(need.map_or(c, |x| x.max(c)));
                }
                LpOutcome::Unbounded => continue 'dirs,
                LpOutcome::Infeasible => {}
            }
        }
        if let Some(c) = need {
            hull.add_inequality(&AffineForm::new(a.coeffs().to_vec(), c))?;
        }
    }
    hull.remove_redundancies(limits)
}

#[cfg(test)]
mod tests {
    use super::union_hull;
    use crate::affine::AffineForm;
    use crate::error::PolyError;
    use crate::limits::Limits;
    use crate::polyhedron::Polyhedron;
    use crate::space::Space;

    /// `0 ≤ i < N` and `0 ≤ i < M` with `N, M ≥ 1` (columns i, N, M): no direction bounds `i`
    /// above on both, so the hull needs Balas' lifting, which projects out `(2 − 1)·(3 + 1) = 4`
    /// columns, and gives `i ≤ N + M − 2`.
    fn pieces() -> Vec<Polyhedron> {
        let s = Space::set(["i", "N", "M"]);
        let lower = AffineForm::new(vec![1, 0, 0], 0);
        let below = |p: usize| {
            let mut c = vec![-1, 0, 0];
            c[p] = 1;
            AffineForm::new(c, -1)
        };
        [1, 2]
            .into_iter()
            .map(|p| {
                let positive = [AffineForm::new(vec![0, 1, 0], -1), AffineForm::new(vec![0, 0, 1], -1)];
                let mut rows = vec![lower.clone(), below(p)];
                rows.extend(positive);
                Polyhedron::from_constraints(s.clone(), &[], &rows).expect("pieces")
            })
            .collect()
    }

    #[test]
    fn balas_hull_within_the_budget_bounds_the_union() {
        let hull = union_hull(&pieces(), 0, &Limits::default()).expect("within the budget");
        let upper = AffineForm::new(vec![-1, 1, 1], -2);
        assert!(hull.inequalities().contains(&upper), "no i ≤ N + M − 2 in {hull:?}");
    }

    #[test]
    fn balas_hull_over_the_budget_is_refused_naming_it() {
        // Eliminating the four lifted columns combines a handful of rows.
        let small = Limits { max_hull_projection_rows: 1, ..Limits::default() };
        match union_hull(&pieces(), 0, &small) {
            Err(PolyError::LimitExceeded { limit, value, .. }) => {
                assert_eq!((limit, value), ("max_hull_projection_rows", 1));
            }
            other => panic!("expected the hull budget to be exceeded, got {other:?}"),
        }
        assert!(union_hull(&pieces(), 0, &Limits { max_hull_projection_rows: 64, ..Limits::default() }).is_ok());
    }

    /// Six pieces in four dimensions with incomparable parametric extents in the scanned
    /// dimension and skewed bounds: Balas' lifting projects out 60 columns (more than twice what
    /// a column limit of 24 once allowed) by producing a few hundred rows, within the budget,
    /// in milliseconds; and the hull bounds the scanned dimension above.
    #[test]
    fn many_pieces_project_within_the_row_budget() {
        let (r, d) = (6usize, 4usize);
        // Columns: d dims, then the r params P_p (dim 0's extent in piece p), then N.
        let n = d + r + 1;
        let s = Space::set((0..n).map(|c| format!("c{c}")).collect::<Vec<_>>());
        let pieces: Vec<Polyhedron> = (0..r)
            .map(|p| {
                let mut rows = vec![];
                for k in 0..d {
                    let mut lower = vec![0i64; n];
                    lower[k] = 1;
                    rows.push(AffineForm::new(lower, -(((p + k) % 3) as i64)));
                    let mut upper = vec![0i64; n];
                    upper[k] = -1;
                    upper[if k == 0 { d + p } else { d + r }] = 1;
                    rows.push(AffineForm::new(upper, -1 - (p % 2) as i64));
                    if k > 0 {
                        let mut skew = vec![0i64; n];
                        (skew[k], skew[k - 1], skew[d + r]) = (-1, 1, 1);
                        rows.push(AffineForm::new(skew, p as i64));
                    }
                }
                for q in 0..=r {
                    let mut positive = vec![0i64; n];
                    positive[d + q] = 1;
                    rows.push(AffineForm::new(positive, -1));
                }
                Polyhedron::from_constraints(s.clone(), &[], &rows).expect("piece")
            })
            .collect();
        let hull = union_hull(&pieces, 0, &Limits::default()).expect("within the row budget");
        assert!(hull.inequalities().iter().any(|f| f.coeff(0) < 0), "dim 0 unbounded above in {hull:?}");
        let tight = Limits { max_hull_projection_rows: 100, ..Limits::default() };
        assert!(matches!(union_hull(&pieces, 0, &tight), Err(PolyError::LimitExceeded { .. })));
    }
}
