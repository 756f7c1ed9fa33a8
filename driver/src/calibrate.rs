//! The calibration tool's logic (`stencil-calibrate`, docs/tile-models.md "Calibration"):
//! measured runs in, a calibration file or a model-versus-measurement comparison out.
//!
//! A **measurements file** lists runs of calibration configurations — a program, a pipeline
//! with explicit tile sizes and block, problem sizes — with their time and the registers their
//! kernel used, as `bench/calibrate.py` writes them from `stencil-run --json` (on a GPU:
//! CUDA-event time; on the simulator: the cost report's estimate):
//!
//! ```json
//! {"format": 1, "target": "gpu", "device": "NVIDIA H100 80GB HBM3", "runs": [
//!   {"label": "sor-2d-5pt 8x16x16 32x4", "example": "examples/sor-2d-5pt.mlir",
//!    "pipeline": "builtin.module(poly-schedule,poly-tile{sizes=8,16,16},gpu-map{block=32,4})",
//!    "params": {"T": 64, "N": 1024, "M": 1024}, "tile": [8, 16, 16], "block": [32, 4, 1],
//!    "registers": 128, "seconds": 0.0123}]}
//! ```
//!
//! Each run becomes a [`Sample`]: the program is compiled up to `poly-tile` and its exact
//! model inputs are counted for the run's layout ([`crate::explain::program_layouts`]).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::verifier::verify;
use stencil_ir::SourceFile;
use stencil_passes::tile_model::set_problem_sizes;
use stencil_tilemodel::fit::{problem_text, Sample};
use stencil_tilemodel::prajapati::PrajapatiParts;
use stencil_tilemodel::thesis::thesis_features;
use stencil_tilemodel::{Block, Calibration, LayoutInputs, TileGeometry, TileInputs, TileModelError};

use crate::explain::program_layouts;
use crate::opt::Registries;

/// One measured run.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// What it was.
    pub label: String,
    /// The program file.
    pub example: PathBuf,
    /// The pass pipeline it was compiled with.
    pub pipeline: String,
    /// Problem sizes.
    pub params: Vec<(String, i64)>,
    /// The tile sizes it ran with (`None`: the pipeline's).
    pub tile: Option<Vec<i64>>,
    /// The block it ran with (`None`: the pipeline's).
    pub block: Option<[i64; 3]>,
    /// Registers per thread of its kernel.
    pub registers: u32,
    /// Its time in seconds.
    pub seconds: f64,
}

/// A measurements file.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurements {
    /// `gpu` (measured) or `sim` (the simulator's cost-report estimates).
    pub target: String,
    /// What ran them.
    pub device: String,
    /// The runs.
    pub runs: Vec<Run>,
    /// The device's time between two dependent launches, when the file records it
    /// (`launch_gap_s`; `bench/bundle_run.py` measures it with the calibration runs;
    /// `stencil-calibrate fit --launch-gap` applies it).
    pub launch_gap_s: Option<f64>,
}

