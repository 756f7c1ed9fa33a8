//! The `mlsor` strategy: the GPU kernels of the parallel multi-layer SOR method (thesis §6.4,
//! Fig. 6.6) for a program `stencil-mlsor` rewrote — **one thread per tile**, each thread running
//! all `K` layers of its tile.
//!
//! `stencil-mlsor` writes each of a sweep's kernels `K₁,₁ … K₂,₂` (eight in 3-D) as a layer loop
//! `stencil.iterate %l = 0 to K` around one masked `stencil.apply` over the whole box, and
//! records on the apply which part of the alternate tiling its mask selects
//! (`stencil_passes::sor::MlsorTile`). Read sequentially, that is a whole-box DOACROSS sweep per
//! layer, which is how the polyhedral strategies must run it. What the method guarantees — and
//! `MlsorTile::range` documents and its tests check against the masks — is that the tiles of
//! one kernel are at least two points apart at any two layers, so a 5-point (7-point) update in
//! one tile never reads or writes a point of another. Hence each layer loop becomes **one
//! launch**: thread `s` (a subdomain per dimension, the innermost on `x`) runs
//! `for l in 0..K { for x in its tile at layer l, lexicographically { update } }`, exactly the
//! updates the sequential program makes to that tile, in the same order. Every other
//! `stencil.iterate` (time steps, the backward sweeps' anchors) stays a host loop.
//!
//! The tile of subdomain `s` at layer `l` along a dimension is `MlsorTile::range`, clipped to
//! the box: part 1 `sP + min(l, sP) ≤ x < sP + P − 1 − l` (the `min` gives the first
//! subdomain its edge `0 ≤ x < l`), part 2 `sP + P − 1 − l ≤ x < sP + P + l`; the point is
//! `i = lb + x` forward and `i = ub − 1 − x` backward (`order reverse`). The apply's own body —
//! the update under its mask — is copied unchanged; on the points a thread visits the mask
//! holds, so the body is the update.
//!
//! Options: `block` (threads per block, innermost subdomain axis on `x`; default 256 / 32×8 /
//! 32×4×2 by rank) and `grid` (at most that many blocks per axis: threads then stride over
//! several subdomains, as they do where CUDA's grid limits cut a grid short).
//!
//! Not done: the thesis' shared-memory row reduction (threads of a block staging their rows);
//! here every access goes to global memory through the caches. Only programs whose applies are
//! all `stencil-mlsor` kernels map; anything else is refused with the reason.

use stencil_ir::affine::{AffineBinOp, AffineExpr};
use stencil_ir::ir::InsertPoint;
use stencil_ir::{Attribute, Diagnostic, DialectRegistry, Ir, OpId, Type, ValueId};
use stencil_passes::sor::MlsorTile;
use stencil_passes::stencil_to_poly::ScopInfo;

use super::arith::{binary, index_constant, ArithIndexer};
use super::host::{default_block, HostSide, LaunchShape, ThreadIds};
use super::nest::{ApplyBox, NestItem};
use super::{mapping_error, ops, GpuMapOptions, MappingStrategy};
use crate::codegen::statement::copy_statement;

/// See the module documentation.
pub(super) struct MlsorKernels;

impl MappingStrategy for MlsorKernels {
    fn name(&self) -> &'static str {
        "mlsor"
    }

    fn map(
        &self,
        ir: &mut Ir,
        registry: &DialectRegistry,
        program: OpId,
        options: &GpuMapOptions,
    ) -> Result<OpId, Diagnostic> {
        let (info, nest) = super::direct_program(ir, registry, program, self.name())?;
        let fail = |ir: &Ir, e: String| mapping_error(ir, program, self.name(), e);
        let shape = Shape::of(ir, &info, &nest).map_err(|e| fail(ir, e))?;
        let name = info.program_name(ir).to_string();
        let mut host = HostSide::create(ir, program, &name).map_err(|e| fail(ir, e))?;
        let block = options.block.unwrap_or_else(|| default_block(shape.rank));
        let mut emitter = Emitter { ir_info: &info, host: &mut host, block, grid_cap: options.grid };
        let at = emitter.host.entry();
        if let Err(e) = emitter.items(ir, &nest, at, &mut vec![]) {
            host.abandon(ir);
            return Err(fail(ir, e));
        }
        let func = host.finish(ir, program);
        super::record_mapping(
            ir,
            func,
            self.name(),
            vec![
                ("block", super::int_array(&block)),
                ("grid", Attribute::string("per-subdomain")),
                ("subdomain", Attribute::i64(shape.p)),
                ("layers", Attribute::i64(shape.k)),
                ("tiles_per_thread", Attribute::i64(1)),
            ],
        );
        Ok(func)
    }
}

