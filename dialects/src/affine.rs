//! The `affine` dialect: loops and conditionals with affine bounds and conditions, memory
//! accesses through affine maps, and affine arithmetic on `index` values (MLIR 22 syntax).
//!
//! `affine.for` and `affine.parallel` live in `loops`; the rules deciding which values may
//! be affine dimensions and symbols in [`validity`]. Maps and sets are printed inline
//! (`affine_map<…>`) where mlir-opt would print an alias (`#map`); both spellings parse.

mod loops;

pub use loops::{reduction_kind, REDUCTION_KINDS};
pub mod validity;

use std::fmt::{self, Write};
use std::sync::Arc;
use stencil_ir::affine::{AffineExpr, AffineMap};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{CustomOpParser, ParseResult, UnresolvedOperand};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::{DialectDef, DialectRegistry, FoldResult, OpDef, OpTraits};
use stencil_ir::{Attribute, DiagResult, Diagnostic, Ir, Location, OpId, OperationState, Type, ValueId};

use crate::support::{expect_result_count, list_types, op_error, types_of};
use validity::AffineValueRules;

/// Registers the dialect.
pub fn register(r: &mut DialectRegistry) {
    r.register_dialect(DialectDef { materialize_constant: Some(materialize_constant), ..DialectDef::new("affine") });
    let pure = OpTraits { pure: true, ..OpTraits::default() };
    r.register_op(OpDef {
        traits: pure,
        inherent_attrs: &["map"],
        parse: Some(parse_apply),
        print: Some(print_apply),
        verify: Some(verify_apply),
        fold: Some(fold_apply),
        ..OpDef::new("affine.apply", "Applies a single-result affine map to index operands")
    });
    r.register_op(OpDef {
        traits: pure,
        inherent_attrs: &["map"],
        parse: Some(parse_min_max),
        print: Some(print_min_max),
        verify: Some(verify_min_max),
        fold: Some(fold_min_max),
        ..OpDef::new("affine.min", "The minimum of the results of an affine map")
    });
    r.register_op(OpDef {
        traits: pure,
        inherent_attrs: &["map"],
        parse: Some(parse_min_max),
        print: Some(print_min_max),
        verify: Some(verify_min_max),
        fold: Some(fold_min_max),
        ..OpDef::new("affine.max", "The maximum of the results of an affine map")
    });
    r.register_op(OpDef {
        traits: OpTraits { reads_memory: true, ..OpTraits::default() },
        inherent_attrs: &["map"],
        parse: Some(parse_load),
        print: Some(print_load),
        verify: Some(verify_load),
        ..OpDef::new("affine.load", "Reads a memref element at affine subscripts")
    });
    r.register_op(OpDef {
        inherent_attrs: &["map"],
        parse: Some(parse_store),
        print: Some(print_store),
        verify: Some(verify_store),
        ..OpDef::new("affine.store", "Writes a memref element at affine subscripts")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, terminator: true, ..OpTraits::default() },
        parse: Some(crate::func::parse_return_like),
        print: Some(crate::func::print_return_like),
        verify: Some(verify_yield),
        ..OpDef::new("affine.yield", "Terminates affine.for, affine.if and affine.parallel bodies, yielding values")
    });
    r.register_op(OpDef {
        traits: OpTraits { single_block: true, ..OpTraits::default() },
        inherent_attrs: &["condition"],
        parse: Some(parse_if),
        print: Some(print_if),
        verify: Some(verify_if),
        ..OpDef::new("affine.if", "Runs its then or else region depending on an integer set condition")
    });
    loops::register(r);
}

/// Builds an `arith.constant` for a folded value (MLIR's `AffineDialect::materializeConstant`
/// delegates to `arith.constant` too).
fn materialize_constant(value: &Attribute, ty: &Type, location: Location) -> Option<OperationState> {
    let value = match value {
        Attribute::Integer { value, .. } if ty.is_integer_like() => {
            Attribute::Integer { value: *value, ty: ty.clone() }
        }
        a if a.typed_type().as_ref() == Some(ty) => a.clone(),
        _ => return None,
    };
    let mut state = OperationState::new("arith.constant", location);
    state.add_property("value", value);
    state.result_types.push(ty.clone());
    Some(state)
}

