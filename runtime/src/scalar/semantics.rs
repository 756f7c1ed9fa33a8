//! The exact meaning of each scalar operation, written once for both float formats (through
//! [`Float`]) and for every integer width (values in canonical sign-extended form).
//!
//! Float arithmetic is Rust's, which is IEEE 754 round-to-nearest-even in the format itself
//! (an `f32` op rounds once, in `f32`); `fma` is fused (`mul_add`). The min/max family follows
//! LLVM's `minimum`/`maximum` (NaN-propagating, -0 < +0) and `minnum`/`maxnum` (a NaN operand
//! yields the other). Transcendental functions use the platform's libm, so they are not
//! guaranteed to match another implementation bit for bit.

use super::{sext, zext, Elem};
use std::ops::{Add, Div, Mul, Neg, Rem, Sub};

/// Float operations needed by the interpreter, implemented for `f32` and `f64`.
pub(crate) trait Float:
    Elem
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
    + Neg<Output = Self>
{
    /// Applies a unary function.
    fn unary(self, op: FUnOp) -> Self;
    /// Applies a binary function other than the four basic operations.
    fn binary(self, op: FBinOp, other: Self) -> Self;
    /// `self * b + c`, rounded once.
    fn fma(self, b: Self, c: Self) -> Self;
    /// Conversion from a signed integer (round to nearest even).
    fn from_i64(v: i64) -> Self;
    /// Conversion from an unsigned integer (round to nearest even).
    fn from_u64(v: u64) -> Self;
    /// Rounding toward zero to an integer in `[lo, hi)`, `None` when NaN or out of range.
    fn to_int_in(self, lo: f64, hi: f64) -> Option<i128>;
    /// Whether the value is NaN.
    fn nan(self) -> bool;
}

/// Unary float functions (`arith.negf` and the `math` dialect).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum FUnOp {
    Neg,
    Sqrt,
    Rsqrt,
    Cbrt,
    Abs,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Floor,
    Ceil,
    Round,
    RoundEven,
    Trunc,
}

/// Binary float functions other than `+ - * /`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum FBinOp {
    Rem,
    Minimum,
    Maximum,
    MinNum,
    MaxNum,
    Pow,
    Atan2,
    CopySign,
}

macro_rules! impl_float {
    ($t:ty) => {
        impl Float for $t {
            #[inline]
            fn unary(self, op: FUnOp) -> Self {
                match op {
                    FUnOp::Neg => -self,
                    FUnOp::Sqrt => self.sqrt(),
                    FUnOp::Rsqrt => 1.0 / self.sqrt(),
                    FUnOp::Cbrt => self.cbrt(),
                    FUnOp::Abs => self.abs(),
                    FUnOp::Exp => self.exp(),
                    FUnOp::Exp2 => self.exp2(),
                    FUnOp::Expm1 => self.exp_m1(),
                    FUnOp::Log => self.ln(),
                    FUnOp::Log2 => self.log2(),
                    FUnOp::Log10 => self.log10(),
                    FUnOp::Log1p => self.ln_1p(),
                    FUnOp::Sin => self.sin(),
                    FUnOp::Cos => self.cos(),
                    FUnOp::Tan => self.tan(),
                    FUnOp::Asin => self.asin(),
                    FUnOp::Acos => self.acos(),
                    FUnOp::Atan => self.atan(),
                    FUnOp::Sinh => self.sinh(),
                    FUnOp::Cosh => self.cosh(),
                    FUnOp::Tanh => self.tanh(),
                    FUnOp::Floor => self.floor(),
                    FUnOp::Ceil => self.ceil(),
                    FUnOp::Round => self.round(),
                    FUnOp::RoundEven => self.round_ties_even(),
                    FUnOp::Trunc => self.trunc(),
                }
            }

            #[inline]
            fn binary(self, op: FBinOp, b: Self) -> Self {
                let a = self;
                match op {
                    FBinOp::Rem => a % b,
                    FBinOp::Minimum => {
                        if a.is_nan() || b.is_nan() {
                            a + b
                        } else if a == b {
                            // Equal values; of two zeros the negative one is smaller.
                            if a.is_sign_negative() {
                                a
                            } else {
                                b
                            }
                        } else if b < a {
                            b
                        } else {
                            a
                        }
                    }
                    FBinOp::Maximum => {
                        if a.is_nan() || b.is_nan() {
                            a + b
                        } else if a == b {
                            if a.is_sign_negative() {
                                b
                            } else {
                                a
                            }
                        } else if a < b {
                            b
                        } else {
                            a
                        }
                    }
                    FBinOp::MinNum => {
                        if a.is_nan() {
                            b
                        } else if b.is_nan() {
                            a
                        } else {
                            a.binary(FBinOp::Minimum, b)
                        }
                    }
                    FBinOp::MaxNum => {
                        if a.is_nan() {
                            b
                        } else if b.is_nan() {
                            a
                        } else {
                            a.binary(FBinOp::Maximum, b)
                        }
                    }
                    FBinOp::Pow => a.powf(b),
                    FBinOp::Atan2 => a.atan2(b),
                    FBinOp::CopySign => a.copysign(b),
                }
            }

            #[inline(always)]
            fn fma(self, b: Self, c: Self) -> Self {
                self.mul_add(b, c)
            }

            #[inline]
            fn from_i64(v: i64) -> Self {
                v as $t
            }

            #[inline]
            fn from_u64(v: u64) -> Self {
                v as $t
            }

            #[inline]
            fn to_int_in(self, lo: f64, hi: f64) -> Option<i128> {
                if self.is_nan() {
                    return None;
                }
                let t = f64::from(self.trunc());
                (t >= lo && t < hi).then_some(t as i128)
            }

            #[inline(always)]
            fn nan(self) -> bool {
                self.is_nan()
            }
        }
    };
}

