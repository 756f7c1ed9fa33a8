//! Execution of compiled functions: one register frame per call, steps run in order,
//! structured control flow by recursion over the step tree, every memory access
//! bounds-checked (an out-of-bounds index is an error naming the op, never a panic).

use super::memory::{is_flat_view, Buffer, MemRef, Memory};
use super::steps::{AffineBound, Body, Cond, Function, Index, Loop, ReductionKind, Site, SiteId, Step};
use crate::error::{Loc, RuntimeError, RuntimeResult};
use crate::scalar::{exec, sext, zext, Elem, Reg, ValueKind};

/// Deepest call nesting allowed (deeper recursion is reported, not a stack overflow).
const MAX_CALL_DEPTH: usize = 64;

/// Runs the kernels that `gpu.launch_func` steps launch (the GPU simulator).
pub(crate) trait KernelLauncher {
    /// Runs kernel number `kernel` on a `grid` of `block`s with register-encoded `args`
    /// (buffer handles into `memory`); `site` is the launching op.
    fn launch(
        &mut self,
        kernel: usize,
        grid: [i64; 3],
        block: [i64; 3],
        args: &[u64],
        memory: &mut Memory,
        site: &Site,
    ) -> RuntimeResult<()>;
}

/// Runs functions of one module against one memory.
pub(crate) struct Machine<'m> {
    pub funcs: &'m [Function],
    pub memory: &'m mut Memory,
    depth: usize,
    /// Buffers from `memref.alloca`, freed when the allocating call returns.
    stack_buffers: Vec<MemRef>,
    /// Where `gpu.launch_func` goes (functions with launches only compile when one is given).
    launcher: Option<&'m mut dyn KernelLauncher>,
}

fn copy_regs(frame: &mut [u64], dsts: &[Reg], srcs: &[Reg]) {
    match (dsts, srcs) {
        ([], _) => {}
        ([d], [s]) => frame[*d as usize] = frame[*s as usize],
        _ => {
            let values: Vec<u64> = srcs.iter().map(|&s| frame[s as usize]).collect();
            for (&d, v) in dsts.iter().zip(values) {
                frame[d as usize] = v;
            }
        }
    }
}

impl<'m> Machine<'m> {
    /// A machine over `funcs` and `memory`.
    pub fn new(funcs: &'m [Function], memory: &'m mut Memory) -> Self {
        Machine { funcs, memory, depth: 0, stack_buffers: vec![], launcher: None }
    }

    /// A machine whose `gpu.launch_func` steps run on `launcher`.
    pub fn with_launcher(funcs: &'m [Function], memory: &'m mut Memory, launcher: &'m mut dyn KernelLauncher) -> Self {
        Machine { funcs, memory, depth: 0, stack_buffers: vec![], launcher: Some(launcher) }
    }

    /// Calls function `f` with register-encoded arguments; returns its results.
    pub fn call(&mut self, f: usize, args: &[u64], site: Option<(&Function, SiteId)>) -> RuntimeResult<Vec<u64>> {
        let funcs = self.funcs;
        let func = &funcs[f];
        if self.depth >= MAX_CALL_DEPTH {
            let location = site.map_or(&func.location, |(caller, s)| &caller.sites[s as usize].location);
            return Err(RuntimeError::undefined(
                location,
                "func.call",
                format!("nests calls more than {MAX_CALL_DEPTH} deep (unbounded recursion?)"),
            ));
        }
        let mut frame = vec![0u64; func.num_regs];
        for &(r, bits) in func.constants.iter() {
            frame[r as usize] = bits;
        }
        for (&r, &a) in func.args.iter().zip(args) {
            frame[r as usize] = a;
        }
        self.depth += 1;
        let mark = self.stack_buffers.len();
        let result = self.steps(func, &func.body.steps, &mut frame);
        for m in self.stack_buffers.drain(mark..) {
            self.memory.free(m);
        }
        self.depth -= 1;
        result?;
        Ok(func.body.yields.iter().map(|&r| frame[r as usize]).collect())
    }

