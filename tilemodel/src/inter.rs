//! Exact inter-tile counts: the inter-tile wavefronts (thesis Eq. 3.17's `w = Σ_k T_k`, one
//! kernel launch each in our mapping) and, per wavefront, its tiles and how many of them are
//! full (thesis Eq. 5.9–5.11's `U_{t'_1} − L_{t'_1} + 1`, and §5.3.4's border tiles).
//!
//! **Which tiles.** A tile `T` (tile coordinates `T_k = ⌊φ_k / s_k⌋`, Eq. 3.14) is counted when
//! its box `s∘T + [0, s − 1]` meets the image `P_S = {φ_S(i) : i in the domain}` of some
//! statement's domain — over the rationals, which is what the scanned tile loops enumerate
//! (their bounds are the rational projection of the tiled domain onto the tile dimensions,
//! thesis §3.2.7) and what the GPU mapping runs a block for. A tile is **full** when its box
//! lies inside every statement's `P_S`: then it runs `s_1 × … × s_m` instances of each
//! statement (Eq. 5.6; the band map is unimodular, [`crate::shape`]).
//!
//! **How.** With `Y = s∘T`, a tile is counted iff `Y ∈ P_S ⊕ [−(s − 1), 0]`. `P_S` is a
//! parallelepiped (the unimodular image of the domain box), so this Minkowski sum is a
//! zonotope, and so is its projection onto the first `k` coordinates; a zonotope's facets are
//! normal to `k − 1` of its generator directions, which here are the band map's columns and the
//! unit vectors — independent of the tile and problem sizes. So the normals of every prefix
//! projection are computed once ([`TileGeometry::new`]), and for given sizes each normal's
//! range is a closed form (its support function). Enumerating `T_1`, then `T_2` given `T_1`, …,
//! gives for every prefix `(T_1, …, T_{m−1})` the interval of `T_m` in `O(normals)`: the count
//! costs one step per prefix, not per tile. Full tiles use the erosion `P_S ⊖ [0, s − 1]`,
//! whose facets are `P_S`'s. Tests compare both with enumeration (`tests/inputs_brute_force.rs`).
//! That counter is kept as [`count_tiles_by_rows`].
//!
//! **Faster** ([`count_tiles`]). The rows `(T_0, …, T_{m−2})` are as many as the tiles divided
//! by the length of a row: at GPU sizes millions per count. [`count_tiles`] enumerates only the
//! prefixes `(T_0, …, T_{m−3})` and counts the last two coordinates `u = T_{m−2}`,
//! `v = T_{m−1}` of each prefix in closed form:
//!
//! 1. *Envelopes.* At a fixed prefix each facet of the last level is a pair of lines
//!    `v ≥ ℓ_f(u)`, `v ≤ h_f(u)` (`ℓ_f(u) = (lo_f − pre_f − a_f·u)/b_f`, `b_f > 0`), so the
//!    interval of `v` is `[⌈max_f ℓ_f(u)⌉, ⌊min_f h_f(u)⌋]` (the ceiling is monotone, so
//!    `max_f ⌈ℓ_f⌉ = ⌈max_f ℓ_f⌉`). The maximum of lines is convex and piecewise linear: it is
//!    computed exactly over the integers of the prefix's `u` interval (a breakpoint is the
//!    first integer where a steeper line exceeds the current one, by integer division), so on
//!    each piece one lower and one upper line bound `v`. The pieces' pairs whose rational
//!    `ℓ(u) ≤ h(u)` fails are dropped (a linear condition in `u`); where it holds,
//!    `⌊h⌋ − ⌈ℓ⌉ + 1 ≥ 0` is the number of tiles.
//! 2. *Progressions.* A row of tiles adds `+1` at wavefront `σ + u + ⌈ℓ(u)⌉` and `−1` at
//!    `σ + u + ⌊h(u)⌋ + 1` of a difference array (`σ` the prefix's sum), as the row counter
//!    does. With `ℓ(u) = (c − a·u)/b`, `u + ⌈ℓ(u)⌉ = ⌈((b − a)·u + c)/b⌉`, which grows by exactly
//!    `(b − a)/g` when `u` grows by `b/g` (`g = gcd(a, b)`): a piece's `u`s form at most `b/g`
//!    arithmetic progressions whose marks are arithmetic progressions of wavefronts. Each is
//!    recorded by two marks in an array per stride and summed along the stride at the end
//!    (`F[x] = marks[x] + F[x − stride]`), so a piece costs `O(min(b/g, its length))` instead
//!    of its length; with equal sizes on the two rows `b/g` is at most the normal's last
//!    coefficient (1 or 2 in the examples' bands).
//! 3. *Unions.* Several statements' tiles are the union of their polygons at the prefix:
//!    counted by inclusion–exclusion over the intersections (each a polygon of the lines of
//!    its members) for up to [`MAX_INCLUSION`] statements, by merging the intervals of every
//!    `u` beyond (then `u` is stepped by additions along the envelopes). Full tiles are one
//!    polygon, the intersection of the erosions.
//! 4. *Order.* The wavefronts `Σ_k T_k` do not depend on the order of the band rows, so the
//!    count runs on the rows reordered (map rows, shifts and the inverse's columns permuted,
//!    normals of the reordered zonotope computed once per order) with the two rows of the most
//!    tile coordinates last: the prefixes enumerated are the fewest.
//!
//! 5. *Counts that may stop* ([`count_tiles_unless`], what the search counts with). The outermost
//!    coordinate's values are taken from the middle of their range outwards (the middle slices
//!    hold the most tiles per prefix), the stop is asked with the totals counted so far (kept
//!    with the marks) and a bound of the tiles left (the instances whose outermost tile
//!    coordinate is not taken yet, from a histogram of that row, over the most a tile holds), and
//!    now and then with the counts per wavefront; in 3-D the full tiles are counted in a second
//!    pass, only by counts that did not stop, after one more question with every tile counted
//!    (the tiles per wavefront exact). None of it changes a count.
//!
//! 6. *Bounds before counting* ([`TileGeometry::lower_bounds`], what the search prunes sizes
//!    with): besides the instances over the most a tile holds, [`layered_tiles`] counts the
//!    layers of tiles a thin row's slab crosses (border tiles included) and bounds each
//!    layer's tiles row by row ([`TileGeometry::full_tiles_lower_bound`] the full tiles alike);
//!    [`row_symmetries`] says which sizes have the same counts (the search counts one of each
//!    family).
//!
//! 7. *Long iterators* (`crate::period`). Along an iterator of a band whose statements share
//!    the band map the tiles repeat: a step `Δ` of it moves tile corners to tile corners and
//!    wavefronts by `δ`, so the counts over a long range are those of a short one plus shifted
//!    copies of what its last `Δ` values add. Where that costs less than counting directly (SOR runs of many
//!    sweeps, whose every band row grows with the time), or where a direct count would hold too
//!    many wavefronts, [`count_tiles`] counts the short range twice and sums;
//!    [`count_tiles_by_period`] always does, for the tests. Past the short counts' wavefronts
//!    the sums repeat with period `δ`: that stretch is kept once with how often it repeats
//!    ([`Repeat`]), and the models sum over it in closed form ([`PerWavefront`]), so a run of
//!    10^8 sweeps costs what one of a few hundred does.
//!
//! *Where.* The counts' type and its sums ([`InterTileCounts`], [`PerWavefront`]) are in
//! `inter/counts.rs`; the closed form of the last two coordinates (lines, envelopes, the
//! polygons swept, steps 1–3) in `inter/envelope.rs`; the bounds before counting (step 6) in
//! `inter/bounds.rs`; the counter that enumerates the prefixes, with its questions to a count
//! that may stop, in `inter/counter.rs`; the geometry (normals, row orders, histograms, spare
//! arrays) and the entry points here.
//!
//! All of it is exact integer arithmetic (`i128` where a product may not fit 64 bits, checked:
//! sizes that would overflow give [`TileModelError::Overflow`]), and what a count allocates is
//! bounded: at most [`MAX_WAVEFRONTS`] wavefronts kept (past it an error naming the sizes), and the
//! histograms of the tiles left at most [`MAX_HISTOGRAM`] long (past it left out, bounding
//! nothing). `tests/counting.rs` compares
//! [`count_tiles`] with [`count_tiles_by_rows`] on the examples' bands at sizes too large for
//! brute force and on random unimodular bands of 1–5 statements and widths 2–5.

