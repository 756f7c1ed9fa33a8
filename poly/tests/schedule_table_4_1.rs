//! Thesis Table 4.1: for the eight benchmarks, balanced intra-tile wavefronts are found for
//! all (Thm 4.1, checked by integer emptiness on every self dependence) and
//! parallelism-hindering false dependences exist for the Jacobi family, FDTD and Heat, not for
//! the SOR solvers (Def. 4.2 / Alg. 4.2). For the star-shaped Jacobi and Heat nests the
//! array copy of Fig. 4.4 removes the time skew `2t` of the hyperplanes; for PolyBench fdtd-2d
//! the copy is correct but changes no hyperplane. Every copied program is checked by symbolic
//! execution against the original.

mod common;

use std::collections::HashMap;

use common::stencils;
use stencil_poly::schedule::{apply_array_copies, check_permutable};
use stencil_poly::*;

/// A value of the symbolic execution: the index of `(producer, read values)` in a table, so
/// that two values are equal exactly when they are computed the same way from the same
/// initial values.
type Value = usize;

/// Runs `scop` in its schedule order for `params`, symbolically: a statement's value is its
/// name applied to the values it reads (in access order), a copy statement (`…_copy`,
/// `…_init`) passes its read value through, and an element never written holds its initial
/// value. Returns the value each instance of a non-copy statement computes and the final
/// contents of every array, by name.
#[allow(clippy::type_complexity)]
fn run_symbolic(
    scop: &Scop,
    params: &[i64],
    table: &mut HashMap<(String, Vec<Value>), Value>,
) -> (HashMap<(String, Vec<i64>), Value>, HashMap<(String, Vec<i64>), Value>) {
    let limits = Limits::default();
    let mut instances = Vec::new();
    for st in scop.statements() {
        for it in st.domain().enumerate(params, &limits).unwrap() {
            let point: Vec<i64> = it.iter().chain(params).copied().collect();
            instances.push((st.schedule().eval(&point).unwrap(), st, point, it));
        }
    }
    instances.sort_by(|a, b| a.0.cmp(&b.0));
    let intern = |key: (String, Vec<Value>), table: &mut HashMap<(String, Vec<Value>), Value>| {
        let n = table.len();
        *table.entry(key).or_insert(n)
    };
    let mut memory: HashMap<(String, Vec<i64>), Value> = HashMap::new();
    let mut computed = HashMap::new();
    for (_, st, point, it) in instances {
        let mut reads = Vec::new();
        for a in st.accesses().iter().filter(|a| !a.is_write()) {
            let cell = (scop.arrays()[a.array().0].name.clone(), a.element(&point).unwrap());
            let initial = intern((format!("{}{:?}", cell.0, cell.1), Vec::new()), table);
            reads.push(*memory.entry(cell).or_insert(initial));
        }
        let copy = st.name().ends_with("_copy") || st.name().ends_with("_init");
        let value = if copy { reads[0] } else { intern((st.name().to_string(), reads), table) };
        if !copy {
            computed.insert((st.name().to_string(), it), value);
        }
        for a in st.accesses().iter().filter(|a| a.is_write()) {
            memory.insert((scop.arrays()[a.array().0].name.clone(), a.element(&point).unwrap()), value);
        }
    }
    (computed, memory)
}

/// The copied program computes exactly what the original computes (thesis Fig. 4.4 is
/// dependence-preserving): every statement instance the same value, every original array the
/// same final contents.
fn assert_same_values(original: &Scop, copied: &Scop, params: &[i64]) {
    let mut table = HashMap::new();
    let (v0, m0) = run_symbolic(original, params, &mut table);
    let (v1, mut m1) = run_symbolic(copied, params, &mut table);
    assert_eq!(v0, v1);
    // An element only the copied program reads (the initialisation's simple hull may copy a
    // few more) still holds its initial value in both.
    m1.retain(|(a, _), _| original.arrays().iter().any(|x| x.name == *a));
    let initial = |(a, x): &(String, Vec<i64>)| table.get(&(format!("{a}{x:?}"), Vec::new())).copied();
    for cell in m0.keys().chain(m1.keys()) {
        let (a, b) = (m0.get(cell).copied(), m1.get(cell).copied());
        assert_eq!(a.or_else(|| initial(cell)), b.or_else(|| initial(cell)), "{cell:?}");
    }
}

fn deps(scop: &Scop) -> DependenceGraph {
    DependenceGraph::compute(scop, &DependenceOptions::default()).unwrap()
}

/// Schedules with the GPU options, checks legality, permutability of every band and balanced
/// wavefronts; returns the transformation.
fn balanced(scop: &Scop, g: &DependenceGraph) -> Transformation {
    let limits = Limits::default();
    let t = schedule(scop, g, &SchedulerOptions::gpu()).unwrap();
    assert!(check_legality(scop, g, &t.schedules, &limits).unwrap().is_legal());
    for b in &t.bands {
        assert!(check_permutable(scop, g, &t.schedules, b.rows.clone(), &limits).unwrap().is_legal());
    }
    assert!(t.has_balanced_wavefronts(scop, g, &limits).unwrap(), "{}", t.display(scop));
    t
}

