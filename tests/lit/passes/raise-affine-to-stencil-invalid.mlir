// Near misses: affine nests `raise-affine-to-stencil` leaves untouched, each with its reason.
// With strict=true a refusal is an error at the op that does not fit; by default it is a
// remark and the nest stays as it was (the last cases, and raise-affine-to-stencil.mlir).
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(raise-affine-to-stencil{strict=true})'

// A load that is not an affine access.
func.func @memref_load(%n: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  affine.for %i = 1 to %n {
    // expected-error@below {{memref.load is not an affine access}}
    %a = memref.load %A[%i] : memref<?xf64>
    affine.store %a, %B[%i] : memref<?xf64>
  }
  return
}

// -----

// A store whose element does not move with the innermost loop.
func.func @store_not_at_point(%n: index, %A: memref<?x?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %a = affine.load %A[%i, %j] : memref<?x?xf64>
      // expected-error@below {{the store does not depend on an inner loop of its nest}}
      affine.store %a, %B[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// A strided store: not the point of a unit-step box.
func.func @strided_store(%n: index, %A: memref<?xf64>) {
  %c = arith.constant 1.0 : f64
  affine.for %i = 0 to %n {
    // expected-error@below {{scales a loop variable by 2}}
    affine.store %c, %A[%i * 2] : memref<?xf64>
  }
  return
}

// -----

// A loop-carried scalar (a reduction through iter_args).
func.func @loop_carried(%n: index, %A: memref<?xf64>, %out: memref<1xf64>) {
  %zero = arith.constant 0.0 : f64
  // expected-error@below {{carries a scalar from one iteration to the next (iter_args)}}
  %sum = affine.for %i = 0 to %n iter_args(%acc = %zero) -> (f64) {
    %a = affine.load %A[%i] : memref<?xf64>
    %s = arith.addf %acc, %a : f64
    affine.yield %s : f64
  }
  affine.store %sum, %out[0] : memref<1xf64>
  return
}

// -----

func.func private @f(f64) -> f64

// An op the stencil dialect cannot compute with.
func.func @unsupported_op(%n: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf64>
    // expected-error@below {{'func.call' in a statement body}}
    %b = func.call @f(%a) : (f64) -> f64
    affine.store %b, %B[%i] : memref<?xf64>
  }
  return
}

// -----

// Two memref arguments that may be one buffer: B = f(A) would not be a Jacobi step if B
// were A.
func.func @may_alias(%n: index, %A: memref<?xf64>, %B: memref<?xf64>) {
  // expected-error@below {{the memref arguments %arg1 and %arg2 may be the same buffer}}
  affine.for %i = 1 to %n {
    %a = affine.load %A[%i - 1] : memref<?xf64>
    affine.store %a, %B[%i] : memref<?xf64>
  }
  return
}

// -----

// A bound that is a max of two expressions: not a box.
func.func @max_bound(%n: index, %m: index, %A: memref<?xf64>) {
  %c = arith.constant 1.0 : f64
  // expected-error@below {{the lower bound is the max of 2 expressions}}
  affine.for %i = max affine_map<()[s0, s1] -> (s0, s1)>()[%n, %m] to 100 {
    affine.store %c, %A[%i] : memref<?xf64>
  }
  return
}

// -----

// A triangular nest.
func.func @triangular(%n: index, %A: memref<?x?xf64>) {
  %c = arith.constant 1.0 : f64
  affine.for %i = 0 to %n {
    // expected-error@below {{the lower bound depends on the induction variable of an enclosing loop}}
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to %n {
      affine.store %c, %A[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// -----

// A loop with step 2.
func.func @step(%n: index, %A: memref<?xf64>) {
  %c = arith.constant 1.0 : f64
  // expected-error@below {{the loop has step 2}}
  affine.for %i = 0 to %n step 2 {
    affine.store %c, %A[%i] : memref<?xf64>
  }
  return
}

// -----

// A permuted nest: the loops run (i, j) but the store writes A[j][i], column by column.
func.func @permuted(%n: index, %A: memref<?x?xf64>) {
  affine.for %i = 1 to %n {
    affine.for %j = 1 to %n {
      %a = affine.load %A[%j - 1, %i] : memref<?x?xf64>
      // expected-error@below {{another order than the loops (a permuted nest)}}
      affine.store %a, %A[%j, %i] : memref<?x?xf64>
    }
  }
  return
}

// -----

// Two stores in one body (a fused loop): split it first.
func.func @two_stores(%n: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  %c = arith.constant 1.0 : f64
  affine.for %i = 0 to %n {
    affine.store %c, %A[%i] : memref<?xf64>
    // expected-error@below {{2 stores in one loop body}}
    affine.store %c, %B[%i] : memref<?xf64>
  }
  return
}

// -----

// A C local kept in memory (Polygeist's one-element alloca): the advice is --affine-scalrep.
func.func @scalar_temporary(%n: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  %tmp = memref.alloca() : memref<1xf64>
  affine.for %i = 1 to %n {
    %a = affine.load %A[%i - 1] : memref<?xf64>
    affine.store %a, %tmp[0] : memref<1xf64>
    %t = affine.load %tmp[0] : memref<1xf64>
    // expected-error@below {{2 stores in one loop body: a stencil statement stores one element per point (one of them is to a one-element local memref, a scalar temporary: run mlir-opt --affine-scalrep first, which keeps it in a register)}}
    affine.store %t, %B[%i] : memref<?xf64>
  }
  return
}

// -----

// A read before the start of the memref: A[i - 1] at i = 0.
func.func @reads_before_start(%n: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  affine.for %i = 0 to %n {
    // expected-error@below {{index 0 reaches -1 at the first iteration of the loops: before the start of the memref}}
    %a = affine.load %A[%i - 1] : memref<?xf64>
    affine.store %a, %B[%i] : memref<?xf64>
  }
  return
}

// -----

// Loops past a static size: the raised program would not verify (the stencil verifier's
// message says where), so the nest stays.
func.func @past_static_size(%n: index, %A: memref<16xf64> {llvm.noalias}, %B: memref<16xf64> {llvm.noalias}) {
  // expected-error@below {{does not verify: 'stencil.apply' op writes outside the field (past the end) in dimension 0: for every parameter value the domain writes indices 0..=19 of extent 16}}
  affine.for %i = 0 to 20 {
    %a = affine.load %A[%i] : memref<16xf64>
    affine.store %a, %B[%i] : memref<16xf64>
  }
  return
}

// -----

// A read at an index that involves a symbol and is not at a constant offset from the point
// (a mirror image): the stencil dialect's general indices use no parameters.
func.func @mirror(%n: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  affine.for %i = 0 to %n {
    // expected-error@below {{neither at a constant offset from the point nor at an index the stencil dialect can express: it uses a symbol}}
    %a = affine.load %A[symbol(%n) - %i - 1] : memref<?xf64>
    affine.store %a, %B[%i] : memref<?xf64>
  }
  return
}

// -----

// A subscript that is not affine in the loop variables.
func.func @floordiv(%n: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  affine.for %i = 0 to %n {
    // expected-error@below {{is not affine (floordiv, ceildiv, mod or a product of variables)}}
    %a = affine.load %A[%i floordiv 2] : memref<?xf64>
    affine.store %a, %B[%i] : memref<?xf64>
  }
  return
}

// -----

// Some dimensions forwards, others backwards.
func.func @mixed_direction(%n: index, %A: memref<?x?xf64>) {
  %c = arith.constant 1.0 : f64
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      // expected-error@below {{runs some dimensions forwards and others backwards}}
      affine.store %c, %A[%i, -%j + 100] : memref<?x?xf64>
    }
  }
  return
}

// -----

// A load hoisted out of the inner loop of a memref the nest writes: inside the loop it could
// read another value.
func.func @hoisted_written(%n: index, %A: memref<?x?xf64>) {
  affine.for %i = 1 to %n {
    // expected-error@below {{a load outside the innermost loop body of a memref the nest writes}}
    %a = affine.load %A[%i - 1, 0] : memref<?x?xf64>
    affine.for %j = 0 to %n {
      affine.store %a, %A[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// -----

// A memref that is a view of another: it may overlap what else the nest touches.
func.func @cast_memref(%n: index, %A: memref<16xf64>) {
  %c = arith.constant 1.0 : f64
  %v = memref.cast %A : memref<16xf64> to memref<?xf64>
  affine.for %i = 0 to 16 {
    // expected-error@below {{accesses a memref that is the result of 'memref.cast'}}
    affine.store %c, %v[%i] : memref<?xf64>
  }
  return
}

// -----

// Integer arrays are not stencil fields.
func.func @integer_field(%n: index, %A: memref<?xi32>) {
  %c = arith.constant 1 : i32
  affine.for %i = 0 to %n {
    // expected-error@below {{stencil fields hold f32 or f64}}
    affine.store %c, %A[%i] : memref<?xi32>
  }
  return
}

// -----

// A value read before the nest from a memref the nest writes: moved into the statement, it
// would read what the sweep wrote (a load of a memref nothing writes moves back: the hoisted
// coefficient of raise-affine-to-stencil.mlir).
func.func @outside_load(%n: index, %A: memref<?xf64>) {
  // expected-error@below {{a load outside the innermost loop body of a memref the nest writes}}
  %w = affine.load %A[0] : memref<?xf64>
  affine.for %i = 1 to %n {
    affine.store %w, %A[%i] : memref<?xf64>
  }
  return
}

// -----

// A nest that is not at the top level of the function.
func.func @nested(%n: index, %p: i1, %A: memref<?xf64>) {
  %c = arith.constant 1.0 : f64
  scf.if %p {
    // expected-error@below {{the nest is inside 'scf.if', not at the top level of the function}}
    affine.for %i = 0 to %n {
      affine.store %c, %A[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// A store under a guard in the loop body (a boundary value in the else branch): the guard is
// what is refused, and where it is.
func.func @guarded(%n: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  %z = arith.constant 0.0 : f64
  affine.for %i = 0 to %n {
    // expected-error@below {{the loop body stores only inside 'affine.if': a guarded store is not a stencil statement}}
    affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%i) {
      %0 = affine.load %A[%i - 1] : memref<?xf64>
      affine.store %0, %B[%i] : memref<?xf64>
    } else {
      affine.store %z, %B[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// A load hoisted above the nest with a store to its memref between them: moved back into the
// statement it would read the stored value, not the loaded one.
func.func @hoisted_then_written(%n: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}, %C: memref<4xf64> {llvm.noalias}) {
  %k = affine.load %C[0] : memref<4xf64>
  %z = arith.constant 0.0 : f64
  affine.store %z, %C[0] : memref<4xf64>
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf64>
    // expected-error@below {{uses a value computed by 'affine.load' outside the statement}}
    %m = arith.mulf %a, %k : f64
    affine.store %m, %B[%i] : memref<?xf64>
  }
  return
}

// -----

// A strided view as linalg passes it: parsed, and refused with the way out.
func.func @strided_view(%n: index, %A: memref<?xf64, strided<[?], offset: ?>> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  affine.for %i = 0 to %n {
    // expected-error@below {{accesses 'memref<?xf64, strided<[?], offset: ?>>': only memrefs with the identity layout in the default memory space (a strided view: fold it into the accesses with mlir-opt --affine-fold-memref-alias-ops, or pass the whole array)}}
    %a = affine.load %A[%i] : memref<?xf64, strided<[?], offset: ?>>
    affine.store %a, %B[%i] : memref<?xf64>
  }
  return
}
