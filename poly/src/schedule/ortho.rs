//! Linear algebra for the linear-independence constraints: the right kernel (orthogonal
//! sub-space) of the hyperplanes found so far, ranks, and saturation of the lattice the rows
//! generate (unimodular completions).
//!
//! The kernel is computed exactly as isl's `isl_mat_right_kernel` (which Pluto calls): the
//! column echelon form `M·U = H` by unimodular column operations (`isl_mat_left_hermite`),
//! whose last columns of `U` span the kernel. Thesis Alg. 4.1 writes the same sub-space as
//! `H^⊥ = I − Hᵀ(HHᵀ)⁻¹H`.

use crate::error::{overflow, Result};
use crate::int::{gcd_i128, gcd_i64, gcd_u128};

const OP: &str = "orthogonal sub-space";

fn col_swap(m: &mut [Vec<i64>], a: usize, b: usize) {
    for row in m.iter_mut() {
        row.swap(a, b);
    }
}

fn col_neg(m: &mut [Vec<i64>], c: usize) -> Result<()> {
    for row in m.iter_mut() {
        row[c] = row[c].checked_neg().ok_or_else(|| overflow(OP))?;
    }
    Ok(())
}

/// Column `dst -= q · column src`.
fn col_sub(m: &mut [Vec<i64>], dst: usize, src: usize, q: i64) -> Result<()> {
    for row in m.iter_mut() {
        let v = i128::from(row[dst]) - i128::from(q) * i128::from(row[src]);
        row[dst] = i64::try_from(v).map_err(|_| overflow(OP))?;
    }
    Ok(())
}

/// Applies the same column operation to `m` and `u`.
struct Pair<'a> {
    m: &'a mut Vec<Vec<i64>>,
    u: &'a mut Vec<Vec<i64>>,
}

impl Pair<'_> {
    fn swap(&mut self, a: usize, b: usize) {
        col_swap(self.m, a, b);
        col_swap(self.u, a, b);
    }

    fn neg(&mut self, c: usize) -> Result<()> {
        col_neg(self.m, c)?;
        col_neg(self.u, c)
    }

    fn sub(&mut self, dst: usize, src: usize, q: i64) -> Result<()> {
        col_sub(self.m, dst, src, q)?;
        col_sub(self.u, dst, src, q)
    }
}

/// A basis of `{x : rows·x = 0}` over `n` columns, as isl's `isl_mat_right_kernel` returns it
/// (for no rows: the unit vectors).
pub(crate) fn right_kernel(rows: &[Vec<i64>], n: usize) -> Result<Vec<Vec<i64>>> {
    let mut m: Vec<Vec<i64>> = rows.to_vec();
    let mut u: Vec<Vec<i64>> = (0..n).map(|i| (0..n).map(|j| i64::from(i == j)).collect()).collect();
    let mut pair = Pair { m: &mut m, u: &mut u };
    let mut col = 0usize;
    for row in 0..rows.len() {
        if col >= n {
            break;
        }
        // The column (from `col` on) with the smallest non-zero magnitude becomes the pivot.
        let Some(first) = (col..n).filter(|&k| pair.m[row][k] != 0).min_by_key(|&k| pair.m[row][k].unsigned_abs())
        else {
            continue;
        };
        if first != col {
            pair.swap(first, col);
        }
        if pair.m[row][col] < 0 {
            pair.neg(col)?;
        }
        // Euclid on the pivot column and every later column with a non-zero entry.
        let mut k = col + 1;
        while let Some(next) = (k..n).find(|&j| pair.m[row][j] != 0) {
            k = next;
            let q = pair.m[row][k].div_euclid(pair.m[row][col]);
            pair.sub(k, col, q)?;
            if pair.m[row][k] != 0 {
                pair.swap(k, col);
            } else {
                k += 1;
            }
        }
        // Reduce the earlier echelon columns (isl does; it leaves the kernel columns alone).
        for i in 0..col {
            if pair.m[row][i] != 0 {
                let q = pair.m[row][i].div_euclid(pair.m[row][col]);
                if q != 0 {
                    pair.sub(i, col, q)?;
                }
            }
        }
        col += 1;
    }
    Ok((col..n).map(|c| u.iter().map(|r| r[c]).collect()).collect())
}

