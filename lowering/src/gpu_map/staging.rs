//! Shared-memory staging of a tile (thesis §3.3.2, Fig. 3.17 ①–③): before a block runs a
//! tile, its threads copy exactly the elements the tile reads from global into workgroup
//! memory, with consecutive threads on consecutive elements of the innermost array dimension
//! (coalesced); a barrier; the tile computes on workgroup memory; a barrier; the threads copy
//! exactly the elements the tile wrote back. (Fig. 3.17's barrier ③ after the stores is not
//! needed: see [`KernelBuilder::staged_tile`].)
//!
//! Each array the tile touches gets one workgroup buffer, a box whose origin depends on the
//! tile and whose static extent holds every tile (`stencil_poly::codegen::tile_footprints`).
//! Copying the box without the exact membership tests would read and write elements that
//! tiles running at the same time in other blocks write.
//!
//! The tests are cheap: a stencil reads one set of elements at several offsets (its
//! neighbours), so the footprint is a few *base* sets, each translated by a few offsets. Before
//! copying, the threads evaluate the exact membership of each base once per element into a
//! byte **mask** in workgroup memory (over the box grown by the offsets' spread); then an
//! element `x` of the box is read by the tile iff `mask[x − o]` is set for some read offset `o`,
//! and written iff it is for some write offset — a lookup per offset instead of a full region
//! test per offset (for 2-D SOR, about 330 simulated instructions per box element before,
//! fewer than 100 with the mask).
//!
//! **Row intervals.** A base is `{x : guards(x) ∧ ∃t: max_l ⌈l(x)/d_l⌉ ≤ t ≤ min_u ⌊u(x)/d_u⌋}`
//! (the tile's points with time projected out). Along one mask row (every coordinate but the
//! innermost `c` fixed) each guard and each pair `⌈l/d_l⌉ ≤ ⌊u/d_u⌋` with a divisor of 1 is a
//! linear condition `k·c + m ≥ 0`, exactly (for a whole number n, `⌈x/d⌉ ≤ n ⟺ x ≤ d·n`): so
//! the threads compute once per row segment an interval `lo ≤ c ≤ hi` and a row-wide
//! condition, and a slot costs two comparisons. Only pairs with both divisors above 1 (which
//! can hold on every other `c`) and equality guards stay per slot, and a pair whose two bounds
//! differ by a constant of at least `d − 1` always holds and is dropped (3-D SOR tiles of 4:
//! 30 → 9 simulated warp-instructions per update for the mask). A pair left per slot whose
//! bounds share their coefficient and divisor (2-D SOR's parities, `d = 2`) is tested as
//! "`(−L) mod d` is within the row's gap" (`one_step`): a mask and a comparison per slot instead
//! of a ceiling and a floor division (2-D SOR's mask fill, sm_90: 24.5 → about 9.5 SASS per
//! slot).

use std::collections::HashMap;

use stencil_ir::affine::{AffineBinOp, AffineExpr};
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::{Ir, Location, Type, ValueId};
use stencil_passes::schedule::{affine_expr_of_form, dim_or_symbol};
use stencil_poly::affine::AffineForm;
use stencil_poly::codegen::{
    tile_footprints, ArrayFootprint, Bound, FootprintBase, GuardKind, LoopAst, OriginCandidate,
};
use stencil_poly::{Limits, StatementId};

use super::arith::{
    accumulate, binary, compare, index_constant, load, select, store, true_constant, ArithIndexer, EQ, SGE, SLE, SLT,
    ULE,
};
use super::deal::deal;
use super::kernel::{KernelBuilder, Level};
use crate::codegen::statement::Indexer;

/// An array staged for the tile being emitted: its workgroup buffer and the box origin.
#[derive(Clone)]
pub(super) struct StagedField {
    buffer: ValueId,
    origin: Vec<ValueId>,
    /// The buffer's leading index where it holds several versions (`None`: it holds one).
    slot: Option<ValueId>,
}

impl StagedField {
    /// A field held in `buffer`, whose element 0 is the field's element `origin`.
    pub(super) fn new(buffer: ValueId, origin: Vec<ValueId>) -> Self {
        StagedField { buffer, origin, slot: None }
    }

    /// The field held in slot `slot` of `buffer`, a buffer with one more (leading) dimension
    /// than the field, whose elements `[slot, 0, …]` are the field's element `origin`.
    pub(super) fn in_slot(buffer: ValueId, origin: Vec<ValueId>, slot: ValueId) -> Self {
        StagedField { buffer, origin, slot: Some(slot) }
    }
}

/// Which way a box copy goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Copy {
    /// Global → workgroup, the elements read.
    Load,
    /// Workgroup → global, the elements written.
    StoreBack,
}

/// One staged array of a tile.
struct Plan<'f> {
    footprint: &'f ArrayFootprint,
    global: ValueId,
    element: Type,
    field: StagedField,
    /// One per base of the footprint, in order.
    masks: Vec<Mask>,
}

/// The workgroup byte mask of one footprint base: slot `z` says whether the element
/// `origin + z − shift` (the box origin) is in the base.
struct Mask {
    buffer: ValueId,
    /// Per coordinate, the largest offset of the base's accesses.
    shift: Vec<i64>,
    /// Per coordinate, the box extent plus the spread of the base's offsets.
    extent: Vec<i64>,
}

/// How the lower bounds (`max`) and the upper bounds (`min`) of an existential fold.
const FOLDS: [&str; 2] = ["arith.maxsi", "arith.minsi"];

/// One term `row + a·c` of a mask row's test (`c` the innermost coordinate), divided by
/// `divisor` when it bounds the existential.
#[derive(Clone)]
struct RowTerm {
    row: ValueId,
    a: i64,
    divisor: i64,
    /// The row part as an affine form, when the term is one bound (not a fold of several).
    form: Option<AffineForm>,
}

