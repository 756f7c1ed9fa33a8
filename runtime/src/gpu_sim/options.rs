//! What a simulation may vary (execution order), how it treats data races, and the device
//! limits a launch is checked against. Defaults: blocks and threads in increasing order,
//! races are errors, CUDA's limits for compute capability 9.0.

/// The order in which the simulator runs the blocks of a grid, or the threads of a block
/// between two barriers. Race-free kernels give identical results in every order; running a
/// kernel in several orders is how tests show that.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Order {
    /// Increasing linear index (x fastest, then y, then z).
    #[default]
    Forward,
    /// Decreasing linear index.
    Reverse,
    /// A pseudo-random permutation, drawn again for every block (block order) or every
    /// barrier interval (thread order) from `seed` (SplitMix64: identical on every machine).
    Shuffled {
        /// Seed of the permutations.
        seed: u64,
    },
}

impl Order {
    /// The indices `0..n` in this order (`None` if they do not fit in memory); `salt`
    /// distinguishes the permutations of a [`Order::Shuffled`] order (ignored otherwise).
    pub(crate) fn permutation(self, n: usize, salt: u64) -> Option<Vec<usize>> {
        let mut items = Vec::new();
        items.try_reserve_exact(n).ok()?;
        items.extend(0..n);
        match self {
            Order::Forward => {}
            Order::Reverse => items.reverse(),
            Order::Shuffled { seed } => {
                let mut state = seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                for i in (1..n).rev() {
                    let j = (splitmix64(&mut state) % (i as u64 + 1)) as usize;
                    items.swap(i, j);
                }
            }
        }
        Some(items)
    }
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What the simulator does about data races.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum RacePolicy {
    /// The first race ends the run with [`crate::RuntimeError::DataRace`].
    #[default]
    Fail,
    /// Races are recorded in [`crate::gpu_sim::SimReport::races`] and the run goes on.
    Collect,
    /// No race detection (and no check for reads of unwritten workgroup memory): faster,
    /// for kernels already known to be race-free.
    Ignore,
}

/// Limits of the simulated device; a launch outside them is an error, as on the device.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Most threads in one block.
    pub max_threads_per_block: u64,
    /// Most threads along x, y, z of a block.
    pub max_block_dims: [u64; 3],
    /// Most blocks along x, y, z of a grid.
    pub max_grid_dims: [u64; 3],
    /// Most bytes of workgroup memory (the sum of the workgroup attributions) per block.
    pub max_workgroup_bytes: u64,
}

impl Default for DeviceLimits {
    /// CUDA's limits for compute capability 9.0 (H100). Shared memory: 227 KiB per block, the
    /// opt-in maximum (kernels whose buffers exceed the 48 KiB static limit take them from
    /// dynamic shared memory in their PTX, and the CUDA executor requests it).
    fn default() -> Self {
        DeviceLimits {
            max_threads_per_block: 1024,
            max_block_dims: [1024, 1024, 64],
            max_grid_dims: [(1 << 31) - 1, 65535, 65535],
            max_workgroup_bytes: 227 * 1024,
        }
    }
}

/// Options of a simulation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// Order of the blocks of a grid.
    pub block_order: Order,
    /// Order of the threads of a block within each barrier interval.
    pub thread_order: Order,
    /// What to do about data races.
    pub races: RacePolicy,
    /// Most distinct races kept in the report under [`RacePolicy::Collect`] (all are counted).
    pub max_race_reports: usize,
    /// Most instructions one thread may execute in one launch before the run stops with an
    /// error (a thread that loops forever would otherwise hang the simulation).
    pub max_instructions_per_thread: u64,
    /// Limits launches are checked against.
    pub limits: DeviceLimits,
    /// Attribute every launch's warp-instructions to the locations of the kernel ops they
    /// were compiled from (`LaunchStats::profile`, `SimReport::profile`): where a kernel's
    /// instructions go.
    pub profile: bool,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            block_order: Order::Forward,
            thread_order: Order::Forward,
            races: RacePolicy::Fail,
            max_race_reports: 64,
            max_instructions_per_thread: 100_000_000,
            limits: DeviceLimits::default(),
            profile: false,
        }
    }
}

impl SimOptions {
    /// These options with blocks and threads run in `order` (builder style).
    pub fn with_order(mut self, order: Order) -> Self {
        self.block_order = order;
        self.thread_order = order;
        self
    }

    /// These options with the warp-instruction profile on or off (builder style).
    pub fn with_profile(mut self, profile: bool) -> Self {
        self.profile = profile;
        self
    }

    /// These options with race policy `races` (builder style).
    pub fn with_races(mut self, races: RacePolicy) -> Self {
        self.races = races;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::Order;

    #[test]
    fn orders_are_permutations() {
        assert_eq!(Order::Forward.permutation(4, 0), Some(vec![0, 1, 2, 3]));
        assert_eq!(Order::Reverse.permutation(4, 0), Some(vec![3, 2, 1, 0]));
        let shuffled = Order::Shuffled { seed: 7 }.permutation(64, 3).expect("fits");
        let mut sorted = shuffled.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..64).collect::<Vec<_>>());
        assert_ne!(shuffled, sorted, "a 64-element shuffle that is the identity");
        assert_ne!(Some(shuffled), Order::Shuffled { seed: 7 }.permutation(64, 4), "salt must change the permutation");
    }
}
