//! The GPU's resource limits and how many blocks of a kernel an SM holds at once: thesis
//! Table 5.1 generalised from the Tesla C1060 to devices with partitioned register files and
//! reserved shared memory (the rules of CUDA's occupancy calculator, as in the simulator's cost
//! report, docs/cost-model.md "Occupancy"); seed 004's `k` (Eq. 11) is the same number.

use std::fmt;

/// Hardware figures of one GPU (the `H` rows of thesis Table 5.1, seed 004 Table 2).
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceLimits {
    /// What the figures describe.
    pub name: String,
    /// Streaming multiprocessors (`P` in thesis Eq. 5.9, `n_SM` in seed 004).
    pub multiprocessors: u32,
    /// Warp schedulers per SM (also register-file partitions).
    pub schedulers_per_sm: u32,
    /// Most resident threads per SM (`T_SM`).
    pub max_threads_per_sm: u32,
    /// Most resident blocks per SM (`B_SM`, seed 004's `MTB_SM`).
    pub max_blocks_per_sm: u32,
    /// Most threads per block.
    pub max_threads_per_block: u32,
    /// 32-bit registers per SM (`R_SM`).
    pub registers_per_sm: u32,
    /// Most registers one block may hold.
    pub max_registers_per_block: u32,
    /// Most registers per thread.
    pub max_registers_per_thread: u32,
    /// Registers go to a warp in multiples of this.
    pub register_granularity: u32,
    /// Shared memory per SM in bytes (`S_SM`, seed 004's `M_SM`).
    pub shared_bytes_per_sm: u64,
    /// Most shared memory per block in bytes (with opt-in).
    pub max_shared_bytes_per_block: u64,
    /// Shared memory reserved by the system per resident block.
    pub shared_reserved_per_block: u64,
    /// Shared memory goes to a block in multiples of this many bytes.
    pub shared_granularity: u64,
    /// 32-bit floating-point lanes per SM (seed 004's `n_V` for `f32` programs).
    pub vector_units_f32: u32,
    /// 64-bit floating-point lanes per SM (`n_V` for `f64` programs).
    pub vector_units_f64: u32,
    /// Ready warps each scheduler needs to issue every cycle: the cycles between two
    /// dependent instructions of one warp (Little's law; docs/cost-model.md).
    pub issue_latency_warps: f64,
    /// Resident warps per SM, on every SM, that keep DRAM at full bandwidth: the bytes in
    /// flight that hide DRAM latency (bandwidth × latency, Little's law) over the bytes one
    /// warp keeps in flight (docs/cost-model.md, `W_mem`).
    pub memory_latency_warps_per_sm: f64,
    /// Bytes of L2 cache; 0 when unknown. A problem whose fields fit in it runs its
    /// global-memory tiles' loads from L2 across launches, one whose fields do not from DRAM:
    /// the thesis model's `γ` may differ between the two ([`DeviceLimits::l2_share`]).
    pub l2_bytes: u64,
}

impl DeviceLimits {
    /// NVIDIA H100 SXM5 (compute capability 9.0): 132 SMs with 4 schedulers, 50 MiB of L2; per
    /// SM 2048 threads, 32 blocks, 65 536 registers (allocated per warp in units of 256),
    /// 228 KiB of shared memory (227 KiB per block, 1 KiB reserved per block, 128-byte units);
    /// 128 FP32 and 64 FP64 lanes per SM (NVIDIA's H100 whitepaper); 4 ready warps per scheduler to
    /// issue every cycle (about 4 cycles of dependent-instruction latency).
    pub fn h100() -> DeviceLimits {
        DeviceLimits {
            name: "NVIDIA H100 SXM5".to_string(),
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
            vector_units_f32: 128,
            vector_units_f64: 64,
            issue_latency_warps: 4.0,
            memory_latency_warps_per_sm: 32.0,
            l2_bytes: 50 * 1024 * 1024,
        }
    }

