//! Affine expressions, maps and integer sets (`affine_map<…>`, `affine_set<…>`).
//!
//! Construction applies the light simplifications MLIR applies on creation (constant folding,
//! identity elimination, constants on the right), so that printing is canonical and the
//! printed form re-parses to an equal value.

use std::fmt;

mod simplify;

/// Binary operators of affine expressions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AffineBinOp {
    /// `a + b`.
    Add,
    /// `a * b` (one side constant for a pure affine expression).
    Mul,
    /// `a mod b`, result in `[0, b)`.
    Mod,
    /// `a floordiv b`.
    FloorDiv,
    /// `a ceildiv b`.
    CeilDiv,
}

/// An affine expression over dimensions `d_i` and symbols `s_j`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AffineExpr {
    /// Dimension `d_i`.
    Dim(u32),
    /// Symbol `s_j`.
    Symbol(u32),
    /// Integer constant.
    Constant(i64),
    /// Binary operation.
    Binary(AffineBinOp, Box<AffineExpr>, Box<AffineExpr>),
}

/// A fold of constants in an affine expression whose exact result does not fit in `i64`
/// (`(x * 2^32) * 2^32` would need the coefficient `2^64`). Folds are exact, so such an
/// expression is refused rather than wrapped to a different program.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("integer overflow in affine expression: {what} does not fit in 64 bits")]
pub struct AffineOverflow {
    /// The fold that overflowed, e.g. `4294967296 * 4294967296`.
    pub what: String,
}

impl AffineOverflow {
    /// An overflow of the fold described by `what`.
    pub fn new(what: impl Into<String>) -> Self {
        AffineOverflow { what: what.into() }
    }
}

/// Floor division that rounds towards negative infinity. `None` on division by zero or
/// overflow.
pub fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q.checked_sub(1)
    } else {
        Some(q)
    }
}

/// Ceiling division. `None` on division by zero or overflow.
pub fn ceil_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        q.checked_add(1)
    } else {
        Some(q)
    }
}

/// Modulo with a result in `[0, |b|)`. `None` on division by zero.
pub fn floor_mod(a: i64, b: i64) -> Option<i64> {
    a.checked_rem_euclid(b)
}

impl AffineExpr {
    /// A constant.
    pub fn constant(c: i64) -> Self {
        AffineExpr::Constant(c)
    }

    /// Whether this is a constant, and which.
    pub fn as_constant(&self) -> Option<i64> {
        match self {
            AffineExpr::Constant(c) => Some(*c),
            _ => None,
        }
    }

    /// Builds `lhs op rhs`, simplified as MLIR simplifies on construction (see
    /// `simplify`), so that printing matches mlir-opt and equal maps compare equal.
    ///
    /// Infallible for the code that builds expressions from already valid ones: a fold whose
    /// result would leave `i64` is not applied, so the expression keeps its exact value
    /// unfolded (never a wrapped constant). Text goes through [`AffineExpr::try_binary`] (the
    /// parser reports the overflow), and the verifier rejects unfolded overflowing expressions
    /// ([`AffineExpr::check_folds`]).
    pub fn binary(op: AffineBinOp, lhs: AffineExpr, rhs: AffineExpr) -> Self {
        match simplify::simplify_binary(op, &lhs, &rhs) {
            Ok(Some(e)) => e,
            Ok(None) | Err(_) => Self::plain_binary(op, lhs, rhs),
        }
    }

    /// Builds `lhs op rhs` simplified like [`AffineExpr::binary`], or the overflow of a fold
    /// (`4294967296 * (4294967296 * d0)`, `(d0 + i64::MAX) + i64::MAX`).
    pub fn try_binary(op: AffineBinOp, lhs: AffineExpr, rhs: AffineExpr) -> Result<Self, AffineOverflow> {
        Ok(match simplify::simplify_binary(op, &lhs, &rhs)? {
            Some(e) => e,
            None => Self::plain_binary(op, lhs, rhs),
        })
    }

    /// `lhs op rhs` without simplification, commutative operands in MLIR's order.
    fn plain_binary(op: AffineBinOp, lhs: AffineExpr, rhs: AffineExpr) -> Self {
        let (lhs, rhs) = match op {
            AffineBinOp::Add | AffineBinOp::Mul => simplify::order_commutative_args(lhs, rhs),
            _ => (lhs, rhs),
        };
        AffineExpr::Binary(op, Box::new(lhs), Box::new(rhs))
    }

