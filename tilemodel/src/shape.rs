//! The tiled band as the models see it: per statement, the band's schedule rows as an integer
//! matrix over the iterators (thesis §5.2.1's skew `Φ_S` with its shifts), the statement's
//! iteration box at the problem sizes, its accesses; the intra-tile wavefront of the band and
//! the statement groups that run, barrier-separated, in each intra-tile wavefront step.
//!
//! [`BandShape::new`] reads this once from a [`TiledSchedule`] (any tile sizes: the shape does
//! not depend on them) and refuses, with a message, what the models do not cover: more than one
//! tiled band, loop rows outside the band, a rectangular inter-tile order, sequential point
//! dimensions, a band map that is not unimodular (|det| = 1: then the points of a full tile are
//! exactly the `s_1 × … × s_m` integer points of its box, thesis Eq. 5.6), and iteration
//! domains that are not boxes at the given problem sizes.

use stencil_poly::scop::Scop;
use stencil_poly::tiling::{DimDef, DimKind, IntraTile, TiledSchedule};

use crate::error::{Result, TileModelError};

/// The intra-tile wavefront of a tiled band (thesis Def. 4.1, Eq. 3.19).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntraWavefront {
    /// `e_1 = φ_1`: every step is an `s_2 × … × s_m` slice of the tile (balanced wavefronts,
    /// thesis Thm 4.1).
    FirstHyperplane,
    /// `e_1 = φ_1 + … + φ_m`: the steps are the diagonal slices of the tile.
    Skew,
}

/// One access of a statement: `array[linear · i + offset]` over the statement's iterators `i`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessShape {
    /// Index of the array in [`BandShape::arrays`].
    pub array: usize,
    /// Whether it is a write.
    pub write: bool,
    /// One row per array coordinate, one coefficient per iterator.
    pub linear: Vec<Vec<i64>>,
    /// The constant part of each coordinate (parameters substituted).
    pub offset: Vec<i64>,
}

/// One statement of the band.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementShape {
    /// Its name (the apply's).
    pub name: String,
    /// The band's rows over its iterators: `φ(i) = map · i + shift` (`m × m`).
    pub map: Vec<Vec<i64>>,
    /// The constant part of each band row (parameters substituted).
    pub shift: Vec<i64>,
    /// `map⁻¹` (an integer matrix: `map` is unimodular).
    pub inverse: Vec<Vec<i64>>,
    /// Its iteration domain at the problem sizes: `lower ≤ i ≤ upper` (inclusive).
    pub lower: Vec<i64>,
    /// See `lower`.
    pub upper: Vec<i64>,
    /// Its accesses.
    pub accesses: Vec<AccessShape>,
    /// Arithmetic operations one instance executes (the apply body's, for the models' per-point
    /// cost).
    pub operations: u32,
}

impl StatementShape {
    /// Number of instances at the problem sizes.
    pub fn instances(&self) -> u128 {
        self.lower.iter().zip(&self.upper).map(|(l, u)| (u - l + 1).max(0) as u128).product()
    }
}

/// An array the band accesses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayShape {
    /// Its name.
    pub name: String,
    /// Its rank.
    pub rank: usize,
    /// Bytes per element.
    pub element_bytes: u32,
}

/// What the caller knows about the program beyond the SCoP: element sizes and operation
/// counts (the IR's business).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProgramFacts {
    /// Bytes per element of each array of the SCoP (by array id).
    pub element_bytes: Vec<u32>,
    /// Arithmetic operations per instance of each statement (by statement id).
    pub operations: Vec<u32>,
}

/// A tiled band ready for counting (module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BandShape {
    /// Number of band rows `m`.
    pub width: usize,
    /// The intra-tile wavefront.
    pub intra: IntraWavefront,
    /// The statements of the band, in statement order.
    pub statements: Vec<StatementShape>,
    /// Per intra-tile wavefront step, the statement groups (indices into `statements`) that
    /// run one after another with a barrier in between (thesis Fig. 4.7); one group when the
    /// statements share the point loops.
    pub phases: Vec<Vec<usize>>,
    /// The arrays the statements access (by array id of the SCoP).
    pub arrays: Vec<ArrayShape>,
    /// The problem sizes: each parameter with its value.
    pub params: Vec<(String, i64)>,
}

