//! Every example compiles to PTX and assembles with the code-generator flags our binaries use
//! (`CodegenFlags::RECOMMENDED`): the rewrites of the PTX copy that only those flags turn on —
//! divisions by constants through the reciprocal, neighbouring global accesses through flat
//! indices — must give IR that MLIR 22 lowers and PTX that ptxas accepts, for every mapping a
//! run may use (naive, `strategy=auto`, wavefront tiles on global memory), at 32-bit `index`.
//!
//! The flags are process-wide (LLVM's options), so this test has a binary of its own; the other
//! PTX tests compile with LLVM's defaults.
#![cfg(feature = "mlir")]

mod common;

use common::{examples, parse, registries, run_pipeline};
use stencil_lowering::ptx::llvm_options::{configure, CodegenFlags};
use stencil_lowering::ptx::{compile_gpu_modules, PtxOptions};
use stencil_lowering::ptxas::Ptxas;

/// The mappings: one thread per point, the default strategy, and wavefront tiles without
/// staging (the global-memory accesses the flat indices rewrite).
const PIPELINES: [&str; 3] = [
    "builtin.module(gpu-map{naive},canonicalize,cse)",
    "builtin.module(gpu-map{strategy=auto},canonicalize,cse)",
    "builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8,4 staging=false},canonicalize,cse)",
];

#[test]
fn every_example_compiles_and_assembles_with_the_binaries_flags() {
    configure(CodegenFlags::RECOMMENDED).expect("the first configuration of this process");
    let (dialects, _) = registries();
    let ptxas = Ptxas::find_for_checks();
    let options = PtxOptions { index_bitwidth: 32, ..PtxOptions::with_found_libdevice() };
    let (mut failures, mut flattened, mut compiled_modules) = (vec![], 0, 0);
    for (name, text) in examples() {
        for pipeline in PIPELINES {
            let mut module = match parse(&text, &dialects) {
                Ok(m) => m,
                Err(e) => {
                    failures.push(format!("{name}: {e}"));
                    continue;
                }
            };
            // Mappings a program does not admit (naive on DOACROSS) are the mapper's refusals.
            if run_pipeline(&mut module, pipeline).is_err() {
                continue;
            }
            let compiled = match compile_gpu_modules(&module.ir, &dialects, module.top, &options) {
                Ok(c) => c,
                Err(e) => {
                    failures.push(format!("{name} ({pipeline}): {e}"));
                    continue;
                }
            };
            for ptx_module in &compiled {
                compiled_modules += 1;
                // A flat index shows as a global load at an immediate offset (`[%rd…+8]`).
                flattened += usize::from(
                    ptx_module.ptx.lines().any(|l| l.contains("ld.global") && (l.contains("+8]") || l.contains("+4]"))),
                );
                let Some(ptxas) = &ptxas else { continue };
                if let Err(e) = ptxas.assemble(&ptx_module.ptx, "sm_90") {
                    failures.push(format!("{name} ({pipeline}): ptxas: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(compiled_modules > 40, "only {compiled_modules} modules compiled");
    assert!(flattened > 0, "no module has a neighbour at an immediate offset");
    eprintln!("{compiled_modules} modules compiled and assembled, {flattened} with immediate global offsets");
}
