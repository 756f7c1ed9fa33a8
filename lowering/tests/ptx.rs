//! PTX through real MLIR 22 (`stencil_lowering::ptx`) and ptxas (`stencil_lowering::ptxas`):
//! hand-written gpu-dialect kernels compile to PTX for sm_90 with the expected `.entry`s and
//! parameter ABI, and ptxas assembles them without spills.
//!
//! ptxas and libdevice come from the nvidia-cuda-nvcc-cu12 wheel (tools/bootstrap). Without
//! them the tests that need them print "ptxas not found: skipped" and pass — unless
//! `STENCIL_REQUIRE_PTXAS=1` (set by `make test`), which turns a missing ptxas into a failure.
// PTX comes from MLIR: these tests need the `mlir` feature (on by default).
#![cfg(feature = "mlir")]

use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::verifier::verify;
use stencil_ir::{Module, SourceFile};
use stencil_lowering::ptx::{compile_gpu_modules, toolkit, MlirStage, ParamRole, PtxError, PtxModule, PtxOptions};
use stencil_lowering::ptxas::{Ptxas, PtxasReport};

/// 2-D 5-point Jacobi over the interior of an n×m grid: one thread per point, a 2-D grid of
/// 2-D blocks, a bounds guard for the partial blocks at the edges.
const JACOBI: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @jacobi {
    gpu.func @jacobi_5pt(%in: memref<?x?xf64>, %out: memref<?x?xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %fifth = arith.constant 0.2 : f64
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %n = memref.dim %in, %c0 : memref<?x?xf64>
      %m = memref.dim %in, %c1 : memref<?x?xf64>
      %j0 = arith.muli %bx, %bdx : index
      %j1 = arith.addi %j0, %tx : index
      %j = arith.addi %j1, %c1 : index
      %i0 = arith.muli %by, %bdy : index
      %i1 = arith.addi %i0, %ty : index
      %i = arith.addi %i1, %c1 : index
      %n1 = arith.subi %n, %c1 : index
      %m1 = arith.subi %m, %c1 : index
      %in_i = arith.cmpi ult, %i, %n1 : index
      %in_j = arith.cmpi ult, %j, %m1 : index
      %inside = arith.andi %in_i, %in_j : i1
      scf.if %inside {
        %im = arith.subi %i, %c1 : index
        %ip = arith.addi %i, %c1 : index
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %center = memref.load %in[%i, %j] : memref<?x?xf64>
        %north = memref.load %in[%im, %j] : memref<?x?xf64>
        %south = memref.load %in[%ip, %j] : memref<?x?xf64>
        %west = memref.load %in[%i, %jm] : memref<?x?xf64>
        %east = memref.load %in[%i, %jp] : memref<?x?xf64>
        %s0 = arith.addf %center, %north : f64
        %s1 = arith.addf %s0, %south : f64
        %s2 = arith.addf %s1, %west : f64
        %s3 = arith.addf %s2, %east : f64
        %r = arith.mulf %s3, %fifth : f64
        memref.store %r, %out[%i, %j] : memref<?x?xf64>
      }
      gpu.return
    }
  }
}
"#;

