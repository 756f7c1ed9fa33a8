//! The data dependence graph (thesis §3.2.4): a directed multigraph with one node per
//! statement and one edge per [`Dependence`].

use std::fmt;

use petgraph::algo::tarjan_scc;
use petgraph::stable_graph::{NodeIndex, StableDiGraph};

use super::{analysis, Dependence, DependenceOptions};
use crate::error::Result;
use crate::scop::{Scop, StatementId};

/// Index of a dependence in [`DependenceGraph::dependences`] (the weight of its edge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DependenceId(pub usize);

/// The DDG: a petgraph `StableDiGraph` (parallel edges allowed) whose node `i` is statement
/// `i` and whose edges carry [`DependenceId`]s into the owned list of dependences.
#[derive(Debug, Clone)]
pub struct DependenceGraph {
    graph: StableDiGraph<StatementId, DependenceId>,
    dependences: Vec<Dependence>,
}

impl DependenceGraph {
    /// Analyses `scop` ([`super`] describes the semantics).
    pub fn compute(scop: &Scop, options: &DependenceOptions) -> Result<DependenceGraph> {
        let deps = analysis::compute(scop, options)?;
        Ok(DependenceGraph::from_dependences(scop.statements().len(), deps))
    }

    /// A graph over `n_statements` statements with the given dependences (e.g. a subset kept
    /// by a pass). Dependences naming a statement `≥ n_statements` get no edge.
    pub fn from_dependences(n_statements: usize, dependences: Vec<Dependence>) -> DependenceGraph {
        let mut graph = StableDiGraph::with_capacity(n_statements, dependences.len());
        for i in 0..n_statements {
            graph.add_node(StatementId(i));
        }
        for (k, d) in dependences.iter().enumerate() {
            let (a, b) = (d.source.statement.0, d.target.statement.0);
            if a < n_statements && b < n_statements {
                graph.add_edge(NodeIndex::new(a), NodeIndex::new(b), DependenceId(k));
            }
        }
        DependenceGraph { graph, dependences }
    }

    /// All dependences.
    pub fn dependences(&self) -> &[Dependence] {
        &self.dependences
    }

    /// One dependence.
    pub fn dependence(&self, id: DependenceId) -> Option<&Dependence> {
        self.dependences.get(id.0)
    }

    /// The petgraph multigraph.
    pub fn graph(&self) -> &StableDiGraph<StatementId, DependenceId> {
        &self.graph
    }

    /// The node of a statement.
    pub fn node(&self, s: StatementId) -> NodeIndex {
        NodeIndex::new(s.0)
    }

    /// Dependences from `source` to `target`.
    pub fn between(&self, source: StatementId, target: StatementId) -> Vec<DependenceId> {
        self.graph.edges_connecting(self.node(source), self.node(target)).map(|e| *e.weight()).collect()
    }

    /// Strongly connected components (Tarjan), in topological order: every dependence between
    /// two components goes from an earlier to a later one. Statements inside a component are
    /// sorted by id. Pluto cuts between these when no hyperplane exists.
    pub fn sccs(&self) -> Vec<Vec<StatementId>> {
        // petgraph returns them in reverse topological order.
        let mut sccs: Vec<Vec<StatementId>> = tarjan_scc(&self.graph)
            .into_iter()
            .map(|c| {
                let mut v: Vec<StatementId> = c.into_iter().map(|n| self.graph[n]).collect();
                v.sort();
                v
            })
            .collect();
        sccs.reverse();
        sccs
    }

    /// The stable listing printed by `stencil-opt --test-print-dependences`: one line
    /// `dep K: <dependence>` per dependence ([`Dependence::display`]), in id order.
    pub fn display<'a>(&'a self, scop: &'a Scop) -> impl fmt::Display + 'a {
        Listing { graph: self, scop }
    }
}

struct Listing<'a> {
    graph: &'a DependenceGraph,
    scop: &'a Scop,
}

impl fmt::Display for Listing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, d) in self.graph.dependences.iter().enumerate() {
            writeln!(f, "dep {k}: {}", d.display(self.scop))?;
        }
        Ok(())
    }
}
