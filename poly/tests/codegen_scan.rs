//! Scanning corner cases: fused statements whose extents are incomparable parameters (the
//! convex-hull fallback), negative coordinates (floor-correct tiles and bounds), guards on
//! parameters only, the interpreter's limits, and a dense four-row band of two statements
//! whose tile projections need Fourier–Motzkin's redundancy removal to finish; tile footprints
//! over dimensions the tiling does not bound.

mod codegen_support;
mod common;

use codegen_support::{check, check_full_tiles, tile_and_generate};
use stencil_poly::codegen::{generate, CodegenError, ExecuteOptions, ScanOptions, ScanProblem};
use stencil_poly::tiling::{TileBand, TilingInput, TilingOptions};
use stencil_poly::*;

fn rows(space: &Space, rows: &[&str]) -> Schedule {
    Schedule::new(space, rows.iter().map(|r| AffineForm::parse(space, r).unwrap()).collect()).unwrap()
}

/// `for i: if (i < N) A[i] = A[i] + 1; if (i < M) B[i] = B[i - 1]` fused into one loop.
fn fused_n_m() -> Scop {
    let mut scop = Scop::new(["N", "M"]);
    scop.add_context("N >= 1, M >= 2").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let b = scop.add_array("B", 1).unwrap();
    let space = scop.statement_space(["i"]);
    let s0 = scop
        .add_statement(Statement::new(
            "S0",
            Polyhedron::parse(space.clone(), "0 <= i < N").unwrap(),
            Schedule::from_beta(&[0, 0], &space).unwrap(),
        ))
        .unwrap();
    let s1 = scop
        .add_statement(Statement::new(
            "S1",
            Polyhedron::parse(space.clone(), "1 <= i < M").unwrap(),
            Schedule::from_beta(&[1, 0], &space).unwrap(),
        ))
        .unwrap();
    scop.add_access(s0, AccessRelation::parse(AccessKind::Read, a, &space, "i").unwrap()).unwrap();
    scop.add_access(s0, AccessRelation::parse(AccessKind::Write, a, &space, "i").unwrap()).unwrap();
    scop.add_access(s1, AccessRelation::parse(AccessKind::Read, b, &space, "i - 1").unwrap()).unwrap();
    scop.add_access(s1, AccessRelation::parse(AccessKind::Write, b, &space, "i").unwrap()).unwrap();
    scop
}

#[test]
fn fused_statements_with_incomparable_extents_share_one_guarded_loop() {
    let scop = fused_n_m();
    let space = scop.statements()[0].space().clone();
    for sizes in [None, Some(3)] {
        let bands = sizes.map(|s| vec![TileBand::new(0..1, vec![s])]).unwrap_or_default();
        let input = TilingInput::new(vec![rows(&space, &["i", "0"]), rows(&space, &["i", "1"])], bands);
        let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
        assert_eq!(nest.root.count_guards(), 2, "each statement guarded by its own extent\n{nest}");
        for p in [[1, 2], [4, 2], [2, 7], [5, 5], [9, 3]] {
            check(&scop, &tiled, &nest, &p);
        }
    }
}

#[test]
fn negative_coordinates_tile_with_floor_semantics() {
    // for i in -N..=N-1: A[i] = A[i - 1] (a flow dependence of distance 1), tiles of 3 and 4.
    let mut scop = Scop::new(["N"]);
    scop.add_context("N >= 1").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let space = scop.statement_space(["i"]);
    let s = scop
        .add_statement(Statement::new(
            "S0",
            Polyhedron::parse(space.clone(), "-N <= i < N").unwrap(),
            Schedule::from_beta(&[0, 0], &space).unwrap(),
        ))
        .unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i - 1").unwrap()).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, "i").unwrap()).unwrap();
    for size in [1, 3, 4] {
        let input = TilingInput::new(vec![rows(&space, &["i"])], vec![TileBand::new(0..1, vec![size])]);
        let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
        for n in 1..=7 {
            check(&scop, &tiled, &nest, &[n]);
        }
    }
    // Reversed: the schedule row -i runs the same loop backwards (an anti-parallel band is
    // illegal, so no dependence here).
    let mut scop = Scop::new(["N"]);
    scop.add_context("N >= 1").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let s = scop
        .add_statement(Statement::new(
            "S0",
            Polyhedron::parse(space.clone(), "-N <= i < N").unwrap(),
            rows(&space, &["-i"]),
        ))
        .unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, "i").unwrap()).unwrap();
    let input = TilingInput::new(vec![rows(&space, &["-i"])], vec![TileBand::new(0..1, vec![3])]);
    let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
    assert!(nest.to_string().contains("S0(i = -e1)"), "{nest}");
    for n in 1..=5 {
        check(&scop, &tiled, &nest, &[n]);
    }
}

