// stencil-mlsor: the parallel multi-layer SOR method (thesis §6.4) from a recognised SOR
// iteration. One time step: K forward layers run as four kernels (tiles 11, 12, 21, 22), each a
// layer loop over a masked apply, then the mirror-image backward layers, anchored at the far
// corner by one-iteration iterates; recorded as sor.rewrite.
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4})' 2>/dev/null | FileCheck %s
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4})' 2>/dev/null | stencil-opt | FileCheck %s
// RUN: stencil-opt %S/../../../examples/ssor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=3 P=7 directions=forward})' 2>/dev/null | FileCheck %s --check-prefix=FWD
// Forward-only MLSOR schedules, tiles and maps to the GPU simulator, race-free and bit-identical.
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=14 --param M=11 --param T=2 --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4 directions=forward})' 2>/dev/null | FileCheck %s --check-prefix=REF
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=14 --param M=11 --param T=2 --target sim --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4 directions=forward},poly-schedule,poly-tile{sizes=4},gpu-map{block=8,8 staging=false})' 2>/dev/null | FileCheck %s --check-prefix=SIM
// MLSOR's own kernels (gpu-map{strategy=mlsor}, also what strategy=auto picks): one launch per
// kernel and sweep, each tile's layers in its own threads; same bits as the reference. By
// default 4 threads per tile (P = 4) run its anti-diagonals; tile-threads=1 is the thesis'
// one thread per tile, lexicographically.
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=14 --param M=11 --param T=2 --target sim --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4 directions=forward},gpu-map{strategy=auto})' 2>/dev/null | FileCheck %s --check-prefix=KERNELS
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=14 --param M=11 --param T=2 --target sim --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4 directions=forward},gpu-map{strategy=mlsor staging=false tile-threads=1})' 2>/dev/null | FileCheck %s --check-prefix=UNSTAGED
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4},gpu-map{strategy=mlsor tile-threads=4})' 2>/dev/null | FileCheck %s --check-prefix=KIR
// Another strategy refuses the rewrite's sweeps, and the error says which one maps them.
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4},gpu-map{naive})' 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: error: 'stencil.program' op gpu-map failed: gpu-map{naive} maps DOALL applies only
// OTHER: {{.*}}sor-2d-5pt.mlir:{{[0-9]+}}:{{[0-9]+}}: note: the program is a stencil-mlsor rewrite: gpu-map{strategy=mlsor} maps it with MLSOR's own kernels (strategy=auto takes them too)
// The default threads per tile, measured on an H200: one at P = 4, eight at P = 8 and 16.
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4},gpu-map{strategy=mlsor})' 2>/dev/null | FileCheck %s --check-prefix=AUTO4
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=4 P=8},gpu-map{strategy=mlsor})' 2>/dev/null | FileCheck %s --check-prefix=AUTO8
// AUTO4: stencil.gpu_mapping = {{{.*}}tile_threads = 1 : i64}
// AUTO8: stencil.gpu_mapping = {{{.*}}tile_threads = 8 : i64}
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4},gpu-map{strategy=mlsor tile-threads=1})' 2>/dev/null | FileCheck %s --check-prefix=LEX
// --check-after: the kernels checked against the rewritten program on the reference
// interpreter (a different MLSOR is a failure with a non-zero exit).
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=14 --param M=11 --param T=2 --target sim --check-after='builtin.module(stencil-mlsor{K=2 P=4})' --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4},gpu-map{strategy=mlsor})' 2>/dev/null | FileCheck %s --check-prefix=AFTER
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=14 --param M=11 --param T=2 --target sim --check-after='builtin.module(stencil-mlsor{K=2 P=4})' --pass-pipeline='builtin.module(stencil-mlsor{K=1 P=4},gpu-map{strategy=mlsor})' 2>&1 | FileCheck %s --check-prefix=AFTERBAD
// P = 16: the default block (8 threads per tile x 8 x 4 tiles) would stage 67 080 bytes, above
// the 48 KiB default; it is halved along its longest subdomain axis until it fits.
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=40 --param M=37 --param T=1 --target sim --check-after='builtin.module(stencil-mlsor{K=8 P=16})' --pass-pipeline='builtin.module(stencil-mlsor{K=8 P=16},gpu-map{strategy=mlsor})' 2>/dev/null | FileCheck %s --check-prefix=FIT
// --check-after on an affine input is refused before anything runs.
// RUN: not stencil-run %S/../../../examples/affine/sor-2d.mlir --check-after='builtin.module(stencil-rbsor)' 2>&1 | FileCheck %s --check-prefix=AFFINE
// Threads per tile in 3-D, a block whose x is not the tile's threads, more threads per tile
// than a block holds, a subdomain wider than 2^20: refused.
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor,gpu-map{strategy=mlsor tile-threads=5000})' 2>&1 | FileCheck %s --check-prefix=LANESMAX
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=99999999999})' 2>&1 | FileCheck %s --check-prefix=PMAX
// RUN: not stencil-opt %S/../../../examples/sor-3d-7pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4},gpu-map{strategy=mlsor tile-threads=4})' 2>&1 | FileCheck %s --check-prefix=LANES3D
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4},gpu-map{strategy=mlsor tile-threads=4 block=8,8})' 2>&1 | FileCheck %s --check-prefix=LANESX
// The kernels store the update itself: the mask holds on every point a thread visits, so its
// select and arithmetic are gone.
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4},gpu-map{strategy=mlsor staging=false})' 2>/dev/null | FileCheck %s --check-prefix=UNMASK
// A staged block that does not fit the shared-memory limit is refused with what to change.
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4},gpu-map{strategy=mlsor block=32,32})' 2>&1 | FileCheck %s --check-prefix=TOOBIG
// A program that is not an MLSOR rewrite is refused by the strategy.
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(gpu-map{strategy=mlsor})' 2>&1 | FileCheck %s --check-prefix=NOTMLSOR
// Errors: K above ⌊P/2⌋, unknown directions, a program that is not SOR.
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{K=3 P=5})' 2>&1 | FileCheck %s --check-prefix=BIGK
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor{directions=sideways})' 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-mlsor)' 2>&1 | FileCheck %s --check-prefix=JACOBI

