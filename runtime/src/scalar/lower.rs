//! Translation of `arith` and `math` ops (and constants) into [`ScalarInsn`]s.

use super::insn::CastKind;
use super::semantics::{FBinOp, FUnOp, IBinOp, IUnOp};
use super::{Elem, Prec, Reg, ScalarInsn};
use crate::error::{RuntimeError, RuntimeResult};
use stencil_ir::types::FloatKind;
use stencil_ir::{Attribute, Ir, OpId, Type, ValueId};

/// How a value is held in a register.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ValueKind {
    /// `f32` bits.
    F32,
    /// `f64` bits.
    F64,
    /// An integer of the given width (`index` is 64), canonical sign-extended form.
    Int(u8),
    /// A buffer handle.
    MemRef,
}

/// The register kind of a type, `None` for types the interpreter cannot hold (`f16`,
/// integers wider than 64 bits, dialect types …).
pub(crate) fn value_kind(ty: &Type) -> Option<ValueKind> {
    match ty {
        Type::Float(FloatKind::F32) => Some(ValueKind::F32),
        Type::Float(FloatKind::F64) => Some(ValueKind::F64),
        Type::Index => Some(ValueKind::Int(64)),
        Type::Integer(w) if (1..=64).contains(w) => Some(ValueKind::Int(*w as u8)),
        Type::MemRef(_) => Some(ValueKind::MemRef),
        _ => None,
    }
}

/// The register encoding of a constant attribute of type `ty`.
pub(crate) fn constant_bits(attr: &Attribute, ty: &Type) -> Option<u64> {
    match (value_kind(ty)?, attr) {
        (ValueKind::F32, Attribute::Float { value, .. }) => Some((*value as f32).to_reg()),
        (ValueKind::F64, Attribute::Float { value, .. }) => Some(value.to_reg()),
        (ValueKind::Int(w), Attribute::Integer { value, .. }) => Some(super::sext(*value as i64, w) as u64),
        (ValueKind::Int(w), Attribute::Bool(b)) => Some(super::sext(i64::from(*b), w) as u64),
        _ => None,
    }
}

fn prec_of(ty: &Type) -> Option<Prec> {
    match value_kind(ty)? {
        ValueKind::F32 => Some(Prec::F32),
        ValueKind::F64 => Some(Prec::F64),
        _ => None,
    }
}

fn width_of(ty: &Type) -> Option<u8> {
    match value_kind(ty)? {
        ValueKind::Int(w) => Some(w),
        _ => None,
    }
}

fn float_binary(name: &str) -> Option<FBinOp> {
    Some(match name {
        "arith.remf" => FBinOp::Rem,
        "arith.minimumf" => FBinOp::Minimum,
        "arith.maximumf" => FBinOp::Maximum,
        "arith.minnumf" => FBinOp::MinNum,
        "arith.maxnumf" => FBinOp::MaxNum,
        "math.powf" => FBinOp::Pow,
        "math.atan2" => FBinOp::Atan2,
        "math.copysign" => FBinOp::CopySign,
        _ => return None,
    })
}

fn float_unary(name: &str) -> Option<FUnOp> {
    Some(match name {
        "arith.negf" => FUnOp::Neg,
        "math.sqrt" => FUnOp::Sqrt,
        "math.rsqrt" => FUnOp::Rsqrt,
        "math.cbrt" => FUnOp::Cbrt,
        "math.absf" => FUnOp::Abs,
        "math.exp" => FUnOp::Exp,
        "math.exp2" => FUnOp::Exp2,
        "math.expm1" => FUnOp::Expm1,
        "math.log" => FUnOp::Log,
        "math.log2" => FUnOp::Log2,
        "math.log10" => FUnOp::Log10,
        "math.log1p" => FUnOp::Log1p,
        "math.sin" => FUnOp::Sin,
        "math.cos" => FUnOp::Cos,
        "math.tan" => FUnOp::Tan,
        "math.asin" => FUnOp::Asin,
        "math.acos" => FUnOp::Acos,
        "math.atan" => FUnOp::Atan,
        "math.sinh" => FUnOp::Sinh,
        "math.cosh" => FUnOp::Cosh,
        "math.tanh" => FUnOp::Tanh,
        "math.floor" => FUnOp::Floor,
        "math.ceil" => FUnOp::Ceil,
        "math.round" => FUnOp::Round,
        "math.roundeven" => FUnOp::RoundEven,
        "math.trunc" => FUnOp::Trunc,
        _ => return None,
    })
}

