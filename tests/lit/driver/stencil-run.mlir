// stencil-run: runs a program on the reference interpreter, reports, saves fields, checks a
// transformed program against the original.
// RUN: stencil-run %s | FileCheck %s --check-prefix=TEXT
// RUN: stencil-run %s --json --param N=12 --scalar w=0.25 --init A=const:2 | FileCheck %s --check-prefix=JSON
// RUN: stencil-run %s --check --pass-pipeline='builtin.module(canonicalize,cse)' | FileCheck %s --check-prefix=CHECK-PASS
// RUN: rm -rf %t && stencil-run %s --init zeros --out %t/out && ls %t/out | FileCheck %s --check-prefix=OUT
// Saved fields load back as initial data, reproducing a run bit for bit.
// RUN: stencil-run %s --init A=%t/out/A.npy --init B=%t/out/B.npy --json | FileCheck %s --check-prefix=RELOAD

// TEXT: program  @smooth ({{.*}}stencil-run.mlir)
// TEXT-NEXT: target   ref
// TEXT-NEXT: params   T=3 N=8
// TEXT-NEXT: scalars  w=0.5
// TEXT-NEXT: time {{.*}} 36 point updates
// TEXT-NEXT: field    A [8] f64: checksum
// TEXT-NEXT: field    B [8] f64: checksum

// JSON: {"check":null,"fields":{"A":{"bits_hash":"{{[0-9a-f]+}}","checksum":{{.*}},"dtype":"f64","l2":{{.*}},"shape":[12]},"B":{{.*}}"params":{"N":12,"T":3},"pipeline":null,"point_updates":60,"program":"smooth",{{.*}}"scalars":{"w":0.25},{{.*}}"target":"ref"

// CHECK-PASS: pipeline builtin.module(canonicalize,cse)
// CHECK-PASS: check    against the untransformed program on ref (bit-exact): passed
// CHECK-PASS-NEXT: A: identical
// CHECK-PASS-NEXT: B: identical

// OUT: A.npy
// OUT-NEXT: B.npy

// RELOAD: "checksum":0.0
stencil.program @smooth(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>, %w: f64)
    params [T >= 1, N >= 3] defaults [T = 3, N = 8, w = 0.5] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1] to [N - 1] {
      %l = stencil.access %A[-1] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %r : f64
      %v = arith.mulf %s, %w : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1] to [N - 1] {
      %b = stencil.access %B[0] : f64
      stencil.yield %b : f64
    }
  }
}
