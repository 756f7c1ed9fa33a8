//! The legality checker, independent of the scheduler (DESIGN §5): a schedule respects a
//! dependence iff `Θ_T(i_t) − Θ_S(i_s)` is lexicographically positive on every instance pair
//! of the dependence polyhedron (thesis Thm 3.1's `≺`). Checked level by level with exact
//! integer emptiness: at level `k`, the pairs whose time stamps agree on the rows before `k`
//! must not have `θ_T^k − θ_S^k ≤ −1`; the pairs left after the last row (equal time stamps)
//! must not exist either. A violation comes with the smallest concrete instance pair.

use std::ops::Range;

use crate::affine::AffineForm;
use crate::dependence::{DependenceGraph, DependenceId};
use crate::error::Result;
use crate::limits::Limits;
use crate::polyhedron::{LexMin, Polyhedron};
use crate::scop::{Schedule, Scop};

use super::error::{ScheduleError, ScheduleResult};

/// A dependence instance the schedule executes in the wrong order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The violated dependence.
    pub dependence: DependenceId,
    /// The first row at which the target's time stamp is smaller than the source's, or the
    /// number of rows when the two time stamps are equal.
    pub level: usize,
    /// The source iteration (iterators of the source statement).
    pub source: Vec<i64>,
    /// The target iteration.
    pub target: Vec<i64>,
    /// The parameter values.
    pub params: Vec<i64>,
    /// `Θ_S(source)` (rows padded to the longest schedule with zeros).
    pub source_time: Vec<i64>,
    /// `Θ_T(target)`.
    pub target_time: Vec<i64>,
}

/// The checker's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Legality {
    /// Every dependence is respected (proved by integer emptiness).
    Legal,
    /// A concrete counter-example.
    Violated(Violation),
}

impl Legality {
    /// Whether the schedule is legal.
    pub fn is_legal(&self) -> bool {
        matches!(self, Legality::Legal)
    }
}

/// `tgt(i_t) − src(i_s)` as a form over a dependence polyhedron's columns
/// `[i_s, i_t, params]`, for a source row over `[i_s, params]` and a target row over
/// `[i_t, params]`.
pub(crate) fn row_difference(src: &AffineForm, tgt: &AffineForm, poly: &Polyhedron) -> Result<AffineForm> {
    let space = poly.space();
    let np = space.n_params();
    let ns = src.n_columns() - np;
    let nt = tgt.n_columns() - np;
    let n = space.n_columns();
    let mut terms = Vec::with_capacity(ns + nt + 2 * np);
    for k in 0..ns {
        terms.push((k, src.coeff(k).checked_neg().ok_or_else(|| crate::error::overflow("schedule difference"))?));
    }
    for k in 0..nt {
        terms.push((ns + k, tgt.coeff(k)));
    }
    for p in 0..np {
        terms.push((ns + nt + p, tgt.coeff(nt + p)));
        terms.push((
            ns + nt + p,
            src.coeff(ns + p).checked_neg().ok_or_else(|| crate::error::overflow("schedule difference"))?,
        ));
    }
    let constant =
        tgt.constant().checked_sub(src.constant()).ok_or_else(|| crate::error::overflow("schedule difference"))?;
    if ns + nt != space.n_dims() {
        return Err(crate::error::PolyError::SpaceMismatch {
            context: "schedule difference",
            expected: space.n_dims(),
            found: ns + nt,
        });
    }
    AffineForm::from_terms(n, &terms, constant)
}

/// Checks `schedules` (one per statement, any number of rows; a shorter schedule is padded
/// with zero rows) against every dependence of `graph`.
pub fn check_legality(
    scop: &Scop,
    graph: &DependenceGraph,
    schedules: &[Schedule],
    limits: &Limits,
) -> ScheduleResult<Legality> {
    validate(scop, schedules)?;
    let depth = schedules.iter().map(Schedule::len).max().unwrap_or(0);
    for (e, d) in graph.dependences().iter().enumerate() {
        let (s, t) = (d.source.statement.0, d.target.statement.0);
        let poly = d.polyhedron_in_context(scop)?;
        let ends = Ends { scop, schedules, depth, s, t };
        let mut equal = poly;
        for k in 0..depth {
            let diff = row_difference(&row(scop, schedules, k, s), &row(scop, schedules, k, t), &equal)?;
            let mut before = equal.clone();
            // θ_T − θ_S ≤ −1: the target runs first.
            before.add_inequality(&diff.checked_neg()?.checked_add_constant(-1)?)?;
            if let Some(v) = smallest(&before, limits)? {
                return Ok(Legality::Violated(ends.violation(DependenceId(e), k, &v)?));
            }
            equal.add_equality(&diff)?;
            if equal.is_empty(limits)? {
                break;
            }
        }
        if let Some(v) = smallest(&equal, limits)? {
            return Ok(Legality::Violated(ends.violation(DependenceId(e), depth, &v)?));
        }
    }
    Ok(Legality::Legal)
}

