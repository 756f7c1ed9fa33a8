//! Enumeration of the integer points of a bounded polyhedron (for tests and small cases).
//!
//! The classic scanning scheme: Fourier–Motzkin projections `P_k` of `P` onto its first `k + 1`
//! dimensions give, for fixed outer values, bounds on dimension `k`; the innermost level checks
//! membership exactly, so the rational (possibly inexact) projections only cost time, never
//! correctness.

use crate::affine::AffineForm;
use crate::constraint::Semantics;
use crate::error::{PolyError, Result};
use crate::fourier_motzkin::{drop_columns, eliminate};
use crate::int::{ceil_div, floor_div, to_i64};
use crate::limits::Limits;
use crate::polyhedron::Polyhedron;
use crate::system::System;

impl Polyhedron {
    /// All integer points (dimensions only, in lexicographic order) for the parameter values
    /// `params`. Fails with [`PolyError::Unbounded`] on an unbounded set and with
    /// [`PolyError::LimitExceeded`] beyond [`Limits::max_enumerated_points`] points or
    /// [`Limits::max_enumeration_candidates`] values tried.
    pub fn enumerate(&self, params: &[i64], limits: &Limits) -> Result<Vec<Vec<i64>>> {
        let p = self.fix_params(params)?;
        let n = p.space().n_dims();
        if p.is_known_empty() {
            return Ok(Vec::new());
        }
        if n == 0 {
            return Ok(vec![Vec::new()]);
        }
        // proj[k]: constraints over dims 0..=k.
        let mut proj: Vec<System> = vec![System::new(0, Semantics::Integer); n];
        let mut cur = p.system().clone();
        for k in (0..n).rev() {
            proj[k] = cur.clone();
            if k > 0 {
                eliminate(&mut cur, &[k], limits)?;
                drop_columns(&mut cur, &[k])?;
            }
        }
        let mut out = Vec::new();
        let mut prefix = Vec::with_capacity(n);
        let mut tried = 0;
        scan(&p, &proj, &mut prefix, &mut out, &mut tried, limits)?;
        Ok(out)
    }
}

fn eval_prefix(f: &AffineForm, prefix: &[i64]) -> Result<i128> {
    let mut acc = i128::from(f.constant());
    for (k, &x) in prefix.iter().enumerate() {
        acc = crate::int::add(
            acc,
            crate::int::mul(i128::from(f.coeff(k)), i128::from(x), "enumeration")?,
            "enumeration",
        )?;
    }
    Ok(acc)
}

/// Scans level `prefix.len()` for the fixed outer values `prefix`; `tried` counts the values
/// tried at every level (the projections' ranges, not the points, bound the work).
fn scan(
    p: &Polyhedron,
    proj: &[System],
    prefix: &mut Vec<i64>,
    out: &mut Vec<Vec<i64>>,
    tried: &mut usize,
    limits: &Limits,
) -> Result<()> {
    let k = prefix.len();
    if k == proj.len() {
        if p.contains(prefix)? {
            if out.len() >= limits.max_enumerated_points {
                return Err(PolyError::LimitExceeded {
                    limit: "max_enumerated_points",
                    value: limits.max_enumerated_points,
                    context: "enumeration",
                });
            }
            out.push(prefix.clone());
        }
        return Ok(());
    }
    let sys = &proj[k];
    if sys.empty {
        return Ok(());
    }
    let (mut lo, mut hi): (Option<i128>, Option<i128>) = (None, None);
    for e in &sys.eqs {
        let a = i128::from(e.coeff(k));
        let rest = eval_prefix(e, prefix)?;
        if a == 0 {
            if rest != 0 {
                return Ok(());
            }
            continue;
        }
        if rest % a != 0 {
            return Ok(());
        }
        let v = -rest / a;
        lo = Some(lo.map_or(v, |l| l.max(v)));
        hi = Some(hi.map_or(v, |h| h.min(v)));
    }
    for f in &sys.ineqs {
        let a = i128::from(f.coeff(k));
        let rest = eval_prefix(f, prefix)?;
        match a.signum() {
            0 => {
                if rest < 0 {
                    return Ok(());
                }
            }
            1 => {
                let v = ceil_div(-rest, a);
                lo = Some(lo.map_or(v, |l| l.max(v)));
            }
            _ => {
                let v = floor_div(rest, -a);
                hi = Some(hi.map_or(v, |h| h.min(v)));
            }
        }
    }
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Err(PolyError::Unbounded { context: "enumeration", dim: p.space().column_name(k).to_string() });
    };
    let mut v = lo;
    while v <= hi {
        *tried += 1;
        if *tried > limits.max_enumeration_candidates {
            return Err(PolyError::LimitExceeded {
                limit: "max_enumeration_candidates",
                value: limits.max_enumeration_candidates,
                context: "enumeration",
            });
        }
        prefix.push(to_i64(v, "enumeration")?);
        scan(p, proj, prefix, out, tried, limits)?;
        prefix.pop();
        v += 1;
    }
    Ok(())
}
