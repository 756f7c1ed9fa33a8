// 1-D Jacobi, 3 points ("1-D Jacobi-3" of thesis Table 4.1).
//
// For t = 0 .. T-1:
//   S0: B[i] = (A[i-1] + A[i] + A[i+1]) / 3     for 1 <= i < N-1
//   S1: A[i] = B[i]                             for 1 <= i < N-1
// A[0] and A[N-1] are fixed boundary values.
//
// Source: seed 003 (P. Di's thesis), Fig. 3.2(a) ("Jacobi: an imperfect loop nest") and
// Table 4.1; the thesis writes the interior as i = 1..I, here I = N - 2.
// Dependences: DOALL. Both i loops are parallel; S0 -> S1 carries the flow dependence on B,
// and the anti dependences A[i±1] (S0) -> A[i] (S1) are the false dependences that thesis
// Alg. 4.2 removes to expose inter-tile parallelism.
stencil.program @jacobi_1d_3pt(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 10, N = 64] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1] to [N - 1] {
      %w = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s0 = arith.addf %w, %c : f64
      %s1 = arith.addf %s0, %e : f64
      %three = arith.constant 3.0 : f64
      %v = arith.divf %s1, %three : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1] to [N - 1] {
      %b = stencil.access %B[0] : f64
      stencil.yield %b : f64
    }
  }
}
