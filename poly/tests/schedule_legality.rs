//! The legality checker (independent of the scheduler): it accepts the original schedules and
//! every schedule the scheduler produces, rejects broken ones with a concrete instance pair —
//! re-checked here by evaluating the schedules — and agrees with brute-force enumeration of
//! the dependence instances on small parameter values. Thesis Fig. 3.13: the identity
//! hyperplanes are a legal order but not a legal tiling.

mod common;

use common::stencils;
use proptest::prelude::*;
use stencil_poly::schedule::{check_permutable, Legality, Violation};
use stencil_poly::*;

fn deps(scop: &Scop) -> DependenceGraph {
    DependenceGraph::compute(scop, &DependenceOptions::default()).unwrap()
}

fn originals(scop: &Scop) -> Vec<Schedule> {
    scop.statements().iter().map(|s| s.schedule().clone()).collect()
}

/// Small parameter values for brute force (every parameter 5, the first — the time steps — 3).
fn small_params(scop: &Scop) -> Vec<i64> {
    (0..scop.params().len()).map(|k| if k == 0 { 3 } else { 5 }).collect()
}

fn lex_less(a: &[i64], b: &[i64]) -> bool {
    a < b
}

/// The first instance pair, over all dependences at `params`, that `schedules` does not order
/// source-before-target (brute force; `band`: only check that every row of the band is
/// non-decreasing on the pairs equal before it).
fn brute_force(scop: &Scop, g: &DependenceGraph, schedules: &[Schedule], params: &[i64]) -> Option<(usize, Vec<i64>)> {
    let limits = Limits::default();
    for (e, d) in g.dependences().iter().enumerate() {
        let ns = scop.statements()[d.source.statement.0].n_iterators();
        for pt in d.polyhedron_in_context(scop).unwrap().enumerate(params, &limits).unwrap() {
            let at = |s: usize, it: &[i64]| {
                let mut full = it.to_vec();
                full.extend_from_slice(params);
                let mut t = schedules[s].eval(&full).unwrap();
                t.resize(schedules.iter().map(Schedule::len).max().unwrap_or(0), 0);
                t
            };
            let ts = at(d.source.statement.0, &pt[..ns]);
            let tt = at(d.target.statement.0, &pt[ns..]);
            if !lex_less(&ts, &tt) {
                return Some((e, pt));
            }
        }
    }
    None
}

/// A violation is genuine: the pair is in the dependence polyhedron and the schedules, evaluated
/// on it, give the reported time stamps, the target not after the source.
fn assert_genuine(scop: &Scop, g: &DependenceGraph, schedules: &[Schedule], v: &Violation) {
    let d = g.dependence(v.dependence).unwrap();
    let point: Vec<i64> = v.source.iter().chain(&v.target).chain(&v.params).copied().collect();
    assert!(d.polyhedron_in_context(scop).unwrap().contains(&point).unwrap(), "{v:?}");
    let eval = |s: StatementId, it: &[i64]| {
        let full: Vec<i64> = it.iter().chain(&v.params).copied().collect();
        let mut t = schedules[s.0].eval(&full).unwrap();
        t.resize(v.source_time.len(), 0);
        t
    };
    assert_eq!(eval(d.source.statement, &v.source), v.source_time);
    assert_eq!(eval(d.target.statement, &v.target), v.target_time);
    assert!(!lex_less(&v.source_time, &v.target_time), "{v:?}");
    assert_eq!(v.source_time[..v.level], v.target_time[..v.level]);
}

/// The checker and brute force agree on `schedules` (a legal verdict is confirmed on small
/// parameters, a violation re-evaluated).
fn agree(scop: &Scop, g: &DependenceGraph, schedules: &[Schedule]) -> Legality {
    let verdict = check_legality(scop, g, schedules, &Limits::default()).unwrap();
    match &verdict {
        Legality::Legal => {
            let bf = brute_force(scop, g, schedules, &small_params(scop));
            assert!(bf.is_none(), "checker says legal, brute force finds {bf:?}");
        }
        Legality::Violated(v) => assert_genuine(scop, g, schedules, v),
    }
    verdict
}

/// The benchmarks up to two spatial dimensions (the 3-D ones are checked in
/// `schedule_table_4_1.rs`; brute force over them is slow in debug builds).
fn benchmarks() -> Vec<(&'static str, Scop)> {
    vec![
        ("1-D Jacobi-3", stencils::jacobi_1d_3pt()),
        ("2-D Jacobi-5", stencils::jacobi_2d_5pt()),
        ("1-D SOR-3", stencils::sor_1d_3pt()),
        ("2-D SOR-5", stencils::sor_2d_5pt()),
        ("2-D FDTD", stencils::fdtd_2d()),
        ("PolyBench fdtd-2d", stencils::polybench_fdtd_2d()),
        ("Pluto seidel-2d", stencils::pluto_seidel_2d()),
        ("Fig. 3.4", stencils::fig_3_4()),
        ("Fig. 4.4", stencils::fig_4_4()),
    ]
}

