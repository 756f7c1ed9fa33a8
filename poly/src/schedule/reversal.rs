//! Loop reversal before scheduling: statements whose original schedule runs some iterators
//! backwards (a row `−i`, the reverse sweep of SSOR, thesis Eq. 6.5) are scheduled in renamed
//! iterators `i' = −i`, in which they run forwards and Pluto's non-negative hyperplanes can
//! describe them; the schedules found are renamed back (`i'` coefficients negated).
//!
//! The renaming is a bijection of each statement's iteration space applied to everything that
//! mentions the iterators — domain, accesses, original schedule and the dependence polyhedra —
//! so a schedule is legal for the renamed SCoP iff its renaming back is legal for the original
//! one (the dependent pairs are the same, only named differently). The callers prove the result
//! legal again with the independent checker ([`super::check_legality`]; `poly-schedule` does in
//! debug builds).

use crate::affine::AffineForm;
use crate::dependence::{Dependence, DependenceGraph};
use crate::error::Result;
use crate::polyhedron::Polyhedron;
use crate::scop::{AccessRelation, Schedule, Scop, Statement};

use super::transformation::Transformation;

/// Per statement, the iterator columns its original schedule runs backwards: those of loop rows
/// whose only non-zero iterator coefficient is `−1`.
pub(crate) fn reversed_iterators(scop: &Scop) -> Vec<Vec<usize>> {
    scop.statements()
        .iter()
        .map(|s| {
            let n = s.n_iterators();
            let mut cols: Vec<usize> = s
                .schedule()
                .rows()
                .iter()
                .filter_map(|r| {
                    let nonzero: Vec<usize> = (0..n).filter(|&c| r.coeff(c) != 0).collect();
                    match nonzero.as_slice() {
                        [c] if r.coeff(*c) == -1 => Some(*c),
                        _ => None,
                    }
                })
                .collect();
            cols.sort_unstable();
            cols.dedup();
            cols
        })
        .collect()
}

/// `f` with the signs of columns `cols` flipped.
fn flip(f: &AffineForm, cols: impl Iterator<Item = usize> + Clone) -> AffineForm {
    let mut coeffs = f.coeffs().to_vec();
    for c in cols {
        if let Some(x) = coeffs.get_mut(c) {
            *x = -*x;
        }
    }
    AffineForm::new(coeffs, f.constant())
}

/// `p` with the signs of columns `cols` flipped.
fn flip_polyhedron(p: &Polyhedron, cols: impl Iterator<Item = usize> + Clone) -> Result<Polyhedron> {
    let eqs: Vec<AffineForm> = p.equalities().iter().map(|f| flip(f, cols.clone())).collect();
    let ineqs: Vec<AffineForm> = p.inequalities().iter().map(|f| flip(f, cols.clone())).collect();
    Polyhedron::from_constraints(p.space().clone(), &eqs, &ineqs)
}

/// The SCoP and dependence graph in the renamed iterators (`reversed[s]` of statement `s`
/// negated).
pub(crate) fn rename(scop: &Scop, graph: &DependenceGraph, reversed: &[Vec<usize>]) -> Result<(Scop, DependenceGraph)> {
    let mut out = Scop::new(scop.params().to_vec());
    out.set_context(scop.context().clone())?;
    for a in scop.arrays() {
        out.add_array(a.name.clone(), a.rank)?;
    }
    for (s, stmt) in scop.statements().iter().enumerate() {
        let cols = reversed[s].iter().copied();
        let domain = flip_polyhedron(stmt.domain(), cols.clone())?;
        let rows: Vec<AffineForm> = stmt.schedule().rows().iter().map(|r| flip(r, cols.clone())).collect();
        let schedule = Schedule::new(stmt.space(), rows)?;
        let mut renamed = Statement::new(stmt.name(), domain, schedule);
        for a in stmt.accesses() {
            let index = a.index().iter().map(|f| flip(f, cols.clone())).collect();
            renamed = renamed.with_access(AccessRelation::new(a.kind(), a.array(), index));
        }
        out.add_statement(renamed)?;
    }
    let deps = graph
        .dependences()
        .iter()
        .map(|d| {
            let (src, tgt) = (d.source.statement.0, d.target.statement.0);
            let n_src = scop.statements()[src].n_iterators();
            let cols = reversed[src].iter().copied().chain(reversed[tgt].iter().map(move |&c| n_src + c));
            let polyhedron = flip_polyhedron(&d.polyhedron, cols)?;
            // A distance along a renamed iterator flips with it when both ends are renamed
            // alike; otherwise the pairs are no longer a translation.
            let distance = match &d.distance {
                Some(v) if reversed[src] == reversed[tgt] => {
                    Some(v.iter().enumerate().map(|(k, &x)| if reversed[src].contains(&k) { -x } else { x }).collect())
                }
                Some(_) => None,
                None => None,
            };
            Ok(Dependence { polyhedron, distance, ..d.clone() })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((out, DependenceGraph::from_dependences(scop.statements().len(), deps)))
}

/// `t` (a transformation of the renamed SCoP) in the original iterators.
pub(crate) fn rename_back(scop: &Scop, t: Transformation, reversed: &[Vec<usize>]) -> Result<Transformation> {
    let schedules = t
        .schedules
        .iter()
        .zip(scop.statements())
        .zip(reversed)
        .map(|((sched, stmt), cols)| {
            let rows: Vec<AffineForm> = sched.rows().iter().map(|r| flip(r, cols.iter().copied())).collect();
            Schedule::new(stmt.space(), rows)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Transformation { schedules, ..t })
}
