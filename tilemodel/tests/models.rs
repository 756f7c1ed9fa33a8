//! Both models on a layout small enough to evaluate by hand.

use proptest::prelude::*;
use stencil_tilemodel::device::Limiter;
use stencil_tilemodel::footprint::TileMemory;
use stencil_tilemodel::prajapati::{iterations_of, PrajapatiModel, PrajapatiParams, PrajapatiParts};
use stencil_tilemodel::thesis::{critical_tiles, thesis_features, ThesisModel, ThesisParams};
use stencil_tilemodel::*;

fn device() -> DeviceLimits {
    DeviceLimits { multiprocessors: 2, ..DeviceLimits::h100() }
}

/// Three wavefronts of 1, 3 and 5 tiles (1, 2 and 5 of them full); 4 steps of 40, 64, 64, 40
/// points; staged, 100 loads and 60 stores of 8-byte elements.
fn tile() -> TileInputs {
    TileInputs {
        sizes: vec![4, 8, 8],
        inter: InterTileCounts { first_wavefront: 0, tiles: vec![1, 3, 5], full: vec![1, 2, 5], repeat: None },
        points: vec![40, 64, 64, 40],
        groups: 1,
        memory: TileMemory {
            loads: 100,
            stores: 60,
            load_bytes: 800,
            store_bytes: 480,
            shared_bytes: 2048,
            copy_loops: vec![300, 200],
        },
        staged: true,
        wavefront_sums: Default::default(),
    }
}

fn layout(tile: &TileInputs) -> LayoutInputs<'_> {
    LayoutInputs {
        tile,
        block: Block::new(32, 1, 1),
        warps: vec![2, 2, 2, 2],
        // The copy loops of 300 and 200 cells on 32 threads: ⌈300/32⌉ + ⌈200/32⌉.
        copy_warps: 17,
        registers: 64,
        residency: Residency { blocks_per_sm: 2, limiter: Limiter::Registers },
        element_bytes: 8,
        operations_per_point: 5,
    }
}

#[test]
fn thesis_model_by_hand() {
    let tile = tile();
    let layout = layout(&tile);
    // B·P = 4. Wavefront 1: one tile on the slowest SM. Wavefront 2: ⌈3/2⌉ = 2 tiles, scaled by
    // (2 + 0.5)/3 for the border tile. Wavefront 3: two rounds, 2 + ⌈1/2⌉ = 3 tiles.
    let c = 1.0 + 2.0 * 2.5 / 3.0 + 3.0;
    // The work terms run at the issue efficiency of the warps resident per SM: one warp per
    // block, 1, 2 and 2 blocks resident (of B = 2), over the 16 warps an SM needs.
    let slowed = 1.0 * 16.0 + 2.0 * 2.5 / 3.0 * 8.0 + 3.0 * 8.0;
    // The staged copies walk a border tile's whole buffer: no border factor.
    let copies = 1.0 * 16.0 + 2.0 * 8.0 + 3.0 * 8.0;
    let weights = critical_tiles(&layout, &device()).unwrap();
    assert!((weights.border - c).abs() < 1e-12 && (weights.work - slowed).abs() < 1e-12);
    assert!((weights.copies - copies).abs() < 1e-12);
    // Barriers per tile: 4 steps + the one after the loads; N_mem: the copies' 17 warp-iterations.
    assert_eq!(stencil_tilemodel::inputs::cyclic_warps(300, 32) + stencil_tilemodel::inputs::cyclic_warps(200, 32), 17);
    let f = thesis_features(&layout, &device()).unwrap();
    // Set-up: the copies' weight times the block's one warp.
    let expected = [1.0, 3.0, c * 5.0, slowed * 8.0, slowed * 208.0, copies * 17.0, copies * 1.0];
    for (a, b) in f.iter().zip(expected) {
        assert!((a - b).abs() < 1e-9, "{f:?} vs {expected:?}");
    }
    let params = ThesisParams {
        sigma_ker: 1.0,
        sigma_blk: 2.0,
        sigma_thd: 3.0,
        alpha: 4.0,
        beta: -0.5,
        gamma: 0.25,
        sigma_tile: 0.125,
    };
    let p = ThesisModel { params }.predict(&layout, &device()).unwrap();
    let by_hand =
        1.0 + 3.0 * 2.0 + c * 5.0 * 3.0 + slowed * (8.0 * 4.0 - 208.0 * 0.5) + copies * 17.0 * 0.25 + copies * 0.125;
    assert!((p.seconds - by_hand).abs() < 1e-9);
    assert!((p.terms.iter().map(|t| t.seconds).sum::<f64>() - p.seconds).abs() < 1e-9);
}

