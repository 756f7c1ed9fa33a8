//! The scheduler, the checker and the copy planner fail with clean errors (no panics) on what
//! they cannot do: bounds too tight, limits, malformed inputs; and loops run backwards, which
//! they can.

mod common;

use common::stencils;
use stencil_poly::*;

fn deps(scop: &Scop) -> DependenceGraph {
    DependenceGraph::compute(scop, &DependenceOptions::default()).unwrap()
}

/// `for t: for i = N-2 down to 1: A[i] = (A[i-1] + A[i+1]) / 2` (schedule row −i): the
/// dependence `(0, -1)` needs a negative coefficient.
fn reversed() -> Scop {
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 3").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let space = scop.statement_space(["t", "i"]);
    let dom = Polyhedron::parse(space.clone(), "0 <= t < T, 1 <= i <= N - 2").unwrap();
    let rows = ["0", "t", "0", "-i", "0"].iter().map(|r| AffineForm::parse(&space, r).unwrap()).collect();
    let s = scop.add_statement(Statement::new("S", dom, Schedule::new(&space, rows).unwrap())).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i - 1").unwrap()).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i + 1").unwrap()).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, "i").unwrap()).unwrap();
    scop
}

#[test]
fn loops_run_backwards_are_scheduled_in_the_reversed_iterator() {
    // The dependence (0, -1) needs a negative coefficient on i: the scheduler renames i' = -i
    // (the statement's original schedule runs i backwards), schedules, and renames back.
    let scop = reversed();
    let g = deps(&scop);
    let pluto = schedule(&scop, &g, &SchedulerOptions::pluto()).unwrap();
    assert_eq!(pluto.display(&scop).to_string(), "S: (t, t - i)\n");
    let gpu = schedule(&scop, &g, &SchedulerOptions::gpu()).unwrap();
    assert_eq!(gpu.display(&scop).to_string(), "S: (2*t - i, t - i)\n");
    for t in [&pluto, &gpu] {
        assert!(check_legality(&scop, &g, &t.schedules, &Limits::default()).unwrap().is_legal());
    }
    // The original schedule is legal all the same.
    let original: Vec<Schedule> = scop.statements().iter().map(|s| s.schedule().clone()).collect();
    assert!(check_legality(&scop, &g, &original, &Limits::default()).unwrap().is_legal());
}

#[test]
fn bounds_and_limits_are_reported() {
    let scop = stencils::fig_3_4();
    let g = deps(&scop);
    // Fig. 4.3 needs the coefficient 2.
    let tight = SchedulerOptions { coefficient_bound: 1, ..SchedulerOptions::gpu() };
    assert_eq!(schedule(&scop, &g, &tight), Err(ScheduleError::BalanceInfeasible));
    // 1-D Jacobi needs three rows (two hyperplanes and a cut).
    let scop = stencils::jacobi_1d_3pt();
    let g = deps(&scop);
    let short = SchedulerOptions { max_rows: 1, ..SchedulerOptions::pluto() };
    assert_eq!(schedule(&scop, &g, &short), Err(ScheduleError::TooManyRows { limit: 1 }));
    let starved =
        SchedulerOptions { limits: Limits { max_simplex_pivots: 1, ..Limits::default() }, ..SchedulerOptions::pluto() };
    let e = schedule(&scop, &g, &starved).unwrap_err();
    assert!(matches!(e, ScheduleError::Poly(PolyError::LimitExceeded { limit: "max_simplex_pivots", .. })), "{e}");
}

#[test]
fn malformed_inputs() {
    let scop = stencils::jacobi_1d_3pt();
    let g = deps(&scop);
    let limits = Limits::default();
    let one: Vec<Schedule> = vec![scop.statements()[0].schedule().clone()];
    assert!(matches!(check_legality(&scop, &g, &one, &limits), Err(ScheduleError::InvalidSchedules(_))));
    // An output dependence is not removed by copying; an unknown id is reported.
    let output = g.dependences().iter().position(|d| d.kind == DependenceKind::Output).unwrap();
    assert!(matches!(
        plan_array_copies(&scop, &g, &[DependenceId(output)], &limits),
        Err(ScheduleError::CopyNotPossible { .. })
    ));
    assert_eq!(
        plan_array_copies(&scop, &g, &[DependenceId(999)], &limits),
        Err(ScheduleError::UnknownDependence(DependenceId(999)))
    );
    // A hand-made copy that asks for more loops than the reader has.
    let h = hindering_false_dependences(&scop, &g, &SchedulerOptions::gpu()).unwrap();
    let mut plan = plan_array_copies(&scop, &g, &h, &limits).unwrap().remove(0);
    plan.depth = 5;
    assert!(matches!(plan.apply(&scop), Err(ScheduleError::InvalidSchedules(_))));
}
