//! Affine forms with exact integer coefficients.

use std::fmt;

use crate::error::{overflow, PolyError, Result};
use crate::int::{add, gcd_i64, mul, mul_add, to_i64};
use crate::space::Space;

/// An affine form `Σ coeffs[c]·x_c + constant` over the columns of a [`Space`] (dimensions,
/// then parameters). This is one row `(a, b)` of the matrix `R_S` of thesis Eq. (3.6).
///
/// All arithmetic is checked: an overflowing result is [`PolyError::Overflow`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AffineForm {
    coeffs: Vec<i64>,
    constant: i64,
}

impl AffineForm {
    /// The form with the given coefficients and constant.
    pub fn new(coeffs: Vec<i64>, constant: i64) -> AffineForm {
        AffineForm { coeffs, constant }
    }

    /// The zero form over `n` columns.
    pub fn zero(n: usize) -> AffineForm {
        AffineForm { coeffs: vec![0; n], constant: 0 }
    }

    /// The constant form `c` over `n` columns.
    pub fn constant_form(n: usize, c: i64) -> AffineForm {
        AffineForm { coeffs: vec![0; n], constant: c }
    }

    /// The form `x_col` over `n` columns.
    pub fn unit(n: usize, col: usize) -> Result<AffineForm> {
        AffineForm::from_terms(n, &[(col, 1)], 0)
    }

    /// `Σ coef·x_col + constant` from `(col, coef)` terms (repeated columns add up).
    pub fn from_terms(n: usize, terms: &[(usize, i64)], constant: i64) -> Result<AffineForm> {
        let mut coeffs = vec![0i64; n];
        for &(col, c) in terms {
            let slot = coeffs.get_mut(col).ok_or(PolyError::SpaceMismatch {
                context: "AffineForm::from_terms",
                expected: n,
                found: col + 1,
            })?;
            *slot = slot.checked_add(c).ok_or_else(|| overflow("AffineForm::from_terms"))?;
        }
        Ok(AffineForm { coeffs, constant })
    }

    /// Parses `2*i + N - 1` (or `2i + N - 1`) over the names of `space`.
    pub fn parse(space: &Space, text: &str) -> Result<AffineForm> {
        crate::parse::parse_form(space, text)
    }

    /// Coefficients, one per column.
    pub fn coeffs(&self) -> &[i64] {
        &self.coeffs
    }

    /// Coefficient of column `col` (0 outside the form).
    pub fn coeff(&self, col: usize) -> i64 {
        self.coeffs.get(col).copied().unwrap_or(0)
    }

    /// The constant term.
    pub fn constant(&self) -> i64 {
        self.constant
    }

    /// Number of columns.
    pub fn n_columns(&self) -> usize {
        self.coeffs.len()
    }

    /// Whether every coefficient is zero.
    pub fn is_constant(&self) -> bool {
        self.coeffs.iter().all(|&c| c == 0)
    }

    /// First column with a non-zero coefficient.
    pub fn first_nonzero(&self) -> Option<usize> {
        self.coeffs.iter().position(|&c| c != 0)
    }

    /// The gcd of the coefficients' magnitudes (0 for a constant form).
    pub fn content(&self) -> u64 {
        self.coeffs.iter().fold(0u64, |g, &c| if g == 1 { 1 } else { gcd_i64(g as i64, c) })
    }

    pub(crate) fn set_coeff(&mut self, col: usize, v: i64) {
        self.coeffs[col] = v;
    }

    pub(crate) fn set_constant(&mut self, v: i64) {
        self.constant = v;
    }

