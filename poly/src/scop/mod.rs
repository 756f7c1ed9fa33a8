//! The static control part (SCoP): parameters and their context, arrays, statements with
//! iteration domains, access relations and original schedules — the polyhedral model of thesis
//! §3.2 (what Clan extracts from C and `stencil-to-poly` from the stencil dialect).

mod access;
mod schedule;
mod statement;

use std::fmt;

pub use access::{AccessKind, AccessRelation};
pub use schedule::Schedule;
pub use statement::Statement;

use crate::error::{PolyError, Result};
use crate::limits::Limits;
use crate::polyhedron::Polyhedron;
use crate::space::Space;

/// Index of a statement in its [`Scop`] (also its node index in the dependence graph).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StatementId(pub usize);

/// Index of an array in its [`Scop`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrayId(pub usize);

/// Index of an access within its statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccessId(pub usize);

/// An array (a field): name and rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Array {
    /// Its name.
    pub name: String,
    /// Number of dimensions.
    pub rank: usize,
}

/// A SCoP: parameters with their context (e.g. `N >= 4`), arrays and statements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scop {
    params: Vec<String>,
    context: Polyhedron,
    arrays: Vec<Array>,
    statements: Vec<Statement>,
}

impl Scop {
    /// An empty SCoP over the given parameters, with an unconstrained context.
    pub fn new<P>(params: P) -> Scop
    where
        P: IntoIterator,
        P::Item: Into<String>,
    {
        let params: Vec<String> = params.into_iter().map(Into::into).collect();
        let context = Polyhedron::universe(Space::new(std::iter::empty::<String>(), params.iter().cloned()));
        Scop { params, context, arrays: Vec::new(), statements: Vec::new() }
    }

    /// Parameter names.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The parameter space (no dimensions).
    pub fn param_space(&self) -> &Space {
        self.context.space()
    }

