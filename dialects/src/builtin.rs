//! The `builtin` dialect: `builtin.module`.

use std::fmt::{self, Write};
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{CustomOpParser, ParseResult};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::{DialectDef, DialectRegistry, OpDef, OpTraits};
use stencil_ir::{Attribute, DiagResult, Ir, OpId};

use crate::support::{expect_operand_count, expect_region_count, expect_result_count, op_error};

/// Registers the dialect.
pub fn register(r: &mut DialectRegistry) {
    r.register_dialect(DialectDef::new("builtin"));
    r.register_op(OpDef {
        traits: OpTraits {
            isolated_from_above: true,
            symbol_table: true,
            no_terminator: true,
            single_block: true,
            ..OpTraits::default()
        },
        inherent_attrs: &["sym_name", "sym_visibility"],
        parse: Some(parse_module),
        print: Some(print_module),
        verify: Some(verify_module),
        ..OpDef::new("builtin.module", "A top-level container of operations with an optional symbol name")
    });
}

/// `module @name? attributes {…}? { … }`
fn parse_module(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    if p.at(TokenKind::AtIdent) {
        let name = p.parse_symbol_name()?;
        p.state().add_property("sym_name", Attribute::string(&name));
    }
    p.parse_optional_attr_dict_with_keyword()?;
    let region = p.parse_region(&[])?;
    p.ensure_block(region);
    Ok(())
}

fn print_module(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    if let Some(name) = ir.attr(op, "sym_name").and_then(Attribute::as_str) {
        pr.write_char(' ')?;
        pr.print_symbol_name(name)?;
    }
    pr.print_optional_attr_dict_with_keyword(op, &["sym_name"])?;
    pr.write_char(' ')?;
    pr.print_region(ir.region(op, 0), false, false)
}

fn verify_module(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_operand_count(ir, op, 0)?;
    expect_result_count(ir, op, 0)?;
    expect_region_count(ir, op, 1)?;
    if let Some(entry) = ir.entry_block(ir.region(op, 0)) {
        if !ir.block_args(entry).is_empty() {
            return Err(op_error(ir, op, "expects region to have no arguments"));
        }
    }
    if let Some(a) = ir.attr(op, "sym_name") {
        if a.as_str().is_none() {
            return Err(op_error(ir, op, "attribute 'sym_name' must be a string"));
        }
    }
    Ok(())
}
