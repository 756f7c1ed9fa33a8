// The cse pass on arith and math ops: identical pure ops (same operands, properties,
// attributes and result types) are merged, commutative ops also with their operands swapped;
// ops whose properties or attributes differ, non-commutative ops with swapped operands, and ops
// that may have effects (func.call) stay; an op in a nested region is replaced by an equal op of
// an enclosing block, never by one in a sibling region; functions are isolated, so equal ops in
// different functions are not merged. The output is what mlir-opt --cse prints for this file.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(cse)' | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(cse)' --mlir-print-op-generic | stencil-opt | FileCheck %s

// The second muli is replaced by the first; then the two addi are equal too.
// CHECK-LABEL: func.func @duplicates
// CHECK-NEXT:    %0 = arith.muli %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = arith.addi %0, %0 : i32
// CHECK-NEXT:    return %0, %0, %1, %1 : i32, i32, i32, i32
// CHECK-NEXT:  }
func.func @duplicates(%a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %0 = arith.muli %a, %b : i32
  %1 = arith.muli %a, %b : i32
  %2 = arith.addi %0, %1 : i32
  %3 = arith.addi %1, %0 : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// addi/mulf are commutative: %b + %a is %a + %b. subi is not.
// CHECK-LABEL: func.func @commutative
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = arith.mulf %arg2, %arg3 : f32
// CHECK-NEXT:    %2 = arith.subi %arg0, %arg1 : i32
// CHECK-NEXT:    %3 = arith.subi %arg1, %arg0 : i32
// CHECK-NEXT:    return %0, %0, %1, %1, %2, %3 : i32, i32, f32, f32, i32, i32
// CHECK-NEXT:  }
func.func @commutative(%a: i32, %b: i32, %x: f32, %y: f32) -> (i32, i32, f32, f32, i32, i32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %b, %a : i32
  %2 = arith.mulf %x, %y : f32
  %3 = arith.mulf %y, %x : f32
  %4 = arith.subi %a, %b : i32
  %5 = arith.subi %b, %a : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, f32, f32, i32, i32
}

// Different overflow flags, fast-math flags, predicates or attributes keep ops apart.
// CHECK-LABEL: func.func @properties_differ
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = arith.addi %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT:    %2 = arith.addf %arg2, %arg2 : f32
// CHECK-NEXT:    %3 = arith.addf %arg2, %arg2 fastmath<fast> : f32
// CHECK-NEXT:    %4 = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK-NEXT:    %5 = arith.cmpi sgt, %arg0, %arg1 : i32
// CHECK-NEXT:    %6 = arith.addi %arg0, %arg1 {tag} : i32
// CHECK-NEXT:    return %0, %1, %2, %3, %4, %5, %6 : i32, i32, f32, f32, i1, i1, i32
// CHECK-NEXT:  }
func.func @properties_differ(%a: i32, %b: i32, %x: f32) -> (i32, i32, f32, f32, i1, i1, i32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b overflow<nsw> : i32
  %2 = arith.addf %x, %x : f32
  %3 = arith.addf %x, %x fastmath<fast> : f32
  %4 = arith.cmpi slt, %a, %b : i32
  %5 = arith.cmpi sgt, %a, %b : i32
  %6 = arith.addi %a, %b {tag} : i32
  return %0, %1, %2, %3, %4, %5, %6 : i32, i32, f32, f32, i1, i1, i32
}

// Equal constants merge; a different type is a different constant.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT:    %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    return %c1_i32, %c1_i32, %c1_i64, %cst, %cst : i32, i32, i64, f32, f32
// CHECK-NEXT:  }
func.func @constants() -> (i32, i32, i64, f32, f32) {
  %c1 = arith.constant 1 : i32
  %c1_dup = arith.constant 1 : i32
  %c1_i64 = arith.constant 1 : i64
  %f = arith.constant 1.0 : f32
  %f_dup = arith.constant 1.0 : f32
  return %c1, %c1_dup, %c1_i64, %f, %f_dup : i32, i32, i64, f32, f32
}

// CHECK-LABEL: func.func private @effect
func.func private @effect(i32) -> i32

// Calls may have effects and are kept; math.sqrt is pure and merged.
// CHECK-LABEL: func.func @side_effects
// CHECK-NEXT:    %0 = call @effect(%arg0) : (i32) -> i32
// CHECK-NEXT:    %1 = call @effect(%arg0) : (i32) -> i32
// CHECK-NEXT:    %2 = arith.sitofp %arg0 : i32 to f32
// CHECK-NEXT:    %3 = math.sqrt %2 : f32
// CHECK-NEXT:    return %0, %1, %3, %3 : i32, i32, f32, f32
// CHECK-NEXT:  }
func.func @side_effects(%a: i32) -> (i32, i32, f32, f32) {
  %0 = func.call @effect(%a) : (i32) -> i32
  %1 = func.call @effect(%a) : (i32) -> i32
  %x = arith.sitofp %a : i32 to f32
  %s = math.sqrt %x : f32
  %s_dup = math.sqrt %x : f32
  return %0, %1, %s, %s_dup : i32, i32, f32, f32
}

// The same constant and addition in two functions: each function keeps its own.
// CHECK-LABEL: func.func @isolated_a
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    %0 = arith.addi %arg0, %c7_i32 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
func.func @isolated_a(%a: i32) -> i32 {
  %c7 = arith.constant 7 : i32
  %0 = arith.addi %a, %c7 : i32
  return %0 : i32
}

// CHECK-LABEL: func.func @isolated_b
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    %0 = arith.addi %arg0, %c7_i32 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
func.func @isolated_b(%a: i32) -> i32 {
  %c7 = arith.constant 7 : i32
  %0 = arith.addi %a, %c7 : i32
  return %0 : i32
}

// An op in a loop body is replaced by an equal op that dominates it (in the enclosing block);
// ops in sibling regions do not dominate each other and both stay.
// CHECK-LABEL: func.func @nested_regions
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    scf.for %arg3 = %c0 to %arg1 step %c1 {
// CHECK-NEXT:      %1 = arith.muli %0, %0 : i32
// CHECK-NEXT:      memref.store %1, %arg2[%arg3] : memref<4xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %arg3 = %c0 to %arg1 step %c1 {
// CHECK-NEXT:      %1 = arith.muli %0, %0 : i32
// CHECK-NEXT:      memref.store %1, %arg2[%c1] : memref<4xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @nested_regions(%a: i32, %n: index, %m: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = arith.addi %a, %a : i32
  scf.for %i = %c0 to %n step %c1 {
    %1 = arith.addi %a, %a : i32
    %2 = arith.muli %1, %1 : i32
    memref.store %2, %m[%i] : memref<4xi32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %3 = arith.muli %0, %0 : i32
    %c1_inner = arith.constant 1 : index
    memref.store %3, %m[%c1_inner] : memref<4xi32>
  }
  return
}
