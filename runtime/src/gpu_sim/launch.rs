//! Launching a kernel: checking the configuration and arguments, then running the blocks one
//! after another and, within a block, every thread up to its next barrier in turn (one
//! *phase*), until all threads have returned. A block whose threads do not all stop at the
//! same barrier, or where some wait at a barrier that others returned without reaching, is a
//! divergent barrier: an error, never a hang.

use super::kernel::{Kernel, Special};
use super::options::{Order, RacePolicy, SimOptions};
use super::race::{Finding, RaceDetector, Rec, UnwrittenRead};
use super::report::{
    ids, place, AccessKind, LaunchCount, LaunchStats, MemorySpace, OpCount, RaceAccess, RaceReport, RaceScope,
    SimProgress, SimReport,
};
use super::sectors::Sectors;
use super::simt::SimtScratch;
use super::warp::{Entries, WarpCounter};
use crate::error::{Loc, RuntimeError, RuntimeResult};
use crate::loops::exec::KernelLauncher;
use crate::loops::steps::{Site, SiteId};
use crate::loops::{MemRef, Memory, Value};
use std::collections::HashMap;
use std::time::Instant;

/// The largest global buffer (in elements) the warp-synchronous run tracks under
/// [`RacePolicy::Ignore`]: 2²² elements, 240 MiB of shadow cells.
const IGNORED_SHADOW_ELEMENTS: usize = 1 << 22;

/// Where a buffer handle points during a launch; handles not listed are global memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum MemClass {
    Global,
    /// Workgroup attribution number `n` of the running block.
    Workgroup(usize),
    /// A private attribution or `memref.alloca` of one thread (never shared, not tracked).
    Private,
}

/// Merges races that differ only in the element and the threads involved.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct RaceKey {
    kernel: String,
    memory: String,
    sites: [(SiteId, AccessKind); 2],
    scope: RaceScope,
}

/// How a thread stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// At the `gpu.barrier` of this site.
    Barrier(SiteId),
    /// At the `gpu.return` of this site.
    Return(SiteId),
}

/// One thread of the running block.
#[derive(Debug)]
pub(super) struct Thread {
    /// Linear number in the launch: block number × threads per block + thread number.
    pub gtid: u32,
    pub block: [u32; 3],
    pub id: [u32; 3],
    /// Next instruction.
    pub pc: usize,
    /// Instructions executed so far in this launch.
    pub executed: u64,
    /// Where it stopped last (`None` before it first runs).
    pub stop: Option<Stop>,
    /// Its `memref.alloca` buffers, freed when it returns.
    pub allocas: Vec<MemRef>,
}

/// The simulator: runs the launches of one host call and keeps their report.
pub(crate) struct Simulator<'a> {
    kernels: &'a [Kernel],
    options: &'a SimOptions,
    pub report: SimReport,
    races: RaceDetector,
    classes: Vec<MemClass>,
    race_index: HashMap<RaceKey, usize>,
    /// The DRAM sectors of the running launch.
    sectors: Sectors,
    /// Names of host buffers (fields) for reports: `field 'A'`.
    host_names: HashMap<u32, String>,
    /// Told after every block (a progress display); blocks are the unit because a launch can
    /// take minutes on its own.
    progress: Option<&'a mut dyn FnMut(SimProgress)>,
    done: SimProgress,
}

impl<'a> Simulator<'a> {
    /// A simulator of `kernels`; `host_names` names buffers in race reports and errors.
    pub fn new(kernels: &'a [Kernel], options: &'a SimOptions, host_names: HashMap<u32, String>) -> Self {
        Simulator {
            kernels,
            options,
            report: SimReport::default(),
            races: RaceDetector::default(),
            classes: vec![],
            race_index: HashMap::new(),
            sectors: Sectors::default(),
            host_names,
            progress: None,
            done: SimProgress::default(),
        }
    }

