//! Scheduling: Pluto's tiling hyperplanes with the thesis' GPU constraints (Ch. 4), thesis
//! Alg. 4.2's parallelism-hindering false dependences, and an independent legality checker.
//!
//! * [`schedule`]: Pluto's algorithm as NOTES "Pluto's scheduler" describes it — per
//!   dependence, legality `φ_T(i_t) − φ_S(i_s) ≥ 0` (thesis Eq. 3.16) and the bounding
//!   function `u·p + w − (φ_T − φ_S) ≥ 0`, linearised by Farkas with the multipliers
//!   eliminated; non-negative, bounded coefficients; a non-trivial solution and linear
//!   independence through the orthogonal sub-space; the lexicographic minimum of
//!   `(u, w, per statement its coefficients innermost first, its shift)`, replaced by the
//!   best legal row that keeps each statement's rows unimodular when Pluto's would not (an
//!   integral inverse for code generation; `unimodular.rs`); permutable bands;
//!   scalar cuts between strongly connected components when no hyperplane exists. With
//!   [`SchedulerOptions::intra_balance`] the first hyperplane also satisfies
//!   `φ¹(i_t) − φ¹(i_s) ≥ 1` on every self dependence (balanced intra-tile wavefronts,
//!   thesis Def. 4.1, Thm 4.1, Alg. 4.1).
//! * [`check_legality`]: lexicographic positivity of the schedule difference over every
//!   dependence polyhedron, level by level by integer emptiness, or a concrete violated
//!   instance; [`check_permutable`]: tiling legality of a band (thesis Thm 3.3).
//! * [`hindering_false_dependences`] (thesis Def. 4.2, Alg. 4.2) and [`plan_array_copies`]
//!   (thesis Fig. 4.4: what to copy, where, which reads to redirect), with
//!   [`ArrayCopy::apply`] performing the copy on a [`Scop`].
//!
//! `docs/poly.md` ("Scheduling") documents the options and the printed format
//! `S0: (t, 2*t + i)`.
//!
//! Thesis Fig. 3.4 (`for t: for i in 0..N-1: A[i] = 0.5 * (A[i] + A[i+1])`):
//!
//! ```
//! use stencil_poly::*;
//!
//! # fn main() -> std::result::Result<(), ScheduleError> {
//! let mut scop = Scop::new(["T", "N"]);
//! scop.add_context("T >= 1, N >= 4")?;
//! let a = scop.add_array("A", 1)?;
//! let space = scop.statement_space(["t", "i"]);
//! let domain = Polyhedron::parse(space.clone(), "0 <= t < T, 0 <= i < N - 1")?;
//! let s = scop.add_statement(Statement::new("S0", domain, Schedule::from_beta(&[0, 0, 0], &space)?))?;
//! scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i")?)?;
//! scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i + 1")?)?;
//! scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, "i")?)?;
//! let g = DependenceGraph::compute(&scop, &DependenceOptions::default())?;
//!
//! // Pluto: thesis Fig. 4.1's communication-minimal hyperplanes.
//! let t = schedule(&scop, &g, &SchedulerOptions::pluto())?;
//! assert_eq!(t.display(&scop).to_string(), "S0: (t, t + i)\n");
//! // With balanced intra-tile wavefronts (Alg. 4.1): Fig. 4.3.
//! let t = schedule(&scop, &g, &SchedulerOptions::gpu())?;
//! assert_eq!(t.phi(s), vec![vec![2, 1], vec![1, 1]]);
//! assert!(check_legality(&scop, &g, &t.schedules, &Limits::default())?.is_legal());
//! // Alg. 4.2: the anti dependence (0, 1) hinders parallelism (Table 3.1's e3).
//! let hindering = hindering_false_dependences(&scop, &g, &SchedulerOptions::gpu())?;
//! assert_eq!(g.dependence(hindering[0]).and_then(|d| d.distance.clone()), Some(vec![0, 1]));
//! # Ok(())
//! # }
//! ```

mod array_copy;
mod coalesce;
mod constraints;
mod cuts;
mod error;
mod false_deps;
mod legality;
mod options;
pub(crate) mod ortho;
mod pluto;
mod reversal;
mod transformation;
mod unimodular;

