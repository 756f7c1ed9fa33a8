//! The SOR rewrites by execution: `stencil-rbsor` and `stencil-mlsor` applied to
//! `examples/sor-2d-5pt.mlir` and run on the reference interpreter must match, bit for bit,
//! sequential implementations of red-black SOR and MLSOR written here independently of the
//! passes (MLSOR from the thesis' description — subdomains and tiles enumerated explicitly,
//! thesis §6.4, Eqs. 6.6–6.10 — not from the masks the pass emits); on the GPU simulator the
//! mapped programs must be race-free and bit-identical to the interpreter; and SOR, RBSOR and
//! MLSOR must all converge to the known solution of a Laplace problem.

mod common;

use common::{check_gpu_pipeline_after, parse, registries, run_pipeline};
use stencil_runtime::gpu_sim::SimOptions;
use stencil_runtime::{run_module, ElementType, FieldData, FieldValues, ProgramState, ScalarValue};

const SOR_2D: &str = include_str!("../../examples/sor-2d-5pt.mlir");
const SOR_3D: &str = include_str!("../../examples/sor-3d-7pt.mlir");

/// A row-major 2-D grid of `n × m` values.
#[derive(Clone, Debug, PartialEq)]
struct Grid {
    n: usize,
    m: usize,
    v: Vec<f64>,
}

impl Grid {
    fn pseudo_random(n: usize, m: usize, seed: u64) -> Grid {
        let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let v = (0..n * m)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((x >> 11) as f64) / ((1u64 << 53) as f64)
            })
            .collect();
        Grid { n, m, v }
    }

    /// The update of `examples/sor-2d-5pt.mlir` at `(i, j)`, with its arithmetic in its order:
    /// `(1 − ω)·c + (ω·0.25)·(((n + w) + s) + e)`.
    fn update(&mut self, i: usize, j: usize, omega: f64) {
        let at = |i: usize, j: usize| self.v[i * self.m + j];
        let keep = 1.0 - omega;
        let relax = omega * 0.25;
        let old = keep * at(i, j);
        let sum = ((at(i - 1, j) + at(i, j - 1)) + at(i + 1, j)) + at(i, j + 1);
        self.v[i * self.m + j] = old + relax * sum;
    }
}

/// In-place red-black SOR: red points (`i + j` even) then black ones.
fn rbsor_sweep(g: &mut Grid, omega: f64) {
    for colour in 0..2 {
        for i in 1..g.n - 1 {
            for j in 1..g.m - 1 {
                if (i + j) % 2 == colour {
                    g.update(i, j, omega);
                }
            }
        }
    }
}

/// The points of part 1 or 2 (thesis Eq. 6.9 with 2 × 2 tiles, §6.4.3's maximal `T₁,₁`) of
/// subdomain `d` at layer `l` along one dimension of `len` interior points, in the sweep's own
/// coordinates from 0: part 1 is `[dP + l, dP + P − 1 − l)` (from 0 in the first, edge,
/// subdomain) and part 2 the `2l + 1` points `[dP + P − 1 − l, dP + P + l)`, both clipped.
fn part(d: usize, l: usize, p: usize, second: bool, len: usize) -> std::ops::Range<usize> {
    let (lo, hi) = if second {
        (d * p + p - 1 - l, d * p + p + l)
    } else {
        (if d == 0 { 0 } else { d * p + l }, d * p + p - 1 - l)
    };
    lo.min(len)..hi.min(len)
}

/// One `K`-layer MLSOR sweep (forward, or backward as the mirror image): the four kernels in
/// order, and in each every subdomain, every layer, every tile point lexicographically in the
/// sweep's coordinates.
fn mlsor_block(g: &mut Grid, omega: f64, k: usize, p: usize, backward: bool) {
    let (n, m) = (g.n - 2, g.m - 2);
    for kernel in [(false, false), (false, true), (true, false), (true, true)] {
        for d1 in 0..=n / p {
            for d2 in 0..=m / p {
                for l in 0..k {
                    for x in part(d1, l, p, kernel.0, n) {
                        for y in part(d2, l, p, kernel.1, m) {
                            let (i, j) = if backward { (n - x, m - y) } else { (x + 1, y + 1) };
                            g.update(i, j, omega);
                        }
                    }
                }
            }
        }
    }
}

