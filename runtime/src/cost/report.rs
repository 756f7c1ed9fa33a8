//! The cost report: the simulator's counters per kernel (over its launches) and in total, each
//! kernel's resources and occupancy, and the bound model's estimate.

use super::device::DeviceModel;
use super::estimate::{estimate_filled, estimate_launch, parallelism, Estimate};
use super::occupancy::{occupancy, Occupancy};
use crate::gpu_sim::{LaunchStats, SimReport, WARP_SIZE};
use std::collections::HashMap;

/// What ptxas reports for a kernel, as plain data (the runtime does not run ptxas).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelResources {
    /// Registers per thread.
    pub registers: u32,
    /// Static shared memory per block, in bytes.
    pub shared_bytes: u64,
    /// Bytes stored to local memory because registers ran out.
    pub spill_store_bytes: u64,
    /// Bytes loaded back from local memory.
    pub spill_load_bytes: u64,
}

/// The simulator's counters summed over launches.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Launches.
    pub launches: u64,
    /// Blocks.
    pub blocks: u64,
    /// Threads.
    pub threads: u64,
    /// Warps (each block's threads in warps of 32, the last one possibly partial).
    pub warps: u64,
    /// Block-wide barriers completed.
    pub barriers: u64,
    /// Warp-instructions issued (the warp model of docs/cost-model.md).
    pub warp_instructions: u64,
    /// Counted instructions executed by threads.
    pub thread_instructions: u64,
    /// Global-memory loads (thread accesses, no caches).
    pub global_loads: u64,
    /// Global-memory stores.
    pub global_stores: u64,
    /// Bytes loaded from global memory.
    pub global_bytes_read: u64,
    /// Bytes stored to global memory.
    pub global_bytes_written: u64,
    /// Estimated DRAM bytes read (distinct 32-byte sectors per launch, × 32).
    pub dram_bytes_read: u64,
    /// Estimated DRAM bytes written.
    pub dram_bytes_written: u64,
    /// Workgroup (shared) memory loads.
    pub shared_loads: u64,
    /// Workgroup (shared) memory stores.
    pub shared_stores: u64,
}

impl Work {
    /// Adds launch `l`.
    pub fn add_launch(&mut self, l: &LaunchStats) {
        self.launches += 1;
        self.blocks += l.blocks();
        self.threads += l.threads();
        self.warps += l.warps();
        self.barriers += l.barriers;
        self.warp_instructions += l.warp_instructions;
        self.thread_instructions += l.thread_instructions;
        self.global_loads += l.global_loads;
        self.global_stores += l.global_stores;
        self.global_bytes_read += l.global_bytes_read;
        self.global_bytes_written += l.global_bytes_written;
        self.dram_bytes_read += l.dram_bytes_read;
        self.dram_bytes_written += l.dram_bytes_written;
        self.shared_loads += l.workgroup_loads;
        self.shared_stores += l.workgroup_stores;
    }

    /// Bytes read and written in global memory.
    pub fn global_bytes(&self) -> u64 {
        self.global_bytes_read + self.global_bytes_written
    }

    /// Estimated DRAM bytes, read and written: what the bound model's DRAM term charges.
    pub fn dram_bytes(&self) -> u64 {
        self.dram_bytes_read + self.dram_bytes_written
    }

    /// Workgroup memory accesses.
    pub fn shared_accesses(&self) -> u64 {
        self.shared_loads + self.shared_stores
    }

    /// Thread-instructions over 32 × warp-instructions: the share of issued lanes that did
    /// work (idle lanes of partial warps and of divergent code lower it); `None` without
    /// instructions.
    pub fn lane_utilisation(&self) -> Option<f64> {
        (self.warp_instructions > 0)
            .then(|| self.thread_instructions as f64 / (WARP_SIZE as f64 * self.warp_instructions as f64))
    }
}

