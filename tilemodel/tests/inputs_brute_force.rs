//! The model inputs against brute force (issue 15, "Must show"): on small problem sizes, every
//! count of `stencil-tilemodel` is compared with enumerated tiles and points of the tiled
//! schedule `stencil-poly` produces.
//!
//! * inter-tile: the tiles of each inter-tile wavefront are the tile coordinates whose tiled
//!   domain (statement domain ∩ tile box) is rationally non-empty, tested one by one with the
//!   exact LP; full tiles are those where enumeration finds `s_1 ⋯ s_m` instances of every
//!   statement; every tile with an enumerated instance is among the counted ones;
//! * intra-tile: a full tile's instances grouped by their intra-tile wavefront coordinate of
//!   the tiled schedule (`H_e`), and distributed over the threads of a block as the mapping's
//!   loops do, read off the enumerated points (`G_e`);
//! * memory: the distinct elements a full tile reads and writes (`N_mem`), and the staged
//!   buffer extents against `stencil_poly::codegen::tile_footprints`.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use stencil_poly::codegen::{tile_footprints, ScanProblem};
use stencil_poly::tiling::{DimKind, TiledSchedule};
use stencil_poly::{AffineForm, Limits, Polyhedron, Scop, StatementId};
use stencil_tilemodel::footprint::{staged_memory, staged_shared_bytes, SharedBytesPlan};
use stencil_tilemodel::intra::{wavefront_points, wavefront_warps, WARP};
use stencil_tilemodel::{count_tiles, BandShape, Block, TileGeometry, TileModelError};

/// Per tile coordinate vector, the instances of each statement in it.
type Census = BTreeMap<Vec<i64>, Vec<u64>>;

/// An instance: its statement, iterators and band coordinates.
type Instance = (usize, Vec<i64>, Vec<i64>);

/// The schedule rows of the tiled band (those its inter-tile wavefront sums).
fn band_rows(tiled: &TiledSchedule) -> Vec<usize> {
    tiled
        .dims
        .iter()
        .find_map(|d| match &d.def {
            stencil_poly::tiling::DimDef::TileSum { rows, .. } => Some(rows.clone()),
            _ => None,
        })
        .unwrap()
}

/// Band coordinates `φ(i)` of an instance (the band's rows of its schedule).
fn band_point(tiled: &TiledSchedule, s: usize, point: &[i64]) -> Vec<i64> {
    let rows = band_rows(tiled);
    rows.iter().map(|&r| tiled.schedules[s].rows()[r].eval(point).unwrap()).collect()
}

/// Every instance of every statement at `params`, with its band coordinates.
fn instances(scop: &Scop, tiled: &TiledSchedule, params: &[i64]) -> Vec<Instance> {
    let mut out = Vec::new();
    for (s, stmt) in scop.statements().iter().enumerate() {
        for i in stmt.domain().enumerate(params, &Limits::default()).unwrap() {
            let mut point = i.clone();
            point.extend_from_slice(params);
            let y = band_point(tiled, s, &point);
            out.push((s, i, y));
        }
    }
    out
}

fn census(scop: &Scop, tiled: &TiledSchedule, params: &[i64], sizes: &[i64]) -> Census {
    let mut c: Census = BTreeMap::new();
    for (s, _, y) in instances(scop, tiled, params) {
        let t: Vec<i64> = y.iter().zip(sizes).map(|(v, s)| v.div_euclid(*s)).collect();
        c.entry(t).or_insert_with(|| vec![0; scop.statements().len()])[s] += 1;
    }
    c
}

