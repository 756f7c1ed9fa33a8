//! One GPU kernel from a subtree of a scanned loop nest (thesis §3.3.2, §5.2.2, Fig. 3.17):
//!
//! * **tiles** — the parallel tile loops of an inter-tile wavefront — go directly to blocks:
//!   up to three directly nested tile loops map to the grid's x (innermost), y and z, each
//!   block computing its tile from its block id (no block walks the wavefront), with the grid
//!   sized on the host to the wavefront's range of each tile coordinate
//!   ([`stencil_poly::codegen::dimension_range`]: the exact projection, so only a few blocks
//!   find an empty tile and leave); the block then checks the tile's exact bounds. Tile loops
//!   that do not nest that way fall back to the cyclic scheme of thesis §5.2.2: every block
//!   walks the tile loops with a private counter `k` and runs tile `k` when
//!   `k mod gridDim = blockIdx` (all threads of a block agree, so barriers inside stay uniform);
//! * **sequential loops** inside a tile (the intra-tile wavefront) are run by every thread of
//!   the block in step, with a `gpu.barrier` after each iteration; statement groups in
//!   sequence (thesis Fig. 4.7) get a barrier between them;
//! * **parallel loops** (the points of an intra-tile wavefront, or the DOALL loops of an
//!   untiled kernel) are distributed cyclically over the threads: up to three directly nested
//!   ones map to the block's x (innermost), y and z; outside tiles the outermost of them also
//!   strides over the blocks of the grid;
//! * below the thread-mapped loops, each thread runs its points sequentially.
//!
//! Loop bounds and indices use `arith` (`crate::gpu_map::arith`). With staging on, each tile
//! works on workgroup (shared) memory: `crate::gpu_map::staging` loads its read footprint and
//! stores back what it wrote.

use std::collections::HashMap;

use stencil_dialects::gpu::Dimension;
use stencil_ir::affine::{AffineBinOp, AffineExpr};
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::types::{Dim, MemRefType};
use stencil_ir::{Attribute, BlockId, Ir, Location, OpId, Type, ValueId};
use stencil_passes::schedule::{affine_expr_of_form, dim_or_symbol};
use stencil_passes::stencil_to_poly::ScopInfo;
use stencil_poly::codegen::{
    dimension_range, full_tiles, Bound, DimensionRange, ForLoop, FullTiles, Guard, GuardKind, LoopAst, LoopNest,
    ScanOptions, ScanProblem,
};
use stencil_poly::tiling::{DimKind, TiledSchedule};

use super::arith::{
    binary, compare, index_cast, index_constant, load, select, store, true_constant, ArithIndexer, EQ, NE, SGE, SLE,
    SLT,
};
use super::staging::{StagedField, StagedIndexer};
use super::{ops, PartialTiles};
use crate::codegen::statement::copy_statement;

/// Threads of a warp.
const WARP_SIZE: i64 = 32;

/// Whether code runs uniformly in a block (every thread the same) or per thread.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    Block,
    Thread,
}

/// What a kernel needs from the host side.
pub(crate) struct KernelInput<'a> {
    /// The loop nest the subtree comes from.
    pub nest: &'a LoopNest,
    /// The SCoP (statements and their apply bodies).
    pub info: &'a ScopInfo,
    /// Program arguments (fields and scalars) with their types, in order.
    pub program_args: &'a [(ValueId, Type)],
    /// Which scanned dimensions are host loop variables at the launch (passed as arguments).
    pub host_dims: &'a [bool],
    /// Number of parameters.
    pub n_params: usize,
    /// Blocks in the grid.
    pub grid: i64,
    /// The scan problem the nest was generated from (tile footprints).
    pub problem: &'a ScanProblem,
    /// Whether tiles are staged in workgroup memory.
    pub staging: bool,
    /// Most bytes of workgroup memory a kernel may use.
    pub shared_limit: i64,
    /// The tiled schedule (full-tile code), and whether to separate full tiles at all.
    pub tiled: &'a TiledSchedule,
    /// Whether tiles wholly inside the domains run simpler loops (`gpu-map{full-tiles}`).
    pub full_tiles: bool,
    /// What the other tiles run (`gpu-map{partial-tiles}`).
    pub partial_tiles: PartialTiles,
    /// The block every launch of the kernel has (threads along x, y, z): the kernel computes
    /// with these constants, not `gpu.block_dim`, so that thread counts fold and a thread loop
    /// that cannot take a second turn is a test ([`KernelBuilder::thread_chain`]).
    pub block: [i64; 3],
    /// Whether directly mapped tiles get one block each (`gpu-map{grid=0}`): the host launches
    /// a block per tile, in several launches where a grid axis would pass CUDA's limit, and
    /// the kernel takes one more `index` argument per grid axis, the launch's first tile
    /// along it ([`KernelGrid::Tiles`]). Otherwise the blocks of a capped grid stride over the
    /// tiles.
    pub one_tile_per_block: bool,
}

/// How the host must size a kernel's grid.
pub(crate) enum KernelGrid {
    /// `n` blocks along x (tiles cyclic over them, or untiled work).
    Blocks(i64),
    /// Blocks for tiles: per grid axis x, y, z (innermost tile dimension first). With
    /// [`KernelInput::one_tile_per_block`] the kernel's last arguments are one tile offset per
    /// axis, in the same order, and block `b` of a launch with offset `o` runs the axis' tile
    /// `b + o`; otherwise the blocks stride over the tiles by the grid size.
    Tiles(Vec<TileAxis>),
}

/// What the host needs to size one grid axis of directly mapped tiles.
pub(crate) struct TileAxis {
    /// The range of the axis' tile coordinate over the launch, over the host dimensions and
    /// parameters.
    pub range: DimensionRange,
    /// Upper bounds on the number of tiles along the axis for fixed outer tile coordinates,
    /// each `⌊expr / divisor⌋ + 1` over the host dimensions and parameters (empty: none known;
    /// always empty for the outermost tile loop, whose blocks start at the range's start).
    pub extent: Vec<Bound>,
}

/// Builds `gpu.func @name` running `node` at the end of `module_block` (a `gpu.module` body).
/// Its arguments: the program arguments, the parameters, then the host dimensions in scope.
///
/// Where the tile set-up's few workgroup words ([`KernelBuilder::tile_set_up_by_first_warp`])
/// are all that takes a kernel past the shared-memory limit (`gpu-map{shared-memory=0}`, or
/// staged tiles within a few bytes of it), the kernel is built again with every warp setting
/// its tile up itself, as before there were words to share.
pub(crate) fn build_kernel(
    ir: &mut Ir,
    module_block: BlockId,
    name: &str,
    node: &LoopAst,
    input: &KernelInput<'_>,
    location: &Location,
) -> Result<KernelGrid, String> {
    match build_kernel_once(ir, module_block, name, node, input, location, true)? {
        Built::Kernel(grid) => Ok(grid),
        Built::OverLimitBySetUpWords(func) => {
            tracing::debug!(kernel = name, "the tile set-up's words pass the shared-memory limit: every warp sets up");
            ir.erase_op(func);
            match build_kernel_once(ir, module_block, name, node, input, location, false)? {
                Built::Kernel(grid) => Ok(grid),
                Built::OverLimitBySetUpWords(_) => Err("a kernel without tile set-up words still has them".into()),
            }
        }
    }
}

/// What [`build_kernel_once`] built.
enum Built {
    /// The kernel, and how it is launched.
    Kernel(KernelGrid),
    /// A kernel (this `gpu.func`) within the shared-memory limit but for its tile set-up words.
    OverLimitBySetUpWords(OpId),
}

