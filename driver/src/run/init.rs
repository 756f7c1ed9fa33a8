//! `--init` specifications: how each field's initial values are made.
//!
//! `random[:SEED]`, `const:VALUE`, `zeros` apply to every field without a specification of
//! its own; `NAME=random[:SEED]`, `NAME=const:VALUE`, `NAME=zeros` or `NAME=PATH.npy` set one
//! field. Random values are deterministic: field `NAME` with seed `S` uses the seed
//! `S ^ fnv1a(NAME)`, so fields differ from each other and runs repeat exactly.

use std::collections::BTreeMap;
use std::path::PathBuf;
use stencil_dialects::stencil::field::{parse_field_body, FieldType, ParamExpr};
use stencil_ir::ir::WalkOrder;
use stencil_ir::{Attribute, Module};
use stencil_runtime::{FieldData, FieldSpec, RuntimeError};

/// How one field is initialised.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldInit {
    /// Deterministic pseudo-random values in `[0, 1)`.
    Random(u64),
    /// Every element equal.
    Const(f64),
    /// Loaded from a `.npy` file (shape and element type must match the field).
    File(PathBuf),
}

/// All `--init` options of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct InitPlan {
    /// The default for fields without their own entry.
    pub default: FieldInit,
    /// Per-field entries.
    pub fields: BTreeMap<String, FieldInit>,
}

impl Default for InitPlan {
    fn default() -> Self {
        InitPlan { default: FieldInit::Random(0), fields: BTreeMap::new() }
    }
}

fn parse_kind(text: &str) -> Result<FieldInit, String> {
    if text == "zeros" {
        return Ok(FieldInit::Const(0.0));
    }
    if text == "random" {
        return Ok(FieldInit::Random(0));
    }
    if let Some(seed) = text.strip_prefix("random:") {
        return seed
            .parse()
            .map(FieldInit::Random)
            .map_err(|_| format!("invalid seed '{seed}' in --init: expected an unsigned integer"));
    }
    if let Some(v) = text.strip_prefix("const:") {
        return v
            .parse()
            .map(FieldInit::Const)
            .map_err(|_| format!("invalid value '{v}' in --init: expected a number"));
    }
    if text.ends_with(".npy") {
        return Ok(FieldInit::File(PathBuf::from(text)));
    }
    Err(format!("invalid --init '{text}': expected random[:SEED], const:VALUE, zeros or a .npy file"))
}

impl InitPlan {
    /// Builds the plan from the `--init` arguments. Each field, and the default, may be given
    /// once: a second `--init` for the same one is refused rather than silently winning.
    pub fn parse(specs: &[String]) -> Result<InitPlan, String> {
        let mut plan = InitPlan::default();
        let mut default_given: Option<&str> = None;
        let mut given: BTreeMap<&str, &str> = BTreeMap::new();
        for spec in specs {
            match spec.split_once('=') {
                Some((name, kind))
                    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
                {
                    if let Some(first) = given.insert(name, kind) {
                        return Err(format!(
                            "--init gives field {name} twice ('{first}', then '{kind}'): give each field one --init"
                        ));
                    }
                    plan.fields.insert(name.to_string(), parse_kind(kind)?);
                }
                _ => {
                    if let Some(first) = default_given.replace(spec) {
                        return Err(format!(
                            "--init gives the default for all fields twice ('{first}', then '{spec}'): give one, and NAME=SPEC for single fields"
                        ));
                    }
                    plan.default = parse_kind(spec)?;
                }
            }
        }
        Ok(plan)
    }

    /// Field names the plan mentions that the program does not have (a typo must not be
    /// silently ignored).
    pub fn unknown_fields<'a>(&'a self, fields: &[FieldSpec]) -> Vec<&'a str> {
        self.fields.keys().filter(|n| !fields.iter().any(|f| &f.name == *n)).map(String::as_str).collect()
    }

    /// Creates the initial data of `spec`.
    pub fn make(&self, spec: &FieldSpec) -> Result<FieldData, RuntimeError> {
        match self.fields.get(&spec.name).unwrap_or(&self.default) {
            FieldInit::Random(seed) => {
                FieldData::pseudo_random(spec.shape.clone(), spec.element, seed ^ fnv1a(&spec.name))
            }
            FieldInit::Const(v) => FieldData::filled(spec.shape.clone(), spec.element, *v),
            FieldInit::File(path) => {
                let data = stencil_runtime::npy::read_npy(path)?;
                if data.element() != spec.element {
                    return Err(RuntimeError::FieldTypeMismatch {
                        name: format!("{} (from {})", spec.name, path.display()),
                        expected: spec.element.name().into(),
                        found: data.element().name().into(),
                    });
                }
                if data.shape != spec.shape {
                    return Err(RuntimeError::FieldShapeMismatch {
                        name: format!("{} (from {})", spec.name, path.display()),
                        expected: spec.shape.clone(),
                        found: data.shape.clone(),
                    });
                }
                Ok(data)
            }
        }
    }
}