    fn steps(&mut self, f: &'m Function, steps: &'m [Step], frame: &mut [u64]) -> RuntimeResult<()> {
        for step in steps {
            self.step(f, step, frame)?;
        }
        Ok(())
    }

    fn body(&mut self, f: &'m Function, body: &'m Body, frame: &mut [u64]) -> RuntimeResult<()> {
        self.steps(f, &body.steps, frame)
    }

    fn undefined(f: &Function, site: SiteId, message: impl Into<String>) -> RuntimeError {
        let s = &f.sites[site as usize];
        RuntimeError::undefined(&s.location, &s.op, message)
    }

    fn buffer(&self, f: &Function, frame: &[u64], mem: Reg, site: SiteId) -> RuntimeResult<&Buffer> {
        self.memory
            .get(MemRef(frame[mem as usize] as u32))
            .ok_or_else(|| Self::undefined(f, site, "uses a buffer that was deallocated"))
    }

    fn step(&mut self, f: &'m Function, step: &'m Step, frame: &mut [u64]) -> RuntimeResult<()> {
        match step {
            Step::Scalar { insn, site } => {
                exec(insn, frame).map_err(|fault| Self::undefined(f, *site, fault.message()))?;
            }
            Step::Load { dst, mem, index, site } => {
                let buffer = self.buffer(f, frame, *mem, *site)?;
                let pos = position(f, buffer, is_flat_view(frame[*mem as usize]), index, frame, *site)?;
                frame[*dst as usize] =
                    buffer.read(pos).ok_or_else(|| Self::undefined(f, *site, "reads past the buffer"))?;
            }
            Step::Store { value, mem, index, site } => {
                let bits = frame[*value as usize];
                let buffer = self.buffer(f, frame, *mem, *site)?;
                let pos = position(f, buffer, is_flat_view(frame[*mem as usize]), index, frame, *site)?;
                let handle = MemRef(frame[*mem as usize] as u32);
                let ok = self.memory.get_mut(handle).is_some_and(|b| b.write(pos, bits));
                if !ok {
                    return Err(Self::undefined(f, *site, "writes past the buffer"));
                }
            }
            Step::Apply { dst, map, fold, site } => {
                let v = match fold {
                    None => map.eval(0, frame),
                    Some(max) => map.fold(0..map.results.len(), frame, *max),
                };
                frame[*dst as usize] =
                    v.ok_or_else(|| Self::undefined(f, *site, "divides by zero or overflows"))? as u64;
            }
            Step::Alloc { dst, kind, shape, sizes, stack, site } => {
                let mut dynamic = sizes.iter();
                let mut dims = Vec::with_capacity(shape.len());
                for d in shape.iter() {
                    let n = match d {
                        Some(n) => *n,
                        None => {
                            let v = dynamic.next().map_or(0, |&r| frame[r as usize] as i64);
                            usize::try_from(v)
                                .map_err(|_| Self::undefined(f, *site, format!("allocates a negative size {v}")))?
                        }
                    };
                    dims.push(n);
                }
                let m = self.memory.alloc(dims.clone(), *kind).ok_or_else(|| {
                    Self::undefined(f, *site, format!("allocates a buffer of shape {dims:?}, which is too large"))
                })?;
                if *stack {
                    self.stack_buffers.push(m);
                }
                frame[*dst as usize] = u64::from(m.0);
            }
            Step::Dealloc { mem, site } => {
                if is_flat_view(frame[*mem as usize]) {
                    return Err(Self::undefined(
                        f,
                        *site,
                        "frees a view made by memref.reinterpret_cast, not a buffer",
                    ));
                }
                let m = MemRef(frame[*mem as usize] as u32);
                if self.memory.is_caller_owned(m) {
                    return Err(Self::undefined(
                        f,
                        *site,
                        "frees a field argument, which belongs to the caller: its results would be lost (a lowered program must leave its fields alive; docs/runtime.md)",
                    ));
                }
                if !self.memory.free(m) {
                    return Err(Self::undefined(f, *site, "frees a buffer that is not live (freed twice?)"));
                }
            }
            Step::Dim { dst, mem, dim, site } => {
                let buffer = self.buffer(f, frame, *mem, *site)?;
                let flat = is_flat_view(frame[*mem as usize]);
                let d = frame[*dim as usize] as i64;
                let n = usize::try_from(d).ok().and_then(|d| buffer.seen_dim(flat, d)).ok_or_else(|| {
                    let rank = buffer.seen_shape(flat).len();
                    Self::undefined(f, *site, format!("asks for dimension {d} of a rank-{rank} buffer"))
                })?;
                frame[*dst as usize] = n as u64;
            }
            Step::Copy { src, dst, site } => {
                if is_flat_view(frame[*src as usize]) || is_flat_view(frame[*dst as usize]) {
                    let s = &f.sites[*site as usize];
                    return Err(RuntimeError::unsupported(
                        &s.location,
                        format!(
                            "'{}' copies through a view made by memref.reinterpret_cast, which the interpreter does \
                             not run",
                            s.op
                        ),
                    ));
                }
                let (s, d) = (MemRef(frame[*src as usize] as u32), MemRef(frame[*dst as usize] as u32));
                if s == d {
                    self.buffer(f, frame, *src, *site)?;
                    return Ok(());
                }
                let (from, to) = self
                    .memory
                    .pair_mut(s, d)
                    .ok_or_else(|| Self::undefined(f, *site, "uses a buffer that was deallocated"))?;
                if from.shape != to.shape {
                    return Err(Self::undefined(
                        f,
                        *site,
                        format!("copies a buffer of shape {:?} into one of shape {:?}", from.shape, to.shape),
                    ));
                }
                if !copy_data(from, to) {
                    return Err(Self::undefined(f, *site, "copies between buffers of different element types"));
                }
            }
            Step::Cast { dst, src, shape, site } => {
                let buffer = self.buffer(f, frame, *src, *site)?;
                let flat = is_flat_view(frame[*src as usize]);
                if !buffer.seen_shape_fits(flat, shape) {
                    let seen = buffer.seen_shape(flat);
                    return Err(Self::undefined(
                        f,
                        *site,
                        format!("casts a buffer of shape {seen:?} to an incompatible static shape"),
                    ));
                }
                frame[*dst as usize] = frame[*src as usize];
            }
            Step::FlatView { dst, src, size, site } => {
                let buffer = self.buffer(f, frame, *src, *site)?;
                let size = size.value(|r| frame[r as usize]);
                frame[*dst as usize] = buffer
                    .flat_view(frame[*src as usize], size)
                    .ok_or_else(|| Self::undefined(f, *site, flat_view_mismatch(size, buffer.len())))?;
            }
            Step::For { lower, upper, step, unsigned, lp, site } => {
                let (lb, ub, st) =
                    (frame[*lower as usize] as i64, frame[*upper as usize] as i64, frame[*step as usize] as i64);
                if st <= 0 {
                    return Err(Self::undefined(f, *site, format!("has step {st}; steps must be positive")));
                }
                let below = |iv: i64| if *unsigned { zext(iv, lp.width) < zext(ub, lp.width) } else { iv < ub };
                self.run_loop(f, lp, frame, lb, st, below)?;
            }
            Step::AffineFor { lower, upper, step, lp, site } => {
                let lb = bound(f, lower, frame, true, *site)?;
                let ub = bound(f, upper, frame, false, *site)?;
                self.run_loop(f, lp, frame, lb, *step, |iv| iv < ub)?;
            }
            Step::If { cond, then_body, else_body, results, site } => {
                let taken = match cond {
                    Cond::Reg(r) => frame[*r as usize] != 0,
                    Cond::Set(set) => set.contains(frame).ok_or_else(|| {
                        Self::undefined(f, *site, "has a condition that divides by zero or overflows")
                    })?,
                };
                let body = if taken { then_body } else { else_body };
                self.body(f, body, frame)?;
                copy_regs(frame, results, &body.yields);
            }
            Step::Parallel { lowers, uppers, steps, ivs, inits, reducers, body, results, site } => {
                let get = |regs: &[Reg]| regs.iter().map(|&r| frame[r as usize] as i64).collect::<Vec<i64>>();
                let (lbs, ubs, sts) = (get(lowers), get(uppers), get(steps));
                if let Some(s) = sts.iter().find(|&&s| s <= 0) {
                    return Err(Self::undefined(f, *site, format!("has step {s}; steps must be positive")));
                }
                let mut acc: Vec<u64> = inits.iter().map(|&r| frame[r as usize]).collect();
                self.odometer(&lbs, &ubs, &sts, |m, point| {
                    for (&iv, &v) in ivs.iter().zip(point) {
                        frame[iv as usize] = v as u64;
                    }
                    m.body(f, body, frame)?;
                    for (a, r) in acc.iter_mut().zip(reducers.iter()) {
                        frame[r.lhs as usize] = *a;
                        frame[r.rhs as usize] = frame[r.operand as usize];
                        m.body(f, &r.body, frame)?;
                        *a = frame[r.body.yields[0] as usize];
                    }
                    Ok(())
                })?;
                for (&r, a) in results.iter().zip(acc) {
                    frame[r as usize] = a;
                }
            }
            Step::AffineParallel { lowers, uppers, steps, ivs, reductions, body, results, site } => {
                let lbs = lowers.iter().map(|b| bound(f, b, frame, true, *site)).collect::<RuntimeResult<Vec<_>>>()?;
                let ubs = uppers.iter().map(|b| bound(f, b, frame, false, *site)).collect::<RuntimeResult<Vec<_>>>()?;
                let mut acc: Vec<u64> = reductions.iter().map(|&(k, vk)| identity(k, vk)).collect();
                self.odometer(&lbs, &ubs, steps, |m, point| {
                    for (&iv, &v) in ivs.iter().zip(point) {
                        frame[iv as usize] = v as u64;
                    }
                    m.body(f, body, frame)?;
                    for ((a, &(k, vk)), &y) in acc.iter_mut().zip(reductions.iter()).zip(body.yields.iter()) {
                        *a = combine(k, vk, *a, frame[y as usize]);
                    }
                    Ok(())
                })?;
                for (&r, a) in results.iter().zip(acc) {
                    frame[r as usize] = a;
                }
            }
            Step::While { inits, before_args, before, after_args, after, results } => {
                copy_regs(frame, before_args, inits);
                loop {
                    self.body(f, before, frame)?;
                    let (cond, forwarded) = before.yields.split_first().map_or((0, &[][..]), |(c, rest)| (*c, rest));
                    if frame[cond as usize] == 0 {
                        copy_regs(frame, results, forwarded);
                        break;
                    }
                    copy_regs(frame, after_args, forwarded);
                    self.body(f, after, frame)?;
                    copy_regs(frame, before_args, &after.yields);
                }
            }
            Step::Launch { kernel, grid, block, args, site } => {
                let sizes = |regs: &[Reg; 3]| regs.map(|r| frame[r as usize] as i64);
                let values: Vec<u64> = args.iter().map(|&r| frame[r as usize]).collect();
                let s = &f.sites[*site as usize];
                let launcher = self.launcher.as_deref_mut().ok_or_else(|| {
                    RuntimeError::unsupported(&s.location, "'gpu.launch_func' needs the GPU simulator to run")
                })?;
                launcher.launch(*kernel, sizes(grid), sizes(block), &values, self.memory, s)?;
            }
            Step::Call { func, args, results, site } => {
                let values: Vec<u64> = args.iter().map(|&r| frame[r as usize]).collect();
                let out = self.call(*func, &values, Some((f, *site)))?;
                for (&r, v) in results.iter().zip(out) {
                    frame[r as usize] = v;
                }
            }
        }
        Ok(())
    }

