//! Construction of the tiled dimensions and of the transformed domains (thesis Eq. 3.14,
//! 3.15, 3.17, 3.19).

use std::collections::HashSet;

use super::input::{InterTile, IntraTile, StatementOrder, TilingInput};
use super::tiled::{DimDef, DimKind, TiledDim, TiledStatement};
use crate::affine::AffineForm;
use crate::error::Result;
use crate::polyhedron::Polyhedron;
use crate::scop::{Scop, StatementId};
use crate::space::Space;

/// The resolved choices for one tiling attempt (no `Auto` left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    pub inter: InterTile,
    pub intra: IntraTile,
    pub order: StatementOrder,
}

/// Hands out dimension names that clash with no iterator, parameter or earlier dimension.
struct Names {
    taken: HashSet<String>,
    counters: [usize; 4],
}

impl Names {
    fn new(scop: &Scop) -> Names {
        let mut taken: HashSet<String> = scop.params().iter().cloned().collect();
        for s in scop.statements() {
            taken.extend(s.space().dims().iter().cloned());
        }
        Names { taken, counters: [0; 4] }
    }

    /// The next name with `prefix` (`t`, `e`, `s` or `c`).
    fn next(&mut self, which: usize, prefix: &str) -> String {
        self.counters[which] += 1;
        let mut name = format!("{prefix}{}", self.counters[which]);
        while self.taken.contains(&name) {
            name.push('_');
        }
        self.taken.insert(name.clone());
        name
    }
}

/// The tiled dimensions, outermost first (all marked sequential; the dependence analysis sets
/// the parallel flags). For a band with rows `r_1..r_m`, sizes `s` and the scalar rows `β` that
/// follow it: tile dimensions `(w = Σ T_k, T_2, …, T_m)` (Eq. 3.17) or `(T_1, …, T_m)`, then
/// point dimensions `(e_1, β, e_2, …, e_m)` or `(e_1, …, e_m, β)` with `e_1 = φ_1` or
/// `Σ φ_k` (Eq. 3.19) and `e_k = φ_k`. Rows outside bands keep their place.
pub(crate) fn layout(scop: &Scop, input: &TilingInput, choice: Layout) -> Vec<TiledDim> {
    const TILE: usize = 0;
    const POINT: usize = 1;
    const SCALAR: usize = 2;
    const LOOP: usize = 3;
    let mut names = Names::new(scop);
    let d = input.n_rows();
    let mut dims = Vec::new();
    let untiled = |dims: &mut Vec<TiledDim>, names: &mut Names, r: usize, band: Option<usize>| {
        let scalar = input.is_scalar_row(r);
        let (which, prefix, kind) = if scalar { (SCALAR, "s", DimKind::Scalar) } else { (LOOP, "c", DimKind::Loop) };
        dims.push(TiledDim { name: names.next(which, prefix), kind, def: DimDef::Row(r), band, parallel: false });
    };
    let mut r = 0usize;
    let mut bands = input.bands.iter().enumerate().peekable();
    while r < d {
        let Some((b, band)) = bands.next_if(|(_, band)| band.rows.start == r) else {
            untiled(&mut dims, &mut names, r, None);
            r += 1;
            continue;
        };
        let rows: Vec<usize> = band.rows.clone().collect();
        let tile = |names: &mut Names, kind: DimKind, def: DimDef| TiledDim {
            name: names.next(TILE, "t"),
            kind,
            def,
            band: Some(b),
            parallel: false,
        };
        match choice.inter {
            InterTile::Wavefront => {
                let def = DimDef::TileSum { rows: rows.clone(), sizes: band.sizes.clone() };
                dims.push(tile(&mut names, DimKind::TileWavefront, def));
                for (&row, &size) in rows.iter().zip(&band.sizes).skip(1) {
                    dims.push(tile(&mut names, DimKind::Tile, DimDef::Tile { row, size }));
                }
            }
            InterTile::Rectangular => {
                for (&row, &size) in rows.iter().zip(&band.sizes) {
                    dims.push(tile(&mut names, DimKind::Tile, DimDef::Tile { row, size }));
                }
            }
        }
        // Statement-order rows right after the band.
        let scalars: Vec<usize> = (band.rows.end..d)
            .take_while(|&q| input.is_scalar_row(q) && !input.bands.iter().any(|x| x.rows.start == q))
            .collect();
        let point = |names: &mut Names, kind: DimKind, def: DimDef| TiledDim {
            name: names.next(POINT, "e"),
            kind,
            def,
            band: Some(b),
            parallel: false,
        };
        let first = match choice.intra {
            IntraTile::Skew if rows.len() > 1 => DimDef::RowSum(rows.clone()),
            _ => DimDef::Row(rows[0]),
        };
        dims.push(point(&mut names, DimKind::PointWavefront, first));
        if choice.order == StatementOrder::PerWavefront {
            for &q in &scalars {
                untiled(&mut dims, &mut names, q, Some(b));
            }
        }
        for &row in &rows[1..] {
            dims.push(point(&mut names, DimKind::Point, DimDef::Row(row)));
        }
        if choice.order != StatementOrder::PerWavefront {
            for &q in &scalars {
                untiled(&mut dims, &mut names, q, Some(b));
            }
        }
        r = band.rows.end + scalars.len();
    }
    dims
}

