//! Precompiled PTX (`stencil-opt --emit=ptx` → `stencil-run --ptx FILE`): the file the MLIR
//! build writes is matched, module by module, against what the run maps, and the run goes on;
//! stale PTX (the program or the pipeline changed), foreign PTX (another program), plain PTX
//! without our header and PTX of another index width are refused before anything runs.
//!
//! The runs use `--target sim`, which matches the file exactly as `--target gpu` does, so this
//! needs no GPU. The MLIR-free binary itself is exercised by the lit test
//! `tests/lit/gpu/precompiled-ptx.mlir`.

// Writing PTX needs MLIR.
#![cfg(feature = "mlir")]

use std::path::PathBuf;
use stencil_driver::opt::{run_opt, Emit, OptOptions, Registries};
use stencil_driver::run::{run_program, RunError, RunOptions, Target};

const TILED: &str = "builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=8,4})";

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples").join(format!("{name}.mlir"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `stencil-opt TEXT --pass-pipeline=PIPELINE --emit=ptx [--gpu-index-bitwidth=W]`.
fn emit_ptx(text: &str, pipeline: &str, index_bitwidth: Option<u32>) -> String {
    let options = OptOptions {
        pipeline: Some(pipeline.to_string()),
        emit: Emit::Ptx,
        gpu_index_bitwidth: index_bitwidth,
        verify_each: true,
        ..OptOptions::default()
    };
    let outcome = run_opt("input.mlir", text, &options, &Registries::all());
    assert!(outcome.success, "--emit=ptx failed: {}", outcome.messages);
    outcome.output
}

/// A file in a fresh temporary folder of this test.
fn temp_file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stencil-precompiled-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write the PTX file");
    path
}

fn run_sim(text: &str, pipeline: &str, ptx: PathBuf, index_bitwidth: Option<u32>) -> Result<String, RunError> {
    let mut options = RunOptions {
        params: [("T".to_string(), 3), ("N".to_string(), 21), ("M".to_string(), 19)].into_iter().collect(),
        target: Target::Sim,
        pipeline: Some(pipeline.to_string()),
        check: true,
        ..RunOptions::default()
    };
    options.gpu.ptx_file = Some(ptx);
    options.gpu.index_bitwidth = index_bitwidth;
    run_program("input.mlir", text, &options, &Registries::all(), &mut |_| {}).map(|report| {
        assert!(report.check.as_ref().is_some_and(|c| c.passed), "{}", report.render_text());
        report.render_text()
    })
}

#[test]
fn matching_ptx_runs_and_is_reported() {
    for (name, pipeline) in
        [("jacobi-2d-5pt", TILED), ("sor-2d-5pt", TILED), ("heat-2d", "builtin.module(gpu-map{naive})")]
    {
        let text = example(name);
        let ptx = temp_file("match", &format!("{name}.ptx"), &emit_ptx(&text, pipeline, None));
        let report = run_sim(&text, pipeline, ptx.clone(), None).unwrap_or_else(|e| panic!("{name}: {}", e));
        assert!(report.contains(&format!("ptx      {} matches @", ptx.display())), "{report}");
        assert!(report.contains("index 64 bit, sha256:"), "{report}");
    }
}

#[test]
fn stale_ptx_is_refused() {
    let text = example("jacobi-2d-5pt");
    let ptx = temp_file("stale", "jacobi.ptx", &emit_ptx(&text, TILED, None));
    // The program changed since the PTX was written: another weight.
    let changed = text.replacen("arith.constant 5.0 : f64", "arith.constant 4.0 : f64", 1);
    assert_ne!(changed, text);
    let error = run_sim(&changed, TILED, ptx.clone(), None).expect_err("stale PTX ran");
    assert!(error.to_string().contains("was compiled from different kernels than this run maps"), "{error}");
    // The pipeline changed: other tile sizes give other kernels.
    let other = "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8,4})";
    let error = run_sim(&text, other, ptx, None).expect_err("PTX of another pipeline ran");
    assert!(error.to_string().contains("was compiled from different kernels than this run maps"), "{error}");
}

#[test]
fn foreign_plain_and_wrong_width_ptx_are_refused() {
    let jacobi = example("jacobi-2d-5pt");
    let sor = example("sor-2d-5pt");
    let sor_ptx = emit_ptx(&sor, TILED, None);
    let foreign = temp_file("foreign", "sor.ptx", &sor_ptx);
    let error = run_sim(&jacobi, TILED, foreign, None).expect_err("another program's PTX ran");
    assert!(error.to_string().contains("holds PTX for gpu.module @sor_2d_5pt_kernels"), "{error}");

    let plain: String = sor_ptx.lines().filter(|l| !l.starts_with("// ")).map(|l| format!("{l}\n")).collect();
    let plain = temp_file("plain", "plain.ptx", &plain);
    let error = run_sim(&sor, TILED, plain, None).expect_err("plain PTX ran");
    assert!(error.to_string().contains("is not a PTX file written by stencil-opt --emit=ptx"), "{error}");

    let narrow = temp_file("width", "sor32.ptx", &emit_ptx(&sor, TILED, Some(32)));
    let error = run_sim(&sor, TILED, narrow.clone(), Some(64)).expect_err("PTX of another index width ran");
    assert!(
        error.to_string().contains("was compiled with --gpu-index-bitwidth=32, but this run asks for 64"),
        "{error}"
    );
    // Without the flag the run takes the file's width.
    run_sim(&sor, TILED, narrow, None).unwrap_or_else(|e| panic!("{}", e));

    let error = run_sim(&sor, TILED, PathBuf::from("/nonexistent/k.ptx"), None).expect_err("missing file");
    assert!(error.to_string().contains("cannot read --ptx file '/nonexistent/k.ptx'"), "{error}");
}
