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

/// The linear form of `e`, or `None` if it uses floordiv/ceildiv/mod, a product of two
/// non-constants, or overflows.
pub fn linearize(e: &AffineExpr, num_dims: usize, num_symbols: usize) -> Option<Linear> {
    match e {
        AffineExpr::Constant(c) => Some(Linear { constant: *c, ..Linear::zero(num_dims, num_symbols) }),
        AffineExpr::Dim(d) => {
            let mut l = Linear::zero(num_dims, num_symbols);
            *l.dims.get_mut(*d as usize)? = 1;
            Some(l)
        }
        AffineExpr::Symbol(s) => {
            let mut l = Linear::zero(num_dims, num_symbols);
            *l.symbols.get_mut(*s as usize)? = 1;
            Some(l)
        }
        AffineExpr::Binary(AffineBinOp::Add, a, b) => {
            linearize(a, num_dims, num_symbols)?.add_scaled(&linearize(b, num_dims, num_symbols)?, 1)
        }
        AffineExpr::Binary(AffineBinOp::Mul, a, b) => {
            let (form, k) = match (a.as_constant(), b.as_constant()) {
                (_, Some(k)) => (a, k),
                (Some(k), _) => (b, k),
                _ => return None,
            };
            Linear::zero(num_dims, num_symbols).add_scaled(&linearize(form, num_dims, num_symbols)?, k)
        }
        AffineExpr::Binary(..) => None,
    }
}
