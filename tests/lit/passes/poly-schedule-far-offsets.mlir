// Accesses far from the point need shifts and skews above the scheduler's default coefficient
// bound (16): the bound grows with the farthest offset times the statements, so the copy-back
// of a Jacobi reading 17 points away gets the shift 17 and the band stays tileable. Before, the
// only legal row left was the scaling (t, 2*i), which no code generator takes.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-verify-schedule)' --test-print-schedule | FileCheck %s
// RUN: stencil-run %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map)' --target sim --check | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: // schedule of @jac17:
// CHECK-NEXT: // S0: (t, 34*t + i, 0)
// CHECK-NEXT: // S1: (t, 34*t + i + 17, 1)
// EXEC: check {{.*}}: passed
stencil.program @jac17(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>)
    params [T >= 1, N >= 35] defaults [T = 4, N = 80] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [17] to [N - 17] {
      %w = stencil.access %A[-17] : f64
      %e = stencil.access %A[17] : f64
      %s = arith.addf %w, %e : f64
      %h = arith.constant 0.5 : f64
      %v = arith.mulf %s, %h : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [17] to [N - 17] {
      %b = stencil.access %B[0] : f64
      stencil.yield %b : f64
    }
  }
}