    /// The space of a statement nested in loops with the given iterator names.
    pub fn statement_space<I>(&self, iterators: I) -> Space
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Space::new(iterators, self.params.iter().cloned())
    }

    /// The context: constraints the parameters satisfy (over [`Scop::param_space`]).
    pub fn context(&self) -> &Polyhedron {
        &self.context
    }

    /// Adds context constraints, e.g. `"T >= 1, N >= 4"`.
    pub fn add_context(&mut self, text: &str) -> Result<()> {
        self.context.add_constraints(text)
    }

    /// Replaces the context (a polyhedron over [`Scop::param_space`]).
    pub fn set_context(&mut self, context: Polyhedron) -> Result<()> {
        if context.space().n_dims() != 0 || context.space().params() != self.params.as_slice() {
            return Err(PolyError::InvalidScop(format!(
                "the context must be a set over the parameters [{}] only, got {}",
                self.params.join(", "),
                context.space()
            )));
        }
        self.context = context;
        Ok(())
    }

    /// Declares an array.
    pub fn add_array(&mut self, name: impl Into<String>, rank: usize) -> Result<ArrayId> {
        let name = name.into();
        if self.arrays.iter().any(|a| a.name == name) {
            return Err(PolyError::InvalidScop(format!("array `{name}` is declared twice")));
        }
        self.arrays.push(Array { name, rank });
        Ok(ArrayId(self.arrays.len() - 1))
    }

    /// The arrays.
    pub fn arrays(&self) -> &[Array] {
        &self.arrays
    }

    /// One array.
    pub fn array(&self, id: ArrayId) -> Option<&Array> {
        self.arrays.get(id.0)
    }

    /// Adds a statement after checking that its domain, schedule and accesses fit the SCoP.
    pub fn add_statement(&mut self, statement: Statement) -> Result<StatementId> {
        let name = statement.name().to_string();
        if self.statements.iter().any(|s| s.name() == name) {
            return Err(PolyError::InvalidScop(format!("statement `{name}` is declared twice")));
        }
        let space = statement.space();
        if space.params() != self.params.as_slice() {
            return Err(PolyError::InvalidScop(format!(
                "statement `{name}`: its domain's parameters [{}] differ from the SCoP's [{}]",
                space.params().join(", "),
                self.params.join(", ")
            )));
        }
        if statement.schedule().n_iterators() != space.n_dims() {
            return Err(PolyError::InvalidScop(format!(
                "statement `{name}`: its schedule is over {} iterators, its domain {space} has {}",
                statement.schedule().n_iterators(),
                space.n_dims()
            )));
        }
        for r in statement.schedule().rows() {
            if r.n_columns() != space.n_columns() {
                return Err(PolyError::InvalidScop(format!(
                    "statement `{name}`: a schedule row has {} columns, its space {space} has {}",
                    r.n_columns(),
                    space.n_columns()
                )));
            }
        }
        for a in statement.accesses() {
            self.check_access(&name, space, a)?;
        }
        self.statements.push(statement);
        Ok(StatementId(self.statements.len() - 1))
    }

    fn check_access(&self, name: &str, space: &Space, a: &AccessRelation) -> Result<()> {
        let array = self.array(a.array()).ok_or_else(|| {
            PolyError::InvalidScop(format!("statement `{name}` accesses undeclared array #{}", a.array().0))
        })?;
        if a.index().len() != array.rank {
            return Err(PolyError::InvalidScop(format!(
                "statement `{name}` indexes `{}` (rank {}) with {} subscripts",
                array.name,
                array.rank,
                a.index().len()
            )));
        }
        for f in a.index() {
            if f.n_columns() != space.n_columns() {
                return Err(PolyError::InvalidScop(format!(
                    "statement `{name}`: a subscript of `{}` has {} columns, the statement space {space} has {}",
                    array.name,
                    f.n_columns(),
                    space.n_columns()
                )));
            }
        }
        Ok(())
    }

    /// Appends an access to a statement.
    pub fn add_access(&mut self, statement: StatementId, access: AccessRelation) -> Result<AccessId> {
        let s = self
            .statements
            .get(statement.0)
            .ok_or_else(|| PolyError::InvalidScop(format!("no statement #{}", statement.0)))?;
        self.check_access(s.name(), s.space(), &access)?;
        let s = &mut self.statements[statement.0];
        s.push_access(access);
        Ok(AccessId(s.accesses().len() - 1))
    }

    /// The statements, in [`StatementId`] order.
    pub fn statements(&self) -> &[Statement] {
        &self.statements
    }

    /// One statement.
    pub fn statement(&self, id: StatementId) -> Option<&Statement> {
        self.statements.get(id.0)
    }

    /// `A[i + 1]`: the array and subscripts of an access, with the statement's names.
    pub fn access_text(&self, statement: StatementId, access: AccessId) -> String {
        let Some(s) = self.statement(statement) else { return "?".into() };
        let Some(a) = s.accesses().get(access.0) else { return "?".into() };
        let name = self.array(a.array()).map(|x| x.name.as_str()).unwrap_or("?");
        let idx: Vec<String> = a.index().iter().map(|f| f.display(s.space()).to_string()).collect();
        format!("{name}[{}]", idx.join(", "))
    }

    /// Checks that the original schedules order all instances totally: no two distinct
    /// instances (in the context) get the same time stamp (compared on the rows both
    /// statements have). Dependence analysis relies on it.
    pub fn check_schedules(&self, limits: &Limits) -> Result<()> {
        for (si, s) in self.statements.iter().enumerate() {
            for (ti, t) in self.statements.iter().enumerate().skip(si) {
                let clash = crate::dependence::precedence::equal_time_witness(self, si, ti, limits)?;
                if let Some((ps, pt)) = clash {
                    return Err(PolyError::InvalidScop(format!(
                        "instances {}{ps:?} and {}{pt:?} have the same original time stamp; give the \
                         statements distinct β (textual positions) and every loop its own schedule row",
                        s.name(),
                        t.name()
                    )));
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for Scop {
    /// A readable dump (not a stable format): context, arrays, statements with domains,
    /// schedules and accesses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "context: {}", self.context)?;
        for a in &self.arrays {
            writeln!(f, "array {} rank {}", a.name, a.rank)?;
        }
        for (i, s) in self.statements.iter().enumerate() {
            writeln!(f, "statement {}: domain {}", s.name(), s.domain())?;
            let rows: Vec<String> = s.schedule().rows().iter().map(|r| r.display(s.space()).to_string()).collect();
            writeln!(f, "  schedule ({})", rows.join(", "))?;
            for k in 0..s.accesses().len() {
                writeln!(f, "  {} {}", s.access_label(k), self.access_text(StatementId(i), AccessId(k)))?;
            }
        }
        Ok(())
    }
}
