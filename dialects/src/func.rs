//! The `func` dialect: `func.func`, `func.return`, `func.call`.

use std::fmt::{self, Write};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{Argument, CustomOpParser, ParseResult};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::{DialectDef, DialectRegistry, OpDef, OpTraits};
use stencil_ir::symbols::resolve_symbol_ref;
use stencil_ir::{Attribute, DiagResult, Ir, NamedAttribute, OpId, Type};

use crate::support::{list_types, op_error, required_function_type, required_str, types_of};

/// Registers the dialect.
pub fn register(r: &mut DialectRegistry) {
    r.register_dialect(DialectDef::new("func"));
    r.register_op(OpDef {
        traits: OpTraits { isolated_from_above: true, symbol: true, single_block: true, ..OpTraits::default() },
        inherent_attrs: &["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs", "no_inline"],
        parse: Some(parse_func),
        print: Some(print_func),
        verify: Some(verify_func),
        default_dialect: Some("func"),
        ..OpDef::new("func.func", "A function with a name, a signature and an optional body")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, terminator: true, ..OpTraits::default() },
        parse: Some(parse_return_like),
        print: Some(print_return_like),
        verify: Some(verify_return),
        ..OpDef::new("func.return", "Returns values from a function")
    });
    r.register_op(OpDef {
        inherent_attrs: &["callee", "arg_attrs", "res_attrs", "no_inline"],
        parse: Some(parse_call),
        print: Some(print_call),
        verify: Some(verify_call),
        ..OpDef::new("func.call", "Calls a function by symbol")
    });
}

// ----- func.func --------------------------------------------------------------------------

/// `func.func private? @name(%a: t {attrs}, …) -> (t {attrs}, …) attributes {…} { … }`, or
/// a declaration with bare argument types and no body.
fn parse_func(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    if let Some(vis) = ["private", "public", "nested"].into_iter().find(|v| p.at_keyword(v)) {
        p.parse_keyword()?;
        p.state().add_property("sym_visibility", Attribute::string(vis));
    }
    let name = p.parse_symbol_name()?;
    p.state().add_property("sym_name", Attribute::string(&name));

    // Arguments: named (`%a: t`) for definitions, bare types for declarations.
    p.expect(TokenKind::LParen, "'(' to begin the argument list")?;
    let mut named_args: Vec<Argument> = vec![];
    let mut input_types = vec![];
    let mut arg_attrs: Vec<Vec<NamedAttribute>> = vec![];
    if !p.consume_if(TokenKind::RParen) {
        loop {
            if p.at(TokenKind::PercentIdent) {
                let arg = p.parse_argument(true)?;
                input_types.push(arg.ty.clone());
                arg_attrs.push(arg.attrs.clone());
                named_args.push(arg);
            } else {
                if !named_args.is_empty() {
                    return Err(p.error("expected SSA identifier: arguments must be all named or all unnamed"));
                }
                input_types.push(p.parse_type()?);
                arg_attrs.push(if p.at(TokenKind::LBrace) { p.parse_dictionary()? } else { vec![] });
            }
            if !p.consume_if(TokenKind::Comma) {
                break;
            }
        }
        p.expect(TokenKind::RParen, "',' or ')' in the argument list")?;
    }
    let named = !named_args.is_empty();
    let (result_types, res_attrs) = parse_function_results(p)?;
    p.state().add_property("function_type", Attribute::ty(Type::function(input_types.clone(), result_types)));
    if arg_attrs.iter().any(|a| !a.is_empty()) {
        p.state()
            .add_property("arg_attrs", Attribute::Array(arg_attrs.into_iter().map(Attribute::Dictionary).collect()));
    }
    if res_attrs.iter().any(|a| !a.is_empty()) {
        p.state()
            .add_property("res_attrs", Attribute::Array(res_attrs.into_iter().map(Attribute::Dictionary).collect()));
    }
    p.parse_optional_attr_dict_with_keyword()?;
    if p.at(TokenKind::LBrace) {
        if !named && !input_types.is_empty() {
            return Err(p.error("a function with a body needs named arguments (%arg0: type)"));
        }
        p.parse_region(&named_args)?;
    } else {
        if named {
            return Err(p.error("expected '{' to begin the function body (named arguments need a body)"));
        }
        p.add_empty_region();
    }
    Ok(())
}

