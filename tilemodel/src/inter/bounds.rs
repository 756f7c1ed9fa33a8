//! Bounds of the tile counts before counting (module documentation, step 6): the plain
//! bounds of the wavefronts and tiles ([`lower_bounds`]), the most instances one tile holds by a
//! statement's pinnings (`Pinnings`), the layers of tiles a thin row's slab crosses
//! ([`layered_tiles`]), and the full tiles' parallelepiped, bounded by its volume and by its
//! rows' layers (`lattice_points_at_least`). Each is at most what [`super::count_tiles`]
//! counts: `tests/counting.rs` checks them against the counts.

use std::borrow::Cow;

use super::counter::erosion_row;
use super::envelope::{ceil_i128, floor_i128};
use crate::shape::{BandShape, StatementShape};

/// The ways to name a statement's instances in one tile. A *pinning* is the iterators of
/// the columns `free` (bit `j`: iterator `j`) and the band rows `rows` (bit `k`: row `k`), where
/// the band map restricted to `rows` and the other columns is square and non-singular. Then an
/// instance `i` is determined by `(i_free, (map·i)_rows)`: the other iterators solve that
/// square system. So a tile holds at most `Π_{j ∈ free} e_j · Π_{k ∈ rows} s_k` instances
/// (`e_j` the iterator's extent, `s_k` the tile size): the names of its instances are distinct
/// and lie in a box of that many integer points (the iterators' ranges times the tile's `s_k`
/// values of each row). Kept grouped by `rows` (the free sets of each): the least over the
/// pinnings is, per row set, its sizes' product times the least free product, from two tables
/// of subset products — the search asks for every size it screens (10^5 on 3-D bands), and
/// the products pinning by pinning (up to 70 of four rows) were a tenth of a 3-D search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Pinnings {
    /// The iterators (columns of the band map).
    columns: usize,
    /// Per row set, the free column sets that pin with it.
    by_rows: Vec<(u32, Vec<u32>)>,
    /// The domain box the pinnings were made with (its lower and upper corners), and the
    /// products of every subset of its extents ([`subset_products`]): the same for every size,
    /// so made once, not per size and statement (most of the search's first pass over the
    /// sizes, in allocations, on 3-D bands of two statements). A statement of another box
    /// gets its own.
    lower: Vec<i64>,
    upper: Vec<i64>,
    free: Vec<u128>,
}

/// The widest band map whose [`Pinnings`] are looked for (`4^m` pairs of subsets tried once
/// per band, `2^m` subset products per size); wider bands keep the plain bound.
const MAX_PINNING_ROWS: usize = 8;

impl Pinnings {
    /// The most instances of `s` one tile holds by the best of its pinnings (at least 1;
    /// `u128::MAX` without any), `rows` the products of every subset of the tile's sizes
    /// ([`subset_products`], [`size_products`]). Saturating: only ever compared downwards.
    pub(super) fn most_instances(&self, s: &StatementShape, rows: &[u128]) -> u128 {
        if self.by_rows.is_empty() {
            return u128::MAX;
        }
        let free = if s.lower == self.lower && s.upper == self.upper {
            Cow::Borrowed(&self.free)
        } else {
            Cow::Owned(box_products(s, self.columns))
        };
        self.by_rows
            .iter()
            .map(|(r, frees)| {
                let least = frees.iter().map(|&f| free[f as usize]).min().unwrap_or(u128::MAX);
                least.saturating_mul(rows[*r as usize])
            })
            .min()
            .unwrap_or(u128::MAX)
            .max(1)
    }
}

/// The products of every subset of the extents of `s`'s domain box's first `columns`
/// iterators ([`subset_products`]).
fn box_products(s: &StatementShape, columns: usize) -> Vec<u128> {
    subset_products(s.lower.iter().zip(&s.upper).map(|(&l, &u)| (u - l + 1).max(0) as u128), columns)
}

