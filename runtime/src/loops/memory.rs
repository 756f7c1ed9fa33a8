//! Buffers behind memref values: dense row-major arrays addressed by handles. Handles of
//! freed buffers stay invalid (a later use is an error, not a read of another buffer) until
//! their slot is reused by a new allocation.

use crate::field::{element_count, try_zeroed_vec, FieldData, FieldValues};
use crate::scalar::{Elem, ValueKind};

/// A handle to a buffer in a [`Memory`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemRef(pub(crate) u32);

/// The bit of a memref register that makes it a flat view of its buffer: one dimension of all
/// its elements in row-major order, what `memref.reinterpret_cast` to offset 0, one size and
/// stride 1 gives. The low 32 bits stay the buffer's handle, so whatever needs only the buffer
/// reads the register as before; accesses and `memref.dim` see the one dimension.
pub(crate) const FLAT_VIEW: u64 = 1 << 32;

/// Whether the memref register value `bits` is a flat view ([`FLAT_VIEW`]).
#[inline(always)]
pub(crate) fn is_flat_view(bits: u64) -> bool {
    bits & FLAT_VIEW != 0
}

/// Element storage of a buffer. Integers of every width are kept sign-extended in `i64`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum BufferData {
    F32(Vec<f32>),
    F64(Vec<f64>),
    Int(Vec<i64>),
}

/// One buffer.
#[derive(Clone, Debug)]
pub(crate) struct Buffer {
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
    pub data: BufferData,
    /// Number of stores executed into this buffer.
    pub stores: u64,
    /// A field argument: its caller owns it, so the program may not free it.
    pub caller_owned: bool,
}

impl Buffer {
    fn new(shape: Vec<usize>, data: BufferData) -> Self {
        let strides = crate::stencil::strides_of(&shape);
        Buffer { shape, strides, data, stores: 0, caller_owned: false }
    }

    /// The register encoding of element `pos`.
    #[inline]
    pub fn read(&self, pos: usize) -> Option<u64> {
        match &self.data {
            BufferData::F32(v) => v.get(pos).map(|x| x.to_reg()),
            BufferData::F64(v) => v.get(pos).map(|x| x.to_reg()),
            BufferData::Int(v) => v.get(pos).map(|&x| x as u64),
        }
    }

    /// Stores a register value at `pos`; `false` when out of range.
    #[inline]
    pub fn write(&mut self, pos: usize, bits: u64) -> bool {
        let ok = match &mut self.data {
            BufferData::F32(v) => v.get_mut(pos).map(|x| *x = f32::from_reg(bits)).is_some(),
            BufferData::F64(v) => v.get_mut(pos).map(|x| *x = f64::from_reg(bits)).is_some(),
            BufferData::Int(v) => v.get_mut(pos).map(|x| *x = bits as i64).is_some(),
        };
        self.stores += u64::from(ok);
        ok
    }

    /// Undoes a store: puts back the value `bits` it overwrote and takes it off the store
    /// count (a block the GPU simulator runs again thread by thread, `gpu_sim/simt.rs`).
    #[inline]
    pub fn undo_write(&mut self, pos: usize, bits: u64) {
        if self.write(pos, bits) {
            self.stores = self.stores.saturating_sub(2);
        }
    }

    /// The shape an access sees: the buffer's own, or its element count for a flat view.
    pub fn seen_shape(&self, flat: bool) -> Vec<usize> {
        if flat {
            vec![self.len()]
        } else {
            self.shape.clone()
        }
    }

    /// Whether the shape an access sees fits a cast to `shape` (`None`: any size), without
    /// building it.
    pub fn seen_shape_fits(&self, flat: bool, shape: &[Option<usize>]) -> bool {
        let fits = |n: usize, s: &Option<usize>| s.is_none_or(|s| s == n);
        if flat {
            matches!(shape, [s] if fits(self.len(), s))
        } else {
            self.shape.len() == shape.len() && self.shape.iter().zip(shape).all(|(&n, s)| fits(n, s))
        }
    }

    /// Size of dimension `d` as an access sees it (`None` past the rank).
    #[inline]
    pub fn seen_dim(&self, flat: bool, d: usize) -> Option<usize> {
        if flat {
            (d == 0).then(|| self.len())
        } else {
            self.shape.get(d).copied()
        }
    }

    /// The row-major position of the element an access selects with `count` indices, the
    /// `d`-th given by `component(d)`: `None` when the count is not the rank seen (one for a
    /// flat view) or an index is outside its dimension (or cannot be computed).
    #[inline(always)]
    pub fn position(&self, flat: bool, count: usize, mut component: impl FnMut(usize) -> Option<i64>) -> Option<usize> {
        if flat {
            return (count == 1)
                .then(|| component(0))
                .flatten()
                .and_then(|i| usize::try_from(i).ok())
                .filter(|&i| i < self.len());
        }
        if count != self.shape.len() {
            return None;
        }
        let mut pos = 0usize;
        for d in 0..count {
            let i = component(d).and_then(|i| usize::try_from(i).ok()).filter(|&i| i < self.shape[d])?;
            pos += i * self.strides[d];
        }
        Some(pos)
    }