/// Runs `text` after `pipeline` on the reference interpreter with `A` = `grid` and returns `A`.
fn run_2d(text: &str, pipeline: &str, grid: &Grid, t: i64, omega: f64) -> Grid {
    let (dialects, _) = registries();
    let mut module = parse(text, &dialects).expect("parse");
    run_pipeline(&mut module, pipeline).expect("pipeline");
    let mut state = ProgramState::new()
        .with_param("T", t)
        .with_param("N", grid.n as i64)
        .with_param("M", grid.m as i64)
        .with_scalar("omega", ScalarValue::Float(omega));
    let field = FieldData::new(vec![grid.n, grid.m], FieldValues::F64(grid.v.clone())).expect("field");
    state.fields.insert("A".into(), field.clone());
    // The copy field of red-black SOR starts as anything: it is initialised by the program.
    if pipeline.contains("stencil-rbsor") {
        let rb = FieldData::filled(vec![grid.n, grid.m], ElementType::F64, 7.0).expect("rb");
        state.fields.insert("A_rb".into(), rb);
    }
    run_module(&module, None, &mut state).expect("run");
    let values = state.fields.get("A").expect("A");
    let v = (0..values.len()).map(|k| values.values.get_f64(k).expect("value")).collect();
    Grid { n: grid.n, m: grid.m, v }
}

fn assert_bits(actual: &Grid, expected: &Grid, what: &str) {
    for (k, (a, e)) in actual.v.iter().zip(&expected.v).enumerate() {
        assert_eq!(
            a.to_bits(),
            e.to_bits(),
            "{what}: A[{}][{}] is {a}, the reference gives {e}",
            k / actual.m,
            k % actual.m
        );
    }
}

#[test]
fn rbsor_matches_sequential_red_black_sor() {
    for (n, m, t) in [(9, 9, 3), (13, 10, 4), (6, 17, 2)] {
        let grid = Grid::pseudo_random(n, m, 7 + n as u64);
        let omega = 1.37;
        let mut expected = grid.clone();
        for _ in 0..t {
            rbsor_sweep(&mut expected, omega);
        }
        let actual = run_2d(SOR_2D, "builtin.module(stencil-rbsor)", &grid, t, omega);
        assert_bits(&actual, &expected, &format!("rbsor {n}x{m}, T={t}"));
    }
}

#[test]
fn mlsor_matches_sequential_mlsor() {
    for (k, p) in [(1, 2), (1, 4), (2, 4), (2, 5), (3, 7), (4, 8)] {
        for directions in ["alternate", "forward"] {
            for (n, m, t) in [(19, 23, 2), (10, 18, 1)] {
                let grid = Grid::pseudo_random(n, m, 11 + n as u64);
                let omega = 1.61;
                let mut expected = grid.clone();
                for _ in 0..t {
                    mlsor_block(&mut expected, omega, k, p, false);
                    if directions == "alternate" {
                        mlsor_block(&mut expected, omega, k, p, true);
                    }
                }
                let pipeline = format!("builtin.module(stencil-mlsor{{K={k} P={p} directions={directions}}})");
                let actual = run_2d(SOR_2D, &pipeline, &grid, t, omega);
                assert_bits(&actual, &expected, &format!("{pipeline} {n}x{m}, T={t}"));
            }
        }
    }
}

/// Every point is updated once per layer: the four kernels' tiles partition each layer.
#[test]
fn mlsor_tiles_partition_every_layer() {
    for p in 2..9 {
        for k in 1..=p / 2 {
            for len in [1, p - 1, p, p + 1, 3 * p + 2] {
                for l in 0..k {
                    let mut count = vec![0; len];
                    for d in 0..=len / p {
                        for second in [false, true] {
                            for x in part(d, l, p, second, len) {
                                count[x] += 1;
                            }
                        }
                    }
                    assert!(count.iter().all(|&c| c == 1), "P={p} K={k} len={len} l={l}: {count:?}");
                }
            }
        }
    }
}

#[test]
fn rbsor_on_the_simulator_is_race_free_and_exact() {
    let options = SimOptions::default();
    for (n, t) in [(10, 2), (17, 3)] {
        check_gpu_pipeline_after(
            SOR_2D,
            Some("stencil-rbsor"),
            "builtin.module(gpu-map{naive block=8,4 grid=5})",
            &[("T", t), ("N", n), ("M", n + 3)],
            &options,
        )
        .expect("naive mapping of RBSOR");
    }
    check_gpu_pipeline_after(
        SOR_2D,
        Some("stencil-rbsor"),
        "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8,4 grid=3})",
        &[("T", 3), ("N", 14), ("M", 11)],
        &options,
    )
    .expect("tiled mapping of RBSOR");
    check_gpu_pipeline_after(
        SOR_3D,
        Some("stencil-rbsor"),
        "builtin.module(gpu-map{naive block=4,4,4 grid=3})",
        &[("T", 2), ("N", 7), ("M", 6), ("L", 8)],
        &options,
    )
    .expect("naive mapping of 3-D RBSOR");
}

/// MLSOR schedules, tiles and maps: forward-only with the default options; alternate (whose
/// backward sweeps `poly-schedule` reverses) without the balance constraint, which no band of
/// its eight masked kernels can meet.
#[test]
fn mlsor_on_the_simulator_is_race_free_and_exact() {
    for (mlsor, schedule) in [
        ("stencil-mlsor{K=2 P=4 directions=forward}", "poly-schedule"),
        ("stencil-mlsor{K=2 P=4}", "poly-schedule{intra-balance=false}"),
    ] {
        check_gpu_pipeline_after(
            SOR_2D,
            Some(mlsor),
            &format!("builtin.module({schedule},poly-tile{{sizes=4}},gpu-map{{block=8,8 staging=false}})"),
            &[("T", 2), ("N", 14), ("M", 11)],
            &SimOptions::default(),
        )
        .unwrap_or_else(|e| panic!("tiled mapping of {mlsor}: {e}"));
    }
}

