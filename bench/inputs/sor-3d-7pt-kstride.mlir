// An experiment input (bench/inputs/README.md): examples/sor-3d-7pt.mlir with a hand-written
// tiling band whose innermost point row moves along the array's innermost dimension.
//
// poly-schedule's band for 3-D SOR is (2t+i+j+k, t+j+k, t+i+j, t+i+k). Inside an intra-tile
// wavefront step (2t+i+j+k fixed), consecutive threads (x) step along the last row with the
// others fixed, i.e. by the last column of the band's inverse: (t, i, j, k) += (-1, 1, 0, 1),
// an address stride of M*L + 1 elements. Every lane of a warp reads its own 32-byte sectors
// (4 f64 each, 1 used): the loads are not coalesced at all. No row order of that band does
// better (the other point rows step by (-1, 0, 1, 1) and (-1, 1, 1, 0): strides L + 1 and
// M*L + L), and no band can step along k alone inside a step: SOR's in-place update makes
// (t, i, j, k-1) -> (t, i, j, k) a dependence, so points of one step always differ in t as well.
//
// The band below, (2t+i+j+k, 2t+i+k, 2t+j+k, t+i+j), is legal (every row is non-negative on the
// dependences (0,1,0,0), (0,0,1,0), (0,0,0,1), (1,-1,0,0), (1,0,-1,0), (1,0,0,-1), (1,0,0,0);
// poly-tile checks it), keeps the balanced first row (positive on every dependence) and is
// unimodular (det 1). Its first three rows all vanish on (1, 0, 0, -2), so the last row's
// direction is (t, k) += (1, -2): an address stride of 2 elements, half of each sector used.
// The tile model predicts the same layout for it as for poly-schedule's band at 512^3, T=20
// (3x6x6x6 on 8x2x2 on global memory, 201.4 against 201.2 ms): it does not model coalescing.
// The GPU bundle times both bands with that layout (tools/gpu-bundle, EXPERIMENTS).
//
// 3-D SOR, 7 points (the 3-D SOR solver of thesis Ch. 5, Sec. 5.5).
//
// For t = 0 .. T-1, in place, (i, j, k) lexicographically increasing:
//   S: A[i][j][k] = (1 - omega) * A[i][j][k]
//                 + (omega / 6) * (A[i-1][j][k] + A[i][j-1][k] + A[i][j][k-1]
//                                  + A[i+1][j][k] + A[i][j+1][k] + A[i][j][k+1])
//                                          for 1 <= i < N-1, 1 <= j < M-1, 1 <= k < L-1
// The three "minus" neighbours are new values of this sweep, the three "plus" ones old: the
// 3-D analogue of thesis Eq. (6.4). The boundary faces of A are fixed.
//
// Source: seed 003 (P. Di's thesis), Sec. 5.5 ("1-D (3-point), 2-D (5-point) and 3-D (7-point)
// SOR solvers"), relaxation as in Eq. (6.4).
// Dependences: DOACROSS (flow dependences at distance 1 along each of i, j, k within a sweep).
stencil.program @sor_3d_7pt(%A: !stencil.field<[N, M, L] x f64>, %omega: f64)
    params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 5, N = 16, M = 16, L = 16, omega = 1.5] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1, 1] to [N - 1, M - 1, L - 1] attributes {poly.bands = array<i64: 0, 0, 0, 0>, poly.schedule = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d0 * 2 + d1 + d2 + d3, d0 * 2 + d1 + d3, d0 * 2 + d2 + d3, d0 + d1 + d2)>} {
      %c = stencil.access %A[0, 0, 0] : f64
      %im = stencil.access %A[-1, 0, 0] : f64
      %jm = stencil.access %A[0, -1, 0] : f64
      %km = stencil.access %A[0, 0, -1] : f64
      %ip = stencil.access %A[1, 0, 0] : f64
      %jp = stencil.access %A[0, 1, 0] : f64
      %kp = stencil.access %A[0, 0, 1] : f64
      %one = arith.constant 1.0 : f64
      %six = arith.constant 6.0 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.divf %omega, %six : f64
      %old = arith.mulf %keep, %c : f64
      %s0 = arith.addf %im, %jm : f64
      %s1 = arith.addf %s0, %km : f64
      %s2 = arith.addf %s1, %ip : f64
      %s3 = arith.addf %s2, %jp : f64
      %s4 = arith.addf %s3, %kp : f64
      %new = arith.mulf %relax, %s4 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}
