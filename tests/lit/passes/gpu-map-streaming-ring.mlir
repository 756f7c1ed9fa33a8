// gpu-map{strategy=streaming} on ping-pong programs whose second field is a stencil's input
// (PolyBench Jacobi-2D and heat-3d, docs/passes.md): B is written by the first apply of a step
// before any read, over one box, but `A = f(B)` reads B's boundary outside that box. B is
// therefore not loaded: its first version takes B's own values outside the box (nothing ever
// writes them), only A alternates with a second buffer, and B is written back — inside its box
// only — by the launch that runs the last step. Bit-exact and race-free on the simulator with
// and without prefetch, 1 to 3 steps per launch, odd and even launch counts, partial launches.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=8,16 time-tile=2})' | FileCheck %s --check-prefix=MAP
// MAP: stencil.gpu_mapping = {block = [32, 8, 1], second_buffers = ["A"]
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=8,16 time-tile=2},canonicalize,cse)' | FileCheck %s --check-prefix=IR
// B's first version, outside the box: B's own value, read where B is (in the columns at the
// field's edges: the others lie in the box, and run without the test, docs/passes.md).
// IR:      gpu.func @pj2d_k0(%{{[a-z0-9]+}}: memref<?x?xf64>, %[[B:[a-z0-9]+]]: memref<?x?xf64>,
// IR:        } else {
// IR:        } else {
// IR-NEXT:     memref.load %[[B]]
// RUN: stencil-run %s --param T=5 --param N=21 --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=8,16 time-tile=2})' --target sim --check | FileCheck %s
// RUN: stencil-run %s --param T=4 --param N=13 --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=4,4 time-tile=3 block=8,4 prefetch=true})' --target sim --check | FileCheck %s
// RUN: stencil-run %s --param T=7 --param N=30 --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=16,8 time-tile=1 prefetch=true})' --target sim --check | FileCheck %s
// occupancy=model: the tile kernel asks for the blocks per SM that keep 32 warps resident (8 of
// 4 warps here), as many as the shared memory allows (overlapped tiles of 100 KiB: 2 of the 4 that 8-warp blocks want); the copy kernel
// asks for nothing. The naive strategy has no such model.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=8,16 time-tile=2 block=128 occupancy=model})' | FileCheck %s --check-prefix=OCC
// OCC: min_blocks_per_sm = 8 : i64
// OCC: gpu.func @pj2d_k0({{.*}} kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 8 : i32}
// OCC: gpu.func @pj2d_k1({{.*}} kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=overlapped tile=64,64 time-tile=4 shared-memory=232448 occupancy=model})' | FileCheck %s --check-prefix=OCC-SHARED
// OCC-SHARED: min_blocks_per_sm = 2 : i64
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=naive occupancy=model})' 2>&1 | FileCheck %s --check-prefix=OCC-NAIVE
// OCC-NAIVE: error: option 'occupancy' of pass 'gpu-map': occupancy=model asks ptxas for the blocks per SM a model plans{{.*}}strategy=naive without block=auto has neither
// RUN: stencil-run %S/../../../examples/polybench-heat-3d.mlir --param T=3 --param N=11 --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=4,4,8 time-tile=2 prefetch=true})' --target sim --check | FileCheck %s --check-prefixes=CHECK,HEAT
// HEAT: second_buffers=A
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
