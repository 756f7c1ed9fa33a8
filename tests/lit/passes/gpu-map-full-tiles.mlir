// gpu-map's default tile code (docs/passes.md, full-tiles and partial-tiles): a tile wholly
// inside the domain runs the full-tile loops — the tile's own bounds, no test per instance —
// and the other (partial) tiles run the same loops with each instance guarded by its domain,
// the same instances in the same order. Both stage the tile in workgroup memory the same way
// and share its buffers. Measured on an H200 (bench/results/2026-11-26-h200-98353b3), staged
// tiles of 16 run 1.3x (SOR-2D) to 2.7x (Jacobi-2D) faster this way than with the general
// loops in every tile (full-tiles=false partial-tiles=general, gpu-map.mlir).
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8 grid=4},canonicalize,cse)' | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8 grid=4 full-tiles=true partial-tiles=guarded},canonicalize,cse)' | FileCheck %s
// The defaults are not recorded; the general code is.
// CHECK:       stencil.gpu_mapping = {block = [8, 1, 1], grid = 4 : i64, intra = "first-hyperplane", shared_memory = {{[1-9][0-9]*}} : i64, staging = true, strategy = "wavefront", tile = [4]}
// CHECK:       gpu.func @fig_3_4_k0(%arg0: memref<?xf64>, %arg1: index, %arg2: index, %arg3: index) workgroup(%[[SH:.*]] : memref<11xf64, #gpu.address_space<workgroup>>, %[[MASK:.*]] : memref<12xi8, #gpu.address_space<workgroup>>)
// CHECK:           scf.if %[[FULL:.*]] {
// The full tile: stage (mask, barrier, load, barrier), then the intra-tile wavefronts with no
// test per instance.
// CHECK:             gpu.barrier
// CHECK:             memref.store %{{.*}}, %[[MASK]]
// CHECK:             gpu.barrier
// CHECK:             memref.load %arg0
// CHECK:             gpu.barrier
// A step has at most 4 points for the block's 8 threads, so each thread takes one point or
// none: a test of its turn, not a loop.
// CHECK:             scf.for %[[E1:.*]] = %{{.*}} to %{{.*}} step %c1 {
// CHECK:               %[[TURN:.*]] = arith.cmpi slt
// CHECK-NEXT:          scf.if %[[TURN]] {
// CHECK-NOT:             scf.if
// CHECK:                 memref.load %[[SH]]
// CHECK:                 memref.store %{{.*}}, %[[SH]]
// CHECK-NEXT:          }
// CHECK-NEXT:          gpu.barrier
// CHECK-NEXT:        }
// CHECK:           } else {
// A partial tile: the same loops, each instance guarded by the statement's domain.
// CHECK:             gpu.barrier
// CHECK:             memref.store %{{.*}}, %[[MASK]]
// CHECK:             gpu.barrier
// CHECK:             memref.load %arg0
// CHECK:             gpu.barrier
// CHECK:             scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 {
// CHECK:               scf.if %{{.*}} {
// CHECK:                 scf.if %{{.*}} {
// CHECK:                   memref.load %[[SH]]
// CHECK:                   memref.store %{{.*}}, %[[SH]]
// CHECK-NEXT:            }
// CHECK-NEXT:          }
// CHECK-NEXT:          gpu.barrier
// CHECK-NEXT:        }
// CHECK:           }
// CHECK:           gpu.return
stencil.program @fig_3_4(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %c, %e : f64
      %h = arith.constant 0.5 : f64
      %v = arith.mulf %s, %h : f64
      stencil.yield %v : f64
    }
  }
}
