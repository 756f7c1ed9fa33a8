//! `affine.for` and `affine.parallel`: loops whose bounds are affine maps of dims and
//! symbols (MLIR 22 syntax and properties).

use std::fmt::{self, Write};
use std::sync::Arc;
use stencil_ir::affine::{AffineExpr, AffineMap};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{AffineOperands, Argument, CustomOpParser, ParseResult, UnresolvedOperand};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::{DialectRegistry, OpDef, OpTraits};
use stencil_ir::{Attribute, DiagResult, Diagnostic, Ir, OpId, Type, ValueId};

use super::validity::AffineValueRules;
use super::{expect_index_operands, map_attr, parse_dim_and_symbol_list, print_dim_and_symbol_list};
use crate::support::{list_types, op_error, types_of};

/// Registers `affine.for` and `affine.parallel`.
pub(super) fn register(r: &mut DialectRegistry) {
    r.register_op(OpDef {
        traits: OpTraits { single_block: true, loop_like: true, ..OpTraits::default() },
        inherent_attrs: &["lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"],
        parse: Some(parse_for),
        print: Some(print_for),
        verify: Some(verify_for),
        ..OpDef::new(
            "affine.for",
            "A loop from an affine lower bound to an affine upper bound, with loop-carried values",
        )
    });
    r.register_op(OpDef {
        traits: OpTraits { single_block: true, loop_like: true, ..OpTraits::default() },
        inherent_attrs: &[
            "reductions",
            "lowerBoundsMap",
            "lowerBoundsGroups",
            "upperBoundsMap",
            "upperBoundsGroups",
            "steps",
        ],
        parse: Some(parse_parallel),
        print: Some(print_parallel),
        verify: Some(verify_parallel),
        ..OpDef::new("affine.parallel", "A multi-dimensional parallel loop nest with affine bounds and reductions")
    });
}

// ----- affine.for -------------------------------------------------------------------------

/// `affine.for %i = <lb> to <ub> (step N)? (iter_args(%a = %init, …) -> (types))? { … }`.
fn parse_for(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let mut iv = p.parse_argument(false)?;
    iv.ty = Type::Index;
    p.expect(TokenKind::Equal, "'=' after the induction variable")?;
    let num_lb = parse_bound(p, true)?;
    if !p.consume_keyword("to") {
        return Err(p.error("expected 'to' between bounds"));
    }
    let num_ub = parse_bound(p, false)?;
    let mut step = 1;
    if p.consume_keyword("step") {
        let loc = p.location();
        step = match p.parse_attribute()?.as_i64() {
            Some(s) if s >= 0 => s,
            _ => return Err(Diagnostic::error(loc, "expected step to be representable as a positive signed integer")),
        };
    }
    p.state().add_property("step", Attribute::index(step));
    let mut region_args = vec![iv];
    let mut inits = vec![];
    if p.consume_keyword("iter_args") {
        p.expect(TokenKind::LParen, "'(' to begin iter_args")?;
        loop {
            let mut arg = p.parse_argument(false)?;
            p.expect(TokenKind::Equal, "'=' between an iter_arg and its initial value")?;
            inits.push(p.parse_operand()?);
            arg.ty = Type::None;
            region_args.push(arg);
            if !p.consume_if(TokenKind::Comma) {
                break;
            }
        }
        p.expect(TokenKind::RParen, "',' or ')' in iter_args")?;
        p.expect(TokenKind::Arrow, "'->' and the result types of the loop")?;
        let types = p.parse_result_types()?;
        if types.len() != inits.len() {
            return Err(p.op_error("mismatch between the number of loop-carried values and results"));
        }
        for (arg, ty) in region_args[1..].iter_mut().zip(&types) {
            arg.ty = ty.clone();
        }
        p.add_operands(&inits, &types)?;
        p.add_result_types(types);
    }
    p.state()
        .add_property("operandSegmentSizes", Attribute::dense_i32(&[num_lb as i64, num_ub as i64, inits.len() as i64]));
    let body = p.parse_region(&region_args)?;
    p.ensure_terminator(body, "affine.yield");
    p.parse_optional_attr_dict()
}

