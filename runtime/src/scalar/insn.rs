//! The scalar instruction set and its executor.
//!
//! The most frequent float operations have their own opcodes per precision (`AddF64`, …) so
//! that a stencil body dispatches once per operation; rarer ones carry their operator and
//! precision as data.

use super::semantics::{cmpf, cmpi, float_to_int, ibin, int_cast, iun, FBinOp, FUnOp, Float, IBinOp, IUnOp, IntFault};
use super::{Elem, Prec, Reg};

/// How a cast converts its operand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum CastKind {
    /// Integer to integer (`extsi`, `extui`, `trunci`, `index_cast`, `index_castui`).
    Int { from: u8, to: u8, unsigned: bool },
    /// `sitofp` / `uitofp`.
    IntToFloat { from: u8, unsigned: bool, to: Prec },
    /// `fptosi` / `fptoui`.
    FloatToInt { from: Prec, to: u8, unsigned: bool },
    /// `extf` from `f32` to `f64`.
    ExtF,
    /// `truncf` from `f64` to `f32` (round to nearest even).
    TruncF,
    /// `bitcast` from `f32` to `i32`.
    F32ToBits,
    /// `bitcast` from `f64` to `i64`.
    F64ToBits,
    /// `bitcast` from `i32` to `f32`.
    BitsToF32,
    /// `bitcast` from `i64` to `f64` (and any same-representation bitcast).
    Same,
}

/// One scalar operation on registers.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum ScalarInsn {
    /// `f64` addition.
    AddF64 { dst: Reg, a: Reg, b: Reg },
    /// `f64` subtraction.
    SubF64 { dst: Reg, a: Reg, b: Reg },
    /// `f64` multiplication.
    MulF64 { dst: Reg, a: Reg, b: Reg },
    /// `f64` division.
    DivF64 { dst: Reg, a: Reg, b: Reg },
    /// `f64` fused multiply-add `a * b + c`.
    FmaF64 { dst: Reg, a: Reg, b: Reg, c: Reg },
    /// `f32` addition.
    AddF32 { dst: Reg, a: Reg, b: Reg },
    /// `f32` subtraction.
    SubF32 { dst: Reg, a: Reg, b: Reg },
    /// `f32` multiplication.
    MulF32 { dst: Reg, a: Reg, b: Reg },
    /// `f32` division.
    DivF32 { dst: Reg, a: Reg, b: Reg },
    /// `f32` fused multiply-add.
    FmaF32 { dst: Reg, a: Reg, b: Reg, c: Reg },
    /// Other binary float functions.
    FBinary { op: FBinOp, prec: Prec, dst: Reg, a: Reg, b: Reg },
    /// Unary float functions.
    FUnary { op: FUnOp, prec: Prec, dst: Reg, a: Reg },
    /// `math.fpowi`: float base, integer exponent of width `width`.
    FPowI { prec: Prec, dst: Reg, a: Reg, b: Reg, width: u8 },
    /// `arith.cmpf`.
    CmpF { pred: u8, prec: Prec, dst: Reg, a: Reg, b: Reg },
    /// Integer binary operations at width `width` (may fault).
    IBinary { op: IBinOp, width: u8, dst: Reg, a: Reg, b: Reg },
    /// Integer unary operations at width `width`.
    IUnary { op: IUnOp, width: u8, dst: Reg, a: Reg },
    /// `arith.cmpi` at width `width`.
    CmpI { pred: u8, width: u8, dst: Reg, a: Reg, b: Reg },
    /// `arith.select`.
    Select { dst: Reg, cond: Reg, a: Reg, b: Reg },
    /// Casts (may fault for float-to-integer conversions out of range).
    Cast { kind: CastKind, dst: Reg, a: Reg },
}

