//! The `overlapped` strategy: temporal blocking of DOALL (Jacobi-like) programs with
//! overlapped tiles in shared memory.
//!
//! The program must be one `stencil.iterate` around DOALL applies of one rank (1 to 3) that
//! read fields of that rank at constant offsets. The fields are cut into tiles of
//! `tile = [T₀, …]` points; each launch advances every tile by up to `time-tile = b` time
//! steps, one block per tile:
//!
//! 1. the block loads its tile plus a halo into one shared-memory buffer per field;
//! 2. it runs the applies of `b` steps on the buffers, barrier after each apply; the region
//!    an apply computes shrinks step by step, by what the applies after it still read (their
//!    offsets), so it ends at the tile itself: the halo is *recomputed*, not exchanged;
//! 3. it writes its tile of every written field back.
//!
//! **Why it is exact.** Apply instances `I₁ … I_n` (step-major) compute on regions
//! `R(I_m) = tile ⊕ Σ_{m' > m} rad(I_m')`, where `rad` is an apply's offset box (Minkowski
//! sums). A value `I_m` reads at `p + o` (`p ∈ R(I_m)`, `o` in its offsets) lies in
//! `tile ⊕ Σ_{m' ≥ m} rad ⊆ R(I_w)` for any earlier writer `I_w`, so if an earlier instance in
//! this launch wrote it, it was computed here; if none did, it is the launch's initial value,
//! loaded in step 1 (the loaded box is `tile ⊕ Σ_all rad`). Every point runs the same
//! operations on the same values as in the program, so results are bit-identical.
//!
//! **Why it is race-free.** Blocks read halos that other blocks own. A field that is both
//! loaded and written therefore alternates between itself and a second buffer the host
//! allocates (`memref.alloc`): launch `k` reads one and writes the other, and after an odd
//! number of launches a copy kernel moves the result back. A written field no apply reads
//! before writing it (Jacobi's `B = f(A)`) is not loaded at all and needs no second buffer;
//! where reads reach past its writer's box, only the points outside the box are loaded
//! (`FieldPlan::ring_only`): nothing writes them, so they too need no second buffer. Both kinds
//! are written back only by the launch that runs the last step
//! (`FieldPlan::written_back_at_end_only`): every launch computes them before reading them. A
//! field never written is read in place. Each block writes back only its own tile.

use std::borrow::Cow;
use std::collections::HashMap;

use stencil_dialects::stencil::linear::linearize;
use stencil_dialects::stencil::{FieldType, ProgramParams};
use stencil_ir::affine::{AffineBinOp, AffineExpr};
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::types::Dim;
use stencil_ir::{Attribute, Diagnostic, DialectRegistry, Ir, Location, OpId, Type, ValueId};
use stencil_passes::stencil_to_poly::ScopInfo;
use stencil_tilemodel::{block_limits, DeviceLimits};

use super::arith::{binary, compare, index_constant, load, store, true_constant, ArithIndexer, SGE, SGT, SLE, SLT};
use super::deal::for_each_point;
use super::host::{default_block, HostSide, KernelFunc, LaunchShape, ThreadIds};
use super::nest::{ApplyBox, NestItem, TimeLoop};
use super::staging::{StagedField, StagedIndexer};
use super::{mapping_error, ops, GpuMapOptions, MappingStrategy};
use crate::affine_build::{affine_for, MapOperands};
use crate::codegen::statement::copy_statement;

/// See the module documentation.
pub(super) struct Overlapped;

/// Time steps per launch when `time-tile` is not given: the most that fit the shared-memory
/// limit, at most this many (more recomputes ever wider halos for little extra reuse).
const MAX_AUTO_TIME_TILE: i64 = 8;

/// What differs between the strategies that run several time steps of DOALL applies per launch
/// on tiles in shared memory (`overlapped`: a box per tile; `streaming`: rings of planes along
/// the outermost dimension): the default tile, the shared memory a tile needs, and the tile
/// kernel. The plan (fields, reaches, tile and time-tile choice) and the host side (launches,
/// second buffers, the copy back) are shared.
pub(super) trait TemporalTiles {
    /// The strategy's name, for messages and the recorded mapping.
    fn name(&self) -> &'static str;
    /// Refuses applies of `rank` dimensions the strategy does not handle, with the reason.
    fn check_rank(&self, rank: usize) -> Result<(), String>;
    /// Refuses `time_tile` steps per launch of `applies` applies each when the kernel cannot
    /// hold them, with the reason (before any footprint is computed).
    fn check_time_tile(&self, time_tile: i64, applies: usize) -> Result<(), String>;
    /// The tile (points per block along each dimension, outermost first) without `tile=…`.
    fn default_tile(&self, rank: usize) -> Vec<i64>;
    /// The dimensions whose tile size the shared memory depends on (halved, without `tile=…`,
    /// until one time step fits).
    fn shared_dims(&self, rank: usize) -> std::ops::Range<usize>;
    /// For a default tile on a problem too small for it: the dimension to halve next to give
    /// the launch more blocks, `None` where `tile` is as small as the strategy keeps it
    /// ([`fit_to_problem`]).
    fn dim_to_split(&self, plan: &Plan, tile: &[i64]) -> Option<usize>;
    /// Blocks per SM a launch needs for its tiles to run at their speed ([`fit_to_problem`]).
    fn blocks_per_sm_wanted(&self, plan: &Plan, tile: &[i64]) -> i64;
    /// Bytes of workgroup memory one block uses for `tile` and `time_tile` steps (`None` on
    /// overflow).
    fn shared_bytes(&self, plan: &Plan, tile: &[i64], time_tile: i64) -> Option<i64>;
    /// The tile kernel: advances one tile by the launch's time steps.
    fn build_kernel(
        &self,
        ir: &mut Ir,
        info: &ScopInfo,
        plan: &Plan,
        kernel: &KernelFunc,
        location: &Location,
    ) -> Result<(), String>;
}

impl<T: TemporalTiles> MappingStrategy for T {
    fn name(&self) -> &'static str {
        TemporalTiles::name(self)
    }

    fn map(
        &self,
        ir: &mut Ir,
        registry: &DialectRegistry,
        program: OpId,
        options: &GpuMapOptions,
    ) -> Result<OpId, Diagnostic> {
        let name = TemporalTiles::name(self);
        let (info, nest) = super::direct_program(ir, registry, program, name)?;
        let fail = |ir: &Ir, e: String| mapping_error(ir, program, name, e);
        super::nest::require_doall(&nest, &format!("strategy={name}"), |e| fail(ir, e))?;
        let plan = Plan::new(ir, program, &nest, options, self).map_err(|e| fail(ir, e))?;
        let program_name = info.program_name(ir).to_string();
        let mut host = HostSide::create(ir, program, &program_name, options).map_err(|e| fail(ir, e))?;
        if let Err(e) = emit(ir, &info, &plan, &mut host, self) {
            host.abandon(ir);
            return Err(fail(ir, e));
        }
        tracing::debug!(strategy = name, tile = ?plan.tile, time_tile = plan.time_tile, block = ?plan.block, shared = plan.shared_bytes, "gpu-map");
        let func = host.finish(ir, program);
        let mut entries = vec![
            ("tile", super::int_array(&plan.tile)),
            ("time_tile", Attribute::i64(plan.time_tile)),
            ("block", super::int_array(&plan.block)),
            ("shared_memory", Attribute::i64(plan.shared_bytes)),
            (
                "second_buffers",
                Attribute::Array(
                    plan.fields.iter().filter(|f| f.ping_pong()).map(|f| Attribute::string(&f.name)).collect(),
                ),
            ),
        ];
        if plan.prefetch {
            entries.push(("prefetch", Attribute::Bool(true)));
        }
        if let Some(blocks) = plan.min_blocks_per_sm {
            entries.push(("min_blocks_per_sm", Attribute::i64(i64::from(blocks))));
        }
        if let Some(reason) = &plan.tile_reason {
            entries.push(("tile_reason", Attribute::string(reason)));
        }
        super::record_mapping(ir, func, name, entries);
        Ok(func)
    }
}