/// MLSOR's own kernels (`gpu-map{strategy=mlsor}`: one thread per tile, all K layers in it)
/// are race-free on the simulator and give, bit for bit, what the reference interpreter gives
/// for the rewritten program — which `mlsor_matches_sequential_mlsor` checks against MLSOR
/// written independently. Staged in shared memory (the default) and not; sizes that are not
/// multiples of P, both direction modes, 3-D, and small grids that make blocks stride over
/// several regions of subdomains (point updates are compared where nothing is staged).
#[test]
fn mlsor_kernels_on_the_simulator_are_race_free_and_exact() {
    let options = SimOptions::default();
    for (k, p) in [(1, 2), (2, 4), (2, 5), (3, 7)] {
        for directions in ["alternate", "forward"] {
            for (n, m, gpu_map) in [
                (19, 23, "gpu-map{strategy=mlsor}"),
                (19, 23, "gpu-map{strategy=mlsor tile-threads=1}"),
                (14, 11, "gpu-map{strategy=mlsor block=2,3 grid=2}"),
                (19, 23, "gpu-map{strategy=mlsor staging=false}"),
                (14, 11, "gpu-map{strategy=mlsor block=2,3 grid=2 staging=false}"),
                // Several threads per tile: its anti-diagonals in turn, rows dealt round-robin
                // (fewer threads than rows, more, staged or not, strided grids).
                (19, 23, "gpu-map{strategy=mlsor tile-threads=2}"),
                (19, 23, "gpu-map{strategy=mlsor tile-threads=8 staging=false}"),
                (14, 11, "gpu-map{strategy=mlsor tile-threads=3 block=3,2,2 grid=2}"),
            ] {
                let mlsor = format!("stencil-mlsor{{K={k} P={p} directions={directions}}}");
                check_gpu_pipeline_after(
                    SOR_2D,
                    Some(&mlsor),
                    &format!("builtin.module({gpu_map})"),
                    &[("T", 2), ("N", n), ("M", m)],
                    &options,
                )
                .unwrap_or_else(|e| panic!("{mlsor}, {gpu_map}, {n}x{m}: {e}"));
            }
        }
    }
    for gpu_map in ["gpu-map{strategy=mlsor block=4,2,2 grid=2}", "gpu-map{strategy=mlsor block=4,2,2 staging=false}"] {
        check_gpu_pipeline_after(
            SOR_3D,
            Some("stencil-mlsor{K=2 P=4}"),
            &format!("builtin.module({gpu_map})"),
            &[("T", 2), ("N", 11), ("M", 9), ("L", 10)],
            &options,
        )
        .unwrap_or_else(|e| panic!("MLSOR kernels of 3-D SOR, {gpu_map}: {e}"));
    }
}

/// A Laplace problem with a known discrete solution: `u = x² − y²` is harmonic and the 5-point
/// Laplacian is exact on quadratics, so with it on the boundary the solution of the discrete
/// problem is `u` at every grid point. Started from zero inside, SOR, RBSOR and MLSOR (both
/// direction modes) all reach it.
#[test]
fn every_method_converges_to_the_exact_solution() {
    let n = 17;
    let h = 1.0 / (n - 1) as f64;
    let exact = |i: usize, j: usize| {
        let (x, y) = (i as f64 * h, j as f64 * h);
        x * x - y * y
    };
    let mut start = Grid { n, m: n, v: vec![0.0; n * n] };
    for i in 0..n {
        for j in 0..n {
            if i == 0 || j == 0 || i == n - 1 || j == n - 1 {
                start.v[i * n + j] = exact(i, j);
            }
        }
    }
    let omega = 1.7;
    // Each step: SOR 1 sweep, RBSOR 1, MLSOR alternate 2K = 4, forward K = 2.
    for (pipeline, steps) in [
        ("builtin.module(canonicalize)", 200),
        ("builtin.module(stencil-rbsor)", 200),
        ("builtin.module(stencil-mlsor{K=2 P=4})", 60),
        ("builtin.module(stencil-mlsor{K=2 P=4 directions=forward})", 120),
        ("builtin.module(stencil-mlsor{K=4 P=8})", 40),
    ] {
        let result = run_2d(SOR_2D, pipeline, &start, steps, omega);
        let error = (0..n * n).map(|k| (result.v[k] - exact(k / n, k % n)).abs()).fold(0.0, f64::max);
        assert!(error < 1e-10, "{pipeline}: max error {error} after {steps} steps");
    }
}
