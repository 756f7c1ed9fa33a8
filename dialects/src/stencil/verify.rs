//! Verifiers of the stencil ops, including the exact in-bounds check of every access.
//!
//! Bounds, extents and access indices are affine in the parameters, and parameters are
//! independent with only a lower bound (their declared minimum). An access executes only for
//! parameter values where its apply's box and every enclosing `stencil.iterate` are non-empty;
//! [`ParamBox`] turns those conditions into an interval per parameter and finds, exactly, a
//! parameter value in that box for which an index leaves the field (see `admissible.rs`).

use super::admissible::{BoxOverflow, ParamBox, WideLinear};
use super::field::FieldType;
use super::linear::{try_linearize, Linear, LinearizeError};
use super::ops::{enclosing_program, ProgramParams};
use crate::support::{expect_operand_count, expect_result_count, op_error};
use stencil_ir::affine::AffineMap;
use stencil_ir::ir::ValueDef;
use stencil_ir::registry::DialectRegistry;
use stencil_ir::{Attribute, DiagResult, Ir, OpId, Type, ValueId};

fn is_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Ops allowed directly in a program or iterate body.
fn check_sweep_body(ir: &Ir, op: OpId) -> DiagResult<()> {
    for &r in ir.regions(op) {
        for &b in ir.blocks(r) {
            for inner in ir.block_op_iter(b) {
                if !matches!(ir.op_name(inner), "stencil.iterate" | "stencil.apply") {
                    return Err(op_error(
                        ir,
                        inner,
                        format!("is not allowed directly inside '{}': only stencil.iterate and stencil.apply may appear there (compute values inside a stencil.apply body)", ir.op_name(op)),
                    ));
                }
            }
        }
    }
    Ok(())
}

// ----- stencil.program ----------------------------------------------------------------------

pub(super) fn verify_program(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 0)?;
    expect_result_count(ir, op, 0)?;
    if ir.attr(op, "sym_name").and_then(Attribute::as_str).is_none() {
        return Err(op_error(ir, op, "requires a 'sym_name' string attribute"));
    }
    let Some(fn_type) = ir.attr(op, "function_type").and_then(Attribute::as_type).and_then(Type::as_function) else {
        return Err(op_error(ir, op, "requires a 'function_type' attribute of function type"));
    };
    if !fn_type.results.is_empty() {
        return Err(op_error(ir, op, "must not return values: results are the fields, updated in place"));
    }
    let params = check_params(ir, op)?;
    let Some(&region) = ir.regions(op).first() else {
        return Err(op_error(ir, op, "requires one region"));
    };
    let Some(entry) = ir.entry_block(region) else {
        return Err(op_error(ir, op, "requires a body block"));
    };
    let args = ir.block_args(entry);
    if args.len() != fn_type.inputs.len() || args.iter().zip(&fn_type.inputs).any(|(&a, t)| ir.value_type(a) != t) {
        return Err(op_error(ir, op, "entry block arguments must match the function_type inputs"));
    }
    let arg_names = super::ops::program_arg_names(ir, op);
    if arg_names.len() != args.len() || arg_names.iter().any(|n| !n.as_deref().is_some_and(is_identifier)) {
        return Err(op_error(
            ir,
            op,
            "requires 'arg_names', one identifier string per argument (the names users pass to stencil-run)",
        ));
    }
    for (i, n) in arg_names.iter().enumerate() {
        let n = n.as_deref().unwrap_or_default();
        if arg_names[..i].iter().any(|m| m.as_deref() == Some(n)) || params.index_of(n).is_some() {
            return Err(op_error(
                ir,
                op,
                format!("argument name '{n}' is already used by another argument or a parameter: arguments and parameters need distinct names"),
            ));
        }
    }
    for (i, &arg) in args.iter().enumerate() {
        let ty = ir.value_type(arg);
        if let Some(field) = FieldType::from_type(ty) {
            check_field_extents(ir, op, i, &field, &params)?;
            for u in ir.uses(arg) {
                let ok = matches!(ir.op_name(u.op), "stencil.apply" | "stencil.access") && u.operand == 0;
                if !ok {
                    return Err(op_error(ir, u.op, format!("uses field argument #{i} directly: fields are read with stencil.access and written with stencil.apply")));
                }
            }
        } else if !(ty.is_float() || ty.is_integer_like()) {
            return Err(op_error(ir, op, format!("argument #{i} has type '{ty}': program arguments are !stencil.field<…> or scalars (f32, f64, iN, index)")));
        }
    }
    check_statement_names(ir, op)?;
    check_sweep_body(ir, op)
}