/// Whether `⌈(l.row + a·c)/d⌉ ≤ ⌊(u.row + a·c)/d⌋` holds for every row and `c`: the same `a`
/// and `d`, and `u.row − l.row` a constant of at least `d − 1`.
fn always_fits(l: &RowTerm, u: &RowTerm) -> bool {
    if l.a != u.a || l.divisor != u.divisor {
        return false;
    }
    let (Some(lower), Some(upper)) = (&l.form, &u.form) else { return false };
    upper.checked_sub(lower).is_ok_and(|gap| gap.is_constant() && gap.constant() >= least_gap(l.divisor))
}

/// Whether a per-slot pair is of one step: both bounds with the same coefficient of `c` and the
/// same divisor `d`, a power of two, so that `⌈L/d⌉ ≤ ⌊(L + g)/d⌋` with `L = l.row + a·c` and the row-level gap
/// `g = u.row − l.row`. That holds iff `[L, L + g]` holds a multiple of `d`; the least multiple
/// of `d` from `L` on is `L + ((−L) mod d)`, so iff `(−L) mod d ≤ g` — per slot a subtraction,
/// a mask and a comparison instead of a ceiling and a floor division (2-D SOR's parity pairs,
/// `d = 2`). Other divisors keep the divisions.
fn one_step(l: &RowTerm, u: &RowTerm) -> bool {
    l.a == u.a && l.divisor == u.divisor && l.divisor > 0 && l.divisor & (l.divisor - 1) == 0
}

/// The least `δ` for which `⌈x/d⌉ ≤ ⌊(x + δ)/d⌋` holds for every whole `x`: `d − 1` (the `d`
/// consecutive numbers `x … x + d − 1` hold a multiple of `d`; `x = 1` shows `d − 2` is not
/// enough).
fn least_gap(divisor: i64) -> i64 {
    divisor.saturating_sub(1)
}

/// A mask row's test: `row ∧ lo ≤ c ≤ hi` (each part absent when it always holds) and the
/// conditions that are not intervals of `c`, evaluated per slot.
#[derive(Default)]
struct RowTest {
    row: Option<ValueId>,
    lo: Option<ValueId>,
    hi: Option<ValueId>,
    /// `row + a·c = 0`.
    per_slot_zero: Vec<RowTerm>,
    /// `⌈lower⌉ ≤ ⌊upper⌋`, both divisors above 1.
    per_slot_pairs: Vec<(RowTerm, RowTerm)>,
}

/// Element type of the masks.
const MASK_ELEMENT: Type = Type::Integer(8);

/// Most consecutive mask slots of one row a thread fills in sequence (`fill_mask`).
const MASK_SEGMENT: i64 = 32;

/// The length of the segments a mask row of `width ≥ 1` slots is filled in: as few as
/// [`MASK_SEGMENT`] allows, of equal length up to the last.
fn balanced_segment(width: i64) -> i64 {
    let segments = (width + MASK_SEGMENT - 1) / MASK_SEGMENT;
    (width + segments - 1) / segments
}

impl KernelBuilder<'_, '_> {
    /// Emits `body`, one tile run by the whole block, with its footprint staged in workgroup
    /// memory.
    pub(super) fn staged_tile(&mut self, body: &LoopAst, at: InsertPoint) -> Result<(), String> {
        let mut statements = Vec::new();
        collect_statements(body, &mut statements);
        let outer: Vec<bool> = self.dims.iter().map(Option::is_some).collect();
        let footprints =
            tile_footprints(self.input.problem, &self.input.info.scop, &statements, &outer, &Limits::default())
                .map_err(|e| format!("shared-memory staging: {e}; use gpu-map{{staging=false}} for this tiling"))?;
        let mut plans = Vec::new();
        for footprint in &footprints {
            let field = *self
                .input
                .info
                .arrays
                .get(footprint.array.0)
                .ok_or("shared-memory staging: an array without field argument")?;
            let global = *self.args.get(&field).ok_or("shared-memory staging: a field without kernel argument")?;
            let element = match self.ir.value_type(global) {
                Type::MemRef(m) => m.element.clone(),
                other => return Err(format!("shared-memory staging: field of type {other} is not a memref")),
            };
            let key = (footprint.array.0, None, footprint.extent.clone());
            let buffer = match self.workgroup.get(&key) {
                Some(&b) => b,
                None => {
                    let b = self.workgroup_buffer(footprint, &element)?;
                    self.workgroup.insert(key, b);
                    b
                }
            };
            let origin = footprint
                .origin
                .iter()
                .map(|candidates| self.origin_value(at, candidates))
                .collect::<Result<Vec<_>, _>>()?;
            let masks = footprint
                .bases
                .iter()
                .enumerate()
                .map(|(b, base)| self.mask_buffer(footprint, b, base))
                .collect::<Result<_, _>>()?;
            plans.push(Plan { footprint, global, element, field: StagedField::new(buffer, origin), masks });
        }
        // The masks of the block's previous tile may still be read by its store-back (a block
        // that runs one tile has none).
        if !self.only_tile {
            self.barrier(at);
        }
        for plan in &plans {
            for (base, mask) in plan.footprint.bases.iter().zip(&plan.masks) {
                self.fill_mask(at, plan, base, mask)?;
            }
        }
        self.barrier(at);
        for plan in &plans {
            self.copy_box(at, plan, Copy::Load)?;
        }
        // ①: every element is in workgroup memory before any thread computes.
        self.barrier(at);
        let staged: HashMap<ValueId, StagedField> = plans.iter().map(|p| (p.global, p.field.clone())).collect();
        let saved = std::mem::replace(&mut self.staged, staged);
        let result = self.node(body, at, Level::Block);
        self.staged = saved;
        result?;
        // ②: the tile is complete before its results are copied back — already so when it
        // ends with an intra-tile wavefront loop, which has a barrier after every step.
        if !self.ends_with_barrier(body) {
            self.barrier(at);
        }
        for plan in &plans {
            self.copy_box(at, plan, Copy::StoreBack)?;
        }
        // Fig. 3.17's barrier ③ is the one before the next tile's masks: the store-back reads
        // mask slots other threads filled, which the next tile overwrites.
        Ok(())
    }