/// [`build_kernel`] once: with the first warp setting each tile up for the block when
/// `first_warp_set_up` (and the block has more than a warp), else every warp itself.
fn build_kernel_once(
    ir: &mut Ir,
    module_block: BlockId,
    name: &str,
    node: &LoopAst,
    input: &KernelInput<'_>,
    location: &Location,
    first_warp_set_up: bool,
) -> Result<Built, String> {
    let mut arg_types: Vec<Type> = input.program_args.iter().map(|(_, t)| t.clone()).collect();
    arg_types.extend((0..input.n_params).map(|_| Type::Index));
    arg_types.extend(input.host_dims.iter().filter(|&&h| h).map(|_| Type::Index));
    let region = ir.create_region();
    let entry = ir.append_block(region, &arg_types);
    let mut state = OperationState::new("gpu.func", location.clone());
    state.add_property("function_type", Attribute::ty(Type::function(arg_types.clone(), vec![])));
    state.add_attribute("sym_name", Attribute::string(name));
    state.add_attribute(stencil_dialects::gpu::KERNEL_ATTR, Attribute::Unit);
    state.regions.push(region);
    let func = ir.build(InsertPoint::End(module_block), state);
    let ret = ir.build(InsertPoint::End(entry), OperationState::new("gpu.return", location.clone()));
    let at = InsertPoint::Before(ret);
    let kargs = ir.block_args(entry).to_vec();
    let n_prog = input.program_args.len();
    let args: HashMap<ValueId, ValueId> =
        input.program_args.iter().map(|(v, _)| *v).zip(kargs[..n_prog].iter().copied()).collect();
    let params = kargs[n_prog..n_prog + input.n_params].to_vec();
    let mut host = kargs[n_prog + input.n_params..].iter().copied();
    let dims: Vec<Option<ValueId>> = input.host_dims.iter().map(|&h| if h { host.next() } else { None }).collect();
    let id = |ir: &mut Ir, op: &str, d: Dimension| ops::gpu_id(ir, at, op, d, location);
    let dims3 = [Dimension::X, Dimension::Y, Dimension::Z];
    let tid = dims3.map(|d| id(ir, "gpu.thread_id", d));
    let bdim = input.block.map(|b| index_constant(ir, at, b, location));
    let bids = dims3.map(|d| id(ir, "gpu.block_id", d));
    let grids = dims3.map(|d| id(ir, "gpu.grid_dim", d));
    let (bid, nblocks) = (bids[0], grids[0]);
    let mut k = KernelBuilder {
        ir,
        input,
        args,
        params,
        dims,
        tid,
        bdim,
        bid,
        nblocks,
        bids,
        grids,
        counter: None,
        in_tile: false,
        only_tile: false,
        first_warp_set_up,
        set_up_bytes: 0,
        location: location.clone(),
        func,
        entry,
        staged: HashMap::new(),
        shared: Vec::new(),
        shared_bytes: 0,
        workgroup: HashMap::new(),
    };
    let grid = k.body(node, at)?;
    if k.set_up_bytes > 0
        && k.shared_bytes > k.input.shared_limit
        && k.shared_bytes.saturating_sub(k.set_up_bytes) <= k.input.shared_limit
    {
        return Ok(Built::OverLimitBySetUpWords(func));
    }
    k.check_shared_limit()?;
    // The tile offsets `body` appended to the entry block's arguments (before the workgroup
    // attributions), one per grid axis.
    if let (KernelGrid::Tiles(axes), true) = (&grid, input.one_tile_per_block) {
        arg_types.extend(axes.iter().map(|_| Type::Index));
        ir.set_property(func, "function_type", Attribute::ty(Type::function(arg_types, vec![])));
    }
    Ok(Built::Kernel(grid))
}

impl KernelBuilder<'_, '_> {
    /// Builds the kernel's body at `at` and says how it is launched.
    fn body(&mut self, node: &LoopAst, at: InsertPoint) -> Result<KernelGrid, String> {
        let input = self.input;
        if contains_tile_loop(input.nest, node) {
            if let Some(chain) = direct_chain(input.nest, node) {
                if let Some(ranges) = tile_ranges(input, &chain)? {
                    // One offset argument per grid axis (x first), after the host dimensions.
                    let offsets: Option<Vec<ValueId>> = input.one_tile_per_block.then(|| {
                        (0..chain.len()).map(|_| self.ir.add_block_argument(self.entry, Type::Index)).collect()
                    });
                    self.direct_tiles(&chain, &ranges, offsets.as_deref(), at)?;
                    let axes = ranges
                        .into_iter()
                        .zip(&chain)
                        .enumerate()
                        .map(|(i, (range, l))| {
                            let extent = if i == 0 { Vec::new() } else { extent_bounds(l, input.host_dims) };
                            TileAxis { range, extent }
                        })
                        .rev()
                        .collect();
                    return Ok(KernelGrid::Tiles(axes));
                }
            }
            let counter = self.alloca_counter(at);
            self.counter = Some(counter);
            self.node(node, at, Level::Block)?;
            return Ok(KernelGrid::Blocks(input.grid));
        }
        // A tile launched on its own (a sequential inter-tile order keeps the tile loops on the
        // host) runs on one block: the whole kernel is that tile, staged like the tiles of a
        // wavefront.
        let one_tile = input.grid == 1
            && input.nest.dims.iter().zip(input.host_dims).any(|(d, &host)| host && d.kind == DimKind::Tile);
        if input.staging && one_tile {
            self.in_tile = true;
            self.only_tile = true;
            self.staged_tile(node, at)?;
            return Ok(KernelGrid::Blocks(1));
        }
        self.node(node, at, Level::Block)?;
        Ok(KernelGrid::Blocks(input.grid))
    }
}

/// The tile loops of `node` that map to grid axes: `node` itself a tile loop, then up to two
/// more directly nested in it, the last with no tile loop inside.
fn direct_chain<'n>(nest: &LoopNest, node: &'n LoopAst) -> Option<Vec<&'n ForLoop>> {
    let LoopAst::For(first) = node else { return None };
    if !is_tile_loop(nest, first) || first.step != 1 {
        return None;
    }
    let mut chain = vec![first];
    loop {
        let body = match chain[chain.len() - 1].body.as_ref() {
            LoopAst::Seq(items) if items.len() == 1 => &items[0],
            other => other,
        };
        match body {
            LoopAst::For(next) if is_tile_loop(nest, next) && next.step == 1 && chain.len() < 3 => chain.push(next),
            _ => break,
        }
    }
    (!contains_tile_loop(nest, &chain[chain.len() - 1].body)).then_some(chain)
}

/// The range of each loop of `chain` over the launch: the first loop's own bounds (they depend
/// on host dimensions only), the others' projections (`None` when one has no plain range).
fn tile_ranges(input: &KernelInput<'_>, chain: &[&ForLoop]) -> Result<Option<Vec<DimensionRange>>, String> {
    let position = chain[0].dim;
    let mut ranges = vec![DimensionRange { lower: vec![chain[0].lower.clone()], upper: vec![chain[0].upper.clone()] }];
    for l in &chain[1..] {
        match dimension_range(input.problem, l.dim, position, &ScanOptions::default()).map_err(|e| e.to_string())? {
            Some(range) => ranges.push(range),
            None => return Ok(None),
        }
    }
    Ok(Some(ranges))
}

