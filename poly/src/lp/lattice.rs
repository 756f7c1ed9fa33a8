//! Integer solutions of a system of linear equalities.
//!
//! `{x ∈ Zⁿ : E·x + e = 0}` is either empty or a lattice coset `{x0 + U·z : z ∈ Zʳ}`. We find
//! it with unimodular column operations (extended Euclid on pairs of columns) that bring `E`
//! to lower-triangular (column Hermite) form `E·V = H`: then `x = V·w`, the first `p` entries of
//! `w` follow from `H` by forward substitution (each must divide exactly — the integer part of
//! the GCD test), and the remaining `n − p` are free. This is the "variable compression" that
//! isl applies before integer feasibility; branch-and-bound then runs on `z`, where no
//! equality is left to make it wander.

use crate::affine::AffineForm;
use crate::error::{overflow, Result};
use crate::int::{add, floor_div, mul, to_i64};

/// The integer solutions of an equality system: `x = offset + Σ_j z_j · basis[j]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lattice {
    pub offset: Vec<i64>,
    pub basis: Vec<Vec<i64>>,
}

const OP: &str = "equality compression";

fn col_axpy(m: &mut [Vec<i64>], dst: usize, q: i64, src: usize) -> Result<()> {
    // column dst -= q · column src
    for row in m.iter_mut() {
        let v = i128::from(row[dst]) - mul(i128::from(q), i128::from(row[src]), OP)?;
        row[dst] = to_i64(v, OP)?;
    }
    Ok(())
}

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

/// Solves `eq(x) = 0` for every `eq` over the integers; `None` when there is no integer solution.
pub(crate) fn solve_equalities(n: usize, equalities: &[AffineForm]) -> Result<Option<Lattice>> {
    let m = equalities.len();
    let mut a: Vec<Vec<i64>> = equalities.iter().map(|f| f.coeffs().to_vec()).collect();
    let mut v: Vec<Vec<i64>> = (0..n).map(|i| (0..n).map(|j| i64::from(i == j)).collect()).collect();
    let mut pivot = 0usize;
    // (row, pivot column) in processing order; rows without pivot are consistency checks.
    let mut steps: Vec<(usize, Option<usize>)> = Vec::with_capacity(m);
    for i in 0..m {
        loop {
            let best = (pivot..n).filter(|&k| a[i][k] != 0).min_by_key(|&k| a[i][k].unsigned_abs());
            let Some(k) = best else { break };
            if k != pivot {
                col_swap(&mut a, k, pivot);
                col_swap(&mut v, k, pivot);
            }
            if a[i][pivot] < 0 {
                col_neg(&mut a, pivot)?;
                col_neg(&mut v, pivot)?;
            }
            let p = i128::from(a[i][pivot]);
            let mut done = true;
            for k in pivot + 1..n {
                if a[i][k] != 0 {
                    let q = to_i64(floor_div(i128::from(a[i][k]), p), OP)?;
                    col_axpy(&mut a, k, q, pivot)?;
                    col_axpy(&mut v, k, q, pivot)?;
                    done &= a[i][k] == 0;
                }
            }
            if done {
                break;
            }
        }
        if pivot < n && a[i][pivot] != 0 {
            steps.push((i, Some(pivot)));
            pivot += 1;
        } else {
            steps.push((i, None));
        }
    }
    // Forward substitution for w_0..w_{pivot-1}.
    let mut w = vec![0i64; pivot];
    for &(i, col) in &steps {
        let mut acc = i128::from(equalities[i].constant());
        let upto = col.unwrap_or(pivot);
        for (k, &wk) in w.iter().enumerate().take(upto) {
            acc = add(acc, mul(i128::from(a[i][k]), i128::from(wk), OP)?, OP)?;
        }
        match col {
            Some(c) => {
                let p = i128::from(a[i][c]);
                if acc % p != 0 {
                    return Ok(None);
                }
                w[c] = to_i64(acc.checked_neg().ok_or_else(|| overflow(OP))? / p, OP)?;
            }
            None => {
                if acc != 0 {
                    return Ok(None);
                }
            }
        }
    }
    let mut offset = vec![0i64; n];
    for (r, row) in v.iter().enumerate() {
        let mut acc = 0i128;
        for (c, &wc) in w.iter().enumerate() {
            acc = add(acc, mul(i128::from(row[c]), i128::from(wc), OP)?, OP)?;
        }
        offset[r] = to_i64(acc, OP)?;
    }
    let basis = (pivot..n).map(|c| v.iter().map(|row| row[c]).collect()).collect();
    Ok(Some(Lattice { offset, basis }))
}

impl Lattice {
    /// Number of free lattice coordinates `z`.
    pub fn rank(&self) -> usize {
        self.basis.len()
    }

    /// `f(offset + U·z)` as a form over `z`.
    pub fn pull_back(&self, f: &AffineForm) -> Result<AffineForm> {
        let constant = to_i64(f.eval_i128(&self.offset)?, OP)?;
        let coeffs = self
            .basis
            .iter()
            .map(|u| {
                let mut acc = 0i128;
                for (&a, &b) in f.coeffs().iter().zip(u) {
                    acc = add(acc, mul(i128::from(a), i128::from(b), OP)?, OP)?;
                }
                to_i64(acc, OP)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(AffineForm::new(coeffs, constant))
    }

    /// `offset + U·z`.
    pub fn point(&self, z: &[i64]) -> Result<Vec<i64>> {
        let mut x: Vec<i128> = self.offset.iter().map(|&o| i128::from(o)).collect();
        for (u, &zj) in self.basis.iter().zip(z) {
            for (xi, &ui) in x.iter_mut().zip(u) {
                *xi = add(*xi, mul(i128::from(ui), i128::from(zj), OP)?, OP)?;
            }
        }
        x.into_iter().map(|v| to_i64(v, OP)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcd_infeasible_system() {
        // 2x + 4y = 1 has no integer solution.
        let eqs = [AffineForm::new(vec![2, 4], -1)];
        assert_eq!(solve_equalities(2, &eqs).unwrap(), None);
    }

    #[test]
    fn lattice_parametrises_all_solutions() {
        // 3x + 5y = 1 and z free: every lattice point solves it, and the basis has rank 2.
        let eqs = [AffineForm::new(vec![3, 5, 0], -1)];
        let l = solve_equalities(3, &eqs).unwrap().unwrap();
        assert_eq!(l.rank(), 2);
        for z0 in -3..3 {
            for z1 in -3..3 {
                let x = l.point(&[z0, z1]).unwrap();
                assert_eq!(3 * x[0] + 5 * x[1], 1);
            }
        }
    }

    #[test]
    fn dependent_rows_are_checked() {
        let eqs = [AffineForm::new(vec![1, 1], -2), AffineForm::new(vec![2, 2], -5)];
        assert_eq!(solve_equalities(2, &eqs).unwrap(), None);
        let eqs = [AffineForm::new(vec![1, 1], -2), AffineForm::new(vec![2, 2], -4)];
        let l = solve_equalities(2, &eqs).unwrap().unwrap();
        assert_eq!(l.rank(), 1);
    }
}
