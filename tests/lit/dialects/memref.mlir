// The memref dialect in custom form: alloc/alloca (dynamic sizes, layout symbols, alignment,
// memory spaces), dealloc, load/store (rank 0 and 2, nontemporal and alignment), dim, copy
// and cast (ranked and unranked). The printed text is MLIR 22's, including the `%alloc`,
// `%alloca`, `%dim` and `%cast` names and `operandSegmentSizes` kept out of the custom form.
// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @allocations(
// CHECK-SAME:      %[[N:.*]]: index, %[[M:.*]]: index, %[[S:.*]]: index) {
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x8xf32>
// CHECK-NEXT:    %{{.*}} = memref.alloc(%[[N]], %[[M]])[%[[S]]] : memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
// CHECK-NEXT:    %[[C:.*]] = memref.alloca(%[[N]]) : memref<?xf32, 3>
// CHECK-NEXT:    %{{.*}} = memref.alloca() {alignment = 16 : i64, note = "scratch"} : memref<f32>
// CHECK-NEXT:    %{{.*}} = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<?x8xf32>
// CHECK-NEXT:    memref.dealloc %[[A]] {note = "done"} : memref<4x8xf32>
// CHECK-NEXT:    return
// GENERIC-LABEL: "func.func"() <{function_type = (index, index, index) -> (), sym_name = "allocations"}> ({
// GENERIC-NEXT:  ^bb0(%[[N:.*]]: index, %[[M:.*]]: index, %[[S:.*]]: index):
// GENERIC-NEXT:    %[[A:.*]] = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x8xf32>
// GENERIC-NEXT:    %[[B:.*]] = "memref.alloc"(%[[N]]) <{alignment = 64 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?x8xf32>
// GENERIC-NEXT:    %{{.*}} = "memref.alloc"(%[[N]], %[[M]], %[[S]]) <{operandSegmentSizes = array<i32: 2, 1>}> : (index, index, index) -> memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
// GENERIC-NEXT:    %{{.*}} = "memref.alloca"(%[[N]]) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32, 3>
// GENERIC-NEXT:    %{{.*}} = "memref.alloca"() <{alignment = 16 : i64, operandSegmentSizes = array<i32: 0, 0>}> {note = "scratch"} : () -> memref<f32>
// GENERIC-NEXT:    %{{.*}} = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<32xf32, #gpu.address_space<workgroup>>
// GENERIC-NEXT:    "memref.dealloc"(%[[B]]) : (memref<?x8xf32>) -> ()
// GENERIC-NEXT:    "memref.dealloc"(%[[A]]) {note = "done"} : (memref<4x8xf32>) -> ()
// GENERIC-NEXT:    "func.return"() : () -> ()
func.func @allocations(%n: index, %m: index, %s: index) {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc(%n) {alignment = 64} : memref<?x8xf32>
  %b2 = memref.alloc(%n, %m)[%s] : memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
  %c = memref.alloca(%n) : memref<?xf32, 3>
  %d = memref.alloca() {note = "scratch", alignment = 16 : i64} : memref<f32>
  %e = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
  memref.dealloc %b : memref<?x8xf32>
  memref.dealloc %a {note = "done"} : memref<4x8xf32>
  return
}

// The result names are MLIR's: `%alloc`, `%alloca`, `%dim`, `%cast`, made unique by suffixes.
// CHECK-LABEL: func.func @names(
// CHECK-NEXT:    %alloc = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    %alloc_0 = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    %alloca = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    %dim = memref.dim %alloc, %arg0 : memref<4xf32>
// CHECK-NEXT:    %cast = memref.cast %alloc : memref<4xf32> to memref<?xf32>
// CHECK-NEXT:    return
func.func @names(%i: index) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloca() : memref<4xf32>
  %d = memref.dim %a, %i : memref<4xf32>
  %e = memref.cast %a : memref<4xf32> to memref<?xf32>
  return
}