impl TemporalTiles for Overlapped {
    fn name(&self) -> &'static str {
        "overlapped"
    }

    fn check_rank(&self, _rank: usize) -> Result<(), String> {
        Ok(())
    }

    /// The steps are a loop in the kernel: any number fits (the footprint bounds it).
    fn check_time_tile(&self, _time_tile: i64, _applies: usize) -> Result<(), String> {
        Ok(())
    }

    /// A few warps wide along the innermost dimension.
    fn default_tile(&self, rank: usize) -> Vec<i64> {
        match rank {
            1 => vec![1024],
            2 => vec![32, 64],
            _ => vec![4, 8, 32],
        }
    }

    fn shared_dims(&self, rank: usize) -> std::ops::Range<usize> {
        0..rank
    }

    /// The largest outer size first, the innermost last (it keeps accesses coalesced); none
    /// below the block's threads along it (innermost on `x`), which would leave threads idle.
    fn dim_to_split(&self, plan: &Plan, tile: &[i64]) -> Option<usize> {
        let inner = plan.rank - 1;
        let threads = |d: usize| plan.block.get(inner - d).copied().unwrap_or(1);
        let splittable = |d: usize| tile[d] / 2 >= threads(d);
        let outer = (0..inner).filter(|&d| splittable(d)).max_by_key(|&d| (tile[d], d));
        outer.or_else(|| splittable(inner).then_some(inner))
    }

    /// One: a block's time steps reuse its tile in shared memory, so a block per SM already
    /// keeps the SM busy (the cost report: 2-D Jacobi at 512², 2.4× faster with tiles of
    /// 16×64, 256 blocks, than with 32×64, 128 blocks for 132 SMs).
    fn blocks_per_sm_wanted(&self, _plan: &Plan, _tile: &[i64]) -> i64 {
        1
    }

    /// One buffer per field over the tile grown by `time_tile` steps' reach.
    fn shared_bytes(&self, plan: &Plan, tile: &[i64], time_tile: i64) -> Option<i64> {
        let bytes_per_point: i64 = plan.fields.iter().map(|f| f.bytes).sum();
        (0..plan.rank).try_fold(bytes_per_point, |acc, d| {
            let e = tile[d].checked_add(time_tile.checked_mul(plan.step_lo[d] + plan.step_hi[d])?)?;
            acc.checked_mul(e)
        })
    }

    fn build_kernel(
        &self,
        ir: &mut Ir,
        info: &ScopInfo,
        plan: &Plan,
        kernel: &KernelFunc,
        location: &Location,
    ) -> Result<(), String> {
        build_tile_kernel(ir, info, plan, kernel, location)
    }
}

/// A field the applies access, and how the tiles treat it.
pub(super) struct FieldPlan {
    /// The program argument.
    pub arg: ValueId,
    /// Its name, for messages.
    pub name: String,
    /// Element type.
    pub element: Type,
    /// Bytes per element.
    pub bytes: i64,
    /// Extent per dimension, over the parameters as symbols.
    pub shape: Vec<AffineExpr>,
    /// Loaded into shared memory at the start of a launch (read before it is written).
    pub loaded: bool,
    /// Written by some apply.
    pub written: bool,
    /// For a written field that is not loaded, or loaded only around it (`ring_only`): the box
    /// its (single) writer covers, where the tile's values are valid to write back.
    pub write_box: Option<(Vec<AffineExpr>, Vec<AffineExpr>)>,
    /// Loaded only outside `write_box`.
    /// The field's single writer covers one box and the first apply touching it writes it
    /// without reading it, but reads reach past the box (PolyBench Jacobi-2D's `B`, read at
    /// the boundary by `A = f(B)`): inside, every value read was computed in the tile first (as
    /// for a field not loaded); outside, nothing ever writes, so those values are the field's
    /// and are read in place — no second buffer.
    pub ring_only: bool,
}

impl FieldPlan {
    /// Loaded (wholly) and written: alternates with a second buffer between launches.
    pub fn ping_pong(&self) -> bool {
        self.loaded && self.written && !self.ring_only
    }

    /// Written, and never read by a launch where a launch writes it (not loaded, or loaded only
    /// outside its writer's box): the next launch computes every value of its box it reads
    /// before reading it, so a write-back between launches is never read. Only the launch that
    /// runs the time loop's last step writes such a field back — Jacobi's `B = f(A)` costs
    /// global stores once per program instead of once per launch.
    pub fn written_back_at_end_only(&self) -> bool {
        self.written && (!self.loaded || self.ring_only)
    }
}

/// What every kernel of a temporal mapping is built from, decided before any IR is emitted.
pub(super) struct Plan {
    pub rank: usize,
    pub time: TimeLoop,
    pub applies: Vec<ApplyBox>,
    pub tile: Vec<i64>,
    pub time_tile: i64,
    pub block: [i64; 3],
    /// Per apply and dimension, how far it reads below / above its point.
    pub reach_lo: Vec<Vec<i64>>,
    pub reach_hi: Vec<Vec<i64>>,
    /// Per dimension, the reach of one whole time step (all applies).
    pub step_lo: Vec<i64>,
    pub step_hi: Vec<i64>,
    /// Per apply and dimension, the reach of the applies after it in a step.
    pub after_lo: Vec<Vec<i64>>,
    pub after_hi: Vec<Vec<i64>>,
    /// Per dimension, the halo loaded below the tile (`time_tile` steps); the buffers start there.
    pub halo_lo: Vec<i64>,
    /// Shared buffer extent per dimension (tile plus halos).
    pub extent: Vec<i64>,
    pub fields: Vec<FieldPlan>,
    pub shared_bytes: i64,
    /// Streaming: load each plane a stream step ahead into registers (`gpu-map{prefetch}`).
    pub prefetch: bool,
    /// `occupancy=model`: the blocks per SM the tile kernel asks ptxas to leave room for
    /// ([`latency_hiding_blocks`]).
    pub min_blocks_per_sm: Option<u32>,
    /// Why the tile is not the strategy's default, where the problem sizes made it smaller
    /// ([`fit_to_problem`]); recorded as `tile_reason`.
    pub tile_reason: Option<String>,
}

impl Plan {
    /// The extents of apply `k`'s box in a launch's first step before clipping: the tile grown
    /// by the halo the later steps and applies read (`None` on overflow).
    fn first_step_box(&self, k: usize) -> Option<Vec<i64>> {
        let later = self.time_tile.checked_sub(1)?;
        (0..self.rank)
            .map(|d| {
                let steps = later.checked_mul(self.step_lo[d].checked_add(self.step_hi[d])?)?;
                let after = self.after_lo[k][d].checked_add(self.after_hi[k][d])?;
                self.tile[d].checked_add(steps)?.checked_add(after)
            })
            .collect()
    }

    /// Where a tile kernel writes `f` back: the second buffer of a ping-pong field (the kernel's
    /// extra arguments, in field order), else the field itself.
    pub fn destination(&self, kernel: &KernelFunc, f: &FieldPlan) -> ValueId {
        match self.fields.iter().filter(|p| p.ping_pong()).position(|p| p.arg == f.arg) {
            Some(k) => kernel.extra[k],
            None => kernel.args[&f.arg],
        }
    }

