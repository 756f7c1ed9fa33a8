//! The bound model: an estimated time for each launch from what the simulator counted and the
//! kernel's occupancy (docs/cost-model.md, "Bound model"). A launch takes the launch overhead
//! plus the larger of its DRAM time and its issue time (with barrier stalls); both are slowed
//! when too few warps are resident to hide latency, and a launch whose busy blocks are fewer
//! than the GPU holds uses only part of it. The large-problem limit applies the same model to
//! a GPU filled with blocks, without launch overhead.

use super::device::DeviceModel;
use super::occupancy::Occupancy;
use super::report::Work;
use crate::gpu_sim::LaunchStats;
use std::ops::AddAssign;

/// The estimated time of one launch or a sum of launches, by term, in seconds.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    /// Estimated DRAM bytes (distinct sectors) over the DRAM bandwidth the launch can draw.
    pub dram_s: f64,
    /// Warp-instructions over the issue rate the launch can reach.
    pub issue_s: f64,
    /// Barrier stalls on the critical path.
    pub barrier_s: f64,
    /// Launch overhead.
    pub overhead_s: f64,
    /// The estimate: overhead + max(DRAM, issue + barriers), summed over launches.
    pub seconds: f64,
    /// The part of `seconds` spent in launches whose DRAM time exceeded their issue time.
    pub dram_bound_s: f64,
}

impl AddAssign for Estimate {
    fn add_assign(&mut self, o: Estimate) {
        self.dram_s += o.dram_s;
        self.issue_s += o.issue_s;
        self.barrier_s += o.barrier_s;
        self.overhead_s += o.overhead_s;
        self.seconds += o.seconds;
        self.dram_bound_s += o.dram_bound_s;
    }
}

/// How much of the GPU a launch keeps busy.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Parallelism {
    /// Blocks' worth of work: warp-instructions over those of the busiest block (between 1 and
    /// the number of blocks; blocks of a tiled launch that find no tile barely count).
    pub busy_blocks: f64,
    /// SMs with work.
    pub sms: f64,
    /// Resident warps on each of them.
    pub warps_per_sm: f64,
    /// Resident blocks on each of them.
    pub blocks_per_sm: f64,
}

/// How launch `l`, whose blocks fit `occupancy.blocks_per_sm` to an SM, spreads over the GPU.
pub fn parallelism(device: &DeviceModel, l: &LaunchStats, occupancy: &Occupancy) -> Parallelism {
    let blocks = l.blocks() as f64;
    let busy_blocks = if l.busiest_block_warp_instructions > 0 {
        (l.warp_instructions as f64 / l.busiest_block_warp_instructions as f64).clamp(1.0, blocks.max(1.0))
    } else {
        blocks.max(1.0)
    };
    let sms = f64::from(device.limits.multiprocessors);
    let blocks_per_sm = (busy_blocks / sms).ceil().min(f64::from(occupancy.blocks_per_sm.max(1)));
    Parallelism {
        busy_blocks,
        sms: busy_blocks.ceil().min(sms),
        warps_per_sm: blocks_per_sm * f64::from(occupancy.warps_per_block),
        blocks_per_sm,
    }
}

/// Work spread over some SMs: what the bound model turns into time.
struct Spread {
    warp_instructions: f64,
    bytes: f64,
    /// Barriers one after another on the critical path (each stalls its block).
    barrier_rounds: f64,
    /// SMs with work.
    sms: f64,
    /// Resident warps on each of them.
    warps_per_sm: f64,
}

/// DRAM time, issue time and barrier stalls of `w` (before launch overhead).
fn terms(device: &DeviceModel, w: &Spread) -> (f64, f64, f64) {
    let schedulers = f64::from(device.limits.schedulers_per_sm);
    // Little's law on issue: a scheduler issues every cycle only with enough ready warps.
    let issue_efficiency = (w.warps_per_sm / (schedulers * device.limits.issue_latency_warps)).min(1.0);
    let issue_rate = w.sms * schedulers * device.clock_hz * device.ipc_per_scheduler * issue_efficiency;
    let issue_s = if w.warp_instructions > 0.0 { w.warp_instructions / issue_rate } else { 0.0 };
    // Little's law on memory: the bytes in flight grow with the resident warps of the GPU.
    let resident_warps = w.sms * w.warps_per_sm;
    let memory_efficiency = (resident_warps
        / (f64::from(device.limits.multiprocessors) * device.limits.memory_latency_warps_per_sm))
        .min(1.0);
    let dram_s = if w.bytes > 0.0 { w.bytes / (device.dram_bandwidth * memory_efficiency) } else { 0.0 };
    let barrier_s = w.barrier_rounds * device.barrier_cycles / device.clock_hz;
    (dram_s, issue_s, barrier_s)
}

