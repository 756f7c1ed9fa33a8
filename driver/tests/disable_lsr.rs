//! `--disable-lsr` (LLVM's loop strength reduction off, process-wide: lowering's
//! `ptx::llvm_options`): the kernels `stencil-opt --emit=ptx` writes with it need fewer
//! registers, and the cost report of `stencil-run` says the PTX was compiled so.
//!
//! Each compilation runs the binaries in processes of their own: the option is process-global,
//! so it must not reach the other tests of this process.

// Compiling PTX needs MLIR.
#![cfg(feature = "mlir")]

use std::path::PathBuf;
use std::process::Command;
use stencil_lowering::ptxas::Ptxas;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples").join(format!("{name}.mlir"))
}

/// The most registers any kernel of `jacobi-3d-27pt`'s default mapping (streaming with
/// prefetch) takes at 32-bit `index`, compiled with `flags`.
fn streaming_registers(ptxas: &Ptxas, flags: &[&str]) -> u32 {
    let output = Command::new(env!("CARGO_BIN_EXE_stencil-opt"))
        .arg(example("jacobi-3d-27pt"))
        .args(["--pass-pipeline=builtin.module(gpu-map{strategy=auto},canonicalize,cse)", "--emit=ptx"])
        .arg("--gpu-index-bitwidth=32")
        .args(flags)
        .output()
        .expect("stencil-opt runs");
    assert!(output.status.success(), "stencil-opt failed: {}", String::from_utf8_lossy(&output.stderr));
    let ptx = String::from_utf8(output.stdout).expect("PTX is text");
    let report = ptxas.assemble(&ptx, "sm_90").unwrap_or_else(|e| panic!("{e}"));
    report.kernels().filter_map(|k| k.registers).max().expect("a kernel with registers")
}

/// Measured with ptxas 12.9: 105 registers with loop strength reduction, 48 without.
#[test]
fn disabling_loop_strength_reduction_takes_registers_off_the_streaming_kernel() {
    let Some(ptxas) = Ptxas::find_for_checks() else { return };
    let with = streaming_registers(&ptxas, &[]);
    let without = streaming_registers(&ptxas, &["--disable-lsr"]);
    println!("jacobi-3d-27pt streaming kernel: {with} registers with LSR, {without} without");
    assert!(without < with, "--disable-lsr: {without} registers, not fewer than {with}");
}

#[test]
fn the_cost_report_says_how_the_ptx_was_compiled() {
    if Ptxas::find_for_checks().is_none() {
        return;
    }
    let run = |flags: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_stencil-run"))
            .arg(example("jacobi-2d-5pt"))
            .args(["--param", "N=24", "--param", "M=20", "--param", "T=2", "--target", "sim", "--cost"])
            .arg("--pass-pipeline=builtin.module(gpu-map{naive})")
            .args(flags)
            .output()
            .expect("stencil-run runs");
        assert!(output.status.success(), "stencil-run failed: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).expect("the report is text")
    };
    let line = |report: &str| report.lines().find(|l| l.contains("registers from ptxas")).map(str::to_string);
    let off = line(&run(&["--disable-lsr"])).expect("a registers line");
    assert!(off.ends_with("PTX compiled by MLIR, LLVM loop strength reduction off"), "{off}");
    let on = line(&run(&[])).expect("a registers line");
    assert!(on.ends_with("PTX compiled by MLIR"), "{on}");
}