/// 1-D 3-point smoothing that stages a 128-element tile and its two halo elements in workgroup
/// memory, synchronises with gpu.barrier, then reads neighbours from the tile.
const SHARED_TILE: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @smooth {
    gpu.func @smooth_3pt(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) workgroup(%tile : memref<130xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c127 = arith.constant 127 : index
      %c128 = arith.constant 128 : index
      %third = arith.constant 0.333333343 : f32
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %base = arith.muli %bx, %c128 : index
      %g = arith.addi %base, %tx : index
      %last = arith.subi %n, %c1 : index
      %gc = arith.minui %g, %last : index
      %v = memref.load %in[%gc] : memref<?xf32>
      %t1 = arith.addi %tx, %c1 : index
      memref.store %v, %tile[%t1] : memref<130xf32, #gpu.address_space<workgroup>>
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %left = arith.subi %base, %c1 : index
        %lc = arith.minui %left, %last : index
        %is_edge = arith.cmpi eq, %base, %c0 : index
        %li = arith.select %is_edge, %c0, %lc : index
        %lv = memref.load %in[%li] : memref<?xf32>
        memref.store %lv, %tile[%c0] : memref<130xf32, #gpu.address_space<workgroup>>
      }
      %final = arith.cmpi eq, %tx, %c127 : index
      scf.if %final {
        %right = arith.addi %g, %c1 : index
        %rc = arith.minui %right, %last : index
        %rv = memref.load %in[%rc] : memref<?xf32>
        %c129 = arith.constant 129 : index
        memref.store %rv, %tile[%c129] : memref<130xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %t2 = arith.addi %tx, %c2 : index
      %a = memref.load %tile[%tx] : memref<130xf32, #gpu.address_space<workgroup>>
      %b = memref.load %tile[%t1] : memref<130xf32, #gpu.address_space<workgroup>>
      %c = memref.load %tile[%t2] : memref<130xf32, #gpu.address_space<workgroup>>
      %s0 = arith.addf %a, %b : f32
      %s1 = arith.addf %s0, %c : f32
      %r = arith.mulf %s1, %third : f32
      %valid = arith.cmpi ult, %g, %n : index
      scf.if %valid {
        memref.store %r, %out[%g] : memref<?xf32>
      }
      gpu.return
    }
  }
}
"#;

/// A kernel with an affine loop: each thread sums one row of a 64-wide matrix with
/// affine.for/affine.load and a loop-carried value, then scales it with a time step.
const AFFINE_ROWS: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @rows {
    gpu.func @row_sums(%a: memref<?x64xf32>, %sums: memref<?xf32>, %rows: index, %dt: f32) kernel {
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %r0 = arith.muli %bx, %bdx : index
      %row = arith.addi %r0, %tx : index
      %valid = arith.cmpi ult, %row, %rows : index
      scf.if %valid {
        %sum = affine.for %k = 0 to 64 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %a[%row, %k] : memref<?x64xf32>
          %next = arith.addf %acc, %v : f32
          affine.yield %next : f32
        }
        %scaled = arith.mulf %sum, %dt : f32
        memref.store %scaled, %sums[%row] : memref<?xf32>
        affine.for %k = 0 to 64 step 2 {
          affine.store %zero, %a[0, %k] : memref<?x64xf32>
        }
      }
      gpu.return
    }
  }
}
"#;

/// Math functions: exp/sqrt/sin come from libdevice, trunc from an LLVM intrinsic, fpowi and
/// ipowi from convert-math-to-funcs.
const MATH: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @math {
    gpu.func @heat_source(%u: memref<?xf64>, %k: memref<?xi32>) kernel {
      %tx = gpu.thread_id x
      %x = memref.load %u[%tx] : memref<?xf64>
      %e = memref.load %k[%tx] : memref<?xi32>
      %a = math.exp %x : f64
      %b = math.sqrt %a : f64
      %c = math.sin %b : f64
      %d = math.trunc %c : f64
      %p = math.fpowi %d, %e : f64, i32
      memref.store %p, %u[%tx] : memref<?xf64>
      %q = math.ipowi %e, %e : i32
      memref.store %q, %k[%tx] : memref<?xi32>
      gpu.return
    }
  }
}
"#;

