// stencil-rbsor: red-black SOR from a recognised SOR iteration. Two DOALL ping-pong applies per
// sweep through the copy field %A_rb (initialised once), each the program's own update under a
// parity mask; recorded as sor.rewrite. It runs on the reference interpreter and, mapped naively
// (one kernel per apply and step), on the GPU simulator, race-free and bit-identical.
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-rbsor)' 2>/dev/null | FileCheck %s
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-rbsor)' 2>/dev/null | stencil-opt | FileCheck %s
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(stencil-rbsor)' 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=20 --param M=17 --param T=3 --pass-pipeline='builtin.module(stencil-rbsor)' 2>/dev/null | FileCheck %s --check-prefix=REF
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=20 --param M=17 --param T=3 --target sim --pass-pipeline='builtin.module(stencil-rbsor,gpu-map{naive})' 2>/dev/null | FileCheck %s --check-prefix=SIM

// CHECK: stencil.program @sor_2d_5pt(%A: !stencil.field<[N, M] x f64>, %omega: f64, %A_rb: !stencil.field<[N, M] x f64>)
// CHECK-SAME: attributes {sor.rewrite = {copy = "A_rb", dependence_preserving = false, method = "rbsor", point_updates = {{\[\[}}affine_map<()[s0, s1, s2] -> (0)>, affine_map<()[s0, s1, s2] -> (s0)>, affine_map<()[s0, s1, s2] -> (1, 1)>, affine_map<()[s0, s1, s2] -> (s1 - 1, s2 - 1)>, affine_map<()[s0, s1, s2] -> (0)>, affine_map<()[s0, s1, s2] -> (1)>{{\]\]}}, sweeps_per_step = 1 : i64}}
// CHECK:      stencil.apply @A_rb_init writes %A_rb over [0, 0] to [N, M] {
// CHECK-NEXT:   %[[C:.*]] = stencil.access %A[0, 0] : f64
// CHECK-NEXT:   stencil.yield %[[C]] : f64
// CHECK:      stencil.iterate %t = 0 to T {
// CHECK-NEXT:   stencil.apply @S_red writes %A_rb over [1, 1] to [N - 1, M - 1] {
// CHECK-NEXT:     %[[RC:.*]] = stencil.access %A[0, 0] : f64
// CHECK:          %i = stencil.index 0
// CHECK-NEXT:     %j = stencil.index 1
// CHECK-NEXT:     %[[S:.*]] = arith.addi %i, %j : index
// CHECK-NEXT:     %c2 = arith.constant 2 : index
// CHECK-NEXT:     %[[P:.*]] = arith.remsi %[[S]], %c2 : index
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %[[RED:.*]] = arith.cmpi eq, %[[P]], %c0 : index
// CHECK-NEXT:     %[[V:.*]] = arith.select %[[RED]], %{{.*}}, %[[RC]] : f64
// CHECK-NEXT:     stencil.yield %[[V]] : f64
// CHECK:        stencil.apply @S_black writes %A over [1, 1] to [N - 1, M - 1] {
// CHECK-NEXT:     stencil.access %A_rb[0, 0] : f64
// CHECK-NEXT:     stencil.access %A_rb[-1, 0] : f64
// CHECK:          arith.cmpi eq, %{{.*}}, %c1 : index

// WARN: sor-2d-5pt.mlir:{{[0-9]+}}:{{[0-9]+}}: warning: rbsor: rewrote an SOR iteration (1 sweep per step); the result is not dependence-preserving

// The same bits on both targets:
// REF: field    A [20x17] f64: checksum {{.*}} bits 178b0a83fbdc1bcd
// SIM: races 0
// SIM: field    A [20x17] f64: checksum {{.*}} bits 178b0a83fbdc1bcd
