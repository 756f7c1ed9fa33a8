//! `stencil-run --converge TOL`: run a program step by step until a norm of one field — the
//! residual of the Laplace equation (thesis Eq. 6.2: `Σ neighbours − 2·rank·u` at every
//! interior point) or the change since the last check — falls below a tolerance, and report
//! steps, SOR sweeps, the final norm and the time.
//!
//! The program runs `every` steps at a time (its step parameter, `T` by default, set to
//! `every`), the fields carried from one run to the next; the norm is computed after each run.
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
    /// SOR sweeps run.
    pub fn sweeps(&self) -> u64 {
        self.steps * self.sweeps_per_step
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

/// SOR sweeps one step of `module`'s program is worth: `sor.rewrite`'s `sweeps_per_step` on
/// the program (or the function lowered from it), else the applies directly in its first
/// `stencil.iterate` (one for SOR, two for SSOR), else 1.
pub fn sweeps_per_step(module: &Module) -> u64 {
    let ir = &module.ir;
    let mut recorded = None;
    let mut applies = None;
    ir.walk(module.top, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
        if let Some(Attribute::Dictionary(d)) = ir.attr(op, "sor.rewrite") {
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

/// Runs `run_steps` (which runs the program once with the step parameter already set) until
/// the norm of `field` in `fields()` is below the tolerance or `max_steps` steps have run.
/// `fields` reads the current state of the measured field.
pub fn converge(
    options: &ConvergeOptions,
    field: &str,
    sweeps_per_step: u64,
    mut run_steps: impl FnMut() -> Result<RunStats, RunError>,
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
    let mut total = RunStats { point_updates: 0, seconds: 0.0 };
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
        let stats = run_steps()?;
        total.point_updates += stats.point_updates;
        total.seconds += stats.seconds;
        report.steps += every;
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
        report.history.push((report.steps * sweeps_per_step, value, total.seconds));
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

    #[test]
    fn residual_of_a_bump() {
        // One interior point at 1 in a 3×3 grid: r = −4 there.
        let mut v = vec![0.0; 9];
        v[4] = 1.0;
        let f = FieldData::new(vec![3, 3], FieldValues::F64(v)).expect("field");
        assert_eq!(residual(&f), (4.0, 4.0));
    }
}
