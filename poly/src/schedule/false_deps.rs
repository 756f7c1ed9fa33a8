//! Parallelism-hindering false dependences (thesis Def. 4.2, Alg. 4.2).
//!
//! Def. 4.2: a false (anti or output) dependence `e` hinders parallelism if some of the
//! constraints it generates by Eq. 3.16 (legality) and Eq. 4.1 (balanced wavefronts) are not
//! redundant with respect to those of `E − {e}`. Alg. 4.2 instead reschedules without `e` and
//! compares the hyperplanes. The two differ when several false dependences constrain the same
//! coefficients: in the 3-D 27-point Jacobi nest each anti dependence `(0, o)` with `o ≤ 0`
//! is dominated by the corner one `(0, −1, −1, −1)`, so removing any single one changes no
//! hyperplane, yet removing them all does (thesis Table 4.1 marks the benchmark as having
//! false dependences to eliminate).
//!
//! [`hindering_false_dependences`] therefore applies Def. 4.2 to a fixed point — remove the
//! non-redundant false dependences, then look again among the rest — and keeps the result
//! only if Alg. 4.2's test holds for the whole set (the hyperplanes change without it). It
//! considers the anti dependences, the ones array copying removes (thesis Fig. 4.4); an output
//! dependence would need renaming instead (a statement's only self dependence is often an
//! output dependence whose Eq. 4.1 constraint is trivially non-redundant, e.g. PolyBench
//! fdtd-2d's `ey[0][j] = fict[t]`). [`hindering_false_dependences_by_rerun`] is Alg. 4.2's
//! loop literally, over anti and output dependences.

use std::collections::HashMap;

use crate::affine::AffineForm;
use crate::dependence::{DependenceGraph, DependenceId, DependenceKind};
use crate::scop::{Scop, StatementId};

use super::error::ScheduleResult;
use super::options::SchedulerOptions;
use super::pluto::Problem;
use super::transformation::Transformation;

/// The anti dependences whose removal by array copying lets the scheduler find different
/// hyperplanes (thesis Def. 4.2 to a fixed point, confirmed by Alg. 4.2's test on the set;
/// see the module documentation). Sorted by id; empty when nothing hinders parallelism.
pub fn hindering_false_dependences(
    scop: &Scop,
    graph: &DependenceGraph,
    options: &SchedulerOptions,
) -> ScheduleResult<Vec<DependenceId>> {
    let problem = Problem::new(scop, graph, *options)?;
    let n = graph.dependences().len();
    let classes = twin_classes(&problem)?;
    let rows = Rows::new(&problem, &classes)?;
    let mut active = vec![true; n];
    loop {
        let mut newly = Vec::new();
        for (k, class) in classes.iter().enumerate() {
            let removable = class.iter().all(|&e| graph.dependences()[e].kind == DependenceKind::Anti);
            if removable && active[class[0]] && !redundant(&problem, &rows, &classes, &active, k)? {
                newly.push(class);
            }
        }
        if newly.is_empty() {
            break;
        }
        for class in newly {
            for &e in class {
                active[e] = false;
            }
        }
    }
    let removed: Vec<DependenceId> = (0..n).filter(|&e| !active[e]).map(DependenceId).collect();
    if removed.is_empty() {
        return Ok(removed);
    }
    let before = hyperplanes(scop, &problem.solve(&vec![true; n])?);
    let after = hyperplanes(scop, &problem.solve(&active)?);
    Ok(if before == after { Vec::new() } else { removed })
}

/// Thesis Alg. 4.2 lines 3–9 literally: each false dependence on its own is hindering if
/// rescheduling without it changes some statement's hyperplanes (loop rows with shifts). A
/// false dependence with a twin — another dependence between the same statements with the
/// same polyhedron, generating identical constraints — cannot change anything and is skipped
/// without a rerun.
pub fn hindering_false_dependences_by_rerun(
    scop: &Scop,
    graph: &DependenceGraph,
    options: &SchedulerOptions,
) -> ScheduleResult<Vec<DependenceId>> {
    let problem = Problem::new(scop, graph, *options)?;
    let n = graph.dependences().len();
    let all = vec![true; n];
    let base = hyperplanes(scop, &problem.solve(&all)?);
    let mut hindering = Vec::new();
    for class in twin_classes(&problem)? {
        let [e] = class[..] else { continue };
        if !graph.dependences()[e].kind.is_false() {
            continue;
        }
        let mut active = all.clone();
        active[e] = false;
        if hyperplanes(scop, &problem.solve(&active)?) != base {
            hindering.push(DependenceId(e));
        }
    }
    hindering.sort();
    Ok(hindering)
}