#[test]
fn original_schedules_are_legal() {
    for (name, scop) in benchmarks() {
        let g = deps(&scop);
        assert!(check_legality(&scop, &g, &originals(&scop), &Limits::default()).unwrap().is_legal(), "{name}");
    }
}

#[test]
fn fig_3_13_identity_is_a_legal_order_but_not_a_legal_tiling() {
    for scop in [stencils::fig_3_4(), stencils::sor_1d_3pt()] {
        let g = deps(&scop);
        let st = &scop.statements()[0];
        let rows = |text: &[&str]| {
            let forms = text.iter().map(|t| AffineForm::parse(st.space(), t).unwrap()).collect();
            vec![Schedule::new(st.space(), forms).unwrap()]
        };
        let identity = rows(&["t", "i"]);
        assert!(agree(&scop, &g, &identity).is_legal());
        // Thm 3.3: the dependence (1, -1) is negative on the hyperplane i.
        let Legality::Violated(v) = check_permutable(&scop, &g, &identity, 0..2, &Limits::default()).unwrap() else {
            panic!("the identity tiling must be rejected")
        };
        assert_eq!(v.level, 1);
        assert_eq!(g.dependence(v.dependence).unwrap().distance, Some(vec![1, -1]));
        assert_eq!(v.target[1] - v.source[1], -1);
        assert!(v.target_time[1] < v.source_time[1]);
        // The skewed hyperplanes of Fig. 4.1 tile legally.
        let skewed = rows(&["t", "t + i"]);
        assert!(check_permutable(&scop, &g, &skewed, 0..2, &Limits::default()).unwrap().is_legal());
    }
}

/// Row `k` of every statement's schedule replaced through `f(statement, rows)`.
fn mutate(t: &Transformation, f: impl Fn(&Schedule) -> Vec<AffineForm>) -> Vec<Schedule> {
    t.schedules.iter().map(|s| Schedule::new_over(s, f(s))).collect()
}

trait NewOver {
    fn new_over(like: &Schedule, rows: Vec<AffineForm>) -> Schedule;
}

impl NewOver for Schedule {
    fn new_over(like: &Schedule, rows: Vec<AffineForm>) -> Schedule {
        let n = rows.first().map_or(like.n_iterators(), AffineForm::n_columns);
        let space = Space::new(
            (0..like.n_iterators()).map(|k| format!("x{k}")),
            (0..n - like.n_iterators()).map(|k| format!("p{k}")),
        );
        Schedule::new(&space, rows).unwrap()
    }
}

#[test]
fn mutated_schedules_are_rejected_with_genuine_counter_examples() {
    for (name, scop) in benchmarks() {
        let g = deps(&scop);
        let t = schedule(&scop, &g, &SchedulerOptions::pluto()).unwrap();
        assert!(agree(&scop, &g, &t.schedules).is_legal(), "{name}");
        // Time reversal: negate the first row.
        let reversed = mutate(&t, |s| {
            let mut rows = s.rows().to_vec();
            rows[0] = rows[0].checked_neg().unwrap();
            rows
        });
        assert!(!agree(&scop, &g, &reversed).is_legal(), "{name}: reversed time");
        // Interchange: the spatial iterators first, time last, the cuts after.
        let interchanged = mutate(&t, |s| {
            let n = s.n_iterators();
            let cols = s.rows()[0].n_columns();
            let mut rows: Vec<AffineForm> = (1..n).chain([0]).map(|k| AffineForm::unit(cols, k).unwrap()).collect();
            rows.extend(s.rows().iter().filter(|r| r.coeffs()[..n].iter().all(|&c| c == 0)).cloned());
            rows
        });
        assert!(!agree(&scop, &g, &interchanged).is_legal(), "{name}: interchanged");
        // Dropping the time skew keeps a legal order (the same loops, sequentially) but the band
        // is no longer permutable wherever the skew was needed.
        let unskewed = mutate(&t, |s| {
            let n = s.n_iterators();
            s.rows()
                .iter()
                .enumerate()
                .map(|(k, r)| {
                    let mut c = r.coeffs().to_vec();
                    if k > 0 && c[1..n].iter().any(|&x| x != 0) {
                        c[0] = 0;
                    }
                    AffineForm::new(c, r.constant())
                })
                .collect()
        });
        agree(&scop, &g, &unskewed);
        let skewed = t.schedules.iter().zip(&unskewed).any(|(a, b)| a != b);
        if skewed {
            let band = t.bands[0].rows.clone();
            let verdict = check_permutable(&scop, &g, &unskewed, band, &Limits::default()).unwrap();
            let Legality::Violated(v) = verdict else { panic!("{name}: unskewed band accepted") };
            assert_genuine_band(&scop, &g, &unskewed, &v);
        }
    }
}

