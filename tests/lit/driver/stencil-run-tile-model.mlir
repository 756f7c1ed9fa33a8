// stencil-run with model-driven tile sizes and blocks (docs/tile-models.md): the run's --param
// values are the tile model's problem sizes; the report's mapping line names the model, what it
// chose and its predicted time; the mapped program is checked bit for bit on the simulator.
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=24 --param M=20 --param T=4 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' | FileCheck %s
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=24 --param M=20 --param T=4 --target sim --json \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto model=prajapati staging=false},gpu-map{block=auto staging=false})' | FileCheck %s --check-prefix=JSON
// The block alone, for given tile sizes:
// RUN: stencil-run %S/../../../examples/sor-1d-3pt.mlir --param N=40 --param T=6 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8,16},gpu-map{block=auto})' | FileCheck %s --check-prefix=BLOCK
// The staging alone, for given tile sizes and the default block (staging=auto): the model's
// estimates of the README's 2-D Jacobi tiles of 16 at 128x128 put them on global memory (the
// simulator agrees: 32 instructions per point update instead of 116 staged, the naive kernel
// 33), and at 16384x16384 in shared memory.
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=128 --param M=128 --param T=8 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map)' | FileCheck %s --check-prefix=STAGING
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=16384 --param M=16384 --param T=50 \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map)' | FileCheck %s --check-prefix=STAGING-LARGE
// --explain-tile-sizes says the same, and explains the layout that will run (on global memory).
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=128 --param M=128 --param T=8 --explain-tile-sizes \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map)' | FileCheck %s --check-prefix=STAGING-EXPLAIN
// STAGING-EXPLAIN:      // tile sizes of @jacobi_2d_5pt:
// STAGING-EXPLAIN-NEXT: // staging=auto: the model chose these tiles on global memory ({{[0-9.]+}} ms); staged in shared memory they take {{[0-9.]+}} ms
// STAGING-EXPLAIN:      //   mapping: global memory,
// Given sizes past every row's range are one tile: the model estimates that tile. Staged, it
// needs more than 48 KiB, so gpu-map{staging=auto} maps it on global memory, and the
// explanation explains that.
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=40 --param M=36 --param T=6 --explain-tile-sizes \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=65536},gpu-map)' | FileCheck %s --check-prefix=GIVEN-CUT
// GIVEN-CUT:      // tile sizes of @jacobi_2d_5pt:
// GIVEN-CUT-NEXT: // staging=auto: staged tiles are refused ({{.*}}staged tile needs more shared memory per block than the limit{{.*}}); these tiles run on global memory
// GIVEN-CUT-NEXT: // sizes: the given 65536 are evaluated as 6x50x46: the same tiles, each size past its row's whole range cut to that range
// GIVEN-CUT:      //   mapping: global memory,
// STAGING: mapping  wavefront: tile=16 block=16x16x1 grid=per-tile staging=false shared_memory={{[0-9]+}} intra=first-hyperplane model=thesis model_chose=staging other_staging_s={{.*}} predicted_s={{.*}} problem=T=8,N=128,M=128 staging_by_model=true
// STAGING: races 0
// STAGING: passed
// STAGING-LARGE: stencil.gpu_mapping = {block = [16, 16, 1], {{.*}}model_chose = "staging", other_staging_s = {{.*}}, staging = true, staging_by_model = true, strategy = "wavefront", tile = [16]}
// Tiles the blockDim constraint leaves no block for (of 1: every block has more threads than a
// step has points): block=auto takes one warp, most of it idle, and the run is bit-exact.
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=20 --param M=20 --param T=3 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=1},gpu-map{block=auto})' --target sim --check | FileCheck %s --check-prefix=NOBLOCK
// NOBLOCK: mapping  wavefront: tile=1 block=32x1x1
// NOBLOCK: check    {{.*}}(bit-exact): passed
// Symmetric SOR: its forward and backward sweeps are two nests tiled alike inside the time loop on the
// host; the model's time is the time loop's iterations times the two nests' (docs/tile-models.md).
// RUN: stencil-run %S/../../../examples/ssor-2d-5pt.mlir --param N=30 --param M=26 --param T=3 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' | FileCheck %s --check-prefix=SSOR
// RUN: stencil-opt %S/../../../examples/ssor-2d-5pt.mlir --param N=30 --param M=26 --param T=3 --explain-tile-sizes \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto staging=false},gpu-map{block=auto staging=false})' | FileCheck %s --check-prefix=SSOR-EXPLAIN

// CHECK: mapping  wavefront: tile={{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}} block={{[0-9]+}}x{{[0-9]+}}x1 grid=per-tile staging={{true|false}} shared_memory={{[0-9]+}} intra=first-hyperplane model=thesis model_chose="sizes and block" predicted_s={{[0-9.]+}}e-{{[0-9]+}} problem=T=4,N=24,M=20
// CHECK: races 0
// CHECK: check    against the untransformed program on ref (bit-exact): passed
// JSON: "mapping":{"block":[{{[0-9]+}},{{[0-9]+}},1],"grid":"per-tile","intra":"first-hyperplane","model":"prajapati","model_chose":"sizes and block","predicted_s":{{[0-9.e-]+}},"problem":"T=4,N=24,M=20","shared_memory":{{[0-9]+}},"staging":false,"strategy":"wavefront","tile":[{{[0-9]+}},{{[0-9]+}},{{[0-9]+}}]}
// With staging=auto (the default) the model also compares the given sizes staged and on global
// memory, each with its best block, and the record keeps the other staging's estimate.
// BLOCK: mapping  wavefront: tile=8x16 block={{[0-9]+}}x1x1 grid=per-tile staging={{true|false}} shared_memory={{[0-9]+}} intra=first-hyperplane model=thesis model_chose="staging and block" other_staging_s={{.*}} predicted_s={{.*}} problem=T=6,N=40 staging_by_model=true
// BLOCK: passed
// SSOR: mapping  wavefront: tile={{[0-9]+}}x{{[0-9]+}} block={{[0-9]+}}x1x1 grid=per-tile staging={{true|false}} shared_memory={{[0-9]+}} intra={{first-hyperplane|skew}} model=thesis model_chose="sizes and block" predicted_s={{[0-9.]+}}e-{{[0-9]+}} problem=T=3,N=30,M=26
// SSOR: races 0
// SSOR: check    against the untransformed program on ref (bit-exact): passed
// With the built-in calibration's negative β for SSOR (fitted: a warp-iteration of k lanes costs
// α + k·β ≥ 0), a term of the best layout is negative, and the explanation says what that is.
// RUN: stencil-opt %S/../../../examples/ssor-2d-5pt.mlir --param N=1024 --param M=1024 --explain-tile-sizes \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE:      //   best layout's terms: {{.*}}points (β) -{{[0-9.]+}} ms
// NEGATIVE-NEXT: //   (a negative term is a fitted constant's share, not a time: with a negative β a warp-iteration of k active lanes costs α + k·β, never below 0)
// SSOR-EXPLAIN:      // tile sizes of @ssor_2d_5pt:
// SSOR-EXPLAIN:      //   mapping: global memory
// SSOR-EXPLAIN-NEXT: //   searched {{[0-9]+}} tile sizes, evaluated {{[0-9]+}} layouts
// SSOR-EXPLAIN-NEXT: //   2 nests inside host loop c1 (3 iterations): 3 host iterations in all; each nest's {{[0-9]+}} best layouts timed in every nest; no other layout can beat the choice
// SSOR-EXPLAIN-NEXT: //   rank  tile
// SSOR-EXPLAIN-NEXT: //      1  {{[0-9]+}}x{{[0-9]+}}
