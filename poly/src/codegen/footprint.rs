//! The array elements one tile touches, for staging them in GPU shared memory (thesis §3.3.2,
//! Fig. 3.17: "all data read by a tile are first loaded from device memory to shared memory …
//! and all those written in a tile are stored back").
//!
//! For a tile — the values of the scanned dimensions that enclose its body (`outer`) — and
//! the statements that run in it, [`tile_footprints`] gives per array:
//!
//! * a **box** (origin and static extent) holding every element any of those statements reads
//!   or writes in any tile: the shared buffer;
//! * **exact membership tests** for the elements read and for the elements written, so that a
//!   tile loads exactly what it reads and stores back exactly what it wrote. Loading or storing
//!   more would touch elements that tiles running at the same time write (a data race, even
//!   when the extra values are never used).
//!
//! An access `A[f(i) + c]` of statement `S` touches `{f(i) + c : i ∈ S's instances in the tile}`:
//! the tile-restricted domain with the inner scanned dimensions and the iterators projected
//! out. Fourier–Motzkin is exact over the integers only under Pugh's condition; skewed tiles
//! break it (`2t + i` tiled: the elements `i` of a tile corner need an even `2t` in a range).
//! So one iterator may stay existential: then an element is in the set iff the integer
//! interval of that iterator, `max ⌈lower⌉ ≤ min ⌊upper⌋`, is non-empty — exact, no loop. Accesses
//! of one statement that differ only in their constant (a stencil's neighbours) share one
//! projection, translated.

use std::collections::BTreeMap;

use super::ast::{Bound, Guard, GuardKind};
use super::error::{CodegenError, CodegenResult};
use super::problem::ScanProblem;
use crate::affine::AffineForm;
use crate::limits::Limits;
use crate::lp::simplex::LpOutcome;
use crate::polyhedron::Polyhedron;
use crate::scop::{ArrayId, Scop, StatementId};
use crate::space::Space;

/// A set of array elements of one tile, over the columns `[dims…, coords…, params…]`: the
/// scanned dimensions (only those enclosing the tile body occur), the element's coordinates,
/// the parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementRegion {
    /// Conditions that must all hold.
    pub guards: Vec<Guard>,
    /// Lower bounds (`⌈expr / divisor⌉`) of the one existential iterator; empty when none is
    /// needed.
    pub lower: Vec<Bound>,
    /// Its upper bounds (`⌊expr / divisor⌋`); the element belongs to the set iff the largest
    /// lower bound is at most the smallest upper bound (and the guards hold).
    pub upper: Vec<Bound>,
}

/// One candidate for the origin of a box coordinate: while `active` holds (the statement has
/// instances in the tile, over the rationals), the elements it touches start at or after the
/// maximum of `lower`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginCandidate {
    /// When the candidate applies, over `[dims…, params…]`.
    pub active: Vec<Guard>,
    /// Lower bounds over `[dims…, params…]`; the candidate is their maximum.
    pub lower: Vec<Bound>,
}

/// What one tile touches in one array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayFootprint {
    /// The array.
    pub array: ArrayId,
    /// Per coordinate: the box starts at the minimum over the active candidates.
    pub origin: Vec<Vec<OriginCandidate>>,
    /// Per coordinate: the box's size, the same for every tile and parameter value.
    pub extent: Vec<i64>,
    /// The elements read (a union).
    pub reads: Vec<ElementRegion>,
    /// The elements written (a union).
    pub writes: Vec<ElementRegion>,
    /// The same sets as translates of a few base sets: every region of `reads` and `writes`
    /// is a base translated by one of its offsets. A code generator can test membership in a
    /// base once per element and in a translate by a lookup (`x ∈ base + o ⟺ x − o ∈ base`).
    pub bases: Vec<FootprintBase>,
}

/// The elements one tile touches through the accesses of one statement that differ only in
/// their constant offsets (a stencil's neighbours): `region` is the set with offset zero; the
/// access with offset `o` touches `region + o`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FootprintBase {
    /// The elements at offset zero, over `[dims…, coords…, params…]` as the other regions.
    pub region: ElementRegion,
    /// The offsets of the reads through this base (distinct).
    pub reads: Vec<Vec<i64>>,
    /// The offsets of the writes through this base (distinct).
    pub writes: Vec<Vec<i64>>,
}

