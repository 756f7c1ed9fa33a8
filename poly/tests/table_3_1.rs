//! Thesis Table 3.1: the dependences of Fig. 3.4,
//! `for t in 0..T: for i in 0..N-1: S0: A[i] = 0.5 * (A[i] + A[i+1])`
//! (one statement; reads `A[i]`, `A[i+1]`; writes `A[i]`). The thesis counts from 1
//! (`1 ≤ j ≤ J`, `1 ≤ i ≤ I`); here `0 ≤ t ≤ T − 1`, `0 ≤ i ≤ N − 2`.

use stencil_poly::*;

fn fig_3_4() -> Scop {
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 4").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let space = scop.statement_space(["t", "i"]);
    let domain = Polyhedron::parse(space.clone(), "0 <= t < T, 0 <= i < N - 1").unwrap();
    let schedule = Schedule::from_beta(&[0, 0, 0], &space).unwrap();
    let s = scop.add_statement(Statement::new("S0", domain, schedule)).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i").unwrap()).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i + 1").unwrap()).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, "i").unwrap()).unwrap();
    scop
}

const READ_I: AccessId = AccessId(0);
const READ_I1: AccessId = AccessId(1);
const WRITE_I: AccessId = AccessId(2);

/// One row of Table 3.1: thesis name, kind, source access, target access, distance vector and
/// the dependence polyhedron as the table states it.
type Row = (&'static str, DependenceKind, AccessId, AccessId, Vec<i64>, &'static str);

fn table() -> Vec<Row> {
    use DependenceKind::*;
    vec![
        // e1: A[i] (LHS) -> A[i] (RHS), flow, (1, 0)
        ("e1", Flow, WRITE_I, READ_I, vec![1, 0], "t_s = t_t - 1, i_s = i_t, 1 <= t_t <= T - 1, 0 <= i_t <= N - 2"),
        // e2: A[i] (LHS) -> A[i+1] (RHS), flow, (1, -1)
        (
            "e2",
            Flow,
            WRITE_I,
            READ_I1,
            vec![1, -1],
            "t_s = t_t - 1, i_s = i_t + 1, 1 <= t_t <= T - 1, 0 <= i_t <= N - 3",
        ),
        // e3: A[i+1] (RHS) -> A[i] (LHS), anti, (0, 1)
        ("e3", Anti, READ_I1, WRITE_I, vec![0, 1], "t_s = t_t, i_s + 1 = i_t, 0 <= t_t <= T - 1, 1 <= i_t <= N - 2"),
        // e4: A[i] (RHS) -> A[i] (LHS), anti, (1, 0). (The thesis prints the bounds of e4 and
        // e5 on j_s while labelling them j_t; j_t = j_s + 1 ranges over 2..J as for e1.)
        ("e4", Anti, READ_I, WRITE_I, vec![1, 0], "t_s + 1 = t_t, i_s = i_t, 0 <= t_s <= T - 2, 0 <= i_t <= N - 2"),
        // e5: A[i] (LHS) -> A[i] (LHS), output, (1, 0)
        ("e5", Output, WRITE_I, WRITE_I, vec![1, 0], "t_s + 1 = t_t, i_s = i_t, 0 <= t_s <= T - 2, 0 <= i_t <= N - 2"),
    ]
}

#[test]
fn exactly_the_five_dependences_of_table_3_1() {
    let scop = fig_3_4();
    let limits = Limits::default();
    let g = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    assert_eq!(g.dependences().len(), 5, "{}", g.display(&scop));
    let ctx_space = g.dependences()[0].polyhedron.space().clone();
    let nd = ctx_space.n_dims();
    let ctx = scop.context().embed(ctx_space.clone(), &(0..2).map(|j| nd + j).collect::<Vec<_>>()).unwrap();
    for (name, kind, src, tgt, dist, poly) in table() {
        let matching: Vec<&Dependence> = g
            .dependences()
            .iter()
            .filter(|d| d.kind == kind && d.source.access == src && d.target.access == tgt)
            .collect();
        assert_eq!(matching.len(), 1, "{name}: expected one dependence");
        let d = matching[0];
        assert_eq!(d.distance.as_deref(), Some(dist.as_slice()), "{name} distance");
        assert!(d.is_self() && !d.over_approximated);
        let expected = Polyhedron::parse(ctx_space.clone(), poly).unwrap().intersect(&ctx).unwrap();
        let got = d.polyhedron.intersect(&ctx).unwrap();
        assert!(got.is_equal_set(&expected, &limits).unwrap(), "{name}: got {got}, expected {expected}");
    }
}

#[test]
fn stable_printed_form() {
    let scop = fig_3_4();
    let g = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    let expected = "\
dep 0: flow S0.write0 A[i] -> S0.read0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 0 <= i_t <= N - 2 }
dep 1: flow S0.write0 A[i] -> S0.read1 A[i + 1]; carried by loop 1; distance (1, -1); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t + 1 and 1 <= t_t <= T - 1 and 0 <= i_t <= N - 3 }
dep 2: anti S0.read0 A[i] -> S0.write0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 0 <= i_t <= N - 2 }
dep 3: anti S0.read1 A[i + 1] -> S0.write0 A[i]; carried by loop 2; distance (0, 1); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t and i_s = i_t - 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
dep 4: output S0.write0 A[i] -> S0.write0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 0 <= i_t <= N - 2 }
";
    assert_eq!(g.display(&scop).to_string(), expected);
}

