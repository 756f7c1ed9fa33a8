//! The `streaming` strategy: temporal blocking of DOALL (Jacobi-like) programs that streams
//! along the outermost dimension — 2.5-D blocking, as hand-written and generated 3-D stencil
//! kernels do it (AN5D, "Stencilgen"), instead of the `overlapped` strategy's halo in every
//! dimension.
//!
//! A block owns a *column*: `tile[0]` planes along the outermost dimension (a chunk) times a
//! tile of the other dimensions (the *plane tile*). A launch advances it by up to `time-tile = b`
//! time steps. The `b × A` apply instances of the launch (step-major, `A` applies per step) form
//! a pipeline along the stream: at stream step `p` the block
//!
//! 1. loads plane `p` of every field that is read before it is written (clipped to the field);
//! 2. runs instance `m` on plane `p − Δ_m`, where `Δ_m = Σ_{k ≤ m} hi_k` and `hi_k` is how far
//!    instance `k` reads above its point along the stream: every plane an instance reads was
//!    computed at this or an earlier stream step;
//!
//! with a barrier after the loads and after each instance. Each instance writes a *version* of
//! its field: a ring of `depth` planes in shared memory (plane `x` in slot `x mod depth`), as
//! deep as its readers' delays and reaches require. Along the plane dimensions an instance
//! computes the plane tile grown by what the instances after it still read (as `overlapped`
//! does in every dimension); along the stream the chunk grown likewise. The last version of
//! each written field is written back (its plane tile, chunk planes only).
//!
//! **Why it is exact.** An instance reads, for each field, the latest version written before it
//! (or the loaded one), at planes `[q − lo, q + hi]` around its plane `q`: that version computed
//! planes up to `p − Δ_v ≥ q + hi` (as `Δ_m ≥ Δ_v + hi_m`) and still holds planes down to
//! `p − Δ_v − depth_v + 1 ≤ q − lo` (the depth). Points of a version outside its apply's box
//! (or of a step beyond the launch's last) take the previous version's value, so a version is
//! the whole field after its instance, as in the program. The same operations run on the same
//! values: results are bit-identical.
//!
//! **A copy fused with its source** (`Column::copy_fusions`). With one step per launch, Jacobi's
//! copy-back `A = B` copies the values the stencil just computed, plane by plane, from `B`'s
//! ring back to global memory; in a column where both plane boxes are full, the stencil's instance writes `B` and
//! `A` back from the value it computed and the copy's instance does nothing. The same value
//! reaches the same element: still bit-identical.
//!
//! A field the first apply touching it writes, over one box, is not loaded (`overlapped`'s
//! classification): where reads stay in that box every value read was computed in the launch;
//! where they leave it (a *ring-only* field, heat-3d's `B`) the first version takes the field's
//! own values outside the box, which nothing writes. Such a field is written back by the launch
//! that runs the last step only: every launch computes its box before reading it. The kernel
//! then holds the stream loop twice (`Launch`): the other launches' loop has no write-back of
//! it at all, instead of one tested at every point.
//!
//! **Why it is race-free.** A slot is rewritten one stream step after its plane's last read,
//! with barriers between; fields loaded and written alternate with second buffers between
//! launches (the host side is the `overlapped` strategy's), and a block writes back only its
//! own column — of a ring-only field only the part inside the box, so the points other blocks
//! read in place are never written.

use std::collections::HashMap;

use stencil_ir::affine::AffineExpr;
use stencil_ir::ir::InsertPoint;
use stencil_ir::{Ir, Location, Type, ValueId};
use stencil_passes::stencil_to_poly::ScopInfo;

use super::arith::{
    accumulate, binary, compare, index_constant, load, store, zero_constant, ArithIndexer, SGE, SLE, SLT,
};
use super::deal::for_each_point;
use super::host::{KernelFunc, ThreadIds};
use super::ops;
use super::overlapped::{values, Plan, TemporalTiles};
use super::staging::{relative_index, split_offset};
use crate::codegen::statement::{copy_statement, Indexer};

/// See the module documentation.
pub(super) struct Streaming;

/// Most apply instances (time steps × applies) one streaming kernel unrolls.
const MAX_INSTANCES: i64 = 256;

/// Most elements of the loaded planes one thread keeps in registers with `prefetch=true`.
const MAX_PREFETCHED: i64 = 64;

/// Who produces a version.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Producer {
    /// The launch's initial values of the field, loaded plane by plane.
    Load,
    /// Apply `apply` of step `step` of the launch.
    Instance { step: i64, apply: usize },
}

/// How an instance shares its full columns with a copy of its result (`Column::copy_fusions`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fusion {
    /// The instance runs on its own.
    Alone,
    /// In full columns this instance also writes back version `copy`, the copy of its result
    /// that runs next: from the computed value, without its own ring.
    Source { copy: usize },
    /// In full columns this copy is done by version `source`'s instance.
    Copy { source: usize },
}

/// One version of a field inside a launch.
#[derive(Debug)]
struct Version {
    /// Index into `Plan::fields`.
    field: usize,
    producer: Producer,
    /// At stream step `p` the version's plane `p − delay` is computed.
    delay: i64,
    /// Planes kept in its ring (`0`: none, nobody reads it; a last version then goes back
    /// from the value its instance computes or keeps).
    depth: i64,
    /// Per dimension, how far beyond the column this version is computed (below / above).
    halo_lo: Vec<i64>,
    halo_hi: Vec<i64>,
    /// For an instance: per field it reads, the version it reads (`None`: the field is never
    /// written, read from global memory).
    reads: HashMap<usize, Option<usize>>,
    /// For an instance: the field's version before it (copied where the apply does not write).
    previous: Option<usize>,
    /// The last version of its field in the launch (written back).
    last: bool,
}

/// The versions of a launch of `time_tile` steps, loaded ones first, then the instances in
/// order.
#[derive(Debug)]
struct Schedule {
    versions: Vec<Version>,
    /// Per dimension, the largest halos (those of the loaded versions): the rings' in-plane
    /// extents start `total_lo` below the plane tile.
    total_lo: Vec<i64>,
    total_hi: Vec<i64>,
}

