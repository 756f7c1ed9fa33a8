//! The inter-tile counter (`count_tiles`: the last two tile coordinates swept along the facet
//! envelopes) against the plain enumeration of every tile row (`count_tiles_by_rows`, itself
//! checked against brute force in `inputs_brute_force.rs`), on the examples' bands at problem
//! sizes too large for brute force, and on random unimodular bands with several statements
//! (shifted, empty or disjoint boxes), random sizes and widths 2 to 5; and the counts by period
//! of long runs (`count_tiles_by_period`) against the same, on random bands of one to three
//! statements sharing a map with one long iterator, and on SOR and Jacobi runs.

mod common;

use proptest::prelude::*;
use stencil_tilemodel::inter::{
    count_tiles_by_period, count_tiles_unless, layered_tiles, lower_bounds, row_symmetries,
};
use stencil_tilemodel::shape::StatementShape;
use stencil_tilemodel::{
    count_tiles, count_tiles_by_rows, BandShape, InterTileCounts, IntraWavefront, TileGeometry, TileModelError,
};

fn agree(shape: &BandShape, sizes: &[i64]) {
    let geometry = TileGeometry::new(shape);
    let fast = count_tiles(shape, &geometry, sizes);
    let rows = count_tiles_by_rows(shape, &geometry, sizes);
    match (fast, rows) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "sizes {sizes:?}, shape {:?}", shape.statements);
            // The search's counts that may stop (tiles first, full tiles after, the outermost
            // values from the middle out) agree when they do not.
            let unless = count_tiles_unless(shape, &geometry, sizes, &mut |_| false).unwrap();
            assert_eq!(unless.as_ref(), Some(&a), "sizes {sizes:?}, shape {:?}", shape.statements);
            bounded(shape, &geometry, sizes, &a);
        }
        (Err(TileModelError::Overflow(_)), _) | (_, Err(TileModelError::Overflow(_))) => {}
        (a, b) => panic!("sizes {sizes:?}: {a:?} vs {b:?}"),
    }
}

/// The search's lower bounds of the wavefronts and tiles (`TileGeometry::lower_bounds`, which
/// its branch and bound prunes with before counting) are at most the counts: were one above,
/// a model's lower bound could exceed its prediction and the search lose a better layout. The
/// tile bound is never below the plain `instances / (s_1 ⋯ s_m)` of `inter::lower_bounds`. The
/// same for the full tiles (`TileGeometry::full_tiles_lower_bound`).
fn bounded(shape: &BandShape, geometry: &TileGeometry, sizes: &[i64], counts: &InterTileCounts) {
    let full = geometry.full_tiles_lower_bound(shape, sizes);
    assert!(
        full <= counts.total_full() as f64,
        "sizes {sizes:?}: full-tile bound {full} > {} full tiles, shape {:?}",
        counts.total_full(),
        shape.statements
    );
    let (wavefronts, tiles) = geometry.lower_bounds(shape, sizes);
    layers_complete(shape, geometry, sizes);
    let (plain_wavefronts, plain_tiles) = lower_bounds(shape, sizes);
    assert_eq!(wavefronts, plain_wavefronts);
    assert!(tiles >= plain_tiles, "sizes {sizes:?}: {tiles} < {plain_tiles}");
    if counts.total_tiles() > 0 {
        assert!(wavefronts <= counts.wavefronts() as f64, "sizes {sizes:?}: {wavefronts} wavefronts > {counts:?}");
        assert!(
            tiles <= counts.total_tiles() as f64,
            "sizes {sizes:?}: bound {tiles} > {} tiles, shape {:?}",
            counts.total_tiles(),
            shape.statements
        );
    }
}

/// The layered bounds are the cheaper ones completed by `TileGeometry::layer_bounds`, to the
/// bit (the search's second pass takes them so, from the first pass's cheaper bounds).
fn layers_complete(shape: &BandShape, geometry: &TileGeometry, sizes: &[i64]) {
    let (wavefronts, tiles) = geometry.lower_bounds(shape, sizes);
    let (cheap_wavefronts, cheap_tiles) = geometry.instance_lower_bounds(shape, sizes);
    let (layered, full_by_layers) = geometry.layer_bounds(shape, sizes);
    assert_eq!(wavefronts.to_bits(), cheap_wavefronts.to_bits(), "sizes {sizes:?}");
    assert_eq!(
        tiles.to_bits(),
        cheap_tiles.max(layered).to_bits(),
        "sizes {sizes:?}: {tiles} vs {cheap_tiles}, {layered}"
    );
    let full = geometry.full_tiles_lower_bound(shape, sizes);
    let by_volume = geometry.full_tiles_volume_bound(shape, sizes);
    assert_eq!(full.to_bits(), by_volume.max(full_by_layers).to_bits(), "sizes {sizes:?}: {full} vs {by_volume}");
}

