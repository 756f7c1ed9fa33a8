// 2-D SOR, 5 points ("2-D SOR-5" of thesis Table 4.1 and Ch. 5; Eq. (6.4) of Ch. 6).
//
// For t = 0 .. T-1, in place, (i, j) lexicographically increasing:
//   S: A[i][j] = (1 - omega) * A[i][j]
//              + (omega / 4) * (A[i-1][j] + A[i][j-1] + A[i+1][j] + A[i][j+1])
//                                          for 1 <= i < N-1, 1 <= j < M-1
// A[i-1][j] and A[i][j-1] are new values of this sweep, A[i+1][j] and A[i][j+1] old ones,
// exactly as thesis Eq. (6.4) prescribes. The boundary of A is fixed (thesis: "the boundary
// condition is set to be 0"; here it is whatever the initial field holds).
//
// Source: seed 003 (P. Di's thesis), Sec. 6.3 Eq. (6.2)-(6.4), Table 4.1, Ch. 5 experiments.
// Dependences: DOACROSS. Flow dependences (0, 1, 0) and (0, 0, 1) within a sweep and (1, -1, 0),
// (1, 0, -1) across sweeps (plus anti and output ones): no loop of the original nest is
// parallel; a wavefront is needed.
stencil.program @sor_2d_5pt(%A: !stencil.field<[N, M] x f64>, %omega: f64)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 10, N = 32, M = 32, omega = 1.5] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %omega, %quarter : f64
      %old = arith.mulf %keep, %c : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %e : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}