fn int_binary(name: &str) -> Option<IBinOp> {
    Some(match name {
        "arith.addi" => IBinOp::Add,
        "arith.subi" => IBinOp::Sub,
        "arith.muli" => IBinOp::Mul,
        "arith.divsi" => IBinOp::DivS,
        "arith.divui" => IBinOp::DivU,
        "arith.remsi" => IBinOp::RemS,
        "arith.remui" => IBinOp::RemU,
        "arith.ceildivsi" => IBinOp::CeilDivS,
        "arith.floordivsi" => IBinOp::FloorDivS,
        "arith.andi" => IBinOp::And,
        "arith.ori" => IBinOp::Or,
        "arith.xori" => IBinOp::Xor,
        "arith.shli" => IBinOp::Shl,
        "arith.shrsi" => IBinOp::ShrS,
        "arith.shrui" => IBinOp::ShrU,
        "arith.minsi" => IBinOp::MinS,
        "arith.maxsi" => IBinOp::MaxS,
        "arith.minui" => IBinOp::MinU,
        "arith.maxui" => IBinOp::MaxU,
        "math.ipowi" => IBinOp::IPow,
        _ => return None,
    })
}

fn int_unary(name: &str) -> Option<IUnOp> {
    Some(match name {
        "math.absi" => IUnOp::Abs,
        "math.ctlz" => IUnOp::Ctlz,
        "math.cttz" => IUnOp::Cttz,
        "math.ctpop" => IUnOp::Ctpop,
        _ => return None,
    })
}

/// The index of a comparison predicate, stored as MLIR stores it (an integer) or as its name.
fn predicate(ir: &Ir, op: OpId, names: &[&str]) -> Option<u8> {
    let attr = ir.attr(op, "predicate")?;
    let index = match attr.as_str() {
        Some(name) => names.iter().position(|n| *n == name)?,
        None => usize::try_from(attr.as_i64()?).ok().filter(|&i| i < names.len())?,
    };
    u8::try_from(index).ok()
}

/// Whether `name` is an op [`lower_scalar_op`] translates.
pub(crate) fn is_scalar_op(name: &str) -> bool {
    float_binary(name).is_some()
        || float_unary(name).is_some()
        || int_binary(name).is_some()
        || int_unary(name).is_some()
        || matches!(
            name,
            "arith.addf"
                | "arith.subf"
                | "arith.mulf"
                | "arith.divf"
                | "math.fma"
                | "math.fpowi"
                | "arith.cmpf"
                | "arith.cmpi"
                | "arith.select"
        )
        || cast_name(name)
}

fn cast_name(name: &str) -> bool {
    matches!(
        name,
        "arith.index_cast"
            | "arith.index_castui"
            | "arith.extsi"
            | "arith.extui"
            | "arith.trunci"
            | "arith.sitofp"
            | "arith.uitofp"
            | "arith.fptosi"
            | "arith.fptoui"
            | "arith.extf"
            | "arith.truncf"
            | "arith.bitcast"
    )
}

