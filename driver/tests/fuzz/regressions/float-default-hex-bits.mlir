// fuzz-flags: unregistered
// Found by fuzz_pipelines (2026-11-26, seed 20261128): an integer default of a float scalar
// (alpha = -2147483648) printed as the float's bits, 0xC1E0000000000000, as MLIR prints a float
// whose decimal form has no '.'; reading it back took 0x… as an integer (1.397e19): print(parse(print))
// differed. Where a float is expected, 0x… is now the float's bits, as MLIR reads it.
// 2-D heat equation, explicit (forward Euler) finite differences ("2-D Heat" of thesis
// Table 4.1).
//
// For t = 0 .. T-1:
//   S0: B[i][j] = A[i][j] + alpha * (A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1] - 4 * A[i][j])
//                                          for 1 <= i < N-1, 1 <= j < M-1
//   S1: A[i][j] = B[i][j]                  (same domain)
// alpha = dt * kappa / h^2 is a scalar argument; the scheme is stable for alpha <= 1/4
// (default 0.125). The boundary of A is fixed (Dirichlet).
//
// Source: seed 003 (P. Di's thesis), Table 4.1 (from the Chombo toolkit there; the thesis gives
// no code; the table labels it "7 points" with loop depth 3, i.e. 2 space dimensions, which
// does not match a 2-D star: this program is the standard 5-point 2-D scheme).
// Dependences: DOALL (imperfect nest B = f(A); A = B as in thesis Fig. 3.2(a)).
stencil.program @heat_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>, %alpha: f64)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 10, N = 32, M = 32, alpha = -2147483648] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s0 = arith.addf %n, %s : f64
      %s1 = arith.addf %s0, %w : f64
      %s2 = arith.addf %s1, %e : f64
      %four = arith.constant 4.0 : f64
      %c4 = arith.mulf %four, %c : f64
      %lap = arith.subf %s2, %c4 : f64
      %d = arith.mulf %alpha, %lap : f64
      %v = arith.addf %c, %d : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