// `nontemporal = false` is the default value: the custom form leaves it out, the generic
// form keeps what was written.
// CHECK-LABEL: func.func @access(
// CHECK-SAME:      %[[MEM:.*]]: memref<4x8xf32>, %[[S:.*]]: memref<f32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[V:.*]]: f32) -> f32 {
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[MEM]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:    memref.store %[[X]], %[[MEM]][%[[J]], %[[I]]] : memref<4x8xf32>
// CHECK-NEXT:    %[[Y:.*]] = memref.load %[[MEM]][%[[I]], %[[J]]] {alignment = 16 : i64, nontemporal = true} : memref<4x8xf32>
// CHECK-NEXT:    %[[Z:.*]] = memref.load %[[MEM]][%[[I]], %[[I]]] : memref<4x8xf32>
// CHECK-NEXT:    memref.store %[[V]], %[[MEM]][%[[I]], %[[J]]] {nontemporal = true, note} : memref<4x8xf32>
// CHECK-NEXT:    %[[R:.*]] = memref.load %[[S]][] : memref<f32>
// CHECK-NEXT:    memref.store %[[R]], %[[S]][] : memref<f32>
// CHECK-NEXT:    return %[[Y]] : f32
// GENERIC-LABEL: "func.func"() <{function_type = (memref<4x8xf32>, memref<f32>, index, index, f32) -> f32, sym_name = "access"}> ({
// GENERIC-NEXT:  ^bb0(%[[MEM:.*]]: memref<4x8xf32>, %[[S:.*]]: memref<f32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[V:.*]]: f32):
// GENERIC-NEXT:    %[[X:.*]] = "memref.load"(%[[MEM]], %[[I]], %[[J]]) : (memref<4x8xf32>, index, index) -> f32
// GENERIC-NEXT:    "memref.store"(%[[X]], %[[MEM]], %[[J]], %[[I]]) : (f32, memref<4x8xf32>, index, index) -> ()
// GENERIC-NEXT:    %[[Y:.*]] = "memref.load"(%[[MEM]], %[[I]], %[[J]]) <{alignment = 16 : i64, nontemporal = true}> : (memref<4x8xf32>, index, index) -> f32
// GENERIC-NEXT:    %{{.*}} = "memref.load"(%[[MEM]], %[[I]], %[[I]]) <{nontemporal = false}> : (memref<4x8xf32>, index, index) -> f32
// GENERIC-NEXT:    "memref.store"(%[[V]], %[[MEM]], %[[I]], %[[J]]) <{nontemporal = true}> {note} : (f32, memref<4x8xf32>, index, index) -> ()
// GENERIC-NEXT:    %[[R:.*]] = "memref.load"(%[[S]]) : (memref<f32>) -> f32
// GENERIC-NEXT:    "memref.store"(%[[R]], %[[S]]) : (f32, memref<f32>) -> ()
// GENERIC-NEXT:    "func.return"(%[[Y]]) : (f32) -> ()
func.func @access(%mem: memref<4x8xf32>, %s: memref<f32>, %i: index, %j: index, %v: f32) -> f32 {
  %x = memref.load %mem[%i, %j] : memref<4x8xf32>
  memref.store %x, %mem[%j, %i] : memref<4x8xf32>
  %y = memref.load %mem[%i, %j] {nontemporal = true, alignment = 16} : memref<4x8xf32>
  %z = memref.load %mem[%i, %i] {nontemporal = false} : memref<4x8xf32>
  memref.store %v, %mem[%i, %j] {note, nontemporal = true} : memref<4x8xf32>
  %r = memref.load %s[] : memref<f32>
  memref.store %r, %s[] : memref<f32>
  return %y : f32
}

