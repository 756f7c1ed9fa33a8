//! Execution of a compiled apply over its box: lexicographic order (or reverse), each point's
//! value stored before the next point runs, exactly as the C loop nest would.
//!
//! The written field is moved out of the field list for the duration of the apply, so it can
//! be written while the other fields are read through shared slices. Positions are kept per
//! stride group: fields of equal shape share one position, and a point's read at a constant
//! offset is `position + precomputed linear offset`.

use super::kernel::{ApplyKernel, AtAccess, FieldRef, KInsn, KReg, Preload, KERNEL_REGS};
use crate::error::{Loc, RuntimeError, RuntimeResult};
use crate::field::{ElementType, FieldValues};
use crate::scalar::{exec, Elem, Fault, Reg};

mod batch;

/// A float type fields can hold.
trait FieldElem: Elem {
    /// Moves the values out if the field holds this type.
    fn take(values: &mut FieldValues) -> Option<Vec<Self>>;
    /// Puts values back.
    fn put(values: &mut FieldValues, data: Vec<Self>);
}

impl FieldElem for f64 {
    fn take(values: &mut FieldValues) -> Option<Vec<Self>> {
        match values {
            FieldValues::F64(v) => Some(std::mem::take(v)),
            FieldValues::F32(_) => None,
        }
    }
    fn put(values: &mut FieldValues, data: Vec<Self>) {
        *values = FieldValues::F64(data);
    }
}

impl FieldElem for f32 {
    fn take(values: &mut FieldValues) -> Option<Vec<Self>> {
        match values {
            FieldValues::F32(v) => Some(std::mem::take(v)),
            FieldValues::F64(_) => None,
        }
    }
    fn put(values: &mut FieldValues, data: Vec<Self>) {
        *values = FieldValues::F32(data);
    }
}

/// Why an instruction stopped the sweep.
#[derive(Copy, Clone, Debug)]
enum InsnFault {
    /// A scalar fault.
    Scalar(Fault),
    /// A read outside its field.
    OutOfBounds,
}

/// A kernel register file: indexed by [`KReg`] without bounds checks.
pub(crate) type RegFile = [u64; KERNEL_REGS];

/// A zeroed register file.
pub(crate) fn new_reg_file() -> Box<RegFile> {
    vec![0u64; KERNEL_REGS].into_boxed_slice().try_into().unwrap_or_else(|_| Box::new([0; KERNEL_REGS]))
}

#[inline(always)]
fn f64r(regs: &RegFile, r: KReg) -> f64 {
    f64::from_reg(regs[usize::from(r)])
}

#[inline(always)]
fn f32r(regs: &RegFile, r: KReg) -> f32 {
    f32::from_reg(regs[usize::from(r)])
}

/// Run-time values an apply needs from around it.
pub(crate) struct ApplyInputs<'a> {
    /// Register encoding of each scalar argument.
    pub scalars: &'a [u64],
    /// Current value of each iterate induction variable.
    pub ivs: &'a [i64],
    /// Field names, for messages.
    pub field_names: &'a [String],
}

/// Runs `k` once over its box, updating `fields`; returns the number of points updated.
pub(crate) fn run_apply(
    k: &ApplyKernel,
    fields: &mut [FieldValues],
    inputs: &ApplyInputs<'_>,
    regs: &mut RegFile,
) -> RuntimeResult<u64> {
    let points = k.points();
    if points == 0 {
        return Ok(0);
    }
    for p in &k.preload {
        let (reg, bits) = match *p {
            Preload::Const { reg, bits } => (reg, bits),
            Preload::Scalar { reg, scalar } => (reg, inputs.scalars.get(scalar).copied().unwrap_or(0)),
            Preload::InductionVar { reg, iv } => (reg, inputs.ivs.get(iv).copied().unwrap_or(0) as u64),
        };
        regs[usize::from(reg as KReg)] = bits;
    }
    match k.element {
        ElementType::F64 => run_typed::<f64>(k, fields, inputs, regs)?,
        ElementType::F32 => run_typed::<f32>(k, fields, inputs, regs)?,
    }
    Ok(points)
}