/// What every kernel of the program shares: its rank, `P` and `K`.
struct Shape {
    rank: usize,
    p: i64,
    k: i64,
}

impl Shape {
    /// Checks that every apply is an MLSOR kernel directly inside its layer loop, and that they
    /// agree on rank, `P` and `K`.
    fn of(ir: &Ir, info: &ScopInfo, nest: &[NestItem]) -> Result<Shape, String> {
        let mut found: Option<Shape> = None;
        let mut visit = |apply: &ApplyBox, tile: MlsorTile| -> Result<(), String> {
            let shape = Shape { rank: apply.rank(), p: tile.p, k: tile.layers };
            if let Some(seen) = &found {
                if (seen.rank, seen.p, seen.k) != (shape.rank, shape.p, shape.k) {
                    return Err(format!(
                        "{} has {} dimensions, P={} and K={}, another kernel {}, {} and {}: one MLSOR method per program",
                        apply.name, shape.rank, shape.p, shape.k, seen.rank, seen.p, seen.k
                    ));
                }
            }
            found = Some(shape);
            Ok(())
        };
        walk(ir, info, nest, &mut visit)?;
        found.ok_or_else(|| "the program has no MLSOR kernel (run stencil-mlsor first)".to_string())
    }
}

/// Calls `visit` on every MLSOR kernel of `items` (an apply with its tile, directly in a layer
/// loop `0 to K`); fails on anything else a layer loop or the program holds.
fn walk(
    ir: &Ir,
    info: &ScopInfo,
    items: &[NestItem],
    visit: &mut dyn FnMut(&ApplyBox, MlsorTile) -> Result<(), String>,
) -> Result<(), String> {
    for item in items {
        match item {
            NestItem::Loop(l) => match kernel_of(ir, info, l)? {
                Some((apply, tile)) => visit(apply, tile)?,
                None => walk(ir, info, &l.body, visit)?,
            },
            NestItem::Apply(a) => {
                return Err(match tile_of(ir, info, a)? {
                    Some(_) => format!("{} is an MLSOR kernel outside a layer loop 'stencil.iterate 0 to K'", a.name),
                    None => format!(
                        "{} is not an MLSOR kernel (no '{}' attribute): this strategy maps programs stencil-mlsor rewrote; use the wavefront or naive strategy for others",
                        a.name,
                        stencil_passes::sor::MLSOR_TILE_ATTR
                    ),
                })
            }
        }
    }
    Ok(())
}

/// The MLSOR kernel a loop is the layer loop of: its single apply carries a tile, and the loop
/// runs `0 to K`. `None` for a loop that holds no kernel directly (a time loop).
fn kernel_of<'n>(
    ir: &Ir,
    info: &ScopInfo,
    l: &'n super::nest::TimeLoop,
) -> Result<Option<(&'n ApplyBox, MlsorTile)>, String> {
    let [NestItem::Apply(apply)] = &l.body[..] else { return Ok(None) };
    let Some(tile) = tile_of(ir, info, apply)? else { return Ok(None) };
    if l.lower != AffineExpr::Constant(0) || l.upper != AffineExpr::Constant(tile.layers) {
        return Err(format!(
            "{} is an MLSOR kernel of K={} layers, but its loop runs {} to {}, not 0 to {}",
            apply.name, tile.layers, l.lower, l.upper, tile.layers
        ));
    }
    if apply.rank() > 3 {
        return Err(format!("{} has {} dimensions; MLSOR kernels map up to 3", apply.name, apply.rank()));
    }
    if tile.part2.len() != apply.rank() {
        return Err(format!("{}'s tile has {} parts for {} dimensions", apply.name, tile.part2.len(), apply.rank()));
    }
    Ok(Some((apply, tile)))
}

