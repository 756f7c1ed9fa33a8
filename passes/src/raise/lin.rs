//! Affine forms over the variables of an affine loop nest — its loop induction variables and
//! the parameters (symbols) it is bounded by — with checked arithmetic: what subscripts,
//! bounds and index values of the raised nest are, before they become stencil bounds, access
//! offsets and maps.

use std::collections::BTreeMap;
use std::fmt;

/// A variable of a nest: a loop dimension (an induction variable, numbered over the whole
/// nest) or a parameter (a symbol the nest is bounded by, numbered in discovery order).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Var {
    /// Parameter `k`.
    Param(usize),
    /// Loop dimension `k`.
    Loop(usize),
}

/// `constant + Σ coefficient·variable`, no zero coefficients.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Lin {
    /// The constant term.
    pub constant: i64,
    /// Coefficient per variable.
    pub terms: BTreeMap<Var, i64>,
}

/// Arithmetic overflow in a form: the raise refuses rather than wrap.
pub(crate) const OVERFLOW: &str = "an index expression overflows 64-bit integers";

impl Lin {
    /// A constant.
    pub fn constant(c: i64) -> Lin {
        Lin { constant: c, terms: BTreeMap::new() }
    }

    /// `1·v`.
    pub fn var(v: Var) -> Lin {
        Lin { constant: 0, terms: BTreeMap::from([(v, 1)]) }
    }

    /// `self + k·other`.
    pub fn add_scaled(&self, other: &Lin, k: i64) -> Result<Lin, String> {
        let mut out = self.clone();
        out.constant = other.constant.checked_mul(k).and_then(|c| c.checked_add(out.constant)).ok_or(OVERFLOW)?;
        for (&v, &c) in &other.terms {
            let entry = out.terms.entry(v).or_insert(0);
            *entry = c.checked_mul(k).and_then(|x| x.checked_add(*entry)).ok_or(OVERFLOW)?;
            if *entry == 0 {
                out.terms.remove(&v);
            }
        }
        Ok(out)
    }

    /// `self + other`.
    pub fn add(&self, other: &Lin) -> Result<Lin, String> {
        self.add_scaled(other, 1)
    }

    /// `self - other`.
    pub fn sub(&self, other: &Lin) -> Result<Lin, String> {
        self.add_scaled(other, -1)
    }

    /// `k·self`.
    pub fn scale(&self, k: i64) -> Result<Lin, String> {
        Lin::default().add_scaled(self, k)
    }

    /// `self + c`.
    pub fn plus(&self, c: i64) -> Result<Lin, String> {
        self.add(&Lin::constant(c))
    }

    /// The constant, if the form has no variables.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// Coefficient of `v` (0 when absent).
    pub fn coeff(&self, v: Var) -> i64 {
        self.terms.get(&v).copied().unwrap_or(0)
    }

    /// The loop dimensions the form uses.
    pub fn loops(&self) -> impl Iterator<Item = (usize, i64)> + '_ {
        self.terms.iter().filter_map(|(v, &c)| match v {
            Var::Loop(k) => Some((*k, c)),
            Var::Param(_) => None,
        })
    }

    /// The parameters the form uses.
    pub fn params(&self) -> impl Iterator<Item = (usize, i64)> + '_ {
        self.terms.iter().filter_map(|(v, &c)| match v {
            Var::Param(k) => Some((*k, c)),
            Var::Loop(_) => None,
        })
    }

    /// Whether the form uses loop dimensions.
    pub fn has_loops(&self) -> bool {
        self.loops().next().is_some()
    }

    /// Whether the form uses parameters.
    pub fn has_params(&self) -> bool {
        self.params().next().is_some()
    }

    /// Replaces loop dimension `k` by `with`.
    pub fn substitute(&self, k: usize, with: &Lin) -> Result<Lin, String> {
        let c = self.coeff(Var::Loop(k));
        if c == 0 {
            return Ok(self.clone());
        }
        let mut rest = self.clone();
        rest.terms.remove(&Var::Loop(k));
        rest.add_scaled(with, c)
    }

    /// The form with `names` for its variables (`2*i + n - 1`), for messages.
    pub fn display<'a>(&'a self, names: &'a dyn Fn(Var) -> String) -> impl fmt::Display + 'a {
        LinDisplay { lin: self, names }
    }
}

struct LinDisplay<'a> {
    lin: &'a Lin,
    names: &'a dyn Fn(Var) -> String,
}

impl fmt::Display for LinDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (&v, &c) in &self.lin.terms {
            let name = (self.names)(v);
            let mag = c.unsigned_abs();
            match (first, c < 0) {
                (true, true) => f.write_str("-")?,
                (true, false) => {}
                (false, true) => f.write_str(" - ")?,
                (false, false) => f.write_str(" + ")?,
            }
            if mag == 1 {
                f.write_str(&name)?;
            } else {
                write!(f, "{mag}*{name}")?;
            }
            first = false;
        }
        match (first, self.lin.constant) {
            (true, c) => write!(f, "{c}"),
            (false, 0) => Ok(()),
            (false, c) if c < 0 => write!(f, " - {}", c.unsigned_abs()),
            (false, c) => write!(f, " + {c}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_cancels_and_substitutes() {
        let i = Lin::var(Var::Loop(0));
        let n = Lin::var(Var::Param(0));
        let e = i.add(&n).unwrap().plus(-1).unwrap();
        assert_eq!(e.sub(&i).unwrap(), n.plus(-1).unwrap());
        // i := -x + 3 in 2i + n - 1 gives -2x + n + 5
        let x = Lin::var(Var::Loop(1)).scale(-1).unwrap().plus(3).unwrap();
        let s = e.scale(2).unwrap().add(&n.scale(-1).unwrap()).unwrap().plus(1).unwrap();
        let r = s.substitute(0, &x).unwrap();
        assert_eq!(r.coeff(Var::Loop(1)), -2);
        assert_eq!(r.coeff(Var::Param(0)), 1);
        assert_eq!(r.constant, 5);
        let names = |v: Var| match v {
            Var::Param(_) => "n".to_string(),
            Var::Loop(_) => "x".to_string(),
        };
        assert_eq!(r.display(&names).to_string(), "n - 2*x + 5");
    }

    #[test]
    fn overflow_is_an_error() {
        let big = Lin::constant(i64::MAX);
        assert!(big.plus(1).is_err());
        assert!(Lin::var(Var::Param(0)).scale(i64::MIN).unwrap().scale(-1).is_err());
    }
}
