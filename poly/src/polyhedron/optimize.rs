//! Exact integer emptiness, optimisation and lexicographic minimum.

use super::Polyhedron;
use crate::affine::AffineForm;
use crate::error::{overflow, Result};
use crate::limits::Limits;
use crate::lp::branch_bound::{minimize, IlpOutcome};

/// Outcome of minimising an affine objective over the integer points of a polyhedron.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Optimum {
    /// The polyhedron has no integer point.
    Infeasible,
    /// It has integer points and the objective is unbounded below on them.
    Unbounded,
    /// The minimum `value`, attained at the integer `point` (all columns).
    Optimal {
        /// Minimum of the objective.
        value: i64,
        /// A point where it is attained.
        point: Vec<i64>,
    },
}

/// Outcome of a lexicographic minimisation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LexMin {
    /// The polyhedron has no integer point.
    Infeasible,
    /// Objective number `objective` (0-based) is unbounded below once the earlier ones are at
    /// their minima, so no lexicographic minimum exists.
    Unbounded {
        /// Index of the first unbounded objective.
        objective: usize,
    },
    /// The lexicographic minimum.
    Optimal {
        /// Minimum of each objective, in order.
        values: Vec<i64>,
        /// An integer point attaining them (all columns).
        point: Vec<i64>,
    },
}

impl From<IlpOutcome> for Optimum {
    fn from(o: IlpOutcome) -> Optimum {
        match o {
            IlpOutcome::Infeasible => Optimum::Infeasible,
            IlpOutcome::Unbounded => Optimum::Unbounded,
            IlpOutcome::Optimal { value, point } => Optimum::Optimal { value, point },
        }
    }
}

impl Polyhedron {
    /// Exact integer emptiness (branch-and-bound on the exact simplex after equality
    /// compression; see [`crate::lp`]).
    pub fn is_empty(&self, limits: &Limits) -> Result<bool> {
        Ok(self.find_point(limits)?.is_none())
    }

    /// Whether the polyhedron has no *rational* point (one linear program; implies
    /// [`Polyhedron::is_empty`], not conversely).
    pub fn is_rationally_empty(&self, limits: &Limits) -> Result<bool> {
        Ok(!self.sys.rationally_feasible(limits)?)
    }

    /// Some integer point, or `None` when there is none.
    pub fn find_point(&self, limits: &Limits) -> Result<Option<Vec<i64>>> {
        if self.sys.empty {
            return Ok(None);
        }
        Ok(match minimize(self.n_columns(), &self.sys.eqs, &self.sys.ineqs, None, limits)? {
            IlpOutcome::Optimal { point, .. } => Some(point),
            _ => None,
        })
    }

    /// Minimum of `objective` over the integer points.
    pub fn minimize(&self, objective: &AffineForm, limits: &Limits) -> Result<Optimum> {
        self.space.check_columns(objective.n_columns(), "Polyhedron::minimize")?;
        if self.sys.empty {
            return Ok(Optimum::Infeasible);
        }
        Ok(minimize(self.n_columns(), &self.sys.eqs, &self.sys.ineqs, Some(objective), limits)?.into())
    }

    /// Maximum of `objective` over the integer points ([`Optimum::Unbounded`] = unbounded above).
    pub fn maximize(&self, objective: &AffineForm, limits: &Limits) -> Result<Optimum> {
        Ok(match self.minimize(&objective.checked_neg()?, limits)? {
            Optimum::Optimal { value, point } => {
                Optimum::Optimal { value: value.checked_neg().ok_or_else(|| overflow("maximize"))?, point }
            }
            other => other,
        })
    }

    /// Lexicographic minimum of the integer points, over all columns in order (dimensions, then
    /// parameters). The scheduler orders its unknowns as columns and calls this.
    pub fn lexmin(&self, limits: &Limits) -> Result<LexMin> {
        let n = self.n_columns();
        let objectives = (0..n).map(|c| AffineForm::unit(n, c)).collect::<Result<Vec<_>>>()?;
        self.lexmin_objectives(&objectives, limits)
    }

    /// Lexicographic minimum of the vector of affine `objectives` over the integer points:
    /// minimise the first, fix it at its minimum, minimise the second, … Each step is an exact
    /// integer program, so the answer (and the unbounded / infeasible verdict) is exact.
    pub fn lexmin_objectives(&self, objectives: &[AffineForm], limits: &Limits) -> Result<LexMin> {
        let mut p = self.clone();
        let mut values = Vec::with_capacity(objectives.len());
        let Some(mut point) = p.find_point(limits)? else {
            return Ok(LexMin::Infeasible);
        };
        for (k, f) in objectives.iter().enumerate() {
            match p.minimize(f, limits)? {
                Optimum::Infeasible => return Ok(LexMin::Infeasible),
                Optimum::Unbounded => return Ok(LexMin::Unbounded { objective: k }),
                Optimum::Optimal { value, point: q } => {
                    p.add_equality(&f.checked_add_constant(value.checked_neg().ok_or_else(|| overflow("lexmin"))?)?)?;
                    values.push(value);
                    point = q;
                }
            }
        }
        Ok(LexMin::Optimal { values, point })
    }
}
