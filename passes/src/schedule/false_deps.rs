//! The `poly-remove-false-deps` pass: removal of parallelism-hindering false dependences by
//! array copying (thesis Def. 4.2, Alg. 4.2, Fig. 4.4), performed on the IR.

use std::sync::Arc;

use stencil_dialects::stencil::{add_field_argument, FieldType};
use stencil_dialects::support::op_error;
use stencil_ir::affine::AffineMap;
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::pass::{OptionInfo, OptionKind, Pass, PassContext, PassFactory, PassInfo};
use stencil_ir::{Attribute, DiagResult, Diagnostic, Ir, OpId, Type, ValueId};
use stencil_poly::schedule::{
    hindering_false_dependences, plan_array_copies, ArrayCopy, FuseStrategy, SchedulerOptions,
};
use stencil_poly::{AffineForm, DependenceGraph, DependenceOptions, Polyhedron};

use super::attr::{affine_expr_of_form, dim_or_symbol};
use crate::stencil_to_poly::{extract_scop, stencil_programs, ScopInfo};

/// Registration record of `poly-remove-false-deps` (thesis Alg. 4.2).
pub fn pass_info() -> PassInfo {
    PassInfo {
        argument: "poly-remove-false-deps",
        summary: "Remove parallelism-hindering false (anti) dependences by copying arrays (thesis Alg. 4.2, Fig. 4.4): new field arguments, copy applies, redirected reads",
        options: vec![
            OptionInfo {
                name: "intra-balance",
                kind: OptionKind::Bool,
                default: "true",
                description: "Decide hindrance with the balanced intra-tile wavefront constraint (thesis Eq. 4.1), as poly-schedule does",
            },
            OptionInfo {
                name: "fuse",
                kind: OptionKind::String,
                default: "smart",
                description: "Fusion strategy of the scheduler runs deciding hindrance: smart, max or none",
            },
            OptionInfo {
                name: "max-statements",
                kind: OptionKind::Int,
                default: super::DEFAULT_MAX_STATEMENTS,
                description: "Budget of the hindrance analysis, which runs the exact scheduler: a program with more statements (applies) is left as it is, with a warning (as poly-schedule keeps its own order)",
            },
        ],
        factory: PassFactory::new(|opts| {
            let fuse: FuseStrategy = opts
                .string("fuse")
                .parse()
                .map_err(|e| format!("option 'fuse' of pass 'poly-remove-false-deps': {e}"))?;
            let options = SchedulerOptions { intra_balance: opts.bool("intra-balance"), fuse, ..SchedulerOptions::gpu() };
            let max_statements = usize::try_from(opts.int("max-statements"))
                .map_err(|_| "option 'max-statements' of pass 'poly-remove-false-deps' must be non-negative".to_string())?;
            Ok(Box::new(RemoveFalseDeps { options, max_statements }))
        }),
        // The programs it rewrites lose their schedules (computed for the program before the
        // copies): after poly-schedule it would throw the schedule away.
        contract: stencil_ir::pass::PassContract {
            discards: &[super::SCHEDULE_ATTR],
            ..crate::contract::program_pass(
                "poly-remove-false-deps rewrites stencil.program ops, before poly-schedule and before poly-codegen or gpu-map lower them, e.g. builtin.module(poly-remove-false-deps,poly-schedule,poly-tile{sizes=16},gpu-map)",
            )
        },
    }
}

/// For every `stencil.program` at or below the anchor: finds the hindering false dependences
/// ([`hindering_false_dependences`]), plans the copies ([`plan_array_copies`]) and performs
/// each [`ArrayCopy`] on the IR (see [`apply_copy`]). Programs with nothing to remove are left
/// unchanged. Errors (a plan the IR cannot express, a scheduling failure) are located at the
/// program or the op concerned.
///
/// Budget: deciding hindrance runs the exact scheduler; a program with more than
/// `max_statements` statements is left unchanged with a warning (its false dependences stay,
/// which costs parallelism, never correctness).
struct RemoveFalseDeps {
    options: SchedulerOptions,
    max_statements: usize,
}

