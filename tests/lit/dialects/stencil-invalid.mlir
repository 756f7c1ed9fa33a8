// Every error of the stencil dialect's parser and verifier (docs/dialects/stencil.md,
// "Verifier"). One case per chunk; --allow-unregistered-dialect only serves the case that
// builds a field with an unknown op.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// ===== non-affine bounds

stencil.program @p(%A: !stencil.field<[N] x f64>) params [T, N >= 3] {
  stencil.iterate %t = 0 to T {
    // expected-error@+1 {{'stencil.apply' op bound 'N * N' in 'upper_bounds' is not affine in the parameters: write it as a sum of integer multiples of parameters and a constant}}
    stencil.apply @S writes %A over [1] to [N * N] {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [T, N >= 3] {
  // expected-error@+1 {{bound 'N floordiv 2' in 'lower_bounds' is not affine in the parameters}}
  stencil.apply @S writes %A over [N floordiv 2] to [N] {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [T, N >= 3] {
  // expected-error@+1 {{'stencil.iterate' op bound 'T mod 2' in 'upper_bound' is not affine in the parameters}}
  stencil.iterate %t = 0 to T mod 2 {
  }
}

// -----

// expected-error@+1 {{non-affine extent 'N*M': products of parameters are not affine}}
stencil.program @p(%A: !stencil.field<[N*M] x f64>) params [N, M] {
}

// -----

// expected-error@+1 {{invalid extent 'N/2': expected a sum of integers and parameter names with integer factors}}
stencil.program @p(%A: !stencil.field<[N/2] x f64>) params [N] {
}

// -----

// A general access whose index is not affine in the index values.
stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 2] {
  stencil.apply @S writes %A over [0] to [N] {
    %i = stencil.index 0
    // expected-error@+1 {{index 'd0 floordiv 2' (dN is index operand N) is not affine: accesses take sums of integer multiples of index values and a constant}}
    %c = stencil.access %A at [%i floordiv 2] : f64
    stencil.yield %c : f64
  }
}

// -----

// ===== reads outside the field

// At the declared minimum: N = 3 reads A[-1].
stencil.program @p(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [0] to [N - 1] {
      // expected-error@+1 {{'stencil.access' op reads outside the field (below 0) in dimension 0 with offset -1: for T = 1, N = 3 the domain reads indices -1..=0 of extent 3; shrink the apply's domain or enlarge the field}}
      %c = stencil.access %A[-1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// Past the end at the declared minimum, in the second dimension.
stencil.program @p(%A: !stencil.field<[N, M] x f64>) params [N >= 3, M >= 3] {
  stencil.apply @S writes %A over [1, 1] to [N - 1, M] {
    // expected-error@+1 {{reads outside the field (past the end) in dimension 1 with offset 1: for N = 3, M = 3 the domain reads indices 2..=3 of extent 3}}
    %c = stencil.access %A[0, 1] : f64
    stencil.yield %c : f64
  }
}

// -----

// In bounds at the minimum N = 3 (indices 2..=2 of 3), outside for every larger N: the check is
// symbolic, not a test at the minimum.
stencil.program @p(%A: !stencil.field<[2 * N - 3] x f64>, %B: !stencil.field<[N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [2 * N - 4] {
    // expected-error@+1 {{reads outside the field (past the end) in dimension 0 with offset 1: for N = 4 the domain reads indices 2..=4 of extent 4}}
    %c = stencil.access %B[1] : f64
    stencil.yield %c : f64
  }
}

// -----

// A field whose extent does not grow with the domain: fine for small M, not for large ones.
stencil.program @p(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, 4] x f64>) params [N >= 1, M >= 1] {
  stencil.apply @S writes %A over [0, 0] to [N, M] {
    // expected-error@+1 {{reads outside the field (past the end) in dimension 1 with offset 0: for N = 1, M = 5 the domain reads indices 0..=4 of extent 4}}
    %b = stencil.access %B[0, 0] : f64
    stencil.yield %b : f64
  }
}

// -----

// The general form at the time iterator: t runs to T but the field has T entries.
stencil.program @p(%A: !stencil.field<[N] x f64>, %F: !stencil.field<[T] x f64>) params [T >= 1, N >= 1] {
  stencil.iterate %t = 0 to T + 1 {
    stencil.apply @S writes %A over [0] to [N] {
      // expected-error@+1 {{reads outside the field (past the end) in dimension 0 with index 'd0' (dN is index operand N): for T = 1, N = 1 the domain reads indices 0..=1 of extent 1}}
      %f = stencil.access %F at [%t] : f64
      stencil.yield %f : f64
    }
  }
}

// -----

// The general form at a coordinate, shifted.
stencil.program @p(%A: !stencil.field<[N] x f64>, %F: !stencil.field<[N] x f64>) params [N >= 1] {
  stencil.apply @S writes %A over [0] to [N] {
    %i = stencil.index 0
    // expected-error@+1 {{reads outside the field (below 0) in dimension 0 with index 'd0 - 1' (dN is index operand N): for N = 1 the domain reads indices -1..=-1 of extent 1}}
    %f = stencil.access %F at [%i - 1] : f64
    stencil.yield %f : f64
  }
}

// -----

// Domain bounds that combine parameters are not used to narrow parameter ranges: the
// counter-example found (N = M = 0) has an empty domain, and the error says so. (The read is
// out of bounds for N = 1, M = 0.)
stencil.program @p(%A: !stencil.field<[N + 1] x f64>) params [N, M] {
  stencil.apply @S writes %A over [M] to [N] {
    // expected-error@+1 {{may read outside the field (below 0) in dimension 0 with offset -1: for N = 0, M = 0 the indices would be -1..=-2 of extent 1; the domain is empty for these values, but bounds that combine several parameters are not used to rule them out: declare parameter minimums that exclude them, or use bounds with one parameter each}}
    %c = stencil.access %A[-1] : f64
    stencil.yield %c : f64
  }
}

// -----

// The same domain with a real counter-example: N = 1, M = 0 reads A[-1].
stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 1, M] {
  stencil.apply @S writes %A over [M] to [N] {
    // expected-error@+1 {{reads outside the field (below 0) in dimension 0 with offset -1: for N = 1, M = 0 the domain reads indices -1..=-1 of extent 1}}
    %c = stencil.access %A[-1] : f64
    stencil.yield %c : f64
  }
}

// -----

// ===== writes outside the field

// The domain of an apply is where it writes: it must lie inside the written field.
stencil.program @p(%A: !stencil.field<[N, M] x f64>) params [N >= 1, M >= 1] {
  // expected-error@+1 {{'stencil.apply' op writes outside the field (past the end) in dimension 1: for N = 1, M = 1 the domain writes indices 0..=1 of extent 1; shrink the domain or enlarge the field}}
  stencil.apply @S writes %A over [0, 0] to [N, M + 1] {
    %c = arith.constant 1.0 : f64
    stencil.yield %c : f64
  }
}

// -----

// Reported before the reads of the apply, which leave the field for the same reason.
stencil.program @p(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 1] {
  stencil.iterate %t = 0 to T {
    // expected-error@+1 {{'stencil.apply' op writes outside the field (below 0) in dimension 0: for T = 1, N = 1 the domain writes indices -1..=0 of extent 1}}
    stencil.apply @S writes %A over [-1] to [N] {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// ===== writes at a non-zero offset

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  // expected-error@+1 {{stencil.apply writes only at the current point; a write offset [1] is not supported: shift the domain by the offset and every read by its negation instead}}
  stencil.apply @S writes %A[1] over [1] to [N - 1] {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}

// -----

// ===== rank mismatches

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  // expected-error@+1 {{'stencil.apply' op has a 2-dimensional domain ('lower_bounds') but writes a rank-1 field: give one bound per field dimension}}
  stencil.apply @S writes %A over [1, 1] to [N - 1, N - 1] {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  // expected-error@+1 {{the domain has 1 lower bounds but 2 upper bounds}}
  stencil.apply @S writes %A over [1] to [N - 1, N - 1] {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    // expected-error@+1 {{'stencil.access' op has 2 offsets for a rank-1 field}}
    %c = stencil.access %A[0, 0] : f64
    stencil.yield %c : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N, N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    // expected-error@+1 {{offset access to a rank-2 field inside an apply over a rank-1 domain: use the affine form '%F at [...]'}}
    %c = stencil.access %B[0, 0] : f64
    stencil.yield %c : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N, N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    %i = stencil.index 0
    // expected-error@+1 {{'map' has 1 results for a rank-2 field}}
    %c = stencil.access %B at [%i] : f64
    stencil.yield %c : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    // expected-error@+1 {{'stencil.index' op dimension 1 is out of range for a rank-1 domain}}
    %j = stencil.index 1
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}

// -----

// ===== type mismatches

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    // expected-error@+1 {{'stencil.access' op result type 'f32' differs from the field's element type 'f64'}}
    %c = stencil.access %A[0] : f32
    stencil.yield %c : f32
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>, %x: f32) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    // expected-error@+1 {{'stencil.yield' op yields 'f32' but the written field holds 'f64'}}
    stencil.yield %x : f32
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>, %w: f64) params [N >= 3] {
  // expected-error@+1 {{'stencil.apply' op operand #0 must be a !stencil.field, found 'f64'}}
  stencil.apply @S writes %w over [1] to [N - 1] {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>, %w: f64) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    // expected-error@+1 {{'stencil.access' op operand #0 must be a !stencil.field, found 'f64'}}
    %c = stencil.access %w[0] : f64
    stencil.yield %c : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    %c = stencil.access %A[0] : f64
    // expected-error@+1 {{'stencil.yield' op expected 1 operands, but found 2}}
    stencil.yield %c, %c : f64, f64
  }
}

// -----

// ===== fields that are not program arguments

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    %f = "test.make_field"() : () -> !stencil.field<[N] x f64>
    // expected-error@+1 {{'stencil.access' op uses a field that is not an argument of the enclosing stencil.program; fields must be program arguments}}
    %c = stencil.access %f[0] : f64
    stencil.yield %c : f64
  }
}

// -----

// A field passed in as a block argument of a stencil.iterate (generic form).
"stencil.program"() <{arg_names = ["A"], function_type = (!stencil.field<[4] x f64>) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%A: !stencil.field<[4] x f64>):
  "stencil.iterate"() <{lower_bound = affine_map<() -> (0)>, upper_bound = affine_map<() -> (2)>}> ({
  ^bb0(%t: index, %F: !stencil.field<[4] x f64>):
    // expected-error@+1 {{'stencil.apply' op uses a field that is not an argument of the enclosing stencil.program}}
    "stencil.apply"(%F) <{lower_bounds = affine_map<() -> (0)>, name = "S", upper_bounds = affine_map<() -> (4)>}> ({
      %c = "stencil.access"(%A) <{offset = array<i64: 0>}> : (!stencil.field<[4] x f64>) -> f64
      "stencil.yield"(%c) : (f64) -> ()
    }) : (!stencil.field<[4] x f64>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  // expected-error@+1 {{use of undeclared SSA value name '%B': expected a field argument of the enclosing stencil.program}}
  stencil.apply @S writes %B over [1] to [N - 1] {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    %c = stencil.access %A[0] : f64
    // expected-error@+1 {{'test.use' op uses field argument #0 directly: fields are read with stencil.access and written with stencil.apply}}
    %d = "test.use"(%A) : (!stencil.field<[N] x f64>) -> f64
    stencil.yield %c : f64
  }
}

// -----

// ===== unknown parameter names

stencil.program @p(%A: !stencil.field<[N] x f64>) params [T, N >= 3] {
  // expected-error@+1 {{unknown parameter 'M' in affine expression (known parameters: T, N)}}
  stencil.iterate %t = 0 to M {
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  // expected-error@+1 {{unknown parameter 'M' in affine expression (known parameters: N)}}
  stencil.apply @S writes %A over [1] to [M - 1] {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}

// -----

// expected-error@+1 {{'stencil.program' op field %A (argument #0): field extent 'M' uses 'M', which is not a parameter of the program (declared: T, N)}}
stencil.program @p(%A: !stencil.field<[M] x f64>) params [T, N >= 3] {
}

// -----

// expected-error@+1 {{default given for 'M', which is neither a parameter (T, N) nor a scalar argument}}
stencil.program @p(%A: !stencil.field<[N] x f64>) params [T, N >= 3] defaults [M = 2] {
}

// -----

// expected-error@+1 {{parameter 'T' is declared twice}}
stencil.program @p(%A: !stencil.field<[N] x f64>) params [T, N >= 3, T] {
}

// -----

// expected-error@+1 {{'stencil.program' op argument name 'N' is already used by another argument or a parameter: arguments and parameters need distinct names}}
stencil.program @p(%N: f64) params [N >= 3] {
}

// -----

// ===== bad field and argument types

// expected-error@+1 {{field element type must be f32 or f64, found 'i32'}}
stencil.program @p(%A: !stencil.field<[N] x i32>) params [N] {
}

// -----

// expected-error@+1 {{a field needs at least one dimension}}
stencil.program @p(%A: !stencil.field<[] x f64>) {
}

// -----

// expected-error@+1 {{fields have 1 to 3 dimensions, found 4}}
stencil.program @p(%A: !stencil.field<[N, N, N, N] x f64>) params [N] {
}

// -----

// expected-error@+1 {{expected '[extents] x f32|f64', e.g. !stencil.field<[N, M + 2] x f64>}}
stencil.program @p(%A: !stencil.field<N x f64>) params [N] {
}

// -----

// expected-error@+1 {{!stencil.field needs a shape and element type: !stencil.field<[N, M] x f64>}}
stencil.program @p(%A: !stencil.field) {
}

// -----

// expected-error@+1 {{unknown stencil type '!stencil.grid' (the stencil dialect has only !stencil.field)}}
stencil.program @p(%A: !stencil.grid<[4] x f64>) {
}

// -----

// expected-error@+1 {{'stencil.program' op field %A (argument #0): extent 'N - 3' of dimension 0 is not positive for T = 0, N = 3: declare 'N >= 4' in the parameter list}}
stencil.program @p(%A: !stencil.field<[N - 3] x f64>) params [T, N >= 3] {
}

// -----

// expected-error@+1 {{'stencil.program' op field %A (argument #0): extent '-N + 10' of dimension 0 is not positive for N = 10: extents must not shrink as a parameter grows ('N' has no upper bound)}}
stencil.program @p(%A: !stencil.field<[10 - N] x f64>) params [N] {
}

// -----

// expected-error@+1 {{'stencil.program' op argument #0 has type 'memref<4xf64>': program arguments are !stencil.field<…> or scalars (f32, f64, iN, index)}}
stencil.program @p(%A: memref<4xf64>) {
}

// -----

// ===== bad defaults

// expected-error@+1 {{'stencil.program' op default N = 2 is below the declared minimum 3}}
stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] defaults [N = 2] {
}

// -----

// expected-error@+1 {{'A' is a field: fields are initialised by stencil-run --init, not by defaults}}
stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] defaults [A = 2] {
}

// -----

// expected-error@+1 {{default for 'N' given twice}}
stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] defaults [N = 4, N = 5] {
}

// -----

// expected-error@+1 {{expected integer}}
stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] defaults [N = 4.5] {
}

// -----

// expected-error@+1 {{default of 'k' is not a value of its type 'i8'}}
stencil.program @p(%k: i8) defaults [k = 1000] {
}

// -----

// expected-error@+1 {{default of 'b' is not a value of its type 'i1'}}
stencil.program @p(%b: i1) defaults [b = 2] {
}

// -----

// expected-error@+1 {{'stencil.program' op default '7 : i64' of argument 'x' is invalid: the argument has type 'f32'}}
"stencil.program"() <{arg_names = ["x"], defaults = {x = 7 : i64}, function_type = (f32) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%x: f32):
}) : () -> ()

// -----

// expected-error@+1 {{'stencil.program' op default '1.000000e+00 : f64' of argument 'A' is invalid: fields are initialised by stencil-run --init, not by defaults}}
"stencil.program"() <{arg_names = ["A"], defaults = {A = 1.0 : f64}, function_type = (!stencil.field<[4] x f64>) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%A: !stencil.field<[4] x f64>):
}) : () -> ()

// -----

// expected-error@+1 {{'stencil.program' op default of parameter 'N' must be an integer}}
"stencil.program"() <{arg_names = [], defaults = {N = 4.5 : f64}, function_type = () -> (), param_mins = array<i64: 0>, param_names = ["N"], sym_name = "p"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'stencil.program' op has a default for 'x', which is neither a parameter nor an argument}}
"stencil.program"() <{arg_names = [], defaults = {x = 1 : i64}, function_type = () -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'stencil.program' op 'defaults' must be a dictionary}}
"stencil.program"() <{arg_names = [], defaults = [1], function_type = () -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
}) : () -> ()

