//! `stencil-mlsor{K=… P=… directions=alternate|forward}`: the parallel multi-layer SOR method
//! (MLSOR) of thesis §6.4, from a recognised SOR iteration.
//!
//! **The method.** One step of the rewritten time loop is a `K`-layer forward sweep (thesis
//! Eq. 6.4 applied `K` times) followed, with `directions=alternate`, by a `K`-layer backward
//! sweep (Eq. 6.5, the mirror image): `2K` SOR sweeps' worth of point updates (`K` with
//! `directions=forward`). A `K`-layer sweep is parallelised without preserving every
//! dependence:
//!
//! * **slanted domain decomposition** (Eqs. 6.6–6.8): in the sweep's own coordinates
//!   `x = i − lb` (forward; `x = ub − 1 − i` backward, the mirror), layer `l = 0 … K−1` of
//!   subdomain `d` covers `dP + l ≤ x < (d+1)P + l` in every dimension — each layer is the
//!   one below translated by `(1, 1, 1)`; the first subdomain also takes `0 ≤ x < l` (the
//!   thesis' edge subdomains, Fig. 6.6 line 21);
//! * **alternate tiling** (Eqs. 6.9–6.10) into 2 × 2 (× 2) tiles: per dimension, part 1 is
//!   `dP + l ≤ x < dP + P − 1 − l` — `P − 1` wide at the bottom layer and shrinking by one on
//!   each side per layer, so that `K = ⌊P/2⌋` layers fit (§6.4.3, the maximal `T₁,₁`) — and
//!   part 2 the `2l + 1` points after it;
//! * **four kernels** `K₁,₁, K₁,₂, K₂,₁, K₂,₂` (eight in 3-D) run in that order, each over all
//!   `K` layers of its tile in every subdomain; tiles of one kernel never read what another
//!   tile of the same kernel writes (they are at least two points apart for `K ≤ P/2`), so
//!   they may run in parallel, and inside a tile points run lexicographically.
//!
//! **The IR.** Each kernel is `stencil.iterate %l = 0 to K { stencil.apply … }` over the whole
//! box whose body is the program's own update under a mask — the point is in this kernel's
//! tile at layer `%l` — and keeps the old value elsewhere. Read sequentially, this program is
//! exactly MLSOR (tiles of one kernel are independent, so running them one after the other in
//! lexicographic order gives what running them in parallel gives). The backward sweep's
//! mirror coordinate needs `ub − 1` as a value: a one-iteration `stencil.iterate %e = ub − 1
//! to ub` provides it when the bound is not a constant.
//!
//! Each kernel's apply also carries [`TILE_ATTR`] ([`MlsorTile`]): which part of the alternate
//! tiling its mask selects, with `P` and `K`. The masks are what the program means (the
//! reference interpreter and the polyhedral passes read only them); the attribute lets
//! `gpu-map{strategy=mlsor}` run the thesis' kernels (Fig. 6.6) — one thread per tile, all `K`
//! layers in that thread — without having to rediscover the tiling from the masks' arithmetic.
//! [`MlsorTile::range`] is the tile's extent in closed form; a test checks it against the mask
//! the rewrite writes. Not done here: the shared-memory row reduction (`docs/passes.md`).

use stencil_dialects::stencil::ProgramParams;
use stencil_dialects::support::op_error;
use stencil_ir::affine::AffineExpr;
use stencil_ir::{Attribute, Diagnostic, InsertPoint, Ir, NamedAttribute, OpId, ValueId};

use super::build::{bound, clone_body, new_apply, new_iterate, plus, BodyBuilder, Cmp};
use super::iteration::{RewriteSummary, SorIteration, SorRewrite};
use super::rbsor::sweep_name;
use super::recognize::SorUpdate;

/// The widest subdomain `stencil-mlsor` accepts (2²⁰ points): far beyond any useful `P` (the
/// thesis' largest is 32), and small enough that the GPU mapping's arithmetic on `P` (block ×
/// `P`, `2P`) cannot overflow.
pub const MAX_SUBDOMAIN: i64 = 1 << 20;

/// Which sweep directions one MLSOR step runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Directions {
    /// A `K`-layer forward sweep, then a `K`-layer backward sweep (thesis Fig. 6.1).
    Alternate,
    /// Forward sweeps only (the bracketed rates of thesis Table 6.2).
    Forward,
}

impl Directions {
    /// The directions named `text`.
    pub fn parse(text: &str) -> Result<Directions, String> {
        match text {
            "alternate" => Ok(Directions::Alternate),
            "forward" => Ok(Directions::Forward),
            _ => Err(format!("unknown directions '{text}'; expected one of: alternate, forward")),
        }
    }

    /// The option text.
    pub fn name(self) -> &'static str {
        match self {
            Directions::Alternate => "alternate",
            Directions::Forward => "forward",
        }
    }
}