/// The applies of one program have distinct names: they are its statements, which
/// dependences, schedules and reports name (`S0.write0 -> S0.read1`).
fn check_statement_names(ir: &Ir, program: OpId) -> DiagResult<()> {
    let mut seen: Vec<(&str, OpId)> = vec![];
    for apply in ir.collect_ops(program, stencil_ir::ir::WalkOrder::PreOrder) {
        if ir.op_name(apply) != "stencil.apply" {
            continue;
        }
        let Some(name) = ir.attr(apply, "name").and_then(Attribute::as_str) else { continue };
        if let Some(&(_, first)) = seen.iter().find(|(n, _)| *n == name) {
            return Err(op_error(
                ir,
                apply,
                format!("reuses the statement name @{name}: the applies of one program need distinct names (rename this apply)"),
            )
            .with_note(ir.location(first).clone(), "the first apply named so"));
        }
        seen.push((name, apply));
    }
    Ok(())
}

fn check_params(ir: &Ir, op: OpId) -> DiagResult<ProgramParams> {
    let names_ok = match ir.attr(op, "param_names") {
        Some(Attribute::Array(items)) => items.iter().all(|a| a.as_str().is_some_and(is_identifier)),
        _ => false,
    };
    if !names_ok {
        return Err(op_error(ir, op, "requires 'param_names', an array of identifier strings"));
    }
    let params = ProgramParams::of(ir, op);
    for (i, n) in params.names.iter().enumerate() {
        if params.names[..i].contains(n) {
            return Err(op_error(ir, op, format!("declares parameter '{n}' twice")));
        }
    }
    if params.mins.len() != params.names.len() {
        return Err(op_error(ir, op, "requires 'param_mins' with one minimum per parameter"));
    }
    let arg_names = super::ops::program_arg_names(ir, op);
    if let Some(Attribute::Dictionary(d)) = ir.attr(op, "defaults") {
        for entry in d {
            if let Some(i) = params.index_of(&entry.name) {
                match entry.value.as_i64() {
                    Some(v) if v >= params.mins[i] => {}
                    Some(v) => {
                        return Err(op_error(
                            ir,
                            op,
                            format!("default {} = {v} is below the declared minimum {}", entry.name, params.mins[i]),
                        ));
                    }
                    None => {
                        return Err(op_error(
                            ir,
                            op,
                            format!("default of parameter '{}' must be an integer", entry.name),
                        ))
                    }
                }
            } else if let Some(i) = arg_names.iter().position(|n| n.as_deref() == Some(&*entry.name)) {
                let ty = ir
                    .attr(op, "function_type")
                    .and_then(Attribute::as_type)
                    .and_then(Type::as_function)
                    .and_then(|f| f.inputs.get(i).cloned());
                if let Some(ty) = ty.filter(|t| !super::ops::is_scalar_default_of(&entry.value, t)) {
                    let why = if FieldType::from_type(&ty).is_some() {
                        "fields are initialised by stencil-run --init, not by defaults".to_string()
                    } else {
                        format!("the argument has type '{ty}'")
                    };
                    return Err(op_error(
                        ir,
                        op,
                        format!("default '{}' of argument '{}' is invalid: {why}", entry.value, entry.name),
                    ));
                }
            } else {
                return Err(op_error(
                    ir,
                    op,
                    format!("has a default for '{}', which is neither a parameter nor an argument", entry.name),
                ));
            }
        }
    } else if ir.attr(op, "defaults").is_some() {
        return Err(op_error(ir, op, "'defaults' must be a dictionary"));
    }
    Ok(params)
}

