//! Every example program, mapped to the GPU with the README's pipeline (schedule, tile,
//! `gpu-map`), compiles to PTX through MLIR 22 with a parameter ABI for each kernel, and ptxas
//! assembles that PTX for sm_90 (DESIGN §7: every generated PTX is checked with ptxas).
//!
//! Registers and spills are printed (`--nocapture`), not asserted: how many registers the
//! mapped kernels need is for gpu-map to tune; this test guards that they compile and assemble.
//! Without ptxas the assembly is skipped (see tests/ptx.rs) unless `STENCIL_REQUIRE_PTXAS=1`.
// PTX comes from MLIR: these tests need the `mlir` feature (on by default).
#![cfg(feature = "mlir")]

mod common;

use common::{examples, parse, registries, run_pipeline};
use stencil_lowering::ptx::{compile_gpu_modules, PtxOptions};
use stencil_lowering::ptxas::Ptxas;

/// The README's pipeline: tiles staged in shared memory (gpu-map's default).
const PIPELINE: &str = "builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map{block=32,8},canonicalize,cse)";

/// 3-D tiles of 16 with their time skew touch 48³ elements, far beyond 48 KiB of shared
/// memory (gpu-map rejects them with a clear error): 3-D examples use tiles of 4.
const PIPELINE_3D: &str = "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8,8,4},canonicalize,cse)";

#[test]
fn every_example_mapped_to_the_gpu_compiles_to_ptx_and_assembles() {
    let (dialects, _) = registries();
    let ptxas = Ptxas::find_for_checks();
    let options = PtxOptions::with_found_libdevice();
    let mut failures = vec![];
    for (name, text) in examples() {
        let result = (|| -> Result<(), String> {
            let mut module = parse(&text, &dialects)?;
            run_pipeline(&mut module, if name.contains("3d") { PIPELINE_3D } else { PIPELINE })?;
            let compiled =
                compile_gpu_modules(&module.ir, &dialects, module.top, &options).map_err(|e| e.to_string())?;
            if compiled.is_empty() || compiled.iter().all(|m| m.kernels.is_empty()) {
                return Err("gpu-map produced no kernel".to_string());
            }
            for ptx_module in &compiled {
                for kernel in &ptx_module.kernels {
                    if !ptx_module.ptx.contains(&format!(".visible .entry {}(", kernel.name)) {
                        return Err(format!("no .entry for kernel {}", kernel.name));
                    }
                }
                let Some(ptxas) = &ptxas else { continue };
                let report = ptxas.assemble(&ptx_module.ptx, "sm_90").map_err(|e| e.to_string())?;
                for kernel in &ptx_module.kernels {
                    let r = report.kernel(&kernel.name).ok_or_else(|| format!("ptxas reported no {}", kernel.name))?;
                    println!(
                        "{name}: {} — {} params, {} registers, {} B shared, {}/{} B spilled",
                        kernel.name,
                        kernel.params().count(),
                        r.registers.unwrap_or(0),
                        r.shared_bytes,
                        r.spill_store_bytes,
                        r.spill_load_bytes
                    );
                }
            }
            Ok(())
        })();
        if let Err(e) = result {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