    /// Whether the code of `node` at block level ends with a barrier every thread passed after
    /// its last memory access.
    fn ends_with_barrier(&self, node: &LoopAst) -> bool {
        match node {
            LoopAst::For(l) => !l.parallel && !super::kernel::is_tile_loop(self.input.nest, l),
            LoopAst::Seq(items) => items.last().is_some_and(|x| self.ends_with_barrier(x)),
            LoopAst::If { .. } | LoopAst::Stmt { .. } => false,
        }
    }

    /// A new workgroup attribution of the kernel holding `footprint`'s box, counted towards the
    /// kernel's shared memory.
    fn workgroup_buffer(&mut self, footprint: &ArrayFootprint, element: &Type) -> Result<ValueId, String> {
        let name = self.input.info.scop.array(footprint.array).map_or("?", |a| a.name.as_str()).to_string();
        let bytes_per_element = super::ops::element_bytes(element)
            .ok_or_else(|| format!("field {name}: element type {element} has no size"))?;
        let elements = footprint.extent.iter().try_fold(1i64, |acc, &e| acc.checked_mul(e.max(1)));
        let bytes = elements
            .and_then(|e| e.checked_mul(bytes_per_element))
            .ok_or_else(|| format!("field {name}: the tile footprint is too large"))?;
        let shape = footprint.extent.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("×");
        // The limit is checked once the whole kernel is built (`check_shared_limit`), so the
        // error gives the kernel's complete need, not the part found before the limit passed.
        self.count_workgroup_bytes(format!("{name}: {shape} × {element} = {bytes} bytes"), bytes);
        Ok(super::ops::workgroup_buffer(self.ir, self.func, self.entry, &footprint.extent, element))
    }

    /// Fails when the kernel's workgroup buffers, all of them, exceed the shared-memory limit.
    pub(super) fn check_shared_limit(&self) -> Result<(), String> {
        if self.shared_bytes <= self.input.shared_limit {
            return Ok(());
        }
        Err(format!(
            "shared-memory staging needs {} bytes per block ({}; each buffer at 16-byte alignment), above the limit of {} bytes; choose smaller tile sizes, raise gpu-map{{shared-memory=…}} for a device with more, or use gpu-map{{staging=false}}",
            self.shared_bytes,
            self.shared.join(", "),
            self.input.shared_limit
        ))
    }

    /// The box origin along one coordinate: the minimum over the active candidates. When none
    /// is active the tile touches nothing of the array and the value is never used.
    fn origin_value(&mut self, at: InsertPoint, candidates: &[OriginCandidate]) -> Result<ValueId, String> {
        let location = self.location.clone();
        let nd = self.input.nest.space.n_dims();
        let mut acc: Option<(ValueId, Option<ValueId>)> = None; // (minimum so far, any active)
        for c in candidates {
            let lower: Vec<AffineExpr> = c.lower.iter().map(|b| self.bound_expr(b, true, nd)).collect();
            let indexer = ArithIndexer { dims: &self.dims, params: &self.params };
            let v = indexer.fold(self.ir, at, &lower, true, &location)?;
            let active = self.guards_value(at, &c.active, &self.dims.clone())?;
            acc = Some(match (acc, active) {
                (None, active) => (v, active),
                (Some((m, seen)), None) => {
                    let lower = binary(self.ir, at, "arith.minsi", m, v, Type::Index, &location);
                    (self.select(at, seen, lower, v), None)
                }
                (Some((m, seen)), Some(active)) => {
                    let lower = binary(self.ir, at, "arith.minsi", m, v, Type::Index, &location);
                    let with = self.select(at, seen, lower, v);
                    let chosen = self.select(at, Some(active), with, m);
                    let any = match seen {
                        Some(s) => Some(binary(self.ir, at, "arith.ori", s, active, Type::I1, &location)),
                        None => None,
                    };
                    (chosen, any)
                }
            });
        }
        acc.map(|(v, _)| v).ok_or_else(|| "shared-memory staging: a box coordinate without origin".to_string())
    }

    /// `cond ? a : b`; `a` when `cond` is `None` (always true).
    fn select(&mut self, at: InsertPoint, cond: Option<ValueId>, a: ValueId, b: ValueId) -> ValueId {
        let Some(cond) = cond else { return a };
        select(self.ir, at, cond, a, b, &self.location)
    }

    /// The workgroup byte mask for base `index` of `footprint` (module documentation): a new one,
    /// counted towards the kernel's shared memory, unless the kernel has it already.
    fn mask_buffer(&mut self, footprint: &ArrayFootprint, index: usize, base: &FootprintBase) -> Result<Mask, String> {
        let name = self.input.info.scop.array(footprint.array).map_or("?", |a| a.name.as_str()).to_string();
        let offsets: Vec<&Vec<i64>> = base.reads.iter().chain(&base.writes).collect();
        let mut shift = Vec::with_capacity(footprint.extent.len());
        let mut extent = Vec::with_capacity(footprint.extent.len());
        for (d, &e) in footprint.extent.iter().enumerate() {
            let hi = offsets.iter().map(|o| o[d]).max().unwrap_or(0);
            let lo = offsets.iter().map(|o| o[d]).min().unwrap_or(0);
            let grown = hi
                .checked_sub(lo)
                .and_then(|spread| e.max(1).checked_add(spread))
                .ok_or_else(|| format!("field {name}: the staging mask is too large"))?;
            shift.push(hi);
            extent.push(grown);
        }
        let key = (footprint.array.0, Some(index), extent.clone());
        if let Some(&buffer) = self.workgroup.get(&key) {
            return Ok(Mask { buffer, shift, extent });
        }
        let bytes = extent
            .iter()
            .try_fold(1i64, |acc, &e| acc.checked_mul(e))
            .ok_or_else(|| format!("field {name}: the staging mask is too large"))?;
        let shape = extent.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("×");
        self.count_workgroup_bytes(format!("{name} mask: {shape} × i8 = {bytes} bytes"), bytes);
        let buffer = super::ops::workgroup_buffer(self.ir, self.func, self.entry, &extent, &MASK_ELEMENT);
        self.workgroup.insert(key, buffer);
        Ok(Mask { buffer, shift, extent })
    }

