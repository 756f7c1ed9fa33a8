//! The schedule report of `stencil-opt --test-print-schedule` (thesis Ch. 4, Figs 4.1/4.3).

use std::fmt::Write;

use stencil_ir::{Diagnostic, DialectRegistry, Ir, OpId};

use super::attr::read_schedule;
use crate::stencil_to_poly::{extract_scop, stencil_programs};

/// The schedules stored on the applies (`poly.schedule`, computed by `poly-schedule` or written
/// by hand) of every `stencil.program` at or below `root`, as MLIR comments that can precede
/// the IR:
///
/// ```text
/// // schedule of @fig_3_4:
/// // S0: (2*t + i, t + i)
/// ```
///
/// One line per statement (apply), `Schedule::display_statement`'s format: rows in the
/// statement's iterator names — enclosing iterates by their SSA names as printed (`t`, `t_0`),
/// then `i, j, k` — and the parameters; scalar rows as integers. An apply without a schedule
/// prints `// S0: none`. Extraction errors and malformed attributes are located at the op.
pub fn schedule_report(ir: &Ir, registry: &DialectRegistry, root: OpId) -> Result<String, Diagnostic> {
    let mut out = String::new();
    for program in stencil_programs(ir, root) {
        let info = extract_scop(ir, registry, program)?;
        // Writing into a String cannot fail.
        let _ = writeln!(out, "// schedule of @{}:", info.program_name(ir));
        for (origin, statement) in info.statements.iter().zip(info.scop.statements()) {
            match read_schedule(ir, origin.apply, statement.space())? {
                Some(s) => {
                    let _ = writeln!(out, "// {}", s.display_statement(statement.name(), statement.space()));
                }
                None => {
                    let _ = writeln!(out, "// {}: none", statement.name());
                }
            }
        }
    }
    Ok(out)
}
