//! Unimodular completion: hyperplanes that keep every statement's transformation invertible
//! over the integers.
//!
//! Pluto's linear-independence constraint (the sum of the orthogonal sub-space's basis
//! vectors `≥ 1`, one orthant; NOTES "Pluto's scheduler") makes each new row independent of a
//! statement's earlier rows, but not *unimodular*: after `2t + j` the orthant can force
//! `t + 2i` where `t + i` was legal, and the rows `(2t + j, t + 2i, t + j)` then determine
//! only `2i`. Pluto leaves such transformations to CLooG, which scans them with loop strides;
//! our scanner needs an integral inverse (`codegen::invert`, `CodegenError::NonUnimodular`),
//! and even with strides a non-unimodular band leaves holes in every tile.
//!
//! The invariant kept here: after every hyperplane, the loop rows of each statement generate
//! a *saturated* lattice (every integer vector of their span is an integer combination of
//! them, [`saturated`]). With full rank that is a unimodular matrix. If the rows `H` are
//! saturated and `u_1 … u_m` is a lattice basis of `ker H` (the columns isl's
//! `isl_mat_right_kernel` returns, [`right_kernel`]), a new row `c` keeps them saturated iff
//! `gcd(u_1·c, …, u_m·c) = 1` (or all are 0: a dependent row); `u_j·c = ±1` for one `j` is
//! sufficient, and exact for the last row (`m = 1`).
//!
//! The search is a preference, applied only when Pluto's lexicographic minimum breaks the
//! invariant: then the statements it breaks get, instead of Pluto's orthant, one case
//! `u_j·c = ±1` each (lazy mode also allows a dependent row), every combination is solved
//! with the same legality, bounding and balance constraints, and the lexicographically
//! smallest solution wins; a statement that the winner breaks in turn joins the cases, and
//! if no combination is feasible every statement that needs a row gets the cases. When even
//! then no case is feasible, or there are more than
//! [`SchedulerOptions::max_independence_cases`] combinations, Pluto's row is kept — still
//! legal; code generation then reports the statement as non-unimodular.
//!
//! [`SchedulerOptions::max_independence_cases`]: super::SchedulerOptions::max_independence_cases

use crate::affine::AffineForm;
use crate::error::PolyError;
use crate::polyhedron::Polyhedron;

use super::error::ScheduleResult;
use super::ortho::{right_kernel, saturated};
use super::pluto::State;

/// One way for a statement's next row to keep its lattice saturated.
struct Case {
    /// Forms that must be zero.
    equalities: Vec<AffineForm>,
    /// Whether the row is linearly independent of the statement's rows.
    independent: bool,
}

impl State<'_, '_> {
    /// The statements of `needy` whose loop rows generate a saturated lattice that the row of
    /// `solution` would make non-saturated.
    fn broken_by(&self, needy: &[usize], solution: &[i64]) -> ScheduleResult<Vec<usize>> {
        let u = &self.problem.unknowns;
        let mut out = Vec::new();
        for &s in needy {
            let mut rows = self.loop_rows(s);
            if !saturated(&rows, u.dims(s))? {
                // Lost at an earlier row (no legal saturating row existed then).
                continue;
            }
            rows.push(u.row_of(s, solution).0);
            if !saturated(&rows, u.dims(s))? {
                out.push(s);
            }
        }
        Ok(out)
    }

    /// `u·c_s − target` for a kernel vector `u` of statement `s`, over the unknowns.
    fn kernel_form(&self, s: usize, v: &[i64], target: i64) -> ScheduleResult<AffineForm> {
        let u = &self.problem.unknowns;
        let terms: Vec<(usize, i64)> = (0..u.dims(s)).map(|k| (u.coeff(s, k), v[k])).collect();
        let constant = target.checked_neg().ok_or_else(|| crate::error::overflow("unimodular completion"))?;
        Ok(AffineForm::from_terms(u.n(), &terms, constant)?)
    }

