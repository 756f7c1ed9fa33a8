//! The tiled band as the models see it: per statement, the band's schedule rows as an integer
//! matrix over the iterators (thesis §5.2.1's skew `Φ_S` with its shifts), the statement's
//! iteration box at the problem sizes, its accesses; the intra-tile wavefront of the band and
//! the statement groups that run, barrier-separated, in each intra-tile wavefront step.
//!
//! [`ProgramShape::new`] reads this once from a [`TiledSchedule`] (any tile sizes: the shape
//! does not depend on them): one [`BandShape`] per nest — the statements a statement-order row
//! before the band separates (the forward and backward sweeps of SSOR) — and the sequential
//! loops around the band, which run on the host and repeat every nest ([`HostLoop`]). It
//! refuses, with a message, what the models do not cover: more than one tiled band, loops
//! inside the band or after it, host loops that are not one iterator of every statement over
//! the same values (or that band rows or accesses depend on), a rectangular inter-tile order,
//! sequential point dimensions, a band map that is not unimodular (|det| = 1: then the points
//! of a full tile are exactly the `s_1 × … × s_m` integer points of its box, thesis Eq. 5.6),
//! and iteration domains that are not boxes at the given problem sizes. [`BandShape::new`]
//! reads a program of one nest without host loops, what the search itself takes.

use stencil_poly::scop::Scop;
use stencil_poly::tiling::{DimDef, DimKind, IntraTile, TiledSchedule};

use crate::error::{Result, TileModelError};

/// The intra-tile wavefront of a tiled band (thesis Def. 4.1, Eq. 3.19).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntraWavefront {
    /// `e_1 = φ_1`: every step is an `s_2 × … × s_m` slice of the tile (balanced wavefronts,
    /// thesis Thm 4.1).
    FirstHyperplane,
    /// `e_1 = φ_1 + … + φ_m`: the steps are the diagonal slices of the tile.
    Skew,
}

/// One access of a statement: `array[linear · i + offset]` over the statement's iterators `i`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessShape {
    /// Index of the array in [`BandShape::arrays`].
    pub array: usize,
    /// Whether it is a write.
    pub write: bool,
    /// One row per array coordinate, one coefficient per iterator.
    pub linear: Vec<Vec<i64>>,
    /// The constant part of each coordinate (parameters substituted).
    pub offset: Vec<i64>,
}

/// One statement of the band.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementShape {
    /// Its name (the apply's).
    pub name: String,
    /// The band's rows over its iterators: `φ(i) = map · i + shift` (`m × m`).
    pub map: Vec<Vec<i64>>,
    /// The constant part of each band row (parameters substituted).
    pub shift: Vec<i64>,
    /// `map⁻¹` (an integer matrix: `map` is unimodular).
    pub inverse: Vec<Vec<i64>>,
    /// Its iteration domain at the problem sizes: `lower ≤ i ≤ upper` (inclusive).
    pub lower: Vec<i64>,
    /// See `lower`.
    pub upper: Vec<i64>,
    /// Its accesses.
    pub accesses: Vec<AccessShape>,
    /// Arithmetic operations one instance executes (the apply body's, for the models' per-point
    /// cost).
    pub operations: u32,
}

impl StatementShape {
    /// Number of instances at the problem sizes.
    pub fn instances(&self) -> u128 {
        self.lower.iter().zip(&self.upper).map(|(l, u)| (u - l + 1).max(0) as u128).product()
    }

    /// The range of band row `k` over its box, in 128 bits (where sums of 64-bit products
    /// cannot overflow); with `cut = Some((j, d))` over the box whose upper bound of iterator
    /// `j` is `d` lower (a count by period's shorter domain).
    pub(crate) fn row_range(&self, k: usize, cut: Option<(usize, i64)>) -> (i128, i128) {
        let mut lo = i128::from(self.shift[k]);
        let mut hi = lo;
        for (j, &c) in self.map[k].iter().enumerate() {
            let lowered = cut.filter(|&(i, _)| i == j).map_or(0, |(_, d)| i128::from(d));
            let (x, y) =
                (i128::from(c) * i128::from(self.lower[j]), i128::from(c) * (i128::from(self.upper[j]) - lowered));
            lo += x.min(y);
            hi += x.max(y);
        }
        (lo, hi)
    }
}

