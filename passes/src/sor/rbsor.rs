//! `stencil-rbsor`: red-black SOR, the baseline of thesis §6.5.1.2, from a recognised SOR
//! iteration.
//!
//! Points are coloured by the parity of `i + j (+ k)`: red even, black odd. A red point's
//! Laplacian neighbours are all black and vice versa, so each colour can be updated all at
//! once. Each original sweep becomes a red half-sweep then a black one, written as two
//! ping-pong applies through a copy field `%A_rb` so that each is DOALL (it reads only the
//! other field at offsets) and maps with `gpu-map{naive}`:
//!
//! ```mlir
//! stencil.apply @A_rb_init writes %A_rb over [0, 0] to [N, M] { A[0, 0] }   // once
//! stencil.iterate %t = 0 to T {
//!   stencil.apply @S_red writes %A_rb over [1, 1] to [N - 1, M - 1] {
//!     <the SOR update, reading %A>; select(i + j even, update, %A[0, 0]) }
//!   stencil.apply @S_black writes %A over [1, 1] to [N - 1, M - 1] {
//!     <the SOR update, reading %A_rb>; select(i + j odd, update, %A_rb[0, 0]) }
//! }
//! ```
//!
//! After each step `%A` holds exactly what in-place red-black SOR gives (every point is
//! computed by the program's own arithmetic; the other colour is copied), and `%A_rb`'s
//! boundary, copied once, never changes.

use std::sync::Arc;

use stencil_dialects::stencil::{FieldType, ProgramParams};
use stencil_dialects::support::op_error;
use stencil_ir::affine::{AffineBinOp, AffineExpr, AffineMap};
use stencil_ir::{Attribute, Diagnostic, InsertPoint, Ir, ValueId};

use super::build::{clone_body, new_apply, BodyBuilder, Cmp};
use super::iteration::{RewriteSummary, SorIteration, SorRewrite};
use super::recognize::SorUpdate;
use stencil_dialects::stencil::add_field_argument;

/// Red-black SOR ([module documentation](self)).
#[derive(Clone, Copy, Debug, Default)]
pub struct RedBlack;

impl SorRewrite for RedBlack {
    fn method(&self) -> &'static str {
        "rbsor"
    }

    /// A red and a black half-sweep per sweep of the iteration: one sweep each.
    fn sweeps_per_step(&self, iteration: &SorIteration) -> i64 {
        i64::try_from(iteration.sweeps.len()).unwrap_or(i64::MAX)
    }

    fn rewrite(&self, ir: &mut Ir, it: &SorIteration) -> Result<RewriteSummary, Diagnostic> {
        let Some(first) = it.sweeps.first() else { return Err(op_error(ir, it.iterate, "has no sweep")) };
        let ty = ir.value_type(first.field).clone();
        let Some(field_type) = FieldType::from_type(&ty) else {
            return Err(op_error(ir, first.apply, "writes a value that is not a field"));
        };
        let (copy, copy_name) = add_field_argument(ir, it.program, &format!("{}_rb", first.field_name), ty)?;
        // The copy's boundary (and everything else) from the field, once, before the loop.
        let params = ProgramParams::of(ir, it.program);
        let extents = field_type
            .shape
            .iter()
            .map(|e| param_expr(e, &params.names))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| op_error(ir, it.program, "has a field extent over an unknown parameter"))?;
        let (init, block) =
            new_apply(ir, first.apply, InsertPoint::Before(it.iterate), &format!("{copy_name}_init"), copy, false);
        let n_params = u32::try_from(params.names.len()).unwrap_or(u32::MAX);
        ir.set_property(init, "lower_bounds", map(vec![AffineExpr::Constant(0); field_type.rank()], n_params));
        ir.set_property(init, "upper_bounds", map(extents, n_params));
        let location = ir.location(first.apply).clone();
        let mut b = BodyBuilder { ir, block, location };
        let c = b.centre(first.field, field_type.rank(), field_type.element_type());
        b.yield_value(c);

        for sweep in &it.sweeps {
            half_sweep(ir, sweep, &format!("{}_red", sweep_name(ir, sweep)), (first.field, copy), 0)?;
            half_sweep(ir, sweep, &format!("{}_black", sweep_name(ir, sweep)), (copy, first.field), 1)?;
            ir.erase_op(sweep.apply);
        }
        Ok(RewriteSummary {
            sweeps_per_step: self.sweeps_per_step(it),
            details: vec![stencil_ir::NamedAttribute::new("copy", Attribute::string(&copy_name))],
        })
    }
}

/// The statement name of a sweep's apply.
pub(super) fn sweep_name(ir: &Ir, u: &SorUpdate) -> String {
    ir.attr(u.apply, "name").and_then(Attribute::as_str).unwrap_or("S").to_string()
}

/// One colour's update before `sweep.apply`: reads `fields.0`, writes `fields.1`, updates the
/// points with `(Σ coordinates) mod 2 == colour` and copies the others.
fn half_sweep(
    ir: &mut Ir,
    sweep: &SorUpdate,
    name: &str,
    (from, to): (ValueId, ValueId),
    colour: i64,
) -> Result<(), Diagnostic> {
    let (_, block) = new_apply(ir, sweep.apply, InsertPoint::Before(sweep.apply), name, to, false);
    let redirect = (from != sweep.field).then_some((sweep.field, from));
    let extra: Vec<ValueId> = sweep.centre.into_iter().collect();
    let (value, centre) = clone_body(ir, sweep.apply, block, redirect, &extra)?;
    let elem = ir.value_type(value).clone();
    let location = ir.location(sweep.apply).clone();
    let mut b = BodyBuilder { ir, block, location };
    let centre = match centre.first() {
        Some(&c) => c,
        None => b.centre(from, sweep.rank, elem),
    };
    let mut sum = b.coordinate(0);
    for d in 1..sweep.rank {
        let x = b.coordinate(d);
        sum = b.int("arith.addi", sum, x);
    }
    let two = b.index(2);
    let parity = b.int("arith.remsi", sum, two);
    let want = b.index(colour);
    let mine = b.cmp(Cmp::Eq, parity, want);
    let v = b.select(mine, value, centre);
    b.yield_value(v);
    Ok(())
}

/// `() [params] -> (results)`.
fn map(results: Vec<AffineExpr>, n_params: u32) -> Attribute {
    Attribute::AffineMap(Arc::new(AffineMap::new(0, n_params, results)))
}

/// A field extent as an affine expression over the parameter symbols.
fn param_expr(e: &stencil_dialects::stencil::ParamExpr, names: &[String]) -> Option<AffineExpr> {
    let mut out = AffineExpr::Constant(e.constant);
    for (name, &c) in &e.terms {
        let k = u32::try_from(names.iter().position(|n| n == name)?).ok()?;
        let term = AffineExpr::binary(AffineBinOp::Mul, AffineExpr::Symbol(k), AffineExpr::Constant(c));
        out = AffineExpr::binary(AffineBinOp::Add, out, term);
    }
    Some(out)
}
