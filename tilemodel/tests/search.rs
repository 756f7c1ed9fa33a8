//! The search of thesis Alg. 5.1 on the benchmark stencils.

mod common;

use stencil_tilemodel::search::PruneReason;
use stencil_tilemodel::*;

fn run(scop: &stencil_poly::Scop, params: &[i64], options: &SearchOptions) -> SearchReport {
    let (shape, _) = common::shape(scop, params, true);
    search(&shape, "test", &Calibration::h100_default().unwrap(), options).unwrap()
}

#[test]
fn sor_searches_find_layouts_and_say_what_they_pruned() {
    for (scop, params) in [
        (common::sor(1), vec![64, 4096]),
        (common::sor(2), vec![32, 512, 512]),
        (common::sor(3), vec![4, 24, 24, 24]),
        (common::jacobi(2), vec![32, 512, 512]),
    ] {
        for model in ModelKind::ALL {
            for staged in [true, false] {
                let options = SearchOptions { model, staged, ..SearchOptions::default() };
                let report = run(&scop, &params, &options);
                let best = report.choice().unwrap();
                println!("{report}");
                assert!(best.prediction.seconds > 0.0 && best.prediction.seconds.is_finite());
                assert!(report.best.windows(2).all(|w| w[0].prediction.seconds <= w[1].prediction.seconds));
                if staged {
                    assert!(best.shared_bytes <= options.shared_limit);
                    if params.len() > 2 {
                        assert!(report.pruned.iter().any(|p| p.reason == PruneReason::SharedMemory));
                    }
                }
            }
        }
    }
}

#[test]
fn fixed_sizes_search_blocks_only() {
    let options = SearchOptions { fixed_sizes: Some(vec![8, 16, 16]), ..SearchOptions::default() };
    let report = run(&common::sor(2), &[16, 128, 128], &options);
    assert_eq!(report.sizes_considered, 1);
    assert!(report.best.iter().all(|r| r.sizes == [8, 16, 16]));
}

/// Every size is also evaluated on the block that follows its tile (`gpu-map`'s default), which
/// is no power of two here; a fixed block is searched alone.
#[test]
fn sizes_are_evaluated_on_the_block_that_follows_the_tile() {
    for (sizes, staged, own) in
        [(vec![6, 2, 6, 24], false, Block::new(24, 6, 1)), (vec![2, 4, 2, 12], true, Block::new(12, 2, 4))]
    {
        assert_eq!(Block::following_tile(&sizes), own);
        let options =
            SearchOptions { fixed_sizes: Some(sizes.clone()), staged, keep: 1000, ..SearchOptions::default() };
        let report = run(&common::sor(3), &[8, 64, 64, 64], &options);
        assert!(report.best.iter().any(|r| r.block == own), "{report}");
        let fixed = SearchOptions { fixed_block: Some(Block::new(32, 4, 2)), ..options };
        let report = run(&common::sor(3), &[8, 64, 64, 64], &fixed);
        assert!(report.best.iter().all(|r| r.block == Block::new(32, 4, 2)), "{report}");
    }
}

/// A time to beat (`SearchOptions::beat`, `staging=auto`'s second search) changes what the
/// search looks at, not what it finds: with the best layout's own time it finds that layout, and
/// with less than that it keeps nothing — without an error.
#[test]
fn a_time_to_beat_keeps_only_faster_layouts() {
    for (scop, params) in [(common::sor(2), vec![16, 256, 256]), (common::sor(3), vec![4, 24, 24, 24])] {
        for staged in [true, false] {
            let options = SearchOptions { staged, keep: 1, ..SearchOptions::default() };
            let free = run(&scop, &params, &options);
            let best = free.choice().unwrap();
            let seconds = best.prediction.seconds;
            let same = run(&scop, &params, &SearchOptions { beat: Some(seconds), ..options.clone() });
            let again = same.choice().unwrap();
            assert_eq!((&again.sizes, again.block), (&best.sizes, best.block));
            assert!(same.evaluated <= free.evaluated);
            let none = run(&scop, &params, &SearchOptions { beat: Some(seconds * 0.99), ..options.clone() });
            assert!(none.choice().is_none(), "{none}");
        }
    }
}

