//! Times the scheduler on the benchmark stencils (thesis Table 4.1, 3-D SOR, Pluto's test
//! programs), with and without the balanced-wavefront constraint, and on the Jacobi nests
//! and Heat after false-dependence removal:
//! `cargo run --release -p stencil-poly --example schedule_timing`.

#[path = "../tests/common/stencils.rs"]
#[allow(dead_code)]
mod stencils;

use std::time::{Duration, Instant};

use stencil_poly::schedule::apply_array_copies;
use stencil_poly::*;

/// Median of five runs of `f`.
fn time<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut runs = Vec::new();
    let mut out = None;
    for _ in 0..5 {
        let start = Instant::now();
        out = Some(f());
        runs.push(start.elapsed());
    }
    runs.sort();
    (runs[2], out.expect("five runs"))
}

fn main() -> std::result::Result<(), ScheduleError> {
    let mut programs: Vec<(String, Scop)> =
        stencils::table_4_1().into_iter().map(|(n, s)| (n.to_string(), s)).collect();
    programs.push(("3-D SOR-7".into(), stencils::sor_3d_7pt()));
    programs.push(("PolyBench fdtd-2d".into(), stencils::polybench_fdtd_2d()));
    programs.push(("Pluto seidel-2d".into(), stencils::pluto_seidel_2d()));
    // The nests after thesis Alg. 4.2 and the Fig. 4.4 copies.
    for (name, scop) in stencils::table_4_1() {
        let g = DependenceGraph::compute(&scop, &DependenceOptions::default())?;
        let h = hindering_false_dependences(&scop, &g, &SchedulerOptions::gpu())?;
        if let Ok(plans) = plan_array_copies(&scop, &g, &h, &Limits::default()) {
            if !plans.is_empty() {
                programs.push((format!("{name} after copy"), apply_array_copies(&scop, &plans)?));
            }
        }
    }
    println!("{:<28} {:>5} {:>12} {:>12} {:>12}", "program", "deps", "pluto", "balanced", "Alg. 4.2");
    let mut slowest = (Duration::ZERO, String::new());
    for (name, scop) in &programs {
        let g = DependenceGraph::compute(scop, &DependenceOptions::default())?;
        let (pluto, _) = time(|| schedule(scop, &g, &SchedulerOptions::pluto()));
        let (gpu, t) = time(|| schedule(scop, &g, &SchedulerOptions::gpu()));
        let (alg42, _) = time(|| hindering_false_dependences(scop, &g, &SchedulerOptions::gpu()));
        t?;
        println!("{name:<28} {:>5} {pluto:>12.2?} {gpu:>12.2?} {alg42:>12.2?}", g.dependences().len());
        for d in [pluto, gpu] {
            if d > slowest.0 {
                slowest = (d, name.clone());
            }
        }
    }
    println!("slowest schedule: {} ({:.2?})", slowest.1, slowest.0);
    Ok(())
}