/// Pluto's normalisation of a kernel basis vector: divided by the gcd of its entries when
/// none of them is zero (`get_stmt_lin_ind_constraints`).
pub(crate) fn normalize(v: &mut [i64]) {
    if v.is_empty() || v.contains(&0) {
        return;
    }
    let g = v.iter().fold(0u64, |g, &x| gcd_i64(g as i64, x));
    if g > 1 {
        for x in v.iter_mut() {
            *x /= g as i64;
        }
    }
}

/// A basis of the lattice the integer rows generate, in row echelon form (Euclid on the rows,
/// i.e. unimodular row operations; pivots positive, in increasing columns). Its length is
/// the rank.
fn row_echelon(rows: &[Vec<i64>], n: usize) -> Result<Vec<Vec<i64>>> {
    const OP: &str = "lattice echelon form";
    let mut m: Vec<Vec<i64>> = rows.iter().filter(|r| r.iter().any(|&x| x != 0)).cloned().collect();
    let mut r = 0usize;
    for c in 0..n {
        // Euclid on column c among the rows from r on, until one row holds their gcd.
        while let Some(p) = (r..m.len()).filter(|&i| m[i][c] != 0).min_by_key(|&i| m[i][c].unsigned_abs()) {
            m.swap(r, p);
            let (top, rest) = m.split_at_mut(r + 1);
            let pivot = &top[r];
            let mut done = true;
            for row in rest.iter_mut().filter(|row| row[c] != 0) {
                let q = row[c] / pivot[c];
                for (x, &y) in row.iter_mut().zip(pivot.iter()) {
                    let v = i128::from(*x) - i128::from(q) * i128::from(y);
                    *x = i64::try_from(v).map_err(|_| overflow(OP))?;
                }
                done &= row[c] == 0;
            }
            if done {
                if m[r][c] < 0 {
                    for x in m[r].iter_mut() {
                        *x = x.checked_neg().ok_or_else(|| overflow(OP))?;
                    }
                }
                r += 1;
                break;
            }
        }
    }
    m.truncate(r);
    Ok(m)
}

/// Whether the integer rows generate a *saturated* lattice: every integer vector of their
/// rational span is an integer combination of them (the gcd of the maximal minors is 1).
///
/// A statement's schedule rows have an integral left inverse — the scanner can recover the
/// iterators from the loop variables without strides (`codegen::invert`) — exactly when
/// they are of full column rank and saturated, i.e. unimodular. Test: with `B` a basis of the
/// row lattice (`r × n`), the lattice is saturated iff the columns of `B` generate `Z^r`,
/// i.e. the echelon form of `Bᵀ` has unit pivots.
pub(crate) fn saturated(rows: &[Vec<i64>], n: usize) -> Result<bool> {
    let basis = row_echelon(rows, n)?;
    let r = basis.len();
    let transposed: Vec<Vec<i64>> = (0..n).map(|c| basis.iter().map(|row| row[c]).collect()).collect();
    let columns = row_echelon(&transposed, r)?;
    Ok(columns.iter().all(|row| row.iter().find(|&&x| x != 0) == Some(&1)))
}