/// An array the band accesses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayShape {
    /// Its name.
    pub name: String,
    /// Its rank.
    pub rank: usize,
    /// Bytes per element.
    pub element_bytes: u32,
    /// Its bytes at the problem sizes; 0 when unknown.
    pub bytes: u64,
}

/// What the caller knows about the program beyond the SCoP: element sizes and operation
/// counts (the IR's business).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProgramFacts {
    /// Bytes per element of each array of the SCoP (by array id).
    pub element_bytes: Vec<u32>,
    /// Arithmetic operations per instance of each statement (by statement id).
    pub operations: Vec<u32>,
    /// Bytes of each array of the SCoP at the problem sizes (by array id; missing or 0:
    /// unknown).
    pub array_bytes: Vec<u64>,
}

/// A tiled band ready for counting (module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BandShape {
    /// Number of band rows `m`.
    pub width: usize,
    /// The intra-tile wavefront.
    pub intra: IntraWavefront,
    /// The statements of the band, in statement order.
    pub statements: Vec<StatementShape>,
    /// Per intra-tile wavefront step, the statement groups (indices into `statements`) that
    /// run one after another with a barrier in between (thesis Fig. 4.7); one group when the
    /// statements share the point loops.
    pub phases: Vec<Vec<usize>>,
    /// The arrays the statements access (by array id of the SCoP).
    pub arrays: Vec<ArrayShape>,
    /// The problem sizes: each parameter with its value.
    pub params: Vec<(String, i64)>,
}

/// A sequential loop outside the tiled band: it runs on the host (thesis §3.3.2) and repeats
/// the band's nests once per iteration, e.g. the time loop of a symmetric SOR whose forward and
/// backward sweeps are tiled on their own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostLoop {
    /// The loop's name (the tiled schedule's).
    pub name: String,
    /// Its iterations at the problem sizes.
    pub trips: u64,
}

/// A program as the models see it: the tiled nests that run one after another (each a
/// [`BandShape`], launched wavefront by wavefront), all inside the same sequential host loops.
/// Most programs have one nest and no host loop ([`ProgramShape::single`]); a program whose
/// statements are split by a statement-order row outside the band (the sweeps of SSOR) has one
/// nest per group, and its time is the host iterations times the sum of the nests' times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramShape {
    /// The host loops, outermost first.
    pub host_loops: Vec<HostLoop>,
    /// The nests in execution order; every nest tiles the same band (same width).
    pub nests: Vec<BandShape>,
    /// The problem sizes: each parameter with its value.
    pub params: Vec<(String, i64)>,
}

