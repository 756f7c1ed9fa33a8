// canonicalize on memref: memref.dim of a static dimension folds to an arith.constant, and of
// a dynamic dimension of an alloc/alloca to the size operand given there; other dims stay.
// Buffers that are only stored into and freed are erased with their stores and deallocs.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(canonicalize)' | stencil-opt | FileCheck %s

// CHECK-LABEL: func.func @dims(
// CHECK-SAME:      %[[M:.*]]: memref<4x?xf32>, %[[N:.*]]: index, %[[I:.*]]: index) -> (index, index, index, index) {
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[A:.*]] = memref.alloca(%[[N]]) : memref<8x?xf32>
// CHECK-NEXT:    %[[D:.*]] = memref.dim %[[M]], %[[C1]] : memref<4x?xf32>
// CHECK-NEXT:    %[[E:.*]] = memref.dim %[[A]], %[[I]] : memref<8x?xf32>
// CHECK-NEXT:    return %[[C4]], %[[N]], %[[D]], %[[E]] : index, index, index, index
func.func @dims(%m: memref<4x?xf32>, %n: index, %i: index) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloca(%n) : memref<8x?xf32>
  %static = memref.dim %m, %c0 : memref<4x?xf32>
  %sized = memref.dim %a, %c1 : memref<8x?xf32>
  %unknown = memref.dim %m, %c1 : memref<4x?xf32>
  %dynamic_index = memref.dim %a, %i : memref<8x?xf32>
  return %static, %sized, %unknown, %dynamic_index : index, index, index, index
}

// CHECK-LABEL: func.func @dead_buffers(
// CHECK-SAME:      %[[V:.*]]: f32, %[[I:.*]]: index, %[[S:.*]]: memref<4xmemref<4xf32>>) -> f32 {
// CHECK-NEXT:    %[[ESC:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.store %[[ESC]], %[[S]][%[[I]]] : memref<4xmemref<4xf32>>
// CHECK-NEXT:    %[[READ:.*]] = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    memref.store %[[V]], %[[READ]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[READ]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    return %[[X]] : f32
func.func @dead_buffers(%v: f32, %i: index, %s: memref<4xmemref<4xf32>>) -> f32 {
  %unused = memref.alloc() : memref<4xf32>
  %written = memref.alloc() : memref<4xf32>
  memref.store %v, %written[%i] : memref<4xf32>
  memref.dealloc %written : memref<4xf32>
  %escapes = memref.alloc() : memref<4xf32>
  memref.store %escapes, %s[%i] : memref<4xmemref<4xf32>>
  %read = memref.alloca() : memref<4xf32>
  memref.store %v, %read[%i] : memref<4xf32>
  %x = memref.load %read[%i] : memref<4xf32>
  %dead_load = memref.load %read[%i] : memref<4xf32>
  return %x : f32
}