fn combine(dram_s: f64, issue_s: f64, barrier_s: f64, overhead_s: f64) -> Estimate {
    let compute_s = issue_s + barrier_s;
    let seconds = overhead_s + dram_s.max(compute_s);
    let dram_bound_s = if dram_s > compute_s { seconds } else { 0.0 };
    Estimate { dram_s, issue_s, barrier_s, overhead_s, seconds, dram_bound_s }
}

/// The estimated time of launch `l` (`None` when a block does not fit on an SM: the launch
/// would fail on the device).
pub fn estimate_launch(device: &DeviceModel, l: &LaunchStats, occupancy: &Occupancy) -> Option<Estimate> {
    if occupancy.blocks_per_sm == 0 {
        return None;
    }
    let p = parallelism(device, l, occupancy);
    // The SM running the busiest block waits through all of its barriers; with many blocks
    // an SM runs the barriers of several in turn, `blocks_per_sm` of them overlapping.
    let capacity = f64::from(device.limits.multiprocessors) * f64::from(occupancy.blocks_per_sm);
    let barrier_rounds = (l.busiest_block_barriers as f64).max(l.barriers as f64 / capacity);
    let spread = Spread {
        warp_instructions: l.warp_instructions as f64,
        bytes: (l.dram_bytes_read + l.dram_bytes_written) as f64,
        barrier_rounds,
        sms: p.sms,
        warps_per_sm: p.warps_per_sm,
    };
    let (dram_s, issue_s, barrier_s) = terms(device, &spread);
    Some(combine(dram_s, issue_s, barrier_s, device.launch_overhead_s))
}

/// The large-problem limit of `work` done by a kernel with `occupancy`: the same bound model
/// with every SM holding as many blocks as fit and no launch overhead — what the per-update
/// costs give once launches are big enough to fill the GPU (`None` when a block does not
/// fit on an SM).
pub fn estimate_filled(device: &DeviceModel, work: &Work, occupancy: &Occupancy) -> Option<Estimate> {
    if occupancy.blocks_per_sm == 0 {
        return None;
    }
    let sms = f64::from(device.limits.multiprocessors);
    let spread = Spread {
        warp_instructions: work.warp_instructions as f64,
        bytes: work.dram_bytes() as f64,
        barrier_rounds: work.barriers as f64 / (sms * f64::from(occupancy.blocks_per_sm)),
        sms,
        warps_per_sm: f64::from(occupancy.warps_per_sm()),
    };
    let (dram_s, issue_s, barrier_s) = terms(device, &spread);
    Some(combine(dram_s, issue_s, barrier_s, 0.0))
}

#[cfg(test)]
mod tests {
    use super::{estimate_filled, estimate_launch, parallelism};
    use crate::cost::Work;
    use crate::cost::{occupancy, DeviceModel};
    use crate::gpu_sim::LaunchStats;

    fn launch(blocks: u32, warp_instructions: u64, busiest: u64, bytes: u64) -> LaunchStats {
        LaunchStats {
            kernel: "m::k".into(),
            grid: [blocks, 1, 1],
            block: [256, 1, 1],
            warp_instructions,
            busiest_block_warp_instructions: busiest,
            dram_bytes_read: bytes,
            ..LaunchStats::default()
        }
    }