/// `layers_complete` at the search's GPU sizes, on every size of a grid too large to count
/// (the layers matter there: skewed 3-D tiles far from full, 2-D tiles mostly full).
#[test]
fn layer_bounds_complete_the_cheaper_bounds_at_gpu_sizes() {
    let grid = [1i64, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768];
    let mut layered_mattered = 0;
    for (scop, params) in [
        (common::sor(3), vec![16, 256, 256, 256]),
        (common::jacobi(3), vec![20, 512, 512, 512]),
        (common::sor(2), vec![50, 16384, 16384]),
        (common::jacobi(2), vec![64, 2048, 2048]),
    ] {
        let (shape, _) = common::shape(&scop, &params, true);
        let geometry = TileGeometry::new(&shape);
        let mut x = 777u64;
        for _ in 0..400 {
            let sizes = common::random_sizes(&mut x, &grid, shape.width);
            layers_complete(&shape, &geometry, &sizes);
            let (layered, full_by_layers) = geometry.layer_bounds(&shape, &sizes);
            if layered > geometry.instance_lower_bounds(&shape, &sizes).1
                || full_by_layers > geometry.full_tiles_volume_bound(&shape, &sizes)
            {
                layered_mattered += 1;
            }
        }
    }
    // Not a vacuous identity: the layers raise the bounds on some of these sizes.
    assert!(layered_mattered > 0);
}

/// A random unimodular `m × m` matrix with its inverse: elementary row operations
/// `row_i += c·row_j` (inverse: `column_j −= c·column_i`) and row swaps.
fn unimodular(m: usize, ops: &[(usize, usize, i64)]) -> (Vec<Vec<i64>>, Vec<Vec<i64>>) {
    let mut a: Vec<Vec<i64>> = (0..m).map(|i| (0..m).map(|j| i64::from(i == j)).collect()).collect();
    let mut inv = a.clone();
    for &(i, j, c) in ops {
        let (i, j) = (i % m, j % m);
        if i == j {
            // Swap rows i and i+1 (inverse: swap those columns).
            let k = (i + 1) % m;
            a.swap(i, k);
            for row in inv.iter_mut() {
                row.swap(i, k);
            }
            continue;
        }
        let source = a[j].clone();
        for (x, y) in a[i].iter_mut().zip(&source) {
            *x += c * y;
        }
        for row in inv.iter_mut() {
            row[j] -= c * row[i];
        }
    }
    (a, inv)
}

fn statement(
    map: &[Vec<i64>],
    inverse: &[Vec<i64>],
    shift: Vec<i64>,
    lower: Vec<i64>,
    upper: Vec<i64>,
) -> StatementShape {
    StatementShape {
        name: "S".into(),
        map: map.to_vec(),
        shift,
        inverse: inverse.to_vec(),
        lower,
        upper,
        accesses: Vec::new(),
        operations: 1,
    }
}

fn band(statements: Vec<StatementShape>) -> BandShape {
    BandShape {
        width: statements[0].map.len(),
        intra: IntraWavefront::FirstHyperplane,
        phases: vec![(0..statements.len()).collect()],
        statements,
        arrays: Vec::new(),
        params: Vec::new(),
    }
}

/// One random statement of width `m`: its own map or the first's, a shift, a box (possibly
/// empty).
/// Elementary operations of the map, shift, lower corner and extent of the box.
type RandomStatement = (Vec<(usize, usize, i64)>, Vec<i64>, Vec<i64>, Vec<i64>);

fn statement_strategy(m: usize) -> impl Strategy<Value = RandomStatement> {
    (
        proptest::collection::vec((0usize..5, 0usize..5, -2i64..=2), 0..6),
        proptest::collection::vec(-6i64..=6, m),
        proptest::collection::vec(-3i64..=3, m),
        proptest::collection::vec(-1i64..=9, m),
    )
}

#[test]
fn example_bands_at_larger_sizes() {
    for balanced in [true, false] {
        for (scop, params, sizes) in [
            (common::sor(1), vec![40, 300], vec![7, 5]),
            (common::sor(2), vec![12, 60, 50], vec![3, 5, 4]),
            (common::sor(2), vec![12, 60, 50], vec![1, 1, 1]),
            (common::jacobi(2), vec![10, 50, 40], vec![2, 6, 3]),
            (common::sor(3), vec![5, 20, 18, 16], vec![2, 3, 4, 3]),
            (common::jacobi(3), vec![5, 16, 14, 12], vec![1, 3, 2, 5]),
        ] {
            if !balanced && params.len() > 3 {
                continue;
            }
            let (shape, _) = common::shape(&scop, &params, balanced);
            agree(&shape, &sizes);
        }
    }
}

#[test]
fn huge_sizes_give_counts_or_an_overflow_error() {
    let (shape, _) = common::shape(&common::sor(2), &[8, 20, 20], true);
    for s in [i64::MAX / 4, i64::MAX / 2, i64::MAX, 1 << 40] {
        agree(&shape, &[s, 1, s]);
        agree(&shape, &[s, s, s]);
    }
}

/// `count_tiles`, `count_tiles_by_rows` and `count_tiles_unless` (with a `stop` that never
/// says yes) of `shape` at `sizes`, as results of counts.
fn every_count(shape: &BandShape, sizes: &[i64]) -> Vec<Result<InterTileCounts, TileModelError>> {
    let geometry = TileGeometry::new(shape);
    vec![
        count_tiles(shape, &geometry, sizes),
        count_tiles_by_rows(shape, &geometry, sizes),
        count_tiles_unless(shape, &geometry, sizes, &mut |_| false).map(|c| c.expect("a count that cannot stop")),
    ]
}

