//! Reference interpreter throughput: point updates per second, single-threaded, for 2-D
//! Jacobi-5 (PolyBench form: `B = f(A); A = f(B)`, two 5-point sweeps per time step) and
//! 2-D SOR-5 (in place, forward lexicographic order) at 1024² × 10 time steps.
//!
//! `cargo bench -p stencil-runtime --bench interpreter` (override the size with
//! `STENCIL_BENCH_N` / `STENCIL_BENCH_T`).

use std::collections::BTreeMap;
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::SourceFile;
use stencil_runtime::{CompiledProgram, ElementType, FieldData, ProgramState};

const JACOBI_5: &str = r#"
stencil.program @jacobi2d(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>)
    params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S1 writes %B over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[0, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s = stencil.access %A[1, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %a1 = arith.addf %c, %w : f64
      %a2 = arith.addf %a1, %e : f64
      %a3 = arith.addf %a2, %s : f64
      %a4 = arith.addf %a3, %n : f64
      %k = arith.constant 2.000000e-01 : f64
      %v = arith.mulf %k, %a4 : f64
      stencil.yield %v : f64
    }
    stencil.apply @S2 writes %A over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %B[0, 0] : f64
      %w = stencil.access %B[0, -1] : f64
      %e = stencil.access %B[0, 1] : f64
      %s = stencil.access %B[1, 0] : f64
      %n = stencil.access %B[-1, 0] : f64
      %a1 = arith.addf %c, %w : f64
      %a2 = arith.addf %a1, %e : f64
      %a3 = arith.addf %a2, %s : f64
      %a4 = arith.addf %a3, %n : f64
      %k = arith.constant 2.000000e-01 : f64
      %v = arith.mulf %k, %a4 : f64
      stencil.yield %v : f64
    }
  }
}
"#;

const SOR_5: &str = r#"
stencil.program @sor2d(%A: !stencil.field<[N, N] x f64>, %omega: f64)
    params [T >= 1, N >= 3] defaults [omega = 1.250000e+00] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s1 = arith.addf %n, %s : f64
      %s2 = arith.addf %s1, %w : f64
      %s3 = arith.addf %s2, %e : f64
      %q = arith.constant 2.500000e-01 : f64
      %gs = arith.mulf %s3, %q : f64
      %one = arith.constant 1.000000e+00 : f64
      %keep = arith.subf %one, %omega : f64
      %t1 = arith.mulf %keep, %c : f64
      %t2 = arith.mulf %omega, %gs : f64
      %v = arith.addf %t1, %t2 : f64
      stencil.yield %v : f64
    }
  }
}
"#;

fn env_or(name: &str, default: i64) -> i64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn bench(label: &str, text: &str, fields: &[&str], n: i64, t: i64) -> Result<(), Box<dyn std::error::Error>> {
    let registry = stencil_dialects::registry();
    let source = SourceFile::new(label, text);
    let module = parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: false })?;
    let program = module
        .ir
        .collect_ops(module.top, stencil_ir::ir::WalkOrder::PreOrder)
        .into_iter()
        .find(|&op| module.ir.op_name(op) == "stencil.program")
        .ok_or("no stencil.program")?;
    let params = BTreeMap::from([("N".to_string(), n), ("T".to_string(), t)]);
    let compiled = CompiledProgram::new(&module.ir, program, &params)?;
    let mut state = ProgramState::new();
    for (i, f) in fields.iter().enumerate() {
        let n = n as usize;
        state.fields.insert(f.to_string(), FieldData::pseudo_random(vec![n, n], ElementType::F64, i as u64)?);
    }
    // Warm-up run (page faults, caches), then the measured one.
    compiled.run(&mut state)?;
    let stats = compiled.run(&mut state)?;
    println!(
        "{label:<10} {n}x{n} x {t} steps: {:>12} point updates in {:.3} s = {:.1} M point updates/s",
        stats.point_updates,
        stats.seconds,
        stats.updates_per_second() / 1e6
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = env_or("STENCIL_BENCH_N", 1024);
    let t = env_or("STENCIL_BENCH_T", 10);
    bench("jacobi-5", JACOBI_5, &["A", "B"], n, t)?;
    bench("sor-5", SOR_5, &["A"], n, t)?;
    Ok(())
}
