//! The `arith` dialect: `arith.constant`, integer and float arithmetic, comparisons,
//! `select` and casts, with MLIR 22's custom syntax, properties, verifiers and folders.
//!
//! Ops are described by small tables (`BinaryOp`, `CastOp`) so one parser, printer and
//! verifier serve each syntax family; folding lives in [`fold`], the fast-math and overflow
//! flag attributes in [`flags`].

pub mod flags;
pub mod fold;

use std::fmt::{self, Write};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{CustomOpParser, ParseResult};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::{
    CanonicalizeFn, DefaultPropertiesFn, DialectDef, DialectRegistry, OpDef, OpTraits, SpeculatableFn,
};
use stencil_ir::{Attribute, DiagResult, Ir, Location, OpId, OperationState, Type};

use crate::support::{expect_operand_count, op_error};
use flags::{complete_property, parse_optional_flags, print_flags, FlagKind};
use fold::{CMPF_PREDICATES, CMPI_PREDICATES};

/// Registers the dialect.
pub fn register(r: &mut DialectRegistry) {
    r.register_dialect(DialectDef {
        check_attr: Some(flags::check_attr),
        materialize_constant: Some(materialize_constant),
        ..DialectDef::new("arith")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, constant_like: true, ..OpTraits::default() },
        inherent_attrs: &["value"],
        parse: Some(parse_constant),
        print: Some(print_constant),
        verify: Some(verify_constant),
        name_hint: Some(constant_name_hint),
        ..OpDef::new("arith.constant", "A constant integer or float")
    });
    for op in BINARY_OPS {
        let (inherent_attrs, default_properties): (&'static [&'static str], _) = match op.flags {
            BinaryFlags::None => (&[], None),
            BinaryFlags::Overflow => (&["overflowFlags"], Some(default_overflow as DefaultPropertiesFn)),
            BinaryFlags::Exact => (&["isExact"], None),
            BinaryFlags::FastMath => (&["fastmath"], Some(default_fastmath as DefaultPropertiesFn)),
        };
        r.register_op(OpDef {
            traits: OpTraits {
                pure: true,
                commutative: op.commutative,
                may_trap: TRAPPING.contains(&op.name),
                ..OpTraits::default()
            },
            inherent_attrs,
            parse: Some(parse_binary),
            print: Some(print_binary),
            verify: Some(verify_binary),
            fold: Some(if op.class == TypeClass::Float { fold::fold_float_binary } else { fold::fold_int_binary }),
            canonicalize: op.commutative.then_some(move_constant_right as CanonicalizeFn),
            default_properties,
            speculatable: TRAPPING.contains(&op.name).then_some(divides_safely as SpeculatableFn),
            ..OpDef::new(op.name, op.summary)
        });
    }
    r.register_op(OpDef {
        traits: OpTraits { pure: true, ..OpTraits::default() },
        inherent_attrs: &["fastmath"],
        parse: Some(parse_negf),
        print: Some(print_negf),
        verify: Some(verify_negf),
        fold: Some(fold::fold_negf),
        default_properties: Some(default_fastmath),
        ..OpDef::new("arith.negf", "Float negation")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, ..OpTraits::default() },
        inherent_attrs: &["predicate"],
        parse: Some(parse_cmp),
        print: Some(print_cmp),
        verify: Some(verify_cmp),
        fold: Some(fold::fold_cmpi),
        ..OpDef::new("arith.cmpi", "Integer comparison")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, ..OpTraits::default() },
        inherent_attrs: &["predicate", "fastmath"],
        parse: Some(parse_cmp),
        print: Some(print_cmp),
        verify: Some(verify_cmp),
        fold: Some(fold::fold_cmpf),
        default_properties: Some(default_fastmath),
        ..OpDef::new("arith.cmpf", "Float comparison")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, ..OpTraits::default() },
        parse: Some(parse_select),
        print: Some(print_select),
        verify: Some(verify_select),
        fold: Some(fold::fold_select),
        ..OpDef::new("arith.select", "Chooses between two values by an i1 condition")
    });
    for op in CAST_OPS {
        let (inherent_attrs, default_properties): (&'static [&'static str], _) = match op.flags {
            CastFlags::None => (&[], None),
            CastFlags::Overflow => (&["overflowFlags"], Some(default_overflow as DefaultPropertiesFn)),
            CastFlags::FastMath => (&["fastmath"], Some(normalize_fastmath as DefaultPropertiesFn)),
            CastFlags::RoundingFastMath => {
                (&["fastmath", "roundingmode"], Some(normalize_fastmath as DefaultPropertiesFn))
            }
        };
        r.register_op(OpDef {
            traits: OpTraits { pure: true, ..OpTraits::default() },
            inherent_attrs,
            parse: Some(parse_cast),
            print: Some(print_cast),
            verify: Some(verify_cast),
            fold: Some(fold::fold_cast),
            default_properties,
            ..OpDef::new(op.name, op.summary)
        });
    }
}

