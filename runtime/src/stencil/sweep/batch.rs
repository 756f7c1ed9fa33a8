//! Row-batched execution: a chunk of up to [`LANES`] consecutive points of a row runs
//! instruction by instruction, each register holding one value per point, so the common
//! float operations become loops over contiguous lanes that the compiler vectorises.
//!
//! Exact only when no point reads what an earlier point of the same chunk wrote: all reads
//! of a chunk happen before its stores. The kernel compiler clears `batchable` for applies
//! with such an in-row flow dependence (SOR's west neighbour); reads of values written by
//! later points see the old value in both orders of execution.

use super::{FieldElem, InsnFault, Sweep, SweepFault};
use crate::scalar::{exec, Elem, Reg, Regs};
use crate::stencil::kernel::{FieldRef, KInsn, KReg};

/// Points per chunk.
pub(super) const LANES: usize = 128;

/// One lane of the batched registers, as a scalar register file.
struct Lane<'a> {
    lanes: &'a mut [u64],
    lane: usize,
}

impl Regs for Lane<'_> {
    #[inline(always)]
    fn get(&self, r: Reg) -> u64 {
        self.lanes[r as usize * LANES + self.lane]
    }
    #[inline(always)]
    fn set(&mut self, r: Reg, v: u64) {
        self.lanes[r as usize * LANES + self.lane] = v;
    }
}

#[inline(always)]
fn f64_op(f: impl Fn(f64, f64) -> f64) -> impl Fn(u64, u64) -> u64 {
    move |x, y| f(f64::from_reg(x), f64::from_reg(y)).to_reg()
}

#[inline(always)]
fn f32_op(f: impl Fn(f32, f32) -> f32) -> impl Fn(u64, u64) -> u64 {
    move |x, y| f(f32::from_reg(x), f32::from_reg(y)).to_reg()
}

/// `dst[k] = f(a[k], b[k])` over `n` lanes. Registers are numbered in definition order, so a
/// result's register follows its operands' and the slices are disjoint.
#[inline(always)]
fn binary(lanes: &mut [u64], n: usize, dst: KReg, a: KReg, b: KReg, f: impl Fn(u64, u64) -> u64) {
    let (d, a, b) = (usize::from(dst), usize::from(a), usize::from(b));
    if a < d && b < d {
        let (lo, hi) = lanes.split_at_mut(d * LANES);
        let (x, y) = (&lo[a * LANES..][..n], &lo[b * LANES..][..n]);
        for ((o, &x), &y) in hi[..n].iter_mut().zip(x).zip(y) {
            *o = f(x, y);
        }
    } else {
        for k in 0..n {
            lanes[d * LANES + k] = f(lanes[a * LANES + k], lanes[b * LANES + k]);
        }
    }
}

/// `dst[k] = a[k] * b[k] + c[k]`, fused, over `n` lanes.
#[inline(always)]
fn fma<T: Elem + FusedMulAdd>(lanes: &mut [u64], n: usize, dst: KReg, a: KReg, b: KReg, c: KReg) {
    let (d, a, b, c) = (usize::from(dst), usize::from(a), usize::from(b), usize::from(c));
    for k in 0..n {
        let v = T::from_reg(lanes[a * LANES + k])
            .fused(T::from_reg(lanes[b * LANES + k]), T::from_reg(lanes[c * LANES + k]));
        lanes[d * LANES + k] = v.to_reg();
    }
}

/// `mul_add` for both float formats.
trait FusedMulAdd {
    fn fused(self, b: Self, c: Self) -> Self;
}

impl FusedMulAdd for f64 {
    #[inline(always)]
    fn fused(self, b: Self, c: Self) -> Self {
        self.mul_add(b, c)
    }
}

impl FusedMulAdd for f32 {
    #[inline(always)]
    fn fused(self, b: Self, c: Self) -> Self {
        self.mul_add(b, c)
    }
}

/// Copies field values into a register's lanes.
#[inline(always)]
fn load<E: Elem>(lanes: &mut [u64], dst: KReg, src: &[E]) {
    for (o, s) in lanes[usize::from(dst) * LANES..][..src.len()].iter_mut().zip(src) {
        *o = s.to_reg();
    }
}

impl<T: FieldElem> Sweep<'_, '_, T> {
    /// Fills every lane of each invariant register with its value.
    pub(super) fn broadcast_invariants(&mut self) {
        for &r in &self.k.invariant_regs {
            let v = self.regs[usize::from(r)];
            self.lanes[usize::from(r) * LANES..][..LANES].fill(v);
        }
    }

