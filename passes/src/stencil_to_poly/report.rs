//! The dependence report of `stencil-opt --test-print-dependences` (thesis §3.2.4–§3.2.5,
//! Table 3.1).

use std::fmt::Write;

use stencil_dialects::support::op_error;
use stencil_ir::{Diagnostic, DialectRegistry, Ir, OpId};
use stencil_poly::{DependenceGraph, DependenceMode, DependenceOptions};

use super::extract_scop;
use super::pass::stencil_programs;

/// The dependences (thesis §3.2.4; Table 3.1 for Fig. 3.4) of every `stencil.program` at or
/// below `root`, in program order, as MLIR comments so the report can precede the IR and the
/// whole output still parses:
///
/// ```text
/// // dependences of @fig_3_4 (direct):
/// // dep 0: flow S0.write0 A[i] -> S0.read0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { … }
/// ```
///
/// Each `dep K:` line is [`stencil_poly::Dependence::display`]'s stable format
/// (`docs/poly.md`): statements are named by their apply's `@S`, accesses by their position
/// (`S.read1` is the second `stencil.access` of the body, `S.write0` the apply's write). A
/// program without dependences gets `// (none)`. Extraction errors are located at the op;
/// analysis errors (limits, overflow) at the program.
pub fn dependence_report(
    ir: &Ir,
    registry: &DialectRegistry,
    root: OpId,
    options: &DependenceOptions,
) -> Result<String, Diagnostic> {
    let mode = match options.mode {
        DependenceMode::Direct => "direct",
        DependenceMode::MemoryBased => "memory-based",
    };
    let mut out = String::new();
    for program in stencil_programs(ir, root) {
        let info = extract_scop(ir, registry, program)?;
        let graph = DependenceGraph::compute(&info.scop, options)
            .map_err(|e| op_error(ir, program, format!("dependence analysis failed: {e}")))?;
        // Writing into a String cannot fail.
        let _ = writeln!(out, "// dependences of @{} ({mode}):", info.program_name(ir));
        if graph.dependences().is_empty() {
            out.push_str("// (none)\n");
        }
        for line in graph.display(&info.scop).to_string().lines() {
            let _ = writeln!(out, "// {line}");
        }
    }
    Ok(out)
}
