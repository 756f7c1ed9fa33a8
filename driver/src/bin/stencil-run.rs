//! `stencil-run`: compile (optionally transform) and run a stencil program, verify it against
//! the reference interpreter, report timing and checksums, save the fields.

use clap::{CommandFactory, Parser};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::process::ExitCode;
use stencil_driver::cli::{normalize_args, read_input, write_stderr, write_stdout};
use stencil_driver::opt::Registries;
use stencil_driver::params::{parse_params, split_assignment};
use stencil_driver::run::converge::{ConvergeOptions, Norm};
use stencil_driver::run::gpu::GpuRunOptions;
use stencil_driver::run::init::InitPlan;
use stencil_driver::run::{run_program, RunError, RunOptions, RunProgress, Target};
use stencil_runtime::ScalarValue;

/// Command-line flags.
#[derive(Parser, Debug)]
#[command(
    name = "stencil-run",
    version,
    about = "Run a stencil program (optionally transformed by a pass pipeline) and check it against the reference interpreter",
    after_help = "Long options may also be written with one dash (-pass-pipeline=...), as mlir-opt allows."
)]
struct Cli {
    /// Input file: a stencil.program, a lowered program, or an affine input (a func.func of
    /// affine loops, raised to a stencil program; --check then compares with the function).
    input: String,
    /// A parameter value, `NAME=INT` (repeatable, once per name); overrides the program's
    /// default.
    #[arg(long = "param", value_name = "NAME=INT")]
    params: Vec<String>,
    /// A scalar argument value, `NAME=NUMBER` (repeatable, once per name); overrides the
    /// program's default.
    #[arg(long = "scalar", value_name = "NAME=NUMBER")]
    scalars: Vec<String>,
    /// Where to run: `ref` (the reference interpreter), `sim` (the GPU simulator) or `gpu`
    /// (an NVIDIA GPU). `sim` and `gpu` need a program mapped by the pipeline's `gpu-map`.
    #[arg(long, default_value = "ref")]
    target: String,
    /// With --target gpu: compile the kernels for this chip (`sm_80`) instead of the GPU's own.
    #[arg(long = "gpu-chip", value_name = "CHIP")]
    gpu_chip: Option<String>,
    /// With --target gpu (and --target sim --cost's registers): width of `index` in the
    /// kernels, 64 or 32 (fewer registers; fields below 2^31 elements); by default 32 when
    /// every field has fewer than 2^31 elements, else 64 (docs/gpu.md).
    #[arg(long = "gpu-index-bitwidth", value_name = "BITS", value_parser = parse_index_bitwidth)]
    gpu_index_bitwidth: Option<u32>,
    /// LLVM's code-generator flags for the kernels compiled to PTX.
    #[command(flatten)]
    codegen: stencil_driver::cli::CodegenArgs,
    /// With --target gpu: run the kernels' PTX from FILE (written by `stencil-opt --emit=ptx`
    /// for the same input and --pass-pipeline) instead of compiling it; needed by builds
    /// without MLIR. The file must match the mapped kernels (fingerprints), or the run is
    /// refused. With --target sim the match is checked and the simulator runs.
    #[arg(long = "ptx", value_name = "FILE")]
    ptx: Option<String>,
    /// With --target sim: report what the kernels would cost on a GPU (an H100 model):
    /// warp-instructions, lane utilisation, memory traffic and barriers per kernel and per
    /// point update, registers from ptxas, occupancy and an estimated time (docs/cost-model.md).
    #[arg(long)]
    cost: bool,
    /// With --target sim: where the kernels' warp-instructions go — per location of the kernel
    /// op they were compiled from, the most first (run a lowered file, e.g. from `stencil-opt
    /// --pass-pipeline=…`, to see its lines) (docs/cost-model.md).
    #[arg(long)]
    profile: bool,
    /// With --target gpu: untimed runs before the timed one (each from the initial fields).
    #[arg(long, value_name = "N", default_value_t = 0)]
    warmup: u32,
    /// With --target gpu: wait for each kernel, so a failing one is named.
    #[arg(long = "sync-each-launch")]
    sync_each_launch: bool,
    /// Initial field values: `random[:SEED]`, `const:V`, `zeros` for all fields, or
    /// `NAME=random[:SEED]|const:V|zeros|FILE.npy` for one (repeatable, once per field).
    /// Default: random:0.
    #[arg(long = "init", value_name = "SPEC")]
    init: Vec<String>,
    /// Write every field as DIR/NAME.npy after a successful run, all or nothing: a failure
    /// leaves DIR as it was.
    #[arg(long = "out", value_name = "DIR")]
    out: Option<String>,
    /// Print one JSON object instead of the text report; errors too (`{"error": …}`).
    #[arg(long)]
    json: bool,
    /// Transform the program before running it (same syntax as stencil-opt).
    #[arg(short = 'p', long = "pass-pipeline", value_name = "PIPELINE")]
    pass_pipeline: Option<String>,
    /// Also run the untransformed program on the reference interpreter and compare every field.
    #[arg(long)]
    check: bool,
    /// With --check: allowed absolute difference per value (default 0: bit-exact).
    #[arg(long, value_name = "ABS", default_value_t = 0.0)]
    tolerance: f64,
    /// Check (implies --check) against the program after this pass pipeline instead of the
    /// untransformed one, both from the same initial fields: for rewrites that change the
    /// results on purpose (stencil-rbsor, stencil-mlsor), e.g.
    /// --check-after='builtin.module(stencil-mlsor{K=2 P=4})'.
    #[arg(long = "check-after", value_name = "PIPELINE")]
    check_after: Option<String>,
    /// Which program to run when the file has several (for an affine input: which function).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// Affine input: take the function's memref arguments to be distinct buffers, as C's
    /// `restrict` (`{llvm.noalias}`) says, when the front end did not mark them
    /// (raise-affine-to-stencil{assume-no-alias=true}).
    #[arg(long = "assume-no-alias")]
    assume_no_alias: bool,
    /// Accept ops, types and attributes of unregistered dialects (a front end's `dlti` data
    /// layout on the module), as stencil-opt does.
    #[arg(long = "allow-unregistered-dialect")]
    allow_unregistered: bool,
    /// Run the program a few steps at a time until the norm (--norm) of a field is below TOL;
    /// report steps, SOR sweeps, the final norm and the time.
    #[arg(long, value_name = "TOL")]
    converge: Option<f64>,
    /// With --converge: residual-l2 (default), residual-max (the Laplace residual Σ neighbours −
    /// 2·rank·u over the interior), change-l2 or change-max (since the previous check).
    #[arg(long, value_name = "NORM", default_value = "residual-l2")]
    norm: String,
    /// With --converge: the field measured (default: the program's first field).
    #[arg(long = "converge-field", value_name = "NAME")]
    converge_field: Option<String>,
    /// With --converge: the parameter counting time steps.
    #[arg(long = "steps-param", value_name = "NAME", default_value = "T")]
    steps_param: String,
    /// With --converge: steps per run between two norm checks.
    #[arg(long = "check-every", value_name = "STEPS", default_value_t = 1)]
    check_every: i64,
    /// With --converge: give up after this many steps.
    #[arg(long = "max-steps", value_name = "STEPS", default_value_t = 100_000)]
    max_steps: u64,
    /// With --converge: SOR sweeps per step (default: what stencil-rbsor/stencil-mlsor recorded,
    /// else the applies of the time loop).
    #[arg(long = "sweeps-per-step", value_name = "N")]
    sweeps_per_step: Option<u64>,
    /// With --converge: TOL is relative to the initial residual (or to the first change).
    #[arg(long)]
    relative: bool,
    /// Log filter (tracing EnvFilter syntax); defaults to RUST_LOG.
    #[arg(long = "log", value_name = "FILTER")]
    log: Option<String>,
}

