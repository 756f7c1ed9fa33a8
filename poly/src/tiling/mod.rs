//! Rectangular tiling of permutable bands with inter- and intra-tile wavefronts (thesis
//! §3.2.7, Eq. 3.14–3.19; multi-statement tiles as in Fig. 4.7).
//!
//! Input: one schedule per statement (rows `φ_1, …, φ_d`, affine in the statement's iterators
//! and the parameters, scalar rows for statement order) and the permutable bands to tile with
//! their tile sizes ([`TilingInput`], [`TileBand`]). For a band with rows `φ_1..φ_m` and sizes
//! `s_1..s_m` the tiled schedule has
//!
//! * tile dimensions `T_k = ⌊φ_k / s_k⌋` (Eq. 3.14), skewed by the inter-tile wavefront
//!   `Θ_T` of Eq. 3.17 into `(w = Σ_k T_k, T_2, …, T_m)`: `w` is sequential and, because the
//!   band is permutable (Thm 3.3), every dependence between tiles advances `w` (Eq. 3.18), so
//!   `T_2, …, T_m` are parallel;
//! * point dimensions `(φ_1, φ_2, …, φ_m)` when the first hyperplane gives balanced intra-tile
//!   wavefronts (Def. 4.1, Thm 4.1), or `(φ_1 + … + φ_m, φ_2, …, φ_m)` — the intra-tile
//!   wavefront `Θ_S` of Eq. 3.19 — otherwise;
//! * the scalar rows that follow the band (statement order) right after the intra-tile
//!   wavefront dimension, so that each wavefront step runs the statement groups in textual
//!   order (Fig. 4.7), when that is legal; innermost otherwise.
//!
//! The result ([`TiledSchedule`]) gives per statement its transformed domain over `[tiled dims,
//! iterators, params]` (Eq. 3.15) and marks every dimension sequential or parallel from the
//! dependences ([`carried_dependences`]: exact integer emptiness of the dependent pairs that
//! are equal on the outer dimensions and differ on this one, with Thm 3.3 and Eq. 3.18 for
//! the tile dimensions). [`tile`] also proves that the tiled order respects every dependence
//! and fails with [`TilingError::Illegal`] otherwise.
//! [`crate::codegen`] turns a tiled schedule into loops.

mod build;
mod carried;
mod error;
mod input;
mod svg;
mod tiled;

pub use carried::{carried_dependences, CarriedDependences, TiledViolation};
pub use error::{TilingError, TilingResult};
pub use input::{InterTile, IntraTile, StatementOrder, TileBand, TilingInput, TilingOptions};
pub use svg::{render_svg, TilingPicture};
pub use tiled::{DimDef, DimKind, TiledDim, TiledSchedule, TiledStatement};

use build::Layout;

use crate::dependence::DependenceGraph;
use crate::scop::Scop;

/// Tiles `input.bands` of `input.schedules` (see the module documentation), choosing among the
/// `Auto` options the first layout — first hyperplane before skew, statement groups per
/// wavefront before innermost — that respects every dependence of `graph` and leaves every
/// non-wavefront point dimension parallel; failing that, the first legal one.
pub fn tile(
    scop: &Scop,
    input: &TilingInput,
    graph: &DependenceGraph,
    options: &TilingOptions,
) -> TilingResult<TiledSchedule> {
    input.validate(scop)?;
    let intras = match options.intra_tile {
        IntraTile::Auto => vec![IntraTile::FirstHyperplane, IntraTile::Skew],
        x => vec![x],
    };
    let orders = match options.statement_order {
        StatementOrder::Auto => vec![StatementOrder::PerWavefront, StatementOrder::Innermost],
        x => vec![x],
    };
    let ordered = with_statement_order_row(input)?;
    let mut tried: Vec<Vec<TiledDim>> = Vec::new();
    let mut first_legal: Option<TiledSchedule> = None;
    let mut first_violation: Option<TilingError> = None;
    // Per-wavefront statement groups with the schedules as given, then — where those leave
    // no group to run in turn — with the statement-order row appended; the first layout with
    // parallel point loops wins, so a layout that needs no groups (the skewed wavefront of
    // shifted statements) gets none.
    let mut candidates = Vec::new();
    for &intra in &intras {
        for &order in &orders {
            candidates.push((intra, order, input));
            if let (Some(ordered), StatementOrder::PerWavefront) = (&ordered, order) {
                candidates.push((intra, order, ordered));
            }
        }
    }
    for (intra, order, input) in candidates {
        let dims = build::layout(scop, input, Layout { inter: options.inter_tile, intra, order });
        if tried.contains(&dims) {
            continue;
        }
        tried.push(dims.clone());
        let names: Vec<String> = dims.iter().map(|d| d.name.clone()).collect();
        match finish(scop, input, graph, options, dims, intra, order)? {
            Err(v) => {
                let dim = v.dim.and_then(|k| names.get(k).cloned());
                first_violation.get_or_insert(TilingError::Illegal { dependence: v.dependence, dim });
            }
            Ok(t) if t.points_parallel() => return Ok(t),
            Ok(t) => {
                first_legal.get_or_insert(t);
            }
        }
    }
    if let Some(t) = first_legal {
        return Ok(t);
    }
    Err(first_violation.unwrap_or(TilingError::Poly(crate::error::PolyError::Internal("tiling tried no layout"))))
}

