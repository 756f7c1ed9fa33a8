//! Times tiling and code generation on the benchmark shapes of issue 6: 3-D Jacobi-27
//! (two statements, `B = f(A); A = B`) and PolyBench fdtd-2d (four statements at two depths),
//! each under a Pluto-style time-skewed schedule written by hand (intra-tile wavefront chosen
//! automatically, and forced to the skew Θ_S) and under the scheduler's hyperplanes (thesis
//! Alg. 4.1).
//!
//! `cargo run --release -p stencil-poly --example codegen_timing [-- --print]`

use std::time::Instant;

use stencil_poly::codegen::{generate, LoopNest, ScanOptions, ScanProblem};
use stencil_poly::tiling::{tile, IntraTile, TileBand, TilingInput, TilingOptions};
use stencil_poly::*;

fn rows(space: &Space, rows: &[&str]) -> Result<Schedule> {
    Schedule::new(space, rows.iter().map(|r| AffineForm::parse(space, r)).collect::<Result<Vec<_>>>()?)
}

/// 3-D Jacobi with the 27-point stencil: `S0: B[x] = Σ A[x + o]; S1: A[x] = B[x]`.
fn jacobi_27() -> Result<(Scop, Vec<Schedule>)> {
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 3")?;
    let a = scop.add_array("A", 3)?;
    let b = scop.add_array("B", 3)?;
    let space = scop.statement_space(["t", "i", "j", "k"]);
    let box3 = "0 <= t < T, 1 <= i <= N - 2, 1 <= j <= N - 2, 1 <= k <= N - 2";
    let s0 = scop.add_statement(Statement::new(
        "S0",
        Polyhedron::parse(space.clone(), box3)?,
        Schedule::from_beta(&[0, 0, 0, 0, 0], &space)?,
    ))?;
    let s1 = scop.add_statement(Statement::new(
        "S1",
        Polyhedron::parse(space.clone(), box3)?,
        Schedule::from_beta(&[0, 1, 0, 0, 0], &space)?,
    ))?;
    for di in -1..=1 {
        for dj in -1..=1 {
            for dk in -1..=1 {
                let off = |v: i64| if v < 0 { format!(" - {}", -v) } else { format!(" + {v}") };
                let idx = format!("i{}, j{}, k{}", off(di), off(dj), off(dk));
                scop.add_access(s0, AccessRelation::parse(AccessKind::Read, a, &space, &idx)?)?;
            }
        }
    }
    scop.add_access(s0, AccessRelation::parse(AccessKind::Write, b, &space, "i, j, k")?)?;
    scop.add_access(s1, AccessRelation::parse(AccessKind::Read, b, &space, "i, j, k")?)?;
    scop.add_access(s1, AccessRelation::parse(AccessKind::Write, a, &space, "i, j, k")?)?;
    let schedules = vec![
        rows(&space, &["t", "2*t + i", "2*t + j", "2*t + k", "0"])?,
        rows(&space, &["t", "2*t + i + 1", "2*t + j + 1", "2*t + k + 1", "1"])?,
    ];
    Ok((scop, schedules))
}

/// PolyBench fdtd-2d.
fn fdtd_2d() -> Result<(Scop, Vec<Schedule>)> {
    let mut scop = Scop::new(["TMAX", "NX", "NY"]);
    scop.add_context("TMAX >= 1, NX >= 2, NY >= 2")?;
    let fict = scop.add_array("fict", 1)?;
    let ex = scop.add_array("ex", 2)?;
    let ey = scop.add_array("ey", 2)?;
    let hz = scop.add_array("hz", 2)?;
    let s2 = scop.statement_space(["t", "j"]);
    let s3 = scop.statement_space(["t", "i", "j"]);
    let read = |sp: &Space, arr, idx: &str| AccessRelation::parse(AccessKind::Read, arr, sp, idx);
    let write = |sp: &Space, arr, idx: &str| AccessRelation::parse(AccessKind::Write, arr, sp, idx);
    let st0 = scop.add_statement(Statement::new(
        "S0",
        Polyhedron::parse(s2.clone(), "0 <= t < TMAX, 0 <= j < NY")?,
        Schedule::from_beta(&[0, 0, 0], &s2)?,
    ))?;
    scop.add_access(st0, read(&s2, fict, "t")?)?;
    scop.add_access(st0, write(&s2, ey, "0, j")?)?;
    let st1 = scop.add_statement(Statement::new(
        "S1",
        Polyhedron::parse(s3.clone(), "0 <= t < TMAX, 1 <= i < NX, 0 <= j < NY")?,
        Schedule::from_beta(&[0, 1, 0, 0], &s3)?,
    ))?;
    for idx in ["i, j", "i - 1, j"] {
        scop.add_access(st1, read(&s3, hz, idx)?)?;
    }
    scop.add_access(st1, read(&s3, ey, "i, j")?)?;
    scop.add_access(st1, write(&s3, ey, "i, j")?)?;
    let st2 = scop.add_statement(Statement::new(
        "S2",
        Polyhedron::parse(s3.clone(), "0 <= t < TMAX, 0 <= i < NX, 1 <= j < NY")?,
        Schedule::from_beta(&[0, 2, 0, 0], &s3)?,
    ))?;
    for idx in ["i, j", "i, j - 1"] {
        scop.add_access(st2, read(&s3, hz, idx)?)?;
    }
    scop.add_access(st2, read(&s3, ex, "i, j")?)?;
    scop.add_access(st2, write(&s3, ex, "i, j")?)?;
    let st3 = scop.add_statement(Statement::new(
        "S3",
        Polyhedron::parse(s3.clone(), "0 <= t < TMAX, 0 <= i < NX - 1, 0 <= j < NY - 1")?,
        Schedule::from_beta(&[0, 3, 0, 0], &s3)?,
    ))?;
    for (arr, idx) in [(ex, "i, j + 1"), (ex, "i, j"), (ey, "i + 1, j"), (ey, "i, j"), (hz, "i, j")] {
        scop.add_access(st3, read(&s3, arr, idx)?)?;
    }
    scop.add_access(st3, write(&s3, hz, "i, j")?)?;
    let schedules = vec![
        rows(&s2, &["t", "t", "t + j", "0"])?,
        rows(&s3, &["t", "t + i", "t + j", "1"])?,
        rows(&s3, &["t", "t + i", "t + j", "2"])?,
        rows(&s3, &["t", "t + i + 1", "t + j + 1", "3"])?,
    ];
    Ok((scop, schedules))
}

