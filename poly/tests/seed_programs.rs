//! Dependences of the thesis' seed loop nests, checked by hand: Fig. 3.2(a) Jacobi (an
//! imperfect nest over two arrays) and a 2-D SOR-5 sweep (DOACROSS inner loops, in place).

use std::collections::BTreeSet;

use stencil_poly::*;

type Summary = BTreeSet<(DependenceKind, String, String, Option<Vec<i64>>)>;

fn summary(scop: &Scop, g: &DependenceGraph) -> Summary {
    g.dependences()
        .iter()
        .map(|d| {
            let end = |r: AccessRef| {
                let s = scop.statement(r.statement).unwrap();
                format!("{} {}", s.name(), scop.access_text(r.statement, r.access))
            };
            (d.kind, end(d.source), end(d.target), d.distance.clone())
        })
        .collect()
}

fn entry(kind: DependenceKind, src: &str, tgt: &str, d: &[i64]) -> (DependenceKind, String, String, Option<Vec<i64>>) {
    (kind, src.to_string(), tgt.to_string(), Some(d.to_vec()))
}

/// Thesis Fig. 3.2(a): `for t { for i: S0: B[i] = (A[i-1] + A[i] + A[i+1]) / 3;
/// for i: S1: A[i] = B[i]; }`.
fn jacobi_1d() -> Scop {
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 3").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let b = scop.add_array("B", 1).unwrap();
    let space = scop.statement_space(["t", "i"]);
    let dom = Polyhedron::parse(space.clone(), "0 <= t < T, 1 <= i <= N - 2").unwrap();
    let s0 = scop
        .add_statement(Statement::new("S0", dom.clone(), Schedule::from_beta(&[0, 0, 0], &space).unwrap()))
        .unwrap();
    for idx in ["i - 1", "i", "i + 1"] {
        scop.add_access(s0, AccessRelation::parse(AccessKind::Read, a, &space, idx).unwrap()).unwrap();
    }
    scop.add_access(s0, AccessRelation::parse(AccessKind::Write, b, &space, "i").unwrap()).unwrap();
    let s1 = scop.add_statement(Statement::new("S1", dom, Schedule::from_beta(&[0, 1, 0], &space).unwrap())).unwrap();
    scop.add_access(s1, AccessRelation::parse(AccessKind::Read, b, &space, "i").unwrap()).unwrap();
    scop.add_access(s1, AccessRelation::parse(AccessKind::Write, a, &space, "i").unwrap()).unwrap();
    scop
}

#[test]
fn jacobi_imperfect_nest() {
    use DependenceKind::*;
    let scop = jacobi_1d();
    let g = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    let expected: Summary = [
        // B[i] produced by S0 and consumed by S1 in the same time step.
        entry(Flow, "S0 B[i]", "S1 B[i]", &[0, 0]),
        // S1's new A feeds the next time step's three reads.
        entry(Flow, "S1 A[i]", "S0 A[i - 1]", &[1, 1]),
        entry(Flow, "S1 A[i]", "S0 A[i]", &[1, 0]),
        entry(Flow, "S1 A[i]", "S0 A[i + 1]", &[1, -1]),
        // S1 overwrites A after S0 read it in the same time step.
        entry(Anti, "S0 A[i - 1]", "S1 A[i]", &[0, -1]),
        entry(Anti, "S0 A[i]", "S1 A[i]", &[0, 0]),
        entry(Anti, "S0 A[i + 1]", "S1 A[i]", &[0, 1]),
        // S0 of the next step overwrites B after S1 read it.
        entry(Anti, "S1 B[i]", "S0 B[i]", &[1, 0]),
        entry(Output, "S0 B[i]", "S0 B[i]", &[1, 0]),
        entry(Output, "S1 A[i]", "S1 A[i]", &[1, 0]),
    ]
    .into_iter()
    .collect();
    assert_eq!(summary(&scop, &g), expected, "{}", g.display(&scop));
    assert_eq!(g.dependences().len(), 10);
    // The (0, *) dependences between S0 and S1 are loop-independent (textual order).
    for d in g.dependences() {
        let independent = d.distance.as_ref().is_some_and(|v| v[0] == 0);
        assert_eq!(d.level == DependenceLevel::Independent, independent, "{}", d.display(&scop));
    }
    assert_eq!(g.sccs(), vec![vec![StatementId(0), StatementId(1)]]);
}

