//! `stencil-run` on an affine input: a file whose entry point is a plain `func.func` of
//! `affine` loops (what another MLIR compiler hands us) rather than a `stencil.program`.
//!
//! The function is raised (`raise-affine-to-stencil`, strictly: every nest must become a
//! program) into exactly one program, which then runs like any other — its fields are the
//! function's memref arguments, named `argK` after their position as MLIR prints them,
//! initialised by `--init`; its parameters the integer arguments the loops are bounded by
//! (`--param argK=…`). `--check` runs the *original* function on the reference interpreter of
//! the upstream subset, with the same fields and parameters bound to its arguments, and
//! compares: the un-raised execution is the reference.

use super::RunError;
use crate::opt::Registries;
use stencil_ir::ir::OpId;
use stencil_ir::{Attribute, Module, SourceFile, Type};
use stencil_passes::raise::{argument_roles, raise_function, ArgumentRole, RaiseOptions};
use stencil_runtime::loops::{CompiledModule, Memory, Value};
use stencil_runtime::{FieldData, FieldValues, ProgramState, RunStats, ScalarValue};

/// An affine input, raised.
pub struct AffineInput {
    /// The function that was raised (the original entry point).
    pub function: String,
    /// The module with the function raised: the program and the function calling it.
    pub raised: Module,
    /// The raised program's name (the entry point of the runs).
    pub program: String,
    /// Per argument of the function, what it is to the program.
    pub roles: Vec<ArgumentRole>,
    /// Scalars of the program that are the value of a parameter (an integer argument both
    /// bounds the loops and enters the arithmetic): `(scalar, parameter)`. A run sets them
    /// from the parameter, as the function does.
    pub tied: Vec<(String, String)>,
    /// The parameters that stand for an integer argument narrower than `index`: (argument
    /// position, parameter, bits).
    pub param_widths: Vec<(usize, String, u32)>,
    /// Per field whose memref argument has static sizes, those sizes (`None` for a dynamic
    /// dimension). The raise sizes a field by what the loops reach (`memref<?x40xf64>` read up
    /// to `%n`: extent `n`) and guards the call with `n <= 40`; the original function then
    /// runs on a memref of the static size with the field in its leading corner.
    pub static_sizes: Vec<(String, Vec<Option<usize>>)>,
    /// The condition under which the function runs the raised program (the `affine.if` the
    /// raise put around the call: minimums, static sizes, no wrapping of a bound the function
    /// computes), with the program parameter of each of its operands. Elsewhere the function
    /// runs its own loops, so a run of the program there would not be the function's.
    pub guard: Option<(stencil_ir::affine::IntegerSet, Vec<String>)>,
    /// The program's parameters with their declared minimums (a value below one is reported
    /// as such where parameters are bound, not as a failed guard).
    pub minimums: Vec<(String, i64)>,
    /// Fields that are the function's own buffers (`memref.alloc`/`alloca`, the raise's
    /// `bufferK`), not arguments: a run starts them at zero, as the function's allocation
    /// does in the interpreter, and `--check` does not compare them (the function's caller
    /// never sees them).
    pub local_fields: Vec<String>,
}

impl AffineInput {
    /// An error where the parameters fail the call's guard ([`AffineInput::guard`]).
    pub fn check_guard(&self, params: &std::collections::BTreeMap<String, i64>) -> Result<(), RunError> {
        let Some((set, names)) = &self.guard else { return Ok(()) };
        if self.minimums.iter().any(|(n, min)| params.get(n).is_some_and(|v| v < min)) {
            return Ok(());
        }
        let values: Option<Vec<i64>> = names.iter().map(|n| params.get(n).copied()).collect();
        // A missing value is reported where parameters are bound.
        let Some(values) = values else { return Ok(()) };
        if set.contains(&[], &values) == Some(true) {
            return Ok(());
        }
        let given: Vec<String> = names.iter().zip(&values).map(|(n, v)| format!("{n}={v}")).collect();
        Err(RunError::new(format!(
            "at {} @{} does not run the raised program: the guard the raise put around the call fails (a parameter below its minimum, a memref's static size exceeded, or a bound the function computes in a narrower integer type wrapping), so the function runs its own loops there and a run of the program would not be the function's",
            given.join(", "),
            self.function
        )))
    }