    /// Sets every slot of `mask` to whether its element is in `base` (the exact test, once per
    /// element). The work goes over the block's threads in *segments* of up to
    /// [`MASK_SEGMENT`] consecutive slots of one row (innermost coordinate), of equal length
    /// ([`balanced_segment`]): every term of the
    /// test that does not involve the innermost coordinate is computed once per segment, and
    /// each slot adds its own `a·c` to each term — for a 3-D SOR tile of 4, where the test has
    /// a dozen terms, this halves the mask's cost.
    fn fill_mask(&mut self, at: InsertPoint, plan: &Plan<'_>, base: &FootprintBase, mask: &Mask) -> Result<(), String> {
        let location = self.location.clone();
        let rank = mask.extent.len();
        let Some(&width) = mask.extent.last() else {
            return Err("shared-memory staging: a mask without coordinates".into());
        };
        let width = width.max(1);
        // A 1-D mask has no row to share: one slot per work item keeps every thread busy.
        // The row split into as few segments of at most MASK_SEGMENT slots as it needs, of equal
        // length (the last one at most shorter by the remainder): a warp runs as many turns as
        // its longest segment, so 50 slots go as 25 + 25 rather than 32 + 18 (2-D Jacobi's
        // masks: a fifth fewer warp-instructions in their fill).
        let segment_size = if rank == 1 { 1 } else { balanced_segment(width) };
        let segments = (width + segment_size - 1) / segment_size;
        // Work items: (row, segment), the segment fastest.
        let mut items = mask.extent[..rank - 1].to_vec();
        items.push(segments);
        let (item, body) = self.box_loop(at, &items)?;
        let segment = item[rank - 1];
        let region = &base.region;
        let nd = self.dims.len();
        let column = nd + rank - 1;
        // The row's element coordinates (all but the innermost): origin + slot − shift.
        let element = |k: &mut Self, at: InsertPoint, slot: ValueId, d: usize| -> ValueId {
            let at_origin = binary(k.ir, at, "arith.addi", plan.field.origin[d], slot, Type::Index, &location);
            let minus = index_constant(k.ir, at, -mask.shift[d], &location);
            binary(k.ir, at, "arith.addi", at_origin, minus, Type::Index, &location)
        };
        let mut scope = self.dims.clone();
        for (d, &slot) in item.iter().enumerate().take(rank - 1) {
            let v = element(self, body, slot, d);
            scope.push(Some(v));
        }
        // The innermost coordinate has no value at row level: the row parts leave it out.
        scope.push(None);
        // A form as (the form without the innermost coordinate, that coordinate's coefficient).
        let split = |f: &AffineForm| -> Result<(AffineForm, i64), String> {
            let a = f.coeff(column);
            let unit = AffineForm::unit(f.n_columns(), column).map_err(|e| e.to_string())?;
            let row = AffineForm::combine(1, f, -a, &unit).map_err(|e| e.to_string())?;
            Ok((row, a))
        };
        let expr = |row: &AffineForm| affine_expr_of_form(row, |c| dim_or_symbol(c, rank + nd));
        let indexer = ArithIndexer { dims: &scope, params: &self.params };
        // (row value, coefficient of the innermost coordinate) per guard and per bound.
        let mut guards = Vec::new();
        for g in &region.guards {
            let (row, a) = split(&g.expr)?;
            guards.push((indexer.value(self.ir, body, &expr(&row), &location)?, a, g.kind));
        }
        let mut bounds = [Vec::new(), Vec::new()];
        for (k, list) in [&region.lower, &region.upper].into_iter().enumerate() {
            for b in list {
                let (row, a) = split(&b.expr)?;
                let value = indexer.value(self.ir, body, &expr(&row), &location)?;
                bounds[k].push(RowTerm { row: value, a, divisor: b.divisor, form: Some(row) });
            }
        }
        // The row's test as an interval of the innermost coordinate (module documentation,
        // "row intervals"): computed once per segment, so that a slot costs two comparisons.
        let test = self.row_interval(body, &guards, &bounds)?;
        tracing::debug!(
            row_bounds = usize::from(test.lo.is_some()) + usize::from(test.hi.is_some()),
            per_slot = test.per_slot_zero.len() + test.per_slot_pairs.len(),
            "staging mask: row interval"
        );
        // `c = c0 + slot`: the interval in slot units, the row-wide condition folded into it
        // (an empty interval where it fails).
        let c0 = {
            let zero = index_constant(self.ir, body, 0, &location);
            element(self, body, zero, rank - 1)
        };
        let in_slots = |k: &mut Self, v: Option<ValueId>| {
            v.map(|v| binary(k.ir, body, "arith.subi", v, c0, Type::Index, &location))
        };
        let mut lo = in_slots(self, test.lo);
        let mut hi = in_slots(self, test.hi);
        if let Some(holds) = test.row {
            let empty = index_constant(self.ir, body, -1, &location);
            let top = match hi {
                Some(h) => h,
                None => index_constant(self.ir, body, width - 1, &location),
            };
            hi = Some(self.select(body, Some(holds), top, empty));
            if lo.is_none() {
                lo = Some(index_constant(self.ir, body, 0, &location));
            }
        }
        // The segment's slots, in sequence.
        let size = index_constant(self.ir, body, segment_size, &location);
        let first = binary(self.ir, body, "arith.muli", segment, size, Type::Index, &location);
        let past = binary(self.ir, body, "arith.addi", first, size, Type::Index, &location);
        let end = index_constant(self.ir, body, width, &location);
        let last = binary(self.ir, body, "arith.minsi", past, end, Type::Index, &location);
        let one = index_constant(self.ir, body, 1, &location);
        // With both bounds, `lo ≤ slot ≤ hi` is one unsigned comparison per slot,
        // `slot − lo ≤ hi − lo`, the row's span computed once; an empty row (`hi < lo`) becomes
        // `lo = width`, span 0, which no slot reaches.
        let span = match (lo, hi) {
            (Some(l), Some(h)) => {
                let empty = compare(self.ir, body, SLT, h, l, &location);
                let past = index_constant(self.ir, body, width, &location);
                let zero = index_constant(self.ir, body, 0, &location);
                let length = binary(self.ir, body, "arith.subi", h, l, Type::Index, &location);
                Some((self.select(body, Some(empty), past, l), self.select(body, Some(empty), zero, length)))
            }
            _ => None,
        };
        // Pairs of one step (module documentation, "row intervals"), per row: `−L` at slot 0
        // and the gap `g`.
        let steps: Vec<Option<(ValueId, ValueId)>> = test
            .per_slot_pairs
            .iter()
            .map(|(l, u)| {
                one_step(l, u).then(|| {
                    let gap = binary(self.ir, body, "arith.subi", u.row, l.row, Type::Index, &location);
                    let at_c0 = {
                        let a = self.scaled(body, c0, l.a);
                        binary(self.ir, body, "arith.addi", l.row, a, Type::Index, &location)
                    };
                    let zero = index_constant(self.ir, body, 0, &location);
                    (binary(self.ir, body, "arith.subi", zero, at_c0, Type::Index, &location), gap)
                })
            })
            .collect();
        let (slot, inner) = self.scf_for(body, first, last, one);
        let mut member = None;
        match span {
            Some((start, length)) => {
                let offset = binary(self.ir, inner, "arith.subi", slot, start, Type::Index, &location);
                let inside = compare(self.ir, inner, ULE, offset, length, &location);
                accumulate(self.ir, inner, &mut member, "arith.andi", inside, &location);
            }
            None => {
                if let Some(lo) = lo {
                    let above = compare(self.ir, inner, SGE, slot, lo, &location);
                    accumulate(self.ir, inner, &mut member, "arith.andi", above, &location);
                }
                if let Some(hi) = hi {
                    let below = compare(self.ir, inner, SLE, slot, hi, &location);
                    accumulate(self.ir, inner, &mut member, "arith.andi", below, &location);
                }
            }
        }
        if !test.per_slot_zero.is_empty() || !test.per_slot_pairs.is_empty() {
            let c = binary(self.ir, inner, "arith.addi", c0, slot, Type::Index, &location);
            let at_c = |k: &mut Self, t: &RowTerm| -> ValueId {
                let ac = if t.a == 1 {
                    c
                } else {
                    let a = index_constant(k.ir, inner, t.a, &location);
                    binary(k.ir, inner, "arith.muli", a, c, Type::Index, &location)
                };
                binary(k.ir, inner, "arith.addi", t.row, ac, Type::Index, &location)
            };
            for t in &test.per_slot_zero {
                let v = at_c(self, t);
                let holds = self.guard_holds(inner, v, GuardKind::Zero);
                accumulate(self.ir, inner, &mut member, "arith.andi", holds, &location);
            }
            for ((l, u), step) in test.per_slot_pairs.iter().zip(&steps) {
                if let Some((start, gap)) = *step {
                    let a_slot = self.scaled(inner, slot, l.a);
                    let minus_l = binary(self.ir, inner, "arith.subi", start, a_slot, Type::Index, &location);
                    // `(−L) mod d` as its low bits: `d` is a power of two (`one_step`), and two's
                    // complement makes the mask exact for negative `−L` too.
                    let low_bits = index_constant(self.ir, inner, l.divisor - 1, &location);
                    let to_multiple = binary(self.ir, inner, "arith.andi", minus_l, low_bits, Type::Index, &location);
                    let fits = compare(self.ir, inner, SLE, to_multiple, gap, &location);
                    accumulate(self.ir, inner, &mut member, "arith.andi", fits, &location);
                    continue;
                }
                let v = at_c(self, l);
                let lower = self.bound_term(inner, v, l.divisor, true);
                let v = at_c(self, u);
                let upper = self.bound_term(inner, v, u.divisor, false);
                let fits = compare(self.ir, inner, SLE, lower, upper, &location);
                accumulate(self.ir, inner, &mut member, "arith.andi", fits, &location);
            }
        }
        let member = match member {
            Some(m) => m,
            None => true_constant(self.ir, inner, &location),
        };
        let mut state = OperationState::new("arith.extui", location.clone());
        state.operands = vec![member];
        state.result_types = vec![MASK_ELEMENT];
        let op = self.ir.build(inner, state);
        let byte = self.ir.result(op, 0);
        let mut slots: Vec<ValueId> = item[..rank - 1].to_vec();
        slots.push(slot);
        store(self.ir, inner, byte, mask.buffer, slots, &location);
        Ok(())
    }

