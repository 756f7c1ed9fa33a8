//! Code for full tiles (CLooG's and PPCG's "separation" of full and partial tiles).
//!
//! The loops that scan one tile evaluate, at every level, the maximum and minimum of every
//! bound the statement domains and the tiling give — most of which only matter in the tiles on
//! the domain's boundary. Given the values of the `outer` leading dimensions (the host loops
//! and the tile coordinates), a tile is *full* when every point of it lies in the statement
//! domains; its points can then be scanned with the tiling constraints alone. "Every point"
//! counts only the points within the domain constraints that bound a single point loop
//! ([`crate::tiling::TiledSchedule::point_bounds`], e.g. `t ≤ T − 1` when time is the
//! intra-tile wavefront): those stay in the full-tile loops as one more bound each, shared by
//! every point of a step, so a tile they clip — every tile when the run is shorter than the
//! time tile — is not sent to the general code for them:
//!
//! * [`FullTiles::body`] scans the dimensions after `outer` over the points of a tile with the
//!   statements' own domains left out ([`crate::tiling::TiledSchedule::full_tile_domains`]),
//!   the leading dimensions taken as parameters — a few simple bounds per loop;
//! * [`FullTiles::partial_when`] says when a tile is not full: per statement and domain
//!   constraint, the projection onto (leading dimensions, parameters) of the tile points that
//!   violate it (Fourier–Motzkin). A projection is rational, so a superset: a tile outside every
//!   set is certainly full, and a full tile inside one merely takes the general code;
//! * [`FullTiles::guarded`] is code for *any* tile, partial ones included: the full-tile loops
//!   with every statement instance guarded by its statement's own domain constraints (composed
//!   with the instance's iterator values). The full-tile loops scan every point of the tile
//!   box — the tiling constraints are the same for every tile — so keeping the points inside
//!   the domain gives exactly the instances the general loops run in the tile, in the same
//!   order. Its loop bounds are those of a full tile (a few simple terms, and uniform across a
//!   step of an intra-tile wavefront), where the general loops take the maximum and minimum of
//!   every domain and tiling bound at every level; the price is a test per instance and loop
//!   iterations whose guard fails.
//!
//! Both are over the original loop nest's columns, so a code generator emits them like the
//! general nest.

use super::ast::{ForLoop, Guard, GuardKind, LoopAst};
use super::error::{CodegenError, CodegenResult};
use super::problem::{ScanOptions, ScanProblem, ScanStatement};
use super::scan::generate;
use crate::affine::AffineForm;
use crate::scop::Scop;
use crate::space::Space;
use crate::tiling::TiledSchedule;

/// Full-tile code for the dimensions after a prefix; see the module documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FullTiles {
    /// The loops of the dimensions after the prefix for a full tile, over the columns of the
    /// general nest (`[dimensions…, parameters…]`).
    pub body: LoopAst,
    /// Each entry a conjunction of guards over the prefix dimensions and the parameters: the
    /// tile is partial when all guards of some entry hold. Empty: every tile is full.
    pub partial_when: Vec<Vec<Guard>>,
    /// [`FullTiles::body`] with each statement instance guarded by its statement's domain:
    /// correct for every tile, full or partial (module documentation).
    pub guarded: LoopAst,
}

impl FullTiles {
    /// The prefix dimensions (columns below `outer`) the code and the test refer to: a code
    /// generator must have a value for each (a scalar dimension fixed per statement group, for
    /// instance, has none outside its group).
    pub fn prefix_dimensions_used(&self, outer: usize) -> Vec<usize> {
        let mut used = vec![false; outer];
        let mut mark = |f: &AffineForm| {
            for (c, slot) in used.iter_mut().enumerate() {
                if f.coeff(c) != 0 {
                    *slot = true;
                }
            }
        };
        self.partial_when.iter().flatten().for_each(|g| mark(&g.expr));
        visit_forms(&self.body, &mut mark);
        used.iter().enumerate().filter(|(_, &u)| u).map(|(c, _)| c).collect()
    }
}

/// Calls `f` on every affine form of `node` (bounds, guards, statement iterators).
fn visit_forms(node: &LoopAst, f: &mut impl FnMut(&AffineForm)) {
    match node {
        LoopAst::For(l) => {
            l.lower.iter().chain(&l.upper).for_each(|b| f(&b.expr));
            visit_forms(&l.body, f);
        }
        LoopAst::If { guards, then } => {
            guards.iter().for_each(|g| f(&g.expr));
            visit_forms(then, f);
        }
        LoopAst::Stmt { iter_values, .. } => iter_values.iter().for_each(f),
        LoopAst::Seq(items) => items.iter().for_each(|x| visit_forms(x, f)),
    }
}

