//! Exact rational linear programming: a dictionary-form simplex with free variables.
//!
//! Every inequality `a·x + b ≥ 0` gets a slack `s = a·x + b ≥ 0`; every equality a slack that
//! must stay 0. Initially the original variables `x` (free) are the non-basic columns and the
//! slacks the basic rows. Gaussian pivots first move equality slacks into the columns (where
//! they are dropped, being 0) and the free variables into the rows (where they stay, unsigned
//! and never leaving), so the remaining problem only has sign-constrained columns — usually a
//! much smaller tableau than the textbook `x = x⁺ − x⁻` split. Feasibility comes from a
//! single-artificial phase 1, optimisation from phase 2; Bland's rule (smallest variable index
//! entering and leaving) rules out cycling, and the number of pivots is bounded by
//! [`Limits::max_simplex_pivots`].
//!
//! The tableau is integer: each row holds `i128` numerators and one positive denominator and is
//! divided by the gcd of its entries after every pivot; overflow is an error, never a wrap.

use crate::affine::AffineForm;
use crate::error::{overflow, PolyError, Result};
use crate::int::{add, gcd_u128, mul};
use crate::limits::Limits;
use crate::lp::rational::Rational;

/// Outcome of a linear program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LpOutcome {
    /// No rational point satisfies the constraints.
    Infeasible,
    /// The objective is unbounded below.
    Unbounded,
    /// An optimal basic solution and the optimal value.
    Optimal { value: Rational, point: Vec<Rational> },
}

const OP: &str = "simplex pivot";

/// `var · den = konst + Σ_slot coef[slot] · (variable in slot)`.
#[derive(Debug, Clone)]
struct Row {
    konst: i128,
    coef: Vec<i128>,
    den: i128,
}

impl Row {
    fn normalize(&mut self) -> Result<()> {
        if self.den < 0 {
            self.den = self.den.checked_neg().ok_or_else(|| overflow(OP))?;
            self.konst = self.konst.checked_neg().ok_or_else(|| overflow(OP))?;
            for c in &mut self.coef {
                *c = c.checked_neg().ok_or_else(|| overflow(OP))?;
            }
        }
        let mut g = gcd_u128(self.den.unsigned_abs(), self.konst.unsigned_abs());
        for &c in &self.coef {
            if g == 1 {
                return Ok(());
            }
            g = gcd_u128(g, c.unsigned_abs());
        }
        if g > 1 {
            // g divides den > 0, so it fits i128. Exact divisions, in 64 bits where the value
            // fits (a 128-bit division is a library call).
            let g = g as i128;
            let g64 = i64::try_from(g).ok();
            let divide = |x: &mut i128| {
                *x = match (i64::try_from(*x), g64) {
                    (Ok(a), Some(b)) => i128::from(a / b),
                    _ => *x / g,
                }
            };
            divide(&mut self.konst);
            divide(&mut self.den);
            self.coef.iter_mut().for_each(divide);
        }
        Ok(())
    }

    /// Substitutes slot `c` by the pivot row `p` (which now defines the variable that was in
    /// slot `c`, with the old basic variable of the pivot in slot `c`).
    fn substitute(&mut self, p: &Row, c: usize) -> Result<()> {
        let g = self.coef[c];
        if g == 0 {
            return Ok(());
        }
        let d = p.den;
        self.konst = add(mul(self.konst, d, OP)?, mul(g, p.konst, OP)?, OP)?;
        for (k, (x, &pk)) in self.coef.iter_mut().zip(&p.coef).enumerate() {
            if k == c {
                *x = mul(g, pk, OP)?;
            } else if pk == 0 {
                if d != 1 && *x != 0 {
                    *x = mul(*x, d, OP)?;
                }
            } else {
                let scaled = if d == 1 { *x } else { mul(*x, d, OP)? };
                *x = add(scaled, mul(g, pk, OP)?, OP)?;
            }
        }
        self.den = mul(self.den, d, OP)?;
        self.normalize()
    }

    fn value(&self) -> Result<Rational> {
        Rational::new(self.konst, self.den)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Free,
    Slack,
    Zero,
    Artificial,
}

struct Tableau {
    rows: Vec<Row>,
    row_var: Vec<usize>,
    col_var: Vec<usize>,
    /// Dead columns hold a variable fixed at 0 (an equality slack, the spent artificial, or a
    /// free variable no constraint mentions): they never enter.
    dead: Vec<bool>,
    /// Free columns that no sign-constrained row mentions.
    unconstrained: Vec<bool>,
    kinds: Vec<Kind>,
    pivots: usize,
    max_pivots: usize,
}

impl Tableau {
    fn signed(&self, var: usize) -> bool {
        matches!(self.kinds[var], Kind::Slack | Kind::Artificial)
    }

