//! The result of tiling: the new dimensions (tile, point and scalar), marked sequential or
//! parallel, and per statement its transformed iteration domain (thesis Eq. 3.15).

use std::fmt;

use crate::affine::AffineForm;
use crate::error::{PolyError, Result};
use crate::int::{floor_div, to_i64};
use crate::polyhedron::Polyhedron;
use crate::scop::{Schedule, StatementId};

/// The role of a tiled dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DimKind {
    /// A schedule row outside every tiled band (an untiled loop).
    Loop,
    /// A schedule row that is constant for every statement (statement order, thesis §3.2.3).
    Scalar,
    /// The inter-tile wavefront `w = Σ_k T_k` (thesis Eq. 3.17).
    TileWavefront,
    /// A tile dimension `T_k = ⌊φ_k / s_k⌋` (thesis Eq. 3.14).
    Tile,
    /// The intra-tile wavefront: the first hyperplane (thesis Def. 4.1) or `Σ_k φ_k`
    /// (Eq. 3.19).
    PointWavefront,
    /// A point (element) dimension `φ_k` (thesis Eq. 3.14's `e`).
    Point,
}

impl DimKind {
    /// A short description, as printed in loop comments.
    pub fn describe(self) -> &'static str {
        match self {
            DimKind::Loop => "loop",
            DimKind::Scalar => "statement order",
            DimKind::TileWavefront => "inter-tile wavefront",
            DimKind::Tile => "tile",
            DimKind::PointWavefront => "intra-tile wavefront",
            DimKind::Point => "point",
        }
    }
}

/// How a tiled dimension is computed from a statement's schedule rows `φ_r`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DimDef {
    /// `φ_r`.
    Row(usize),
    /// `φ_{r_1} + … + φ_{r_m}` (the intra-tile skew `Θ_S`, thesis Eq. 3.19).
    RowSum(Vec<usize>),
    /// `⌊φ_r / size⌋` (thesis Eq. 3.14).
    Tile {
        /// The row.
        row: usize,
        /// The tile size.
        size: i64,
    },
    /// `Σ_k ⌊φ_{r_k} / s_k⌋` (the inter-tile wavefront `Θ_T`, thesis Eq. 3.17).
    TileSum {
        /// The band's rows.
        rows: Vec<usize>,
        /// Their tile sizes.
        sizes: Vec<i64>,
    },
}

/// One dimension of the tiled schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TiledDim {
    /// Its name (`t1, t2, …` tile dimensions, `e1, …` point dimensions, `s1, …` scalar ones,
    /// `c1, …` untiled loops; made distinct from iterator and parameter names).
    pub name: String,
    /// Its role.
    pub kind: DimKind,
    /// Its value in terms of the schedule rows.
    pub def: DimDef,
    /// The tiled band it belongs to (tile and point dimensions, and the statement-order rows
    /// placed inside a tile).
    pub band: Option<usize>,
    /// Whether no dependence is carried by it (thesis Thm 3.2's DOALL): every dependent pair
    /// with equal outer dimensions has equal values here. Scalar dimensions are never
    /// parallel.
    pub parallel: bool,
}

/// One statement of the tiled schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TiledStatement {
    /// The statement.
    pub statement: StatementId,
    /// Thesis Eq. 3.15's `I'` with the wavefront skews of Eq. 3.19, over `[tiled dimensions…,
    /// the statement's iterators…, parameters…]`: the original domain, every point dimension and
    /// scalar row tied to its schedule row by an equality, and every tile dimension by
    /// `s·T ≤ φ ≤ s·T + s − 1`.
    pub domain: Polyhedron,
}