#[test]
fn an_impossible_search_says_why() {
    let options = SearchOptions { shared_limit: 8, ..SearchOptions::default() };
    let (shape, _) = common::shape(&common::sor(2), &[16, 128, 128], true);
    let e = search(&shape, "test", &Calibration::h100_default().unwrap(), &options).unwrap_err().to_string();
    assert!(e.contains("shared memory"), "{e}");
}

/// The branch and bound (sizes, then blocks, skipped once a lower bound of their time cannot beat
/// the layouts kept) changes how many layouts are evaluated, never the choice: every size of the grid
/// searched on its own finds nothing better than the search, among the sizes that pass the
/// tile size constraint (thesis Alg. 5.1 lines 2-4).
/// Both built-in calibrations: the derived H100 file, and the measured H200 file (the default),
/// whose tile set-up term `σ_tile` the H100 file leaves at 0.
fn built_in_calibrations() -> [Calibration; 2] {
    let measured = Calibration::built_in_default().unwrap();
    assert!(measured.thesis.sigma_tile > 0.0, "the default file has a set-up term to test");
    [Calibration::h100_default().unwrap(), measured]
}

#[test]
fn branch_and_bound_finds_the_exhaustive_best() {
    for calibration in built_in_calibrations() {
        branch_and_bound_finds_the_exhaustive_best_with(&calibration);
    }
}

fn branch_and_bound_finds_the_exhaustive_best_with(calibration: &Calibration) {
    let (mut bounded, mut block_bounded) = (0u64, 0u64);
    for (scop, params) in [
        (common::sor(1), vec![12, 96]),
        (common::sor(2), vec![5, 12, 12]),
        (common::jacobi(2), vec![4, 10, 10]),
        (common::sor(3), vec![3, 6, 6, 6]),
        (common::jacobi(3), vec![3, 6, 6, 6]),
    ] {
        let (shape, _) = common::shape(&scop, &params, true);
        let grids: Vec<Vec<i64>> =
            shape.row_ranges().iter().map(|&(lo, hi)| search::row_sizes(hi - lo + 1, 1024)).collect();
        for model in ModelKind::ALL {
            for staged in [true, false] {
                let options = SearchOptions { model, staged, keep: 1, ..SearchOptions::default() };
                let report = search(&shape, "test", calibration, &options).unwrap();
                let chosen = report.choice().unwrap().prediction.seconds;
                let mut exhaustive = f64::INFINITY;
                let mut index = vec![0usize; grids.len()];
                loop {
                    let sizes: Vec<i64> = index.iter().zip(&grids).map(|(&k, g)| g[k]).collect();
                    // Every block evaluated: a list that never fills turns both bounds off.
                    let fixed = SearchOptions { fixed_sizes: Some(sizes.clone()), keep: 1 << 20, ..options.clone() };
                    // Sizes over the shared-memory bound have no layout.
                    if let Ok(one) = search(&shape, "test", calibration, &fixed) {
                        let r = one.choice().unwrap();
                        let reuse = sizes.iter().map(|&s| s as f64).product::<f64>() / r.accesses.max(1) as f64;
                        if !staged || reuse >= report.reuse_threshold {
                            exhaustive = exhaustive.min(r.prediction.seconds);
                        }
                    }
                    if !search::next_index(&mut index, &grids) {
                        break;
                    }
                }
                assert!(
                    (chosen - exhaustive).abs() <= 1e-9 * exhaustive,
                    "{params:?} {model:?} staged={staged}: search {chosen} s, exhaustive {exhaustive} s"
                );
                for p in &report.pruned {
                    match p.reason {
                        PruneReason::Bound => bounded += p.count,
                        PruneReason::BlockBound => block_bounded += p.count,
                        _ => {}
                    }
                }
            }
        }
    }
    // Both bounds did skip sizes and blocks, so the comparison tested them.
    assert!(bounded > 0 && block_bounded > 0, "{bounded} sizes, {block_bounded} blocks");
}

/// The size bounds the search prunes with before counting (`TileGeometry::lower_bounds`'
/// wavefronts and tiles, a full tile's memory) and after (the tiles and full tiles per
/// wavefront counted) are at most the model's prediction of every block of the size, for both models, staged or not, on 3-D SOR and Jacobi at sizes where the tile
/// bound is far above `instances / (s_1 ⋯ s_m)`: were it above, the search could lose a better
/// layout.
#[test]
fn size_bounds_before_counting_are_below_every_prediction() {
    for calibration in built_in_calibrations() {
        size_bounds_before_counting_are_below_every_prediction_with(&calibration);
    }
}