impl_float!(f32);
impl_float!(f64);

/// Evaluates an `arith.cmpf` predicate (index into MLIR's encoding: `false, oeq, ogt, oge,
/// olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true`).
#[inline]
pub(crate) fn cmpf<T: Float>(pred: u8, a: T, b: T) -> bool {
    let unordered = a.nan() || b.nan();
    match pred {
        0 => false,
        1 => !unordered && a == b,
        2 => !unordered && a > b,
        3 => !unordered && a >= b,
        4 => !unordered && a < b,
        5 => !unordered && a <= b,
        6 => !unordered && a != b,
        7 => !unordered,
        8 => unordered || a == b,
        9 => unordered || a > b,
        10 => unordered || a >= b,
        11 => unordered || a < b,
        12 => unordered || a <= b,
        13 => unordered || a != b,
        14 => unordered,
        _ => true,
    }
}

/// Evaluates an `arith.cmpi` predicate (`eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge`) on
/// canonical values of width `w`.
#[inline]
pub(crate) fn cmpi(pred: u8, a: i64, b: i64, w: u8) -> bool {
    let (ua, ub) = (zext(a, w), zext(b, w));
    match pred {
        0 => a == b,
        1 => a != b,
        2 => a < b,
        3 => a <= b,
        4 => a > b,
        5 => a >= b,
        6 => ua < ub,
        7 => ua <= ub,
        8 => ua > ub,
        _ => ua >= ub,
    }
}

/// Integer binary operations (`arith` and `math.ipowi`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum IBinOp {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    RemS,
    RemU,
    CeilDivS,
    FloorDivS,
    And,
    Or,
    Xor,
    Shl,
    ShrS,
    ShrU,
    MinS,
    MaxS,
    MinU,
    MaxU,
    IPow,
}

/// Why an integer operation has no defined result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum IntFault {
    /// Division or remainder by zero.
    DivisionByZero,
    /// Signed division of the minimum value by -1.
    Overflow,
    /// A shift by the bit width or more.
    ShiftTooWide,
}

