//! Options of the scheduler (every search bound explicit, STYLE.md "egg").

use crate::limits::Limits;

/// How statements are distributed when no common hyperplane exists (Pluto's `--fuse`).
///
/// Cuts are scalar schedule rows between strongly connected components of the graph of the
/// dependences not yet satisfied (NOTES "Pluto's scheduler").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FuseStrategy {
    /// Pluto's default: first cut between components of different dimensionality, then in the
    /// middle of the component order, then between far-apart connected components; once every
    /// statement has a full-rank transformation, cut between all components.
    #[default]
    Smart,
    /// Fuse as much as possible: each time, make the single cut that separates the fewest
    /// components (Pluto's `cut_conservative`).
    Max,
    /// No fusion: every strongly connected component gets its own loop nest.
    None,
}

impl std::str::FromStr for FuseStrategy {
    type Err = String;

    /// `smart`, `max` or `none` (the spelling of the `fuse=` pass option).
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "smart" => Ok(FuseStrategy::Smart),
            "max" => Ok(FuseStrategy::Max),
            "none" | "no" => Ok(FuseStrategy::None),
            other => Err(format!("unknown fusion strategy `{other}`: expected smart, max or none")),
        }
    }
}

/// How each basis vector of the orthogonal sub-space is oriented before Pluto's sign test
/// (which negates a vector `b` when `b·c ≥ 1` is infeasible with the other constraints).
///
/// Both orientations give the same hyperplanes whenever the rows found so far are unit
/// vectors (every Pluto reference result of our stencil tests); they differ after a skewed
/// row, where both half-spaces are feasible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OrthoOrientation {
    /// Innermost non-zero component positive: the new hyperplane leans towards the inner
    /// iterators. With it the balanced schedule of thesis Fig. 4.3 comes out as the thesis
    /// prints it, `Φ = [[2, 1], [1, 1]]`.
    #[default]
    InnermostPositive,
    /// The orientation of isl's right kernel (`isl_mat_right_kernel`, which current Pluto
    /// uses): after the row `(2, 1)` it yields `(1, −2)` and the second row `(1, 0)`.
    Isl,
}

/// Options of [`crate::schedule::schedule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchedulerOptions {
    /// Thesis Alg. 4.1: require `φ¹(i_t) − φ¹(i_s) ≥ 1` on every self dependence for the
    /// first hyperplane (balanced intra-tile wavefronts, Def. 4.1 / Thm 4.1). On by default
    /// (the GPU target); [`SchedulerOptions::pluto`] turns it off to reproduce Pluto.
    pub intra_balance: bool,
    /// Distribution strategy when no hyperplane exists.
    pub fuse: FuseStrategy,
    /// Upper bound of every iterator coefficient and shift (all are ≥ 0, as in Pluto); keeps
    /// shifts from growing with loop bounds and the integer programs bounded. A floor, not a
    /// ceiling: where the accesses reach farther, the scheduler raises it to the farthest
    /// constant offset times the statements (capped at 2²⁰), since a shift as large as a chain
    /// of dependence distances must fit under it (1-D Jacobi reading 17 points away needs the
    /// shift 17; with 16 the only legal row left was a scaling no code generator takes).
    pub coefficient_bound: i64,
    /// Orientation of the orthogonal sub-space basis (see [`OrthoOrientation`]).
    pub ortho_orientation: OrthoOrientation,
    /// Most schedule rows (hyperplanes and scalar cuts) before giving up.
    pub max_rows: usize,
    /// Most combinations of half-spaces tried by the last-resort search for a linearly
    /// independent hyperplane, where Pluto would give up (one half-space `±b·c ≥ 1` per
    /// kernel basis vector, per statement that needs a row); also the most case
    /// combinations of the unimodular completion (one `u·c = ±1` per kernel basis vector, per
    /// statement whose rows Pluto's row would leave non-unimodular), beyond which Pluto's row
    /// is kept.
    pub max_independence_cases: usize,
    /// Limits of the exact searches (Farkas elimination, integer programs).
    pub limits: Limits,
}

impl SchedulerOptions {
    /// Pluto's behaviour: no balanced-wavefront constraint, smart fusion.
    pub fn pluto() -> SchedulerOptions {
        SchedulerOptions { intra_balance: false, ..SchedulerOptions::default() }
    }

    /// The GPU target of the thesis: balanced intra-tile wavefronts (Alg. 4.1).
    pub fn gpu() -> SchedulerOptions {
        SchedulerOptions::default()
    }
}

impl Default for SchedulerOptions {
    fn default() -> Self {
        SchedulerOptions {
            intra_balance: true,
            fuse: FuseStrategy::Smart,
            coefficient_bound: 16,
            ortho_orientation: OrthoOrientation::InnermostPositive,
            max_rows: 64,
            max_independence_cases: 4096,
            limits: Limits::default(),
        }
    }
}
