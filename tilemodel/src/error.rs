//! Errors of the tile models, their inputs, calibration files and the search.

use thiserror::Error;

/// Everything that can go wrong in this crate; each message says what to do next.
#[derive(Debug, Error)]
pub enum TileModelError {
    /// The tiled program has a shape the models do not cover (the message names it).
    #[error("the tile model does not cover this tiling: {0}")]
    Unsupported(String),
    /// A tile size, block or problem size is out of range.
    #[error("invalid tile-model input: {0}")]
    InvalidInput(String),
    /// Tiles too small for the problem: more inter-tile wavefronts than one count holds
    /// ([`crate::inter::MAX_WAVEFRONTS`]; the message names the sizes), where the counts do not
    /// repeat within that many. The search prunes such sizes
    /// ([`crate::search::PruneReason::TooManyWavefronts`]).
    #[error("{0}")]
    TooManyWavefronts(String),
    /// An integer did not fit while counting.
    #[error("integer overflow while counting {0}; use smaller problem or tile sizes")]
    Overflow(&'static str),
    /// The polyhedral library failed.
    #[error(transparent)]
    Poly(#[from] stencil_poly::PolyError),
    /// A calibration file could not be read or is malformed.
    #[error("calibration file {path}: {message}")]
    Calibration {
        /// The file (or `<built-in>`).
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// A least-squares fit could not be done.
    #[error("calibration fit failed: {0}")]
    Fit(String),
    /// The search found no layout.
    #[error("no tile layout survives the search: {0}")]
    NoLayout(String),
}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, TileModelError>;
