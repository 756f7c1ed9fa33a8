//! Custom syntax of the stencil ops.
//!
//! ```mlir
//! stencil.program @sor(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] defaults [T = 10, N = 64] {
//!   stencil.iterate %t = 0 to T {
//!     stencil.apply @S writes %A over [1] to [N - 1] {
//!       %w = stencil.access %A[-1] : f64
//!       stencil.yield %w : f64
//!     }
//!   }
//! }
//! ```
//!
//! Bounds are affine expressions over the program's parameter names; they are stored as
//! `affine_map<()[s0, …] -> (…)>` properties whose symbols are the parameters in declaration
//! order, so the generic form is plain MLIR.

use std::fmt::{self, Write};
use std::sync::Arc;
use stencil_ir::affine::{AffineExpr, AffineExprPrinter, AffineMap};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{CustomOpParser, ParseResult};
use stencil_ir::printer::OpPrinter;
use stencil_ir::{Attribute, Diagnostic, Ir, NamedAttribute, OpId, Type, ValueId};

/// Parameters declared by a `stencil.program`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramParams {
    /// Names in declaration order (symbol `s_i` of every bound map is `names[i]`).
    pub names: Vec<String>,
    /// Declared minimum of each parameter (0 when not declared).
    pub mins: Vec<i64>,
    /// Default value of each parameter, if declared.
    pub defaults: Vec<Option<i64>>,
}

impl ProgramParams {
    /// Reads the parameters of program `op` from its properties (lenient: missing pieces are
    /// empty; the verifier reports malformed ones).
    pub fn of(ir: &Ir, op: OpId) -> ProgramParams {
        let names: Vec<String> = match ir.attr(op, "param_names") {
            Some(Attribute::Array(items)) => items.iter().filter_map(|a| a.as_str().map(str::to_string)).collect(),
            _ => vec![],
        };
        let mins = ir
            .attr(op, "param_mins")
            .and_then(Attribute::as_dense_array)
            .map(<[i64]>::to_vec)
            .unwrap_or_else(|| vec![0; names.len()]);
        let defaults = names
            .iter()
            .map(|n| match ir.attr(op, "defaults") {
                Some(Attribute::Dictionary(d)) => stencil_ir::attributes::get_named(d, n).and_then(Attribute::as_i64),
                _ => None,
            })
            .collect();
        ProgramParams { names, mins, defaults }
    }

    /// Index of parameter `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Parameters of the program enclosing `op` (or `op` itself).
    pub fn enclosing(ir: &Ir, op: OpId) -> Option<ProgramParams> {
        enclosing_program(ir, op).map(|p| ProgramParams::of(ir, p))
    }
}

/// Names of a program's arguments (fields and scalars), in order, from its `arg_names`
/// property; `None` entries when missing.
pub fn program_arg_names(ir: &Ir, op: OpId) -> Vec<Option<String>> {
    match ir.attr(op, "arg_names") {
        Some(Attribute::Array(items)) => items.iter().map(|a| a.as_str().map(str::to_string)).collect(),
        _ => vec![],
    }
}

/// Appends a field argument named `name` (with `_` appended while it clashes) of type `ty`
/// to `program` (entry block, `function_type`, `arg_names`); returns it and its name.
pub fn add_field_argument(ir: &mut Ir, program: OpId, name: &str, ty: Type) -> Result<(ValueId, String), Diagnostic> {
    let body = ir.regions(program).first().and_then(|&r| ir.entry_block(r));
    let Some(body) = body else { return Err(crate::support::op_error(ir, program, "has no body block")) };
    let mut names = program_arg_names(ir, program);
    names.resize(ir.block_args(body).len(), None);
    let mut name = name.to_string();
    while names.iter().any(|n| n.as_deref() == Some(name.as_str())) {
        name.push('_');
    }
    let Some(Attribute::Type(Type::Function(f))) = ir.attr(program, "function_type").cloned() else {
        return Err(crate::support::op_error(ir, program, "has no function_type"));
    };
    let value = ir.add_block_argument(body, ty.clone());
    let mut f = *f;
    f.inputs.push(ty);
    ir.set_property(program, "function_type", Attribute::Type(Type::Function(Box::new(f))));
    names.push(Some(name.clone()));
    let names = names
        .into_iter()
        .enumerate()
        .map(|(k, n)| Attribute::String(n.unwrap_or_else(|| format!("arg{k}")).into()))
        .collect();
    ir.set_property(program, "arg_names", Attribute::Array(names));
    Ok((value, name))
}

