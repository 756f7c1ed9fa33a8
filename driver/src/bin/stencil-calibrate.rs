//! `stencil-calibrate`: fits the tile models' device parameters to measured runs, or compares
//! the models with measurements (docs/tile-models.md "Calibration"). The logic is in
//! `stencil_driver::calibrate`; this file parses flags and does I/O.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use stencil_driver::calibrate::{
    compare, comparison_json, prajapati_time, render_comparison, samples, thesis_time, Measurements, Samples,
};
use stencil_driver::opt::Registries;
use stencil_tilemodel::fit::{fit_with, FitOptions};
use stencil_tilemodel::Calibration;

/// Calibrate the tile models (thesis Ch. 5, Prajapati et al.) from measured runs.
#[derive(Parser, Debug)]
#[command(name = "stencil-calibrate", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Least-squares fit of both models to the runs of MEASUREMENTS; writes a calibration file.
    Fit {
        /// The measurements file (bench/calibrate.py writes it).
        measurements: PathBuf,
        /// The folder the runs' program paths are relative to (default: the file's).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// Where to write the calibration.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The calibration whose device limits (and values for what the runs do not determine)
        /// to start from (default: the built-in H200 file).
        #[arg(long, value_name = "FILE")]
        base: Option<PathBuf>,
        /// How the runs were obtained, recorded as the file's provenance.
        #[arg(long, value_name = "TEXT")]
        provenance: Option<String>,
        /// The device's time between two dependent kernel launches in seconds: the
        /// per-wavefront costs (σ_blk, T_sync) are fitted at least this (default 0: they are
        /// only kept non-negative). The measurements file's `launch_gap_s` (what the GPU
        /// bundle measured) is reported, not applied: on the H200's runs a 3 µs floor lowered
        /// the sweep's rank correlations (bench/results/2026-11-27-launch-gap-refit.txt).
        #[arg(long, value_name = "SECONDS")]
        launch_gap: Option<f64>,
    },
    /// Each model's agreement with the runs of MEASUREMENTS, per program, element type and
    /// problem size (staged and global layouts together): rank correlation, the gap of the
    /// model's choice to the best run, RMS relative error.
    Compare {
        /// The measurements file.
        measurements: PathBuf,
        /// The folder the runs' program paths are relative to (default: the file's).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// The calibration to predict with (default: the built-in H200 file).
        #[arg(long, value_name = "FILE")]
        calibration: Option<PathBuf>,
        /// Also write the comparison as JSON.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Also list every run with both models' predictions.
        #[arg(long)]
        runs: bool,
    },
}

fn load(path: &Option<PathBuf>) -> Result<Calibration, String> {
    match path {
        Some(p) => Calibration::named_or_load(p),
        None => Calibration::built_in_default(),
    }
    .map_err(|e| e.to_string())
}

/// Names the runs a fit or comparison leaves out (on stderr: the results stay on stdout).
fn warn_uncountable(uncountable: &[String]) {
    if uncountable.is_empty() {
        return;
    }
    eprintln!("stencil-calibrate: warning: {} run(s) left out, the tile model cannot count them:", uncountable.len());
    for why in uncountable {
        eprintln!("  {why}");
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let registries = Registries::all();
    match cli.command {
        Command::Fit { measurements, root, out, base, provenance, launch_gap } => {
            let m = Measurements::load(&measurements, root.as_deref())?;
            let base = load(&base)?;
            let Samples { samples: data, uncountable } = samples(&m, &base, &registries)?;
            warn_uncountable(&uncountable);
            let what = if m.target == "gpu" { "measured on" } else { "estimated by the simulator's cost report for" };
            let provenance = provenance.unwrap_or_else(|| {
                format!(
                    "Fitted by stencil-calibrate to {} runs {what} {} ({}){}.",
                    data.len(),
                    m.device,
                    measurements.display(),
                    if uncountable.is_empty() {
                        String::new()
                    } else {
                        format!("; {} more left out, the tile model cannot count them", uncountable.len())
                    }
                )
            });
            let source = if m.target == "gpu" { "measured" } else { "derived" };
            if let (None, Some(gap)) = (launch_gap, m.launch_gap_s) {
                println!(
                    "the runs record a launch gap of {:.2} µs; --launch-gap {gap:e} would bound σ_blk and T_sync by it",
                    gap * 1e6
                );
            }
            let options = FitOptions { launch_gap_s: launch_gap.unwrap_or(0.0) };
            let result = fit_with(&base, &data, source, &provenance, &options).map_err(|e| e.to_string())?;
            let mut c = result.calibration;
            if m.target == "gpu" {
                c.device.name = m.device.clone();
            }
            std::fs::write(&out, c.to_json()).map_err(|e| format!("{}: {e}", out.display()))?;
            println!("wrote {} ({} runs, {} programs)", out.display(), data.len(), c.thesis.programs.len());
            for (name, q) in [("thesis", &result.thesis), ("prajapati", &result.prajapati)] {
                println!(
                    "  {name}: RMS relative error {:.1} %, largest {:.1} %{}{}",
                    100.0 * q.rms_relative_error,
                    100.0 * q.max_relative_error,
                    if q.undetermined.is_empty() {
                        String::new()
                    } else {
                        format!("; not determined: {}", q.undetermined.join(", "))
                    },
                    if q.clamped.is_empty() {
                        String::new()
                    } else {
                        format!("; fixed at their bound (0, or the launch gap): {}", q.clamped.join(", "))
                    }
                );
            }
            print!("{}", render_comparison(&compare(&data, &c), "the fitted runs"));
            Ok(())
        }
        Command::Compare { measurements, root, calibration, json, runs } => {
            let m = Measurements::load(&measurements, root.as_deref())?;
            let c = load(&calibration)?;
            let Samples { samples: data, uncountable } = samples(&m, &c, &registries)?;
            warn_uncountable(&uncountable);
            if runs {
                println!(
                    "{:<44} {:>12} {:>12} {:>12}  thesis features [1, N_w, C·bar, C·ΣG, C·ΣH, C·N_mem]",
                    "run", "measured", "thesis", "prajapati"
                );
                for s in &data {
                    let f: Vec<String> = s.thesis.iter().map(|x| format!("{x:.3e}")).collect();
                    println!(
                        "{:<44} {:>9.1} us {:>9.1} us {:>9.1} us  [{}]",
                        s.label,
                        s.seconds * 1e6,
                        thesis_time(s, &c) * 1e6,
                        prajapati_time(s, &c) * 1e6,
                        f.join(", ")
                    );
                }
            }
            let rows = compare(&data, &c);
            let what = if m.target == "gpu" {
                format!("measured on {}", m.device)
            } else {
                "the simulator's cost report".to_string()
            };
            print!("{}", render_comparison(&rows, &what));
            if let Some(path) = json {
                let text = serde_json::to_string_pretty(&comparison_json(&rows)).unwrap_or_default() + "\n";
                std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stencil-calibrate: error: {e}");
            ExitCode::FAILURE
        }
    }
}
