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
// A pipeline without poly-tile has no tile sizes to explain; gpu-map{strategy=auto}, which tiles
// SOR-like programs itself, is pointed to the pipeline that does the same.
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir -p 'builtin.module(gpu-map{strategy=auto})' --explain-tile-sizes 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO: error: tile model: the pipeline has no top-level poly-tile: the tile model explains poly-tile's sizes (gpu-map{strategy=auto} tiles an SOR-like program as 'builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' does: explain that pipeline)
