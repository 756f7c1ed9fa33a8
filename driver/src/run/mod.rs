//! `stencil-run`: parse a program, optionally transform it with a pass pipeline, run it on a
//! target, optionally check it against the untransformed program on the reference
//! interpreter, and report (text or JSON) and save the fields.

pub mod affine;
pub mod converge;
/// The cost report (`--cost`): the library's ([`stencil::cost`]).
pub use stencil::cost;
pub mod error;
pub mod gpu;
pub mod init;
pub mod output;
pub mod report;

use crate::opt::Registries;
use init::InitPlan;
use report::{FieldSummary, RunReport};
use std::collections::BTreeMap;
use std::path::PathBuf;
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::pass::{PassManager, PassManagerOptions};
use stencil_ir::verifier::verify;
use stencil_ir::{Module, SourceFile};
use stencil_runtime::{compare_fields, module_interface, run_module_with_progress, ProgramState, ScalarValue};

/// Where a program runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The reference interpreter (sequential semantics).
    Ref,
    /// The GPU simulator (a GPU-mapped program's kernels on the CPU, races detected).
    Sim,
    /// A real NVIDIA GPU (PTX from MLIR, run through the CUDA driver).
    Gpu,
}

impl Target {
    /// Parses a `--target` value.
    pub fn parse(name: &str) -> Result<Target, String> {
        match name {
            "ref" => Ok(Target::Ref),
            "sim" => Ok(Target::Sim),
            "gpu" => Ok(Target::Gpu),
            other => Err(format!(
                "unknown target '{other}': available targets: ref (the reference interpreter), sim (the GPU simulator), gpu (an NVIDIA GPU)"
            )),
        }
    }

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Target::Ref => "ref",
            Target::Sim => "sim",
            Target::Gpu => "gpu",
        }
    }
}

/// Runs the pass `pipeline` on `module` (verifying after each pass), its errors located in
/// `source`; returns the warnings and remarks its passes reported, rendered with their source
/// lines.
fn apply_pipeline(
    module: &mut Module,
    pipeline: &str,
    registries: &Registries,
    source: &SourceFile,
    allow_unregistered: bool,
) -> Result<Vec<String>, RunError> {
    let pm_options = PassManagerOptions { verify_each: true, allow_unregistered, ..PassManagerOptions::default() };
    let mut pm =
        PassManager::parse(pipeline, &registries.passes, pm_options).map_err(|e| RunError::pipeline(e.to_string()))?;
    pm.run(&mut module.ir, module.top, &registries.dialects).map_err(|d| RunError::diagnostic(&d, source))?;
    Ok(pm.take_reported().iter().map(|d| crate::opt::render_with_source(d, source)).collect())
}

/// Whether the program `entry` of `module` (or its lowering) had its SOR iterations replaced by a rewrite
/// (`sor.rewrite` with its `point_updates`).
fn rewritten_sor(module: &Module, entry: stencil_ir::OpId) -> bool {
    module
        .ir
        .collect_ops(entry, stencil_ir::ir::WalkOrder::PreOrder)
        .into_iter()
        .any(|op| stencil_dialects::stencil::updates::rewrite_point_update_terms(&module.ir, op).is_some())
}

/// Everything `stencil-run` can be asked to do.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// `--param NAME=VALUE`.
    pub params: BTreeMap<String, i64>,
    /// `--scalar NAME=VALUE`.
    pub scalars: BTreeMap<String, ScalarValue>,
    /// `--target`.
    pub target: Target,
    /// `--init` specifications.
    pub init: InitPlan,
    /// `--out DIR`.
    pub out_dir: Option<PathBuf>,
    /// `--pass-pipeline`.
    pub pipeline: Option<String>,
    /// `--check`.
    pub check: bool,
    /// `--check-after`: the check's reference is the program after this pass pipeline.
    pub check_after: Option<String>,
    /// `--tolerance` (0 = bit-exact).
    pub tolerance: f64,
    /// `--entry`: which program of the module to run.
    pub entry: Option<String>,
    /// `--assume-no-alias`: an affine input's memref arguments are distinct buffers.
    pub assume_no_alias: bool,
    /// `--allow-unregistered-dialect`: accept ops, types and attributes of dialects we do not
    /// know (a front end's `dlti` data layout), as `stencil-opt` does.
    pub allow_unregistered: bool,
    /// `--gpu-chip`, `--warmup`, `--sync-each-launch` (`--target gpu`).
    pub gpu: gpu::GpuRunOptions,
    /// `--cost`: the GPU cost report (`--target sim`).
    pub cost: bool,
    /// `--profile`: the simulator's warp-instructions per kernel op location (`--target sim`).
    pub profile: bool,
    /// `--converge` and its companions: run until a norm is below a tolerance.
    pub converge: Option<converge::ConvergeOptions>,
    /// Report progress of a `--target sim` run (a terminal watches): its total comes from a
    /// dry run of the host function that counts the launches and blocks first.
    pub progress: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            params: BTreeMap::new(),
            scalars: BTreeMap::new(),
            target: Target::Ref,
            init: InitPlan::default(),
            out_dir: None,
            pipeline: None,
            check: false,
            check_after: None,
            tolerance: 0.0,
            entry: None,
            assume_no_alias: false,
            allow_unregistered: false,
            gpu: gpu::GpuRunOptions::default(),
            cost: false,
            profile: false,
            converge: None,
            progress: false,
        }
    }
}