impl BandShape {
    /// The shape of `tiled` (a tiling of `scop`) at the parameter values `params` (in the order
    /// of `scop.params()`), with the element sizes and operation counts of `facts`.
    pub fn new(scop: &Scop, tiled: &TiledSchedule, params: &[i64], facts: &ProgramFacts) -> Result<BandShape> {
        let unsupported = |m: String| Err(TileModelError::Unsupported(m));
        if params.len() != scop.params().len() {
            return Err(TileModelError::InvalidInput(format!(
                "{} parameter values for the parameters [{}]",
                params.len(),
                scop.params().join(", ")
            )));
        }
        if tiled.intra_tile.len() != 1 {
            return unsupported(format!(
                "the schedule has {} tiled bands; the models cover exactly one (tile the program with poly-tile)",
                tiled.intra_tile.len()
            ));
        }
        let intra = match tiled.intra_tile[0] {
            IntraTile::FirstHyperplane => IntraWavefront::FirstHyperplane,
            IntraTile::Skew => IntraWavefront::Skew,
            IntraTile::Auto => return unsupported("the intra-tile wavefront was not resolved".into()),
        };
        let mut band_rows: Option<Vec<usize>> = None;
        let mut wavefront_dim = None;
        for (k, d) in tiled.dims.iter().enumerate() {
            match (d.kind, d.band) {
                (DimKind::Loop, _) => {
                    return unsupported(format!(
                        "the loop '{}' lies outside the tiled band (the models cover programs whose loops all belong to the band)",
                        d.name
                    ))
                }
                (DimKind::Tile, Some(0)) if !d.parallel => {
                    return unsupported(format!("the tile dimension '{}' is sequential", d.name))
                }
                (DimKind::Point, Some(0)) if !d.parallel => {
                    return unsupported(format!(
                        "the point dimension '{}' is sequential inside an intra-tile wavefront",
                        d.name
                    ))
                }
                (DimKind::TileWavefront, Some(0)) => {
                    if let DimDef::TileSum { rows, .. } = &d.def {
                        band_rows = Some(rows.clone());
                    }
                }
                (DimKind::PointWavefront, Some(0)) => wavefront_dim = Some(k),
                (DimKind::Tile, None) | (DimKind::TileWavefront, None) => {
                    return unsupported("a rectangular inter-tile order (the models need the inter-tile wavefront of thesis Eq. 3.17)".into())
                }
                _ => {}
            }
        }
        let (Some(rows), Some(wavefront_dim)) = (band_rows, wavefront_dim) else {
            return unsupported(
                "no inter-tile wavefront: the models need poly-tile's inter=wavefront (thesis Eq. 3.17)".into(),
            );
        };
        let m = rows.len();
        if m < 2 {
            return unsupported(format!(
                "the band has {m} row; the models need at least two (a sequential intra-tile wavefront and parallel points)"
            ));
        }
        let mut statements = Vec::with_capacity(scop.statements().len());
        for (s, stmt) in scop.statements().iter().enumerate() {
            let sched = tiled
                .schedules
                .get(s)
                .ok_or_else(|| TileModelError::InvalidInput(format!("no schedule for statement {}", stmt.name())))?;
            // Scalar rows outside the band must agree: statements split by them would not share
            // the band's tiles.
            for d in tiled.dims.iter().filter(|d| d.band.is_none() && d.kind == DimKind::Scalar) {
                if let DimDef::Row(r) = d.def {
                    let first = tiled.schedules[0].rows()[r].constant();
                    if sched.rows()[r].constant() != first {
                        return unsupported(format!(
                            "statements {} and {} are in different loop nests (scalar dimension '{}')",
                            scop.statements()[0].name(),
                            stmt.name(),
                            d.name
                        ));
                    }
                }
            }
            let n = stmt.n_iterators();
            if n != m {
                return unsupported(format!(
                    "statement {} has {n} iterators but the band has {m} rows (the models need one band row per loop)",
                    stmt.name()
                ));
            }
            let mut map = Vec::with_capacity(m);
            let mut shift = Vec::with_capacity(m);
            for &r in &rows {
                let row = &sched.rows()[r];
                map.push(row.coeffs()[..n].to_vec());
                shift.push(eval_params(row.coeffs(), row.constant(), n, params)?);
            }
            let inverse = unimodular_inverse(&map).ok_or_else(|| {
                TileModelError::Unsupported(format!(
                    "the band rows of statement {} are not unimodular (|det| != 1): a tile's points are then not its box's",
                    stmt.name()
                ))
            })?;
            let (lower, upper) = domain_box(stmt, params)?;
            let mut accesses = Vec::new();
            for a in stmt.accesses() {
                let mut linear = Vec::new();
                let mut offset = Vec::new();
                for f in a.index() {
                    linear.push(f.coeffs()[..n].to_vec());
                    offset.push(eval_params(f.coeffs(), f.constant(), n, params)?);
                }
                accesses.push(AccessShape { array: a.array().0, write: a.is_write(), linear, offset });
            }
            statements.push(StatementShape {
                name: stmt.name().to_string(),
                map,
                shift,
                inverse,
                lower,
                upper,
                accesses,
                operations: facts.operations.get(s).copied().unwrap_or(1),
            });
        }
        if statements.iter().all(|s| s.instances() == 0) {
            return Err(TileModelError::InvalidInput("no statement has an instance at these problem sizes".into()));
        }
        let phases = phases(tiled, wavefront_dim, statements.len());
        let arrays = scop
            .arrays()
            .iter()
            .enumerate()
            .map(|(k, a)| ArrayShape {
                name: a.name.clone(),
                rank: a.rank,
                element_bytes: facts.element_bytes.get(k).copied().unwrap_or(8),
            })
            .collect();
        let params = scop.params().iter().cloned().zip(params.iter().copied()).collect();
        Ok(BandShape { width: m, intra, statements, phases, arrays, params })
    }

