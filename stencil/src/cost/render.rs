//! How `stencil-run --cost` shows the cost report: text tables (work per kernel, in total and
//! per point update; resources, occupancy and estimated time per kernel; the estimate) and
//! the `target_stats.sim.cost` JSON object.

use super::{CostSummary, RegisterSource};
use serde_json::{json, Value};
use stencil_runtime::cost::{CostReport, Estimate, KernelCost, Work};

/// `module::kernel` as MLIR writes a reference: `@module::@kernel`.
fn symbol(name: &str) -> String {
    format!("@{}", name.replace("::", "::@"))
}

/// A duration with a unit that keeps 3–4 significant digits.
fn duration(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.3} s")
    } else if seconds >= 1e-3 {
        format!("{:.3} ms", seconds * 1e3)
    } else {
        format!("{:.2} µs", seconds * 1e6)
    }
}

/// A number to about 3 significant digits (scientific below 0.001).
fn sig(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 {
        "0".to_string()
    } else if a < 1e-3 {
        format!("{x:.2e}")
    } else if a < 1.0 {
        format!("{x:.4}")
    } else if a < 100.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.0}")
    }
}

fn percent(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |u| format!("{:.1} %", 100.0 * u))
}

/// The work columns of one row: counts, or counts per point update.
fn work_cells(w: &Work, per: &dyn Fn(u64) -> String) -> Vec<String> {
    vec![
        per(w.launches),
        per(w.blocks),
        per(w.threads),
        per(w.warp_instructions),
        per(w.global_loads),
        per(w.global_stores),
        per(w.global_bytes_read),
        per(w.global_bytes_written),
        per(w.dram_bytes_read),
        per(w.dram_bytes_written),
        per(w.shared_accesses()),
        per(w.barriers),
    ]
}

/// What mostly bounds an estimate: launch overhead, DRAM or instruction issue.
fn bound(e: &Estimate) -> &'static str {
    if e.seconds <= 0.0 {
        "-"
    } else if e.overhead_s >= 0.5 * e.seconds {
        "launches"
    } else if e.dram_bound_s >= 0.5 * e.seconds {
        "DRAM"
    } else {
        "issue"
    }
}

/// Lays out `rows` (the first is the header) in columns: the first left-aligned, the rest
/// right-aligned.
fn table(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, s)| if c == 0 { format!("{s:<w$}", w = widths[c]) } else { format!("{s:>w$}", w = widths[c]) })
            .collect();
        out.push_str("  ");
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

fn resource_row(k: &KernelCost, device_warps: u32, device_sms: u32) -> Vec<String> {
    let o = &k.occupancy;
    let (registers, spills) = match &k.resources {
        Some(r) => (r.registers.to_string(), (r.spill_store_bytes + r.spill_load_bytes).to_string()),
        None => ("?".to_string(), "?".to_string()),
    };
    let block = k.block.iter().map(ToString::to_string).collect::<Vec<_>>().join("x");
    let (occupancy, per_sm) = if o.blocks_per_sm == 0 {
        ("does not fit".to_string(), "0".to_string())
    } else {
        (
            format!(
                "{:.1} %{}",
                100.0 * f64::from(o.warps_per_sm()) / f64::from(device_warps.max(1)),
                if o.registers_known() { "" } else { " (max)" }
            ),
            o.blocks_per_sm.to_string(),
        )
    };
    let (time, bound) = match &k.estimate {
        Some(e) => (duration(e.seconds), bound(e).to_string()),
        None => ("-".to_string(), "-".to_string()),
    };
    vec![
        symbol(&k.name),
        block,
        registers,
        spills,
        k.shared_bytes.to_string(),
        per_sm,
        occupancy,
        o.limiter.to_string(),
        k.busy_sms.map_or_else(|| "-".to_string(), |b| format!("{b:.0} of {device_sms}")),
        time,
        bound,
    ]
}