/// Every arith, math, memref, scf and affine op our dialects print, inside kernels: all must
/// lower to PTX (memref.alloc/dealloc become device malloc/free, which ptxas resolves).
const EVERY_OP: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @all {
    gpu.func @every_op(%f: memref<?xf64>, %g: memref<?xf32>, %h: memref<?xi32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %x = memref.load %f[%c0] : memref<?xf64>
      %y = memref.load %g[%c0] : memref<?xf32>
      %k = memref.load %h[%c0] : memref<?xi32>
      %a1 = arith.addf %x, %x : f64
      %a2 = arith.subf %a1, %x : f64
      %a3 = arith.mulf %a2, %x : f64
      %a4 = arith.divf %a3, %x : f64
      %a5 = arith.remf %a4, %x : f64
      %a6 = arith.negf %a5 : f64
      %a7 = arith.maximumf %a6, %x : f64
      %a8 = arith.minimumf %a7, %x : f64
      %a9 = arith.maxnumf %a8, %x : f64
      %a10 = arith.minnumf %a9, %x : f64
      %b1 = arith.addi %k, %k : i32
      %b2 = arith.subi %b1, %k : i32
      %b3 = arith.muli %b2, %k : i32
      %b4 = arith.divsi %b3, %k : i32
      %b5 = arith.divui %b4, %k : i32
      %b6 = arith.remsi %b5, %k : i32
      %b7 = arith.remui %b6, %k : i32
      %b8 = arith.ceildivsi %b7, %k : i32
      %b9 = arith.floordivsi %b8, %k : i32
      %b10 = arith.andi %b9, %k : i32
      %b11 = arith.ori %b10, %k : i32
      %b12 = arith.xori %b11, %k : i32
      %b13 = arith.shli %b12, %k : i32
      %b14 = arith.shrsi %b13, %k : i32
      %b15 = arith.shrui %b14, %k : i32
      %b16 = arith.maxsi %b15, %k : i32
      %b17 = arith.minsi %b16, %k : i32
      %b18 = arith.maxui %b17, %k : i32
      %b19 = arith.minui %b18, %k : i32
      %cmp = arith.cmpi slt, %b19, %k : i32
      %cmpf = arith.cmpf olt, %a10, %x : f64
      %both = arith.andi %cmp, %cmpf : i1
      %sel = arith.select %both, %a10, %x : f64
      %t1 = arith.truncf %sel : f64 to f32
      %t2 = arith.extf %t1 : f32 to f64
      %t3 = arith.fptosi %t2 : f64 to i32
      %t4 = arith.fptoui %t2 : f64 to i32
      %t5 = arith.sitofp %t3 : i32 to f64
      %t6 = arith.uitofp %t4 : i32 to f32
      %t7 = arith.extsi %t3 : i32 to i64
      %t8 = arith.extui %t4 : i32 to i64
      %t9 = arith.trunci %t7 : i64 to i16
      %t10 = arith.index_cast %t8 : i64 to index
      %t11 = arith.index_castui %t10 : index to i32
      %t12 = arith.bitcast %t6 : f32 to i32
      %m1 = math.absf %t5 : f64
      %m2 = math.copysign %m1, %x : f64
      %m3 = math.fma %m2, %x, %x : f64
      %m4 = math.floor %m3 : f64
      %m5 = math.ceil %m4 : f64
      %m6 = math.round %m5 : f64
      %m7 = math.roundeven %m6 : f64
      %m8 = math.trunc %m7 : f64
      %m9 = math.rsqrt %m8 : f64
      %m10 = math.powf %m9, %x : f64
      %m11 = math.atan2 %m10, %x : f64
      %m12 = math.erf %m11 : f64
      %m13 = math.cbrt %m12 : f64
      %m14 = math.tanh %m13 : f64
      %i1 = math.absi %t12 : i32
      %i2 = math.ctlz %i1 : i32
      %i3 = math.cttz %i2 : i32
      %i4 = math.ctpop %i3 : i32
      %i5 = math.ipowi %i4, %k : i32
      %m15 = math.fpowi %m14, %i5 : f64, i32
      %buf = memref.alloca() : memref<4xf64>
      memref.store %m15, %buf[%c0] : memref<4xf64>
      %dim = memref.dim %f, %c0 : memref<?xf64>
      %cast = memref.cast %buf : memref<4xf64> to memref<?xf64>
      %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (f64) {
        %v = memref.load %cast[%i] : memref<?xf64>
        %s = arith.addf %acc, %v : f64
        scf.yield %s : f64
      }
      %w = scf.while (%i = %c0) : (index) -> index {
        %more = arith.cmpi ult, %i, %dim : index
        scf.condition(%more) %i : index
      } do {
      ^bb0(%i: index):
        %next = arith.addi %i, %c1 : index
        scf.yield %next : index
      }
      scf.parallel (%p) = (%c0) to (%c4) step (%c1) {
        memref.store %sum, %buf[%p] : memref<4xf64>
        scf.reduce
      }
      %r = scf.if %both -> (f64) {
        scf.yield %sum : f64
      } else {
        scf.yield %x : f64
      }
      affine.for %i = 0 to 4 {
        %v = affine.load %buf[%i] : memref<4xf64>
        affine.store %v, %buf[3 - %i] : memref<4xf64>
      }
      affine.parallel (%i) = (0) to (4) {
        affine.store %r, %buf[%i] : memref<4xf64>
      }
      affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%n) {
        %ap = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%n)
        %amin = affine.min affine_map<(d0) -> (d0, 3)>(%ap)
        %amax = affine.max affine_map<(d0) -> (d0, 0)>(%amin)
        %v = memref.load %buf[%amax] : memref<4xf64>
        memref.store %v, %f[%w] : memref<?xf64>
      }
      %i16 = arith.extsi %t9 : i16 to i32
      %i6 = arith.addi %i16, %t11 : i32
      memref.store %i6, %h[%c0] : memref<?xi32>
      gpu.return
    }
    gpu.func @heap_and_copy(%f: memref<?xf64>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %buf = memref.alloc(%n) : memref<?xf64>
      memref.copy %f, %buf : memref<?xf64> to memref<?xf64>
      %v = memref.load %buf[%c0] : memref<?xf64>
      memref.store %v, %f[%c0] : memref<?xf64>
      memref.dealloc %buf : memref<?xf64>
      gpu.return
    }
  }
}
"#;