// point_updates: T steps of 4 sweeps of the interior (stencil-run counts these, not the masked
// applies' instances: each updates part of its box).
// CHECK: attributes {sor.rewrite = {K = 2 : i64, P = 4 : i64, dependence_preserving = false, directions = "alternate", method = "mlsor", point_updates = {{\[\[}}affine_map<()[s0, s1, s2] -> (0)>, affine_map<()[s0, s1, s2] -> (s0)>, affine_map<()[s0, s1, s2] -> (1, 1)>, affine_map<()[s0, s1, s2] -> (s1 - 1, s2 - 1)>, affine_map<()[s0, s1, s2] -> (0)>, affine_map<()[s0, s1, s2] -> (4)>{{\]\]}}, sweeps_per_step = 4 : i64}}
// CHECK:      stencil.iterate %t = 0 to T {
// CHECK-NEXT:   stencil.iterate %t_0 = 0 to 2 {
// Each kernel's apply records its tile of the alternate tiling (parts per dimension).
// CHECK-NEXT:     stencil.apply @S_f11 writes %A over [1, 1] to [N - 1, M - 1] attributes {sor.mlsor_tile = {K = 2 : i64, P = 4 : i64, parts = [1, 1]}} {
// The layer's part-2 threshold P − 1 − 2l and, per dimension, x = i − 1, r = (x + P − l) rem P.
// CHECK:            %c4 = arith.constant 4 : index
// CHECK-NEXT:       %c3 = arith.constant 3 : index
// CHECK-NEXT:       %[[PL:.*]] = arith.subi %c4, %t_0 : index
// CHECK-NEXT:       %[[L2:.*]] = arith.addi %t_0, %t_0 : index
// CHECK-NEXT:       %[[TH:.*]] = arith.subi %c3, %[[L2]] : index
// CHECK-NEXT:       %i = stencil.index 0
// CHECK-NEXT:       %c1 = arith.constant 1 : index
// CHECK-NEXT:       %[[X:.*]] = arith.subi %i, %c1 : index
// CHECK-NEXT:       %[[Y:.*]] = arith.addi %[[X]], %[[PL]] : index
// CHECK-NEXT:       %[[R:.*]] = arith.remsi %[[Y]], %c4 : index
// Part 1: r < P − 1 − 2l, or the first subdomain's edge x < l.
// CHECK-NEXT:       %[[E:.*]] = arith.cmpi slt, %[[R]], %[[TH]] : index
// CHECK-NEXT:       %[[EDGE:.*]] = arith.cmpi slt, %[[X]], %t_0 : index
// CHECK-NEXT:       arith.ori %[[E]], %[[EDGE]] : i1
// CHECK:            %[[MASK:.*]] = arith.andi
// CHECK-NEXT:       %[[V:.*]] = arith.select %[[MASK]], %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:       stencil.yield %[[V]] : f64
// CHECK:        stencil.apply @S_f12 writes %A {{.*}} parts = [1, 2]
// CHECK:        stencil.apply @S_f21 writes %A {{.*}} parts = [2, 1]
// CHECK:        stencil.apply @S_f22 writes %A {{.*}} parts = [2, 2]
// Part 2 of a dimension: r ≥ P − 1 − 2l and x ≥ l.
// CHECK:          arith.cmpi sge, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:     arith.cmpi sge, %{{.*}}, %t_0 : index
// CHECK-NEXT:     arith.andi
// The backward sweep, mirrored at (N − 2, M − 2): x = e − i, points in reverse order.
// CHECK:        stencil.iterate %t_0 = N - 2 to N - 1 {
// CHECK-NEXT:     stencil.iterate %t_1 = M - 2 to M - 1 {
// CHECK-NEXT:       stencil.iterate %t_2 = 0 to 2 {
// CHECK-NEXT:         stencil.apply @S_b11 writes %A over [1, 1] to [N - 1, M - 1] order reverse attributes {sor.mlsor_tile = {K = 2 : i64, P = 4 : i64, parts = [1, 1]}} {
// CHECK:                arith.subi %t_0, %i : index
// CHECK:              stencil.apply @S_b12 writes %A over [1, 1] to [N - 1, M - 1] order reverse attributes {{.*}} parts = [1, 2]
// CHECK:              stencil.apply @S_b21 writes %A over [1, 1] to [N - 1, M - 1] order reverse attributes {{.*}} parts = [2, 1]
// CHECK:              stencil.apply @S_b22 writes %A over [1, 1] to [N - 1, M - 1] order reverse attributes {{.*}} parts = [2, 2]

