//! Release timing of the tile-size search (thesis Alg. 5.1) over the `stencil-tilemodel` API, at
//! the simulator and GPU problem sizes of `bench/calibrate.py`, at larger GPU sizes, and for long
//! runs (10 000 sweeps).
//!
//! `cargo run --release -p stencil-tilemodel --example search_time [-- --repeat N] [-- --dump] [-- --calibration NAME] [-- --keep N] [-- FILTER]`
//! (FILTER: part of an example's name, its size class, or "name problem", e.g. "sor-3d-7pt T=16";
//! "name problem model mapping" for one search, e.g. "sor-3d-7pt T=16,N=256,M=256,L=256 thesis staged")
//!
//! The SCoPs are the tests' (`tilemodel/tests/common`: the examples' SOR and Jacobi, scheduled
//! with the balanced intra-tile wavefronts of `poly-schedule`'s defaults); the calibration is the
//! built-in H100 file with the examples' program names, or `--calibration NAME` (a built-in name
//! such as `h200`, or a calibration file). `--keep N`: the layouts each search keeps (default 10,
//! as `--explain-tile-sizes`; `poly-tile{sizes=auto}` keeps 1). Unlike `bench/tile_search_time.py` this
//! does not run `stencil-opt` (no parsing, scheduling or printing): it times `search` alone,
//! which is what that script's "search" column reports (`elapsed_s`). Per search it prints the
//! smallest time of `--repeat` runs (default 3; one run when it takes over 1 s), the sizes and
//! layouts, the choice, and the time spent counting inter-tile tiles of the chosen size. With
//! `--dump` it also prints every pruned region (reason, count, first example) and every kept
//! layout with its prediction to full precision, so that two versions of the search can be
//! checked to prune alike and choose and keep exactly the same layouts (`diff`).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use stencil_tilemodel::{count_tiles, search, Calibration, ModelKind, SearchOptions, TileGeometry};

/// One example at one problem size.
struct Case {
    name: &'static str,
    program: &'static str,
    scop: stencil_poly::Scop,
    /// Parameter values in the SCoP's order (T first).
    params: Vec<i64>,
    what: &'static str,
}

