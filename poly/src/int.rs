//! Checked integer helpers shared by every algorithm.
//!
//! Values are `i64` at the API and `i128` inside combinations (a product of two `i64` always
//! fits an `i128`), converted back with a check. Nothing here wraps or panics.

use crate::error::{overflow, Result};

/// The determinant of a small square integer matrix (Laplace expansion in `i128`, checked:
/// `None` when an intermediate product or sum leaves `i128`).
pub fn determinant(a: &[Vec<i64>]) -> Option<i128> {
    let n = a.len();
    if n <= MAX_EXPANDED && a.iter().all(|row| row.len() == n) {
        let mut columns = [0usize; MAX_EXPANDED];
        columns.iter_mut().enumerate().for_each(|(j, c)| *c = j);
        return minor_determinant(a, 0, &columns[..n]);
    }
    determinant_by_copies(a)
}

/// [`determinant`] by copying each minor (any shape: a row's own columns but the expanded one).
fn determinant_by_copies(a: &[Vec<i64>]) -> Option<i128> {
    match a.len() {
        0 => Some(1),
        1 => Some(a[0].first().map_or(0, |&v| i128::from(v))),
        _ => {
            let mut det = 0i128;
            for (j, &x) in a[0].iter().enumerate() {
                if x == 0 {
                    continue;
                }
                let minor: Vec<Vec<i64>> = a[1..]
                    .iter()
                    .map(|row| row.iter().enumerate().filter(|&(c, _)| c != j).map(|(_, &v)| v).collect())
                    .collect();
                let term = i128::from(x).checked_mul(determinant_by_copies(&minor)?)?;
                det = if j % 2 == 0 { det.checked_add(term)? } else { det.checked_sub(term)? };
            }
            Some(det)
        }
    }
}

/// The widest square matrix [`determinant`] expands without allocating minors.
const MAX_EXPANDED: usize = 12;

/// The determinant of the minor of `a` on rows `row..` and `columns` (as many as the rows):
/// the same Laplace expansion along the minor's first row, in the same order and with the same
/// checks, as [`determinant`]'s general path — only the minors are column lists on the stack,
/// not copied matrices (the coalesced-band search of `poly-schedule` takes hundreds of
/// thousands of 4×4 determinants).
fn minor_determinant(a: &[Vec<i64>], row: usize, columns: &[usize]) -> Option<i128> {
    match columns {
        [] => Some(1),
        [only] => Some(i128::from(a[row][*only])),
        _ => {
            let k = columns.len();
            let mut rest = [0usize; MAX_EXPANDED];
            let mut det = 0i128;
            for (position, &j) in columns.iter().enumerate() {
                let x = a[row][j];
                if x == 0 {
                    continue;
                }
                rest[..position].copy_from_slice(&columns[..position]);
                rest[position..k - 1].copy_from_slice(&columns[position + 1..]);
                let term = i128::from(x).checked_mul(minor_determinant(a, row + 1, &rest[..k - 1])?)?;
                det = if position % 2 == 0 { det.checked_add(term)? } else { det.checked_sub(term)? };
            }
            Some(det)
        }
    }
}

/// The inverse of a unimodular integer matrix (adjugate over the determinant ±1); `None` when
/// the matrix is not square or not unimodular.
pub fn unimodular_inverse(a: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let n = a.len();
    if a.iter().any(|r| r.len() != n) || n == 0 || n > 6 {
        return None;
    }
    let det = determinant(a)?;
    if det != 1 && det != -1 {
        return None;
    }
    let mut inv = vec![vec![0i64; n]; n];
    for (i, row) in inv.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            // inv[i][j] = cofactor(j, i) / det.
            let minor: Vec<Vec<i64>> = a
                .iter()
                .enumerate()
                .filter(|&(r, _)| r != j)
                .map(|(_, r)| r.iter().enumerate().filter(|&(c, _)| c != i).map(|(_, &v)| v).collect())
                .collect();
            let sign = if (i + j) % 2 == 0 { 1 } else { -1 };
            *cell = i64::try_from(sign * determinant(&minor)? * det).ok()?;
        }
    }
    Some(inv)
}

/// Greatest common divisor of the magnitudes of `a` and `b` (0 when both are 0).
pub(crate) fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        if a <= u128::from(u64::MAX) && b <= u128::from(u64::MAX) {
            // 64-bit division is much cheaper than 128-bit; tableau entries are usually small.
            return u128::from(gcd_u64(a as u64, b as u64));
        }
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

/// Binary (Stein's) gcd: shifts and subtractions only. The simplex normalises every row after
/// every pivot, and a 64-bit division per Euclid step made that its largest cost.
fn gcd_u64(a: u64, b: u64) -> u64 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    let mut a = a >> a.trailing_zeros();
    let mut b = b;
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// Greatest common divisor of `|a|` and `|b|`, as an unsigned value (`gcd(i64::MIN, 0)` is 2^63).
pub(crate) fn gcd_i64(a: i64, b: i64) -> u64 {
    // Both magnitudes fit u64, so does their gcd.
    gcd_u128(u128::from(a.unsigned_abs()), u128::from(b.unsigned_abs())) as u64
}

