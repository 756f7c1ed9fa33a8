// The generic form of the stencil dialect is plain MLIR, so mlir-opt 22 reads it as unregistered
// ops (with the arith and math ops inside registered and verified), prints it back, and
// stencil-opt turns that into the same custom form. Properties (affine_map bounds, dense
// offsets, the defaults dictionary) and the opaque !stencil.field type survive unchanged;
// argument names come back from the `arg_names` property although mlir-opt renames the block
// arguments.
// RUN: stencil-opt %s --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=MLIR
// RUN: stencil-opt %s --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect | stencil-opt | FileCheck %s

// MLIR-LABEL: "stencil.program"() <{arg_names = ["ey", "hz", "fict", "c"], defaults = {NX = 8 : i64, NY = 8 : i64, T = 4 : i64, c = 5.000000e-01 : f64}, function_type = (!stencil.field<[NX, NY] x f64>, !stencil.field<[NX, NY] x f64>, !stencil.field<[T] x f64>, f64) -> (), param_mins = array<i64: 1, 2, 2>, param_names = ["T", "NX", "NY"], sym_name = "fdtd"}> ({
// MLIR-NEXT:  ^bb0(%[[EY:.*]]: !stencil.field<[NX, NY] x f64>, %[[HZ:.*]]: !stencil.field<[NX, NY] x f64>, %[[FICT:.*]]: !stencil.field<[T] x f64>, %[[C:.*]]: f64):
// MLIR-NEXT:    "stencil.iterate"() <{lower_bound = affine_map<()[s0, s1, s2] -> (0)>, upper_bound = affine_map<()[s0, s1, s2] -> (s0)>}> ({
// MLIR-NEXT:    ^bb0(%[[T:.*]]: index):
// MLIR-NEXT:      "stencil.apply"(%[[EY]]) <{lower_bounds = affine_map<()[s0, s1, s2] -> (0, 0)>, name = "S0", upper_bounds = affine_map<()[s0, s1, s2] -> (1, s2)>}> ({
// MLIR-NEXT:        %[[F:.*]] = "stencil.access"(%[[FICT]], %[[T]]) <{map = affine_map<(d0) -> (d0)>}> : (!stencil.field<[T] x f64>, index) -> f64
// MLIR-NEXT:        "stencil.yield"(%[[F]]) : (f64) -> ()
// MLIR-NEXT:      }) : (!stencil.field<[NX, NY] x f64>) -> ()
// MLIR-NEXT:      "stencil.apply"(%[[EY]]) <{lower_bounds = affine_map<()[s0, s1, s2] -> (1, 0)>, name = "S1", order = "reverse", upper_bounds = affine_map<()[s0, s1, s2] -> (s1, s2)>}> ({
// MLIR-NEXT:        %[[E:.*]] = "stencil.access"(%[[EY]]) <{offset = array<i64: 0, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
// MLIR-NEXT:        %[[H:.*]] = "stencil.access"(%[[HZ]]) <{offset = array<i64: -1, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
// MLIR-NEXT:        %{{.*}} = "stencil.index"() <{dim = 1 : i64}> : () -> index
// MLIR-NEXT:        %[[D:.*]] = "arith.subf"(%[[E]], %[[H]]) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
// MLIR-NEXT:        %[[R:.*]] = "math.sqrt"(%[[D]]) <{fastmath = #arith.fastmath<none>}> : (f64) -> f64
// MLIR-NEXT:        %[[V:.*]] = "arith.mulf"(%[[C]], %[[R]]) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
// MLIR-NEXT:        "stencil.yield"(%[[V]]) : (f64) -> ()
// MLIR-NEXT:      }) : (!stencil.field<[NX, NY] x f64>) -> ()
// MLIR-NEXT:    }) : () -> ()
// MLIR-NEXT:  }) : () -> ()

// CHECK-LABEL: stencil.program @fdtd(
// CHECK-SAME:      %ey: !stencil.field<[NX, NY] x f64>, %hz: !stencil.field<[NX, NY] x f64>, %fict: !stencil.field<[T] x f64>, %c: f64) params [T >= 1, NX >= 2, NY >= 2] defaults [T = 4, NX = 8, NY = 8, c = 5.000000e-01] {
// CHECK-NEXT:    stencil.iterate %t = 0 to T {
// CHECK-NEXT:      stencil.apply @S0 writes %ey over [0, 0] to [1, NY] {
// CHECK-NEXT:        %[[F:.*]] = stencil.access %fict at [%t] : f64
// CHECK-NEXT:        stencil.yield %[[F]] : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      stencil.apply @S1 writes %ey over [1, 0] to [NX, NY] order reverse {
// CHECK-NEXT:        %[[E:.*]] = stencil.access %ey[0, 0] : f64
// CHECK-NEXT:        %[[H:.*]] = stencil.access %hz[-1, 0] : f64
// CHECK-NEXT:        %j = stencil.index 1
// CHECK-NEXT:        %[[D:.*]] = arith.subf %[[E]], %[[H]] : f64
// CHECK-NEXT:        %[[R:.*]] = math.sqrt %[[D]] : f64
// CHECK-NEXT:        %[[V:.*]] = arith.mulf %c, %[[R]] : f64
// CHECK-NEXT:        stencil.yield %[[V]] : f64
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
stencil.program @fdtd(%ey: !stencil.field<[NX, NY] x f64>, %hz: !stencil.field<[NX, NY] x f64>,
                      %fict: !stencil.field<[T] x f64>, %c: f64)
    params [T >= 1, NX >= 2, NY >= 2] defaults [T = 4, NX = 8, NY = 8, c = 0.5] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %ey over [0, 0] to [1, NY] {
      %f = stencil.access %fict at [%t] : f64
      stencil.yield %f : f64
    }
    stencil.apply @S1 writes %ey over [1, 0] to [NX, NY] order reverse {
      %e = stencil.access %ey[0, 0] : f64
      %h = stencil.access %hz[-1, 0] : f64
      %j = stencil.index 1
      %d = arith.subf %e, %h : f64
      %r = math.sqrt %d : f64
      %v = arith.mulf %c, %r : f64
      stencil.yield %v : f64
    }
  }
}

// A program with no arguments and an empty body: its entry block prints as `^bb0:`.
// MLIR-LABEL: "stencil.program"() <{arg_names = [], function_type = () -> (), param_mins = array<i64>, param_names = [], sym_name = "empty"}> ({
// CHECK-LABEL: stencil.program @empty() {
// CHECK-NEXT:  }
stencil.program @empty() {
}