/// Problem sizes with more inter-tile wavefronts than a direct count holds: the direct count
/// (`count_tiles_by_rows`) gives an error naming the sizes and what to do, before anything is
/// allocated (1-D SOR at T = 2^32 asked for a 64 GiB histogram and aborted the process, 2-D at
/// N = 2^62 panicked with a capacity overflow, and 2-D at T = 2^28 took 14 GB); `count_tiles`
/// counts them by period, keeping the repeated stretch of wavefronts once, with as many
/// wavefronts as the error names. Where no iterator repeats (statements on two band maps),
/// `count_tiles` gives the same error.
#[test]
fn too_many_wavefronts_are_counted_by_period_or_an_error() {
    for (scop, params, sizes, wavefronts) in [
        (common::sor(1), vec![1i64 << 32, 16], vec![16, 16], 805_306_369usize),
        (common::sor(2), vec![4, 1 << 62, 16], vec![16, 16, 16], 576_460_752_303_423_491),
        (common::sor(2), vec![1 << 28, 1024, 1024], vec![32, 32, 24], 36_350_804),
    ] {
        let (shape, _) = common::shape(&scop, &params, true);
        let text = sizes.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
        let geometry = TileGeometry::new(&shape);
        match count_tiles_by_rows(&shape, &geometry, &sizes) {
            Err(TileModelError::TooManyWavefronts(message)) => {
                assert!(message.contains(&format!("tile sizes {text} make {wavefronts} ")), "{params:?}: {message}");
                assert!(message.contains("use larger tiles or smaller problem sizes"), "{params:?}: {message}");
            }
            other => panic!("{params:?} at {sizes:?}: {other:?}"),
        }
        let counts = count_tiles(&shape, &geometry, &sizes).unwrap_or_else(|e| panic!("{params:?}: {e}"));
        assert_eq!(counts.wavefronts(), wavefronts, "{params:?}");
        let repeat = counts.repeat.unwrap_or_else(|| panic!("{params:?}: no repeated stretch"));
        assert!(counts.tiles.len() < 1000 && repeat.times > 1000, "{params:?}: {repeat:?}");
        let unless = count_tiles_unless(&shape, &geometry, &sizes, &mut |_| false).expect("a count");
        assert_eq!(unless, Some(counts), "{params:?}");
    }
    // Two statements over a long range on two band maps: no period.
    let (skewed, skewed_inverse) = unimodular(2, &[(0, 1, 1)]);
    let identity = vec![vec![1, 0], vec![0, 1]];
    let shape = band(vec![
        statement(&identity, &identity, vec![0, 0], vec![0, 0], vec![1 << 24, 8]),
        statement(&skewed, &skewed_inverse, vec![0, 0], vec![0, 0], vec![1 << 24, 8]),
    ]);
    for result in every_count(&shape, &[2, 2]) {
        match result {
            Err(TileModelError::TooManyWavefronts(message)) => {
                assert!(message.contains("tile sizes 2x2 make "), "{message}");
                assert!(message.contains("use larger tiles or smaller problem sizes"), "{message}");
            }
            other => panic!("two band maps at 2^24: {other:?}"),
        }
    }
}

/// A band row whose `φ` leaves 64 bits over the domain (2-D SOR's skewed rows at N = 2^63 − 1 or
/// T = 2^63 − 1) is an overflow error: its range wrapped and the counts were of another band
/// (0 tiles, 0 launches), or the histogram's length overflowed (a capacity overflow panic).
#[test]
fn band_rows_past_64_bits_are_an_overflow_error() {
    for params in [vec![4, i64::MAX, 16], vec![i64::MAX, 16, 16]] {
        let (shape, _) = common::shape(&common::sor(2), &params, true);
        for result in every_count(&shape, &[16, 16, 16]) {
            assert!(matches!(result, Err(TileModelError::Overflow(_))), "{params:?}: {result:?}");
        }
    }
}

/// A histogram of the outermost row too long to build (2^40 time steps; the tiles are few) is
/// left out: the count that may stop bounds the tiles it has left by 0 and counts the same.
#[test]
fn a_histogram_too_long_to_build_is_left_out() {
    let (shape, _) = common::shape(&common::sor(1), &[1 << 40, 64], true);
    let sizes = [1 << 30, 1 << 30];
    let geometry = TileGeometry::new(&shape);
    let rows = count_tiles_by_rows(&shape, &geometry, &sizes).expect("counts");
    let unless = count_tiles_unless(&shape, &geometry, &sizes, &mut |partial| {
        assert!(partial.tiles_at_least <= rows.total_tiles());
        false
    })
    .expect("counts");
    assert!(unless.as_ref() == Some(&rows), "the counts differ");
    assert!(rows.total_tiles() > 0);
}

