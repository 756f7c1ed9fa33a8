//! The input of scanning: statement domains over `[dimensions, iterators, params]`.

use super::ast::ScanDim;
use super::error::{CodegenError, CodegenResult};
use crate::limits::Limits;
use crate::polyhedron::Polyhedron;
use crate::scop::{Scop, StatementId};
use crate::tiling::TiledSchedule;

/// One statement to scan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanStatement {
    /// The statement.
    pub statement: StatementId,
    /// Its name.
    pub name: String,
    /// Its original iterator names.
    pub iterators: Vec<String>,
    /// Its instances, over `[scanned dimensions…, iterators…, params…]`. The dimensions must
    /// determine the iterators through the equalities (a unimodular schedule); instances run
    /// in lexicographic order of their dimension values.
    pub domain: Polyhedron,
}

/// A union of statement domains to turn into a loop nest (DESIGN §5 "Scanning").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanProblem {
    /// The dimensions, outermost first.
    pub dims: Vec<ScanDim>,
    /// What the parameters satisfy (a polyhedron over the parameters only); bounds and guards
    /// implied by it are left out.
    pub context: Polyhedron,
    /// The statements, in the order they run when their dimension values are equal.
    pub statements: Vec<ScanStatement>,
}

/// Options of [`crate::codegen::generate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScanOptions {
    /// Limits of the exact searches (projections, redundancy removal, hulls).
    pub limits: Limits,
    /// Scan only the dimensions before this one: below the last scanned dimension come the
    /// statements' nodes without their iterators (`iter_values` empty), so the nest is for
    /// reading, not for code (`None`: every dimension, the statements with their iterators).
    /// For a question about the outer loops alone ([`crate::codegen::dimension_range`]), which
    /// the scan of the inner levels — a hull and a gist per level and statement group — would
    /// only slow down.
    pub depth: Option<usize>,
}

impl ScanProblem {
    /// The scan problem of a tiled schedule: its dimensions with their parallel flags, the
    /// transformed domains, and the SCoP's context.
    pub fn from_tiled(tiled: &TiledSchedule, scop: &Scop) -> CodegenResult<ScanProblem> {
        let dims =
            tiled.dims.iter().map(|d| ScanDim { name: d.name.clone(), kind: d.kind, parallel: d.parallel }).collect();
        let statements = tiled
            .statements
            .iter()
            .map(|t| {
                let s = scop.statement(t.statement).ok_or_else(|| {
                    CodegenError::InvalidProblem(format!("statement {} is not in the SCoP", t.statement.0))
                })?;
                Ok(ScanStatement {
                    statement: t.statement,
                    name: s.name().to_string(),
                    iterators: s.space().dims().to_vec(),
                    domain: t.domain.clone(),
                })
            })
            .collect::<CodegenResult<Vec<_>>>()?;
        Ok(ScanProblem { dims, context: scop.context().clone(), statements })
    }

    /// Checks that every domain is over `[dims, its iterators, the context's parameters]`.
    pub fn validate(&self) -> CodegenResult<()> {
        let params = self.context.space().params();
        if self.context.space().n_dims() != 0 {
            return Err(CodegenError::InvalidProblem(format!(
                "the context {} must constrain parameters only",
                self.context.space()
            )));
        }
        for s in &self.statements {
            let sp = s.domain.space();
            if sp.n_dims() != self.dims.len() + s.iterators.len() || sp.params() != params {
                return Err(CodegenError::InvalidProblem(format!(
                    "the domain of {} is over {sp}, expected {} dimensions, {} iterators and the parameters [{}]",
                    s.name,
                    self.dims.len(),
                    s.iterators.len(),
                    params.join(", ")
                )));
            }
        }
        Ok(())
    }
}
