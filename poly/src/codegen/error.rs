//! Errors of polyhedral scanning.

use thiserror::Error;

use crate::error::PolyError;

/// Why a loop nest could not be generated or executed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CodegenError {
    /// An operation of the polyhedral core failed (overflow, a search limit).
    #[error(transparent)]
    Poly(#[from] PolyError),

    /// The scan problem is malformed (spaces, names, parameter values).
    #[error("invalid scan problem: {0}")]
    InvalidProblem(String),

    /// An original iterator is not an affine function of the scanned dimensions: the schedule
    /// has fewer independent rows than the statement has loops.
    #[error(
        "statement {statement}: iterator `{iterator}` is not determined by the scanned dimensions; \
         the schedule needs one independent row per loop of the statement"
    )]
    UndeterminedIterator {
        /// The statement's name.
        statement: String,
        /// The iterator.
        iterator: String,
    },

    /// An original iterator is determined only up to a divisor (the schedule is not
    /// unimodular): the loops would need strides, which this generator does not emit.
    #[error(
        "statement {statement}: iterator `{iterator}` is only determined as a multiple ({divisor}×) of the \
         scanned dimensions; use a unimodular schedule (e.g. skews instead of scalings)"
    )]
    NonUnimodular {
        /// The statement's name.
        statement: String,
        /// The iterator.
        iterator: String,
        /// The non-unit coefficient.
        divisor: i64,
    },

    /// A dimension has no lower or no upper bound over the statements that run in it.
    #[error(
        "dimension `{dim}` is unbounded {side} for statement(s) {statements}; bound every dimension in the domains"
    )]
    Unbounded {
        /// The dimension.
        dim: String,
        /// `below` or `above`.
        side: &'static str,
        /// The statements' names.
        statements: String,
    },

    /// The elements one statement touches in one array within a tile are not an exact integer
    /// projection with at most one existential iterator, so no exact membership test exists.
    #[error(
        "the elements statement {statement} touches in array {array} within one tile have no exact description \
         (an inexact projection); shared-memory staging would load or store elements of other tiles"
    )]
    FootprintInexact {
        /// The statement's name.
        statement: String,
        /// The array's name.
        array: String,
    },

    /// The elements one tile touches are not bounded along an array coordinate by the tile.
    #[error(
        "the elements of array {array} one tile touches do not fit a box of bounded size along coordinate \
         {coordinate}: a dimension the tiles do not cut, or accesses far apart (a fixed index, as `at [0, %j]`, \
         beside the tile's own points), so they cannot be staged; tile every dimension, or do not stage \
         these tiles"
    )]
    FootprintUnbounded {
        /// The array's name.
        array: String,
        /// The coordinate (0 = outermost).
        coordinate: usize,
    },

    /// Executing the loop nest exceeded its instance budget.
    #[error("executing the loop nest exceeded {limit} statement instances; raise `ExecuteOptions::max_instances`")]
    TooManyInstances {
        /// The budget.
        limit: usize,
    },
}

/// Result type of the code generator.
pub type CodegenResult<T> = std::result::Result<T, CodegenError>;
