// 3-D gradient stencil, the 3-D analogue of seed 004's Gradient2D.
//
// Two time steps per iteration of t = 0 .. T-1 (ping-pong between A and B, the usual way of
// storing A_t and A_(t-1) in two arrays):
//   S0: B = f(A)    S1: A = f(B)
// with, at every point 1 <= i < N-1, 1 <= j < M-1, 1 <= k < L-1:
//   f(X)[i][j][k] = X[i][j][k] + 1 / sqrt(eps + sum over the 6 face neighbours n of (X[i][j][k] - X[n])^2)
//   eps = 1e-4
// The boundary of both fields is fixed.
//
// Source: seed 004 (analytical tile-size model for the HHC compiler), Sec. 3 Eq. (1) and Sec. 5
// (only a 2-D Gradient is benchmarked there; this 3-D version completes the 2-D/3-D set). The
// seed defines the class of stencils (A_t(s) = sum_a w_a * A_(t-1)(s + a) + c, first order) but
// gives no weights: see hhc-gradient-2d.mlir for the choice of update, extended here to the 6
// face neighbours.
// Dependences: DOALL (each apply reads only the other field: both nests are fully parallel; the
// t loop carries the flow dependences A -> B -> A).
stencil.program @hhc_gradient_3d(%A: !stencil.field<[N, M, L] x f64>, %B: !stencil.field<[N, M, L] x f64>)
    params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 3, N = 16, M = 16, L = 16] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1, 1] to [N - 1, M - 1, L - 1] {
      // %a<offsets> reads the neighbour at the offsets spelled m = -1, z = 0, p = +1.
      %c = stencil.access %A[0, 0, 0] : f64
      %amzz = stencil.access %A[-1, 0, 0] : f64
      %apzz = stencil.access %A[1, 0, 0] : f64
      %azmz = stencil.access %A[0, -1, 0] : f64
      %azpz = stencil.access %A[0, 1, 0] : f64
      %azzm = stencil.access %A[0, 0, -1] : f64
      %azzp = stencil.access %A[0, 0, 1] : f64
      %eps = arith.constant 1.0e-4 : f64
      %d0 = arith.subf %c, %amzz : f64
      %q0 = arith.mulf %d0, %d0 : f64
      %g0 = arith.addf %eps, %q0 : f64
      %d1 = arith.subf %c, %apzz : f64
      %q1 = arith.mulf %d1, %d1 : f64
      %g1 = arith.addf %g0, %q1 : f64
      %d2 = arith.subf %c, %azmz : f64
      %q2 = arith.mulf %d2, %d2 : f64
      %g2 = arith.addf %g1, %q2 : f64
      %d3 = arith.subf %c, %azpz : f64
      %q3 = arith.mulf %d3, %d3 : f64
      %g3 = arith.addf %g2, %q3 : f64
      %d4 = arith.subf %c, %azzm : f64
      %q4 = arith.mulf %d4, %d4 : f64
      %g4 = arith.addf %g3, %q4 : f64
      %d5 = arith.subf %c, %azzp : f64
      %q5 = arith.mulf %d5, %d5 : f64
      %g5 = arith.addf %g4, %q5 : f64
      %norm = math.sqrt %g5 : f64
      %one = arith.constant 1.0 : f64
      %inv = arith.divf %one, %norm : f64
      %v = arith.addf %c, %inv : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1, 1] to [N - 1, M - 1, L - 1] {
      %c = stencil.access %B[0, 0, 0] : f64
      %amzz = stencil.access %B[-1, 0, 0] : f64
      %apzz = stencil.access %B[1, 0, 0] : f64
      %azmz = stencil.access %B[0, -1, 0] : f64
      %azpz = stencil.access %B[0, 1, 0] : f64
      %azzm = stencil.access %B[0, 0, -1] : f64
      %azzp = stencil.access %B[0, 0, 1] : f64
      %eps = arith.constant 1.0e-4 : f64
      %d0 = arith.subf %c, %amzz : f64
      %q0 = arith.mulf %d0, %d0 : f64
      %g0 = arith.addf %eps, %q0 : f64
      %d1 = arith.subf %c, %apzz : f64
      %q1 = arith.mulf %d1, %d1 : f64
      %g1 = arith.addf %g0, %q1 : f64
      %d2 = arith.subf %c, %azmz : f64
      %q2 = arith.mulf %d2, %d2 : f64
      %g2 = arith.addf %g1, %q2 : f64
      %d3 = arith.subf %c, %azpz : f64
      %q3 = arith.mulf %d3, %d3 : f64
      %g3 = arith.addf %g2, %q3 : f64
      %d4 = arith.subf %c, %azzm : f64
      %q4 = arith.mulf %d4, %d4 : f64
      %g4 = arith.addf %g3, %q4 : f64
      %d5 = arith.subf %c, %azzp : f64
      %q5 = arith.mulf %d5, %d5 : f64
      %g5 = arith.addf %g4, %q5 : f64
      %norm = math.sqrt %g5 : f64
      %one = arith.constant 1.0 : f64
      %inv = arith.divf %one, %norm : f64
      %v = arith.addf %c, %inv : f64
      stencil.yield %v : f64
    }
  }
}