/// One loop bound: `%v`, an integer, or `(max|min)? map(dims)[symbols]`. Adds the bound map
/// property and the operands; returns the operand count.
fn parse_bound(p: &mut CustomOpParser<'_, '_>, lower: bool) -> ParseResult<usize> {
    let (keyword, property) = if lower { ("max", "lowerBoundMap") } else { ("min", "upperBoundMap") };
    let has_keyword = p.consume_keyword(keyword);
    if p.at(TokenKind::PercentIdent) {
        let operands = p.parse_operand_list()?;
        if operands.len() > 1 {
            return Err(p.op_error("expected only one loop bound operand"));
        }
        p.add_operands_of_type(&operands, &Type::Index)?;
        // A bare value is stored as the symbol identity map, as MLIR does.
        p.state()
            .add_property(property, Attribute::AffineMap(Arc::new(AffineMap::new(0, 1, vec![AffineExpr::Symbol(0)]))));
        return Ok(1);
    }
    let loc = p.location();
    match p.parse_attribute()? {
        Attribute::AffineMap(map) => {
            let (operands, num_dims) = parse_dim_and_symbol_list(p)?;
            if map.num_dims as usize != num_dims {
                return Err(p.op_error("dim operand count and affine map dim count must match"));
            }
            if map.num_inputs() != operands.len() {
                return Err(p.op_error("symbol operand count and affine map symbol count must match"));
            }
            if map.results.len() > 1 && !has_keyword {
                let which = if lower { "lower" } else { "upper" };
                return Err(Diagnostic::error(
                    loc,
                    format!("{which} loop bound affine map with multiple results requires '{keyword}' prefix"),
                ));
            }
            p.add_operands_of_type(&operands, &Type::Index)?;
            p.state().add_property(property, Attribute::AffineMap(map));
            Ok(operands.len())
        }
        Attribute::Integer { value, .. } => {
            let Ok(c) = i64::try_from(value) else {
                return Err(Diagnostic::error(loc, format!("loop bound {value} does not fit in 64 bits")));
            };
            p.state().add_property(property, Attribute::AffineMap(Arc::new(AffineMap::constant(c))));
            Ok(0)
        }
        _ => Err(p.op_error("expected valid affine map representation for loop bounds")),
    }
}

/// A loop bound as MLIR prints it: a constant, a single symbol operand, or the map (with a
/// `max`/`min` keyword when it has several results) applied to its operands.
fn print_bound(
    pr: &mut OpPrinter<'_>,
    map_attr: Option<&Attribute>,
    operands: &[ValueId],
    keyword: &str,
) -> fmt::Result {
    let Some(map) = map_attr.and_then(Attribute::as_affine_map) else {
        return pr.write_str("<<missing bound map>>");
    };
    if let [expr] = map.results.as_slice() {
        match (map.num_dims, map.num_symbols, expr) {
            (0, 0, AffineExpr::Constant(c)) => return write!(pr, "{c}"),
            (0, 1, AffineExpr::Symbol(_)) if operands.len() == 1 => return pr.print_value(operands[0]),
            _ => {}
        }
    } else {
        write!(pr, "{keyword} ")?;
    }
    pr.print_attribute(&Attribute::AffineMap(Arc::new(map.clone())))?;
    print_dim_and_symbol_list(pr, operands, map.num_dims as usize)
}

/// The lower-bound, upper-bound and init operands of a well-formed `affine.for`, split by
/// `operandSegmentSizes`; `None` when the segments do not describe the operands.
fn for_operand_groups(ir: &Ir, op: OpId) -> Option<[&[ValueId]; 3]> {
    let sizes = ir.attr(op, "operandSegmentSizes")?.as_dense_array()?;
    let [lb, ub, inits] = sizes else { return None };
    let (lb, ub, inits) = (usize::try_from(*lb).ok()?, usize::try_from(*ub).ok()?, usize::try_from(*inits).ok()?);
    let operands = ir.operands(op);
    if lb.checked_add(ub).and_then(|n| n.checked_add(inits)) != Some(operands.len()) {
        return None;
    }
    Some([&operands[..lb], &operands[lb..lb + ub], &operands[lb + ub..]])
}

