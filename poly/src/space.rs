//! Named column layouts: set dimensions followed by parameters.

use std::fmt;

use crate::error::{PolyError, Result};

/// The columns of an affine form or polyhedron: `dims` (iterators, unknowns, …) first, then
/// `params` (symbolic constants such as `N`, fixed for one execution). The constant term is
/// not a column. Thesis §3.2.1 writes a domain as `R_S (i_S, g, 1)^T ≥ 0` with exactly this
/// layout (`i_S` = dims, `g` = params).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Space {
    dims: Vec<String>,
    params: Vec<String>,
}

impl Space {
    /// A space with the given dimension and parameter names.
    pub fn new<D, P>(dims: D, params: P) -> Space
    where
        D: IntoIterator,
        D::Item: Into<String>,
        P: IntoIterator,
        P::Item: Into<String>,
    {
        Space { dims: dims.into_iter().map(Into::into).collect(), params: params.into_iter().map(Into::into).collect() }
    }

    /// A parameter-free space.
    pub fn set<D>(dims: D) -> Space
    where
        D: IntoIterator,
        D::Item: Into<String>,
    {
        Space::new(dims, std::iter::empty::<String>())
    }

    /// A space with `n` dimensions named `x0, x1, …` and no parameters.
    pub fn anonymous(n: usize) -> Space {
        Space::set((0..n).map(|i| format!("x{i}")))
    }

    /// Dimension names.
    pub fn dims(&self) -> &[String] {
        &self.dims
    }

    /// Parameter names.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// Number of dimensions.
    pub fn n_dims(&self) -> usize {
        self.dims.len()
    }

    /// Number of parameters.
    pub fn n_params(&self) -> usize {
        self.params.len()
    }

    /// Number of columns (dimensions + parameters).
    pub fn n_columns(&self) -> usize {
        self.dims.len() + self.params.len()
    }

    /// Name of column `col` (dimensions first, then parameters).
    pub fn column_name(&self, col: usize) -> &str {
        if col < self.dims.len() {
            &self.dims[col]
        } else {
            self.params.get(col - self.dims.len()).map(String::as_str).unwrap_or("?")
        }
    }

    /// Column of the dimension or parameter called `name` (dimensions shadow parameters).
    pub fn column_of(&self, name: &str) -> Option<usize> {
        self.dims
            .iter()
            .position(|d| d == name)
            .or_else(|| self.params.iter().position(|p| p == name).map(|p| p + self.dims.len()))
    }

    /// The same parameters with other dimensions.
    pub fn with_dims<D>(&self, dims: D) -> Space
    where
        D: IntoIterator,
        D::Item: Into<String>,
    {
        Space::new(dims, self.params.iter().cloned())
    }

    /// Fails with [`PolyError::SpaceMismatch`] unless `n` equals the number of columns.
    pub(crate) fn check_columns(&self, n: usize, context: &'static str) -> Result<()> {
        if n == self.n_columns() {
            Ok(())
        } else {
            Err(PolyError::SpaceMismatch { context, expected: self.n_columns(), found: n })
        }
    }

    /// Fails unless both spaces have the same number of dimensions and parameters.
    pub(crate) fn check_compatible(&self, other: &Space, context: &'static str) -> Result<()> {
        if self.n_dims() != other.n_dims() || self.n_params() != other.n_params() {
            return Err(PolyError::SpaceMismatch { context, expected: self.n_columns(), found: other.n_columns() });
        }
        Ok(())
    }
}

impl fmt::Display for Space {
    /// `[N, M] -> [i, j]` (isl notation), or `[i, j]` without parameters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.params.is_empty() {
            write!(f, "[{}] -> ", self.params.join(", "))?;
        }
        write!(f, "[{}]", self.dims.join(", "))
    }
}
