// Issue 16, item 6: affine folding and the verifiers compute exactly. A fold whose result leaves
// i64 is a located error, never a wrapped constant (MLIR's int64_t folds wrap:
// 4294967296 * (4294967296 * s0) would become 0, (s0 + i64::MAX) + i64::MAX would become
// s0 - 2); extents, element counts and bounds that overflow i64 are rejected; an i64::MIN
// coefficient no longer makes the verifier negate i64::MIN (a panic in debug builds).
// RUN: stencil-opt %s --split-input-file --verify-diagnostics

func.func @product_overflows(%A: memref<10xf32>, %n: index) {
  // expected-error@+1 {{integer overflow in affine expression: 4294967296 * 4294967296 does not fit in 64 bits}}
  %v = affine.load %A[4294967296 * (4294967296 * symbol(%n))] : memref<10xf32>
  return
}

// -----

// expected-error@+1 {{integer overflow in affine expression: 9223372036854775807 + 9223372036854775807 does not fit in 64 bits}}
#sum = affine_map<()[s0] -> ((s0 + 9223372036854775807) + 9223372036854775807)>
func.func @sum_overflows(%n: index) -> index {
  %v = affine.apply #sum()[%n]
  return %v : index
}

// -----

func.func @negation_overflows(%i: index) -> index {
  // expected-error@+1 {{integer overflow in affine expression: -9223372036854775808 * -1 does not fit in 64 bits}}
  %v = affine.apply affine_map<(d0) -> (-(d0 * -9223372036854775808))>(%i)
  return %v : index
}

// -----

func.func @loop_bound_overflows(%n: index) {
  // expected-error@+1 {{integer overflow in affine expression}}
  affine.for %i = 0 to affine_map<()[s0] -> (s0 * 4611686018427387904 * 2)>()[%n] {
  }
  return
}

// -----

// expected-error@+1 {{extent 'N + 9223372036854775807 + 9223372036854775807' overflows: its coefficients and constant must fit in 64 bits}}
stencil.program @extent_fold(%A: !stencil.field<[N + 9223372036854775807 + 9223372036854775807] x f64>) params [T, N >= 3] {
}

// -----

// expected-error@+1 {{extent '4294967296 * 4294967296 * N' overflows}}
stencil.program @extent_product(%A: !stencil.field<[4294967296 * 4294967296 * N] x f64>) params [T, N >= 3] {
}

// -----

// expected-error@+1 {{extent 'N + 9223372036854775806' of dimension 0 overflows i64 already for T = 0, N = 3, the smallest parameter values: extents must be 64-bit integers}}
stencil.program @extent_value(%A: !stencil.field<[N + 9223372036854775806] x f64>) params [T, N >= 3] {
}

// -----

// expected-error@+1 {{the field has more than 9223372036854775807 elements already for T = 0, N = 3, the smallest parameter values: its size must be a 64-bit integer}}
stencil.program @element_count(%A: !stencil.field<[N, 4611686018427387904] x f64>) params [T, N >= 3] {
}

// -----

stencil.program @min_coefficient(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    // -(i64::MAX + 1) * N + 2: the coefficient is i64::MIN.
    // expected-error@+1 {{bound '-9223372036854775808 * N + 2' in 'upper_bounds' overflows i64 for T = 1, N = 3, the smallest parameter values: bounds must be 64-bit integers}}
    stencil.apply @S writes %A over [1] to [2 - 9223372036854775807*N - N] {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

stencil.program @min_offset(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      // expected-error@+1 {{reads outside the field (below 0) in dimension 0 with offset -9223372036854775808}}
      %c = stencil.access %A[-9223372036854775808] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

stencil.program @iterate_bound(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  // expected-error@+1 {{integer overflow in affine expression: 4294967296 * 4294967296 does not fit in 64 bits}}
  stencil.iterate %t = 0 to 4294967296 * (4294967296 * T) {
  }
}
