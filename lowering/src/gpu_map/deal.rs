//! How the points of a box are dealt to a block's threads (the `overlapped` and `streaming`
//! strategies' boxes: tiles grown by halos, planes of a column; the staged wavefront tiles'
//! 2-D box copies and mask rows).
//!
//! A box grown by halos is rarely a multiple of the block's shape: a 32-wide tile with a halo
//! of one on each side is 34 wide, and with a warp along the innermost dimension the second
//! pass over a row runs two lanes of 32 — a whole warp-instruction stream for 2 points. The
//! block's threads are therefore arranged per box as a grid *fitted to its nominal extents*
//! (those of a box not clipped by the field's bounds, known when the kernel is built): as many
//! threads along the innermost dimension as the box is wide (or the whole block, if the box is
//! wider), the remaining threads along the next dimension outwards as far as its extent,
//! and so on. Warps then span row ends instead of idling past them (issue-13 "warps kept
//! full"; a linear deal of the points would keep every lane busy but pays a division or a
//! carry chain per point, this one pays its divisions once per kernel, as they are invariant).

use stencil_ir::ir::InsertPoint;
use stencil_ir::{Ir, Location, Type, ValueId};

use super::arith::{binary, compare, index_constant, SLT};
use super::host::ThreadIds;
use super::ops;

/// What [`for_each_point`] emits at each point (given the point's coordinates).
pub(super) type PointBody<'a> = dyn FnMut(&mut Ir, InsertPoint, &[ValueId]) -> Result<(), String> + 'a;

/// Threads per dimension (outermost first) of a block of `threads` threads fitted to a box of
/// `nominal` extents: innermost first, each dimension takes as many of the threads left as it
/// has points (at least one). Their product is at most `threads`; the threads beyond it idle
/// in the box.
pub(super) fn fitted_grid(nominal: &[i64], threads: i64) -> Vec<i64> {
    let mut grid = vec![1; nominal.len()];
    let mut left = threads.max(1);
    for d in (0..nominal.len()).rev() {
        let along = left.min(nominal[d].max(1));
        grid[d] = along;
        left /= along;
    }
    grid
}

/// Runs `body` for every point of the box `[lo, hi)` dealt over the block's `threads` threads
/// ([`deal`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn for_each_point(
    ir: &mut Ir,
    at: InsertPoint,
    ids: &ThreadIds,
    bounds: (&[ValueId], &[ValueId]),
    nominal: &[i64],
    threads: i64,
    location: &Location,
    body: &mut PointBody<'_>,
) -> Result<(), String> {
    let (linear, _) = ids.linear(ir, at, 0, location);
    let (point, inner) = deal(ir, at, linear, bounds, nominal, threads, location)?;
    body(ir, inner, &point)
}