/// MLSOR with `K` layers per sweep on subdomains of `P` points per dimension.
#[derive(Clone, Copy, Debug)]
pub struct Mlsor {
    /// Layers per sweep.
    pub k: i64,
    /// Subdomain width.
    pub p: i64,
    /// Sweep directions.
    pub directions: Directions,
}

impl Mlsor {
    /// Checks `1 ≤ K ≤ ⌊P/2⌋` (thesis §6.4.3: the bottom-left tile is `P − 1` wide at the first
    /// layer and loses two points per layer).
    pub fn new(k: i64, p: i64, directions: Directions) -> Result<Mlsor, String> {
        if p < 2 {
            return Err(format!("P={p}: subdomains must be at least 2 points wide"));
        }
        if p > MAX_SUBDOMAIN {
            return Err(format!("P={p}: subdomains are at most {MAX_SUBDOMAIN} points wide"));
        }
        if k < 1 || k > p / 2 {
            return Err(format!(
                "K={k} with P={p}: K must be between 1 and ⌊P/2⌋ = {} (thesis §6.4.3: the tile T₁,₁ is P − 1 wide at the first layer and two points narrower at each next one)",
                p / 2
            ));
        }
        Ok(Mlsor { k, p, directions })
    }
}

impl SorRewrite for Mlsor {
    fn method(&self) -> &'static str {
        "mlsor"
    }

    /// `K` layers, each a sweep, forward and (alternating) backward.
    fn sweeps_per_step(&self, _iteration: &SorIteration) -> i64 {
        if self.directions == Directions::Alternate {
            2 * self.k
        } else {
            self.k
        }
    }

    fn rewrite(&self, ir: &mut Ir, it: &SorIteration) -> Result<RewriteSummary, Diagnostic> {
        let Some(sweep) = it.sweeps.first().cloned() else { return Err(op_error(ir, it.iterate, "has no sweep")) };
        let n_params = u32::try_from(ProgramParams::of(ir, it.program).names.len()).unwrap_or(u32::MAX);
        let mut blocks = vec![false];
        if self.directions == Directions::Alternate {
            blocks.push(true);
        }
        for backward in blocks {
            self.sweep_block(ir, &sweep, backward, n_params)?;
        }
        for s in &it.sweeps {
            ir.erase_op(s.apply);
        }
        Ok(RewriteSummary {
            sweeps_per_step: self.sweeps_per_step(it),
            details: vec![
                NamedAttribute::new("K", Attribute::i64(self.k)),
                NamedAttribute::new("P", Attribute::i64(self.p)),
                NamedAttribute::new("directions", Attribute::string(self.directions.name())),
            ],
        })
    }
}

impl Mlsor {
    /// One `K`-layer sweep (forward, or the backward mirror) before `sweep.apply`: anchor
    /// iterates for non-constant origins, then one layer loop per kernel.
    fn sweep_block(&self, ir: &mut Ir, sweep: &SorUpdate, backward: bool, n_params: u32) -> Result<(), Diagnostic> {
        let location = ir.location(sweep.apply).clone();
        let mut at = InsertPoint::Before(sweep.apply);
        // The origin of each dimension in the sweep's coordinates: lb forward, ub − 1 backward.
        let mut origins: Vec<Origin> = Vec::new();
        for d in 0..sweep.rank {
            let e = if backward {
                plus(&bound(ir, sweep.apply, "upper_bounds", d)?, -1)
            } else {
                bound(ir, sweep.apply, "lower_bounds", d)?
            };
            origins.push(match e.as_constant() {
                Some(c) => Origin::Constant(c),
                None => {
                    let (_, block, iv) = new_iterate(ir, location.clone(), at, e.clone(), plus(&e, 1), n_params);
                    at = InsertPoint::End(block);
                    Origin::Value(iv)
                }
            });
        }
        let name = sweep_name(ir, sweep);
        for kernel in 0..(1usize << sweep.rank) {
            // Parts per dimension, lexicographic: kernel 0 is (1, 1), then (1, 2), (2, 1), (2, 2).
            let parts: Vec<bool> = (0..sweep.rank).map(|d| kernel >> (sweep.rank - 1 - d) & 1 == 1).collect();
            let label: String = parts.iter().map(|&p| if p { '2' } else { '1' }).collect();
            let (_, layer_block, layer) =
                new_iterate(ir, location.clone(), at, AffineExpr::Constant(0), AffineExpr::Constant(self.k), n_params);
            let apply_name = format!("{name}_{}{label}", if backward { 'b' } else { 'f' });
            let (apply, block) =
                new_apply(ir, sweep.apply, InsertPoint::End(layer_block), &apply_name, sweep.field, backward);
            let tile = MlsorTile { p: self.p, layers: self.k, part2: parts.clone() };
            ir.set_attribute(apply, TILE_ATTR, tile.attribute());
            self.masked_update(ir, sweep, block, &origins, backward, layer, &parts)?;
        }
        Ok(())
    }