/// One kernel (`gpu.func`) over all its launches.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelCost {
    /// `module::kernel`.
    pub name: String,
    /// Threads per block (x, y, z) of its first launch.
    pub block: [u32; 3],
    /// Counters over its launches.
    pub work: Work,
    /// What ptxas reported (`None`: unknown).
    pub resources: Option<KernelResources>,
    /// Shared memory per block used for occupancy: the larger of ptxas's (static) figure and
    /// the simulator's workgroup attributions — a kernel above 48 KiB takes its buffers from
    /// dynamic shared memory, which ptxas does not count.
    pub shared_bytes: u64,
    /// Occupancy at the block size of its first launch (registers unknown: not a limit).
    pub occupancy: Occupancy,
    /// Estimated time over its launches (`None`: a block does not fit on an SM).
    pub estimate: Option<Estimate>,
    /// Its large-problem limit: the same work on a GPU filled with its blocks, without
    /// launch overhead.
    pub filled: Option<Estimate>,
    /// SMs its launches keep busy, averaged over them weighted by their estimated time (the
    /// launch's busy blocks, at most the device's SMs: a launch of fewer blocks than SMs
    /// leaves the rest idle; `None` without an estimate).
    pub busy_sms: Option<f64>,
}

/// The cost report of a simulated run.
#[derive(Clone, Debug, PartialEq)]
pub struct CostReport {
    /// The device estimated for.
    pub device: DeviceModel,
    /// The program's point updates (the per-update figures' denominator).
    pub point_updates: u64,
    /// Per kernel, in the order of their first launch.
    pub kernels: Vec<KernelCost>,
    /// Counters over every launch.
    pub total: Work,
    /// Estimated time of the whole run (`None` when some kernel's block does not fit).
    pub estimate: Option<Estimate>,
    /// The large-problem limit of the run: the kernels' `filled` estimates summed.
    pub filled: Option<Estimate>,
}

impl CostReport {
    /// Builds the report of `sim` for `device`; `resources` holds ptxas's figures by kernel
    /// name (`module::kernel`), and a kernel missing there has unknown registers.
    pub fn new(
        sim: &SimReport,
        resources: &HashMap<String, KernelResources>,
        device: &DeviceModel,
        point_updates: u64,
    ) -> CostReport {
        let mut kernels: Vec<KernelCost> = vec![];
        let mut total = Work::default();
        let mut estimate = Some(Estimate::default());
        for l in &sim.launches {
            let at = match kernels.iter().position(|k| k.name == l.kernel) {
                Some(i) => i,
                None => {
                    let res = resources.get(&l.kernel).cloned();
                    let shared_bytes =
                        res.as_ref().map_or(l.workgroup_bytes, |r| r.shared_bytes.max(l.workgroup_bytes));
                    let registers = res.as_ref().map(|r| r.registers);
                    kernels.push(KernelCost {
                        name: l.kernel.clone(),
                        block: l.block,
                        work: Work::default(),
                        occupancy: occupancy(device, l.threads_per_block(), registers, shared_bytes),
                        resources: res,
                        shared_bytes,
                        estimate: Some(Estimate::default()),
                        filled: None,
                        busy_sms: None,
                    });
                    kernels.len() - 1
                }
            };
            let k = &mut kernels[at];
            let registers = k.resources.as_ref().map(|r| r.registers);
            let occ = if l.block == k.block {
                k.occupancy
            } else {
                occupancy(device, l.threads_per_block(), registers, k.shared_bytes)
            };
            let e = estimate_launch(device, l, &occ);
            if let Some(e) = e.filter(|e| e.seconds > 0.0) {
                // A running time-weighted mean: sum of SMs × seconds over the kernel's seconds so far.
                let before = k.estimate.map_or(0.0, |s| s.seconds);
                let sms = parallelism(device, l, &occ).sms;
                let mean = k.busy_sms.unwrap_or(0.0);
                k.busy_sms = Some((mean * before + sms * e.seconds) / (before + e.seconds));
            }
            k.work.add_launch(l);
            total.add_launch(l);
            for sum in [&mut k.estimate, &mut estimate] {
                *sum = match (*sum, e) {
                    (Some(mut s), Some(e)) => {
                        s += e;
                        Some(s)
                    }
                    _ => None,
                };
            }
        }
        let mut filled = Some(Estimate::default());
        for k in &mut kernels {
            k.filled = estimate_filled(device, &k.work, &k.occupancy);
            filled = match (filled, k.filled) {
                (Some(mut sum), Some(e)) => {
                    sum += e;
                    Some(sum)
                }
                _ => None,
            };
        }
        CostReport { device: device.clone(), point_updates, kernels, total, estimate, filled }
    }

    /// `value` per point update (`None` without point updates).
    pub fn per_update(&self, value: f64) -> Option<f64> {
        (self.point_updates > 0).then(|| value / self.point_updates as f64)
    }

