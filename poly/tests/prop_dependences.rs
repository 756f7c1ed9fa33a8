//! Dependence analysis against the memory trace of an actual execution, for random uniform
//! stencil programs (1–3 spatial dimensions, 1–3 statements, random offsets, in place or on
//! two arrays, separate or perfectly nested inner loops, forward or reversed inner loops).

mod common;

use proptest::prelude::*;
use stencil_poly::*;

fn params(dims: usize) -> Vec<Vec<i64>> {
    match dims {
        1 => vec![vec![3, 6], vec![1, 3]],
        2 => vec![vec![3, 5]],
        _ => vec![vec![2, 5]],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn direct_dependences_match_the_trace(spec in common::program()) {
        let scop = spec.scop();
        let g = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
        for d in g.dependences() {
            prop_assert!(!d.over_approximated, "{}", d.display(&scop));
            // Uniform programs have uniform direct dependences.
        }
        for p in params(spec.dims) {
            let (_, direct) = common::trace(&scop, &p);
            let got = common::analysed(&scop, &g, &p);
            prop_assert_eq!(&got, &direct, "params {:?}\n{}\n{}", p, scop, g.display(&scop));
        }
    }

    #[test]
    fn memory_based_dependences_match_the_trace(spec in common::program()) {
        let scop = spec.scop();
        let options = DependenceOptions { mode: DependenceMode::MemoryBased, ..Default::default() };
        let g = DependenceGraph::compute(&scop, &options).unwrap();
        for p in params(spec.dims) {
            let (memory, _) = common::trace(&scop, &p);
            let got = common::analysed(&scop, &g, &p);
            prop_assert_eq!(&got, &memory, "params {:?}\n{}\n{}", p, scop, g.display(&scop));
        }
    }
}

/// A strided write (`A[2i]`) makes the killing writes' projection inexact; the direct
/// analysis then keeps the memory-based polyhedron, flags it, and stays sound: it contains
/// every direct pair and only memory-based pairs.
#[test]
fn inexact_kills_are_flagged_and_sound() {
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 2").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let b = scop.add_array("B", 1).unwrap();
    let sp = scop.statement_space(["t", "i"]);
    let s0 = scop
        .add_statement(Statement::new(
            "S0",
            Polyhedron::parse(sp.clone(), "0 <= t < T, 0 <= i < 2N").unwrap(),
            Schedule::from_beta(&[0, 0, 0], &sp).unwrap(),
        ))
        .unwrap();
    scop.add_access(s0, AccessRelation::parse(AccessKind::Read, a, &sp, "i").unwrap()).unwrap();
    scop.add_access(s0, AccessRelation::parse(AccessKind::Write, b, &sp, "i").unwrap()).unwrap();
    let s1 = scop
        .add_statement(Statement::new(
            "S1",
            Polyhedron::parse(sp.clone(), "0 <= t < T, 0 <= i < N").unwrap(),
            Schedule::from_beta(&[0, 1, 0], &sp).unwrap(),
        ))
        .unwrap();
    scop.add_access(s1, AccessRelation::parse(AccessKind::Write, a, &sp, "2i").unwrap()).unwrap();
    let g = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    assert!(g.dependences().iter().any(|d| d.over_approximated), "{}", g.display(&scop));
    assert!(g.display(&scop).to_string().contains("; over-approximated; "));
    for p in [vec![3, 3], vec![2, 4]] {
        let (memory, direct) = common::trace(&scop, &p);
        let got = common::analysed(&scop, &g, &p);
        assert!(direct.is_subset(&got), "missing direct pairs");
        assert!(got.is_subset(&memory), "pairs that are not even memory-based dependences");
    }
}

/// PolyBench fdtd-2d: four statements at two depths (the `ey[0][j] = fict[t]` boundary row
/// sits in a 2-deep nest), a 1-D array indexed by the time iterator, three parameters.
#[test]
fn fdtd_2d_matches_the_trace() {
    let mut scop = Scop::new(["T", "NX", "NY"]);
    scop.add_context("T >= 1, NX >= 2, NY >= 2").unwrap();
    let ex = scop.add_array("ex", 2).unwrap();
    let ey = scop.add_array("ey", 2).unwrap();
    let hz = scop.add_array("hz", 2).unwrap();
    let fict = scop.add_array("fict", 1).unwrap();
    let sp2 = scop.statement_space(["t", "j"]);
    let sp3 = scop.statement_space(["t", "i", "j"]);
    let stmt =
        |scop: &mut Scop, name: &str, sp: &Space, dom: &str, beta: &[i64], accesses: &[(AccessKind, ArrayId, &str)]| {
            let d = Polyhedron::parse(sp.clone(), dom).unwrap();
            let s = scop.add_statement(Statement::new(name, d, Schedule::from_beta(beta, sp).unwrap())).unwrap();
            for &(k, a, idx) in accesses {
                scop.add_access(s, AccessRelation::parse(k, a, sp, idx).unwrap()).unwrap();
            }
        };
    use AccessKind::{Read, Write};
    stmt(&mut scop, "S0", &sp2, "0 <= t < T, 0 <= j < NY", &[0, 0, 0], &[(Read, fict, "t"), (Write, ey, "0, j")]);
    stmt(
        &mut scop,
        "S1",
        &sp3,
        "0 <= t < T, 1 <= i < NX, 0 <= j < NY",
        &[0, 1, 0, 0],
        &[(Read, ey, "i, j"), (Read, hz, "i, j"), (Read, hz, "i - 1, j"), (Write, ey, "i, j")],
    );
    stmt(
        &mut scop,
        "S2",
        &sp3,
        "0 <= t < T, 0 <= i < NX, 1 <= j < NY",
        &[0, 2, 0, 0],
        &[(Read, ex, "i, j"), (Read, hz, "i, j"), (Read, hz, "i, j - 1"), (Write, ex, "i, j")],
    );
    stmt(
        &mut scop,
        "S3",
        &sp3,
        "0 <= t < T, 0 <= i < NX - 1, 0 <= j < NY - 1",
        &[0, 3, 0, 0],
        &[
            (Read, hz, "i, j"),
            (Read, ex, "i, j + 1"),
            (Read, ex, "i, j"),
            (Read, ey, "i + 1, j"),
            (Read, ey, "i, j"),
            (Write, hz, "i, j"),
        ],
    );
    for mode in [DependenceMode::Direct, DependenceMode::MemoryBased] {
        let g = DependenceGraph::compute(&scop, &DependenceOptions { mode, ..Default::default() }).unwrap();
        for p in [vec![3, 3, 4], vec![2, 4, 3]] {
            let (memory, direct) = common::trace(&scop, &p);
            let want = if mode == DependenceMode::Direct { direct } else { memory };
            assert_eq!(common::analysed(&scop, &g, &p), want, "{mode:?} {p:?}\n{}", g.display(&scop));
        }
        // Every statement depends on every other through the time loop: one SCC.
        assert_eq!(g.sccs().len(), 1);
    }
}