fn print_for(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let body = ir.regions(op).first().copied();
    let args = body.and_then(|r| ir.entry_block(r)).map(|b| ir.block_args(b)).unwrap_or(&[]);
    pr.write_char(' ')?;
    match args.first() {
        Some(&iv) => pr.print_value(iv)?,
        None => pr.write_str("%<<missing induction variable>>")?,
    }
    pr.write_str(" = ")?;
    let [lbs, ubs, inits] = for_operand_groups(ir, op).unwrap_or([&[], &[], &[]]);
    print_bound(pr, ir.attr(op, "lowerBoundMap"), lbs, "max")?;
    pr.write_str(" to ")?;
    print_bound(pr, ir.attr(op, "upperBoundMap"), ubs, "min")?;
    let step = ir.attr(op, "step").and_then(Attribute::as_i64).unwrap_or(1);
    if step != 1 {
        write!(pr, " step {step}")?;
    }
    if !inits.is_empty() {
        pr.write_str(" iter_args(")?;
        for (i, &init) in inits.iter().enumerate() {
            if i > 0 {
                pr.write_str(", ")?;
            }
            match args.get(i + 1) {
                Some(&arg) => pr.print_value(arg)?,
                None => pr.write_str("%<<missing iter_arg>>")?,
            }
            pr.write_str(" = ")?;
            pr.print_value(init)?;
        }
        pr.write_str(") -> (")?;
        pr.print_types(&types_of(ir, ir.results(op)))?;
        pr.write_char(')')?;
    }
    if let Some(body) = body {
        pr.write_char(' ')?;
        pr.print_region(body, false, !inits.is_empty())?;
    }
    pr.print_optional_attr_dict(op, &["lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"])
}

fn verify_for(ir: &Ir, op: OpId, registry: &DialectRegistry) -> DiagResult<()> {
    let lb_map = map_attr(ir, op, "lowerBoundMap")?;
    let ub_map = map_attr(ir, op, "upperBoundMap")?;
    let step = match ir.attr(op, "step") {
        Some(Attribute::Integer { value, ty: Type::Index }) => *value,
        Some(_) => return Err(op_error(ir, op, "attribute 'step' failed to satisfy constraint: index attribute")),
        None => return Err(op_error(ir, op, "requires attribute 'step'")),
    };
    let Some(sizes) = ir.attr(op, "operandSegmentSizes").and_then(Attribute::as_dense_array).filter(|s| s.len() == 3)
    else {
        return Err(op_error(
            ir,
            op,
            "requires attribute 'operandSegmentSizes' holding 3 segment sizes (array<i32: lb, ub, inits>)",
        ));
    };
    // Checked: generic-form input may spell the sizes as any i64 (`array<i64: …>`).
    let total = sizes.iter().try_fold(0i64, |acc, &s| acc.checked_add(s));
    let total_text = total.map_or_else(|| "more than i64::MAX".to_string(), |t| t.to_string());
    if sizes.iter().any(|&s| s < 0) || total.and_then(|t| usize::try_from(t).ok()) != Some(ir.operands(op).len()) {
        return Err(op_error(
            ir,
            op,
            format!("operand count ({}) does not match with the total size ({total_text}) specified in attribute 'operandSegmentSizes'", ir.operands(op).len()),
        ));
    }
    let [lbs, ubs, inits] = for_operand_groups(ir, op).unwrap_or([&[], &[], &[]]);
    for (which, map, operands, group) in [("lower", lb_map, lbs, 0), ("upper", ub_map, ubs, 1)] {
        if map.results.is_empty() {
            return Err(op_error(ir, op, format!("expected {which} bound map to have at least one result")));
        }
        if map.num_inputs() != operands.len() {
            return Err(op_error(
                ir,
                op,
                format!(
                    "{which} bound operand count ({}) does not match the number of inputs of its map ({})",
                    operands.len(),
                    map.num_inputs()
                ),
            ));
        }
        expect_index_operands(ir, op, operands, group)?;
    }
    if step <= 0 {
        return Err(op_error(ir, op, format!("expected a positive step, but got {step}")));
    }
    let Some(&body) = ir.regions(op).first().filter(|_| ir.regions(op).len() == 1) else {
        return Err(op_error(ir, op, "requires 1 region"));
    };
    let Some(entry) = ir.entry_block(body) else {
        return Err(op_error(ir, op, "region #0 ('region') failed to verify constraint: region with 1 blocks"));
    };
    let args = ir.block_args(entry);
    if !args.first().is_some_and(|&iv| ir.value_type(iv).is_index()) {
        return Err(op_error(ir, op, "expected body to have a single index argument for the induction variable"));
    }
    let mut rules = AffineValueRules::new(ir, registry);
    rules.verify_dims_and_symbols(op, lbs, lb_map.num_dims as usize)?;
    rules.verify_dims_and_symbols(op, ubs, ub_map.num_dims as usize)?;
    let results = types_of(ir, ir.results(op));
    if inits.len() != results.len() {
        return Err(op_error(ir, op, "mismatch between the number of loop-carried values and results"));
    }
    if args.len() - 1 != results.len() {
        return Err(op_error(ir, op, "mismatch between the number of basic block args and results"));
    }
    // The checks and messages of MLIR's LoopLikeOpInterface verifier.
    for (i, ((&init, &arg), result)) in inits.iter().zip(&args[1..]).zip(&results).enumerate() {
        let (init_type, arg_type) = (ir.value_type(init), ir.value_type(arg));
        if init_type != arg_type {
            return Err(op_error(
                ir,
                op,
                format!("{i}-th init and {i}-th region iter_arg have different type: '{init_type}' != '{arg_type}'"),
            ));
        }
        if arg_type != result {
            return Err(op_error(
                ir,
                op,
                format!(
                    "{i}-th region iter_arg and {i}-th loop result have different type: '{arg_type}' != '{result}'"
                ),
            ));
        }
    }
    Ok(())
}

