//! Bands whose neighbouring threads read neighbouring elements (`poly-schedule{coalesce=true}`,
//! opt-in).
//!
//! A GPU mapping of a tiled band runs an intra-tile wavefront step's points with the last band
//! row's loop on `threadIdx.x`: neighbouring threads differ by `d = Φ⁻¹·e_m` in the iterators
//! (the band inverse's last column). Pluto's rows say nothing about `d`; for 2-D and 3-D SOR
//! they make it move the outer subscripts (3-D: `(t, i, j, k) += (−1, 1, 0, 1)`, threads
//! `M·L + 1` elements apart), so no warp load is coalesced. Any band with the same first row
//! `φ₁` (the balanced intra-tile wavefront, thesis Def. 4.1) whose other rows but the last
//! vanish on a direction `d` and whose last row is ±1 on it makes the threads step by `d`
//! exactly. Choosing `d` to move only the write's last subscript, by the fewest elements
//! (`φ₁·d = 0` forces a time component: SOR's `2t + i + j + k` allows `(1, 0, 0, −2)`, 2
//! elements), and the rows among small legal hyperplanes with the first row's signs (non-negative
//! for a forward sweep; a reversed one's iterators negated) with the least total dependence
//! distance (Pluto's cost), gives e.g. `(2t+i+j+k, 2t+k, 2t+j+k, t)` for 3-D SOR. This is a preference on top of Pluto's band, tried only where it is simple to
//! prove: one statement, a band over all its iterators, uniform dependences, a first row
//! positive on every dependence. [`coalesce_bands`] applies what [`coalesced_band`] proposes
//! where the independent legality checker accepts it.

use crate::affine::AffineForm;
use crate::dependence::DependenceGraph;
use crate::int::{determinant, unimodular_inverse};
use crate::limits::Limits;
use crate::scop::{Schedule, Scop};

use super::error::ScheduleResult;
use super::legality::{check_legality, check_permutable};
use super::transformation::Transformation;

/// The largest magnitude of a direction's entries, and of a new row's coefficients (Seidel's
/// first row `4t + 2i + j` needs 4 for both: threads 4 elements apart).
const DIRECTION_BOUND: i64 = 4;
const ROW_BOUND: i64 = 4;

/// A band `coalesced_band` chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoalescedBand {
    /// The band's rows over the statement's iterators, outermost first (the first unchanged).
    pub rows: Vec<Vec<i64>>,
    /// How neighbouring threads differ in the iterators (`Φ⁻¹·e_m`).
    pub step: Vec<i64>,
    /// How many elements apart along the write's last subscript they are.
    pub stride: u64,
}

