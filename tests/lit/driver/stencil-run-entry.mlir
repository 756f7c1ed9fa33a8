// With several programs in one module, --entry chooses the program, and everything the report
// says of it — the mapping gpu-map recorded, an SOR iteration's sweeps per step — is the
// entry's own, not the first program's.
// RUN: stencil-run %s --entry sor --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=SOR
// RUN: stencil-run %s --entry jacobi --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=JACOBI
// RUN: stencil-run %s --entry sor --converge 1e-3 --relative | FileCheck %s --check-prefix=SWEEPS

// SOR: mapping  wavefront:
// SOR: check    {{.*}}bit-exact{{.*}}passed
// JACOBI: mapping  overlapped:
// JACOBI: check    {{.*}}bit-exact{{.*}}passed
// SWEEPS: converged after [[STEPS:[0-9]+]] steps = [[STEPS]] sweeps (1 per step)

stencil.program @jacobi(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] defaults [T = 4, N = 40] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1] to [N - 1] {
      %l = stencil.access %A[-1] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %r : f64
      stencil.yield %s : f64
    }
    stencil.apply @S1 writes %A over [1] to [N - 1] {
      %b = stencil.access %B[0] : f64
      stencil.yield %b : f64
    }
  }
}

stencil.program @sor(%U: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 3, M >= 3] defaults [T = 4, N = 18, M = 18, omega = 1.5] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %U over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %U[0, 0] : f64
      %n = stencil.access %U[-1, 0] : f64
      %s = stencil.access %U[1, 0] : f64
      %w = stencil.access %U[0, -1] : f64
      %e = stencil.access %U[0, 1] : f64
      %a = arith.addf %n, %s : f64
      %b = arith.addf %w, %e : f64
      %sum = arith.addf %a, %b : f64
      %quarter = arith.constant 0.25 : f64
      %avg = arith.mulf %sum, %quarter : f64
      %d = arith.subf %avg, %c : f64
      %r = arith.mulf %omega, %d : f64
      %v = arith.addf %c, %r : f64
      stencil.yield %v : f64
    }
  }
}
