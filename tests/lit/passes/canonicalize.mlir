// The canonicalize pass with the arith and math folders: constant folding with exact semantics
// (integer wrap-around at the type's width, f32 arithmetic rounded in f32, division by zero and
// signed division overflow left alone, truncf only when exact), algebraic identities, commutative
// ops with their constant on the right, removal of dead pure ops, and constants hoisted to the
// entry of their function and uniqued there (never across functions). mlir-opt --canonicalize
// computes the same values (see mlir-interop/arith.mlir); it orders the hoisted constants
// differently and does not fold math.fma.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(canonicalize)' | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=1})' | stencil-opt | FileCheck %s --check-prefix=ONE
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(canonicalize{bogus=1})' 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=0})' 2>&1 | FileCheck %s --check-prefix=ZERO

// BADOPT: error: no such option 'bogus' for pass 'canonicalize' (valid options: max-iterations)
// ZERO: error: option 'max-iterations' of pass 'canonicalize' must be at least 1

// With max-iterations=1 a single sweep runs: it folds everything, but the original constants
// (visited before their users folded) and the start of a dead chain are still there, and the
// folded constants stay where they were made, not yet uniqued (-3 twice).
// ONE-LABEL: func.func @integer_folds
// ONE-NEXT:    %c100_i8 = arith.constant 100 : i8
// ONE-NEXT:    %c-7_i32 = arith.constant -7 : i32
// ONE-NEXT:    %c2_i32 = arith.constant 2 : i32
// ONE-NEXT:    %c-56_i8 = arith.constant -56 : i8
// ONE-NEXT:    %c16_i8 = arith.constant 16 : i8
// ONE-NEXT:    %c-3_i32 = arith.constant -3 : i32
// ONE-NEXT:    %c-4_i32 = arith.constant -4 : i32
// ONE-NEXT:    %c-3_i32_0 = arith.constant -3 : i32
// ONE-NEXT:    %c-1_i32 = arith.constant -1 : i32
// ONE-NEXT:    %c1073741822_i32 = arith.constant 1073741822 : i32
// ONE-NEXT:    %c-7 = arith.constant -7 : index
// ONE-NEXT:    %c4294967289_i64 = arith.constant 4294967289 : i64
// ONE-NEXT:    %true = arith.constant true
// ONE-NEXT:    %false = arith.constant false
// ONE-NEXT:    %c-7_i32_1 = arith.constant -7 : i32
// ONE-NEXT:    return %c-56_i8, %c16_i8, %c-3_i32, %c-4_i32, %c-3_i32_0, %c-1_i32, %c1073741822_i32, %c-7, %c4294967289_i64, %true, %false, %c-7_i32_1 : i8, i8, i32, i32, i32, i32, i32, index, i64, i1, i1, i32
// ONE-NEXT:  }
// ONE-LABEL: func.func @dead_code
// ONE-NEXT:    %c3_i32 = arith.constant 3 : i32
// ONE-NEXT:    %0 = arith.muli %arg0, %c3_i32 : i32
// ONE-NEXT:    %1 = arith.addi %0, %arg0 : i32
// ONE-NEXT:    %2 = call @effect(%arg0) : (i32) -> i32
// ONE-NEXT:    return %arg0 : i32
// ONE-NEXT:  }