/// A number written as a scalar's default.
#[derive(Copy, Clone, Debug)]
enum DefaultLiteral {
    Integer(i64),
    Float(f64),
}

/// The attribute that stores `literal` as the default of a scalar of type `ty`: a float of
/// its kind, an integer of its type (in the signed range of its width), `i1` as a bool. `None`
/// if the literal is not a value of that type.
fn scalar_default_attr(literal: DefaultLiteral, ty: &Type) -> Option<Attribute> {
    match (literal, ty) {
        (DefaultLiteral::Float(v), Type::Float(kind)) => Some(Attribute::float(v, *kind)),
        (DefaultLiteral::Integer(v), Type::Float(kind)) => Some(Attribute::float(v as f64, *kind)),
        (DefaultLiteral::Integer(v @ (0 | 1)), Type::Integer(1)) => Some(Attribute::Bool(v == 1)),
        (DefaultLiteral::Integer(v), t) if t.is_integer_like() && integer_fits(i128::from(v), t) => {
            Some(Attribute::Integer { value: v.into(), ty: t.clone() })
        }
        _ => None,
    }
}

/// `value` is in the signed range of integer type `ty` (`index` is 64-bit).
fn integer_fits(value: i128, ty: &Type) -> bool {
    let width = match ty {
        Type::Integer(w) => *w,
        Type::Index => 64,
        _ => return false,
    };
    (1..=64).contains(&width) && {
        let half = 1i128 << (width - 1);
        (-half..half).contains(&value)
    }
}

/// Whether `attr` is a valid stored default for a scalar of type `ty` (what the parser
/// produces for it; the verifier checks generic-form input with this).
pub(super) fn is_scalar_default_of(attr: &Attribute, ty: &Type) -> bool {
    match (attr, ty) {
        (Attribute::Float { kind, .. }, Type::Float(k)) => kind == k,
        (Attribute::Bool(_), Type::Integer(1)) => true,
        (Attribute::Integer { value, ty: t }, ty) => t == ty && *ty != Type::Integer(1) && integer_fits(*value, ty),
        _ => false,
    }
}

/// The default value of a scalar argument named `name` (from the `defaults` property).
pub fn scalar_default(ir: &Ir, op: OpId, name: &str) -> Option<Attribute> {
    match ir.attr(op, "defaults") {
        Some(Attribute::Dictionary(d)) => stencil_ir::attributes::get_named(d, name).cloned(),
        _ => None,
    }
}

/// Entry block argument names of a program (MLIR's `getAsmBlockArgumentNames`), so fields
/// print as `%A` rather than `%arg0`.
pub(super) fn program_arg_name_hint(ir: &Ir, op: OpId) -> Vec<Option<String>> {
    program_arg_names(ir, op)
}

/// Names the induction variable of a `stencil.iterate` `%t` (then `%t_0`, … when nested), as
/// the time loops of the seeds do.
pub(super) fn iterate_arg_name_hint(_: &Ir, _: OpId) -> Vec<Option<String>> {
    vec![Some("t".to_string())]
}

/// The `stencil.program` that is `op` or contains it.
pub fn enclosing_program(ir: &Ir, op: OpId) -> Option<OpId> {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if ir.op_name(o) == "stencil.program" {
            return Some(o);
        }
        cur = ir.parent_op(o);
    }
    None
}

/// Traversal order of a `stencil.apply`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ApplyOrder {
    /// Lexicographically increasing (the default).
    Forward,
    /// Lexicographically decreasing (backward sweeps of SSOR).
    Reverse,
}

impl ApplyOrder {
    /// The order of apply `op`.
    pub fn of(ir: &Ir, op: OpId) -> ApplyOrder {
        match ir.attr(op, "order").and_then(Attribute::as_str) {
            Some("reverse") => ApplyOrder::Reverse,
            _ => ApplyOrder::Forward,
        }
    }
}

fn names_or_empty(p: &CustomOpParser<'_, '_>) -> Arc<[String]> {
    p.symbolic_names().unwrap_or_else(|| Arc::from(Vec::new()))
}

