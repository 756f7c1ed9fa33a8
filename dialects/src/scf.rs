//! The `scf` dialect (structured control flow): `scf.for`, `scf.if`, `scf.parallel` with
//! `scf.reduce` / `scf.reduce.return`, `scf.while` with `scf.condition`, and their common
//! terminator `scf.yield`; custom syntax, generic form and verifier messages follow MLIR 22.
//!
//! Canonicalization (for the `canonicalize` pass) removes control flow decided at compile time:
//! an `scf.if` on a constant condition becomes the taken branch, an `scf.for` that runs zero
//! times becomes its initial values and one that runs exactly once becomes its body, and
//! loops and conditionals with empty bodies and no results are erased.

use std::fmt::{self, Write};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{Argument, CustomOpParser, ParseResult, UnresolvedOperand};
use stencil_ir::pass::canonicalize::constant_value;
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::{DialectDef, DialectRegistry, OpDef, OpTraits};
use stencil_ir::{Attribute, BlockId, DiagResult, Diagnostic, InsertPoint, Ir, OpId, Type, ValueId};

use crate::support::{
    default_segments, expect_operand_count, expect_result_count, op_error, operand_segments, types_of,
};

/// Registers the dialect.
pub fn register(r: &mut DialectRegistry) {
    r.register_dialect(DialectDef::new("scf"));
    // Loops and conditionals have MLIR's `RecursiveMemoryEffects`: they are as pure as their
    // bodies, which our traits cannot express, so they are not marked pure.
    let region_op = OpTraits { single_block: true, ..OpTraits::default() };
    let loop_op = OpTraits { loop_like: true, ..region_op };
    r.register_op(OpDef {
        traits: loop_op,
        inherent_attrs: &["unsignedCmp"],
        parse: Some(parse_for),
        print: Some(print_for),
        verify: Some(verify_for),
        canonicalize: Some(canonicalize_for),
        ..OpDef::new("scf.for", "A counted loop with loop-carried values")
    });
    r.register_op(OpDef {
        traits: region_op,
        parse: Some(parse_if),
        print: Some(print_if),
        verify: Some(verify_if),
        canonicalize: Some(canonicalize_if),
        ..OpDef::new("scf.if", "Runs one of two regions depending on a condition")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, terminator: true, ..OpTraits::default() },
        parse: Some(crate::func::parse_return_like),
        print: Some(crate::func::print_return_like),
        verify: Some(verify_yield),
        ..OpDef::new("scf.yield", "Ends an scf region, passing values to the parent op")
    });
    r.register_op(OpDef {
        traits: loop_op,
        inherent_attrs: &["operandSegmentSizes"],
        default_properties: Some(|state| default_segments(state, 4)),
        parse: Some(parse_parallel),
        print: Some(print_parallel),
        verify: Some(verify_parallel),
        ..OpDef::new("scf.parallel", "A parallel loop nest with optional reductions")
    });
    r.register_op(OpDef {
        traits: OpTraits { terminator: true, single_block: true, ..OpTraits::default() },
        parse: Some(parse_reduce),
        print: Some(print_reduce),
        verify: Some(verify_reduce),
        ..OpDef::new("scf.reduce", "Ends an scf.parallel body, combining one value per reduction")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, terminator: true, ..OpTraits::default() },
        parse: Some(parse_reduce_return),
        print: Some(crate::support::print_operands_attr_dict_types),
        verify: Some(verify_reduce_return),
        ..OpDef::new("scf.reduce.return", "Ends a reduction region with the combined value")
    });
    r.register_op(OpDef {
        traits: region_op,
        parse: Some(parse_while),
        print: Some(print_while),
        verify: Some(verify_while),
        ..OpDef::new("scf.while", "A loop with a condition region and a body region")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, terminator: true, ..OpTraits::default() },
        parse: Some(parse_condition),
        print: Some(print_condition),
        verify: Some(verify_condition),
        ..OpDef::new("scf.condition", "Ends the condition region of scf.while")
    });
}

// ----- shared syntax ----------------------------------------------------------------------

/// `(%inner = %outer, …)`: region arguments and the values that initialize them.
fn parse_assignment_list(
    p: &mut CustomOpParser<'_, '_>,
) -> ParseResult<(Vec<UnresolvedOperand>, Vec<UnresolvedOperand>)> {
    p.expect(TokenKind::LParen, "'(' to begin an assignment list")?;
    let (mut inner, mut outer) = (vec![], vec![]);
    if p.consume_if(TokenKind::RParen) {
        return Ok((inner, outer));
    }
    loop {
        inner.push(parse_argument_name(p)?);
        p.expect(TokenKind::Equal, "'=' in assignment list")?;
        outer.push(p.parse_operand()?);
        if !p.consume_if(TokenKind::Comma) {
            break;
        }
    }
    p.expect(TokenKind::RParen, "',' or ')' in assignment list")?;
    Ok((inner, outer))
}

/// Prints `(%inner = %outer, …)`.
fn print_assignment_list(pr: &mut OpPrinter<'_>, inner: &[ValueId], outer: &[ValueId]) -> fmt::Result {
    pr.write_char('(')?;
    for (i, (&a, &v)) in inner.iter().zip(outer).enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        pr.print_value(a)?;
        pr.write_str(" = ")?;
        pr.print_value(v)?;
    }
    pr.write_char(')')
}

/// `%name` naming a region argument (which, unlike an operand, takes no `#n` result number).
fn parse_argument_name(p: &mut CustomOpParser<'_, '_>) -> ParseResult<UnresolvedOperand> {
    let name = p.parse_operand()?;
    if name.number != 0 {
        return Err(Diagnostic::error(name.location, "block argument names cannot have a result number"));
    }
    Ok(name)
}

/// A region argument named in custom syntax, with its type.
fn typed_argument(name: UnresolvedOperand, ty: Type) -> Argument {
    Argument { name, ty, attrs: vec![], location: None }
}

/// `operands` are `(…)`-delimited and must number `count` (one per induction variable).
fn parse_operand_tuple(p: &mut CustomOpParser<'_, '_>, count: usize) -> ParseResult<Vec<UnresolvedOperand>> {
    let loc = p.location();
    let operands = p.parse_delimited_operand_list(TokenKind::LParen, TokenKind::RParen)?;
    if operands.len() != count {
        return Err(Diagnostic::error(loc, format!("expected {count} operands")));
    }
    Ok(operands)
}

/// The entry block of `op`'s region `index`, if any.
fn body_block(ir: &Ir, op: OpId, index: usize) -> Option<BlockId> {
    ir.regions(op).get(index).and_then(|&r| ir.entry_block(r))
}

