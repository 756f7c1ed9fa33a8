// 1-D SOR, 3 points ("1-D SOR-3" of thesis Table 4.1 and Ch. 5).
//
// For t = 0 .. T-1, in place, i increasing:
//   S: A[i] = (1 - omega) * A[i] + (omega / 2) * (A[i-1] + A[i+1])      for 1 <= i < N-1
// A[i-1] has already been updated in this sweep (a new value), A[i+1] not yet (an old value):
// the 1-D form of thesis Eq. (6.4). A[0] and A[N-1] are fixed boundary values.
// omega = 1 is Gauss-Seidel; omega = 2/3 gives exactly the loop of thesis Fig. 3.2(b),
// A[i] = (A[i-1] + A[i] + A[i+1]) / 3 (up to rounding).
//
// Source: seed 003 (P. Di's thesis), Fig. 3.2(b) ("SOR: a perfect loop nest"), Table 4.1 and
// the 1-D SOR solver of Ch. 5 (Figs. 5.1, 5.2), relaxation as in Eq. (6.4).
// Dependences: DOACROSS. The i loop carries the flow dependence A[i] -> A[i-1] at distance 1,
// so a sweep is sequential in i; tiling needs the skew of Fig. 5.1.
stencil.program @sor_1d_3pt(%A: !stencil.field<[N] x f64>, %omega: f64)
    params [T >= 1, N >= 3] defaults [T = 10, N = 64, omega = 1.5] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      %w = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %one = arith.constant 1.0 : f64
      %half = arith.constant 0.5 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %omega, %half : f64
      %old = arith.mulf %keep, %c : f64
      %sum = arith.addf %w, %e : f64
      %new = arith.mulf %relax, %sum : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}
