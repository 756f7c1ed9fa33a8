// poly-tile{sizes=auto} and gpu-map{block=auto} (docs/tile-models.md): the tile model chooses the
// sizes and the block at the program's problem sizes (declared defaults, or --param) and records
// its choice under poly.tiling's auto; --explain-tile-sizes prints the search.
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto})' | FileCheck %s
// RUN: stencil-opt %s --split-input-file --param N=256 --param T=64 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto model=prajapati staging=false})' | FileCheck %s --check-prefix=OPTS
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' | FileCheck %s --check-prefix=MAP
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' --explain-tile-sizes | FileCheck %s --check-prefix=EXPLAIN
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=32})' --explain-tile-sizes | FileCheck %s --check-prefix=GIVEN
// RUN: not stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto staging=false})' 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8 staging=false},gpu-map{block=auto staging=false})' --explain-tile-sizes | FileCheck %s --check-prefix=GIVENGLOBAL
// A problem so small that every block of a warp or more leaves a loop idle (3x3, one step): one
// warp, not an error; bit-exact.
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=3 --param M=3 --param T=1 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' --target sim --check | FileCheck %s --check-prefix=TINY
// TINY: mapping  wavefront: {{.*}}block=32x1x1
// TINY: check    {{.*}}(bit-exact): passed
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive block=auto})' 2>&1 | FileCheck %s --check-prefix=NAIVE
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-tile{sizes=auto model=oracle})' 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-tile{sizes=8 intra=model})' 2>&1 | FileCheck %s --check-prefix=INTRAMODEL
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-tile{sizes=8 intra=diagonal})' 2>&1 | FileCheck %s --check-prefix=INTRAMODEL-UNKNOWN
// The measured H200 calibration is built in by name; an unknown name is read as a file.
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto calibration=h200})' | FileCheck %s --check-prefix=H200
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto intra=model})' | FileCheck %s --check-prefix=BYMODEL
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto calibration=h300})' 2>&1 | FileCheck %s --check-prefix=NONAME
// staging=auto (the default): the model searches staged and global tiles and keeps the faster;
// gpu-map's staging=auto follows. With the measured H200 file (the default) 3-D SOR's tiles go to
// global memory, as the H200 ran them 3.6x faster; the derived H100 file predicts the opposite.
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' | FileCheck %s --check-prefix=AUTO3D
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto calibration=h100})' | FileCheck %s --check-prefix=AUTO3D-H100
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' --explain-tile-sizes | FileCheck %s --check-prefix=AUTO3D-EXPLAIN
// Where a row is cut to its range, the block is the best for the tiles that run, which the
// model's block for its longer row need not be: 3-D SOR at 512^3, T=20 (the benchmark size),
// 8x4x8x24 on 8x8x4 runs as 8x4x8x20 on 20x8x1, the layout the H200 ran fastest.
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --param N=512 --param M=512 --param L=512 --param T=20 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' --explain-tile-sizes | FileCheck %s --check-prefix=CUTBLOCK
// CUTBLOCK: // sizes: the model's 8x4x8x24 are tiled as 8x4x8x20: the same tiles
// CUTBLOCK-NEXT: // block: 20x8x1 (the best for 8x4x8x20; the model's 8x4x8x24 chose 8x8x4)
// CUTBLOCK: stencil.gpu_mapping = {block = [20, 8, 1], {{.*}}tile = [8, 4, 8, 20]}
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --param N=512 --param M=512 --param L=512 --param T=20 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto})' | FileCheck %s --check-prefix=CUTTILING
// CUTTILING: poly.tiling = {auto = {block = array<i64: 20, 8, 1>, {{.*}}model_block = array<i64: 8, 8, 4>, model_sizes = array<i64: 8, 4, 8, 24>
// The JSON explanation carries the cut too (1-D SOR at its defaults: rows 1..80 and 1..71).
// RUN: stencil-opt %S/../../../examples/sor-1d-3pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto})' --explain-tile-sizes-json=%t.cut.json > /dev/null
// RUN: FileCheck %s --check-prefix=CUTJSON < %t.cut.json
// CUTJSON:      "one_tile_cut": {
// CUTJSON-NEXT:   "model_sizes": [
// CUTJSON-NEXT:     {{[0-9]+}},
// CUTJSON-NEXT:     {{[0-9]+}}
// CUTJSON-NEXT:   ],
// CUTJSON-NEXT:   "sizes": [
// CUTJSON-NEXT:     81,
// CUTJSON-NEXT:     72
// RUN: stencil-opt %S/../../../examples/sor-1d-3pt.mlir --param N=65536 --param T=512 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto})' --explain-tile-sizes | FileCheck %s --check-prefix=CALIBRATED
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto staging=maybe})' 2>&1 | FileCheck %s --check-prefix=BADSTAGING
// The search's threads change neither the choice nor the explanation (the timing line aside):
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --param L=64 --param M=64 --param N=64 --param T=8 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto staging=false search-threads=1})' --explain-tile-sizes > %t.threads1
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --param L=64 --param M=64 --param N=64 --param T=8 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto staging=false search-threads=3})' --explain-tile-sizes > %t.threads3
// RUN: diff %t.threads1 %t.threads3
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto search-threads=-2})' 2>&1 | FileCheck %s --check-prefix=BADTHREADS
// BADTHREADS: option 'search-threads' of pass 'poly-tile': -2 threads; give 0 (the machine's) to 256
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto search-threads=100000})' 2>&1 | FileCheck %s --check-prefix=MANYTHREADS
// MANYTHREADS: option 'search-threads' of pass 'poly-tile': 100000 threads; give 0 (the machine's) to 256
// occupancy=model: every kernel asks ptxas for the blocks per SM the model planned
// (nvvm.minctasm, `.minnctapersm` in the PTX), recorded with the auto choice and the mapping;
// with explicit sizes, the block search's. The wavefront strategy needs block=auto for it.
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto occupancy=model})' | FileCheck %s --check-prefix=OCCUPANCY
// OCCUPANCY: min_blocks_per_sm = [[B:[1-9][0-9]*]] : i64
// OCCUPANCY: kernel attributes {known_block_size = array<i32: {{[0-9]+}}, {{[0-9]+}}, 1>, nvvm.minctasm = [[B]] : i32}
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map{block=auto occupancy=model})' | FileCheck %s --check-prefix=OCCUPANCY-GIVEN
// OCCUPANCY-GIVEN: nvvm.minctasm = {{[1-9][0-9]*}} : i32
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto occupancy=model})' --emit=ptx --gpu-index-bitwidth=32 | FileCheck %s --check-prefix=OCCUPANCY-PTX
// OCCUPANCY-PTX: .minnctapersm {{[1-9][0-9]*}}
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{occupancy=model})' 2>&1 | FileCheck %s --check-prefix=OCCUPANCY-NOAUTO
// OCCUPANCY-NOAUTO: option 'occupancy' of pass 'gpu-map': occupancy=model asks ptxas for the blocks per SM a model plans: the tile model's for the wavefront strategy's block=auto, the cost model's DRAM-latency residency for overlapped and streaming tiles; strategy=wavefront without block=auto has neither
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=auto occupancy=max})' 2>&1 | FileCheck %s --check-prefix=OCCUPANCY-BAD
// OCCUPANCY-BAD: option 'occupancy' of pass 'gpu-map': 'max'; give 'ptxas' or 'model'
// Explicit sizes far past the problem are one tile along every row: block=auto's model
// evaluates that tile (the sizes cut to the rows' ranges), not 100000 steps of empty ones, and
// sizes whose bounds overflow exact arithmetic are a clear error at once.
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=100000 staging=false},gpu-map{block=auto staging=false})' 2>&1 | FileCheck %s --check-prefix=HUGE-CUT
// HUGE-CUT: stencil.gpu_mapping = {block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], grid = "per-tile", intra = "first-hyperplane", model = "thesis", model_chose = "block", predicted_s = {{.*}}, problem = "T=5,N=16,M=16,L=16", {{.*}}tile = [100000]}
// RUN: not stencil-opt %S/../../../examples/sor-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=1000000000 staging=false},gpu-map{block=auto staging=false})' 2>&1 | FileCheck %s --check-prefix=HUGESTEPS
// HUGESTEPS: error: 'stencil.program' op gpu-map failed: integer overflow in affine combination
// AUTO3D: stencil.gpu_mapping = {block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], grid = "per-tile", intra = "first-hyperplane", model = "thesis", model_chose = "sizes and block", predicted_s = {{.*}}, problem = "T=5,N=16,M=16,L=16", shared_memory = {{[0-9]+}} : i64, staging = false, strategy = "wavefront"
// At the sizes its calibration runs used, no note.
// CALIBRATED:      // tile sizes of @sor_1d_3pt:
// CALIBRATED-NEXT: // staging=auto:
// CALIBRATED-NOT:  note:
// CALIBRATED:      // tile sizes by the thesis model
// AUTO3D-EXPLAIN: // tile sizes of @sor_3d_7pt:
// AUTO3D-EXPLAIN-NEXT: // staging=auto: the model chose tiles on global memory ({{[0-9.]+}} ms); the best layout staged in shared memory takes {{[0-9.]+}} ms
// The time row (t, 0..4 at T=5) in one tile, cut from the model's 6:
// AUTO3D-EXPLAIN-NEXT: // sizes: the model's {{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}x6 are tiled as {{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}x5: the same tiles
// The default H200 file fitted SOR-3D's own constants at 256^3 and 512^3 only: at the example's 16^3 the
// explanation says the predictions extrapolate, for both mappings compared.
// AUTO3D-EXPLAIN-NEXT: // note: the calibration fitted the constants of sor_3d_7pt/staged to runs at L=256,M=256,N=256,T=16; L=512,M=512,N=512,T=20 only; at L=16,M=16,N=16,T=5 its predictions extrapolate
// AUTO3D-EXPLAIN-NEXT: // note: the calibration fitted the constants of sor_3d_7pt/global to runs at L=256,M=256,N=256,T=16; L=512,M=512,N=512,T=20 only; at L=16,M=16,N=16,T=5 its predictions extrapolate
// The field (16^3 f64) stays in L2, and the H200 file has SOR-3D's global γ of loads L2 keeps.
// AUTO3D-EXPLAIN-NEXT: // fields: 32.0 KiB at these sizes, L2 60 MiB keeps 100 % of them; global-memory tiles take 100 % of the calibration's γ of loads L2 keeps
// AUTO3D-EXPLAIN-NEXT: // tile sizes by the thesis model
// AUTO3D-EXPLAIN-NEXT: //   mapping: global memory,
// How neighbouring threads of a tile move through the array: poly-schedule's (coalesced) band
// puts them 2 elements apart in a row.
// AUTO3D-EXPLAIN:      // neighbouring threads along x (one more on the last band row; tiles on global memory load so, staged ones copy their box row by row):
// AUTO3D-EXPLAIN-NEXT: //   S: iterators += (1, 0, 0, -2); A subscripts += (0, 0, -2): elements 2 apart in a row (partly coalesced)
// AUTO3D-H100: auto = {{{.*}}calibration = "h100"{{.*}}staging = true, staging_by_model = true}
// BADSTAGING: option 'staging' of pass 'poly-tile': expected auto (the tile model's choice where it can make one, else staged), true (stage tiles in shared memory) or false (global memory), got 'maybe'
// H200: poly.tiling = {auto = {block = array<i64: {{[0-9]+}}, 1, 1>, blocks_per_sm = {{[0-9]+}} : i64, calibration = "h200", model = "thesis"
// NONAME: <pass-pipeline>: error: option 'calibration' of pass 'poly-tile': calibration file h300: cannot read it: {{.*}}; or name a built-in calibration: h200, h100