/// Writes an expression over parameter symbols using the parameter names. Affine ones are
/// written like field extents, `2 * N - 1` (terms in declaration order, the constant last);
/// anything else (only in invalid IR) in MLIR's affine syntax, `N floordiv 2`.
fn write_param_expr(out: &mut impl Write, e: &AffineExpr, names: &[String]) -> fmt::Result {
    if let Some(l) = super::linear::linearize(e, 0, names.len()) {
        let mut first = true;
        for (name, &c) in names.iter().zip(&l.symbols).filter(|(_, c)| **c != 0) {
            let sign = if c < 0 { "-" } else { "+" };
            match (first, c < 0) {
                (true, true) => out.write_str("-")?,
                (true, false) => {}
                (false, _) => write!(out, " {sign} ")?,
            }
            match c.unsigned_abs() {
                1 => out.write_str(name)?,
                mag => write!(out, "{mag} * {name}")?,
            }
            first = false;
        }
        return match (first, l.constant) {
            (true, c) => write!(out, "{c}"),
            (false, 0) => Ok(()),
            (false, c) if c < 0 => write!(out, " - {}", c.unsigned_abs()),
            (false, c) => write!(out, " + {c}"),
        };
    }
    let printer = AffineExprPrinter {
        expr: e,
        dim: |d, f: &mut fmt::Formatter<'_>| write!(f, "d{d}"),
        symbol: |s, f: &mut fmt::Formatter<'_>| match names.get(s as usize) {
            Some(n) => f.write_str(n),
            None => write!(f, "s{s}"),
        },
    };
    write!(out, "{printer}")
}

/// An expression over parameter symbols, spelled with the parameter names (`N - 1`).
pub(super) fn param_expr_string(e: &AffineExpr, names: &[String]) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write_param_expr(&mut out, e, names);
    out
}

fn printer_param_names(pr: &OpPrinter<'_>, op: OpId) -> Vec<String> {
    ProgramParams::enclosing(pr.ir(), op).map(|p| p.names).unwrap_or_default()
}

// ----- stencil.program ----------------------------------------------------------------------

/// `@name(%A: !stencil.field<…>, %w: f64) params [T >= 1, N] defaults [T = 10] attributes {…} { … }`
pub(super) fn parse_program(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let name = p.parse_symbol_name()?;
    p.state().add_property("sym_name", Attribute::string(&name));
    let args = p.parse_argument_list(true)?;
    let inputs: Vec<Type> = args.iter().map(|a| a.ty.clone()).collect();
    p.state().add_property("function_type", Attribute::ty(Type::function(inputs, vec![])));
    // Argument names are part of the program's interface (`stencil-run --init A=…`), so they
    // are kept, and the printer uses them for the entry block arguments.
    let arg_names: Vec<Attribute> = args.iter().map(|a| Attribute::string(&a.name.name)).collect();
    p.state().add_property("arg_names", Attribute::Array(arg_names));

    let mut names: Vec<String> = vec![];
    let mut mins: Vec<i64> = vec![];
    if p.consume_keyword("params") {
        p.expect(TokenKind::LSquare, "'[' to begin the parameter list")?;
        if !p.consume_if(TokenKind::RSquare) {
            loop {
                let loc = p.location();
                let n = p.parse_keyword().map_err(|_| p.error("expected a parameter name"))?;
                if names.contains(&n) {
                    return Err(Diagnostic::error(loc, format!("parameter '{n}' is declared twice")));
                }
                names.push(n);
                mins.push(if p.consume_if(TokenKind::GreaterEqual) { p.parse_integer()? } else { 0 });
                if !p.consume_if(TokenKind::Comma) {
                    break;
                }
            }
            p.expect(TokenKind::RSquare, "',' or ']' in the parameter list")?;
        }
    }
    let mut defaults: Vec<NamedAttribute> = vec![];
    if p.consume_keyword("defaults") {
        p.expect(TokenKind::LSquare, "'[' to begin the default parameter values")?;
        loop {
            let loc = p.location();
            let n = p.parse_keyword().map_err(|_| p.error("expected a parameter or scalar argument name"))?;
            p.expect(TokenKind::Equal, "'=' and the default value")?;
            let value = if names.contains(&n) {
                Attribute::i64(p.parse_integer()?)
            } else if let Some(arg) = args.iter().find(|a| a.name.name == n) {
                if super::field::FieldType::from_type(&arg.ty).is_some() {
                    return Err(Diagnostic::error(
                        loc,
                        format!("'{n}' is a field: fields are initialised by stencil-run --init, not by defaults"),
                    ));
                }
                let literal = if arg.ty.is_float() {
                    match p.parse_attribute_of_type(&arg.ty)? {
                        Attribute::Float { value, .. } => Some(value),
                        Attribute::Integer { value, .. } => Some(value as f64),
                        _ => None,
                    }
                    .map(DefaultLiteral::Float)
                } else {
                    Some(DefaultLiteral::Integer(p.parse_integer()?))
                };
                literal.and_then(|l| scalar_default_attr(l, &arg.ty)).ok_or_else(|| {
                    Diagnostic::error(loc.clone(), format!("default of '{n}' is not a value of its type '{}'", arg.ty))
                })?
            } else {
                return Err(Diagnostic::error(
                    loc,
                    format!(
                        "default given for '{n}', which is neither a parameter ({}) nor a scalar argument",
                        names.join(", ")
                    ),
                ));
            };
            if stencil_ir::attributes::get_named(&defaults, &n).is_some() {
                return Err(Diagnostic::error(loc, format!("default for '{n}' given twice")));
            }
            stencil_ir::attributes::set_named(&mut defaults, &n, value);
            if !p.consume_if(TokenKind::Comma) {
                break;
            }
        }
        p.expect(TokenKind::RSquare, "',' or ']' in the default values")?;
    }
    p.state().add_property("param_names", Attribute::Array(names.iter().map(|n| Attribute::string(n)).collect()));
    p.state().add_property("param_mins", Attribute::DenseArray { element: Type::I64, values: mins });
    if !defaults.is_empty() {
        p.state().add_property("defaults", Attribute::Dictionary(defaults));
    }
    p.parse_optional_attr_dict_with_keyword()?;
    let region = p.parse_region_with_names(&args, &names)?;
    p.ensure_block(region);
    Ok(())
}