    /// The test of one mask row (module documentation, "row intervals") from the base's
    /// `guards` and the existential's `bounds` (lower, upper), each `row + a·c` with the row
    /// part already computed at `at`.
    fn row_interval(
        &mut self,
        at: InsertPoint,
        guards: &[(ValueId, i64, GuardKind)],
        bounds: &[Vec<RowTerm>; 2],
    ) -> Result<RowTest, String> {
        let location = self.location.clone();
        let mut test = RowTest::default();
        for &(row, a, kind) in guards {
            match (a, kind) {
                (0, _) => {
                    let holds = self.guard_holds(at, row, kind);
                    accumulate(self.ir, at, &mut test.row, "arith.andi", holds, &location);
                }
                (_, GuardKind::Zero) => test.per_slot_zero.push(RowTerm { row, a, divisor: 1, form: None }),
                (_, GuardKind::NonNegative) => self.linear_condition(at, &mut test, a, row),
            }
        }
        if bounds[0].is_empty() && bounds[1].is_empty() {
            return Ok(test);
        }
        if bounds[0].is_empty() || bounds[1].is_empty() {
            return Err("shared-memory staging: an existential with bounds on one side only".into());
        }
        // Terms of one side with the same coefficient and divisor fold at row level (⌈·⌉ and
        // ⌊·⌋ are monotone); terms without `c` fold into one whole number.
        let mut sides: [Vec<RowTerm>; 2] = [Vec::new(), Vec::new()];
        for (k, list) in bounds.iter().enumerate() {
            for term in list {
                let mut term = term.clone();
                if term.a == 0 {
                    term.row = self.bound_term(at, term.row, term.divisor, k == 0);
                    term.divisor = 1;
                }
                match sides[k].iter_mut().find(|t| t.a == term.a && t.divisor == term.divisor) {
                    Some(t) => {
                        t.row = binary(self.ir, at, FOLDS[k], t.row, term.row, Type::Index, &location);
                        t.form = None;
                    }
                    None => sides[k].push(term),
                }
            }
        }
        // max_l ⌈l⌉ ≤ min_u ⌊u⌋ holds iff it does for every pair (l, u). With one divisor 1 the
        // pair is linear in `c` (for whole numbers n: ⌈x/d⌉ ≤ n ⟺ x ≤ d·n and n ≤ ⌊y/d⌋ ⟺
        // d·n ≤ y); with both above 1 it may hold on a non-interval set of `c` (a parity), and
        // stays a per-slot test — unless it always holds: ⌈x/d⌉ ≤ ⌊(x + δ)/d⌋ for every x iff
        // δ ≥ d − 1 (an interval of d consecutive numbers holds a multiple of d).
        let overflow = || "shared-memory staging: a mask coefficient overflows".to_string();
        for l in &sides[0] {
            for u in &sides[1] {
                // `k·c + m ≥ 0` with m = p·u.row − q·l.row.
                let (k, p, q) = if u.divisor == 1 {
                    (l.divisor.checked_mul(u.a).and_then(|x| x.checked_sub(l.a)).ok_or_else(overflow)?, l.divisor, 1)
                } else if l.divisor == 1 {
                    (u.divisor.checked_mul(l.a).and_then(|x| u.a.checked_sub(x)).ok_or_else(overflow)?, 1, u.divisor)
                } else {
                    if !always_fits(l, u) {
                        test.per_slot_pairs.push((l.clone(), u.clone()));
                    }
                    continue;
                };
                let upper = self.scaled(at, u.row, p);
                let lower = self.scaled(at, l.row, q);
                let m = binary(self.ir, at, "arith.subi", upper, lower, Type::Index, &location);
                self.linear_condition(at, &mut test, k, m);
            }
        }
        Ok(test)
    }

