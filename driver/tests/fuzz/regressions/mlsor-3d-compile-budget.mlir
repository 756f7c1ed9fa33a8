// fuzz-pipeline: builtin.module(stencil-mlsor,poly-remove-false-deps{intra-balance=false},poly-codegen,cse)
// fuzz-flags: split
// Found by fuzz_pipelines (2026-11-26, seed 20261127): 3-D MLSOR's 16 masked kernels took 17 s
// unloaded and over the 60 s budget loaded: the direct-dependence refinement (kill tests, cubic in
// the statements; 12 of the 17 s) and poly-remove-false-deps' exact scheduler had no budget. Now
// Limits::max_kill_tests bounds the first and max-statements the second: 3.3 s.
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
    stencil.apply @S writes %A over [1, 1, 1] to [N - 1, M - 1, L - 1] {
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