// ----- shared syntax and checks -----------------------------------------------------------

/// The affine map attribute `name` of `op`, with ODS-style errors.
fn map_attr<'a>(ir: &'a Ir, op: OpId, name: &str) -> DiagResult<&'a AffineMap> {
    match ir.attr(op, name) {
        None => Err(op_error(ir, op, format!("requires attribute '{name}'"))),
        Some(a) => a.as_affine_map().ok_or_else(|| {
            op_error(ir, op, format!("attribute '{name}' failed to satisfy constraint: AffineMap attribute"))
        }),
    }
}

/// Checks that `values` (operand group `group` of `op`) are all `index`.
fn expect_index_operands(ir: &Ir, op: OpId, values: &[ValueId], group: usize) -> DiagResult<()> {
    match values.iter().map(|&v| ir.value_type(v)).find(|t| !t.is_index()) {
        Some(t) => Err(op_error(ir, op, format!("operand #{group} must be variadic of index, but got '{t}'"))),
        None => Ok(()),
    }
}

/// Checks that `op` has one `index` result.
fn expect_index_result(ir: &Ir, op: OpId) -> DiagResult<()> {
    expect_result_count(ir, op, 1)?;
    let t = ir.value_type(ir.result(op, 0));
    if !t.is_index() {
        return Err(op_error(ir, op, format!("result #0 must be index, but got '{t}'")));
    }
    Ok(())
}

/// Parses an attribute that must be an affine map.
fn parse_affine_map(p: &mut CustomOpParser<'_, '_>) -> ParseResult<Arc<AffineMap>> {
    let loc = p.location();
    match p.parse_attribute()? {
        Attribute::AffineMap(m) => Ok(m),
        _ => Err(Diagnostic::error(loc, "invalid kind of attribute specified (expected an affine map)")),
    }
}

/// `(%d0, %d1)[%s0]` (the symbol list is optional): the operands of a map, dims first.
/// Returns the operands and the number of dims.
fn parse_dim_and_symbol_list(p: &mut CustomOpParser<'_, '_>) -> ParseResult<(Vec<UnresolvedOperand>, usize)> {
    let mut operands = p.parse_delimited_operand_list(TokenKind::LParen, TokenKind::RParen)?;
    let num_dims = operands.len();
    if p.at(TokenKind::LSquare) {
        operands.extend(p.parse_delimited_operand_list(TokenKind::LSquare, TokenKind::RSquare)?);
    }
    Ok((operands, num_dims))
}

/// Prints `(%d0, %d1)[%s0]`, leaving out `[]` when there are no symbols.
fn print_dim_and_symbol_list(pr: &mut OpPrinter<'_>, operands: &[ValueId], num_dims: usize) -> fmt::Result {
    let num_dims = num_dims.min(operands.len());
    pr.write_char('(')?;
    pr.print_values(&operands[..num_dims])?;
    pr.write_char(')')?;
    if operands.len() > num_dims {
        pr.write_char('[')?;
        pr.print_values(&operands[num_dims..])?;
        pr.write_char(']')?;
    }
    Ok(())
}

/// Constant values of `operands` (dims then symbols) as replacement expressions, keeping the
/// dims and symbols whose operand is not constant.
fn constant_replacements(map: &AffineMap, constants: &[Option<Attribute>]) -> (Vec<AffineExpr>, Vec<AffineExpr>) {
    let num_dims = map.num_dims as usize;
    let value = |i: usize, keep: AffineExpr| {
        constants.get(i).and_then(|c| c.as_ref()).and_then(Attribute::as_i64).map_or(keep, AffineExpr::Constant)
    };
    let dims = (0..map.num_dims).map(|d| value(d as usize, AffineExpr::Dim(d))).collect();
    let symbols = (0..map.num_symbols).map(|s| value(num_dims + s as usize, AffineExpr::Symbol(s))).collect();
    (dims, symbols)
}

