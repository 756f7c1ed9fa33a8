//! Tiling and code generation on the thesis' running example (Fig. 3.4, Table 3.1): the
//! balanced hyperplanes of Fig. 4.3, the communication-minimal ones of Fig. 4.1 (which need
//! the intra-tile skew Θ_S, Eq. 3.19), the array-copied two-statement version of Fig. 4.4
//! with the multi-statement tiles of Fig. 4.7, and the errors.

mod codegen_support;
mod common;

use codegen_support::{check, tile_and_generate};
use stencil_poly::codegen::{generate, CodegenError, LoopInfo, ScanOptions, ScanProblem};
use stencil_poly::tiling::{
    tile, DimKind, IntraTile, StatementOrder, TileBand, TilingError, TilingInput, TilingOptions,
};
use stencil_poly::*;

/// `for t in 0..T: for i in 0..N-1: A[i] = 0.5*(A[i] + A[i+1])`.
fn fig_3_4() -> Scop {
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 4").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let space = scop.statement_space(["t", "i"]);
    let domain = Polyhedron::parse(space.clone(), "0 <= t < T, 0 <= i < N - 1").unwrap();
    let s = scop.add_statement(Statement::new("S0", domain, Schedule::from_beta(&[0, 0, 0], &space).unwrap())).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i").unwrap()).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, "i + 1").unwrap()).unwrap();
    scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, "i").unwrap()).unwrap();
    scop
}

/// Thesis Fig. 4.4: `for j in 1..=J { for i in 2..=I: S0: A0[i] = A[i]; for i in 1..=I: S1:
/// A[i] = 0.5*(A[i] + A0[i+1]) }`.
fn fig_4_4() -> Scop {
    let mut scop = Scop::new(["J", "I"]);
    scop.add_context("J >= 1, I >= 2").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let a0 = scop.add_array("A0", 1).unwrap();
    let space = scop.statement_space(["j", "i"]);
    let d0 = Polyhedron::parse(space.clone(), "1 <= j <= J, 2 <= i <= I").unwrap();
    let d1 = Polyhedron::parse(space.clone(), "1 <= j <= J, 1 <= i <= I").unwrap();
    let s0 = scop.add_statement(Statement::new("S0", d0, Schedule::from_beta(&[0, 0, 0], &space).unwrap())).unwrap();
    let s1 = scop.add_statement(Statement::new("S1", d1, Schedule::from_beta(&[0, 1, 0], &space).unwrap())).unwrap();
    scop.add_access(s0, AccessRelation::parse(AccessKind::Read, a, &space, "i").unwrap()).unwrap();
    scop.add_access(s0, AccessRelation::parse(AccessKind::Write, a0, &space, "i").unwrap()).unwrap();
    scop.add_access(s1, AccessRelation::parse(AccessKind::Read, a, &space, "i").unwrap()).unwrap();
    scop.add_access(s1, AccessRelation::parse(AccessKind::Read, a0, &space, "i + 1").unwrap()).unwrap();
    scop.add_access(s1, AccessRelation::parse(AccessKind::Write, a, &space, "i").unwrap()).unwrap();
    scop
}

fn schedule(scop: &Scop, s: usize, rows: &[&str]) -> Schedule {
    let space = scop.statements()[s].space();
    Schedule::new(space, rows.iter().map(|r| AffineForm::parse(space, r).unwrap()).collect()).unwrap()
}

fn ddg(scop: &Scop) -> DependenceGraph {
    DependenceGraph::compute(scop, &DependenceOptions::default()).unwrap()
}

fn structure(loops: &[LoopInfo]) -> Vec<(usize, &str, DimKind, bool)> {
    loops.iter().map(|l| (l.depth, l.name.as_str(), l.kind, l.parallel)).collect()
}

/// DOSEQ tile wavefront, DOALL tiles, DOSEQ intra-tile wavefront, DOALL points.
const TWO_LEVEL: [(usize, &str, DimKind, bool); 4] = [
    (0, "t1", DimKind::TileWavefront, false),
    (1, "t2", DimKind::Tile, true),
    (2, "e1", DimKind::PointWavefront, false),
    (3, "e2", DimKind::Point, true),
];

