//! Division by a constant as a multiplication and one correction, in the copy of the IR handed
//! to MLIR.
//!
//! `arith.divf %x, %c` becomes PTX's `div.rn`, the correctly rounded quotient. For a constant
//! divisor ptxas still runs its general sequence at every point: a reciprocal approximation of
//! `c` (`MUFU.RCP64H` and five `DFMA`s of Newton steps in f64, not hoisted out of loops), the
//! quotient from it with one correction, a range check and a call to a slow path. Jacobi-2D's
//! `÷ 5` was 16 of the 40 SASS instructions per point of its overlapped f64 kernel, 8 now.
//!
//! Here the reciprocal is the constant `r = RN(1/c)`, computed once at compile time, and the
//! quotient takes the last step of that sequence only (Markstein's correction):
//!
//! ```text
//! q₀ = RN(x · r);   e = fma(−q₀, c, x)  (exact: x − q₀·c);   q = fma(e, r, q₀)
//! ```
//!
//! which is the correctly rounded `x / c` when nothing underflows or overflows (Markstein's
//! theorem with a correctly rounded reciprocal; Brisebarre, Muller and Raina, "Accelerating
//! correctly rounded floating-point division when the divisor is known in advance", IEEE
//! Trans. Computers 53(8), 2004). So it is taken
//! only where `|x|` lies in a range that keeps every step normal and finite (`2^-900 ≤ |x| ≤
//! 2^900` in f64, `2^-90 ≤ |x| ≤ 2^90` in f32, divisors between `2^-20` and `2^20`): zeros
//! (whose sign `fma` would lose), subnormals, infinities and NaNs take `arith.divf` as before,
//! in the `else` of an `scf.if`. Checked bit for bit against IEEE division: every f32 in the
//! range for fifteen divisors (3, 5, 7, …, 1 ± ulp, 0.3, 10⁶), 300 random divisors of each type
//! with millions of random dividends, and the hard divisors of f64 (`bench/results/
//! 2026-11-30-constant-division.txt`); the unit tests below run the same sequence.
//!
//! Divisors that are powers of two are left alone (LLVM already multiplies by the exact
//! reciprocal), as are divisions with fast-math flags (LLVM's to treat). Our IR, the simulator
//! and the fingerprints keep the `arith.divf`; the PTX computes the same value.

use super::op_with_result;
use crate::gpu_map::ops::if_with_else;
use stencil_dialects::arith::flags::FlagKind;
use stencil_ir::ir::{InsertPoint, OperationState, WalkOrder};
use stencil_ir::types::FloatKind;
use stencil_ir::{Attribute, Ir, Location, OpId, Type, ValueId};

/// `arith.cmpf` predicates (MLIR's numbering).
const CMPF_OGE: i64 = 3;
const CMPF_OLE: i64 = 5;

/// The divisor of a division this module rewrites, with its reciprocal and the range of
/// dividends the short sequence is exact for.
#[derive(Copy, Clone, Debug, PartialEq)]
struct ConstantDivisor {
    kind: FloatKind,
    reciprocal: f64,
    smallest_dividend: f64,
    largest_dividend: f64,
}

/// `divisor` (an f32 or f64 value, as the constant attribute holds it) if it qualifies: finite,
/// between `2^-20` and `2^20` in magnitude, not a power of two.
fn constant_divisor(divisor: f64, kind: FloatKind) -> Option<ConstantDivisor> {
    let magnitude = divisor.abs();
    if !(magnitude >= 2f64.powi(-20) && magnitude <= 2f64.powi(20)) {
        return None;
    }
    let (reciprocal, exponent) = match kind {
        FloatKind::F64 => (1.0 / divisor, 900),
        // Rounded in f32: the reciprocal of the f32 divisor, RN in f32.
        FloatKind::F32 => (f64::from(1.0f32 / divisor as f32), 90),
        _ => return None,
    };
    // A power of two has an exact reciprocal: LLVM multiplies already.
    if magnitude.to_bits() & ((1u64 << 52) - 1) == 0 {
        return None;
    }
    Some(ConstantDivisor {
        kind,
        reciprocal,
        smallest_dividend: 2f64.powi(-exponent),
        largest_dividend: 2f64.powi(exponent),
    })
}

/// The divisions under `gpu_module` this module rewrites: `arith.divf` by an `arith.constant`,
/// without fast-math flags, whose divisor qualifies.
fn candidates(ir: &Ir, gpu_module: OpId) -> Vec<(OpId, ConstantDivisor)> {
    ir.collect_ops(gpu_module, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&op| ir.op_name(op) == "arith.divf" && ir.operands(op).len() == 2)
        .filter(|&op| FlagKind::FastMath.of_op(ir, op) == 0)
        .filter_map(|op| {
            let constant = ir.defining_op(ir.operands(op)[1])?;
            if ir.op_name(constant) != "arith.constant" {
                return None;
            }
            let Some(Attribute::Float { value, kind }) = ir.attr(constant, "value") else { return None };
            Some((op, constant_divisor(*value, *kind)?))
        })
        .collect()
}