use std::sync::{Arc, Mutex};

use crate::error::{Result, TileModelError};
use crate::period::by_period;
use crate::shape::{BandShape, StatementShape};

mod bounds;
mod counter;
mod counts;
mod envelope;

use bounds::{full_tile_ranges, full_tiles_by_layers, full_tiles_by_volume, pinnings_of, size_products, Pinnings};
pub use bounds::{layered_tiles, lower_bounds};
pub use counter::MAX_INCLUSION;
use counter::{count, Mode};
pub use counts::{InterTileCounts, PerWavefront, Repeat};

/// The facet normals of every prefix projection of every statement's tile zonotope
/// (module documentation); computed once per [`BandShape`].
#[derive(Debug, Clone)]
pub struct TileGeometry {
    /// Per statement, per level `k` (0-based: coordinates `0..=k`), the normals with a
    /// non-zero last coefficient (the others are implied by the previous levels).
    normals: Normals,
    /// The same for the band rows taken in another order ([`count_tiles`] puts the two rows
    /// with the most tiles last), computed when first needed; by order.
    reordered: Arc<Mutex<Vec<Reordered>>>,
    /// Per band row, per statement, [`outer_row_histogram`] of that row (what a count that may
    /// stop bounds the tiles left with, when the row is its outermost), computed when first
    /// needed, with what it was computed from: a shape cut along an iterator (counts by period)
    /// has other domains than the band's, and must not take the band's histograms.
    histograms: Arc<Mutex<Vec<(usize, HistogramSource, Histograms)>>>,
    /// Per statement, its [`Pinnings`] (what [`TileGeometry::lower_bounds`] bounds a tile's
    /// instances with).
    pinnings: Vec<Pinnings>,
    /// The wavefront arrays of counts done (difference arrays and progression marks), kept for
    /// the next count: the search counts thousands of sizes, and allocating and zeroing fresh
    /// arrays of a few 10^4 wavefronts each time cost a fifth of a 2-D count.
    spare: Arc<Mutex<Vec<Vec<i64>>>>,
}

/// The most arrays [`TileGeometry`] keeps for later counts.
const SPARE_ARRAYS: usize = 64;

/// The most spare arrays one count takes (its difference arrays and a few progressions' marks).
const SPARE_PER_COUNT: usize = 16;

/// What [`outer_row_histogram`] reads of each statement for one row: the row of the band map,
/// its shift, and the domain box.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HistogramSource(Vec<RowOfStatement>);

/// One statement's part of a [`HistogramSource`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct RowOfStatement {
    map_row: Vec<i64>,
    shift: i64,
    lower: Vec<i64>,
    upper: Vec<i64>,
}

