// A read of the written field through a general access (`at [0, %j]`: row 0, whatever the
// point) is DOALL when that row lies outside the written box for every parameter value: the
// polyhedral dependence analysis decides it where constant offsets cannot. naive and auto map
// it, bit-exact (before, both refused it as DOACROSS and auto fell back to wavefront tiles).
// A box that includes row 0 makes the read see the sweep's own writes: refused, with the note
// at the read.
// RUN: stencil-run %s --param N=20 --param M=24 --param T=4 --target sim --check --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=NAIVE
// RUN: stencil-run %s --param N=7 --param M=40 --param T=3 --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=AUTO
// RUN: sed 's/over \[1, 0\] to \[N, M\]/over [0, 0] to [N, M]/' %s > %t.inside.mlir
// RUN: not stencil-opt %t.inside.mlir --pass-pipeline='builtin.module(gpu-map{naive})' 2>&1 | FileCheck %s --check-prefix=INSIDE

// NAIVE: mapping  naive:
// NAIVE: check    {{.*}}(bit-exact): passed
// AUTO: mapping  naive:
// AUTO: check    {{.*}}(bit-exact): passed
// INSIDE: error: {{.*}}gpu-map{naive} maps DOALL applies only, and S0 reads elements of the field it writes that other points of the same sweep write
// INSIDE: inside.mlir:[[# @LINE + 7]]:14: note: S0 reads the field it writes here

stencil.program @row_broadcast(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 4, N = 20, M = 24] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [1, 0] to [N, M] {
      %j = stencil.index 1
      %top = stencil.access %A at [0, %j] : f64
      %c = stencil.access %A[0, 0] : f64
      %b = stencil.access %B[0, 0] : f64
      %h = arith.constant 0.5 : f64
      %x = arith.mulf %top, %h : f64
      %y = arith.addf %c, %x : f64
      %z = arith.addf %y, %b : f64
      stencil.yield %z : f64
    }
  }
}
