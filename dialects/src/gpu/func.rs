//! `gpu.func`: kernels and device functions with workgroup and private memory attributions.

use std::fmt::{self, Write};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{Argument, CustomOpParser, ParseResult};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::DialectRegistry;
use stencil_ir::{Attribute, DiagResult, Diagnostic, Ir, NamedAttribute, OpId, Type, ValueId};

use super::{AddressSpace, KERNEL_ATTR, WORKGROUP_ATTRIBUTIONS_ATTR};
use crate::support::{expect_operand_count, expect_region_count, expect_result_count, op_error};

/// `gpu.func @name(%a: t {attrs}, …) (-> results)? (workgroup(%w : t, …))?
/// (private(%p : t, …))? kernel? (attributes {…})? { … }`
pub(super) fn parse_func(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let name = p.parse_symbol_name()?;
    p.state().add_attribute("sym_name", Attribute::string(&name));

    let signature = p.location();
    p.expect(TokenKind::LParen, "'(' to begin the argument list")?;
    let mut args: Vec<Argument> = vec![];
    if !p.consume_if(TokenKind::RParen) {
        loop {
            if !p.at(TokenKind::PercentIdent) {
                return Err(Diagnostic::error(signature, "gpu.func requires named arguments (%arg0: type)"));
            }
            args.push(p.parse_argument(true)?);
            if !p.consume_if(TokenKind::Comma) {
                break;
            }
        }
        p.expect(TokenKind::RParen, "',' or ')' in the argument list")?;
    }
    let inputs: Vec<Type> = args.iter().map(|a| a.ty.clone()).collect();
    let (results, res_attrs) = crate::func::parse_function_results(p)?;
    p.state().add_property("function_type", Attribute::ty(Type::function(inputs, results)));
    if let Some(attrs) = attr_dicts(args.iter().map(|a| a.attrs.clone()).collect()) {
        p.state().add_property("arg_attrs", attrs);
    }
    if let Some(attrs) = attr_dicts(res_attrs) {
        p.state().add_property("res_attrs", attrs);
    }

    let num_inputs = args.len();
    if let Some(attrs) = parse_attributions(p, "workgroup", &mut args)? {
        p.state().add_property("workgroup_attrib_attrs", attrs);
    }
    p.state().add_attribute(WORKGROUP_ATTRIBUTIONS_ATTR, Attribute::i64((args.len() - num_inputs) as i64));
    if let Some(attrs) = parse_attributions(p, "private", &mut args)? {
        p.state().add_property("private_attrib_attrs", attrs);
    }
    if p.consume_keyword("kernel") {
        p.state().add_attribute(KERNEL_ATTR, Attribute::Unit);
    }
    p.parse_optional_attr_dict_with_keyword()?;
    p.parse_region(&args)?;
    Ok(())
}

/// `keyword(%a : t {attrs}, …)` if present: appends the arguments to `args` and returns their
/// attribute dictionaries when any is non-empty (as MLIR stores them only then).
fn parse_attributions(
    p: &mut CustomOpParser<'_, '_>,
    keyword: &str,
    args: &mut Vec<Argument>,
) -> ParseResult<Option<Attribute>> {
    if !p.consume_keyword(keyword) {
        return Ok(None);
    }
    let parsed = p.parse_argument_list(true)?;
    let attrs = attr_dicts(parsed.iter().map(|a| a.attrs.clone()).collect());
    args.extend(parsed);
    Ok(attrs)
}

/// An array of dictionaries, or `None` when every dictionary is empty.
fn attr_dicts(dicts: Vec<Vec<NamedAttribute>>) -> Option<Attribute> {
    dicts
        .iter()
        .any(|d| !d.is_empty())
        .then(|| Attribute::Array(dicts.into_iter().map(Attribute::Dictionary).collect()))
}

/// Entry `index` of an optional array-of-dictionaries attribute (empty when absent).
fn dict_at(attr: Option<&Attribute>, index: usize) -> &[NamedAttribute] {
    match attr {
        Some(Attribute::Array(items)) => match items.get(index) {
            Some(Attribute::Dictionary(d)) => d,
            _ => &[],
        },
        _ => &[],
    }
}

