//! The `mlsor` strategy: the GPU kernels of the parallel multi-layer SOR method (thesis §6.4,
//! Fig. 6.6) for a program `stencil-mlsor` rewrote — each tile's `K` layers in its own threads
//! (one, as in the thesis, or several running its anti-diagonals), one launch per kernel and
//! `K`-layer sweep.
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
//! `i = lb + x` forward and `i = ub − 1 − x` backward (`order reverse`). The apply's body — the
//! update under its mask, `select(mask, update, old)` — is copied with the store taking the
//! update directly ([`Unmask`]): the mask holds on every point a thread visits, and its
//! arithmetic (a remainder and four comparisons per dimension) would otherwise cost as much
//! as the update.
//!
//! **Staging** (`staging=true`, the default; thesis §6.5.1.1): a block of `B` subdomains per
//! axis loads the exact box its tiles read at any layer into shared memory, runs the layers
//! there, and stores back the box its tiles cover ([`Region`]: chosen so that no block loads
//! what another stores in the same launch). Global traffic per point then falls from one
//! update's reads and write per layer to about one load and one store per `K` layers. The
//! default block is the rank's default halved until the box fits `shared-memory`.
//! `staging=false` runs every access on global memory.
//!
//! **Several threads per tile** (`tile-threads=n`, 2-D; automatic by default,
//! [`auto_tile_threads`]): one thread per tile leaves an H100 mostly idle at the grids MLSOR
//! converges on (`(N/P)²` threads per launch). With `n` threads on `x` per tile, a layer runs the
//! tile's anti-diagonals `x₀ + x₁ = q` one after another with a block barrier after each, thread
//! `w` taking rows `lo₀ + w, lo₀ + w + n, …`. A 5-point update reads its west and north
//! neighbours from diagonal `q − 1` (done) and its east and south ones from `q + 1` (not yet
//! updated), exactly as in lexicographic order: the same values, the same bits.
//!
//! Options: `block` (threads per block, innermost subdomain axis on `x`, or on `y` with several
//! threads per tile; default 256 threads by rank, shrunk to fit when staged), `grid` (at most
//! that many blocks per axis: blocks then stride over several regions, as they do where CUDA's
//! grid limits cut a grid short), `staging`, `shared-memory` and `tile-threads`.
//!
//! Not done: the thesis' row reduction (keeping only three rows of a tile on chip, for tiles
//! whose box does not fit) and threads that run several subdomains' tiles. Only programs whose
//! applies are all `stencil-mlsor` kernels map; anything else is refused with the reason.

use std::collections::HashMap;

use stencil_ir::affine::{AffineBinOp, AffineExpr};
use stencil_ir::ir::InsertPoint;
use stencil_ir::{Attribute, Diagnostic, DialectRegistry, Ir, OpId, Type, ValueId};
use stencil_passes::sor::MlsorTile;
use stencil_passes::stencil_to_poly::ScopInfo;

use super::arith::{binary, compare, index_constant, ArithIndexer, SLT};
use super::host::{default_block, HostSide, KernelFunc, LaunchShape, ThreadIds};
use super::nest::{ApplyBox, NestItem};
use super::staging::{StagedField, StagedIndexer};
use super::{mapping_error, ops, GpuMapOptions, MappingStrategy};
use crate::codegen::statement::{copy_statement, Indexer};

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
        // Automatic threads per tile only where the block is the mapping's to choose: a given
        // block has no axis for a tile's threads unless tile-threads says so.
        let lanes = match (options.tile_threads, options.block) {
            (0, None) => auto_tile_threads(shape.rank, shape.p),
            (0, Some(_)) => 1,
            (n, _) => n,
        };
        if lanes > 1 && shape.rank != 2 {
            return Err(fail(
                ir,
                format!("tile-threads={lanes}: several threads per tile run its anti-diagonals, in 2-D only; this program is {}-D (use tile-threads=1)", shape.rank),
            ));
        }
        if let Some(block) = options.block.filter(|b| lanes > 1 && b[0] != lanes) {
            return Err(fail(
                ir,
                format!(
                    "tile-threads={lanes} puts a tile's threads on x: the block's x must be {lanes}, not {}",
                    block[0]
                ),
            ));
        }
        let shape = Shape { lanes, ..shape };
        let mut host = HostSide::create(ir, program, &name, options).map_err(|e| fail(ir, e))?;
        let staging = options.staging.resolve(None).then(|| ops::element_bytes(&shape.element).unwrap_or(8));
        let block = match (options.block, staging) {
            (Some(block), _) => block,
            (None, None) => shape.default_block(),
            (None, Some(bytes)) => fitting_block(&shape, bytes, options.shared_memory),
        };
        let shared_memory = staging.map_or(0, |bytes| shape.staged_bytes(&block, bytes));
        if shared_memory > options.shared_memory {
            host.abandon(ir);
            return Err(fail(
                ir,
                format!(
                    "a block of {}x{}x{} threads stages {shared_memory} bytes of shared memory (P={}), above shared-memory={}: give a smaller block, a larger shared-memory (up to 232448 on an H100) or staging=false",
                    block[0], block[1], block[2], shape.p, options.shared_memory
                ),
            ));
        }
        let mut emitter = Emitter {
            ir_info: &info,
            registry,
            host: &mut host,
            block,
            grid_cap: options.grid,
            staged: staging.is_some(),
            lanes,
            element: shape.element.clone(),
        };
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
                ("tile_threads", Attribute::i64(lanes)),
                ("staging", Attribute::Bool(staging.is_some())),
                ("shared_memory", Attribute::i64(shared_memory)),
            ],
        );
        Ok(func)
    }
}