impl ProgramShape {
    /// The shape of `tiled` (a tiling of `scop`) at the parameter values `params` (in the order
    /// of `scop.params()`), with the element sizes and operation counts of `facts`; refuses, with
    /// a message, what the models do not cover (module documentation).
    pub fn new(scop: &Scop, tiled: &TiledSchedule, params: &[i64], facts: &ProgramFacts) -> Result<ProgramShape> {
        if params.len() != scop.params().len() {
            return Err(TileModelError::InvalidInput(format!(
                "{} parameter values for the parameters [{}]",
                params.len(),
                scop.params().join(", ")
            )));
        }
        let layout = DimLayout::read(tiled)?;
        let host = host_columns(scop, tiled, &layout, params)?;
        // Statements grouped by their statement-order rows before the band: one nest per value,
        // in execution order.
        let mut groups: Vec<(Vec<i64>, Vec<usize>)> = Vec::new();
        for s in 0..scop.statements().len() {
            let schedule = tiled.schedules.get(s).ok_or_else(|| {
                TileModelError::InvalidInput(format!("no schedule for statement {}", scop.statements()[s].name()))
            })?;
            let key: Vec<i64> = layout.nest_rows.iter().map(|&r| schedule.rows()[r].constant()).collect();
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(s),
                None => groups.push((key, vec![s])),
            }
        }
        groups.sort();
        let nests = groups
            .into_iter()
            .map(|(_, members)| nest_shape(scop, tiled, &layout, &members, &host.columns, params, facts))
            .collect::<Result<Vec<_>>>()?;
        if nests.iter().all(|n| n.instances() == 0) || host.loops.iter().any(|l| l.trips == 0) {
            return Err(TileModelError::InvalidInput("no statement has an instance at these problem sizes".into()));
        }
        let params = scop.params().iter().cloned().zip(params.iter().copied()).collect();
        Ok(ProgramShape { host_loops: host.loops, nests, params })
    }

    /// The one nest of a program without host loops (what the search and the models take
    /// directly); `None` otherwise.
    pub fn single(&self) -> Option<&BandShape> {
        match self.nests.as_slice() {
            [nest] if self.host_loops.is_empty() => Some(nest),
            _ => None,
        }
    }

    /// How many times the nests run: the product of the host loops' iterations.
    pub fn repeats(&self) -> u128 {
        self.host_loops.iter().map(|l| u128::from(l.trips)).product()
    }

    /// Number of band rows (every nest's).
    pub fn width(&self) -> usize {
        self.nests.first().map_or(0, |n| n.width)
    }

    /// `sizes` with each size that puts its row's whole range in one tile cut to the least such
    /// size: with every nest's `φ_k` in `[lo, hi]`, `0 ≤ lo`, any `s_k > hi` gives the one tile
    /// `T_k = 0` (tiles are `⌊φ_k / s_k⌋`), and so does `hi + 1`. The tiles hold the same points
    /// in the same order; cut, they lie inside the range, so the code generator runs them as
    /// full tiles instead of through the guarded partial-tile code (3-D SOR at 512³, T = 20:
    /// 8x4x8x24 → 8x4x8x20 ran 4.6 % faster on an H200, bench/results/2026-11-27-h200-54152c3).
    /// Rows reaching below 0, and sizes that split their row, are kept.
    pub fn one_tile_sizes(&self, sizes: &[i64]) -> Vec<i64> {
        let mut ranges: Vec<Option<(i64, i64)>> = vec![None; sizes.len()];
        for nest in self.nests.iter().filter(|n| n.instances() > 0) {
            for (range, (lo, hi)) in ranges.iter_mut().zip(nest.row_ranges()) {
                *range = Some(range.map_or((lo, hi), |(l, h)| (l.min(lo), h.max(hi))));
            }
        }
        sizes
            .iter()
            .zip(&ranges)
            .map(|(&s, range)| match *range {
                Some((lo, hi)) if lo >= 0 && hi < i64::MAX && s > hi + 1 => hi + 1,
                _ => s,
            })
            .collect()
    }

    /// Per band row, the widest extent (`max − min + 1` of `φ_k`) of the nests with instances:
    /// the extents whose tile sizes every nest's search considers ([`crate::nests`]).
    pub fn widest_extents(&self) -> Vec<i64> {
        let mut widest = vec![1i64; self.width()];
        for nest in self.nests.iter().filter(|n| n.instances() > 0) {
            for (w, (lo, hi)) in widest.iter_mut().zip(nest.row_ranges()) {
                *w = (*w).max(hi - lo + 1);
            }
        }
        widest
    }

    /// Statement instances at the problem sizes (the point updates), over every host iteration.
    pub fn instances(&self) -> u128 {
        self.repeats().saturating_mul(self.nests.iter().map(BandShape::instances).sum())
    }
}

/// Where the tiled schedule's dimensions put the band: its rows and intra-tile wavefront, the
/// host loops and the statement-order rows that split the statements into nests.
struct DimLayout {
    intra: IntraWavefront,
    /// The band's schedule rows, outermost first.
    band_rows: Vec<usize>,
    /// The intra-tile wavefront dimension.
    wavefront_dim: usize,
    /// The host loops: name and schedule row, outermost first.
    host_rows: Vec<(String, usize)>,
    /// Statement-order rows before the band (they separate nests).
    nest_rows: Vec<usize>,
    /// Statement-order rows outside the band after it: statements of one nest must agree on
    /// them (split by them they would not share the band's tiles).
    trailing_rows: Vec<(String, usize)>,
}

