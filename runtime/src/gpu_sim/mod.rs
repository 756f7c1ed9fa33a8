//! A GPU simulator: runs a host `func.func` that launches `gpu.func` kernels
//! (`gpu.launch_func`) on the CPU with GPU semantics, and checks the kernels for data races
//! (DESIGN §7: how CI, which has no GPU, checks the GPU mapping).
//!
//! * The host function runs on the loop interpreter ([`crate::loops`]); each launch runs
//!   its grid of blocks of threads. `gpu.thread_id`, `gpu.block_id`, `gpu.block_dim` and
//!   `gpu.grid_dim` give each thread its position; workgroup attributions are allocated per
//!   block, private attributions per thread.
//! * Kernels compile to a flat instruction list (`kernel.rs`), so a thread can stop at a
//!   `gpu.barrier` anywhere — inside loops and ifs — and resume from its program counter.
//!   Blocks run one after another; within a block every thread runs up to its next barrier
//!   in turn, then all pass the barrier together. Orders are configurable ([`Order`]): a
//!   race-free kernel computes the same in every order.
//! * A barrier not reached by every thread of its block is an error
//!   ([`crate::RuntimeError::BarrierDivergence`]), as are zero or oversized launch
//!   configurations ([`crate::RuntimeError::Launch`]).
//! * Races (`race` module): two threads of a block touching an element of global or
//!   workgroup memory between two barriers, or two blocks of a launch touching a global
//!   element, at least one writing. By default a race is an error
//!   ([`crate::RuntimeError::DataRace`]); [`RacePolicy::Collect`] records them in the
//!   [`SimReport`] instead.
//!
//! Semantics, rules and limits are documented in `docs/runtime.md` ("GPU simulator").

mod compile;
mod kernel;
mod launch;
mod options;
mod race;
mod regalloc;
mod report;
mod sectors;
mod simt;
mod thread;
mod warp;

pub use options::{DeviceLimits, Order, RacePolicy, SimOptions};
pub use report::{
    AccessKind, LaunchCount, LaunchStats, MemorySpace, OpCount, ProfileLine, RaceAccess, RaceReport, RaceScope,
    SimProgress, SimReport, SimRunStats,
};
pub use sectors::SECTOR_BYTES;
pub use warp::WARP_SIZE;

use crate::entry::{find_entry, run_lowered_with, Entry};
use crate::error::{RuntimeError, RuntimeResult};
use crate::loops::compile::KernelSignature;
use crate::loops::exec::KernelLauncher;
use crate::loops::steps::Site;
use crate::loops::{CompiledModule, MemRef, Memory, Value};
use crate::state::{ProgramState, RunStats};
use crate::stencil::CompiledProgram;
use std::collections::HashMap;
use std::time::Instant;
use stencil_ir::{Ir, Module, OpId};

/// A module compiled for simulation: its host functions (for the loop interpreter, with
/// launches resolved) and its kernels.
#[derive(Clone, Debug)]
pub struct GpuModule {
    host: CompiledModule,
    kernels: Vec<kernel::Kernel>,
    signatures: HashMap<String, KernelSignature>,
}

impl GpuModule {
    /// Compiles every `func.func` directly inside `module` and every kernel `gpu.func` of its
    /// `gpu.module`s.
    pub fn new(ir: &Ir, module: OpId) -> RuntimeResult<Self> {
        let (kernels, signatures) = compile::compile_kernels(ir, module)?;
        let host = CompiledModule::with_kernels(ir, module, &signatures)?;
        tracing::debug!(kernels = kernels.len(), "compiled module for the GPU simulator");
        Ok(GpuModule { host, kernels, signatures })
    }

    /// The kernels, as `module::kernel`.
    pub fn kernel_names(&self) -> Vec<&str> {
        self.kernels.iter().map(|k| k.name.as_str()).collect()
    }

    /// The host functions.
    pub fn function_names(&self) -> Vec<&str> {
        self.host.function_names()
    }

    /// Calls host function `name` with `args` (buffers in `memory`), simulating every kernel it
    /// launches; returns its results and what the simulation did.
    pub fn call(
        &self,
        name: &str,
        args: &[Value],
        memory: &mut Memory,
        options: &SimOptions,
    ) -> RuntimeResult<(Vec<Value>, SimReport)> {
        self.call_named(name, args, memory, options, HashMap::new(), None)
    }

