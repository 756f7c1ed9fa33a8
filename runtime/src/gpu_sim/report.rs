//! What a simulation reports: counters per launch and in total, and the data races found.

use super::warp::WARP_SIZE;
use crate::state::RunStats;
use std::collections::HashMap;
use std::fmt;
use stencil_ir::Location;

/// Whether an access reads or writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// A load.
    Read,
    /// A store.
    Write,
}

impl fmt::Display for AccessKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
        })
    }
}

/// The memory a race happened in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemorySpace {
    /// Global memory (buffers passed to the kernel).
    Global,
    /// Workgroup (shared) memory of one block.
    Workgroup,
}

/// Between whom a race happened.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RaceScope {
    /// Two threads of one block, with no `gpu.barrier` between the accesses.
    WithinBlock,
    /// Two blocks of one launch (blocks cannot synchronise within a launch).
    AcrossBlocks,
}

/// One side of a race: who accessed, how, and where in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceAccess {
    /// `gpu.block_id` x, y, z of the thread.
    pub block: [u32; 3],
    /// `gpu.thread_id` x, y, z of the thread.
    pub thread: [u32; 3],
    /// Read or write.
    pub kind: AccessKind,
    /// The accessing op's name (`memref.store`, `affine.load` …).
    pub op: String,
    /// The accessing op's location.
    pub location: Location,
}

pub(crate) use crate::error::ids;

/// `file:line:col`, or `<unknown location>`.
pub(crate) fn place(location: &Location) -> String {
    crate::error::Loc::new(location).to_string()
}

impl fmt::Display for RaceAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} by block {} thread {} ('{}' at {})",
            self.kind,
            ids(&self.block),
            ids(&self.thread),
            self.op,
            place(&self.location)
        )
    }
}

/// A data race: two accesses to one element, at least one a write, by two threads that did
/// not synchronise in between. With [`crate::gpu_sim::RacePolicy::Collect`], races with the
/// same kernel, memory, ops and access kinds are merged into one report that counts them.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceReport {
    /// The kernel, as `module::kernel`.
    pub kernel: String,
    /// Number of the launch in the run (0 for the first).
    pub launch: usize,
    /// The memory: `argument #0 (field 'A')`, `workgroup attribution #1` …
    pub memory: String,
    /// Global or workgroup memory.
    pub space: MemorySpace,
    /// The element (first occurrence), one index per dimension.
    pub index: Vec<usize>,
    /// Within a block or across blocks.
    pub scope: RaceScope,
    /// The earlier access (in the simulator's order).
    pub first: RaceAccess,
    /// The later access, the one that revealed the race.
    pub second: RaceAccess,
    /// How many racing access pairs this report stands for.
    pub occurrences: u64,
}

impl fmt::Display for RaceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let index: Vec<String> = self.index.iter().map(ToString::to_string).collect();
        let between = match self.scope {
            RaceScope::WithinBlock => "with no gpu.barrier between them",
            RaceScope::AcrossBlocks => "in different blocks of one launch, which cannot synchronise",
        };
        write!(
            f,
            "data race in kernel @{} on {} element [{}]: {} and {} {between}",
            self.kernel.replace("::", "::@"),
            self.memory,
            index.join(", "),
            self.first,
            self.second
        )?;
        if self.occurrences > 1 {
            write!(f, " ({} racing pairs like it)", self.occurrences)?;
        }
        Ok(())
    }
}

/// Counters of one `gpu.launch_func`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaunchStats {
    /// The kernel, as `module::kernel`.
    pub kernel: String,
    /// With `SimOptions::profile`: the warp- and thread-instructions per location of the kernel
    /// op they were compiled from, the most warp-instructions first (they sum to
    /// `warp_instructions` and `thread_instructions`).
    pub profile: Vec<(Location, OpCount)>,
    /// Blocks along x, y, z.
    pub grid: [u32; 3],
    /// Threads per block along x, y, z.
    pub block: [u32; 3],
    /// Workgroup memory of one block (its workgroup attributions), in bytes.
    pub workgroup_bytes: u64,
    /// Block-wide barriers completed (one per block per `gpu.barrier` reached).
    pub barriers: u64,
    /// Instructions executed by all threads (every simulator instruction, register copies
    /// included).
    pub instructions: u64,
    /// Warp-instructions issued: per barrier phase and warp of 32 threads, each counted
    /// instruction as many times as the warp's busiest lane ran it (docs/cost-model.md).
    pub warp_instructions: u64,
    /// Counted instructions executed by all threads (the same instructions as
    /// `warp_instructions`, per thread: their ratio is the lane utilisation).
    pub thread_instructions: u64,
    /// Warp-instructions of the block that issued the most.
    pub busiest_block_warp_instructions: u64,
    /// Most barriers one block completed.
    pub busiest_block_barriers: u64,
    /// Loads from global memory (one per thread access; no caches modelled).
    pub global_loads: u64,
    /// Stores to global memory.
    pub global_stores: u64,
    /// Bytes loaded from global memory (element size × loads; no caches modelled).
    pub global_bytes_read: u64,
    /// Bytes stored to global memory.
    pub global_bytes_written: u64,
    /// Estimated DRAM bytes read: the distinct 32-byte sectors of global memory the launch
    /// loads from, × 32 (an L2 that keeps what one launch touches; `sectors.rs`).
    pub dram_bytes_read: u64,
    /// Estimated DRAM bytes written: the distinct sectors the launch stores to, × 32.
    pub dram_bytes_written: u64,
    /// Loads from workgroup (shared) memory.
    pub workgroup_loads: u64,
    /// Stores to workgroup (shared) memory.
    pub workgroup_stores: u64,
    /// Races found in this launch.
    pub races: u64,
}

