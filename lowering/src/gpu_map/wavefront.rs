//! The wavefront strategy of `gpu-map` (thesis §3.3.2, Fig. 3.17, §5.2.2): the host side.
//!
//! The program's loop nest is scanned as for `poly-codegen` (stored schedule and tiling).
//! Sequential loops that enclose the parallel work — the time loop, the inter-tile wavefront
//! `Θ_T` — stay on the host as `affine.for`, and each iteration launches a kernel
//! (`gpu.launch_func`) for the subtree below: the host loop is the thesis' `__syncblocks`
//! between wavefronts. The `kernel` module builds what runs inside.

use std::collections::HashMap;

use stencil_dialects::support::op_error;
use stencil_ir::attributes::{get_named, set_named};
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::{Attribute, BlockId, Diagnostic, DialectRegistry, Ir, Location, NamedAttribute, OpId, Type, ValueId};
use stencil_passes::stencil_to_poly::ScopInfo;
use stencil_passes::tile::{intra_tile_name, tile_program, TilingSpec};
use stencil_passes::tile_model::{
    choice_of, compare_staging, search_program, AutoChoice, AutoOptions, RankedBlock, StagingEstimates,
};
use stencil_poly::codegen::{generate, Bound, LoopAst, LoopNest, ScanOptions, ScanProblem};
use stencil_poly::tiling::{DimDef, DimKind};
use stencil_tilemodel::Block;

use super::kernel::{build_kernel, contains_tile_loop, KernelGrid, KernelInput, TileAxis};
use super::{arith, GpuMapOptions, MappingStrategy, Staging, MAPPING_ATTR, MIN_BLOCKS_ATTR};
use crate::affine_build::{affine_apply, MapOperands};
use crate::codegen::emit::{Emitter, Offload};
use crate::codegen::signature::create_lowered_func;

/// Threads per block when `gpu-map{block=…}` is not given and the program is not tiled (or
/// has a band of one row): one loop of points per step, distributed over a linear block.
const WAVEFRONT_BLOCK: [i64; 3] = [256, 1, 1];

/// The block when `gpu-map{block=…}` is not given, for a band tiled with `sizes` (one per row,
/// outermost first): the block that follows the tile ([`Block::following_tile`], which the
/// tile-size search also considers for every size, so that `block=auto` can choose it).
fn default_block(sizes: &[i64]) -> [i64; 3] {
    let block = Block::following_tile(sizes);
    [i64::from(block.x), i64::from(block.y), i64::from(block.z)]
}

/// The thesis' mapping (§3.3.2, §5.2.2, Fig. 3.17): the program's scanned loop nest (its stored
/// schedule and tiling) with the sequential loops enclosing the parallel work on the host and
/// one launch per inter-tile wavefront; inside a kernel, tiles cyclic over blocks, intra-tile
/// wavefronts separated by barriers, points cyclic over threads (the `kernel` and `staging`
/// modules).
pub(super) struct Wavefront;

impl MappingStrategy for Wavefront {
    fn name(&self) -> &'static str {
        "wavefront"
    }

    fn map(
        &self,
        ir: &mut Ir,
        registry: &DialectRegistry,
        program: OpId,
        options: &GpuMapOptions,
    ) -> Result<OpId, Diagnostic> {
        map_wavefront(ir, registry, program, options)
    }
}