/// Evaluates an integer operation on canonical values of width `w`, returning the canonical
/// result.
#[inline]
pub(crate) fn ibin(op: IBinOp, a: i64, b: i64, w: u8) -> Result<i64, IntFault> {
    let (ua, ub) = (zext(a, w), zext(b, w));
    let min = sext(1i64 << (w.min(64) - 1), w);
    let signed_div = |b: i64| {
        if b == 0 {
            Err(IntFault::DivisionByZero)
        } else if a == min && b == -1 {
            Err(IntFault::Overflow)
        } else {
            Ok(())
        }
    };
    let shift = || if ub < u64::from(w) { Ok(ub as u32) } else { Err(IntFault::ShiftTooWide) };
    let v = match op {
        IBinOp::Add => a.wrapping_add(b),
        IBinOp::Sub => a.wrapping_sub(b),
        IBinOp::Mul => a.wrapping_mul(b),
        IBinOp::DivS => {
            signed_div(b)?;
            a / b
        }
        IBinOp::DivU => ua.checked_div(ub).ok_or(IntFault::DivisionByZero)? as i64,
        IBinOp::RemS => {
            if b == 0 {
                return Err(IntFault::DivisionByZero);
            }
            a.wrapping_rem(b)
        }
        IBinOp::RemU => ua.checked_rem(ub).ok_or(IntFault::DivisionByZero)? as i64,
        IBinOp::FloorDivS => {
            signed_div(b)?;
            let q = a / b;
            if a % b != 0 && ((a < 0) != (b < 0)) {
                q - 1
            } else {
                q
            }
        }
        IBinOp::CeilDivS => {
            signed_div(b)?;
            let q = a / b;
            if a % b != 0 && ((a < 0) == (b < 0)) {
                q + 1
            } else {
                q
            }
        }
        IBinOp::And => a & b,
        IBinOp::Or => a | b,
        IBinOp::Xor => a ^ b,
        IBinOp::Shl => a.wrapping_shl(shift()?),
        IBinOp::ShrS => a >> shift()?,
        IBinOp::ShrU => (ua >> shift()?) as i64,
        IBinOp::MinS => a.min(b),
        IBinOp::MaxS => a.max(b),
        IBinOp::MinU => ua.min(ub) as i64,
        IBinOp::MaxU => ua.max(ub) as i64,
        IBinOp::IPow => ipow(a, b)?,
    };
    Ok(sext(v, w))
}

/// `math.ipowi`: wrapping integer power; a negative exponent gives 0 except for bases 1 and
/// -1, and is undefined for base 0.
fn ipow(base: i64, exp: i64) -> Result<i64, IntFault> {
    if exp < 0 {
        return match base {
            0 => Err(IntFault::DivisionByZero),
            1 => Ok(1),
            -1 => Ok(if exp % 2 == 0 { 1 } else { -1 }),
            _ => Ok(0),
        };
    }
    let (mut result, mut b, mut e) = (1i64, base, exp as u64);
    while e > 0 {
        if e & 1 == 1 {
            result = result.wrapping_mul(b);
        }
        b = b.wrapping_mul(b);
        e >>= 1;
    }
    Ok(result)
}

/// Integer unary operations of the `math` dialect.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum IUnOp {
    Abs,
    Ctlz,
    Cttz,
    Ctpop,
}

/// Evaluates an integer unary operation at width `w`.
#[inline]
pub(crate) fn iun(op: IUnOp, a: i64, w: u8) -> i64 {
    let u = zext(a, w);
    let v = match op {
        IUnOp::Abs => a.wrapping_abs(),
        IUnOp::Ctlz => i64::from(u.leading_zeros()) - (64 - i64::from(w)),
        IUnOp::Cttz => i64::from(u.trailing_zeros().min(u32::from(w))),
        IUnOp::Ctpop => i64::from(u.count_ones()),
    };
    sext(v, w)
}

/// Integer-to-integer casts: the canonical value of width `from` converted to width `to`,
/// zero-extending when widening an unsigned cast.
#[inline]
pub(crate) fn int_cast(a: i64, from: u8, to: u8, unsigned: bool) -> i64 {
    let widened = if unsigned && to > from { zext(a, from) as i64 } else { a };
    sext(widened, to)
}