/// The text report of `--cost`, after the `sim` line.
pub(super) fn render_text(summary: &CostSummary) -> String {
    let r = &summary.report;
    let d = &r.device;
    let mut out = format!(
        "cost     on {}: {} SMs at {:.3} GHz, DRAM {:.0} GB/s, {:.0} µs per launch (model: docs/cost-model.md)\n",
        d.limits.name,
        d.limits.multiprocessors,
        d.clock_hz / 1e9,
        d.dram_bandwidth / 1e9,
        d.launch_overhead_s * 1e6
    );
    out.push_str(&match &summary.registers {
        RegisterSource::Ptxas { chip, index_bitwidth, ptx } => {
            format!("cost     registers from ptxas for {chip}, {index_bitwidth}-bit index, PTX {ptx}\n")
        }
        RegisterSource::Unknown { reason } => format!(
            "cost     registers unknown ({reason}): occupancy from threads, shared memory and blocks only, an upper bound\n"
        ),
    });
    let mut rows = vec![[
        "kernel",
        "launches",
        "blocks",
        "threads",
        "warp-instr",
        "lane util",
        "gl loads",
        "gl stores",
        "gl B read",
        "gl B written",
        "DRAM B read",
        "DRAM B written",
        "shared acc",
        "barriers",
    ]
    .map(String::from)
    .to_vec()];
    let count = |n: u64| n.to_string();
    let with_util = |name: String, w: &Work, per: &dyn Fn(u64) -> String, util: String| {
        let mut row = vec![name];
        let mut cells = work_cells(w, per);
        cells.insert(4, util);
        row.extend(cells);
        row
    };
    for k in &r.kernels {
        rows.push(with_util(symbol(&k.name), &k.work, &count, percent(k.work.lane_utilisation())));
    }
    rows.push(with_util("total".into(), &r.total, &count, percent(r.total.lane_utilisation())));
    if r.point_updates > 0 {
        let per_update = |n: u64| r.per_update(n as f64).map_or_else(|| "-".to_string(), sig);
        rows.push(with_util("per point update".into(), &r.total, &per_update, "-".into()));
    }
    out.push_str(&table(&rows));
    let mut rows = vec![[
        "kernel",
        "block",
        "regs",
        "spill B",
        "smem B",
        "blocks/SM",
        "occupancy",
        "limited by",
        "busy SMs",
        "est. time",
        "bound",
    ]
    .map(String::from)
    .to_vec()];
    rows.extend(r.kernels.iter().map(|k| resource_row(k, d.max_warps_per_sm(), d.limits.multiprocessors)));
    out.push_str(&table(&rows));
    out.push_str(&estimate_line(r));
    out
}

fn estimate_line(r: &CostReport) -> String {
    let Some(e) = r.estimate else {
        let which: Vec<String> =
            r.kernels.iter().filter(|k| k.occupancy.blocks_per_sm == 0).map(|k| symbol(&k.name)).collect();
        return format!("estimate none: a block of {} does not fit on an SM of the device\n", which.join(", "));
    };
    let rate = r.updates_per_second().map_or_else(|| "-".to_string(), |u| format!("{:.3}", u / 1e9));
    let mut out = format!(
        "estimate {} ({rate} GCells/s for {} point updates): launch overhead {}, DRAM {}, issue {}, barriers {}; each launch takes overhead + max(DRAM, issue + barriers)\n",
        duration(e.seconds),
        r.point_updates,
        duration(e.overhead_s),
        duration(e.dram_s),
        duration(e.issue_s),
        duration(e.barrier_s)
    );
    if let (Some(f), Some(rate)) = (r.filled, r.filled_updates_per_second()) {
        out.push_str(&format!(
            "estimate {:.3} GCells/s in the large-problem limit (the same work per update on a GPU full of blocks, no launch overhead): DRAM {}, issue {}, barriers {}\n",
            rate / 1e9,
            duration(f.dram_s),
            duration(f.issue_s),
            duration(f.barrier_s)
        ));
    }
    out
}

fn work_json(w: &Work) -> Value {
    json!({
        "launches": w.launches,
        "blocks": w.blocks,
        "threads": w.threads,
        "warps": w.warps,
        "barriers": w.barriers,
        "warp_instructions": w.warp_instructions,
        "thread_instructions": w.thread_instructions,
        "lane_utilisation": w.lane_utilisation(),
        "global_loads": w.global_loads,
        "global_stores": w.global_stores,
        "global_bytes_read": w.global_bytes_read,
        "global_bytes_written": w.global_bytes_written,
        "dram_bytes_read": w.dram_bytes_read,
        "dram_bytes_written": w.dram_bytes_written,
        "shared_loads": w.shared_loads,
        "shared_stores": w.shared_stores,
    })
}