// Integer folds wrap at the type's width; floordivsi/ceildivsi round toward -inf/+inf for
// negative operands; unsigned ops read -7 as 4294967289.
// CHECK-LABEL: func.func @integer_folds
// CHECK-NEXT:    %c-7_i32 = arith.constant -7 : i32
// CHECK-NEXT:    %c-56_i8 = arith.constant -56 : i8
// CHECK-NEXT:    %c16_i8 = arith.constant 16 : i8
// CHECK-NEXT:    %c-3_i32 = arith.constant -3 : i32
// CHECK-NEXT:    %c-4_i32 = arith.constant -4 : i32
// CHECK-NEXT:    %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:    %c1073741822_i32 = arith.constant 1073741822 : i32
// CHECK-NEXT:    %c-7 = arith.constant -7 : index
// CHECK-NEXT:    %c4294967289_i64 = arith.constant 4294967289 : i64
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    return %c-56_i8, %c16_i8, %c-3_i32, %c-4_i32, %c-3_i32, %c-1_i32, %c1073741822_i32, %c-7, %c4294967289_i64, %true, %false, %c-7_i32 : i8, i8, i32, i32, i32, i32, i32, index, i64, i1, i1, i32
// CHECK-NEXT:  }
func.func @integer_folds() -> (i8, i8, i32, i32, i32, i32, i32, index, i64, i1, i1, i32) {
  %c100 = arith.constant 100 : i8
  %0 = arith.addi %c100, %c100 : i8
  %1 = arith.muli %c100, %c100 : i8
  %cm7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %2 = arith.divsi %cm7, %c2 : i32
  %3 = arith.floordivsi %cm7, %c2 : i32
  %4 = arith.ceildivsi %cm7, %c2 : i32
  %5 = arith.remsi %cm7, %c2 : i32
  %6 = arith.shrui %cm7, %c2 : i32
  %7 = arith.index_cast %cm7 : i32 to index
  %8 = arith.extui %cm7 : i32 to i64
  %9 = arith.cmpi slt, %cm7, %c2 : i32
  %10 = arith.cmpi ult, %cm7, %c2 : i32
  %11 = arith.maxui %cm7, %c2 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : i8, i8, i32, i32, i32, i32, i32, index, i64, i1, i1, i32
}

// What MLIR does not fold stays: division by zero, signed division overflow, a shift by the
// width, an inexact truncf.
// CHECK-LABEL: func.func @not_folded
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %c-2147483648_i32 = arith.constant -2147483648 : i32
// CHECK-NEXT:    %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:    %c32_i32 = arith.constant 32 : i32
// CHECK-NEXT:    %cst = arith.constant 1.000000e-01 : f64
// CHECK-NEXT:    %0 = arith.divsi %c7_i32, %c0_i32 : i32
// CHECK-NEXT:    %1 = arith.divsi %c-2147483648_i32, %c-1_i32 : i32
// CHECK-NEXT:    %2 = arith.shli %c7_i32, %c32_i32 : i32
// CHECK-NEXT:    %3 = arith.truncf %cst : f64 to f32
// CHECK-NEXT:    return %0, %1, %2, %3 : i32, i32, i32, f32
// CHECK-NEXT:  }
func.func @not_folded() -> (i32, i32, i32, f32) {
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %min = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %c32 = arith.constant 32 : i32
  %0 = arith.divsi %c7, %c0 : i32
  %1 = arith.divsi %min, %m1 : i32
  %2 = arith.shli %c7, %c32 : i32
  %d = arith.constant 0.1 : f64
  %3 = arith.truncf %d : f64 to f32
  return %0, %1, %2, %3 : i32, i32, i32, f32
}

// f32 arithmetic is rounded in f32 (0.1 + 0.2 is 3.000000e-01 there, 0.30000000000000004 in
// f64); 0/0 is the quiet NaN; minnumf ignores a NaN; a truncf that would round is kept.
// CHECK-LABEL: func.func @float_folds
// CHECK-NEXT:    %cst = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:    %cst_0 = arith.constant 0x4170000010000000 : f64
// CHECK-NEXT:    %cst_1 = arith.constant 3.000000e-01 : f32
// CHECK-NEXT:    %cst_2 = arith.constant 0.30000000000000004 : f64
// CHECK-NEXT:    %cst_3 = arith.constant 0.333333343 : f32
// CHECK-NEXT:    %cst_4 = arith.constant 0.33333333333333331 : f64
// CHECK-NEXT:    %cst_5 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:    %cst_6 = arith.constant -3.000000e+00 : f32
// CHECK-NEXT:    %c-3_i32 = arith.constant -3 : i32
// CHECK-NEXT:    %0 = arith.truncf %cst_0 : f64 to f32
// CHECK-NEXT:    return %cst_1, %cst_2, %cst_3, %cst_4, %cst_5, %cst, %cst_6, %0, %c-3_i32 : f32, f64, f32, f64, f32, f32, f32, f32, i32
// CHECK-NEXT:  }
func.func @float_folds() -> (f32, f64, f32, f64, f32, f32, f32, f32, i32) {
  %f1 = arith.constant 0.1 : f32
  %f2 = arith.constant 0.2 : f32
  %0 = arith.addf %f1, %f2 : f32
  %d1 = arith.constant 0.1 : f64
  %d2 = arith.constant 0.2 : f64
  %1 = arith.addf %d1, %d2 : f64
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %2 = arith.divf %one, %three : f32
  %one64 = arith.constant 1.0 : f64
  %three64 = arith.constant 3.0 : f64
  %3 = arith.divf %one64, %three64 : f64
  %zero = arith.constant 0.0 : f32
  %4 = arith.divf %zero, %zero : f32
  %5 = arith.minnumf %4, %three : f32
  %6 = arith.negf %three : f32
  %big = arith.constant 16777217.0 : f64
  %7 = arith.truncf %big : f64 to f32
  %8 = arith.fptosi %6 : f32 to i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f64, f32, f64, f32, f32, f32, f32, i32
}

