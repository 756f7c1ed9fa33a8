//! `raise-affine-to-stencil`: upstream `affine` loop nests that are iterative stencils become
//! `stencil.program`s, so that other MLIR compilers (a C front end such as Polygeist, a DSL,
//! `mlir-opt` pipelines) can hand us their stencils as plain `func`/`affine`/`memref`/`arith`.
//!
//! For each `func.func`, every loop nest at the top level of its body is examined
//! (`nest`): sequential loops around one or more perfect nests become `stencil.iterate`s,
//! each perfect nest storing one element at the point of its loops (loading at constant
//! offsets or affine indices, computing with `arith`/`math`) a `stencil.apply`; loop order is
//! apply order and in-place updates stay in place. The program's parameters are the symbols
//! the loops are bounded by, its fields the memrefs, its scalars the scalar arguments the
//! bodies use (`plan` derives minimums and extents; the stencil verifier proves every
//! access in bounds). The nest is replaced by a `stencil.call` of the program guarded by the
//! parameter minimums (`build`); where the loops could still do something for parameter
//! values below them, the original loops stay in the `else` branch, so the function keeps its
//! signature and its meaning for every input.
//!
//! A nest that does not fit is left untouched and reported — a remark, or with `strict` an
//! error — saying why (`docs/passes.md` lists the reasons). When the program is lowered
//! (`poly-codegen`, `gpu-map`), its calls become `func.call`s ([`calls`]).

mod build;
pub mod calls;
mod lin;
mod nest;
mod plan;

use stencil_dialects::stencil::field::parse_field_body;
use stencil_dialects::stencil::{program_arg_names, ProgramParams};
use stencil_ir::ir::{ValueDef, WalkOrder};
use stencil_ir::pass::{OptionInfo, OptionKind, Pass, PassContext, PassFactory, PassInfo};
use stencil_ir::registry::DialectRegistry;
use stencil_ir::symbols::lookup_in;
use stencil_ir::{Attribute, DiagResult, Diagnostic, Ir, NamedAttribute, OpId, ValueId};

use nest::{Analyzer, Context, Nest, ParamSource, Refusal};
use plan::{Declared, FunctionFacts};

pub use calls::lower_stencil_calls;

/// Options of the raise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RaiseOptions {
    /// A nest that is not raised is an error (instead of a remark).
    pub strict: bool,
    /// Distinct memref values never overlap (the front end guarantees it, as C's `restrict` or
    /// Fortran's argument rules do); otherwise only arguments marked `llvm.noalias`, local
    /// allocations and the fields of a lowered program are known to be distinct.
    pub assume_no_alias: bool,
}

/// A nest that became a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaisedNest {
    /// The program's name.
    pub program: String,
    /// The `stencil.call` that replaced the nest.
    pub call: OpId,
    /// Whether the original loops stayed in the `else` branch of the guard (for parameter
    /// values below the program's minimums where they may still run).
    pub kept_fallback: bool,
}

/// What the raise did with one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RaiseReport {
    /// The raised nests, in order.
    pub raised: Vec<RaisedNest>,
    /// One remark per nest left untouched, located at what does not fit, with the reason.
    pub refused: Vec<Diagnostic>,
}

/// The prefix of every refusal, so users can grep for them.
pub const REFUSAL_PREFIX: &str = "affine loop nest not raised to a stencil program";

/// Reads the lowered-program convention's attributes (`docs/runtime.md`) of `func`, if they
/// are all there and consistent with its signature.
fn declared(ir: &Ir, func: OpId, args: &[ValueId]) -> Option<Declared> {
    let strings = |name: &str| -> Option<Vec<String>> {
        match ir.attr(func, name)? {
            Attribute::Array(items) => items.iter().map(|a| a.as_str().map(str::to_string)).collect(),
            _ => None,
        }
    };
    let arg_names = strings("stencil.arg_names")?;
    let param_names = strings("stencil.param_names")?;
    let field_types =
        strings("stencil.field_types")?.iter().map(|t| parse_field_body(t).ok()).collect::<Option<Vec<_>>>()?;
    let mins = match ir.attr(func, "stencil.param_mins") {
        None => vec![0; param_names.len()],
        Some(Attribute::Array(items)) => items.iter().map(Attribute::as_i64).collect::<Option<Vec<_>>>()?,
        Some(a) => a.as_dense_array()?.to_vec(),
    };
    let defaults: Option<Vec<NamedAttribute>> = match ir.attr(func, "stencil.defaults") {
        Some(Attribute::Dictionary(d)) => Some(d.clone()),
        _ => None,
    };
    let n_fields =
        args[..arg_names.len().min(args.len())].iter().filter(|&&a| ir.value_type(a).as_memref().is_some()).count();
    let consistent = args.len() == arg_names.len() + param_names.len()
        && mins.len() == param_names.len()
        && field_types.len() == n_fields
        && args[arg_names.len()..].iter().all(|&a| ir.value_type(a).is_index());
    consistent.then_some(Declared { arg_names, param_names, mins, field_types, defaults })
}