pub(super) fn print_program(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    pr.print_symbol_name(ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or(""))?;
    pr.write_char('(')?;
    let region = ir.regions(op).first().copied();
    let args = region.and_then(|r| ir.entry_block(r)).map(|b| ir.block_args(b).to_vec()).unwrap_or_default();
    for (i, &a) in args.iter().enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        pr.print_argument(a, &[])?;
    }
    pr.write_char(')')?;
    let params = ProgramParams::of(ir, op);
    if !params.names.is_empty() {
        pr.write_str(" params [")?;
        for (i, n) in params.names.iter().enumerate() {
            if i > 0 {
                pr.write_str(", ")?;
            }
            pr.write_str(n)?;
            if let Some(&m) = params.mins.get(i).filter(|m| **m != 0) {
                write!(pr, " >= {m}")?;
            }
        }
        pr.write_char(']')?;
    }
    let mut defaults: Vec<String> =
        params.names.iter().zip(&params.defaults).filter_map(|(n, d)| d.map(|v| format!("{n} = {v}"))).collect();
    for name in program_arg_names(ir, op).into_iter().flatten() {
        match scalar_default(ir, op, &name) {
            Some(Attribute::Float { value, kind }) => {
                defaults.push(format!("{name} = {}", stencil_ir::attributes::format_float(value, kind)))
            }
            Some(Attribute::Integer { value, .. }) => defaults.push(format!("{name} = {value}")),
            Some(Attribute::Bool(b)) => defaults.push(format!("{name} = {}", u8::from(b))),
            _ => {}
        }
    }
    if !defaults.is_empty() {
        write!(pr, " defaults [{}]", defaults.join(", "))?;
    }
    pr.print_optional_attr_dict_with_keyword(
        op,
        &["sym_name", "function_type", "param_names", "param_mins", "defaults", "arg_names"],
    )?;
    if let Some(r) = region {
        pr.write_char(' ')?;
        pr.print_region(r, false, false)?;
    }
    Ok(())
}

// ----- stencil.iterate ----------------------------------------------------------------------

/// A bound map `()[params] -> (e)` from an expression.
fn bound_map(exprs: Vec<AffineExpr>, num_params: usize) -> Attribute {
    Attribute::AffineMap(Arc::new(AffineMap::new(0, num_params as u32, exprs)))
}

/// `%t = 0 to T { … }`
pub(super) fn parse_iterate(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let names = names_or_empty(p);
    let mut iv = p.parse_argument(false)?;
    iv.ty = Type::Index;
    p.expect(TokenKind::Equal, "'=' after the induction variable")?;
    let lower = p.parse_affine_expr_of_names(&names)?;
    p.expect_keyword("to")?;
    let upper = p.parse_affine_expr_of_names(&names)?;
    p.state().add_property("lower_bound", bound_map(vec![lower], names.len()));
    p.state().add_property("upper_bound", bound_map(vec![upper], names.len()));
    p.parse_optional_attr_dict_with_keyword()?;
    let region = p.parse_region(&[iv])?;
    p.ensure_block(region);
    Ok(())
}