impl Pass for RemoveFalseDeps {
    fn argument(&self) -> &'static str {
        "poly-remove-false-deps"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        for program in stencil_programs(ir, root) {
            let info = extract_scop(ir, cx.registry, program)?;
            let statements = info.scop.statements().len();
            if statements > self.max_statements {
                cx.report(Diagnostic::warning(
                    ir.location(program).clone(),
                    format!(
                        "poly-remove-false-deps: {statements} statements exceed the budget of the hindrance analysis (poly-remove-false-deps{{max-statements={}}}), which runs the exact scheduler; the program is left as it is",
                        self.max_statements
                    ),
                ));
                continue;
            }
            let graph = DependenceGraph::compute(&info.scop, &DependenceOptions::default())
                .map_err(|e| op_error(ir, program, format!("dependence analysis failed: {e}")))?;
            let hindering = hindering_false_dependences(&info.scop, &graph, &self.options).map_err(|e| {
                op_error(ir, program, format!("false-dependence analysis failed: {}", super::pass::user_advice(&e)))
            })?;
            if hindering.is_empty() {
                continue;
            }
            let copies = plan_array_copies(&info.scop, &graph, &hindering, &self.options.limits)
                .map_err(|e| op_error(ir, program, format!("cannot plan the array copies: {e}")))?;
            for copy in &copies {
                apply_copy(ir, &info, copy)?;
            }
            // Stale schedules of the old statements would be meaningless, so they are dropped;
            // the transformed program must still be a SCoP (re-extracted and re-analysed).
            for origin in &info.statements {
                ir.remove_attr(origin.apply, super::SCHEDULE_ATTR);
                ir.remove_attr(origin.apply, super::BANDS_ATTR);
            }
            let copied = extract_scop(ir, cx.registry, program)?;
            DependenceGraph::compute(&copied.scop, &DependenceOptions::default()).map_err(|e| {
                op_error(ir, program, format!("dependence analysis after the array copies failed: {e}"))
            })?;
        }
        Ok(())
    }
}

/// The half-open box `[lower, upper)` of the element dimensions `first..first + rank` of
/// `domain` (columns `[outer iterators, element indices] + params`), each bound affine in the
/// parameters: every constraint must bound a single element dimension with a unit
/// coefficient, or involve no element dimension (the outer iterators' loop bounds, which the
/// enclosing iterates already enforce).
fn element_box(domain: &Polyhedron, first: usize, rank: usize) -> Result<(Vec<AffineForm>, Vec<AffineForm>), String> {
    let space = domain.space();
    let (nd, np) = (space.n_dims(), space.n_params());
    let mut lower: Vec<Option<AffineForm>> = vec![None; rank];
    let mut upper: Vec<Option<AffineForm>> = vec![None; rank];
    let params_of = |f: &AffineForm, scale: i64| -> Option<AffineForm> {
        let coeffs: Option<Vec<i64>> = (0..np).map(|p| f.coeff(nd + p).checked_mul(scale)).collect();
        Some(AffineForm::new(coeffs?, f.constant().checked_mul(scale)?))
    };
    let set = |slot: &mut Option<AffineForm>, value: AffineForm| -> Result<(), String> {
        match slot {
            Some(old) if *old != value => Err("an element dimension has two different bounds".to_string()),
            _ => {
                *slot = Some(value);
                Ok(())
            }
        }
    };
    let constraints =
        domain.equalities().iter().map(|f| (f, true)).chain(domain.inequalities().iter().map(|f| (f, false)));
    for (f, equality) in constraints {
        let dims: Vec<usize> = (first..first + rank).filter(|&c| f.coeff(c) != 0).collect();
        match dims.as_slice() {
            [] => continue,
            [c] if (0..nd).all(|k| k == *c || f.coeff(k) == 0) && f.coeff(*c).abs() == 1 => {
                let d = c - first;
                let a = f.coeff(*c);
                // a·x + g(p) (≥ or =) 0  ⇒  x ≥ −g (a = 1) or x ≤ g (a = −1).
                let g = params_of(f, -a).ok_or("overflow")?;
                let plus_one = g.checked_add_constant(1).map_err(|e| e.to_string())?;
                if equality {
                    set(&mut lower[d], g)?;
                    set(&mut upper[d], plus_one)?;
                } else if a == 1 {
                    set(&mut lower[d], g)?;
                } else {
                    set(&mut upper[d], plus_one)?;
                }
            }
            _ => return Err("a constraint couples several dimensions (the domain is not a box)".to_string()),
        }
    }
    let lower = lower.into_iter().collect::<Option<Vec<_>>>().ok_or("an element dimension has no lower bound")?;
    let upper = upper.into_iter().collect::<Option<Vec<_>>>().ok_or("an element dimension has no upper bound")?;
    Ok((lower, upper))
}

/// `()[params] -> (bounds)`.
fn bounds_map(bounds: &[AffineForm], n_params: usize) -> Attribute {
    let results = bounds.iter().map(|f| affine_expr_of_form(f, |c| dim_or_symbol(c, 0))).collect();
    Attribute::AffineMap(Arc::new(AffineMap::new(0, u32::try_from(n_params).unwrap_or(u32::MAX), results)))
}