/// Two statement groups per step on a block of four warps: the groups pay their loop turns
/// (`ΣG_e` twice) but a point's statements once (`ΣH_e` once), and the first warp alone sets
/// the tile up (the set-up feature is the copies' weight, not times the block's warps).
#[test]
fn thesis_features_count_groups_and_set_up_as_the_kernels_run() {
    let mut tile = tile();
    tile.groups = 2;
    let mut layout = layout(&tile);
    layout.block = Block::new(128, 1, 1);
    let weights = critical_tiles(&layout, &device()).unwrap();
    let f = thesis_features(&layout, &device()).unwrap();
    assert!((f[3] - weights.work * 8.0 * 2.0).abs() < 1e-9, "warps: {f:?}");
    assert!((f[4] - weights.work * 208.0).abs() < 1e-9, "points: {f:?}");
    assert!((f[6] - weights.copies).abs() < 1e-9, "set-up: {f:?}");
}

#[test]
fn prajapati_model_by_hand() {
    let tile = tile();
    let layout = layout(&tile);
    let parts = PrajapatiParts::new(&layout, &device()).unwrap();
    // k = 2 on 2 SMs: wavefront 1 holds 1 tile per SM (one round), wavefront 2 two (one
    // round, one overlapped tile), wavefront 3 two (⌈⌈5/2⌉/2⌉ = 2 rounds, 2 overlapped).
    assert_eq!((parts.rounds, parts.overlapped, parts.wavefronts), (4.0, 3.0, 3.0));
    // The block's one warp issues at 1/16 of an SM's rate alone (wavefront 1), at 2/16 with the
    // second block of wavefronts 2 and 3: the rounds' mean slowdown is (16 + 8 + 2·8) / 4 = 10.
    // The copies visit 500 cells of 8 bytes = 1000 words; f64 on 64 lanes, each step's 2
    // warp-iterations occupy 64 lanes: ⌈64/64⌉ × 4 steps = 4 iterations.
    assert_eq!((parts.words, parts.iterations, parts.compute_barriers), (10000.0, 40.0, 4.0));
    let params = PrajapatiParams { l_word: 1e-3, tau_sync: 0.01, t_sync: 0.5, c_iter: 0.1 };
    let (m, c) = (10.0 * 1000.0 * 1e-3 + 2.0 * 0.01, 10.0 * 4.0 * 0.1 + 4.0 * 0.01);
    let by_hand = 3.0 * 0.5 + 4.0 * (m + c) + 3.0 * f64::max(m, c);
    let p = PrajapatiModel { params }.predict(&layout, &device()).unwrap();
    assert!((p.seconds - by_hand).abs() < 1e-12, "{} vs {by_hand}", p.seconds);
    // The linear form of the branch the max takes gives the same time.
    let f = parts.features(m >= c);
    let linear: f64 = f.iter().zip(params.to_vector()).map(|(a, b)| a * b).sum();
    assert!((linear - by_hand).abs() < 1e-12);
}

