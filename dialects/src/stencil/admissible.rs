//! The parameter values for which a statement executes, and the search for a parameter value
//! that breaks an affine condition there (the core of the verifier's in-bounds check).
//!
//! Parameters are independent and bounded only by their declared minimums. A statement runs
//! only when every dimension of its box and every enclosing `stencil.iterate` is non-empty,
//! i.e. `ub - lb - 1 ≥ 0` for each of them. A condition that involves one parameter (or none)
//! narrows that parameter's interval, so the admissible values form a box
//! `lo_i ≤ p_i ≤ hi_i`, and an affine `f` is non-negative on the whole box iff it is at the
//! corner chosen by the signs of `f`'s coefficients: that test is exact. Conditions that
//! combine several parameters (`N - M - 1 ≥ 0`) cannot narrow a box; they are kept aside and
//! only used to tell whether a counter-example really executes.

use super::linear::Linear;
use stencil_ir::affine::{ceil_div, floor_div};

/// The admissible parameter values of one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamBox {
    /// Least admissible value of each parameter.
    pub lo: Vec<i64>,
    /// Greatest admissible value of each parameter (`None`: unbounded).
    pub hi: Vec<Option<i64>>,
    /// Non-emptiness conditions `g ≥ 0` over several parameters, not folded into the box.
    pub coupled: Vec<Linear>,
    /// Some condition can never hold: the statement never executes.
    pub never: bool,
}

/// A parameter value at which a condition fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// Value of each parameter.
    pub values: Vec<i64>,
    /// The statement does execute at `values` (false only when a coupled condition fails
    /// there, i.e. the box over-approximates the admissible set).
    pub executes: bool,
}

impl ParamBox {
    /// Every parameter at least its declared minimum, nothing else.
    pub fn from_minimums(mins: &[i64]) -> ParamBox {
        ParamBox { lo: mins.to_vec(), hi: vec![None; mins.len()], coupled: vec![], never: false }
    }

    /// Restricts the box to the values where `g ≥ 0` holds.
    pub fn require_nonnegative(&mut self, g: Linear) {
        let params: Vec<usize> = (0..g.symbols.len()).filter(|&i| g.symbols[i] != 0).collect();
        match params.as_slice() {
            [] => self.never |= g.constant < 0,
            &[i] => {
                // c·p_i + k ≥ 0
                let (c, k) = (g.symbols[i], g.constant);
                if c > 0 {
                    if let Some(need) = k.checked_neg().and_then(|nk| ceil_div(nk, c)) {
                        self.lo[i] = self.lo[i].max(need);
                    }
                } else if let Some(limit) = floor_div(k, -c) {
                    self.hi[i] = Some(self.hi[i].map_or(limit, |h| h.min(limit)));
                }
                self.never |= self.hi[i].is_some_and(|h| h < self.lo[i]);
            }
            _ => self.coupled.push(g),
        }
    }

    /// Restricts the box to the values where the half-open range `[lb, ub)` is non-empty.
    pub fn require_nonempty(&mut self, lb: &Linear, ub: &Linear) {
        let one = Linear { constant: 1, ..Linear::zero(0, self.lo.len()) };
        if let Some(g) = ub.add_scaled(lb, -1).and_then(|g| g.add_scaled(&one, -1)) {
            self.require_nonnegative(g);
        }
    }

    /// A parameter value in the box with `f < 0`, if there is one (exact over the box). The
    /// value is the box corner that minimises `f`, with an unbounded parameter raised just far
    /// enough to make `f` negative.
    pub fn counterexample(&self, f: &Linear) -> Option<Counterexample> {
        if self.never {
            return None;
        }
        let mut values: Vec<i64> = self
            .lo
            .iter()
            .zip(&self.hi)
            .zip(&f.symbols)
            .map(|((&lo, &hi), &c)| if c < 0 { hi.unwrap_or(lo) } else { lo })
            .collect();
        let at = f.eval(&[], &values)?;
        if at < 0 {
            return Some(self.witness(values));
        }
        // f ≥ 0 at the bounded minimum: only an unbounded parameter with a negative
        // coefficient can still make it negative; f drops by |c| per unit of it.
        let i = (0..values.len()).find(|&i| f.symbols[i] < 0 && self.hi[i].is_none())?;
        values[i] = values[i].checked_add(at / f.symbols[i].checked_neg()? + 1)?;
        Some(self.witness(values))
    }

    fn witness(&self, values: Vec<i64>) -> Counterexample {
        let executes = self.coupled.iter().all(|g| g.eval(&[], &values).is_some_and(|v| v >= 0));
        Counterexample { values, executes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lin(symbols: &[i64], constant: i64) -> Linear {
        Linear { dims: vec![], symbols: symbols.to_vec(), constant }
    }

    #[test]
    fn single_parameter_conditions_narrow_the_box() {
        let mut b = ParamBox::from_minimums(&[0, 3]);
        // [0, T) non-empty: T ≥ 1.   [1, N - 1) non-empty: N ≥ 3.   [0, 10 - N): N ≤ 9.
        b.require_nonempty(&lin(&[0, 0], 0), &lin(&[1, 0], 0));
        b.require_nonempty(&lin(&[0, 0], 1), &lin(&[0, 1], -1));
        b.require_nonempty(&lin(&[0, 0], 0), &lin(&[0, -1], 10));
        assert_eq!(b.lo, vec![1, 3]);
        assert_eq!(b.hi, vec![None, Some(9)]);
        assert!(!b.never);
        // 2N - 11 < 0 at N = 3; 20 - 2N ≥ 0 everywhere since N ≤ 9... but not N ≤ 10.
        assert_eq!(b.counterexample(&lin(&[0, 2], -11)).unwrap().values, vec![1, 3]);
        assert!(b.counterexample(&lin(&[0, -2], 18)).is_none());
        assert_eq!(b.counterexample(&lin(&[0, -2], 17)).unwrap().values, vec![1, 9]);
        // Unbounded T with a negative coefficient: raised just past the zero.
        assert_eq!(b.counterexample(&lin(&[-1, 0], 4)).unwrap().values, vec![5, 3]);
    }

    #[test]
    fn impossible_conditions_mean_the_statement_never_runs() {
        let mut b = ParamBox::from_minimums(&[5]);
        b.require_nonempty(&lin(&[0], 0), &lin(&[-1], 4));
        assert!(b.never);
        assert!(b.counterexample(&lin(&[0], -1)).is_none());
    }

    #[test]
    fn coupled_conditions_mark_counterexamples_that_do_not_execute() {
        // Domain [M, N): N - M - 1 ≥ 0 couples N and M.
        let mut b = ParamBox::from_minimums(&[0, 0]);
        b.require_nonempty(&lin(&[0, 1], 0), &lin(&[1, 0], 0));
        assert_eq!(b.coupled.len(), 1);
        // M - 1 ≥ 0 fails at N = M = 0, where the domain is empty.
        let w = b.counterexample(&lin(&[0, 1], -1)).unwrap();
        assert_eq!(w.values, vec![0, 0]);
        assert!(!w.executes);
    }
}