/// Bounds on the number of values of tile loop `l` for fixed values of the loops around it,
/// over the host dimensions and parameters: for an upper bound `⌊a / d⌋` and a lower bound
/// `⌈b / c⌉` of `l`, the count `⌊a/d⌋ − ⌈b/c⌉ + 1` is an integer at most `a/d − b/c + 1`, so at
/// most `⌊(a·c − b·d) / (c·d)⌋ + 1`; the pair counts when `a·c − b·d` involves no dimension
/// but the host's (the outer tile coordinates cancel). A skewed tiling's tile loops are
/// typically such a pair (`w − 2·T₁ − 2 ≤ T₂ ≤ w − 2·T₁`: three tiles), where the range of `T₂`
/// over the whole wavefront is as long as the domain.
fn extent_bounds(l: &ForLoop, host_dims: &[bool]) -> Vec<Bound> {
    let mut out = Vec::new();
    for u in &l.upper {
        for b in &l.lower {
            let Some(divisor) = u.divisor.checked_mul(b.divisor) else { continue };
            let Ok(g) = stencil_poly::affine::AffineForm::combine(b.divisor, &u.expr, -u.divisor, &b.expr) else {
                continue;
            };
            let host_only = (0..host_dims.len()).all(|d| g.coeff(d) == 0 || host_dims[d]);
            let bound = Bound { expr: g, divisor };
            if host_only && !out.contains(&bound) {
                out.push(bound);
            }
        }
    }
    out
}

/// Whether `node` has a loop enumerating the tiles of a wavefront.
pub(crate) fn contains_tile_loop(nest: &LoopNest, node: &LoopAst) -> bool {
    match node {
        LoopAst::For(l) => is_tile_loop(nest, l) || contains_tile_loop(nest, &l.body),
        LoopAst::If { then, .. } => contains_tile_loop(nest, then),
        LoopAst::Stmt { .. } => false,
        LoopAst::Seq(items) => items.iter().any(|x| contains_tile_loop(nest, x)),
    }
}

/// Whether `l` enumerates tiles (a parallel tile dimension, not the inter-tile wavefront).
pub(crate) fn is_tile_loop(nest: &LoopNest, l: &ForLoop) -> bool {
    l.parallel && nest.dims.get(l.dim).is_some_and(|d| d.kind == DimKind::Tile)
}

/// Emits one kernel's body.
pub(super) struct KernelBuilder<'a, 'i> {
    pub(super) ir: &'a mut Ir,
    pub(super) input: &'a KernelInput<'i>,
    pub(super) args: HashMap<ValueId, ValueId>,
    pub(super) params: Vec<ValueId>,
    pub(super) dims: Vec<Option<ValueId>>,
    tid: [ValueId; 3],
    bdim: [ValueId; 3],
    bid: ValueId,
    nblocks: ValueId,
    /// `gpu.block_id` and `gpu.grid_dim` along x, y, z (direct tile mapping).
    bids: [ValueId; 3],
    grids: [ValueId; 3],
    /// The private tile counter (kernels with tile loops).
    counter: Option<ValueId>,
    /// Whether the code being emitted runs for one tile of this block.
    in_tile: bool,
    /// Whether the block runs one tile only (one tile per block, or a kernel that is one
    /// tile): no earlier tile of the block can still be reading its workgroup memory.
    pub(super) only_tile: bool,
    /// Whether the first warp may set a tile up for a block of several warps
    /// ([`KernelBuilder::tile_set_up_by_first_warp`]), and the workgroup bytes it took.
    first_warp_set_up: bool,
    set_up_bytes: i64,
    pub(super) location: Location,
    /// The `gpu.func` and its entry block (workgroup attributions are appended to it).
    pub(super) func: OpId,
    pub(super) entry: BlockId,
    /// The fields of the tile being emitted that live in workgroup memory, by kernel argument.
    pub(super) staged: HashMap<ValueId, StagedField>,
    /// The workgroup buffers so far, described for error messages, and their total size.
    pub(super) shared: Vec<String>,
    pub(super) shared_bytes: i64,
    /// The workgroup attributions by what they hold: staged code emitted twice for one tile
    /// (the full-tile and the partial-tile branch, never both in one block at once) shares them.
    pub(super) workgroup: HashMap<WorkgroupKey, ValueId>,
}

/// What a workgroup attribution holds: an array's buffer (`base: None`) or the mask of one of
/// its footprint bases, with the box extent.
pub(super) type WorkgroupKey = (usize, Option<usize>, Vec<i64>);

impl KernelBuilder<'_, '_> {
    fn expr(&self, form: &stencil_poly::AffineForm) -> AffineExpr {
        let nd = self.input.nest.space.n_dims();
        affine_expr_of_form(form, |c| dim_or_symbol(c, nd))
    }

    fn constant(&mut self, at: InsertPoint, c: i64) -> ValueId {
        index_constant(self.ir, at, c, &self.location)
    }

    pub(super) fn barrier(&mut self, at: InsertPoint) {
        ops::barrier(self.ir, at, &self.location);
    }

    /// `memref.alloca() : memref<1xindex>` holding 0.
    fn alloca_counter(&mut self, at: InsertPoint) -> ValueId {
        let mut s = OperationState::new("memref.alloca", self.location.clone());
        s.add_property("operandSegmentSizes", Attribute::dense_i32(&[0, 0]));
        s.result_types = vec![Type::memref(MemRefType::new(vec![Dim::Static(1)], Type::Index))];
        let op = self.ir.build(at, s);
        let counter = self.ir.result(op, 0);
        let zero = self.constant(at, 0);
        self.store_index(at, zero, counter, zero);
        counter
    }

    fn store_index(&mut self, at: InsertPoint, value: ValueId, memref: ValueId, index: ValueId) {
        let mut s = OperationState::new("memref.store", self.location.clone());
        s.operands = vec![value, memref, index];
        self.ir.build(at, s);
    }

    /// Loop bounds `[lo, hi)`: the maximum of the ceiled lower bounds, the minimum of the
    /// floored upper bounds plus one.
    fn bounds(&mut self, l: &ForLoop, at: InsertPoint) -> Result<(ValueId, ValueId), String> {
        let nd = self.input.nest.space.n_dims();
        let lower: Vec<AffineExpr> = l.lower.iter().map(|b| self.bound_expr(b, true, nd)).collect();
        let upper: Vec<AffineExpr> = l
            .upper
            .iter()
            .map(|b| AffineExpr::binary(AffineBinOp::Add, self.bound_expr(b, false, nd), AffineExpr::Constant(1)))
            .collect();
        let location = self.location.clone();
        let indexer = ArithIndexer { dims: &self.dims, params: &self.params };
        let lo = indexer.fold(self.ir, at, &lower, true, &location)?;
        let hi = indexer.fold(self.ir, at, &upper, false, &location)?;
        Ok((lo, hi))
    }

    /// `scf.for %iv = lo to hi step step {}`; returns the induction variable and where the body
    /// goes.
    pub(super) fn scf_for(
        &mut self,
        at: InsertPoint,
        lo: ValueId,
        hi: ValueId,
        step: ValueId,
    ) -> (ValueId, InsertPoint) {
        ops::scf_for(self.ir, at, lo, hi, step, &self.location)
    }

    /// `scf.if %cond {}`; returns where the then-body goes.
    pub(super) fn scf_if(&mut self, at: InsertPoint, cond: ValueId) -> InsertPoint {
        ops::scf_if(self.ir, at, cond, &self.location)
    }