#[test]
fn sor_2d_doacross() {
    use DependenceKind::*;
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 3").unwrap();
    let a = scop.add_array("A", 2).unwrap();
    let space = scop.statement_space(["t", "i", "j"]);
    let dom = Polyhedron::parse(space.clone(), "0 <= t < T, 1 <= i <= N - 2, 1 <= j <= N - 2").unwrap();
    let s = scop.add_statement(Statement::new("S", dom, Schedule::from_beta(&[0, 0, 0, 0], &space).unwrap())).unwrap();
    for idx in ["i - 1, j", "i, j - 1", "i, j", "i, j + 1", "i + 1, j"] {
        scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, idx).unwrap()).unwrap();
    }
    scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, "i, j").unwrap()).unwrap();
    let g = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    let w = "S A[i, j]";
    let expected: Summary = [
        // Reads of already-updated neighbours (the DOACROSS dependences of the i and j loops).
        entry(Flow, w, "S A[i - 1, j]", &[0, 1, 0]),
        entry(Flow, w, "S A[i, j - 1]", &[0, 0, 1]),
        // Reads of the previous sweep's values.
        entry(Flow, w, "S A[i, j]", &[1, 0, 0]),
        entry(Flow, w, "S A[i, j + 1]", &[1, 0, -1]),
        entry(Flow, w, "S A[i + 1, j]", &[1, -1, 0]),
        // Each value read is overwritten next by the write of that element in the next sweep
        // (west/north neighbours) or later in this sweep (east/south neighbours).
        entry(Anti, "S A[i - 1, j]", w, &[1, -1, 0]),
        entry(Anti, "S A[i, j - 1]", w, &[1, 0, -1]),
        entry(Anti, "S A[i, j]", w, &[1, 0, 0]),
        entry(Anti, "S A[i, j + 1]", w, &[0, 0, 1]),
        entry(Anti, "S A[i + 1, j]", w, &[0, 1, 0]),
        entry(Output, w, w, &[1, 0, 0]),
    ]
    .into_iter()
    .collect();
    assert_eq!(summary(&scop, &g), expected, "{}", g.display(&scop));
    assert_eq!(g.dependences().len(), 11);
}

#[test]
fn reversed_loop_order_flips_the_inner_distances() {
    // `for t: for i = N-2 down to 1: A[i] = (A[i-1] + A[i+1]) / 2` (schedule row −i): the
    // read of A[i+1] now sees this sweep's value.
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 3").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let space = scop.statement_space(["t", "i"]);
    let dom = Polyhedron::parse(space.clone(), "0 <= t < T, 1 <= i <= N - 2").unwrap();
    let rows = vec![
        AffineForm::parse(&space, "0").unwrap(),
        AffineForm::parse(&space, "t").unwrap(),
        AffineForm::parse(&space, "0").unwrap(),
        AffineForm::parse(&space, "-i").unwrap(),
        AffineForm::parse(&space, "0").unwrap(),
    ];
    let s = scop.add_statement(Statement::new("S", dom, Schedule::new(&space, rows).unwrap())).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i - 1").unwrap()).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i + 1").unwrap()).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, "i").unwrap()).unwrap();
    let g = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    let flow: BTreeSet<Vec<i64>> = g
        .dependences()
        .iter()
        .filter(|d| d.kind == DependenceKind::Flow)
        .map(|d| d.distance.clone().unwrap())
        .collect();
    assert_eq!(flow, [vec![1, 1], vec![0, -1]].into_iter().collect(), "{}", g.display(&scop));
}
