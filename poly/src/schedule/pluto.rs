//! Pluto's hyperplane search (Bondhugula et al.; NOTES "Pluto's scheduler"), with the
//! balanced-wavefront constraint of thesis Alg. 4.1.
//!
//! Bands of permutable hyperplanes are found one hyperplane at a time against the same
//! constraint set — legality and bounding function of every dependence not yet satisfied,
//! non-negative bounded coefficients, a non-trivial solution and linear independence from the
//! rows found so far — each the lexicographic minimum of `(u, w, coefficients…)`, unless it
//! would leave a statement's rows non-unimodular ([`super::unimodular`]). Only when
//! the band is complete (every statement full rank) or no further hyperplane exists are the
//! dependences it satisfies removed. When not even one hyperplane exists, a scalar row cuts
//! between strongly connected components of the remaining dependences ([`super::cuts`]).
//! Like Pluto, the search is first "eager" (every statement that still needs hyperplanes gets
//! a linearly independent one) and falls back to "lazy" (at least one statement does, with
//! exact per-instance dependence satisfaction) before giving up.

use crate::affine::AffineForm;
use crate::dependence::{DependenceGraph, DependenceId};
use crate::error::PolyError;
use crate::polyhedron::{Optimum, Polyhedron};
use crate::scop::{Schedule, Scop};

use super::constraints::{dependence_constraints, DependenceConstraints, Unknowns};
use super::error::{ScheduleError, ScheduleResult};
use super::legality::row_difference;
use super::options::{FuseStrategy, OrthoOrientation, SchedulerOptions};
use super::ortho::{normalize, rank, right_kernel};
use super::transformation::{Band, Row, RowKind, Transformation};
use std::sync::Mutex;

/// Everything that does not change while scheduling: the unknowns, the per-dependence
/// constraints (computed once, reused by every hyperplane and by thesis Alg. 4.2's reruns)
/// and the dependence polyhedra.
pub(crate) struct Problem<'a> {
    pub scop: &'a Scop,
    pub graph: &'a DependenceGraph,
    pub options: SchedulerOptions,
    pub unknowns: Unknowns,
    constraints: Vec<DependenceConstraints>,
    pub polys: Vec<Polyhedron>,
    bounds: Polyhedron,
    objectives: Vec<AffineForm>,
    /// [`State::base_constraints`]' reduced systems, by the dependences they constrain and
    /// whether balance rows are among them: the same system comes back for each band whose
    /// dependences the band before left unsatisfied, for a balanced search with no balance rows
    /// and for every search mode's run (`solve`), and its redundancy removal is a large part of
    /// a large program's scheduling (an MLSOR program of 8 statements: 1 120 rows, under half
    /// a second each by Clarkson's method, 3.8 s by one program per row).
    reduced: Mutex<Vec<(Vec<usize>, bool, Polyhedron)>>,
}

/// Most systems [`Problem`] keeps reduced (the oldest goes first).
const REDUCED_KEPT: usize = 8;

/// The hyperplane search modes: Pluto's two, then a last resort of ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every statement that is not full rank gets a new linearly independent row.
    Eager,
    /// At least one of them does; dependence satisfaction is computed per instance.
    Lazy,
    /// Where Pluto gives up (it keeps the original schedule): as eager, but linear
    /// independence is sought in every half-space `±b·c ≥ 1` of every kernel basis vector
    /// `b`, not only in Pluto's single orthant (the old "try all orthants" search of Pluto's
    /// source), keeping the lexicographically smallest solution. Exact: a row is independent
    /// of the statement's rows iff some `b·c ≠ 0`.
    Exhaustive,
}

