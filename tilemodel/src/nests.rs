//! The search of thesis Alg. 5.1 for a program of several nests inside host loops
//! ([`ProgramShape`]), e.g. symmetric SOR: a forward and a backward sweep, each tiled on its own
//! and launched wavefront by wavefront, inside the time loop on the host.
//!
//! Every nest tiles the same band with the same sizes and block, so a layout's time is the
//! host iterations times the sum of its times in each nest (each nest's wavefronts are separate
//! launches; thesis Eq. 5.11 per nest), with the part a run pays once
//! ([`crate::model::TileModel::run_constant`], Eq. 5.8's `σ_ker`) counted once. Nests without
//! instances at the problem sizes launch nothing and are left out. The layout that minimises
//! the sum is found as a top-k merge (Fagin's threshold algorithm): each nest's `k` best
//! layouts on their own ([`search`]), every layout among them timed in every nest, and `k`
//! widened until no layout outside them can beat the best: such a layout takes at least the
//! `k`-th best time of each nest whose list is full (a nest whose list is not full listed every
//! layout it can run).

use std::collections::BTreeMap;
use std::time::Instant;

use crate::calibration::Calibration;
use crate::error::{Result, TileModelError};
use crate::intra::Block;
use crate::model::{Prediction, Term};
use crate::search::{search, PrunedRegion, Ranked, SearchOptions, SearchReport};
use crate::shape::{BandShape, ProgramShape};

/// The layouts each nest's first search lists (or the layouts kept, if more).
const FIRST_CANDIDATES: usize = 16;

/// The most layouts a nest's search lists before the merge stops widening (it then reports
/// that its choice is the best of the layouts listed only).
const MOST_CANDIDATES: usize = 1024;

/// Thesis Alg. 5.1 over every nest of `program` (module documentation): with one nest and no
/// host loop, [`search`] itself.
pub fn search_nests(
    program: &ProgramShape,
    name: &str,
    calibration: &Calibration,
    options: &SearchOptions,
) -> Result<SearchReport> {
    if let Some(nest) = program.single() {
        return search(nest, name, calibration, options);
    }
    let start = Instant::now();
    let repeats = program.repeats() as f64;
    let nests: Vec<&BandShape> = program.nests.iter().filter(|n| n.instances() > 0).collect();
    let Some(&first_nest) = nests.first() else {
        return Err(TileModelError::InvalidInput("no statement has an instance at these problem sizes".into()));
    };
    let once = calibration
        .model(
            options.model,
            name,
            options.staged,
            first_nest.operations_per_point(),
            first_nest.element_bytes(),
            first_nest.data_bytes(),
        )
        .run_constant();
    let joint_time = Joint { repeats, once: once.as_ref().map_or(0.0, |t| t.seconds) };
    let keep = options.keep.max(1);
    let mut k = keep.max(FIRST_CANDIDATES);
    // Every nest searches the same tile sizes (those of the widest extent of each row), so
    // that a layout missing from a nest's full list is slower there than its last.
    let extents = options.size_extents.clone().unwrap_or_else(|| program.widest_extents());
    let options = &SearchOptions { size_extents: Some(extents), ..options.clone() };
    loop {
        let listed = nests
            .iter()
            .map(|nest| search(nest, name, calibration, &SearchOptions { keep: k, beat: None, ..options.clone() }))
            .collect::<Result<Vec<_>>>()?;
        let mut candidates: BTreeMap<(Vec<i64>, Block), Vec<Option<Ranked>>> = BTreeMap::new();
        for (n, report) in listed.iter().enumerate() {
            for r in &report.best {
                candidates.entry((r.sizes.clone(), r.block)).or_insert_with(|| vec![None; listed.len()])[n] =
                    Some(r.clone());
            }
        }
        // Each candidate in the nests that did not list it: its time there (or none, when that
        // nest cannot run it).
        let mut evaluated: u64 = listed.iter().map(|r| r.evaluated).sum();
        let mut joint: Vec<Ranked> = Vec::new();
        'candidates: for ((sizes, block), mut per_nest) in candidates {
            for (n, slot) in per_nest.iter_mut().enumerate() {
                if slot.is_some() {
                    continue;
                }
                let fixed = SearchOptions {
                    fixed_sizes: Some(sizes.clone()),
                    fixed_block: Some(block),
                    keep: 1,
                    beat: None,
                    ..options.clone()
                };
                evaluated += 1;
                match search(nests[n], name, calibration, &fixed) {
                    Ok(report) => match report.best.into_iter().next() {
                        Some(r) => *slot = Some(r),
                        None => continue 'candidates,
                    },
                    Err(TileModelError::NoLayout(_)) => continue 'candidates,
                    Err(e) => return Err(e),
                }
            }
            let rows: Vec<Ranked> = per_nest.into_iter().flatten().collect();
            joint.push(combine(&rows, &joint_time, once.as_ref()));
        }
        joint.sort_by(|a, b| {
            a.prediction
                .seconds
                .total_cmp(&b.prediction.seconds)
                .then_with(|| (&a.sizes, a.block).cmp(&(&b.sizes, b.block)))
        });
        // No layout outside the lists takes less than this (module documentation).
        let threshold = joint_time.seconds(listed.iter().map(|r| {
            if r.best.len() < k {
                f64::INFINITY
            } else {
                r.best[k - 1].prediction.seconds
            }
        }));
        let best = joint.first().map(|r| r.prediction.seconds);
        let proven = best.is_none_or(|b| !crate::search::beyond(b, threshold));
        if !proven && k < MOST_CANDIDATES {
            k = (k * 4).min(MOST_CANDIDATES);
            continue;
        }
        joint.truncate(keep);
        if let Some(beat) = options.beat {
            joint.retain(|r| !crate::search::beyond(r.prediction.seconds, beat));
        }
        if joint.is_empty() && options.beat.is_none() {
            return Err(TileModelError::NoLayout(format!(
                "no layout runs in all {} nests (each nest's {k} best were tried in the others)",
                nests.len()
            )));
        }
        let loops: Vec<String> =
            program.host_loops.iter().map(|l| format!("{} ({} iterations)", l.name, l.trips)).collect();
        let composition = format!(
            "{} {} inside {}: {} host iterations in all; each nest's {k} best layouts timed in every nest; {}",
            nests.len(),
            if nests.len() == 1 { "nest" } else { "nests" },
            match loops.len() {
                0 => "no host loop".to_string(),
                1 => format!("host loop {}", loops[0]),
                _ => format!("host loops {}", loops.join(", ")),
            },
            program.repeats(),
            if proven {
                "no other layout can beat the choice"
            } else {
                "the choice is the best of these only (the merge stopped widening)"
            }
        );
        let first = &listed[0];
        return Ok(SearchReport {
            model: first.model,
            equations: first.equations,
            best: joint,
            pruned: merge_pruned(&listed),
            sizes_considered: listed.iter().map(|r| r.sizes_considered).sum(),
            evaluated,
            options: options.clone(),
            reuse_threshold: first.reuse_threshold,
            params: program.params.clone(),
            elapsed: start.elapsed(),
            composition: Some(composition),
        });
    }
}