// sqrt in each precision, floor/ceil of a negative number, fma rounded once.
// CHECK-LABEL: func.func @math_folds
// CHECK-NEXT:    %cst = arith.constant 1.41421354 : f32
// CHECK-NEXT:    %cst_0 = arith.constant 1.4142135623730951 : f64
// CHECK-NEXT:    %cst_1 = arith.constant -3.000000e+00 : f32
// CHECK-NEXT:    %cst_2 = arith.constant -2.000000e+00 : f32
// CHECK-NEXT:    %cst_3 = arith.constant 5.5511151231257827E-17 : f64
// CHECK-NEXT:    return %cst, %cst_0, %cst_1, %cst_2, %cst_3 : f32, f64, f32, f32, f64
// CHECK-NEXT:  }
func.func @math_folds() -> (f32, f64, f32, f32, f64) {
  %two = arith.constant 2.0 : f32
  %0 = math.sqrt %two : f32
  %two64 = arith.constant 2.0 : f64
  %1 = math.sqrt %two64 : f64
  %x = arith.constant -2.5 : f32
  %2 = math.floor %x : f32
  %3 = math.ceil %x : f32
  %tenth = arith.constant 0.1 : f64
  %ten = arith.constant 10.0 : f64
  %m1 = arith.constant -1.0 : f64
  %4 = math.fma %tenth, %ten, %m1 : f64
  return %0, %1, %2, %3, %4 : f32, f64, f32, f32, f64
}

// x+0, 0+x, 1*x, x*0, x-x, x/1, x&x, x^x, x%1, cmpi of a value with itself, x+(-0.0) (but
// not x+0.0), 1.0*x, negf(negf(x)), select with a constant condition or equal arms, and casts
// undone by their inverse.
// CHECK-LABEL: func.func @identities
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %0 = arith.addf %arg1, %cst : f32
// CHECK-NEXT:    %1 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    %2 = arith.mulf %arg1, %arg1 : f32
// CHECK-NEXT:    return %arg0, %arg0, %arg0, %c0_i32, %c0_i32, %arg0, %arg0, %c0_i32, %c0_i32, %true, %arg1, %0, %arg1, %arg1, %arg0, %arg0, %1, %2 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i1, f32, f32, f32, f32, i32, i32, i32, f32
// CHECK-NEXT:  }
func.func @identities(%a: i32, %x: f32, %c: i1, %i: index) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i1, f32, f32, f32, f32, i32, i32, i32, f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %a, %c0 : i32
  %1 = arith.addi %c0, %a : i32
  %2 = arith.muli %c1, %a : i32
  %3 = arith.muli %a, %c0 : i32
  %4 = arith.subi %a, %a : i32
  %5 = arith.divsi %a, %c1 : i32
  %6 = arith.andi %a, %a : i32
  %7 = arith.xori %a, %a : i32
  %8 = arith.remui %a, %c1 : i32
  %9 = arith.cmpi sle, %a, %a : i32
  %nz = arith.constant -0.0 : f32
  %pz = arith.constant 0.0 : f32
  %fone = arith.constant 1.0 : f32
  %10 = arith.addf %x, %nz : f32
  %11 = arith.addf %x, %pz : f32
  %12 = arith.mulf %fone, %x : f32
  %n = arith.negf %x : f32
  %13 = arith.negf %n : f32
  %true = arith.constant true
  %14 = arith.select %true, %a, %c1 : i32
  %15 = arith.select %c, %a, %a : i32
  %wide = arith.extsi %a : i32 to i64
  %16 = arith.index_cast %a : i32 to index
  %17 = arith.index_cast %16 : index to i32
  %back = arith.trunci %wide : i64 to i32
  %18 = arith.addi %back, %17 : i32
  %19 = arith.mulf %x, %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %18, %19 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i1, f32, f32, f32, f32, i32, i32, i32, f32
}