    /// The register value of a flat view of this buffer of `size` elements, made from the
    /// memref register value `bits`: `None` unless `size` is the buffer's element count (the
    /// simulators run flat views of whole buffers only).
    pub fn flat_view(&self, bits: u64, size: i64) -> Option<u64> {
        (usize::try_from(size).ok() == Some(self.len())).then_some(bits | FLAT_VIEW)
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        match &self.data {
            BufferData::F32(v) => v.len(),
            BufferData::F64(v) => v.len(),
            BufferData::Int(v) => v.len(),
        }
    }

    /// Whether the buffer holds values of register kind `kind`.
    pub fn holds(&self, kind: ValueKind) -> bool {
        matches!(
            (&self.data, kind),
            (BufferData::F32(_), ValueKind::F32)
                | (BufferData::F64(_), ValueKind::F64)
                | (BufferData::Int(_), ValueKind::Int(_))
        )
    }
}

/// All buffers of a run.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    buffers: Vec<Option<Buffer>>,
    free: Vec<u32>,
}

impl Memory {
    /// An empty memory.
    pub fn new() -> Self {
        Self::default()
    }

    fn insert(&mut self, buffer: Buffer) -> MemRef {
        match self.free.pop() {
            Some(slot) => {
                self.buffers[slot as usize] = Some(buffer);
                MemRef(slot)
            }
            None => {
                self.buffers.push(Some(buffer));
                MemRef((self.buffers.len() - 1) as u32)
            }
        }
    }

    /// Moves a field into memory; the handle is what a `memref` argument receives.
    pub fn insert_field(&mut self, field: FieldData) -> MemRef {
        let data = match field.values {
            FieldValues::F32(v) => BufferData::F32(v),
            FieldValues::F64(v) => BufferData::F64(v),
        };
        self.insert(Buffer::new(field.shape, data))
    }

    /// [`Memory::insert_field`] for a field argument of a lowered program: its caller owns it
    /// and takes it back after the run, so a `memref.dealloc` of it is an error (the results
    /// would be lost).
    pub fn insert_caller_field(&mut self, field: FieldData) -> MemRef {
        let m = self.insert_field(field);
        if let Some(b) = self.get_mut(m) {
            b.caller_owned = true;
        }
        m
    }

    /// Whether `m` is a live field argument ([`Memory::insert_caller_field`]).
    pub fn is_caller_owned(&self, m: MemRef) -> bool {
        self.get(m).is_some_and(|b| b.caller_owned)
    }

    /// Moves a float buffer out of memory as a field (`None` for a freed handle or an
    /// integer buffer).
    pub fn take_field(&mut self, m: MemRef) -> Option<FieldData> {
        let slot = self.buffers.get_mut(m.0 as usize)?;
        if matches!(slot.as_ref()?.data, BufferData::Int(_)) {
            return None;
        }
        let buffer = slot.take()?;
        self.free.push(m.0);
        let values = match buffer.data {
            BufferData::F32(v) => FieldValues::F32(v),
            BufferData::F64(v) => FieldValues::F64(v),
            BufferData::Int(_) => return None,
        };
        Some(FieldData { shape: buffer.shape, values })
    }

    /// Allocates a zero-filled buffer of `shape` holding `kind` values.
    pub(crate) fn alloc(&mut self, shape: Vec<usize>, kind: ValueKind) -> Option<MemRef> {
        let n = element_count(&shape)?;
        let data = match kind {
            ValueKind::F32 => BufferData::F32(try_zeroed_vec(n)?),
            ValueKind::F64 => BufferData::F64(try_zeroed_vec(n)?),
            ValueKind::Int(_) => BufferData::Int(try_zeroed_vec(n)?),
            ValueKind::MemRef => return None,
        };
        Some(self.insert(Buffer::new(shape, data)))
    }

    /// Frees a buffer; `false` if it was not live.
    pub fn free(&mut self, m: MemRef) -> bool {
        match self.buffers.get_mut(m.0 as usize) {
            Some(slot @ Some(_)) => {
                *slot = None;
                self.free.push(m.0);
                true
            }
            _ => false,
        }
    }

    /// The shape of a live buffer.
    pub fn shape(&self, m: MemRef) -> Option<&[usize]> {
        self.get(m).map(|b| b.shape.as_slice())
    }

    /// Number of stores executed into a live buffer.
    pub fn stores(&self, m: MemRef) -> u64 {
        self.get(m).map_or(0, |b| b.stores)
    }

    pub(crate) fn get(&self, m: MemRef) -> Option<&Buffer> {
        self.buffers.get(m.0 as usize)?.as_ref()
    }

    pub(crate) fn get_mut(&mut self, m: MemRef) -> Option<&mut Buffer> {
        self.buffers.get_mut(m.0 as usize)?.as_mut()
    }

    /// Two distinct live buffers, the first shared and the second mutable (`memref.copy`).
    pub(crate) fn pair_mut(&mut self, src: MemRef, dst: MemRef) -> Option<(&Buffer, &mut Buffer)> {
        let (s, d) = (src.0 as usize, dst.0 as usize);
        if s == d {
            return None;
        }
        if s < d {
            let (lo, hi) = self.buffers.split_at_mut(d);
            Some((lo.get(s)?.as_ref()?, hi.first_mut()?.as_mut()?))
        } else {
            let (lo, hi) = self.buffers.split_at_mut(s);
            Some((hi.first()?.as_ref()?, lo.get_mut(d)?.as_mut()?))
        }
    }
}
