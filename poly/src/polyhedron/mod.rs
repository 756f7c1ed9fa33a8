//! Integer polyhedra: `{x ∈ Zⁿ : E·x + e = 0, A·x + b ≥ 0}` over a named [`Space`].
//!
//! This is the representation of iteration domains (thesis Eq. 3.5, `D_S = {i_S ∈ Zⁿ | A·i_S +
//! b ≥ 0}`) and dependence polyhedra (§3.2.4). Points are integer points: constraints are
//! gcd-normalised and tightened on entry (`2x − 3 ≥ 0` becomes `x − 2 ≥ 0`), which never changes the
//! integer set. Parameters are ordinary columns for every operation except
//! [`Polyhedron::fix_params`] and [`Polyhedron::enumerate`].

mod difference;
mod display;
mod optimize;
mod simplify;

pub use optimize::{LexMin, Optimum};

use crate::affine::AffineForm;
use crate::constraint::Semantics;
use crate::error::{PolyError, Result};
use crate::fourier_motzkin::{drop_columns, eliminate_within, Projection, RowBudget};
use crate::limits::Limits;
use crate::space::Space;
use crate::system::System;

/// A convex integer polyhedron over a [`Space`] (dimensions, then parameters).
///
/// `==` compares the stored constraints (structure), not the sets; use
/// [`Polyhedron::is_equal_set`] for set equality.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Polyhedron {
    space: Space,
    sys: System,
}

/// An iteration domain (thesis Eq. 3.5): a polyhedron over a statement's iterators and the
/// SCoP parameters.
pub type Domain = Polyhedron;

impl Polyhedron {
    /// All integer points of `space`.
    pub fn universe(space: Space) -> Polyhedron {
        let n = space.n_columns();
        Polyhedron { space, sys: System::new(n, Semantics::Integer) }
    }

    /// The empty set of `space`.
    pub fn empty(space: Space) -> Polyhedron {
        let mut p = Polyhedron::universe(space);
        p.sys.set_empty();
        p
    }

    /// `{x : eq(x) = 0, ineq(x) ≥ 0}`.
    pub fn from_constraints(
        space: Space,
        equalities: &[AffineForm],
        inequalities: &[AffineForm],
    ) -> Result<Polyhedron> {
        let mut p = Polyhedron::universe(space);
        for e in equalities {
            p.add_equality(e)?;
        }
        for f in inequalities {
            p.add_inequality(f)?;
        }
        Ok(p)
    }

    /// Parses constraints such as `0 <= i <= N - 1, j = i + 1` (separated by `,` or `and`;
    /// chains of `<=`, `<`, `>=`, `>`, `=`) over the names of `space`.
    pub fn parse(space: Space, text: &str) -> Result<Polyhedron> {
        let (eqs, ineqs) = crate::parse::parse_constraints(&space, text)?;
        Polyhedron::from_constraints(space, &eqs, &ineqs)
    }

    pub(crate) fn from_system(space: Space, sys: System) -> Result<Polyhedron> {
        space.check_columns(sys.n, "Polyhedron::from_system")?;
        if sys.sem == Semantics::Integer {
            return Ok(Polyhedron { space, sys });
        }
        // Re-normalise (tighten) rational rows for integer semantics.
        let mut p = Polyhedron::universe(space);
        if sys.empty {
            p.sys.set_empty();
        }
        for e in &sys.eqs {
            p.add_equality(e)?;
        }
        for f in &sys.ineqs {
            p.add_inequality(f)?;
        }
        Ok(p)
    }

