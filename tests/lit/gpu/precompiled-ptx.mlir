// Precompiled PTX end to end: the MLIR build writes the kernels' PTX (`--emit=ptx`), the
// MLIR-free stencil-run (built with --no-default-features; docs/gpu.md) maps the same program
// with the same pipeline, matches the file's fingerprints and runs on the simulator, checked
// bit-exactly against the reference interpreter. Stale PTX (another pipeline) is refused, and
// without --ptx that build says it cannot compile kernels.
//
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=4,4})' --emit=ptx -o %t.ptx
// RUN: %stencil-run-mlir-free %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=4,4})' --ptx %t.ptx --target sim --check | FileCheck %s
// CHECK:      ptx      {{.*}}.ptx matches @sor_kernels (sm_90, index 64 bit, sha256:{{[0-9a-f]+}})
// CHECK:      check    against the untransformed program on ref (bit-exact): passed
//
// RUN: not %stencil-run-mlir-free %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=4,4})' --ptx %t.ptx --target sim 2>&1 | FileCheck %s --check-prefix=STALE
// STALE: error: {{.*}}.ptx: the PTX of gpu.module @sor_kernels was compiled from different kernels than this run maps
//
// gpu-map's default staging=auto asks the tile model, and without --param the model reads the
// program's declared default sizes: a warning says the PTX holds a choice made for them. With
// --param, or with the staging fixed, there is none.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=4,4})' --emit=ptx -o %t.defaults.ptx 2>&1 | FileCheck %s --check-prefix=DEFAULTS
// DEFAULTS: precompiled-ptx.mlir:{{[0-9]+}}:1: warning: the tile model chose the staging of this GPU mapping for the program's declared default sizes (T=3,N=13,M=11): no --param was given; give the sizes the PTX will run at with --param
// RUN: stencil-opt %s --param N=13 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=4,4})' --emit=ptx -o %t.given.ptx 2>&1 | FileCheck %s --allow-empty --check-prefix=NOWARN
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=4,4 staging=true})' --emit=ptx -o %t.fixed.ptx 2>&1 | FileCheck %s --allow-empty --check-prefix=NOWARN
// NOWARN-NOT: warning
//
// RUN: not %stencil-run-mlir-free %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=4,4})' --target gpu 2>&1 | FileCheck %s --check-prefix=NOMLIR
// NOMLIR: error: this stencil-run was built without MLIR (no `mlir` cargo feature), so it cannot compile kernels: give their PTX with --ptx FILE
//
// --short-pointers, --loop-strength-reduction and --disable-lsr configure the LLVM that compiles
// kernels: there is none to configure (their defaults are fine, as the runs above show).
// RUN: not %stencil-run-mlir-free %s --loop-strength-reduction 2>&1 | FileCheck %s --check-prefix=LSR
// LSR: stencil-run: error: --loop-strength-reduction: this build has no MLIR (no LLVM to configure)
// RUN: not %stencil-run-mlir-free %s --disable-lsr 2>&1 | FileCheck %s --check-prefix=NOLSR
// NOLSR: stencil-run: error: --disable-lsr: this build has no MLIR (no LLVM to configure)
// RUN: not %stencil-run-mlir-free %s --short-pointers=false 2>&1 | FileCheck %s --check-prefix=NOSHORT
// NOSHORT: stencil-run: error: --short-pointers: this build has no MLIR (no LLVM to configure)
//
// The MLIR-free binary links no LLVM or MLIR library.
// RUN: ldd %stencil-run-mlir-free | FileCheck %s --check-prefix=LDD --implicit-check-not=LLVM --implicit-check-not=MLIR
// LDD: libc.so

stencil.program @sor(%A: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] defaults [T = 3, N = 13, M = 11] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s0 = arith.addf %c, %n : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %w : f64
      %s3 = arith.addf %s2, %e : f64
      %five = arith.constant 5.0 : f64
      %v = arith.divf %s3, %five : f64
      stencil.yield %v : f64
    }
  }
}
