// gpu-map{naive} (docs/passes.md): the hand-written baseline, one kernel per apply per time
// step over the whole box, one thread per point: the innermost dimension on threads x
// (coalesced), the outer one on y, a grid covering the box (⌈extent / block⌉ blocks per axis,
// computed on the host; threads stride on only past CUDA's grid limits); no barriers.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive block=32,8},canonicalize,cse)' | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=naive block=32,8},canonicalize,cse)' | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive})' | mlir-opt --pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,reconcile-unrealized-casts),nvvm-attach-target{chip=sm_90},gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive strategy=overlapped})' 2>&1 | FileCheck %s --check-prefix=BOTH
// PTX: gpu.binary @jacobi_kernels
// BOTH: option 'naive' of pass 'gpu-map': contradicts the strategy option
// CHECK-LABEL: func.func @jacobi(
// CHECK-SAME:    stencil.gpu_mapping = {block = [32, 8, 1], points_per_thread = 1 : i64, strategy = "naive"}
// CHECK:        affine.for %[[T:.*]] = 0 to %arg2 {
// CHECK-NEXT:     %[[ROWS:.*]] = affine.apply affine_map<()[s0] -> ((s0 - 2) ceildiv 8)>()[%arg3]
// CHECK:          %[[COLS:.*]] = affine.apply affine_map<()[s0] -> ((s0 - 2) ceildiv 32)>()[%arg3]
// CHECK:          gpu.launch_func  @jacobi_kernels::@jacobi_k0 blocks in (%[[X:.*]], %[[Y:.*]], %c1) threads in (%c32, %c8, %c1)
// CHECK-NEXT:     gpu.launch_func  @jacobi_kernels::@jacobi_k1 blocks in (%[[X]], %[[Y]], %c1) threads in (%c32, %c8, %c1)
// CHECK-NEXT:   }
// CHECK:        gpu.func @jacobi_k0(
// CHECK:          %[[BX:.*]] = gpu.block_id  x
// CHECK-NEXT:     %[[BY:.*]] = gpu.block_id  y
// CHECK:          scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:            %[[BASE:.*]] = arith.muli %[[BX]], %block_dim_x : index
// CHECK-NEXT:       %[[J0:.*]] = arith.addi %[[BASE]], %thread_id_x : index
// CHECK:            scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:              memref.load %arg0[%[[I]], %[[J]]] : memref<?x?xf64>
// CHECK:              memref.store %{{.*}}, %arg1[%[[I]], %[[J]]] : memref<?x?xf64>
// CHECK-NOT:        gpu.barrier
// CHECK:        gpu.func @jacobi_k1(
stencil.program @jacobi(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %a = arith.addf %c, %n : f64
      %b = arith.addf %a, %s : f64
      stencil.yield %b : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, N - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
