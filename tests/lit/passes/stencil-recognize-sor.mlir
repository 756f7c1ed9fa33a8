// stencil-recognize-sor: an SOR update recognised with an e-graph however it is written, ω and
// the stencil recorded as sor.update; every refusal says why (stencil-recognize-sor-invalid.mlir).
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(stencil-recognize-sor)' | FileCheck %s
// The output parses again and recognises again.
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(stencil-recognize-sor)' | stencil-opt --split-input-file --pass-pipeline='builtin.module(stencil-recognize-sor)' | FileCheck %s

// CHECK-LABEL: stencil.program @textbook
// CHECK: stencil.apply @S {{.*}} attributes {sor.update = {omega = "omega", points = 5 : i64}}
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

// -----

// CHECK-LABEL: stencil.program @correction
// CHECK: stencil.apply @S {{.*}} attributes {sor.update = {omega = "omega", points = 5 : i64}}
stencil.program @correction(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 3, M >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      // c + ω·(Σ/4 − c): a divide by 4, the correction form
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

// -----

// CHECK-LABEL: stencil.program @reordered
// CHECK: stencil.apply @S {{.*}} attributes {sor.update = {omega = "omega", points = 5 : i64}}
stencil.program @reordered(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 3, M >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      // Σ·ω/4 + c·(1 − ω), operands in another order and ω divided last
      %one = arith.constant 1.0 : f64
      %four = arith.constant 4.0 : f64
      %s0 = arith.addf %s, %n : f64
      %s1 = arith.addf %e, %s0 : f64
      %s2 = arith.addf %s1, %w : f64
      %p = arith.mulf %s2, %omega : f64
      %q = arith.divf %p, %four : f64
      %keep = arith.subf %one, %omega : f64
      %old = arith.mulf %c, %keep : f64
      %v = arith.addf %q, %old : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// CHECK-LABEL: stencil.program @constant_omega
// CHECK: stencil.apply @S {{.*}} attributes {sor.update = {omega = 1.500000e+00 : f64, points = 5 : i64}}
stencil.program @constant_omega(%A: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      // ω = 1.5 folded into the weights: −0.5·c + 0.375·Σ
      %a = arith.constant -5.000000e-01 : f64
      %b = arith.constant 3.750000e-01 : f64
      %old = arith.mulf %a, %c : f64
      %s0 = arith.addf %n, %s : f64
      %s1 = arith.addf %w, %e : f64
      %s2 = arith.addf %s0, %s1 : f64
      %new = arith.mulf %b, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// CHECK-LABEL: stencil.program @negated_fma
// CHECK: stencil.apply @S {{.*}} attributes {sor.update = {omega = "omega", points = 5 : i64}}
stencil.program @negated_fma(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 3, M >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      // c − ω·c + fma(ω·0.25, Σ, 0) with a negation: c + (−ω)·c + …
      %quarter = arith.constant 0.25 : f64
      %zero = arith.constant 0.0 : f64
      %m = arith.negf %omega : f64
      %mc = arith.mulf %m, %c : f64
      %old = arith.addf %c, %mc : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s, %e : f64
      %s2 = arith.addf %s1, %s0 : f64
      %relax = arith.mulf %quarter, %omega : f64
      %new = math.fma %relax, %s2, %zero : f64
      %v = arith.addf %new, %old : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// CHECK-LABEL: stencil.program @gauss_seidel
// CHECK: stencil.apply @S {{.*}} attributes {sor.update = {omega = 1.000000e+00 : f64, points = 5 : i64}}
stencil.program @gauss_seidel(%A: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      // ω = 1 (Gauss-Seidel proper): Σ/4 and no centre term
      %four = arith.constant 4.0 : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s, %e : f64
      %s2 = arith.addf %s0, %s1 : f64
      %v = arith.divf %s2, %four : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// CHECK-LABEL: stencil.program @seven_point
// CHECK: stencil.apply @S {{.*}} attributes {sor.update = {omega = "w", points = 7 : i64}}
stencil.program @seven_point(%A: !stencil.field<[N, N, N] x f32>, %w: f32) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1, 1] to [N - 1, N - 1, N - 1] {
      // (1 − ω)·c + ω/6·Σ over the six neighbours, in f32
      %c = stencil.access %A[0, 0, 0] : f32
      %a = stencil.access %A[-1, 0, 0] : f32
      %b = stencil.access %A[1, 0, 0] : f32
      %d = stencil.access %A[0, -1, 0] : f32
      %e = stencil.access %A[0, 1, 0] : f32
      %f = stencil.access %A[0, 0, -1] : f32
      %g = stencil.access %A[0, 0, 1] : f32
      %six = arith.constant 6.0 : f32
      %one = arith.constant 1.0 : f32
      %s0 = arith.addf %a, %b : f32
      %s1 = arith.addf %d, %e : f32
      %s2 = arith.addf %f, %g : f32
      %s3 = arith.addf %s0, %s1 : f32
      %s4 = arith.addf %s3, %s2 : f32
      %k = arith.divf %w, %six : f32
      %new = arith.mulf %s4, %k : f32
      %keep = arith.subf %one, %w : f32
      %old = arith.mulf %keep, %c : f32
      %v = arith.addf %new, %old : f32
      stencil.yield %v : f32
    }
  }
}
