// The stencil dialect in custom form (docs/dialects/stencil.md): stencil.program with fields,
// scalars, parameters, minimums and defaults; stencil.iterate (nested, affine bounds);
// stencil.apply in 1-D, 2-D and 3-D, forward and reverse; stencil.access with offsets and in
// the general affine form; stencil.index; stencil.yield; and the generic form of each.
// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// The example of DESIGN §4: argument names are kept (%A, %w), the induction variable prints as
// %t, float defaults print in MLIR's float syntax.
// CHECK-LABEL: stencil.program @sor1d(
// CHECK-SAME:      %A: !stencil.field<[N] x f64>, %w: f64) params [T >= 1, N >= 3] defaults [T = 10, N = 64, w = 1.500000e+00] {
// CHECK-NEXT:    stencil.iterate %t = 0 to T {
// CHECK-NEXT:      stencil.apply @S writes %A over [1] to [N - 1] {
// CHECK-NEXT:        %[[W:.*]] = stencil.access %A[-1] : f64
// CHECK-NEXT:        %[[C:.*]] = stencil.access %A[0] : f64
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[W]], %[[C]] : f64
// CHECK-NEXT:        %[[V:.*]] = arith.mulf %[[S]], %w : f64
// CHECK-NEXT:        stencil.yield %[[V]] : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      stencil.apply @R writes %A over [1] to [N - 1] order reverse {
// CHECK-NEXT:        %[[E:.*]] = stencil.access %A[1] : f64
// CHECK-NEXT:        stencil.yield %[[E]] : f64
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// The generic form: parameters are the symbols of every bound map, in declaration order.
// GENERIC-LABEL: "stencil.program"() <{arg_names = ["A", "w"], defaults = {N = 64 : i64, T = 10 : i64, w = 1.500000e+00 : f64}, function_type = (!stencil.field<[N] x f64>, f64) -> (), param_mins = array<i64: 1, 3>, param_names = ["T", "N"], sym_name = "sor1d"}> ({
// GENERIC-NEXT:  ^bb0(%A: !stencil.field<[N] x f64>, %w: f64):
// GENERIC-NEXT:    "stencil.iterate"() <{lower_bound = affine_map<()[s0, s1] -> (0)>, upper_bound = affine_map<()[s0, s1] -> (s0)>}> ({
// GENERIC-NEXT:    ^bb0(%t: index):
// GENERIC-NEXT:      "stencil.apply"(%A) <{lower_bounds = affine_map<()[s0, s1] -> (1)>, name = "S", upper_bounds = affine_map<()[s0, s1] -> (s1 - 1)>}> ({
// GENERIC-NEXT:        %[[W:.*]] = "stencil.access"(%A) <{offset = array<i64: -1>}> : (!stencil.field<[N] x f64>) -> f64
// GENERIC-NEXT:        %[[C:.*]] = "stencil.access"(%A) <{offset = array<i64: 0>}> : (!stencil.field<[N] x f64>) -> f64
// GENERIC-NEXT:        %[[S:.*]] = "arith.addf"(%[[W]], %[[C]])
// GENERIC-NEXT:        %[[V:.*]] = "arith.mulf"(%[[S]], %w)
// GENERIC-NEXT:        "stencil.yield"(%[[V]]) : (f64) -> ()
// GENERIC-NEXT:      }) : (!stencil.field<[N] x f64>) -> ()
// GENERIC-NEXT:      "stencil.apply"(%A) <{lower_bounds = affine_map<()[s0, s1] -> (1)>, name = "R", order = "reverse", upper_bounds = affine_map<()[s0, s1] -> (s1 - 1)>}> ({
// GENERIC-NEXT:        %[[E:.*]] = "stencil.access"(%A) <{offset = array<i64: 1>}> : (!stencil.field<[N] x f64>) -> f64
// GENERIC-NEXT:        "stencil.yield"(%[[E]]) : (f64) -> ()
// GENERIC-NEXT:      }) : (!stencil.field<[N] x f64>) -> ()
// GENERIC-NEXT:    }) : () -> ()
// GENERIC-NEXT:  }) : () -> ()
stencil.program @sor1d(%A: !stencil.field<[N] x f64>, %w: f64) params [T >= 1, N >= 3] defaults [T = 10, N = 64, w = 1.5] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      %a = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %s = arith.addf %a, %c : f64
      %v = arith.mulf %s, %w : f64
      stencil.yield %v : f64
    }
    stencil.apply @R writes %A over [1] to [N - 1] order reverse {
      %e = stencil.access %A[1] : f64
      stencil.yield %e : f64
    }
  }
}

