//! The library front door (`stencil::Compiler`) makes the choices the tools make: a pipeline run
//! for given problem sizes maps the program as `stencil-opt --param` does (the same IR, so the
//! same PTX fingerprints), refuses the sizes the tools refuse, and parses what
//! `--allow-unregistered-dialect` parses.

use std::path::PathBuf;
use stencil::{Compiler, Error};
use stencil_driver::opt::{run_opt, OptOptions, Registries};

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples").join(format!("{name}.mlir"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `stencil-opt FILE --param … --pass-pipeline=PIPELINE`, in-process: the printed output.
fn stencil_opt(name: &str, text: &str, pipeline: &str, params: &[(&str, i64)]) -> String {
    let options = OptOptions {
        pipeline: Some(pipeline.to_string()),
        params: params.iter().map(|&(n, v)| (n.to_string(), v)).collect(),
        ..OptOptions::default()
    };
    let outcome = run_opt(name, text, &options, &Registries::all());
    assert!(outcome.success, "{}", outcome.messages);
    outcome.output
}

#[test]
fn a_pipeline_for_given_sizes_maps_as_stencil_opt_param_does() -> Result<(), Error> {
    let compiler = Compiler::new();
    for (example_name, pipeline, sizes) in [
        ("jacobi-2d-5pt", "builtin.module(gpu-map{strategy=overlapped})", &[("N", 256), ("M", 256), ("T", 10)][..]),
        (
            "sor-2d-5pt",
            "builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})",
            &[("N", 2048), ("M", 2048), ("T", 64)][..],
        ),
        (
            "jacobi-3d-7pt",
            "builtin.module(gpu-map{strategy=auto})",
            &[("N", 128), ("M", 128), ("L", 128), ("T", 4)][..],
        ),
    ] {
        let text = example(example_name);
        let file = format!("{example_name}.mlir");
        let mut sized = compiler.parse(&file, &text)?;
        compiler.run_pipeline_with_sizes(&mut sized, pipeline, sizes)?;
        let expected = stencil_opt(&file, &text, pipeline, sizes);
        assert_eq!(compiler.print(&sized), expected.trim_end(), "{example_name}");
        // Without the sizes the mapping is chosen for the declared defaults: another program.
        let mut unsized_module = compiler.parse(&file, &text)?;
        compiler.run_pipeline(&mut unsized_module, pipeline)?;
        assert_ne!(
            compiler.print(&unsized_module),
            compiler.print(&sized),
            "{example_name}: the sizes changed nothing"
        );
    }
    Ok(())
}

#[test]
fn affine_input_takes_the_sizes_of_the_programs_it_is_raised_to() -> Result<(), Error> {
    let compiler = Compiler::new();
    let text = include_str!("../../examples/affine/jacobi-2d.mlir");
    let pipeline = "builtin.module(raise-affine-to-stencil{strict=true},gpu-map{strategy=auto})";
    let sizes = [("arg0", 20), ("arg1", 1024)];
    let mut module = compiler.parse("jacobi-2d.mlir", text)?;
    compiler.run_pipeline_with_sizes(&mut module, pipeline, &sizes)?;
    assert_eq!(compiler.print(&module), stencil_opt("jacobi-2d.mlir", text, pipeline, &sizes).trim_end());
    // A name the raised programs do not have: refused, the module unchanged.
    let mut again = compiler.parse("jacobi-2d.mlir", text)?;
    let before = compiler.print(&again);
    let e = compiler.run_pipeline_with_sizes(&mut again, pipeline, &[("N", 1024)]).unwrap_err();
    assert!(matches!(e, Error::ProblemSizes(_)), "{e}");
    assert_eq!(compiler.print(&again), before);
    Ok(())
}

