//! Regression tests: programs for which Pluto's linear-independence constraint (one orthant of
//! the orthogonal sub-space) led the scheduler to a legal but non-unimodular transformation
//! — rows determining only `2i` or `2t` — that the scanner rejected
//! (`CodegenError::NonUnimodular`). Found by the random codegen property test
//! (`codegen_random.rs`) with varying seeds. The scheduler now keeps every statement's rows
//! unimodular when a legal row allows it (`schedule/unimodular.rs`); these programs must
//! schedule, tile, scan and run correctly.

mod codegen_support;
mod common;

use codegen_support::{check, tile_and_generate};
use stencil_poly::tiling::{TilingInput, TilingOptions};
use stencil_poly::*;

/// `for t { for i { for j { S0: A[i][j] = f(B[<read0>]); S1: B[i][j] = f(…) } } }`, one
/// perfect nest over `0 <= t < T`, `1 <= i, j <= N − 2`: `S0` reads `B` at `s0_read`,
/// `S1` reads the given `(array, offset)` pairs.
fn fused_pair(s0_read: &str, s1_reads: &[(&str, &str)]) -> Scop {
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 3").unwrap();
    let a = scop.add_array("A", 2).unwrap();
    let b = scop.add_array("B", 2).unwrap();
    let space = scop.statement_space(["t", "i", "j"]);
    let domain = Polyhedron::parse(space.clone(), "0 <= t <= T - 1, 1 <= i <= N - 2, 1 <= j <= N - 2").unwrap();
    let s0 = scop
        .add_statement(Statement::new("S0", domain.clone(), Schedule::from_beta(&[0, 0, 0, 0], &space).unwrap()))
        .unwrap();
    let s1 =
        scop.add_statement(Statement::new("S1", domain, Schedule::from_beta(&[0, 0, 0, 1], &space).unwrap())).unwrap();
    scop.add_access(s0, AccessRelation::parse(AccessKind::Read, b, &space, s0_read).unwrap()).unwrap();
    scop.add_access(s0, AccessRelation::parse(AccessKind::Write, a, &space, "i, j").unwrap()).unwrap();
    for (array, index) in s1_reads {
        let array = if *array == "A" { a } else { b };
        scop.add_access(s1, AccessRelation::parse(AccessKind::Read, array, &space, index).unwrap()).unwrap();
    }
    scop.add_access(s1, AccessRelation::parse(AccessKind::Write, b, &space, "i, j").unwrap()).unwrap();
    scop
}

/// `|det|` of a square integer matrix (Laplace expansion; the matrices here are 3×3).
fn det(m: &[Vec<i64>]) -> i64 {
    if m.len() == 1 {
        return m[0][0];
    }
    (0..m.len())
        .map(|c| {
            let minor: Vec<Vec<i64>> = m[1..]
                .iter()
                .map(|r| r.iter().enumerate().filter(|&(k, _)| k != c).map(|(_, &x)| x).collect())
                .collect();
            (if c % 2 == 0 { 1 } else { -1 }) * m[0][c] * det(&minor)
        })
        .sum()
}

/// Schedules `scop`, checks legality and that every statement's hyperplanes are unimodular,
/// then tiles the first band with several tile sizes, scans, and runs the code (every
/// instance once, time stamps non-decreasing, conflicting pairs in order, also with the
/// parallel loops reversed). Returns the printed transformation.
fn schedule_tile_and_run(scop: &Scop, options: &SchedulerOptions) -> String {
    let ddg = DependenceGraph::compute(scop, &DependenceOptions::default()).unwrap();
    let t = schedule(scop, &ddg, options).unwrap();
    let printed = t.display(scop).to_string();
    assert!(check_legality(scop, &ddg, &t.schedules, &Limits::default()).unwrap().is_legal(), "{printed}");
    for s in 0..scop.statements().len() {
        let phi = t.phi(StatementId(s));
        assert_eq!(det(&phi).abs(), 1, "S{s}: Φ = {phi:?} is not unimodular\n{printed}");
    }
    let width = t.bands[0].width();
    for sizes in [vec![1; width], vec![2; width], vec![3, 2, 4][..width].to_vec()] {
        let input = TilingInput::from_transformation(&t, &[sizes]).unwrap();
        let (tiled, nest) = tile_and_generate(scop, &input, &TilingOptions::default());
        for params in [[1, 3], [2, 5], [3, 6]] {
            check(scop, &tiled, &nest, &params);
        }
    }
    printed
}

#[test]
fn pluto_orthant_row_t_plus_2i_is_completed_unimodularly() {
    // S0: A[i][j] = B[i−1][j]; S1: B[i][j] = A[i−1][j+1] (the smallest program the random
    // test found). Pluto's options gave S0: (i + 2*j, t, t + i): the kernel of (i + 2j, t) is
    // (0, −2, 1), and t + i meets it in −2, so the rows determine only 2j. The last row is now
    // t + i + j (kernel product −1); it no longer separates the statements' loop-independent
    // dependences, so a scalar row orders them.
    let scop = fused_pair("i - 1, j", &[("A", "i - 1, j + 1")]);
    let printed = schedule_tile_and_run(&scop, &SchedulerOptions::pluto());
    assert_eq!(printed, "S0: (i + 2*j, t, t + i + j, 0)\nS1: (i + 2*j + 1, t, t + i + j, 1)\n");
}

#[test]
fn balanced_first_row_2t_plus_j_is_completed_unimodularly() {
    // S0: A[i][j] = B[i+1][j]; S1: B[i][j] = B[i][j+1] + A[i][j+1], GPU options (balanced first
    // row). Pluto's orthant after 2t + j gives t + 2i, still saturated (minors of
    // (2t + j, t + 2i) have gcd 1), then t + j: S0: (2*t + j, t + 2*i + 1, t + j), det 2, which
    // determines only 2i. The last row must meet the kernel (2, −1, −4) in ±1: t + i.
    let scop = fused_pair("i + 1, j", &[("B", "i, j + 1"), ("A", "i, j + 1")]);
    let printed = schedule_tile_and_run(&scop, &SchedulerOptions::gpu());
    assert_eq!(printed, "S0: (2*t + j, t + 2*i + 1, t + i)\nS1: (2*t + j, t + 2*i, t + i)\n");
}
