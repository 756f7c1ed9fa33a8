//! Exact rationals for results of the simplex method.

use std::cmp::Ordering;
use std::fmt;

use crate::error::{overflow, Result};
use crate::int::{ceil_div, floor_div, gcd_i128, mul};

/// An exact rational `num/den` with `den > 0` and `gcd(num, den) = 1`, on `i128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rational {
    num: i128,
    den: i128,
}

impl Rational {
    /// `num/den`, reduced. Fails on `den == 0` or overflow.
    pub fn new(num: i128, den: i128) -> Result<Rational> {
        if den == 0 {
            return Err(crate::error::PolyError::Internal("rational with zero denominator"));
        }
        let g = gcd_i128(num, den).max(1);
        // g ≤ |den|, and |den| ≤ i128::MAX unless den == i128::MIN (g then a power of two).
        let g = i128::try_from(g).map_err(|_| overflow("rational reduction"))?;
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = n.checked_neg().ok_or_else(|| overflow("rational reduction"))?;
            d = d.checked_neg().ok_or_else(|| overflow("rational reduction"))?;
        }
        Ok(Rational { num: n, den: d })
    }

    /// The integer `v`.
    pub fn integer(v: i128) -> Rational {
        Rational { num: v, den: 1 }
    }

    /// Numerator.
    pub fn numerator(&self) -> i128 {
        self.num
    }

    /// Denominator (positive).
    pub fn denominator(&self) -> i128 {
        self.den
    }

    /// Whether the value is an integer.
    pub fn is_integer(&self) -> bool {
        self.den == 1
    }

    /// `⌊self⌋`.
    pub fn floor(&self) -> i128 {
        floor_div(self.num, self.den)
    }

    /// `⌈self⌉`.
    pub fn ceil(&self) -> i128 {
        ceil_div(self.num, self.den)
    }

    /// Exact comparison.
    pub fn checked_cmp(&self, other: &Rational) -> Result<Ordering> {
        let a = mul(self.num, other.den, "rational comparison")?;
        let b = mul(other.num, self.den, "rational comparison")?;
        Ok(a.cmp(&b))
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}
