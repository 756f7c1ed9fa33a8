//! `stencil-opt`: parse, verify, transform and print IR, like `mlir-opt`.

use clap::{CommandFactory, Parser};
use std::process::ExitCode;
use stencil_driver::cli::{normalize_args, read_input, write_files_atomically, write_stderr, write_stdout, InputError};
use stencil_driver::opt::{run_opt, Emit, OptOptions, Registries};
use stencil_poly::DependenceMode;

/// Command-line flags (names follow mlir-opt; single-dash long options such as
/// `-pass-pipeline=…` work too).
#[derive(Parser, Debug)]
#[command(
    name = "stencil-opt",
    version,
    about = "Parse, verify, transform and print stencil-opt IR (MLIR textual format)",
    after_help = "Long options may also be written with one dash, as mlir-opt allows (-pass-pipeline=..., -split-input-file)."
)]
struct Cli {
    /// Input file, or `-` for standard input.
    #[arg(default_value = "-")]
    input: String,
    /// Output file (standard output by default). Written only when the run succeeds, and
    /// atomically: a failed run leaves an existing FILE as it was.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<String>,
    /// Pass pipeline, e.g. `builtin.module(canonicalize,cse)`.
    #[arg(short = 'p', long = "pass-pipeline", value_name = "PIPELINE")]
    pass_pipeline: Option<String>,
    /// Process each `// -----` separated chunk of the input independently.
    #[arg(long = "split-input-file")]
    split_input_file: bool,
    /// Check diagnostics against `// expected-error` comments instead of reporting them.
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,
    /// Print every op in generic form.
    #[arg(long = "mlir-print-op-generic")]
    print_generic: bool,
    /// Print locations (`loc(...)`) after ops.
    #[arg(long = "mlir-print-debuginfo")]
    print_debuginfo: bool,
    /// Accept ops, types and attributes of unregistered dialects.
    #[arg(long = "allow-unregistered-dialect")]
    allow_unregistered: bool,
    /// Print the IR to stderr after each pass.
    #[arg(long = "mlir-print-ir-after-all", visible_alias = "print-ir-after-all")]
    print_ir_after_all: bool,
    /// Report the time spent in each pass on stderr.
    #[arg(long = "mlir-timing", visible_alias = "timing")]
    timing: bool,
    /// Run the verifier after each pass.
    #[arg(long = "verify-each", default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    verify_each: bool,
    /// After the pipeline, print the dependences of every stencil.program (as `//` comments,
    /// before the IR; format in docs/poly.md).
    #[arg(long = "test-print-dependences")]
    test_print_dependences: bool,
    /// After the pipeline, print the schedule (`poly.schedule`) of every statement of every
    /// stencil.program, `S0: (t, 2*t + i)` (as `//` comments, before the IR).
    #[arg(long = "test-print-schedule")]
    test_print_schedule: bool,
    /// Which dependences --test-print-dependences prints: `direct` (no intervening write to the
    /// element; thesis Table 3.1) or `memory` (every conflicting pair).
    #[arg(long = "dependence-mode", value_enum, default_value_t = DependenceModeArg::Direct, value_name = "MODE")]
    dependence_mode: DependenceModeArg,

    /// Draw the tiling of the first stencil.program after the pipeline as SVG into FILE
    /// (points, tiles, inter-tile wavefront numbers, dependences; docs/passes.md).
    #[arg(long = "dump-tiling", value_name = "FILE")]
    dump_tiling: Option<std::path::PathBuf>,

    /// Parameter values for --dump-tiling (default: the program's defaults), e.g. T=6,N=20.
    #[arg(long = "dump-tiling-params", value_name = "NAME=VALUE,...", value_delimiter = ',', value_parser = parse_param)]
    dump_tiling_params: Vec<(String, i64)>,

    /// The statement (apply name) --dump-tiling draws (default: the first with two iterators).
    #[arg(long = "dump-tiling-statement", value_name = "NAME")]
    dump_tiling_statement: Option<String>,

    /// Problem sizes for the tile model (`poly-tile{sizes=auto}`, `gpu-map{block=auto}`):
    /// recorded on every program that declares NAME before the pipeline; without them the
    /// programs' declared defaults are used. A NAME given twice, one no program of the input
    /// declares, or a value below the program's declared minimum is an error.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    param: Vec<String>,