/// At the GPU sizes of the search (where the tile bound matters: 3-D SOR's skewed tiles are far
/// from full), the bound against `count_tiles` alone (the row counter is too slow there), on
/// sizes from the search's grid; and it is tight enough to matter: within a factor of 3 of the
/// count for a size whose tiles are mostly empty.
#[test]
fn tile_bounds_at_gpu_sizes() {
    let grid = [1i64, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768];
    for (scop, params) in [(common::sor(3), vec![16, 96, 96, 96]), (common::jacobi(3), vec![16, 96, 96, 96])] {
        let (shape, _) = common::shape(&scop, &params, true);
        let geometry = TileGeometry::new(&shape);
        // A fixed pseudo-random walk over the grid (no dependence on proptest's seed).
        let mut x = 12345u64;
        for _ in 0..40 {
            let sizes: Vec<i64> = (0..4)
                .map(|_| {
                    let r = common::next_random(&mut x);
                    grid[((r >> 33) % 9) as usize + if (r >> 20).is_multiple_of(4) { 9 } else { 0 }]
                })
                .collect();
            let counts = count_tiles(&shape, &geometry, &sizes).unwrap();
            bounded(&shape, &geometry, &sizes, &counts);
        }
    }
    let (shape, _) = common::shape(&common::sor(3), &[16, 96, 96, 96], true);
    let geometry = TileGeometry::new(&shape);
    let sizes = [2, 1, 768, 1];
    let counts = count_tiles(&shape, &geometry, &sizes).unwrap();
    let (_, tiles) = geometry.lower_bounds(&shape, &sizes);
    assert!(3.0 * tiles >= counts.total_tiles() as f64, "{tiles} vs {}", counts.total_tiles());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn example_bands(
        sizes in proptest::collection::vec(1i64..=9, 4),
        t in 1i64..=12,
        n in 3i64..=40,
        m in 3i64..=30,
        balanced: bool,
    ) {
        agree(&common::shape(&common::sor(1), &[t, 4 * n], balanced).0, &sizes[..2]);
        agree(&common::shape(&common::jacobi(1), &[t, 4 * n], balanced).0, &sizes[..2]);
        agree(&common::shape(&common::sor(2), &[t, n, m], balanced).0, &sizes[..3]);
        agree(&common::shape(&common::jacobi(2), &[t, n, m], balanced).0, &sizes[..3]);
        if balanced {
            agree(&common::shape(&common::sor(3), &[t.min(6), n.min(16), m.min(14), 12], true).0, &sizes);
            agree(&common::shape(&common::jacobi(3), &[t.min(6), n.min(16), 9, m.min(14)], true).0, &sizes);
        }
    }

    #[test]
    fn random_unimodular_bands(
        m in 2usize..=4,
        first in statement_strategy(5),
        others in proptest::collection::vec((any::<bool>(), statement_strategy(5)), 0..5),
        sizes in proptest::collection::vec(1i64..=6, 5),
    ) {
        let (ops, shift, lower, extent) = first;
        let (map, inverse) = unimodular(m, &ops);
        let boxed = |lower: &[i64], extent: &[i64]| -> (Vec<i64>, Vec<i64>) {
            (lower[..m].to_vec(), lower[..m].iter().zip(&extent[..m]).map(|(l, e)| l + e).collect())
        };
        let (lo, hi) = boxed(&lower, &extent);
        // The first statement has instances (as BandShape::new requires of some statement).
        let hi: Vec<i64> = hi.iter().zip(&lo).map(|(h, l)| (*h).max(*l)).collect();
        let mut statements = vec![statement(&map, &inverse, shift[..m].to_vec(), lo, hi)];
        for (same_map, (ops, shift, lower, extent)) in others {
            let (map2, inverse2) = if same_map { (map.clone(), inverse.clone()) } else { unimodular(m, &ops) };
            let (lo, hi) = boxed(&lower, &extent);
            statements.push(statement(&map2, &inverse2, shift[..m].to_vec(), lo, hi));
        }
        agree(&band(statements), &sizes[..m]);
    }

    #[test]
    fn random_wide_bands(
        ops in proptest::collection::vec((0usize..5, 0usize..5, -1i64..=1), 0..5),
        extent in proptest::collection::vec(0i64..=4, 5),
        sizes in proptest::collection::vec(1i64..=3, 5),
        shifted: bool,
    ) {
        let (map, inverse) = unimodular(5, &ops);
        let lo = vec![0i64; 5];
        let mut statements = vec![statement(&map, &inverse, vec![0; 5], lo.clone(), extent.clone())];
        if shifted {
            statements.push(statement(&map, &inverse, vec![1, 0, 2, 0, 1], lo, extent));
        }
        agree(&band(statements), &sizes);
    }
}

