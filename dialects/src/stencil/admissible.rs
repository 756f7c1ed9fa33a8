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
//!
//! The arithmetic is exact: forms are evaluated in 128 bits (a product of two `i64` and a few
//! such sums fit), and a parameter value is an `i64`, so a condition that would need a larger
//! value cannot be violated (nor satisfied) by any parameter.

use super::linear::Linear;

/// A linear form over the parameters with 128-bit coefficients: the difference of two `i64`
/// forms (`ub - lb - 1`) always fits, where an `i64` form could overflow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WideLinear {
    /// Coefficient per parameter.
    pub symbols: Vec<i128>,
    /// Constant term.
    pub constant: i128,
}

impl WideLinear {
    /// The exact widening of an `i64` form (its dimension coefficients are ignored: the box
    /// has parameters only).
    pub fn of(l: &Linear) -> WideLinear {
        WideLinear { symbols: l.symbols.iter().map(|&c| i128::from(c)).collect(), constant: i128::from(l.constant) }
    }

    /// `self + k·other`, `None` if even 128 bits overflow.
    pub fn add_scaled(&self, other: &WideLinear, k: i128) -> Option<WideLinear> {
        let symbols = self
            .symbols
            .iter()
            .zip(&other.symbols)
            .map(|(a, b)| a.checked_add(b.checked_mul(k)?))
            .collect::<Option<Vec<_>>>()?;
        Some(WideLinear { symbols, constant: self.constant.checked_add(other.constant.checked_mul(k)?)? })
    }

    /// The exact value at the given parameter values, `None` if 128 bits overflow.
    pub fn eval(&self, values: &[i64]) -> Option<i128> {
        self.symbols
            .iter()
            .zip(values)
            .try_fold(self.constant, |acc, (&c, &v)| acc.checked_add(c.checked_mul(i128::from(v))?))
    }
}

/// 128-bit arithmetic overflowed while searching the box: coefficients and parameter values
/// so large that the verifier cannot decide the condition exactly (it reports an error).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the bounds check overflows 128-bit arithmetic (coefficients and parameter values near the limits of i64)")]
pub struct BoxOverflow;

/// The admissible parameter values of one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamBox {
    /// Least admissible value of each parameter.
    pub lo: Vec<i64>,
    /// Greatest admissible value of each parameter (`None`: unbounded, i.e. up to `i64::MAX`).
    pub hi: Vec<Option<i64>>,
    /// Non-emptiness conditions `g ≥ 0` over several parameters, not folded into the box.
    pub coupled: Vec<WideLinear>,
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

/// `⌈a / b⌉` for `b > 0`, exact.
fn ceil_div_pos(a: i128, b: i128) -> i128 {
    let q = a.div_euclid(b);
    if a.rem_euclid(b) == 0 {
        q
    } else {
        q + 1
    }
}

impl ParamBox {
    /// Every parameter at least its declared minimum, nothing else.
    pub fn from_minimums(mins: &[i64]) -> ParamBox {
        ParamBox { lo: mins.to_vec(), hi: vec![None; mins.len()], coupled: vec![], never: false }
    }

    /// Restricts the box to the values where `g ≥ 0` holds.
    fn require_nonnegative(&mut self, g: WideLinear) {
        let params: Vec<usize> = (0..g.symbols.len()).filter(|&i| g.symbols[i] != 0).collect();
        match params.as_slice() {
            [] => self.never |= g.constant < 0,
            &[i] => {
                // c·p_i + k ≥ 0, solved exactly in 128 bits (|k| < 2^65 and |c| < 2^65 for
                // the differences of i64 forms this is called with, so nothing overflows).
                let (c, k) = (g.symbols[i], g.constant);
                if c > 0 {
                    let need = ceil_div_pos(-k, c);
                    match i64::try_from(need) {
                        Ok(need) => self.lo[i] = self.lo[i].max(need),
                        // Above i64::MAX: no parameter value satisfies it.
                        Err(_) if need > 0 => self.never = true,
                        // Below i64::MIN: every parameter value satisfies it.
                        Err(_) => {}
                    }
                } else {
                    let limit = k.div_euclid(-c);
                    match i64::try_from(limit) {
                        Ok(limit) => self.hi[i] = Some(self.hi[i].map_or(limit, |h| h.min(limit))),
                        Err(_) if limit < 0 => self.never = true,
                        Err(_) => {}
                    }
                }
                self.never |= self.hi[i].is_some_and(|h| h < self.lo[i]);
            }
            _ => self.coupled.push(g),
        }
    }

    /// Restricts the box to the values where the half-open range `[lb, ub)` is non-empty.
    pub fn require_nonempty(&mut self, lb: &Linear, ub: &Linear) {
        let one = WideLinear { symbols: vec![0; self.lo.len()], constant: 1 };
        // Differences of i64 forms fit in 128 bits: the chain cannot fail.
        if let Some(g) = WideLinear::of(ub).add_scaled(&WideLinear::of(lb), -1).and_then(|g| g.add_scaled(&one, -1)) {
            self.require_nonnegative(g);
        }
    }

