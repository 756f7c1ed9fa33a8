//! A full tile's memory traffic and shared memory: thesis Eq. 5.5's `N_mem` (the loads and
//! stores of Fig. 5.2's ① and ③) and Table 5.1's `S_TB`; seed 004's `m_i`, `m_o` and `M_tile`.
//!
//! **Staged** (`gpu-map{staging=true}`, thesis Fig. 3.17): a tile loads exactly the elements it
//! reads and stores back exactly the elements it writes (`stencil_poly::codegen::tile_footprints`),
//! so `N_mem` counts distinct elements: per array, the union over the accesses of
//! `{F·i + o : i a point of the tile}`. They are counted on one representative full tile
//! (every full tile is a translate): the distinct elements of each access shape `F` are marked
//! once by walking the tile's points, then shifted by each access's constant. Each array gets a
//! workgroup buffer: the box of every element any tile touches, whose extent per coordinate is
//! a closed form (a linear function's range over the tile's box, thesis Eq. 3.14).
//! **Unstaged** (`staging=false`): every access of every point goes to global memory and no
//! shared memory is used.

use crate::error::{Result, TileModelError};
use crate::shape::{BandShape, StatementShape};

/// Memory use of one full tile.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TileMemory {
    /// Elements loaded from global memory.
    pub loads: u64,
    /// Elements stored to global memory.
    pub stores: u64,
    /// Bytes loaded.
    pub load_bytes: u64,
    /// Bytes stored.
    pub store_bytes: u64,
    /// Shared (workgroup) memory per block, in bytes.
    pub shared_bytes: u64,
    /// Per copy loop of a staged tile (one per array and direction: loads of the elements
    /// read, stores of those written), the buffer cells it visits: the mapping's copies walk
    /// the whole buffer box and test each cell's membership (docs/passes.md, staging), so this,
    /// not the elements moved, is their work. Empty without staging.
    pub copy_loops: Vec<u64>,
}

impl TileMemory {
    /// `N_mem`: loads plus stores (thesis Eq. 5.5).
    pub fn accesses(&self) -> u64 {
        self.loads + self.stores
    }

    /// Loads plus stores in 4-byte words (seed 004's `M_io`, Table 1).
    pub fn words(&self) -> u64 {
        (self.load_bytes + self.store_bytes).div_ceil(4)
    }

    /// Buffer cells the copy loops visit (all loops).
    pub fn copy_cells(&self) -> u64 {
        self.copy_loops.iter().sum()
    }
}

/// Per coordinate of an array, the smallest and largest element a full tile touches.
type ElementBox = Vec<(i64, i64)>;