impl Measurements {
    /// Reads a measurements file; program paths are relative to `root` (default: its folder).
    pub fn load(path: &Path, root: Option<&Path>) -> Result<Measurements, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
        let json: Value = serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
        let folder = root.unwrap_or_else(|| path.parent().unwrap_or(Path::new(".")));
        let root = json;
        let field = |v: &Value, name: &str| -> Result<Value, String> {
            v.get(name).cloned().ok_or_else(|| format!("{}: a run lacks '{name}'", path.display()))
        };
        if root.get("format").and_then(Value::as_u64) != Some(1) {
            return Err(format!("{}: expected \"format\": 1", path.display()));
        }
        let mut runs = Vec::new();
        for r in
            root.get("runs").and_then(Value::as_array).ok_or_else(|| format!("{}: no 'runs' list", path.display()))?
        {
            let label = field(r, "label")?.as_str().unwrap_or("?").to_string();
            let bad = |m: &str| format!("{}: run '{label}': {m}", path.display());
            // A list of `min..=max` integers >= 1 when present (`null`: absent).
            let sizes = |name: &str, max: usize| -> Result<Option<Vec<i64>>, String> {
                match r.get(name) {
                    None | Some(Value::Null) => Ok(None),
                    Some(v) => v
                        .as_array()
                        .filter(|a| (1..=max).contains(&a.len()))
                        .and_then(|a| a.iter().map(|x| x.as_i64().filter(|&x| x >= 1)).collect::<Option<Vec<_>>>())
                        .map(Some)
                        .ok_or_else(|| bad(&format!("'{name}' must be a list of 1 to {max} integers >= 1"))),
                }
            };
            let params = field(r, "params")?
                .as_object()
                .ok_or_else(|| bad("'params' must be an object"))?
                .iter()
                .map(|(k, v)| {
                    v.as_i64()
                        .map(|v| (k.clone(), v))
                        .ok_or_else(|| bad(&format!("parameter '{k}' must be an integer")))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let block = sizes("block", 3)?.map(|b| {
                let mut x = [1i64; 3];
                x[..b.len()].copy_from_slice(&b);
                x
            });
            runs.push(Run {
                example: folder.join(field(r, "example")?.as_str().ok_or_else(|| bad("'example' must be a path"))?),
                pipeline: field(r, "pipeline")?.as_str().ok_or_else(|| bad("'pipeline' must be a string"))?.to_string(),
                params,
                tile: sizes("tile", 16)?,
                block,
                registers: field(r, "registers")?
                    .as_u64()
                    .and_then(|v| u32::try_from(v).ok())
                    .ok_or_else(|| bad("'registers' must be an integer"))?,
                // A time the models can be fitted to and compared with (relative errors).
                seconds: field(r, "seconds")?
                    .as_f64()
                    .filter(|t| *t > 0.0 && t.is_finite())
                    .ok_or_else(|| bad("'seconds' must be a number of seconds > 0"))?,
                label,
            });
        }
        if runs.is_empty() {
            return Err(format!("{}: the 'runs' list is empty", path.display()));
        }
        Ok(Measurements {
            target: root.get("target").and_then(Value::as_str).unwrap_or("?").to_string(),
            device: root.get("device").and_then(Value::as_str).unwrap_or("?").to_string(),
            runs,
            launch_gap_s: match root.get("launch_gap_s") {
                None | Some(Value::Null) => None,
                Some(v) => {
                    Some(v.as_f64().filter(|g| *g >= 0.0 && g.is_finite()).ok_or_else(|| {
                        format!("{}: 'launch_gap_s' must be a number of seconds >= 0", path.display())
                    })?)
                }
            },
        })
    }
}

/// Why a run gives no [`Sample`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SampleError {
    /// The run is valid but the tile model cannot count its tiles: more inter-tile wavefronts
    /// than one count holds, without a repeated stretch that keeps fewer
    /// ([`TileModelError::TooManyWavefronts`]). The GPU ran it; the model has no inputs for it,
    /// so [`samples`] leaves it out and names it.
    Uncountable(String),
    /// The run or its program is wrong (unreadable, invalid, not one nest, …).
    Invalid(String),
}

impl std::fmt::Display for SampleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SampleError::Uncountable(m) | SampleError::Invalid(m) => f.write_str(m),
        }
    }
}

