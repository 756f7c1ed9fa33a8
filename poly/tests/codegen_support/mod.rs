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
