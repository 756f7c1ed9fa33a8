// canonicalize on scf: control flow decided at compile time is removed (constant scf.if
// conditions, scf.for loops with constant trip counts of 0 or 1, empty bodies without
// results); everything else is left alone. The result is what mlir-opt --canonicalize gives,
// except that MLIR also turns scf.if yields of outer values into arith.select.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(canonicalize)' | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(canonicalize)' --mlir-print-op-generic | stencil-opt | FileCheck %s

// A constant-true scf.if becomes its then-region; results are the yielded values.
// CHECK-LABEL: func.func @if_true(
// CHECK-SAME:      %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[M:.*]]: memref<4xf32>, %[[I:.*]]: index) -> f32 {
// CHECK-NEXT:    memref.store %[[X]], %[[M]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    return %[[S]] : f32
// CHECK-NEXT:  }
func.func @if_true(%x: f32, %y: f32, %m: memref<4xf32>, %i: index) -> f32 {
  %true = arith.constant true
  %r = scf.if %true -> (f32) {
    memref.store %x, %m[%i] : memref<4xf32>
    %s = arith.addf %x, %y : f32
    scf.yield %s : f32
  } else {
    scf.yield %y : f32
  }
  return %r : f32
}

// A constant-false scf.if without else disappears; with an else it becomes the else-region.
// CHECK-LABEL: func.func @if_false(
// CHECK-SAME:      %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[M:.*]]: memref<4xf32>, %[[I:.*]]: index) -> f32 {
// CHECK-NEXT:    memref.store %[[Y]], %[[M]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    return %[[Y]] : f32
// CHECK-NEXT:  }
func.func @if_false(%x: f32, %y: f32, %m: memref<4xf32>, %i: index) -> f32 {
  %false = arith.constant false
  scf.if %false {
    memref.store %x, %m[%i] : memref<4xf32>
  }
  %r = scf.if %false -> (f32) {
    scf.yield %x : f32
  } else {
    memref.store %y, %m[%i] : memref<4xf32>
    scf.yield %y : f32
  }
  return %r : f32
}

// Loops that run zero times (constant lb >= ub, or the same value as both bounds) are
// replaced by their initial values.
// CHECK-LABEL: func.func @zero_trip(
// CHECK-SAME:      %[[X:.*]]: f32, %{{.*}}: index, %{{.*}}: memref<4xf32>) -> (f32, f32) {
// CHECK-NEXT:    return %[[X]], %[[X]] : f32, f32
// CHECK-NEXT:  }
func.func @zero_trip(%x: f32, %n: index, %m: memref<4xf32>) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c4 to %c0 step %c1 iter_args(%acc = %x) -> (f32) {
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  }
  %r2 = scf.for %i = %n to %n step %c1 iter_args(%acc = %x) -> (f32) {
    memref.store %acc, %m[%i] : memref<4xf32>
    scf.yield %acc : f32
  }
  return %r, %r2 : f32, f32
}

// A loop that runs once becomes its body: the induction variable is the lower bound, the
// iter_args are the initial values and the results are the yielded values.
// CHECK-LABEL: func.func @single_trip(
// CHECK-SAME:      %[[X:.*]]: f32, %[[M:.*]]: memref<4xf32>) -> f32 {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %[[X]], %[[M]][%[[C0]]] : memref<4xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[X]], %[[X]] : f32
// CHECK-NEXT:    return %[[S]] : f32
// CHECK-NEXT:  }
func.func @single_trip(%x: f32, %m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c4 iter_args(%acc = %x) -> (f32) {
    memref.store %acc, %m[%i] : memref<4xf32>
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// The same with i32 bounds (3 to 5 step 7); the cast of the lower bound then folds too.
// CHECK-LABEL: func.func @single_trip_i32(
// CHECK-SAME:      %[[X:.*]]: f32, %[[M:.*]]: memref<4xf32>) -> f32 {
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    memref.store %[[X]], %[[M]][%[[C3]]] : memref<4xf32>
// CHECK-NEXT:    return %[[X]] : f32
// CHECK-NEXT:  }
func.func @single_trip_i32(%x: f32, %m: memref<4xf32>) -> f32 {
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %r = scf.for %i = %c3 to %c5 step %c7 iter_args(%acc = %x) -> (f32) : i32 {
    %j = arith.index_cast %i : i32 to index
    memref.store %acc, %m[%j] : memref<4xf32>
    scf.yield %acc : f32
  }
  return %r : f32
}

// Loops and conditionals without results whose bodies are empty are erased.
// CHECK-LABEL: func.func @empty(
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @empty(%c: i1, %lb: index, %ub: index, %st: index) {
  scf.for %i = %lb to %ub step %st {
  }
  scf.if %c {
  } else {
  }
  return
}

// Non-constant conditions, unknown trip counts and loops that run more than once stay.
// CHECK-LABEL: func.func @kept(
// CHECK-SAME:      %[[C:.*]]: i1, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[N:.*]]: index, %[[M:.*]]: memref<4xf32>) -> (f32, f32, f32) {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[C]] -> (f32) {
// CHECK-NEXT:      memref.store %[[X]], %[[M]][%[[C0]]] : memref<4xf32>
// CHECK-NEXT:      scf.yield %[[X]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[Y]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R2:.*]] = scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[A:.*]] = %[[X]]) -> (f32) {
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[A]], %[[A]] : f32
// CHECK-NEXT:      scf.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R3:.*]] = scf.for %{{.*}} = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[A:.*]] = %[[Y]]) -> (f32) {
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[A]], %[[A]] : f32
// CHECK-NEXT:      scf.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]], %[[R2]], %[[R3]] : f32, f32, f32
// CHECK-NEXT:  }
func.func @kept(%c: i1, %x: f32, %y: f32, %n: index, %m: memref<4xf32>) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.if %c -> (f32) {
    memref.store %x, %m[%c0] : memref<4xf32>
    scf.yield %x : f32
  } else {
    scf.yield %y : f32
  }
  %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  }
  %r3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %y) -> (f32) {
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  }
  return %r, %r2, %r3 : f32, f32, f32
}
