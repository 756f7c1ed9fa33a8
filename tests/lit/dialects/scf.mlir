// The scf dialect in custom form: scf.for (index and integer bounds, `unsigned`, iter_args),
// scf.if (with and without else and results), scf.yield, scf.parallel with scf.reduce and
// scf.reduce.return, scf.while with scf.condition. The printed text is MLIR 22's, double
// spaces included; terminators that yield nothing are left out of the custom form and
// inserted again by the parser.
// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @loops(
// CHECK-SAME:      %[[LB:.*]]: index, %[[UB:.*]]: index, %[[ST:.*]]: index, %[[X:.*]]: f32, %[[M:.*]]: memref<?xf32>, %[[A:.*]]: i32, %[[B:.*]]: i32) -> f32 {
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[ST]] {
// CHECK-NEXT:      memref.store %[[X]], %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[ST]] iter_args(%[[ACC:.*]] = %[[X]]) -> (f32) {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:      memref.store %[[ACC]], %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:      scf.yield %[[V]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}}:2 = scf.for %{{.*}} = %[[LB]] to %[[UB]] step %[[ST]] iter_args(%[[P:.*]] = %[[X]], %[[Q:.*]] = %[[R]]) -> (f32, f32) {
// CHECK-NEXT:      scf.yield %[[Q]], %[[P]] : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %{{.*}} = %[[A]] to %[[B]] step %[[A]]  : i32 {
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for unsigned %{{.*}} = %[[A]] to %[[B]] step %[[A]]  : i32 {
// CHECK-NEXT:    } {note = "unsigned"}
// CHECK-NEXT:    %{{.*}} = scf.for %{{.*}} = %[[A]] to %[[B]] step %[[A]] iter_args(%[[Z:.*]] = %[[X]]) -> (f32)  : i32 {
// CHECK-NEXT:      scf.yield %[[Z]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : f32
// GENERIC-LABEL: "func.func"() <{function_type = (index, index, index, f32, memref<?xf32>, i32, i32) -> f32, sym_name = "loops"}> ({
// GENERIC-NEXT:  ^bb0(%[[LB:.*]]: index, %[[UB:.*]]: index, %[[ST:.*]]: index, %[[X:.*]]: f32, %[[M:.*]]: memref<?xf32>, %[[A:.*]]: i32, %[[B:.*]]: i32):
// GENERIC-NEXT:    "scf.for"(%[[LB]], %[[UB]], %[[ST]]) ({
// GENERIC-NEXT:    ^bb0(%[[I:.*]]: index):
// GENERIC-NEXT:      "memref.store"(%[[X]], %[[M]], %[[I]]) : (f32, memref<?xf32>, index) -> ()
// GENERIC-NEXT:      "scf.yield"() : () -> ()
// GENERIC-NEXT:    }) : (index, index, index) -> ()
// GENERIC-NEXT:    %[[R:.*]] = "scf.for"(%[[LB]], %[[UB]], %[[ST]], %[[X]]) ({
// GENERIC-NEXT:    ^bb0(%[[I:.*]]: index, %[[ACC:.*]]: f32):
// GENERIC-NEXT:      %[[V:.*]] = "memref.load"(%[[M]], %[[I]]) : (memref<?xf32>, index) -> f32
// GENERIC-NEXT:      "memref.store"(%[[ACC]], %[[M]], %[[I]]) : (f32, memref<?xf32>, index) -> ()
// GENERIC-NEXT:      "scf.yield"(%[[V]]) : (f32) -> ()
// GENERIC-NEXT:    }) : (index, index, index, f32) -> f32
// GENERIC-NEXT:    %{{.*}}:2 = "scf.for"(%[[LB]], %[[UB]], %[[ST]], %[[X]], %[[R]]) ({
// GENERIC-NEXT:    ^bb0(%{{.*}}: index, %[[P:.*]]: f32, %[[Q:.*]]: f32):
// GENERIC-NEXT:      "scf.yield"(%[[Q]], %[[P]]) : (f32, f32) -> ()
// GENERIC-NEXT:    }) : (index, index, index, f32, f32) -> (f32, f32)
// GENERIC-NEXT:    "scf.for"(%[[A]], %[[B]], %[[A]]) ({
// GENERIC-NEXT:    ^bb0(%{{.*}}: i32):
// GENERIC-NEXT:      "scf.yield"() : () -> ()
// GENERIC-NEXT:    }) : (i32, i32, i32) -> ()
// GENERIC-NEXT:    "scf.for"(%[[A]], %[[B]], %[[A]]) <{unsignedCmp}> ({
// GENERIC-NEXT:    ^bb0(%{{.*}}: i32):
// GENERIC-NEXT:      "scf.yield"() : () -> ()
// GENERIC-NEXT:    }) {note = "unsigned"} : (i32, i32, i32) -> ()
// GENERIC-NEXT:    %{{.*}} = "scf.for"(%[[A]], %[[B]], %[[A]], %[[X]]) ({
// GENERIC-NEXT:    ^bb0(%{{.*}}: i32, %[[Z:.*]]: f32):
// GENERIC-NEXT:      "scf.yield"(%[[Z]]) : (f32) -> ()
// GENERIC-NEXT:    }) : (i32, i32, i32, f32) -> f32
// GENERIC-NEXT:    "func.return"(%[[R]]) : (f32) -> ()
func.func @loops(%lb: index, %ub: index, %st: index, %x: f32, %m: memref<?xf32>, %a: i32, %b: i32) -> f32 {
  scf.for %i = %lb to %ub step %st {
    memref.store %x, %m[%i] : memref<?xf32>
  }
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %x) -> (f32) {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %acc, %m[%i] : memref<?xf32>
    scf.yield %v : f32
  }
  %r2:2 = scf.for %i = %lb to %ub step %st iter_args(%p = %x, %q = %r) -> (f32, f32) {
    scf.yield %q, %p : f32, f32
  }
  scf.for %k = %a to %b step %a : i32 {
    scf.yield
  }
  scf.for unsigned %k = %a to %b step %a : i32 {
  } {note = "unsigned"}
  %r3 = scf.for %k = %a to %b step %a iter_args(%z = %x) -> f32 : i32 {
    scf.yield %z : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @conditionals(
// CHECK-SAME:      %[[C:.*]]: i1, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[M:.*]]: memref<4xf32>, %[[I:.*]]: index, %[[N:.*]]: i32) -> f32 {
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      memref.store %[[X]], %[[M]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      memref.store %[[X]], %[[M]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %[[Y]], %[[M]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    } {note}
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:    } else {
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[C]] -> (f32) {
// CHECK-NEXT:      scf.yield %[[X]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield {note} %[[Y]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}}:2 = scf.if %[[C]] -> (f32, i32) {
// CHECK-NEXT:      scf.yield %[[R]], %[[N]] : f32, i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[X]], %[[N]] : f32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : f32
// GENERIC-LABEL: "func.func"() <{function_type = (i1, f32, f32, memref<4xf32>, index, i32) -> f32, sym_name = "conditionals"}> ({
// GENERIC-NEXT:  ^bb0(%[[C:.*]]: i1, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[M:.*]]: memref<4xf32>, %[[I:.*]]: index, %[[N:.*]]: i32):
// GENERIC-NEXT:    "scf.if"(%[[C]]) ({
// GENERIC-NEXT:      "memref.store"(%[[X]], %[[M]], %[[I]]) : (f32, memref<4xf32>, index) -> ()
// GENERIC-NEXT:      "scf.yield"() : () -> ()
// GENERIC-NEXT:    }, {
// GENERIC-NEXT:    }) : (i1) -> ()
// GENERIC-NEXT:    "scf.if"(%[[C]]) ({
// GENERIC-NEXT:      "memref.store"(%[[X]], %[[M]], %[[I]]) : (f32, memref<4xf32>, index) -> ()
// GENERIC-NEXT:      "scf.yield"() : () -> ()
// GENERIC-NEXT:    }, {
// GENERIC-NEXT:      "memref.store"(%[[Y]], %[[M]], %[[I]]) : (f32, memref<4xf32>, index) -> ()
// GENERIC-NEXT:      "scf.yield"() : () -> ()
// GENERIC-NEXT:    }) {note} : (i1) -> ()
// GENERIC-NEXT:    "scf.if"(%[[C]]) ({
// GENERIC-NEXT:      "scf.yield"() : () -> ()
// GENERIC-NEXT:    }, {
// GENERIC-NEXT:      "scf.yield"() : () -> ()
// GENERIC-NEXT:    }) : (i1) -> ()
// GENERIC-NEXT:    %[[R:.*]] = "scf.if"(%[[C]]) ({
// GENERIC-NEXT:      "scf.yield"(%[[X]]) : (f32) -> ()
// GENERIC-NEXT:    }, {
// GENERIC-NEXT:      "scf.yield"(%[[Y]]) {note} : (f32) -> ()
// GENERIC-NEXT:    }) : (i1) -> f32
// GENERIC-NEXT:    %{{.*}}:2 = "scf.if"(%[[C]]) ({
// GENERIC-NEXT:      "scf.yield"(%[[R]], %[[N]]) : (f32, i32) -> ()
// GENERIC-NEXT:    }, {
// GENERIC-NEXT:      "scf.yield"(%[[X]], %[[N]]) : (f32, i32) -> ()
// GENERIC-NEXT:    }) : (i1) -> (f32, i32)
// GENERIC-NEXT:    "func.return"(%[[R]]) : (f32) -> ()
func.func @conditionals(%c: i1, %x: f32, %y: f32, %m: memref<4xf32>, %i: index, %n: i32) -> f32 {
  scf.if %c {
    memref.store %x, %m[%i] : memref<4xf32>
  }
  scf.if %c {
    memref.store %x, %m[%i] : memref<4xf32>
  } else {
    memref.store %y, %m[%i] : memref<4xf32>
  } {note}
  scf.if %c {
  } else {
  }
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    scf.yield {note} %y : f32
  }
  %r2:2 = scf.if %c -> (f32, i32) {
    scf.yield %r, %n : f32, i32
  } else {
    scf.yield %x, %n : f32, i32
  }
  return %r : f32
}

// scf.parallel always prints its scf.reduce terminator (with MLIR's trailing space when it
// reduces nothing).
// CHECK-LABEL: func.func @parallel(
// CHECK-SAME:      %[[LB:.*]]: index, %[[UB:.*]]: index, %[[ST:.*]]: index, %[[X:.*]]: f32, %[[N:.*]]: i32, %[[M:.*]]: memref<?x?xf32>) -> f32 {
// CHECK-NEXT:    scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[LB]], %[[LB]]) to (%[[UB]], %[[UB]]) step (%[[ST]], %[[ST]]) {
// CHECK-NEXT:      memref.store %[[X]], %[[M]][%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:      scf.reduce {{$}}
// CHECK-NEXT:    } {note}
// CHECK-NEXT:    %[[R:.*]] = scf.parallel (%[[I:.*]]) = (%[[LB]]) to (%[[UB]]) step (%[[ST]]) init (%[[X]]) -> f32 {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[M]][%[[I]], %[[I]]] : memref<?x?xf32>
// CHECK-NEXT:      scf.reduce(%[[V]] : f32) {
// CHECK-NEXT:      ^bb0(%[[L:.*]]: f32, %[[RR:.*]]: f32):
// CHECK-NEXT:        memref.store %[[RR]], %[[M]][%[[LB]], %[[UB]]] : memref<?x?xf32>
// CHECK-NEXT:        scf.reduce.return %[[L]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}}:2 = scf.parallel (%[[I:.*]]) = (%[[LB]]) to (%[[UB]]) step (%[[ST]]) init (%[[X]], %[[N]]) -> (f32, i32) {
// CHECK-NEXT:      scf.reduce(%[[X]], %[[N]] : f32, i32) {
// CHECK-NEXT:      ^bb0(%[[L:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:        scf.reduce.return %[[L]] : f32
// CHECK-NEXT:      }, {
// CHECK-NEXT:      ^bb0(%{{.*}}: i32, %[[RR:.*]]: i32):
// CHECK-NEXT:        scf.reduce.return %[[RR]] {note} : i32
// CHECK-NEXT:      } {note}
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : f32
// GENERIC-LABEL: "func.func"() <{function_type = (index, index, index, f32, i32, memref<?x?xf32>) -> f32, sym_name = "parallel"}> ({
// GENERIC-NEXT:  ^bb0(%[[LB:.*]]: index, %[[UB:.*]]: index, %[[ST:.*]]: index, %[[X:.*]]: f32, %[[N:.*]]: i32, %[[M:.*]]: memref<?x?xf32>):
// GENERIC-NEXT:    "scf.parallel"(%[[LB]], %[[LB]], %[[UB]], %[[UB]], %[[ST]], %[[ST]]) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
// GENERIC-NEXT:    ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// GENERIC-NEXT:      "memref.store"(%[[X]], %[[M]], %[[I]], %[[J]]) : (f32, memref<?x?xf32>, index, index) -> ()
// GENERIC-NEXT:      "scf.reduce"() : () -> ()
// GENERIC-NEXT:    }) {note} : (index, index, index, index, index, index) -> ()
// GENERIC-NEXT:    %[[R:.*]] = "scf.parallel"(%[[LB]], %[[UB]], %[[ST]], %[[X]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
// GENERIC-NEXT:    ^bb0(%[[I:.*]]: index):
// GENERIC-NEXT:      %[[V:.*]] = "memref.load"(%[[M]], %[[I]], %[[I]]) : (memref<?x?xf32>, index, index) -> f32
// GENERIC-NEXT:      "scf.reduce"(%[[V]]) ({
// GENERIC-NEXT:      ^bb0(%[[L:.*]]: f32, %[[RR:.*]]: f32):
// GENERIC-NEXT:        "memref.store"(%[[RR]], %[[M]], %[[LB]], %[[UB]]) : (f32, memref<?x?xf32>, index, index) -> ()
// GENERIC-NEXT:        "scf.reduce.return"(%[[L]]) : (f32) -> ()
// GENERIC-NEXT:      }) : (f32) -> ()
// GENERIC-NEXT:    }) : (index, index, index, f32) -> f32
// GENERIC-NEXT:    %{{.*}}:2 = "scf.parallel"(%[[LB]], %[[UB]], %[[ST]], %[[X]], %[[N]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 2>}> ({
// GENERIC-NEXT:    ^bb0(%{{.*}}: index):
// GENERIC-NEXT:      "scf.reduce"(%[[X]], %[[N]]) ({
// GENERIC-NEXT:      ^bb0(%[[L:.*]]: f32, %{{.*}}: f32):
// GENERIC-NEXT:        "scf.reduce.return"(%[[L]]) : (f32) -> ()
// GENERIC-NEXT:      }, {
// GENERIC-NEXT:      ^bb0(%{{.*}}: i32, %[[RR:.*]]: i32):
// GENERIC-NEXT:        "scf.reduce.return"(%[[RR]]) {note} : (i32) -> ()
// GENERIC-NEXT:      }) {note} : (f32, i32) -> ()
// GENERIC-NEXT:    }) : (index, index, index, f32, i32) -> (f32, i32)
// GENERIC-NEXT:    "func.return"(%[[R]]) : (f32) -> ()
func.func @parallel(%lb: index, %ub: index, %st: index, %x: f32, %n: i32, %m: memref<?x?xf32>) -> f32 {
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%st, %st) {
    memref.store %x, %m[%i, %j] : memref<?x?xf32>
  } {note}
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%x) -> f32 {
    %v = memref.load %m[%i, %i] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %rr: f32):
      memref.store %rr, %m[%lb, %ub] : memref<?x?xf32>
      scf.reduce.return %l : f32
    }
  }
  %r2:2 = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%x, %n) -> (f32, i32) {
    scf.reduce(%x, %n : f32, i32) {
    ^bb0(%l: f32, %rr: f32):
      scf.reduce.return %l : f32
    }, {
    ^bb0(%l: i32, %rr: i32):
      scf.reduce.return %rr {note} : i32
    } {note}
  }
  return %r : f32
}

