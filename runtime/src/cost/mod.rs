//! The GPU cost model without a GPU (docs/cost-model.md): what a GPU-mapped program would cost
//! on a device, from what the GPU simulator counted and what ptxas reported.
//!
//! * [`DeviceModel`]: the device's limits and throughputs (an H100 by default).
//! * [`occupancy()`]: resident blocks per SM from registers, shared memory, threads and blocks,
//!   as CUDA's occupancy calculator computes them.
//! * [`estimate_launch`]: the bound model — per launch, the launch overhead plus the larger
//!   of DRAM time and issue time (with barrier stalls), both slowed when too few warps are
//!   resident to hide latency, and limited to the part of the GPU the launch's busy blocks
//!   fill; [`estimate_filled`] is its large-problem limit (every SM full, no launch overhead).
//! * [`CostReport`]: the simulator's counters per kernel and in total, with occupancy and the
//!   estimate, for `stencil-run --target sim --cost`.
//!
//! The runtime does not run ptxas: registers and shared memory come in as
//! [`KernelResources`], plain data the driver fills from `stencil_lowering::ptxas`.

mod device;
mod estimate;
mod occupancy;
mod report;

pub use device::DeviceModel;
pub use estimate::{estimate_filled, estimate_launch, parallelism, Estimate, Parallelism};
pub use occupancy::{occupancy, Limiter, Occupancy};
pub use report::{CostReport, KernelCost, KernelResources, Work};