/// Whether tile `t` meets statement `s`'s image over the rationals: its domain at `params`
/// with `s∘t ≤ φ(i) ≤ s∘t + s − 1`.
fn meets(scop: &Scop, tiled: &TiledSchedule, s: usize, params: &[i64], sizes: &[i64], t: &[i64]) -> bool {
    let stmt = &scop.statements()[s];
    let n = stmt.n_iterators();
    let mut p: Polyhedron = stmt.domain().fix_params(params).unwrap();
    let rows = band_rows(tiled);
    for (k, &r) in rows.iter().enumerate() {
        let row = &tiled.schedules[s].rows()[r];
        let mut point = vec![0i64; n];
        point.extend_from_slice(params);
        let c = row.eval(&point).unwrap();
        let phi = AffineForm::new(row.coeffs()[..n].to_vec(), c);
        let lo = sizes[k] * t[k];
        p.add_inequality(&phi.checked_add_constant(-lo).unwrap()).unwrap();
        p.add_inequality(&phi.checked_neg().unwrap().checked_add_constant(lo + sizes[k] - 1).unwrap()).unwrap();
    }
    !p.is_rationally_empty(&Limits::default()).unwrap()
}

fn check_inter(scop: &Scop, params: &[i64], sizes: &[i64], balanced: bool) {
    let (shape, tiled) = common::shape(scop, params, balanced);
    let geometry = TileGeometry::new(&shape);
    let counts = count_tiles(&shape, &geometry, sizes).unwrap();
    let census = census(scop, &tiled, params, sizes);
    let full_points: u64 = sizes.iter().map(|&s| s as u64).product();
    // Rationally non-empty tiles, by brute force over the bounding box of tile coordinates.
    let ranges = shape.row_ranges();
    let mut tiles: BTreeMap<i64, u64> = BTreeMap::new();
    let mut full: BTreeMap<i64, u64> = BTreeMap::new();
    let mut t = vec![0i64; sizes.len()];
    let lo: Vec<i64> = ranges.iter().zip(sizes).map(|(r, s)| r.0.div_euclid(*s)).collect();
    let hi: Vec<i64> = ranges.iter().zip(sizes).map(|(r, s)| r.1.div_euclid(*s)).collect();
    t.copy_from_slice(&lo);
    loop {
        let w: i64 = t.iter().sum();
        if (0..scop.statements().len()).any(|s| meets(scop, &tiled, s, params, sizes, &t)) {
            *tiles.entry(w).or_default() += 1;
        } else {
            assert!(!census.contains_key(&t), "tile {t:?} has instances but meets no statement");
        }
        if census.get(&t).is_some_and(|c| c.iter().all(|&n| n == full_points)) {
            *full.entry(w).or_default() += 1;
        }
        // Next tile coordinate vector.
        let mut k = t.len();
        loop {
            if k == 0 {
                break;
            }
            k -= 1;
            if t[k] < hi[k] {
                t[k] += 1;
                break;
            }
            t[k] = lo[k];
        }
        if k == 0 && t == lo {
            break;
        }
    }
    // Every wavefront written out (a repeated stretch as often as it repeats).
    let (ours_tiles, ours_full) = counts.per_wavefront().written_out(u64::MAX).expect("counts written out");
    let ours: BTreeMap<i64, u64> = ours_tiles
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(k, &n)| (counts.first_wavefront + k as i64, n))
        .collect();
    let ours_full: BTreeMap<i64, u64> = ours_full
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(k, &n)| (counts.first_wavefront + k as i64, n))
        .collect();
    assert_eq!(ours, tiles, "tiles per wavefront, sizes {sizes:?} params {params:?}");
    assert_eq!(ours_full, full, "full tiles per wavefront, sizes {sizes:?} params {params:?}");
}

/// A full tile of the census, if any, with its instances.
fn full_tile(scop: &Scop, tiled: &TiledSchedule, params: &[i64], sizes: &[i64]) -> Option<Vec<Instance>> {
    let census = census(scop, tiled, params, sizes);
    let full_points: u64 = sizes.iter().map(|&s| s as u64).product();
    let (t, _) = census.iter().find(|(_, c)| c.iter().all(|&n| n == full_points))?;
    Some(
        instances(scop, tiled, params)
            .into_iter()
            .filter(|(_, _, y)| y.iter().zip(sizes).map(|(v, s)| v.div_euclid(*s)).collect::<Vec<_>>() == *t)
            .collect(),
    )
}

