//! `stencil-run --converge TOL`: run a program step by step until a norm of one field — the
//! residual of the Laplace equation (thesis Eq. 6.2: `Σ neighbours − 2·rank·u` at every
//! interior point) or the change since the last check — falls below a tolerance, and report
//! steps, SOR sweeps, the final norm and the time.
//!
//! The program runs `every` steps at a time (its step parameter, `T` by default, set to
//! `every`; the last run only the steps left under `max_steps`, so that cap is exact), the
//! fields carried from one run to the next; the norm is computed after each run. Step and
//! sweep counts are checked: a count past `u64::MAX` is an error, never a wrapped number.
//! One step of a program rewritten by `stencil-rbsor`/`stencil-mlsor` is worth the
//! `sweeps_per_step` SOR sweeps its `sor.rewrite` attribute records (MLSOR with K layers:
//! `2K` alternate, `K` forward); a plain program counts one sweep per apply of its time loop.

use stencil_ir::{Attribute, Module};
use stencil_runtime::{FieldData, FieldValues, RunStats};

use super::RunError;

/// Which norm decides convergence.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Norm {
    /// `sqrt(Σ r²)` of the Laplace residual over the interior points.
    ResidualL2,
    /// `max |r|` of the Laplace residual.
    ResidualMax,
    /// `sqrt(Σ (u − u_prev)²)` since the previous check.
    ChangeL2,
    /// `max |u − u_prev|` since the previous check.
    ChangeMax,
}

impl Norm {
    /// Every norm with its `--norm` text.
    pub const ALL: [(&'static str, Norm); 4] = [
        ("residual-l2", Norm::ResidualL2),
        ("residual-max", Norm::ResidualMax),
        ("change-l2", Norm::ChangeL2),
        ("change-max", Norm::ChangeMax),
    ];

    /// Parses a `--norm` value.
    pub fn parse(text: &str) -> Result<Norm, String> {
        Self::ALL
            .iter()
            .find(|(n, _)| *n == text)
            .map(|&(_, v)| v)
            .ok_or_else(|| format!("unknown norm '{text}': expected one of {}", Self::ALL.map(|(n, _)| n).join(", ")))
    }

    /// The `--norm` text.
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|(_, v)| *v == self).map_or("?", |(n, _)| n)
    }
}

/// The options of a convergence run.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvergeOptions {
    /// Stop when the norm is below this.
    pub tolerance: f64,
    /// The norm.
    pub norm: Norm,
    /// The field measured (default: the program's first field).
    pub field: Option<String>,
    /// The parameter counting steps (default `T`).
    pub steps_param: String,
    /// Steps per run between two checks (default 1).
    pub every: i64,
    /// Give up (not converged) after this many steps.
    pub max_steps: u64,
    /// SOR sweeps per step, overriding what the program records.
    pub sweeps_per_step: Option<u64>,
    /// The tolerance is relative: to the initial residual, or to the first change.
    pub relative: bool,
}

impl Default for ConvergeOptions {
    fn default() -> Self {
        ConvergeOptions {
            tolerance: 1e-6,
            norm: Norm::ResidualL2,
            field: None,
            steps_param: "T".into(),
            every: 1,
            max_steps: 100_000,
            sweeps_per_step: None,
            relative: false,
        }
    }
}

/// What a convergence run found.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvergenceReport {
    /// The norm.
    pub norm: Norm,
    /// The absolute tolerance reached for (relative ones multiplied out).
    pub tolerance: f64,
    /// The field measured.
    pub field: String,
    /// Whether the norm went below the tolerance within `max_steps`.
    pub converged: bool,
    /// Steps run.
    pub steps: u64,
    /// SOR sweeps per step.
    pub sweeps_per_step: u64,
    /// The norm before the first step (for change norms: NaN).
    pub initial: f64,
    /// The norm after the last step.
    pub last: f64,
    /// Seconds spent running the program (norms not included).
    pub run_seconds: f64,
    /// Seconds spent computing norms.
    pub norm_seconds: f64,
    /// `(sweeps, norm, run seconds so far)` after each check.
    pub history: Vec<(u64, f64, f64)>,
}

