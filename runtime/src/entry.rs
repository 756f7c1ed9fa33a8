//! Running a module from a [`ProgramState`]: its `stencil.program`, or the `func.func` a
//! lowering made of it (the convention of `docs/runtime.md`):
//!
//! ```mlir
//! func.func @P(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %w: f64, %T: index, %N: index)
//!     attributes {stencil.arg_names = ["A", "B", "w"], stencil.param_names = ["T", "N"],
//!                 stencil.param_mins = [1, 3], stencil.defaults = {N = 64 : i64, T = 10 : i64},
//!                 stencil.field_types = ["[N, N] x f64", "[N, N] x f64"]}
//! ```
//!
//! Fields are the memref arguments, scalars the other named arguments, parameters the
//! trailing `index` arguments. `stencil.param_mins`, `stencil.defaults` and
//! `stencil.field_types` are optional (without field types, every field must be given).

use crate::error::{RuntimeError, RuntimeResult};
use crate::loops::{CompiledModule, MemRef, Memory, Value};
use crate::state::{
    scalar_bits, ArgSpec, FieldSpec, ProgramInterface, ProgramState, RunStats, ScalarSpec, ScalarType, ScalarValue,
};
use crate::stencil::{bind_params, field_shape, scalar_of_attr, scalar_type, CompiledProgram, Progress};
use crate::ElementType;
use std::time::Instant;
use stencil_dialects::stencil::field::parse_field_body;
use stencil_ir::{Attribute, Ir, Module, OpId, Type};

/// What an entry point is.
pub(crate) enum Entry {
    Program(OpId),
    Lowered(OpId),
}

fn top_ops(ir: &Ir, top: OpId) -> Vec<OpId> {
    let mut ops = vec![top];
    ops.extend(ir.regions(top).iter().flat_map(|&r| ir.blocks(r).iter().copied()).flat_map(|b| ir.block_op_iter(b)));
    ops
}

fn sym_name(ir: &Ir, op: OpId) -> &str {
    ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or("")
}

/// The op of entry point `entry` (or the module's only one): its `stencil.program`, or the
/// `func.func` a lowering made of it — what a report about that entry reads its attributes
/// from, in a module that holds several programs.
pub fn entry_op(module: &Module, entry: Option<&str>) -> RuntimeResult<OpId> {
    Ok(match find_entry(module, entry)? {
        Entry::Program(op) | Entry::Lowered(op) => op,
    })
}

pub(crate) fn find_entry(module: &Module, entry: Option<&str>) -> RuntimeResult<Entry> {
    let ir = &module.ir;
    let ops = top_ops(ir, module.top);
    let programs: Vec<OpId> = ops.iter().copied().filter(|&o| ir.op_name(o) == "stencil.program").collect();
    let lowered: Vec<OpId> = ops
        .iter()
        .copied()
        .filter(|&o| ir.op_name(o) == "func.func" && ir.attr(o, "stencil.arg_names").is_some())
        .collect();
    let names = || {
        let all: Vec<String> = programs.iter().chain(&lowered).map(|&o| format!("@{}", sym_name(ir, o))).collect();
        if all.is_empty() {
            "none".to_string()
        } else {
            all.join(", ")
        }
    };
    match entry {
        Some(name) => {
            if let Some(&p) = programs.iter().find(|&&o| sym_name(ir, o) == name) {
                return Ok(Entry::Program(p));
            }
            if let Some(&f) = lowered.iter().find(|&&o| sym_name(ir, o) == name) {
                return Ok(Entry::Lowered(f));
            }
            let plain_func = ops.iter().any(|&o| ir.op_name(o) == "func.func" && sym_name(ir, o) == name);
            Err(RuntimeError::Entry {
                message: if plain_func {
                    format!("function @{name} lacks the 'stencil.arg_names' and 'stencil.param_names' attributes of a lowered stencil program (see docs/runtime.md)")
                } else {
                    format!("no stencil.program or lowered program @{name} in the module (entry points: {})", names())
                },
            })
        }
        None => match (programs.as_slice(), lowered.as_slice()) {
            ([p], _) => Ok(Entry::Program(*p)),
            ([], [f]) => Ok(Entry::Lowered(*f)),
            ([], []) => Err(RuntimeError::Entry {
                message:
                    "the module has no stencil.program and no lowered program (a func.func with stencil.arg_names)"
                        .into(),
            }),
            _ => Err(RuntimeError::Entry {
                message: format!("the module has several entry points ({}); name one", names()),
            }),
        },
    }
}

/// The interface of the module's entry point for the parameters (and, for a lowered
/// function without `stencil.field_types`, the field shapes) in `state`.
pub fn module_interface(module: &Module, entry: Option<&str>, state: &ProgramState) -> RuntimeResult<ProgramInterface> {
    match find_entry(module, entry)? {
        Entry::Program(p) => Ok(CompiledProgram::new(&module.ir, p, &state.params)?.interface().clone()),
        Entry::Lowered(f) => lowered_interface(&module.ir, f, state),
    }
}

