// 2-D Jacobi as poly-schedule writes it — B = f(A) at (t, 2t+i, 2t+j), A = B one point later,
// no statement-order row — tiled with tiles of 16: poly-tile appends the textual order as a
// row, so time is the intra-tile wavefront and each step runs S0's points, a barrier, S1's
// points, a barrier, one point per thread with no test per point (before: the skewed
// wavefront t+c1+c2, 46 steps a tile with a quarter of the lanes busy). A full tile keeps
// `t < T` as the bound of its time loop, so a run shorter than the time tile (T=3 here) still
// takes the full-tile code in the tiles the run does not clip otherwise.
// Staged (gpu-map's model would put these tiles on global memory at the example's default
// sizes): the steps work on workgroup memory.
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map{staging=true})' | FileCheck %s
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=70 --param M=53 --param T=3 --target sim --check --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map)' | FileCheck %s --check-prefix=SIM
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=40 --param M=37 --param T=21 --target sim --check --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map)' | FileCheck %s --check-prefix=SIM
// With sizes=auto and intra=auto the first hyperplane is taken as with given sizes (no skew
// search: on the H200 the skewed layouts ran 3-6x slower). intra=model has the tile model time
// both intra-tile wavefronts and keep the faster prediction: time at this small size, the
// skewed one at 16384² (a prediction the GPU refuted: docs/tile-models.md).
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=16384 --param M=16384 --param T=50 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto})' --explain-tile-sizes | FileCheck %s --check-prefix=AUTO-DEFAULT
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=96 --param M=96 --param T=8 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto intra=model})' --explain-tile-sizes | FileCheck %s --check-prefix=AUTO-SMALL
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=16384 --param M=16384 --param T=50 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto intra=model})' --explain-tile-sizes | FileCheck %s --check-prefix=AUTO-LARGE
// AUTO-DEFAULT-NOT: intra=auto: the model chose
// AUTO-DEFAULT:  poly.tiling = {auto = {{{.*}}}, inter = "wavefront", intra = "auto"
// AUTO-DEFAULT-NOT: intra_by_model
// AUTO-SMALL:  // intra=model: the model chose the first-hyperplane intra-tile wavefront ({{[0-9.]+}} ms); no skewed layout is predicted faster
// AUTO-SMALL:  poly.tiling = {auto = {{{.*}}intra_by_model = true{{.*}}}, inter = "wavefront", intra = "auto"
// AUTO-LARGE:  // intra=model: the model chose the skewed intra-tile wavefront ({{[0-9.]+}} ms); the best first-hyperplane layout takes {{[0-9.]+}} ms
// AUTO-LARGE:  poly.tiling = {auto = {{{.*}}intra_by_model = true{{.*}}other_intra_s = {{.*}}}, inter = "wavefront", intra = "skew"
// CHECK:       gpu.func @jacobi_2d_5pt_k0(
// The full tile, after staging: the time loop, bounded by T (%arg2).
// CHECK:       %[[TEND:.*]] = arith.minsi %{{.*}}, %arg2 : index
// CHECK-NEXT:  scf.for %{{.*}} = %{{.*}} to %[[TEND]] step %c1 {
// S0 over the tile's 16x16 (c1, c2) box on the 16x16 block: exactly one point per thread,
// with neither loop nor test.
// CHECK-NOT:     scf.if
// CHECK-NOT:     scf.for
// CHECK:         memref.store %{{.*}} : memref<47x47xf64, #gpu.address_space<workgroup>>
// CHECK-NEXT:    gpu.barrier
// S1 (A = B) over the same box, one point later.
// CHECK-NOT:     scf.if
// CHECK-NOT:     scf.for
// CHECK:         memref.store %{{.*}} : memref<48x48xf64, #gpu.address_space<workgroup>>
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:  }
// CHECK:       } else {
// SIM:         mapping  wavefront: tile=16 block=16x16x1
// SIM:         races 0
// SIM:         check    against the untransformed program on ref (bit-exact): passed
