//! The front door end to end: parse (and its located errors), pipelines (and refused ones),
//! printing, running on the reference interpreter and the simulator, checks of a transformed
//! program against the original, builders, registered passes, and what a build without MLIR
//! says about GPU runs.

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
    assert!(matches!(e, Error::Pipeline(stencil::PipelineError::Order { .. })), "{e:?}");
    assert!(e.to_string().starts_with("invalid pass pipeline: pass 'gpu-map' cannot come after"), "{e}");
    assert!(e.to_string().contains("both lower every 'stencil.program'"), "{e}");
    let e = compiler.run_pipeline(&mut module, "builtin.module(cse").expect_err("refused");
    assert!(matches!(e, Error::Pipeline(stencil::PipelineError::Syntax(ref s)) if s.position == 18), "{e:?}");
    assert_eq!(e.to_string().matches("invalid pass pipeline").count(), 1, "said once: {e}");
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
fn a_failed_pipeline_leaves_the_module_as_it_was() -> Result<(), Error> {
    let compiler = Compiler::new();
    let mut module = compiler.parse("j.mlir", JACOBI)?;
    let before = compiler.print(&module);
    // poly-schedule runs and records its schedules; poly-tile then fails at run time (a band
    // of one row is tiled by 4 and 2: two sizes for one row).
    let e = compiler
        .run_pipeline(&mut module, "builtin.module(poly-schedule,poly-tile{sizes=4,2,2,2,2})")
        .expect_err("fails while running");
    assert!(matches!(e, Error::Diagnostic { .. }), "{e:?}");
    assert!(e.to_string().contains("\nstencil.program @j("), "rendered with its source line: {e}");
    assert_eq!(compiler.print(&module), before, "nothing of poly-schedule's work is left");
    Ok(())
}

#[test]
fn the_passes_warnings_come_back() -> Result<(), Error> {
    let compiler = Compiler::new();
    let mut module = compiler.parse("sor-2d-5pt.mlir", include_str!("../../examples/sor-2d-5pt.mlir"))?;
    let reported = compiler.run_pipeline(&mut module, "builtin.module(stencil-mlsor{K=2 P=4})")?;
    assert!(
        reported.iter().any(|d| d.message.contains("not dependence-preserving")),
        "the rewrite says its fields differ from the original's: {reported:?}"
    );
    Ok(())
}

#[test]
fn a_check_compares_the_original_fields_also_when_a_pass_adds_fields() -> Result<(), Error> {
    let compiler = Compiler::new();
    let original = compiler.parse("j.mlir", JACOBI)?;
    let mut transformed = original.clone();
    compiler.run_pipeline(
        &mut transformed,
        "builtin.module(poly-remove-false-deps,poly-schedule,poly-tile{sizes=8},gpu-map)",
    )?;
    let fields = |m: &stencil::Module| -> Result<Vec<String>, Error> {
        Ok(compiler.interface(m, None, &ProgramState::new())?.fields.into_iter().map(|f| f.name).collect())
    };
    let (before, after) = (fields(&original)?, fields(&transformed)?);
    assert!(after.len() > before.len(), "the pass added a field: {before:?} -> {after:?}");
    let check = compiler.check(&original, &transformed, None, Target::Simulator, ProgramState::new(), 5)?;
    assert_eq!(check.fields.keys().cloned().collect::<Vec<_>>(), before, "the original's fields are compared");
    assert!(check.bit_exact(), "{:?}", check.fields);
    assert!(check.transformed.sim.as_ref().is_some_and(|s| !s.launches.is_empty()));
    // A check that can fail: the same comparison against a program that computes another thing.
    let other = compiler.parse("j.mlir", &JACOBI.replace("arith.addf", "arith.subf"))?;
    let check = compiler.check(&other, &transformed, None, Target::Simulator, ProgramState::new(), 5)?;
    assert!(!check.bit_exact() && !check.within(1e-9));
    Ok(())
}

