//! Every example program mapped to the GPU dialect by `gpu-map` — scheduled and tiled with
//! several tile and block sizes, and the naive baseline where it exists — runs on the GPU
//! simulator race-free and bit-identical to the reference interpreter, with blocks and threads
//! in forward, reverse and shuffled order (issue 7: the CI check of the GPU mapping). Tiles
//! are staged in shared memory (the default) except in one run, which also checks that every
//! statement instance runs exactly once (with staging, global stores are write-backs).

mod common;

use common::{check_gpu_pipeline, check_gpu_pipeline_after, check_gpu_pipeline_sized, examples};
use stencil_runtime::gpu_sim::{Order, SimOptions};

/// Small sizes: time-like parameters 3, the others 10 (3-D: 7), so tiles of 2, 3 and 4 do not
/// divide the domains.
fn params_of(name: &str, text: &str) -> Vec<(&'static str, i64)> {
    // Every 3-D example has "3d" in its name.
    let space = if name.contains("3d") { 7 } else { 10 };
    // The names in `params [...]` (comments may mention others, e.g. SSOR's "K = 1 layer").
    let declared = text.split("params [").nth(1).and_then(|r| r.split(']').next()).unwrap_or_default();
    let declared: Vec<&str> = declared.split(',').filter_map(|p| p.split_whitespace().next()).collect();
    ["T", "N", "M", "L", "NX", "NY", "K"]
        .into_iter()
        .filter(|p| declared.contains(p))
        .map(|p| (p, if p == "T" { 3 } else { space }))
        .collect()
}

fn check_all(pipeline: &str, options: &SimOptions, skip: &[&str]) {
    check_all_after(None, pipeline, options, skip);
}