/// The results of `map` with the known constant operands substituted, if all become
/// constants (MLIR's `AffineMap::constantFold`).
fn fold_map_to_constants(map: &AffineMap, constants: &[Option<Attribute>]) -> Option<Vec<i64>> {
    let (dims, symbols) = constant_replacements(map, constants);
    map.results.iter().map(|e| e.replace(&dims, &symbols).as_constant()).collect()
}

// ----- affine.apply -----------------------------------------------------------------------

/// `affine.apply #map(%d)[%s]` or `affine.apply affine_map<…>(%d)[%s]`.
fn parse_apply(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let map = parse_affine_map(p)?;
    let (operands, num_dims) = parse_dim_and_symbol_list(p)?;
    p.parse_optional_attr_dict()?;
    if map.num_dims as usize != num_dims || map.num_inputs() != operands.len() {
        return Err(p.op_error("dimension or symbol index mismatch"));
    }
    p.add_operands_of_type(&operands, &Type::Index)?;
    p.state().add_property("map", Attribute::AffineMap(map));
    p.add_result_types([Type::Index]);
    Ok(())
}

fn print_apply(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    print_map_call(pr, op)?;
    pr.print_optional_attr_dict(op, &["map"])
}

/// ` affine_map<…>(%d)[%s]` for ops whose operands are all map operands.
fn print_map_call(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    let attr = ir.attr(op, "map").cloned().unwrap_or(Attribute::Unit);
    pr.print_attribute(&attr)?;
    let num_dims = attr.as_affine_map().map_or(0, |m| m.num_dims as usize);
    print_dim_and_symbol_list(pr, ir.operands(op), num_dims)
}

fn verify_apply(ir: &Ir, op: OpId, registry: &DialectRegistry) -> DiagResult<()> {
    let map = map_attr(ir, op, "map")?;
    expect_index_operands(ir, op, ir.operands(op), 0)?;
    expect_index_result(ir, op)?;
    if ir.operands(op).len() != map.num_inputs() {
        return Err(op_error(ir, op, "operand count and affine map dimension and symbol count must match"));
    }
    if map.results.len() != 1 {
        return Err(op_error(ir, op, "mapping must produce one value"));
    }
    // A value that can only be a dimension (e.g. an induction variable) must not be bound to
    // a symbol; MLIR reports this without the op prefix.
    let mut rules = AffineValueRules::new(ir, registry);
    for &v in &ir.operands(op)[map.num_dims as usize..] {
        if rules.is_valid_dim(v) && !rules.is_valid_symbol(v) {
            return Err(Diagnostic::error(ir.location(op).clone(), "dimensional operand cannot be used as a symbol"));
        }
    }
    Ok(())
}

/// Folds to the operand when the map selects one, or to a constant when every operand the
/// map uses is constant.
fn fold_apply(ir: &Ir, op: OpId, constants: &[Option<Attribute>]) -> Option<FoldResult> {
    let map = ir.attr(op, "map")?.as_affine_map()?;
    let [expr] = map.results.as_slice() else { return None };
    let operand = match expr {
        AffineExpr::Dim(d) => Some(*d as usize),
        AffineExpr::Symbol(s) => Some(map.num_dims as usize + *s as usize),
        _ => None,
    };
    if let Some(i) = operand {
        return ir.operands(op).get(i).map(|&v| FoldResult::Values(vec![v]));
    }
    let [value] = fold_map_to_constants(map, constants)?[..] else { return None };
    Some(FoldResult::Constants(vec![Attribute::index(value)]))
}

// ----- affine.min / affine.max ------------------------------------------------------------

/// `affine.min #map(%d)[%s]`.
fn parse_min_max(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let map = parse_affine_map(p)?;
    let (operands, _) = parse_dim_and_symbol_list(p)?;
    p.parse_optional_attr_dict()?;
    p.add_operands_of_type(&operands, &Type::Index)?;
    p.state().add_property("map", Attribute::AffineMap(map));
    p.add_result_types([Type::Index]);
    Ok(())
}

fn print_min_max(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    print_map_call(pr, op)?;
    pr.print_optional_attr_dict(op, &["map"])
}

