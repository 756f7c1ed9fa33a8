//! `--target sim` and `--target gpu`: running a GPU-mapped program on the GPU simulator or on
//! a real GPU. The driver is where the compiler (`stencil_lowering::ptx`, which makes PTX with
//! MLIR) and the runtime (`stencil_runtime::cuda`, which loads it with cudarc) meet: DESIGN §8
//! keeps them independent, so the PTX crosses over as plain data.

use super::cost::{cost_summary, CostRequest};
use super::report::{GpuSummary, SimSummary, TargetStats};
use super::RunError;
use crate::opt::Registries;
use std::path::{Path, PathBuf};
use stencil_ir::attributes::Attribute;
use stencil_ir::ir::WalkOrder;
use stencil_ir::Module;
use stencil_lowering::ptx::{attach_precompiled, compile_gpu_modules, PrecompiledPtx, PtxModule, PtxOptions};
use stencil_runtime::cuda::{run_module_cuda, CudaDevice, CudaError, CudaOptions, PtxModuleSpec};
use stencil_runtime::gpu_sim::{count_launches, run_module_sim_with_progress, SimOptions, SimProgress};
use stencil_runtime::{CompiledProgram, ProgramState, RunStats};

/// The example pipeline error messages suggest: the mapping the GPU measurements favour, which
/// maps every program (an SOR-like one on the tile model's wavefront tiles).
pub const EXAMPLE_GPU_PIPELINE: &str = "builtin.module(gpu-map{strategy=auto})";

/// Refuses a module that was not mapped to the GPU: `--target sim|gpu` run what `gpu-map`
/// produces. (Appending a mapping silently would hide what is being measured: tiled or naive,
/// which block shape.)
pub fn require_gpu_mapped(module: &Module, target: &str) -> Result<(), RunError> {
    if is_gpu_mapped(module) {
        return Ok(());
    }
    Err(RunError::new(format!(
        "--target {target} runs programs mapped to the GPU, and this one is not: end --pass-pipeline with gpu-map, e.g. --pass-pipeline='{EXAMPLE_GPU_PIPELINE}' (the mapping the GPU measurements favour, any program; 'builtin.module(poly-schedule,poly-tile{{sizes=auto}},gpu-map{{block=auto}})' for the thesis' wavefront tiles with model-driven sizes, and 'builtin.module(gpu-map{{naive}})' for a DOALL program's untiled baseline)"
    )))
}

/// Whether `module` holds GPU kernels (a `gpu.module`: `gpu-map` ran).
pub fn is_gpu_mapped(module: &Module) -> bool {
    stencil_lowering::gpu_map::is_gpu_mapped(&module.ir, module.top)
}

/// What a simulator run reports besides its counters.
pub struct SimRequest<'c, 'r> {
    /// The cost report (`--cost`).
    pub cost: Option<&'c CostRequest<'r>>,
    /// Warp-instructions per kernel op location (`--profile`).
    pub profile: bool,
}

/// Runs `module` on the GPU simulator (race detection on: a race is an error). Point updates
/// are the original program's statement instances (`original`; for a lowered input, what its
/// lowering recorded in `stencil.point_updates`): with tiles staged in shared memory, the
/// global stores the simulator counts are write-backs. With `cost`, the summary
/// carries the cost report (`--cost`). With `progress`, the blocks are counted first (a dry
/// run of the host function) and `progress` hears how many are done after each.
pub fn run_sim(
    module: &Module,
    original: &Module,
    entry: Option<&str>,
    program_name: &str,
    state: &mut ProgramState,
    request: SimRequest<'_, '_>,
    progress: Option<&mut dyn FnMut(super::RunProgress)>,
) -> Result<(RunStats, TargetStats), RunError> {
    let SimRequest { cost, profile } = request;
    let options = SimOptions::default().with_profile(profile);
    let point_updates = program_point_updates(original, module, program_name, state);
    let mut stats = match progress {
        Some(progress) => {
            // Without a total the display still counts; a failed count is no reason to fail the run.
            let total = count_launches(module, entry, state).map_or(0, |c| c.blocks);
            let mut blocks = |p: SimProgress| {
                progress(super::RunProgress { done: p.blocks, total: total.max(p.blocks), unit: "blocks" })
            };
            run_module_sim_with_progress(module, entry, state, &options, &mut blocks)?
        }
        None => run_module_sim_with_progress(module, entry, state, &options, &mut |_| {})?,
    };
    stats.run.point_updates = point_updates.unwrap_or(stats.run.point_updates);
    let sim = &stats.sim;
    let summary = SimSummary {
        launches: sim.launches.len() as u64,
        blocks: sim.blocks(),
        threads: sim.threads(),
        barriers: sim.barriers(),
        instructions: sim.instructions(),
        global_bytes_read: sim.global_bytes_read(),
        global_bytes_written: sim.global_bytes_written(),
        races: sim.race_count,
        cost: cost.map(|request| Box::new(cost_summary(module, sim, stats.run.point_updates, request))),
        profile: sim.profile(),
    };
    Ok((stats.run, TargetStats::Sim(summary)))
}

