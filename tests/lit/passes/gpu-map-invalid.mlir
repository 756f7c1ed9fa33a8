// gpu-map errors are located at the program (a DOACROSS refusal with a note at the apply).
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu-map{naive})'

// SOR updates in place along its sweep (DOACROSS): the naive mapping does not exist.
// expected-error@+1 {{gpu-map{naive} maps DOALL applies only, and S reads elements of the field it writes that other points of the same sweep write (a dependence along its own sweep: DOACROSS, as in SOR): schedule and tile the program (poly-schedule, poly-tile) and use gpu-map}}
stencil.program @sor(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      // expected-note@+1 {{S reads the field it writes here}}
      %w = stencil.access %A[-1] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %w, %e : f64
      stencil.yield %s : f64
    }
  }
}
