//! The `stencil-opt` pipeline as a library function: parse, verify, run passes, print — per
//! input chunk — so tests can drive it in-process.

use crate::expected::{check, parse_expectations};
use crate::split::{split_input, SEPARATOR};
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::pass::{PassManager, PassManagerOptions, PassRegistry};
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::verifier::verify;
use stencil_ir::{Diagnostic, DialectRegistry, Location, SourceFile};
use stencil_lowering::ptx::{compile_gpu_modules, render_ptx_file, PtxOptions, DEFAULT_CHIP};
use stencil_passes::schedule::schedule_report;
use stencil_passes::stencil_to_poly::{dependence_report, stencil_programs};
use stencil_passes::tile::{tiling_svg, TilingSvgRequest};
use stencil_poly::{DependenceMode, DependenceOptions};

/// Everything `stencil-opt` can be asked to do with one input.
#[derive(Clone, Debug, Default)]
pub struct OptOptions {
    /// `--pass-pipeline`.
    pub pipeline: Option<String>,
    /// `--split-input-file`.
    pub split_input_file: bool,
    /// `--verify-diagnostics`.
    pub verify_diagnostics: bool,
    /// `--mlir-print-op-generic`.
    pub print_generic: bool,
    /// `--mlir-print-debuginfo`.
    pub print_debuginfo: bool,
    /// `--allow-unregistered-dialect`.
    pub allow_unregistered: bool,
    /// `--print-ir-after-all`.
    pub print_ir_after_all: bool,
    /// `--timing`.
    pub timing: bool,
    /// Verify after each pass (on unless `--verify-each=false`).
    pub verify_each: bool,
    /// `--test-print-dependences`: after the pipeline, print the dependences of every
    /// `stencil.program` (thesis §3.2.4, format in `docs/poly.md`) before the IR.
    pub print_dependences: bool,
    /// `--test-print-schedule`: after the pipeline, print the `poly.schedule` of every apply of
    /// every `stencil.program` (thesis Ch. 4, `S0: (t, 2*t + i)`) before the IR (after the
    /// dependences when both are asked for).
    pub print_schedule: bool,
    /// `--dependence-mode`: direct (default, thesis Table 3.1) or memory-based dependences.
    pub dependence_mode: DependenceMode,
    /// `--dump-tiling=FILE.svg`: after the pipeline, draw the tiling of the first
    /// `stencil.program` into this file (thesis Figs. 4.1/4.3/4.6; docs/passes.md).
    pub dump_tiling: Option<std::path::PathBuf>,
    /// What `--dump-tiling` draws (`--dump-tiling-params`, `--dump-tiling-statement`).
    pub dump_tiling_request: TilingSvgRequest,
    /// `--emit`: what the output holds after the pipeline (the IR, or PTX).
    pub emit: Emit,
    /// `--gpu-chip`: the GPU `--emit=ptx` compiles for (`None`: sm_90).
    pub gpu_chip: Option<String>,
    /// `--gpu-index-bitwidth`: the width of `index` in kernels (`None`: [`index_bitwidth_for`]'s
    /// choice — 32 where `params` give the problem and every field fits, else 64).
    pub gpu_index_bitwidth: Option<u32>,
    /// `--param NAME=VALUE`: problem sizes for the tile model (`poly-tile{sizes=auto}`,
    /// `gpu-map{block=auto}`), recorded on every program that declares the name before the
    /// pipeline. A name no program of the input declares, or a value below a program's
    /// declared minimum, fails the run (`crate::params`).
    pub params: Vec<(String, i64)>,
    /// `--explain-tile-sizes`: print the tile model's search for every program of the
    /// pipeline's `poly-tile` (as `//` comments before the output; `crate::explain`).
    pub explain_tile_sizes: bool,
    /// `--explain-tile-sizes-json=FILE`: the same as JSON into FILE.
    pub explain_tile_sizes_json: Option<std::path::PathBuf>,
}

/// What `stencil-opt` writes to its output.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Emit {
    /// The IR after the pipeline (MLIR text).
    #[default]
    Mlir,
    /// PTX of every `gpu.module`, compiled by MLIR 22 (docs/gpu.md, "PTX"), each preceded by
    /// `//` comments naming it and the parameter ABI of its kernels.
    Ptx,
}

/// Result of running `stencil-opt` on one input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptOutcome {
    /// Text for the output file.
    pub output: String,
    /// Text for stderr (diagnostics, timing report).
    pub messages: String,
    /// Whether the run succeeded (exit code 0).
    pub success: bool,
    /// The other files the run makes (`--explain-tile-sizes-json`, `--dump-tiling`), to be
    /// written, together with the output, only when the run succeeded: nothing is written to
    /// disk while the run goes on, so a failure leaves every file as it was.
    pub files: Vec<SideFile>,
}