/// The threads per tile `tile-threads=0` takes: in 2-D, for `P > 4`, the power of two that
/// covers a tile's `P − 1` rows (a tile's largest anti-diagonal), at most 8; one otherwise.
/// Measured on an H200 at 1024² (`bench/results/2026-11-26-h200-950e505`, time to tolerance):
/// 8 threads per tile run P = 8 in 0.64× and P = 16 in 0.42× the time of one thread, but P = 4
/// in 1.26–1.34× — with at most three rows per tile, the barrier after every anti-diagonal
/// costs more than the lanes gain. (The simulator's cost model, which had favoured 4 threads
/// at P = 4, prices barriers too cheaply: `bench/results/2026-11-26-sor-sim-cost.txt`.)
fn auto_tile_threads(rank: usize, p: i64) -> i64 {
    if rank != 2 || p <= 4 {
        return 1;
    }
    let rows = u64::try_from(p - 1).unwrap_or(1).max(1);
    i64::try_from(rows.next_power_of_two().min(8)).unwrap_or(1)
}

/// What every kernel of the program shares: its rank, `P`, `K`, the bytes of an element, and
/// the threads per tile the mapping uses.
struct Shape {
    rank: usize,
    p: i64,
    k: i64,
    /// The fields' element type.
    element: Type,
    lanes: i64,
}

/// The grid axis of subdomain dimension `d` of `rank`: the innermost on x, or, with several
/// threads per tile, on y (the tile's threads take x).
fn subdomain_axis(rank: usize, lanes: i64, d: usize) -> usize {
    if lanes > 1 {
        rank - d
    } else {
        rank - 1 - d
    }
}

impl Shape {
    /// The grid axis of subdomain dimension `d`.
    fn subdomain_axis(&self, d: usize) -> usize {
        subdomain_axis(self.rank, self.lanes, d)
    }

    /// The default block: the direct strategies' for the rank, or with several threads per
    /// tile, those on x and 256 threads in all over 8 × … subdomains.
    fn default_block(&self) -> [i64; 3] {
        if self.lanes == 1 {
            return default_block(self.rank);
        }
        let tiles = (256 / self.lanes).max(1);
        let x = tiles.min(8);
        [self.lanes, x, (tiles / x).max(1)]
    }

    /// Elements a block stages along dimension `d` of a part (1 or 2) with `threads` subdomains
    /// along it (see [`Region`], its load box): `threads·P + 1` for part 1, `threads·P + 2K − P + 1`
    /// for part 2.
    fn staged_extent(&self, threads: i64, part2: bool) -> i64 {
        // P is at most stencil_passes::sor::mlsor::MAX_SUBDOMAIN and a block at most 1024
        // threads: no overflow.
        if part2 {
            threads * self.p + 2 * self.k - self.p + 1
        } else {
            threads * self.p + 1
        }
    }

    /// Shared memory a block of `block` threads stages (part 1 in every dimension, the
    /// largest part), in bytes; `i64::MAX` when that does not fit an `i64` (never fits).
    fn staged_bytes(&self, block: &[i64; 3], element_bytes: i64) -> i64 {
        (0..self.rank)
            .map(|d| self.staged_extent(block[self.subdomain_axis(d)], false))
            .try_fold(element_bytes, i64::checked_mul)
            .unwrap_or(i64::MAX)
    }
}

