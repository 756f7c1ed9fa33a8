// The affine dialect in custom form: affine.for with every bound form (constants, a bare SSA
// value, single-result maps over dims and symbols, `max`/`min` of multi-result maps, maps given
// inline or through `#alias`es), `step` and iter_args; affine.if with and without else and
// results; affine.load/affine.store with affine subscripts over SSA values (`symbol(%n)` marks
// symbols); affine.apply, affine.min, affine.max, affine.yield; affine.parallel with steps,
// `max(...)`/`min(...)` bound groups and reductions. The printed text is MLIR 22's with maps
// printed inline instead of as `#map` aliases; terminators that yield nothing are left out of
// the custom form and inserted again by the parser. The generic form pins the properties
// (lowerBoundMap, operandSegmentSizes, lowerBoundsGroups, ...) exactly as MLIR 22 prints them.
// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

#lb = affine_map<(d0)[s0] -> (d0 + s0, 0)>
#ub = affine_map<(d0) -> (d0 + 10, 20)>
#shift = affine_map<(d0) -> (d0 + 1)>
#set = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 1 >= 0)>

// CHECK-LABEL: func.func @bounds(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<10x20xf32>, %[[N:[a-z0-9_]+]]: index, %[[LB:[a-z0-9_]+]]: index) {
// CHECK-NEXT: affine.for %[[ARG3:[a-z0-9_]+]] = 0 to 10 {
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[ARG3:[a-z0-9_]+]] = -4 to 10 step 3 {
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[ARG3:[a-z0-9_]+]] = %[[LB]] to %[[N]] step 2 {
// CHECK-NEXT: affine.for %[[ARG4:[a-z0-9_]+]] = affine_map<(d0) -> (d0)>(%[[ARG3]]) to affine_map<(d0)[s0] -> (d0 + s0)>(%[[ARG3]])[%[[N]]] {
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[ARG3:[a-z0-9_]+]] = max affine_map<(d0)[s0] -> (d0 + s0, 0)>(%[[LB]])[%[[N]]] to min affine_map<(d0) -> (d0 + 10, 20)>(%[[N]]) {
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[ARG3:[a-z0-9_]+]] = %[[N]] to affine_map<()[s0] -> (s0 * 2)>()[%[[N]]] {
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[ARG3:[a-z0-9_]+]] = affine_map<(d0) -> (d0 + 1)>(%[[LB]]) to 7 {
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[ARG3:[a-z0-9_]+]] = 0 to 10 {
// CHECK-NEXT: } {note = "attrs after the body"}
// CHECK-NEXT: return
// CHECK-NEXT: }
// GENERIC-LABEL: "func.func"() <{function_type = (memref<10x20xf32>, index, index) -> (), sym_name = "bounds"}> ({
// GENERIC-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: memref<10x20xf32>, %[[N:[a-z0-9_]+]]: index, %[[LB:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "affine.for"() <{lowerBoundMap = affine_map<() -> (-4)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 3 : index, upperBoundMap = affine_map<() -> (10)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "affine.for"(%[[LB]], %[[N]]) <{lowerBoundMap = affine_map<()[s0] -> (s0)>, operandSegmentSizes = array<i32: 1, 1, 0>, step = 2 : index, upperBoundMap = affine_map<()[s0] -> (s0)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.for"(%[[ARG3]], %[[ARG3]], %[[N]]) <{lowerBoundMap = affine_map<(d0) -> (d0)>, operandSegmentSizes = array<i32: 1, 2, 0>, step = 1 : index, upperBoundMap = affine_map<(d0)[s0] -> (d0 + s0)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG4:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : (index, index, index) -> ()
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : (index, index) -> ()
// GENERIC-NEXT: "affine.for"(%[[LB]], %[[N]], %[[N]]) <{lowerBoundMap = affine_map<(d0)[s0] -> (d0 + s0, 0)>, operandSegmentSizes = array<i32: 2, 1, 0>, step = 1 : index, upperBoundMap = affine_map<(d0) -> (d0 + 10, 20)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : (index, index, index) -> ()
// GENERIC-NEXT: "affine.for"(%[[N]], %[[N]]) <{lowerBoundMap = affine_map<()[s0] -> (s0)>, operandSegmentSizes = array<i32: 1, 1, 0>, step = 1 : index, upperBoundMap = affine_map<()[s0] -> (s0 * 2)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : (index, index) -> ()
// GENERIC-NEXT: "affine.for"(%[[LB]]) <{lowerBoundMap = affine_map<(d0) -> (d0 + 1)>, operandSegmentSizes = array<i32: 1, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (7)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : (index) -> ()
// GENERIC-NEXT: "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) {note = "attrs after the body"} : () -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
func.func @bounds(%A: memref<10x20xf32>, %n: index, %lb: index) {
  affine.for %i = 0 to 10 {
  }
  affine.for %i = -4 to 10 step 3 {
  }
  affine.for %i = %lb to %n step 2 {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to affine_map<(d0)[s0] -> (d0 + s0)>(%i)[%n] {
    }
  }
  affine.for %i = max #lb(%lb)[%n] to min #ub(%n) {
  }
  affine.for %i = max affine_map<()[s0] -> (s0)>()[%n] to min affine_map<()[s0] -> (s0 * 2)>()[%n] {
  }
  affine.for %i = #shift(%lb) to affine_map<() -> (7)>() {
  }
  affine.for %i = 0 to 10 {
  } {note = "attrs after the body"}
  return
}

