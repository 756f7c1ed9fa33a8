//! The `poly-schedule` pass: Pluto's tiling hyperplanes with the GPU constraints (thesis Ch. 4,
//! Alg. 4.1) for every `stencil.program`, stored on its applies.

use stencil_dialects::support::op_error;
use stencil_ir::pass::{OptionInfo, OptionKind, Pass, PassContext, PassFactory, PassInfo};
use stencil_ir::{Attribute, DiagResult, Diagnostic, DialectRegistry, Ir, OpId, Type};
use stencil_poly::schedule::{
    coalesce_bands, original_order, schedule, FuseStrategy, RowKind, ScheduleError, SchedulerOptions,
};
use stencil_poly::{DependenceGraph, DependenceOptions, Limits};

use super::attr::{schedule_attribute, BANDS_ATTR, SCHEDULE_ATTR};
use crate::stencil_to_poly::{extract_scop, stencil_programs};

/// Registration record of `poly-schedule` (thesis Ch. 4: tiling hyperplanes, balanced
/// intra-tile wavefronts of Def. 4.1 / Thm 4.1 with `intra-balance=true`).
pub fn pass_info() -> PassInfo {
    PassInfo {
        argument: "poly-schedule",
        summary: "Compute Pluto tiling hyperplanes (with balanced intra-tile wavefronts) for each stencil.program and store them as poly.schedule/poly.bands on the applies",
        options: vec![
            OptionInfo {
                name: "intra-balance",
                kind: OptionKind::Bool,
                default: "true",
                description: "Require the first hyperplane to strictly satisfy every self dependence (thesis Eq. 4.1, balanced intra-tile wavefronts)",
            },
            OptionInfo {
                name: "fuse",
                kind: OptionKind::String,
                default: "smart",
                description: "Fusion strategy when no common hyperplane exists: smart, max or none (Pluto's --fuse)",
            },
            OptionInfo {
                name: "max-statements",
                kind: OptionKind::Int,
                default: super::DEFAULT_MAX_STATEMENTS,
                description: "Budget of the exact search: a program with more statements (applies) than this is not scheduled by Pluto's integer programs, whose cost grows steeply with the statement count (20 applies took minutes); see over-budget",
            },
            OptionInfo {
                name: "over-budget",
                kind: OptionKind::String,
                default: "fallback",
                description: "What a program over max-statements gets: fallback (its own execution order, every loop a band of its own, with a warning) or error",
            },
            OptionInfo {
                name: "coalesce",
                kind: OptionKind::Bool,
                default: "true",
                description: "Re-choose a band's rows after the first so that neighbouring GPU threads of a tile step along the write's last subscript (one statement, uniform dependences; the new band is checked legal, else Pluto's is kept); false: Pluto's band as it is. See docs/passes.md",
            },
            OptionInfo {
                name: "verify",
                kind: OptionKind::Bool,
                // Debug builds (and so every test) prove each computed schedule legal with the
                // independent checker of poly-verify-schedule; release builds trust the scheduler.
                default: if cfg!(debug_assertions) { "true" } else { "false" },
                description: "Check the computed schedules with the independent legality checker (as poly-verify-schedule does)",
            },
        ],
        factory: PassFactory::new(|opts| {
            let fuse: FuseStrategy =
                opts.string("fuse").parse().map_err(|e| format!("option 'fuse' of pass 'poly-schedule': {e}"))?;
            let options = SchedulerOptions { intra_balance: opts.bool("intra-balance"), fuse, ..SchedulerOptions::gpu() };
            let max_statements = usize::try_from(opts.int("max-statements"))
                .map_err(|_| "option 'max-statements' of pass 'poly-schedule' must be non-negative".to_string())?;
            let fallback = match opts.string("over-budget") {
                "fallback" => true,
                "error" => false,
                other => {
                    return Err(format!(
                        "option 'over-budget' of pass 'poly-schedule': unknown value `{other}`: expected fallback or error"
                    ))
                }
            };
            Ok(Box::new(PolySchedule {
                settings: ScheduleSettings {
                    options,
                    verify: opts.bool("verify"),
                    max_statements,
                    over_budget_fallback: fallback,
                    coalesce: opts.bool("coalesce"),
                },
            }))
        }),
        contract: stencil_ir::pass::PassContract {
            records: &[super::SCHEDULE_ATTR],
            ..crate::contract::program_pass(
                "poly-schedule works on stencil.program ops, before poly-tile and before poly-codegen or gpu-map lower them, e.g. builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map)",
            )
        },
    }
}

