//! The front door end to end: parse (and its located errors), pipelines (and refused ones),
//! printing, running on the reference interpreter and the simulator, builders, registered
//! passes, and what a build without MLIR says about GPU runs.

use stencil::builder::{Element, ProgramBuilder};
use stencil::{Compiler, Error, ProgramState, Target};

const JACOBI: &str = r#"stencil.program @j(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] defaults [T = 3, N = 40] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1] to [N - 1] {
      %l = stencil.access %A[-1] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %r : f64
      stencil.yield %s : f64
    }
    stencil.apply @S1 writes %A over [1] to [N - 1] {
      %b = stencil.access %B[0] : f64
      stencil.yield %b : f64
    }
  }
}
"#;

#[test]
fn parse_errors_are_located_with_the_source_line() {
    let e = Compiler::new().parse("bad.mlir", "func.func @f() {\n  %x = nope\n}\n").expect_err("does not parse");
    let d = e.as_diagnostic().expect("a diagnostic");
    assert_eq!(d.location.file_position().map(|(f, l, _)| (f.to_string(), l)), Some(("bad.mlir".to_string(), 2)));
    let text = e.to_string();
    assert!(text.starts_with("bad.mlir:2:"), "{text}");
    assert!(text.contains("\n  %x = nope\n"), "the source line follows: {text}");
}

#[test]
fn pipelines_run_and_wrong_orders_are_refused() -> Result<(), Error> {
    let compiler = Compiler::new();
    let mut module = compiler.parse("j.mlir", JACOBI)?;
    let e = compiler.run_pipeline(&mut module, "builtin.module(poly-codegen,gpu-map)").expect_err("refused");
    assert!(matches!(e, Error::Pipeline(ref m) if m.contains("both lower every 'stencil.program'")), "{e}");
    compiler.run_pipeline(&mut module, "builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen)")?;
    assert!(compiler.print(&module).contains("affine.for"));
    assert!(compiler.print_generic(&module).contains("\"affine.for\""));
    Ok(())
}

#[test]
fn runs_on_the_reference_interpreter_and_the_simulator_alike() -> Result<(), Error> {
    let compiler = Compiler::new();
    let original = compiler.parse("j.mlir", JACOBI)?;
    let mut mapped = original.clone();
    compiler.run_pipeline(&mut mapped, "builtin.module(gpu-map{naive})")?;
    let mut reference = compiler.initial_state(&original, None, ProgramState::new(), 3)?;
    let mut simulated = reference.clone();
    let r = compiler.run(&original, None, Target::Reference, &mut reference)?;
    let s = compiler.run(&mapped, None, Target::Simulator, &mut simulated)?;
    assert_eq!(r.stats.point_updates, 2 * 3 * 38);
    assert_eq!(s.sim.map(|sim| sim.launches.len()), Some(6));
    assert_eq!(reference.fields, simulated.fields);
    Ok(())
}

#[test]
fn built_programs_equal_parsed_ones_and_run() -> Result<(), Error> {
    let compiler = Compiler::new();
    let mut p = ProgramBuilder::new("j");
    p.param("T", 1)?.param("N", 3)?.default_param("T", 3)?.default_param("N", 40)?;
    let a = p.field("A", &["N"], Element::F64)?;
    let b = p.field("B", &["N"], Element::F64)?;
    let built = p.build(|body| {
        body.iterate("0", "T", |body, _| {
            body.apply("S0", b, &["1"], &["N - 1"], |s| {
                let l = s.access(a, &[-1])?;
                let r = s.access(a, &[1])?;
                s.addf(l, r)
            })?;
            body.apply("S1", a, &["1"], &["N - 1"], |s| s.access(b, &[0]))
        })
    })?;
    compiler.verify(&built)?;
    let parsed = compiler.parse("j.mlir", JACOBI)?;
    assert_eq!(compiler.print(&built), compiler.print(&parsed));
    let mut x = compiler.initial_state(&built, None, ProgramState::new(), 9)?;
    let mut y = x.clone();
    compiler.run(&built, None, Target::Reference, &mut x)?;
    compiler.run(&parsed, None, Target::Reference, &mut y)?;
    assert_eq!(x.fields, y.fields);
    Ok(())
}

#[test]
fn registered_passes_take_part_in_pipelines() -> Result<(), Error> {
    use stencil::ir::pass::{Pass, PassContext};
    struct Mark;
    impl Pass for Mark {
        fn argument(&self) -> &'static str {
            "mark"
        }
        fn run(
            &mut self,
            ir: &mut stencil::ir::Ir,
            op: stencil::ir::OpId,
            _: &PassContext<'_>,
        ) -> stencil::ir::DiagResult<()> {
            ir.set_attribute(op, "test.marked", stencil::ir::Attribute::Unit);
            Ok(())
        }
    }
    let mut compiler = Compiler::new();
    compiler.register_pass(stencil::PassInfo {
        argument: "mark",
        summary: "marks the anchor",
        options: vec![],
        factory: |_| Ok(Box::new(Mark)),
        contract: stencil::PassContract::default(),
    });
    let mut module = compiler.parse("j.mlir", JACOBI)?;
    compiler.run_pipeline(&mut module, "builtin.module(mark,poly-schedule)")?;
    assert!(compiler.print(&module).contains("test.marked"));
    Ok(())
}

#[cfg(not(feature = "mlir"))]
#[test]
fn without_mlir_gpu_runs_say_how_to_get_kernels() -> Result<(), Error> {
    let compiler = Compiler::new();
    let mut module = compiler.parse("j.mlir", JACOBI)?;
    compiler.run_pipeline(&mut module, "builtin.module(gpu-map{naive})")?;
    let mut state = compiler.initial_state(&module, None, ProgramState::new(), 0)?;
    let e = compiler.run(&module, None, Target::Gpu, &mut state).expect_err("no MLIR");
    assert!(matches!(e, Error::MlirUnavailable), "{e}");
    // Checked when the test compiles: the constant must agree with the feature.
    const { assert!(!stencil::MLIR_AVAILABLE) };
    Ok(())
}

#[cfg(feature = "mlir")]
#[test]
fn with_mlir_kernels_compile_to_ptx() -> Result<(), Error> {
    let compiler = Compiler::new();
    let mut module = compiler.parse("j.mlir", JACOBI)?;
    compiler.run_pipeline(&mut module, "builtin.module(gpu-map{naive})")?;
    let ptx = compiler.ptx(&module, &stencil::lowering::ptx::PtxOptions::with_found_libdevice())?;
    assert_eq!(ptx.len(), 1);
    assert!(ptx[0].ptx.contains(".entry"));
    assert_eq!(ptx[0].kernels.len(), 2);
    assert_eq!(stencil::ptx_spec(&ptx[0]).kernels.len(), 2);
    Ok(())
}