fn run_typed<T: FieldElem>(
    k: &ApplyKernel,
    fields: &mut [FieldValues],
    inputs: &ApplyInputs<'_>,
    regs: &mut RegFile,
) -> RuntimeResult<()> {
    let mismatch = || RuntimeError::unsupported(&k.location, "field data does not match the program's element types");
    let mut written = fields.get_mut(k.written).and_then(T::take).ok_or_else(mismatch)?;
    let result = (|| {
        let f64s = k
            .f64_reads
            .iter()
            .map(|&f| match fields.get(f) {
                Some(FieldValues::F64(v)) => Ok(v.as_slice()),
                _ => Err(mismatch()),
            })
            .collect::<RuntimeResult<Vec<_>>>()?;
        let f32s = k
            .f32_reads
            .iter()
            .map(|&f| match fields.get(f) {
                Some(FieldValues::F32(v)) => Ok(v.as_slice()),
                _ => Err(mismatch()),
            })
            .collect::<RuntimeResult<Vec<_>>>()?;
        let lanes = if k.batchable { vec![0; k.num_regs * batch::LANES] } else { vec![] };
        let mut sweep = Sweep {
            k,
            written: &mut written,
            f64s,
            f32s,
            regs,
            lanes,
            coords: [0; 3],
            bases: vec![0; k.group_strides.len()],
        };
        sweep.run().map_err(|(in_prologue, i, fault)| sweep.error(in_prologue, i, fault, inputs))
    })();
    if let Some(f) = fields.get_mut(k.written) {
        T::put(f, written);
    }
    result
}

struct Sweep<'a, 'r, T> {
    k: &'a ApplyKernel,
    written: &'a mut [T],
    f64s: Vec<&'a [f64]>,
    f32s: Vec<&'a [f32]>,
    regs: &'r mut RegFile,
    /// Registers of row-batched execution: register `r`, lane `l` at `r * LANES + l`.
    lanes: Vec<u64>,
    /// The current point.
    coords: [i64; 3],
    /// Position of the current row's first element (coordinate 0 in the innermost
    /// dimension) in each stride group.
    bases: Vec<isize>,
}

/// (fault in the prologue?, instruction index, fault).
type SweepFault = (bool, usize, InsnFault);

impl<T: FieldElem> Sweep<'_, '_, T> {
    fn run(&mut self) -> Result<(), SweepFault> {
        for i in 0..self.k.prologue.len() {
            let insn = self.k.prologue[i];
            self.exec_insn(&insn, 0).map_err(|f| (true, i, f))?;
        }
        if self.k.batchable {
            self.broadcast_invariants();
        }
        let rank = self.k.lower.len();
        let inner = rank - 1;
        let (lower, upper, reverse) = (&self.k.lower, &self.k.upper, self.k.reverse);
        // Odometer over the outer dimensions.
        for d in 0..inner {
            self.coords[d] = if reverse { upper[d] - 1 } else { lower[d] };
        }
        loop {
            for (g, strides) in self.k.group_strides.iter().enumerate() {
                self.bases[g] = (0..inner).map(|d| self.coords[d] as isize * strides[d] as isize).sum();
            }
            let (lo, hi) = (lower[inner], upper[inner]);
            match (self.k.batchable, reverse) {
                (true, false) => {
                    let mut j = lo;
                    while j < hi {
                        let n = (hi - j).min(batch::LANES as i64);
                        self.chunk(j, n as usize)?;
                        j += n;
                    }
                }
                (true, true) => {
                    let mut j = hi;
                    while j > lo {
                        let n = (j - lo).min(batch::LANES as i64);
                        self.chunk(j - n, n as usize)?;
                        j -= n;
                    }
                }
                (false, false) => {
                    for j in lo..hi {
                        self.point(j)?;
                    }
                }
                (false, true) => {
                    for j in (lo..hi).rev() {
                        self.point(j)?;
                    }
                }
            }
            // Next row, lexicographically (or backwards).
            let mut d = inner;
            loop {
                if d == 0 {
                    return Ok(());
                }
                d -= 1;
                if reverse {
                    self.coords[d] -= 1;
                    if self.coords[d] >= lower[d] {
                        break;
                    }
                    self.coords[d] = upper[d] - 1;
                } else {
                    self.coords[d] += 1;
                    if self.coords[d] < upper[d] {
                        break;
                    }
                    self.coords[d] = lower[d];
                }
            }
        }
    }