/// Whether `op` carries the `gpu.kernel` unit attribute.
pub fn is_kernel(ir: &Ir, op: OpId) -> bool {
    ir.attr(op, KERNEL_ATTR) == Some(&Attribute::Unit)
}

/// The number of workgroup attributions of a `gpu.func` (0 when the attribute is absent or
/// not a non-negative integer; the verifier rejects the latter).
pub fn num_workgroup_attributions(ir: &Ir, func: OpId) -> usize {
    ir.attr(func, WORKGROUP_ATTRIBUTIONS_ATTR)
        .and_then(Attribute::as_i64)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0)
}

/// CUDA's limit on static shared memory per block: a kernel whose workgroup buffers need more
/// must take them from dynamic shared memory (and the launch must ask for it).
pub const MAX_STATIC_SHARED_MEMORY: u64 = 48 * 1024;

/// Alignment of each workgroup buffer inside a kernel's dynamic shared memory (enough for any
/// element type we use and for vector accesses).
pub const WORKGROUP_BUFFER_ALIGNMENT: u64 = 16;

/// Where a kernel's workgroup attributions lie in one block of shared memory: per attribution,
/// its byte offset (aligned to [`WORKGROUP_BUFFER_ALIGNMENT`]), and the total size. `None`
/// when an attribution is not a statically shaped memref of sized elements.
pub fn workgroup_layout(ir: &Ir, func: OpId) -> Option<(Vec<u64>, u64)> {
    let n = num_workgroup_attributions(ir, func);
    let inputs = ir
        .attr(func, "function_type")
        .and_then(Attribute::as_type)
        .and_then(Type::as_function)
        .map_or(0, |f| f.inputs.len());
    let entry = ir.regions(func).first().and_then(|&r| ir.entry_block(r))?;
    let args = ir.block_args(entry);
    let mut offsets = Vec::with_capacity(n);
    let mut total = 0u64;
    for &arg in args.get(inputs..inputs + n)? {
        let memref = ir.value_type(arg).as_memref()?;
        let elements = memref.shape.as_ref()?.iter().try_fold(1u64, |acc, d| match d {
            stencil_ir::types::Dim::Static(e) => acc.checked_mul(u64::try_from(*e).ok()?),
            stencil_ir::types::Dim::Dynamic => None,
        })?;
        let bytes = elements.checked_mul(u64::from(memref.element.bit_width()?.div_ceil(8)))?;
        total = total.div_ceil(WORKGROUP_BUFFER_ALIGNMENT).checked_mul(WORKGROUP_BUFFER_ALIGNMENT)?;
        offsets.push(total);
        total = total.checked_add(bytes)?;
    }
    Some((offsets, total))
}

pub(super) fn print_func(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    pr.print_symbol_name(ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or(""))?;
    let fn_type = ir
        .attr(op, "function_type")
        .and_then(Attribute::as_type)
        .and_then(Type::as_function)
        .cloned()
        .unwrap_or_default();
    let body = ir.regions(op).first().copied();
    let entry_args: &[ValueId] = body.and_then(|r| ir.entry_block(r)).map_or(&[], |b| ir.block_args(b));

    // Inputs, printed as named arguments when the body has them.
    pr.write_char('(')?;
    for (i, ty) in fn_type.inputs.iter().enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        let attrs = dict_at(ir.attr(op, "arg_attrs"), i);
        match entry_args.get(i) {
            Some(&arg) => pr.print_argument(arg, attrs)?,
            None => {
                pr.print_type(ty)?;
                print_attr_dict_after(pr, attrs)?;
            }
        }
    }
    pr.write_char(')')?;
    print_function_results(pr, &fn_type.results, ir.attr(op, "res_attrs"))?;

    // Attributions follow the inputs in the entry block: workgroup first, then private.
    let num_inputs = fn_type.inputs.len().min(entry_args.len());
    let workgroup_end = num_inputs.saturating_add(num_workgroup_attributions(ir, op)).min(entry_args.len());
    print_attributions(pr, "workgroup", &entry_args[num_inputs..workgroup_end], ir.attr(op, "workgroup_attrib_attrs"))?;
    print_attributions(pr, "private", &entry_args[workgroup_end..], ir.attr(op, "private_attrib_attrs"))?;
    let kernel = is_kernel(ir, op);
    if kernel {
        pr.write_str(" kernel")?;
    }
    let mut elided = vec![
        "sym_name",
        "function_type",
        "arg_attrs",
        "res_attrs",
        "workgroup_attrib_attrs",
        "private_attrib_attrs",
        WORKGROUP_ATTRIBUTIONS_ATTR,
    ];
    if kernel {
        elided.push(KERNEL_ATTR);
    }
    pr.print_optional_attr_dict_with_keyword(op, &elided)?;
    match body {
        Some(region) => {
            pr.write_char(' ')?;
            pr.print_region(region, false, true)
        }
        None => Ok(()),
    }
}

