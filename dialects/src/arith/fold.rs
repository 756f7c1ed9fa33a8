//! Folders of the arith ops (MLIR's `fold` methods): constant evaluation with the exact
//! semantics of the op (two's complement wrap-around at the type's width, no folding of
//! division by zero or of signed overflow in division, float arithmetic in the type's own
//! precision) and the algebraic identities MLIR applies (`x + 0`, `x * 1`, `x - x`, `select`
//! with a constant condition, casts of casts). Folding `f16`/`bf16` arithmetic is left out:
//! stencil-opt stores those values rounded to `f32` and cannot round them exactly.

use stencil_ir::registry::FoldResult;
use stencil_ir::types::FloatKind;
use stencil_ir::{Attribute, Ir, OpId, Type, ValueId};

/// Bit width integer folding works at: `iN` up to 64 bits, and 64 for `index` (MLIR folds
/// index arithmetic at 64 bits). Wider integers are not folded.
pub fn int_width(ty: &Type) -> Option<u32> {
    match ty {
        Type::Index => Some(64),
        Type::Integer(w) if (1..=64).contains(w) => Some(*w),
        _ => None,
    }
}

/// The low `w` bits of `v`, read as a signed number.
pub fn sext(v: i128, w: u32) -> i128 {
    let shift = 128 - w;
    (v << shift) >> shift
}

/// The low `w` bits of `v`, read as an unsigned number.
pub fn zext(v: i128, w: u32) -> i128 {
    if w >= 128 {
        v
    } else {
        v & ((1i128 << w) - 1)
    }
}

/// The attribute for integer `v` of type `ty` (`true`/`false` for `i1`), wrapped to the width.
pub fn int_attr(v: i128, ty: &Type) -> Attribute {
    match ty {
        Type::Integer(1) => Attribute::Bool(v & 1 != 0),
        _ => Attribute::Integer { value: int_width(ty).map_or(v, |w| sext(v, w)), ty: ty.clone() },
    }
}

/// The signed value of an integer (or `i1`) constant at width `w`.
fn int_value(a: &Attribute, w: u32) -> Option<i128> {
    a.as_int().map(|v| sext(v, w))
}

/// The value of a float constant.
fn float_value(a: &Attribute) -> Option<f64> {
    a.as_float()
}

/// A float constant of format `kind`.
fn float_attr(value: f64, kind: FloatKind) -> Attribute {
    Attribute::float(value, kind)
}

fn constant(a: Attribute) -> Option<FoldResult> {
    Some(FoldResult::Constants(vec![a]))
}

fn value(v: ValueId) -> Option<FoldResult> {
    Some(FoldResult::Values(vec![v]))
}

fn result_type(ir: &Ir, op: OpId) -> Option<&Type> {
    ir.results(op).first().map(|&r| ir.value_type(r))
}

fn constant_at(consts: &[Option<Attribute>], i: usize) -> Option<&Attribute> {
    consts.get(i).and_then(Option::as_ref)
}

// ----- integer arithmetic -------------------------------------------------------------------

/// Folds the two-operand integer ops (`addi` … `maxui`).
pub fn fold_int_binary(ir: &Ir, op: OpId, consts: &[Option<Attribute>]) -> Option<FoldResult> {
    let [lhs, rhs] = *ir.operands(op) else { return None };
    let ty = result_type(ir, op)?.clone();
    let w = int_width(&ty)?;
    let name = ir.op_name(op).strip_prefix("arith.")?;
    let a = constant_at(consts, 0).and_then(|c| int_value(c, w));
    let b = constant_at(consts, 1).and_then(|c| int_value(c, w));
    if let (Some(a), Some(b)) = (a, b) {
        return eval_int_binary(name, a, b, w).and_then(|v| constant(int_attr(v, &ty)));
    }
    let zero = || constant(int_attr(0, &ty));
    match name {
        "addi" if b == Some(0) => value(lhs),
        "addi" if a == Some(0) => value(rhs),
        "subi" if b == Some(0) => value(lhs),
        "subi" if lhs == rhs => zero(),
        "muli" if a == Some(0) || b == Some(0) => zero(),
        "muli" if b == Some(1) => value(lhs),
        "muli" if a == Some(1) => value(rhs),
        "divsi" | "divui" | "floordivsi" | "ceildivsi" if b == Some(1) => value(lhs),
        "remsi" | "remui" if b == Some(1) => zero(),
        "andi" if lhs == rhs => value(lhs),
        "andi" if a == Some(0) || b == Some(0) => zero(),
        "andi" if b == Some(-1) => value(lhs),
        "andi" if a == Some(-1) => value(rhs),
        "ori" if lhs == rhs => value(lhs),
        "ori" if a == Some(-1) || b == Some(-1) => constant(int_attr(-1, &ty)),
        "ori" if b == Some(0) => value(lhs),
        "ori" if a == Some(0) => value(rhs),
        "xori" if lhs == rhs => zero(),
        "xori" if b == Some(0) => value(lhs),
        "xori" if a == Some(0) => value(rhs),
        "shli" | "shrsi" | "shrui" if b == Some(0) => value(lhs),
        "minsi" | "maxsi" | "minui" | "maxui" if lhs == rhs => value(lhs),
        _ => None,
    }
}