    #[inline(always)]
    fn point(&mut self, j: i64) -> Result<(), SweepFault> {
        let inner = self.k.lower.len() - 1;
        self.coords[inner] = j;
        let jp = j as isize;
        let body = &self.k.body;
        for (i, insn) in body.iter().enumerate() {
            self.exec_insn(insn, jp).map_err(|f| (false, i, f))?;
        }
        let value = T::from_reg(self.regs[usize::from(self.k.result)]);
        match self.written.get_mut((self.bases[0] + jp) as usize) {
            Some(slot) => *slot = value,
            None => return Err((false, body.len(), InsnFault::OutOfBounds)),
        }
        Ok(())
    }

    #[inline(always)]
    fn exec_insn(&mut self, insn: &KInsn, jp: isize) -> Result<(), InsnFault> {
        let regs = &mut *self.regs;
        match *insn {
            KInsn::AddF64 { dst, a, b } => regs[usize::from(dst)] = (f64r(regs, a) + f64r(regs, b)).to_reg(),
            KInsn::SubF64 { dst, a, b } => regs[usize::from(dst)] = (f64r(regs, a) - f64r(regs, b)).to_reg(),
            KInsn::MulF64 { dst, a, b } => regs[usize::from(dst)] = (f64r(regs, a) * f64r(regs, b)).to_reg(),
            KInsn::DivF64 { dst, a, b } => regs[usize::from(dst)] = (f64r(regs, a) / f64r(regs, b)).to_reg(),
            KInsn::FmaF64 { dst, a, b, c } => {
                regs[usize::from(dst)] = f64r(regs, a).mul_add(f64r(regs, b), f64r(regs, c)).to_reg()
            }
            KInsn::AddF32 { dst, a, b } => regs[usize::from(dst)] = (f32r(regs, a) + f32r(regs, b)).to_reg(),
            KInsn::SubF32 { dst, a, b } => regs[usize::from(dst)] = (f32r(regs, a) - f32r(regs, b)).to_reg(),
            KInsn::MulF32 { dst, a, b } => regs[usize::from(dst)] = (f32r(regs, a) * f32r(regs, b)).to_reg(),
            KInsn::DivF32 { dst, a, b } => regs[usize::from(dst)] = (f32r(regs, a) / f32r(regs, b)).to_reg(),
            KInsn::FmaF32 { dst, a, b, c } => {
                regs[usize::from(dst)] = f32r(regs, a).mul_add(f32r(regs, b), f32r(regs, c)).to_reg()
            }
            KInsn::Op(ref op) => exec(op, &mut regs[..]).map_err(InsnFault::Scalar)?,
            KInsn::LoadWritten { dst, off } => {
                let v = self.written.get((self.bases[0] + jp + off) as usize).ok_or(InsnFault::OutOfBounds)?;
                regs[usize::from(dst)] = v.to_reg();
            }
            KInsn::LoadF64 { dst, slot, group, off } => {
                let pos = (self.bases[usize::from(group)] + jp + off) as usize;
                let v = self.f64s[usize::from(slot)].get(pos).ok_or(InsnFault::OutOfBounds)?;
                regs[usize::from(dst)] = v.to_reg();
            }
            KInsn::LoadF32 { dst, slot, group, off } => {
                let pos = (self.bases[usize::from(group)] + jp + off) as usize;
                let v = self.f32s[usize::from(slot)].get(pos).ok_or(InsnFault::OutOfBounds)?;
                regs[usize::from(dst)] = v.to_reg();
            }
            KInsn::LoadAt { dst, access } => {
                let a = &self.k.at_accesses[usize::from(access)];
                let pos = at_position(a, &regs[..]).ok_or(InsnFault::OutOfBounds)?;
                let v = match a.field {
                    FieldRef::Written => self.written.get(pos).map(|v| v.to_reg()),
                    FieldRef::F64(s) => self.f64s[usize::from(s)].get(pos).map(|v| v.to_reg()),
                    FieldRef::F32(s) => self.f32s[usize::from(s)].get(pos).map(|v| v.to_reg()),
                };
                regs[usize::from(dst)] = v.ok_or(InsnFault::OutOfBounds)?;
            }
            KInsn::Index { dst, dim } => regs[usize::from(dst)] = self.coords[usize::from(dim)] as u64,
        }
        Ok(())
    }