// An SSOR iteration (a forward and a reverse sweep) becomes one MLSOR step, forward only here.
// FWD: attributes {sor.rewrite = {K = 3 : i64, P = 7 : i64, dependence_preserving = false, directions = "forward", method = "mlsor", point_updates = {{\[\[}}affine_map<()[s0, s1, s2] -> (0)>, affine_map<()[s0, s1, s2] -> (s0)>, affine_map<()[s0, s1, s2] -> (1, 1)>, affine_map<()[s0, s1, s2] -> (s1 - 1, s2 - 1)>, affine_map<()[s0, s1, s2] -> (0)>, affine_map<()[s0, s1, s2] -> (3)>{{\]\]}}, sweeps_per_step = 3 : i64}}
// FWD: stencil.iterate %t_0 = 0 to 3 {
// FWD: stencil.apply @F_f11
// FWD: stencil.apply @F_f22
// FWD-NOT: order reverse

// REF: field    A [14x11] f64: checksum {{.*}} bits 3764f2d77e30d9c0
// SIM: races 0
// SIM: field    A [14x11] f64: checksum {{.*}} bits 3764f2d77e30d9c0

// Each block stages its region in shared memory: a barrier after the load, one after each
// anti-diagonal of each layer, one before and one after the store.
// KERNELS: mapping  mlsor: block=32x8x1 grid=per-subdomain staging=true shared_memory=34056 auto="an MLSOR program (stencil-mlsor): the method's own kernels" layers=2 subdomain=4 tile_threads=1
// KERNELS: sim      8 launches, {{.*}} races 0
// KERNELS: field    A [14x11] f64: checksum {{.*}} bits 3764f2d77e30d9c0
// UNSTAGED: mapping  mlsor: block=32x8x1 grid=per-subdomain staging=false shared_memory=0 layers=2 subdomain=4 tile_threads=1
// UNSTAGED: sim      8 launches, {{.*}} 0 barriers, {{.*}} races 0
// UNSTAGED: field    A [14x11] f64: checksum {{.*}} bits 3764f2d77e30d9c0