impl<'a> Problem<'a> {
    /// Linearises every dependence's constraints (twins share theirs).
    pub fn new(scop: &'a Scop, graph: &'a DependenceGraph, options: SchedulerOptions) -> ScheduleResult<Problem<'a>> {
        let limits = &options.limits;
        let unknowns = Unknowns::new(scop);
        let mut constraints: Vec<DependenceConstraints> = Vec::with_capacity(graph.dependences().len());
        let mut polys: Vec<Polyhedron> = Vec::with_capacity(graph.dependences().len());
        for (e, d) in graph.dependences().iter().enumerate() {
            let poly = d.polyhedron_in_context(scop)?;
            // Twins (same statements, same polyhedron) share their Farkas constraints.
            let twin = (0..e).find(|&f| {
                let g = &graph.dependences()[f];
                g.source.statement == d.source.statement && g.target.statement == d.target.statement && polys[f] == poly
            });
            constraints.push(match twin {
                Some(f) => constraints[f].clone(),
                None => dependence_constraints(scop, d, &unknowns, limits)?,
            });
            polys.push(poly);
        }
        let bounds = unknowns.bounds(coefficient_bound(scop, options.coefficient_bound))?;
        let objectives = unknowns.objectives()?;
        Ok(Problem {
            scop,
            graph,
            options,
            unknowns,
            constraints,
            polys,
            bounds,
            objectives,
            reduced: Mutex::new(Vec::new()),
        })
    }

    /// The coefficient bounds (every unknown `≥ 0`, coefficients and shifts `≤ bound`).
    pub fn bounds(&self) -> &Polyhedron {
        &self.bounds
    }

    /// Dependence `e`'s constraints in the sense of thesis Def. 4.2: legality (Eq. 3.16) and,
    /// for a self dependence with `intra_balance`, balanced wavefronts (Eq. 4.1).
    pub fn def_4_2_constraints(&self, e: usize) -> ScheduleResult<Polyhedron> {
        let c = &self.constraints[e];
        Ok(match (&c.balance, self.options.intra_balance) {
            (Some(b), true) => c.legality.intersect(b)?,
            _ => c.legality.clone(),
        })
    }

    /// The lexicographic minimum of Pluto's objective order over `p`, `None` when `p` has no
    /// integer point. Every unknown is `≥ 0`, so an objective that is already 0 at the
    /// current optimum is minimal without solving (most coefficients are).
    pub(crate) fn lexmin(&self, p: &Polyhedron) -> ScheduleResult<Option<Vec<i64>>> {
        let limits = &self.options.limits;
        let mut p = p.clone();
        let mut point: Option<Vec<i64>> = None;
        for f in &self.objectives {
            let known_zero = match &point {
                Some(q) => f.eval(q)? == 0,
                None => false,
            };
            let value = if known_zero {
                0
            } else {
                match p.minimize(f, limits)? {
                    Optimum::Optimal { value, point: q } => {
                        point = Some(q);
                        value
                    }
                    Optimum::Infeasible if point.is_none() => return Ok(None),
                    _ => return Err(PolyError::Internal("scheduling ILP lost its optimum").into()),
                }
            };
            p.add_equality(
                &f.checked_add_constant(value.checked_neg().ok_or_else(|| crate::error::overflow("lexmin"))?)?,
            )?;
        }
        Ok(point)
    }

    /// The objectives' values at `point`, for comparing solutions lexicographically.
    pub(crate) fn objective_values(&self, point: &[i64]) -> ScheduleResult<Vec<i64>> {
        self.objectives.iter().map(|f| Ok(f.eval(point)?)).collect()
    }

    /// Schedules with the dependences marked `true` in `active` (all of them for
    /// [`super::schedule`]; fewer for thesis Alg. 4.2's reruns).
    pub fn solve(&self, active: &[bool]) -> ScheduleResult<Transformation> {
        let mut state = State::new(self, active);
        state.run()?;
        state.finish()
    }
}

/// The bound of every coefficient and shift: `configured`, or more where the program's accesses
/// reach farther. A shift as large as a chain of dependences' distances must fit under it: 1-D
/// Jacobi reading 17 points away and copied back needs `(t, i + 17)` for the copy, and with the
/// bound at 16 the only legal row left was `(t, 2·i)`, a scaling no code generator takes. So
/// the bound grows to the largest constant offset of an access times the statements a chain can
/// pass through (capped: shifts beyond that are never needed).
fn coefficient_bound(scop: &Scop, configured: i64) -> i64 {
    const CAP: i64 = 1 << 20;
    let farthest = scop
        .statements()
        .iter()
        .flat_map(|s| s.accesses())
        .flat_map(|a| a.index())
        .map(|f| f.constant().unsigned_abs())
        .max()
        .unwrap_or(0);
    let statements = scop.statements().len() as u64;
    let needed = farthest.saturating_mul(statements.max(1)).min(CAP as u64) as i64;
    configured.max(needed)
}