fn parse(text: &str) -> Module {
    let registry = stencil_dialects::registry();
    let source = SourceFile::new("kernel.mlir", text);
    let module = parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: true })
        .unwrap_or_else(|d| panic!("{}", d.render()));
    verify(&module.ir, &registry, module.top, true).unwrap_or_else(|d| panic!("{}", d.render()));
    module
}

fn compile_with(text: &str, options: &PtxOptions) -> Result<Vec<PtxModule>, PtxError> {
    let module = parse(text);
    compile_gpu_modules(&module.ir, &stencil_dialects::registry(), module.top, options)
}

/// Compiles `text`, which must hold exactly one gpu.module, for sm_90 with libdevice linked
/// when it is installed.
fn compile_one(text: &str) -> PtxModule {
    let mut modules = compile_with(text, &PtxOptions::with_found_libdevice()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(modules.len(), 1);
    modules.remove(0)
}

fn require_tools() -> bool {
    std::env::var(stencil_lowering::ptxas::REQUIRE_PTXAS_ENV).as_deref() == Ok("1")
}

/// The ptxas to check with; `None` (after saying so) when it is not installed and not required.
fn ptxas() -> Option<Ptxas> {
    Ptxas::find_for_checks()
}

/// Assembles `module` for sm_90, asserts no kernel spills, prints the registers, returns the
/// report (`None` when ptxas is missing and not required).
fn assemble(module: &PtxModule) -> Option<PtxasReport> {
    let ptxas = ptxas()?;
    let report = ptxas.assemble(&module.ptx, "sm_90").unwrap_or_else(|e| panic!("{e}\nPTX:\n{}", module.ptx));
    for kernel in &module.kernels {
        let resources = report.kernel(&kernel.name).unwrap_or_else(|| panic!("ptxas reported no {}", kernel.name));
        println!(
            "{}: {} registers, {} bytes shared, {} bytes stack, {}/{} bytes spilled (stores/loads)",
            kernel.name,
            resources.registers.unwrap_or(0),
            resources.shared_bytes,
            resources.stack_frame_bytes,
            resources.spill_store_bytes,
            resources.spill_load_bytes
        );
        assert!(!resources.spills(), "{} spills:\n{}", kernel.name, report.log);
        assert!(resources.registers.is_some_and(|r| r > 0), "{}", report.log);
    }
    Some(report)
}

/// Whether libdevice (shipped with ptxas) is installed; says "skipped" when not and not required.
fn libdevice_found() -> bool {
    if toolkit::find_libdevice().is_some() {
        return true;
    }
    assert!(!require_tools(), "STENCIL_REQUIRE_PTXAS=1 but libdevice.10.bc was not found");
    println!("libdevice not found: skipped");
    false
}

/// `text` compiled with libdevice linked and checked to be sm_90 PTX; `None` (skipped) where
/// libdevice is not installed.
fn compile_with_libdevice(text: &str) -> Option<PtxModule> {
    if !libdevice_found() {
        return None;
    }
    let module = compile_one(text);
    assert_sm90_ptx(&module);
    Some(module)
}

fn assert_sm90_ptx(module: &PtxModule) {
    assert!(module.ptx.contains(".target sm_90"), "{}", module.ptx);
    // The lowest PTX ISA for sm_90: loads on every driver since CUDA 11.8.
    assert!(module.ptx.contains(".version 7.8"), "{}", module.ptx);
    for kernel in &module.kernels {
        assert!(module.ptx.contains(&format!(".visible .entry {}(", kernel.name)), "{}", module.ptx);
    }
}

#[test]
fn jacobi_kernel_compiles_with_descriptor_abi_and_assembles() {
    let module = compile_one(JACOBI);
    assert_eq!(module.name, "jacobi");
    assert_sm90_ptx(&module);
    let kernel = &module.kernels[0];
    assert_eq!(kernel.name, "jacobi_5pt");
    assert_eq!(kernel.arguments.len(), 2);
    // memref<?x?xf64>: allocated, aligned, offset, 2 sizes, 2 strides.
    let roles: Vec<ParamRole> = kernel.arguments[0].params.iter().map(|p| p.role).collect();
    assert_eq!(
        roles,
        [
            ParamRole::AllocatedPointer,
            ParamRole::AlignedPointer,
            ParamRole::Offset,
            ParamRole::Size { dim: 0 },
            ParamRole::Size { dim: 1 },
            ParamRole::Stride { dim: 0 },
            ParamRole::Stride { dim: 1 },
        ]
    );
    let names: Vec<&str> = kernel.params().map(|p| p.name.as_str()).collect();
    assert_eq!(names.len(), 14);
    assert_eq!(names[0], "jacobi_5pt_param_0");
    assert_eq!(names[13], "jacobi_5pt_param_13");
    assert!(kernel.params().all(|p| p.ptx_type == ".u64"));
    // The thread and block ids became special registers.
    assert!(module.ptx.contains("%tid.x") && module.ptx.contains("%ctaid.y"), "{}", module.ptx);
    assemble(&module);
}

#[test]
fn workgroup_memory_and_barrier_compile_and_assemble() {
    let module = compile_one(SHARED_TILE);
    assert_sm90_ptx(&module);
    assert!(module.ptx.contains(".shared"), "{}", module.ptx);
    assert!(module.ptx.contains("bar.sync"), "{}", module.ptx);
    let kernel = &module.kernels[0];
    // Two memref<?xf32> (5 params each) and an index; the workgroup buffer is no parameter.
    assert_eq!(kernel.params().count(), 11);
    assert_eq!(kernel.arguments[2].params[0].role, ParamRole::Scalar);
    if let Some(report) = assemble(&module) {
        let resources = report.kernel("smooth_3pt").expect("smooth_3pt reported");
        assert_eq!(resources.shared_bytes, 130 * 4, "{}", report.log);
    }
}

#[test]
fn affine_loops_inside_kernels_are_lowered() {
    let module = compile_one(AFFINE_ROWS);
    assert_sm90_ptx(&module);
    let kernel = &module.kernels[0];
    // memref<?x64xf32> still passes both sizes and strides; f32 scalars are .f32 params.
    assert_eq!(kernel.arguments[0].params.len(), 7);
    assert_eq!(kernel.arguments[3].params[0].ptx_type, ".f32");
    assemble(&module);
}

#[test]
fn math_functions_link_libdevice_and_assemble() {
    let Some(module) = compile_with_libdevice(MATH) else { return };
    assert!(!module.ptx.contains(".extern .func"), "{}", module.ptx);
    assemble(&module);
}

#[test]
fn every_upstream_op_we_print_lowers_and_assembles() {
    let Some(module) = compile_with_libdevice(EVERY_OP) else { return };
    let names: Vec<&str> = module.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["every_op", "heap_and_copy"]);
    assemble(&module);
}