impl ConvergenceReport {
    /// SOR sweeps run. [`converge`] refuses a run whose sweeps do not fit a `u64`, so for its
    /// reports this is exact; a report built by hand with such counts gets `u64::MAX` rather
    /// than a wrapped number.
    pub fn sweeps(&self) -> u64 {
        self.steps.saturating_mul(self.sweeps_per_step)
    }
}

/// The values of a field as `f64`.
fn values(f: &FieldData) -> Vec<f64> {
    match &f.values {
        FieldValues::F32(v) => v.iter().map(|&x| f64::from(x)).collect(),
        FieldValues::F64(v) => v.clone(),
    }
}

/// `(L2, max)` of the Laplace residual `Σ neighbours − 2·rank·u` over the points at least one
/// point away from every face of `f`.
pub fn residual(f: &FieldData) -> (f64, f64) {
    let shape = &f.shape;
    let u = values(f);
    let rank = shape.len();
    let mut strides = vec![1usize; rank];
    for d in (0..rank.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    let (mut sum, mut max) = (0.0f64, 0.0f64);
    let mut index = vec![1usize; rank];
    if shape.iter().any(|&n| n < 3) {
        return (0.0, 0.0);
    }
    loop {
        let at: usize = index.iter().zip(&strides).map(|(i, s)| i * s).sum();
        let mut r = -2.0 * rank as f64 * u[at];
        for &s in &strides {
            r += u[at - s] + u[at + s];
        }
        sum += r * r;
        max = max.max(r.abs());
        // Next interior index, the last dimension fastest.
        let mut d = rank;
        loop {
            if d == 0 {
                return (sum.sqrt(), max);
            }
            d -= 1;
            index[d] += 1;
            if index[d] < shape[d] - 1 {
                break;
            }
            index[d] = 1;
        }
    }
}

/// `(L2, max)` of `a − b`.
fn change(a: &[f64], b: &[f64]) -> (f64, f64) {
    let (mut sum, mut max) = (0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        let d = x - y;
        sum += d * d;
        max = max.max(d.abs());
    }
    (sum.sqrt(), max)
}

/// SOR sweeps one step of the program `entry` of `module` (its `stencil.program` or the
/// function lowered from it) is worth: `sor.rewrite`'s `sweeps_per_step` on it, else the
/// applies directly in its first `stencil.iterate` (one for SOR, two for SSOR), else 1.
pub fn sweeps_per_step(module: &Module, entry: stencil_ir::OpId) -> u64 {
    let ir = &module.ir;
    let mut recorded = None;
    let mut applies = None;
    ir.walk(entry, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
        if let Some(Attribute::Dictionary(d)) = ir.attr(op, stencil_dialects::stencil::updates::SOR_REWRITE_ATTR) {
            let steps = stencil_ir::attributes::get_named(d, "sweeps_per_step").and_then(Attribute::as_i64);
            recorded = recorded.or(steps.and_then(|s| u64::try_from(s).ok()));
        }
        if applies.is_none() && ir.op_name(op) == "stencil.iterate" {
            let body = ir.regions(op).first().and_then(|&r| ir.entry_block(r));
            let n = body.map_or(0, |b| ir.block_ops(b).iter().filter(|&&o| ir.op_name(o) == "stencil.apply").count());
            if n > 0 {
                applies = Some(n as u64);
            }
        }
    });
    recorded.or(applies).unwrap_or(1)
}

