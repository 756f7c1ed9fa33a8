// The math dialect through real MLIR and back (custom and generic forms both ways), and the
// folds of exactly defined functions agreeing with mlir-opt's canonicalize.
//
// RUN: stencil-opt %s | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | mlir-opt --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: mlir-opt %s | stencil-opt | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s --check-prefix=FOLD
// RUN: mlir-opt %s --canonicalize | stencil-opt | FileCheck %s --check-prefix=FOLD

// CHECK-LABEL: func.func @ops
// CHECK-NEXT:    %0 = math.sqrt %arg0 fastmath<afn> : f32
// CHECK-NEXT:    %1 = math.fma %0, %arg1, %arg0 : f32
// CHECK-NEXT:    %2 = math.exp %1 : f32
// CHECK-NEXT:    %3 = math.powf %2, %arg1 fastmath<fast> : f32
// CHECK-NEXT:    %4 = math.floor %3 : f32
// CHECK-NEXT:    %5 = math.fpowi %4, %arg2 : f32, i32
// CHECK-NEXT:    %6 = math.absi %arg2 : i32
// CHECK-NEXT:    %7 = math.ipowi %6, %arg2 : i32
// CHECK-NEXT:    %8 = math.tanh %5 : f32
// CHECK-NEXT:    return %8, %7 : f32, i32
func.func @ops(%x: f32, %y: f32, %n: i32) -> (f32, i32) {
  %0 = math.sqrt %x fastmath<afn> : f32
  %1 = math.fma %0, %y, %x : f32
  %2 = math.exp %1 : f32
  %3 = math.powf %2, %y fastmath<fast> : f32
  %4 = math.floor %3 : f32
  %5 = math.fpowi %4, %n : f32, i32
  %6 = math.absi %n : i32
  %7 = math.ipowi %6, %n : i32
  %8 = math.tanh %5 : f32
  return %8, %7 : f32, i32
}

// sqrt(2) in f32 and f64, floor/ceil of negatives, absf of -0.0, absi of the
// minimum (which wraps to itself), and the square root of a negative number left alone.
// (stencil-opt also folds math.fma, which mlir-opt 22 does not: see passes/canonicalize.mlir.)
// FOLD-LABEL: func.func @folds
// FOLD-DAG:     %[[SQRT32:.*]] = arith.constant 1.41421354 : f32
// FOLD-DAG:     %[[SQRT64:.*]] = arith.constant 1.4142135623730951 : f64
// FOLD-DAG:     %[[FLOOR:.*]] = arith.constant -3.000000e+00 : f32
// FOLD-DAG:     %[[CEIL:.*]] = arith.constant -2.000000e+00 : f32
// FOLD-DAG:     %[[ABSF:.*]] = arith.constant 0.000000e+00 : f32
// FOLD-DAG:     %[[ABSI:.*]] = arith.constant -2147483648 : i32
// FOLD-DAG:     %[[NEG:.*]] = arith.constant -4.000000e+00 : f32
// FOLD-DAG:     %[[SQRTNEG:.*]] = math.sqrt %[[NEG]] : f32
// FOLD:         return %[[SQRT32]], %[[SQRT64]], %[[FLOOR]], %[[CEIL]], %[[ABSF]], %[[ABSI]], %[[SQRTNEG]] :
func.func @folds() -> (f32, f64, f32, f32, f32, i32, f32) {
  %two = arith.constant 2.0 : f32
  %two64 = arith.constant 2.0 : f64
  %0 = math.sqrt %two : f32
  %1 = math.sqrt %two64 : f64
  %x = arith.constant -2.5 : f32
  %3 = math.floor %x : f32
  %4 = math.ceil %x : f32
  %nz = arith.constant -0.0 : f32
  %5 = math.absf %nz : f32
  %min = arith.constant -2147483648 : i32
  %6 = math.absi %min : i32
  %neg = arith.constant -4.0 : f32
  %7 = math.sqrt %neg : f32
  return %0, %1, %3, %4, %5, %6, %7 : f32, f64, f32, f32, f32, i32, f32
}
