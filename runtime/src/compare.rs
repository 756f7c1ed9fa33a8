//! Comparison of two fields, bit-exact or within a tolerance: how a transformed program is
//! checked against the original.

use crate::field::FieldData;

/// How two fields differ.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldComparison {
    /// Whether the shapes and element types agree (if not, nothing else is compared).
    pub same_layout: bool,
    /// Number of positions whose bits differ.
    pub differing: usize,
    /// Largest absolute difference (NaN when a NaN meets a number).
    pub max_abs_diff: f64,
    /// The first differing position (row-major), with both values.
    pub first_difference: Option<(Vec<usize>, f64, f64)>,
}

impl FieldComparison {
    /// Whether the fields are identical bit for bit.
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
    let mut c = FieldComparison { same_layout: false, differing: 0, max_abs_diff: 0.0, first_difference: None };
    if expected.shape != actual.shape || expected.element() != actual.element() || expected.len() != actual.len() {
        return c;
    }
    c.same_layout = true;
    for i in 0..expected.len() {
        if expected.values.bits(i) == actual.values.bits(i) {
            continue;
        }
        let (a, b) = (expected.values.get_f64(i).unwrap_or(f64::NAN), actual.values.get_f64(i).unwrap_or(f64::NAN));
        let diff = if a.is_nan() && b.is_nan() { 0.0 } else { (a - b).abs() };
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