/// The model inputs of one run, as a fitting [`Sample`] for the device of `calibration`.
pub fn sample(run: &Run, calibration: &Calibration, registries: &Registries) -> Result<Sample, SampleError> {
    let fail = |m: String| SampleError::Invalid(format!("{}: {m}", run.label));
    // The count's limit is the model's, not the run's: keep it apart so that one run
    // past it does not cost the whole fit.
    let model_fail = |e: TileModelError| match e {
        TileModelError::TooManyWavefronts(m) => SampleError::Uncountable(format!("{}: {m}", run.label)),
        e => fail(e.to_string()),
    };
    let text = std::fs::read_to_string(&run.example).map_err(|e| fail(format!("{}: {e}", run.example.display())))?;
    let source = SourceFile::new(&run.example.display().to_string(), &text);
    let config = ParserConfig { registry: &registries.dialects, allow_unregistered: false };
    let mut module = parse_source(&source, config).map_err(|d| fail(d.render()))?;
    verify(&module.ir, &registries.dialects, module.top, false).map_err(|d| fail(d.render()))?;
    // A run's problem sizes are its program's parameters, every one: a name the program does
    // not have would be ignored, and a missing one would take its declared default, both
    // silently (and the run be grouped under other sizes than it ran at).
    let mut names = Vec::new();
    crate::params::declared_params(&module.ir, module.top, &mut names);
    let given: Vec<&str> = run.params.iter().map(|(n, _)| n.as_str()).collect();
    let unknown: Vec<&str> = given.iter().copied().filter(|n| !names.iter().any(|m| m == n)).collect();
    let missing: Vec<&str> = names.iter().map(String::as_str).filter(|n| !given.contains(n)).collect();
    if !unknown.is_empty() || !missing.is_empty() {
        let listed = |what: &str, v: &[&str]| (!v.is_empty()).then(|| format!("{what} {}", v.join(", ")));
        let problems: Vec<String> =
            [listed("unknown", &unknown), listed("missing", &missing)].into_iter().flatten().collect();
        return Err(fail(format!(
            "its params must be the program's parameters ({}): {}",
            names.join(", "),
            problems.join("; ")
        )));
    }
    set_problem_sizes(&mut module.ir, module.top, &run.params);
    let layouts = program_layouts(&module, Some(&run.pipeline), registries).map_err(|d| fail(d.render()))?;
    let layout = layouts.first().ok_or_else(|| fail("no stencil.program".into()))?;
    // A fit's features are one nest's (thesis Eq. 5.11): a program of several nests or with
    // host loops would mix their times in one sample.
    let shape = layout.shape.single().ok_or_else(|| {
        fail(format!(
            "{} has {} tiled nests inside {} host loops: calibration runs need a program of one nest",
            layout.program,
            layout.shape.nests.len(),
            layout.shape.host_loops.len()
        ))
    })?;
    let mut sizes = run.tile.clone().unwrap_or_else(|| layout.spec.sizes.clone());
    if sizes.len() == 1 {
        sizes = vec![sizes[0]; shape.width];
    }
    let block = run
        .block
        .or(layout.block)
        .or(layout.spec.auto.as_ref().map(|a| a.block))
        .ok_or_else(|| fail("the run names no block (give \"block\" or gpu-map{block=…})".into()))?;
    let to_u32 = |v: i64| u32::try_from(v).map_err(|_| fail(format!("block {block:?}")));
    let block = Block::new(to_u32(block[0])?, to_u32(block[1])?, to_u32(block[2])?);
    let tile = TileInputs::new(shape, &TileGeometry::new(shape), &sizes, layout.search.staging).map_err(model_fail)?;
    let inputs = LayoutInputs::new(shape, &tile, block, run.registers, &calibration.device).map_err(model_fail)?;
    Ok(Sample {
        label: run.label.clone(),
        program: layout.program.clone(),
        operations: shape.operations_per_point(),
        element_bytes: shape.element_bytes(),
        data_bytes: shape.data_bytes(),
        registers: run.registers,
        staged: layout.search.staging,
        problem: problem_text(&run.params),
        thesis: thesis_features(&inputs, &calibration.device).map_err(model_fail)?,
        prajapati: PrajapatiParts::new(&inputs, &calibration.device).map_err(model_fail)?,
        seconds: run.seconds,
        admitted: stencil_tilemodel::search::block_constraint_of(shape, &sizes, block).is_none(),
    })
}

/// The samples of a measurements file's runs, and the runs the tile model cannot count.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Samples {
    /// One per countable run, in the file's order.
    pub samples: Vec<Sample>,
    /// The runs left out, each `label: why` ([`SampleError::Uncountable`]).
    pub uncountable: Vec<String>,
}