    #[test]
    fn a_full_gpu_issues_at_its_peak_rate() {
        let d = DeviceModel::h100();
        // 32 registers: 8 blocks of 8 warps per SM, 16 warps per scheduler.
        let o = occupancy(&d, 256, Some(32), 0);
        let blocks = 132 * 8;
        let l = launch(blocks, u64::from(blocks) * 1000, 1000, 0);
        let e = estimate_launch(&d, &l, &o).unwrap();
        let expected = l.warp_instructions as f64 / d.peak_issue_rate();
        assert!((e.issue_s - expected).abs() < 1e-15, "{} vs {expected}", e.issue_s);
        assert!((e.seconds - expected - d.launch_overhead_s).abs() < 1e-15);
        assert_eq!(e.dram_s, 0.0);
    }

    #[test]
    fn few_blocks_or_few_warps_use_part_of_the_gpu() {
        let d = DeviceModel::h100();
        let o = occupancy(&d, 256, Some(32), 0);
        // One block of 8 warps: one SM, 2 warps per scheduler (half the issue rate).
        let one = launch(1, 1000, 1000, 0);
        let p = parallelism(&d, &one, &o);
        assert_eq!((p.sms, p.warps_per_sm), (1.0, 8.0));
        let e = estimate_launch(&d, &one, &o).unwrap();
        let rate = 4.0 * d.clock_hz * 0.5;
        assert!((e.issue_s - 1000.0 / rate).abs() < 1e-15);
        // 132 blocks whose work adds up to three times the busiest block's: 3 busy blocks.
        let tiled = launch(132, 2 * 1000 + 130 * 10 - 300, 1000, 0);
        assert!((parallelism(&d, &tiled, &o).busy_blocks - 3.0).abs() < 1e-12);
        // DRAM: 8 warps on 132 SMs is a quarter of the 32 per SM the bandwidth needs.
        let dram = launch(132, 132, 1, 1 << 30);
        let e = estimate_launch(&d, &dram, &o).unwrap();
        assert!((e.dram_s - (1u64 << 30) as f64 / (d.dram_bandwidth * 0.25)).abs() < 1e-12);
        assert_eq!(e.dram_bound_s, e.seconds);
    }

    #[test]
    fn barriers_stall_the_busiest_block_or_every_sm_in_turn() {
        let d = DeviceModel::h100();
        let o = occupancy(&d, 256, Some(255), 0);
        // One busy block with 10 barriers: 10 stalls of 100 cycles on the critical path.
        let mut l = launch(1, 1000, 1000, 0);
        (l.barriers, l.busiest_block_barriers) = (10, 10);
        let e = estimate_launch(&d, &l, &o).unwrap();
        assert!((e.barrier_s - 10.0 * 100.0 / d.clock_hz).abs() < 1e-15);
        // 264 blocks of 10 barriers on 132 SMs holding one block each: two rounds per SM.
        let mut l = launch(264, 264_000, 1000, 0);
        (l.barriers, l.busiest_block_barriers) = (2640, 10);
        let e = estimate_launch(&d, &l, &o).unwrap();
        assert!((e.barrier_s - 20.0 * 100.0 / d.clock_hz).abs() < 1e-15);
    }

    #[test]
    fn the_large_problem_limit_fills_the_gpu_without_overhead() {
        let d = DeviceModel::h100();
        let o = occupancy(&d, 256, Some(255), 0);
        // 8 warps per SM: half the issue rate, a quarter of the DRAM bandwidth.
        let work = Work { warp_instructions: 1 << 20, dram_bytes_read: 1 << 30, ..Work::default() };
        let e = estimate_filled(&d, &work, &o).unwrap();
        assert!((e.issue_s - (1u64 << 20) as f64 / (0.5 * d.peak_issue_rate())).abs() < 1e-15);
        assert!((e.dram_s - (1u64 << 30) as f64 / (0.25 * d.dram_bandwidth)).abs() < 1e-12);
        assert_eq!((e.overhead_s, e.seconds), (0.0, e.dram_s));
    }

    #[test]
    fn a_block_that_does_not_fit_has_no_estimate() {
        let d = DeviceModel::h100();
        let o = occupancy(&d, 1024, Some(128), 0);
        assert_eq!(estimate_launch(&d, &launch(1, 1, 1, 0), &o), None);
        assert_eq!(estimate_filled(&d, &Work::default(), &o), None);
    }
}
