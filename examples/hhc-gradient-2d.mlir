// 2-D gradient stencil of seed 004 (Gradient2D).
//
// Two time steps per iteration of t = 0 .. T-1 (ping-pong between A and B, the usual way of
// storing A_t and A_(t-1) in two arrays):
//   S0: B = f(A)    S1: A = f(B)
// with, at every point 1 <= i < N-1, 1 <= j < M-1:
//   f(X)[i][j] = X[i][j] + 1 / sqrt(eps + sum over the 4 neighbours n of (X[i][j] - X[n])^2)
//   eps = 1e-4
// The boundary of both fields is fixed.
// Where the field is flat the update adds 1/sqrt(eps) = 100 per step; values stay finite.
//
// Source: seed 004 (analytical tile-size model for the HHC compiler), Sec. 3 Eq. (1) and Sec. 5
// ("four 2D stencils: Jacobi, Heat, Laplacian and Gradient"). The seed defines the class of
// stencils (A_t(s) = sum_a w_a * A_(t-1)(s + a) + c, first order) but gives no weights: a
// gradient stencil is not a weighted sum, and the seed's per-point cost for Gradient2D (C_iter,
// Sec. 5.2, Table 4) is about twice that of the other 2-D stencils, consistent with a square
// root and a division. This program uses the squared differences to the 4 neighbours (the
// squared norm of the one-sided gradients), regularised by eps, and adds its inverse square
// root.
// Dependences: DOALL (each apply reads only the other field: both nests are fully parallel; the
// t loop carries the flow dependences A -> B -> A).
stencil.program @hhc_gradient_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 5, N = 32, M = 32] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      // %a<offsets> reads the neighbour at the offsets spelled m = -1, z = 0, p = +1.
      %c = stencil.access %A[0, 0] : f64
      %amz = stencil.access %A[-1, 0] : f64
      %apz = stencil.access %A[1, 0] : f64
      %azm = stencil.access %A[0, -1] : f64
      %azp = stencil.access %A[0, 1] : f64
      %eps = arith.constant 1.0e-4 : f64
      %d0 = arith.subf %c, %amz : f64
      %q0 = arith.mulf %d0, %d0 : f64
      %g0 = arith.addf %eps, %q0 : f64
      %d1 = arith.subf %c, %apz : f64
      %q1 = arith.mulf %d1, %d1 : f64
      %g1 = arith.addf %g0, %q1 : f64
      %d2 = arith.subf %c, %azm : f64
      %q2 = arith.mulf %d2, %d2 : f64
      %g2 = arith.addf %g1, %q2 : f64
      %d3 = arith.subf %c, %azp : f64
      %q3 = arith.mulf %d3, %d3 : f64
      %g3 = arith.addf %g2, %q3 : f64
      %norm = math.sqrt %g3 : f64
      %one = arith.constant 1.0 : f64
      %inv = arith.divf %one, %norm : f64
      %v = arith.addf %c, %inv : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %B[0, 0] : f64
      %amz = stencil.access %B[-1, 0] : f64
      %apz = stencil.access %B[1, 0] : f64
      %azm = stencil.access %B[0, -1] : f64
      %azp = stencil.access %B[0, 1] : f64
      %eps = arith.constant 1.0e-4 : f64
      %d0 = arith.subf %c, %amz : f64
      %q0 = arith.mulf %d0, %d0 : f64
      %g0 = arith.addf %eps, %q0 : f64
      %d1 = arith.subf %c, %apz : f64
      %q1 = arith.mulf %d1, %d1 : f64
      %g1 = arith.addf %g0, %q1 : f64
      %d2 = arith.subf %c, %azm : f64
      %q2 = arith.mulf %d2, %d2 : f64
      %g2 = arith.addf %g1, %q2 : f64
      %d3 = arith.subf %c, %azp : f64
      %q3 = arith.mulf %d3, %d3 : f64
      %g3 = arith.addf %g2, %q3 : f64
      %norm = math.sqrt %g3 : f64
      %one = arith.constant 1.0 : f64
      %inv = arith.divf %one, %norm : f64
      %v = arith.addf %c, %inv : f64
      stencil.yield %v : f64
    }
  }
}