impl LaunchStats {
    /// Blocks in the grid.
    pub fn blocks(&self) -> u64 {
        self.grid.iter().map(|&g| u64::from(g)).product()
    }

    /// Threads in one block.
    pub fn threads_per_block(&self) -> u32 {
        self.block.iter().product()
    }

    /// Threads in the launch.
    pub fn threads(&self) -> u64 {
        self.blocks() * u64::from(self.threads_per_block())
    }

    /// Warps in the launch: each block's threads in warps of [`WARP_SIZE`], the last one
    /// possibly partial.
    pub fn warps(&self) -> u64 {
        self.blocks() * u64::from(self.threads_per_block().div_ceil(WARP_SIZE as u32))
    }
}

/// What a simulation did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimReport {
    /// One entry per `gpu.launch_func` executed, in order.
    pub launches: Vec<LaunchStats>,
    /// Distinct races found (under [`crate::gpu_sim::RacePolicy::Collect`]; at most
    /// `max_race_reports` of them).
    pub races: Vec<RaceReport>,
    /// All racing access pairs found, including those merged or not kept.
    pub race_count: u64,
}

/// What the instructions compiled from one kernel op cost ([`LaunchStats::profile`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCount {
    /// Issued per warp: each time the warp ran them, once (the warp model).
    pub warp_instructions: u64,
    /// Run per thread: each lane that ran them, once.
    pub thread_instructions: u64,
}

impl OpCount {
    /// The busy lanes of the warp-instructions: thread- over 32 × warp-instructions (`None`
    /// without any).
    pub fn lane_utilisation(&self) -> Option<f64> {
        (self.warp_instructions > 0).then(|| self.thread_instructions as f64 / (32.0 * self.warp_instructions as f64))
    }
}

/// One line of [`SimReport::profile`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileLine {
    /// The kernel, as `module::kernel`.
    pub kernel: String,
    /// The location of the kernel op.
    pub location: Location,
    /// Warp-instructions compiled from that op, over all launches of the kernel.
    pub warp_instructions: u64,
    /// Thread-instructions compiled from that op (each lane that ran one counts it), over all
    /// launches of the kernel: over 32 × `warp_instructions`, the op's lane utilisation.
    pub thread_instructions: u64,
}

impl ProfileLine {
    /// The busy lanes of the op's warp-instructions ([`OpCount::lane_utilisation`]).
    pub fn lane_utilisation(&self) -> Option<f64> {
        OpCount { warp_instructions: self.warp_instructions, thread_instructions: self.thread_instructions }
            .lane_utilisation()
    }
}

impl SimReport {
    /// With `SimOptions::profile`: the warp-instructions per kernel and op location over all
    /// launches, the most first (empty without it).
    pub fn profile(&self) -> Vec<ProfileLine> {
        let mut sums: HashMap<(&str, &Location), OpCount> = HashMap::new();
        for launch in &self.launches {
            for (location, n) in &launch.profile {
                let sum = sums.entry((launch.kernel.as_str(), location)).or_default();
                sum.warp_instructions += n.warp_instructions;
                sum.thread_instructions += n.thread_instructions;
            }
        }
        let mut lines: Vec<ProfileLine> = sums
            .into_iter()
            .map(|((kernel, location), n)| ProfileLine {
                kernel: kernel.to_string(),
                location: location.clone(),
                warp_instructions: n.warp_instructions,
                thread_instructions: n.thread_instructions,
            })
            .collect();
        lines.sort_by(|a, b| {
            b.warp_instructions
                .cmp(&a.warp_instructions)
                .then_with(|| a.kernel.cmp(&b.kernel))
                .then_with(|| a.location.file_position().cmp(&b.location.file_position()))
        });
        lines
    }

    /// Blocks run, over all launches.
    pub fn blocks(&self) -> u64 {
        self.launches.iter().map(LaunchStats::blocks).sum()
    }

    /// Threads run, over all launches.
    pub fn threads(&self) -> u64 {
        self.launches.iter().map(LaunchStats::threads).sum()
    }

    /// Block-wide barriers completed, over all launches.
    pub fn barriers(&self) -> u64 {
        self.launches.iter().map(|l| l.barriers).sum()
    }

    /// Instructions executed by kernel threads, over all launches.
    pub fn instructions(&self) -> u64 {
        self.launches.iter().map(|l| l.instructions).sum()
    }

    /// Warp-instructions issued, over all launches.
    pub fn warp_instructions(&self) -> u64 {
        self.launches.iter().map(|l| l.warp_instructions).sum()
    }

    /// Global memory bytes read, over all launches.
    pub fn global_bytes_read(&self) -> u64 {
        self.launches.iter().map(|l| l.global_bytes_read).sum()
    }

    /// Global memory bytes written, over all launches.
    pub fn global_bytes_written(&self) -> u64 {
        self.launches.iter().map(|l| l.global_bytes_written).sum()
    }
}

/// What [`crate::gpu_sim::run_module_sim`] returns: the counters [`crate::run_module`]
/// gives, and the simulation's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimRunStats {
    /// Point updates (stores into field arguments, from host or kernels) and seconds.
    pub run: RunStats,
    /// Launches, barriers, traffic and races.
    pub sim: SimReport,
}

/// Where a simulation is, reported after every block (`run_module_sim_with_progress`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SimProgress {
    /// Launches started so far.
    pub launches: u64,
    /// Blocks finished so far, over all launches.
    pub blocks: u64,
}

/// How much a simulation will run ([`crate::gpu_sim::count_launches`]): the denominators of a
/// progress display.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchCount {
    /// Kernel launches.
    pub launches: u64,
    /// Blocks, over all launches.
    pub blocks: u64,
}
