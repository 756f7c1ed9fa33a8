// stencil-opt --dump-tiling=FILE.svg draws the tiling of the first stencil.program after the
// pipeline (docs/passes.md): the points of a 2-D slice in original coordinates, the tile
// outlines, each tile's inter-tile wavefront number and the dependences.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4})' --dump-tiling=%t.svg --dump-tiling-params=T=6,N=14 -o /dev/null
// RUN: FileCheck %s --input-file=%t.svg
// Without a tiling the picture shows the points and dependences alone.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule)' --dump-tiling=%t.untiled.svg -o /dev/null
// RUN: FileCheck %s --input-file=%t.untiled.svg --check-prefix=UNTILED
// Errors: an unknown parameter, a missing value, after lowering, an unknown statement.
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4})' --dump-tiling=%t.bad.svg --dump-tiling-params=K=3 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-codegen)' --dump-tiling=%t.bad.svg 2>&1 | FileCheck %s --check-prefix=LOWERED
// RUN: not stencil-opt %s --dump-tiling=%t.bad.svg --dump-tiling-statement=S9 2>&1 | FileCheck %s --check-prefix=STMT
// RUN: not stencil-opt %s --dump-tiling=%t.bad.svg --dump-tiling-params=T=x 2>&1 | FileCheck %s --check-prefix=SYNTAX

// CHECK:      <svg xmlns="http://www.w3.org/2000/svg"
// CHECK-NEXT: <title>Tiling of S0 over (t, i)</title>
// CHECK:      <g id="tiles">
// CHECK:      <g id="outlines"
// CHECK:      <g id="points">
// CHECK:      <circle {{.*}}<title>(t = 0, i = 0): intra-tile wavefront step 0</title></circle>
// CHECK:      <g id="wavefronts"
// CHECK:      <g id="dependences"
// CHECK:      S0: 12 tiles
// CHECK:      flow (1, 0)
// CHECK:      anti (0, 1)
// UNTILED:    S0: not tiled
// PARAM:      error: 'stencil.program' op --dump-tiling: the program has no parameter 'K' (parameters: T, N)
// LOWERED:    error: --dump-tiling needs a stencil.program after the pipeline (draw before poly-codegen lowers it)
// STMT:       error: 'stencil.program' op --dump-tiling: no statement 'S9' (statements: S0)
// SYNTAX:     'x' is not an integer (in 'T=x')
stencil.program @fig_3_4(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] defaults [T = 6, N = 14] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %c, %e : f64
      stencil.yield %s : f64
    }
  }
}