    /// `self + rhs`, simplified; an error where a fold overflows.
    pub fn checked_add(self, rhs: AffineExpr) -> Result<Self, AffineOverflow> {
        Self::try_binary(AffineBinOp::Add, self, rhs)
    }

    /// `self * rhs`, simplified; an error where a fold overflows.
    pub fn checked_mul(self, rhs: AffineExpr) -> Result<Self, AffineOverflow> {
        Self::try_binary(AffineBinOp::Mul, self, rhs)
    }

    /// `-self` (`self * -1`), simplified; an error where a fold overflows (`-(d0 * i64::MIN)`).
    pub fn checked_neg(self) -> Result<Self, AffineOverflow> {
        self.checked_mul(AffineExpr::Constant(-1))
    }

    /// `self - rhs` (`self + rhs * -1`), simplified; an error where a fold overflows.
    pub fn checked_sub(self, rhs: AffineExpr) -> Result<Self, AffineOverflow> {
        self.checked_add(rhs.checked_neg()?)
    }

    /// Rebuilds the expression bottom-up with the checked folds and reports the first one that
    /// overflows. [`AffineExpr::binary`] leaves such folds undone, and generic-form text or a
    /// pass can build them directly; the verifier uses this so that no expression whose exact
    /// simplification leaves `i64` is accepted.
    pub fn check_folds(&self) -> Result<(), AffineOverflow> {
        self.rebuild_checked().map(|_| ())
    }

    fn rebuild_checked(&self) -> Result<AffineExpr, AffineOverflow> {
        match self {
            AffineExpr::Binary(op, l, r) => Self::try_binary(*op, l.rebuild_checked()?, r.rebuild_checked()?),
            leaf => Ok(leaf.clone()),
        }
    }

    /// Whether the expression is affine: every product has a constant side and every divisor
    /// or modulus is a positive constant.
    pub fn is_pure_affine(&self) -> bool {
        match self {
            AffineExpr::Dim(_) | AffineExpr::Symbol(_) | AffineExpr::Constant(_) => true,
            AffineExpr::Binary(op, l, r) => {
                let sides = l.is_pure_affine() && r.is_pure_affine();
                match op {
                    AffineBinOp::Add => sides,
                    AffineBinOp::Mul => sides && (l.as_constant().is_some() || r.as_constant().is_some()),
                    _ => sides && r.as_constant().is_some_and(|c| c > 0),
                }
            }
        }
    }

    /// Largest dimension and symbol position used, plus one (i.e. the counts needed).
    pub fn counts(&self) -> (u32, u32) {
        match self {
            AffineExpr::Dim(d) => (d + 1, 0),
            AffineExpr::Symbol(s) => (0, s + 1),
            AffineExpr::Constant(_) => (0, 0),
            AffineExpr::Binary(_, l, r) => {
                let (a, b) = l.counts();
                let (c, d) = r.counts();
                (a.max(c), b.max(d))
            }
        }
    }

    /// Evaluates the expression. `None` on a missing operand, division by zero or overflow.
    pub fn eval(&self, dims: &[i64], symbols: &[i64]) -> Option<i64> {
        match self {
            AffineExpr::Dim(d) => dims.get(*d as usize).copied(),
            AffineExpr::Symbol(s) => symbols.get(*s as usize).copied(),
            AffineExpr::Constant(c) => Some(*c),
            AffineExpr::Binary(op, l, r) => {
                let (a, b) = (l.eval(dims, symbols)?, r.eval(dims, symbols)?);
                match op {
                    AffineBinOp::Add => a.checked_add(b),
                    AffineBinOp::Mul => a.checked_mul(b),
                    AffineBinOp::Mod => floor_mod(a, b),
                    AffineBinOp::FloorDiv => floor_div(a, b),
                    AffineBinOp::CeilDiv => ceil_div(a, b),
                }
            }
        }
    }

    /// Replaces dimensions and symbols by the given expressions.
    pub fn replace(&self, dims: &[AffineExpr], symbols: &[AffineExpr]) -> AffineExpr {
        match self {
            AffineExpr::Dim(d) => dims.get(*d as usize).cloned().unwrap_or(AffineExpr::Dim(*d)),
            AffineExpr::Symbol(s) => symbols.get(*s as usize).cloned().unwrap_or(AffineExpr::Symbol(*s)),
            AffineExpr::Constant(c) => AffineExpr::Constant(*c),
            AffineExpr::Binary(op, l, r) => AffineExpr::binary(*op, l.replace(dims, symbols), r.replace(dims, symbols)),
        }
    }
}