    /// Estimated point updates per second (`None` without an estimate).
    pub fn updates_per_second(&self) -> Option<f64> {
        self.estimate.filter(|e| e.seconds > 0.0).map(|e| self.point_updates as f64 / e.seconds)
    }

    /// Point updates per second in the large-problem limit (`None` without an estimate).
    pub fn filled_updates_per_second(&self) -> Option<f64> {
        self.filled.filter(|e| e.seconds > 0.0).map(|e| self.point_updates as f64 / e.seconds)
    }

    /// Whether every kernel's registers were known.
    pub fn registers_known(&self) -> bool {
        self.kernels.iter().all(|k| k.resources.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::{CostReport, KernelResources};
    use crate::cost::DeviceModel;
    use crate::gpu_sim::{LaunchStats, SimReport};
    use std::collections::HashMap;

    #[test]
    fn launches_are_summed_per_kernel_and_in_total() {
        let l = |kernel: &str, w: u64| LaunchStats {
            kernel: kernel.into(),
            grid: [2, 1, 1],
            block: [40, 1, 1],
            warp_instructions: w,
            thread_instructions: w * 20,
            busiest_block_warp_instructions: w / 2,
            global_bytes_read: 800,
            dram_bytes_read: 320,
            dram_bytes_written: 32,
            ..LaunchStats::default()
        };
        let sim = SimReport { launches: vec![l("m::a", 10), l("m::b", 4), l("m::a", 6)], ..SimReport::default() };
        let resources = HashMap::from([(
            "m::a".to_string(),
            KernelResources { registers: 255, shared_bytes: 0, ..KernelResources::default() },
        )]);
        let report = CostReport::new(&sim, &resources, &DeviceModel::h100(), 100);
        assert_eq!(report.kernels[0].shared_bytes, 0);
        let names: Vec<&str> = report.kernels.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["m::a", "m::b"]);
        let a = &report.kernels[0];
        assert_eq!((a.work.launches, a.work.blocks, a.work.warps, a.work.warp_instructions), (2, 4, 8, 16));
        assert_eq!(a.work.lane_utilisation(), Some(20.0 / 32.0));
        // 255 registers, 2 warps per block: 8 warps per SM, 4 blocks.
        assert_eq!(a.occupancy.blocks_per_sm, 4);
        assert!(!report.registers_known(), "m::b has no ptxas figures");
        assert_eq!(report.kernels[1].occupancy.by_registers, None);
        assert_eq!((report.total.launches, report.total.warp_instructions, report.total.global_bytes()), (3, 20, 2400));
        assert_eq!(report.per_update(report.total.global_bytes() as f64), Some(24.0));
        assert_eq!((report.total.dram_bytes_read, report.total.dram_bytes()), (960, 1056));
        let total = report.estimate.unwrap().seconds;
        let by_kernel: f64 = report.kernels.iter().map(|k| k.estimate.unwrap().seconds).sum();
        assert!((total - by_kernel).abs() < 1e-15);
        let filled = report.filled.unwrap();
        assert_eq!(filled.overhead_s, 0.0);
        assert!(filled.seconds < total, "no launch overhead, a full GPU");
    }

    /// A kernel whose workgroup buffers are above the static limit gets them from dynamic
    /// shared memory: ptxas reports (almost) no shared memory, but occupancy must count them.
    #[test]
    fn dynamic_shared_memory_limits_occupancy() {
        let launch = LaunchStats {
            kernel: "m::big".into(),
            grid: [264, 1, 1],
            block: [256, 1, 1],
            workgroup_bytes: 98_304,
            warp_instructions: 100,
            ..LaunchStats::default()
        };
        let sim = SimReport { launches: vec![launch], ..SimReport::default() };
        let resources = HashMap::from([(
            "m::big".to_string(),
            KernelResources { registers: 32, shared_bytes: 1, ..KernelResources::default() },
        )]);
        let report = CostReport::new(&sim, &resources, &DeviceModel::h100(), 100);
        let k = &report.kernels[0];
        assert_eq!(k.shared_bytes, 98_304);
        // 96 KiB + 1 KiB reserved per block: two blocks in the SM's 228 KiB (32 registers alone
        // would allow eight).
        assert_eq!(k.occupancy.blocks_per_sm, 2);
    }
}
