//! The affine form of Farkas' lemma: linearising "an affine form with unknown coefficients is
//! non-negative on a polyhedron".
//!
//! For a non-empty (rational) polyhedron `P = {y : A·y + b ≥ 0, E·y + e = 0}`, an affine form
//! `ψ(y) = Σ_j α_j y_j + α_0` is non-negative on all of `P` iff
//! `ψ(y) ≡ λ_0 + Σ_i λ_i (A_i·y + b_i) + Σ_k μ_k (E_k·y + e_k)` for some `λ ≥ 0` and free `μ`
//! (thesis §3.2.6–3.2.7, the tool behind Thm 3.3's legality condition as used by Pluto).
//! When the `α` are affine in unknowns `c` — schedule coefficients — equating the coefficient of
//! every column of `P` and the constant gives linear constraints on `(λ, μ, c)`; eliminating the
//! multipliers (Gaussian elimination where they sit in an equality, Fourier–Motzkin otherwise,
//! always the cheapest variable first, redundant rows removed by exact LP) leaves exactly the
//! constraints on `c`. Pluto splits the equalities of `P` into two inequalities; free
//! multipliers `μ` are the same thing with half the variables.
//!
//! Everything here is over the rationals, as the lemma is: the result is exact for the rational
//! points of `P`. For integral polyhedra (dependence polyhedra of uniform stencils, boxes) that
//! is the same as "on every integer point"; otherwise it is a sufficient condition.

use crate::affine::AffineForm;
use crate::constraint::Semantics;
use crate::error::{PolyError, Result};
use crate::fourier_motzkin::{drop_columns, eliminate};
use crate::limits::Limits;
use crate::polyhedron::Polyhedron;
use crate::space::Space;
use crate::system::System;

/// An affine form over the columns of a polyhedron whose coefficients are affine functions of
/// unknowns: `ψ_c(y) = Σ_j coeffs[j](c)·y_j + constant(c)`.
///
/// Example (legality, thesis Eq. 3.16): over a dependence polyhedron `[s, t, params]`,
/// `φ_T(t) − φ_S(s)` has coefficient `c_T,j` on `t_j`, `−c_S,j` on `s_j` and constant
/// `c_T,0 − c_S,0`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParametricForm {
    unknowns: Space,
    coeffs: Vec<AffineForm>,
    constant: AffineForm,
}

impl ParametricForm {
    /// `coeffs[j]` (over the columns of `unknowns`) multiplies column `j` of the polyhedron;
    /// `constant` is the constant term.
    pub fn new(unknowns: Space, coeffs: Vec<AffineForm>, constant: AffineForm) -> Result<ParametricForm> {
        for f in coeffs.iter().chain(std::iter::once(&constant)) {
            unknowns.check_columns(f.n_columns(), "ParametricForm::new")?;
        }
        Ok(ParametricForm { unknowns, coeffs, constant })
    }

    /// The unknowns' space.
    pub fn unknowns(&self) -> &Space {
        &self.unknowns
    }

    /// The coefficient of each polyhedron column, as a form over the unknowns.
    pub fn coeffs(&self) -> &[AffineForm] {
        &self.coeffs
    }

    /// The constant term, as a form over the unknowns.
    pub fn constant(&self) -> &AffineForm {
        &self.constant
    }

    /// The concrete form `ψ_c` for the unknown values `c`.
    pub fn instantiate(&self, c: &[i64]) -> Result<AffineForm> {
        let coeffs = self.coeffs.iter().map(|f| f.eval(c)).collect::<Result<Vec<_>>>()?;
        Ok(AffineForm::new(coeffs, self.constant.eval(c)?))
    }
}

