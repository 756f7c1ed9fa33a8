//! The counter of [`count_tiles`](super::count_tiles) and its relatives: the prefixes
//! `(T_0, …, T_{m−3})` enumerated level by level (module documentation of `inter`, steps 4–5),
//! the last two coordinates closed by the sweep of `inter/envelope.rs` (or row by row, for the
//! tests' [`count_tiles_by_rows`](super::count_tiles_by_rows)), the stop questions of a count
//! that may end early, and the facets and erosions at given sizes they read.

use super::envelope::{ceil_i128, floor_i128, merge, merge_in_place, mul, sub, Direction, Line, Stepper, Sweep};
use super::{wavefront_range, zeroed, Histograms, InterTileCounts, Normals, Partial, Stop, TileGeometry, MAX_PREFIXES};
use crate::error::{Result, TileModelError};
use crate::shape::{BandShape, StatementShape};

/// The lines of one statement's last-level facets in the plane `(u, v) = (T_{m−2}, T_{m−1})`,
/// grouped by direction once per count: facet `f` gives the lower line `(a_f, b_f)` and the
/// upper line `(−a_f, b_f)` (`a_f = f_{m−2}·s_{m−2}`, `b_f = f_{m−1}·s_{m−1} > 0`), whose
/// constants alone depend on the prefix. Many facets differ only in their prefix coefficients
/// (parallel lines, of which only the highest can bound `v`), so per prefix each direction takes
/// the largest constant of its members, without comparing directions again.
#[derive(Debug, Clone, Default)]
struct LineGroups {
    /// The distinct `(a, b)` of the lower lines.
    lower: Vec<(i128, i128)>,
    /// The distinct `(a, b)` of the upper lines (negated `a`).
    upper: Vec<(i128, i128)>,
    /// Per facet, its lower and upper line's group.
    members: Vec<(usize, usize)>,
}

impl LineGroups {
    /// The groups of `facets` (those of level `k + 1`) at `sizes`.
    fn new(facets: &[Facet], k: usize, sizes: &[i64]) -> Result<LineGroups> {
        let mut g = LineGroups::default();
        let (size_u, size_v) = (i128::from(sizes[k]), i128::from(sizes[k + 1]));
        let find = |list: &mut Vec<(i128, i128)>, key: (i128, i128)| match list.iter().position(|&x| x == key) {
            Some(i) => i,
            None => {
                list.push(key);
                list.len() - 1
            }
        };
        for f in facets {
            let a = mul(i128::from(f.a[k]), size_u)?;
            let b = mul(i128::from(f.a[k + 1]), size_v)?;
            if b <= 0 {
                return Err(TileModelError::InvalidInput("a facet normal is not oriented (a counting bug)".into()));
            }
            let l = find(&mut g.lower, (a, b));
            let u = find(&mut g.upper, (-a, b));
            g.members.push((l, u));
        }
        Ok(g)
    }
}

/// One normal's range at given sizes: `lo ≤ a·(Y_0..Y_k) ≤ hi`.
#[derive(Debug, Clone)]
struct Facet<'n> {
    a: &'n [i64],
    lo: i128,
    hi: i128,
}

/// The erosion constraints of one statement: `lo_j ≤ N_j·Y ≤ hi_j` for every row `j` of the
/// inverse band map.
#[derive(Debug, Clone)]
struct Erosion<'s> {
    rows: Vec<(&'s [i64], i128, i128)>,
}

/// How [`Counter`] treats the last two tile coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Enumerate `T_{m−2}`, intervals of `T_{m−1}` facet by facet ([`count_tiles_by_rows`](super::count_tiles_by_rows)).
    Rows,
    /// Envelopes of the facet lines per prefix, `T_{m−2}` stepped by additions ([`count_tiles`](super::count_tiles)).
    Sweep,
}