/// The accesses of one statement to one array with the same linear part `F`: their constants
/// and whether each is a write.
type AccessGroup<'s> = (&'s Vec<Vec<i64>>, Vec<(&'s Vec<i64>, bool)>);

/// Per array, the [`ElementBox`] of a full tile at tile corner `Y = 0` (`None`: untouched).
fn array_boxes(shape: &BandShape, sizes: &[i64]) -> Result<Vec<Option<ElementBox>>> {
    let mut boxes: Vec<Option<ElementBox>> = vec![None; shape.arrays.len()];
    // Per array and coordinate, the coefficients of the tile corner Y in the element index,
    // which must agree between accesses (else the buffer would grow with the tile position).
    let mut drift: Vec<Option<Vec<Vec<i64>>>> = vec![None; shape.arrays.len()];
    for s in shape.statements.iter().filter(|s| s.instances() > 0) {
        for a in &s.accesses {
            // x = F·i + o with i = N·(y − c), y = Y + u, u ∈ [0, s − 1]: x = G·u + G·Y + k with
            // G = F·N, k = o − G·c.
            let g = mat_mul(&a.linear, &s.inverse);
            let entry = boxes
                .get_mut(a.array)
                .ok_or_else(|| TileModelError::InvalidInput(format!("access to unknown array {}", a.array)))?;
            match &drift[a.array] {
                Some(d) if *d != g => {
                    return Err(TileModelError::Unsupported(format!(
                        "the accesses to {} move differently with the tile position; its staged footprint is not a fixed box",
                        shape.arrays[a.array].name
                    )))
                }
                _ => drift[a.array] = Some(g.clone()),
            }
            let overflow = || TileModelError::Overflow("the staged footprint of a tile");
            let mut coordinates = Vec::with_capacity(g.len());
            for (d, row) in g.iter().enumerate() {
                let k = a.offset[d].checked_sub(dot(row, &s.shift)).ok_or_else(overflow)?;
                coordinates.push(row_span(row, sizes, (k, k)).ok_or_else(overflow)?);
            }
            *entry = Some(match entry.take() {
                None => coordinates,
                Some(b) => b.iter().zip(&coordinates).map(|(&(a, b), &(c, d))| (a.min(c), b.max(d))).collect(),
            });
        }
    }
    Ok(boxes)
}

/// The `hi − lo + 1 + grow` elements of a box side (`None` on overflow or when negative).
fn span(lo: i64, hi: i64, grow: i64) -> Option<u64> {
    u64::try_from(hi.checked_sub(lo)?.checked_add(1)?.checked_add(grow)?).ok()
}

/// The product of `factors` (`None` when one is `None` or the product overflows).
fn checked_product(factors: impl IntoIterator<Item = Option<u64>>) -> Option<u64> {
    factors.into_iter().try_fold(1u64, |acc, f| acc.checked_mul(f?))
}

/// A footprint base of one statement: the array, the accesses' linear part, and per
/// coordinate the smallest and largest constant offset.
/// The range `(lo, hi)` of `row · x + k` over a tile box `0 ≤ x < sizes`, for `k` in `constants`
/// (`None` on overflow): each coordinate moves the bounds by `row_d · (size_d − 1)` one way.
fn row_span(row: &[i64], sizes: &[i64], constants: (i64, i64)) -> Option<(i64, i64)> {
    let (mut lo, mut hi) = constants;
    for (&c, &size) in row.iter().zip(sizes) {
        let v = c.checked_mul(size - 1)?;
        lo = lo.checked_add(v.min(0))?;
        hi = hi.checked_add(v.max(0))?;
    }
    Some((lo, hi))
}

type MaskBase<'s> = (usize, &'s Vec<Vec<i64>>, Vec<(i64, i64)>);

/// The mask bases of statement `s`: per (array, linear part) of its accesses, the smallest and
/// largest offset per coordinate.
fn mask_bases(s: &StatementShape) -> Vec<MaskBase<'_>> {
    let mut bases: Vec<MaskBase<'_>> = Vec::new();
    for a in &s.accesses {
        match bases.iter_mut().find(|(array, linear, _)| *array == a.array && *linear == &a.linear) {
            Some((_, _, spread)) => {
                for (d, &o) in a.offset.iter().enumerate() {
                    if let Some(range) = spread.get_mut(d) {
                        *range = (range.0.min(o), range.1.max(o));
                    }
                }
            }
            None => bases.push((a.array, &a.linear, a.offset.iter().map(|&o| (o, o)).collect())),
        }
    }
    bases
}

/// The workgroup words in which the first warp of a block of more than one warp leaves its
/// tile's set-up for the other warps (`gpu-map`, one tile per block): whether the tile exists,
/// whether it is full, and a coordinate per tile loop mapped to a grid axis (at most three of
/// the band's `width − 1` parallel tile loops), 8 bytes each. Counted for every staged layout,
/// whatever its block: the shared-memory bound is per size, and a size the bound admits must
/// not fail in `gpu-map` for those few bytes.
pub fn tile_set_up_bytes(width: usize) -> u64 {
    padded(8 * (2 + width.saturating_sub(1).min(3) as u64))
}

/// The alignment of `gpu-map`'s workgroup buffers (`stencil_dialects::gpu::WORKGROUP_BUFFER_ALIGNMENT`;
/// this crate has no IR types).
const WORKGROUP_BUFFER_ALIGNMENT: u64 = 16;