// CHECK-LABEL: func.func @iter_args(
// CHECK-SAME: %[[N:[a-z0-9_]+]]: index, %[[X:[a-z0-9_]+]]: f32) -> (index, f32) {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]]:2 = affine.for %[[ARG2:[a-z0-9_]+]] = 0 to %[[N]] iter_args(%[[ARG3:[a-z0-9_]+]] = %[[N]], %[[ARG4:[a-z0-9_]+]] = %[[X]]) -> (index, f32) {
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[ARG3]])
// CHECK-NEXT: affine.yield %[[V1]], %[[ARG4]] : index, f32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V0]]#0, %[[V0]]#1 : index, f32
// CHECK-NEXT: }
// GENERIC-LABEL: "func.func"() <{function_type = (index, f32) -> (index, f32), sym_name = "iter_args"}> ({
// GENERIC-NEXT: ^bb0(%[[N:[a-z0-9_]+]]: index, %[[X:[a-z0-9_]+]]: f32):
// GENERIC-NEXT: %[[V0:[a-z0-9_]+]]:2 = "affine.for"(%[[N]], %[[N]], %[[X]]) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 1, 2>, step = 1 : index, upperBoundMap = affine_map<()[s0] -> (s0)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG2:[a-z0-9_]+]]: index, %[[ARG3:[a-z0-9_]+]]: index, %[[ARG4:[a-z0-9_]+]]: f32):
// GENERIC-NEXT: %[[V1:[a-z0-9_]+]] = "affine.apply"(%[[ARG3]]) <{map = affine_map<(d0) -> (d0 + 1)>}> : (index) -> index
// GENERIC-NEXT: "affine.yield"(%[[V1]], %[[ARG4]]) : (index, f32) -> ()
// GENERIC-NEXT: }) : (index, index, f32) -> (index, f32)
// GENERIC-NEXT: "func.return"(%[[V0]]#0, %[[V0]]#1) : (index, f32) -> ()
// GENERIC-NEXT: }) : () -> ()
func.func @iter_args(%n: index, %x: f32) -> (index, f32) {
  %r:2 = affine.for %i = 0 to %n iter_args(%acc = %n, %f = %x) -> (index, f32) {
    %a = affine.apply #shift(%acc)
    affine.yield %a, %f : index, f32
  }
  return %r#0, %r#1 : index, f32
}