    fn new(
        ir: &Ir,
        program: OpId,
        nest: &[NestItem],
        options: &GpuMapOptions,
        layout: &dyn TemporalTiles,
    ) -> Result<Plan, String> {
        let strategy = layout.name();
        let time = match nest {
            [NestItem::Loop(l)] if l.body.iter().all(|i| matches!(i, NestItem::Apply(_))) && !l.body.is_empty() => l.clone(),
            _ => return Err(format!("{strategy} tiling needs the program to be one stencil.iterate around stencil.apply ops (no nested iterates, nothing outside it)")),
        };
        let applies: Vec<ApplyBox> =
            time.body.iter().filter_map(|i| if let NestItem::Apply(a) = i { Some(a.clone()) } else { None }).collect();
        let rank = applies[0].rank();
        for a in &applies {
            if a.rank() != rank {
                return Err(format!(
                    "{} has {} dimensions and {} has {rank}: {strategy} tiles need applies of one rank",
                    a.name,
                    a.rank(),
                    applies[0].name
                ));
            }
            // A general read (`_fict_[t]`, a coefficient `c[0]`) of a field no apply writes
            // reads global memory as it is: that field stays out of the tiles. Any other needs
            // the tile's own copy, which only constant offsets address.
            for r in a.reads.iter().filter(|r| r.offset.is_none()) {
                if !global_only(&applies, r.field) {
                    return Err(format!("{} reads a field at an affine index, not a constant offset from the point, and the program writes that field or reads it at offsets too: {strategy} tiles need constant offsets for such a field", a.name));
                }
            }
        }
        if !(1..=3).contains(&rank) {
            return Err(format!("the applies have {rank} dimensions; {strategy} tiles handle 1 to 3"));
        }
        layout.check_rank(rank)?;
        let mut tile = if options.tile.is_empty() { layout.default_tile(rank) } else { options.tile.clone() };
        if tile.len() != rank {
            return Err(format!(
                "tile has {} sizes for {rank}-dimensional applies: give one per dimension, outermost first",
                tile.len()
            ));
        }
        let block = options.block.unwrap_or_else(|| default_block(rank));
        // How far each apply reads around its point, per side and dimension.
        let mut reach_lo = vec![vec![0i64; rank]; applies.len()];
        let mut reach_hi = vec![vec![0i64; rank]; applies.len()];
        for (k, a) in applies.iter().enumerate() {
            for r in &a.reads {
                for (d, &o) in r.offset.iter().flatten().enumerate().take(rank) {
                    reach_lo[k][d] = reach_lo[k][d].max(-o);
                    reach_hi[k][d] = reach_hi[k][d].max(o);
                }
            }
        }
        let sum = |rows: &[Vec<i64>], d: usize| rows.iter().map(|r| r[d]).sum::<i64>();
        let step_lo: Vec<i64> = (0..rank).map(|d| sum(&reach_lo, d)).collect();
        let step_hi: Vec<i64> = (0..rank).map(|d| sum(&reach_hi, d)).collect();
        let after = |rows: &[Vec<i64>]| -> Vec<Vec<i64>> {
            (0..applies.len()).map(|k| (0..rank).map(|d| sum(&rows[k + 1..], d)).collect()).collect()
        };
        let (after_lo, after_hi) = (after(&reach_lo), after(&reach_hi));
        let fields = field_plans(ir, program, &applies, rank, strategy)?;
        let mut plan = Plan {
            rank,
            time,
            applies,
            tile: vec![],
            time_tile: 0,
            block,
            reach_lo,
            reach_hi,
            step_lo,
            step_hi,
            after_lo,
            after_hi,
            halo_lo: vec![],
            extent: vec![],
            fields,
            shared_bytes: 0,
            prefetch: options.prefetch,
            min_blocks_per_sm: None,
            tile_reason: None,
        };
        let footprint_of = |tile: &[i64], b: i64| layout.shared_bytes(&plan, tile, b);
        // Without a tile from the user, halve the default (its largest outer size first, the
        // innermost last: it keeps accesses coalesced) until one time step fits.
        while options.tile.is_empty() && footprint_of(&tile, 1).is_none_or(|f| f > options.shared_memory) {
            let Some(d) = layout
                .shared_dims(rank)
                .filter(|&d| tile[d] > 1)
                .max_by_key(|&d| (tile[d] * if d + 1 == rank { 1 } else { 4 }, d))
            else {
                break;
            };
            tile[d] /= 2;
        }
        let sizes = explicit_problem_sizes(ir, program);
        let mut tile_reason = None;
        if let (true, Some(sizes)) = (options.tile.is_empty(), &sizes) {
            let fitted = fit_to_problem(&plan, tile.clone(), sizes, layout);
            if fitted.tile != tile {
                let blocks = |n: i64| if n == 1 { "1 block".to_string() } else { format!("{n} blocks") };
                tile_reason = Some(format!(
                    "the default {} gives {} at the problem sizes; {} gives {} (wanted: {}, {} SMs x {})",
                    sizes_text(&tile),
                    blocks(fitted.default_blocks),
                    sizes_text(&fitted.tile),
                    blocks(fitted.blocks),
                    fitted.sms.saturating_mul(fitted.per_sm),
                    fitted.sms,
                    fitted.per_sm
                ));
            }
            tile = fitted.tile;
        }
        // Without time-tile=…, at most the steps the problem has (T = 1 runs one step per
        // launch whatever the shared memory would hold).
        let steps = sizes.as_ref().and_then(|sizes| {
            let (lower, upper) = (plan.time.lower.eval(&[], sizes)?, plan.time.upper.eval(&[], sizes)?);
            upper.checked_sub(lower)
        });
        let most_steps = steps.map_or(MAX_AUTO_TIME_TILE, |n| n.clamp(1, MAX_AUTO_TIME_TILE));
        layout.check_time_tile(options.time_tile, plan.applies.len())?;
        let footprint = |b: i64| footprint_of(&tile, b);
        let time_tile = if options.time_tile > 0 {
            options.time_tile
        } else {
            (1..=most_steps).rev().find(|&b| footprint(b).is_some_and(|f| f <= options.shared_memory)).unwrap_or(1)
        };
        let shared_bytes = footprint(time_tile).ok_or("the tile footprint overflows")?;
        if shared_bytes > options.shared_memory {
            let names: Vec<&str> = plan.fields.iter().map(|f| f.name.as_str()).collect();
            return Err(format!(
                "tiles of {} with {time_tile} time step(s) need {shared_bytes} bytes of shared memory per block ({} fields: {}), above the limit of {} bytes; choose a smaller tile or time-tile, or raise gpu-map{{shared-memory=…}} for a device with more",
                sizes_text(&tile),
                names.len(),
                names.join(", "),
                options.shared_memory
            ));
        }
        // The tile grown by the launch's reach, per dimension: checked here once, so that every
        // strategy's sums of a tile size and halos below it stay in range (streaming's chunk
        // along the stream costs no shared memory, so its footprint does not bound it).
        let overflow =
            || format!("tiles of {} with {time_tile} time step(s) overflow the index range", sizes_text(&tile));
        plan.halo_lo =
            plan.step_lo.iter().map(|r| r.checked_mul(time_tile).ok_or_else(overflow)).collect::<Result<_, _>>()?;
        plan.extent = (0..rank)
            .map(|d| {
                let hi = plan.step_hi[d].checked_mul(time_tile).ok_or_else(overflow)?;
                tile[d].checked_add(plan.halo_lo[d]).and_then(|e| e.checked_add(hi)).ok_or_else(overflow)
            })
            .collect::<Result<_, _>>()?;
        plan.tile = tile;
        plan.tile_reason = tile_reason;
        plan.time_tile = time_tile;
        plan.shared_bytes = shared_bytes;
        if options.occupancy_by_model {
            plan.min_blocks_per_sm = Some(latency_hiding_blocks(&DeviceLimits::h100(), &plan.block, shared_bytes)?);
        }
        Ok(plan)
    }
}

/// `occupancy=model` for temporal tiles: the blocks per SM that keep the warps resident that
/// hide DRAM latency — `⌈W_mem ÷ warps per block⌉`, `W_mem` the cost model's 32 warps per SM
/// (docs/cost-model.md, "Bound model"): these kernels stream their fields through shared
/// memory and measured latency-bound — at most as many as the block's threads and shared
/// memory let an SM hold. ptxas then keeps the registers within what that residency allows
/// (`65536 ÷ (blocks × threads)`), spilling if it must (the cost report shows spills).
pub(super) fn latency_hiding_blocks(device: &DeviceLimits, block: &[i64; 3], shared_bytes: i64) -> Result<u32, String> {
    let threads = block.iter().try_fold(1i64, |a, &b| a.checked_mul(b)).and_then(|t| u32::try_from(t).ok());
    let threads = threads.ok_or_else(|| format!("a block of {} threads", sizes_text(block)))?;
    let shared = u64::try_from(shared_bytes).map_err(|_| "negative shared memory".to_string())?;
    let limits = block_limits(&device.sm_resources(), threads, None, shared);
    let (room, _) = limits.tightest();
    if room == 0 {
        return Err(format!(
            "occupancy=model: a block of {} threads with {shared} bytes of shared memory does not fit an SM of the {}",
            sizes_text(block),
            device.name
        ));
    }
    // Warps are at least 1 here (the block fits), and W_mem is a small positive figure.
    let wanted = (device.memory_latency_warps_per_sm / f64::from(limits.warps_per_block.max(1))).ceil().max(1.0);
    Ok(room.min(wanted as u32))
}