/// The partial transformation while the algorithm runs.
pub(crate) struct State<'p, 'a> {
    pub problem: &'p Problem<'a>,
    pub active: Vec<bool>,
    /// Per statement, per row: iterator coefficients and constant.
    pub trans: Vec<Vec<(Vec<i64>, i64)>>,
    pub kinds: Vec<RowKind>,
    pub bands: Vec<Band>,
    pub satisfied_at: Vec<Option<usize>>,
    mode: Mode,
    /// With `intra_balance`: the balanced hyperplane (thesis Alg. 4.1) is still to be found.
    balance_pending: bool,
    /// The row count when no balanced hyperplane existed: balancing waits for a scalar cut
    /// after it (SSOR: no balanced row fuses the forward and backward sweeps, the time loop
    /// goes first and each sweep's band after the cut is balanced).
    balance_deferred_at: Option<usize>,
}

impl<'p, 'a> State<'p, 'a> {
    fn new(problem: &'p Problem<'a>, active: &[bool]) -> State<'p, 'a> {
        let n = problem.unknowns.n_statements();
        State {
            problem,
            active: active.to_vec(),
            trans: vec![Vec::new(); n],
            kinds: Vec::new(),
            bands: Vec::new(),
            satisfied_at: vec![None; problem.graph.dependences().len()],
            mode: Mode::Eager,
            balance_pending: problem.options.intra_balance,
            balance_deferred_at: None,
        }
    }

    /// The scheduler options.
    fn options(&self) -> &SchedulerOptions {
        &self.problem.options
    }

    /// Rows found so far.
    pub fn n_rows(&self) -> usize {
        self.kinds.len()
    }