/// `count_tiles_unless` (what the search counts with, giving up once a bound with the tiles
/// counted so far cannot beat its layouts): the tiles per wavefront it shows `stop` only grow
/// from one call to the next and never pass the final counts, nor do they with its bound of
/// the tiles not counted yet (which is not always 0), a `stop` that never says yes gives
/// `count_tiles`' counts, and one that says yes gives none.
#[test]
fn counts_that_may_stop_show_growing_parts_of_the_counts() {
    for (scop, params, sizes) in [
        (common::sor(2), vec![16, 60, 50], vec![2, 3, 4]),
        (common::sor(3), vec![12, 60, 56, 52], vec![1, 3, 4, 3]),
        (common::jacobi(3), vec![12, 60, 56, 52], vec![2, 2, 5, 4]),
    ] {
        let (shape, _) = common::shape(&scop, &params, true);
        let geometry = TileGeometry::new(&shape);
        let full = count_tiles(&shape, &geometry, &sizes).unwrap();
        let mut seen: Vec<Vec<u64>> = Vec::new();
        let mut seen_full: Vec<Vec<u64>> = Vec::new();
        let mut seen_left: Vec<u64> = Vec::new();
        let mut totals: Vec<(u64, u64)> = Vec::new();
        let counted = count_tiles_unless(&shape, &geometry, &sizes, &mut |partial| {
            totals.push((partial.tiles_at_least, partial.full_at_least));
            if !partial.tiles.is_empty() {
                seen.push(partial.tiles.to_vec());
                seen_full.push(partial.full.to_vec());
                seen_left.push(partial.tiles_at_least);
                // The totals kept with the marks are the sums of the counts shown.
                assert!(partial.tiles_at_least >= partial.tiles.iter().sum::<u64>(), "{sizes:?}");
                assert_eq!(partial.full_at_least, partial.full.iter().sum::<u64>(), "{sizes:?}");
            }
            false
        })
        .unwrap();
        for &(tiles, full_tiles) in &totals {
            assert!(tiles <= full.total_tiles(), "{sizes:?}: {tiles} tiles > {}", full.total_tiles());
            assert!(full_tiles <= full.total_full(), "{sizes:?}: {full_tiles} full tiles > {}", full.total_full());
        }
        assert_eq!(counted.as_ref(), Some(&full), "{sizes:?}");
        // In 2-D a count is a few closed forms per outermost value, cheaper than asking with the
        // counts per wavefront: not asked with them.
        if sizes.len() == 2 + 1 {
            assert!(seen.is_empty(), "{sizes:?}: asked {} times", seen.len());
            continue;
        }
        assert!(seen.len() > 1, "{sizes:?}: asked {} times", seen.len());
        assert!(
            seen.iter().zip(&seen_left).any(|(tiles, &at_least)| at_least > tiles.iter().sum::<u64>()),
            "{sizes:?}: no tiles bounded beyond those counted"
        );
        for pair in seen.windows(2).chain(seen_full.windows(2)) {
            assert!(pair[0].iter().zip(&pair[1]).all(|(a, b)| a <= b), "{sizes:?}: counts fell");
        }
        for (tiles, full) in seen.iter().zip(&seen_full) {
            assert!(full.iter().zip(tiles).all(|(f, t)| f <= t), "{sizes:?}: more full tiles than tiles");
        }
        assert!(seen_full.last().unwrap().iter().sum::<u64>() <= full.total_full());
        let last = seen.last().unwrap();
        assert!(last.iter().sum::<u64>() <= full.total_tiles());
        assert!(last.iter().max().copied().unwrap_or(0) <= full.widest());
        // A 3-D band's count (tiles first, full tiles after) is asked once more with every tile
        // counted, before the full tiles' pass, when the band has full tiles: then it shows the
        // final tiles per wavefront, their rounding `Σ⌈n_w/P⌉` exact.
        if sizes.len() == 3 + 1 && full.total_full() > 0 {
            let (tiles, _) = full.per_wavefront().written_out(1 << 20).unwrap();
            assert!(seen_full.last().unwrap().iter().all(|&f| f == 0), "{sizes:?}: full tiles before their pass");
            assert_eq!(last, &tiles, "{sizes:?}: the last question before the full tiles' pass");
        }
        let stopped = count_tiles_unless(&shape, &geometry, &sizes, &mut |_| true).unwrap();
        assert_eq!(stopped, None);
    }
}

/// A geometry made for one band, asked to count (with a stop) a band of the same map on a
/// smaller domain — as counts by period count a long run's shorter copies — bounds the tiles
/// that count has left by that band's own histograms, not the first band's: the tiles it
/// shows `stop` never pass the smaller band's counts.
#[test]
fn a_shared_geometry_bounds_each_domain_by_its_own_histograms() {
    let sizes = [1i64, 3, 4, 3];
    let (long, _) = common::shape(&common::sor(3), &[40, 60, 56, 52], true);
    let (short, _) = common::shape(&common::sor(3), &[12, 60, 56, 52], true);
    let geometry = TileGeometry::new(&long);
    let fresh = TileGeometry::new(&short);
    let short_total = count_tiles(&short, &fresh, &sizes).unwrap().total_tiles();
    // The long band first, so that its histograms are the ones kept.
    count_tiles_unless(&long, &geometry, &sizes, &mut |_| false).unwrap();
    let mut most = 0u64;
    let counted = count_tiles_unless(&short, &geometry, &sizes, &mut |partial| {
        most = most.max(partial.tiles_at_least);
        false
    })
    .unwrap();
    assert_eq!(counted.map(|c| c.total_tiles()), Some(short_total));
    assert!(most > 0, "never asked");
    assert!(most <= short_total, "bounded {most} tiles of a band that has {short_total}");
}