impl HistogramSource {
    fn of(shape: &BandShape, row: usize) -> HistogramSource {
        HistogramSource(
            shape
                .statements
                .iter()
                .map(|s| RowOfStatement {
                    map_row: s.map.get(row).cloned().unwrap_or_default(),
                    shift: s.shift.get(row).copied().unwrap_or(0),
                    lower: s.lower.clone(),
                    upper: s.upper.clone(),
                })
                .collect(),
        )
    }

    /// Whether `shape`'s row `row` is what these histograms were computed from (compared in
    /// place: asked once per count that may stop).
    fn describes(&self, shape: &BandShape, row: usize) -> bool {
        self.0.len() == shape.statements.len()
            && self.0.iter().zip(&shape.statements).all(|(r, s)| {
                s.map.get(row).is_some_and(|m| *m == r.map_row)
                    && s.shift.get(row) == Some(&r.shift)
                    && s.lower == r.lower
                    && s.upper == r.upper
            })
    }
}

/// Per statement, the least value of a row's `φ` and the prefix sums of its histogram.
type Histograms = Arc<Vec<(i64, Vec<u128>)>>;

/// An order of the band rows with the normals of the reordered band.
type Reordered = (Vec<usize>, Arc<Normals>);

/// Per statement, per level, the normals (see [`TileGeometry`]).
type Normals = Vec<Vec<Vec<Vec<i64>>>>;

impl TileGeometry {
    /// The normals of `shape`'s statements.
    pub fn new(shape: &BandShape) -> TileGeometry {
        TileGeometry {
            normals: normals_of(shape),
            reordered: Default::default(),
            histograms: Default::default(),
            pinnings: shape.statements.iter().map(pinnings_of).collect(),
            spare: Default::default(),
        }
    }

    /// Some of the arrays kept from earlier counts (see [`TileGeometry::spare`]), taken: at most
    /// [`SPARE_PER_COUNT`], so that counts on other threads find some too.
    fn take_spare(&self) -> Vec<Vec<i64>> {
        let mut spare = match self.spare.lock() {
            Ok(spare) => spare,
            Err(poisoned) => poisoned.into_inner(),
        };
        let keep = spare.len().saturating_sub(SPARE_PER_COUNT);
        spare.split_off(keep)
    }

    /// Keeps `arrays` for later counts (at most [`SPARE_ARRAYS`]).
    fn give_back(&self, arrays: Vec<Vec<i64>>) {
        let mut spare = match self.spare.lock() {
            Ok(spare) => spare,
            Err(poisoned) => poisoned.into_inner(),
        };
        for a in arrays {
            if spare.len() >= SPARE_ARRAYS {
                break;
            }
            spare.push(a);
        }
    }

    /// [`lower_bounds`] with a tighter bound of the tiles: per statement, its instances over
    /// the most instances one tile can hold by the best of its pinnings (`Pinnings`). `s_1 ⋯ s_m` (every
    /// row, no iterator: the map is unimodular) is one of them, so this is never below
    /// [`lower_bounds`]'s; on skewed bands it is much higher (a tile of 3-D SOR with
    /// `s_1 = s_3 = 1` holds at most `2·T` of its `s_0·s_2` points: fixing `t` and two rows
    /// leaves two instances).
    ///
    /// Valid: every instance lies in exactly one tile (the tiles partition the band's space),
    /// that tile is counted (its box meets `P_S`), and it holds at most that many instances of
    /// the statement; the tiles of several statements are the union of theirs, so at least
    /// the most of any one statement. And per statement [`layered_tiles`], which sees the
    /// border tiles of a domain thin along one of its rows (skewed time tiles: two to three
    /// times the instances' bound on 3-D SOR at T = 16). Search relies on it being at most the counted total
    /// (a lower bound of a model's time must not exceed its prediction); `tests/counting.rs`
    /// checks it against [`count_tiles`].
    pub fn lower_bounds(&self, shape: &BandShape, sizes: &[i64]) -> (f64, f64) {
        let (wavefronts, mut most) = self.instance_lower_bounds(shape, sizes);
        for s in &shape.statements {
            most = most.max(layered_tiles(s, sizes) as f64);
        }
        (wavefronts, most)
    }

    /// [`TileGeometry::lower_bounds`] without [`layered_tiles`]: the instances over the most a
    /// tile holds alone (cheaper; what the search orders and first prunes every size with).
    pub fn instance_lower_bounds(&self, shape: &BandShape, sizes: &[i64]) -> (f64, f64) {
        let (wavefronts, tiles) = lower_bounds(shape, sizes);
        let mut most = tiles;
        for (s, per_tile) in shape.statements.iter().zip(self.most_per_tile(shape, sizes)) {
            let instances = s.instances();
            if instances == 0 {
                continue;
            }
            most = most.max(instances.div_ceil(per_tile) as f64);
        }
        (wavefronts, most)
    }

    /// Per statement, the most of its instances one tile of `sizes` can hold: the least over
    /// its pinnings ([`Pinnings::most_instances`]: at least 1).
    fn most_per_tile(&self, shape: &BandShape, sizes: &[i64]) -> Vec<u128> {
        let rows = size_products(sizes);
        shape.statements.iter().zip(&self.pinnings).map(|(s, pinnings)| pinnings.most_instances(s, &rows)).collect()
    }

