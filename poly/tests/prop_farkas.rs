//! Farkas' lemma against brute force: on integral polytopes (boxes cut by difference
//! constraints — totally unimodular, so every vertex is an integer point) the linearised
//! constraints accept exactly the coefficient vectors for which the form is ≥ 0 on every
//! enumerated point.

use proptest::prelude::*;
use stencil_poly::*;

#[derive(Debug, Clone)]
struct Integral {
    n: usize,
    bounds: Vec<(i64, i64)>,
    /// x_a − x_b ≤ c
    diffs: Vec<(usize, usize, i64)>,
    /// x_a = x_b + c
    eqs: Vec<(usize, usize, i64)>,
}

impl Integral {
    fn polyhedron(&self) -> Polyhedron {
        let n = self.n;
        let mut p = Polyhedron::universe(Space::anonymous(n));
        for (k, &(lo, hi)) in self.bounds.iter().enumerate() {
            p.add_inequality(&AffineForm::from_terms(n, &[(k, 1)], -lo).unwrap()).unwrap();
            p.add_inequality(&AffineForm::from_terms(n, &[(k, -1)], hi).unwrap()).unwrap();
        }
        for &(a, b, c) in &self.diffs {
            if a != b {
                p.add_inequality(&AffineForm::from_terms(n, &[(a, -1), (b, 1)], c).unwrap()).unwrap();
            }
        }
        for &(a, b, c) in &self.eqs {
            if a != b {
                p.add_equality(&AffineForm::from_terms(n, &[(a, 1), (b, -1)], -c).unwrap()).unwrap();
            }
        }
        p
    }
}

fn integral() -> impl Strategy<Value = Integral> {
    (1usize..=3).prop_flat_map(|n| {
        (
            proptest::collection::vec((-3i64..=1, -1i64..=3), n),
            proptest::collection::vec((0..n, 0..n, -2i64..=2), 0..=2),
            proptest::collection::vec((0..n, 0..n, -1i64..=1), 0..=1),
        )
            .prop_map(move |(bounds, diffs, eqs)| Integral { n, bounds, diffs, eqs })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Unknowns are the coefficients themselves: ψ_c(x) = Σ c_j x_j + c_0.
    #[test]
    fn farkas_accepts_exactly_the_valid_forms(poly in integral(), samples in proptest::collection::vec(proptest::collection::vec(-2i64..=2, 4), 24)) {
        let limits = Limits::default();
        let p = poly.polyhedron();
        let n = poly.n;
        let k = n + 1;
        let unknowns = Space::set((0..n).map(|j| format!("c{}", j + 1)).chain(["c0".to_string()]));
        let coeffs = (0..n).map(|j| AffineForm::unit(k, j).unwrap()).collect();
        let form = ParametricForm::new(unknowns, coeffs, AffineForm::unit(k, n).unwrap()).unwrap();
        let valid = farkas_nonnegative(&p, &form, &limits).unwrap();
        let pts = p.enumerate(&[], &limits).unwrap();
        for c in &samples {
            let c = &c[..k];
            let psi = form.instantiate(c).unwrap();
            let brute = pts.iter().all(|x| psi.eval(x).unwrap() >= 0);
            prop_assert_eq!(valid.contains(c).unwrap(), brute, "c = {:?}, P = {}, Farkas = {}", c, p, valid);
        }
    }

    /// Unknowns enter the coefficients through random affine functions (as schedule
    /// coefficients do in φ_T(t) − φ_S(s)), with a required margin ψ ≥ m.
    #[test]
    fn farkas_with_tied_coefficients(
        poly in integral(),
        m in proptest::collection::vec(proptest::collection::vec(-1i64..=1, 3), 4),
        margin in 0i64..=2,
        samples in proptest::collection::vec(proptest::collection::vec(-2i64..=2, 2), 16),
    ) {
        let limits = Limits::default();
        let p = poly.polyhedron();
        let n = poly.n;
        let unknowns = Space::set(["u", "v"]);
        // coefficient of x_j: m[j][0]·u + m[j][1]·v + m[j][2]; constant: u − v − margin.
        let coeffs = (0..n).map(|j| AffineForm::new(vec![m[j][0], m[j][1]], m[j][2])).collect();
        let form = ParametricForm::new(unknowns, coeffs, AffineForm::new(vec![1, -1], -margin)).unwrap();
        let valid = farkas_nonnegative(&p, &form, &limits).unwrap();
        let pts = p.enumerate(&[], &limits).unwrap();
        for c in &samples {
            let psi = form.instantiate(c).unwrap();
            let brute = pts.iter().all(|x| psi.eval(x).unwrap() >= 0);
            prop_assert_eq!(valid.contains(c).unwrap(), brute, "c = {:?}, P = {}, Farkas = {}", c, p, valid);
        }
    }
}

/// On a non-integral polytope the lemma speaks about rational points: it may reject a form
/// that is non-negative on every integer point, but never accepts an invalid one.
#[test]
fn farkas_is_sound_on_non_integral_polytopes() {
    let limits = Limits::default();
    // x, y ≥ 0, 2x + 3y ≤ 4: integer points (0,0), (1,0), (2,0), (0,1); rational vertex (0, 4/3).
    let p = Polyhedron::parse(Space::set(["x", "y"]), "x >= 0, y >= 0, 2x + 3y <= 4").unwrap();
    // ψ_c = c − y: ≥ 0 on the integer points iff c ≥ 1, on the rational points iff c ≥ 4/3.
    let form = ParametricForm::new(
        Space::set(["c"]),
        vec![AffineForm::zero(1), AffineForm::constant_form(1, -1)],
        AffineForm::unit(1, 0).unwrap(),
    )
    .unwrap();
    let valid = farkas_nonnegative(&p, &form, &limits).unwrap();
    assert!(valid.contains(&[2]).unwrap());
    assert!(!valid.contains(&[1]).unwrap(), "rationally invalid: c − y < 0 at y = 4/3");
    assert!(!valid.contains(&[0]).unwrap());
}