/// The tiled schedule's dimension values of an instance.
fn stamp(tiled: &TiledSchedule, s: usize, i: &[i64], params: &[i64]) -> Vec<i64> {
    let mut point = i.to_vec();
    point.extend_from_slice(params);
    tiled.time_stamp(StatementId(s), &point).unwrap()
}

fn check_intra(scop: &Scop, params: &[i64], sizes: &[i64], balanced: bool, block: Block) -> bool {
    let (shape, _) = common::shape(scop, params, balanced);
    let tiled = common::tiled(scop, sizes, balanced);
    let Some(tile) = full_tile(scop, &tiled, params, sizes) else { return false };
    let wf = tiled.dims.iter().position(|d| d.kind == DimKind::PointWavefront).unwrap();
    let points: Vec<usize> =
        tiled.dims.iter().enumerate().filter(|(_, d)| d.kind == DimKind::Point).map(|(k, _)| k).collect();
    // Points (not instances): distinct point-dimension values per wavefront step.
    let mut steps: BTreeMap<i64, BTreeSet<Vec<i64>>> = BTreeMap::new();
    for (s, i, _) in &tile {
        let v = stamp(&tiled, *s, i, params);
        steps.entry(v[wf]).or_default().insert(points.iter().map(|&k| v[k]).collect());
    }
    let h: Vec<u64> = steps.values().map(|p| p.len() as u64).collect();
    assert_eq!(wavefront_points(&shape, sizes), h, "H_e, sizes {sizes:?}");
    // G_e: the mapping's thread for each point, from the loops' lower bounds.
    let loops = points.len();
    let (bx, by, bz) = (i64::from(block.x), i64::from(block.y), i64::from(block.z));
    let mut g = Vec::new();
    for pts in steps.values() {
        let mut per_thread: BTreeMap<i64, u64> = BTreeMap::new();
        for p in pts {
            // The lower bound of loop q given the outer loops' values: the smallest value of
            // the points sharing them.
            let lower = |q: usize| pts.iter().filter(|o| o[..q] == p[..q]).map(|o| o[q]).min().unwrap();
            let offsets: Vec<i64> = (0..loops).map(|q| p[q] - lower(q)).collect();
            let linear = match loops {
                1 => offsets[0] % (bx * by * bz),
                2 => offsets[1] % bx + bx * (offsets[0] % (by * bz)),
                _ => offsets[2] % bx + bx * (offsets[1] % by + by * (offsets[0] % bz)),
            };
            *per_thread.entry(linear).or_default() += 1;
        }
        let mut warps: BTreeMap<i64, u64> = BTreeMap::new();
        for (thread, n) in per_thread {
            let w = warps.entry(thread / i64::from(WARP)).or_default();
            *w = (*w).max(n);
        }
        g.push(warps.values().sum::<u64>());
    }
    assert_eq!(wavefront_warps(&shape, sizes, block).unwrap(), g, "G_e, sizes {sizes:?}, block {block}");
    true
}