/// Whether the memref function argument `arg` is marked `llvm.noalias`.
fn noalias(ir: &Ir, func: OpId, index: u32) -> bool {
    match ir.attr(func, "arg_attrs") {
        Some(Attribute::Array(per_arg)) => match per_arg.get(index as usize) {
            Some(Attribute::Dictionary(d)) => d.iter().any(|a| &*a.name == "llvm.noalias"),
            _ => false,
        },
        _ => false,
    }
}

/// Every pair of fields one of which the nest writes must be known distinct buffers: the
/// stencil dialect's fields never overlap.
fn check_aliasing(ir: &Ir, func: OpId, nest: &Nest, declared: bool, options: &RaiseOptions) -> Result<(), Refusal> {
    if declared || options.assume_no_alias {
        return Ok(());
    }
    let argument = |v: ValueId| match ir.value_def(v) {
        ValueDef::BlockArgument { index, .. } => Some(index),
        _ => None,
    };
    for (i, a) in nest.fields.iter().enumerate() {
        for b in &nest.fields[i + 1..] {
            if !(a.written || b.written) {
                continue;
            }
            let (Some(x), Some(y)) = (argument(a.value), argument(b.value)) else {
                continue; // a local allocation overlaps nothing else
            };
            if !(noalias(ir, func, x) || noalias(ir, func, y)) {
                let (x, y) = (x.min(y), x.max(y));
                return Err(Refusal {
                    op: nest.root,
                    reason: format!(
                        "the memref arguments %arg{x} and %arg{y} may be the same buffer (one of them is written, and nothing says they do not alias): mark them {{llvm.noalias}}, or give the pass assume-no-alias=true when the front end guarantees distinct arrays"
                    ),
                });
            }
        }
    }
    Ok(())
}

/// A symbol name not used in `table`: `base`, `base_1`, …
fn fresh_symbol(ir: &Ir, table: Option<OpId>, base: &str) -> String {
    let mut name = base.to_string();
    let mut k = 1;
    while table.is_some_and(|t| lookup_in(ir, t, &name).is_some()) {
        name = format!("{base}_{k}");
        k += 1;
    }
    name
}