/// A scheduler error as the user of the pass reads it: the library's advice names Rust fields
/// (`SchedulerOptions::…`), which a pass user cannot set; this names what they can do.
pub(crate) fn user_advice(e: &ScheduleError) -> String {
    match e {
        ScheduleError::BalanceInfeasible => {
            "no hyperplane with balanced intra-tile wavefronts (thesis Eq. 4.1) exists \
             within the coefficient bound, neither first nor after a cut between statements; schedule with \
             poly-schedule{intra-balance=false}"
                .to_string()
        }
        ScheduleError::NoHyperplane { rows, unsatisfied, first } => format!(
            "no legal hyperplane after {rows} schedule rows; {unsatisfied} dependence(s) still unsatisfied (first: \
             dependence {first}); no schedule with non-negative coefficients exists (loops run backwards by \
             'order reverse' are handled; other negative dependences are not): try poly-schedule{{fuse=none}}, or \
             run the program in its own order (poly-codegen or gpu-map without poly-schedule)"
        ),
        ScheduleError::TooManyRows { limit } => {
            format!("the schedule needs more than {limit} rows (the scheduler's limit); try poly-schedule{{fuse=none}}")
        }
        ScheduleError::Poly(stencil_poly::PolyError::LimitExceeded {
            limit: "max_independence_cases", value, ..
        }) => {
            format!(
                "no linearly independent hyperplane was found without trying more than {value} combinations of \
                 one half-space per statement (the exact scheduler's limit): the program has too many statements, \
                 or statements too alike, for it; try poly-schedule{{intra-balance=false}} (no balanced first \
                 row), run the program in its own order (poly-codegen, or gpu-map without poly-schedule), or, \
                 for a program stencil-mlsor rewrote, map it with gpu-map{{strategy=mlsor}}"
            )
        }
        other => other.to_string(),
    }
}

/// How [`schedule_program`] schedules: the options of `poly-schedule` (their defaults:
/// [`ScheduleSettings::default`]).
#[derive(Debug, Clone)]
pub struct ScheduleSettings {
    /// Pluto's options (balanced intra-tile wavefronts, fusion).
    pub options: SchedulerOptions,
    /// Check each computed schedule with the independent legality checker.
    pub verify: bool,
    /// The most statements the exact scheduler searches (see `over_budget_fallback`).
    pub max_statements: usize,
    /// A program over `max_statements` keeps its own execution order (`true`) or is refused.
    pub over_budget_fallback: bool,
    /// Re-choose bands for coalesced thread steps (`stencil_poly::schedule::coalesce_bands`).
    pub coalesce: bool,
}

impl Default for ScheduleSettings {
    /// `poly-schedule` without options.
    fn default() -> Self {
        ScheduleSettings {
            options: SchedulerOptions::gpu(),
            verify: cfg!(debug_assertions),
            max_statements: super::DEFAULT_MAX_STATEMENTS.parse().unwrap_or(12),
            over_budget_fallback: true,
            coalesce: true,
        }
    }
}

/// Schedules every `stencil.program` at or below the anchor with [`schedule_program`],
/// reporting its warnings.
struct PolySchedule {
    settings: ScheduleSettings,
}

impl Pass for PolySchedule {
    fn argument(&self) -> &'static str {
        "poly-schedule"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        for program in stencil_programs(ir, root) {
            if let Some(warning) = schedule_program(ir, cx.registry, program, &self.settings)? {
                cx.report(warning);
            }
        }
        Ok(())
    }
}