/// For band `band` of `t` over `scop`'s single statement: a band with the same first row whose
/// threads step along the write's last subscript only, by fewer elements than the current
/// band's (module documentation); `None` when the band does not qualify, already steps so, or
/// no such band is found among the small rows.
pub fn coalesced_band(scop: &Scop, graph: &DependenceGraph, t: &Transformation, band: usize) -> Option<CoalescedBand> {
    let [statement] = scop.statements() else { return None };
    let schedule = t.schedules.first()?;
    let rows = t.bands.get(band)?.rows.clone();
    let n = statement.n_iterators();
    let m = rows.len();
    if m != n || m < 2 {
        return None;
    }
    let phi: Vec<Vec<i64>> =
        rows.map(|r| schedule.rows().get(r).map(|f| f.coeffs()[..n].to_vec())).collect::<Option<_>>()?;
    let distances: Vec<Vec<i64>> =
        graph.dependences().iter().map(|d| d.distance.clone().filter(|v| v.len() == n)).collect::<Option<_>>()?;
    // In i128 (a product of two i64 fits), summed saturating: dependence distances and
    // subscripts come from the program, and a saturated sum only makes a test fail.
    let dot = |a: &[i64], b: &[i64]| {
        a.iter().zip(b).fold(0i128, |acc, (&x, &y)| acc.saturating_add(i128::from(x) * i128::from(y)))
    };
    let first = &phi[0];
    if distances.iter().any(|d| dot(first, d) < 1) {
        return None;
    }
    let write = statement.accesses().iter().find(|a| a.is_write())?;
    let subscripts: Vec<Vec<i64>> = write.index().iter().map(|f| f.coeffs()[..n].to_vec()).collect();
    let (last, outer) = subscripts.split_last()?;
    // How the current band's threads step, and how far apart they read.
    let stride_of = |d: &[i64]| -> Option<u64> {
        outer
            .iter()
            .all(|row| dot(row, d) == 0)
            .then(|| u64::try_from(dot(last, d).unsigned_abs()).ok())
            .flatten()
            .filter(|&s| s > 0)
    };
    let current = inverse_last_column(&phi).and_then(|d| stride_of(&d));
    // The direction: only the last subscript moves, by the fewest elements, then the shortest.
    let direction = vectors(n, -DIRECTION_BOUND, DIRECTION_BOUND)
        .filter(|d| dot(first, d) == 0)
        .filter_map(|d| stride_of(&d).map(|s| (s, d.iter().map(|x| x.unsigned_abs()).sum::<u64>(), d)))
        .min()?;
    let (stride, _, step) = direction;
    if current.is_some_and(|c| c <= stride) {
        return None;
    }
    // Legal rows (non-negative on every dependence), small, with the signs of the first row
    // along each iterator: non-negative as Pluto's rows for a forward sweep, negative along the
    // dimensions a reversed sweep (`order reverse`) walks backwards, whose first row is
    // `2t − i − j − k`.
    let signs: Vec<i64> = first.iter().map(|&c| if c < 0 { -1 } else { 1 }).collect();
    let legal: Vec<Vec<i64>> = vectors(n, 0, ROW_BOUND)
        .map(|r| r.iter().zip(&signs).map(|(&x, &s)| x * s).collect::<Vec<i64>>())
        .filter(|r| distances.iter().all(|d| dot(r, d) >= 0))
        .collect();
    // (total dependence distance, coefficient magnitudes): a band's cost is its rows' sum.
    type Cost = (i128, i64);
    let cost = |r: &[i64]| -> Cost {
        (distances.iter().fold(0i128, |acc, d| acc.saturating_add(dot(r, d))), r.iter().map(|x| x.abs()).sum::<i64>())
    };
    let add = |a: Cost, c: Cost| (a.0.saturating_add(c.0), a.1 + c.1);
    let scored = |keep: &dyn Fn(&Vec<i64>) -> bool| -> Vec<(Cost, &Vec<i64>)> {
        let mut rows: Vec<(Cost, &Vec<i64>)> = legal.iter().filter(|r| keep(r)).map(|r| (cost(r), r)).collect();
        // Ties in the order of the magnitudes (the rows with the signs taken off), so that a
        // reversed sweep gets the mirror image of the forward sweep's band.
        let magnitudes = |r: &Vec<i64>| -> Vec<i64> { r.iter().zip(&signs).map(|(&x, &s)| x * s).collect() };
        rows.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| magnitudes(a.1).cmp(&magnitudes(b.1))));
        rows
    };
    let along = scored(&|r| dot(r, &step) == 0);
    let across = scored(&|r| dot(r, &step).abs() == 1);
    // The best band so far and its cost. The candidates are taken in the same order as a plain
    // walk over every middle set and closing row, and one replaces the best only when strictly
    // cheaper; `across` is sorted by cost and a sum grows (lexicographically, saturating) with
    // either part, so once a closing row makes a band no cheaper than the best, no later one
    // does: the rest is skipped, and the determinant (the costly test) is taken only for bands
    // that would be kept. The same band as the plain walk, in a fraction of the time (3-D SOR:
    // hundreds of thousands of 4×4 determinants before).
    let mut best: Option<(Cost, Vec<Vec<i64>>)> = None;
    for middle in combinations(&along, m - 2) {
        let partial = middle.iter().fold((0i128, 0i64), |a, (c, _)| add(a, *c));
        for (closing_cost, closing) in &across {
            let total = add(partial, *closing_cost);
            if best.as_ref().is_some_and(|(b, _)| total >= *b) {
                break;
            }
            let mut candidate: Vec<Vec<i64>> = vec![first.clone()];
            candidate.extend(middle.iter().map(|(_, r)| r.to_vec()));
            candidate.push((*closing).clone());
            if determinant(&candidate).map(i128::abs) != Some(1) {
                continue;
            }
            best = Some((total, candidate));
        }
    }
    let (_, rows) = best?;
    // The last row is ±1 on `step`: the threads step by `step` or its negation.
    let step = inverse_last_column(&rows)?;
    Some(CoalescedBand { rows, step, stride })
}