// A constant operand of a commutative op moves to the right.
// CHECK-LABEL: func.func @commutative
// CHECK-NEXT:    %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT:    %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %0 = arith.addi %arg0, %c5_i32 : i32
// CHECK-NEXT:    %1 = arith.mulf %arg1, %cst : f32
// CHECK-NEXT:    return %0, %1 : i32, f32
// CHECK-NEXT:  }
func.func @commutative(%a: i32, %x: f32) -> (i32, f32) {
  %c5 = arith.constant 5 : i32
  %0 = arith.addi %c5, %a : i32
  %h = arith.constant 0.5 : f32
  %1 = arith.mulf %h, %x : f32
  return %0, %1 : i32, f32
}

// CHECK-LABEL: func.func private @effect
func.func private @effect(i32) -> i32

// Unused pure ops go (the whole chain); the call may have effects and stays.
// CHECK-LABEL: func.func @dead_code
// CHECK-NEXT:    %0 = call @effect(%arg0) : (i32) -> i32
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
func.func @dead_code(%a: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %0 = arith.muli %a, %c3 : i32
  %1 = arith.addi %0, %a : i32
  %2 = math.absi %1 : i32
  %3 = func.call @effect(%a) : (i32) -> i32
  return %a : i32
}

// Constants move to the function entry; equal ones are merged.
// CHECK-LABEL: func.func @hoisting
// CHECK-NEXT:    %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:    %0 = arith.muli %arg0, %arg0 : i32
// CHECK-NEXT:    %1 = arith.addi %0, %c2_i32 : i32
// CHECK-NEXT:    %2 = arith.muli %1, %c2_i32 : i32
// CHECK-NEXT:    return %1, %2 : i32, i32
// CHECK-NEXT:  }
func.func @hoisting(%a: i32) -> (i32, i32) {
  %0 = arith.muli %a, %a : i32
  %c2 = arith.constant 2 : i32
  %1 = arith.addi %0, %c2 : i32
  %c2_dup = arith.constant 2 : i32
  %2 = arith.muli %1, %c2_dup : i32
  return %1, %2 : i32, i32
}

// Each function keeps its own constants: they are not merged across isolated functions.
// CHECK-LABEL: func.func @per_function
// CHECK-NEXT:    %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:    %0 = arith.addi %arg0, %c2_i32 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
func.func @per_function(%a: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %a, %c2 : i32
  return %0 : i32
}

// Constants inside a loop body move to the function entry and merge with equal ones there; the
// commuted `1 + %i` becomes `%i + 1` and `* 1` disappears.
// CHECK-LABEL: func.func @hoist_from_loop
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    scf.for %arg2 = %c0 to %arg1 step %c1 {
// CHECK-NEXT:      %0 = arith.addi %arg2, %c1 : index
// CHECK-NEXT:      memref.store %cst, %arg0[%0] : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @hoist_from_loop(%m: memref<8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %two = arith.constant 2.0 : f32
    %one = arith.constant 1 : index
    %j = arith.addi %one, %i : index
    %k = arith.muli %j, %one : index
    memref.store %two, %m[%k] : memref<8xf32>
  }
  return
}