fn cases() -> Vec<Case> {
    let case = |name, program, scop, params: &[i64], what| Case { name, program, scop, params: params.to_vec(), what };
    vec![
        case("sor-1d-3pt", "sor_1d_3pt", common::sor(1), &[32, 512], "sim"),
        case("sor-1d-3pt", "sor_1d_3pt", common::sor(1), &[512, 65536], "gpu"),
        case("sor-2d-5pt", "sor_2d_5pt", common::sor(2), &[16, 64, 64], "sim"),
        case("sor-2d-5pt", "sor_2d_5pt", common::sor(2), &[64, 2048, 2048], "gpu"),
        case("sor-2d-5pt", "sor_2d_5pt", common::sor(2), &[50, 16384, 16384], "gpu large"),
        case("sor-3d-7pt", "sor_3d_7pt", common::sor(3), &[4, 16, 16, 16], "sim"),
        case("sor-3d-7pt", "sor_3d_7pt", common::sor(3), &[16, 256, 256, 256], "gpu"),
        case("sor-3d-7pt", "sor_3d_7pt", common::sor(3), &[20, 512, 512, 512], "gpu large"),
        case("jacobi-2d-5pt", "jacobi_2d_5pt", common::jacobi(2), &[16, 64, 64], "sim"),
        case("jacobi-2d-5pt", "jacobi_2d_5pt", common::jacobi(2), &[64, 2048, 2048], "gpu"),
        case("jacobi-2d-5pt", "jacobi_2d_5pt", common::jacobi(2), &[50, 16384, 16384], "gpu large"),
        case("jacobi-3d-7pt", "jacobi_3d_7pt", common::jacobi(3), &[4, 16, 16, 16], "sim"),
        case("jacobi-3d-7pt", "jacobi_3d_7pt", common::jacobi(3), &[16, 256, 256, 256], "gpu"),
        case("jacobi-3d-7pt", "jacobi_3d_7pt", common::jacobi(3), &[20, 512, 512, 512], "gpu large"),
        // Long runs: every band row grows with the time (counted by period, `inter` item 7).
        case("sor-2d-5pt", "sor_2d_5pt", common::sor(2), &[10000, 512, 512], "long run"),
        case("sor-3d-7pt", "sor_3d_7pt", common::sor(3), &[10000, 64, 64, 64], "long run"),
        case("jacobi-3d-7pt", "jacobi_3d_7pt", common::jacobi(3), &[10000, 64, 64, 64], "long run"),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let repeat: usize = args
        .iter()
        .position(|a| a == "--repeat")
        .and_then(|k| args.get(k + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let calibration_name = args.iter().position(|a| a == "--calibration").and_then(|k| args.get(k + 1));
    let keep: usize = args
        .iter()
        .position(|a| a == "--keep")
        .and_then(|k| args.get(k + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(SearchOptions::default().keep);
    let filter: Option<&String> = args.iter().enumerate().find_map(|(k, a)| {
        let value_of_option = k > 0 && args[k - 1] == "--calibration";
        (!a.starts_with("--") && a.parse::<usize>().is_err() && !value_of_option).then_some(a)
    });
    let dump = args.iter().any(|a| a == "--dump");
    let loaded = match calibration_name {
        Some(name) => Calibration::named_or_load(std::path::Path::new(name)),
        None => Calibration::h100_default(),
    };
    let calibration = match loaded {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    println!(
        "{:<14} {:<22} {:<9} {:<7} {:>10} {:>6} {:>8} {:>10}  choice",
        "example", "problem", "model", "mapping", "search", "sizes", "layouts", "count"
    );
    let mut worst = Duration::ZERO;
    for case in cases() {
        let (shape, _) = common::shape(&case.scop, &case.params, true);
        let problem: Vec<String> = shape.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
        // The filter matches the example's name, its size class, or "name problem" (e.g.
        // "sor-3d-7pt T=16" for one size).
        let full_name = format!("{} {}", case.name, problem.join(","));
        if filter.is_some_and(|f| {
            !case.name.contains(f.as_str())
                && !case.what.contains(f.as_str())
                && !full_name.contains(f.as_str())
                && !f.starts_with(full_name.as_str())
        }) {
            continue;
        }
        for model in ModelKind::ALL {
            for staged in [true, false] {
                // "name problem model mapping" picks one search (e.g.
                // "sor-3d-7pt T=16,N=256,M=256,L=256 thesis staged").
                let search_name = format!("{full_name} {} {}", model.name(), if staged { "staged" } else { "global" });
                if filter.is_some_and(|f| f.contains(" thesis") || f.contains(" prajapati"))
                    && !filter.is_some_and(|f| search_name.contains(f.as_str()))
                {
                    continue;
                }
                let registers = calibration.registers_for(case.program, staged);
                let options = SearchOptions { model, staged, registers, keep, ..SearchOptions::default() };
                let mut times = Vec::new();
                let mut last = None;
                for _ in 0..repeat.max(1) {
                    match search(&shape, case.program, &calibration, &options) {
                        Ok(report) => {
                            times.push(report.elapsed);
                            let slow = report.elapsed > Duration::from_secs(1);
                            last = Some(report);
                            if slow {
                                break;
                            }
                        }
                        Err(e) => {
                            println!("{:<14} {:<22} {e}", case.name, problem.join(","));
                            break;
                        }
                    }
                }
                let Some(report) = last else { continue };
                let best = times.iter().min().copied().unwrap_or_default();
                worst = worst.max(best);
                let Some(choice) = report.choice().map(|r| (r.sizes.clone(), r.block)) else { continue };
                // The counting cost of the chosen size alone.
                let geometry = TileGeometry::new(&shape);
                let start = Instant::now();
                let counted = count_tiles(&shape, &geometry, &choice.0);
                let count = start.elapsed();
                if let Err(e) = counted {
                    println!("  counting {:?}: {e}", choice.0);
                }
                println!(
                    "{:<14} {:<22} {:<9} {:<7} {:>7.2} ms {:>6} {:>8} {:>7.3} ms  {} on {} ({})",
                    case.name,
                    problem.join(","),
                    model.name(),
                    if staged { "staged" } else { "global" },
                    best.as_secs_f64() * 1e3,
                    report.sizes_considered,
                    report.evaluated,
                    count.as_secs_f64() * 1e3,
                    choice.0.iter().map(i64::to_string).collect::<Vec<_>>().join("x"),
                    choice.1,
                    case.what
                );
                if dump {
                    for p in &report.pruned {
                        println!("  pruned {:?} {} {}", p.reason, p.count, p.example);
                    }
                    for (k, r) in report.best.iter().enumerate() {
                        let sizes: Vec<String> = r.sizes.iter().map(i64::to_string).collect();
                        println!(
                            "  kept {:>2} {} on {} {:?} s, {} launches, {} tiles, {} full",
                            k + 1,
                            sizes.join("x"),
                            r.block,
                            r.prediction.seconds,
                            r.wavefronts,
                            r.tiles,
                            r.full_tiles
                        );
                    }
                }
            }
        }
    }
    println!("slowest search: {:.2} ms (target < 100 ms per example)", worst.as_secs_f64() * 1e3);
}
