//! Field data: a dense row-major array of `f32` or `f64` values with its shape.

use crate::error::{RuntimeError, RuntimeResult};
use stencil_ir::types::FloatKind;

/// The element type of a field.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    /// IEEE single precision.
    F32,
    /// IEEE double precision.
    F64,
}

impl ElementType {
    /// The element type for an IR float kind (`None` for `f16`/`bf16`).
    pub fn from_float_kind(kind: FloatKind) -> Option<Self> {
        match kind {
            FloatKind::F32 => Some(ElementType::F32),
            FloatKind::F64 => Some(ElementType::F64),
            FloatKind::F16 | FloatKind::BF16 => None,
        }
    }

    /// MLIR's name: `f32` or `f64`.
    pub fn name(self) -> &'static str {
        match self {
            ElementType::F32 => "f32",
            ElementType::F64 => "f64",
        }
    }

    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            ElementType::F32 => 4,
            ElementType::F64 => 8,
        }
    }
}

/// The values of a field, in row-major (C) order.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValues {
    /// Single-precision values.
    F32(Vec<f32>),
    /// Double-precision values.
    F64(Vec<f64>),
}

impl FieldValues {
    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            FieldValues::F32(v) => v.len(),
            FieldValues::F64(v) => v.len(),
        }
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element type.
    pub fn element(&self) -> ElementType {
        match self {
            FieldValues::F32(_) => ElementType::F32,
            FieldValues::F64(_) => ElementType::F64,
        }
    }

    /// Value `i` widened to `f64` (exact for both formats).
    pub fn get_f64(&self, i: usize) -> Option<f64> {
        match self {
            FieldValues::F32(v) => v.get(i).map(|&x| f64::from(x)),
            FieldValues::F64(v) => v.get(i).copied(),
        }
    }

    /// The bits of value `i` (an `f32`'s bits zero-extended), for bit-exact comparison.
    pub fn bits(&self, i: usize) -> Option<u64> {
        match self {
            FieldValues::F32(v) => v.get(i).map(|x| u64::from(x.to_bits())),
            FieldValues::F64(v) => v.get(i).map(|x| x.to_bits()),
        }
    }
}

/// A field: shape plus row-major values.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldData {
    /// Extent of each dimension.
    pub shape: Vec<usize>,
    /// The values; `values.len()` is the product of `shape`.
    pub values: FieldValues,
}

/// Number of elements of `shape`, `None` on overflow.
pub fn element_count(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

/// `n` copies of `value`, `None` when the memory cannot be had (so a huge size from user
/// input is an error, not an abort).
/// `n` zeros, fallibly, from zeroed memory (`calloc`): the pages are only touched when
/// written, so a large buffer that the host never reads (e.g. one that lives on the GPU) costs
/// nothing here.
pub(crate) fn try_zeroed_vec<T: bytemuck::Zeroable + Clone>(n: usize) -> Option<Vec<T>> {
    bytemuck::allocation::try_zeroed_vec(n).ok()
}

pub(crate) fn try_filled_vec<T: Clone>(n: usize, value: T) -> Option<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).ok()?;
    v.resize(n, value);
    Some(v)
}

fn too_large(shape: &[usize]) -> RuntimeError {
    RuntimeError::InvalidData { message: format!("a field of shape {shape:?} does not fit in memory") }
}

impl FieldData {
    /// A field from its shape and values; fails when the number of values does not match.
    pub fn new(shape: Vec<usize>, values: FieldValues) -> RuntimeResult<Self> {
        match element_count(&shape) {
            Some(n) if n == values.len() => Ok(FieldData { shape, values }),
            _ => Err(RuntimeError::InvalidData {
                message: format!("a field of shape {shape:?} needs as many values, found {}", values.len()),
            }),
        }
    }

    /// A field with every value equal to `value` (rounded to `element`).
    pub fn filled(shape: Vec<usize>, element: ElementType, value: f64) -> RuntimeResult<Self> {
        let n = element_count(&shape).ok_or_else(|| too_large(&shape))?;
        let values = match element {
            ElementType::F32 => FieldValues::F32(try_filled_vec(n, value as f32).ok_or_else(|| too_large(&shape))?),
            ElementType::F64 => FieldValues::F64(try_filled_vec(n, value).ok_or_else(|| too_large(&shape))?),
        };
        Ok(FieldData { shape, values })
    }

    /// A field of zeros.
    pub fn zeros(shape: Vec<usize>, element: ElementType) -> RuntimeResult<Self> {
        Self::filled(shape, element, 0.0)
    }

    /// A field of deterministic pseudo-random values in `[0, 1)` (SplitMix64 seeded with
    /// `seed`): the same seed gives the same values on every machine.
    pub fn pseudo_random(shape: Vec<usize>, element: ElementType, seed: u64) -> RuntimeResult<Self> {
        let n = element_count(&shape).ok_or_else(|| too_large(&shape))?;
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        // The top 24 (53) bits scaled to [0, 1): exactly representable, uniformly spaced.
        let values = match element {
            ElementType::F32 => {
                let mut v = try_zeroed_vec::<f32>(n).ok_or_else(|| too_large(&shape))?;
                v.iter_mut().for_each(|x| *x = (next() >> 40) as f32 / (1u64 << 24) as f32);
                FieldValues::F32(v)
            }
            ElementType::F64 => {
                let mut v = try_zeroed_vec::<f64>(n).ok_or_else(|| too_large(&shape))?;
                v.iter_mut().for_each(|x| *x = (next() >> 11) as f64 / (1u64 << 53) as f64);
                FieldValues::F64(v)
            }
        };
        Ok(FieldData { shape, values })
    }

    /// The element type.
    pub fn element(&self) -> ElementType {
        self.values.element()
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the field has no values.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The row-major position of a multi-index, `None` when out of bounds.
    pub fn offset_of(&self, index: &[usize]) -> Option<usize> {
        if index.len() != self.shape.len() {
            return None;
        }
        index.iter().zip(&self.shape).try_fold(0usize, |acc, (&i, &n)| (i < n).then(|| acc * n + i))
    }

    /// The value at a multi-index, widened to `f64`.
    pub fn get(&self, index: &[usize]) -> Option<f64> {
        self.values.get_f64(self.offset_of(index)?)
    }
}
