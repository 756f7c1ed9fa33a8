//! The GPU the cost model estimates for: hardware limits (for occupancy) and the throughput
//! and latency figures of the bound model, in one struct with an H100 default.

/// A GPU as the cost model sees it. Every figure the occupancy calculator and the bound model
/// use is here, so a different GPU (or a calibrated H100) is a different value of this struct.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceModel {
    /// What the figures describe.
    pub name: String,
    /// Streaming multiprocessors (SMs).
    pub multiprocessors: u32,
    /// Warp schedulers per SM (also the SM's register-file partitions).
    pub schedulers_per_sm: u32,
    /// Most resident threads per SM.
    pub max_threads_per_sm: u32,
    /// Most resident blocks per SM.
    pub max_blocks_per_sm: u32,
    /// Most threads in one block.
    pub max_threads_per_block: u32,
    /// 32-bit registers per SM.
    pub registers_per_sm: u32,
    /// Most registers one block may hold.
    pub max_registers_per_block: u32,
    /// Most registers per thread.
    pub max_registers_per_thread: u32,
    /// Registers are allocated to a warp in multiples of this.
    pub register_granularity: u32,
    /// Shared memory per SM, in bytes (the largest shared-memory carve-out).
    pub shared_bytes_per_sm: u64,
    /// Most shared memory one block may use, in bytes (with opt-in).
    pub max_shared_bytes_per_block: u64,
    /// Shared memory the system reserves for every resident block, in bytes.
    pub shared_reserved_per_block: u64,
    /// Shared memory is allocated to a block in multiples of this many bytes.
    pub shared_granularity: u64,
    /// SM clock in Hz (the boost clock under load).
    pub clock_hz: f64,
    /// Warp-instructions one scheduler issues per cycle when it has a ready warp.
    pub ipc_per_scheduler: f64,
    /// DRAM bandwidth in bytes per second (bytes read plus bytes written).
    pub dram_bandwidth: f64,
    /// Resident warps each scheduler needs to issue every cycle: the average number of cycles
    /// between two instructions of one warp (dependent-instruction latency), by Little's law.
    pub issue_latency_warps: f64,
    /// Resident warps per SM, on every SM, needed to keep DRAM at full bandwidth: the bytes in
    /// flight that hide DRAM latency (bandwidth × latency, Little's law) over the bytes one
    /// warp keeps in flight.
    pub bandwidth_warps_per_sm: f64,
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
            name: "NVIDIA H100 SXM5 (model)".to_string(),
            multiprocessors: 132,
            schedulers_per_sm: 4,
            max_threads_per_sm: 2048,
            max_blocks_per_sm: 32,
            max_threads_per_block: 1024,
            registers_per_sm: 65536,
            max_registers_per_block: 65536,
            max_registers_per_thread: 255,
            register_granularity: 256,
            shared_bytes_per_sm: 228 * 1024,
            max_shared_bytes_per_block: 227 * 1024,
            shared_reserved_per_block: 1024,
            shared_granularity: 128,
            clock_hz: 1.755e9,
            ipc_per_scheduler: 1.0,
            dram_bandwidth: 2.99e12,
            issue_latency_warps: 4.0,
            bandwidth_warps_per_sm: 32.0,
            barrier_cycles: 100.0,
            launch_overhead_s: 2e-6,
        }
    }

    /// Most resident warps per SM.
    pub fn max_warps_per_sm(&self) -> u32 {
        self.max_threads_per_sm / crate::gpu_sim::WARP_SIZE as u32
    }

    /// The figures residency depends on (the occupancy calculator's inputs).
    pub fn sm_resources(&self) -> stencil_tilemodel::SmResources {
        stencil_tilemodel::SmResources {
            max_threads_per_block: self.max_threads_per_block,
            max_warps_per_sm: self.max_warps_per_sm(),
            max_blocks_per_sm: self.max_blocks_per_sm,
            registers_per_sm: self.registers_per_sm,
            max_registers_per_block: self.max_registers_per_block,
            max_registers_per_thread: self.max_registers_per_thread,
            register_granularity: self.register_granularity,
            register_partitions: self.schedulers_per_sm,
            shared_bytes_per_sm: self.shared_bytes_per_sm,
            max_shared_bytes_per_block: self.max_shared_bytes_per_block,
            shared_reserved_per_block: self.shared_reserved_per_block,
            shared_granularity: self.shared_granularity,
        }
    }

    /// Warp-instructions the whole GPU issues per second at best.
    pub fn peak_issue_rate(&self) -> f64 {
        f64::from(self.multiprocessors) * f64::from(self.schedulers_per_sm) * self.clock_hz * self.ipc_per_scheduler
    }
}

impl Default for DeviceModel {
    /// [`DeviceModel::h100`].
    fn default() -> Self {
        DeviceModel::h100()
    }
}
