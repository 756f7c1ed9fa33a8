//! `stencil-run --target gpu` on a real GPU: every example, mapped by `gpu-map` (scheduled and
//! tiled, staged in shared memory or not, and the naive baseline where the program allows it),
//! compiled to PTX and run through
//! the CUDA driver, is bit-identical to the reference interpreter. Without an NVIDIA driver the
//! tests check the clean error instead and print "GPU checks skipped: no NVIDIA driver".
// PTX comes from MLIR: these tests need the `mlir` feature (on by default).
#![cfg(feature = "mlir")]

use std::path::PathBuf;
use stencil_driver::opt::Registries;
use stencil_driver::run::gpu::NO_DRIVER_MESSAGE;
use stencil_driver::run::{run_program, RunOptions, Target};
use stencil_runtime::cuda::CudaDevice;

fn examples() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut paths: Vec<PathBuf> =
        std::fs::read_dir(&dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "mlir"));
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            let name = p.file_stem()?.to_string_lossy().into_owned();
            text.contains("stencil.program").then_some((name, text))
        })
        .collect()
}

/// Sizes a GPU handles in milliseconds and that no tile size divides: time-like parameters 5,
/// the others 45 (3-D: 21).
fn params_of(name: &str, text: &str) -> Vec<(String, i64)> {
    let space = if name.contains("3d") { 21 } else { 45 };
    ["T", "N", "M", "L", "NX", "NY", "K"]
        .into_iter()
        .filter(|p| text.contains(&format!("{p} >=")) || text.contains(&format!("{p} =")))
        .map(|p| (p.to_string(), if p == "T" { 5 } else { space }))
        .collect()
}

/// Whether this machine can run the GPU tests; prints why not.
fn gpu_available() -> bool {
    match CudaDevice::open(0) {
        Ok(_) => true,
        Err(e) if e.is_unavailable() => {
            eprintln!("GPU checks skipped: no NVIDIA driver or GPU ({e})");
            false
        }
        Err(e) => panic!("a driver is installed but opening GPU 0 failed: {e}"),
    }
}

fn gpu_options(name: &str, text: &str, pipeline: &str) -> RunOptions {
    RunOptions {
        params: params_of(name, text).into_iter().collect(),
        target: Target::Gpu,
        pipeline: Some(pipeline.to_string()),
        check: true,
        ..RunOptions::default()
    }
}

#[test]
fn without_a_driver_target_gpu_is_a_clean_error() {
    if stencil_runtime::cuda::probe_driver().is_ok() {
        eprintln!("skipped: an NVIDIA driver is installed");
        return;
    }
    let (name, text) = examples().into_iter().find(|(n, _)| n == "jacobi-2d-5pt").expect("examples/jacobi-2d-5pt.mlir");
    let options = gpu_options(&name, &text, "builtin.module(gpu-map{naive})");
    let result = std::panic::catch_unwind(|| run_program(&name, &text, &options, &Registries::all(), &mut |_| {}));
    let error = result.expect("--target gpu must not panic without a driver").expect_err("ran without a driver");
    assert!(error.text.starts_with(&format!("error: {NO_DRIVER_MESSAGE}")), "unclear error: {}", error.text);
    eprintln!("GPU checks skipped: no NVIDIA driver");
}

fn check_all(pipeline: &str, skip_doacross: bool) {
    check_all_with(&|_| pipeline.to_string(), skip_doacross);
}

/// [`check_all`] with the pipeline chosen per example name.
fn check_all_with(pipeline_of: &dyn Fn(&str) -> String, skip_doacross: bool) {
    if !gpu_available() {
        return;
    }
    let registries = Registries::all();
    let (mut failures, mut checked) = (vec![], 0);
    let mut pipelines = std::collections::BTreeSet::new();
    for (name, text) in examples() {
        let pipeline = pipeline_of(&name);
        let pipeline = pipeline.as_str();
        pipelines.insert(pipeline.to_string());
        let options = gpu_options(&name, &text, pipeline);
        match run_program(&name, &text, &options, &registries, &mut |_| {}) {
            Ok(report) => {
                // run_program already fails on a difference; this also catches a missing check.
                assert!(report.check.as_ref().is_some_and(|c| c.passed), "{name}: {}", report.render_text());
                checked += 1;
            }
            // The naive baseline exists for DOALL programs only.
            Err(e) if skip_doacross && e.text.contains("DOACROSS") => {}
            Err(e) => failures.push(format!("{name}: {}", e.text)),
        }
    }
    let pipelines: Vec<String> = pipelines.into_iter().collect();
    let pipelines = pipelines.join(" / ");
    assert!(failures.is_empty(), "{pipelines}:\n{}", failures.join("\n\n"));
    eprintln!("{pipelines}: {checked} examples bit-identical on the GPU");
}

#[test]
fn every_example_tiled_on_the_gpu_matches_the_reference() {
    // Tiles staged in shared memory (the default): 3-D tiles of 16 would need 48³ elements per
    // array, so 3-D examples use tiles of 4.
    check_all_with(
        &|name| {
            if name.contains("3d") {
                "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8,8,4})".to_string()
            } else {
                "builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map{block=32,8})".to_string()
            }
        },
        false,
    );
}

#[test]
fn every_example_tiled_on_global_memory_on_the_gpu_matches_the_reference() {
    check_all("builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map{block=32,8 staging=false})", false);
}

#[test]
fn every_example_tiled_with_small_odd_tiles_on_the_gpu_matches_the_reference() {
    check_all("builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=4,2 grid=3})", false);
}

#[test]
fn every_doall_example_naive_on_the_gpu_matches_the_reference() {
    check_all("builtin.module(gpu-map{naive})", true);
}
