//! `gpu-map{strategy=auto}`: the strategy our GPU measurements favour for the program, chosen
//! by what the program is.
//!
//! * A program `poly-schedule` scheduled or `poly-tile` tiled asked for the thesis' tiles:
//!   `wavefront`. One scheduled but not tiled whose schedule has no parallel loop to map
//!   (Pluto's skewed Jacobi) is then tiled on that schedule, as `poly-tile{sizes=auto}` would
//!   (`block=auto`), else with fixed sizes.
//! * A program `stencil-mlsor` rewrote (its `sor.rewrite` says `method = "mlsor"`): `mlsor`,
//!   the method's own kernels (one thread per tile), then `wavefront`.
//! * Otherwise the temporal and one-thread-per-point strategies are tried in the order the
//!   measured benchmark table ranks them for the applies' rank, and the first that maps the
//!   program is taken (every strategy leaves the IR untouched when it refuses):
//!   - 1-D and 2-D: `overlapped` (2.6–3.3× the naive kernel for 2-D Jacobi and heat-2d on an
//!     H200, 1.5–1.8× for PolyBench's Jacobi-2D, `bench/results/2026-11-30-h200-82b2037`), then
//!     `naive`;
//!   - 3-D: `streaming` with `prefetch` and `occupancy=model`, then `naive`. The H200 measured
//!     the streaming kernels latency-bound; `occupancy=model` keeps 32 warps per SM resident
//!     (Jacobi-3D-27pt: 125 → 64 registers, no spill, `bench/results/2026-11-28-streaming-occupancy.txt`).
//!     Where a time step's applies fuse without recomputed halos ([`fuses_without_halos`]: no
//!     apply reads around its point, across the planes, a field an earlier apply of the step
//!     wrote, as Jacobi's copy-back and two independent stencils with their copies do), the
//!     copy moves through shared memory instead of a second pass over global memory: on an
//!     H200 Jacobi-3D-7pt runs at 1.99× (f64) and 2.11× (f32) the naive kernel, the 27-point
//!     one at 1.76× and 1.82× (`bench/results/2026-11-30-h200-82b2037`). Where the second
//!     apply is a stencil too (PolyBench heat-3d's ping-pong), the first is recomputed on a
//!     halo around every plane tile; since heat-3d's second field is no longer loaded and
//!     written back every launch (`bench/results/2026-11-28-write-back-at-end.txt`) that runs
//!     at 1.53× (f64) and 1.41× (f32) the naive kernel on the same H200, which was the choice
//!     there before. The HHC 3-D ping-pong stencils have the same kernel shape and DRAM bytes
//!     in the cost report and are streamed on that measurement, not yet timed themselves (the
//!     GPU bundle's `DECISIONS` ask). Only that halo shape is streamed
//!     ([`fuses_with_a_measured_halo`]: two applies a step, every read at most one point
//!     away); longer chains and wider halos recompute more and keep the naive kernel;
//!   - then `wavefront`, the only strategy for SOR-like (DOACROSS) programs, on tiles `auto`
//!     chooses itself ([`AutoTiling`]): scheduled and tiled as
//!     `poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto}` would (the measured default
//!     for SOR, `bench/results/2026-11-27-h200-6d57acf`), else, where the tile model does not
//!     size the tiles, with fixed sizes; and where neither maps it on `poly-schedule`'s default
//!     schedule (no balanced hyperplane, or a band that leaves a statement's loops to
//!     sequential host loops), the same two on a schedule made with `intra-balance=false`.
//!
//! The host function's `stencil.gpu_mapping` records the strategy taken and `auto` with the
//! reason, so a report says what ran and why.

use stencil_ir::ir::WalkOrder;
use stencil_ir::{Attribute, Diagnostic, DialectRegistry, Ir, OpId};
use stencil_passes::schedule::{schedule_program, ScheduleSettings, BANDS_ATTR, SCHEDULE_ATTR};
use stencil_passes::tile::{record_tiling, TilingSpec, TILING_ATTR};
use stencil_passes::tile_model::{choose_tiling, AutoOptions, Staging};
use stencil_poly::tiling::TilingOptions;

use super::nest::{ApplyBox, NestItem, Read};
use super::{mapping_error, refusal_reason, GpuMapOptions, MappingStrategy, Strategy, MAPPING_ATTR};