fn map_wavefront(
    ir: &mut Ir,
    registry: &DialectRegistry,
    program: OpId,
    options: &GpuMapOptions,
) -> Result<OpId, Diagnostic> {
    // staging=auto: as poly-tile{sizes=auto} chose (its model compared staged and global
    // tiles); for sizes it did not choose, as the model compares those sizes; where the model
    // cannot tell, staged; and where the tiles cannot be staged (a footprint without exact
    // membership tests, or over the shared-memory limit) on global memory. From here on the
    // staging is explicit.
    let spec = TilingSpec::read(ir, program).ok().flatten();
    let tiled = spec.is_some();
    let recorded = spec.and_then(|s| s.auto).map(|a| a.options.staging);
    let estimates = match (options.staging, recorded) {
        (Staging::Auto, None) => staging_estimates(ir, registry, program, options),
        _ => None,
    };
    let staged = options.staging.resolve(recorded.or(estimates.as_ref().map(StagingEstimates::staging_wins)));
    let explicit = |staged: bool| GpuMapOptions {
        staging: if staged { Staging::Shared } else { Staging::Global },
        ..options.clone()
    };
    // With block=auto the estimate of the staging that runs is already its block search.
    let estimate = |staged: bool| estimates.as_ref().map(|e| if staged { &e.staged } else { &e.global });
    match map_tiles(ir, registry, program, &explicit(staged), estimate(staged)) {
        // Without tiles there is nothing to stage: the refusal is not the staging's (an
        // untiled program that cannot run in parallel), and mapping it again would repeat its
        // dependence analysis for the same error.
        Err(refused) if staged && options.staging == Staging::Auto && recorded.is_none() && tiled => {
            // A mapping that fails leaves the IR as it was, so the global tiles start afresh;
            // if they fail too, the staged tiles' error is the one to read.
            let func =
                map_tiles(ir, registry, program, &explicit(false), estimate(false)).map_err(|_| refused.clone())?;
            let reason = super::refusal_reason(&refused);
            tracing::info!("gpu-map{{staging=auto}}: tiles on global memory: {reason}");
            update_mapping(ir, func, |entries| set_named(entries, "staging_refused", Attribute::string(reason)));
            Ok(func)
        }
        Ok(func) => {
            if let Some(estimates) = &estimates {
                update_mapping(ir, func, |entries| record_staging_choice(entries, &estimates.choice()));
            }
            Ok(func)
        }
        refused => refused,
    }
}

/// `staging=auto` for tile sizes `poly-tile` was given: the tile model's estimates of those
/// tiles staged and on global memory, each with the block this pass will run (its `block`, the
/// block that follows the tile, or with `block=auto` each staging's best); `None` where the
/// model cannot estimate both (no problem sizes, a program shape it does not cover, staged
/// tiles over `shared-memory`: the staged attempt and its fallback then decide, as before).
fn staging_estimates(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    options: &GpuMapOptions,
) -> Option<StagingEstimates> {
    let spec = TilingSpec::read(ir, program).ok().flatten()?;
    let block = RankedBlock::of_gpu_map(options.block, options.block_auto);
    let search = AutoOptions { shared_memory: options.shared_memory, ..AutoOptions::default() };
    match compare_staging(ir, registry, program, &spec, &search, block) {
        Ok(estimates) => {
            tracing::debug!(
                staged_s = estimates.staged.predicted_seconds,
                global_s = estimates.global.predicted_seconds,
                "gpu-map{{staging=auto}}: the model's estimates for the given tile sizes"
            );
            Some(estimates)
        }
        Err(e) => {
            tracing::debug!(error = %e.message, "gpu-map{{staging=auto}}: no model estimate for the given tile sizes; staged");
            None
        }
    }
}

/// Records in a mapping record (`stencil.gpu_mapping`) that the model chose the staging of
/// given tile sizes (`choice`, [`StagingEstimates::choice`]): `staging_by_model`, the loser's
/// estimate as `other_staging_s` (as `poly.tiling` records it), and the winner's as
/// `predicted_s` where `block=auto` did not already record the estimate of the layout that runs.
fn record_staging_choice(entries: &mut Vec<NamedAttribute>, choice: &AutoChoice) {
    let seconds = |value: f64| Attribute::Float { value, kind: stencil_ir::types::FloatKind::F64 };
    set_named(entries, "staging_by_model", Attribute::Bool(true));
    if let Some(other) = choice.other_staging_seconds {
        set_named(entries, "other_staging_s", seconds(other));
    }
    let chose = match get_named(entries, "model_chose").and_then(Attribute::as_str) {
        Some(_) => "staging and block",
        None => {
            set_named(entries, "model", Attribute::string(choice.options.model.name()));
            set_named(entries, "predicted_s", seconds(choice.predicted_seconds));
            set_named(entries, "problem", Attribute::string(&choice.problem));
            "staging"
        }
    };
    set_named(entries, "model_chose", Attribute::string(chose));
}

/// Applies `change` to the mapping record of `func`.
fn update_mapping(ir: &mut Ir, func: OpId, change: impl FnOnce(&mut Vec<NamedAttribute>)) {
    if let Some(Attribute::Dictionary(mut entries)) = ir.attr(func, MAPPING_ATTR).cloned() {
        change(&mut entries);
        ir.set_attribute(func, MAPPING_ATTR, Attribute::Dictionary(entries));
    }
}