#[test]
fn gpu_targets_refuse_a_program_gpu_map_did_not_map() -> Result<(), Error> {
    let compiler = Compiler::new();
    let module = compiler.parse("j.mlir", JACOBI)?;
    let mut state = compiler.initial_state(&module, None, ProgramState::new(), 1)?;
    for target in [Target::Simulator, Target::Gpu] {
        let e = compiler.run(&module, None, target, &mut state).expect_err("not mapped");
        assert!(matches!(e, Error::NotGpuMapped { target: t } if t == target), "{e:?}");
        assert!(e.to_string().contains("gpu-map"), "{e}");
    }
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
        factory: stencil::ir::pass::PassFactory::new(|_| Ok(Box::new(Mark))),
        contract: stencil::PassContract::default(),
    });
    let mut module = compiler.parse("j.mlir", JACOBI)?;
    compiler.run_pipeline(&mut module, "builtin.module(mark,poly-schedule)")?;
    assert!(compiler.print(&module).contains("test.marked"));
    Ok(())
}

/// A pass factory is a closure: it captures the embedding compiler's state (here a shared list
/// of the programs the pass saw, read back after the pipeline) and each instance gets its own
/// copy of what it needs, built from the pipeline's options.
#[test]
fn pass_factories_capture_the_embedding_compilers_state() -> Result<(), Error> {
    use std::sync::{Arc, Mutex};
    use stencil::ir::pass::{Pass, PassContext};
    struct Collect {
        seen: Arc<Mutex<Vec<String>>>,
        tag: String,
    }
    impl Pass for Collect {
        fn argument(&self) -> &'static str {
            "collect"
        }
        fn run(
            &mut self,
            ir: &mut stencil::ir::Ir,
            op: stencil::ir::OpId,
            _: &PassContext<'_>,
        ) -> stencil::ir::DiagResult<()> {
            let programs = ir.collect_ops(op, stencil::ir::ir::WalkOrder::PreOrder);
            let mut seen = self.seen.lock().expect("not poisoned");
            for p in programs.into_iter().filter(|&p| ir.op_name(p) == "stencil.program") {
                seen.push(format!("{}:{}", self.tag, stencil::ir::symbols::symbol_name(ir, p).unwrap_or_default()));
            }
            Ok(())
        }
    }
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut compiler = Compiler::new();
    let shared = Arc::clone(&seen);
    compiler.register_pass(stencil::PassInfo {
        argument: "collect",
        summary: "records the programs it sees in the embedding compiler's list",
        options: vec![stencil::ir::pass::OptionInfo {
            name: "tag",
            kind: stencil::ir::pass::OptionKind::String,
            default: "first",
            description: "prefix of each record",
        }],
        factory: stencil::ir::pass::PassFactory::new(move |options| {
            Ok(Box::new(Collect { seen: Arc::clone(&shared), tag: options.string("tag").to_string() }))
        }),
        contract: stencil::PassContract::default(),
    });
    let mut module = compiler.parse("j.mlir", JACOBI)?;
    compiler.run_pipeline(&mut module, "builtin.module(collect,poly-schedule,collect{tag=second})")?;
    assert_eq!(*seen.lock().expect("not poisoned"), ["first:j", "second:j"]);
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
    // No kernels yet: refused, as stencil-opt --emit=ptx refuses it.
    let unmapped = compiler.ptx(&module, &stencil::lowering::ptx::PtxOptions::with_found_libdevice());
    assert!(matches!(unmapped, Err(Error::NoKernels)), "{unmapped:?}");
    compiler.run_pipeline(&mut module, "builtin.module(gpu-map{naive})")?;
    let ptx = compiler.ptx(&module, &stencil::lowering::ptx::PtxOptions::with_found_libdevice())?;
    assert_eq!(ptx.len(), 1);
    assert!(ptx[0].ptx.contains(".entry"));
    assert_eq!(ptx[0].kernels.len(), 2);
    assert_eq!(stencil::ptx_spec(&ptx[0]).kernels.len(), 2);
    Ok(())
}