/// The products of every subset of a tile's `sizes` ([`subset_products`]), what
/// [`Pinnings::most_instances`] weighs its pinnings' rows with.
pub(super) fn size_products(sizes: &[i64]) -> Vec<u128> {
    subset_products(sizes.iter().map(|&v| v.max(0) as u128), sizes.len())
}

/// The products of every subset of the first `n` `values` (entry `mask`: the product of the
/// values whose bits are set; saturating), each from the subset without its lowest bit.
fn subset_products(values: impl Iterator<Item = u128>, n: usize) -> Vec<u128> {
    let values: Vec<u128> = values.take(n).collect();
    let mut out = vec![1u128; 1 << values.len()];
    for mask in 1..out.len() {
        let low = mask.trailing_zeros() as usize;
        out[mask] = out[mask & (mask - 1)].saturating_mul(values[low]);
    }
    out
}

/// [`super::TileGeometry::full_tiles_lower_bound`]'s volume bound of the parallelepiped
/// `ranges_j = [lo_j, hi_j]` of `N·(s∘T)` (`N` = `inverse`, unimodular): every width narrowed
/// by `Σ_k |N_jk|·s_k`, the product over `Π_k s_k`, rounded up; `None` on overflow, 0 when a
/// narrowed width is not positive.
pub(super) fn full_tiles_by_volume(inverse: &[Vec<i64>], sizes: &[i64], ranges: &[(i128, i128)]) -> Option<u128> {
    let mut volume = 1i128;
    for (row, &(lo, hi)) in inverse.iter().zip(ranges) {
        let narrowed: i128 = row.iter().zip(sizes).map(|(&n, &size)| i128::from(n).abs() * i128::from(size)).sum();
        let w = hi.checked_sub(lo)?.checked_sub(narrowed)?;
        if w <= 0 {
            return Some(0);
        }
        volume = volume.checked_mul(w)?;
    }
    let cell = sizes.iter().try_fold(1i128, |p, &size| p.checked_mul(i128::from(size)))?;
    if cell <= 0 {
        return None;
    }
    u128::try_from(ceil_i128(volume, cell)).ok()
}

/// A closed range `[lo, hi]` of a row of the full tiles' parallelepiped.
type Range128 = (i128, i128);

/// The parallelepiped of [`super::TileGeometry::full_tiles_lower_bound`]: the inverse band map the
/// statements with instances share and, per row `j`, the range `[lo_j, hi_j]` of `N_j·(s∘T)`
/// (their erosion rows intersected); `None` when no statement has instances or they do not
/// share the map (no full tiles are claimed).
pub(super) fn full_tile_ranges<'a>(shape: &'a BandShape, sizes: &[i64]) -> Option<(&'a [Vec<i64>], Vec<Range128>)> {
    let mut active = shape.statements.iter().filter(|s| s.instances() > 0);
    let first = active.next()?;
    if sizes.len() != shape.width || active.any(|s| s.inverse != first.inverse) {
        return None;
    }
    let m = first.inverse.len();
    let ranges = (0..m)
        .map(|j| {
            let (mut lo, mut hi) = (i128::MIN, i128::MAX);
            for s in shape.statements.iter().filter(|s| s.instances() > 0) {
                let (l, h) = erosion_row(s, j, sizes);
                lo = lo.max(l);
                hi = hi.min(h);
            }
            (lo, hi)
        })
        .collect();
    Some((first.inverse.as_slice(), ranges))
}

/// The full tiles' parallelepiped `ranges` counted row by row (`lattice_points_at_least`): the
/// roundings cost at most one layer per row instead of `Σ_k |N_jk|·s_k` of every width (0 when
/// the band has more than `LATTICE_ROWS` rows, or on overflow).
pub(super) fn full_tiles_by_layers(inverse: &[Vec<i64>], sizes: &[i64], ranges: &[(i128, i128)]) -> u128 {
    let m = inverse.len();
    if m > LATTICE_ROWS || sizes.len() != m {
        return 0;
    }
    let mut rows = [[0i128; LATTICE_ROWS]; LATTICE_ROWS];
    for (j, row) in inverse.iter().enumerate() {
        for (k, (&n, &size)) in row.iter().zip(sizes).enumerate() {
            rows[j][k] = i128::from(n) * i128::from(size);
        }
    }
    lattice_points_at_least(&mut rows, ranges).unwrap_or(0)
}