// -----

// ===== misplaced ops

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  // expected-error@+1 {{'arith.constant' op is not allowed directly inside 'stencil.program': only stencil.iterate and stencil.apply may appear there (compute values inside a stencil.apply body)}}
  %c = arith.constant 1.0 : f64
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [T, N >= 3] {
  stencil.iterate %t = 0 to T {
    // expected-error@+1 {{'arith.constant' op is not allowed directly inside 'stencil.iterate'}}
    %c = arith.constant 1.0 : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    %c = stencil.access %A[0] : f64
    // expected-error@+1 {{'stencil.apply' op expects parent op 'stencil.program' or 'stencil.iterate'}}
    stencil.apply @R writes %A over [1] to [N - 1] {
      stencil.yield %c : f64
    }
    stencil.yield %c : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [T, N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    %c = stencil.access %A[0] : f64
    // expected-error@+1 {{'stencil.iterate' op expects parent op 'stencil.program' or 'stencil.iterate'}}
    stencil.iterate %t = 0 to T {
    }
    stencil.yield %c : f64
  }
}

// -----

func.func @f(%A: !stencil.field<[4] x f64>) {
  // expected-error@+1 {{'stencil.apply' op expects parent op 'stencil.program' or 'stencil.iterate'}}
  stencil.apply @S writes %A over [1] to [3] {
    %c = arith.constant 1.0 : f64
    stencil.yield %c : f64
  }
  return
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [T, N >= 3] {
  stencil.iterate %t = 0 to T {
    // expected-error@+1 {{'stencil.access' op expects parent op 'stencil.apply'}}
    %c = stencil.access %A[0] : f64
  }
}

// -----

func.func @f() -> index {
  // expected-error@+1 {{'stencil.index' op expects parent op 'stencil.apply'}}
  %i = stencil.index 0
  return %i : index
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [T, N >= 3] {
  stencil.iterate %t = 0 to T {
    // expected-error@+1 {{'stencil.yield' op expects parent op 'stencil.apply'}}
    stencil.yield
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  // expected-note@+1 {{in this operation}}
  stencil.apply @S writes %A over [1] to [N - 1] {
    // expected-error@+1 {{block in region #0 of 'stencil.apply' does not end with a terminator (found 'stencil.access')}}
    %c = stencil.access %A[0] : f64
  }
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>, %b: i1) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    %c = stencil.access %A[0] : f64
    // expected-error@+1 {{'scf.if' op ops with regions are not allowed in a stencil.apply body: it computes one value per point}}
    %r = scf.if %b -> (f64) {
      scf.yield %c : f64
    } else {
      scf.yield %c : f64
    }
    stencil.yield %r : f64
  }
}

// -----

// ===== malformed ops

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  // expected-error@+1 {{expected one of ['forward', 'reverse'], found 'sideways'}}
  stencil.apply @S writes %A over [1] to [N - 1] order sideways {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}

// -----

"stencil.program"() <{arg_names = ["A"], function_type = (!stencil.field<[4] x f64>) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%A: !stencil.field<[4] x f64>):
  // expected-error@+1 {{'stencil.apply' op 'order' must be "forward" or "reverse"}}
  "stencil.apply"(%A) <{lower_bounds = affine_map<() -> (0)>, name = "S", order = "up", upper_bounds = affine_map<() -> (4)>}> ({
    %c = "stencil.access"(%A) <{offset = array<i64: 0>}> : (!stencil.field<[4] x f64>) -> f64
    "stencil.yield"(%c) : (f64) -> ()
  }) : (!stencil.field<[4] x f64>) -> ()
}) : () -> ()