/// [`map_wavefront`] with explicit staging (`options.staging` is `Shared` or `Global`);
/// `estimated`: the tile model's estimate of these tiles with this staging, when `staging=auto`
/// made one (with `block=auto`, its block search: not run again).
fn map_tiles(
    ir: &mut Ir,
    registry: &DialectRegistry,
    program: OpId,
    options: &GpuMapOptions,
    estimated: Option<&AutoChoice>,
) -> Result<OpId, Diagnostic> {
    let staged = options.staging == Staging::Shared;
    let model = match (options.block_auto, estimated) {
        (false, _) => None,
        (true, Some(choice)) => Some(ModelBlock::of(choice)),
        (true, None) => Some(model_block(ir, registry, program, options)?),
    };
    let resolved;
    let options = match (&model, options.block) {
        (Some(m), _) => {
            resolved = GpuMapOptions { block: Some(m.block), block_auto: false, ..options.clone() };
            &resolved
        }
        (None, _) => options,
    };
    // occupancy=model: the model's blocks per SM, checked before anything is built so that a
    // refusal leaves the IR as it was.
    let planned_blocks = match (options.occupancy_by_model, model.as_ref().and_then(|m| m.blocks_per_sm)) {
        (false, _) => None,
        (true, Some(planned)) => Some(planned),
        (true, None) => {
            return Err(op_error(
                ir,
                program,
                "gpu-map{occupancy=model}: the tiling records no blocks per SM (poly.tiling's auto.blocks_per_sm): run poly-tile{sizes=auto} again",
            ))
        }
    };
    let tiled = tile_program(ir, registry, program)?;
    let defaulted;
    let options = if options.block.is_none() {
        // The tile sizes of the last tiled band, by row (its inter-tile wavefront lists them;
        // under inter=rectangular, the tile dimensions do).
        let dims = &tiled.tiled.dims;
        let sizes: Vec<i64> = dims
            .iter()
            .filter_map(|d| match &d.def {
                DimDef::TileSum { sizes, .. } => Some(sizes.clone()),
                _ => None,
            })
            .next_back()
            .unwrap_or_else(|| {
                dims.iter()
                    .filter_map(|d| match d.def {
                        DimDef::Tile { size, .. } => Some(size),
                        _ => None,
                    })
                    .collect()
            });
        defaulted = GpuMapOptions { block: Some(default_block(&sizes)), ..options.clone() };
        &defaulted
    } else {
        options
    };
    let fail = |ir: &Ir, e: String| op_error(ir, program, format!("gpu-map failed: {e}"));
    let problem = ScanProblem::from_tiled(&tiled.tiled, &tiled.info.scop).map_err(|e| fail(ir, e.to_string()))?;
    let nest = generate(&problem, &ScanOptions::default()).map_err(|e| fail(ir, e.to_string()))?;
    let name = tiled.info.program_name(ir).to_string();
    let location = ir.location(program).clone();
    let program_args: Vec<ValueId> = ir
        .regions(program)
        .first()
        .and_then(|&r| ir.entry_block(r))
        .map(|b| ir.block_args(b).to_vec())
        .unwrap_or_default();
    let sizes = super::static_sizes(ir, program, options).map_err(|e| fail(ir, e))?;
    let func = create_lowered_func(ir, program, sizes.as_ref()).map_err(|e| fail(ir, e))?;
    let typed_args: Vec<(ValueId, Type)> =
        program_args.iter().zip(&func.args).map(|(&p, &(_, f))| (p, ir.value_type(f).clone())).collect();
    let mut state = OperationState::new("gpu.module", location.clone());
    state.add_property("sym_name", Attribute::string(&format!("{name}_kernels")));
    let region = ir.create_region();
    let module_block = ir.append_block(region, &[]);
    state.regions.push(region);
    let gpu_module = ir.build(InsertPoint::After(func.func), state);
    let mut offload = GpuOffload {
        tiled: &tiled.tiled,
        nest: &nest,
        problem: &problem,
        info: &tiled.info,
        options,
        module_name: format!("{name}_kernels"),
        kernel_prefix: name.clone(),
        module_block,
        typed_args,
        launches: 0,
        location: location.clone(),
    };
    let emitted = Emitter::new(ir, &nest, &tiled.info, &func, false).with_offload(&mut offload).emit(func.ret);
    if let Err(e) = emitted {
        ir.erase_op(gpu_module);
        ir.erase_op(func.func);
        return Err(fail(ir, e));
    }
    if let Some(top) = ir.parent_op(program) {
        ir.set_attribute(top, stencil_dialects::gpu::CONTAINER_MODULE_ATTR, Attribute::Unit);
    }
    let spec = TilingSpec::read(ir, program).ok().flatten();
    let tile = spec.as_ref().map(|spec| super::int_array(&spec.sizes));
    ir.erase_op(program);
    // The most shared memory a block of any of the kernels takes (staged footprints, masks).
    let shared_memory = ir
        .block_ops(module_block)
        .iter()
        .filter_map(|&kernel| stencil_dialects::gpu::workgroup_layout(ir, kernel).map(|(_, total)| total))
        .max()
        .unwrap_or(0);
    let mut entries = vec![
        ("block", super::int_array(&options.block.unwrap_or(WAVEFRONT_BLOCK))),
        // `grid=0` asks for one block per tile of each wavefront: say so rather than "0".
        ("grid", if options.grid == 0 { Attribute::string("per-tile") } else { Attribute::i64(options.grid) }),
        ("shared_memory", Attribute::i64(i64::try_from(shared_memory).unwrap_or(i64::MAX))),
        ("staging", Attribute::Bool(staged)),
    ];
    if let Some(tile) = tile {
        entries.insert(0, ("tile", tile));
    }
    // The intra-tile wavefront the tiling resolved to (`poly-tile{intra=auto}`: the first
    // hyperplane where it leaves parallel point loops, else the skew; or the model's choice).
    if let Some(&intra) = tiled.tiled.intra_tile.first() {
        entries.push(("intra", Attribute::string(intra_tile_name(intra))));
    }
    // The tile code, when it is not the default (full tiles on their own loops, the others on
    // the guarded full-tile loops).
    if !options.full_tiles {
        entries.push(("full_tiles", Attribute::Bool(false)));
    }
    if options.partial_tiles != super::PartialTiles::Guarded {
        entries.push(("partial_tiles", Attribute::string(options.partial_tiles.name())));
    }
    // What the tile model chose and predicted (poly-tile{sizes=auto}, gpu-map{block=auto}):
    // the prediction only when this is the layout it was made for.
    let used_block = options.block.unwrap_or(WAVEFRONT_BLOCK);
    let predicted = match (&model, spec.and_then(|s| s.auto)) {
        (Some(m), auto) => {
            let chose = if auto.is_some() { "sizes and block" } else { "block" };
            Some((m.model, chose, m.predicted_seconds, m.problem.clone()))
        }
        (None, Some(a)) if a.block == used_block => {
            Some((a.options.model.name(), "sizes and block", a.predicted_seconds, a.problem))
        }
        (None, Some(_)) => None,
        (None, None) => None,
    };
    if let Some((name, chose, seconds, problem)) = predicted {
        entries.push(("model", Attribute::string(name)));
        entries.push(("model_chose", Attribute::string(chose)));
        entries.push(("predicted_s", Attribute::Float { value: seconds, kind: stencil_ir::types::FloatKind::F64 }));
        entries.push(("problem", Attribute::string(&problem)));
    }
    // occupancy=model: every kernel asks ptxas for the model's blocks per SM.
    if let Some(planned) = planned_blocks {
        for kernel in ir.block_ops(module_block).to_vec() {
            ir.set_attribute(kernel, MIN_BLOCKS_ATTR, Attribute::Integer { value: i128::from(planned), ty: Type::I32 });
        }
        entries.push(("min_blocks_per_sm", Attribute::i64(i64::from(planned))));
    }
    super::record_mapping(ir, func.func, "wavefront", entries);
    Ok(func.func)
}