pub(super) fn count<'s>(
    shape: &BandShape,
    geometry: &TileGeometry,
    normals: &Normals,
    sizes: &[i64],
    mode: Mode,
    stop: Option<(&'s mut Stop<'s>, &[u128], Histograms)>,
) -> Result<Option<InterTileCounts>> {
    let m = shape.width;
    shape.check_sizes(sizes)?;
    let active: Vec<usize> = (0..shape.statements.len()).filter(|&s| shape.statements[s].instances() > 0).collect();
    // Per statement, per level, the facets at these sizes.
    let facets: Vec<Vec<Vec<Facet>>> = shape
        .statements
        .iter()
        .zip(normals)
        .map(|(s, levels)| {
            levels
                .iter()
                .enumerate()
                .map(|(k, normals)| normals.iter().map(|a| facet(s, a, k + 1, sizes)).collect())
                .collect()
        })
        .collect();
    let erosions: Vec<Erosion> = shape.statements.iter().map(|s| erosion(s, sizes)).collect();
    let (w_lo, span) = wavefront_range(shape, sizes)?;
    // The sweep's facet lines grouped by direction, once per count (see `LineGroups`).
    let line_groups: Vec<LineGroups> = if m >= 2 {
        facets.iter().map(|levels| LineGroups::new(&levels[m - 1], m - 2, sizes)).collect::<Result<_>>()?
    } else {
        Vec::new()
    };
    let (stop, most, outer) = match stop {
        Some((stop, most, histograms)) => (Some(stop), most, histograms),
        None => (None, &[][..], Histograms::default()),
    };
    let mut counter = Counter {
        m,
        mode,
        sizes,
        facets: &facets,
        line_groups: &line_groups,
        erosions: &erosions,
        all: &active,
        w_lo,
        tiles: Vec::new(),
        full: Vec::new(),
        prefixes: 0,
        y: vec![0i128; m],
        narrow: vec![Some(0); m],
        present_at: vec![Vec::new(); m],
        t_sum: 0,
        sweeps: shape.statements.iter().map(|_| Sweep::default()).collect(),
        present: Vec::new(),
        full_sweep: Some(Box::default()),
        row: Vec::new(),
        strided: Vec::new(),
        spare: geometry.take_spare(),
        directions: Vec::new(),
        stop,
        stopped: false,
        want_tiles: true,
        want_full: true,
        asked: Asked::default(),
        statements: &shape.statements,
        most,
        outer,
        counted: [0; 2],
        done: None,
    };
    counter.tiles = counter.zeroed(span);
    counter.full = counter.zeroed(span);
    // A count of a 3-D band (four rows) that may stop counts the tiles first and the full
    // tiles only once it did not stop: nearly all of the search's such counts do (3-D SOR at
    // 256^3: 98%, after about half their prefixes), and their full tiles' polygons (a third of
    // a sweep) would be wasted. The stop is then asked with no full tiles counted yet, which
    // bounds them too (from below, by 0). In 2-D most such counts run to the end (2-D SOR at
    // 16384^2: 92%), and a second pass would cost more than it saves. Only where every
    // prefix's tiles are counted by progressions (the sweep, with at most `MAX_INCLUSION`
    // statements): there the two are counted apart.
    let split = mode == Mode::Sweep && m >= 4 && active.len() <= MAX_INCLUSION && counter.stop.is_some();
    // A full tile's corner `Y` has `lo_j ≤ N_j·Y ≤ hi_j` for every erosion row of every
    // statement (`erosion`): when one row of one statement has `lo_j > hi_j` (a domain thinner
    // along that row than the tile's spread there: 3-D SOR's time row at most sizes) there is
    // none, and the sweep counts no full tiles (the counts are the same: nothing would be
    // added to them) and no second pass is made.
    let no_full = active.iter().any(|&s| erosions[s].rows.iter().any(|(_, lo, hi)| lo > hi));
    let skip_full = mode == Mode::Sweep && no_full;
    counter.want_full = !(split || skip_full);
    counter.level(0, &active)?;
    // With every tile counted, the stop is asked once more before the full tiles' pass: the
    // tiles per wavefront are now exact, and their rounding `Σ_w ⌈n_w / P⌉`, which no bound
    // before counting sees, is what rejects most sizes counted to the end (3-D SOR at 512^3:
    // about 6 000 of the 10 000 counts of the global search, twice the spread bounded before
    // counting), so their second pass is spared.
    if counter.stopped || (split && !no_full && counter.should_stop()) {
        geometry.give_back(counter.arrays());
        return Ok(None);
    }
    if split && !no_full {
        (counter.want_tiles, counter.want_full, counter.stop) = (false, true, None);
        counter.y.iter_mut().for_each(|y| *y = 0);
        counter.narrow.iter_mut().for_each(|y| *y = Some(0));
        counter.t_sum = 0;
        counter.level(0, &active)?;
    }
    counter.finish();
    // Prefix sums of the difference arrays.
    let mut tiles = Vec::with_capacity(span);
    let mut full = Vec::with_capacity(span);
    let (mut a, mut b) = (0i64, 0i64);
    for k in 0..span - 1 {
        a += counter.tiles[k];
        b += counter.full[k];
        tiles.push(a.max(0) as u64);
        full.push(b.max(0) as u64);
    }
    geometry.give_back(counter.arrays());
    InterTileCounts::launched(w_lo, tiles, full).map(Some)
}

/// The range of `a·Y` (coordinates `0..k`) over statement `s`'s tile zonotope at `sizes`.
fn facet<'n>(s: &StatementShape, a: &'n [i64], k: usize, sizes: &[i64]) -> Facet<'n> {
    let mut lo = 0i128;
    let mut hi = 0i128;
    for (q, &aq) in a.iter().enumerate().take(k) {
        lo += i128::from(aq) * i128::from(s.shift[q]);
        hi += i128::from(aq) * i128::from(s.shift[q]);
        // The box part: a_q · [−(s_q − 1), 0].
        let b = -i128::from(aq) * i128::from(sizes[q] - 1);
        lo += b.min(0);
        hi += b.max(0);
    }
    for j in 0..s.map.len() {
        let g: i128 = (0..k).map(|q| i128::from(a[q]) * i128::from(s.map[q][j])).sum();
        let (x, y) = (g * i128::from(s.lower[j]), g * i128::from(s.upper[j]));
        lo += x.min(y);
        hi += x.max(y);
    }
    Facet { a, lo, hi }
}

/// Row `j` of [`erosion`] without its normal: `(lo_j, hi_j)`.
pub(super) fn erosion_row(s: &StatementShape, j: usize, sizes: &[i64]) -> (i128, i128) {
    let n = &s.inverse[j];
    let nc: i128 = n.iter().zip(&s.shift).map(|(&x, &c)| i128::from(x) * i128::from(c)).sum();
    let (mut umin, mut umax) = (0i128, 0i128);
    for (&x, &size) in n.iter().zip(sizes) {
        let v = i128::from(x) * i128::from(size - 1);
        umin += v.min(0);
        umax += v.max(0);
    }
    (i128::from(s.lower[j]) + nc - umin, i128::from(s.upper[j]) + nc - umax)
}

