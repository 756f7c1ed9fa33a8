//! What a run reports: throughput, a checksum and L2 norm per field (plus a hash of the exact
//! bits, to compare runs bit for bit), and the comparison with the reference when checked.

use std::collections::BTreeMap;
use stencil_runtime::cuda::GpuReport;
use stencil_runtime::{FieldComparison, FieldData, RunStats, ScalarValue};

/// What the GPU simulator did (`--target sim`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimSummary {
    /// Kernel launches.
    pub launches: u64,
    /// Blocks, over all launches.
    pub blocks: u64,
    /// Threads, over all launches.
    pub threads: u64,
    /// Block-wide barriers completed.
    pub barriers: u64,
    /// Kernel instructions executed.
    pub instructions: u64,
    /// Bytes loaded from global memory (no caches modelled).
    pub global_bytes_read: u64,
    /// Bytes stored to global memory.
    pub global_bytes_written: u64,
    /// Data races found (a race stops the run, so a finished run reports 0).
    pub races: u64,
}

/// What the GPU did (`--target gpu`).
#[derive(Clone, Debug, PartialEq)]
pub struct GpuSummary {
    /// Device, kernels, timings, copies.
    pub report: GpuReport,
    /// The chip the PTX was compiled for.
    pub chip: String,
    /// Bytes of one field element, for the effective-bandwidth model.
    pub element_bytes: u64,
}

impl GpuSummary {
    /// Effective bandwidth in bytes per second: every point update reads one element and
    /// writes one (the compulsory traffic of a one-input stencil whose neighbours come from
    /// caches). A model, not a measurement of DRAM traffic.
    pub fn effective_bandwidth(&self, point_updates: u64) -> f64 {
        let seconds = self.report.kernel_seconds;
        if seconds > 0.0 {
            (2 * self.element_bytes * point_updates) as f64 / seconds
        } else {
            0.0
        }
    }
}

/// Statistics of the target beyond time and point updates.
#[derive(Clone, Debug, PartialEq)]
pub enum TargetStats {
    /// `--target sim`.
    Sim(SimSummary),
    /// `--target gpu`.
    Gpu(Box<GpuSummary>),
}

/// Summary of one field's final values.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldSummary {
    /// Shape.
    pub shape: Vec<usize>,
    /// `f32` or `f64`.
    pub dtype: &'static str,
    /// Sum of all values.
    pub checksum: f64,
    /// Square root of the sum of squares.
    pub l2: f64,
    /// FNV-1a over the raw bits of every value (identical iff bit-identical, barring
    /// collisions).
    pub bits_hash: u64,
}