/// Where the schedule comes from.
enum Source {
    /// Given rows; the band is rows `0..sizes.len()`.
    Rows(Vec<Schedule>),
    /// [`schedule`] with [`SchedulerOptions::gpu`]; its first band is tiled.
    Scheduler,
}

fn time(
    name: &str,
    scop: &Scop,
    source: Source,
    sizes: Vec<i64>,
    intra: IntraTile,
    print: bool,
) -> std::result::Result<LoopNest, Box<dyn std::error::Error>> {
    let start = Instant::now();
    let ddg = DependenceGraph::compute(scop, &DependenceOptions::default())?;
    let t_deps = start.elapsed();
    let start = Instant::now();
    let input = match source {
        Source::Rows(schedules) => {
            let width = sizes.len();
            TilingInput::new(schedules, vec![TileBand::new(0..width, sizes)])
        }
        Source::Scheduler => {
            let t = schedule(scop, &ddg, &SchedulerOptions::gpu())?;
            let width = t.bands.first().map_or(0, |b| b.width());
            TilingInput::from_transformation(&t, &[sizes[..width].to_vec()])?
        }
    };
    let t_sched = start.elapsed();
    let start = Instant::now();
    let options = TilingOptions { intra_tile: intra, ..TilingOptions::default() };
    let tiled = tile(scop, &input, &ddg, &options)?;
    let t_tile = start.elapsed();
    let start = Instant::now();
    let nest = generate(&ScanProblem::from_tiled(&tiled, scop)?, &ScanOptions::default())?;
    let t_gen = start.elapsed();
    println!(
        "{name:<30} deps {:>8.2?} | schedule {:>8.2?} | tile {:>8.2?} | scan {:>8.2?} | {} loops, {} guards, {:?}",
        t_deps,
        t_sched,
        t_tile,
        t_gen,
        nest.loops().len(),
        nest.root.count_guards(),
        tiled.intra_tile[0],
    );
    if print {
        print!("{}\n{nest}\n", tiled.display(scop));
    }
    Ok(nest)
}

fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let print = std::env::args().any(|a| a == "--print");
    let (scop, rows) = jacobi_27()?;
    let sizes = vec![8, 16, 16, 32];
    time("jacobi-3d-27pt", &scop, Source::Rows(rows.clone()), sizes.clone(), IntraTile::Auto, print)?;
    time("jacobi-3d-27pt (skew)", &scop, Source::Rows(rows), sizes.clone(), IntraTile::Skew, print)?;
    time("jacobi-3d-27pt (scheduler)", &scop, Source::Scheduler, sizes, IntraTile::Auto, print)?;
    let (scop, rows) = fdtd_2d()?;
    let sizes = vec![16, 32, 32];
    time("fdtd-2d", &scop, Source::Rows(rows.clone()), sizes.clone(), IntraTile::Auto, print)?;
    time("fdtd-2d (skew)", &scop, Source::Rows(rows), sizes.clone(), IntraTile::Skew, print)?;
    time("fdtd-2d (scheduler)", &scop, Source::Scheduler, sizes, IntraTile::Auto, print)?;
    Ok(())
}