// CHECK-LABEL: func.func @access(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<10x20xf32>, %[[B:[a-z0-9_]+]]: memref<f32>, %[[N:[a-z0-9_]+]]: index) {
// CHECK-NEXT: affine.for %[[ARG3:[a-z0-9_]+]] = 0 to 10 {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = affine.load %[[A]][%[[ARG3]] + 1, symbol(%[[N]]) floordiv 2] : memref<10x20xf32>
// CHECK-NEXT: affine.store %[[V0]], %[[A]][%[[ARG3]], %[[ARG3]] * 2 - symbol(%[[N]])] : memref<10x20xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = affine.load %[[A]][-%[[ARG3]] + symbol(%[[N]]) * 3 - 7, (%[[ARG3]] mod 4) ceildiv 2] : memref<10x20xf32>
// CHECK-NEXT: affine.store %[[V1]], %[[A]][(%[[ARG3]] + symbol(%[[N]])) * -2, 3] {nontemporal = true} : memref<10x20xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = affine.load %[[B]][] : memref<f32>
// CHECK-NEXT: affine.store %[[V2]], %[[B]][] : memref<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
// GENERIC-LABEL: "func.func"() <{function_type = (memref<10x20xf32>, memref<f32>, index) -> (), sym_name = "access"}> ({
// GENERIC-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: memref<10x20xf32>, %[[B:[a-z0-9_]+]]: memref<f32>, %[[N:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: %[[V0:[a-z0-9_]+]] = "affine.load"(%[[A]], %[[ARG3]], %[[N]]) <{map = affine_map<(d0)[s0] -> (d0 + 1, s0 floordiv 2)>}> : (memref<10x20xf32>, index, index) -> f32
// GENERIC-NEXT: "affine.store"(%[[V0]], %[[A]], %[[ARG3]], %[[N]]) <{map = affine_map<(d0)[s0] -> (d0, d0 * 2 - s0)>}> : (f32, memref<10x20xf32>, index, index) -> ()
// GENERIC-NEXT: %[[V1:[a-z0-9_]+]] = "affine.load"(%[[A]], %[[ARG3]], %[[N]]) <{map = affine_map<(d0)[s0] -> (-d0 + s0 * 3 - 7, (d0 mod 4) ceildiv 2)>}> : (memref<10x20xf32>, index, index) -> f32
// GENERIC-NEXT: "affine.store"(%[[V1]], %[[A]], %[[ARG3]], %[[N]]) <{map = affine_map<(d0)[s0] -> ((d0 + s0) * -2, 3)>}> {nontemporal = true} : (f32, memref<10x20xf32>, index, index) -> ()
// GENERIC-NEXT: %[[V2:[a-z0-9_]+]] = "affine.load"(%[[B]]) <{map = affine_map<() -> ()>}> : (memref<f32>) -> f32
// GENERIC-NEXT: "affine.store"(%[[V2]], %[[B]]) <{map = affine_map<() -> ()>}> : (f32, memref<f32>) -> ()
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "func.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
func.func @access(%A: memref<10x20xf32>, %B: memref<f32>, %n: index) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i + 1, symbol(%n) floordiv 2] : memref<10x20xf32>
    affine.store %v, %A[%i, %i * 2 - symbol(%n)] : memref<10x20xf32>
    %w = affine.load %A[-%i + symbol(%n) * 3 - 7, (%i mod 4) ceildiv 2] : memref<10x20xf32>
    affine.store %w, %A[(%i + symbol(%n)) * -2, 3] {nontemporal = true} : memref<10x20xf32>
    %s = affine.load %B[] : memref<f32>
    affine.store %s, %B[] : memref<f32>
  }
  return
}