// -----

"stencil.program"() <{arg_names = ["A"], function_type = (!stencil.field<[4] x f64>) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%A: !stencil.field<[4] x f64>):
  // expected-error@+1 {{'stencil.apply' op requires a statement name (@S), an identifier}}
  "stencil.apply"(%A) <{lower_bounds = affine_map<() -> (0)>, name = "1x", upper_bounds = affine_map<() -> (4)>}> ({
    %c = "stencil.access"(%A) <{offset = array<i64: 0>}> : (!stencil.field<[4] x f64>) -> f64
    "stencil.yield"(%c) : (f64) -> ()
  }) : (!stencil.field<[4] x f64>) -> ()
}) : () -> ()

// -----

"stencil.program"() <{arg_names = ["A"], function_type = (!stencil.field<[N] x f64>) -> (), param_mins = array<i64: 1>, param_names = ["N"], sym_name = "p"}> ({
^bb0(%A: !stencil.field<[N] x f64>):
  // expected-error@+1 {{'stencil.apply' op 'upper_bounds' must be a map ()[N] over the 1 program parameters, found '(d0) -> (d0)'}}
  "stencil.apply"(%A) <{lower_bounds = affine_map<()[s0] -> (0)>, name = "S", upper_bounds = affine_map<(d0) -> (d0)>}> ({
    %c = "stencil.access"(%A) <{offset = array<i64: 0>}> : (!stencil.field<[N] x f64>) -> f64
    "stencil.yield"(%c) : (f64) -> ()
  }) : (!stencil.field<[N] x f64>) -> ()
}) : () -> ()

