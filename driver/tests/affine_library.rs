//! How another MLIR compiler plugs in through the library (the README's "Plugging in another
//! MLIR compiler" shows this code): affine text in, raised and mapped to the GPU, the wrapper
//! and host code back as MLIR text, the kernels as PTX where MLIR is built in; and the raised
//! function still computes what the affine one did (the un-raised function on the reference
//! interpreter, the raised one on the GPU simulator).

use stencil::runtime::gpu_sim::{simulate_module, SimOptions};
use stencil::runtime::loops::{CompiledModule, Memory, Value};
use stencil::runtime::{compare_fields, ElementType, FieldData};
use stencil::Compiler;

/// What a front end hands over: PolyBench jacobi-1d as Polygeist emits it.
const AFFINE: &str = include_str!("../../examples/affine/jacobi-1d.mlir");

#[test]
fn affine_text_in_gpu_code_out() -> Result<(), Box<dyn std::error::Error>> {
    // Every dialect, every pass; text in (parsed and verified).
    let compiler = Compiler::new();
    let original = compiler.parse("jacobi-1d.mlir", AFFINE)?;
    let mut module = original.clone();

    // Raise (strict: a nest that does not fit is an error, not a remark), tile, map.
    let pipeline = "builtin.module(raise-affine-to-stencil{strict=true},poly-schedule,poly-tile{sizes=8},gpu-map,canonicalize,cse)";
    let remarks = compiler.run_pipeline(&mut module, pipeline)?;
    assert!(remarks.is_empty(), "no remarks: everything was raised: {remarks:?}");

    // Text out: the original function (same signature) now calls the host code that
    // launches the kernels.
    let text = compiler.print(&module);
    assert!(text.contains("func.func @kernel_jacobi_1d(%arg0: i32, %arg1: i32, %arg2: memref<?xf64> {llvm.noalias}, %arg3: memref<?xf64> {llvm.noalias})"));
    assert!(text.contains("func.call @kernel_jacobi_1d_stencil("));
    assert!(text.contains("gpu.launch_func"));

    // PTX, where this build links MLIR.
    #[cfg(feature = "mlir")]
    {
        let ptx = compiler.ptx(&module, &stencil::lowering::ptx::PtxOptions::with_found_libdevice())?;
        assert!(stencil::lowering::ptx::render_ptx_file(&ptx).contains(".entry"));
    }

    // Without strict, a nest that cannot be raised is left as it was and a remark says why.
    let aliased = AFFINE.replace(" {llvm.noalias}", "");
    let mut left = compiler.parse("jacobi-1d.mlir", &aliased)?;
    let remarks = compiler.run_pipeline(&mut left, "builtin.module(raise-affine-to-stencil)")?;
    assert!(remarks.iter().any(|d| d.message.contains("may be the same buffer")), "{remarks:?}");

    // The caller's view: call the function with its own arguments, before and after.
    let run = |m: &stencil::Module, sim: bool| -> Result<Vec<FieldData>, Box<dyn std::error::Error>> {
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
