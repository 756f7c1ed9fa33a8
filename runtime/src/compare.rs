//! Comparison of two fields, bit-exact or within a tolerance: how a transformed program is
//! checked against the original.
//!
//! Bit-exact means every value has the same bits, except that any two NaNs are equal: IEEE 754
//! leaves the sign and payload of the NaN an invalid operation produces (∞ − ∞, 0 · ∞, 0 / 0)
//! to the implementation, and they do differ — x86 hosts produce `0xFFF8…`, MLIR's constant
//! folding `0x7FF8…`, NVIDIA GPUs their canonical NaN — so a NaN's bits say nothing about
//! whether a transformation kept the program's meaning. A NaN against a number still differs.

use crate::field::FieldData;

/// How two fields differ.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldComparison {
    /// Whether the shapes and element types agree (if not, nothing else is compared).
    pub same_layout: bool,
    /// Number of positions whose values differ: bits differ, and not both are NaN.
    pub differing: usize,
    /// Number of positions where both values are NaN with different bits (sign or payload):
    /// equal for the comparison (module documentation), counted to be reported.
    pub nan_bits_differing: usize,
    /// Largest absolute difference (NaN when a NaN meets a number).
    pub max_abs_diff: f64,
    /// The first differing position (row-major), with both values.
    pub first_difference: Option<(Vec<usize>, f64, f64)>,
}

impl FieldComparison {
    /// Whether the fields are identical bit for bit, any two NaNs being equal (module
    /// documentation).
    pub fn bit_exact(&self) -> bool {
        self.same_layout && self.differing == 0
    }

    /// Whether every value differs by at most `tolerance` (NaNs must match NaNs).
    pub fn within(&self, tolerance: f64) -> bool {
        self.same_layout && (self.differing == 0 || self.max_abs_diff <= tolerance)
    }
}

/// Compares `actual` with `expected` position by position.
pub fn compare_fields(expected: &FieldData, actual: &FieldData) -> FieldComparison {
    let mut c = FieldComparison {
        same_layout: false,
        differing: 0,
        nan_bits_differing: 0,
        max_abs_diff: 0.0,
        first_difference: None,
    };
    if expected.shape != actual.shape || expected.element() != actual.element() || expected.len() != actual.len() {
        return c;
    }
    c.same_layout = true;
    for i in 0..expected.len() {
        if expected.values.bits(i) == actual.values.bits(i) {
            continue;
        }
        let (a, b) = (expected.values.get_f64(i).unwrap_or(f64::NAN), actual.values.get_f64(i).unwrap_or(f64::NAN));
        if a.is_nan() && b.is_nan() {
            c.nan_bits_differing += 1;
            continue;
        }
        let diff = (a - b).abs();
        if diff.is_nan() || diff > c.max_abs_diff || c.max_abs_diff.is_nan() {
            c.max_abs_diff = if c.max_abs_diff.is_nan() { f64::NAN } else { diff };
        }
        if c.first_difference.is_none() {
            c.first_difference = Some((unravel(i, &expected.shape), a, b));
        }
        c.differing += 1;
    }
    c
}

fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        let n = shape[d].max(1);
        index[d] = i % n;
        i /= n;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::compare_fields;
    use crate::field::{FieldData, FieldValues};

    fn field(values: Vec<f64>) -> FieldData {
        FieldData { shape: vec![values.len()], values: FieldValues::F64(values) }
    }

    #[test]
    fn nans_are_equal_whatever_their_bits_but_not_to_numbers() {
        let host = f64::from_bits(0xFFF8_0000_0000_0000); // x86's ∞ − ∞
        let folded = f64::from_bits(0x7FF8_0000_0000_0000); // APFloat's
        let c = compare_fields(&field(vec![host, 1.0]), &field(vec![folded, 1.0]));
        assert!(c.bit_exact(), "{c:?}");
        assert_eq!((c.differing, c.nan_bits_differing), (0, 1));
        let c = compare_fields(&field(vec![host, 1.0]), &field(vec![0.0, 1.0]));
        assert!(!c.bit_exact(), "{c:?}");
        assert_eq!(c.differing, 1);
        // Signed zeros are different bits and different values to a program (1 / x).
        let c = compare_fields(&field(vec![0.0]), &field(vec![-0.0]));
        assert!(!c.bit_exact(), "{c:?}");
    }
}
