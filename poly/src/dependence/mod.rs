//! Dependence analysis (thesis §3.1.1, §3.2.4–3.2.5) and the data dependence graph.
//!
//! For every ordered pair of accesses to the same array, at least one a write, and every
//! schedule row `p` at which the source instance can precede the target one, the *dependence
//! polyhedron* is the set of instance pairs `⟨i_s, i_t⟩` (plus parameters) with
//! `i_s ∈ D_S`, `i_t ∈ D_T`, both accesses touching the same element, and
//! `Θ_S(i_s) ≺ Θ_T(i_t)` carried at row `p` (equal rows before `p`, strictly increasing at
//! `p`). One [`Dependence`] is one such convex polyhedron; a dependence relation that is not
//! convex is split into several.
//!
//! Two semantics ([`DependenceMode`]):
//! * [`DependenceMode::MemoryBased`]: every conflicting pair (isl's may-dependences, Candl's
//!   default).
//! * [`DependenceMode::Direct`] (default): only pairs with no write to the same element by an
//!   instance strictly between them — for flow dependences exactly Feautrier's last-writer
//!   (value-based) dependences, and the dependences thesis Table 3.1 lists. Every memory-based
//!   pair is a chain of direct ones, so a schedule that respects the direct dependences respects
//!   all (lexicographic positivity, and Thm 3.3's component-wise non-negativity, are
//!   transitive).
//!
//! Instances are the unit of order: the accesses of one instance are never dependent on each
//! other, and a write of the source's or target's own instance never kills.

mod analysis;
mod ddg;
pub(crate) mod precedence;

use std::fmt;

pub use ddg::{DependenceGraph, DependenceId};

use crate::limits::Limits;
use crate::polyhedron::Polyhedron;
use crate::scop::{AccessId, Scop, StatementId};

/// The kind of a dependence (thesis §3.1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DependenceKind {
    /// Read after write (true dependence).
    Flow,
    /// Write after read (false dependence).
    Anti,
    /// Write after write (false dependence).
    Output,
}

impl DependenceKind {
    /// Whether this is a false dependence (anti or output), removable by array copies
    /// (thesis Alg. 4.2).
    pub fn is_false(self) -> bool {
        !matches!(self, DependenceKind::Flow)
    }
}

impl fmt::Display for DependenceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DependenceKind::Flow => "flow",
            DependenceKind::Anti => "anti",
            DependenceKind::Output => "output",
        })
    }
}

/// Which schedule row orders the instance pairs of a dependence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DependenceLevel {
    /// Carried by the loop at `depth` (1 = outermost): the source runs in an earlier iteration
    /// of that loop, all enclosing iterators being equal.
    Carried {
        /// Loop depth, counted over the loop rows of the original schedule up to the carrying one.
        depth: usize,
    },
    /// Loop-independent: all common loop iterators are equal and the source statement comes
    /// first in textual order (a scalar β row).
    Independent,
}

impl fmt::Display for DependenceLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DependenceLevel::Carried { depth } => write!(f, "carried by loop {depth}"),
            DependenceLevel::Independent => write!(f, "loop-independent"),
        }
    }
}

/// One end of a dependence: a statement and one of its accesses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccessRef {
    /// The statement.
    pub statement: StatementId,
    /// The access within it.
    pub access: AccessId,
}

/// Which instance pairs count as dependent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DependenceMode {
    /// All conflicting pairs.
    MemoryBased,
    /// Conflicting pairs without an intervening write to the same element (see the module
    /// documentation).
    #[default]
    Direct,
}

/// Options of [`DependenceGraph::compute`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DependenceOptions {
    /// Memory-based or direct dependences.
    pub mode: DependenceMode,
    /// Limits of the exact searches.
    pub limits: Limits,
}

