// Error paths of the scf dialect: custom-syntax parse errors and the verifiers of scf.for,
// scf.if, scf.yield, scf.parallel, scf.reduce, scf.reduce.return, scf.while and
// scf.condition. Messages follow mlir-opt 22's where it has one.
// Unregistered ops stand in for terminators of the wrong kind (registered terminators would
// fail their own parent checks first).
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// ===== parse errors =====

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{mismatch in number of loop-carried values and defined values}}
  %r = scf.for %i = %lb to %lb step %lb iter_args(%a = %x) -> (f32, f32) {
    scf.yield %a : f32
  }
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{expected 'step'}}
  scf.for %i = %lb to %lb {
  }
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{expected 2 operands}}
  scf.parallel (%i, %j) = (%lb) to (%lb) step (%lb) {
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{number of operands and types do not match: got 2 operands and 1 types}}
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x, %x) -> f32 {
  }
  return
}

// -----

func.func @f(%a: i32, %b: i1) {
  // expected-error@+1 {{expected as many input types as operands (expected 1 got 2)}}
  %w = scf.while (%arg = %a) : (i32, i32) -> i32 {
    scf.condition(%b) %arg : i32
  } do {
  ^bb0(%arg2: i32):
    scf.yield %arg2 : i32
  }
  return
}

// -----

func.func @f(%c: i1) {
  scf.if %c {
  } else {
  // expected-error@+1 {{custom op 'else' is unknown}}
  } else {
  }
  return
}

// -----

func.func @f(%c: i32) {
  // expected-note@-1 {{prior use here}}
  // expected-error@+1 {{use of value '%c' expects different type than prior uses: 'i1' vs 'i32'}}
  scf.if %c {
  }
  return
}

// ===== scf.for =====

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.for' op expected 3 or more operands, but found 2}}
  "scf.for"(%lb, %lb) ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, index) -> ()
  return
}

// -----

func.func @f(%lb: f32) {
  // expected-error@+1 {{'scf.for' op operand #0 must be signless integer or index, but got 'f32'}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%i: f32):
    scf.yield
  }) : (f32, f32, f32) -> ()
  return
}

// -----

func.func @f(%lb: index, %ub: i32) {
  // expected-error@+1 {{'scf.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%lb, %ub, %lb) ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.for' op region #0 ('region') failed to verify constraint: region with 1 blocks}}
  "scf.for"(%lb, %lb, %lb) ({
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.for' op requires one region}}
  "scf.for"(%lb, %lb, %lb) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.for' expects region #0 to have 0 or 1 blocks}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index):
    scf.yield
  ^bb1:
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.for' op mismatch in number of loop-carried values and defined values}}
  "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%i: index, %a: f32):
    scf.yield %a : f32
  }) : (index, index, index, f32) -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.for' op expected induction variable to be same type as bounds and step}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%i: i32):
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.for' op expects the body's first argument to be the induction variable}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0:
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.for' op different number of inits and region iter_args: 1 != 0}}
  %r = "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%i: index):
    scf.yield %x : f32
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.for' op 0-th init and 0-th region iter_arg have different type: 'f32' != 'i32'}}
  %r = "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%i: index, %a: i32):
    scf.yield %x : f32
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.for' op 0-th region iter_arg and 0-th loop result have different type: 'f32' != 'i32'}}
  %r = "scf.for"(%lb, %lb, %lb, %x) ({
  ^bb0(%i: index, %a: f32):
    scf.yield %a : f32
  }) : (index, index, index, f32) -> i32
  return
}

// -----

func.func @f(%lb: index, %x: f32, %n: i32) {
  // expected-error@+1 {{'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'f32' != 'i32'}}
  %r = scf.for %i = %lb to %lb step %lb iter_args(%a = %x) -> (f32) {
    scf.yield %n : i32
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.for' op different number of region iter_args and yielded values: 0 != 1}}
  scf.for %i = %lb to %lb step %lb {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // The parser inserts the terminator the custom form leaves out: here it yields nothing.
  // expected-error@+1 {{'scf.for' op different number of region iter_args and yielded values: 1 != 0}}
  %r = scf.for %i = %lb to %lb step %lb iter_args(%a = %x) -> (f32) {
  }
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.for' op attribute 'unsignedCmp' failed to satisfy constraint: unit attribute}}
  "scf.for"(%lb, %lb, %lb) <{unsignedCmp = 1 : i64}> ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// ===== scf.if =====

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.if' op must have an else block if defining values}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: successor operand type #0 'i1' should match successor input type #0 'f32'}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    // expected-note@+1 {{region branch point}}
    scf.yield %c : i1
  }
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 1 operands, but region successor needs 0 inputs}}
  scf.if %c {
    // expected-note@+1 {{region branch point}}
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%c: i32) {
  // expected-error@+1 {{'scf.if' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "scf.if"(%c) ({
    scf.yield
  }, {
  }) : (i32) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.if' op expected 2 regions}}
  "scf.if"(%c) ({
    scf.yield
  }) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.if' op region #0 should have no arguments}}
  "scf.if"(%c) ({
  ^bb0(%a: f32):
    scf.yield
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.if' op region #0 ('thenRegion') failed to verify constraint: region with 1 blocks}}
  "scf.if"(%c) ({
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'scf.if' op expected 1 operands, but found 0}}
  "scf.if"() ({
    scf.yield
  }, {
  }) : () -> ()
  return
}

// ===== scf.yield =====

// -----

func.func @f() {
  // expected-error@+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
  scf.yield
}

// ===== scf.parallel =====

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.parallel' op expects body to terminate with 'scf.reduce'}}
  "scf.parallel"(%lb, %lb, %lb) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    // expected-note@+1 {{terminator here}}
    "test.terminator"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // A terminator of the wrong kind is kept, not followed by an implicit scf.yield.
  // expected-error@+2 {{'scf.reduce' op expects parent op 'scf.parallel'}}
  scf.for %i = %lb to %lb step %lb {
    scf.reduce
  }
  return
}