// ----- shared verification ----------------------------------------------------------------

/// The single block of region `index` (MLIR's `SizedRegion<1>` constraint).
fn single_block(ir: &Ir, op: OpId, index: usize, name: &str) -> DiagResult<BlockId> {
    match ir.regions(op).get(index).map(|&r| ir.blocks(r)) {
        Some([block]) => Ok(*block),
        _ => Err(op_error(
            ir,
            op,
            format!("region #{index} ('{name}') failed to verify constraint: region with 1 blocks"),
        )),
    }
}

/// The terminator of `block` if it is `name`; otherwise MLIR's
/// `SingleBlockImplicitTerminator` error.
fn implicit_terminator(ir: &Ir, op: OpId, block: BlockId, name: &str) -> DiagResult<OpId> {
    match ir.last_op(block) {
        Some(t) if ir.op_name(t) == name => Ok(t),
        last => {
            let found = last.map_or("nothing".to_string(), |t| format!("'{}'", ir.op_name(t)));
            Err(op_error(ir, op, format!("expects regions to end with '{name}', found {found}")).with_note(
                ir.location(op).clone(),
                format!("in custom textual format, the absence of terminator implies '{name}'"),
            ))
        }
    }
}

/// The terminator of `block` if it is `name`; otherwise `message`, with a note at the
/// terminator found (MLIR's `verifyAndGetTerminator`).
fn expected_terminator(ir: &Ir, op: OpId, block: BlockId, name: &str, message: &str) -> DiagResult<OpId> {
    match ir.last_op(block) {
        Some(t) if ir.op_name(t) == name => Ok(t),
        Some(t) => Err(op_error(ir, op, message).with_note(ir.location(t).clone(), "terminator here")),
        None => Err(op_error(ir, op, message)),
    }
}

/// Checks the values passed along one control-flow edge of a region-holding op against the
/// values the edge's target receives, with the messages of MLIR's `RegionBranchOpInterface`
/// verifier. `from`/`to` name the edge ends (`parent`, `Operation scf.yield`, `Region #0`);
/// `point` is the terminator passing the values, or `None` for the op itself.
fn verify_edge(
    ir: &Ir,
    op: OpId,
    from: &str,
    to: &str,
    point: Option<OpId>,
    passed: &[Type],
    received: &[Type],
) -> DiagResult<()> {
    let edge = format!("along control flow edge from {from} to {to}");
    let note_loc = ir.location(point.unwrap_or(op)).clone();
    if passed.len() != received.len() {
        return Err(op_error(
            ir,
            op,
            format!(
                "{edge}: region branch point has {} operands, but region successor needs {} inputs",
                passed.len(),
                received.len()
            ),
        )
        .with_note(note_loc, "region branch point"));
    }
    for (i, (a, b)) in passed.iter().zip(received).enumerate() {
        if a != b {
            return Err(op_error(
                ir,
                op,
                format!("{edge}: successor operand type #{i} '{a}' should match successor input type #{i} '{b}'"),
            )
            .with_note(note_loc, "region branch point"));
        }
    }
    Ok(())
}

/// Checks that `op`'s parent is `parent`.
fn expect_parent(ir: &Ir, op: OpId, parent: &str) -> DiagResult<()> {
    if ir.parent_op(op).is_some_and(|p| ir.op_name(p) == parent) {
        Ok(())
    } else {
        Err(op_error(ir, op, format!("expects parent op '{parent}'")))
    }
}

/// Checks that operand `index` is an `i1` condition.
fn expect_condition_operand(ir: &Ir, op: OpId, index: usize) -> DiagResult<()> {
    let Some(&v) = ir.operands(op).get(index) else { return Ok(()) };
    let ty = ir.value_type(v);
    if *ty != Type::I1 {
        return Err(op_error(ir, op, format!("operand #{index} must be 1-bit signless integer, but got '{ty}'")));
    }
    Ok(())
}

// ----- scf.for ----------------------------------------------------------------------------

/// `scf.for unsigned? %i = %lb to %ub step %s iter_args(%acc = %init) -> (f32) : i32 { … }`:
/// `unsigned` sets `unsignedCmp`, the `: type` of bounds is omitted for `index`, and the
/// terminator is omitted when the loop carries no values.
fn parse_for(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    if p.consume_keyword("unsigned") {
        p.state().add_property("unsignedCmp", Attribute::Unit);
    }
    let iv = parse_argument_name(p)?;
    p.expect(TokenKind::Equal, "'='")?;
    let lb = p.parse_operand()?;
    p.expect_keyword("to")?;
    let ub = p.parse_operand()?;
    p.expect_keyword("step")?;
    let step = p.parse_operand()?;
    let (mut iter_args, mut inits, mut types) = (vec![], vec![], vec![]);
    if p.consume_keyword("iter_args") {
        (iter_args, inits) = parse_assignment_list(p)?;
        p.expect(TokenKind::Arrow, "'->' and the types of the loop-carried values")?;
        types = p.parse_result_types()?;
    }
    if iter_args.len() != types.len() {
        return Err(p.op_error("mismatch in number of loop-carried values and defined values"));
    }
    let bound_ty = if p.consume_if(TokenKind::Colon) { p.parse_type()? } else { Type::Index };
    p.add_operands_of_type(&[lb, ub, step], &bound_ty)?;
    p.add_operands(&inits, &types)?;
    let mut entry = vec![typed_argument(iv, bound_ty)];
    entry.extend(iter_args.into_iter().zip(&types).map(|(a, t)| typed_argument(a, t.clone())));
    let body = p.parse_region(&entry)?;
    p.ensure_terminator(body, "scf.yield");
    p.parse_optional_attr_dict()?;
    p.add_result_types(types);
    Ok(())
}

fn print_for(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let operands = ir.operands(op);
    let args = body_block(ir, op, 0).map_or(&[][..], |b| ir.block_args(b));
    if ir.attr(op, "unsignedCmp").is_some() {
        pr.write_str(" unsigned")?;
    }
    pr.write_char(' ')?;
    if let Some(&iv) = args.first() {
        pr.print_value(iv)?;
    }
    for (i, keyword) in [" = ", " to ", " step "].into_iter().enumerate() {
        pr.write_str(keyword)?;
        if let Some(&v) = operands.get(i) {
            pr.print_value(v)?;
        }
    }
    let inits = operands.get(3..).unwrap_or_default();
    if !inits.is_empty() {
        pr.write_str(" iter_args")?;
        print_assignment_list(pr, args.get(1..).unwrap_or_default(), inits)?;
        pr.write_str(" -> (")?;
        pr.print_value_types(inits)?;
        pr.write_char(')')?;
    }
    pr.write_char(' ')?;
    // MLIR prints the bound type between two spaces: `step %c  : i32 {`.
    if let Some(ty) = operands.first().map(|&v| ir.value_type(v)).filter(|t| !t.is_index()) {
        pr.write_str(" : ")?;
        pr.print_type(ty)?;
        pr.write_char(' ')?;
    }
    if let Some(&body) = ir.regions(op).first() {
        pr.print_region(body, false, !inits.is_empty())?;
    }
    pr.print_optional_attr_dict(op, &["unsignedCmp"])
}