    pub(super) fn node(&mut self, node: &LoopAst, at: InsertPoint, level: Level) -> Result<(), String> {
        match node {
            LoopAst::For(l) if level == Level::Thread => {
                let (lo, hi) = self.bounds(l, at)?;
                let step = self.constant(at, l.step);
                let (iv, inner) = self.scf_for(at, lo, hi, step);
                self.with_dim(l.dim, iv, |k| k.node(&l.body, inner, Level::Thread))
            }
            LoopAst::For(l) if is_tile_loop(self.input.nest, l) => self.tile_loop(l, at),
            LoopAst::For(l) if l.parallel => self.thread_loops(l, at),
            LoopAst::For(l) => {
                if !self.in_tile && self.input.grid > 1 {
                    return Err(format!(
                        "a sequential loop over `{}` outside the tiles of a kernel would need grid-wide synchronisation; tile the program (poly-tile) so that sequential loops run inside tiles or on the host",
                        self.input.nest.dims.get(l.dim).map_or("?", |d| d.name.as_str())
                    ));
                }
                let (lo, hi) = self.bounds(l, at)?;
                let step = self.constant(at, l.step);
                let (iv, inner) = self.scf_for(at, lo, hi, step);
                self.with_dim(l.dim, iv, |k| k.node(&l.body, inner, Level::Block))?;
                // Every thread finishes this step (an intra-tile wavefront) before any starts
                // the next (thesis §3.3.2: a barrier after each intra-tile wavefront).
                self.barrier(inner);
                Ok(())
            }
            LoopAst::If { guards, then } => match self.guards_value(at, guards, &self.dims.clone())? {
                Some(c) => {
                    let inner = self.scf_if(at, c);
                    self.node(then, inner, level)
                }
                None => self.node(then, at, level),
            },
            LoopAst::Stmt { statement, iter_values } => {
                let at = if level == Level::Block { self.first_thread_only(at) } else { at };
                let iters: Vec<AffineExpr> = iter_values.iter().map(|f| self.expr(f)).collect();
                let inner = ArithIndexer { dims: &self.dims, params: &self.params };
                let mut indexer = StagedIndexer { inner, staged: &self.staged };
                copy_statement(self.ir, self.input.info, *statement, &iters, &self.args, at, &mut indexer)
            }
            LoopAst::Seq(items) => {
                for (n, item) in items.iter().enumerate() {
                    self.node(item, at, level)?;
                    // Statement groups of one wavefront step run in order (thesis Fig. 4.7).
                    if level == Level::Block && n + 1 < items.len() {
                        self.barrier(at);
                    }
                }
                Ok(())
            }
        }
    }

    /// The conjunction of `guards` over the dimensions `scope` (then the parameters); `None`
    /// when there are none.
    pub(super) fn guards_value(
        &mut self,
        at: InsertPoint,
        guards: &[Guard],
        scope: &[Option<ValueId>],
    ) -> Result<Option<ValueId>, String> {
        let location = self.location.clone();
        let nd = scope.len();
        let mut cond: Option<ValueId> = None;
        for g in guards {
            let e = affine_expr_of_form(&g.expr, |c| dim_or_symbol(c, nd));
            let v = ArithIndexer { dims: scope, params: &self.params }.value(self.ir, at, &e, &location)?;
            let zero = self.constant(at, 0);
            let c = compare(self.ir, at, if g.kind == GuardKind::Zero { EQ } else { SGE }, v, zero, &location);
            cond = Some(match cond {
                None => c,
                Some(a) => binary(self.ir, at, "arith.andi", a, c, Type::I1, &location),
            });
        }
        Ok(cond)
    }

    /// Runs `f` with dimension `dim` bound to `iv`.
    fn with_dim(
        &mut self,
        dim: usize,
        iv: ValueId,
        f: impl FnOnce(&mut Self) -> Result<(), String>,
    ) -> Result<(), String> {
        let saved = self.dims.get(dim).copied().flatten();
        if let Some(d) = self.dims.get_mut(dim) {
            *d = Some(iv);
        }
        let result = f(self);
        if let Some(d) = self.dims.get_mut(dim) {
            *d = saved;
        }
        result
    }

    /// A block-level statement runs on one thread (of one block outside tiles).
    fn first_thread_only(&mut self, at: InsertPoint) -> InsertPoint {
        let location = self.location.clone();
        let linear = self.linear_thread(at, 0);
        let zero = self.constant(at, 0);
        let mut cond = compare(self.ir, at, EQ, linear, zero, &location);
        if !self.in_tile {
            let b = compare(self.ir, at, EQ, self.bid, zero, &location);
            cond = binary(self.ir, at, "arith.andi", cond, b, Type::I1, &location);
        }
        self.scf_if(at, cond)
    }

    /// The thread id linearised over dimensions `from..3` (`from = 0`: the whole block).
    pub(super) fn linear_thread(&mut self, at: InsertPoint, from: usize) -> ValueId {
        let location = self.location.clone();
        let mut id = self.tid[2];
        for d in (from..2).rev() {
            let scaled = binary(self.ir, at, "arith.muli", id, self.bdim[d], Type::Index, &location);
            id = binary(self.ir, at, "arith.addi", scaled, self.tid[d], Type::Index, &location);
        }
        id
    }

    /// Threads along dimensions `from..3` (the product of the block sizes).
    pub(super) fn thread_count(&mut self, at: InsertPoint, from: usize) -> ValueId {
        let n = self.threads_along(from);
        self.constant(at, n)
    }

    /// [`KernelBuilder::thread_count`] as a number.
    pub(super) fn threads_along(&self, from: usize) -> i64 {
        self.input.block[from.min(3)..].iter().product()
    }

    /// `min_g max_k ⌈lower⌉` (`lower`) or `max_g min_k ⌊upper⌋` of a range, at `at`.
    fn range_value(&mut self, range: &DimensionRange, lower: bool, at: InsertPoint) -> Result<ValueId, String> {
        let nd = self.input.nest.space.n_dims();
        let location = self.location.clone();
        let groups = if lower { &range.lower } else { &range.upper };
        let mut acc: Option<ValueId> = None;
        for group in groups {
            let exprs: Vec<AffineExpr> = group.iter().map(|b| self.bound_expr(b, lower, nd)).collect();
            let indexer = ArithIndexer { dims: &self.dims, params: &self.params };
            let v = indexer.fold(self.ir, at, &exprs, lower, &location)?;
            acc = Some(match acc {
                None => v,
                Some(a) => {
                    binary(self.ir, at, if lower { "arith.minsi" } else { "arith.maxsi" }, a, v, Type::Index, &location)
                }
            });
        }
        acc.ok_or_else(|| "a tile range without bounds".to_string())
    }

    /// The tiles of `chain` one per block: loop `i` (0 = outermost) on grid axis
    /// `len − 1 − i`. The outermost coordinate is the range's start plus the block id, then
    /// the loop's exact bounds are a guard; an inner one is its loop's exact lower bound (given
    /// the outer coordinates) plus the block id, up to its exact upper bound — so the host
    /// sizes inner axes to the most tiles one outer coordinate has (`TileAxis::extent`), not to
    /// the range over the whole wavefront.
    ///
    /// With `offsets` (one per grid axis, x first: [`KernelInput::one_tile_per_block`]) each
    /// block runs at most one tile, its coordinate plus the launch's offset, behind a guard.
    /// Without, blocks stride by the grid size (the host capped it at `gpu-map{grid=…}`). The
    /// loop costs registers far beyond its work: LLVM's loop strength reduction turns every
    /// bound of the tile that is affine in the loop's coordinate into an induction variable of
    /// its own, live across the whole tile (2-D SOR, 32-bit index: 121 registers with the
    /// loops, 47 without).
    fn direct_tiles(
        &mut self,
        chain: &[&ForLoop],
        ranges: &[DimensionRange],
        offsets: Option<&[ValueId]>,
        at: InsertPoint,
    ) -> Result<(), String> {
        let saved = self.dims.clone();
        let was_only = std::mem::replace(&mut self.only_tile, offsets.is_some());
        let result = if self.first_warp_set_up && offsets.is_some() && self.threads_along(0) > WARP_SIZE {
            self.tile_set_up_by_first_warp(chain, ranges, offsets, at)
        } else {
            self.tile_coordinates(chain, ranges, offsets, at).and_then(|inner| {
                let last = chain[chain.len() - 1];
                let (full, is_full) = self.full_tile_choice(last, inner)?;
                self.tile_code(last, full.as_ref(), is_full, inner)
            })
        };
        self.only_tile = was_only;
        self.dims = saved;
        result
    }