/// A dependence: a convex set of dependent instance pairs between two accesses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependence {
    /// Flow, anti or output.
    pub kind: DependenceKind,
    /// The access executed first.
    pub source: AccessRef,
    /// The access executed second.
    pub target: AccessRef,
    /// The original schedule row at which the source precedes the target.
    pub schedule_row: usize,
    /// That row as a loop depth or textual order.
    pub level: DependenceLevel,
    /// The dependence polyhedron `P_e` over `[source iterators (suffix _s), target iterators
    /// (suffix _t), parameters]`, in canonical form ([`Polyhedron::canonicalize`]) with the
    /// constraints implied by the SCoP context removed — intersect with the context before
    /// using it where parameter constraints matter.
    pub polyhedron: Polyhedron,
    /// The distance vector `i_t − i_s` over the first `min(n_s, n_t)` iterators when it is the
    /// same for every pair (a uniform dependence, thesis §3.1.3), `None` otherwise.
    pub distance: Option<Vec<i64>>,
    /// In [`DependenceMode::Direct`], set when the pairs killed by intervening writes could not
    /// be computed exactly (an integer projection was inexact) and the memory-based polyhedron
    /// was kept: a superset of the direct dependence, still safe for legality.
    pub over_approximated: bool,
}

impl Dependence {
    /// Whether source and target are the same statement.
    pub fn is_self(&self) -> bool {
        self.source.statement == self.target.statement
    }

    /// Whether the dependence is uniform (has a distance vector).
    pub fn is_uniform(&self) -> bool {
        self.distance.is_some()
    }

    /// The dependence polyhedron intersected with the SCoP context — the set to hand to
    /// Farkas' lemma (columns: source iterators, target iterators, parameters).
    pub fn polyhedron_in_context(&self, scop: &Scop) -> crate::Result<Polyhedron> {
        let space = self.polyhedron.space();
        let nd = space.n_dims();
        let mapping: Vec<usize> = (0..space.n_params()).map(|j| nd + j).collect();
        self.polyhedron.intersect(&scop.context().embed(space.clone(), &mapping)?)
    }

    /// The stable one-line rendering documented in `docs/poly.md`:
    ///
    /// `flow S0.write0 A[i] -> S0.read1 A[i + 1]; carried by loop 1; distance (1, -1);
    /// [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t + 1 and
    /// 1 <= t_t <= T - 1 and 0 <= i_t <= N - 3 }`
    pub fn display<'a>(&'a self, scop: &'a Scop) -> DependenceDisplay<'a> {
        DependenceDisplay { dep: self, scop }
    }
}

/// Display adapter of [`Dependence::display`].
pub struct DependenceDisplay<'a> {
    dep: &'a Dependence,
    scop: &'a Scop,
}

impl fmt::Display for DependenceDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (d, scop) = (self.dep, self.scop);
        let name = |s: StatementId| scop.statement(s).map(|x| x.name().to_string()).unwrap_or_else(|| "?".into());
        let label = |r: AccessRef| {
            scop.statement(r.statement).map(|s| s.access_label(r.access.0)).unwrap_or_else(|| "?".into())
        };
        write!(
            f,
            "{} {} {} -> {} {}; {}; distance ",
            d.kind,
            label(d.source),
            scop.access_text(d.source.statement, d.source.access),
            label(d.target),
            scop.access_text(d.target.statement, d.target.access),
            d.level
        )?;
        match &d.distance {
            Some(v) => {
                let parts: Vec<String> = v.iter().map(i64::to_string).collect();
                write!(f, "({})", parts.join(", "))?;
            }
            None => write!(f, "non-uniform")?,
        }
        if d.over_approximated {
            write!(f, "; over-approximated")?;
        }
        let space = d.polyhedron.space();
        write!(f, "; ")?;
        if !space.params().is_empty() {
            write!(f, "[{}] -> ", space.params().join(", "))?;
        }
        let ns = scop.statement(d.source.statement).map(|s| s.n_iterators()).unwrap_or(0).min(space.n_dims());
        write!(
            f,
            "{{ {}[{}] -> {}[{}]",
            name(d.source.statement),
            space.dims()[..ns].join(", "),
            name(d.target.statement),
            space.dims()[ns..].join(", ")
        )?;
        d.polyhedron.fmt_constraints(f)?;
        write!(f, " }}")
    }
}