// ----- op tables --------------------------------------------------------------------------

/// The types an operand or result accepts, named as MLIR's ODS constraints are in messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypeClass {
    /// `iN` or `index`.
    Int,
    /// `iN` only.
    FixedInt,
    /// Any float type.
    Float,
    /// `i1`.
    Bool,
    /// `iN`, `index` or a float type.
    IntOrFloat,
}

impl TypeClass {
    /// Whether `ty` belongs to the class.
    pub fn accepts(self, ty: &Type) -> bool {
        match self {
            TypeClass::Int => ty.is_integer_like(),
            TypeClass::FixedInt => ty.is_integer(),
            TypeClass::Float => ty.is_float(),
            TypeClass::Bool => *ty == Type::I1,
            TypeClass::IntOrFloat => ty.is_integer_like() || ty.is_float(),
        }
    }

    /// MLIR's name of the constraint (`operand #0 must be signless-integer-like, …`).
    pub fn description(self) -> &'static str {
        match self {
            TypeClass::Int => "signless-integer-like",
            TypeClass::FixedInt => "signless-fixed-width-integer-like",
            TypeClass::Float => "floating-point-like",
            TypeClass::Bool => "bool-like",
            TypeClass::IntOrFloat => "signless-integer-or-float-like",
        }
    }
}

/// The optional flags a two-operand op carries after its operands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum BinaryFlags {
    None,
    /// `overflow<nsw, nuw>`, property `overflowFlags` (default `none`).
    Overflow,
    /// `exact`, unit property `isExact`.
    Exact,
    /// `fastmath<…>`, property `fastmath` (default `none`).
    FastMath,
}

/// A two-operand op with one result of the operands' type: `%a, %b flags {attrs} : type`.
struct BinaryOp {
    name: &'static str,
    summary: &'static str,
    class: TypeClass,
    flags: BinaryFlags,
    commutative: bool,
}

const fn binary(
    name: &'static str,
    summary: &'static str,
    class: TypeClass,
    flags: BinaryFlags,
    commutative: bool,
) -> BinaryOp {
    BinaryOp { name, summary, class, flags, commutative }
}

/// A division or remainder is defined for every dividend when its divisor is a constant other
/// than 0 — and, signed, other than −1 (`INT_MIN / −1` overflows): MLIR's speculatability of
/// these ops.
fn divides_safely(ir: &Ir, op: OpId, registry: &DialectRegistry) -> bool {
    let Some(&divisor) = ir.operands(op).get(1) else { return false };
    let Some(value) = stencil_ir::pass::canonicalize::constant_value(ir, registry, divisor).and_then(|a| a.as_int())
    else {
        return false;
    };
    let value = fold::int_width(ir.value_type(divisor)).map_or(value, |w| fold::sext(value, w));
    let unsigned = matches!(ir.op_name(op), "arith.divui" | "arith.remui");
    value != 0 && (unsigned || value != -1)
}

/// The binary ops undefined for some operands (a zero divisor; `INT_MIN / −1`).
const TRAPPING: &[&str] =
    &["arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.floordivsi"];

