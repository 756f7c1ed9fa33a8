//! Programs of several tiled nests inside host loops (`ProgramShape`, `search_nests`): 2-D
//! symmetric SOR, whose forward and backward sweeps are tiled on their own inside the time loop.

mod common;

use stencil_poly::tiling::{tile, TileBand, TilingInput, TilingOptions};
use stencil_poly::{schedule, SchedulerOptions};
use stencil_tilemodel::search::row_sizes;
use stencil_tilemodel::*;

/// SSOR scheduled as `poly-schedule` does (the time loop outside, a statement-order cut, the
/// two sweeps' band) and tiled with `sizes`, with its program shape at `params`.
fn ssor(params: &[i64], sizes: &[i64]) -> (stencil_poly::Scop, stencil_poly::tiling::TiledSchedule, ProgramShape) {
    let scop = common::ssor_2d();
    let g = common::ddg(&scop);
    let t = schedule(&scop, &g, &SchedulerOptions::default()).unwrap();
    // The last band is the sweeps' (the first is the time loop's alone): tiled alone, as
    // `poly-tile` tiles the first band of more than one row.
    let band = t.bands.last().unwrap().rows.clone();
    assert_eq!(band.len(), 2);
    let input = TilingInput::new(t.schedules.clone(), vec![TileBand::new(band, sizes.to_vec())]);
    let tiled = tile(&scop, &input, &g, &TilingOptions::default()).unwrap();
    let facts = ProgramFacts { element_bytes: vec![4], operations: vec![8, 8], ..ProgramFacts::default() };
    let shape = ProgramShape::new(&scop, &tiled, params, &facts).unwrap();
    (scop, tiled, shape)
}

#[test]
fn ssor_is_two_nests_inside_the_time_loop() {
    let (scop, tiled, shape) = ssor(&[7, 20, 13], &[4, 4]);
    assert_eq!(shape.host_loops.len(), 1);
    assert_eq!(shape.host_loops[0].trips, 7);
    assert_eq!(shape.repeats(), 7);
    assert_eq!(shape.nests.len(), 2);
    assert_eq!(shape.width(), 2);
    let names: Vec<&str> = shape.nests.iter().map(|n| n.statements[0].name.as_str()).collect();
    assert_eq!(names, ["F", "B"], "in execution order");
    for nest in &shape.nests {
        assert_eq!(nest.statements.len(), 1);
        let s = &nest.statements[0];
        // The sweep's own iterators (i, j): the box 1..=18 × 1..=11, the time loop's left out.
        assert_eq!((s.lower.clone(), s.upper.clone()), (vec![1, 1], vec![18, 11]));
        assert_eq!(s.map.len(), 2);
        assert!(s.map.iter().all(|row| row.len() == 2));
        assert!(s.accesses.iter().all(|a| a.linear.iter().all(|row| row.len() == 2)));
    }
    // The backward sweep's band runs over the negated iterators.
    assert!(shape.nests[1].statements[0].map.iter().flatten().all(|&c| c <= 0));
    assert_eq!(shape.instances(), 7 * 2 * 18 * 11);
    // A band shape is one nest: it names the host loop it cannot cover.
    let e = BandShape::new(&scop, &tiled, &[7, 20, 13], &ProgramFacts::default()).unwrap_err().to_string();
    assert!(e.contains("lies outside the tiled band"), "{e}");
}

/// The merge of the nests' searches finds the layout whose summed time is the least of all
/// layouts, as trying every tile size and block in both nests finds it, for both models,
/// staged or not, under both built-in calibrations; and its time is the host iterations times
/// the nests' times with the run's constant once. Sweeps over the same box (SSOR) and over
/// different boxes (the forward sweep of a 30 × 4 box after it: their best layouts differ, so
/// that the merge must widen its lists).
#[test]
fn the_merged_search_finds_the_exhaustive_best() {
    let params = [3, 14, 11];
    let (_, _, same) = ssor(&params, &[2, 2]);
    let (_, _, narrow) = ssor(&[3, 32, 6], &[2, 2]);
    let mut different = same.clone();
    different.nests[1] = narrow.nests[0].clone();
    for (what, shape) in [("same boxes", same), ("different boxes", different)] {
        merged_search_finds_the_exhaustive_best_with(what, &shape, params[0]);
    }
}

