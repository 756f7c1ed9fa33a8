//! Embedding the pipeline: parse a stencil program (2-D SOR, a Gauss-Seidel-like sweep), tile
//! it and map it to the GPU with a pass pipeline, print the kernels, run the mapped program on
//! the GPU simulator and check it against the reference interpreter bit for bit. With the
//! `mlir` feature it also compiles the kernels to PTX.
//!
//! ```sh
//! cargo run -p stencil --example embed_pipeline
//! cargo run -p stencil --example embed_pipeline --features mlir   # and PTX
//! ```

use std::process::ExitCode;
use stencil::{Compiler, Error, ProgramState, Target};

/// The program: `examples/sor-2d-5pt.mlir` of this repository.
const SOR: &str = include_str!("../../examples/sor-2d-5pt.mlir");

const PIPELINE: &str = "builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=32,4},canonicalize,cse)";

/// Whether the mapped program gave the reference's fields.
fn run() -> Result<bool, Error> {
    let compiler = Compiler::new();
    let original = compiler.parse("sor-2d-5pt.mlir", SOR)?;
    let mut mapped = original.clone();
    compiler.run_pipeline(&mut mapped, PIPELINE)?;
    let text = compiler.print(&mapped);
    let kernels = text.lines().filter(|l| l.trim_start().starts_with("gpu.func")).count();
    let launches = text.matches("gpu.launch_func").count();
    println!("{PIPELINE}: {kernels} kernel(s), {launches} launch site(s), {} lines of IR", text.lines().count());

    // Small parameters: the simulator checks every access for races.
    // Both from the same pseudo-random fields (seed 42): the original on the reference
    // interpreter, the mapped program on the simulator.
    let params = ProgramState::new().with_param("T", 4).with_param("N", 40).with_param("M", 40);
    let check = compiler.check(&original, &mapped, None, Target::Simulator, params, 42)?;
    let sim = check.transformed.sim.clone().unwrap_or_default();
    println!(
        "reference: {} point updates; simulator: {} launches, {} blocks, {} races",
        check.reference.stats.point_updates,
        sim.launches.len(),
        sim.blocks(),
        sim.race_count
    );
    if !check.bit_exact() {
        eprintln!("error: the mapped program's fields differ from the reference: {:?}", check.fields);
        return Ok(false);
    }
    println!("fields: bit-identical");

    #[cfg(feature = "mlir")]
    {
        let options = stencil::lowering::ptx::PtxOptions::with_found_libdevice();
        for module in compiler.ptx(&mapped, &options)? {
            println!(
                "PTX of @{} for {}: {} bytes, {} kernel(s)",
                module.name,
                module.chip,
                module.ptx.len(),
                module.kernels.len()
            );
        }
    }
    Ok(true)
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