/// The sizes `s'_k = s_{π[k]}` of a row order `π`.
fn permuted(sizes: &[i64], order: &[usize]) -> Vec<i64> {
    order.iter().map(|&k| sizes[k]).collect()
}

/// Every row symmetry `row_symmetries` claims gives the same counts to the permuted sizes
/// (the search counts one size of each family), by the plain enumeration of the tile rows.
fn symmetric_counts_agree(shape: &BandShape, sizes: &[i64]) {
    let geometry = TileGeometry::new(shape);
    let Ok(counts) = count_tiles_by_rows(shape, &geometry, sizes) else { return };
    for order in row_symmetries(shape) {
        let other = permuted(sizes, &order);
        let theirs = count_tiles_by_rows(shape, &geometry, &other).unwrap();
        assert_eq!(counts, theirs, "sizes {sizes:?} and {other:?} (order {order:?}), shape {:?}", shape.statements);
    }
}

/// The examples' 3-D bands (equal extents) have the orders of the three space rows as
/// symmetries, with equal counts; with unequal extents fewer or none, and a shift that differs
/// between rows breaks them.
#[test]
fn example_bands_have_row_symmetries_with_equal_counts() {
    for scop in [common::sor(3), common::jacobi(3)] {
        let (shape, _) = common::shape(&scop, &[5, 14, 14, 14], true);
        let orders = row_symmetries(&shape);
        assert_eq!(orders.len(), 5, "{orders:?}, shape {:?}", shape.statements);
        for sizes in [[1i64, 2, 3, 4], [2, 3, 3, 5], [3, 1, 4, 2]] {
            symmetric_counts_agree(&shape, &sizes);
        }
        let (uneven, _) = common::shape(&scop, &[5, 14, 11, 9], true);
        assert!(row_symmetries(&uneven).is_empty(), "{:?}", row_symmetries(&uneven));
        let (two, _) = common::shape(&scop, &[5, 14, 14, 9], true);
        assert_eq!(row_symmetries(&two).len(), 1, "{:?}", row_symmetries(&two));
        symmetric_counts_agree(&two, &[2, 3, 4, 2]);
    }
    // 2-D Jacobi: the two space rows, when N = M (its two statements shifted alike); 2-D SOR's
    // rows (2t + i + j, t + i + j, t + j) have none.
    let (shape, _) = common::shape(&common::jacobi(2), &[7, 20, 20], true);
    assert_eq!(row_symmetries(&shape), vec![vec![0, 2, 1]]);
    symmetric_counts_agree(&shape, &[2, 3, 5]);
    let (shape, _) = common::shape(&common::jacobi(2), &[7, 20, 19], true);
    assert!(row_symmetries(&shape).is_empty());
    let (shape, _) = common::shape(&common::sor(2), &[7, 20, 20], true);
    assert!(row_symmetries(&shape).is_empty());
    // The identity map on a cube: every order; shifting one row breaks those that move it.
    let id: Vec<Vec<i64>> = (0..3).map(|i| (0..3).map(|j| i64::from(i == j)).collect()).collect();
    let cube = band(vec![statement(&id, &id, vec![0; 3], vec![0; 3], vec![5; 3])]);
    assert_eq!(row_symmetries(&cube).len(), 5);
    let shifted = band(vec![statement(&id, &id, vec![0, 0, 1], vec![0; 3], vec![5; 3])]);
    assert_eq!(row_symmetries(&shifted), vec![vec![1, 0, 2]]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random unimodular bands on cubes (so that symmetries are common): every symmetry found
    /// keeps the counts, checked by enumeration.
    #[test]
    fn row_symmetries_keep_the_counts(
        m in 2usize..=4,
        ops in proptest::collection::vec((0usize..4, 0usize..4, -1i64..=1), 0..3),
        extent in 1i64..=6,
        second: bool,
        sizes in proptest::collection::vec(1i64..=4, 4),
    ) {
        let (map, inverse) = unimodular(m, &ops);
        let mut statements = vec![statement(&map, &inverse, vec![0; m], vec![0; m], vec![extent; m])];
        if second {
            statements.push(statement(&map, &inverse, vec![1; m], vec![0; m], vec![extent; m]));
        }
        symmetric_counts_agree(&band(statements), &sizes[..m]);
    }
}

/// The layered bound (`inter::layered_tiles`, which the search's tile bound takes) sees the
/// border tiles of skewed 3-D SOR's thin time slab: on these sizes it is above the instances'
/// bound and at least 0.7 of the counted tiles (the instances' bound: a third to a half), and
/// never above them.
#[test]
fn layered_bound_sees_border_tiles() {
    let (shape, _) = common::shape(&common::sor(3), &[12, 160, 160, 160], true);
    let geometry = TileGeometry::new(&shape);
    for sizes in [[2i64, 4, 4, 8], [1, 3, 4, 4], [4, 6, 6, 8], [3, 6, 6, 6]] {
        let counts = count_tiles(&shape, &geometry, &sizes).unwrap();
        let layered = layered_tiles(&shape.statements[0], &sizes) as f64;
        let instances = shape.statements[0].instances() as f64 / sizes.iter().product::<i64>() as f64;
        let tiles = counts.total_tiles() as f64;
        assert!(layered <= tiles, "{sizes:?}: {layered} > {tiles}");
        assert!(layered >= 0.7 * tiles, "{sizes:?}: {layered} of {tiles}");
        assert!(layered > 1.3 * instances, "{sizes:?}: {layered} vs {instances}");
        assert!(geometry.lower_bounds(&shape, &sizes).1 >= layered, "{sizes:?}");
    }
}

/// Where a statement's domain is thinner along a row than a tile's spread there (an erosion row
/// with `lo > hi`: 3-D SOR's time row at most sizes), there are no full tiles, and the counter
/// builds no full-tile polygons (nor, in a count that may stop, makes its second pass); where
/// there are full tiles it counts them. On 2-D and 3-D SOR, sizes of both kinds agree with the
/// row counter (`agree`): skipping the full tiles of a size that has some, or a wrong skip
/// condition, fails here.
#[test]
fn counts_with_and_without_full_tiles_agree_with_the_rows() {
    for (scop, params, all_sizes) in [
        (
            common::sor(2),
            vec![6, 40, 36],
            vec![vec![4, 3, 4], vec![1, 1, 1], vec![2, 3, 2], vec![3, 6, 6], vec![8, 2, 2]],
        ),
        (
            common::sor(3),
            vec![6, 20, 18, 16],
            vec![vec![4, 3, 4, 3], vec![1, 1, 1, 1], vec![2, 1, 2, 1], vec![1, 2, 2, 2], vec![6, 6, 6, 6]],
        ),
    ] {
        let (shape, _) = common::shape(&scop, &params, true);
        let geometry = TileGeometry::new(&shape);
        let (mut with, mut without) = (0, 0);
        for sizes in &all_sizes {
            agree(&shape, sizes);
            let counts = count_tiles(&shape, &geometry, sizes).unwrap();
            if counts.total_full() > 0 {
                with += 1;
            } else {
                without += 1;
            }
        }
        assert!(with > 0 && without > 0, "{params:?}: {with} sizes with full tiles, {without} without");
    }
}

/// Counts by period (`inter::count_tiles_by_period`: two counts of the domain cut along a long
/// iterator, and the shifted copies of their difference) against the rows on the whole domain:
/// random bands of one statement with one long iterator.
fn period_agrees(shape: &BandShape, sizes: &[i64]) -> bool {
    let geometry = TileGeometry::new(shape);
    let Some(by_period) = count_tiles_by_period(shape, &geometry, sizes) else { return false };
    match (by_period, count_tiles_by_rows(shape, &geometry, sizes)) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "sizes {sizes:?}, shape {:?}", shape.statements),
        (Err(TileModelError::Overflow(_)), _) | (_, Err(TileModelError::Overflow(_))) => {}
        (a, b) => panic!("sizes {sizes:?}: {a:?} vs {b:?}"),
    }
    true
}