#[test]
fn sizes_the_tools_refuse_are_refused_before_the_pipeline_runs() -> Result<(), Error> {
    let compiler = Compiler::new();
    let original = compiler.parse("jacobi-2d-5pt.mlir", &example("jacobi-2d-5pt"))?;
    let pipeline = "builtin.module(gpu-map{naive})";
    let mut module = original.clone();
    let unknown = compiler.run_pipeline_with_sizes(&mut module, pipeline, &[("Q", 5)]).unwrap_err();
    assert!(matches!(unknown, Error::ProblemSizes(_)), "{unknown}");
    assert!(unknown.to_string().contains("unknown parameter 'Q': the program declares"), "{unknown}");
    let twice = compiler.run_pipeline_with_sizes(&mut module, pipeline, &[("N", 64), ("N", 65)]).unwrap_err();
    assert!(twice.to_string().contains("'N' is given more than once"), "{twice}");
    let below = compiler.run_pipeline_with_sizes(&mut module, pipeline, &[("N", 1)]).unwrap_err();
    let located = below.as_diagnostic().map(|d| d.message.clone()).unwrap_or_default();
    assert!(located.contains("N=1: parameter N = 1 is below its declared minimum"), "{below}");
    // Nothing ran: the module is as it was.
    assert_eq!(compiler.print(&module), compiler.print(&original));
    Ok(())
}

#[test]
fn unregistered_dialects_parse_when_allowed() -> Result<(), Error> {
    // What Polygeist puts on its modules.
    let text = format!(
        "module attributes {{dlti.dl_spec = #dlti.dl_spec<\"dlti.endianness\" = \"little\">}} {{\n{}\n}}",
        include_str!("../../examples/affine/jacobi-1d.mlir")
    );
    let refused = Compiler::new().parse("polygeist.mlir", &text).unwrap_err();
    assert!(refused.to_string().contains("dlti"), "{refused}");
    let compiler = Compiler::new().allow_unregistered(true);
    let mut module = compiler.parse("polygeist.mlir", &text)?;
    compiler.verify(&module)?;
    compiler.run_pipeline(&mut module, "builtin.module(raise-affine-to-stencil{strict=true})")?;
    assert!(compiler.print(&module).contains("stencil.program"));
    Ok(())
}

#[test]
fn small_fields_take_32_bit_indices() {
    let mut state = stencil::ProgramState::new();
    state.fields.insert(
        "A".into(),
        stencil::FieldData::pseudo_random(vec![64, 64], stencil::runtime::ElementType::F64, 1).expect("a small field"),
    );
    assert_eq!(stencil::default_index_bitwidth(&state), 32);
}

#[test]
fn the_cost_report_is_stencil_run_cost() -> Result<(), Box<dyn std::error::Error>> {
    use stencil_driver::run::report::TargetStats;
    use stencil_driver::run::{run_program, RunOptions, Target};
    let text = example("jacobi-2d-5pt");
    let pipeline = "builtin.module(gpu-map{naive})";
    let params = [("N", 64), ("M", 48), ("T", 3)];
    // stencil-run --target sim --cost, in-process.
    let options = RunOptions {
        params: params.iter().map(|&(n, v)| (n.to_string(), v)).collect(),
        target: Target::Sim,
        pipeline: Some(pipeline.to_string()),
        cost: true,
        ..RunOptions::default()
    };
    let report = run_program("jacobi-2d-5pt.mlir", &text, &options, &Registries::all(), &mut |_| {})?;
    let Some(TargetStats::Sim(sim)) = &report.target_stats else { panic!("no simulator statistics") };
    let tool = sim.cost.as_ref().expect("--cost gives a cost report");
    // The library: map, run on the simulator, ask for the report with the same request.
    let compiler = Compiler::new();
    let mut module = compiler.parse("jacobi-2d-5pt.mlir", &text)?;
    compiler.run_pipeline_with_sizes(&mut module, pipeline, &params)?;
    let mut state = stencil::ProgramState::new();
    for (n, v) in params {
        state = state.with_param(n, v);
    }
    let mut state = compiler.initial_state(&module, None, state, 1)?;
    let run = compiler.run(&module, None, stencil::Target::Simulator, &mut state)?;
    let request = stencil::cost::CostRequest {
        dialects: compiler.dialects(),
        chip: None,
        index_bitwidth: Some(stencil::default_index_bitwidth(&state)),
        precompiled: None,
    };
    let library = compiler.cost(&module, run.sim.as_ref().expect("a simulator run"), run.stats.point_updates, &request);
    assert_eq!(library.to_json(), tool.to_json());
    assert_eq!(library.to_string(), tool.render_text());
    assert!(library.to_string().contains("warp-instr"), "{library}");
    Ok(())
}
