//! What a run reports: throughput, a checksum and L2 norm per field (plus a hash of the exact
//! bits, to compare runs bit for bit), and the comparison with the reference when checked.

use super::cost::CostSummary;
use serde_json::Value;
use std::collections::BTreeMap;
use stencil_ir::Attribute;
use stencil_runtime::cuda::GpuReport;
use stencil_runtime::{FieldComparison, FieldData, FieldValues, RunStats, ScalarValue};

/// What the GPU simulator did (`--target sim`).
#[derive(Clone, Debug, PartialEq)]
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
    /// The cost report (`--cost`).
    pub cost: Option<Box<CostSummary>>,
    /// `--profile`: warp-instructions per kernel and op location, the most first.
    pub profile: Vec<stencil_runtime::gpu_sim::ProfileLine>,
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
    /// The width of `index` in the kernels (32 or 64).
    pub index_bitwidth: u32,
    /// The code-generator flags the kernels were compiled with by this process; `None` where
    /// the PTX came from a `--ptx` file (whose flags its compiler chose).
    pub codegen: Option<stencil_lowering::ptx::llvm_options::CodegenFlags>,
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
    /// FNV-1a over the raw bits of every value, one 64-bit word per value (an `f32`'s bits
    /// zero-extended): identical iff bit-identical, barring collisions.
    pub bits_hash: u64,
}

/// One FNV-1a step over a whole 64-bit word: one multiply per value, so summarising fields of
/// billions of values takes a fraction of a second per field.
fn fnv_word(hash: u64, word: u64) -> u64 {
    (hash ^ word).wrapping_mul(0x0000_0100_0000_01b3)
}