/// [`check_all`] comparing with each example after the passes `prefix`.
fn check_all_after(prefix: Option<&str>, pipeline: &str, options: &SimOptions, skip: &[&str]) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, text) in examples() {
        if skip.contains(&name.as_str()) {
            continue;
        }
        let params = params_of(&name, &text);
        match check_gpu_pipeline_after(&text, prefix, pipeline, &params, options) {
            Ok(report) => {
                assert_eq!(report.race_count, 0, "{name}: races");
                checked += 1;
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{pipeline}:\n{}", failures.join("\n\n"));
    eprintln!("{pipeline}: {checked} examples race-free and bit-identical on the simulator");
}

#[test]
fn tiled_forward_order() {
    check_all(
        "builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=4,2 grid=3})",
        &SimOptions::default(),
        &[],
    );
}

#[test]
fn tiled_reverse_and_shuffled_orders() {
    check_all(
        "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8 grid=2 staging=false})",
        &SimOptions::default().with_order(Order::Reverse),
        &[],
    );
    check_all(
        "builtin.module(poly-schedule,poly-tile{sizes=2},gpu-map{block=2,2,2 grid=5})",
        &SimOptions::default().with_order(Order::Shuffled { seed: 7 }),
        &[],
    );
}

#[test]
fn rectangular_tile_order_stages_each_launched_tile() {
    // inter=rectangular keeps the tile loops on the host: each tile is a one-block launch.
    check_all(
        "builtin.module(poly-schedule,poly-tile{sizes=3 inter=rectangular},gpu-map{block=4,2})",
        &SimOptions::default().with_order(Order::Shuffled { seed: 3 }),
        &[],
    );
}

#[test]
fn array_copied_tiled() {
    // Compared with the array-copied program: the copy statements run on the GPU too.
    check_all_after(
        Some("poly-remove-false-deps"),
        "builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=4,4 grid=4})",
        &SimOptions::default().with_order(Order::Shuffled { seed: 11 }),
        &[],
    );
}

#[test]
fn naive_baseline_for_doall_programs() {
    // The DOACROSS programs (in-place sweeps) have no naive mapping: gpu-map says so.
    let doacross = ["sor-1d-3pt", "sor-2d-5pt", "sor-3d-7pt", "ssor-2d-5pt", "polybench-seidel-2d"];
    check_all(
        "builtin.module(gpu-map{naive block=8,4 grid=3})",
        &SimOptions::default().with_order(Order::Reverse),
        &doacross,
    );
    for (name, text) in examples().into_iter().filter(|(n, _)| doacross.contains(&n.as_str())) {
        let err = check_gpu_pipeline(&text, "builtin.module(gpu-map{naive})", &[], &SimOptions::default()).unwrap_err();
        assert!(err.contains("gpu-map{naive} maps DOALL applies only"), "{name}: {err}");
    }
}

/// Every staging barrier before a tile computes is needed: without the one after the loads
/// (thesis Fig. 3.17 ①) a thread reads an element another thread has not loaded yet, without
/// the one after the membership masks a thread reads a mask slot not yet filled, and without
/// the one before them a block's next tile overwrites mask slots its previous tile's
/// store-back still reads — each a race in workgroup memory the simulator reports.
#[test]
fn dropping_the_staging_barrier_is_a_race() {
    use common::{parse, random_state, registries, run_pipeline};
    use stencil_ir::ir::WalkOrder;
    let (dialects, _) = registries();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/sor-2d-5pt.mlir")).unwrap();
    let params = [("T", 3), ("N", 12), ("M", 12)];
    // A staged tile starts with three barriers: before its masks (the block's previous tile may
    // still read them), after them, and ① after the loads. grid=1 makes the block take every
    // tile of a wavefront in turn, so each of the three guards something. One code path for
    // every tile (full-tiles=false), so that the first three barriers are the ones that run.
    for (which, what) in [(0, "the previous tile's masks"), (1, "the masks"), (2, "barrier ①")] {
        let mut module = parse(&text, &dialects).unwrap();
        run_pipeline(
            &mut module,
            "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8,4 grid=1 full-tiles=false partial-tiles=general staging=true})",
        )
        .unwrap();
        let mut state = random_state(&module, &params).unwrap();
        let intact = stencil_runtime::gpu_sim::run_module_sim(&module, None, &mut state, &SimOptions::default());
        assert!(intact.is_ok(), "{intact:?}");
        let barrier = module
            .ir
            .collect_ops(module.top, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&op| module.ir.op_name(op) == "gpu.barrier")
            .nth(which)
            .unwrap();
        module.ir.erase_op(barrier);
        let mut state = random_state(&module, &params).unwrap();
        let err = stencil_runtime::gpu_sim::run_module_sim(&module, None, &mut state, &SimOptions::default())
            .expect_err(what)
            .to_string();
        assert!(err.contains("race") && err.contains("workgroup"), "without {what}: {err}");
    }
}

/// Every example under a temporal-blocking strategy (`overlapped`, `streaming`): the DOALL
/// ones with several tiles per field (tiles of 3–6 on fields of 7–10), one, two and three time
/// steps per launch (so odd and even numbers of launches: the ping-pong buffers end in either
/// one), more shared memory than the static limit, blocks in every order — race-free and
/// bit-identical; the others refused with their reason. `extra`: more options (`prefetch=true`).
fn check_temporal_strategy(strategy: &str, extra: &str, refused: &[(&str, &str)], tiles: [&str; 3], least: usize) {
    let orders = [Order::Forward, Order::Reverse, Order::Shuffled { seed: 5 }];
    let mut checked = 0;
    let mut failures = vec![];
    for (name, text) in examples() {
        if let Some((_, why)) = refused.iter().find(|(n, _)| *n == name) {
            let pipeline = format!("builtin.module(gpu-map{{strategy={strategy}}})");
            let err = check_gpu_pipeline(&text, &pipeline, &[], &SimOptions::default()).unwrap_err();
            assert!(err.contains(why), "{name}: {err}");
            continue;
        }
        let rank =
            text.split("!stencil.field<[").nth(1).map_or(1, |s| s.split(']').next().unwrap_or("").split(',').count());
        let tile = tiles[rank.clamp(1, 3) - 1];
        let params = params_of(&name, &text);
        for (k, time_tile) in [1, 2, 3].into_iter().enumerate() {
            let pipeline = format!(
                "builtin.module(gpu-map{{strategy={strategy} tile={tile} time-tile={time_tile} block=4,2,2 shared-memory=232448 {extra}}})"
            );
            let options = SimOptions::default().with_order(orders[k]);
            match check_gpu_pipeline(&text, &pipeline, &params, &options) {
                Ok(report) => {
                    assert_eq!(report.race_count, 0, "{name}: races");
                    checked += 1;
                }
                Err(e) => failures.push(format!("{name} {pipeline}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked >= 3 * least, "only {checked} runs");
}

/// The programs no temporal-blocking strategy maps, and why.
/// (PolyBench fdtd-2d's `_fict_[t]` is a general read of a field no apply writes: the tiles
/// leave it in global memory and map the program.)
const NOT_TEMPORAL: [(&str, &str); 5] = [
    ("sor-1d-3pt", "maps DOALL applies only"),
    ("sor-2d-5pt", "maps DOALL applies only"),
    ("sor-3d-7pt", "maps DOALL applies only"),
    ("ssor-2d-5pt", "maps DOALL applies only"),
    ("polybench-seidel-2d", "maps DOALL applies only"),
];

/// `gpu-map{strategy=overlapped}`: temporal blocking with recomputed halos in every dimension.
#[test]
fn overlapped_temporal_blocking_for_doall_programs() {
    check_temporal_strategy("overlapped", "", &NOT_TEMPORAL, ["4", "3,4", "2,3,3"], 15);
}

/// `gpu-map{strategy=streaming}`: temporal blocking streaming along the outermost dimension
/// (chunks of 4–5 planes, so several chunks per field, each starting with its warm-up).
#[test]
fn streaming_temporal_blocking_for_doall_programs() {
    let mut refused = NOT_TEMPORAL.to_vec();
    refused.extend([("jacobi-1d-3pt", "streaming needs 2 or 3"), ("polybench-jacobi-1d", "streaming needs 2 or 3")]);
    check_temporal_strategy("streaming", "", &refused, ["4", "5,3", "4,3,5"], 13);
}

/// `gpu-map{strategy=streaming prefetch=true}`: the same with each plane loaded into registers
/// a stream step ahead (several elements per thread and dimension: the plane tiles plus halos
/// are wider than the block of 4×2×2).
#[test]
fn streaming_with_prefetched_planes_for_doall_programs() {
    let mut refused = NOT_TEMPORAL.to_vec();
    refused.extend([("jacobi-1d-3pt", "streaming needs 2 or 3"), ("polybench-jacobi-1d", "streaming needs 2 or 3")]);
    check_temporal_strategy("streaming", "prefetch=true", &refused, ["4", "5,3", "4,3,5"], 13);
}

/// Full/partial tile separation with the general loops in the partial tiles (`full-tiles=true
/// partial-tiles=general`; the default takes the guarded loops there): the tiles wholly inside
/// the domains run their own loops, the others the general ones — race-free and bit-identical,
/// staged and not.
#[test]
fn full_tile_separation() {
    check_all(
        "builtin.module(poly-schedule,poly-tile{sizes=2},gpu-map{block=4,2 full-tiles=true partial-tiles=general})",
        &SimOptions::default().with_order(Order::Shuffled { seed: 13 }),
        &[],
    );
    check_all(
        "builtin.module(poly-schedule,poly-tile{sizes=2},gpu-map{block=4,2 grid=3 staging=false full-tiles=true partial-tiles=general})",
        &SimOptions::default().with_order(Order::Reverse),
        &[],
    );
}

/// The full-tile and the partial-tile branch of a staged kernel share its workgroup buffers and
/// masks (one block runs one branch at a time): separating full tiles costs no shared memory.
#[test]
fn full_tile_branches_share_workgroup_memory() {
    use common::{parse, registries, run_pipeline};
    use stencil_ir::ir::WalkOrder;
    let (dialects, _) = registries();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/sor-2d-5pt.mlir")).unwrap();
    let attributions = |options: &str| {
        let mut module = parse(&text, &dialects).unwrap();
        run_pipeline(
            &mut module,
            &format!("builtin.module(poly-schedule,poly-tile{{sizes=4}},gpu-map{{staging=true {options}}})"),
        )
        .unwrap();
        let func = module
            .ir
            .collect_ops(module.top, WalkOrder::PreOrder)
            .into_iter()
            .find(|&op| module.ir.op_name(op) == "gpu.func")
            .unwrap();
        stencil_dialects::gpu::num_workgroup_attributions(&module.ir, func)
    };
    let general = attributions("block=4,4 full-tiles=false partial-tiles=general");
    assert!(general >= 2, "a buffer and a mask at least, got {general}");
    assert_eq!(attributions("block=4,4 full-tiles=true partial-tiles=general"), general);
    assert_eq!(attributions("block=4,4"), general, "the default: full tiles and guarded partial ones");
}

/// The kernels stay race-free and bit-identical after `loop-invariant-code-motion` moves their
/// invariant index and scalar computations out of the point and step loops.
#[test]
fn loop_invariant_code_motion_keeps_kernels_exact() {
    check_all(
        "builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=4,2},canonicalize,cse,loop-invariant-code-motion,cse)",
        &SimOptions::default().with_order(Order::Shuffled { seed: 31 }),
        &[],
    );
}

/// The same with `speculate=true`, which also moves invariant ops out of the guards in the loops
/// (a thread's active test around its point, the tile's bounds tests): still exact.
#[test]
fn speculative_loop_invariant_code_motion_keeps_kernels_exact() {
    check_all(
        "builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=4,2},canonicalize,cse,loop-invariant-code-motion{speculate=true},cse)",
        &SimOptions::default().with_order(Order::Shuffled { seed: 37 }),
        &[],
    );
}

/// Guarded partial tiles (`partial-tiles=guarded`): the full-tile loops with a domain test per
/// instance, in every tile (`full-tiles=false`) or in the partial ones (the default) — race-free
/// and bit-identical, staged and not, with tiles of 3 so that most tiles are partial.
#[test]
fn guarded_partial_tiles() {
    check_all(
        "builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=4,2 full-tiles=false partial-tiles=guarded})",
        &SimOptions::default().with_order(Order::Shuffled { seed: 29 }),
        &[],
    );
    check_all(
        "builtin.module(poly-schedule,poly-tile{sizes=2},gpu-map{block=4,2 grid=3 staging=false full-tiles=true partial-tiles=guarded})",
        &SimOptions::default().with_order(Order::Reverse),
        &[],
    );
}

/// The mapping record `pipeline` leaves on the host function of `text` (`stencil.gpu_mapping`),
/// by entry name; `Err` with the pipeline's error.
fn mapping_record(text: &str, pipeline: &str) -> Result<Vec<(String, stencil_ir::Attribute)>, String> {
    mapping_record_at(text, pipeline, &[])
}

/// [`mapping_record`] with the tile model's problem sizes `params` (what `--param` sets).
fn mapping_record_at(
    text: &str,
    pipeline: &str,
    params: &[(&str, i64)],
) -> Result<Vec<(String, stencil_ir::Attribute)>, String> {
    let (dialects, _) = common::registries();
    let mut module = common::parse(text, &dialects).expect("parses");
    let params: Vec<(String, i64)> = params.iter().map(|&(n, v)| (n.to_string(), v)).collect();
    stencil_passes::tile_model::set_problem_sizes(&mut module.ir, module.top, &params);
    common::run_pipeline(&mut module, pipeline)?;
    let mut found = None;
    module.ir.walk(module.top, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
        if let Some(stencil_ir::Attribute::Dictionary(entries)) =
            module.ir.attr(op, stencil_lowering::gpu_map::MAPPING_ATTR)
        {
            found = Some(entries.iter().map(|e| (e.name.to_string(), e.value.clone())).collect());
        }
    });
    Ok(found.expect("a recorded mapping"))
}

/// The strategy `pipeline` recorded on the host function of `text` (`stencil.gpu_mapping`).
fn mapped_strategy(text: &str, pipeline: &str) -> String {
    let record = mapping_record(text, pipeline).expect("maps");
    record
        .iter()
        .find(|(name, _)| name == "strategy")
        .and_then(|(_, value)| value.as_str())
        .map(str::to_string)
        .expect("a recorded strategy")
}

/// `strategy=auto` takes the strategy the H200 measurements favour: `overlapped` for 1-D/2-D
/// DOALL programs, `streaming` for 3-D ones (a stencil followed by a copy back, and ping-pong
/// stencils, whose first stencil is recomputed on a halo), `naive` where overlapped tiles do not apply (FDTD's affine-index reads), `wavefront`
/// for scheduled or tiled programs, and for SOR-like (DOACROSS) programs `wavefront` after
/// scheduling and tiling them itself: the same mapping as
/// `poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto}`. Every mapped program is race-free
/// and bit-identical.
#[test]
fn auto_strategy_takes_the_measured_best() {
    let auto = "builtin.module(gpu-map{strategy=auto})";
    let by_model = "builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})";
    let mut mapped = 0;
    let mut tiled_by_auto = 0;
    for (name, text) in examples() {
        let params = params_of(&name, &text);
        let doacross = NOT_TEMPORAL.iter().any(|(n, why)| *n == name && why.contains("DOALL"));
        let report =
            check_gpu_pipeline(&text, auto, &params, &SimOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(report.race_count, 0, "{name}: races");
        let rank =
            text.split("!stencil.field<[").nth(1).map_or(1, |s| s.split(']').next().unwrap_or("").split(',').count());
        // In 3-D every DOALL example streams: the stencil + copy-back programs fuse without a
        // halo, the ping-pong stencils with one (bench/results/2026-11-30-h200-82b2037).
        let expected = if doacross {
            "wavefront"
        } else if rank >= 3 {
            "streaming"
        } else {
            "overlapped"
        };
        assert_eq!(mapped_strategy(&text, auto), expected, "{name}");
        if doacross {
            // The tiles, block and prediction of the model's pipeline; only the reason is extra.
            let mut record = mapping_record(&text, auto).expect("maps");
            let reason = record.iter().position(|(n, _)| n == "auto").expect("auto's reason");
            let (_, why) = record.remove(reason);
            assert!(why.as_str().is_some_and(|w| w.contains("poly-tile{sizes=auto}")), "{name}: {why:?}");
            assert_eq!(record, mapping_record(&text, by_model).expect("maps"), "{name}");
            tiled_by_auto += 1;
        }
        mapped += 1;
    }
    assert_eq!(tiled_by_auto, 5);
    assert!(mapped >= 20, "only {mapped} programs mapped");
    // A given block is kept with the model's tiles.
    let sor = examples().into_iter().find(|(n, _)| n == "sor-2d-5pt").map(|(_, t)| t).expect("example");
    let given = "builtin.module(gpu-map{strategy=auto block=16,8})";
    let report = check_gpu_pipeline(&sor, given, &params_of("sor-2d-5pt", &sor), &SimOptions::default()).expect("maps");
    assert_eq!(report.race_count, 0);
    let record = mapping_record(&sor, given).expect("maps");
    let block = record.iter().find(|(n, _)| n == "block").map(|(_, v)| v.clone());
    assert_eq!(
        block,
        mapping_record(&sor, "builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=16,8})")
            .expect("maps")
            .into_iter()
            .find(|(n, _)| n == "block")
            .map(|(_, v)| v)
    );
    assert!(format!("{block:?}").contains("16") && format!("{block:?}").contains('8'), "{block:?}");
    let tiled = "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{strategy=auto block=auto})";
    for name in ["sor-2d-5pt", "jacobi-2d-5pt"] {
        let text = examples().into_iter().find(|(n, _)| n == name).map(|(_, t)| t).expect("example");
        let params = params_of(name, &text);
        let report = check_gpu_pipeline(&text, tiled, &params, &SimOptions::default()).expect("maps");
        assert_eq!(report.race_count, 0);
        assert_eq!(mapped_strategy(&text, tiled), "wavefront", "{name}");
    }
}

/// Where the tile model does not size an SOR-like program's tiles (here: the schedule keeps a
/// host loop inside the time loop that the model's iterators do not cover), `strategy=auto`
/// tiles it with fixed sizes and maps it race-free and bit-identical.
#[test]
fn auto_strategy_tiles_what_the_model_cannot_size_with_fixed_tiles() {
    let text = "stencil.program @p(%A: !stencil.field<[N, N] x f64>) params [T >= 1, N >= 4] defaults [T = 3, N = 6] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [2, 2] to [N - 2, N - 2] {
      %r0 = stencil.access %A[0, 1] : f64
      %r1 = stencil.access %A[-1, 0] : f64
      %w = arith.constant 0.3 : f64
      %acc0 = arith.mulf %r0, %w : f64
      %acc1 = arith.addf %acc0, %r1 : f64
      stencil.yield %acc1 : f64
    }
    stencil.apply @S1 writes %A over [2, 1] to [N - 2, N - 1] {
      %r0 = stencil.access %A[0, 0] : f64
      stencil.yield %r0 : f64
    }
    stencil.apply @S2 writes %A over [2, 1] to [N - 1, N - 2] {
      %r0 = stencil.access %A[0, 0] : f64
      stencil.yield %r0 : f64
    }
  }
}";
    let auto = "builtin.module(gpu-map{strategy=auto})";
    let model = "builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})";
    let (dialects, _) = common::registries();
    let mut module = common::parse(text, &dialects).expect("parses");
    let refused = common::run_pipeline(&mut module, model).expect_err("the model does not cover it");
    assert!(refused.contains("the tile model does not cover this tiling"), "{refused}");
    for (n, t) in [(6, 3), (11, 4)] {
        let report = check_gpu_pipeline(text, auto, &[("T", t), ("N", n)], &SimOptions::default()).expect("maps");
        assert_eq!(report.race_count, 0);
    }
    let record = mapping_record(text, auto).expect("maps");
    let entry = |name: &str| record.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).expect("recorded");
    assert!(entry("auto").as_str().is_some_and(|w| w.contains("tiles of 16")), "{record:?}");
    assert_eq!(entry("strategy").as_str(), Some("wavefront"));
    assert_eq!(entry("staging"), stencil_ir::Attribute::Bool(true));
}

/// A block with one thread along the outermost point loop of a step (3-D SOR's tiles of
/// 8x4x8x20 on 20×8×1, the default at 512³): each thread takes turns along `i` while `j` and
/// `k` are fixed per thread, so the partial tiles' guards bound the turns along `i` once, as a
/// window. Race-free and bit-identical at sizes that leave partial tiles on every side, staged
/// and on global memory, and the same for 2-D SOR on 16×1 (turns along the outer row).
#[test]
fn fixed_inner_points_bound_the_outer_thread_loop() {
    let sor3 = examples().into_iter().find(|(n, _)| n == "sor-3d-7pt").map(|(_, t)| t).expect("example");
    for staging in ["false", "true"] {
        let pipeline = format!(
            "builtin.module(poly-schedule,poly-tile{{sizes=3,2,3,5}},gpu-map{{block=5,3,1 staging={staging}}})"
        );
        let params = [("T", 4), ("N", 11), ("M", 9), ("L", 13)];
        let report = check_gpu_pipeline(&sor3, &pipeline, &params, &SimOptions::default()).expect("maps");
        assert_eq!(report.race_count, 0, "{pipeline}");
    }
    let sor2 = examples().into_iter().find(|(n, _)| n == "sor-2d-5pt").map(|(_, t)| t).expect("example");
    let pipeline = "builtin.module(poly-schedule,poly-tile{sizes=4,8,3},gpu-map{block=3,1 staging=false})";
    let report =
        check_gpu_pipeline(&sor2, pipeline, &[("T", 5), ("N", 13), ("M", 17)], &SimOptions::default()).expect("maps");
    assert_eq!(report.race_count, 0);
}

/// `staging=auto` (the default) with given tile sizes the model cannot estimate staged maps them
/// on global memory, saying why in the mapping record: 3-D SOR's tiles of 32 need 3.7 MB of
/// shared memory. `staging=true` refuses them with that reason; tiles of 4, which fit, are
/// staged or not as the model estimates, with nothing refused.
#[test]
fn auto_staging_maps_tiles_too_large_to_stage_on_global_memory() {
    let text = examples().into_iter().find(|(n, _)| n == "sor-3d-7pt").map(|(_, t)| t).expect("example");
    let params = [("T", 3), ("N", 9), ("M", 8), ("L", 10)];
    let large = "builtin.module(poly-schedule,poly-tile{sizes=32},gpu-map)";
    let report = check_gpu_pipeline(&text, large, &params, &SimOptions::default()).expect("maps");
    assert_eq!(report.race_count, 0);
    let record = mapping_record(&text, large).expect("maps");
    let entry = |record: &[(String, stencil_ir::Attribute)], name: &str| {
        record.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    };
    assert_eq!(entry(&record, "staging"), Some(stencil_ir::Attribute::Bool(false)));
    let why = entry(&record, "staging_refused").expect("the reason");
    assert!(why.as_str().is_some_and(|w| w.starts_with("shared-memory staging needs")), "{why:?}");
    let refused = mapping_record(&text, "builtin.module(poly-schedule,poly-tile{sizes=32},gpu-map{staging=true})")
        .expect_err("too large to stage");
    assert!(refused.contains("shared-memory staging needs"), "{refused}");
    let small = mapping_record(&text, "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map)").expect("maps");
    assert_eq!(entry(&small, "staging_by_model"), Some(stencil_ir::Attribute::Bool(true)));
    assert_eq!(entry(&small, "staging_refused"), None);
}

/// `staging=auto` with given tile sizes runs the staging the tile model estimates faster for
/// those sizes, and records both estimates. Each estimate is the one `block=auto` records for
/// that staging fixed (an independent path: the block search over the given sizes), the
/// winner is the faster (a tie stages), and the mapped program is bit-identical and
/// race-free. 2-D Jacobi's tiles of 16 at 128² and T=8 go to global memory, at 16384² they
/// stay staged: the comparison depends on the problem.
#[test]
fn auto_staging_of_given_sizes_follows_the_model() {
    let all = examples();
    let text_of = |name: &str| all.iter().find(|(n, _)| n == name).map(|(_, t)| t.clone()).expect("example");
    let value = |record: &[(String, stencil_ir::Attribute)], name: &str| {
        record.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    };
    let seconds = |record: &[(String, stencil_ir::Attribute)], name: &str| {
        value(record, name).and_then(|v| v.as_float()).unwrap_or_else(|| panic!("{name} in {record:?}"))
    };
    // (example, tile sizes, problem sizes)
    type Case<'a> = (&'a str, &'a str, &'a [(&'a str, i64)]);
    let cases: [Case; 4] = [
        ("jacobi-2d-5pt", "16", &[("T", 8), ("N", 128), ("M", 128)]),
        ("jacobi-2d-5pt", "16", &[("T", 50), ("N", 16384), ("M", 16384)]),
        ("sor-2d-5pt", "8", &[("T", 6), ("N", 40), ("M", 36)]),
        ("hhc-heat-3d", "4", &[("T", 4), ("N", 12), ("M", 11), ("L", 10)]),
    ];
    let mut chose = Vec::new();
    for (name, sizes, params) in cases {
        let text = text_of(name);
        let problem: Vec<String> = params.iter().map(|(n, v)| format!("{n}={v}")).collect();
        let with = |gpu_map: &str| {
            let pipeline = format!("builtin.module(poly-schedule,poly-tile{{sizes={sizes}}},gpu-map{{{gpu_map}}})");
            mapping_record_at(&text, &pipeline, params).unwrap_or_else(|e| panic!("{name} {gpu_map}: {e}"))
        };
        let auto = with("block=auto");
        let staged = seconds(&with("block=auto staging=true"), "predicted_s");
        let global = seconds(&with("block=auto staging=false"), "predicted_s");
        assert_eq!(value(&auto, "staging_by_model"), Some(stencil_ir::Attribute::Bool(true)), "{name}: {auto:?}");
        assert_eq!(value(&auto, "problem").and_then(|p| p.as_str().map(str::to_string)), Some(problem.join(",")));
        let is_staged = value(&auto, "staging") == Some(stencil_ir::Attribute::Bool(true));
        assert_eq!(is_staged, staged <= global, "{name} at {problem:?}: staged {staged} s, global {global} s");
        let (won, lost) = if is_staged { (staged, global) } else { (global, staged) };
        assert_eq!(seconds(&auto, "predicted_s"), won, "{name}");
        assert_eq!(seconds(&auto, "other_staging_s"), lost, "{name}");
        chose.push(is_staged);
        if params.iter().all(|&(_, v)| v <= 128) {
            let report = check_gpu_pipeline(
                &text,
                &format!("builtin.module(poly-schedule,poly-tile{{sizes={sizes}}},gpu-map)"),
                params,
                &SimOptions::default(),
            )
            .expect("maps");
            assert_eq!(report.race_count, 0, "{name}");
        }
    }
    assert_eq!(chose[..2], [false, true], "2-D Jacobi's tiles of 16: global at 128², staged at 16384²");
}

/// Given tile sizes past every row's whole range are one tile, whatever the sizes: the model
/// evaluates that tile (the sizes cut to the ranges), so tiles of 4096 and of 65536 get the
/// same staging, block and estimates — and tiles of 65536 no longer cost seconds of counting
/// intra-tile steps that do not exist.
#[test]
fn given_sizes_past_the_ranges_are_estimated_as_the_tiles_that_run() {
    let text = examples().into_iter().find(|(n, _)| n == "sor-2d-5pt").map(|(_, t)| t).expect("example");
    let params: &[(&str, i64)] = &[("T", 6), ("N", 40), ("M", 36)];
    let record = |sizes: &str| {
        let pipeline = format!("builtin.module(poly-schedule,poly-tile{{sizes={sizes}}},gpu-map{{block=auto}})");
        let mut record = mapping_record_at(&text, &pipeline, params).unwrap_or_else(|e| panic!("{sizes}: {e}"));
        record.retain(|(n, _)| n != "tile");
        record
    };
    let start = std::time::Instant::now();
    let huge = record("65536");
    assert!(start.elapsed().as_secs_f64() < 2.0, "tiles of 65536 took {:?}", start.elapsed());
    assert!(huge.iter().any(|(n, _)| n == "predicted_s"), "{huge:?}");
    assert_eq!(huge, record("4096"));
}

/// When `strategy=auto` cannot tile an SOR-like program (here: no staged tile fits 16 bytes of
/// shared memory), the error gives every strategy's reason, the model's among them, and the
/// program is left as it was: no schedule or tiling recorded on it.
#[test]
fn auto_strategy_leaves_a_program_it_cannot_tile_untouched() {
    use stencil_ir::ir::WalkOrder;
    let text = examples().into_iter().find(|(n, _)| n == "sor-2d-5pt").map(|(_, t)| t).expect("example");
    let (dialects, _) = common::registries();
    let mut module = common::parse(&text, &dialects).expect("parses");
    let error =
        common::run_pipeline(&mut module, "builtin.module(gpu-map{strategy=auto staging=true shared-memory=16})")
            .expect_err("nothing fits");
    assert!(error.contains("no strategy maps it") && error.contains("naive:"), "{error}");
    assert!(
        error.contains(
            "wavefront (the tile model's tiles): model-driven tile sizes: no tile layout survives the search"
        ),
        "{error}"
    );
    assert!(error.contains("wavefront (fixed tiles): shared-memory staging needs"), "{error}");
    let mut recorded = vec![];
    module.ir.walk(module.top, WalkOrder::PreOrder, &mut |op| {
        for name in ["poly.schedule", "poly.bands", "poly.tiling"] {
            if module.ir.attr(op, name).is_some() {
                recorded.push(name);
            }
        }
    });
    assert!(recorded.is_empty(), "left behind: {recorded:?}");
}

/// `gpu-map` leaves no common subexpression in its kernels (every strategy): the builders derive
/// each bound and subscript from its affine form on their own, and the cost report counts what
/// the kernels say, so repeats would be charged although no GPU compiler keeps them. Running
/// `cse` over the mapped kernels again must find nothing to merge.
#[test]
fn mapped_kernels_have_no_common_subexpressions_left() {
    use stencil_ir::ir::WalkOrder;
    use stencil_ir::pass::cse::eliminate_common_subexpressions;
    let (dialects, _) = common::registries();
    let pipelines = [
        "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map)",
        "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{full-tiles=false})",
        "builtin.module(gpu-map{naive})",
        "builtin.module(gpu-map{strategy=auto})",
    ];
    let mut checked = 0;
    for (name, text) in examples() {
        for pipeline in pipelines {
            let mut module = common::parse(&text, &dialects).expect("example parses");
            // Not every strategy maps every example (naive needs DOALL nests, for instance).
            if common::run_pipeline(&mut module, pipeline).is_err() {
                continue;
            }
            let kernels: Vec<_> = module
                .ir
                .collect_ops(module.top, WalkOrder::PreOrder)
                .into_iter()
                .filter(|&op| module.ir.op_name(op) == "gpu.module")
                .collect();
            for k in kernels {
                let erased = eliminate_common_subexpressions(&mut module.ir, k, &dialects);
                assert_eq!(erased, 0, "{name}, {pipeline}: cse still merges {erased} ops of the kernels");
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked} kernel modules checked");
}

/// `streaming`'s full columns (docs/passes.md): where a column's plane box lies in the apply's
/// box, each instance runs a copy without per-point tests. Jacobi-3D on 12³ with plane tiles of
/// 4×4 has such columns (those not at the field's edges): the kernel holds both copies of each
/// of a launch's two stencil instances, in each of its two stream loops (`B` goes back after the
/// last step only, so the last launch has a loop of its own): eight divisions by 7, one per
/// copy. The result is race-free and bit-identical, with and without prefetched planes.
#[test]
fn streaming_runs_full_columns_without_point_tests() {
    let (_, text) =
        examples().into_iter().find(|(name, _)| name == "jacobi-3d-7pt").expect("the jacobi-3d-7pt example");
    let params = [("T", 3), ("N", 12), ("M", 12), ("L", 12)];
    for prefetch in [false, true] {
        let pipeline = format!(
            "builtin.module(gpu-map{{strategy=streaming tile=4,4,4 time-tile=2 block=4,4 prefetch={prefetch}}})"
        );
        let report = check_gpu_pipeline(&text, &pipeline, &params, &SimOptions::default())
            .unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        assert_eq!(report.race_count, 0, "{pipeline}: races");
        let (dialects, _) = common::registries();
        let mut module = common::parse(&text, &dialects).expect("the example parses");
        common::run_pipeline(&mut module, &pipeline).expect("the pipeline runs");
        let printed = stencil_ir::printer::print_op(&module.ir, &dialects, module.top, Default::default());
        assert_eq!(printed.matches("arith.divf").count(), 8, "{pipeline}:\n{printed}");
    }
}

/// `streaming` builds its stream loop twice where a field goes back to global memory after the
/// time loop's last step only (heat-3d's `B`, which every launch recomputes before reading):
/// the kernel branches once on the launch, and the loop of the launches before the last stores
/// to one global field (`A`'s second buffer) where the last launch's stores to two. Race-free
/// and bit-identical at odd and even step counts, one and two steps per launch, with and
/// without prefetched planes.
#[test]
fn streaming_earlier_launches_carry_no_write_back_of_fields_kept_for_the_end() {
    use stencil_ir::ir::WalkOrder;
    let (_, text) =
        examples().into_iter().find(|(name, _)| name == "polybench-heat-3d").expect("the polybench-heat-3d example");
    let (dialects, _) = common::registries();
    for (time_tile, prefetch) in [(1, false), (1, true), (2, true)] {
        let pipeline = format!(
            "builtin.module(gpu-map{{strategy=streaming tile=4,4,4 time-tile={time_tile} block=4,4 prefetch={prefetch}}})"
        );
        for steps in [3, 4] {
            let report = check_gpu_pipeline(&text, &pipeline, &[("T", steps), ("N", 12)], &SimOptions::default())
                .unwrap_or_else(|e| panic!("{pipeline}: {e}"));
            assert_eq!(report.race_count, 0, "{pipeline}, T = {steps}: races");
        }
        let mut module = common::parse(&text, &dialects).expect("the example parses");
        common::run_pipeline(&mut module, &pipeline).expect("the pipeline runs");
        let ir = &module.ir;
        let func = ir
            .collect_ops(module.top, WalkOrder::PreOrder)
            .into_iter()
            .find(|&op| ir.op_name(op) == "gpu.func" && ir.regions(op).len() == 1)
            .expect("a kernel");
        // The kernel's branch on the launch: the outermost `scf.if` whose branches both hold a
        // stream loop.
        let holds_loop =
            |region| ir.blocks(region).iter().any(|&b| ir.block_ops(b).iter().any(|&op| ir.op_name(op) == "scf.for"));
        let branch = ir
            .collect_ops(func, WalkOrder::PreOrder)
            .into_iter()
            .find(|&op| {
                ir.op_name(op) == "scf.if" && ir.regions(op).len() == 2 && ir.regions(op).iter().all(|&r| holds_loop(r))
            })
            .unwrap_or_else(|| panic!("{pipeline}: no branch on the launch"));
        let global_fields_stored = |region| {
            let mut stored = std::collections::HashSet::new();
            for &block in ir.blocks(region) {
                for op in ir.block_ops(block) {
                    ir.walk(op, WalkOrder::PreOrder, &mut |inner| {
                        if ir.op_name(inner) == "memref.store" {
                            let memref = ir.operands(inner)[1];
                            let global = ir.value_type(memref).as_memref().is_some_and(|m| m.memory_space.is_none());
                            if global {
                                stored.insert(memref);
                            }
                        }
                    });
                }
            }
            stored.len()
        };
        let [last, earlier] = [0, 1].map(|k| global_fields_stored(ir.regions(branch)[k]));
        assert_eq!((last, earlier), (2, 1), "{pipeline}: global fields stored by the last launch and the others");
    }
}

/// `streaming` runs Jacobi's copy-back `A = B` inside the stencil's instance in full columns
/// when one step runs per launch (docs/passes.md): the stencil writes both fields back from the
/// value it computed, and the copy's ring-to-ring pass goes. Compared with the same program whose
/// copy is `A = B · 1.0` (the same values, but no pure copy): bit-exact and race-free both, the
/// same global stores and barriers, fewer workgroup-memory accesses — and the same ones with two
/// steps per launch, where the next step reads the copy's version from its ring.
#[test]
fn streaming_fuses_the_copy_back_into_the_stencil_in_full_columns() {
    let (_, text) =
        examples().into_iter().find(|(name, _)| name == "jacobi-3d-7pt").expect("the jacobi-3d-7pt example");
    let copy = "%b = stencil.access %B[0, 0, 0] : f64\n      stencil.yield %b : f64";
    assert!(text.contains(copy), "the example's copy-back changed");
    let scaled = text.replace(
        copy,
        "%b = stencil.access %B[0, 0, 0] : f64\n      %one = arith.constant 1.0 : f64\n      %c = arith.mulf %b, %one : f64\n      stencil.yield %c : f64",
    );
    // 14³: of the 3 × 3 columns of 4 × 4 points, the middle one is full.
    let params = [("T", 3), ("N", 14), ("M", 14), ("L", 14)];
    for (time_tile, fused) in [(1, true), (2, false)] {
        for prefetch in [false, true] {
            let pipeline = format!(
                "builtin.module(gpu-map{{strategy=streaming tile=4,4,4 time-tile={time_tile} block=4,4 prefetch={prefetch}}})"
            );
            let [copied, multiplied] = [&text, &scaled].map(|program| {
                let report = check_gpu_pipeline(program, &pipeline, &params, &SimOptions::default())
                    .unwrap_or_else(|e| panic!("{pipeline}: {e}"));
                assert_eq!(report.race_count, 0, "{pipeline}: races");
                let sum =
                    |f: fn(&stencil_runtime::gpu_sim::LaunchStats) -> u64| report.launches.iter().map(f).sum::<u64>();
                (sum(|l| l.global_stores), report.barriers(), sum(|l| l.workgroup_loads + l.workgroup_stores))
            });
            assert_eq!((copied.0, copied.1), (multiplied.0, multiplied.1), "{pipeline}: global stores and barriers");
            if fused {
                assert!(
                    copied.2 < multiplied.2,
                    "{pipeline}: {} workgroup accesses, {} without the fusion",
                    copied.2,
                    multiplied.2
                );
            } else {
                assert_eq!(copied.2, multiplied.2, "{pipeline}: workgroup accesses");
            }
        }
    }
}

/// `overlapped` renames Jacobi's copy-back `A = B` instead of running it (docs/passes.md): with
/// two steps or more per launch, `A` and `B` share one workgroup buffer of two slots and the
/// copy's statement is gone from the kernel; with one step the copy runs. Bit-exact and
/// race-free either way, on odd and even numbers of steps and launches, with boundary tiles
/// (whose values outside the copy's box are loaded into both slots).
#[test]
fn overlapped_renames_the_copy_back_instead_of_running_it() {
    let (_, text) =
        examples().into_iter().find(|(name, _)| name == "jacobi-2d-5pt").expect("the jacobi-2d-5pt example");
    let (dialects, _) = common::registries();
    for (time_tile, renamed) in [(1, false), (2, true), (3, true)] {
        let pipeline = format!("builtin.module(gpu-map{{strategy=overlapped tile=8,16 time-tile={time_tile}}})");
        for t in [4, 5, 7] {
            let params = [("T", t), ("N", 37), ("M", 29)];
            let report =
                check_gpu_pipeline(&text, &pipeline, &params, &SimOptions::default().with_order(Order::Reverse))
                    .unwrap_or_else(|e| panic!("{pipeline} T={t}: {e}"));
            assert_eq!(report.race_count, 0, "{pipeline} T={t}: races");
        }
        let mut module = common::parse(&text, &dialects).expect("the example parses");
        common::run_pipeline(&mut module, &pipeline).expect("the pipeline runs");
        let printed = stencil_ir::printer::print_op(&module.ir, &dialects, module.top, Default::default());
        let kernel = printed.split("gpu.func @jacobi_2d_5pt_k0").nth(1).expect("the tile kernel");
        let kernel = kernel.split("gpu.func").next().unwrap_or(kernel);
        let two_slots = kernel.contains("memref<2x");
        assert_eq!(two_slots, renamed, "{pipeline}: a two-slot buffer {}", if renamed { "missing" } else { "present" });
        // The stencil's one division stays either way (the copy has none).
        assert_eq!(kernel.matches("arith.divf").count(), 1, "{pipeline}");
    }
}

/// `gpu-map{static-shapes=true}`: the fields typed with the sizes the pipeline is given. Every
/// example under `strategy=auto` and on wavefront tiles without staging (global accesses whose
/// strides become constants) runs race-free and bit-identical on the simulator (without the
/// sizes the option is refused: this test gives them).
#[test]
fn static_shapes_for_the_given_sizes() {
    let pipelines = [
        "builtin.module(gpu-map{strategy=auto static-shapes=true})",
        "builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=4,2 staging=false static-shapes=true})",
    ];
    let mut failures = Vec::new();
    for pipeline in pipelines {
        for (name, text) in examples() {
            let params = params_of(&name, &text);
            match check_gpu_pipeline_sized(&text, pipeline, &params, &SimOptions::default()) {
                Ok(report) => assert_eq!(report.race_count, 0, "{name}: races"),
                Err(e) => failures.push(format!("{name} ({pipeline}): {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
