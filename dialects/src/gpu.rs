//! The `gpu` dialect: kernel containers (`gpu.module`), kernels and device functions
//! (`gpu.func`, `gpu.return`), the host-side launch (`gpu.launch_func`), work-item ids and
//! sizes (`gpu.thread_id`, `gpu.block_id`, `gpu.block_dim`, `gpu.grid_dim`) and
//! `gpu.barrier`, with MLIR 22's custom syntax and properties.
//!
//! The dialect's attributes (`#gpu<dim x>`, `#gpu.address_space<workgroup>`,
//! `#gpu.select_object<…>`) and its `!gpu.async.token` type are kept as opaque dialect
//! attributes/types whose bodies are checked at parse time. The `nvvm` dialect is registered
//! here too, for its `#nvvm.target<…>` attribute only: lowering attaches it to `gpu.module`
//! (`gpu.module @kernels [#nvvm.target<chip = "sm_90">]`) so that mlir-opt can compile the
//! kernels for a device; stencil-opt has no `nvvm` op.
//!
//! The attributes live in `gpu/attributes.rs`, `gpu.func` in `gpu/func.rs`, `gpu.launch_func` in
//! `gpu/launch.rs`, the kernels' PTX parameter ABI in `gpu/param_abi.rs`; this file registers
//! everything and holds the small ops.

mod attributes;
mod func;
mod launch;
mod param_abi;
#[cfg(test)]
mod tests;

pub use attributes::{async_token_type, nvvm_target, AddressSpace, Dimension};
pub use func::{
    is_kernel, num_workgroup_attributions, workgroup_layout, MAX_STATIC_SHARED_MEMORY, WORKGROUP_BUFFER_ALIGNMENT,
};
pub use launch::{launch_func_state, LaunchFuncOperands};
pub use param_abi::{param_roles, ParamRole};

use std::fmt::{self, Write};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{CustomOpParser, ParseResult};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::{DialectDef, DialectRegistry, NameHintFn, OpDef, OpTraits};
use stencil_ir::{Attribute, DiagResult, Diagnostic, Ir, OpId, Type};

use crate::support::{expect_operand_count, expect_region_count, expect_result_count, op_error, types_of};
use attributes::{check_gpu_attr, check_gpu_type, check_nvvm_attr};

/// Unit attribute marking a `gpu.func` (or `func.func`) as a kernel launchable from the host.
pub const KERNEL_ATTR: &str = "gpu.kernel";
/// Unit attribute a `builtin.module` needs before it may hold `gpu.launch_func` ops.
pub const CONTAINER_MODULE_ATTR: &str = "gpu.container_module";
/// Discardable attribute of `gpu.func`: how many entry block arguments after the function's
/// inputs are workgroup attributions (the rest are private attributions).
pub const WORKGROUP_ATTRIBUTIONS_ATTR: &str = "workgroup_attributions";

/// Registers the `gpu` dialect, its ops, and the `nvvm` dialect's target attribute.
pub fn register(r: &mut DialectRegistry) {
    r.register_dialect(DialectDef {
        check_type: Some(check_gpu_type),
        check_attr: Some(check_gpu_attr),
        ..DialectDef::new("gpu")
    });
    r.register_dialect(DialectDef { check_attr: Some(check_nvvm_attr), ..DialectDef::new("nvvm") });
    r.register_op(OpDef {
        traits: OpTraits {
            isolated_from_above: true,
            symbol_table: true,
            symbol: true,
            no_terminator: true,
            single_block: true,
            ..OpTraits::default()
        },
        inherent_attrs: &["sym_name", "targets", "offloadingHandler"],
        parse: Some(parse_module),
        print: Some(print_module),
        verify: Some(verify_module),
        ..OpDef::new("gpu.module", "A symbol table of kernels and device functions compiled for the GPU")
    });
    r.register_op(OpDef {
        // Our IR has no branches, so a body has one block (MLIR allows a CFG here).
        traits: OpTraits { isolated_from_above: true, symbol: true, single_block: true, ..OpTraits::default() },
        // `sym_name`, `workgroup_attributions` and `gpu.kernel` are discardable in MLIR 22.
        inherent_attrs: &[
            "function_type",
            "arg_attrs",
            "res_attrs",
            "workgroup_attrib_attrs",
            "private_attrib_attrs",
            "known_block_size",
            "known_grid_size",
        ],
        parse: Some(func::parse_func),
        print: Some(func::print_func),
        verify: Some(func::verify_func),
        ..OpDef::new("gpu.func", "A kernel or device function with workgroup and private memory attributions")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, terminator: true, ..OpTraits::default() },
        parse: Some(crate::func::parse_return_like),
        print: Some(crate::func::print_return_like),
        verify: Some(verify_return),
        ..OpDef::new("gpu.return", "Returns values from a gpu.func")
    });
    r.register_op(OpDef {
        // Not pure: it orders memory accesses of the work items of a workgroup.
        parse: Some(parse_barrier),
        print: Some(print_barrier),
        verify: Some(verify_barrier),
        ..OpDef::new("gpu.barrier", "Synchronizes all work items of a workgroup")
    });
    for (name, summary, hint) in INDEX_OPS {
        r.register_op(OpDef {
            traits: OpTraits { pure: true, ..OpTraits::default() },
            inherent_attrs: &["dimension", "upper_bound"],
            parse: Some(parse_index_op),
            print: Some(print_index_op),
            verify: Some(verify_index_op),
            name_hint: Some(*hint),
            ..OpDef::new(name, summary)
        });
    }
    r.register_op(OpDef {
        inherent_attrs: &["kernel", "operandSegmentSizes"],
        parse: Some(launch::parse_launch_func),
        print: Some(launch::print_launch_func),
        verify: Some(launch::verify_launch_func),
        ..OpDef::new("gpu.launch_func", "Launches a gpu.func kernel on a grid of thread blocks")
    });
}