    /// Reports progress to `progress` after every block.
    pub fn with_progress(mut self, progress: Option<&'a mut dyn FnMut(SimProgress)>) -> Self {
        self.progress = progress;
        self
    }
}

/// A launcher that only counts: what [`crate::gpu_sim::count_launches`] runs the host
/// function with.
pub(crate) struct LaunchCounter {
    pub count: LaunchCount,
}

impl KernelLauncher for LaunchCounter {
    fn launch(
        &mut self,
        _: usize,
        grid: [i64; 3],
        _: [i64; 3],
        _: &[u64],
        _: &mut Memory,
        _: &Site,
    ) -> RuntimeResult<()> {
        self.count.launches += 1;
        let blocks = grid.iter().map(|&g| u64::try_from(g).unwrap_or(0)).product::<u64>();
        self.count.blocks = self.count.blocks.saturating_add(blocks);
        Ok(())
    }
}

pub(super) fn delinearize(mut linear: u64, dims: [u32; 3]) -> [u32; 3] {
    let mut out = [0u32; 3];
    for (o, &d) in out.iter_mut().zip(&dims) {
        let d = u64::from(d.max(1));
        *o = (linear % d) as u32;
        linear /= d;
    }
    out
}

impl KernelLauncher for Simulator<'_> {
    fn launch(
        &mut self,
        kernel: usize,
        grid: [i64; 3],
        block: [i64; 3],
        args: &[u64],
        memory: &mut Memory,
        site: &Site,
    ) -> RuntimeResult<()> {
        let k = self.kernels.get(kernel).ok_or_else(|| {
            RuntimeError::unsupported(&site.location, format!("launches kernel #{kernel}, which does not exist"))
        })?;
        let bad = |message: String| RuntimeError::Launch { location: Loc::new(&site.location), message };
        let limits = &self.options.limits;
        let dims = |sizes: [i64; 3], what: &str, max: [u64; 3]| -> RuntimeResult<[u32; 3]> {
            let mut out = [0u32; 3];
            for (d, (&v, &m)) in sizes.iter().zip(&max).enumerate() {
                let axis = ["x", "y", "z"][d];
                if v < 1 {
                    return Err(bad(format!(
                        "launches {} with {what} size {v} along {axis}; every grid and block size must be at least 1",
                        k.symbol()
                    )));
                }
                if v as u64 > m {
                    return Err(bad(format!(
                        "launches {} with {what} size {v} along {axis}, above the device limit {m} (SimOptions::limits)",
                        k.symbol()
                    )));
                }
                out[d] = v as u32;
            }
            Ok(out)
        };
        let grid = dims(grid, "grid", limits.max_grid_dims)?;
        let block = dims(block, "block", limits.max_block_dims)?;
        if let Some(known) = k.known_block.filter(|known| known.iter().zip(&block).any(|(&a, &b)| a != u64::from(b))) {
            return Err(bad(format!(
                "launches {} with block {}, but the kernel was built for block {} (known_block_size)",
                k.symbol(),
                ids(&block),
                ids(&known.map(|v| u32::try_from(v).unwrap_or(u32::MAX)))
            )));
        }
        let tpb: u64 = block.iter().map(|&b| u64::from(b)).product();
        if tpb > limits.max_threads_per_block {
            return Err(bad(format!(
                "launches blocks of {tpb} threads {}, above the device limit of {} threads per block",
                ids(&block),
                limits.max_threads_per_block
            )));
        }
        let blocks: u64 = grid.iter().map(|&g| u64::from(g)).product();
        if blocks.saturating_mul(tpb) > u64::from(u32::MAX) {
            return Err(bad(format!(
                "launches {blocks} blocks of {tpb} threads, more than the simulator can number (2^32 threads)"
            )));
        }
        let wg_bytes = k.workgroup_bytes();
        if wg_bytes > limits.max_workgroup_bytes {
            return Err(bad(format!(
                "launches {} whose workgroup attributions take {wg_bytes} bytes per block, above the device limit of {} bytes",
                k.symbol(),
                limits.max_workgroup_bytes
            )));
        }
        if args.len() != k.args.len() {
            return Err(bad(format!(
                "passes {} arguments to {}, which takes {}",
                args.len(),
                k.symbol(),
                k.args.len()
            )));
        }
        let mut names: HashMap<u32, String> = HashMap::new();
        for (i, (&bits, ty)) in args.iter().zip(&k.arg_types).enumerate() {
            if ty.as_memref().is_none() {
                continue;
            }
            if crate::loops::memory::is_flat_view(bits) {
                return Err(bad(format!(
                    "cannot pass argument #{i} to {}: it is a view made by memref.reinterpret_cast outside the \
                     kernel, which the simulator does not pass to kernels (views made inside a kernel run)",
                    k.symbol()
                )));
            }
            let handle = MemRef(bits as u32);
            crate::loops::encode(&Value::MemRef(handle), ty, memory)
                .map_err(|why| bad(format!("cannot pass argument #{i} to {} ({ty}): {why}", k.symbol())))?;
            names.entry(bits as u32).or_insert_with(|| match self.host_names.get(&(bits as u32)) {
                Some(host) => format!("argument #{i} ({host})"),
                None => format!("argument #{i}"),
            });
        }

        let start = Instant::now();
        let number = self.report.launches.len();
        self.done.launches += 1;
        let mut stats =
            LaunchStats { kernel: k.name.clone(), grid, block, workgroup_bytes: wg_bytes, ..LaunchStats::default() };
        let mut template = vec![0u64; k.num_regs];
        for &(r, bits) in k.constants.iter() {
            template[r as usize] = bits;
        }
        for (&r, &bits) in k.args.iter().zip(args) {
            template[r as usize] = bits;
        }
        for &(r, special) in k.specials.iter() {
            match special {
                Special::BlockDim(d) => template[r as usize] = u64::from(block[d]),
                Special::GridDim(d) => template[r as usize] = u64::from(grid[d]),
                Special::ThreadId(_) | Special::BlockId(_) => {}
            }
        }
        // Under RacePolicy::Ignore, which promises no shadow memory, the warp-synchronous run
        // (which needs it to know when to fall back) is used only while the shadows stay
        // modest; larger buffers run thread by thread, as before.
        let shadows_modest = self.options.races != RacePolicy::Ignore
            || names.keys().all(|&h| memory.get(MemRef(h)).is_none_or(|b| b.len() <= IGNORED_SHADOW_ELEMENTS));
        self.races.begin_launch(tpb as u32);
        let mut run = LaunchRun {
            kernel: k,
            options: self.options,
            memory,
            classes: &mut self.classes,
            races: &mut self.races,
            report: &mut self.report,
            race_index: &mut self.race_index,
            sectors: &mut self.sectors,
            names,
            stats: &mut stats,
            grid,
            block,
            tpb: tpb as u32,
            launch: number,
            detect: self.options.races != RacePolicy::Ignore,
        };
        let mut frames = vec![0u64; k.num_regs * tpb as usize];
        let profile = self.options.profile;
        let mut simt = (k.simt.usable && shadows_modest).then(|| {
            let scratch = SimtScratch::new(k, tpb as usize);
            if profile {
                scratch.with_entries()
            } else {
                scratch
            }
        });
        let mut warps = WarpCounter::new(tpb as usize, &k.slot_weights);
        if profile {
            warps = warps.with_entries();
        }
        let mut result = Ok(());
        // Grids can be large: only a shuffled order is materialised.
        let shuffled = match self.options.block_order {
            Order::Shuffled { .. } => {
                let permutation = self.options.block_order.permutation(blocks as usize, number as u64);
                Some(permutation.ok_or_else(|| bad(format!("launches {blocks} blocks, too many to shuffle")))?)
            }
            Order::Forward | Order::Reverse => None,
        };
        for i in 0..blocks {
            let b = match (&shuffled, self.options.block_order) {
                (Some(p), _) => p[i as usize] as u64,
                (None, Order::Reverse) => blocks - 1 - i,
                (None, _) => i,
            };
            result = run.block(b, &mut frames, &template, &mut warps, simt.as_mut());
            if result.is_err() {
                break;
            }
            if let Some(progress) = self.progress.as_mut() {
                self.done.blocks += 1;
                progress(self.done);
            }
        }
        tracing::debug!(
            kernel = %k.name,
            grid = %ids(&grid),
            block = %ids(&block),
            barriers = stats.barriers,
            instructions = stats.instructions,
            warp_instructions = stats.warp_instructions,
            races = stats.races,
            seconds = start.elapsed().as_secs_f64(),
            "simulated launch"
        );
        (stats.dram_bytes_read, stats.dram_bytes_written) = self.sectors.take_bytes();
        if profile {
            let simt_entries = simt.as_mut().map(|s| s.take_entries(&k.simt)).unwrap_or_default();
            stats.profile = profile_of(k, &warps.take_entries(), &simt_entries);
        }
        self.report.launches.push(stats);
        result
    }
}

