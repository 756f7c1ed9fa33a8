//! The simplifications MLIR applies when it constructs an affine expression
//! (`simplifyAdd`, `simplifyMul`, `simplifyFloorDiv`, `simplifyCeilDiv`, `simplifyMod` and the
//! operand ordering of commutative expressions in `mlir/lib/IR/AffineExpr.cpp`).
//!
//! MLIR uniques expressions after these rewrites, so the printed form of a map depends on
//! them: `s0 - d0` prints as `-d0 + s0`, `d1 + d0` as `d0 + d1`, `2 * d0` as `d0 * 2`. Porting
//! them rule for rule makes our printed maps match mlir-opt's text, and makes maps that MLIR
//! considers equal compare equal here.
//!
//! Unlike MLIR (whose `int64_t` folds wrap), every fold here is exact: a constant that would
//! leave `i64` is an [`AffineOverflow`], never a wrapped value. `(x * 2^32) * 2^32` does not
//! become `x * 0`, and `(x + i64::MAX) + i64::MAX` does not become `x - 2`.

use super::{ceil_div, floor_div, floor_mod, AffineBinOp, AffineExpr, AffineOverflow};

use AffineBinOp::{Add, CeilDiv, FloorDiv, Mod, Mul};
use AffineExpr::Constant as C;

/// What a simplification gives: the simplified expression, `None` when MLIR would build the
/// plain binary expression, or the overflow that folding would cause.
pub(super) type Simplified = Result<Option<AffineExpr>, AffineOverflow>;

/// The simplified form of `lhs op rhs`, `Ok(None)` when MLIR would build the plain binary
/// expression, and an error when a fold (here or in a sub-expression it builds) leaves `i64`.
pub(super) fn simplify_binary(op: AffineBinOp, lhs: &AffineExpr, rhs: &AffineExpr) -> Simplified {
    match op {
        Add => simplify_add(lhs, rhs),
        Mul => simplify_mul(lhs, rhs),
        FloorDiv => simplify_floor_div(lhs, rhs),
        CeilDiv => simplify_ceil_div(lhs, rhs),
        Mod => simplify_mod(lhs, rhs),
    }
}

/// Operand order of a commutative expression that could not be simplified: dims by position,
/// symbols by position, dims before symbols; anything else keeps its order.
pub(super) fn order_commutative_args(lhs: AffineExpr, rhs: AffineExpr) -> (AffineExpr, AffineExpr) {
    use AffineExpr::{Dim, Symbol};
    let swap = match (&lhs, &rhs) {
        (Symbol(a), Symbol(b)) | (Dim(a), Dim(b)) => a > b,
        (Symbol(_), Dim(_)) => true,
        _ => false,
    };
    if swap {
        (rhs, lhs)
    } else {
        (lhs, rhs)
    }
}

fn binary(op: AffineBinOp, lhs: AffineExpr, rhs: AffineExpr) -> Result<AffineExpr, AffineOverflow> {
    AffineExpr::try_binary(op, lhs, rhs)
}

fn add(lhs: AffineExpr, rhs: AffineExpr) -> Result<AffineExpr, AffineOverflow> {
    binary(Add, lhs, rhs)
}

fn mul(lhs: AffineExpr, rhs: AffineExpr) -> Result<AffineExpr, AffineOverflow> {
    binary(Mul, lhs, rhs)
}

/// `a + b` on constants, or the overflow.
fn sum(a: i64, b: i64) -> Result<i64, AffineOverflow> {
    a.checked_add(b).ok_or_else(|| AffineOverflow::new(format!("{a} + {b}")))
}

/// `a * b` on constants, or the overflow.
fn product(a: i64, b: i64) -> Result<i64, AffineOverflow> {
    a.checked_mul(b).ok_or_else(|| AffineOverflow::new(format!("{a} * {b}")))
}

fn binary_parts(e: &AffineExpr, op: AffineBinOp) -> Option<(&AffineExpr, &AffineExpr)> {
    match e {
        AffineExpr::Binary(o, l, r) if *o == op => Some((l, r)),
        _ => None,
    }
}