    /// The saturating cases of statement `s`: `u_j·c = 1` and `u_j·c = −1` per kernel basis
    /// vector, and with `allow_dependent` the dependent row (`u_j·c = 0` for all `j`).
    fn saturating_cases(&self, s: usize, allow_dependent: bool) -> ScheduleResult<Vec<Case>> {
        let kernel = right_kernel(&self.loop_rows(s), self.problem.unknowns.dims(s))?;
        let mut cases = Vec::with_capacity(2 * kernel.len() + 1);
        for v in &kernel {
            for target in [1, -1] {
                cases.push(Case { equalities: vec![self.kernel_form(s, v, target)?], independent: true });
            }
        }
        if allow_dependent {
            let equalities = kernel.iter().map(|v| self.kernel_form(s, v, 0)).collect::<ScheduleResult<_>>()?;
            cases.push(Case { equalities, independent: false });
        }
        Ok(cases)
    }

    /// The half-space `±u_j·c ≥ 1` that the row of `solution` lies in for statement `s`: the
    /// linear independence of that row, without Pluto's orthant.
    fn independent_half_space(&self, s: usize, solution: &[i64]) -> ScheduleResult<AffineForm> {
        let u = &self.problem.unknowns;
        let c = u.row_of(s, solution).0;
        for v in right_kernel(&self.loop_rows(s), u.dims(s))? {
            let dot = v.iter().zip(&c).try_fold(0i64, |acc, (a, b)| acc.checked_add(a.checked_mul(*b)?));
            let dot = dot.ok_or_else(|| crate::error::overflow("unimodular completion"))?;
            if dot != 0 {
                let form = self.kernel_form(s, &v, 0)?;
                let oriented = if dot > 0 { form } else { form.checked_neg()? };
                return Ok(oriented.checked_add_constant(-1)?);
            }
        }
        Err(PolyError::Internal("the hyperplane search returned a dependent row for a statement that needs one").into())
    }

    /// `solution` (Pluto's hyperplane over `current`, which holds every constraint but linear
    /// independence), or the lexicographically smallest hyperplane that keeps every statement
    /// of `needy` saturated (see the module documentation). `lazy` is the lazy mode's
    /// constraint (some statement of `needy` gets an independent row); without it every
    /// statement of `needy` needs one.
    pub(crate) fn unimodular_completion(
        &self,
        current: &Polyhedron,
        needy: &[usize],
        lazy: Option<&AffineForm>,
        solution: Vec<i64>,
    ) -> ScheduleResult<Vec<i64>> {
        let mut fixing = self.broken_by(needy, &solution)?;
        if fixing.is_empty() {
            return Ok(solution);
        }
        loop {
            let mut common = current.clone();
            let mut choices: Vec<Vec<Case>> = Vec::with_capacity(fixing.len());
            for &s in needy {
                if fixing.contains(&s) {
                    choices.push(self.saturating_cases(s, lazy.is_some())?);
                } else if lazy.is_none() {
                    common.add_inequality(&self.independent_half_space(s, &solution)?)?;
                }
            }
            match self.best_case(&common, &choices, lazy)? {
                Some(best) => {
                    // The cases keep the fixing statements saturated; others may break now.
                    let newly: Vec<usize> =
                        self.broken_by(needy, &best)?.into_iter().filter(|s| !fixing.contains(s)).collect();
                    if newly.is_empty() {
                        return Ok(best);
                    }
                    fixing.extend(newly);
                }
                // The half-spaces kept for the other statements may be what excludes every
                // case: give every statement the saturating cases before keeping Pluto's row.
                None if fixing.len() < needy.len() => fixing = needy.to_vec(),
                None => return Ok(solution),
            }
        }
    }

    /// The lexicographic minimum over `common` plus one case per entry of `choices`, the
    /// smallest over all combinations; `None` when none is feasible or there are more
    /// combinations than [`SchedulerOptions::max_independence_cases`].
    ///
    /// [`SchedulerOptions::max_independence_cases`]: super::SchedulerOptions::max_independence_cases
    fn best_case(
        &self,
        common: &Polyhedron,
        choices: &[Vec<Case>],
        lazy: Option<&AffineForm>,
    ) -> ScheduleResult<Option<Vec<i64>>> {
        let cases = choices.iter().try_fold(1usize, |acc, c| acc.checked_mul(c.len()));
        if cases.is_none_or(|c| c == 0 || c > self.problem.options.max_independence_cases) {
            return Ok(None);
        }
        self.best_combination(choices, |picked| {
            let mut p = common.clone();
            let mut independent = false;
            for case in picked {
                for e in &case.equalities {
                    p.add_equality(e)?;
                }
                independent |= case.independent;
            }
            if let (Some(row), false) = (lazy, independent) {
                p.add_inequality(row)?;
            }
            Ok(p)
        })
    }
}
