//! Occupancy: how many blocks of a kernel an SM holds at once, limited by registers, shared
//! memory, threads and blocks — the rules of CUDA's occupancy calculator
//! (`cuda_occupancy.h`) for devices with partitioned register files.

use super::device::DeviceModel;
/// What limits the resident blocks per SM: the tile model's enum, since its rules
/// ([`stencil_tilemodel::block_limits`]) are the ones counted here.
pub use stencil_tilemodel::device::Limiter;

/// The occupancy of one kernel launched with one block size.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Occupancy {
    /// Resident blocks per SM (0: a block does not fit on an SM at all).
    pub blocks_per_sm: u32,
    /// Warps per block (threads rounded up to whole warps).
    pub warps_per_block: u32,
    /// The tightest limit.
    pub limiter: Limiter,
    /// Blocks per SM the registers allow (`None` when the register count is unknown: the
    /// occupancy is then an upper bound).
    pub by_registers: Option<u32>,
    /// Blocks per SM shared memory allows.
    pub by_shared_memory: u32,
    /// Blocks per SM the warp (thread) limit allows.
    pub by_warps: u32,
    /// The per-SM block limit.
    pub by_blocks: u32,
}

impl Occupancy {
    /// Resident warps per SM.
    pub fn warps_per_sm(&self) -> u32 {
        self.blocks_per_sm * self.warps_per_block
    }

    /// Resident warps over the most an SM can hold (0 to 1).
    pub fn fraction(&self, device: &DeviceModel) -> f64 {
        f64::from(self.warps_per_sm()) / f64::from(device.max_warps_per_sm().max(1))
    }

    /// Whether the register count was known.
    pub fn registers_known(&self) -> bool {
        self.by_registers.is_some()
    }
}

/// The occupancy of blocks of `threads_per_block` threads using `registers` registers per
/// thread (`None`: unknown, not counted as a limit) and `shared_bytes` of shared memory. The
/// rules are the tile model's ([`stencil_tilemodel::block_limits`]), so that the cost report
/// and the tile-size search count residency alike.
pub fn occupancy(device: &DeviceModel, threads_per_block: u32, registers: Option<u32>, shared_bytes: u64) -> Occupancy {
    let limits =
        stencil_tilemodel::block_limits(&device.limits.sm_resources(), threads_per_block, registers, shared_bytes);
    let (blocks_per_sm, limiter) = limits.tightest();
    Occupancy {
        blocks_per_sm,
        warps_per_block: limits.warps_per_block,
        limiter,
        by_registers: limits.by_registers,
        by_shared_memory: limits.by_shared_memory,
        by_warps: limits.by_warps,
        by_blocks: limits.by_blocks,
    }
}

#[cfg(test)]
mod tests {
    use super::{occupancy, Limiter};
    use crate::cost::DeviceModel;

    #[test]
    fn h100_register_limits_match_cudas_calculator() {
        let h100 = DeviceModel::h100();
        // 255 registers: 8 160 per warp, rounded to 8 192; two warps per 16 384-register
        // partition, eight per SM: one block of eight warps.
        let o = occupancy(&h100, 256, Some(255), 0);
        assert_eq!((o.blocks_per_sm, o.limiter), (1, Limiter::Registers));
        assert_eq!(o.warps_per_sm(), 8);
        assert!((o.fraction(&h100) - 0.125).abs() < 1e-12);
        // 32 registers: 1 024 per warp, 64 warps per SM; threads allow 8 blocks of 256 too,
        // and registers are named first on a tie.
        let o = occupancy(&h100, 256, Some(32), 0);
        assert_eq!((o.blocks_per_sm, o.by_warps, o.limiter), (8, 8, Limiter::Registers));
        assert!((o.fraction(&h100) - 1.0).abs() < 1e-12);
        // 48 registers × 256 threads (the naive 2-D Jacobi on an H100): 1 536 per warp,
        // 10 warps per partition, 40 per SM, 5 blocks.
        assert_eq!(occupancy(&h100, 256, Some(48), 0).blocks_per_sm, 5);
        // 128 registers × 1024 threads need 131 072 registers: the block does not launch.
        assert_eq!(occupancy(&h100, 1024, Some(128), 0).blocks_per_sm, 0);
        // 64 registers × 1024 threads fill the register file exactly.
        assert_eq!(occupancy(&h100, 1024, Some(64), 0).blocks_per_sm, 1);
    }

    #[test]
    fn shared_memory_threads_and_blocks_limit_too() {
        let h100 = DeviceModel::h100();
        // 36 864 bytes + 1 024 reserved = 37 888 per block; 233 472 / 37 888 = 6.
        let o = occupancy(&h100, 256, Some(32), 36_864);
        assert_eq!((o.blocks_per_sm, o.limiter), (6, Limiter::SharedMemory));
        // More than 227 KiB per block does not launch.
        assert_eq!(occupancy(&h100, 256, None, 228 * 1024).blocks_per_sm, 0);
        // Blocks of 32 threads with few registers: 32 blocks per SM at most.
        let o = occupancy(&h100, 32, Some(16), 0);
        assert_eq!((o.blocks_per_sm, o.limiter), (32, Limiter::Blocks));
        // A partial warp takes a whole one: 40 threads are 2 warps, 32 blocks by threads.
        let o = occupancy(&h100, 40, None, 0);
        assert_eq!((o.warps_per_block, o.by_warps, o.blocks_per_sm), (2, 32, 32));
        // Without registers the estimate is threads-only: 1024-thread blocks, 2 per SM.
        let o = occupancy(&h100, 1024, None, 0);
        assert_eq!((o.blocks_per_sm, o.limiter, o.registers_known()), (2, Limiter::Warps, false));
    }
}
