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
use stencil_runtime::{ProgramState, RunStats, ScalarValue};

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
}

impl AffineInput {
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
    for op in rir.regions(func).iter().flat_map(|&r| rir.blocks(r).to_vec()).flat_map(|b| rir.block_ops(b)) {
        let name = rir.op_name(op);
        let harmless = name == "func.return"
            || name == "affine.if"
            || name == "stencil.call"
            || name == "memref.dim"
            || registries.dialects.traits_of(rir, op).pure && rir.regions(op).is_empty();
        if !harmless {
            return Err(RunError::diagnostic(
                &stencil_ir::Diagnostic::error(
                    rir.location(op).clone(),
                    format!("stencil-run runs the stencil program raised from @{function}, and '{name}' is outside its loops: the program would not do what it does"),
                ),
                source,
            ));
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
    // guarded by the size holding it) cannot stand for that memref in a run.
    let program = top_ops(&raised)
        .into_iter()
        .find(|&o| rir.op_name(o) == "stencil.program" && sym_name(&raised, o) == nest.program);
    if let (Some(program), Some(f)) = (program, fn_type.as_ref()) {
        let names = stencil_dialects::stencil::program_arg_names(rir, program);
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
            for (d, (size, extent)) in shape.iter().zip(&field.shape).enumerate() {
                if let stencil_ir::types::Dim::Static(size) = size {
                    if !(extent.terms.is_empty() && extent.constant == *size) {
                        return Err(RunError::new(format!("field {name} of the raised program has extent {extent} in dimension {d}, but %arg{k} of @{function} has the static size {size} there (the raise sized the field by what the loops reach and guards the call with it): stencil-run cannot bind one to the other; give the memref a dynamic size, or bounds within the static size"
                        )));
                    }
                }
            }
        }
    }
    stencil_ir::verifier::verify(rir, &registries.dialects, raised.top, options.allow_unregistered)
        .map_err(|d| RunError::diagnostic(&d, source))?;
    // Scalar operands that are (casts of) an argument the program also takes as a parameter.
    let mut tied = vec![];
    if let Some(program) = program {
        let names = stencil_dialects::stencil::program_arg_names(rir, program);
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
    Ok(Some(AffineInput { function, program: nest.program.clone(), raised, roles, tied, param_widths }))
}

/// Runs the original (un-raised) affine function of `input` in `module` on the reference
/// interpreter of the upstream subset, with its arguments bound from `state` (fields moved in
/// and back, parameters and scalars by name).
pub fn run_original(module: &Module, input: &AffineInput, state: &mut ProgramState) -> Result<RunStats, RunError> {
    let ir = &module.ir;
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
    let compiled = CompiledModule::new(ir, module.top)?;
    let mut memory = Memory::new();
    let mut handles: Vec<(String, stencil_runtime::loops::MemRef)> = vec![];
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
                    let h = memory.insert_field(data);
                    handles.push((name.clone(), h));
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
    let point_updates = handles.iter().map(|(_, h)| memory.stores(*h)).sum();
    for (name, h) in handles {
        if let Some(data) = memory.take_field(h) {
            state.fields.insert(name, data);
        }
    }
    result?;
    Ok(RunStats { point_updates, field_stores: point_updates, seconds })
}