// -----

"stencil.program"() <{arg_names = ["A"], function_type = (!stencil.field<[4] x f64>) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%A: !stencil.field<[4] x f64>):
  "stencil.apply"(%A) <{lower_bounds = affine_map<() -> (1)>, name = "S", upper_bounds = affine_map<() -> (3)>}> ({
    // expected-error@+1 {{'stencil.access' op requires exactly one of 'offset' (array<i64>) or 'map' (affine map)}}
    %c = "stencil.access"(%A) : (!stencil.field<[4] x f64>) -> f64
    "stencil.yield"(%c) : (f64) -> ()
  }) : (!stencil.field<[4] x f64>) -> ()
}) : () -> ()

// -----

"stencil.program"() <{arg_names = ["A"], function_type = (!stencil.field<[4] x f64>) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%A: !stencil.field<[4] x f64>):
  "stencil.apply"(%A) <{lower_bounds = affine_map<() -> (1)>, name = "S", upper_bounds = affine_map<() -> (3)>}> ({
    %i = "stencil.index"() <{dim = 0 : i64}> : () -> index
    // expected-error@+1 {{'stencil.access' op 'map' takes 1 dims and no symbols but the access has 0 index operands}}
    %c = "stencil.access"(%A) <{map = affine_map<(d0) -> (d0)>}> : (!stencil.field<[4] x f64>) -> f64
    "stencil.yield"(%c) : (f64) -> ()
  }) : (!stencil.field<[4] x f64>) -> ()
}) : () -> ()

