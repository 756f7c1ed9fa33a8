// gpu-map{strategy=overlapped} on PolyBench Jacobi-2D's two fields (docs/passes.md): B is
// written by the first apply before any read, over one box, but `A = f(B)` reads B's boundary
// outside that box. So B is loaded only outside the box (only where a tile's halo leaves it),
// and needs no second buffer: only A alternates. Every launch computes B's box before reading
// it, so B is written back only by the launch that runs the last step (`end − t0 ≤ time-tile`),
// A by every launch (into the buffer the next launch reads). Bit-exact and race-free on the simulator for
// tiles that meet the boundary at every side, odd and even launch counts, f32 and f64.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=overlapped tile=8,16 time-tile=2})' | FileCheck %s --check-prefix=MAP
// MAP: stencil.gpu_mapping = {block = [32, 8, 1], second_buffers = ["A"]
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=overlapped tile=8,16 time-tile=2},canonicalize,cse)' | FileCheck %s --check-prefix=BACK
// BACK:      gpu.func @pj2d_k0(%[[A:.*]]: memref<?x?xf64>, %[[B:.*]]: memref<?x?xf64>, %{{.*}}: index, %{{.*}}: index, %[[A2:.*]]: memref<?x?xf64>, %[[T0:.*]]: index)
// BACK:      %[[LEFT:.*]] = arith.subi %{{.*}}, %[[T0]] : index
// BACK:      %[[LAST:.*]] = arith.cmpi sle, %[[LEFT]], %c2 : index
// BACK:      memref.store %{{.*}}, %[[A2]]
// BACK:      scf.if %[[LAST]] {
// BACK:        memref.store %{{.*}}, %[[B]]
// BACK:      gpu.return
// RUN: stencil-run %s --param T=5 --param N=21 --pass-pipeline='builtin.module(gpu-map{strategy=overlapped tile=8,16 time-tile=2})' --target sim --check | FileCheck %s
// RUN: stencil-run %s --param T=4 --param N=13 --pass-pipeline='builtin.module(gpu-map{strategy=overlapped tile=4,4 time-tile=3 block=8,4})' --target sim --check | FileCheck %s
// RUN: stencil-run %s --param T=7 --param N=30 --pass-pipeline='builtin.module(gpu-map{strategy=overlapped tile=16,8 time-tile=1})' --target sim --check | FileCheck %s
// CHECK: races 0
// CHECK: check    against the untransformed program on ref (bit-exact): passed

stencil.program @pj2d(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 3, N = 16] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[0, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s = stencil.access %A[1, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s0 = arith.addf %c, %w : f64
      %s1 = arith.addf %s0, %e : f64
      %s2 = arith.addf %s1, %s : f64
      %s3 = arith.addf %s2, %n : f64
      %fifth = arith.constant 0.2 : f64
      %v = arith.mulf %fifth, %s3 : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %B[0, 0] : f64
      %w = stencil.access %B[0, -1] : f64
      %e = stencil.access %B[0, 1] : f64
      %s = stencil.access %B[1, 0] : f64
      %n = stencil.access %B[-1, 0] : f64
      %s0 = arith.addf %c, %w : f64
      %s1 = arith.addf %s0, %e : f64
      %s2 = arith.addf %s1, %s : f64
      %s3 = arith.addf %s2, %n : f64
      %fifth = arith.constant 0.2 : f64
      %v = arith.mulf %fifth, %s3 : f64
      stencil.yield %v : f64
    }
  }
}