/// The projection shared by the accesses of one statement with one index shape.
struct Base {
    array: ArrayId,
    /// Over `[dims…, coords…, (e), params…]`.
    set: Polyhedron,
    /// Whether the existential column `e` is present.
    existential: bool,
    /// Per access: (constant offset, is a write).
    accesses: Vec<(Vec<i64>, bool)>,
}

/// The footprints of the tile enclosed by the dimensions `outer` (`outer[d]`: dimension `d` is
/// fixed for the tile) running `statements`, one per array they access, by array.
pub fn tile_footprints(
    problem: &ScanProblem,
    scop: &Scop,
    statements: &[StatementId],
    outer: &[bool],
    limits: &Limits,
) -> CodegenResult<Vec<ArrayFootprint>> {
    let n = problem.dims.len();
    if outer.len() != n {
        return Err(CodegenError::InvalidProblem(format!("{} outer flags for {n} dimensions", outer.len())));
    }
    let mut bases: Vec<Base> = Vec::new();
    for &id in statements {
        let statement = scop
            .statement(id)
            .ok_or_else(|| CodegenError::InvalidProblem(format!("statement {} is not in the SCoP", id.0)))?;
        let scanned =
            problem.statements.iter().find(|s| s.statement == id).ok_or_else(|| {
                CodegenError::InvalidProblem(format!("statement {} is not scanned", statement.name()))
            })?;
        let mut shapes: BTreeMap<(usize, Vec<AffineForm>), usize> = BTreeMap::new();
        for access in statement.accesses() {
            let shape: Vec<AffineForm> =
                access.index().iter().map(|f| AffineForm::new(f.coeffs().to_vec(), 0)).collect();
            let offset: Vec<i64> = access.index().iter().map(AffineForm::constant).collect();
            let key = (access.array().0, shape);
            let b = match shapes.get(&key) {
                Some(&b) => b,
                None => {
                    let (set, existential) = project_access(problem, scanned.domain.clone(), &key.1, outer, limits)
                        .and_then(|r| {
                            r.ok_or_else(|| CodegenError::FootprintInexact {
                                statement: statement.name().to_string(),
                                array: array_name(scop, access.array()),
                            })
                        })?;
                    bases.push(Base { array: access.array(), set, existential, accesses: Vec::new() });
                    shapes.insert(key, bases.len() - 1);
                    bases.len() - 1
                }
            };
            bases[b].accesses.push((offset, access.is_write()));
        }
    }
    let mut arrays: Vec<ArrayId> = bases.iter().map(|b| b.array).collect();
    arrays.sort();
    arrays.dedup();
    arrays
        .into_iter()
        .map(|array| {
            let mine: Vec<&Base> = bases.iter().filter(|b| b.array == array).collect();
            array_footprint(problem, scop, array, &mine, limits)
        })
        .collect()
}

fn array_name(scop: &Scop, array: ArrayId) -> String {
    scop.array(array).map_or_else(|| format!("#{}", array.0), |a| a.name.clone())
}

/// `{(dims, x, [e], params) : ∃ inner dims, iterators (but e): domain ∧ x = shape(iterators)}`,
/// exact over the integers with no existential or with one iterator kept as `e`; `None` when
/// neither is exact.
fn project_access(
    problem: &ScanProblem,
    domain: Polyhedron,
    shape: &[AffineForm],
    outer: &[bool],
    limits: &Limits,
) -> CodegenResult<Option<(Polyhedron, bool)>> {
    let n = outer.len();
    let r = shape.len();
    let n_params = problem.context.space().n_params();
    let k = domain.space().n_dims() - n;
    let candidates = std::iter::once(None).chain((0..k).map(Some));
    for keep in candidates {
        let inner: Vec<usize> = (0..n).filter(|&d| !outer[d]).collect();
        let eliminated: Vec<usize> = (0..k).filter(|&i| Some(i) != keep).collect();
        let n_elim = inner.len() + eliminated.len();
        let e_cols = usize::from(keep.is_some());
        // Columns: [eliminated inner dims, eliminated iterators | dims, x, (e), params].
        let kept = n + r + e_cols;
        let total = n_elim + kept + n_params;
        let dim_col = |d: usize| match inner.iter().position(|&x| x == d) {
            Some(p) => p,
            None => n_elim + d,
        };
        let iter_col = |i: usize| match eliminated.iter().position(|&x| x == i) {
            Some(p) => inner.len() + p,
            None => n_elim + n + r,
        };
        let param_col = |p: usize| n_elim + kept + p;
        let mapping: Vec<usize> =
            (0..n).map(dim_col).chain((0..k).map(iter_col)).chain((0..n_params).map(param_col)).collect();
        let names: Vec<String> = (0..n_elim + kept).map(|c| format!("c{c}")).collect();
        let space = Space::new(names, problem.context.space().params().to_vec());
        let mut set = domain.embed(space.clone(), &mapping)?;
        // x_d − shape_d(iterators, params) = 0.
        let shape_mapping: Vec<usize> = (0..k).map(iter_col).chain((0..n_params).map(param_col)).collect();
        for (d, f) in shape.iter().enumerate() {
            let image = f.remap(total, &shape_mapping)?;
            let x = AffineForm::unit(total, n_elim + n + d)?;
            set.add_equality(&x.checked_sub(&image)?)?;
        }
        let projection = set.project_out(0, n_elim, limits)?;
        if projection.exact {
            return Ok(Some((projection.set, keep.is_some())));
        }
    }
    Ok(None)
}