/// A field extent as a linear form over the parameters.
fn extent_linear(field: &FieldType, dim: usize, params: &ProgramParams) -> Result<Linear, String> {
    let e = &field.shape[dim];
    let mut l = Linear::zero(0, params.names.len());
    l.constant = e.constant;
    for (name, &c) in &e.terms {
        let Some(i) = params.names.iter().position(|n| n == name) else {
            return Err(format!(
                "field extent '{e}' uses '{name}', which is not a parameter of the program (declared: {})",
                params.names.join(", ")
            ));
        };
        l.symbols[i] = c;
    }
    Ok(l)
}

fn check_field_extents(ir: &Ir, op: OpId, index: usize, field: &FieldType, params: &ProgramParams) -> DiagResult<()> {
    let arg = match super::ops::program_arg_names(ir, op).get(index).cloned().flatten() {
        Some(name) => format!("field %{name} (argument #{index})"),
        None => format!("argument #{index}"),
    };
    let declared = ParamBox::from_minimums(&params.mins);
    let mut elements: Option<i64> = Some(1);
    for d in 0..field.rank() {
        let extent = extent_linear(field, d, params).map_err(|m| op_error(ir, op, format!("{arg}: {m}")))?;
        let one = WideLinear { symbols: vec![0; params.names.len()], constant: 1 };
        let at_least_one = WideLinear::of(&extent).add_scaled(&one, -1).ok_or(BoxOverflow);
        let w = at_least_one
            .and_then(|f| Ok((declared.counterexample(&f)?, f)))
            .map_err(|e| op_error(ir, op, format!("{arg}: extent '{}' of dimension {d}: {e}", field.shape[d])))?;
        if let (Some(w), at_least_one) = w {
            let fix = match at_least_one.symbols.iter().position(|&c| c < 0) {
                Some(i) => {
                    format!("extents must not shrink as a parameter grows ('{}' has no upper bound)", params.names[i])
                }
                None => minimum_that_fixes(&extent, &params.mins)
                    .map(|(i, need)| format!("declare '{} >= {need}' in the parameter list", params.names[i]))
                    .unwrap_or_else(|| "declare larger parameter minimums".to_string()),
            };
            return Err(op_error(
                ir,
                op,
                format!(
                    "{arg}: extent '{}' of dimension {d} is not positive for {}: {fix}",
                    field.shape[d],
                    describe(&params.names, &w.values)
                ),
            ));
        }
        // Extents never shrink as parameters grow (checked above), so the declared minimums
        // give the smallest field: an extent that is no i64 there is none anywhere.
        let Some(smallest) = extent.eval(&[], &params.mins) else {
            return Err(op_error(
                ir,
                op,
                format!(
                    "{arg}: extent '{}' of dimension {d} overflows i64 already for {}, the smallest parameter values: extents must be 64-bit integers",
                    field.shape[d],
                    describe(&params.names, &params.mins)
                ),
            ));
        };
        elements = elements.and_then(|n| n.checked_mul(smallest));
    }
    if elements.is_none() {
        return Err(op_error(
            ir,
            op,
            format!(
                "{arg}: the field has more than {} elements already for {}, the smallest parameter values: its size must be a 64-bit integer",
                i64::MAX,
                describe(&params.names, &params.mins)
            ),
        ));
    }
    Ok(())
}

/// The least minimum of one parameter (the first with a positive coefficient, the others at
/// their minimums) that makes `extent ≥ 1`.
fn minimum_that_fixes(extent: &Linear, mins: &[i64]) -> Option<(usize, i64)> {
    let i = extent.symbols.iter().position(|&c| c > 0)?;
    let mut at = mins.to_vec();
    at[i] = 0;
    // extent(at) + c·p ≥ 1 ⇔ p ≥ ⌈(1 - extent(at)) / c⌉, exact in 128 bits.
    let rest = WideLinear::of(extent).eval(&at)?;
    let c = i128::from(extent.symbols[i]);
    let need = (1 - rest).div_euclid(c) + i128::from((1 - rest).rem_euclid(c) != 0);
    Some((i, i64::try_from(need).ok()?))
}

fn describe(names: &[String], values: &[i64]) -> String {
    if names.is_empty() {
        return "every parameter value".to_string();
    }
    names.iter().zip(values).map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ")
}

// ----- bounds maps ---------------------------------------------------------------------------