fn verify_min_max(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    let map = map_attr(ir, op, "map")?;
    expect_index_operands(ir, op, ir.operands(op), 0)?;
    expect_index_result(ir, op)?;
    if map.results.is_empty() {
        return Err(op_error(ir, op, "affine map expect at least one result"));
    }
    if ir.operands(op).len() != map.num_inputs() {
        return Err(op_error(ir, op, "operand count and affine map dimension and symbol count must match"));
    }
    Ok(())
}

/// Folds a single-result map selecting an operand to that operand, and a map whose results
/// are all constant (given the constant operands) to their minimum or maximum.
fn fold_min_max(ir: &Ir, op: OpId, constants: &[Option<Attribute>]) -> Option<FoldResult> {
    let map = ir.attr(op, "map")?.as_affine_map()?;
    if let [expr] = map.results.as_slice() {
        let operand = match expr {
            AffineExpr::Dim(d) => Some(*d as usize),
            AffineExpr::Symbol(s) => Some(map.num_dims as usize + *s as usize),
            _ => None,
        };
        if let Some(&v) = operand.and_then(|i| ir.operands(op).get(i)) {
            return Some(FoldResult::Values(vec![v]));
        }
    }
    let values = fold_map_to_constants(map, constants)?;
    let folded = if ir.op_name(op) == "affine.min" { values.into_iter().min() } else { values.into_iter().max() }?;
    Some(FoldResult::Constants(vec![Attribute::index(folded)]))
}

// ----- affine.load / affine.store ---------------------------------------------------------

/// `[%i + 1, symbol(%n)]`: subscripts as an affine map over SSA values. Returns the map and
/// its operands (dims, then symbols).
fn parse_subscripts(p: &mut CustomOpParser<'_, '_>) -> ParseResult<(AffineMap, Vec<UnresolvedOperand>)> {
    p.expect(TokenKind::LSquare, "'[' to begin the subscripts")?;
    let (map, operands) = p.parse_affine_exprs_of_ssa_ids(TokenKind::RSquare)?;
    p.expect(TokenKind::RSquare, "',' or ']' after the subscripts")?;
    let mut all = operands.dims;
    all.extend(operands.symbols);
    Ok((map, all))
}

/// `: memref<…>`.
fn parse_colon_memref_type(p: &mut CustomOpParser<'_, '_>) -> ParseResult<Type> {
    p.expect(TokenKind::Colon, "':' and the memref type")?;
    let loc = p.location();
    let ty = p.parse_type()?;
    if ty.as_memref().is_none() {
        return Err(Diagnostic::error(
            loc,
            format!("invalid kind of type specified: expected builtin.memref, but found '{ty}'"),
        ));
    }
    Ok(ty)
}

/// `affine.load %A[%i + 1, symbol(%n)] : memref<…>`.
fn parse_load(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let memref = p.parse_operand()?;
    let (map, indices) = parse_subscripts(p)?;
    p.parse_optional_attr_dict()?;
    let ty = parse_colon_memref_type(p)?;
    let element = ty.as_memref().map(|m| m.element.clone()).unwrap_or(Type::None);
    p.add_operands(&[memref], std::slice::from_ref(&ty))?;
    p.add_operands_of_type(&indices, &Type::Index)?;
    p.state().add_property("map", Attribute::AffineMap(Arc::new(map)));
    p.add_result_types([element]);
    Ok(())
}

/// ` %A[%i + 1, symbol(%n)]` for the memref operand at `memref_index`, followed by its map
/// operands.
fn print_access(pr: &mut OpPrinter<'_>, op: OpId, memref_index: usize) -> fmt::Result {
    let ir = pr.ir();
    let operands = ir.operands(op);
    if let Some(&memref) = operands.get(memref_index) {
        pr.print_value(memref)?;
    }
    pr.write_char('[')?;
    if let Some(map) = ir.attr(op, "map").and_then(Attribute::as_affine_map) {
        pr.print_affine_map_of_ssa_ids(map, operands.get(memref_index + 1..).unwrap_or(&[]))?;
    }
    pr.write_char(']')?;
    pr.print_optional_attr_dict(op, &["map"])?;
    pr.write_str(" : ")?;
    match operands.get(memref_index) {
        Some(&memref) => pr.print_type(ir.value_type(memref)),
        None => Ok(()),
    }
}

