//! What the raised program declares: its arguments and parameters (order and names), the
//! parameter minimums, the field extents, and the condition under which the wrapper calls it
//! (with the original loops kept for the other parameter values when that condition is not
//! exactly "the loops run").
//!
//! Minimums come from the loops: a statement runs only if every loop around it is non-empty,
//! and a non-emptiness condition in one parameter (`n - 3 >= 0` for `1 <= i < n - 1`) bounds
//! that parameter. Extents come from the memref types, from `memref.dim` symbols the loops are
//! bounded by, or — for a dynamic size nothing names — from the accesses (the smallest extent
//! holding every index the loops reach, which the original loops require of their memref
//! anyway). The stencil verifier then proves every access in bounds for every admissible
//! parameter value; a plan it rejects is not used.

use std::collections::HashSet;

use stencil_dialects::stencil::{FieldType, ParamExpr};
use stencil_ir::ir::ValueDef;
use stencil_ir::{Attribute, Ir, NamedAttribute, OpId, ValueId};

use super::lin::{Lin, Var};
use super::nest::{static_size, Nest, ParamSource, PointDim, Refusal, Statement, R};

/// The lowered-program convention's declarations on the function (`docs/runtime.md`): when
/// present, the raise restores exactly the program they describe.
#[derive(Clone, Debug)]
pub(crate) struct Declared {
    /// Names of the fields and scalars (the leading arguments).
    pub arg_names: Vec<String>,
    /// Names of the parameters (the trailing `index` arguments).
    pub param_names: Vec<String>,
    /// Declared minimums.
    pub mins: Vec<i64>,
    /// One field type per memref argument, in order.
    pub field_types: Vec<FieldType>,
    /// `stencil.defaults`.
    pub defaults: Option<Vec<NamedAttribute>>,
}

/// A program argument.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Field `k` of the nest.
    Field(usize),
    /// Scalar `k` of the nest.
    Scalar(usize),
}

/// One way to declare the raised program.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// Every parameter (the nest's, then those the plan adds), by number.
    pub params: Vec<ParamSource>,
    /// Program parameter order: numbers into `params`.
    pub param_order: Vec<usize>,
    /// Name per parameter number.
    pub param_names: Vec<String>,
    /// Minimum per parameter number.
    pub mins: Vec<i64>,
    /// Program arguments in order, and their names.
    pub slots: Vec<(Slot, String)>,
    /// Extent per field and dimension, over parameter numbers.
    pub extents: Vec<Vec<Lin>>,
    /// `stencil.defaults` of the program.
    pub defaults: Option<Vec<NamedAttribute>>,
    /// The call runs when every form is non-negative.
    pub guard: Vec<Lin>,
    /// Whether the loops do nothing whenever the guard fails (then the wrapper needs no copy
    /// of them).
    pub exact: bool,
}

/// Bounds of dimension `d` of a statement's box, `[lower, upper)`, in the parameters.
pub(crate) fn box_bounds(nest: &Nest, s: &Statement, d: usize) -> Result<(Lin, Lin), String> {
    match &s.dims[d] {
        PointDim::Loop { k, sign, shift } => {
            let l = &nest.loops[s.space[*k]];
            if *sign > 0 {
                Ok((l.lower.add(shift)?, l.upper.add(shift)?))
            } else {
                // x in [lo, up) and p = shift - x: p in [shift - up + 1, shift - lo + 1)
                Ok((shift.sub(&l.upper)?.plus(1)?, shift.sub(&l.lower)?.plus(1)?))
            }
        }
        PointDim::Fixed(e) => Ok((e.clone(), e.plus(1)?)),
    }
}

/// The conditions (each `>= 0`) under which statement `s` runs at all: every enclosing time
/// loop and every dimension of its box non-empty.
fn run_conditions(nest: &Nest, s: &Statement) -> Result<Vec<Lin>, String> {
    let mut out = vec![];
    for &k in &s.outer {
        let l = &nest.loops[k];
        out.push(l.upper.sub(&l.lower)?.plus(-1)?);
    }
    for d in 0..s.dims.len() {
        let (lb, ub) = box_bounds(nest, s, d)?;
        out.push(ub.sub(&lb)?.plus(-1)?);
    }
    Ok(out)
}