/// The full-tile code of `tiled` (of `scop`) below its first `outer` dimensions.
pub fn full_tiles(tiled: &TiledSchedule, scop: &Scop, outer: usize, options: &ScanOptions) -> CodegenResult<FullTiles> {
    let general = ScanProblem::from_tiled(tiled, scop)?;
    let nd = general.dims.len();
    if outer == 0 || outer >= nd {
        return Err(CodegenError::InvalidProblem(format!(
            "full tiles need a prefix of 1 to {} of the {nd} dimensions, not {outer}",
            nd - 1
        )));
    }
    let params = general.context.space().params().to_vec();
    let np = params.len();
    let inner = nd - outer;
    let full = tiled.full_tile_domains(scop)?;
    // The prefix dimensions become parameters, placed before the SCoP's.
    let prefix_names: Vec<String> = general.dims[..outer].iter().map(|d| d.name.clone()).collect();
    let inner_params: Vec<String> = prefix_names.iter().cloned().chain(params.iter().cloned()).collect();
    let context_mapping: Vec<usize> = (0..np).map(|p| outer + p).collect();
    let context = general.context.embed(Space::new(Vec::<String>::new(), inner_params.clone()), &context_mapping)?;
    let mut statements = Vec::with_capacity(full.len());
    for (st, general_st) in full.iter().zip(&general.statements) {
        let n = general_st.iterators.len();
        let names: Vec<String> =
            general.dims[outer..].iter().map(|d| d.name.clone()).chain(general_st.iterators.iter().cloned()).collect();
        let space = Space::new(names, inner_params.clone());
        // Old columns [dims, iterators, params] → [inner dims, iterators, prefix dims, params].
        let mapping: Vec<usize> = (0..nd + n + np)
            .map(|c| match c {
                c if c < outer => inner + n + c,
                c if c < nd + n => c - outer,
                c => c,
            })
            .collect();
        statements.push(ScanStatement { domain: st.domain.embed(space, &mapping)?, ..general_st.clone() });
    }
    let problem = ScanProblem { dims: general.dims[outer..].to_vec(), context, statements };
    let nest = generate(&problem, options)?;
    // Back to the general nest's columns [dims, params]: inner dimension j → outer + j, prefix
    // dimension k (a parameter here, column inner + k) → k, parameters unchanged.
    let back: Vec<usize> = (0..nd + np)
        .map(|c| match c {
            c if c < inner => outer + c,
            c if c < nd => c - inner,
            c => c,
        })
        .collect();
    let body = remap_ast(&nest.root, &back, nd + np, outer)?;
    let partial_when = partial_sets(tiled, scop, &general, outer, options)?;
    let kept = tiled.point_bounds(scop)?;
    let guarded = guard_instances(&body, scop, np, &kept)?;
    Ok(FullTiles { body, partial_when, guarded })
}

/// `node` with every statement instance wrapped in the guards of its statement's domain: each
/// domain constraint over (iterators, parameters) composed with the instance's iterator values
/// (forms over the nest's `[dimensions…, parameters…]`, the last `np` columns the parameters).
/// An equality becomes a `Zero` guard; a constraint that composes to a constant that holds is
/// left out, and so are the statement's `kept` constraints (loop bounds of the full-tile code,
/// [`TiledSchedule::point_bounds`]).
fn guard_instances(node: &LoopAst, scop: &Scop, np: usize, kept: &[Vec<AffineForm>]) -> CodegenResult<LoopAst> {
    Ok(match node {
        LoopAst::For(l) => {
            LoopAst::For(ForLoop { body: Box::new(guard_instances(&l.body, scop, np, kept)?), ..l.clone() })
        }
        LoopAst::If { guards, then } => {
            LoopAst::If { guards: guards.clone(), then: Box::new(guard_instances(then, scop, np, kept)?) }
        }
        LoopAst::Seq(items) => {
            LoopAst::Seq(items.iter().map(|x| guard_instances(x, scop, np, kept)).collect::<CodegenResult<Vec<_>>>()?)
        }
        LoopAst::Stmt { statement, iter_values } => {
            let st = scop
                .statement(*statement)
                .ok_or_else(|| CodegenError::InvalidProblem(format!("statement {} is not in the SCoP", statement.0)))?;
            let domain = st.domain();
            let bounds: &[AffineForm] = kept.get(statement.0).map_or(&[], Vec::as_slice);
            let kinds = domain.equalities().iter().map(|e| (e, GuardKind::Zero)).chain(
                domain.inequalities().iter().filter(|f| !bounds.contains(f)).map(|f| (f, GuardKind::NonNegative)),
            );
            let mut guards = Vec::new();
            for (constraint, kind) in kinds {
                let expr = constraint.compose(iter_values, np)?;
                if expr.is_constant() {
                    let holds = match kind {
                        GuardKind::Zero => expr.constant() == 0,
                        GuardKind::NonNegative => expr.constant() >= 0,
                    };
                    if holds {
                        continue;
                    }
                }
                let guard = Guard { expr, kind };
                if !guards.contains(&guard) {
                    guards.push(guard);
                }
            }
            let stmt = node.clone();
            if guards.is_empty() {
                stmt
            } else {
                LoopAst::If { guards, then: Box::new(stmt) }
            }
        }
    })
}

