//! `stencil-poly`: exact integer polyhedral math for stencil-opt, usable on its own (it knows
//! nothing about the IR).
//!
//! * [`AffineForm`], [`Space`], [`Polyhedron`]: affine constraints over named dimensions and
//!   parameters, gcd-normalised; intersection, Fourier–Motzkin projection with an exactness
//!   flag ([`fourier_motzkin`]), redundancy removal, canonical form, set difference, exact
//!   integer emptiness, minimisation and lexicographic minimum (exact simplex and
//!   branch-and-bound, [`lp`]), enumeration of integer points, images and preimages under
//!   [`AffineMap`]s.
//! * [`farkas_nonnegative`]: the affine Farkas lemma with the multipliers eliminated — the
//!   linearisation the scheduler applies to legality (thesis Thm 3.3), the balanced-wavefront
//!   constraint (Thm 4.1) and the bounding function.
//! * [`Scop`]: statements with parametric domains, access relations and original schedules
//!   (β vectors).
//! * [`DependenceGraph`]: flow / anti / output dependence polyhedra per precedence level,
//!   distance vectors, the DDG as a petgraph multigraph with its SCCs.
//! * [`schedule()`]: Pluto's tiling hyperplanes with the thesis' balanced intra-tile wavefronts
//!   (Alg. 4.1), the legality checker [`check_legality`], and parallelism-hindering false
//!   dependences with their array copies ([`hindering_false_dependences`],
//!   [`plan_array_copies`], thesis Alg. 4.2, Fig. 4.4); see [`mod@schedule`].
//! * [`tile()`]: rectangular tiles of permutable bands with the inter-tile wavefront `Θ_T` and
//!   the intra-tile wavefront (first hyperplane or `Θ_S`), multi-statement tiles (thesis
//!   Eq. 3.14–3.19, Fig. 4.7), every dimension marked sequential or parallel from the
//!   dependences; see [`mod@tiling`].
//! * [`codegen::generate`]: polyhedral scanning of the transformed domains into a loop AST
//!   ([`LoopNest`]) with exact `max`/`ceild`, `min`/`floord` bounds, scalar dimensions, guards
//!   only where needed, DOALL/DOSEQ loops, and an interpreter; see [`mod@codegen`].
//!
//! Arithmetic is exact: checked `i64` (with `i128` intermediates, and an `i128` tableau in the
//! simplex); overflow is a [`PolyError::Overflow`], never a wrap, and no decision uses floating
//! point. Every search is bounded by an explicit [`Limits`] field. `docs/poly.md` describes the
//! crate and the dependence output format.
//!
//! Thesis Fig. 3.4, whose dependences are Table 3.1:
//!
//! ```
//! use stencil_poly::*;
//!
//! # fn main() -> stencil_poly::Result<()> {
//! let mut scop = Scop::new(["T", "N"]);
//! scop.add_context("T >= 1, N >= 4")?;
//! let a = scop.add_array("A", 1)?;
//! let space = scop.statement_space(["t", "i"]);
//! let domain = Polyhedron::parse(space.clone(), "0 <= t < T, 0 <= i < N - 1")?;
//! let s = scop.add_statement(Statement::new("S0", domain, Schedule::from_beta(&[0, 0, 0], &space)?))?;
//! scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i")?)?;
//! scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i + 1")?)?;
//! scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, "i")?)?;
//!
//! let ddg = DependenceGraph::compute(&scop, &DependenceOptions::default())?;
//! let distances: Vec<_> = ddg.dependences().iter().map(|d| d.distance.clone().unwrap()).collect();
//! assert_eq!(distances, [vec![1, 0], vec![1, -1], vec![1, 0], vec![0, 1], vec![1, 0]]);
//! assert!(ddg.display(&scop).to_string().starts_with(
//!     "dep 0: flow S0.write0 A[i] -> S0.read0 A[i]; carried by loop 1; distance (1, 0); \
//!      [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and"
//! ));
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

pub mod affine;
pub mod affine_map;
pub mod codegen;
mod constraint;
pub mod dependence;
mod enumerate;
pub mod error;
pub mod farkas;
pub mod fourier_motzkin;
mod int;
pub mod limits;
pub mod lp;
mod parse;
pub mod polyhedron;
mod redundancy;
pub mod schedule;
pub mod scop;
pub mod space;
mod system;
pub mod tiling;

pub use affine::AffineForm;
pub use affine_map::AffineMap;
pub use codegen::{LoopAst, LoopNest, ScanProblem};
pub use dependence::{
    AccessRef, Dependence, DependenceGraph, DependenceId, DependenceKind, DependenceLevel, DependenceMode,
    DependenceOptions,
};
pub use error::{PolyError, Result};
pub use farkas::{farkas_nonnegative, ParametricForm};
pub use fourier_motzkin::Projection;
pub use int::{determinant, unimodular_inverse};
pub use limits::Limits;
pub use lp::rational::Rational;
pub use polyhedron::{Domain, LexMin, Optimum, Polyhedron};
pub use schedule::{
    check_legality, hindering_false_dependences, plan_array_copies, schedule, ArrayCopy, FuseStrategy, Legality,
    ScheduleError, SchedulerOptions, Transformation, Violation,
};
pub use scop::{AccessId, AccessKind, AccessRelation, Array, ArrayId, Schedule, Scop, Statement, StatementId};
pub use space::Space;
pub use tiling::{tile, TileBand, TiledSchedule, TilingInput, TilingOptions};