/// The values of the program's parameters, in declaration order, where the user gave some
/// (`--param`: [`PROBLEM_SIZE_ATTR`] on the program or an enclosing op): those given, the
/// declared defaults for the others; `None` where none was given (code compiled without
/// `--param` keeps the tiles of large problems) or one has no value.
///
/// [`PROBLEM_SIZE_ATTR`]: stencil_passes::tile_model::PROBLEM_SIZE_ATTR
pub(super) fn explicit_problem_sizes(ir: &Ir, program: OpId) -> Option<Vec<i64>> {
    let Some(Attribute::Dictionary(given)) = stencil_passes::tile_model::given_problem_sizes(ir, program) else {
        return None;
    };
    let declared = ProgramParams::of(ir, program);
    if !declared.names.iter().any(|name| given.iter().any(|a| &*a.name == name.as_str())) {
        return None;
    }
    stencil_passes::tile_model::problem_sizes(ir, program, &declared.names).ok()
}

/// The default `tile` halved ([`TemporalTiles::dim_to_split`]) until a launch over the
/// applies' boxes at the problem `sizes` has the blocks it needs to fill the device
/// ([`TemporalTiles::blocks_per_sm_wanted`] on each of an H100's SMs): the defaults are sized
/// for large problems, and at 128³ streaming's 64-plane chunks gave 64 blocks for 132 SMs (the
/// cost report: 8.1× slower than chunks of 8, 0.22× the naive kernel).
fn fit_to_problem(plan: &Plan, mut tile: Vec<i64>, sizes: &[i64], layout: &dyn TemporalTiles) -> FittedTile {
    // The largest extent of any apply per dimension.
    let mut extent = vec![0i64; plan.rank];
    for a in &plan.applies {
        for (d, e) in extent.iter_mut().enumerate() {
            let size = a.extent(d).ok().and_then(|x| x.eval(&[], sizes));
            *e = (*e).max(size.unwrap_or(0));
        }
    }
    let sms = i64::from(DeviceLimits::h100().multiprocessors);
    let blocks = |tile: &[i64]| -> i64 {
        // Saturating: a huge problem has blocks enough.
        extent.iter().zip(tile).fold(1i64, |acc, (&e, &t)| {
            let (e, t) = (i128::from(e.max(1)), i128::from(t.max(1)));
            i64::try_from(i128::from(acc) * ((e + t - 1) / t)).unwrap_or(i64::MAX)
        })
    };
    let default_blocks = blocks(&tile);
    let mut per_sm = layout.blocks_per_sm_wanted(plan, &tile);
    // What the default tile wanted, for the record (a later, smaller tile may want fewer).
    let wanted_per_sm = per_sm;
    while blocks(&tile) < sms.saturating_mul(per_sm) {
        let Some(d) = layout.dim_to_split(plan, &tile) else { break };
        let before = blocks(&tile);
        tile[d] /= 2;
        if blocks(&tile) == before {
            // The problem is smaller than the tile there: halving gives no more blocks.
            tile[d] *= 2;
            break;
        }
        per_sm = layout.blocks_per_sm_wanted(plan, &tile);
    }
    FittedTile { blocks: blocks(&tile), tile, default_blocks, sms, per_sm: wanted_per_sm }
}

/// What [`fit_to_problem`] chose, and the figures behind it.
struct FittedTile {
    tile: Vec<i64>,
    blocks: i64,
    default_blocks: i64,
    sms: i64,
    per_sm: i64,
}

/// `32×64`: tile sizes for messages.
fn sizes_text(tile: &[i64]) -> String {
    tile.iter().map(i64::to_string).collect::<Vec<_>>().join("×")
}

/// Every field the applies access, with whether it must be loaded and where it may be written
/// back.
fn field_plans(
    ir: &Ir,
    program: OpId,
    applies: &[ApplyBox],
    rank: usize,
    strategy: &str,
) -> Result<Vec<FieldPlan>, String> {
    let params = ProgramParams::of(ir, program);
    let names = stencil_dialects::stencil::program_arg_names(ir, program);
    let body = ir.regions(program).first().and_then(|&r| ir.entry_block(r)).ok_or("the program has no body")?;
    let program_args = ir.block_args(body).to_vec();
    let mut accessed: Vec<ValueId> = vec![];
    for a in applies {
        for f in a.reads.iter().map(|r| r.field).chain(std::iter::once(a.written)) {
            // Fields read only through general indices and never written are read from
            // global memory where they are used, not tiled.
            if !accessed.contains(&f) && !global_only(applies, f) {
                accessed.push(f);
            }
        }
    }
    let n_symbols = params.names.len();
    let mut plans = vec![];
    for arg in accessed {
        let position =
            program_args.iter().position(|&a| a == arg).ok_or("an access to a value that is not a program argument")?;
        let name = names.get(position).cloned().flatten().unwrap_or_else(|| format!("arg{position}"));
        let field = FieldType::from_type(ir.value_type(arg)).ok_or_else(|| format!("{name} is not a field"))?;
        if field.rank() != rank {
            return Err(format!("field {name} has {} dimensions and the applies {rank}: {strategy} tiles need fields of the applies' rank", field.rank()));
        }
        let shape = field.shape.iter().map(|e| param_expr(e, &params)).collect::<Result<Vec<_>, _>>()?;
        let writers: Vec<&ApplyBox> = applies.iter().filter(|a| a.written == arg).collect();
        let written = !writers.is_empty();
        // Not loaded: the first apply touching it writes it, every writer covers one box, and
        // no read (apply box shifted by its offset) leaves that box — so every value a tile
        // reads was computed in the tile.
        let first = applies.iter().find(|a| a.written == arg || a.reads.iter().any(|r| r.field == arg));
        let write_box = writers.first().map(|w| (w.lower.clone(), w.upper.clone()));
        let same_box =
            write_box.as_ref().is_some_and(|(lo, hi)| writers.iter().all(|w| &w.lower == lo && &w.upper == hi));
        let reads_inside = write_box.as_ref().is_some_and(|(lo, hi)| {
            applies.iter().all(|a| {
                a.reads.iter().filter(|r| r.field == arg).all(|r| {
                    let offset = r.offset.as_deref().unwrap_or(&[]);
                    (0..rank).all(|d| {
                        let o = offset.get(d).copied().unwrap_or(0);
                        // a.lower + o ≥ lo and a.upper + o ≤ hi, exactly for all parameters.
                        constant_difference(&a.lower[d], &lo[d], n_symbols).is_some_and(|c| c + o >= 0)
                            && constant_difference(&hi[d], &a.upper[d], n_symbols).is_some_and(|c| c - o >= 0)
                    })
                })
            })
        });
        let first_writes = first.is_some_and(|a| a.written == arg && !a.reads.iter().any(|r| r.field == arg));
        let loaded = !(written && same_box && reads_inside && first_writes);
        // Otherwise, when only the reads leave its writer's box, it is needed only where they
        // leave it (overlapped tiles load those points; streaming reads them in place).
        let ring_only = loaded && written && same_box && first_writes;
        let element = field.element_type();
        let bytes = ops::element_bytes(&element).ok_or_else(|| format!("field {name} has no element size"))?;
        plans.push(FieldPlan {
            arg,
            name,
            element,
            bytes,
            shape,
            loaded,
            written,
            write_box: if loaded && !ring_only { None } else { write_box },
            ring_only,
        });
    }
    Ok(plans)
}

