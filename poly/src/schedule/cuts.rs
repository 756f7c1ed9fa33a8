//! Scalar cuts between strongly connected components of the dependences not yet satisfied
//! (Pluto's `cut_*` functions; NOTES "Pluto's scheduler": smart fusion cuts by dimensionality
//! first).
//!
//! Components are numbered in a topological order of the graph of unsatisfied dependences
//! (ties: the component with the smallest statement first, i.e. textual order), so a cut row
//! that gives later components larger constants satisfies every dependence it separates.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use super::error::ScheduleResult;
use super::options::FuseStrategy;
use super::pluto::State;

/// The components: `of[s]` is statement `s`'s component, `members[c]` its statements.
pub(crate) struct Components {
    pub of: Vec<usize>,
    pub members: Vec<Vec<usize>>,
}

impl State<'_, '_> {
    /// Strongly connected components of the active, unsatisfied dependences, topologically
    /// ordered.
    pub(crate) fn components(&self) -> Components {
        let n = self.trans.len();
        let mut g: DiGraph<usize, ()> = DiGraph::with_capacity(n, 0);
        for s in 0..n {
            g.add_node(s);
        }
        let deps = self.problem.graph.dependences();
        for e in self.unsatisfied() {
            let d = &deps[e];
            g.add_edge(NodeIndex::new(d.source.statement.0), NodeIndex::new(d.target.statement.0), ());
        }
        let sccs: Vec<Vec<usize>> = tarjan_scc(&g)
            .into_iter()
            .map(|c| {
                let mut v: Vec<usize> = c.into_iter().map(|x| x.index()).collect();
                v.sort_unstable();
                v
            })
            .collect();
        let mut comp_of = vec![0usize; n];
        for (c, members) in sccs.iter().enumerate() {
            for &s in members {
                comp_of[s] = c;
            }
        }
        // Kahn's algorithm on the condensation, smallest member first among the ready ones.
        let k = sccs.len();
        let mut indegree = vec![0usize; k];
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); k];
        for e in self.unsatisfied() {
            let d = &deps[e];
            let (a, b) = (comp_of[d.source.statement.0], comp_of[d.target.statement.0]);
            if a != b {
                succ[a].push(b);
                indegree[b] += 1;
            }
        }
        let mut ready: Vec<usize> = (0..k).filter(|&c| indegree[c] == 0).collect();
        let mut order = Vec::with_capacity(k);
        while !ready.is_empty() {
            ready.sort_unstable_by_key(|&c| std::cmp::Reverse(sccs[c][0]));
            let Some(c) = ready.pop() else { break };
            order.push(c);
            for &b in &succ[c] {
                indegree[b] -= 1;
                if indegree[b] == 0 {
                    ready.push(b);
                }
            }
        }
        let mut of = vec![0usize; n];
        let mut members = Vec::with_capacity(k);
        for (pos, &c) in order.iter().enumerate() {
            for &s in &sccs[c] {
                of[s] = pos;
            }
            members.push(sccs[c].clone());
        }
        Components { of, members }
    }

    /// Whether some unsatisfied dependence goes between two components.
    pub(crate) fn has_inter_scc_dependence(&self) -> bool {
        let c = self.components();
        let deps = self.problem.graph.dependences();
        self.unsatisfied().any(|e| c.of[deps[e].source.statement.0] != c.of[deps[e].target.statement.0])
    }

    /// Whether an unsatisfied dependence goes from component `a` to component `b`.
    fn connected(&self, c: &Components, a: usize, b: usize) -> bool {
        let deps = self.problem.graph.dependences();
        self.unsatisfied().any(|e| c.of[deps[e].source.statement.0] == a && c.of[deps[e].target.statement.0] == b)
    }

    fn max_dim(&self, c: &Components, k: usize) -> usize {
        c.members[k].iter().map(|&s| self.problem.unknowns.dims(s)).max().unwrap_or(0)
    }

    /// A cut row that is kept only when it satisfies a dependence (Pluto removes it
    /// otherwise). Returns the number satisfied.
    fn try_cut(&mut self, values: &[i64]) -> ScheduleResult<usize> {
        let n = self.add_scalar_row(values)?;
        if n == 0 {
            self.pop_row();
        }
        Ok(n)
    }

    /// Pluto's `cut_scc_dim_based`: consecutive components of the same dimensionality stay
    /// together.
    pub(crate) fn cut_dim_based(&mut self) -> ScheduleResult<usize> {
        let c = self.components();
        if c.members.len() <= 1 {
            return Ok(0);
        }
        let mut values = vec![0i64; self.trans.len()];
        let mut group = 0i64;
        let mut current = self.max_dim(&c, 0);
        for k in 0..c.members.len() {
            let d = self.max_dim(&c, k);
            if d != current {
                current = d;
                group += 1;
            }
            for &s in &c.members[k] {
                values[s] = group;
            }
        }
        self.try_cut(&values)
    }

    /// Pluto's `cut_between_sccs`: components before `b` get 0, the others 1, if `a` has a
    /// dependence into `b`.
    fn cut_between(&mut self, c: &Components, a: usize, b: usize) -> ScheduleResult<usize> {
        if !self.connected(c, a, b) {
            return Ok(0);
        }
        let values: Vec<i64> = c.of.iter().map(|&k| i64::from(k >= b)).collect();
        self.try_cut(&values)
    }

    /// Pluto's `cut_all_sccs`: every component its own constant.
    fn cut_all(&mut self) -> ScheduleResult<usize> {
        let c = self.components();
        if c.members.len() <= 1 {
            return Ok(0);
        }
        let values: Vec<i64> = c.of.iter().map(|&k| k as i64).collect();
        self.add_scalar_row(&values)
    }

    /// No fusion: cut between all components unless an earlier scalar row already separates
    /// every pair of them and nothing would be satisfied.
    pub(crate) fn cut_all_if_useful(&mut self) -> ScheduleResult<()> {
        let c = self.components();
        if c.members.len() <= 1 {
            return Ok(());
        }
        let separated = |a: usize, b: usize| {
            self.trans[a]
                .iter()
                .zip(&self.trans[b])
                .zip(&self.kinds)
                .any(|((x, y), k)| *k == super::transformation::RowKind::Scalar && x.1 != y.1)
        };
        let n = self.trans.len();
        let needed = (0..n).any(|a| (a + 1..n).any(|b| c.of[a] != c.of[b] && !separated(a, b)));
        if needed {
            self.cut_all()?;
        } else {
            let values: Vec<i64> = c.of.iter().map(|&k| k as i64).collect();
            self.try_cut(&values)?;
        }
        Ok(())
    }

    /// The cut taken when no hyperplane exists, per fusion strategy.
    pub(crate) fn cut(&mut self) -> ScheduleResult<()> {
        match self.problem.options.fuse {
            FuseStrategy::None => {
                self.cut_all()?;
            }
            FuseStrategy::Smart => self.cut_smart()?,
            FuseStrategy::Max => {
                let nvar = (0..self.trans.len()).map(|s| self.problem.unknowns.dims(s)).max().unwrap_or(0);
                if self.n_rows() > 2 * nvar {
                    self.cut_all()?;
                } else {
                    self.cut_conservative()?;
                }
            }
        }
        Ok(())
    }

    /// Pluto's `cut_smart`.
    fn cut_smart(&mut self) -> ScheduleResult<()> {
        if self.full_rank()? {
            self.cut_all()?;
            return Ok(());
        }
        if self.cut_dim_based()? > 0 {
            return Ok(());
        }
        let c = self.components();
        let k = c.members.len();
        if k < 2 {
            return Ok(());
        }
        let mid = k.div_ceil(2);
        if self.cut_between(&c, mid - 1, mid)? > 0 {
            return Ok(());
        }
        let nvar = (0..self.trans.len()).map(|s| self.problem.unknowns.dims(s)).max().unwrap_or(0);
        for i in 0..k - 1 {
            for j in (i + 1..k).rev() {
                if self.n_rows() > 4 * nvar + 2 {
                    self.cut_all()?;
                    return Ok(());
                }
                if self.connected(&c, i, j) {
                    self.cut_between(&c, i, j)?;
                }
            }
        }
        Ok(())
    }

    /// Pluto's `cut_conservative` (maximal fusion): the first cut that satisfies something.
    fn cut_conservative(&mut self) -> ScheduleResult<()> {
        if self.cut_dim_based()? > 0 {
            return Ok(());
        }
        let c = self.components();
        let k = c.members.len();
        if k < 2 {
            return Ok(());
        }
        let mid = k.div_ceil(2);
        if self.cut_between(&c, mid - 1, mid)? > 0 {
            return Ok(());
        }
        for i in 0..k - 1 {
            for j in (i + 1..k).rev() {
                if self.cut_between(&c, i, j)? > 0 {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}
