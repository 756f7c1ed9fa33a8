// 2-D Jacobi, 5 points ("2-D Jacobi-5" of thesis Table 4.1).
//
// For t = 0 .. T-1:
//   S0: B[i][j] = (A[i][j] + A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]) / 5
//                                          for 1 <= i < N-1, 1 <= j < M-1
//   S1: A[i][j] = B[i][j]                  (same domain)
// The outermost rows and columns of A are fixed boundary values.
//
// Source: seed 003 (P. Di's thesis), Table 4.1, with the imperfect nest of Fig. 3.2(a)
// (B = f(A); A = B) extended to the 5-point star in 2-D.
// Dependences: DOALL. Both (i, j) nests are parallel; the anti dependences from the reads of A
// in S0 to the writes of A in S1 are false dependences (thesis Alg. 4.2 removes them).
stencil.program @jacobi_2d_5pt(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 10, N = 32, M = 32] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s0 = arith.addf %c, %n : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %w : f64
      %s3 = arith.addf %s2, %e : f64
      %five = arith.constant 5.0 : f64
      %v = arith.divf %s3, %five : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