fn first_result(ir: &Ir, op: OpId, attr: &str) -> Option<AffineExpr> {
    ir.attr(op, attr).and_then(Attribute::as_affine_map).and_then(|m| m.results.first().cloned())
}

pub(super) fn print_iterate(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let names = printer_param_names(pr, op);
    let region = ir.regions(op).first().copied();
    pr.write_char(' ')?;
    if let Some(&iv) = region.and_then(|r| ir.entry_block(r)).and_then(|b| ir.block_args(b).first()) {
        pr.print_value(iv)?;
    }
    pr.write_str(" = ")?;
    write_param_expr(pr, &first_result(ir, op, "lower_bound").unwrap_or(AffineExpr::Constant(0)), &names)?;
    pr.write_str(" to ")?;
    write_param_expr(pr, &first_result(ir, op, "upper_bound").unwrap_or(AffineExpr::Constant(0)), &names)?;
    pr.print_optional_attr_dict_with_keyword(op, &["lower_bound", "upper_bound"])?;
    if let Some(r) = region {
        pr.write_char(' ')?;
        pr.print_region(r, false, false)?;
    }
    Ok(())
}

// ----- stencil.apply ------------------------------------------------------------------------

fn parse_expr_list(p: &mut CustomOpParser<'_, '_>, names: &[String]) -> ParseResult<Vec<AffineExpr>> {
    p.expect(TokenKind::LSquare, "'[' to begin a bound list")?;
    let mut exprs = vec![p.parse_affine_expr_of_names(names)?];
    while p.consume_if(TokenKind::Comma) {
        exprs.push(p.parse_affine_expr_of_names(names)?);
    }
    p.expect(TokenKind::RSquare, "',' or ']' in a bound list")?;
    Ok(exprs)
}

fn parse_offsets(p: &mut CustomOpParser<'_, '_>) -> ParseResult<Vec<i64>> {
    p.expect(TokenKind::LSquare, "'[' to begin the offsets")?;
    let mut offsets = vec![p.parse_integer()?];
    while p.consume_if(TokenKind::Comma) {
        offsets.push(p.parse_integer()?);
    }
    p.expect(TokenKind::RSquare, "',' or ']' in the offsets")?;
    Ok(offsets)
}

/// `@S writes %A over [lb, …] to [ub, …] order reverse attributes {…} { … }`
pub(super) fn parse_apply(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let names = names_or_empty(p);
    let name = p.parse_symbol_name()?;
    p.state().add_property("name", Attribute::string(&name));
    p.expect_keyword("writes")?;
    let field = p.parse_operand()?;
    let value = p.resolve_defined_operand(&field, "a field argument of the enclosing stencil.program")?;
    p.state().operands.push(value);
    if p.at(TokenKind::LSquare) {
        let loc = p.location();
        let offsets = parse_offsets(p)?;
        if offsets.iter().any(|&o| o != 0) {
            return Err(Diagnostic::error(
                loc,
                format!(
                    "stencil.apply writes only at the current point; a write offset {offsets:?} is not supported: shift the domain by the offset and every read by its negation instead"
                ),
            ));
        }
    }
    p.expect_keyword("over")?;
    let lower = parse_expr_list(p, &names)?;
    p.expect_keyword("to")?;
    let upper = parse_expr_list(p, &names)?;
    if lower.len() != upper.len() {
        return Err(p.op_error(format!(
            "the domain has {} lower bounds but {} upper bounds",
            lower.len(),
            upper.len()
        )));
    }
    p.state().add_property("lower_bounds", bound_map(lower, names.len()));
    p.state().add_property("upper_bounds", bound_map(upper, names.len()));
    // `order forward` is the default and leaves no property.
    if p.consume_keyword("order") && p.parse_keyword_of(&["forward", "reverse"])? == 1 {
        p.state().add_property("order", Attribute::string("reverse"));
    }
    p.parse_optional_attr_dict_with_keyword()?;
    p.parse_region(&[])?;
    Ok(())
}

fn write_bound_list(pr: &mut OpPrinter<'_>, map: Option<&AffineMap>, names: &[String]) -> fmt::Result {
    pr.write_char('[')?;
    for (i, e) in map.map(|m| m.results.as_slice()).unwrap_or(&[]).iter().enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        write_param_expr(pr, e, names)?;
    }
    pr.write_char(']')
}

