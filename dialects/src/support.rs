//! Helpers shared by the dialect definitions: verifier checks and error construction.

use stencil_ir::{Attribute, DiagResult, Diagnostic, Ir, OpId, Type, ValueId};

/// An error located at `op`, prefixed with the op name as MLIR does (`'arith.addi' op …`).
pub fn op_error(ir: &Ir, op: OpId, msg: impl AsRef<str>) -> Diagnostic {
    Diagnostic::error(ir.location(op).clone(), format!("'{}' op {}", ir.op_name(op), msg.as_ref()))
}

/// Checks the number of operands.
pub fn expect_operand_count(ir: &Ir, op: OpId, n: usize) -> DiagResult<()> {
    let got = ir.operands(op).len();
    if got != n {
        return Err(op_error(ir, op, format!("expected {n} operands, but found {got}")));
    }
    Ok(())
}

/// Checks the number of results.
pub fn expect_result_count(ir: &Ir, op: OpId, n: usize) -> DiagResult<()> {
    let got = ir.results(op).len();
    if got != n {
        return Err(op_error(ir, op, format!("requires {n} result(s), but found {got}")));
    }
    Ok(())
}

/// Checks the number of regions.
pub fn expect_region_count(ir: &Ir, op: OpId, n: usize) -> DiagResult<()> {
    let got = ir.regions(op).len();
    if got != n {
        return Err(op_error(ir, op, format!("requires {n} region(s), but found {got}")));
    }
    Ok(())
}

/// Types of a list of values.
pub fn types_of(ir: &Ir, values: &[ValueId]) -> Vec<Type> {
    values.iter().map(|&v| ir.value_type(v).clone()).collect()
}

/// Formats a type list as `'t1', 't2'` for messages.
pub fn list_types(types: &[Type]) -> String {
    types.iter().map(|t| format!("'{t}'")).collect::<Vec<_>>().join(", ")
}

/// A required string attribute.
pub fn required_str<'a>(ir: &'a Ir, op: OpId, name: &str) -> DiagResult<&'a str> {
    ir.attr(op, name)
        .and_then(|a| a.as_str())
        .ok_or_else(|| op_error(ir, op, format!("requires string attribute '{name}'")))
}

/// A required type attribute holding a function type.
pub fn required_function_type<'a>(ir: &'a Ir, op: OpId, name: &str) -> DiagResult<&'a stencil_ir::types::FunctionType> {
    ir.attr(op, name)
        .and_then(|a| a.as_type())
        .and_then(|t| t.as_function())
        .ok_or_else(|| op_error(ir, op, format!("requires attribute '{name}' of function type")))
}

/// The op that owns the region containing `op`.
pub fn parent_op(ir: &Ir, op: OpId) -> Option<OpId> {
    ir.parent_op(op)
}

/// Gives a parsed op without `operandSegmentSizes` the all-empty one MLIR materializes for a
/// missing property (`array<i32: 0, 0, …>`, `groups` entries), so that the generic form prints
/// it as MLIR does; the verifier then reports operands that do not fit.
pub fn default_segments(state: &mut stencil_ir::OperationState, groups: usize) {
    if !state.properties.iter().any(|p| &*p.name == "operandSegmentSizes") {
        state.add_property("operandSegmentSizes", Attribute::dense_i32(&vec![0; groups]));
    }
}

/// The operand ranges of an op with variadic operand groups, read from its
/// `operandSegmentSizes` property (`array<i32: …>` with `groups` entries), checked as MLIR
/// checks it. A missing property means every group is empty, as in MLIR.
pub fn operand_segments(ir: &Ir, op: OpId, groups: usize) -> DiagResult<Vec<std::ops::Range<usize>>> {
    let sizes = match ir.attr(op, "operandSegmentSizes") {
        None => vec![0; groups],
        Some(Attribute::DenseArray { element: Type::Integer(32), values }) if values.len() == groups => values.clone(),
        Some(_) => {
            return Err(op_error(
                ir,
                op,
                format!("'operandSegmentSizes' attribute must be an array<i32> with {groups} elements"),
            ))
        }
    };
    if sizes.iter().any(|&s| s < 0) {
        return Err(op_error(ir, op, "'operandSegmentSizes' attribute cannot have negative elements"));
    }
    // Checked: the entries are only known to be non-negative `i64`s here.
    let total = sizes.iter().try_fold(0i64, |acc, &s| acc.checked_add(s)).unwrap_or(i64::MAX);
    let count = ir.operands(op).len();
    if usize::try_from(total).ok() != Some(count) {
        return Err(op_error(
            ir,
            op,
            format!(
                "operand count ({count}) does not match with the total size ({total}) specified in attribute \
                 'operandSegmentSizes'"
            ),
        ));
    }
    let mut start = 0;
    Ok(sizes
        .iter()
        .map(|&s| {
            let range = start..start + s as usize;
            start = range.end;
            range
        })
        .collect())
}

/// Prints ` %a, %b {attrs} : t1, t2`: the assembly format `$operands attr-dict : type($operands)`
/// shared by ops such as `memref.dealloc` and `scf.reduce.return`.
pub fn print_operands_attr_dict_types(pr: &mut stencil_ir::printer::OpPrinter<'_>, op: OpId) -> std::fmt::Result {
    use std::fmt::Write;
    let operands = pr.ir().operands(op);
    pr.write_char(' ')?;
    pr.print_values(operands)?;
    pr.print_optional_attr_dict(op, &[])?;
    pr.write_str(" : ")?;
    pr.print_value_types(operands)
}