impl std::ops::Add for AffineExpr {
    type Output = AffineExpr;
    /// `self + rhs`, simplified.
    fn add(self, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::binary(AffineBinOp::Add, self, rhs)
    }
}

impl std::ops::Mul for AffineExpr {
    type Output = AffineExpr;
    /// `self * rhs`, simplified.
    fn mul(self, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::binary(AffineBinOp::Mul, self, rhs)
    }
}

impl std::ops::Neg for AffineExpr {
    type Output = AffineExpr;
    /// `-self`, represented as `self * -1` (as MLIR does).
    fn neg(self) -> AffineExpr {
        self * AffineExpr::Constant(-1)
    }
}

impl std::ops::Sub for AffineExpr {
    type Output = AffineExpr;
    /// `self - rhs`, represented as `self + rhs * -1`.
    fn sub(self, rhs: AffineExpr) -> AffineExpr {
        self + -rhs
    }
}

/// Formats an affine expression with caller-provided names for dimensions and symbols, so the
/// same code prints maps (`d0`, `s0`) and affine op operands (`%arg0`, `symbol(%n)`).
pub struct AffineExprPrinter<'a, D, S>
where
    D: Fn(u32, &mut fmt::Formatter<'_>) -> fmt::Result,
    S: Fn(u32, &mut fmt::Formatter<'_>) -> fmt::Result,
{
    /// The expression.
    pub expr: &'a AffineExpr,
    /// Prints dimension `i`.
    pub dim: D,
    /// Prints symbol `i`.
    pub symbol: S,
}

impl<D, S> AffineExprPrinter<'_, D, S>
where
    D: Fn(u32, &mut fmt::Formatter<'_>) -> fmt::Result,
    S: Fn(u32, &mut fmt::Formatter<'_>) -> fmt::Result,
{
    /// Writes `e` as MLIR's `printAffineExprInternal` does. `strong`: the enclosing context
    /// binds tighter than `+` (an operand of `*`, `floordiv`, `ceildiv`, `mod` or of a
    /// negation), so every binary expression gets parentheses there.
    fn write(&self, e: &AffineExpr, strong: bool, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (op, lhs, rhs) = match e {
            AffineExpr::Dim(d) => return (self.dim)(*d, f),
            AffineExpr::Symbol(s) => return (self.symbol)(*s, f),
            AffineExpr::Constant(c) => return write!(f, "{c}"),
            AffineExpr::Binary(op, l, r) => (*op, &**l, &**r),
        };
        if strong {
            f.write_str("(")?;
        }
        self.write_binary(op, lhs, rhs, f)?;
        if strong {
            f.write_str(")")?;
        }
        Ok(())
    }

    fn write_binary(
        &self,
        op: AffineBinOp,
        lhs: &AffineExpr,
        rhs: &AffineExpr,
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
        let spelling = match op {
            AffineBinOp::Add => return self.write_sum(lhs, rhs, f),
            AffineBinOp::Mul if rhs.as_constant() == Some(-1) => {
                f.write_str("-")?;
                return self.write(lhs, true, f);
            }
            AffineBinOp::Mul => " * ",
            AffineBinOp::FloorDiv => " floordiv ",
            AffineBinOp::CeilDiv => " ceildiv ",
            AffineBinOp::Mod => " mod ",
        };
        self.write(lhs, true, f)?;
        f.write_str(spelling)?;
        self.write(rhs, true, f)
    }

    /// `x + y * -1` prints as `x - y`, `x + y * -c` as `x - y * c`, `x + -c` as `x - c`.
    /// `x + y * i64::MIN` stays `x + y * -9223372036854775808`: `y * 9223372036854775808`
    /// would not parse back (its literal is not an `i64`).
    fn write_sum(&self, lhs: &AffineExpr, rhs: &AffineExpr, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let AffineExpr::Binary(AffineBinOp::Mul, y, c) = rhs {
            match c.as_constant() {
                Some(-1) => {
                    self.write(lhs, false, f)?;
                    f.write_str(" - ")?;
                    let is_sum = matches!(**y, AffineExpr::Binary(AffineBinOp::Add, ..));
                    return self.write(y, is_sum, f);
                }
                Some(c) if c < -1 && c != i64::MIN => {
                    self.write(lhs, false, f)?;
                    f.write_str(" - ")?;
                    self.write(y, true, f)?;
                    return write!(f, " * {}", c.unsigned_abs());
                }
                _ => {}
            }
        }
        if let Some(c) = rhs.as_constant().filter(|c| *c < 0) {
            self.write(lhs, false, f)?;
            return write!(f, " - {}", c.unsigned_abs());
        }
        self.write(lhs, false, f)?;
        f.write_str(" + ")?;
        // A right-nested sum keeps its parentheses so that the text parses back to the same
        // tree: printing must be a fixed point of parse+print (MLIR drops them here, and its
        // output then changes on a second round).
        let nested_sum = matches!(rhs, AffineExpr::Binary(AffineBinOp::Add, ..));
        self.write(rhs, nested_sum, f)
    }
}

impl<D, S> fmt::Display for AffineExprPrinter<'_, D, S>
where
    D: Fn(u32, &mut fmt::Formatter<'_>) -> fmt::Result,
    S: Fn(u32, &mut fmt::Formatter<'_>) -> fmt::Result,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(self.expr, false, f)
    }
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = AffineExprPrinter {
            expr: self,
            dim: |d, f: &mut fmt::Formatter<'_>| write!(f, "d{d}"),
            symbol: |s, f: &mut fmt::Formatter<'_>| write!(f, "s{s}"),
        };
        write!(f, "{p}")
    }
}

/// `(d0, …)[s0, …] -> (e0, …)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AffineMap {
    /// Number of dimensions.
    pub num_dims: u32,
    /// Number of symbols.
    pub num_symbols: u32,
    /// Result expressions.
    pub results: Vec<AffineExpr>,
}

impl AffineMap {
    /// A map from its parts.
    pub fn new(num_dims: u32, num_symbols: u32, results: Vec<AffineExpr>) -> Self {
        AffineMap { num_dims, num_symbols, results }
    }

    /// `() -> (c)`.
    pub fn constant(c: i64) -> Self {
        AffineMap::new(0, 0, vec![AffineExpr::Constant(c)])
    }

    /// `(d0, …, dn-1) -> (d0, …, dn-1)`.
    pub fn identity(n: u32) -> Self {
        AffineMap::new(n, 0, (0..n).map(AffineExpr::Dim).collect())
    }

    /// The single constant result, if this is `() -> (c)` or any map with one constant result.
    pub fn single_constant(&self) -> Option<i64> {
        match self.results.as_slice() {
            [e] => e.as_constant(),
            _ => None,
        }
    }

    /// Number of operands (dims + symbols) the map takes.
    pub fn num_inputs(&self) -> usize {
        (self.num_dims + self.num_symbols) as usize
    }

    /// Evaluates all results.
    pub fn eval(&self, dims: &[i64], symbols: &[i64]) -> Option<Vec<i64>> {
        self.results.iter().map(|e| e.eval(dims, symbols)).collect()
    }

    /// Whether the map is `(d0..dn) -> (d0..dn)` without symbols.
    pub fn is_identity(&self) -> bool {
        self.num_symbols == 0
            && self.results.len() == self.num_dims as usize
            && self.results.iter().enumerate().all(|(i, e)| *e == AffineExpr::Dim(i as u32))
    }
}

fn write_dims_symbols(f: &mut fmt::Formatter<'_>, num_dims: u32, num_symbols: u32) -> fmt::Result {
    f.write_str("(")?;
    for d in 0..num_dims {
        if d > 0 {
            f.write_str(", ")?;
        }
        write!(f, "d{d}")?;
    }
    f.write_str(")")?;
    if num_symbols > 0 {
        f.write_str("[")?;
        for s in 0..num_symbols {
            if s > 0 {
                f.write_str(", ")?;
            }
            write!(f, "s{s}")?;
        }
        f.write_str("]")?;
    }
    Ok(())
}

impl fmt::Display for AffineMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_dims_symbols(f, self.num_dims, self.num_symbols)?;
        f.write_str(" -> (")?;
        crate::types::write_list(f, &self.results)?;
        f.write_str(")")
    }
}

