//! `--param NAME=VALUE`: the problem sizes given on the command line, read and checked the same
//! way by `stencil-opt` and `stencil-run` — each `NAME=INT`, each name once, every name one the
//! input's programs declare, no value below the declared minimum (`params [N >= 3]`).
//!
//! `stencil-run` binds the values to its one program in the runtime
//! (`stencil_runtime::module_interface`), which makes the same last two checks with the same
//! messages ([`stencil_runtime::RuntimeError`]); `stencil-opt` makes them here, over every
//! program of its input (`crate::opt`).

use stencil_dialects::stencil::ProgramParams;
use stencil_ir::{Diagnostic, Ir, OpId};
use stencil_passes::stencil_to_poly::stencil_programs;

/// Splits `text`, given to `flag`, into `(NAME, VALUE)` at its first `=`; both must be
/// non-empty.
pub fn split_assignment<'a>(flag: &str, text: &'a str) -> Result<(&'a str, &'a str), String> {
    text.split_once('=')
        .filter(|(n, v)| !n.is_empty() && !v.is_empty())
        .ok_or_else(|| format!("{flag} expects NAME=VALUE, got '{text}'"))
}

/// Reads the `--param` flags (`NAME=INT` each, each name once) in the order given.
pub fn parse_params(items: &[String]) -> Result<Vec<(String, i64)>, String> {
    let mut params: Vec<(String, i64)> = Vec::with_capacity(items.len());
    for item in items {
        let (name, value) = split_assignment("--param", item)?;
        let value: i64 = value.parse().map_err(|_| format!("--param {name}: '{value}' is not an integer"))?;
        if let Some((_, first)) = params.iter().find(|(n, _)| n == name) {
            return Err(format!("--param {name} is given twice ({first}, then {value}): give each parameter once"));
        }
        params.push((name.to_string(), value));
    }
    Ok(params)
}

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
/// declares them: a value below is an error located at that program, worded as
/// `stencil-run`'s.
pub fn check_minimums(ir: &Ir, root: OpId, params: &[(String, i64)]) -> Result<(), Diagnostic> {
    for program in stencil_programs(ir, root) {
        let declared = ProgramParams::of(ir, program);
        for (name, value) in params {
            let Some(min) = declared.index_of(name).and_then(|i| declared.mins.get(i).copied()) else { continue };
            if *value < min {
                let e = stencil_runtime::RuntimeError::ParamBelowMinimum { name: name.clone(), value: *value, min };
                return Err(Diagnostic::error(ir.location(program).clone(), format!("--param {name}={value}: {e}")));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn params_are_name_int_pairs_given_once() {
        assert_eq!(parse_params(&strings(&["N=4", "T=-2"])), Ok(vec![("N".into(), 4), ("T".into(), -2)]));
        assert_eq!(parse_params(&strings(&["=3"])), Err("--param expects NAME=VALUE, got '=3'".into()));
        assert_eq!(parse_params(&strings(&["N="])), Err("--param expects NAME=VALUE, got 'N='".into()));
        assert_eq!(parse_params(&strings(&["N=x"])), Err("--param N: 'x' is not an integer".into()));
        assert_eq!(
            parse_params(&strings(&["N=3", "N=4"])),
            Err("--param N is given twice (3, then 4): give each parameter once".into())
        );
    }

    #[test]
    fn unknown_names_are_refused() {
        let declared = ["N".to_string(), "T".to_string()];
        assert_eq!(check_known(&[("N".into(), 3)], &declared, 1), Ok(()));
        assert_eq!(
            check_known(&[("N".into(), 3), ("X".into(), 1)], &declared, 1),
            Err("unknown parameter 'X': the program declares N, T".into())
        );
        assert_eq!(
            check_known(&[("X".into(), 1)], &declared, 2),
            Err("unknown parameter 'X': the input's programs declare N, T".into())
        );
        assert_eq!(
            check_known(&[("X".into(), 1)], &[], 0),
            Err("unknown parameter 'X': the input has no stencil.program".into())
        );
    }
}