    /// A lower bound of the full tiles (thesis §5.3.4) without counting: their corners are the
    /// `T` with `s∘T` in every statement's erosion `P_S ⊖ [0, s − 1]` ([`count_tiles`]' full
    /// tiles), the parallelepiped `lo_j ≤ N_j·(s∘T) ≤ hi_j` (`N` the inverse band map, rows `j`)
    /// — one parallelepiped when the statements share `N` (the ranges intersected), else none
    /// is claimed (0). A convex `K` holds at least `vol(D)` integer points,
    /// `D = {x : x + [−1, 0]^m ⊆ K}` (`x ↦ ⌊x⌋` maps `D` into them, at most a unit cube onto
    /// each); here `D` is the parallelepiped with every range `[lo_j, hi_j]` narrowed by
    /// `Σ_k |N_jk|·s_k`, of volume `Π_j width_j / Π_k s_k` (`N` is unimodular). So at least
    /// that, rounded up (counts are integers), in exact integer arithmetic (0 on overflow); or,
    /// when more, `lattice_points_at_least`' bound of the same parallelepiped (its rows'
    /// layers, which lose at most one layer per row to the roundings: 2-D and small 3-D tiles'
    /// full tiles, where the volume's narrowing leaves nothing).
    /// It lets the thesis model's size bound weigh full tiles fully before counting
    /// ([`crate::model::BoundInputs::full`]); `tests/counting.rs` checks it against the counts.
    pub fn full_tiles_lower_bound(&self, shape: &BandShape, sizes: &[i64]) -> f64 {
        self.full_tiles_at_least(shape, sizes, true)
    }

    /// [`TileGeometry::full_tiles_lower_bound`] by the volume alone (cheaper; what the search
    /// orders and first prunes every size with).
    pub fn full_tiles_volume_bound(&self, shape: &BandShape, sizes: &[i64]) -> f64 {
        self.full_tiles_at_least(shape, sizes, false)
    }

    /// The full tiles' bound by the volume, and with `layers` by the layers too.
    fn full_tiles_at_least(&self, shape: &BandShape, sizes: &[i64], layers: bool) -> f64 {
        let Some((inverse, ranges)) = full_tile_ranges(shape, sizes) else { return 0.0 };
        let by_volume = full_tiles_by_volume(inverse, sizes, &ranges).unwrap_or(0);
        if !layers {
            return by_volume as f64;
        }
        by_volume.max(full_tiles_by_layers(inverse, sizes, &ranges)) as f64
    }

    /// What [`TileGeometry::lower_bounds`] and [`TileGeometry::full_tiles_lower_bound`] add to
    /// the cheaper [`TileGeometry::instance_lower_bounds`] and
    /// [`TileGeometry::full_tiles_volume_bound`]: the most [`layered_tiles`] of any statement,
    /// and the full tiles' bound by the parallelepiped's layers (`lattice_points_at_least`),
    /// each 0 where not claimed. Each of the former is exactly the greater of the latter and
    /// these (the same integers maximised in another order; `u128 → f64` never decreases), so a
    /// caller that has the cheaper bounds of a size gets the layered ones without computing the
    /// cheaper parts again (the search's second pass over the sizes, thesis Alg. 5.1's branch and
    /// bound). `tests/counting.rs` checks the identity.
    pub fn layer_bounds(&self, shape: &BandShape, sizes: &[i64]) -> (f64, f64) {
        let tiles = shape.statements.iter().map(|s| layered_tiles(s, sizes) as f64).fold(0.0, f64::max);
        let full = match full_tile_ranges(shape, sizes) {
            Some((inverse, ranges)) => full_tiles_by_layers(inverse, sizes, &ranges) as f64,
            None => 0.0,
        };
        (tiles, full)
    }