/// Per statement: `None` if it never runs, else per parameter the smallest value the
/// one-parameter run conditions allow (`None`: no such condition).
fn lower_bounds(nest: &Nest, n_params: usize) -> Result<Vec<Option<Vec<Option<i64>>>>, String> {
    let mut out = vec![];
    for s in nest.statements() {
        let conditions = run_conditions(nest, s)?;
        if conditions.iter().any(|c| c.as_constant().is_some_and(|v| v < 0)) {
            out.push(None);
            continue;
        }
        let mut bounds = vec![None; n_params];
        for c in &conditions {
            let params: Vec<(usize, i64)> = c.params().collect();
            if let [(p, a)] = params.as_slice() {
                if *a > 0 && !c.has_loops() {
                    // a·p + c0 >= 0  <=>  p >= ceil(-c0 / a)
                    let need = stencil_ir::affine::ceil_div(c.constant.checked_neg().ok_or(super::lin::OVERFLOW)?, *a)
                        .ok_or(super::lin::OVERFLOW)?;
                    let b: &mut Option<i64> = &mut bounds[*p];
                    *b = Some(b.map_or(need, |x: i64| x.max(need)));
                }
            }
        }
        out.push(Some(bounds));
    }
    Ok(out)
}

/// Whether `f >= 0` for every parameter vector at or above `mins` (parameters have no upper
/// bound, so a negative coefficient makes it fail).
fn nonnegative_above(f: &Lin, mins: &[i64]) -> bool {
    if f.has_loops() {
        return false;
    }
    let mut at_mins = f.constant as i128;
    for (p, c) in f.params() {
        if c < 0 {
            return false;
        }
        at_mins += c as i128 * mins.get(p).copied().unwrap_or(0) as i128;
    }
    at_mins >= 0
}

/// The largest index `sub` takes over the loops of the nest, in the parameters.
fn max_index(nest: &Nest, sub: &Lin) -> Result<Lin, String> {
    let mut out = sub.clone();
    for (k, c) in sub.loops().collect::<Vec<_>>() {
        let l = &nest.loops[k];
        let at = if c > 0 { l.upper.plus(-1)? } else { l.lower.clone() };
        out = out.substitute(k, &at)?;
    }
    Ok(out)
}

/// The smallest index `sub` takes over the loops of the nest, in the parameters.
fn min_index(nest: &Nest, sub: &Lin) -> Result<Lin, String> {
    let mut out = sub.clone();
    for (k, c) in sub.loops().collect::<Vec<_>>() {
        let l = &nest.loops[k];
        let at = if c > 0 { l.lower.clone() } else { l.upper.plus(-1)? };
        out = out.substitute(k, &at)?;
    }
    Ok(out)
}

/// An access whose smallest index is a negative constant reads or writes before the start of
/// its memref whenever it runs: no extent can hold it (reported at the access, before any
/// program is built).
pub(crate) fn check_starts(nest: &Nest) -> R<()> {
    for s in nest.statements() {
        let mut accesses: Vec<(OpId, &Vec<Lin>)> = s.accesses.iter().map(|a| (a.op, &a.subscripts)).collect();
        accesses.push((s.store, &s.store_subscripts));
        for (op, subs) in accesses {
            for (d, sub) in subs.iter().enumerate() {
                let low = min_index(nest, sub).map_err(|e| Refusal { op, reason: e })?;
                if let Some(c) = low.as_constant().filter(|&c| c < 0) {
                    return Err(Refusal {
                        op,
                        reason: format!(
                            "index {d} reaches {c} at the first iteration of the loops: before the start of the memref"
                        ),
                    });
                }
            }
        }
    }
    Ok(())
}

/// The one of `candidates` at least as large as every other for all parameters at or above
/// `mins`.
fn dominant(candidates: &[Lin], mins: &[i64]) -> Option<Lin> {
    candidates.iter().find(|e| candidates.iter().all(|f| e.sub(f).is_ok_and(|d| nonnegative_above(&d, mins)))).cloned()
}

/// Names of values for messages and default names: `%argK` stays `argK`.
fn function_argument(ir: &Ir, entry: stencil_ir::BlockId, v: ValueId) -> Option<usize> {
    match ir.value_def(v) {
        ValueDef::BlockArgument { block, index } if block == entry => Some(index as usize),
        _ => None,
    }
}

