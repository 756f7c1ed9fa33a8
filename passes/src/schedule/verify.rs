//! The `poly-verify-schedule` pass: the legality checker (thesis Thm 3.1; DESIGN §5) applied to
//! the schedules stored on the IR, independently of how they were found.

use std::ops::Range;
use stencil_dialects::support::op_error;
use stencil_ir::pass::{Pass, PassContext, PassFactory, PassInfo};
use stencil_ir::{DiagResult, Diagnostic, DialectRegistry, Ir, OpId};

use stencil_poly::schedule::{check_legality, check_permutable, Legality, Violation};
use stencil_poly::{DependenceGraph, DependenceOptions, Limits, Schedule, Space};

use super::attr::{read_bands, stored_schedules};
use crate::stencil_to_poly::{extract_scop, stencil_programs, ScopInfo};

/// Registration record of `poly-verify-schedule`.
pub fn pass_info() -> PassInfo {
    PassInfo {
        argument: "poly-verify-schedule",
        summary: "Prove the poly.schedule of every stencil.program legal against its dependences, or report a violated dependence instance",
        options: vec![],
        factory: PassFactory::new(|_| Ok(Box::new(PolyVerifySchedule))),
        contract: crate::contract::program_pass(
            "poly-verify-schedule checks the schedules of stencil.program ops, after poly-schedule and before poly-codegen or gpu-map lower them, e.g. builtin.module(poly-schedule,poly-verify-schedule)",
        ),
    }
}

/// Checks every `stencil.program` at or below the anchor with [`verify_schedules`].
struct PolyVerifySchedule;

impl Pass for PolyVerifySchedule {
    fn argument(&self) -> &'static str {
        "poly-verify-schedule"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        for program in stencil_programs(ir, root) {
            verify_schedules(ir, cx.registry, program)?;
        }
        Ok(())
    }
}

/// Checks the `poly.schedule` attributes of `program` against its direct dependences (every
/// memory-based pair is a chain of direct ones, so this covers all of them) with
/// [`check_legality`]: exact integer emptiness per dependence and row (thesis Thm 3.1's
/// lexicographic positivity of `Θ_T(i_t) − Θ_S(i_s)`).
///
/// A program none of whose applies has a schedule is accepted (nothing to check); one where
/// only some have is an error at the first apply without. A violation is an error at the
/// target apply naming the dependence and its smallest violated instance (source and target
/// iterations, parameter values and both time stamps), with a note at the source apply.
pub fn verify_schedules(ir: &Ir, registry: &DialectRegistry, program: OpId) -> Result<(), Diagnostic> {
    let info = extract_scop(ir, registry, program)?;
    let Some(complete) = stored_schedules(ir, &info)? else { return Ok(()) };
    let graph = DependenceGraph::compute(&info.scop, &DependenceOptions::default())
        .map_err(|e| op_error(ir, program, format!("dependence analysis failed: {e}")))?;
    let limits = Limits::default();
    if let Legality::Violated(v) = check_legality(&info.scop, &graph, &complete, &limits)
        .map_err(|e| op_error(ir, program, format!("legality check failed: {e}")))?
    {
        return Err(violation_error(ir, &info, &graph, &v, None));
    }
    let depth = complete.iter().map(Schedule::len).max().unwrap_or(0);
    for (b, rows) in read_bands(ir, &info, depth)?.into_iter().enumerate() {
        if let Legality::Violated(v) = check_permutable(&info.scop, &graph, &complete, rows.clone(), &limits)
            .map_err(|e| op_error(ir, program, format!("permutability check failed: {e}")))?
        {
            return Err(violation_error(ir, &info, &graph, &v, Some((b, rows))));
        }
    }
    Ok(())
}

/// `S0(t = 1, i = 0)`.
fn instance(name: &str, space: &Space, point: &[i64]) -> String {
    let coords: Vec<String> = space.dims().iter().zip(point).map(|(n, v)| format!("{n} = {v}")).collect();
    format!("{name}({})", coords.join(", "))
}

fn tuple(values: &[i64]) -> String {
    let v: Vec<String> = values.iter().map(i64::to_string).collect();
    format!("({})", v.join(", "))
}

/// The located error for a violated dependence instance.
fn violation_error(
    ir: &Ir,
    info: &ScopInfo,
    graph: &DependenceGraph,
    v: &Violation,
    band: Option<(usize, Range<usize>)>,
) -> Diagnostic {
    let scop = &info.scop;
    let Some(d) = graph.dependences().get(v.dependence.0) else {
        return op_error(ir, info.program, format!("schedule violates dependence {}", v.dependence.0));
    };
    let (s, t) = (d.source.statement, d.target.statement);
    let (Some(src), Some(tgt)) = (scop.statement(s), scop.statement(t)) else {
        return op_error(ir, info.program, format!("schedule violates dependence {}", v.dependence.0));
    };
    let params: Vec<String> = scop.params().iter().zip(&v.params).map(|(n, x)| format!("{n} = {x}")).collect();
    let dependence = format!(
        "dependence {} ({} {} {} -> {} {})",
        v.dependence.0,
        d.kind,
        src.access_label(d.source.access.0),
        scop.access_text(s, d.source.access),
        tgt.access_label(d.target.access.0),
        scop.access_text(t, d.target.access),
    );
    let params = if params.is_empty() { "no parameters".to_string() } else { params.join(", ") };
    let (source, target) = (
        format!("{} at {}", instance(src.name(), src.space(), &v.source), tuple(&v.source_time)),
        format!("{} at {}", instance(tgt.name(), tgt.space(), &v.target), tuple(&v.target_time)),
    );
    let message = if let Some((b, rows)) = &band {
        format!(
            "band {b} (schedule rows {}..{}) is not permutable (thesis Thm 3.3): row {} decreases along {dependence}: with {params} the source {source}, the target {target}",
            rows.start, rows.end, v.level
        )
    } else if v.level >= v.source_time.len().max(v.target_time.len()) {
        format!("schedule violates {dependence}: with {params} the target {target} is scheduled at the same time stamp as the source {source}")
    } else {
        format!(
            "schedule violates {dependence}: with {params} the target {target} is scheduled before (schedule row {}) the source {source}",
            v.level
        )
    };
    let target_apply = info.statements.get(t.0).map_or(info.program, |o| o.apply);
    let source_apply = info.statements.get(s.0).map_or(info.program, |o| o.apply);
    op_error(ir, target_apply, message)
        .with_note(ir.location(source_apply).clone(), format!("source statement {} of the dependence", src.name()))
}
