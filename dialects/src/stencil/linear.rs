//! Linear (affine, no division) views of affine expressions, used to reason about domains and
//! accesses exactly: `Σ c_d·d + Σ c_s·s + c0`.

use stencil_ir::affine::{AffineBinOp, AffineExpr};

/// Coefficients of dimensions and symbols plus a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Linear {
    /// Coefficient per dimension.
    pub dims: Vec<i64>,
    /// Coefficient per symbol.
    pub symbols: Vec<i64>,
    /// Constant term.
    pub constant: i64,
}

impl Linear {
    /// The zero form.
    pub fn zero(num_dims: usize, num_symbols: usize) -> Self {
        Linear { dims: vec![0; num_dims], symbols: vec![0; num_symbols], constant: 0 }
    }

    /// `self + k·other`, `None` on overflow.
    pub fn add_scaled(&self, other: &Linear, k: i64) -> Option<Linear> {
        let zip = |a: &[i64], b: &[i64]| -> Option<Vec<i64>> {
            a.iter().zip(b).map(|(x, y)| x.checked_add(y.checked_mul(k)?)).collect()
        };
        Some(Linear {
            dims: zip(&self.dims, &other.dims)?,
            symbols: zip(&self.symbols, &other.symbols)?,
            constant: self.constant.checked_add(other.constant.checked_mul(k)?)?,
        })
    }

    /// Value at the given symbol values (dimensions must have zero coefficients or be given).
    pub fn eval(&self, dims: &[i64], symbols: &[i64]) -> Option<i64> {
        let mut acc = self.constant;
        for (c, v) in self.dims.iter().zip(dims) {
            acc = acc.checked_add(c.checked_mul(*v)?)?;
        }
        for (c, v) in self.symbols.iter().zip(symbols) {
            acc = acc.checked_add(c.checked_mul(*v)?)?;
        }
        Some(acc)
    }
}

/// Why an affine expression has no linear form.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinearizeError {
    /// It uses floordiv, ceildiv or mod, a product of two non-constants, or a dimension or
    /// symbol beyond the counts given.
    #[error("not a sum of integer multiples of dimensions and symbols and a constant")]
    NotLinear,
    /// A coefficient or the constant of the form does not fit in `i64`
    /// (`s0 * 9223372036854775807 + s0 * 9223372036854775807`).
    #[error("a coefficient or the constant overflows i64")]
    Overflow,
}

/// The linear form of `e`, or `None` if it uses floordiv/ceildiv/mod, a product of two
/// non-constants, or overflows ([`try_linearize`] tells which).
pub fn linearize(e: &AffineExpr, num_dims: usize, num_symbols: usize) -> Option<Linear> {
    try_linearize(e, num_dims, num_symbols).ok()
}

/// The linear form of `e`, or why there is none: the verifier reports an overflowing form as
/// an overflow, not as a non-affine expression.
pub fn try_linearize(e: &AffineExpr, num_dims: usize, num_symbols: usize) -> Result<Linear, LinearizeError> {
    use LinearizeError::{NotLinear, Overflow};
    match e {
        AffineExpr::Constant(c) => Ok(Linear { constant: *c, ..Linear::zero(num_dims, num_symbols) }),
        AffineExpr::Dim(d) => {
            let mut l = Linear::zero(num_dims, num_symbols);
            *l.dims.get_mut(*d as usize).ok_or(NotLinear)? = 1;
            Ok(l)
        }
        AffineExpr::Symbol(s) => {
            let mut l = Linear::zero(num_dims, num_symbols);
            *l.symbols.get_mut(*s as usize).ok_or(NotLinear)? = 1;
            Ok(l)
        }
        AffineExpr::Binary(AffineBinOp::Add, a, b) => try_linearize(a, num_dims, num_symbols)?
            .add_scaled(&try_linearize(b, num_dims, num_symbols)?, 1)
            .ok_or(Overflow),
        AffineExpr::Binary(AffineBinOp::Mul, a, b) => {
            let (form, k) = match (a.as_constant(), b.as_constant()) {
                (_, Some(k)) => (a, k),
                (Some(k), _) => (b, k),
                _ => return Err(NotLinear),
            };
            Linear::zero(num_dims, num_symbols)
                .add_scaled(&try_linearize(form, num_dims, num_symbols)?, k)
                .ok_or(Overflow)
        }
        AffineExpr::Binary(..) => Err(NotLinear),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AffineExpr::{Constant, Symbol};

    #[test]
    fn overflowing_forms_are_told_apart_from_non_linear_ones() {
        let big = || AffineExpr::Binary(AffineBinOp::Mul, Box::new(Symbol(0)), Box::new(Constant(i64::MAX)));
        let doubled = AffineExpr::Binary(AffineBinOp::Add, Box::new(big()), Box::new(big()));
        assert_eq!(try_linearize(&doubled, 0, 1), Err(LinearizeError::Overflow));
        let constant = AffineExpr::Binary(AffineBinOp::Add, Box::new(Constant(i64::MIN)), Box::new(Constant(-1)));
        assert_eq!(try_linearize(&constant, 0, 0), Err(LinearizeError::Overflow));
        let div = AffineExpr::Binary(AffineBinOp::FloorDiv, Box::new(Symbol(0)), Box::new(Constant(2)));
        assert_eq!(try_linearize(&div, 0, 1), Err(LinearizeError::NotLinear));
        assert_eq!(try_linearize(&big(), 0, 1).map(|l| l.symbols), Ok(vec![i64::MAX]));
    }
}
