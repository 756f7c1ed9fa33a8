//! Running one thread from its program counter until it reaches a barrier or returns.
//! Scalar instructions go to the executor both interpreters share; memory accesses are
//! bounds-checked against the buffer and, for global and workgroup memory, shown to the race
//! detector.

use super::kernel::Insn;
use super::launch::{LaunchRun, MemClass, Stop, Thread};
use super::race::{ShadowTooLarge, Tracked};
use super::report::AccessKind;
use super::warp::{Lane, NOT_COUNTED};
use crate::error::{Loc, RuntimeError, RuntimeResult};
use crate::loops::exec::{checked_position, flat_view_mismatch, index_values};
use crate::loops::memory::is_flat_view;
use crate::loops::steps::{Index, SiteId};
use crate::loops::MemRef;
use crate::scalar::{exec, sext, zext};

impl LaunchRun<'_> {
    fn undefined(&self, site: SiteId, message: impl Into<String>) -> RuntimeError {
        let s = &self.kernel.sites[site as usize];
        RuntimeError::undefined(&s.location, &s.op, message)
    }

    fn out_of_bounds(&self, handle: u32, flat: bool, index: &Index, regs: &[u64], site: SiteId) -> RuntimeError {
        let s = &self.kernel.sites[site as usize];
        RuntimeError::OutOfBounds {
            location: Loc::new(&s.location),
            op: s.op.clone(),
            index: index_values(index, regs),
            shape: self.memory.get(MemRef(handle)).map(|b| b.seen_shape(flat)).unwrap_or_default(),
            what: self.memory_name(handle),
        }
    }

    /// The element `index` selects in the buffer `regs[mem]` points to: handle, position,
    /// the buffer's length, and the element's current value.
    #[inline]
    fn element(&self, mem: u32, index: &Index, regs: &[u64], site: SiteId) -> RuntimeResult<(u32, usize, usize, u64)> {
        let (handle, flat) = (regs[mem as usize] as u32, is_flat_view(regs[mem as usize]));
        let Some(buffer) = self.memory.get(MemRef(handle)) else {
            return Err(self.undefined(site, "uses a buffer that was deallocated"));
        };
        match checked_position(buffer, flat, index, regs).and_then(|pos| Some((pos, buffer.read(pos)?))) {
            Some((pos, value)) => Ok((handle, pos, buffer.len(), value)),
            None => Err(self.out_of_bounds(handle, flat, index, regs, site)),
        }
    }

    /// Counts global traffic and checks an access for races.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn track(
        &mut self,
        t: &Thread,
        handle: u32,
        pos: usize,
        len: usize,
        kind: AccessKind,
        bytes: u32,
        site: SiteId,
    ) -> RuntimeResult<()> {
        let tracked = match self.class(handle) {
            MemClass::Private => return Ok(()),
            MemClass::Global => {
                match kind {
                    AccessKind::Read => {
                        self.stats.global_loads += 1;
                        self.stats.global_bytes_read += u64::from(bytes);
                    }
                    AccessKind::Write => {
                        self.stats.global_stores += 1;
                        self.stats.global_bytes_written += u64::from(bytes);
                    }
                }
                self.sectors.touch(handle, pos, bytes, kind == AccessKind::Write);
                Tracked::Global
            }
            MemClass::Workgroup(_) => {
                match kind {
                    AccessKind::Read => self.stats.workgroup_loads += 1,
                    AccessKind::Write => self.stats.workgroup_stores += 1,
                }
                Tracked::Workgroup
            }
        };
        if !self.detect {
            return Ok(());
        }
        match self.races.access(handle, len, pos, kind, tracked, t.gtid, site) {
            Ok(None) => Ok(()),
            Ok(Some(finding)) => self.finding(t, finding, handle, pos, kind, site),
            Err(ShadowTooLarge) => Err(self.undefined(
                site,
                format!(
                    "accesses {} of {len} elements, too large to track for races in this machine's memory (run with RacePolicy::Ignore)",
                    self.memory_name(handle)
                ),
            )),
        }
    }

    /// Runs thread `t` (registers `regs`) until it stops at a barrier or returns, counting
    /// the instructions it runs in `lane` for the warp model.
    pub(super) fn run_thread(&mut self, regs: &mut [u64], t: &mut Thread, mut lane: Lane<'_>) -> RuntimeResult<Stop> {
        let kernel = self.kernel;
        let code = &kernel.code;
        let budget = self.options.max_instructions_per_thread;
        let mut pc = t.pc;
        loop {
            // Only a basic block's first instruction has a slot: the warp model counts block
            // entries.
            let Some(&(ref insn, slot)) = code.get(pc) else {
                return Err(RuntimeError::unsupported(&kernel.location, "the kernel ends without gpu.return"));
            };
            if slot != NOT_COUNTED {
                lane.count(slot);
            }
            pc += 1;
            t.executed += 1;
            if t.executed > budget {
                let site = match insn {
                    Insn::Scalar { site, .. }
                    | Insn::Load { site, .. }
                    | Insn::Store { site, .. }
                    | Insn::Barrier { site }
                    | Insn::Return { site } => Some(*site),
                    _ => None,
                };
                let location = site.map_or(&kernel.location, |s| &kernel.sites[s as usize].location);
                return Err(RuntimeError::undefined(
                    location,
                    "gpu.func",
                    format!(
                        "ran more than {budget} instructions in one thread (an endless loop?); raise SimOptions::max_instructions_per_thread if that is expected"
                    ),
                ));
            }
            match insn {
                Insn::Scalar { insn, site } => {
                    exec(insn, regs).map_err(|fault| self.undefined(*site, fault.message()))?;
                }
                Insn::Load { dst, mem, index, bytes, site } => {
                    let (handle, pos, len, value) = self.element(*mem, index, regs, *site)?;
                    regs[*dst as usize] = value;
                    self.track(t, handle, pos, len, AccessKind::Read, *bytes, *site)?;
                }
                Insn::Store { value, mem, index, bytes, site } => {
                    let (handle, pos, len, _) = self.element(*mem, index, regs, *site)?;
                    let bits = regs[*value as usize];
                    if !self.memory.get_mut(MemRef(handle)).is_some_and(|b| b.write(pos, bits)) {
                        return Err(self.undefined(*site, "writes past the buffer"));
                    }
                    self.track(t, handle, pos, len, AccessKind::Write, *bytes, *site)?;
                }
                Insn::Apply { dst, map, fold, site } => {
                    let v = match fold {
                        None => map.eval(0, regs),
                        Some(max) => map.fold(0..map.results.len(), regs, *max),
                    };
                    regs[*dst as usize] =
                        v.ok_or_else(|| self.undefined(*site, "divides by zero or overflows"))? as u64;
                }
                Insn::Bound { dst, bound, lower, site } => {
                    let v = bound.map.fold(bound.range.clone(), regs, *lower);
                    regs[*dst as usize] =
                        v.ok_or_else(|| self.undefined(*site, "has a bound that divides by zero or overflows"))? as u64;
                }
                Insn::Alloca { dst, kind, shape, sizes, site } => {
                    let mut dynamic = sizes.iter();
                    let mut dims = Vec::with_capacity(shape.len());
                    for d in shape.iter() {
                        let n = match d {
                            Some(n) => *n,
                            None => {
                                let v = dynamic.next().map_or(0, |&r| regs[r as usize] as i64);
                                usize::try_from(v)
                                    .map_err(|_| self.undefined(*site, format!("allocates a negative size {v}")))?
                            }
                        };
                        dims.push(n);
                    }
                    let m = self.alloc_private(dims.clone(), *kind).ok_or_else(|| {
                        self.undefined(*site, format!("allocates a buffer of shape {dims:?}, which is too large"))
                    })?;
                    t.allocas.push(m);
                    regs[*dst as usize] = u64::from(m.0);
                }
                Insn::Dim { dst, mem, dim, site } => {
                    let buffer = self
                        .memory
                        .get(MemRef(regs[*mem as usize] as u32))
                        .ok_or_else(|| self.undefined(*site, "uses a buffer that was deallocated"))?;
                    let flat = is_flat_view(regs[*mem as usize]);
                    let d = regs[*dim as usize] as i64;
                    let n = usize::try_from(d).ok().and_then(|d| buffer.seen_dim(flat, d)).ok_or_else(|| {
                        let rank = buffer.seen_shape(flat).len();
                        self.undefined(*site, format!("asks for dimension {d} of a rank-{rank} buffer"))
                    })?;
                    regs[*dst as usize] = n as u64;
                }
                Insn::Cast { dst, src, shape, site } => {
                    let buffer = self
                        .memory
                        .get(MemRef(regs[*src as usize] as u32))
                        .ok_or_else(|| self.undefined(*site, "uses a buffer that was deallocated"))?;
                    let flat = is_flat_view(regs[*src as usize]);
                    if !buffer.seen_shape_fits(flat, shape) {
                        let seen = buffer.seen_shape(flat);
                        return Err(self.undefined(
                            *site,
                            format!("casts a buffer of shape {seen:?} to an incompatible static shape"),
                        ));
                    }
                    regs[*dst as usize] = regs[*src as usize];
                }
                Insn::FlatView { dst, src, size, site } => {
                    let buffer = self
                        .memory
                        .get(MemRef(regs[*src as usize] as u32))
                        .ok_or_else(|| self.undefined(*site, "uses a buffer that was deallocated"))?;
                    let size = size.value(|r| regs[r as usize]);
                    regs[*dst as usize] = buffer
                        .flat_view(regs[*src as usize], size)
                        .ok_or_else(|| self.undefined(*site, flat_view_mismatch(size, buffer.len())))?;
                }
                Insn::Move { dst, src } => regs[*dst as usize] = regs[*src as usize],
                Insn::CheckStep { step, site } => {
                    let s = regs[*step as usize] as i64;
                    if s <= 0 {
                        return Err(self.undefined(*site, format!("has step {s}; steps must be positive")));
                    }
                }
                Insn::LoopTest { counter, upper, iv, width, unsigned, exit } => {
                    let (c, ub) = (regs[*counter as usize] as i64, regs[*upper as usize] as i64);
                    let below = if *unsigned { zext(c, *width) < zext(ub, *width) } else { c < ub };
                    if below {
                        regs[*iv as usize] = sext(c, *width) as u64;
                    } else {
                        pc = *exit as usize;
                    }
                }
                Insn::LoopNext { counter, step, head, exit } => {
                    let c = regs[*counter as usize] as i64;
                    match c.checked_add(regs[*step as usize] as i64) {
                        Some(next) => {
                            regs[*counter as usize] = next as u64;
                            pc = *head as usize;
                        }
                        None => pc = *exit as usize,
                    }
                }
                Insn::Jump { target } => pc = *target as usize,
                Insn::BranchIfFalse { cond, target } => {
                    if regs[*cond as usize] == 0 {
                        pc = *target as usize;
                    }
                }
                Insn::BranchUnlessSet { set, target, site } => {
                    let holds = set
                        .contains(regs)
                        .ok_or_else(|| self.undefined(*site, "has a condition that divides by zero or overflows"))?;
                    if !holds {
                        pc = *target as usize;
                    }
                }
                Insn::Barrier { site } => {
                    t.pc = pc;
                    return Ok(Stop::Barrier(*site));
                }
                Insn::Return { site } => {
                    t.pc = pc - 1;
                    for m in std::mem::take(&mut t.allocas) {
                        self.free(m);
                    }
                    return Ok(Stop::Return(*site));
                }
            }
        }
    }
}
