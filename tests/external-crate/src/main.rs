//! What an embedding compiler does with `stencil`: build a program with the builders, parse
//! another from text, map both to the GPU with a pass pipeline, and check the simulator
//! against the reference interpreter. Exits non-zero when anything fails.

use std::process::ExitCode;
use stencil::builder::{Element, ProgramBuilder};
use stencil::{Compiler, Error, Module, ProgramState, Target};

/// 1-D three-point Gauss-Seidel sweep, in place: it needs the wavefront tiling.
const SWEEP: &str = r#"
stencil.program @sweep(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] defaults [T = 6, N = 50] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      %l = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %c : f64
      %u = arith.addf %s, %r : f64
      %k = arith.constant 0.3333333333333333 : f64
      %v = arith.mulf %u, %k : f64
      stencil.yield %v : f64
    }
  }
}
"#;

/// A 1-D Jacobi step from `A` into `B`, made without text.
fn built() -> Result<Module, Error> {
    let mut p = ProgramBuilder::new("smooth");
    p.param("N", 3)?.default_param("N", 100)?;
    let a = p.field("A", &["N"], Element::F64)?;
    let b = p.field("B", &["N"], Element::F64)?;
    Ok(p.build(|body| {
        body.apply("S", b, &["1"], &["N - 1"], |s| {
            let l = s.access(a, &[-1])?;
            let r = s.access(a, &[1])?;
            let sum = s.addf(l, r)?;
            let half = s.constant(0.5, Element::F64);
            s.mulf(sum, half)
        })
    })?)
}

/// Maps `original` with `pipeline` and compares the simulator with the reference.
fn check(compiler: &Compiler, original: &Module, pipeline: &str) -> Result<bool, Error> {
    compiler.verify(original)?;
    let mut mapped = original.clone();
    compiler.run_pipeline(&mut mapped, pipeline)?;
    let mut reference = compiler.initial_state(original, None, ProgramState::new(), 5)?;
    let mut simulated = reference.clone();
    compiler.run(original, None, Target::Reference, &mut reference)?;
    let run = compiler.run(&mapped, None, Target::Simulator, &mut simulated)?;
    let same = reference.fields == simulated.fields;
    println!(
        "{pipeline}: {} launches on the simulator, fields {}",
        run.sim.map_or(0, |s| s.launches.len()),
        if same { "bit-identical" } else { "DIFFERENT" }
    );
    Ok(same)
}

fn run() -> Result<bool, Error> {
    let compiler = Compiler::new();
    let sweep = compiler.parse("sweep.mlir", SWEEP)?;
    let tiled = check(&compiler, &sweep, "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=32})")?;
    let naive = check(&compiler, &built()?, "builtin.module(gpu-map{naive})")?;
    println!("stencil with MLIR: {}", stencil::MLIR_AVAILABLE);
    #[cfg(feature = "mlir")]
    {
        let mut mapped = sweep.clone();
        compiler.run_pipeline(&mut mapped, "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=32})")?;
        let options = stencil::lowering::ptx::PtxOptions::with_found_libdevice();
        for module in compiler.ptx(&mapped, &options)? {
            println!(
                "PTX of @{} for {}: {} kernel(s), {} bytes",
                module.name,
                module.chip,
                module.kernels.len(),
                module.ptx.len()
            );
        }
    }
    Ok(tiled && naive)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
