//! Problem sizes (`N = 4096`) given to a module: the names its programs declare, and the
//! values their declarations allow (`params [N >= 3]`). `stencil-opt --param` and
//! `stencil-run --param` check theirs with these, and so does
//! [`crate::Compiler::run_pipeline_with_sizes`].

use stencil_dialects::stencil::ProgramParams;
use stencil_ir::{Diagnostic, Ir, OpId};
use stencil_passes::stencil_to_poly::stencil_programs;

/// Adds the parameters the `stencil.program`s below `root` declare to `declared` (each name
/// once, in declaration order); returns how many programs there are.
pub fn declared_params(ir: &Ir, root: OpId, declared: &mut Vec<String>) -> usize {
    let programs = stencil_programs(ir, root);
    for name in programs.iter().flat_map(|&p| ProgramParams::of(ir, p).names) {
        if !declared.contains(&name) {
            declared.push(name);
        }
    }
    programs.len()
}

/// Adds the parameters of the programs below `root` to `declared`, as [`declared_params`],
/// and those of the functions a lowering made of programs (`stencil.param_names`): the names
/// after a pipeline, for an input whose programs the pipeline raised (`affine` loops); returns
/// how many programs and functions there are, and the first of them (for a location).
pub fn declared_after_pipeline(ir: &Ir, root: OpId, declared: &mut Vec<String>) -> (usize, Option<OpId>) {
    let mut count = declared_params(ir, root, declared);
    let mut first = stencil_programs(ir, root).first().copied();
    ir.walk(root, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
        let Some(stencil_ir::Attribute::Array(items)) = ir.attr(op, "stencil.param_names") else { return };
        count = count.saturating_add(1);
        first = first.or(Some(op));
        for name in items.iter().filter_map(|a| a.as_str()) {
            if !declared.iter().any(|d| d == name) {
                declared.push(name.to_string());
            }
        }
    });
    (count, first)
}

/// The first of `params` whose name none of `programs` programs declares (`declared`: the
/// names they declare, [`declared_params`]), as an error message.
pub fn check_known(params: &[(String, i64)], declared: &[String], programs: usize) -> Result<(), String> {
    let Some((name, _)) = params.iter().find(|(n, _)| !declared.contains(n)) else { return Ok(()) };
    let names = declared.join(", ");
    let known = match programs {
        0 => "the input has no stencil.program".to_string(),
        _ if declared.is_empty() => format!("the input's {} declare no parameters", programs_word(programs)),
        1 => format!("the program declares {names}"),
        _ => format!("the input's programs declare {names}"),
    };
    Err(format!("unknown parameter '{name}': {known}"))
}

fn programs_word(n: usize) -> &'static str {
    if n == 1 {
        "program"
    } else {
        "programs"
    }
}

/// Checks `params` against the declared minimum of every `stencil.program` below `root` that
/// declares them: a value below is an error located at that program, worded as the runtime's
/// (`N=2: parameter N = 2 is below its declared minimum 3`).
pub fn check_minimums(ir: &Ir, root: OpId, params: &[(String, i64)]) -> Result<(), Diagnostic> {
    for program in stencil_programs(ir, root) {
        let declared = ProgramParams::of(ir, program);
        for (name, value) in params {
            let Some(min) = declared.index_of(name).and_then(|i| declared.mins.get(i).copied()) else { continue };
            if *value < min {
                let e = stencil_runtime::RuntimeError::ParamBelowMinimum { name: name.clone(), value: *value, min };
                return Err(Diagnostic::error(ir.location(program).clone(), format!("{name}={value}: {e}")));
            }
        }
    }
    Ok(())
}
