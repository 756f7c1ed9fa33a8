// Error paths of the affine dialect: custom-syntax parse errors (MLIR prefixes them with
// "custom op 'affine.for'", which expectations leave out), then verifier errors for ops written
// in custom and generic form, including MLIR's rules on which values may be affine dimensions
// and symbols.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics

func.func @lower_bound_needs_max(%n: index) {
  // expected-error@+1 {{lower loop bound affine map with multiple results requires 'max' prefix}}
  affine.for %i = affine_map<(d0) -> (d0, 0)>(%n) to 10 {
  }
  return
}

// -----

func.func @upper_bound_needs_min(%n: index) {
  // expected-error@+1 {{upper loop bound affine map with multiple results requires 'min' prefix}}
  affine.for %i = 0 to affine_map<(d0) -> (d0, 0)>(%n) {
  }
  return
}

// -----

func.func @bound_dim_count(%n: index, %m: index) {
  // expected-error@+1 {{dim operand count and affine map dim count must match}}
  affine.for %i = affine_map<(d0) -> (d0)>(%n, %m) to 10 {
  }
  return
}

// -----

func.func @bound_symbol_count(%n: index) {
  // expected-error@+1 {{symbol operand count and affine map symbol count must match}}
  affine.for %i = affine_map<(d0)[s0] -> (d0 + s0)>(%n) to 10 {
  }
  return
}

// -----

func.func @two_bound_operands(%n: index, %m: index) {
  // expected-error@+1 {{expected only one loop bound operand}}
  affine.for %i = %n, %m to 10 {
  }
  return
}

// -----

func.func @string_bound() {
  // expected-error@+1 {{expected valid affine map representation for loop bounds}}
  affine.for %i = "zero" to 10 {
  }
  return
}

// -----

func.func @missing_to() {
  // expected-error@+1 {{expected 'to' between bounds}}
  affine.for %i = 0 10 {
  }
  return
}

// -----

func.func @negative_step() {
  // expected-error@+1 {{expected step to be representable as a positive signed integer}}
  affine.for %i = 0 to 10 step -1 {
  }
  return
}

// -----

func.func @iter_args_without_types(%x: f32) {
  // expected-error@+1 {{mismatch between the number of loop-carried values and results}}
  %r = affine.for %i = 0 to 10 iter_args(%a = %x, %b = %x) -> (f32) {
    affine.yield %a : f32
  }
  return
}

// -----

func.func @apply_operand_count(%n: index, %m: index) -> index {
  // expected-error@+1 {{dimension or symbol index mismatch}}
  %x = affine.apply affine_map<(d0) -> (d0)>(%n, %m)
  return %x : index
}

// -----

func.func @if_dim_count(%n: index) {
  // expected-error@+1 {{dim operand count and integer set dim count must match}}
  affine.if affine_set<(d0) : (d0 == 0)>() {
  }
  return
}

// -----

func.func @if_symbol_count(%n: index, %m: index) {
  // expected-error@+1 {{symbol operand count and integer set symbol count must match}}
  affine.if affine_set<(d0) : (d0 == 0)>(%n)[%m] {
  }
  return
}

// -----

func.func @parallel_step_not_constant(%n: index) {
  // expected-error@+1 {{steps must be constant integers}}
  affine.parallel (%i) = (0) to (10) step (%n) {
  }
  return
}

// -----

func.func @parallel_unknown_reduction() {
  // expected-error@+1 {{invalid reduction value: "sum"}}
  %r = affine.parallel (%i) = (0) to (10) reduce ("sum") -> (f32) {
  }
  return
}

// -----

func.func @non_affine_subscript(%A: memref<10xf32>, %i: index, %j: index) {
  // expected-error@+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
  %v = affine.load %A[%i * %j] : memref<10xf32>
  return
}

// -----

func.func @load_from_non_memref(%A: memref<10xf32>, %i: index) {
  // expected-error@+1 {{invalid kind of type specified: expected builtin.memref, but found 'f32'}}
  %v = affine.load %A[%i] : f32
  return
}

// -----

func.func @induction_variable_as_symbol(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    // expected-error@+1 {{'affine.load' op operand cannot be used as a symbol}}
    %v = affine.load %A[symbol(%i)] : memref<10xf32>
  }
  return
}

// -----

func.func @scf_induction_variable_as_dim(%A: memref<10xf32>, %n: index) {
  scf.for %i = %n to %n step %n {
    // expected-error@+1 {{'affine.load' op operand cannot be used as a dimension id}}
    %v = affine.load %A[%i] : memref<10xf32>
  }
  return
}

// -----

func.func @loaded_value_as_symbol(%A: memref<10xf32>, %B: memref<10xindex>, %n: index) {
  affine.for %i = 0 to 10 {
    %k = affine.load %B[%i] : memref<10xindex>
    // expected-error@+1 {{'affine.store' op operand cannot be used as a symbol}}
    affine.store %i, %B[symbol(%k)] : memref<10xindex>
  }
  return
}

