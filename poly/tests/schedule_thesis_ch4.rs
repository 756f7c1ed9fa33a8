//! Thesis Ch. 4 on the program of Fig. 3.4 (`for t: for i in 0..N-1: A[i] = 0.5 * (A[i] +
//! A[i+1])`): the communication-minimal hyperplanes of Fig. 4.1, the balanced ones of
//! Fig. 4.3, Alg. 4.2 finding the anti dependence `(0, 1)`, the array copy of Fig. 4.4 with
//! the eight dependences of Fig. 4.5, and the hyperplanes of Fig. 4.6.
//!
//! Matrices are written as the thesis writes them: one row per hyperplane, columns `(t, i)`
//! (the thesis' `(j, i)`).

mod common;

use common::stencils;
use stencil_poly::schedule::{check_permutable, OrthoOrientation, RowKind};
use stencil_poly::*;

fn deps(scop: &Scop) -> DependenceGraph {
    DependenceGraph::compute(scop, &DependenceOptions::default()).unwrap()
}

fn assert_legal(scop: &Scop, g: &DependenceGraph, t: &Transformation) {
    let limits = Limits::default();
    assert!(check_legality(scop, g, &t.schedules, &limits).unwrap().is_legal());
    for b in &t.bands {
        assert!(check_permutable(scop, g, &t.schedules, b.rows.clone(), &limits).unwrap().is_legal());
    }
}

#[test]
fn fig_4_1_communication_minimal_hyperplanes() {
    let scop = stencils::fig_3_4();
    let g = deps(&scop);
    let t = schedule(&scop, &g, &SchedulerOptions::pluto()).unwrap();
    assert_eq!(t.phi(StatementId(0)), vec![vec![1, 0], vec![1, 1]]);
    assert_eq!(t.shifts(StatementId(0)), vec![0, 0]);
    assert_eq!(t.display(&scop).to_string(), "S0: (t, t + i)\n");
    assert_eq!(t.bands.len(), 1);
    assert_eq!(t.bands[0].rows, 0..2);
    // The first hyperplane satisfies e1, e2, e4, e5 (distance (1, ·)); the second e3 (0, 1).
    assert_eq!(t.rows[0].satisfies, vec![DependenceId(0), DependenceId(1), DependenceId(2), DependenceId(4)]);
    assert_eq!(t.rows[1].satisfies, vec![DependenceId(3)]);
    // Intra-tile wavefronts along (2, 1): the first hyperplane is 0 on the anti dependence
    // (0, 1), so the wavefronts are not balanced (Fig. 4.1).
    assert!(!t.has_balanced_wavefronts(&scop, &g, &Limits::default()).unwrap());
    assert_legal(&scop, &g, &t);
}

#[test]
fn fig_4_3_balanced_intra_tile_wavefronts() {
    let scop = stencils::fig_3_4();
    let g = deps(&scop);
    let t = schedule(&scop, &g, &SchedulerOptions::gpu()).unwrap();
    assert_eq!(t.phi(StatementId(0)), vec![vec![2, 1], vec![1, 1]]);
    assert_eq!(t.shifts(StatementId(0)), vec![0, 0]);
    assert_eq!(t.display(&scop).to_string(), "S0: (2*t + i, t + i)\n");
    assert!(t.has_balanced_wavefronts(&scop, &g, &Limits::default()).unwrap());
    assert_legal(&scop, &g, &t);
    // isl's orientation of the orthogonal sub-space (current Pluto) picks the other, equally
    // legal second row: (1, -2)·c >= 1 gives (1, 0).
    let isl = SchedulerOptions { ortho_orientation: OrthoOrientation::Isl, ..SchedulerOptions::gpu() };
    let t = schedule(&scop, &g, &isl).unwrap();
    assert_eq!(t.phi(StatementId(0)), vec![vec![2, 1], vec![1, 0]]);
    assert_legal(&scop, &g, &t);
}

#[test]
fn alg_4_2_finds_the_anti_dependence_0_1() {
    let scop = stencils::fig_3_4();
    let g = deps(&scop);
    // Table 3.1's e3: anti A[i + 1] -> A[i], distance (0, 1). The anti and output (1, 0)
    // dependences are redundant with the flow dependence (1, 0) (thesis Sec. 4.2.3).
    let h = hindering_false_dependences(&scop, &g, &SchedulerOptions::gpu()).unwrap();
    assert_eq!(h, vec![DependenceId(3)]);
    let d = g.dependence(h[0]).unwrap();
    assert_eq!((d.kind, d.distance.clone()), (DependenceKind::Anti, Some(vec![0, 1])));
    let literal = schedule::hindering_false_dependences_by_rerun(&scop, &g, &SchedulerOptions::gpu()).unwrap();
    assert_eq!(literal, h);
    // Without the balance constraint the anti dependence only asks c_i >= 0: nothing hinders.
    assert!(hindering_false_dependences(&scop, &g, &SchedulerOptions::pluto()).unwrap().is_empty());
}

/// Summary of a dependence: kind, statements, distance.
fn summary(scop: &Scop, g: &DependenceGraph) -> Vec<(DependenceKind, String, String, Option<Vec<i64>>)> {
    let name = |s: StatementId| scop.statement(s).unwrap().name().to_string();
    let mut v: Vec<_> = g
        .dependences()
        .iter()
        .map(|d| (d.kind, name(d.source.statement), name(d.target.statement), d.distance.clone()))
        .collect();
    v.sort();
    v
}