    /// Counts a workgroup buffer of `bytes` towards the kernel's shared memory (`description`
    /// for the error past the limit), rounded up to the buffers' alignment as the layout places
    /// them (`stencil_dialects::gpu::workgroup_layout`; the last buffer's padding is counted too,
    /// as `stencil_tilemodel::footprint::staged_shared_bytes` counts it): a kernel within the
    /// limit by the raw sum could pass it once laid out. Returns the bytes counted.
    pub(super) fn count_workgroup_bytes(&mut self, description: String, bytes: i64) -> i64 {
        let align = stencil_dialects::gpu::WORKGROUP_BUFFER_ALIGNMENT as i64;
        let padded = bytes.saturating_add(align - 1) / align * align;
        self.shared.push(description);
        self.shared_bytes = self.shared_bytes.saturating_add(padded);
        padded
    }

    /// The full-tile code for the tile whose last tile loop is `last` (its dimensions set), and
    /// with full tiles separated the test whether the tile is full, at `at`.
    fn full_tile_choice(
        &mut self,
        last: &ForLoop,
        at: InsertPoint,
    ) -> Result<(Option<FullTiles>, Option<ValueId>), String> {
        let full = self.full_tile_code(last.dim + 1);
        let is_full = match &full {
            Some(f) if self.input.full_tiles => Some(self.full_test(f, at)?),
            _ => None,
        };
        Ok((full, is_full))
    }

    /// The coordinates of the block's tile ([`KernelBuilder::direct_tiles`]) into `self.dims`;
    /// returns where the code for a tile that exists goes.
    fn tile_coordinates(
        &mut self,
        chain: &[&ForLoop],
        ranges: &[DimensionRange],
        offsets: Option<&[ValueId]>,
        at: InsertPoint,
    ) -> Result<InsertPoint, String> {
        let location = self.location.clone();
        let mut inner = at;
        let n = chain.len();
        for (i, (l, range)) in chain.iter().zip(ranges).enumerate() {
            let axis = n - 1 - i;
            let offset = offsets.and_then(|o| o.get(axis).copied());
            if i > 0 {
                let (lo, hi) = self.bounds(l, inner)?;
                // One tile per block: the host sized this axis to at most the values of its
                // range over the launch (`TileAxis::range`), which can be fewer than the
                // loop's own bounds hold for one outer coordinate: where several statements'
                // tiles share the loop its bounds may take values below the range that have
                // no tile (a 2-D program of two statements with shifted schedules lost the
                // tiles at the end of such loops). Starting at the range's start where that is
                // later skips no tile (none lies before it), and then at most the range's
                // values follow.
                let lo = match offset {
                    Some(_) => {
                        let first = self.range_value(range, true, inner)?;
                        binary(self.ir, inner, "arith.maxsi", lo, first, Type::Index, &location)
                    }
                    None => lo,
                };
                let start = binary(self.ir, inner, "arith.addi", lo, self.bids[axis], Type::Index, &location);
                let (v, body) = match offset {
                    Some(o) => {
                        let v = binary(self.ir, inner, "arith.addi", start, o, Type::Index, &location);
                        let below = compare(self.ir, inner, SLT, v, hi, &location);
                        (v, self.scf_if(inner, below))
                    }
                    None => self.scf_for(inner, start, hi, self.grids[axis]),
                };
                if let Some(d) = self.dims.get_mut(l.dim) {
                    *d = Some(v);
                }
                inner = body;
                continue;
            }
            let first = self.range_value(range, true, inner)?;
            let last = self.range_value(range, false, inner)?;
            if let Some(o) = offset {
                // The outermost loop's range is its own bounds (`tile_ranges`), so a tile at or
                // after the range's start is in the loop once it is not past the range's end.
                let start = binary(self.ir, inner, "arith.addi", first, self.bids[axis], Type::Index, &location);
                let v = binary(self.ir, inner, "arith.addi", start, o, Type::Index, &location);
                let inside = compare(self.ir, inner, SLE, v, last, &location);
                if let Some(d) = self.dims.get_mut(l.dim) {
                    *d = Some(v);
                }
                inner = self.scf_if(inner, inside);
                continue;
            }
            let one = self.constant(inner, 1);
            let end = binary(self.ir, inner, "arith.addi", last, one, Type::Index, &location);
            let start = binary(self.ir, inner, "arith.addi", first, self.bids[axis], Type::Index, &location);
            let (v, body) = self.scf_for(inner, start, end, self.grids[axis]);
            if let Some(d) = self.dims.get_mut(l.dim) {
                *d = Some(v);
            }
            let (lo, hi) = self.bounds(l, body)?;
            let above = compare(self.ir, body, SGE, v, lo, &location);
            let below = compare(self.ir, body, SLT, v, hi, &location);
            let inside = binary(self.ir, body, "arith.andi", above, below, Type::I1, &location);
            inner = self.scf_if(body, inside);
        }
        Ok(inner)
    }

    /// [`KernelBuilder::direct_tiles`] with one tile per block, the tile's set-up computed by
    /// the first warp alone: its coordinates, whether it exists and whether it is full are
    /// uniform over the block, and the other warps would only repeat the same chains of
    /// `max`/`min` over ceiled and floored bounds (for 3-D SOR tiles of 3×6×6×6 on a block of 8
    /// warps, two thirds of the kernel's warp-instructions). The first warp leaves them in a
    /// few words of workgroup memory; after a barrier every thread reads them.
    fn tile_set_up_by_first_warp(
        &mut self,
        chain: &[&ForLoop],
        ranges: &[DimensionRange],
        offsets: Option<&[ValueId]>,
        at: InsertPoint,
    ) -> Result<(), String> {
        let location = self.location.clone();
        let n = chain.len();
        // Slots: whether the block has a tile, whether it is full, then the coordinates.
        const EXISTS: i64 = 0;
        const FULL: i64 = 1;
        const FIRST_COORDINATE: i64 = 2;
        let slots = FIRST_COORDINATE + n as i64;
        let bytes = slots * 8;
        let counted = self.count_workgroup_bytes(format!("tile set-up: {slots} × i64 = {bytes} bytes"), bytes);
        self.set_up_bytes = self.set_up_bytes.saturating_add(counted);
        // `i64` words: a workgroup buffer needs a sized element type, and a coordinate fits.
        let buffer = ops::workgroup_buffer(self.ir, self.func, self.entry, &[slots], &Type::I64);
        let put = |k: &mut Self, at: InsertPoint, value: ValueId, s: i64| {
            let word = index_cast(k.ir, at, value, Type::I64, &location);
            let s = k.constant(at, s);
            store(k.ir, at, word, buffer, vec![s], &location);
        };
        let get = |k: &mut Self, at: InsertPoint, s: i64| {
            let s = k.constant(at, s);
            let word = load(k.ir, at, buffer, vec![s], Type::I64, &location);
            index_cast(k.ir, at, word, Type::Index, &location)
        };
        let linear = self.linear_thread(at, 0);
        let warp = self.constant(at, WARP_SIZE);
        let zero = self.constant(at, 0);
        let in_first_warp = compare(self.ir, at, SLT, linear, warp, &location);
        let is_first_thread = compare(self.ir, at, EQ, linear, zero, &location);
        let warp_at = self.scf_if(at, in_first_warp);
        let write_at = self.scf_if(warp_at, is_first_thread);
        put(self, write_at, zero, EXISTS);
        let inner = self.tile_coordinates(chain, ranges, offsets, warp_at)?;
        let last = chain[n - 1];
        let (full, is_full) = self.full_tile_choice(last, inner)?;
        let write_at = self.scf_if(inner, is_first_thread);
        let one = self.constant(write_at, 1);
        put(self, write_at, one, EXISTS);
        if let Some(f) = is_full {
            let flag = select(self.ir, write_at, f, one, zero, &location);
            put(self, write_at, flag, FULL);
        }
        for (i, l) in chain.iter().enumerate() {
            let v = self.dims.get(l.dim).copied().flatten().ok_or("a tile coordinate without value")?;
            put(self, write_at, v, FIRST_COORDINATE + i as i64);
        }
        self.barrier(at);
        let exists = get(self, at, EXISTS);
        let exists = compare(self.ir, at, NE, exists, zero, &location);
        let body = self.scf_if(at, exists);
        for (i, l) in chain.iter().enumerate() {
            let v = get(self, body, FIRST_COORDINATE + i as i64);
            if let Some(d) = self.dims.get_mut(l.dim) {
                *d = Some(v);
            }
        }
        let is_full = match is_full {
            Some(_) => {
                let flag = get(self, body, FULL);
                Some(compare(self.ir, body, NE, flag, zero, &location))
            }
            None => None,
        };
        self.tile_code(last, full.as_ref(), is_full, body)
    }