#[test]
fn parameter_only_conditions_become_a_guard_around_the_loop() {
    let mut scop = Scop::new(["N"]);
    scop.add_context("N >= 1").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let space = scop.statement_space(["i"]);
    let s = scop
        .add_statement(Statement::new(
            "S0",
            Polyhedron::parse(space.clone(), "0 <= i < N, N >= 5").unwrap(),
            Schedule::from_beta(&[0, 0], &space).unwrap(),
        ))
        .unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, "i").unwrap()).unwrap();
    let input = TilingInput::new(vec![scop.statements()[0].schedule().clone()], Vec::new());
    let (_, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
    let text = nest.to_string();
    assert!(text.starts_with("if (N >= 5) {\n  for (c1 = 0; c1 <= N - 1; c1++) {  // DOALL loop"), "{text}");
    assert_eq!(nest.execute(&[3], |_, _| {}).unwrap(), 0);
    assert_eq!(nest.execute(&[6], |_, _| {}).unwrap(), 6);
    let limited = ExecuteOptions { max_instances: 4, ..ExecuteOptions::default() };
    let err = nest.execute_with(&[6], &limited, |_, _| {}).unwrap_err();
    assert!(matches!(err, CodegenError::TooManyInstances { limit: 4 }), "{err}");
    assert!(matches!(nest.execute(&[6, 1], |_, _| {}), Err(CodegenError::InvalidProblem(_))));
}

#[test]
fn malformed_scan_problems_are_reported() {
    let scop = fused_n_m();
    let ddg = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    let space = scop.statements()[0].space().clone();
    let input = TilingInput::new(vec![rows(&space, &["i", "0"]), rows(&space, &["i", "1"])], Vec::new());
    let tiled = tiling::tile(&scop, &input, &ddg, &TilingOptions::default()).unwrap();
    let mut problem = ScanProblem::from_tiled(&tiled, &scop).unwrap();
    problem.dims.pop();
    let err = generate(&problem, &ScanOptions::default()).unwrap_err();
    assert!(matches!(err, CodegenError::InvalidProblem(_)), "{err}");
    // A statement whose iterator no dimension determines.
    let mut problem = ScanProblem::from_tiled(&tiled, &scop).unwrap();
    let free = problem.statements[0].domain.space().clone();
    problem.statements[0].domain = Polyhedron::parse(free, "0 <= i < N, c1 = 0, s1 = 0").unwrap();
    let err = generate(&problem, &ScanOptions::default()).unwrap_err();
    assert!(matches!(err, CodegenError::UndeterminedIterator { .. }), "{err}");
}

/// The 3-D two-statement program of `lowering/tests/prop_codegen.proptest-regressions`:
/// `for t: S0: A[i][j][k] = A[i][j][k+1]; S1: A[i][j][k] = A[i][j-1][k] + A[i-1][j+1][k+1] +
/// A[i+1][j+1][k]` under the scheduler's dense four-row band, tiled by 2 (inter-tile
/// wavefront). Dropping the tile dimensions one by one from the 58-row tile polyhedron, the
/// redundancy budget ran out after the first step and the rows it left unchecked were
/// combined pairwise by the next: 76, 479, then past `Limits::max_constraints`.
fn dense_3d_two_statements() -> (Scop, TilingInput) {
    let it = ["t", "i", "j", "k"];
    let dom = "0 <= t < T, 1 <= i <= N - 2, 1 <= j <= N - 2, 1 <= k <= N - 2";
    let scop = common::stencils::Builder::new(&["T", "N"], "T >= 1, N >= 4")
        .array("A", 3)
        .stmt("S0", &it, dom, &[0, 0, 0, 0, 0], &[("A", "i, j, k + 1")], ("A", "i, j, k"))
        .stmt(
            "S1",
            &it,
            dom,
            &[0, 1, 0, 0, 0],
            &[("A", "i, j - 1, k"), ("A", "i - 1, j + 1, k + 1"), ("A", "i + 1, j + 1, k")],
            ("A", "i, j, k"),
        )
        .build();
    let space = scop.statements()[0].space().clone();
    let s0 = rows(&space, &["5*t + 3*i + j + k", "3*t + i + j", "2*t + i + k", "4*t + 2*i + j + k", "0"]);
    let s1 =
        rows(&space, &["5*t + 3*i + j + k + 4", "3*t + i + j + 2", "2*t + i + k + 1", "4*t + 2*i + j + k + 3", "1"]);
    (scop, TilingInput::new(vec![s0, s1], vec![TileBand::new(0..4, vec![2; 4])]))
}

