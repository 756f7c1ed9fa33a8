//! With the GPU constraint off, the scheduler reproduces Pluto's transformations on Pluto's
//! own stencil tests. The expected lines are the `// CHECK: T(S1): …` lines of Pluto's test
//! programs (github.com/bondhugula/pluto, `test/jacobi-1d-imper.c`, `test/jacobi-2d-imper.c`,
//! `test/seidel.c`, `test/heat-2d.c`, `test/fdtd-2d.c`), in our notation (`2*t + i` for
//! Pluto's `2t+i`). They hold for direct and memory-based dependences and for both
//! orientations of the orthogonal sub-space.

mod common;

use common::stencils;
use stencil_poly::schedule::{FuseStrategy, OrthoOrientation};
use stencil_poly::*;

fn check(scop: &Scop, expected: &str) {
    let limits = Limits::default();
    let direct = DependenceGraph::compute(scop, &DependenceOptions::default()).unwrap();
    let memory =
        DependenceGraph::compute(scop, &DependenceOptions { mode: DependenceMode::MemoryBased, ..Default::default() })
            .unwrap();
    let isl = SchedulerOptions { ortho_orientation: OrthoOrientation::Isl, ..SchedulerOptions::pluto() };
    for (g, options) in [(&direct, SchedulerOptions::pluto()), (&direct, isl), (&memory, SchedulerOptions::pluto())] {
        let t = schedule(scop, g, &options).unwrap();
        assert_eq!(t.display(scop).to_string(), expected, "{options:?}");
        assert!(check_legality(scop, g, &t.schedules, &limits).unwrap().is_legal());
    }
}

#[test]
fn jacobi_1d_imper() {
    // CHECK: T(S1): (t, 2t+i, 0)
    // CHECK: T(S2): (t, 2t+i+1, 1)
    check(&stencils::pluto_jacobi_1d_imper(), "S1: (t, 2*t + i, 0)\nS2: (t, 2*t + i + 1, 1)\n");
}

#[test]
fn jacobi_2d_imper() {
    // CHECK: T(S1): (t, 2t+i, 2t+j)
    // CHECK: T(S2): (t, 2t+i+1, 2t+j+1)
    check(&stencils::pluto_jacobi_2d_imper(), "S1: (t, 2*t + i, 2*t + j)\nS2: (t, 2*t + i + 1, 2*t + j + 1)\n");
}

#[test]
fn seidel_2d() {
    // CHECK: T(S1): (t, t+i, 2t+i+j)
    check(&stencils::pluto_seidel_2d(), "S1: (t, t + i, 2*t + i + j)\n");
}

#[test]
fn heat_2d() {
    // CHECK: T(S1): (t, t+i, t+j)
    check(&stencils::pluto_heat_2d(), "S1: (t, t + i, t + j)\n");
}

#[test]
fn fdtd_2d() {
    // CHECK: T(S1): (t, t+j, t)
    // CHECK: T(S2): (t, t+j, t+i)
    // CHECK: T(S3): (t, t+j, t+i)
    // CHECK: T(S4): (t, t+j+1, t+i+1)
    // (before Pluto's intra-tile loop permutation, which our scheduler does not do). The 2-D
    // statement S1 comes first in the objective, and its j coefficient is tied to S4's.
    check(
        &stencils::polybench_fdtd_2d(),
        "S1: (t, t + j, t)\nS2: (t, t + j, t + i)\nS3: (t, t + j, t + i)\nS4: (t, t + j + 1, t + i + 1)\n",
    );
}

/// `for i: S0: B[i] = A[i]; for i: S1: C[i] = B[i + 1]`: two components.
fn producer_consumer() -> Scop {
    stencils::Builder::new(&["N"], "N >= 2")
        .array("A", 1)
        .array("B", 1)
        .array("C", 1)
        .stmt("S0", &["i"], "0 <= i < N", &[0, 0], &[("A", "i")], ("B", "i"))
        .stmt("S1", &["i"], "0 <= i < N - 1", &[1, 0], &[("B", "i + 1")], ("C", "i"))
        .build()
}

#[test]
fn fusion_strategies() {
    let scop = producer_consumer();
    let g = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    let with = |fuse| schedule(&scop, &g, &SchedulerOptions { fuse, ..SchedulerOptions::pluto() }).unwrap();
    // Smart and max fusion shift the consumer by one and fuse; the dependence is then left at
    // equal time stamps and a final cut orders the two statements.
    for fuse in [FuseStrategy::Smart, FuseStrategy::Max] {
        assert_eq!(with(fuse).display(&scop).to_string(), "S0: (i, 0)\nS1: (i + 1, 1)\n", "{fuse:?}");
    }
    // No fusion: one loop nest per component.
    let t = with(FuseStrategy::None);
    assert_eq!(t.display(&scop).to_string(), "S0: (0, i)\nS1: (1, i)\n");
    assert_eq!(t.rows[0].satisfies, vec![DependenceId(0)]);
    assert_eq!("none".parse::<FuseStrategy>(), Ok(FuseStrategy::None));
    assert!("some".parse::<FuseStrategy>().is_err());
}
