// Two 3-D stencils a step, the second reading the first's results two points away: a halo
// wider than the one strategy=auto's streaming choice was measured with (gpu-map-auto.mlir).
stencil.program @wide_halo(%A: !stencil.field<[N, N, N] x f64>, %B: !stencil.field<[N, N, N] x f64>)
    params [T >= 1, N >= 5] defaults [T = 3, N = 12] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [2, 2, 2] to [N - 2, N - 2, N - 2] {
      %c = stencil.access %A[0, 0, 0] : f64
      %e = stencil.access %A[0, 1, 0] : f64
      %s = arith.addf %c, %e : f64
      stencil.yield %s : f64
    }
    stencil.apply @S1 writes %A over [2, 2, 2] to [N - 2, N - 2, N - 2] {
      %c = stencil.access %B[0, 0, 0] : f64
      %w = stencil.access %B[0, 0, -2] : f64
      %h = arith.constant 0.5 : f64
      %s = arith.addf %c, %w : f64
      %v = arith.mulf %h, %s : f64
      stencil.yield %v : f64
    }
  }
}