/// The box, origin and regions of one array from the projections that access it.
fn array_footprint(
    problem: &ScanProblem,
    scop: &Scop,
    array: ArrayId,
    bases: &[&Base],
    limits: &Limits,
) -> CodegenResult<ArrayFootprint> {
    let n = problem.dims.len();
    let n_params = problem.context.space().n_params();
    let r = scop.array(array).map_or(0, |a| a.rank);
    let mut reads: Vec<ElementRegion> = Vec::new();
    let mut writes: Vec<ElementRegion> = Vec::new();
    let mut translated: Vec<FootprintBase> = Vec::new();
    for base in bases {
        let mut described =
            FootprintBase { region: element_region(base, &vec![0; r], n, r)?, reads: Vec::new(), writes: Vec::new() };
        for (offset, write) in &base.accesses {
            let region = element_region(base, offset, n, r)?;
            let list = if *write { &mut writes } else { &mut reads };
            if !list.contains(&region) {
                list.push(region);
            }
            let offsets = if *write { &mut described.writes } else { &mut described.reads };
            if !offsets.contains(offset) {
                offsets.push(offset.clone());
            }
        }
        translated.push(described);
    }
    // The rational shadows over [dims, x, params] (e projected out).
    let shadows: Vec<Polyhedron> = bases
        .iter()
        .map(|b| {
            if b.existential {
                let names: Vec<String> = (0..n + r + 1).map(|c| format!("c{c}")).collect();
                let last = n + r;
                // Move e to the front, then project it out.
                let mapping: Vec<usize> = (0..last)
                    .map(|c| c + 1)
                    .chain(std::iter::once(0))
                    .chain((0..n_params).map(|p| last + 1 + p))
                    .collect();
                let moved = b.set.embed(Space::new(names, problem.context.space().params().to_vec()), &mapping)?;
                Ok(moved.project_out(0, 1, limits)?.set)
            } else {
                Ok(b.set.clone())
            }
        })
        .collect::<CodegenResult<_>>()?;
    let mut origin = Vec::with_capacity(r);
    let mut extent = Vec::with_capacity(r);
    for d in 0..r {
        let mut candidates = Vec::new();
        for (base, shadow) in bases.iter().zip(&shadows) {
            let min_offset = base.accesses.iter().map(|(o, _)| o[d]).min().unwrap_or(0);
            candidates.push(origin_candidate(problem, scop, array, shadow, d, min_offset, n, r, limits)?);
        }
        origin.push(candidates);
        let mut size: Option<i64> = None;
        for (b1, s1) in bases.iter().zip(&shadows) {
            for (b2, s2) in bases.iter().zip(&shadows) {
                let spread = match max_spread(problem, s1, s2, d, n, r, limits)? {
                    Spread::Never => continue,
                    Spread::Unbounded => {
                        return Err(CodegenError::FootprintUnbounded { array: array_name(scop, array), coordinate: d })
                    }
                    Spread::Max(v) => v,
                };
                let hi = b1.accesses.iter().map(|(o, _)| o[d]).max().unwrap_or(0);
                let lo = b2.accesses.iter().map(|(o, _)| o[d]).min().unwrap_or(0);
                let e = spread.checked_add(hi - lo).and_then(|v| v.checked_add(1)).ok_or_else(|| {
                    CodegenError::FootprintUnbounded { array: array_name(scop, array), coordinate: d }
                })?;
                size = Some(size.map_or(e, |s| s.max(e)));
            }
        }
        extent.push(size.unwrap_or(0).max(0));
    }
    Ok(ArrayFootprint { array, origin, extent, reads, writes, bases: translated })
}

