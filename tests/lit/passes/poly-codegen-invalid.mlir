// poly-codegen errors: malformed poly.tiling attributes and unschedulable programs are located
// diagnostics at the program; nothing is lowered.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(poly-codegen)'

// expected-error@+1 {{'poly.tiling' has an unknown entry 'size' (expected sizes, inter, intra, order, auto)}}
stencil.program @typo(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] attributes {poly.tiling = {size = array<i64: 4>}} {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// expected-error@+1 {{'poly.tiling' 'sizes' must be a non-empty list of sizes >= 1}}
stencil.program @zero(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] attributes {poly.tiling = {sizes = array<i64: 0>}} {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// expected-error@+1 {{'poly.tiling' unknown intra-tile schedule 'diagonal'; expected one of: auto, first-hyperplane, skew}}
stencil.program @bad_intra(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] attributes {poly.tiling = {intra = "diagonal", sizes = array<i64: 4>}} {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// A schedule that is not unimodular (a scaling) determines t only as a multiple of the loop
// variables: code generation refuses it rather than generate wrong code.
// expected-error@+1 {{code generation failed}}
stencil.program @scaled(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.schedule = affine_map<(t, i)[T, N] -> (t * 2, i)>} {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// A hand-written schedule whose band is not permutable cannot be tiled: the tiled order would
// run a dependence backwards (thesis Thm 3.3).
// expected-error@+1 {{tiling failed: the tiled schedule violates dependence}}
stencil.program @not_permutable(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] attributes {poly.tiling = {sizes = array<i64: 4>}} {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [1] to [N - 1] attributes {poly.bands = array<i64: 0, 0>, poly.schedule = affine_map<(t, i)[T, N] -> (t, i)>} {
      %w = stencil.access %A[-1] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %w, %e : f64
      stencil.yield %s : f64
    }
  }
}

// -----

// The block the tile model chose with those sizes (`model_block`) is three extents >= 1.
// expected-error@+1 {{'poly.tiling' 'auto': 'model_block' must be an array<i64> of 3 extents >= 1}}
stencil.program @bad_model_block(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] attributes {poly.tiling = {auto = {block = array<i64: 32, 1, 1>, model_block = array<i64: 64, 1>, model_sizes = array<i64: 6, 8>}, sizes = array<i64: 4>}} {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// The sizes the tile model evaluated (`sizes=auto`'s `model_sizes`) are a list of sizes >= 1.
// expected-error@+1 {{'poly.tiling' 'auto': 'model_sizes' must be an array<i64> of sizes >= 1}}
stencil.program @bad_model_sizes(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] attributes {poly.tiling = {auto = {block = array<i64: 32, 1, 1>, model_sizes = array<i64: 0, 8>}, sizes = array<i64: 4>}} {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// The blocks per SM the model assumed (`gpu-map{occupancy=model}` asks ptxas for them): >= 1.
// expected-error@+1 {{'poly.tiling' 'auto': 'blocks_per_sm' must be an integer >= 1}}
stencil.program @bad_blocks_per_sm(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] attributes {poly.tiling = {auto = {block = array<i64: 32, 1, 1>, blocks_per_sm = 0 : i64}, sizes = array<i64: 4>}} {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// ... of any length: `sizes` may give one size for every row (no error here).
stencil.program @one_size_for_all(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] attributes {poly.tiling = {auto = {block = array<i64: 32, 1, 1>, model_sizes = array<i64: 6, 9>}, sizes = array<i64: 4>}} {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.bands = array<i64: 0, 0>, poly.schedule = affine_map<(t, i)[T, N] -> (t, t * 2 + i)>} {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}