#[test]
fn dense_four_row_band_of_two_statements_scans_within_the_limits() {
    let (scop, input) = dense_3d_two_statements();
    let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
    check(&scop, &tiled, &nest, &[2, 5]);
}

/// Tile footprints need every dimension of the tile bounded by the tiling: with only the time
/// loop fixed (no tiles), the elements a "tile" touches grow with `N` and the footprint is an
/// error naming the array and coordinate, not a wrong box.
#[test]
fn footprints_of_untiled_dimensions_are_unbounded_errors() {
    use stencil_poly::codegen::tile_footprints;
    let scop = common::stencils::jacobi_1d_3pt();
    let schedules: Vec<Schedule> = scop.statements().iter().map(|s| s.schedule().clone()).collect();
    let (tiled, _) = tile_and_generate(&scop, &TilingInput::new(schedules, Vec::new()), &TilingOptions::default());
    let problem = ScanProblem::from_tiled(&tiled, &scop).unwrap();
    let statements: Vec<StatementId> = (0..scop.statements().len()).map(StatementId).collect();
    // The time dimension (outermost) fixed, the rest scanned inside the "tile".
    let outer: Vec<bool> = (0..problem.dims.len()).map(|d| d == 0).collect();
    let error = tile_footprints(&problem, &scop, &statements, &outer, &Limits::default()).unwrap_err();
    assert!(matches!(error, CodegenError::FootprintUnbounded { coordinate: 0, .. }), "{error}");
    assert!(error.to_string().contains("do not fit a box of bounded size along coordinate 0"), "{error}");
}

/// `dimension_range` (sizing a GPU grid over the tiles of one inter-tile wavefront): for 2-D
/// SOR under the thesis schedule `(2t + i + j, t + i + j, t + j)` tiled with an inter-tile
/// wavefront, the range of each tile dimension given the wavefront alone contains every tile
/// coordinate of the wavefront's instances (enumerated), for several parameter values and tile
/// sizes. It is a rational projection (Fourier–Motzkin), so it may hold a few empty tiles — as
/// the scanned loops themselves may — but stays close: over all wavefronts, at most twice the
/// exact extents.
#[test]
fn dimension_ranges_are_the_exact_projection_over_a_wavefront() {
    use stencil_poly::codegen::{dimension_range, Bound};
    let scop = common::stencils::sor_2d_5pt();
    let space = scop.statements()[0].space().clone();
    let eval = |b: &Bound, point: &[i64], ceil: bool| {
        let v = b.expr.eval(point).unwrap();
        if ceil {
            v.div_euclid(b.divisor) + i64::from(v.rem_euclid(b.divisor) != 0)
        } else {
            v.div_euclid(b.divisor)
        }
    };
    for size in [2, 3] {
        let input = TilingInput::new(
            vec![rows(&space, &["2*t + i + j", "t + i + j", "t + j"])],
            vec![TileBand::new(0..3, vec![size; 3])],
        );
        let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
        let problem = ScanProblem::from_tiled(&tiled, &scop).unwrap();
        // Dimension 0 is the wavefront (on the host); 1 and 2 the tiles of a wavefront.
        let nd = problem.dims.len();
        for dim in 1..3 {
            let range = dimension_range(&problem, dim, 1, &ScanOptions::default()).unwrap().expect("a plain loop");
            for params in [[2, 7, 6], [3, 9, 11]] {
                // Per wavefront value, the smallest and largest tile coordinate of its instances.
                let mut seen: std::collections::BTreeMap<i64, (i64, i64)> = Default::default();
                for st in &tiled.statements {
                    for point in st.domain.enumerate(&params, &Limits::default()).unwrap() {
                        let e = seen.entry(point[0]).or_insert((i64::MAX, i64::MIN));
                        *e = (e.0.min(point[dim]), e.1.max(point[dim]));
                    }
                }
                assert!(!seen.is_empty());
                let (mut exact, mut ranged) = (0i64, 0i64);
                for (&w, &(lo, hi)) in &seen {
                    let mut column = vec![0i64; nd];
                    column[0] = w;
                    column.extend(params);
                    let lower =
                        range.lower.iter().map(|g| g.iter().map(|b| eval(b, &column, true)).max().unwrap()).min();
                    let upper =
                        range.upper.iter().map(|g| g.iter().map(|b| eval(b, &column, false)).min().unwrap()).max();
                    let (lower, upper) = (lower.unwrap(), upper.unwrap());
                    assert!(lower <= lo && hi <= upper, "tile dimension {dim}, wavefront {w}: range {lower}..={upper} misses {lo}..={hi}, params {params:?}, size {size}\n{nest}");
                    exact += hi - lo + 1;
                    ranged += upper - lower + 1;
                }
                assert!(
                    ranged <= 2 * exact,
                    "tile dimension {dim}: ranges hold {ranged} values for {exact} (params {params:?}, size {size})"
                );
            }
        }
    }
}

