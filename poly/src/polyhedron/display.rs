//! Textual form of polyhedra (isl-like): `[N] -> { [i, j] : 0 <= i <= N - 1 and j = i + 1 }`.

use std::fmt;

use super::Polyhedron;
use crate::affine::AffineForm;
use crate::space::Space;

impl fmt::Display for Polyhedron {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.space.params().is_empty() {
            write!(f, "[{}] -> ", self.space.params().join(", "))?;
        }
        write!(f, "{{ [{}]", self.space.dims().join(", "))?;
        self.fmt_constraints(f)?;
        write!(f, " }}")
    }
}

impl Polyhedron {
    /// Writes ` : c1 and c2 …` (nothing for the universe, ` : false` when known empty).
    ///
    /// An equality is solved for its first column (`i_s = i_t + 1`); an inequality is written as
    /// a bound on its first column (`t_t >= 1`, `i_t <= N - 2`); a column with exactly one unit
    /// lower and one unit upper bound is written as `lo <= x <= hi` at the lower bound's place.
    pub(crate) fn fmt_constraints(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.sys.empty {
            return write!(f, " : false");
        }
        let mut parts: Vec<String> = self.sys.eqs.iter().map(|e| equality(e, &self.space)).collect();
        let ineqs = &self.sys.ineqs;
        let pivot = |g: &AffineForm| g.first_nonzero();
        let mut skip = vec![false; ineqs.len()];
        for (i, g) in ineqs.iter().enumerate() {
            if skip[i] {
                continue;
            }
            let Some(p) = pivot(g) else { continue };
            let same: Vec<usize> = (0..ineqs.len()).filter(|&k| pivot(&ineqs[k]) == Some(p)).collect();
            let lower: Vec<usize> = same.iter().copied().filter(|&k| ineqs[k].coeff(p) == 1).collect();
            let upper: Vec<usize> = same.iter().copied().filter(|&k| ineqs[k].coeff(p) == -1).collect();
            if same.len() == 2 && lower.len() == 1 && upper.len() == 1 {
                let (l, u) = (&ineqs[lower[0]], &ineqs[upper[0]]);
                let (lr, ur) = (without(l, p), without(u, p));
                parts.push(format!(
                    "{} <= {} <= {}",
                    lr.display_negated(&self.space),
                    self.space.column_name(p),
                    ur.display(&self.space)
                ));
                skip[lower[0]] = true;
                skip[upper[0]] = true;
            } else {
                parts.push(inequality(g, &self.space));
                skip[i] = true;
            }
        }
        if !parts.is_empty() {
            write!(f, " : {}", parts.join(" and "))?;
        }
        Ok(())
    }
}

fn without(g: &AffineForm, col: usize) -> AffineForm {
    let mut r = g.clone();
    r.set_coeff(col, 0);
    r
}

fn scaled_name(c: i64, space: &Space, col: usize) -> String {
    let mag = c.unsigned_abs();
    if mag == 1 {
        space.column_name(col).to_string()
    } else {
        format!("{mag}*{}", space.column_name(col))
    }
}

/// `a*x = rhs` for the equality `g = 0` with pivot `x`.
fn equality(g: &AffineForm, space: &Space) -> String {
    match g.first_nonzero() {
        None => format!("{} = 0", g.constant()),
        Some(p) => {
            let c = g.coeff(p);
            let rest = without(g, p);
            let rhs = if c > 0 { rest.display_negated(space).to_string() } else { rest.display(space).to_string() };
            format!("{} = {}", scaled_name(c, space, p), rhs)
        }
    }
}

/// `a*x >= lo` or `a*x <= hi` for the inequality `g ≥ 0` with pivot `x`.
fn inequality(g: &AffineForm, space: &Space) -> String {
    match g.first_nonzero() {
        None => format!("{} >= 0", g.constant()),
        Some(p) => {
            let c = g.coeff(p);
            let rest = without(g, p);
            if c > 0 {
                format!("{} >= {}", scaled_name(c, space, p), rest.display_negated(space))
            } else {
                format!("{} <= {}", scaled_name(c, space, p), rest.display(space))
            }
        }
    }
}