// CHECK-LABEL: func.func @arith(
// CHECK-SAME: %[[I:[a-z0-9_]+]]: index, %[[N:[a-z0-9_]+]]: index) -> (index, index, index, index) {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[I]])
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0 mod 3)>(%[[I]])[%[[N]]]
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = affine.min affine_map<(d0)[s0] -> (d0, s0, 5)>(%[[I]])[%[[N]]]
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = affine.max affine_map<()[s0] -> (s0, 5)>()[%[[N]]] {tag}
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]] : index, index, index, index
// CHECK-NEXT: }
// GENERIC-LABEL: "func.func"() <{function_type = (index, index) -> (index, index, index, index), sym_name = "arith"}> ({
// GENERIC-NEXT: ^bb0(%[[I:[a-z0-9_]+]]: index, %[[N:[a-z0-9_]+]]: index):
// GENERIC-NEXT: %[[V0:[a-z0-9_]+]] = "affine.apply"(%[[I]]) <{map = affine_map<(d0) -> (d0 + 1)>}> : (index) -> index
// GENERIC-NEXT: %[[V1:[a-z0-9_]+]] = "affine.apply"(%[[I]], %[[N]]) <{map = affine_map<(d0)[s0] -> (d0 * 2 + s0 mod 3)>}> : (index, index) -> index
// GENERIC-NEXT: %[[V2:[a-z0-9_]+]] = "affine.min"(%[[I]], %[[N]]) <{map = affine_map<(d0)[s0] -> (d0, s0, 5)>}> : (index, index) -> index
// GENERIC-NEXT: %[[V3:[a-z0-9_]+]] = "affine.max"(%[[N]]) <{map = affine_map<()[s0] -> (s0, 5)>}> {tag} : (index) -> index
// GENERIC-NEXT: "func.return"(%[[V0]], %[[V1]], %[[V2]], %[[V3]]) : (index, index, index, index) -> ()
// GENERIC-NEXT: }) : () -> ()
func.func @arith(%i: index, %n: index) -> (index, index, index, index) {
  %a = affine.apply #shift(%i)
  %b = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0 mod 3)>(%i)[%n]
  %c = affine.min affine_map<(d0)[s0] -> (d0, s0, 5)>(%i)[%n]
  %d = affine.max affine_map<()[s0] -> (s0, 5)>()[%n] {tag}
  return %a, %b, %c, %d : index, index, index, index
}

// CHECK-LABEL: func.func @conditionals(
// CHECK-SAME: %[[N:[a-z0-9_]+]]: index, %[[M:[a-z0-9_]+]]: index) -> index {
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = affine.for %[[ARG2:[a-z0-9_]+]] = 0 to 10 iter_args(%[[ARG3:[a-z0-9_]+]] = %[[N]]) -> (index) {
// CHECK-NEXT: affine.if affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 - 1 >= 0)>(%[[ARG2]])[%[[N]]] {
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[ARG2]])
// CHECK-NEXT: }
// CHECK-NEXT: affine.if affine_set<(d0) : (d0 == 0)>(%[[ARG2]]) {
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[ARG2]])
// CHECK-NEXT: }
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = affine.if affine_set<()[s0] : (s0 - 5 >= 0)>()[%[[M]]] -> index {
// CHECK-NEXT: affine.yield %[[ARG3]] : index
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.yield %[[M]] : index
// CHECK-NEXT: }
// CHECK-NEXT: affine.yield %[[V1]] : index
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V0]] : index
// CHECK-NEXT: }
// GENERIC-LABEL: "func.func"() <{function_type = (index, index) -> index, sym_name = "conditionals"}> ({
// GENERIC-NEXT: ^bb0(%[[N:[a-z0-9_]+]]: index, %[[M:[a-z0-9_]+]]: index):
// GENERIC-NEXT: %[[V0:[a-z0-9_]+]] = "affine.for"(%[[N]]) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG2:[a-z0-9_]+]]: index, %[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.if"(%[[ARG2]], %[[N]]) <{condition = affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 - 1 >= 0)>}> ({
// GENERIC-NEXT: %[[V2:[a-z0-9_]+]] = "affine.apply"(%[[ARG2]]) <{map = affine_map<(d0) -> (d0 + 1)>}> : (index) -> index
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: }) : (index, index) -> ()
// GENERIC-NEXT: "affine.if"(%[[ARG2]]) <{condition = affine_set<(d0) : (d0 == 0)>}> ({
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: %[[V2:[a-z0-9_]+]] = "affine.apply"(%[[ARG2]]) <{map = affine_map<(d0) -> (d0 + 1)>}> : (index) -> index
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : (index) -> ()
// GENERIC-NEXT: %[[V1:[a-z0-9_]+]] = "affine.if"(%[[M]]) <{condition = affine_set<()[s0] : (s0 - 5 >= 0)>}> ({
// GENERIC-NEXT: "affine.yield"(%[[ARG3]]) : (index) -> ()
// GENERIC-NEXT: }, {
// GENERIC-NEXT: "affine.yield"(%[[M]]) : (index) -> ()
// GENERIC-NEXT: }) : (index) -> index
// GENERIC-NEXT: "affine.yield"(%[[V1]]) : (index) -> ()
// GENERIC-NEXT: }) : (index) -> index
// GENERIC-NEXT: "func.return"(%[[V0]]) : (index) -> ()
// GENERIC-NEXT: }) : () -> ()
func.func @conditionals(%n: index, %m: index) -> index {
  %r = affine.for %i = 0 to 10 iter_args(%acc = %n) -> (index) {
    affine.if #set(%i)[%n] {
      %x = affine.apply #shift(%i)
    }
    affine.if affine_set<(d0) : (d0 == 0)>(%i) {
    } else {
      %y = affine.apply #shift(%i)
    }
    %v = affine.if affine_set<()[s0] : (s0 - 5 >= 0)>()[%m] -> index {
      affine.yield %acc : index
    } else {
      affine.yield %m : index
    }
    affine.yield %v : index
  }
  return %r : index
}