/// `bytes` rounded up to the buffers' alignment: `gpu-map` counts every buffer so against the
/// limit (the layout pads all but the last; counting the last one's too keeps the bound simple).
fn padded(bytes: u64) -> u64 {
    bytes.div_ceil(WORKGROUP_BUFFER_ALIGNMENT).saturating_mul(WORKGROUP_BUFFER_ALIGNMENT)
}

/// Shared memory per block when staging: what `gpu-map` allocates — per array, the product of
/// its buffer's extents times the element size, per footprint base (a statement's accesses
/// to the array that differ only in their constant offsets) a byte mask over the buffer's box
/// grown by the spread of those offsets, and the tile set-up's words ([`tile_set_up_bytes`]);
/// each rounded up to the buffers' alignment, as `gpu-map` counts them against the limit.
pub fn staged_shared_bytes(shape: &BandShape, sizes: &[i64]) -> Result<u64> {
    shape.check_sizes(sizes)?;
    shared_bytes_of(shape, &array_boxes(shape, sizes)?)
}

/// [`staged_shared_bytes`] from the arrays' boxes (`array_boxes` at the sizes).
fn shared_bytes_of(shape: &BandShape, boxes: &[Option<ElementBox>]) -> Result<u64> {
    let overflow = || TileModelError::Overflow("shared memory per block");
    let mut total: u64 = tile_set_up_bytes(shape.width);
    for (array, b) in shape.arrays.iter().zip(boxes) {
        if let Some(b) = b {
            let elements = checked_product(b.iter().map(|&(lo, hi)| span(lo, hi, 0))).ok_or_else(overflow)?;
            let bytes = elements.checked_mul(u64::from(array.element_bytes)).ok_or_else(overflow)?;
            total = total.checked_add(padded(bytes)).ok_or_else(overflow)?;
        }
    }
    for s in shape.statements.iter().filter(|s| s.instances() > 0) {
        for (array, _, spread) in mask_bases(s) {
            let Some(Some(b)) = boxes.get(array) else { continue };
            let bytes = checked_product(
                b.iter().zip(&spread).map(|(&(lo, hi), &(omin, omax))| span(lo, hi, omax.checked_sub(omin)?)),
            )
            .ok_or_else(overflow)?;
            total = total.checked_add(padded(bytes)).ok_or_else(overflow)?;
        }
    }
    Ok(total)
}

/// [`staged_shared_bytes`] prepared once per band for the search, which screens every
/// candidate size with it (Alg. 5.1 line 3's upper bound on `S_TB`; 3-D bands: over 10^5
/// sizes): the size-independent parts — per array the drift `G = F·N` (every access of an
/// array shares it, else `array_boxes` fails), the least and greatest constant `k` of each
/// coordinate, and the mask bases' spreads — are computed once, so a size costs a few checked
/// additions per coordinate and no allocation beyond its boxes. The same numbers and the same
/// errors as [`staged_shared_bytes`]: a box side is `min_k k + Σ_c min(G_dc·(s_c − 1), 0)` to
/// `max_k k + Σ_c max(…, 0)`, the union of every access's, and a sum overflows for some
/// access iff it does for the least (lower side) or greatest (upper side) `k`, the partial sums
/// being monotone. A band on which `array_boxes` fails for every size (an unknown array,
/// accesses that drift apart, a constant that overflows) is left to [`staged_shared_bytes`],
/// which reports it as before.
#[derive(Debug, Clone)]
pub struct SharedBytesPlan {
    /// `None`: [`staged_shared_bytes`] itself, per size.
    arrays: Option<Vec<PlannedArray>>,
    /// Per footprint base (every statement with instances, in order): its array and per
    /// coordinate the spread of its offsets `omax − omin`.
    masks: Vec<(usize, Vec<i64>)>,
}

/// One array in a [`SharedBytesPlan`]: untouched, or its drift and constants.
#[derive(Debug, Clone, Default)]
struct PlannedArray {
    touched: bool,
    element_bytes: u64,
    /// `G`, one row per array coordinate.
    drift: Vec<Vec<i64>>,
    /// Per coordinate, the least and the greatest `k = o − G·c` over the accesses.
    constants: Vec<(i64, i64)>,
}