/// Evaluates integer op `name` (without the dialect prefix) on signed values of width `w`;
/// `None` where the op is undefined (division by zero, signed division overflow, shift by
/// the width or more), as MLIR does not fold those.
pub fn eval_int_binary(name: &str, a: i128, b: i128, w: u32) -> Option<i128> {
    let (ua, ub) = (zext(a, w), zext(b, w));
    let min = -(1i128 << (w - 1));
    let signed_div_undefined = b == 0 || (a == min && b == -1);
    let shift = || (ub < i128::from(w)).then_some(ub as u32);
    let v = match name {
        "addi" => a + b,
        "subi" => a - b,
        "muli" => a * b,
        "divsi" if !signed_div_undefined => a / b,
        "divui" if ub != 0 => ua / ub,
        "remsi" if b != 0 => a % b,
        "remui" if ub != 0 => ua % ub,
        "floordivsi" if !signed_div_undefined => {
            let q = a / b;
            if a % b != 0 && ((a < 0) != (b < 0)) {
                q - 1
            } else {
                q
            }
        }
        "ceildivsi" if !signed_div_undefined => {
            let q = a / b;
            if a % b != 0 && ((a < 0) == (b < 0)) {
                q + 1
            } else {
                q
            }
        }
        "andi" => a & b,
        "ori" => a | b,
        "xori" => a ^ b,
        "shli" => a << shift()?,
        "shrsi" => a >> shift()?,
        "shrui" => ua >> shift()?,
        "minsi" => a.min(b),
        "maxsi" => a.max(b),
        "minui" => ua.min(ub),
        "maxui" => ua.max(ub),
        _ => return None,
    };
    Some(sext(v, w))
}

// ----- float arithmetic ---------------------------------------------------------------------

/// Folds the two-operand float ops (`addf` … `maxnumf`).
pub fn fold_float_binary(ir: &Ir, op: OpId, consts: &[Option<Attribute>]) -> Option<FoldResult> {
    let [lhs, rhs] = *ir.operands(op) else { return None };
    let &Type::Float(kind) = result_type(ir, op)? else { return None };
    let name = ir.op_name(op).strip_prefix("arith.")?;
    let a = constant_at(consts, 0).and_then(float_value);
    let b = constant_at(consts, 1).and_then(float_value);
    if let (Some(a), Some(b)) = (a, b) {
        return eval_float_binary(name, a, b, kind).and_then(|v| constant(float_attr(v, kind)));
    }
    let is = |x: Option<f64>, c: f64| x.is_some_and(|x| x.to_bits() == c.to_bits());
    match name {
        // Only -0.0 is an identity of addition: -0.0 + +0.0 is +0.0.
        "addf" if is(b, -0.0) => value(lhs),
        "addf" if is(a, -0.0) => value(rhs),
        "subf" if is(b, 0.0) => value(lhs),
        "mulf" if is(b, 1.0) => value(lhs),
        "mulf" if is(a, 1.0) => value(rhs),
        "divf" if is(b, 1.0) => value(lhs),
        "minimumf" | "maximumf" | "minnumf" | "maxnumf" if lhs == rhs => value(lhs),
        _ => None,
    }
}

