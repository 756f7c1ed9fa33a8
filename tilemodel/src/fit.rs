//! Least-squares calibration of both models from measured runs (thesis §5.3.3: "a linear
//! curve fitting using the least-square method"; seed 004 §5.2).
//!
//! Each [`Sample`] is one run of a calibration configuration — a program with given tile sizes,
//! block and problem sizes — with its time (measured on a GPU, or estimated by the simulator's
//! cost report) and the model inputs of that layout. The fit minimises the **relative** error
//! `Σ ((model − time) / time)²` (runs differ by orders of magnitude; an absolute fit would only
//! see the longest):
//!
//! * thesis: `T_total` is linear in its parameters ([`crate::thesis::thesis_features`]); the
//!   device-wide `σ_ker`, `σ_blk`, `σ_thd` and each program's own `α`, `β`, `γ` are fitted
//!   together, in one linear least-squares problem (Householder QR on scaled columns);
//! * seed 004: `T_alg` is linear in `L`, `τ_sync`, `T_sync` and each program's `C_iter` once
//!   the `max(m', c)` of Eq. 12 is decided, so the fit alternates: pick each run's branch at the
//!   current parameters, solve, repeat until no branch changes.
//!
//! Every parameter but `β` must be non-negative: a negative one is fixed at 0 and the rest
//! refitted (an active-set step). With a measured launch gap ([`FitOptions`]) the
//! per-wavefront costs (`σ_blk`, `T_sync`) are bounded below by it instead of 0. A parameter the samples do not determine (its column is
//! numerically dependent on the others) keeps its value from the base calibration, and the
//! fit says so. Per-program values then give the defaults for other programs
//! ([`crate::calibration::PerOperation`]): a least-squares line over the programs' operations
//! per point.

use std::collections::BTreeMap;

use crate::calibration::{l2_share_of_kernel, program_key, Calibration, PerOperation, ThesisDefaults, ThesisProgram};
use crate::error::{Result, TileModelError};
use crate::prajapati::{PrajapatiParams, PrajapatiParts};
use crate::thesis::ThesisParams;

/// One calibration run with the model inputs of its layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// What was run (for reports), e.g. `sor-2d-5pt 8x16x16 32x4x1`.
    pub label: String,
    /// The program (its `stencil.program` name: per-program parameters are keyed by it).
    pub program: String,
    /// Its arithmetic operations per point.
    pub operations: u32,
    /// Its element size in bytes.
    pub element_bytes: u32,
    /// Bytes of its arrays at its problem sizes (0: unknown): the share of them L2 holds splits
    /// a global-memory run's memory feature between `γ` and `γ_L2` (`ThesisProgram::gamma_in_l2`).
    pub data_bytes: u64,
    /// The registers per thread its kernel used.
    pub registers: u32,
    /// Whether its tiles were staged in shared memory.
    pub staged: bool,
    /// The problem sizes it ran at, e.g. `T=64,N=2048,M=2048`: agreement reports compare a run
    /// with the other layouts of the same program at the same sizes.
    pub problem: String,
    /// [`crate::thesis::thesis_features`] of the layout.
    pub thesis: [f64; 7],
    /// [`PrajapatiParts`] of the layout.
    pub prajapati: PrajapatiParts,
    /// The run's time in seconds.
    pub seconds: f64,
    /// Whether the search could choose the layout: its block meets the blockDim constraint for
    /// its tile (`crate::search::block_constraint_of`; a sweep also times blocks the search
    /// never considers).
    pub admitted: bool,
}

/// The text of a problem size as [`Sample::problem`] and the calibration's `fit.problems` record
/// it: `NAME=VALUE` pairs in alphabetical order of the names, comma-separated.
pub fn problem_text(params: &[(String, i64)]) -> String {
    let mut pairs: Vec<&(String, i64)> = params.iter().collect();
    pairs.sort();
    pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
}