/// The runtime's plain-data view of a compiled `gpu.module` (the library's conversion).
pub use stencil::ptx_spec;

/// The message `--target gpu` gives on a machine without an NVIDIA driver.
pub const NO_DRIVER_MESSAGE: &str = "no NVIDIA driver (libcuda.so.1) found: use --target sim";

fn cuda_error(e: CudaError) -> RunError {
    match e {
        CudaError::NoDriver { detail } => RunError::new(format!("{NO_DRIVER_MESSAGE} ({detail})")),
        other => RunError::new(format!("{other}")),
    }
}

/// The point updates of the original program `name` for `params` (stores on the device are
/// not counted), or `None` when the input was not a `stencil.program` or the pipeline rewrote
/// its SOR iterations into another method (`mapped` carries `sor.rewrite`'s count, which the
/// lowered function's `stencil.point_updates` holds: MLSOR's step is several sweeps).
fn program_point_updates(original: &Module, mapped: &Module, name: &str, state: &ProgramState) -> Option<u64> {
    if stencil_runtime::entry_op(mapped, Some(name)).map_or(true, |entry| super::rewritten_sor(mapped, entry)) {
        return None;
    }
    let ir = &original.ir;
    let program = ir.collect_ops(original.top, WalkOrder::PreOrder).into_iter().find(|&op| {
        ir.op_name(op) == "stencil.program" && ir.attr(op, "sym_name").and_then(Attribute::as_str) == Some(name)
    })?;
    CompiledProgram::new(ir, program, &state.params).ok().map(|p| p.total_point_updates())
}

/// What `--target gpu` needs besides the module.
#[derive(Clone, Debug, Default)]
pub struct GpuRunOptions {
    /// `--gpu-chip`: compile for this chip instead of the device's own.
    pub chip: Option<String>,
    /// `--warmup`: untimed runs before the timed one.
    pub warmup: u32,
    /// `--sync-each-launch`: find the failing kernel.
    pub sync_each_launch: bool,
    /// `--gpu-index-bitwidth`: width of `index` in the kernels (`None`: 64, or the width the
    /// `--ptx` file was compiled with; docs/gpu.md).
    pub index_bitwidth: Option<u32>,
    /// `--ptx FILE`: take the kernels' PTX from this file (written by `stencil-opt --emit=ptx`)
    /// instead of compiling it; the file must match the mapped module (fingerprints).
    pub ptx_file: Option<PathBuf>,
}

/// Reads the `--ptx` file and matches it against the `gpu.module`s of `module`
/// (`stencil_lowering::ptx::precompiled`): the PTX of every module, or why the file does not
/// belong to this run.
pub fn load_precompiled(
    path: &Path,
    module: &Module,
    registries: &Registries,
    requested_bitwidth: Option<u32>,
) -> Result<Vec<PtxModule>, RunError> {
    let origin = path.display().to_string();
    let text = std::fs::read(path)
        .map_err(|e| RunError::new(format!("cannot read --ptx file '{origin}': {e}")))
        .and_then(|bytes| {
            String::from_utf8(bytes).map_err(|_| RunError::new(format!("--ptx file '{origin}' is not valid UTF-8")))
        })?;
    let file = PrecompiledPtx::parse(&text, &origin).map_err(|e| RunError::new(format!("{e}")))?;
    attach_precompiled(&module.ir, &registries.dialects, module.top, &file, requested_bitwidth)
        .map_err(|e| RunError::new(format!("{e}")))
}

/// The index width kernels are compiled with when `--gpu-index-bitwidth` is not given (the
/// library's rule, shared).
pub use stencil::default_index_bitwidth;