// Two fields, an imperfect nest (B = f(A); A = B), 2-D boxes.
// CHECK-LABEL: stencil.program @jacobi2d(
// CHECK-SAME:      %A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] defaults [T = 2, N = 8, M = 6] {
// CHECK-NEXT:    stencil.iterate %t = 0 to T {
// CHECK-NEXT:      stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
// CHECK-NEXT:        %[[N:.*]] = stencil.access %A[-1, 0] : f64
// CHECK-NEXT:        %[[S:.*]] = stencil.access %A[1, 0] : f64
// CHECK-NEXT:        %[[W:.*]] = stencil.access %A[0, -1] : f64
// CHECK-NEXT:        %[[E:.*]] = stencil.access %A[0, 1] : f64
// CHECK-NEXT:        %[[NS:.*]] = arith.addf %[[N]], %[[S]] : f64
// CHECK-NEXT:        %[[WE:.*]] = arith.addf %[[W]], %[[E]] : f64
// CHECK-NEXT:        %[[V:.*]] = arith.addf %[[NS]], %[[WE]] : f64
// CHECK-NEXT:        stencil.yield %[[V]] : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
// CHECK-NEXT:        %[[B:.*]] = stencil.access %B[0, 0] : f64
// CHECK-NEXT:        stencil.yield %[[B]] : f64
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// GENERIC-LABEL: "stencil.program"() <{arg_names = ["A", "B"], defaults = {M = 6 : i64, N = 8 : i64, T = 2 : i64}, function_type = (!stencil.field<[N, M] x f64>, !stencil.field<[N, M] x f64>) -> (), param_mins = array<i64: 1, 3, 3>, param_names = ["T", "N", "M"], sym_name = "jacobi2d"}> ({
// GENERIC:           "stencil.apply"(%B) <{lower_bounds = affine_map<()[s0, s1, s2] -> (1, 1)>, name = "S0", upper_bounds = affine_map<()[s0, s1, s2] -> (s1 - 1, s2 - 1)>}> ({
// GENERIC-NEXT:        "stencil.access"(%A) <{offset = array<i64: -1, 0>}> : (!stencil.field<[N, M] x f64>) -> f64
stencil.program @jacobi2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 2, N = 8, M = 6] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %ns = arith.addf %n, %s : f64
      %we = arith.addf %w, %e : f64
      %v = arith.addf %ns, %we : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}

// 3-D, f32, extents and bounds with coefficients, an apply directly in the program (no time
// loop), and the coordinates %i, %j, %k.
// CHECK-LABEL: stencil.program @coords3d(
// CHECK-SAME:      %A: !stencil.field<[N, N + 1, 2 * N] x f32>) params [N >= 2] {
// CHECK-NEXT:    stencil.apply @S writes %A over [0, 1, N] to [N, N + 1, 2 * N] {
// CHECK-NEXT:      %i = stencil.index 0
// CHECK-NEXT:      %j = stencil.index 1
// CHECK-NEXT:      %k = stencil.index 2
// CHECK-NEXT:      %[[C:.*]] = stencil.access %A[0, -1, -1] : f32
// CHECK-NEXT:      stencil.yield %[[C]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// GENERIC-LABEL: "stencil.program"() <{arg_names = ["A"], function_type = (!stencil.field<[N, N + 1, 2 * N] x f32>) -> (), param_mins = array<i64: 2>, param_names = ["N"], sym_name = "coords3d"}> ({
// GENERIC-NEXT:  ^bb0(%A: !stencil.field<[N, N + 1, 2 * N] x f32>):
// GENERIC-NEXT:    "stencil.apply"(%A) <{lower_bounds = affine_map<()[s0] -> (0, 1, s0)>, name = "S", upper_bounds = affine_map<()[s0] -> (s0, s0 + 1, s0 * 2)>}> ({
// GENERIC-NEXT:      %i = "stencil.index"() <{dim = 0 : i64}> : () -> index
// GENERIC-NEXT:      %j = "stencil.index"() <{dim = 1 : i64}> : () -> index
// GENERIC-NEXT:      %k = "stencil.index"() <{dim = 2 : i64}> : () -> index
// GENERIC-NEXT:      %[[C:.*]] = "stencil.access"(%A) <{offset = array<i64: 0, -1, -1>}> : (!stencil.field<[N, N + 1, 2 * N] x f32>) -> f32
stencil.program @coords3d(%A: !stencil.field<[N, N + 1, 2 * N] x f32>) params [N >= 2] {
  stencil.apply @S writes %A over [0, 1, N] to [N, N + 1, 2 * N] {
    %i = stencil.index 0
    %j = stencil.index 1
    %k = stencil.index 2
    %c = stencil.access %A[0, -1, -1] : f32
    stencil.yield %c : f32
  }
}