/// A file besides the output that a run makes, not yet written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideFile {
    /// The flag that asked for it (`--dump-tiling`), for messages.
    pub flag: &'static str,
    /// Where it goes.
    pub path: std::path::PathBuf,
    /// What it holds.
    pub bytes: Vec<u8>,
}

/// What one input chunk gives: the output text and its side files.
struct ChunkOutput {
    text: String,
    files: Vec<SideFile>,
}

/// The registries a tool run needs.
pub struct Registries {
    /// Dialects and ops.
    pub dialects: DialectRegistry,
    /// Passes.
    pub passes: PassRegistry,
}

impl Registries {
    /// Every dialect and pass stencil-opt ships (the library's registries,
    /// `stencil::dialect_registry` and `stencil::pass_registry`).
    pub fn all() -> Self {
        Registries { dialects: stencil::dialect_registry(), passes: stencil::pass_registry() }
    }
}

/// Renders a diagnostic as `file:line:col: error: message`, followed by the source line and a
/// caret when the location is in `source` (the library's rendering: tools and library print
/// errors alike).
pub use stencil::render_with_source;

/// Runs the tool on `text` read from `file_name`.
pub fn run_opt(file_name: &str, text: &str, options: &OptOptions, registries: &Registries) -> OptOutcome {
    // Build the pass manager once; a bad pipeline is an error before any input is read.
    let pm_options = PassManagerOptions {
        verify_each: options.verify_each,
        print_ir_after_all: options.print_ir_after_all,
        timing: options.timing,
        allow_unregistered: options.allow_unregistered,
        generic_dumps: options.print_generic,
    };
    let mut pass_manager = match &options.pipeline {
        Some(p) => match PassManager::parse(p, &registries.passes, pm_options) {
            Ok(pm) => Some(pm),
            Err(e) => {
                return OptOutcome {
                    output: String::new(),
                    messages: format!("<pass-pipeline>: error: {e}\n"),
                    success: false,
                    files: vec![],
                }
            }
        },
        None => None,
    };
    // --explain-tile-sizes' own demands on the pipeline are the command line's errors, reported
    // once as such before any input is read (not per program, without a location).
    if options.explain_tile_sizes || options.explain_tile_sizes_json.is_some() {
        if let Err(e) = crate::explain::TilingPipeline::parse(options.pipeline.as_deref(), registries) {
            return OptOutcome {
                output: String::new(),
                messages: format!("stencil-opt: error: --explain-tile-sizes: {}\n", e.message),
                success: false,
                files: vec![],
            };
        }
    }
    let chunks =
        if options.split_input_file { split_input(text) } else { vec![crate::split::Chunk { text, first_line: 1 }] };
    // Every chunk is parsed and verified first, so that a --param no program declares is
    // refused before any pipeline runs.
    let parsed: Vec<_> = chunks
        .into_iter()
        .map(|chunk| {
            let source = SourceFile::with_first_line(file_name, chunk.text, chunk.first_line);
            let module = parse_and_verify(&source, options, registries);
            (chunk, source, module)
        })
        .collect();
    // (A chunk that does not parse fails the run anyway; its names are not known. An input
    // without programs — `affine` loops a pipeline raises — is checked after its pipeline,
    // against the programs it made: `process_module`.)
    if !options.params.is_empty() && parsed.iter().all(|(_, _, m)| m.is_ok()) {
        let mut declared = vec![];
        let mut programs = 0usize;
        for module in parsed.iter().filter_map(|(_, _, m)| m.as_ref().ok()) {
            let count = crate::params::declared_params(&module.ir, module.top, &mut declared);
            programs = programs.saturating_add(count);
        }
        if programs == 0 {
            // checked per chunk after its pipeline
        } else if let Err(e) = crate::params::check_known(&options.params, &declared, programs) {
            return OptOutcome {
                output: String::new(),
                messages: format!("stencil-opt: error: --param: {e}\n"),
                success: false,
                files: vec![],
            };
        }
    }
    let mut outputs = vec![];
    let mut files: Vec<SideFile> = vec![];
    let mut messages = String::new();
    let mut success = true;
    for (chunk, source, module) in parsed {
        let mut reported = vec![];
        let result = module.and_then(|m| process_module(m, options, registries, pass_manager.as_mut(), &mut reported));
        if options.verify_diagnostics {
            let mut expectations = match parse_expectations(file_name, chunk.text, chunk.first_line) {
                Ok(e) => e,
                Err(e) => {
                    messages.push_str(&format!("{e}\n"));
                    success = false;
                    continue;
                }
            };
            let mut produced = reported;
            if let Err(d) = &result {
                produced.push(d.clone());
            }
            let problems = check(file_name, &produced, &mut expectations);
            for p in &problems {
                messages.push_str(p);
                messages.push('\n');
            }
            success &= problems.is_empty();
            if let Ok(out) = result {
                outputs.push(out.text);
                add_files(&mut files, out.files);
            }
        } else {
            for d in &reported {
                messages.push_str(&render_with_source(d, &source));
            }
            match result {
                Ok(out) => {
                    outputs.push(out.text);
                    add_files(&mut files, out.files);
                }
                Err(d) => {
                    messages.push_str(&render_with_source(&d, &source));
                    success = false;
                }
            }
        }
    }
    if let Some(pm) = &pass_manager {
        if options.timing {
            messages.push_str(&pm.timing_report());
        }
    }
    let output = outputs.join(&format!("{SEPARATOR}\n"));
    OptOutcome { output, messages, success, files }
}