// ----- affine.parallel --------------------------------------------------------------------

/// The `arith::AtomicRMWKind` names, indexed by their value in `reductions`.
pub const REDUCTION_KINDS: [&str; 16] = [
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu", "minimumf", "minnumf", "mins", "minu",
    "mulf", "muli", "ori", "xori",
];

/// The reduction kind named by one entry of `affine.parallel`'s `reductions` (stored as the
/// kind's integer value, as MLIR does, or spelled as its name).
pub fn reduction_kind(entry: &stencil_ir::Attribute) -> Option<&'static str> {
    if let Some(name) = entry.as_str() {
        return REDUCTION_KINDS.iter().copied().find(|k| *k == name);
    }
    entry.as_i64().and_then(|i| usize::try_from(i).ok()).and_then(|i| REDUCTION_KINDS.get(i).copied())
}

/// Whether a result of type `ty` can be reduced with `kind` (MLIR's
/// `isResultTypeMatchAtomicRMWKind`; our integers are signless, so the signed and unsigned
/// kinds never match).
fn reduction_matches_type(kind: &str, ty: &Type) -> bool {
    match kind {
        "addf" | "mulf" | "maximumf" | "minimumf" => ty.is_float(),
        "addi" | "muli" | "ori" | "andi" => matches!(ty, Type::Integer(_)),
        "assign" => true,
        _ => false,
    }
}

/// One side of a parallel loop's bounds: `(e0, max(e1, e2), …)`. Returns the flat map, the
/// number of expressions per group, and the deduplicated operands (dims, then symbols).
struct ParallelBound {
    map: AffineMap,
    groups: Vec<i64>,
    operands: Vec<ValueId>,
}

/// Parses `(` groups `)` where a group is an expression over SSA ids or `max(…)`/`min(…)` of
/// several; like MLIR, operands used by several expressions become one map input.
fn parse_parallel_bound(p: &mut CustomOpParser<'_, '_>, keyword: &str) -> ParseResult<ParallelBound> {
    p.expect(TokenKind::LParen, "'(' to begin the loop bounds")?;
    // Each flat expression with the dims and symbols it was parsed against.
    let mut flat: Vec<(AffineExpr, Vec<UnresolvedOperand>, Vec<UnresolvedOperand>)> = vec![];
    let mut groups = vec![];
    if !p.consume_if(TokenKind::RParen) {
        loop {
            if p.consume_keyword(keyword) {
                p.expect(TokenKind::LParen, &format!("'(' after '{keyword}'"))?;
                let (map, operands) = p.parse_affine_exprs_of_ssa_ids(TokenKind::RParen)?;
                p.expect(TokenKind::RParen, &format!("',' or ')' to close '{keyword}('"))?;
                groups.push(map.results.len() as i64);
                for e in map.results {
                    flat.push((e, operands.dims.clone(), operands.symbols.clone()));
                }
            } else {
                let mut operands = AffineOperands::default();
                let e = p.parse_affine_expr_of_ssa_ids(&mut operands)?;
                groups.push(1);
                flat.push((e, operands.dims, operands.symbols));
            }
            if !p.consume_if(TokenKind::Comma) {
                break;
            }
        }
        p.expect(TokenKind::RParen, "',' or ')' in the loop bounds")?;
    }
    // Resolve every expression's operands and renumber its dims and symbols into one list of
    // unique values per kind.
    let mut dims: Vec<ValueId> = vec![];
    let mut symbols: Vec<ValueId> = vec![];
    let mut results = vec![];
    for (expr, expr_dims, expr_symbols) in flat {
        let mut dim_map = vec![];
        for o in &expr_dims {
            let v = p.resolve_operand(o, &Type::Index)?;
            dim_map.push(AffineExpr::Dim(position_or_push(&mut dims, v)));
        }
        let mut symbol_map = vec![];
        for o in &expr_symbols {
            let v = p.resolve_operand(o, &Type::Index)?;
            symbol_map.push(AffineExpr::Symbol(position_or_push(&mut symbols, v)));
        }
        results.push(expr.replace(&dim_map, &symbol_map));
    }
    let map = AffineMap::new(dims.len() as u32, symbols.len() as u32, results);
    dims.extend(symbols);
    Ok(ParallelBound { map, groups, operands: dims })
}