    /// `a·self + b·other`, checked (the two forms must have the same columns).
    pub fn combine(a: i64, f: &AffineForm, b: i64, g: &AffineForm) -> Result<AffineForm> {
        if f.coeffs.len() != g.coeffs.len() {
            return Err(PolyError::SpaceMismatch {
                context: "AffineForm::combine",
                expected: f.coeffs.len(),
                found: g.coeffs.len(),
            });
        }
        let (a, b) = (i128::from(a), i128::from(b));
        let op = "affine combination";
        let coeffs = f
            .coeffs
            .iter()
            .zip(&g.coeffs)
            .map(|(&x, &y)| to_i64(mul_add(a, i128::from(x), b, i128::from(y), op)?, op))
            .collect::<Result<Vec<_>>>()?;
        let constant = to_i64(mul_add(a, i128::from(f.constant), b, i128::from(g.constant), op)?, op)?;
        Ok(AffineForm { coeffs, constant })
    }

    /// `self + other`.
    pub fn checked_add(&self, other: &AffineForm) -> Result<AffineForm> {
        AffineForm::combine(1, self, 1, other)
    }

    /// `self - other`.
    pub fn checked_sub(&self, other: &AffineForm) -> Result<AffineForm> {
        AffineForm::combine(1, self, -1, other)
    }

    /// `k·self`.
    pub fn checked_scale(&self, k: i64) -> Result<AffineForm> {
        let op = "affine scaling";
        let coeffs =
            self.coeffs.iter().map(|&c| c.checked_mul(k).ok_or_else(|| overflow(op))).collect::<Result<_>>()?;
        Ok(AffineForm { coeffs, constant: self.constant.checked_mul(k).ok_or_else(|| overflow(op))? })
    }

    /// `-self`.
    pub fn checked_neg(&self) -> Result<AffineForm> {
        self.checked_scale(-1)
    }

    /// `self + k` (constant shift).
    pub fn checked_add_constant(&self, k: i64) -> Result<AffineForm> {
        let constant = self.constant.checked_add(k).ok_or_else(|| overflow("affine constant shift"))?;
        Ok(AffineForm { coeffs: self.coeffs.clone(), constant })
    }

    /// The value at `point` (one value per column).
    pub fn eval(&self, point: &[i64]) -> Result<i64> {
        to_i64(self.eval_i128(point)?, "affine evaluation")
    }

    /// The value at `point`, in `i128`.
    pub(crate) fn eval_i128(&self, point: &[i64]) -> Result<i128> {
        if point.len() != self.coeffs.len() {
            return Err(PolyError::SpaceMismatch {
                context: "AffineForm::eval",
                expected: self.coeffs.len(),
                found: point.len(),
            });
        }
        let op = "affine evaluation";
        let mut acc = i128::from(self.constant);
        for (&c, &x) in self.coeffs.iter().zip(point) {
            if c != 0 {
                acc = add(acc, mul(i128::from(c), i128::from(x), op)?, op)?;
            }
        }
        Ok(acc)
    }

    /// The same form over `new_len` columns, old column `c` moved to `mapping[c]`.
    pub fn remap(&self, new_len: usize, mapping: &[usize]) -> Result<AffineForm> {
        if mapping.len() != self.coeffs.len() {
            return Err(PolyError::SpaceMismatch {
                context: "AffineForm::remap",
                expected: self.coeffs.len(),
                found: mapping.len(),
            });
        }
        let mut coeffs = vec![0i64; new_len];
        for (&c, &to) in self.coeffs.iter().zip(mapping) {
            if c != 0 {
                let slot = coeffs.get_mut(to).ok_or(PolyError::SpaceMismatch {
                    context: "AffineForm::remap",
                    expected: new_len,
                    found: to + 1,
                })?;
                *slot = slot.checked_add(c).ok_or_else(|| overflow("AffineForm::remap"))?;
            }
        }
        Ok(AffineForm { coeffs, constant: self.constant })
    }