// -----

// Index operands of a general access must be induction variables or coordinates.
stencil.program @p(%A: !stencil.field<[N] x f64>, %n: index) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    // expected-error@+1 {{'stencil.access' op affine index operands must be stencil.iterate induction variables or stencil.index coordinates}}
    %c = stencil.access %A at [%n] : f64
    stencil.yield %c : f64
  }
}

// -----

"stencil.program"() <{arg_names = [], function_type = () -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
  // expected-error@+1 {{'stencil.iterate' op requires a body with one 'index' argument (the induction variable)}}
  "stencil.iterate"() <{lower_bound = affine_map<() -> (0)>, upper_bound = affine_map<() -> (2)>}> ({
  ^bb0(%t: f64):
  }) : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'stencil.program' op requires 'param_mins' with one minimum per parameter}}
"stencil.program"() <{arg_names = [], function_type = () -> (), param_mins = array<i64>, param_names = ["N"], sym_name = "p"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'stencil.program' op must not return values: results are the fields, updated in place}}
"stencil.program"() <{arg_names = [], function_type = () -> f64, param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'stencil.program' op requires 'arg_names', one identifier string per argument (the names users pass to stencil-run)}}
"stencil.program"() <{arg_names = [], function_type = (f64) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%x: f64):
}) : () -> ()

