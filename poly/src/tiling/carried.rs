//! Which tiled dimensions carry dependences, and whether the tiled order respects them all.
//!
//! Everything is decided on dependence pairs `(i_s, i_t) ∈ P_e` with affine schedule-row
//! differences `Δφ_r = φ_r(i_t) − φ_r(i_s)` — no floor enters an integer program. Walking the
//! tiled dimensions outermost first, `Q` holds the pairs not yet ordered:
//!
//! * an affine dimension (untiled row, scalar row, point dimension `φ_r` or `Σ φ_r`) with
//!   difference `δ`: the dimension *violates* `e` if `Q ∩ {δ ≤ −1}` has an integer point,
//!   *carries* it if `Q ∩ {δ ≥ 1}` has one, and then `Q ← Q ∩ {δ = 0}`;
//! * the first tile dimension of a band checks permutability on `Q` (`Δφ_r ≥ 0` for every band
//!   row, thesis Thm 3.3): then `⌊φ/s⌋` never decreases along a dependence. The inter-tile
//!   wavefront `w = Σ T_k` carries `e` if some `Δφ_r ≥ 1`; with `Δw = 0` every `ΔT_k = 0`
//!   (Eq. 3.18), so the other tile dimensions carry nothing. A rectangular tile dimension
//!   carries `e` if `Δφ_r ≥ 1` on `Q`. Equal tiles imply `|Δφ_r| ≤ s_r − 1`, which is added to
//!   `Q` — a relaxation: later dimensions see a superset of the same-tile pairs.
//!
//! So a dimension marked parallel really carries no dependence (thesis Thm 3.2's DOALL), and a
//! schedule accepted as legal really respects every dependence; with tiles smaller than the
//! dependence distances the answers can be conservative (a point loop of one iteration per
//! tile marked sequential). All tests are exact integer emptiness.

use super::tiled::{DimDef, DimKind, TiledDim};
use crate::affine::AffineForm;
use crate::dependence::{DependenceGraph, DependenceId};
use crate::error::Result;
use crate::limits::Limits;
use crate::polyhedron::Polyhedron;
use crate::scop::{Schedule, Scop};

/// Where a dependence is violated by a tiled schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TiledViolation {
    /// The dependence.
    pub dependence: DependenceId,
    /// The dimension at which the target may run before the source (for a tile dimension: the
    /// band is not permutable); `None` when a source and a target instance may get the same
    /// time stamp.
    pub dim: Option<usize>,
}

/// The dependences of a SCoP seen through a tiled schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarriedDependences {
    /// Per dimension, whether some dependence is carried by it (the dimension is then
    /// sequential).
    pub carried: Vec<bool>,
    /// The first violated dependence, if any (the schedule is then illegal).
    pub violation: Option<TiledViolation>,
}

impl CarriedDependences {
    /// Whether dimension `dim` carries no dependence (DOALL).
    pub fn is_parallel(&self, dim: usize) -> bool {
        !self.carried.get(dim).copied().unwrap_or(true)
    }
}

/// Analyses every dependence of `graph` against the tiled dimensions `dims` of the schedules
/// `schedules` (one per statement of `scop`); see the module documentation. Stops at the
/// first violation.
pub fn carried_dependences(
    dims: &[TiledDim],
    schedules: &[Schedule],
    scop: &Scop,
    graph: &DependenceGraph,
    limits: &Limits,
) -> Result<CarriedDependences> {
    let mut carried = vec![false; dims.len()];
    for (id, dep) in graph.dependences().iter().enumerate() {
        let (Some(ss), Some(st)) = (schedules.get(dep.source.statement.0), schedules.get(dep.target.statement.0))
        else {
            return Err(crate::error::PolyError::Internal("a dependence refers to a statement without a schedule"));
        };
        let pairs = Pairs { source: ss, target: st, ns: ss.n_iterators(), q: dep.polyhedron_in_context(scop)? };
        let violation = |dim| TiledViolation { dependence: DependenceId(id), dim };
        match pairs.walk(dims, &mut carried, limits)? {
            Walk::Ordered => {}
            Walk::Violated(dim) => return Ok(CarriedDependences { carried, violation: Some(violation(dim)) }),
        }
    }
    Ok(CarriedDependences { carried, violation: None })
}

enum Walk {
    Ordered,
    Violated(Option<usize>),
}

/// The dependent pairs of one dependence, over `[i_s, i_t, params]`.
struct Pairs<'a> {
    source: &'a Schedule,
    target: &'a Schedule,
    ns: usize,
    q: Polyhedron,
}