#[test]
fn math_functions_without_libdevice_are_a_clear_error() {
    let err = compile_with(MATH, &PtxOptions::default()).unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, PtxError::MissingLibdevice { .. }), "{message}");
    assert!(message.contains("__nv_exp") && message.contains("tools/bootstrap"), "{message}");
    // Located at the gpu.module.
    let diagnostics = err.diagnostics();
    assert_eq!(
        diagnostics[0].location.file_position().map(|(f, l, _)| (f.to_string(), l)),
        Some(("kernel.mlir".into(), 3))
    );
}

#[test]
fn several_gpu_modules_and_other_chips() {
    let text = format!(
        "module attributes {{gpu.container_module}} {{\n{}\n{}\n}}",
        inner_gpu_module(JACOBI),
        inner_gpu_module(SHARED_TILE)
            .replace("gpu.module @smooth {", "gpu.module @smooth [#nvvm.target<chip = \"sm_70\">] {")
    );
    let options = PtxOptions { chip: "sm_80".into(), ..PtxOptions::default() };
    let modules = compile_with(&text, &options).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = modules.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["jacobi", "smooth"]);
    // The module's own target is replaced by the requested chip.
    for module in &modules {
        assert!(module.ptx.contains(".target sm_80"), "{}", module.ptx);
    }
    if let Some(ptxas) = ptxas() {
        for module in &modules {
            let report = ptxas.assemble(&module.ptx, "sm_80").unwrap_or_else(|e| panic!("{e}"));
            assert!(report.kernels().all(|k| !k.spills()));
        }
    }
}