/// `Y` is the corner of a full tile of `s` iff `lower_j + N_j·c − min_u N_j·u ≤ N_j·Y ≤
/// upper_j + N_j·c − max_u N_j·u` for every row `j` of `N = map⁻¹`, `u ∈ [0, s − 1]`.
fn erosion<'s>(s: &'s StatementShape, sizes: &[i64]) -> Erosion<'s> {
    let rows = s
        .inverse
        .iter()
        .enumerate()
        .map(|(j, n)| {
            let (lo, hi) = erosion_row(s, j, sizes);
            (&n[..], lo, hi)
        })
        .collect();
    Erosion { rows }
}

struct Counter<'a, 's> {
    m: usize,
    mode: Mode,
    sizes: &'a [i64],
    facets: &'a [Vec<Vec<Facet<'a>>>],
    /// Per statement, its last level's facet lines grouped by direction ([`LineGroups`]).
    line_groups: &'a [LineGroups],
    erosions: &'a [Erosion<'a>],
    /// The statements with instances.
    all: &'a [usize],
    w_lo: i64,
    /// Difference arrays over `w − w_lo`.
    tiles: Vec<i64>,
    full: Vec<i64>,
    prefixes: u64,
    /// `Y_q = s_q·T_q` of the current prefix.
    y: Vec<i128>,
    /// The same where it fits 64 bits ([`Counter::prefix_sum`]).
    narrow: Vec<Option<i64>>,
    /// Per level, the buffer of the statements present at its current value ([`Counter::level`]).
    present_at: Vec<Vec<usize>>,
    t_sum: i64,
    /// Scratch of [`Counter::sweep_last_two`], reused across prefixes: a sweep per statement,
    /// the statements present at the prefix, the full tiles' sweep (boxed: moved in and out at
    /// every prefix), the intervals of one `T_{m−2}`.
    sweeps: Vec<Sweep>,
    present: Vec<usize>,
    full_sweep: Option<Box<Sweep>>,
    row: Vec<(i64, i64)>,
    /// Marks of arithmetic progressions of wavefronts, by (full tiles?, stride): one `+1` at the
    /// first wavefront of a progression and one `−1` a stride past its last, summed along the
    /// stride at the end ([`Counter::finish`]).
    strided: Vec<(bool, i64, Vec<i64>)>,
    /// Arrays to use for the next `tiles`, `full` and marks (from [`TileGeometry::spare`]).
    spare: Vec<Vec<i64>>,
    /// The line directions [`Counter::progressions`] has met.
    directions: Vec<Direction>,
    /// Asked along the outermost coordinate whether to give up ([`count_tiles_unless`](super::count_tiles_unless)).
    stop: Option<&'s mut Stop<'s>>,
    /// Whether it did.
    stopped: bool,
    /// Whether the sweeps count the tiles, and the full tiles (see [`count`]: a count that may
    /// stop counts the full tiles after the tiles, and only if it does not stop).
    want_tiles: bool,
    want_full: bool,
    /// Buffers of [`Counter::should_stop`], kept from one question to the next.
    asked: Asked,
    /// The statements, and per statement the most instances one tile holds (with `stop`).
    statements: &'a [StatementShape],
    most: &'a [u128],
    /// Per statement, [`outer_row_histogram`](super::outer_row_histogram) (made at the first question).
    outer: Histograms,
    /// The tiles and the full tiles counted so far, in all (kept with the marks: asking with
    /// them costs nothing, unlike summing the arrays).
    counted: [i128; 2],
    /// The least and the greatest outermost value enumerated so far: from the middle outwards
    /// the values enumerated are those between them that have tiles.
    done: Option<(i64, i64)>,
}

/// The buffers of [`Counter::should_stop`]: the tiles shown, the other counts shown, and the
/// running sums.
#[derive(Debug, Default)]
struct Asked {
    tiles: Vec<u64>,
    out: Vec<u64>,
    run: Vec<i64>,
    along: Vec<i64>,
}

/// The steps (tile rows and progressions marked, about 10–20 ns each) a count that may stop
/// takes between two questions with its totals alone ([`Partial`]), whose model bound costs
/// about as much as a few hundred of them (with every block's terms per step).
const TOTALS_EVERY: u64 = 1024;

/// The most statements present at one prefix for which [`count_tiles`](super::count_tiles) counts their union by
/// inclusion–exclusion (`2^k − 1` polygons); with more it merges intervals per `u`.
pub const MAX_INCLUSION: usize = 4;

impl Counter<'_, '_> {
    /// The interval of `T_k` for statement `s` given the prefix `T_0..T_{k−1}`.
    fn interval(&self, s: usize, k: usize) -> Option<(i64, i64)> {
        let size = i128::from(self.sizes[k]);
        let (mut lo, mut hi) = (i128::MIN, i128::MAX);
        for f in &self.facets[s][k] {
            let pre = self.prefix_sum(f.a, k);
            let c = i128::from(f.a[k]) * size; // > 0: normals are oriented with a_k > 0
            lo = lo.max(ceil_i128(f.lo - pre, c));
            hi = hi.min(floor_i128(f.hi - pre, c));
            if lo > hi {
                return None;
            }
        }
        Some((i64::try_from(lo).ok()?, i64::try_from(hi).ok()?))
    }

    /// The interval of `T_{m−1}` of full tiles of statement `s` given the prefix.
    fn full_interval(&self, s: usize) -> Option<(i64, i64)> {
        let k = self.m - 1;
        let size = i128::from(self.sizes[k]);
        let (mut lo, mut hi) = (i128::MIN, i128::MAX);
        for (n, rlo, rhi) in &self.erosions[s].rows {
            let pre = self.prefix_sum(n, k);
            let c = i128::from(n[k]) * size;
            let (a, b) = (rlo - pre, rhi - pre);
            match c.signum() {
                0 => {
                    if a > 0 || b < 0 {
                        return None;
                    }
                }
                1 => {
                    lo = lo.max(ceil_i128(a, c));
                    hi = hi.min(floor_i128(b, c));
                }
                _ => {
                    lo = lo.max(ceil_i128(-b, -c));
                    hi = hi.min(floor_i128(-a, -c));
                }
            }
            if lo > hi {
                return None;
            }
        }
        Some((i64::try_from(lo).ok()?, i64::try_from(hi).ok()?))
    }