/// Whether `gpu_module` has a division [`rewrite_divisions_by_constants`] would rewrite.
pub(super) fn has_divisions_by_constants(ir: &Ir, gpu_module: OpId) -> bool {
    !candidates(ir, gpu_module).is_empty()
}

/// Rewrites the divisions by constants under `gpu_module` (module documentation); returns how
/// many.
pub(super) fn rewrite_divisions_by_constants(ir: &mut Ir, gpu_module: OpId) -> usize {
    let found = candidates(ir, gpu_module);
    for &(op, divisor) in &found {
        rewrite(ir, op, divisor);
    }
    found.len()
}

/// `%q = scf.if (lo <= |x| <= hi) { Markstein's sequence } else { arith.divf %x, %c }` in
/// place of the division `op`.
fn rewrite(ir: &mut Ir, op: OpId, divisor: ConstantDivisor) {
    let location = ir.location(op).clone();
    let (x, c) = (ir.operands(op)[0], ir.operands(op)[1]);
    let ty = Type::Float(divisor.kind);
    let at = InsertPoint::Before(op);
    let float = |ir: &mut Ir, at: InsertPoint, value: f64| constant(ir, at, value, divisor.kind, &location);

    let magnitude = operation(ir, at, "math.absf", &[x], &ty, &location);
    let smallest = float(ir, at, divisor.smallest_dividend);
    let largest = float(ir, at, divisor.largest_dividend);
    let above = compare(ir, at, CMPF_OGE, magnitude, smallest, &location);
    let below = compare(ir, at, CMPF_OLE, magnitude, largest, &location);
    let in_range = operation(ir, at, "arith.andi", &[above, below], &Type::I1, &location);

    let (branch, then_block, else_block) = if_with_else(ir, at, in_range, vec![ty.clone()], &location);

    // q₀ = x·r, e = fma(−q₀, c, x), q = fma(e, r, q₀).
    let then = InsertPoint::End(then_block);
    let reciprocal = float(ir, then, divisor.reciprocal);
    let first = operation(ir, then, "arith.mulf", &[x, reciprocal], &ty, &location);
    let negated = operation(ir, then, "arith.negf", &[first], &ty, &location);
    let remainder = operation(ir, then, "math.fma", &[negated, c, x], &ty, &location);
    let quotient = operation(ir, then, "math.fma", &[remainder, reciprocal, first], &ty, &location);
    yield_value(ir, then, quotient, &location);

    let otherwise = InsertPoint::End(else_block);
    let divided = operation(ir, otherwise, "arith.divf", &[x, c], &ty, &location);
    yield_value(ir, otherwise, divided, &location);

    ir.replace_all_uses(ir.result(op, 0), ir.result(branch, 0));
    ir.erase_op(op);
}

/// `arith.constant value : kind`.
fn constant(ir: &mut Ir, at: InsertPoint, value: f64, kind: FloatKind, location: &Location) -> ValueId {
    let mut state = OperationState::new("arith.constant", location.clone());
    state.add_property("value", Attribute::Float { value, kind });
    state.result_types = vec![Type::Float(kind)];
    let op = ir.build(at, state);
    ir.result(op, 0)
}

/// `arith.cmpf predicate, %a, %b`.
fn compare(ir: &mut Ir, at: InsertPoint, predicate: i64, a: ValueId, b: ValueId, location: &Location) -> ValueId {
    let mut state = OperationState::new("arith.cmpf", location.clone());
    state.operands = vec![a, b];
    state.add_property("predicate", Attribute::i64(predicate));
    state.result_types = vec![Type::I1];
    let op = ir.build(at, state);
    ir.result(op, 0)
}

/// An op `name` of `operands` with one result of type `ty`, built at `at`: its result.
fn operation(
    ir: &mut Ir,
    at: InsertPoint,
    name: &str,
    operands: &[ValueId],
    ty: &Type,
    location: &Location,
) -> ValueId {
    let op = op_with_result(ir, at, name, operands, ty, location);
    ir.result(op, 0)
}

/// `scf.yield %value` at `at`.
fn yield_value(ir: &mut Ir, at: InsertPoint, value: ValueId, location: &Location) {
    let mut state = OperationState::new("scf.yield", location.clone());
    state.operands = vec![value];
    ir.build(at, state);
}

#[cfg(test)]
mod tests {
    use super::{constant_divisor, ConstantDivisor};
    use proptest::prelude::*;
    use stencil_ir::types::FloatKind;

