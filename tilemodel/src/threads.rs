//! How the neighbouring threads of an intra-tile wavefront step move through the arrays.
//!
//! `gpu-map`'s wavefront mapping runs the points of a step with the last band row's loop
//! innermost, on `threadIdx.x` (thesis §4: the first row is the intra-tile wavefront, the
//! others the parallel point loops), so thread `x + 1` runs the point whose band coordinates
//! are one more along the last row and equal along the others. Its iterators then differ by
//! the last column of the band's inverse (`i = M⁻¹·(φ − c)`), and every access's subscripts by
//! `linear · that`. A warp's loads fall into few memory segments only when just the last
//! subscript moves, by few elements: the band decides whether tiles on global memory can be
//! coalesced at all, before any tile size or block is chosen. (With the skewed intra-tile
//! wavefront `Σ φ_k` the step's points are not laid out this way; nothing is said for it.)

use std::fmt;

use crate::shape::{BandShape, IntraWavefront};

/// How an access moves from one thread to the next along `x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coalescing {
    /// No subscript moves: neighbouring threads access the same element.
    Same,
    /// Only the last subscript moves, by one element: consecutive elements.
    Contiguous,
    /// Only the last subscript moves, by this many elements.
    Strided(u64),
    /// An outer subscript moves: each thread's access lies a row (or plane) from its
    /// neighbour's, in its own memory segment.
    Scattered,
}

impl Coalescing {
    /// The movement of subscripts `moves` (outermost first).
    pub fn of(moves: &[i64]) -> Coalescing {
        match moves.split_last() {
            None => Coalescing::Same,
            Some((_, outer)) if outer.iter().any(|&m| m != 0) => Coalescing::Scattered,
            Some((&0, _)) => Coalescing::Same,
            Some((&last, _)) if last.unsigned_abs() == 1 => Coalescing::Contiguous,
            Some((&last, _)) => Coalescing::Strided(last.unsigned_abs()),
        }
    }
}

impl fmt::Display for Coalescing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Coalescing::Same => write!(f, "the same element for every thread"),
            Coalescing::Contiguous => write!(f, "consecutive elements (coalesced)"),
            Coalescing::Strided(s) => write!(f, "elements {s} apart in a row (partly coalesced)"),
            Coalescing::Scattered => write!(f, "a different row for every thread (not coalesced)"),
        }
    }
}

/// How one array's accesses of a statement move between neighbouring threads (its accesses to
/// one array share the linear part in stencils; one entry per distinct movement).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayStep {
    /// The array's name.
    pub array: String,
    /// How each subscript moves, outermost first.
    pub subscripts: Vec<i64>,
    /// What that means for a warp's accesses.
    pub coalescing: Coalescing,
}

/// How neighbouring threads along `x` differ for one statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadStep {
    /// The statement's name.
    pub statement: String,
    /// How its iterators differ (the last column of the band's inverse).
    pub iterators: Vec<i64>,
    /// How its accesses move, by array.
    pub arrays: Vec<ArrayStep>,
}

impl fmt::Display for ThreadStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let vector = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        write!(f, "{}: iterators += ({})", self.statement, vector(&self.iterators))?;
        for a in &self.arrays {
            write!(f, "; {} subscripts += ({}): {}", a.array, vector(&a.subscripts), a.coalescing)?;
        }
        Ok(())
    }
}

/// Per statement of `shape`, how neighbouring threads along `x` differ (module
/// documentation); `None` with the skewed intra-tile wavefront.
pub fn thread_steps(shape: &BandShape) -> Option<Vec<ThreadStep>> {
    if shape.intra != IntraWavefront::FirstHyperplane || shape.width < 2 {
        return None;
    }
    let last = shape.width - 1;
    let steps = shape
        .statements
        .iter()
        .map(|s| {
            let iterators: Vec<i64> = s.inverse.iter().map(|row| row[last]).collect();
            let mut arrays: Vec<ArrayStep> = Vec::new();
            for access in &s.accesses {
                let subscripts: Vec<i64> =
                    access.linear.iter().map(|row| row.iter().zip(&iterators).map(|(a, d)| a * d).sum()).collect();
                let array = shape.arrays.get(access.array).map_or_else(|| "?".to_string(), |a| a.name.clone());
                if !arrays.iter().any(|a| a.array == array && a.subscripts == subscripts) {
                    let coalescing = Coalescing::of(&subscripts);
                    arrays.push(ArrayStep { array, subscripts, coalescing });
                }
            }
            ThreadStep { statement: s.name.clone(), iterators, arrays }
        })
        .collect();
    Some(steps)
}

#[cfg(test)]
mod tests {
    use super::Coalescing;

    #[test]
    fn movements_classify() {
        assert_eq!(Coalescing::of(&[0, 0, 1]), Coalescing::Contiguous);
        assert_eq!(Coalescing::of(&[0, -1]), Coalescing::Contiguous);
        assert_eq!(Coalescing::of(&[0, 0, -2]), Coalescing::Strided(2));
        assert_eq!(Coalescing::of(&[1, 0, 1]), Coalescing::Scattered);
        assert_eq!(Coalescing::of(&[0, 0]), Coalescing::Same);
        assert_eq!(Coalescing::of(&[]), Coalescing::Same);
    }
}
