// poly-tile (docs/passes.md): proves the tiling of the first permutable band legal and
// records it as poly.tiling on the program; poly-codegen realises it.
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8,4})' | FileCheck %s
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8,4 inter=rectangular intra=skew order=innermost})' | FileCheck %s --check-prefix=OPTS
// Errors in the options are reported before any input is read.
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-tile)' 2>&1 | FileCheck %s --check-prefix=NOSIZES
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-tile{sizes=4,0})' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-tile{sizes=4 inter=diagonal})' 2>&1 | FileCheck %s --check-prefix=INTER
// NOSIZES: pass 'poly-tile' needs tile sizes: poly-tile{sizes=32,32}, or poly-tile{sizes=auto} for model-driven sizes
// ZERO: option 'sizes' of pass 'poly-tile': tile size 0; sizes must be at least 1
// INTER: option 'inter' of pass 'poly-tile': unknown inter-tile schedule 'diagonal'; expected one of: wavefront, rectangular

// CHECK-LABEL: stencil.program @fig_3_4
// CHECK-SAME:  attributes {poly.tiling = {inter = "wavefront", intra = "auto", order = "auto", sizes = array<i64: 8, 4>}}
// OPTS-LABEL: stencil.program @fig_3_4
// OPTS-SAME:  attributes {poly.tiling = {inter = "rectangular", intra = "skew", order = "innermost", sizes = array<i64: 8, 4>}}
stencil.program @fig_3_4(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %c, %e : f64
      stencil.yield %s : f64
    }
  }
}
