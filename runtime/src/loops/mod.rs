//! Interpreter for the upstream subset later lowerings produce: `func` (func/return/call),
//! `arith`, `math`, `memref` (alloc/alloca/dealloc/load/store/dim/copy/cast), `scf`
//! (for with iter_args, if, parallel with reduce, while) and `affine` (for with max/min
//! bounds, if, load, store, apply, min, max, parallel with reductions).
//!
//! Each function is compiled once ([`CompiledModule::new`]) into a step tree over a register
//! frame (`steps.rs`); running it never looks at the IR again. Parallel loops run
//! sequentially in lexicographic order, which is one of their legal executions.
//! `memref.alloca` buffers live until the allocating call returns.

pub(crate) mod affine_eval;
pub(crate) mod compile;
pub(crate) mod exec;
pub(crate) mod memory;
pub(crate) mod steps;

pub use memory::{MemRef, Memory};

use crate::error::{Loc, RuntimeError, RuntimeResult};
use crate::scalar::{sext, value_kind, Elem, ValueKind};
use std::collections::HashMap;
use stencil_ir::{Attribute, Ir, OpId, Type};

/// A value passed to or returned from a function.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer or `index` (passed to an `iN` parameter it must fit in N bits).
    Int(i64),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// A buffer.
    MemRef(MemRef),
}

/// The `func.func` ops with a body directly inside `module`.
fn functions_with_bodies(ir: &Ir, module: OpId) -> Vec<OpId> {
    ir.regions(module)
        .iter()
        .flat_map(|&r| ir.blocks(r).iter().copied())
        .flat_map(|b| ir.block_op_iter(b))
        .filter(|&op| {
            ir.op_name(op) == "func.func" && ir.regions(op).first().is_some_and(|&r| ir.entry_block(r).is_some())
        })
        .collect()
}

/// Every function of a module, compiled.
#[derive(Clone, Debug)]
pub struct CompiledModule {
    funcs: Vec<steps::Function>,
    by_name: HashMap<String, usize>,
}

impl CompiledModule {
    /// Compiles every `func.func` with a body directly inside `module` (a `builtin.module`).
    pub fn new(ir: &Ir, module: OpId) -> RuntimeResult<Self> {
        Self::with_kernels(ir, module, &HashMap::new())
    }