/// SOR and Jacobi runs of many sweeps: `count_tiles` counts them by period (the time iterator
/// repeats), with the counts of the rows over the whole range; the period is there for every
/// size (Jacobi's two statements share the band map).
#[test]
fn long_runs_are_counted_by_period() {
    let mut kept_once = 0;
    for (scop, params, sizes) in [
        (common::sor(1), vec![400, 24], vec![3, 4]),
        (common::sor(2), vec![300, 10, 9], vec![2, 3, 4]),
        (common::sor(2), vec![300, 10, 9], vec![5, 1, 3]),
        (common::sor(3), vec![90, 6, 5, 7], vec![2, 3, 2, 4]),
        (common::sor(3), vec![90, 6, 5, 7], vec![6, 1, 1, 1]),
        (common::jacobi(1), vec![300, 20], vec![3, 5]),
        (common::jacobi(2), vec![200, 9, 8], vec![2, 3, 4]),
        (common::jacobi(3), vec![60, 5, 6, 5], vec![2, 2, 3, 2]),
        // Two long iterators: the time is cut (the short runs are then counted directly).
        (common::sor(2), vec![200, 150, 9], vec![2, 3, 4]),
        (common::jacobi(2), vec![150, 120, 8], vec![3, 2, 4]),
        (common::sor(3), vec![60, 40, 5, 6], vec![2, 2, 1, 3]),
    ] {
        let (shape, _) = common::shape(&scop, &params, true);
        assert!(period_agrees(&shape, &sizes), "no period at {params:?}, {sizes:?}");
        agree(&shape, &sizes);
        // The repeated stretch is kept once (where it repeats at least twice beyond the two
        // short counts' wavefronts).
        let geometry = TileGeometry::new(&shape);
        let counts = count_tiles_by_period(&shape, &geometry, &sizes).expect("a period").expect("counts");
        kept_once += usize::from(counts.repeat.is_some_and(|r| r.times > 0));
    }
    assert!(kept_once >= 8, "{kept_once} of 11 counts keep a repeated stretch");
}