/// The hindering dependences as `(source access, distance)`.
fn hindering(scop: &Scop, g: &DependenceGraph) -> Vec<(String, Option<Vec<i64>>)> {
    hindering_false_dependences(scop, g, &SchedulerOptions::gpu())
        .unwrap()
        .into_iter()
        .map(|id| {
            let d = g.dependence(id).unwrap();
            assert_eq!(d.kind, DependenceKind::Anti);
            (scop.access_text(d.source.statement, d.source.access), d.distance.clone())
        })
        .collect()
}

/// Copies (checking by symbolic execution for `params` that the copied program computes the
/// same values), re-analyses and reschedules (and, with `recheck`, looks for hindering false
/// dependences again).
fn eliminate(scop: &Scop, g: &DependenceGraph, recheck: bool, params: &[i64]) -> String {
    let h = hindering_false_dependences(scop, g, &SchedulerOptions::gpu()).unwrap();
    let plans = plan_array_copies(scop, g, &h, &Limits::default()).unwrap();
    let copied = apply_array_copies(scop, &plans).unwrap();
    assert_same_values(scop, &copied, params);
    let g2 = deps(&copied);
    let t = balanced(&copied, &g2);
    if recheck {
        assert!(hindering_false_dependences(&copied, &g2, &SchedulerOptions::gpu()).unwrap().is_empty());
    }
    let printed = t.display(&copied).to_string();
    printed
}

#[test]
fn jacobi_1d_3pt() {
    let scop = stencils::jacobi_1d_3pt();
    let g = deps(&scop);
    assert_eq!(balanced(&scop, &g).display(&scop).to_string(), "S0: (t, 2*t + i, 0)\nS1: (t, 2*t + i + 1, 1)\n");
    assert_eq!(hindering(&scop, &g), [("A[i - 1]".to_string(), Some(vec![0, -1]))]);
    assert_eq!(
        eliminate(&scop, &g, true, &[4, 9]),
        "A0_init: (0, i, 0, 0)\nA0_copy: (1, t, t + i, 1)\nS0: (1, t, t + i, 2)\nS1: (1, t, t + i, 3)\n"
    );
}

#[test]
fn jacobi_2d_5pt_and_heat_2d() {
    // examples/heat-2d.mlir reads the same five points of A as the 5-point Jacobi and
    // writes B then A = B: the same SCoP, scheduled once.
    assert_eq!(stencils::heat_2d(), stencils::jacobi_2d_5pt());
    let scop = stencils::jacobi_2d_5pt();
    let g = deps(&scop);
    assert_eq!(
        balanced(&scop, &g).display(&scop).to_string(),
        "S0: (t, 2*t + i, 2*t + j)\nS1: (t, 2*t + i + 1, 2*t + j + 1)\n"
    );
    let h = hindering(&scop, &g);
    assert_eq!(
        h,
        [("A[i, j - 1]".to_string(), Some(vec![0, 0, -1])), ("A[i - 1, j]".to_string(), Some(vec![0, -1, 0]))]
    );
    assert_eq!(
        eliminate(&scop, &g, true, &[3, 6, 7]),
        "A0_init: (0, i, j, 0, 0)\nA0_copy: (1, t, t + i, t + j, 1)\nS0: (1, t, t + i, t + j, 2)\nS1: (1, t, t + i, t + j, 3)\n"
    );
}

#[test]
fn jacobi_3d_7pt() {
    let scop = stencils::jacobi_3d_7pt();
    let g = deps(&scop);
    assert_eq!(
        balanced(&scop, &g).display(&scop).to_string(),
        "S0: (t, 2*t + i, 2*t + j, 2*t + k)\nS1: (t, 2*t + i + 1, 2*t + j + 1, 2*t + k + 1)\n"
    );
    // The three reads with a -1 offset.
    let h = hindering(&scop, &g);
    assert_eq!(h.len(), 3);
    assert!(h.iter().all(|(_, d)| d.as_ref().unwrap().iter().filter(|&&x| x == -1).count() == 1));
    assert_eq!(
        eliminate(&scop, &g, false, &[2, 5, 6, 5]),
        "A0_init: (0, i, j, k, 0, 0)\nA0_copy: (1, t, t + i, t + j, t + k, 1)\nS0: (1, t, t + i, t + j, t + k, 2)\n\
         S1: (1, t, t + i, t + j, t + k, 3)\n"
    );
}