/// Where a launch's warp- and thread-instructions went (`SimOptions::profile`): each basic
/// block's entries (`slot_entries` per counting slot, from the thread-by-thread run;
/// `block_entries` per first instruction, from the warp-synchronous run), warps' and lanes',
/// times one for each counted instruction in it, summed per location of the op the
/// instruction was compiled from; the most warp-instructions first.
fn profile_of(
    k: &Kernel,
    slot_entries: &[Entries],
    block_entries: &[(usize, Entries)],
) -> Vec<(stencil_ir::Location, OpCount)> {
    let code: Vec<super::kernel::Insn> = k.code.iter().map(|(insn, _)| insn.clone()).collect();
    let leader = super::kernel::leaders(&code);
    let mut starts: Vec<(usize, Entries)> = k
        .code
        .iter()
        .enumerate()
        .filter_map(|(i, &(_, slot))| Some((i, *slot_entries.get(slot as usize)?)))
        .filter(|&(_, e)| e.warps > 0)
        .collect();
    starts.extend_from_slice(block_entries);
    let mut by_location: HashMap<&stencil_ir::Location, OpCount> = HashMap::new();
    for (start, entries) in starts {
        let end = (start + 1..=code.len()).find(|&j| leader[j]).unwrap_or(code.len());
        for (insn, location) in code[start..end].iter().zip(&k.locations[start..end]) {
            if super::warp::is_counted(insn) {
                let count = by_location.entry(location).or_default();
                count.warp_instructions += entries.warps;
                count.thread_instructions += entries.lanes;
            }
        }
    }
    let mut lines: Vec<(stencil_ir::Location, OpCount)> =
        by_location.into_iter().map(|(l, n)| (l.clone(), n)).collect();
    lines.sort_by(|a, b| {
        b.1.warp_instructions.cmp(&a.1.warp_instructions).then_with(|| a.0.file_position().cmp(&b.0.file_position()))
    });
    lines
}