    fn pivot(&mut self, obj: Option<&mut Row>, r: usize, c: usize) -> Result<()> {
        self.pivots += 1;
        if self.pivots > self.max_pivots {
            return Err(PolyError::LimitExceeded {
                limit: "max_simplex_pivots",
                value: self.max_pivots,
                context: "exact simplex",
            });
        }
        let gc = self.rows[r].coef[c];
        if gc == 0 {
            return Err(PolyError::Internal("simplex pivot on a zero entry"));
        }
        // Solve row r for the column variable: v_c = (−konst + den·v_r − Σ_{k≠c} coef_k v_k) / g_c.
        let mut p = std::mem::replace(&mut self.rows[r], Row { konst: 0, coef: Vec::new(), den: 1 });
        let old_den = p.den;
        p.konst = p.konst.checked_neg().ok_or_else(|| overflow(OP))?;
        for x in &mut p.coef {
            *x = x.checked_neg().ok_or_else(|| overflow(OP))?;
        }
        p.coef[c] = old_den;
        p.den = gc;
        p.normalize()?;
        for (i, row) in self.rows.iter_mut().enumerate() {
            if i != r {
                row.substitute(&p, c)?;
            }
        }
        if let Some(o) = obj {
            o.substitute(&p, c)?;
        }
        self.rows[r] = p;
        std::mem::swap(&mut self.row_var[r], &mut self.col_var[c]);
        Ok(())
    }