impl ScalarInsn {
    /// Calls `f` on every register the instruction names: its operands with `false`, then its
    /// destination with `true` (register allocation renames them in place).
    pub(crate) fn visit_regs(&mut self, f: &mut impl FnMut(&mut Reg, bool)) {
        match self {
            ScalarInsn::AddF64 { dst, a, b }
            | ScalarInsn::SubF64 { dst, a, b }
            | ScalarInsn::MulF64 { dst, a, b }
            | ScalarInsn::DivF64 { dst, a, b }
            | ScalarInsn::AddF32 { dst, a, b }
            | ScalarInsn::SubF32 { dst, a, b }
            | ScalarInsn::MulF32 { dst, a, b }
            | ScalarInsn::DivF32 { dst, a, b }
            | ScalarInsn::FBinary { dst, a, b, .. }
            | ScalarInsn::FPowI { dst, a, b, .. }
            | ScalarInsn::CmpF { dst, a, b, .. }
            | ScalarInsn::IBinary { dst, a, b, .. }
            | ScalarInsn::CmpI { dst, a, b, .. } => {
                f(a, false);
                f(b, false);
                f(dst, true);
            }
            ScalarInsn::FmaF64 { dst, a, b, c } | ScalarInsn::FmaF32 { dst, a, b, c } => {
                f(a, false);
                f(b, false);
                f(c, false);
                f(dst, true);
            }
            ScalarInsn::Select { dst, cond, a, b } => {
                f(cond, false);
                f(a, false);
                f(b, false);
                f(dst, true);
            }
            ScalarInsn::FUnary { dst, a, .. } | ScalarInsn::IUnary { dst, a, .. } | ScalarInsn::Cast { dst, a, .. } => {
                f(a, false);
                f(dst, true);
            }
        }
    }
}

/// Why an instruction has no defined result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// An integer operation fault.
    Int(IntFault),
    /// A float-to-integer conversion of NaN or of a value out of the target's range.
    FloatToInt,
}

impl Fault {
    /// The message completing "'op' …".
    pub(crate) fn message(self) -> &'static str {
        match self {
            Fault::Int(IntFault::DivisionByZero) => "divides by zero",
            Fault::Int(IntFault::Overflow) => "overflows (minimum value divided by -1)",
            Fault::Int(IntFault::ShiftTooWide) => "shifts by the bit width or more",
            Fault::FloatToInt => "converts NaN or a value outside the integer type's range",
        }
    }
}

/// A register file the scalar instructions can run on: a plain slice, or one lane of the
/// stencil interpreter's row-batched registers.
pub(crate) trait Regs {
    /// The value of register `r`.
    fn get(&self, r: Reg) -> u64;
    /// Sets register `r`.
    fn set(&mut self, r: Reg, v: u64);
}

impl Regs for [u64] {
    #[inline(always)]
    fn get(&self, r: Reg) -> u64 {
        self[r as usize]
    }
    #[inline(always)]
    fn set(&mut self, r: Reg, v: u64) {
        self[r as usize] = v;
    }
}

#[inline(always)]
fn get<R: Regs + ?Sized>(regs: &R, r: Reg) -> u64 {
    regs.get(r)
}

#[inline(always)]
fn set<R: Regs + ?Sized>(regs: &mut R, r: Reg, v: u64) {
    regs.set(r, v);
}

#[inline(always)]
fn fbin<T: Float, R: Regs + ?Sized>(regs: &mut R, dst: Reg, a: Reg, b: Reg, f: impl Fn(T, T) -> T) {
    let v = f(T::from_reg(get(regs, a)), T::from_reg(get(regs, b)));
    set(regs, dst, v.to_reg());
}

fn float_unary<T: Float, R: Regs + ?Sized>(regs: &mut R, op: FUnOp, dst: Reg, a: Reg) {
    set(regs, dst, T::from_reg(get(regs, a)).unary(op).to_reg());
}

fn float_binary<T: Float, R: Regs + ?Sized>(regs: &mut R, op: FBinOp, dst: Reg, a: Reg, b: Reg) {
    fbin::<T, R>(regs, dst, a, b, |x, y| x.binary(op, y));
}

fn cast(kind: CastKind, a: u64) -> Result<u64, Fault> {
    let i = a as i64;
    Ok(match kind {
        CastKind::Int { from, to, unsigned } => int_cast(i, from, to, unsigned) as u64,
        CastKind::IntToFloat { from, unsigned, to } => {
            let u = super::zext(i, from);
            match (to, unsigned) {
                (Prec::F32, false) => f32::from_i64(i).to_reg(),
                (Prec::F32, true) => f32::from_u64(u).to_reg(),
                (Prec::F64, false) => f64::from_i64(i).to_reg(),
                (Prec::F64, true) => f64::from_u64(u).to_reg(),
            }
        }
        CastKind::FloatToInt { from, to, unsigned } => {
            let v = match from {
                Prec::F32 => float_to_int(f32::from_reg(a), to, unsigned),
                Prec::F64 => float_to_int(f64::from_reg(a), to, unsigned),
            };
            v.ok_or(Fault::FloatToInt)? as u64
        }
        CastKind::ExtF => f64::from(f32::from_reg(a)).to_reg(),
        CastKind::TruncF => (f64::from_reg(a) as f32).to_reg(),
        CastKind::F32ToBits => super::sext(i64::from(a as u32), 32) as u64,
        CastKind::F64ToBits => a,
        CastKind::BitsToF32 => u64::from(a as u32),
        CastKind::Same => a,
    })
}