pub use error::RunError;

fn parse_and_verify(
    source: &SourceFile,
    registries: &Registries,
    allow_unregistered: bool,
) -> Result<Module, RunError> {
    let config = ParserConfig { registry: &registries.dialects, allow_unregistered };
    let module = parse_source(source, config).map_err(|d| RunError::diagnostic(&d, source))?;
    verify(&module.ir, &registries.dialects, module.top, allow_unregistered)
        .map_err(|d| RunError::diagnostic(&d, source))?;
    Ok(module)
}

/// A runtime error about the entry point's parameters (a value missing or below its declared
/// minimum) or the shape of its fields (an extent that is not positive, a field too large to
/// allocate) at the program's sizes, which may come from its `params` and `defaults` as well as
/// from `--param`: located at the program (or lowered function), where they are declared.
/// Other errors are converted as they are.
fn locate_at_entry(
    e: stencil_runtime::RuntimeError,
    module: &Module,
    entry: Option<&str>,
    source: &SourceFile,
) -> RunError {
    use stencil_runtime::RuntimeError as E;
    let about_the_declaration = matches!(
        e,
        E::InvalidData { .. } | E::NonPositiveExtent { .. } | E::MissingParam { .. } | E::ParamBelowMinimum { .. }
    );
    let ir = &module.ir;
    match stencil_runtime::entry_op(module, entry) {
        Ok(op) if about_the_declaration && ir.location(op).file_position().is_some() => {
            RunError::diagnostic(&stencil_ir::Diagnostic::error(ir.location(op).clone(), e.to_string()), source)
        }
        _ => RunError::from(e),
    }
}

/// How far a run is, for a progress display: `done` of `total` units (point updates on the
/// reference interpreter, blocks on the simulator).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RunProgress {
    /// Units done.
    pub done: u64,
    /// Units of the whole run (0 when unknown).
    pub total: u64,
    /// What is counted: `point updates` or `blocks`.
    pub unit: &'static str,
}

