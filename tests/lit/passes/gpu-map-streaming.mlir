// gpu-map{strategy=streaming} (docs/passes.md): temporal blocking that streams along the
// outermost dimension. A block owns a column (a chunk of `tile[0]` rows times a plane tile of
// `tile[1]` points); a launch runs `time-tile` steps, pipelined along the stream: at stream step
// %p it loads row %p of A (read before written), then runs S0@0 on row p−1 (S0 reads one row
// above), S1@0 on row p−1 (S1 reads no other row), S0@1 on row p−2, S1@1 on row p−2, a barrier
// after each. Each instance writes its own ring of rows in workgroup memory, as deep as its
// readers need: A loaded (read by S0@0 at rows q−1…q+1 one step later: 3), B after S0@0 (read
// at its own row, copied by S0@1 one step later: 2), A after S1@0 (read by S0@1 at q−1…q+1: 3),
// B after S0@1 (the last version, written back and read by S1@1: 1). A after S1@1 is the last
// version too, which nothing reads: no ring, it goes back from the value itself. The plane
// tile of 128 is grown by the reach of the instances after each (2 for the loaded A), the
// stream by 2 rows. B goes back after the time loop's last step only, so the kernel holds the
// stream loop twice: for the launch that runs that step, and for the others (no store to B).
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=64,128 time-tile=2 block=128},canonicalize,cse)' | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming})' | FileCheck %s --check-prefix=DEFAULT
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=64,128 shared-memory=1024})' 2>&1 | FileCheck %s --check-prefix=SHARED
// A chunk too long for the index range (it costs no shared memory, so only this check bounds it):
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=9223372036854775807,128})' 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: 'stencil.program' op gpu-map{strategy=streaming} failed: tiles of 9223372036854775807×128 with {{[0-9]+}} time step(s) overflow the index range
// DEFAULT: stencil.gpu_mapping = {block = [32, 8, 1], second_buffers = ["A"], shared_memory = {{[0-9]+}} : i64, strategy = "streaming", tile = [128, 256], time_tile = {{[1-8]}} : i64}
// SHARED: tiles of 64×128 with 1 time step(s) need {{[0-9]+}} bytes of shared memory per block (2 fields: A, B), above the limit of 1024 bytes
// prefetch=true: each thread keeps its elements of a loaded row in registers (128 points over
// 64 threads: 2). The first row is loaded and stored before the loop, behind a barrier; the
// second is loaded there too. At step %p the thread stores row %p + 1 (loaded a step earlier)
// into the ring, which holds one row more (4), and loads row %p + 2; the instances' barriers
// order the stores before their readers, so the loads have no barrier of their own. Run on the
// simulator: bit-identical to the program and race-free.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=64,128 time-tile=2 block=64 prefetch=true},canonicalize,cse)' | FileCheck %s --check-prefix=PREFETCH
// RUN: stencil-run %s --param T=5 --param N=150 --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=64,128 time-tile=2 block=64 prefetch=true})' --target sim --check | FileCheck %s --check-prefix=PREFETCH-SIM
// One step per launch: S1 is a pure copy of what S0 just computed (A = B at the point), which
// nothing reads in the launch. In a column where both rows are full (one test per
// stream step), S0 writes B and A's second buffer (%arg4) back from its value, and stores it into
// B's ring only where the two run apart; S1 does nothing there. Edge columns run S0 and S1 apart.
// Run on the simulator at N = 300 (three column tiles of 128: the middle one full): bit-identical
// and race-free.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=64,128 time-tile=1 block=128},canonicalize,cse)' | FileCheck %s --check-prefix=FUSED
// RUN: stencil-run %s --param T=5 --param N=300 --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=64,128 time-tile=1 block=128})' --target sim --check | FileCheck %s --check-prefix=FUSED-SIM
// FUSED:      gpu.func @jacobi_k0(
// FUSED:        %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f64
// FUSED-NEXT:   %[[V:.*]] = arith.addf %[[S]], %{{.*}} : f64
// FUSED-NEXT:   scf.if %[[FUSED:.*]] {
// FUSED-NEXT:   } else {
// FUSED-NEXT:     memref.store %[[V]], %{{.*}} : memref<1x128xf64, #gpu.address_space<workgroup>>
// FUSED-NEXT:   }
// FUSED:        memref.store %[[V]], %arg1[
// FUSED:        memref.store %[[V]], %arg4[
// FUSED:        gpu.barrier
// FUSED-NEXT:   scf.if %[[FUSED]] {
// FUSED-NEXT:   } else {
// FUSED-SIM: sim {{.*}} races 0
// FUSED-SIM: check {{.*}}: passed
// Registers are bounded: at most 64 prefetched elements per thread.
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=4,1024 block=8 prefetch=true})' 2>&1 | FileCheck %s --check-prefix=PREFETCH-MANY
// PREFETCH-MANY: error: 'stencil.program' op gpu-map{strategy=streaming} failed: prefetching would keep 128 elements of a plane per thread (more than 64): use a larger block or a smaller plane tile, or prefetch=false
// PREFETCH:      stencil.gpu_mapping = {block = [64, 1, 1], prefetch = true, second_buffers = ["A"]
// PREFETCH:      gpu.func @jacobi_k0(
// PREFETCH-SAME:   workgroup(%[[LA:.*]] : memref<4x128xf64, #gpu.address_space<workgroup>>,
// PREFETCH:        %[[FIRST:.*]] = arith.subi %{{.*}}, %c2 : index
// PREFETCH:        %[[V0:.*]] = scf.if %{{.*}} -> (f64) {
// PREFETCH-NEXT:     memref.load %arg0[%[[FIRST]], %{{.*}}] : memref<?x?xf64>
// PREFETCH:        memref.store %[[V0]], %[[LA]]
// PREFETCH:        gpu.barrier
// PREFETCH:        %[[SECOND:.*]] = arith.addi %[[FIRST]], %c1 : index
// PREFETCH:        %[[W0:.*]] = scf.if %{{.*}} -> (f64) {
// PREFETCH-NEXT:     memref.load %arg0[%[[SECOND]], %{{.*}}] : memref<?x?xf64>
// PREFETCH:        %[[W1:.*]] = scf.if %{{.*}} -> (f64) {
// PREFETCH:        scf.for %[[P:.*]] = %[[FIRST]] to %{{.*}} step %c1 iter_args(%[[R0:.*]] = %[[W0]], %[[R1:.*]] = %[[W1]]) -> (f64, f64) {
// PREFETCH-NEXT:     %[[FOLLOWING:.*]] = arith.addi %[[P]], %c1 : index
// PREFETCH:            %[[SLOT:.*]] = arith.remsi %[[FOLLOWING]], %c4 : index
// PREFETCH:            memref.store %[[R0]], %[[LA]][%[[SLOT]], %{{.*}}]
// PREFETCH:            memref.store %[[R1]], %[[LA]][%[[SLOT]], %{{.*}}]
// PREFETCH:          %[[AFTER:.*]] = arith.addi %[[P]], %c2 : index
// PREFETCH:          %[[N0:.*]] = scf.if %{{.*}} -> (f64) {
// PREFETCH-NEXT:       memref.load %arg0[%[[AFTER]], %{{.*}}] : memref<?x?xf64>
// PREFETCH:          %[[N1:.*]] = scf.if %{{.*}} -> (f64) {
// PREFETCH-NOT:      gpu.barrier
// PREFETCH:          memref.load %[[LA]]
// PREFETCH:          gpu.barrier
// PREFETCH:          scf.yield %[[N0]], %[[N1]] : f64, f64
// PREFETCH-SIM: sim {{.*}} races 0
// PREFETCH-SIM: check {{.*}}: passed
// CHECK-LABEL: func.func @jacobi(
// CHECK-SAME:    stencil.gpu_mapping = {block = [128, 1, 1], second_buffers = ["A"], shared_memory = 9216 : i64, strategy = "streaming", tile = [64, 128], time_tile = 2 : i64}
// CHECK:         %[[CHUNKS:.*]] = arith.ceildivsi %arg3, %c64 : index
// CHECK:         %[[TILES:.*]] = arith.ceildivsi %arg3, %c128 : index
// CHECK:         gpu.launch_func  @jacobi_kernels::@jacobi_k0 blocks in (%{{.*}}, %{{.*}}, %c1) threads in (%c128, %c1, %c1)
// CHECK:       gpu.func @jacobi_k0(
// CHECK-SAME:    workgroup(%[[LA:.*]] : memref<3x128xf64, #gpu.address_space<workgroup>>, %[[B1:.*]] : memref<2x128xf64, #gpu.address_space<workgroup>>, %[[A2:.*]] : memref<3x128xf64, #gpu.address_space<workgroup>>, %[[B3:.*]] : memref<1x128xf64, #gpu.address_space<workgroup>>)
// The launch that runs the last step: end − t0 ≤ time-tile.
// CHECK:         %[[LEFT:.*]] = arith.subi %arg2, %arg5 : index
// CHECK:         %[[LAST:.*]] = arith.cmpi sle, %[[LEFT]], %c2 : index
// CHECK:         %[[ROW0:.*]] = arith.muli %block_id_y, %c64 : index
// CHECK:         %[[FIRST:.*]] = arith.subi %[[ROW0]], %c2 : index
// CHECK:         scf.if %[[LAST]] {
// CHECK:         %[[END:.*]] = arith.addi %[[ROW0]], %c66 : index
// CHECK:         scf.for %[[P:.*]] = %[[FIRST]] to %[[END]] step %c1 {
// The load of row %p into its slot of A's ring.
// CHECK:           %[[SLOT:.*]] = arith.remsi %[[P]], %c3 : index
// CHECK:           memref.load %arg0[%[[P]], %{{.*}}] : memref<?x?xf64>
// CHECK:           memref.store %{{.*}}, %[[LA]][%[[SLOT]], %{{.*}}]
// CHECK:         gpu.barrier
// S0@0 on row p−1 reads rows q−1, q, q+1 of the loaded ring and writes B's first version.
// CHECK:           %[[Q:.*]] = arith.subi %[[P]], %c1 : index
// CHECK:           memref.load %[[LA]]
// CHECK:           memref.load %[[LA]]
// CHECK:           memref.load %[[LA]]
// CHECK:           memref.store %{{.*}}, %[[B1]]
// CHECK:         gpu.barrier
// S1@0: A's second version from B's first.
// CHECK:           memref.load %[[B1]]
// CHECK:           memref.store %{{.*}}, %[[A2]]
// CHECK:         gpu.barrier
// S0@1 on row p−2, from A's second version; where it does not compute it copies B's first.
// CHECK:           %[[Q2:.*]] = arith.subi %[[P]], %c2 : index
// B's write-back (below): in this loop (the last launch's), the rows of the column's chunk.
// CHECK:           %[[IN0:.*]] = arith.cmpi sge, %[[Q2]], %[[ROW0]] : index
// CHECK-NEXT:      %[[IN1:.*]] = arith.cmpi slt, %[[Q2]], %{{.*}} : index
// CHECK-NEXT:      %[[BACK:.*]] = arith.andi %[[IN0]], %[[IN1]] : i1
// A full column (its row inside S0's box, in a step that computes) computes every point with
// no test per point, and the last version of B goes back to B (its column only: B's last
// version has no halo, so the launch's test is the whole test).
// CHECK:           scf.if %{{.*}} {
// CHECK:             memref.load %[[A2]]
// CHECK:             memref.store %{{.*}}, %[[B3]]
// CHECK-NEXT:        scf.if %[[BACK]] {
// CHECK:               memref.load %[[B3]]
// CHECK:               memref.store %{{.*}}, %arg1[%[[Q2]], %{{.*}}] : memref<?x?xf64>
// The other columns test each point against the box.
// CHECK:           } else {
// CHECK:             memref.load %[[A2]]
// CHECK:             memref.store %{{.*}}, %[[B3]]
// CHECK:           } else {
// CHECK:             memref.load %[[B1]]
// CHECK:             memref.store %{{.*}}, %[[B3]]
// CHECK:           scf.if %[[BACK]] {
// CHECK:             memref.load %[[B3]]
// CHECK:             memref.store %{{.*}}, %arg1[%[[Q2]], %{{.*}}] : memref<?x?xf64>
// CHECK:         gpu.barrier
// S1@1: the last version of A goes to the second buffer (A alternates between launches),
// straight from the value read.
// CHECK:           %[[COPIED:.*]] = memref.load %[[B3]]
// CHECK-NEXT:      scf.if %{{[0-9]+}} {
// CHECK-NEXT:        memref.store %[[COPIED]], %arg4[%[[Q2]], %{{.*}}] : memref<?x?xf64>
// CHECK:         gpu.barrier
// CHECK-NEXT:  }
// The other launches: the same loop without B's write-back; A still goes to the second buffer.
// CHECK-NEXT: } else {
// CHECK:         scf.for
// CHECK-NOT:       %arg1[
// CHECK:           memref.store %{{.*}}, %arg4[
// CHECK-NOT:       %arg1[
// CHECK:         gpu.barrier
// CHECK-NEXT:  }
// CHECK-NEXT: }
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
      %c = stencil.access %B[0, 0] : f64
      stencil.yield %c : f64
    }
  }
}
