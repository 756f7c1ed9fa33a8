//! Code generation speed and the cost of running tiled code (issue 6's benchmark targets):
//!
//! * `poly-schedule,poly-tile,poly-codegen` on 3-D Jacobi-27 and 2-D FDTD (target: well under
//!   a second in release), median of 5 runs;
//! * 2-D Jacobi-5 (`examples/jacobi-2d-5pt.mlir`) at 256² × 64 on the CPU interpreter:
//!   the untiled loops (original schedule), the Pluto schedule untiled, and tiled; target:
//!   tiled no more than 2× the untiled loops. The stencil interpreter's figure is for context.
//!
//! `cargo bench -p stencil-lowering --bench codegen`.

use std::time::Instant;

use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::pass::{PassManager, PassManagerOptions, PassRegistry};
use stencil_ir::{DialectRegistry, Module, SourceFile};
use stencil_runtime::{module_interface, run_module, FieldData, ProgramState};

type Error = Box<dyn std::error::Error>;

fn registries() -> (DialectRegistry, PassRegistry) {
    let mut passes = PassRegistry::with_generic_passes();
    stencil_passes::register_passes(&mut passes);
    stencil_lowering::register_passes(&mut passes);
    (stencil_dialects::registry(), passes)
}

fn parse(name: &str, text: &str, dialects: &DialectRegistry) -> Result<Module, Error> {
    let source = SourceFile::new(name, text);
    Ok(parse_source(&source, ParserConfig { registry: dialects, allow_unregistered: false }).map_err(|d| d.render())?)
}

fn run_pipeline(module: &mut Module, pipeline: &str) -> Result<(), Error> {
    let (dialects, passes) = registries();
    let mut pm = PassManager::parse(pipeline, &passes, PassManagerOptions::default())?;
    pm.run(&mut module.ir, module.top, &dialects).map_err(|d| d.render())?;
    Ok(())
}

fn codegen_time(name: &str, text: &str, pipeline: &str) -> Result<(), Error> {
    let (dialects, _) = registries();
    let mut times = Vec::new();
    for _ in 0..5 {
        let mut module = parse(name, text, &dialects)?;
        let start = Instant::now();
        run_pipeline(&mut module, pipeline)?;
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    println!("codegen  {name:<16} {:>8.1} ms  ({pipeline}, median of 5)", times[2] * 1e3);
    Ok(())
}

fn run_time(label: &str, text: &str, pipeline: Option<&str>, params: &[(&str, i64)]) -> Result<f64, Error> {
    let (dialects, _) = registries();
    let mut module = parse(label, text, &dialects)?;
    if let Some(p) = pipeline {
        run_pipeline(&mut module, p)?;
    }
    let mut state = ProgramState::new();
    for &(n, v) in params {
        state = state.with_param(n, v);
    }
    let interface = module_interface(&module, None, &state)?;
    for (i, f) in interface.fields.iter().enumerate() {
        state.fields.insert(f.name.clone(), FieldData::pseudo_random(f.shape.clone(), f.element, i as u64)?);
    }
    let stats = run_module(&module, None, &mut state)?;
    println!(
        "run      {label:<34} {:>8.3} s  {:>7.2} M point updates/s",
        stats.seconds,
        stats.updates_per_second() / 1e6
    );
    Ok(stats.seconds)
}

fn main() -> Result<(), Error> {
    let j27 = include_str!("../../examples/jacobi-3d-27pt.mlir");
    let fdtd = include_str!("../../examples/fdtd-2d.mlir");
    let tile = "builtin.module(poly-schedule,poly-tile{sizes=32},poly-codegen)";
    codegen_time("jacobi-3d-27pt", j27, tile)?;
    codegen_time("fdtd-2d", fdtd, tile)?;
    codegen_time(
        "fdtd-2d copied",
        fdtd,
        "builtin.module(poly-remove-false-deps,poly-schedule,poly-tile{sizes=32},poly-codegen)",
    )?;
    let j5 = include_str!("../../examples/jacobi-2d-5pt.mlir");
    let params = [("T", 64), ("N", 256), ("M", 256)];
    run_time("stencil interpreter (context)", j5, None, &params)?;
    let untiled = run_time("loops, original schedule", j5, Some("builtin.module(poly-codegen)"), &params)?;
    run_time("loops, Pluto schedule, untiled", j5, Some("builtin.module(poly-schedule,poly-codegen)"), &params)?;
    for sizes in ["32", "16,32,64", "8,64,64"] {
        let p = format!("builtin.module(poly-schedule,poly-tile{{sizes={sizes}}},poly-codegen)");
        let tiled = run_time(&format!("loops, tiled {sizes}"), j5, Some(&p), &params)?;
        println!("         tiled {sizes} / untiled loops = {:.2}x", tiled / untiled);
    }
    Ok(())
}