/// The samples of every run. A run the model cannot count is left out and named in
/// [`Samples::uncountable`]; any other bad run is an error, as is a file with no countable run.
pub fn samples(
    measurements: &Measurements,
    calibration: &Calibration,
    registries: &Registries,
) -> Result<Samples, String> {
    let mut out = Samples::default();
    for run in &measurements.runs {
        match sample(run, calibration, registries) {
            Ok(s) => out.samples.push(s),
            Err(SampleError::Uncountable(why)) => out.uncountable.push(why),
            Err(e @ SampleError::Invalid(_)) => return Err(e.to_string()),
        }
    }
    if out.samples.is_empty() && !out.uncountable.is_empty() {
        return Err(format!(
            "the tile model counts none of the {} runs (the first: {})",
            out.uncountable.len(),
            out.uncountable[0]
        ));
    }
    Ok(out)
}

/// The thesis model's time of a sample under `calibration`.
pub fn thesis_time(s: &Sample, calibration: &Calibration) -> f64 {
    let p = calibration.thesis_params(&s.program, s.staged, s.operations, s.element_bytes, s.data_bytes).to_vector();
    s.thesis.iter().zip(p).map(|(f, v)| f * v).sum()
}

/// Seed 004's time of a sample under `calibration`.
pub fn prajapati_time(s: &Sample, calibration: &Calibration) -> f64 {
    let p = calibration.prajapati_params(&s.program, s.staged, s.operations);
    let (m, c) = s.prajapati.memory_and_compute(&p);
    s.prajapati.wavefronts * p.t_sync + s.prajapati.rounds * (m + c) + s.prajapati.overlapped * m.max(c)
}

/// Spearman's rank correlation of two equally long lists (ties get their mean rank).
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    fn ranks(v: &[f64]) -> Vec<f64> {
        let mut order: Vec<usize> = (0..v.len()).collect();
        order.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
        let mut r = vec![0.0; v.len()];
        let mut k = 0;
        while k < order.len() {
            let mut e = k;
            while e + 1 < order.len() && v[order[e + 1]] == v[order[k]] {
                e += 1;
            }
            let mean = (k + e) as f64 / 2.0 + 1.0;
            for &i in &order[k..=e] {
                r[i] = mean;
            }
            k = e + 1;
        }
        r
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let (va, vb): (f64, f64) = (ra.iter().map(|x| (x - ma).powi(2)).sum(), rb.iter().map(|y| (y - mb).powi(2)).sum());
    if va == 0.0 || vb == 0.0 {
        return 0.0;
    }
    cov / (va * vb).sqrt()
}

/// How one model agrees with the measurements of one program.
#[derive(Debug, Clone, PartialEq)]
pub struct Agreement {
    /// Spearman's rank correlation of predicted and measured times.
    pub rank_correlation: f64,
    /// How much slower (measured) the run the model ranks first is than the fastest run:
    /// `measured(model's choice) / min measured − 1`.
    pub choice_gap: f64,
    /// The run the model ranks first.
    pub choice: String,
    /// `choice_gap` for the model's first choice among the runs the search could choose (their
    /// block meets the blockDim constraint, [`Sample::admitted`]), against the fastest run of
    /// all: how far the search's own choice among these layouts would be (equal to
    /// `choice_gap` when the model's first choice is admitted; `None` without admitted runs).
    pub search_gap: Option<f64>,
    /// The admitted run the model ranks first.
    pub search_choice: Option<String>,
    /// Root-mean-square relative error of the predicted times.
    pub rms_relative_error: f64,
}