// CHECK-LABEL: stencil.program @sor_1d
// At the declared defaults (T=10, N=64) the model's tiles span both rows' whole ranges
// (2t+i in 1..80, t+i in 1..71): they are recorded cut to one tile, 81x72, with the model's own
// sizes beside them (docs/tile-models.md, "One tile along a row").
// CHECK-SAME: attributes {poly.tiling = {auto = {block = array<i64: {{[0-9]+}}, 1, 1>, blocks_per_sm = {{[0-9]+}} : i64, model = "thesis", model_sizes = array<i64: {{[0-9]+}}, {{[0-9]+}}>, predicted_s = {{.*}} : f64, problem = "T=10,N=64", shared_memory = 49152 : i64, staging = true, staging_by_model = true}, inter = "wavefront", intra = "auto", order = "auto", sizes = array<i64: 81, 72>}}
// OPTS-LABEL: stencil.program @sor_1d
// OPTS-SAME: auto = {block = array<i64: {{[0-9]+}}, 1, 1>, blocks_per_sm = {{[0-9]+}} : i64, model = "prajapati", {{(model_block = array<i64: [0-9]+, 1, 1>, )?}}model_sizes = array<i64: {{[0-9]+}}, {{[0-9]+}}>, predicted_s = {{.*}}, problem = "T=64,N=256", shared_memory = 49152 : i64, staging = false}
// MAP: func.func @sor_1d
// MAP-SAME: stencil.gpu_mapping = {block = [{{[0-9]+}}, 1, 1], grid = "per-tile", intra = "first-hyperplane", model = "thesis", model_chose = "sizes and block", predicted_s = {{.*}} : f64, problem = "T=10,N=64", shared_memory = {{[1-9][0-9]*}} : i64, staging = true, strategy = "wavefront", tile = [{{[0-9]+}}, {{[0-9]+}}]}
// EXPLAIN: // tile sizes of @sor_1d:
// EXPLAIN-NEXT: // staging=auto: the model chose tiles staged in shared memory ({{[0-9.]+}} ms); no layout on global memory is predicted faster
// EXPLAIN-NEXT: // sizes: the model's {{[0-9]+}}x{{[0-9]+}} are tiled as 81x72: the same tiles, each size past its row's whole range cut to the least size of one tile, so that they run whole
// The program's one field (64 f64) against the default calibration's L2; @sor_1d has no
// constants of its own in it, so no second γ.
// EXPLAIN-NEXT: // fields: 0.5 KiB at these sizes, L2 60 MiB keeps 100 % of them; the calibration has one γ for both
// EXPLAIN-NEXT: // tile sizes by the thesis model (thesis Ch. 5: Eq. 5.7 (T_TILE), 5.8-5.11 (T_total), 5.3.4 (border tiles)) at T=10, N=64
// EXPLAIN-NEXT: //   mapping: staged in shared memory, shared memory limit 49152 bytes, {{[0-9]+}} registers per thread, reuse threshold {{.*}} (automatic)
// EXPLAIN-NEXT: //   searched {{[0-9]+}} tile sizes, evaluated {{[0-9]+}} layouts{{$}}
// EXPLAIN-NEXT: //   rank  tile           block         predicted   launches     tiles   full    steps    N_mem   B/SM   reuse
// EXPLAIN-NEXT: //      1  {{[0-9]+}}x{{[0-9]+}}
// EXPLAIN: //   best layout's terms: kernel start (σ_ker)
// EXPLAIN: //   pruned {{[0-9]+}} layouts: blockDim constraint: more threads than the largest intra-tile wavefront has points (rounded up to a warp) (first: {{.*}})
// EXPLAIN: //   pruned {{[0-9]+}} tile sizes: branch and bound: the model's lower bound for every block of the size is above the layouts kept (first: {{.*}} cannot take less than {{.*}} ms)
// EXPLAIN: // tile sizes of @jacobi_2d:
// GIVEN: // tile sizes of @sor_1d:
// GIVEN: //   searched 1 tile sizes, evaluated 1 layouts
// GIVEN-NEXT: //   rank
// GIVEN-NEXT: //      1  8x8            32x1x1
// GIVEN-NOT: //      2
// Given sizes and gpu-map{block=auto staging=false}: poly-tile searched nothing, so the block
// search is for gpu-map's own (global-memory) kernels, not refused as a mismatch.
// GIVENGLOBAL: // tile sizes of @sor_1d:
// GIVENGLOBAL: //   mapping: global memory,
// GIVENGLOBAL: //   searched 1 tile sizes
// GIVENGLOBAL: //      1  8x8            {{[0-9]+}}x1x1
// GIVENGLOBAL: stencil.gpu_mapping = {{{.*}}model = "thesis", model_chose = "block"{{.*}}staging = false, strategy = "wavefront"
// MISMATCH: error: 'stencil.program' op gpu-map{block=auto}: the tile model searched for staging=true shared-memory=49152 but gpu-map has staging=false shared-memory=49152; give poly-tile and gpu-map the same options
// NAIVE: block=auto chooses the block of the wavefront strategy's tiles
// MODEL: option 'model' of pass 'poly-tile': invalid tile-model input: unknown tile model 'oracle': choose thesis (thesis Ch. 5) or prajapati (Prajapati et al.)
// INTRAMODEL: option 'intra' of pass 'poly-tile': 'model' needs sizes=auto (the tile model compares the wavefronts)
// INTRAMODEL-UNKNOWN: option 'intra' of pass 'poly-tile': unknown intra-tile schedule 'diagonal'; expected one of: auto, first-hyperplane, skew, or model (with sizes=auto)
stencil.program @sor_1d(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] defaults [T = 10, N = 64] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      %w = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %w, %c : f64
      %s2 = arith.addf %s, %e : f64
      stencil.yield %s2 : f64
    }
  }
}

// -----

// Two statements per time step (B = f(A); A = B): time as the intra-tile wavefront runs them
// as two groups per step, which intra=auto takes; with intra=model the tile model times it
// against the skewed wavefront and keeps the faster (intra_by_model).
// CHECK-LABEL: stencil.program @jacobi_2d
// CHECK-SAME: poly.tiling = {auto = {block = array<i64: {{[0-9]+}}, {{[0-9]+}}, 1>, blocks_per_sm = {{[0-9]+}} : i64, model = "thesis"
// CHECK-SAME: sizes = array<i64: {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}>
// BYMODEL-LABEL: stencil.program @jacobi_2d
// BYMODEL-SAME: poly.tiling = {auto = {block = array<i64: {{[0-9]+}}, {{[0-9]+}}, 1>, blocks_per_sm = {{[0-9]+}} : i64, intra_by_model = true, model = "thesis"
stencil.program @jacobi_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 4, N = 24, M = 24] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s0 = arith.addf %c, %n : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %w : f64
      %s3 = arith.addf %s2, %e : f64
      stencil.yield %s3 : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