/// Per statement and domain constraint, the prefix values (and parameters) for which some
/// point of the tile violates it; rationally empty sets are left out.
fn partial_sets(
    tiled: &TiledSchedule,
    scop: &Scop,
    general: &ScanProblem,
    outer: usize,
    options: &ScanOptions,
) -> CodegenResult<Vec<Vec<Guard>>> {
    let limits = &options.limits;
    let nd = general.dims.len();
    let full = tiled.full_tile_domains(scop)?;
    let mut sets = Vec::new();
    for (st, general_st) in full.iter().zip(&general.statements) {
        let statement = scop.statement(general_st.statement).ok_or_else(|| {
            CodegenError::InvalidProblem(format!("statement {} is not in the SCoP", general_st.statement.0))
        })?;
        let n = general_st.iterators.len();
        let np = statement.space().n_params();
        let shift: Vec<usize> = (0..n + np).map(|c| nd + c).collect();
        let context = general.context.embed(st.domain.space().clone(), &(nd + n..nd + n + np).collect::<Vec<_>>())?;
        let tile = st.domain.intersect(&context)?;
        let domain = statement.domain();
        let mut constraints: Vec<AffineForm> = domain.inequalities().to_vec();
        for e in domain.equalities() {
            constraints.push(e.clone());
            constraints.push(e.checked_neg()?);
        }
        for c in constraints {
            // Points of the tile with c ≤ −1.
            let violated = c.remap(nd + n + np, &shift)?.checked_neg()?.checked_add_constant(-1)?;
            let mut bad = tile.clone();
            bad.add_inequality(&violated)?;
            if bad.is_rationally_empty(limits)? {
                continue;
            }
            let projected = bad.project_out(outer, nd - outer + n, limits)?.set;
            if projected.is_rationally_empty(limits)? {
                continue;
            }
            // Columns [prefix dims, params] → the nest's [dims, params].
            let to_nest: Vec<usize> = (0..outer + np).map(|c| if c < outer { c } else { nd + (c - outer) }).collect();
            let mut guards = Vec::new();
            for e in projected.equalities() {
                guards.push(Guard { expr: e.remap(nd + np, &to_nest)?, kind: GuardKind::Zero });
            }
            for f in projected.inequalities() {
                guards.push(Guard { expr: f.remap(nd + np, &to_nest)?, kind: GuardKind::NonNegative });
            }
            if !sets.contains(&guards) {
                sets.push(guards);
            }
        }
    }
    Ok(sets)
}

/// `node` with every form's columns moved by `mapping` into `len` columns and every loop's
/// dimension shifted by `outer`.
fn remap_ast(node: &LoopAst, mapping: &[usize], len: usize, outer: usize) -> CodegenResult<LoopAst> {
    let form = |f: &AffineForm| f.remap(len, mapping).map_err(CodegenError::from);
    let guards = |gs: &[Guard]| -> CodegenResult<Vec<Guard>> {
        gs.iter().map(|g| Ok(Guard { expr: form(&g.expr)?, kind: g.kind })).collect()
    };
    let bounds = |bs: &[super::ast::Bound]| -> CodegenResult<Vec<super::ast::Bound>> {
        bs.iter().map(|b| Ok(super::ast::Bound { expr: form(&b.expr)?, divisor: b.divisor })).collect()
    };
    Ok(match node {
        LoopAst::For(l) => LoopAst::For(ForLoop {
            dim: l.dim + outer,
            lower: bounds(&l.lower)?,
            upper: bounds(&l.upper)?,
            step: l.step,
            parallel: l.parallel,
            body: Box::new(remap_ast(&l.body, mapping, len, outer)?),
        }),
        LoopAst::If { guards: g, then } => {
            LoopAst::If { guards: guards(g)?, then: Box::new(remap_ast(then, mapping, len, outer)?) }
        }
        LoopAst::Stmt { statement, iter_values } => LoopAst::Stmt {
            statement: *statement,
            iter_values: iter_values.iter().map(form).collect::<CodegenResult<Vec<_>>>()?,
        },
        LoopAst::Seq(items) => {
            LoopAst::Seq(items.iter().map(|x| remap_ast(x, mapping, len, outer)).collect::<CodegenResult<Vec<_>>>()?)
        }
    })
}
