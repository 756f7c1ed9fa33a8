//! Exact linear and integer programming.
//!
//! * `simplex`: rational LP — dictionary-form simplex with free variables, one-artificial
//!   phase 1, Bland's rule, integer tableau.
//! * `lattice`: integer solutions of equality systems (`x = x0 + U·z`, column Hermite form).
//! * `branch_bound`: integer minimisation of an affine objective by branch-and-bound on the
//!   exact simplex, after the equalities are compressed away.
//!
//! Callers use the [`crate::Polyhedron`] methods (`is_empty`, `minimize`, `lexmin`, …).

pub(crate) mod branch_bound;
pub(crate) mod lattice;
pub mod rational;
pub(crate) mod simplex;
