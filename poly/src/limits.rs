//! Explicit limits for every search in the crate.
//!
//! Exact algorithms on integer polyhedra can take exponential time on adversarial inputs
//! (branch-and-bound on thin unbounded sets, Fourier–Motzkin blow-up). Instead of hidden
//! constants, every such loop is bounded by a field of [`Limits`]; hitting one is reported as
//! [`crate::PolyError::LimitExceeded`] naming the field, never as a wrong answer. Where a limit
//! only bounds an optional *simplification* (redundancy removal) the result stays exact and
//! merely less simplified.

/// Limits of the exact searches. `Limits::default()` is sized for stencil SCoPs and Pluto-style
/// scheduling problems (tens of variables, hundreds of constraints).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Simplex pivots per linear program (Bland's rule; exceeding it is an error).
    pub max_simplex_pivots: usize,
    /// Branch-and-bound nodes per integer program (exceeding it is an error).
    pub max_branch_nodes: usize,
    /// Constraints a Fourier–Motzkin elimination may hold after a step (exceeding it is an error).
    pub max_constraints: usize,
    /// Linear programs one redundancy-removal pass may solve; once spent, the remaining
    /// constraints are kept (the result stays exact, only less simplified). 0 = syntactic only.
    /// The pass after a growing Fourier–Motzkin step may check every row the step left
    /// (at most `max_constraints`), since unchecked rows would be combined again.
    pub max_redundancy_checks: usize,
    /// Points [`crate::Polyhedron::enumerate`] may produce (exceeding it is an error).
    pub max_enumerated_points: usize,
    /// Candidate values [`crate::Polyhedron::enumerate`] may try, summed over its levels
    /// (exceeding it is an error). Its bounds come from rational projections, which can span
    /// far more values than the set has points — a thin set in a huge box has none to produce
    /// and 2^40 values to try.
    pub max_enumeration_candidates: usize,
    /// Convex pieces a set difference may produce (exceeding it is an error).
    pub max_difference_pieces: usize,
    /// Rows the Fourier–Motzkin steps of the exact convex hull of a union (Balas' lifting,
    /// `codegen`) may produce in all (`l·u` summed over the steps): the projection's cost.
    /// Exceeding it is an error: the projection is exponential in the worst case (five fused
    /// 3-D statements once took minutes), so the loop bounds of such a fusion are refused
    /// instead. Six pieces in four dimensions (60 lifted columns) produce a few hundred rows in
    /// milliseconds; three fused 3-D statements (28 columns) about 40.
    pub max_hull_projection_rows: usize,
    /// Kill tests one direct-dependence analysis may run: a test asks whether a write of a third
    /// statement can lie between the source and the target of a memory-based dependence (thesis
    /// Table 3.1's direct dependences), and their number grows with the cube of the statements.
    /// Once spent, the remaining dependences keep their memory-based polyhedra (marked
    /// over-approximated: a superset of the direct ones, still safe for legality) — the analysis
    /// stays fast, only less precise.
    pub max_kill_tests: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_simplex_pivots: 20_000,
            max_branch_nodes: 20_000,
            max_constraints: 4_096,
            max_redundancy_checks: 512,
            max_enumerated_points: 1_000_000,
            max_enumeration_candidates: 16_000_000,
            max_difference_pieces: 256,
            max_hull_projection_rows: 5_000,
            max_kill_tests: 20_000,
        }
    }
}
