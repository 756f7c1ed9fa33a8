//! Original (and transformed) schedules: multi-dimensional affine time stamps.

use crate::affine::AffineForm;
use crate::error::{PolyError, Result};
use crate::space::Space;

/// A multi-dimensional affine schedule `Θ_S(i) = (θ_1(i), …, θ_m(i))` over a statement's
/// iterators and the parameters; instances execute in lexicographic order of their time
/// stamps (thesis Thm 3.1's `≺`). The original schedule of a loop nest is the interleaving
/// `(β_0, i_1, β_1, …, i_n, β_n)` of loop iterators and scalar textual positions β
/// ([`Schedule::from_beta`], thesis §3.2.3's scalar dimensions); a loop run backwards has the
/// row `−i_k`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    n_iterators: usize,
    rows: Vec<AffineForm>,
}

impl Schedule {
    /// A schedule with the given rows, each over `space` (a statement's iterators + params).
    pub fn new(space: &Space, rows: Vec<AffineForm>) -> Result<Schedule> {
        for r in &rows {
            space.check_columns(r.n_columns(), "Schedule::new")?;
        }
        Ok(Schedule { n_iterators: space.n_dims(), rows })
    }

    /// A schedule over `n_iterators` iterators with the given rows, which the caller took from
    /// another schedule over the same space (so their columns are already checked).
    pub(crate) fn with_rows(n_iterators: usize, rows: Vec<AffineForm>) -> Schedule {
        Schedule { n_iterators, rows }
    }

    /// The original schedule of a statement nested in `space.n_dims()` loops at textual
    /// positions `beta` (`beta.len() = n + 1`): rows `(β_0, i_1, β_1, …, i_n, β_n)`. Two
    /// statements share their outer `k` loops iff their first `k` β entries agree.
    pub fn from_beta(beta: &[i64], space: &Space) -> Result<Schedule> {
        let n = space.n_dims();
        if beta.len() != n + 1 {
            return Err(PolyError::InvalidScop(format!(
                "a statement in {n} loops needs {} β entries (one per loop level plus one), got {}",
                n + 1,
                beta.len()
            )));
        }
        let cols = space.n_columns();
        let mut rows = Vec::with_capacity(2 * n + 1);
        for (k, &b) in beta.iter().enumerate() {
            rows.push(AffineForm::constant_form(cols, b));
            if k < n {
                rows.push(AffineForm::unit(cols, k)?);
            }
        }
        Ok(Schedule { n_iterators: n, rows })
    }

    /// Number of iterators of the statement space the rows are over.
    pub fn n_iterators(&self) -> usize {
        self.n_iterators
    }

    /// The rows.
    pub fn rows(&self) -> &[AffineForm] {
        &self.rows
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the schedule has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Whether row `k` depends on the iterators (a loop dimension) rather than being scalar.
    pub fn is_loop_row(&self, k: usize) -> bool {
        self.rows.get(k).is_some_and(|r| r.coeffs()[..self.n_iterators].iter().any(|&c| c != 0))
    }

    /// The time stamp of an instance (`point` = iterators then parameter values).
    pub fn eval(&self, point: &[i64]) -> Result<Vec<i64>> {
        self.rows.iter().map(|r| r.eval(point)).collect()
    }
}