fn verify_for(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    let operands = ir.operands(op);
    if operands.len() < 3 {
        return Err(op_error(ir, op, format!("expected 3 or more operands, but found {}", operands.len())));
    }
    let bound_types = types_of(ir, &operands[..3]);
    for (i, ty) in bound_types.iter().enumerate() {
        if !ty.is_integer_like() {
            return Err(op_error(ir, op, format!("operand #{i} must be signless integer or index, but got '{ty}'")));
        }
    }
    if bound_types.iter().any(|t| *t != bound_types[0]) {
        return Err(op_error(ir, op, "failed to verify that all of {lowerBound, upperBound, step} have same type"));
    }
    if ir.attr(op, "unsignedCmp").is_some_and(|a| *a != Attribute::Unit) {
        return Err(op_error(ir, op, "attribute 'unsignedCmp' failed to satisfy constraint: unit attribute"));
    }
    if ir.regions(op).len() != 1 {
        return Err(op_error(ir, op, "requires one region"));
    }
    let inits = types_of(ir, &operands[3..]);
    let results = types_of(ir, ir.results(op));
    if inits.len() != results.len() {
        return Err(op_error(ir, op, "mismatch in number of loop-carried values and defined values"));
    }
    let body = single_block(ir, op, 0, "region")?;
    let Some((iv, iter_args)) = ir.block_args(body).split_first() else {
        return Err(op_error(ir, op, "expects the body's first argument to be the induction variable"));
    };
    if *ir.value_type(*iv) != bound_types[0] {
        return Err(op_error(ir, op, "expected induction variable to be same type as bounds and step"));
    }
    let iter_args = types_of(ir, iter_args);
    if inits.len() != iter_args.len() {
        return Err(op_error(
            ir,
            op,
            format!("different number of inits and region iter_args: {} != {}", inits.len(), iter_args.len()),
        ));
    }
    for (i, ((init, arg), result)) in inits.iter().zip(&iter_args).zip(&results).enumerate() {
        if init != arg {
            return Err(op_error(
                ir,
                op,
                format!("{i}-th init and {i}-th region iter_arg have different type: '{init}' != '{arg}'"),
            ));
        }
        if arg != result {
            return Err(op_error(
                ir,
                op,
                format!("{i}-th region iter_arg and {i}-th loop result have different type: '{arg}' != '{result}'"),
            ));
        }
    }
    let terminator = implicit_terminator(ir, op, body, "scf.yield")?;
    let yielded = types_of(ir, ir.operands(terminator));
    if yielded.len() != iter_args.len() {
        return Err(op_error(
            ir,
            op,
            format!(
                "different number of region iter_args and yielded values: {} != {}",
                iter_args.len(),
                yielded.len()
            ),
        ));
    }
    for (i, (arg, value)) in iter_args.iter().zip(&yielded).enumerate() {
        if arg != value {
            return Err(op_error(
                ir,
                op,
                format!("{i}-th region iter_arg and {i}-th yielded value have different type: '{arg}' != '{value}'"),
            ));
        }
    }
    Ok(())
}

// ----- scf.if -----------------------------------------------------------------------------

/// `scf.if %c -> (f32) { … } else { … }`: the else region is optional when there are no
/// results, and terminators are omitted when they yield nothing.
fn parse_if(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let cond = p.parse_operand()?;
    p.add_operands(&[cond], &[Type::I1])?;
    let types = p.parse_optional_arrow_type_list()?;
    let then_region = p.parse_region(&[])?;
    p.ensure_terminator(then_region, "scf.yield");
    if p.consume_keyword("else") {
        let else_region = p.parse_region(&[])?;
        p.ensure_terminator(else_region, "scf.yield");
    } else {
        p.add_empty_region();
    }
    p.parse_optional_attr_dict()?;
    p.add_result_types(types);
    Ok(())
}

fn print_if(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    pr.print_values(ir.operands(op))?;
    let results = ir.results(op);
    if !results.is_empty() {
        pr.write_str(" -> (")?;
        pr.print_value_types(results)?;
        pr.write_char(')')?;
    }
    let regions = ir.regions(op);
    if let Some(&then_region) = regions.first() {
        pr.write_char(' ')?;
        pr.print_region(then_region, false, !results.is_empty())?;
    }
    if let Some(&else_region) = regions.get(1).filter(|&&r| !ir.blocks(r).is_empty()) {
        pr.write_str(" else ")?;
        pr.print_region(else_region, false, !results.is_empty())?;
    }
    pr.print_optional_attr_dict(op, &[])
}

fn verify_if(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 1)?;
    expect_condition_operand(ir, op, 0)?;
    if ir.regions(op).len() != 2 {
        return Err(op_error(ir, op, "expected 2 regions"));
    }
    let results = types_of(ir, ir.results(op));
    let else_block = body_block(ir, op, 1);
    if !results.is_empty() && else_block.is_none() {
        return Err(op_error(ir, op, "must have an else block if defining values"));
    }
    let then_block = single_block(ir, op, 0, "thenRegion")?;
    for (index, block) in [(0, Some(then_block)), (1, else_block)] {
        let Some(block) = block else { continue };
        if !ir.block_args(block).is_empty() {
            return Err(op_error(ir, op, format!("region #{index} should have no arguments")));
        }
        let terminator = implicit_terminator(ir, op, block, "scf.yield")?;
        let yielded = types_of(ir, ir.operands(terminator));
        verify_edge(ir, op, "Operation scf.yield", "parent", Some(terminator), &yielded, &results)?;
    }
    Ok(())
}

// ----- scf.yield --------------------------------------------------------------------------

/// Ops whose regions `scf.yield` may end (MLIR's list, including ops we do not define).
const YIELD_PARENTS: &[&str] = &["scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while"];

