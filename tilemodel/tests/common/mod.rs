//! Stencil SCoPs as the examples write them, scheduled (thesis Alg. 4.1, or Pluto's options)
//! and tiled, for the tile-model tests.

#![allow(dead_code)]

use stencil_poly::tiling::{tile, TiledSchedule, TilingInput, TilingOptions};
use stencil_poly::*;
use stencil_tilemodel::{BandShape, ProgramFacts};

/// `("A", "i - 1, j")`-style accesses of a star stencil over `iters`.
fn star(iters: &[&str]) -> Vec<String> {
    let mut out = vec![iters.join(", ")];
    for k in 0..iters.len() {
        for o in ["- 1", "+ 1"] {
            let idx: Vec<String> = iters
                .iter()
                .enumerate()
                .map(|(j, it)| if j == k { format!("{it} {o}") } else { it.to_string() })
                .collect();
            out.push(idx.join(", "));
        }
    }
    out
}

fn statement(
    scop: &mut Scop,
    name: &str,
    iters: &[&str],
    domain: &str,
    beta: &[i64],
    reads: &[(ArrayId, String)],
    write: (ArrayId, String),
) {
    let space = scop.statement_space(iters.iter().copied());
    let dom = Polyhedron::parse(space.clone(), domain).unwrap();
    let s = scop.add_statement(Statement::new(name, dom, Schedule::from_beta(beta, &space).unwrap())).unwrap();
    for (a, idx) in reads {
        scop.add_access(s, AccessRelation::parse(AccessKind::Read, *a, &space, idx).unwrap()).unwrap();
    }
    scop.add_access(s, AccessRelation::parse(AccessKind::Write, write.0, &space, &write.1).unwrap()).unwrap();
}

fn setup(d: usize) -> (Scop, Vec<&'static str>, String) {
    let sp = ["i", "j", "k"];
    let par = ["N", "M", "L"];
    let params: Vec<&str> = std::iter::once("T").chain(par[..d].iter().copied()).collect();
    let mut scop = Scop::new(params);
    let ctx: Vec<String> =
        std::iter::once("T >= 1".to_string()).chain(par[..d].iter().map(|p| format!("{p} >= 3"))).collect();
    scop.add_context(&ctx.join(", ")).unwrap();
    let iters: Vec<&'static str> = std::iter::once("t").chain(sp[..d].iter().copied()).collect();
    let mut dom = vec!["0 <= t < T".to_string()];
    for k in 0..d {
        dom.push(format!("1 <= {} < {} - 1", sp[k], par[k]));
    }
    (scop, iters, dom.join(", "))
}

/// `d`-D SOR (in place, DOACROSS): examples/sor-*.mlir.
pub fn sor(d: usize) -> Scop {
    let (mut scop, iters, dom) = setup(d);
    let a = scop.add_array("A", d).unwrap();
    let reads: Vec<(ArrayId, String)> = star(&iters[1..]).into_iter().map(|r| (a, r)).collect();
    statement(&mut scop, "S", &iters, &dom, &vec![0; d + 2], &reads, (a, iters[1..].join(", ")));
    scop
}

/// `d`-D Jacobi with the copy back (`B = f(A); A = B`): examples/jacobi-*.mlir.
pub fn jacobi(d: usize) -> Scop {
    let (mut scop, iters, dom) = setup(d);
    let a = scop.add_array("A", d).unwrap();
    let b = scop.add_array("B", d).unwrap();
    let reads: Vec<(ArrayId, String)> = star(&iters[1..]).into_iter().map(|r| (a, r)).collect();
    let here = iters[1..].join(", ");
    let mut beta1 = vec![0; d + 2];
    beta1[1] = 1;
    statement(&mut scop, "S0", &iters, &dom, &vec![0; d + 2], &reads, (b, here.clone()));
    statement(&mut scop, "S1", &iters, &dom, &beta1, &[(b, here.clone())], (a, here));
    scop
}