fn check_memory(scop: &Scop, params: &[i64], sizes: &[i64], balanced: bool) -> bool {
    let (shape, _) = common::shape(scop, params, balanced);
    let tiled = common::tiled(scop, sizes, balanced);
    let Some(tile) = full_tile(scop, &tiled, params, sizes) else { return false };
    let mut read: BTreeSet<(usize, Vec<i64>)> = BTreeSet::new();
    let mut written: BTreeSet<(usize, Vec<i64>)> = BTreeSet::new();
    for (s, i, _) in &tile {
        let mut point = i.clone();
        point.extend_from_slice(params);
        for a in scop.statements()[*s].accesses() {
            let e = (a.array().0, a.element(&point).unwrap());
            if a.is_write() {
                written.insert(e);
            } else {
                read.insert(e);
            }
        }
    }
    let memory = staged_memory(&shape, sizes).unwrap();
    assert_eq!((memory.loads, memory.stores), (read.len() as u64, written.len() as u64), "N_mem, sizes {sizes:?}");
    // The staged buffers' extents, as gpu-map allocates them.
    let problem = ScanProblem::from_tiled(&tiled, scop).unwrap();
    let first_point = tiled.dims.iter().position(|d| matches!(d.kind, DimKind::PointWavefront)).unwrap();
    let outer: Vec<bool> = (0..tiled.dims.len()).map(|k| k < first_point).collect();
    let statements: Vec<StatementId> = (0..scop.statements().len()).map(StatementId).collect();
    let footprints = tile_footprints(&problem, scop, &statements, &outer, &Limits::default()).unwrap();
    // Each buffer counted rounded up to 16 bytes, the alignment gpu-map lays them out at.
    let padded = |bytes: u64| bytes.div_ceil(16) * 16;
    let buffers: u64 = footprints.iter().map(|f| padded(f.extent.iter().map(|&e| e as u64).product::<u64>() * 8)).sum();
    // And one byte mask per footprint base, over the box grown by the base's offsets.
    let masks: u64 = footprints
        .iter()
        .flat_map(|f| {
            f.bases.iter().map(move |b| {
                let offsets: Vec<&Vec<i64>> = b.reads.iter().chain(&b.writes).collect();
                padded(
                    (0..f.extent.len())
                        .map(|d| {
                            let lo = offsets.iter().map(|o| o[d]).min().unwrap_or(0);
                            let hi = offsets.iter().map(|o| o[d]).max().unwrap_or(0);
                            (f.extent[d] + hi - lo) as u64
                        })
                        .product::<u64>(),
                )
            })
        })
        .sum();
    // And the tile set-up's words: whether the tile exists, whether it is full, a coordinate
    // per tile loop on a grid axis (gpu-map's first-warp set-up).
    let set_up = padded(8 * (2 + (shape.width as u64 - 1).min(3)));
    let bytes = buffers + masks + set_up;
    assert_eq!(staged_shared_bytes(&shape, sizes).unwrap(), bytes, "shared bytes, sizes {sizes:?}");
    assert_eq!(SharedBytesPlan::new(&shape).bytes(&shape, sizes).unwrap(), bytes, "planned shared bytes, {sizes:?}");
    true
}

#[test]
fn full_tiles_of_every_program_are_checked() {
    // The property tests skip sizes without a full tile; these have one, with blocks wider
    // and narrower than the wavefronts.
    for block in [Block::new(32, 1, 1), Block::new(8, 4, 1), Block::new(4, 2, 2), Block::new(64, 2, 1)] {
        assert!(check_intra(&common::sor(1), &[8, 20], &[3, 5], true, block));
        assert!(check_intra(&common::sor(1), &[8, 20], &[3, 5], false, block));
        assert!(check_intra(&common::sor(2), &[5, 14, 13], &[2, 3, 4], true, block));
        assert!(check_intra(&common::sor(2), &[5, 14, 13], &[3, 2, 2], false, block));
        assert!(check_intra(&common::jacobi(2), &[4, 12, 12], &[2, 3, 3], true, block));
        assert!(check_intra(&common::sor(3), &[8, 12, 12, 12], &[2, 2, 2, 2], true, block));
    }
    assert!(check_memory(&common::sor(2), &[5, 14, 13], &[2, 3, 4], true));
    assert!(check_memory(&common::jacobi(2), &[4, 12, 12], &[2, 3, 3], false));
    assert!(check_memory(&common::sor(3), &[8, 12, 12, 12], &[2, 2, 2, 2], true));
}

#[test]
fn sor_1d_tiles_by_hand() {
    // sor-1d at T = 4, N = 12 with tiles 3 x 2: checked against brute force like the others,
    // and its totals pinned.
    let scop = common::sor(1);
    check_inter(&scop, &[4, 12], &[3, 2], true);
    let (shape, _) = common::shape(&scop, &[4, 12], true);
    let counts = count_tiles(&shape, &TileGeometry::new(&shape), &[3, 2]).unwrap();
    assert_eq!(counts.total_tiles(), counts.tiles.iter().sum::<u64>());
    assert!(counts.total_full() > 0 && counts.wavefronts() > 3);
}

