//! What to tile: per-statement schedules, the permutable bands and their tile sizes, and how
//! to skew tiles and points into wavefronts.

use std::ops::Range;

use super::error::{TilingError, TilingResult};
use crate::limits::Limits;
use crate::scop::{Schedule, Scop};

/// A permutable band of consecutive schedule rows to tile rectangularly, with one tile size
/// per row (thesis Eq. 3.14's `s`). Every dependence not satisfied by the rows before the band
/// must be non-negative on each row of the band (thesis Thm 3.3); [`crate::tiling::tile`]
/// checks the result against the dependences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileBand {
    /// The schedule rows of the band (indices into every statement's schedule).
    pub rows: Range<usize>,
    /// The tile size of each row, `≥ 1` (size 1 makes every point its own tile).
    pub sizes: Vec<i64>,
}

impl TileBand {
    /// The band `rows` with tile sizes `sizes`.
    pub fn new(rows: Range<usize>, sizes: Vec<i64>) -> TileBand {
        TileBand { rows, sizes }
    }

    /// Number of rows (hyperplanes) in the band.
    pub fn width(&self) -> usize {
        self.rows.len()
    }
}

/// The input of tiling: one schedule per statement of the SCoP (in statement order, all with
/// the same number of rows; rows affine in the statement's iterators and the parameters,
/// scalar rows ordering statements as the β rows of thesis §3.2.3) and the bands to tile.
/// Rows outside every band stay as they are (untiled loops or scalar dimensions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TilingInput {
    /// Per statement, its schedule `Φ_S` (thesis §3.2.2), rows outermost first.
    pub schedules: Vec<Schedule>,
    /// The bands to tile, outermost first, disjoint.
    pub bands: Vec<TileBand>,
}

impl TilingInput {
    /// Schedules and bands (validated by [`TilingInput::validate`] when tiling).
    pub fn new(schedules: Vec<Schedule>, bands: Vec<TileBand>) -> TilingInput {
        TilingInput { schedules, bands }
    }

    /// Number of schedule rows (common to all statements; 0 without statements).
    pub fn n_rows(&self) -> usize {
        self.schedules.first().map_or(0, Schedule::len)
    }

    /// Whether row `r` is constant for every statement (a scalar dimension ordering
    /// statements, thesis §3.2.3).
    pub fn is_scalar_row(&self, r: usize) -> bool {
        self.schedules.iter().all(|s| !s.is_loop_row(r))
    }

    /// Checks the input against `scop`: one schedule per statement over its iterators, equal
    /// row counts, bands inside the rows, disjoint and in order, one size `≥ 1` per band row.
    pub fn validate(&self, scop: &Scop) -> TilingResult<()> {
        let bad = |m: String| Err(TilingError::InvalidInput(m));
        if self.schedules.len() != scop.statements().len() {
            return bad(format!(
                "{} schedules for {} statements; give one schedule per statement",
                self.schedules.len(),
                scop.statements().len()
            ));
        }
        let d = self.n_rows();
        for (s, (stmt, sched)) in scop.statements().iter().zip(&self.schedules).enumerate() {
            if sched.n_iterators() != stmt.n_iterators()
                || sched.rows().iter().any(|r| r.n_columns() != stmt.space().n_columns())
            {
                return bad(format!(
                    "the schedule of statement {s} ({}) is not over its space {}",
                    stmt.name(),
                    stmt.space()
                ));
            }
            if sched.len() != d {
                return bad(format!(
                    "statement {} has {} schedule rows, statement {} has {d}; pad with scalar rows",
                    stmt.name(),
                    sched.len(),
                    scop.statements()[0].name()
                ));
            }
        }
        let mut next_free = 0usize;
        for (b, band) in self.bands.iter().enumerate() {
            if band.rows.is_empty() || band.rows.end > d {
                return bad(format!("band {b} has rows {:?}, outside the {d} schedule rows", band.rows));
            }
            if band.rows.start < next_free {
                return bad(format!("band {b} overlaps the previous band or is out of order"));
            }
            if band.sizes.len() != band.width() {
                return bad(format!(
                    "band {b} has {} rows but {} tile sizes; give one size per row",
                    band.width(),
                    band.sizes.len()
                ));
            }
            if let Some(s) = band.sizes.iter().find(|&&s| s < 1) {
                return bad(format!("band {b} has tile size {s}; tile sizes must be at least 1"));
            }
            next_free = band.rows.end;
        }
        Ok(())
    }
}

/// The inter-tile schedule `Θ_T` (thesis §3.2.7.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InterTile {
    /// Thesis Eq. 3.17: the first tile dimension becomes the wavefront `w = Σ_k T_k`
    /// (sequential), the other tile dimensions stay (parallel when no dependence is carried).
    #[default]
    Wavefront,
    /// Tile dimensions `T_k = ⌊φ_k / s_k⌋` in band order (thesis Eq. 3.14, Fig. 3.14).
    Rectangular,
}

/// The intra-tile schedule `Θ_S` (thesis Def. 4.1, Eq. 3.19).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IntraTile {
    /// The first hyperplane when it leaves every other point dimension of the band parallel
    /// (balanced intra-tile wavefronts, thesis Thm 4.1), else the skew.
    #[default]
    Auto,
    /// Point dimensions `(φ_1, …, φ_m)`: the first hyperplane is the intra-tile wavefront
    /// (thesis Def. 4.1).
    FirstHyperplane,
    /// Thesis Eq. 3.19 with `Θ_S` of Eq. 3.17's shape: `(φ_1 + … + φ_m, φ_2, …, φ_m)`.
    Skew,
}

/// Where the scalar rows that follow a band (statement order) go among its point dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StatementOrder {
    /// Right after the intra-tile wavefront when that is legal (multi-statement tiles, thesis
    /// Fig. 4.7), else innermost.
    #[default]
    Auto,
    /// Statement groups in textual order per intra-tile wavefront step (thesis Fig. 4.7):
    /// `(…, e_1, β, e_2, …, e_m)`.
    PerWavefront,
    /// After all point dimensions: `(…, e_1, …, e_m, β)`.
    Innermost,
}

/// Options of [`crate::tiling::tile`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TilingOptions {
    /// The tile-level schedule.
    pub inter_tile: InterTile,
    /// The point-level schedule.
    pub intra_tile: IntraTile,
    /// The placement of statement-order rows inside tiles.
    pub statement_order: StatementOrder,
    /// Limits of the exact searches (dependence checks).
    pub limits: Limits,
}

impl TilingInput {
    /// The scheduler's result ([`crate::schedule::schedule`]) with tile sizes for its first
    /// `sizes.len()` permutable bands (`sizes[b]` for `transformation.bands[b]`, one size per
    /// row); the remaining bands stay untiled.
    pub fn from_transformation(
        transformation: &crate::schedule::Transformation,
        sizes: &[Vec<i64>],
    ) -> TilingResult<TilingInput> {
        if sizes.len() > transformation.bands.len() {
            return Err(TilingError::InvalidInput(format!(
                "tile sizes for {} bands, but the schedule has {} permutable band(s)",
                sizes.len(),
                transformation.bands.len()
            )));
        }
        let bands =
            transformation.bands.iter().zip(sizes).map(|(b, s)| TileBand::new(b.rows.clone(), s.clone())).collect();
        Ok(TilingInput { schedules: transformation.schedules.clone(), bands })
    }
}