    /// Per statement of `shape`, [`outer_row_histogram`] of band row `row` (cached); none at all
    /// when one statement's would be longer than [`MAX_HISTOGRAM`] (or not fit its integers):
    /// the histograms only bound the tiles a count that may stop has left (`Counter::tiles_left`
    /// in `inter/counter.rs`, then 0), so such a count stops later, never counts otherwise.
    fn histograms(&self, shape: &BandShape, row: usize) -> Histograms {
        let mut cache = match self.histograms.lock() {
            Ok(cache) => cache,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some((_, _, h)) = cache.iter().find(|(r, of, _)| *r == row && of.describes(shape, row)) {
            return h.clone();
        }
        let h: Option<Vec<_>> = shape.statements.iter().map(|s| outer_row_histogram(s, row)).collect();
        let h: Histograms = Arc::new(h.unwrap_or_default());
        cache.push((row, HistogramSource::of(shape, row), h.clone()));
        h
    }

    /// The normals of `shape` with its band rows in `order` (`reordered`, that shape).
    fn for_order(&self, order: &[usize], reordered: &BandShape) -> Arc<Normals> {
        let mut cache = match self.reordered.lock() {
            Ok(cache) => cache,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some((_, n)) = cache.iter().find(|(o, _)| o == order) {
            return n.clone();
        }
        let n = Arc::new(normals_of(reordered));
        cache.push((order.to_vec(), n.clone()));
        n
    }
}

/// The widest band whose row symmetries [`row_symmetries`] looks for (`m!` row orders, each
/// with up to `m!` iterator orders; the examples' bands have four rows).
pub const MAX_SYMMETRY_ROWS: usize = 5;

/// The orders `π` of the band rows (not the identity; `π[k]` is the row that takes place `k`)
/// that map every statement's image `P_S = {φ_S(i) : i in its domain}` onto itself: then the
/// tiles of sizes `s` and of the permuted sizes `s'_k = s_{π[k]}` correspond one to one
/// (`T ↦ T'`, `T'_k = T_{π[k]}`), with the same wavefront `Σ_k T_k`, the same full tiles, so
/// [`count_tiles`] gives both the same counts (the search counts one size of each such
/// family; `tests/counting.rs` checks the equality).
///
/// Why: with `Π` the coordinate permutation `(Π·Y)_k = Y_{π[k]}`, a tile box of the permuted
/// sizes at `Π·T` is `Π` applied to the box of `s` at `T`; a bijection keeps meeting and
/// containment, so the box meets (lies in) `P_S` iff its image meets (lies in) `Π·P_S`. And
/// `Π·P_S = P_S` when some order `σ` of the iterators keeps the domain box
/// (`lower_{σ(j)} = lower_j`, `upper` the same) and `map_{π[k], σ(j)} = map_{k, j}`,
/// `shift_{π[k]} = shift_k` (then `Π·φ(i) = φ(i')` with `i'_j = i_{σ(j)}`, and `i ↦ i'` maps the
/// box onto itself) — one `σ`
/// for every statement, as the tiles of several statements are counted together. Bands wider
/// than [`MAX_SYMMETRY_ROWS`] get none (each order is tried).
pub fn row_symmetries(shape: &BandShape) -> Vec<Vec<usize>> {
    let m = shape.width;
    if m > MAX_SYMMETRY_ROWS || shape.statements.iter().any(|s| s.map.len() != m || s.map.iter().any(|r| r.len() != m))
    {
        return Vec::new();
    }
    let orders = permutations(m);
    let keeps = |pi: &[usize], sigma: &[usize]| {
        shape.statements.iter().all(|s| {
            (0..m).all(|j| s.lower[sigma[j]] == s.lower[j] && s.upper[sigma[j]] == s.upper[j])
                && (0..m).all(|k| s.shift[pi[k]] == s.shift[k] && (0..m).all(|j| s.map[pi[k]][sigma[j]] == s.map[k][j]))
        })
    };
    orders
        .iter()
        .filter(|pi| pi.iter().enumerate().any(|(k, &p)| k != p))
        .filter(|pi| orders.iter().any(|sigma| keeps(pi, sigma)))
        .cloned()
        .collect()
}

/// Every order of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for k in 0..n {
        out = out
            .into_iter()
            .flat_map(|p: Vec<usize>| {
                (0..=k).map(move |at| {
                    let mut q = p.clone();
                    q.insert(at, k);
                    q
                })
            })
            .collect();
    }
    out
}

/// The longest array [`zeroed`] takes from the spare ones: longer ones are allocated zeroed
/// (fresh pages cost nothing until written, and a long 1-D count writes few of them, while
/// zeroing a kept array writes every entry).
const SPARE_SPAN: usize = 1 << 15;

/// An array of `span` zeros: a spare one zeroed when short enough ([`SPARE_SPAN`]), else a
/// new one.
fn zeroed(spare: &mut Vec<Vec<i64>>, span: usize) -> Vec<i64> {
    if span > SPARE_SPAN {
        return vec![0; span];
    }
    let mut v = spare.pop().unwrap_or_default();
    v.clear();
    v.resize(span, 0);
    v
}

fn normals_of(shape: &BandShape) -> Normals {
    let m = shape.width;
    shape.statements.iter().map(|s| (0..m).map(|k| level_normals(s, k + 1)).collect()).collect()
}

/// `shape` with its band rows in `order` (row `k` of the result is row `order[k]`): the map's
/// rows and the shifts permuted, the inverse's columns with them; the domains unchanged. The
/// tiles of the result are the tiles of `shape` with their coordinates permuted, so each
/// wavefront `Σ_k T_k` has the same tiles.
fn reorder(shape: &BandShape, order: &[usize]) -> BandShape {
    let mut out = shape.counting_copy();
    for s in out.statements.iter_mut() {
        s.map = order.iter().map(|&k| s.map[k].clone()).collect();
        s.shift = order.iter().map(|&k| s.shift[k]).collect();
        s.inverse = s.inverse.iter().map(|row| order.iter().map(|&k| row[k]).collect()).collect();
    }
    out
}

/// The normals, in `R^k`, of the zonotope generated by the first `k` coordinates of the band
/// map's columns and the unit vectors `e_0..e_{k−1}`, keeping those with `a_{k−1} ≠ 0`.
fn level_normals(s: &StatementShape, k: usize) -> Vec<Vec<i64>> {
    if k == 1 {
        return vec![vec![1]];
    }
    let mut directions: Vec<Vec<i64>> = Vec::new();
    let mut push = |v: Vec<i64>| {
        if v.iter().any(|&x| x != 0) && !directions.iter().any(|d| parallel(d, &v)) {
            directions.push(v);
        }
    };
    for j in 0..s.map.len() {
        push((0..k).map(|q| s.map[q][j]).collect());
    }
    for q in 0..k {
        push((0..k).map(|p| i64::from(p == q)).collect());
    }
    let mut normals: Vec<Vec<i64>> = Vec::new();
    for subset in subsets(directions.len(), k - 1) {
        let vectors: Vec<&Vec<i64>> = subset.iter().map(|&d| &directions[d]).collect();
        let mut a: Vec<i64> = (0..k)
            .map(|i| {
                let minor: Vec<Vec<i64>> = vectors
                    .iter()
                    .map(|v| v.iter().enumerate().filter(|&(c, _)| c != i).map(|(_, &x)| x).collect())
                    .collect();
                let sign = if i % 2 == 0 { 1 } else { -1 };
                // Band entries are bounded (`shape::MAX_BAND_COEFFICIENT`): the minors fit.
                crate::shape::determinant(&minor).and_then(|d| i64::try_from(sign * d).ok()).unwrap_or(0)
            })
            .collect();
        let g = a.iter().fold(0i64, |g, &x| gcd(g, x.abs()));
        if g == 0 || a[k - 1] == 0 {
            continue;
        }
        for x in a.iter_mut() {
            *x /= g;
        }
        if a[k - 1] < 0 {
            for x in a.iter_mut() {
                *x = -*x;
            }
        }
        if !normals.contains(&a) {
            normals.push(a);
        }
    }
    normals
}