const BINARY_OPS: &[BinaryOp] = {
    use BinaryFlags::*;
    use TypeClass::{Float, Int};
    &[
        binary("arith.addi", "Integer addition", Int, Overflow, true),
        binary("arith.subi", "Integer subtraction", Int, Overflow, false),
        binary("arith.muli", "Integer multiplication", Int, Overflow, true),
        binary("arith.divsi", "Signed integer division, rounding toward zero", Int, Exact, false),
        binary("arith.divui", "Unsigned integer division", Int, Exact, false),
        binary("arith.remsi", "Signed integer remainder", Int, None, false),
        binary("arith.remui", "Unsigned integer remainder", Int, None, false),
        binary("arith.ceildivsi", "Signed integer division, rounding toward positive infinity", Int, None, false),
        binary("arith.floordivsi", "Signed integer division, rounding toward negative infinity", Int, None, false),
        binary("arith.andi", "Bitwise and", Int, None, true),
        binary("arith.ori", "Bitwise or", Int, None, true),
        binary("arith.xori", "Bitwise exclusive or", Int, None, true),
        binary("arith.shli", "Shift left", Int, Overflow, false),
        binary("arith.shrsi", "Arithmetic shift right", Int, Exact, false),
        binary("arith.shrui", "Logical shift right", Int, Exact, false),
        binary("arith.minsi", "Signed integer minimum", Int, None, true),
        binary("arith.maxsi", "Signed integer maximum", Int, None, true),
        binary("arith.minui", "Unsigned integer minimum", Int, None, true),
        binary("arith.maxui", "Unsigned integer maximum", Int, None, true),
        binary("arith.addf", "Float addition", Float, FastMath, true),
        binary("arith.subf", "Float subtraction", Float, FastMath, false),
        binary("arith.mulf", "Float multiplication", Float, FastMath, true),
        binary("arith.divf", "Float division", Float, FastMath, false),
        binary("arith.remf", "Float remainder (C fmod)", Float, FastMath, false),
        binary("arith.minimumf", "Float minimum, propagating NaN", Float, FastMath, true),
        binary("arith.maximumf", "Float maximum, propagating NaN", Float, FastMath, true),
        binary("arith.minnumf", "Float minimum, ignoring a NaN operand", Float, FastMath, true),
        binary("arith.maxnumf", "Float maximum, ignoring a NaN operand", Float, FastMath, true),
    ]
};

fn binary_op(name: &str) -> Option<&'static BinaryOp> {
    BINARY_OPS.iter().find(|o| o.name == name)
}

/// The properties a cast carries between its operand and `: from to to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum CastFlags {
    None,
    /// `overflow<…>` with default `none` (`trunci`).
    Overflow,
    /// Optional `fastmath<…>`, printed whenever present (`extf`).
    FastMath,
    /// Optional rounding-mode keyword, then optional `fastmath<…>` (`truncf`).
    RoundingFastMath,
}

/// How the operand and result types of a cast must relate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum CastRule {
    /// Result strictly wider.
    Widen,
    /// Result strictly narrower.
    Narrow,
    /// One side `index`, the other `iN`.
    IndexInt,
    /// Any pair of the classes.
    Any,
    /// Same bit width (not `index`).
    SameWidth,
}

/// A one-operand cast: `%x flags {attrs} : from to to`.
struct CastOp {
    name: &'static str,
    summary: &'static str,
    from: TypeClass,
    to: TypeClass,
    rule: CastRule,
    flags: CastFlags,
}

const fn cast(
    name: &'static str,
    summary: &'static str,
    from: TypeClass,
    to: TypeClass,
    rule: CastRule,
    flags: CastFlags,
) -> CastOp {
    CastOp { name, summary, from, to, rule, flags }
}

const CAST_OPS: &[CastOp] = {
    use CastRule::*;
    use TypeClass::*;
    &[
        cast(
            "arith.index_cast",
            "Casts between index and an integer, sign-extending",
            Int,
            Int,
            IndexInt,
            CastFlags::None,
        ),
        cast(
            "arith.index_castui",
            "Casts between index and an integer, zero-extending",
            Int,
            Int,
            IndexInt,
            CastFlags::None,
        ),
        cast("arith.sitofp", "Converts a signed integer to float", FixedInt, Float, Any, CastFlags::None),
        cast("arith.uitofp", "Converts an unsigned integer to float", FixedInt, Float, Any, CastFlags::None),
        cast(
            "arith.fptosi",
            "Converts a float to a signed integer, rounding toward zero",
            Float,
            FixedInt,
            Any,
            CastFlags::None,
        ),
        cast(
            "arith.fptoui",
            "Converts a float to an unsigned integer, rounding toward zero",
            Float,
            FixedInt,
            Any,
            CastFlags::None,
        ),
        cast("arith.extf", "Widens a float", Float, Float, Widen, CastFlags::FastMath),
        cast("arith.truncf", "Narrows a float", Float, Float, Narrow, CastFlags::RoundingFastMath),
        cast("arith.extsi", "Sign-extends an integer", FixedInt, FixedInt, Widen, CastFlags::None),
        cast("arith.extui", "Zero-extends an integer", FixedInt, FixedInt, Widen, CastFlags::None),
        cast("arith.trunci", "Truncates an integer", FixedInt, FixedInt, Narrow, CastFlags::Overflow),
        cast(
            "arith.bitcast",
            "Reinterprets the bits of a value as another type of the same width",
            IntOrFloat,
            IntOrFloat,
            SameWidth,
            CastFlags::None,
        ),
    ]
};

