//! Times dependence analysis on SCoPs of the benchmark stencil shapes:
//! `cargo run --release -p stencil-poly --example timing`.

use std::time::{Duration, Instant};

use stencil_poly::*;

/// `for t: S0: W[x] = f(A[x + o] for o in offsets)`, plus `S1: A[x] = B[x]` unless in place.
fn stencil(name: &str, d: usize, offsets: &[Vec<i64>], in_place: bool) -> (String, Scop) {
    let mut scop = Scop::new(["T", "N"]);
    scop.add_context("T >= 1, N >= 4").unwrap();
    let a = scop.add_array("A", d).unwrap();
    let b = if in_place { a } else { scop.add_array("B", d).unwrap() };
    let iters: Vec<String> = ["t", "i", "j", "k"][..=d].iter().map(|s| s.to_string()).collect();
    let space = scop.statement_space(iters.clone());
    let mut dom = String::from("0 <= t <= T - 1");
    for it in &iters[1..] {
        dom.push_str(&format!(", 1 <= {it} <= N - 2"));
    }
    let domain = Polyhedron::parse(space.clone(), &dom).unwrap();
    let mut beta = vec![0i64; d + 2];
    let s0 =
        scop.add_statement(Statement::new("S0", domain.clone(), Schedule::from_beta(&beta, &space).unwrap())).unwrap();
    let idx = |off: &[i64]| -> Vec<AffineForm> {
        (0..d).map(|k| AffineForm::from_terms(space.n_columns(), &[(k + 1, 1)], off[k]).unwrap()).collect()
    };
    for off in offsets {
        scop.add_access(s0, AccessRelation::read(a, idx(off))).unwrap();
    }
    scop.add_access(s0, AccessRelation::write(b, idx(&vec![0; d]))).unwrap();
    if !in_place {
        beta[1] = 1;
        let s1 = scop.add_statement(Statement::new("S1", domain, Schedule::from_beta(&beta, &space).unwrap())).unwrap();
        scop.add_access(s1, AccessRelation::read(b, idx(&vec![0; d]))).unwrap();
        scop.add_access(s1, AccessRelation::write(a, idx(&vec![0; d]))).unwrap();
    }
    (name.to_string(), scop)
}

/// The 3^d box of offsets, or only its star (at most one non-zero component).
fn offsets(d: usize, star: bool) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..d {
        out = out.into_iter().flat_map(|v| (-1..=1).map(move |o| [v.clone(), vec![o]].concat())).collect();
    }
    if star {
        out.retain(|v| v.iter().filter(|&&o| o != 0).count() <= 1);
    }
    out
}

fn main() {
    let cases = vec![
        stencil("jacobi-1d-3", 1, &offsets(1, true), false),
        stencil("sor-1d-3", 1, &offsets(1, true), true),
        stencil("jacobi-2d-5", 2, &offsets(2, true), false),
        stencil("sor-2d-5", 2, &offsets(2, true), true),
        stencil("jacobi-3d-7", 3, &offsets(3, true), false),
        stencil("sor-3d-7", 3, &offsets(3, true), true),
        stencil("jacobi-3d-27", 3, &offsets(3, false), false),
        stencil("gauss-seidel-3d-27", 3, &offsets(3, false), true),
    ];
    for (name, scop) in &cases {
        for mode in [DependenceMode::MemoryBased, DependenceMode::Direct] {
            // Best of 5 runs: the machines this runs on are shared.
            let mut best = Duration::MAX;
            let mut n = 0;
            for _ in 0..5 {
                let t = Instant::now();
                let g = DependenceGraph::compute(scop, &DependenceOptions { mode, ..Default::default() }).unwrap();
                best = best.min(t.elapsed());
                n = g.dependences().len();
            }
            println!("{name:>20} {:>12}: {n:>4} dependences in {best:>8.2?}", format!("{mode:?}"));
        }
    }
}