/// Deals the points of the box `[lo, hi)` over the block's `threads` threads as the
/// [`fitted_grid`] says, the thread being number `linear` of them (x fastest): its coordinates
/// in the grid come from `linear`, and along dimension `d` it takes every `grid[d]`-th point
/// from its coordinate on. Returns the point and where the code run at each point goes. Each
/// point of the box is visited by exactly one thread.
///
/// The box must be no larger than `nominal` (`hi[d] − lo[d] ≤ nominal[d]`: the callers' boxes
/// are their nominal ones clipped), which lets a dimension the grid covers in one pass be a
/// test instead of a loop.
pub(super) fn deal(
    ir: &mut Ir,
    at: InsertPoint,
    linear: ValueId,
    (lo, hi): (&[ValueId], &[ValueId]),
    nominal: &[i64],
    threads: i64,
    location: &Location,
) -> Result<(Vec<ValueId>, InsertPoint), String> {
    let rank = lo.len();
    if hi.len() != rank || nominal.len() != rank || rank == 0 {
        return Err(format!(
            "a box of {rank} lower, {} upper bounds and {} nominal extents to deal to threads",
            hi.len(),
            nominal.len()
        ));
    }
    let grid = fitted_grid(nominal, threads);
    // The thread's place in the grid, innermost fastest. Division by constants of values fixed
    // for the whole kernel: loop-invariant code motion takes them out of every loop.
    let mut coordinate = vec![linear; rank];
    let mut rest = linear;
    for d in (1..rank).rev() {
        let along = index_constant(ir, at, grid[d], location);
        coordinate[d] = binary(ir, at, "arith.remui", rest, along, Type::Index, location);
        rest = binary(ir, at, "arith.divui", rest, along, Type::Index, location);
    }
    coordinate[0] = rest;
    let used: i64 = grid.iter().product();
    let mut inner = at;
    if used < threads {
        // The threads past the grid's last: their coordinate 0 would repeat another's.
        let bound = index_constant(ir, at, used, location);
        let in_grid = compare(ir, at, SLT, linear, bound, location);
        inner = ops::scf_if(ir, at, in_grid, location);
    }
    // A dimension one pass covers is a test, not a loop (whose induction variables LLVM's
    // strength reduction would multiply for a loop that never repeats). The test depends on the
    // thread alone, so it goes outside every loop: inside, it was a compare and a branch per
    // point (the overlapped and streaming kernels' rows, where the column is the test), which
    // neither LLVM nor ptxas took out of the loop.
    let mut point: Vec<Option<ValueId>> = vec![None; rank];
    for d in (0..rank).filter(|&d| grid[d] >= nominal[d]) {
        let start = binary(ir, inner, "arith.addi", lo[d], coordinate[d], Type::Index, location);
        let inside = compare(ir, inner, SLT, start, hi[d], location);
        inner = ops::scf_if(ir, inner, inside, location);
        point[d] = Some(start);
    }
    for d in (0..rank).filter(|&d| grid[d] < nominal[d]) {
        let start = binary(ir, inner, "arith.addi", lo[d], coordinate[d], Type::Index, location);
        let step = index_constant(ir, inner, grid[d], location);
        let (p, next) = ops::scf_for(ir, inner, start, hi[d], step, location);
        point[d] = Some(p);
        inner = next;
    }
    let point: Vec<ValueId> = point.into_iter().collect::<Option<_>>().ok_or("a dimension without a coordinate")?;
    Ok((point, inner))
}

#[cfg(test)]
mod tests {
    use super::fitted_grid;

    #[test]
    fn the_grid_follows_the_box_innermost_first() {
        // A 32-wide tile with a halo of one: 34 lanes, 7 rows (238 of 256 threads).
        assert_eq!(fitted_grid(&[18, 34], 256), vec![7, 34]);
        // A box that fits the block's warps exactly keeps its shape.
        assert_eq!(fitted_grid(&[16, 32], 256), vec![8, 32]);
        // Narrow rows: more of them at once.
        assert_eq!(fitted_grid(&[20, 10], 256), vec![20, 10]);
        // Wider than the block: every thread along the row, passes over it.
        assert_eq!(fitted_grid(&[5, 300], 256), vec![1, 256]);
        // 3-D: rows then planes.
        assert_eq!(fitted_grid(&[10, 10, 34], 256), vec![1, 7, 34]);
        assert_eq!(fitted_grid(&[6, 4, 16], 256), vec![4, 4, 16]);
        assert_eq!(fitted_grid(&[1000], 128), vec![128]);
        assert_eq!(fitted_grid(&[3], 128), vec![3]);
    }

    #[test]
    fn the_grid_never_has_more_threads_than_the_block() {
        for threads in [1, 32, 96, 256, 1024] {
            for a in 1..40 {
                for b in [1, 2, 7, 33, 64, 300] {
                    let grid = fitted_grid(&[a, b], threads);
                    assert!(grid.iter().product::<i64>() <= threads, "{a}x{b} on {threads}: {grid:?}");
                    assert!(grid.iter().all(|&g| g >= 1));
                }
            }
        }
    }
}
