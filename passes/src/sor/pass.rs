//! The passes `stencil-recognize-sor`, `stencil-rbsor` and `stencil-mlsor`.

use std::collections::HashMap;
use std::time::Duration;

use stencil_dialects::stencil::updates::point_update_terms_with_sweeps;
use stencil_dialects::support::op_error;
use stencil_ir::pass::{OptionInfo, OptionKind, Pass, PassContext, PassFactory, PassInfo, PassOptions};
use stencil_ir::{Attribute, DiagResult, Diagnostic, Ir, NamedAttribute, OpId};

use super::iteration::{sor_iterations, summary_attribute, SorRewrite, REWRITE_ATTR};
use super::lang::RuleSet;
use super::mlsor::{Directions, Mlsor};
use super::rbsor::RedBlack;
use super::recognize::{recognize, Omega, RecognitionOptions};
use crate::stencil_to_poly::stencil_programs;

/// Discardable attribute `stencil-recognize-sor` records on each recognised apply:
/// `{omega = "name" | value, points = 5 | 7}`.
pub const UPDATE_ATTR: &str = "sor.update";

/// The recognition options every SOR pass takes (rule set and e-graph limits).
fn recognition_option_infos() -> Vec<OptionInfo> {
    vec![
        OptionInfo {
            name: "rules",
            kind: OptionKind::String,
            default: "algebra",
            description: "E-graph rule set: algebra (AC, subtraction, division as reciprocal, distributivity, like terms) or ac (operand order and grouping only)",
        },
        OptionInfo { name: "iter-limit", kind: OptionKind::Int, default: "30", description: "Most e-graph saturation iterations" },
        OptionInfo { name: "node-limit", kind: OptionKind::Int, default: "50000", description: "Most e-graph nodes" },
        OptionInfo { name: "time-limit-ms", kind: OptionKind::Int, default: "5000", description: "Most e-graph time in milliseconds" },
    ]
}

/// [`RecognitionOptions`] from parsed pass options of `pass`.
fn recognition_options(pass: &str, opts: &PassOptions) -> Result<RecognitionOptions, String> {
    let positive = |name: &str| -> Result<usize, String> {
        usize::try_from(opts.int(name))
            .ok()
            .filter(|&v| v > 0)
            .ok_or_else(|| format!("option '{name}' of pass '{pass}' must be at least 1"))
    };
    Ok(RecognitionOptions {
        rules: RuleSet::parse(opts.string("rules")).map_err(|e| format!("option 'rules' of pass '{pass}': {e}"))?,
        iter_limit: positive("iter-limit")?,
        node_limit: positive("node-limit")?,
        time_limit: Duration::from_millis(positive("time-limit-ms")? as u64),
    })
}

/// Registration record of `stencil-recognize-sor`.
pub fn recognize_pass_info() -> PassInfo {
    PassInfo {
        argument: "stencil-recognize-sor",
        summary: "Recognise the relaxed Gauss-Seidel (SOR) update of every stencil.apply with an e-graph and record ω and the stencil as sor.update (an apply that is not one is an error saying why)",
        options: recognition_option_infos(),
        factory: PassFactory::new(|opts| Ok(Box::new(RecognizeSor { options: recognition_options("stencil-recognize-sor", opts)? }))),
        contract: crate::contract::program_pass(
            "stencil-recognize-sor works on stencil.program ops, before poly-codegen or gpu-map lower them, e.g. builtin.module(stencil-recognize-sor)",
        ),
    }
}

struct RecognizeSor {
    options: RecognitionOptions,
}

impl Pass for RecognizeSor {
    fn argument(&self) -> &'static str {
        "stencil-recognize-sor"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, _cx: &PassContext<'_>) -> DiagResult<()> {
        for program in stencil_programs(ir, root) {
            let mut applies = Vec::new();
            ir.walk(program, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
                if ir.op_name(op) == "stencil.apply" {
                    applies.push(op);
                }
            });
            for apply in applies {
                let update = recognize(ir, apply, &self.options)
                    .map_err(|r| op_error(ir, r.at, format!("is not an SOR update: {}", r.reason)))?;
                tracing::debug!(
                    apply = ?apply, iterations = update.proof.iterations, nodes = update.proof.nodes,
                    time = ?update.proof.time, "SOR update proved"
                );
                let omega = match &update.omega {
                    Omega::Scalar { name, .. } => Attribute::string(name),
                    Omega::Constant(w) => Attribute::Float { value: *w, kind: stencil_ir::types::FloatKind::F64 },
                };
                let points = i64::try_from(update.neighbours.len() + 1).unwrap_or(i64::MAX);
                ir.set_attribute(
                    apply,
                    UPDATE_ATTR,
                    Attribute::Dictionary(vec![
                        NamedAttribute::new("omega", omega),
                        NamedAttribute::new("points", Attribute::i64(points)),
                    ]),
                );
            }
        }
        Ok(())
    }
}