/// What `gpu-map` recorded on the host function `entry` of `module` about its mapping (empty when the
/// program was not mapped), in a fixed reading order: `strategy` first (the report leads with
/// it), then the tiling, the launch shape and the rest, whatever order the dictionary holds
/// them in (a dictionary is sorted by name, built or parsed).
pub fn recorded_mapping(module: &Module, entry: stencil_ir::OpId) -> Vec<(String, Attribute)> {
    let ir = &module.ir;
    let mut entries: Vec<(String, Attribute)> = match ir.attr(entry, stencil_lowering::gpu_map::MAPPING_ATTR) {
        Some(Attribute::Dictionary(entries)) => entries.iter().map(|e| (e.name.to_string(), e.value.clone())).collect(),
        _ => vec![],
    };
    // Known entries in the order gpu-map's documentation lists them; unknown ones after them,
    // by name (a stable sort keeps the dictionary's order among equals).
    const ORDER: &[&str] = &[
        "strategy",
        "tile",
        "time_tile",
        "block",
        "grid",
        "staging",
        "points_per_thread",
        "shared_memory",
        "second_buffers",
    ];
    entries.sort_by_key(|(name, _)| ORDER.iter().position(|n| n == name).unwrap_or(ORDER.len()));
    entries
}

/// The SM number of a chip name (`sm_90a` → 90).
fn sm_number(chip: &str) -> Option<u32> {
    chip.strip_prefix("sm_")?.trim_end_matches(|c: char| c.is_ascii_lowercase()).parse().ok()
}

/// Opens GPU 0, compiles the module's kernels to PTX for it, and runs the program there.
/// `original` (the untransformed module) provides the point-update count.
pub fn run_gpu(
    module: &Module,
    original: &Module,
    entry: Option<&str>,
    program_name: &str,
    state: &mut ProgramState,
    registries: &Registries,
    options: &GpuRunOptions,
) -> Result<(RunStats, TargetStats), RunError> {
    let device = CudaDevice::open(0).map_err(cuda_error)?;
    let device_chip = device.properties().chip();
    let (compiled, chip) = match &options.ptx_file {
        Some(path) => {
            let compiled = load_precompiled(path, module, registries, options.index_bitwidth)?;
            let chip = compiled.first().map_or_else(|| device_chip.clone(), |m| m.chip.clone());
            if let Some(requested) = options.chip.as_ref().filter(|&c| c != &chip) {
                return Err(RunError::new(format!(
                    "--gpu-chip={requested} asks for other PTX than the --ptx file holds ({chip}): drop --gpu-chip or recompile the file for {requested}"
                )));
            }
            if let (Some(ptx_sm), Some(device_sm)) = (sm_number(&chip), sm_number(&device_chip)) {
                if ptx_sm > device_sm {
                    return Err(RunError::new(format!(
                        "the --ptx file was compiled for {chip}, newer than this GPU ({device_chip}): recompile it with --gpu-chip={device_chip}"
                    )));
                }
            }
            (compiled, chip)
        }
        None => {
            let chip = options.chip.clone().unwrap_or_else(|| device_chip.clone());
            let defaults = PtxOptions::with_found_libdevice();
            let ptx_options = PtxOptions {
                chip: chip.clone(),
                index_bitwidth: options.index_bitwidth.unwrap_or_else(|| default_index_bitwidth(state)),
                ..defaults
            };
            let compiled = compile_gpu_modules(&module.ir, &registries.dialects, module.top, &ptx_options)
                .map_err(|e| RunError::new(format!("compiling the kernels to PTX for {chip}: {e}")))?;
            (compiled, chip)
        }
    };
    let ptx: Vec<PtxModuleSpec> = compiled.iter().map(ptx_spec).collect();
    let cuda_options = CudaOptions { sync_each_launch: options.sync_each_launch, warmup_runs: options.warmup };
    let point_updates = program_point_updates(original, module, program_name, state);
    let stats = run_module_cuda(module, entry, state, &ptx, &device, &cuda_options).map_err(cuda_error)?;
    let run = RunStats { point_updates: point_updates.unwrap_or(stats.run.point_updates), ..stats.run };
    let element_bytes = state.fields.values().next().map_or(8, |f| f.element().size() as u64);
    let index_bitwidth = compiled.first().map_or(64, |m| m.index_bitwidth);
    let codegen = options.ptx_file.is_none().then(stencil_lowering::ptx::llvm_options::current);
    Ok((
        run,
        TargetStats::Gpu(Box::new(GpuSummary { report: stats.gpu, chip, element_bytes, index_bitwidth, codegen })),
    ))
}