pub use array_copy::{apply_array_copies, plan_array_copies, ArrayCopy};
pub use coalesce::{coalesce_bands, coalesced_band, CoalescedBand};
pub use error::{ScheduleError, ScheduleResult};
pub use false_deps::{hindering_false_dependences, hindering_false_dependences_by_rerun};
pub use legality::{check_legality, check_permutable, Legality, Violation};
pub use options::{FuseStrategy, OrthoOrientation, SchedulerOptions};
pub use transformation::{Band, Row, RowKind, Transformation};

use crate::dependence::DependenceGraph;
use crate::scop::Scop;

/// Computes tiling hyperplanes for every statement of `scop` that respect all dependences of
/// `graph` (see the module documentation; thesis Alg. 4.1 with
/// [`SchedulerOptions::intra_balance`], Pluto's algorithm without).
///
/// When that finds no schedule (no hyperplane, or no balanced one) and some statement's original
/// schedule runs an iterator backwards (SSOR's reverse sweep), the statements are scheduled
/// again in the reversed iterators and renamed back (`reversal.rs`): Pluto's hyperplanes have
/// non-negative coefficients and could not describe them otherwise. Schedules found without
/// the reversal are never changed by it.
pub fn schedule(scop: &Scop, graph: &DependenceGraph, options: &SchedulerOptions) -> ScheduleResult<Transformation> {
    let problem = pluto::Problem::new(scop, graph, *options)?;
    let direct = problem.solve(&vec![true; graph.dependences().len()]);
    let reversed = reversal::reversed_iterators(scop);
    let retry = matches!(direct, Err(ScheduleError::NoHyperplane { .. } | ScheduleError::BalanceInfeasible));
    if !retry || reversed.iter().all(Vec::is_empty) {
        return direct;
    }
    let (renamed, renamed_graph) = reversal::rename(scop, graph, &reversed)?;
    let problem = pluto::Problem::new(&renamed, &renamed_graph, *options)?;
    let t = problem.solve(&vec![true; graph.dependences().len()])?;
    Ok(reversal::rename_back(scop, t, &reversed)?)
}

/// The original execution order as a [`Transformation`]: every statement keeps its original
/// schedule `(β_0, i_1, β_1, …)`; the constant rows are scalar rows and every iterator row is
/// a loop row in a band of its own (strip-mining one loop of a legal order is always legal,
/// while tiling several together would need the permutability Pluto's search establishes).
///
/// This is the fallback when the exact search is over budget (`poly-schedule{max-statements}`):
/// it is legal by construction — the dependences are those of this very order — and costs
/// nothing to compute. It records no satisfying rows (`Row::satisfies` is empty and
/// `satisfied_at` too, for the caller to size with its dependences, each `None`): nothing
/// downstream of the scheduler reads them. Statements whose original schedules differ in length
/// or disagree on which rows are loops (different nesting depths) have no common row
/// structure: an error. It needs no dependences, so a caller can refuse such a program before
/// paying for their analysis.
pub fn original_order(scop: &Scop) -> ScheduleResult<Transformation> {
    let schedules: Vec<crate::scop::Schedule> = scop.statements().iter().map(|s| s.schedule().clone()).collect();
    let depth = schedules.first().map_or(0, crate::scop::Schedule::len);
    let mut rows = Vec::with_capacity(depth);
    let mut bands = Vec::new();
    for k in 0..depth {
        let mut kinds = schedules.iter().map(|sc| {
            let row = sc.rows().get(k)?;
            let n = sc.n_iterators();
            Some(if row.coeffs()[..n].iter().all(|&c| c == 0) { RowKind::Scalar } else { RowKind::Loop })
        });
        let first = kinds.next().flatten();
        let Some(kind) = first.filter(|&f| kinds.all(|k| k == Some(f))) else {
            return Err(ScheduleError::InvalidSchedules(format!(
                "row {k} of the original schedules is a loop for some statements and constant (or missing) for others; \
                 the original order has no common row structure"
            )));
        };
        let band = (kind == RowKind::Loop).then(|| {
            bands.push(Band { rows: k..k + 1 });
            bands.len() - 1
        });
        rows.push(Row { kind, band, satisfies: Vec::new() });
    }
    if schedules.iter().any(|sc| sc.len() != depth) {
        return Err(ScheduleError::InvalidSchedules(
            "the original schedules have different lengths (statements at different depths)".to_string(),
        ));
    }
    Ok(Transformation { schedules, rows, bands, satisfied_at: Vec::new() })
}