    fn level(&mut self, k: usize, active: &[usize]) -> Result<()> {
        if self.mode == Mode::Sweep && k + 2 == self.m {
            return self.sweep_last_two(active);
        }
        let intervals: Vec<(usize, i64, i64)> =
            active.iter().filter_map(|&s| self.interval(s, k).map(|(lo, hi)| (s, lo, hi))).collect();
        if intervals.is_empty() {
            return Ok(());
        }
        let merged = merge(intervals.iter().map(|&(_, lo, hi)| (lo, hi)).collect());
        if k + 1 == self.m {
            self.visit()?;
            for &(lo, hi) in &merged {
                self.add(false, 0, lo, hi);
            }
            // Full tiles: inside every statement's erosion.
            let mut full: Option<(i64, i64)> = Some((i64::MIN, i64::MAX));
            for &s in self.all {
                full = match (full, self.full_interval(s)) {
                    (Some((a, b)), Some((c, d))) if a.max(c) <= b.min(d) => Some((a.max(c), b.min(d))),
                    _ => None,
                };
            }
            if let Some((lo, hi)) = full {
                self.add(true, 0, lo, hi);
            }
            return Ok(());
        }
        let size = i128::from(self.sizes[k]);
        let values = merged.iter().map(|&(lo, hi)| hi - lo + 1).sum::<i64>();
        // The outermost coordinate asks `stop` about every 32nd of its values at most, and only
        // once the steps since the last question outweigh a question (which sums the arrays:
        // in 2-D a whole count can cost as little as a few of them). Any set of its values
        // gives exact counts of their tiles, each at most the final count of its wavefront, so
        // a count that may stop takes them from the middle of the range outwards: the middle
        // slices of the tile zonotope hold the most tiles per tile row visited, so the bound
        // with the tiles counted so far rises fastest (3-D SOR: counts that stop did so after
        // 19-88% of the values in order, median 40%). The counts are the same in any order.
        let middle_out = k == 0 && self.stop.is_some();
        let every = if middle_out { (values + 31) / 32 } else { i64::MAX };
        let mut done = 0i64;
        let mut asked_at = self.prefixes;
        let mut totals_at = self.prefixes;
        let in_order = merged.iter().flat_map(|&(lo, hi)| lo..=hi);
        // From the middle of the hull of the values outwards (`mid`, `mid + 1`, `mid − 1`, …),
        // those in the merged intervals: the values taken so far are always the ones between
        // the least and the greatest taken that have tiles.
        let (first, last) = (merged[0].0, merged[merged.len() - 1].1);
        let mid = first + (last - first) / 2;
        let hull = (last - first + 1).max(0);
        let outwards = (0..2 * hull)
            .map(move |i| if i % 2 == 0 { mid - i / 2 } else { mid + (i + 1) / 2 })
            .filter(|&t| first <= t && t <= last && merged.iter().any(|&(lo, hi)| lo <= t && t <= hi));
        let all: Box<dyn Iterator<Item = i64> + '_> = if middle_out { Box::new(outwards) } else { Box::new(in_order) };
        // The statements present at each value, in a buffer of this level kept across calls
        // (an allocation per tile-row prefix otherwise).
        let mut next = self.present_at.get_mut(k).map(std::mem::take).unwrap_or_default();
        for t in all {
            next.clear();
            next.extend(intervals.iter().filter(|&&(_, a, b)| a <= t && t <= b).map(|&(s, _, _)| s));
            self.y[k] = i128::from(t) * size;
            self.narrow[k] = i64::try_from(self.y[k]).ok();
            self.t_sum += t;
            let r = self.level(k + 1, &next);
            self.t_sum -= t;
            if r.is_err() {
                self.present_at[k] = next;
                return r;
            }
            if k == 0 {
                self.done = Some(self.done.map_or((t, t), |(lo, hi)| (lo.min(t), hi.max(t))));
                // After a value, the question with the totals, which costs the counter nothing
                // but costs the model a bound (a few microseconds: its terms per step): asked
                // once the steps since the last such question outweigh it.
                if middle_out && self.prefixes.saturating_sub(totals_at) >= TOTALS_EVERY {
                    totals_at = self.prefixes;
                    if self.should_stop_by_totals() {
                        self.stopped = true;
                        return Ok(());
                    }
                }
            }
            done += 1;
            if done % every == 0 && self.worth_asking(asked_at) {
                asked_at = self.prefixes;
                if self.should_stop() {
                    self.stopped = true;
                    return Ok(());
                }
            }
        }
        self.present_at[k] = next;
        Ok(())
    }

    /// Whether the steps taken since `asked_at` (tile rows and progressions marked) are at
    /// least four times what asking `stop` costs: summing the difference and mark arrays.
    fn worth_asking(&self, asked_at: u64) -> bool {
        let cost = (self.tiles.len() as u64) * (2 + self.strided.len() as u64);
        self.prefixes.saturating_sub(asked_at).saturating_mul(4) >= cost
    }

