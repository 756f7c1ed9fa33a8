//! Statements of a SCoP.

use crate::error::Result;
use crate::polyhedron::Domain;
use crate::space::Space;

use super::{AccessRelation, Schedule};

/// A statement: its iteration domain `D_S` (thesis Eq. 3.5, iterators + parameters), its
/// original schedule and its accesses (in evaluation order: reads first, the write last, as
/// `A[i] = f(A[i - 1], …)` evaluates).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    name: String,
    domain: Domain,
    schedule: Schedule,
    accesses: Vec<AccessRelation>,
}

impl Statement {
    /// A statement without accesses yet (add them with [`Statement::with_access`] or
    /// [`crate::Scop::add_access`]).
    pub fn new(name: impl Into<String>, domain: Domain, schedule: Schedule) -> Statement {
        Statement { name: name.into(), domain, schedule, accesses: Vec::new() }
    }

    /// Builder-style: the statement with one more access.
    pub fn with_access(mut self, access: AccessRelation) -> Statement {
        self.accesses.push(access);
        self
    }

    pub(crate) fn push_access(&mut self, access: AccessRelation) {
        self.accesses.push(access);
    }

    /// Its name (`S0`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The iteration domain.
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// The space of the domain: iterators, then parameters.
    pub fn space(&self) -> &Space {
        self.domain.space()
    }

    /// Number of enclosing loops (iterators).
    pub fn n_iterators(&self) -> usize {
        self.domain.space().n_dims()
    }

    /// The original schedule.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The accesses.
    pub fn accesses(&self) -> &[AccessRelation] {
        &self.accesses
    }

    /// Label of access `k`: `S0.read1` is the statement's second read, `S0.write0` its first write.
    pub fn access_label(&self, k: usize) -> String {
        let Some(a) = self.accesses.get(k) else { return format!("{}.?{k}", self.name) };
        let nth = self.accesses[..k].iter().filter(|b| b.kind() == a.kind()).count();
        format!("{}.{}{}", self.name, a.kind(), nth)
    }

    /// Whether `point` (iterators then parameter values) is an instance.
    pub fn contains(&self, point: &[i64]) -> Result<bool> {
        self.domain.contains(point)
    }
}