    /// The largest element size of the arrays the band accesses, in bytes.
    pub fn element_bytes(&self) -> u32 {
        self.arrays.iter().map(|a| a.element_bytes).max().unwrap_or(8)
    }

    /// Arithmetic operations per point of a full tile (every statement of the band once).
    pub fn operations_per_point(&self) -> u32 {
        self.statements.iter().map(|s| s.operations).sum()
    }

    /// Statement instances at the problem sizes (the point updates).
    pub fn instances(&self) -> u128 {
        self.statements.iter().map(StatementShape::instances).sum()
    }

    /// Per band row, the range `[min, max]` of `φ_k` over every statement's instances.
    pub fn row_ranges(&self) -> Vec<(i64, i64)> {
        (0..self.width)
            .map(|k| {
                let mut lo = i64::MAX;
                let mut hi = i64::MIN;
                for s in self.statements.iter().filter(|s| s.instances() > 0) {
                    let mut a = s.shift[k];
                    let mut b = s.shift[k];
                    for (j, &c) in s.map[k].iter().enumerate() {
                        let (x, y) = (c * s.lower[j], c * s.upper[j]);
                        a += x.min(y);
                        b += x.max(y);
                    }
                    lo = lo.min(a);
                    hi = hi.max(b);
                }
                (lo, hi)
            })
            .collect()
    }
}

/// `coeffs[..n]·0 + coeffs[n..]·params + constant`: the value of an affine form's parameter
/// and constant part.
fn eval_params(coeffs: &[i64], constant: i64, n: usize, params: &[i64]) -> Result<i64> {
    let mut v = i128::from(constant);
    for (c, p) in coeffs[n..].iter().zip(params) {
        v += i128::from(*c) * i128::from(*p);
    }
    i64::try_from(v).map_err(|_| TileModelError::Overflow("a schedule row's constant"))
}

/// The box `lower ≤ i ≤ upper` of a statement's domain at the parameter values; an error when
/// the domain is not a box.
fn domain_box(stmt: &stencil_poly::scop::Statement, params: &[i64]) -> Result<(Vec<i64>, Vec<i64>)> {
    let n = stmt.n_iterators();
    let fixed = stmt.domain().fix_params(params)?;
    let mut lower = vec![i64::MIN; n];
    let mut upper = vec![i64::MAX; n];
    let not_box = || {
        TileModelError::Unsupported(format!(
            "the iteration domain of statement {} is not a box at these problem sizes",
            stmt.name()
        ))
    };
    let mut empty = fixed.is_known_empty();
    let rows = fixed.equalities().iter().map(|f| (f, true)).chain(fixed.inequalities().iter().map(|f| (f, false)));
    for (f, equality) in rows {
        let nonzero: Vec<usize> = (0..n).filter(|&j| f.coeff(j) != 0).collect();
        match nonzero.as_slice() {
            [] => {
                let c = f.constant();
                if (equality && c != 0) || (!equality && c < 0) {
                    empty = true;
                }
            }
            &[j] => {
                let a = f.coeff(j);
                let c = f.constant();
                // a·x + c ≥ 0 (or = 0).
                if equality {
                    if c % a != 0 {
                        empty = true;
                    } else {
                        let x = -c / a;
                        lower[j] = lower[j].max(x);
                        upper[j] = upper[j].min(x);
                    }
                } else if a > 0 {
                    lower[j] = lower[j].max(ceil_div(-c, a));
                } else {
                    upper[j] = upper[j].min(floor_div(c, -a));
                }
            }
            _ => return Err(not_box()),
        }
    }
    if lower.contains(&i64::MIN) || upper.contains(&i64::MAX) {
        return Err(TileModelError::Unsupported(format!(
            "the iteration domain of statement {} is unbounded",
            stmt.name()
        )));
    }
    if empty || lower.iter().zip(&upper).any(|(l, u)| l > u) {
        // An empty statement: a box with no points.
        upper = lower.iter().map(|l| l - 1).collect();
    }
    Ok((lower, upper))
}

