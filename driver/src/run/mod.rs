//! `stencil-run`: parse a program, optionally transform it with a pass pipeline, run it on a
//! target, optionally check it against the untransformed program on the reference
//! interpreter, and report (text or JSON) and save the fields.

pub mod cost;
mod cost_report;
pub mod gpu;
pub mod init;
pub mod output;
pub mod report;

use crate::opt::{render_with_source, Registries};
use init::InitPlan;
use report::{FieldSummary, RunReport};
use std::collections::BTreeMap;
use std::path::PathBuf;
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::pass::{PassManager, PassManagerOptions};
use stencil_ir::verifier::verify;
use stencil_ir::{Module, SourceFile};
use stencil_runtime::{
    compare_fields, module_interface, run_module_with_progress, ProgramState, Progress, ScalarValue,
};

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
    /// `--tolerance` (0 = bit-exact).
    pub tolerance: f64,
    /// `--entry`: which program of the module to run.
    pub entry: Option<String>,
    /// `--gpu-chip`, `--warmup`, `--sync-each-launch` (`--target gpu`).
    pub gpu: gpu::GpuRunOptions,
    /// `--cost`: the GPU cost report (`--target sim`).
    pub cost: bool,
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
            tolerance: 0.0,
            entry: None,
            gpu: gpu::GpuRunOptions::default(),
            cost: false,
        }
    }
}

/// A failed run: a message ready for stderr.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RunError(pub String);

impl From<stencil_runtime::RuntimeError> for RunError {
    fn from(e: stencil_runtime::RuntimeError) -> Self {
        RunError(format!("error: {e}"))
    }
}

fn parse_and_verify(source: &SourceFile, registries: &Registries) -> Result<Module, RunError> {
    let config = ParserConfig { registry: &registries.dialects, allow_unregistered: false };
    let module = parse_source(source, config).map_err(|d| RunError(render_with_source(&d, source)))?;
    verify(&module.ir, &registries.dialects, module.top, false)
        .map_err(|d| RunError(render_with_source(&d, source)))?;
    Ok(module)
}

/// Runs the program in `text` (read from `file`) as `options` say. `progress` receives the
/// progress of the main run (not of the check run).
pub fn run_program(
    file: &str,
    text: &str,
    options: &RunOptions,
    registries: &Registries,
    progress: &mut dyn FnMut(Progress),
) -> Result<RunReport, RunError> {
    let source = SourceFile::new(file, text);
    let original = parse_and_verify(&source, registries)?;
    let mut transformed = original.clone();
    // The problem sizes of the run are the tile model's (poly-tile{sizes=auto},
    // gpu-map{block=auto}); programs without a value keep their defaults.
    let params: Vec<(String, i64)> = options.params.iter().map(|(n, v)| (n.clone(), *v)).collect();
    stencil_passes::tile_model::set_problem_sizes(&mut transformed.ir, transformed.top, &params);
    if let Some(pipeline) = &options.pipeline {
        let pm_options = PassManagerOptions { verify_each: true, ..PassManagerOptions::default() };
        let mut pm = PassManager::parse(pipeline, &registries.passes, pm_options)
            .map_err(|e| RunError(format!("<pass-pipeline>: error: {e}")))?;
        pm.run(&mut transformed.ir, transformed.top, &registries.dialects)
            .map_err(|d| RunError(render_with_source(&d, &source)))?;
    }
    let entry = options.entry.as_deref();
    if options.target != Target::Ref {
        gpu::require_gpu_mapped(&transformed, options.target.name())?;
    }
    if options.cost && options.target != Target::Sim {
        return Err(RunError(format!(
            "error: --cost estimates the GPU cost from the simulator's counters: use it with --target sim, not --target {}",
            options.target.name()
        )));
    }
    // The matched modules of --ptx (their PTX gives --cost the kernels' registers).
    let mut matched_ptx = None;
    let precompiled = match &options.gpu.ptx_file {
        Some(_) if options.target == Target::Ref => {
            return Err(RunError(
                "error: --ptx gives the kernels of --target gpu (and is checked with --target sim); it means nothing for --target ref".to_string(),
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
            return Err(RunError(
                "error: this stencil-run was built without MLIR (no `mlir` cargo feature), so it cannot compile kernels: give their PTX with --ptx FILE, written by `stencil-opt INPUT --pass-pipeline=... --emit=ptx -o FILE` with the same input and --pass-pipeline".to_string(),
            ));
        }
        None => None,
    };
    let mut state =
        ProgramState { params: options.params.clone(), scalars: options.scalars.clone(), fields: BTreeMap::new() };
    let interface = module_interface(&transformed, entry, &state)?;
    interface.check_names(&state)?;
    let unknown = options.init.unknown_fields(&interface.fields);
    if !unknown.is_empty() {
        let declared: Vec<&str> = interface.fields.iter().map(|f| f.name.as_str()).collect();
        return Err(RunError(format!(
            "error: --init names unknown field(s) {}: the program's fields are {}",
            unknown.join(", "),
            declared.join(", ")
        )));
    }
    for spec in &interface.fields {
        state.fields.insert(spec.name.clone(), options.init.make(spec)?);
    }
    // The check runs the original program from the same initial fields; keep a copy only then
    // (fields of GiBs take a second to copy).
    let initial = if options.check { state.fields.clone() } else { BTreeMap::new() };
    let (stats, target_stats) = match options.target {
        Target::Ref => (run_module_with_progress(&transformed, entry, &mut state, progress)?, None),
        Target::Sim => {
            let cost = cost::CostRequest {
                registries,
                chip: options.gpu.chip.as_deref(),
                index_bitwidth: options.gpu.index_bitwidth,
                precompiled: matched_ptx.as_deref(),
            };
            let cost = options.cost.then_some(&cost);
            let (stats, sim) = gpu::run_sim(&transformed, &original, entry, &interface.name, &mut state, cost)?;
            (stats, Some(sim))
        }
        Target::Gpu => {
            let (stats, device) =
                gpu::run_gpu(&transformed, &original, entry, &interface.name, &mut state, registries, &options.gpu)?;
            (stats, Some(device))
        }
    };
    let check = if options.check {
        let mut reference =
            ProgramState { params: options.params.clone(), scalars: options.scalars.clone(), fields: BTreeMap::new() };
        // Fields the transformation added (e.g. the copies of poly-remove-false-deps) are not
        // arguments of the original program: it gets only its own, and they are not compared.
        let original_fields = module_interface(&original, entry, &reference)?.fields;
        reference.fields =
            initial.into_iter().filter(|(name, _)| original_fields.iter().any(|f| &f.name == name)).collect();
        stencil_runtime::run_module(&original, entry, &mut reference)?;
        let mut results = BTreeMap::new();
        for spec in &interface.fields {
            let (Some(expected), Some(actual)) = (reference.fields.get(&spec.name), state.fields.get(&spec.name))
            else {
                continue;
            };
            results.insert(spec.name.clone(), compare_fields(expected, actual));
        }
        Some(report::CheckReport::new(results, options.tolerance))
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
        .filter_map(|s| options.scalars.get(&s.name).copied().or(s.default).map(|v| (s.name.clone(), v)))
        .collect();
    let report = RunReport {
        program: interface.name.clone(),
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
        mapping: gpu::recorded_mapping(&transformed),
    };
    if report.check.as_ref().is_some_and(|c| !c.passed) {
        return Err(RunError(
            report.render_text() + "error: the transformed program's results differ from the reference (see above)",
        ));
    }
    if let Some(dir) = &options.out_dir {
        output::write_fields(dir, &state.fields)?;
    }
    Ok(report)
}
