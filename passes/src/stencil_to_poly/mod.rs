//! `stencil-to-poly`: the polyhedral model of a `stencil.program` (thesis §3.2).
//!
//! A program's sequential semantics (`docs/dialects/stencil.md`) is a static control part:
//!
//! * **statements** — one per `stencil.apply`, named by its `@S`; its iterators are the
//!   induction variables of the enclosing `stencil.iterate`s (outermost first), then the point
//!   dimensions of its box (`i`, `j`, `k`);
//! * **domains** (§3.2.1) — `lower <= t < upper` per iterate and `lb_d <= i_d < ub_d` per box
//!   dimension, affine in the parameters; the SCoP context is the parameters' declared
//!   minimums and nothing else;
//! * **accesses** (§3.2.4) — each `stencil.access` in body order is a read (offset form: the
//!   point plus the offset; general form `at [...]`: the affine index over iterate induction
//!   variables and `stencil.index` coordinates), and the written field at the current point is
//!   the statement's one write; fields are the arrays, scalars are not;
//! * **original schedule** (§3.2.3) — Pluto's β form `(β0, t, β1, …, i, βn)`: the scalar rows
//!   are the textual positions of the op in its parent's body at each depth, so sibling
//!   applies and iterates run in textual order; the point rows of an `order reverse` apply are
//!   negated (`−i`, `−j`), which is exactly reverse lexicographic order, and the dependence
//!   analysis orders instances by these rows.
//!
//! [`extract_scop`] builds the [`ScopInfo`] (the [`Scop`] plus the way back to the IR ops);
//! [`pass_info`] is the pass, which records the result on the IR as discardable attributes;
//! [`dependence_report`] is what `stencil-opt --test-print-dependences` prints.

mod extract;
mod pass;
mod report;

pub use extract::extract_scop;
pub use pass::stencil_programs;
pub use pass::{pass_info, BETA_ATTR, STATEMENT_ATTR};
pub use report::dependence_report;

use stencil_dialects::stencil::ApplyOrder;
use stencil_ir::{Ir, OpId, ValueId};
use stencil_poly::{AccessRef, ArrayId, Scop, StatementId};

/// The SCoP of one `stencil.program` and the way back from its ids to the IR (thesis §3.2:
/// the model Clan extracts from C, here from the stencil dialect).
#[derive(Clone, Debug)]
pub struct ScopInfo {
    /// The `stencil.program` op.
    pub program: OpId,
    /// The polyhedral model.
    pub scop: Scop,
    /// Per [`StatementId`], where the statement comes from.
    pub statements: Vec<StatementOrigin>,
    /// Per [`ArrayId`], the field argument of the program it stands for.
    pub arrays: Vec<ValueId>,
}

/// The IR behind one statement of a [`ScopInfo`] (thesis §3.2.1: a statement and its
/// enclosing loops).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatementOrigin {
    /// The `stencil.apply`.
    pub apply: OpId,
    /// The enclosing `stencil.iterate`s, outermost first (one per leading iterator).
    pub iterates: Vec<OpId>,
    /// The β vector of the original schedule (thesis §3.2.3): one textual position per
    /// enclosing body, then one 0 per point dimension.
    pub beta: Vec<i64>,
    /// Forward or reverse traversal of the box.
    pub order: ApplyOrder,
    /// Per [`stencil_poly::AccessId`]: the `stencil.access` of each read, in body order, then
    /// the `stencil.apply` itself for the write.
    pub accesses: Vec<OpId>,
}

impl ScopInfo {
    /// The statement extracted from `apply` (its node in the DDG of thesis §3.2.4).
    pub fn statement_of(&self, apply: OpId) -> Option<StatementId> {
        self.statements.iter().position(|s| s.apply == apply).map(StatementId)
    }

    /// The op an access of the model comes from (an end of a dependence, thesis §3.2.4): a
    /// `stencil.access` for a read, the `stencil.apply` for the write.
    pub fn access_op(&self, access: AccessRef) -> Option<OpId> {
        self.statements.get(access.statement.0)?.accesses.get(access.access.0).copied()
    }

    /// The array a field argument of the program is modelled as (thesis §3.2.4's accessed
    /// arrays).
    pub fn array_of(&self, field: ValueId) -> Option<ArrayId> {
        self.arrays.iter().position(|&v| v == field).map(ArrayId)
    }

    /// The program's symbol name (`sor_2d_5pt`), which names the SCoP (thesis §3.2).
    pub fn program_name<'a>(&self, ir: &'a Ir) -> &'a str {
        program_name(ir, self.program)
    }
}

fn program_name(ir: &Ir, program: OpId) -> &str {
    ir.attr(program, "sym_name").and_then(stencil_ir::Attribute::as_str).unwrap_or("?")
}