pub(super) fn print_apply(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let names = printer_param_names(pr, op);
    pr.write_char(' ')?;
    pr.print_symbol_name(ir.attr(op, "name").and_then(Attribute::as_str).unwrap_or(""))?;
    pr.write_str(" writes ")?;
    pr.print_values(ir.operands(op))?;
    pr.write_str(" over ")?;
    write_bound_list(pr, ir.attr(op, "lower_bounds").and_then(Attribute::as_affine_map), &names)?;
    pr.write_str(" to ")?;
    write_bound_list(pr, ir.attr(op, "upper_bounds").and_then(Attribute::as_affine_map), &names)?;
    if ApplyOrder::of(ir, op) == ApplyOrder::Reverse {
        pr.write_str(" order reverse")?;
    }
    pr.print_optional_attr_dict_with_keyword(op, &["name", "lower_bounds", "upper_bounds", "order"])?;
    for &r in ir.regions(op) {
        pr.write_char(' ')?;
        pr.print_region(r, false, true)?;
    }
    Ok(())
}

// ----- stencil.access -----------------------------------------------------------------------

/// `%A[-1, 0] : f64` (offsets from the current point) or `%A at [%t, %i + 1] : f64` (an
/// affine index over index values).
pub(super) fn parse_access(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let field = p.parse_operand()?;
    let value = p.resolve_defined_operand(&field, "a field argument of the enclosing stencil.program")?;
    p.state().operands.push(value);
    if p.consume_keyword("at") {
        p.expect(TokenKind::LSquare, "'[' to begin the affine index")?;
        let (map, operands) = p.parse_affine_exprs_of_ssa_ids(TokenKind::RSquare)?;
        p.expect(TokenKind::RSquare, "']' to end the affine index")?;
        if !operands.symbols.is_empty() {
            return Err(p.op_error("symbol(...) operands are not used by stencil.access: write index values directly"));
        }
        p.add_operands_of_type(&operands.dims, &Type::Index)?;
        p.state().add_property("map", Attribute::AffineMap(Arc::new(map)));
    } else {
        let offsets = parse_offsets(p)?;
        p.state().add_property("offset", Attribute::DenseArray { element: Type::I64, values: offsets });
    }
    p.parse_optional_attr_dict()?;
    let ty = p.parse_colon_type()?;
    p.add_result_types([ty]);
    Ok(())
}

pub(super) fn print_access(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let operands = ir.operands(op);
    pr.write_char(' ')?;
    if let Some(&field) = operands.first() {
        pr.print_value(field)?;
    }
    if let Some(map) = ir.attr(op, "map").and_then(Attribute::as_affine_map) {
        pr.write_str(" at [")?;
        pr.print_affine_map_of_ssa_ids(map, operands.get(1..).unwrap_or(&[]))?;
        pr.write_char(']')?;
    } else {
        let offsets = ir.attr(op, "offset").and_then(Attribute::as_dense_array).unwrap_or(&[]);
        let text: Vec<String> = offsets.iter().map(ToString::to_string).collect();
        write!(pr, "[{}]", text.join(", "))?;
    }
    pr.print_optional_attr_dict(op, &["offset", "map"])?;
    pr.write_str(" : ")?;
    if let Some(&r) = ir.results(op).first() {
        pr.print_type(ir.value_type(r))?;
    }
    Ok(())
}

// ----- stencil.index ------------------------------------------------------------------------

/// `0` — the dimension whose coordinate is produced (an `index`).
pub(super) fn parse_index(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let dim = p.parse_integer()?;
    p.state().add_property("dim", Attribute::i64(dim));
    p.parse_optional_attr_dict()?;
    p.add_result_types([Type::Index]);
    Ok(())
}

pub(super) fn print_index(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    write!(pr, " {}", ir.attr(op, "dim").and_then(Attribute::as_i64).unwrap_or(0))?;
    pr.print_optional_attr_dict(op, &["dim"])
}

/// Names the coordinates `%i`, `%j`, `%k` as the seeds' loop nests do.
pub(super) fn index_name_hint(ir: &Ir, op: OpId) -> Option<String> {
    let dim = ir.attr(op, "dim").and_then(Attribute::as_i64)?;
    ["i", "j", "k"].get(usize::try_from(dim).ok()?).map(|s| s.to_string())
}