/// Raises the nests of `func` (a `func.func`). Refusals are remarks in the report; with
/// `strict`, the first refusal is the error instead (nests raised before it stay raised).
pub fn raise_function(
    ir: &mut Ir,
    registry: &DialectRegistry,
    func: OpId,
    options: &RaiseOptions,
) -> Result<RaiseReport, Diagnostic> {
    let mut report = RaiseReport::default();
    let Some(entry) = ir.regions(func).first().and_then(|&r| ir.entry_block(r)) else {
        return Ok(report); // a declaration
    };
    let func_name = ir.attr(func, "sym_name").and_then(Attribute::as_str).unwrap_or("f").to_string();
    let args = ir.block_args(entry).to_vec();
    let declared = declared(ir, func, &args);
    let table = ir.parent_op(func);

    // Loops nested in something else than the function body are reported, not raised.
    let mut refusals: Vec<Refusal> = vec![];
    for op in ir.collect_ops(func, WalkOrder::PreOrder) {
        if !matches!(ir.op_name(op), "affine.for" | "affine.parallel") || ir.parent_block(op) == Some(entry) {
            continue;
        }
        let mut parent = ir.parent_op(op);
        let mut inside_loop = false;
        while let Some(p) = parent.filter(|&p| p != func) {
            inside_loop |= matches!(ir.op_name(p), "affine.for" | "affine.parallel");
            parent = ir.parent_op(p);
        }
        if !inside_loop {
            let owner = ir.parent_op(op).map_or("?".to_string(), |p| ir.op_name(p).to_string());
            refusals.push(Refusal {
                op,
                reason: format!("the nest is inside '{owner}', not at the top level of the function: only top-level nests are raised"),
            });
        }
    }
    for r in refusals {
        refuse(ir, &mut report, options, r)?;
    }

    let roots: Vec<OpId> = ir
        .block_ops(entry)
        .into_iter()
        .filter(|&o| matches!(ir.op_name(o), "affine.for" | "affine.parallel"))
        .collect();
    for root in roots {
        let cx = Context { ir, registry, entry };
        let (params, fields, scalars) = match &declared {
            Some(d) => {
                let n = d.arg_names.len();
                let params = args[n..].iter().map(|&a| ParamSource::Value(a)).collect();
                let fields = args[..n].iter().copied().filter(|&a| ir.value_type(a).as_memref().is_some()).collect();
                let scalars = args[..n].iter().copied().filter(|&a| ir.value_type(a).as_memref().is_none()).collect();
                (params, fields, scalars)
            }
            None => (vec![], vec![], vec![]),
        };
        let analysis = Analyzer::new(&cx, root, params, fields, scalars).run().and_then(|nest| {
            check_aliasing(ir, func, &nest, declared.is_some(), options)?;
            plan::check_starts(&nest)?;
            let facts = FunctionFacts { ir, entry, declared: declared.as_ref() };
            let plans = plan::plans(&nest, &facts)?;
            Ok((nest, plans))
        });
        let (nest, plans) = match analysis {
            Ok(x) => x,
            Err(r) => {
                refuse(ir, &mut report, options, r)?;
                continue;
            }
        };
        let name = fresh_symbol(ir, table, &format!("{func_name}_stencil"));
        let location = ir.location(root).clone();
        let mut failure = None;
        let mut raised = None;
        for plan in &plans {
            let program = match build::build_program(ir, &nest, plan, &name, func, &location) {
                Ok(p) => p,
                Err(e) => {
                    failure = Some(Diagnostic::error(location.clone(), format!("{REFUSAL_PREFIX}: {e}")));
                    continue;
                }
            };
            match stencil_ir::verifier::verify(ir, registry, program, false) {
                Ok(()) => {
                    raised = Some((plan, program));
                    break;
                }
                Err(d) => {
                    tracing::debug!(program = %name, "raised program rejected: {}", d.render());
                    failure = Some(Diagnostic {
                        message: format!(
                            "{REFUSAL_PREFIX}: the stencil program it would become does not verify: {}",
                            d.message
                        ),
                        ..d
                    });
                    ir.erase_op(program);
                }
            }
        }
        match raised {
            Some((plan, _program)) => {
                let call = build::replace_nest(ir, &nest, plan, &name);
                tracing::debug!(function = %func_name, program = %name, exact = plan.exact, "raised an affine nest");
                report.raised.push(RaisedNest { program: name, call, kept_fallback: !plan.exact });
            }
            None => {
                let d = failure.unwrap_or_else(|| Diagnostic::error(location, format!("{REFUSAL_PREFIX}: no plan")));
                if options.strict {
                    return Err(d);
                }
                report.refused.push(Diagnostic { severity: stencil_ir::Severity::Remark, ..d });
            }
        }
    }
    Ok(report)
}

/// Records a refusal as a remark, or returns it as the error under `strict`.
fn refuse(ir: &Ir, report: &mut RaiseReport, options: &RaiseOptions, r: Refusal) -> Result<(), Diagnostic> {
    let message = format!("{REFUSAL_PREFIX}: {}", r.reason);
    let location = ir.location(r.op).clone();
    if options.strict {
        return Err(Diagnostic::error(location, message));
    }
    report.refused.push(Diagnostic::remark(location, message));
    Ok(())
}

/// Raises every `func.func` directly inside `root` (a module) or `root` itself.
pub fn raise_module(
    ir: &mut Ir,
    registry: &DialectRegistry,
    root: OpId,
    options: &RaiseOptions,
) -> Result<Vec<RaiseReport>, Diagnostic> {
    let funcs: Vec<OpId> = if ir.op_name(root) == "func.func" {
        vec![root]
    } else {
        ir.regions(root)
            .iter()
            .flat_map(|&r| ir.blocks(r).to_vec())
            .flat_map(|b| ir.block_ops(b))
            .filter(|&o| ir.op_name(o) == "func.func")
            .collect()
    };
    funcs.into_iter().map(|f| raise_function(ir, registry, f, options)).collect()
}