/// Runs the module's entry point (`entry`, or the only `stencil.program` or lowered
/// function) on `state`, updating its fields in place.
pub fn run_module(module: &Module, entry: Option<&str>, state: &mut ProgramState) -> RuntimeResult<RunStats> {
    run_module_with_progress(module, entry, state, &mut |_| {})
}

/// [`run_module`] with progress reports while a `stencil.program` runs (lowered functions
/// run without reports).
pub fn run_module_with_progress(
    module: &Module,
    entry: Option<&str>,
    state: &mut ProgramState,
    progress: &mut dyn FnMut(Progress),
) -> RuntimeResult<RunStats> {
    match find_entry(module, entry)? {
        Entry::Program(p) => CompiledProgram::new(&module.ir, p, &state.params)?.run_with_progress(state, progress),
        Entry::Lowered(f) => run_lowered(module, f, state),
    }
}

fn strings(ir: &Ir, op: OpId, attr: &str) -> Option<Vec<String>> {
    match ir.attr(op, attr)? {
        Attribute::Array(items) => items.iter().map(|a| a.as_str().map(str::to_string)).collect(),
        _ => None,
    }
}

fn lowered_interface(ir: &Ir, func: OpId, state: &ProgramState) -> RuntimeResult<ProgramInterface> {
    let location = ir.location(func);
    let name = sym_name(ir, func).to_string();
    let bad =
        |m: String| RuntimeError::unsupported(location, format!("lowered program @{name}: {m} (see docs/runtime.md)"));
    let arg_names = strings(ir, func, "stencil.arg_names")
        .ok_or_else(|| bad("'stencil.arg_names' must be an array of strings".into()))?;
    let param_names = strings(ir, func, "stencil.param_names")
        .ok_or_else(|| bad("'stencil.param_names' must be an array of strings".into()))?;
    let mins: Vec<i64> = match ir.attr(func, "stencil.param_mins") {
        None => vec![0; param_names.len()],
        Some(Attribute::Array(items)) => items.iter().map(Attribute::as_i64).collect::<Option<_>>().unwrap_or_default(),
        Some(a) => a.as_dense_array().map(<[i64]>::to_vec).unwrap_or_default(),
    };
    if mins.len() != param_names.len() {
        return Err(bad("'stencil.param_mins' needs one integer per parameter".into()));
    }
    let default_of = |n: &str| match ir.attr(func, "stencil.defaults") {
        Some(Attribute::Dictionary(d)) => stencil_ir::attributes::get_named(d, n).cloned(),
        _ => None,
    };
    let defaults: Vec<Option<i64>> = param_names.iter().map(|n| default_of(n).and_then(|a| a.as_i64())).collect();
    let values = bind_params(&param_names, &mins, &defaults, &state.params)?;
    let params: Vec<(String, i64)> = param_names.iter().cloned().zip(values).collect();
    let fn_type = ir
        .attr(func, "function_type")
        .and_then(Attribute::as_type)
        .and_then(Type::as_function)
        .ok_or_else(|| bad("it has no function type".into()))?;
    if fn_type.inputs.len() != arg_names.len() + param_names.len() {
        return Err(bad(format!(
            "it takes {} arguments, but names {} arguments and {} parameters",
            fn_type.inputs.len(),
            arg_names.len(),
            param_names.len()
        )));
    }
    if fn_type.inputs[arg_names.len()..].iter().any(|t| !t.is_index()) {
        return Err(bad("parameters must be trailing 'index' arguments".into()));
    }
    let field_types = strings(ir, func, "stencil.field_types");
    let mut interface = ProgramInterface { name: name.clone(), params, fields: vec![], scalars: vec![], args: vec![] };
    for (arg_name, ty) in arg_names.iter().zip(&fn_type.inputs) {
        if let Some(m) = ty.as_memref() {
            let element = match &m.element {
                Type::Float(k) => ElementType::from_float_kind(*k),
                _ => None,
            }
            .ok_or_else(|| bad(format!("field '{arg_name}' must be a memref of f32 or f64")))?;
            let index = interface.fields.len();
            let shape = match field_types.as_ref().and_then(|t| t.get(index)) {
                Some(text) => {
                    let ft =
                        parse_field_body(text).map_err(|e| bad(format!("stencil.field_types entry '{text}': {e}")))?;
                    field_shape(arg_name, &ft.shape, &interface.params)?
                }
                None => {
                    state.fields.get(arg_name).map(|f| f.shape.clone()).ok_or_else(|| RuntimeError::MissingField {
                        name: arg_name.clone(),
                        shape: vec![],
                        element: format!(
                            "{} (its shape is unknown: @{} has no stencil.field_types)",
                            element.name(),
                            interface.name
                        ),
                    })?
                }
            };
            interface.args.push(ArgSpec::Field(index));
            interface.fields.push(FieldSpec { name: arg_name.clone(), shape, element });
        } else {
            let sty =
                scalar_type(ty).ok_or_else(|| bad(format!("argument '{arg_name}' has unsupported type '{ty}'")))?;
            let default = default_of(arg_name).as_ref().and_then(scalar_of_attr);
            interface.args.push(ArgSpec::Scalar(interface.scalars.len()));
            interface.scalars.push(ScalarSpec { name: arg_name.clone(), ty: sty, default });
        }
    }
    Ok(interface)
}