/// A lower bound of the tiles of statement `s` at `sizes` that sees border tiles. Take a row
/// `j*` of the inverse band map `N` and, in tile coordinates (`Y = s∘T`, `R = N·diag(s)`), the
/// layers `R_{j*}·T = v` on which the tile box meets the slab `lo* ≤ N_{j*}·Y ≤ hi*` (dilated
/// by the box: `v + N_{j*}·u` reaches the slab for some `u` in `[0, s − 1]`). On each such
/// layer fix one such offset `u_v` (rational, in the box); then every `T` of the layer whose
/// point `Y = s∘T + u_v` lies in the other rows' slabs, `lo_j ≤ N_j·(s∘T) + N_j·u_v ≤ hi_j`,
/// is a tile: that point of its box is in `P_S`. Those `T` are the integer points of a
/// parallelepiped of the other rows with the slabs' own widths (`u_v` only shifts them), which
/// `lattice_points_at_least` bounds layer by layer (the layers of `j*` exactly, each other row
/// by its least number of values on a layer). On a domain thin along one row (the time row of
/// skewed 3-D tiles) the layers count the tiles the slab crosses, border tiles included, which
/// the instances' bound does not see (3-D SOR at T = 16: two to three times it). The best over
/// `j*`; exact integer arithmetic, 0 on overflow. `tests/counting.rs` checks it (through
/// [`super::TileGeometry::lower_bounds`]) against the counts.
pub fn layered_tiles(s: &StatementShape, sizes: &[i64]) -> u128 {
    let m = sizes.len();
    if m > LATTICE_ROWS || s.instances() == 0 || s.inverse.len() != m || s.inverse.iter().any(|row| row.len() != m) {
        return 0;
    }
    // On the stack: the search asks for every size it screens (over 10^5 on 3-D bands).
    let mut dilated = [(0i128, 0i128); LATTICE_ROWS];
    let mut slabs = [(0i128, 0i128); LATTICE_ROWS];
    let mut rows = [[0i128; LATTICE_ROWS]; LATTICE_ROWS];
    for j in 0..m {
        let Some(range) = dilated_row(s, j, sizes) else { return 0 };
        dilated[j] = range;
        slabs[j] = slab_row(s, j);
        for k in 0..m {
            rows[j][k] = i128::from(s.inverse[j][k]) * i128::from(sizes[k]);
        }
    }
    let mut best = 0;
    for thin in 0..m {
        // The thin row first, then the others in order.
        let mut ordered = [[0i128; LATTICE_ROWS]; LATTICE_ROWS];
        let mut ranges = [(0i128, 0i128); LATTICE_ROWS];
        let others = (0..m).filter(|&j| j != thin);
        for (i, j) in std::iter::once(thin).chain(others).enumerate() {
            ordered[i] = rows[j];
            ranges[i] = if j == thin { dilated[j] } else { slabs[j] };
        }
        if let Some(points) = lattice_points_at_least(&mut ordered, &ranges[..m]) {
            best = best.max(points);
        }
    }
    best
}

/// The most rows of [`layered_tiles`]' parallelepipeds (wider bands get no layered bound).
const LATTICE_ROWS: usize = 8;

/// The slab of row `j` of `s`'s domain in band coordinates: `lower_j ≤ N_j·(Y − shift) ≤
/// upper_j`, as the range of `N_j·Y`.
fn slab_row(s: &StatementShape, j: usize) -> (i128, i128) {
    let nc: i128 = s.inverse[j].iter().zip(&s.shift).map(|(&x, &c)| i128::from(x) * i128::from(c)).sum();
    (i128::from(s.lower[j]) + nc, i128::from(s.upper[j]) + nc)
}