// -----

func.func @outer_induction_variable_as_bound() {
  affine.for %i = 0 to 10 {
    // A bare SSA bound is a symbol; an induction variable must be passed as a map dim.
    // expected-error@+1 {{'affine.for' op operand cannot be used as a symbol}}
    affine.for %j = %i to 10 {
    }
  }
  return
}

// -----

func.func @induction_variable_as_if_symbol() {
  affine.for %i = 0 to 10 {
    // expected-error@+1 {{'affine.if' op operand cannot be used as a symbol}}
    affine.if affine_set<()[s0] : (s0 >= 0)>()[%i] {
    }
  }
  return
}

// -----

func.func @induction_variable_as_apply_symbol() {
  affine.for %i = 0 to 10 {
    // expected-error@+1 {{dimensional operand cannot be used as a symbol}}
    %x = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
  }
  return
}

// -----

func.func @scf_induction_variable_as_parallel_bound(%n: index) {
  scf.for %i = %n to %n step %n {
    // expected-error@+1 {{'affine.parallel' op operand cannot be used as a dimension id}}
    affine.parallel (%j) = (%i) to (10) {
    }
  }
  return
}

// -----

func.func @min_without_results() -> index {
  // expected-error@+1 {{'affine.min' op affine map expect at least one result}}
  %x = affine.min affine_map<() -> ()>()
  return %x : index
}

// -----

func.func @max_without_map(%n: index) -> index {
  // expected-error@+1 {{'affine.max' op requires attribute 'map'}}
  %x = "affine.max"(%n) : (index) -> index
  return %x : index
}

// -----

func.func @apply_two_results(%n: index) -> index {
  // expected-error@+1 {{'affine.apply' op mapping must produce one value}}
  %x = "affine.apply"(%n) <{map = affine_map<(d0) -> (d0, d0)>}> : (index) -> index
  return %x : index
}

// -----

func.func @apply_operand_count_generic(%n: index) -> index {
  // expected-error@+1 {{'affine.apply' op operand count and affine map dimension and symbol count must match}}
  %x = "affine.apply"(%n, %n) <{map = affine_map<(d0) -> (d0)>}> : (index, index) -> index
  return %x : index
}

// -----

func.func @apply_result_type(%n: index) -> i32 {
  // expected-error@+1 {{'affine.apply' op result #0 must be index, but got 'i32'}}
  %x = "affine.apply"(%n) <{map = affine_map<(d0) -> (d0)>}> : (index) -> i32
  return %x : i32
}

// -----

func.func @if_results_without_else(%n: index) -> index {
  // expected-error@+1 {{'affine.if' op must have an else region that yields values, since it returns results ('index')}}
  %r = affine.if affine_set<() : (0 == 0)>() -> index {
    affine.yield %n : index
  }
  return %r : index
}

// -----