// dim prints its attributes before the operands, as MLIR does.
// CHECK-LABEL: func.func @shapes(
// CHECK-SAME:      %[[MEM:.*]]: memref<?x8xf32>, %[[I:.*]]: index) {
// CHECK-NEXT:    %[[D:.*]] = memref.dim %[[MEM]], %[[I]] : memref<?x8xf32>
// CHECK-NEXT:    %{{.*}} = memref.dim {note} %[[MEM]], %[[I]] : memref<?x8xf32>
// CHECK-NEXT:    %[[U:.*]] = memref.cast %[[MEM]] : memref<?x8xf32> to memref<*xf32>
// CHECK-NEXT:    %{{.*}} = memref.dim %[[U]], %[[I]] : memref<*xf32>
// CHECK-NEXT:    %[[R:.*]] = memref.cast %[[U]] {note} : memref<*xf32> to memref<4x?xf32>
// CHECK-NEXT:    %[[S:.*]] = memref.cast %[[MEM]] : memref<?x8xf32> to memref<4x8xf32>
// CHECK-NEXT:    memref.copy %[[MEM]], %[[S]] : memref<?x8xf32> to memref<4x8xf32>
// CHECK-NEXT:    memref.copy %[[U]], %[[R]] {note} : memref<*xf32> to memref<4x?xf32>
// CHECK-NEXT:    memref.dealloc %[[U]] : memref<*xf32>
// CHECK-NEXT:    return
// GENERIC-LABEL: "func.func"() <{function_type = (memref<?x8xf32>, index) -> (), sym_name = "shapes"}> ({
// GENERIC-NEXT:  ^bb0(%[[MEM:.*]]: memref<?x8xf32>, %[[I:.*]]: index):
// GENERIC-NEXT:    %{{.*}} = "memref.dim"(%[[MEM]], %[[I]]) : (memref<?x8xf32>, index) -> index
// GENERIC-NEXT:    %{{.*}} = "memref.dim"(%[[MEM]], %[[I]]) {note} : (memref<?x8xf32>, index) -> index
// GENERIC-NEXT:    %[[U:.*]] = "memref.cast"(%[[MEM]]) : (memref<?x8xf32>) -> memref<*xf32>
// GENERIC-NEXT:    %{{.*}} = "memref.dim"(%[[U]], %[[I]]) : (memref<*xf32>, index) -> index
// GENERIC-NEXT:    %[[R:.*]] = "memref.cast"(%[[U]]) {note} : (memref<*xf32>) -> memref<4x?xf32>
// GENERIC-NEXT:    %[[S:.*]] = "memref.cast"(%[[MEM]]) : (memref<?x8xf32>) -> memref<4x8xf32>
// GENERIC-NEXT:    "memref.copy"(%[[MEM]], %[[S]]) : (memref<?x8xf32>, memref<4x8xf32>) -> ()
// GENERIC-NEXT:    "memref.copy"(%[[U]], %[[R]]) {note} : (memref<*xf32>, memref<4x?xf32>) -> ()
// GENERIC-NEXT:    "memref.dealloc"(%[[U]]) : (memref<*xf32>) -> ()
// GENERIC-NEXT:    "func.return"() : () -> ()
func.func @shapes(%mem: memref<?x8xf32>, %i: index) {
  %d = memref.dim %mem, %i : memref<?x8xf32>
  %d2 = memref.dim {note} %mem, %i : memref<?x8xf32>
  %u = memref.cast %mem : memref<?x8xf32> to memref<*xf32>
  %du = memref.dim %u, %i : memref<*xf32>
  %r = memref.cast %u {note} : memref<*xf32> to memref<4x?xf32>
  %s = memref.cast %mem : memref<?x8xf32> to memref<4x8xf32>
  memref.copy %mem, %s : memref<?x8xf32> to memref<4x8xf32>
  memref.copy %u, %r {note} : memref<*xf32> to memref<4x?xf32>
  memref.dealloc %u : memref<*xf32>
  return
}

// Strided layouts (what linalg and memref.subview produce) parse and print as MLIR 22 does: a
// zero offset left out, `?` for dynamic strides and offsets.
// CHECK-LABEL: func.func @strided(
// CHECK-SAME: %arg0: memref<4x8xf32, strided<[8, 1]>>, %arg1: memref<?x?xf64, strided<[?, 1], offset: ?>>, %arg2: memref<2xf32, strided<[3], offset: 5>>
// CHECK: memref.load %arg1[%arg3, %arg3] : memref<?x?xf64, strided<[?, 1], offset: ?>>
func.func @strided(%a: memref<4x8xf32, strided<[8, 1], offset: 0>>, %b: memref<?x?xf64, strided<[?, 1], offset: ?>>, %c: memref<2xf32, strided<[3], offset: 5>>, %i: index) -> f64 {
  %x = memref.load %b[%i, %i] : memref<?x?xf64, strided<[?, 1], offset: ?>>
  return %x : f64
}

// A strided layout through an attribute alias.
#strided2d = strided<[?, 1], offset: ?>
// CHECK-LABEL: func.func @strided_alias(
// CHECK-SAME: memref<?x?xf64, strided<[?, 1], offset: ?>>
func.func @strided_alias(%b: memref<?x?xf64, #strided2d>) {
  return
}