/// Evaluates float op `name` as APFloat does for format `kind`.
pub fn eval_float_binary(name: &str, a: f64, b: f64, kind: FloatKind) -> Option<f64> {
    match name {
        "addf" => in_precision(kind, a, b, |x, y| x + y, |x, y| x + y),
        "subf" => in_precision(kind, a, b, |x, y| x - y, |x, y| x - y),
        "mulf" => in_precision(kind, a, b, |x, y| x * y, |x, y| x * y),
        "divf" => in_precision(kind, a, b, |x, y| x / y, |x, y| x / y),
        // C's fmod, which APFloat::mod implements.
        "remf" => in_precision(kind, a, b, |x, y| x % y, |x, y| x % y),
        // The min/max family picks one operand, so any format folds exactly.
        "minimumf" => Some(minimum(a, b)),
        "maximumf" => Some(maximum(a, b)),
        "minnumf" => Some(minnum(a, b)),
        "maxnumf" => Some(maxnum(a, b)),
        _ => None,
    }
}

/// Applies an arithmetic op in the format's own precision (`f32` ops round once, in `f32`).
fn in_precision(
    kind: FloatKind,
    a: f64,
    b: f64,
    f32_op: fn(f32, f32) -> f32,
    f64_op: fn(f64, f64) -> f64,
) -> Option<f64> {
    let r = match kind {
        FloatKind::F32 => f64::from(f32_op(a as f32, b as f32)),
        FloatKind::F64 => f64_op(a, b),
        FloatKind::F16 | FloatKind::BF16 => return None,
    };
    Some(if r.is_nan() { propagate_nan(a, b) } else { r })
}

/// APFloat's NaN result: the first NaN operand, made quiet, else the default quiet NaN
/// (`0x7FC00000` for `f32`; hardware may produce a negative one for `0/0`).
fn propagate_nan(a: f64, b: f64) -> f64 {
    let quiet = |x: f64| f64::from_bits(x.to_bits() | (1 << 51));
    if a.is_nan() {
        quiet(a)
    } else if b.is_nan() {
        quiet(b)
    } else {
        f64::NAN
    }
}

/// IEEE 754-2019 `minimum`: NaN-propagating, -0 below +0 (`llvm::minimum`).
fn minimum(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return propagate_nan(a, b);
    }
    if a == 0.0 && b == 0.0 && a.is_sign_negative() != b.is_sign_negative() {
        return if a.is_sign_negative() { a } else { b };
    }
    if b < a {
        b
    } else {
        a
    }
}

/// IEEE 754-2019 `maximum` (`llvm::maximum`).
fn maximum(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return propagate_nan(a, b);
    }
    if a == 0.0 && b == 0.0 && a.is_sign_negative() != b.is_sign_negative() {
        return if a.is_sign_negative() { b } else { a };
    }
    if a < b {
        b
    } else {
        a
    }
}

/// IEEE 754-2008 `minNum`: a NaN operand yields the other one (`llvm::minnum`, which also
/// orders -0 below +0).
fn minnum(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    minimum(a, b)
}

/// IEEE 754-2008 `maxNum` (`llvm::maxnum`).
fn maxnum(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    maximum(a, b)
}

/// Folds `negf` of a constant (a sign flip, exact in every format) and `negf(negf(x))`.
pub fn fold_negf(ir: &Ir, op: OpId, consts: &[Option<Attribute>]) -> Option<FoldResult> {
    let [x] = *ir.operands(op) else { return None };
    let &Type::Float(kind) = result_type(ir, op)? else { return None };
    if let Some(a) = constant_at(consts, 0).and_then(float_value) {
        return constant(float_attr(-a, kind));
    }
    let inner = ir.defining_op(x).filter(|&d| ir.op_name(d) == "arith.negf")?;
    ir.operands(inner).first().copied().and_then(value)
}

// ----- comparisons and select ---------------------------------------------------------------