/// The tile recorded on `apply`'s op, if any.
fn tile_of(ir: &Ir, info: &ScopInfo, apply: &ApplyBox) -> Result<Option<MlsorTile>, String> {
    let op = apply_op(info, apply)?;
    MlsorTile::of(ir, op).transpose().map_err(|e| format!("{}: {e}", apply.name))
}

/// The `stencil.apply` of `apply`'s statement.
fn apply_op(info: &ScopInfo, apply: &ApplyBox) -> Result<OpId, String> {
    info.statements.get(apply.statement.0).map(|s| s.apply).ok_or_else(|| format!("{} has no statement", apply.name))
}

struct Emitter<'a> {
    ir_info: &'a ScopInfo,
    host: &'a mut HostSide,
    block: [i64; 3],
    /// `gpu-map{grid=…}`: at most this many blocks per axis (`0`: as many as the subdomains
    /// need); threads then take several subdomains in turn.
    grid_cap: i64,
}

impl Emitter<'_> {
    /// Host code for `items` at `at`, inside the host loops whose variables are `ivs`.
    fn items(
        &mut self,
        ir: &mut Ir,
        items: &[NestItem],
        at: InsertPoint,
        ivs: &mut Vec<ValueId>,
    ) -> Result<(), String> {
        for item in items {
            let NestItem::Loop(l) = item else {
                return Err("an apply outside a layer loop".into());
            };
            match kernel_of(ir, self.ir_info, l)? {
                Some((apply, tile)) => self.kernel(ir, apply, &tile, at, ivs)?,
                None => {
                    let (iv, body) = self.host.host_loop(ir, at, &l.lower, &l.upper)?;
                    ivs.push(iv);
                    self.items(ir, &l.body, body, ivs)?;
                    ivs.pop();
                }
            }
        }
        Ok(())
    }

    /// One launch for the layer loop of `apply`: a thread per subdomain (grid-stride along each
    /// axis), the layer loop and the tile's points inside it.
    fn kernel(
        &mut self,
        ir: &mut Ir,
        apply: &ApplyBox,
        tile: &MlsorTile,
        at: InsertPoint,
        ivs: &[ValueId],
    ) -> Result<(), String> {
        let rank = apply.rank();
        let backward = ir.attr(apply_op(self.ir_info, apply)?, "order").and_then(Attribute::as_str) == Some("reverse");
        let kernel = self.host.new_kernel(ir, &vec![Type::Index; ivs.len()]);
        let location = apply.location.clone();
        let mut body = kernel.at;
        let ids = ThreadIds::read(ir, body, &location);
        let indexer = ArithIndexer { dims: &[], params: &kernel.params };
        let c = |ir: &mut Ir, at: InsertPoint, v: i64| index_constant(ir, at, v, &location);
        let p = c(ir, body, tile.p);
        // Per dimension: the box, its extent E = ub − lb and the subdomains ⌈E / P⌉ covering it.
        let mut lower = Vec::with_capacity(rank);
        let mut upper = Vec::with_capacity(rank);
        let mut extent = Vec::with_capacity(rank);
        let mut subdomains = Vec::with_capacity(rank);
        for d in 0..rank {
            let lo = indexer.value(ir, body, &apply.lower[d], &location)?;
            let hi = indexer.value(ir, body, &apply.upper[d], &location)?;
            let e = binary(ir, body, "arith.subi", hi, lo, Type::Index, &location);
            subdomains.push(binary(ir, body, "arith.ceildivsi", e, p, Type::Index, &location));
            lower.push(lo);
            upper.push(hi);
            extent.push(e);
        }
        // A thread per subdomain: dimension d on axis rank − 1 − d (the innermost on x), grid-
        // stride loops for grids CUDA's limits cut short (they run once per thread otherwise).
        let mut subdomain = Vec::with_capacity(rank);
        for d in 0..rank {
            let axis = rank - 1 - d;
            let first_block = binary(ir, body, "arith.muli", ids.bid[axis], ids.bdim[axis], Type::Index, &location);
            let start = binary(ir, body, "arith.addi", first_block, ids.tid[axis], Type::Index, &location);
            let stride = binary(ir, body, "arith.muli", ids.gdim[axis], ids.bdim[axis], Type::Index, &location);
            let (s, inner) = ops::scf_for(ir, body, start, subdomains[d], stride, &location);
            subdomain.push(s);
            body = inner;
        }
        let zero = c(ir, body, 0);
        let one = c(ir, body, 1);
        let layers = c(ir, body, tile.layers);
        let (layer, mut point_body) = ops::scf_for(ir, body, zero, layers, one, &location);
        // The tile's points at this layer, lexicographically in the sweep's coordinates x
        // (MlsorTile::range clipped to the box).
        let mut xs = Vec::with_capacity(rank);
        for d in 0..rank {
            let at = point_body;
            let base = binary(ir, at, "arith.muli", subdomain[d], p, Type::Index, &location);
            let (lo, hi) = if tile.part2[d] {
                let p_minus_one = c(ir, at, tile.p - 1);
                let from = binary(ir, at, "arith.addi", base, p_minus_one, Type::Index, &location);
                let lo = binary(ir, at, "arith.subi", from, layer, Type::Index, &location);
                let end = binary(ir, at, "arith.addi", base, p, Type::Index, &location);
                (lo, binary(ir, at, "arith.addi", end, layer, Type::Index, &location))
            } else {
                // min(l, sP) is l except in the first subdomain, whose part 1 starts at 0.
                let edge = binary(ir, at, "arith.minsi", layer, base, Type::Index, &location);
                let lo = binary(ir, at, "arith.addi", base, edge, Type::Index, &location);
                let p_minus_one = c(ir, at, tile.p - 1);
                let end = binary(ir, at, "arith.addi", base, p_minus_one, Type::Index, &location);
                (lo, binary(ir, at, "arith.subi", end, layer, Type::Index, &location))
            };
            let hi = binary(ir, at, "arith.minsi", hi, extent[d], Type::Index, &location);
            let (x, inner) = ops::scf_for(ir, at, lo, hi, one, &location);
            xs.push(x);
            point_body = inner;
        }
        // The point: i = lb + x forward, ub − 1 − x backward.
        let mut dims: Vec<Option<ValueId>> = kernel.extra.iter().map(|&v| Some(v)).collect();
        dims.push(Some(layer));
        for d in 0..rank {
            let i = if backward {
                let last = binary(ir, point_body, "arith.subi", upper[d], one, Type::Index, &location);
                binary(ir, point_body, "arith.subi", last, xs[d], Type::Index, &location)
            } else {
                binary(ir, point_body, "arith.addi", lower[d], xs[d], Type::Index, &location)
            };
            dims.push(Some(i));
        }
        let iters: Vec<AffineExpr> = (0..dims.len()).map(|k| AffineExpr::Dim(k as u32)).collect();
        let mut point_indexer = ArithIndexer { dims: &dims, params: &kernel.params };
        copy_statement(ir, self.ir_info, apply.statement, &iters, &kernel.args, point_body, &mut point_indexer)?;
        // The grid: per axis, the blocks covering the subdomains of the dimension on it.
        let mut grid = [None; 3];
        for d in 0..rank {
            let axis = rank - 1 - d;
            let span = AffineExpr::binary(
                AffineBinOp::Add,
                apply.upper[d].clone(),
                AffineExpr::binary(AffineBinOp::Mul, apply.lower[d].clone(), AffineExpr::Constant(-1)),
            );
            let count = AffineExpr::binary(AffineBinOp::CeilDiv, span, AffineExpr::Constant(tile.p));
            let mut blocks = self.host.grid_size(ir, at, &count, self.block[axis], axis, ivs)?;
            if self.grid_cap > 0 {
                let cap = index_constant(ir, at, self.grid_cap, &self.host.location);
                blocks = binary(ir, at, "arith.minsi", blocks, cap, Type::Index, &self.host.location);
            }
            grid[axis] = Some(blocks);
        }
        let one_host = index_constant(ir, at, 1, &self.host.location);
        let grid = grid.map(|g| g.unwrap_or(one_host));
        self.host.launch(ir, at, &kernel, LaunchShape { grid, block: self.block }, &Default::default(), ivs);
        tracing::debug!(kernel = %kernel.name, apply = %apply.name, backward, "gpu-map{{mlsor}}: kernel");
        Ok(())
    }
}