/// [`TWO_LEVEL`]; with tiles one point wide a point dimension has one value per tile and is
/// no loop (its value is substituted), the other loops keep their kinds and flags.
fn assert_two_level(nest: &stencil_poly::codegen::LoopNest, sizes: &[i64]) {
    let loops = nest.loops();
    let got: Vec<_> = structure(&loops).into_iter().map(|(_, name, kind, par)| (name, kind, par)).collect();
    let expected: Vec<_> = TWO_LEVEL
        .iter()
        .map(|&(_, name, kind, par)| (name, kind, par))
        .filter(|x| !sizes.contains(&1) || got.contains(x))
        .collect();
    assert_eq!(got, expected, "\n{nest}");
    assert!(loops.iter().enumerate().all(|(d, l)| l.depth == d), "\n{nest}");
}

const PARAMS: [[i64; 2]; 5] = [[1, 4], [2, 5], [3, 7], [5, 4], [4, 9]];

#[test]
fn balanced_hyperplanes_give_two_level_wavefronts() {
    // Fig. 4.3: Φ = [[2, 1], [1, 1]] over (t, i); the first hyperplane strictly satisfies
    // every dependence (Thm 4.1), so it is the intra-tile wavefront without a skew.
    let scop = fig_3_4();
    for sizes in [vec![2, 2], vec![4, 4], vec![1, 3], vec![3, 1], vec![5, 2]] {
        let input =
            TilingInput::new(vec![schedule(&scop, 0, &["2*t + i", "t + i"])], vec![TileBand::new(0..2, sizes.clone())]);
        let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
        assert_eq!(tiled.intra_tile, [IntraTile::FirstHyperplane]);
        assert_two_level(&nest, &sizes);
        assert_eq!(nest.root.count_guards(), 0, "a single statement needs no guard\n{nest}");
        for p in PARAMS {
            check(&scop, &tiled, &nest, &p);
        }
    }
}

