//! Every benchmark program in `examples/` runs on the reference interpreter with its default
//! parameters and pseudo-random fields.

mod common;

use stencil_runtime::{module_interface, run_module, FieldData, ProgramState};

#[test]
fn every_example_runs_with_its_defaults() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut paths: Vec<_> =
        std::fs::read_dir(&dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "mlir"));
    paths.sort();
    let mut ran = 0;
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        if !text.contains("stencil.program") {
            continue;
        }
        let module = common::parse(&text);
        let mut state = ProgramState::new();
        let interface = module_interface(&module, None, &state).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (seed, f) in interface.fields.iter().enumerate() {
            let data = FieldData::pseudo_random(f.shape.clone(), f.element, seed as u64).unwrap();
            state.fields.insert(f.name.clone(), data);
        }
        let stats = run_module(&module, None, &mut state).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(stats.point_updates > 0, "{}: no point was updated", path.display());
        ran += 1;
    }
    eprintln!("ran {ran} examples");
}