/// `input` with a statement-order row appended — each statement's position in the SCoP, a
/// constant — when the last band ends the schedules and several statements share it; `None`
/// otherwise. [`tile`] tries it for a per-wavefront layout after the schedules as given.
///
/// A scheduler that fuses statements with shifts (`B[i] = f(A)` at `φ`, `A[i] = B[i]` at
/// `φ + 1`) orders every dependent pair by the band rows alone and writes no row after the
/// band, so a per-wavefront layout (thesis Fig. 4.7) has no statement groups to run one after
/// another: within a step of the first hyperplane the shifted statements stay interleaved and
/// the other point loops are sequential, and only the skewed wavefront is left. The appended
/// row breaks ties in textual order, which every schedule already implies (instances with equal
/// time stamps run in statement order), so it changes no legal schedule's order; it lets the
/// first hyperplane (e.g. time for Jacobi-like programs) run each statement's points of a step
/// as one parallel group. [`tile`] proves the result legal like any other layout.
fn with_statement_order_row(input: &TilingInput) -> TilingResult<Option<TilingInput>> {
    let d = input.n_rows();
    let ends_schedules = input.bands.last().is_some_and(|b| b.rows.end == d);
    if input.schedules.len() < 2 || !ends_schedules {
        return Ok(None);
    }
    let mut schedules = Vec::with_capacity(input.schedules.len());
    for (position, sched) in input.schedules.iter().enumerate() {
        let columns = sched.rows().first().map_or(sched.n_iterators(), |r| r.n_columns());
        let position = i64::try_from(position)
            .map_err(|_| TilingError::InvalidInput(format!("statement {position} is past the i64 range")))?;
        let mut rows = sched.rows().to_vec();
        rows.push(crate::affine::AffineForm::constant_form(columns, position));
        schedules.push(crate::scop::Schedule::with_rows(sched.n_iterators(), rows));
    }
    Ok(Some(TilingInput { schedules, bands: input.bands.clone() }))
}

/// Builds the domains of one layout and sets its parallel flags; `Err` carries the first
/// violated dependence.
fn finish(
    scop: &Scop,
    input: &TilingInput,
    graph: &DependenceGraph,
    options: &TilingOptions,
    mut dims: Vec<TiledDim>,
    intra: IntraTile,
    order: StatementOrder,
) -> TilingResult<Result<TiledSchedule, TiledViolation>> {
    let analysis = carried_dependences(&dims, &input.schedules, scop, graph, &options.limits)?;
    if let Some(v) = analysis.violation {
        return Ok(Err(v));
    }
    for (k, d) in dims.iter_mut().enumerate() {
        d.parallel = d.kind != DimKind::Scalar && analysis.is_parallel(k);
    }
    let statements = build::domains(scop, input, &dims)?;
    let n_bands = input.bands.len();
    Ok(Ok(TiledSchedule {
        dims,
        statements,
        schedules: input.schedules.clone(),
        intra_tile: vec![intra; n_bands],
        statement_order: vec![order; n_bands],
    }))
}