/// How well a fitted model reproduces the samples.
#[derive(Debug, Clone, PartialEq)]
pub struct FitQuality {
    /// Root-mean-square relative error over the samples.
    pub rms_relative_error: f64,
    /// The largest relative error.
    pub max_relative_error: f64,
    /// Parameters the samples did not determine (kept from the base calibration).
    pub undetermined: Vec<String>,
    /// Parameters that came out below their bound and were fixed at it (0, or the launch gap
    /// for the per-wavefront costs: [`FitOptions`]).
    pub clamped: Vec<String>,
}

/// The result of [`fit`].
#[derive(Debug, Clone, PartialEq)]
pub struct FitResult {
    /// The new calibration.
    pub calibration: Calibration,
    /// The thesis model's fit.
    pub thesis: FitQuality,
    /// Seed 004's fit.
    pub prajapati: FitQuality,
}

/// Solves `min ‖A x − b‖²` for the columns in `free` (the others stay 0); returns the solution
/// and the free columns found numerically dependent (left at 0).
fn least_squares(a: &[Vec<f64>], b: &[f64], free: &[usize]) -> (Vec<f64>, Vec<usize>) {
    let n = a.first().map_or(0, Vec::len);
    let m = a.len();
    let mut x = vec![0.0; n];
    // Scale the free columns to unit norm for conditioning.
    let scale: Vec<f64> = free
        .iter()
        .map(|&j| {
            let norm = a.iter().map(|r| r[j] * r[j]).sum::<f64>().sqrt();
            if norm > 0.0 {
                norm
            } else {
                1.0
            }
        })
        .collect();
    let k = free.len();
    let mut q: Vec<Vec<f64>> = (0..m).map(|i| free.iter().zip(&scale).map(|(&j, s)| a[i][j] / s).collect()).collect();
    let mut y = b.to_vec();
    // Householder QR with column pivoting: dependent columns end up last with a tiny diagonal.
    let mut order: Vec<usize> = (0..k).collect();
    let mut rank = 0;
    let largest = (0..k).map(|c| (0..m).map(|i| q[i][c] * q[i][c]).sum::<f64>()).fold(0.0, f64::max).sqrt();
    for step in 0..k.min(m) {
        // Pivot: the remaining column with the largest remaining norm.
        let (best, norm) = (step..k)
            .map(|c| (c, (step..m).map(|i| q[i][order[c]] * q[i][order[c]]).sum::<f64>().sqrt()))
            .fold((step, -1.0), |acc, c| if c.1 > acc.1 { c } else { acc });
        if norm <= 1e-10 * largest.max(f64::MIN_POSITIVE) {
            break;
        }
        order.swap(step, best);
        let c = order[step];
        let alpha = if q[step][c] > 0.0 { -norm } else { norm };
        let mut v: Vec<f64> = (step..m).map(|i| q[i][c]).collect();
        v[0] -= alpha;
        let vnorm2: f64 = v.iter().map(|t| t * t).sum();
        if vnorm2 > 0.0 {
            for col in order.iter().skip(step).copied() {
                let dot: f64 = (step..m).map(|i| v[i - step] * q[i][col]).sum();
                let f = 2.0 * dot / vnorm2;
                for i in step..m {
                    q[i][col] -= f * v[i - step];
                }
            }
            let dot: f64 = (step..m).map(|i| v[i - step] * y[i]).sum();
            let f = 2.0 * dot / vnorm2;
            for i in step..m {
                y[i] -= f * v[i - step];
            }
        }
        rank = step + 1;
    }
    // Back substitution on the first `rank` pivoted columns.
    let mut z = vec![0.0; k];
    for r in (0..rank).rev() {
        let c = order[r];
        let s: f64 = (r + 1..rank).map(|t| q[r][order[t]] * z[order[t]]).sum();
        z[c] = (y[r] - s) / q[r][c];
    }
    for (t, &j) in free.iter().enumerate() {
        x[j] = z[t] / scale[t];
    }
    let dependent = order[rank..].iter().map(|&t| free[t]).collect();
    (x, dependent)
}