fn cast_op(name: &str) -> Option<&'static CastOp> {
    CAST_OPS.iter().find(|o| o.name == name)
}

/// `arith.truncf` rounding modes, in the order of their `i32` encoding.
const ROUNDING_MODES: &[&str] = &["to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"];

// ----- default-valued properties ----------------------------------------------------------

/// Adds `fastmath = #arith.fastmath<none>` when missing and canonicalizes it (shared with the
/// math dialect).
pub fn default_fastmath(state: &mut OperationState) {
    complete_property(state, FlagKind::FastMath, true);
}

/// Canonicalizes an optional `fastmath` property without adding a default (`extf`, `truncf`).
fn normalize_fastmath(state: &mut OperationState) {
    complete_property(state, FlagKind::FastMath, false);
}

/// Adds `overflowFlags = #arith.overflow<none>` when missing and canonicalizes it.
fn default_overflow(state: &mut OperationState) {
    complete_property(state, FlagKind::Overflow, true);
}

// ----- shared syntax and checks -----------------------------------------------------------

/// Parses `%a, %b, …` (exactly `n` operands) without types.
pub fn parse_n_operands(
    p: &mut CustomOpParser<'_, '_>,
    n: usize,
) -> ParseResult<Vec<stencil_ir::parser::UnresolvedOperand>> {
    let mut operands = Vec::with_capacity(n);
    for i in 0..n {
        if i > 0 {
            p.expect(TokenKind::Comma, "','")?;
        }
        operands.push(p.parse_operand()?);
    }
    Ok(operands)
}

/// Requires exactly one result, with MLIR's message.
pub fn expect_one_result(ir: &Ir, op: OpId) -> DiagResult<()> {
    if ir.results(op).len() != 1 {
        return Err(op_error(ir, op, "requires one result"));
    }
    Ok(())
}

/// Checks that operand (or result) `index` is of `class`.
pub fn expect_class(ir: &Ir, op: OpId, what: &str, index: usize, ty: &Type, class: TypeClass) -> DiagResult<()> {
    if !class.accepts(ty) {
        return Err(op_error(ir, op, format!("{what} #{index} must be {}, but got '{ty}'", class.description())));
    }
    Ok(())
}

/// Checks the operand and result counts, that every operand and the result is of `class`,
/// and that they all have the same type (MLIR's `SameOperandsAndResultType`).
pub fn verify_elementwise(ir: &Ir, op: OpId, n: usize, class: TypeClass) -> DiagResult<()> {
    expect_operand_count(ir, op, n)?;
    expect_one_result(ir, op)?;
    for (i, &v) in ir.operands(op).iter().enumerate() {
        expect_class(ir, op, "operand", i, ir.value_type(v), class)?;
    }
    let result_ty = ir.value_type(ir.result(op, 0));
    expect_class(ir, op, "result", 0, result_ty, class)?;
    if ir.operands(op).iter().any(|&v| ir.value_type(v) != result_ty) {
        return Err(op_error(ir, op, "requires the same type for all operands and results"));
    }
    Ok(())
}

/// Checks that the `kind` property, if present, is a well-formed flag attribute.
pub fn verify_flags(ir: &Ir, op: OpId, kind: FlagKind) -> DiagResult<()> {
    match ir.attr(op, kind.property()) {
        Some(a) if kind.bits_of(a).is_none() => Err(op_error(
            ir,
            op,
            format!("attribute '{}' failed to satisfy constraint: {}", kind.property(), kind.description()),
        )),
        _ => Ok(()),
    }
}

/// Parses `%a, %b, … flags {attrs} : type` for ops whose operands and result share one type.
pub fn parse_same_type_op(
    p: &mut CustomOpParser<'_, '_>,
    n: usize,
    flags: Option<FlagKind>,
    exact: bool,
) -> ParseResult<()> {
    let operands = parse_n_operands(p, n)?;
    if let Some(kind) = flags {
        parse_optional_flags(p, kind)?;
    }
    if exact && p.consume_keyword("exact") {
        p.state().add_property("isExact", Attribute::Unit);
    }
    p.parse_optional_attr_dict()?;
    let ty = p.parse_colon_type()?;
    p.add_operands_of_type(&operands, &ty)?;
    p.add_result_types([ty]);
    Ok(())
}