    /// The code of the block's tile at `at`, the tile loops' dimensions set: the full-tile code
    /// and the partial tiles' code behind `is_full` when full tiles are separated.
    fn tile_code(
        &mut self,
        last: &ForLoop,
        full: Option<&FullTiles>,
        is_full: Option<ValueId>,
        at: InsertPoint,
    ) -> Result<(), String> {
        let was = std::mem::replace(&mut self.in_tile, true);
        let guarded = self.input.partial_tiles == PartialTiles::Guarded;
        let result = match (full, is_full) {
            (Some(full), Some(is_full)) => {
                // Full tiles (wholly inside the domains) scan with the tile's bounds alone; the
                // test is uniform over the block, so the barriers inside stay uniform.
                let (then_at, else_at) = ops::scf_if_else(self.ir, at, is_full, &self.location.clone());
                let partial = if guarded { &full.guarded } else { &last.body };
                self.tile_body(&full.body, then_at).and_then(|()| self.tile_body(partial, else_at))
            }
            (Some(full), None) => self.tile_body(&full.guarded, at),
            (None, _) => self.tile_body(&last.body, at),
        };
        self.in_tile = was;
        result
    }

    /// One tile's code at `at`: staged in shared memory or on global memory.
    fn tile_body(&mut self, body: &LoopAst, at: InsertPoint) -> Result<(), String> {
        if self.input.staging {
            self.staged_tile(body, at)
        } else {
            self.node(body, at, Level::Block)
        }
    }

    /// The full-tile code below the first `outer` dimensions, when full tiles or guarded
    /// partial tiles are asked for and the analysis succeeds (it may not, within the projection
    /// limits: then every tile takes the general code).
    fn full_tile_code(&self, outer: usize) -> Option<FullTiles> {
        if !self.input.full_tiles && self.input.partial_tiles != PartialTiles::Guarded {
            return None;
        }
        match full_tiles(self.input.tiled, &self.input.info.scop, outer, &ScanOptions::default()) {
            // Every prefix dimension the code uses must be known here (a scalar dimension of the
            // statement order, fixed only inside its group, is not).
            Ok(full)
                if full
                    .prefix_dimensions_used(outer)
                    .iter()
                    .all(|&c| self.dims.get(c).copied().flatten().is_some()) =>
            {
                Some(full)
            }
            Ok(_) => {
                tracing::debug!("no full-tile separation: the code refers to a dimension without a value here");
                None
            }
            Err(e) => {
                tracing::debug!(error = %e, "no full-tile separation for this kernel");
                None
            }
        }
    }

    /// Whether the current tile is full: outside every set of [`FullTiles::partial_when`] (each
    /// a conjunction of guards: the tile is outside when one of them fails).
    fn full_test(&mut self, full: &FullTiles, at: InsertPoint) -> Result<ValueId, String> {
        let location = self.location.clone();
        let nd = self.input.nest.space.n_dims();
        let mut all: Option<ValueId> = None;
        for set in &full.partial_when {
            let mut any_fails: Option<ValueId> = None;
            for g in set {
                let e = affine_expr_of_form(&g.expr, |c| dim_or_symbol(c, nd));
                let v = ArithIndexer { dims: &self.dims, params: &self.params }.value(self.ir, at, &e, &location)?;
                let zero = self.constant(at, 0);
                let predicate = if g.kind == GuardKind::Zero { NE } else { SLT };
                let fails = compare(self.ir, at, predicate, v, zero, &location);
                any_fails = Some(match any_fails {
                    None => fails,
                    Some(a) => binary(self.ir, at, "arith.ori", a, fails, Type::I1, &location),
                });
            }
            let outside = any_fails.ok_or("a partial-tile set without guards")?;
            all = Some(match all {
                None => outside,
                Some(a) => binary(self.ir, at, "arith.andi", a, outside, Type::I1, &location),
            });
        }
        Ok(match all {
            Some(v) => v,
            None => true_constant(self.ir, at, &location),
        })
    }

    /// A parallel tile loop: every tile gets the next value of the block's counter and runs
    /// on block `counter mod gridDim` (thesis §5.2.2's cyclic distribution of the linearised
    /// tiles of a wavefront).
    fn tile_loop(&mut self, l: &ForLoop, at: InsertPoint) -> Result<(), String> {
        let (lo, hi) = self.bounds(l, at)?;
        let step = self.constant(at, l.step);
        let (iv, inner) = self.scf_for(at, lo, hi, step);
        self.with_dim(l.dim, iv, |k| {
            if contains_tile_loop(k.input.nest, &l.body) {
                return k.node(&l.body, inner, Level::Block);
            }
            let counter = k.counter.ok_or("a tile loop in a kernel without tile counter")?;
            let location = k.location.clone();
            let zero = k.constant(inner, 0);
            let one = k.constant(inner, 1);
            let mut s = OperationState::new("memref.load", location.clone());
            s.operands = vec![counter, zero];
            s.result_types = vec![Type::Index];
            let load = k.ir.build(inner, s);
            let count = k.ir.result(load, 0);
            let next = binary(k.ir, inner, "arith.addi", count, one, Type::Index, &location);
            k.store_index(inner, next, counter, zero);
            let owner = binary(k.ir, inner, "arith.remui", count, k.nblocks, Type::Index, &location);
            let mine = compare(k.ir, inner, EQ, owner, k.bid, &location);
            let body = k.scf_if(inner, mine);
            let was = std::mem::replace(&mut k.in_tile, true);
            let result =
                if k.input.staging { k.staged_tile(&l.body, body) } else { k.node(&l.body, body, Level::Block) };
            k.in_tile = was;
            result
        })
    }

    /// Up to three directly nested parallel loops distributed cyclically over the threads
    /// (innermost on x); outside tiles the outermost one also strides over the grid.
    fn thread_loops(&mut self, first: &ForLoop, at: InsertPoint) -> Result<(), String> {
        let mut chain = vec![first];
        while chain.len() < 3 {
            let LoopAst::For(next) = chain[chain.len() - 1].body.as_ref() else { break };
            if !next.parallel || is_tile_loop(self.input.nest, next) || next.step != 1 {
                break;
            }
            chain.push(next);
        }
        if first.step != 1 {
            chain.truncate(1);
        }
        let m = chain.len();
        // The points' guards as windows of the thread loops' variables (`PointGuards`).
        let last = chain[m - 1];
        let items: Vec<&LoopAst> = match last.body.as_ref() {
            LoopAst::Seq(items) => items.iter().collect(),
            other => vec![other],
        };
        let dims: Vec<usize> = chain.iter().map(|l| l.dim).collect();
        let fixed: Vec<bool> = (0..m).map(|q| self.fixed_turn(&chain, q)).collect();
        let guards = items
            .iter()
            .map(|item| match item {
                LoopAst::If { guards, .. } => Some(PointGuards::split(guards, &dims, &fixed)),
                _ => None,
            })
            .collect();
        self.thread_chain(&chain, 0, m, at, guards, &items)
    }