    /// Adds `k·c + m ≥ 0` to `test`: a row-wide condition when `k = 0`, else a bound of `c`.
    fn linear_condition(&mut self, at: InsertPoint, test: &mut RowTest, k: i64, m: ValueId) {
        let location = self.location.clone();
        match k.cmp(&0) {
            std::cmp::Ordering::Equal => {
                let holds = self.guard_holds(at, m, GuardKind::NonNegative);
                accumulate(self.ir, at, &mut test.row, "arith.andi", holds, &location);
            }
            // c ≥ ⌈−m / k⌉
            std::cmp::Ordering::Greater => {
                let zero = index_constant(self.ir, at, 0, &location);
                let minus = binary(self.ir, at, "arith.subi", zero, m, Type::Index, &location);
                let lo = self.bound_term(at, minus, k, true);
                accumulate(self.ir, at, &mut test.lo, FOLDS[0], lo, &location);
            }
            // c ≤ ⌊m / −k⌋ (k > i64::MIN: the coefficients are small)
            std::cmp::Ordering::Less => {
                let hi = self.bound_term(at, m, k.saturating_neg(), false);
                accumulate(self.ir, at, &mut test.hi, FOLDS[1], hi, &location);
            }
        }
    }

    /// `factor · value` at `at` (`value` itself for 1).
    fn scaled(&mut self, at: InsertPoint, value: ValueId, factor: i64) -> ValueId {
        if factor == 1 {
            return value;
        }
        let location = self.location.clone();
        let f = index_constant(self.ir, at, factor, &location);
        binary(self.ir, at, "arith.muli", f, value, Type::Index, &location)
    }

    /// `value ≥ 0` (or `= 0` for a `Zero` guard) at `at`.
    fn guard_holds(&mut self, at: InsertPoint, value: ValueId, kind: GuardKind) -> ValueId {
        let location = self.location.clone();
        let zero = index_constant(self.ir, at, 0, &location);
        compare(self.ir, at, if kind == GuardKind::Zero { EQ } else { SGE }, value, zero, &location)
    }

    /// `⌈value / divisor⌉` (`lower`) or `⌊value / divisor⌋` at `at`.
    fn bound_term(&mut self, at: InsertPoint, value: ValueId, divisor: i64, lower: bool) -> ValueId {
        if divisor == 1 {
            return value;
        }
        let location = self.location.clone();
        let d = index_constant(self.ir, at, divisor, &location);
        binary(
            self.ir,
            at,
            if lower { "arith.ceildivsi" } else { "arith.floordivsi" },
            value,
            d,
            Type::Index,
            &location,
        )
    }