/// The last column of `Φ⁻¹` for a unimodular `Φ` (`None` otherwise): how the iterators move
/// when the last row does and the others do not.
fn inverse_last_column(phi: &[Vec<i64>]) -> Option<Vec<i64>> {
    let last = phi.len().checked_sub(1)?;
    unimodular_inverse(phi).map(|inverse| inverse.iter().map(|row| row[last]).collect())
}

/// `t` with every band that [`coalesced_band`] re-chooses replaced, where the independent
/// checker proves the band permutable (thesis Thm 3.3) and the whole schedule legal; the other
/// bands as they were. Returns the bands applied (band index and band). The first row of a
/// re-chosen band is kept and satisfies every dependence ([`coalesced_band`] requires it), so
/// `t`'s record of where dependences are satisfied stays true.
pub fn coalesce_bands(
    scop: &Scop,
    graph: &DependenceGraph,
    mut t: Transformation,
    limits: &Limits,
) -> ScheduleResult<(Transformation, Vec<(usize, CoalescedBand)>)> {
    let mut applied = Vec::new();
    for b in 0..t.bands.len() {
        let Some(band) = coalesced_band(scop, graph, &t, b) else { continue };
        let (Some(statement), Some(old)) = (scop.statements().first(), t.schedules.first()) else { continue };
        let space = statement.space();
        let mut rows = old.rows().to_vec();
        for (r, coefficients) in t.bands[b].rows.clone().zip(&band.rows) {
            let terms: Vec<(usize, i64)> = coefficients.iter().copied().enumerate().collect();
            rows[r] = AffineForm::from_terms(space.n_columns(), &terms, 0)?;
        }
        let schedules = vec![Schedule::new(space, rows)?];
        if check_permutable(scop, graph, &schedules, t.bands[b].rows.clone(), limits)?.is_legal()
            && check_legality(scop, graph, &schedules, limits)?.is_legal()
        {
            t.schedules = schedules;
            applied.push((b, band));
        }
    }
    Ok((t, applied))
}

/// Every non-zero vector of `n` entries in `lo..=hi`.
fn vectors(n: usize, lo: i64, hi: i64) -> impl Iterator<Item = Vec<i64>> {
    let span = (hi - lo + 1) as u64;
    let count = span.pow(n as u32);
    (0..count)
        .map(move |mut k| {
            (0..n)
                .map(|_| {
                    let v = lo + (k % span) as i64;
                    k /= span;
                    v
                })
                .collect::<Vec<i64>>()
        })
        .filter(|v| v.iter().any(|&x| x != 0))
}

/// The `k`-element subsets of `items`, in order.
fn combinations<T>(items: &[T], k: usize) -> Vec<Vec<&T>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, item);
            out.push(rest);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_column_of_the_inverse_steps_the_last_row_only() {
        let phi = vec![vec![2, 1, 1, 1], vec![2, 1, 0, 1], vec![2, 0, 1, 1], vec![1, 1, 1, 0]];
        let d = inverse_last_column(&phi).unwrap();
        for (k, row) in phi.iter().enumerate() {
            assert_eq!(row.iter().zip(&d).map(|(a, b)| a * b).sum::<i64>(), i64::from(k == 3));
        }
        assert_eq!(d.iter().map(|x| x.abs()).collect::<Vec<_>>(), [1, 0, 0, 2]);
        assert!(inverse_last_column(&[vec![2, 0], vec![0, 1]]).is_none());
    }

    #[test]
    fn subsets_and_vectors_are_complete() {
        assert_eq!(combinations(&[1, 2, 3, 4], 2).len(), 6);
        assert_eq!(combinations(&[1, 2], 0).len(), 1);
        assert_eq!(vectors(2, 0, 2).count(), 8);
        assert_eq!(vectors(3, -1, 1).count(), 26);
    }
}