// ----- gpu.module -------------------------------------------------------------------------

/// `gpu.module @name (<#handler>)? ([#target, …])? (attributes {…})? { … }`
fn parse_module(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let name = p.parse_symbol_name()?;
    p.state().add_property("sym_name", Attribute::string(&name));
    if p.consume_if(TokenKind::Less) {
        let handler = p.parse_attribute()?;
        p.state().add_property("offloadingHandler", handler);
        p.expect(TokenKind::Greater, "'>' after the offloading handler")?;
    }
    if p.at(TokenKind::LSquare) {
        let targets = p.parse_attribute()?;
        p.state().add_property("targets", targets);
    }
    p.parse_optional_attr_dict_with_keyword()?;
    let region = p.parse_region(&[])?;
    p.ensure_block(region);
    Ok(())
}

fn print_module(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_char(' ')?;
    pr.print_symbol_name(ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or(""))?;
    if let Some(handler) = ir.attr(op, "offloadingHandler") {
        pr.write_char('<')?;
        pr.print_attribute(handler)?;
        pr.write_char('>')?;
    }
    if let Some(targets) = ir.attr(op, "targets") {
        pr.write_char(' ')?;
        pr.print_attribute(targets)?;
    }
    pr.print_optional_attr_dict_with_keyword(op, &["sym_name", "targets", "offloadingHandler"])?;
    pr.write_char(' ')?;
    match ir.regions(op).first() {
        Some(&region) => pr.print_region(region, false, false),
        None => pr.write_str("{\n}"),
    }
}

fn verify_module(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 0)?;
    expect_result_count(ir, op, 0)?;
    expect_region_count(ir, op, 1)?;
    if ir.attr(op, "sym_name").and_then(Attribute::as_str).is_none() {
        return Err(op_error(ir, op, "requires attribute 'sym_name'"));
    }
    if let Some(targets) = ir.attr(op, "targets") {
        let is_target = |t: &Attribute| t.as_dialect().is_some_and(|d| &*d.name == "target");
        if !matches!(targets, Attribute::Array(items) if !items.is_empty() && items.iter().all(is_target)) {
            return Err(op_error(ir, op, "attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements"));
        }
    }
    if let Some(handler) = ir.attr(op, "offloadingHandler") {
        if handler.as_dialect().is_none() {
            return Err(op_error(ir, op, "attribute 'offloadingHandler' failed to satisfy constraint: an offloading handler attribute (e.g. #gpu.select_object<0>)"));
        }
    }
    let has_args = ir.regions(op).iter().flat_map(|&r| ir.entry_block(r)).any(|b| !ir.block_args(b).is_empty());
    if has_args {
        return Err(op_error(ir, op, "region should have no arguments"));
    }
    Ok(())
}

// ----- gpu.return -------------------------------------------------------------------------

