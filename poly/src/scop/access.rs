//! Access relations: which array element a statement instance reads or writes.

use std::fmt;

use crate::affine::AffineForm;
use crate::error::Result;
use crate::space::Space;

use super::ArrayId;

/// Whether an access reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessKind {
    /// A read (right-hand side).
    Read,
    /// A write (left-hand side).
    Write,
}

impl fmt::Display for AccessKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
        })
    }
}

/// An access `A[f_1(i, p), …, f_r(i, p)]` of a statement: array, kind and one affine index
/// function per array dimension over the statement's iterators and the parameters (the access
/// functions from which thesis §3.2.4 builds dependence polyhedra).
///
/// Within one statement instance every read happens before every write (`A[i] = f(A[i])`
/// reads the old value); accesses of the same instance are never dependent on each other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessRelation {
    kind: AccessKind,
    array: ArrayId,
    index: Vec<AffineForm>,
}

impl AccessRelation {
    /// An access with the given index functions.
    pub fn new(kind: AccessKind, array: ArrayId, index: Vec<AffineForm>) -> AccessRelation {
        AccessRelation { kind, array, index }
    }

    /// A read.
    pub fn read(array: ArrayId, index: Vec<AffineForm>) -> AccessRelation {
        AccessRelation::new(AccessKind::Read, array, index)
    }

    /// A write.
    pub fn write(array: ArrayId, index: Vec<AffineForm>) -> AccessRelation {
        AccessRelation::new(AccessKind::Write, array, index)
    }

    /// Parses comma-separated index expressions over `space`, e.g. `"i - 1, j"`.
    pub fn parse(kind: AccessKind, array: ArrayId, space: &Space, index: &str) -> Result<AccessRelation> {
        let index = index
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| AffineForm::parse(space, s))
            .collect::<Result<_>>()?;
        Ok(AccessRelation::new(kind, array, index))
    }

    /// Read or write.
    pub fn kind(&self) -> AccessKind {
        self.kind
    }

    /// The accessed array.
    pub fn array(&self) -> ArrayId {
        self.array
    }

    /// One index function per array dimension.
    pub fn index(&self) -> &[AffineForm] {
        &self.index
    }

    /// Whether this is a write.
    pub fn is_write(&self) -> bool {
        self.kind == AccessKind::Write
    }

    /// The accessed element of an instance (`point` = iterators then parameter values).
    pub fn element(&self, point: &[i64]) -> Result<Vec<i64>> {
        self.index.iter().map(|f| f.eval(point)).collect()
    }
}