impl Schedule {
    fn new(plan: &Plan, time_tile: i64) -> Result<Schedule, String> {
        let rank = plan.rank;
        let field_index = |arg: ValueId| plan.fields.iter().position(|f| f.arg == arg);
        let mut versions: Vec<Version> = vec![];
        let mut latest: HashMap<usize, usize> = HashMap::new();
        for (g, f) in plan.fields.iter().enumerate() {
            if f.ping_pong() {
                latest.insert(g, versions.len());
                versions.push(Version {
                    field: g,
                    producer: Producer::Load,
                    delay: 0,
                    depth: 0,
                    halo_lo: vec![],
                    halo_hi: vec![],
                    reads: HashMap::new(),
                    previous: None,
                    last: false,
                });
            }
        }
        let loaded = versions.len();
        let mut delay = 0i64;
        for step in 0..time_tile {
            for (a, apply) in plan.applies.iter().enumerate() {
                let mut reads = HashMap::new();
                for r in &apply.reads {
                    // A field without plan is read in global memory (a general read of a field
                    // no apply writes), not through a ring.
                    let Some(g) = field_index(r.field) else { continue };
                    let version = if plan.fields[g].written {
                        Some(*latest.get(&g).ok_or_else(|| {
                            format!("{} reads {} before anything writes it", apply.name, plan.fields[g].name)
                        })?)
                    } else {
                        None
                    };
                    reads.insert(g, version);
                }
                let written = field_index(apply.written).ok_or("a write of a field without plan")?;
                delay = delay.checked_add(plan.reach_hi[a][0]).ok_or("stream delays overflow")?;
                let previous = latest.insert(written, versions.len());
                versions.push(Version {
                    field: written,
                    producer: Producer::Instance { step, apply: a },
                    delay,
                    depth: 0,
                    halo_lo: vec![],
                    halo_hi: vec![],
                    reads,
                    previous,
                    last: false,
                });
            }
        }
        for &v in latest.values() {
            if v >= loaded {
                versions[v].last = true;
            }
        }
        // Halos: the reach of every instance after this one, as suffix sums (a loaded version
        // reaches nothing itself and comes first, so its halo is every instance's: the total).
        let mut after_lo = vec![vec![0i64; rank]; versions.len() + 1];
        let mut after_hi = after_lo.clone();
        for k in (0..versions.len()).rev() {
            for d in 0..rank {
                let (lo, hi) = match versions[k].producer {
                    Producer::Instance { apply, .. } => (plan.reach_lo[apply][d], plan.reach_hi[apply][d]),
                    Producer::Load => (0, 0),
                };
                after_lo[k][d] = after_lo[k + 1][d].checked_add(lo).ok_or("stream halos overflow")?;
                after_hi[k][d] = after_hi[k + 1][d].checked_add(hi).ok_or("stream halos overflow")?;
            }
            versions[k].halo_lo = after_lo[k + 1].clone();
            versions[k].halo_hi = after_hi[k + 1].clone();
        }
        // Depths: a reader at delay Δ_m reading version v down to `lo` planes below its plane
        // needs the planes p − Δ_m − lo … p − Δ_v.
        for m in loaded..versions.len() {
            let Producer::Instance { apply, .. } = versions[m].producer else { continue };
            let mut needs: Vec<(usize, i64)> = vec![];
            for r in &plan.applies[apply].reads {
                let Some(g) = field_index(r.field) else { continue };
                if let Some(Some(v)) = versions[m].reads.get(&g) {
                    let below = -r.offset.as_ref().and_then(|o| o.first().copied()).unwrap_or(0).min(0);
                    needs.push((*v, below));
                }
            }
            if let Some(p) = versions[m].previous {
                needs.push((p, 0));
            }
            for (v, below) in needs {
                let depth = versions[m].delay - versions[v].delay + below + 1;
                versions[v].depth = versions[v].depth.max(depth);
            }
        }
        // A last version nobody reads keeps no ring: its instance writes the value it computes
        // (or keeps) straight back to global memory (`Column::instance`), one shared store and
        // its address fewer per point than staging it in a ring of one plane.
        for v in &mut versions {
            // Prefetched planes are stored a step before their first reader (`Column::build`):
            // one plane more, so that the store never replaces a plane still being read.
            if plan.prefetch && v.producer == Producer::Load && v.depth > 0 {
                v.depth += 1;
            }
        }
        let (total_lo, total_hi) = (after_lo.swap_remove(0), after_hi.swap_remove(0));
        Ok(Schedule { versions, total_lo, total_hi })
    }

    /// The rings' extent along the plane dimensions for the plane tile `tile[1..]`.
    fn plane_extent(&self, tile: &[i64]) -> Option<Vec<i64>> {
        (1..tile.len()).map(|d| tile[d].checked_add(self.total_lo[d])?.checked_add(self.total_hi[d])).collect()
    }
}

impl TemporalTiles for Streaming {
    fn name(&self) -> &'static str {
        "streaming"
    }

    fn check_rank(&self, rank: usize) -> Result<(), String> {
        if rank < 2 {
            return Err(format!(
                "the applies have {rank} dimension(s); streaming needs 2 or 3 (it streams along the outermost and tiles the others): use strategy=overlapped"
            ));
        }
        Ok(())
    }

    /// The instances are unrolled into the kernel: at most [`MAX_INSTANCES`].
    fn check_time_tile(&self, time_tile: i64, applies: usize) -> Result<(), String> {
        let instances = i64::try_from(applies).ok().and_then(|a| a.checked_mul(time_tile));
        if instances.is_none_or(|n| n > MAX_INSTANCES) {
            return Err(format!(
                "time-tile={time_tile} with {applies} applies per step would unroll more than {MAX_INSTANCES} apply instances into the kernel: choose a smaller time-tile (0: the most that fit the shared memory, at most 8)"
            ));
        }
        Ok(())
    }

    /// Chunks of 64 planes (2-D: 128) along the stream; plane tiles a few warps wide.
    fn default_tile(&self, rank: usize) -> Vec<i64> {
        match rank {
            2 => vec![128, 256],
            _ => vec![64, 16, 32],
        }
    }

    /// The plane dimensions: the chunk's length along the stream costs no shared memory.
    fn shared_dims(&self, rank: usize) -> std::ops::Range<usize> {
        1..rank
    }

    /// The chunk first, down to 8 planes: a column's prologue loads the rings' depth again per
    /// chunk, so shorter chunks cost reads. Then, in 3-D, the plane tile's outer size, down to
    /// 8 rows (the inner one keeps its coalesced rows).
    fn dim_to_split(&self, plan: &Plan, tile: &[i64]) -> Option<usize> {
        if tile[0] >= 16 {
            return Some(0);
        }
        // Not below 8 (nor the block's threads along it): at 64³ plane tiles of 4 rows read
        // half again as much halo as they compute.
        let threads = plan.block.get(1).copied().unwrap_or(1).max(8);
        (plan.rank == 3 && tile[1] / 2 >= threads).then_some(1)
    }

    /// While the chunk shrinks, the blocks that hide DRAM latency (the cost model's `W_mem`
    /// warps per SM, as `occupancy=model` plans): a column streams its planes one after the
    /// other, so an SM needs several columns in flight. Once the chunk is as short as it gets,
    /// a narrower plane tile costs halo reads, so only a block per SM.
    fn blocks_per_sm_wanted(&self, plan: &Plan, tile: &[i64]) -> i64 {
        if tile[0] < 16 {
            return 1;
        }
        let shared = self.shared_bytes(plan, tile, 1).unwrap_or(0);
        super::overlapped::latency_hiding_blocks(&stencil_tilemodel::DeviceLimits::h100(), &plan.block, shared)
            .map_or(1, i64::from)
    }

    /// Every kept version's ring: `depth` planes of the plane tile grown by the loads' halos.
    fn shared_bytes(&self, plan: &Plan, tile: &[i64], time_tile: i64) -> Option<i64> {
        let schedule = Schedule::new(plan, time_tile).ok()?;
        let plane: i64 = schedule.plane_extent(tile)?.iter().try_fold(1i64, |a, &e| a.checked_mul(e))?;
        schedule.versions.iter().try_fold(0i64, |acc, v| {
            acc.checked_add(v.depth.checked_mul(plane)?.checked_mul(plan.fields[v.field].bytes)?)
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
        let schedule = Schedule::new(plan, plan.time_tile)?;
        Column::new(ir, plan, &schedule, kernel, location)?.build(ir, info)
    }
}

/// Which launches a stream loop is built for. Where a field goes back to global memory only
/// after the time loop's last step (`FieldPlan::written_back_at_end_only`: heat-3d's `B`,
/// Jacobi's `B = f(A)`), the kernel holds the stream loop twice, for the launch that runs the
/// last step and for the others, so that the others' point loops carry no write-back at all. In
/// one loop for both, the write-back's launch test, point tests and address were issued at
/// every point of every launch (ptxas predicates the store rather than branching around it):
/// 8 of the 39 SASS of heat-3d's full-column loop, 6 of the 70 of Jacobi-3D's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Launch {
    /// The launch that runs the time loop's last step.
    Last,
    /// Any launch but that one.
    Earlier,
    /// Either (no field waits for the last step, so the loop is built once).
    Any,
}

