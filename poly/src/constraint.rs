//! GCD normalisation of single constraints.
//!
//! An inequality is `form ≥ 0`, an equality `form = 0`. Over the integers an inequality can be
//! *tightened*: `Σ a_i x_i + c ≥ 0` with `g = gcd(a)` holds at an integer point iff
//! `Σ (a_i/g) x_i + ⌊c/g⌋ ≥ 0` does, and an equality has no integer solution unless `g | c`
//! (the GCD test). Over the rationals (Farkas multipliers) only division by the gcd of *all*
//! entries is allowed.

use crate::affine::AffineForm;
use crate::error::Result;
use crate::int::{floor_div, gcd_i64, to_i64};

/// Which points a constraint system describes; decides how constraints may be normalised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Semantics {
    /// Integer points (polyhedra of iteration domains, dependences, schedules).
    Integer,
    /// Rational points (Farkas multipliers).
    Rational,
}

/// Outcome of normalising one constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Normalized {
    /// Holds everywhere; drop it.
    Tautology,
    /// Holds nowhere; the system is empty.
    Contradiction,
    /// The normalised constraint.
    Form(AffineForm),
}

/// Normalises `form ≥ 0`.
pub(crate) fn normalize_inequality(form: &AffineForm, sem: Semantics) -> Result<Normalized> {
    let g = form.content();
    if g == 0 {
        return Ok(if form.constant() >= 0 { Normalized::Tautology } else { Normalized::Contradiction });
    }
    let g = match sem {
        Semantics::Integer => g,
        Semantics::Rational => gcd_i64(g as i64, form.constant()).max(1),
    };
    if g == 1 {
        return Ok(Normalized::Form(form.clone()));
    }
    let g = i128::from(g);
    let mut out = form.clone();
    for col in 0..out.n_columns() {
        let c = i128::from(form.coeff(col));
        if c != 0 {
            out.set_coeff(col, to_i64(c / g, "gcd normalisation")?);
        }
    }
    out.set_constant(to_i64(floor_div(i128::from(form.constant()), g), "gcd normalisation")?);
    Ok(Normalized::Form(out))
}

/// Normalises `form = 0`: divided by its gcd, first non-zero coefficient positive.
pub(crate) fn normalize_equality(form: &AffineForm, sem: Semantics) -> Result<Normalized> {
    let g = form.content();
    if g == 0 {
        return Ok(if form.constant() == 0 { Normalized::Tautology } else { Normalized::Contradiction });
    }
    let g = match sem {
        Semantics::Integer => {
            if i128::from(form.constant()) % i128::from(g) != 0 {
                return Ok(Normalized::Contradiction);
            }
            g
        }
        Semantics::Rational => gcd_i64(g as i64, form.constant()).max(1),
    };
    let lead = form.first_nonzero().map(|c| form.coeff(c)).unwrap_or(1);
    let d = if lead < 0 { -i128::from(g) } else { i128::from(g) };
    let mut out = form.clone();
    for col in 0..out.n_columns() {
        let c = i128::from(form.coeff(col));
        if c != 0 {
            out.set_coeff(col, to_i64(c / d, "gcd normalisation")?);
        }
    }
    out.set_constant(to_i64(i128::from(form.constant()) / d, "gcd normalisation")?);
    Ok(Normalized::Form(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_inequalities_are_tightened() {
        // 2x - 3 >= 0  <=>  x >= 2 over the integers.
        let f = AffineForm::new(vec![2], -3);
        assert_eq!(
            normalize_inequality(&f, Semantics::Integer).unwrap(),
            Normalized::Form(AffineForm::new(vec![1], -2))
        );
        // Rationally only common factors of all entries may go.
        assert_eq!(normalize_inequality(&f, Semantics::Rational).unwrap(), Normalized::Form(f.clone()));
        let h = AffineForm::new(vec![4], -6);
        assert_eq!(
            normalize_inequality(&h, Semantics::Rational).unwrap(),
            Normalized::Form(AffineForm::new(vec![2], -3))
        );
    }

    #[test]
    fn gcd_test_on_equalities() {
        let f = AffineForm::new(vec![2, -4], 1);
        assert_eq!(normalize_equality(&f, Semantics::Integer).unwrap(), Normalized::Contradiction);
        let g = AffineForm::new(vec![-2, 4], 6);
        assert_eq!(
            normalize_equality(&g, Semantics::Integer).unwrap(),
            Normalized::Form(AffineForm::new(vec![1, -2], -3))
        );
        assert_eq!(
            normalize_equality(&AffineForm::new(vec![0], 0), Semantics::Integer).unwrap(),
            Normalized::Tautology
        );
    }

    #[test]
    fn extreme_coefficients_do_not_panic() {
        let f = AffineForm::new(vec![i64::MIN, i64::MIN], i64::MIN);
        assert!(normalize_inequality(&f, Semantics::Integer).is_ok());
        assert!(normalize_equality(&f, Semantics::Integer).is_ok());
        assert!(normalize_equality(&f, Semantics::Rational).is_ok());
    }
}