/// The range of `N_j·Y` over the `Y` whose tile box (`Y + [0, s − 1]`) meets the slab of row
/// `j` of `s`: [`erosion_row`]'s range widened by the box's spread of `N_j·u` on both sides.
fn dilated_row(s: &StatementShape, j: usize, sizes: &[i64]) -> Option<(i128, i128)> {
    let (lo, hi) = erosion_row(s, j, sizes);
    let mut spread = 0i128;
    for (&x, &size) in s.inverse[j].iter().zip(sizes) {
        spread = spread.checked_add(i128::from(x).checked_mul(i128::from(size - 1))?.checked_abs()?)?;
    }
    Some((lo.checked_sub(spread)?, hi.checked_add(spread)?))
}

/// A lower bound of the integer points `T` with `lo_i ≤ R_i·T ≤ hi_i` for every row `i` of the
/// square non-singular integer `R`, in the order of its rows (`None` on overflow or a singular
/// `R`): the values of `R_0·T` are the multiples of `g_0 = gcd(R_0)` (`⌊hi/g⌋ − ⌈lo/g⌉ + 1` of
/// them in range); fixing them, those of `R_1·T` on the remaining affine lattice are one residue
/// class modulo `g_1` (the gcd of `R_1` on `R_0`'s kernel), at least `⌊(hi_1 − lo_1)/g_1⌋` in
/// range whatever the class; and so on (the widths do not depend on the earlier values: a
/// parallelepiped's sections are translates). Each choice of values is one point (`R` is
/// non-singular). The `g_i` come from column operations of Euclid's algorithm (unimodular:
/// the columns but the pivots stay a basis of the kernel of the rows done), and their
/// product is `|det R|`, so the bound is the volume up to the roundings, one layer per row at
/// most.
pub(super) fn lattice_points_at_least(
    r: &mut [[i128; LATTICE_ROWS]; LATTICE_ROWS],
    ranges: &[(i128, i128)],
) -> Option<u128> {
    let m = ranges.len();
    // Bit k: column k is not a pivot yet.
    let mut free: u32 = (1u32 << m) - 1;
    let mut total = 1i128;
    for (i, &(lo, hi)) in ranges.iter().enumerate() {
        // Reduce row i on the free columns to one non-zero entry, by column operations on
        // every row.
        loop {
            let p = (0..m).filter(|&k| free & (1 << k) != 0 && r[i][k] != 0).min_by_key(|&k| r[i][k].unsigned_abs())?;
            let mut reduced = true;
            for k in 0..m {
                if k == p || free & (1 << k) == 0 || r[i][k] == 0 {
                    continue;
                }
                reduced = false;
                let q = r[i][k] / r[i][p];
                for row in r.iter_mut().take(m) {
                    row[k] = row[k].checked_sub(q.checked_mul(row[p])?)?;
                }
            }
            if reduced {
                free &= !(1 << p);
                let g = r[i][p].checked_abs()?;
                let values = if i == 0 {
                    floor_i128(hi, g).checked_sub(ceil_i128(lo, g))?.checked_add(1)?
                } else {
                    floor_i128(hi.checked_sub(lo)?, g)
                };
                if values <= 0 {
                    return Some(0);
                }
                total = total.checked_mul(values)?;
                break;
            }
        }
    }
    u128::try_from(total).ok()
}

