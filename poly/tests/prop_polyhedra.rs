//! Property tests of the polyhedral operations against brute-force enumeration on small
//! bounded polytopes.

use std::collections::BTreeSet;

use proptest::prelude::*;
use stencil_poly::*;

/// A random bounded polytope: a box `lo ≤ x ≤ hi` and a few random equalities/inequalities.
#[derive(Debug, Clone)]
struct RandomPolytope {
    n: usize,
    bounds: Vec<(i64, i64)>,
    ineqs: Vec<(Vec<i64>, i64)>,
    eqs: Vec<(Vec<i64>, i64)>,
}

impl RandomPolytope {
    fn polyhedron(&self) -> Polyhedron {
        let mut p = Polyhedron::universe(Space::anonymous(self.n));
        for (k, &(lo, hi)) in self.bounds.iter().enumerate() {
            p.add_inequality(&AffineForm::from_terms(self.n, &[(k, 1)], -lo).unwrap()).unwrap();
            p.add_inequality(&AffineForm::from_terms(self.n, &[(k, -1)], hi).unwrap()).unwrap();
        }
        for (c, k) in &self.ineqs {
            p.add_inequality(&AffineForm::new(c.clone(), *k)).unwrap();
        }
        for (c, k) in &self.eqs {
            p.add_equality(&AffineForm::new(c.clone(), *k)).unwrap();
        }
        p
    }
}

fn polytope(min_dims: usize, max_dims: usize) -> impl Strategy<Value = RandomPolytope> {
    (min_dims..=max_dims).prop_flat_map(|n| {
        (
            proptest::collection::vec((-3i64..=0, 0i64..=3), n),
            proptest::collection::vec((proptest::collection::vec(-3i64..=3, n), -6i64..=6), 0..=3),
            proptest::collection::vec((proptest::collection::vec(-3i64..=3, n), -4i64..=4), 0..=1),
        )
            .prop_map(move |(bounds, ineqs, eqs)| RandomPolytope { n, bounds, ineqs, eqs })
    })
}