/// `arith.cmpi` predicates, in the order of their integer encoding.
pub const CMPI_PREDICATES: &[&str] = &["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];

/// `arith.cmpf` predicates, in the order of their integer encoding.
pub const CMPF_PREDICATES: &[&str] = &[
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
];

/// Folds `cmpi` of two constants, and of a value with itself.
pub fn fold_cmpi(ir: &Ir, op: OpId, consts: &[Option<Attribute>]) -> Option<FoldResult> {
    let [lhs, rhs] = *ir.operands(op) else { return None };
    let predicate = ir.attr(op, "predicate").and_then(Attribute::as_i64)?;
    let pred = *CMPI_PREDICATES.get(usize::try_from(predicate).ok()?)?;
    if lhs == rhs {
        return constant(Attribute::Bool(matches!(pred, "eq" | "sle" | "sge" | "ule" | "uge")));
    }
    let w = int_width(ir.value_type(lhs))?;
    let a = constant_at(consts, 0).and_then(|c| int_value(c, w))?;
    let b = constant_at(consts, 1).and_then(|c| int_value(c, w))?;
    let (ua, ub) = (zext(a, w), zext(b, w));
    let result = match pred {
        "eq" => a == b,
        "ne" => a != b,
        "slt" => a < b,
        "sle" => a <= b,
        "sgt" => a > b,
        "sge" => a >= b,
        "ult" => ua < ub,
        "ule" => ua <= ub,
        "ugt" => ua > ub,
        _ => ua >= ub,
    };
    constant(Attribute::Bool(result))
}

/// Folds `cmpf` of two constants; a NaN constant decides unordered predicates on its own,
/// so it folds even when the other side is not constant (as MLIR does).
pub fn fold_cmpf(ir: &Ir, op: OpId, consts: &[Option<Attribute>]) -> Option<FoldResult> {
    let predicate = ir.attr(op, "predicate").and_then(Attribute::as_i64)?;
    let pred = *CMPF_PREDICATES.get(usize::try_from(predicate).ok()?)?;
    let mut a = constant_at(consts, 0).and_then(float_value);
    let mut b = constant_at(consts, 1).and_then(float_value);
    if a.is_some_and(f64::is_nan) {
        b = a;
    }
    if b.is_some_and(f64::is_nan) {
        a = b;
    }
    let (a, b) = (a?, b?);
    let unordered = a.is_nan() || b.is_nan();
    let result = match pred {
        "false" => false,
        "oeq" => !unordered && a == b,
        "ogt" => !unordered && a > b,
        "oge" => !unordered && a >= b,
        "olt" => !unordered && a < b,
        "ole" => !unordered && a <= b,
        "one" => !unordered && a != b,
        "ord" => !unordered,
        "ueq" => unordered || a == b,
        "ugt" => unordered || a > b,
        "uge" => unordered || a >= b,
        "ult" => unordered || a < b,
        "ule" => unordered || a <= b,
        "une" => unordered || a != b,
        "uno" => unordered,
        _ => true,
    };
    constant(Attribute::Bool(result))
}

/// Folds `select` with a constant condition or equal arms, and `select %c, true, false`.
pub fn fold_select(ir: &Ir, op: OpId, consts: &[Option<Attribute>]) -> Option<FoldResult> {
    let [cond, on_true, on_false] = *ir.operands(op) else { return None };
    if on_true == on_false {
        return value(on_true);
    }
    if let Some(c) = constant_at(consts, 0).and_then(Attribute::as_int) {
        return value(if c != 0 { on_true } else { on_false });
    }
    let is_bool = |i: usize, b: bool| constant_at(consts, i) == Some(&Attribute::Bool(b));
    if result_type(ir, op) == Some(&Type::I1) && is_bool(1, true) && is_bool(2, false) {
        return value(cond);
    }
    None
}

// ----- casts --------------------------------------------------------------------------------

/// Folds the casts: constants are converted (integer casts always; float conversions only
/// when MLIR would, e.g. `truncf` only when exact and `fptosi` only in range), and a cast of
/// the inverse cast returns the original value.
pub fn fold_cast(ir: &Ir, op: OpId, consts: &[Option<Attribute>]) -> Option<FoldResult> {
    let [input] = *ir.operands(op) else { return None };
    let to = result_type(ir, op)?.clone();
    let from = ir.value_type(input).clone();
    let name = ir.op_name(op).strip_prefix("arith.")?;
    if let Some(c) = constant_at(consts, 0) {
        return fold_constant_cast(name, c, &from, &to).and_then(constant);
    }
    // cast(inverse-cast(x)) -> x when x already has the result type.
    let inner = ir.defining_op(input)?;
    let inner_name = ir.op_name(inner).strip_prefix("arith.")?;
    let undoes = match name {
        "trunci" => matches!(inner_name, "extsi" | "extui"),
        "truncf" => inner_name == "extf",
        "index_cast" | "index_castui" | "bitcast" => inner_name == name,
        _ => false,
    };
    let &[source] = ir.operands(inner) else { return None };
    (undoes && *ir.value_type(source) == to).then_some(source).and_then(value)
}

fn fold_constant_cast(name: &str, c: &Attribute, from: &Type, to: &Type) -> Option<Attribute> {
    match name {
        "index_cast" | "index_castui" | "extsi" | "extui" | "trunci" => {
            // Both sides must be foldable widths; `int_attr` wraps to the result's.
            let (w_in, _) = (int_width(from)?, int_width(to)?);
            let v = int_value(c, w_in)?;
            let zero_extend = matches!(name, "extui" | "index_castui");
            Some(int_attr(if zero_extend { zext(v, w_in) } else { v }, to))
        }
        "sitofp" | "uitofp" => {
            let w = int_width(from)?;
            let v = int_value(c, w)?;
            let v = if name == "uitofp" { zext(v, w) } else { v };
            // Rust's integer-to-float `as` rounds to nearest, ties to even, like APFloat.
            match to {
                Type::Float(FloatKind::F32) => Some(float_attr(f64::from(v as f32), FloatKind::F32)),
                Type::Float(FloatKind::F64) => Some(float_attr(v as f64, FloatKind::F64)),
                _ => None,
            }
        }
        "fptosi" | "fptoui" => {
            let w = int_width(to)?;
            let a = float_value(c)?;
            if !a.is_finite() {
                return None;
            }
            // Rounds toward zero; out-of-range values are invalid and left unfolded. Every
            // bound below is a power of two, exact in f64.
            let t = a.trunc();
            let (lo, hi) = if name == "fptosi" {
                (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1))
            } else {
                (0.0, 2f64.powi(w as i32))
            };
            (t >= lo && t < hi).then(|| int_attr(t as i128, to))
        }
        "extf" => {
            let &Type::Float(kind) = to else { return None };
            float_value(c).map(|a| float_attr(a, kind))
        }
        "truncf" => {
            let a = float_value(c)?;
            // Only exact conversions fold (MLIR's convertFloatValue rejects inexact ones).
            match to {
                Type::Float(FloatKind::F32) if !a.is_nan() && f64::from(a as f32) == a => {
                    Some(float_attr(a, FloatKind::F32))
                }
                _ => None,
            }
        }
        "bitcast" => match (c, to) {
            (Attribute::Float { value, kind: FloatKind::F32 }, Type::Integer(32)) => {
                Some(int_attr(i128::from((*value as f32).to_bits()), to))
            }
            (Attribute::Float { value, kind: FloatKind::F64 }, Type::Integer(64)) => {
                Some(int_attr(i128::from(value.to_bits()), to))
            }
            (_, Type::Float(FloatKind::F32)) => {
                let bits = u32::try_from(zext(int_value(c, 32)?, 32)).ok()?;
                Some(float_attr(f64::from(f32::from_bits(bits)), FloatKind::F32))
            }
            (_, Type::Float(FloatKind::F64)) => {
                let bits = u64::try_from(zext(int_value(c, 64)?, 64)).ok()?;
                Some(float_attr(f64::from_bits(bits), FloatKind::F64))
            }
            (Attribute::Integer { .. } | Attribute::Bool(_), Type::Integer(_)) => {
                int_value(c, int_width(from)?).map(|v| int_attr(v, to))
            }
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_semantics() {
        assert_eq!(eval_int_binary("addi", 100, 100, 8), Some(-56));
        assert_eq!(eval_int_binary("muli", 100, 100, 8), Some(16));
        assert_eq!(eval_int_binary("floordivsi", -7, 2, 32), Some(-4));
        assert_eq!(eval_int_binary("ceildivsi", -7, 2, 32), Some(-3));
        assert_eq!(eval_int_binary("ceildivsi", 7, 2, 32), Some(4));
        assert_eq!(eval_int_binary("floordivsi", 7, -2, 32), Some(-4));
        assert_eq!(eval_int_binary("divsi", -7, 2, 32), Some(-3));
        assert_eq!(eval_int_binary("remsi", -7, 2, 32), Some(-1));
        assert_eq!(eval_int_binary("divui", -7, 2, 32), Some(2147483644));
        assert_eq!(eval_int_binary("divsi", i128::from(i32::MIN), -1, 32), None);
        assert_eq!(eval_int_binary("divsi", 7, 0, 32), None);
        assert_eq!(eval_int_binary("remui", 7, 0, 32), None);
        assert_eq!(eval_int_binary("shli", 1, 32, 32), None);
        assert_eq!(eval_int_binary("shli", 1, 31, 32), Some(i128::from(i32::MIN)));
        assert_eq!(eval_int_binary("shrui", -1, 28, 32), Some(15));
        assert_eq!(eval_int_binary("shrsi", -16, 2, 32), Some(-4));
        assert_eq!(eval_int_binary("maxui", -1, 1, 32), Some(-1));
        assert_eq!(eval_int_binary("minsi", -1, 1, 32), Some(-1));
        assert_eq!(eval_int_binary("addi", i128::from(i64::MAX), 1, 64), Some(i128::from(i64::MIN)));
    }

    #[test]
    fn float_semantics() {
        // 0.1f + 0.2f rounds to the f32 nearest 0.3; in f64 it is 0.30000000000000004.
        let (a, b) = (f64::from(0.1f32), f64::from(0.2f32));
        assert_eq!(eval_float_binary("addf", a, b, FloatKind::F32), Some(f64::from(0.3f32)));
        assert_eq!(eval_float_binary("addf", 0.1, 0.2, FloatKind::F64), Some(0.30000000000000004));
        let nan = eval_float_binary("divf", 0.0, 0.0, FloatKind::F32).unwrap();
        assert_eq!((nan as f32).to_bits(), 0x7FC0_0000);
        assert_eq!(eval_float_binary("minnumf", f64::NAN, 2.5, FloatKind::F32), Some(2.5));
        assert!(eval_float_binary("minimumf", f64::NAN, 2.5, FloatKind::F32).unwrap().is_nan());
        assert!(eval_float_binary("minnumf", 0.0, -0.0, FloatKind::F32).unwrap().is_sign_negative());
        assert!(eval_float_binary("maximumf", -0.0, 0.0, FloatKind::F32).unwrap().is_sign_positive());
        assert_eq!(eval_float_binary("remf", -2.5, 2.5, FloatKind::F32).map(f64::to_bits), Some((-0.0f64).to_bits()));
        assert_eq!(eval_float_binary("addf", 1.0, 1.0, FloatKind::F16), None);
    }

    #[test]
    fn casts() {
        let i32c = |v| Attribute::Integer { value: v, ty: Type::I32 };
        assert_eq!(fold_constant_cast("extui", &i32c(-1), &Type::I32, &Type::I64), Some(Attribute::i64(4294967295)));
        assert_eq!(fold_constant_cast("extsi", &i32c(-1), &Type::I32, &Type::I64), Some(Attribute::i64(-1)));
        assert_eq!(
            fold_constant_cast("trunci", &i32c(300), &Type::I32, &Type::Integer(8)),
            Some(Attribute::Integer { value: 44, ty: Type::Integer(8) })
        );
        assert_eq!(
            fold_constant_cast("index_castui", &i32c(-1), &Type::I32, &Type::Index),
            Some(Attribute::index(4294967295))
        );
        assert_eq!(
            fold_constant_cast("uitofp", &i32c(-1), &Type::I32, &Type::F32),
            Some(Attribute::Float { value: 4294967296.0, kind: FloatKind::F32 })
        );
        let f = |v| Attribute::Float { value: v, kind: FloatKind::F64 };
        assert_eq!(fold_constant_cast("fptosi", &f(-2.5), &Type::F64, &Type::I32), Some(Attribute::i32(-2)));
        assert_eq!(fold_constant_cast("fptosi", &f(1e300), &Type::F64, &Type::I32), None);
        assert_eq!(fold_constant_cast("fptoui", &f(-1.0), &Type::F64, &Type::I32), None);
        assert_eq!(fold_constant_cast("truncf", &f(0.1), &Type::F64, &Type::F32), None);
        assert_eq!(
            fold_constant_cast("truncf", &f(0.5), &Type::F64, &Type::F32),
            Some(Attribute::Float { value: 0.5, kind: FloatKind::F32 })
        );
        assert_eq!(
            fold_constant_cast(
                "bitcast",
                &Attribute::Float { value: 1.0, kind: FloatKind::F32 },
                &Type::F32,
                &Type::I32
            ),
            Some(Attribute::i32(0x3F80_0000))
        );
    }
}
