//! Helpers of the lowering tests: parsing, running pass pipelines, and the execution check
//! every transformation must pass — the reference interpreter runs the program before and
//! after the pipeline on the same pseudo-random fields, and the results must be bit-identical
//! with the same number of point updates (each statement instance executed exactly once).

#![allow(dead_code)]

use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::pass::{PassManager, PassManagerOptions, PassRegistry};
use stencil_ir::verifier::verify;
use stencil_ir::{DialectRegistry, Module, SourceFile};
use stencil_runtime::{compare_fields, module_interface, run_module, FieldData, ProgramState};

/// Every dialect, and every pass of stencil-opt.
pub fn registries() -> (DialectRegistry, PassRegistry) {
    let mut passes = PassRegistry::with_generic_passes();
    stencil_passes::register_passes(&mut passes);
    stencil_lowering::register_passes(&mut passes);
    (stencil_dialects::registry(), passes)
}

/// Parses and verifies `text`.
pub fn parse(text: &str, dialects: &DialectRegistry) -> Result<Module, String> {
    let source = SourceFile::new("test.mlir", text);
    let module = parse_source(&source, ParserConfig { registry: dialects, allow_unregistered: false })
        .map_err(|d| d.render())?;
    verify(&module.ir, dialects, module.top, false).map_err(|d| d.render())?;
    Ok(module)
}

/// Runs `pipeline` (`builtin.module(…)`) on `module`, verifying after each pass.
pub fn run_pipeline(module: &mut Module, pipeline: &str) -> Result<(), String> {
    let (dialects, passes) = registries();
    let options = PassManagerOptions { verify_each: true, ..Default::default() };
    let mut pm = PassManager::parse(pipeline, &passes, options).map_err(|e| e.to_string())?;
    pm.run(&mut module.ir, module.top, &dialects).map_err(|d| d.render())
}

/// A state with `params` and pseudo-random fields (seeded by position) for `module`'s only
/// entry point.
pub fn random_state(module: &Module, params: &[(&str, i64)]) -> Result<ProgramState, String> {
    let mut state = ProgramState::new();
    for &(n, v) in params {
        state = state.with_param(n, v);
    }
    let interface = module_interface(module, None, &state).map_err(|e| e.to_string())?;
    for (seed, f) in interface.fields.iter().enumerate() {
        let data =
            FieldData::pseudo_random(f.shape.clone(), f.element, 1000 + seed as u64).map_err(|e| e.to_string())?;
        state.fields.insert(f.name.clone(), data);
    }
    Ok(state)
}

/// Runs `text` before and after `pipeline` with `params` and compares: every field of the
/// original must be bit-identical afterwards and both runs must update as many points.
/// Returns the transformed module's text on success.
pub fn check_pipeline(text: &str, pipeline: &str, params: &[(&str, i64)]) -> Result<String, String> {
    check_pipeline_after(text, None, pipeline, params)
}

/// [`check_pipeline`] where "before" is `text` after the pass list `prefix` (e.g.
/// `poly-remove-false-deps`, whose added fields and copy statements are then compared too)
/// and "after" is `text` after `prefix` and `pipeline`.
pub fn check_pipeline_after(
    text: &str,
    prefix: Option<&str>,
    pipeline: &str,
    params: &[(&str, i64)],
) -> Result<String, String> {
    let (dialects, _) = registries();
    let mut original = parse(text, &dialects)?;
    let mut transformed = parse(text, &dialects)?;
    if let Some(prefix) = prefix {
        run_pipeline(&mut original, &format!("builtin.module({prefix})"))?;
        run_pipeline(&mut transformed, &format!("builtin.module({prefix})"))?;
    }
    run_pipeline(&mut transformed, pipeline)?;
    let printed = stencil_ir::printer::print_op(&transformed.ir, &dialects, transformed.top, Default::default());
    let mut before = random_state(&original, params)?;
    let mut after = random_state(&transformed, params)?;
    let run_before = run_module(&original, None, &mut before).map_err(|e| format!("original: {e}"))?;
    let run_after = run_module(&transformed, None, &mut after).map_err(|e| format!("transformed: {e}\n{printed}"))?;
    // Statement instances on both sides (the interpreter's stores: an SOR rewrite's reported
    // point updates are its sweeps, fewer than its masked applies' instances).
    compare_runs(&before, &after, (run_before.field_stores, run_after.field_stores), pipeline, params, &printed)?;
    Ok(printed)
}

/// [`check_pipeline`] for a pipeline that ends in `gpu-map`: the result runs on the GPU
/// simulator with `options` (races are errors unless the options collect them) and must be
/// bit-identical to the program on the reference interpreter, with the same point updates
/// (unless tiles are staged in workgroup memory). Returns the simulator's report.
pub fn check_gpu_pipeline(
    text: &str,
    pipeline: &str,
    params: &[(&str, i64)],
    options: &stencil_runtime::gpu_sim::SimOptions,
) -> Result<stencil_runtime::gpu_sim::SimReport, String> {
    check_gpu_pipeline_after(text, None, pipeline, params, options)
}