    /// The share of a kernel's global loads that stay in L2 across launches on a problem whose
    /// fields take `data_bytes`: `min(1, L2 / data_bytes)`, 0 when either is unknown (the DRAM
    /// regime). A capacity estimate, graded rather than a threshold: on the H200 (60 MiB) two
    /// 32 MiB fields of 2-D Jacobi at 2048² stayed largely in L2
    /// (`bench/results/2026-11-27-h200-24d76dc`), and a 2 GiB field at 16384² gives 3 %.
    pub fn l2_share(&self, data_bytes: u64) -> f64 {
        if self.l2_bytes == 0 || data_bytes == 0 {
            return 0.0;
        }
        (self.l2_bytes as f64 / data_bytes as f64).min(1.0)
    }

    /// Most resident warps per SM (`W_SM`).
    pub fn max_warps_per_sm(&self) -> u32 {
        self.max_threads_per_sm / crate::intra::WARP
    }

    /// The figures residency depends on.
    pub fn sm_resources(&self) -> SmResources {
        SmResources {
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

    /// Seed 004's `n_V` for elements of `element_bytes`.
    pub fn vector_units(&self, element_bytes: u32) -> u32 {
        if element_bytes > 4 {
            self.vector_units_f64
        } else {
            self.vector_units_f32
        }
    }
}

/// What limits the resident blocks per SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limiter {
    /// Registers (`B_R`).
    Registers,
    /// Shared memory (`B_S`).
    SharedMemory,
    /// Warps per SM (`B_W`'s first term).
    Warps,
    /// Blocks per SM (`B_W`'s `B_SM`).
    Blocks,
}

impl fmt::Display for Limiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limiter::Registers => "registers",
            Limiter::SharedMemory => "shared memory",
            Limiter::Warps => "warps",
            Limiter::Blocks => "blocks",
        })
    }
}

/// Resident blocks per SM of one kernel (thesis Table 5.1's `B`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Residency {
    /// `B = min(B_W, B_R, B_S)`; 0 when a block does not fit on an SM.
    pub blocks_per_sm: u32,
    /// The tightest limit.
    pub limiter: Limiter,
}

fn round_up(n: u64, to: u64) -> u64 {
    n.div_ceil(to.max(1)) * to.max(1)
}

/// The per-SM resources that decide how many blocks of a kernel are resident at once: the
/// inputs of CUDA's occupancy calculator (`cuda_occupancy.h`). The tile model's
/// [`DeviceLimits`] and the simulator's cost model both describe a GPU with these figures
/// among others, and both count residency with [`block_limits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmResources {
    /// Most threads per block.
    pub max_threads_per_block: u32,
    /// Most resident warps per SM.
    pub max_warps_per_sm: u32,
    /// Most resident blocks per SM.
    pub max_blocks_per_sm: u32,
    /// 32-bit registers per SM.
    pub registers_per_sm: u32,
    /// Most registers one block may hold.
    pub max_registers_per_block: u32,
    /// Most registers per thread.
    pub max_registers_per_thread: u32,
    /// Registers go to a warp in multiples of this.
    pub register_granularity: u32,
    /// Register-file partitions (one per warp scheduler); each warp's registers lie in one.
    pub register_partitions: u32,
    /// Shared memory per SM in bytes.
    pub shared_bytes_per_sm: u64,
    /// Most shared memory per block in bytes (with opt-in).
    pub max_shared_bytes_per_block: u64,
    /// Shared memory reserved by the system per resident block.
    pub shared_reserved_per_block: u64,
    /// Shared memory goes to a block in multiples of this many bytes.
    pub shared_granularity: u64,
}

/// Resident blocks per SM as each resource alone allows (thesis Table 5.1's `B_W`, `B_R`,
/// `B_S` and the per-SM block limit); 0 where a block does not fit at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockLimits {
    /// Warps per block (threads rounded up to whole warps).
    pub warps_per_block: u32,
    /// By the warps (threads) an SM holds: `⌊W_SM / W_TB⌋`.
    pub by_warps: u32,
    /// By registers (`None` when the register count is unknown).
    pub by_registers: Option<u32>,
    /// By shared memory.
    pub by_shared_memory: u32,
    /// The per-SM block limit `B_SM`.
    pub by_blocks: u32,
}