fn agreement(samples: &[&Sample], predicted: &[f64]) -> Agreement {
    let measured: Vec<f64> = samples.iter().map(|s| s.seconds).collect();
    let best = measured.iter().copied().fold(f64::INFINITY, f64::min);
    // The run the model ranks first among those `keep` takes (`predicted` has one per sample).
    let first = |keep: &dyn Fn(&Sample) -> bool| {
        (0..predicted.len().min(samples.len()))
            .filter(|&i| keep(samples[i]))
            .min_by(|&i, &j| predicted[i].total_cmp(&predicted[j]))
    };
    let pick = first(&|_| true).unwrap_or(0);
    let admitted_pick = first(&|s| s.admitted);
    let rms = (predicted.iter().zip(&measured).map(|(p, m)| ((p - m) / m).powi(2)).sum::<f64>()
        / measured.len().max(1) as f64)
        .sqrt();
    Agreement {
        rank_correlation: spearman(predicted, &measured),
        choice_gap: measured.get(pick).map_or(0.0, |m| m / best - 1.0),
        choice: samples.get(pick).map_or_else(String::new, |s| s.label.clone()),
        search_gap: admitted_pick.map(|i| measured[i] / best - 1.0),
        search_choice: admitted_pick.map(|i| samples[i].label.clone()),
        rms_relative_error: rms,
    }
}

/// Per program, element size and problem size (in first-seen order): its runs, staged and on
/// global memory together, and each model's agreement. Staged and global layouts share a group
/// because `poly-tile{staging=auto}` chooses between them with the same model; problem sizes do
/// not, since a larger problem's runs take longer whatever the model says.
pub fn compare(samples: &[Sample], calibration: &Calibration) -> Vec<(String, usize, Agreement, Agreement)> {
    let key = |s: &Sample| format!("{} f{} {}", s.program, 8 * s.element_bytes, s.problem);
    let mut programs: Vec<String> = Vec::new();
    for s in samples {
        if !programs.contains(&key(s)) {
            programs.push(key(s));
        }
    }
    programs
        .into_iter()
        .map(|p| {
            let mine: Vec<&Sample> = samples.iter().filter(|s| key(s) == p).collect();
            let thesis: Vec<f64> = mine.iter().map(|s| thesis_time(s, calibration)).collect();
            let prajapati: Vec<f64> = mine.iter().map(|s| prajapati_time(s, calibration)).collect();
            (p, mine.len(), agreement(&mine, &thesis), agreement(&mine, &prajapati))
        })
        .collect()
}

/// The comparison as a text table.
pub fn render_comparison(rows: &[(String, usize, Agreement, Agreement)], what: &str) -> String {
    let mut out = format!(
        "model vs {what}: Spearman rank correlation, measured gap of the model's first choice to the best run, \
         the same for its first choice among the layouts the search could choose (blockDim constraint), RMS relative error\n"
    );
    out.push_str(&format!(
        "{:<44} {:>5}  {:>8} {:>8} {:>8} {:>8}  {:>8} {:>8} {:>8} {:>8}\n",
        "program", "runs", "thesis ρ", "gap", "search", "rms", "004 ρ", "gap", "search", "rms"
    ));
    let search = |a: &Agreement| a.search_gap.map_or_else(|| "-".to_string(), |g| format!("{:.2}%", 100.0 * g));
    for (p, n, t, q) in rows {
        out.push_str(&format!(
            "{:<44} {:>5}  {:>8.3} {:>7.2}% {:>8} {:>7.1}%  {:>8.3} {:>7.2}% {:>8} {:>7.1}%\n",
            p,
            n,
            t.rank_correlation,
            100.0 * t.choice_gap,
            search(t),
            100.0 * t.rms_relative_error,
            q.rank_correlation,
            100.0 * q.choice_gap,
            search(q),
            100.0 * q.rms_relative_error
        ));
    }
    out
}