    /// Substitutes `x_c := images[c]` for the first `images.len()` columns; the remaining
    /// columns of `self` map to the trailing `tail` columns of the images' space (parameters).
    /// This is the composition `self ∘ M` used by preimages.
    pub fn compose(&self, images: &[AffineForm], tail: usize) -> Result<AffineForm> {
        let k = images.len();
        if self.coeffs.len() != k + tail {
            return Err(PolyError::SpaceMismatch {
                context: "AffineForm::compose",
                expected: k + tail,
                found: self.coeffs.len(),
            });
        }
        let n = images.first().map(|f| f.n_columns()).unwrap_or(tail);
        if n < tail {
            return Err(PolyError::SpaceMismatch { context: "AffineForm::compose", expected: tail, found: n });
        }
        let mut acc = AffineForm::constant_form(n, self.constant);
        for (c, img) in self.coeffs[..k].iter().zip(images) {
            if *c != 0 {
                acc = AffineForm::combine(1, &acc, *c, img)?;
            }
        }
        for (j, &c) in self.coeffs[k..].iter().enumerate() {
            let col = n - tail + j;
            acc.coeffs[col] = acc.coeffs[col].checked_add(c).ok_or_else(|| overflow("AffineForm::compose"))?;
        }
        Ok(acc)
    }

    /// Renders the form with the column names of `space`, e.g. `i - 2*N + 1`.
    pub fn display<'a>(&'a self, space: &'a Space) -> impl fmt::Display + 'a {
        DisplayForm { form: self, space, sign: 1 }
    }

    /// Renders `-self` with the column names of `space`.
    pub(crate) fn display_negated<'a>(&'a self, space: &'a Space) -> DisplayForm<'a> {
        DisplayForm { form: self, space, sign: -1 }
    }
}

/// Display adapter for a (possibly negated) form.
pub(crate) struct DisplayForm<'a> {
    form: &'a AffineForm,
    space: &'a Space,
    sign: i128,
}

impl fmt::Display for DisplayForm<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms = self
            .form
            .coeffs
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 0)
            .map(|(col, &c)| (self.sign * i128::from(c), self.space.column_name(col)));
        write_terms(f, terms, self.sign * i128::from(self.form.constant))
    }
}

/// Writes `Σ coef·name + constant` in the crate's canonical notation: `i - 2*N + 1`, `0`.
pub(crate) fn write_terms<'a>(
    f: &mut fmt::Formatter<'_>,
    terms: impl Iterator<Item = (i128, &'a str)>,
    constant: i128,
) -> fmt::Result {
    let mut first = true;
    for (c, name) in terms {
        let mag = c.unsigned_abs();
        if first {
            if c < 0 {
                write!(f, "-")?;
            }
        } else {
            write!(f, " {} ", if c < 0 { '-' } else { '+' })?;
        }
        if mag != 1 {
            write!(f, "{mag}*")?;
        }
        write!(f, "{name}")?;
        first = false;
    }
    if first {
        write!(f, "{constant}")
    } else if constant != 0 {
        write!(f, " {} {}", if constant < 0 { '-' } else { '+' }, constant.unsigned_abs())
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combination_overflow_is_an_error() {
        let f = AffineForm::new(vec![i64::MAX, 1], 0);
        assert!(matches!(f.checked_add(&f), Err(PolyError::Overflow { .. })));
        assert!(matches!(f.checked_scale(2), Err(PolyError::Overflow { .. })));
        assert_eq!(AffineForm::new(vec![i64::MAX], 0).eval(&[2]), Err(overflow("affine evaluation")));
    }

    #[test]
    fn display_uses_names_and_signs() {
        let s = Space::new(["i", "j"], ["N"]);
        let f = AffineForm::new(vec![1, -2, 3], -4);
        assert_eq!(f.display(&s).to_string(), "i - 2*j + 3*N - 4");
        assert_eq!(f.display_negated(&s).to_string(), "-i + 2*j - 3*N + 4");
        assert_eq!(AffineForm::zero(3).display(&s).to_string(), "0");
    }

    #[test]
    fn compose_substitutes_dimensions_and_keeps_parameters() {
        // f(y, N) = 2y + N + 1 with y = x + 3 over (x, N).
        let f = AffineForm::new(vec![2, 1], 1);
        let y = AffineForm::new(vec![1, 0], 3);
        assert_eq!(f.compose(&[y], 1).unwrap(), AffineForm::new(vec![2, 1], 7));
    }
}