#[test]
fn balanced_hyperplanes_generated_code() {
    let scop = fig_3_4();
    let input =
        TilingInput::new(vec![schedule(&scop, 0, &["2*t + i", "t + i"])], vec![TileBand::new(0..2, vec![4, 4])]);
    let (_, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
    let text = nest.to_string();
    // The point loops of Fig. 4.2's shape: the tile box intersected with the skewed domain.
    assert!(text.contains("for (e1 = max(4*t1 - 4*t2, 8*t2 - N + 2); e1 <= min(4*t1 - 4*t2 + 3, 2*T + N - 4, 4*t2 + T + 2, 8*t2 + 6); e1++) {  // DOSEQ intra-tile wavefront"), "{text}");
    assert!(text.contains("for (e2 = max(e1 - T + 1, ceild(e1, 2), 4*t2); e2 <= min(e1, floord(e1 + N - 2, 2), 4*t2 + 3); e2++) {  // DOALL point"), "{text}");
    assert!(text.contains("S0(t = e1 - e2, i = -e1 + 2*e2);"), "{text}");
}

#[test]
fn communication_minimal_hyperplanes_need_the_intra_tile_skew() {
    // Fig. 4.1: Φ = [[1, 0], [1, 1]]. The anti dependence (0, 1) has Δφ¹ = 0, so points on one
    // first-hyperplane step depend on each other; Auto picks Θ_S (Eq. 3.19, Fig. 4.2).
    let scop = fig_3_4();
    let rows = ["t", "t + i"];
    for sizes in [vec![2, 2], vec![3, 4], vec![1, 2]] {
        let input = TilingInput::new(vec![schedule(&scop, 0, &rows)], vec![TileBand::new(0..2, sizes.clone())]);
        let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
        assert_eq!(tiled.intra_tile, [IntraTile::Skew]);
        assert_two_level(&nest, &sizes);
        for p in PARAMS {
            check(&scop, &tiled, &nest, &p);
        }
    }
    // Forcing the first hyperplane: legal, but the point loop carries (0, 1) and is DOSEQ.
    let input = TilingInput::new(vec![schedule(&scop, 0, &rows)], vec![TileBand::new(0..2, vec![4, 4])]);
    let options = TilingOptions { intra_tile: IntraTile::FirstHyperplane, ..TilingOptions::default() };
    let (tiled, nest) = tile_and_generate(&scop, &input, &options);
    let flags: Vec<bool> = nest.loops().iter().map(|l| l.parallel).collect();
    assert_eq!(flags, [false, true, false, false], "\n{nest}");
    for p in PARAMS {
        check(&scop, &tiled, &nest, &p);
    }
}

#[test]
fn multi_statement_tiles_run_statement_groups_per_wavefront() {
    // Fig. 4.6/4.7: Φ_S0 = (j, j + i), Φ_S1 = (j, j + i + 1), statement order innermost.
    let scop = fig_4_4();
    for sizes in [vec![2, 2], vec![4, 3], vec![2, 1], vec![3, 1]] {
        let input = TilingInput::new(
            vec![schedule(&scop, 0, &["j", "j + i", "0"]), schedule(&scop, 1, &["j", "j + i + 1", "1"])],
            vec![TileBand::new(0..2, sizes.clone())],
        );
        let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
        assert_eq!(tiled.intra_tile, [IntraTile::FirstHyperplane]);
        assert_eq!(tiled.statement_order, [StatementOrder::PerWavefront]);
        let loops = nest.loops();
        if sizes.contains(&1) {
            // Tiles one point wide: some point dimensions have one value per tile, no loop.
            for p in PARAMS {
                check(&scop, &tiled, &nest, &p);
            }
            continue;
        }
        assert_eq!(
            structure(&loops),
            [
                (0, "t1", DimKind::TileWavefront, false),
                (1, "t2", DimKind::Tile, true),
                (2, "e1", DimKind::PointWavefront, false),
                (3, "e2", DimKind::Point, true),
                (3, "e2", DimKind::Point, true),
            ],
            "\n{nest}"
        );
        let text = nest.to_string();
        assert!(text.find("S0(").unwrap() < text.find("S1(").unwrap(), "{text}");
        for p in PARAMS {
            check(&scop, &tiled, &nest, &p);
        }
    }
}

#[test]
fn untiled_schedules_are_scanned_too() {
    // The original schedule (β rows included): both loops carry dependences.
    let scop = fig_3_4();
    let input = TilingInput::new(vec![scop.statements()[0].schedule().clone()], Vec::new());
    let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
    let loops = nest.loops();
    assert_eq!(loops.len(), 2);
    assert!(loops.iter().all(|l| !l.parallel && l.kind == DimKind::Loop), "\n{nest}");
    assert!(nest.to_string().contains("for (c2 = 0; c2 <= N - 2; c2++)"), "\n{nest}");
    for p in PARAMS {
        check(&scop, &tiled, &nest, &p);
    }
}

#[test]
fn rectangular_tiles_of_the_identity_are_illegal() {
    // Thesis Fig. 3.13: tiling (t, i) directly breaks the dependence (1, -1).
    let scop = fig_3_4();
    let input = TilingInput::new(vec![schedule(&scop, 0, &["t", "i"])], vec![TileBand::new(0..2, vec![2, 2])]);
    let err = tile(&scop, &input, &ddg(&scop), &TilingOptions::default()).unwrap_err();
    assert!(matches!(err, TilingError::Illegal { .. }), "{err}");
    assert!(err.to_string().contains("permutable"), "{err}");
}

#[test]
fn invalid_tiling_inputs_are_reported() {
    let scop = fig_3_4();
    let g = ddg(&scop);
    let rows = schedule(&scop, 0, &["2*t + i", "t + i"]);
    let bad = |bands: Vec<TileBand>| {
        let input = TilingInput::new(vec![rows.clone()], bands);
        tile(&scop, &input, &g, &TilingOptions::default()).unwrap_err()
    };
    for (bands, text) in [
        (vec![TileBand::new(0..2, vec![4])], "one size per row"),
        (vec![TileBand::new(0..2, vec![4, 0])], "at least 1"),
        (vec![TileBand::new(0..3, vec![4, 4, 4])], "outside"),
        (vec![TileBand::new(0..2, vec![4, 4]), TileBand::new(1..2, vec![4])], "overlaps"),
    ] {
        let err = bad(bands);
        assert!(matches!(err, TilingError::InvalidInput(_)) && err.to_string().contains(text), "{err}");
    }
    let input = TilingInput::new(Vec::new(), Vec::new());
    assert!(matches!(tile(&scop, &input, &g, &TilingOptions::default()), Err(TilingError::InvalidInput(_))));
}

#[test]
fn non_unimodular_schedules_are_rejected_by_the_scanner() {
    let scop = fig_3_4();
    let input = TilingInput::new(vec![schedule(&scop, 0, &["2*t", "i"])], Vec::new());
    let tiled = tile(&scop, &input, &ddg(&scop), &TilingOptions::default()).unwrap();
    let err = generate(&ScanProblem::from_tiled(&tiled, &scop).unwrap(), &ScanOptions::default()).unwrap_err();
    assert!(matches!(err, CodegenError::NonUnimodular { divisor: 2, .. }), "{err}");
    let input = TilingInput::new(vec![schedule(&scop, 0, &["t + i", "0"])], Vec::new());
    let err = tile(&scop, &input, &ddg(&scop), &TilingOptions::default()).unwrap_err();
    assert!(matches!(err, TilingError::Illegal { dim: None, .. }), "equal time stamps: {err}");
}
