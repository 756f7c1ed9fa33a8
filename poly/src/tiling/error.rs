//! Errors of tiling and of the dependence analysis of tiled schedules.

use thiserror::Error;

use crate::dependence::DependenceId;
use crate::error::PolyError;

/// Why a schedule could not be tiled.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TilingError {
    /// An operation of the polyhedral core failed (overflow, a search limit).
    #[error(transparent)]
    Poly(#[from] PolyError),

    /// The schedules or bands do not fit the SCoP (row counts, band ranges, tile sizes).
    #[error("invalid tiling input: {0}")]
    InvalidInput(String),

    /// Some dependence is not respected by the tiled schedule: the band is not permutable
    /// (a dependence has a negative component on one of its rows, thesis Thm 3.3) or the
    /// schedule itself was illegal. `dim` is the tiled dimension where the target would run
    /// before the source (`None`: both instances get the same time stamp).
    #[error(
        "the tiled schedule violates dependence {} at {}; tile only permutable bands \
         (every dependence non-negative on every band row, thesis Thm 3.3)",
        dependence.0,
        match dim { Some(d) => format!("dimension `{d}`"), None => "no dimension (equal time stamps)".to_string() }
    )]
    Illegal {
        /// The violated dependence.
        dependence: DependenceId,
        /// The name of the tiled dimension where the order is reversed.
        dim: Option<String>,
    },
}

/// Result type of the tiling module.
pub type TilingResult<T> = std::result::Result<T, TilingError>;
