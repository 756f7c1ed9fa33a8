//! Shared checks of the code-generation tests: run a generated loop nest with the
//! interpreter and compare it with the SCoP — every instance exactly once, in tiled-schedule
//! order (time stamps never decrease), every conflicting access pair of the original program in its original order (also
//! with every parallel loop run backwards).

#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap};

use stencil_poly::codegen::{generate, ExecuteOptions, LoopNest, ScanOptions, ScanProblem};
use stencil_poly::tiling::{tile, TiledSchedule, TilingInput, TilingOptions};
use stencil_poly::*;

/// A statement instance: statement index and iterators.
pub type Instance = (usize, Vec<i64>);

/// Tiles and generates code.
pub fn tile_and_generate(scop: &Scop, input: &TilingInput, options: &TilingOptions) -> (TiledSchedule, LoopNest) {
    let ddg = DependenceGraph::compute(scop, &DependenceOptions::default()).unwrap();
    let tiled = tile(scop, input, &ddg, options).unwrap_or_else(|e| panic!("tiling failed: {e}\n{scop}"));
    let nest = generate(&ScanProblem::from_tiled(&tiled, scop).unwrap(), &ScanOptions::default())
        .unwrap_or_else(|e| panic!("code generation failed: {e}\n{}", tiled.display(scop)));
    (tiled, nest)
}

/// The instances the loop nest runs, in order.
pub fn run(nest: &LoopNest, params: &[i64], reverse_parallel: bool) -> Vec<Instance> {
    let mut out = Vec::new();
    let options = ExecuteOptions { reverse_parallel, ..ExecuteOptions::default() };
    nest.execute_with(params, &options, |s, it| out.push((s.0, it.to_vec()))).unwrap();
    out
}

/// Every instance of every statement domain, as a set.
pub fn instances(scop: &Scop, params: &[i64]) -> BTreeSet<Instance> {
    let limits = Limits::default();
    let mut all = BTreeSet::new();
    for (s, st) in scop.statements().iter().enumerate() {
        for it in st.domain().enumerate(params, &limits).unwrap() {
            all.insert((s, it));
        }
    }
    all
}

/// Conflicting access pairs (memory-based, from executing the original program) as instance
/// pairs, source first.
pub fn conflicts(scop: &Scop, params: &[i64]) -> Vec<(Instance, Instance)> {
    let (memory, _) = crate::common::trace(scop, params);
    memory.into_iter().map(|(s, _, is, t, _, it)| ((s, is), (t, it))).collect()
}

/// Checks the loop nest against the SCoP for `params` (see the module documentation).
pub fn check(scop: &Scop, tiled: &TiledSchedule, nest: &LoopNest, params: &[i64]) {
    let expected = instances(scop, params);
    let pairs = conflicts(scop, params);
    for reverse in [false, true] {
        let visits = run(nest, params, reverse);
        let mut seen = BTreeSet::new();
        for v in &visits {
            assert!(expected.contains(v), "instance {v:?} is not in the domain (params {params:?})\n{nest}");
            assert!(seen.insert(v.clone()), "instance {v:?} runs twice (params {params:?})\n{nest}");
        }
        assert_eq!(seen.len(), expected.len(), "instances missing (params {params:?})\n{nest}");
        let position: HashMap<&Instance, usize> = visits.iter().enumerate().map(|(k, v)| (v, k)).collect();
        if !reverse {
            let stamp = |v: &Instance| {
                let point: Vec<i64> = v.1.iter().chain(params).copied().collect();
                tiled.time_stamp(StatementId(v.0), &point).unwrap()
            };
            // Non-decreasing: the scheduler leaves independent instances of different
            // statements at the same time stamp when no dependence needs them ordered.
            for w in visits.windows(2) {
                assert!(
                    stamp(&w[0]) <= stamp(&w[1]),
                    "{:?} {:?} runs before {:?} {:?} (params {params:?})\n{nest}",
                    w[0],
                    stamp(&w[0]),
                    w[1],
                    stamp(&w[1])
                );
            }
        }
        for (src, tgt) in &pairs {
            assert!(
                position[src] < position[tgt],
                "dependence {src:?} -> {tgt:?} reversed (parallel loops reversed: {reverse}, params {params:?})\n{}\n{nest}",
                tiled.display(scop)
            );
        }
    }
}