    /// Runs a `for` loop from `lb` by `step` while `below(iv)`, with loop-carried values.
    fn run_loop(
        &mut self,
        f: &'m Function,
        lp: &'m Loop,
        frame: &mut [u64],
        lb: i64,
        step: i64,
        below: impl Fn(i64) -> bool,
    ) -> RuntimeResult<()> {
        copy_regs(frame, &lp.iter_args, &lp.inits);
        let mut iv = lb;
        while below(iv) {
            frame[lp.iv as usize] = sext(iv, lp.width) as u64;
            self.body(f, &lp.body, frame)?;
            copy_regs(frame, &lp.iter_args, &lp.body.yields);
            match iv.checked_add(step) {
                Some(next) => iv = next,
                None => break,
            }
        }
        copy_regs(frame, &lp.results, &lp.iter_args);
        Ok(())
    }

    /// Calls `visit` for every point of the box `[lbs, ubs)` with `steps`, lexicographically.
    fn odometer(
        &mut self,
        lbs: &[i64],
        ubs: &[i64],
        steps: &[i64],
        mut visit: impl FnMut(&mut Self, &[i64]) -> RuntimeResult<()>,
    ) -> RuntimeResult<()> {
        if lbs.iter().zip(ubs).any(|(l, u)| l >= u) {
            return Ok(());
        }
        let mut point = lbs.to_vec();
        loop {
            visit(self, &point)?;
            let mut d = point.len();
            loop {
                if d == 0 {
                    return Ok(());
                }
                d -= 1;
                match point[d].checked_add(steps[d]) {
                    Some(next) if next < ubs[d] => {
                        point[d] = next;
                        break;
                    }
                    _ => point[d] = lbs[d],
                }
            }
        }
    }
}