    /// Runs points `j0 .. j0 + n` of the current row (`n <= LANES`).
    pub(super) fn chunk(&mut self, j0: i64, n: usize) -> Result<(), SweepFault> {
        let k = self.k;
        let inner = k.lower.len() - 1;
        for (i, insn) in k.body.iter().enumerate() {
            if let Err((lane, fault)) = self.chunk_insn(insn, j0, n) {
                self.coords[inner] = j0 + lane as i64;
                return Err((false, i, fault));
            }
        }
        let start = (self.bases[0] + j0 as isize) as usize;
        let Some(out) = self.written.get_mut(start..start + n) else {
            self.coords[inner] = j0;
            return Err((false, k.body.len(), InsnFault::OutOfBounds));
        };
        for (o, &v) in out.iter_mut().zip(&self.lanes[usize::from(k.result) * LANES..][..n]) {
            *o = T::from_reg(v);
        }
        Ok(())
    }

    fn chunk_insn(&mut self, insn: &KInsn, j0: i64, n: usize) -> Result<(), (usize, InsnFault)> {
        let jp = j0 as isize;
        let lanes = &mut self.lanes[..];
        match *insn {
            KInsn::AddF64 { dst, a, b } => binary(lanes, n, dst, a, b, f64_op(|x, y| x + y)),
            KInsn::SubF64 { dst, a, b } => binary(lanes, n, dst, a, b, f64_op(|x, y| x - y)),
            KInsn::MulF64 { dst, a, b } => binary(lanes, n, dst, a, b, f64_op(|x, y| x * y)),
            KInsn::DivF64 { dst, a, b } => binary(lanes, n, dst, a, b, f64_op(|x, y| x / y)),
            KInsn::FmaF64 { dst, a, b, c } => fma::<f64>(lanes, n, dst, a, b, c),
            KInsn::AddF32 { dst, a, b } => binary(lanes, n, dst, a, b, f32_op(|x, y| x + y)),
            KInsn::SubF32 { dst, a, b } => binary(lanes, n, dst, a, b, f32_op(|x, y| x - y)),
            KInsn::MulF32 { dst, a, b } => binary(lanes, n, dst, a, b, f32_op(|x, y| x * y)),
            KInsn::DivF32 { dst, a, b } => binary(lanes, n, dst, a, b, f32_op(|x, y| x / y)),
            KInsn::FmaF32 { dst, a, b, c } => fma::<f32>(lanes, n, dst, a, b, c),
            KInsn::Op(ref op) => {
                for lane in 0..n {
                    exec(op, &mut Lane { lanes: &mut *lanes, lane }).map_err(|f| (lane, InsnFault::Scalar(f)))?;
                }
            }
            KInsn::LoadWritten { dst, off } => {
                let start = (self.bases[0] + jp + off) as usize;
                let src = self.written.get(start..start + n).ok_or((0, InsnFault::OutOfBounds))?;
                load(lanes, dst, src);
            }
            KInsn::LoadF64 { dst, slot, group, off } => {
                let start = (self.bases[usize::from(group)] + jp + off) as usize;
                let src = self.f64s[usize::from(slot)].get(start..start + n).ok_or((0, InsnFault::OutOfBounds))?;
                load(lanes, dst, src);
            }
            KInsn::LoadF32 { dst, slot, group, off } => {
                let start = (self.bases[usize::from(group)] + jp + off) as usize;
                let src = self.f32s[usize::from(slot)].get(start..start + n).ok_or((0, InsnFault::OutOfBounds))?;
                load(lanes, dst, src);
            }
            KInsn::LoadAt { dst, access } => {
                let a = &self.k.at_accesses[usize::from(access)];
                for lane in 0..n {
                    let view = Lane { lanes: &mut *lanes, lane };
                    let v = super::at_position_with(a, |r| view.get(r)).and_then(|pos| match a.field {
                        FieldRef::Written => self.written.get(pos).map(|v| v.to_reg()),
                        FieldRef::F64(s) => self.f64s[usize::from(s)].get(pos).map(|v| v.to_reg()),
                        FieldRef::F32(s) => self.f32s[usize::from(s)].get(pos).map(|v| v.to_reg()),
                    });
                    match v {
                        Some(v) => lanes[usize::from(dst) * LANES + lane] = v,
                        None => {
                            // Leave the lane's index values where the error message looks.
                            for (_, terms) in &a.index {
                                for &(r, _) in terms {
                                    self.regs[r as usize] = lanes[r as usize * LANES + lane];
                                }
                            }
                            return Err((lane, InsnFault::OutOfBounds));
                        }
                    }
                }
            }
            KInsn::Index { dst, dim } => {
                let out = &mut lanes[usize::from(dst) * LANES..][..n];
                if usize::from(dim) + 1 == self.k.lower.len() {
                    for (k, o) in out.iter_mut().enumerate() {
                        *o = (j0 + k as i64) as u64;
                    }
                } else {
                    out.fill(self.coords[usize::from(dim)] as u64);
                }
            }
        }
        Ok(())
    }
}