/// The block `gpu-map{block=auto}` uses and the model's estimate for it.
struct ModelBlock {
    block: [i64; 3],
    /// The blocks per SM the estimate assumes (`None`: a tiling recorded without them).
    blocks_per_sm: Option<u32>,
    model: &'static str,
    predicted_seconds: f64,
    problem: String,
}

impl ModelBlock {
    /// The block a tile-model search chose, with its estimate.
    fn of(choice: &AutoChoice) -> ModelBlock {
        ModelBlock {
            block: choice.block,
            blocks_per_sm: choice.blocks_per_sm,
            model: choice.options.model.name(),
            predicted_seconds: choice.predicted_seconds,
            problem: choice.problem.clone(),
        }
    }
}

/// `block=auto`: the block `poly-tile{sizes=auto}` chose with the tile sizes, else the tile
/// model's search over blocks for the program's tile sizes (thesis Alg. 5.1 lines 5–13), with
/// the search options `poly-tile` recorded (or the defaults). The staging and shared-memory
/// assumptions of the search must match this pass's.
fn model_block(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    options: &GpuMapOptions,
) -> Result<ModelBlock, Diagnostic> {
    let fail = |m: String| op_error(ir, program, format!("gpu-map{{block=auto}}: {m}"));
    let spec = TilingSpec::read(ir, program)?.ok_or_else(|| {
        fail("the program is not tiled: run poly-schedule and poly-tile (sizes=auto chooses the block too) before gpu-map".into())
    })?;
    if let Some(auto) = &spec.auto {
        // The block was chosen with the sizes, for the kernels poly-tile's options describe.
        let search = &auto.options;
        let staging = options.staging.resolve(Some(search.staging));
        if search.staging != staging || search.shared_memory != options.shared_memory {
            return Err(fail(format!(
                "the tile model searched for staging={} shared-memory={} but gpu-map has staging={} shared-memory={}; give poly-tile and gpu-map the same options",
                search.staging, search.shared_memory, staging, options.shared_memory
            )));
        }
        return Ok(ModelBlock::of(auto));
    }
    // Given sizes: poly-tile searched nothing (its staging and shared-memory options only steer
    // `sizes=auto`), so the block search is for the kernels this pass builds, with its own
    // staging and shared memory.
    let search = AutoOptions {
        staging: options.staging.resolve(None),
        shared_memory: options.shared_memory,
        ..AutoOptions::default()
    };
    let report =
        search_program(ir, registry, program, &spec, &search, Some(spec.sizes.clone()), None).map_err(|mut e| {
            e.message
                .push_str("; gpu-map{block=auto} has no block to choose for these tiles: give one (gpu-map{block=…})");
            e
        })?;
    let (_, choice) = choice_of(&report, &search).ok_or_else(|| fail("the search chose no block".into()))?;
    Ok(ModelBlock::of(&choice))
}