/// The set of unknowns `c` (integer points of the result) for which `form_c(y) ≥ 0` for every
/// rational point `y` of `domain`, by the affine Farkas lemma with the multipliers eliminated.
///
/// If `domain` has no rational point every `c` qualifies and the universe is returned.
/// Constraints such as "`ψ ≥ k`" are expressed through the constant (`constant(c) − k`).
pub fn farkas_nonnegative(domain: &Polyhedron, form: &ParametricForm, limits: &Limits) -> Result<Polyhedron> {
    let space = domain.space();
    if form.coeffs.len() != space.n_columns() {
        return Err(PolyError::SpaceMismatch {
            context: "farkas_nonnegative",
            expected: space.n_columns(),
            found: form.coeffs.len(),
        });
    }
    let unknowns = form.unknowns.clone();
    if domain.is_rationally_empty(limits)? {
        return Ok(Polyhedron::universe(unknowns));
    }
    let domain = domain.remove_redundancies(limits)?;
    let (a, e) = (domain.inequalities(), domain.equalities());
    let (ml, mm, k) = (a.len(), e.len(), unknowns.n_columns());
    let n = ml + mm + k;
    let lift = |f: &AffineForm| -> Result<AffineForm> {
        let mapping: Vec<usize> = (0..k).map(|c| ml + mm + c).collect();
        f.remap(n, &mapping)
    };
    let mut sys = System::new(n, Semantics::Rational);
    // Column j of the domain: α_j(c) − Σ λ_i A_ij − Σ μ_k E_kj = 0.
    for j in 0..space.n_columns() {
        let mut row = lift(&form.coeffs[j])?;
        for (i, f) in a.iter().enumerate() {
            row.set_coeff(i, f.coeff(j).checked_neg().ok_or_else(|| crate::error::overflow("Farkas"))?);
        }
        for (m, f) in e.iter().enumerate() {
            row.set_coeff(ml + m, f.coeff(j).checked_neg().ok_or_else(|| crate::error::overflow("Farkas"))?);
        }
        sys.push_eq(&row)?;
    }
    // Constant: α_0(c) − Σ λ_i b_i − Σ μ_k e_k = λ_0 ≥ 0.
    let mut row = lift(&form.constant)?;
    for (i, f) in a.iter().enumerate() {
        row.set_coeff(i, f.constant().checked_neg().ok_or_else(|| crate::error::overflow("Farkas"))?);
    }
    for (m, f) in e.iter().enumerate() {
        row.set_coeff(ml + m, f.constant().checked_neg().ok_or_else(|| crate::error::overflow("Farkas"))?);
    }
    sys.push_ineq(&row)?;
    for i in 0..ml {
        sys.push_ineq(&AffineForm::unit(n, i)?)?;
    }
    let multipliers: Vec<usize> = (0..ml + mm).collect();
    eliminate(&mut sys, &multipliers, limits)?;
    drop_columns(&mut sys, &multipliers)?;
    sys.remove_redundant(&[], limits)?;
    Polyhedron::from_system(unknowns, sys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_interval() {
        // c1·x + c0 ≥ 0 on 0 ≤ x ≤ 1  ⇔  c0 ≥ 0 ∧ c1 + c0 ≥ 0.
        let p = Polyhedron::parse(Space::set(["x"]), "0 <= x <= 1").unwrap();
        let u = Space::set(["c1", "c0"]);
        let form =
            ParametricForm::new(u.clone(), vec![AffineForm::unit(2, 0).unwrap()], AffineForm::unit(2, 1).unwrap())
                .unwrap();
        let r = farkas_nonnegative(&p, &form, &Limits::default()).unwrap();
        let expected = Polyhedron::parse(u, "c0 >= 0, c1 + c0 >= 0").unwrap();
        assert!(r.is_equal_set(&expected, &Limits::default()).unwrap(), "{r}");
    }

    #[test]
    fn empty_domain_accepts_everything() {
        let p = Polyhedron::parse(Space::set(["x"]), "1 <= x <= 0").unwrap();
        let u = Space::set(["c"]);
        let form = ParametricForm::new(u.clone(), vec![AffineForm::unit(1, 0).unwrap()], AffineForm::zero(1)).unwrap();
        let r = farkas_nonnegative(&p, &form, &Limits::default()).unwrap();
        assert!(r.is_equal_set(&Polyhedron::universe(u), &Limits::default()).unwrap());
    }
}