/// A tiled schedule (thesis Eq. 3.19): instances run in lexicographic order of their values
/// of [`TiledSchedule::dims`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TiledSchedule {
    /// The new dimensions, outermost first.
    pub dims: Vec<TiledDim>,
    /// Per statement (in statement order), its transformed domain.
    pub statements: Vec<TiledStatement>,
    /// The schedules that were tiled (one per statement).
    pub schedules: Vec<Schedule>,
    /// Per tiled band, the intra-tile schedule chosen ([`super::IntraTile::FirstHyperplane`]
    /// or [`super::IntraTile::Skew`]).
    pub intra_tile: Vec<super::IntraTile>,
    /// Per tiled band, where the statement-order rows went
    /// ([`super::StatementOrder::PerWavefront`] or [`super::StatementOrder::Innermost`]).
    pub statement_order: Vec<super::StatementOrder>,
}

impl TiledSchedule {
    /// Per statement, every point of every tile: the transformed domains without the
    /// statements' own domains (the schedule equalities and tile constraints only). A tile is
    /// *full* when these points all lie in the real domains; code for full tiles can then scan
    /// them with the tile's bounds alone.
    ///
    /// The constraints of [`TiledSchedule::point_bounds`] stay: they bound one point loop each,
    /// with the same value for every point of a step, so a tile they clip (the last time tile
    /// of a run shorter than the tile, the edge tiles of an unskewed band) is still full.
    pub fn full_tile_domains(&self, scop: &crate::scop::Scop) -> crate::error::Result<Vec<TiledStatement>> {
        let mut full = super::build::domains_of(scop, &self.schedules, &self.dims, false)?;
        let bounds = self.point_bounds(scop)?;
        for (st, kept) in full.iter_mut().zip(&bounds) {
            let cols = st.domain.n_columns();
            let nd = self.dims.len();
            let shift: Vec<usize> = (0..cols - nd).map(|c| nd + c).collect();
            for c in kept {
                st.domain.add_inequality(&c.remap(cols, &shift)?)?;
            }
        }
        Ok(full)
    }

    /// Per statement, the inequalities of its domain (over its iterators and the parameters)
    /// that bound a single point dimension of a tile: the iterators' coefficients are a
    /// multiple of those of the dimension's rows, so the constraint reads `a·e + b(params) ≥ 0`
    /// — a bound of `e`'s loop that every point of an outer step shares (for Jacobi-like
    /// programs tiled with time as the intra-tile wavefront: `0 ≤ t ≤ T − 1`). Full-tile code
    /// keeps these as loop bounds ([`TiledSchedule::full_tile_domains`]).
    pub fn point_bounds(&self, scop: &crate::scop::Scop) -> Result<Vec<Vec<AffineForm>>> {
        let mut out = Vec::with_capacity(self.schedules.len());
        for (s, sched) in self.schedules.iter().enumerate() {
            let st = scop.statement(StatementId(s)).ok_or(PolyError::Internal("a schedule without statement"))?;
            let n = sched.n_iterators();
            let directions: Vec<Vec<i64>> = self
                .dims
                .iter()
                .filter(|d| matches!(d.kind, DimKind::Point | DimKind::PointWavefront))
                .map(|d| {
                    let rows: &[usize] = match &d.def {
                        DimDef::Row(r) => std::slice::from_ref(r),
                        DimDef::RowSum(rows) => rows,
                        _ => &[],
                    };
                    (0..n).map(|i| rows.iter().map(|&r| sched.rows().get(r).map_or(0, |f| f.coeff(i))).sum()).collect()
                })
                .collect();
            let kept = st
                .domain()
                .inequalities()
                .iter()
                .filter(|c| directions.iter().any(|w| proportional(&c.coeffs()[..n], w)))
                .cloned()
                .collect();
            out.push(kept);
        }
        Ok(out)
    }

    /// Whether every point dimension other than the intra-tile wavefront is parallel (what
    /// [`super::tile`]'s `Auto` choices look for first).
    pub fn points_parallel(&self) -> bool {
        self.dims.iter().filter(|d| d.kind == DimKind::Point).all(|d| d.parallel)
    }