/// Adds a chunk's side files to those of the chunks before it: with `--split-input-file` a
/// later chunk's file replaces an earlier one's of the same path (each chunk makes the whole
/// file).
fn add_files(files: &mut Vec<SideFile>, chunk: Vec<SideFile>) {
    for file in chunk {
        files.retain(|f| f.path != file.path);
        files.push(file);
    }
}

/// Parses and verifies one chunk.
fn parse_and_verify(
    source: &SourceFile,
    options: &OptOptions,
    registries: &Registries,
) -> Result<stencil_ir::Module, Diagnostic> {
    let config = ParserConfig { registry: &registries.dialects, allow_unregistered: options.allow_unregistered };
    let module = {
        let _span = tracing::debug_span!("parse", file = %source.name()).entered();
        parse_source(source, config)?
    };
    verify(&module.ir, &registries.dialects, module.top, options.allow_unregistered)?;
    Ok(module)
}

/// Whether any op of `module` carries problem sizes for the tile model.
fn has_problem_sizes(module: &stencil_ir::Module) -> bool {
    let mut found = false;
    module.ir.walk(module.top, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
        found |= module.ir.attr(op, stencil_passes::tile_model::PROBLEM_SIZE_ATTR).is_some();
    });
    found
}

/// With PTX out and no problem sizes given: a warning at each mapped function whose mapping the
/// tile model chose (`model_chose` in its `stencil.gpu_mapping`: `sizes=auto`, `block=auto`,
/// or `staging=auto` for given tile sizes) for the program's declared default sizes. The PTX
/// holds that choice, and `stencil-run --ptx` with other `--param` values maps the program
/// for them and refuses the file where the model chooses differently.
fn defaults_warnings(module: &stencil_ir::Module) -> Vec<Diagnostic> {
    let mut out = vec![];
    module.ir.walk(module.top, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
        let Some(stencil_ir::Attribute::Dictionary(entries)) =
            module.ir.attr(op, stencil_lowering::gpu_map::MAPPING_ATTR)
        else {
            return;
        };
        let text = |name: &str| stencil_ir::attributes::get_named(entries, name).and_then(|a| a.as_str());
        if let (Some(chose), Some(problem)) = (text("model_chose"), text("problem")) {
            out.push(Diagnostic::warning(
                module.ir.location(op).clone(),
                format!(
                    "the tile model chose the {chose} of this GPU mapping for the program's declared default sizes ({problem}): no --param was given; give the sizes the PTX will run at with --param (stencil-run --ptx maps the program again for its own --param values and refuses this file where the model chooses otherwise), or fix the choice (poly-tile{{sizes=…}}, gpu-map{{block=… staging=true|false}})"
                ),
            ));
        }
    });
    out
}