#[test]
fn jacobi_3d_27pt() {
    let scop = stencils::jacobi_3d_27pt();
    let g = deps(&scop);
    balanced(&scop, &g);
    // Every anti dependence from a read with some -1 offset (19 of the 27): each one alone is
    // dominated by another (so the literal one-at-a-time Alg. 4.2 finds none), together they
    // change the hyperplanes. The copy cannot remove the skew here (offsets mixing -1 and +1
    // give the copy's flow dependences the same shape); that is not checked here, see
    // docs/poly.md.
    let h = hindering(&scop, &g);
    assert_eq!(h.len(), 19);
    assert!(h.iter().all(|(_, d)| d.as_ref().unwrap().contains(&-1)));
}

#[test]
fn sor_1d_3pt_and_2d_5pt() {
    let scop = stencils::sor_1d_3pt();
    let g = deps(&scop);
    assert_eq!(balanced(&scop, &g).display(&scop).to_string(), "S: (2*t + i, t + i)\n");
    // Every anti dependence has a flow dependence with the same polyhedron.
    assert!(hindering(&scop, &g).is_empty());
    let scop = stencils::sor_2d_5pt();
    let g = deps(&scop);
    assert_eq!(balanced(&scop, &g).display(&scop).to_string(), "S: (2*t + i + j, t + i + j, t + j)\n");
    assert!(hindering(&scop, &g).is_empty());
}

#[test]
fn fdtd_2d() {
    // PolyBench's fdtd-2d, the thesis' source: the excitation row `ey[0][j] = fict[t]` (S1,
    // iterators (t, j) as in PolyBench) is read by the hz update S4 and overwritten in the next
    // time step; that anti dependence, carried by t, hinders parallelism (Def. 4.2).
    let scop = stencils::polybench_fdtd_2d();
    let g = deps(&scop);
    let before = balanced(&scop, &g).display(&scop).to_string();
    assert_eq!(
        before,
        "S1: (t, t + j, t)\nS2: (t, t + j, t + i)\nS3: (t, t + j, t + i)\nS4: (t, t + j + 1, t + i + 1)\n"
    );
    assert_eq!(hindering(&scop, &g), [("ey[i, j]".to_string(), None)]);
    // The Fig. 4.4 copy runs once per time step, after the excitation and the ey update (the
    // read receives both within the time step), right before S4: ey0 = ey over
    // [0, NX − 2] × [0, NY − 2], nothing to initialise. It computes the same values.
    let h = hindering_false_dependences(&scop, &g, &SchedulerOptions::gpu()).unwrap();
    let plans = plan_array_copies(&scop, &g, &h, &Limits::default()).unwrap();
    assert_eq!(plans.len(), 1);
    assert_eq!((plans[0].copy_name.as_str(), plans[0].depth), ("ey0", 1));
    assert!(plans[0].initialization.is_none());
    let copied = apply_array_copies(&scop, &plans).unwrap();
    assert_same_values(&scop, &copied, &[3, 4, 5]);
    // But the copy removes nothing the scheduler could use: the copy statement inherits the
    // dependence pair (flow S1(t) -> ey0_copy(t), anti ey0_copy(t) -> S1(t + 1)), so the
    // hyperplanes stay those of the original (no skew was forced; what the anti dependence
    // prevents is distributing S1 out of the time loop, which needs every time step's
    // excitation live at once: expansion along t, not a copy), and Alg. 4.2 finds the copy's
    // read hindering in turn (docs/poly.md, Limitations).
    let g2 = deps(&copied);
    assert_eq!(
        balanced(&copied, &g2).display(&copied).to_string(),
        "S1: (t, t + j, t, 0)\nS2: (t, t + j, t + i, 1)\nS3: (t, t + j, t + i, 2)\ney0_copy: (t, t + j, t + i, 3)\n\
         S4: (t, t + j + 1, t + i + 1, 4)\n"
    );
    let again = hindering_false_dependences(&copied, &g2, &SchedulerOptions::gpu()).unwrap();
    assert_eq!(again.len(), 1);
    let d = g2.dependence(again[0]).unwrap();
    assert_eq!(copied.statements()[d.source.statement.0].name(), "ey0_copy");
    // examples/fdtd-2d.mlir has no excitation: each of its anti dependences has a flow
    // dependence with the same polyhedron, so nothing hinders.
    let scop = stencils::fdtd_2d();
    let g = deps(&scop);
    assert_eq!(
        balanced(&scop, &g).display(&scop).to_string(),
        "S0: (t, t + i, t + j)\nS1: (t, t + i, t + j)\nS2: (t, t + i + 1, t + j + 1)\n"
    );
    assert!(hindering(&scop, &g).is_empty());
}

#[test]
fn three_d_sor_is_balanced_too() {
    let scop = stencils::sor_3d_7pt();
    let g = deps(&scop);
    assert_eq!(
        balanced(&scop, &g).display(&scop).to_string(),
        "S: (2*t + i + j + k, t + j + k, t + i + j, t + i + k)\n"
    );
}