/// The rank of an integer matrix (fraction-free Gaussian elimination in `i128`).
pub(crate) fn rank(rows: &[Vec<i64>]) -> Result<usize> {
    let mut m: Vec<Vec<i128>> = rows.iter().map(|r| r.iter().map(|&x| i128::from(x)).collect()).collect();
    let ncols = m.first().map_or(0, Vec::len);
    let mut r = 0usize;
    for c in 0..ncols {
        let Some(p) = (r..m.len()).find(|&i| m[i][c] != 0) else { continue };
        m.swap(r, p);
        let (pivot_row, rest) = m.split_at_mut(r + 1);
        let pivot = &pivot_row[r];
        for row in rest.iter_mut().filter(|row| row[c] != 0) {
            // row := row·(a/g) − pivot·(b/g), which zeroes column c.
            let (a, b) = (pivot[c], row[c]);
            let g = gcd_i128(a, b) as i128;
            let (fa, fb) = (a / g, b / g);
            for (x, &y) in row.iter_mut().zip(pivot.iter()).skip(c) {
                let v = x.checked_mul(fa).and_then(|x| y.checked_mul(fb).and_then(|y| x.checked_sub(y)));
                *x = v.ok_or_else(|| overflow("rank"))?;
            }
            let g = row.iter().fold(0u128, |g, &x| gcd_u128(g, x.unsigned_abs()));
            if g > 1 {
                for x in row.iter_mut() {
                    *x /= g as i128;
                }
            }
        }
        r += 1;
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dot(a: &[i64], b: &[i64]) -> i64 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn kernel_of_a_skewed_row_matches_isl() {
        // isl_mat_right_kernel([2 1]) = (1, -2).
        assert_eq!(right_kernel(&[vec![2, 1]], 2).unwrap(), vec![vec![1, -2]]);
        assert_eq!(right_kernel(&[vec![1, 0]], 2).unwrap(), vec![vec![0, 1]]);
        assert_eq!(right_kernel(&[], 2).unwrap(), vec![vec![1, 0], vec![0, 1]]);
    }

    #[test]
    fn kernels_are_orthogonal_and_complete() {
        let h = vec![vec![1, 1, 0], vec![2, 1, 1]];
        let k = right_kernel(&h, 3).unwrap();
        assert_eq!(k.len(), 1);
        for row in &h {
            assert_eq!(dot(row, &k[0]), 0);
        }
        let mut all = h.clone();
        all.extend(k);
        assert_eq!(rank(&all).unwrap(), 3);
        assert_eq!(rank(&[vec![1, 2], vec![2, 4]]).unwrap(), 1);
        assert_eq!(rank(&[vec![0, 0]]).unwrap(), 0);
    }

    #[test]
    fn saturation_is_the_gcd_of_maximal_minors() {
        // Unimodular: thesis Fig. 4.3's Φ.
        assert!(saturated(&[vec![2, 1], vec![1, 1]], 2).unwrap());
        // det 2: `2t + i, i` determines only 2t.
        assert!(!saturated(&[vec![2, 1], vec![0, 1]], 2).unwrap());
        // A primitive row is saturated on its own, a multiple is not.
        assert!(saturated(&[vec![2, 1, 1]], 3).unwrap());
        assert!(!saturated(&[vec![2, 0, 2]], 3).unwrap());
        // Minors 2, 0, 1 (columns 01, 02, 12): gcd 1 although no pivot is 1 at column 0.
        assert!(saturated(&[vec![2, 1, 1, 0], vec![0, 1, 0, 0]], 4).unwrap());
        // The rows found in a random test: `2t + i + j, i, j` over (t, i, j, k), minors gcd 2.
        assert!(!saturated(&[vec![2, 1, 1, 0], vec![0, 1, 0, 0], vec![0, 0, 1, 0]], 4).unwrap());
        // A dependent row can complete the lattice.
        assert!(saturated(&[vec![2, 0], vec![3, 0], vec![0, 1]], 2).unwrap());
        assert!(saturated(&[], 3).unwrap());
    }

    #[test]
    fn normalisation_only_without_zero_entries() {
        let mut v = vec![2, -4];
        normalize(&mut v);
        assert_eq!(v, vec![1, -2]);
        let mut v = vec![0, 2];
        normalize(&mut v);
        assert_eq!(v, vec![0, 2]);
    }
}