impl DimLayout {
    fn read(tiled: &TiledSchedule) -> Result<DimLayout> {
        let unsupported = |m: String| Err(TileModelError::Unsupported(m));
        if tiled.intra_tile.len() != 1 {
            return unsupported(format!(
                "the schedule has {} tiled bands; the models cover exactly one (tile the program with poly-tile)",
                tiled.intra_tile.len()
            ));
        }
        let intra = match tiled.intra_tile[0] {
            IntraTile::FirstHyperplane => IntraWavefront::FirstHyperplane,
            IntraTile::Skew => IntraWavefront::Skew,
            IntraTile::Auto => return unsupported("the intra-tile wavefront was not resolved".into()),
        };
        let first_band = tiled.dims.iter().position(|d| d.band == Some(0)).unwrap_or(tiled.dims.len());
        let mut band_rows: Option<Vec<usize>> = None;
        let mut wavefront_dim = None;
        let mut host_rows = Vec::new();
        let mut nest_rows = Vec::new();
        let mut trailing_rows = Vec::new();
        for (k, d) in tiled.dims.iter().enumerate() {
            match (d.kind, d.band, &d.def) {
                // A loop around the band runs on the host and repeats its nests.
                (DimKind::Loop, _, DimDef::Row(r)) if k < first_band => host_rows.push((d.name.clone(), *r)),
                (DimKind::Loop, _, _) => {
                    return unsupported(format!(
                        "the loop '{}' lies inside or after the tiled band (the models cover loops around the band's nests, not within them)",
                        d.name
                    ))
                }
                (DimKind::Scalar, None, DimDef::Row(r)) if k < first_band => nest_rows.push(*r),
                (DimKind::Scalar, None, DimDef::Row(r)) => trailing_rows.push((d.name.clone(), *r)),
                (DimKind::Tile, Some(0), _) if !d.parallel => {
                    return unsupported(format!("the tile dimension '{}' is sequential", d.name))
                }
                (DimKind::Point, Some(0), _) if !d.parallel => {
                    return unsupported(format!(
                        "the point dimension '{}' is sequential inside an intra-tile wavefront",
                        d.name
                    ))
                }
                (DimKind::TileWavefront, Some(0), DimDef::TileSum { rows, .. }) => band_rows = Some(rows.clone()),
                (DimKind::PointWavefront, Some(0), _) => wavefront_dim = Some(k),
                (DimKind::Tile, None, _) | (DimKind::TileWavefront, None, _) => {
                    return unsupported("a rectangular inter-tile order (the models need the inter-tile wavefront of thesis Eq. 3.17)".into())
                }
                _ => {}
            }
        }
        let (Some(band_rows), Some(wavefront_dim)) = (band_rows, wavefront_dim) else {
            return unsupported(
                "no inter-tile wavefront: the models need poly-tile's inter=wavefront (thesis Eq. 3.17)".into(),
            );
        };
        let m = band_rows.len();
        if m < 2 {
            return unsupported(format!(
                "the band has {m} row; the models need at least two (a sequential intra-tile wavefront and parallel points)"
            ));
        }
        Ok(DimLayout { intra, band_rows, wavefront_dim, host_rows, nest_rows, trailing_rows })
    }
}

/// The host loops with their iterations, and per statement the iterator each runs over.
struct HostColumns {
    loops: Vec<HostLoop>,
    /// Per statement, the iterator (column) of each host loop.
    columns: Vec<Vec<usize>>,
}