/// See the module documentation.
pub(super) struct Auto;

impl MappingStrategy for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn map(
        &self,
        ir: &mut Ir,
        registry: &DialectRegistry,
        program: OpId,
        options: &GpuMapOptions,
    ) -> Result<OpId, Diagnostic> {
        let candidates = candidates(ir, registry, program);
        let mut refusals: Vec<String> = vec![];
        // A schedule the program came with is kept (and tiled where it must be); otherwise the
        // wavefront candidates schedule it here, once.
        let came_scheduled = scheduled(ir, program);
        // The schedule made here, by whether its intra-tile wavefronts are balanced.
        let mut scheduled_here: Option<bool> = None;
        // The kinds of schedule that could not be made (each is tried once).
        let mut unschedulable: Vec<bool> = vec![];
        for candidate in &candidates {
            let &Candidate { strategy, prefetch, latency_occupancy, tiling, balanced, why } = candidate;
            let name = candidate.name();
            if let Some(tiling) = tiling {
                if !came_scheduled && scheduled_here != Some(balanced) {
                    if unschedulable.contains(&balanced) {
                        continue;
                    }
                    if scheduled_here.is_some() {
                        unschedule(ir, program);
                        scheduled_here = None;
                    }
                    if let Err(e) = schedule(ir, registry, program, balanced) {
                        // No tiling can do without a schedule; the next kind of schedule may.
                        refusals.push(format!("{name}: {}", refusal_reason(&e)));
                        unschedulable.push(balanced);
                        continue;
                    }
                    scheduled_here = Some(balanced);
                }
                if let Err(e) = tile(ir, registry, program, options, tiling) {
                    refusals.push(format!("{name}: {}", refusal_reason(&e)));
                    continue;
                }
            }
            // block=auto is the wavefront tiles' model choice (with the model's tiles unless a
            // block is given; never with the fixed ones, which the model could not size); the
            // others take their default.
            let block_auto = strategy == Strategy::Wavefront
                && match tiling {
                    None => options.block_auto,
                    Some(AutoTiling::Model) => options.block_auto || options.block.is_none(),
                    Some(AutoTiling::Fixed) => false,
                };
            // occupancy=model: the wavefront tiles' with block=auto, the temporal tiles'.
            let occupancy_by_model = latency_occupancy
                || (options.occupancy_by_model
                    && (block_auto || matches!(strategy, Strategy::Overlapped | Strategy::Streaming)));
            let chosen = GpuMapOptions { strategy, block_auto, prefetch, occupancy_by_model, ..options.clone() };
            match strategy.implementation().map(ir, registry, program, &chosen) {
                Ok(func) => {
                    annotate(ir, func, why);
                    return Ok(func);
                }
                // The only candidate (a scheduled program): its own error.
                Err(e) if candidates.len() == 1 => return Err(e),
                Err(e) => {
                    ir.remove_attr(program, TILING_ATTR);
                    refusals.push(format!("{name}: {}", refusal_reason(&e)));
                }
            }
        }
        if scheduled_here.is_some() {
            unschedule(ir, program);
        }
        Err(mapping_error(ir, program, self.name(), format!("no strategy maps it: {}", refusals.join("; "))))
    }
}

/// How `auto` tiles a program no DOALL strategy maps, once scheduled as `poly-schedule` does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AutoTiling {
    /// As `poly-tile{sizes=auto}` with `gpu-map{block=auto}`: the tile model's sizes and block
    /// at the program's problem sizes.
    Model,
    /// Where the model does not size the tiles (it covers the loops around the band that run
    /// each nest whole, and needs the problem sizes): [`FIXED_TILE`] in every row of the band
    /// (or [`FIXED_TILE_3D`] for 3-D fields) and the default block; `staging=auto` stages them
    /// where they can be staged, else maps them on global memory.
    Fixed,
}

/// The tile size of [`AutoTiling::Fixed`] for 1-D and 2-D fields: the thesis' tiles of 16.
const FIXED_TILE: i64 = 16;
/// The tile size of [`AutoTiling::Fixed`] for 3-D fields: 8, whose staged footprint of a
/// 7-point SOR tile fits CUDA's 48 KiB of static shared memory.
const FIXED_TILE_3D: i64 = 8;

