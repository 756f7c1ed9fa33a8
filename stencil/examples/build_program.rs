//! Building a program without text: a 2-D Jacobi (five points, two fields, a time loop) made
//! with the stencil-dialect builders, verified, printed, mapped to the GPU naively (one thread
//! per point) and run on the simulator against the reference interpreter.
//!
//! ```sh
//! cargo run -p stencil --example build_program
//! ```

use std::process::ExitCode;
use stencil::builder::{BuildError, Element, Field, ProgramBuilder};
use stencil::{Compiler, Error, Module, ProgramState, Target};

/// `B = (A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1] + A[i][j]) / 5`, then `A = B`, T times.
fn jacobi() -> Result<Module, BuildError> {
    let mut p = ProgramBuilder::new("jacobi_2d");
    p.param("T", 1)?.param("N", 3)?;
    p.default_param("T", 10)?.default_param("N", 64)?;
    let a = p.field("A", &["N", "N"], Element::F64)?;
    let b = p.field("B", &["N", "N"], Element::F64)?;
    p.build(|body| {
        body.iterate("0", "T", |body, _t| {
            body.apply("average", b, &["1", "1"], &["N - 1", "N - 1"], |s| {
                let mut sum = s.access(a, &[0, 0])?;
                for offsets in [[-1, 0], [1, 0], [0, -1], [0, 1]] {
                    let v = s.access(a, &offsets)?;
                    sum = s.addf(sum, v)?;
                }
                let fifth = s.constant(0.2, Element::F64);
                s.mulf(sum, fifth)
            })?;
            copy(body, "copy_back", b, a)
        })
    })
}

/// `to = from` over the interior: a helper of the embedding compiler, built like any code.
fn copy(body: &mut stencil::builder::BodyBuilder<'_>, name: &str, from: Field, to: Field) -> Result<(), BuildError> {
    body.apply(name, to, &["1", "1"], &["N - 1", "N - 1"], |s| s.access(from, &[0, 0]))
}

/// Whether the GPU mapping gave the reference's fields.
fn run() -> Result<bool, Error> {
    let compiler = Compiler::new();
    let program = jacobi()?;
    compiler.verify(&program)?;
    println!("{}", compiler.print(&program));

    let mut mapped = program.clone();
    compiler.run_pipeline(&mut mapped, "builtin.module(gpu-map{naive})")?;
    let params = ProgramState::new().with_param("T", 3).with_param("N", 24);
    let mut reference = compiler.initial_state(&program, None, params, 1)?;
    let mut simulated = reference.clone();
    let r = compiler.run(&program, None, Target::Reference, &mut reference)?;
    let s = compiler.run(&mapped, None, Target::Simulator, &mut simulated)?;
    println!(
        "reference: {} point updates; simulator: {} launches of one thread per point",
        r.stats.point_updates,
        s.sim.map_or(0, |sim| sim.launches.len())
    );
    let same = reference.fields == simulated.fields;
    println!("fields: {}", if same { "bit-identical" } else { "DIFFERENT" });
    Ok(same)
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