fn estimate_json(e: Option<Estimate>) -> Value {
    e.map_or(Value::Null, |e| {
        json!({
            "seconds": e.seconds,
            "launch_overhead_s": e.overhead_s,
            "dram_s": e.dram_s,
            "issue_s": e.issue_s,
            "barrier_s": e.barrier_s,
            "dram_bound_s": e.dram_bound_s,
        })
    })
}

/// `target_stats.sim.cost`.
pub(super) fn to_json(summary: &CostSummary) -> Value {
    let r = &summary.report;
    let d = &r.device;
    let kernels: Vec<Value> = r
        .kernels
        .iter()
        .map(|k| {
            let o = &k.occupancy;
            json!({
                "name": k.name,
                "block": k.block,
                "work": work_json(&k.work),
                "registers": k.resources.as_ref().map(|r| r.registers),
                "spill_store_bytes": k.resources.as_ref().map(|r| r.spill_store_bytes),
                "spill_load_bytes": k.resources.as_ref().map(|r| r.spill_load_bytes),
                "shared_bytes": k.shared_bytes,
                "occupancy": {
                    "blocks_per_sm": o.blocks_per_sm,
                    "warps_per_sm": o.warps_per_sm(),
                    "fraction": o.fraction(d),
                    "limiter": o.limiter.to_string(),
                    "by_registers": o.by_registers,
                    "by_shared_memory": o.by_shared_memory,
                    "by_warps": o.by_warps,
                    "by_blocks": o.by_blocks,
                },
                "estimate": estimate_json(k.estimate),
                "filled": estimate_json(k.filled),
                "busy_sms": k.busy_sms,
            })
        })
        .collect();
    let t = &r.total;
    let per = |n: u64| r.per_update(n as f64);
    let registers = match &summary.registers {
        RegisterSource::Ptxas { chip, index_bitwidth, ptx } => {
            json!({ "known": true, "source": "ptxas", "chip": chip, "index_bitwidth": index_bitwidth, "ptx": ptx })
        }
        RegisterSource::Unknown { reason } => json!({ "known": false, "reason": reason }),
    };
    json!({
        "device": {
            "name": d.limits.name,
            "multiprocessors": d.limits.multiprocessors,
            "schedulers_per_sm": d.limits.schedulers_per_sm,
            "max_threads_per_sm": d.limits.max_threads_per_sm,
            "max_blocks_per_sm": d.limits.max_blocks_per_sm,
            "registers_per_sm": d.limits.registers_per_sm,
            "register_granularity": d.limits.register_granularity,
            "shared_bytes_per_sm": d.limits.shared_bytes_per_sm,
            "max_shared_bytes_per_block": d.limits.max_shared_bytes_per_block,
            "clock_hz": d.clock_hz,
            "ipc_per_scheduler": d.ipc_per_scheduler,
            "dram_bandwidth": d.dram_bandwidth,
            "issue_latency_warps": d.limits.issue_latency_warps,
            "bandwidth_warps_per_sm": d.limits.memory_latency_warps_per_sm,
            "barrier_cycles": d.barrier_cycles,
            "launch_overhead_s": d.launch_overhead_s,
        },
        "registers": registers,
        "point_updates": r.point_updates,
        "kernels": kernels,
        "total": work_json(t),
        "per_update": {
            "launches": per(t.launches),
            "blocks": per(t.blocks),
            "threads": per(t.threads),
            "warp_instructions": per(t.warp_instructions),
            "thread_instructions": per(t.thread_instructions),
            "global_loads": per(t.global_loads),
            "global_stores": per(t.global_stores),
            "global_bytes": per(t.global_bytes()),
            "global_bytes_read": per(t.global_bytes_read),
            "global_bytes_written": per(t.global_bytes_written),
            "dram_bytes": per(t.dram_bytes()),
            "dram_bytes_read": per(t.dram_bytes_read),
            "dram_bytes_written": per(t.dram_bytes_written),
            "shared_accesses": per(t.shared_accesses()),
            "barriers": per(t.barriers),
        },
        "estimate": estimate_json(r.estimate),
        "gcells_per_second": r.updates_per_second().map(|u| u / 1e9),
        "filled": estimate_json(r.filled),
        "filled_gcells_per_second": r.filled_updates_per_second().map(|u| u / 1e9),
    })
}