    /// The slots of a box of `extent` dealt over the block's threads: the slot's coordinates and
    /// where the code per slot goes. Consecutive threads take consecutive slots of a row
    /// (coalesced). A box of one or two dimensions is dealt on a grid fitted to it (`deal`),
    /// each thread stepping along the rows: a linear deal (slot `s` to thread `s mod threads`)
    /// paid a division per slot to find its coordinates, about 10 of the 33 SASS per element of
    /// 2-D SOR's load loop. A box of three keeps the linear deal: a fitted grid's per-thread
    /// coordinates stay live through the whole kernel, three per box, and a 3-D staged kernel
    /// has many boxes (fields and masks): heat-3d's staged tiles (2×8×12×8 on 8×8×8) took 55
    /// registers instead of 32 with them, half the resident blocks.
    fn box_loop(&mut self, at: InsertPoint, extent: &[i64]) -> Result<(Vec<ValueId>, InsertPoint), String> {
        let location = self.location.clone();
        let extent: Vec<i64> = extent.iter().map(|&e| e.max(1)).collect();
        if extent.len() <= 2 {
            let linear = self.linear_thread(at, 0);
            let zero = index_constant(self.ir, at, 0, &location);
            let lo = vec![zero; extent.len()];
            let hi: Vec<ValueId> = extent.iter().map(|&e| index_constant(self.ir, at, e, &location)).collect();
            let threads = self.threads_along(0);
            return deal(self.ir, at, linear, (&lo, &hi), &extent, threads, &location);
        }
        let total: i64 = extent.iter().product();
        let first = self.linear_thread(at, 0);
        let threads = self.thread_count(at, 0);
        let end = index_constant(self.ir, at, total, &location);
        let (linear, body) = self.scf_for(at, first, end, threads);
        // Delinearise: the innermost coordinate varies fastest; the outermost is what is left
        // (the linear index is below the total).
        let mut coords = vec![linear; extent.len()];
        let mut rest = linear;
        for d in (1..extent.len()).rev() {
            let size = index_constant(self.ir, body, extent[d], &location);
            coords[d] = binary(self.ir, body, "arith.remui", rest, size, Type::Index, &location);
            rest = binary(self.ir, body, "arith.divui", rest, size, Type::Index, &location);
        }
        coords[0] = rest;
        Ok((coords, body))
    }

    /// Whether box slot `coords` of `plan` is an element the tile reads (`Copy::Load`) or writes
    /// (`Copy::StoreBack`): `mask[coords + shift − o]` of some base for one of its offsets `o`.
    fn masked(&mut self, at: InsertPoint, plan: &Plan<'_>, coords: &[ValueId], direction: Copy) -> Option<ValueId> {
        let location = self.location.clone();
        let mut any: Option<ValueId> = None;
        for (base, mask) in plan.footprint.bases.iter().zip(&plan.masks) {
            let offsets = match direction {
                Copy::Load => &base.reads,
                Copy::StoreBack => &base.writes,
            };
            for offset in offsets {
                let slot: Vec<ValueId> = coords
                    .iter()
                    .zip(&mask.shift)
                    .zip(offset)
                    .map(|((&c, &shift), &o)| match shift - o {
                        0 => c,
                        k => {
                            let k = index_constant(self.ir, at, k, &location);
                            binary(self.ir, at, "arith.addi", c, k, Type::Index, &location)
                        }
                    })
                    .collect();
                let byte = load(self.ir, at, mask.buffer, slot, MASK_ELEMENT, &location);
                let mut state = OperationState::new("arith.trunci", location.clone());
                state.operands = vec![byte];
                state.result_types = vec![Type::I1];
                let op = self.ir.build(at, state);
                let bit = self.ir.result(op, 0);
                any = Some(match any {
                    Some(a) => binary(self.ir, at, "arith.ori", a, bit, Type::I1, &location),
                    None => bit,
                });
            }
        }
        any
    }

    /// Copies the member elements of a plan's box, cyclically over the block's threads with the
    /// innermost coordinate fastest (consecutive threads, consecutive addresses).
    fn copy_box(&mut self, at: InsertPoint, plan: &Plan<'_>, direction: Copy) -> Result<(), String> {
        let copies = |b: &FootprintBase| match direction {
            Copy::Load => !b.reads.is_empty(),
            Copy::StoreBack => !b.writes.is_empty(),
        };
        if !plan.footprint.bases.iter().any(copies) {
            return Ok(());
        }
        let location = self.location.clone();
        let extent = plan.footprint.extent.clone();
        let (coords, body) = self.box_loop(at, &extent)?;
        let member = self.masked(body, plan, &coords, direction).ok_or("shared-memory staging: no offsets")?;
        let element: Vec<ValueId> = coords
            .iter()
            .zip(&plan.field.origin)
            .map(|(&c, &o)| binary(self.ir, body, "arith.addi", o, c, Type::Index, &location))
            .collect();
        let inside = self.scf_if(body, member);
        match direction {
            Copy::Load => {
                let v = load(self.ir, inside, plan.global, element, plan.element.clone(), &location);
                store(self.ir, inside, v, plan.field.buffer, coords, &location);
            }
            Copy::StoreBack => {
                let v = load(self.ir, inside, plan.field.buffer, coords, plan.element.clone(), &location);
                store(self.ir, inside, v, plan.global, element, &location);
            }
        }
        Ok(())
    }

    /// `⌈expr / divisor⌉` (`ceil`) or `⌊expr / divisor⌋` over `nd` dimensions and the parameters.
    pub(super) fn bound_expr(&self, b: &Bound, ceil: bool, nd: usize) -> AffineExpr {
        super::arith::bound_affine(b, ceil, nd)
    }
}

/// An [`Indexer`] for statements inside a staged tile: accesses to staged fields go to their
/// workgroup buffers (element minus box origin), everything else to the arith indexer.
pub(super) struct StagedIndexer<'a> {
    /// Index values and global accesses.
    pub inner: ArithIndexer<'a>,
    /// The staged fields of the tile, by kernel argument.
    pub staged: &'a HashMap<ValueId, StagedField>,
}