/// The region of one access: the base translated by `offset` (`x = a − offset`), split into
/// guards and the existential's bounds, over `[dims, coords, params]`.
fn element_region(base: &Base, offset: &[i64], n: usize, r: usize) -> CodegenResult<ElementRegion> {
    let e_col = base.existential.then_some(n + r);
    let cols = base.set.n_columns();
    let out_cols = cols - usize::from(base.existential);
    let translate = |f: &AffineForm| -> CodegenResult<AffineForm> {
        let mut shift = 0i64;
        for (d, &o) in offset.iter().enumerate() {
            shift = f
                .coeff(n + d)
                .checked_mul(o)
                .and_then(|v| shift.checked_add(v))
                .ok_or(CodegenError::Poly(crate::error::overflow("footprint translation")))?;
        }
        Ok(f.checked_add_constant(-shift)?)
    };
    let drop_e = |f: &AffineForm| -> CodegenResult<AffineForm> {
        let mapping: Vec<usize> = (0..cols)
            .map(|c| match e_col {
                Some(e) if c > e => c - 1,
                Some(e) if c == e => 0, // coefficient is zero when called
                _ => c,
            })
            .collect();
        Ok(f.remap(out_cols, &mapping)?)
    };
    let mut region = ElementRegion { guards: Vec::new(), lower: Vec::new(), upper: Vec::new() };
    let rows =
        base.set.equalities().iter().map(|f| (f, true)).chain(base.set.inequalities().iter().map(|f| (f, false)));
    for (f, equality) in rows {
        let mut f = translate(f)?;
        let mut a = e_col.map_or(0, |e| f.coeff(e));
        if a == 0 {
            let kind = if equality { GuardKind::Zero } else { GuardKind::NonNegative };
            region.guards.push(Guard { expr: drop_e(&f)?, kind });
            continue;
        }
        if equality && a < 0 {
            f = f.checked_neg()?;
            a = -a;
        }
        // f = a·e + L: a > 0 gives e ≥ ⌈−L / a⌉ (and, for an equality, e ≤ ⌊−L / a⌋); a < 0
        // gives e ≤ ⌊L / |a|⌋.
        let e = e_col.ok_or(CodegenError::InvalidProblem("an existential without column".into()))?;
        let rest = drop_e(&f.checked_sub(&AffineForm::unit(cols, e)?.checked_scale(a)?)?)?;
        if a > 0 {
            let bound = Bound { expr: rest.checked_neg()?, divisor: a };
            if equality {
                region.upper.push(bound.clone());
            }
            region.lower.push(bound);
        } else {
            region.upper.push(Bound { expr: rest, divisor: -a });
        }
    }
    Ok(region)
}

