//! End to end on thesis Table 4.1's benchmarks (`tests/common/stencils.rs`): the scheduler's
//! hyperplanes with balanced intra-tile wavefronts (thesis Alg. 4.1), the outermost permutable
//! band tiled (sizes that divide nothing, and tiles one point wide), scanned and executed:
//! every instance once, in tiled order, every conflicting access pair in its original order
//! (also with the parallel loops run backwards), and the thesis' two-level loop structure.

mod codegen_support;
mod common;

use codegen_support::{check, tile_and_generate};
use common::stencils;
use stencil_poly::tiling::{DimKind, IntraTile, TilingInput, TilingOptions};
use stencil_poly::*;

/// Small parameter values: `T = 2`, every spatial extent 5.
fn params(scop: &Scop) -> Vec<i64> {
    scop.params().iter().map(|p| if p == "T" { 2 } else { 5 }).collect()
}

#[test]
fn table_4_1_benchmarks_tile_and_run_correctly() {
    for (name, scop) in stencils::table_4_1() {
        let ddg = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
        let t = schedule(&scop, &ddg, &SchedulerOptions::gpu()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let width = t.bands[0].width();
        for sizes in [[3i64, 2, 3, 2], [2, 1, 4, 3]] {
            let input = TilingInput::from_transformation(&t, &[sizes[..width].to_vec()]).unwrap();
            let (tiled, nest) = tile_and_generate(&scop, &input, &TilingOptions::default());
            check(&scop, &tiled, &nest, &params(&scop));
            if sizes.contains(&1) {
                continue;
            }
            // DOSEQ inter-tile wavefront, DOALL tiles, DOSEQ intra-tile wavefront, DOALL points.
            for l in nest.loops() {
                let expected = !matches!(l.kind, DimKind::TileWavefront | DimKind::PointWavefront);
                assert_eq!(l.parallel, expected, "{name}: loop {} ({:?})\n{nest}", l.name, l.kind);
            }
            assert_eq!(nest.loops()[0].kind, DimKind::TileWavefront, "{name}\n{nest}");
        }
    }
}

#[test]
fn intra_tile_skew_on_a_four_row_band() {
    // Θ_S (Eq. 3.19) couples all four iterators of 3-D Jacobi-7: the densest projections.
    let scop = stencils::jacobi_3d_7pt();
    let ddg = DependenceGraph::compute(&scop, &DependenceOptions::default()).unwrap();
    let t = schedule(&scop, &ddg, &SchedulerOptions::gpu()).unwrap();
    let input = TilingInput::from_transformation(&t, &[vec![2, 3, 2, 3]]).unwrap();
    let options = TilingOptions { intra_tile: IntraTile::Skew, ..TilingOptions::default() };
    let (tiled, nest) = tile_and_generate(&scop, &input, &options);
    assert_eq!(tiled.intra_tile, [IntraTile::Skew]);
    check(&scop, &tiled, &nest, &[2, 4, 5, 4]);
    for l in nest.loops() {
        let expected = !matches!(l.kind, DimKind::TileWavefront | DimKind::PointWavefront);
        assert_eq!(l.parallel, expected, "loop {} ({:?})\n{nest}", l.name, l.kind);
    }
}