/// Runs `run_steps(n)` (which runs the program once with its step parameter set to `n`) until
/// the norm of `field` in `current()` is below the tolerance or `max_steps` steps have run:
/// `n` is `options.every`, or the steps left when fewer, so the run stops at `max_steps`
/// exactly and is measured there. `current` reads the current state of the measured field.
///
/// Fails when the sweeps run (`steps × sweeps_per_step`) do not fit a `u64`.
pub fn converge(
    options: &ConvergeOptions,
    field: &str,
    sweeps_per_step: u64,
    mut run_steps: impl FnMut(i64) -> Result<RunStats, RunError>,
    mut current: impl FnMut() -> Result<FieldData, RunError>,
) -> Result<(ConvergenceReport, RunStats), RunError> {
    let started = std::time::Instant::now();
    let norm_of = |f: &FieldData, previous: &[f64]| -> (f64, Vec<f64>) {
        let now = values(f);
        let value = match options.norm {
            Norm::ResidualL2 => residual(f).0,
            Norm::ResidualMax => residual(f).1,
            Norm::ChangeL2 => change(&now, previous).0,
            Norm::ChangeMax => change(&now, previous).1,
        };
        (value, now)
    };
    let first = current()?;
    let mut previous = values(&first);
    let initial = match options.norm {
        Norm::ResidualL2 => residual(&first).0,
        Norm::ResidualMax => residual(&first).1,
        Norm::ChangeL2 | Norm::ChangeMax => f64::NAN,
    };
    let mut norm_seconds = started.elapsed().as_secs_f64();
    // A relative tolerance scales the initial residual, or the first change (known after the
    // first run).
    let mut threshold = match (options.relative, options.norm) {
        (false, _) => Some(options.tolerance),
        (true, Norm::ResidualL2 | Norm::ResidualMax) => Some(options.tolerance * initial),
        (true, _) => None,
    };
    let mut total = RunStats::default();
    let mut report = ConvergenceReport {
        norm: options.norm,
        tolerance: threshold.unwrap_or(f64::NAN),
        field: field.to_string(),
        converged: threshold.is_some_and(|t| initial < t),
        steps: 0,
        sweeps_per_step,
        initial,
        last: initial,
        run_seconds: 0.0,
        norm_seconds: 0.0,
        history: Vec::new(),
    };
    let every = u64::try_from(options.every).unwrap_or(1).max(1);
    while !report.converged && report.steps < options.max_steps {
        // The last run takes only the steps left: running `every` steps past `max_steps` would
        // ignore the cap (and a huge `every` would run for ever).
        let batch = every.min(options.max_steps - report.steps);
        // `batch` is at most `every`, which came from an `i64`.
        let batch_param = i64::try_from(batch).map_err(|_| RunError::new("--check-every: too many steps per run"))?;
        // Cannot overflow: `steps + batch <= max_steps`.
        let steps_after = report.steps + batch;
        // Checked before running, so that a count that cannot be reported costs no run.
        let sweeps = steps_after.checked_mul(sweeps_per_step).ok_or_else(|| {
            let source = if options.sweeps_per_step.is_some() {
                "--sweeps-per-step"
            } else {
                "the program's sor.rewrite sweeps_per_step"
            };
            RunError::new(format!(
                "--converge: {steps_after} steps of {sweeps_per_step} sweeps each is more than {} sweeps, too many to count: {source} is too large",
                u64::MAX
            ))
        })?;
        let stats = run_steps(batch_param)?;
        // Point updates are only reported: past u64::MAX they stay at the maximum.
        total.point_updates = total.point_updates.saturating_add(stats.point_updates);
        total.field_stores = total.field_stores.saturating_add(stats.field_stores);
        total.seconds += stats.seconds;
        report.steps = steps_after;
        let measured = std::time::Instant::now();
        let (value, now) = norm_of(&current()?, &previous);
        previous = now;
        norm_seconds += measured.elapsed().as_secs_f64();
        if !value.is_finite() {
            return Err(RunError::new(format!(
                "--converge: the {} of {field} is {value} after {} steps: the method diverges",
                options.norm.name(),
                report.steps
            )));
        }
        report.last = value;
        report.history.push((sweeps, value, total.seconds));
        let t = *threshold.get_or_insert(options.tolerance * value);
        report.tolerance = t;
        report.converged = value < t;
    }
    report.run_seconds = total.seconds;
    report.norm_seconds = norm_seconds;
    tracing::info!(steps = report.steps, converged = report.converged, last = report.last, "convergence run");
    Ok((report, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn residual_of_a_harmonic_field_is_zero() {
        // u = i² − j² is harmonic and the 5-point Laplacian is exact on quadratics.
        let (n, m) = (6, 5);
        let v: Vec<f64> = (0..n * m).map(|k| ((k / m) * (k / m)) as f64 - ((k % m) * (k % m)) as f64).collect();
        let f = FieldData::new(vec![n, m], FieldValues::F64(v)).expect("field");
        assert_eq!(residual(&f), (0.0, 0.0));
    }

    /// A 3×3 field whose residual is 0 (all zeros) or 4 (a bump in the middle).
    fn field(converged: bool) -> FieldData {
        let mut v = vec![0.0; 9];
        if !converged {
            v[4] = 1.0;
        }
        FieldData::new(vec![3, 3], FieldValues::F64(v)).expect("field")
    }

    /// Runs `converge` on a fake program that converges once `converged_at` steps have run
    /// (never with `None`); gives the result and the step counts each run was given.
    fn fake_run(
        options: &ConvergeOptions,
        sweeps_per_step: u64,
        converged_at: Option<u64>,
    ) -> (Result<ConvergenceReport, RunError>, Vec<i64>) {
        let runs = std::cell::RefCell::new(Vec::new());
        let result = converge(
            options,
            "A",
            sweeps_per_step,
            |steps| {
                runs.borrow_mut().push(steps);
                Ok(RunStats { point_updates: 1, field_stores: 1, seconds: 0.0 })
            },
            || {
                let done: i64 = runs.borrow().iter().sum();
                Ok(field(converged_at.is_some_and(|at| u64::try_from(done).is_ok_and(|d| d >= at))))
            },
        );
        (result.map(|(report, _)| report), runs.into_inner())
    }

    #[test]
    fn max_steps_caps_the_last_run() {
        // 10 steps checked every 3: runs of 3, 3, 3 and the 1 left, not a fourth run of 3.
        let options = ConvergeOptions { every: 3, max_steps: 10, ..Default::default() };
        let (report, runs) = fake_run(&options, 1, None);
        let report = report.expect("runs");
        assert_eq!(runs, vec![3, 3, 3, 1]);
        assert_eq!((report.steps, report.converged, report.sweeps()), (10, false, 10));
    }

    #[test]
    fn check_every_larger_than_max_steps_runs_max_steps() {
        // Was: one run of i64::MAX steps (a hang), reported as that many steps.
        let options = ConvergeOptions { every: i64::MAX, max_steps: 10, ..Default::default() };
        let (report, runs) = fake_run(&options, 1, None);
        assert_eq!(runs, vec![10]);
        assert_eq!(report.expect("runs").steps, 10);
    }

    #[test]
    fn convergence_is_checked_at_the_last_step() {
        // Converges exactly at max_steps, reached by the short last run: that state is measured.
        let options = ConvergeOptions { every: 4, max_steps: 10, ..Default::default() };
        let (report, runs) = fake_run(&options, 2, Some(10));
        let report = report.expect("runs");
        assert_eq!(runs, vec![4, 4, 2]);
        assert!(report.converged);
        assert_eq!((report.steps, report.sweeps()), (10, 20));
        assert_eq!(report.history.iter().map(|h| h.0).collect::<Vec<_>>(), vec![8, 16, 20]);
    }

    #[test]
    fn sweeps_past_u64_are_an_error_not_a_wrapped_count() {
        // Was: 29 steps × (2^64 − 1) sweeps printed as 18446744073709551587 sweeps.
        let options = ConvergeOptions { sweeps_per_step: Some(u64::MAX), ..Default::default() };
        let (report, runs) = fake_run(&options, u64::MAX, Some(29));
        let message = report.expect_err("overflows").to_string();
        assert!(message.contains("2 steps of 18446744073709551615 sweeps each"), "{message}");
        assert!(message.contains("--sweeps-per-step is too large"), "{message}");
        // The step that could not be counted was not run.
        assert_eq!(runs, vec![1]);
    }

    #[test]
    fn a_hand_built_report_saturates_its_sweeps() {
        let (report, _) = fake_run(&ConvergeOptions { max_steps: 1, ..Default::default() }, 1, None);
        let report = ConvergenceReport { steps: 3, sweeps_per_step: u64::MAX, ..report.expect("runs") };
        assert_eq!(report.sweeps(), u64::MAX);
    }

    #[test]
    fn residual_of_a_bump() {
        // One interior point at 1 in a 3×3 grid: r = −4 there.
        let mut v = vec![0.0; 9];
        v[4] = 1.0;
        let f = FieldData::new(vec![3, 3], FieldValues::F64(v)).expect("field");
        assert_eq!(residual(&f), (4.0, 4.0));
    }
}