/// Full/partial tile separation (`full_tiles`): for 2-D SOR tiled with an inter-tile wavefront
/// (tiles of 3 and 4) and 2-D Jacobi's two statements, every tile classified full runs, with the
/// full-tile loops, exactly the instances the general loops run in it — in the same order — and
/// enough tiles are full for this to mean something; partial tiles are only ever classified
/// partial. The guarded full-tile loops run, in every tile, full or partial, exactly the general
/// loops' instances in the same order.
#[test]
fn full_tiles_run_what_the_general_code_runs_in_them() {
    use stencil_poly::codegen::{full_tiles, LoopAst};
    let sor = common::stencils::sor_2d_5pt();
    let sor_space = sor.statements()[0].space().clone();
    let jacobi = common::stencils::jacobi_2d_5pt();
    let jacobi_space = jacobi.statements()[0].space().clone();
    let cases: Vec<(Scop, TilingInput, [i64; 3])> = vec![
        (
            sor.clone(),
            TilingInput::new(
                vec![rows(&sor_space, &["2*t + i + j", "t + i + j", "t + j"])],
                vec![TileBand::new(0..3, vec![3; 3])],
            ),
            [10, 24, 23],
        ),
        (
            sor,
            TilingInput::new(
                vec![rows(&sor_space, &["2*t + i + j", "t + i + j", "t + j"])],
                vec![TileBand::new(0..3, vec![4; 3])],
            ),
            [13, 31, 30],
        ),
        (
            jacobi.clone(),
            TilingInput::new(
                vec![
                    rows(&jacobi_space, &["t", "2*t + i", "2*t + j", "0"]),
                    rows(&jacobi_space, &["t", "2*t + i + 1", "2*t + j + 1", "1"]),
                ],
                vec![TileBand::new(0..3, vec![3; 3])],
            ),
            [8, 24, 23],
        ),
        // Fused with shifts and no statement-order row (as `poly-schedule` writes Jacobi), time
        // tiles of 4 and a run of 3 steps: every tile is clipped in time, and the tiles clipped
        // by nothing else are full (`TiledSchedule::point_bounds`).
        (
            jacobi.clone(),
            TilingInput::new(
                vec![
                    rows(&jacobi_space, &["t", "2*t + i", "2*t + j"]),
                    rows(&jacobi_space, &["t", "2*t + i + 1", "2*t + j + 1"]),
                ],
                vec![TileBand::new(0..3, vec![4; 3])],
            ),
            [3, 30, 29],
        ),
    ];
    for (scop, input, params) in cases {
        let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
        // The host loop (wavefront) and the tile loops: the first three dimensions.
        let outer = 3;
        let counts = check_full_tiles(&scop, &tiled, &nest, &params, outer).expect("full-tile code");
        // Here the test is exact: every truly full tile is recognised.
        assert_eq!(counts.full, counts.truly_full, "full tiles missed by the test");
        assert!(counts.full * 10 >= counts.tiles, "only {} of {} tiles are full", counts.full, counts.tiles);
        assert!(counts.truly_full < counts.tiles, "no partial tile: the guarded code is not exercised");
        let full = full_tiles(&tiled, &scop, outer, &ScanOptions::default()).unwrap();
        assert!(matches!(full.body, LoopAst::For(_) | LoopAst::Seq(_)));
    }
}