fn small_sizes(width: usize) -> impl Strategy<Value = Vec<i64>> {
    proptest::collection::vec(1i64..=4, width)
}

fn blocks() -> impl Strategy<Value = Block> {
    prop_oneof![
        (1u32..=3).prop_map(|k| Block::new(8 * k, 1, 1)),
        Just(Block::new(32, 1, 1)),
        Just(Block::new(4, 2, 1)),
        Just(Block::new(8, 4, 1)),
        Just(Block::new(32, 2, 1)),
        Just(Block::new(2, 2, 2)),
        Just(Block::new(8, 4, 2)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn sor_1d_and_2d_inter_tile_counts(sizes in small_sizes(3), t in 1i64..=4, n in 3i64..=9, m in 3i64..=8, balanced: bool) {
        check_inter(&common::sor(1), &[t, n], &sizes[..2], balanced);
        check_inter(&common::sor(2), &[t, n, m], &sizes, balanced);
    }

    #[test]
    fn jacobi_inter_tile_counts(sizes in small_sizes(3), t in 1i64..=3, n in 3i64..=8, m in 3i64..=7, balanced: bool) {
        check_inter(&common::jacobi(1), &[t, n], &sizes[..2], balanced);
        check_inter(&common::jacobi(2), &[t, n, m], &sizes, balanced);
    }

    #[test]
    fn sor_3d_inter_tile_counts(sizes in small_sizes(4), t in 1i64..=2, n in 3i64..=5) {
        check_inter(&common::sor(3), &[t, n, n + 1, n], &sizes, true);
    }

    #[test]
    fn intra_tile_points_and_warps(sizes in proptest::collection::vec(1i64..=5, 4), block in blocks(), balanced: bool) {
        check_intra(&common::sor(1), &[6, 14], &sizes[..2], balanced, block);
        check_intra(&common::sor(2), &[5, 12, 11], &sizes[..3], balanced, block);
        check_intra(&common::jacobi(2), &[4, 11, 10], &sizes[..3], balanced, block);
        check_intra(&common::sor(3), &[8, 12, 12, 12], &sizes, true, block);
    }

    #[test]
    fn staged_loads_stores_and_buffers(sizes in proptest::collection::vec(1i64..=4, 4), balanced: bool) {
        check_memory(&common::sor(1), &[6, 14], &sizes[..2], balanced);
        check_memory(&common::sor(2), &[5, 12, 11], &sizes[..3], balanced);
        check_memory(&common::jacobi(2), &[4, 11, 10], &sizes[..3], balanced);
        check_memory(&common::jacobi(1), &[5, 14], &sizes[..2], balanced);
    }
}

#[test]
fn shapes_refuse_what_the_models_do_not_cover() {
    // A non-box domain: a triangular iteration space.
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 3").unwrap();
    let a = scop.add_array("A", 1).unwrap();
    let space = scop.statement_space(["t", "i"]);
    let dom = Polyhedron::parse(space.clone(), "0 <= t < T, t <= i < N").unwrap();
    let s = scop
        .add_statement(stencil_poly::Statement::new(
            "S",
            dom,
            stencil_poly::Schedule::from_beta(&[0, 0, 0], &space).unwrap(),
        ))
        .unwrap();
    for (kind, idx) in [(stencil_poly::AccessKind::Read, "i - 1"), (stencil_poly::AccessKind::Write, "i")] {
        scop.add_access(s, stencil_poly::AccessRelation::parse(kind, a, &space, idx).unwrap()).unwrap();
    }
    let t = common::tiled(&scop, &[2, 2], true);
    let e = BandShape::new(&scop, &t, &[4, 8], &Default::default()).unwrap_err().to_string();
    assert!(e.contains("not a box"), "{e}");

    // A band row with a huge coefficient (legal: the copy has no dependence; unimodular): the
    // counts' minors would leave 64 bits, so the shape is refused, not miscounted.
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 3").unwrap();
    let (a, b) = (scop.add_array("A", 1).unwrap(), scop.add_array("B", 1).unwrap());
    let space = scop.statement_space(["t", "i"]);
    let s = scop
        .add_statement(stencil_poly::Statement::new(
            "S",
            Polyhedron::parse(space.clone(), "0 <= t < T, 0 <= i < N").unwrap(),
            stencil_poly::Schedule::from_beta(&[0, 0, 0], &space).unwrap(),
        ))
        .unwrap();
    scop.add_access(s, stencil_poly::AccessRelation::parse(stencil_poly::AccessKind::Read, a, &space, "i").unwrap())
        .unwrap();
    scop.add_access(s, stencil_poly::AccessRelation::parse(stencil_poly::AccessKind::Write, b, &space, "i").unwrap())
        .unwrap();
    let rows = ["t", "4194304*t + i"].iter().map(|r| AffineForm::parse(&space, r).unwrap()).collect();
    let input = stencil_poly::tiling::TilingInput::new(
        vec![stencil_poly::Schedule::new(&space, rows).unwrap()],
        vec![stencil_poly::tiling::TileBand::new(0..2, vec![2, 2])],
    );
    let graph = stencil_poly::DependenceGraph::compute(&scop, &Default::default()).unwrap();
    let t = stencil_poly::tiling::tile(&scop, &input, &graph, &Default::default()).unwrap();
    let e = BandShape::new(&scop, &t, &[4, 8], &Default::default()).unwrap_err().to_string();
    assert!(e.contains("coefficient above 1024"), "{e}");
}

/// The search's [`SharedBytesPlan`] (prepared once per band) gives `staged_shared_bytes`' bytes
/// on the examples' bands, and its overflow errors at sizes too large for 64 bits.
#[test]
fn planned_shared_bytes_agree() {
    let huge = i64::MAX / 3;
    for (scop, params) in [
        (common::sor(1), vec![9, 40]),
        (common::sor(2), vec![9, 40, 33]),
        (common::jacobi(2), vec![9, 40, 33]),
        (common::sor(3), vec![9, 40, 33, 20]),
        (common::jacobi(3), vec![9, 40, 33, 20]),
    ] {
        for balanced in [true, false] {
            let (shape, _) = common::shape(&scop, &params, balanced);
            let plan = SharedBytesPlan::new(&shape);
            let m = shape.width;
            let mut checked = 0;
            for code in 0..4usize.pow(m as u32) {
                let sizes: Vec<i64> = (0..m).map(|k| [1, 3, 16, huge][(code / 4usize.pow(k as u32)) % 4]).collect();
                match (plan.bytes(&shape, &sizes), staged_shared_bytes(&shape, &sizes)) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a, b, "sizes {sizes:?}");
                        checked += 1;
                    }
                    (Err(TileModelError::Overflow(a)), Err(TileModelError::Overflow(b))) => assert_eq!(a, b),
                    (a, b) => panic!("sizes {sizes:?}: {a:?} vs {b:?}"),
                }
            }
            assert!(checked >= 3usize.pow(m as u32), "{checked}");
        }
    }
}

/// Tile sizes below 1 or of the wrong count are refused before any footprint or count uses
/// them (a zero size divided, a negative one indexed past a buffer: both panicked).
#[test]
fn sizes_below_one_are_refused_not_used() {
    let scop = common::sor(2);
    let (shape, _) = common::shape(&scop, &[4, 16, 16], true);
    let geometry = TileGeometry::new(&shape);
    for sizes in [vec![8, 0, 16], vec![0, 16, 16], vec![8, 16, 0], vec![-8, 16, 16], vec![8, 16]] {
        for staged in [true, false] {
            let e =
                stencil_tilemodel::TileInputs::new(&shape, &geometry, &sizes, staged).expect_err("refused").to_string();
            assert!(e.contains("are not 3 tile sizes >= 1"), "{sizes:?}: {e}");
        }
        assert!(staged_memory(&shape, &sizes).is_err(), "{sizes:?}");
        assert!(staged_shared_bytes(&shape, &sizes).is_err(), "{sizes:?}");
    }
}