// -----

func.func @f(%lb: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'scf.parallel' op constant step operand must be positive}}
  scf.parallel (%i) = (%lb) to (%lb) step (%c0) {
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.parallel' op expects number of results: 1 to be the same as number of reductions: 0}}
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
    // expected-error@+1 {{'scf.reduce' op expects type of 0-th reduction operand: 'index' to be the same as the 0-th result type: 'f32'}}
    scf.reduce(%lb : index) {
    ^bb0(%l: index, %rr: index):
      scf.reduce.return %l : index
    }
  }
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.parallel' op expects the same number of induction variables: 2 as bound and step values: 1}}
  "scf.parallel"(%lb, %lb, %lb) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index, %j: index):
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.parallel' op expects arguments for the induction variable to be of index type}}
  "scf.parallel"(%lb, %lb, %lb) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: i32):
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'scf.parallel' op needs at least one tuple element for lowerBound, upperBound and step}}
  "scf.parallel"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>}> ({
    scf.reduce
  }) : () -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.parallel' op operand count (3) does not match with the total size (4) specified in attribute 'operandSegmentSizes'}}
  "scf.parallel"(%lb, %lb, %lb) <{operandSegmentSizes = array<i32: 1, 1, 2, 0>}> ({
  ^bb0(%i: index):
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: i32) {
  // expected-error@+1 {{'scf.parallel' op operand #0 must be variadic of index, but got 'i32'}}
  "scf.parallel"(%lb, %lb, %lb) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.reduce
  }) : (i32, i32, i32) -> ()
  return
}

// ===== scf.reduce / scf.reduce.return =====

// -----

func.func @f(%lb: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
    // expected-error@+1 {{'scf.reduce' op expected two block arguments with type 'f32' in the 0-th reduction region}}
    scf.reduce(%x : f32) {
    ^bb0(%l: f32):
      scf.reduce.return %l : f32
    }
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %rr: f32):
      // expected-error@+1 {{'scf.reduce.return' op must have type 'f32' (the type of the reduction inputs)}}
      scf.reduce.return %lb : index
    }
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
    // expected-error@+1 {{'scf.reduce' op expects number of reduction regions: 0 to be the same as number of reduction operands: 1}}
    scf.reduce(%x : f32)
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
    // expected-error@+1 {{'scf.reduce' op reduction bodies must be terminated with an 'scf.reduce.return' op}}
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %rr: f32):
      "test.terminator"() : () -> ()
    }
  }
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'scf.reduce' op expects parent op 'scf.parallel'}}
  scf.reduce
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{'scf.reduce.return' op expects parent op 'scf.reduce'}}
  scf.reduce.return %x : f32
}

// ===== scf.while / scf.condition =====

// -----

func.func @f(%a: i32, %b: i1) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.condition to Region #1: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %w = scf.while (%arg = %a) : (i32) -> i32 {
    // expected-note@+1 {{region branch point}}
    scf.condition(%b) %arg : i32
  } do {
  ^bb0(%arg2: f32):
    scf.yield %a : i32
  }
  return
}

// -----

func.func @f(%a: i32, %b: i1) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.condition to parent: region branch point has 2 operands, but region successor needs 1 inputs}}
  %w = scf.while (%arg = %a) : (i32) -> i32 {
    // expected-note@+1 {{region branch point}}
    scf.condition(%b) %arg, %arg : i32, i32
  } do {
  ^bb0(%arg2: i32):
    scf.yield %a : i32
  }
  return
}

// -----

func.func @f(%a: i32, %b: i1) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.yield to Region #0: successor operand type #0 'i1' should match successor input type #0 'i32'}}
  %w = scf.while (%arg = %a) : (i32) -> i32 {
    scf.condition(%b) %arg : i32
  } do {
  ^bb0(%arg2: i32):
    // expected-note@+1 {{region branch point}}
    scf.yield %b : i1
  }
  return
}

// -----

func.func @f(%a: i32, %b: i1) {
  // expected-error@+2 {{'scf.while' op along control flow edge from parent to Region #0: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  // expected-note@+1 {{region branch point}}
  %w = "scf.while"(%a) ({
  ^bb0(%x: f32):
    scf.condition(%b) %a : i32
  }, {
  ^bb0(%y: i32):
    scf.yield %a : i32
  }) : (i32) -> i32
  return
}

// -----

func.func @f(%a: i32, %b: i1) {
  // expected-error@+1 {{'scf.while' op expects the 'before' region to terminate with 'scf.condition'}}
  %w = scf.while (%arg = %a) : (i32) -> i32 {
    // expected-note@+1 {{terminator here}}
    scf.yield %arg : i32
  } do {
  ^bb0(%arg2: i32):
    scf.yield %a : i32
  }
  return
}

// -----

func.func @f(%b: i1) {
  // expected-error@+1 {{'scf.while' op region #0 ('before') failed to verify constraint: region with 1 blocks}}
  "scf.while"() ({
  }, {
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @f(%b: i32) {
  "scf.while"() ({
    // expected-error@+1 {{'scf.condition' op operand #0 must be 1-bit signless integer, but got 'i32'}}
    "scf.condition"(%b) : (i32) -> ()
  }, {
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @f(%b: i1) {
  // expected-error@+1 {{'scf.condition' op expects parent op 'scf.while'}}
  scf.condition(%b)
}