    /// Phase-2 style optimisation of `obj` over the live, constrained columns. Returns `false`
    /// when unbounded.
    fn optimize(&mut self, obj: &mut Row) -> Result<bool> {
        loop {
            let entering = (0..self.col_var.len())
                .filter(|&c| !self.dead[c] && !self.unconstrained[c] && obj.coef[c] < 0)
                .min_by_key(|&c| self.col_var[c]);
            let Some(c) = entering else { return Ok(true) };
            let mut best: Option<usize> = None;
            for (r, row) in self.rows.iter().enumerate() {
                let g = row.coef[c];
                if g >= 0 || !self.signed(self.row_var[r]) {
                    continue;
                }
                best = Some(match best {
                    None => r,
                    Some(b) => {
                        let rb = &self.rows[b];
                        // konst_r / (−g_r) < konst_b / (−g_b)  ⇔  konst_r·g_b > konst_b·g_r
                        // (both −g positive).
                        let lhs = mul(row.konst, rb.coef[c], "simplex ratio test")?;
                        let rhs = mul(rb.konst, g, "simplex ratio test")?;
                        if lhs > rhs || (lhs == rhs && self.row_var[r] < self.row_var[b]) {
                            r
                        } else {
                            b
                        }
                    }
                });
            }
            let Some(r) = best else { return Ok(false) };
            self.pivot(Some(obj), r, c)?;
        }
    }
}

/// Minimises `objective` (or finds a feasible point when `None`) over the rational points `x`
/// with `eq(x) = 0` for every `eq` in `equalities` and `f(x) ≥ 0` for every `f` in the
/// inequality slices. All forms have `n` columns.
pub(crate) fn solve(
    n: usize,
    equalities: &[AffineForm],
    inequalities: &[&[AffineForm]],
    objective: Option<&AffineForm>,
    limits: &Limits,
) -> Result<LpOutcome> {
    let ineqs: Vec<&AffineForm> = inequalities.iter().flat_map(|s| s.iter()).collect();
    for f in equalities.iter().chain(ineqs.iter().copied()).chain(objective) {
        if f.n_columns() != n {
            return Err(PolyError::SpaceMismatch { context: "linear program", expected: n, found: f.n_columns() });
        }
    }
    let (m, q) = (ineqs.len(), equalities.len());
    // Variables: x_j = j, slack of inequality i = n + i, of equality k = n + m + k, artificial last.
    let art = n + m + q;
    let mut kinds = vec![Kind::Free; n];
    kinds.extend(std::iter::repeat_n(Kind::Slack, m));
    kinds.extend(std::iter::repeat_n(Kind::Zero, q));
    kinds.push(Kind::Artificial);
    let slots = n + 1; // the last slot is reserved for the artificial
    let to_row = |f: &AffineForm| Row {
        konst: i128::from(f.constant()),
        coef: f.coeffs().iter().map(|&c| i128::from(c)).chain([0]).collect(),
        den: 1,
    };
    let mut t = Tableau {
        rows: ineqs.iter().map(|f| to_row(f)).chain(equalities.iter().map(to_row)).collect(),
        row_var: (n..n + m + q).collect(),
        col_var: (0..n).chain([art]).collect(),
        dead: (0..slots).map(|s| s == n).collect(),
        unconstrained: vec![false; slots],
        kinds,
        pivots: 0,
        max_pivots: limits.max_simplex_pivots,
    };

    // Phase 0a: equality slacks into the columns, where they are fixed at 0.
    while let Some(r) = (0..t.rows.len()).find(|&r| t.kinds[t.row_var[r]] == Kind::Zero) {
        let col = (0..n)
            .filter(|&c| !t.dead[c] && t.kinds[t.col_var[c]] == Kind::Free && t.rows[r].coef[c] != 0)
            .min_by_key(|&c| (t.rows[r].coef[c].unsigned_abs(), t.col_var[c]));
        match col {
            Some(c) => {
                t.pivot(None, r, c)?;
                t.dead[c] = true;
            }
            None => {
                if t.rows[r].konst != 0 {
                    return Ok(LpOutcome::Infeasible);
                }
                t.rows.remove(r);
                t.row_var.remove(r);
            }
        }
    }
    // Phase 0b: free variables into the rows.
    for c in 0..n {
        if t.dead[c] || t.kinds[t.col_var[c]] != Kind::Free {
            continue;
        }
        let row = (0..t.rows.len())
            .filter(|&r| t.signed(t.row_var[r]) && t.rows[r].coef[c] != 0)
            .min_by_key(|&r| (t.rows[r].coef[c].unsigned_abs(), t.row_var[r]));
        match row {
            Some(r) => t.pivot(None, r, c)?,
            None => t.unconstrained[c] = true,
        }
    }

    // Phase 1: one artificial column added to every violated row.
    let negative: Vec<usize> = (0..t.rows.len()).filter(|&r| t.signed(t.row_var[r]) && t.rows[r].konst < 0).collect();
    if !negative.is_empty() {
        let a = n;
        t.dead[a] = false;
        for &r in &negative {
            t.rows[r].coef[a] = t.rows[r].den;
        }
        // Most violated row: smallest konst/den.
        let mut worst = negative[0];
        for &r in &negative[1..] {
            let (x, y) = (&t.rows[r], &t.rows[worst]);
            if mul(x.konst, y.den, OP)? < mul(y.konst, x.den, OP)? {
                worst = r;
            }
        }
        t.pivot(None, worst, a)?;
        let ar = (0..t.rows.len()).find(|&r| t.row_var[r] == art).ok_or(PolyError::Internal("artificial lost"))?;
        let mut obj = t.rows[ar].clone();
        if !t.optimize(&mut obj)? {
            return Err(PolyError::Internal("phase-1 simplex unbounded"));
        }
        if obj.konst > 0 {
            return Ok(LpOutcome::Infeasible);
        }
        // Retire the artificial.
        if let Some(r) = (0..t.rows.len()).find(|&r| t.row_var[r] == art) {
            let col = (0..slots).find(|&c| !t.dead[c] && !t.unconstrained[c] && t.rows[r].coef[c] != 0);
            match col {
                Some(c) => {
                    t.pivot(None, r, c)?;
                    t.dead[c] = true;
                }
                None => {
                    t.rows.remove(r);
                    t.row_var.remove(r);
                }
            }
        } else if let Some(c) = (0..slots).find(|&c| t.col_var[c] == art) {
            t.dead[c] = true;
        }
    }

    // Phase 2.
    let mut value = Rational::integer(0);
    if let Some(f) = objective {
        let mut obj = Row { konst: i128::from(f.constant()), coef: vec![0; slots], den: 1 };
        for (c, &var) in t.col_var.iter().enumerate() {
            if var < n && !t.dead[c] {
                obj.coef[c] = i128::from(f.coeff(var));
            }
        }
        for r in 0..t.rows.len() {
            let var = t.row_var[r];
            if var < n && f.coeff(var) != 0 {
                // obj += f_var · row
                let row = &t.rows[r];
                let k = i128::from(f.coeff(var));
                let d = row.den;
                obj.konst = add(mul(obj.konst, d, OP)?, mul(mul(k, obj.den, OP)?, row.konst, OP)?, OP)?;
                for (x, &rc) in obj.coef.iter_mut().zip(&row.coef) {
                    *x = add(mul(*x, d, OP)?, mul(mul(k, obj.den, OP)?, rc, OP)?, OP)?;
                }
                obj.den = mul(obj.den, d, OP)?;
                obj.normalize()?;
            }
        }
        for c in 0..slots {
            if !t.dead[c] && t.unconstrained[c] && obj.coef[c] != 0 {
                return Ok(LpOutcome::Unbounded);
            }
        }
        if !t.optimize(&mut obj)? {
            return Ok(LpOutcome::Unbounded);
        }
        value = obj.value()?;
    }

    let mut point = vec![Rational::integer(0); n];
    for (r, &var) in t.row_var.iter().enumerate() {
        if var < n {
            point[var] = t.rows[r].value()?;
        }
    }
    Ok(LpOutcome::Optimal { value, point })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(c: &[i64], k: i64) -> AffineForm {
        AffineForm::new(c.to_vec(), k)
    }

    #[test]
    fn small_lp_optimum() {
        // min -x - y  s.t. x ≥ 0, y ≥ 0, 2x + y ≤ 4, x + 2y ≤ 4  → x = y = 4/3, value −8/3.
        let ineqs = [form(&[1, 0], 0), form(&[0, 1], 0), form(&[-2, -1], 4), form(&[-1, -2], 4)];
        let out = solve(2, &[], &[&ineqs], Some(&form(&[-1, -1], 0)), &Limits::default()).unwrap();
        let LpOutcome::Optimal { value, point } = out else { panic!("{out:?}") };
        assert_eq!(value, Rational::new(-8, 3).unwrap());
        assert_eq!(point, vec![Rational::new(4, 3).unwrap(), Rational::new(4, 3).unwrap()]);
    }

    #[test]
    fn free_variables_and_unboundedness() {
        // min x s.t. x ≤ 5 (x free) → unbounded; min −x → 5 at x = 5.
        let ineqs = [form(&[-1], 5)];
        assert_eq!(solve(1, &[], &[&ineqs], Some(&form(&[1], 0)), &Limits::default()).unwrap(), LpOutcome::Unbounded);
        let out = solve(1, &[], &[&ineqs], Some(&form(&[-1], 0)), &Limits::default()).unwrap();
        assert!(matches!(out, LpOutcome::Optimal { value, .. } if value == Rational::integer(-5)));
        // A variable no constraint mentions: unbounded if the objective uses it.
        let ineqs = [form(&[1, 0], 0)];
        assert_eq!(
            solve(2, &[], &[&ineqs], Some(&form(&[0, 1], 0)), &Limits::default()).unwrap(),
            LpOutcome::Unbounded
        );
    }

    #[test]
    fn infeasibility_and_equalities() {
        // x + y = 1, x ≥ 1, y ≥ 1 is empty.
        let ineqs = [form(&[1, 0], -1), form(&[0, 1], -1)];
        let eqs = [form(&[1, 1], -1)];
        assert_eq!(solve(2, &eqs, &[&ineqs], None, &Limits::default()).unwrap(), LpOutcome::Infeasible);
        // 2x = 1 has the rational point 1/2.
        let out = solve(1, &[form(&[2], -1)], &[], None, &Limits::default()).unwrap();
        assert!(matches!(out, LpOutcome::Optimal { point, .. } if point[0] == Rational::new(1, 2).unwrap()));
        // x ≥ 3, x ≤ 2.
        let ineqs = [form(&[1], -3), form(&[-1], 2)];
        assert_eq!(solve(1, &[], &[&ineqs], None, &Limits::default()).unwrap(), LpOutcome::Infeasible);
    }

    #[test]
    fn redundant_equalities_are_dropped() {
        let eqs = [form(&[1, 1], -1), form(&[2, 2], -2)];
        let out = solve(2, &eqs, &[], Some(&form(&[0, 0], 3)), &Limits::default()).unwrap();
        assert!(matches!(out, LpOutcome::Optimal { value, .. } if value == Rational::integer(3)));
        let eqs = [form(&[1, 1], -1), form(&[2, 2], -3)];
        assert_eq!(solve(2, &eqs, &[], None, &Limits::default()).unwrap(), LpOutcome::Infeasible);
    }

    #[test]
    fn phase_one_with_several_violated_rows() {
        // x ≥ 2, y ≥ 3, x + y ≤ 10: min x + 2y = 2 + 6 = 8.
        let ineqs = [form(&[1, 0], -2), form(&[0, 1], -3), form(&[-1, -1], 10)];
        let out = solve(2, &[], &[&ineqs], Some(&form(&[1, 2], 0)), &Limits::default()).unwrap();
        assert!(matches!(out, LpOutcome::Optimal { value, .. } if value == Rational::integer(8)), "{out:?}");
    }
}