/// Where in a stream loop an instance is built: the loop's stream step `p` (plane counter) and
/// the launches the loop is for.
#[derive(Clone, Copy, Debug)]
struct StreamStep {
    p: ValueId,
    launch: Launch,
}

/// An apply instance of the launch: its version, step and apply.
#[derive(Clone, Copy, Debug)]
struct Instance {
    version: usize,
    step: i64,
    apply: usize,
}

/// The values every part of a column's kernel shares.
struct Column<'a> {
    plan: &'a Plan,
    schedule: &'a Schedule,
    kernel: &'a KernelFunc,
    location: &'a Location,
    ids: ThreadIds,
    /// The chunk's first plane and the plane tile's first point (per dimension; `[0]` the chunk).
    origin: Vec<ValueId>,
    /// The rings' element 0 along the plane dimensions (`[0]` unused).
    base: Vec<ValueId>,
    /// Per field, its extents.
    sizes: Vec<Vec<ValueId>>,
    /// Per apply, its box.
    boxes: Vec<(Vec<ValueId>, Vec<ValueId>)>,
    /// Per field not loaded at all, the box its writers cover: its versions hold values only
    /// there (nothing outside it is ever read), so they are computed and written back only there.
    /// (A ring-only field's versions span the whole range; `Column::instance` writes back only
    /// its writer's box.)
    write_boxes: Vec<Option<(Vec<ValueId>, Vec<ValueId>)>>,
    /// Per version, its ring (`None`: depth 0).
    rings: Vec<Option<ValueId>>,
    /// Steps this launch runs (`min(time_tile, end − t0)`).
    steps: ValueId,
    /// This launch runs the time loop's last step (`end − t0 ≤ time_tile`).
    last_launch: ValueId,
    t0: ValueId,
}

