// 3-D Laplacian of seed 004 (Laplacian3D).
//
// Two time steps per iteration of t = 0 .. T-1 (ping-pong between A and B, the usual way of
// storing A_t and A_(t-1) in two arrays):
//   S0: B = f(A)    S1: A = f(B)
// with, at every point 1 <= i < N-1, 1 <= j < M-1, 1 <= k < L-1:
//   f(X)[i][j][k] = (sum of the 6 face neighbours) - 6 * X[i][j][k]
// The boundary of both fields is fixed.
// Applying the Laplacian repeatedly is not a convergent iteration: values can grow by up to
// 12x per step (|f| <= 12 max|X|); keep 2*T below about 280 to stay within f64.
//
// Source: seed 004 (analytical tile-size model for the HHC compiler), Sec. 3 Eq. (1) and Sec. 5
// ("two 3D stencils: Heat and Laplacian"). The seed defines the class of stencils (A_t(s) =
// sum_a w_a * A_(t-1)(s + a) + c, first order) but gives no weights: here the 7-point discrete
// Laplacian, w_centre = -6, w_neighbour = 1, c = 0.
// Dependences: DOALL (each apply reads only the other field: both nests are fully parallel; the
// t loop carries the flow dependences A -> B -> A).
stencil.program @hhc_laplacian_3d(%A: !stencil.field<[N, M, L] x f64>, %B: !stencil.field<[N, M, L] x f64>)
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
      %s0 = arith.addf %amzz, %apzz : f64
      %s1 = arith.addf %s0, %azmz : f64
      %s2 = arith.addf %s1, %azpz : f64
      %s3 = arith.addf %s2, %azzm : f64
      %s4 = arith.addf %s3, %azzp : f64
      %w_centre = arith.constant -6.0 : f64
      %w_neighbour = arith.constant 1.0 : f64
      %tc = arith.mulf %w_centre, %c : f64
      %tn = arith.mulf %w_neighbour, %s4 : f64
      %v = arith.addf %tc, %tn : f64
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
      %s0 = arith.addf %amzz, %apzz : f64
      %s1 = arith.addf %s0, %azmz : f64
      %s2 = arith.addf %s1, %azpz : f64
      %s3 = arith.addf %s2, %azzm : f64
      %s4 = arith.addf %s3, %azzp : f64
      %w_centre = arith.constant -6.0 : f64
      %w_neighbour = arith.constant 1.0 : f64
      %tc = arith.mulf %w_centre, %c : f64
      %tn = arith.mulf %w_neighbour, %s4 : f64
      %v = arith.addf %tc, %tn : f64
      stencil.yield %v : f64
    }
  }
}