fn print_load(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    pr.write_char(' ')?;
    print_access(pr, op, 0)
}

/// Checks the memref operand at `memref_index` and the subscripts that follow it; returns
/// the memref's element type.
fn verify_access(ir: &Ir, op: OpId, memref_index: usize, registry: &DialectRegistry) -> DiagResult<Type> {
    let operands = ir.operands(op);
    let Some(&memref) = operands.get(memref_index) else {
        return Err(op_error(
            ir,
            op,
            format!("expected {} or more operands, but found {}", memref_index + 1, operands.len()),
        ));
    };
    let Some(memref_type) = ir.value_type(memref).as_memref() else {
        return Err(op_error(
            ir,
            op,
            format!("operand #{memref_index} must be memref of any type values, but got '{}'", ir.value_type(memref)),
        ));
    };
    let indices = &operands[memref_index + 1..];
    expect_index_operands(ir, op, indices, memref_index + 1)?;
    let map = map_attr(ir, op, "map")?;
    if Some(map.results.len()) != memref_type.rank() {
        return Err(op_error(ir, op, "affine map num results must equal memref rank"));
    }
    if map.num_inputs() != indices.len() {
        return Err(op_error(ir, op, "expects as many subscripts as affine map inputs"));
    }
    AffineValueRules::new(ir, registry).verify_dims_and_symbols(op, indices, map.num_dims as usize)?;
    Ok(memref_type.element.clone())
}

fn verify_load(ir: &Ir, op: OpId, registry: &DialectRegistry) -> DiagResult<()> {
    expect_result_count(ir, op, 1)?;
    let element = verify_access(ir, op, 0, registry)?;
    if *ir.value_type(ir.result(op, 0)) != element {
        return Err(op_error(ir, op, "result type must match element type of memref"));
    }
    Ok(())
}

/// `affine.store %v, %A[%i, symbol(%n)] : memref<…>`.
fn parse_store(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let value = p.parse_operand()?;
    p.expect(TokenKind::Comma, "',' after the value to store")?;
    let memref = p.parse_operand()?;
    let (map, indices) = parse_subscripts(p)?;
    p.parse_optional_attr_dict()?;
    let ty = parse_colon_memref_type(p)?;
    let element = ty.as_memref().map(|m| m.element.clone()).unwrap_or(Type::None);
    p.add_operands(&[value, memref], &[element, ty])?;
    p.add_operands_of_type(&indices, &Type::Index)?;
    p.state().add_property("map", Attribute::AffineMap(Arc::new(map)));
    Ok(())
}

fn print_store(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    if let Some(&value) = ir.operands(op).first() {
        pr.print_value(value)?;
    }
    pr.write_str(", ")?;
    print_access(pr, op, 1)
}

fn verify_store(ir: &Ir, op: OpId, registry: &DialectRegistry) -> DiagResult<()> {
    expect_result_count(ir, op, 0)?;
    let element = verify_access(ir, op, 1, registry)?;
    if ir.operands(op).first().map(|&v| ir.value_type(v)) != Some(&element) {
        return Err(op_error(ir, op, "value to store must have the same type as memref element type"));
    }
    Ok(())
}

// ----- affine.yield -----------------------------------------------------------------------

fn verify_yield(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    let Some(parent) =
        ir.parent_op(op).filter(|&p| matches!(ir.op_name(p), "affine.for" | "affine.if" | "affine.parallel"))
    else {
        return Err(op_error(ir, op, "only terminates affine.if/for/parallel regions"));
    };
    let results = types_of(ir, ir.results(parent));
    let operands = types_of(ir, ir.operands(op));
    if results.len() != operands.len() {
        return Err(op_error(ir, op, "parent of yield must have same number of results as the yield operands"));
    }
    if results != operands {
        return Err(op_error(ir, op, "types mismatch between yield op and its parent"));
    }
    Ok(())
}

// ----- affine.if --------------------------------------------------------------------------