/// The point updates `stencil.point_updates` records for the interface's parameters
/// (`None` without the attribute; `stencil_dialects::stencil::updates` says how they count).
fn recorded_point_updates(ir: &Ir, func: OpId, interface: &ProgramInterface) -> RuntimeResult<Option<u64>> {
    let Some(attr) = ir.attr(func, "stencil.point_updates") else { return Ok(None) };
    let params: Vec<i64> = interface.params.iter().map(|(_, v)| *v).collect();
    match stencil_dialects::stencil::updates::evaluate_point_updates(attr, &params) {
        Some(total) => Ok(Some(total)),
        None => Err(RuntimeError::unsupported(
            ir.location(func),
            format!(
                "lowered program @{}: 'stencil.point_updates' must be an array of arrays of affine maps over the parameters, a lower and an upper map per pair, evaluable for these parameters (see docs/runtime.md)",
                interface.name
            ),
        )),
    }
}

fn scalar_arg(spec: &ScalarSpec, value: ScalarValue) -> RuntimeResult<Value> {
    scalar_bits(&spec.name, spec.ty, value)?;
    Ok(match (spec.ty, value) {
        (ScalarType::F32, ScalarValue::Float(v)) => Value::F32(v as f32),
        (ScalarType::F32, ScalarValue::Int(v)) => Value::F32(v as f32),
        (ScalarType::F64, ScalarValue::Float(v)) => Value::F64(v),
        (ScalarType::F64, ScalarValue::Int(v)) => Value::F64(v as f64),
        (ScalarType::Int(_), ScalarValue::Int(v)) => Value::Int(v),
        (ScalarType::Int(_), ScalarValue::Float(_)) => {
            return Err(RuntimeError::ScalarType {
                name: spec.name.clone(),
                ty: spec.ty.to_string(),
                value: value.to_string(),
            })
        }
    })
}

fn run_lowered(module: &Module, func: OpId, state: &mut ProgramState) -> RuntimeResult<RunStats> {
    run_lowered_with(module, func, state, CompiledModule::new, |compiled, name, values, memory, _| {
        compiled.call(name, values, memory).map(drop)
    })
}

/// Runs lowered function `func` on `state`: checks the state against the function's
/// interface, `compile`s the module, moves the fields into a memory and `call`s the function
/// with them (and the field handles by name), then moves the fields back, also on failure.
pub(crate) fn run_lowered_with<C>(
    module: &Module,
    func: OpId,
    state: &mut ProgramState,
    compile: impl FnOnce(&Ir, OpId) -> RuntimeResult<C>,
    call: impl FnOnce(&C, &str, &[Value], &mut Memory, &[(String, MemRef)]) -> RuntimeResult<()>,
) -> RuntimeResult<RunStats> {
    let ir = &module.ir;
    let interface = lowered_interface(ir, func, state)?;
    let recorded = recorded_point_updates(ir, func, &interface)?;
    interface.check_names(state)?;
    for spec in &interface.fields {
        interface.check_field(spec, state)?;
    }
    let mut args = vec![];
    for arg in &interface.args {
        if let ArgSpec::Scalar(i) = arg {
            let spec = &interface.scalars[*i];
            args.push(Some(scalar_arg(spec, interface.scalar_value(spec, state)?)?));
        } else {
            args.push(None);
        }
    }
    let compiled = compile(ir, module.top)?;
    let mut memory = Memory::new();
    let mut handles = vec![];
    for spec in &interface.fields {
        if let Some(data) = state.fields.remove(&spec.name) {
            handles.push((spec.name.clone(), memory.insert_caller_field(data)));
        }
    }
    let mut fields = handles.iter().map(|(_, h)| Value::MemRef(*h));
    let mut values: Vec<Value> =
        args.into_iter().map(|a| a.or_else(|| fields.next())).collect::<Option<_>>().unwrap_or_default();
    values.extend(interface.params.iter().map(|(_, v)| Value::Int(*v)));
    let start = Instant::now();
    let result = call(&compiled, &interface.name, &values, &mut memory, &handles);
    let seconds = start.elapsed().as_secs_f64();
    let field_stores = handles.iter().map(|(_, h)| memory.stores(*h)).sum();
    let point_updates = recorded.unwrap_or(field_stores);
    let mut lost = vec![];
    for (name, h) in handles {
        match memory.take_field(h) {
            Some(data) => {
                state.fields.insert(name, data);
            }
            None => lost.push(name),
        }
    }
    result?;
    // Freeing a field argument is refused where it happens; this keeps any other way of
    // losing one from passing as a successful run with fewer fields.
    if !lost.is_empty() {
        return Err(RuntimeError::Entry {
            message: format!(
                "lowered program @{}: the run lost field(s) {}; a lowered program must leave its field arguments to the caller",
                interface.name,
                lost.join(", ")
            ),
        });
    }
    Ok(RunStats { point_updates, field_stores, seconds })
}