/// Every pinning of `s` ([`Pinnings`]): each set of free columns with each set of as many rows
/// as there are other columns whose square submatrix is non-singular (at most `Σ_k C(m, k)²`,
/// 70 for four rows; computed once per band, evaluated per tile size).
pub(super) fn pinnings_of(s: &StatementShape) -> Pinnings {
    let m = s.map.len();
    let columns = s.lower.len();
    let mut by_rows: Vec<(u32, Vec<u32>)> = Vec::new();
    let (lower, upper) = (s.lower.clone(), s.upper.clone());
    if m > MAX_PINNING_ROWS || columns != m {
        // Not a band of this compiler: none, the plain bound stays.
        return Pinnings { columns, by_rows, lower, upper, free: Vec::new() };
    }
    for rows in 0u32..(1 << m) {
        let mut frees = Vec::new();
        for free in 0u32..(1 << m) {
            let others: Vec<usize> = (0..m).filter(|&j| free & (1 << j) == 0).collect();
            if rows.count_ones() as usize != others.len() {
                continue;
            }
            let square: Vec<Vec<i64>> = (0..m)
                .filter(|&k| rows & (1 << k) != 0)
                .map(|k| others.iter().map(|&j| s.map[k][j]).collect())
                .collect();
            // Band entries are bounded (`shape::MAX_BAND_COEFFICIENT`): no overflow here.
            if crate::shape::determinant(&square) != Some(0) {
                frees.push(free);
            }
        }
        if !frees.is_empty() {
            by_rows.push((rows, frees));
        }
    }
    let free = box_products(s, columns);
    Pinnings { columns, by_rows, lower, upper, free }
}