/// Transforms and prints one parsed chunk; the passes' remarks and warnings go to `reported`
/// (also when a later step fails).
fn process_module(
    mut module: stencil_ir::Module,
    options: &OptOptions,
    registries: &Registries,
    pass_manager: Option<&mut PassManager>,
    reported: &mut Vec<Diagnostic>,
) -> Result<ChunkOutput, Diagnostic> {
    // An input without programs (`affine` loops the pipeline raises): the values go on the
    // module, where the raised programs' tile model finds them
    // (`stencil_passes::tile_model::problem_sizes`), for the pipeline only; their names are
    // checked against what the pipeline made.
    let raised = !options.params.is_empty() && stencil_programs(&module.ir, module.top).is_empty();
    // With PTX out: its index width, decided on the programs as they come in (the pipeline maps
    // them away).
    let ptx_index_bitwidth = (options.emit == Emit::Ptx)
        .then(|| options.gpu_index_bitwidth.unwrap_or_else(|| index_bitwidth_for(&module, &options.params)));
    // Whether the tile model reads problem sizes the input or --param gave, or the programs'
    // declared defaults (then PTX for other sizes needs --param: `defaults_warnings`).
    let sizes_given = !options.params.is_empty() || has_problem_sizes(&module);
    if !options.params.is_empty() {
        // A value below a program's declared minimum is refused at that program.
        crate::params::check_minimums(&module.ir, module.top, &options.params)?;
        stencil_passes::tile_model::set_problem_sizes(&mut module.ir, module.top, &options.params);
    }
    if let Some(sizes) = stencil_passes::tile_model::problem_size_attribute(options.params.iter()).filter(|_| raised) {
        module.ir.set_attribute(module.top, stencil_passes::tile_model::PROBLEM_SIZE_ATTR, sizes);
    }
    let mut explanation = String::new();
    let mut files = vec![];
    // The explanation reads the programs as the pipeline's poly-tile leaves them, kept from this
    // run (`PassManager::keep_ir_after`) so that poly-tile's searches run once; its pipeline is
    // checked first, as before anything ran.
    let explaining = (options.explain_tile_sizes || options.explain_tile_sizes_json.is_some())
        .then(|| crate::explain::TilingPipeline::parse(options.pipeline.as_deref(), registries))
        .transpose()?;
    let mut tiled = None;
    // For gpu-map{strategy=auto} (no poly-tile to keep the IR after), the explanation runs the
    // tiling auto would on a copy of the input.
    let before = explaining.as_ref().filter(|t| t.for_auto).map(|_| module.clone());
    if let Some(pm) = pass_manager {
        if explaining.as_ref().is_some_and(|t| !t.for_auto) {
            pm.keep_ir_after("poly-tile");
        }
        let result = pm.run(&mut module.ir, module.top, &registries.dialects);
        reported.extend(pm.take_reported());
        tiled = pm.take_kept_ir().map(|ir| stencil_ir::Module { ir, top: module.top, source: module.source.clone() });
        result?;
    }
    if let Some(tiling) = &explaining {
        // (parsed: the pipeline ran and has a top-level poly-tile, so its IR was kept; or it is
        // gpu-map{strategy=auto}'s, run here on the input)
        let tiled = match &before {
            Some(input) => tiling.run_prefix(input, registries)?,
            None => tiled.ok_or_else(|| {
                Diagnostic::error(Location::Unknown, "tile model: internal: the pipeline kept no IR after poly-tile")
            })?,
        };
        let (layouts, not_tiled) = tiling.explained(tiling.layouts(&tiled, registries)?, &module);
        let reports = crate::explain::explain_tile_sizes(layouts)?;
        if options.explain_tile_sizes {
            explanation = not_tiled.iter().map(|line| format!("// tile model: {line}\n")).collect();
            explanation.push_str(&crate::explain::render_comments(&reports));
        }
        if let Some(path) = &options.explain_tile_sizes_json {
            // Written by the caller, and only if the whole run succeeds.
            let bytes = crate::explain::render_json(&reports).into_bytes();
            files.push(SideFile { flag: "--explain-tile-sizes-json", path: path.clone(), bytes });
        }
    }
    if raised {
        module.ir.remove_attr(module.top, stencil_passes::tile_model::PROBLEM_SIZE_ATTR);
        let mut declared = vec![];
        let (made, first) = crate::params::declared_after_pipeline(&module.ir, module.top, &mut declared);
        if let Err(e) = crate::params::check_known(&options.params, &declared, made) {
            let location = first.map_or(Location::Unknown, |op| module.ir.location(op).clone());
            return Err(Diagnostic::error(location, format!("--param: {e}")));
        }
    }
    let print = PrintOptions { generic: options.print_generic, debug_info: options.print_debuginfo };
    let mut text = explanation;
    if options.print_dependences {
        let dependence_options = DependenceOptions { mode: options.dependence_mode, ..DependenceOptions::default() };
        text.push_str(&dependence_report(&module.ir, &registries.dialects, module.top, &dependence_options)?);
    }
    if options.print_schedule {
        text.push_str(&schedule_report(&module.ir, &registries.dialects, module.top)?);
    }
    if let Some(path) = &options.dump_tiling {
        let bytes = dump_tiling(&module, registries, &options.dump_tiling_request)?.into_bytes();
        files.push(SideFile { flag: "--dump-tiling", path: path.clone(), bytes });
    }
    if let Some(index_bitwidth) = ptx_index_bitwidth {
        if !sizes_given {
            reported.extend(defaults_warnings(&module));
        }
        // The dependence and schedule reports are `//` lines, which PTX reads as comments.
        text.push_str(&emit_ptx(&module, registries, options.gpu_chip.as_deref(), index_bitwidth)?);
        return Ok(ChunkOutput { text, files });
    }
    text.push_str(&print_op(&module.ir, &registries.dialects, module.top, print));
    text.push('\n');
    Ok(ChunkOutput { text, files })
}

