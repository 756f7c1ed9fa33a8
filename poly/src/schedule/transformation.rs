//! The scheduler's result: one multi-dimensional affine schedule per statement, the band
//! structure, and which dependence each row satisfies.

use std::fmt;
use std::ops::Range;

use crate::affine::AffineForm;
use crate::dependence::{DependenceGraph, DependenceId};
use crate::error::Result;
use crate::limits::Limits;
use crate::scop::{Schedule, Scop, StatementId};
use crate::space::Space;

/// Whether a schedule row is a loop (a hyperplane: some statement has a non-zero iterator
/// coefficient) or a scalar dimension (a cut between components, thesis §3.2.3's β rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// A tiling hyperplane found by the integer program.
    Loop,
    /// A scalar dimension: constants only, ordering groups of statements.
    Scalar,
}

/// One row of the transformation, common to all statements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Loop or scalar.
    pub kind: RowKind,
    /// The band the row belongs to (loop rows only).
    pub band: Option<usize>,
    /// The dependences first satisfied at this row (`φ_T − φ_S ≥ 1` on the part of the
    /// dependence polyhedron not satisfied before).
    pub satisfies: Vec<DependenceId>,
}

/// A band: consecutive loop rows that are all non-negative on every dependence not satisfied
/// before the band — a permutable (hence rectangularly tileable) set of hyperplanes, thesis
/// Thm 3.3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Band {
    /// The rows of the band.
    pub rows: Range<usize>,
}

impl Band {
    /// Number of hyperplanes.
    pub fn width(&self) -> usize {
        self.rows.len()
    }
}

/// The result of [`crate::schedule::schedule`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transformation {
    /// Per statement (in [`StatementId`] order), its schedule: every statement has one entry
    /// per [`Transformation::rows`], affine in its iterators (no parameter terms) plus a
    /// constant; scalar rows are constants.
    pub schedules: Vec<Schedule>,
    /// The rows.
    pub rows: Vec<Row>,
    /// The permutable bands, outermost first.
    pub bands: Vec<Band>,
    /// Per dependence (by [`DependenceId`]), the row at which it is satisfied.
    pub satisfied_at: Vec<Option<usize>>,
}

impl Transformation {
    /// The loop rows of statement `s` (thesis' `Φ_S` with its shifts): `(coefficients, shift)`
    /// per hyperplane, outermost first.
    pub fn hyperplanes(&self, s: StatementId) -> Vec<(Vec<i64>, i64)> {
        let Some(schedule) = self.schedules.get(s.0) else { return Vec::new() };
        let n = schedule.n_iterators();
        self.rows
            .iter()
            .zip(schedule.rows())
            .filter(|(r, _)| r.kind == RowKind::Loop)
            .map(|(_, f)| (f.coeffs()[..n].to_vec(), f.constant()))
            .collect()
    }

    /// The iterator-coefficient matrix `Φ_S` of statement `s` (loop rows only, no shifts).
    pub fn phi(&self, s: StatementId) -> Vec<Vec<i64>> {
        self.hyperplanes(s).into_iter().map(|(c, _)| c).collect()
    }

    /// The shift of each loop row of statement `s`.
    pub fn shifts(&self, s: StatementId) -> Vec<i64> {
        self.hyperplanes(s).into_iter().map(|(_, k)| k).collect()
    }

    /// Whether the first loop row gives every statement balanced intra-tile wavefronts (thesis
    /// Def. 4.1, Thm 4.1): `φ¹(i_t) − φ¹(i_s) ≥ 1` on every self dependence, checked by exact
    /// integer emptiness of `{φ¹(i_t) − φ¹(i_s) ≤ 0} ∩ P_e`, independently of how the schedule
    /// was found.
    pub fn has_balanced_wavefronts(&self, scop: &Scop, graph: &DependenceGraph, limits: &Limits) -> Result<bool> {
        let Some(first) = self.rows.iter().position(|r| r.kind == RowKind::Loop) else { return Ok(false) };
        for d in graph.dependences().iter().filter(|d| d.is_self()) {
            let s = d.source.statement.0;
            let n = scop.statement(d.source.statement).map_or(0, |st| st.space().n_columns());
            let Some(row) = self.schedules.get(s).and_then(|sc| sc.rows().get(first)).filter(|r| r.n_columns() == n)
            else {
                return Err(crate::error::PolyError::InvalidScop(format!(
                    "the transformation has no row {first} over the space of statement #{s}"
                )));
            };
            let p = d.polyhedron_in_context(scop)?;
            let diff = crate::schedule::legality::row_difference(row, row, &p)?;
            let mut violated = p.clone();
            // φ(i_t) − φ(i_s) ≤ 0
            violated.add_inequality(&diff.checked_neg()?)?;
            if !violated.is_empty(limits)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// One line per statement, `S0: (t, 2*t + i)`, with each statement's own iterator names
    /// (the format `stencil-opt --test-print-schedule` prints).
    pub fn display<'a>(&'a self, scop: &'a Scop) -> impl fmt::Display + 'a {
        Listing { t: self, scop }
    }
}

struct Listing<'a> {
    t: &'a Transformation,
    scop: &'a Scop,
}

impl fmt::Display for Listing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (s, sched) in self.scop.statements().iter().zip(&self.t.schedules) {
            writeln!(f, "{}", sched.display_statement(s.name(), s.space()))?;
        }
        Ok(())
    }
}

impl Schedule {
    /// `(t, 2*t + i)`: the rows written with the names of `space` (a statement's iterators —
    /// the IR pass passes the time iterator's SSA name and `i, j, k` — then the parameters).
    /// Scalar rows print as integers.
    pub fn display<'a>(&'a self, space: &'a Space) -> impl fmt::Display + 'a {
        Tuple { rows: self.rows(), space }
    }

    /// `S0: (t, 2*t + i)`.
    pub fn display_statement<'a>(&'a self, name: &'a str, space: &'a Space) -> impl fmt::Display + 'a {
        Named { name, tuple: Tuple { rows: self.rows(), space } }
    }
}

struct Tuple<'a> {
    rows: &'a [AffineForm],
    space: &'a Space,
}

impl fmt::Display for Tuple<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(")?;
        for (k, r) in self.rows.iter().enumerate() {
            if k > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{}", r.display(self.space))?;
        }
        write!(f, ")")
    }
}

struct Named<'a> {
    name: &'a str,
    tuple: Tuple<'a>,
}

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.tuple)
    }
}