impl FieldSummary {
    /// Summarises `data`.
    pub fn of(data: &FieldData) -> FieldSummary {
        let (mut sum, mut sq, mut hash) = (0.0f64, 0.0f64, 0xcbf2_9ce4_8422_2325u64);
        let mut add = |v: f64, bits: u64| {
            sum += v;
            sq += v * v;
            hash = fnv_word(hash, bits);
        };
        match &data.values {
            FieldValues::F32(values) => values.iter().for_each(|&v| add(f64::from(v), u64::from(v.to_bits()))),
            FieldValues::F64(values) => values.iter().for_each(|&v| add(v, v.to_bits())),
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
    /// `--check-after`: the pipeline the reference program went through (`None`: untransformed).
    pub reference_pipeline: Option<String>,
}

impl CheckReport {
    /// Builds the report and decides pass/fail.
    pub fn new(fields: BTreeMap<String, FieldComparison>, tolerance: f64) -> Self {
        let passed = fields.values().all(|c| if tolerance == 0.0 { c.bit_exact() } else { c.within(tolerance) });
        CheckReport { fields, tolerance, passed, reference_pipeline: None }
    }
}

/// Everything a run reports.
#[derive(Clone, Debug, PartialEq)]
pub struct RunReport {
    /// Program name.
    pub program: String,
    /// For an affine input: the function the program was raised from (`--check` compares
    /// with that function, un-raised).
    pub raised_from: Option<String>,
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
    /// With `--ptx FILE`: the file and the `gpu.module`s whose fingerprints it matched.
    pub precompiled: Option<PrecompiledSummary>,
    /// How `gpu-map` mapped the program (`stencil_lowering::gpu_map::MAPPING_ATTR`): its
    /// entries in order, `strategy` first.
    pub mapping: Vec<(String, Attribute)>,
    /// The convergence run, with `--converge`.
    pub convergence: Option<super::converge::ConvergenceReport>,
    /// The warnings and remarks the pipeline's passes reported, rendered
    /// (`file:line:col: warning: …` with the source line), in order. `stencil-run` prints them
    /// to standard error; the JSON report has them as `warnings`.
    pub warnings: Vec<String>,
}

/// `32`, `true`, `overlapped`, `32x64` (an integer array) — for the report's mapping line; a
/// string with spaces (a reason) in quotes, so that the line still reads as `key=value` pairs.
fn attribute_text(value: &Attribute) -> String {
    match value {
        Attribute::String(s) if s.contains(char::is_whitespace) => format!("{s:?}"),
        Attribute::String(s) => s.to_string(),
        Attribute::Bool(b) => b.to_string(),
        Attribute::Array(items) => items.iter().map(attribute_text).collect::<Vec<_>>().join("x"),
        Attribute::Float { value, .. } => format!("{value:.4e}"),
        other => other.as_i64().map_or_else(|| other.to_string(), |i| i.to_string()),
    }
}

/// The JSON of a mapping entry: numbers, booleans, strings and arrays of them.
fn attribute_json(value: &Attribute) -> Value {
    match value {
        Attribute::String(s) => Value::from(s.to_string()),
        Attribute::Bool(b) => Value::from(*b),
        Attribute::Array(items) => Value::Array(items.iter().map(attribute_json).collect()),
        Attribute::Float { value, .. } => Value::from(*value),
        other => other.as_i64().map_or_else(|| Value::from(other.to_string()), Value::from),
    }
}

/// Which precompiled PTX a run used (`--ptx`), once matched against the mapped module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrecompiledSummary {
    /// The file.
    pub file: String,
    /// `(gpu.module name, chip, index bit width, fingerprint)` of every module it matched.
    pub modules: Vec<(String, String, u32, String)>,
}

impl RunReport {
    /// Human-readable report.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        let params: Vec<String> = self.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
        match &self.raised_from {
            Some(f) => out.push_str(&format!("program  @{} raised from @{f} ({})\n", self.program, self.file)),
            None => out.push_str(&format!("program  @{} ({})\n", self.program, self.file)),
        }
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
        if !self.mapping.is_empty() {
            let entries: Vec<String> =
                self.mapping.iter().skip(1).map(|(name, value)| format!("{name}={}", attribute_text(value))).collect();
            let strategy = self.mapping.first().map_or_else(String::new, |(_, v)| attribute_text(v));
            out.push_str(&format!("mapping  {strategy}: {}\n", entries.join(" ")));
        }
        if let Some(ptx) = &self.precompiled {
            let modules: Vec<String> = ptx
                .modules
                .iter()
                .map(|(name, chip, width, fingerprint)| format!("@{name} ({chip}, index {width} bit, {fingerprint})"))
                .collect();
            out.push_str(&format!("ptx      {} matches {}\n", ptx.file, modules.join(", ")));
        }
        match &self.target_stats {
            Some(TargetStats::Sim(sim)) => {
                out.push_str(&format!(
                    "sim      {} launches, {} blocks, {} threads, {} barriers, {} instructions, global memory {} B read / {} B written, races {}\n",
                    sim.launches,
                    sim.blocks,
                    sim.threads,
                    sim.barriers,
                    sim.instructions,
                    sim.global_bytes_read,
                    sim.global_bytes_written,
                    sim.races
                ));
                if let Some(cost) = &sim.cost {
                    out.push_str(&cost.render_text());
                }
                out.push_str(&render_profile(&sim.profile));
            }
            Some(TargetStats::Gpu(gpu)) => {
                let r = &gpu.report;
                let source = match gpu.codegen {
                    Some(flags) => format!("compiled by MLIR{}", flags.describe()),
                    None => "from the --ptx file".to_string(),
                };
                out.push_str(&format!(
                    "device   {} (PTX for {}, {}-bit index, {source})\n",
                    r.device, gpu.chip, gpu.index_bitwidth
                ));
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
            // A change norm has no value before the first step: no "initial" then.
            let initial = if c.initial.is_nan() { String::new() } else { format!(" (initial {:e})", c.initial) };
            out.push_str(&format!(
                "converge {} of {} < {:e}: {} after {} steps = {} sweeps ({} per step), final {:e}{initial}, {:.6} s running + {:.6} s norms\n",
                c.norm.name(),
                c.field,
                c.tolerance,
                if c.converged { "converged" } else { "NOT converged" },
                c.steps,
                c.sweeps(),
                c.sweeps_per_step,
                c.last,
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
            let against = match &c.reference_pipeline {
                Some(p) => format!("the program after {p}"),
                None => "the untransformed program".to_string(),
            };
            out.push_str(&format!(
                "check    against {against} on ref ({mode}): {}\n",
                if c.passed { "passed" } else { "FAILED" }
            ));
            for (name, cmp) in &c.fields {
                let detail = if !cmp.same_layout {
                    "shape or element type differs".to_string()
                } else if cmp.differing == 0 && cmp.nan_bits_differing == 0 {
                    "identical".to_string()
                } else if cmp.differing == 0 {
                    format!(
                        "identical ({} NaNs with other sign or payload bits, which IEEE 754 leaves open)",
                        cmp.nan_bits_differing
                    )
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
        use serde_json::{json, Map};
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
                            "nan_bits_differing": cmp.nan_bits_differing,
                            "max_abs_error": number(cmp.max_abs_diff),
                        }),
                    )
                })
                .collect();
            json!({ "reference": "ref", "reference_pipeline": c.reference_pipeline, "tolerance": number(c.tolerance), "passed": c.passed, "fields": per_field })
        });
        let target_stats = match &self.target_stats {
            None => Value::Null,
            Some(TargetStats::Sim(sim)) => {
                let mut stats = json!({
                    "launches": sim.launches,
                    "blocks": sim.blocks,
                    "threads": sim.threads,
                    "barriers": sim.barriers,
                    "instructions": sim.instructions,
                    "global_bytes_read": sim.global_bytes_read,
                    "global_bytes_written": sim.global_bytes_written,
                    "races": sim.races,
                });
                // Only with --cost: a run without it reports what it always did.
                if let (Some(cost), Some(map)) = (&sim.cost, stats.as_object_mut()) {
                    map.insert("cost".to_string(), cost.to_json());
                }
                if let (false, Some(map)) = (sim.profile.is_empty(), stats.as_object_mut()) {
                    let lines: Vec<Value> = sim
                        .profile
                        .iter()
                        .map(|l| {
                            json!({
                                "kernel": l.kernel,
                                "location": location_text(&l.location),
                                "warp_instructions": l.warp_instructions,
                                "thread_instructions": l.thread_instructions,
                            })
                        })
                        .collect();
                    map.insert("profile".to_string(), Value::Array(lines));
                }
                json!({ "sim": stats })
            }
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
                            "dynamic_shared_bytes": k.dynamic_shared_bytes,
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
                        "index_bitwidth": gpu.index_bitwidth,
                        "ptx_codegen": gpu.codegen.map(|f| json!({
                            "short_pointers": f.short_pointers,
                            "loop_strength_reduction": f.loop_strength_reduction,
                            "reciprocal_division": f.reciprocal_division,
                            "flat_addresses": f.flat_addresses,
                        })),
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
            "raised_from": self.raised_from,
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
            "mapping": if self.mapping.is_empty() {
                Value::Null
            } else {
                Value::Object(self.mapping.iter().map(|(name, value)| (name.clone(), attribute_json(value))).collect())
            },
            "ptx": self.precompiled.as_ref().map(|p| json!({
                "file": p.file,
                "modules": p.modules.iter().map(|(name, chip, width, fingerprint)| json!({
                    "name": name, "chip": chip, "index_bitwidth": width, "fingerprint": fingerprint,
                })).collect::<Vec<_>>(),
            })),
        });
        // Only convergence runs have the key (reports of other runs keep their shape), and only
        // runs whose passes warned have `warnings`.
        if let (Some(c), Some(map)) = (convergence, out.as_object_mut()) {
            map.insert("convergence".to_string(), c);
        }
        if let (false, Some(map)) = (self.warnings.is_empty(), out.as_object_mut()) {
            map.insert("warnings".to_string(), json!(self.warnings));
        }
        out
    }
}