/// Every statement's loop rows with shifts.
fn hyperplanes(scop: &Scop, t: &Transformation) -> Vec<Vec<(Vec<i64>, i64)>> {
    (0..scop.statements().len()).map(|s| t.hyperplanes(StatementId(s))).collect()
}

/// Dependences grouped by (source statement, target statement, polyhedron as a set): the
/// members of a class generate identical constraints.
fn twin_classes(problem: &Problem<'_>) -> ScheduleResult<Vec<Vec<usize>>> {
    let deps = problem.graph.dependences();
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for (e, d) in deps.iter().enumerate() {
        let mut placed = false;
        for class in classes.iter_mut() {
            let f = class[0];
            let g = &deps[f];
            let same_distance = match (&g.distance, &d.distance) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            };
            if g.source.statement == d.source.statement
                && g.target.statement == d.target.statement
                && same_distance
                && (problem.polys[f] == problem.polys[e]
                    || problem.polys[f].is_equal_set(&problem.polys[e], &problem.options.limits)?)
            {
                class.push(e);
                placed = true;
                break;
            }
        }
        if !placed {
            classes.push(vec![e]);
        }
    }
    Ok(classes)
}

/// The rows (inequalities; an equality as two) of every class's Def. 4.2 constraints, each
/// with the classes that generate it: many dependences generate identical rows.
struct Rows {
    rows: Vec<(AffineForm, Vec<usize>)>,
    of_class: Vec<Vec<usize>>,
}

impl Rows {
    fn new(problem: &Problem<'_>, classes: &[Vec<usize>]) -> ScheduleResult<Rows> {
        let mut index: HashMap<AffineForm, usize> = HashMap::new();
        let mut rows: Vec<(AffineForm, Vec<usize>)> = Vec::new();
        let mut of_class = Vec::with_capacity(classes.len());
        for (k, class) in classes.iter().enumerate() {
            let p = problem.def_4_2_constraints(class[0])?;
            let mut forms: Vec<AffineForm> = p.inequalities().to_vec();
            for e in p.equalities() {
                forms.push(e.clone());
                forms.push(e.checked_neg()?);
            }
            let mut mine = Vec::new();
            for f in forms {
                let r = *index.entry(f.clone()).or_insert_with(|| {
                    rows.push((f, Vec::new()));
                    rows.len() - 1
                });
                if !rows[r].1.contains(&k) {
                    rows[r].1.push(k);
                    mine.push(r);
                }
            }
            of_class.push(mine);
        }
        Ok(Rows { rows, of_class })
    }

    /// Whether row `r` is generated by an active class other than `k`.
    fn shared(&self, r: usize, k: usize, active: &[bool], classes: &[Vec<usize>]) -> bool {
        self.rows[r].1.iter().any(|&o| o != k && active[classes[o][0]])
    }
}

/// Whether the Eq. 3.16 / 4.1 constraints of class `k` are implied by those of the other
/// active dependences within the coefficient bounds (thesis Def. 4.2): no point of the others'
/// constraint set violates one of the class's rows.
fn redundant(
    problem: &Problem<'_>,
    rows: &Rows,
    classes: &[Vec<usize>],
    active: &[bool],
    k: usize,
) -> ScheduleResult<bool> {
    let own: Vec<usize> = rows.of_class[k].iter().copied().filter(|&r| !rows.shared(r, k, active, classes)).collect();
    if own.is_empty() {
        return Ok(true);
    }
    let mut rest = problem.bounds().clone();
    for (r, (form, _)) in rows.rows.iter().enumerate() {
        if rows.shared(r, k, active, classes) {
            rest.add_inequality(form)?;
        }
    }
    for r in own {
        let mut violated = rest.clone();
        violated.add_inequality(&rows.rows[r].0.checked_neg()?.checked_add_constant(-1)?)?;
        if !violated.is_empty(&problem.options.limits)? {
            return Ok(false);
        }
    }
    Ok(true)
}