    /// An error for a `--param` value that does not fit the integer argument it stands for
    /// (`%argK: i32`): the function would compute with the truncated value, the program with
    /// the whole one.
    pub fn check_param_widths(&self, params: &std::collections::BTreeMap<String, i64>) -> Result<(), RunError> {
        for (k, name, width) in &self.param_widths {
            let Some(&value) = params.get(name) else { continue };
            if *width < 64 && !(-(1i64 << (width - 1))..(1i64 << (width - 1))).contains(&value) {
                return Err(RunError::new(format!(
                    "--param {name}={value} does not fit %arg{k} of @{}, an i{width}: the function would run with a truncated value",
                    self.function
                )));
            }
        }
        Ok(())
    }
}

fn top_ops(module: &Module) -> Vec<OpId> {
    let ir = &module.ir;
    ir.regions(module.top).iter().flat_map(|&r| ir.blocks(r).to_vec()).flat_map(|b| ir.block_ops(b)).collect()
}

fn sym_name(module: &Module, op: OpId) -> &str {
    module.ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or("")
}

/// The affine function to run, if `module` is an affine input: no `stencil.program` and no
/// lowered program (a `func.func` with `stencil.arg_names`), and a function with a body —
/// `entry`, or the only one. Raises it into `AffineInput::raised`.
pub fn affine_input(
    module: &Module,
    entry: Option<&str>,
    options: &super::RunOptions,
    registries: &Registries,
    source: &SourceFile,
) -> Result<Option<AffineInput>, RunError> {
    let ir = &module.ir;
    let ops = top_ops(module);
    let stencil_entry = ops.iter().any(|&o| {
        ir.op_name(o) == "stencil.program"
            || (ir.op_name(o) == "func.func" && ir.attr(o, "stencil.arg_names").is_some())
    });
    if stencil_entry {
        return Ok(None);
    }
    let has_body = |o: OpId| ir.regions(o).first().and_then(|&r| ir.entry_block(r)).is_some();
    let funcs: Vec<OpId> = ops.iter().copied().filter(|&o| ir.op_name(o) == "func.func" && has_body(o)).collect();
    let func = match entry {
        Some(name) => match funcs.iter().find(|&&f| sym_name(module, f) == name) {
            Some(&f) => f,
            None => return Ok(None),
        },
        None => match funcs.as_slice() {
            [] => return Ok(None),
            [f] => *f,
            _ => {
                let names: Vec<String> = funcs.iter().map(|&f| format!("@{}", sym_name(module, f))).collect();
                return Err(RunError::new(format!(
                    "the file has several functions ({}); name the one to run with --entry",
                    names.join(", ")
                )));
            }
        },
    };
    let function = sym_name(module, func).to_string();
    let mut raised = module.clone();
    let raise = RaiseOptions { strict: true, assume_no_alias: options.assume_no_alias };
    let report = raise_function(&mut raised.ir, &registries.dialects, func, &raise).map_err(|d| {
        let mut error = RunError::diagnostic(&d, source);
        // The raise runs before --pass-pipeline, with stencil-run's own options.
        let alias = if d.message.contains("assume-no-alias") { "; stencil-run --assume-no-alias gives it the pass's assume-no-alias=true" } else { "" };
        let why = format!(
            "stencil-run runs an affine function by raising it to a stencil program, and @{function} does not raise (above){alias}"
        );
        error.text.push_str(&format!("error: {why}"));
        error.notes.push(crate::run::error::ErrorNote { message: why, location: None });
        error
    })?;
    let [nest] = report.raised.as_slice() else {
        if report.raised.is_empty() {
            // No affine.for nest at all (scf.for loops, or none): nothing was refused either.
            return Err(RunError::diagnostic(
                &stencil_ir::Diagnostic::error(
                    ir.location(func).clone(),
                    format!("stencil-run runs an affine function by raising its affine.for loop nests, and @{function} has none (scf.for loops are not raised: a front end emits them as affine.for where the bounds are affine)"),
                ),
                source,
            ));
        }
        return Err(RunError::new(format!("stencil-run runs an affine function whose loops raise to one stencil program; @{function} has {} loop nests (raise it with stencil-opt --pass-pipeline='builtin.module(raise-affine-to-stencil)' and run the programs one by one with --entry)",
            report.raised.len()
        )));
    };
    // What the function does besides the raised loops, the program would not do.
    let rir = &raised.ir;
    // The function's own buffers the program takes as fields, and what frees them.
    let call_operands = rir.operands(nest.call).to_vec();
    let own_buffer = |v: stencil_ir::ValueId| {
        call_operands.contains(&v)
            && rir.defining_op(v).is_some_and(|d| matches!(rir.op_name(d), "memref.alloc" | "memref.alloca"))
    };
    for op in rir.regions(func).iter().flat_map(|&r| rir.blocks(r).to_vec()).flat_map(|b| rir.block_ops(b)) {
        let name = rir.op_name(op);
        let buffer_op = match name {
            "memref.alloc" | "memref.alloca" => own_buffer(rir.result(op, 0)),
            "memref.dealloc" => own_buffer(rir.operand(op, 0)),
            _ => false,
        };
        if buffer_op {
            continue;
        }
        let harmless = name == "func.return"
            || name == "affine.if"
            || name == "stencil.call"
            || name == "memref.dim"
            // A read changes nothing (a coefficient load hoisted above the nest).
            || name == "affine.load"
            || name == "memref.load"
            || registries.dialects.traits_of(rir, op).pure && rir.regions(op).is_empty();
        if !harmless {
            let why = if matches!(name, "memref.alloc" | "memref.alloca" | "memref.dealloc") {
                format!("stencil-run runs the stencil program raised from @{function} with the function's memref arguments as its fields, and @{function} has a buffer of its own ('{name}'): raise the file with stencil-opt --pass-pipeline='builtin.module(raise-affine-to-stencil)' and run the program, where the buffer is a field of its own")
            } else {
                format!("stencil-run runs the stencil program raised from @{function}, and '{name}' is outside its loops: the program does not do what '{name}' does, so the run would not be the function's")
            };
            return Err(RunError::diagnostic(&stencil_ir::Diagnostic::error(rir.location(op).clone(), why), source));
        }
    }
    let roles = argument_roles(rir, &registries.dialects, func, nest.call).map_err(|e| RunError::new(e.to_string()))?;
    let fn_type = rir.attr(func, "function_type").and_then(Attribute::as_type).and_then(Type::as_function).cloned();
    for (k, role) in roles.iter().enumerate() {
        let ty = fn_type.as_ref().and_then(|f| f.inputs.get(k)).cloned().unwrap_or(Type::Index);
        if *role == ArgumentRole::Unused && ty.as_memref().is_some() {
            return Err(RunError::new(format!(
                "argument %arg{k} of @{function} ('{ty}') is not used by its loops: stencil-run cannot size it"
            )));
        }
    }
    // A field sized by what the loops reach where the memref has a static size (the call is
    // guarded by the size holding it) is the leading corner of that memref in a run.
    let mut static_sizes = vec![];
    let program = top_ops(&raised)
        .into_iter()
        .find(|&o| rir.op_name(o) == "stencil.program" && sym_name(&raised, o) == nest.program);
    // What the program declares: its argument names (fields, then scalars) and parameters.
    let (names, params) = match program {
        Some(p) => {
            (stencil_dialects::stencil::program_arg_names(rir, p), stencil_dialects::stencil::ProgramParams::of(rir, p))
        }
        None => (vec![], stencil_dialects::stencil::ProgramParams::default()),
    };
    if let (Some(program), Some(f)) = (program, fn_type.as_ref()) {
        let types = rir
            .attr(program, "function_type")
            .and_then(Attribute::as_type)
            .and_then(Type::as_function)
            .map(|t| t.inputs.clone())
            .unwrap_or_default();
        for (k, role) in roles.iter().enumerate() {
            let ArgumentRole::Field(name) = role else { continue };
            let Some(field) = names
                .iter()
                .position(|n| n.as_deref() == Some(name.as_str()))
                .and_then(|i| types.get(i))
                .and_then(stencil_dialects::stencil::FieldType::from_type)
            else {
                continue;
            };
            let Some(shape) = f.inputs.get(k).and_then(Type::as_memref).and_then(|m| m.shape.clone()) else { continue };
            let sizes: Vec<Option<usize>> = shape
                .iter()
                .map(|size| match size {
                    stencil_ir::types::Dim::Static(size) => usize::try_from(*size).ok(),
                    _ => None,
                })
                .collect();
            if sizes.len() == field.shape.len() && sizes.iter().any(Option::is_some) {
                static_sizes.push((name.clone(), sizes));
            }
        }
    }
    // Every parameter must be an argument the run can pass: one the function computes from
    // its arguments (`index_cast(%n - 1)` in i32, a product) has no argument to bind.
    {
        let bound: std::collections::HashSet<&str> =
            roles.iter().filter_map(|r| if let ArgumentRole::Param(p) = r { Some(p.as_str()) } else { None }).collect();
        for (k, name) in params.names.iter().enumerate() {
            let defining = rir.operands(nest.call).get(names.len() + k).and_then(|&v| rir.defining_op(v));
            // A memref's size is bound with the field's shape.
            let a_size = defining.is_some_and(|op| rir.op_name(op) == "memref.dim");
            if bound.contains(name.as_str()) || a_size {
                continue;
            }
            // Past a cast, the op that computes it (`arith.subi` of C's `n - 1` in i32).
            let computing = defining.map(|op| match rir.op_name(op) {
                "arith.index_cast" | "arith.index_castui" => rir.defining_op(rir.operand(op, 0)).unwrap_or(op),
                _ => op,
            });
            let computed = computing.map_or_else(|| "a value".to_string(), |op| format!("'{}'", rir.op_name(op)));
            return Err(RunError::diagnostic(
                &stencil_ir::Diagnostic::error(
                    rir.location(nest.call).clone(),
                    format!("parameter '{name}' of the program raised from @{function} is computed by {computed} in the function, not one of its arguments: stencil-run binds parameters to arguments, so it cannot run @{function} (raise it with stencil-opt --pass-pipeline='builtin.module(raise-affine-to-stencil)' and run the program, giving '{name}' with --param)"),
                ),
                source,
            ));
        }
    }
    stencil_ir::verifier::verify(rir, &registries.dialects, raised.top, options.allow_unregistered)
        .map_err(|d| RunError::diagnostic(&d, source))?;
    // Scalar operands that are (casts of) an argument the program also takes as a parameter.
    let mut tied = vec![];
    {
        let entry = rir.regions(func).first().and_then(|&r| rir.entry_block(r));
        let args = entry.map(|b| rir.block_args(b).to_vec()).unwrap_or_default();
        for (k, &operand) in rir.operands(nest.call).iter().enumerate().take(names.len()) {
            if rir.value_type(operand).as_memref().is_some() {
                continue;
            }
            let source = rir
                .defining_op(operand)
                .filter(|&d| matches!(rir.op_name(d), "arith.index_cast" | "arith.index_castui"))
                .map_or(operand, |d| rir.operand(d, 0));
            if let Some(position) = args.iter().position(|&a| a == source) {
                if let (Some(ArgumentRole::Param(p)), Some(Some(scalar))) = (roles.get(position), names.get(k)) {
                    tied.push((scalar.clone(), p.clone()));
                }
            }
        }
    }
    let param_widths = roles
        .iter()
        .enumerate()
        .filter_map(|(k, role)| {
            let ArgumentRole::Param(name) = role else { return None };
            let width = fn_type.as_ref().and_then(|f| f.inputs.get(k)).and_then(Type::bit_width)?;
            Some((k, name.clone(), width))
        })
        .collect();
    let guard = call_guard(rir, nest.call, names.len(), &params.names);
    let local_fields =
        call_operands.iter().zip(&names).filter(|(&v, _)| own_buffer(v)).filter_map(|(_, name)| name.clone()).collect();
    let minimums = params.names.iter().cloned().zip(params.mins.iter().copied()).collect();
    Ok(Some(AffineInput {
        function,
        program: nest.program.clone(),
        raised,
        roles,
        tied,
        param_widths,
        static_sizes,
        guard,
        minimums,
        local_fields,
    }))
}