/// Least squares with every column kept at least `lower[j]` (`x = lower + x'`, `x' ≥ 0` by
/// [`constrained_least_squares`] on `b − A·lower`); returns the solution, the dependent columns
/// and those fixed at their bound.
fn bounded_least_squares(a: &[Vec<f64>], b: &[f64], lower: &[f64]) -> (Vec<f64>, Vec<usize>, Vec<usize>) {
    let shifted: Vec<f64> =
        a.iter().zip(b).map(|(row, y)| y - row.iter().zip(lower).map(|(v, l)| v * l).sum::<f64>()).collect();
    let (mut x, dependent, clamped) = constrained_least_squares(a, &shifted, &vec![true; lower.len()]);
    x.iter_mut().zip(lower).for_each(|(v, l)| *v += l);
    (x, dependent, clamped)
}

/// Least squares with `nonneg[j]` columns kept `≥ 0` (active set: the most negative is fixed
/// at 0 and the rest refitted); returns the solution, the dependent columns and the clamped.
fn constrained_least_squares(a: &[Vec<f64>], b: &[f64], nonneg: &[bool]) -> (Vec<f64>, Vec<usize>, Vec<usize>) {
    let n = nonneg.len();
    let mut free: Vec<usize> = (0..n).collect();
    let mut clamped = Vec::new();
    loop {
        let (x, dependent) = least_squares(a, b, &free);
        let worst = free.iter().copied().filter(|&j| nonneg[j] && x[j] < 0.0).min_by(|&i, &j| x[i].total_cmp(&x[j]));
        match worst {
            Some(j) => {
                free.retain(|&c| c != j);
                clamped.push(j);
            }
            None => return (x, dependent, clamped),
        }
    }
}

fn quality(predicted: &[f64], samples: &[Sample], undetermined: Vec<String>, clamped: Vec<String>) -> FitQuality {
    let errors: Vec<f64> = predicted.iter().zip(samples).map(|(p, s)| (p - s.seconds) / s.seconds).collect();
    let rms = (errors.iter().map(|e| e * e).sum::<f64>() / errors.len().max(1) as f64).sqrt();
    FitQuality {
        rms_relative_error: rms,
        max_relative_error: errors.iter().map(|e| e.abs()).fold(0.0, f64::max),
        undetermined,
        clamped,
    }
}

/// A least-squares line `base + per_operation × ops` through per-program values (non-negative
/// parts; `fallback` when fewer than two distinct operation counts).
fn per_operation(points: &[(u32, f64)], fallback: PerOperation) -> PerOperation {
    let mut distinct: Vec<u32> = points.iter().map(|p| p.0).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 2 {
        let mean = points.iter().map(|p| p.1).sum::<f64>() / points.len().max(1) as f64;
        let per = fallback.per_operation;
        let ops = points.iter().map(|p| f64::from(p.0)).sum::<f64>() / points.len().max(1) as f64;
        return PerOperation { base: (mean - per * ops).max(0.0), per_operation: per };
    }
    let a: Vec<Vec<f64>> = points.iter().map(|&(o, _)| vec![1.0, f64::from(o)]).collect();
    let b: Vec<f64> = points.iter().map(|p| p.1).collect();
    let (x, _, _) = constrained_least_squares(&a, &b, &[true, true]);
    PerOperation { base: x[0], per_operation: x[1] }
}

/// Fits both models to `samples`, starting from `base` (device limits, and values for what the
/// samples do not determine); `source` and `provenance` describe the result.
pub fn fit(base: &Calibration, samples: &[Sample], source: &str, provenance: &str) -> Result<FitResult> {
    fit_with(base, samples, source, provenance, &FitOptions::default())
}