/// Greatest common divisor of `|a|` and `|b|` for `i128` values.
pub(crate) fn gcd_i128(a: i128, b: i128) -> u128 {
    gcd_u128(a.unsigned_abs(), b.unsigned_abs())
}

/// Converts an `i128` to `i64`, reporting overflow in `operation`.
pub(crate) fn to_i64(v: i128, operation: &'static str) -> Result<i64> {
    i64::try_from(v).map_err(|_| overflow(operation))
}

/// `a * b + c * d` in `i128`, checked.
pub(crate) fn mul_add(a: i128, b: i128, c: i128, d: i128, operation: &'static str) -> Result<i128> {
    let x = a.checked_mul(b).ok_or_else(|| overflow(operation))?;
    let y = c.checked_mul(d).ok_or_else(|| overflow(operation))?;
    x.checked_add(y).ok_or_else(|| overflow(operation))
}

/// `a * b` in `i128`, checked.
#[inline]
pub(crate) fn mul(a: i128, b: i128, operation: &'static str) -> Result<i128> {
    // Two values of 64 bits cannot overflow 128: the common case skips the checked 128-bit
    // multiplication (a library call).
    if let (Ok(x), Ok(y)) = (i64::try_from(a), i64::try_from(b)) {
        return Ok(i128::from(x) * i128::from(y));
    }
    a.checked_mul(b).ok_or_else(|| overflow(operation))
}

/// `a + b` in `i128`, checked.
pub(crate) fn add(a: i128, b: i128, operation: &'static str) -> Result<i128> {
    a.checked_add(b).ok_or_else(|| overflow(operation))
}

/// The multiplier `−sign(a)·b` that cancels `b·x` against a row with `a·x` scaled by `|a|`.
pub(crate) fn cancel_factor(a: i64, b: i64, operation: &'static str) -> Result<i64> {
    let m = if a < 0 { Some(b) } else { b.checked_neg() };
    m.ok_or_else(|| crate::error::overflow(operation))
}

/// `⌊a / b⌋` for `b > 0`.
pub(crate) fn floor_div(a: i128, b: i128) -> i128 {
    debug_assert!(b > 0);
    let q = a / b;
    if a % b != 0 && a < 0 {
        q - 1
    } else {
        q
    }
}

/// `⌈a / b⌉` for `b > 0`.
pub(crate) fn ceil_div(a: i128, b: i128) -> i128 {
    debug_assert!(b > 0);
    let q = a / b;
    if a % b != 0 && a > 0 {
        q + 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The expansion over column lists is the copying expansion, to the overflow: small
        /// entries (exact), and huge ones (where both give `None` at the same product).
        #[test]
        fn expanded_determinants_are_the_copied_ones(
            n in 0usize..=5,
            small in proptest::collection::vec(-5i64..=5, 25),
            huge in proptest::collection::vec(prop_oneof![Just(i64::MAX), Just(i64::MIN), -3i64..=3], 25),
        ) {
            for entries in [&small, &huge] {
                let a: Vec<Vec<i64>> = (0..n).map(|r| entries[r * 5..r * 5 + n].to_vec()).collect();
                prop_assert_eq!(determinant(&a), determinant_by_copies(&a), "{:?}", a);
            }
        }
    }

    #[test]
    fn determinants_of_known_matrices() {
        assert_eq!(determinant(&[]), Some(1));
        assert_eq!(determinant(&[vec![7]]), Some(7));
        assert_eq!(determinant(&[vec![2, 1, 1, 1], vec![2, 0, 0, 1], vec![2, 0, 1, 1], vec![1, 0, 0, 0]]), Some(1));
        assert_eq!(determinant(&[vec![1, 2], vec![2, 4]]), Some(0));
        // Non-square: the copying expansion's reading (the first row's columns).
        assert_eq!(
            determinant(&[vec![1, 2, 3], vec![4, 5, 6]]),
            determinant_by_copies(&[vec![1, 2, 3], vec![4, 5, 6]])
        );
    }

    #[test]
    fn floor_and_ceil_round_towards_the_right_side() {
        assert_eq!(floor_div(-7, 2), -4);
        assert_eq!(floor_div(7, 2), 3);
        assert_eq!(ceil_div(-7, 2), -3);
        assert_eq!(ceil_div(7, 2), 4);
        assert_eq!(floor_div(-8, 2), -4);
    }

    #[test]
    fn gcd_handles_extreme_values() {
        assert_eq!(gcd_i64(i64::MIN, 0), 1u64 << 63);
        assert_eq!(gcd_i64(-12, 18), 6);
        assert_eq!(gcd_i64(0, 0), 0);
        assert!(to_i64(i128::from(i64::MAX) + 1, "test").is_err());
    }
}