/// Lower bounds of the number of inter-tile wavefronts and of the number of tiles, without
/// counting: every `w` between the smallest and the largest `Σ_k ⌊φ_k / s_k⌋` of an instance
/// has a tile (a path through `P_S` crosses the tile boundaries one at a time), and
/// `Σ_k ⌊φ_k / s_k⌋` is within `Σ_k (s_k − 1)/s_k` of the linear `Σ_k φ_k / s_k`, whose
/// extremes over a box are at its corners; a tile holds at most `s_1 ⋯ s_m` instances of a
/// statement.
pub fn lower_bounds(shape: &BandShape, sizes: &[i64]) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut most = 0u128;
    for s in shape.statements.iter().filter(|s| s.instances() > 0) {
        most = most.max(s.instances());
        let mut a: f64 = (0..shape.width).map(|k| s.shift[k] as f64 / sizes[k] as f64).sum();
        let mut b = a;
        for j in 0..shape.width {
            let g: f64 = (0..shape.width).map(|k| s.map[k][j] as f64 / sizes[k] as f64).sum();
            let (x, y) = (g * s.lower[j] as f64, g * s.upper[j] as f64);
            a += x.min(y);
            b += x.max(y);
        }
        lo = lo.min(a);
        hi = hi.max(b);
    }
    let slack: f64 = sizes.iter().map(|&s| (s - 1) as f64 / s as f64).sum();
    let wavefronts = (hi - lo - slack + 1.0).floor().max(1.0);
    let points: f64 = sizes.iter().map(|&s| s as f64).product();
    (wavefronts, (most as f64 / points).ceil().max(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry is the product of its subset's values, saturating at `u128::MAX`.
    #[test]
    fn subset_products_multiply_each_subset() {
        let values = [3u128, 5, 7, 11];
        let products = subset_products(values.iter().copied(), 4);
        assert_eq!(products.len(), 16);
        for (mask, &p) in products.iter().enumerate() {
            let expected: u128 = (0..4).filter(|&j| mask & (1 << j) != 0).map(|j| values[j]).product();
            assert_eq!(p, expected, "subset {mask:04b}");
        }
        let huge = subset_products([u128::MAX / 2, 3].into_iter(), 2);
        assert_eq!(huge[3], u128::MAX);
        assert_eq!(subset_products(std::iter::empty(), 0), vec![1]);
    }

    /// The pinnings' kept box products are the statement's own: a statement of another box (the
    /// same band map) gets the same most instances as from pinnings made with its box.
    #[test]
    fn pinnings_weigh_the_box_of_the_statement_asked_about() {
        let statement = |upper: Vec<i64>| StatementShape {
            name: "S".into(),
            map: vec![vec![1, 0, 0], vec![1, 1, 0], vec![1, 0, 1]],
            shift: vec![0, 0, 0],
            inverse: vec![vec![1, 0, 0], vec![-1, 1, 0], vec![-1, 0, 1]],
            lower: vec![0, 1, 1],
            upper,
            accesses: vec![],
            operations: 1,
        };
        let (made, other) = (statement(vec![15, 62, 62]), statement(vec![3, 1000, 7]));
        let pinnings = pinnings_of(&made);
        assert!(!pinnings.by_rows.is_empty(), "a skewed band pins");
        for sizes in [[1i64, 1, 1], [4, 8, 16], [16, 2, 64], [100, 100, 100]] {
            let rows = size_products(&sizes);
            assert_eq!(
                pinnings.most_instances(&other, &rows),
                pinnings_of(&other).most_instances(&other, &rows),
                "{sizes:?}"
            );
        }
        assert_ne!(
            pinnings.most_instances(&made, &size_products(&[100, 100, 100])),
            pinnings.most_instances(&other, &size_products(&[100, 100, 100])),
            "the boxes differ where a tile outgrows the smaller one"
        );
    }

    /// The integer points of `lo ≤ R·T ≤ hi` by enumerating the values `v = R·T` in the box and
    /// keeping those with an integer `T = adj(R)·v / det R`.
    fn lattice_points_by_values(r: &[Vec<i128>], ranges: &[(i128, i128)]) -> u128 {
        let m = r.len();
        let rows: Vec<Vec<i64>> = r.iter().map(|row| row.iter().map(|&x| x as i64).collect()).collect();
        let det = crate::shape::determinant(&rows).unwrap();
        // adj(R)_{ij} = (−1)^{i+j}·minor_{ji}.
        let adj: Vec<Vec<i128>> = (0..m)
            .map(|i| {
                (0..m)
                    .map(|j| {
                        let minor: Vec<Vec<i64>> = (0..m)
                            .filter(|&a| a != j)
                            .map(|a| (0..m).filter(|&b| b != i).map(|b| rows[a][b]).collect())
                            .collect();
                        let sign = if (i + j) % 2 == 0 { 1 } else { -1 };
                        sign * crate::shape::determinant(&minor).unwrap()
                    })
                    .collect()
            })
            .collect();
        let mut count = 0;
        let mut v: Vec<i128> = ranges.iter().map(|&(lo, _)| lo).collect();
        'values: loop {
            if (0..m).all(|i| (0..m).map(|j| adj[i][j] * v[j]).sum::<i128>() % det == 0) {
                count += 1;
            }
            for d in 0..m {
                if v[d] < ranges[d].1 {
                    v[d] += 1;
                    continue 'values;
                }
                v[d] = ranges[d].0;
            }
            break;
        }
        count
    }

    #[test]
    fn lattice_point_bounds_are_below_the_points() {
        // Pseudo-random non-singular 2×2 and 3×3 matrices with entries in −4..=4 and ranges of
        // widths 0..=14: the bound never exceeds the points, and is often close.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: i128| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as i128
        };
        let (mut checked, mut close) = (0, 0);
        while checked < 400 {
            let m = 2 + next(2) as usize;
            let r: Vec<Vec<i128>> = (0..m).map(|_| (0..m).map(|_| next(9) - 4).collect()).collect();
            let rows: Vec<Vec<i64>> = r.iter().map(|row| row.iter().map(|&x| x as i64).collect()).collect();
            if crate::shape::determinant(&rows) == Some(0) {
                continue;
            }
            let ranges: Vec<(i128, i128)> = (0..m)
                .map(|_| {
                    let lo = next(21) - 10;
                    (lo, lo + next(15))
                })
                .collect();
            let exact = lattice_points_by_values(&r, &ranges);
            let mut rows = [[0i128; LATTICE_ROWS]; LATTICE_ROWS];
            for (i, row) in r.iter().enumerate() {
                rows[i][..m].copy_from_slice(row);
            }
            let bound = lattice_points_at_least(&mut rows, &ranges).unwrap();
            assert!(bound <= exact, "R {r:?}, ranges {ranges:?}: bound {bound} > {exact} points");
            if 2 * bound >= exact {
                close += 1;
            }
            checked += 1;
        }
        assert!(close > 100, "{close} of {checked} bounds within half the points");
    }
}