/// Reads a bound map property: no dims, one symbol per parameter, `results` results, each
/// linear in the parameters.
fn bound_forms(
    ir: &Ir,
    op: OpId,
    attr: &str,
    params: &ProgramParams,
    results: Option<usize>,
) -> DiagResult<Vec<Linear>> {
    let Some(map) = ir.attr(op, attr).and_then(Attribute::as_affine_map) else {
        return Err(op_error(ir, op, format!("requires '{attr}', an affine map over the program parameters")));
    };
    if map.num_dims != 0 || map.num_symbols as usize != params.names.len() {
        return Err(op_error(
            ir,
            op,
            format!(
                "'{attr}' must be a map ()[{}] over the {} program parameters, found '{map}'",
                params.names.join(", "),
                params.names.len()
            ),
        ));
    }
    if let Some(n) = results {
        if map.results.len() != n {
            return Err(op_error(ir, op, format!("'{attr}' has {} results, expected {n}", map.results.len())));
        }
    }
    let mut forms = vec![];
    for e in &map.results {
        let form = try_linearize(e, 0, params.names.len()).map_err(|why| {
            let e = super::ops::param_expr_string(e, &params.names);
            match why {
                LinearizeError::NotLinear => op_error(ir, op, format!("bound '{e}' in '{attr}' is not affine in the parameters: write it as a sum of integer multiples of parameters and a constant (no floordiv, ceildiv, mod or products of parameters)")),
                LinearizeError::Overflow => op_error(ir, op, format!("bound '{e}' in '{attr}' overflows: its coefficients and constant must be 64-bit integers")),
            }
        })?;
        // Bounds are evaluated as i64 when the program runs; one that is no i64 even for the
        // smallest parameter values (the declared minimums) describes no loop.
        if form.eval(&[], &params.mins).is_none() {
            let e = super::ops::param_expr_string(e, &params.names);
            return Err(op_error(
                ir,
                op,
                format!(
                    "bound '{e}' in '{attr}' overflows i64 for {}, the smallest parameter values: bounds must be 64-bit integers",
                    describe(&params.names, &params.mins)
                ),
            ));
        }
        forms.push(form);
    }
    Ok(forms)
}

fn parent_is_sweep_container(ir: &Ir, op: OpId) -> DiagResult<()> {
    match ir.parent_op(op).map(|p| ir.op_name(p)) {
        Some("stencil.program" | "stencil.iterate") => Ok(()),
        _ => Err(op_error(ir, op, "expects parent op 'stencil.program' or 'stencil.iterate'")),
    }
}

fn program_params(ir: &Ir, op: OpId) -> DiagResult<ProgramParams> {
    ProgramParams::enclosing(ir, op).ok_or_else(|| op_error(ir, op, "must be nested in a 'stencil.program'"))
}

// ----- stencil.iterate ----------------------------------------------------------------------

pub(super) fn verify_iterate(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 0)?;
    expect_result_count(ir, op, 0)?;
    parent_is_sweep_container(ir, op)?;
    let params = program_params(ir, op)?;
    bound_forms(ir, op, "lower_bound", &params, Some(1))?;
    bound_forms(ir, op, "upper_bound", &params, Some(1))?;
    let entry = ir.regions(op).first().and_then(|&r| ir.entry_block(r));
    let ok = entry.is_some_and(|b| ir.block_args(b).len() == 1 && ir.value_type(ir.block_args(b)[0]).is_index());
    if !ok {
        return Err(op_error(ir, op, "requires a body with one 'index' argument (the induction variable)"));
    }
    check_sweep_body(ir, op)
}

// ----- stencil.apply ------------------------------------------------------------------------

/// The field written by an apply or read by an access (operand 0), checked to be a field
/// argument of the enclosing program.
fn field_operand(ir: &Ir, op: OpId) -> DiagResult<(ValueId, FieldType)> {
    let Some(&field) = ir.operands(op).first() else {
        return Err(op_error(ir, op, "requires a field operand"));
    };
    let Some(ft) = FieldType::from_type(ir.value_type(field)) else {
        return Err(op_error(ir, op, format!("operand #0 must be a !stencil.field, found '{}'", ir.value_type(field))));
    };
    let program = enclosing_program(ir, op);
    let arg_index = match (ir.value_def(field), program) {
        (ValueDef::BlockArgument { block, index }, Some(_)) if ir.block_parent_op(block) == program => Some(index),
        _ => None,
    };
    let (Some(program), Some(index)) = (program, arg_index) else {
        return Err(op_error(
            ir,
            op,
            "uses a field that is not an argument of the enclosing stencil.program; fields must be program arguments",
        ));
    };
    // Nested ops are verified before the program: report a malformed parameter list or a
    // field that can be empty first, since every access check builds on them.
    let params = check_params(ir, program)?;
    check_field_extents(ir, program, index as usize, &ft, &params)?;
    Ok((field, ft))
}

