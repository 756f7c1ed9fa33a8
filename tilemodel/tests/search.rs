//! The search of thesis Alg. 5.1 on the benchmark stencils.

mod common;

use stencil_tilemodel::search::PruneReason;
use stencil_tilemodel::*;

fn run(scop: &stencil_poly::Scop, params: &[i64], options: &SearchOptions) -> SearchReport {
    let (shape, _) = common::shape(scop, params, true);
    search(&shape, "test", &Calibration::h100_default().unwrap(), options).unwrap()
}

#[test]
fn sor_searches_find_layouts_and_say_what_they_pruned() {
    for (scop, params) in [
        (common::sor(1), vec![64, 4096]),
        (common::sor(2), vec![32, 512, 512]),
        (common::sor(3), vec![4, 24, 24, 24]),
        (common::jacobi(2), vec![32, 512, 512]),
    ] {
        for model in ModelKind::ALL {
            for staged in [true, false] {
                let options = SearchOptions { model, staged, ..SearchOptions::default() };
                let report = run(&scop, &params, &options);
                let best = report.choice().unwrap();
                println!("{report}");
                assert!(best.prediction.seconds > 0.0 && best.prediction.seconds.is_finite());
                assert!(report.best.windows(2).all(|w| w[0].prediction.seconds <= w[1].prediction.seconds));
                if staged {
                    assert!(best.shared_bytes <= options.shared_limit);
                    if params.len() > 2 {
                        assert!(report.pruned.iter().any(|p| p.reason == PruneReason::SharedMemory));
                    }
                }
            }
        }
    }
}

#[test]
fn fixed_sizes_search_blocks_only() {
    let options = SearchOptions { fixed_sizes: Some(vec![8, 16, 16]), ..SearchOptions::default() };
    let report = run(&common::sor(2), &[16, 128, 128], &options);
    assert_eq!(report.sizes_considered, 1);
    assert!(report.best.iter().all(|r| r.sizes == [8, 16, 16]));
}

#[test]
fn an_impossible_search_says_why() {
    let options = SearchOptions { shared_limit: 8, ..SearchOptions::default() };
    let (shape, _) = common::shape(&common::sor(2), &[16, 128, 128], true);
    let e = search(&shape, "test", &Calibration::h100_default().unwrap(), &options).unwrap_err().to_string();
    assert!(e.contains("shared memory"), "{e}");
}