fn options(cli: &Cli) -> Result<RunOptions, String> {
    // The names and minimums are checked against the program when it is bound.
    let params: BTreeMap<String, i64> = parse_params(&cli.params)?.into_iter().collect();
    let mut scalars = BTreeMap::new();
    for s in &cli.scalars {
        let (n, v) = split_assignment("--scalar", s)?;
        let value = match v.parse::<i64>() {
            Ok(i) => ScalarValue::Int(i),
            Err(_) => ScalarValue::Float(v.parse().map_err(|_| format!("--scalar {n}: '{v}' is not a number"))?),
        };
        if let Some(first) = scalars.insert(n.to_string(), value) {
            return Err(format!("--scalar {n} is given twice ({first}, then {value}): give each scalar once"));
        }
    }
    if !(cli.tolerance >= 0.0 && cli.tolerance.is_finite()) {
        return Err(format!("--tolerance must be a finite non-negative number, got {}", cli.tolerance));
    }
    let converge = match cli.converge {
        None => None,
        Some(tol) if tol > 0.0 && tol.is_finite() => {
            if cli.check_every < 1 {
                return Err(format!("--check-every must be at least 1, got {}", cli.check_every));
            }
            Some(ConvergeOptions {
                tolerance: tol,
                norm: Norm::parse(&cli.norm).map_err(|e| format!("--norm: {e}"))?,
                field: cli.converge_field.clone(),
                steps_param: cli.steps_param.clone(),
                every: cli.check_every,
                max_steps: cli.max_steps,
                sweeps_per_step: cli.sweeps_per_step,
                relative: cli.relative,
            })
        }
        Some(tol) => return Err(format!("--converge must be a positive tolerance, got {tol}")),
    };
    if let Some(chip) = &cli.gpu_chip {
        stencil_lowering::ptx::PtxOptions { chip: chip.clone(), ..Default::default() }
            .validate()
            .map_err(|e| format!("--gpu-chip: {e}"))?;
    }
    Ok(RunOptions {
        converge,
        params,
        scalars,
        target: Target::parse(&cli.target)?,
        init: InitPlan::parse(&cli.init)?,
        out_dir: cli.out.as_ref().map(Into::into),
        pipeline: cli.pass_pipeline.clone(),
        check: cli.check || cli.check_after.is_some(),
        check_after: cli.check_after.clone(),
        tolerance: cli.tolerance,
        entry: cli.entry.clone(),
        assume_no_alias: cli.assume_no_alias,
        allow_unregistered: cli.allow_unregistered,
        gpu: GpuRunOptions {
            chip: cli.gpu_chip.clone(),
            warmup: cli.warmup,
            sync_each_launch: cli.sync_each_launch,
            index_bitwidth: cli.gpu_index_bitwidth,
            ptx_file: cli.ptx.as_ref().map(Into::into),
        },
        cost: cli.cost,
        profile: cli.profile,
        // Counting the simulator's blocks first is only worth it where a person watches.
        progress: std::io::stderr().is_terminal(),
    })
}