/// Executes one instruction.
#[inline(always)]
pub(crate) fn exec<R: Regs + ?Sized>(insn: &ScalarInsn, regs: &mut R) -> Result<(), Fault> {
    match *insn {
        ScalarInsn::AddF64 { dst, a, b } => fbin::<f64, R>(regs, dst, a, b, |x, y| x + y),
        ScalarInsn::SubF64 { dst, a, b } => fbin::<f64, R>(regs, dst, a, b, |x, y| x - y),
        ScalarInsn::MulF64 { dst, a, b } => fbin::<f64, R>(regs, dst, a, b, |x, y| x * y),
        ScalarInsn::DivF64 { dst, a, b } => fbin::<f64, R>(regs, dst, a, b, |x, y| x / y),
        ScalarInsn::FmaF64 { dst, a, b, c } => {
            let v = f64::from_reg(get(regs, a)).fma(f64::from_reg(get(regs, b)), f64::from_reg(get(regs, c)));
            set(regs, dst, v.to_reg());
        }
        ScalarInsn::AddF32 { dst, a, b } => fbin::<f32, R>(regs, dst, a, b, |x, y| x + y),
        ScalarInsn::SubF32 { dst, a, b } => fbin::<f32, R>(regs, dst, a, b, |x, y| x - y),
        ScalarInsn::MulF32 { dst, a, b } => fbin::<f32, R>(regs, dst, a, b, |x, y| x * y),
        ScalarInsn::DivF32 { dst, a, b } => fbin::<f32, R>(regs, dst, a, b, |x, y| x / y),
        ScalarInsn::FmaF32 { dst, a, b, c } => {
            let v = f32::from_reg(get(regs, a)).fma(f32::from_reg(get(regs, b)), f32::from_reg(get(regs, c)));
            set(regs, dst, v.to_reg());
        }
        ScalarInsn::FBinary { op, prec, dst, a, b } => match prec {
            Prec::F32 => float_binary::<f32, R>(regs, op, dst, a, b),
            Prec::F64 => float_binary::<f64, R>(regs, op, dst, a, b),
        },
        ScalarInsn::FUnary { op, prec, dst, a } => match prec {
            Prec::F32 => float_unary::<f32, R>(regs, op, dst, a),
            Prec::F64 => float_unary::<f64, R>(regs, op, dst, a),
        },
        ScalarInsn::FPowI { prec, dst, a, b, width } => {
            // LLVM's powi takes an i32 exponent; wider exponents are clamped, which only
            // matters for results that are 0, 1 or infinite anyway.
            let n = super::sext(get(regs, b) as i64, width).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            let v = match prec {
                Prec::F32 => f32::from_reg(get(regs, a)).powi(n).to_reg(),
                Prec::F64 => f64::from_reg(get(regs, a)).powi(n).to_reg(),
            };
            set(regs, dst, v);
        }
        ScalarInsn::CmpF { pred, prec, dst, a, b } => {
            let r = match prec {
                Prec::F32 => cmpf(pred, f32::from_reg(get(regs, a)), f32::from_reg(get(regs, b))),
                Prec::F64 => cmpf(pred, f64::from_reg(get(regs, a)), f64::from_reg(get(regs, b))),
            };
            set(regs, dst, if r { u64::MAX } else { 0 });
        }
        ScalarInsn::IBinary { op, width, dst, a, b } => {
            let v = ibin(op, get(regs, a) as i64, get(regs, b) as i64, width).map_err(Fault::Int)?;
            set(regs, dst, v as u64);
        }
        ScalarInsn::IUnary { op, width, dst, a } => set(regs, dst, iun(op, get(regs, a) as i64, width) as u64),
        ScalarInsn::CmpI { pred, width, dst, a, b } => {
            let r = cmpi(pred, get(regs, a) as i64, get(regs, b) as i64, width);
            set(regs, dst, if r { u64::MAX } else { 0 });
        }
        ScalarInsn::Select { dst, cond, a, b } => {
            let v = if get(regs, cond) != 0 { get(regs, a) } else { get(regs, b) };
            set(regs, dst, v);
        }
        ScalarInsn::Cast { kind, dst, a } => {
            let v = cast(kind, get(regs, a))?;
            set(regs, dst, v);
        }
    }
    Ok(())
}