/// Tiling legality of the rows `band` (thesis Thm 3.3, Eq. 3.16): for every dependence
/// instance pair whose time stamps agree on all rows before the band, every row of the band
/// must be non-decreasing from source to target — then the band is permutable and can be
/// tiled rectangularly. A violation names the first band row that decreases.
pub fn check_permutable(
    scop: &Scop,
    graph: &DependenceGraph,
    schedules: &[Schedule],
    band: Range<usize>,
    limits: &Limits,
) -> ScheduleResult<Legality> {
    validate(scop, schedules)?;
    let depth = schedules.iter().map(Schedule::len).max().unwrap_or(0).max(band.end);
    for (e, d) in graph.dependences().iter().enumerate() {
        let (s, t) = (d.source.statement.0, d.target.statement.0);
        let ends = Ends { scop, schedules, depth, s, t };
        let mut open = d.polyhedron_in_context(scop)?;
        for k in 0..band.start {
            let diff = row_difference(&row(scop, schedules, k, s), &row(scop, schedules, k, t), &open)?;
            open.add_equality(&diff)?;
        }
        if open.is_empty(limits)? {
            continue;
        }
        for k in band.clone() {
            let diff = row_difference(&row(scop, schedules, k, s), &row(scop, schedules, k, t), &open)?;
            let mut decreasing = open.clone();
            decreasing.add_inequality(&diff.checked_neg()?.checked_add_constant(-1)?)?;
            if let Some(v) = smallest(&decreasing, limits)? {
                return Ok(Legality::Violated(ends.violation(DependenceId(e), k, &v)?));
            }
        }
    }
    Ok(Legality::Legal)
}

/// Row `k` of statement `st`'s schedule, zero past its end.
fn row(scop: &Scop, schedules: &[Schedule], k: usize, st: usize) -> AffineForm {
    let n = scop.statements()[st].space().n_columns();
    schedules[st].rows().get(k).cloned().unwrap_or_else(|| AffineForm::zero(n))
}

/// Fails unless there is one schedule per statement, over the statement's space.
fn validate(scop: &Scop, schedules: &[Schedule]) -> ScheduleResult<()> {
    if schedules.len() != scop.statements().len() {
        return Err(ScheduleError::InvalidSchedules(format!(
            "{} schedules for {} statements",
            schedules.len(),
            scop.statements().len()
        )));
    }
    for (s, sched) in scop.statements().iter().zip(schedules) {
        if sched.n_iterators() != s.n_iterators() || sched.rows().iter().any(|r| r.n_columns() != s.space().n_columns())
        {
            return Err(ScheduleError::InvalidSchedules(format!(
                "the schedule of {} is not over its space {}",
                s.name(),
                s.space()
            )));
        }
    }
    Ok(())
}

/// The lexicographically smallest `(params, source, target)` point, if any.
fn smallest(p: &Polyhedron, limits: &Limits) -> Result<Option<Vec<i64>>> {
    if p.is_empty(limits)? {
        return Ok(None);
    }
    let space = p.space();
    let n = space.n_columns();
    let nd = space.n_dims();
    let order: Vec<usize> = (nd..n).chain(0..nd).collect();
    let objectives = order.iter().map(|&c| AffineForm::unit(n, c)).collect::<Result<Vec<_>>>()?;
    Ok(match p.lexmin_objectives(&objectives, limits)? {
        LexMin::Optimal { point, .. } => Some(point),
        // Unbounded below in some column: any point is a counter-example.
        _ => p.find_point(limits)?,
    })
}

/// The instance pair `point` (columns `[i_s, i_t, params]`) of dependence `dependence`
/// from statement `s` to `t`, with both time stamps.
struct Ends<'a> {
    scop: &'a Scop,
    schedules: &'a [Schedule],
    depth: usize,
    s: usize,
    t: usize,
}

impl Ends<'_> {
    fn violation(&self, dependence: DependenceId, level: usize, point: &[i64]) -> Result<Violation> {
        let ns = self.scop.statements()[self.s].n_iterators();
        let nt = self.scop.statements()[self.t].n_iterators();
        let source = point[..ns].to_vec();
        let target = point[ns..ns + nt].to_vec();
        let params = point[ns + nt..].to_vec();
        let time = |st: usize, it: &[i64]| -> Result<Vec<i64>> {
            let full: Vec<i64> = it.iter().chain(&params).copied().collect();
            let mut t = self.schedules[st].eval(&full)?;
            t.resize(self.depth, 0);
            Ok(t)
        };
        Ok(Violation {
            dependence,
            level,
            source_time: time(self.s, &source)?,
            target_time: time(self.t, &target)?,
            source,
            target,
            params,
        })
    }
}