    /// The error for a fault of instruction `i`.
    fn error(&self, in_prologue: bool, i: usize, fault: InsnFault, inputs: &ApplyInputs<'_>) -> RuntimeError {
        let (insns, locs) =
            if in_prologue { (&self.k.prologue, &self.k.prologue_locs) } else { (&self.k.body, &self.k.body_locs) };
        let rank = self.k.lower.len();
        let point = self.coords[..rank].to_vec();
        let Some((insn, (location, op))) = insns.get(i).zip(locs.get(i)) else {
            return RuntimeError::OutOfBounds {
                location: Loc::new(&self.k.location),
                op: "stencil.apply".into(),
                index: point,
                shape: vec![],
                what: "the written field".into(),
            };
        };
        match fault {
            InsnFault::Scalar(f) if in_prologue => RuntimeError::undefined(
                location,
                op,
                format!(
                    "{} in @{} (a value the same at every point, computed once per sweep)",
                    f.message(),
                    self.k.name
                ),
            ),
            InsnFault::Scalar(f) => {
                RuntimeError::undefined(location, op, format!("{} at point {point:?} of @{}", f.message(), self.k.name))
            }
            InsnFault::OutOfBounds => {
                let (index, shape, name) = match insn {
                    KInsn::LoadAt { access, .. } => {
                        let a = &self.k.at_accesses[usize::from(*access)];
                        (at_index(a, &self.regs[..]), a.shape.clone(), a.field_name.clone())
                    }
                    KInsn::LoadF64 { slot, .. } => {
                        (point, vec![], field_name(inputs, self.k.f64_reads.get(usize::from(*slot))))
                    }
                    KInsn::LoadF32 { slot, .. } => {
                        (point, vec![], field_name(inputs, self.k.f32_reads.get(usize::from(*slot))))
                    }
                    _ => (point, vec![], field_name(inputs, Some(&self.k.written))),
                };
                RuntimeError::OutOfBounds {
                    location: Loc::new(location),
                    op: op.clone(),
                    index,
                    shape,
                    what: format!("field '{name}'"),
                }
            }
        }
    }
}

fn field_name(inputs: &ApplyInputs<'_>, field: Option<&usize>) -> String {
    field.and_then(|&f| inputs.field_names.get(f)).cloned().unwrap_or_default()
}

/// The multi-index of a general access for the current registers.
fn at_index(a: &AtAccess, regs: &[u64]) -> Vec<i64> {
    a.index
        .iter()
        .map(|(c, terms)| {
            terms
                .iter()
                .fold(*c, |acc, &(r, k): &(Reg, i64)| acc.wrapping_add((regs[r as usize] as i64).wrapping_mul(k)))
        })
        .collect()
}

/// The row-major position of a general access, `None` when outside the field.
#[inline]
fn at_position(a: &AtAccess, regs: &[u64]) -> Option<usize> {
    at_position_with(a, |r| regs[r as usize])
}

/// [`at_position`] with register values from `reg`.
#[inline]
fn at_position_with(a: &AtAccess, reg: impl Fn(Reg) -> u64) -> Option<usize> {
    let mut pos = 0usize;
    for ((c, terms), (&extent, &stride)) in a.index.iter().zip(a.shape.iter().zip(&a.strides)) {
        let i = terms.iter().fold(*c, |acc, &(r, k)| acc.wrapping_add((reg(r) as i64).wrapping_mul(k)));
        let i = usize::try_from(i).ok().filter(|&i| i < extent)?;
        pos += i * stride;
    }
    Some(pos)
}
