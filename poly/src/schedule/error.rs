//! Errors of the scheduler, the legality checker and the false-dependence analysis.

use thiserror::Error;

use crate::dependence::DependenceId;
use crate::error::PolyError;

/// Why a schedule could not be computed or checked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScheduleError {
    /// An operation of the polyhedral core failed (overflow, a search limit, a malformed SCoP).
    #[error(transparent)]
    Poly(#[from] PolyError),

    /// Pluto's search found no further hyperplane and no cut between strongly connected
    /// components can make progress (NOTES "Pluto's scheduler"; Pluto then falls back to the
    /// original schedule). Usually a dependence that needs a negative coefficient (a loop run
    /// backwards) or a coefficient above the bound.
    #[error(
        "no legal hyperplane after {rows} schedule rows; {unsatisfied} dependence(s) still unsatisfied \
         (first: dependence {first}); raise `SchedulerOptions::coefficient_bound` or keep the original schedule"
    )]
    NoHyperplane {
        /// Rows found before giving up.
        rows: usize,
        /// Number of dependences not yet satisfied.
        unsatisfied: usize,
        /// The first of them.
        first: usize,
    },

    /// With `intra_balance`, no first hyperplane strictly satisfies every self dependence
    /// (thesis Thm 4.1, Eq. 4.1) together with the legality constraints.
    #[error(
        "no first hyperplane with balanced intra-tile wavefronts (thesis Eq. 4.1) exists within the \
         coefficient bound; schedule with `intra_balance = false`"
    )]
    BalanceInfeasible,

    /// The schedule grew past [`crate::schedule::SchedulerOptions::max_rows`].
    #[error("the schedule needs more than {limit} rows; raise `SchedulerOptions::max_rows`")]
    TooManyRows {
        /// The limit.
        limit: usize,
    },

    /// The schedules handed to the legality checker do not fit the SCoP.
    #[error("invalid schedules: {0}")]
    InvalidSchedules(String),

    /// A dependence id that the dependence graph does not contain.
    #[error("dependence {0:?} is not in the dependence graph")]
    UnknownDependence(DependenceId),

    /// The array-copy plan cannot remove this dependence (thesis Alg. 4.2 covers anti
    /// dependences whose reads see values produced outside the copied loop level).
    #[error("cannot remove dependence {dependence} by array copying: {reason}")]
    CopyNotPossible {
        /// The dependence.
        dependence: usize,
        /// Why.
        reason: String,
    },
}

/// Result type of the scheduling module.
pub type ScheduleResult<T> = std::result::Result<T, ScheduleError>;