/// The host side: decides which subtrees become kernels and launches them.
struct GpuOffload<'a> {
    tiled: &'a stencil_poly::tiling::TiledSchedule,
    nest: &'a LoopNest,
    problem: &'a ScanProblem,
    info: &'a ScopInfo,
    options: &'a GpuMapOptions,
    module_name: String,
    kernel_prefix: String,
    module_block: BlockId,
    typed_args: Vec<(ValueId, Type)>,
    launches: usize,
    location: Location,
}

impl GpuOffload<'_> {
    /// Whether `node` runs in a kernel: parallel loops, tile and point loops, and statements
    /// (which would otherwise run on the host).
    fn is_kernel(&self, node: &LoopAst) -> bool {
        match node {
            LoopAst::For(l) => {
                let kind = self.nest.dims.get(l.dim).map(|d| d.kind);
                // Sequential tile loops (rectangular inter-tile order) stay on the host.
                l.parallel || matches!(kind, Some(DimKind::Point | DimKind::PointWavefront))
            }
            LoopAst::Stmt { .. } => true,
            LoopAst::If { .. } | LoopAst::Seq(_) => false,
        }
    }
}

impl GpuOffload<'_> {
    /// Whether `node` has a sequential loop before any parallel loop (run by all threads of a
    /// block together).
    fn has_uniform_sequential_loop(&self, node: &LoopAst) -> bool {
        match node {
            LoopAst::For(l) => !l.parallel,
            LoopAst::If { then, .. } => self.has_uniform_sequential_loop(then),
            LoopAst::Stmt { .. } => false,
            LoopAst::Seq(items) => items.iter().any(|x| self.has_uniform_sequential_loop(x)),
        }
    }
}

