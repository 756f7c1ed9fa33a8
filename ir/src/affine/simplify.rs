//! The simplifications MLIR applies when it constructs an affine expression
//! (`simplifyAdd`, `simplifyMul`, `simplifyFloorDiv`, `simplifyCeilDiv`, `simplifyMod` and the
//! operand ordering of commutative expressions in `mlir/lib/IR/AffineExpr.cpp`).
//!
//! MLIR uniques expressions after these rewrites, so the printed form of a map depends on
//! them: `s0 - d0` prints as `-d0 + s0`, `d1 + d0` as `d0 + d1`, `2 * d0` as `d0 * 2`. Porting
//! them rule for rule makes our printed maps match mlir-opt's text, and makes maps that MLIR
//! considers equal compare equal here.

use super::{ceil_div, floor_div, floor_mod, AffineBinOp, AffineExpr};

use AffineBinOp::{Add, CeilDiv, FloorDiv, Mod, Mul};
use AffineExpr::Constant as C;

/// The simplified form of `lhs op rhs`, or `None` when MLIR would build the plain binary
/// expression.
pub(super) fn simplify_binary(op: AffineBinOp, lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
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

fn binary(op: AffineBinOp, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    AffineExpr::binary(op, lhs, rhs)
}

fn add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    binary(Add, lhs, rhs)
}

fn mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    binary(Mul, lhs, rhs)
}

fn neg(e: AffineExpr) -> AffineExpr {
    mul(e, C(-1))
}

fn binary_parts(e: &AffineExpr, op: AffineBinOp) -> Option<(&AffineExpr, &AffineExpr)> {
    match e {
        AffineExpr::Binary(o, l, r) if *o == op => Some((l, r)),
        _ => None,
    }
}

fn simplify_add(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let (lc, rc) = (lhs.as_constant(), rhs.as_constant());
    if let (Some(a), Some(b)) = (lc, rc) {
        // An overflowing sum is left unfolded, as MLIR does.
        return a.checked_add(b).map(C);
    }
    // Constants go to the right, and so does the symbolic side of a mixed sum.
    if lc.is_some() || (lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant()) {
        return Some(add(rhs.clone(), lhs.clone()));
    }
    if rc == Some(0) {
        return Some(lhs.clone());
    }
    let l_add = binary_parts(lhs, Add);
    // (x + c1) + c2 → x + (c1 + c2).
    if let (Some((x, c1)), Some(c2)) = (l_add, rc) {
        if let Some(c1) = c1.as_constant() {
            return Some(add(x.clone(), C(c1.wrapping_add(c2))));
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
        return Some(mul(first.clone(), C(c1.wrapping_add(c2))));
    }
    // (x + c) + y → (x + y) + c.
    if let Some((x, c)) = l_add {
        if c.as_constant().is_some() {
            return Some(add(add(x.clone(), rhs.clone()), c.clone()));
        }
    }
    // x + (x floordiv q) * q * -1 → x mod q, and x + (x floordiv c) * -c → x mod c.
    let AffineExpr::Binary(_, lrhs, rrhs) = rhs else { return None };
    if rrhs.as_constant() == Some(-1) {
        if let Some((ll, rl)) = binary_parts(lrhs, Mul) {
            let (x, q) = binary_parts(ll, FloorDiv)?;
            if q == rl && x == lhs {
                return Some(binary(Mod, lhs.clone(), rl.clone()));
            }
        }
    }
    r_mul?;
    let (x, q) = binary_parts(lrhs, FloorDiv)?;
    if x == lhs && q.as_constant().is_some_and(|c| c > 0) && *q == neg((**rrhs).clone()) {
        return Some(binary(Mod, lhs.clone(), q.clone()));
    }
    // (a + b) + (x floordiv q) * c → a + (b + (x floordiv q) * c) when the inner sum
    // simplifies, which turns `(a + x) + (x floordiv q) * -q` into `a + x mod q`.
    let (a, b) = l_add?;
    simplify_add(b, rhs).map(|inner| add(a.clone(), inner))
}

fn simplify_mul(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let (lc, rc) = (lhs.as_constant(), rhs.as_constant());
    if let (Some(a), Some(b)) = (lc, rc) {
        return a.checked_mul(b).map(C);
    }
    if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() {
        return None;
    }
    // The constant or symbolic factor goes to the right.
    if !rhs.is_symbolic_or_constant() || lc.is_some() {
        return Some(mul(rhs.clone(), lhs.clone()));
    }
    match rc {
        Some(1) => return Some(lhs.clone()),
        Some(0) => return Some(C(0)),
        _ => {}
    }
    if let Some((x, c1)) = binary_parts(lhs, Mul) {
        if let Some(c1) = c1.as_constant() {
            // (x * c1) * c2 → x * (c1 * c2).
            if let Some(c2) = rc {
                return Some(mul(x.clone(), C(c1.wrapping_mul(c2))));
            }
            // (x * c) * y → (x * y) * c.
            return Some(mul(mul(x.clone(), rhs.clone()), C(c1)));
        }
    }
    None
}

/// Rewrites shared by floordiv and ceildiv by a constant `q`: constant folding (with `fold`),
/// division by 1, and `(x * c) div q → x * (c / q)` when `q` divides `c` (exact, so the
/// rounding direction does not matter).
fn simplify_exact_division(lhs: &AffineExpr, q: i64, fold: fn(i64, i64) -> Option<i64>) -> Option<AffineExpr> {
    if let Some(a) = lhs.as_constant() {
        return fold(a, q).map(C);
    }
    if q == 1 {
        return Some(lhs.clone());
    }
    let (x, c) = binary_parts(lhs, Mul)?;
    let c = c.as_constant()?;
    (c.checked_rem(q) == Some(0)).then(|| mul(x.clone(), C(c / q)))
}

fn simplify_floor_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let q = rhs.as_constant().filter(|&q| q != 0)?;
    if let Some(e) = simplify_exact_division(lhs, q, floor_div) {
        return Some(e);
    }
    // (x + y) floordiv q → x floordiv q + y floordiv q when q divides x or y.
    if let Some((x, y)) = binary_parts(lhs, Add) {
        if divides(q, x.largest_known_divisor()) || divides(q, y.largest_known_divisor()) {
            return Some(add(binary(FloorDiv, x.clone(), C(q)), binary(FloorDiv, y.clone(), C(q))));
        }
    }
    None
}

fn simplify_ceil_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let q = rhs.as_constant().filter(|&q| q != 0)?;
    simplify_exact_division(lhs, q, ceil_div)
}

fn simplify_mod(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    // Modulo by zero or a negative number is undefined and kept as written.
    let m = rhs.as_constant().filter(|&m| m >= 1)?;
    if let Some(a) = lhs.as_constant() {
        return floor_mod(a, m).map(C);
    }
    // A multiple of m (e.g. `x * 128 mod 64`) is 0.
    if divides(m, lhs.largest_known_divisor()) {
        return Some(C(0));
    }
    if let Some((x, y)) = binary_parts(lhs, Add) {
        if divides(m, x.largest_known_divisor()) {
            return Some(binary(Mod, y.clone(), C(m)));
        }
        if divides(m, y.largest_known_divisor()) {
            return Some(binary(Mod, x.clone(), C(m)));
        }
    }
    // (x mod a) mod m → x mod m when m divides a.
    if let Some((x, a)) = binary_parts(lhs, Mod) {
        if a.as_constant().is_some_and(|a| a >= 1 && a % m == 0) {
            return Some(binary(Mod, x.clone(), C(m)));
        }
    }
    None
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