/// Runs `rewrite` on every SOR iteration of every program at or below `root` and records
/// [`REWRITE_ATTR`]; the result is not dependence-preserving, which a warning says.
fn run_rewrite(
    ir: &mut Ir,
    root: OpId,
    rewrite: &dyn SorRewrite,
    options: &RecognitionOptions,
    cx: &PassContext<'_>,
) -> DiagResult<()> {
    for program in stencil_programs(ir, root) {
        let iterations = sor_iterations(ir, program, options)?;
        // The rewritten program's point updates, counted on the program before the rewrite:
        // each SOR iteration as its sweeps per step over the sweep's box (the masked applies
        // that replace it each update part of that box), the other applies as they are.
        let sweeps: HashMap<OpId, i64> =
            iterations.iter().map(|it| (it.iterate, rewrite.sweeps_per_step(it))).collect();
        let body = ir.regions(program).first().and_then(|&r| ir.entry_block(r));
        let updates = body.and_then(|b| point_update_terms_with_sweeps(ir, b, &sweeps));
        for it in &iterations {
            // Where the warning points: the time loop, taken before the rewrite changes it.
            let location = ir.location(it.iterate).clone();
            let summary = rewrite.rewrite(ir, it)?;
            ir.set_attribute(program, REWRITE_ATTR, summary_attribute(rewrite.method(), &summary, updates.clone()));
            cx.report(Diagnostic::warning(
                location,
                format!(
                    "{}: rewrote an SOR iteration ({} per step); the result is not dependence-preserving: it converges to the same solution, but its fields differ from the original program's",
                    rewrite.method(),
                    if summary.sweeps_per_step == 1 { "1 sweep".to_string() } else { format!("{} sweeps", summary.sweeps_per_step) }
                ),
            ));
        }
    }
    Ok(())
}

/// Registration record of `stencil-rbsor`.
pub fn rbsor_pass_info() -> PassInfo {
    PassInfo {
        argument: "stencil-rbsor",
        summary: "Rewrite each recognised SOR iteration into red-black SOR (thesis §6.5.1.2), two DOALL ping-pong applies per sweep; not dependence-preserving",
        options: recognition_option_infos(),
        factory: PassFactory::new(|opts| Ok(Box::new(RewritePass { argument: "stencil-rbsor", rewrite: Box::new(RedBlack), options: recognition_options("stencil-rbsor", opts)? }))),
        contract: crate::contract::program_pass(
            "stencil-rbsor works on stencil.program ops, before poly-codegen or gpu-map lower them, e.g. builtin.module(stencil-rbsor,gpu-map{naive})",
        ),
    }
}

/// Registration record of `stencil-mlsor`.
pub fn mlsor_pass_info() -> PassInfo {
    let mut options = vec![
        OptionInfo {
            name: "K", kind: OptionKind::Int, default: "2", description: "Layers per sweep (1 ≤ K ≤ ⌊P/2⌋)"
        },
        OptionInfo {
            name: "P",
            kind: OptionKind::Int,
            default: "4",
            description: "Subdomain width in points per dimension",
        },
        OptionInfo {
            name: "directions",
            kind: OptionKind::String,
            default: "alternate",
            description: "alternate (K forward layers then K backward layers, thesis Fig. 6.1) or forward",
        },
    ];
    options.extend(recognition_option_infos());
    PassInfo {
        argument: "stencil-mlsor",
        summary: "Rewrite each recognised SOR iteration into parallel multi-layer SOR (thesis §6.4: K-layer sweeps, slanted subdomains, alternate tiling, four kernels per sweep); not dependence-preserving",
        options,
        factory: PassFactory::new(|opts| {
            let directions = Directions::parse(opts.string("directions"))
                .map_err(|e| format!("option 'directions' of pass 'stencil-mlsor': {e}"))?;
            let mlsor = Mlsor::new(opts.int("K"), opts.int("P"), directions)
                .map_err(|e| format!("pass 'stencil-mlsor': {e}"))?;
            Ok(Box::new(RewritePass { argument: "stencil-mlsor", rewrite: Box::new(mlsor), options: recognition_options("stencil-mlsor", opts)? }))
        }),
        contract: crate::contract::program_pass(
            "stencil-mlsor works on stencil.program ops, before poly-codegen or gpu-map lower them, e.g. builtin.module(stencil-mlsor{K=2 P=4},poly-schedule,poly-tile{sizes=8},gpu-map)",
        ),
    }
}

struct RewritePass {
    argument: &'static str,
    rewrite: Box<dyn SorRewrite>,
    options: RecognitionOptions,
}

impl Pass for RewritePass {
    fn argument(&self) -> &'static str {
        self.argument
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        run_rewrite(ir, root, self.rewrite.as_ref(), &self.options, cx)
    }
}