#[test]
fn memory_based_dependences_are_the_transitive_superset() {
    let scop = fig_3_4();
    let options = DependenceOptions { mode: DependenceMode::MemoryBased, ..Default::default() };
    let g = DependenceGraph::compute(&scop, &options).unwrap();
    let expected = "\
dep 0: flow S0.write0 A[i] -> S0.read0 A[i]; carried by loop 1; distance non-uniform; [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : i_s = i_t and 0 <= t_s <= t_t - 1 and t_t <= T - 1 and 0 <= i_t <= N - 2 }
dep 1: flow S0.write0 A[i] -> S0.read1 A[i + 1]; carried by loop 1; distance non-uniform; [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : i_s = i_t + 1 and 0 <= t_s <= t_t - 1 and t_t <= T - 1 and 0 <= i_t <= N - 3 }
dep 2: anti S0.read0 A[i] -> S0.write0 A[i]; carried by loop 1; distance non-uniform; [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : i_s = i_t and 0 <= t_s <= t_t - 1 and t_t <= T - 1 and 0 <= i_t <= N - 2 }
dep 3: anti S0.read1 A[i + 1] -> S0.write0 A[i]; carried by loop 1; distance non-uniform; [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : i_s = i_t - 1 and 0 <= t_s <= t_t - 1 and t_t <= T - 1 and 1 <= i_t <= N - 2 }
dep 4: anti S0.read1 A[i + 1] -> S0.write0 A[i]; carried by loop 2; distance (0, 1); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t and i_s = i_t - 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
dep 5: output S0.write0 A[i] -> S0.write0 A[i]; carried by loop 1; distance non-uniform; [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : i_s = i_t and 0 <= t_s <= t_t - 1 and t_t <= T - 1 and 0 <= i_t <= N - 2 }
";
    assert_eq!(g.display(&scop).to_string(), expected);
}

#[test]
fn ddg_is_one_self_looped_scc_with_five_parallel_edges() {
    let scop = fig_3_4();
    let g = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    assert_eq!(g.graph().node_count(), 1);
    assert_eq!(g.graph().edge_count(), 5);
    assert_eq!(g.between(StatementId(0), StatementId(0)).len(), 5);
    assert_eq!(g.sccs(), vec![vec![StatementId(0)]]);
}

#[test]
fn tiling_legality_of_fig_3_13_via_farkas() {
    // Thm 3.3 on Fig. 3.13: the identity hyperplanes (t, i) are illegal because of e2's
    // distance (1, -1); the skewed ones t and t + i are legal. (The thesis prints the legal
    // matrix transposed: as rows it is (1, 0) and (1, 1).)
    let scop = fig_3_4();
    let limits = Limits::default();
    let g = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    // Unknowns (c_t, c_i) of one hyperplane φ(t, i) = c_t·t + c_i·i; for every dependence the
    // form φ(target) − φ(source) ≥ 0 on P_e, linearised by Farkas.
    let unknowns = Space::set(["c_t", "c_i"]);
    let mut legal = Polyhedron::universe(unknowns.clone());
    for d in g.dependences() {
        let p = d.polyhedron_in_context(&scop).unwrap();
        let u = |k: usize, s: i64| AffineForm::from_terms(2, &[(k, s)], 0).unwrap();
        // columns: t_s, i_s, t_t, i_t, T, N
        let coeffs = vec![u(0, -1), u(1, -1), u(0, 1), u(1, 1), AffineForm::zero(2), AffineForm::zero(2)];
        let form = ParametricForm::new(unknowns.clone(), coeffs, AffineForm::zero(2)).unwrap();
        legal = legal.intersect(&farkas_nonnegative(&p, &form, &limits).unwrap()).unwrap();
    }
    // Legal hyperplanes: c_t ≥ c_i (from (1, -1)), c_t ≥ 0, c_i ≥ 0 (from (0, 1)).
    let expected = Polyhedron::parse(unknowns, "c_i >= 0, c_t >= c_i").unwrap();
    assert!(legal.is_equal_set(&expected, &limits).unwrap(), "{legal}");
    assert!(legal.contains(&[1, 0]).unwrap() && legal.contains(&[1, 1]).unwrap());
    assert!(!legal.contains(&[0, 1]).unwrap(), "φ = i violates the (1, -1) dependence");
}

/// With no kill tests to spend (`Limits::max_kill_tests = 0`), the direct analysis keeps the
/// memory-based polyhedra: the same dependences as the memory-based mode, each that a kill test
/// would have refined marked over-approximated — a superset of the direct ones, safe for legality.
#[test]
fn a_spent_kill_budget_keeps_the_memory_based_dependences() {
    let scop = fig_3_4();
    let memory = DependenceOptions { mode: DependenceMode::MemoryBased, ..Default::default() };
    let memory = DependenceGraph::compute(&scop, &memory).unwrap();
    let direct = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    let budgeted =
        DependenceOptions { limits: Limits { max_kill_tests: 0, ..Limits::default() }, ..Default::default() };
    let budgeted = DependenceGraph::compute(&scop, &budgeted).unwrap();
    let key = |d: &Dependence| (d.kind, d.source, d.target, d.schedule_row, d.polyhedron.clone());
    let memory_keys: Vec<_> = memory.dependences().iter().map(key).collect();
    let budgeted_keys: Vec<_> = budgeted.dependences().iter().map(key).collect();
    assert_eq!(budgeted_keys, memory_keys);
    assert_ne!(direct.dependences().len(), budgeted.dependences().len(), "Fig. 3.4 has killed pairs");
    assert!(budgeted.dependences().iter().any(|d| d.over_approximated));
    assert!(direct.dependences().iter().all(|d| !d.over_approximated));
}