impl Pairs<'_> {
    /// `φ_r(i_t) − φ_r(i_s)` over the pair columns.
    fn delta(&self, r: usize) -> Result<AffineForm> {
        let cols = self.q.n_columns();
        let nt = self.target.n_iterators();
        let np = cols - self.ns - nt;
        let params = |off: usize| (0..np).map(move |p| off + p);
        let src: Vec<usize> = (0..self.ns).chain(params(self.ns + nt)).collect();
        let tgt: Vec<usize> = (self.ns..self.ns + nt).chain(params(self.ns + nt)).collect();
        let row = |s: &Schedule| s.rows().get(r).cloned().ok_or(crate::error::PolyError::Internal("row out of range"));
        row(self.target)?.remap(cols, &tgt)?.checked_sub(&row(self.source)?.remap(cols, &src)?)
    }

    fn sum(&self, rows: &[usize]) -> Result<AffineForm> {
        let mut acc = AffineForm::zero(self.q.n_columns());
        for &r in rows {
            acc = acc.checked_add(&self.delta(r)?)?;
        }
        Ok(acc)
    }

    /// Whether `q ∩ {f ≥ 0}` has an integer point.
    fn meets(&self, f: &AffineForm, limits: &Limits) -> Result<bool> {
        let mut p = self.q.clone();
        p.add_inequality(f)?;
        Ok(!p.is_empty(limits)?)
    }

    fn walk(mut self, dims: &[TiledDim], carried: &mut [bool], limits: &Limits) -> Result<Walk> {
        if self.q.is_empty(limits)? {
            return Ok(Walk::Ordered);
        }
        for (k, d) in dims.iter().enumerate() {
            let delta = match &d.def {
                DimDef::Row(r) => self.delta(*r)?,
                DimDef::RowSum(rows) => self.sum(rows)?,
                DimDef::TileSum { rows, sizes } => {
                    if !self.permutable(rows, limits)? {
                        return Ok(Walk::Violated(Some(k)));
                    }
                    // w advances iff some band row does (all Δφ ≥ 0 here).
                    if self.meets(&self.sum(rows)?.checked_add_constant(-1)?, limits)? {
                        carried[k] = true;
                    }
                    for (&r, &s) in rows.iter().zip(sizes) {
                        self.same_tile(r, s)?;
                    }
                    if self.q.is_empty(limits)? {
                        return Ok(Walk::Ordered);
                    }
                    continue;
                }
                DimDef::Tile { row, size } => {
                    let wavefront = dims.iter().any(|x| x.band == d.band && x.kind == DimKind::TileWavefront);
                    if !wavefront {
                        let first = dims.iter().position(|x| x.band == d.band && x.kind == DimKind::Tile) == Some(k);
                        let rows: Vec<usize> = dims
                            .iter()
                            .filter(|x| x.band == d.band)
                            .filter_map(|x| if let DimDef::Tile { row, .. } = x.def { Some(row) } else { None })
                            .collect();
                        if first && !self.permutable(&rows, limits)? {
                            return Ok(Walk::Violated(Some(k)));
                        }
                        if self.meets(&self.delta(*row)?.checked_add_constant(-1)?, limits)? {
                            carried[k] = true;
                        }
                        self.same_tile(*row, *size)?;
                        if self.q.is_empty(limits)? {
                            return Ok(Walk::Ordered);
                        }
                    }
                    continue;
                }
            };
            if self.meets(&delta.checked_neg()?.checked_add_constant(-1)?, limits)? {
                return Ok(Walk::Violated(Some(k)));
            }
            if self.meets(&delta.checked_add_constant(-1)?, limits)? {
                carried[k] = true;
            }
            self.q.add_equality(&delta)?;
            if self.q.is_empty(limits)? {
                return Ok(Walk::Ordered);
            }
        }
        Ok(Walk::Violated(None))
    }

    /// Thesis Thm 3.3 on the pairs left: `Δφ_r ≥ 0` for every band row.
    fn permutable(&self, rows: &[usize], limits: &Limits) -> Result<bool> {
        for &r in rows {
            if self.meets(&self.delta(r)?.checked_neg()?.checked_add_constant(-1)?, limits)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Equal tiles of size `s` on row `r` imply `|Δφ_r| ≤ s − 1`.
    fn same_tile(&mut self, r: usize, s: i64) -> Result<()> {
        let d = self.delta(r)?;
        self.q.add_inequality(&d.checked_add_constant(s - 1)?)?;
        self.q.add_inequality(&d.checked_neg()?.checked_add_constant(s - 1)?)
    }
}
