// 3-D Jacobi, 27 points ("3-D Jacobi-27" of thesis Table 4.1).
//
// For t = 0 .. T-1:
//   S0: B[i][j][k] = 0.3    * A[i][j][k]
//                  + 0.05   * (sum of the  6 face   neighbours, one offset of +-1)
//                  + 0.025  * (sum of the 12 edge   neighbours, two offsets of +-1)
//                  + 0.0125 * (sum of the  8 corner neighbours, three offsets of +-1)
//                                          for 1 <= i < N-1, 1 <= j < M-1, 1 <= k < L-1
//   S1: A[i][j][k] = B[i][j][k]            (same domain)
// The weights sum to 1 (0.3 + 6*0.05 + 12*0.025 + 8*0.0125), so values stay bounded.
//
// Source: seed 003 (P. Di's thesis), Table 4.1 (a Circular Queue kernel there; the thesis gives
// no weights, so the usual one-weight-per-distance-class form is used), with the imperfect
// nest of Fig. 3.2(a).
// Dependences: DOALL (both nests parallel; false anti dependences A -> A as in 2-D).
stencil.program @jacobi_3d_27pt(%A: !stencil.field<[N, M, L] x f64>, %B: !stencil.field<[N, M, L] x f64>)
    params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 5, N = 16, M = 16, L = 16] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1, 1] to [N - 1, M - 1, L - 1] {
      // %a<i><j><k> reads A at the offsets spelled m = -1, z = 0, p = +1.
      // centre: 1 point with 0 non-zero offsets
      %azzz = stencil.access %A[0, 0, 0] : f64
      // faces: 6 points with 1 non-zero offset
      %amzz = stencil.access %A[-1, 0, 0] : f64
      %azmz = stencil.access %A[0, -1, 0] : f64
      %azzm = stencil.access %A[0, 0, -1] : f64
      %azzp = stencil.access %A[0, 0, 1] : f64
      %azpz = stencil.access %A[0, 1, 0] : f64
      %apzz = stencil.access %A[1, 0, 0] : f64
      %f0 = arith.addf %amzz, %azmz : f64
      %f1 = arith.addf %f0, %azzm : f64
      %f2 = arith.addf %f1, %azzp : f64
      %f3 = arith.addf %f2, %azpz : f64
      %sum_faces = arith.addf %f3, %apzz : f64
      // edges: 12 points with 2 non-zero offsets
      %ammz = stencil.access %A[-1, -1, 0] : f64
      %amzm = stencil.access %A[-1, 0, -1] : f64
      %amzp = stencil.access %A[-1, 0, 1] : f64
      %ampz = stencil.access %A[-1, 1, 0] : f64
      %azmm = stencil.access %A[0, -1, -1] : f64
      %azmp = stencil.access %A[0, -1, 1] : f64
      %azpm = stencil.access %A[0, 1, -1] : f64
      %azpp = stencil.access %A[0, 1, 1] : f64
      %apmz = stencil.access %A[1, -1, 0] : f64
      %apzm = stencil.access %A[1, 0, -1] : f64
      %apzp = stencil.access %A[1, 0, 1] : f64
      %appz = stencil.access %A[1, 1, 0] : f64
      %e0 = arith.addf %ammz, %amzm : f64
      %e1 = arith.addf %e0, %amzp : f64
      %e2 = arith.addf %e1, %ampz : f64
      %e3 = arith.addf %e2, %azmm : f64
      %e4 = arith.addf %e3, %azmp : f64
      %e5 = arith.addf %e4, %azpm : f64
      %e6 = arith.addf %e5, %azpp : f64
      %e7 = arith.addf %e6, %apmz : f64
      %e8 = arith.addf %e7, %apzm : f64
      %e9 = arith.addf %e8, %apzp : f64
      %sum_edges = arith.addf %e9, %appz : f64
      // corners: 8 points with 3 non-zero offsets
      %ammm = stencil.access %A[-1, -1, -1] : f64
      %ammp = stencil.access %A[-1, -1, 1] : f64
      %ampm = stencil.access %A[-1, 1, -1] : f64
      %ampp = stencil.access %A[-1, 1, 1] : f64
      %apmm = stencil.access %A[1, -1, -1] : f64
      %apmp = stencil.access %A[1, -1, 1] : f64
      %appm = stencil.access %A[1, 1, -1] : f64
      %appp = stencil.access %A[1, 1, 1] : f64
      %c0 = arith.addf %ammm, %ammp : f64
      %c1 = arith.addf %c0, %ampm : f64
      %c2 = arith.addf %c1, %ampp : f64
      %c3 = arith.addf %c2, %apmm : f64
      %c4 = arith.addf %c3, %apmp : f64
      %c5 = arith.addf %c4, %appm : f64
      %sum_corners = arith.addf %c5, %appp : f64
      %w_centre = arith.constant 0.3 : f64
      %w_face = arith.constant 0.05 : f64
      %w_edge = arith.constant 0.025 : f64
      %w_corner = arith.constant 0.0125 : f64
      %t0 = arith.mulf %w_centre, %azzz : f64
      %t1 = arith.mulf %w_face, %sum_faces : f64
      %t2 = arith.mulf %w_edge, %sum_edges : f64
      %t3 = arith.mulf %w_corner, %sum_corners : f64
      %u0 = arith.addf %t0, %t1 : f64
      %u1 = arith.addf %u0, %t2 : f64
      %v = arith.addf %u1, %t3 : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1, 1] to [N - 1, M - 1, L - 1] {
      %b = stencil.access %B[0, 0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