impl SharedBytesPlan {
    /// The plan of `shape`.
    pub fn new(shape: &BandShape) -> SharedBytesPlan {
        let mut arrays: Vec<PlannedArray> = shape
            .arrays
            .iter()
            .map(|a| PlannedArray { element_bytes: u64::from(a.element_bytes), ..PlannedArray::default() })
            .collect();
        let mut ok = true;
        let mut masks = Vec::new();
        for s in shape.statements.iter().filter(|s| s.instances() > 0) {
            for a in &s.accesses {
                let g = mat_mul(&a.linear, &s.inverse);
                let Some(entry) = arrays.get_mut(a.array) else {
                    ok = false;
                    continue;
                };
                if entry.touched && entry.drift != g {
                    ok = false;
                    continue;
                }
                let mut constants = Vec::with_capacity(g.len());
                for (d, row) in g.iter().enumerate() {
                    match a.offset.get(d).and_then(|o| o.checked_sub(dot(row, &s.shift))) {
                        Some(k) => constants.push(k),
                        None => ok = false,
                    }
                }
                if !ok {
                    continue;
                }
                if !entry.touched {
                    entry.touched = true;
                    entry.constants = constants.iter().map(|&k| (k, k)).collect();
                    entry.drift = g;
                } else {
                    for (range, &k) in entry.constants.iter_mut().zip(&constants) {
                        *range = (range.0.min(k), range.1.max(k));
                    }
                }
            }
            // The mask bases as `staged_shared_bytes` forms them.
            for (array, _, spread) in mask_bases(s) {
                match spread.iter().map(|&(lo, hi)| hi.checked_sub(lo)).collect::<Option<Vec<i64>>>() {
                    Some(grow) => masks.push((array, grow)),
                    None => ok = false,
                }
            }
        }
        SharedBytesPlan { arrays: ok.then_some(arrays), masks }
    }

    /// Whether [`SharedBytesPlan::bytes`] is the closed form (not [`staged_shared_bytes`] per
    /// size), which never decreases when a size grows: a box side spans
    /// `max_k k − min_k k + Σ_c |G_dc|·(s_c − 1) + 1` values, growing with every `s_c`, and the
    /// bytes are sums of products of such spans (and of spans widened by fixed spreads), none
    /// negative where they compute.
    pub fn is_monotone(&self) -> bool {
        self.arrays.is_some()
    }

    /// [`staged_shared_bytes`] of `sizes`.
    pub fn bytes(&self, shape: &BandShape, sizes: &[i64]) -> Result<u64> {
        let Some(arrays) = &self.arrays else { return staged_shared_bytes(shape, sizes) };
        let overflow = || TileModelError::Overflow("the staged footprint of a tile");
        // Every box first (as `array_boxes`), then the totals.
        let mut boxes: Vec<(i64, i64)> = Vec::with_capacity(arrays.iter().map(|a| a.constants.len()).sum());
        for a in arrays {
            for (row, &constants) in a.drift.iter().zip(&a.constants) {
                boxes.push(row_span(row, sizes, constants).ok_or_else(overflow)?);
            }
        }
        let overflow = || TileModelError::Overflow("shared memory per block");
        let mut total: u64 = tile_set_up_bytes(shape.width);
        let mut at = 0;
        let mut offsets = Vec::with_capacity(arrays.len());
        for a in arrays {
            offsets.push(at);
            let b = &boxes[at..at + a.constants.len()];
            at += a.constants.len();
            if !a.touched {
                continue;
            }
            let elements = checked_product(b.iter().map(|&(lo, hi)| span(lo, hi, 0))).ok_or_else(overflow)?;
            let bytes = elements.checked_mul(a.element_bytes).ok_or_else(overflow)?;
            total = total.checked_add(padded(bytes)).ok_or_else(overflow)?;
        }
        for (array, grow) in &self.masks {
            let Some(a) = arrays.get(*array).filter(|a| a.touched) else { continue };
            let b = &boxes[offsets[*array]..offsets[*array] + a.constants.len()];
            let bytes =
                checked_product(b.iter().zip(grow).map(|(&(lo, hi), &g)| span(lo, hi, g))).ok_or_else(overflow)?;
            total = total.checked_add(padded(bytes)).ok_or_else(overflow)?;
        }
        Ok(total)
    }
}