/// Lower (max) or upper (min) bound of an affine loop.
fn bound(f: &Function, b: &AffineBound, frame: &[u64], lower: bool, site: SiteId) -> RuntimeResult<i64> {
    b.map.fold(b.range.clone(), frame, lower).ok_or_else(|| {
        let s = &f.sites[site as usize];
        RuntimeError::undefined(&s.location, &s.op, "has a bound that divides by zero or overflows")
    })
}

/// The row-major position of an access, with every index checked against the shape.
#[inline]
fn position(
    f: &Function,
    buffer: &Buffer,
    flat: bool,
    index: &Index,
    frame: &[u64],
    site: SiteId,
) -> RuntimeResult<usize> {
    checked_position(buffer, flat, index, frame).ok_or_else(|| {
        let s = &f.sites[site as usize];
        RuntimeError::OutOfBounds {
            location: Loc::new(&s.location),
            op: s.op.clone(),
            index: index_values(index, frame),
            shape: buffer.seen_shape(flat),
            what: "a memref".into(),
        }
    })
}

/// The row-major position of an access through a memref register that is `flat` or not
/// ([`super::memory::FLAT_VIEW`]); `None` when an index is outside the shape seen (or the index
/// has the wrong rank, or its map cannot be evaluated).
#[inline]
pub(crate) fn checked_position(buffer: &Buffer, flat: bool, index: &Index, frame: &[u64]) -> Option<usize> {
    match index {
        Index::Regs(regs) => buffer.position(flat, regs.len(), |d| regs.get(d).map(|&r| frame[r as usize] as i64)),
        Index::Map(map) => buffer.position(flat, map.results.len(), |d| map.eval(d, frame)),
    }
}

