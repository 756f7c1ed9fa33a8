//! The GPU the cost model estimates for: hardware limits (for occupancy) and the throughput
//! and latency figures of the bound model, in one struct with an H100 default.

/// A GPU as the cost model sees it. Every figure the occupancy calculator and the bound model
/// use is here, so a different GPU (or a calibrated H100) is a different value of this struct.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceModel {
    /// The hardware limits: SMs, schedulers, threads, blocks, registers, shared memory and
    /// their allocation rules, the warps per scheduler that hide issue latency and the warps
    /// per SM that hide DRAM latency. The same
    /// figures the tile-size search uses, so occupancy is counted one way
    /// ([`stencil_tilemodel::block_limits`]).
    pub limits: stencil_tilemodel::DeviceLimits,
    /// SM clock in Hz (the boost clock under load).
    pub clock_hz: f64,
    /// Warp-instructions one scheduler issues per cycle when it has a ready warp.
    pub ipc_per_scheduler: f64,
    /// DRAM bandwidth in bytes per second (bytes read plus bytes written).
    pub dram_bandwidth: f64,
    /// Cycles a block stalls at a `gpu.barrier` (the wait for its last warp's outstanding
    /// instruction plus the synchronisation), hidden by the other resident blocks.
    pub barrier_cycles: f64,
    /// Seconds between the end of a kernel and the start of the next one on the same stream.
    pub launch_overhead_s: f64,
}

impl DeviceModel {
    /// NVIDIA H100 SXM5 80 GB (compute capability 9.0).
    ///
    /// Limits from CUDA's tables for compute capability 9.0: 132 SMs with 4 schedulers,
    /// 2048 threads, 32 blocks, 65 536 registers and 228 KiB of shared memory per SM, 227 KiB
    /// per block, 1 KiB reserved per block, registers allocated per warp in units of 256,
    /// shared memory in units of 128 bytes. Clock: 1.755 GHz (boost). DRAM: 2.99 TB/s, the
    /// copy bandwidth measured on an H100 (device-to-device copy of 1 GiB, bytes read plus
    /// written), not the 3.35 TB/s peak. Latency figures (docs/cost-model.md explains them):
    /// 4 warps per scheduler (arithmetic latency of about 4 cycles), 32 warps per SM for DRAM
    /// (about 2 MB in flight at 600 ns, two 256-byte warp loads in flight per warp), 100
    /// cycles per barrier, 2 µs per launch.
    pub fn h100() -> Self {
        DeviceModel {
            limits: stencil_tilemodel::DeviceLimits {
                name: "NVIDIA H100 SXM5 (model)".to_string(),
                ..stencil_tilemodel::DeviceLimits::h100()
            },
            clock_hz: 1.755e9,
            ipc_per_scheduler: 1.0,
            dram_bandwidth: 2.99e12,
            barrier_cycles: 100.0,
            launch_overhead_s: 2e-6,
        }
    }

    /// Most resident warps per SM.
    pub fn max_warps_per_sm(&self) -> u32 {
        self.limits.max_warps_per_sm()
    }

    /// Warp-instructions the whole GPU issues per second at best.
    pub fn peak_issue_rate(&self) -> f64 {
        f64::from(self.limits.multiprocessors)
            * f64::from(self.limits.schedulers_per_sm)
            * self.clock_hz
            * self.ipc_per_scheduler
    }
}

impl Default for DeviceModel {
    /// [`DeviceModel::h100`].
    fn default() -> Self {
        DeviceModel::h100()
    }
}
