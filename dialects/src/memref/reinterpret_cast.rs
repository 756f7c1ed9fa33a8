//! `memref.reinterpret_cast`: a view of a buffer's memory with a new offset, sizes and strides,
//! in MLIR 22's custom syntax
//!
//! ```text
//! %v = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] : memref<?x?xf64> to memref<?xf64>
//! ```
//!
//! Each of `offset`, `sizes` and `strides` is a list of values and integers (MLIR's dynamic
//! index lists): the integers are kept in the properties `static_offsets`, `static_sizes` and
//! `static_strides` (`array<i64: …>`, a dynamic entry as `i64::MIN`), the values are operands in
//! that order after the source (`operandSegmentSizes`).
//!
//! The PTX lowering views kernel arguments flat with it (lowering's `ptx::flat_addresses`); the
//! simulators run the views that are flat views of a whole buffer (offset 0, one size equal to
//! the buffer's element count, stride 1) and refuse the others with an error.

use std::fmt::{self, Write};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{CustomOpParser, ParseResult, UnresolvedOperand};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::{DialectRegistry, OpDef, OpTraits};
use stencil_ir::types::Dim;
use stencil_ir::{Attribute, DiagResult, Ir, OpId, Type, ValueId};

use super::{expect_index_operands, expect_memref_operand, parse_memref_type, print_type_of, MemRefKind};
use crate::support::{default_segments, expect_result_count, op_error, operand_segments};

/// How MLIR marks a dynamic entry of a static index list (`ShapedType::kDynamic`).
pub const DYNAMIC: i64 = i64::MIN;

/// The three index lists of the op, in operand order, with their property names.
const LISTS: [(&str, &str); 3] =
    [("offset", "static_offsets"), ("sizes", "static_sizes"), ("strides", "static_strides")];

/// Registers the op.
pub(super) fn register(r: &mut DialectRegistry) {
    r.register_op(OpDef {
        traits: OpTraits { pure: true, ..OpTraits::default() },
        inherent_attrs: &["operandSegmentSizes", "static_offsets", "static_sizes", "static_strides"],
        parse: Some(parse),
        print: Some(print),
        verify: Some(verify),
        name_hint: Some(|_, _| Some("reinterpret_cast".into())),
        default_properties: Some(|state| default_segments(state, 4)),
        ..OpDef::new("memref.reinterpret_cast", "Views a buffer's memory with a new offset, sizes and strides")
    });
}

/// `[%a, 4, %b]`: the values, and the static list with [`DYNAMIC`] where a value stands.
fn parse_index_list(p: &mut CustomOpParser<'_, '_>) -> ParseResult<(Vec<UnresolvedOperand>, Vec<i64>)> {
    p.expect(TokenKind::LSquare, "'['")?;
    let (mut values, mut statics) = (vec![], vec![]);
    if !p.consume_if(TokenKind::RSquare) {
        loop {
            match p.parse_optional_operand()? {
                Some(v) => {
                    values.push(v);
                    statics.push(DYNAMIC);
                }
                None => statics.push(p.parse_integer()?),
            }
            if !p.consume_if(TokenKind::Comma) {
                break;
            }
        }
        p.expect(TokenKind::RSquare, "']'")?;
    }
    Ok((values, statics))
}

fn parse(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let source = p.parse_operand()?;
    p.expect_keyword("to")?;
    let mut lists = vec![];
    for (i, (keyword, _)) in LISTS.iter().enumerate() {
        if i > 0 {
            p.expect(TokenKind::Comma, "','")?;
        }
        p.expect_keyword(keyword)?;
        p.expect(TokenKind::Colon, "':'")?;
        lists.push(parse_index_list(p)?);
    }
    p.parse_optional_attr_dict()?;
    p.expect(TokenKind::Colon, "':'")?;
    let source_ty = parse_memref_type(p, MemRefKind::RankedOrUnranked)?;
    p.expect_keyword("to")?;
    let result_ty = parse_memref_type(p, MemRefKind::Ranked)?;
    p.add_operands(&[source], &[source_ty])?;
    let mut segments = vec![1];
    for ((values, statics), (_, property)) in lists.iter().zip(LISTS) {
        p.add_operands_of_type(values, &Type::Index)?;
        segments.push(values.len() as i64);
        p.state().add_property(property, Attribute::DenseArray { element: Type::I64, values: statics.clone() });
    }
    p.state().add_property("operandSegmentSizes", Attribute::dense_i32(&segments));
    p.add_result_types([result_ty]);
    Ok(())
}

