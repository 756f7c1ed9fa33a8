//! The crate's error type.
//!
//! Every fallible operation returns [`Result`]. Arithmetic is exact: an intermediate value that
//! does not fit the integer type in use is reported as [`PolyError::Overflow`], never wrapped.

use thiserror::Error;

/// Errors of the polyhedral library.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PolyError {
    /// An exact integer computation overflowed (checked `i64`, or `i128` inside the simplex).
    #[error(
        "integer overflow in {operation}: the coefficients are too large for exact arithmetic; \
         rescale the problem (smaller coefficients or constants) or split it"
    )]
    Overflow {
        /// The operation that overflowed.
        operation: &'static str,
    },

    /// An object was combined with one that lives in a different space.
    #[error("space mismatch in {context}: expected {expected} columns, found {found}")]
    SpaceMismatch {
        /// Where the mismatch was found.
        context: &'static str,
        /// The number of columns required.
        expected: usize,
        /// The number of columns supplied.
        found: usize,
    },

    /// A search hit one of the explicit limits in [`crate::Limits`].
    #[error(
        "{limit} limit of {value} exceeded in {context}; the problem is larger or more \
         degenerate than expected: raise `Limits::{limit}` if it is genuinely this large"
    )]
    LimitExceeded {
        /// The field of [`crate::Limits`] that was exceeded.
        limit: &'static str,
        /// Its value.
        value: usize,
        /// The operation that gave up.
        context: &'static str,
    },

    /// An operation that needs a bounded set (such as enumeration) met an unbounded one.
    #[error("{context}: the set is unbounded in `{dim}`; bound every dimension (and fix all parameters) first")]
    Unbounded {
        /// The operation.
        context: &'static str,
        /// The unbounded dimension.
        dim: String,
    },

    /// A textual constraint, form or polyhedron could not be parsed.
    #[error("cannot parse `{text}`: {message}")]
    Parse {
        /// The offending text.
        text: String,
        /// What is wrong with it.
        message: String,
    },

    /// A SCoP is malformed (dimensions, names, arrays or schedules do not fit together).
    #[error("invalid SCoP: {0}")]
    InvalidScop(String),

    /// An invariant of an algorithm did not hold; this is a bug in stencil-poly.
    #[error("internal error in stencil-poly ({0}); please report it with the input that triggered it")]
    Internal(&'static str),
}

/// Result type of the crate.
pub type Result<T> = std::result::Result<T, PolyError>;

/// Shorthand for an [`PolyError::Overflow`] in `operation`.
pub(crate) fn overflow(operation: &'static str) -> PolyError {
    PolyError::Overflow { operation }
}
