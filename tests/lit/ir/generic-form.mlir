// Generic form of arbitrary (unregistered) ops: operands, multiple results, regions with
// several blocks, properties, discardable attributes, every builtin attribute and type kind.
// RUN: stencil-opt %s --allow-unregistered-dialect | stencil-opt --allow-unregistered-dialect | FileCheck %s
// RUN: stencil-opt %s --allow-unregistered-dialect --mlir-print-op-generic | stencil-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: stencil-opt %s --allow-unregistered-dialect --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | stencil-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @values
// CHECK-NEXT: %0:2 = "test.two"(%arg0) : (i32) -> (i32, f32)
// CHECK-NEXT: %1 = "test.use"(%0#1, %0#0) : (f32, i32) -> index
// CHECK-NEXT: return %1 : index
func.func @values(%x: i32) -> index {
  %p:2 = "test.two"(%x) : (i32) -> (i32, f32)
  %q = "test.use"(%p#1, %p#0) : (f32, i32) -> index
  return %q : index
}

// CHECK-LABEL: func.func @regions
// CHECK-NEXT: "test.region"() ({
// CHECK-NEXT:   %0 = "test.a"() : () -> i64
// CHECK-NEXT: ^bb1(%1: i64, %2: f64):
// CHECK-NEXT:   "test.b"(%1, %2) : (i64, f64) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%arg0: index):
// CHECK-NEXT:   "test.c"(%arg0) : (index) -> ()
// CHECK-NEXT: }) : () -> ()
// GENERIC-LABEL: "func.func"() <{function_type = () -> (), sym_name = "regions"}> ({
// GENERIC: ^bb1(%1: i64, %2: f64):
func.func @regions() {
  "test.region"() ({
    %a = "test.a"() : () -> i64
  ^other(%m: i64, %n: f64):
    "test.b"(%m, %n) : (i64, f64) -> ()
  }, {
  ^entry(%i: index):
    "test.c"(%i) : (index) -> ()
  }) : () -> ()
  return
}

// CHECK-LABEL: func.func @attributes
// CHECK-NEXT: "test.attrs"() <{inherent = 7 : i32}> {array = [1, true, "s\0A\22"], bool = false, dict = {a, b = 2.500000e-01 : f32}, float = 1.000000e-01 : f64, index = -3 : index, map = affine_map<(d0, d1)[s0] -> (d0 * 2 + s0, d1 floordiv 4 - 1, (d0 + d1) mod 3)>, nan = 0x7FF8000000000000 : f64, precise = 3.1415926535897931 : f64, set = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 - 10 == 0)>, sym = @outer::@inner, type = memref<?x4xf32, 3>, unit, untyped = -9223372036854775808 : i64, wide = -1 : i64} : () -> ()
func.func @attributes() {
  "test.attrs"() <{inherent = 7 : i32}> {
    unit, bool = false, index = -3 : index, float = 0.1, nan = 0x7FF8000000000000 : f64,
    precise = 3.1415926535897931 : f64,
    array = [1, true, "s\n\""], dict = {b = 0.25 : f32, a},
    map = affine_map<(i, j)[n] -> (i * 2 + n, j floordiv 4 - 1, (i + j) mod 3)>,
    set = affine_set<(i)[n] : (i - n >= 0, i == 10)>,
    sym = @outer::@inner, type = memref<?x4xf32, 3>, wide = 18446744073709551615 : i64,
    untyped = 0x8000000000000000
  } : () -> ()
  return
}

// CHECK-LABEL: func.func @types
// CHECK-SAME: (%arg0: memref<*xf16>, %arg1: memref<2x?x8xbf16, affine_map<(d0, d1, d2) -> (d2, d1, d0)>>, %arg2: i1, %arg3: i17, %arg4: none)
// CHECK-SAME: -> ((i32) -> (f32, f64))
func.func @types(%a: memref<*xf16>, %b: memref<2x?x8xbf16, affine_map<(a, b, c) -> (c, b, a)>>, %c: i1, %d: i17, %e: none) -> ((i32) -> (f32, f64)) {
  %f = "test.fn"() : () -> ((i32) -> (f32, f64))
  return %f : (i32) -> (f32, f64)
}