/// Each host loop's row must be one iterator of every statement (`φ = i_j + c`), over the same
/// values for every statement with instances: then every host iteration runs every nest whole.
fn host_columns(scop: &Scop, tiled: &TiledSchedule, layout: &DimLayout, params: &[i64]) -> Result<HostColumns> {
    let mut columns = vec![Vec::new(); scop.statements().len()];
    let mut loops = Vec::new();
    for (name, r) in &layout.host_rows {
        let mut range: Option<(i64, i64)> = None;
        for (s, stmt) in scop.statements().iter().enumerate() {
            let n = stmt.n_iterators();
            let row = &tiled.schedules[s].rows()[*r];
            let unsupported = || {
                TileModelError::Unsupported(format!(
                    "the host loop '{name}' of statement {} is not one of its iterators (the models cover loops around the band that run each nest whole)",
                    stmt.name()
                ))
            };
            let iterators: Vec<usize> = (0..n).filter(|&j| row.coeffs()[j] != 0).collect();
            let &[j] = iterators.as_slice() else { return Err(unsupported()) };
            if row.coeffs()[j] != 1 {
                return Err(unsupported());
            }
            columns[s].push(j);
            let (lower, upper) = domain_box(stmt, params)?;
            if lower.iter().zip(&upper).any(|(l, u)| l > u) {
                continue;
            }
            let c = eval_params(row.coeffs(), row.constant(), n, params)?;
            let values = (lower[j] + c, upper[j] + c);
            match range {
                None => range = Some(values),
                Some(seen) if seen == values => {}
                Some(seen) => {
                    return Err(TileModelError::Unsupported(format!(
                        "the host loop '{name}' runs statement {} over {}..={} but another statement over {}..={} (the models need every nest in every host iteration)",
                        stmt.name(),
                        values.0,
                        values.1,
                        seen.0,
                        seen.1
                    )))
                }
            }
        }
        let trips = range.map_or(0, |(l, u)| u64::try_from(u - l + 1).unwrap_or(0));
        loops.push(HostLoop { name: name.clone(), trips });
    }
    Ok(HostColumns { loops, columns })
}

/// One nest: the statements `members` of the band, over their iterators other than the host
/// loops' (`host[s]`).
fn nest_shape(
    scop: &Scop,
    tiled: &TiledSchedule,
    layout: &DimLayout,
    members: &[usize],
    host: &[Vec<usize>],
    params: &[i64],
    facts: &ProgramFacts,
) -> Result<BandShape> {
    let unsupported = |m: String| Err(TileModelError::Unsupported(m));
    let rows = &layout.band_rows;
    let m = rows.len();
    let first = members[0];
    let mut statements = Vec::with_capacity(members.len());
    for &s in members {
        let stmt = &scop.statements()[s];
        let sched = &tiled.schedules[s];
        for (name, r) in &layout.trailing_rows {
            if sched.rows()[*r].constant() != tiled.schedules[first].rows()[*r].constant() {
                return unsupported(format!(
                    "statements {} and {} are in different loop nests (scalar dimension '{name}')",
                    scop.statements()[first].name(),
                    stmt.name(),
                ));
            }
        }
        let n = stmt.n_iterators();
        // The band's own iterators: the statement's less those of the host loops.
        let kept: Vec<usize> = (0..n).filter(|j| !host[s].contains(j)).collect();
        if kept.len() != m {
            return unsupported(format!(
                "statement {} has {} iterators inside the host loops but the band has {m} rows (the models need one band row per loop)",
                stmt.name(),
                kept.len()
            ));
        }
        let on_host = |coeffs: &[i64]| host[s].iter().any(|&j| coeffs[j] != 0);
        let host_dependent = |what: &str| {
            unsupported(format!(
                "{what} of statement {} depends on a host loop's iterator (the nests would differ between host iterations)",
                stmt.name()
            ))
        };
        let mut map = Vec::with_capacity(m);
        let mut shift = Vec::with_capacity(m);
        for &r in rows {
            let row = &sched.rows()[r];
            if on_host(row.coeffs()) {
                return host_dependent("a band row");
            }
            if row.coeffs().iter().any(|c| c.unsigned_abs() > MAX_BAND_COEFFICIENT) {
                return unsupported(format!(
                    "a band row of statement {} has a coefficient above {MAX_BAND_COEFFICIENT} in magnitude (the models' exact counts work with the band's minors)",
                    stmt.name()
                ));
            }
            map.push(kept.iter().map(|&j| row.coeffs()[j]).collect());
            shift.push(eval_params(row.coeffs(), row.constant(), n, params)?);
        }
        let inverse = unimodular_inverse(&map).ok_or_else(|| {
            TileModelError::Unsupported(format!(
                "the band rows of statement {} are not unimodular (|det| != 1): a tile's points are then not its box's",
                stmt.name()
            ))
        })?;
        let (lower, upper) = domain_box(stmt, params)?;
        let mut accesses = Vec::new();
        for a in stmt.accesses() {
            let mut linear = Vec::new();
            let mut offset = Vec::new();
            for f in a.index() {
                if on_host(f.coeffs()) {
                    return host_dependent("an access");
                }
                linear.push(kept.iter().map(|&j| f.coeffs()[j]).collect());
                offset.push(eval_params(f.coeffs(), f.constant(), n, params)?);
            }
            accesses.push(AccessShape { array: a.array().0, write: a.is_write(), linear, offset });
        }
        statements.push(StatementShape {
            name: stmt.name().to_string(),
            map,
            shift,
            inverse,
            lower: kept.iter().map(|&j| lower[j]).collect(),
            upper: kept.iter().map(|&j| upper[j]).collect(),
            accesses,
            operations: facts.operations.get(s).copied().unwrap_or(1),
        });
    }
    let phases = phases(tiled, layout.wavefront_dim, members);
    let arrays = scop
        .arrays()
        .iter()
        .enumerate()
        .map(|(k, a)| ArrayShape {
            name: a.name.clone(),
            rank: a.rank,
            element_bytes: facts.element_bytes.get(k).copied().unwrap_or(8),
            bytes: facts.array_bytes.get(k).copied().unwrap_or(0),
        })
        .collect();
    let params = scop.params().iter().cloned().zip(params.iter().copied()).collect();
    Ok(BandShape { width: m, intra: layout.intra, statements, phases, arrays, params })
}