/// The largest buffer the exact count walks, in elements.
pub const MAX_FOOTPRINT_ELEMENTS: u64 = 1 << 26;

/// Loads, stores and shared memory of a full tile staged in shared memory.
pub fn staged_memory(shape: &BandShape, sizes: &[i64]) -> Result<TileMemory> {
    shape.check_sizes(sizes)?;
    let boxes = array_boxes(shape, sizes)?;
    // (The boxes once: `staged_shared_bytes` would make them again.)
    let mut memory = TileMemory { shared_bytes: shared_bytes_of(shape, &boxes)?, ..TileMemory::default() };
    for (index, (array, b)) in shape.arrays.iter().zip(&boxes).enumerate() {
        let Some(b) = b else { continue };
        let too_large = || {
            TileModelError::InvalidInput(format!(
                "the staged footprint of {} is too large; use smaller tiles",
                array.name
            ))
        };
        let cells = checked_product(b.iter().map(|&(lo, hi)| span(lo, hi, 0))).ok_or_else(too_large)?;
        // Below MAX_FOOTPRINT_ELEMENTS every extent fits an i64.
        let extent: Vec<i64> = b.iter().map(|&(lo, hi)| hi - lo + 1).collect();
        if cells > MAX_FOOTPRINT_ELEMENTS {
            return Err(TileModelError::InvalidInput(format!(
                "the staged footprint of {} has {cells} elements; use smaller tiles",
                array.name
            )));
        }
        // Row-major strides of the array's box: an element's linear index is additive in its
        // coordinates, so a point's elements are one base index plus each access's constant.
        let mut strides = vec![1i64; extent.len()];
        for d in (0..extent.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * extent[d + 1];
        }
        let words = cells.div_ceil(64) as usize;
        let mut read = vec![0u64; words];
        let mut written = vec![0u64; words];
        for s in shape.statements.iter().filter(|s| s.instances() > 0) {
            // Access shapes F of this array, each with its accesses' constants.
            let mut shapes: Vec<AccessGroup<'_>> = Vec::new();
            for a in s.accesses.iter().filter(|a| a.array == index) {
                match shapes.iter_mut().find(|(f, _)| *f == &a.linear) {
                    Some((_, list)) => list.push((&a.offset, a.write)),
                    None => shapes.push((&a.linear, vec![(&a.offset, a.write)])),
                }
            }
            for (f, accesses) in shapes {
                let g = mat_mul(f, &s.inverse);
                // The distinct base indices lin(G·u − min G·u) over the tile as a bitmap, then each
                // access adds its constant's index: the bitmap shifted into the array's box a word
                // at a time (the accesses of a stencil share their base).
                let base = distinct_images(&g, sizes, &strides)?;
                for (offset, write) in accesses {
                    let shift: i64 = (0..g.len())
                        .map(|d| (offset[d] - dot(&g[d], &s.shift) - b[d].0 + base.origin[d]) * strides[d])
                        .sum();
                    or_shifted(if write { &mut written } else { &mut read }, &base.bits, shift);
                }
            }
        }
        // (the bits past the box's last cell are none of its elements)
        if cells % 64 != 0 {
            let keep = (1u64 << (cells % 64)) - 1;
            for v in [&mut read, &mut written] {
                if let Some(last) = v.last_mut() {
                    *last &= keep;
                }
            }
        }
        let count = |v: &[u64]| v.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        let bytes = u64::from(array.element_bytes);
        let (r, w) = (count(&read), count(&written));
        memory.copy_loops.extend([r, w].iter().filter(|&&n| n > 0).map(|_| cells));
        memory.loads += r;
        memory.stores += w;
        memory.load_bytes += r * bytes;
        memory.store_bytes += w * bytes;
    }
    Ok(memory)
}