    /// Asks `stop` with the tiles and full tiles per wavefront counted so far (the difference
    /// arrays and the progressions' marks summed as [`Counter::finish`] and [`count`] do, into
    /// buffers kept from one question to the next: the arrays are left as they are).
    fn should_stop(&mut self) -> bool {
        if self.stop.is_none() {
            return false;
        }
        let mut asked = std::mem::take(&mut self.asked);
        self.so_far(false, &mut asked);
        std::mem::swap(&mut asked.tiles, &mut asked.out);
        self.so_far(true, &mut asked);
        let (tiles_at_least, full_at_least) = self.totals();
        let partial = Partial { tiles: &asked.tiles, full: &asked.out, tiles_at_least, full_at_least };
        let out = self.stop.as_mut().is_some_and(|stop| stop(&partial));
        self.asked = asked;
        out
    }

    /// At least the tiles in all (those counted and [`Counter::tiles_left`]), and the full
    /// tiles counted.
    fn totals(&mut self) -> (u64, u64) {
        let clamp = |v: i128| v.clamp(0, i128::from(u64::MAX)) as u64;
        let left = self.tiles_left();
        (clamp(self.counted[0]).saturating_add(left), clamp(self.counted[1]))
    }

    /// Asks `stop` with the totals alone (no sums of the arrays: nothing to pay).
    fn should_stop_by_totals(&mut self) -> bool {
        if self.stop.is_none() {
            return false;
        }
        let (tiles_at_least, full_at_least) = self.totals();
        let partial = Partial { tiles: &[], full: &[], tiles_at_least, full_at_least };
        self.stop.as_mut().is_some_and(|stop| stop(&partial))
    }

    /// At least the tiles not counted yet: per statement, its instances whose outermost tile
    /// coordinate has not been enumerated over the most a tile holds (those instances lie in
    /// such tiles, none of them counted), the most over the statements. The values enumerated
    /// are those between the least and the greatest so far that have tiles (the middle-out
    /// order), and a value without tiles has no instances.
    fn tiles_left(&mut self) -> u64 {
        if self.most.len() != self.statements.len() || self.outer.len() != self.statements.len() {
            return 0;
        }
        let size = self.sizes[0];
        let mut left = 0u128;
        for ((low, prefix), &most) in self.outer.iter().zip(self.most) {
            let below = |v: i64| prefix[(v.saturating_sub(*low)).clamp(0, prefix.len() as i64 - 1) as usize];
            let total = prefix[prefix.len() - 1];
            let done = match self.done {
                Some((lo, hi)) => below(hi.saturating_add(1).saturating_mul(size)) - below(lo.saturating_mul(size)),
                None => 0,
            };
            left = left.max((total - done).div_ceil(most.max(1)));
        }
        left.min(u128::from(u64::MAX)) as u64
    }

    /// The tiles (or full tiles) per wavefront counted so far, into `asked.out`.
    fn so_far(&self, full: bool, asked: &mut Asked) {
        let differences = if full { &self.full } else { &self.tiles };
        let n = differences.len();
        // The progressions' marks summed along their strides (`F[x] = marks[x] + F[x − stride]`)
        // and added to the differences, then their running sum.
        let (run, f) = (&mut asked.run, &mut asked.along);
        run.clear();
        run.extend_from_slice(differences);
        for (_, stride, marks) in self.strided.iter().filter(|(f, _, _)| *f == full) {
            let step = stride.unsigned_abs() as usize;
            f.clear();
            f.resize(n, 0);
            if *stride > 0 {
                for x in 0..n {
                    let v = marks[x] + if x >= step { f[x - step] } else { 0 };
                    f[x] = v;
                    run[x] += v;
                }
            } else {
                for x in (0..n).rev() {
                    let v = marks[x] + if x + step < n { f[x + step] } else { 0 };
                    f[x] = v;
                    run[x] += v;
                }
            }
        }
        let out = &mut asked.out;
        out.clear();
        let mut a = 0i64;
        for d in &run[..n.saturating_sub(1)] {
            a += d;
            out.push(a.max(0) as u64);
        }
    }

    /// Adds one tile per `T_{m−1}` in `lo..=hi` (to the tiles, or to the full tiles when
    /// `full`) at wavefront `t_sum + shift + T_{m−1}` (`shift`: `T_{m−2}` when the prefix
    /// stops before it, else 0).
    fn add(&mut self, full: bool, shift: i64, lo: i64, hi: i64) {
        let array = if full { &mut self.full } else { &mut self.tiles };
        let n = array.len() as i64;
        let base = self.t_sum.saturating_add(shift).saturating_sub(self.w_lo);
        let a = base.saturating_add(lo).clamp(0, n - 1) as usize;
        let b = base.saturating_add(hi).saturating_add(1).clamp(0, n - 1) as usize;
        array[a] += 1;
        array[b] -= 1;
        // Its tiles, for the totals ([`Counter::counted`]).
        self.counted[usize::from(full)] += (b - a) as i128;
    }

    /// One more tile row `(T_0, …, T_{m−2})` with tiles; an error past [`MAX_PREFIXES`].
    fn visit(&mut self) -> Result<()> {
        self.prefixes += 1;
        if self.prefixes > MAX_PREFIXES {
            return Err(TileModelError::InvalidInput(format!(
                "counting tiles visits more than {MAX_PREFIXES} tile rows; use larger tiles or smaller problem sizes"
            )));
        }
        Ok(())
    }