    /// Print the tile model's search for the pipeline's `poly-tile` (thesis Alg. 5.1: the best
    /// layouts with their predicted times, and what was pruned and why) as `//` comments before
    /// the output (docs/tile-models.md).
    #[arg(long = "explain-tile-sizes")]
    explain_tile_sizes: bool,

    /// Write the same explanation as JSON to FILE.
    #[arg(long = "explain-tile-sizes-json", value_name = "FILE")]
    explain_tile_sizes_json: Option<std::path::PathBuf>,

    /// List the registered passes with their options and exit.
    #[arg(long = "list-passes")]
    list_passes: bool,
    /// Print the list of registered dialects and exit.
    #[arg(long = "show-dialects")]
    show_dialects: bool,
    /// Log filter (tracing EnvFilter syntax, e.g. `debug` or `stencil_ir::pass=trace`);
    /// defaults to `RUST_LOG`.
    #[arg(long = "log", value_name = "FILTER")]
    log: Option<String>,
    /// What to write after the pipeline: `mlir` (the IR) or `ptx` (every gpu.module compiled to
    /// PTX by MLIR 22, with its kernels' parameter ABI as comments; docs/gpu.md).
    #[arg(long = "emit", value_enum, default_value_t = EmitArg::Mlir, value_name = "KIND")]
    emit: EmitArg,
    /// The GPU --emit=ptx compiles for.
    #[arg(long = "gpu-chip", default_value = stencil_lowering::ptx::DEFAULT_CHIP, value_name = "sm_XX")]
    gpu_chip: String,

    /// Width of `index` in kernels for --emit=ptx: 32 (fewer registers; fields below 2^31
    /// elements) or 64. Default: 32 when --param gives the problem and every field fits at it
    /// (as stencil-run chooses for the fields it runs), else 64 (docs/gpu.md).
    #[arg(long = "gpu-index-bitwidth", value_name = "BITS")]
    gpu_index_bitwidth: Option<u32>,
    /// LLVM's code-generator flags for the kernels compiled to PTX.
    #[command(flatten)]
    codegen: stencil_driver::cli::CodegenArgs,
}

/// `--emit` values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum EmitArg {
    /// The IR after the pipeline.
    Mlir,
    /// PTX of every gpu.module.
    Ptx,
}

/// `--dependence-mode` values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum DependenceModeArg {
    /// Pairs with no write to the same element in between (last-writer for flow).
    Direct,
    /// Every pair of conflicting accesses.
    Memory,
}