fn position_or_push(list: &mut Vec<ValueId>, v: ValueId) -> u32 {
    let pos = list.iter().position(|&x| x == v).unwrap_or_else(|| {
        list.push(v);
        list.len() - 1
    });
    pos as u32
}

/// `affine.parallel (%i, %j) = (lbs) to (ubs) (step (s, t))? (reduce ("addf", …) -> (types))?
/// { … }`.
fn parse_parallel(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let mut ivs: Vec<Argument> = p.parse_argument_list(false)?;
    for iv in &mut ivs {
        iv.ty = Type::Index;
    }
    p.expect(TokenKind::Equal, "'=' after the induction variables")?;
    let lower = parse_parallel_bound(p, "max")?;
    if !p.consume_keyword("to") {
        return Err(p.error("expected 'to' between the lower and upper bounds"));
    }
    let upper = parse_parallel_bound(p, "min")?;
    let steps = if p.consume_keyword("step") {
        p.expect(TokenKind::LParen, "'(' to begin the steps")?;
        let (map, _) = p.parse_affine_exprs_of_ssa_ids(TokenKind::RParen)?;
        p.expect(TokenKind::RParen, "',' or ')' in the steps")?;
        match map.results.iter().map(AffineExpr::as_constant).collect::<Option<Vec<_>>>() {
            Some(steps) => steps,
            None => return Err(p.op_error("steps must be constant integers")),
        }
    } else {
        vec![1; ivs.len()]
    };
    let mut reductions = vec![];
    if p.consume_keyword("reduce") {
        p.expect(TokenKind::LParen, "'(' to begin the reductions")?;
        loop {
            let loc = p.location();
            let name = p.parse_string()?;
            let Some(kind) = REDUCTION_KINDS.iter().position(|k| *k == name) else {
                return Err(Diagnostic::error(
                    loc,
                    format!("invalid reduction value: \"{name}\" (expected one of {})", REDUCTION_KINDS.join(", ")),
                ));
            };
            reductions.push(Attribute::i64(kind as i64));
            if !p.consume_if(TokenKind::Comma) {
                break;
            }
        }
        p.expect(TokenKind::RParen, "',' or ')' in the reductions")?;
    }
    let results = p.parse_optional_arrow_type_list()?;
    p.add_result_types(results);
    for operand in lower.operands.iter().chain(&upper.operands) {
        p.state().operands.push(*operand);
    }
    let state = p.state();
    state.add_property("reductions", Attribute::Array(reductions));
    state.add_property("lowerBoundsMap", Attribute::AffineMap(Arc::new(lower.map)));
    state.add_property("lowerBoundsGroups", Attribute::dense_i32_elements(&lower.groups));
    state.add_property("upperBoundsMap", Attribute::AffineMap(Arc::new(upper.map)));
    state.add_property("upperBoundsGroups", Attribute::dense_i32_elements(&upper.groups));
    state.add_property("steps", Attribute::Array(steps.into_iter().map(Attribute::i64).collect()));
    let body = p.parse_region(&ivs)?;
    p.parse_optional_attr_dict()?;
    p.ensure_terminator(body, "affine.yield");
    Ok(())
}