/// Prints what [`parse_same_type_op`] parses.
pub fn print_same_type_op(pr: &mut OpPrinter<'_>, op: OpId, flags: Option<FlagKind>, exact: bool) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    pr.print_values(ir.operands(op))?;
    let mut elided = vec![];
    if let Some(kind) = flags {
        if print_flags(pr, op, kind, true)? {
            elided.push(kind.property());
        }
    }
    if exact && ir.attr(op, "isExact") == Some(&Attribute::Unit) {
        pr.write_str(" exact")?;
        elided.push("isExact");
    }
    pr.print_optional_attr_dict(op, &elided)?;
    pr.write_str(" : ")?;
    match ir.results(op).first() {
        Some(&r) => pr.print_type(ir.value_type(r)),
        None => Ok(()),
    }
}

// ----- two-operand ops --------------------------------------------------------------------

fn binary_flags(op: &BinaryOp) -> (Option<FlagKind>, bool) {
    match op.flags {
        BinaryFlags::None => (None, false),
        BinaryFlags::Overflow => (Some(FlagKind::Overflow), false),
        BinaryFlags::Exact => (None, true),
        BinaryFlags::FastMath => (Some(FlagKind::FastMath), false),
    }
}

fn parse_binary(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let (flags, exact) = binary_op(&p.state().name).map_or((None, false), binary_flags);
    parse_same_type_op(p, 2, flags, exact)
}

fn print_binary(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let (flags, exact) = binary_op(pr.ir().op_name(op)).map_or((None, false), binary_flags);
    print_same_type_op(pr, op, flags, exact)
}

fn verify_binary(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    let Some(spec) = binary_op(ir.op_name(op)) else { return Ok(()) };
    verify_elementwise(ir, op, 2, spec.class)?;
    let (flags, exact) = binary_flags(spec);
    if let Some(kind) = flags {
        verify_flags(ir, op, kind)?;
    }
    if exact {
        verify_unit(ir, op, "isExact")?;
    }
    Ok(())
}

fn verify_unit(ir: &Ir, op: OpId, name: &str) -> DiagResult<()> {
    match ir.attr(op, name) {
        Some(a) if *a != Attribute::Unit => {
            Err(op_error(ir, op, format!("attribute '{name}' failed to satisfy constraint: unit attribute")))
        }
        _ => Ok(()),
    }
}

/// Puts a constant operand of a commutative op on the right (`addi %c1, %x` becomes
/// `addi %x, %c1`), as MLIR's folder does, so folders and CSE see one form.
fn move_constant_right(ir: &mut Ir, op: OpId) -> bool {
    let [lhs, rhs] = *ir.operands(op) else { return false };
    let is_constant = |v| ir.defining_op(v).is_some_and(|d| ir.op_name(d) == "arith.constant");
    if is_constant(lhs) && !is_constant(rhs) {
        ir.set_operands(op, &[rhs, lhs]);
        return true;
    }
    false
}

// ----- negf -------------------------------------------------------------------------------

fn parse_negf(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    parse_same_type_op(p, 1, Some(FlagKind::FastMath), false)
}

fn print_negf(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    print_same_type_op(pr, op, Some(FlagKind::FastMath), false)
}

fn verify_negf(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    verify_elementwise(ir, op, 1, TypeClass::Float)?;
    verify_flags(ir, op, FlagKind::FastMath)
}

// ----- cmpi / cmpf ------------------------------------------------------------------------

fn predicates_of(name: &str) -> &'static [&'static str] {
    if name == "arith.cmpf" {
        CMPF_PREDICATES
    } else {
        CMPI_PREDICATES
    }
}

/// `cmpi slt, %a, %b {attrs} : i32`, `cmpf olt, %a, %b fastmath<…> {attrs} : f32`.
fn parse_cmp(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let is_cmpf = p.state().name == "arith.cmpf";
    let predicates = predicates_of(&p.state().name);
    let loc = p.location();
    // A keyword or a string; anything else falls through to the enum error below.
    let word = if p.at(TokenKind::String) { p.parse_string()? } else { p.parse_keyword().unwrap_or_default() };
    let Some(index) = predicates.iter().position(|&c| c == word) else {
        return Err(stencil_ir::Diagnostic::error(
            loc,
            format!(
                "expected string or keyword containing one of the following enum values for attribute 'predicate' [{}]",
                predicates.join(", ")
            ),
        ));
    };
    p.state().add_property("predicate", Attribute::i64(index as i64));
    p.expect(TokenKind::Comma, "','")?;
    parse_comparison_operands(p, is_cmpf)
}