/// Per-dimension domain bounds `[lb, ub)` of an apply, as linear forms in the parameters.
fn apply_domain(ir: &Ir, apply: OpId, params: &ProgramParams, rank: usize) -> DiagResult<(Vec<Linear>, Vec<Linear>)> {
    for attr in ["lower_bounds", "upper_bounds"] {
        let dims = ir.attr(apply, attr).and_then(Attribute::as_affine_map).map(|m| m.results.len());
        if let Some(n) = dims.filter(|&n| n != rank) {
            return Err(op_error(
                ir,
                apply,
                format!("has a {n}-dimensional domain ('{attr}') but writes a rank-{rank} field: give one bound per field dimension"),
            ));
        }
    }
    Ok((
        bound_forms(ir, apply, "lower_bounds", params, Some(rank))?,
        bound_forms(ir, apply, "upper_bounds", params, Some(rank))?,
    ))
}

pub(super) fn verify_apply(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 1)?;
    expect_result_count(ir, op, 0)?;
    parent_is_sweep_container(ir, op)?;
    if !ir.attr(op, "name").and_then(Attribute::as_str).is_some_and(is_identifier) {
        return Err(op_error(ir, op, "requires a statement name (@S), an identifier"));
    }
    if let Some(order) = ir.attr(op, "order") {
        if !matches!(order.as_str(), Some("forward" | "reverse")) {
            return Err(op_error(ir, op, "'order' must be \"forward\" or \"reverse\""));
        }
    }
    let params = program_params(ir, op)?;
    check_writes_in_bounds(ir, op, &params)?;
    let body = ir.regions(op).first().and_then(|&r| ir.entry_block(r));
    let Some(body) = body else {
        return Err(op_error(ir, op, "requires a body block ending with stencil.yield"));
    };
    if !ir.block_args(body).is_empty() {
        return Err(op_error(ir, op, "body must not have arguments: use stencil.index for coordinates"));
    }
    for inner in ir.block_op_iter(body) {
        if matches!(ir.op_name(inner), "stencil.apply" | "stencil.iterate" | "stencil.program") {
            return Err(op_error(ir, inner, "cannot be nested in a stencil.apply body"));
        }
        if !ir.regions(inner).is_empty() {
            return Err(op_error(
                ir,
                inner,
                "ops with regions are not allowed in a stencil.apply body: it computes one value per point",
            ));
        }
    }
    Ok(())
}

// ----- stencil.access -----------------------------------------------------------------------

fn parent_apply(ir: &Ir, op: OpId) -> DiagResult<OpId> {
    ir.parent_op(op)
        .filter(|&p| ir.op_name(p) == "stencil.apply")
        .ok_or_else(|| op_error(ir, op, "expects parent op 'stencil.apply'"))
}

/// The range `[lo, hi]` (inclusive) of an index value used by a general access, as linear
/// forms in the parameters: an enclosing iterate's induction variable or a coordinate.
fn index_range(
    ir: &Ir,
    access: OpId,
    v: ValueId,
    params: &ProgramParams,
    domain: &(Vec<Linear>, Vec<Linear>),
) -> DiagResult<(WideLinear, WideLinear)> {
    let minus_one = |l: &Linear| {
        WideLinear::of(l).add_scaled(&WideLinear { symbols: vec![0; params.names.len()], constant: 1 }, -1)
    };
    match ir.value_def(v) {
        ValueDef::BlockArgument { block, .. } => {
            if let Some(it) = ir.block_parent_op(block).filter(|&o| ir.op_name(o) == "stencil.iterate") {
                let lo = bound_forms(ir, it, "lower_bound", params, Some(1))?.remove(0);
                let hi = bound_forms(ir, it, "upper_bound", params, Some(1))?.remove(0);
                if let Some(hi) = minus_one(&hi) {
                    return Ok((WideLinear::of(&lo), hi));
                }
            }
        }
        ValueDef::Result { op: def, .. } if ir.op_name(def) == "stencil.index" => {
            let dim = ir.attr(def, "dim").and_then(Attribute::as_i64).and_then(|d| usize::try_from(d).ok());
            if let Some(d) = dim.filter(|&d| d < domain.0.len()) {
                if let Some(hi) = minus_one(&domain.1[d]) {
                    return Ok((WideLinear::of(&domain.0[d]), hi));
                }
            }
        }
        _ => {}
    }
    Err(op_error(
        ir,
        access,
        "affine index operands must be stencil.iterate induction variables or stencil.index coordinates",
    ))
}

