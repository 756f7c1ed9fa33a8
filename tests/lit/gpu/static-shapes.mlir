// gpu-map{static-shapes=true} (docs/gpu.md, "Flat addresses"): the fields typed with the
// problem sizes --param gives, so strides are constants in the kernels and every neighbour of
// the stencil is an immediate offset of one address in the PTX, the rows above and below too
// (48 f64 elements: ±384 bytes). The code runs at those sizes only (the types say so, and a
// PTX file's fingerprint with them); without sizes the option is refused.
// RUN: stencil-opt %s --param N=64 --param M=48 --pass-pipeline='builtin.module(gpu-map{naive static-shapes=true})' | FileCheck %s --check-prefix=IR
// IR: func.func @rows(%arg0: memref<64x48xf64>, %arg1: memref<64x48xf64>, %arg2: index, %arg3: index, %arg4: index)
// IR: gpu.func @rows_k0(%arg0: memref<64x48xf64>, %arg1: memref<64x48xf64>
// RUN: stencil-opt %s --param N=64 --param M=48 --pass-pipeline='builtin.module(gpu-map{naive static-shapes=true})' --emit=ptx --gpu-index-bitwidth=32 | FileCheck %s --check-prefix=PTX
// PTX: .entry rows_k0
// PTX-DAG: ld.global.b64 {{%rd[0-9]+}}, [[[C:%rd[0-9]+]]+-384];
// PTX-DAG: ld.global.b64 {{%rd[0-9]+}}, [[[C]]+384];
// PTX-DAG: ld.global.b64 {{%rd[0-9]+}}, [[[C]]+-8];
// PTX-DAG: ld.global.b64 {{%rd[0-9]+}}, [[[C]]+8];
// PTX: .entry rows_k1
// RUN: stencil-run %s --param N=40 --param M=30 --param T=3 --pass-pipeline='builtin.module(gpu-map{naive static-shapes=true})' --target sim --check | FileCheck %s --check-prefix=SIM
// SIM: check    {{.*}}(bit-exact): passed
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive static-shapes=true})' 2>&1 | FileCheck %s --check-prefix=NOSIZES
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=auto static-shapes=true})' 2>&1 | FileCheck %s --check-prefix=NOSIZES
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{static-shapes=true})' 2>&1 | FileCheck %s --check-prefix=NOSIZES
// NOSIZES: static-shapes.mlir:[[# @LINE + 7]]:1: error: 'stencil.program' op gpu-map failed: static-shapes=true types the fields with the problem sizes, and none were given: give them with --param
//
// An affine input: the raised function's wrapper casts its dynamic memrefs to the static ones.
// RUN: stencil-opt %S/../../../examples/affine/jacobi-2d.mlir --param arg0=4 --param arg1=14 --pass-pipeline='builtin.module(raise-affine-to-stencil,gpu-map{naive static-shapes=true})' | FileCheck %s --check-prefix=AFFINE
// AFFINE: memref.cast %arg2 : memref<?x?xf64> to memref<14x14xf64>
// AFFINE: func.call @kernel_jacobi_2d_stencil(
// RUN: stencil-run %S/../../../examples/affine/jacobi-2d.mlir --param arg0=4 --param arg1=14 --check --target sim --pass-pipeline='builtin.module(gpu-map{naive static-shapes=true})' | FileCheck %s --check-prefix=SIM
stencil.program @rows(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 4, N = 32, M = 32] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %a = arith.addf %w, %e : f64
      %b = arith.addf %n, %s : f64
      %v = arith.addf %a, %b : f64
      %u = arith.addf %v, %c : f64
      stencil.yield %u : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %B[0, 0] : f64
      stencil.yield %c : f64
    }
  }
}
