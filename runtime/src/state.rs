//! What a run reads and updates: parameter values, scalar arguments and fields by name, and
//! the program's interface that says which of them it needs.

use crate::error::{RuntimeError, RuntimeResult};
use crate::field::{ElementType, FieldData};
use std::collections::BTreeMap;

/// A scalar argument value, converted to the argument's type when the program runs (a float
/// is rounded to `f32` for an `f32` argument; an integer argument needs an integer).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ScalarValue {
    /// A floating-point value.
    Float(f64),
    /// An integer value.
    Int(i64),
}

impl std::fmt::Display for ScalarValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScalarValue::Float(v) => write!(f, "{v}"),
            ScalarValue::Int(v) => write!(f, "{v}"),
        }
    }
}

/// The type of a scalar argument.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScalarType {
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `iN` (N ≤ 64) or `index` (64).
    Int(u8),
}

impl std::fmt::Display for ScalarType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScalarType::F32 => f.write_str("f32"),
            ScalarType::F64 => f.write_str("f64"),
            ScalarType::Int(w) => write!(f, "i{w}"),
        }
    }
}

/// Parameter values, scalar values and fields of one run, all by name. Fields are updated in
/// place by [`crate::CompiledProgram::run`] and [`crate::run_module`].
#[derive(Clone, Debug, Default)]
pub struct ProgramState {
    /// Parameter values given by the user; they override the program's defaults.
    pub params: BTreeMap<String, i64>,
    /// Scalar argument values given by the user; they override the program's defaults.
    pub scalars: BTreeMap<String, ScalarValue>,
    /// Field data by argument name.
    pub fields: BTreeMap<String, FieldData>,
}

impl ProgramState {
    /// An empty state (every parameter and scalar at its default, no fields yet).
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets a parameter value (builder style).
    pub fn with_param(mut self, name: &str, value: i64) -> Self {
        self.params.insert(name.to_string(), value);
        self
    }

    /// Sets a scalar value (builder style).
    pub fn with_scalar(mut self, name: &str, value: ScalarValue) -> Self {
        self.scalars.insert(name.to_string(), value);
        self
    }

    /// Sets a field (builder style).
    pub fn with_field(mut self, name: &str, field: FieldData) -> Self {
        self.fields.insert(name.to_string(), field);
        self
    }
}

/// A field argument of a program, with its shape for the bound parameter values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    /// Argument name.
    pub name: String,
    /// Shape computed from the extents.
    pub shape: Vec<usize>,
    /// Element type.
    pub element: ElementType,
}

/// A scalar argument of a program, with its value for this run.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalarSpec {
    /// Argument name.
    pub name: String,
    /// Its type.
    pub ty: ScalarType,
    /// The program's default, if any.
    pub default: Option<ScalarValue>,
}

/// One argument, in program order.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    /// A field (index into [`ProgramInterface::fields`]).
    Field(usize),
    /// A scalar (index into [`ProgramInterface::scalars`]).
    Scalar(usize),
}

/// What a program needs to run, with parameters bound: what a driver initialises fields
/// from.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramInterface {
    /// Program (or function) name.
    pub name: String,
    /// Parameter names and their values for this run, in declaration order.
    pub params: Vec<(String, i64)>,
    /// Field arguments, in argument order.
    pub fields: Vec<FieldSpec>,
    /// Scalar arguments, in argument order.
    pub scalars: Vec<ScalarSpec>,
    /// All arguments in order.
    pub args: Vec<ArgSpec>,
}

impl ProgramInterface {
    /// Zero-filled fields for every field of the program that `state` lacks.
    pub fn add_missing_fields(&self, state: &mut ProgramState) -> RuntimeResult<()> {
        for f in &self.fields {
            if !state.fields.contains_key(&f.name) {
                state.fields.insert(f.name.clone(), FieldData::zeros(f.shape.clone(), f.element)?);
            }
        }
        Ok(())
    }

    /// Checks that every name in `state` is a parameter, field or scalar of the program (a
    /// misspelt `--param` must not be silently ignored).
    pub fn check_names(&self, state: &ProgramState) -> RuntimeResult<()> {
        let unknown = |what: &'static str, name: &str, declared: Vec<&str>| RuntimeError::UnknownName {
            what,
            name: name.to_string(),
            declared: if declared.is_empty() { format!("no {what}s") } else { declared.join(", ") },
        };
        for name in state.params.keys() {
            if !self.params.iter().any(|(n, _)| n == name) {
                return Err(unknown("parameter", name, self.params.iter().map(|(n, _)| n.as_str()).collect()));
            }
        }
        for name in state.scalars.keys() {
            if !self.scalars.iter().any(|s| &s.name == name) {
                return Err(unknown("scalar", name, self.scalars.iter().map(|s| s.name.as_str()).collect()));
            }
        }
        for name in state.fields.keys() {
            if !self.fields.iter().any(|f| &f.name == name) {
                return Err(unknown("field", name, self.fields.iter().map(|f| f.name.as_str()).collect()));
            }
        }
        Ok(())
    }

    /// The value of scalar `spec` for this run: the state's, else the default.
    pub(crate) fn scalar_value(&self, spec: &ScalarSpec, state: &ProgramState) -> RuntimeResult<ScalarValue> {
        state
            .scalars
            .get(&spec.name)
            .copied()
            .or(spec.default)
            .ok_or_else(|| RuntimeError::MissingScalar { name: spec.name.clone(), ty: spec.ty.to_string() })
    }

    /// Checks that the field data of `spec` in `state` exists and has the right shape and
    /// element type.
    pub(crate) fn check_field<'s>(&self, spec: &FieldSpec, state: &'s ProgramState) -> RuntimeResult<&'s FieldData> {
        let data = state.fields.get(&spec.name).ok_or_else(|| RuntimeError::MissingField {
            name: spec.name.clone(),
            shape: spec.shape.clone(),
            element: spec.element.name().to_string(),
        })?;
        if data.element() != spec.element {
            return Err(RuntimeError::FieldTypeMismatch {
                name: spec.name.clone(),
                expected: spec.element.name().into(),
                found: data.element().name().into(),
            });
        }
        if data.shape != spec.shape || data.values.len() != data.shape.iter().product::<usize>() {
            return Err(RuntimeError::FieldShapeMismatch {
                name: spec.name.clone(),
                expected: spec.shape.clone(),
                found: data.shape.clone(),
            });
        }
        Ok(data)
    }
}

