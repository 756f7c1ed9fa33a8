// stencil-recognize-sor's rule set and e-graph limits are options; a proof they cut short is a
// refusal that names the limit.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(stencil-recognize-sor)' | FileCheck %s --check-prefix=DEFAULT
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(stencil-recognize-sor{rules=ac})' 2>&1 | FileCheck %s --check-prefix=AC
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(stencil-recognize-sor{node-limit=200})' 2>&1 | FileCheck %s --check-prefix=NODES
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(stencil-recognize-sor{iter-limit=2})' 2>&1 | FileCheck %s --check-prefix=ITERS
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(stencil-recognize-sor{rules=ring})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(stencil-recognize-sor{iter-limit=0})' 2>&1 | FileCheck %s --check-prefix=ZERO

// DEFAULT: sor.update = {omega = "omega", points = 5 : i64}
// AC: error: 'stencil.apply' op is not an SOR update: could not be proved equal to (1 - ω)·c + ω/4·Σ neighbours with ω = %omega using rules=ac: the e-graph saturated without meeting it (rules=algebra also knows subtraction, division and distributivity)
// NODES: error: 'stencil.apply' op is not an SOR update: could not be proved {{.*}} using rules=algebra: the e-node limit stopped the e-graph (raise node-limit)
// ITERS: error: 'stencil.apply' op is not an SOR update: could not be proved {{.*}} using rules=algebra: the iteration limit stopped the e-graph (raise iter-limit) after 2 iterations
// BAD: option 'rules' of pass 'stencil-recognize-sor': unknown rule set 'ring'; expected one of: ac, algebra
// ZERO: option 'iter-limit' of pass 'stencil-recognize-sor' must be at least 1

// c + ω·(Σ/4 − c): needs division as a reciprocal and distributivity.
stencil.program @correction(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 3, M >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %four = arith.constant 4.0 : f64
      %s0 = arith.addf %e, %s : f64
      %s1 = arith.addf %w, %n : f64
      %s2 = arith.addf %s0, %s1 : f64
      %avg = arith.divf %s2, %four : f64
      %d = arith.subf %avg, %c : f64
      %r = arith.mulf %omega, %d : f64
      %v = arith.addf %c, %r : f64
      stencil.yield %v : f64
    }
  }
}