fn simplify_add(lhs: &AffineExpr, rhs: &AffineExpr) -> Simplified {
    let (lc, rc) = (lhs.as_constant(), rhs.as_constant());
    if let (Some(a), Some(b)) = (lc, rc) {
        return sum(a, b).map(|c| Some(C(c)));
    }
    // Constants go to the right, and so does the symbolic side of a mixed sum.
    if lc.is_some() || (lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant()) {
        return add(rhs.clone(), lhs.clone()).map(Some);
    }
    if rc == Some(0) {
        return Ok(Some(lhs.clone()));
    }
    let l_add = binary_parts(lhs, Add);
    // (x + c1) + c2 → x + (c1 + c2).
    if let (Some((x, c1)), Some(c2)) = (l_add, rc) {
        if let Some(c1) = c1.as_constant() {
            return add(x.clone(), C(sum(c1, c2)?)).map(Some);
        }
    }
    // c1 * x + c2 * x → (c1 + c2) * x.
    let (c1, first) = match binary_parts(lhs, Mul) {
        Some((x, c)) if c.as_constant().is_some() => (c.as_constant().unwrap_or(1), x),
        _ => (1, lhs),
    };
    let r_mul = binary_parts(rhs, Mul);
    let (c2, second) = match r_mul {
        Some((x, c)) if c.as_constant().is_some() => (c.as_constant().unwrap_or(1), x),
        _ => (1, rhs),
    };
    if first == second {
        return mul(first.clone(), C(sum(c1, c2)?)).map(Some);
    }
    // (x + c) + y → (x + y) + c.
    if let Some((x, c)) = l_add {
        if c.as_constant().is_some() {
            return add(add(x.clone(), rhs.clone())?, c.clone()).map(Some);
        }
    }
    // x + (x floordiv q) * q * -1 → x mod q, and x + (x floordiv c) * -c → x mod c.
    let AffineExpr::Binary(_, lrhs, rrhs) = rhs else { return Ok(None) };
    if rrhs.as_constant() == Some(-1) {
        if let Some((ll, rl)) = binary_parts(lrhs, Mul) {
            let Some((x, q)) = binary_parts(ll, FloorDiv) else { return Ok(None) };
            if q == rl && x == lhs {
                return binary(Mod, lhs.clone(), rl.clone()).map(Some);
            }
        }
    }
    if r_mul.is_none() {
        return Ok(None);
    }
    let Some((x, q)) = binary_parts(lrhs, FloorDiv) else { return Ok(None) };
    // `q == -c` compared on constants: negating `c` itself could overflow (c = i64::MIN), and
    // such a `c` is never the negation of a positive `q` anyway.
    let q_is_minus_c =
        q.as_constant().is_some_and(|q| q > 0 && rrhs.as_constant().and_then(i64::checked_neg) == Some(q));
    if x == lhs && q_is_minus_c {
        return binary(Mod, lhs.clone(), q.clone()).map(Some);
    }
    // (a + b) + (x floordiv q) * c → a + (b + (x floordiv q) * c) when the inner sum
    // simplifies, which turns `(a + x) + (x floordiv q) * -q` into `a + x mod q`.
    let Some((a, b)) = l_add else { return Ok(None) };
    match simplify_add(b, rhs)? {
        Some(inner) => add(a.clone(), inner).map(Some),
        None => Ok(None),
    }
}

fn simplify_mul(lhs: &AffineExpr, rhs: &AffineExpr) -> Simplified {
    let (lc, rc) = (lhs.as_constant(), rhs.as_constant());
    if let (Some(a), Some(b)) = (lc, rc) {
        return product(a, b).map(|c| Some(C(c)));
    }
    if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() {
        return Ok(None);
    }
    // The constant or symbolic factor goes to the right.
    if !rhs.is_symbolic_or_constant() || lc.is_some() {
        return mul(rhs.clone(), lhs.clone()).map(Some);
    }
    match rc {
        Some(1) => return Ok(Some(lhs.clone())),
        Some(0) => return Ok(Some(C(0))),
        _ => {}
    }
    if let Some((x, c1)) = binary_parts(lhs, Mul) {
        if let Some(c1) = c1.as_constant() {
            // (x * c1) * c2 → x * (c1 * c2).
            if let Some(c2) = rc {
                return mul(x.clone(), C(product(c1, c2)?)).map(Some);
            }
            // (x * c) * y → (x * y) * c.
            return mul(mul(x.clone(), rhs.clone())?, C(c1)).map(Some);
        }
    }
    Ok(None)
}