fn size_bounds_before_counting_are_below_every_prediction_with(calibration: &Calibration) {
    use stencil_tilemodel::model::{BlockFacts, BoundInputs};
    let device = &calibration.device;
    let grid = [1i64, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128, 256];
    let blocks = search::block_candidates(3, device);
    for (scop, params) in [(common::sor(3), vec![12, 64, 64, 64]), (common::jacobi(3), vec![12, 64, 64, 64])] {
        let (shape, _) = common::shape(&scop, &params, true);
        let geometry = TileGeometry::new(&shape);
        let mut x = 777u64;
        for _ in 0..24 {
            let sizes = common::random_sizes(&mut x, &grid, 4);
            for staged in [true, false] {
                let Ok(tile) = TileInputs::new(&shape, &geometry, &sizes, staged) else { continue };
                let (wavefronts, tiles) = geometry.lower_bounds(&shape, &sizes);
                let full = geometry.full_tiles_lower_bound(&shape, &sizes);
                assert!(
                    full <= tile.inter.total_full() as f64,
                    "{sizes:?}: {full} full tiles > {}",
                    tile.inter.total_full()
                );
                let bound = BoundInputs {
                    points: &tile.points,
                    groups: tile.groups,
                    memory: &tile.memory,
                    staged,
                    element_bytes: shape.element_bytes(),
                    per_wavefront: None,
                    wavefronts,
                    tiles: tiles.max(full),
                    full,
                };
                let counted = BoundInputs {
                    per_wavefront: Some(tile.inter.per_wavefront()),
                    wavefronts: tile.inter.wavefronts() as f64,
                    tiles: tile.inter.total_tiles() as f64,
                    full: tile.inter.total_full() as f64,
                    ..bound
                };
                for kind in ModelKind::ALL {
                    let model = calibration.model(
                        kind,
                        "test",
                        staged,
                        shape.operations_per_point(),
                        shape.element_bytes(),
                        shape.data_bytes(),
                    );
                    let before = model.lower_bound(&bound, device);
                    let at_least = model.lower_bound(&counted, device);
                    assert!(before <= at_least * (1.0 + 1e-12), "{sizes:?} {kind:?}: {before} > {at_least}");
                    // The queue's order key (`Walk::order_key`): the plain tile bound, no
                    // memory; the search prunes the rest of the queue once a key is beyond the
                    // cutoff, and a visit's first bound is at least its key.
                    let no_memory = stencil_tilemodel::footprint::TileMemory::default();
                    let (wavefronts, plain) = stencil_tilemodel::inter::lower_bounds(&shape, &sizes);
                    let order = BoundInputs { wavefronts, tiles: plain, full: 0.0, memory: &no_memory, ..bound };
                    let key = model.lower_bound(&order, device);
                    assert!(key <= before * (1.0 + 1e-12), "{sizes:?} {kind:?}: order key {key} > {before}");
                    if !staged {
                        // A visit's first bound of a global size (`Walk::first_bound`): the
                        // cheaper tile bounds with the tile's global loads and stores.
                        assert_eq!(tile.memory, stencil_tilemodel::footprint::global_memory(&shape, &sizes));
                        let (wavefronts, tiles) = geometry.instance_lower_bounds(&shape, &sizes);
                        let full = geometry.full_tiles_volume_bound(&shape, &sizes);
                        let queue = BoundInputs { wavefronts, tiles: tiles.max(full), full, ..bound };
                        let first = model.lower_bound(&queue, device);
                        assert!(first <= before * (1.0 + 1e-12), "{sizes:?} {kind:?}: first bound {first} > {before}");
                        assert!(key <= first * (1.0 + 1e-12), "{sizes:?} {kind:?}: order key {key} > {first}");
                    }
                    for &block in &blocks {
                        let layout = LayoutInputs::new(&shape, &tile, block, 64, device).unwrap();
                        if layout.residency.blocks_per_sm == 0 {
                            continue;
                        }
                        let predicted = model.predict(&layout, device).unwrap().seconds;
                        // The per-block bounds the search prunes sizes with, before and after counting.
                        // Without the block's warps (their lower bound) and with them counted.
                        let fewest = BlockFacts {
                            threads: block.threads(),
                            blocks_per_sm: layout.residency.blocks_per_sm,
                            copy_warps: layout.copy_warps,
                            warps: None,
                        };
                        let exact = BlockFacts { warps: Some(layout.total_warps()), ..fewest };
                        for facts in [fewest, exact] {
                            for (when, inputs) in [("before", &bound), ("after", &counted)] {
                                for per_block in [
                                    model.lower_bound_over_blocks(inputs, &[facts], device),
                                    model.lower_bound_for_block(inputs, &facts, device),
                                ] {
                                    assert!(
                                        per_block <= predicted * (1.0 + 1e-12),
                                        "{sizes:?} on {block} {kind:?} staged={staged} {when} counting, warps {:?}: bound {per_block} > {predicted}",
                                        facts.warps
                                    );
                                }
                            }
                        }
                        assert!(
                            at_least <= predicted * (1.0 + 1e-12),
                            "{sizes:?} on {block} {kind:?} staged={staged}: bound {at_least} > {predicted}"
                        );
                    }
                }
            }
        }
    }
}

