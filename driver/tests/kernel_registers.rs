//! Registers of the kernels `stencil-opt --emit=ptx` writes, by ptxas, under the two knobs that
//! change them without changing what the kernels compute:
//!
//! * LLVM's loop strength reduction and 32-bit pointers to shared memory, process-wide LLVM
//!   options (lowering's `ptx::llvm_options`; by default off and on, `--loop-strength-reduction`
//!   and `--short-pointers=false` give LLVM's own defaults): fewer registers without the first,
//!   32-bit shared addresses with the second, and the cost report of `stencil-run` says how the
//!   PTX was compiled where it is not the default;
//! * `gpu-map{occupancy=model}`: a kernel asks ptxas for the blocks per SM a model plans
//!   (`.minnctapersm`) — the tile model's with `block=auto`, the residency that hides DRAM
//!   latency for streaming tiles — and its registers fit that many blocks.
//!
//! Each compilation runs the binaries in processes of their own: the LLVM options are
//! process-global, so they must not reach the other tests of this process.

// Compiling PTX needs MLIR.
#![cfg(feature = "mlir")]

use std::path::PathBuf;
use std::process::Command;
use stencil_lowering::ptxas::Ptxas;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples").join(format!("{name}.mlir"))
}

/// The PTX `stencil-opt EXAMPLE --pass-pipeline=PIPELINE --emit=ptx --gpu-index-bitwidth=32
/// FLAGS` writes.
fn ptx_of(name: &str, pipeline: &str, flags: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_stencil-opt"))
        .arg(example(name))
        .arg(format!("--pass-pipeline={pipeline}"))
        .args(["--emit=ptx", "--gpu-index-bitwidth=32"])
        .args(flags)
        .output()
        .expect("stencil-opt runs");
    assert!(output.status.success(), "stencil-opt failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("PTX is text")
}

/// The most registers any kernel of `ptx` takes.
fn most_registers(ptxas: &Ptxas, ptx: &str) -> u32 {
    let report = ptxas.assemble(ptx, "sm_90").unwrap_or_else(|e| panic!("{e}"));
    report.kernels().filter_map(|k| k.registers).max().expect("a kernel with registers")
}

/// `jacobi-3d-27pt`'s streaming mapping with prefetch, at the occupancy ptxas chooses (the
/// default mapping, `strategy=auto`, adds `occupancy=model`: see the last test).
const STREAMING: &str = "builtin.module(gpu-map{strategy=streaming prefetch=true},canonicalize,cse)";

/// Measured with ptxas 12.9 (64-bit shared pointers, 32-bit `index`): 64 registers with loop
/// strength reduction, 48 without (105 and 48 before the streaming boxes' points were dealt over
/// grids fitted to them) — the most any kernel of `jacobi-3d-27pt`'s streaming mapping takes.
#[test]
fn loop_strength_reduction_puts_registers_on_the_streaming_kernel() {
    let Some(ptxas) = Ptxas::find_for_checks() else { return };
    let long = "--short-pointers=false";
    let with = most_registers(&ptxas, &ptx_of("jacobi-3d-27pt", STREAMING, &[long, "--loop-strength-reduction"]));
    let without = most_registers(&ptxas, &ptx_of("jacobi-3d-27pt", STREAMING, &[long]));
    println!("jacobi-3d-27pt streaming kernel: {with} registers with loop strength reduction, {without} without");
    assert!(without < with, "{without} registers without loop strength reduction, not fewer than {with}");
}

/// The shared-memory addresses are single 32-bit registers in the PTX. What that does to the
/// registers ptxas allocates depends on the kernel, so it is not asserted: measured with ptxas
/// 12.9 on this one, 105 → 62 before the fitted grids, 64 → 62 after them, 64 → 64 since the
/// copy-back is fused with the stencil (2026-11-29).
#[test]
fn short_pointers_address_shared_memory_with_32_bit_registers() {
    let shared_addresses = |ptx: &str| -> Vec<String> {
        ptx.lines()
            .filter(|l| l.trim_start().starts_with("ld.shared"))
            .filter_map(|l| l.split('[').nth(1).map(|a| a.split(['+', ']']).next().unwrap_or("").to_string()))
            .collect()
    };
    let long = shared_addresses(&ptx_of("jacobi-3d-27pt", STREAMING, &["--short-pointers=false"]));
    let short = shared_addresses(&ptx_of("jacobi-3d-27pt", STREAMING, &[]));
    assert!(!long.is_empty() && long.iter().all(|a| a.starts_with("%rd")), "64-bit addresses expected: {long:?}");
    assert!(!short.is_empty() && short.iter().all(|a| a.starts_with("%r") && !a.starts_with("%rd")), "{short:?}");
}

/// The `registers from ptxas` line of `stencil-run --target sim --cost` on a small naive
/// 2-D Jacobi run with `flags`.
fn cost_registers_line(flags: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_stencil-run"))
        .arg(example("jacobi-2d-5pt"))
        .args(["--param", "N=24", "--param", "M=20", "--param", "T=2", "--target", "sim", "--cost"])
        .arg("--pass-pipeline=builtin.module(gpu-map{naive})")
        .args(flags)
        .output()
        .expect("stencil-run runs");
    assert!(output.status.success(), "stencil-run failed: {}", String::from_utf8_lossy(&output.stderr));
    let report = String::from_utf8(output.stdout).expect("the report is text");
    report.lines().find(|l| l.contains("registers from ptxas")).map(str::to_string).expect("a registers line")
}

#[test]
fn the_cost_report_says_how_the_ptx_was_compiled() {
    if Ptxas::find_for_checks().is_none() {
        return;
    }
    let lsr = cost_registers_line(&["--loop-strength-reduction"]);
    assert!(lsr.ends_with("PTX compiled by MLIR, LLVM loop strength reduction on"), "{lsr}");
    let llvm = cost_registers_line(&["--short-pointers=false", "--loop-strength-reduction"]);
    assert!(llvm.ends_with("PTX compiled by MLIR, 64-bit shared pointers, LLVM loop strength reduction on"), "{llvm}");
    for defaults in [&[][..], &["--short-pointers", "--disable-lsr"], &["--loop-strength-reduction=false"]] {
        let line = cost_registers_line(defaults);
        assert!(line.ends_with("PTX compiled by MLIR"), "{defaults:?}: {line}");
    }
}

/// The cost report's registers are those of the kernels `--target gpu` would compile: at 32-bit
/// `index` when every field has fewer than 2^31 elements (as here), unless told otherwise.
#[test]
fn the_cost_report_compiles_at_the_index_width_of_a_gpu_run() {
    if Ptxas::find_for_checks().is_none() {
        return;
    }
    let default = cost_registers_line(&[]);
    assert!(default.contains("sm_90, 32-bit index,"), "{default}");
    let wide = cost_registers_line(&["--gpu-index-bitwidth=64"]);
    assert!(wide.contains("sm_90, 64-bit index,"), "{wide}");
}

/// `occupancy=model` on the staged tiles of `polybench-fdtd-2d` (`sizes=auto` at its declared
/// defaults, the model told the kernel takes 40 registers, so that it plans 3 blocks of 512
/// threads per SM): the PTX asks for the model's blocks per SM, and ptxas keeps the registers
/// within what that many blocks of the kernel's threads leave (64 registers without it, 40 with
/// it, ptxas 12.9), spilling nothing. (With the calibration's registers the model plans 2 blocks,
/// whose 64 registers the kernel has taken unasked since the staging masks got cheaper on
/// 2026-11-29; it took 83 before.)
#[test]
fn occupancy_by_model_keeps_registers_within_the_planned_blocks() {
    let Some(ptxas) = Ptxas::find_for_checks() else { return };
    let pipeline = |occupancy: &str| {
        format!("builtin.module(poly-schedule,poly-tile{{sizes=auto registers=40}},gpu-map{{block=auto occupancy={occupancy}}},canonicalize,cse)")
    };
    let by_model = ptx_of("polybench-fdtd-2d", &pipeline("model"), &[]);
    let (blocks, threads) = asked_residency(&by_model);
    let budget = 65536 / (blocks * threads);
    let report = ptxas.assemble(&by_model, "sm_90").unwrap_or_else(|e| panic!("{e}"));
    for k in report.kernels() {
        let registers = k.registers.expect("registers");
        println!("{}: {registers} registers for {blocks} blocks of {threads} threads", k.name);
        assert!(registers <= budget, "{registers} registers, more than {budget}");
        assert!(!k.spills(), "{} spills", k.name);
    }
    let by_ptxas = ptx_of("polybench-fdtd-2d", &pipeline("ptxas"), &[]);
    assert!(!by_ptxas.contains(".minnctapersm"));
    let free = most_registers(&ptxas, &by_ptxas);
    println!("without it: {free} registers");
    assert!(free > budget, "the kernel took {free} registers unasked: the test shows nothing");
}

/// The blocks per SM a kernel's PTX asks for (`.minnctapersm`) and its threads (`.maxntid`).
fn asked_residency(ptx: &str) -> (u32, u32) {
    let number_after = |directive: &str| -> Vec<u32> {
        let line =
            ptx.lines().find(|l| l.trim_start().starts_with(directive)).unwrap_or_else(|| panic!("no {directive}"));
        line.trim_start()[directive.len()..].split(',').map(|v| v.trim().parse().expect("a number")).collect()
    };
    (number_after(".minnctapersm")[0], number_after(".maxntid").iter().product())
}

/// `strategy=auto` maps `jacobi-3d-27pt` with streaming at `occupancy=model`: its tile kernel
/// asks for the 4 blocks of 256 threads per SM that keep 32 warps resident, and ptxas fits it in
/// the 64 registers that leaves without spilling. The cap binds where a streaming kernel would
/// take more on its own: heat-3d's compiled with LLVM's own code-generator flags (69 registers at
/// ptxas's choice, ptxas 12.9; 63 with the binaries' default flags; jacobi-3d-27pt's took 105
/// until the boxes' points were dealt over grids fitted to them, 64 since) is held to the same
/// 64, spilling nothing.
#[test]
fn auto_streaming_kernels_keep_the_residency_that_hides_dram_latency() {
    let auto = ptx_of("jacobi-3d-27pt", "builtin.module(gpu-map{strategy=auto},canonicalize,cse)", &[]);
    let llvm_defaults = ["--short-pointers=false", "--loop-strength-reduction"];
    let capped = ptx_of(
        "polybench-heat-3d",
        "builtin.module(gpu-map{strategy=streaming prefetch=true occupancy=model},canonicalize,cse)",
        &llvm_defaults,
    );
    for ptx in [&auto, &capped] {
        assert_eq!(asked_residency(ptx), (4, 256));
    }
    let Some(ptxas) = Ptxas::find_for_checks() else { return };
    for ptx in [&auto, &capped] {
        let report = ptxas.assemble(ptx, "sm_90").unwrap_or_else(|e| panic!("{e}"));
        for k in report.kernels() {
            let registers = k.registers.expect("registers");
            println!("{}: {registers} registers", k.name);
            assert!(registers <= 65536 / (4 * 256), "{}: {registers} registers", k.name);
            assert!(!k.spills(), "{} spills", k.name);
        }
    }
    let free = most_registers(&ptxas, &ptx_of("polybench-heat-3d", STREAMING, &llvm_defaults));
    println!("heat-3d without it: {free} registers");
    assert!(free > 64, "the kernel took {free} registers unasked: the test shows nothing");
}
