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
use crate::shape::BandShape;

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
            let mut coordinates = Vec::with_capacity(g.len());
            for (d, row) in g.iter().enumerate() {
                let k = a.offset[d] - dot(row, &s.shift);
                let (mut lo, mut hi) = (k, k);
                for (&c, &size) in row.iter().zip(sizes) {
                    let v = c * (size - 1);
                    lo += v.min(0);
                    hi += v.max(0);
                }
                coordinates.push((lo, hi));
            }
            *entry = Some(match entry.take() {
                None => coordinates,
                Some(b) => b.iter().zip(&coordinates).map(|(&(a, b), &(c, d))| (a.min(c), b.max(d))).collect(),
            });
        }
    }
    Ok(boxes)
}

/// Shared memory per block when staging: per array, the product of its buffer's extents times
/// the element size (the buffers `gpu-map` allocates).
pub fn staged_shared_bytes(shape: &BandShape, sizes: &[i64]) -> Result<u64> {
    let boxes = array_boxes(shape, sizes)?;
    let mut total: u64 = 0;
    for (array, b) in shape.arrays.iter().zip(&boxes) {
        if let Some(b) = b {
            let elements: u64 = b.iter().map(|&(lo, hi)| (hi - lo + 1) as u64).product();
            total = total
                .checked_add(elements.saturating_mul(u64::from(array.element_bytes)))
                .ok_or(TileModelError::Overflow("shared memory per block"))?;
        }
    }
    Ok(total)
}

/// The largest buffer the exact count walks, in elements.
pub const MAX_FOOTPRINT_ELEMENTS: u64 = 1 << 26;

/// Loads, stores and shared memory of a full tile staged in shared memory.
pub fn staged_memory(shape: &BandShape, sizes: &[i64]) -> Result<TileMemory> {
    let boxes = array_boxes(shape, sizes)?;
    let mut memory = TileMemory { shared_bytes: staged_shared_bytes(shape, sizes)?, ..TileMemory::default() };
    for (index, (array, b)) in shape.arrays.iter().zip(&boxes).enumerate() {
        let Some(b) = b else { continue };
        let extent: Vec<i64> = b.iter().map(|&(lo, hi)| hi - lo + 1).collect();
        let cells: u64 = extent.iter().map(|&e| e as u64).product();
        if cells > MAX_FOOTPRINT_ELEMENTS {
            return Err(TileModelError::InvalidInput(format!(
                "the staged footprint of {} has {cells} elements; use smaller tiles",
                array.name
            )));
        }
        let mut read = Bitmap::new(&extent);
        let mut written = Bitmap::new(&extent);
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
                let base = distinct_images(&g, sizes)?;
                for (offset, write) in accesses {
                    // Element = G·u + (o − G·c) − box minimum.
                    let shift: Vec<i64> =
                        (0..g.len()).map(|d| offset[d] - dot(&g[d], &s.shift) - b[d].0 + base.origin[d]).collect();
                    let target = if write { &mut written } else { &mut read };
                    for cell in base.cells.iter_ones() {
                        let x = base.cells.unflatten(cell);
                        let y: Vec<i64> = x.iter().zip(&shift).map(|(a, b)| a + b).collect();
                        target.set(&y);
                    }
                }
            }
        }
        let bytes = u64::from(array.element_bytes);
        memory.loads += read.count();
        memory.stores += written.count();
        memory.load_bytes += read.count() * bytes;
        memory.store_bytes += written.count() * bytes;
    }
    Ok(memory)
}

/// Loads and stores of a full tile that works on global memory (no staging): every access of
/// every point.
pub fn global_memory(shape: &BandShape, sizes: &[i64]) -> TileMemory {
    let points: u64 = sizes.iter().map(|&s| s as u64).product();
    let mut memory = TileMemory::default();
    for s in shape.statements.iter().filter(|s| s.instances() > 0) {
        for a in &s.accesses {
            let bytes = u64::from(shape.arrays.get(a.array).map_or(8, |x| x.element_bytes));
            if a.write {
                memory.stores += points;
                memory.store_bytes += points * bytes;
            } else {
                memory.loads += points;
                memory.load_bytes += points * bytes;
            }
        }
    }
    memory
}

/// The distinct values of `G·u` for `u` in `[0, s − 1]`, as a bitmap over their box (whose
/// smallest corner is `origin`).
struct Images {
    origin: Vec<i64>,
    cells: Bitmap,
}

fn distinct_images(g: &[Vec<i64>], sizes: &[i64]) -> Result<Images> {
    let r = g.len();
    let mut lo = vec![0i64; r];
    let mut hi = vec![0i64; r];
    for d in 0..r {
        for (&c, &size) in g[d].iter().zip(sizes) {
            let v = c * (size - 1);
            lo[d] += v.min(0);
            hi[d] += v.max(0);
        }
    }
    let extent: Vec<i64> = lo.iter().zip(&hi).map(|(l, h)| h - l + 1).collect();
    if extent.iter().map(|&e| e as u64).product::<u64>() > MAX_FOOTPRINT_ELEMENTS {
        return Err(TileModelError::InvalidInput("a tile footprint is too large to count; use smaller tiles".into()));
    }
    let mut cells = Bitmap::new(&extent);
    // Walk the tile's box like an odometer, updating x = G·u − lo incrementally.
    let m = sizes.len();
    let mut u = vec![0i64; m];
    let mut x: Vec<i64> = lo.iter().map(|l| -l).collect();
    loop {
        cells.set(&x);
        let mut k = m;
        loop {
            if k == 0 {
                return Ok(Images { origin: lo, cells });
            }
            k -= 1;
            if u[k] + 1 < sizes[k] {
                u[k] += 1;
                for d in 0..r {
                    x[d] += g[d][k];
                }
                break;
            }
            for d in 0..r {
                x[d] -= g[d][k] * u[k];
            }
            u[k] = 0;
        }
    }
}

fn mat_mul(a: &[Vec<i64>], b: &[Vec<i64>]) -> Vec<Vec<i64>> {
    a.iter()
        .map(|row| (0..b.first().map_or(0, Vec::len)).map(|j| (0..row.len()).map(|k| row[k] * b[k][j]).sum()).collect())
        .collect()
}

fn dot(a: &[i64], b: &[i64]) -> i64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// A dense bitmap over a box of cells `[0, extent)`.
struct Bitmap {
    extent: Vec<i64>,
    words: Vec<u64>,
}

impl Bitmap {
    fn new(extent: &[i64]) -> Bitmap {
        let cells: u64 = extent.iter().map(|&e| e.max(0) as u64).product();
        Bitmap { extent: extent.to_vec(), words: vec![0; cells.div_ceil(64) as usize] }
    }

    fn flatten(&self, x: &[i64]) -> Option<usize> {
        let mut index = 0i64;
        for (&c, &e) in x.iter().zip(&self.extent) {
            if c < 0 || c >= e {
                return None;
            }
            index = index * e + c;
        }
        Some(index as usize)
    }

    fn unflatten(&self, mut index: usize) -> Vec<i64> {
        let mut x = vec![0i64; self.extent.len()];
        for d in (0..self.extent.len()).rev() {
            let e = self.extent[d] as usize;
            x[d] = (index % e) as i64;
            index /= e;
        }
        x
    }

    fn set(&mut self, x: &[i64]) {
        if let Some(i) = self.flatten(x) {
            self.words[i / 64] |= 1 << (i % 64);
        }
    }

    fn count(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    fn iter_ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + b)
            })
        })
    }
}