impl BandShape {
    /// A copy with what the inter-tile counts read (`crate::inter`): the statements' maps,
    /// shifts, inverses and boxes, and the width; no accesses, arrays, names or parameters (a
    /// count makes such copies with its rows reordered or an iterator's range cut, thousands
    /// of times per search).
    pub(crate) fn counting_copy(&self) -> BandShape {
        BandShape {
            width: self.width,
            intra: self.intra,
            statements: self
                .statements
                .iter()
                .map(|s| StatementShape {
                    name: String::new(),
                    map: s.map.clone(),
                    shift: s.shift.clone(),
                    inverse: s.inverse.clone(),
                    lower: s.lower.clone(),
                    upper: s.upper.clone(),
                    accesses: Vec::new(),
                    operations: s.operations,
                })
                .collect(),
            phases: Vec::new(),
            arrays: Vec::new(),
            params: Vec::new(),
        }
    }

    /// `Ok` when `sizes` are one tile size >= 1 per band row; every count and footprint of a
    /// tiling checks its sizes so before using them (they divide by them and size arrays with
    /// them).
    pub fn check_sizes(&self, sizes: &[i64]) -> Result<()> {
        if sizes.len() != self.width || sizes.iter().any(|&s| s < 1) {
            return Err(TileModelError::InvalidInput(format!("{sizes:?} are not {} tile sizes >= 1", self.width)));
        }
        Ok(())
    }

    /// The shape of `tiled` (a tiling of `scop`) at the parameter values `params` (in the order
    /// of `scop.params()`), with the element sizes and operation counts of `facts`: a program of
    /// one nest without host loops ([`ProgramShape`] covers the others).
    pub fn new(scop: &Scop, tiled: &TiledSchedule, params: &[i64], facts: &ProgramFacts) -> Result<BandShape> {
        let program = ProgramShape::new(scop, tiled, params, facts)?;
        if let Some(loop_) = program.host_loops.first() {
            return Err(TileModelError::Unsupported(format!(
                "the loop '{}' lies outside the tiled band (a band shape is one nest; ProgramShape covers host loops)",
                loop_.name
            )));
        }
        let nests = program.nests.len();
        program.nests.into_iter().next().filter(|_| nests == 1).ok_or_else(|| {
            TileModelError::Unsupported(format!(
                "the statements form {nests} loop nests (a band shape is one nest; ProgramShape covers several)"
            ))
        })
    }