/// The text of the gpu.module inside one of the test modules above.
fn inner_gpu_module(text: &str) -> &str {
    let start = text.find("  gpu.module").expect("has a gpu.module");
    let end = text.rfind("\n}").expect("ends with the builtin module");
    &text[start..end]
}

#[test]
fn modules_without_gpu_modules_give_nothing() {
    let modules = compile_with("func.func @f() {\n  return\n}\n", &PtxOptions::default()).unwrap();
    assert!(modules.is_empty());
}

#[test]
fn ops_mlir_cannot_lower_are_reported_with_mlir_diagnostics_at_their_location() {
    let text = r#"
module attributes {gpu.container_module} {
  gpu.module @bad {
    gpu.func @k(%a: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = "test.opaque"() : () -> f32
      memref.store %v, %a[%c0] : memref<?xf32>
      gpu.return
    }
  }
}
"#;
    let err = compile_with(text, &PtxOptions::default()).unwrap_err();
    let PtxError::Mlir { module, stage, diagnostics } = &err else { panic!("not an MLIR error: {err}") };
    assert_eq!(module, "bad");
    assert_eq!(*stage, MlirStage::Lower);
    // MLIR's own words, at the op's position in our input.
    let first = &diagnostics[0];
    assert!(first.message.contains("test.opaque"), "{err}");
    assert_eq!(first.location.file_position(), Some(("kernel.mlir", 6, 12)), "{err}");
    // No dump of half-lowered IR among the notes.
    assert!(diagnostics.iter().flat_map(|d| &d.notes).all(|n| !n.message.contains("see current operation")), "{err}");
}

#[test]
fn unsupported_kernel_arguments_are_rejected_before_mlir() {
    let text = r#"
module attributes {gpu.container_module} {
  gpu.module @wide {
    gpu.func @k(%a: i128) kernel {
      gpu.return
    }
  }
}
"#;
    let err = compile_with(text, &PtxOptions::default()).unwrap_err();
    assert!(matches!(err, PtxError::UnsupportedArgument { index: 0, .. }), "{err}");
    assert!(err.to_string().contains("i128"), "{err}");
}