fn limits() -> Limits {
    Limits::default()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `intersect_all` is the chain of `intersect`s, row for row (the scheduler relies on it to
    /// build the same systems in linear time).
    #[test]
    fn intersect_all_is_the_chain_of_intersections(parts in proptest::collection::vec(polytope(2, 2), 1..=4)) {
        let polyhedra: Vec<Polyhedron> = parts.iter().map(RandomPolytope::polyhedron).collect();
        let first = Polyhedron::universe(Space::anonymous(2));
        let chained = polyhedra.iter().try_fold(first.clone(), |p, q| p.intersect(q)).unwrap();
        let refs: Vec<&Polyhedron> = polyhedra.iter().collect();
        prop_assert_eq!(first.intersect_all(&refs).unwrap(), chained);
    }

    /// Fourier–Motzkin: the integer projection ⊆ FM result ⊆ rational projection, with
    /// equality when the elimination reports itself exact.
    #[test]
    fn fourier_motzkin_matches_the_projection_of_enumerated_points(rp in polytope(1, 3), a in 0usize..3, b in 1usize..3) {
        let p = rp.polyhedron();
        let first = a % rp.n;
        let count = 1 + (b - 1) % (rp.n - first);
        let pts = p.enumerate(&[], &limits()).unwrap();
        let expected: BTreeSet<Vec<i64>> = pts
            .iter()
            .map(|x| x.iter().enumerate().filter(|(k, _)| *k < first || *k >= first + count).map(|(_, v)| *v).collect())
            .collect();
        let proj = p.project_out(first, count, &limits()).unwrap();
        let got: BTreeSet<Vec<i64>> = proj.set.enumerate(&[], &limits()).unwrap().into_iter().collect();
        prop_assert!(expected.is_subset(&got), "lost points: FM {} of {}", proj.set, p);
        if proj.exact {
            prop_assert_eq!(&expected, &got, "exact projection {} of {}", proj.set, p);
        }
        // Every point of the result has a rational preimage.
        for y in &got {
            let mut fiber = p.clone();
            let kept: Vec<usize> = (0..rp.n).filter(|k| *k < first || *k >= first + count).collect();
            for (v, &k) in y.iter().zip(&kept) {
                fiber.add_equality(&AffineForm::from_terms(rp.n, &[(k, 1)], -v).unwrap()).unwrap();
            }
            prop_assert!(!fiber.is_rationally_empty(&limits()).unwrap(), "{y:?} of {} has no rational preimage in {}", proj.set, p);
        }
    }

    /// Integer emptiness agrees with enumeration, also after adding an unbounded dimension.
    #[test]
    fn emptiness_agrees_with_enumeration(rp in polytope(1, 3), shift in -2i64..=2) {
        let p = rp.polyhedron();
        let pts = p.enumerate(&[], &limits()).unwrap();
        prop_assert_eq!(p.is_empty(&limits()).unwrap(), pts.is_empty(), "{}", p);
        if let Some(x) = p.find_point(&limits()).unwrap() {
            prop_assert!(p.contains(&x).unwrap());
        }
        // y ≥ x0 + shift with y otherwise free: unbounded, same emptiness.
        let n = rp.n + 1;
        let mut q = p.embed(Space::anonymous(n), &(0..rp.n).collect::<Vec<_>>()).unwrap();
        q.add_inequality(&AffineForm::from_terms(n, &[(rp.n, 1), (0, -1)], -shift).unwrap()).unwrap();
        prop_assert_eq!(q.is_empty(&limits()).unwrap(), pts.is_empty());
    }

    /// Lexicographic minimum = first enumerated point (enumeration is in lexicographic order);
    /// minimum of a random objective = minimum over the enumerated points.
    #[test]
    fn lexmin_and_minimum_agree_with_enumeration(rp in polytope(1, 3), obj in proptest::collection::vec(-3i64..=3, 3), c in -5i64..=5) {
        let p = rp.polyhedron();
        let pts = p.enumerate(&[], &limits()).unwrap();
        match p.lexmin(&limits()).unwrap() {
            LexMin::Infeasible => prop_assert!(pts.is_empty()),
            LexMin::Optimal { values, point } => {
                prop_assert_eq!(&values, &pts[0]);
                prop_assert_eq!(&point, &pts[0]);
            }
            LexMin::Unbounded { .. } => prop_assert!(false, "bounded polytope reported unbounded"),
        }
        let f = AffineForm::new(obj[..rp.n].to_vec(), c);
        let brute = pts.iter().map(|x| f.eval(x).unwrap()).min();
        match (p.minimize(&f, &limits()).unwrap(), brute) {
            (Optimum::Infeasible, None) => {}
            (Optimum::Optimal { value, point }, Some(m)) => {
                prop_assert_eq!(value, m);
                prop_assert!(p.contains(&point).unwrap());
                prop_assert_eq!(f.eval(&point).unwrap(), m);
            }
            (got, want) => prop_assert!(false, "minimize gave {got:?}, brute force {want:?}"),
        }
    }

    /// With no lower bound on x0 (only upper bounds in terms of the other, bounded,
    /// dimensions) the lexicographic minimum is unbounded exactly when the set is non-empty.
    #[test]
    fn lexmin_reports_unbounded_and_infeasible(rp in polytope(1, 2), ups in proptest::collection::vec((proptest::collection::vec(-2i64..=2, 2), -3i64..=3), 1..=2)) {
        let r = rp.polyhedron();
        let nonempty = !r.enumerate(&[], &limits()).unwrap().is_empty();
        let n = rp.n + 1;
        // x0 is the new first column; the polytope moves to columns 1..n.
        let mut p = r.embed(Space::anonymous(n), &(1..n).collect::<Vec<_>>()).unwrap();
        for (c, k) in &ups {
            let mut terms: Vec<(usize, i64)> = c[..rp.n].iter().enumerate().map(|(j, &v)| (j + 1, v)).collect();
            terms.push((0, -1));
            p.add_inequality(&AffineForm::from_terms(n, &terms, *k).unwrap()).unwrap();
        }
        let expected = if nonempty { LexMin::Unbounded { objective: 0 } } else { LexMin::Infeasible };
        prop_assert_eq!(p.lexmin(&limits()).unwrap(), expected.clone());
        // Minimising the bounded columns first, x0 last.
        let order: Vec<AffineForm> = (1..n).chain([0]).map(|c| AffineForm::unit(n, c).unwrap()).collect();
        let expected = if nonempty { LexMin::Unbounded { objective: n - 1 } } else { LexMin::Infeasible };
        prop_assert_eq!(p.lexmin_objectives(&order, &limits()).unwrap(), expected);
    }

    /// Preimage under an affine map: `x ∈ preimage(P)` iff `M(x) ∈ P`; the image contains
    /// every `M(x)` for `x ∈ P`.
    #[test]
    fn image_and_preimage(rp in polytope(2, 2), m in proptest::collection::vec(-2i64..=2, 6)) {
        let p = rp.polyhedron();
        let space = Space::anonymous(2);
        let map = AffineMap::new(space.clone(), ["y0", "y1"], vec![
            AffineForm::new(vec![m[0], m[1]], m[2]),
            AffineForm::new(vec![m[3], m[4]], m[5]),
        ]).unwrap();
        let pre = map.preimage(&Polyhedron::parse(Space::set(["y0", "y1"]), "-3 <= y0 <= 3, -3 <= y1 <= 3, y0 + y1 >= -1").unwrap()).unwrap();
        let target = Polyhedron::parse(Space::set(["y0", "y1"]), "-3 <= y0 <= 3, -3 <= y1 <= 3, y0 + y1 >= -1").unwrap();
        for x0 in -4..=4 {
            for x1 in -4..=4 {
                let y = map.apply(&[x0, x1]).unwrap();
                prop_assert_eq!(pre.contains(&[x0, x1]).unwrap(), target.contains(&y).unwrap());
            }
        }
        let img = map.image(&p, &limits()).unwrap();
        let got: BTreeSet<Vec<i64>> = img.set.enumerate(&[], &limits()).unwrap().into_iter().collect();
        let want: BTreeSet<Vec<i64>> = p.enumerate(&[], &limits()).unwrap().iter().map(|x| map.apply(x).unwrap()).collect();
        prop_assert!(want.is_subset(&got));
        if img.exact {
            prop_assert_eq!(want, got);
        }
    }

    /// Set difference: the pieces are disjoint and their union is `P \ Q`.
    #[test]
    fn set_difference(a in polytope(2, 2), b in polytope(2, 2)) {
        let (p, q) = (a.polyhedron(), b.polyhedron());
        let pieces = p.subtract(&q, &limits()).unwrap();
        let mut seen = BTreeSet::new();
        for piece in &pieces {
            for x in piece.enumerate(&[], &limits()).unwrap() {
                prop_assert!(seen.insert(x.clone()), "pieces overlap at {x:?}");
            }
        }
        let want: BTreeSet<Vec<i64>> =
            p.enumerate(&[], &limits()).unwrap().into_iter().filter(|x| !q.contains(x).unwrap()).collect();
        prop_assert_eq!(seen, want);
    }
}

#[test]
fn canonical_form_and_redundancy_removal() {
    let s = Space::new(["i", "j"], ["N"]);
    let p = Polyhedron::parse(s.clone(), "0 <= i, i <= N - 1, 0 <= i + 5, j >= i, j <= i, i <= N + 3").unwrap();
    let c = p.canonicalize(None, &limits()).unwrap();
    assert_eq!(c.to_string(), "[N] -> { [i, j] : i = j and 0 <= j <= N - 1 }");
    let r = p.remove_redundancies(&limits()).unwrap();
    assert!(r.inequalities().len() < p.inequalities().len());
    assert!(r.is_equal_set(&p, &limits()).unwrap());
    // Gist: constraints implied by the context disappear.
    let ctx = Polyhedron::parse(s, "N >= 10").unwrap();
    let q = Polyhedron::parse(ctx.space().clone(), "0 <= i <= 5, N >= 3, i <= N").unwrap();
    assert_eq!(q.gist(&ctx, &limits()).unwrap().to_string(), "[N] -> { [i, j] : 0 <= i <= 5 }");
}

#[test]
fn projection_exactness_flag() {
    // x = 2y: projecting y gives the even numbers; FM gives all of [0, 4] and says inexact.
    let p = Polyhedron::parse(Space::set(["x", "y"]), "x = 2y, 0 <= x <= 4").unwrap();
    let proj = p.project_out(1, 1, &limits()).unwrap();
    assert!(!proj.exact);
    // x = y + 1: exact.
    let p = Polyhedron::parse(Space::set(["x", "y"]), "x = y + 1, 0 <= y <= 4").unwrap();
    let proj = p.project_out(1, 1, &limits()).unwrap();
    assert!(proj.exact);
    assert_eq!(proj.set.to_string(), "{ [x] : 1 <= x <= 5 }");
}