/// The function argument a parameter value is (or is an integer cast of), and the
/// `memref.dim` it reads, if any.
fn param_origin(
    ir: &Ir,
    entry: stencil_ir::BlockId,
    source: &ParamSource,
) -> (Option<usize>, Option<(ValueId, usize)>) {
    match source {
        ParamSource::Dim { memref, dim } => (None, Some((*memref, *dim))),
        ParamSource::Cast { argument, .. } => (function_argument(ir, entry, *argument), None),
        ParamSource::Value(v) => {
            if let Some(k) = function_argument(ir, entry, *v) {
                return (Some(k), None);
            }
            let Some(op) = ir.defining_op(*v) else { return (None, None) };
            match ir.op_name(op) {
                "arith.index_cast" | "arith.index_castui" => (function_argument(ir, entry, ir.operand(op, 0)), None),
                "memref.dim" => {
                    let index = ir
                        .defining_op(ir.operand(op, 1))
                        .filter(|&c| ir.op_name(c) == "arith.constant")
                        .and_then(|c| ir.attr(c, "value"))
                        .and_then(Attribute::as_i64)
                        .and_then(|d| usize::try_from(d).ok());
                    (None, index.map(|d| (ir.operand(op, 0), d)))
                }
                _ => (None, None),
            }
        }
    }
}

/// A name not yet in `used` (`base`, `base_1`, …), which it then is.
fn unique(base: String, used: &mut HashSet<String>) -> String {
    let mut name = base.clone();
    let mut k = 1;
    while used.contains(&name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    used.insert(name.clone());
    name
}

/// Everything the planner needs to know about the function.
pub(crate) struct FunctionFacts<'a> {
    /// The IR.
    pub ir: &'a Ir,
    /// The function's entry block.
    pub entry: stencil_ir::BlockId,
    /// The lowered-program declarations, if the function carries them.
    pub declared: Option<&'a Declared>,
}

/// The plans to try, most permissive first: raw nests get the smallest minimums any
/// statement needs to run, then the largest; a lowered program its declared ones.
pub(crate) fn plans(nest: &Nest, facts: &FunctionFacts<'_>) -> R<Vec<Plan>> {
    let fail = |e: String| Refusal { op: nest.root, reason: e };
    let n = nest.params.len();
    let bounds = lower_bounds(nest, n).map_err(fail)?;
    let candidates: Vec<Vec<i64>> = match facts.declared {
        Some(d) => {
            let mut mins = d.mins.clone();
            mins.resize(n, 0);
            vec![mins]
        }
        None => {
            let pick = |largest: bool| -> Vec<i64> {
                (0..n)
                    .map(|p| {
                        let found = bounds.iter().flatten().filter_map(|b| b[p]);
                        if largest { found.max() } else { found.min() }.unwrap_or(0)
                    })
                    .collect()
            };
            let (low, high) = (pick(false), pick(true));
            if low == high {
                vec![low]
            } else {
                vec![low, high]
            }
        }
    };
    candidates.into_iter().map(|mins| plan(nest, facts, &bounds, mins)).collect()
}