/// A band violation: genuine pair, equal time stamps before the violating row's band start is
/// not required, but the violating row decreases.
fn assert_genuine_band(scop: &Scop, g: &DependenceGraph, schedules: &[Schedule], v: &Violation) {
    let d = g.dependence(v.dependence).unwrap();
    let point: Vec<i64> = v.source.iter().chain(&v.target).chain(&v.params).copied().collect();
    assert!(d.polyhedron_in_context(scop).unwrap().contains(&point).unwrap());
    assert!(v.target_time[v.level] < v.source_time[v.level], "{v:?}");
    let _ = schedules;
}

/// Found by the property test: with the balanced first row `(2, 1, 1)` no completion lies in
/// Pluto's orthant of the orthogonal sub-space (Pluto would keep the original schedule); the
/// last-resort search over every half-space finds one.
#[test]
fn balanced_schedule_beyond_plutos_orthant() {
    let it = ["t", "i", "j"];
    let dom = "0 <= t < T, 1 <= i <= N - 2, 1 <= j <= N - 2";
    let scop = stencils::Builder::new(&["T", "N"], "T >= 1, N >= 3")
        .array("A", 2)
        .stmt("S0", &it, dom, &[0, 0, 0, 0], &[("A", "i, j + 1")], ("A", "i, j"))
        .stmt("S1", &it, dom, &[0, 1, 0, 0], &[("A", "i - 1, j"), ("A", "i - 1, j - 1")], ("A", "i, j"))
        .build();
    let g = deps(&scop);
    let t = schedule(&scop, &g, &SchedulerOptions::pluto()).unwrap();
    assert_eq!(t.display(&scop).to_string(), "S0: (t, t + i, t + j, 0)\nS1: (t, t + i, t + j, 1)\n");
    let t = schedule(&scop, &g, &SchedulerOptions::gpu()).unwrap();
    assert_eq!(t.display(&scop).to_string(), "S0: (2*t + i + j, t + i, t, 0)\nS1: (2*t + i + j, t + i, t, 1)\n");
    assert!(agree(&scop, &g, &t.schedules).is_legal());
    assert!(t.has_balanced_wavefronts(&scop, &g, &Limits::default()).unwrap());
}

fn spec() -> impl Strategy<Value = common::ProgramSpec> {
    common::program().prop_filter("at most two spatial dimensions", |p| p.dims <= 2)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    /// Random uniform stencil programs: the schedule is legal (checker and brute force), full
    /// rank, permutable band by band, balanced when asked; loops run backwards may have no
    /// non-negative hyperplanes, which is a clean error. Random mutations get consistent
    /// verdicts.
    #[test]
    fn scheduler_output_is_legal_and_checker_agrees_with_brute_force(p in spec(), row in 0usize..4, kind in 0usize..3) {
        let scop = p.scop();
        let g = deps(&scop);
        for options in [SchedulerOptions::pluto(), SchedulerOptions::gpu()] {
            let t = match schedule(&scop, &g, &options) {
                Ok(t) => t,
                Err(e) => {
                    prop_assert!(p.reverse_inner, "{e}\n{scop}");
                    let clean = matches!(e, ScheduleError::NoHyperplane { .. } | ScheduleError::BalanceInfeasible);
                    prop_assert!(clean, "{e}");
                    continue;
                }
            };
            prop_assert!(agree(&scop, &g, &t.schedules).is_legal());
            for b in &t.bands {
                prop_assert!(check_permutable(&scop, &g, &t.schedules, b.rows.clone(), &Limits::default()).unwrap().is_legal());
            }
            for (s, st) in scop.statements().iter().enumerate() {
                let phi = t.phi(StatementId(s));
                prop_assert_eq!(rank(&phi), st.n_iterators(), "{}", t.display(&scop));
            }
            if options.intra_balance {
                prop_assert!(t.has_balanced_wavefronts(&scop, &g, &Limits::default()).unwrap());
            }
            let r = row % t.rows.len();
            let mutated = mutate(&t, |s| {
                let mut rows = s.rows().to_vec();
                match kind {
                    0 => rows[r] = rows[r].checked_neg().unwrap(),
                    1 => {
                        let next = (r + 1) % rows.len();
                        rows.swap(r, next)
                    }
                    _ => rows[r] = AffineForm::new(rows[r].coeffs().iter().enumerate().map(|(k, &c)| if k == 0 { 0 } else { c }).collect(), rows[r].constant()),
                }
                rows
            });
            agree(&scop, &g, &mutated);
        }
    }
}

/// Rank (fraction-free Gaussian elimination; small matrices).
fn rank(rows: &[Vec<i64>]) -> usize {
    let mut m: Vec<Vec<i128>> = rows.iter().map(|r| r.iter().map(|&x| i128::from(x)).collect()).collect();
    let cols = m.first().map_or(0, Vec::len);
    let mut r = 0;
    for c in 0..cols {
        let Some(p) = (r..m.len()).find(|&i| m[i][c] != 0) else { continue };
        m.swap(r, p);
        let (top, rest) = m.split_at_mut(r + 1);
        let pivot = &top[r];
        for row in rest {
            let (a, b) = (pivot[c], row[c]);
            for (x, &y) in row.iter_mut().zip(pivot) {
                *x = *x * a - y * b;
            }
        }
        r += 1;
    }
    r
}
