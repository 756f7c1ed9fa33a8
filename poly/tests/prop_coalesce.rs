//! `coalesced_band` and `coalesce_bands` (poly-schedule{coalesce=true}) on generated in-place
//! stencils: whenever a band is proposed, it keeps the first row, is unimodular, every row is
//! non-negative on every dependence, the last row's step moves only the write's last subscript,
//! by the stride it reports, and the rows before the last vanish on that step; `coalesce_bands`
//! applies every proposal (all are legal) and the checker agrees the result is permutable and
//! legal.

use proptest::prelude::*;
use stencil_poly::schedule::{check_permutable, coalesce_bands, coalesced_band, CoalescedBand};
use stencil_poly::*;

/// An in-place stencil over `d` space dimensions inside a time loop (SOR-like when it reads
/// neighbours on both sides): it reads `A` at the centre and at the offsets of `reads`.
fn stencil(d: usize, reads: &[Vec<i64>]) -> Scop {
    let names = ["i", "j", "k"];
    let params = ["N", "M", "L"];
    let mut all = vec!["T"];
    all.extend(&params[..d]);
    let mut scop = Scop::new(all);
    let context: Vec<String> =
        std::iter::once("T >= 1".to_string()).chain(params[..d].iter().map(|p| format!("{p} >= 5"))).collect();
    scop.add_context(&context.join(", ")).unwrap();
    let a = scop.add_array("A", d).unwrap();
    let iterators: Vec<&str> = std::iter::once("t").chain(names[..d].iter().copied()).collect();
    let space = scop.statement_space(iterators.iter().copied());
    let mut domain = vec!["0 <= t < T".to_string()];
    for k in 0..d {
        domain.push(format!("2 <= {} < {} - 2", names[k], params[k]));
    }
    let dom = Polyhedron::parse(space.clone(), &domain.join(", ")).unwrap();
    let s =
        scop.add_statement(Statement::new("S", dom, Schedule::from_beta(&vec![0; d + 2], &space).unwrap())).unwrap();
    let centre = names[..d].join(", ");
    let index = |offset: &[i64]| -> String {
        (0..d)
            .map(|k| match offset[k] {
                0 => names[k].to_string(),
                o if o > 0 => format!("{} + {o}", names[k]),
                o => format!("{} - {}", names[k], -o),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, &centre).unwrap()).unwrap();
    for offset in reads {
        scop.add_access(s, AccessRelation::parse(AccessKind::Read, a, &space, &index(offset)).unwrap()).unwrap();
    }
    scop.add_access(s, AccessRelation::parse(AccessKind::Write, a, &space, &centre).unwrap()).unwrap();
    scop
}

fn offsets(d: usize) -> impl Strategy<Value = Vec<Vec<i64>>> {
    prop::collection::vec(prop::collection::vec(-1i64..=1, d), 1..=4)
        .prop_map(|v| v.into_iter().filter(|o| o.iter().any(|&x| x != 0)).collect())
}

fn dot(a: &[i64], b: &[i64]) -> i64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn proposed_bands_are_legal_and_step_along_the_last_subscript(
        (d, reads) in (1usize..=3).prop_flat_map(|d| (Just(d), offsets(d)))
    ) {
        let scop = stencil(d, &reads);
        let graph = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
        let Ok(t) = schedule(&scop, &graph, &SchedulerOptions::gpu()) else { return Ok(()) };
        let n = d + 1;
        let old: Vec<Vec<Vec<i64>>> = t
            .bands
            .iter()
            .map(|band| band.rows.clone().map(|r| t.schedules[0].rows()[r].coeffs()[..n].to_vec()).collect())
            .collect();
        let bands = t.bands.clone();
        let proposed: Vec<Option<CoalescedBand>> = (0..bands.len()).map(|b| coalesced_band(&scop, &graph, &t, b)).collect();
        let (coalesced, applied) = coalesce_bands(&scop, &graph, t, &Limits::default()).unwrap();
        for (b, band) in proposed.iter().enumerate() {
            let Some(band) = band else { continue };
            prop_assert_eq!(&band.rows[0], &old[b][0]);
            prop_assert_eq!(determinant(&band.rows).map(i128::abs), Some(1));
            for dep in graph.dependences() {
                let distance = dep.distance.clone().unwrap();
                for row in &band.rows {
                    prop_assert!(dot(row, &distance) >= 0, "{:?} on {:?}", row, distance);
                }
            }
            let m = band.rows.len();
            for (k, row) in band.rows.iter().enumerate() {
                prop_assert_eq!(dot(row, &band.step), i64::from(k == m - 1));
            }
            // The write is A[i, j, k] (iterators 1..): only the last one moves.
            prop_assert!(band.step[1..n - 1].iter().all(|&x| x == 0), "{:?}", band.step);
            prop_assert_eq!(band.step[n - 1].unsigned_abs(), band.stride);
            // Every proposal is legal, so it is applied, and the checker agrees on the result.
            prop_assert!(applied.iter().any(|(a, applied)| *a == b && applied == band), "band {} not applied", b);
            let rows: Vec<Vec<i64>> =
                bands[b].rows.clone().map(|r| coalesced.schedules[0].rows()[r].coeffs()[..n].to_vec()).collect();
            prop_assert_eq!(&rows, &band.rows);
            let permutable =
                check_permutable(&scop, &graph, &coalesced.schedules, bands[b].rows.clone(), &Limits::default()).unwrap();
            prop_assert!(permutable.is_legal());
        }
        prop_assert_eq!(applied.len(), proposed.iter().flatten().count());
        prop_assert!(check_legality(&scop, &graph, &coalesced.schedules, &Limits::default()).unwrap().is_legal());
    }
}

/// The examples' SOR: 2-D and 3-D get a band (threads 2 elements apart), 1-D keeps its own
/// (already 2 apart, the least its first row allows).
#[test]
fn sor_bands() {
    let star = |d: usize| -> Vec<Vec<i64>> {
        (0..d).flat_map(|k| [-1i64, 1].map(|s| (0..d).map(|j| if j == k { s } else { 0 }).collect())).collect()
    };
    for (d, expect) in [(1, None), (2, Some(2)), (3, Some(2))] {
        let scop = stencil(d, &star(d));
        let graph = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
        let t = schedule(&scop, &graph, &SchedulerOptions::gpu()).unwrap();
        let band = coalesced_band(&scop, &graph, &t, 0);
        assert_eq!(band.as_ref().map(|b| b.stride), expect, "{d}-D: {band:?}");
    }
}