func.func @if_one_region() {
  // expected-error@+1 {{'affine.if' op expected 2 regions}}
  "affine.if"() <{condition = affine_set<() : (0 == 0)>}> ({
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @if_without_condition() {
  // expected-error@+1 {{'affine.if' op requires attribute 'condition'}}
  "affine.if"() ({
    "affine.yield"() : () -> ()
  }, {
  }) : () -> ()
  return
}

// -----

func.func @if_operand_count(%n: index) {
  // expected-error@+1 {{'affine.if' op operand count and condition integer set dimension and symbol count must match}}
  "affine.if"(%n) <{condition = affine_set<() : (0 == 0)>}> ({
    "affine.yield"() : () -> ()
  }, {
  }) : (index) -> ()
  return
}

// -----

func.func @load_rank(%A: memref<10xf32>, %n: index, %m: index) -> f32 {
  // expected-error@+1 {{'affine.load' op affine map num results must equal memref rank}}
  %v = affine.load %A[%n, %m] : memref<10xf32>
  return %v : f32
}

// -----

func.func @load_subscript_count(%A: memref<10xf32>, %n: index) -> f32 {
  // expected-error@+1 {{'affine.load' op expects as many subscripts as affine map inputs}}
  %v = "affine.load"(%A, %n, %n) <{map = affine_map<(d0) -> (d0)>}> : (memref<10xf32>, index, index) -> f32
  return %v : f32
}

// -----

func.func @load_result_type(%A: memref<10xf32>, %n: index) -> f64 {
  // expected-error@+1 {{'affine.load' op result type must match element type of memref}}
  %v = "affine.load"(%A, %n) <{map = affine_map<(d0) -> (d0)>}> : (memref<10xf32>, index) -> f64
  return %v : f64
}

// -----

func.func @load_from_index(%n: index) -> f32 {
  // expected-error@+1 {{'affine.load' op operand #0 must be memref of any type values, but got 'index'}}
  %v = "affine.load"(%n, %n) <{map = affine_map<(d0) -> (d0)>}> : (index, index) -> f32
  return %v : f32
}

// -----

func.func @load_i32_subscript(%A: memref<10xf32>, %k: i32) -> f32 {
  // expected-error@+1 {{'affine.load' op operand #1 must be variadic of index, but got 'i32'}}
  %v = "affine.load"(%A, %k) <{map = affine_map<(d0) -> (d0)>}> : (memref<10xf32>, i32) -> f32
  return %v : f32
}

// -----

func.func @store_type(%A: memref<10xf32>, %n: index, %x: f64) {
  // expected-error@+1 {{'affine.store' op value to store must have the same type as memref element type}}
  "affine.store"(%x, %A, %n) <{map = affine_map<(d0) -> (d0)>}> : (f64, memref<10xf32>, index) -> ()
  return
}

// -----

func.func @store_without_operands() {
  // expected-error@+1 {{'affine.store' op expected 2 or more operands, but found 0}}
  "affine.store"() : () -> ()
  return
}

// -----

func.func @yield_count(%n: index) -> index {
  %r = affine.for %i = 0 to 10 iter_args(%a = %n) -> (index) {
    // expected-error@+1 {{'affine.yield' op parent of yield must have same number of results as the yield operands}}
    affine.yield
  }
  return %r : index
}

// -----

func.func @yield_type(%n: index) -> index {
  %r = affine.for %i = 0 to 10 iter_args(%a = %n) -> (index) {
    %c = arith.constant 1 : i32
    // expected-error@+1 {{'affine.yield' op types mismatch between yield op and its parent}}
    affine.yield %c : i32
  }
  return %r : index
}

// -----

func.func @yield_outside_affine(%c: i1) {
  "scf.if"(%c) ({
    // expected-error@+1 {{'affine.yield' op only terminates affine.if/for/parallel regions}}
    "affine.yield"() : () -> ()
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @for_empty_lower_bound_map() {
  // expected-error@+1 {{'affine.for' op expected lower bound map to have at least one result}}
  "affine.for"() <{lowerBoundMap = affine_map<() -> ()>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @for_segment_sizes(%n: index) {
  // expected-error@+1 {{'affine.for' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  "affine.for"(%n) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @for_bound_operands_vs_map(%n: index) {
  // expected-error@+1 {{'affine.for' op lower bound operand count (1) does not match the number of inputs of its map (0)}}
  "affine.for"(%n) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 1, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @for_i32_induction_variable() {
  // expected-error@+1 {{'affine.for' op expected body to have a single index argument for the induction variable}}
  "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: i32):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @for_zero_step() {
  // expected-error@+1 {{'affine.for' op expected a positive step, but got 0}}
  affine.for %i = 0 to 10 step 0 {
  }
  return
}

// -----

func.func @for_without_body() {
  // expected-error@+1 {{'affine.for' op region #0 ('region') failed to verify constraint: region with 1 blocks}}
  "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  }) : () -> ()
  return
}

// -----

func.func @for_iter_arg_type(%n: index) -> index {
  // expected-error@+1 {{'affine.for' op 0-th init and 0-th region iter_arg have different type: 'index' != 'i32'}}
  %r = "affine.for"(%n) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: index, %a: i32):
    "affine.yield"(%i) : (index) -> ()
  }) : (index) -> index
  return %r : index
}

// -----

func.func @parallel_group_count() {
  // expected-error@+1 {{'affine.parallel' op the number of region arguments (2) and the number of map groups for lower (1) and upper bound (2), and the number of steps (2) must all match}}
  affine.parallel (%i, %j) = (0) to (10, 10) {
  }
  return
}

// -----

func.func @parallel_results_without_reductions() -> f32 {
  // expected-error@+1 {{'affine.parallel' op a reduction must be specified for each output}}
  %r = affine.parallel (%i) = (0) to (10) -> (f32) {
    %c = arith.constant 1.0 : f32
    affine.yield %c : f32
  }
  return %r : f32
}

// -----

func.func @parallel_reduction_type() -> f32 {
  // expected-error@+1 {{'affine.parallel' op result type cannot match reduction attribute ("addi" cannot reduce 'f32')}}
  %r = affine.parallel (%i) = (0) to (10) reduce ("addi") -> (f32) {
    %c = arith.constant 1.0 : f32
    affine.yield %c : f32
  }
  return %r : f32
}

// -----

func.func @parallel_group_sizes() {
  // expected-error@+1 {{'affine.parallel' op expected lower bounds map to have 2 results}}
  "affine.parallel"() <{lowerBoundsGroups = dense<2> : tensor<1xi32>, lowerBoundsMap = affine_map<() -> (0)>, reductions = [], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @parallel_without_properties() {
  // expected-error@+1 {{'affine.parallel' op requires attribute 'lowerBoundsGroups'}}
  "affine.parallel"() ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}
