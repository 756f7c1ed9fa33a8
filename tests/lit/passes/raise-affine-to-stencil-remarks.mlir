// By default a nest raise-affine-to-stencil does not take is a remark and stays exactly as it
// was, while the other nests of the same function are raised; assume-no-alias lets the
// front end vouch that its memref arguments are distinct arrays.
// RUN: stencil-opt %s --verify-diagnostics --pass-pipeline='builtin.module(raise-affine-to-stencil)' | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(raise-affine-to-stencil)' 2>&1 >/dev/null | FileCheck %s --check-prefix=STDERR
// RUN: stencil-opt %s --pass-pipeline='builtin.module(raise-affine-to-stencil{assume-no-alias=true})' 2>&1 | FileCheck %s --check-prefix=NOALIAS
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(raise-affine-to-stencil{strict=true})' 2>&1 | FileCheck %s --check-prefix=STRICT

// CHECK-LABEL: stencil.program @mixed_stencil(
// CHECK:         stencil.apply @S0 writes %arg1 over [1] to [arg0 - 1] {
// CHECK:       func.func @mixed(%arg0: index, %arg1: memref<?xf64>, %arg2: memref<?xf64>) {
// CHECK-NEXT:    affine.if
// CHECK-NEXT:      stencil.call @mixed_stencil(%arg1, %arg0)
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.for %[[I:.*]] = 1 to %arg0 {
// CHECK-NEXT:      %[[A:.*]] = affine.load %arg1[%[[I]] - 1] : memref<?xf64>
// CHECK-NEXT:      affine.store %[[A]], %arg2[%[[I]]] : memref<?xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// STDERR: raise-affine-to-stencil-remarks.mlir:37:3: remark: affine loop nest not raised to a stencil program: the memref arguments %arg1 and %arg2 may be the same buffer
// STDERR-NEXT: {{ *}}affine.for %i = 1 to %n {
// STDERR-NEXT: {{ *}}^

// NOALIAS-NOT: remark
// NOALIAS: stencil.program @mixed_stencil_1(

// STRICT: raise-affine-to-stencil-remarks.mlir:37:3: error: affine loop nest not raised to a stencil program: the memref arguments %arg1 and %arg2 may be the same buffer

func.func @mixed(%n: index, %A: memref<?xf64>, %B: memref<?xf64>) {
  // In place on one memref: nothing can alias.
  affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
    %a = affine.load %A[%i - 1] : memref<?xf64>
    affine.store %a, %A[%i] : memref<?xf64>
  }
  // expected-remark@below {{may be the same buffer}}
  affine.for %i = 1 to %n {
    %a = affine.load %A[%i - 1] : memref<?xf64>
    affine.store %a, %B[%i] : memref<?xf64>
  }
  return
}