    /// The largest element size of the arrays the band accesses, in bytes.
    pub fn element_bytes(&self) -> u32 {
        self.arrays.iter().map(|a| a.element_bytes).max().unwrap_or(8)
    }

    /// Bytes of the program's arrays at the problem sizes (what must fit in L2 for tiles'
    /// loads to stay there across launches); 0 when some array's size is unknown.
    pub fn data_bytes(&self) -> u64 {
        if self.arrays.iter().any(|a| a.bytes == 0) {
            return 0;
        }
        self.arrays.iter().fold(0u64, |acc, a| acc.saturating_add(a.bytes))
    }

    /// Arithmetic operations per point of a full tile (every statement of the band once).
    pub fn operations_per_point(&self) -> u32 {
        self.statements.iter().map(|s| s.operations).sum()
    }

    /// Statement instances at the problem sizes (the point updates).
    pub fn instances(&self) -> u128 {
        self.statements.iter().map(StatementShape::instances).sum()
    }

    /// Per band row, the range `[min, max]` of `φ_k` over every statement's instances (each end
    /// saturated to 64 bits: at sizes where it does not fit, [`BandShape::checked_row_ranges`]
    /// says so, and every count of tiles refuses them).
    pub fn row_ranges(&self) -> Vec<(i64, i64)> {
        let clamp = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        self.wide_row_ranges().into_iter().map(|(lo, hi)| (clamp(lo), clamp(hi))).collect()
    }

    /// [`BandShape::row_ranges`], `None` when an end does not fit 64 bits.
    pub fn checked_row_ranges(&self) -> Option<Vec<(i64, i64)>> {
        self.wide_row_ranges()
            .into_iter()
            .map(|(lo, hi)| Some((i64::try_from(lo).ok()?, i64::try_from(hi).ok()?)))
            .collect()
    }

    /// The row ranges in 128 bits, where sums of 64-bit products cannot overflow.
    fn wide_row_ranges(&self) -> Vec<(i128, i128)> {
        (0..self.width)
            .map(|k| {
                let mut lo = i128::from(i64::MAX);
                let mut hi = i128::from(i64::MIN);
                for s in self.statements.iter().filter(|s| s.instances() > 0) {
                    let (a, b) = s.row_range(k, None);
                    lo = lo.min(a);
                    hi = hi.max(b);
                }
                (lo, hi)
            })
            .collect()
    }
}

/// `coeffs[..n]·0 + coeffs[n..]·params + constant`: the value of an affine form's parameter
/// and constant part.
fn eval_params(coeffs: &[i64], constant: i64, n: usize, params: &[i64]) -> Result<i64> {
    let mut v = i128::from(constant);
    for (c, p) in coeffs[n..].iter().zip(params) {
        v += i128::from(*c) * i128::from(*p);
    }
    i64::try_from(v).map_err(|_| TileModelError::Overflow("a schedule row's constant"))
}