/// Checks [`stencil_poly::codegen::tile_footprints`] against brute force for `params`: for
/// every tile (the values of the dimensions before the first point dimension) and every array
/// it touches, the box holds every element the tile reads or writes, and the read and write
/// membership tests accept exactly those elements (checked over the box and a margin of two
/// around it).
pub fn check_footprints(scop: &Scop, tiled: &TiledSchedule, params: &[i64]) {
    use stencil_poly::codegen::{tile_footprints, Bound, ElementRegion, GuardKind};
    use stencil_poly::tiling::DimKind;
    let limits = Limits::default();
    let problem = ScanProblem::from_tiled(tiled, scop).unwrap();
    let n = problem.dims.len();
    let first_point =
        problem.dims.iter().position(|d| matches!(d.kind, DimKind::Point | DimKind::PointWavefront)).unwrap_or(n);
    let outer: Vec<bool> = (0..n).map(|d| d < first_point).collect();
    // Per tile: per array, elements read and written.
    type Touched = HashMap<usize, (BTreeSet<Vec<i64>>, BTreeSet<Vec<i64>>)>;
    let mut tiles: std::collections::BTreeMap<Vec<i64>, (BTreeSet<usize>, Touched)> = Default::default();
    for s in &problem.statements {
        let k = s.iterators.len();
        let st = scop.statement(s.statement).unwrap();
        for point in s.domain.enumerate(params, &limits).unwrap() {
            let key: Vec<i64> = (0..n).map(|d| if outer[d] { point[d] } else { 0 }).collect();
            let iters: Vec<i64> = point[n..n + k].iter().chain(params).copied().collect();
            let entry = tiles.entry(key).or_default();
            entry.0.insert(s.statement.0);
            for access in st.accesses() {
                let element = access.element(&iters).unwrap();
                let sets = entry.1.entry(access.array().0).or_default();
                if access.is_write() { &mut sets.1 } else { &mut sets.0 }.insert(element);
            }
        }
    }
    let eval = |b: &Bound, point: &[i64], ceil: bool| {
        let v = b.expr.eval(point).unwrap();
        if ceil {
            v.div_euclid(b.divisor) + i64::from(v.rem_euclid(b.divisor) != 0)
        } else {
            v.div_euclid(b.divisor)
        }
    };
    let member = |regions: &[ElementRegion], point: &[i64]| {
        regions.iter().any(|r| {
            r.guards.iter().all(|g| {
                let v = g.expr.eval(point).unwrap();
                if g.kind == GuardKind::Zero {
                    v == 0
                } else {
                    v >= 0
                }
            }) && (r.lower.is_empty()
                || r.lower.iter().map(|b| eval(b, point, true)).max()
                    <= r.upper.iter().map(|b| eval(b, point, false)).min())
        })
    };
    for (key, (statements, touched)) in &tiles {
        let ids: Vec<StatementId> = statements.iter().map(|&s| StatementId(s)).collect();
        let footprints = tile_footprints(&problem, scop, &ids, &outer, &limits)
            .unwrap_or_else(|e| panic!("footprint failed: {e}\n{}", tiled.display(scop)));
        let nest_point: Vec<i64> = key.iter().chain(params).copied().collect();
        for fp in &footprints {
            let (reads, writes) = touched.get(&fp.array.0).cloned().unwrap_or_default();
            let origin: Vec<i64> = fp
                .origin
                .iter()
                .map(|candidates| {
                    candidates
                        .iter()
                        .filter(|c| {
                            c.active.iter().all(|g| {
                                let v = g.expr.eval(&nest_point).unwrap();
                                if g.kind == GuardKind::Zero {
                                    v == 0
                                } else {
                                    v >= 0
                                }
                            })
                        })
                        .map(|c| c.lower.iter().map(|b| eval(b, &nest_point, true)).max().unwrap())
                        .min()
                        .unwrap_or(i64::MAX)
                })
                .collect();
            let context = || format!("tile {key:?}, array {}, params {params:?}\n{}", fp.array.0, tiled.display(scop));
            for e in reads.iter().chain(&writes) {
                for (d, &x) in e.iter().enumerate() {
                    assert!(
                        origin[d] <= x && x < origin[d] + fp.extent[d],
                        "element {e:?} outside the box {origin:?} + {:?} ({})",
                        fp.extent,
                        context()
                    );
                }
            }
            // Every element of the box and a margin of 2.
            let mut element: Vec<i64> = origin.iter().map(|o| o - 2).collect();
            'scan: loop {
                let point: Vec<i64> = key.iter().chain(&element).chain(params).copied().collect();
                assert_eq!(
                    member(&fp.reads, &point),
                    reads.contains(&element),
                    "read test at {element:?} ({})",
                    context()
                );
                assert_eq!(
                    member(&fp.writes, &point),
                    writes.contains(&element),
                    "write test at {element:?} ({})",
                    context()
                );
                // The same sets through the bases: element − offset in a base.
                let through_bases = |write: bool| {
                    fp.bases.iter().any(|b| {
                        let offsets = if write { &b.writes } else { &b.reads };
                        offsets.iter().any(|o| {
                            let shifted: Vec<i64> = key
                                .iter()
                                .copied()
                                .chain(element.iter().zip(o).map(|(x, o)| x - o))
                                .chain(params.iter().copied())
                                .collect();
                            member(std::slice::from_ref(&b.region), &shifted)
                        })
                    })
                };
                assert_eq!(through_bases(false), reads.contains(&element), "read bases at {element:?} ({})", context());
                assert_eq!(
                    through_bases(true),
                    writes.contains(&element),
                    "write bases at {element:?} ({})",
                    context()
                );
                for d in (0..element.len()).rev() {
                    element[d] += 1;
                    if element[d] < origin[d] + fp.extent[d] + 2 {
                        continue 'scan;
                    }
                    element[d] = origin[d] - 2;
                }
                break;
            }
        }
    }
}