/// `-> t`, `-> (t {attrs}, t)`, or nothing: result types and their attributes (shared by
/// the function-like ops `func.func` and `gpu.func`).
pub fn parse_function_results(p: &mut CustomOpParser<'_, '_>) -> ParseResult<(Vec<Type>, Vec<Vec<NamedAttribute>>)> {
    let mut types = vec![];
    let mut attrs = vec![];
    if !p.consume_if(TokenKind::Arrow) {
        return Ok((types, attrs));
    }
    if !p.at(TokenKind::LParen) {
        types.push(p.parse_type()?);
        attrs.push(vec![]);
        return Ok((types, attrs));
    }
    // `(` may also begin a function type as the single result: `-> ((i32) -> i32)` is
    // written with parentheses around it, so a list always follows here.
    p.expect(TokenKind::LParen, "'('")?;
    if !p.consume_if(TokenKind::RParen) {
        loop {
            types.push(p.parse_type()?);
            attrs.push(if p.at(TokenKind::LBrace) { p.parse_dictionary()? } else { vec![] });
            if !p.consume_if(TokenKind::Comma) {
                break;
            }
        }
        p.expect(TokenKind::RParen, "',' or ')' in the result list")?;
    }
    Ok((types, attrs))
}

fn dict_list(attr: Option<&Attribute>, index: usize) -> Vec<NamedAttribute> {
    match attr {
        Some(Attribute::Array(items)) => match items.get(index) {
            Some(Attribute::Dictionary(d)) => d.clone(),
            _ => vec![],
        },
        _ => vec![],
    }
}

fn print_func(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    if let Some(vis) = ir.attr(op, "sym_visibility").and_then(Attribute::as_str) {
        write!(pr, " {vis}")?;
    }
    pr.write_char(' ')?;
    pr.print_symbol_name(ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or(""))?;
    let fn_type = ir
        .attr(op, "function_type")
        .and_then(Attribute::as_type)
        .and_then(Type::as_function)
        .cloned()
        .unwrap_or_default();
    let arg_attrs = ir.attr(op, "arg_attrs");
    let res_attrs = ir.attr(op, "res_attrs");
    let body = ir.regions(op).first().copied();
    let entry = body.and_then(|r| ir.entry_block(r));
    pr.write_char('(')?;
    for (i, ty) in fn_type.inputs.iter().enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        let attrs = dict_list(arg_attrs, i);
        match entry.and_then(|b| ir.block_args(b).get(i).copied()) {
            Some(arg) => pr.print_argument(arg, &attrs)?,
            None => {
                pr.print_type(ty)?;
                if !attrs.is_empty() {
                    pr.write_char(' ')?;
                    pr.print_dictionary(&attrs)?;
                }
            }
        }
    }
    pr.write_char(')')?;
    let any_res_attrs = (0..fn_type.results.len()).any(|i| !dict_list(res_attrs, i).is_empty());
    if !fn_type.results.is_empty() {
        pr.write_str(" -> ")?;
        let single_plain =
            fn_type.results.len() == 1 && !any_res_attrs && !matches!(fn_type.results[0], Type::Function(_));
        if single_plain {
            pr.print_type(&fn_type.results[0])?;
        } else {
            pr.write_char('(')?;
            for (i, ty) in fn_type.results.iter().enumerate() {
                if i > 0 {
                    pr.write_str(", ")?;
                }
                pr.print_type(ty)?;
                let attrs = dict_list(res_attrs, i);
                if !attrs.is_empty() {
                    pr.write_char(' ')?;
                    pr.print_dictionary(&attrs)?;
                }
            }
            pr.write_char(')')?;
        }
    }
    pr.print_optional_attr_dict_with_keyword(
        op,
        &["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"],
    )?;
    if let (Some(region), Some(_)) = (body, entry) {
        pr.write_char(' ')?;
        pr.print_region(region, false, true)?;
    }
    Ok(())
}