    /// The body of one kernel's apply: the update where the point is in the kernel's tile at
    /// layer `layer`, the old value elsewhere.
    #[allow(clippy::too_many_arguments)]
    fn masked_update(
        &self,
        ir: &mut Ir,
        sweep: &SorUpdate,
        block: stencil_ir::BlockId,
        origins: &[Origin],
        backward: bool,
        layer: ValueId,
        parts: &[bool],
    ) -> Result<(), Diagnostic> {
        let extra: Vec<ValueId> = sweep.centre.into_iter().collect();
        let (value, centre) = clone_body(ir, sweep.apply, block, None, &extra)?;
        let elem = ir.value_type(value).clone();
        let location = ir.location(sweep.apply).clone();
        let mut b = BodyBuilder { ir, block, location };
        let centre = match centre.first() {
            Some(&c) => c,
            None => b.centre(sweep.field, sweep.rank, elem),
        };
        let p = b.index(self.p);
        let p_minus_one = b.index(self.p - 1);
        let p_minus_l = b.int("arith.subi", p, layer);
        let two_l = b.int("arith.addi", layer, layer);
        // Part 2 starts at r = P − 1 − 2l within the layer's subdomain (Eq. 6.9 with M = P − 1).
        let threshold = b.int("arith.subi", p_minus_one, two_l);
        let mut conds = Vec::new();
        for (d, (origin, &part2)) in origins.iter().zip(parts).enumerate() {
            let i = b.coordinate(d);
            let o = match *origin {
                Origin::Constant(c) => b.index(c),
                Origin::Value(v) => v,
            };
            let x = if backward { b.int("arith.subi", o, i) } else { b.int("arith.subi", i, o) };
            // r = (x − l) mod P, computed as (x + P − l) rem P since x ≥ 0 and l < P.
            let shifted = b.int("arith.addi", x, p_minus_l);
            let r = b.int("arith.remsi", shifted, p);
            let cond = if part2 {
                // r ≥ P − 1 − 2l, and not in the first subdomain's edge (x ≥ l).
                let late = b.cmp(Cmp::Sge, r, threshold);
                let inside = b.cmp(Cmp::Sge, x, layer);
                b.logic("arith.andi", late, inside)
            } else {
                let early = b.cmp(Cmp::Slt, r, threshold);
                let edge = b.cmp(Cmp::Slt, x, layer);
                b.logic("arith.ori", early, edge)
            };
            conds.push(cond);
        }
        let mask = b.all(&conds);
        let v = b.select(mask, value, centre);
        b.yield_value(v);
        Ok(())
    }
}

/// The origin of one dimension in a sweep's own coordinates.
#[derive(Clone, Copy, Debug)]
enum Origin {
    /// A constant bound.
    Constant(i64),
    /// The induction variable of a one-iteration anchor iterate.
    Value(ValueId),
}

/// The attribute `stencil-mlsor` puts on each kernel's `stencil.apply`: an [`MlsorTile`] as
/// `{K = …, P = …, parts = [1, 2]}` (per dimension, outermost first, the part of the alternate
/// tiling the kernel updates).
pub const TILE_ATTR: &str = "sor.mlsor_tile";

/// The tiles one MLSOR kernel updates (thesis Eqs. 6.6–6.10): in every subdomain, part 1 or part
/// 2 of the alternate tiling per dimension, at each of the `K` layers. Coordinates are the
/// sweep's own, `x = i − lb` forward and `x = ub − 1 − i` backward.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MlsorTile {
    /// Subdomain width `P`.
    pub p: i64,
    /// Layers `K` (the kernel's layer loop runs `l = 0 … K − 1`).
    pub layers: i64,
    /// Per dimension, outermost first: part 2 (`true`) or part 1.
    pub part2: Vec<bool>,
}

impl MlsorTile {
    /// As the [`TILE_ATTR`] dictionary.
    pub fn attribute(&self) -> Attribute {
        let parts = self.part2.iter().map(|&p| Attribute::i64(if p { 2 } else { 1 })).collect();
        Attribute::Dictionary(vec![
            NamedAttribute::new("K", Attribute::i64(self.layers)),
            NamedAttribute::new("P", Attribute::i64(self.p)),
            NamedAttribute::new("parts", Attribute::Array(parts)),
        ])
    }

