//! The `stencil-to-poly` pass: extracts the SCoP of every `stencil.program` and records it on
//! the IR (thesis §3.2).

use stencil_ir::pass::{Pass, PassContext, PassFactory, PassInfo};
use stencil_ir::{Attribute, DiagResult, Ir, OpId, Type};

use super::extract_scop;

/// Discardable attribute on each `stencil.apply`: its statement id in the SCoP of thesis §3.2
/// (`poly.statement = 0 : i64`), the order of statements in dependence output.
pub const STATEMENT_ATTR: &str = "poly.statement";

/// Discardable attribute on each `stencil.apply`: the β vector of its original schedule
/// (thesis §3.2.3), `poly.beta = array<i64: 0, 1, 0, 0>`.
pub const BETA_ATTR: &str = "poly.beta";

/// Registration record of `stencil-to-poly` (thesis §3.2: the SCoP every polyhedral pass
/// starts from).
pub fn pass_info() -> PassInfo {
    PassInfo {
        argument: "stencil-to-poly",
        summary: "Extract the polyhedral model (SCoP) of each stencil.program and record statement ids and β vectors",
        options: vec![],
        factory: PassFactory::new(|_| Ok(Box::new(StencilToPoly))),
        contract: crate::contract::program_pass(
            "stencil-to-poly works on stencil.program ops, before poly-codegen or gpu-map lower them, e.g. builtin.module(stencil-to-poly)",
        ),
    }
}

/// Runs [`extract_scop`] on every `stencil.program` at or below the anchor and annotates each
/// `stencil.apply` with [`STATEMENT_ATTR`] and [`BETA_ATTR`]. The attributes are discardable
/// and change no semantics; a program that is not a SCoP fails the pass with the located
/// error.
struct StencilToPoly;

impl Pass for StencilToPoly {
    fn argument(&self) -> &'static str {
        "stencil-to-poly"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        for program in stencil_programs(ir, root) {
            let info = extract_scop(ir, cx.registry, program)?;
            for (id, statement) in info.statements.iter().enumerate() {
                let id = i64::try_from(id).unwrap_or(i64::MAX);
                ir.set_attribute(statement.apply, STATEMENT_ATTR, Attribute::i64(id));
                ir.set_attribute(
                    statement.apply,
                    BETA_ATTR,
                    Attribute::DenseArray { element: Type::I64, values: statement.beta.clone() },
                );
            }
        }
        Ok(())
    }
}

/// The `stencil.program` ops at or below `root`, in pre-order.
pub fn stencil_programs(ir: &Ir, root: OpId) -> Vec<OpId> {
    let mut programs = Vec::new();
    ir.walk(root, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
        if ir.op_name(op) == "stencil.program" {
            programs.push(op);
        }
    });
    programs
}
