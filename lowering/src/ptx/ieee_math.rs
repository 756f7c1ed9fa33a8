//! Square roots rounded as IEEE 754 says, in the copy of the IR handed to MLIR.
//!
//! `convert-gpu-to-nvvm` lowers `math.sqrt` and `math.rsqrt` to libdevice's `__nv_sqrtf`,
//! `__nv_rsqrtf` and `__nv_rsqrt`. libdevice picks the precise `sqrt.rn.f32` only when the
//! module says `__CUDA_PREC_SQRT = 1` through `__nvvm_reflect`, which LLVM 22 takes from a
//! process-wide command-line option only (`-nvvm-reflect-add`), not from the module; by default
//! `__nv_sqrtf` is `sqrt.approx.f32`, and LLVM then folds `1 / sqrt(x)` into `rsqrt.approx.f32`.
//! Both differ from the correctly rounded square root IEEE 754 requires and the reference
//! interpreter computes: an H200 run of PolyBench-style `hhc-gradient-3d` in f32 (`x + 1 /
//! sqrt(eps + Σ d²)`) failed its bit-exact check for every mapping, while f64 passed
//! (`__nv_sqrt` is always `sqrt.rn.f64`).
//!
//! So, on the copy (our IR, the simulator and the fingerprints keep the `math` ops):
//!
//! * `math.sqrt` on `f32` becomes `arith.truncf(math.sqrt(arith.extf x : f64))`. This is the
//!   correctly rounded `f32` square root: rounding a square root twice, to a format of
//!   `p' ≥ 2p + 2` bits and then to `p` bits, gives the once-rounded result (Figueroa, "When is
//!   double rounding innocuous?", 1995; 53 ≥ 2·24 + 2).
//! * `math.rsqrt` becomes `1 / sqrt(x)` with that square root and an `arith.divf` in the
//!   operand's type (`div.rn`), as the interpreter computes it: libdevice's reciprocal square
//!   roots are approximations in both precisions.
//!
//! Transcendental functions (`math.exp`, `math.sin`, …) stay libdevice's: neither side rounds
//! them correctly, and docs/runtime.md says results may differ from another implementation.

use super::op_with_result;
use stencil_ir::ir::{InsertPoint, OperationState, WalkOrder};
use stencil_ir::types::FloatKind;
use stencil_ir::{Attribute, Ir, Location, OpId, Type, ValueId};

/// Rewrites the square roots under `gpu_module` (see the module documentation); returns how
/// many ops it replaced.
pub(super) fn correctly_rounded_square_roots(ir: &mut Ir, gpu_module: OpId) -> Result<usize, String> {
    let targets: Vec<OpId> = ir
        .collect_ops(gpu_module, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&op| matches!(ir.op_name(op), "math.sqrt" | "math.rsqrt"))
        .collect();
    let mut replaced = 0;
    for op in targets {
        let ty = ir.value_type(ir.result(op, 0)).clone();
        let Type::Float(kind @ (FloatKind::F32 | FloatKind::F64)) = ty else { continue };
        let &[x] = ir.operands(op) else {
            return Err(format!("{} with {} operands", ir.op_name(op), ir.operands(op).len()));
        };
        let location = ir.location(op).clone();
        let reciprocal = ir.op_name(op) == "math.rsqrt";
        let (root, last) = precise_sqrt(ir, InsertPoint::Before(op), x, kind, &location);
        let value = if reciprocal {
            let mut one = OperationState::new("arith.constant", location.clone());
            one.add_property("value", Attribute::Float { value: 1.0, kind });
            one.result_types = vec![ty.clone()];
            let one = ir.build(InsertPoint::After(last), one);
            let divide =
                op_with_result(ir, InsertPoint::After(one), "arith.divf", &[ir.result(one, 0), root], &ty, &location);
            ir.result(divide, 0)
        } else {
            root
        };
        ir.replace_all_uses(ir.result(op, 0), value);
        ir.erase_op(op);
        replaced += 1;
    }
    Ok(replaced)
}

/// The correctly rounded square root of `x` (of float kind `kind`), built at `at`: `math.sqrt`
/// itself in f64 (libdevice's `sqrt.rn.f64`), through f64 for f32. Returns the value and the
/// last op built.
fn precise_sqrt(ir: &mut Ir, at: InsertPoint, x: ValueId, kind: FloatKind, location: &Location) -> (ValueId, OpId) {
    if kind == FloatKind::F64 {
        let root = op_with_result(ir, at, "math.sqrt", &[x], &Type::F64, location);
        return (ir.result(root, 0), root);
    }
    let wide = op_with_result(ir, at, "arith.extf", &[x], &Type::F64, location);
    let root = op_with_result(ir, InsertPoint::After(wide), "math.sqrt", &[ir.result(wide, 0)], &Type::F64, location);
    let narrow =
        op_with_result(ir, InsertPoint::After(root), "arith.truncf", &[ir.result(root, 0)], &Type::F32, location);
    (ir.result(narrow, 0), narrow)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// The claim the f32 rewrite rests on: the f64 square root rounded to f32 is the correctly
    /// rounded f32 square root (Rust's `f32::sqrt` is IEEE's), for any f32 — normal, subnormal,
    /// zero, infinite or NaN (NaN compared as NaN).
    fn same_as_f32_sqrt(x: f32) -> bool {
        let direct = x.sqrt();
        let through_f64 = (f64::from(x)).sqrt() as f32;
        direct.to_bits() == through_f64.to_bits() || (direct.is_nan() && through_f64.is_nan())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn f32_square_root_through_f64_is_correctly_rounded(bits in any::<u32>()) {
            prop_assert!(same_as_f32_sqrt(f32::from_bits(bits)));
        }
    }

    /// Where double rounding would most likely go wrong: results just beside the midpoints
    /// between two f32 values, the squares of midpoints and their neighbours.
    #[test]
    fn near_midpoints_too() {
        for m in [1u32, 2, 3, 0x40_0000, 0x7f_ffff, 0x55_5555, 0x12_3457] {
            for e in [-126i32, -20, -1, 0, 1, 20, 63] {
                let mid = (1.0 + (f64::from(m) + 0.5) / f64::from(1u32 << 23)) * 2f64.powi(e);
                let square = (mid * mid) as f32;
                let bits = square.to_bits();
                for b in bits.saturating_sub(2)..=bits.saturating_add(2) {
                    assert!(same_as_f32_sqrt(f32::from_bits(b)), "{b:#x}");
                }
            }
        }
    }
}
