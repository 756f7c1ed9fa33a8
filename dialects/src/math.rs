//! The `math` dialect: elementwise float functions (`sqrt`, `fma`, `exp`, …) with the
//! `fastmath` flags of arith, and a few integer ones (`absi`, `ipowi`, …). Folding covers the
//! functions whose result is exactly defined (`sqrt`, `absf`, `fma`, `floor`, `ceil`, `round`,
//! `roundeven`, `trunc`, `copysign`, `absi`); transcendental functions are not folded, since
//! the host's libm may round them differently from the target's.

use std::fmt::{self, Write};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{CustomOpParser, ParseResult};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::{DefaultPropertiesFn, DialectDef, DialectRegistry, FoldResult, OpDef, OpTraits};
use stencil_ir::types::FloatKind;
use stencil_ir::{Attribute, DiagResult, Ir, OpId, Type};

use crate::arith::flags::{parse_optional_flags, print_flags, FlagKind};
use crate::arith::fold::{int_attr, int_width, sext};
use crate::arith::{
    default_fastmath, expect_class, expect_one_result, materialize_constant, parse_n_operands, parse_same_type_op,
    print_same_type_op, verify_elementwise, verify_flags, TypeClass,
};
use crate::support::{expect_operand_count, op_error};

/// A math op whose operands and result share one type: `%a, … fastmath<…> {attrs} : type`.
struct MathOp {
    name: &'static str,
    summary: &'static str,
    arity: usize,
    class: TypeClass,
}

const fn float_op(name: &'static str, summary: &'static str, arity: usize) -> MathOp {
    MathOp { name, summary, arity, class: TypeClass::Float }
}

const fn int_op(name: &'static str, summary: &'static str, arity: usize) -> MathOp {
    MathOp { name, summary, arity, class: TypeClass::Int }
}

const MATH_OPS: &[MathOp] = &[
    float_op("math.sqrt", "Square root", 1),
    float_op("math.rsqrt", "Reciprocal of the square root", 1),
    float_op("math.cbrt", "Cube root", 1),
    float_op("math.absf", "Float absolute value", 1),
    float_op("math.exp", "Base-e exponential", 1),
    float_op("math.exp2", "Base-2 exponential", 1),
    float_op("math.expm1", "exp(x) - 1", 1),
    float_op("math.log", "Natural logarithm", 1),
    float_op("math.log2", "Base-2 logarithm", 1),
    float_op("math.log10", "Base-10 logarithm", 1),
    float_op("math.log1p", "log(1 + x)", 1),
    float_op("math.sin", "Sine", 1),
    float_op("math.cos", "Cosine", 1),
    float_op("math.tan", "Tangent", 1),
    float_op("math.asin", "Arcsine", 1),
    float_op("math.acos", "Arccosine", 1),
    float_op("math.atan", "Arctangent", 1),
    float_op("math.sinh", "Hyperbolic sine", 1),
    float_op("math.cosh", "Hyperbolic cosine", 1),
    float_op("math.tanh", "Hyperbolic tangent", 1),
    float_op("math.erf", "Error function", 1),
    float_op("math.floor", "Rounds toward negative infinity", 1),
    float_op("math.ceil", "Rounds toward positive infinity", 1),
    float_op("math.round", "Rounds to nearest, ties away from zero", 1),
    float_op("math.roundeven", "Rounds to nearest, ties to even", 1),
    float_op("math.trunc", "Rounds toward zero", 1),
    float_op("math.powf", "Float power", 2),
    float_op("math.atan2", "Two-argument arctangent", 2),
    float_op("math.copysign", "Magnitude of the first operand with the sign of the second", 2),
    float_op("math.fma", "Fused multiply-add, rounded once", 3),
    int_op("math.absi", "Integer absolute value", 1),
    int_op("math.ctlz", "Count leading zero bits", 1),
    int_op("math.cttz", "Count trailing zero bits", 1),
    int_op("math.ctpop", "Count set bits", 1),
    int_op("math.ipowi", "Integer power", 2),
];

fn math_op(name: &str) -> Option<&'static MathOp> {
    MATH_OPS.iter().find(|o| o.name == name)
}

/// Registers the dialect.
pub fn register(r: &mut DialectRegistry) {
    r.register_dialect(DialectDef { materialize_constant: Some(materialize_constant), ..DialectDef::new("math") });
    for op in MATH_OPS {
        let float = op.class == TypeClass::Float;
        r.register_op(OpDef {
            traits: OpTraits { pure: true, ..OpTraits::default() },
            inherent_attrs: if float { &["fastmath"] } else { &[] },
            parse: Some(parse_math),
            print: Some(print_math),
            verify: Some(verify_math),
            fold: Some(fold_math),
            default_properties: float.then_some(default_fastmath as DefaultPropertiesFn),
            ..OpDef::new(op.name, op.summary)
        });
    }
    r.register_op(OpDef {
        traits: OpTraits { pure: true, ..OpTraits::default() },
        inherent_attrs: &["fastmath"],
        parse: Some(parse_fpowi),
        print: Some(print_fpowi),
        verify: Some(verify_fpowi),
        default_properties: Some(default_fastmath),
        ..OpDef::new("math.fpowi", "Float raised to an integer power")
    });
}

fn flags_of(op: &MathOp) -> Option<FlagKind> {
    (op.class == TypeClass::Float).then_some(FlagKind::FastMath)
}

fn parse_math(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let Some(spec) = math_op(&p.state().name) else { return Err(p.op_error("unknown math op")) };
    parse_same_type_op(p, spec.arity, flags_of(spec), false)
}