/// Per intra-tile wavefront step, the statement groups: statements are split by the scalar
/// dimensions right after the intra-tile wavefront (statement order per wavefront, thesis
/// Fig. 4.7) and share the point loops otherwise.
fn phases(tiled: &TiledSchedule, wavefront_dim: usize, n_statements: usize) -> Vec<Vec<usize>> {
    let scalars: Vec<usize> = tiled.dims[wavefront_dim + 1..]
        .iter()
        .take_while(|d| d.kind == DimKind::Scalar && d.band == Some(0))
        .filter_map(|d| if let DimDef::Row(r) = d.def { Some(r) } else { None })
        .collect();
    let mut groups: Vec<(Vec<i64>, Vec<usize>)> = Vec::new();
    for s in 0..n_statements {
        let key: Vec<i64> = scalars.iter().map(|&r| tiled.schedules[s].rows()[r].constant()).collect();
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(s),
            None => groups.push((key, vec![s])),
        }
    }
    groups.sort();
    groups.into_iter().map(|(_, g)| g).collect()
}

/// `⌊a / b⌋` for `b > 0`.
pub(crate) fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

/// `⌈a / b⌉` for `b > 0`.
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

/// The determinant of a small integer matrix (Laplace expansion in `i128`).
pub(crate) fn determinant(a: &[Vec<i64>]) -> i128 {
    let n = a.len();
    match n {
        0 => 1,
        1 => i128::from(a[0][0]),
        _ => {
            let mut det = 0i128;
            for (j, &x) in a[0].iter().enumerate() {
                if x == 0 {
                    continue;
                }
                let minor: Vec<Vec<i64>> = a[1..]
                    .iter()
                    .map(|row| row.iter().enumerate().filter(|&(c, _)| c != j).map(|(_, &v)| v).collect())
                    .collect();
                let sign = if j % 2 == 0 { 1 } else { -1 };
                det += sign * i128::from(x) * determinant(&minor);
            }
            det
        }
    }
}

/// The inverse of a unimodular integer matrix (adjugate over the determinant ±1); `None` when
/// the matrix is not square or not unimodular.
pub(crate) fn unimodular_inverse(a: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let n = a.len();
    if a.iter().any(|r| r.len() != n) || n == 0 || n > 6 {
        return None;
    }
    let det = determinant(a);
    if det != 1 && det != -1 {
        return None;
    }
    let mut inv = vec![vec![0i64; n]; n];
    for (i, row) in inv.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            // inv[i][j] = cofactor(j, i) / det.
            let minor: Vec<Vec<i64>> = a
                .iter()
                .enumerate()
                .filter(|&(r, _)| r != j)
                .map(|(_, r)| r.iter().enumerate().filter(|&(c, _)| c != i).map(|(_, &v)| v).collect())
                .collect();
            let sign = if (i + j) % 2 == 0 { 1 } else { -1 };
            *cell = i64::try_from(sign * determinant(&minor) * det).ok()?;
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_the_sor_2d_band() {
        // thesis Ch. 4's 2-D SOR schedule (2t + i + j, t + i + j, t + j).
        let m = vec![vec![2, 1, 1], vec![1, 1, 1], vec![1, 0, 1]];
        let inv = unimodular_inverse(&m).expect("unimodular");
        for (i, row) in m.iter().enumerate() {
            for j in 0..3 {
                let v: i64 = row.iter().zip(&inv).map(|(a, r)| a * r[j]).sum();
                assert_eq!(v, i64::from(i == j));
            }
        }
        assert!(unimodular_inverse(&[vec![2, 0], vec![0, 1]]).is_none());
    }

    #[test]
    fn integer_division_rounds_towards_infinities() {
        assert_eq!((floor_div(-3, 2), ceil_div(-3, 2), floor_div(3, 2), ceil_div(3, 2)), (-2, -1, 1, 2));
    }
}