/// Why a `memref.reinterpret_cast` to `size` elements of a buffer of `len` elements does not
/// run: the simulators run flat views of whole buffers only.
pub(crate) fn flat_view_mismatch(size: i64, len: usize) -> String {
    format!(
        "views a buffer of {len} elements as {size}: the simulator runs memref.reinterpret_cast only as a flat \
         view of a whole buffer (offset 0, one size equal to its element count, stride 1)"
    )
}

/// The index an access asks for, for error messages (`i64::MIN` where a map cannot be
/// evaluated).
pub(crate) fn index_values(index: &Index, frame: &[u64]) -> Vec<i64> {
    match index {
        Index::Regs(regs) => regs.iter().map(|&r| frame[r as usize] as i64).collect(),
        Index::Map(map) => (0..map.results.len()).map(|d| map.eval(d, frame).unwrap_or(i64::MIN)).collect(),
    }
}

fn copy_data(from: &Buffer, to: &mut Buffer) -> bool {
    use super::memory::BufferData::*;
    let n = match (&from.data, &mut to.data) {
        (F32(a), F32(b)) => {
            b.copy_from_slice(a);
            a.len()
        }
        (F64(a), F64(b)) => {
            b.copy_from_slice(a);
            a.len()
        }
        (Int(a), Int(b)) => {
            b.copy_from_slice(a);
            a.len()
        }
        _ => return false,
    };
    to.stores += n as u64;
    true
}