/// Translates the `arith`/`math` op `op` (not `arith.constant`) into an instruction, with
/// registers given by `reg`. Errors name the op's location.
pub(crate) fn lower_scalar_op(ir: &Ir, op: OpId, reg: &dyn Fn(ValueId) -> Reg) -> RuntimeResult<ScalarInsn> {
    let name = ir.op_name(op);
    let loc = ir.location(op);
    let bad = |what: &str| RuntimeError::unsupported(loc, format!("'{name}' {what}"));
    let operands = ir.operands(op);
    let [result] = *ir.results(op) else { return Err(bad("must have exactly one result")) };
    let rty = ir.value_type(result);
    let dst = reg(result);
    let arity = |n: usize| -> RuntimeResult<Vec<Reg>> {
        if operands.len() == n {
            Ok(operands.iter().map(|&v| reg(v)).collect())
        } else {
            Err(bad(&format!("expects {n} operands, found {}", operands.len())))
        }
    };
    let rprec = || prec_of(rty).ok_or_else(|| bad(&format!("on '{rty}' is not supported (f32 and f64 only)")));
    let rwidth = || width_of(rty).ok_or_else(|| bad(&format!("on '{rty}' is not supported (integers up to 64 bits)")));
    let operand_type = |i: usize| operands.get(i).map(|&v| ir.value_type(v));

    if let Some(fop) = float_binary(name) {
        let r = arity(2)?;
        return Ok(ScalarInsn::FBinary { op: fop, prec: rprec()?, dst, a: r[0], b: r[1] });
    }
    if let Some(fop) = float_unary(name) {
        let r = arity(1)?;
        return Ok(ScalarInsn::FUnary { op: fop, prec: rprec()?, dst, a: r[0] });
    }
    if let Some(iop) = int_binary(name) {
        let r = arity(2)?;
        return Ok(ScalarInsn::IBinary { op: iop, width: rwidth()?, dst, a: r[0], b: r[1] });
    }
    if let Some(iop) = int_unary(name) {
        let r = arity(1)?;
        return Ok(ScalarInsn::IUnary { op: iop, width: rwidth()?, dst, a: r[0] });
    }
    match name {
        "arith.addf" | "arith.subf" | "arith.mulf" | "arith.divf" => {
            let r = arity(2)?;
            let (a, b) = (r[0], r[1]);
            Ok(match (name, rprec()?) {
                ("arith.addf", Prec::F64) => ScalarInsn::AddF64 { dst, a, b },
                ("arith.subf", Prec::F64) => ScalarInsn::SubF64 { dst, a, b },
                ("arith.mulf", Prec::F64) => ScalarInsn::MulF64 { dst, a, b },
                ("arith.divf", Prec::F64) => ScalarInsn::DivF64 { dst, a, b },
                ("arith.addf", Prec::F32) => ScalarInsn::AddF32 { dst, a, b },
                ("arith.subf", Prec::F32) => ScalarInsn::SubF32 { dst, a, b },
                ("arith.mulf", Prec::F32) => ScalarInsn::MulF32 { dst, a, b },
                _ => ScalarInsn::DivF32 { dst, a, b },
            })
        }
        "math.fma" => {
            let r = arity(3)?;
            Ok(match rprec()? {
                Prec::F64 => ScalarInsn::FmaF64 { dst, a: r[0], b: r[1], c: r[2] },
                Prec::F32 => ScalarInsn::FmaF32 { dst, a: r[0], b: r[1], c: r[2] },
            })
        }
        "math.fpowi" => {
            let r = arity(2)?;
            let width = operand_type(1).and_then(width_of).ok_or_else(|| bad("needs an integer exponent"))?;
            Ok(ScalarInsn::FPowI { prec: rprec()?, dst, a: r[0], b: r[1], width })
        }
        "arith.cmpf" => {
            let r = arity(2)?;
            let pred = predicate(ir, op, stencil_dialects::arith::fold::CMPF_PREDICATES)
                .ok_or_else(|| bad("has no valid 'predicate'"))?;
            let prec = operand_type(0).and_then(prec_of).ok_or_else(|| bad("compares a non-float type"))?;
            Ok(ScalarInsn::CmpF { pred, prec, dst, a: r[0], b: r[1] })
        }
        "arith.cmpi" => {
            let r = arity(2)?;
            let pred = predicate(ir, op, stencil_dialects::arith::fold::CMPI_PREDICATES)
                .ok_or_else(|| bad("has no valid 'predicate'"))?;
            let width = operand_type(0).and_then(width_of).ok_or_else(|| bad("compares a non-integer type"))?;
            Ok(ScalarInsn::CmpI { pred, width, dst, a: r[0], b: r[1] })
        }
        "arith.select" => {
            let r = arity(3)?;
            Ok(ScalarInsn::Select { dst, cond: r[0], a: r[1], b: r[2] })
        }
        _ if cast_name(name) => {
            let r = arity(1)?;
            let from = operand_type(0).cloned().unwrap_or(Type::None);
            let kind = cast_kind(ir, op, name, &from, rty).ok_or_else(|| {
                bad(&format!("from '{from}' to '{rty}' is not supported (f32, f64 and integers up to 64 bits)"))
            })?;
            Ok(ScalarInsn::Cast { kind, dst, a: r[0] })
        }
        _ => Err(RuntimeError::unsupported(
            loc,
            format!("the reference interpreter does not support '{name}' (supported: func, arith, math except erf, memref, scf, affine)"),
        )),
    }
}

fn cast_kind(ir: &Ir, op: OpId, name: &str, from: &Type, to: &Type) -> Option<CastKind> {
    let (fk, tk) = (value_kind(from)?, value_kind(to)?);
    Some(match (name, fk, tk) {
        ("arith.index_cast" | "arith.extsi" | "arith.trunci", ValueKind::Int(f), ValueKind::Int(t)) => {
            CastKind::Int { from: f, to: t, unsigned: false }
        }
        ("arith.index_castui" | "arith.extui", ValueKind::Int(f), ValueKind::Int(t)) => {
            CastKind::Int { from: f, to: t, unsigned: true }
        }
        ("arith.sitofp" | "arith.uitofp", ValueKind::Int(f), _) => {
            CastKind::IntToFloat { from: f, unsigned: name == "arith.uitofp", to: prec_of(to)? }
        }
        ("arith.fptosi" | "arith.fptoui", _, ValueKind::Int(t)) => {
            CastKind::FloatToInt { from: prec_of(from)?, to: t, unsigned: name == "arith.fptoui" }
        }
        ("arith.extf", ValueKind::F32, ValueKind::F64) => CastKind::ExtF,
        ("arith.truncf", ValueKind::F64, ValueKind::F32) => {
            // Only the default rounding (to nearest, ties to even) is implemented.
            let mode = ir.attr(op, "roundingmode").and_then(Attribute::as_i64).unwrap_or(0);
            if mode != 0 {
                return None;
            }
            CastKind::TruncF
        }
        ("arith.bitcast", ValueKind::F32, ValueKind::Int(32)) => CastKind::F32ToBits,
        ("arith.bitcast", ValueKind::F64, ValueKind::Int(64)) => CastKind::F64ToBits,
        ("arith.bitcast", ValueKind::Int(32), ValueKind::F32) => CastKind::BitsToF32,
        ("arith.bitcast", ValueKind::Int(64), ValueKind::F64) => CastKind::Same,
        ("arith.bitcast", a, b) if a == b && a != ValueKind::MemRef => CastKind::Same,
        _ => return None,
    })
}
