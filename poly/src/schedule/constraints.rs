//! The unknowns of Pluto's integer program and the constraints each dependence puts on them.
//!
//! One hyperplane assigns every statement `S` the row `φ_S(i) = Σ_k c_{S,k} i_k + c_{S,0}`.
//! The unknowns are laid out as in Pluto (NOTES "Pluto's scheduler"): the bounding function
//! `u_1 … u_np, w`, then per statement its iterator coefficients and its shift. For a
//! dependence `e` from `S` to `T` with polyhedron `P_e`:
//!
//! * legality (thesis Eq. 3.16, Thm 3.3): `φ_T(i_t) − φ_S(i_s) ≥ 0` on `P_e`;
//! * bounding function: `u·p + w − (φ_T(i_t) − φ_S(i_s)) ≥ 0` on `P_e` (plus `p ≥ 0` for the
//!   parameters `P_e` bounds only from above, as Pluto does, so that `u` can stay `≥ 0`);
//! * balanced intra-tile wavefronts (thesis Eq. 4.1, self dependences only):
//!   `φ_S(i_t) − φ_S(i_s) ≥ 1` on `P_e`.
//!
//! Each is linearised by the affine Farkas lemma with the multipliers eliminated
//! ([`crate::farkas_nonnegative`]) over the few unknowns it involves, then embedded into the
//! full unknown space.

use crate::affine::AffineForm;
use crate::dependence::Dependence;
use crate::error::Result;
use crate::farkas::{farkas_nonnegative, ParametricForm};
use crate::limits::Limits;
use crate::polyhedron::Polyhedron;
use crate::scop::Scop;
use crate::space::Space;

/// Column layout of the unknowns: `[u_1 … u_np, w, (c_{S,1} … c_{S,n_S}, c_{S,0}) per S]`.
#[derive(Debug, Clone)]
pub(crate) struct Unknowns {
    space: Space,
    n_params: usize,
    offsets: Vec<usize>,
    dims: Vec<usize>,
}

impl Unknowns {
    /// The layout for `scop`'s parameters and statements.
    pub fn new(scop: &Scop) -> Unknowns {
        let mut names: Vec<String> = scop.params().iter().map(|p| format!("u_{p}")).collect();
        names.push("w".into());
        let mut offsets = Vec::new();
        let mut dims = Vec::new();
        for s in scop.statements() {
            offsets.push(names.len());
            dims.push(s.n_iterators());
            for it in s.space().dims() {
                names.push(format!("{}.{it}", s.name()));
            }
            names.push(format!("{}.shift", s.name()));
        }
        Unknowns { space: Space::set(names), n_params: scop.params().len(), offsets, dims }
    }

    /// The unknowns as a parameter-free space.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// Number of unknowns.
    pub fn n(&self) -> usize {
        self.space.n_dims()
    }

    /// Number of parameters (of `u`).
    pub fn n_params(&self) -> usize {
        self.n_params
    }

    /// Column of `w`.
    pub fn w(&self) -> usize {
        self.n_params
    }

    /// Number of statements.
    pub fn n_statements(&self) -> usize {
        self.dims.len()
    }

    /// Number of iterators of statement `s`.
    pub fn dims(&self, s: usize) -> usize {
        self.dims[s]
    }

    /// Column of `c_{s,k}` (iterator `k` of statement `s`).
    pub fn coeff(&self, s: usize, k: usize) -> usize {
        self.offsets[s] + k
    }

    /// Column of the shift `c_{s,0}`.
    pub fn shift(&self, s: usize) -> usize {
        self.offsets[s] + self.dims[s]
    }

    /// Pluto's lexicographic objective order: `u`, `w`, then per statement its iterator
    /// coefficients innermost first, then its shift (the reversal makes outer iterators win
    /// ties).
    pub fn objectives(&self) -> Result<Vec<AffineForm>> {
        let n = self.n();
        let mut cols: Vec<usize> = (0..=self.n_params).collect();
        for s in 0..self.n_statements() {
            cols.extend((0..self.dims[s]).rev().map(|k| self.coeff(s, k)));
            cols.push(self.shift(s));
        }
        cols.into_iter().map(|c| AffineForm::unit(n, c)).collect()
    }

    /// Every unknown `≥ 0`; iterator coefficients and shifts `≤ bound`.
    pub fn bounds(&self, bound: i64) -> Result<Polyhedron> {
        let n = self.n();
        let mut p = Polyhedron::universe(self.space.clone());
        for c in 0..n {
            p.add_inequality(&AffineForm::unit(n, c)?)?;
            if c > self.n_params {
                p.add_inequality(&AffineForm::from_terms(n, &[(c, -1)], bound)?)?;
            }
        }
        Ok(p)
    }

    /// The coefficients `(c_{s,1} …, c_{s,n}, c_{s,0})` of statement `s` in a solution.
    pub fn row_of(&self, s: usize, solution: &[i64]) -> (Vec<i64>, i64) {
        let coeffs = (0..self.dims[s]).map(|k| solution[self.coeff(s, k)]).collect();
        (coeffs, solution[self.shift(s)])
    }
}

/// The Farkas-linearised constraints of one dependence, over the full unknown space.
#[derive(Debug, Clone)]
pub(crate) struct DependenceConstraints {
    /// Legality: `φ_T − φ_S ≥ 0` on `P_e`.
    pub legality: Polyhedron,
    /// Bounding function: `u·p + w − (φ_T − φ_S) ≥ 0`.
    pub bounding: Polyhedron,
    /// Balanced wavefronts (self dependences only): `φ_S(i_t) − φ_S(i_s) ≥ 1`.
    pub balance: Option<Polyhedron>,
}