impl StagedIndexer<'_> {
    /// The buffer and buffer indices of `memref[index]` when `memref` is staged.
    fn redirect(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        memref: ValueId,
        index: &[AffineExpr],
        location: &Location,
    ) -> Result<Option<(ValueId, Vec<ValueId>)>, String> {
        let Some(field) = self.staged.get(&memref) else { return Ok(None) };
        let mut local = field.slot.into_iter().collect::<Vec<_>>();
        for (e, &o) in index.iter().zip(&field.origin) {
            local.push(relative_index(ir, at, &self.inner, e, o, location)?);
        }
        Ok(Some((field.buffer, local)))
    }
}

/// `e` as `variable + c` (`c = 0` when `e` is not a sum with a constant last).
pub(super) fn split_offset(e: &AffineExpr) -> (&AffineExpr, i64) {
    match e {
        AffineExpr::Binary(AffineBinOp::Add, a, b) => match b.as_ref() {
            AffineExpr::Constant(c) => (a.as_ref(), *c),
            _ => (e, 0),
        },
        _ => (e, 0),
    }
}

/// The buffer index of the element `e` of a buffer whose element 0 is `origin`: `(e + c) −
/// origin` as `(e − origin) + c`. A stencil's accesses differ only in `c`, so `e − origin` is
/// one value for all of them (after `cse`) and each access adds its offset.
pub(super) fn relative_index(
    ir: &mut Ir,
    at: InsertPoint,
    indexer: &ArithIndexer<'_>,
    e: &AffineExpr,
    origin: ValueId,
    location: &Location,
) -> Result<ValueId, String> {
    let (variable, offset) = split_offset(e);
    let g = indexer.value(ir, at, variable, location)?;
    let mut v = binary(ir, at, "arith.subi", g, origin, Type::Index, location);
    if offset != 0 {
        let c = index_constant(ir, at, offset, location);
        v = binary(ir, at, "arith.addi", v, c, Type::Index, location);
    }
    Ok(v)
}

impl Indexer for StagedIndexer<'_> {
    fn load(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        memref: ValueId,
        index: &[AffineExpr],
        element: Type,
        location: &Location,
    ) -> Result<ValueId, String> {
        match self.redirect(ir, at, memref, index, location)? {
            Some((buffer, local)) => Ok(load(ir, at, buffer, local, element, location)),
            None => self.inner.load(ir, at, memref, index, element, location),
        }
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
        match self.redirect(ir, at, memref, index, location)? {
            Some((buffer, local)) => {
                store(ir, at, value, buffer, local, location);
                Ok(())
            }
            None => self.inner.store(ir, at, value, memref, index, location),
        }
    }

    fn index_value(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        expr: &AffineExpr,
        location: &Location,
    ) -> Result<ValueId, String> {
        self.inner.index_value(ir, at, expr, location)
    }
}

/// The statements that run in `node`.
fn collect_statements(node: &LoopAst, out: &mut Vec<StatementId>) {
    match node {
        LoopAst::For(l) => collect_statements(&l.body, out),
        LoopAst::If { then, .. } => collect_statements(then, out),
        LoopAst::Stmt { statement, .. } => {
            if !out.contains(statement) {
                out.push(*statement);
            }
        }
        LoopAst::Seq(items) => items.iter().for_each(|x| collect_statements(x, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::{balanced_segment, least_gap, MASK_SEGMENT};

    /// `⌈x/d⌉ ≤ ⌊y/d⌋`, by the definitions.
    fn fits(x: i64, y: i64, d: i64) -> bool {
        x.div_euclid(d) + i64::from(x.rem_euclid(d) != 0) <= y.div_euclid(d)
    }

    /// What lets `always_fits` drop a pair of bounds from the mask: a constant gap of
    /// `least_gap(d)` always holds, and one less does not.
    #[test]
    fn a_pair_of_bounds_least_gap_apart_always_holds_and_no_less_does() {
        for d in 1..=7 {
            let least = least_gap(d);
            for x in -30..30 {
                for gap in least..least + 10 {
                    assert!(fits(x, x + gap, d), "d={d} x={x} gap={gap}");
                }
            }
            if least > 0 {
                assert!(
                    (-30..30).any(|x| !fits(x, x + least - 1, d)),
                    "d={d}: a gap of {} also always holds",
                    least - 1
                );
            }
        }
    }

    /// `one_step`'s test: `⌈L/d⌉ ≤ ⌊(L + g)/d⌋` iff `(−L) mod d ≤ g` (the remainder in
    /// `[0, d)`), for negative `L` and gaps too; and the mask `(−L) & (d − 1)` is that remainder
    /// for powers of two.
    #[test]
    fn a_pair_of_one_step_holds_iff_the_distance_to_a_multiple_is_within_the_gap() {
        for d in 1..=9i64 {
            for l in -40..40i64 {
                let to_multiple = (-l).rem_euclid(d);
                if d & (d - 1) == 0 {
                    assert_eq!((-l) & (d - 1), to_multiple, "d={d} L={l}");
                }
                for gap in -4..12 {
                    assert_eq!(fits(l, l + gap, d), to_multiple <= gap, "d={d} L={l} g={gap}");
                }
            }
        }
    }

    #[test]
    fn mask_rows_split_into_the_fewest_equal_segments() {
        for width in 1..=300 {
            let size = balanced_segment(width);
            let segments = (width + size - 1) / size;
            assert!((1..=MASK_SEGMENT).contains(&size), "{width}: {size}");
            assert_eq!(segments, (width + MASK_SEGMENT - 1) / MASK_SEGMENT, "{width}: as few segments as before");
            assert!(
                size * segments - width < segments,
                "{width}: {size} x {segments}, the last at most one per segment shorter"
            );
        }
        assert_eq!((balanced_segment(50), balanced_segment(82), balanced_segment(32)), (25, 28, 32));
    }
}
