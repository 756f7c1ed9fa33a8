//! `--init` specifications: how each field's initial values are made.
//!
//! `random[:SEED]`, `const:VALUE`, `zeros` apply to every field without a specification of
//! its own; `NAME=random[:SEED]`, `NAME=const:VALUE`, `NAME=zeros` or `NAME=PATH.npy` set one
//! field. Random values are deterministic: field `NAME` with seed `S` uses the seed
//! `S ^ fnv1a(NAME)`, so fields differ from each other and runs repeat exactly.

use std::collections::BTreeMap;
use std::path::PathBuf;
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
    /// Builds the plan from the `--init` arguments in order (later ones win).
    pub fn parse(specs: &[String]) -> Result<InitPlan, String> {
        let mut plan = InitPlan::default();
        for spec in specs {
            match spec.split_once('=') {
                Some((name, kind))
                    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
                {
                    plan.fields.insert(name.to_string(), parse_kind(kind)?);
                }
                _ => plan.default = parse_kind(spec)?,
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
}
