// poly-schedule on a program stencil-mlsor rewrote (8 statements over the same field, K = 2
// forward and backward layers): the exact scheduler's search for linearly independent rows
// gives up, and the error says what to run instead. The advised mapping works.
// (Its Farkas system has 1 120 rows; the refusal takes about a second in release.)
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(stencil-recognize-sor,stencil-mlsor,poly-schedule)' 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: stencil-opt %s --pass-pipeline='builtin.module(stencil-recognize-sor,stencil-mlsor,gpu-map{strategy=mlsor})' 2>/dev/null | FileCheck %s --check-prefix=MAPPED

// REFUSED: error: 'stencil.program' op scheduling failed: no linearly independent hyperplane was found without trying more than 4096 combinations of one half-space per statement (the exact scheduler's limit): {{.*}} try poly-schedule{intra-balance=false} (no balanced first row), run the program in its own order (poly-codegen, or gpu-map without poly-schedule), or, for a program stencil-mlsor rewrote, map it with gpu-map{strategy=mlsor}

// MAPPED: gpu.launch_func

stencil.program @textbook(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 3, M >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      // (1 - ω)·c + ω/4·(n + w + s + e), thesis Eq. (6.4)
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