    pub(crate) fn system(&self) -> &System {
        &self.sys
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// Number of columns (dimensions + parameters).
    pub fn n_columns(&self) -> usize {
        self.space.n_columns()
    }

    /// The equalities `f = 0` (gcd-normalised, first non-zero coefficient positive).
    pub fn equalities(&self) -> &[AffineForm] {
        &self.sys.eqs
    }

    /// The inequalities `f ≥ 0` (gcd-normalised and tightened).
    pub fn inequalities(&self) -> &[AffineForm] {
        &self.sys.ineqs
    }

    /// Whether a contradiction was found syntactically (a sufficient, not necessary, test of
    /// emptiness; use [`Polyhedron::is_empty`] for the exact one).
    pub fn is_known_empty(&self) -> bool {
        self.sys.empty
    }

    /// Adds `f = 0`.
    pub fn add_equality(&mut self, f: &AffineForm) -> Result<()> {
        self.sys.push_eq(f)
    }

    /// Adds `f ≥ 0`.
    pub fn add_inequality(&mut self, f: &AffineForm) -> Result<()> {
        self.sys.push_ineq(f)
    }

    /// Adds the constraints parsed from `text` (see [`Polyhedron::parse`]).
    pub fn add_constraints(&mut self, text: &str) -> Result<()> {
        let (eqs, ineqs) = crate::parse::parse_constraints(&self.space, text)?;
        for e in &eqs {
            self.add_equality(e)?;
        }
        for f in &ineqs {
            self.add_inequality(f)?;
        }
        Ok(())
    }

    /// The intersection with `other`, which must have the same numbers of dimensions and
    /// parameters (names are taken from `self`).
    pub fn intersect(&self, other: &Polyhedron) -> Result<Polyhedron> {
        self.space.check_compatible(&other.space, "Polyhedron::intersect")?;
        let mut p = self.clone();
        if other.sys.empty {
            p.sys.set_empty();
        }
        for e in &other.sys.eqs {
            p.add_equality(e)?;
        }
        for f in &other.sys.ineqs {
            p.add_inequality(f)?;
        }
        Ok(p)
    }

    /// The intersection of `self` with every one of `others`: the same constraints in the same
    /// order as intersecting them one after another, in time linear in the rows.
    pub fn intersect_all(&self, others: &[&Polyhedron]) -> Result<Polyhedron> {
        let mut p = self.clone();
        for other in others {
            self.space.check_compatible(&other.space, "Polyhedron::intersect_all")?;
            if other.sys.empty {
                p.sys.set_empty();
            }
        }
        // Equalities before inequalities, as `intersect` adds them per operand: an inequality
        // never changes how a later equality is added, nor the reverse, except by emptying.
        p.sys.extend(others.iter().flat_map(|o| &o.sys.eqs), others.iter().flat_map(|o| &o.sys.ineqs))?;
        Ok(p)
    }

    /// Whether the integer `point` (one value per column, parameters included) lies in the set.
    pub fn contains(&self, point: &[i64]) -> Result<bool> {
        self.space.check_columns(point.len(), "Polyhedron::contains")?;
        if self.sys.empty {
            return Ok(false);
        }
        for e in &self.sys.eqs {
            if e.eval_i128(point)? != 0 {
                return Ok(false);
            }
        }
        for f in &self.sys.ineqs {
            if f.eval_i128(point)? < 0 {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The same constraints in `space`, old column `c` becoming column `mapping[c]` (the other
    /// columns of `space` are unconstrained). Used to lift a domain into a dependence space.
    pub fn embed(&self, space: Space, mapping: &[usize]) -> Result<Polyhedron> {
        self.space.check_columns(mapping.len(), "Polyhedron::embed")?;
        let n = space.n_columns();
        let mut p = Polyhedron::universe(space);
        if self.sys.empty {
            p.sys.set_empty();
            return Ok(p);
        }
        for e in &self.sys.eqs {
            p.add_equality(&e.remap(n, mapping)?)?;
        }
        for f in &self.sys.ineqs {
            p.add_inequality(&f.remap(n, mapping)?)?;
        }
        Ok(p)
    }

    /// Substitutes the parameter values `values` (one per parameter); the result has no
    /// parameters.
    pub fn fix_params(&self, values: &[i64]) -> Result<Polyhedron> {
        if values.len() != self.space.n_params() {
            return Err(PolyError::SpaceMismatch {
                context: "Polyhedron::fix_params",
                expected: self.space.n_params(),
                found: values.len(),
            });
        }
        let nd = self.space.n_dims();
        let fix = |f: &AffineForm| -> Result<AffineForm> {
            let mut point = vec![0i64; self.n_columns()];
            point[nd..].copy_from_slice(values);
            let c = f.eval(&point)?;
            Ok(AffineForm::new(f.coeffs()[..nd].to_vec(), c))
        };
        let mut p = Polyhedron::universe(Space::set(self.space.dims().iter().cloned()));
        if self.sys.empty {
            p.sys.set_empty();
            return Ok(p);
        }
        for e in &self.sys.eqs {
            p.add_equality(&fix(e)?)?;
        }
        for f in &self.sys.ineqs {
            p.add_inequality(&fix(f)?)?;
        }
        Ok(p)
    }

    /// Projects out `count` dimensions starting at dimension `first` by Fourier–Motzkin
    /// elimination ([`crate::fourier_motzkin`]): `{y : ∃x, (y, x) ∈ self}`.
    pub fn project_out(&self, first: usize, count: usize, limits: &Limits) -> Result<Projection<Polyhedron>> {
        self.project_out_within(first, count, limits, None)
    }

    /// [`Self::project_out`] refused once its Fourier–Motzkin steps would produce more rows in
    /// all than `budget` allows.
    pub(crate) fn project_out_within(
        &self,
        first: usize,
        count: usize,
        limits: &Limits,
        budget: Option<RowBudget>,
    ) -> Result<Projection<Polyhedron>> {
        let nd = self.space.n_dims();
        if first.checked_add(count).is_none_or(|end| end > nd) {
            return Err(PolyError::SpaceMismatch {
                context: "Polyhedron::project_out",
                expected: nd,
                found: first + count,
            });
        }
        let cols: Vec<usize> = (first..first + count).collect();
        let mut sys = self.sys.clone();
        let exact = eliminate_within(&mut sys, &cols, limits, budget)?;
        drop_columns(&mut sys, &cols)?;
        let dims: Vec<String> =
            self.space.dims().iter().enumerate().filter(|(i, _)| !cols.contains(i)).map(|(_, d)| d.clone()).collect();
        let set = Polyhedron::from_system(self.space.with_dims(dims), sys)?;
        Ok(Projection { set, exact })
    }
}