pub(super) fn verify_access(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_result_count(ir, op, 1)?;
    let apply = parent_apply(ir, op)?;
    let params = program_params(ir, op)?;
    let (_, field) = field_operand(ir, op)?;
    let result_ty = ir.value_type(ir.result(op, 0));
    if *result_ty != field.element_type() {
        return Err(op_error(
            ir,
            op,
            format!("result type '{result_ty}' differs from the field's element type '{}'", field.element_type()),
        ));
    }
    let Some(&written) = ir.operands(apply).first() else { return Ok(()) };
    let Some(written_field) = FieldType::from_type(ir.value_type(written)) else { return Ok(()) };
    // Nested ops are verified before their apply: report a domain that leaves the written field
    // first, since it is the likely cause of reads outside the field too.
    check_writes_in_bounds(ir, apply, &params)?;
    let domain = apply_domain(ir, apply, &params, written_field.rank())?;
    if written_field.rank() != field.rank() && ir.attr(op, "map").is_none() {
        return Err(op_error(
            ir,
            op,
            format!("offset access to a rank-{} field inside an apply over a rank-{} domain: use the affine form '%F at [...]'", field.rank(), written_field.rank()),
        ));
    }
    // Index range of each field dimension, as linear forms of the parameters (in 128 bits: a
    // bound plus an offset may leave i64, and is then certainly outside the field).
    let ranges: Vec<(WideLinear, WideLinear, String)> = match (ir.attr(op, "offset"), ir.attr(op, "map")) {
        (Some(off), None) => {
            let Some(offsets) = off.as_dense_array() else {
                return Err(op_error(ir, op, "'offset' must be an array<i64: …>"));
            };
            if offsets.len() != field.rank() {
                return Err(op_error(
                    ir,
                    op,
                    format!("has {} offsets for a rank-{} field", offsets.len(), field.rank()),
                ));
            }
            let constant = |c: i64| WideLinear { symbols: vec![0; params.names.len()], constant: i128::from(c) };
            let mut out = vec![];
            for (d, &o) in offsets.iter().enumerate() {
                let lo = WideLinear::of(&domain.0[d]).add_scaled(&constant(o), 1);
                let hi = WideLinear::of(&domain.1[d])
                    .add_scaled(&constant(1), -1)
                    .and_then(|h| h.add_scaled(&constant(o), 1));
                match (lo, hi) {
                    (Some(lo), Some(hi)) => out.push((lo, hi, format!("offset {o}"))),
                    _ => return Err(op_error(ir, op, format!("offset {o}: {BoxOverflow}"))),
                }
            }
            out
        }
        (None, Some(map)) => {
            let Some(map) = map.as_affine_map() else {
                return Err(op_error(ir, op, "'map' must be an affine map"));
            };
            general_ranges(ir, op, map, &params, &domain, field.rank())?
        }
        _ => return Err(op_error(ir, op, "requires exactly one of 'offset' (array<i64>) or 'map' (affine map)")),
    };
    check_in_bounds(ir, op, apply, &field, &params, &domain, Touch::Read(&ranges))
}