/// Whether `field` is read only through general accesses and written by no apply: the tiles
/// leave it in global memory, read where a statement reads it (`Plan::new`).
fn global_only(applies: &[ApplyBox], field: ValueId) -> bool {
    let reads = applies.iter().flat_map(|a| a.reads.iter()).filter(|r| r.field == field);
    applies.iter().all(|a| a.written != field)
        && reads.clone().next().is_some()
        && reads.into_iter().all(|r| r.offset.is_none())
}

/// `a − b` when it is the same constant for all parameter values.
fn constant_difference(a: &AffineExpr, b: &AffineExpr, n_symbols: usize) -> Option<i64> {
    let difference = linearize(a, 0, n_symbols)?.add_scaled(&linearize(b, 0, n_symbols)?, -1)?;
    difference.symbols.iter().all(|&c| c == 0).then_some(difference.constant)
}

/// A field extent as an affine expression over the parameters (symbols in declaration order).
fn param_expr(e: &stencil_dialects::stencil::ParamExpr, params: &ProgramParams) -> Result<AffineExpr, String> {
    let mut out = AffineExpr::Constant(e.constant);
    for (name, &c) in &e.terms {
        let s = params.index_of(name).ok_or_else(|| format!("field extent uses unknown parameter {name}"))?;
        let term = AffineExpr::binary(AffineBinOp::Mul, AffineExpr::Symbol(s as u32), AffineExpr::Constant(c));
        out = AffineExpr::binary(AffineBinOp::Add, out, term);
    }
    Ok(out)
}

/// The host function and the kernels.
fn emit(
    ir: &mut Ir,
    info: &ScopInfo,
    plan: &Plan,
    host: &mut HostSide,
    layout: &dyn TemporalTiles,
) -> Result<(), String> {
    let location = host.location.clone();
    let at = host.entry();
    // The second buffer of every ping-pong field, shaped like the field.
    let mut second: HashMap<ValueId, ValueId> = HashMap::new();
    for f in plan.fields.iter().filter(|f| f.ping_pong()) {
        let ty = host.arg_type(f.arg).cloned().ok_or("a field without host type")?;
        let mut sizes = vec![];
        if let Type::MemRef(m) = &ty {
            for (d, dim) in m.shape.iter().flatten().enumerate() {
                if matches!(dim, Dim::Dynamic) {
                    sizes.push(host.host_value(ir, at, &f.shape[d], &[])?);
                }
            }
        }
        let mut state = OperationState::new("memref.alloc", location.clone());
        state.add_property("operandSegmentSizes", Attribute::dense_i32(&[sizes.len() as i64, 0]));
        state.operands = sizes;
        state.result_types = vec![ty];
        let op = ir.build(at, state);
        second.insert(f.arg, ir.result(op, 0));
    }
    let ping_pong: Vec<&FieldPlan> = plan.fields.iter().filter(|f| f.ping_pong()).collect();
    let mut extra: Vec<Type> = ping_pong.iter().map(|f| host.arg_type(f.arg).cloned().unwrap_or(Type::Index)).collect();
    extra.push(Type::Index); // t0
    let kernel = host.new_kernel(ir, &extra);
    layout.build_kernel(ir, info, plan, &kernel, &location)?;
    if let Some(blocks) = plan.min_blocks_per_sm {
        ir.set_attribute(
            kernel.func,
            super::MIN_BLOCKS_ATTR,
            Attribute::Integer { value: i128::from(blocks), ty: Type::I32 },
        );
    }
    // The grid: the tiles covering the largest field extent per dimension.
    let mut grid = [None; 3];
    for d in 0..plan.rank {
        let axis = plan.rank - 1 - d;
        let mut size: Option<ValueId> = None;
        for f in &plan.fields {
            let v = host.host_value(ir, at, &f.shape[d], &[])?;
            size = Some(match size {
                Some(s) => binary(ir, at, "arith.maxsi", s, v, Type::Index, &location),
                None => v,
            });
        }
        let size = size.ok_or("no field")?;
        let t = index_constant(ir, at, plan.tile[d], &location);
        let blocks = binary(ir, at, "arith.ceildivsi", size, t, Type::Index, &location);
        let one = index_constant(ir, at, 1, &location);
        grid[axis] = Some(binary(ir, at, "arith.maxsi", blocks, one, Type::Index, &location));
    }
    let one = index_constant(ir, at, 1, &location);
    let grid = grid.map(|g| g.unwrap_or(one));
    let b = plan.time_tile;
    let (lower, upper) = (&plan.time.lower, &plan.time.upper);
    // n = ⌈(upper − lower) / b⌉ launches.
    let launches =
        AffineExpr::binary(AffineBinOp::CeilDiv, super::nest::difference(upper, lower)?, AffineExpr::Constant(b));
    // t0 of launch number `index_expr`.
    let t0_of = |index: AffineExpr| {
        AffineExpr::binary(
            AffineBinOp::Add,
            lower.clone(),
            AffineExpr::binary(AffineBinOp::Mul, index, AffineExpr::Constant(b)),
        )
    };
    let direct: HashMap<ValueId, ValueId> = HashMap::new();
    let originals: Vec<ValueId> = ping_pong
        .iter()
        .map(|f| host.host_arg(f.arg).ok_or("a field without host argument"))
        .collect::<Result<_, _>>()?;
    let seconds: Vec<ValueId> = ping_pong.iter().map(|f| second[&f.arg]).collect();
    let swapped: HashMap<ValueId, ValueId> = ping_pong.iter().map(|f| (f.arg, second[&f.arg])).collect();
    if ping_pong.is_empty() {
        // Every launch reads and writes the fields themselves.
        let (iv, body) = host_range(ir, host, at, &AffineExpr::Constant(0), &[launches], &location)?;
        let t0 = host.host_value(ir, body, &t0_of(AffineExpr::Dim(0)), &[iv])?;
        host.launch(ir, body, &kernel, LaunchShape { grid, block: plan.block }, &direct, &[t0]);
        return Ok(());
    }
    // Pairs of launches: fields → second buffers, then back.
    let pairs = AffineExpr::binary(AffineBinOp::FloorDiv, launches.clone(), AffineExpr::Constant(2));
    let (q, body) = host_range(ir, host, at, &AffineExpr::Constant(0), &[pairs], &location)?;
    let first = host.host_value(
        ir,
        body,
        &t0_of(AffineExpr::binary(AffineBinOp::Mul, AffineExpr::Dim(0), AffineExpr::Constant(2))),
        &[q],
    )?;
    let mut operands: Vec<ValueId> = seconds.clone();
    operands.push(first);
    host.launch(ir, body, &kernel, LaunchShape { grid, block: plan.block }, &direct, &operands);
    let next = host.host_value(
        ir,
        body,
        &t0_of(AffineExpr::binary(
            AffineBinOp::Add,
            AffineExpr::binary(AffineBinOp::Mul, AffineExpr::Dim(0), AffineExpr::Constant(2)),
            AffineExpr::Constant(1),
        )),
        &[q],
    )?;
    let mut operands: Vec<ValueId> = originals.clone();
    operands.push(next);
    host.launch(ir, body, &kernel, LaunchShape { grid, block: plan.block }, &swapped, &operands);
    // An odd last launch writes the second buffers; copy them back. (The range is empty when
    // there are no launches at all: min(n mod 2, n).)
    let odd = AffineExpr::binary(AffineBinOp::Mod, launches.clone(), AffineExpr::Constant(2));
    let (r, body) = host_range(ir, host, at, &AffineExpr::Constant(0), &[odd, launches.clone()], &location)?;
    let last = host.host_value(
        ir,
        body,
        &t0_of(AffineExpr::binary(
            AffineBinOp::Add,
            launches.clone(),
            AffineExpr::binary(AffineBinOp::Add, AffineExpr::Dim(0), AffineExpr::Constant(-1)),
        )),
        &[r],
    )?;
    let mut operands: Vec<ValueId> = seconds.clone();
    operands.push(last);
    host.launch(ir, body, &kernel, LaunchShape { grid, block: plan.block }, &direct, &operands);
    for f in &ping_pong {
        let copy = host.new_kernel(ir, &[host.arg_type(f.arg).cloned().ok_or("a field without host type")?]);
        build_copy_kernel(ir, plan, f, &copy, &location)?;
        let mut copy_grid = [one; 3];
        let mut block = [1i64; 3];
        block[0] = 256;
        let total = f
            .shape
            .iter()
            .cloned()
            .reduce(|a, b| AffineExpr::binary(AffineBinOp::Mul, a, b))
            .unwrap_or(AffineExpr::Constant(1));
        copy_grid[0] = host.grid_size(ir, body, &total, 256, 0, &[])?;
        let from_second: HashMap<ValueId, ValueId> = [(f.arg, second[&f.arg])].into_iter().collect();
        let original = host.host_arg(f.arg).ok_or("a field without host argument")?;
        host.launch(ir, body, &copy, LaunchShape { grid: copy_grid, block }, &from_second, &[original]);
    }
    Ok(())
}