/// Schedules `program` as `poly-schedule` does: SCoP extraction (`extract_scop`), direct
/// dependences (thesis Table 3.1), Pluto's algorithm ([`schedule`]), then [`SCHEDULE_ATTR`]
/// and [`BANDS_ATTR`] on each apply (overwriting earlier ones). A scheduling failure (no
/// hyperplane, balance infeasible, a limit) is an error located at the program, and the
/// applies keep their attributes. Returns the warning of a program over budget.
///
/// Budget: Pluto's integer programs grow with the number of statements and their cost with
/// it, steeply (20 applies in one time loop took 161 s). A program with more than
/// `max_statements` statements is not searched: it keeps its own execution order
/// ([`original_order`], legal by construction; each loop a band of its own) with a warning, or
/// with `over_budget_fallback == false` is refused with an error naming the budget.
pub fn schedule_program(
    ir: &mut Ir,
    registry: &DialectRegistry,
    program: OpId,
    settings: &ScheduleSettings,
) -> Result<Option<Diagnostic>, Diagnostic> {
    let info = extract_scop(ir, registry, program)?;
    let statements = info.scop.statements().len();
    // Over the budget, the refusal and the fallback's structure come before the dependence
    // analysis, which they do not need (an MLSOR rewrite of 3-D SOR: 2.4 s of analysis for a
    // fallback that fails on its statements' depths).
    let over_budget = (statements > settings.max_statements).then(|| {
        format!(
            "{statements} statements exceed the budget of the exact scheduler (poly-schedule{{max-statements={}}})",
            settings.max_statements
        )
    });
    let fallback = match &over_budget {
        Some(why) if !settings.over_budget_fallback => {
            return Err(op_error(
                ir,
                program,
                format!(
                    "scheduling refused: {why}; raise max-statements (compile time grows steeply), or use poly-schedule{{over-budget=fallback}} to keep the program's own order"
                ),
            ));
        }
        Some(why) => {
            Some(original_order(&info.scop).map_err(|e| {
                op_error(ir, program, format!("scheduling failed: {why}, and the fallback failed: {e}"))
            })?)
        }
        None => None,
    };
    let graph = DependenceGraph::compute(&info.scop, &DependenceOptions::default())
        .map_err(|e| op_error(ir, program, format!("dependence analysis failed: {e}")))?;
    let mut warning = None;
    let t = if let (Some(why), Some(mut t)) = (over_budget, fallback) {
        t.satisfied_at = vec![None; graph.dependences().len()];
        warning = Some(Diagnostic::warning(
            ir.location(program).clone(),
            format!(
                "poly-schedule: {why}; kept the program's own execution order (no skewing or fusion, every loop a band of its own)"
            ),
        ));
        t
    } else {
        let t = schedule(&info.scop, &graph, &settings.options)
            .map_err(|e| op_error(ir, program, format!("scheduling failed: {}", user_advice(&e))))?;
        if settings.coalesce {
            let (t, applied) = coalesce_bands(&info.scop, &graph, t, &Limits::default())
                .map_err(|e| op_error(ir, program, format!("poly-schedule{{coalesce=true}} failed: {e}")))?;
            for (b, band) in &applied {
                tracing::debug!(band = b, rows = ?band.rows, step = ?band.step, stride = band.stride, "poly-schedule: coalesced band");
            }
            t
        } else {
            t
        }
    };
    let bands: Vec<i64> = t
        .rows
        .iter()
        .map(|r| match (r.kind, r.band) {
            (RowKind::Loop, Some(b)) => i64::try_from(b).unwrap_or(i64::MAX),
            _ => -1,
        })
        .collect();
    for (s, (origin, sched)) in info.statements.iter().zip(&t.schedules).enumerate() {
        let Some(statement) = info.scop.statements().get(s) else { continue };
        ir.set_attribute(origin.apply, SCHEDULE_ATTR, schedule_attribute(sched, statement.space()));
        ir.set_attribute(origin.apply, BANDS_ATTR, Attribute::DenseArray { element: Type::I64, values: bands.clone() });
    }
    if settings.verify {
        super::verify::verify_schedules(ir, registry, program)?;
    }
    Ok(warning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_names_pass_options_not_rust_fields() {
        let errors = [
            ScheduleError::BalanceInfeasible,
            ScheduleError::NoHyperplane { rows: 4, unsatisfied: 2, first: 7 },
            ScheduleError::TooManyRows { limit: 30 },
        ];
        for e in &errors {
            let text = user_advice(e);
            assert!(text.contains("poly-schedule{"), "{text}");
            assert!(!text.contains("SchedulerOptions") && !text.contains('`'), "{text}");
        }
        assert!(user_advice(&errors[0]).ends_with("poly-schedule{intra-balance=false}"));
    }
}