/// Prints one side of a parallel loop's bounds: single-expression groups as the expression,
/// larger ones as `max(…)`/`min(…)`.
fn print_parallel_bound(
    pr: &mut OpPrinter<'_>,
    map: Option<&AffineMap>,
    groups: &[i64],
    operands: &[ValueId],
    keyword: &str,
) -> fmt::Result {
    let Some(map) = map else { return pr.write_str("<<missing bound map>>") };
    let mut start = 0usize;
    for (i, &size) in groups.iter().enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        let size = usize::try_from(size).unwrap_or(0);
        let exprs = map.results.get(start..start + size).unwrap_or(&[]).to_vec();
        let submap = AffineMap::new(map.num_dims, map.num_symbols, exprs);
        if size == 1 {
            pr.print_affine_map_of_ssa_ids(&submap, operands)?;
        } else {
            write!(pr, "{keyword}(")?;
            pr.print_affine_map_of_ssa_ids(&submap, operands)?;
            pr.write_char(')')?;
        }
        start += size;
    }
    Ok(())
}

fn print_parallel(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let body = ir.regions(op).first().copied();
    let ivs = body.and_then(|r| ir.entry_block(r)).map(|b| ir.block_args(b)).unwrap_or(&[]);
    pr.write_str(" (")?;
    pr.print_values(ivs)?;
    pr.write_str(") = (")?;
    let lower = ir.attr(op, "lowerBoundsMap").and_then(Attribute::as_affine_map);
    let upper = ir.attr(op, "upperBoundsMap").and_then(Attribute::as_affine_map);
    let num_lower_operands = lower.map_or(0, AffineMap::num_inputs).min(ir.operands(op).len());
    let (lower_operands, upper_operands) = ir.operands(op).split_at(num_lower_operands);
    let groups = |name: &str| ir.attr(op, name).and_then(Attribute::as_dense_int_elements).unwrap_or(&[]);
    print_parallel_bound(pr, lower, groups("lowerBoundsGroups"), lower_operands, "max")?;
    pr.write_str(") to (")?;
    print_parallel_bound(pr, upper, groups("upperBoundsGroups"), upper_operands, "min")?;
    pr.write_char(')')?;
    let steps: Vec<i64> = match ir.attr(op, "steps") {
        Some(Attribute::Array(items)) => items.iter().map(|s| s.as_i64().unwrap_or(0)).collect(),
        _ => vec![],
    };
    if steps.iter().any(|&s| s != 1) {
        pr.write_str(" step (")?;
        for (i, s) in steps.iter().enumerate() {
            if i > 0 {
                pr.write_str(", ")?;
            }
            write!(pr, "{s}")?;
        }
        pr.write_char(')')?;
    }
    if !ir.results(op).is_empty() {
        pr.write_str(" reduce (")?;
        if let Some(Attribute::Array(kinds)) = ir.attr(op, "reductions") {
            for (i, kind) in kinds.iter().enumerate() {
                if i > 0 {
                    pr.write_str(", ")?;
                }
                let name = kind
                    .as_i64()
                    .and_then(|k| usize::try_from(k).ok())
                    .and_then(|k| REDUCTION_KINDS.get(k))
                    .unwrap_or(&"<<invalid>>");
                write!(pr, "\"{name}\"")?;
            }
        }
        pr.write_str(") -> (")?;
        pr.print_types(&types_of(ir, ir.results(op)))?;
        pr.write_char(')')?;
    }
    if let Some(body) = body {
        pr.write_char(' ')?;
        pr.print_region(body, false, !ir.results(op).is_empty())?;
    }
    pr.print_optional_attr_dict(
        op,
        &["reductions", "lowerBoundsMap", "lowerBoundsGroups", "upperBoundsMap", "upperBoundsGroups", "steps"],
    )
}

/// The group sizes of `name`, which must be a dense integer elements attribute.
fn bound_groups<'a>(ir: &'a Ir, op: OpId, name: &str) -> DiagResult<&'a [i64]> {
    ir.attr(op, name)
        .and_then(Attribute::as_dense_int_elements)
        .ok_or_else(|| op_error(ir, op, format!("requires attribute '{name}' (dense<…> : tensor<Nxi32> group sizes)")))
}