/// Most lines `--profile` prints (the JSON report has them all).
const PROFILE_LINES: usize = 25;

/// The `--profile` lines of the text report: per kernel op location, its warp-instructions,
/// their share of all, and the busy lanes of its warp-instructions (empty without `--profile`).
fn render_profile(profile: &[stencil_runtime::gpu_sim::ProfileLine]) -> String {
    let total: u64 = profile.iter().map(|l| l.warp_instructions).sum();
    if total == 0 {
        return String::new();
    }
    let mut out = format!(
        "profile  warp-instructions per kernel op and their busy lanes (the {} most of {} locations; --json lists all)\n",
        PROFILE_LINES.min(profile.len()),
        profile.len()
    );
    for l in profile.iter().take(PROFILE_LINES) {
        let lanes = l.lane_utilisation().unwrap_or(0.0);
        out.push_str(&format!(
            "  {:>14} {:>6.2} %  {:>5.1} % lanes  @{}  {}\n",
            l.warp_instructions,
            100.0 * l.warp_instructions as f64 / total as f64,
            100.0 * lanes,
            l.kernel.replace("::", "::@"),
            location_text(&l.location)
        ));
    }
    out
}

/// `file:line:col` as diagnostics write it, or MLIR's `loc(…)` for other locations.
fn location_text(location: &stencil_ir::Location) -> String {
    match location.file_position() {
        Some((file, line, col)) => format!("{file}:{line}:{col}"),
        None => location.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{GpuSummary, RunReport, TargetStats};
    use stencil_lowering::ptx::llvm_options::CodegenFlags;
    use stencil_runtime::cuda::{DeviceProperties, GpuReport};

    /// A `--target gpu` report of nothing, by an H200-like device, with `codegen` as the PTX's
    /// origin (the GPU run itself needs a GPU; its lit test runs where one is).
    fn gpu_report(codegen: Option<CodegenFlags>) -> RunReport {
        let device = DeviceProperties {
            ordinal: 0,
            name: "NVIDIA H200".to_string(),
            compute_capability: (9, 0),
            multiprocessors: 132,
            max_threads_per_block: 1024,
            max_block_dims: [1024, 1024, 64],
            max_grid_dims: [2147483647, 65535, 65535],
            shared_memory_per_block: 49152,
            shared_memory_per_block_optin: 232448,
            shared_memory_per_multiprocessor: 233472,
            registers_per_block: 65536,
            registers_per_multiprocessor: 65536,
            l2_cache_bytes: 62914560,
            total_memory: 150_000_000_000,
            memory_clock_khz: 2_619_000,
            memory_bus_width_bits: 6144,
            driver_version: 13000,
        };
        let report = GpuReport {
            device,
            kernels: vec![],
            kernel_seconds: 0.5,
            host_seconds: 0.6,
            upload_seconds: 0.1,
            download_seconds: 0.1,
            bytes_uploaded: 0,
            bytes_downloaded: 0,
            warmup_runs: 0,
        };
        RunReport {
            program: "p".to_string(),
            raised_from: None,
            file: "p.mlir".to_string(),
            target: "gpu",
            pipeline: None,
            params: vec![],
            scalars: vec![],
            stats: Default::default(),
            fields: vec![],
            check: None,
            target_stats: Some(TargetStats::Gpu(Box::new(GpuSummary {
                report,
                chip: "sm_90".to_string(),
                element_bytes: 8,
                index_bitwidth: 32,
                codegen,
            }))),
            precompiled: None,
            mapping: vec![],
            convergence: None,
            warnings: vec![],
        }
    }

    #[test]
    fn the_gpu_report_says_how_the_ptx_was_made() {
        let default = gpu_report(Some(CodegenFlags::RECOMMENDED));
        assert!(
            default.render_text().contains("(PTX for sm_90, 32-bit index, compiled by MLIR)\n"),
            "{}",
            default.render_text()
        );
        let json = default.to_json();
        let codegen = &json["target_stats"]["gpu"]["ptx_codegen"];
        assert_eq!(codegen["short_pointers"], true);
        assert_eq!(codegen["loop_strength_reduction"], false);
        assert_eq!(codegen["reciprocal_division"], true);
        assert_eq!(codegen["flat_addresses"], true);

        let llvm = gpu_report(Some(CodegenFlags::LLVM_DEFAULTS)).render_text();
        assert!(
            llvm.contains(
                "compiled by MLIR, 64-bit shared pointers, LLVM loop strength reduction on, divisions by constants as \
                 div.rn, accesses indexed per dimension)"
            ),
            "{llvm}"
        );
        let file = gpu_report(None);
        assert!(file.render_text().contains("(PTX for sm_90, 32-bit index, from the --ptx file)"));
        assert!(file.to_json()["target_stats"]["gpu"]["ptx_codegen"].is_null());
    }
}