#[test]
fn invalid_chip_is_rejected() {
    let options = PtxOptions { chip: "sm90".into(), ..PtxOptions::default() };
    let err = compile_with(JACOBI, &options).unwrap_err();
    assert!(matches!(err, PtxError::InvalidOption(_)), "{err}");
}

/// Two workgroup buffers of 32 KiB each (64 KiB, above CUDA's 48 KiB static limit): the PTX
/// takes them from dynamic shared memory (views at aligned offsets of one block), ptxas
/// accepts it, the parameters do not change, and a kernel within the limit keeps static
/// buffers.
#[test]
fn workgroup_buffers_beyond_48_kib_come_from_dynamic_shared_memory() {
    let kernel = |n: usize| {
        format!(
            r#"module attributes {{gpu.container_module}} {{
  gpu.module @big {{
    gpu.func @copy(%out: memref<?xf64>, %i: index) workgroup(%a : memref<{n}xf64, #gpu.address_space<workgroup>>, %b : memref<{n}xf64, #gpu.address_space<workgroup>>) kernel {{
      %t = gpu.thread_id x
      %x = memref.load %out[%t] : memref<?xf64>
      memref.store %x, %a[%t] : memref<{n}xf64, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = memref.load %a[%i] : memref<{n}xf64, #gpu.address_space<workgroup>>
      memref.store %v, %b[%t] : memref<{n}xf64, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %b[%i] : memref<{n}xf64, #gpu.address_space<workgroup>>
      memref.store %w, %out[%t] : memref<?xf64>
      gpu.return
    }}
  }}
}}"#
        )
    };
    let big = compile_one(&kernel(4096));
    assert!(big.ptx.contains("__dynamic_shmem__"), "{}", big.ptx);
    assert!(!big.ptx.contains("__wg_copy"), "{}", big.ptx);
    assert_eq!(big.kernels[0].arguments.len(), 2);
    if let Some(report) = assemble(&big) {
        let resources = report.kernel("copy").expect("ptxas reports the kernel");
        assert!(resources.shared_bytes < 1024, "static shared memory left: {}", report.log);
    }
    let small = compile_one(&kernel(1024));
    assert!(!small.ptx.contains("__dynamic_shmem__"), "{}", small.ptx);
    if let Some(report) = assemble(&small) {
        assert_eq!(report.kernel("copy").expect("ptxas reports the kernel").shared_bytes, 16384, "{}", report.log);
    }
}

/// Square roots and reciprocal square roots in both precisions, the f32 one inside `1 / sqrt`
/// (the shape LLVM folds into `rsqrt.approx.f32` when the root is libdevice's approximation).
const SQUARE_ROOTS: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @roots {
    gpu.func @roots(%u: memref<?xf32>, %v: memref<?xf64>) kernel {
      %tx = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      %x = memref.load %u[%tx] : memref<?xf32>
      %s = math.sqrt %x : f32
      %r = arith.divf %one, %s : f32
      %q = math.rsqrt %r : f32
      memref.store %q, %u[%tx] : memref<?xf32>
      %y = memref.load %v[%tx] : memref<?xf64>
      %t = math.sqrt %y : f64
      %w = math.rsqrt %t : f64
      memref.store %w, %v[%tx] : memref<?xf64>
      gpu.return
    }
  }
}
"#;

/// Square roots must round as IEEE 754 says (and the reference interpreter computes): no
/// `sqrt.approx`/`rsqrt.approx` from libdevice's default `__CUDA_PREC_SQRT = 0`. An H200 run
/// found f32 `1 / sqrt` compiled to `rsqrt.approx.f32` (ptx::ieee_math says how it is built now).
#[test]
fn square_roots_are_correctly_rounded() {
    let Some(module) = compile_with_libdevice(SQUARE_ROOTS) else { return };
    let instructions: Vec<&str> = module.ptx.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(!instructions.iter().any(|i| i.contains("approx")), "{}", module.ptx);
    assert!(instructions.iter().any(|i| i.starts_with("sqrt.rn.f64")), "{}", module.ptx);
    assert!(instructions.iter().any(|i| i.starts_with("cvt.rn.f32.f64")), "{}", module.ptx);
    assemble(&module);
}