fn list_passes(registries: &Registries) -> String {
    let mut out = String::from("Passes:\n");
    for p in registries.passes.iter() {
        out.push_str(&format!("  {:<24} {}\n", p.argument, p.summary));
        for o in &p.options {
            out.push_str(&format!(
                "      {}={:<10} {} (default: {})\n",
                o.name,
                format!("{:?}", o.kind).to_lowercase(),
                o.description,
                o.default
            ));
        }
    }
    out
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(normalize_args(&Cli::command(), std::env::args_os()));
    if let Err(e) = stencil_driver::logging::init(cli.log.as_deref()) {
        write_stderr(&format!("stencil-opt: error: {e}\n"));
        return ExitCode::FAILURE;
    }
    let registries = Registries::all();
    if cli.list_passes || cli.show_dialects {
        let text = if cli.list_passes {
            list_passes(&registries)
        } else {
            // mlir-opt's format, so scripts written for it read ours.
            format!("Available Dialects: {}\n", registries.dialects.dialect_names().join(","))
        };
        return match write_stdout(&text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                write_stderr(&format!("stencil-opt: error: cannot write to standard output: {e}\n"));
                ExitCode::FAILURE
            }
        };
    }
    if let Err(e) = stencil_driver::cli::configure_llvm(&cli.codegen) {
        write_stderr(&format!("stencil-opt: error: {e}\n"));
        return ExitCode::FAILURE;
    }
    // Each flag is checked on its own, before any input is read, so the error names it.
    let chip_check = stencil_lowering::ptx::PtxOptions { chip: cli.gpu_chip.clone(), ..Default::default() };
    if let Err(e) = chip_check.validate() {
        write_stderr(&format!("stencil-opt: error: --gpu-chip: {e}\n"));
        return ExitCode::FAILURE;
    }
    if let Some(index_bitwidth) = cli.gpu_index_bitwidth {
        let width_check = stencil_lowering::ptx::PtxOptions { index_bitwidth, ..Default::default() };
        if let Err(e) = width_check.validate() {
            write_stderr(&format!("stencil-opt: error: --gpu-index-bitwidth: {e}\n"));
            return ExitCode::FAILURE;
        }
    }
    let params = match stencil_driver::params::parse_params(&cli.param) {
        Ok(p) => p,
        Err(e) => {
            write_stderr(&format!("stencil-opt: error: {e}\n"));
            return ExitCode::FAILURE;
        }
    };
    let (name, text) = match read_input(&cli.input) {
        Ok(t) => t,
        // Located errors carry their own `file:line:col: error:` prefix.
        Err(e @ InputError::NotUtf8 { .. }) => {
            write_stderr(&format!("{e}\n"));
            return ExitCode::FAILURE;
        }
        Err(e) => {
            write_stderr(&format!("stencil-opt: error: {e}\n"));
            return ExitCode::FAILURE;
        }
    };
    let options = OptOptions {
        pipeline: cli.pass_pipeline,
        split_input_file: cli.split_input_file,
        verify_diagnostics: cli.verify_diagnostics,
        print_generic: cli.print_generic,
        print_debuginfo: cli.print_debuginfo,
        allow_unregistered: cli.allow_unregistered,
        print_ir_after_all: cli.print_ir_after_all,
        timing: cli.timing,
        verify_each: cli.verify_each,
        print_dependences: cli.test_print_dependences,
        print_schedule: cli.test_print_schedule,
        dump_tiling: cli.dump_tiling.clone(),
        dump_tiling_request: stencil_passes::tile::TilingSvgRequest {
            params: cli.dump_tiling_params.clone(),
            statement: cli.dump_tiling_statement.clone(),
        },
        dependence_mode: match cli.dependence_mode {
            DependenceModeArg::Direct => DependenceMode::Direct,
            DependenceModeArg::Memory => DependenceMode::MemoryBased,
        },
        emit: match cli.emit {
            EmitArg::Mlir => Emit::Mlir,
            EmitArg::Ptx => Emit::Ptx,
        },
        gpu_chip: Some(cli.gpu_chip),
        gpu_index_bitwidth: cli.gpu_index_bitwidth,
        params,
        explain_tile_sizes: cli.explain_tile_sizes,
        explain_tile_sizes_json: cli.explain_tile_sizes_json.clone(),
    };
    let outcome = run_opt(&name, &text, &options, &registries);
    if !outcome.messages.is_empty() {
        write_stderr(&outcome.messages);
    }
    let to_stdout = matches!(cli.output.as_deref(), None | Some("-"));
    if to_stdout {
        // Standard output is a stream: what the chunks that succeeded printed goes out even
        // when another failed, as mlir-opt does.
        if let Err(e) = write_stdout(&outcome.output) {
            write_stderr(&format!("stencil-opt: error: cannot write to standard output: {e}\n"));
            return ExitCode::FAILURE;
        }
    }
    if !outcome.success {
        // A failed run (parse error, bad pipeline, failed --emit=ptx or --dump-tiling) must not
        // replace, let alone truncate, any file it was asked to write.
        return ExitCode::FAILURE;
    }
    // Every file of the run, written all or nothing: each in one rename, and none unless all
    // could be written.
    let mut files: Vec<(&std::path::Path, &[u8])> =
        outcome.files.iter().map(|f| (f.path.as_path(), f.bytes.as_slice())).collect();
    let output_path = cli.output.as_deref().filter(|_| !to_stdout).map(std::path::Path::new);
    if let Some(path) = output_path {
        files.push((path, outcome.output.as_bytes()));
    }
    if let Err(e) = write_files_atomically(&files) {
        let what = match outcome.files.get(e.index) {
            Some(side) => format!("{}: cannot write '{}'", side.flag, e.path.display()),
            None => format!("cannot write output file '{}'", e.path.display()),
        };
        let others = if files.len() > 1 { "; no file was written" } else { "" };
        write_stderr(&format!("stencil-opt: error: {what}: {}{others}\n", e.source));
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// `N=20` → `("N", 20)`.
fn parse_param(item: &str) -> Result<(String, i64), String> {
    let (name, value) = item.split_once('=').ok_or_else(|| format!("expected NAME=VALUE in '{item}'"))?;
    let value: i64 = value.trim().parse().map_err(|_| format!("'{}' is not an integer (in '{item}')", value.trim()))?;
    Ok((name.trim().to_string(), value))
}