/// The part of a comparison after its predicate: operands, flags, attributes and the
/// operand type; the result is `i1`.
fn parse_comparison_operands(p: &mut CustomOpParser<'_, '_>, fastmath: bool) -> ParseResult<()> {
    let operands = parse_n_operands(p, 2)?;
    if fastmath {
        parse_optional_flags(p, FlagKind::FastMath)?;
    }
    p.parse_optional_attr_dict()?;
    let ty = p.parse_colon_type()?;
    p.add_operands_of_type(&operands, &ty)?;
    p.add_result_types([Type::I1]);
    Ok(())
}

fn print_cmp(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let is_cmpf = ir.op_name(op) == "arith.cmpf";
    let predicate = ir.attr(op, "predicate").and_then(Attribute::as_i64).and_then(|i| usize::try_from(i).ok());
    let name = predicate.and_then(|i| predicates_of(ir.op_name(op)).get(i));
    let mut elided = vec![];
    pr.write_char(' ')?;
    if let Some(name) = name {
        write!(pr, "{name}, ")?;
        elided.push("predicate");
    }
    pr.print_values(ir.operands(op))?;
    if is_cmpf && print_flags(pr, op, FlagKind::FastMath, true)? {
        elided.push("fastmath");
    }
    pr.print_optional_attr_dict(op, &elided)?;
    pr.write_str(" : ")?;
    match ir.operands(op).first() {
        Some(&v) => pr.print_type(ir.value_type(v)),
        None => Ok(()),
    }
}

fn verify_cmp(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    let is_cmpf = ir.op_name(op) == "arith.cmpf";
    let predicates = predicates_of(ir.op_name(op));
    expect_operand_count(ir, op, 2)?;
    expect_one_result(ir, op)?;
    let class = if is_cmpf { TypeClass::Float } else { TypeClass::Int };
    for (i, &v) in ir.operands(op).iter().enumerate() {
        expect_class(ir, op, "operand", i, ir.value_type(v), class)?;
    }
    expect_class(ir, op, "result", 0, ir.value_type(ir.result(op, 0)), TypeClass::Bool)?;
    if ir.value_type(ir.operand(op, 0)) != ir.value_type(ir.operand(op, 1)) {
        return Err(op_error(ir, op, "requires all operands to have the same type"));
    }
    let Some(predicate) = ir.attr(op, "predicate") else {
        return Err(op_error(ir, op, "requires attribute 'predicate'"));
    };
    let valid = matches!(predicate, Attribute::Integer { value, ty } if *ty == Type::I64 && usize::try_from(*value).is_ok_and(|v| v < predicates.len()));
    if !valid {
        let cases: Vec<String> = (0..predicates.len()).map(|i| i.to_string()).collect();
        return Err(op_error(
            ir,
            op,
            format!(
                "attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: {}",
                cases.join(", ")
            ),
        ));
    }
    if is_cmpf {
        verify_flags(ir, op, FlagKind::FastMath)?;
    }
    Ok(())
}

// ----- select -----------------------------------------------------------------------------

/// `select %c, %a, %b {attrs} : type` (`: i1, type` is accepted as well).
fn parse_select(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let operands = parse_n_operands(p, 3)?;
    p.parse_optional_attr_dict()?;
    let mut ty = p.parse_colon_type()?;
    let mut cond_ty = Type::I1;
    if p.consume_if(TokenKind::Comma) {
        cond_ty = ty;
        ty = p.parse_type()?;
    }
    p.add_operands(&operands, &[cond_ty, ty.clone(), ty.clone()])?;
    p.add_result_types([ty]);
    Ok(())
}

fn print_select(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    pr.print_values(ir.operands(op))?;
    pr.print_optional_attr_dict(op, &[])?;
    pr.write_str(" : ")?;
    // A condition other than i1 (malformed, rejected by the verifier) is spelled out.
    if let Some(&c) = ir.operands(op).first() {
        if *ir.value_type(c) != Type::I1 {
            pr.print_type(ir.value_type(c))?;
            pr.write_str(", ")?;
        }
    }
    match ir.results(op).first() {
        Some(&r) => pr.print_type(ir.value_type(r)),
        None => Ok(()),
    }
}

fn verify_select(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 3)?;
    expect_one_result(ir, op)?;
    expect_class(ir, op, "operand", 0, ir.value_type(ir.operand(op, 0)), TypeClass::Bool)?;
    let result_ty = ir.value_type(ir.result(op, 0));
    if ir.value_type(ir.operand(op, 1)) != result_ty || ir.value_type(ir.operand(op, 2)) != result_ty {
        return Err(op_error(ir, op, "failed to verify that all of {true_value, false_value, result} have same type"));
    }
    Ok(())
}

