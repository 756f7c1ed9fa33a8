//! `stencil.call`: runs a `stencil.program` on memrefs from ordinary code.
//!
//! ```mlir
//! stencil.call @jacobi_stencil(%A, %B, %w, %T, %N) : (memref<?x?xf64>, memref<?x?xf64>, f64, index, index) -> ()
//! ```
//!
//! The operands are the program's arguments as its lowered form takes them (the lowered-program
//! convention of `docs/runtime.md`): each field as a memref, each scalar as itself, then each
//! parameter as an `index`, in declaration order. That is exactly the signature of the
//! `func.func` the program becomes when `poly-codegen` or `gpu-map` lowers it, so lowering the
//! program turns the call into a `func.call` with the same operands and nothing else changes
//! (`raise-affine-to-stencil` creates these calls; `docs/dialects/stencil.md` has the
//! semantics).

use super::field::FieldType;
use super::ops::ProgramParams;
use crate::support::{op_error, types_of};
use std::fmt::{self, Write};
use stencil_ir::parser::{CustomOpParser, ParseResult};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::DialectRegistry;
use stencil_ir::symbols::resolve_symbol_ref;
use stencil_ir::types::Dim;
use stencil_ir::{Attribute, DiagResult, Ir, OpId, Type};

/// `stencil.call @P(%a, …) : (types) -> ()`: `func.call`'s syntax without results.
pub(super) fn parse_call(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let (f, loc) = crate::func::parse_call_head(p, "':' and the operand types, as a function type '(…) -> ()'")?;
    if !f.results.is_empty() {
        return Err(stencil_ir::Diagnostic::error(loc, "stencil.call has no results: fields are updated in place"));
    }
    Ok(())
}

pub(super) fn print_call(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    crate::func::print_call_head(pr, op)?;
    pr.write_str("()")
}

/// The memref a field is passed as must have the field's rank and element type, the default
/// memory space and identity layout; a static size must hold a constant extent (a dynamic one
/// is the caller's promise, as for any memref access).
fn check_field_operand(ir: &Ir, op: OpId, i: usize, operand: &Type, field: &FieldType) -> DiagResult<()> {
    let mismatch = |why: String| {
        op_error(
            ir,
            op,
            format!("operand #{i} ('{operand}') cannot hold field !stencil.field<{}>: {why}", field.body()),
        )
    };
    let Some(m) = operand.as_memref() else { return Err(mismatch("fields are passed as memrefs".into())) };
    let Some(shape) = &m.shape else { return Err(mismatch("the memref is unranked".into())) };
    if shape.len() != field.rank() {
        return Err(mismatch(format!("rank {} instead of {}", shape.len(), field.rank())));
    }
    if m.element != field.element_type() {
        return Err(mismatch(format!("element type '{}' instead of '{}'", m.element, field.element_type())));
    }
    if m.layout.is_some() || m.memory_space.is_some() {
        return Err(mismatch("only memrefs with the identity layout in the default memory space".into()));
    }
    for (d, (size, extent)) in shape.iter().zip(&field.shape).enumerate() {
        if let (Dim::Static(size), true) = (size, extent.terms.is_empty()) {
            if *size < extent.constant {
                return Err(mismatch(format!(
                    "dimension {d} has {size} elements but the field's extent is {}",
                    extent.constant
                )));
            }
        }
    }
    Ok(())
}

pub(super) fn verify_call(ir: &Ir, op: OpId, registry: &DialectRegistry) -> DiagResult<()> {
    if !ir.results(op).is_empty() {
        return Err(op_error(ir, op, "has no results: fields are updated in place"));
    }
    let Some(callee) = ir.attr(op, "callee").filter(|a| a.as_flat_symbol().is_some()) else {
        return Err(op_error(ir, op, "requires a 'callee' flat symbol reference attribute"));
    };
    let name = callee.as_flat_symbol().unwrap_or_default();
    let target = resolve_symbol_ref(ir, registry, op, callee);
    let operand_types = types_of(ir, ir.operands(op));
    match target.map(|t| (t, ir.op_name(t))) {
        Some((program, "stencil.program")) => {
            let Some(f) = ir.attr(program, "function_type").and_then(Attribute::as_type).and_then(Type::as_function)
            else {
                return Err(op_error(ir, op, format!("'@{name}' has no function type")));
            };
            let params = ProgramParams::of(ir, program);
            let expected = f.inputs.len() + params.names.len();
            if operand_types.len() != expected {
                return Err(op_error(
                    ir,
                    op,
                    format!(
                        "takes {} operands but '@{name}' needs {expected}: its {} arguments (fields as memrefs, scalars) then its {} parameters as index",
                        operand_types.len(),
                        f.inputs.len(),
                        params.names.len()
                    ),
                ));
            }
            for (i, (operand, arg)) in operand_types.iter().zip(&f.inputs).enumerate() {
                match FieldType::from_type(arg) {
                    Some(field) => check_field_operand(ir, op, i, operand, &field)?,
                    None if operand == arg => {}
                    None => {
                        return Err(op_error(
                            ir,
                            op,
                            format!("operand #{i} has type '{operand}' but the program's scalar argument is '{arg}'"),
                        ))
                    }
                }
            }
            for (k, operand) in operand_types[f.inputs.len()..].iter().enumerate() {
                if !operand.is_index() {
                    return Err(op_error(
                        ir,
                        op,
                        format!(
                            "operand #{} gives parameter '{}' and must be an index, not '{operand}'",
                            f.inputs.len() + k,
                            params.names[k]
                        ),
                    ));
                }
            }
            Ok(())
        }
        Some((func, "func.func")) => {
            // The lowered program: the operands must be its arguments exactly.
            let Some(f) = ir.attr(func, "function_type").and_then(Attribute::as_type).and_then(Type::as_function)
            else {
                return Err(op_error(ir, op, format!("'@{name}' has no function type")));
            };
            if !f.results.is_empty() || f.inputs != operand_types {
                return Err(op_error(
                    ir,
                    op,
                    format!("operand types do not match the signature of the lowered program '@{name}'"),
                ));
            }
            Ok(())
        }
        _ => Err(op_error(
            ir,
            op,
            format!("'@{name}' does not reference a stencil.program (or the func.func it was lowered to)"),
        )),
    }
}
