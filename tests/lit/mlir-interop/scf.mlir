// The scf dialect through real MLIR and back: our custom and generic output parse in mlir-opt
// 22, mlir-opt's output (custom and generic) parses in stencil-opt, and the result is the same
// program. Also checks that MLIR lowers what we print to the cf dialect.
//
// RUN: stencil-opt %s | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | mlir-opt --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: mlir-opt %s | stencil-opt | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s | mlir-opt --convert-scf-to-cf | FileCheck %s --check-prefix=CF

// CHECK-LABEL: func.func @control_flow(
// CHECK-SAME:      %[[LB:.*]]: index, %[[UB:.*]]: index, %[[ST:.*]]: index, %[[C:.*]]: i1, %[[X:.*]]: f32, %[[M:.*]]: memref<?xf32>, %[[A:.*]]: i32, %[[B:.*]]: i32) -> f32 {
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[ST]] {
// CHECK-NEXT:      memref.store %[[X]], %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[ST]] iter_args(%[[ACC:.*]] = %[[X]]) -> (f32) {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:      memref.store %[[ACC]], %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:      scf.yield %[[V]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for unsigned %{{.*}} = %[[A]] to %[[B]] step %[[A]]  : i32 {
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Y:.*]] = scf.if %[[C]] -> (f32) {
// CHECK-NEXT:      scf.yield %[[R]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[X]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      memref.store %[[Y]], %[[M]][%[[LB]]] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[P:.*]] = scf.parallel (%[[I:.*]]) = (%[[LB]]) to (%[[UB]]) step (%[[ST]]) init (%[[X]]) -> f32 {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:      scf.reduce(%[[V]] : f32) {
// CHECK-NEXT:      ^bb0(%[[L:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:        scf.reduce.return %[[L]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[LB]], %[[LB]]) to (%[[UB]], %[[UB]]) step (%[[ST]], %[[ST]]) {
// CHECK-NEXT:      memref.store %[[P]], %[[M]][%[[J]]] : memref<?xf32>
// CHECK-NEXT:      scf.reduce {{$}}
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[W:.*]] = scf.while (%[[ARG:.*]] = %[[A]]) : (i32) -> i32 {
// CHECK-NEXT:      scf.condition(%[[C]]) %[[ARG]] : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: i32):
// CHECK-NEXT:      scf.yield %[[E]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[P]] : f32

// CF-LABEL: func.func @control_flow(
// CF-NOT:     scf.
// CF:         cf.cond_br
// CF:         return
func.func @control_flow(%lb: index, %ub: index, %st: index, %c: i1, %x: f32, %m: memref<?xf32>, %a: i32, %b: i32) -> f32 {
  scf.for %i = %lb to %ub step %st {
    memref.store %x, %m[%i] : memref<?xf32>
  }
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %x) -> (f32) {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %acc, %m[%i] : memref<?xf32>
    scf.yield %v : f32
  }
  scf.for unsigned %k = %a to %b step %a : i32 {
  }
  %y = scf.if %c -> (f32) {
    scf.yield %r : f32
  } else {
    scf.yield %x : f32
  }
  scf.if %c {
    memref.store %y, %m[%lb] : memref<?xf32>
  }
  %p = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%x) -> f32 {
    %v = memref.load %m[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %rr: f32):
      scf.reduce.return %l : f32
    }
  }
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%st, %st) {
    memref.store %p, %m[%j] : memref<?xf32>
  }
  %w = scf.while (%arg = %a) : (i32) -> i32 {
    scf.condition(%c) %arg : i32
  } do {
  ^bb0(%e: i32):
    scf.yield %e : i32
  }
  return %p : f32
}
