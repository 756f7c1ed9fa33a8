//! How another MLIR compiler plugs in through the library (the README's "Plugging in another
//! MLIR compiler" shows this code): affine text in, raised and mapped to the GPU, the wrapper
//! and host code back as MLIR text, the kernels as PTX where MLIR is built in; and the raised
//! function still computes what the affine one did (the un-raised function on the reference
//! interpreter, the raised one on the GPU simulator).

use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::pass::{PassManager, PassManagerOptions, PassRegistry};
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::verifier::verify;
use stencil_ir::SourceFile;
use stencil_runtime::gpu_sim::{simulate_module, SimOptions};
use stencil_runtime::loops::{CompiledModule, Memory, Value};
use stencil_runtime::{compare_fields, ElementType, FieldData};

/// What a front end hands over: PolyBench jacobi-1d as Polygeist emits it.
const AFFINE: &str = include_str!("../../examples/affine/jacobi-1d.mlir");

#[test]
fn affine_text_in_gpu_code_out() -> Result<(), Box<dyn std::error::Error>> {
    // The registries: every dialect, every pass.
    let dialects = stencil_dialects::registry();
    let mut passes = PassRegistry::with_generic_passes();
    stencil_passes::register_passes(&mut passes);
    stencil_lowering::register_passes(&mut passes);

    // Text in.
    let source = SourceFile::new("jacobi-1d.mlir", AFFINE);
    let mut module = parse_source(&source, ParserConfig { registry: &dialects, allow_unregistered: false })?;
    verify(&module.ir, &dialects, module.top, false)?;
    let original = module.clone();

    // Raise (strict: a nest that does not fit is an error, not a remark), tile, map.
    let pipeline = "builtin.module(raise-affine-to-stencil{strict=true},poly-schedule,poly-tile{sizes=8},gpu-map,canonicalize,cse)";
    let mut pm = PassManager::parse(pipeline, &passes, PassManagerOptions { verify_each: true, ..Default::default() })?;
    pm.run(&mut module.ir, module.top, &dialects)?;
    assert!(pm.take_reported().is_empty(), "no remarks: everything was raised");

    // Text out: the original function (same signature) now calls the host code that
    // launches the kernels.
    let text = print_op(&module.ir, &dialects, module.top, PrintOptions::default());
    assert!(text.contains("func.func @kernel_jacobi_1d(%arg0: i32, %arg1: i32, %arg2: memref<?xf64> {llvm.noalias}, %arg3: memref<?xf64> {llvm.noalias})"));
    assert!(text.contains("func.call @kernel_jacobi_1d_stencil("));
    assert!(text.contains("gpu.launch_func"));

    // PTX, where this build links MLIR.
    if stencil_lowering::ptx::MLIR_AVAILABLE {
        let options = stencil_lowering::ptx::PtxOptions::with_found_libdevice();
        let ptx = stencil_lowering::ptx::compile_gpu_modules(&module.ir, &dialects, module.top, &options)?;
        assert!(stencil_lowering::ptx::render_ptx_file(&ptx).contains(".entry"));
    }

    // The caller's view: call the function with its own arguments, before and after.
    let run = |m: &stencil_ir::Module, sim: bool| -> Result<Vec<FieldData>, Box<dyn std::error::Error>> {
        let mut memory = Memory::new();
        let a = memory.insert_field(FieldData::pseudo_random(vec![40], ElementType::F64, 1)?);
        let b = memory.insert_field(FieldData::pseudo_random(vec![40], ElementType::F64, 2)?);
        let args = [Value::Int(6), Value::Int(40), Value::MemRef(a), Value::MemRef(b)];
        if sim {
            simulate_module(m, "kernel_jacobi_1d", &args, &mut memory, &SimOptions::default())?;
        } else {
            CompiledModule::new(&m.ir, m.top)?.call("kernel_jacobi_1d", &args, &mut memory)?;
        }
        Ok(vec![memory.take_field(a).ok_or("A")?, memory.take_field(b).ok_or("B")?])
    };
    let (before, after) = (run(&original, false)?, run(&module, true)?);
    for (x, y) in before.iter().zip(&after) {
        assert!(compare_fields(x, y).bit_exact());
    }
    Ok(())
}