impl GpuOffload<'_> {
    /// Blocks along a grid axis at this launch (host values of the outer dimensions `dims`):
    /// the number of values of the axis' range, or fewer when an extent bound of the axis is
    /// smaller (the most tiles one outer tile coordinate has), at least 1; not yet capped at
    /// CUDA's limit ([`grid_limit`]).
    fn tile_count(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        tile_axis: &TileAxis,
        dims: &[Option<ValueId>],
        params: &[ValueId],
    ) -> Result<ValueId, String> {
        let nd = self.nest.space.n_dims();
        let location = &self.location;
        let fold = |ir: &mut Ir, groups: &[Vec<Bound>], lower: bool| -> Result<ValueId, String> {
            let mut outer: Option<ValueId> = None;
            for group in groups {
                let mut inner: Option<ValueId> = None;
                for b in group {
                    let e = arith::bound_affine(b, lower, nd);
                    let v = affine_apply(ir, at, MapOperands::compact(&[e], dims, params)?, location);
                    inner = Some(match inner {
                        None => v,
                        Some(a) => arith::binary(
                            ir,
                            at,
                            if lower { "arith.maxsi" } else { "arith.minsi" },
                            a,
                            v,
                            Type::Index,
                            location,
                        ),
                    });
                }
                let v = inner.ok_or("a tile range group without bounds")?;
                outer = Some(match outer {
                    None => v,
                    Some(a) => arith::binary(
                        ir,
                        at,
                        if lower { "arith.minsi" } else { "arith.maxsi" },
                        a,
                        v,
                        Type::Index,
                        location,
                    ),
                });
            }
            outer.ok_or_else(|| "a tile range without bounds".to_string())
        };
        let range = &tile_axis.range;
        let first = fold(ir, &range.lower, true)?;
        let last = fold(ir, &range.upper, false)?;
        let span = arith::binary(ir, at, "arith.subi", last, first, Type::Index, location);
        let one = arith::index_constant(ir, at, 1, location);
        let mut count = arith::binary(ir, at, "arith.addi", span, one, Type::Index, location);
        for bound in &tile_axis.extent {
            let e = arith::bound_affine(bound, false, nd);
            let most = affine_apply(ir, at, MapOperands::compact(&[e], dims, params)?, location);
            let most = arith::binary(ir, at, "arith.addi", most, one, Type::Index, location);
            count = arith::binary(ir, at, "arith.minsi", count, most, Type::Index, location);
        }
        Ok(arith::binary(ir, at, "arith.maxsi", count, one, Type::Index, location))
    }
}

/// CUDA's limit on the blocks along grid axis `axis` (x = 0).
fn grid_limit(axis: usize) -> i64 {
    if axis == 0 {
        (1 << 31) - 1
    } else {
        65_535
    }
}