fn verify_return(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    let Some(func) = ir.parent_op(op).filter(|&f| ir.op_name(f) == "gpu.func") else {
        return Err(op_error(ir, op, "expects parent op 'gpu.func'"));
    };
    expect_result_count(ir, op, 0)?;
    // A malformed signature is reported by the gpu.func verifier, which runs after this one.
    let Some(fn_type) = ir.attr(func, "function_type").and_then(Attribute::as_type).and_then(Type::as_function) else {
        return Ok(());
    };
    let types = types_of(ir, ir.operands(op));
    if types.len() != fn_type.results.len() {
        return Err(op_error(ir, op, format!("expected {} result operands", fn_type.results.len()))
            .with_note(ir.location(func).clone(), "return type declared here"));
    }
    for (i, (got, expected)) in types.iter().zip(&fn_type.results).enumerate() {
        if got != expected {
            return Err(op_error(ir, op, format!("unexpected type `'{got}'' for operand #{i}")));
        }
    }
    Ok(())
}

// ----- gpu.barrier ------------------------------------------------------------------------

/// `gpu.barrier {attrs}?`
fn parse_barrier(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    p.parse_optional_attr_dict()
}

fn print_barrier(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    pr.print_optional_attr_dict(op, &[])
}

fn verify_barrier(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 0)?;
    expect_result_count(ir, op, 0)?;
    expect_region_count(ir, op, 0)
}

// ----- gpu.thread_id, gpu.block_id, gpu.block_dim, gpu.grid_dim -----------------------------

/// The work-item index ops: name, summary, and the result name hint (`%thread_id_x`).
const INDEX_OPS: &[(&str, &str, NameHintFn)] = &[
    ("gpu.thread_id", "The index of the work item in its block along a dimension", |ir, op| {
        index_op_hint(ir, op, "thread_id")
    }),
    ("gpu.block_id", "The index of the block in the grid along a dimension", |ir, op| {
        index_op_hint(ir, op, "block_id")
    }),
    ("gpu.block_dim", "The number of work items per block along a dimension", |ir, op| {
        index_op_hint(ir, op, "block_dim")
    }),
    ("gpu.grid_dim", "The number of blocks in the grid along a dimension", |ir, op| index_op_hint(ir, op, "grid_dim")),
];

fn index_op_hint(ir: &Ir, op: OpId, base: &str) -> Option<String> {
    let dim = ir.attr(op, "dimension").and_then(Dimension::from_attr)?;
    Some(format!("{base}_{}", dim.keyword()))
}

/// `gpu.thread_id x (upper_bound N)? {attrs}?`
fn parse_index_op(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let loc = p.location();
    let kw = p.parse_keyword()?;
    let Some(dim) = Dimension::from_keyword(&kw) else {
        return Err(Diagnostic::error(loc, format!("expected gpu dimension to be one of: x, y, z, found '{kw}'")));
    };
    p.state().add_property("dimension", dim.attr());
    if p.consume_keyword("upper_bound") {
        let bound = p.parse_integer()?;
        p.state().add_property("upper_bound", Attribute::index(bound));
    }
    p.parse_optional_attr_dict()?;
    p.add_result_types([Type::Index]);
    Ok(())
}

/// MLIR prints two spaces before the dimension (one from the op, one from the enum printer).
fn print_index_op(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    pr.write_str("  ")?;
    match ir.attr(op, "dimension") {
        Some(a) => match Dimension::from_attr(a) {
            Some(dim) => pr.write_str(dim.keyword())?,
            None => pr.print_attribute(a)?,
        },
        None => pr.write_str("<<missing dimension>>")?,
    }
    if let Some(bound) = ir.attr(op, "upper_bound") {
        pr.write_str(" upper_bound ")?;
        write!(pr, "{}", bound.display_without_integer_type())?;
    }
    pr.print_optional_attr_dict(op, &["dimension", "upper_bound"])
}

fn verify_index_op(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 0)?;
    expect_result_count(ir, op, 1)?;
    expect_region_count(ir, op, 0)?;
    let Some(dim) = ir.attr(op, "dimension") else {
        return Err(op_error(ir, op, "requires attribute 'dimension'"));
    };
    if Dimension::from_attr(dim).is_none() {
        return Err(op_error(
            ir,
            op,
            "attribute 'dimension' failed to satisfy constraint: a dimension, either 'x', 'y', or 'z'",
        ));
    }
    if ir.attr(op, "upper_bound").is_some_and(|b| !matches!(b, Attribute::Integer { ty: Type::Index, .. })) {
        return Err(op_error(ir, op, "attribute 'upper_bound' failed to satisfy constraint: index attribute"));
    }
    let ty = ir.value_type(ir.result(op, 0));
    if *ty != Type::Index {
        return Err(op_error(ir, op, format!("result #0 must be index, but got '{ty}'")));
    }
    Ok(())
}