/// Loads and stores of a full tile that works on global memory (no staging): every access of
/// every point.
pub fn global_memory(shape: &BandShape, sizes: &[i64]) -> TileMemory {
    // Saturating: a tile this large only ever loses the search.
    let points: u64 = sizes.iter().fold(1u64, |acc, &s| acc.saturating_mul(u64::try_from(s).unwrap_or(0)));
    let mut memory = TileMemory::default();
    for s in shape.statements.iter().filter(|s| s.instances() > 0) {
        for a in &s.accesses {
            let bytes = u64::from(shape.arrays.get(a.array).map_or(8, |x| x.element_bytes));
            if a.write {
                memory.stores = memory.stores.saturating_add(points);
                memory.store_bytes = memory.store_bytes.saturating_add(points.saturating_mul(bytes));
            } else {
                memory.loads = memory.loads.saturating_add(points);
                memory.load_bytes = memory.load_bytes.saturating_add(points.saturating_mul(bytes));
            }
        }
    }
    memory
}

/// The distinct values of `G·u − origin` for `u` in `[0, s − 1]` (`origin` the smallest
/// corner of their box), as a bitmap of their linear indices with `strides` (bit `i` of word
/// `i / 64`: what the accesses' footprints are shifted copies of).
struct Images {
    origin: Vec<i64>,
    bits: Vec<u64>,
}

fn distinct_images(g: &[Vec<i64>], sizes: &[i64], strides: &[i64]) -> Result<Images> {
    let r = g.len();
    let mut lo = vec![0i64; r];
    let mut hi = vec![0i64; r];
    let too_large = || TileModelError::InvalidInput("a tile footprint is too large to count; use smaller tiles".into());
    for d in 0..r {
        for (&c, &size) in g[d].iter().zip(sizes) {
            let v = c.checked_mul(size - 1).ok_or_else(too_large)?;
            lo[d] = lo[d].checked_add(v.min(0)).ok_or_else(too_large)?;
            hi[d] = hi[d].checked_add(v.max(0)).ok_or_else(too_large)?;
        }
    }
    // Marked with the array's strides directly: an image's index is Σ_d (G·u − lo)_d·strides_d.
    let cells = checked_product(lo.iter().zip(&hi).map(|(&l, &h)| span(l, h, 0))).ok_or_else(too_large)?;
    let last = lo
        .iter()
        .zip(&hi)
        .zip(strides)
        .try_fold(0i64, |acc, ((&l, &h), &stride)| (h - l).checked_mul(stride).and_then(|x| acc.checked_add(x)));
    let Some(last) = last.filter(|&l| cells <= MAX_FOOTPRINT_ELEMENTS && (l as u64) < MAX_FOOTPRINT_ELEMENTS) else {
        return Err(too_large());
    };
    let m = sizes.len();
    // Per band coordinate, the index step of u_k + 1.
    let step: Vec<i64> = (0..m).map(|k| (0..r).map(|d| g[d][k] * strides[d]).sum()).collect();
    let mut bits = vec![0u64; (last as u64 + 1).div_ceil(64) as usize];
    let origin: i64 = (0..r).map(|d| -lo[d] * strides[d]).sum();
    match entry_slabs(g, sizes) {
        Some(slabs) => {
            for slab in slabs {
                mark_images(&mut bits, &slab, &step, origin);
            }
        }
        None => {
            let whole: Vec<(i64, i64)> = sizes.iter().map(|&s| (0, s - 1)).collect();
            mark_images(&mut bits, &whole, &step, origin);
        }
    }
    Ok(Images { origin: lo, bits })
}

/// `target |= source << shift` on bitmaps (bit `i` of word `i / 64`), `shift` of either sign;
/// bits shifted below 0 or past `target`'s words are dropped.
fn or_shifted(target: &mut [u64], source: &[u64], shift: i64) {
    let (words, bits) = (shift.div_euclid(64), shift.rem_euclid(64) as u32);
    for (j, &w) in source.iter().enumerate() {
        if w == 0 {
            continue;
        }
        let q = j as i64 + words;
        if let Some(t) = usize::try_from(q).ok().and_then(|q| target.get_mut(q)) {
            *t |= w << bits;
        }
        if bits > 0 {
            if let Some(t) = usize::try_from(q + 1).ok().and_then(|q| target.get_mut(q)) {
                *t |= w >> (64 - bits);
            }
        }
    }
}

