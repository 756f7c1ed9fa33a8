// The arith dialect through real MLIR and back: our custom and generic output parse in mlir-opt
// 22, mlir-opt's output (custom and generic) parses in stencil-opt, and the result is the same
// program. The FOLD lines check that our canonicalize folds constants to the same values as
// mlir-opt's (integer wrap-around, f32 rounding, casts), and leaves alone what MLIR leaves alone
// (division by zero, signed division overflow, inexact truncf).
//
// RUN: stencil-opt %s | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | mlir-opt --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: mlir-opt %s | stencil-opt | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s --check-prefix=FOLD
// RUN: mlir-opt %s --canonicalize | stencil-opt | FileCheck %s --check-prefix=FOLD

// CHECK-LABEL: func.func @ops
// CHECK-NEXT:    %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:    %cst = arith.constant 0.30000000000000004 : f64
// CHECK-NEXT:    %cst_0 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 overflow<nsw, nuw> : i32
// CHECK-NEXT:    %1 = arith.divsi %arg0, %0 exact : i32
// CHECK-NEXT:    %2 = arith.floordivsi %1, %arg1 : i32
// CHECK-NEXT:    %3 = arith.maxui %2, %arg1 : i32
// CHECK-NEXT:    %4 = arith.addf %arg2, %arg3 fastmath<nnan,ninf> : f32
// CHECK-NEXT:    %5 = arith.minimumf %4, %cst_0 : f32
// CHECK-NEXT:    %6 = arith.negf %5 fastmath<fast> : f32
// CHECK-NEXT:    %7 = arith.cmpi ult, %3, %arg0 : i32
// CHECK-NEXT:    %8 = arith.cmpf une, %6, %arg3 fastmath<nsz> : f32
// CHECK-NEXT:    %9 = arith.andi %7, %8 : i1
// CHECK-NEXT:    %10 = arith.select %9, %6, %arg2 : f32
// CHECK-NEXT:    %11 = arith.index_cast %3 : i32 to index
// CHECK-NEXT:    %12 = arith.extf %10 fastmath<none> : f32 to f64
// CHECK-NEXT:    %13 = arith.mulf %12, %cst : f64
// CHECK-NEXT:    %14 = arith.truncf %13 upward : f64 to f32
// CHECK-NEXT:    %15 = arith.fptosi %14 : f32 to i32
// CHECK-NEXT:    %16 = arith.trunci %15 overflow<nsw> : i32 to i8
// CHECK-NEXT:    %17 = arith.xori %16, %c-1_i8 : i8
// CHECK-NEXT:    %18 = arith.bitcast %14 : f32 to i32
// CHECK-NEXT:    return %11, %17, %18 : index, i8, i32
func.func @ops(%a: i32, %b: i32, %x: f32, %y: f32) -> (index, i8, i32) {
  %m1 = arith.constant 255 : i8
  %c = arith.constant 0.30000000000000004 : f64
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.addi %a, %b overflow<nsw, nuw> : i32
  %1 = arith.divsi %a, %0 exact : i32
  %2 = arith.floordivsi %1, %b : i32
  %3 = arith.maxui %2, %b : i32
  %4 = arith.addf %x, %y fastmath<nnan,ninf> : f32
  %5 = arith.minimumf %4, %nan : f32
  %6 = arith.negf %5 fastmath<fast> : f32
  %7 = arith.cmpi ult, %3, %a : i32
  %8 = arith.cmpf une, %6, %y fastmath<nsz> : f32
  %9 = arith.andi %7, %8 : i1
  %10 = arith.select %9, %6, %x : f32
  %11 = arith.index_cast %3 : i32 to index
  %12 = arith.extf %10 fastmath<none> : f32 to f64
  %13 = arith.mulf %12, %c : f64
  %14 = arith.truncf %13 upward : f64 to f32
  %15 = arith.fptosi %14 : f32 to i32
  %16 = arith.trunci %15 overflow<nsw> : i32 to i8
  %17 = arith.xori %16, %m1 : i8
  %18 = arith.bitcast %14 : f32 to i32
  return %11, %17, %18 : index, i8, i32
}

