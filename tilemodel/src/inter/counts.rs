//! The result of a count: tiles and full tiles per inter-tile wavefront ([`InterTileCounts`]),
//! kept with a long run's repeated stretch once ([`Repeat`]), and read through
//! [`PerWavefront`], which sums over that stretch in closed form.

use super::MAX_WAVEFRONTS;
use crate::error::{Result, TileModelError};

/// Per inter-tile wavefront (the launches of the mapping, in order), its tiles.
///
/// A long run's counts (`crate::period`: thousands of sweeps over a small domain) repeat one
/// stretch of wavefronts many times; they are kept with that stretch once and how often it
/// repeats ([`Repeat`]), so that neither the count nor what the models sum over it grows with
/// the run's length. Equality is of the wavefronts the counts stand for, however they are kept.
#[derive(Debug, Clone)]
pub struct InterTileCounts {
    /// The wavefront number `w` of the first launch.
    pub first_wavefront: i64,
    /// Tiles per wavefront, `w = first_wavefront + index` (before `repeat`'s copies; after
    /// them, shifted by the copies' wavefronts).
    pub tiles: Vec<u64>,
    /// Full tiles per wavefront (thesis §5.3.4: the others are border tiles); aligned with
    /// `tiles`.
    pub full: Vec<u64>,
    /// A stretch of `tiles` and `full` that the wavefronts repeat more times than are kept.
    pub repeat: Option<Repeat>,
}

/// Entries `start .. start + len` of [`InterTileCounts::tiles`] (and `full`) followed by
/// `times` more copies of themselves: the wavefronts are the kept entries up to the stretch's
/// end, `times` copies of the stretch, then the kept entries after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Repeat {
    /// The stretch's first entry.
    pub start: usize,
    /// Its entries (at least 1).
    pub len: usize,
    /// The copies of it beyond the one kept.
    pub times: u64,
}

impl PartialEq for InterTileCounts {
    fn eq(&self, other: &InterTileCounts) -> bool {
        if self.first_wavefront != other.first_wavefront || self.wavefronts() != other.wavefronts() {
            return false;
        }
        match (self.canonical(), other.canonical()) {
            (Some(a), Some(b)) => a == b,
            // At most as many wavefronts as the one written out has entries.
            _ => self.per_wavefront().wavefronts().eq(other.per_wavefront().wavefronts()),
        }
    }
}

impl Eq for InterTileCounts {}

/// Counts with a repeated stretch in one form for equal wavefronts ([`InterTileCounts::canonical`]):
/// the entries before the stretch, the stretch, how many times it occurs, the entries after.
type Canonical = (Vec<(u64, u64)>, Vec<(u64, u64)>, u128, std::collections::VecDeque<(u64, u64)>);

impl InterTileCounts {
    /// The counts of wavefronts `w_lo, w_lo + 1, …` (`tiles`, `full`: one entry each) cut to
    /// the launches: from the first to the last wavefront with tiles (in place).
    pub(crate) fn launched(w_lo: i64, tiles: Vec<u64>, full: Vec<u64>) -> Result<InterTileCounts> {
        InterTileCounts { first_wavefront: w_lo, tiles, full, repeat: None }.trimmed()
    }

    /// The same wavefronts without those before the first and after the last with tiles.
    /// Where they reach into the repeated stretch (a stretch without tiles at its ends), the
    /// counts are written out first.
    pub(crate) fn trimmed(mut self) -> Result<InterTileCounts> {
        let first = self.tiles.iter().position(|&t| t > 0).unwrap_or(0);
        let last = self.tiles.iter().rposition(|&t| t > 0).map_or(first, |l| l + 1);
        if let Some(r) = self.repeat {
            if first > r.start || last < r.start + r.len {
                let (tiles, full) = self.per_wavefront().written_out(MAX_WAVEFRONTS)?;
                return InterTileCounts::launched(self.first_wavefront, tiles, full);
            }
            self.repeat = Some(Repeat { start: r.start - first, ..r });
        }
        // `first` is below the span, at most `MAX_WAVEFRONTS`.
        self.first_wavefront = self
            .first_wavefront
            .checked_add(i64::try_from(first).map_err(|_| TileModelError::Overflow("inter-tile wavefronts"))?)
            .ok_or(TileModelError::Overflow("inter-tile wavefronts"))?;
        for counts in [&mut self.tiles, &mut self.full] {
            counts.truncate(last);
            counts.drain(..first);
        }
        Ok(self)
    }

    /// With a repeated stretch, the counts in a form that two keepings of the same wavefronts
    /// share: the stretch cut to its least period, started as early as the wavefronts before it
    /// allow, and taking every whole copy of itself that follows it.
    fn canonical(&self) -> Option<Canonical> {
        let r = self.repeat?;
        // Entries past the kept ones (a `Repeat` built by hand beyond them) count as empty.
        let entry = |i: usize| (self.tiles.get(i).copied().unwrap_or(0), self.full.get(i).copied().unwrap_or(0));
        let end = r.start.saturating_add(r.len).min(self.tiles.len());
        let start = r.start.min(end);
        let mut stretch: Vec<(u64, u64)> = (start..end).map(entry).collect();
        if stretch.is_empty() {
            // Nothing repeats: the kept entries alone.
            return Some(((0..self.tiles.len()).map(entry).collect(), Vec::new(), 0, Default::default()));
        }
        let mut copies = u128::from(r.times) + 1;
        let n = stretch.len();
        if let Some(p) = (1..n).find(|&p| n.is_multiple_of(p) && (p..n).all(|i| stretch[i] == stretch[i - p])) {
            copies *= (n / p) as u128;
            stretch.truncate(p);
        }
        let mut head: Vec<(u64, u64)> = (0..start).map(entry).collect();
        let mut tail: std::collections::VecDeque<(u64, u64)> = (end..self.tiles.len()).map(entry).collect();
        // `x B^k` with `x` the stretch's last entry is `B'^k x`, `B'` the stretch rotated.
        while let (Some(&x), Some(&last)) = (head.last(), stretch.last()) {
            if x != last {
                break;
            }
            head.pop();
            stretch.rotate_right(1);
            tail.push_front(x);
        }
        while tail.len() >= stretch.len() && tail.iter().take(stretch.len()).eq(stretch.iter()) {
            tail.drain(..stretch.len());
            copies += 1;
        }
        Some((head, stretch, copies, tail))
    }