fn verify_yield(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_result_count(ir, op, 0)?;
    if !ir.parent_op(op).is_some_and(|p| YIELD_PARENTS.contains(&ir.op_name(p))) {
        return Err(op_error(ir, op, format!("expects parent op to be one of '{}'", YIELD_PARENTS.join(", "))));
    }
    // Operand counts and types are checked by the parent, which knows what it expects.
    Ok(())
}

// ----- scf.parallel -----------------------------------------------------------------------

/// `scf.parallel (%i, %j) = (%a, %b) to (%c, %d) step (%e, %f) init (%x) -> f32 { … }`.
fn parse_parallel(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let mut ivs = p.parse_argument_list(false)?;
    for iv in &mut ivs {
        iv.ty = Type::Index;
    }
    p.expect(TokenKind::Equal, "'='")?;
    let lower = parse_operand_tuple(p, ivs.len())?;
    p.expect_keyword("to")?;
    let upper = parse_operand_tuple(p, ivs.len())?;
    p.expect_keyword("step")?;
    let steps = parse_operand_tuple(p, ivs.len())?;
    let inits = if p.consume_keyword("init") {
        p.parse_delimited_operand_list(TokenKind::LParen, TokenKind::RParen)?
    } else {
        vec![]
    };
    let types = p.parse_optional_arrow_type_list()?;
    if inits.len() != types.len() {
        return Err(p.op_error(format!(
            "number of operands and types do not match: got {} operands and {} types",
            inits.len(),
            types.len()
        )));
    }
    for group in [&lower, &upper, &steps] {
        p.add_operands_of_type(group, &Type::Index)?;
    }
    p.add_operands(&inits, &types)?;
    let sizes = [lower.len(), upper.len(), steps.len(), inits.len()].map(|n| n as i64);
    p.state().add_property("operandSegmentSizes", Attribute::dense_i32(&sizes));
    let body = p.parse_region(&ivs)?;
    p.parse_optional_attr_dict()?;
    p.ensure_terminator(body, "scf.reduce");
    p.add_result_types(types);
    Ok(())
}

fn print_parallel(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let operands = ir.operands(op);
    // Malformed segment sizes (rejected by the verifier) print as empty groups.
    let segments = operand_segments(ir, op, 4).unwrap_or_else(|_| vec![0..0; 4]);
    let group = |i: usize| segments.get(i).and_then(|r| operands.get(r.clone())).unwrap_or_default();
    pr.write_str(" (")?;
    pr.print_values(body_block(ir, op, 0).map_or(&[][..], |b| ir.block_args(b)))?;
    for (i, keyword) in [") = (", ") to (", ") step ("].into_iter().enumerate() {
        pr.write_str(keyword)?;
        pr.print_values(group(i))?;
    }
    pr.write_char(')')?;
    if !group(3).is_empty() {
        pr.write_str(" init (")?;
        pr.print_values(group(3))?;
        pr.write_char(')')?;
    }
    let results = ir.results(op);
    if !results.is_empty() {
        pr.write_str(" -> ")?;
        pr.print_result_types(&types_of(ir, results))?;
    }
    if let Some(&body) = ir.regions(op).first() {
        pr.write_char(' ')?;
        pr.print_region(body, false, true)?;
    }
    pr.print_optional_attr_dict(op, &["operandSegmentSizes"])
}

fn verify_parallel(ir: &Ir, op: OpId, registry: &DialectRegistry) -> DiagResult<()> {
    let segments = operand_segments(ir, op, 4)?;
    let operands = ir.operands(op);
    let (lower, upper, steps, inits) = (&segments[0], &segments[1], &segments[2], &segments[3]);
    if lower.len() != steps.len() || upper.len() != steps.len() {
        return Err(op_error(ir, op, "expects the same number of lower bounds, upper bounds and steps"));
    }
    for (i, &v) in operands[..inits.start].iter().enumerate() {
        let ty = ir.value_type(v);
        if !ty.is_index() {
            return Err(op_error(ir, op, format!("operand #{i} must be variadic of index, but got '{ty}'")));
        }
    }
    if steps.is_empty() {
        return Err(op_error(ir, op, "needs at least one tuple element for lowerBound, upperBound and step"));
    }
    for &step in &operands[steps.clone()] {
        if constant_value(ir, registry, step).and_then(|c| c.as_int()).is_some_and(|c| c <= 0) {
            return Err(op_error(ir, op, "constant step operand must be positive"));
        }
    }
    if ir.regions(op).len() != 1 {
        return Err(op_error(ir, op, "requires one region"));
    }
    let body = single_block(ir, op, 0, "region")?;
    let ivs = ir.block_args(body);
    if ivs.len() != steps.len() {
        return Err(op_error(
            ir,
            op,
            format!(
                "expects the same number of induction variables: {} as bound and step values: {}",
                ivs.len(),
                steps.len()
            ),
        ));
    }
    if ivs.iter().any(|&iv| !ir.value_type(iv).is_index()) {
        return Err(op_error(ir, op, "expects arguments for the induction variable to be of index type"));
    }
    let reduce = expected_terminator(ir, op, body, "scf.reduce", "expects body to terminate with 'scf.reduce'")?;
    let results = types_of(ir, ir.results(op));
    let num_reductions = ir.regions(reduce).len();
    if results.len() != num_reductions {
        return Err(op_error(
            ir,
            op,
            format!(
                "expects number of results: {} to be the same as number of reductions: {num_reductions}",
                results.len()
            ),
        ));
    }
    if results.len() != inits.len() {
        return Err(op_error(
            ir,
            op,
            format!(
                "expects number of results: {} to be the same as number of initial values: {}",
                results.len(),
                inits.len()
            ),
        ));
    }
    for (i, (&init, result)) in operands[inits.clone()].iter().zip(&results).enumerate() {
        let ty = ir.value_type(init);
        if ty != result {
            return Err(op_error(
                ir,
                op,
                format!(
                    "expects type of {i}-th initial value: '{ty}' to be the same as the {i}-th result type: '{result}'"
                ),
            ));
        }
    }
    let reduced = types_of(ir, ir.operands(reduce));
    if reduced.len() != results.len() {
        // `scf.reduce` reports its own operand/region mismatch.
        return Ok(());
    }
    for (i, (operand, result)) in reduced.iter().zip(&results).enumerate() {
        if operand != result {
            return Err(op_error(
                ir,
                reduce,
                format!(
                    "expects type of {i}-th reduction operand: '{operand}' to be the same as the {i}-th result type: \
                     '{result}'"
                ),
            ));
        }
    }
    Ok(())
}