/// A strategy to try, with the reason it comes at its place.
struct Candidate {
    strategy: Strategy,
    /// `prefetch=true` (streaming): the planes loaded a stream step ahead.
    prefetch: bool,
    /// `occupancy=model` (streaming): the residency that hides DRAM latency.
    latency_occupancy: bool,
    /// Wavefront: schedule and tile the program first.
    tiling: Option<AutoTiling>,
    /// Wavefront, scheduled here: with `poly-schedule`'s balanced intra-tile wavefronts (its
    /// default), or without (`intra-balance=false`: where no balanced hyperplane exists, or its
    /// band leaves a statement's loops untiled).
    balanced: bool,
    why: &'static str,
}

impl Candidate {
    fn new(strategy: Strategy, why: &'static str) -> Candidate {
        Candidate { strategy, prefetch: false, latency_occupancy: false, tiling: None, balanced: true, why }
    }

    /// The name a refusal goes by: the strategy's, with the tiling `auto` tried.
    fn name(&self) -> String {
        let strategy = self.strategy.implementation().name();
        let unbalanced = if self.balanced { "" } else { ", intra-balance=false" };
        match self.tiling {
            None => strategy.to_string(),
            Some(AutoTiling::Model) => format!("{strategy} (the tile model's tiles{unbalanced})"),
            Some(AutoTiling::Fixed) => format!("{strategy} (fixed tiles{unbalanced})"),
        }
    }
}

/// The strategies to try, in order.
fn candidates(ir: &Ir, registry: &DialectRegistry, program: OpId) -> Vec<Candidate> {
    if scheduled(ir, program) {
        let mut list =
            vec![Candidate::new(Strategy::Wavefront, "the program is scheduled or tiled (poly-schedule, poly-tile)")];
        if ir.attr(program, TILING_ATTR).is_none() {
            // Untiled, its schedule may have no parallel loop (Pluto skews Jacobi's space by
            // time): tiles on that schedule give the wavefront of tiles.
            list.push(Candidate {
                tiling: Some(AutoTiling::Model),
                ..Candidate::new(
                    Strategy::Wavefront,
                    "scheduled, and its schedule untiled has no parallel loop: tiled on it as poly-tile{sizes=auto} would, block=auto",
                )
            });
            list.push(Candidate {
                tiling: Some(AutoTiling::Fixed),
                ..Candidate::new(
                    Strategy::Wavefront,
                    "scheduled, its schedule untiled has no parallel loop and the tile model does not size its tiles: tiles of 16 (8 in 3-D)",
                )
            });
        }
        return list;
    }
    // An SOR-like program: the tile model's tiles, else fixed ones.
    let wavefront = [
        Candidate {
            tiling: Some(AutoTiling::Model),
            ..Candidate::new(
                Strategy::Wavefront,
                "no DOALL strategy maps it (e.g. SOR-like applies): scheduled and tiled as poly-schedule,poly-tile{sizes=auto} would, block=auto",
            )
        },
        Candidate {
            tiling: Some(AutoTiling::Fixed),
            ..Candidate::new(
                Strategy::Wavefront,
                "no DOALL strategy maps it and the tile model does not size its tiles: poly-schedule, tiles of 16 (8 in 3-D)",
            )
        },
        Candidate {
            tiling: Some(AutoTiling::Model),
            balanced: false,
            ..Candidate::new(
                Strategy::Wavefront,
                "no DOALL strategy maps it and no balanced schedule tiles it: scheduled and tiled as poly-schedule{intra-balance=false},poly-tile{sizes=auto} would, block=auto",
            )
        },
        Candidate {
            tiling: Some(AutoTiling::Fixed),
            balanced: false,
            ..Candidate::new(
                Strategy::Wavefront,
                "no DOALL strategy maps it, no balanced schedule tiles it and the tile model does not size its tiles: poly-schedule{intra-balance=false}, tiles of 16 (8 in 3-D)",
            )
        },
    ];
    if mlsor_program(ir, program) {
        let mut list =
            vec![Candidate::new(Strategy::Mlsor, "an MLSOR program (stencil-mlsor): the method's own kernels")];
        list.extend(wavefront);
        return list;
    }
    let mut list = vec![];
    if rank(ir, program) >= 3 {
        // Streaming first where a step's applies fuse without a halo, and where they fuse with
        // the halo of the shape measured: a second stencil reading the first's results one
        // point around its own (heat-3d's ping-pong: 1.53× (f64) and 1.41× (f32) the naive
        // kernel on an H200, `bench/results/2026-11-30-h200-82b2037`). Deeper chains and wider
        // halos recompute more and are not measured: the naive kernel.
        let why = if fuses_without_halos(ir, registry, program) {
            Some("3-D DOALL whose applies fuse without recomputed halos: streaming with prefetch is the fastest measured")
        } else if fuses_with_a_measured_halo(ir, registry, program) {
            Some("3-D DOALL of two applies, the second reading the first one point around: streaming with prefetch (the first recomputed on a halo) is the fastest measured")
        } else {
            None
        };
        if let Some(why) = why {
            list.push(Candidate {
                strategy: Strategy::Streaming,
                prefetch: true,
                latency_occupancy: true,
                ..Candidate::new(Strategy::Streaming, why)
            });
        }
        list.push(Candidate::new(
            Strategy::Naive,
            if why.is_some() {
                "3-D DOALL, but streaming does not apply"
            } else {
                "3-D DOALL whose applies would recompute a halo of a shape not measured: the naive kernel"
            },
        ));
    } else {
        list.push(Candidate::new(
            Strategy::Overlapped,
            "1-D/2-D DOALL: temporal blocking with overlapped tiles is the fastest measured",
        ));
        list.push(Candidate::new(Strategy::Naive, "DOALL, but overlapped tiles do not apply"));
    }
    list.extend(wavefront);
    list
}