/// A repeated stretch stands for its copies in every sum the models make, and two keepings of
/// the same wavefronts are equal.
#[test]
fn repeated_stretches_count_their_copies() {
    let (shape, _) = common::shape(&common::sor(2), &[300, 10, 9], true);
    let geometry = TileGeometry::new(&shape);
    let kept = count_tiles_by_period(&shape, &geometry, &[2, 3, 4]).expect("a period").expect("counts");
    let rows = count_tiles_by_rows(&shape, &geometry, &[2, 3, 4]).expect("counts");
    let repeat = kept.repeat.expect("a repeated stretch");
    assert!(repeat.times > 10 && rows.repeat.is_none(), "{repeat:?}");
    assert_eq!(kept, rows);
    assert_eq!(
        (kept.wavefronts(), kept.total_tiles(), kept.total_full()),
        (rows.wavefronts(), rows.total_tiles(), rows.total_full())
    );
    assert_eq!(kept.widest(), rows.widest());
    let (a, b) = (kept.per_wavefront(), rows.per_wavefront());
    assert_eq!(a.sum_tiles(|n| n.div_ceil(7)), b.sum_tiles(|n| n.div_ceil(7)));
    assert_eq!(a.sum_full(|n| n * n), b.sum_full(|n| n * n));
    assert_eq!(a.written_out(u64::MAX).expect("written out"), (rows.tiles.clone(), rows.full.clone()));
    // The same wavefronts kept otherwise (the stretch twice as long, after one more copy kept
    // when its copies are odd) are equal; one tile more is not.
    let r = repeat;
    let mut other = kept.clone();
    let (written, start, times) =
        if r.times % 2 == 1 { (1, r.start, r.times / 2) } else { (2, r.start + r.len, r.times / 2 - 1) };
    other.repeat = Some(stencil_tilemodel::Repeat { start, len: 2 * r.len, times });
    for v in [&mut other.tiles, &mut other.full] {
        let copies: Vec<u64> = v[r.start..r.start + r.len].repeat(written);
        v.splice(r.start + r.len..r.start + r.len, copies);
    }
    assert_eq!(other, rows);
    assert_eq!(other, kept);
    let mut more = kept.clone();
    more.tiles[r.start] += 1;
    assert_ne!(more, rows);
    assert_ne!(more, kept);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn counts_by_period_agree_with_the_rows(
        m in 2usize..=4,
        ops in proptest::collection::vec((0usize..5, 0usize..5, -2i64..=2), 0..6),
        shift in proptest::collection::vec(-6i64..=6, 4),
        lower in proptest::collection::vec(-3i64..=3, 4),
        extent in proptest::collection::vec(0i64..=5, 4),
        long in 0usize..4,
        length in 20i64..=90,
        sizes in proptest::collection::vec(1i64..=5, 4),
        others in proptest::collection::vec(
            (proptest::collection::vec(-4i64..=4, 4), proptest::collection::vec(-1i64..=3, 4)),
            0..3,
        ),
    ) {
        let (map, inverse) = unimodular(m, &ops);
        let mut extent = extent[..m].to_vec();
        extent[long % m] = length;
        let lo = lower[..m].to_vec();
        let hi: Vec<i64> = lo.iter().zip(&extent).map(|(l, e)| l + e).collect();
        let mut statements = vec![statement(&map, &inverse, shift[..m].to_vec(), lo.clone(), hi.clone())];
        // Copies of it on the same map, shifted, their boxes moved a little (or emptied).
        for (moved, (shifted, trim)) in others.iter().enumerate() {
            let lo: Vec<i64> = lo.iter().zip(trim).map(|(l, t)| l + t).collect();
            let hi: Vec<i64> = hi.iter().zip(trim.iter().rev()).map(|(h, t)| h - t + moved as i64 % 2).collect();
            statements.push(statement(&map, &inverse, shifted[..m].to_vec(), lo, hi));
        }
        let shape = band(statements);
        period_agrees(&shape, &sizes[..m]);
        agree(&shape, &sizes[..m]);
    }
}

/// Counts built by hand with a repeated stretch past the kept entries (the fields are public)
/// neither panic nor wrap: the missing entries count as empty.
#[test]
fn a_stretch_past_the_kept_entries_is_no_panic() {
    let odd = InterTileCounts {
        first_wavefront: 0,
        tiles: vec![1, 2],
        full: vec![0, 0],
        repeat: Some(stencil_tilemodel::Repeat { start: 1, len: usize::MAX, times: u64::MAX }),
    };
    let plain = InterTileCounts { first_wavefront: 0, tiles: vec![1, 2], full: vec![0, 0], repeat: None };
    assert_ne!(odd, plain);
    assert_eq!(odd, odd.clone());
    assert_eq!(odd.widest(), 2);
    assert_eq!(odd.total_tiles(), u64::MAX, "saturating");
    assert!(odd.per_wavefront().written_out(1 << 20).is_err());
    assert_eq!(odd.per_wavefront().wavefronts().take(3).collect::<Vec<_>>(), [(1, 0), (2, 0), (2, 0)]);
    // A stretch wholly past them.
    let beyond = InterTileCounts {
        repeat: Some(stencil_tilemodel::Repeat { start: 5, len: 3, times: u64::MAX }),
        ..plain.clone()
    };
    assert_eq!(beyond, beyond.clone());
    assert_eq!(beyond.per_wavefront().wavefronts().collect::<Vec<_>>(), [(1, 0), (2, 0)]);
}
