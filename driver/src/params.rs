//! `--param NAME=VALUE`: the problem sizes given on the command line, read and checked the same
//! way by `stencil-opt` and `stencil-run` — each `NAME=INT`, each name once, every name one the
//! input's programs declare, no value below the declared minimum (`params [N >= 3]`).
//!
//! `stencil-run` binds the values to its one program in the runtime
//! (`stencil_runtime::module_interface`), which makes the same last two checks with the same
//! messages ([`stencil_runtime::RuntimeError`]); `stencil-opt` makes them here, over every
//! program of its input (`crate::opt`).

pub use stencil::params::{check_known, declared_after_pipeline, declared_params};

/// [`stencil::params::check_minimums`], worded for the command line (`--param N=2: …`).
pub fn check_minimums(
    ir: &stencil_ir::Ir,
    root: stencil_ir::OpId,
    params: &[(String, i64)],
) -> Result<(), stencil_ir::Diagnostic> {
    stencil::params::check_minimums(ir, root, params).map_err(|mut d| {
        d.message = format!("--param {}", d.message);
        d
    })
}

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