/// `affine.for %iv = lower to min(uppers)` on the host; the induction variable and its body.
fn host_range(
    ir: &mut Ir,
    host: &HostSide,
    at: InsertPoint,
    lower: &AffineExpr,
    uppers: &[AffineExpr],
    location: &Location,
) -> Result<(ValueId, InsertPoint), String> {
    let lo = MapOperands::compact(std::slice::from_ref(lower), &[], &host.func.params)?;
    let hi = MapOperands::compact(uppers, &[], &host.func.params)?;
    let (_, iv, body) = affine_for(ir, at, lo, hi, 1, location);
    let terminator = ir.block_ops(body).last().copied().ok_or("an affine.for without terminator")?;
    Ok((iv, InsertPoint::Before(terminator)))
}

/// The values of `exprs` (over the parameters) in a kernel.
pub(super) fn values(
    ir: &mut Ir,
    at: InsertPoint,
    exprs: &[AffineExpr],
    params: &[ValueId],
    location: &Location,
) -> Result<Vec<ValueId>, String> {
    let indexer = ArithIndexer { dims: &[], params };
    exprs.iter().map(|e| indexer.value(ir, at, e, location)).collect()
}

/// Which way [`copy_box`] copies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Copy {
    /// Global memory into the shared buffer (a tile's load).
    ToShared,
    /// The shared buffer into global memory (a tile's write-back).
    ToGlobal,
}

/// Whether the box `[lo, hi)` has a point outside the box `[inner_lo, inner_hi)` (an empty
/// box has none).
fn outside_box(
    ir: &mut Ir,
    at: InsertPoint,
    (lo, hi): (&[ValueId], &[ValueId]),
    inner: (&[ValueId], &[ValueId]),
    location: &Location,
) -> ValueId {
    let mut nonempty: Option<ValueId> = None;
    for d in 0..lo.len() {
        let has = compare(ir, at, SLT, lo[d], hi[d], location);
        nonempty = Some(join(ir, at, "arith.andi", nonempty, has, location));
    }
    // Its last point is `hi − 1`: it leaves where `lo < inner_lo` or `hi − 1 ≥ inner_hi`.
    let leaves = beyond(ir, at, (lo, hi), inner, SGT, location);
    match (nonempty, leaves) {
        (Some(n), Some(l)) => binary(ir, at, "arith.andi", n, l, Type::I1, location),
        _ => true_constant(ir, at, location),
    }
}

/// `∨_d (low_d < inner_lo_d ∨ high_d ⋈ inner_hi_d)` with `⋈` the `arith.cmpi` predicate
/// `above` (`sge` for a point, `low = high`; `sgt` for a box's exclusive upper end); `None`
/// without dimensions.
fn beyond(
    ir: &mut Ir,
    at: InsertPoint,
    (low, high): (&[ValueId], &[ValueId]),
    (inner_lo, inner_hi): (&[ValueId], &[ValueId]),
    above: i64,
    location: &Location,
) -> Option<ValueId> {
    let mut any: Option<ValueId> = None;
    for d in 0..low.len() {
        let below = compare(ir, at, SLT, low[d], inner_lo[d], location);
        let over = compare(ir, at, above, high[d], inner_hi[d], location);
        let out = binary(ir, at, "arith.ori", below, over, Type::I1, location);
        any = Some(join(ir, at, "arith.ori", any, out, location));
    }
    any
}

/// `value`, or `acc op value` (`arith.andi`, `arith.ori`) after the first.
fn join(ir: &mut Ir, at: InsertPoint, op: &str, acc: Option<ValueId>, value: ValueId, location: &Location) -> ValueId {
    match acc {
        None => value,
        Some(a) => binary(ir, at, op, a, value, Type::I1, location),
    }
}

/// Copies the points of the box `[lo, hi)` between a field in global memory and its shared
/// buffer (whose first element is the field's element `base`), spread over the block's
/// threads with the innermost coordinate fastest (coalesced); with `skip`, only the points
/// outside that box.
#[allow(clippy::too_many_arguments)]
fn copy_box(
    ir: &mut Ir,
    at: InsertPoint,
    ids: &ThreadIds,
    (lo, hi): (&[ValueId], &[ValueId]),
    (nominal, threads): (&[i64], i64),
    skip: Option<(&[ValueId], &[ValueId])>,
    base: &[ValueId],
    (global, buffer, slot): (ValueId, ValueId, Option<ValueId>),
    direction: Copy,
    element: &Type,
    location: &Location,
) -> Result<(), String> {
    for_each_point(ir, at, ids, (lo, hi), nominal, threads, location, &mut |ir, at, point| {
        let outside = skip.and_then(|inner| beyond(ir, at, (point, point), inner, SGE, location));
        let at = match outside {
            Some(o) => ops::scf_if(ir, at, o, location),
            None => at,
        };
        let mut local: Vec<ValueId> = slot.into_iter().collect();
        local.extend(point.iter().zip(base).map(|(&p, &b)| binary(ir, at, "arith.subi", p, b, Type::Index, location)));
        let (from, from_index, to, to_index) = match direction {
            Copy::ToShared => (global, point.to_vec(), buffer, local),
            Copy::ToGlobal => (buffer, local, global, point.to_vec()),
        };
        let v = load(ir, at, from, from_index, element.clone(), location);
        store(ir, at, v, to, to_index, location);
        Ok(())
    })
}

/// A copy-back renamed instead of run: apply `copy` sets field `to` to field `from` at every
/// point of its box (Jacobi's `A = B`), right after `from`'s only writer computed `from` over the
/// same box. Rather than copying in shared memory at every step, the two fields share a buffer
/// of two slots: `to` lives in slot `s mod 2` at step `s` until the copy, `from` is written into
/// the other, and from the copy on `to` is that other slot — the copy is a renaming. It is exact
/// because outside the copy's box `to` never changes (its values are loaded into both slots),
/// `from` is never read outside its writer's box (it is not loaded), and inside the box the
/// points a later read reaches were computed in this step (the regions shrink as under the
/// copy). Saves the copy's loads, stores and barrier at every step.
struct CopyRename {
    copy: usize,
    /// Index into `Plan::fields` of the copy's target.
    to: usize,
    /// Index into `Plan::fields` of the copy's source.
    from: usize,
}