    /// A parameter value in the box with `f < 0`, if there is one (exact over the box). The
    /// value is the box corner that minimises `f`, with an unbounded parameter raised just far
    /// enough to make `f` negative. An error only where even 128 bits overflow.
    pub fn counterexample(&self, f: &WideLinear) -> Result<Option<Counterexample>, BoxOverflow> {
        if self.never {
            return Ok(None);
        }
        let mut values: Vec<i64> = self
            .lo
            .iter()
            .zip(&self.hi)
            .zip(&f.symbols)
            .map(|((&lo, &hi), &c)| if c < 0 { hi.unwrap_or(lo) } else { lo })
            .collect();
        let at = f.eval(&values).ok_or(BoxOverflow)?;
        if at < 0 {
            return self.witness(values).map(Some);
        }
        // f ≥ 0 at the bounded minimum: only an unbounded parameter with a negative
        // coefficient can still make it negative; f drops by |c| per unit of it.
        let Some(i) = (0..values.len()).find(|&i| f.symbols[i] < 0 && self.hi[i].is_none()) else { return Ok(None) };
        let raised = i128::from(values[i]) + at / -f.symbols[i] + 1;
        // Past i64::MAX no parameter value exists: f is non-negative for every one.
        let Ok(raised) = i64::try_from(raised) else { return Ok(None) };
        values[i] = raised;
        self.witness(values).map(Some)
    }

    fn witness(&self, values: Vec<i64>) -> Result<Counterexample, BoxOverflow> {
        let mut executes = true;
        for g in &self.coupled {
            executes &= g.eval(&values).ok_or(BoxOverflow)? >= 0;
        }
        Ok(Counterexample { values, executes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lin(symbols: &[i64], constant: i64) -> Linear {
        Linear { dims: vec![], symbols: symbols.to_vec(), constant }
    }

    fn wide(symbols: &[i64], constant: i64) -> WideLinear {
        WideLinear::of(&lin(symbols, constant))
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
        assert_eq!(b.counterexample(&wide(&[0, 2], -11)).unwrap().unwrap().values, vec![1, 3]);
        assert!(b.counterexample(&wide(&[0, -2], 18)).unwrap().is_none());
        assert_eq!(b.counterexample(&wide(&[0, -2], 17)).unwrap().unwrap().values, vec![1, 9]);
        // Unbounded T with a negative coefficient: raised just past the zero.
        assert_eq!(b.counterexample(&wide(&[-1, 0], 4)).unwrap().unwrap().values, vec![5, 3]);
    }

    #[test]
    fn impossible_conditions_mean_the_statement_never_runs() {
        let mut b = ParamBox::from_minimums(&[5]);
        b.require_nonempty(&lin(&[0], 0), &lin(&[-1], 4));
        assert!(b.never);
        assert!(b.counterexample(&wide(&[0], -1)).unwrap().is_none());
    }

    #[test]
    fn coupled_conditions_mark_counterexamples_that_do_not_execute() {
        // Domain [M, N): N - M - 1 ≥ 0 couples N and M.
        let mut b = ParamBox::from_minimums(&[0, 0]);
        b.require_nonempty(&lin(&[0, 1], 0), &lin(&[1, 0], 0));
        assert_eq!(b.coupled.len(), 1);
        // M - 1 ≥ 0 fails at N = M = 0, where the domain is empty.
        let w = b.counterexample(&wide(&[0, 1], -1)).unwrap().unwrap();
        assert_eq!(w.values, vec![0, 0]);
        assert!(!w.executes);
    }

    #[test]
    fn extreme_coefficients_neither_panic_nor_wrap() {
        // c = i64::MIN: `-c` overflows i64 (a debug build used to panic here).
        let mut b = ParamBox::from_minimums(&[0]);
        b.require_nonnegative(wide(&[i64::MIN], i64::MAX));
        // MIN·p + MAX ≥ 0 ⇔ p ≤ 0 (p = 1 gives -1).
        assert_eq!(b.hi, vec![Some(0)]);
        assert!(!b.never);
        // [i64::MIN, i64::MAX) is non-empty for every value: the difference needs 65 bits.
        let mut b = ParamBox::from_minimums(&[0]);
        b.require_nonempty(&lin(&[0], i64::MIN), &lin(&[0], i64::MAX));
        assert!(!b.never && b.hi == vec![None] && b.lo == vec![0]);
        // p ≥ 2^63 cannot hold for an i64 parameter.
        let mut b = ParamBox::from_minimums(&[0]);
        b.require_nonempty(&lin(&[0], i64::MAX), &lin(&[1], 0));
        assert!(b.never, "{b:?}");
        // f = MAX - p·2 at an unbounded p: negative from p = 2^62, which is an i64.
        let b = ParamBox::from_minimums(&[0]);
        assert_eq!(b.counterexample(&wide(&[-2], i64::MAX)).unwrap().unwrap().values, vec![(i64::MAX / 2) + 1]);
        // f = p + MAX at the minimum p = 1 is MAX + 1: not an i64, yet exactly non-negative.
        let b = ParamBox::from_minimums(&[1]);
        assert!(b.counterexample(&wide(&[1], i64::MAX)).unwrap().is_none());
        // f = MIN - p at p = MAX is below -2^63: a counterexample, found without wrapping.
        let b = ParamBox::from_minimums(&[i64::MAX]);
        assert_eq!(b.counterexample(&wide(&[-1], i64::MIN)).unwrap().unwrap().values, vec![i64::MAX]);
    }
}
