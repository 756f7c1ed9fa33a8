// Two independent 3-D stencils per time step (each reads its own field around the point and
// the other's at the point), then the copies back: no apply reads around its point a field an
// earlier apply of the step wrote, so the step fuses in a streaming launch without a halo
// (tests/lit/passes/gpu-map-auto.mlir).
stencil.program @two_stencils(%U: !stencil.field<[N, M, L] x f64>, %V: !stencil.field<[N, M, L] x f64>,
                              %U2: !stencil.field<[N, M, L] x f64>, %V2: !stencil.field<[N, M, L] x f64>)
    params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 3, N = 12, M = 10, L = 11] {
  stencil.iterate %t = 0 to T {
    stencil.apply @SU writes %U2 over [1, 1, 1] to [N - 1, M - 1, L - 1] {
      %a = stencil.access %U[-1, 0, 0] : f64
      %b = stencil.access %U[0, 1, 0] : f64
      %c = stencil.access %U[0, 0, -1] : f64
      %v = stencil.access %V[0, 0, 0] : f64
      %s0 = arith.addf %a, %b : f64
      %s1 = arith.addf %s0, %c : f64
      %s = arith.addf %s1, %v : f64
      stencil.yield %s : f64
    }
    stencil.apply @SV writes %V2 over [1, 1, 1] to [N - 1, M - 1, L - 1] {
      %a = stencil.access %V[1, 0, 0] : f64
      %b = stencil.access %V[0, -1, 0] : f64
      %c = stencil.access %V[0, 0, 1] : f64
      %u = stencil.access %U[0, 0, 0] : f64
      %s0 = arith.addf %a, %b : f64
      %s1 = arith.addf %s0, %c : f64
      %s = arith.subf %s1, %u : f64
      stencil.yield %s : f64
    }
    stencil.apply @CU writes %U over [1, 1, 1] to [N - 1, M - 1, L - 1] {
      %x = stencil.access %U2[0, 0, 0] : f64
      stencil.yield %x : f64
    }
    stencil.apply @CV writes %V over [1, 1, 1] to [N - 1, M - 1, L - 1] {
      %x = stencil.access %V2[0, 0, 0] : f64
      stencil.yield %x : f64
    }
  }
}