// Each apply records its tile; the host launches each kernel once per step (the layer loop is
// in the kernel), eight launches per alternate step.
// KIR: stencil.gpu_mapping = {block = [4, 8, 8], grid = "per-subdomain", layers = 2 : i64, shared_memory = 8712 : i64, staging = true, strategy = "mlsor", subdomain = 4 : i64, tile_threads = 4 : i64}
// KIR-COUNT-8: gpu.launch_func
// KIR-NOT: gpu.launch_func
// KIR: gpu.module
// Block → region of subdomains (grid-stride), the region loaded into the shared buffer, a
// barrier; the layer loop 0 to K; per layer the anti-diagonals, each an active thread's rows
// (its lane, then every 4th) and a barrier; the region stored back between barriers.
// KIR: gpu.func @sor_2d_5pt_k0({{.*}}) workgroup(%[[BUF:.*]] : memref<33x33xf64, #gpu.address_space<workgroup>>)
// KIR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// KIR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// KIR: memref.store %{{.*}}, %[[BUF]]
// KIR: gpu.barrier
// The layer loop runs K + min(E, 0) = K times (a bound LLVM does not unroll).
// KIR: %[[E:.*]] = arith.minsi %{{.*}}, %c0{{.*}} : index
// KIR-NEXT: %[[K:.*]] = arith.addi %c2{{.*}}, %[[E]] : index
// KIR-NEXT: scf.for %[[L:.*]] = %c0{{.*}} to %[[K]] step %{{.*}} {
// KIR: scf.for %{{.*}} = %c0{{.*}} to %{{.*}} step %{{.*}} {
// KIR-NEXT: scf.if
// KIR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4{{.*}} {
// KIR: memref.load %[[BUF]]
// KIR: gpu.barrier
// KIR: gpu.barrier
// KIR: memref.load %[[BUF]]
// KIR: gpu.barrier

// One thread per tile: the layer loop in the active threads, the tile's rows and points.
// LEX: gpu.func @sor_2d_5pt_k0({{.*}}) workgroup(%[[BUF:.*]] : memref<33x129xf64, #gpu.address_space<workgroup>>)
// LEX: gpu.barrier
// LEX: scf.for %[[L:.*]] = %c0{{.*}} to %c2 step %{{.*}} {
// LEX-NEXT: scf.if
// LEX: arith.minsi %[[L]], %{{.*}} : index
// LEX: scf.for
// LEX: scf.for
// LEX: memref.load %[[BUF]]
// LEX: gpu.barrier

// AFTER: check    against the program after builtin.module(stencil-mlsor{K=2 P=4}) on ref (bit-exact): passed
// AFTERBAD: check    against the program after builtin.module(stencil-mlsor{K=2 P=4}) on ref (bit-exact): FAILED

// FIT: mapping  mlsor: block=8x4x4 grid=per-subdomain staging=true shared_memory=33800 layers=8 subdomain=16 tile_threads=8
// FIT: races 0
// FIT: check    against the program after builtin.module(stencil-mlsor{K=8 P=16}) on ref (bit-exact): passed

// AFFINE: error: --check-after compares with a transformed stencil program; an affine input is checked against its own function (use --check)

// LANESMAX: option 'tile-threads' of pass 'gpu-map': 5000; give 1 to 1024 (a block's threads at most; 0: automatic)
// PMAX: pass 'stencil-mlsor': P=99999999999: subdomains are at most 1048576 points wide

// LANES3D: tile-threads=4: several threads per tile run its anti-diagonals, in 2-D only; this program is 3-D (use tile-threads=1)
// LANESX: tile-threads=4 puts a tile's threads on x: the block's x must be 4, not 8

// UNMASK: gpu.func @sor_2d_5pt_k0
// UNMASK-NOT: arith.select
// UNMASK-NOT: arith.remsi
// UNMASK: arith.mulf
// UNMASK-NOT: arith.select
// UNMASK: memref.store
// UNMASK-NEXT: }
// UNMASK: gpu.func @sor_2d_5pt_k1

// TOOBIG: gpu-map{strategy=mlsor} failed: a block of 32x32x1 threads stages 133128 bytes of shared memory (P=4), above shared-memory=49152: give a smaller block, a larger shared-memory (up to 232448 on an H100) or staging=false

// NOTMLSOR: error: 'stencil.program' op gpu-map{strategy=mlsor} failed: S is not an MLSOR kernel (no 'sor.mlsor_tile' attribute): this strategy maps programs stencil-mlsor rewrote; use the wavefront or naive strategy for others

// BIGK: pass 'stencil-mlsor': K=3 with P=5: K must be between 1 and ⌊P/2⌋ = 2
// DIR: option 'directions' of pass 'stencil-mlsor': unknown directions 'sideways'; expected one of: alternate, forward
// JACOBI: error: 'stencil.access' op is not an SOR update: reads field 'A'; an SOR update reads only the field it writes ('B')