    /// The tile `apply` records ([`TILE_ATTR`]): `None` without the attribute, an error when it
    /// is malformed (`K` outside `1 … ⌊P/2⌋`, a part other than 1 or 2).
    pub fn of(ir: &Ir, apply: OpId) -> Option<Result<MlsorTile, String>> {
        let Attribute::Dictionary(entries) = ir.attr(apply, TILE_ATTR)? else {
            return Some(Err(format!("'{TILE_ATTR}' must be a dictionary {{K, P, parts}}")));
        };
        let get = |name: &str| stencil_ir::attributes::get_named(entries, name);
        let parse = || -> Result<MlsorTile, String> {
            let int = |name: &str| {
                get(name).and_then(Attribute::as_i64).ok_or_else(|| format!("'{TILE_ATTR}' has no integer {name}"))
            };
            let (k, p) = (int("K")?, int("P")?);
            Mlsor::new(k, p, Directions::Forward).map_err(|e| format!("'{TILE_ATTR}': {e}"))?;
            let Some(Attribute::Array(parts)) = get("parts") else {
                return Err(format!("'{TILE_ATTR}' has no parts array"));
            };
            let part2 = parts
                .iter()
                .map(|a| match a.as_i64() {
                    Some(1) => Ok(false),
                    Some(2) => Ok(true),
                    _ => Err(format!("'{TILE_ATTR}': every part is 1 or 2")),
                })
                .collect::<Result<Vec<bool>, String>>()?;
            Ok(MlsorTile { p, layers: k, part2 })
        };
        Some(parse())
    }

    /// The points `lo ≤ x < hi` of dimension `d`'s part in subdomain `s` at layer `l`, before
    /// clipping to the box (thesis Eqs. 6.6–6.10, as `masked_update` writes them): part 1 is
    /// `sP + l ≤ x < sP + P − 1 − l`, the first subdomain's also taking its edge `0 ≤ x < l`;
    /// part 2 the `2l + 1` points `sP + P − 1 − l ≤ x < sP + P + l`. For `0 ≤ l < K ≤ ⌊P/2⌋`
    /// both are non-empty, the subdomains' parts tile `x ≥ 0` at every layer, and two tiles of
    /// one part in different subdomains are at least two points apart at any two layers — why
    /// one thread per tile may run all `K` layers without waiting for the others.
    pub fn range(&self, d: usize, s: i64, l: i64) -> (i64, i64) {
        let base = s * self.p;
        if self.part2.get(d).copied().unwrap_or(false) {
            (base + self.p - 1 - l, base + self.p + l)
        } else {
            (if s == 0 { 0 } else { base + l }, base + self.p - 1 - l)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mask `masked_update` writes, on integers: is `x` in part 2 (or part 1) at layer `l`?
    fn mask(p: i64, l: i64, x: i64, part2: bool) -> bool {
        let r = (x + p - l) % p;
        let threshold = p - 1 - 2 * l;
        if part2 {
            r >= threshold && x >= l
        } else {
            r < threshold || x < l
        }
    }

    /// `range` is the mask in closed form: every point the mask selects lies in exactly one
    /// subdomain's range, and no other point lies in any; tiles of one part are ≥ 2 apart.
    #[test]
    fn ranges_are_the_masks_tiles() {
        for p in 2..=12 {
            for k in 1..=p / 2 {
                for part2 in [false, true] {
                    let tile = MlsorTile { p, layers: k, part2: vec![part2] };
                    for l in 0..k {
                        let extent = 5 * p + 3;
                        for x in 0..extent {
                            let owners = (0..=extent / p).filter(|&s| {
                                let (lo, hi) = tile.range(0, s, l);
                                lo <= x && x < hi
                            });
                            assert_eq!(owners.count(), usize::from(mask(p, l, x, part2)), "P={p} l={l} x={x}");
                        }
                        for s in 0..5 {
                            let (lo, hi) = tile.range(0, s, l);
                            assert!(lo < hi, "P={p} K={k} l={l}: empty tile");
                            for l2 in 0..k {
                                let (lo2, _) = tile.range(0, s + 1, l2);
                                assert!(lo2 - hi >= 1, "P={p} l={l} l2={l2}: tiles {s} and {} touch", s + 1);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn attribute_round_trip_and_refusals() {
        let mut ir = Ir::new();
        let op = ir.create_op(stencil_ir::ir::OperationState::new("test.op", stencil_ir::Location::Unknown));
        assert!(MlsorTile::of(&ir, op).is_none());
        let tile = MlsorTile { p: 8, layers: 4, part2: vec![false, true] };
        ir.set_attribute(op, TILE_ATTR, tile.attribute());
        assert_eq!(MlsorTile::of(&ir, op), Some(Ok(tile)));
        let bad = MlsorTile { p: 8, layers: 5, part2: vec![false] };
        ir.set_attribute(op, TILE_ATTR, bad.attribute());
        let err = MlsorTile::of(&ir, op).and_then(Result::err).unwrap_or_default();
        assert!(err.contains("⌊P/2⌋"), "{err}");
    }
}