impl<'a> Column<'a> {
    fn new(
        ir: &mut Ir,
        plan: &'a Plan,
        schedule: &'a Schedule,
        kernel: &'a KernelFunc,
        location: &'a Location,
    ) -> Result<Column<'a>, String> {
        let at = kernel.at;
        let rank = plan.rank;
        let ids = ThreadIds::read(ir, at, location);
        let t0 = *kernel.extra.last().ok_or("the tile kernel has no t0 argument")?;
        let t_end = values(ir, at, std::slice::from_ref(&plan.time.upper), &kernel.params, location)?[0];
        let remaining = binary(ir, at, "arith.subi", t_end, t0, Type::Index, location);
        let b = index_constant(ir, at, plan.time_tile, location);
        let steps = binary(ir, at, "arith.minsi", remaining, b, Type::Index, location);
        let last_launch = compare(ir, at, SLE, remaining, b, location);
        let mut origin = vec![];
        let mut base = vec![];
        for d in 0..rank {
            let t = index_constant(ir, at, plan.tile[d], location);
            let o = binary(ir, at, "arith.muli", ids.bid[rank - 1 - d], t, Type::Index, location);
            let h = index_constant(ir, at, schedule.total_lo[d], location);
            base.push(binary(ir, at, "arith.subi", o, h, Type::Index, location));
            origin.push(o);
        }
        let sizes = plan
            .fields
            .iter()
            .map(|f| values(ir, at, &f.shape, &kernel.params, location))
            .collect::<Result<Vec<_>, _>>()?;
        let boxes = plan
            .applies
            .iter()
            .map(|a| {
                Ok((
                    values(ir, at, &a.lower, &kernel.params, location)?,
                    values(ir, at, &a.upper, &kernel.params, location)?,
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let write_boxes = plan
            .fields
            .iter()
            .map(|f| match &f.write_box {
                Some((l, h)) if !f.ring_only => Ok(Some((
                    values(ir, at, l, &kernel.params, location)?,
                    values(ir, at, h, &kernel.params, location)?,
                ))),
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>, String>>()?;
        let plane = schedule.plane_extent(&plan.tile).ok_or("the ring extent overflows")?;
        let rings = schedule
            .versions
            .iter()
            .map(|v| {
                (v.depth > 0).then(|| {
                    let mut extent = vec![v.depth];
                    extent.extend(&plane);
                    ops::workgroup_buffer(ir, kernel.func, kernel.entry, &extent, &plan.fields[v.field].element)
                })
            })
            .collect();
        Ok(Column {
            plan,
            schedule,
            kernel,
            location,
            ids,
            origin,
            base,
            sizes,
            boxes,
            write_boxes,
            rings,
            steps,
            last_launch,
            t0,
        })
    }

    fn constant(&self, ir: &mut Ir, at: InsertPoint, value: i64) -> ValueId {
        index_constant(ir, at, value, self.location)
    }

    fn op(&self, ir: &mut Ir, at: InsertPoint, name: &str, a: ValueId, b: ValueId) -> ValueId {
        binary(ir, at, name, a, b, Type::Index, self.location)
    }

    /// `a && b`.
    fn and(&self, ir: &mut Ir, at: InsertPoint, a: ValueId, b: ValueId) -> ValueId {
        binary(ir, at, "arith.andi", a, b, Type::I1, self.location)
    }

    /// `lo ≤ x < hi`.
    fn within(&self, ir: &mut Ir, at: InsertPoint, x: ValueId, lo: ValueId, hi: ValueId) -> ValueId {
        let above = compare(ir, at, SGE, x, lo, self.location);
        let below = compare(ir, at, SLT, x, hi, self.location);
        self.and(ir, at, above, below)
    }

    /// The ring slot of plane `x` of `version`.
    fn slot(&self, ir: &mut Ir, at: InsertPoint, version: usize, x: ValueId) -> ValueId {
        let depth = self.constant(ir, at, self.schedule.versions[version].depth);
        self.op(ir, at, "arith.remsi", x, depth)
    }

    /// A ring index: the slot, then the point's coordinates relative to the rings' base.
    fn ring_index(&self, ir: &mut Ir, at: InsertPoint, slot: ValueId, point: &[ValueId]) -> Vec<ValueId> {
        let mut index = vec![slot];
        for (k, &x) in point.iter().enumerate() {
            index.push(self.op(ir, at, "arith.subi", x, self.base[k + 1]));
        }
        index
    }

    /// The range of version `v`'s planes or points along dimension `d` around the column,
    /// clipped to `[0, size)` (and to the write box of a field that is not loaded).
    fn range(&self, ir: &mut Ir, at: InsertPoint, v: usize, d: usize, size: ValueId) -> (ValueId, ValueId) {
        let version = &self.schedule.versions[v];
        let below = self.constant(ir, at, version.halo_lo[d]);
        let from = self.op(ir, at, "arith.subi", self.origin[d], below);
        let zero = self.constant(ir, at, 0);
        let mut lo = self.op(ir, at, "arith.maxsi", from, zero);
        let extent = self.constant(ir, at, self.plan.tile[d] + version.halo_hi[d]);
        let to = self.op(ir, at, "arith.addi", self.origin[d], extent);
        let mut hi = self.op(ir, at, "arith.minsi", to, size);
        if let Some((l, h)) = &self.write_boxes[version.field] {
            lo = self.op(ir, at, "arith.maxsi", lo, l[d]);
            hi = self.op(ir, at, "arith.minsi", hi, h[d]);
        }
        (lo, hi)
    }

    /// The kernel's body: the stream loop, once per kind of launch it needs (`Launch`).
    fn build(&self, ir: &mut Ir, info: &ScopInfo) -> Result<(), String> {
        let at = self.kernel.at;
        let at_end_only =
            self.schedule.versions.iter().any(|v| v.last && self.plan.fields[v.field].written_back_at_end_only());
        if !at_end_only {
            return self.stream(ir, info, at, Launch::Any);
        }
        let (last, earlier) = ops::scf_if_else(ir, at, self.last_launch, self.location);
        self.stream(ir, info, last, Launch::Last)?;
        self.stream(ir, info, earlier, Launch::Earlier)
    }

    /// The stream loop at `at`, for the launches `launch`.
    fn stream(&self, ir: &mut Ir, info: &ScopInfo, at: InsertPoint, launch: Launch) -> Result<(), String> {
        // Stream steps: from the first plane loaded to the last plane of the chunk plus the
        // last instance's delay (every version's last plane is computed at that step).
        let below = self.constant(ir, at, self.schedule.total_lo[0]);
        let first = self.op(ir, at, "arith.subi", self.origin[0], below);
        let after = self.constant(ir, at, self.plan.tile[0] + self.schedule.total_hi[0]);
        let end = self.op(ir, at, "arith.addi", self.origin[0], after);
        let one = self.constant(ir, at, 1);
        let loaded: Vec<usize> = (0..self.schedule.versions.len())
            .filter(|&v| self.schedule.versions[v].producer == Producer::Load)
            .collect();
        let kept: Vec<usize> = loaded.iter().copied().filter(|&v| self.rings[v].is_some()).collect();
        let (p, body, load_barrier) = if self.plan.prefetch && !kept.is_empty() {
            // Software pipelining in two stages: plane `p + 2` is loaded into registers at
            // stream step `p`, before the step's instances, and stored into its ring at step
            // `p + 1`; a load's latency is hidden behind a whole step instead of stalling a
            // barrier right after it (the loads of hand-written 2.5-D kernels). A loaded ring
            // holds one plane more than its readers need (`Schedule::new`), so the plane stored
            // at step `p` replaces one that no instance of step `p` reads, and the instances'
            // barriers order the store before its readers at step `p + 1`: the loads need no
            // barrier of their own.
            let fetched = self.fetched(ir, at, &kept)?;
            let initial = self.fetch(ir, at, &fetched, first, end)?;
            self.store_fetched(ir, at, &fetched, &initial, first, end);
            ops::barrier(ir, at, self.location);
            let second = self.op(ir, at, "arith.addi", first, one);
            let second = self.fetch(ir, at, &fetched, second, end)?;
            let (p, carried, body, next_yield) = ops::scf_for_carrying(ir, at, first, end, one, &second, self.location);
            let following = self.op(ir, body, "arith.addi", p, one);
            self.store_fetched(ir, body, &fetched, &carried, following, end);
            let two = self.constant(ir, body, 2);
            let after_next = self.op(ir, body, "arith.addi", p, two);
            let next = self.fetch(ir, body, &fetched, after_next, end)?;
            ir.set_operands(next_yield, &next);
            (p, body, false)
        } else {
            let (p, body) = ops::scf_for(ir, at, first, end, one, self.location);
            for &v in &loaded {
                self.load_plane(ir, body, v, p)?;
            }
            (p, body, !loaded.is_empty())
        };
        if load_barrier {
            ops::barrier(ir, body, self.location);
        }
        let fusions = self.copy_fusions(ir, info);
        let mut pair_fused = None;
        for (v, version) in self.schedule.versions.iter().enumerate() {
            if let Producer::Instance { step, apply } = version.producer {
                let i = Instance { version: v, step, apply };
                // Whether this stream step runs the pair fused: once for both instances.
                let fused = match fusions[v] {
                    Fusion::Alone => None,
                    Fusion::Source { copy } => {
                        let copy = self.instance_of(copy).ok_or("a copy fused with an instance is no instance")?;
                        let delay = self.constant(ir, body, version.delay);
                        let q = self.op(ir, body, "arith.subi", p, delay);
                        let fused = self.fused_plane(ir, body, i, copy, q, launch);
                        pair_fused = Some(fused);
                        Some(fused)
                    }
                    Fusion::Copy { .. } => pair_fused.take(),
                };
                // Also after a copy its source ran: a barrier only where the pair runs apart
                // would save one per plane, but it made ptxas keep 14 more registers (58 → 74
                // for Jacobi-3D, 32-bit index). None after an instance that builds nothing.
                let step = StreamStep { p, launch };
                if self.instance(ir, info, body, i, step, fused.map(|f| (fusions[v], f)))? {
                    ops::barrier(ir, body, self.location);
                }
            }
        }
        Ok(())
    }

    /// Which instances fuse with the copy after them. A pure copy `A = B` at the point (Jacobi's
    /// copy-back) whose `B` is the version the instance just before it wrote, at the same
    /// delay and with the same halos, costs a pass over the plane after a barrier, from `B`'s
    /// ring back to global memory — the values it copies are the ones the instance just
    /// computed. When nothing else reads that `B` version and nothing reads the copy's version
    /// (it is only written back: one step per launch), the instance writes both back from the
    /// value it computed in full columns, where every point of both plane boxes computes; edge
    /// columns keep `B`'s ring and the copy (their points outside the boxes keep earlier
    /// versions' values). Only with one step per launch: the last step of a longer launch
    /// qualifies too, but fused there it made ptxas take 122 registers instead of 80 for the
    /// two-step Jacobi-3D kernel (96 KiB, prefetch, 32-bit index), a third fewer resident
    /// blocks.
    fn copy_fusions(&self, ir: &Ir, info: &ScopInfo) -> Vec<Fusion> {
        let versions = &self.schedule.versions;
        let mut fusions = vec![Fusion::Alone; versions.len()];
        if self.plan.time_tile != 1 {
            return fusions;
        }
        let read_by_other = |x: usize, except: usize| {
            versions
                .iter()
                .enumerate()
                .any(|(k, u)| k != except && (u.previous == Some(x) || u.reads.values().any(|&r| r == Some(x))))
        };
        for copy in 1..versions.len() {
            let source = copy - 1;
            let (Producer::Instance { apply, .. }, Producer::Instance { .. }) =
                (versions[copy].producer, versions[source].producer)
            else {
                continue;
            };
            let Some(copied) = self.plan.applies[apply].copied_field(ir, info) else { continue };
            let Some(g) = self.plan.fields.iter().position(|f| f.arg == copied) else { continue };
            let (c, s) = (&versions[copy], &versions[source]);
            let fits = s.field == g
                && c.reads.get(&g) == Some(&Some(source))
                && c.delay == s.delay
                && c.halo_lo == s.halo_lo
                && c.halo_hi == s.halo_hi
                && self.plan.fields[g].element == self.plan.fields[c.field].element
                && fusions[source] == Fusion::Alone
                && !read_by_other(source, copy)
                && !read_by_other(copy, copy);
            if fits {
                fusions[source] = Fusion::Source { copy };
                fusions[copy] = Fusion::Copy { source };
            }
        }
        fusions
    }

    /// Loads plane `p` of a loaded version's field into its ring (clipped to the field).
    fn load_plane(&self, ir: &mut Ir, at: InsertPoint, v: usize, p: ValueId) -> Result<(), String> {
        let version = &self.schedule.versions[v];
        let field = &self.plan.fields[version.field];
        let Some(ring) = self.rings[v] else { return Ok(()) };
        let size = &self.sizes[version.field];
        let zero = self.constant(ir, at, 0);
        let valid = self.within(ir, at, p, zero, size[0]);
        let then = ops::scf_if(ir, at, valid, self.location);
        let slot = self.slot(ir, then, v, p);
        let (lo, hi) = self.plane_box(ir, then, v, size, true);
        let global = self.kernel.args[&field.arg];
        let element = field.element.clone();
        // A grid fitted to the ring's plane: the linear deal of `Column::fetched` would keep
        // lanes fuller but cost a division per element in this loop (measured: more
        // warp-instructions per update, and more registers).
        let nominal = self.schedule.plane_extent(&self.plan.tile).ok_or("the ring extent overflows")?;
        let threads = self.threads();
        for_each_point(ir, then, &self.ids, (&lo, &hi), &nominal, threads, self.location, &mut |ir, at, point| {
            let index = Self::at_plane(p, point);
            let value = load(ir, at, global, index, element.clone(), self.location);
            let local = self.ring_index(ir, at, slot, point);
            store(ir, at, value, ring, local, self.location);
            Ok(())
        })
    }

    /// The field index of point `point` (plane coordinates) of plane `q`.
    fn at_plane(q: ValueId, point: &[ValueId]) -> Vec<ValueId> {
        let mut index = vec![q];
        index.extend_from_slice(point);
        index
    }

    /// The block's threads.
    fn threads(&self) -> i64 {
        self.plan.block.iter().product()
    }

    /// The extents of version `v`'s plane box along the plane dimensions before clipping: the
    /// plane tile grown by its halos.
    fn nominal_plane(&self, v: usize) -> Option<Vec<i64>> {
        let version = &self.schedule.versions[v];
        (1..self.plan.rank)
            .map(|d| self.plan.tile[d].checked_add(version.halo_lo[d])?.checked_add(version.halo_hi[d]))
            .collect()
    }

    /// Elements of the loaded rings' plane box (the ring's plane extent).
    fn plane_elements(&self) -> Result<i64, String> {
        let extents = self.schedule.plane_extent(&self.plan.tile).ok_or("the ring extent overflows")?;
        extents.iter().try_fold(1i64, |a, &e| a.checked_mul(e)).ok_or_else(|| "the ring extent overflows".to_string())
    }

    /// Element `e` (row-major, `0 ≤ e`) of the loaded rings' plane box: its plane coordinates,
    /// the same relative to the rings' base (its ring index after the slot), and whether it lies
    /// in the box clipped to the field, `[lo, hi)`.
    fn plane_element(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        e: ValueId,
        lo: &[ValueId],
        hi: &[ValueId],
    ) -> Result<(Vec<ValueId>, Vec<ValueId>, ValueId), String> {
        let extents = self.schedule.plane_extent(&self.plan.tile).ok_or("the ring extent overflows")?;
        let mut local = vec![];
        let mut rest = e;
        for &extent in extents.iter().rev() {
            let extent = self.constant(ir, at, extent);
            local.push(self.op(ir, at, "arith.remui", rest, extent));
            rest = self.op(ir, at, "arith.divui", rest, extent);
        }
        local.reverse();
        let mut point = vec![];
        let mut inside: Option<ValueId> = None;
        for (k, &c) in local.iter().enumerate() {
            let x = self.op(ir, at, "arith.addi", self.base[k + 1], c);
            let within = self.within(ir, at, x, lo[k], hi[k]);
            accumulate(ir, at, &mut inside, "arith.andi", within, self.location);
            point.push(x);
        }
        Ok((point, local, inside.ok_or("a plane without dimensions")?))
    }

    /// The plane dimensions' box of version `v`: the whole ring extent for a loaded version
    /// (`whole`), else its halos around the plane tile; clipped to the field.
    fn plane_box(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        v: usize,
        size: &[ValueId],
        whole: bool,
    ) -> (Vec<ValueId>, Vec<ValueId>) {
        let (mut lo, mut hi) = (vec![], vec![]);
        for (d, &size) in size.iter().enumerate().skip(1) {
            let (l, h) = if whole {
                let zero = self.constant(ir, at, 0);
                let l = self.op(ir, at, "arith.maxsi", self.base[d], zero);
                let extent =
                    self.constant(ir, at, self.plan.tile[d] + self.schedule.total_lo[d] + self.schedule.total_hi[d]);
                let end = self.op(ir, at, "arith.addi", self.base[d], extent);
                (l, self.op(ir, at, "arith.minsi", end, size))
            } else {
                self.range(ir, at, v, d, size)
            };
            lo.push(l);
            hi.push(h);
        }
        (lo, hi)
    }

    /// Plane `q` of version `v` at the column: the plane of the version's range (halos
    /// included, clipped to the field) that its instance runs on.
    fn plane_valid(&self, ir: &mut Ir, at: InsertPoint, v: usize, q: ValueId) -> ValueId {
        let size0 = self.sizes[self.schedule.versions[v].field][0];
        let (lo0, hi0) = self.range(ir, at, v, 0, size0);
        self.within(ir, at, q, lo0, hi0)
    }

    /// Whether instance `i` computes on plane `q`: its step runs in this launch and the plane
    /// lies in its apply's box (uniform over the block), in launches `launch`. Step 0 runs in
    /// every launch (a launch runs at least one step) and every step in the launches before the
    /// last (they run `time-tile` steps), so those instances test the box alone: with one step
    /// per launch (the defaults), no instance tests the step.
    fn computes(&self, ir: &mut Ir, at: InsertPoint, i: Instance, q: ValueId, launch: Launch) -> ValueId {
        let (box_lo, box_hi) = &self.boxes[i.apply];
        let in_box = self.within(ir, at, q, box_lo[0], box_hi[0]);
        if i.step == 0 || launch == Launch::Earlier {
            return in_box;
        }
        let step = self.constant(ir, at, i.step);
        let active = compare(ir, at, SLT, step, self.steps, self.location);
        self.and(ir, at, active, in_box)
    }

    /// Whether instance `i`'s plane box at this column lies in its apply's box along the plane
    /// dimensions (all columns but those at the field's edges). The same at every plane: the
    /// tests are all invariant, so the stream loop computes none of them.
    fn full_column(&self, ir: &mut Ir, at: InsertPoint, i: Instance, full: &mut Option<ValueId>) {
        let size = &self.sizes[self.schedule.versions[i.version].field];
        let (lo, hi) = self.plane_box(ir, at, i.version, size, false);
        let (box_lo, box_hi) = &self.boxes[i.apply];
        for (k, (&l, &h)) in lo.iter().zip(&hi).enumerate() {
            for inside in [
                compare(ir, at, SGE, l, box_lo[k + 1], self.location),
                compare(ir, at, SLE, h, box_hi[k + 1], self.location),
            ] {
                accumulate(ir, at, full, "arith.andi", inside, self.location);
            }
        }
    }

    /// Whether instance `i`'s plane `q` is full at this column in launches `launch`: it computes
    /// there and its plane box lies in its apply's box, so every point computes. With `column_first` the column's
    /// tests are joined first, one invariant the stream loop does not compute — what the
    /// fused pairs' kernels (one step per launch) do: Jacobi-3D at 128³, 1.21 → 1.17
    /// warp-instructions per update, 60 registers either way. Not for the others: with that
    /// order ptxas took 122 registers instead of 80 for the two-step Jacobi-3D kernel (96 KiB,
    /// prefetch).
    fn full_plane(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        i: Instance,
        q: ValueId,
        column_first: bool,
        launch: Launch,
    ) -> ValueId {
        let computes = self.computes(ir, at, i, q, launch);
        if column_first {
            let mut column = None;
            self.full_column(ir, at, i, &mut column);
            return column.map_or(computes, |c| self.and(ir, at, computes, c));
        }
        let mut full = Some(computes);
        self.full_column(ir, at, i, &mut full);
        full.unwrap_or(computes)
    }

    /// Whether an instance and the copy fused with it (`Fusion`) run fused on plane `q` in
    /// launches `launch`: both planes are valid and full and their plane boxes are the same (the
    /// halos are; the clipping to their fields may differ). The same value in both instances.
    /// The column's part (the boxes) is one chain of invariant tests, the plane's part a few
    /// comparisons.
    fn fused_plane(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        source: Instance,
        copy: Instance,
        q: ValueId,
        launch: Launch,
    ) -> ValueId {
        let mut column = None;
        self.full_column(ir, at, source, &mut column);
        self.full_column(ir, at, copy, &mut column);
        let boxes = [source.version, copy.version]
            .map(|v| self.plane_box(ir, at, v, &self.sizes[self.schedule.versions[v].field], false));
        let [(lo_s, hi_s), (lo_c, hi_c)] = &boxes;
        for (a, b) in lo_s.iter().zip(lo_c).chain(hi_s.iter().zip(hi_c)) {
            let same = compare(ir, at, super::arith::EQ, *a, *b, self.location);
            accumulate(ir, at, &mut column, "arith.andi", same, self.location);
        }
        let mut plane = self.plane_valid(ir, at, source.version, q);
        let valid = self.plane_valid(ir, at, copy.version, q);
        plane = self.and(ir, at, plane, valid);
        // The copy's `computes` is the source's when their steps and stream bounds agree (as in
        // Jacobi): one test, not the same twice.
        let (a, b) = (&self.plan.applies[source.apply], &self.plan.applies[copy.apply]);
        let same = source.step == copy.step && a.lower.first() == b.lower.first() && a.upper.first() == b.upper.first();
        for i in if same { vec![source] } else { vec![source, copy] } {
            let computes = self.computes(ir, at, i, q, launch);
            plane = self.and(ir, at, plane, computes);
        }
        match column {
            Some(c) => self.and(ir, at, plane, c),
            None => plane,
        }
    }

    /// Whether version `v` goes back to global memory in launches `launch`: its field's last
    /// version, except in the launches before the last for a field the next launch recomputes
    /// before reading it. (`Launch::Any` writes such a field back in every launch, which is
    /// correct but never built: `Column::build` splits the loop whenever such a field exists.)
    fn goes_back(&self, v: usize, launch: Launch) -> bool {
        let version = &self.schedule.versions[v];
        version.last && !(launch == Launch::Earlier && self.plan.fields[version.field].written_back_at_end_only())
    }

    /// Whether instance `i`'s version goes back to global memory at plane `q` in launches
    /// `launch` (`None`: it is not its field's last version, or not in these launches): the
    /// chunk's planes, after the last step for a field the next launch recomputes first, inside
    /// the apply's box for a ring-only field.
    fn write_back_test(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        i: Instance,
        q: ValueId,
        launch: Launch,
    ) -> Option<ValueId> {
        if !self.goes_back(i.version, launch) {
            return None;
        }
        let field = &self.plan.fields[self.schedule.versions[i.version].field];
        let chunk_end = self.constant(ir, at, self.plan.tile[0]);
        let chunk_end = self.op(ir, at, "arith.addi", self.origin[0], chunk_end);
        let mut test = self.within(ir, at, q, self.origin[0], chunk_end);
        // A ring-only field: only its box goes back (outside, its values are the field's own,
        // which other blocks read there). Its writers all cover this apply's box.
        if field.ring_only {
            let (box_lo, box_hi) = &self.boxes[i.apply];
            let in_box = self.within(ir, at, q, box_lo[0], box_hi[0]);
            test = self.and(ir, at, test, in_box);
        }
        Some(test)
    }

    /// The instance of version `v`, if it is one.
    fn instance_of(&self, v: usize) -> Option<Instance> {
        match self.schedule.versions[v].producer {
            Producer::Instance { step, apply } => Some(Instance { version: v, step, apply }),
            Producer::Load => None,
        }
    }

    /// Instance `i` on plane `p − Δ` at stream step `p` of the loop for launches `launch`; with
    /// `pair`, fused with the copy after it (or into the instance before it) where the pair's
    /// test (`Column::fused_plane`) holds. Whether it built anything (`Ok(false)`: nothing
    /// would see its values).
    fn instance(
        &self,
        ir: &mut Ir,
        info: &ScopInfo,
        at: InsertPoint,
        i: Instance,
        StreamStep { p, launch }: StreamStep,
        pair: Option<(Fusion, ValueId)>,
    ) -> Result<bool, String> {
        let Instance { version: v, step, apply } = i;
        // Nothing reads this version (it has no ring) and it does not go back in these
        // launches: nothing would see what it computes, so nothing is built (unless it writes
        // back the copy fused with it).
        if self.rings[v].is_none() && !self.goes_back(v, launch) && !matches!(pair, Some((Fusion::Source { .. }, _))) {
            return Ok(false);
        }
        // A copy does nothing where its source runs it (the pair's test implies this plane's).
        let at = match pair {
            Some((Fusion::Copy { .. }, fused)) => ops::scf_if_else(ir, at, fused, self.location).1,
            _ => at,
        };
        let plan = self.plan;
        let version = &self.schedule.versions[v];
        let field = &plan.fields[version.field];
        let size = &self.sizes[version.field];
        let delay = self.constant(ir, at, version.delay);
        let q = self.op(ir, at, "arith.subi", p, delay);
        let valid = self.plane_valid(ir, at, v, q);
        let at = ops::scf_if(ir, at, valid, self.location);
        // Uniform parts of the tests: the step runs in this launch, the plane is in the box.
        let step_value = self.constant(ir, at, step);
        let (box_lo, box_hi) = &self.boxes[apply];
        let computes = self.computes(ir, at, i, q, launch);
        let write_back = self.write_back_test(ir, at, i, q, launch);
        // Ring slots: this version's, the previous version's, and every read's.
        let own_ring = self.rings[v];
        let own_slot = own_ring.map(|_| self.slot(ir, at, v, q));
        let previous = version.previous.and_then(|w| self.rings[w].map(|ring| (w, ring)));
        let previous_slot = previous.map(|(w, _)| self.slot(ir, at, w, q));
        let mut rings: HashMap<ValueId, RingRead> = HashMap::new();
        for r in &plan.applies[apply].reads {
            // A field without plan is read in global memory (see `Schedule::new`).
            let Some(g) = plan.fields.iter().position(|f| f.arg == r.field) else { continue };
            let Some(Some(w)) = version.reads.get(&g) else { continue };
            let ring = self.rings[*w].ok_or("a version that is read has no ring")?;
            let offset = r.offset.as_ref().and_then(|o| o.first().copied()).unwrap_or(0);
            let entry = rings.entry(self.kernel.args[&r.field]).or_insert(RingRead { ring, slots: HashMap::new() });
            if let std::collections::hash_map::Entry::Vacant(e) = entry.slots.entry(offset) {
                let c = self.constant(ir, at, offset);
                let plane = self.op(ir, at, "arith.addi", q, c);
                e.insert(self.slot(ir, at, *w, plane));
            }
        }
        let (lo, hi) = self.plane_box(ir, at, v, size, false);
        let statement = plan.applies[apply].statement;
        let written_arg = self.kernel.args[&field.arg];
        let nominal = self.nominal_plane(v).ok_or("the plane box overflows")?;
        let threads = self.threads();
        // A column whose plane box lies in the apply's box (all but those at the field's edges)
        // in a step that computes: every point computes, so the per-point tests and the copy
        // of the previous version elsewhere go (uniform over the block); the others take the
        // general path. Fused with a copy, a column full for both runs both in the source's
        // instance (the copy's instance does nothing there); the others run them apart.
        let copy = match pair {
            Some((Fusion::Source { copy }, _)) => {
                Some(self.instance_of(copy).ok_or("a copy fused with an instance is no instance")?)
            }
            _ => None,
        };
        // The copy's write-back, done by its source in fused columns.
        let copy_write_back = match copy {
            Some(c) => self.write_back_test(ir, at, c, q, launch).map(|test| (c, test)),
            None => None,
        };
        // The source's full path runs the copy where `fused` holds (one loop for both: a third
        // copy of the loop costs registers).
        let fused = pair.map(|(_, fused)| fused).filter(|_| copy.is_some());
        let full = self.full_plane(ir, at, i, q, pair.is_some(), launch);
        let (full_at, general_at) = ops::scf_if_else(ir, at, full, self.location);
        for (fast, at) in [(true, full_at), (false, general_at)] {
            for_each_point(ir, at, &self.ids, (&lo, &hi), &nominal, threads, self.location, &mut |ir, at, point| {
                // The point in the apply's box along the plane dimensions (the full path's are).
                let mut inside = None;
                let then = if fast {
                    at
                } else {
                    let mut within = self.within(ir, at, point[0], box_lo[1], box_hi[1]);
                    for (k, &x) in point.iter().enumerate().skip(1) {
                        let along = self.within(ir, at, x, box_lo[k + 1], box_hi[k + 1]);
                        within = self.and(ir, at, within, along);
                    }
                    inside = Some(within);
                    let in_domain = self.and(ir, at, computes, within);
                    let (then, otherwise) = ops::scf_if_else(ir, at, in_domain, self.location);
                    // Elsewhere the field keeps its previous version's value; a ring-only
                    // field's first version (step 0 always runs, so there it is outside the box)
                    // the field's own. Into this version's ring, or without one straight back
                    // to global memory. That is not only outside the box: inside it too where
                    // the step does not run (a last launch of fewer steps than `time-tile`), so
                    // a ring-only field's kept value goes back inside its box. (Its first
                    // version's own values need not: step 0 always runs, so only points outside
                    // the box keep them, and those never go back.)
                    let kept = match (previous, previous_slot) {
                        _ if own_ring.is_none() && write_back.is_none() => None,
                        (Some((_, prev_ring)), Some(prev_slot)) => {
                            let from = self.ring_index(ir, otherwise, prev_slot, point);
                            Some(load(ir, otherwise, prev_ring, from, field.element.clone(), self.location))
                        }
                        (None, _) if field.ring_only && own_ring.is_some() => {
                            let index = Self::at_plane(q, point);
                            Some(load(ir, otherwise, written_arg, index, field.element.clone(), self.location))
                        }
                        _ => None,
                    };
                    match (kept, own_ring.zip(own_slot), write_back) {
                        (Some(value), Some((ring, slot)), _) => {
                            let to = self.ring_index(ir, otherwise, slot, point);
                            store(ir, otherwise, value, ring, to, self.location);
                        }
                        (Some(value), None, Some(test)) => {
                            let inside = field.ring_only.then_some(within);
                            self.write_back_point(ir, otherwise, v, test, inside, q, point, |_, _| value);
                        }
                        _ => {}
                    }
                    then
                };
                // The apply: reads from the versions' rings, the write into this version's ring.
                let t = self.op(ir, then, "arith.addi", self.t0, step_value);
                let mut dims: Vec<Option<ValueId>> = vec![Some(t), Some(q)];
                dims.extend(point.iter().map(|&x| Some(x)));
                let iters: Vec<AffineExpr> = (0..=plan.rank).map(|k| AffineExpr::Dim(k as u32)).collect();
                let mut indexer = RingIndexer {
                    column: self,
                    inner: ArithIndexer { dims: &dims, params: &self.kernel.params },
                    rings: &rings,
                    // Fused with a copy, the full path stores the value itself (below).
                    write: (written_arg, if fast && fused.is_some() { None } else { own_ring.zip(own_slot) }),
                    point,
                    stored: None,
                };
                copy_statement(ir, info, statement, &iters, &self.kernel.args, then, &mut indexer)?;
                if let (true, Some(fused)) = (fast, fused) {
                    // Into the ring where the copy runs apart (it reads it there); this version
                    // back to global memory from the computed value, and the copy where fused.
                    let value = indexer.stored.ok_or("an instance fused with a copy stores nothing")?;
                    if let (Some(ring), Some(slot)) = (own_ring, own_slot) {
                        let apart = ops::scf_if_else(ir, at, fused, self.location).1;
                        let to = self.ring_index(ir, apart, slot, point);
                        store(ir, apart, value, ring, to, self.location);
                    }
                    let own = write_back.map(|test| (i, test));
                    let copied = copy_write_back.map(|(c, test)| (c, self.and(ir, at, fused, test)));
                    for (w, test) in own.into_iter().chain(copied) {
                        self.write_back_point(ir, at, w.version, test, None, q, point, |_, _| value);
                    }
                    return Ok(());
                }
                // The last version: its column (the plane tile) back to global memory (a
                // ring-only field's only inside its box, `write_back`); from the value computed
                // where it has no ring (nothing reads it: `Schedule::new`), else from its ring,
                // which holds the value kept elsewhere too.
                if let (Some(test), None) = (write_back, own_ring) {
                    let value = indexer.stored.ok_or("an instance stores nothing")?;
                    self.write_back_point(ir, then, v, test, None, q, point, |_, _| value);
                }
                if let (Some(test), Some(ring), Some(slot)) = (write_back, own_ring, own_slot) {
                    let inside = inside.filter(|_| field.ring_only);
                    self.write_back_point(ir, at, v, test, inside, q, point, |ir, back| {
                        let from = self.ring_index(ir, back, slot, point);
                        load(ir, back, ring, from, field.element.clone(), self.location)
                    });
                }
                Ok(())
            })?;
        }
        Ok(true)
    }

    /// Point `point` of version `v`'s plane `q` back to its field's destination in global
    /// memory, where the uniform `write_back` test holds, the point lies in the plane tile and
    /// `inside` (if any) holds; `value` makes the value stored inside that branch.
    #[allow(clippy::too_many_arguments)]
    fn write_back_point(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        v: usize,
        write_back: ValueId,
        inside: Option<ValueId>,
        q: ValueId,
        point: &[ValueId],
        value: impl FnOnce(&mut Ir, InsertPoint) -> ValueId,
    ) {
        let mut test = self.in_plane_tile(ir, at, v, write_back, point);
        if let Some(inside) = inside {
            test = self.and(ir, at, test, inside);
        }
        let back = ops::scf_if(ir, at, test, self.location);
        let value = value(ir, back);
        let field = &self.plan.fields[self.schedule.versions[v].field];
        let destination = self.plan.destination(self.kernel, field);
        store(ir, back, value, destination, Self::at_plane(q, point), self.location);
    }

    /// `test` and point `point` of version `v`'s plane box lies in the plane tile. The box
    /// reaches past the tile only on the sides where the version has a halo, so only those
    /// are tested.
    fn in_plane_tile(&self, ir: &mut Ir, at: InsertPoint, v: usize, test: ValueId, point: &[ValueId]) -> ValueId {
        let version = &self.schedule.versions[v];
        let mut test = test;
        for (k, &x) in point.iter().enumerate() {
            let d = k + 1;
            if version.halo_lo[d] > 0 {
                let from = compare(ir, at, SGE, x, self.origin[d], self.location);
                test = self.and(ir, at, test, from);
            }
            if version.halo_hi[d] > 0 {
                let tile = self.constant(ir, at, self.plan.tile[d]);
                let end = self.op(ir, at, "arith.addi", self.origin[d], tile);
                let to = compare(ir, at, SLT, x, end, self.location);
                test = self.and(ir, at, test, to);
            }
        }
        test
    }
}

/// One element of a loaded plane that a thread fetches at every stream step when loads are
/// prefetched (`gpu-map{prefetch=true}`): the loaded version, its plane coordinates, and whether
/// it lies in the version's (clipped) plane box. Which elements a thread fetches does not change
/// from plane to plane, so these are computed once per kernel.
struct Fetched {
    version: usize,
    point: Vec<ValueId>,
    /// The point relative to the rings' base (its ring index after the slot).
    local: Vec<ValueId>,
    inside: ValueId,
}

impl Column<'_> {
    /// The elements of every loaded version's plane box each thread fetches. The box (the ring's
    /// plane extent at the column, clipped to the field) is numbered row-major and its elements
    /// are dealt out linearly — element `e` to thread `e mod threads`, as its `e div threads`-th
    /// element — so consecutive threads load consecutive elements of a row (coalesced) and a
    /// thread holds `⌈elements / threads⌉` of them, the fewest registers (dealing out each
    /// dimension on its own axis of the block would leave a 34-wide row of a 3-D tile 64 slots
    /// per 32-thread warp, half of them idle). Which elements a thread holds does not change
    /// from plane to plane, so these are computed once per kernel.
    fn fetched(&self, ir: &mut Ir, at: InsertPoint, loaded: &[usize]) -> Result<Vec<Fetched>, String> {
        let threads: i64 = self.plan.block.iter().product();
        let (thread, _) = self.ids.linear(ir, at, 0, self.location);
        let elements = self.plane_elements()?;
        let count = elements / threads + i64::from(elements % threads != 0);
        if count > MAX_PREFETCHED {
            return Err(format!(
                "prefetching would keep {count} elements of a plane per thread (more than {MAX_PREFETCHED}): use a larger block or a smaller plane tile, or prefetch=false"
            ));
        }
        let all = self.constant(ir, at, elements);
        let mut out = vec![];
        for &v in loaded {
            let size = &self.sizes[self.schedule.versions[v].field];
            let (lo, hi) = self.plane_box(ir, at, v, size, true);
            for j in 0..count {
                let offset = self.constant(ir, at, j * threads);
                let e = self.op(ir, at, "arith.addi", thread, offset);
                let (point, local, inside) = self.plane_element(ir, at, e, &lo, &hi)?;
                let exists = compare(ir, at, SLT, e, all, self.location);
                let inside = self.and(ir, at, exists, inside);
                out.push(Fetched { version: v, point, local, inside });
            }
        }
        Ok(out)
    }

    /// The values of plane `plane` at the fetched elements: loaded where the plane is a plane
    /// of the field before `end` and the element is in its box, a zero (never stored) elsewhere.
    fn fetch(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        fetched: &[Fetched],
        plane: ValueId,
        end: ValueId,
    ) -> Result<Vec<ValueId>, String> {
        let zero = self.constant(ir, at, 0);
        let before_end = compare(ir, at, SLT, plane, end, self.location);
        let mut values = vec![];
        for f in fetched {
            let field = &self.plan.fields[self.schedule.versions[f.version].field];
            let in_field = self.within(ir, at, plane, zero, self.sizes[self.schedule.versions[f.version].field][0]);
            let valid = self.and(ir, at, in_field, before_end);
            let valid = self.and(ir, at, valid, f.inside);
            let placeholder = zero_constant(ir, at, &field.element, self.location)?;
            let global = self.kernel.args[&field.arg];
            let index = Self::at_plane(plane, &f.point);
            let element = field.element.clone();
            values.push(ops::scf_if_value(ir, at, valid, placeholder, self.location, |ir, then| {
                load(ir, then, global, index, element, self.location)
            }));
        }
        Ok(values)
    }

    /// Stores the fetched values of plane `p` into their versions' rings where `p` is a plane of
    /// the field before `end` (what [`Column::load_plane`] does with loads of its own).
    fn store_fetched(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        fetched: &[Fetched],
        values: &[ValueId],
        p: ValueId,
        end: ValueId,
    ) {
        let zero = self.constant(ir, at, 0);
        let before_end = compare(ir, at, SLT, p, end, self.location);
        let mut current: Option<(usize, InsertPoint, ValueId)> = None;
        for (f, &value) in fetched.iter().zip(values) {
            let (then, slot) = match current {
                Some((v, then, slot)) if v == f.version => (then, slot),
                _ => {
                    let size0 = self.sizes[self.schedule.versions[f.version].field][0];
                    let valid = self.within(ir, at, p, zero, size0);
                    let valid = self.and(ir, at, valid, before_end);
                    let then = ops::scf_if(ir, at, valid, self.location);
                    let slot = self.slot(ir, then, f.version, p);
                    current = Some((f.version, then, slot));
                    (then, slot)
                }
            };
            let Some(ring) = self.rings[f.version] else { continue };
            let store_here = ops::scf_if(ir, then, f.inside, self.location);
            let mut index = vec![slot];
            index.extend_from_slice(&f.local);
            store(ir, store_here, value, ring, index, self.location);
        }
    }
}

/// The ring an instance reads a field from, with the slot of each stream offset it reads.
struct RingRead {
    ring: ValueId,
    slots: HashMap<i64, ValueId>,
}

/// Accesses of an instance's statement: reads of written fields go to their versions' rings
/// (the slot by the access's stream offset, the plane coordinates relative to the rings'
/// base), the write to this version's ring; reads of fields never written stay global.
struct RingIndexer<'a, 'c> {
    column: &'a Column<'c>,
    inner: ArithIndexer<'a>,
    rings: &'a HashMap<ValueId, RingRead>,
    /// The written field (kernel argument) and this version's ring and slot.
    write: (ValueId, Option<(ValueId, ValueId)>),
    /// The point's plane coordinates.
    point: &'a [ValueId],
    /// The value the statement stored.
    stored: Option<ValueId>,
}

impl RingIndexer<'_, '_> {
    /// The stream offset of `index[0]` and the plane coordinates relative to the rings' base
    /// (as the staged indexer does, so that a stencil's accesses share `e − base`).
    fn local(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        index: &[AffineExpr],
        location: &Location,
    ) -> Result<(i64, Vec<ValueId>), String> {
        let (stream, offset) = split_offset(index.first().ok_or("an access without indices")?);
        if *stream != AffineExpr::Dim(1) {
            return Err(format!("an access at stream index {stream} is not at a constant offset from the point"));
        }
        let local = index
            .iter()
            .enumerate()
            .skip(1)
            .map(|(k, e)| relative_index(ir, at, &self.inner, e, self.column.base[k], location))
            .collect::<Result<Vec<_>, _>>()?;
        debug_assert_eq!(local.len(), self.point.len());
        Ok((offset, local))
    }
}

impl Indexer for RingIndexer<'_, '_> {
    fn load(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        memref: ValueId,
        index: &[AffineExpr],
        element: Type,
        location: &Location,
    ) -> Result<ValueId, String> {
        let Some(read) = self.rings.get(&memref) else {
            return self.inner.load(ir, at, memref, index, element, location);
        };
        let (offset, local) = self.local(ir, at, index, location)?;
        let slot = *read.slots.get(&offset).ok_or("a read at a stream offset without slot")?;
        let mut indices = vec![slot];
        indices.extend(local);
        Ok(load(ir, at, read.ring, indices, element, location))
    }

    fn store(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        value: ValueId,
        memref: ValueId,
        index: &[AffineExpr],
        location: &Location,
    ) -> Result<(), String> {
        let (written, ring) = self.write;
        if memref != written {
            return Err("an apply stores to a field it does not write".into());
        }
        self.stored = Some(value);
        let Some((ring, slot)) = ring else { return Ok(()) };
        let (offset, local) = self.local(ir, at, index, location)?;
        if offset != 0 {
            return Err("an apply writes at a stream offset".into());
        }
        let mut indices = vec![slot];
        indices.extend(local);
        store(ir, at, value, ring, indices, location);
        Ok(())
    }

    fn index_value(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        expr: &AffineExpr,
        location: &Location,
    ) -> Result<ValueId, String> {
        self.inner.value(ir, at, expr, location)
    }
}