/// Statements fused with shifts and no statement-order row (`B = f(A)` at `(t, 2t+i, 2t+j)`,
/// `A = B` one point later, as `poly-schedule` writes 2-D Jacobi): tiling appends the textual
/// order as a row, so time is the intra-tile wavefront with each statement's points of a step
/// in one parallel group (thesis Fig. 4.7) — without it the first hyperplane leaves the point
/// loops sequential and only the skew is left. The tiled code runs every instance once, in an
/// order that respects every dependence.
#[test]
fn fused_shifted_statements_take_time_as_the_intra_tile_wavefront() {
    use stencil_poly::tiling::{DimKind, IntraTile, StatementOrder};
    let scop = common::stencils::jacobi_2d_5pt();
    let space = scop.statements()[0].space().clone();
    let input = TilingInput::new(
        vec![rows(&space, &["t", "2*t + i", "2*t + j"]), rows(&space, &["t", "2*t + i + 1", "2*t + j + 1"])],
        vec![TileBand::new(0..3, vec![4; 3])],
    );
    let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
    assert_eq!(tiled.intra_tile, [IntraTile::FirstHyperplane]);
    assert_eq!(tiled.statement_order, [StatementOrder::PerWavefront]);
    let kinds: Vec<DimKind> = tiled.dims.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        [
            DimKind::TileWavefront,
            DimKind::Tile,
            DimKind::Tile,
            DimKind::PointWavefront,
            DimKind::Scalar,
            DimKind::Point,
            DimKind::Point
        ]
    );
    assert!(tiled.dims.iter().filter(|d| d.kind == DimKind::Point).all(|d| d.parallel), "{}", tiled.display(&scop));
    let order: Vec<i64> = tiled.schedules.iter().map(|s| s.rows()[3].constant()).collect();
    assert_eq!(order, [0, 1], "the appended row is the textual order");
    for p in [[1, 3, 3], [3, 9, 7], [6, 11, 12]] {
        check(&scop, &tiled, &nest, &p);
    }
    // The skewed wavefront orders the shifted statements by itself: no row appended, no groups.
    let options = TilingOptions { intra_tile: IntraTile::Skew, ..TilingOptions::default() };
    let (skewed, _) = tile_and_generate(&scop, &input, &options);
    assert!(skewed.dims.iter().all(|d| d.kind != DimKind::Scalar), "{}", skewed.display(&scop));
    assert!(skewed.dims.iter().filter(|d| d.kind == DimKind::Point).all(|d| d.parallel));
    // Asked for explicitly, statement groups innermost leave the point loops sequential.
    let options = TilingOptions { statement_order: StatementOrder::Innermost, ..TilingOptions::default() };
    let (innermost, _) = tile_and_generate(&scop, &input, &options);
    assert_eq!(innermost.intra_tile, [IntraTile::Skew], "{}", innermost.display(&scop));
}

/// `ScanOptions::depth` (what `dimension_range` scans with): the loops down to the cut are
/// exactly the full scan's, and below them every statement a path reaches is there, without
/// its iterators — for 2-D SOR's tiled schedule at every depth.
#[test]
fn a_scan_cut_at_a_depth_keeps_the_full_scans_outer_loops() {
    use stencil_poly::codegen::LoopAst;
    // The full scan's nest as the cut one has it: below the loops of dimension `depth − 1`,
    // the statements a path reaches, in order, without iterators.
    fn cut(node: &LoopAst, depth: usize) -> LoopAst {
        fn statements(node: &LoopAst, out: &mut Vec<LoopAst>) {
            match node {
                LoopAst::Stmt { statement, .. } => {
                    out.push(LoopAst::Stmt { statement: *statement, iter_values: vec![] });
                }
                LoopAst::For(l) => statements(&l.body, out),
                LoopAst::If { then, .. } => statements(then, out),
                LoopAst::Seq(items) => items.iter().for_each(|x| statements(x, out)),
            }
        }
        match node {
            LoopAst::For(l) if l.dim + 1 == depth => {
                let mut below = vec![];
                statements(&l.body, &mut below);
                below.dedup();
                let mut l = l.clone();
                l.body = Box::new(if below.len() == 1 { below.remove(0) } else { LoopAst::Seq(below) });
                LoopAst::For(l)
            }
            LoopAst::For(l) => {
                let mut l = l.clone();
                l.body = Box::new(cut(&l.body, depth));
                LoopAst::For(l)
            }
            LoopAst::If { guards, then } => LoopAst::If { guards: guards.clone(), then: Box::new(cut(then, depth)) },
            LoopAst::Seq(items) => LoopAst::Seq(items.iter().map(|x| cut(x, depth)).collect()),
            stmt @ LoopAst::Stmt { .. } => stmt.clone(),
        }
    }
    let scop = common::stencils::sor_2d_5pt();
    let space = scop.statements()[0].space().clone();
    let input = TilingInput::new(
        vec![rows(&space, &["2*t + i + j", "t + i + j", "t + j"])],
        vec![TileBand::new(0..3, vec![3; 3])],
    );
    let (tiled, full) = tile_and_generate(&scop, &input, &TilingOptions::default());
    let problem = ScanProblem::from_tiled(&tiled, &scop).unwrap();
    for depth in 1..problem.dims.len() {
        let limited = generate(&problem, &ScanOptions { depth: Some(depth), ..ScanOptions::default() }).unwrap();
        assert_eq!(limited.root, cut(&full.root, depth), "depth {depth}\n{full}");
    }
}