fn merged_search_finds_the_exhaustive_best_with(what: &str, shape: &ProgramShape, repeats: i64) {
    // The sizes of the widest extent of each row, as every nest searches them.
    let grids: Vec<Vec<i64>> = shape.widest_extents().iter().map(|&e| row_sizes(e, 1024)).collect();
    for calibration in [Calibration::h100_default().unwrap(), Calibration::built_in("h200").unwrap().unwrap()] {
        for model in ModelKind::ALL {
            for staged in [true, false] {
                let options = SearchOptions { model, staged, keep: 1, ..SearchOptions::default() };
                let report = search_nests(shape, "ssor", &calibration, &options).unwrap();
                let best = report.choice().unwrap();
                assert!(report.composition.as_deref().is_some_and(|c| c.contains("no other layout can beat")));
                let once = calibration
                    .model(
                        model,
                        "ssor",
                        staged,
                        shape.nests[0].operations_per_point(),
                        shape.nests[0].element_bytes(),
                        shape.nests[0].data_bytes(),
                    )
                    .run_constant()
                    .map_or(0.0, |t| t.seconds);
                let mut exhaustive = f64::INFINITY;
                let mut index = vec![0usize; grids.len()];
                loop {
                    let sizes: Vec<i64> = index.iter().zip(&grids).map(|(&k, g)| g[k]).collect();
                    // Every block of the size in each nest (a list that never fills: no bound).
                    let fixed = SearchOptions { fixed_sizes: Some(sizes.clone()), keep: 1 << 20, ..options.clone() };
                    let per_nest: Vec<Option<SearchReport>> =
                        shape.nests.iter().map(|n| search(n, "ssor", &calibration, &fixed).ok()).collect();
                    if let [Some(f), Some(b)] = per_nest.as_slice() {
                        for rf in &f.best {
                            let Some(rb) = b.best.iter().find(|r| r.block == rf.block) else { continue };
                            // The merge lists what passes the reuse threshold in some nest.
                            let reuse_ok = |r: &search::Ranked, report: &SearchReport| {
                                !staged || r.reuse >= report.reuse_threshold
                            };
                            let full_f = search(&shape.nests[0], "ssor", &calibration, &options).unwrap();
                            let full_b = search(&shape.nests[1], "ssor", &calibration, &options).unwrap();
                            if !(reuse_ok(rf, &full_f) || reuse_ok(rb, &full_b)) {
                                continue;
                            }
                            let joint =
                                once + repeats as f64 * (rf.prediction.seconds - once + rb.prediction.seconds - once);
                            exhaustive = exhaustive.min(joint);
                        }
                    }
                    if !search::next_index(&mut index, &grids) {
                        break;
                    }
                }
                let chosen = best.prediction.seconds;
                assert!(
                    (chosen - exhaustive).abs() <= 1e-9 * exhaustive,
                    "{what}, {model:?} staged={staged}: merged search {chosen} s, exhaustive {exhaustive} s"
                );
                let terms: f64 = best.prediction.terms.iter().map(|t| t.seconds).sum();
                if model == ModelKind::Thesis {
                    assert!((terms - chosen).abs() <= 1e-9 * chosen, "terms {terms} s, prediction {chosen} s");
                }
            }
        }
    }
}