/// The search's early bound of a global size (its blocks' bound before counting with the cheaper
/// tile bounds, `TileGeometry::instance_lower_bounds` and `full_tiles_volume_bound`, and the
/// fewest warps) is at most the bound it stands in for (the layered tile bounds,
/// `TileGeometry::lower_bounds` and `full_tiles_lower_bound`, with and without each block's
/// warps counted), per block and over the blocks, for both models: a size the early bound skips
/// is one the later bound skips too; and so is the search's second early bound (the layered tile
/// bounds before the warps are counted). On 3-D Jacobi and SOR at GPU sizes, where the layers
/// raise the tile bounds.
#[test]
fn early_block_bounds_are_below_the_layered_ones() {
    use stencil_tilemodel::model::{BlockFacts, BoundInputs};
    use stencil_tilemodel::{device::residency, footprint::global_memory, intra::wavefront_points};
    let calibration = Calibration::h100_default().unwrap();
    let device = &calibration.device;
    let grid = [1i64, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 512];
    let blocks = search::block_candidates(3, device);
    let mut raised = 0;
    for (scop, params) in [(common::jacobi(3), vec![20, 512, 512, 512]), (common::sor(3), vec![16, 256, 256, 256])] {
        let (shape, _) = common::shape(&scop, &params, true);
        let geometry = TileGeometry::new(&shape);
        let mut x = 4242u64;
        for _ in 0..60 {
            let sizes = common::random_sizes(&mut x, &grid, 4);
            let points = wavefront_points(&shape, &sizes);
            let memory = global_memory(&shape, &sizes);
            let (wavefronts, cheap_tiles) = geometry.instance_lower_bounds(&shape, &sizes);
            let cheap_full = geometry.full_tiles_volume_bound(&shape, &sizes);
            let cheap = BoundInputs {
                points: &points,
                groups: shape.phases.len().max(1),
                memory: &memory,
                staged: false,
                element_bytes: shape.element_bytes(),
                per_wavefront: None,
                wavefronts,
                tiles: cheap_tiles.max(cheap_full),
                full: cheap_full,
            };
            let (_, tiles) = geometry.lower_bounds(&shape, &sizes);
            let full = geometry.full_tiles_lower_bound(&shape, &sizes);
            let layered = BoundInputs { tiles: tiles.max(full), full, ..cheap };
            if layered.tiles > cheap.tiles || layered.full > cheap.full {
                raised += 1;
            }
            let mut fewest = Vec::new();
            let mut exact = Vec::new();
            for &block in &blocks {
                let fits = residency(device, block.threads(), 64, memory.shared_bytes);
                if fits.blocks_per_sm == 0 || u64::from(block.threads()) > points.iter().sum::<u64>() {
                    continue;
                }
                let facts = BlockFacts {
                    threads: block.threads(),
                    blocks_per_sm: fits.blocks_per_sm,
                    copy_warps: 0,
                    warps: None,
                };
                let warps = stencil_tilemodel::intra::wavefront_warps(&shape, &sizes, block).unwrap();
                fewest.push(facts);
                exact.push(BlockFacts { warps: Some(warps.iter().sum::<u64>() * cheap.groups as u64), ..facts });
            }
            for kind in ModelKind::ALL {
                let model = calibration.model(
                    kind,
                    "test",
                    false,
                    shape.operations_per_point(),
                    shape.element_bytes(),
                    shape.data_bytes(),
                );
                let early = model.lower_bound_over_blocks(&cheap, &fewest, device);
                let [early_layered, with_warps] =
                    [&fewest, &exact].map(|facts| model.lower_bound_over_blocks(&layered, facts, device));
                // The search's second early bound (layered tiles, the blocks' facts before their
                // warps) is below the bound with the warps counted.
                assert!(
                    early_layered <= with_warps,
                    "{sizes:?} {kind:?}: layered without warps {early_layered} > with warps {with_warps}"
                );
                for (facts, later) in [(&fewest, early_layered), (&exact, with_warps)] {
                    assert!(early <= later, "{sizes:?} {kind:?}: early {early} > later {later}");
                    for (f, e) in facts.iter().zip(&fewest) {
                        let one = model.lower_bound_for_block(&cheap, e, device);
                        let later = model.lower_bound_for_block(&layered, f, device);
                        assert!(one <= later, "{sizes:?} {kind:?} {} threads: early {one} > later {later}", f.threads);
                    }
                }
            }
        }
    }
    // The layered bounds were above the cheaper ones on some sizes: the comparison tested them.
    assert!(raised > 0);
}