// ----- casts ------------------------------------------------------------------------------

/// `%x [rounding-mode] [flags] {attrs} : from to to`.
fn parse_cast(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let flags = cast_op(&p.state().name).map_or(CastFlags::None, |o| o.flags);
    let input = p.parse_operand()?;
    if flags == CastFlags::RoundingFastMath {
        if let Some(mode) = ROUNDING_MODES.iter().position(|m| p.at_keyword(m)) {
            p.parse_keyword()?;
            p.state().add_property("roundingmode", Attribute::i32(mode as i32));
        }
    }
    match flags {
        CastFlags::None => {}
        CastFlags::Overflow => parse_optional_flags(p, FlagKind::Overflow)?,
        CastFlags::FastMath | CastFlags::RoundingFastMath => parse_optional_flags(p, FlagKind::FastMath)?,
    }
    p.parse_optional_attr_dict()?;
    let from = p.parse_colon_type()?;
    p.expect_keyword("to")?;
    let to = p.parse_type()?;
    p.add_operands(&[input], &[from])?;
    p.add_result_types([to]);
    Ok(())
}

fn print_cast(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let flags = cast_op(ir.op_name(op)).map_or(CastFlags::None, |o| o.flags);
    pr.write_char(' ')?;
    pr.print_values(ir.operands(op))?;
    let mut elided = vec![];
    if flags == CastFlags::RoundingFastMath {
        let mode = ir.attr(op, "roundingmode").and_then(rounding_mode);
        if let Some(mode) = mode {
            write!(pr, " {mode}")?;
            elided.push("roundingmode");
        }
    }
    let printed = match flags {
        CastFlags::None => None,
        CastFlags::Overflow => Some((FlagKind::Overflow, print_flags(pr, op, FlagKind::Overflow, true)?)),
        CastFlags::FastMath | CastFlags::RoundingFastMath => {
            Some((FlagKind::FastMath, print_flags(pr, op, FlagKind::FastMath, false)?))
        }
    };
    if let Some((kind, true)) = printed {
        elided.push(kind.property());
    }
    pr.print_optional_attr_dict(op, &elided)?;
    pr.write_str(" : ")?;
    if let Some(&v) = ir.operands(op).first() {
        pr.print_type(ir.value_type(v))?;
    }
    pr.write_str(" to ")?;
    match ir.results(op).first() {
        Some(&r) => pr.print_type(ir.value_type(r)),
        None => Ok(()),
    }
}

/// The keyword of a valid `roundingmode` property value.
fn rounding_mode(a: &Attribute) -> Option<&'static str> {
    match a {
        Attribute::Integer { value, ty } if *ty == Type::I32 => {
            ROUNDING_MODES.get(usize::try_from(*value).ok()?).copied()
        }
        _ => None,
    }
}

fn verify_cast(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    let Some(spec) = cast_op(ir.op_name(op)) else { return Ok(()) };
    expect_operand_count(ir, op, 1)?;
    expect_one_result(ir, op)?;
    let from = ir.value_type(ir.operand(op, 0));
    let to = ir.value_type(ir.result(op, 0));
    expect_class(ir, op, "operand", 0, from, spec.from)?;
    expect_class(ir, op, "result", 0, to, spec.to)?;
    let width = |t: &Type| t.bit_width().unwrap_or(0);
    let compatible = match spec.rule {
        CastRule::Widen => width(to) > width(from),
        CastRule::Narrow => width(to) < width(from),
        CastRule::IndexInt => (from.is_index() && to.is_integer()) || (from.is_integer() && to.is_index()),
        CastRule::Any => true,
        CastRule::SameWidth => from.bit_width().is_some() && from.bit_width() == to.bit_width(),
    };
    if !compatible {
        return Err(op_error(ir, op, format!("operand type '{from}' and result type '{to}' are cast incompatible")));
    }
    match spec.flags {
        CastFlags::None => {}
        CastFlags::Overflow => verify_flags(ir, op, FlagKind::Overflow)?,
        CastFlags::FastMath => verify_flags(ir, op, FlagKind::FastMath)?,
        CastFlags::RoundingFastMath => {
            verify_flags(ir, op, FlagKind::FastMath)?;
            if ir.attr(op, "roundingmode").is_some_and(|a| rounding_mode(a).is_none()) {
                return Err(op_error(
                    ir,
                    op,
                    "attribute 'roundingmode' failed to satisfy constraint: allowed 32-bit signless integer cases: 0, 1, 2, 3, 4",
                ));
            }
        }
    }
    Ok(())
}