/// Everything one launch works on.
pub(super) struct LaunchRun<'r> {
    pub kernel: &'r Kernel,
    pub options: &'r SimOptions,
    pub memory: &'r mut Memory,
    pub classes: &'r mut Vec<MemClass>,
    pub races: &'r mut RaceDetector,
    pub report: &'r mut SimReport,
    race_index: &'r mut HashMap<RaceKey, usize>,
    /// The DRAM sectors the launch has touched so far.
    pub sectors: &'r mut Sectors,
    /// Names of the global buffers passed to the kernel, by handle.
    names: HashMap<u32, String>,
    pub stats: &'r mut LaunchStats,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub tpb: u32,
    launch: usize,
    /// Whether accesses are checked for races.
    pub detect: bool,
}

impl LaunchRun<'_> {
    /// Where `handle` points.
    #[inline]
    pub fn class(&self, handle: u32) -> MemClass {
        self.classes.get(handle as usize).copied().unwrap_or(MemClass::Global)
    }

    pub(super) fn set_class(&mut self, m: MemRef, class: MemClass) {
        let h = m.0 as usize;
        if self.classes.len() <= h {
            self.classes.resize(h + 1, MemClass::Global);
        }
        self.classes[h] = class;
    }

    /// A thread-private buffer (private attribution or `memref.alloca`).
    pub fn alloc_private(&mut self, shape: Vec<usize>, kind: crate::scalar::ValueKind) -> Option<MemRef> {
        let m = self.memory.alloc(shape, kind)?;
        self.set_class(m, MemClass::Private);
        Some(m)
    }

    /// Frees a buffer made during the launch.
    pub fn free(&mut self, m: MemRef) {
        self.memory.free(m);
        self.set_class(m, MemClass::Global);
    }

    /// How errors and reports name the memory behind `handle`.
    pub fn memory_name(&self, handle: u32) -> String {
        match self.class(handle) {
            MemClass::Global => self.names.get(&handle).cloned().unwrap_or_else(|| "a global buffer".to_string()),
            MemClass::Workgroup(n) => format!("workgroup attribution #{n}"),
            MemClass::Private => "a private buffer".to_string(),
        }
    }

    fn ids_of(&self, gtid: u32) -> ([u32; 3], [u32; 3]) {
        let tpb = self.tpb.max(1);
        (delinearize(u64::from(gtid / tpb), self.grid), delinearize(u64::from(gtid % tpb), self.block))
    }

    /// Wraps an error raised by a thread with the kernel and the thread's position (a race
    /// report names both threads already).
    fn in_thread(&self, t: &Thread, e: RuntimeError) -> RuntimeError {
        match e {
            RuntimeError::DataRace { .. } => e,
            _ => RuntimeError::InKernel {
                kernel: self.kernel.symbol(),
                block: t.block,
                thread: t.id,
                source: Box::new(e),
            },
        }
    }

    /// The multi-dimensional index of element `pos` of buffer `handle`.
    fn element_index(&self, handle: u32, pos: usize) -> Vec<usize> {
        self.memory.get(MemRef(handle)).map_or_else(Vec::new, |b| {
            b.shape.iter().zip(&b.strides).map(|(&n, &s)| (pos / s.max(1)) % n.max(1)).collect()
        })
    }

    /// The error for a read of workgroup memory no thread of the block had written.
    fn unwritten(&self, u: UnwrittenRead) -> RuntimeError {
        let s = &self.kernel.sites[u.reader.site as usize];
        let (block, thread) = self.ids_of(u.reader.thread);
        let error = RuntimeError::undefined(
            &s.location,
            &s.op,
            format!(
                "reads element {:?} of {}, which no thread of the block has written (workgroup memory starts uninitialised on a GPU)",
                self.element_index(u.handle, u.pos),
                self.memory_name(u.handle)
            ),
        );
        RuntimeError::InKernel { kernel: self.kernel.symbol(), block, thread, source: Box::new(error) }
    }

    /// Handles what the race detector found at an access of `t` to element `pos` of `handle`.
    pub fn finding(
        &mut self,
        t: &Thread,
        finding: Finding,
        handle: u32,
        pos: usize,
        kind: AccessKind,
        site: SiteId,
    ) -> RuntimeResult<()> {
        let index = self.element_index(handle, pos);
        let memory = self.memory_name(handle);
        let s = &self.kernel.sites[site as usize];
        let Finding { earlier, earlier_kind, scope } = finding;
        let access = |run: &Self, r: Rec, kind: AccessKind| {
            let (block, thread) = run.ids_of(r.thread);
            let site = &run.kernel.sites[r.site as usize];
            RaceAccess { block, thread, kind, op: site.op.clone(), location: site.location.clone() }
        };
        let report = RaceReport {
            kernel: self.kernel.name.clone(),
            launch: self.launch,
            space: match self.class(handle) {
                MemClass::Workgroup(_) => MemorySpace::Workgroup,
                _ => MemorySpace::Global,
            },
            memory,
            index,
            scope,
            first: access(self, earlier, earlier_kind),
            second: access(self, Rec { thread: t.gtid, site, phase: 0 }, kind),
            occurrences: 1,
        };
        self.stats.races += 1;
        self.report.race_count += 1;
        if self.options.races == RacePolicy::Fail {
            return Err(RuntimeError::DataRace { location: Loc::new(&s.location), report: Box::new(report) });
        }
        let key = RaceKey {
            kernel: report.kernel.clone(),
            memory: report.memory.clone(),
            sites: [(earlier.site, earlier_kind), (site, kind)],
            scope,
        };
        match self.race_index.get(&key) {
            Some(&i) => self.report.races[i].occurrences += 1,
            None if self.report.races.len() < self.options.max_race_reports => {
                tracing::warn!(%report, "data race");
                self.race_index.insert(key, self.report.races.len());
                self.report.races.push(report);
            }
            None => {}
        }
        Ok(())
    }

    /// Runs block number `linear` to completion. `frames` holds one register frame per thread,
    /// `warps` the instruction counts of the warp model.
    fn block(
        &mut self,
        linear: u64,
        frames: &mut [u64],
        template: &[u64],
        warps: &mut WarpCounter,
        simt: Option<&mut SimtScratch>,
    ) -> RuntimeResult<()> {
        // Warp-synchronously first (`simt.rs`); thread by thread where that gives up, which
        // it does wherever this run would report anything.
        if let Some(s) = simt.filter(|_| super::simt::enabled()) {
            if self.block_simt(linear, template, s).is_ok() {
                return Ok(());
            }
            super::simt::fell_back();
        }
        let mut owned = vec![];
        let result = self.block_inner(linear, frames, template, warps, &mut owned);
        for m in owned {
            self.free(m);
        }
        result
    }

    fn block_inner(
        &mut self,
        linear: u64,
        frames: &mut [u64],
        template: &[u64],
        warps: &mut WarpCounter,
        owned: &mut Vec<MemRef>,
    ) -> RuntimeResult<()> {
        let k = self.kernel;
        let block_id = delinearize(linear, self.grid);
        self.races.begin_block();
        let no_memory = |what: &str| RuntimeError::Launch {
            location: Loc::new(&k.location),
            message: format!("cannot allocate the {what} attributions of {}", k.symbol()),
        };
        let mut workgroup = Vec::with_capacity(k.workgroup.len());
        for (n, a) in k.workgroup.iter().enumerate() {
            let m = self.memory.alloc(a.shape.clone(), a.kind).ok_or_else(|| no_memory("workgroup"))?;
            owned.push(m);
            self.set_class(m, MemClass::Workgroup(n));
            workgroup.push(m);
        }
        let n = self.tpb as usize;
        let num_regs = k.num_regs;
        let mut threads = Vec::with_capacity(n);
        for t in 0..n {
            let regs = &mut frames[t * num_regs..(t + 1) * num_regs];
            regs.copy_from_slice(template);
            let id = delinearize(t as u64, self.block);
            for &(r, special) in k.specials.iter() {
                match special {
                    Special::ThreadId(d) => regs[r as usize] = u64::from(id[d]),
                    Special::BlockId(d) => regs[r as usize] = u64::from(block_id[d]),
                    Special::BlockDim(_) | Special::GridDim(_) => {}
                }
            }
            for (a, m) in k.workgroup.iter().zip(&workgroup) {
                regs[a.reg as usize] = u64::from(m.0);
            }
            for a in k.private.iter() {
                let m = self.alloc_private(a.shape.clone(), a.kind).ok_or_else(|| no_memory("private"))?;
                owned.push(m);
                regs[a.reg as usize] = u64::from(m.0);
            }
            let gtid = (linear * u64::from(self.tpb) + t as u64) as u32;
            threads.push(Thread { gtid, block: block_id, id, pc: 0, executed: 0, stop: None, allocas: vec![] });
        }
        let result = self.phases(frames, &mut threads, warps);
        for t in threads.iter_mut() {
            owned.append(&mut t.allocas);
        }
        result
    }

    /// Runs the threads of a block phase by phase until all have returned; folds the warp
    /// model's counts at the end of every phase.
    fn phases(&mut self, frames: &mut [u64], threads: &mut [Thread], warps: &mut WarpCounter) -> RuntimeResult<()> {
        let k = self.kernel;
        let num_regs = k.num_regs;
        let (mut block_warp_instructions, mut block_barriers) = (0u64, 0u64);
        loop {
            self.races.begin_phase();
            let salt = self.stats.barriers ^ (u64::from(threads[0].gtid) << 20);
            let order =
                self.options.thread_order.permutation(threads.len(), salt).ok_or_else(|| RuntimeError::Launch {
                    location: Loc::new(&k.location),
                    message: format!("cannot order the {} threads of a block of {}", threads.len(), k.symbol()),
                })?;
            for t in order {
                let thread = &mut threads[t];
                if matches!(thread.stop, Some(Stop::Return(_))) {
                    continue;
                }
                let before = thread.executed;
                let regs = &mut frames[t * num_regs..(t + 1) * num_regs];
                let stop = self.run_thread(regs, thread, warps.lane());
                warps.end_thread(t);
                self.stats.instructions += thread.executed - before;
                thread.stop = Some(stop.map_err(|e| self.in_thread(thread, e))?);
            }
            let phase = warps.fold();
            self.stats.warp_instructions += phase.warp_instructions;
            self.stats.thread_instructions += phase.thread_instructions;
            block_warp_instructions += phase.warp_instructions;
            if let Some(u) = self.races.end_phase() {
                return Err(self.unwritten(u));
            }
            let waiting = threads.iter().find_map(|t| match t.stop {
                Some(Stop::Barrier(s)) => Some((t, s)),
                _ => None,
            });
            let Some((first, barrier)) = waiting else {
                let busiest = &mut self.stats.busiest_block_warp_instructions;
                *busiest = (*busiest).max(block_warp_instructions);
                let most = &mut self.stats.busiest_block_barriers;
                *most = (*most).max(block_barriers);
                return Ok(());
            };
            for t in threads.iter() {
                match t.stop {
                    Some(Stop::Barrier(s)) if s == barrier => {}
                    Some(Stop::Barrier(s)) => {
                        return Err(self.divergence(
                            barrier,
                            format!(
                                "divergent barrier in kernel {}, block {}: thread {} waits at this gpu.barrier while thread {} waits at the gpu.barrier at {}; all threads of a block must reach the same barriers in the same order",
                                k.symbol(),
                                ids(&first.block),
                                ids(&first.id),
                                ids(&t.id),
                                place(&k.sites[s as usize].location)
                            ),
                        ))
                    }
                    _ => {
                        let returned = match t.stop {
                            Some(Stop::Return(s)) => format!("returned at {}", place(&k.sites[s as usize].location)),
                            _ => "did not run".to_string(),
                        };
                        return Err(self.divergence(
                            barrier,
                            format!(
                                "divergent barrier in kernel {}, block {}: thread {} waits at this gpu.barrier, but thread {} {returned} without reaching it; a barrier must be reached by every thread of the block (not under a thread-dependent condition or trip count)",
                                k.symbol(),
                                ids(&first.block),
                                ids(&first.id),
                                ids(&t.id),
                            ),
                        ));
                    }
                }
            }
            self.stats.barriers += 1;
            block_barriers += 1;
        }
    }

    fn divergence(&self, barrier: SiteId, message: String) -> RuntimeError {
        RuntimeError::BarrierDivergence { location: Loc::new(&self.kernel.sites[barrier as usize].location), message }
    }
}