/// The neutral element of a reduction (MLIR's `arith::getIdentityValue`).
fn identity(kind: ReductionKind, vk: ValueKind) -> u64 {
    let float = |v: f64| match vk {
        ValueKind::F32 => (v as f32).to_reg(),
        _ => v.to_reg(),
    };
    let w = match vk {
        ValueKind::Int(w) => w,
        _ => 64,
    };
    match kind {
        ReductionKind::AddF => float(-0.0),
        ReductionKind::MulF => float(1.0),
        ReductionKind::MaximumF => float(f64::NEG_INFINITY),
        ReductionKind::MinimumF => float(f64::INFINITY),
        ReductionKind::MaxNumF | ReductionKind::MinNumF => float(f64::NAN),
        ReductionKind::MulI => 1,
        ReductionKind::AndI | ReductionKind::MinU => u64::MAX,
        ReductionKind::MaxS => sext(1i64 << (w - 1), w) as u64,
        ReductionKind::MinS => (sext(1i64 << (w - 1), w) as u64) ^ u64::MAX,
        ReductionKind::AddI
        | ReductionKind::OrI
        | ReductionKind::XorI
        | ReductionKind::MaxU
        | ReductionKind::Assign => 0,
    }
}

/// Combines an accumulator with a value.
fn combine(kind: ReductionKind, vk: ValueKind, acc: u64, v: u64) -> u64 {
    use crate::scalar::semantics::{ibin, FBinOp, Float, IBinOp};
    fn fl<T: Float>(kind: ReductionKind, a: u64, b: u64) -> u64 {
        let (a, b) = (T::from_reg(a), T::from_reg(b));
        let r = match kind {
            ReductionKind::AddF => a + b,
            ReductionKind::MulF => a * b,
            ReductionKind::MaximumF => a.binary(FBinOp::Maximum, b),
            ReductionKind::MinimumF => a.binary(FBinOp::Minimum, b),
            ReductionKind::MaxNumF => a.binary(FBinOp::MaxNum, b),
            ReductionKind::MinNumF => a.binary(FBinOp::MinNum, b),
            _ => b,
        };
        r.to_reg()
    }
    if kind == ReductionKind::Assign {
        return v;
    }
    match vk {
        ValueKind::F32 => fl::<f32>(kind, acc, v),
        ValueKind::F64 => fl::<f64>(kind, acc, v),
        ValueKind::Int(w) => {
            let op = match kind {
                ReductionKind::AddI => IBinOp::Add,
                ReductionKind::MulI => IBinOp::Mul,
                ReductionKind::AndI => IBinOp::And,
                ReductionKind::OrI => IBinOp::Or,
                ReductionKind::XorI => IBinOp::Xor,
                ReductionKind::MaxS => IBinOp::MaxS,
                ReductionKind::MinS => IBinOp::MinS,
                ReductionKind::MaxU => IBinOp::MaxU,
                ReductionKind::MinU => IBinOp::MinU,
                _ => return v,
            };
            ibin(op, acc as i64, v as i64, w).unwrap_or(0) as u64
        }
        ValueKind::MemRef => v,
    }
}
