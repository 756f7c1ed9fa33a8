//! The input of the SOR rewrites: a `stencil.iterate` whose body is one SOR sweep (thesis
//! Eq. 6.4) or a symmetric pair — a forward sweep then a reverse sweep of the same update
//! (SSOR, Eqs. 6.4 and 6.5) — and the [`SorRewrite`] interface the rewrites implement.

use stencil_dialects::support::op_error;
use stencil_ir::{Attribute, Diagnostic, Ir, NamedAttribute, OpId};

use super::recognize::{recognize, RecognitionOptions, SorUpdate};
use stencil_dialects::stencil::ApplyOrder;

/// One time loop of SOR sweeps.
#[derive(Clone, Debug)]
pub struct SorIteration {
    /// The enclosing `stencil.program`.
    pub program: OpId,
    /// The `stencil.iterate`.
    pub iterate: OpId,
    /// Its sweeps in order: one (SOR) or two, forward then reverse (SSOR).
    pub sweeps: Vec<SorUpdate>,
}

/// What a rewrite did, recorded on the program as the `sor.rewrite` dictionary.
#[derive(Clone, Debug)]
pub struct RewriteSummary {
    /// Point updates per point in one step of the rewritten time loop, i.e. the number of
    /// SOR sweeps one step is worth (the unit of `stencil-run --converge`'s sweep count).
    pub sweeps_per_step: i64,
    /// Method-specific entries (`K`, `P`, `directions`, …).
    pub details: Vec<NamedAttribute>,
}

/// A rewrite of a recognised SOR iteration into a parallel method. Neither implementation
/// preserves dependences: the result converges to the same solution but is not bit-identical
/// to the original program.
pub trait SorRewrite {
    /// The method's name in reports (`rbsor`, `mlsor`).
    fn method(&self) -> &'static str;

    /// The SOR sweeps one step of `iteration` is worth after the rewrite: point updates per
    /// point and step ([`RewriteSummary::sweeps_per_step`]).
    fn sweeps_per_step(&self, iteration: &SorIteration) -> i64;

    /// Rewrites `iteration` in place.
    fn rewrite(&self, ir: &mut Ir, iteration: &SorIteration) -> Result<RewriteSummary, Diagnostic>;
}

/// Discardable dictionary attribute of a rewritten `stencil.program`: `method`,
/// `sweeps_per_step`, `point_updates`, `dependence_preserving = false` and the method's
/// details.
pub const REWRITE_ATTR: &str = stencil_dialects::stencil::updates::SOR_REWRITE_ATTR;

/// The SOR iterations of `program`: every `stencil.iterate` that directly holds applies must
/// hold one recognised SOR sweep or a forward/reverse pair of the same update; anything else
/// is an error saying why (a refusal of the recognition, located at the op that causes it).
pub fn sor_iterations(ir: &Ir, program: OpId, options: &RecognitionOptions) -> Result<Vec<SorIteration>, Diagnostic> {
    let mut iterates = Vec::new();
    ir.walk(program, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
        if ir.op_name(op) == "stencil.iterate" {
            iterates.push(op);
        }
    });
    let mut out = Vec::new();
    for iterate in iterates {
        let body = ir.regions(iterate).first().and_then(|&r| ir.entry_block(r));
        let ops = body.map(|b| ir.block_ops(b)).unwrap_or_default();
        let applies: Vec<OpId> = ops.iter().copied().filter(|&o| ir.op_name(o) == "stencil.apply").collect();
        if applies.is_empty() {
            continue;
        }
        if applies.len() != ops.len() {
            return Err(op_error(ir, iterate, "mixes applies and nested iterates; an SOR iteration holds one SOR sweep or a forward and a reverse sweep"));
        }
        let mut sweeps = Vec::new();
        for &apply in &applies {
            let update = recognize(ir, apply, options)
                .map_err(|r| op_error(ir, r.at, format!("is not an SOR update: {}", r.reason)))?;
            sweeps.push(update);
        }
        check_symmetric_pair(ir, iterate, &sweeps)?;
        out.push(SorIteration { program, iterate, sweeps });
    }
    if out.is_empty() {
        return Err(op_error(ir, program, "has no stencil.iterate of SOR sweeps to rewrite"));
    }
    Ok(out)
}

/// One sweep, or a forward and a reverse sweep of the same field, box and ω.
fn check_symmetric_pair(ir: &Ir, iterate: OpId, sweeps: &[SorUpdate]) -> Result<(), Diagnostic> {
    match sweeps {
        [_] => Ok(()),
        [f, b] => {
            let same_box = ["lower_bounds", "upper_bounds"].iter().all(|k| ir.attr(f.apply, k) == ir.attr(b.apply, k));
            if f.field != b.field || !same_box || f.omega != b.omega {
                return Err(op_error(ir, b.apply, "does not sweep the same field, box and ω as the first sweep of the iteration; an SSOR iteration repeats one update backwards"));
            }
            if (f.order, b.order) != (ApplyOrder::Forward, ApplyOrder::Reverse) {
                return Err(op_error(
                    ir,
                    b.apply,
                    "an SSOR iteration is a forward sweep followed by an 'order reverse' sweep",
                ));
            }
            Ok(())
        }
        _ => Err(op_error(
            ir,
            iterate,
            "holds more than two sweeps; an SOR iteration holds one sweep or a forward/reverse pair",
        )),
    }
}

/// The [`REWRITE_ATTR`] dictionary of a rewrite, with the rewritten program's `point_updates`
/// terms where known (`stencil_dialects::stencil::updates`).
pub fn summary_attribute(method: &str, summary: &RewriteSummary, point_updates: Option<Attribute>) -> Attribute {
    let mut entries = vec![
        NamedAttribute::new("dependence_preserving", Attribute::Bool(false)),
        NamedAttribute::new("method", Attribute::string(method)),
        NamedAttribute::new("sweeps_per_step", Attribute::i64(summary.sweeps_per_step)),
    ];
    if let Some(terms) = point_updates {
        entries.push(NamedAttribute::new("point_updates", terms));
    }
    entries.extend(summary.details.iter().cloned());
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Attribute::Dictionary(entries)
}