/// The default block of the staged kernels: the direct strategies' default for the rank,
/// halved along its longest axis until what a block stages fits `limit` bytes (at least one
/// thread).
fn fitting_block(shape: &Shape, element_bytes: i64, limit: i64) -> [i64; 3] {
    let mut block = shape.default_block();
    // A tile's threads (on x when several) stay; the subdomain axes shrink.
    let first = usize::from(shape.lanes > 1);
    while shape.staged_bytes(&block, element_bytes) > limit {
        let Some(axis) = (first..3).filter(|&a| block[a] > 1).max_by_key(|&a| (block[a], std::cmp::Reverse(a))) else {
            break;
        };
        block[axis] /= 2;
    }
    block
}

impl Shape {
    /// Checks that every apply is an MLSOR kernel directly inside its layer loop, and that they
    /// agree on rank, `P` and `K`.
    fn of(ir: &Ir, info: &ScopInfo, nest: &[NestItem]) -> Result<Shape, String> {
        let mut found: Option<Shape> = None;
        let mut visit = |apply: &ApplyBox, tile: MlsorTile| -> Result<(), String> {
            let element = stencil_dialects::stencil::FieldType::from_type(ir.value_type(apply.written))
                .ok_or_else(|| format!("{} writes a value that is not a field", apply.name))?
                .element;
            let shape =
                Shape { rank: apply.rank(), p: tile.p, k: tile.layers, element: Type::Float(element), lanes: 1 };
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
    registry: &'a DialectRegistry,
    host: &'a mut HostSide,
    block: [i64; 3],
    /// `gpu-map{grid=…}`: at most this many blocks per axis (`0`: as many as the subdomains
    /// need); threads then take several subdomains in turn.
    grid_cap: i64,
    /// Stage each block's region in shared memory ([`Region`]).
    staged: bool,
    /// Threads per tile (`tile-threads`): 1 runs a tile lexicographically; more run its
    /// anti-diagonals one after another (2-D), the tile's threads along x.
    lanes: i64,
    /// The fields' element type (of the staged buffers).
    element: Type,
}

/// Per dimension, what a kernel computes once: the box `lower ≤ i < upper`, its extent
/// `E = upper − lower` and the `⌈E / P⌉` subdomains covering it.
struct BoxDim {
    lower: ValueId,
    upper: ValueId,
    extent: ValueId,
    subdomains: ValueId,
}

/// What a staged block holds along one dimension, in the sweep's coordinates `x`, for the
/// subdomains `r … r + B − 1` of its threads (thesis §6.5.1.1's staging, exact):
///
/// * **load** `[xa, xb)`: the tiles of those subdomains at every layer, widened by the one
///   point a 5-point (7-point) update reads on each side — part 1 `[rP − 1, (r + B)P)`,
///   part 2 `[rP + P − K − 1, (r + B)P + K)`, clipped to `[−1, E]` (the box and its boundary);
/// * **store** `[wa, wb)`: the points those tiles cover at any layer, with the one-point gaps
///   between subdomains (which keep their loaded values) — part 1 `[rP, (r + B)P − 1)`, part 2
///   `[rP + P − K, (r + B)P + K − 1)`, clipped to `[0, E)`.
///
/// Neither range meets another subdomain's tile of this kernel at any layer (tiles of one part
/// are at least two points apart and `K ≤ ⌊P/2⌋`), so no block loads what another block stores
/// in the same launch, and every stored point is either updated by this block only or written
/// back unchanged.
struct Region {
    /// First point loaded, in array coordinates (`lb + xa` forward, `ub − xb` backward).
    load_origin: ValueId,
    /// Points loaded.
    load_count: ValueId,
    /// First point stored, in array coordinates.
    store_origin: ValueId,
    /// Points stored.
    store_count: ValueId,
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

    /// The grid axis of subdomain dimension `d` of `rank`.
    fn subdomain_axis(&self, rank: usize, d: usize) -> usize {
        subdomain_axis(rank, self.lanes, d)
    }

    /// One launch for the layer loop of `apply`: a thread (or `lanes` threads) per subdomain,
    /// the layer loop and the tile's points inside it; staged, the block's region is loaded into
    /// shared memory first and stored back after.
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
        let p = index_constant(ir, body, tile.p, &location);
        let mut dims = Vec::with_capacity(rank);
        for d in 0..rank {
            let lower = indexer.value(ir, body, &apply.lower[d], &location)?;
            let upper = indexer.value(ir, body, &apply.upper[d], &location)?;
            let extent = binary(ir, body, "arith.subi", upper, lower, Type::Index, &location);
            let subdomains = binary(ir, body, "arith.ceildivsi", extent, p, Type::Index, &location);
            dims.push(BoxDim { lower, upper, extent, subdomains });
        }
        // A thread's subdomains. With barriers in the kernel (staging, or several threads per
        // tile) a block strides over regions of B subdomains per axis uniformly, so that all
        // its threads meet every barrier, and a thread is active where its subdomain exists;
        // without, each thread strides over its own subdomains.
        let uniform = self.staged || self.lanes > 1;
        let mut subdomain = Vec::with_capacity(rank);
        let mut first = Vec::with_capacity(rank);
        for (d, dim) in dims.iter().enumerate() {
            let axis = self.subdomain_axis(rank, d);
            let first_block = binary(ir, body, "arith.muli", ids.bid[axis], ids.bdim[axis], Type::Index, &location);
            let stride = binary(ir, body, "arith.muli", ids.gdim[axis], ids.bdim[axis], Type::Index, &location);
            if uniform {
                let (r, inner) = ops::scf_for(ir, body, first_block, dim.subdomains, stride, &location);
                first.push(r);
                body = inner;
                subdomain.push(binary(ir, body, "arith.addi", r, ids.tid[axis], Type::Index, &location));
            } else {
                let start = binary(ir, body, "arith.addi", first_block, ids.tid[axis], Type::Index, &location);
                let (s, inner) = ops::scf_for(ir, body, start, dim.subdomains, stride, &location);
                subdomain.push(s);
                body = inner;
            }
        }
        let active = if uniform {
            let mut active: Option<ValueId> = None;
            for d in 0..rank {
                let inside = compare(ir, body, SLT, subdomain[d], dims[d].subdomains, &location);
                active = Some(match active {
                    None => inside,
                    Some(a) => binary(ir, body, "arith.andi", a, inside, Type::I1, &location),
                });
            }
            active
        } else {
            None
        };
        let staged = if self.staged {
            let regions: Vec<Region> =
                (0..rank).map(|d| self.region(ir, body, &dims[d], first[d], tile, d, backward, &location)).collect();
            let element = self.element.clone();
            let extents: Vec<i64> = (0..rank).map(|d| self.block[self.subdomain_axis(rank, d)] * tile.p + 1).collect();
            let buffer = ops::workgroup_buffer(ir, kernel.func, kernel.entry, &extents, &element);
            let global = *kernel.args.get(&apply.written).ok_or("the written field is not a kernel argument")?;
            self.copy_region(ir, body, &ids, &regions, global, buffer, &element, true, &location)?;
            ops::barrier(ir, body, &location);
            Some(Staged { global, buffer, regions, element })
        } else {
            None
        };
        let point = PointCode { tile, dims: &dims, subdomain: &subdomain, p, backward, location: &location };
        let zero = index_constant(ir, body, 0, &location);
        let one = index_constant(ir, body, 1, &location);
        let mut layers = index_constant(ir, body, tile.layers, &location);
        if self.lanes > 1 {
            // K, as a value LLVM cannot fold: with a constant trip count it unrolls the layer
            // loop fully, and the K copies of the diagonal loop keep their bounds live at once
            // (4x8x8 at 32-bit index: 79–116 registers, 38–55 without). The region loop runs
            // only where the box is not empty, so `K + min(E, 0)` is K wherever the loop runs
            // (and cannot overflow). A select `E > 0 ? K : 0` does not do: LLVM unswitches it.
            let empty_part = binary(ir, body, "arith.minsi", dims[0].extent, zero, Type::Index, &location);
            layers = binary(ir, body, "arith.addi", layers, empty_part, Type::Index, &location);
        }
        let (layer, layer_body) = ops::scf_for(ir, body, zero, layers, one, &location);
        let (point_body, xs) = if self.lanes == 1 {
            point.lexicographic(ir, layer_body, layer, active)
        } else {
            let active = active.ok_or("a kernel without dimensions")?;
            point.diagonals(ir, layer_body, layer, ids.tid[0], self.lanes, &first, active)?
        };
        // The point: i = lb + x forward, ub − 1 − x backward.
        let mut values: Vec<Option<ValueId>> = kernel.extra.iter().map(|&v| Some(v)).collect();
        values.push(Some(layer));
        for (d, &x) in xs.iter().enumerate() {
            values.push(Some(point.coordinate(ir, point_body, d, x, one)));
        }
        let iters: Vec<AffineExpr> = (0..values.len()).map(|k| AffineExpr::Dim(k as u32)).collect();
        let mut arith = ArithIndexer { dims: &values, params: &kernel.params };
        // Staged: the written field's accesses go to the buffer (element minus the region's
        // load origin), as the wavefront strategy's staged tiles do.
        let staged_fields: HashMap<ValueId, StagedField> = staged
            .iter()
            .map(|st| (st.global, StagedField::new(st.buffer, st.regions.iter().map(|r| r.load_origin).collect())))
            .collect();
        let mut staged_indexer;
        let inner: &mut dyn Indexer = if staged_fields.is_empty() {
            &mut arith
        } else {
            staged_indexer = StagedIndexer { inner: arith, staged: &staged_fields };
            &mut staged_indexer
        };
        let mut unmask = Unmask { inner, loads: vec![] };
        copy_statement(ir, self.ir_info, apply.statement, &iters, &kernel.args, point_body, &mut unmask)?;
        erase_dead_ops(ir, self.registry, point_body);
        if let Some(st) = &staged {
            // After the layers (inserted at the same point, so after them): every thread done,
            // the region back, and the buffer free for the grid-stride loop's next region.
            ops::barrier(ir, body, &location);
            self.copy_region(ir, body, &ids, &st.regions, st.global, st.buffer, &st.element, false, &location)?;
            ops::barrier(ir, body, &location);
        }
        self.launch(ir, apply, tile, &kernel, at, ivs)?;
        tracing::debug!(kernel = %kernel.name, apply = %apply.name, backward, staged = self.staged, lanes = self.lanes, "gpu-map{{mlsor}}: kernel");
        Ok(())
    }

    /// The launch of `kernel` at `at`: per grid axis, the blocks covering the subdomains of the
    /// dimension on it (at most `grid` when given).
    fn launch(
        &mut self,
        ir: &mut Ir,
        apply: &ApplyBox,
        tile: &MlsorTile,
        kernel: &KernelFunc,
        at: InsertPoint,
        ivs: &[ValueId],
    ) -> Result<(), String> {
        let rank = apply.rank();
        let mut grid = [None; 3];
        for d in 0..rank {
            let axis = self.subdomain_axis(rank, d);
            let count = AffineExpr::binary(AffineBinOp::CeilDiv, apply.extent(d)?, AffineExpr::Constant(tile.p));
            let mut blocks = self.host.grid_size(ir, at, &count, self.block[axis], axis, ivs)?;
            if self.grid_cap > 0 {
                let cap = index_constant(ir, at, self.grid_cap, &self.host.location);
                blocks = binary(ir, at, "arith.minsi", blocks, cap, Type::Index, &self.host.location);
            }
            grid[axis] = Some(blocks);
        }
        let one_host = index_constant(ir, at, 1, &self.host.location);
        let grid = grid.map(|g| g.unwrap_or(one_host));
        self.host.launch(ir, at, kernel, LaunchShape { grid, block: self.block }, &Default::default(), ivs);
        Ok(())
    }

    /// The [`Region`] of dimension `d` for the block whose first subdomain along it is `r`.
    #[allow(clippy::too_many_arguments)]
    fn region(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        dim: &BoxDim,
        r: ValueId,
        tile: &MlsorTile,
        d: usize,
        backward: bool,
        location: &stencil_ir::Location,
    ) -> Region {
        let rank = tile.part2.len();
        let threads = self.block[self.subdomain_axis(rank, d)];
        let c = |ir: &mut Ir, v: i64| index_constant(ir, at, v, location);
        let add = |ir: &mut Ir, a: ValueId, b: ValueId| binary(ir, at, "arith.addi", a, b, Type::Index, location);
        let rp = {
            let p = c(ir, tile.p);
            binary(ir, at, "arith.muli", r, p, Type::Index, location)
        };
        let (p, k) = (tile.p, tile.layers);
        // Offsets from rP of the four ends (module docs of Region).
        let (load_lo, load_hi, store_lo, store_hi) = if tile.part2[d] {
            (p - k - 1, threads * p + k, p - k, threads * p + k - 1)
        } else {
            (-1, threads * p, 0, threads * p - 1)
        };
        let clip = |ir: &mut Ir, offset: i64, lowest: i64, highest: ValueId| {
            let at_offset = {
                let o = c(ir, offset);
                add(ir, rp, o)
            };
            let low = c(ir, lowest);
            let x = binary(ir, at, "arith.maxsi", at_offset, low, Type::Index, location);
            binary(ir, at, "arith.minsi", x, highest, Type::Index, location)
        };
        let one = c(ir, 1);
        let beyond = add(ir, dim.extent, one);
        let xa = clip(ir, load_lo, -1, beyond);
        let xb = clip(ir, load_hi, -1, beyond);
        let wa = clip(ir, store_lo, 0, dim.extent);
        let wb = clip(ir, store_hi, 0, dim.extent);
        // A range [a, b) of x as (first array point, count): lb + a forward, ub − b backward.
        let to_array = |ir: &mut Ir, a: ValueId, b: ValueId| {
            let origin = if backward {
                binary(ir, at, "arith.subi", dim.upper, b, Type::Index, location)
            } else {
                add(ir, dim.lower, a)
            };
            (origin, binary(ir, at, "arith.subi", b, a, Type::Index, location))
        };
        let (load_origin, load_count) = to_array(ir, xa, xb);
        let (store_origin, store_count) = to_array(ir, wa, wb);
        Region { load_origin, load_count, store_origin, store_count }
    }

    /// Copies the block's load box from `global` into `buffer` (`load`), or its store box back:
    /// the rows of the box (every dimension but the innermost, linearised) over the block's
    /// threads along y and z, each row's points over the threads along x — consecutive threads,
    /// consecutive addresses, and a row's coordinates decomposed once per row, not per point.
    #[allow(clippy::too_many_arguments)]
    fn copy_region(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        ids: &ThreadIds,
        regions: &[Region],
        global: ValueId,
        buffer: ValueId,
        element: &Type,
        load: bool,
        location: &stencil_ir::Location,
    ) -> Result<(), String> {
        let rank = regions.len();
        let counts: Vec<ValueId> = regions.iter().map(|r| if load { r.load_count } else { r.store_count }).collect();
        let mut rows = index_constant(ir, at, 1, location);
        for &n in &counts[..rank - 1] {
            rows = binary(ir, at, "arith.muli", rows, n, Type::Index, location);
        }
        let (row_thread, row_threads) = ids.linear(ir, at, 1, location);
        let (row, row_body) = ops::scf_for(ir, at, row_thread, rows, row_threads, location);
        // Row-major coordinates of the row, innermost outer dimension last.
        let mut coords = vec![row; rank];
        let mut rest = row;
        for d in (0..rank - 1).rev() {
            if d == 0 {
                coords[0] = rest;
            } else {
                coords[d] = binary(ir, row_body, "arith.remsi", rest, counts[d], Type::Index, location);
                rest = binary(ir, row_body, "arith.divsi", rest, counts[d], Type::Index, location);
            }
        }
        let (x, body) = ops::scf_for(ir, row_body, ids.tid[0], counts[rank - 1], ids.bdim[0], location);
        coords[rank - 1] = x;
        let mut global_index = Vec::with_capacity(rank);
        let mut shared_index = Vec::with_capacity(rank);
        for d in 0..rank {
            let origin = if load { regions[d].load_origin } else { regions[d].store_origin };
            let i = binary(ir, body, "arith.addi", origin, coords[d], Type::Index, location);
            global_index.push(i);
            shared_index.push(binary(ir, body, "arith.subi", i, regions[d].load_origin, Type::Index, location));
        }
        if load {
            let v = super::arith::load(ir, body, global, global_index, element.clone(), location);
            super::arith::store(ir, body, v, buffer, shared_index, location);
        } else {
            let v = super::arith::load(ir, body, buffer, shared_index, element.clone(), location);
            super::arith::store(ir, body, v, global, global_index, location);
        }
        Ok(())
    }
}

/// A staged kernel's shared buffer and the block's region.
struct Staged {
    global: ValueId,
    buffer: ValueId,
    regions: Vec<Region>,
    element: Type,
}

/// What a thread knows to find its tile's points: the tile, the box, its subdomains.
struct PointCode<'a> {
    tile: &'a MlsorTile,
    dims: &'a [BoxDim],
    subdomain: &'a [ValueId],
    p: ValueId,
    backward: bool,
    location: &'a stencil_ir::Location,
}