/// The box `lower ≤ i ≤ upper` of a statement's domain at the parameter values; an error when
/// the domain is not a box.
fn domain_box(stmt: &stencil_poly::scop::Statement, params: &[i64]) -> Result<(Vec<i64>, Vec<i64>)> {
    let n = stmt.n_iterators();
    let fixed = stmt.domain().fix_params(params)?;
    let mut lower = vec![i64::MIN; n];
    let mut upper = vec![i64::MAX; n];
    let not_box = || {
        TileModelError::Unsupported(format!(
            "the iteration domain of statement {} is not a box at these problem sizes",
            stmt.name()
        ))
    };
    let mut empty = fixed.is_known_empty();
    let rows = fixed.equalities().iter().map(|f| (f, true)).chain(fixed.inequalities().iter().map(|f| (f, false)));
    for (f, equality) in rows {
        let nonzero: Vec<usize> = (0..n).filter(|&j| f.coeff(j) != 0).collect();
        match nonzero.as_slice() {
            [] => {
                let c = f.constant();
                if (equality && c != 0) || (!equality && c < 0) {
                    empty = true;
                }
            }
            &[j] => {
                let a = f.coeff(j);
                let c = f.constant();
                // a·x + c ≥ 0 (or = 0).
                if equality {
                    if c % a != 0 {
                        empty = true;
                    } else {
                        let x = -c / a;
                        lower[j] = lower[j].max(x);
                        upper[j] = upper[j].min(x);
                    }
                } else if a > 0 {
                    lower[j] = lower[j].max(ceil_div(-c, a));
                } else {
                    upper[j] = upper[j].min(floor_div(c, -a));
                }
            }
            _ => return Err(not_box()),
        }
    }
    if lower.contains(&i64::MIN) || upper.contains(&i64::MAX) {
        return Err(TileModelError::Unsupported(format!(
            "the iteration domain of statement {} is unbounded",
            stmt.name()
        )));
    }
    if empty || lower.iter().zip(&upper).any(|(l, u)| l > u) {
        // An empty statement: a box with no points.
        upper = lower.iter().map(|l| l - 1).collect();
    }
    Ok((lower, upper))
}

/// Per intra-tile wavefront step, the statement groups (indices into `members`, the nest's
/// statements): statements are split by the scalar dimensions right after the intra-tile
/// wavefront (statement order per wavefront, thesis Fig. 4.7) and share the point loops
/// otherwise.
fn phases(tiled: &TiledSchedule, wavefront_dim: usize, members: &[usize]) -> Vec<Vec<usize>> {
    let scalars: Vec<usize> = tiled.dims[wavefront_dim + 1..]
        .iter()
        .take_while(|d| d.kind == DimKind::Scalar && d.band == Some(0))
        .filter_map(|d| if let DimDef::Row(r) = d.def { Some(r) } else { None })
        .collect();
    let mut groups: Vec<(Vec<i64>, Vec<usize>)> = Vec::new();
    for (local, &s) in members.iter().enumerate() {
        let key: Vec<i64> = scalars.iter().map(|&r| tiled.schedules[s].rows()[r].constant()).collect();
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(local),
            None => groups.push((key, vec![local])),
        }
    }
    groups.sort();
    groups.into_iter().map(|(_, g)| g).collect()
}

/// `⌊a / b⌋` for `b > 0`.
pub(crate) fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

/// `⌈a / b⌉` for `b > 0`.
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

/// The largest magnitude of a band row's coefficient the models take: the counts compute
/// minors and determinants of the band matrix (up to 4×4 with the unit vectors), which then fit
/// `i64` with room to spare (Schedulers write coefficients of a few units).
pub(crate) const MAX_BAND_COEFFICIENT: u64 = 1 << 10;

/// The determinant and inverse of small integer matrices (`stencil_poly`'s, which the band
/// scheduler uses too).
pub(crate) use stencil_poly::{determinant, unimodular_inverse};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_the_sor_2d_band() {
        // thesis Ch. 4's 2-D SOR schedule (2t + i + j, t + i + j, t + j).
        let m = vec![vec![2, 1, 1], vec![1, 1, 1], vec![1, 0, 1]];
        let inv = unimodular_inverse(&m).expect("unimodular");
        for (i, row) in m.iter().enumerate() {
            for j in 0..3 {
                let v: i64 = row.iter().zip(&inv).map(|(a, r)| a * r[j]).sum();
                assert_eq!(v, i64::from(i == j));
            }
        }
        assert!(unimodular_inverse(&[vec![2, 0], vec![0, 1]]).is_none());
    }

    #[test]
    fn integer_division_rounds_towards_infinities() {
        assert_eq!((floor_div(-3, 2), ceil_div(-3, 2), floor_div(3, 2), ceil_div(3, 2)), (-2, -1, 1, 2));
    }
}