/// Float-to-integer conversion rounding toward zero; `None` when the value does not fit.
#[inline]
pub(crate) fn float_to_int<T: Float>(a: T, to: u8, unsigned: bool) -> Option<i64> {
    let w = i32::from(to);
    let (lo, hi) = if unsigned { (0.0, 2f64.powi(w)) } else { (-(2f64.powi(w - 1)), 2f64.powi(w - 1)) };
    a.to_int_in(lo, hi).map(|v| sext(v as i64, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_ops_wrap_at_their_width() {
        assert_eq!(ibin(IBinOp::Add, 100, 100, 8), Ok(-56));
        assert_eq!(ibin(IBinOp::DivU, -7, 2, 32), Ok(2147483644));
        assert_eq!(ibin(IBinOp::DivS, sext(1 << 31, 32), -1, 32), Err(IntFault::Overflow));
        assert_eq!(ibin(IBinOp::FloorDivS, -7, 2, 64), Ok(-4));
        assert_eq!(ibin(IBinOp::CeilDivS, -7, 2, 64), Ok(-3));
        assert_eq!(ibin(IBinOp::Shl, 1, 32, 32), Err(IntFault::ShiftTooWide));
        assert_eq!(ibin(IBinOp::ShrU, -1, 28, 32), Ok(15));
        assert_eq!(ibin(IBinOp::IPow, 3, 4, 64), Ok(81));
        assert_eq!(iun(IUnOp::Ctlz, 1, 32), 31);
        assert_eq!(iun(IUnOp::Cttz, 0, 16), 16);
        assert_eq!(int_cast(-1, 1, 32, true), 1);
        assert_eq!(int_cast(-1, 1, 32, false), -1);
        assert_eq!(int_cast(300, 64, 8, false), 44);
        assert!(cmpi(6, 1, -1, 32));
    }

    #[test]
    fn float_min_max_follow_llvm() {
        assert!(0.0f64.binary(FBinOp::Minimum, -0.0).is_sign_negative());
        assert!((-0.0f64).binary(FBinOp::Maximum, 0.0).is_sign_positive());
        assert!(f64::NAN.binary(FBinOp::Minimum, 1.0).is_nan());
        assert_eq!(f32::NAN.binary(FBinOp::MaxNum, 2.0), 2.0);
        assert_eq!(float_to_int(-2.5f64, 32, false), Some(-2));
        assert_eq!(float_to_int(1e300f64, 32, false), None);
        assert_eq!(float_to_int(-1.0f32, 32, true), None);
        assert!(cmpf(13, f64::NAN, 1.0));
        assert!(!cmpf(1, f64::NAN, f64::NAN));
    }

    #[test]
    fn integer_ops_agree_with_the_arith_folder() {
        use stencil_dialects::arith::fold::eval_int_binary;
        let ops = [
            ("addi", IBinOp::Add),
            ("subi", IBinOp::Sub),
            ("muli", IBinOp::Mul),
            ("divsi", IBinOp::DivS),
            ("divui", IBinOp::DivU),
            ("remsi", IBinOp::RemS),
            ("remui", IBinOp::RemU),
            ("ceildivsi", IBinOp::CeilDivS),
            ("floordivsi", IBinOp::FloorDivS),
            ("andi", IBinOp::And),
            ("ori", IBinOp::Or),
            ("xori", IBinOp::Xor),
            ("shli", IBinOp::Shl),
            ("shrsi", IBinOp::ShrS),
            ("shrui", IBinOp::ShrU),
            ("minsi", IBinOp::MinS),
            ("maxsi", IBinOp::MaxS),
            ("minui", IBinOp::MinU),
            ("maxui", IBinOp::MaxU),
        ];
        let values = [0, 1, -1, 2, -2, 3, 7, -7, 31, 63, 127, -128, 255, i64::MAX, i64::MIN, 0x7fff_ffff, -0x8000_0000];
        for w in [1u8, 8, 16, 32, 64] {
            for (name, op) in ops {
                for a in values {
                    for b in values {
                        let (a, b) = (sext(a, w), sext(b, w));
                        let expected = eval_int_binary(name, i128::from(a), i128::from(b), u32::from(w));
                        let actual = ibin(op, a, b, w).ok().map(i128::from);
                        assert_eq!(actual, expected, "{name} {a}, {b} at i{w}");
                    }
                }
            }
        }
    }
}
