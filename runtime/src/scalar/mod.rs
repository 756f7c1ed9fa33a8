//! Scalar computation shared by both interpreters: the `arith` and `math` ops compiled to a
//! register instruction ([`ScalarInsn`]) over a register file of raw 64-bit words.
//!
//! A register holds one SSA value: an `f64` as its bits, an `f32` as its bits in the low 32
//! bits, an integer of width `w` (`index` is 64 bits wide) sign-extended from bit `w - 1`
//! (so an `i1` `true` is all ones, and `arith.extui` of it gives 1), and a memref as its
//! buffer handle. Keeping every value in one `u64` lets an instruction name its operands by
//! register number alone, with the type folded into the opcode at compile time.

mod insn;
mod lower;
pub(crate) mod semantics;

pub(crate) use insn::{exec, CastKind, Fault, Regs, ScalarInsn};
pub(crate) use lower::{constant_bits, is_scalar_op, lower_scalar_op, value_kind, ValueKind};

/// A register number.
pub(crate) type Reg = u32;

/// The scalar ops the interpreters run, for the message that refuses another: every `arith`
/// op, every `math` op but `math.erf` (Rust's standard library has no error function, and one
/// of our own would round differently from the GPU's).
pub(crate) const SUPPORTED_OPS: &str = "every arith op and every math op but math.erf";

/// The precision of a float instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Prec {
    /// IEEE single precision.
    F32,
    /// IEEE double precision.
    F64,
}

/// A float format the interpreter computes in, with its register encoding.
pub(crate) trait Elem: Copy + Default + PartialEq + std::fmt::Debug + 'static {
    /// The value from its register encoding.
    fn from_reg(bits: u64) -> Self;
    /// The register encoding of the value.
    fn to_reg(self) -> u64;
}

impl Elem for f64 {
    #[inline(always)]
    fn from_reg(bits: u64) -> Self {
        f64::from_bits(bits)
    }
    #[inline(always)]
    fn to_reg(self) -> u64 {
        self.to_bits()
    }
}

impl Elem for f32 {
    #[inline(always)]
    fn from_reg(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
    #[inline(always)]
    fn to_reg(self) -> u64 {
        u64::from(self.to_bits())
    }
}

/// The canonical register form of integer `v` of width `w`: sign-extended from bit `w - 1`.
#[inline(always)]
pub(crate) fn sext(v: i64, w: u8) -> i64 {
    if w >= 64 {
        v
    } else {
        let shift = 64 - u32::from(w);
        (v << shift) >> shift
    }
}

/// The low `w` bits of `v` as an unsigned number.
#[inline(always)]
pub(crate) fn zext(v: i64, w: u8) -> u64 {
    if w >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << w) - 1)
    }
}
