// Two point updates and an in-place sweep whose default (balanced) schedule leaves the
// applies' loops outside its one-row band, so its tiles would run them in sequential host loops:
// strategy=auto schedules it again with intra-balance=false (tests/lit/passes/gpu-map-auto.mlir).
stencil.program @p(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>) params [T >= 1, N >= 4] {
stencil.iterate %t = 0 to T {
stencil.apply @S0 writes %B over [1, 1] to [N - 1, N - 1] {
  %r0 = stencil.access %A[0, 0] : f64
  %w = arith.constant 0.3 : f64
  %acc0 = arith.mulf %r0, %w : f64
  stencil.yield %acc0 : f64
}
stencil.apply @S1 writes %A over [1, 1] to [N - 1, N - 1] {
  %r0 = stencil.access %A[0, 0] : f64
  %w = arith.constant 0.3 : f64
  %acc0 = arith.mulf %r0, %w : f64
  stencil.yield %acc0 : f64
}
stencil.apply @S2 writes %B over [1, 1] to [N - 1, N - 1] {
  %r0 = stencil.access %B[0, 1] : f64
  %r1 = stencil.access %B[0, -1] : f64
  %r2 = stencil.access %B[1, 0] : f64
  %w = arith.constant 0.3 : f64
  %acc0 = arith.mulf %r0, %w : f64
  %acc1 = arith.addf %acc0, %r1 : f64
  %acc2 = arith.addf %acc1, %r2 : f64
  stencil.yield %acc2 : f64
}
}
}