/// [`check_gpu_pipeline`] comparing with `text` after the pass list `prefix` (as
/// [`check_pipeline_after`]).
pub fn check_gpu_pipeline_after(
    text: &str,
    prefix: Option<&str>,
    pipeline: &str,
    params: &[(&str, i64)],
    options: &stencil_runtime::gpu_sim::SimOptions,
) -> Result<stencil_runtime::gpu_sim::SimReport, String> {
    check_gpu_pipeline_sizes(text, prefix, pipeline, params, options, false)
}

/// [`check_gpu_pipeline`] with `params` also given to the pipeline as the problem sizes, as
/// `stencil-opt --param` gives them (what `gpu-map{static-shapes=true}` types the fields with).
pub fn check_gpu_pipeline_sized(
    text: &str,
    pipeline: &str,
    params: &[(&str, i64)],
    options: &stencil_runtime::gpu_sim::SimOptions,
) -> Result<stencil_runtime::gpu_sim::SimReport, String> {
    check_gpu_pipeline_sizes(text, None, pipeline, params, options, true)
}

fn check_gpu_pipeline_sizes(
    text: &str,
    prefix: Option<&str>,
    pipeline: &str,
    params: &[(&str, i64)],
    options: &stencil_runtime::gpu_sim::SimOptions,
    sized: bool,
) -> Result<stencil_runtime::gpu_sim::SimReport, String> {
    let (dialects, _) = registries();
    let mut original = parse(text, &dialects)?;
    let mut mapped = parse(text, &dialects)?;
    if let Some(prefix) = prefix {
        run_pipeline(&mut original, &format!("builtin.module({prefix})"))?;
        run_pipeline(&mut mapped, &format!("builtin.module({prefix})"))?;
    }
    if sized {
        let sizes: Vec<(String, i64)> = params.iter().map(|&(n, v)| (n.to_string(), v)).collect();
        stencil_passes::tile_model::set_problem_sizes(&mut mapped.ir, mapped.top, &sizes);
    }
    run_pipeline(&mut mapped, pipeline)?;
    let printed = stencil_ir::printer::print_op(&mapped.ir, &dialects, mapped.top, Default::default());
    let mut before = random_state(&original, params)?;
    let mut after = random_state(&mapped, params)?;
    let run_before = run_module(&original, None, &mut before).map_err(|e| format!("original: {e}"))?;
    let run_after = stencil_runtime::gpu_sim::run_module_sim(&mapped, None, &mut after, options)
        .map_err(|e| format!("simulated ({pipeline}, {params:?}): {e}\n{printed}"))?;
    // With tiles staged in workgroup memory the global stores are the write-backs (one per
    // element a tile wrote), not the statement instances: only the fields are compared.
    let staged = printed.contains("workgroup(");
    let mut updates = if staged { (0, 0) } else { (run_before.field_stores, run_after.run.field_stores) };
    // MLSOR's kernels visit only the points of their tiles; each of the 2^rank masked applies
    // of a layer covers the whole box, and their tiles partition it: exactly one in 2^rank of
    // the program's instances is an update, the rest write the old value back.
    if printed.contains("strategy = \"mlsor\"") {
        let rank = before.fields.values().map(|f| f.shape.len()).max().unwrap_or(0);
        updates.0 >>= rank;
    }
    compare_runs(&before, &after, updates, pipeline, params, &printed)?;
    Ok(run_after.sim)
}

/// Compares the fields of `before` (every one must be in `after`, bit-identical) and the point
/// updates of the two runs; errors name the pipeline, the parameters and show `printed`.
fn compare_runs(
    before: &ProgramState,
    after: &ProgramState,
    updates: (u64, u64),
    pipeline: &str,
    params: &[(&str, i64)],
    printed: &str,
) -> Result<(), String> {
    for (name, expected) in &before.fields {
        let actual = after.fields.get(name).ok_or_else(|| format!("field {name} is missing after {pipeline}"))?;
        let c = compare_fields(expected, actual);
        if !c.bit_exact() {
            return Err(format!(
                "field {name} differs after {pipeline} with {params:?}: {} positions, first {:?}\n{printed}",
                c.differing, c.first_difference
            ));
        }
    }
    if updates.0 != updates.1 {
        return Err(format!(
            "{} point updates before {pipeline}, {} after (params {params:?})\n{printed}",
            updates.0, updates.1
        ));
    }
    Ok(())
}

/// Every `examples/*.mlir` with a `stencil.program`, as (file stem, text), sorted.
pub fn examples() -> Vec<(String, String)> {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut paths: Vec<std::path::PathBuf> =
        std::fs::read_dir(&dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "mlir"));
    paths.sort();
    let out: Vec<(String, String)> = paths
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            let name = p.file_stem()?.to_string_lossy().into_owned();
            text.contains("stencil.program").then_some((name, text))
        })
        .collect();
    assert!(out.len() >= 20, "expected the example suite in {}", dir.display());
    out
}
