//! Binding a `stencil.program` to parameter values: each parameter gets its value (given,
//! else the program's default) checked against its declared minimum, and every field its
//! concrete shape.

use crate::error::{RuntimeError, RuntimeResult};
use crate::field::{element_count, ElementType};
use crate::scalar::{value_kind, ValueKind};
use crate::state::{ArgSpec, FieldSpec, ProgramInterface, ScalarSpec, ScalarType, ScalarValue};
use std::collections::BTreeMap;
use stencil_dialects::stencil::{program_arg_names, scalar_default, FieldType, ParamExpr, ProgramParams};
use stencil_ir::{Attribute, Ir, Location, OpId, Type};

/// Resolves parameter values in declaration order: `given` overrides `defaults`; a missing
/// value, an unknown name or a value below its minimum is an error.
pub(crate) fn bind_params(
    names: &[String],
    mins: &[i64],
    defaults: &[Option<i64>],
    given: &BTreeMap<String, i64>,
) -> RuntimeResult<Vec<i64>> {
    if let Some(unknown) = given.keys().find(|k| !names.contains(k)) {
        return Err(RuntimeError::UnknownName {
            what: "parameter",
            name: unknown.clone(),
            declared: if names.is_empty() { "no parameters".into() } else { names.join(", ") },
        });
    }
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let value = given
                .get(name)
                .copied()
                .or(defaults.get(i).copied().flatten())
                .ok_or_else(|| RuntimeError::MissingParam { name: name.clone() })?;
            let min = mins.get(i).copied().unwrap_or(0);
            if value < min {
                return Err(RuntimeError::ParamBelowMinimum { name: name.clone(), value, min });
            }
            Ok(value)
        })
        .collect()
}

/// The concrete shape of field `name` with extents `shape` for the given parameter values.
pub(crate) fn field_shape(name: &str, shape: &[ParamExpr], params: &[(String, i64)]) -> RuntimeResult<Vec<usize>> {
    let value_of = |n: &str| params.iter().find(|(p, _)| p == n).map(|(_, v)| *v);
    let dims = shape
        .iter()
        .enumerate()
        .map(|(dim, e)| {
            let v = e.eval(&value_of);
            match v.and_then(|v| usize::try_from(v).ok()).filter(|&v| v > 0) {
                Some(v) => Ok(v),
                None => Err(RuntimeError::NonPositiveExtent {
                    field: name.to_string(),
                    dim,
                    extent: e.to_string(),
                    value: v.map_or("out of range".to_string(), |v| v.to_string()),
                }),
            }
        })
        .collect::<RuntimeResult<Vec<usize>>>()?;
    if element_count(&dims).is_none() {
        return Err(RuntimeError::InvalidData { message: format!("field '{name}' of shape {dims:?} is too large") });
    }
    Ok(dims)
}

/// The scalar type of an argument type.
pub(crate) fn scalar_type(ty: &Type) -> Option<ScalarType> {
    match value_kind(ty)? {
        ValueKind::F32 => Some(ScalarType::F32),
        ValueKind::F64 => Some(ScalarType::F64),
        ValueKind::Int(w) => Some(ScalarType::Int(w)),
        ValueKind::MemRef => None,
    }
}

/// A default value attribute as a scalar value.
pub(crate) fn scalar_of_attr(attr: &Attribute) -> Option<ScalarValue> {
    match attr {
        Attribute::Float { value, .. } => Some(ScalarValue::Float(*value)),
        Attribute::Integer { value, .. } => i64::try_from(*value).ok().map(ScalarValue::Int),
        Attribute::Bool(b) => Some(ScalarValue::Int(i64::from(*b))),
        _ => None,
    }
}

/// Builds the interface of program `program` for the given parameter values.
pub(crate) fn program_interface(
    ir: &Ir,
    program: OpId,
    given: &BTreeMap<String, i64>,
) -> RuntimeResult<ProgramInterface> {
    let location = ir.location(program);
    let malformed = |m: &str| RuntimeError::unsupported(location, format!("malformed stencil.program: {m}"));
    let name = ir.attr(program, "sym_name").and_then(Attribute::as_str).unwrap_or("").to_string();
    let declared = ProgramParams::of(ir, program);
    let values = bind_params(&declared.names, &declared.mins, &declared.defaults, given)?;
    let params: Vec<(String, i64)> = declared.names.iter().cloned().zip(values).collect();
    let entry =
        ir.regions(program).first().and_then(|&r| ir.entry_block(r)).ok_or_else(|| malformed("it has no body"))?;
    let arg_names = program_arg_names(ir, program);
    let args = ir.block_args(entry);
    if arg_names.len() != args.len() {
        return Err(malformed("'arg_names' must name every argument"));
    }
    let mut interface = ProgramInterface { name, params, fields: vec![], scalars: vec![], args: vec![] };
    for (&arg, arg_name) in args.iter().zip(&arg_names) {
        let arg_name = arg_name.clone().ok_or_else(|| malformed("'arg_names' must be strings"))?;
        let ty = ir.value_type(arg);
        if let Some(field) = FieldType::from_type(ty) {
            let element = ElementType::from_float_kind(field.element)
                .ok_or_else(|| malformed(&format!("field '{arg_name}' must hold f32 or f64")))?;
            let shape = field_shape(&arg_name, &field.shape, &interface.params)?;
            interface.args.push(ArgSpec::Field(interface.fields.len()));
            interface.fields.push(FieldSpec { name: arg_name, shape, element });
        } else {
            let sty = scalar_type(ty).ok_or_else(|| {
                RuntimeError::unsupported(location, format!("argument '{arg_name}' has unsupported type '{ty}'"))
            })?;
            let default = scalar_default(ir, program, &arg_name).as_ref().and_then(scalar_of_attr);
            interface.args.push(ArgSpec::Scalar(interface.scalars.len()));
            interface.scalars.push(ScalarSpec { name: arg_name, ty: sty, default });
        }
    }
    Ok(interface)
}

/// Evaluates the single-result bound maps of iterate/apply ops (symbols = parameters).
pub(crate) fn eval_bounds(
    ir: &Ir,
    op: OpId,
    attr: &str,
    params: &[i64],
    location: &Location,
) -> RuntimeResult<Vec<i64>> {
    let map = ir
        .attr(op, attr)
        .and_then(Attribute::as_affine_map)
        .ok_or_else(|| RuntimeError::unsupported(location, format!("'{}' has no '{attr}' map", ir.op_name(op))))?;
    map.eval(&[], params).ok_or_else(|| {
        RuntimeError::unsupported(
            location,
            format!("'{attr}' of '{}' cannot be evaluated for these parameters", ir.op_name(op)),
        )
    })
}