/// A nest without instances at the problem sizes launches nothing: the merged search leaves it
/// out, and a program whose only nest with instances is repeated by the host loop gets that
/// nest's choice, its time the host iterations times the nest's (the run's constant once).
#[test]
fn a_nest_without_instances_is_left_out() {
    let (_, _, mut shape) = ssor(&[4, 20, 13], &[2, 2]);
    let empty = &mut shape.nests[1].statements[0];
    empty.upper = empty.lower.iter().map(|l| l - 1).collect();
    let calibration = Calibration::built_in("h200").unwrap().unwrap();
    let options = SearchOptions { keep: 1, ..SearchOptions::default() };
    let merged = search_nests(&shape, "ssor", &calibration, &options).unwrap();
    let alone = search(&shape.nests[0], "ssor", &calibration, &options).unwrap();
    let (m, a) = (merged.choice().unwrap(), alone.choice().unwrap());
    assert_eq!((&m.sizes, m.block), (&a.sizes, a.block));
    let once = calibration
        .model(
            ModelKind::Thesis,
            "ssor",
            true,
            shape.nests[0].operations_per_point(),
            shape.nests[0].element_bytes(),
            shape.nests[0].data_bytes(),
        )
        .run_constant()
        .map_or(0.0, |t| t.seconds);
    let want = once + 4.0 * (a.prediction.seconds - once);
    assert!((m.prediction.seconds - want).abs() <= 1e-9 * want, "{} vs {want}", m.prediction.seconds);
    assert!(merged.composition.as_deref().is_some_and(|c| c.starts_with("1 nest inside")), "{:?}", merged.composition);
}

/// A size past its row's whole range is cut to the least size that keeps the row in one tile
/// (`hi + 1`), and the cut tiling holds the same tiles: the same counts, one tile along the row.
/// Rows reaching below 0 (SSOR's backward sweep runs over negated iterators) keep their sizes.
#[test]
fn sizes_past_a_row_are_cut_to_one_tile() {
    let scop = common::sor(1);
    let params = [10, 64]; // T, N
    let (band, tiled) = common::shape(&scop, &params, true);
    let facts = ProgramFacts { element_bytes: vec![8], operations: vec![5], ..ProgramFacts::default() };
    let program = ProgramShape::new(&scop, &tiled, &params, &facts).unwrap();
    let ranges = band.row_ranges();
    assert!(ranges.iter().all(|&(lo, _)| lo >= 0), "{ranges:?}");
    let one: Vec<i64> = ranges.iter().map(|&(_, hi)| hi + 1).collect();
    assert_eq!(program.one_tile_sizes(&[4, 4]), [4, 4], "sizes within their rows stay");
    assert_eq!(program.one_tile_sizes(&[4, 1000]), [4, one[1]]);
    assert_eq!(program.one_tile_sizes(&one), one, "already the least size of one tile");
    assert_eq!(program.one_tile_sizes(&[one[0] - 1, one[1]]), [one[0] - 1, one[1]], "two tiles along row 0");
    let geometry = TileGeometry::new(&band);
    for sizes in [vec![4, 1000], vec![1000, 1000], vec![7, 1 << 40]] {
        let cut = program.one_tile_sizes(&sizes);
        let (a, b) = (count_tiles(&band, &geometry, &sizes).unwrap(), count_tiles(&band, &geometry, &cut).unwrap());
        let (a_tiles, a_full) = a.per_wavefront().written_out(u64::MAX).unwrap();
        let (b_tiles, b_full) = b.per_wavefront().written_out(u64::MAX).unwrap();
        assert_eq!((a.first_wavefront, &a_tiles), (b.first_wavefront, &b_tiles), "{sizes:?} -> {cut:?}");
        // Whole where they were not: a tile along the cut row now lies inside its range.
        assert!(a_full.iter().zip(&b_full).all(|(x, y)| x <= y), "{sizes:?}: {a_full:?} vs {b_full:?}");
    }

    let (_, _, ssor) = ssor(&[7, 20, 13], &[4, 4]);
    assert_eq!(ssor.one_tile_sizes(&[1000, 1000]), [1000, 1000]);
}
