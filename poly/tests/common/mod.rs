//! Random uniform stencil programs built directly as SCoPs, and a tiny executor that runs a
//! SCoP in its original schedule order and records which instance pairs touch the same
//! memory cell.

#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap};

pub mod stencils;

use proptest::prelude::*;
use stencil_poly::*;

/// One statement `W[i] = f(R_1[i + o_1], …)` inside the time loop.
#[derive(Debug, Clone)]
pub struct StmtSpec {
    pub write: usize,
    pub reads: Vec<(usize, Vec<i64>)>,
    /// Per spatial dimension, how much the box `[1, N − 2]` shrinks at each end.
    pub shrink: Vec<(i64, i64)>,
}

/// `for t in 0..T { S_0; …; S_k }` with `d` spatial loops per statement.
#[derive(Debug, Clone)]
pub struct ProgramSpec {
    pub dims: usize,
    pub two_arrays: bool,
    /// All statements in one perfect nest (textual order innermost) instead of one inner
    /// nest per statement.
    pub perfect: bool,
    /// Run the innermost loop backwards (schedule row −i).
    pub reverse_inner: bool,
    pub stmts: Vec<StmtSpec>,
}

fn stmt(d: usize) -> impl Strategy<Value = StmtSpec> {
    (
        0usize..2,
        proptest::collection::vec((0usize..2, proptest::collection::vec(-1i64..=1, d)), 1..=3),
        proptest::collection::vec((0i64..=1, 0i64..=1), d),
    )
        .prop_map(|(write, reads, shrink)| StmtSpec { write, reads, shrink })
}

pub fn program() -> impl Strategy<Value = ProgramSpec> {
    (1usize..=3, 1usize..=3, any::<bool>(), any::<bool>(), any::<bool>()).prop_flat_map(
        |(dims, n, two_arrays, perfect, reverse_inner)| {
            proptest::collection::vec(stmt(dims), n).prop_map(move |stmts| ProgramSpec {
                dims,
                two_arrays,
                perfect,
                reverse_inner,
                stmts,
            })
        },
    )
}

/// Two statements fused in one perfect 2-D nest over two arrays, each writing its own and
/// reading either: the cross dependences need shifts and skews, the family in which Pluto's
/// linear-independence orthant produced non-unimodular schedules (`schedule_unimodular.rs`).
pub fn fused_program() -> impl Strategy<Value = ProgramSpec> {
    (proptest::collection::vec(stmt(2), 2), any::<bool>()).prop_map(|(mut stmts, reverse_inner)| {
        for (k, s) in stmts.iter_mut().enumerate() {
            s.write = k;
        }
        ProgramSpec { dims: 2, two_arrays: true, perfect: true, reverse_inner, stmts }
    })
}

impl ProgramSpec {
    pub fn scop(&self) -> Scop {
        let d = self.dims;
        let mut scop = Scop::new(["T", "N"]);
        scop.add_context("T >= 1, N >= 3").unwrap();
        let arrays = if self.two_arrays {
            vec![scop.add_array("A", d).unwrap(), scop.add_array("B", d).unwrap()]
        } else {
            vec![scop.add_array("A", d).unwrap()]
        };
        let array = |k: usize| arrays[k % arrays.len()];
        let iters: Vec<String> = ["t", "i", "j", "k"][..=d].iter().map(|s| s.to_string()).collect();
        let space = scop.statement_space(iters.clone());
        for (k, s) in self.stmts.iter().enumerate() {
            let mut domain = Polyhedron::parse(space.clone(), "0 <= t <= T - 1").unwrap();
            for (dim, &(lo, hi)) in s.shrink.iter().enumerate() {
                let it = &iters[dim + 1];
                domain.add_constraints(&format!("{} <= {it} <= N - {}", 1 + lo, 2 + hi)).unwrap();
            }
            let mut beta = vec![0i64; d + 2];
            if self.perfect {
                beta[d + 1] = k as i64;
            } else {
                beta[1] = k as i64;
            }
            let mut schedule = Schedule::from_beta(&beta, &space).unwrap();
            if self.reverse_inner && d >= 1 {
                let mut rows = schedule.rows().to_vec();
                let last = 2 * d + 1;
                rows[last] = rows[last].checked_neg().unwrap();
                schedule = Schedule::new(&space, rows).unwrap();
            }
            let id = scop.add_statement(Statement::new(format!("S{k}"), domain, schedule)).unwrap();
            for (a, off) in &s.reads {
                let index = (0..d)
                    .map(|dim| AffineForm::from_terms(space.n_columns(), &[(dim + 1, 1)], off[dim]).unwrap())
                    .collect();
                scop.add_access(id, AccessRelation::read(array(*a), index)).unwrap();
            }
            let index = (0..d).map(|dim| AffineForm::unit(space.n_columns(), dim + 1).unwrap()).collect();
            scop.add_access(id, AccessRelation::write(array(s.write), index)).unwrap();
        }
        scop
    }
}