fn verify_func(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    required_str(ir, op, "sym_name")?;
    let fn_type = required_function_type(ir, op, "function_type")?;
    if let Some(vis) = ir.attr(op, "sym_visibility") {
        if !matches!(vis.as_str(), Some("public" | "private" | "nested")) {
            return Err(op_error(ir, op, "'sym_visibility' must be one of \"public\", \"private\", \"nested\""));
        }
    }
    for (attr, count, what) in
        [("arg_attrs", fn_type.inputs.len(), "arguments"), ("res_attrs", fn_type.results.len(), "results")]
    {
        if let Some(a) = ir.attr(op, attr) {
            match a {
                Attribute::Array(items)
                    if items.len() == count && items.iter().all(|i| matches!(i, Attribute::Dictionary(_))) => {}
                _ => {
                    return Err(op_error(
                        ir,
                        op,
                        format!("expects '{attr}' to be an array of {count} dictionaries, one per {what}"),
                    ))
                }
            }
        }
    }
    let Some(&region) = ir.regions(op).first() else {
        return Err(op_error(ir, op, "requires one region"));
    };
    let Some(entry) = ir.entry_block(region) else {
        // A declaration must not be public (MLIR: "symbol declaration cannot have public visibility").
        if ir.attr(op, "sym_visibility").and_then(Attribute::as_str).unwrap_or("public") == "public" {
            return Err(op_error(ir, op, "symbol declaration cannot have public visibility"));
        }
        return Ok(());
    };
    let arg_types = types_of(ir, ir.block_args(entry));
    if arg_types.len() != fn_type.inputs.len() {
        return Err(op_error(
            ir,
            op,
            format!("entry block must have {} arguments to match function signature", fn_type.inputs.len()),
        ));
    }
    for (i, (a, t)) in arg_types.iter().zip(&fn_type.inputs).enumerate() {
        if a != t {
            return Err(op_error(ir, op, format!("type of entry block argument #{i}('{a}') must match the type of the corresponding argument in function signature('{t}')")));
        }
    }
    Ok(())
}

// ----- func.return ------------------------------------------------------------------------

/// `{attrs} %a, %b : t1, t2` after the op name, every part optional: the assembly format
/// `attr-dict ($operands^ `:` type($operands))?` shared by MLIR's return-like ops
/// (`func.return`, `gpu.return`, `scf.yield`, `affine.yield`, `stencil.yield`).
pub fn parse_return_like(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    p.parse_optional_attr_dict()?;
    let operands = p.parse_operand_list()?;
    if !operands.is_empty() {
        let types = p.parse_colon_type_list()?;
        p.add_operands(&operands, &types)?;
    }
    Ok(())
}

/// Prints what [`parse_return_like`] reads: attributes first, as MLIR does.
pub fn print_return_like(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.print_optional_attr_dict(op, &[])?;
    let operands = ir.operands(op);
    if !operands.is_empty() {
        pr.write_char(' ')?;
        pr.print_values(operands)?;
        pr.write_str(" : ")?;
        pr.print_value_types(operands)?;
    }
    Ok(())
}

fn verify_return(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    let Some(func) = ir.parent_op(op).filter(|&f| ir.op_name(f) == "func.func") else {
        return Err(op_error(ir, op, "expects parent op 'func.func'"));
    };
    let fn_type = required_function_type(ir, func, "function_type")?;
    let name = ir.attr(func, "sym_name").and_then(Attribute::as_str).unwrap_or("");
    let types = types_of(ir, ir.operands(op));
    if types.len() != fn_type.results.len() {
        return Err(op_error(
            ir,
            op,
            format!("has {} operands, but enclosing function (@{name}) returns {}", types.len(), fn_type.results.len()),
        ));
    }
    for (i, (a, e)) in types.iter().zip(&fn_type.results).enumerate() {
        if a != e {
            return Err(op_error(
                ir,
                op,
                format!(
                    "type of return operand {i} ('{a}') doesn't match function result type ('{e}') in function @{name}"
                ),
            ));
        }
    }
    Ok(())
}