impl BlockLimits {
    /// The tightest limit and its blocks per SM; on ties registers are named first, then
    /// shared memory, warps and blocks.
    pub fn tightest(&self) -> (u32, Limiter) {
        [
            (self.by_registers.unwrap_or(u32::MAX), Limiter::Registers),
            (self.by_shared_memory, Limiter::SharedMemory),
            (self.by_warps, Limiter::Warps),
            (self.by_blocks, Limiter::Blocks),
        ]
        .into_iter()
        .fold((u32::MAX, Limiter::Blocks), |best, c| if c.0 < best.0 { c } else { best })
    }
}

/// What each resource allows for blocks of `threads` threads using `registers` registers per
/// thread (`None`: unknown, no limit counted) and `shared_bytes` of shared memory.
pub fn block_limits(sm: &SmResources, threads: u32, registers: Option<u32>, shared_bytes: u64) -> BlockLimits {
    let warp = crate::intra::WARP;
    let warps_per_block = threads.div_ceil(warp);
    let warps = u64::from(warps_per_block);
    let by_warps =
        if threads > sm.max_threads_per_block || warps == 0 { 0 } else { sm.max_warps_per_sm / warps_per_block };
    // Registers go to warps in units, each warp in one partition of the register file; a block
    // whose registers exceed the per-block limit (checked as if its warps were spread over
    // every partition, as the hardware does) does not launch.
    let by_registers = registers.map(|registers| {
        let per_warp = round_up(u64::from(registers) * u64::from(warp), u64::from(sm.register_granularity));
        let partitions = u64::from(sm.register_partitions.max(1));
        let limit = u64::from(sm.max_registers_per_block);
        if registers > sm.max_registers_per_thread
            || per_warp * round_up(warps, partitions) > limit
            || per_warp * warps > limit
        {
            0
        } else {
            (u64::from(sm.registers_per_sm) / partitions)
                .checked_div(per_warp)
                .map_or(u32::MAX, |w| u32::try_from(w * partitions / warps.max(1)).unwrap_or(u32::MAX))
        }
    });
    // Shared memory plus the reserved part, in allocation units.
    let by_shared_memory = if shared_bytes > sm.max_shared_bytes_per_block {
        0
    } else {
        sm.shared_bytes_per_sm
            .checked_div(round_up(shared_bytes + sm.shared_reserved_per_block, sm.shared_granularity))
            .map_or(u32::MAX, |b| u32::try_from(b).unwrap_or(u32::MAX))
    };
    BlockLimits { warps_per_block, by_warps, by_registers, by_shared_memory, by_blocks: sm.max_blocks_per_sm }
}

/// `B` for blocks of `threads` threads using `registers` registers per thread and
/// `shared_bytes` of shared memory (thesis Table 5.1 with the H100's allocation rules).
pub fn residency(device: &DeviceLimits, threads: u32, registers: u32, shared_bytes: u64) -> Residency {
    let (blocks_per_sm, limiter) =
        block_limits(&device.sm_resources(), threads, Some(registers), shared_bytes).tightest();
    Residency { blocks_per_sm, limiter }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h100_residency_matches_cudas_calculator() {
        let h100 = DeviceLimits::h100();
        // 255 registers × 256 threads: one block (docs/cost-model.md).
        assert_eq!(residency(&h100, 256, 255, 0).blocks_per_sm, 1);
        assert_eq!(residency(&h100, 256, 32, 0).blocks_per_sm, 8);
        assert_eq!(residency(&h100, 256, 48, 0).blocks_per_sm, 5);
        // 48 KiB of shared memory: four blocks of 49 KiB in 228 KiB.
        let r = residency(&h100, 64, 16, 48 * 1024);
        assert_eq!((r.blocks_per_sm, r.limiter), (4, Limiter::SharedMemory));
        assert_eq!(residency(&h100, 1024, 128, 0).blocks_per_sm, 0);
    }
}