/// The comparison as JSON.
pub fn comparison_json(rows: &[(String, usize, Agreement, Agreement)]) -> Value {
    let a = |x: &Agreement| {
        json!({"rank_correlation": x.rank_correlation, "choice_gap": x.choice_gap, "choice": x.choice,
               "search_gap": x.search_gap, "search_choice": x.search_choice,
               "rms_relative_error": x.rms_relative_error})
    };
    Value::Array(
        rows.iter().map(|(p, n, t, q)| json!({"program": p, "runs": n, "thesis": a(t), "prajapati": a(q)})).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::{compare, spearman};
    use stencil_tilemodel::calibration::Calibration;
    use stencil_tilemodel::fit::Sample;
    use stencil_tilemodel::prajapati::PrajapatiParts;

    /// A run of `program` at `problem` whose thesis features make its predicted time grow with
    /// `work` (the warp-iteration feature), measured at `seconds`.
    fn run(program: &str, staged: bool, problem: &str, work: f64, seconds: f64) -> Sample {
        Sample {
            label: format!("{program} {problem} {}", if staged { "staged" } else { "global" }),
            program: program.into(),
            operations: 6,
            element_bytes: 8,
            data_bytes: 0,
            registers: 64,
            staged,
            problem: problem.into(),
            thesis: [1.0, 10.0, 0.0, work, 0.0, 0.0, 0.0],
            prajapati: PrajapatiParts {
                wavefronts: 10.0,
                rounds: work,
                overlapped: 0.0,
                words: work,
                memory_barriers: 0.0,
                iterations: work,
                compute_barriers: 0.0,
            },
            seconds,
            admitted: true,
        }
    }

    #[test]
    fn staged_and_global_layouts_of_one_problem_are_compared_together() {
        let calibration = Calibration::built_in_default().expect("the built-in calibration loads");
        let samples = [
            run("p", true, "T=8,N=64", 1e6, 2.0),
            run("p", false, "T=8,N=64", 1e8, 1.0),
            run("p", true, "T=8,N=4096", 1e9, 9.0),
        ];
        let rows = compare(&samples, &calibration);
        let groups: Vec<(&str, usize)> = rows.iter().map(|(k, n, _, _)| (k.as_str(), *n)).collect();
        assert_eq!(groups, [("p f64 T=8,N=64", 2), ("p f64 T=8,N=4096", 1)]);
        // The model predicts the staged run faster; the global one was: its choice is 100 % off.
        let (_, _, thesis, _) = &rows[0];
        assert!((thesis.choice_gap - 1.0).abs() < 1e-12, "{thesis:?}");
        assert!((thesis.rank_correlation + 1.0).abs() < 1e-12, "{thesis:?}");
        assert_eq!(thesis.search_gap, Some(thesis.choice_gap), "every run admitted: the same choice");
    }

    /// The search's gap takes the model's first choice among the runs the search could choose:
    /// here the model ranks a run the blockDim constraint excludes first (100 % off the best),
    /// and the best run among the others.
    #[test]
    fn the_search_gap_skips_layouts_the_search_excludes() {
        let calibration = Calibration::built_in_default().expect("the built-in calibration loads");
        let mut excluded = run("p", true, "T=8,N=64", 1e6, 2.0);
        excluded.admitted = false;
        let mut samples = [excluded, run("p", true, "T=8,N=64", 1e7, 1.0), run("p", true, "T=8,N=64", 1e8, 1.5)];
        for (i, s) in samples.iter_mut().enumerate() {
            s.label = format!("layout {i}");
        }
        let (_, _, thesis, _) = &compare(&samples, &calibration)[0];
        assert!((thesis.choice_gap - 1.0).abs() < 1e-12, "{thesis:?}");
        assert_eq!(thesis.search_gap, Some(0.0), "{thesis:?}");
        assert_eq!(thesis.search_choice.as_deref(), Some(samples[1].label.as_str()));
        let none: Vec<Sample> = samples.iter().cloned().map(|s| Sample { admitted: false, ..s }).collect();
        assert_eq!(compare(&none, &calibration)[0].2.search_gap, None);
    }

    /// A measurements file's launch gap is read when present and refused when it is not a
    /// number of seconds ≥ 0, with the file's name.
    #[test]
    fn the_launch_gap_of_a_measurements_file() {
        let folder = std::env::temp_dir().join(format!("stencil-calibrate-gap-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("a temporary folder");
        let load = |gap: &str| {
            let path = folder.join("m.json");
            let run = r#"{"label": "r", "example": "e.mlir", "pipeline": "p", "params": {}, "registers": 32, "seconds": 1e-3}"#;
            let text = format!(r#"{{"format": 1, "target": "gpu", "device": "X", {gap} "runs": [{run}]}}"#);
            std::fs::write(&path, text).expect("written");
            super::Measurements::load(&path, None)
        };
        assert_eq!(load("").expect("loads").launch_gap_s, None);
        assert_eq!(load(r#""launch_gap_s": null,"#).expect("loads").launch_gap_s, None);
        assert_eq!(load(r#""launch_gap_s": 2.5e-6,"#).expect("loads").launch_gap_s, Some(2.5e-6));
        let e = load(r#""launch_gap_s": -1,"#).expect_err("refused");
        assert!(e.contains("m.json") && e.contains("launch_gap_s"), "{e}");
        std::fs::remove_dir_all(&folder).ok();
    }

    /// A 1-D SOR run on the GPU, tiles `tile[0]`x`tile[1]` at `n` points and `t` sweeps.
    fn sor_1d_run(label: &str, tile: [i64; 2], n: i64, t: i64, pipeline_tail: &str) -> super::Run {
        super::Run {
            label: label.into(),
            example: std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sor-1d-3pt.mlir"),
            pipeline: format!(
                "builtin.module(poly-schedule,poly-tile{{sizes={}x{} staging=false}},{pipeline_tail})",
                tile[0], tile[1]
            ),
            params: vec![("T".into(), t), ("N".into(), n)],
            tile: Some(tile.to_vec()),
            block: Some([256, 1, 1]),
            registers: 31,
            seconds: 1.0,
        }
    }

    /// A run the tile model cannot count (more inter-tile wavefronts than one count holds and
    /// no repeated stretch that keeps fewer: the H200's calibration of 2026-11-27 had one, 2x256
    /// tiles at N = 2^21, T = 16, which a count by period along the points now counts) is left
    /// out and named; the other runs still give samples. A wrong run stays an error, and so
    /// does a file of uncountable runs only.
    #[test]
    fn runs_the_model_cannot_count_are_left_out_and_named() {
        let registries = crate::opt::Registries::all();
        let calibration = Calibration::built_in_default().expect("the built-in calibration loads");
        let tail = "gpu-map{block=256x1x1 staging=false}";
        let countable = sor_1d_run("small", [8, 256], 65536, 16, tail);
        // 2x256 at N = 2^21, T = 16: 1 056 783 wavefronts, past 2^20, counted by period.
        let long = sor_1d_run("long", [2, 256], 2_097_152, 16, tail);
        // The same at T = 2^21: the counts repeat along either iterator, but a count along one
        // still has the other's millions of wavefronts to write out.
        let uncountable = sor_1d_run("huge", [2, 256], 2_097_152, 2_097_152, tail);
        let file = |runs: Vec<super::Run>| super::Measurements {
            target: "gpu".into(),
            device: "X".into(),
            runs,
            launch_gap_s: None,
        };
        let got = super::samples(&file(vec![countable.clone(), long, uncountable.clone()]), &calibration, &registries)
            .expect("the countable runs give samples");
        assert_eq!(got.samples.iter().map(|s| s.label.as_str()).collect::<Vec<_>>(), ["small", "long"]);
        assert_eq!(got.uncountable.len(), 1);
        assert!(
            got.uncountable[0].starts_with("huge: ") && got.uncountable[0].contains("inter-tile wavefronts"),
            "{got:?}"
        );

        let e = super::samples(&file(vec![uncountable.clone()]), &calibration, &registries).expect_err("none counted");
        assert!(e.contains("counts none of the 1 runs") && e.contains("huge"), "{e}");

        let mut wrong = countable;
        wrong.label = "no block".into();
        wrong.block = None;
        wrong.pipeline = "builtin.module(poly-schedule,poly-tile{sizes=8x256})".into();
        let e = super::samples(&file(vec![uncountable, wrong]), &calibration, &registries).expect_err("a wrong run");
        assert!(e.starts_with("no block: "), "{e}");
    }

    /// A run gives its program's parameters, every one and no other: an unknown name used to be
    /// ignored and a missing one to take its default, and the run grouped under those sizes.
    #[test]
    fn a_run_gives_every_parameter_of_its_program() {
        let registries = crate::opt::Registries::all();
        let calibration = Calibration::built_in_default().expect("the built-in calibration loads");
        let tail = "gpu-map{block=256x1x1 staging=false}";
        let mut run = sor_1d_run("r", [8, 256], 4096, 16, tail);
        assert!(super::sample(&run, &calibration, &registries).is_ok());
        run.params = vec![("T".into(), 16), ("N".into(), 4096), ("Q".into(), 3)];
        let e = super::sample(&run, &calibration, &registries).expect_err("unknown").to_string();
        assert_eq!(e, "r: its params must be the program's parameters (T, N): unknown Q");
        run.params = vec![("T".into(), 16), ("Q".into(), 3)];
        let e = super::sample(&run, &calibration, &registries).expect_err("missing").to_string();
        assert_eq!(e, "r: its params must be the program's parameters (T, N): unknown Q; missing N");
    }

    /// A run's tile, block and time are checked when the file is read, with the file and the
    /// run in the message (a zero tile size used to reach the footprint's division and panic).
    #[test]
    fn malformed_runs_are_refused_with_the_file_and_the_run() {
        let folder = std::env::temp_dir().join(format!("stencil-calibrate-runs-{}", std::process::id()));
        std::fs::create_dir_all(&folder).expect("a temporary folder");
        let load = |extra: &str, seconds: &str| {
            let path = folder.join("m.json");
            let run = format!(
                r#"{{"label": "r", "example": "e.mlir", "pipeline": "p", "params": {{}}, "registers": 32, "seconds": {seconds}{extra}}}"#
            );
            std::fs::write(&path, format!(r#"{{"format": 1, "target": "gpu", "runs": [{run}]}}"#)).expect("written");
            super::Measurements::load(&path, None)
        };
        let m = load(r#", "tile": [8, 16], "block": [32, 4]"#, "1e-3").expect("loads");
        assert_eq!((m.runs[0].tile.clone(), m.runs[0].block), (Some(vec![8, 16]), Some([32, 4, 1])));
        for (extra, seconds, what) in [
            (r#", "tile": [8, 0, 16]"#, "1e-3", "'tile' must be a list of 1 to 16 integers >= 1"),
            (r#", "tile": [-8, 16]"#, "1e-3", "'tile'"),
            (r#", "tile": ["a"]"#, "1e-3", "'tile'"),
            (r#", "block": [32, 4, 1, 1]"#, "1e-3", "'block' must be a list of 1 to 3 integers >= 1"),
            ("", "0", "'seconds' must be a number of seconds > 0"),
            ("", "-1", "'seconds'"),
        ] {
            let e = load(extra, seconds).expect_err(what);
            assert!(e.contains("m.json: run 'r': ") && e.contains(what), "{extra} {seconds}: {e}");
        }
        let path = folder.join("empty.json");
        std::fs::write(&path, r#"{"format": 1, "target": "gpu", "runs": []}"#).expect("written");
        let e = super::Measurements::load(&path, None).expect_err("no runs");
        assert!(e.contains("empty.json: the 'runs' list is empty"), "{e}");
        std::fs::remove_dir_all(&folder).ok();
    }

    #[test]
    fn rank_correlation_of_monotone_and_reversed_lists() {
        assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 90.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 1.0, 2.0], &[1.0, 2.0, 3.0]) - 0.866_025_403_784_438_6).abs() < 1e-9);
    }
}
