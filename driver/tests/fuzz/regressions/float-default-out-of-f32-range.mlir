// Found by fuzz_pipelines (2026-11-28, seed 20261129): the default of an f32 scalar written as
// 1.7976931348623157e308 was kept as that f64 value, printed as 3.40282367E+38, and read back in
// the generic form rounded to f32, +inf: print(parse(print)) differed. A float default (and
// every float attribute the dialects build) is now rounded to its type when made
// (Attribute::float), as MLIR rounds a literal.
// fuzz-seed: examples/ssor-2d-5pt.mlir
// fuzz-pipeline: builtin.module(stencil-rbsor)
// fuzz-flags: generic split
// 2-D symmetric SOR (SSOR), 5 points: a forward sweep then a backward sweep per iteration, the
// input of the MLSOR rewrite (thesis Ch. 6, stencil-mlsor).
//
// For t = 0 .. T-1, in place:
//   F: for (i, j) lexicographically increasing (thesis Eq. (6.4)):
//        A[i][j] = (1 - omega) * A[i][j]
//                + (omega / 4) * (A[i-1][j] + A[i][j-1] + A[i+1][j] + A[i][j+1])
//   B: for (i, j) lexicographically decreasing (thesis Eq. (6.5)), the same expression:
//        now A[i+1][j] and A[i][j+1] are the new values and A[i-1][j], A[i][j-1] the old ones.
//   both over 1 <= i < N-1, 1 <= j < M-1; the boundary of A is fixed.
// f32 like the thesis' GPU kernels (Fig. 6.6 works on `float (*data)[W]`).
// This is SSOR with Ker sweep direction; MLSOR (Fig. 6.1) repeats each sweep
// direction K times.
//
// Source: seed 003 (P. Di's thesis), Sec. 6.3, Eqs. (6.4) and (6.5), Fig. 6.1.
// Dependences: DOACROSS in both sweeps (the backward sweep's dependences are the forward ones
// reversed); F -> B and B -> next F are carried by the t loop.
stencil.program @ssor_2d_5pt(%A: !stencil.field<[N, M] x f32>, %omega: f32)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 10, N = 32, M = 32, omega = 1.7976931348623157e308] {
  stencil.iterate %t = 0 to T {
    stencil.apply @F writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f32
      %n = stencil.access %A[-1, 0] : f32
      %w = stencil.access %A[0, -1] : f32
      %s = stencil.access %A[1, 0] : f32
      %e = stencil.access %A[0, 1] : f32
      %one = arith.constant 1.0 : f32
      %quarter = arith.constant 0.25 : f32
      %keep = arith.subf %one, %omega : f32
      %relax = arith.mulf %omega, %quarter : f32
      %old = arith.mulf %keep, %c : f32
      %s0 = arith.addf %n, %w : f32
      %s1 = arith.addf %s0, %s : f32
      %s2 = arith.addf %s1, %e : f32
      %new = arith.mulf %relax, %s2 : f32
      %v = arith.addf %old, %new : f32
      stencil.yield %v : f32
    }
    stencil.apply @B writes %A over [1, 1] to [N - 1, M - 1] order reverse {
      %c = stencil.access %A[0, 0] : f32
      %n = stencil.access %A[-1, 0] : f32
      %w = stencil.access %A[0, -1] : f32
      %s = stencil.access %A[1, 0] : f32
      %e = stencil.access %A[0, 1] : f32
      %one = arith.constant 1.0 : f32
      %quarter = arith.constant 0.25 : f32
      %keep = arith.subf %one, %omega : f32
      %relax = arith.mulf %omega, %quarter : f32
      %old = arith.mulf %keep, %c : f32
      %s0 = arith.addf %s, %e : f32
      %s1 = arith.addf %s0, %n : f32
      %s2 = arith.addf %s1, %w : f32
      %new = arith.mulf %relax, %s2 : f32
      %v = arith.addf %old, %new : f32
      stencil.yield %v : f32
    }
  }
}
