//! Conversion between a statement's schedule (`stencil_poly::Schedule`, rows affine in the
//! iterators and parameters) and the `poly.schedule` affine-map attribute.

use std::sync::Arc;

use std::ops::Range;
use stencil_dialects::stencil::linear::linearize;
use stencil_dialects::support::op_error;
use stencil_ir::affine::{AffineBinOp, AffineExpr, AffineMap};

use stencil_ir::{Attribute, Diagnostic, Ir, OpId};

use crate::stencil_to_poly::ScopInfo;
use stencil_poly::{AffineForm, Schedule, Space};

/// Discardable attribute on each `stencil.apply`: its schedule `Θ_S` as
/// `affine_map<(iterators)[params] -> (rows)>` (thesis Ch. 4; format in `docs/passes.md`).
pub const SCHEDULE_ATTR: &str = "poly.schedule";

/// Discardable attribute on each `stencil.apply`: the band of each schedule row
/// (`array<i64: 0, 0>`, `-1` for scalar rows), thesis Thm 3.3's permutable bands.
pub const BANDS_ATTR: &str = "poly.bands";

/// `form` as an affine expression: column `c` becomes `var(c)` (a dimension or a symbol of
/// the map being built), the constant comes last, coefficient 1 is left out. Every
/// conversion of a polyhedral form to a map goes through here, so maps print alike.
pub fn affine_expr_of_form(form: &AffineForm, var: impl Fn(usize) -> AffineExpr) -> AffineExpr {
    let mut expr: Option<AffineExpr> = None;
    for (col, &c) in form.coeffs().iter().enumerate() {
        if c == 0 {
            continue;
        }
        let term =
            if c == 1 { var(col) } else { AffineExpr::binary(AffineBinOp::Mul, var(col), AffineExpr::Constant(c)) };
        expr = Some(match expr {
            None => term,
            Some(e) => AffineExpr::binary(AffineBinOp::Add, e, term),
        });
    }
    match expr {
        None => AffineExpr::Constant(form.constant()),
        Some(e) if form.constant() == 0 => e,
        Some(e) => AffineExpr::binary(AffineBinOp::Add, e, AffineExpr::Constant(form.constant())),
    }
}

/// The map variable of column `col` of a space with `n_dims` dimensions: `d_col` or
/// `s_(col - n_dims)`.
pub fn dim_or_symbol(col: usize, n_dims: usize) -> AffineExpr {
    if col < n_dims {
        AffineExpr::Dim(u32::try_from(col).unwrap_or(u32::MAX))
    } else {
        AffineExpr::Symbol(u32::try_from(col - n_dims).unwrap_or(u32::MAX))
    }
}

/// The `poly.schedule` attribute of `schedule`, a schedule over `space` (the statement's
/// iterators, then the parameters).
pub fn schedule_attribute(schedule: &Schedule, space: &Space) -> Attribute {
    let n_dims = space.n_dims();
    let results = schedule.rows().iter().map(|row| affine_expr_of_form(row, |c| dim_or_symbol(c, n_dims))).collect();
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

/// The schedules stored on the applies of `info`'s program, one per statement: `None` when no
/// apply has [`SCHEDULE_ATTR`]; an error at the first apply without one when only some have.
pub fn stored_schedules(ir: &Ir, info: &ScopInfo) -> Result<Option<Vec<Schedule>>, Diagnostic> {
    let mut schedules: Vec<Option<Schedule>> = Vec::with_capacity(info.statements.len());
    for (origin, statement) in info.statements.iter().zip(info.scop.statements()) {
        schedules.push(read_schedule(ir, origin.apply, statement.space())?);
    }
    if schedules.iter().all(Option::is_none) {
        return Ok(None);
    }
    let mut complete = Vec::with_capacity(schedules.len());
    for (origin, s) in info.statements.iter().zip(schedules) {
        match s {
            Some(s) => complete.push(s),
            None => {
                return Err(op_error(
                    ir,
                    origin.apply,
                    format!("has no '{SCHEDULE_ATTR}' while other applies of the program have one: every statement needs a schedule"),
                ))
            }
        }
    }
    Ok(Some(complete))
}

/// The permutable bands of `poly.bands` (the same on every apply that has it; one entry per schedule
/// row, `-1` for rows outside any band): maximal runs of equal non-negative ids. Absent on
/// every apply: no band to check.
pub fn read_bands(ir: &Ir, info: &ScopInfo, depth: usize) -> Result<Vec<Range<usize>>, Diagnostic> {
    let mut found: Option<(OpId, &[i64])> = None;
    for origin in &info.statements {
        let Some(attr) = ir.attr(origin.apply, BANDS_ATTR) else { continue };
        let Attribute::DenseArray { values, .. } = attr else {
            return Err(op_error(ir, origin.apply, format!("'{BANDS_ATTR}' must be an array<i64: …>")));
        };
        if values.len() != depth {
            return Err(op_error(
                ir,
                origin.apply,
                format!("'{BANDS_ATTR}' must have one entry per schedule row ({depth}), got {}", values.len()),
            ));
        }
        if values.iter().any(|&b| b < -1) {
            return Err(op_error(ir, origin.apply, format!("'{BANDS_ATTR}' entries must be band ids >= 0 or -1")));
        }
        match found {
            Some((_, first)) if first != values.as_slice() => {
                return Err(op_error(
                    ir,
                    origin.apply,
                    format!("'{BANDS_ATTR}' differs from the other applies': bands are common to all statements"),
                ));
            }
            Some(_) => {}
            None => found = Some((origin.apply, values)),
        }
    }
    let Some((_, values)) = found else { return Ok(Vec::new()) };
    let mut bands = Vec::new();
    let mut k = 0;
    while k < values.len() {
        let id = values[k];
        let start = k;
        while k < values.len() && values[k] == id {
            k += 1;
        }
        if id >= 0 {
            bands.push(start..k);
        }
    }
    Ok(bands)
}