    /// Whether loop `q` of the thread-mapped `chain` gives each thread one fixed point: an
    /// inner loop (not the outermost, which may also stride over the grid) of a tile with at
    /// most as many iterations as threads along its axis, whose lower bounds involve no loop of
    /// the chain — so a thread's point is `lower + thread id` before any loop of the chain
    /// starts ([`KernelBuilder::bind_fixed_turns`]).
    fn fixed_turn(&self, chain: &[&ForLoop], q: usize) -> bool {
        let m = chain.len();
        let Some(l) = chain.get(q) else { return false };
        q > 0
            && self.in_tile
            && l.step == 1
            && max_trips(l).is_some_and(|t| t <= self.input.block[m - 1 - q])
            && l.lower.iter().all(|b| chain.iter().all(|c| b.expr.coeff(c.dim) == 0))
    }

    /// Binds the variables of the fixed-turn loops of `chain` after `p` (`fixed_turn`) to each
    /// thread's point, so that the windows of loop `p` may involve them; returns what to
    /// restore.
    fn bind_fixed_turns(
        &mut self,
        chain: &[&ForLoop],
        p: usize,
        at: InsertPoint,
    ) -> Result<Vec<(usize, Option<ValueId>)>, String> {
        let m = chain.len();
        let location = self.location.clone();
        let mut saved = vec![];
        for q in p + 1..m {
            if !self.fixed_turn(chain, q) {
                continue;
            }
            let l = chain[q];
            let (lo, _) = self.bounds(l, at)?;
            let start = binary(self.ir, at, "arith.addi", lo, self.tid[m - 1 - q], Type::Index, &location);
            if let Some(d) = self.dims.get_mut(l.dim) {
                saved.push((l.dim, *d));
                *d = Some(start);
            }
        }
        Ok(saved)
    }

    /// Loop `p` of the thread-mapped `chain` (`m` loops) at `at`, and inside it the rest; the
    /// innermost body's `items` run with their guards `guards` (one per item, `None` for an
    /// item that is not a guard).
    fn thread_chain(
        &mut self,
        chain: &[&ForLoop],
        p: usize,
        m: usize,
        at: InsertPoint,
        mut guards: Vec<Option<PointGuards>>,
        items: &[&LoopAst],
    ) -> Result<(), String> {
        let Some(l) = chain.get(p) else {
            for (item, point) in items.iter().zip(guards) {
                match (item, point) {
                    (LoopAst::If { then, .. }, Some(point)) => {
                        let body = match self.point_holds(at, &point, chain)? {
                            Some(c) => self.scf_if(at, c),
                            None => at,
                        };
                        self.node(then, body, Level::Thread)?;
                    }
                    (item, _) => self.node(item, at, Level::Thread)?,
                }
            }
            return Ok(());
        };
        let location = self.location.clone();
        // Loop p (0 = outermost) is on thread dimension m - 1 - p; the outermost takes every
        // dimension from there up, so no thread is left without points.
        let d = m - 1 - p;
        let (mut id, mut size) =
            if p == 0 { (self.linear_thread(at, d), self.thread_count(at, d)) } else { (self.tid[d], self.bdim[d]) };
        if p == 0 && !self.in_tile {
            let base = binary(self.ir, at, "arith.muli", self.bid, size, Type::Index, &location);
            id = binary(self.ir, at, "arith.addi", base, id, Type::Index, &location);
            size = binary(self.ir, at, "arith.muli", size, self.nblocks, Type::Index, &location);
        }
        let (mut lo, mut hi) = self.bounds(l, at)?;
        // The windows of this loop's variable, before the loop (with the points of the fixed
        // turns inside it bound: the windows may involve them).
        let saved = self.bind_fixed_turns(chain, p, at)?;
        let windows: Result<(), String> =
            guards.iter_mut().flatten().try_for_each(|point| point.window(self, p, l.dim, at));
        for (dim, value) in saved.into_iter().rev() {
            if let Some(d) = self.dims.get_mut(dim) {
                *d = value;
            }
        }
        windows?;
        // A loop of at most as many iterations as it has threads gives each thread one turn or
        // none: a test, not a loop (below).
        let threads = if p == 0 { self.threads_along(d) } else { self.input.block[d] };
        let trips = max_trips(l);
        let single_turn = self.in_tile && trips.is_some_and(|t| t <= threads);
        // With one guarded item in the chain, its windows on a loop's variable bound the loop
        // itself: the threads deal out the window's points (any thread may run any point of a
        // parallel loop) instead of running turns that only test a point against it — skewed
        // tiles' windows are often half their bounding box (3-D SOR on global-memory tiles:
        // half the point loop's turns ran only the test). Not for a single turn: there the
        // test costs what the clipping does, and a thread's point stays independent of the
        // window, so it is computed once per tile rather than at every intra-tile step.
        let mut clipped = false;
        if let [Some(point)] = guards.as_mut_slice() {
            if l.step == 1 && !single_turn {
                for (lower, bound) in point.take_bounds(p) {
                    if lower {
                        lo = binary(self.ir, at, "arith.maxsi", lo, bound, Type::Index, &location);
                    } else {
                        let one = self.constant(at, 1);
                        let end = binary(self.ir, at, "arith.addi", bound, one, Type::Index, &location);
                        hi = binary(self.ir, at, "arith.minsi", hi, end, Type::Index, &location);
                    }
                    clipped = true;
                }
            }
        }
        let start = binary(self.ir, at, "arith.addi", lo, id, Type::Index, &location);
        let step = if l.step == 1 {
            size
        } else {
            let s = self.constant(at, l.step);
            binary(self.ir, at, "arith.muli", size, s, Type::Index, &location)
        };
        // The single turn: a test, not a loop (its counter, compare and branch twice per
        // point; a tile of 16 on a block of 16 is such a loop along every axis). When the loop
        // has exactly as many iterations as threads (one lower and one upper bound a constant
        // apart), every thread has its turn and not even the test is needed.
        let (iv, inner) = match trips {
            Some(trips) if self.in_tile && !clipped && trips == threads && l.lower.len() == 1 && l.upper.len() == 1 => {
                (start, at)
            }
            Some(_) if single_turn => {
                let inside = compare(self.ir, at, SLT, start, hi, &location);
                (start, self.scf_if(at, inside))
            }
            _ => self.scf_for(at, start, hi, step),
        };
        self.with_dim(l.dim, iv, |k| k.thread_chain(chain, p + 1, m, inner, guards, items))
    }

    /// Whether a point passes `point`'s guards: its windows and the rest.
    fn point_holds(
        &mut self,
        at: InsertPoint,
        point: &PointGuards,
        chain: &[&ForLoop],
    ) -> Result<Option<ValueId>, String> {
        let location = self.location.clone();
        let mut cond = self.guards_value(at, &point.rest, &self.dims.clone())?;
        for &(p, lower, bound) in &point.bounds {
            let x = self.dims.get(chain[p].dim).copied().flatten().ok_or("a thread loop without its variable")?;
            let holds = compare(self.ir, at, if lower { SGE } else { SLE }, x, bound, &location);
            cond = Some(match cond {
                Some(c) => binary(self.ir, at, "arith.andi", c, holds, Type::I1, &location),
                None => holds,
            });
        }
        Ok(cond)
    }
}

/// An upper bound on the iterations of `l` from its bounds alone: the least `u − l + 1` over
/// its lower bounds `l` and (inclusive) upper bounds `u` whose difference is a constant (both
/// without divisor), divided by the step; `None` when no pair gives one.
fn max_trips(l: &ForLoop) -> Option<i64> {
    let step = l.step.max(1);
    let mut best: Option<i64> = None;
    for lower in l.lower.iter().filter(|b| b.divisor == 1) {
        for upper in l.upper.iter().filter(|b| b.divisor == 1) {
            let Ok(span) = upper.expr.checked_sub(&lower.expr) else { continue };
            if !span.is_constant() {
                continue;
            }
            let trips = span.constant().checked_add(step)?.div_euclid(step).max(0);
            best = Some(best.map_or(trips, |b| b.min(trips)));
        }
    }
    best
}