/// Marks in `seen` the index `origin + Σ_k step_k·u_k` of every `u` in the box `ranges`
/// (inclusive, each non-empty).
fn mark_images(seen: &mut [u64], ranges: &[(i64, i64)], step: &[i64], origin: i64) {
    let m = ranges.len();
    let mut u: Vec<i64> = ranges.iter().map(|&(lo, _)| lo).collect();
    let mut index: i64 = origin + (0..m).map(|k| step[k] * u[k]).sum::<i64>();
    'walk: loop {
        seen[(index / 64) as usize] |= 1 << (index % 64);
        let mut k = m;
        loop {
            if k == 0 {
                break 'walk;
            }
            k -= 1;
            if u[k] < ranges[k].1 {
                u[k] += 1;
                index += step[k];
                break;
            }
            index -= step[k] * (u[k] - ranges[k].0);
            u[k] = ranges[k].0;
        }
    }
}

/// Slabs of the tile box `[0, s − 1]` whose points have every image `G·u` the box has, when
/// walking them costs less than walking the box: with `v` a primitive integer vector of `G`'s
/// kernel (`G·v = 0`; the cofactors of `G` when it has one row fewer than columns, as a
/// footprint's `F·Φ⁻¹` has: the array's dimensions against the band's rows with time), the
/// points `u + λ·v` of the box have one image, and the first of them, whose predecessor
/// `u + (λ − 1)·v` leaves the box, has `u_k < v_k` for some `v_k > 0` or `u_k > s_k − 1 + v_k`
/// for some `v_k < 0`: those slabs, one per non-zero `v_k`, hold a point of every image. On a
/// skewed tile of `T` time steps this walks about `(s_1 + s_2 + …)/T` of the box instead of all
/// of it. `None`: no such vector, or slabs no smaller than the box.
fn entry_slabs(g: &[Vec<i64>], sizes: &[i64]) -> Option<Vec<Vec<(i64, i64)>>> {
    let m = sizes.len();
    if g.len() + 1 != m || g.iter().any(|row| row.len() != m) {
        return None;
    }
    // v_k = (−1)^k det(G without column k): each row of G·v is the expansion of a determinant
    // with that row twice.
    let mut v = Vec::with_capacity(m);
    for k in 0..m {
        let minor: Vec<Vec<i64>> =
            g.iter().map(|row| row.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, &x)| x).collect()).collect();
        let d = i64::try_from(stencil_poly::determinant(&minor)?).ok()?;
        v.push(if k % 2 == 0 { d } else { d.checked_neg()? });
    }
    let divisor = v.iter().fold(0i64, |a, &x| crate::inter::gcd(a, x.abs()));
    if divisor == 0 {
        return None;
    }
    let volume: u128 = sizes.iter().map(|&s| s as u128).product();
    let mut walked = 0u128;
    let mut slabs = Vec::new();
    for (k, &vk) in v.iter().enumerate() {
        let vk = vk / divisor;
        if vk == 0 {
            continue;
        }
        let thick = vk.unsigned_abs().min(sizes[k] as u64) as i64;
        let mut slab: Vec<(i64, i64)> = sizes.iter().map(|&s| (0, s - 1)).collect();
        slab[k] = if vk > 0 { (0, thick - 1) } else { (sizes[k] - thick, sizes[k] - 1) };
        walked += volume / sizes[k] as u128 * thick as u128;
        slabs.push(slab);
    }
    (walked < volume).then_some(slabs)
}

fn mat_mul(a: &[Vec<i64>], b: &[Vec<i64>]) -> Vec<Vec<i64>> {
    a.iter()
        .map(|row| (0..b.first().map_or(0, Vec::len)).map(|j| (0..row.len()).map(|k| row[k] * b[k][j]).sum()).collect())
        .collect()
}