/// Reports `error` and fails: as one JSON object on stdout with `--json` (what a script
/// parses, whatever happened), else as text on stderr.
fn fail(json: bool, error: &RunError) -> ExitCode {
    if json {
        if let Err(e) = write_stdout(&format!("{}\n", error.to_json())) {
            write_stderr(&format!("{error}\nstencil-run: error: cannot write to standard output: {e}\n"));
        }
    } else {
        // A run that finished but is wrong (a failed --check): its warnings and report where a
        // passing run puts them — the warnings often say why (a rewrite that is not
        // dependence-preserving) — then the error.
        if let Some(report) = &error.report {
            for warning in &report.warnings {
                write_stderr(&format!("{}\n", warning.trim_end()));
            }
            if let Err(e) = write_stdout(&report.render_text()) {
                write_stderr(&format!("stencil-run: error: cannot write the report to standard output: {e}\n"));
            }
        }
        let mut text = error.to_string();
        // An error without a place in the input (a --param, --scalar, --init or --entry that
        // does not fit the program) is the tool's, as usage errors are.
        if text.starts_with("error: ") {
            text.insert_str(0, "stencil-run: ");
        }
        write_stderr(&if text.ends_with('\n') { text } else { text + "\n" });
    }
    ExitCode::FAILURE
}

/// An error of the command line itself (not of the program).
fn usage_error(message: impl std::fmt::Display) -> RunError {
    let mut error = RunError::new(message.to_string());
    error.text = format!("stencil-run: {}", error.text);
    error
}

fn main() -> ExitCode {
    let args = normalize_args(&Cli::command(), std::env::args_os());
    let json = args.iter().skip(1).any(|a| a == "--json");
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if json && e.use_stderr() => {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            return fail(json, &usage_error(first.strip_prefix("error: ").unwrap_or(first)));
        }
        Err(e) => e.exit(),
    };
    if let Err(e) = stencil_driver::logging::init(cli.log.as_deref()) {
        return fail(json, &usage_error(e));
    }
    let options = match options(&cli) {
        Ok(o) => o,
        Err(e) => return fail(json, &usage_error(e)),
    };
    if let Err(e) = stencil_driver::cli::configure_llvm(&cli.codegen) {
        return fail(json, &usage_error(e));
    }
    let text = match read_input(&cli.input) {
        Ok((_, t)) => t,
        Err(e @ stencil_driver::cli::InputError::NotUtf8 { .. }) => return fail(json, &RunError::new(e.to_string())),
        Err(e) => return fail(json, &usage_error(e)),
    };
    // A progress bar only where a person watches: stderr is a terminal.
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {msg} ({per_sec}, eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let mut on_progress = |p: RunProgress| {
        if let Some(bar) = &bar {
            bar.set_length(p.total);
            bar.set_position(p.done);
            if bar.message().is_empty() {
                bar.set_message(p.unit);
            }
        }
    };
    let result = run_program(&cli.input, &text, &options, &Registries::all(), &mut on_progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = match result {
        Ok(report) => report,
        Err(e) => return fail(json, &e),
    };
    for warning in &report.warnings {
        write_stderr(&format!("{}\n", warning.trim_end()));
    }
    let text = if cli.json { format!("{}\n", report.to_json()) } else { report.render_text() };
    // A closed pipe (`| head -0`) or a full disk is an error, not a panic; the fields of
    // --out are already written.
    match write_stdout(&text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            write_stderr(&format!("stencil-run: error: cannot write the report to standard output: {e}\n"));
            ExitCode::FAILURE
        }
    }
}

/// `--gpu-index-bitwidth`: 32 or 64.
fn parse_index_bitwidth(text: &str) -> Result<u32, String> {
    match text {
        "32" => Ok(32),
        "64" => Ok(64),
        _ => Err(format!("'{text}' is not a supported index width (32 or 64)")),
    }
}
