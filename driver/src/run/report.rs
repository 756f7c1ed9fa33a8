//! What a run reports: throughput, a checksum and L2 norm per field (plus a hash of the exact
//! bits, to compare runs bit for bit), and the comparison with the reference when checked.

use std::collections::BTreeMap;
use stencil_runtime::{FieldComparison, FieldData, RunStats, ScalarValue};

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
        json!({
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
        })
    }
}