/// Index ranges of a general access `map(operands)` with every operand ranging over its
/// interval: for a linear form the extremes are at interval ends chosen by coefficient sign.
fn general_ranges(
    ir: &Ir,
    op: OpId,
    map: &AffineMap,
    params: &ProgramParams,
    domain: &(Vec<Linear>, Vec<Linear>),
    rank: usize,
) -> DiagResult<Vec<(WideLinear, WideLinear, String)>> {
    let operands = ir.operands(op).get(1..).unwrap_or(&[]);
    if map.num_dims as usize != operands.len() || map.num_symbols != 0 {
        return Err(op_error(
            ir,
            op,
            format!(
                "'map' takes {} dims and no symbols but the access has {} index operands",
                map.num_dims,
                operands.len()
            ),
        ));
    }
    if map.results.len() != rank {
        return Err(op_error(ir, op, format!("'map' has {} results for a rank-{rank} field", map.results.len())));
    }
    let intervals: Vec<(WideLinear, WideLinear)> =
        operands.iter().map(|&v| index_range(ir, op, v, params, domain)).collect::<DiagResult<_>>()?;
    let mut out = vec![];
    for e in &map.results {
        let l = match try_linearize(e, operands.len(), 0) {
            Ok(l) => l,
            Err(LinearizeError::NotLinear) => {
                return Err(op_error(ir, op, format!("index '{e}' (dN is index operand N) is not affine: accesses take sums of integer multiples of index values and a constant (no floordiv, ceildiv, mod)")));
            }
            Err(LinearizeError::Overflow) => {
                return Err(op_error(ir, op, format!("index '{e}' (dN is index operand N) overflows: its coefficients and constant must be 64-bit integers")));
            }
        };
        let mut lo = WideLinear { symbols: vec![0; params.names.len()], constant: i128::from(l.constant) };
        let mut hi = lo.clone();
        for (c, (ilo, ihi)) in l.dims.iter().zip(&intervals) {
            let (for_lo, for_hi) = if *c >= 0 { (ilo, ihi) } else { (ihi, ilo) };
            match (lo.add_scaled(for_lo, i128::from(*c)), hi.add_scaled(for_hi, i128::from(*c))) {
                (Some(a), Some(b)) => {
                    lo = a;
                    hi = b;
                }
                _ => return Err(op_error(ir, op, format!("index '{e}' (dN is index operand N): {BoxOverflow}"))),
            }
        }
        out.push((lo, hi, format!("index '{e}' (dN is index operand N)")));
    }
    Ok(out)
}

/// The parameter values for which the body of `apply` runs: declared minimums, narrowed by
/// the non-emptiness of the apply's box and of every enclosing `stencil.iterate`.
fn executing_params(
    ir: &Ir,
    apply: OpId,
    params: &ProgramParams,
    domain: &(Vec<Linear>, Vec<Linear>),
) -> DiagResult<ParamBox> {
    let mut admissible = ParamBox::from_minimums(&params.mins);
    for (lb, ub) in domain.0.iter().zip(&domain.1) {
        admissible.require_nonempty(lb, ub);
    }
    let mut cur = ir.parent_op(apply);
    while let Some(op) = cur.filter(|&o| ir.op_name(o) == "stencil.iterate") {
        let lb = bound_forms(ir, op, "lower_bound", params, Some(1))?.remove(0);
        let ub = bound_forms(ir, op, "upper_bound", params, Some(1))?.remove(0);
        admissible.require_nonempty(&lb, &ub);
        cur = ir.parent_op(op);
    }
    Ok(admissible)
}

/// What [`check_in_bounds`] checks: an access's reads (described by their offsets or index
/// expressions) or an apply's writes at the points of its domain.
enum Touch<'a> {
    Read(&'a [(WideLinear, WideLinear, String)]),
    Write,
}