    /// Number of tiled dimensions.
    pub fn n_dims(&self) -> usize {
        self.dims.len()
    }

    /// The tiled time stamp of an instance of statement `s` (`point` = its iterators, then the
    /// parameter values), computed directly from the definitions (floor divisions), not from
    /// the domain — an independent check of the domains.
    pub fn time_stamp(&self, s: StatementId, point: &[i64]) -> Result<Vec<i64>> {
        let sched = self.schedules.get(s.0).ok_or(PolyError::Internal("time stamp of an unknown statement"))?;
        let phi = |r: usize| -> Result<i64> {
            sched.rows().get(r).ok_or(PolyError::Internal("schedule row out of range"))?.eval(point)
        };
        let tile = |r: usize, size: i64| -> Result<i64> {
            if size < 1 {
                return Err(PolyError::Internal("a tile size below 1 in a tiled schedule"));
            }
            to_i64(floor_div(i128::from(phi(r)?), i128::from(size)), "tiled time stamp")
        };
        let add = |a: i64, b: i64| a.checked_add(b).ok_or(PolyError::Overflow { operation: "tiled time stamp" });
        self.dims
            .iter()
            .map(|d| match &d.def {
                DimDef::Row(r) => phi(*r),
                DimDef::RowSum(rows) => rows.iter().try_fold(0i64, |acc, &r| add(acc, phi(r)?)),
                DimDef::Tile { row, size } => tile(*row, *size),
                DimDef::TileSum { rows, sizes } => {
                    rows.iter().zip(sizes).try_fold(0i64, |acc, (&r, &s)| add(acc, tile(r, s)?))
                }
            })
            .collect()
    }

    /// The dimension definitions written with the names of statement `s`'s schedule rows, e.g.
    /// `t1 = floor((2*t + i)/4) + floor((t + i)/4)  [inter-tile wavefront, sequential]`.
    pub fn display<'a>(&'a self, scop: &'a crate::scop::Scop) -> impl fmt::Display + 'a {
        Listing { tiled: self, scop }
    }
}

/// Whether `a` is a non-zero rational multiple of the non-zero `w`.
fn proportional(a: &[i64], w: &[i64]) -> bool {
    let Some(k) = w.iter().position(|&x| x != 0) else { return false };
    a[k] != 0
        && a.iter().zip(w).all(|(&ai, &wi)| i128::from(ai) * i128::from(w[k]) == i128::from(a[k]) * i128::from(wi))
}

struct Listing<'a> {
    tiled: &'a TiledSchedule,
    scop: &'a crate::scop::Scop,
}

impl fmt::Display for Listing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (s, sched) in self.scop.statements().iter().zip(&self.tiled.schedules) {
            let row = |r: usize| -> String {
                sched.rows().get(r).map(|x: &AffineForm| x.display(s.space()).to_string()).unwrap_or_default()
            };
            let parts: Vec<String> = self
                .tiled
                .dims
                .iter()
                .map(|d| match &d.def {
                    DimDef::Row(r) => row(*r),
                    DimDef::RowSum(rows) => {
                        rows.iter().map(|&r| format!("({})", row(r))).collect::<Vec<_>>().join(" + ")
                    }
                    DimDef::Tile { row: r, size } => format!("floor(({})/{size})", row(*r)),
                    DimDef::TileSum { rows, sizes } => rows
                        .iter()
                        .zip(sizes)
                        .map(|(&r, s)| format!("floor(({})/{s})", row(r)))
                        .collect::<Vec<_>>()
                        .join(" + "),
                })
                .collect();
            writeln!(f, "{}: ({})", s.name(), parts.join(", "))?;
        }
        for d in &self.tiled.dims {
            let mode = if d.kind == DimKind::Scalar {
                "scalar"
            } else if d.parallel {
                "parallel"
            } else {
                "sequential"
            };
            writeln!(f, "  {}: {}, {mode}", d.name, d.kind.describe())?;
        }
        Ok(())
    }
}