/// The extents of field `field` of entry point `program` in `module`: from its
/// `!stencil.field` type in a `stencil.program`, or from `stencil.field_types` in a lowered
/// function. `None` when they cannot be found (a lowered function without field types).
pub fn field_extents(module: &Module, program: &str, field: &str) -> Option<Vec<ParamExpr>> {
    let ir = &module.ir;
    let op = ir.collect_ops(module.top, WalkOrder::PreOrder).into_iter().find(|&op| {
        matches!(ir.op_name(op), "stencil.program" | "func.func")
            && ir.attr(op, "sym_name").and_then(Attribute::as_str) == Some(program)
    })?;
    let names = |attr: &str| -> Vec<String> {
        match ir.attr(op, attr) {
            Some(Attribute::Array(items)) => items.iter().filter_map(|a| a.as_str().map(str::to_string)).collect(),
            _ => vec![],
        }
    };
    let inputs = ir.attr(op, "function_type")?.as_type()?.as_function()?.inputs.clone();
    if ir.op_name(op) == "stencil.program" {
        let index = names("arg_names").iter().position(|n| n == field)?;
        return FieldType::from_type(inputs.get(index)?).map(|t| t.shape);
    }
    // Lowered: `stencil.field_types` has one entry per memref argument, in order.
    let args = names("stencil.arg_names");
    let position = args.iter().position(|n| n == field)?;
    let field_index = inputs[..position].iter().filter(|t| t.as_memref().is_some()).count();
    parse_field_body(names("stencil.field_types").get(field_index)?).ok().map(|t| t.shape)
}

/// Parameter values under which `extents` are exactly `shape`, changing as few of `current`
/// as the equations force: each extent that depends on one unknown parameter fixes it (when it
/// divides exactly), repeatedly; parameters no extent fixes keep their value. Returns the
/// parameters whose value changes, or `None` when no values give `shape` (or nothing changes).
pub fn params_for_shape(
    extents: &[ParamExpr],
    shape: &[usize],
    current: &[(String, i64)],
) -> Option<Vec<(String, i64)>> {
    if extents.len() != shape.len() {
        return None;
    }
    let equations: Vec<(&ParamExpr, i64)> =
        extents.iter().zip(shape).map(|(e, &s)| i64::try_from(s).ok().map(|s| (e, s))).collect::<Option<_>>()?;
    let mut solved: BTreeMap<String, i64> = BTreeMap::new();
    loop {
        let mut progress = false;
        for (expr, target) in &equations {
            let unknown: Vec<(&String, i64)> =
                expr.terms.iter().filter(|(n, _)| !solved.contains_key(*n)).map(|(n, &c)| (n, c)).collect();
            let [(name, coefficient)] = unknown[..] else { continue };
            let known = expr
                .terms
                .iter()
                .filter(|(n, _)| *n != name)
                .try_fold(expr.constant, |acc, (n, c)| acc.checked_add(c.checked_mul(*solved.get(n)?)?))?;
            let rest = target.checked_sub(known)?;
            if coefficient == 0 || rest % coefficient != 0 {
                return None;
            }
            solved.insert(name.clone(), rest / coefficient);
            progress = true;
        }
        if !progress {
            break;
        }
    }
    let value_of = |n: &str| solved.get(n).copied().or_else(|| current.iter().find(|(c, _)| c == n).map(|(_, v)| *v));
    if !equations.iter().all(|(e, target)| e.eval(&value_of) == Some(*target)) {
        return None;
    }
    let changed: Vec<(String, i64)> =
        current.iter().filter_map(|(n, v)| solved.get(n).filter(|&&s| s != *v).map(|&s| (n.clone(), s))).collect();
    (!changed.is_empty()).then_some(changed)
}

/// 64-bit FNV-1a of a string.
pub fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_defaults_and_per_field_specs() {
        let plan =
            InitPlan::parse(&["const:2.5".into(), "A=random:7".into(), "B=in/b.npy".into(), "C=zeros".into()]).unwrap();
        assert_eq!(plan.default, FieldInit::Const(2.5));
        assert_eq!(plan.fields["A"], FieldInit::Random(7));
        assert_eq!(plan.fields["B"], FieldInit::File("in/b.npy".into()));
        assert_eq!(plan.fields["C"], FieldInit::Const(0.0));
        assert!(InitPlan::parse(&["random:x".into()]).is_err());
        assert!(InitPlan::parse(&["A=bogus".into()]).is_err());
    }

    #[test]
    fn refuses_a_field_or_the_default_twice() {
        let e = InitPlan::parse(&["A=zeros".into(), "B=zeros".into(), "A=const:1".into()]);
        assert_eq!(
            e.err().as_deref(),
            Some("--init gives field A twice ('zeros', then 'const:1'): give each field one --init")
        );
        assert!(InitPlan::parse(&["zeros".into(), "random".into()])
            .is_err_and(|e| e.contains("default for all fields twice")));
    }

    fn expr(text: &str) -> ParamExpr {
        stencil_dialects::stencil::field::parse_param_expr(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn finds_the_params_that_give_a_shape() {
        let current = vec![("T".to_string(), 10), ("N".to_string(), 64), ("M".to_string(), 32)];
        // [N + 2, M] from a file of shape [10, 7]: N = 8, M = 7; T stays.
        let found = params_for_shape(&[expr("N + 2"), expr("M")], &[10, 7], &current);
        assert_eq!(found, Some(vec![("N".to_string(), 8), ("M".to_string(), 7)]));
        // [2 * N, N + M]: N first, then M from the second extent.
        let found = params_for_shape(&[expr("2 * N"), expr("M + N")], &[8, 10], &current);
        assert_eq!(found, Some(vec![("N".to_string(), 4), ("M".to_string(), 6)]));
        // No integer solution, contradicting extents, or nothing to change.
        assert_eq!(params_for_shape(&[expr("2 * N")], &[7], &current), None);
        assert_eq!(params_for_shape(&[expr("N"), expr("N")], &[5, 6], &current), None);
        assert_eq!(params_for_shape(&[expr("N")], &[64], &current), None);
    }
}