// CHECK-LABEL: func.func @while_loops(
// CHECK-SAME:      %[[A:.*]]: i32, %[[C:.*]]: i1, %[[X:.*]]: f32) -> i32 {
// CHECK-NEXT:    %[[W:.*]] = scf.while (%[[ARG:.*]] = %[[A]]) : (i32) -> i32 {
// CHECK-NEXT:      scf.condition(%[[C]]) %[[ARG]] : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[B:.*]]: i32):
// CHECK-NEXT:      scf.yield %[[B]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}}:2 = scf.while (%[[P:.*]] = %[[X]], %[[Q:.*]] = %[[A]]) : (f32, i32) -> (i32, f32) {
// CHECK-NEXT:      scf.condition(%[[C]]) {note} %[[Q]], %[[P]] : i32, f32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: i32, %[[F:.*]]: f32):
// CHECK-NEXT:      scf.yield %[[F]], %[[E]] : f32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.while : () -> () {
// CHECK-NEXT:      scf.condition(%[[C]])
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } attributes {note}
// CHECK-NEXT:    return %[[W]] : i32
// GENERIC-LABEL: "func.func"() <{function_type = (i32, i1, f32) -> i32, sym_name = "while_loops"}> ({
// GENERIC-NEXT:  ^bb0(%[[A:.*]]: i32, %[[C:.*]]: i1, %[[X:.*]]: f32):
// GENERIC-NEXT:    %[[W:.*]] = "scf.while"(%[[A]]) ({
// GENERIC-NEXT:    ^bb0(%[[ARG:.*]]: i32):
// GENERIC-NEXT:      "scf.condition"(%[[C]], %[[ARG]]) : (i1, i32) -> ()
// GENERIC-NEXT:    }, {
// GENERIC-NEXT:    ^bb0(%[[B:.*]]: i32):
// GENERIC-NEXT:      "scf.yield"(%[[B]]) : (i32) -> ()
// GENERIC-NEXT:    }) : (i32) -> i32
// GENERIC-NEXT:    %{{.*}}:2 = "scf.while"(%[[X]], %[[A]]) ({
// GENERIC-NEXT:    ^bb0(%[[P:.*]]: f32, %[[Q:.*]]: i32):
// GENERIC-NEXT:      "scf.condition"(%[[C]], %[[Q]], %[[P]]) {note} : (i1, i32, f32) -> ()
// GENERIC-NEXT:    }, {
// GENERIC-NEXT:    ^bb0(%[[E:.*]]: i32, %[[F:.*]]: f32):
// GENERIC-NEXT:      "scf.yield"(%[[F]], %[[E]]) : (f32, i32) -> ()
// GENERIC-NEXT:    }) : (f32, i32) -> (i32, f32)
// GENERIC-NEXT:    "scf.while"() ({
// GENERIC-NEXT:      "scf.condition"(%[[C]]) : (i1) -> ()
// GENERIC-NEXT:    }, {
// GENERIC-NEXT:      "scf.yield"() : () -> ()
// GENERIC-NEXT:    }) {note} : () -> ()
// GENERIC-NEXT:    "func.return"(%[[W]]) : (i32) -> ()
func.func @while_loops(%a: i32, %c: i1, %x: f32) -> i32 {
  %w = scf.while (%arg = %a) : (i32) -> i32 {
    scf.condition(%c) %arg : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  %w2:2 = scf.while (%p = %x, %q = %a) : (f32, i32) -> (i32, f32) {
    scf.condition(%c) {note} %q, %p : i32, f32
  } do {
  ^bb0(%e: i32, %f: f32):
    scf.yield %f, %e : f32, i32
  }
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  } attributes {note}
  return %w : i32
}