/// What a wrapper's argument is to the program its call runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgumentRole {
    /// The memref of field `name`.
    Field(String),
    /// Scalar argument `name`.
    Scalar(String),
    /// Parameter `name` (the argument itself, or an integer the function casts to `index`).
    Param(String),
    /// Not passed to the program.
    Unused,
}

/// Per argument of `func`, what it is to the program `call` (a `stencil.call` in `func`) runs:
/// how a runner binds the function's arguments from the program's fields, scalars and
/// parameters (`stencil-run` on an affine input).
pub fn argument_roles(
    ir: &Ir,
    registry: &DialectRegistry,
    func: OpId,
    call: OpId,
) -> Result<Vec<ArgumentRole>, String> {
    let callee = ir.attr(call, "callee").cloned().ok_or("a stencil.call without callee")?;
    let program = stencil_ir::symbols::resolve_symbol_ref(ir, registry, call, &callee)
        .filter(|&p| ir.op_name(p) == "stencil.program")
        .ok_or("the call does not reference a stencil.program")?;
    let names: Vec<String> = program_arg_names(ir, program).into_iter().map(Option::unwrap_or_default).collect();
    let params = ProgramParams::of(ir, program);
    let operands = ir.operands(call).to_vec();
    let entry = ir.regions(func).first().and_then(|&r| ir.entry_block(r)).ok_or("the function has no body")?;
    let mut roles = vec![];
    for &arg in ir.block_args(entry) {
        let mut role = ArgumentRole::Unused;
        for (k, &o) in operands.iter().enumerate() {
            let direct = o == arg;
            let cast = ir.defining_op(o).is_some_and(|d| {
                matches!(ir.op_name(d), "arith.index_cast" | "arith.index_castui") && ir.operand(d, 0) == arg
            });
            if !(direct || cast) {
                continue;
            }
            role = if k < names.len() {
                if ir.value_type(arg).as_memref().is_some() {
                    ArgumentRole::Field(names[k].clone())
                } else {
                    ArgumentRole::Scalar(names[k].clone())
                }
            } else {
                ArgumentRole::Param(params.names.get(k - names.len()).cloned().unwrap_or_default())
            };
            if matches!(role, ArgumentRole::Param(_)) {
                break;
            }
        }
        roles.push(role);
    }
    Ok(roles)
}

/// Registration record of `raise-affine-to-stencil`.
pub fn pass_info() -> PassInfo {
    PassInfo {
        argument: "raise-affine-to-stencil",
        summary: "Raise affine loop nests that are iterative stencils to stencil.programs called from the original function",
        options: vec![
            OptionInfo {
                name: "strict",
                kind: OptionKind::Bool,
                default: "false",
                description: "A nest that is not raised is an error (default: a remark with the reason)",
            },
            OptionInfo {
                name: "assume-no-alias",
                kind: OptionKind::Bool,
                default: "false",
                description: "Distinct memref arguments never overlap (default: only llvm.noalias arguments, allocations and lowered programs' fields are known distinct)",
            },
        ],
        factory: PassFactory::new(|opts| {
            Ok(Box::new(RaiseAffine {
                options: RaiseOptions { strict: opts.bool("strict"), assume_no_alias: opts.bool("assume-no-alias") },
            }))
        }),
        // It reads func.func bodies and adds stencil.programs; a module without a raisable
        // nest is reported, not an error, so it names no op it must find.
        contract: stencil_ir::pass::PassContract {
            anchors: &["builtin.module"],
            works_on: None,
            lowers: None,
            unique: false,
            // It creates stencil.programs: the stencil passes may follow even after a lowering.
            produces: Some(crate::contract::PROGRAM_OP),
            records: &[],
            discards: &[],
            usage: "raise-affine-to-stencil runs on modules of func.func with affine loop nests, before the stencil passes, e.g. builtin.module(raise-affine-to-stencil,poly-schedule,poly-tile{sizes=16},gpu-map)",
        },
    }
}

struct RaiseAffine {
    options: RaiseOptions,
}

impl Pass for RaiseAffine {
    fn argument(&self) -> &'static str {
        "raise-affine-to-stencil"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        for report in raise_module(ir, cx.registry, root, &self.options)? {
            for d in report.refused {
                cx.report(d);
            }
        }
        Ok(())
    }
}
