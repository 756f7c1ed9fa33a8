// Checks the test toolchain itself, without stencil-opt: lit, FileCheck, `not` and mlir-opt from
// LLVM 22 are installed and the lit configuration finds them. When this fails, every other lit
// test is suspect: run tools/bootstrap.
//
// RUN: mlir-opt %s | FileCheck %s
// RUN: not mlir-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=BADPASS

// CHECK-LABEL: func.func @add_zero
// CHECK-SAME:    (%[[X:.*]]: f32) -> f32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[R:.*]] = arith.addf %[[X]], %[[C]] : f32
// CHECK-NEXT:    return %[[R]] : f32
func.func @add_zero(%x: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %r = arith.addf %x, %zero : f32
  return %r : f32
}

// BADPASS: error: {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