// ----- func.call --------------------------------------------------------------------------

/// `call @f(%a, %b) : (t1, t2) -> t`.
fn parse_call(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let (f, _) = parse_call_head(p, "':' and the callee's function type")?;
    p.add_result_types(f.results);
    Ok(())
}

/// The syntax `func.call` and `stencil.call` share, `@f(%a, …) {attrs} : (types) -> results`
/// up to and including the function type: sets the callee and the operands, and returns the
/// function type with its location (for the caller's checks of the results). `colon` says
/// what the type should be, for the error when it is missing.
pub(crate) fn parse_call_head(
    p: &mut CustomOpParser<'_, '_>,
    colon: &str,
) -> ParseResult<(stencil_ir::types::FunctionType, stencil_ir::Location)> {
    let callee = p.parse_symbol_name()?;
    p.state().add_property("callee", Attribute::symbol(&callee));
    let operands = p.parse_delimited_operand_list(TokenKind::LParen, TokenKind::RParen)?;
    p.parse_optional_attr_dict()?;
    p.expect(TokenKind::Colon, colon)?;
    let loc = p.location();
    let ty = p.parse_function_type()?;
    let Some(f) = ty.as_function() else {
        return Err(stencil_ir::Diagnostic::error(loc, "expected function type"));
    };
    p.add_operands(&operands, &f.inputs)?;
    Ok((f.clone(), loc))
}

/// Prints what [`parse_call_head`] reads, up to the function type's `-> `.
pub(crate) fn print_call_head(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    pr.print_attribute(ir.attr(op, "callee").unwrap_or(&Attribute::Unit))?;
    pr.write_char('(')?;
    pr.print_values(ir.operands(op))?;
    pr.write_char(')')?;
    pr.print_optional_attr_dict(op, &["callee"])?;
    pr.write_str(" : (")?;
    pr.print_value_types(ir.operands(op))?;
    pr.write_str(") -> ")
}

fn print_call(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    print_call_head(pr, op)?;
    let ir = pr.ir();
    pr.print_result_types(&types_of(ir, ir.results(op)))
}

fn verify_call(ir: &Ir, op: OpId, registry: &DialectRegistry) -> DiagResult<()> {
    let Some(callee) = ir.attr(op, "callee").filter(|a| a.as_flat_symbol().is_some()) else {
        return Err(op_error(ir, op, "requires a 'callee' flat symbol reference attribute"));
    };
    let name = callee.as_flat_symbol().unwrap_or_default();
    let Some(func) = resolve_symbol_ref(ir, registry, op, callee).filter(|&f| ir.op_name(f) == "func.func") else {
        return Err(op_error(ir, op, format!("'{name}' does not reference a valid function")));
    };
    let fn_type = required_function_type(ir, func, "function_type")?;
    let operand_types = types_of(ir, ir.operands(op));
    if operand_types.len() != fn_type.inputs.len() {
        return Err(op_error(ir, op, "incorrect number of operands for callee"));
    }
    for (i, (a, e)) in operand_types.iter().zip(&fn_type.inputs).enumerate() {
        if a != e {
            return Err(op_error(
                ir,
                op,
                format!(
                    "operand type mismatch: expected operand type '{e}', but provided '{a}' for operand number {i}"
                ),
            ));
        }
    }
    let result_types = types_of(ir, ir.results(op));
    if result_types != fn_type.results {
        return Err(op_error(
            ir,
            op,
            format!(
                "result type mismatch: callee returns ({}) but the call produces ({})",
                list_types(&fn_type.results),
                list_types(&result_types)
            ),
        ));
    }
    Ok(())
}