/// Seed 004's Eq. 9 on blocks that fill an SM's issue rate or not: a tile's iterations and
/// transfers take `1/e` as long on a block of too few warps (the thesis model's `e_w`), its
/// barriers and launches do not; with 16 warps or more (`4 × 4` on the H100) the block runs at
/// the SM's full rate, and idle lanes of partial warps count (`32·G_e`, not the points).
#[test]
fn prajapati_slows_blocks_of_few_warps_and_counts_idle_lanes() {
    let mut tile = tile();
    tile.inter = InterTileCounts { first_wavefront: 0, tiles: vec![1, 1], full: vec![1, 1], repeat: None };
    let params = PrajapatiParams { l_word: 1e-3, tau_sync: 0.01, t_sync: 0.5, c_iter: 0.1 };
    let mut times = Vec::new();
    for (threads, warps) in
        [(64u32, vec![2u64, 2, 2, 2]), (128, vec![2, 2, 2, 2]), (512, vec![2, 2, 2, 2]), (1024, vec![2, 2, 2, 2])]
    {
        let layout = LayoutInputs { block: Block::new(threads, 1, 1), warps, ..layout(&tile) };
        let parts = PrajapatiParts::new(&layout, &device()).unwrap();
        let slowdown = 16.0 / f64::from(threads / 32).min(16.0);
        assert_eq!((parts.words, parts.iterations), (1000.0 * slowdown, 4.0 * slowdown), "{threads} threads");
        assert_eq!((parts.memory_barriers, parts.compute_barriers, parts.rounds), (2.0, 4.0, 2.0));
        times.push(PrajapatiModel { params }.predict(&layout, &device()).unwrap().seconds);
    }
    // 2 → 4 → 16 warps: faster; 16 → 32: the same (the SM's vector units are busy).
    assert!(times[0] > times[1] && times[1] > times[2], "{times:?}");
    assert_eq!(times[2].to_bits(), times[3].to_bits());
    // A step whose 40 points take 3 warp-iterations (idle lanes) costs ⌈96/64⌉ = 2, not ⌈40/64⌉ = 1.
    let layout = LayoutInputs { block: Block::new(512, 1, 1), warps: vec![3, 2, 2, 3], ..layout(&tile) };
    assert_eq!(PrajapatiParts::new(&layout, &device()).unwrap().iterations, 6.0);
}

#[test]
fn a_block_that_does_not_fit_is_an_error() {
    let tile = tile();
    let mut layout = layout(&tile);
    layout.residency.blocks_per_sm = 0;
    let e = ThesisModel { params: ThesisParams::from_vector([0.0; 7]) }.predict(&layout, &device()).unwrap_err();
    assert!(e.to_string().contains("does not fit"), "{e}");
}

/// The sums a tile keeps for its blocks (`TileInputs::wavefront_sums`) are those of each block:
/// predicting several blocks in turn on one tile gives the predictions of each on a fresh tile
/// (a key that left out the blocks per SM or the warps would hand one block another's sums).
#[test]
fn kept_wavefront_sums_are_each_blocks_own() {
    let thesis = ThesisModel { params: ThesisParams::from_vector([1.0, 0.5, 0.01, 0.1, -0.001, 0.002, 0.003]) };
    let prajapati =
        PrajapatiModel { params: PrajapatiParams { l_word: 1e-3, tau_sync: 0.01, t_sync: 0.5, c_iter: 0.1 } };
    let models: [&dyn TileModel; 2] = [&thesis, &prajapati];
    for model in models {
        let shared = tile();
        for k in [2u32, 1, 3, 2] {
            for threads in [32u32, 64, 96] {
                let on_shared = LayoutInputs {
                    block: Block::new(threads, 1, 1),
                    residency: Residency { blocks_per_sm: k, limiter: Limiter::Registers },
                    ..layout(&shared)
                };
                let fresh_tile = tile();
                let on_fresh = LayoutInputs { tile: &fresh_tile, ..on_shared.clone() };
                let (a, b) =
                    (model.predict(&on_shared, &device()).unwrap(), model.predict(&on_fresh, &device()).unwrap());
                assert_eq!(a.seconds.to_bits(), b.seconds.to_bits(), "{} on k = {k}, {threads} threads", model.name());
            }
        }
    }
}

proptest! {
    /// Eq. 9's iterations by shifts (powers of two) or divisions: `Σ ⌈x / lanes⌉`.
    #[test]
    fn iterations_are_the_sum_of_the_quotients(points in proptest::collection::vec(0u64..1 << 40, 0..40), lanes in 0u64..300) {
        let expected: u64 = points.iter().map(|&x| x.div_ceil(lanes.max(1))).sum();
        prop_assert_eq!(iterations_of(&points, lanes), expected);
        let power = 1u64 << (lanes % 12);
        let expected: u64 = points.iter().map(|&x| x.div_ceil(power)).sum();
        prop_assert_eq!(iterations_of(&points, power), expected);
    }
}
