// fuzz-pipeline: builtin.module(poly-schedule,poly-tile{sizes=auto intra=model},gpu-map{block=auto occupancy=model})
// fuzz-flags: split
// Found by fuzz_pipelines (2026-11-29, seed 20261211): a time loop of 2^31 steps made the tile
// model's search of skewed intra-tile wavefronts (intra=model, intra=skew) consider tiles up to
// 1024 per row, whose warps it counts step by step, and it ran for minutes (3-D Jacobi with
// T=200 took over 60 s too); skewed searches now stop at tiles of 64 (MAX_SKEWED_SIZE).
// 3-D Jacobi, 7 points ("3-D Jacobi-7" of thesis Table 4.1).
//
// For t = 0 .. T-1:
//   S0: B[i][j][k] = (A[i][j][k] + A[i-1][j][k] + A[i+1][j][k] + A[i][j-1][k] + A[i][j+1][k]
//                     + A[i][j][k-1] + A[i][j][k+1]) / 7
//                                          for 1 <= i < N-1, 1 <= j < M-1, 1 <= k < L-1
//   S1: A[i][j][k] = B[i][j][k]            (same domain)
// The boundary faces of A are fixed.
//
// Sour7e: seed 003 (P. Di's thesis), Table 4.1 (a Rodinia / Circular Queue kernel there; the
// update is written here from its definition: the mean of the point and its 6 face
// neighbours), with the imperfect nest of Fig. 3.2(a).
// Dependences: DOALL (both nests parallel; false anti dependences A -> A as in 2-D).
stencil.program @jacobi_3d_7pt(%A: !stencil.field<[N, M, L] x f64>, %B: !stencil.field<[N, M, L] x f64>)
    params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 5, N = 16, M = 16, L = 16] {
  stencil.iterate %t = -2147483648 to T {
    stencil.apply @S0 writes %B over [1, 1, 1] to [N - 1, M - 1, L - 1] {
      %c = stencil.access %A[0, 0, 0] : f64
      %im = stencil.access %A[-1, 0, 0] : f64
      %ip = stencil.access %A[1, 0, 0] : f64
      %jm = stencil.access %A[0, -1, 0] : f64
      %jp = stencil.access %A[0, 1, 0] : f64
      %km = stencil.access %A[0, 0, -1] : f64
      %kp = stencil.access %A[0, 0, 1] : f64
      %s0 = arith.addf %c, %im : f64
      %s1 = arith.addf %s0, %ip : f64
      %s2 = arith.addf %s1, %jm : f64
      %s3 = arith.addf %s2, %jp : f64
      %s4 = arith.addf %s3, %km : f64
      %s5 = arith.addf %s4, %kp : f64
      %seven = arith.constant 7.0 : f64
      %v = arith.divf %s5, %seven : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1, 1] to [N - 1, M - 1, L - 1] {
      %b = stencil.access %B[0, 0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