/// A dependent pair of accesses of two instances.
pub type PairKey = (usize, usize, Vec<i64>, usize, usize, Vec<i64>);

/// A memory cell: array and element.
type Cell = (ArrayId, Vec<i64>);
/// An access event: (instance index in execution order, statement, access, is a write).
type Event = (usize, usize, usize, bool);

/// Instance pairs that touch the same cell, one of them writing, source executed first:
/// (all of them, those without a write to the cell by an instance strictly between).
pub fn trace(scop: &Scop, params: &[i64]) -> (BTreeSet<PairKey>, BTreeSet<PairKey>) {
    let limits = Limits::default();
    let mut instances: Vec<(Vec<i64>, usize, Vec<i64>)> = Vec::new();
    for (si, s) in scop.statements().iter().enumerate() {
        for it in s.domain().enumerate(params, &limits).unwrap() {
            let point: Vec<i64> = it.iter().chain(params).copied().collect();
            instances.push((s.schedule().eval(&point).unwrap(), si, it));
        }
    }
    instances.sort();
    for w in instances.windows(2) {
        assert_ne!(w[0].0, w[1].0, "two instances share a time stamp");
    }
    // cell -> events (instance index, statement, access, is write), in execution order:
    // within an instance all reads happen before the writes.
    let mut events: HashMap<Cell, Vec<Event>> = HashMap::new();
    for (idx, (_, si, it)) in instances.iter().enumerate() {
        let s = &scop.statements()[*si];
        let point: Vec<i64> = it.iter().chain(params).copied().collect();
        for writes in [false, true] {
            for (k, a) in s.accesses().iter().enumerate().filter(|(_, a)| a.is_write() == writes) {
                events.entry((a.array(), a.element(&point).unwrap())).or_default().push((idx, *si, k, writes));
            }
        }
    }
    let mut memory = BTreeSet::new();
    let mut direct = BTreeSet::new();
    for evs in events.values() {
        let writes: Vec<usize> = evs.iter().filter(|e| e.3).map(|e| e.0).collect();
        for (x, a) in evs.iter().enumerate() {
            for b in &evs[x + 1..] {
                if a.0 == b.0 || !(a.3 || b.3) {
                    continue;
                }
                let key = (a.1, a.2, instances[a.0].2.clone(), b.1, b.2, instances[b.0].2.clone());
                let first_after = writes.partition_point(|&w| w <= a.0);
                let killed = writes.get(first_after).is_some_and(|&w| w < b.0);
                if !killed {
                    direct.insert(key.clone());
                }
                memory.insert(key);
            }
        }
    }
    (memory, direct)
}

/// The instance pairs of the dependence polyhedra at the given parameter values; panics if a
/// pair occurs in two dependences of the same access pair.
pub fn analysed(scop: &Scop, g: &DependenceGraph, params: &[i64]) -> BTreeSet<PairKey> {
    let limits = Limits::default();
    let mut out = BTreeSet::new();
    for d in g.dependences() {
        let ns = scop.statements()[d.source.statement.0].n_iterators();
        for pt in d.polyhedron.enumerate(params, &limits).unwrap() {
            let key = (
                d.source.statement.0,
                d.source.access.0,
                pt[..ns].to_vec(),
                d.target.statement.0,
                d.target.access.0,
                pt[ns..].to_vec(),
            );
            assert!(out.insert(key.clone()), "pair {key:?} in two dependences:\n{}", g.display(scop));
        }
    }
    out
}