// The general affine access `%F at [...]` over the induction variable and coordinates (fdtd-2d's
// `_fict_[t]`): the index values become operands and the expressions a `map` property. Affine
// expressions are simplified on parsing (2 * %t - %t is %t).
// CHECK-LABEL: stencil.program @source(
// CHECK-SAME:      %E: !stencil.field<[N, N] x f64>, %F: !stencil.field<[T] x f64>, %G: !stencil.field<[T + 1, N + 1] x f64>) params [T >= 1, N >= 2] {
// CHECK-NEXT:    stencil.iterate %t = 0 to T {
// CHECK-NEXT:      stencil.apply @S writes %E over [0, 0] to [1, N] {
// CHECK-NEXT:        %j = stencil.index 1
// CHECK-NEXT:        %[[F:.*]] = stencil.access %F at [%t] : f64
// CHECK-NEXT:        %{{.*}} = stencil.access %G at [%t + 1, %j + 1] : f64
// CHECK-NEXT:        %{{.*}} = stencil.access %G at [%t, %j] : f64
// CHECK-NEXT:        stencil.yield %[[F]] : f64
// GENERIC-LABEL: "stencil.program"() <{arg_names = ["E", "F", "G"],
// GENERIC:           %{{.*}} = "stencil.access"(%F, %t) <{map = affine_map<(d0) -> (d0)>}> : (!stencil.field<[T] x f64>, index) -> f64
// GENERIC-NEXT:      %{{.*}} = "stencil.access"(%G, %t, %j) <{map = affine_map<(d0, d1) -> (d0 + 1, d1 + 1)>}> : (!stencil.field<[T + 1, N + 1] x f64>, index, index) -> f64
// GENERIC-NEXT:      %{{.*}} = "stencil.access"(%G, %t, %j) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (!stencil.field<[T + 1, N + 1] x f64>, index, index) -> f64
stencil.program @source(%E: !stencil.field<[N, N] x f64>, %F: !stencil.field<[T] x f64>,
                        %G: !stencil.field<[T + 1, N + 1] x f64>) params [T >= 1, N >= 2] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %E over [0, 0] to [1, N] {
      %j = stencil.index 1
      %f = stencil.access %F at [%t] : f64
      %g = stencil.access %G at [%t + 1, %j + 1] : f64
      %h = stencil.access %G at [2 * %t - %t, %j] : f64
      stencil.yield %f : f64
    }
  }
}

// Spellings that print in a canonical form: `params []` and no parameters at all print
// nothing; `writes %A[0, 0]` (the zero write offset) and `order forward` are the defaults;
// parameters with minimum 0 print without `>= 0`; bounds print like extents (`2 * T - 1`, the
// constant last). Nested iterates name their variables %t, %t_0, ...
// CHECK-LABEL: stencil.program @empty() {
// CHECK-NEXT:  }
// GENERIC-LABEL: "stencil.program"() <{arg_names = [], function_type = () -> (), param_mins = array<i64>, param_names = [], sym_name = "empty"}> ({
stencil.program @empty() params [] {
}

// CHECK-LABEL: stencil.program @canonical(
// CHECK-SAME:      %A: !stencil.field<[8, N] x f64>) params [T, N >= 1] {
// CHECK-NEXT:    stencil.iterate %t = T - 1 to 2 * T - 1 {
// CHECK-NEXT:      stencil.iterate %t_0 = 0 to 3 {
// CHECK-NEXT:        stencil.apply @S writes %A over [1, 0] to [7, N] {
stencil.program @canonical(%A: !stencil.field<[8, N] x f64>) params [T >= 0, N >= 1] {
  stencil.iterate %t = T - 1 to T * 2 - 1 {
    stencil.iterate %u = 0 to 3 {
      stencil.apply @S writes %A[0, 0] over [1, 0] to [7, N + 0] order forward {
        %c = stencil.access %A[-1, 0] : f64
        stencil.yield %c : f64
      }
    }
  }
}