/// One constraint of an integer set: `expr >= 0` or `expr == 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetConstraint {
    /// The affine expression.
    pub expr: AffineExpr,
    /// `true` for `== 0`, `false` for `>= 0`.
    pub is_equality: bool,
}

/// `(d0, …)[s0, …] : (c0, …)` — the condition of `affine.if`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntegerSet {
    /// Number of dimensions.
    pub num_dims: u32,
    /// Number of symbols.
    pub num_symbols: u32,
    /// Constraints (conjunction).
    pub constraints: Vec<SetConstraint>,
}

impl IntegerSet {
    /// Whether the point satisfies every constraint. `None` on evaluation failure.
    pub fn contains(&self, dims: &[i64], symbols: &[i64]) -> Option<bool> {
        for c in &self.constraints {
            let v = c.expr.eval(dims, symbols)?;
            if (c.is_equality && v != 0) || (!c.is_equality && v < 0) {
                return Some(false);
            }
        }
        Some(true)
    }
}

impl fmt::Display for IntegerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_dims_symbols(f, self.num_dims, self.num_symbols)?;
        f.write_str(" : (")?;
        for (i, c) in self.constraints.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} {} 0", c.expr, if c.is_equality { "==" } else { ">=" })?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AffineExpr::*;

    #[test]
    fn prints_like_mlir() {
        let e = Dim(0) + Constant(10);
        assert_eq!(e.to_string(), "d0 + 10");
        let e = Dim(0) - Symbol(0);
        assert_eq!(e.to_string(), "d0 - s0");
        let e = AffineExpr::binary(AffineBinOp::FloorDiv, Dim(0) + Dim(1), Constant(2));
        assert_eq!(e.to_string(), "(d0 + d1) floordiv 2");
        let m = AffineMap::new(1, 1, vec![Dim(0), Symbol(0)]);
        assert_eq!(m.to_string(), "(d0)[s0] -> (d0, s0)");
    }

    #[test]
    fn floor_and_ceil_are_floor_correct_for_negatives() {
        assert_eq!(floor_div(-7, 2), Some(-4));
        assert_eq!(ceil_div(-7, 2), Some(-3));
        assert_eq!(floor_mod(-7, 2), Some(1));
        assert_eq!(floor_div(1, 0), None);
    }

    #[test]
    fn simplifies_constants() {
        let e = (Dim(0) + Constant(1)) + Constant(1);
        assert_eq!(e, Dim(0) + Constant(2));
        assert_eq!(Constant(3) * Constant(4), Constant(12));
    }

    /// Issue 16, item 6: MLIR's wrapping folds turn `4294967296 * (4294967296 * s0)` into `0`
    /// and `(s0 + i64::MAX) + i64::MAX` into `s0 - 2`; here they are overflows, and the
    /// unchecked builders keep the exact (unfolded) expression instead of a wrapped one.
    #[test]
    fn folds_are_exact_never_wrapped() {
        let two32 = Constant(1 << 32);
        let inner = Symbol(0).checked_mul(two32.clone()).unwrap();
        assert_eq!(inner.to_string(), "s0 * 4294967296");
        let err = two32.clone().checked_mul(inner.clone()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "integer overflow in affine expression: 4294967296 * 4294967296 does not fit in 64 bits"
        );
        let kept = two32.clone() * inner;
        assert_ne!(kept, Constant(0));
        assert_eq!(kept.eval(&[], &[0]), Some(0));
        assert_eq!(kept.eval(&[], &[1]), None, "2^64 is not an i64");
        assert!(kept.check_folds().is_err());

        let max = Constant(i64::MAX);
        let once = Symbol(0).checked_add(max.clone()).unwrap();
        let err = once.clone().checked_add(max.clone()).unwrap_err();
        assert!(err.to_string().contains("9223372036854775807 + 9223372036854775807"), "{err}");
        let kept = once + max.clone();
        assert_ne!(kept.to_string(), "s0 - 2");
        assert_eq!(kept.eval(&[], &[-i64::MAX]), Some(i64::MAX));
        assert!(kept.check_folds().is_err());

        // Folds whose exact result is an i64 still happen, down to i64::MIN.
        assert_eq!(
            Symbol(0).checked_add(max).unwrap().checked_add(Constant(-2)).unwrap().to_string(),
            "s0 + 9223372036854775805"
        );
        assert_eq!(Constant(-i64::MAX).checked_add(Constant(-1)).unwrap(), Constant(i64::MIN));
        assert!(Constant(i64::MIN).checked_neg().is_err());
        assert!(Dim(0).checked_mul(Constant(i64::MIN)).unwrap().checked_neg().is_err());
    }
}