/// Checks that every index `op` touches in `field`, per dimension the range `[lo, hi]`, is
/// inside the field for every parameter value at which the enclosing apply's body runs.
fn check_in_bounds(
    ir: &Ir,
    op: OpId,
    apply: OpId,
    field: &FieldType,
    params: &ProgramParams,
    domain: &(Vec<Linear>, Vec<Linear>),
    touch: Touch<'_>,
) -> DiagResult<()> {
    let admissible = executing_params(ir, apply, params, domain)?;
    let one = WideLinear { symbols: vec![0; params.names.len()], constant: 1 };
    let ranges: Vec<(WideLinear, WideLinear, String)> = match touch {
        Touch::Read(ranges) => ranges.to_vec(),
        Touch::Write => domain
            .0
            .iter()
            .zip(&domain.1)
            .filter_map(|(lb, ub)| Some((WideLinear::of(lb), WideLinear::of(ub).add_scaled(&one, -1)?, String::new())))
            .collect(),
    };
    let (verb, may, fix) = match touch {
        Touch::Read(_) => ("reads", "may read", "shrink the apply's domain or enlarge the field"),
        Touch::Write => ("writes", "may write", "shrink the domain or enlarge the field"),
    };
    for (d, (lo, hi, what)) in ranges.iter().enumerate() {
        let extent = extent_linear(field, d, params).map_err(|m| op_error(ir, op, m))?;
        let overflow = |e: BoxOverflow| op_error(ir, op, format!("dimension {d}: {e}"));
        // lo >= 0 and extent - 1 - hi >= 0 for every parameter value at which the body runs.
        let below = admissible.counterexample(lo).map_err(overflow)?.map(|w| (w, "below 0"));
        let found = match below {
            Some(found) => Some(found),
            None => {
                let room = WideLinear::of(&extent).add_scaled(hi, -1).and_then(|r| r.add_scaled(&one, -1));
                let room = room.ok_or(BoxOverflow).map_err(overflow)?;
                admissible.counterexample(&room).map_err(overflow)?.map(|w| (w, "past the end"))
            }
        };
        let Some((w, side)) = found else { continue };
        let show = |f: &WideLinear| f.eval(&w.values).map_or("?".into(), |v| v.to_string());
        let (lo_v, hi_v, ext_v) = (show(lo), show(hi), show(&WideLinear::of(&extent)));
        let at = describe(&params.names, &w.values);
        let with = if what.is_empty() { String::new() } else { format!(" with {what}") };
        let message = if w.executes {
            format!(
                "{verb} outside the field ({side}) in dimension {d}{with}: for {at} the domain {verb} indices {lo_v}..={hi_v} of extent {ext_v}; {fix}"
            )
        } else {
            format!(
                "{may} outside the field ({side}) in dimension {d}{with}: for {at} the indices would be {lo_v}..={hi_v} of extent {ext_v}; the domain is empty for these values, but bounds that combine several parameters are not used to rule them out: declare parameter minimums that exclude them, or use bounds with one parameter each"
            )
        };
        return Err(op_error(ir, op, message));
    }
    Ok(())
}

/// An apply writes its field at every point of its domain: the domain must lie inside it.
fn check_writes_in_bounds(ir: &Ir, apply: OpId, params: &ProgramParams) -> DiagResult<()> {
    let (_, field) = field_operand(ir, apply)?;
    let domain = apply_domain(ir, apply, params, field.rank())?;
    check_in_bounds(ir, apply, apply, &field, params, &domain, Touch::Write)
}

// ----- stencil.index and stencil.yield ------------------------------------------------------

pub(super) fn verify_index(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 0)?;
    expect_result_count(ir, op, 1)?;
    let apply = parent_apply(ir, op)?;
    if !ir.value_type(ir.result(op, 0)).is_index() {
        return Err(op_error(ir, op, "result must be 'index'"));
    }
    let rank = ir.operands(apply).first().and_then(|&f| FieldType::from_type(ir.value_type(f))).map_or(0, |f| f.rank());
    match ir.attr(op, "dim").and_then(Attribute::as_i64) {
        Some(d) if d >= 0 && (d as usize) < rank => Ok(()),
        Some(d) => Err(op_error(ir, op, format!("dimension {d} is out of range for a rank-{rank} domain"))),
        None => Err(op_error(ir, op, "requires an integer 'dim' attribute")),
    }
}

pub(super) fn verify_yield(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    let apply = parent_apply(ir, op)?;
    expect_operand_count(ir, op, 1)?;
    let Some(field) = ir.operands(apply).first().and_then(|&f| FieldType::from_type(ir.value_type(f))) else {
        return Ok(());
    };
    let ty = ir.value_type(ir.operand(op, 0));
    if *ty != field.element_type() {
        return Err(op_error(ir, op, format!("yields '{ty}' but the written field holds '{}'", field.element_type())));
    }
    Ok(())
}