    /// The per-wavefront counts, each entry with how many wavefronts it stands for.
    pub fn per_wavefront(&self) -> PerWavefront<'_> {
        PerWavefront { tiles: &self.tiles, full: &self.full, repeat: self.repeat }
    }

    /// Number of inter-tile wavefronts (kernel launches), saturating.
    pub fn wavefronts(&self) -> usize {
        usize::try_from(self.per_wavefront().count()).unwrap_or(usize::MAX)
    }

    /// Tiles in all wavefronts (saturating).
    pub fn total_tiles(&self) -> u64 {
        self.per_wavefront().sum_tiles(|n| n)
    }

    /// Full tiles in all wavefronts (saturating).
    pub fn total_full(&self) -> u64 {
        self.per_wavefront().sum_full(|n| n)
    }

    /// The most tiles of one wavefront.
    pub fn widest(&self) -> u64 {
        self.tiles.iter().copied().max().unwrap_or(0)
    }
}

/// Counts per wavefront as the models read them ([`InterTileCounts::per_wavefront`], or the
/// counts so far of a count that may stop, [`super::Partial`]): entries, each standing for one
/// wavefront or, in the repeated stretch, for `1 + times`.
#[derive(Debug, Clone, Copy)]
pub struct PerWavefront<'a> {
    /// Tiles per entry.
    pub tiles: &'a [u64],
    /// Full tiles per entry (as many entries as `tiles`).
    pub full: &'a [u64],
    /// The stretch of entries that stands for more wavefronts.
    pub repeat: Option<Repeat>,
}

impl<'a> PerWavefront<'a> {
    /// Entries standing for one wavefront each.
    pub fn plain(tiles: &'a [u64], full: &'a [u64]) -> PerWavefront<'a> {
        PerWavefront { tiles, full, repeat: None }
    }

    /// How many wavefronts the entries stand for (saturating).
    pub fn count(&self) -> u64 {
        let copies = self.repeat.map_or(0, |r| r.len as u128 * u128::from(r.times));
        u64::try_from(self.tiles.len() as u128 + copies).unwrap_or(u64::MAX)
    }

    /// How many wavefronts entry `i` stands for.
    pub fn weight(&self, i: usize) -> u64 {
        match self.repeat {
            Some(r) if (r.start..r.start.saturating_add(r.len)).contains(&i) => r.times.saturating_add(1),
            _ => 1,
        }
    }

    /// `Σ_w f(tiles_w)` over the wavefronts, saturating.
    pub fn sum_tiles(&self, f: impl Fn(u64) -> u64) -> u64 {
        self.weighted_sum(self.tiles, f)
    }

    /// `Σ_w f(full_w)` over the wavefronts, saturating.
    pub fn sum_full(&self, f: impl Fn(u64) -> u64) -> u64 {
        self.weighted_sum(self.full, f)
    }

    fn weighted_sum(&self, values: &[u64], f: impl Fn(u64) -> u64) -> u64 {
        let once = crate::model::sum_saturating(values, &f);
        let Some(r) = self.repeat else { return once };
        let stretch = values.get(r.start..r.start.saturating_add(r.len).min(values.len())).unwrap_or(&[]);
        let copies = u128::from(crate::model::sum_saturating(stretch, &f)) * u128::from(r.times);
        u64::try_from(u128::from(once) + copies).unwrap_or(u64::MAX)
    }

    /// `(tiles, full)` of every wavefront in order (a long run's repeated stretch as often as
    /// it repeats: for tests and comparisons, not for sums).
    pub fn wavefronts(&self) -> impl Iterator<Item = (u64, u64)> + 'a {
        let (tiles, full) = (self.tiles, self.full);
        // Entries past the kept ones (a `Repeat` built by hand beyond them) count as empty.
        let entry = move |i: usize| (tiles.get(i).copied().unwrap_or(0), full.get(i).copied().unwrap_or(0));
        let (start, len, times) = self.repeat.map_or((0, 0, 0), |r| (r.start, r.len, r.times));
        let end = start.saturating_add(len).min(tiles.len());
        let start = start.min(end);
        let head = (0..end).map(entry);
        let times = if start < end { times } else { 0 };
        let copies = (0..times).flat_map(move |_| (start..end).map(entry));
        head.chain(copies).chain((end..tiles.len()).map(entry))
    }

    /// Every wavefront's tiles and full tiles written out, an error past `limit` wavefronts.
    pub fn written_out(&self, limit: u64) -> Result<(Vec<u64>, Vec<u64>)> {
        let n = self.count();
        if n > limit {
            return Err(TileModelError::TooManyWavefronts(format!(
                "counts of {n} inter-tile wavefronts written out, more than the {limit} one count of tiles holds"
            )));
        }
        Ok(self.wavefronts().unzip())
    }
}