fn parallel(a: &[i64], b: &[i64]) -> bool {
    (0..a.len())
        .all(|i| (0..a.len()).all(|j| i128::from(a[i]) * i128::from(b[j]) == i128::from(a[j]) * i128::from(b[i])))
}

/// `gcd(a, b)` of non-negative numbers (`gcd(a, 0) = a`).
pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Every `r`-subset of `0..n`, in lexicographic order.
fn subsets(n: usize, r: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(r);
    fn go(start: usize, n: usize, r: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == r {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            current.push(i);
            go(i + 1, n, r, current, out);
            current.pop();
        }
    }
    go(0, n, r, &mut current, &mut out);
    out
}

/// An estimate of the work of [`count_tiles`], in prefixes: the tile-row prefixes
/// `(T_0, …, T_{m−3})` it enumerates at most (the extents of every band row but the two with
/// the most tiles, multiplied; it puts those last), times the statements (each has its polygon
/// per prefix). The search weighs it against the cost of a block's warps
/// ([`crate::intra::warps_cost`]) to choose which comes first.
pub fn count_cost(shape: &BandShape, sizes: &[i64]) -> u64 {
    cost_of_ranges(&shape.row_ranges(), sizes, shape.statements.len())
}

/// [`count_cost`] of a band whose rows span `ranges`, of `statements` statements.
pub(crate) fn cost_of_ranges(ranges: &[(i64, i64)], sizes: &[i64], statements: usize) -> u64 {
    let mut extents: Vec<u64> = ranges
        .iter()
        .zip(sizes)
        .map(|(&(lo, hi), &s)| (hi.div_euclid(s.max(1)) - lo.div_euclid(s.max(1))).saturating_add(1).max(1) as u64)
        .collect();
    extents.sort_unstable();
    let keep = extents.len().saturating_sub(2);
    let prefixes = extents[..keep].iter().fold(1u64, |p, &e| p.saturating_mul(e));
    prefixes.saturating_mul(statements.max(1) as u64)
}

/// Counting limits: the most steps one count may take — tile rows visited by
/// [`count_tiles_by_rows`] (and by [`count_tiles`] beyond [`MAX_INCLUSION`] statements), or
/// arithmetic progressions of wavefronts marked by [`count_tiles`].
pub const MAX_PREFIXES: u64 = 50_000_000;

/// The inter-tile counts of `shape` tiled with `sizes` (one per band row, each `≥ 1`): tile-row
/// prefixes `(T_0, …, T_{m−3})` enumerated, the last two coordinates swept in closed form
/// (module documentation, "Faster").
pub fn count_tiles(shape: &BandShape, geometry: &TileGeometry, sizes: &[i64]) -> Result<InterTileCounts> {
    count_tiles_with(shape, geometry, sizes, None)?
        .ok_or_else(|| TileModelError::InvalidInput("a count that cannot stop stopped (a counting bug)".into()))
}

/// What a count that may stop shows its [`Stop`]: the tiles and full tiles counted so far, per
/// wavefront or (asked more often, for nothing) in all.
#[derive(Debug, Clone, Copy)]
pub struct Partial<'c> {
    /// Per wavefront, the tiles counted so far (from the first wavefront of the range, whose
    /// launches may start later); empty when the count asks with its totals alone.
    pub tiles: &'c [u64],
    /// Per wavefront, the full tiles counted so far; empty with `tiles`.
    pub full: &'c [u64],
    /// At least the tiles in all: those counted so far and a lower bound of those not counted
    /// yet (those whose outermost coordinate has not been enumerated: they hold the instances
    /// whose coordinate there is not yet, at most as many per tile as
    /// [`TileGeometry::lower_bounds`] allows).
    pub tiles_at_least: u64,
    /// The full tiles counted so far (at most those in all).
    pub full_at_least: u64,
}

/// What [`count_tiles_unless`] asks whether to give up.
pub type Stop<'s> = dyn FnMut(&Partial<'_>) -> bool + 's;

/// [`count_tiles`], but giving up (`None`) as soon as `stop` says so. `stop` is asked, a few
/// times along the outermost tile coordinate, with the tiles and full tiles per wavefront
/// counted so far: the exact counts of the tiles whose first coordinate has been enumerated,
/// so each at most the final count of its wavefront (they only grow), and a lower bound of the
/// tiles left ([`Stop`]). The search passes a model's lower bound (monotone in the tiles per
/// wavefront and in the total) against the layouts kept: a size whose bound with a part of its
/// tiles already cannot beat them would be skipped after the whole count too, so stopping
/// early skips the same sizes, sooner (thesis Alg. 5.1 with the branch and bound of
/// [`crate::search()`]). The first coordinate's values are taken from the middle of their range
/// outwards (the bound rises fastest so), which changes no count. A count by period (module
/// documentation, 7: long runs, where it is at least eight times cheaper than a direct count)
/// is not asked: it gives the counts.
pub fn count_tiles_unless<'s>(
    shape: &BandShape,
    geometry: &TileGeometry,
    sizes: &[i64],
    stop: &'s mut Stop<'s>,
) -> Result<Option<InterTileCounts>> {
    count_tiles_with(shape, geometry, sizes, Some(stop))
}