// -----

// expected-error@+1 {{'stencil.program' op entry block arguments must match the function_type inputs}}
"stencil.program"() <{arg_names = ["x"], function_type = (f64) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%x: f32):
}) : () -> ()

// -----

// expected-error@+1 {{'stencil.program' op requires 'param_names', an array of identifier strings}}
"stencil.program"() <{arg_names = [], function_type = () -> (), param_mins = array<i64: 0>, param_names = ["N + 1"], sym_name = "p"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'stencil.program' op declares parameter 'N' twice}}
"stencil.program"() <{arg_names = [], function_type = () -> (), param_mins = array<i64: 0, 0>, param_names = ["N", "N"], sym_name = "p"}> ({
}) : () -> ()

// -----

"stencil.program"() <{arg_names = ["A"], function_type = (!stencil.field<[4] x f64>) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%A: !stencil.field<[4] x f64>):
  // expected-error@+1 {{'stencil.apply' op body must not have arguments: use stencil.index for coordinates}}
  "stencil.apply"(%A) <{lower_bounds = affine_map<() -> (0)>, name = "S", upper_bounds = affine_map<() -> (4)>}> ({
  ^bb0(%i: index):
    %c = "stencil.access"(%A) <{offset = array<i64: 0>}> : (!stencil.field<[4] x f64>) -> f64
    "stencil.yield"(%c) : (f64) -> ()
  }) : (!stencil.field<[4] x f64>) -> ()
}) : () -> ()

