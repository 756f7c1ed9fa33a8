//! A direct interpreter of loop nests: runs the loops with exact integer arithmetic and calls
//! back once per statement instance with its original iterators. Tests use it to check that
//! the generated code visits each instance exactly once, in schedule order, and — with
//! parallel loops run backwards — that no dependence relies on the order of a DOALL loop.

use super::ast::{ForLoop, GuardKind, LoopAst, LoopNest};
use super::error::{CodegenError, CodegenResult};
use crate::error::{overflow, PolyError};
use crate::int::{ceil_div, floor_div, to_i64};
use crate::scop::StatementId;

/// Options of [`LoopNest::execute_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExecuteOptions {
    /// Run every parallel loop from its last iteration to its first (a legal DOALL loop gives
    /// the same results in any order).
    pub reverse_parallel: bool,
    /// At most this many statement instances (an error beyond).
    pub max_instances: usize,
}

impl Default for ExecuteOptions {
    fn default() -> Self {
        ExecuteOptions { reverse_parallel: false, max_instances: 10_000_000 }
    }
}

impl LoopNest {
    /// Runs the loop nest for the parameter values `params` (in [`LoopNest::space`] order),
    /// calling `f(statement, iterators)` for every statement instance; returns the number of
    /// instances.
    pub fn execute(&self, params: &[i64], f: impl FnMut(StatementId, &[i64])) -> CodegenResult<usize> {
        self.execute_with(params, &ExecuteOptions::default(), f)
    }

    /// [`LoopNest::execute`] with options.
    pub fn execute_with(
        &self,
        params: &[i64],
        options: &ExecuteOptions,
        f: impl FnMut(StatementId, &[i64]),
    ) -> CodegenResult<usize> {
        self.execute_at(&[], params, options, f)
    }

    /// [`LoopNest::execute_with`] with the leading dimensions set to `prefix` first: runs a
    /// nest whose root scans only later dimensions (e.g. [`super::FullTiles::body`] for one tile).
    pub fn execute_at(
        &self,
        prefix: &[i64],
        params: &[i64],
        options: &ExecuteOptions,
        mut f: impl FnMut(StatementId, &[i64]),
    ) -> CodegenResult<usize> {
        if params.len() != self.space.n_params() {
            return Err(CodegenError::InvalidProblem(format!(
                "{} parameter values for the {} parameters [{}]",
                params.len(),
                self.space.n_params(),
                self.space.params().join(", ")
            )));
        }
        let nd = self.space.n_dims();
        if prefix.len() > nd {
            return Err(CodegenError::InvalidProblem(format!("{} prefix values for {nd} dimensions", prefix.len())));
        }
        let mut run = Run { env: vec![0; nd + params.len()], n_dims: nd, options, count: 0, iters: Vec::new() };
        run.env[..prefix.len()].copy_from_slice(prefix);
        run.env[nd..].copy_from_slice(params);
        run.node(&self.root, &mut f)?;
        Ok(run.count)
    }
}

struct Run<'a> {
    env: Vec<i64>,
    n_dims: usize,
    options: &'a ExecuteOptions,
    count: usize,
    iters: Vec<i64>,
}

impl Run<'_> {
    fn node(&mut self, node: &LoopAst, f: &mut impl FnMut(StatementId, &[i64])) -> CodegenResult<()> {
        match node {
            LoopAst::For(l) => self.for_loop(l, f),
            LoopAst::If { guards, then } => {
                for g in guards {
                    let v = g.expr.eval(&self.env)?;
                    let holds = match g.kind {
                        GuardKind::NonNegative => v >= 0,
                        GuardKind::Zero => v == 0,
                    };
                    if !holds {
                        return Ok(());
                    }
                }
                self.node(then, f)
            }
            LoopAst::Stmt { statement, iter_values } => {
                if self.count >= self.options.max_instances {
                    return Err(CodegenError::TooManyInstances { limit: self.options.max_instances });
                }
                self.count += 1;
                self.iters.clear();
                for v in iter_values {
                    let x = v.eval(&self.env)?;
                    self.iters.push(x);
                }
                f(*statement, &self.iters);
                Ok(())
            }
            LoopAst::Seq(items) => items.iter().try_for_each(|x| self.node(x, f)),
        }
    }

    fn for_loop(&mut self, l: &ForLoop, f: &mut impl FnMut(StatementId, &[i64])) -> CodegenResult<()> {
        let mut lo: Option<i128> = None;
        for b in &l.lower {
            let v = ceil_div(i128::from(b.expr.eval(&self.env)?), positive(b.divisor)?);
            lo = Some(lo.map_or(v, |x| x.max(v)));
        }
        let mut hi: Option<i128> = None;
        for b in &l.upper {
            let v = floor_div(i128::from(b.expr.eval(&self.env)?), positive(b.divisor)?);
            hi = Some(hi.map_or(v, |x| x.min(v)));
        }
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Err(PolyError::Internal("a loop without lower or upper bound").into());
        };
        let step = positive(l.step)?;
        if lo > hi {
            return Ok(());
        }
        let last = lo + (hi - lo) / step * step;
        let (mut v, delta, end) =
            if l.parallel && self.options.reverse_parallel { (last, -step, lo) } else { (lo, step, last) };
        if l.dim >= self.n_dims {
            return Err(CodegenError::InvalidProblem(format!("a loop over dimension {} of {}", l.dim, self.n_dims)));
        }
        loop {
            self.env[l.dim] = to_i64(v, "loop nest execution")?;
            self.node(&l.body, f)?;
            if v == end {
                return Ok(());
            }
            v = v.checked_add(delta).ok_or_else(|| overflow("loop nest execution"))?;
        }
    }
}

fn positive(d: i64) -> CodegenResult<i128> {
    if d >= 1 {
        Ok(i128::from(d))
    } else {
        Err(CodegenError::InvalidProblem(format!("a loop step or bound divisor of {d}; they must be at least 1")))
    }
}