/// How many times cheaper than a direct count its two short counts must be for a count by
/// period (`crate::period`): a margin over their cost estimate, more where the direct count
/// might stop (3-D Jacobi at 256^3–512^3 took 5 % longer with the same margin as the others).
const PERIOD_MARGIN: u64 = 4;
const PERIOD_MARGIN_STOPPING: u64 = 8;

/// [`count_tiles_unless`], or with no `stop` [`count_tiles`] (which needs none of the bounds a
/// question is asked with).
fn count_tiles_with<'s>(
    shape: &BandShape,
    geometry: &TileGeometry,
    sizes: &[i64],
    stop: Option<&'s mut Stop<'s>>,
) -> Result<Option<InterTileCounts>> {
    let m = shape.width;
    shape.check_sizes(sizes)?;
    // A long iterator that makes the count long: two counts of a short domain and sums
    // (`crate::period`), which do not stop: where the count may, it has to be cheaper by more
    // (such counts stop after about half their work, when they stop). Past the wavefronts one
    // direct count holds, whenever an iterator repeats: its counts keep the repeated stretch
    // once.
    let (_, wavefronts) = wavefront_extent(shape, sizes)?;
    let too_long = wavefronts > u128::from(MAX_WAVEFRONTS);
    let margin = match (too_long, stop.is_some()) {
        (true, _) => None,
        (false, true) => Some(PERIOD_MARGIN_STOPPING),
        (false, false) => Some(PERIOD_MARGIN),
    };
    let span = usize::try_from(wavefronts).unwrap_or(usize::MAX);
    if let Some(counts) = by_period(shape, sizes, span, margin, &mut |short| count_tiles(short, geometry, sizes)) {
        return counts.map(Some);
    }
    // Refused before anything is allocated, with the sizes in the caller's order.
    direct_span(wavefronts, sizes)?;
    // The rows with the most tiles last: the prefixes enumerated are the fewest.
    let ranges = shape.row_ranges();
    // Saturating: a band without instances has the empty ranges (i64::MAX, i64::MIN).
    let extent =
        |k: usize| ranges[k].1.div_euclid(sizes[k]).saturating_sub(ranges[k].0.div_euclid(sizes[k])).saturating_add(1);
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by_key(|&k| (extent(k), k));
    // A count that may stop: per statement, the most instances a tile holds (the reordered
    // band's tiles are the same), and the outermost row's histograms, which bound the tiles
    // left when it is asked.
    let most: Vec<u128>;
    let stop = match stop {
        Some(stop) => {
            most = geometry.most_per_tile(shape, sizes);
            Some((stop, &most[..], geometry.histograms(shape, order[0])))
        }
        None => None,
    };
    if order.iter().enumerate().all(|(i, &k)| i == k) {
        return count(shape, geometry, &geometry.normals, sizes, Mode::Sweep, stop);
    }
    let reordered = reorder(shape, &order);
    let normals = geometry.for_order(&order, &reordered);
    let sizes: Vec<i64> = order.iter().map(|&k| sizes[k]).collect();
    count(&reordered, geometry, &normals, &sizes, Mode::Sweep, stop)
}

/// The longest histogram `outer_row_histogram` builds: one entry per value of the row, 16
/// bytes each (16 MiB). The rows of the counts the search makes span thousands of values; a
/// row of 2^32 time steps would take 64 GiB (and aborted the process).
pub const MAX_HISTOGRAM: usize = 1 << 20;

/// The instances of `s` with `φ_row < v`, for every `v`: the histogram of
/// `φ_row = shift_row + Σ_j map_{row,j}·i_j` over the domain box (the convolution of the iterators'
/// ranges, each spread by its coefficient, by running window sums along each residue of the
/// coefficient), as its least value and its prefix sums. `None` when it would be longer than
/// [`MAX_HISTOGRAM`] or a value or count does not fit its integer (an optimisation's input, not
/// an error: [`TileGeometry::histograms`]).
fn outer_row_histogram(s: &StatementShape, row: usize) -> Option<(i64, Vec<u128>)> {
    // The least value and the length first, checked, so that nothing too long is allocated.
    let mut low = i128::from(*s.shift.get(row)?);
    let mut length = 1i128;
    let mut lens = Vec::with_capacity(s.lower.len());
    for (j, &a) in s.map.get(row)?.iter().enumerate() {
        let (lower, upper) = (i128::from(*s.lower.get(j)?), i128::from(*s.upper.get(j)?));
        let len = (upper - lower + 1).max(0);
        if len == 0 {
            return Some((s.shift[row], vec![0]));
        }
        let a = i128::from(a);
        low = low.checked_add((a * lower).min(a * upper))?;
        length = length.checked_add(a.abs().checked_mul(len - 1)?)?;
        lens.push(u128::try_from(len).ok()?);
    }
    let low = i64::try_from(low).ok()?;
    if length > MAX_HISTOGRAM as i128 {
        return None;
    }
    let mut counts = vec![1u128];
    for (&a, &len) in s.map[row].iter().zip(&lens) {
        if a == 0 {
            for c in &mut counts {
                *c = c.checked_mul(len)?;
            }
            continue;
        }
        // At most `MAX_HISTOGRAM` long, so `len` fits too.
        let len = usize::try_from(len).ok()?;
        let step = usize::try_from(a.unsigned_abs()).ok()?;
        let mut next = vec![0u128; counts.len().checked_add(step.checked_mul(len - 1)?)?];
        // next[e] = Σ_{y < len} counts[e − step·y].
        for r in 0..step.min(next.len()) {
            let mut window = 0u128;
            for (y, e) in (r..next.len()).step_by(step).enumerate() {
                if e < counts.len() {
                    window = window.checked_add(counts[e])?;
                }
                if y >= len {
                    let old = e - step * len;
                    if old < counts.len() {
                        window -= counts[old];
                    }
                }
                next[e] = window;
            }
        }
        counts = next;
    }
    let mut prefix = vec![0u128; counts.len() + 1];
    for (i, &c) in counts.iter().enumerate() {
        prefix[i + 1] = prefix[i].checked_add(c)?;
    }
    Some((low, prefix))
}