// Scalars of every kind with defaults (an integer literal for a float scalar is a float; i1
// takes 0 or 1 and is stored as a bool), and discardable attributes on every op (after the
// `attributes` keyword on ops with regions, as a trailing dictionary on the others).
// CHECK-LABEL: stencil.program @attributes(
// CHECK-SAME:      %A: !stencil.field<[8] x f64>, %x: f32, %k: i32, %n: index, %b: i1) defaults [x = 2.500000e+00, k = -3, n = 4, b = 1] attributes {origin = "test"} {
// CHECK-NEXT:    stencil.iterate %t = 0 to 3 attributes {unroll = 1 : i64} {
// CHECK-NEXT:      stencil.apply @S writes %A over [1] to [8] attributes {note = "fwd"} {
// CHECK-NEXT:        %[[C:.*]] = stencil.access %A[-1] {tag} : f64
// CHECK-NEXT:        %i = stencil.index 0 {tag}
// CHECK-NEXT:        stencil.yield {tag} %[[C]] : f64
// GENERIC-LABEL: "stencil.program"() <{arg_names = ["A", "x", "k", "n", "b"], defaults = {b = true, k = -3 : i32, n = 4 : index, x = 2.500000e+00 : f32}, function_type = (!stencil.field<[8] x f64>, f32, i32, index, i1) -> (), param_mins = array<i64>, param_names = [], sym_name = "attributes"}> ({
// GENERIC:             "stencil.yield"(%{{.*}}) {tag} : (f64) -> ()
// GENERIC-NEXT:      }) {note = "fwd"} : (!stencil.field<[8] x f64>) -> ()
// GENERIC-NEXT:    }) {unroll = 1 : i64} : () -> ()
// GENERIC-NEXT:  }) {origin = "test"} : () -> ()
stencil.program @attributes(%A: !stencil.field<[8] x f64>, %x: f32, %k: i32, %n: index, %b: i1)
    defaults [x = 2.5, k = -3, n = 4, b = 1] attributes {origin = "test"} {
  stencil.iterate %t = 0 to 3 attributes {unroll = 1 : i64} {
    stencil.apply @S writes %A over [1] to [8] attributes {note = "fwd"} {
      %c = stencil.access %A[-1] {tag} : f64
      %i = stencil.index 0 {tag}
      stencil.yield {tag} %c : f64
    }
  }
}

// stencil.call runs a program on memrefs: its fields as memrefs (static sizes at least the
// constant extents, dynamic ones for symbolic extents), its scalars, then its parameters as
// index values — the lowered program's signature.
// CHECK-LABEL: func.func @caller(
// CHECK-NEXT:    stencil.call @sor1d(%arg0, %arg1, %arg2, %arg3) : (memref<?xf64>, f64, index, index) -> ()
// CHECK-NEXT:    stencil.call @attributes(%arg4, %arg5, %arg6, %arg2, %arg7) {note = "x"} : (memref<8xf64>, f32, i32, index, i1) -> ()
// GENERIC-LABEL: "func.func"() <{function_type = (memref<?xf64>, f64, index, index, memref<8xf64>, f32, i32, i1) -> (), sym_name = "caller"}> ({
// GENERIC-NEXT:  ^bb0(
// GENERIC-NEXT:    "stencil.call"(%{{.*}}) <{callee = @sor1d}> : (memref<?xf64>, f64, index, index) -> ()
func.func @caller(%A: memref<?xf64>, %w: f64, %T: index, %N: index, %B: memref<8xf64>, %x: f32, %k: i32, %b: i1) {
  stencil.call @sor1d(%A, %w, %T, %N) : (memref<?xf64>, f64, index, index) -> ()
  stencil.call @attributes(%B, %x, %k, %T, %b) {note = "x"} : (memref<8xf64>, f32, i32, index, i1) -> ()
  return
}

// A float default is rounded to its scalar's type when parsed, as MLIR rounds a literal: an f32
// scalar keeps 0.1's f32 value (printed so that it parses back to the same bits) and a value
// past the f32 range becomes +inf (hexadecimal bits), so printing and parsing again is stable.
// CHECK-LABEL: stencil.program @rounded_defaults(
// CHECK-SAME:      %x: f32, %y: f32, %z: f64) defaults [x = 1.000000e-01, y = 0x7F800000, z = 1.000000e+300] {
// GENERIC-LABEL: "stencil.program"() <{arg_names = ["A", "x", "y", "z"], defaults = {x = 1.000000e-01 : f32, y = 0x7F800000 : f32, z = 1.000000e+300 : f64}
stencil.program @rounded_defaults(%A: !stencil.field<[8] x f64>, %x: f32, %y: f32, %z: f64)
    defaults [x = 0.1, y = 1.0e300, z = 1.0e300] {
  stencil.iterate %t = 0 to 1 {
    stencil.apply @S writes %A over [1] to [8] {
      %c = stencil.access %A[-1] : f64
      stencil.yield %c : f64
    }
  }
}