/// Whether one time step's applies fuse in a streaming launch without a recomputed halo: no
/// apply reads a field an earlier apply of the step writes at an offset along the plane
/// dimensions (any offset along the stream, the outermost, costs only a delay; fields the step
/// has not written yet, such as a second independent stencil's input, any offset). The
/// streaming schedule grows an apply's plane tile by what the applies after it read of its
/// results around their point (`streaming` module docs); here nothing is grown within a step.
/// `false` for any program that is not one time loop of DOALL applies with constant offsets
/// (streaming refuses those).
fn fuses_without_halos(ir: &Ir, registry: &DialectRegistry, program: OpId) -> bool {
    let Some(applies) = step_applies(ir, registry, program) else { return false };
    // A general read (of a field no apply writes: streaming refuses others) needs no halo.
    let at_own_plane_point = |r: &Read| r.offset.as_ref().is_none_or(|o| o.iter().skip(1).all(|&x| x == 0));
    applies.iter().all(|a| a.is_doall())
        && applies.iter().enumerate().all(|(k, a)| {
            a.reads.iter().all(|r| at_own_plane_point(r) || applies[..k].iter().all(|b| b.written != r.field))
        })
}

/// Whether one time step is two applies, the second reading what the first wrote at most one
/// point away along every dimension (and anything else at constant offsets of at most one):
/// the halo shape of PolyBench heat-3d, whose streaming mapping the H200 measured faster than
/// the naive kernel. `false` for any program that is not one time loop of DOALL applies.
fn fuses_with_a_measured_halo(ir: &Ir, registry: &DialectRegistry, program: OpId) -> bool {
    let Some(applies) = step_applies(ir, registry, program) else { return false };
    let within_one = |r: &Read| r.offset.as_ref().is_some_and(|o| o.iter().all(|x| x.abs() <= 1));
    applies.len() == 2 && applies.iter().all(|a| a.is_doall() && a.reads.iter().all(within_one))
}

/// The applies of the program's time step, in order, where the program is one time loop of
/// applies and nothing else; `None` otherwise.
fn step_applies(ir: &Ir, registry: &DialectRegistry, program: OpId) -> Option<Vec<ApplyBox>> {
    let Ok((_, nest)) = super::direct_program(ir, registry, program, "auto") else { return None };
    let [NestItem::Loop(time)] = nest.as_slice() else { return None };
    time.body.iter().map(|i| if let NestItem::Apply(a) = i { Some(a.clone()) } else { None }).collect()
}