/// Converts a scalar value to the register encoding of its argument type.
impl ScalarType {
    /// `value` as a program with a scalar of this type computes with it: an `f32` rounded to
    /// `f32` (`1e40` is `inf`), an integer given for a float converted, an `iN` read as the
    /// signed `N`-bit number its bits are — what a report shows, rather than the text given.
    pub fn value_as_used(self, value: ScalarValue) -> ScalarValue {
        match (self, value) {
            (ScalarType::F32, ScalarValue::Float(v)) => ScalarValue::Float(f64::from(v as f32)),
            (ScalarType::F32, ScalarValue::Int(v)) => ScalarValue::Float(f64::from(v as f32)),
            (ScalarType::F64, ScalarValue::Int(v)) => ScalarValue::Float(v as f64),
            (ScalarType::Int(w), ScalarValue::Int(v)) => ScalarValue::Int(crate::scalar::sext(v, w)),
            (_, v) => v,
        }
    }
}

pub(crate) fn scalar_bits(name: &str, ty: ScalarType, value: ScalarValue) -> RuntimeResult<u64> {
    use crate::scalar::Elem;
    match (ty, value) {
        (ScalarType::F64, ScalarValue::Float(v)) => Ok(v.to_reg()),
        (ScalarType::F32, ScalarValue::Float(v)) => Ok((v as f32).to_reg()),
        (ScalarType::F64, ScalarValue::Int(v)) => Ok((v as f64).to_reg()),
        (ScalarType::F32, ScalarValue::Int(v)) => Ok((v as f32).to_reg()),
        // Accepted when the value fits the width as a signed or as an unsigned number.
        (ScalarType::Int(w), ScalarValue::Int(v))
            if crate::scalar::sext(v, w) == v || (v >= 0 && crate::scalar::zext(v, w) == v as u64) =>
        {
            Ok(crate::scalar::sext(v, w) as u64)
        }
        _ => Err(RuntimeError::ScalarType { name: name.to_string(), ty: ty.to_string(), value: value.to_string() }),
    }
}

/// Counters of one run.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct RunStats {
    /// Points updated: for a stencil program, the sum of the box sizes of every
    /// `stencil.apply` executed — or for an SOR rewrite (`sor.rewrite`) the sweeps of its
    /// interior it recorded, since each of its masked applies changes part of its box; for a
    /// lowered function, what its `stencil.point_updates` records for the parameters (the
    /// program's count), or without it [`Self::field_stores`].
    pub point_updates: u64,
    /// Values stored into the fields: for a stencil program its statement instances (the box
    /// sizes of every apply executed); for a lowered
    /// function the stores into its field arguments (`memref.store`, `affine.store`,
    /// `memref.copy` elements) — one per statement instance when the lowering stores each
    /// once, one per element and tile when a kernel stages its tile in shared memory. Tests
    /// compare it with the program's point updates to catch instances a lowering drops or
    /// repeats.
    pub field_stores: u64,
    /// Wall-clock seconds of the run (excluding compilation).
    pub seconds: f64,
}

impl RunStats {
    /// Point updates per second.
    pub fn updates_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.point_updates as f64 / self.seconds
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ScalarType, ScalarValue};

    #[test]
    fn reported_scalars_are_the_values_the_program_computes_with() {
        assert_eq!(ScalarType::F32.value_as_used(ScalarValue::Float(1e40)), ScalarValue::Float(f64::INFINITY));
        assert_eq!(ScalarType::F32.value_as_used(ScalarValue::Float(1.4)), ScalarValue::Float(f64::from(1.4f32)));
        assert_eq!(ScalarType::F64.value_as_used(ScalarValue::Float(1.4)), ScalarValue::Float(1.4));
        assert_eq!(ScalarType::F64.value_as_used(ScalarValue::Int(3)), ScalarValue::Float(3.0));
        assert_eq!(ScalarType::Int(8).value_as_used(ScalarValue::Int(255)), ScalarValue::Int(-1));
        assert_eq!(ScalarType::Int(32).value_as_used(ScalarValue::Int(7)), ScalarValue::Int(7));
    }
}