// ----- constant ---------------------------------------------------------------------------

/// `arith.constant {attrs} 42 : i32`, `arith.constant true`, `arith.constant 1.0 : f32`: the
/// result type is the value's.
fn parse_constant(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    p.parse_optional_attr_dict()?;
    let value = p.parse_attribute()?;
    // An untyped value gives a `none` result, which the verifier rejects with MLIR's message.
    let ty = value.typed_type().unwrap_or(Type::None);
    p.state().add_property("value", value);
    p.add_result_types([ty]);
    Ok(())
}

fn print_constant(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.print_optional_attr_dict(op, &["value"])?;
    if let Some(value) = ir.attr(op, "value") {
        pr.write_char(' ')?;
        pr.print_attribute(value)?;
    }
    Ok(())
}

fn verify_constant(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 0)?;
    expect_one_result(ir, op)?;
    let Some(value) = ir.attr(op, "value") else {
        return Err(op_error(ir, op, "requires attribute 'value'"));
    };
    // MLIR checks `AllTypesMatch<["value", "result"]>` first (an untyped value has type
    // `none`), then the kind of the value.
    if value.typed_type().unwrap_or(Type::None) != *ir.value_type(ir.result(op, 0)) {
        return Err(op_error(ir, op, "failed to verify that all of {value, result} have same type"));
    }
    if value.typed_type().is_none() {
        return Err(op_error(ir, op, "value must be an integer, float, or elements attribute"));
    }
    Ok(())
}

/// MLIR's result names for constants: `%c0` (index), `%c-1_i32`, `%true`/`%false`, `%cst`.
fn constant_name_hint(ir: &Ir, op: OpId) -> Option<String> {
    match ir.attr(op, "value")? {
        Attribute::Bool(b) => Some(b.to_string()),
        Attribute::Integer { value, ty: Type::Index } => Some(format!("c{value}")),
        Attribute::Integer { value, ty } => Some(format!("c{value}_{ty}")),
        Attribute::Float { .. } => Some("cst".into()),
        _ => None,
    }
}

/// Builds `arith.constant` for a folded value (the dialect's `materializeConstant`, also
/// used by `math`); `None` unless `value` is an integer, bool or float of type `ty`.
pub fn materialize_constant(value: &Attribute, ty: &Type, location: Location) -> Option<OperationState> {
    if value.typed_type().as_ref() != Some(ty) {
        return None;
    }
    let mut state = OperationState::new("arith.constant", location);
    state.add_property("value", value.clone());
    state.result_types.push(ty.clone());
    Some(state)
}

#[cfg(test)]
mod tests {
    use stencil_ir::parser::{parse_source, ParserConfig};
    use stencil_ir::pass::canonicalize::sweep;
    use stencil_ir::printer::{print_op, PrintOptions};
    use stencil_ir::SourceFile;

    fn canonicalize(text: &str) -> String {
        let registry = crate::registry();
        let source = SourceFile::new("test.mlir", text);
        let mut module =
            parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: false }).expect("parses");
        stencil_ir::verifier::verify(&module.ir, &registry, module.top, false).expect("verifies");
        for _ in 0..10 {
            if !sweep(&mut module.ir, module.top, &registry) {
                break;
            }
        }
        print_op(&module.ir, &registry, module.top, PrintOptions::default())
    }

    #[test]
    fn folds_f32_in_f32() {
        let out = canonicalize(
            "func.func @f() -> f32 {\n  %a = arith.constant 0.1 : f32\n  %b = arith.constant 0.2 : f32\n  %c = arith.addf %a, %b : f32\n  return %c : f32\n}",
        );
        assert!(out.contains("%cst = arith.constant 3.000000e-01 : f32"), "{out}");
        assert!(!out.contains("addf"), "{out}");
    }

    #[test]
    fn keeps_division_by_zero() {
        let out = canonicalize(
            "func.func @f() -> i32 {\n  %a = arith.constant 7 : i32\n  %b = arith.constant 0 : i32\n  %c = arith.divsi %a, %b : i32\n  return %c : i32\n}",
        );
        assert!(out.contains("arith.divsi %c7_i32, %c0_i32 : i32"), "{out}");
    }
}