/// Schedules the unscheduled `program` as `poly-schedule` does with its default options, or
/// with `intra-balance=false` where not `balanced`.
fn schedule(ir: &mut Ir, registry: &DialectRegistry, program: OpId, balanced: bool) -> Result<(), Diagnostic> {
    let mut settings = ScheduleSettings::default();
    settings.options.intra_balance = balanced;
    let scheduled = schedule_program(ir, registry, program, &settings);
    match scheduled {
        // An over-budget program keeps its own order, as poly-schedule's default does; its
        // warning goes to the log (a pass strategy has no diagnostic stream).
        Ok(warning) => {
            if let Some(warning) = warning {
                tracing::warn!("{}", warning.message);
            }
            Ok(())
        }
        Err(e) => {
            unschedule(ir, program);
            Err(e)
        }
    }
}

/// Tiles the scheduled `program` as `poly-tile` does: with [`AutoTiling::Model`] `sizes=auto`
/// (the tile model searches for `options`' staging and shared memory, at the program's problem
/// sizes), with [`AutoTiling::Fixed`] the fixed sizes. Records nothing on failure.
fn tile(
    ir: &mut Ir,
    registry: &DialectRegistry,
    program: OpId,
    options: &GpuMapOptions,
    tiling: AutoTiling,
) -> Result<(), Diagnostic> {
    let spec = match tiling {
        AutoTiling::Model => {
            let search = AutoOptions {
                staging: options.staging.resolve(None),
                staging_by_model: options.staging == Staging::Auto,
                shared_memory: options.shared_memory,
                ..AutoOptions::default()
            };
            let base = TilingSpec { sizes: vec![], options: TilingOptions::default(), auto: None };
            choose_tiling(ir, registry, program, &base, &search)?
        }
        AutoTiling::Fixed => {
            let size = if rank(ir, program) >= 3 { FIXED_TILE_3D } else { FIXED_TILE };
            TilingSpec { sizes: vec![size], options: TilingOptions::default(), auto: None }
        }
    };
    record_tiling(ir, registry, program, &spec)
}

/// Removes what [`schedule`] and [`tile`] recorded: the tiling and the applies' schedules.
fn unschedule(ir: &mut Ir, program: OpId) {
    ir.remove_attr(program, TILING_ATTR);
    let mut applies = vec![];
    ir.walk(program, WalkOrder::PreOrder, &mut |op| {
        if ir.attr(op, SCHEDULE_ATTR).is_some() || ir.attr(op, BANDS_ATTR).is_some() {
            applies.push(op);
        }
    });
    for op in applies {
        ir.remove_attr(op, SCHEDULE_ATTR);
        ir.remove_attr(op, BANDS_ATTR);
    }
}

/// Whether `stencil-mlsor` rewrote the program.
pub(super) fn mlsor_program(ir: &Ir, program: OpId) -> bool {
    let Some(Attribute::Dictionary(entries)) = ir.attr(program, stencil_passes::sor::REWRITE_ATTR) else {
        return false;
    };
    stencil_ir::attributes::get_named(entries, "method").and_then(Attribute::as_str) == Some("mlsor")
}

/// Whether `poly-schedule` or `poly-tile` left their attributes on the program.
fn scheduled(ir: &Ir, program: OpId) -> bool {
    if ir.attr(program, TILING_ATTR).is_some() {
        return true;
    }
    let mut found = false;
    ir.walk(program, WalkOrder::PreOrder, &mut |op| found |= ir.attr(op, SCHEDULE_ATTR).is_some());
    found
}

/// The largest rank among the program's applies (their boxes: a 2-D program reading a 3-D
/// table of coefficients through a general index is 2-D), 0 when it has none.
fn rank(ir: &Ir, program: OpId) -> usize {
    let mut rank = 0;
    ir.walk(program, WalkOrder::PreOrder, &mut |op| {
        if ir.op_name(op) == "stencil.apply" {
            let boxed = ir.attr(op, "lower_bounds").and_then(Attribute::as_affine_map).map_or(0, |m| m.results.len());
            rank = rank.max(boxed);
        }
    });
    rank
}

/// Adds `auto = "<reason>"` to the mapping record of `func`.
fn annotate(ir: &mut Ir, func: OpId, why: &str) {
    if let Some(Attribute::Dictionary(mut entries)) = ir.attr(func, MAPPING_ATTR).cloned() {
        stencil_ir::attributes::set_named(&mut entries, "auto", Attribute::string(why));
        ir.set_attribute(func, MAPPING_ATTR, Attribute::Dictionary(entries));
    }
}
