//! `stencil-run --target sim --cost` on mapped examples: the cost report has every kernel,
//! totals that are the sums of the kernels, per-update figures over the program's point
//! updates, registers from ptxas when it is installed (and says why not otherwise), occupancy
//! and an estimate; the JSON report carries it under `target_stats.sim.cost`.

use std::path::PathBuf;
use stencil_driver::opt::Registries;
use stencil_driver::run::cost::RegisterSource;
use stencil_driver::run::report::TargetStats;
use stencil_driver::run::{run_program, RunOptions, Target};
use stencil_lowering::ptx::toolkit::find_ptxas;

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples").join(format!("{name}.mlir"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn cost_options(pipeline: &str) -> RunOptions {
    RunOptions {
        params: [("T".to_string(), 2), ("N".to_string(), 20), ("M".to_string(), 24)].into_iter().collect(),
        target: Target::Sim,
        pipeline: Some(pipeline.to_string()),
        cost: true,
        ..RunOptions::default()
    }
}

#[test]
fn cost_reports_every_kernel_of_a_naive_mapping() {
    let text = example("jacobi-2d-5pt");
    let options = cost_options("builtin.module(gpu-map{naive})");
    let report = run_program("jacobi-2d-5pt.mlir", &text, &options, &Registries::all(), &mut |_| {}).unwrap();
    let Some(TargetStats::Sim(sim)) = &report.target_stats else { panic!("no simulator statistics") };
    let cost = sim.cost.as_ref().expect("--cost gives a cost report");
    let r = &cost.report;
    // 18 × 22 interior points, 2 time steps, two applies per step (B from A, A from B): one
    // kernel each.
    assert_eq!(r.point_updates, 2 * 2 * 18 * 22);
    assert_eq!(report.stats.point_updates, r.point_updates);
    assert_eq!(r.kernels.len(), 2);
    assert_eq!(r.total.launches, 4);
    assert_eq!(r.total.warp_instructions, r.kernels.iter().map(|k| k.work.warp_instructions).sum::<u64>());
    // The 5-point update reads A five times and the copy reads B once: 6 loads and 2 stores
    // of 8 bytes per two point updates; no shared memory, no barriers.
    assert_eq!(r.per_update(r.total.global_bytes() as f64), Some(32.0));
    assert_eq!((r.total.shared_accesses(), r.total.barriers), (0, 0));
    // DRAM: distinct 32-byte sectors per launch. A row of 24 f64 is 6 sectors. Per step the
    // update reads every sector of A (only the corners are not read, and they share sectors with
    // read elements) and writes the 18 interior rows of B (partial rows: whole sectors); the copy
    // reads B's and writes A's interior rows: (20 + 18) × 6 sectors read, 2 × 18 × 6 written.
    assert_eq!(r.total.dram_bytes_read, 2 * (20 + 18) * 6 * 32);
    assert_eq!(r.total.dram_bytes_written, 2 * 2 * 18 * 6 * 32);
    let util = r.total.lane_utilisation().unwrap();
    assert!(util > 0.0 && util <= 1.0, "lane utilisation {util}");
    // Registers: from ptxas when this machine has it and the build can compile PTX (the `mlir`
    // feature), else unknown with the reason.
    let ptxas = find_ptxas().map_err(|e| e.to_string()).and_then(|p| {
        if stencil_lowering::ptx::MLIR_AVAILABLE {
            Ok(p)
        } else {
            Err("this build has no MLIR to compile PTX".to_string())
        }
    });
    match (&cost.registers, ptxas) {
        (RegisterSource::Ptxas { chip, .. }, Ok(_)) => {
            assert_eq!(chip, "sm_90");
            assert!(r.kernels.iter().all(|k| k.resources.as_ref().is_some_and(|res| res.registers > 0)));
            assert!(r.kernels.iter().all(|k| k.occupancy.registers_known()));
        }
        (RegisterSource::Unknown { reason }, Err(_)) => {
            eprintln!("ptxas not found: registers unknown ({reason})");
            assert!(r.kernels.iter().all(|k| k.resources.is_none() && !k.occupancy.registers_known()));
        }
        (source, found) => panic!("registers {source:?} but ptxas lookup {found:?}"),
    }
    let estimate = r.estimate.expect("the naive kernels fit an SM");
    assert!(estimate.seconds >= 4.0 * r.device.launch_overhead_s, "four launches at least");
    let text = report.render_text();
    for expected in ["warp-instr", "lane util", "per point update", "blocks/SM", "estimate", "GCells/s"] {
        assert!(text.contains(expected), "no '{expected}' in:\n{text}");
    }
    let json = report.to_json();
    let cost = &json["target_stats"]["sim"]["cost"];
    assert_eq!(cost["kernels"].as_array().map(Vec::len), Some(2));
    assert_eq!(cost["per_update"]["global_bytes"].as_f64(), Some(32.0));
    assert!(cost["estimate"]["seconds"].as_f64().is_some_and(|s| s > 0.0));
    assert!(cost["gcells_per_second"].as_f64().is_some_and(|g| g > 0.0));
}

#[test]
fn cost_reports_barriers_and_shared_memory_of_staged_tiles() {
    let text = example("sor-2d-5pt");
    let options = cost_options("builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=16,4})");
    let report = run_program("sor-2d-5pt.mlir", &text, &options, &Registries::all(), &mut |_| {}).unwrap();
    let Some(TargetStats::Sim(sim)) = &report.target_stats else { panic!("no simulator statistics") };
    let r = &sim.cost.as_ref().expect("--cost gives a cost report").report;
    assert_eq!(r.kernels.len(), 1, "one tile kernel");
    let k = &r.kernels[0];
    assert_eq!(k.block, [16, 4, 1]);
    assert!(k.shared_bytes > 0, "tiles are staged in shared memory");
    assert!(k.work.shared_accesses() > 0 && k.work.barriers > 0);
    assert_eq!(k.work.barriers, sim.barriers);
    // Each block of 64 threads is two full warps: lanes idle only where code diverges.
    assert_eq!(k.work.warps, 2 * k.work.blocks);
}

#[test]
fn cost_needs_the_simulator() {
    let text = example("jacobi-2d-5pt");
    let options = RunOptions { target: Target::Ref, ..cost_options("builtin.module(gpu-map{naive})") };
    let error = run_program("jacobi-2d-5pt.mlir", &text, &options, &Registries::all(), &mut |_| {}).unwrap_err();
    assert!(error.text.contains("--cost") && error.text.contains("--target sim"), "{}", error.text);
}
