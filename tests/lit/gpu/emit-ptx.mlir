// stencil-opt --emit=ptx: every gpu.module compiled to PTX by MLIR 22 (lower-affine,
// convert-scf-to-cf, convert-gpu-to-nvvm, convert-math-to-llvm, nvvm-attach-target,
// gpu-module-to-binary{format=isa}), after the pass pipeline. The header comments give each
// kernel's parameter ABI (docs/gpu.md). The lowering tests assemble such PTX with ptxas.
//
// RUN: stencil-opt %s --emit=ptx | FileCheck %s
// RUN: stencil-opt %s --emit=ptx --pass-pipeline='builtin.module(canonicalize,cse)' -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: stencil-opt %s --emit=ptx --gpu-chip=sm_80 | FileCheck %s --check-prefix=SM80
// 32-bit index: offsets, sizes, strides and index arguments become 32-bit parameters.
// RUN: stencil-opt %s --emit=ptx --gpu-index-bitwidth=32 | FileCheck %s --check-prefix=I32
// RUN: not stencil-opt %s --emit=ptx --gpu-index-bitwidth=16 2>&1 | FileCheck %s --check-prefix=I16
// I32:      //   arg 0: memref<?x?xf64> -> jacobi_5pt_param_0 .u64 allocated, jacobi_5pt_param_1 .u64 aligned, jacobi_5pt_param_2 .u32 offset, jacobi_5pt_param_3 .u32 size[0], jacobi_5pt_param_4 .u32 size[1], jacobi_5pt_param_5 .u32 stride[0], jacobi_5pt_param_6 .u32 stride[1]
// I32:      //   arg 1: index -> column_sweep_param_7 .u32 scalar
// I16:      error: --gpu-index-bitwidth: index bit width 16 is not supported (32 or 64)
// The IR itself is untouched by the option's default.
// RUN: stencil-opt %s | FileCheck %s --check-prefix=IR

// CHECK-LABEL: // stencil-opt ptx v1: gpu.module @jacobi chip=sm_90 index-bitwidth=64 fingerprint=sha256:{{[0-9a-f]{64}$}}
// CHECK-NEXT:  // kernel @jacobi_5pt
// CHECK-NEXT:  //   arg 0: memref<?x?xf64> -> jacobi_5pt_param_0 .u64 allocated, jacobi_5pt_param_1 .u64 aligned, jacobi_5pt_param_2 .u64 offset, jacobi_5pt_param_3 .u64 size[0], jacobi_5pt_param_4 .u64 size[1], jacobi_5pt_param_5 .u64 stride[0], jacobi_5pt_param_6 .u64 stride[1]
// CHECK-NEXT:  //   arg 1: memref<?x?xf64> -> jacobi_5pt_param_7 .u64 allocated, {{.*}}, jacobi_5pt_param_13 .u64 stride[1]
// CHECK-NEXT:  // kernel @column_sweep
// CHECK-NEXT:  //   arg 0: memref<?x64xf32> -> {{.*}} .u64 stride[1]
// CHECK-NEXT:  //   arg 1: index -> column_sweep_param_7 .u64 scalar
// CHECK-NEXT:  //   arg 2: f32 -> column_sweep_param_8 .f32 scalar
// CHECK:       .version 7.8
// CHECK-NEXT:  .target sm_90
// CHECK-NEXT:  .address_size 64
// CHECK:       .visible .entry jacobi_5pt(
// CHECK:       mov.u32 {{%r[0-9]+}}, %tid.x;
// CHECK:       ld.global.b64
// CHECK:       add.rn.f64
// The 0.2 of the 5-point average.
// CHECK:       mul.rn.f64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 0d3FC999999999999A;
// CHECK:       st.global.b64
// CHECK:       ret;
// CHECK:       .visible .entry column_sweep(
// CHECK:       .param .f32 column_sweep_param_8
// CHECK:       ret;

// SM80:      // stencil-opt ptx v1: gpu.module @jacobi chip=sm_80 index-bitwidth=64 fingerprint=sha256:{{[0-9a-f]{64}$}}
// SM80:      .version 7.0
// SM80-NEXT: .target sm_80
// SM80:      .visible .entry jacobi_5pt(

// IR: gpu.module @jacobi {
// IR: affine.for

module attributes {gpu.container_module} {
  gpu.module @jacobi {
    // One thread per interior point of an n×m grid, guarded for partial edge blocks.
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
    // An affine loop inside a kernel: one thread per row scales its 64 columns.
    gpu.func @column_sweep(%a: memref<?x64xf32>, %rows: index, %dt: f32) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %r0 = arith.muli %bx, %bdx : index
      %row = arith.addi %r0, %tx : index
      %valid = arith.cmpi ult, %row, %rows : index
      scf.if %valid {
        affine.for %k = 0 to 64 {
          %v = memref.load %a[%row, %k] : memref<?x64xf32>
          %w = arith.mulf %v, %dt : f32
          memref.store %w, %a[%row, %k] : memref<?x64xf32>
        }
      }
      gpu.return
    }
  }
}