impl Offload for GpuOffload<'_> {
    fn offload(
        &mut self,
        ir: &mut Ir,
        node: &LoopAst,
        at: InsertPoint,
        dims: &[Option<ValueId>],
        params: &[ValueId],
        args: &HashMap<ValueId, ValueId>,
    ) -> Result<bool, String> {
        if !self.is_kernel(node) {
            return Ok(false);
        }
        // A statement reached on the host inside sequential loops would be a launch per
        // instance (a DOACROSS nest that was not tiled); outside every loop it is one launch.
        let inside_loops = dims.iter().any(Option::is_some);
        if let (LoopAst::Stmt { statement, .. }, true) = (node, inside_loops) {
            let name = self.info.scop.statement(*statement).map_or("?", |s| s.name());
            return Err(format!("statement {name} would run inside sequential host loops (no parallel loop or tile around it): schedule and tile the program first (poly-schedule, poly-tile) so that its instances run in parallel tiles; where it is, its tiled band has fewer rows than its loops (try poly-schedule{{intra-balance=false}}, or gpu-map{{strategy=auto}}, which does); a DOALL program also maps with gpu-map{{strategy=naive}} or {{strategy=overlapped}}"));
        }
        let name = format!("{}_k{}", self.kernel_prefix, self.launches);
        self.launches += 1;
        let host_dims: Vec<bool> = dims.iter().map(Option::is_some).collect();
        let tiles = contains_tile_loop(self.nest, node);
        // Sequential loops outside tiles (e.g. the intra-tile wavefront of a tile launched on
        // its own under a rectangular inter-tile order) need every thread of the launch to
        // meet at barriers: such a kernel runs on one block.
        // A single statement instance outside every loop (e.g. the initialisation of an
        // array copy, thesis Fig. 4.4) runs on one thread of one block.
        let single = matches!(node, LoopAst::Stmt { .. });
        let cyclic = if self.options.grid > 0 { self.options.grid } else { super::FALLBACK_GRID };
        let grid = if single || (!tiles && self.has_uniform_sequential_loop(node)) { 1 } else { cyclic };
        let input = KernelInput {
            nest: self.nest,
            info: self.info,
            program_args: &self.typed_args,
            host_dims: &host_dims,
            n_params: params.len(),
            grid,
            problem: self.problem,
            staging: self.options.staging.resolve(None),
            shared_limit: self.options.shared_memory,
            tiled: self.tiled,
            full_tiles: self.options.full_tiles,
            partial_tiles: self.options.partial_tiles,
            one_tile_per_block: self.options.grid == 0,
            block: self.options.block.unwrap_or(WAVEFRONT_BLOCK),
        };
        let shape = build_kernel(ir, self.module_block, &name, node, &input, &self.location)?;
        let location = self.location.clone();
        let constant = |ir: &mut Ir, at: InsertPoint, c: i64| arith::index_constant(ir, at, c, &location);
        let mut at = at;
        // The tile offset of each grid axis (one block per tile: `KernelInput::one_tile_per_block`).
        let mut offsets = Vec::new();
        let grid = match shape {
            KernelGrid::Blocks(n) => [constant(ir, at, n), constant(ir, at, 1), constant(ir, at, 1)],
            KernelGrid::Tiles(ranges) => {
                let mut grid = [constant(ir, at, 1), constant(ir, at, 1), constant(ir, at, 1)];
                let counts = ranges
                    .iter()
                    .map(|tile_axis| self.tile_count(ir, at, tile_axis, dims, params))
                    .collect::<Result<Vec<_>, _>>()?;
                for (axis, count) in counts.into_iter().enumerate() {
                    let limit = constant(ir, at, grid_limit(axis));
                    if !input.one_tile_per_block {
                        // The kernel's blocks stride over the tiles of the capped grid.
                        let blocks = arith::binary(ir, at, "arith.minsi", count, limit, Type::Index, &location);
                        let cap = constant(ir, at, self.options.grid);
                        grid[axis] = arith::binary(ir, at, "arith.minsi", blocks, cap, Type::Index, &location);
                        continue;
                    }
                    // A block per tile: a launch per `limit` tiles along the axis — one, unless
                    // the axis has more tiles than CUDA allows blocks.
                    let zero = constant(ir, at, 0);
                    let (offset, body) = super::ops::scf_for(ir, at, zero, count, limit, &location);
                    at = body;
                    let left = arith::binary(ir, at, "arith.subi", count, offset, Type::Index, &location);
                    grid[axis] = arith::binary(ir, at, "arith.minsi", left, limit, Type::Index, &location);
                    offsets.push(offset);
                }
                grid
            }
        };
        let block_size = self.options.block.unwrap_or(WAVEFRONT_BLOCK);
        if let Some(func) = ir.block_ops(self.module_block).last().copied() {
            super::ops::set_known_block_size(ir, func, block_size);
        }
        let block = block_size.map(|b| constant(ir, at, b));
        let mut operands: Vec<ValueId> = Vec::new();
        for (p, _) in &self.typed_args {
            operands.push(*args.get(p).ok_or("a program argument without host value")?);
        }
        operands.extend(params);
        operands.extend(dims.iter().flatten());
        operands.extend(offsets);
        let kernel =
            Attribute::SymbolRef { root: self.module_name.as_str().into(), nested: vec![name.as_str().into()] };
        let state = stencil_dialects::gpu::launch_func_state(kernel, grid, block, operands, self.location.clone());
        ir.build(at, state);
        tracing::debug!(kernel = %name, tiles, "gpu-map: kernel launched");
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::default_block;

    #[test]
    fn default_blocks_follow_the_tile() {
        assert_eq!(default_block(&[]), [256, 1, 1], "untiled");
        assert_eq!(default_block(&[3, 6, 6, 6]), [6, 6, 6], "3-D tiles of 6: the tile's extents");
        assert_eq!(default_block(&[8, 12, 48]), [48, 4, 1], "x whole, y in three turns of 4");
    }
}