impl CopyRename {
    /// The first copy-back of `plan` that can be renamed: a pure copy of another field at the
    /// point, whose target is written by nothing else and alternates between launches, and whose
    /// source is not loaded, written by one earlier apply over the same box, of the same type.
    /// Only with two steps or more per launch: the renaming costs the tiles at the field's edges
    /// a second pass over their buffer box at the load (the values outside the copy's box, into
    /// the other slot), which one copy saved per launch does not repay (Jacobi-3D's tiles of
    /// 4x8x32, one step: 1.36 -> 1.97 warp-instructions per update).
    fn find(ir: &Ir, info: &ScopInfo, plan: &Plan) -> Option<CopyRename> {
        if plan.time_tile < 2 {
            return None;
        }
        let field = |arg: ValueId| plan.fields.iter().position(|f| f.arg == arg);
        plan.applies.iter().enumerate().find_map(|(copy, apply)| {
            let source = apply.copied_field(ir, info)?;
            let (to, from) = (field(apply.written)?, field(source)?);
            let writers =
                |f: usize| plan.applies.iter().enumerate().filter(move |(_, a)| a.written == plan.fields[f].arg);
            let only_writer_of_to = writers(to).all(|(k, _)| k == copy);
            let mut source_writers = writers(from);
            let (writer, first) = source_writers.next()?;
            let same_box = first.lower == apply.lower && first.upper == apply.upper;
            let (t, f) = (&plan.fields[to], &plan.fields[from]);
            let fits = to != from
                && only_writer_of_to
                && source_writers.next().is_none()
                && writer < copy
                && same_box
                && t.ping_pong()
                && f.written
                && !f.loaded
                && !f.ring_only
                && t.element == f.element;
            fits.then_some(CopyRename { copy, to, from })
        })
    }

    /// Whether field `i` is one of the two.
    fn pairs(&self, i: usize) -> bool {
        i == self.to || i == self.from
    }
}

/// The tile kernel: load, `time_tile` steps of every apply on shared memory, write back.
fn build_tile_kernel(
    ir: &mut Ir,
    info: &ScopInfo,
    plan: &Plan,
    kernel: &KernelFunc,
    location: &Location,
) -> Result<(), String> {
    let at = kernel.at;
    let rank = plan.rank;
    let ids = ThreadIds::read(ir, at, location);
    let threads: i64 = plan.block.iter().product();
    let c = |ir: &mut Ir, at: InsertPoint, v: i64| index_constant(ir, at, v, location);
    let t0 = *kernel.extra.last().ok_or("the tile kernel has no t0 argument")?;
    let t_end = values(ir, at, std::slice::from_ref(&plan.time.upper), &kernel.params, location)?[0];
    // steps = min(time_tile, t_end − t0): the last launch may have fewer.
    let remaining = binary(ir, at, "arith.subi", t_end, t0, Type::Index, location);
    let b = c(ir, at, plan.time_tile);
    let steps = binary(ir, at, "arith.minsi", remaining, b, Type::Index, location);
    let last_launch = compare(ir, at, SLE, remaining, b, location);
    // The tile's first point and the buffers' first element, per dimension.
    let mut origin = vec![];
    let mut base = vec![];
    for d in 0..rank {
        let axis = rank - 1 - d;
        let t = c(ir, at, plan.tile[d]);
        let o = binary(ir, at, "arith.muli", ids.bid[axis], t, Type::Index, location);
        let h = c(ir, at, plan.halo_lo[d]);
        base.push(binary(ir, at, "arith.subi", o, h, Type::Index, location));
        origin.push(o);
    }
    // Shared buffers and where each field is read from / written to; the two fields of a
    // renamed copy-back share one buffer of two slots (`CopyRename`), whose slot depends on
    // the step.
    let rename = CopyRename::find(ir, info, plan);
    let mut staged: HashMap<ValueId, StagedField> = HashMap::new();
    let mut buffers = vec![];
    let mut pair_buffer = None;
    for (i, f) in plan.fields.iter().enumerate() {
        let buffer = match (&rename, pair_buffer) {
            (Some(r), Some(shared)) if r.pairs(i) => shared,
            (Some(r), None) if r.pairs(i) => {
                let mut extent = vec![2];
                extent.extend_from_slice(&plan.extent);
                let shared = ops::workgroup_buffer(ir, kernel.func, kernel.entry, &extent, &f.element);
                pair_buffer = Some(shared);
                shared
            }
            _ => {
                let buffer = ops::workgroup_buffer(ir, kernel.func, kernel.entry, &plan.extent, &f.element);
                staged.insert(kernel.args[&f.arg], StagedField::new(buffer, base.clone()));
                buffer
            }
        };
        buffers.push(buffer);
    }
    let slot_of = |ir: &mut Ir, i: usize, slot: i64| -> Option<ValueId> {
        rename.as_ref().filter(|r| r.pairs(i)).map(|_| index_constant(ir, at, slot, location))
    };
    // 1. Load: the buffer box clipped to the field.
    for (i, (f, &buffer)) in plan.fields.iter().zip(&buffers).enumerate() {
        if !f.loaded {
            continue;
        }
        let slot = slot_of(ir, i, 0);
        let size = values(ir, at, &f.shape, &kernel.params, location)?;
        let zero = c(ir, at, 0);
        let (mut lo, mut hi) = (vec![], vec![]);
        for d in 0..rank {
            let e = c(ir, at, plan.extent[d]);
            let end = binary(ir, at, "arith.addi", base[d], e, Type::Index, location);
            lo.push(binary(ir, at, "arith.maxsi", base[d], zero, Type::Index, location));
            hi.push(binary(ir, at, "arith.minsi", end, size[d], Type::Index, location));
        }
        let source = kernel.args[&f.arg];
        let deal = (&plan.extent[..], threads);
        // The points of the load box outside the box `[l, h)` (over the parameters) into `slot`,
        // in the tiles whose load box leaves it (uniform over the block: most tiles skip it).
        let load_outside = |ir: &mut Ir, (l, h): (&[AffineExpr], &[AffineExpr]), slot| -> Result<(), String> {
            let l = values(ir, at, l, &kernel.params, location)?;
            let h = values(ir, at, h, &kernel.params, location)?;
            let leaves = outside_box(ir, at, (&lo, &hi), (&l, &h), location);
            let body = ops::scf_if(ir, at, leaves, location);
            let skip = Some((&l[..], &h[..]));
            let copy = (source, buffer, slot);
            copy_box(ir, body, &ids, (&lo, &hi), deal, skip, &base, copy, Copy::ToShared, &f.element, location)
        };
        match (&f.write_box, f.ring_only) {
            // Only the points outside the writer's box.
            (Some((wl, wh)), true) => load_outside(ir, (wl, wh), slot)?,
            _ => {
                let copy = (source, buffer, slot);
                copy_box(ir, at, &ids, (&lo, &hi), deal, None, &base, copy, Copy::ToShared, &f.element, location)?;
                // A renamed copy's target: the values outside the copy's box (never written)
                // in the other slot too.
                if let Some(r) = rename.as_ref().filter(|r| r.to == i) {
                    let other = slot_of(ir, i, 1);
                    let copy = &plan.applies[r.copy];
                    load_outside(ir, (&copy.lower, &copy.upper), other)?;
                }
            }
        }
    }
    ops::barrier(ir, at, location);
    // 2. The time steps.
    let zero = c(ir, at, 0);
    let one = c(ir, at, 1);
    let (s, step_body) = ops::scf_for(ir, at, zero, steps, one, location);
    let t = binary(ir, step_body, "arith.addi", t0, s, Type::Index, location);
    // Steps still to come after this one.
    let last = binary(ir, step_body, "arith.subi", steps, one, Type::Index, location);
    let later = binary(ir, step_body, "arith.subi", last, s, Type::Index, location);
    // A renamed copy-back's fields: the copy's target in slot `s mod 2` until the copy, then in
    // the other slot, where its source is written.
    let slots = match (&rename, pair_buffer) {
        (Some(r), Some(pair)) => {
            let two = c(ir, step_body, 2);
            let parity = binary(ir, step_body, "arith.remui", s, two, Type::Index, location);
            let other = binary(ir, step_body, "arith.subi", one, parity, Type::Index, location);
            Some((r, pair, parity, other))
        }
        _ => None,
    };
    for (k, apply) in plan.applies.iter().enumerate() {
        let staged = match slots {
            Some((r, _, _, _)) if k == r.copy => continue,
            Some((r, pair, parity, other)) => {
                let to_slot = if k < r.copy { parity } else { other };
                let mut staged = staged.clone();
                staged.insert(kernel.args[&plan.fields[r.to].arg], StagedField::in_slot(pair, base.clone(), to_slot));
                staged.insert(kernel.args[&plan.fields[r.from].arg], StagedField::in_slot(pair, base.clone(), other));
                Cow::Owned(staged)
            }
            None => Cow::Borrowed(&staged),
        };
        let box_lo = values(ir, step_body, &apply.lower, &kernel.params, location)?;
        let box_hi = values(ir, step_body, &apply.upper, &kernel.params, location)?;
        let (mut lo, mut hi) = (vec![], vec![]);
        for d in 0..rank {
            // The halo still needed below/above: the later steps' reach plus the later applies'.
            let per_step_lo = c(ir, step_body, plan.step_lo[d]);
            let later_lo = binary(ir, step_body, "arith.muli", later, per_step_lo, Type::Index, location);
            let after_lo = c(ir, step_body, plan.after_lo[k][d]);
            let need_lo = binary(ir, step_body, "arith.addi", later_lo, after_lo, Type::Index, location);
            let per_step_hi = c(ir, step_body, plan.step_hi[d]);
            let later_hi = binary(ir, step_body, "arith.muli", later, per_step_hi, Type::Index, location);
            let after_hi = c(ir, step_body, plan.after_hi[k][d]);
            let need_hi = binary(ir, step_body, "arith.addi", later_hi, after_hi, Type::Index, location);
            let from = binary(ir, step_body, "arith.subi", origin[d], need_lo, Type::Index, location);
            let tile = c(ir, step_body, plan.tile[d]);
            let tile_end = binary(ir, step_body, "arith.addi", origin[d], tile, Type::Index, location);
            let to = binary(ir, step_body, "arith.addi", tile_end, need_hi, Type::Index, location);
            lo.push(binary(ir, step_body, "arith.maxsi", from, box_lo[d], Type::Index, location));
            hi.push(binary(ir, step_body, "arith.minsi", to, box_hi[d], Type::Index, location));
        }
        let statement = apply.statement;
        // The threads are fitted to the first step's box, the widest (later steps need less
        // halo).
        let nominal = plan.first_step_box(k).ok_or("the tile's first step box overflows")?;
        for_each_point(ir, step_body, &ids, (&lo, &hi), &nominal, threads, location, &mut |ir, at, point| {
            let mut dims: Vec<Option<ValueId>> = vec![Some(t)];
            dims.extend(point.iter().map(|&p| Some(p)));
            let iters: Vec<AffineExpr> = (0..=rank).map(|k| AffineExpr::Dim(k as u32)).collect();
            let inner = ArithIndexer { dims: &dims, params: &kernel.params };
            let mut indexer = StagedIndexer { inner, staged: &staged };
            copy_statement(ir, info, statement, &iters, &kernel.args, at, &mut indexer)
        })?;
        // The apply is complete before the next reads its results.
        ops::barrier(ir, step_body, location);
    }
    // 3. Write back the tile of every written field, clipped to the field (and, for a field
    // not loaded, to the box its writer covers); a field the next launch recomputes before
    // reading it only after the last step (`FieldPlan::written_back_at_end_only`).
    // A renamed pair ends in slot `steps mod 2`, both fields.
    let final_slot = rename.as_ref().map(|_| {
        let two = c(ir, at, 2);
        binary(ir, at, "arith.remui", steps, two, Type::Index, location)
    });
    for (i, (f, &buffer)) in plan.fields.iter().zip(&buffers).enumerate() {
        if !f.written {
            continue;
        }
        let slot = final_slot.filter(|_| rename.as_ref().is_some_and(|r| r.pairs(i)));
        let size = values(ir, at, &f.shape, &kernel.params, location)?;
        let zero = c(ir, at, 0);
        let (mut lo, mut hi) = (vec![], vec![]);
        let write_box = match &f.write_box {
            Some((l, h)) => {
                Some((values(ir, at, l, &kernel.params, location)?, values(ir, at, h, &kernel.params, location)?))
            }
            None => None,
        };
        for d in 0..rank {
            let t = c(ir, at, plan.tile[d]);
            let end = binary(ir, at, "arith.addi", origin[d], t, Type::Index, location);
            let mut l = binary(ir, at, "arith.maxsi", origin[d], zero, Type::Index, location);
            let mut h = binary(ir, at, "arith.minsi", end, size[d], Type::Index, location);
            if let Some((wl, wh)) = &write_box {
                l = binary(ir, at, "arith.maxsi", l, wl[d], Type::Index, location);
                h = binary(ir, at, "arith.minsi", h, wh[d], Type::Index, location);
            }
            lo.push(l);
            hi.push(h);
        }
        let target = plan.destination(kernel, f);
        let at = if f.written_back_at_end_only() { ops::scf_if(ir, at, last_launch, location) } else { at };
        let deal = (&plan.tile[..], threads);
        let copy = (target, buffer, slot);
        copy_box(ir, at, &ids, (&lo, &hi), deal, None, &base, copy, Copy::ToGlobal, &f.element, location)?;
    }
    Ok(())
}