fn dot(a: &[i64], b: &[i64]) -> i64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The images `G·u` of every point of the box `[0, s − 1]`, walked point by point, as
    /// linear indices with `strides` from the least image.
    fn walked(g: &[Vec<i64>], sizes: &[i64], strides: &[i64]) -> Vec<i64> {
        let r = g.len();
        let mut all = std::collections::BTreeSet::new();
        let mut u = vec![0i64; sizes.len()];
        loop {
            all.insert((0..r).map(|d| dot(&g[d], &u)).collect::<Vec<i64>>());
            let Some(k) = (0..u.len()).rev().find(|&k| u[k] + 1 < sizes[k]) else { break };
            u[k] += 1;
            u[k + 1..].iter_mut().for_each(|x| *x = 0);
        }
        let lo: Vec<i64> = (0..r).map(|d| all.iter().map(|p| p[d]).min().unwrap_or(0)).collect();
        let mut out: Vec<i64> = all.iter().map(|p| (0..r).map(|d| (p[d] - lo[d]) * strides[d]).sum()).collect();
        out.sort_unstable();
        out
    }

    proptest! {
        /// The images found by walking only the entry slabs of a kernel direction (or the whole
        /// box) are every image of the box, for maps with one row fewer than columns (where the
        /// slabs apply: a footprint's array dimensions against the band's rows) or as many.
        #[test]
        fn images_are_those_of_every_point(
            rows in 2usize..=4,
            square in any::<bool>(),
            entries in proptest::collection::vec(-2i64..=2, 16),
            sizes in proptest::collection::vec(1i64..=7, 4),
        ) {
            let r = if square { rows } else { rows - 1 };
            let g: Vec<Vec<i64>> = (0..r).map(|d| entries[d * rows..(d + 1) * rows].to_vec()).collect();
            let sizes = &sizes[..rows];
            let extent: Vec<i64> =
                (0..r).map(|d| g[d].iter().zip(sizes).map(|(&c, &s)| (c * (s - 1)).abs()).sum::<i64>() + 1).collect();
            let mut strides = vec![1i64; r];
            for d in (0..r.saturating_sub(1)).rev() {
                strides[d] = strides[d + 1] * extent[d + 1];
            }
            let bits = distinct_images(&g, sizes, &strides).unwrap().bits;
            let found: Vec<i64> =
                (0..bits.len() as i64 * 64).filter(|&i| bits[(i / 64) as usize] >> (i % 64) & 1 == 1).collect();
            prop_assert_eq!(found, walked(&g, sizes, &strides));
        }

        /// A bitmap shifted into another word by word is the one shifted bit by bit.
        #[test]
        fn shifted_bitmaps_are_shifted_bits(
            source in proptest::collection::vec(any::<u64>(), 0..6),
            words in 0usize..8,
            shift in -400i64..400,
        ) {
            let mut target = vec![0u64; words];
            or_shifted(&mut target, &source, shift);
            let mut expected = vec![0u64; words];
            for i in 0..source.len() * 64 {
                let j = i as i64 + shift;
                if source[i / 64] >> (i % 64) & 1 == 1 && j >= 0 && (j as usize) < words * 64 {
                    expected[j as usize / 64] |= 1 << (j % 64);
                }
            }
            prop_assert_eq!(target, expected);
        }

        /// Skewed tiles' footprints (`i − t`, `j − t`: the band rows `(t, t + i, t + j)`) walk
        /// slabs one point thick along each row, not the box (rows of at least 4 points).
        #[test]
        fn skewed_footprints_walk_slabs(t in 4i64..40, s in proptest::collection::vec(4i64..40, 2)) {
            let g = vec![vec![-1, 1, 0], vec![-1, 0, 1]];
            let slabs = entry_slabs(&g, &[t, s[0], s[1]]).unwrap();
            prop_assert_eq!(slabs.len(), 3);
            prop_assert!(slabs.iter().all(|slab| slab.iter().filter(|(lo, hi)| lo == hi).count() >= 1));
        }
    }
}
