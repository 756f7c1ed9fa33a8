//! Conversion between a statement's schedule (`stencil_poly::Schedule`, rows affine in the
//! iterators and parameters) and the `poly.schedule` affine-map attribute.

use std::sync::Arc;

use stencil_dialects::stencil::linear::linearize;
use stencil_dialects::support::op_error;
use stencil_ir::affine::{AffineBinOp, AffineExpr, AffineMap};
use stencil_ir::{Attribute, Diagnostic, Ir, OpId};
use stencil_poly::{AffineForm, Schedule, Space};

/// Discardable attribute on each `stencil.apply`: its schedule `Θ_S` as
/// `affine_map<(iterators)[params] -> (rows)>` (thesis Ch. 4; format in `docs/passes.md`).
pub const SCHEDULE_ATTR: &str = "poly.schedule";

/// Discardable attribute on each `stencil.apply`: the band of each schedule row
/// (`array<i64: 0, 0>`, `-1` for scalar rows), thesis Thm 3.3's permutable bands.
pub const BANDS_ATTR: &str = "poly.bands";

/// `c * e`, simplified by the IR's constructors.
fn scaled(c: i64, e: AffineExpr) -> AffineExpr {
    if c == 1 {
        e
    } else {
        AffineExpr::binary(AffineBinOp::Mul, e, AffineExpr::Constant(c))
    }
}

/// The `poly.schedule` attribute of `schedule`, a schedule over `space` (the statement's
/// iterators, then the parameters).
pub fn schedule_attribute(schedule: &Schedule, space: &Space) -> Attribute {
    let n_dims = space.n_dims();
    let results = schedule
        .rows()
        .iter()
        .map(|row| {
            let mut expr: Option<AffineExpr> = None;
            for (col, &c) in row.coeffs().iter().enumerate() {
                if c == 0 {
                    continue;
                }
                let var = if col < n_dims {
                    AffineExpr::Dim(u32::try_from(col).unwrap_or(u32::MAX))
                } else {
                    AffineExpr::Symbol(u32::try_from(col - n_dims).unwrap_or(u32::MAX))
                };
                let term = scaled(c, var);
                expr = Some(match expr {
                    None => term,
                    Some(e) => AffineExpr::binary(AffineBinOp::Add, e, term),
                });
            }
            match expr {
                None => AffineExpr::Constant(row.constant()),
                Some(e) if row.constant() == 0 => e,
                Some(e) => AffineExpr::binary(AffineBinOp::Add, e, AffineExpr::Constant(row.constant())),
            }
        })
        .collect();
    let map = AffineMap::new(
        u32::try_from(n_dims).unwrap_or(u32::MAX),
        u32::try_from(space.n_params()).unwrap_or(u32::MAX),
        results,
    );
    Attribute::AffineMap(Arc::new(map))
}

/// The schedule stored in `apply`'s `poly.schedule`, over `space` (the statement's iterators
/// and the parameters); `Ok(None)` when the attribute is absent. A map with the wrong number
/// of dimensions or symbols, or a result that is not affine (`mod`, `floordiv`), is an error
/// located at the apply.
pub fn read_schedule(ir: &Ir, apply: OpId, space: &Space) -> Result<Option<Schedule>, Diagnostic> {
    let Some(attr) = ir.attr(apply, SCHEDULE_ATTR) else { return Ok(None) };
    let Attribute::AffineMap(map) = attr else {
        return Err(op_error(ir, apply, format!("'{SCHEDULE_ATTR}' must be an affine_map")));
    };
    let (nd, ns) = (space.n_dims(), space.n_params());
    if map.num_dims as usize != nd || map.num_symbols as usize != ns {
        return Err(op_error(
            ir,
            apply,
            format!(
                "'{SCHEDULE_ATTR}' must map the statement's {nd} iterator(s) ({}) and the program's {ns} parameter(s) ({}), got a map with {} dimension(s) and {} symbol(s)",
                space.dims().join(", "),
                space.params().join(", "),
                map.num_dims,
                map.num_symbols
            ),
        ));
    }
    if map.results.is_empty() {
        return Err(op_error(ir, apply, format!("'{SCHEDULE_ATTR}' must have at least one result (schedule row)")));
    }
    let mut rows = Vec::with_capacity(map.results.len());
    for (k, e) in map.results.iter().enumerate() {
        let Some(l) = linearize(e, nd, ns) else {
            return Err(op_error(
                ir,
                apply,
                format!("result {k} of '{SCHEDULE_ATTR}' is not an affine form of the iterators and parameters"),
            ));
        };
        let mut coeffs = l.dims;
        coeffs.extend(l.symbols);
        rows.push(AffineForm::new(coeffs, l.constant));
    }
    Schedule::new(space, rows)
        .map(Some)
        .map_err(|e| op_error(ir, apply, format!("'{SCHEDULE_ATTR}' is not a valid schedule: {e}")))
}