/// 2-D symmetric SOR (examples/ssor-2d-5pt.mlir): per time step a forward sweep `F` in
/// lexicographic order and a backward sweep `B` in reverse order (its point rows negated, as
/// `stencil-to-poly` writes an `order reverse` apply), both in place over the same box.
pub fn ssor_2d() -> Scop {
    let (mut scop, iters, dom) = setup(2);
    let a = scop.add_array("A", 2).unwrap();
    let reads: Vec<(ArrayId, String)> = star(&iters[1..]).into_iter().map(|r| (a, r)).collect();
    statement(&mut scop, "F", &iters, &dom, &[0, 0, 0, 0], &reads, (a, "i, j".to_string()));
    let space = scop.statement_space(iters.iter().copied());
    let n = space.n_columns();
    let rows = vec![
        AffineForm::constant_form(n, 0),
        AffineForm::from_terms(n, &[(0, 1)], 0).unwrap(),
        AffineForm::constant_form(n, 1),
        AffineForm::from_terms(n, &[(1, -1)], 0).unwrap(),
        AffineForm::constant_form(n, 0),
        AffineForm::from_terms(n, &[(2, -1)], 0).unwrap(),
        AffineForm::constant_form(n, 0),
    ];
    let dom = Polyhedron::parse(space.clone(), &dom).unwrap();
    let b = scop.add_statement(Statement::new("B", dom, Schedule::new(&space, rows).unwrap())).unwrap();
    for (array, idx) in &reads {
        scop.add_access(b, AccessRelation::parse(AccessKind::Read, *array, &space, idx).unwrap()).unwrap();
    }
    scop.add_access(b, AccessRelation::parse(AccessKind::Write, a, &space, "i, j").unwrap()).unwrap();
    scop
}

/// The dependences, as the passes compute them.
pub fn ddg(scop: &Scop) -> DependenceGraph {
    DependenceGraph::compute(scop, &DependenceOptions::default()).unwrap()
}

/// `scop` scheduled (balanced intra-tile wavefronts, or Pluto's options) and its first band
/// tiled with `sizes`.
pub fn tiled(scop: &Scop, sizes: &[i64], balanced: bool) -> TiledSchedule {
    let g = ddg(scop);
    let options = if balanced { SchedulerOptions::default() } else { SchedulerOptions::pluto() };
    let t = schedule(scop, &g, &options).unwrap();
    let input = TilingInput::from_transformation(&t, &[sizes.to_vec()]).unwrap();
    tile(scop, &input, &g, &TilingOptions::default()).unwrap()
}

/// The band shape of `scop` tiled with any sizes, at `params`.
pub fn shape(scop: &Scop, params: &[i64], balanced: bool) -> (BandShape, TiledSchedule) {
    let width = band_width(scop, balanced);
    let t = tiled(scop, &vec![2; width], balanced);
    let facts = ProgramFacts {
        element_bytes: vec![8; scop.arrays().len()],
        operations: vec![5; scop.statements().len()],
        ..ProgramFacts::default()
    };
    (BandShape::new(scop, &t, params, &facts).unwrap(), t)
}

/// The width of the first permutable band.
pub fn band_width(scop: &Scop, balanced: bool) -> usize {
    let g = ddg(scop);
    let options = if balanced { SchedulerOptions::default() } else { SchedulerOptions::pluto() };
    schedule(scop, &g, &options).unwrap().bands[0].rows.len()
}

/// The next value of a fixed pseudo-random walk (a 64-bit linear congruential step): tests draw
/// sizes from it so that they do not depend on proptest's seed.
pub fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *state
}

/// `n` tile sizes drawn uniformly from `grid` by the walk of [`next_random`].
pub fn random_sizes(state: &mut u64, grid: &[i64], n: usize) -> Vec<i64> {
    (0..n).map(|_| grid[((next_random(state) >> 33) % grid.len() as u64) as usize]).collect()
}