fn plan(nest: &Nest, facts: &FunctionFacts<'_>, bounds: &[Option<Vec<Option<i64>>>], mut mins: Vec<i64>) -> R<Plan> {
    let ir = facts.ir;
    let fail = |e: String| Refusal { op: nest.root, reason: e };
    let mut params = nest.params.clone();
    let mut guard = vec![];
    // Extents.
    let mut extents = vec![];
    for (f, field) in nest.fields.iter().enumerate() {
        let rank = ir.value_type(field.value).as_memref().and_then(|m| m.rank()).unwrap_or(0);
        if let Some(d) = facts.declared {
            let position = function_argument(ir, facts.entry, field.value);
            let index = position.map(|p| {
                (0..p).filter(|&q| ir.value_type(ir.block_args(facts.entry)[q]).as_memref().is_some()).count()
            });
            let Some(ft) = index.and_then(|i| d.field_types.get(i)) else {
                return Err(fail("stencil.field_types has no entry for a memref the loops access".into()));
            };
            let mut dims = vec![];
            for e in &ft.shape {
                let mut l = Lin::constant(e.constant);
                for (name, &c) in &e.terms {
                    let Some(p) = d.param_names.iter().position(|n| n == name) else {
                        return Err(fail(format!(
                            "stencil.field_types uses '{name}', which stencil.param_names does not declare"
                        )));
                    };
                    l = l.add_scaled(&Lin::var(Var::Param(p)), c).map_err(fail)?;
                }
                dims.push(l);
            }
            extents.push(dims);
            continue;
        }
        let mut reaches: Vec<Vec<Lin>> = vec![vec![]; rank];
        for s in nest.statements() {
            let mut subs: Vec<&Vec<Lin>> = s.accesses.iter().filter(|a| a.field == f).map(|a| &a.subscripts).collect();
            if s.written == f {
                subs.push(&s.store_subscripts);
            }
            for sub in subs {
                for (d, e) in sub.iter().enumerate().take(rank) {
                    reaches[d].push(max_index(nest, e).and_then(|m| m.plus(1)).map_err(fail)?);
                }
            }
        }
        let mut dims = vec![];
        for (d, candidates) in reaches.iter().enumerate() {
            let footprint = dominant(candidates, &mins);
            if let Some(size) = static_size(ir, field.value, d) {
                let fits =
                    footprint.as_ref().map(|e| Lin::constant(size).sub(e).is_ok_and(|g| nonnegative_above(&g, &mins)));
                match footprint {
                    Some(e) if fits == Some(false) && e.has_params() => {
                        // The loops reach a symbolic extent the static size holds only for
                        // some parameter values: the field is the extent they reach, and the
                        // call runs only where the memref holds it.
                        guard.push(Lin::constant(size).sub(&e).map_err(fail)?);
                        dims.push(e);
                    }
                    _ => dims.push(Lin::constant(size)),
                }
                continue;
            }
            let named = params.iter().position(|p| {
                param_origin(ir, facts.entry, p).1 == Some((field.value, d)) && matches!(p, ParamSource::Value(_))
            });
            match (named, footprint) {
                (Some(p), _) => dims.push(Lin::var(Var::Param(p))),
                (None, Some(e)) if e.has_params() => dims.push(e),
                (None, Some(e)) => {
                    // A dynamic size the loops reach only up to a constant: the field's
                    // extent is the memref's size, a parameter at least that constant.
                    params.push(ParamSource::Dim { memref: field.value, dim: d });
                    mins.push(e.constant);
                    dims.push(Lin::var(Var::Param(params.len() - 1)));
                }
                (None, None) => {
                    // In the function's terms: an argument (`%arg1`), a memref's size, else a
                    // name of the raise's own.
                    let names = |v: Var| match v {
                        Var::Param(p) => match params.get(p).map(|s| param_origin(ir, facts.entry, s)) {
                            Some((Some(k), _)) => format!("%arg{k}"),
                            Some((None, Some((memref, dim)))) => match function_argument(ir, facts.entry, memref) {
                                Some(k) => format!("dim {dim} of %arg{k}"),
                                None => format!("p{p}"),
                            },
                            _ => format!("p{p}"),
                        },
                        Var::Loop(k) => format!("i{k}"),
                    };
                    let listed: Vec<String> = candidates.iter().map(|c| c.display(&names).to_string()).collect();
                    return Err(fail(format!(
                        "cannot size dimension {d} of a dynamic memref from its accesses: they reach extents {} and none is always the largest; give the memref a static size or bound the loops by its memref.dim",
                        listed.join(", ")
                    )));
                }
            }
        }
        extents.push(dims);
    }

    // The integer computations of bounds the nest rewrote over their arguments must not wrap
    // (those the minimums imply need no test).
    for c in &nest.conditions {
        if c.as_constant().is_some_and(|v| v < 0) {
            // The function's integer computation of a bound wraps whatever its arguments: the
            // program would never run.
            return Err(fail("a loop bound computed in the function's integer type wraps for every argument value: the raised program would never run".into()));
        }
        if !nonnegative_above(c, &mins) {
            guard.push(c.clone());
        }
    }
    // Exactness: every statement that can run needs every parameter at or above its minimum.
    let n = params.len();
    let exact = guard.is_empty()
        && bounds.iter().flatten().all(|b| (0..n).all(|p| b.get(p).copied().flatten().is_some_and(|l| l >= mins[p])));

    // Names and order.
    let mut used = HashSet::new();
    let (param_order, param_names, slots, defaults) = match facts.declared {
        Some(d) => {
            let mut names = d.param_names.clone();
            for name in &names {
                used.insert(name.clone());
            }
            for k in names.len()..n {
                names.push(unique(format!("p{k}"), &mut used));
            }
            let args = facts.ir.block_args(facts.entry);
            let mut slots = vec![];
            for (k, name) in d.arg_names.iter().enumerate() {
                let v = args[k];
                let slot = match nest.fields.iter().position(|f| f.value == v) {
                    Some(f) => Slot::Field(f),
                    None => match nest.scalars.iter().position(|&s| s == v) {
                        Some(s) => Slot::Scalar(s),
                        None => {
                            return Err(fail(format!("argument '{name}' is neither a field nor a scalar of the nest")))
                        }
                    },
                };
                slots.push((slot, name.clone()));
            }
            ((0..n).collect(), names, slots, d.defaults.clone())
        }
        None => {
            let mut order: Vec<usize> = (0..n).collect();
            let key = |p: usize| -> (usize, usize, usize) {
                match param_origin(ir, facts.entry, &params[p]) {
                    (Some(k), _) => (0, k, 0),
                    (None, Some((m, d))) => (1, function_argument(ir, facts.entry, m).unwrap_or(usize::MAX), d),
                    _ => (2, p, 0),
                }
            };
            order.sort_by_key(|&p| key(p));
            // Arguments by position (`argK`, as MLIR prints them), local buffers in order.
            let field_name = |f: usize| match function_argument(ir, facts.entry, nest.fields[f].value) {
                Some(k) => format!("arg{k}"),
                None => {
                    let local = |g: &usize| function_argument(ir, facts.entry, nest.fields[*g].value).is_none();
                    format!("buffer{}", (0..f).filter(local).count())
                }
            };
            let mut names = vec![String::new(); n];
            for &p in &order {
                let base = match param_origin(ir, facts.entry, &params[p]) {
                    (Some(k), _) => format!("arg{k}"),
                    (None, Some((m, d))) => match nest.fields.iter().position(|f| f.value == m) {
                        Some(f) => format!("{}_dim{d}", field_name(f)),
                        None => format!("dim{d}"),
                    },
                    _ => "sym".to_string(),
                };
                names[p] = unique(base, &mut used);
            }
            let mut slots: Vec<(Slot, usize)> = vec![];
            for f in 0..nest.fields.len() {
                let k = function_argument(ir, facts.entry, nest.fields[f].value).unwrap_or(usize::MAX / 2 + f);
                slots.push((Slot::Field(f), k));
            }
            for (s, &v) in nest.scalars.iter().enumerate() {
                slots.push((Slot::Scalar(s), function_argument(ir, facts.entry, v).unwrap_or(usize::MAX)));
            }
            slots.sort_by_key(|&(_, k)| k);
            let slots = slots
                .into_iter()
                .map(|(slot, _)| {
                    let base = match slot {
                        Slot::Field(f) => field_name(f),
                        Slot::Scalar(s) => match function_argument(ir, facts.entry, nest.scalars[s]) {
                            Some(k) => format!("arg{k}"),
                            None => format!("scalar{s}"),
                        },
                    };
                    (slot, unique(base, &mut used))
                })
                .collect();
            (order, names, slots, None)
        }
    };
    for &p in &param_order {
        guard.push(Lin::var(Var::Param(p)).plus(-mins[p]).map_err(fail)?);
    }
    Ok(Plan { params, param_order, param_names, mins, slots, extents, defaults, guard, exact })
}

impl Plan {
    /// Position of parameter number `p` in the program's parameter list.
    pub fn position(&self, p: usize) -> usize {
        self.param_order.iter().position(|&q| q == p).unwrap_or(p)
    }

    /// Extent `e` (over parameter numbers) in the program's parameter names.
    pub fn param_expr(&self, e: &Lin) -> ParamExpr {
        let mut out = ParamExpr::constant(e.constant);
        for (p, c) in e.params() {
            out.terms.insert(self.param_names[p].clone(), c);
        }
        out
    }
}