    /// [`GpuModule::call`], naming buffers (`handle → "field 'A'"`) in reports and errors, and
    /// telling `progress` after every block.
    fn call_named<'a>(
        &'a self,
        name: &str,
        args: &[Value],
        memory: &mut Memory,
        options: &'a SimOptions,
        host_names: HashMap<u32, String>,
        progress: Option<&'a mut (dyn FnMut(SimProgress) + 'a)>,
    ) -> RuntimeResult<(Vec<Value>, SimReport)> {
        let mut sim = launch::Simulator::new(&self.kernels, options, host_names).with_progress(progress);
        let results = self.host.call_with_launcher(name, args, memory, &mut sim)?;
        Ok((results, sim.report))
    }

    /// Launches kernel `kernel` (`module::kernel`) directly, without a host function: `grid`
    /// blocks of `block` threads, with `args` (checked against the kernel's signature).
    pub fn launch(
        &self,
        kernel: &str,
        grid: [i64; 3],
        block: [i64; 3],
        args: &[Value],
        memory: &mut Memory,
        options: &SimOptions,
    ) -> RuntimeResult<SimReport> {
        let sig = self.signatures.get(kernel).ok_or_else(|| RuntimeError::Entry {
            message: format!("no kernel {kernel} in the module (kernels: {})", self.kernel_names().join(", ")),
        })?;
        let k = &self.kernels[sig.index];
        if args.len() != k.arg_types.len() {
            return Err(RuntimeError::Signature {
                location: crate::error::Loc::new(&k.location),
                message: format!("{} takes {} arguments, {} given", k.symbol(), k.arg_types.len(), args.len()),
            });
        }
        let bits = args
            .iter()
            .zip(&k.arg_types)
            .enumerate()
            .map(|(i, (v, ty))| {
                crate::loops::encode(v, ty, memory).map_err(|why| RuntimeError::Signature {
                    location: crate::error::Loc::new(&k.location),
                    message: format!("argument #{i} of {} ({ty}): {why}", k.symbol()),
                })
            })
            .collect::<RuntimeResult<Vec<u64>>>()?;
        let mut sim = launch::Simulator::new(&self.kernels, options, HashMap::new());
        let site = Site { location: k.location.clone(), op: "gpu.launch_func".into() };
        sim.launch(sig.index, grid, block, &bits, memory, &site)?;
        Ok(sim.report)
    }
}

/// Compiles `module` and calls host function `entry` with `args`, simulating its launches.
pub fn simulate_module(
    module: &Module,
    entry: &str,
    args: &[Value],
    memory: &mut Memory,
    options: &SimOptions,
) -> RuntimeResult<(Vec<Value>, SimReport)> {
    GpuModule::new(&module.ir, module.top)?.call(entry, args, memory, options)
}

/// [`crate::run_module`] with kernel launches simulated: runs the lowered program `entry` (or
/// the module's only entry point) on `state`, following the lowered-program convention of
/// `docs/runtime.md`; the host function may launch kernels. A `stencil.program` entry runs
/// on the reference interpreter (it launches nothing). Fields are updated in place, also up
/// to the point of failure.
pub fn run_module_sim(
    module: &Module,
    entry: Option<&str>,
    state: &mut ProgramState,
    options: &SimOptions,
) -> RuntimeResult<SimRunStats> {
    run_module_sim_with_progress(module, entry, state, options, &mut |_| {})
}

/// [`run_module_sim`], telling `progress` after every simulated block (for a progress display;
/// [`count_launches`] gives the totals).
pub fn run_module_sim_with_progress(
    module: &Module,
    entry: Option<&str>,
    state: &mut ProgramState,
    options: &SimOptions,
    progress: &mut dyn FnMut(SimProgress),
) -> RuntimeResult<SimRunStats> {
    match find_entry(module, entry)? {
        Entry::Program(p) => {
            let run = CompiledProgram::new(&module.ir, p, &state.params)?.run(state)?;
            Ok(SimRunStats { run, sim: SimReport::default() })
        }
        Entry::Lowered(f) => {
            let mut report = SimReport::default();
            let start = Instant::now();
            let run: RunStats = run_lowered_with(
                module,
                f,
                state,
                GpuModule::new,
                |gpu, name, values, memory, handles: &[(String, MemRef)]| {
                    let names = handles.iter().map(|(n, h)| (h.0, format!("field '{n}'"))).collect();
                    let (_, r) = gpu.call_named(name, values, memory, options, names, Some(progress))?;
                    report = r;
                    Ok(())
                },
            )?;
            tracing::debug!(
                launches = report.launches.len(),
                races = report.race_count,
                seconds = start.elapsed().as_secs_f64(),
                "simulated lowered program"
            );
            Ok(SimRunStats { run, sim: report })
        }
    }
}

/// How many launches and blocks [`run_module_sim`] will simulate for `state`'s parameters,
/// found by running the host function with launches counted instead of simulated — cheap,
/// since the kernels do not run. The fields are zero-filled stand-ins (`state`'s fields are
/// neither needed nor touched): a host function whose control flow reads field values gets an
/// estimate. A `stencil.program` entry launches nothing.
pub fn count_launches(module: &Module, entry: Option<&str>, state: &ProgramState) -> RuntimeResult<LaunchCount> {
    let Entry::Lowered(f) = find_entry(module, entry)? else {
        return Ok(LaunchCount::default());
    };
    let interface = crate::entry::module_interface(module, entry, state)?;
    let mut stand_in =
        ProgramState { params: state.params.clone(), scalars: state.scalars.clone(), ..ProgramState::default() };
    for spec in &interface.fields {
        // Zeroed pages are not touched until written, so a stand-in of a large field is free.
        let n = crate::field::element_count(&spec.shape).unwrap_or(0);
        let values = match spec.element {
            crate::ElementType::F32 => crate::field::try_zeroed_vec(n).map(crate::FieldValues::F32),
            crate::ElementType::F64 => crate::field::try_zeroed_vec(n).map(crate::FieldValues::F64),
        }
        .ok_or_else(|| RuntimeError::InvalidData {
            message: format!("a field of shape {:?} does not fit in memory", spec.shape),
        })?;
        stand_in.fields.insert(spec.name.clone(), crate::FieldData { shape: spec.shape.clone(), values });
    }
    let mut counter = launch::LaunchCounter { count: LaunchCount::default() };
    run_lowered_with(module, f, &mut stand_in, GpuModule::new, |gpu, name, values, memory, _| {
        gpu.host.call_with_launcher(name, values, memory, &mut counter).map(|_| ())
    })?;
    Ok(counter.count)
}
