// stencil-opt --explain-tile-sizes: the explanation reads gpu-map's block in gpu-map's own list
// syntax (32,8 or 32x8), and a search that leaves nothing to explain is an error located at the
// program, as poly-tile's own errors are.
//
// gpu-map{block=16x16} means block=16,16 to the explanation as to gpu-map:
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir -p 'builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=16x16})' --explain-tile-sizes > %t.x
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir -p 'builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=16,16})' --explain-tile-sizes > %t.comma
// RUN: diff %t.x %t.comma
// RUN: FileCheck %s --check-prefix=BLOCK < %t.x
// BLOCK: // tile sizes of @sor_2d_5pt:
// BLOCK: 1  8x8x8          16x16x1
//
// Tiles of 1 leave no block the blockDim constraint accepts: the model evaluates them on one
// warp (most of it idle) instead, and the explanation says so.
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --param N=16 --param M=16 --param T=4 -p 'builtin.module(poly-schedule,poly-tile{sizes=1},gpu-map{staging=false})' -o /dev/null
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --param N=16 --param M=16 --param T=4 -p 'builtin.module(poly-schedule,poly-tile{sizes=1},gpu-map{staging=false})' --explain-tile-sizes 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: {{^}}//      1  1x1x1          32x1x1
//
// gpu-map{strategy=auto} tiles SOR-like programs itself, as
// poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto} does: the explanation is that
// pipeline's, with the same tiles and block. A program auto maps otherwise (overlapped) has no
// tiles of the model's, and the explanation says what it took. A pipeline with neither
// poly-tile nor strategy=auto has no tile sizes to explain.
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --param N=1024 --param M=1024 --param T=20 -p 'builtin.module(gpu-map{strategy=auto})' --explain-tile-sizes | grep '^//' > %t.auto
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --param N=1024 --param M=1024 --param T=20 -p 'builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' --explain-tile-sizes | grep '^//' > %t.same
// RUN: diff %t.auto %t.same
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --param N=1024 --param M=1024 --param T=20 -p 'builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=AUTO-RAN
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir -p 'builtin.module(gpu-map{strategy=auto})' --explain-tile-sizes | FileCheck %s --check-prefix=AUTO-OTHER
// A program the pipeline schedules first keeps that schedule; auto tiles on it as the model says.
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=256 --param M=256 --param T=8 -p 'builtin.module(poly-schedule,gpu-map{strategy=auto})' --explain-tile-sizes | FileCheck %s --check-prefix=AUTO-SCHED
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir -p 'builtin.module(gpu-map{naive})' --explain-tile-sizes 2>&1 | FileCheck %s --check-prefix=NO-TILING
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir --explain-tile-sizes 2>&1 | FileCheck %s --check-prefix=NO-PIPELINE
// AUTO-SCHED: // tile sizes of @jacobi_2d_5pt:
// AUTO-SCHED: {{^}}//      1  2x96x96        16x64x1
// AUTO-SCHED: tile = [2, 96, 96]
// AUTO: // tile sizes of @sor_2d_5pt:
// AUTO: {{^}}//      1  48x64x8        8x64x1
// AUTO-RAN: block = [8, 64, 1]
// AUTO-RAN-SAME: tile = [48, 64, 8]
// AUTO-OTHER: // tile model: @jacobi_2d_5pt: gpu-map{strategy=auto} mapped it with overlapped (1-D/2-D DOALL: temporal blocking with overlapped tiles is the fastest measured), not with the tiles poly-tile{sizes=auto} chooses: nothing for the tile model to explain
// NO-TILING: {{^}}stencil-opt: error: --explain-tile-sizes: tile model: the pipeline has no top-level poly-tile and no gpu-map{strategy=auto}
// NO-PIPELINE: {{^}}stencil-opt: error: --explain-tile-sizes: tile model: give a --pass-pipeline with poly-schedule and poly-tile
