// The memref dialect through real MLIR and back: our custom and generic output parse in
// mlir-opt 22, mlir-opt's output (custom and generic, with its `#map` aliases) parses in
// stencil-opt, and the result is the same program. Also checks that MLIR lowers what we print
// to the LLVM dialect.
//
// RUN: stencil-opt %s | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | mlir-opt --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: mlir-opt %s | stencil-opt | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s | mlir-opt --pass-pipeline='builtin.module(func.func(convert-arith-to-llvm), finalize-memref-to-llvm, convert-func-to-llvm, reconcile-unrealized-casts)' | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @memref_ops(
// CHECK-SAME:      %[[N:.*]]: index, %[[M:.*]]: index, %[[S:.*]]: index, %[[I:.*]]: index, %[[V:.*]]: f32) -> f32 {
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x8xf32>
// CHECK-NEXT:    %{{.*}} = memref.alloc(%[[N]], %[[M]])[%[[S]]] : memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
// CHECK-NEXT:    %[[C:.*]] = memref.alloca(%[[N]]) : memref<?xf32>
// CHECK-NEXT:    %{{.*}} = memref.alloca() : memref<32xf32, 3>
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[A]][%[[I]], %[[N]]] : memref<4x8xf32>
// CHECK-NEXT:    memref.store %[[V]], %[[B]][%[[I]], %[[N]]] {nontemporal = true} : memref<?x8xf32>
// CHECK-NEXT:    %[[Y:.*]] = memref.load %[[B]][%[[I]], %[[N]]] {alignment = 16 : i64} : memref<?x8xf32>
// CHECK-NEXT:    memref.store %[[X]], %[[C]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:    %dim = memref.dim %[[B]], %[[I]] : memref<?x8xf32>
// CHECK-NEXT:    %[[E:.*]] = memref.cast %[[B]] : memref<?x8xf32> to memref<4x8xf32>
// CHECK-NEXT:    memref.copy %[[A]], %[[E]] : memref<4x8xf32> to memref<4x8xf32>
// CHECK-NEXT:    %[[U:.*]] = memref.cast %[[A]] : memref<4x8xf32> to memref<*xf32>
// CHECK-NEXT:    %{{.*}} = memref.dim %[[U]], %[[I]] : memref<*xf32>
// CHECK-NEXT:    memref.copy %[[U]], %[[B]] : memref<*xf32> to memref<?x8xf32>
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<?x8xf32>
// CHECK-NEXT:    memref.dealloc %[[U]] : memref<*xf32>
// CHECK-NEXT:    return %[[Y]] : f32
func.func @memref_ops(%n: index, %m: index, %s: index, %i: index, %v: f32) -> f32 {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc(%n) {alignment = 64 : i64} : memref<?x8xf32>
  %b2 = memref.alloc(%n, %m)[%s] : memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
  %c = memref.alloca(%n) : memref<?xf32>
  %w = memref.alloca() : memref<32xf32, 3>
  %x = memref.load %a[%i, %n] : memref<4x8xf32>
  memref.store %v, %b[%i, %n] {nontemporal = true} : memref<?x8xf32>
  %y = memref.load %b[%i, %n] {alignment = 16 : i64} : memref<?x8xf32>
  memref.store %x, %c[%i] : memref<?xf32>
  %d = memref.dim %b, %i : memref<?x8xf32>
  %e = memref.cast %b : memref<?x8xf32> to memref<4x8xf32>
  memref.copy %a, %e : memref<4x8xf32> to memref<4x8xf32>
  %u = memref.cast %a : memref<4x8xf32> to memref<*xf32>
  %du = memref.dim %u, %i : memref<*xf32>
  memref.copy %u, %b : memref<*xf32> to memref<?x8xf32>
  memref.dealloc %b : memref<?x8xf32>
  memref.dealloc %u : memref<*xf32>
  return %y : f32
}

// LLVM-LABEL: llvm.func @memref_ops(
// LLVM:         llvm.call @malloc
// LLVM:         llvm.call @memrefCopy
// LLVM:         llvm.call @free
// LLVM:         llvm.return
// LLVM-NOT:     memref.

// Strided layouts (linalg's views) go through MLIR and back unchanged.
// CHECK-LABEL: func.func @strided(
// CHECK-SAME: memref<?x?xf64, strided<[?, 1], offset: ?>>, %{{.*}}: memref<2xf32, strided<[3], offset: 5>>
// CHECK: memref.load %{{.*}} : memref<?x?xf64, strided<[?, 1], offset: ?>>
func.func @strided(%b: memref<?x?xf64, strided<[?, 1], offset: ?>>, %c: memref<2xf32, strided<[3], offset: 5>>, %i: index) -> f64 {
  %x = memref.load %b[%i, %i] : memref<?x?xf64, strided<[?, 1], offset: ?>>
  return %x : f64
}

// memref.reinterpret_cast: dynamic index lists mixing values and integers, attributes, an
// identity and a strided result; MLIR lowers it to the LLVM dialect (a new descriptor).
// CHECK-LABEL: func.func @views(
// CHECK-SAME:      %[[M:.*]]: memref<?x?xf64>, %[[N:.*]]: index, %[[O:.*]]: index)
// CHECK-NEXT:    %[[F:.*]] = memref.reinterpret_cast %[[M]] to offset: [0], sizes: [%[[N]]], strides: [1] {note} : memref<?x?xf64> to memref<?xf64>
// CHECK-NEXT:    %{{.*}} = memref.reinterpret_cast %[[M]] to offset: [%[[O]]], sizes: [4, %[[N]]], strides: [%[[N]], 1] : memref<?x?xf64> to memref<4x?xf64, strided<[?, 1], offset: ?>>
// CHECK-NEXT:    %{{.*}} = memref.load %[[F]][%[[O]]] : memref<?xf64>
func.func @views(%m: memref<?x?xf64>, %n: index, %o: index) -> f64 {
  %flat = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] {note} : memref<?x?xf64> to memref<?xf64>
  %tile = memref.reinterpret_cast %m to offset: [%o], sizes: [4, %n], strides: [%n, 1] : memref<?x?xf64> to memref<4x?xf64, strided<[?, 1], offset: ?>>
  %x = memref.load %flat[%o] : memref<?xf64>
  return %x : f64
}
// LLVM-LABEL: llvm.func @views(
// LLVM-NOT:     memref.
// LLVM:         llvm.return