/// Where the elements of `shadow` (over `[dims, x, params]`) start along coordinate `d`, shifted
/// by `offset`, and when that applies; over `[dims, params]`.
#[allow(clippy::too_many_arguments)]
fn origin_candidate(
    problem: &ScanProblem,
    scop: &Scop,
    array: ArrayId,
    shadow: &Polyhedron,
    d: usize,
    offset: i64,
    n: usize,
    r: usize,
    limits: &Limits,
) -> CodegenResult<OriginCandidate> {
    let n_params = problem.context.space().n_params();
    let params = problem.context.space().params().to_vec();
    // Columns [x except d | dims, x_d, params], then project the other coordinates out.
    let others: Vec<usize> = (0..r).filter(|&c| c != d).collect();
    let m = others.len();
    let mapping: Vec<usize> = (0..n)
        .map(|c| m + c)
        .chain((0..r).map(|c| if c == d { m + n } else { others.iter().position(|&o| o == c).unwrap_or(0) }))
        .chain((0..n_params).map(|p| m + n + 1 + p))
        .collect();
    let names: Vec<String> = (0..m + n + 1).map(|c| format!("c{c}")).collect();
    let line = shadow.embed(Space::new(names, params.clone()), &mapping)?.project_out(0, m, limits)?.set;
    // Over [dims, x_d, params]: bounds of x_d; the rest says when the set is non-empty.
    let x = n;
    let to_nest = |f: &AffineForm| -> CodegenResult<AffineForm> {
        let mapping: Vec<usize> = (0..n).chain(std::iter::once(0)).chain((0..n_params).map(|p| n + p)).collect();
        Ok(f.remap(n + n_params, &mapping)?)
    };
    let mut lower = Vec::new();
    let rows = line.equalities().iter().map(|f| (f, true)).chain(line.inequalities().iter().map(|f| (f, false)));
    for (f, equality) in rows {
        let a = f.coeff(x);
        let rest = f.checked_sub(&AffineForm::unit(f.n_columns(), x)?.checked_scale(a)?)?;
        if a > 0 || (a < 0 && equality) {
            // a·x + L ≥ 0 ⇒ x ≥ ⌈−L / a⌉ (an equality with a < 0: x = L / |a|); shifted by offset.
            let (num, div) = if a > 0 { (rest.checked_neg()?, a) } else { (rest, -a) };
            let shifted = num.checked_add_constant(
                offset.checked_mul(div).ok_or(CodegenError::Poly(crate::error::overflow("footprint origin")))?,
            )?;
            lower.push(Bound { expr: to_nest(&shifted)?, divisor: div });
        }
    }
    if lower.is_empty() {
        return Err(CodegenError::FootprintUnbounded { array: array_name(scop, array), coordinate: d });
    }
    // The elimination of x_d gives the conditions under which the set is non-empty.
    let names: Vec<String> = (0..n + 1).map(|c| format!("c{c}")).collect();
    let front: Vec<usize> =
        (0..n).map(|c| c + 1).chain(std::iter::once(0)).chain((0..n_params).map(|p| n + 1 + p)).collect();
    let nonempty = line.embed(Space::new(names, params), &front)?.project_out(0, 1, limits)?.set;
    let mut active = Vec::new();
    for f in nonempty.equalities() {
        active.push(Guard { expr: f.clone(), kind: GuardKind::Zero });
    }
    for f in nonempty.inequalities() {
        active.push(Guard { expr: f.clone(), kind: GuardKind::NonNegative });
    }
    Ok(OriginCandidate { active, lower })
}

/// How far apart two elements of one tile can be along a coordinate.
enum Spread {
    /// The two sets never occur in one tile.
    Never,
    /// Without bound (a dimension of the tile is not bounded by the tiling).
    Unbounded,
    /// `⌊max (x_d − x'_d)⌋`.
    Max(i64),
}

/// `⌊max (x_d − x'_d)⌋` over the rationals, `x` in `s1` and `x'` in `s2` in the same tile (the
/// same dimensions and parameters).
fn max_spread(
    problem: &ScanProblem,
    s1: &Polyhedron,
    s2: &Polyhedron,
    d: usize,
    n: usize,
    r: usize,
    limits: &Limits,
) -> CodegenResult<Spread> {
    let params = problem.context.space().params().to_vec();
    let n_params = params.len();
    // Columns [dims, x, x', params].
    let total = n + 2 * r + n_params;
    let names: Vec<String> = (0..n + 2 * r).map(|c| format!("c{c}")).collect();
    let space = Space::new(names, params);
    let first: Vec<usize> = (0..n + r).chain((0..n_params).map(|p| n + 2 * r + p)).collect();
    let second: Vec<usize> =
        (0..n).chain((0..r).map(|c| n + r + c)).chain((0..n_params).map(|p| n + 2 * r + p)).collect();
    let context: Vec<usize> = (0..n_params).map(|p| n + 2 * r + p).collect();
    let pair = s1
        .embed(space.clone(), &first)?
        .intersect(&s2.embed(space.clone(), &second)?)?
        .intersect(&problem.context.embed(space, &context)?)?;
    // min (x'_d − x_d) = −max (x_d − x'_d).
    let objective = AffineForm::unit(total, n + r + d)?.checked_sub(&AffineForm::unit(total, n + d)?)?;
    match pair.system().rational_min(&objective, &[], limits)? {
        LpOutcome::Infeasible => Ok(Spread::Never),
        LpOutcome::Unbounded => Ok(Spread::Unbounded),
        LpOutcome::Optimal { value, .. } => {
            let max = -value.ceil();
            Ok(Spread::Max(
                i64::try_from(max).map_err(|_| CodegenError::Poly(crate::error::overflow("footprint extent")))?,
            ))
        }
    }
}
