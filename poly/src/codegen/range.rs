//! The range of one scanned dimension given only the dimensions before a position: what a GPU
//! mapping needs to size a grid of blocks over the tiles of an inter-tile wavefront.
//!
//! In the scanned loop nest, an inner tile loop's bounds depend on the outer tile loops'
//! variables. To give every tile of a wavefront its own block, the host needs, for each tile
//! dimension, its range over the whole wavefront: the projection of the union of statement
//! domains onto (the dimensions before the position, that dimension). Scanning the same problem
//! with that dimension moved to the position gives exactly that projection as the bounds of its
//! loop there (thesis §3.2.7's scanning, reused).

use super::ast::{Bound, LoopAst};
use super::error::{CodegenError, CodegenResult};
use super::problem::{ScanOptions, ScanProblem, ScanStatement};
use super::scan::generate;
use crate::space::Space;

/// The range of a dimension: from `min_g max_k ⌈lower[g][k]⌉` to `max_g min_k ⌊upper[g][k]⌋`
/// (one group per loop the scanner emitted for it, e.g. when statement groups split), over the
/// dimensions before its position and the parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DimensionRange {
    /// Lower bounds: the minimum over groups of the maximum over each group.
    pub lower: Vec<Vec<Bound>>,
    /// Upper bounds (inclusive): the maximum over groups of the minimum over each group.
    pub upper: Vec<Vec<Bound>>,
}

impl ScanProblem {
    /// The same problem with dimension `dim` moved to `position` (the dimensions from
    /// `position` on shift inward by one); statement domains are permuted accordingly.
    pub fn with_dimension_at(&self, dim: usize, position: usize) -> CodegenResult<ScanProblem> {
        let nd = self.dims.len();
        if dim >= nd || position > dim {
            return Err(CodegenError::InvalidProblem(format!(
                "cannot move dimension {dim} to position {position} of {nd}"
            )));
        }
        // new_of[old] = new position of old dimension.
        let new_of: Vec<usize> = (0..nd)
            .map(|old| match old {
                _ if old == dim => position,
                _ if old >= position && old < dim => old + 1,
                _ => old,
            })
            .collect();
        let mut dims = self.dims.clone();
        for (old, d) in self.dims.iter().enumerate() {
            dims[new_of[old]] = d.clone();
        }
        let statements = self
            .statements
            .iter()
            .map(|s| {
                let space = s.domain.space();
                let names: Vec<String> = (0..space.n_dims())
                    .map(|c| {
                        let old = if c < nd { new_of.iter().position(|&n| n == c).unwrap_or(c) } else { c };
                        space.dims()[old].clone()
                    })
                    .collect();
                let permuted = Space::new(names, space.params().iter().cloned());
                let mapping: Vec<usize> = (0..space.n_columns()).map(|c| if c < nd { new_of[c] } else { c }).collect();
                Ok(ScanStatement { domain: s.domain.embed(permuted, &mapping)?, ..s.clone() })
            })
            .collect::<CodegenResult<Vec<_>>>()?;
        Ok(ScanProblem { dims, context: self.context.clone(), statements })
    }
}

/// The range of dimension `dim` given the dimensions before `position` (all of which must come
/// before `dim`), or `None` when the scanner does not emit a plain loop for it there (e.g. a
/// dimension with a single value, which it assigns instead).
pub fn dimension_range(
    problem: &ScanProblem,
    dim: usize,
    position: usize,
    options: &ScanOptions,
) -> CodegenResult<Option<DimensionRange>> {
    let moved = if dim == position { problem.clone() } else { problem.with_dimension_at(dim, position)? };
    // Only the loops down to `position` are read: the inner levels are not scanned.
    let nest = generate(&moved, &ScanOptions { depth: Some(position + 1), ..*options })?;
    let mut range = DimensionRange { lower: vec![], upper: vec![] };
    let mut plain = true;
    collect(&nest.root, position, &mut range, &mut plain);
    Ok((plain && !range.lower.is_empty()).then_some(range))
}

/// Adds the bounds of every loop over `position` to `range`; clears `plain` when a path
/// reaches statements without such a loop.
fn collect(node: &LoopAst, position: usize, range: &mut DimensionRange, plain: &mut bool) {
    match node {
        LoopAst::For(l) if l.dim == position => {
            range.lower.push(l.lower.clone());
            range.upper.push(l.upper.clone());
        }
        LoopAst::For(l) if l.dim < position => collect(&l.body, position, range, plain),
        LoopAst::For(_) | LoopAst::Stmt { .. } => *plain = false,
        LoopAst::If { then, .. } => collect(then, position, range, plain),
        LoopAst::Seq(items) => items.iter().for_each(|x| collect(x, position, range, plain)),
    }
}