/// The longest range of inter-tile wavefronts one count holds (kernel launches: a million of
/// them is seconds of launch overhead alone). A count keeps several arrays of one entry per
/// wavefront, 8 bytes each, per thread of the search: a range of 2^28 took 14 GB, one of 2^32
/// aborted the process. A count by period (`crate::period`) keeps its repeated stretch once, so
/// only the wavefronts it keeps count against this.
pub const MAX_WAVEFRONTS: u64 = 1 << 20;

/// The first inter-tile wavefront of `shape` tiled with `sizes` and how many wavefronts lie
/// between the least and the greatest (at least 0), however many.
fn wavefront_extent(shape: &BandShape, sizes: &[i64]) -> Result<(i64, u128)> {
    // w = Σ T_k with T_k between ⌊min φ_k / s_k⌋ and ⌊max φ_k / s_k⌋: in 128 bits, where a sum
    // of 64-bit values cannot overflow.
    let ranges = shape.checked_row_ranges().ok_or(TileModelError::Overflow("the range of a band row"))?;
    let w_lo: i128 = ranges.iter().zip(sizes).map(|(&(lo, _), &s)| i128::from(lo.div_euclid(s))).sum();
    let w_hi: i128 = ranges.iter().zip(sizes).map(|(&(_, hi), &s)| i128::from(hi.div_euclid(s))).sum();
    let wavefronts = u128::try_from((w_hi - w_lo + 1).max(0)).unwrap_or(0);
    let w_lo = i64::try_from(w_lo).map_err(|_| TileModelError::Overflow("inter-tile wavefronts"))?;
    Ok((w_lo, wavefronts))
}

/// The first inter-tile wavefront of `shape` tiled with `sizes` and the length of the count's
/// arrays (one more than the wavefronts: the difference arrays' last mark); an error past
/// [`MAX_WAVEFRONTS`] naming the sizes.
fn wavefront_range(shape: &BandShape, sizes: &[i64]) -> Result<(i64, usize)> {
    let (w_lo, wavefronts) = wavefront_extent(shape, sizes)?;
    Ok((w_lo, direct_span(wavefronts, sizes)?))
}

/// The length of a direct count's arrays for `wavefronts` wavefronts of tiles of `sizes` (one
/// more: the difference arrays' last mark); an error past [`MAX_WAVEFRONTS`] naming the sizes.
fn direct_span(wavefronts: u128, sizes: &[i64]) -> Result<usize> {
    if wavefronts > u128::from(MAX_WAVEFRONTS) {
        let sizes: Vec<String> = sizes.iter().map(i64::to_string).collect();
        return Err(TileModelError::TooManyWavefronts(format!(
            "tile sizes {} make {wavefronts} inter-tile wavefronts, more than the {MAX_WAVEFRONTS} one count of tiles holds; use larger tiles or smaller problem sizes",
            sizes.join("x")
        )));
    }
    // At most MAX_WAVEFRONTS + 1.
    usize::try_from(wavefronts + 1).map_err(|_| TileModelError::Overflow("inter-tile wavefronts"))
}

/// [`count_tiles`] by the plain enumeration of every tile row `(T_0, …, T_{m−2})`, each with the
/// `O(normals)` interval of `T_{m−1}`: the earlier counter, slower by the length of a row of
/// rows, kept as the oracle of the property tests (`tests/counting.rs`).
pub fn count_tiles_by_rows(shape: &BandShape, geometry: &TileGeometry, sizes: &[i64]) -> Result<InterTileCounts> {
    count(shape, geometry, &geometry.normals, sizes, Mode::Rows, None)?
        .ok_or_else(|| TileModelError::InvalidInput("a count that cannot stop stopped (a counting bug)".into()))
}

/// [`count_tiles`] by the repetition of the tiles along a long iterator (`crate::period`)
/// whenever one repeats at least once and the statements with instances share the band map
/// (`count_tiles` takes that way only where it costs less than counting directly), its short
/// counts made by [`count_tiles_by_rows`]; `None` when no iterator repeats. For the property
/// tests, which compare it with `count_tiles_by_rows` on the whole domain.
pub fn count_tiles_by_period(
    shape: &BandShape,
    geometry: &TileGeometry,
    sizes: &[i64],
) -> Option<Result<InterTileCounts>> {
    if let Err(e) = shape.check_sizes(sizes) {
        return Some(Err(e));
    }
    let span = match wavefront_extent(shape, sizes) {
        Ok((_, wavefronts)) => usize::try_from(wavefronts).unwrap_or(usize::MAX),
        Err(e) => return Some(Err(e)),
    };
    by_period(shape, sizes, span, None, &mut |short| count_tiles_by_rows(short, geometry, sizes))
}

#[cfg(test)]
mod tests {
    use super::envelope::merge;
    use super::*;

    #[test]
    fn subsets_and_merging() {
        assert_eq!(subsets(4, 2).len(), 6);
        assert_eq!(merge(vec![(5, 7), (1, 2), (3, 4), (9, 9)]), vec![(1, 7), (9, 9)]);
    }
}
