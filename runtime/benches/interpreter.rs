//! Reference interpreter throughput: point updates per second, single-threaded, for 2-D
//! Jacobi-5 (PolyBench form: `B = f(A); A = f(B)`, two 5-point sweeps per time step) and
//! 2-D SOR-5 (in place, forward lexicographic order) at 1024² × 10 time steps.
//!
//! `cargo bench -p stencil-runtime --bench interpreter` (override the size with
//! `STENCIL_BENCH_N` / `STENCIL_BENCH_T`).

use std::collections::BTreeMap;
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::SourceFile;
use stencil_runtime::{CompiledProgram, FieldData, ProgramState};

/// The benchmarked programs are the examples users run (`examples/`), so the figures describe
/// what `stencil-run` does on them.
const JACOBI_5: &str = include_str!("../../examples/polybench-jacobi-2d.mlir");
const SOR_5: &str = include_str!("../../examples/sor-2d-5pt.mlir");

fn env_or(name: &str, default: i64) -> i64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn bench(label: &str, text: &str, params: &[(&str, i64)]) -> Result<(), Box<dyn std::error::Error>> {
    let registry = stencil_dialects::registry();
    let source = SourceFile::new(label, text);
    let module = parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: false })?;
    let program = module
        .ir
        .collect_ops(module.top, stencil_ir::ir::WalkOrder::PreOrder)
        .into_iter()
        .find(|&op| module.ir.op_name(op) == "stencil.program")
        .ok_or("no stencil.program")?;
    let params: BTreeMap<String, i64> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let compiled = CompiledProgram::new(&module.ir, program, &params)?;
    let mut state = ProgramState::new();
    for (i, f) in compiled.interface().fields.iter().enumerate() {
        state.fields.insert(f.name.clone(), FieldData::pseudo_random(f.shape.clone(), f.element, i as u64)?);
    }
    // Warm-up run (page faults, caches), then the measured one.
    compiled.run(&mut state)?;
    let stats = compiled.run(&mut state)?;
    let shape: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    println!(
        "{label:<10} {}: {:>12} point updates in {:.3} s = {:.1} M point updates/s",
        shape.join(" "),
        stats.point_updates,
        stats.seconds,
        stats.updates_per_second() / 1e6
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = env_or("STENCIL_BENCH_N", 1024);
    let t = env_or("STENCIL_BENCH_T", 10);
    bench("jacobi-5", JACOBI_5, &[("N", n), ("T", t)])?;
    bench("sor-5", SOR_5, &[("N", n), ("M", n), ("T", t)])?;
    Ok(())
}