fn verify_parallel(ir: &Ir, op: OpId, registry: &DialectRegistry) -> DiagResult<()> {
    // Properties are checked in MLIR's (alphabetical) order.
    let lower_groups = bound_groups(ir, op, "lowerBoundsGroups")?;
    let lower = map_attr(ir, op, "lowerBoundsMap")?;
    let Some(Attribute::Array(reductions)) = ir.attr(op, "reductions") else {
        return Err(op_error(ir, op, "requires attribute 'reductions' (an array of reduction kinds)"));
    };
    let Some(Attribute::Array(steps)) = ir.attr(op, "steps") else {
        return Err(op_error(ir, op, "requires attribute 'steps' (an array of i64 integers)"));
    };
    let Some(steps) = steps.iter().map(Attribute::as_i64).collect::<Option<Vec<i64>>>() else {
        return Err(op_error(ir, op, "attribute 'steps' failed to satisfy constraint: 64-bit integer array attribute"));
    };
    let upper_groups = bound_groups(ir, op, "upperBoundsGroups")?;
    let upper = map_attr(ir, op, "upperBoundsMap")?;
    let Some(&body) = ir.regions(op).first().filter(|_| ir.regions(op).len() == 1) else {
        return Err(op_error(ir, op, "requires 1 region"));
    };
    let Some(entry) = ir.entry_block(body) else {
        return Err(op_error(ir, op, "region #0 ('region') failed to verify constraint: region with 1 blocks"));
    };
    let ivs = ir.block_args(entry);
    let n = steps.len();
    if lower_groups.len() != n || upper_groups.len() != n || ivs.len() != n {
        return Err(op_error(
            ir,
            op,
            format!(
                "the number of region arguments ({}) and the number of map groups for lower ({}) and upper bound ({}), and the number of steps ({n}) must all match",
                ivs.len(),
                lower_groups.len(),
                upper_groups.len()
            ),
        ));
    }
    if let Some(&iv) = ivs.iter().find(|&&iv| !ir.value_type(iv).is_index()) {
        return Err(op_error(
            ir,
            op,
            format!("expected the induction variables to be of index type, but got '{}'", ir.value_type(iv)),
        ));
    }
    for (which, map, groups) in [("lower", lower, lower_groups), ("upper", upper, upper_groups)] {
        if groups.iter().any(|&g| g < 1) {
            return Err(op_error(
                ir,
                op,
                format!("expected every {which} bound group to hold at least one expression"),
            ));
        }
        // Checked: the group sizes come from the (generic-form) input.
        let expected = groups.iter().try_fold(0i64, |acc, &g| acc.checked_add(g));
        if expected.and_then(|e| usize::try_from(e).ok()) != Some(map.results.len()) {
            let expected = expected.map_or_else(|| "more than i64::MAX".to_string(), |e| e.to_string());
            return Err(op_error(ir, op, format!("expected {which} bounds map to have {expected} results")));
        }
    }
    if let Some(step) = steps.iter().find(|&&s| s <= 0) {
        return Err(op_error(ir, op, format!("expected positive steps, but got {step}")));
    }
    let operands = ir.operands(op);
    if operands.len() != lower.num_inputs() + upper.num_inputs() {
        return Err(op_error(
            ir,
            op,
            format!(
                "operand count ({}) does not match the inputs of the lower and upper bounds maps ({} + {})",
                operands.len(),
                lower.num_inputs(),
                upper.num_inputs()
            ),
        ));
    }
    expect_index_operands(ir, op, operands, 0)?;
    let results = types_of(ir, ir.results(op));
    if reductions.len() != results.len() {
        return Err(op_error(ir, op, "a reduction must be specified for each output"));
    }
    for (kind, ty) in reductions.iter().zip(&results) {
        let Some(name) = kind.as_i64().and_then(|k| usize::try_from(k).ok()).and_then(|k| REDUCTION_KINDS.get(k))
        else {
            return Err(op_error(ir, op, "invalid reduction attribute"));
        };
        if !reduction_matches_type(name, ty) {
            return Err(op_error(
                ir,
                op,
                format!(
                    "result type cannot match reduction attribute (\"{name}\" cannot reduce {})",
                    list_types(std::slice::from_ref(ty))
                ),
            ));
        }
    }
    let (lower_operands, upper_operands) = operands.split_at(lower.num_inputs());
    let mut rules = AffineValueRules::new(ir, registry);
    rules.verify_dims_and_symbols(op, lower_operands, lower.num_dims as usize)?;
    rules.verify_dims_and_symbols(op, upper_operands, upper.num_dims as usize)
}