/// `affine.if #set(%d)[%s] -> (types) { … } else { … }`.
fn parse_if(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let loc = p.location();
    let set = match p.parse_attribute()? {
        Attribute::IntegerSet(s) => s,
        _ => return Err(Diagnostic::error(loc, "invalid kind of attribute specified (expected an integer set)")),
    };
    let (operands, num_dims) = parse_dim_and_symbol_list(p)?;
    if set.num_dims as usize != num_dims {
        return Err(p.op_error("dim operand count and integer set dim count must match"));
    }
    if (set.num_dims + set.num_symbols) as usize != operands.len() {
        return Err(p.op_error("symbol operand count and integer set symbol count must match"));
    }
    p.add_operands_of_type(&operands, &Type::Index)?;
    p.state().add_property("condition", Attribute::IntegerSet(set));
    let results = p.parse_optional_arrow_type_list()?;
    p.add_result_types(results);
    let then_region = p.parse_region(&[])?;
    p.ensure_terminator(then_region, "affine.yield");
    if p.consume_keyword("else") {
        let else_region = p.parse_region(&[])?;
        p.ensure_terminator(else_region, "affine.yield");
    } else {
        p.add_empty_region();
    }
    p.parse_optional_attr_dict()
}

fn print_if(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    let condition = ir.attr(op, "condition").cloned().unwrap_or(Attribute::Unit);
    pr.print_attribute(&condition)?;
    let num_dims = condition.as_integer_set().map_or(0, |s| s.num_dims as usize);
    print_dim_and_symbol_list(pr, ir.operands(op), num_dims)?;
    print_optional_arrow_types(pr, &types_of(ir, ir.results(op)))?;
    let has_results = !ir.results(op).is_empty();
    if let Some(&then_region) = ir.regions(op).first() {
        pr.write_char(' ')?;
        pr.print_region(then_region, false, has_results)?;
    }
    if let Some(&else_region) = ir.regions(op).get(1).filter(|&&r| !ir.blocks(r).is_empty()) {
        pr.write_str(" else ")?;
        pr.print_region(else_region, false, has_results)?;
    }
    pr.print_optional_attr_dict(op, &["condition"])
}

/// ` -> t` or ` -> (t1, t2)`, nothing for no types (MLIR's `printOptionalArrowTypeList`).
fn print_optional_arrow_types(pr: &mut OpPrinter<'_>, types: &[Type]) -> fmt::Result {
    if types.is_empty() {
        return Ok(());
    }
    pr.write_str(" -> ")?;
    pr.print_result_types(types)
}

fn verify_if(ir: &Ir, op: OpId, registry: &DialectRegistry) -> DiagResult<()> {
    let Some(set) = ir.attr(op, "condition").and_then(Attribute::as_integer_set) else {
        return Err(op_error(ir, op, "requires attribute 'condition' (an integer set)"));
    };
    if ir.regions(op).len() != 2 {
        return Err(op_error(ir, op, "expected 2 regions"));
    }
    if ir.operands(op).len() != (set.num_dims + set.num_symbols) as usize {
        return Err(op_error(ir, op, "operand count and condition integer set dimension and symbol count must match"));
    }
    expect_index_operands(ir, op, ir.operands(op), 0)?;
    if ir.blocks(ir.region(op, 0)).len() != 1 {
        return Err(op_error(ir, op, "region #0 ('thenRegion') failed to verify constraint: region with 1 blocks"));
    }
    for r in 0..2 {
        if let Some(entry) = ir.entry_block(ir.region(op, r)) {
            if !ir.block_args(entry).is_empty() {
                return Err(op_error(ir, op, format!("region #{r} should have no arguments")));
            }
        }
    }
    if !ir.results(op).is_empty() && ir.blocks(ir.region(op, 1)).is_empty() {
        return Err(op_error(
            ir,
            op,
            format!(
                "must have an else region that yields values, since it returns results ({})",
                list_types(&types_of(ir, ir.results(op)))
            ),
        ));
    }
    AffineValueRules::new(ir, registry).verify_dims_and_symbols(op, ir.operands(op), set.num_dims as usize)
}

#[cfg(test)]
mod tests;
