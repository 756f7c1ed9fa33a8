// Boundary conditions that copy an inner row into a ghost row write a box of one row and read
// the field they write one row away: outside their own box, so every point is independent
// (DOALL). naive, overlapped, streaming and auto map them, bit-exact; a read that can land in
// the apply's own box (SOR) is still refused.
// RUN: stencil-run %s --param N=20 --param M=24 --param T=5 --target sim --check --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=NAIVE
// RUN: stencil-run %s --param N=21 --param M=19 --param T=7 --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=overlapped})' | FileCheck %s --check-prefix=OVERLAPPED
// RUN: stencil-run %s --param N=37 --param M=9 --param T=3 --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=8,16 time-tile=2})' | FileCheck %s --check-prefix=STREAMING
// RUN: stencil-run %s --param N=20 --param M=24 --param T=5 --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=AUTO
// RUN: sed 's/%A\[1, 0\] : f64  \/\/ row 1/%A[0, 1] : f64/' %s > %t.inside.mlir
// RUN: not stencil-opt %t.inside.mlir --pass-pipeline='builtin.module(gpu-map{naive})' 2>&1 | FileCheck %s --check-prefix=INSIDE

// NAIVE: mapping  naive:
// NAIVE: check    {{.*}}(bit-exact): passed
// OVERLAPPED: mapping  overlapped:
// OVERLAPPED: check    {{.*}}(bit-exact): passed
// STREAMING: mapping  streaming:
// STREAMING: check    {{.*}}(bit-exact): passed
// AUTO: mapping  overlapped:
// AUTO: check    {{.*}}(bit-exact): passed
// INSIDE: error: {{.*}}gpu-map{naive} maps DOALL applies only, and BCtop reads elements of the field it writes that other points of the same sweep write

stencil.program @neumann(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 4, M >= 4] defaults [T = 4, N = 22, M = 26] {
  stencil.iterate %t = 0 to T {
    stencil.apply @BCtop writes %A over [0, 1] to [1, M - 1] {
      %a = stencil.access %A[1, 0] : f64  // row 1
      stencil.yield %a : f64
    }
    stencil.apply @BCbot writes %A over [N - 1, 1] to [N, M - 1] {
      %a = stencil.access %A[-1, 0] : f64
      stencil.yield %a : f64
    }
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %a0 = arith.addf %n, %s : f64
      %a1 = arith.addf %w, %e : f64
      %a2 = arith.addf %a0, %a1 : f64
      %a3 = arith.addf %a2, %c : f64
      %k = arith.constant 0.2 : f64
      %v = arith.mulf %a3, %k : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