/// What a fit knows besides the runs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FitOptions {
    /// The device's measured time between two dependent kernel launches, in seconds (an empty
    /// kernel launched back to back: `bench/bundle_run.py`). Each inter-tile wavefront is a
    /// launch, so the per-wavefront costs — the thesis' `σ_blk` (Eq. 5.10) and seed 004's
    /// `T_sync` — are at least this: without it, runs that vary the launches too little leave
    /// them at 0 and the search free to pick layouts of hundreds of thousands of launches.
    pub launch_gap_s: f64,
}

/// [`fit`] with `options`: the per-wavefront costs bounded below by the launch gap.
pub fn fit_with(
    base: &Calibration,
    samples: &[Sample],
    source: &str,
    provenance: &str,
    options: &FitOptions,
) -> Result<FitResult> {
    let gap = options.launch_gap_s;
    if !(gap >= 0.0 && gap.is_finite()) {
        return Err(TileModelError::Fit(format!("launch gap {gap} s")));
    }
    if samples.is_empty() {
        return Err(TileModelError::Fit("no samples".into()));
    }
    if let Some(s) = samples.iter().find(|s| !(s.seconds > 0.0 && s.seconds.is_finite())) {
        return Err(TileModelError::Fit(format!("sample '{}' has time {} s", s.label, s.seconds)));
    }
    // Program parameters are per program and mapping (calibration::program_key).
    let key = |s: &Sample| program_key(&s.program, s.staged);
    let mut programs: Vec<String> = samples.iter().map(key).collect();
    programs.sort();
    programs.dedup();
    let index = |s: &Sample| programs.iter().position(|q| *q == key(s)).unwrap_or(0);
    let weights: Vec<f64> = samples.iter().map(|s| 1.0 / s.seconds).collect();
    let ones: Vec<f64> = vec![1.0; samples.len()];

    // Thesis: columns σ_ker, σ_blk, σ_thd, then α, β', γ, γ_L2 per program, all kept ≥ 0,
    // where β' = β + α/32: a warp-iteration with k active lanes takes α + k·β, which must not
    // be negative for any k ≤ 32 — a free β fitted below −α/32 (the H200's 3-D SOR: α = 136 ns,
    // β = −14.6 ns) makes full warps cost less than empty ones and leaves the search without a
    // lower bound. α·ΣG + β·ΣH = α·(ΣG − ΣH/32) + β'·ΣH. A global-memory run puts the share s
    // of its memory feature that L2 keeps (DeviceLimits::l2_share) in γ_L2's column and 1 − s
    // in γ's (ThesisProgram::gamma_in_l2).
    // The last column: the device-wide tile set-up σ_tile (ours; ThesisParams::sigma_tile).
    const PER_PROGRAM: usize = 4;
    let share = |s: &Sample| l2_share_of_kernel(&base.device, s.staged, s.data_bytes);
    let warp = f64::from(crate::intra::WARP);
    let nt = 3 + PER_PROGRAM * programs.len() + 1;
    let setup = nt - 1;
    let rows: Vec<Vec<f64>> = samples
        .iter()
        .zip(&weights)
        .map(|(s, w)| {
            let mut r = vec![0.0; nt];
            r[..3].iter_mut().zip(&s.thesis[..3]).for_each(|(x, f)| *x = f * w);
            let p = 3 + PER_PROGRAM * index(s);
            let [alpha, beta, gamma] = [s.thesis[3], s.thesis[4], s.thesis[5]];
            r[p] = (alpha - beta / warp) * w;
            r[p + 1] = beta * w;
            r[p + 2] = gamma * (1.0 - share(s)) * w;
            r[p + 3] = gamma * share(s) * w;
            r[setup] = s.thesis[6] * w;
            r
        })
        .collect();
    // σ_blk (column 1) is a launch at least; everything else is non-negative.
    let mut lower = vec![0.0; nt];
    lower[1] = gap;
    let (mut x, dependent, clamped) = bounded_least_squares(&rows, &ones, &lower);
    let names = |j: usize| -> String {
        if j < 3 {
            ThesisParams::NAMES[j].to_string()
        } else if j == setup {
            ThesisParams::NAMES[6].to_string()
        } else {
            let what = ["alpha", "beta", "gamma", "gamma_in_l2"][(j - 3) % PER_PROGRAM];
            format!("{what} of {}", programs[(j - 3) / PER_PROGRAM])
        }
    };
    // Undetermined parameters: a column no run exercises (all zero) does not change a
    // prediction of these runs, so it keeps its base value (the regime the runs did not cover
    // keeps what was known of it). A column the runs exercise but whose effect the others
    // carry (collinear: a global tile's `N_mem` is every access, proportional to its points,
    // as `ΣH`) stays at the 0 the solve gave it: any other value adds its whole contribution
    // to every prediction that the fit of the others did not account for. Keeping base values
    // there made the H200 fit of 2026-11-27 predict every global-memory run 1.4–7.3× too slow
    // (bench/results/2026-11-27-fit-undetermined/).
    let exercised = |j: usize| rows.iter().any(|r| r[j] != 0.0);
    let keeps_base: Vec<usize> = dependent.iter().copied().filter(|&j| !exercised(j)).collect();
    // The base's own parameters of program `p` (its measured ones, else its defaults).
    let base_program = |p: usize| -> (ThesisParams, Option<f64>) {
        let s = samples.iter().find(|s| index(s) == p);
        let params = s.map_or_else(
            || base.thesis_params("", true, 0, 8, 0),
            |s| base.thesis_params(&s.program, s.staged, s.operations, s.element_bytes, 0),
        );
        let in_l2 = base.thesis.programs.get(&programs[p]).and_then(|t| t.gamma_in_l2);
        (params, in_l2)
    };
    // γ_L2 per program: fitted where runs exercised it, else the base's (or none).
    let mut gamma_in_l2: Vec<Option<f64>> = (0..programs.len())
        .map(|p| Some(x[3 + PER_PROGRAM * p + 3]).filter(|_| exercised(3 + PER_PROGRAM * p + 3)))
        .collect();
    for &j in &keeps_base {
        if j < 3 {
            x[j] = base.thesis_params("", true, 0, 8, 0).to_vector()[j].max(lower[j]);
        } else if j == setup {
            x[j] = base.thesis.sigma_tile;
        } else {
            let p = (j - 3) / PER_PROGRAM;
            let (params, in_l2) = base_program(p);
            match (j - 3) % PER_PROGRAM {
                3 => gamma_in_l2[p] = in_l2,
                k => x[j] = params.to_vector()[3 + k],
            }
        }
    }
    // Back from β' to β, with the final α (a β kept from the base is β already).
    for p in 0..programs.len() {
        let j = 3 + PER_PROGRAM * p;
        if !keeps_base.contains(&(j + 1)) {
            x[j + 1] -= x[j] / warp;
        }
    }
    let thesis_of = |p: usize| ThesisParams {
        sigma_ker: x[0],
        sigma_blk: x[1],
        sigma_thd: x[2],
        alpha: x[3 + PER_PROGRAM * p],
        beta: x[4 + PER_PROGRAM * p],
        gamma: x[5 + PER_PROGRAM * p],
        sigma_tile: x[setup],
    };
    // A sample's parameters: its program's, γ weighed by its share of loads L2 keeps (as
    // Calibration::thesis_params weighs it).
    // Program `p`'s fitted constants as the calibration file keeps them.
    let program_of = |p: usize| {
        let t = thesis_of(p);
        ThesisProgram { alpha: t.alpha, beta: t.beta, gamma: t.gamma, gamma_in_l2: gamma_in_l2[p] }
    };
    let thesis_for = |s: &Sample| {
        let p = index(s);
        ThesisParams { gamma: program_of(p).gamma_at(share(s)), ..thesis_of(p) }
    };
    let predicted: Vec<f64> =
        samples.iter().map(|s| s.thesis.iter().zip(thesis_for(s).to_vector()).map(|(f, v)| f * v).sum()).collect();
    // A staged program's γ_L2 column is never used (ThesisProgram::gamma_in_l2): not worth naming.
    let unused = |j: usize| {
        j >= 3 && j != setup && (j - 3) % PER_PROGRAM == 3 && programs[(j - 3) / PER_PROGRAM].ends_with("/staged")
    };
    let thesis_quality = quality(
        &predicted,
        samples,
        dependent.iter().filter(|&&j| !unused(j)).map(|&j| names(j)).collect(),
        clamped.iter().map(|&j| names(j)).collect(),
    );

    // Seed 004: columns L, τ_sync, T_sync, then C_iter per program; alternate branches.
    let np = 3 + programs.len();
    let base_p = base.prajapati_params("", true, 0);
    let mut y: Vec<f64> = vec![base_p.l_word, base_p.tau_sync, base_p.t_sync.max(gap)];
    for name in &programs {
        let s = samples.iter().find(|s| key(s) == *name);
        y.push(s.map_or(base_p.c_iter, |s| base.prajapati_params(&s.program, s.staged, s.operations).c_iter));
    }
    let params_of =
        |y: &[f64], p: usize| PrajapatiParams { l_word: y[0], tau_sync: y[1], t_sync: y[2], c_iter: y[3 + p] };
    let mut branches: Vec<bool> = Vec::new();
    let mut outcome = (Vec::new(), Vec::new());
    for _ in 0..50 {
        let next: Vec<bool> = samples
            .iter()
            .map(|s| {
                let (m, c) = s.prajapati.memory_and_compute(&params_of(&y, index(s)));
                m >= c
            })
            .collect();
        if next == branches {
            break;
        }
        branches = next;
        let rows: Vec<Vec<f64>> = samples
            .iter()
            .zip(&weights)
            .zip(&branches)
            .map(|((s, w), &memory)| {
                let f = s.prajapati.features(memory);
                let mut r = vec![0.0; np];
                r[..3].iter_mut().zip(&f[..3]).for_each(|(x, v)| *x = v * w);
                r[3 + index(s)] = f[3] * w;
                r
            })
            .collect();
        // T_sync (column 2) is a launch at least.
        let mut lower = vec![0.0; np];
        lower[2] = gap;
        let (solution, dependent, clamped) = bounded_least_squares(&rows, &ones, &lower);
        for (j, v) in solution.iter().enumerate() {
            if !dependent.contains(&j) {
                y[j] = *v;
            }
        }
        outcome = (dependent, clamped);
    }
    let pnames = |j: usize| -> String {
        if j < 3 {
            PrajapatiParams::NAMES[j].to_string()
        } else {
            format!("c_iter of {}", programs[j - 3])
        }
    };
    let predicted: Vec<f64> = samples
        .iter()
        .map(|s| {
            let p = params_of(&y, index(s));
            let (m, c) = s.prajapati.memory_and_compute(&p);
            s.prajapati.wavefronts * p.t_sync + s.prajapati.rounds * (m + c) + s.prajapati.overlapped * m.max(c)
        })
        .collect();
    let prajapati_quality = quality(
        &predicted,
        samples,
        outcome.0.iter().map(|&j| pnames(j)).collect(),
        outcome.1.iter().map(|&j| pnames(j)).collect(),
    );

    // The new calibration: device-wide values, per-program values, and defaults for other
    // programs from the per-program ones.
    let mut c = base.clone();
    c.source = source.to_string();
    c.provenance = provenance.to_string();
    c.thesis.sigma_ker = x[0];
    c.thesis.sigma_blk = x[1];
    c.thesis.sigma_thd = x[2];
    c.thesis.sigma_tile = x[setup];
    c.prajapati.l_word = y[0];
    c.prajapati.tau_sync = y[1];
    c.prajapati.t_sync = y[2];
    // Per program and mapping; then, per mapping, the defaults for programs not measured.
    let mut facts: BTreeMap<String, (u32, u32, bool)> = BTreeMap::new();
    for s in samples {
        facts.insert(key(s), (s.operations, s.element_bytes, s.staged));
    }
    for staged in [true, false] {
        let (mut alphas, mut citers, mut betas, mut gammas) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (p, name) in programs.iter().enumerate() {
            let (o, bytes, kind) = facts.get(name).copied().unwrap_or((1, 8, true));
            if kind != staged {
                continue;
            }
            let t = program_of(p);
            c.thesis.programs.insert(name.clone(), t);
            c.prajapati.programs.insert(name.clone(), y[3 + p]);
            alphas.push((o, t.alpha));
            citers.push((o, y[3 + p]));
            betas.push(t.beta);
            gammas.push(t.gamma / f64::from(bytes.max(1)));
        }
        if alphas.is_empty() {
            continue;
        }
        let (defaults, c_iter) = if staged {
            (&mut c.thesis.staged, &mut c.prajapati.c_iter_staged)
        } else {
            (&mut c.thesis.global, &mut c.prajapati.c_iter_global)
        };
        *defaults = ThesisDefaults {
            alpha: per_operation(&alphas, defaults.alpha),
            beta: betas.iter().sum::<f64>() / betas.len() as f64,
            gamma_per_byte: gammas.iter().sum::<f64>() / gammas.len() as f64,
        };
        *c_iter = per_operation(&citers, *c_iter);
    }
    // R_T per program and staging (thesis Alg. 5.1 line 1: one value per loop nest), and the
    // median of them all for programs not measured.
    let median = |mut v: Vec<u32>| -> Option<u32> {
        v.sort_unstable();
        v.get(v.len() / 2).copied()
    };
    for name in &programs {
        let used: Vec<u32> =
            samples.iter().filter(|s| key(s) == *name && s.registers > 0).map(|s| s.registers).collect();
        if let Some(r) = median(used) {
            c.registers.insert(name.clone(), r);
        }
    }
    if let Some(r) = median(samples.iter().map(|s| s.registers).filter(|&r| r > 0).collect()) {
        c.registers_per_thread = r;
    }
    let q = |f: &FitQuality| {
        serde_json::json!({
            "rms_relative_error": f.rms_relative_error,
            "max_relative_error": f.max_relative_error,
            "undetermined": f.undetermined,
            "clamped": f.clamped,
        })
    };
    // The problem sizes each program's runs were measured at: its constants describe those
    // (a search at other sizes extrapolates; `Calibration::measured_problems`).
    let mut problems: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in samples {
        let sizes = problems.entry(key(s)).or_default();
        if !sizes.contains(&s.problem) {
            sizes.push(s.problem.clone());
        }
    }
    c.fit = Some(serde_json::json!({
        "samples": samples.len(),
        "launch_gap_s": gap,
        "programs": programs,
        "problems": problems,
        "thesis": q(&thesis_quality),
        "prajapati": q(&prajapati_quality),
    }));
    Ok(FitResult { calibration: c, thesis: thesis_quality, prajapati: prajapati_quality })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_recovers_an_exact_line_and_finds_dependent_columns() {
        let a: Vec<Vec<f64>> = (0..6).map(|i| vec![1.0, i as f64, 2.0 * i as f64]).collect();
        let b: Vec<f64> = (0..6).map(|i| 3.0 + 0.5 * i as f64).collect();
        let (x, dependent) = least_squares(&a, &b, &[0, 1, 2]);
        assert_eq!(dependent.len(), 1);
        let fitted: Vec<f64> = a.iter().map(|r| r.iter().zip(&x).map(|(p, q)| p * q).sum()).collect();
        for (f, y) in fitted.iter().zip(&b) {
            assert!((f - y).abs() < 1e-9);
        }
    }
}