// ----- scf.reduce / scf.reduce.return -----------------------------------------------------

/// `scf.reduce(%a, %b : f32, i32) { ^bb0(%l: f32, %r: f32): … }, { … } {attrs}`, or a bare
/// `scf.reduce` without reductions. Reduction regions are read only after operands: without
/// operands a `{` starts the attribute dictionary, which keeps `scf.reduce {attrs}` printable
/// and parseable (MLIR would read it as a region).
fn parse_reduce(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    if p.consume_if(TokenKind::LParen) {
        let operands = p.parse_operand_list()?;
        let types = p.parse_colon_type_list()?;
        p.expect(TokenKind::RParen, "')' after the reduction operands")?;
        if operands.len() != types.len() {
            return Err(p.op_error(format!(
                "number of operands and types do not match: got {} operands and {} types",
                operands.len(),
                types.len()
            )));
        }
        p.add_operands(&operands, &types)?;
        if p.at(TokenKind::LBrace) {
            loop {
                p.parse_region(&[])?;
                if !p.consume_if(TokenKind::Comma) {
                    break;
                }
            }
        }
    }
    p.parse_optional_attr_dict()
}

fn print_reduce(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let operands = ir.operands(op);
    if !operands.is_empty() {
        pr.write_char('(')?;
        pr.print_values(operands)?;
        pr.write_str(" : ")?;
        pr.print_value_types(operands)?;
        pr.write_char(')')?;
    }
    // MLIR writes a space before the (possibly empty) region list: `scf.reduce ` alone.
    pr.write_char(' ')?;
    for (i, &region) in ir.regions(op).iter().enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        pr.print_region(region, true, true)?;
    }
    pr.print_optional_attr_dict(op, &[])
}

fn verify_reduce(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_parent(ir, op, "scf.parallel")?;
    expect_result_count(ir, op, 0)?;
    let operands = types_of(ir, ir.operands(op));
    let regions = ir.regions(op);
    if regions.len() != operands.len() {
        return Err(op_error(
            ir,
            op,
            format!(
                "expects number of reduction regions: {} to be the same as number of reduction operands: {}",
                regions.len(),
                operands.len()
            ),
        ));
    }
    for (i, ty) in operands.iter().enumerate() {
        let block = single_block(ir, op, i, "reductions")?;
        let Some(last) = ir.last_op(block) else {
            return Err(op_error(ir, op, format!("{i}-th reduction has an empty body")));
        };
        let args = ir.block_args(block);
        if args.len() != 2 || args.iter().any(|&a| ir.value_type(a) != ty) {
            return Err(op_error(
                ir,
                op,
                format!("expected two block arguments with type '{ty}' in the {i}-th reduction region"),
            ));
        }
        if ir.op_name(last) != "scf.reduce.return" {
            return Err(op_error(ir, op, "reduction bodies must be terminated with an 'scf.reduce.return' op"));
        }
    }
    Ok(())
}

/// `scf.reduce.return %v {attrs} : f32`.
fn parse_reduce_return(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let value = p.parse_operand()?;
    p.parse_optional_attr_dict()?;
    let ty = p.parse_colon_type()?;
    p.add_operands(&[value], &[ty])
}

fn verify_reduce_return(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_parent(ir, op, "scf.reduce")?;
    expect_operand_count(ir, op, 1)?;
    expect_result_count(ir, op, 0)?;
    let expected = ir.parent_block(op).and_then(|b| ir.block_args(b).first().copied());
    let ty = ir.value_type(ir.operand(op, 0));
    if let Some(expected) = expected.map(|a| ir.value_type(a)).filter(|&e| e != ty) {
        return Err(op_error(ir, op, format!("must have type '{expected}' (the type of the reduction inputs)")));
    }
    Ok(())
}

// ----- scf.while / scf.condition ----------------------------------------------------------

/// `scf.while (%a = %init) : (i32) -> i32 { … scf.condition(%c) %a : i32 } do { ^bb0(%x: i32): … }`
/// with an optional `attributes {…}` at the end.
fn parse_while(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let (args, inits) = if p.at(TokenKind::LParen) { parse_assignment_list(p)? } else { (vec![], vec![]) };
    p.expect(TokenKind::Colon, "':'")?;
    let type_loc = p.location();
    let ty = p.parse_function_type()?;
    let Some(fn_type) = ty.as_function() else {
        return Err(Diagnostic::error(type_loc, "expected function type"));
    };
    if fn_type.inputs.len() != inits.len() {
        return Err(Diagnostic::error(
            type_loc,
            format!("expected as many input types as operands (expected {} got {})", inits.len(), fn_type.inputs.len()),
        ));
    }
    p.add_operands(&inits, &fn_type.inputs)?;
    p.add_result_types(fn_type.results.clone());
    let entry: Vec<Argument> =
        args.into_iter().zip(&fn_type.inputs).map(|(a, t)| typed_argument(a, t.clone())).collect();
    p.parse_region(&entry)?;
    p.expect_keyword("do")?;
    p.parse_region(&[])?;
    p.parse_optional_attr_dict_with_keyword()
}

fn print_while(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let inits = ir.operands(op);
    if !inits.is_empty() {
        pr.write_char(' ')?;
        print_assignment_list(pr, body_block(ir, op, 0).map_or(&[][..], |b| ir.block_args(b)), inits)?;
    }
    pr.write_str(" : ")?;
    pr.print_type(&Type::function(types_of(ir, inits), types_of(ir, ir.results(op))))?;
    let regions = ir.regions(op);
    if let Some(&before) = regions.first() {
        pr.write_char(' ')?;
        pr.print_region(before, false, true)?;
    }
    if let Some(&after) = regions.get(1) {
        pr.write_str(" do ")?;
        pr.print_region(after, true, true)?;
    }
    pr.print_optional_attr_dict_with_keyword(op, &[])
}

fn verify_while(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    if ir.regions(op).len() != 2 {
        return Err(op_error(ir, op, "expected 2 regions"));
    }
    let before = single_block(ir, op, 0, "before")?;
    let after = single_block(ir, op, 1, "after")?;
    let condition = expected_terminator(
        ir,
        op,
        before,
        "scf.condition",
        "expects the 'before' region to terminate with 'scf.condition'",
    )?;
    let yield_op =
        expected_terminator(ir, op, after, "scf.yield", "expects the 'after' region to terminate with 'scf.yield'")?;
    let inits = types_of(ir, ir.operands(op));
    let before_args = types_of(ir, ir.block_args(before));
    let after_args = types_of(ir, ir.block_args(after));
    let forwarded = types_of(ir, ir.operands(condition).get(1..).unwrap_or_default());
    let results = types_of(ir, ir.results(op));
    let yielded = types_of(ir, ir.operands(yield_op));
    verify_edge(ir, op, "parent", "Region #0", None, &inits, &before_args)?;
    verify_edge(ir, op, "Operation scf.condition", "parent", Some(condition), &forwarded, &results)?;
    verify_edge(ir, op, "Operation scf.condition", "Region #1", Some(condition), &forwarded, &after_args)?;
    verify_edge(ir, op, "Operation scf.yield", "Region #0", Some(yield_op), &yielded, &before_args)
}