/// How the nests' times of one layout make the program's.
struct Joint {
    /// The host iterations.
    repeats: f64,
    /// The seconds a run pays once (in every nest's time).
    once: f64,
}

impl Joint {
    /// The program's time from each nest's: every nest in every host iteration, the run's
    /// constant once.
    fn seconds(&self, nests: impl Iterator<Item = f64>) -> f64 {
        self.once + self.repeats * nests.map(|s| s - self.once).sum::<f64>()
    }
}

/// One layout over every nest, in every host iteration: times, launches and tiles add up (the
/// run's constant term `once` counted once); the steps, `N_mem` and shared memory are the most
/// demanding nest's, blocks per SM and reuse the least.
fn combine(rows: &[Ranked], joint: &Joint, once: Option<&Term>) -> Ranked {
    let repeats = joint.repeats;
    let times = |v: u64| (v as f64 * repeats).min(u64::MAX as f64) as u64;
    let mut terms: Vec<Term> = Vec::new();
    for r in rows {
        for t in &r.prediction.terms {
            match terms.iter_mut().find(|x| x.name == t.name) {
                Some(x) => x.seconds += t.seconds * repeats,
                None => terms.push(Term { name: t.name, seconds: t.seconds * repeats }),
            }
        }
    }
    if let Some(once) = once {
        if let Some(t) = terms.iter_mut().find(|t| t.name == once.name) {
            t.seconds = once.seconds;
        }
    }
    let first = &rows[0];
    Ranked {
        sizes: first.sizes.clone(),
        block: first.block,
        prediction: Prediction { seconds: joint.seconds(rows.iter().map(|r| r.prediction.seconds)), terms },
        wavefronts: usize::try_from(times(rows.iter().map(|r| r.wavefronts as u64).sum())).unwrap_or(usize::MAX),
        tiles: times(rows.iter().map(|r| r.tiles).sum()),
        full_tiles: times(rows.iter().map(|r| r.full_tiles).sum()),
        steps: rows.iter().map(|r| r.steps).max().unwrap_or(0),
        accesses: rows.iter().map(|r| r.accesses).max().unwrap_or(0),
        shared_bytes: rows.iter().map(|r| r.shared_bytes).max().unwrap_or(0),
        blocks_per_sm: rows.iter().map(|r| r.blocks_per_sm).min().unwrap_or(0),
        reuse: rows.iter().map(|r| r.reuse).fold(f64::INFINITY, f64::min),
    }
}

/// The nests' pruned regions by reason: counts added, the first nest's example.
fn merge_pruned(reports: &[SearchReport]) -> Vec<PrunedRegion> {
    let mut merged: Vec<PrunedRegion> = Vec::new();
    for p in reports.iter().flat_map(|r| &r.pruned) {
        match merged.iter_mut().find(|m| m.reason == p.reason) {
            Some(m) => m.count += p.count,
            None => merged.push(p.clone()),
        }
    }
    merged.sort_by_key(|p| p.reason);
    merged
}