/// Runs the original (un-raised) affine function of `input` in `module` on the reference
/// interpreter of the upstream subset, with its arguments bound from `state` (fields moved in
/// and back, parameters and scalars by name).
pub fn run_original(module: &Module, input: &AffineInput, state: &mut ProgramState) -> Result<RunStats, RunError> {
    let ir = &module.ir;
    // The function makes its own buffers: the reference has none to compare.
    for name in &input.local_fields {
        state.fields.remove(name);
    }
    let func = top_ops(module)
        .into_iter()
        .find(|&o| ir.op_name(o) == "func.func" && sym_name(module, o) == input.function)
        .ok_or_else(|| RunError::new(format!("@{} disappeared", input.function)))?;
    let inputs = ir
        .attr(func, "function_type")
        .and_then(Attribute::as_type)
        .and_then(Type::as_function)
        .map(|f| f.inputs.clone())
        .unwrap_or_default();
    let compiled = CompiledModule::for_entry(ir, module.top, &input.function)?;
    let mut memory = Memory::new();
    // Per field: its buffer, and its own shape where the buffer is larger (a static size).
    let mut handles: Vec<(String, stencil_runtime::loops::MemRef, Option<Vec<usize>>)> = vec![];
    let mut args = vec![];
    let scalar = |name: &str, ty: &Type, value: Option<ScalarValue>| -> Result<Value, RunError> {
        let value = value.ok_or_else(|| RunError::new(format!("no value for '{name}' (give --param or --scalar)")))?;
        Ok(match (ty, value) {
            (Type::Float(k), v) if k.width() == 32 => Value::F32(match v {
                ScalarValue::Float(f) => f as f32,
                ScalarValue::Int(i) => i as f32,
            }),
            (Type::Float(_), v) => Value::F64(match v {
                ScalarValue::Float(f) => f,
                ScalarValue::Int(i) => i as f64,
            }),
            (_, ScalarValue::Int(i)) => Value::Int(i),
            (_, ScalarValue::Float(_)) => {
                return Err(RunError::new(format!("'{name}' is an integer argument, not a float")));
            }
        })
    };
    let mut result = Ok(());
    for (k, (role, ty)) in input.roles.iter().zip(&inputs).enumerate() {
        let value = match role {
            ArgumentRole::Field(name) => match state.fields.remove(name) {
                Some(data) => {
                    let sizes = input.static_sizes.iter().find(|(f, _)| f == name).map(|(_, s)| s.as_slice());
                    let (data, corner) = match sizes.map(|sizes| embed(&data, sizes, name, k)) {
                        None => (data, None),
                        Some(Ok(padded)) => (padded, Some(data.shape.clone())),
                        Some(Err(e)) => {
                            state.fields.insert(name.clone(), data);
                            result = Err(e);
                            break;
                        }
                    };
                    let h = memory.insert_field(data);
                    handles.push((name.clone(), h, corner));
                    Value::MemRef(h)
                }
                None => {
                    result = Err(RunError::new(format!("field '{name}' has no data")));
                    break;
                }
            },
            ArgumentRole::Param(name) => match scalar(name, ty, state.params.get(name).map(|&v| ScalarValue::Int(v))) {
                Ok(v) => v,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            },
            ArgumentRole::Scalar(name) => match scalar(name, ty, state.scalars.get(name).copied()) {
                Ok(v) => v,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            },
            ArgumentRole::Unused => {
                if ty.is_float() {
                    Value::F64(0.0)
                } else if ty.as_memref().is_some() {
                    result = Err(RunError::new(format!("argument %arg{k} is an unused memref")));
                    break;
                } else {
                    Value::Int(0)
                }
            }
        };
        args.push(value);
    }
    let start = std::time::Instant::now();
    if result.is_ok() {
        result = compiled.call(&input.function, &args, &mut memory).map(drop).map_err(RunError::from);
    }
    let seconds = start.elapsed().as_secs_f64();
    let point_updates = handles.iter().map(|(_, h, _)| memory.stores(*h)).sum();
    for (name, h, corner) in handles {
        if let Some(data) = memory.take_field(h) {
            let data = match corner {
                Some(shape) => leading_corner(&data, &shape),
                None => data,
            };
            state.fields.insert(name, data);
        }
    }
    result?;
    Ok(RunStats { point_updates, field_stores: point_updates, seconds })
}