    /// Active dependences not satisfied yet.
    pub fn unsatisfied(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.active.len()).filter(move |&e| self.active[e] && self.satisfied_at[e].is_none())
    }

    /// Whether every active dependence is satisfied.
    fn all_satisfied(&self) -> bool {
        self.unsatisfied().next().is_none()
    }

    /// Linearly independent loop rows of statement `s`.
    fn rank(&self, s: usize) -> ScheduleResult<usize> {
        let rows: Vec<Vec<i64>> = self.trans[s].iter().map(|(c, _)| c.clone()).collect();
        Ok(rank(&rows)?)
    }

    /// Hyperplanes the deepest statement still needs (Pluto's `num_sols_left`).
    fn hyperplanes_left(&self) -> ScheduleResult<usize> {
        let mut left = 0;
        for s in 0..self.trans.len() {
            left = left.max(self.problem.unknowns.dims(s) - self.rank(s)?);
        }
        Ok(left)
    }

    /// Whether every statement has as many independent hyperplanes as iterators.
    pub(crate) fn full_rank(&self) -> ScheduleResult<bool> {
        Ok(self.hyperplanes_left()? == 0)
    }

    /// Whether a hyperplane (not only cuts) has been found.
    fn has_loop_row(&self) -> bool {
        self.kinds.contains(&RowKind::Loop)
    }

    /// Pluto's main loop (`pluto_auto_transform`): bands, cuts, eager then lazy search.
    fn run(&mut self) -> ScheduleResult<()> {
        if self.options().fuse == FuseStrategy::Smart {
            self.cut_dim_based()?;
        }
        loop {
            if self.n_rows() > self.options().max_rows {
                return Err(ScheduleError::TooManyRows { limit: self.options().max_rows });
            }
            if self.options().fuse == FuseStrategy::None {
                self.cut_all_if_useful()?;
            }
            let left = self.hyperplanes_left()?;
            let start = self.n_rows();
            let found = self.find_band(left)?;
            if found > 0 {
                self.bands.push(Band { rows: start..start + found });
                for r in start..start + found {
                    self.update_satisfaction(r)?;
                }
            } else if self.has_inter_scc_dependence() {
                let before = self.n_rows();
                self.cut()?;
                if self.n_rows() == before {
                    if self.defer_balance() {
                        continue;
                    }
                    return Err(self.stuck());
                }
            } else if self.mode == Mode::Eager {
                self.mode = Mode::Lazy;
            } else if self.all_satisfied() {
                // Only linearly independent rows are missing.
            } else if self.mode == Mode::Lazy {
                self.mode = Mode::Exhaustive;
            } else if self.defer_balance() {
                continue;
            } else {
                return Err(self.stuck());
            }
            if self.mode != Mode::Eager {
                self.precise_satisfaction()?;
            }
            if self.full_rank()? && self.all_satisfied() {
                if self.balance_pending {
                    // No band could be balanced, not even after a cut.
                    return Err(ScheduleError::BalanceInfeasible);
                }
                return Ok(());
            }
        }
    }

    /// Where the search would fail because no balanced first hyperplane exists (thesis Alg.
    /// 4.1), defers the balance: the search starts over unbalanced, and the first hyperplane
    /// after the next scalar cut is balanced instead (SSOR: no balanced row fuses the forward
    /// and backward sweeps; the time loop comes first, then each sweep's own band). Only
    /// programs that had no schedule before are affected. Whether it deferred.
    fn defer_balance(&mut self) -> bool {
        if !(self.balance_pending && self.balance_deferred_at.is_none() && !self.has_loop_row()) {
            return false;
        }
        self.balance_deferred_at = Some(self.n_rows());
        self.mode = Mode::Eager;
        true
    }

    /// The error when nothing makes progress.
    fn stuck(&self) -> ScheduleError {
        if self.options().intra_balance && !self.has_loop_row() {
            return ScheduleError::BalanceInfeasible;
        }
        let unsatisfied: Vec<usize> = self.unsatisfied().collect();
        ScheduleError::NoHyperplane {
            rows: self.n_rows(),
            unsatisfied: unsatisfied.len(),
            first: unsatisfied.first().copied().unwrap_or(0),
        }
    }

    /// The constraints every hyperplane of the next band must satisfy.
    fn base_constraints(&self, balanced: bool) -> ScheduleResult<Polyhedron> {
        let edges: Vec<usize> = self.unsatisfied().collect();
        // Without balance rows among them, the balanced system is the plain one.
        let balanced = balanced && edges.iter().any(|&e| self.problem.constraints[e].balance.is_some());
        let known = lock(&self.problem.reduced)
            .iter()
            .find(|(k, b, _)| *k == edges && *b == balanced)
            .map(|(_, _, p)| p.clone());
        if let Some(p) = known {
            return Ok(p);
        }
        let mut parts: Vec<&Polyhedron> = Vec::new();
        for &e in &edges {
            let c = &self.problem.constraints[e];
            parts.extend([&c.legality, &c.bounding]);
            if balanced {
                parts.extend(&c.balance);
            }
        }
        let base = self.problem.bounds.intersect_all(&parts)?;
        // Fewer rows make every integer program of the band cheaper: exact redundancy removal
        // (linear programs; over the rows found needed only, for large systems) pays for itself
        // several times over.
        let reduced = base.remove_redundancies(&self.options().limits)?;
        let mut kept = lock(&self.problem.reduced);
        if kept.len() >= REDUCED_KEPT {
            kept.remove(0);
        }
        kept.push((edges, balanced, reduced.clone()));
        Ok(reduced)
    }

    /// Finds up to `max` hyperplanes against the same constraints (one band).
    fn find_band(&mut self, max: usize) -> ScheduleResult<usize> {
        if max == 0 {
            return Ok(0);
        }
        if let Some(at) = self.balance_deferred_at {
            if self.kinds[at..].contains(&RowKind::Scalar) {
                self.balance_deferred_at = None;
            }
        }
        let plain = self.base_constraints(false)?;
        let balanced = if self.balance_pending && self.balance_deferred_at.is_none() {
            Some(self.base_constraints(true)?)
        } else {
            None
        };
        let mut found = 0;
        while found < max {
            // Thesis Alg. 4.1 step 3 with k = 1: only the first hyperplane is balanced — the
            // first of the schedule, or, when none can be, the first after the next cut.
            let base = match (&balanced, found) {
                (Some(b), 0) => b,
                _ => &plain,
            };
            let Some(solution) = self.find_hyperplane(base)? else { break };
            self.add_loop_row(&solution);
            if found == 0 && balanced.is_some() {
                self.balance_pending = false;
            }
            found += 1;
        }
        Ok(found)
    }

    /// One hyperplane: the lexicographic minimum of `base` plus the non-trivial-solution and
    /// linear-independence constraints, or `None`.
    fn find_hyperplane(&self, base: &Polyhedron) -> ScheduleResult<Option<Vec<i64>>> {
        let u = &self.problem.unknowns;
        let n = u.n();
        let limits = &self.options().limits;
        let mut needy = Vec::new();
        for s in 0..self.trans.len() {
            if self.rank(s)? < u.dims(s) {
                needy.push(s);
            }
        }
        if needy.is_empty() {
            return Ok(None);
        }
        // Non-trivial solution: Σ_k c_{s,k} ≥ 1 per statement (eager) or over all (lazy).
        let mut current = base.clone();
        let sum_row = |stmts: &[usize]| -> ScheduleResult<AffineForm> {
            let terms: Vec<(usize, i64)> =
                stmts.iter().flat_map(|&s| (0..u.dims(s)).map(move |k| (u.coeff(s, k), 1))).collect();
            Ok(AffineForm::from_terms(n, &terms, -1)?)
        };
        match self.mode {
            Mode::Eager | Mode::Exhaustive => {
                for &s in &needy {
                    current.add_inequality(&sum_row(&[s])?)?;
                }
            }
            Mode::Lazy => current.add_inequality(&sum_row(&needy)?)?,
        }
        if self.mode == Mode::Exhaustive {
            let Some(solution) = self.find_hyperplane_exhaustively(&current, &needy)? else { return Ok(None) };
            return Ok(Some(self.unimodular_completion(&current, &needy, None, solution)?));
        }
        // Linear independence: Σ_b ±b·c_s ≥ 1 over a basis b of the orthogonal sub-space.
        let Some(witness) = current.find_point(limits)? else { return Ok(None) };
        let mut independence = Vec::new();
        for &s in &needy {
            independence.push(self.independence_row(s, &current, &witness)?);
        }
        let mut constrained = current.clone();
        let lazy = match self.mode {
            Mode::Eager | Mode::Exhaustive => {
                for row in &independence {
                    constrained.add_inequality(row)?;
                }
                None
            }
            Mode::Lazy => {
                let mut sum = AffineForm::constant_form(n, independence.len() as i64 - 1);
                for row in &independence {
                    sum = sum.checked_add(row)?;
                }
                constrained.add_inequality(&sum)?;
                Some(sum)
            }
        };
        let Some(solution) = self.problem.lexmin(&constrained)? else { return Ok(None) };
        // Pluto's row may leave a statement's rows a strict sublattice of their span (no
        // integral inverse); prefer a legal row that does not (see `unimodular`).
        Ok(Some(self.unimodular_completion(&current, &needy, lazy.as_ref(), solution)?))
    }

    /// [`Mode::Exhaustive`]: for every combination of one half-space `±b·c_s ≥ 1` per needy
    /// statement (at most [`SchedulerOptions::max_independence_cases`]), the lexicographic
    /// minimum; the smallest of them.
    fn find_hyperplane_exhaustively(&self, current: &Polyhedron, needy: &[usize]) -> ScheduleResult<Option<Vec<i64>>> {
        let u = &self.problem.unknowns;
        let n = u.n();
        let mut choices: Vec<Vec<AffineForm>> = Vec::with_capacity(needy.len());
        for &s in needy {
            let dims = u.dims(s);
            let mut rows = Vec::new();
            for b in right_kernel(&self.loop_rows(s), dims)? {
                let negated = negate(&b)?;
                for v in [&b, &negated] {
                    let terms: Vec<(usize, i64)> = (0..dims).map(|k| (u.coeff(s, k), v[k])).collect();
                    rows.push(AffineForm::from_terms(n, &terms, -1)?);
                }
            }
            choices.push(rows);
        }
        let cases = choices.iter().try_fold(1usize, |acc, c| acc.checked_mul(c.len()));
        let limit = self.options().max_independence_cases;
        if cases.is_none_or(|c| c > limit) {
            return Err(ScheduleError::Poly(PolyError::LimitExceeded {
                limit: "max_independence_cases",
                value: limit,
                context: "exhaustive linear-independence search",
            }));
        }
        self.best_combination(&choices, |picked| {
            let mut p = current.clone();
            for row in picked {
                p.add_inequality(row)?;
            }
            Ok(p)
        })
    }

    /// Over every combination of one entry per list of `choices` (none when a list is empty),
    /// the lexicographic minimum of the polyhedron `build` makes from it; the smallest of them
    /// by the problem's objectives.
    pub(crate) fn best_combination<C>(
        &self,
        choices: &[Vec<C>],
        mut build: impl FnMut(&[&C]) -> ScheduleResult<Polyhedron>,
    ) -> ScheduleResult<Option<Vec<i64>>> {
        if choices.iter().any(Vec::is_empty) {
            return Ok(None);
        }
        let mut best: Option<(Vec<i64>, Vec<i64>)> = None;
        let mut pick = vec![0usize; choices.len()];
        loop {
            let picked: Vec<&C> = choices.iter().zip(&pick).map(|(c, &k)| &c[k]).collect();
            if let Some(point) = self.problem.lexmin(&build(&picked)?)? {
                let key = self.problem.objective_values(&point)?;
                if best.as_ref().is_none_or(|(k, _)| key < *k) {
                    best = Some((key, point));
                }
            }
            // Next combination (odometer).
            let mut d = 0;
            while d < pick.len() {
                pick[d] += 1;
                if pick[d] < choices[d].len() {
                    break;
                }
                pick[d] = 0;
                d += 1;
            }
            if d == pick.len() {
                break;
            }
        }
        Ok(best.map(|(_, point)| point))
    }

    /// The loop rows of statement `s` (its iterator coefficients).
    pub(crate) fn loop_rows(&self, s: usize) -> Vec<Vec<i64>> {
        self.trans[s].iter().zip(&self.kinds).filter(|(_, k)| **k == RowKind::Loop).map(|(r, _)| r.0.clone()).collect()
    }

    /// Pluto's `get_stmt_lin_ind_constraints`: the kernel of statement `s`'s loop rows, each
    /// basis vector oriented, then negated if `b·c ≥ 1` is infeasible with `current`; the
    /// constraint is their sum `≥ 1`.
    ///
    /// `witness` is a point of `current`: when it satisfies `b·c ≥ 1`, no search is needed.
    fn independence_row(&self, s: usize, current: &Polyhedron, witness: &[i64]) -> ScheduleResult<AffineForm> {
        let u = &self.problem.unknowns;
        let n = u.n();
        let dims = u.dims(s);
        let mut sum = vec![0i64; dims];
        for mut b in right_kernel(&self.loop_rows(s), dims)? {
            normalize(&mut b);
            if self.options().ortho_orientation == OrthoOrientation::InnermostPositive
                && b.iter().rev().find(|&&x| x != 0).is_some_and(|&x| x < 0)
            {
                b = negate(&b)?;
            }
            let terms: Vec<(usize, i64)> = (0..dims).map(|k| (u.coeff(s, k), b[k])).collect();
            let half = AffineForm::from_terms(n, &terms, -1)?;
            if half.eval(witness)? < 0 {
                let mut test = current.clone();
                test.add_inequality(&half)?;
                if test.is_empty(&self.options().limits)? {
                    b = negate(&b)?;
                }
            }
            for (acc, x) in sum.iter_mut().zip(&b) {
                *acc = acc.checked_add(*x).ok_or_else(|| crate::error::overflow("linear independence"))?;
            }
        }
        let terms: Vec<(usize, i64)> = (0..dims).map(|k| (u.coeff(s, k), sum[k])).collect();
        Ok(AffineForm::from_terms(n, &terms, -1)?)
    }

    /// Appends the hyperplane of an integer-program solution.
    fn add_loop_row(&mut self, solution: &[i64]) {
        for s in 0..self.trans.len() {
            let row = self.problem.unknowns.row_of(s, solution);
            self.trans[s].push(row);
        }
        self.kinds.push(RowKind::Loop);
    }

    /// Adds a scalar row with the given constant per statement; returns how many dependences
    /// it satisfies.
    pub fn add_scalar_row(&mut self, values: &[i64]) -> ScheduleResult<usize> {
        for (s, &v) in values.iter().enumerate() {
            let dims = self.problem.unknowns.dims(s);
            self.trans[s].push((vec![0; dims], v));
        }
        self.kinds.push(RowKind::Scalar);
        self.update_satisfaction(self.n_rows() - 1)
    }

    /// Removes the last row (a cut that satisfied nothing, as Pluto does).
    pub fn pop_row(&mut self) {
        for t in &mut self.trans {
            t.pop();
        }
        self.kinds.pop();
    }

    /// `φ_T − φ_S` of row `r` over dependence `e`'s polyhedron.
    fn difference(&self, e: usize, r: usize) -> ScheduleResult<AffineForm> {
        let d = &self.problem.graph.dependences()[e];
        let (s, t) = (d.source.statement.0, d.target.statement.0);
        let src = self.row_form(s, r)?;
        let tgt = self.row_form(t, r)?;
        Ok(row_difference(&src, &tgt, &self.problem.polys[e])?)
    }

    /// Row `r` of statement `s` as a form over the statement's space.
    fn row_form(&self, s: usize, r: usize) -> ScheduleResult<AffineForm> {
        let space = self.problem.scop.statements()[s].space();
        let (c, k) = &self.trans[s][r];
        let mut coeffs = c.clone();
        coeffs.resize(space.n_columns(), 0);
        Ok(AffineForm::new(coeffs, *k))
    }

    /// Marks the dependences that row `r` satisfies: `φ_T − φ_S ≥ 1` on all of `P_e`
    /// (Pluto's `dep_satisfaction_test`). Returns how many.
    fn update_satisfaction(&mut self, r: usize) -> ScheduleResult<usize> {
        let limits = self.options().limits;
        let mut count = 0;
        let pending: Vec<usize> = self.unsatisfied().collect();
        for e in pending {
            let diff = self.difference(e, r)?;
            let mut rest = self.problem.polys[e].clone();
            rest.add_inequality(&diff.checked_neg()?)?;
            if rest.is_empty(&limits)? {
                self.satisfied_at[e] = Some(r);
                count += 1;
            }
        }
        Ok(count)
    }

    /// Lazy mode: a dependence is satisfied once no instance pair is left with all rows so
    /// far `≤ 0` (Pluto's `pluto_compute_dep_satisfaction_precise`).
    fn precise_satisfaction(&mut self) -> ScheduleResult<()> {
        let limits = self.options().limits;
        let pending: Vec<usize> = self.unsatisfied().collect();
        for e in pending {
            let mut rest = self.problem.polys[e].clone();
            for r in 0..self.n_rows() {
                rest.add_inequality(&self.difference(e, r)?.checked_neg()?)?;
                if rest.is_empty(&limits)? {
                    self.satisfied_at[e] = Some(r);
                    break;
                }
            }
        }
        Ok(())
    }

    /// The result: schedules, rows, bands, satisfaction.
    fn finish(self) -> ScheduleResult<Transformation> {
        let scop = self.problem.scop;
        let mut schedules = Vec::with_capacity(self.trans.len());
        for (s, st) in scop.statements().iter().enumerate() {
            let rows = (0..self.n_rows()).map(|r| self.row_form(s, r)).collect::<ScheduleResult<Vec<_>>>()?;
            schedules.push(Schedule::new(st.space(), rows)?);
        }
        let mut rows: Vec<Row> =
            self.kinds.iter().map(|&kind| Row { kind, band: None, satisfies: Vec::new() }).collect();
        for (b, band) in self.bands.iter().enumerate() {
            for r in band.rows.clone() {
                rows[r].band = Some(b);
            }
        }
        for (e, at) in self.satisfied_at.iter().enumerate() {
            if let Some(r) = at {
                rows[*r].satisfies.push(DependenceId(e));
            }
        }
        Ok(Transformation { schedules, rows, bands: self.bands, satisfied_at: self.satisfied_at })
    }
}

/// `−v`, checked.
fn negate(v: &[i64]) -> ScheduleResult<Vec<i64>> {
    v.iter().map(|x| x.checked_neg().ok_or_else(|| crate::error::overflow("linear independence").into())).collect()
}

/// The lock of [`Problem`]'s kept systems (a panic elsewhere leaves them valid: each entry is
/// pushed whole).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