    /// The tiles (and full tiles) whose first `m − 2` coordinates are the current prefix, with
    /// `u = T_{m−2}` and `v = T_{m−1}` (module documentation, "Faster"): per statement present,
    /// the `u` interval of level `m − 2` and the envelopes of level `m − 1`'s facet lines; for
    /// the full tiles, the envelopes of every statement's erosion rows. Each `u` then costs a
    /// few additions per statement instead of a division per facet.
    fn sweep_last_two(&mut self, active: &[usize]) -> Result<()> {
        let k = self.m - 2;
        let mut sweeps = std::mem::take(&mut self.sweeps);
        let mut present = std::mem::take(&mut self.present);
        let mut full = self.full_sweep.take().unwrap_or_default();
        let mut row = std::mem::take(&mut self.row);
        let result = self.sweep_with(k, active, &mut sweeps, &mut present, &mut full, &mut row);
        self.sweeps = sweeps;
        self.present = present;
        self.full_sweep = Some(full);
        self.row = row;
        result
    }

    fn sweep_with(
        &mut self,
        k: usize,
        active: &[usize],
        sweeps: &mut [Sweep],
        present: &mut Vec<usize>,
        full: &mut Sweep,
        row: &mut Vec<(i64, i64)>,
    ) -> Result<()> {
        let (size_u, size_v) = (i128::from(self.sizes[k]), i128::from(self.sizes[k + 1]));
        present.clear();
        let (mut u1, mut u2) = (i64::MAX, i64::MIN);
        for &s in active {
            let Some((lo, hi)) = self.interval(s, k) else { continue };
            present.push(s);
            u1 = u1.min(lo);
            u2 = u2.max(hi);
            if !self.want_tiles {
                continue;
            }
            let sweep = &mut sweeps[s];
            sweep.clear(lo, hi);
            // Every facet gives a lower and an upper line (`Sweep::constrain` with `b > 0`: the
            // normals are oriented); of parallel ones only the highest matters, so each
            // direction's line takes the largest constant of its facets at this prefix.
            let groups = &self.line_groups[s];
            sweep.lower_lines.extend(groups.lower.iter().map(|&(a, b)| Line { a, b, c: i128::MIN }));
            sweep.upper_lines.extend(groups.upper.iter().map(|&(a, b)| Line { a, b, c: i128::MIN }));
            for (f, &(l, u)) in self.facets[s][k + 1].iter().zip(&groups.members) {
                let pre = self.prefix_value(f.a, k)?;
                // v ≥ (lo − pre − a·u)/b and −v ≥ (pre − hi + a·u)/b.
                let lower = &mut sweep.lower_lines[l].c;
                *lower = (*lower).max(sub(f.lo, pre)?);
                let upper = &mut sweep.upper_lines[u].c;
                *upper = (*upper).max(sub(pre, f.hi)?);
            }
            sweep.build_distinct()?;
        }
        if present.is_empty() {
            return Ok(());
        }
        let by_progressions = present.len() <= MAX_INCLUSION;
        if by_progressions && self.want_tiles {
            // |∪ P_s| = Σ_{J ≠ ∅} (−1)^{|J|+1} |∩_{s∈J} P_s| (inclusion–exclusion).
            for mask in 1u32..(1u32 << present.len()) {
                let members = (0..present.len()).filter(move |&i| mask & (1 << i) != 0).map(|i| present[i]);
                let sign = if mask.count_ones() % 2 == 1 { 1 } else { -1 };
                if mask.count_ones() == 1 {
                    let s = present[mask.trailing_zeros() as usize];
                    self.emit(&sweeps[s], sign, false)?;
                    continue;
                }
                full.intersect(sweeps, members);
                if full.lo <= full.hi {
                    full.build()?;
                    self.emit(full, sign, false)?;
                }
            }
        }
        if by_progressions && !self.want_full {
            return Ok(());
        }
        // Full tiles: inside every statement's erosion (a subset of the tiles, so of u1..=u2);
        // none when a pass does not count them.
        full.clear(u1, u2);
        let mut has_full = self.want_full;
        'rows: for &s in self.all.iter().filter(|_| has_full) {
            for (n, rlo, rhi) in &self.erosions[s].rows {
                let pre = self.prefix_value(n, k)?;
                let a = mul(i128::from(n[k]), size_u)?;
                let b = mul(i128::from(n[k + 1]), size_v)?;
                if !full.constrain(a, b, sub(*rlo, pre)?, sub(*rhi, pre)?)? {
                    has_full = false;
                    break 'rows;
                }
            }
        }
        has_full = has_full && full.lo <= full.hi;
        if by_progressions {
            if has_full {
                full.build()?;
                self.emit(full, 1, true)?;
            }
            return Ok(());
        }
        if has_full {
            full.start()?;
        }
        for &s in present.iter() {
            sweeps[s].lower.start()?;
            sweeps[s].upper.start()?;
        }
        for u in u1..=u2 {
            row.clear();
            for &s in present.iter() {
                if let Some((lo, hi)) = sweeps[s].next(u)? {
                    row.push((lo, hi));
                }
            }
            let full_row = if has_full { full.next(u)? } else { None };
            if row.is_empty() {
                continue;
            }
            self.visit()?;
            if row.len() > 1 {
                merge_in_place(row);
            }
            for &(lo, hi) in row.iter() {
                self.add(false, u, lo, hi);
            }
            if let Some((lo, hi)) = full_row {
                self.add(true, u, lo, hi);
            }
        }
        Ok(())
    }

    /// Adds the tiles of one polygon (`sign` = ±1: a term of the inclusion–exclusion) to the
    /// marks: on each stretch of `u` where the lower line `l` and the upper line `h` of the
    /// envelopes are fixed and `l(u) ≤ h(u)` (then `⌊h⌋ − ⌈l⌉ + 1 ≥ 0` tiles; where `l > h` the
    /// polygon has no rational point), `+1` at wavefront `u + ⌈l(u)⌉` and `−1` at
    /// `u + ⌊h(u)⌋ + 1` for every `u` — two families of arithmetic progressions.
    fn emit(&mut self, sweep: &Sweep, sign: i64, full: bool) -> Result<()> {
        let (lower, upper) = (&sweep.lower.pieces, &sweep.upper.pieces);
        let small = sweep.lower.small && sweep.upper.small;
        let (mut i, mut j) = (0, 0);
        let mut a = sweep.lo;
        while a <= sweep.hi {
            let end_l = lower.get(i + 1).map_or(sweep.hi, |p| p.0 - 1);
            let end_u = upper.get(j + 1).map_or(sweep.hi, |p| p.0 - 1);
            let b = end_l.min(end_u);
            let l = lower[i].1;
            let h = Line { a: -upper[j].1.a, b: upper[j].1.b, c: -upper[j].1.c };
            // l(u) ≤ h(u) ⟺ u·(a_l·b_h − a_h·b_l) ≥ c_l·b_h − c_h·b_l (in 64 bits when both
            // envelopes were: `small_lines`' bounds keep `d` under 2^41 and `e` under 2^61).
            let (d, e) = if small {
                let (la, lb, lc) = (l.a as i64, l.b as i64, l.c as i64);
                let (ha, hb, hc) = (h.a as i64, h.b as i64, h.c as i64);
                (i128::from(la * hb - ha * lb), i128::from(lc * hb - hc * lb))
            } else {
                (l.slope_gap(&h)?, sub(mul(l.c, h.b)?, mul(h.c, l.b)?)?)
            };
            let (mut x, mut y) = (i128::from(a), i128::from(b));
            match d.signum() {
                1 => x = x.max(-floor_i128(-e, d)),
                -1 => y = y.min(floor_i128(-e, -d)),
                _ if e > 0 => y = x - 1,
                _ => {}
            }
            if x <= y {
                // Within a..=b, so they fit.
                let (x, y) = (x as i64, y as i64);
                self.progressions(l, x, y, sign, full, false)?;
                self.progressions(h, x, y, -sign, full, true)?;
            }
            if end_l == b {
                i += 1;
            }
            if end_u == b {
                j += 1;
            }
            a = b + 1;
        }
        Ok(())
    }

    /// Marks `sign` at wavefront `t_sum + p(u)` for `u` in `x..=y`, with `p(u) = u + ⌈ℓ(u)⌉`
    /// (or `u + ⌊ℓ(u)⌋ + 1` when `upper`). With `ℓ(u) = (c − a·u)/b`,
    /// `p(u) = ⌈((b − a)·u + c)/b⌉` (or `⌊…⌋ + 1`), and `p(u + b/g) = p(u) + (b − a)/g` for
    /// `g = gcd(a, b)`: the `u`s split into `min(b/g, y − x + 1)` arithmetic progressions of
    /// stride `b/g`, whose wavefronts are arithmetic progressions of stride `(b − a)/g`.
    fn progressions(&mut self, line: Line, x: i64, y: i64, sign: i64, full: bool, upper: bool) -> Result<()> {
        let overflow = || TileModelError::Overflow("tile facets");
        let small = |v: i128| i64::try_from(v).ok().filter(|v| v.checked_abs().is_some()).ok_or_else(overflow);
        // In 64 bits (the 128-bit division routines dominated otherwise).
        let (a, b) = (small(line.a)?, small(line.b)?);
        // The divisions that depend on the line's direction alone, once per count (a count
        // meets a few dozen directions, each in thousands of pieces).
        let at = match self.directions.iter().position(|d| d.a == a && d.b == b) {
            Some(i) => i,
            None => {
                self.directions.push(Direction::new(a, b).ok_or_else(overflow)?);
                self.directions.len() - 1
            }
        };
        let direction = self.directions[at];
        let (p, period, stride) = (direction.p, direction.period, direction.stride);
        let n = y.checked_sub(x).and_then(|v| v.checked_add(1)).ok_or_else(overflow)?;
        let first = period.min(n);
        let n0 = mul(i128::from(p), i128::from(x))?.checked_add(line.c).ok_or_else(overflow)?;
        // ⌈v/b⌉ = −⌊−v/b⌋.
        let (p, b, steps) = (i128::from(p), i128::from(b), i128::from(first - 1));
        let mut step = if upper {
            Stepper::stepping(n0, p, b, steps, direction.up)?
        } else {
            Stepper::stepping(-n0, -p, b, steps, direction.down)?
        };
        // One step per progression (what `MAX_PREFIXES` limits), counted at once.
        self.prefixes += first as u64;
        if self.prefixes > MAX_PREFIXES {
            return Err(TileModelError::InvalidInput(format!(
                "counting tiles visits more than {MAX_PREFIXES} tile rows; use larger tiles or smaller problem sizes"
            )));
        }
        // Where the marks go, found once for the whole piece: with stride 0 every `u` of a
        // progression ends on the same wavefront (the difference array takes its count at
        // once), else the marks of that stride.
        let span = self.tiles.len() as i64;
        let base = self.t_sum.saturating_sub(self.w_lo);
        let mut mass = 0i128;
        let (tiles, full_tiles, strided) = (&mut self.tiles, &mut self.full, &mut self.strided);
        let target: &mut Vec<i64> = if stride == 0 {
            if full {
                full_tiles
            } else {
                tiles
            }
        } else {
            // The marks of this stride, found once per direction (`Direction::marks`).
            let index = match direction.marks[usize::from(full)] {
                Some(k) => k,
                None => {
                    let k = match strided.iter().position(|(f, s, _)| *f == full && *s == stride) {
                        Some(k) => k,
                        None => {
                            strided.push((full, stride, zeroed(&mut self.spare, span as usize)));
                            strided.len() - 1
                        }
                    };
                    self.directions[at].marks[usize::from(full)] = Some(k);
                    k
                }
            };
            &mut strided[index].2
        };
        // The u = x + i + period·j up to y: ⌈(n − i) / period⌉ of them (n − i ≥ 1), that is
        // `q + 1` for `i ≤ r` and `q` after, with `n − 1 = q·period + r` (one division).
        // (No division for period 1, the examples' usual one.)
        let (q, r) = if period == 1 { (n - 1, 0) } else { ((n - 1) / period, (n - 1) % period) };
        for i in 0..first {
            let position = if upper { step.q.saturating_add(1) } else { step.q.saturating_neg() };
            let count = if i <= r { q + 1 } else { q };
            // Marks `count` wavefronts `t_sum + position + stride·j` (`j < count`).
            let at = base.saturating_add(position);
            if !(0..span).contains(&at) {
                return Err(TileModelError::InvalidInput(format!(
                    "a tile boundary at wavefront {} lies outside the wavefront range (a counting bug)",
                    at.saturating_add(self.w_lo)
                )));
            }
            if stride == 0 {
                target[at as usize] += sign * count;
            } else {
                target[at as usize] += sign;
                // One stride past the last: outside the array, the sums never reach it.
                let end = stride.checked_mul(count).and_then(|v| v.checked_add(at));
                if let Some(end) = end.filter(|e| (0..span).contains(e)) {
                    target[end as usize] -= sign;
                }
            }
            // A `+1` at wavefront index `x` of the differences adds a tile to every wavefront
            // from `x` to the last (`span − 2`): `span − 1 − x` tiles; the progression's marks
            // at `at + stride·j`, `j < count`, add `count·(span − 1 − at) − stride·count·(count − 1)/2`.
            // (c·(c − 1) is even and not negative: halved by a shift, not a 128-bit division.)
            // In 64 bits when every product fits (the 128-bit products cost a quarter of the
            // progressions), else in 128.
            let narrow = if count == 1 {
                Some(span - 1 - at)
            } else {
                count
                    .checked_mul(span - 1 - at)
                    .zip(count.checked_mul(count - 1).and_then(|cc| stride.checked_mul(cc >> 1)))
                    .and_then(|(x, y)| x.checked_sub(y))
            };
            let tiles = match narrow {
                Some(v) => i128::from(v),
                None => {
                    let (c, x, st) = (i128::from(count), i128::from(at), i128::from(stride));
                    c * (i128::from(span) - 1 - x) - st * ((c * (c - 1)) >> 1)
                }
            };
            mass += if sign < 0 { -tiles } else { tiles };
            step.advance();
        }
        self.counted[usize::from(full)] += mass;
        Ok(())
    }

    /// Adds the progressions' marks, summed along their strides, to the difference arrays.
    fn finish(&mut self) {
        for (full, stride, mut marks) in std::mem::take(&mut self.strided) {
            let n = marks.len();
            let step = stride.unsigned_abs() as usize;
            if stride > 0 {
                for x in step..n {
                    marks[x] += marks[x - step];
                }
            } else {
                for x in (0..n.saturating_sub(step)).rev() {
                    marks[x] += marks[x + step];
                }
            }
            let array = if full { &mut self.full } else { &mut self.tiles };
            for (d, v) in array.iter_mut().zip(&marks) {
                *d += v;
            }
            self.spare.push(marks);
        }
    }

    /// An array of `span` zeros, reusing a spare one.
    fn zeroed(&mut self, span: usize) -> Vec<i64> {
        zeroed(&mut self.spare, span)
    }

    /// Every array of the count (for the next, [`TileGeometry::give_back`]).
    fn arrays(&mut self) -> Vec<Vec<i64>> {
        let mut all = std::mem::take(&mut self.spare);
        all.push(std::mem::take(&mut self.tiles));
        all.push(std::mem::take(&mut self.full));
        all.extend(std::mem::take(&mut self.strided).into_iter().map(|(_, _, marks)| marks));
        all
    }

    /// `Σ_{q<k} a_q·Y_q` of the current prefix, unchecked (the facets' and erosion rows' sums,
    /// which fit: `interval`'s): in 64 bits when every term and partial sum fits (the 128-bit
    /// products were a tenth of a count), else in 128.
    #[inline]
    fn prefix_sum(&self, a: &[i64], k: usize) -> i128 {
        match self.narrow_sum(a, k) {
            Some(v) => i128::from(v),
            None => (0..k).map(|q| i128::from(a[q]) * self.y[q]).sum(),
        }
    }

    /// `Σ_{q<k} a_q·Y_q` of the current prefix.
    fn prefix_value(&self, a: &[i64], k: usize) -> Result<i128> {
        let mut v = 0i128;
        if let Some(narrow) = self.narrow_sum(a, k) {
            return Ok(i128::from(narrow));
        }
        for (&x, &y) in a.iter().zip(&self.y).take(k) {
            v = v.checked_add(mul(i128::from(x), y)?).ok_or(TileModelError::Overflow("tile facets"))?;
        }
        Ok(v)
    }

    /// `Σ_{q<k} a_q·Y_q` in 64 bits, `None` when a term or partial sum does not fit.
    #[inline]
    fn narrow_sum(&self, a: &[i64], k: usize) -> Option<i64> {
        let mut v = 0i64;
        for (&x, y) in a.iter().zip(&self.narrow).take(k) {
            v = v.checked_add(x.checked_mul((*y)?)?)?;
        }
        Some(v)
    }
}
