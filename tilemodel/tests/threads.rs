//! How neighbouring threads of an intra-tile step move through the arrays (`threads.rs`), on the
//! examples' bands as `poly-schedule` makes them.

mod common;

use stencil_tilemodel::*;

#[test]
fn a_thread_step_is_one_along_the_last_band_row() {
    for (name, scop, params) in [
        ("sor-1d", common::sor(1), vec![8, 40]),
        ("sor-2d", common::sor(2), vec![8, 40, 30]),
        ("sor-3d", common::sor(3), vec![4, 12, 10, 14]),
        ("jacobi-2d", common::jacobi(2), vec![8, 40, 30]),
    ] {
        let (shape, _) = common::shape(&scop, &params, true);
        let Some(steps) = thread_steps(&shape) else {
            // Only the skewed intra-tile wavefront has none.
            assert_eq!(shape.intra, IntraWavefront::Skew, "{name}");
            continue;
        };
        assert_eq!(steps.len(), shape.statements.len());
        let m = shape.width;
        for (s, step) in shape.statements.iter().zip(&steps) {
            // The band rows of the next thread's point: equal but the last, one more there.
            for (k, row) in s.map.iter().enumerate() {
                let moved: i64 = row.iter().zip(&step.iterators).map(|(a, d)| a * d).sum();
                assert_eq!(moved, i64::from(k == m - 1), "{name} {}: row {k}", s.name);
            }
            for access in &s.accesses {
                let subscripts: Vec<i64> =
                    access.linear.iter().map(|r| r.iter().zip(&step.iterators).map(|(a, d)| a * d).sum()).collect();
                assert!(step.arrays.iter().any(|a| a.subscripts == subscripts), "{name}: {step}");
            }
            println!("{name}: {step}");
        }
        // poly-schedule's balanced bands for 2-D and 3-D SOR move a warp's threads across rows;
        // 1-D SOR's threads are 2 elements apart.
        let expected = if name == "sor-1d" { Coalescing::Strided(2) } else { Coalescing::Scattered };
        if name.starts_with("sor") {
            assert!(steps.iter().flat_map(|s| &s.arrays).all(|a| a.coalescing == expected), "{name}: {steps:?}");
        }
    }
}

proptest::proptest! {
    /// The block that follows a tile (`Block::following_tile`, gpu-map's default and a candidate
    /// of every size in the search) fits in 256 threads, never has more threads along a loop than
    /// the loop's extent (but for a lone loop, which gets a warp at least), and spreads each loop
    /// evenly over as few turns as the threads left allow: `b = ⌈s / ⌈s / b⌉⌉`.
    #[test]
    fn following_blocks_spread_each_loop_evenly(sizes in proptest::collection::vec(1i64..700, 1..5)) {
        let block = Block::following_tile(&sizes);
        let dims = [block.x, block.y, block.z];
        proptest::prop_assert!(block.threads() <= 256 || sizes.len() == 1, "{sizes:?}: {block}");
        let loops = sizes.len().saturating_sub(1).min(3);
        let mut left = 256i64;
        for (k, &b) in dims.iter().enumerate() {
            let b = i64::from(b);
            proptest::prop_assert!(b >= 1);
            if k >= loops {
                proptest::prop_assert!(b == 1 || loops == 0, "{sizes:?}: {block}");
                continue;
            }
            let size = sizes[sizes.len() - 1 - k].min(256);
            if loops == 1 {
                proptest::prop_assert_eq!(b, size.max(32), "{:?}", sizes);
                continue;
            }
            proptest::prop_assert!(b <= size && b <= left, "{sizes:?}: {block}");
            let turns = (size + b - 1) / b;
            // As few turns as the threads left allow, and spread evenly over them.
            proptest::prop_assert_eq!(turns, (size + left - 1) / left, "{:?}: {}", sizes, block);
            proptest::prop_assert_eq!(b, (size + turns - 1) / turns, "{:?}: {}", sizes, block);
            left /= b;
        }
    }
}