impl FieldSummary {
    /// Summarises `data`.
    pub fn of(data: &FieldData) -> FieldSummary {
        let (mut sum, mut sq, mut hash) = (0.0f64, 0.0f64, 0xcbf2_9ce4_8422_2325u64);
        for i in 0..data.len() {
            let v = data.values.get_f64(i).unwrap_or(f64::NAN);
            sum += v;
            sq += v * v;
            let bits = data.values.bits(i).unwrap_or(0);
            for b in bits.to_le_bytes() {
                hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        FieldSummary {
            shape: data.shape.clone(),
            dtype: data.element().name(),
            checksum: sum,
            l2: sq.sqrt(),
            bits_hash: hash,
        }
    }
}

/// Result of comparing every field with the reference run.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// Per-field comparison.
    pub fields: BTreeMap<String, FieldComparison>,
    /// Allowed absolute difference (0: bit-exact).
    pub tolerance: f64,
    /// Whether every field passed.
    pub passed: bool,
}

impl CheckReport {
    /// Builds the report and decides pass/fail.
    pub fn new(fields: BTreeMap<String, FieldComparison>, tolerance: f64) -> Self {
        let passed = fields.values().all(|c| if tolerance == 0.0 { c.bit_exact() } else { c.within(tolerance) });
        CheckReport { fields, tolerance, passed }
    }
}

/// Everything a run reports.
#[derive(Clone, Debug, PartialEq)]
pub struct RunReport {
    /// Program name.
    pub program: String,
    /// Input file.
    pub file: String,
    /// Target name.
    pub target: &'static str,
    /// Pipeline applied before running.
    pub pipeline: Option<String>,
    /// Parameter values used.
    pub params: Vec<(String, i64)>,
    /// Scalar values used.
    pub scalars: Vec<(String, ScalarValue)>,
    /// Timing and work.
    pub stats: RunStats,
    /// Per-field summaries.
    pub fields: Vec<(String, FieldSummary)>,
    /// Comparison with the reference, with `--check`.
    pub check: Option<CheckReport>,
    /// Simulator or GPU statistics (`None` on `ref`; of the last run with `--converge`).
    pub target_stats: Option<TargetStats>,
    /// The convergence run, with `--converge`.
    pub convergence: Option<super::converge::ConvergenceReport>,
}

impl RunReport {
    /// Human-readable report.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        let params: Vec<String> = self.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
        out.push_str(&format!("program  @{} ({})\n", self.program, self.file));
        out.push_str(&format!("target   {}\n", self.target));
        if let Some(p) = &self.pipeline {
            out.push_str(&format!("pipeline {p}\n"));
        }
        out.push_str(&format!("params   {}\n", params.join(" ")));
        if !self.scalars.is_empty() {
            let s: Vec<String> = self.scalars.iter().map(|(n, v)| format!("{n}={v}")).collect();
            out.push_str(&format!("scalars  {}\n", s.join(" ")));
        }
        out.push_str(&format!(
            "time     {:.6} s, {} point updates, {:.3} M updates/s\n",
            self.stats.seconds,
            self.stats.point_updates,
            self.stats.updates_per_second() / 1e6
        ));
        match &self.target_stats {
            Some(TargetStats::Sim(sim)) => out.push_str(&format!(
                "sim      {} launches, {} blocks, {} threads, {} barriers, {} instructions, global memory {} B read / {} B written, races {}\n",
                sim.launches,
                sim.blocks,
                sim.threads,
                sim.barriers,
                sim.instructions,
                sim.global_bytes_read,
                sim.global_bytes_written,
                sim.races
            )),
            Some(TargetStats::Gpu(gpu)) => {
                let r = &gpu.report;
                out.push_str(&format!("device   {} (PTX for {})\n", r.device, gpu.chip));
                out.push_str(&format!(
                    "gpu      {} launches, {} blocks, {} threads; kernels {:.6} s (CUDA events), host {:.6} s, upload {:.6} s, download {:.6} s{}\n",
                    r.launches(),
                    r.blocks(),
                    r.threads(),
                    r.kernel_seconds,
                    r.host_seconds,
                    r.upload_seconds,
                    r.download_seconds,
                    if r.warmup_runs > 0 { format!(" ({} warm-up runs before)", r.warmup_runs) } else { String::new() }
                ));
                let bandwidth = gpu.effective_bandwidth(self.stats.point_updates);
                let peak = r
                    .device
                    .peak_bandwidth()
                    .map(|p| format!(" ({:.0}% of the {:.0} GB/s peak)", 100.0 * bandwidth / p, p / 1e9))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "gpu      {:.3} GCells/s, effective bandwidth {:.1} GB/s{peak}\n",
                    self.stats.updates_per_second() / 1e9,
                    bandwidth / 1e9
                ));
                for k in &r.kernels {
                    out.push_str(&format!(
                        "kernel   @{}: {} registers, {} B static shared, {} B local, at most {} threads/block, {} launches\n",
                        k.name.replace("::", "::@"),
                        k.registers,
                        k.static_shared_bytes,
                        k.local_bytes,
                        k.max_threads_per_block,
                        k.launches
                    ));
                }
            }
            None => {}
        }
        if let Some(c) = &self.convergence {
            out.push_str(&format!(
                "converge {} of {} < {:e}: {} after {} steps = {} sweeps ({} per step), final {:e} (initial {:e}), {:.6} s running + {:.6} s norms\n",
                c.norm.name(),
                c.field,
                c.tolerance,
                if c.converged { "converged" } else { "NOT converged" },
                c.steps,
                c.sweeps(),
                c.sweeps_per_step,
                c.last,
                c.initial,
                c.run_seconds,
                c.norm_seconds
            ));
        }
        for (name, f) in &self.fields {
            let shape: Vec<String> = f.shape.iter().map(ToString::to_string).collect();
            out.push_str(&format!(
                "field    {name} [{}] {}: checksum {:.17e}, l2 {:.17e}, bits {:016x}\n",
                shape.join("x"),
                f.dtype,
                f.checksum,
                f.l2,
                f.bits_hash
            ));
        }
        if let Some(c) = &self.check {
            let mode =
                if c.tolerance == 0.0 { "bit-exact".to_string() } else { format!("tolerance {:e}", c.tolerance) };
            out.push_str(&format!(
                "check    against the untransformed program on ref ({mode}): {}\n",
                if c.passed { "passed" } else { "FAILED" }
            ));
            for (name, cmp) in &c.fields {
                let detail = if !cmp.same_layout {
                    "shape or element type differs".to_string()
                } else if cmp.differing == 0 {
                    "identical".to_string()
                } else {
                    let first = cmp
                        .first_difference
                        .as_ref()
                        .map(|(idx, a, b)| format!(", first at {idx:?}: expected {a:e}, got {b:e}"))
                        .unwrap_or_default();
                    format!("{} values differ, max abs error {:e}{first}", cmp.differing, cmp.max_abs_diff)
                };
                out.push_str(&format!("         {name}: {detail}\n"));
            }
        }
        out
    }

    /// One JSON object with everything.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::{json, Map, Value};
        let number =
            |v: f64| serde_json::Number::from_f64(v).map(Value::Number).unwrap_or(Value::String(v.to_string()));
        let params: Map<String, Value> = self.params.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
        let scalars: Map<String, Value> = self
            .scalars
            .iter()
            .map(|(n, v)| {
                let v = match v {
                    ScalarValue::Float(f) => number(*f),
                    ScalarValue::Int(i) => json!(i),
                };
                (n.clone(), v)
            })
            .collect();
        let fields: Map<String, Value> = self
            .fields
            .iter()
            .map(|(n, f)| {
                (
                    n.clone(),
                    json!({
                        "shape": f.shape,
                        "dtype": f.dtype,
                        "checksum": number(f.checksum),
                        "l2": number(f.l2),
                        "bits_hash": format!("{:016x}", f.bits_hash),
                    }),
                )
            })
            .collect();
        let check = self.check.as_ref().map(|c| {
            let per_field: Map<String, Value> = c
                .fields
                .iter()
                .map(|(n, cmp)| {
                    (
                        n.clone(),
                        json!({
                            "bit_exact": cmp.bit_exact(),
                            "differing": cmp.differing,
                            "max_abs_error": number(cmp.max_abs_diff),
                        }),
                    )
                })
                .collect();
            json!({ "reference": "ref", "tolerance": number(c.tolerance), "passed": c.passed, "fields": per_field })
        });
        let target_stats = match &self.target_stats {
            None => Value::Null,
            Some(TargetStats::Sim(sim)) => json!({
                "sim": {
                    "launches": sim.launches,
                    "blocks": sim.blocks,
                    "threads": sim.threads,
                    "barriers": sim.barriers,
                    "instructions": sim.instructions,
                    "global_bytes_read": sim.global_bytes_read,
                    "global_bytes_written": sim.global_bytes_written,
                    "races": sim.races,
                }
            }),
            Some(TargetStats::Gpu(gpu)) => {
                let r = &gpu.report;
                let d = &r.device;
                let kernels: Vec<Value> = r
                    .kernels
                    .iter()
                    .map(|k| {
                        json!({
                            "name": k.name,
                            "registers": k.registers,
                            "static_shared_bytes": k.static_shared_bytes,
                            "local_bytes": k.local_bytes,
                            "max_threads_per_block": k.max_threads_per_block,
                            "launches": k.launches,
                            "blocks": k.blocks,
                            "threads": k.threads,
                        })
                    })
                    .collect();
                json!({
                    "gpu": {
                        "device": {
                            "name": d.name,
                            "chip": d.chip(),
                            "multiprocessors": d.multiprocessors,
                            "shared_memory_per_block": d.shared_memory_per_block,
                            "shared_memory_per_block_optin": d.shared_memory_per_block_optin,
                            "shared_memory_per_multiprocessor": d.shared_memory_per_multiprocessor,
                            "registers_per_multiprocessor": d.registers_per_multiprocessor,
                            "l2_cache_bytes": d.l2_cache_bytes,
                            "total_memory": d.total_memory,
                            "peak_bandwidth": d.peak_bandwidth().map(number),
                            "driver_version": d.driver_version_text(),
                        },
                        "ptx_chip": gpu.chip,
                        "launches": r.launches(),
                        "blocks": r.blocks(),
                        "threads": r.threads(),
                        "kernel_seconds": number(r.kernel_seconds),
                        "host_seconds": number(r.host_seconds),
                        "upload_seconds": number(r.upload_seconds),
                        "download_seconds": number(r.download_seconds),
                        "bytes_uploaded": r.bytes_uploaded,
                        "bytes_downloaded": r.bytes_downloaded,
                        "warmup_runs": r.warmup_runs,
                        "gcells_per_second": number(self.stats.updates_per_second() / 1e9),
                        "effective_bandwidth": number(gpu.effective_bandwidth(self.stats.point_updates)),
                        "kernels": kernels,
                    }
                })
            }
        };
        let convergence = self.convergence.as_ref().map(|c| {
            let history: Vec<Value> = c
                .history
                .iter()
                .map(|&(sweeps, norm, seconds)| json!([sweeps, number(norm), number(seconds)]))
                .collect();
            json!({
                "norm": c.norm.name(),
                "tolerance": number(c.tolerance),
                "field": c.field,
                "converged": c.converged,
                "steps": c.steps,
                "sweeps": c.sweeps(),
                "sweeps_per_step": c.sweeps_per_step,
                "initial": number(c.initial),
                "final": number(c.last),
                "run_seconds": number(c.run_seconds),
                "norm_seconds": number(c.norm_seconds),
                "history": history,
            })
        });
        let mut out = json!({
            "target_stats": target_stats,
            "program": self.program,
            "file": self.file,
            "target": self.target,
            "pipeline": self.pipeline,
            "params": params,
            "scalars": scalars,
            "seconds": number(self.stats.seconds),
            "point_updates": self.stats.point_updates,
            "updates_per_second": number(self.stats.updates_per_second()),
            "fields": fields,
            "check": check,
        });
        // Only convergence runs have the key (reports of other runs keep their shape).
        if let (Some(c), Some(map)) = (convergence, out.as_object_mut()) {
            map.insert("convergence".to_string(), c);
        }
        out
    }
}