/// The static list `property` of `op` (empty when missing or malformed: the verifier says so).
fn static_list<'a>(ir: &'a Ir, op: OpId, property: &str) -> &'a [i64] {
    match ir.attr(op, property) {
        Some(Attribute::DenseArray { element: Type::Integer(64), values }) => values,
        _ => &[],
    }
}

/// Prints `[%a, 4, %b]`, taking the values for the dynamic entries from `values` in order.
fn print_index_list(pr: &mut OpPrinter<'_>, statics: &[i64], values: &[ValueId]) -> fmt::Result {
    pr.write_char('[')?;
    let mut values = values.iter();
    for (i, &s) in statics.iter().enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        // A dynamic entry without its value (a malformed op) prints as the marker.
        match if s == DYNAMIC { values.next() } else { None } {
            Some(&v) => pr.print_value(v)?,
            None => write!(pr, "{s}")?,
        }
    }
    pr.write_char(']')
}

fn print(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let operands = ir.operands(op);
    let source = operands.first().copied();
    let segments = operand_segments(ir, op, 4).unwrap_or_else(|_| vec![0..0; 4]);
    pr.write_char(' ')?;
    if let Some(s) = source {
        pr.print_value(s)?;
    }
    pr.write_str(" to ")?;
    for (i, (keyword, property)) in LISTS.iter().enumerate() {
        if i > 0 {
            pr.write_str(", ")?;
        }
        write!(pr, "{keyword}: ")?;
        let values = operands.get(segments[i + 1].clone()).unwrap_or_default();
        print_index_list(pr, static_list(ir, op, property), values)?;
    }
    pr.print_optional_attr_dict(op, &["operandSegmentSizes", "static_offsets", "static_sizes", "static_strides"])?;
    pr.write_str(" : ")?;
    print_type_of(pr, source)?;
    pr.write_str(" to ")?;
    print_type_of(pr, ir.results(op).first().copied())
}

/// The strides of an identity-layout memref of `shape` as far as they are static (row-major:
/// the last stride is 1, each other the product of the sizes after it).
fn identity_strides(shape: &[Dim]) -> Vec<Option<i64>> {
    let mut strides = vec![None; shape.len()];
    let mut running = Some(1i64);
    for (d, dim) in shape.iter().enumerate().rev() {
        strides[d] = running;
        running = match (running, dim) {
            (Some(r), Dim::Static(n)) => r.checked_mul(*n),
            _ => None,
        };
    }
    strides
}

/// The static offset and strides of a result layout (`None` where dynamic), or `None` for a
/// layout we do not model (an affine map), which is then not checked against the lists.
fn layout_offset_and_strides(shape: &[Dim], layout: Option<&Attribute>) -> Option<(Option<i64>, Vec<Option<i64>>)> {
    match layout {
        None => Some((Some(0), identity_strides(shape))),
        Some(Attribute::StridedLayout { strides, offset }) => Some((*offset, strides.clone())),
        Some(_) => None,
    }
}

/// A list entry as MLIR's messages print it.
fn entry_text(value: i64) -> String {
    if value == DYNAMIC {
        "dynamic".to_string()
    } else {
        value.to_string()
    }
}