fn print_math(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let flags = math_op(pr.ir().op_name(op)).and_then(flags_of);
    print_same_type_op(pr, op, flags, false)
}

fn verify_math(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    let Some(spec) = math_op(ir.op_name(op)) else { return Ok(()) };
    verify_elementwise(ir, op, spec.arity, spec.class)?;
    if let Some(kind) = flags_of(spec) {
        verify_flags(ir, op, kind)?;
    }
    Ok(())
}

// ----- fpowi ------------------------------------------------------------------------------

/// `math.fpowi %x, %n fastmath<…> {attrs} : f32, i32`.
fn parse_fpowi(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let operands = parse_n_operands(p, 2)?;
    parse_optional_flags(p, FlagKind::FastMath)?;
    p.parse_optional_attr_dict()?;
    let base = p.parse_colon_type()?;
    p.expect(TokenKind::Comma, "','")?;
    let power = p.parse_type()?;
    p.add_operands(&operands, &[base.clone(), power])?;
    p.add_result_types([base]);
    Ok(())
}

fn print_fpowi(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    pr.print_values(ir.operands(op))?;
    let elided: &[&str] = if print_flags(pr, op, FlagKind::FastMath, true)? { &["fastmath"] } else { &[] };
    pr.print_optional_attr_dict(op, elided)?;
    pr.write_str(" : ")?;
    pr.print_value_types(ir.operands(op))
}

fn verify_fpowi(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 2)?;
    expect_one_result(ir, op)?;
    let base = ir.value_type(ir.operand(op, 0));
    expect_class(ir, op, "operand", 0, base, TypeClass::Float)?;
    expect_class(ir, op, "operand", 1, ir.value_type(ir.operand(op, 1)), TypeClass::Int)?;
    if ir.value_type(ir.result(op, 0)) != base {
        return Err(op_error(ir, op, "failed to verify that all of {lhs, result} have same type"));
    }
    verify_flags(ir, op, FlagKind::FastMath)
}

// ----- folding ----------------------------------------------------------------------------

/// Folds the exactly defined functions of constant operands, as MLIR's math folders do.
fn fold_math(ir: &Ir, op: OpId, consts: &[Option<Attribute>]) -> Option<FoldResult> {
    let name = ir.op_name(op).strip_prefix("math.")?;
    let ty = ir.results(op).first().map(|&r| ir.value_type(r))?.clone();
    let folded = match ty {
        Type::Float(kind) => {
            let args: Vec<f64> =
                consts.iter().map(|c| c.as_ref().and_then(Attribute::as_float)).collect::<Option<_>>()?;
            Attribute::float(eval_float(name, &args, kind)?, kind)
        }
        _ => {
            let w = int_width(&ty)?;
            let [Some(a)] = consts else { return None };
            let v = sext(a.as_int()?, w);
            match name {
                // Two's complement: the absolute value of the minimum wraps to itself.
                "absi" => int_attr(v.abs(), &ty),
                _ => return None,
            }
        }
    };
    Some(FoldResult::Constants(vec![folded]))
}

/// Evaluates a float function on constant arguments in format `kind`.
fn eval_float(name: &str, args: &[f64], kind: FloatKind) -> Option<f64> {
    let exact_for_any_format = matches!(name, "absf" | "floor" | "ceil" | "round" | "roundeven" | "trunc" | "copysign");
    if !exact_for_any_format && !matches!(kind, FloatKind::F32 | FloatKind::F64) {
        return None;
    }
    match (name, args) {
        // Rounding and sign operations produce a value of the same format exactly.
        ("absf", &[a]) => Some(a.abs()),
        ("floor", &[a]) => Some(a.floor()),
        ("ceil", &[a]) => Some(a.ceil()),
        ("round", &[a]) => Some(a.round()),
        ("roundeven", &[a]) => Some(a.round_ties_even()),
        ("trunc", &[a]) => Some(a.trunc()),
        ("copysign", &[a, b]) => Some(a.copysign(b)),
        // MLIR leaves the square root of negative numbers (and of -0.0) unfolded.
        ("sqrt", &[a]) if !a.is_sign_negative() => Some(match kind {
            FloatKind::F32 => f64::from((a as f32).sqrt()),
            _ => a.sqrt(),
        }),
        ("fma", &[a, b, c]) => Some(match kind {
            FloatKind::F32 => f64::from((a as f32).mul_add(b as f32, c as f32)),
            _ => a.mul_add(b, c),
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_functions() {
        assert_eq!(eval_float("sqrt", &[2.0], FloatKind::F32), Some(f64::from(2f32.sqrt())));
        assert_eq!(eval_float("sqrt", &[-4.0], FloatKind::F32), None);
        assert_eq!(eval_float("sqrt", &[-0.0], FloatKind::F64), None);
        assert_eq!(eval_float("floor", &[-2.5], FloatKind::F32), Some(-3.0));
        assert_eq!(eval_float("ceil", &[-2.5], FloatKind::F32), Some(-2.0));
        assert_eq!(eval_float("round", &[2.5], FloatKind::F32), Some(3.0));
        assert_eq!(eval_float("roundeven", &[2.5], FloatKind::F32), Some(2.0));
        assert_eq!(eval_float("absf", &[-0.0], FloatKind::F32).map(f64::to_bits), Some(0));
        assert_eq!(eval_float("exp", &[1.0], FloatKind::F64), None);
        // Fused: 0.1 * 10 - 1 is not zero when rounded once.
        let fused = eval_float("fma", &[0.1, 10.0, -1.0], FloatKind::F64).unwrap();
        assert_eq!(fused, 5.551115123125783e-17);
    }
}
