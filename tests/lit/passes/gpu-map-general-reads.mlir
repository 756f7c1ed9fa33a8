// A read of the written field through a general access (`at [0, %j]`: row 0, whatever the
// point) is DOALL when that row lies outside the written box for every parameter value: the
// polyhedral dependence analysis decides it where constant offsets cannot. naive and auto map
// it, bit-exact (before, both refused it as DOACROSS and auto fell back to wavefront tiles).
// A box that includes row 0 makes the read see the sweep's own writes: refused, with the note
// at the read.
// RUN: stencil-run %s --param N=20 --param M=24 --param T=4 --target sim --check --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=NAIVE
// RUN: stencil-run %s --param N=7 --param M=40 --param T=3 --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=AUTO
// A field no apply writes, read only through general indices (a time-dependent source src[t],
// a coefficient w[2]), stays in global memory under overlapped and streaming tiles: they map
// such programs (PolyBench fdtd-2d's _fict_[t] among them), bit-exact. The reference
// interpreter runs the 3-D one too (it panicked on a 1-D field read in a 3-D apply).
// RUN: stencil-run %S/Inputs/general-read-only.mlir --entry source_3d | FileCheck %s --check-prefix=REF
// RUN: stencil-run %S/Inputs/general-read-only.mlir --entry source_3d --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=SRC-AUTO
// RUN: stencil-run %S/Inputs/general-read-only.mlir --entry source_3d --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=overlapped})' | FileCheck %s --check-prefix=SRC-OVER
// RUN: stencil-run %S/Inputs/general-read-only.mlir --entry coefficient_2d --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=COEF-AUTO
// RUN: stencil-run %S/Inputs/general-read-only.mlir --entry coefficient_2d --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=streaming})' | FileCheck %s --check-prefix=COEF-STREAM
// RUN: stencil-run %S/Inputs/general-read-only.mlir --entry table_2d --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=TABLE
// RUN: stencil-run %S/../../../examples/polybench-fdtd-2d.mlir --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=FDTD
// RUN: sed 's/over \[1, 0\] to \[N, M\]/over [0, 0] to [N, M]/' %s > %t.inside.mlir
// RUN: not stencil-opt %t.inside.mlir --pass-pipeline='builtin.module(gpu-map{naive})' 2>&1 | FileCheck %s --check-prefix=INSIDE

// REF: field    B [11x11x11] f64
// SRC-AUTO: mapping  streaming:
// SRC-AUTO: check    {{.*}}(bit-exact): passed
// SRC-OVER: mapping  overlapped:
// SRC-OVER: check    {{.*}}(bit-exact): passed
// COEF-AUTO: mapping  overlapped:
// COEF-AUTO: check    {{.*}}(bit-exact): passed
// COEF-STREAM: mapping  streaming:
// COEF-STREAM: check    {{.*}}(bit-exact): passed
// TABLE: mapping  overlapped: {{.*}}auto="1-D/2-D DOALL
// TABLE: check    {{.*}}(bit-exact): passed
// FDTD: mapping  overlapped:
// FDTD: check    {{.*}}(bit-exact): passed
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