/// Local unknowns of one dependence and where they live in the full space.
struct Local {
    names: Vec<String>,
    to_global: Vec<usize>,
}

impl Local {
    fn push(&mut self, name: String, global: usize) -> usize {
        self.names.push(name);
        self.to_global.push(global);
        self.names.len() - 1
    }

    fn unit(&self, k: usize, sign: i64) -> Result<AffineForm> {
        AffineForm::from_terms(self.names.len(), &[(k, sign)], 0)
    }

    fn embed(&self, p: &Polyhedron, unknowns: &Unknowns) -> Result<Polyhedron> {
        p.embed(unknowns.space().clone(), &self.to_global)
    }
}

/// `φ_T(i_t) − φ_S(i_s) + constant` as a parametric form over `local` (whose first entries
/// are the source coefficients, shift, then the target's), optionally negated, plus
/// `u·p + w` when `bounding` holds the local columns of `u_1 … u_np, w`.
struct Difference<'a> {
    unknowns: &'a Unknowns,
    dep: &'a Dependence,
}

impl Difference<'_> {
    fn form(
        &self,
        local: &mut Local,
        sign: i64,
        bounding: Option<(&[usize], usize)>,
        constant: i64,
    ) -> Result<ParametricForm> {
        let (s, t) = (self.dep.source.statement.0, self.dep.target.statement.0);
        let u = self.unknowns;
        let (ns, nt) = (u.dims(s), u.dims(t));
        let mut src = Vec::with_capacity(ns);
        for k in 0..ns {
            src.push(local.push(format!("cs{k}"), u.coeff(s, k)));
        }
        let (tgt, shifts) = if s == t {
            (src.clone(), None)
        } else {
            let ss = local.push("ss".into(), u.shift(s));
            let tgt: Vec<usize> = (0..nt).map(|k| local.push(format!("ct{k}"), u.coeff(t, k))).collect();
            let st = local.push("st".into(), u.shift(t));
            (tgt, Some((ss, st)))
        };
        let n = local.names.len();
        let zero = AffineForm::zero(n);
        let np = u.n_params();
        let mut coeffs = Vec::with_capacity(ns + nt + np);
        for &c in &src {
            coeffs.push(local.unit(c, -sign)?);
        }
        for &c in &tgt {
            coeffs.push(local.unit(c, sign)?);
        }
        for p in 0..np {
            coeffs.push(match bounding {
                Some((us, _)) => local.unit(us[p], 1)?,
                None => zero.clone(),
            });
        }
        let mut constant_form = AffineForm::constant_form(n, constant);
        if let Some((ss, st)) = shifts {
            constant_form = AffineForm::from_terms(n, &[(st, sign), (ss, -sign)], constant)?;
        }
        if let Some((_, w)) = bounding {
            constant_form = constant_form.checked_add(&local.unit(w, 1)?)?;
        }
        let space = Space::set(local.names.clone());
        ParametricForm::new(space, coeffs, constant_form)
    }
}

/// The constraints of `dep` (thesis Alg. 4.1 steps 2–4).
pub(crate) fn dependence_constraints(
    scop: &Scop,
    dep: &Dependence,
    unknowns: &Unknowns,
    limits: &Limits,
) -> Result<DependenceConstraints> {
    let poly = dep.polyhedron_in_context(scop)?;
    let diff = Difference { unknowns, dep };

    let mut local = Local { names: Vec::new(), to_global: Vec::new() };
    let form = diff.form(&mut local, 1, None, 0)?;
    let legality = local.embed(&farkas_nonnegative(&poly, &form, limits)?, unknowns)?;

    let balance = if dep.is_self() {
        let mut local = Local { names: Vec::new(), to_global: Vec::new() };
        let form = diff.form(&mut local, 1, None, -1)?;
        Some(local.embed(&farkas_nonnegative(&poly, &form, limits)?, unknowns)?)
    } else {
        None
    };

    let mut local = Local { names: Vec::new(), to_global: Vec::new() };
    let us: Vec<usize> = (0..unknowns.n_params()).map(|p| local.push(format!("u{p}"), p)).collect();
    let w = local.push("w".into(), unknowns.w());
    let form = diff.form(&mut local, -1, Some((&us, w)), 0)?;
    let bounding_poly = with_nonnegative_parameters(&poly, dep)?;
    let bounding = local.embed(&farkas_nonnegative(&bounding_poly, &form, limits)?, unknowns)?;

    Ok(DependenceConstraints { legality, bounding, balance })
}

/// `P_e` plus `p ≥ 0` for every parameter that the dependence polyhedron's own constraints
/// mention only with negative coefficients (Pluto's `normalize_domains`: "avoid the need for
/// bounding function coefficients to take negative values").
fn with_nonnegative_parameters(poly: &Polyhedron, dep: &Dependence) -> Result<Polyhedron> {
    let own = &dep.polyhedron;
    let space = own.space();
    let nd = space.n_dims();
    let mut out = poly.clone();
    for p in 0..space.n_params() {
        let col = nd + p;
        let rows = own.equalities().iter().chain(own.inequalities());
        let (mut min, mut max) = (0i64, 0i64);
        let mut any = false;
        for r in rows {
            let c = r.coeff(col);
            if !any {
                (min, max) = (c, c);
                any = true;
            } else {
                min = min.min(c);
                max = max.max(c);
            }
        }
        if any && min < 0 && max <= 0 {
            out.add_inequality(&AffineForm::unit(space.n_columns(), col)?)?;
        }
    }
    Ok(out)
}