// CHECK-LABEL: func.func @parallel(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<100x100xf32>, %[[N:[a-z0-9_]+]]: index, %[[M:[a-z0-9_]+]]: index) -> (f32, i32) {
// CHECK-NEXT: affine.parallel (%[[ARG3:[a-z0-9_]+]], %[[ARG4:[a-z0-9_]+]]) = (0, 0) to (%[[N]], 10) step (2, 1) {
// CHECK-NEXT: }
// CHECK-NEXT: affine.parallel (%[[ARG3:[a-z0-9_]+]]) = (max(%[[N]], %[[M]] + 1)) to (min(%[[N]] * 2, 100)) {
// CHECK-NEXT: }
// CHECK-NEXT: affine.parallel (%[[ARG3:[a-z0-9_]+]], %[[ARG4:[a-z0-9_]+]]) = (symbol(%[[N]]), %[[M]]) to (%[[N]] + %[[M]], symbol(%[[M]]) floordiv 2) {
// CHECK-NEXT: affine.parallel (%[[ARG5:[a-z0-9_]+]]) = (%[[ARG3]]) to (%[[ARG4]]) {
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = affine.load %[[A]][%[[ARG5]], %[[ARG3]]] : memref<100x100xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: %[[V0:[a-z0-9_]+]]:2 = affine.parallel (%[[ARG3:[a-z0-9_]+]]) = (0) to (10) reduce ("addf", "addi") -> (f32, i32) {
// CHECK-NEXT: %[[CST:[a-z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[C1_I32:[a-z0-9_]+]] = arith.constant 1 : i32
// CHECK-NEXT: affine.yield %[[CST]], %[[C1_I32]] : f32, i32
// CHECK-NEXT: }
// CHECK-NEXT: affine.parallel () = () to () {
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V0]]#0, %[[V0]]#1 : f32, i32
// CHECK-NEXT: }
// GENERIC-LABEL: "func.func"() <{function_type = (memref<100x100xf32>, index, index) -> (f32, i32), sym_name = "parallel"}> ({
// GENERIC-NEXT: ^bb0(%[[A:[a-z0-9_]+]]: memref<100x100xf32>, %[[N:[a-z0-9_]+]]: index, %[[M:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.parallel"(%[[N]]) <{lowerBoundsGroups = dense<1> : tensor<2xi32>, lowerBoundsMap = affine_map<() -> (0, 0)>, reductions = [], steps = [2, 1], upperBoundsGroups = dense<1> : tensor<2xi32>, upperBoundsMap = affine_map<(d0) -> (d0, 10)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index, %[[ARG4:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : (index) -> ()
// GENERIC-NEXT: "affine.parallel"(%[[N]], %[[M]], %[[N]]) <{lowerBoundsGroups = dense<2> : tensor<1xi32>, lowerBoundsMap = affine_map<(d0, d1) -> (d0, d1 + 1)>, reductions = [], steps = [1], upperBoundsGroups = dense<2> : tensor<1xi32>, upperBoundsMap = affine_map<(d0) -> (d0 * 2, 100)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : (index, index, index) -> ()
// GENERIC-NEXT: "affine.parallel"(%[[M]], %[[N]], %[[N]], %[[M]], %[[M]]) <{lowerBoundsGroups = dense<1> : tensor<2xi32>, lowerBoundsMap = affine_map<(d0)[s0] -> (s0, d0)>, reductions = [], steps = [1, 1], upperBoundsGroups = dense<1> : tensor<2xi32>, upperBoundsMap = affine_map<(d0, d1)[s0] -> (d0 + d1, s0 floordiv 2)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index, %[[ARG4:[a-z0-9_]+]]: index):
// GENERIC-NEXT: "affine.parallel"(%[[ARG3]], %[[ARG4]]) <{lowerBoundsGroups = dense<1> : tensor<1xi32>, lowerBoundsMap = affine_map<(d0) -> (d0)>, reductions = [], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<(d0) -> (d0)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG5:[a-z0-9_]+]]: index):
// GENERIC-NEXT: %[[V1:[a-z0-9_]+]] = "affine.load"(%[[A]], %[[ARG5]], %[[ARG3]]) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<100x100xf32>, index, index) -> f32
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : (index, index) -> ()
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : (index, index, index, index, index) -> ()
// GENERIC-NEXT: %[[V0:[a-z0-9_]+]]:2 = "affine.parallel"() <{lowerBoundsGroups = dense<1> : tensor<1xi32>, lowerBoundsMap = affine_map<() -> (0)>, reductions = [0, 1], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (10)>}> ({
// GENERIC-NEXT: ^bb0(%[[ARG3:[a-z0-9_]+]]: index):
// GENERIC-NEXT: %[[CST:[a-z0-9_]+]] = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
// GENERIC-NEXT: %[[C1_I32:[a-z0-9_]+]] = "arith.constant"() <{value = 1 : i32}> : () -> i32
// GENERIC-NEXT: "affine.yield"(%[[CST]], %[[C1_I32]]) : (f32, i32) -> ()
// GENERIC-NEXT: }) : () -> (f32, i32)
// GENERIC-NEXT: "affine.parallel"() <{lowerBoundsGroups = dense<> : tensor<0xi32>, lowerBoundsMap = affine_map<() -> ()>, reductions = [], steps = [], upperBoundsGroups = dense<> : tensor<0xi32>, upperBoundsMap = affine_map<() -> ()>}> ({
// GENERIC-NEXT: "affine.yield"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: "func.return"(%[[V0]]#0, %[[V0]]#1) : (f32, i32) -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC-NEXT: }) : () -> ()
func.func @parallel(%A: memref<100x100xf32>, %n: index, %m: index) -> (f32, i32) {
  affine.parallel (%i, %j) = (0, 0) to (%n, 10) step (2, 1) {
  }
  affine.parallel (%i) = (max(%n, %m + 1)) to (min(%n * 2, 100)) {
  }
  affine.parallel (%i, %j) = (symbol(%n), %m) to (%n + %m, symbol(%m) floordiv 2) {
    affine.parallel (%k) = (%i) to (%j) {
      %v = affine.load %A[%k, %i] : memref<100x100xf32>
    }
  }
  %r:2 = affine.parallel (%i) = (0) to (10) reduce ("addf", "addi") -> (f32, i32) {
    %c = arith.constant 1.0 : f32
    %d = arith.constant 1 : i32
    affine.yield %c, %d : f32, i32
  }
  affine.parallel () = () to () {
  }
  return %r#0, %r#1 : f32, i32
}