/// The width of `index` `--emit=ptx` compiles with when `--gpu-index-bitwidth` is not given:
/// 32 when `--param` gives the problem (`params`, the declared defaults for the parameters it
/// leaves out) and at it every field of every program of `module` has fewer than 2³¹ elements —
/// `stencil-run`'s rule for the fields it runs (`run::gpu::default_index_bitwidth`): every
/// index and linearised offset then fits, and index arithmetic takes half the registers —
/// else 64, the width for any size: without `--param`, for an input of `affine` loops (its
/// programs exist only inside the pipeline), or when a field does not fit or its shape cannot
/// be evaluated. A run of the 32-bit PTX on fields too large for it is refused by the
/// executor's parameter check (`stencil-run --ptx`).
pub fn index_bitwidth_for(module: &stencil_ir::Module, params: &[(String, i64)]) -> u32 {
    let programs = stencil_programs(&module.ir, module.top);
    if params.is_empty() || programs.is_empty() {
        return 64;
    }
    let fits = programs.iter().all(|&program| {
        let declared = stencil_dialects::stencil::ProgramParams::of(&module.ir, program).names;
        let given: std::collections::BTreeMap<String, i64> =
            params.iter().filter(|(name, _)| declared.contains(name)).cloned().collect();
        stencil_runtime::CompiledProgram::new(&module.ir, program, &given).is_ok_and(|compiled| {
            compiled.interface().fields.iter().all(|field| {
                field.shape.iter().try_fold(1usize, |n, &extent| n.checked_mul(extent)).is_some_and(|n| n < 1 << 31)
            })
        })
    });
    if fits {
        32
    } else {
        64
    }
}

/// `--emit=ptx`: the PTX of every `gpu.module` of `module`, each after a `//` header with its
/// name, chip, index width and fingerprint and the parameter ABI of its kernels (comments, so
/// a single module stays valid PTX). `stencil-run --ptx` reads this format back
/// (`stencil_lowering::ptx::precompiled`).
fn emit_ptx(
    module: &stencil_ir::Module,
    registries: &Registries,
    chip: Option<&str>,
    index_bitwidth: u32,
) -> Result<String, Diagnostic> {
    let defaults = PtxOptions::with_found_libdevice();
    let options = PtxOptions { chip: chip.unwrap_or(DEFAULT_CHIP).to_string(), index_bitwidth, ..defaults };
    let compiled = compile_gpu_modules(&module.ir, &registries.dialects, module.top, &options).map_err(|e| {
        // MLIR may report several errors: the first leads, the others follow as its notes.
        let mut diagnostics = e.diagnostics().into_iter();
        let mut first =
            diagnostics.next().unwrap_or_else(|| Diagnostic::error(stencil_ir::Location::Unknown, e.to_string()));
        first.notes.extend(diagnostics);
        first
    })?;
    if compiled.is_empty() {
        return Err(Diagnostic::error(
            module.ir.location(module.top).clone(),
            "--emit=ptx: no gpu.module to compile (the pipeline must map the program to the GPU first)",
        ));
    }
    Ok(render_ptx_file(&compiled))
}

/// The `--dump-tiling` picture (SVG) of the first `stencil.program` of `module`.
fn dump_tiling(
    module: &stencil_ir::Module,
    registries: &Registries,
    request: &TilingSvgRequest,
) -> Result<String, Diagnostic> {
    let Some(&program) = stencil_programs(&module.ir, module.top).first() else {
        return Err(Diagnostic::error(
            module.ir.location(module.top).clone(),
            "--dump-tiling needs a stencil.program after the pipeline (draw before poly-codegen lowers it)",
        ));
    };
    tiling_svg(&module.ir, &registries.dialects, program, request)
}