/// The guards of a point inside thread-mapped loops, for evaluation as early as they can be:
/// each `a + c·x ≥ 0` with `c ≠ 0` on the variable `x` of the innermost of those loops it
/// involves is `x ≥ ⌈−a/c⌉` (`c > 0`) or `x ≤ ⌊a/(−c)⌋` (`c < 0`), and the largest lower and
/// smallest upper bound of each loop are computed before that loop; a point tests its
/// variables against them. The other guards (equalities, or none of the loops' variables) are
/// tested as they are. Evaluated per point, each guard expression — affine in the loop
/// variables — became an induction variable of its own in every enclosing loop through LLVM's
/// loop strength reduction: in partial tiles of 2-D Jacobi, more registers than all the rest of
/// the kernel.
struct PointGuards {
    /// Per loop of the chain (0 = outermost), its guards not yet evaluated, as bounds
    /// (`lower`, bound).
    pending: Vec<Vec<(bool, Bound)>>,
    /// The evaluated bounds: (loop, `lower`, value).
    bounds: Vec<(usize, bool, ValueId)>,
    /// The guards tested as they are.
    rest: Vec<Guard>,
}

impl PointGuards {
    /// `guards` split over the chain's loops, whose dimensions are `dims` (outermost first).
    /// A guard bounds the innermost loop it involves, or, where the loops inside it that it
    /// involves give each thread a fixed point (`fixed`), the innermost other loop it involves:
    /// its bound is then computed once before that loop instead of at each of its turns (3-D SOR
    /// on a 20×8×1 block: the guards of `j` and `k` for each of the thread's rows of `i`
    /// become one window of `i`).
    fn split(guards: &[Guard], dims: &[usize], fixed: &[bool]) -> PointGuards {
        let mut pending = vec![Vec::new(); dims.len()];
        let mut rest = Vec::new();
        for g in guards {
            let involved = |p: &usize| g.expr.coeff(dims[*p]) != 0;
            let level = (0..dims.len())
                .rev()
                .filter(involved)
                .find(|&p| !fixed.get(p).copied().unwrap_or(false))
                .or_else(|| (0..dims.len()).rev().find(involved));
            let bound = match (g.kind, level) {
                (GuardKind::NonNegative, Some(p)) => Self::bound(g, dims[p]).map(|b| (p, b)),
                _ => None,
            };
            match bound {
                Some((p, b)) => pending[p].push(b),
                None => rest.push(g.clone()),
            }
        }
        PointGuards { pending, bounds: Vec::new(), rest }
    }

    /// `a + c·x ≥ 0` (`x` the column `dim`) as a bound on `x`: (`lower`, `⌈−a/c⌉` or
    /// `⌊a/(−c)⌋`); `None` when the forms cannot be built.
    fn bound(g: &Guard, dim: usize) -> Option<(bool, Bound)> {
        let c = g.expr.coeff(dim);
        let unit = stencil_poly::AffineForm::unit(g.expr.n_columns(), dim).ok()?;
        let a = stencil_poly::AffineForm::combine(1, &g.expr, -c, &unit).ok()?;
        if c > 0 {
            let minus_a = stencil_poly::AffineForm::combine(-1, &a, 0, &a).ok()?;
            Some((true, Bound { expr: minus_a, divisor: c }))
        } else {
            Some((false, Bound { expr: a, divisor: -c }))
        }
    }

    /// The evaluated bounds of loop `p` (`lower`, value), no longer tested per point.
    fn take_bounds(&mut self, p: usize) -> Vec<(bool, ValueId)> {
        let (taken, kept) = std::mem::take(&mut self.bounds).into_iter().partition(|&(loop_, _, _)| loop_ == p);
        self.bounds = kept;
        taken.into_iter().map(|(_, lower, v)| (lower, v)).collect()
    }

    /// Evaluates the bounds of loop `p` (over dimension `dim`) at `at`, before the loop.
    fn window(&mut self, k: &mut KernelBuilder<'_, '_>, p: usize, dim: usize, at: InsertPoint) -> Result<(), String> {
        let nd = k.input.nest.space.n_dims();
        let location = k.location.clone();
        let mut folded: [Option<ValueId>; 2] = [None, None];
        for (lower, b) in self.pending.get_mut(p).map(std::mem::take).unwrap_or_default() {
            debug_assert_eq!(b.expr.coeff(dim), 0, "a bound on a loop's variable refers to it");
            let e = k.bound_expr(&b, lower, nd);
            let v = ArithIndexer { dims: &k.dims, params: &k.params }.value(k.ir, at, &e, &location)?;
            let slot = &mut folded[usize::from(!lower)];
            *slot = Some(match *slot {
                Some(acc) => {
                    binary(k.ir, at, if lower { "arith.maxsi" } else { "arith.minsi" }, acc, v, Type::Index, &location)
                }
                None => v,
            });
        }
        for (i, v) in folded.into_iter().enumerate() {
            if let Some(v) = v {
                self.bounds.push((p, i == 0, v));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::extent_bounds;
    use stencil_poly::codegen::{Bound, ForLoop, LoopAst};
    use stencil_poly::AffineForm;

    /// A tile loop over `T₂` (column 2) inside `T₁` (column 1) at host wavefront `w`
    /// (column 0), parameter `N` (column 3).
    fn tile_loop(lower: Vec<Bound>, upper: Vec<Bound>) -> ForLoop {
        ForLoop { dim: 2, lower, upper, step: 1, parallel: true, body: Box::new(LoopAst::Seq(vec![])) }
    }

    fn bound(coeffs: [i64; 4], constant: i64, divisor: i64) -> Bound {
        Bound { expr: AffineForm::new(coeffs.to_vec(), constant), divisor }
    }

    #[test]
    fn extents_come_from_bound_pairs_in_which_the_outer_tiles_cancel() {
        let host = [true, false, false];
        // w − 2·T₁ − 2 ≤ T₂ ≤ w − 2·T₁ and 0 ≤ T₂ ≤ ⌊N / 16⌋: the first pair cancels T₁ (at most
        // 3 tiles), the pair (0, ⌊N/16⌋) gives ⌊N/16⌋ + 1, the mixed pairs keep T₁ and count not.
        let l = tile_loop(
            vec![bound([1, -2, 0, 0], -2, 1), bound([0, 0, 0, 0], 0, 1)],
            vec![bound([1, -2, 0, 0], 0, 1), bound([0, 0, 0, 1], 0, 16)],
        );
        let extents = extent_bounds(&l, &host);
        assert_eq!(extents, vec![bound([0, 0, 0, 0], 2, 1), bound([0, 0, 0, 1], 0, 16)]);
        // Divisors: ⌈(w − T₁)/2⌉ ≤ T₂ ≤ ⌊(w − T₁ + 5)/2⌋ gives ⌊(2·5)/4⌋ + 1 = 3 (the exact
        // count is 3 or 2).
        let l = tile_loop(vec![bound([1, -1, 0, 0], 0, 2)], vec![bound([1, -1, 0, 0], 5, 2)]);
        assert_eq!(extent_bounds(&l, &host), vec![bound([0, 0, 0, 0], 10, 4)]);
        // Nothing cancels: no bound.
        let l = tile_loop(vec![bound([0, 1, 0, 0], 0, 1)], vec![bound([0, 2, 0, 0], 0, 1)]);
        assert!(extent_bounds(&l, &host).is_empty());
    }
}