/// What [`check_full_tiles`] found: tiles in all, tiles classified full.
pub struct FullTileCounts {
    /// Tiles with at least one instance.
    pub tiles: usize,
    /// Of those, the tiles the partial-tile test lets take the full-tile loops.
    pub full: usize,
    /// Of those, the tiles whose full-tile loops run exactly their instances (full or not).
    pub truly_full: usize,
}

/// Full/partial tile separation (`codegen::full_tiles` below the first `outer` dimensions) at
/// `params`: every tile classified full runs, with the full-tile loops, exactly the instances
/// the general loops run in it, in the same order; a tile whose full-tile loops run anything
/// else is classified partial; the guarded full-tile loops run every tile's instances in order.
/// `None` when the full-tile code cannot be built within the projection limits.
pub fn check_full_tiles(
    scop: &Scop,
    tiled: &TiledSchedule,
    nest: &LoopNest,
    params: &[i64],
    outer: usize,
) -> Option<FullTileCounts> {
    use stencil_poly::codegen::{full_tiles, Guard, GuardKind};
    let holds = |guards: &[Guard], column: &[i64]| {
        guards.iter().all(|g| {
            let v = g.expr.eval(column).unwrap();
            match g.kind {
                GuardKind::NonNegative => v >= 0,
                GuardKind::Zero => v == 0,
            }
        })
    };
    let full = full_tiles(tiled, scop, outer, &ScanOptions::default()).ok()?;
    let body = LoopNest { root: full.body.clone(), ..nest.clone() };
    let guarded = LoopNest { root: full.guarded.clone(), ..nest.clone() };
    // The general nest's instances per tile, in order.
    let mut per_tile: std::collections::BTreeMap<Vec<i64>, Vec<Instance>> = Default::default();
    let mut tile_of = HashMap::new();
    let nd = tiled.dims.len();
    for st in &tiled.statements {
        let n = scop.statement(st.statement).unwrap().n_iterators();
        for point in st.domain.enumerate(params, &Limits::default()).unwrap() {
            tile_of.insert((st.statement.0, point[nd..nd + n].to_vec()), point[..outer].to_vec());
        }
    }
    nest.execute(params, |s, it| {
        let tile = tile_of[&(s.0, it.to_vec())].clone();
        per_tile.entry(tile).or_default().push((s.0, it.to_vec()));
    })
    .unwrap();
    let mut counts = FullTileCounts { tiles: per_tile.len(), full: 0, truly_full: 0 };
    for (tile, instances) in &per_tile {
        let mut column = tile.clone();
        column.resize(nest.space.n_dims(), 0);
        column.extend(params);
        let partial = full.partial_when.iter().any(|set| holds(set, &column));
        let mut ran = Vec::new();
        body.execute_at(tile, params, &Default::default(), |s, it| ran.push((s.0, it.to_vec()))).unwrap();
        if !partial {
            counts.full += 1;
            assert_eq!(&ran, instances, "tile {tile:?} classified full runs other instances\n{nest}");
        }
        let mut guarded_ran = Vec::new();
        guarded.execute_at(tile, params, &Default::default(), |s, it| guarded_ran.push((s.0, it.to_vec()))).unwrap();
        assert_eq!(&guarded_ran, instances, "tile {tile:?}: the guarded full-tile loops run other instances\n{nest}");
        if &ran == instances {
            counts.truly_full += 1;
        }
    }
    Some(counts)
}