fn print_attr_dict_after(pr: &mut OpPrinter<'_>, attrs: &[NamedAttribute]) -> fmt::Result {
    if attrs.is_empty() {
        return Ok(());
    }
    pr.write_char(' ')?;
    pr.print_dictionary(attrs)
}

/// ` -> t` or ` -> (t {attrs}, …)`, nothing without results.
pub(super) fn print_function_results(
    pr: &mut OpPrinter<'_>,
    results: &[Type],
    res_attrs: Option<&Attribute>,
) -> fmt::Result {
    if results.is_empty() {
        return Ok(());
    }
    pr.write_str(" -> ")?;
    let any_attrs = (0..results.len()).any(|i| !dict_at(res_attrs, i).is_empty());
    if let [single] = results {
        if !any_attrs && !matches!(single, Type::Function(_)) {
            return pr.print_type(single);
        }
    }
    pr.write_char('(')?;
    for (i, ty) in results.iter().enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        pr.print_type(ty)?;
        print_attr_dict_after(pr, dict_at(res_attrs, i))?;
    }
    pr.write_char(')')
}

/// ` keyword(%a : t {attrs}, …)`, nothing when there are no attributions. MLIR writes a space
/// before the colon here, unlike in the argument list.
fn print_attributions(
    pr: &mut OpPrinter<'_>,
    keyword: &str,
    values: &[ValueId],
    attrs: Option<&Attribute>,
) -> fmt::Result {
    if values.is_empty() {
        return Ok(());
    }
    write!(pr, " {keyword}(")?;
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        pr.print_value(v)?;
        pr.write_str(" : ")?;
        pr.print_type(pr.ir().value_type(v))?;
        print_attr_dict_after(pr, dict_at(attrs, i))?;
    }
    pr.write_char(')')
}

pub(super) fn verify_func(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    if ir.parent_op(op).map(|p| ir.op_name(p)) != Some("gpu.module") {
        return Err(op_error(ir, op, "expects parent op 'gpu.module'"));
    }
    expect_operand_count(ir, op, 0)?;
    expect_result_count(ir, op, 0)?;
    expect_region_count(ir, op, 1)?;
    if ir.attr(op, "sym_name").and_then(Attribute::as_str).is_none() {
        return Err(op_error(ir, op, "requires string attribute 'sym_name'"));
    }
    let Some(fn_attr) = ir.attr(op, "function_type") else {
        return Err(op_error(ir, op, "requires attribute 'function_type'"));
    };
    let Some(fn_type) = fn_attr.as_type().and_then(Type::as_function) else {
        return Err(op_error(
            ir,
            op,
            "attribute 'function_type' failed to satisfy constraint: type attribute of function type",
        ));
    };
    verify_arg_and_result_attrs(ir, op, fn_type.inputs.len(), fn_type.results.len())?;
    for name in ["known_block_size", "known_grid_size"] {
        if ir.attr(op, name).is_some_and(|a| !is_dense_i32_triple(a)) {
            return Err(op_error(ir, op, format!("attribute '{name}' failed to satisfy constraint: i32 dense array attribute with 3 elements (if present)")));
        }
        let discardable = format!("gpu.{name}");
        if ir.attr(op, &discardable).is_some_and(|a| !is_dense_i32_triple(a)) {
            return Err(op_error(ir, op, format!("{discardable} must contain exactly 3 elements")));
        }
    }
    if is_kernel(ir, op) && !fn_type.results.is_empty() {
        return Err(op_error(ir, op, "expected void return type for kernel function"));
    }

    let Some(entry) = ir.entry_block(ir.region(op, 0)) else {
        return Err(op_error(ir, op, "expected body with at least one block"));
    };
    let num_workgroup = match ir.attr(op, WORKGROUP_ATTRIBUTIONS_ATTR) {
        None => 0,
        Some(a) => {
            match a.as_i64().filter(|_| matches!(a, Attribute::Integer { .. })).and_then(|n| usize::try_from(n).ok()) {
                Some(n) => n,
                None => {
                    return Err(op_error(
                        ir,
                        op,
                        format!("expects '{WORKGROUP_ATTRIBUTIONS_ATTR}' to be a non-negative integer"),
                    ))
                }
            }
        }
    };
    let block_args = ir.block_args(entry);
    let needed = fn_type.inputs.len().saturating_add(num_workgroup);
    if block_args.len() < needed {
        return Err(op_error(ir, op, format!("expected at least {needed} arguments to body region")));
    }
    for (i, (&arg, expected)) in block_args.iter().zip(&fn_type.inputs).enumerate() {
        let got = ir.value_type(arg);
        if got != expected {
            return Err(op_error(
                ir,
                op,
                format!("expected body region argument #{i} to be of type '{expected}', got '{got}'"),
            ));
        }
    }
    let (workgroup, private) = block_args[fn_type.inputs.len()..].split_at(num_workgroup);
    verify_attributions(ir, op, workgroup, AddressSpace::Workgroup)?;
    verify_attributions(ir, op, private, AddressSpace::Private)
}