/// `scf.condition(%c) {attrs} %a, %b : i32, f32`.
fn parse_condition(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    p.expect(TokenKind::LParen, "'('")?;
    let cond = p.parse_operand()?;
    p.expect(TokenKind::RParen, "')'")?;
    p.add_operands(&[cond], &[Type::I1])?;
    p.parse_optional_attr_dict()?;
    let args = p.parse_operand_list()?;
    if !args.is_empty() {
        let types = p.parse_colon_type_list()?;
        p.add_operands(&args, &types)?;
    }
    Ok(())
}

fn print_condition(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let operands = pr.ir().operands(op);
    pr.write_char('(')?;
    if let Some(&cond) = operands.first() {
        pr.print_value(cond)?;
    }
    pr.write_char(')')?;
    pr.print_optional_attr_dict(op, &[])?;
    let args = operands.get(1..).unwrap_or_default();
    if !args.is_empty() {
        pr.write_char(' ')?;
        pr.print_values(args)?;
        pr.write_str(" : ")?;
        pr.print_value_types(args)?;
    }
    Ok(())
}

fn verify_condition(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_parent(ir, op, "scf.while")?;
    if ir.operands(op).is_empty() {
        return Err(op_error(ir, op, "expected 1 or more operands, but found 0"));
    }
    expect_result_count(ir, op, 0)?;
    expect_condition_operand(ir, op, 0)
}

// ----- canonicalization -------------------------------------------------------------------

/// The value of an `arith.constant` integer (or bool) defining `v`. Canonicalization patterns
/// get no registry, so the constant op is recognised by name.
fn constant_int(ir: &Ir, v: ValueId) -> Option<i128> {
    let def = ir.defining_op(v).filter(|&d| ir.op_name(d) == "arith.constant")?;
    ir.attr(def, "value")?.as_int()
}

/// The value of an `arith.constant` `i1` defining `v`.
fn constant_bool(ir: &Ir, v: ValueId) -> Option<bool> {
    (*ir.value_type(v) == Type::I1).then(|| constant_int(ir, v)).flatten().map(|c| c & 1 != 0)
}

/// Whether `region` does nothing: no block, or one block holding only an operand-less
/// `scf.yield`.
fn is_empty_body(ir: &Ir, region: stencil_ir::RegionId) -> bool {
    match ir.blocks(region) {
        [] => true,
        [block] => ir
            .first_op(*block)
            .is_some_and(|t| ir.next_op(t).is_none() && ir.op_name(t) == "scf.yield" && ir.operands(t).is_empty()),
        _ => false,
    }
}

/// Replaces `op` by the contents of `block` (its arguments replaced by `args`): the ops move
/// before `op`, and `op`'s results become the values the block's `scf.yield` passes (MLIR's
/// `replaceOpWithRegion`). Returns false, changing nothing, when the shapes do not fit.
fn inline_body(ir: &mut Ir, op: OpId, block: BlockId, args: &[ValueId]) -> bool {
    let Some(terminator) = ir.last_op(block).filter(|&t| ir.op_name(t) == "scf.yield") else { return false };
    if ir.operands(terminator).len() != ir.results(op).len() || ir.block_args(block).len() != args.len() {
        return false;
    }
    ir.inline_block(block, InsertPoint::Before(op), args);
    // Read the yielded values after inlining: they may have been block arguments.
    let yielded = ir.operands(terminator).to_vec();
    ir.replace_op(op, &yielded);
    ir.erase_op(terminator);
    true
}

/// `scf.if` on a constant condition becomes the taken branch (or disappears when that branch
/// is an absent else); an `scf.if` without results whose branches are empty is erased.
fn canonicalize_if(ir: &mut Ir, op: OpId) -> bool {
    let (&[cond], &[then_region, else_region]) = (ir.operands(op), ir.regions(op)) else { return false };
    if let Some(taken) = constant_bool(ir, cond) {
        let region = if taken { then_region } else { else_region };
        return match ir.entry_block(region) {
            Some(block) => inline_body(ir, op, block, &[]),
            None if ir.results(op).is_empty() => {
                ir.erase_op(op);
                true
            }
            None => false,
        };
    }
    if ir.results(op).is_empty() && is_empty_body(ir, then_region) && is_empty_body(ir, else_region) {
        ir.erase_op(op);
        return true;
    }
    false
}

/// How many times a loop with these constant bounds runs, when that is 0 or 1. Values are read
/// in the bounds' type (`index` as 64 bits) with the loop's signedness; a first step that
/// would overflow the type is not folded, so the answer is exact.
fn constant_trip_count(ir: &Ir, op: OpId) -> Option<u8> {
    let &[lb, ub, step] = ir.operands(op).get(..3)? else { return None };
    if lb == ub {
        return Some(0);
    }
    let width = match ir.value_type(lb) {
        Type::Index => 64,
        Type::Integer(w @ 1..=64) => *w,
        _ => return None,
    };
    let signed = ir.attr(op, "unsignedCmp").is_none();
    let read = |v: ValueId| constant_int(ir, v).map(|c| in_type(c, width, signed));
    let (lb, ub) = (read(lb)?, read(ub)?);
    if lb >= ub {
        return Some(0);
    }
    let step = read(step)?;
    let max = if signed { (1i128 << (width - 1)) - 1 } else { (1i128 << width) - 1 };
    if step <= 0 || lb + step > max {
        return None;
    }
    (lb + step >= ub).then_some(1)
}

/// `value` wrapped to `width` bits, read as signed or unsigned.
fn in_type(value: i128, width: u32, signed: bool) -> i128 {
    let modulus = 1i128 << width;
    let wrapped = value.rem_euclid(modulus);
    if signed && wrapped >= modulus / 2 {
        wrapped - modulus
    } else {
        wrapped
    }
}