/// The shared-memory screening (Alg. 5.1 line 3) tallies every size of the grid over the limit,
/// and takes the first one met as its example, whether it computes each size or passes the rest
/// of a row once one is over (the bytes only grow along a row): its count and example are those
/// of `staged_shared_bytes` asked for every size in the grid's order, at several limits (rows
/// cut early and late).
#[test]
fn shared_memory_screening_tallies_every_size_over_the_limit() {
    for (scop, params) in [(common::sor(3), vec![4, 24, 24, 24]), (common::jacobi(2), vec![32, 512, 512])] {
        let (shape, _) = common::shape(&scop, &params, true);
        for shared_limit in [2 * 1024, 12 * 1024, 48 * 1024] {
            let options = SearchOptions { staged: true, shared_limit, ..SearchOptions::default() };
            let report = search(&shape, "test", &Calibration::h100_default().unwrap(), &options).unwrap();
            let grids: Vec<Vec<i64>> =
                shape.row_ranges().iter().map(|&(lo, hi)| search::row_sizes(hi - lo + 1, options.max_size)).collect();
            let mut index = vec![0usize; grids.len()];
            let (mut all, mut over, mut first) = (0u64, 0u64, None);
            loop {
                let sizes: Vec<i64> = index.iter().zip(&grids).map(|(&k, g)| g[k]).collect();
                all += 1;
                let bytes = footprint::staged_shared_bytes(&shape, &sizes).unwrap();
                if bytes > shared_limit {
                    over += 1;
                    let text = sizes.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
                    first.get_or_insert(format!("{text} needs {bytes} bytes > {shared_limit} bytes"));
                }
                // The next size, the last row fastest.
                let next = (0..index.len()).rev().find(|&k| {
                    index[k] += 1;
                    let more = index[k] < grids[k].len();
                    if !more {
                        index[k] = 0;
                    }
                    more
                });
                if next.is_none() {
                    break;
                }
            }
            assert_eq!(report.sizes_considered, all);
            let region = report.pruned.iter().find(|p| p.reason == PruneReason::SharedMemory).unwrap();
            assert_eq!(region.count, over, "{params:?} at {shared_limit} bytes");
            assert_eq!(Some(&region.example), first.as_ref(), "{params:?} at {shared_limit} bytes");
        }
    }
}