// -----

"stencil.program"() <{arg_names = ["A"], function_type = (!stencil.field<[4] x f64>) -> (), param_mins = array<i64>, param_names = [], sym_name = "p"}> ({
^bb0(%A: !stencil.field<[4] x f64>):
  "stencil.apply"(%A) <{lower_bounds = affine_map<() -> (0)>, name = "S", upper_bounds = affine_map<() -> (4)>}> ({
    // expected-error@+1 {{'stencil.index' op result must be 'index'}}
    %i = "stencil.index"() <{dim = 0 : i64}> : () -> i64
    %c = "stencil.access"(%A) <{offset = array<i64: 0>}> : (!stencil.field<[4] x f64>) -> f64
    "stencil.yield"(%c) : (f64) -> ()
  }) : (!stencil.field<[4] x f64>) -> ()
}) : () -> ()

// ===== stencil.call

// -----

func.func @f() {
  // expected-error@+1 {{'stencil.call' op '@nowhere' does not reference a stencil.program (or the func.func it was lowered to)}}
  stencil.call @nowhere() : () -> ()
  return
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>, %w: f64) params [N >= 3] {
}
func.func @f(%A: memref<?xf64>, %w: f64) {
  // expected-error@+1 {{takes 2 operands but '@p' needs 3: its 2 arguments (fields as memrefs, scalars) then its 1 parameters as index}}
  stencil.call @p(%A, %w) : (memref<?xf64>, f64) -> ()
  return
}

// -----

stencil.program @p(%A: !stencil.field<[N, N] x f64>) params [N >= 3] {
}
func.func @f(%A: memref<?xf64>, %n: index) {
  // expected-error@+1 {{operand #0 ('memref<?xf64>') cannot hold field !stencil.field<[N, N] x f64>: rank 1 instead of 2}}
  stencil.call @p(%A, %n) : (memref<?xf64>, index) -> ()
  return
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
}
func.func @f(%A: memref<?xf32>, %n: index) {
  // expected-error@+1 {{element type 'f32' instead of 'f64'}}
  stencil.call @p(%A, %n) : (memref<?xf32>, index) -> ()
  return
}

// -----

stencil.program @p(%A: !stencil.field<[16] x f64>) {
}
func.func @f(%A: memref<8xf64>) {
  // expected-error@+1 {{dimension 0 has 8 elements but the field's extent is 16}}
  stencil.call @p(%A) : (memref<8xf64>) -> ()
  return
}

// -----

stencil.program @p(%A: !stencil.field<[4] x f64>, %w: f64) {
}
func.func @f(%A: memref<4xf64>, %w: f32) {
  // expected-error@+1 {{operand #1 has type 'f32' but the program's scalar argument is 'f64'}}
  stencil.call @p(%A, %w) : (memref<4xf64>, f32) -> ()
  return
}

// -----

stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {
}
func.func @f(%A: memref<?xf64>, %n: i32) {
  // expected-error@+1 {{operand #1 gives parameter 'N' and must be an index, not 'i32'}}
  stencil.call @p(%A, %n) : (memref<?xf64>, i32) -> ()
  return
}

// -----

func.func @lowered(%A: memref<?xf64>, %n: index) {
  return
}
func.func @f(%A: memref<8xf64>, %n: index) {
  // expected-error@+1 {{operand types do not match the signature of the lowered program '@lowered'}}
  stencil.call @lowered(%A, %n) : (memref<8xf64>, index) -> ()
  return
}

// -----

// The applies of a program are its statements: dependences, schedules and reports name them.
stencil.program @twice(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    // expected-note@+1 {{the first apply named so}}
    stencil.apply @S writes %A over [1] to [N - 1] {
      %c = stencil.access %A[-1] : f64
      stencil.yield %c : f64
    }
    // expected-error@+1 {{reuses the statement name @S: the applies of one program need distinct names}}
    stencil.apply @S writes %A over [1] to [N - 1] {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}