/// `scf.for` that runs zero times becomes its initial values; one that runs once becomes its
/// body with the induction variable replaced by the lower bound; one without results whose
/// body is empty is erased.
fn canonicalize_for(ir: &mut Ir, op: OpId) -> bool {
    let operands = ir.operands(op).to_vec();
    let Some(body) = body_block(ir, op, 0) else { return false };
    if operands.len() < 3 || operands.len() - 3 != ir.results(op).len() {
        return false;
    }
    match constant_trip_count(ir, op) {
        Some(0) => {
            ir.replace_op(op, &operands[3..]);
            true
        }
        Some(_) => {
            let mut args = vec![operands[0]];
            args.extend_from_slice(&operands[3..]);
            inline_body(ir, op, body, &args)
        }
        None if ir.results(op).is_empty() && is_empty_body(ir, ir.region(op, 0)) => {
            ir.erase_op(op);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::in_type;
    use stencil_ir::parser::{parse_source, ParserConfig};
    use stencil_ir::pass::canonicalize::sweep;
    use stencil_ir::printer::{print_op, PrintOptions};
    use stencil_ir::SourceFile;

    /// Parses `text` (arith ops in generic form), canonicalizes to a fixed point and prints.
    fn canonicalize(text: &str) -> String {
        let registry = crate::registry();
        let source = SourceFile::new("test.mlir", text);
        let mut m = parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: true }).unwrap();
        stencil_ir::verifier::verify(&m.ir, &registry, m.top, true).unwrap();
        while sweep(&mut m.ir, m.top, &registry) {}
        stencil_ir::verifier::verify(&m.ir, &registry, m.top, true).unwrap();
        print_op(&m.ir, &registry, m.top, PrintOptions::default())
    }

    /// Parses `text`, runs `loop-invariant-code-motion`, verifies and prints.
    fn licm(text: &str) -> String {
        let registry = crate::registry();
        let source = SourceFile::new("test.mlir", text);
        let mut m = parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: true }).unwrap();
        stencil_ir::pass::licm::hoist_invariants(&mut m.ir, m.top, &registry);
        stencil_ir::verifier::verify(&m.ir, &registry, m.top, true).unwrap();
        print_op(&m.ir, &registry, m.top, PrintOptions::default())
    }

    /// Invariant pure ops leave the loops (out of both of two nested loops when invariant in
    /// both); ops on the induction variable, loads, and divisions (which may trap in a loop that
    /// runs no iteration) stay.
    #[test]
    fn loop_invariant_code_motion() {
        let out = licm(
            "func.func @f(%a: index, %b: index, %n: index, %m: memref<?xf64>) {\n  \
             %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  \
             scf.for %i = %c0 to %n step %c1 {\n    \
               scf.for %j = %c0 to %n step %c1 {\n      \
                 %s = arith.addi %a, %b : index\n      %t = arith.muli %s, %i : index\n      \
                 %u = arith.muli %s, %b : index\n      %q = arith.divsi %a, %b : index\n      \
                 %v = memref.load %m[%a] : memref<?xf64>\n      \
                 \"test.use\"(%t, %u, %q, %v) : (index, index, index, f64) -> ()\n    }\n  }\n  return\n}",
        );
        let first_loop = out.find("scf.for").unwrap();
        let at = |needle: &str| out.find(needle).unwrap_or_else(|| panic!("{needle} missing in\n{out}"));
        assert!(at("arith.addi %arg0, %arg1") < first_loop, "invariant in both loops: moved out of both\n{out}");
        assert!(at("arith.muli %0, %arg1") < first_loop, "depends only on a moved op: moved too\n{out}");
        let inner_loop = out[first_loop + 7..].find("scf.for").unwrap() + first_loop + 7;
        let t = at("arith.muli %0, %arg4");
        assert!(t > first_loop && t < inner_loop, "invariant in the inner loop only: in front of it\n{out}");
        assert!(at("arith.divsi") > inner_loop, "a division may trap: stays\n{out}");
        assert!(at("memref.load") > inner_loop, "a load reads memory: stays\n{out}");
    }

    /// `speculate=true`: invariant pure ops under an `scf.if` in the loop leave it too (the
    /// condition's own computation, and what varies with the loop, stay); divisions and loads
    /// under the `if` stay; without it, nothing under the `if` moves (MLIR's pass).
    #[test]
    fn speculative_motion_moves_invariants_out_of_guards() {
        let text = "func.func @f(%a: index, %b: index, %n: index, %m: memref<?xf64>) {\n  \
             %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  \
             scf.for %i = %c0 to %n step %c1 {\n    \
               %g = arith.cmpi slt, %i, %b : index\n    \
               scf.if %g {\n      \
                 %s = arith.addi %a, %b : index\n      %t = arith.muli %s, %i : index\n      \
                 %q = arith.divsi %a, %b : index\n      %v = memref.load %m[%a] : memref<?xf64>\n      \
                 \"test.use\"(%t, %q, %v) : (index, index, f64) -> ()\n    }\n  }\n  return\n}";
        let registry = crate::registry();
        let run = |speculate: bool| {
            let source = SourceFile::new("test.mlir", text);
            let mut m = parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: true }).unwrap();
            let moved = stencil_ir::pass::licm::hoist_invariants_speculating(&mut m.ir, m.top, &registry, speculate);
            stencil_ir::verifier::verify(&m.ir, &registry, m.top, true).unwrap();
            (moved, print_op(&m.ir, &registry, m.top, PrintOptions::default()))
        };
        let (moved, out) = run(true);
        let at = |needle: &str| out.find(needle).unwrap_or_else(|| panic!("{needle} missing in\n{out}"));
        let the_loop = at("scf.for");
        assert_eq!(moved, 1, "{out}");
        assert!(at("arith.addi %arg0, %arg1") < the_loop, "invariant under the guard: moved\n{out}");
        let guard = at("scf.if");
        assert!(at("arith.cmpi slt") > the_loop && at("arith.muli") > guard, "loop-variant: stays\n{out}");
        assert!(at("arith.divsi") > guard && at("memref.load") > guard, "may trap / reads memory: stays\n{out}");
        let (moved, out) = run(false);
        assert_eq!(moved, 0, "MLIR's pass leaves the guarded ops\n{out}");
    }

    /// A division moves when its constant divisor makes it defined for every dividend (not 0;
    /// signed, not −1 either), as MLIR's speculatability says; one by a variable stays.
    #[test]
    fn divisions_by_safe_constants_leave_loops() {
        let out = licm(
            "func.func @f(%a: index, %n: index) {\n  \
             %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  \
             %c2 = arith.constant 2 : index\n  %m1 = arith.constant -1 : index\n  \
             scf.for %i = %c0 to %n step %c1 {\n    \
               %f = arith.floordivsi %a, %c2 : index\n    %g = arith.ceildivsi %a, %m1 : index\n    \
               %h = arith.divui %a, %m1 : index\n    %k = arith.remsi %a, %c0 : index\n    \
               %v = arith.divsi %a, %n : index\n    \
               \"test.use\"(%f, %g, %h, %k, %v) : (index, index, index, index, index) -> ()\n  }\n  return\n}",
        );
        let the_loop = out.find("scf.for").unwrap();
        let at = |needle: &str| out.find(needle).unwrap_or_else(|| panic!("{needle} missing in\n{out}"));
        assert!(at("arith.floordivsi") < the_loop, "by 2: moves\n{out}");
        assert!(at("arith.divui") < the_loop, "unsigned by 2^64 - 1: moves\n{out}");
        assert!(at("arith.ceildivsi") > the_loop, "signed by -1 overflows for INT_MIN: stays\n{out}");
        assert!(at("arith.remsi") > the_loop, "by 0: stays\n{out}");
        assert!(at("arith.divsi") > the_loop, "by a variable: stays\n{out}");
    }

    fn loop_with_bounds(ty: &str, lb: i64, ub: i64, step: i64, unsigned: bool) -> String {
        let kw = if unsigned { "unsigned " } else { "" };
        // Generic form, so that the tests do not depend on the arith dialect's custom syntax.
        let c = "\"arith.constant\"() <{value = ";
        format!(
            "func.func @f(%x: f32) -> f32 {{\n  %lb = {c}{lb} : {ty}}}> : () -> {ty}\n  \
             %ub = {c}{ub} : {ty}}}> : () -> {ty}\n  %s = {c}{step} : {ty}}}> : () -> {ty}\n  %r = scf.for {kw}%i = %lb to %ub step %s iter_args(%a = %x) -> (f32) : {ty} {{\n    \
             %y = \"test.op\"(%a) : (f32) -> f32\n    scf.yield %y : f32\n  }}\n  return %r : f32\n}}"
        )
    }

    #[test]
    fn malformed_generic_ops_are_reported_not_panicked_on() {
        let ops = [
            "\"scf.for\"() : () -> ()",
            "\"scf.for\"(%i, %i, %i) : (index, index, index) -> ()",
            "\"scf.for\"(%i, %i, %i) ({\n}) : (index, index, index) -> ()",
            "\"scf.for\"(%i, %i, %i) ({\n^bb0:\n  \"scf.yield\"() : () -> ()\n}) : (index, index, index) -> ()",
            "%r = \"scf.for\"(%i, %i, %i) ({\n^bb0(%j: index):\n  \"scf.yield\"() : () -> ()\n}) : (index, index, index) -> f32",
            "\"scf.if\"() : () -> ()",
            "\"scf.if\"(%c) ({\n}, {\n}) : (i1) -> ()",
            "%r = \"scf.if\"(%c) ({\n  \"scf.yield\"() : () -> ()\n}, {\n}) : (i1) -> f32",
            "\"scf.parallel\"() : () -> ()",
            "\"scf.parallel\"(%i) <{operandSegmentSizes = array<i32: 5, 0, 0, 0>}> ({\n}) : (index) -> ()",
            "\"scf.parallel\"(%i, %i, %i) <{operandSegmentSizes = 3 : i64}> ({\n}) : (index, index, index) -> ()",
            "%r = \"scf.parallel\"(%i, %i, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({\n^bb0(%j: index):\n  \"scf.reduce\"() : () -> ()\n}) : (index, index, index) -> f32",
            "\"scf.parallel\"(%i, %i, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({\n^bb0(%j: index):\n  \"scf.reduce\"(%i) ({\n  }) : (index) -> ()\n}) : (index, index, index) -> ()",
            "\"scf.while\"() : () -> ()",
            "\"scf.while\"() ({\n}, {\n}) : () -> ()",
            "%r = \"scf.while\"(%i) ({\n^bb0(%j: index):\n  \"scf.condition\"() : () -> ()\n}, {\n  \"scf.yield\"() : () -> ()\n}) : (index) -> index",
            "\"scf.yield\"(%i) : (index) -> ()",
            "\"scf.condition\"() : () -> ()",
            "\"scf.reduce.return\"() : () -> ()",
        ];
        crate::testing::assert_rejected_without_panic("%i: index, %c: i1", &ops);
    }

    #[test]
    fn values_wrap_to_the_bound_type() {
        assert_eq!(in_type(255, 8, true), -1);
        assert_eq!(in_type(-1, 8, false), 255);
        assert_eq!(in_type(-5, 64, true), -5);
    }

    #[test]
    fn zero_trip_loop_becomes_its_inits() {
        let out = canonicalize(&loop_with_bounds("i32", 5, 5, 1, false));
        assert!(!out.contains("scf.for") && out.contains("return %arg0 : f32"), "{out}");
        let out = canonicalize(&loop_with_bounds("i32", 7, -3, 1, false));
        assert!(!out.contains("scf.for") && out.contains("return %arg0 : f32"), "{out}");
    }

    #[test]
    fn single_trip_loop_is_inlined() {
        let out = canonicalize(&loop_with_bounds("i32", 0, 4, 4, false));
        assert!(!out.contains("scf.for") && out.contains("\"test.op\"(%arg0)"), "{out}");
    }

    #[test]
    fn loops_that_may_wrap_or_run_twice_stay() {
        // 100 + 100 overflows i8: the induction variable would wrap and the loop go on.
        assert!(canonicalize(&loop_with_bounds("i8", 100, 127, 100, false)).contains("scf.for"));
        assert!(canonicalize(&loop_with_bounds("index", 0, 8, 4, false)).contains("scf.for"));
        assert!(canonicalize(&loop_with_bounds("index", 0, 8, 0, false)).contains("scf.for"));
        assert!(canonicalize(&loop_with_bounds("index", 0, 8, -1, false)).contains("scf.for"));
    }

    #[test]
    fn unsigned_loops_compare_unsigned() {
        // -1 : i8 is 255 unsigned: 0 to 255 step 255 runs once; signed it is a zero-trip loop.
        let out = canonicalize(&loop_with_bounds("i8", 0, -1, -1, true));
        assert!(!out.contains("scf.for") && out.contains("\"test.op\"(%arg0)"), "{out}");
        let out = canonicalize(&loop_with_bounds("i8", 0, -1, 1, false));
        assert!(!out.contains("scf.for") && !out.contains("test.op"), "{out}");
    }
}