/// The search visits sizes on several threads ahead of their turn and commits them in order
/// (`search::Ahead`): the report — the layouts kept, what was evaluated, every pruned region
/// with its count and first example — is the one-thread search's, whatever the threads.
#[test]
fn a_search_on_several_threads_reports_what_one_thread_does() {
    let calibration = Calibration::built_in_default().unwrap();
    for (scop, params) in [
        (common::sor(3), vec![6, 32, 32, 32]),
        (common::jacobi(3), vec![6, 32, 32, 32]),
        (common::sor(2), vec![16, 128, 128]),
        // (where visits made ahead met counts of their family that a commit kept meanwhile)
        (common::sor(3), vec![8, 64, 64, 64]),
    ] {
        let (shape, _) = common::shape(&scop, &params, true);
        for model in ModelKind::ALL {
            for (staged, keep) in [(true, 1), (false, 1), (false, 10)] {
                if params[1] == 64 && !staged {
                    continue;
                }
                let options = SearchOptions { model, staged, keep, threads: 1, ..SearchOptions::default() };
                let one = search(&shape, "test", &calibration, &options).unwrap();
                for threads in [2, 5] {
                    let many =
                        search(&shape, "test", &calibration, &SearchOptions { threads, ..options.clone() }).unwrap();
                    let what = format!("{model:?} staged={staged} keep={keep} on {threads} threads: {many}");
                    assert_eq!(many.best, one.best, "{what}");
                    assert_eq!(many.evaluated, one.evaluated, "{what}");
                    assert_eq!(many.pruned, one.pruned, "{what}");
                    assert_eq!(many.sizes_considered, one.sizes_considered, "{what}");
                }
            }
        }
    }
}

/// Sizes whose tiles would make more inter-tile wavefronts than one count holds
/// (`inter::MAX_WAVEFRONTS`) and whose counts do not repeat within that are pruned for that
/// reason, and the search goes on to larger ones (before, the first such size counted failed the
/// whole search): 1-D SOR over 2^28 sweeps of 2^24 points, where a count by period along the
/// time still has the sweeps' millions of wavefronts to write out.
#[test]
fn sizes_with_too_many_wavefronts_are_pruned_not_fatal() {
    let report =
        run(&common::sor(1), &[1 << 28, 1 << 24], &SearchOptions { staged: false, ..SearchOptions::default() });
    let region = report.pruned.iter().find(|p| p.reason == PruneReason::TooManyWavefronts);
    let region = region.unwrap_or_else(|| panic!("no size pruned for its wavefronts:\n{report}"));
    assert!(region.count > 0);
    assert!(region.example.contains("inter-tile wavefronts"), "{}", region.example);
    assert!(report.choice().is_some(), "a layout of larger tiles:\n{report}");
}

/// A run of 2^28 sweeps over 256 points: every size is counted by period (the repeated
/// stretch of wavefronts kept once), none is pruned for its wavefronts, and the choice may
/// launch more wavefronts than a direct count holds.
#[test]
fn long_runs_are_searched_whole() {
    let report = run(&common::sor(1), &[1 << 28, 256], &SearchOptions { staged: false, ..SearchOptions::default() });
    assert!(report.pruned.iter().all(|p| p.reason != PruneReason::TooManyWavefronts), "{report}");
    let best = report.choice().unwrap_or_else(|| panic!("no layout:\n{report}"));
    assert!(best.wavefronts as u64 > stencil_tilemodel::inter::MAX_WAVEFRONTS, "{best:?}");
    assert!(best.prediction.seconds.is_finite() && best.prediction.seconds > 0.0, "{best:?}");
}

/// `search::block_constraint_of` (what `stencil-calibrate compare` marks runs with) says what the
/// search does: of a size's blocks, it keeps exactly those the constraint admits.
#[test]
fn the_block_constraint_of_a_layout_is_the_searchs() {
    let (shape, _) = common::shape(&common::sor(1), &[512, 4096], true);
    let sizes = vec![64, 64];
    let of = |block| stencil_tilemodel::search::block_constraint_of(&shape, &sizes, block);
    assert_eq!(of(Block::new(128, 1, 1)), Some(PruneReason::BlockTooLarge));
    assert_eq!(of(Block::new(64, 1, 1)), None);
    let options =
        SearchOptions { fixed_sizes: Some(sizes.clone()), staged: false, keep: 1000, ..SearchOptions::default() };
    let report = search(&shape, "test", &Calibration::h100_default().unwrap(), &options).unwrap();
    assert!(!report.best.is_empty());
    assert!(report.best.iter().all(|r| of(r.block).is_none()), "{report}");
    let excluded = report.pruned.iter().find(|p| p.reason == PruneReason::BlockTooLarge);
    assert!(excluded.is_some_and(|p| p.count > 0), "{report}");
}
