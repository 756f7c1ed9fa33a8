// Issue 16, item 6: a bound whose coefficient is i64::MIN made the verifier's parameter box
// negate i64::MIN (a panic in debug builds); now a located error. Kept with the fuzz
// regressions, where it is replayed through the whole harness.
stencil.program @p(%A: !stencil.field<[N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 2, N = 8] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [2 - 9223372036854775807*N - N] {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}
