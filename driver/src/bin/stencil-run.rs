//! `stencil-run`: compile (optionally transform) and run a stencil program, verify it against
//! the reference interpreter, report timing and checksums, save the fields.

use clap::Parser;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::process::ExitCode;
use stencil_driver::opt::Registries;
use stencil_driver::run::gpu::GpuRunOptions;
use stencil_driver::run::init::InitPlan;
use stencil_driver::run::{run_program, RunOptions, Target};
use stencil_runtime::{Progress, ScalarValue};

/// Command-line flags.
#[derive(Parser, Debug)]
#[command(
    name = "stencil-run",
    version,
    about = "Run a stencil program (optionally transformed by a pass pipeline) and check it against the reference interpreter"
)]
struct Cli {
    /// Input file: a stencil.program, a lowered program, or an affine input (a func.func of
    /// affine loops, raised to a stencil program; --check then compares with the function).
    input: String,
    /// A parameter value, `NAME=INT` (repeatable); overrides the program's default.
    #[arg(long = "param", value_name = "NAME=INT")]
    params: Vec<String>,
    /// A scalar argument value, `NAME=NUMBER` (repeatable); overrides the program's default.
    #[arg(long = "scalar", value_name = "NAME=NUMBER")]
    scalars: Vec<String>,
    /// Where to run: `ref` (the reference interpreter), `sim` (the GPU simulator) or `gpu`
    /// (an NVIDIA GPU). `sim` and `gpu` need a program mapped by the pipeline's `gpu-map`.
    #[arg(long, default_value = "ref")]
    target: String,
    /// With --target gpu: compile the kernels for this chip (`sm_80`) instead of the GPU's own.
    #[arg(long = "gpu-chip", value_name = "CHIP")]
    gpu_chip: Option<String>,
    /// With --target gpu: width of `index` in the kernels, 64 or 32 (fewer registers; fields
    /// below 2^31 elements; docs/gpu.md).
    #[arg(long = "gpu-index-bitwidth", value_name = "BITS", value_parser = parse_index_bitwidth)]
    gpu_index_bitwidth: Option<u32>,
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
    /// With --target gpu: untimed runs before the timed one (each from the initial fields).
    #[arg(long, value_name = "N", default_value_t = 0)]
    warmup: u32,
    /// With --target gpu: wait for each kernel, so a failing one is named.
    #[arg(long = "sync-each-launch")]
    sync_each_launch: bool,
    /// Initial field values: `random[:SEED]`, `const:V`, `zeros` for all fields, or
    /// `NAME=random[:SEED]|const:V|zeros|FILE.npy` for one (repeatable). Default: random:0.
    #[arg(long = "init", value_name = "SPEC")]
    init: Vec<String>,
    /// Write every field as DIR/NAME.npy after a successful run.
    #[arg(long = "out", value_name = "DIR")]
    out: Option<String>,
    /// Print one JSON object instead of the text report.
    #[arg(long)]
    json: bool,
    /// Transform the program before running it (same syntax as stencil-opt).
    #[arg(long = "pass-pipeline", value_name = "PIPELINE")]
    pass_pipeline: Option<String>,
    /// Also run the untransformed program on the reference interpreter and compare every field.
    #[arg(long)]
    check: bool,
    /// With --check: allowed absolute difference per value (default 0: bit-exact).
    #[arg(long, value_name = "ABS", default_value_t = 0.0)]
    tolerance: f64,
    /// Which program to run when the file has several (for an affine input: which function).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// Log filter (tracing EnvFilter syntax); defaults to RUST_LOG.
    #[arg(long = "log", value_name = "FILTER")]
    log: Option<String>,
}

fn split_assignment<'a>(flag: &str, text: &'a str) -> Result<(&'a str, &'a str), String> {
    text.split_once('=')
        .filter(|(n, v)| !n.is_empty() && !v.is_empty())
        .ok_or_else(|| format!("{flag} expects NAME=VALUE, got '{text}'"))
}

fn options(cli: &Cli) -> Result<RunOptions, String> {
    let mut params = BTreeMap::new();
    for p in &cli.params {
        let (n, v) = split_assignment("--param", p)?;
        let v: i64 = v.parse().map_err(|_| format!("--param {n}: '{v}' is not an integer"))?;
        params.insert(n.to_string(), v);
    }
    let mut scalars = BTreeMap::new();
    for s in &cli.scalars {
        let (n, v) = split_assignment("--scalar", s)?;
        let value = match v.parse::<i64>() {
            Ok(i) => ScalarValue::Int(i),
            Err(_) => ScalarValue::Float(v.parse().map_err(|_| format!("--scalar {n}: '{v}' is not a number"))?),
        };
        scalars.insert(n.to_string(), value);
    }
    if !(cli.tolerance >= 0.0 && cli.tolerance.is_finite()) {
        return Err(format!("--tolerance must be a finite non-negative number, got {}", cli.tolerance));
    }
    Ok(RunOptions {
        params,
        scalars,
        target: Target::parse(&cli.target)?,
        init: InitPlan::parse(&cli.init)?,
        out_dir: cli.out.as_ref().map(Into::into),
        pipeline: cli.pass_pipeline.clone(),
        check: cli.check,
        tolerance: cli.tolerance,
        entry: cli.entry.clone(),
        gpu: GpuRunOptions {
            chip: cli.gpu_chip.clone(),
            warmup: cli.warmup,
            sync_each_launch: cli.sync_each_launch,
            index_bitwidth: cli.gpu_index_bitwidth,
            ptx_file: cli.ptx.as_ref().map(Into::into),
        },
        cost: cli.cost,
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = stencil_driver::logging::init(cli.log.as_deref()) {
        eprintln!("stencil-run: error: {e}");
        return ExitCode::FAILURE;
    }
    let options = match options(&cli) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("stencil-run: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = match std::fs::read(&cli.input).map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(_)) => {
            eprintln!("stencil-run: error: input file '{}' is not valid UTF-8", cli.input);
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("stencil-run: error: cannot open input file '{}': {e}", cli.input);
            return ExitCode::FAILURE;
        }
    };
    // A progress bar only where a person watches: stderr is a terminal.
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {percent}% ({per_sec}, eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let mut on_progress = |p: Progress| {
        if let Some(bar) = &bar {
            bar.set_length(p.total);
            bar.set_position(p.done);
        }
    };
    let result = run_program(&cli.input, &text, &options, &Registries::all(), &mut on_progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    match result {
        Ok(report) => {
            if cli.json {
                println!("{}", report.to_json());
            } else {
                print!("{}", report.render_text());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            let msg = e.to_string();
            eprint!("{msg}");
            if !msg.ends_with('\n') {
                eprintln!();
            }
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