impl PointCode<'_> {
    /// The tile's points `lo ≤ x < hi` along dimension `d` at `layer`, in the sweep's
    /// coordinates: `MlsorTile::range`, clipped to the box.
    fn range(&self, ir: &mut Ir, at: InsertPoint, d: usize, layer: ValueId) -> (ValueId, ValueId) {
        let location = self.location;
        let p = self.p;
        let base = binary(ir, at, "arith.muli", self.subdomain[d], p, Type::Index, location);
        let (lo, hi) = if self.tile.part2[d] {
            let p_minus_one = index_constant(ir, at, self.tile.p - 1, location);
            let from = binary(ir, at, "arith.addi", base, p_minus_one, Type::Index, location);
            let lo = binary(ir, at, "arith.subi", from, layer, Type::Index, location);
            let end = binary(ir, at, "arith.addi", base, p, Type::Index, location);
            (lo, binary(ir, at, "arith.addi", end, layer, Type::Index, location))
        } else {
            // min(l, sP) is l except in the first subdomain, whose part 1 starts at 0.
            let edge = binary(ir, at, "arith.minsi", layer, base, Type::Index, location);
            let lo = binary(ir, at, "arith.addi", base, edge, Type::Index, location);
            let p_minus_one = index_constant(ir, at, self.tile.p - 1, location);
            let end = binary(ir, at, "arith.addi", base, p_minus_one, Type::Index, location);
            (lo, binary(ir, at, "arith.subi", end, layer, Type::Index, location))
        };
        (lo, binary(ir, at, "arith.minsi", hi, self.dims[d].extent, Type::Index, location))
    }

    /// One thread per tile: the tile's points at `layer` in lexicographic order (of the
    /// sweep's coordinates), inside `active` where given; where the point's code goes and the
    /// coordinates `x`.
    fn lexicographic(
        &self,
        ir: &mut Ir,
        layer_body: InsertPoint,
        layer: ValueId,
        active: Option<ValueId>,
    ) -> (InsertPoint, Vec<ValueId>) {
        let mut at = match active {
            Some(active) => ops::scf_if(ir, layer_body, active, self.location),
            None => layer_body,
        };
        let one = index_constant(ir, at, 1, self.location);
        let mut xs = Vec::with_capacity(self.dims.len());
        for d in 0..self.dims.len() {
            let (lo, hi) = self.range(ir, at, d, layer);
            let (x, inner) = ops::scf_for(ir, at, lo, hi, one, self.location);
            xs.push(x);
            at = inner;
        }
        (at, xs)
    }

    /// `lanes` threads per tile (2-D): the tile's anti-diagonals `x0 + x1 = q` at `layer` one
    /// after another, a block barrier after each, thread `lane` taking rows `lo0 + lane`,
    /// `lo0 + lane + lanes`, …; where the point's code goes and the coordinates `x`. A 5-point
    /// update reads its west and north neighbours from the diagonal before and its east and
    /// south ones from the diagonal after, as in lexicographic order: the same values, the
    /// same bits. `first`: the block's region's first subdomain per dimension.
    #[allow(clippy::too_many_arguments)]
    fn diagonals(
        &self,
        ir: &mut Ir,
        layer_body: InsertPoint,
        layer: ValueId,
        lane: ValueId,
        lanes: i64,
        first: &[ValueId],
        active: ValueId,
    ) -> Result<(InsertPoint, Vec<ValueId>), String> {
        let location = self.location;
        let zero = index_constant(ir, layer_body, 0, location);
        let one = index_constant(ir, layer_body, 1, location);
        // The tile's extent per layer (pure arithmetic, also in inactive threads) and the
        // diagonals of the largest tile of the block's region at this layer, the same for all
        // its threads: rows(part 2) = 2l + 1; rows(part 1) = P − 1 − 2l, or P − 1 − l where the
        // region holds the first subdomain (its edge `0 ≤ x < l` too) — written
        // P − 1 − l − min(l, rP), r the region's first subdomain; diagonals = rows₀ + rows₁ − 1.
        let (lo0, hi0) = self.range(ir, layer_body, 0, layer);
        let (lo1, hi1) = self.range(ir, layer_body, 1, layer);
        let mut steps = index_constant(ir, layer_body, -1, location);
        for (d, &part2) in self.tile.part2.iter().enumerate() {
            let rows = if part2 {
                let twice = binary(ir, layer_body, "arith.addi", layer, layer, Type::Index, location);
                binary(ir, layer_body, "arith.addi", twice, one, Type::Index, location)
            } else {
                let widest = index_constant(ir, layer_body, self.tile.p - 1, location);
                let edge = binary(ir, layer_body, "arith.subi", widest, layer, Type::Index, location);
                let region = first.get(d).copied().ok_or("a region without its first subdomain")?;
                let rp = binary(ir, layer_body, "arith.muli", region, self.p, Type::Index, location);
                let inner = binary(ir, layer_body, "arith.minsi", layer, rp, Type::Index, location);
                binary(ir, layer_body, "arith.subi", edge, inner, Type::Index, location)
            };
            steps = binary(ir, layer_body, "arith.addi", steps, rows, Type::Index, location);
        }
        let first_row = binary(ir, layer_body, "arith.addi", lo0, lane, Type::Index, location);
        let (step, step_body) = ops::scf_for(ir, layer_body, zero, steps, one, location);
        let at = ops::scf_if(ir, step_body, active, location);
        ops::barrier(ir, step_body, location);
        let stride = index_constant(ir, at, lanes, location);
        let (x0, row_body) = ops::scf_for(ir, at, first_row, hi0, stride, location);
        // x1 = lo1 + step − (x0 − lo0), inside [lo1, hi1).
        let offset = binary(ir, row_body, "arith.subi", x0, lo0, Type::Index, location);
        let along = binary(ir, row_body, "arith.subi", step, offset, Type::Index, location);
        let x1 = binary(ir, row_body, "arith.addi", lo1, along, Type::Index, location);
        let from = compare(ir, row_body, super::arith::SGE, x1, lo1, location);
        let below = compare(ir, row_body, SLT, x1, hi1, location);
        let inside = binary(ir, row_body, "arith.andi", from, below, Type::I1, location);
        Ok((ops::scf_if(ir, row_body, inside, location), vec![x0, x1]))
    }

    /// The array coordinate of `x` along `d`: `lb + x` forward, `ub − 1 − x` backward.
    fn coordinate(&self, ir: &mut Ir, at: InsertPoint, d: usize, x: ValueId, one: ValueId) -> ValueId {
        let dim = &self.dims[d];
        if self.backward {
            let last = binary(ir, at, "arith.subi", dim.upper, one, Type::Index, self.location);
            binary(ir, at, "arith.subi", last, x, Type::Index, self.location)
        } else {
            binary(ir, at, "arith.addi", dim.lower, x, Type::Index, self.location)
        }
    }
}

