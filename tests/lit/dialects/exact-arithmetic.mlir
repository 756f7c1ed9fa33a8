// Issue 16, item 6: i64::MIN prints as -9223372036854775808 (a minus sign and a magnitude that
// alone is not an i64) and parses back to itself, in affine maps, integer constants, parameter
// minimums and defaults; folds whose exact result stays in i64 still fold
// ((s0 + i64::MAX) - 2 is s0 + 9223372036854775805, -i64::MAX - 1 is i64::MIN).
// RUN: stencil-opt %s | FileCheck %s
// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s

// CHECK-LABEL: func.func @maps(
// CHECK-NEXT:    affine.apply affine_map<(d0) -> (d0 * -9223372036854775808 + 1)>(%arg0)
// CHECK-NEXT:    affine.apply affine_map<()[s0] -> (-9223372036854775808)>()[%arg0]
// CHECK-NEXT:    affine.apply affine_map<()[s0] -> (s0 + 9223372036854775805)>()[%arg0]
// CHECK-NEXT:    affine.load %arg1[%arg0 * -9223372036854775808] : memref<10xf32>
// CHECK-NEXT:    arith.constant -9223372036854775808 : i64
func.func @maps(%i: index, %A: memref<10xf32>) -> (index, index, index, f32, i64) {
  %a = affine.apply affine_map<(d0) -> (d0 * -9223372036854775808 + 1)>(%i)
  %b = affine.apply affine_map<()[s0] -> (-9223372036854775807 - 1)>()[%i]
  %c = affine.apply affine_map<()[s0] -> ((s0 + 9223372036854775807) - 2)>()[%i]
  %v = affine.load %A[%i * -9223372036854775808] : memref<10xf32>
  %k = arith.constant -9223372036854775808 : i64
  return %a, %b, %c, %v, %k : index, index, index, f32, i64
}

// CHECK-LABEL: stencil.program @params(
// CHECK-SAME:    params [T >= 1, N >= 3, K >= -9223372036854775808] defaults [T = 1, N = 3, K = -9223372036854775808]
stencil.program @params(%A: !stencil.field<[N] x f64>)
    params [T >= 1, N >= 3, K >= -9223372036854775808] defaults [T = 1, N = 3, K = -9223372036854775808] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}
