// The affine dialect through real MLIR and back: our custom and generic output parse in
// mlir-opt 22, mlir-opt's output (custom and generic, with `#map`/`#set` aliases) parses in
// stencil-opt, and the result is the same program. Also checks that MLIR lowers what we print
// (-lower-affine) to scf and arith.
//
// RUN: stencil-opt %s | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | mlir-opt --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: mlir-opt %s | stencil-opt | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s | mlir-opt --lower-affine | FileCheck %s --check-prefix=LOWERED --implicit-check-not=affine.

#tile_end = affine_map<(d0)[s0] -> (d0 + 32, s0 - 1)>
#edge = affine_set<(d0)[s0] : (d0 - 1 >= 0, s0 - d0 - 2 >= 0)>

// CHECK-LABEL: func.func @jacobi(
// CHECK-SAME: %[[IN:[a-z0-9_]+]]: memref<?x?xf32>, %[[OUT:[a-z0-9_]+]]: memref<?x?xf32>, %[[N:[a-z0-9_]+]]: index, %[[M:[a-z0-9_]+]]: index) {
// CHECK-NEXT: affine.for %[[ARG4:[a-z0-9_]+]] = 1 to affine_map<()[s0] -> (s0 - 1)>()[%[[N]]] step 32 {
// CHECK-NEXT: affine.for %[[ARG5:[a-z0-9_]+]] = affine_map<(d0) -> (d0)>(%[[ARG4]]) to min affine_map<(d0)[s0] -> (d0 + 32, s0 - 1)>(%[[ARG4]])[%[[N]]] {
// CHECK-NEXT: affine.for %[[ARG6:[a-z0-9_]+]] = 1 to affine_map<()[s0] -> (s0 - 1)>()[%[[M]]] {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = affine.load %[[IN]][%[[ARG5]], %[[ARG6]]] : memref<?x?xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = affine.load %[[IN]][%[[ARG5]], %[[ARG6]] - 1] : memref<?x?xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = affine.load %[[IN]][%[[ARG5]], %[[ARG6]] + 1] : memref<?x?xf32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = affine.load %[[IN]][%[[ARG5]] - 1, %[[ARG6]]] : memref<?x?xf32>
// CHECK-NEXT: %[[V4:[a-z0-9_]+]] = affine.load %[[IN]][%[[ARG5]] + 1, %[[ARG6]]] : memref<?x?xf32>
// CHECK-NEXT: %[[V5:[a-z0-9_]+]] = arith.addf %[[V1]], %[[V2]] : f32
// CHECK-NEXT: %[[V6:[a-z0-9_]+]] = arith.addf %[[V3]], %[[V4]] : f32
// CHECK-NEXT: %[[V7:[a-z0-9_]+]] = arith.addf %[[V5]], %[[V6]] : f32
// CHECK-NEXT: %[[V8:[a-z0-9_]+]] = arith.addf %[[V7]], %[[V0]] : f32
// CHECK-NEXT: affine.store %[[V8]], %[[OUT]][%[[ARG5]], %[[ARG6]]] : memref<?x?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
// LOWERED-LABEL: func.func @jacobi(
// LOWERED-COUNT-3: scf.for
// LOWERED-COUNT-5: memref.load
// LOWERED: memref.store
func.func @jacobi(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %n: index, %m: index) {
  affine.for %ti = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] step 32 {
    affine.for %i = affine_map<(d0) -> (d0)>(%ti) to min #tile_end(%ti)[%n] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%m] {
        %c = affine.load %in[%i, %j] : memref<?x?xf32>
        %l = affine.load %in[%i, %j - 1] : memref<?x?xf32>
        %r = affine.load %in[%i, %j + 1] : memref<?x?xf32>
        %u = affine.load %in[%i - 1, %j] : memref<?x?xf32>
        %d = affine.load %in[%i + 1, %j] : memref<?x?xf32>
        %s0 = arith.addf %l, %r : f32
        %s1 = arith.addf %u, %d : f32
        %s2 = arith.addf %s0, %s1 : f32
        %s = arith.addf %s2, %c : f32
        affine.store %s, %out[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @guarded(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<?xf32>, %[[N:[a-z0-9_]+]]: index) -> f32 {
// CHECK-NEXT: %[[CST:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = affine.for %[[ARG2:[a-z0-9_]+]] = 0 to %[[N]] iter_args(%[[ARG3:[a-z0-9_]+]] = %[[CST]]) -> (f32) {
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 2 >= 0)>(%[[ARG2]])[%[[N]]] -> f32 {
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = affine.load %[[A]][%[[ARG2]]] : memref<?xf32>
// CHECK-NEXT: affine.yield %[[V3]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.yield %[[CST]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = arith.addf %[[ARG3]], %[[V1]] : f32
// CHECK-NEXT: affine.yield %[[V2]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V0]] : f32
// CHECK-NEXT: }
// LOWERED-LABEL: func.func @guarded(
// LOWERED: scf.for
// LOWERED: scf.if
// LOWERED: memref.load
func.func @guarded(%a: memref<?xf32>, %n: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sum = affine.for %i = 0 to %n iter_args(%acc = %zero) -> (f32) {
    %v = affine.if #edge(%i)[%n] -> f32 {
      %x = affine.load %a[%i] : memref<?xf32>
      affine.yield %x : f32
    } else {
      affine.yield %zero : f32
    }
    %t = arith.addf %acc, %v : f32
    affine.yield %t : f32
  }
  return %sum : f32
}

// CHECK-LABEL: func.func @tiles(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<?x?xf32>, %[[N:[a-z0-9_]+]]: index, %[[M:[a-z0-9_]+]]: index) -> f32 {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = affine.parallel (%[[ARG3:[a-z0-9_]+]], %[[ARG4:[a-z0-9_]+]]) = (0, 0) to (%[[N]], min(%[[M]], 64)) step (4, 2) reduce ("addf") -> (f32) {
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = affine.max affine_map<(d0)[s0] -> (d0 - 2, s0 floordiv 8)>(%[[ARG3]])[%[[N]]]
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = affine.min affine_map<(d0)[s0] -> (d0 + 2, s0 - 1)>(%[[ARG4]])[%[[M]]]
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = affine.apply affine_map<(d0, d1) -> (d0 * 3 - d1 ceildiv 2 + (d0 + d1) mod 5)>(%[[ARG3]], %[[ARG4]])
// CHECK-NEXT: %[[V4:[a-z0-9_]+]] = affine.load %[[A]][%[[ARG3]], %[[V3]]] : memref<?x?xf32>
// CHECK-NEXT: %[[V5:[a-z0-9_]+]] = arith.subi %[[V2]], %[[V1]] : index
// CHECK-NEXT: %[[V6:[a-z0-9_]+]] = arith.index_cast %[[V5]] : index to i64
// CHECK-NEXT: %[[V7:[a-z0-9_]+]] = arith.sitofp %[[V6]] : i64 to f32
// CHECK-NEXT: %[[V8:[a-z0-9_]+]] = arith.mulf %[[V4]], %[[V7]] : f32
// CHECK-NEXT: affine.yield %[[V8]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V0]] : f32
// CHECK-NEXT: }
// LOWERED-LABEL: func.func @tiles(
// LOWERED: scf.parallel
// LOWERED: arith.minsi
// LOWERED: scf.reduce
func.func @tiles(%a: memref<?x?xf32>, %n: index, %m: index) -> f32 {
  %total = affine.parallel (%i, %j) = (0, 0) to (%n, min(%m, 64)) step (4, 2) reduce ("addf") -> (f32) {
    %lo = affine.max affine_map<(d0)[s0] -> (d0 - 2, s0 floordiv 8)>(%i)[%n]
    %hi = affine.min affine_map<(d0)[s0] -> (d0 + 2, s0 - 1)>(%j)[%m]
    %k = affine.apply affine_map<(d0, d1) -> (d0 * 3 - d1 ceildiv 2 + (d0 + d1) mod 5)>(%i, %j)
    %x = affine.load %a[%i, %k] : memref<?x?xf32>
    %span = arith.subi %hi, %lo : index
    %w = arith.index_cast %span : index to i64
    %f = arith.sitofp %w : i64 to f32
    %y = arith.mulf %x, %f : f32
    affine.yield %y : f32
  }
  return %total : f32
}