fn is_dense_i32_triple(a: &Attribute) -> bool {
    matches!(a, Attribute::DenseArray { element: Type::Integer(32), values } if values.len() == 3)
}

/// `arg_attrs`/`res_attrs` have one dictionary per input/result, and only dialect attributes
/// (`gpu.foo`, `llvm.noalias`); attribution attributes are arrays of dictionaries.
fn verify_arg_and_result_attrs(ir: &Ir, op: OpId, num_inputs: usize, num_results: usize) -> DiagResult<()> {
    for (name, count, what, plural) in
        [("arg_attrs", num_inputs, "argument", "arguments"), ("res_attrs", num_results, "result", "results")]
    {
        let Some(attr) = ir.attr(op, name) else { continue };
        let Some(dicts) = dictionaries(attr) else {
            return Err(op_error(
                ir,
                op,
                format!("attribute '{name}' failed to satisfy constraint: Array of dictionary attributes"),
            ));
        };
        if dicts.len() != count {
            return Err(op_error(
                ir,
                op,
                format!("expects {what} attribute array to have the same number of elements as the number of function {plural}, got {}, but expected {count}", dicts.len()),
            ));
        }
        if dicts.iter().flat_map(|d| d.iter()).any(|e| !e.name.contains('.')) {
            return Err(op_error(ir, op, format!("{plural} may only have dialect attributes")));
        }
    }
    for name in ["workgroup_attrib_attrs", "private_attrib_attrs"] {
        if ir.attr(op, name).is_some_and(|a| dictionaries(a).is_none()) {
            return Err(op_error(
                ir,
                op,
                format!("attribute '{name}' failed to satisfy constraint: Array of dictionary attributes"),
            ));
        }
    }
    Ok(())
}

fn dictionaries(attr: &Attribute) -> Option<Vec<&[NamedAttribute]>> {
    let Attribute::Array(items) = attr else { return None };
    items
        .iter()
        .map(|i| match i {
            Attribute::Dictionary(d) => Some(d.as_slice()),
            _ => None,
        })
        .collect()
}

/// Attributions are memrefs; a `#gpu.address_space` memory space must match their kind
/// (numeric spaces, already lowered for a target, are accepted as MLIR does).
fn verify_attributions(ir: &Ir, op: OpId, values: &[ValueId], space: AddressSpace) -> DiagResult<()> {
    for &v in values {
        let Some(memref) = ir.value_type(v).as_memref() else {
            return Err(op_error(ir, op, "expected memref type in attribution"));
        };
        let Some(actual) = memref.memory_space.as_ref().and_then(AddressSpace::from_attr) else { continue };
        if actual != space {
            return Err(op_error(ir, op, format!("expected memory space {} in attribution", space.keyword())));
        }
    }
    Ok(())
}
