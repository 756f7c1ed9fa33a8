//! `stencil_driver::run::run_program` beyond the report: progress of simulator runs, the JSON of
//! errors, and refusing a program that frees its fields.

use std::path::PathBuf;
use stencil_driver::opt::Registries;
use stencil_driver::run::report::TargetStats;
use stencil_driver::run::{run_program, RunError, RunOptions, RunProgress, Target};

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples").join(format!("{name}.mlir"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn small(pipeline: &str, target: Target) -> RunOptions {
    RunOptions {
        params: [("T".to_string(), 3), ("N".to_string(), 20), ("M".to_string(), 24)].into_iter().collect(),
        target,
        pipeline: Some(pipeline.to_string()),
        ..RunOptions::default()
    }
}

#[test]
fn simulator_progress_counts_every_block_up_to_the_counted_total() {
    for pipeline in
        ["builtin.module(gpu-map{naive})", "builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=32,4})"]
    {
        let text = example("sor-2d-5pt");
        let text = if pipeline.contains("naive") { example("jacobi-2d-5pt") } else { text };
        let options = RunOptions { progress: true, ..small(pipeline, Target::Sim) };
        let mut seen: Vec<RunProgress> = vec![];
        let report = run_program("p.mlir", &text, &options, &Registries::all(), &mut |p| seen.push(p))
            .unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        let Some(TargetStats::Sim(sim)) = &report.target_stats else { panic!("no simulator statistics") };
        let last = seen.last().copied().unwrap_or_else(|| panic!("{pipeline}: no progress reported"));
        // The dry run of the host function counted exactly the blocks the simulation ran.
        assert_eq!((last.done, last.total, last.unit), (sim.blocks, sim.blocks, "blocks"), "{pipeline}");
        assert!(seen.windows(2).all(|w| w[0].done < w[1].done && w[0].total == w[1].total), "{pipeline}");
        assert_eq!(seen.len() as u64, sim.blocks, "{pipeline}: one report per block");
    }
}

#[test]
fn without_progress_the_simulator_reports_nothing() {
    let options = small("builtin.module(gpu-map{naive})", Target::Sim);
    let mut calls = 0;
    run_program("p.mlir", &example("jacobi-2d-5pt"), &options, &Registries::all(), &mut |_| calls += 1)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(calls, 0);
}

#[test]
fn reference_progress_counts_point_updates() {
    let options = RunOptions { pipeline: None, ..small("", Target::Ref) };
    let mut last = None;
    let report =
        run_program("p.mlir", &example("jacobi-2d-5pt"), &options, &Registries::all(), &mut |p| last = Some(p))
            .unwrap_or_else(|e| panic!("{e}"));
    let last = last.unwrap_or_else(|| panic!("no progress"));
    assert_eq!(
        (last.done, last.total, last.unit),
        (report.stats.point_updates, report.stats.point_updates, "point updates")
    );
}

#[test]
fn errors_in_json_carry_the_location_and_a_report_when_there_is_one() {
    let bad = "stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 2] defaults [N = 4] {\n  nope\n}\n";
    let e = run_program("bad.mlir", bad, &RunOptions::default(), &Registries::all(), &mut |_| {})
        .err()
        .unwrap_or_else(|| panic!("parses"));
    let json = e.to_json();
    assert_eq!(json["error"]["location"]["file"], "bad.mlir");
    assert_eq!(json["error"]["location"]["line"], 2);
    assert_eq!(json["error"]["location"]["column"], 3);
    assert!(json.get("report").is_none());
    // The report of a run travels beside the error (a failed --check).
    let report = run_program(
        "p.mlir",
        &example("jacobi-2d-5pt"),
        &small("builtin.module(cse)", Target::Ref),
        &Registries::all(),
        &mut |_| {},
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut e = RunError::new("the results differ");
    e.report = Some(Box::new(report));
    let json = e.to_json();
    assert_eq!(json["error"]["message"], "the results differ");
    assert_eq!(json["report"]["program"], "jacobi_2d_5pt");
}

#[test]
fn a_program_that_frees_its_field_is_an_error_at_the_dealloc() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/lit/driver/Inputs/frees-field.mlir");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    for check in [false, true] {
        let options = RunOptions { check, ..RunOptions::default() };
        let e = run_program("frees-field.mlir", &text, &options, &Registries::all(), &mut |_| {})
            .err()
            .unwrap_or_else(|| panic!("a freed field must not pass (check: {check})"));
        assert!(
            e.to_string().starts_with("frees-field.mlir:9:3: error: 'memref.dealloc' frees a field argument"),
            "{e}"
        );
    }
}

/// An SOR rewrite's point updates are its sweeps of the interior, on every target: MLSOR with
/// K = 4 alternating runs 8 sweeps per step and RBSOR one — not the instances of its masked
/// applies (each runs over the whole box and changes part of it) nor the original program's
/// one sweep per step. The rewrite's warning comes with the report, once.
#[test]
fn sor_rewrites_count_their_sweeps_on_every_target() {
    let interior = 18 * 22;
    let cases = [
        ("stencil-mlsor{K=4 P=8}", 8, Target::Ref),
        ("stencil-mlsor{K=4 P=8},gpu-map{strategy=mlsor}", 8, Target::Sim),
        ("stencil-mlsor{K=2 P=4 directions=forward}", 2, Target::Ref),
        ("stencil-rbsor", 1, Target::Ref),
        ("stencil-rbsor,gpu-map{naive}", 1, Target::Sim),
    ];
    for (passes, sweeps, target) in cases {
        let pipeline = format!("builtin.module({passes})");
        let options = RunOptions { progress: true, ..small(&pipeline, target) };
        let mut last = None;
        let report =
            run_program("p.mlir", &example("sor-2d-5pt"), &options, &Registries::all(), &mut |p| last = Some(p))
                .unwrap_or_else(|e| panic!("{pipeline}: {e}"));
        assert_eq!(report.stats.point_updates, 3 * sweeps * interior, "{pipeline} on {target:?}");
        // The interpreter's progress counts what it runs: the masked applies' instances.
        if target == Target::Ref {
            assert_eq!(last.map(|p| p.unit), Some("apply instances"), "{pipeline}");
        }
        assert_eq!(report.warnings.len(), 1, "{pipeline}: {:?}", report.warnings);
        assert!(report.warnings[0].contains("warning:") && report.warnings[0].contains("rewrote an SOR iteration"));
    }
}