// FOLD-LABEL: func.func @folds
// FOLD-DAG:     %[[WRAP:.*]] = arith.constant -56 : i8
// FOLD-DAG:     %[[FLOOR:.*]] = arith.constant -4 : i32
// FOLD-DAG:     %[[CEIL:.*]] = arith.constant -3 : i32
// FOLD-DAG:     %[[UDIV:.*]] = arith.constant 2147483644 : i32
// FOLD-DAG:     %[[SREM:.*]] = arith.constant -1 : i32
// FOLD-DAG:     %[[MIN:.*]] = arith.constant -2147483648 : i32
// FOLD-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// FOLD-DAG:     %[[SEVEN:.*]] = arith.constant 7 : i32
// FOLD-DAG:     %[[F32SUM:.*]] = arith.constant 3.000000e-01 : f32
// FOLD-DAG:     %[[F64SUM:.*]] = arith.constant 0.30000000000000004 : f64
// FOLD-DAG:     %[[P1:.*]] = arith.constant 1.000000e-01 : f64
// FOLD-DAG:     %[[UITOFP:.*]] = arith.constant 4.2949673E+9 : f32
// FOLD-DAG:     %[[EXT:.*]] = arith.constant 4294967295 : i64
// FOLD-DAG:     %[[IDX:.*]] = arith.constant 4294967295 : index
// FOLD-DAG:     %[[FPTOSI:.*]] = arith.constant -2 : i32
// FOLD-DAG:     %[[BITS:.*]] = arith.constant 1077936128 : i32
// FOLD-DAG:     %[[TRUE:.*]] = arith.constant true
// FOLD-DAG:     %[[DIVOVF:.*]] = arith.divsi %[[MIN]], %[[SREM]] : i32
// FOLD-DAG:     %[[DIVZERO:.*]] = arith.divsi %[[SEVEN]], %[[ZERO]] : i32
// FOLD-DAG:     %[[INEXACT:.*]] = arith.truncf %[[P1]] : f64 to f32
// FOLD:         return %[[WRAP]], %[[FLOOR]], %[[CEIL]], %[[UDIV]], %[[SREM]], %[[DIVOVF]], %[[DIVZERO]], %[[F32SUM]], %[[F64SUM]], %[[INEXACT]], %[[UITOFP]], %[[EXT]], %[[IDX]], %[[FPTOSI]], %[[BITS]], %[[TRUE]] :
func.func @folds() -> (i8, i32, i32, i32, i32, i32, i32, f32, f64, f32, f32, i64, index, i32, i32, i1) {
  %c100 = arith.constant 100 : i8
  %c7 = arith.constant 7 : i32
  %cm7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %c0 = arith.constant 0 : i32
  %cmin = arith.constant -2147483648 : i32
  %cm1 = arith.constant -1 : i32
  %0 = arith.addi %c100, %c100 : i8
  %1 = arith.floordivsi %cm7, %c2 : i32
  %2 = arith.ceildivsi %cm7, %c2 : i32
  %3 = arith.divui %cm7, %c2 : i32
  %4 = arith.remsi %cm7, %c2 : i32
  %5 = arith.divsi %cmin, %cm1 : i32
  %6 = arith.divsi %c7, %c0 : i32
  %f1 = arith.constant 0.1 : f32
  %f2 = arith.constant 0.2 : f32
  %7 = arith.addf %f1, %f2 : f32
  %d1 = arith.constant 0.1 : f64
  %d2 = arith.constant 0.2 : f64
  %8 = arith.addf %d1, %d2 : f64
  %9 = arith.truncf %d1 : f64 to f32
  %10 = arith.uitofp %cm1 : i32 to f32
  %11 = arith.extui %cm1 : i32 to i64
  %12 = arith.index_castui %cm1 : i32 to index
  %fm = arith.constant -2.5 : f32
  %13 = arith.fptosi %fm : f32 to i32
  %three = arith.constant 3.0 : f32
  %14 = arith.bitcast %three : f32 to i32
  %15 = arith.cmpf ogt, %f2, %f1 : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : i8, i32, i32, i32, i32, i32, i32, f32, f64, f32, f32, i64, index, i32, i32, i1
}