/// MLIR's `verifyOffsetSizeAndStrideOp` and `ReinterpretCastOp::verify`, in their order and
/// words: list ranks, the counts of dynamic entries, non-negative sizes, element type and memory
/// space, and each entry against the result type (a dynamic entry where the type is static is
/// an error too).
fn verify(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_result_count(ir, op, 1)?;
    expect_memref_operand(ir, op, 0, MemRefKind::RankedOrUnranked)?;
    let segments = operand_segments(ir, op, 4)?;
    if segments[0].len() != 1 {
        return Err(op_error(ir, op, "expected exactly one source operand"));
    }
    expect_index_operands(ir, op, 1)?;
    let mut lists = vec![];
    for (i, (keyword, property)) in LISTS.iter().enumerate() {
        let Some(Attribute::DenseArray { element: Type::Integer(64), values }) = ir.attr(op, property) else {
            return Err(op_error(ir, op, format!("requires attribute '{property}' (an array<i64>)")));
        };
        let dynamic = values.iter().filter(|&&v| v == DYNAMIC).count();
        if dynamic != segments[i + 1].len() {
            return Err(op_error(
                ir,
                op,
                format!("expected {dynamic} dynamic {keyword} values for '{property}', got {}", segments[i + 1].len()),
            ));
        }
        lists.push(values.as_slice());
    }
    let (offsets, sizes, strides) = (lists[0], lists[1], lists[2]);
    let well_formed = "so the rank of the result type is well-formed.";
    if offsets.len() != sizes.len() && offsets.len() != 1 {
        let (o, s) = (offsets.len(), sizes.len());
        return Err(op_error(
            ir,
            op,
            format!("expected mixed offsets rank to match mixed sizes rank ({o} vs {s}) {well_formed}"),
        ));
    }
    if sizes.len() != strides.len() {
        let (s, t) = (sizes.len(), strides.len());
        return Err(op_error(
            ir,
            op,
            format!("expected mixed sizes rank to match mixed strides rank ({s} vs {t}) {well_formed}"),
        ));
    }
    if offsets.len() != 1 {
        return Err(op_error(ir, op, format!("expected 1 offset values, got {}", offsets.len())));
    }
    let (source_ty, result_ty) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.result(op, 0)));
    let (Some(source), Some(result)) = (source_ty.as_memref(), result_ty.as_memref()) else { return Ok(()) };
    let Some(shape) = &result.shape else {
        return Err(op_error(ir, op, format!("result #0 must be ranked memref, but got '{result_ty}'")));
    };
    if shape.len() != sizes.len() {
        return Err(op_error(ir, op, format!("expected {} size values, got {}", shape.len(), sizes.len())));
    }
    if let Some(&negative) = sizes.iter().find(|&&s| s != DYNAMIC && s < 0) {
        return Err(op_error(ir, op, format!("expected sizes to be non-negative, but got {negative}")));
    }
    if source.element != result.element {
        return Err(op_error(
            ir,
            op,
            format!(
                "different element types specified for source type '{source_ty}' and result memref type '{result_ty}'"
            ),
        ));
    }
    if source.memory_space != result.memory_space {
        return Err(op_error(
            ir,
            op,
            format!(
                "different memory spaces specified for source type '{source_ty}' and result memref type '{result_ty}'"
            ),
        ));
    }
    for (d, (dim, &size)) in shape.iter().zip(sizes).enumerate() {
        if let Dim::Static(n) = dim {
            if size != *n {
                let got = entry_text(size);
                return Err(op_error(
                    ir,
                    op,
                    format!("expected result type with size = {got} instead of {n} in dim = {d}"),
                ));
            }
        }
    }
    let Some((offset, layout_strides)) = layout_offset_and_strides(shape, result.layout.as_ref()) else {
        return Ok(());
    };
    if let Some(o) = offset.filter(|&o| offsets[0] != o) {
        let got = entry_text(offsets[0]);
        return Err(op_error(ir, op, format!("expected result type with offset = {got} instead of {o}")));
    }
    for (d, (expected, &stride)) in layout_strides.into_iter().zip(strides).enumerate() {
        if let Some(e) = expected.filter(|&e| stride != e) {
            let got = entry_text(stride);
            return Err(op_error(
                ir,
                op,
                format!("expected result type with stride = {got} instead of {e} in dim = {d}"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::identity_strides;
    use stencil_ir::types::Dim;

    #[test]
    fn identity_strides_are_static_up_to_the_first_dynamic_size() {
        let shape = [Dim::Dynamic, Dim::Static(4), Dim::Static(5)];
        assert_eq!(identity_strides(&shape), vec![Some(20), Some(5), Some(1)]);
        let shape = [Dim::Static(3), Dim::Dynamic, Dim::Static(5)];
        assert_eq!(identity_strides(&shape), vec![None, Some(5), Some(1)]);
    }
}