/// Per statement, the transformed domain over `[dims…, iterators…, params…]` (Eq. 3.15 with
/// the skews of Eq. 3.19).
pub(crate) fn domains(scop: &Scop, input: &TilingInput, dims: &[TiledDim]) -> Result<Vec<TiledStatement>> {
    domains_of(scop, &input.schedules, dims, true)
}

/// The transformed domains of `schedules` tiled as `dims`; with `keep_domains == false` the
/// statements' own domains are left out, so only the schedule equalities and the tile
/// constraints remain: every point of every tile (what a *full* tile runs).
pub(crate) fn domains_of(
    scop: &Scop,
    schedules: &[crate::scop::Schedule],
    dims: &[TiledDim],
    keep_domains: bool,
) -> Result<Vec<TiledStatement>> {
    let nd = dims.len();
    let dim_names: Vec<String> = dims.iter().map(|d| d.name.clone()).collect();
    let mut out = Vec::with_capacity(scop.statements().len());
    for (s, (stmt, sched)) in scop.statements().iter().zip(schedules).enumerate() {
        let n = stmt.n_iterators();
        let np = stmt.space().n_params();
        let space =
            Space::new(dim_names.iter().cloned().chain(stmt.space().dims().iter().cloned()), scop.params().to_vec());
        let cols = nd + n + np;
        let shift: Vec<usize> = (0..n + np).map(|c| nd + c).collect();
        let mut domain = if keep_domains { stmt.domain().embed(space, &shift)? } else { Polyhedron::universe(space) };
        let phi = |r: usize| -> Result<AffineForm> { sched.rows()[r].remap(cols, &shift) };
        let dim = |k: usize| AffineForm::unit(cols, k);
        for (k, d) in dims.iter().enumerate() {
            match &d.def {
                DimDef::Row(r) => domain.add_equality(&dim(k)?.checked_sub(&phi(*r)?)?)?,
                DimDef::RowSum(rows) => {
                    let mut f = dim(k)?;
                    for &r in rows {
                        f = f.checked_sub(&phi(r)?)?;
                    }
                    domain.add_equality(&f)?;
                }
                DimDef::Tile { row, size } => add_tile(&mut domain, &dim(k)?, &phi(*row)?, *size)?,
                DimDef::TileSum { rows, sizes } => {
                    // T_1 = w − Σ_{k ≥ 2} T_k, the other tile dimensions of the band.
                    let mut t1 = dim(k)?;
                    for (j, other) in dims.iter().enumerate() {
                        if other.band == d.band && other.kind == DimKind::Tile {
                            t1 = t1.checked_sub(&dim(j)?)?;
                        }
                    }
                    add_tile(&mut domain, &t1, &phi(rows[0])?, sizes[0])?;
                }
            }
        }
        out.push(TiledStatement { statement: StatementId(s), domain });
    }
    Ok(out)
}

/// `size·tile ≤ φ ≤ size·tile + size − 1` (Eq. 3.15).
fn add_tile(domain: &mut Polyhedron, tile: &AffineForm, phi: &AffineForm, size: i64) -> Result<()> {
    let low = AffineForm::combine(1, phi, -size, tile)?;
    domain.add_inequality(&low)?;
    domain.add_inequality(&low.checked_neg()?.checked_add_constant(size - 1)?)
}
