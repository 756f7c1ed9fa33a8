// poly-tile and poly-codegen errors: located diagnostics at the program, the IR unchanged.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(poly-tile{sizes=4,4,4})'

// expected-error@+1 {{'poly.tiling' needs the 'poly.schedule' of every apply: run poly-schedule before poly-tile}}
stencil.program @unscheduled(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// expected-error@+1 {{'poly.tiling': 3 tile sizes for a band of 2 rows; give one size per row or a single size for all rows}}
stencil.program @too_many_sizes(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.bands = array<i64: 0, 0>, poly.schedule = affine_map<(t, i)[T, N] -> (t * 2 + i, t + i)>} {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// expected-error@+1 {{has no permutable band to tile: 'poly.bands' is missing or marks no loop row (run poly-schedule)}}
stencil.program @no_bands(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.schedule = affine_map<(t, i)[T, N] -> (t, t + i)>} {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}