#[test]
fn fig_4_4_copy_has_the_eight_dependences_of_fig_4_5_and_the_hyperplanes_of_fig_4_6() {
    use DependenceKind::*;
    let scop = stencils::fig_4_4();
    let g = deps(&scop);
    let s = |x: &str| x.to_string();
    let mut expected = vec![
        (Flow, s("S0"), s("S1"), Some(vec![0, -1])), // A0[i] -> A0[i+1]
        (Flow, s("S1"), s("S0"), Some(vec![1, 0])),  // A[i] -> next copy
        (Flow, s("S1"), s("S1"), Some(vec![1, 0])),  // A[i] -> next A[i]
        (Anti, s("S0"), s("S1"), Some(vec![0, 0])),  // copy reads A[i] before S1 writes it
        (Anti, s("S1"), s("S0"), Some(vec![1, 1])),  // S1 reads A0[i+1] before the next copy
        (Anti, s("S1"), s("S1"), Some(vec![1, 0])),
        (Output, s("S0"), s("S0"), Some(vec![1, 0])),
        (Output, s("S1"), s("S1"), Some(vec![1, 0])),
    ];
    expected.sort();
    assert_eq!(summary(&scop, &g), expected, "{}", g.display(&scop));

    let t = schedule(&scop, &g, &SchedulerOptions::gpu()).unwrap();
    for s in [StatementId(0), StatementId(1)] {
        assert_eq!(t.phi(s), vec![vec![1, 0], vec![1, 1]]);
    }
    assert_eq!(t.shifts(StatementId(0)), vec![0, 0]);
    assert_eq!(t.shifts(StatementId(1)), vec![0, 1]);
    // The flow dependence (0, -1) is left at equal time stamps by both hyperplanes: a scalar
    // dimension orders the copy before the update (Fig. 4.7 runs S0 then S1 per wavefront).
    assert_eq!(t.display(&scop).to_string(), "S0: (t, t + i, 0)\nS1: (t, t + i + 1, 1)\n");
    assert_eq!(t.rows.iter().map(|r| r.kind).collect::<Vec<_>>(), [RowKind::Loop, RowKind::Loop, RowKind::Scalar]);
    assert!(t.has_balanced_wavefronts(&scop, &g, &Limits::default()).unwrap());
    assert_legal(&scop, &g, &t);
    assert!(hindering_false_dependences(&scop, &g, &SchedulerOptions::gpu()).unwrap().is_empty());
}

#[test]
fn fig_4_4_copy_planned_and_applied_automatically() {
    let scop = stencils::fig_3_4();
    let g = deps(&scop);
    let limits = Limits::default();
    let h = hindering_false_dependences(&scop, &g, &SchedulerOptions::gpu()).unwrap();
    let plans = plan_array_copies(&scop, &g, &h, &limits).unwrap();
    assert_eq!(plans.len(), 1);
    let p = &plans[0];
    assert_eq!((p.copy_name.as_str(), p.reader, p.depth), ("A0", StatementId(0), 1));
    assert_eq!(p.redirected, vec![AccessId(1)]); // the read A[i + 1]
    assert_eq!(p.removes, h);
    // Fig. 4.4 (0-based): copy A[1 .. N-2] every time step, A[N-1] once before the nest.
    assert_eq!(p.copy_domain.to_string(), "[T, N] -> { [t, i] : 0 <= t <= T - 1 and 1 <= i <= N - 2 }");
    assert_eq!(p.initialization.as_ref().unwrap().to_string(), "[T, N] -> { [i] : i = N - 1 }");

    let copied = p.apply(&scop).unwrap();
    let names: Vec<&str> = copied.statements().iter().map(|s| s.name()).collect();
    assert_eq!(names, ["A0_init", "A0_copy", "S0"]);
    assert_eq!(copied.access_text(StatementId(2), AccessId(1)), "A0[i + 1]");
    let g2 = deps(&copied);
    // The nest's dependences are Fig. 4.5's eight; the initialisation adds the flow of A0[N-1].
    let hand = stencils::fig_4_4();
    let rename = |n: &str| match n {
        "A0_copy" => "S0".to_string(),
        "S0" => "S1".to_string(),
        other => other.to_string(),
    };
    let mut nest: Vec<_> = summary(&copied, &g2)
        .into_iter()
        .filter(|(_, a, b, _)| a != "A0_init" && b != "A0_init")
        .map(|(k, a, b, d)| (k, rename(&a), rename(&b), d))
        .collect();
    nest.sort();
    assert_eq!(nest, summary(&hand, &deps(&hand)));
    assert_eq!(g2.dependences().len(), 9, "{}", g2.display(&copied));
    // Same hyperplanes as the hand-built copy (after the cut that puts the 1-D
    // initialisation first).
    let t = schedule(&copied, &g2, &SchedulerOptions::gpu()).unwrap();
    assert_eq!(
        t.display(&copied).to_string(),
        "A0_init: (0, i, 0, 0)\nA0_copy: (1, t, t + i, 1)\nS0: (1, t, t + i + 1, 2)\n"
    );
    assert_legal(&copied, &g2, &t);
}