    /// The sequence the rewrite emits, in f64, with its range test (the `else` divides).
    fn divide_f64(x: f64, c: f64, d: &ConstantDivisor) -> f64 {
        if x.abs() >= d.smallest_dividend && x.abs() <= d.largest_dividend {
            let q = x * d.reciprocal;
            let e = (-q).mul_add(c, x);
            e.mul_add(d.reciprocal, q)
        } else {
            x / c
        }
    }

    /// The same in f32.
    fn divide_f32(x: f32, c: f32, d: &ConstantDivisor) -> f32 {
        let r = d.reciprocal as f32;
        if f64::from(x.abs()) >= d.smallest_dividend && f64::from(x.abs()) <= d.largest_dividend {
            let q = x * r;
            let e = (-q).mul_add(c, x);
            e.mul_add(r, q)
        } else {
            x / c
        }
    }

    fn same_f64(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    fn same_f32(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn which_divisors_qualify() {
        assert!(constant_divisor(5.0, FloatKind::F64).is_some());
        assert!(constant_divisor(-7.0, FloatKind::F32).is_some());
        for refused in [0.0, 4.0, -0.5, 1.0, f64::INFINITY, f64::NAN, 1e7, 1e-7] {
            assert_eq!(constant_divisor(refused, FloatKind::F64), None, "{refused}");
        }
        let fifth = constant_divisor(5.0, FloatKind::F64).expect("qualifies");
        assert_eq!(fifth.reciprocal.to_bits(), 0x3FC999999999999A);
        let fifth32 = constant_divisor(5.0, FloatKind::F32).expect("qualifies");
        assert_eq!((fifth32.reciprocal as f32).to_bits(), 0x3E4CCCCD);
    }

    /// Zeros, subnormals, infinities, NaNs and the edges of the range: the rewrite's results are
    /// IEEE division's, signs included.
    #[test]
    fn special_dividends_divide_as_ieee_says() {
        for c in [5.0, 7.0, -3.0, 0.3] {
            let d = constant_divisor(c, FloatKind::F64).expect("qualifies");
            let range = [d.smallest_dividend, d.largest_dividend];
            let specials = [0.0, -0.0, f64::MIN_POSITIVE, 5e-324, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, f64::MAX];
            for x in specials.into_iter().chain(range).chain(range.map(|v| -v)) {
                for y in [x, f64::from_bits(x.to_bits().wrapping_add(1)), f64::from_bits(x.to_bits().wrapping_sub(1))] {
                    assert!(same_f64(divide_f64(y, c, &d), y / c), "{y:e} / {c}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]

        /// Any f64 dividend (random bit patterns: every binade, both signs) by a random divisor
        /// of the accepted range, 64 dividends per divisor.
        #[test]
        fn f64_quotients_are_correctly_rounded(c_bits in (1003u64..=1043, any::<u64>()), xs in prop::collection::vec(any::<u64>(), 64)) {
            let c = f64::from_bits((c_bits.0 << 52) | (c_bits.1 & ((1 << 52) - 1)));
            if let Some(d) = constant_divisor(c, FloatKind::F64) {
                for x in xs.into_iter().map(f64::from_bits) {
                    prop_assert!(same_f64(divide_f64(x, c, &d), x / c), "{:e} / {:e}", x, c);
                }
            }
        }

        /// The same in f32.
        #[test]
        fn f32_quotients_are_correctly_rounded(c_bits in (107u32..=147, any::<u32>()), xs in prop::collection::vec(any::<u32>(), 64)) {
            let c = f32::from_bits((c_bits.0 << 23) | (c_bits.1 & ((1 << 23) - 1)));
            if let Some(d) = constant_divisor(f64::from(c), FloatKind::F32) {
                for x in xs.into_iter().map(f32::from_bits) {
                    prop_assert!(same_f32(divide_f32(x, c, &d), x / c), "{:e} / {:e}", x, c);
                }
            }
        }
    }

    /// Every f32 dividend for the divisors of the examples (about 20 s each in release):
    /// `cargo test --release -p stencil-lowering every_f32 -- --ignored`.
    #[test]
    #[ignore = "exhaustive over all 2^32 f32 values; run by hand"]
    fn every_f32_quotient_by_the_examples_divisors_is_correctly_rounded() {
        for c in [5.0f32, 7.0, 3.0, 9.0] {
            let d = constant_divisor(f64::from(c), FloatKind::F32).expect("qualifies");
            let wrong = (0..=u32::MAX).map(f32::from_bits).filter(|&x| !same_f32(divide_f32(x, c, &d), x / c)).count();
            assert_eq!(wrong, 0, "÷ {c}");
        }
    }
}
