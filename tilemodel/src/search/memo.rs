//! What the search remembers of the counts it made (`CountMemo`): one count, or what a count
//! that stopped had seen, per family of tile sizes that the band's row symmetries map onto each
//! other.

use std::collections::HashMap;

use super::Visit;
use crate::inter::{row_symmetries, InterTileCounts, PerWavefront};
use crate::model::BoundInputs;
use crate::shape::BandShape;

/// The counts the search has made, by family of tile sizes: the sizes that
/// [`crate::inter::row_symmetries`] map onto each other have the same inter-tile counts, so one
/// count (or what a count that stopped had seen) serves the whole family (3-D SOR and Jacobi
/// with equal extents: up to six orders of the three space rows' sizes).
pub(super) struct CountMemo {
    /// The row orders of the symmetries.
    orders: Vec<Vec<usize>>,
    /// By family (its least permuted sizes), what was counted, with its generation (the
    /// number of counts kept before it).
    seen: HashMap<Vec<i64>, (u64, Memo)>,
    /// Counts kept so far.
    generations: u64,
    /// By family, counts that visits made ahead of their turn (not yet committed, or committed
    /// without being kept).
    ahead: HashMap<Vec<i64>, Memo>,
}

/// What the search knows of a family's counts.
#[derive(Clone)]
pub(super) enum Memo {
    /// The counts, in full.
    Counted(InterTileCounts),
    /// A count that stopped: what it had counted then.
    Stopped(Seen),
}

/// What a count that stopped showed its last question ([`crate::inter::Partial`], owned):
/// each at most the final count of the family's sizes.
#[derive(Debug, Clone, Default)]
pub(super) struct Seen {
    tiles: Vec<u64>,
    full: Vec<u64>,
    tiles_at_least: u64,
    full_at_least: u64,
}

impl Seen {
    pub(super) fn of(partial: &crate::inter::Partial<'_>) -> Seen {
        Seen {
            tiles: partial.tiles.to_vec(),
            full: partial.full.to_vec(),
            tiles_at_least: partial.tiles_at_least,
            full_at_least: partial.full_at_least,
        }
    }

    /// `before` (a size's bound inputs before counting) with these partial counts, as the
    /// count's question had them.
    pub(super) fn bound<'a>(&'a self, before: &BoundInputs<'a>) -> BoundInputs<'a> {
        let per_wavefront = !self.tiles.is_empty();
        BoundInputs {
            per_wavefront: per_wavefront.then(|| PerWavefront::plain(&self.tiles, &self.full)),
            tiles: before.tiles.max(self.tiles_at_least as f64),
            full: before.full.max(self.full_at_least as f64),
            ..*before
        }
    }
}

impl CountMemo {
    pub(super) fn new(shape: &BandShape) -> CountMemo {
        CountMemo { orders: row_symmetries(shape), seen: HashMap::new(), generations: 0, ahead: HashMap::new() }
    }

    /// The family of `sizes`: the least of its permutations by the symmetries (itself among
    /// them), so that every member names it alike (the symmetries form a group); `None` when
    /// no symmetry moves them (a family of one, whose counts nothing else could use: not kept,
    /// as a 1-D count's arrays are long).
    pub(super) fn family(&self, sizes: &[i64]) -> Option<Vec<i64>> {
        let mut least = sizes.to_vec();
        let mut moved = false;
        for order in &self.orders {
            let other: Vec<i64> = order.iter().map(|&k| sizes[k]).collect();
            moved |= other != sizes;
            if other < least {
                least = other;
            }
        }
        moved.then_some(least)
    }

    /// What was counted of `family`, with its generation.
    pub(super) fn get(&self, family: &Option<Vec<i64>>) -> Option<&(u64, Memo)> {
        family.as_ref().and_then(|f| self.seen.get(f))
    }

    /// What visits made ahead of their turn counted of `family`.
    pub(super) fn ahead(&self, family: &Option<Vec<i64>>) -> Option<&Memo> {
        family.as_ref().and_then(|f| self.ahead.get(f))
    }

    /// Notes `memo`, made ahead of its size's turn, for `family` (when there is one): full
    /// counts over a count that stopped.
    pub(super) fn note_ahead(&mut self, family: &Option<Vec<i64>>, memo: &Memo) {
        if let Some(f) = family {
            if !matches!((self.ahead.get(f), memo), (Some(Memo::Counted(_)), Memo::Stopped(_))) {
                self.ahead.insert(f.clone(), memo.clone());
            }
        }
    }

    /// Whether `visit` read what the memo holds of its family now (or did not read it).
    pub(super) fn unchanged(&self, visit: &Visit<'_>) -> bool {
        visit.read.is_none_or(|read| self.get(&visit.family).map(|(generation, _)| *generation) == read)
    }

    /// Keeps `memo` for `family` (when there is one), as its next generation.
    pub(super) fn keep(&mut self, family: Option<Vec<i64>>, memo: Memo) {
        if let Some(f) = family {
            self.generations += 1;
            self.seen.insert(f, (self.generations, memo));
        }
    }
}
