//! The original iterators as affine functions of the scanned dimensions.
//!
//! A statement's domain over `[dims, iterators, params]` ties the dimensions to the iterators
//! by equalities (`e = φ(i)`). Unimodular row operations (Euclid on the iterator columns, as
//! in a Hermite normal form) bring them to `i_j = f_j(dims, params)` — possible exactly when
//! the schedule has an integral left inverse on the statement's iterators (a unimodular
//! transformation, like every skew the thesis uses). Substituting `f_j` gives the domain in
//! the dimensions alone, the set the loops scan.

use super::error::{CodegenError, CodegenResult};
use super::problem::ScanStatement;
use crate::affine::AffineForm;
use crate::polyhedron::Polyhedron;
use crate::space::Space;

/// A statement's iterators and domain over `[dims, params]`.
pub(crate) struct Inverted {
    /// `i_j` as a form over `[dims, params]`.
    pub iter_values: Vec<AffineForm>,
    /// The domain with the iterators substituted, over `[dims, params]`.
    pub domain: Polyhedron,
}

/// Solves the equalities of `stmt.domain` for its iterators (see the module documentation);
/// `space` is `[dims, params]`.
pub(crate) fn invert(stmt: &ScanStatement, space: &Space) -> CodegenResult<Inverted> {
    let nd = space.n_dims();
    let n = stmt.iterators.len();
    let mut rows: Vec<AffineForm> = stmt.domain.equalities().to_vec();
    let mut pivot_of: Vec<usize> = Vec::with_capacity(n);
    let mut used = vec![false; rows.len()];
    for j in 0..n {
        let c = nd + j;
        let undetermined =
            || CodegenError::UndeterminedIterator { statement: stmt.name.clone(), iterator: stmt.iterators[j].clone() };
        // Euclid among the free rows until one row holds the gcd of column c.
        let p = loop {
            let cand: Vec<usize> = (0..rows.len()).filter(|&r| !used[r] && rows[r].coeff(c) != 0).collect();
            let Some(&a) = cand.iter().min_by_key(|&&r| rows[r].coeff(c).unsigned_abs()) else {
                return Err(undetermined());
            };
            if cand.len() == 1 {
                break a;
            }
            for &b in cand.iter().filter(|&&b| b != a) {
                let q = rows[b].coeff(c) / rows[a].coeff(c);
                rows[b] = AffineForm::combine(1, &rows[b], -q, &rows[a])?;
            }
        };
        let g = rows[p].coeff(c);
        if g.unsigned_abs() != 1 {
            return Err(CodegenError::NonUnimodular {
                statement: stmt.name.clone(),
                iterator: stmt.iterators[j].clone(),
                divisor: g.saturating_abs(),
            });
        }
        if g < 0 {
            rows[p] = rows[p].checked_neg()?;
        }
        for r in 0..rows.len() {
            let k = rows[r].coeff(c);
            if r != p && k != 0 {
                rows[r] = AffineForm::combine(1, &rows[r], -k, &rows[p])?;
            }
        }
        used[p] = true;
        pivot_of.push(p);
    }
    // Columns [dims, iterators, params] → [dims, params] for forms free of iterators.
    let to_scan = |f: &AffineForm| -> CodegenResult<AffineForm> {
        let coeffs: Vec<i64> = f.coeffs()[..nd].iter().chain(&f.coeffs()[nd + n..]).copied().collect();
        Ok(AffineForm::new(coeffs, f.constant()))
    };
    let mut iter_values = Vec::with_capacity(n);
    for (j, &p) in pivot_of.iter().enumerate() {
        // rows[p] = i_j + rest = 0, so i_j = −rest.
        let mut rest = rows[p].clone();
        rest = AffineForm::combine(1, &rest, -1, &AffineForm::unit(rest.n_columns(), nd + j)?)?;
        iter_values.push(to_scan(&rest)?.checked_neg()?);
    }
    let substitute = |f: &AffineForm| -> CodegenResult<AffineForm> {
        let mut g = to_scan(f)?;
        for (j, v) in iter_values.iter().enumerate() {
            let k = f.coeff(nd + j);
            if k != 0 {
                g = AffineForm::combine(1, &g, k, v)?;
            }
        }
        Ok(g)
    };
    let mut domain = Polyhedron::universe(space.clone());
    if stmt.domain.is_known_empty() {
        return Ok(Inverted { iter_values, domain: Polyhedron::empty(space.clone()) });
    }
    for (r, e) in rows.iter().enumerate() {
        if !used[r] {
            domain.add_equality(&substitute(e)?)?;
        }
    }
    for f in stmt.domain.inequalities() {
        domain.add_inequality(&substitute(f)?)?;
    }
    Ok(Inverted { iter_values, domain })
}