/// `destination[p] = field[p]` over the whole field (the second buffer back into the field
/// after an odd number of launches): the program argument `f.arg` is the source (the host
/// passes the second buffer for it), the kernel's extra argument the destination.
fn build_copy_kernel(
    ir: &mut Ir,
    plan: &Plan,
    f: &FieldPlan,
    kernel: &KernelFunc,
    location: &Location,
) -> Result<(), String> {
    let at = kernel.at;
    let ids = ThreadIds::read(ir, at, location);
    let size = values(ir, at, &f.shape, &kernel.params, location)?;
    let source = kernel.args[&f.arg];
    let destination = *kernel.extra.first().ok_or("the copy kernel has no destination")?;
    // One linear index per thread over the grid, delinearised innermost-fastest.
    let (thread, threads) = ids.linear(ir, at, 0, location);
    let first = binary(ir, at, "arith.muli", ids.bid[0], threads, Type::Index, location);
    let start = binary(ir, at, "arith.addi", first, thread, Type::Index, location);
    let stride = binary(ir, at, "arith.muli", ids.gdim[0], threads, Type::Index, location);
    let mut total = size[0];
    for &s in &size[1..] {
        total = binary(ir, at, "arith.muli", total, s, Type::Index, location);
    }
    let (linear, body) = ops::scf_for(ir, at, start, total, stride, location);
    let mut point = vec![linear; plan.rank];
    let mut rest = linear;
    for d in (1..plan.rank).rev() {
        point[d] = binary(ir, body, "arith.remui", rest, size[d], Type::Index, location);
        rest = binary(ir, body, "arith.divui", rest, size[d], Type::Index, location);
    }
    point[0] = rest;
    let v = load(ir, body, source, point.clone(), f.element.clone(), location);
    store(ir, body, v, destination, point, location);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_hiding_blocks_keep_32_warps_where_shared_memory_allows() {
        let h100 = DeviceLimits::h100();
        // ⌈32 warps ÷ warps per block⌉ when nothing else limits.
        assert_eq!(latency_hiding_blocks(&h100, &[32, 4, 2], 46_080), Ok(4));
        assert_eq!(latency_hiding_blocks(&h100, &[128, 1, 1], 0), Ok(8));
        assert_eq!(latency_hiding_blocks(&h100, &[64, 1, 1], 0), Ok(16));
        assert_eq!(latency_hiding_blocks(&h100, &[1024, 1, 1], 0), Ok(1));
        // 48 threads are 2 warps: 16 blocks.
        assert_eq!(latency_hiding_blocks(&h100, &[48, 1, 1], 0), Ok(16));
        // Two blocks of 100 KiB (plus 1 KiB reserved each) fit 228 KiB, three do not.
        assert_eq!(latency_hiding_blocks(&h100, &[32, 8, 1], 102_400), Ok(2));
        // Past the per-block limit: no residency to ask for.
        assert!(latency_hiding_blocks(&h100, &[32, 8, 1], 300_000).is_err());
        assert!(latency_hiding_blocks(&h100, &[2048, 1, 1], 0).is_err());
    }
}