/// `field` in the leading corner of a buffer whose static dimensions have `sizes` (dynamic ones
/// keep the field's extent), the rest zero: the memref the original function takes. An error
/// where the field is larger than a static size (the function would run past its memref).
fn embed(field: &FieldData, sizes: &[Option<usize>], name: &str, arg: usize) -> Result<FieldData, RunError> {
    let mut shape = field.shape.clone();
    for (d, (extent, size)) in shape.iter_mut().zip(sizes).enumerate() {
        let Some(size) = *size else { continue };
        if *extent > size {
            return Err(RunError::new(format!(
                "field {name} has extent {extent} in dimension {d}, more than the static size {size} of %arg{arg} there: the parameters make the function's loops reach past its memref"
            )));
        }
        *extent = size;
    }
    let count = stencil_runtime::element_count(&shape)
        .ok_or_else(|| RunError::new(format!("the memref of field {name} has too many elements")))?;
    let values = match &field.values {
        FieldValues::F32(v) => FieldValues::F32(copy_corner(v, &field.shape, &shape, vec![0.0; count])),
        FieldValues::F64(v) => FieldValues::F64(copy_corner(v, &field.shape, &shape, vec![0.0; count])),
    };
    Ok(FieldData { shape, values })
}

/// The leading corner of shape `shape` of `padded` (what [`embed`] put there).
fn leading_corner(padded: &FieldData, shape: &[usize]) -> FieldData {
    let count = shape.iter().product();
    let values = match &padded.values {
        FieldValues::F32(v) => FieldValues::F32(copy_corner(v, &padded.shape, shape, vec![0.0; count])),
        FieldValues::F64(v) => FieldValues::F64(copy_corner(v, &padded.shape, shape, vec![0.0; count])),
    };
    FieldData { shape: shape.to_vec(), values }
}

