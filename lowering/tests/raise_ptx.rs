//! Issue 17: the affine inputs of `examples/affine`, raised by `raise-affine-to-stencil`,
//! tiled and mapped to the GPU, compile to PTX through MLIR 22 and ptxas assembles it for
//! sm_90 — the raised programs go through the whole pipeline. Without ptxas the assembly is
//! skipped unless `STENCIL_REQUIRE_PTXAS=1` (as in tests/ptx_examples.rs).
#![cfg(feature = "mlir")]

mod common;

use common::{parse, registries, run_pipeline};
use stencil_lowering::ptx::{compile_gpu_modules, PtxOptions};
use stencil_lowering::ptxas::Ptxas;

#[test]
fn every_affine_input_raised_and_mapped_compiles_to_ptx_and_assembles() {
    let ptxas = Ptxas::find_for_checks();
    let (dialects, _) = registries();
    let options = PtxOptions::with_found_libdevice();
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/affine");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    assert!(files.len() >= 6, "the affine inputs in {}", dir.display());
    let mut failures = vec![];
    for path in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let result = (|| -> Result<usize, String> {
            let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
            let mut module = parse(&text, &dialects)?;
            let tile = if name.contains("3d") { "4" } else { "16" };
            run_pipeline(
                &mut module,
                &format!("builtin.module(raise-affine-to-stencil{{strict=true}},poly-schedule,poly-tile{{sizes={tile}}},gpu-map,canonicalize,cse)"),
            )?;
            let compiled =
                compile_gpu_modules(&module.ir, &dialects, module.top, &options).map_err(|e| e.to_string())?;
            let kernels: usize = compiled.iter().map(|m| m.kernels.len()).sum();
            if kernels == 0 {
                return Err("no kernel".into());
            }
            if let Some(ptxas) = &ptxas {
                for m in &compiled {
                    let report = ptxas.assemble(&m.ptx, "sm_90").map_err(|e| e.to_string())?;
                    for k in &m.kernels {
                        let r = report.kernel(&k.name).ok_or_else(|| format!("ptxas reported no {}", k.name))?;
                        println!("{name}: {} — {} registers", k.name, r.registers.unwrap_or(0));
                    }
                }
            }
            Ok(kernels)
        })();
        if let Err(e) = result {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