/// Rewrites shared by floordiv and ceildiv by a constant `q`: constant folding (with `fold`),
/// division by 1, and `(x * c) div q → x * (c / q)` when `q` divides `c` (exact, so the
/// rounding direction does not matter).
fn simplify_exact_division(lhs: &AffineExpr, q: i64, fold: fn(i64, i64) -> Option<i64>, spelling: &str) -> Simplified {
    if let Some(a) = lhs.as_constant() {
        // `q` is not zero here, so the only failure is `i64::MIN div -1`.
        return fold(a, q).map(|c| Some(C(c))).ok_or_else(|| AffineOverflow::new(format!("{a} {spelling} {q}")));
    }
    if q == 1 {
        return Ok(Some(lhs.clone()));
    }
    let Some((x, c)) = binary_parts(lhs, Mul) else { return Ok(None) };
    let Some(c) = c.as_constant() else { return Ok(None) };
    // checked_rem is None for `i64::MIN rem -1`, the one quotient that overflows.
    match (c.checked_rem(q), c.checked_div(q)) {
        (Some(0), Some(quotient)) => mul(x.clone(), C(quotient)).map(Some),
        _ => Ok(None),
    }
}

fn simplify_floor_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Simplified {
    let Some(q) = rhs.as_constant().filter(|&q| q != 0) else { return Ok(None) };
    if let Some(e) = simplify_exact_division(lhs, q, floor_div, "floordiv")? {
        return Ok(Some(e));
    }
    // (x + y) floordiv q → x floordiv q + y floordiv q when q divides x or y.
    if let Some((x, y)) = binary_parts(lhs, Add) {
        if divides(q, x.largest_known_divisor()) || divides(q, y.largest_known_divisor()) {
            return add(binary(FloorDiv, x.clone(), C(q))?, binary(FloorDiv, y.clone(), C(q))?).map(Some);
        }
    }
    Ok(None)
}

fn simplify_ceil_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Simplified {
    let Some(q) = rhs.as_constant().filter(|&q| q != 0) else { return Ok(None) };
    simplify_exact_division(lhs, q, ceil_div, "ceildiv")
}

fn simplify_mod(lhs: &AffineExpr, rhs: &AffineExpr) -> Simplified {
    // Modulo by zero or a negative number is undefined and kept as written.
    let Some(m) = rhs.as_constant().filter(|&m| m >= 1) else { return Ok(None) };
    if let Some(a) = lhs.as_constant() {
        // m ≥ 1: the Euclidean remainder always exists.
        return Ok(floor_mod(a, m).map(C));
    }
    // A multiple of m (e.g. `x * 128 mod 64`) is 0.
    if divides(m, lhs.largest_known_divisor()) {
        return Ok(Some(C(0)));
    }
    if let Some((x, y)) = binary_parts(lhs, Add) {
        if divides(m, x.largest_known_divisor()) {
            return binary(Mod, y.clone(), C(m)).map(Some);
        }
        if divides(m, y.largest_known_divisor()) {
            return binary(Mod, x.clone(), C(m)).map(Some);
        }
    }
    // (x mod a) mod m → x mod m when m divides a.
    if let Some((x, a)) = binary_parts(lhs, Mod) {
        if a.as_constant().is_some_and(|a| a >= 1 && a % m == 0) {
            return binary(Mod, x.clone(), C(m)).map(Some);
        }
    }
    Ok(None)
}

/// Whether `d` divides `n` (`n % d == 0`), false for `d == 0`.
fn divides(d: i64, n: i64) -> bool {
    n.checked_rem(d) == Some(0)
}

impl AffineExpr {
    /// Whether the expression uses no dimension (constants and symbols only).
    pub fn is_symbolic_or_constant(&self) -> bool {
        self.counts().0 == 0
    }

    /// The largest integer known to divide every value of the expression (MLIR's
    /// `getLargestKnownDivisor`); 1 when nothing is known.
    pub fn largest_known_divisor(&self) -> i64 {
        match self {
            AffineExpr::Dim(_) | AffineExpr::Symbol(_) => 1,
            AffineExpr::Constant(c) => c.checked_abs().unwrap_or(1),
            AffineExpr::Binary(op, l, r) => match op {
                Mul => l.largest_known_divisor().checked_mul(r.largest_known_divisor()).unwrap_or(1),
                Add | Mod => gcd(l.largest_known_divisor(), r.largest_known_divisor()),
                FloorDiv | CeilDiv => match r.as_constant().filter(|&q| q != 0) {
                    Some(q) => {
                        let ld = l.largest_known_divisor();
                        if divides(q, ld) {
                            (ld / q).checked_abs().unwrap_or(1)
                        } else {
                            1
                        }
                    }
                    None => 1,
                },
            },
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(1)
}