/// The accesses of a kernel that visits only its tile's points: a store of
/// `select(mask, value, old)` where `old` is the load of the same element stores `value` — the
/// mask of an MLSOR kernel holds on exactly the points of its tile (`MlsorTile::range`, checked
/// against the masks by the passes' tests), which are the only points the kernel visits. The
/// mask's arithmetic is then dead and [`erase_dead_ops`] removes it.
struct Unmask<'a> {
    inner: &'a mut dyn Indexer,
    /// Loads made so far: memref, index, result.
    loads: Vec<(ValueId, Vec<AffineExpr>, ValueId)>,
}

impl Indexer for Unmask<'_> {
    fn load(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        memref: ValueId,
        index: &[AffineExpr],
        element: Type,
        location: &stencil_ir::Location,
    ) -> Result<ValueId, String> {
        let v = self.inner.load(ir, at, memref, index, element, location)?;
        self.loads.push((memref, index.to_vec(), v));
        Ok(v)
    }

    fn store(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        value: ValueId,
        memref: ValueId,
        index: &[AffineExpr],
        location: &stencil_ir::Location,
    ) -> Result<(), String> {
        let unmasked =
            ir.defining_op(value).filter(|&op| ir.op_name(op) == "arith.select").and_then(|op| match ir.operands(op) {
                &[_, chosen, old] => self
                    .loads
                    .iter()
                    .any(|(m, i, v)| *m == memref && i.as_slice() == index && *v == old)
                    .then_some(chosen),
                _ => None,
            });
        self.inner.store(ir, at, unmasked.unwrap_or(value), memref, index, location)
    }

    fn index_value(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        expr: &AffineExpr,
        location: &stencil_ir::Location,
    ) -> Result<ValueId, String> {
        self.inner.index_value(ir, at, expr, location)
    }
}

/// Erases the ops of `at`'s block that nothing uses and that have no effect (the mask
/// [`Unmask`] left dead), innermost uses first.
fn erase_dead_ops(ir: &mut Ir, registry: &DialectRegistry, at: InsertPoint) {
    let InsertPoint::Before(anchor) = at else { return };
    let Some(block) = ir.parent_block(anchor) else { return };
    loop {
        let dead: Vec<OpId> = ir
            .block_ops(block)
            .iter()
            .copied()
            .filter(|&op| stencil_ir::pass::canonicalize::is_trivially_dead(ir, registry, op))
            .collect();
        if dead.is_empty() {
            break;
        }
        for op in dead.into_iter().rev() {
            ir.erase_op(op);
        }
    }
}
