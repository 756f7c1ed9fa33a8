// 2-D heat equation of seed 004 (Heat2D).
//
// Two time steps per iteration of t = 0 .. T-1 (ping-pong between A and B, the usual way of
// storing A_t and A_(t-1) in two arrays):
//   S0: B = f(A)    S1: A = f(B)
// with, at every point 1 <= i < N-1, 1 <= j < M-1:
//   f(X)[i][j] = 0.5 * X[i][j] + 0.125 * (X[i-1][j] + X[i+1][j] + X[i][j-1] + X[i][j+1])
// The boundary of both fields is fixed.
//
// Source: seed 004 (analytical tile-size model for the HHC compiler), Sec. 3 Eq. (1) and Sec. 5
// ("four 2D stencils: Jacobi, Heat, Laplacian and Gradient"). The seed defines the class of
// stencils (A_t(s) = sum_a w_a * A_(t-1)(s + a) + c, first order) but gives no weights: here
// the explicit heat-equation step X + r * (neighbours - 4 X) with r = 1/8 (stable for r <=
// 1/4), written as the weighted sum of Eq. (1): w_centre = 1 - 4r, w_neighbour = r.
// Dependences: DOALL (each apply reads only the other field: both nests are fully parallel; the
// t loop carries the flow dependences A -> B -> A).
stencil.program @hhc_heat_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 5, N = 32, M = 32] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      // %a<offsets> reads the neighbour at the offsets spelled m = -1, z = 0, p = +1.
      %c = stencil.access %A[0, 0] : f64
      %amz = stencil.access %A[-1, 0] : f64
      %apz = stencil.access %A[1, 0] : f64
      %azm = stencil.access %A[0, -1] : f64
      %azp = stencil.access %A[0, 1] : f64
      %s0 = arith.addf %amz, %apz : f64
      %s1 = arith.addf %s0, %azm : f64
      %s2 = arith.addf %s1, %azp : f64
      %w_centre = arith.constant 0.5 : f64
      %w_neighbour = arith.constant 0.125 : f64
      %tc = arith.mulf %w_centre, %c : f64
      %tn = arith.mulf %w_neighbour, %s2 : f64
      %v = arith.addf %tc, %tn : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %B[0, 0] : f64
      %amz = stencil.access %B[-1, 0] : f64
      %apz = stencil.access %B[1, 0] : f64
      %azm = stencil.access %B[0, -1] : f64
      %azp = stencil.access %B[0, 1] : f64
      %s0 = arith.addf %amz, %apz : f64
      %s1 = arith.addf %s0, %azm : f64
      %s2 = arith.addf %s1, %azp : f64
      %w_centre = arith.constant 0.5 : f64
      %w_neighbour = arith.constant 0.125 : f64
      %tc = arith.mulf %w_centre, %c : f64
      %tn = arith.mulf %w_neighbour, %s2 : f64
      %v = arith.addf %tc, %tn : f64
      stencil.yield %v : f64
    }
  }
}