/// Builds `stencil.apply @name writes %to over [lower] to [upper] { %v = stencil.access
/// %from[0, …]; stencil.yield %v }` at `at`.
#[allow(clippy::too_many_arguments)]
fn build_copy_apply(
    ir: &mut Ir,
    at: InsertPoint,
    location: stencil_ir::Location,
    name: &str,
    from: ValueId,
    to: ValueId,
    field: &FieldType,
    bounds: (&[AffineForm], &[AffineForm]),
    n_params: usize,
) -> OpId {
    let region = ir.create_region();
    let block = ir.append_block(region, &[]);
    let mut access = OperationState::new("stencil.access", location.clone());
    access.operands = vec![from];
    access.result_types = vec![field.element_type()];
    access.add_property("offset", Attribute::DenseArray { element: Type::I64, values: vec![0; field.rank()] });
    let access = ir.build(InsertPoint::End(block), access);
    let value = ir.result(access, 0);
    let mut yield_op = OperationState::new("stencil.yield", location.clone());
    yield_op.operands = vec![value];
    ir.build(InsertPoint::End(block), yield_op);
    let mut apply = OperationState::new("stencil.apply", location);
    apply.operands = vec![to];
    apply.regions = vec![region];
    apply.add_property("name", Attribute::String(name.into()));
    apply.add_property("lower_bounds", bounds_map(bounds.0, n_params));
    apply.add_property("upper_bounds", bounds_map(bounds.1, n_params));
    ir.build(at, apply)
}

/// Performs one copy of thesis Fig. 4.4 on the IR:
///
/// * a new field argument of the program (`A0`, the type of `A`; `function_type`, `arg_names`
///   and the entry block updated) — fields are program arguments in the stencil dialect;
/// * the copy apply `A0 = A` over the plan's copy domain (a box in the parameters), inside the
///   reader's first `depth` iterates, right before the reader (or before the iterate holding
///   it);
/// * the one-time initialisation apply (`A0 = A` on the elements read but never written) at
///   the start of the program, before the time loop;
/// * the planned reads of the reader redirected to `A0`.
fn apply_copy(ir: &mut Ir, info: &ScopInfo, copy: &ArrayCopy) -> Result<(), Diagnostic> {
    let program = info.program;
    let Some(&field_value) = info.arrays.get(copy.array.0) else {
        return Err(op_error(ir, program, "array copy of an unknown array"));
    };
    let Some(origin) = info.statements.get(copy.reader.0) else {
        return Err(op_error(ir, program, "array copy for an unknown statement"));
    };
    let Some(field) = FieldType::from_type(ir.value_type(field_value)) else {
        return Err(op_error(ir, program, "array copy of an argument that is not a field"));
    };
    let n_params = info.scop.params().len();
    let rank = field.rank();
    let array_name = info.scop.array(copy.array).map_or("?", |a| a.name.as_str());
    let not_a_box = |ir: &Ir, what: &str, e: String| {
        op_error(ir, origin.apply, format!("cannot copy {array_name} to {} ({what}): {e}", copy.copy_name))
    };
    // The copy runs between iterates; one inside the reader's own point loops (a plan moved
    // inward for a flow dependence carried there, `plan_array_copies`) has no IR form, and
    // hoisting it before the apply would hide the values the apply writes for itself.
    if copy.depth > origin.iterates.len() {
        return Err(op_error(
            ir,
            origin.apply,
            format!(
                "cannot copy {array_name} to {}: the copy would run inside the point loops of this apply (depth {}, {} enclosing iterate(s))",
                copy.copy_name,
                copy.depth,
                origin.iterates.len()
            ),
        ));
    }
    let copy_box = element_box(&copy.copy_domain, copy.depth, rank).map_err(|e| not_a_box(ir, "copy domain", e))?;
    let init_box = match &copy.initialization {
        Some(p) => Some(element_box(p, 0, rank).map_err(|e| not_a_box(ir, "initialization", e))?),
        None => None,
    };

    // The new field argument.
    let ty = ir.value_type(field_value).clone();
    let (copy_value, name) = add_field_argument(ir, program, &copy.copy_name, ty)?;
    let body = ir.regions(program).first().and_then(|&r| ir.entry_block(r));
    let Some(body) = body else { return Err(op_error(ir, program, "has no body block")) };

    // The copy, right before the reader at the plan's depth.
    let anchor = origin.iterates.get(copy.depth).copied().unwrap_or(origin.apply);
    let location = ir.location(origin.apply).clone();
    build_copy_apply(
        ir,
        InsertPoint::Before(anchor),
        location.clone(),
        &format!("{name}_copy"),
        field_value,
        copy_value,
        &field,
        (&copy_box.0, &copy_box.1),
        n_params,
    );
    if let Some((lower, upper)) = init_box {
        build_copy_apply(
            ir,
            InsertPoint::Start(body),
            location,
            &format!("{name}_init"),
            field_value,
            copy_value,
            &field,
            (&lower, &upper),
            n_params,
        );
    }
    for access in &copy.redirected {
        let Some(&op) = origin.accesses.get(access.0) else {
            return Err(op_error(ir, origin.apply, "array copy redirects an unknown access"));
        };
        if ir.op_name(op) != "stencil.access" {
            return Err(op_error(ir, op, "array copy can only redirect a stencil.access"));
        }
        ir.set_operand(op, 0, copy_value);
    }
    Ok(())
}