/// Runs the program in `text` (read from `file`) as `options` say. `progress` receives the
/// progress of the main run (not of the check run); on `--target sim` only with
/// [`RunOptions::progress`].
pub fn run_program(
    file: &str,
    text: &str,
    options: &RunOptions,
    registries: &Registries,
    progress: &mut dyn FnMut(RunProgress),
) -> Result<RunReport, RunError> {
    let source = SourceFile::new(file, text);
    let original = parse_and_verify(&source, registries, options.allow_unregistered)?;
    // An affine input runs as the program it raises to; the original function stays the
    // reference of --check.
    let affine = affine::affine_input(&original, options.entry.as_deref(), options, registries, &source)?;
    if let Some(a) = &affine {
        a.check_param_widths(&options.params)?;
        a.check_guard(&options.params)?;
    }
    let base = affine.as_ref().map_or_else(|| original.clone(), |a| a.raised.clone());
    let mut transformed = base.clone();
    // The problem sizes of the run are the tile model's (poly-tile{sizes=auto},
    // gpu-map{block=auto}); programs without a value keep their defaults.
    let params: Vec<(String, i64)> = options.params.iter().map(|(n, v)| (n.clone(), *v)).collect();
    stencil_passes::tile_model::set_problem_sizes(&mut transformed.ir, transformed.top, &params);
    // The run's own pipeline warns; --check-after's, often the same passes, stays quiet.
    let warnings = match &options.pipeline {
        Some(pipeline) => apply_pipeline(&mut transformed, pipeline, registries, &source, options.allow_unregistered)?,
        None => vec![],
    };
    // The program --check runs on the reference interpreter: the input's own program, or with
    // --check-after the program after that pipeline (a rewrite that changes results on
    // purpose, e.g. stencil-mlsor). Prepared before the run, so that a bad pipeline fails first.
    let reference_module = match (&options.check_after, &affine) {
        _ if !options.check => None,
        (Some(_), Some(_)) => {
            return Err(RunError::new(
                "--check-after compares with a transformed stencil program; an affine input is checked against its own function (use --check)",
            ))
        }
        (Some(pipeline), None) => {
            let mut module = base.clone();
            apply_pipeline(&mut module, pipeline, registries, &source, options.allow_unregistered)?;
            Some(module)
        }
        (None, _) => Some(base.clone()),
    };
    // The reference interpreter runs stencil, affine and loop programs, not GPU kernels: a
    // mapped input has no reference of its own.
    if reference_module.as_ref().is_some_and(gpu::is_gpu_mapped) {
        return Err(RunError::new(
            "--check runs the input program on the reference interpreter, and this input is already mapped to the GPU (it has a gpu.module): give the unmapped program and map it with --pass-pipeline (ending with gpu-map), or leave out --check",
        ));
    }
    let entry = match &affine {
        Some(a) => Some(a.program.as_str()),
        None => options.entry.as_deref(),
    };
    if options.target != Target::Ref {
        gpu::require_gpu_mapped(&transformed, options.target.name())?;
    }
    // What the report says of the program (its mapping, an SOR rewrite's sweeps) is read from
    // the entry's own op: a module may hold several programs.
    let entry_op = stencil_runtime::entry_op(&transformed, entry)?;
    if options.cost && options.target != Target::Sim {
        return Err(RunError::new(format!(
            "--cost estimates the GPU cost from the simulator's counters: use it with --target sim, not --target {}",
            options.target.name()
        )));
    }
    if options.profile && options.target != Target::Sim {
        return Err(RunError::new(format!(
            "--profile counts the simulator's warp-instructions per kernel op: use it with --target sim, not --target {}",
            options.target.name()
        )));
    }
    // The matched modules of --ptx (their PTX gives --cost the kernels' registers).
    let mut matched_ptx = None;
    let precompiled = match &options.gpu.ptx_file {
        Some(_) if options.target == Target::Ref => {
            return Err(RunError::new(
                "--ptx gives the kernels of --target gpu (and is checked with --target sim); it means nothing for --target ref".to_string(),
            ));
        }
        // The simulator runs the IR, not the PTX, and the GPU run loads the file itself; it is
        // matched against the mapped module here for both, before any work, so a bundle can be
        // checked on a machine without a GPU and a stale file fails fast.
        Some(path) => {
            let matched = gpu::load_precompiled(path, &transformed, registries, options.gpu.index_bitwidth)?;
            let summary = report::PrecompiledSummary {
                file: path.display().to_string(),
                modules: matched
                    .iter()
                    .map(|m| (m.name.clone(), m.chip.clone(), m.index_bitwidth, m.fingerprint.clone()))
                    .collect(),
            };
            matched_ptx = Some(matched);
            Some(summary)
        }
        None if options.target == Target::Gpu && !stencil_lowering::ptx::MLIR_AVAILABLE => {
            return Err(RunError::new(
                "this stencil-run was built without MLIR (no `mlir` cargo feature), so it cannot compile kernels: give their PTX with --ptx FILE, written by `stencil-opt INPUT --pass-pipeline=... --emit=ptx -o FILE` with the same input and --pass-pipeline".to_string(),
            ));
        }
        None => None,
    };
    let mut state =
        ProgramState { params: options.params.clone(), scalars: options.scalars.clone(), fields: BTreeMap::new() };
    // An integer argument that bounds the loops and enters the arithmetic is a parameter and a
    // scalar of the raised program: one value, the parameter's.
    for (scalar, param) in affine.iter().flat_map(|a| a.tied.iter()) {
        if options.scalars.contains_key(scalar) {
            return Err(RunError::new(format!("scalar {scalar} is the value of parameter {param} (the same argument of the function): give --param {param}=… only"
            )));
        }
        if let Some(&v) = options.params.get(param) {
            state.scalars.insert(scalar.clone(), ScalarValue::Int(v));
        }
    }
    let interface =
        module_interface(&transformed, entry, &state).map_err(|e| locate_at_entry(e, &transformed, entry, &source))?;
    interface.check_names(&state)?;
    let unknown = options.init.unknown_fields(&interface.fields);
    if !unknown.is_empty() {
        let declared: Vec<&str> = interface.fields.iter().map(|f| f.name.as_str()).collect();
        return Err(RunError::new(format!(
            "--init names unknown field(s) {}: the program's fields are {}",
            unknown.join(", "),
            declared.join(", ")
        )));
    }
    // The function's own buffers start as its allocation does in the interpreter: at zero.
    let local = |name: &str| affine.as_ref().is_some_and(|a| a.local_fields.iter().any(|f| f == name));
    let zeros = init::InitPlan { default: init::FieldInit::Const(0.0), fields: BTreeMap::new() };
    for spec in &interface.fields {
        let plan =
            if local(&spec.name) && !options.init.fields.contains_key(&spec.name) { &zeros } else { &options.init };
        let data = plan.make(spec).map_err(|e| match &e {
            // A file of another shape: say which --param values would fit it.
            stencil_runtime::RuntimeError::FieldShapeMismatch { found, .. } => {
                let hint = init::field_extents(&transformed, &interface.name, &spec.name)
                    .and_then(|extents| init::params_for_shape(&extents, found, &interface.params));
                match hint {
                    Some(params) => {
                        let flags: Vec<String> = params.iter().map(|(n, v)| format!("--param {n}={v}")).collect();
                        // Only a value the program allows is advice worth giving.
                        match crate::params::check_minimums(&transformed.ir, transformed.top, &params) {
                            Ok(()) => RunError::new(format!("{e}; {} gives the program that shape", flags.join(" "))),
                            Err(below) => RunError::new(format!(
                                "{e}; no allowed parameter values give the program that shape ({} would, but {})",
                                flags.join(" "),
                                below.message
                            )),
                        }
                    }
                    None => RunError::from(e),
                }
            }
            _ => RunError::from(e),
        })?;
        state.fields.insert(spec.name.clone(), data);
    }
    // The check runs the original program from the same initial fields; keep a copy only then
    // (fields of GiBs take a second to copy).
    let initial = if options.check { state.fields.clone() } else { BTreeMap::new() };
    // The registers of the kernels `--target gpu` would run: the same index width rule.
    let cost = cost::CostRequest {
        dialects: &registries.dialects,
        chip: options.gpu.chip.as_deref(),
        index_bitwidth: Some(options.gpu.index_bitwidth.unwrap_or_else(|| gpu::default_index_bitwidth(&state))),
        precompiled: matched_ptx.as_deref(),
    };
    let cost = options.cost.then_some(&cost);
    // The interpreter's progress counts apply instances: the point updates, except for an SOR
    // rewrite, whose masked applies each update part of their box (its report counts sweeps).
    let progress_unit = if rewritten_sor(&transformed, entry_op) { "apply instances" } else { "point updates" };
    let run_once = |state: &mut ProgramState, progress: &mut dyn FnMut(RunProgress)| match options.target {
        Target::Ref => {
            let mut points = |p: stencil_runtime::Progress| {
                progress(RunProgress { done: p.done, total: p.total, unit: progress_unit })
            };
            Ok((run_module_with_progress(&transformed, entry, state, &mut points)?, None))
        }
        Target::Sim => {
            let progress = options.progress.then_some(progress);
            let (stats, sim) = gpu::run_sim(
                &transformed,
                &base,
                entry,
                &interface.name,
                state,
                gpu::SimRequest { cost, profile: options.profile },
                progress,
            )?;
            Ok::<_, RunError>((stats, Some(sim)))
        }
        Target::Gpu => {
            let (stats, device) =
                gpu::run_gpu(&transformed, &base, entry, &interface.name, state, registries, &options.gpu)?;
            Ok((stats, Some(device)))
        }
    };
    let (stats, target_stats, convergence) = match &options.converge {
        None => {
            let (stats, target_stats) = run_once(&mut state, progress)?;
            (stats, target_stats, None)
        }
        Some(c) => {
            if options.check {
                return Err(RunError::new(
                    "--converge and --check do not go together: a convergence run compares norms, not bits",
                ));
            }
            let field = match &c.field {
                Some(f) if interface.fields.iter().any(|s| &s.name == f) => f.clone(),
                Some(f) => return Err(RunError::new(format!("--converge-field: the program has no field '{f}'"))),
                None => interface
                    .fields
                    .first()
                    .map(|s| s.name.clone())
                    .ok_or_else(|| RunError::new("--converge: the program has no field"))?,
            };
            if !interface.params.iter().any(|(n, _)| n == &c.steps_param) {
                return Err(RunError::new(format!("--converge runs the program a few steps at a time through its step parameter, and it has no parameter '{}' (choose one with --steps-param)",
                    c.steps_param
                )));
            }
            let sweeps = c.sweeps_per_step.unwrap_or_else(|| converge::sweeps_per_step(&transformed, entry_op));
            let mut last_target = None;
            let state_cell = std::cell::RefCell::new(&mut state);
            let (report, stats) = converge::converge(
                c,
                &field,
                sweeps,
                |steps| {
                    let mut s = state_cell.borrow_mut();
                    s.params.insert(c.steps_param.clone(), steps);
                    let (stats, target) = run_once(&mut s, &mut |_| {})?;
                    last_target = target;
                    Ok(stats)
                },
                || {
                    let s = state_cell.borrow();
                    s.fields.get(&field).cloned().ok_or_else(|| RunError::new(format!("field {field} vanished")))
                },
            )?;
            (stats, last_target, Some(report))
        }
    };
    // A field the run did not give back has no results: reporting the others (and passing
    // --check on them) would hide that. The runtime refuses a `memref.dealloc` of a field
    // argument where it happens; this catches any other way of losing one.
    let lost: Vec<&str> =
        interface.fields.iter().filter(|f| !state.fields.contains_key(&f.name)).map(|f| f.name.as_str()).collect();
    if !lost.is_empty() {
        return Err(RunError::new(format!(
            "the run lost field(s) {}: the program must leave its field arguments to the caller (docs/runtime.md, lowered programs)",
            lost.join(", ")
        )));
    }
    let check = if let Some(reference_module) = &reference_module {
        let mut reference =
            ProgramState { params: options.params.clone(), scalars: options.scalars.clone(), fields: BTreeMap::new() };
        // Fields the transformation added (e.g. the copies of poly-remove-false-deps) are not
        // arguments of the reference program: it gets only its own, and they are not compared.
        let original_fields = module_interface(reference_module, entry, &reference)?.fields;
        reference.fields =
            initial.into_iter().filter(|(name, _)| original_fields.iter().any(|f| &f.name == name)).collect();
        match &affine {
            Some(a) => {
                // The original function, with the parameters and scalars the run used.
                reference.params = interface.params.iter().cloned().collect();
                for s in &interface.scalars {
                    if let Some(v) = options.scalars.get(&s.name).copied().or(s.default) {
                        reference.scalars.insert(s.name.clone(), v);
                    }
                }
                affine::run_original(&original, a, &mut reference)?;
            }
            None => {
                stencil_runtime::run_module(reference_module, entry, &mut reference)?;
            }
        }
        let mut results = BTreeMap::new();
        for spec in &interface.fields {
            let (Some(expected), Some(actual)) = (reference.fields.get(&spec.name), state.fields.get(&spec.name))
            else {
                continue;
            };
            results.insert(spec.name.clone(), compare_fields(expected, actual));
        }
        let mut check = report::CheckReport::new(results, options.tolerance);
        check.reference_pipeline = options.check_after.clone();
        Some(check)
    } else {
        None
    };
    let fields = interface
        .fields
        .iter()
        .filter_map(|spec| state.fields.get(&spec.name).map(|d| (spec.name.clone(), FieldSummary::of(d))))
        .collect();
    let scalars = interface
        .scalars
        .iter()
        .filter_map(|s| {
            let given = state.scalars.get(&s.name).copied().or(s.default)?;
            Some((s.name.clone(), s.ty.value_as_used(given)))
        })
        .collect();
    let report = RunReport {
        program: interface.name.clone(),
        raised_from: affine.as_ref().map(|a| a.function.clone()),
        file: file.to_string(),
        target: options.target.name(),
        pipeline: options.pipeline.clone(),
        params: interface.params.clone(),
        scalars,
        stats,
        fields,
        check,
        target_stats,
        precompiled,
        mapping: gpu::recorded_mapping(&transformed, entry_op),
        convergence,
        warnings,
    };
    if let Some(c) = report.convergence.as_ref().filter(|c| !c.converged) {
        // A solver that did not converge has failed its caller (a script, a test): the report
        // goes with the error, as for a failed check.
        let mut error = RunError::new(format!(
            "--converge: the {} of {} did not fall below {:e} in {} steps (--max-steps); the last was {:e}",
            c.norm.name(),
            c.field,
            c.tolerance,
            c.steps,
            c.last
        ));
        error.report = Some(Box::new(report));
        return Err(error);
    }
    if report.check.as_ref().is_some_and(|c| !c.passed) {
        // The report goes with the error (`RunError::report`): stencil-run prints it as it
        // prints a passing one, then this.
        let message = "the transformed program's results differ from the reference (the report's check says where)";
        let mut error = RunError::new(message);
        error.report = Some(Box::new(report));
        return Err(error);
    }
    if let Some(dir) = &options.out_dir {
        output::write_fields(dir, &state.fields)?;
    }
    Ok(report)
}