/// Copies the common leading corner of `from` (row-major, shape `from_shape`) into `into`
/// (row-major, shape `into_shape`), row by row.
fn copy_corner<T: Copy>(from: &[T], from_shape: &[usize], into_shape: &[usize], mut into: Vec<T>) -> Vec<T> {
    let common: Vec<usize> = from_shape.iter().zip(into_shape).map(|(a, b)| *a.min(b)).collect();
    let Some((&row, outer)) = common.split_last() else {
        // Rank 0: the one element.
        if let (Some(x), Some(y)) = (from.first(), into.first_mut()) {
            *y = *x;
        }
        return into;
    };
    if row == 0 || outer.contains(&0) {
        return into;
    }
    let strides = |shape: &[usize]| -> Vec<usize> {
        let mut s = vec![1usize; shape.len()];
        for d in (0..shape.len().saturating_sub(1)).rev() {
            s[d] = s[d + 1] * shape[d + 1];
        }
        s
    };
    let (from_strides, into_strides) = (strides(from_shape), strides(into_shape));
    let mut index = vec![0usize; outer.len()];
    loop {
        let start = |strides: &[usize]| index.iter().zip(strides).map(|(i, s)| i * s).sum::<usize>();
        let (a, b) = (start(&from_strides), start(&into_strides));
        into[b..b + row].copy_from_slice(&from[a..a + row]);
        // The next row: the odometer over the outer dimensions.
        let mut d = outer.len();
        loop {
            if d == 0 {
                return into;
            }
            d -= 1;
            index[d] += 1;
            if index[d] < outer[d] {
                break;
            }
            index[d] = 0;
        }
    }
}

/// The guard around the raised `call` (its `affine.if`) with, per operand of the condition, the
/// program parameter the call passes the same value as (the call passes `n_args` fields and
/// scalars, then the parameters `names`); `None` without a guard or where an operand is not a
/// parameter of the call.
fn call_guard(
    ir: &stencil_ir::Ir,
    call: OpId,
    n_args: usize,
    names: &[String],
) -> Option<(stencil_ir::affine::IntegerSet, Vec<String>)> {
    let guard = ir.parent_op(call).filter(|&op| ir.op_name(op) == "affine.if")?;
    let set = ir.attr(guard, "condition").and_then(Attribute::as_integer_set)?.clone();
    let passed = ir.operands(call).get(n_args..)?.to_vec();
    let operands: Option<Vec<String>> = ir
        .operands(guard)
        .iter()
        .map(|v| passed.iter().position(|p| p == v).and_then(|k| names.get(k).cloned()))
        .collect();
    Some((set, operands?))
}
