//! Integer set difference and inclusion.

use super::Polyhedron;
use crate::affine::AffineForm;
use crate::error::{PolyError, Result};
use crate::limits::Limits;
use crate::lp::simplex::LpOutcome;

impl Polyhedron {
    /// `self \ other` over the integers, as pairwise disjoint non-empty convex pieces.
    ///
    /// With `other = {c_1 ≥ 0, …, c_m ≥ 0}` (equalities split in two), the pieces are
    /// `self ∩ c_1 ≥ 0 ∩ … ∩ c_{k−1} ≥ 0 ∩ c_k ≤ −1`; `¬(c ≥ 0) ⇔ −c − 1 ≥ 0` is exact over the
    /// integers. Constraints of `other` that `self` implies (one LP each) produce no piece;
    /// empty pieces (exact integer test) are dropped. At most
    /// [`Limits::max_difference_pieces`] pieces.
    pub fn subtract(&self, other: &Polyhedron, limits: &Limits) -> Result<Vec<Polyhedron>> {
        self.space.check_compatible(&other.space, "Polyhedron::subtract")?;
        if self.is_empty(limits)? {
            return Ok(Vec::new());
        }
        self.subtract_from_nonempty(other, limits)
    }

    /// [`Polyhedron::subtract`] for a `self` known to have integer points.
    pub(crate) fn subtract_from_nonempty(&self, other: &Polyhedron, limits: &Limits) -> Result<Vec<Polyhedron>> {
        self.space.check_compatible(&other.space, "Polyhedron::subtract")?;
        if self.intersect(other)?.is_empty(limits)? {
            return Ok(vec![self.clone()]);
        }
        // Constraints `self` states literally produce no piece; skip them without an LP.
        let mut rows: Vec<AffineForm> =
            other.sys.ineqs.iter().filter(|c| !self.sys.ineqs.contains(c)).cloned().collect();
        for e in other.sys.eqs.iter().filter(|e| !self.sys.eqs.contains(e)) {
            rows.push(e.clone());
            rows.push(e.checked_neg()?);
        }
        let mut acc = self.clone();
        let mut pieces = Vec::new();
        for c in rows {
            // Skip constraints that already hold on all of `acc`.
            if let LpOutcome::Optimal { value, .. } = acc.sys.rational_min(&c, &[], limits)? {
                if value.numerator() >= 0 {
                    continue;
                }
            }
            let mut piece = acc.clone();
            piece.add_inequality(&c.checked_neg()?.checked_add_constant(-1)?)?;
            if !piece.is_empty(limits)? {
                if pieces.len() >= limits.max_difference_pieces {
                    return Err(PolyError::LimitExceeded {
                        limit: "max_difference_pieces",
                        value: limits.max_difference_pieces,
                        context: "set difference",
                    });
                }
                pieces.push(piece);
            }
            acc.add_inequality(&c)?;
        }
        Ok(pieces)
    }

    /// Whether every integer point of `self` lies in `other`.
    pub fn is_subset(&self, other: &Polyhedron, limits: &Limits) -> Result<bool> {
        Ok(self.subtract(other, limits)?.is_empty())
    }

    /// Whether both polyhedra have the same integer points.
    pub fn is_equal_set(&self, other: &Polyhedron, limits: &Limits) -> Result<bool> {
        Ok(self.is_subset(other, limits)? && other.is_subset(self, limits)?)
    }
}