    /// Compiles the function `entry` of `module` and the functions it calls, directly or not:
    /// what running `entry` needs, so that another function of the file the interpreter does
    /// not support (a front end's `main` with unranked memrefs) does not stop it.
    pub fn for_entry(ir: &Ir, module: OpId, entry: &str) -> RuntimeResult<Self> {
        let funcs = functions_with_bodies(ir, module);
        let name_of = |op: OpId| ir.attr(op, "sym_name").and_then(Attribute::as_str);
        let mut wanted: Vec<OpId> = funcs.iter().copied().filter(|&f| name_of(f) == Some(entry)).collect();
        let mut next = 0;
        while let Some(&f) = wanted.get(next) {
            next += 1;
            let mut callees = vec![];
            ir.walk(f, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
                if ir.op_name(op) == "func.call" {
                    callees.extend(ir.attr(op, "callee").and_then(Attribute::as_flat_symbol).map(str::to_string));
                }
            });
            for &g in &funcs {
                if name_of(g).is_some_and(|n| callees.iter().any(|c| c == n)) && !wanted.contains(&g) {
                    wanted.push(g);
                }
            }
        }
        Self::compile(ir, &wanted, &HashMap::new())
    }

    /// [`CompiledModule::new`] for host code whose `gpu.launch_func` ops launch `kernels`
    /// (by `module::kernel` name), run through [`CompiledModule::call_with_launcher`].
    pub(crate) fn with_kernels(
        ir: &Ir,
        module: OpId,
        kernels: &HashMap<String, compile::KernelSignature>,
    ) -> RuntimeResult<Self> {
        Self::compile(ir, &functions_with_bodies(ir, module), kernels)
    }

    fn compile(ir: &Ir, ops: &[OpId], kernels: &HashMap<String, compile::KernelSignature>) -> RuntimeResult<Self> {
        let by_name: HashMap<String, usize> = ops
            .iter()
            .enumerate()
            .filter_map(|(i, &op)| ir.attr(op, "sym_name").and_then(Attribute::as_str).map(|n| (n.to_string(), i)))
            .collect();
        let funcs = ops
            .iter()
            .map(|&op| compile::compile_function(ir, op, &by_name, kernels))
            .collect::<RuntimeResult<Vec<_>>>()?;
        tracing::debug!(functions = funcs.len(), "compiled module for the loop interpreter");
        Ok(CompiledModule { funcs, by_name })
    }

    /// Names of the compiled functions.
    pub fn function_names(&self) -> Vec<&str> {
        self.funcs.iter().map(|f| f.name.as_str()).collect()
    }

    /// Argument and result types of function `name`.
    pub fn signature(&self, name: &str) -> Option<(&[Type], &[Type])> {
        let f = &self.funcs[*self.by_name.get(name)?];
        Some((&f.arg_types, &f.result_types))
    }

    /// Calls function `name` with `args`; buffers live in `memory` (put fields there with
    /// [`Memory::insert_field`] and take them back with [`Memory::take_field`]).
    pub fn call(&self, name: &str, args: &[Value], memory: &mut Memory) -> RuntimeResult<Vec<Value>> {
        self.call_inner(name, args, memory, None)
    }

    /// [`CompiledModule::call`] with kernel launches going to `launcher`.
    pub(crate) fn call_with_launcher(
        &self,
        name: &str,
        args: &[Value],
        memory: &mut Memory,
        launcher: &mut dyn exec::KernelLauncher,
    ) -> RuntimeResult<Vec<Value>> {
        self.call_inner(name, args, memory, Some(launcher))
    }

    fn call_inner(
        &self,
        name: &str,
        args: &[Value],
        memory: &mut Memory,
        launcher: Option<&mut dyn exec::KernelLauncher>,
    ) -> RuntimeResult<Vec<Value>> {
        let index = *self.by_name.get(name).ok_or_else(|| RuntimeError::Entry {
            message: format!(
                "no function @{name} with a body in the module (functions: {})",
                self.function_names().join(", ")
            ),
        })?;
        let f = &self.funcs[index];
        let mismatch = |message: String| RuntimeError::Signature { location: Loc::new(&f.location), message };
        if args.len() != f.arg_types.len() {
            return Err(mismatch(format!("@{name} takes {} arguments, {} given", f.arg_types.len(), args.len())));
        }
        let bits = args
            .iter()
            .zip(&f.arg_types)
            .enumerate()
            .map(|(i, (v, ty))| {
                encode(v, ty, memory).map_err(|why| mismatch(format!("argument #{i} of @{name} ({ty}): {why}")))
            })
            .collect::<RuntimeResult<Vec<u64>>>()?;
        let mut machine = match launcher {
            Some(l) => exec::Machine::with_launcher(&self.funcs, memory, l),
            None => exec::Machine::new(&self.funcs, memory),
        };
        let out = machine.call(index, &bits, None)?;
        Ok(out.iter().zip(&f.result_types).map(|(&b, ty)| decode(b, ty)).collect())
    }
}

/// The register encoding of an argument of type `ty`, checked against the type.
pub(crate) fn encode(v: &Value, ty: &Type, memory: &Memory) -> Result<u64, String> {
    let kind = value_kind(ty).ok_or_else(|| format!("type '{ty}' is not supported"))?;
    match (v, kind) {
        (Value::F32(x), ValueKind::F32) => Ok(x.to_reg()),
        (Value::F64(x), ValueKind::F64) => Ok(x.to_reg()),
        (Value::Int(x), ValueKind::Int(w))
            if sext(*x, w) == *x || (*x >= 0 && crate::scalar::zext(*x, w) == *x as u64) =>
        {
            Ok(sext(*x, w) as u64)
        }
        (Value::MemRef(m), ValueKind::MemRef) => {
            let buffer = memory.get(*m).ok_or("the buffer is not live")?;
            let Some(mt) = ty.as_memref() else { return Err("not a memref type".into()) };
            let element = value_kind(&mt.element).ok_or("unsupported element type")?;
            if !buffer.holds(element) {
                return Err(format!("the buffer does not hold {} values", mt.element));
            }
            let shape = mt.shape.as_ref().ok_or("unranked memrefs are not supported")?;
            let fits = shape.len() == buffer.shape.len()
                && shape.iter().zip(&buffer.shape).all(|(d, &n)| match d {
                    stencil_ir::types::Dim::Static(s) => usize::try_from(*s).is_ok_and(|s| s == n),
                    stencil_ir::types::Dim::Dynamic => true,
                });
            if !fits {
                return Err(format!("a buffer of shape {:?} does not fit", buffer.shape));
            }
            Ok(u64::from(m.0))
        }
        _ => Err(format!("{v:?} does not fit")),
    }
}

/// The value of a register of type `ty`.
fn decode(bits: u64, ty: &Type) -> Value {
    match value_kind(ty) {
        Some(ValueKind::F32) => Value::F32(f32::from_reg(bits)),
        Some(ValueKind::F64) => Value::F64(f64::from_reg(bits)),
        // A flat view returned by the function is its buffer (the view's shape is not kept).
        Some(ValueKind::MemRef) => Value::MemRef(MemRef(bits as u32)),
        _ => Value::Int(bits as i64),
    }
}
