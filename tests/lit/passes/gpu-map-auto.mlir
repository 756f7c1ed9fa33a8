// gpu-map{strategy=auto} (docs/passes.md): the strategy the GPU measurements favour — overlapped
// temporal blocking for a 1-D/2-D DOALL program; in 3-D streaming with prefetch and
// occupancy=model (the kernel asks ptxas for the 4 blocks of 256 threads per SM that hide DRAM
// latency), whether a step's applies fuse without recomputed halos (Jacobi's stencil + copy-back)
// or with the one measured (heat-3d's two stencils one point apart, run bit-exact here; a wider
// halo stays naive); wavefront for a scheduled or tiled program — recorded with the
// reason in stencil.gpu_mapping. An SOR-like program that is not tiled is scheduled and tiled
// as poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto} would (the tile model's tiles and
// block, here on global memory), and runs bit-exact on the simulator; where nothing fits
// (16 bytes of staged shared memory) the error gives every strategy's reason.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{strategy=auto})' | FileCheck %s --check-prefix=TILED
// Scheduled but untiled, Jacobi's schedule (space skewed by time) has no parallel loop: auto
// tiles it on that schedule, as poly-tile{sizes=auto} would, and it runs bit-exact.
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=24 --param M=24 --param T=4 --pass-pipeline='builtin.module(poly-schedule,gpu-map{strategy=auto})' --target sim --check | FileCheck %s --check-prefix=SCHEDULED
// RUN: stencil-opt %S/../../../examples/jacobi-3d-7pt.mlir --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=THREE
// RUN: stencil-run %S/../../../examples/polybench-heat-3d.mlir --param N=12 --param T=3 --pass-pipeline='builtin.module(gpu-map{strategy=auto})' --target sim --check | FileCheck %s --check-prefix=HEAT
// RUN: stencil-run %S/Inputs/auto-unbalanced.mlir --param T=2 --param N=7 --pass-pipeline='builtin.module(gpu-map{strategy=auto})' --target sim --check | FileCheck %s --check-prefix=UNBALANCED
// RUN: not stencil-opt %S/Inputs/auto-unbalanced.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=2},gpu-map)' 2>&1 | FileCheck %s --check-prefix=SEQUENTIAL
// RUN: stencil-run %S/Inputs/auto-unbalanced.mlir --param T=2 --param N=7 --pass-pipeline='builtin.module(poly-schedule{intra-balance=false},poly-tile{sizes=2},gpu-map)' --target sim --check | FileCheck %s --check-prefix=UNBALANCED-BY-HAND
// RUN: stencil-run %S/Inputs/two-stencils-3d.mlir --param T=5 --pass-pipeline='builtin.module(gpu-map{strategy=auto})' --target sim --check | FileCheck %s --check-prefix=TWO
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=SOR
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(gpu-map{strategy=auto})' --target sim --check | FileCheck %s --check-prefix=SORSIM
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(gpu-map{strategy=auto staging=true shared-memory=16})' 2>&1 | FileCheck %s --check-prefix=SOR-NONE
// CHECK: stencil.gpu_mapping = {auto = "1-D/2-D DOALL: temporal blocking with overlapped tiles is the fastest measured", {{.*}}strategy = "overlapped"
// SCHEDULED: mapping  wavefront: tile={{[0-9x]+}} {{.*}}auto="scheduled, and its schedule untiled has no parallel loop: tiled on it as poly-tile{sizes=auto} would, block=auto"
// SCHEDULED: check    against the untransformed program on ref (bit-exact): passed
// TILED: stencil.gpu_mapping = {auto = "the program is scheduled or tiled (poly-schedule, poly-tile)", {{.*}}strategy = "wavefront"
// THREE: stencil.gpu_mapping = {auto = "3-D DOALL whose applies fuse without recomputed halos: streaming with prefetch is the fastest measured", {{.*}}min_blocks_per_sm = 4 : i64, prefetch = true, {{.*}}strategy = "streaming"
// THREE: gpu.func @jacobi_3d_7pt_k0({{.*}} kernel attributes {known_block_size = array<i32: 32, 4, 2>, nvvm.minctasm = 4 : i32}
// HEAT: mapping  streaming: {{.*}}auto="3-D DOALL of two applies, the second reading the first one point around: streaming with prefetch (the first recomputed on a halo) is the fastest measured"
// A wider halo than the one measured keeps the naive kernel:
// RUN: stencil-run %S/Inputs/auto-wide-halo-3d.mlir --pass-pipeline='builtin.module(gpu-map{strategy=auto})' --target sim --check | FileCheck %s --check-prefix=WIDE
// WIDE: mapping  naive: {{.*}}auto="3-D DOALL whose applies would recompute a halo of a shape not measured: the naive kernel"
// WIDE: check    {{.*}}(bit-exact): passed
// HEAT: check    {{.*}}(bit-exact): passed
// UNBALANCED: mapping  wavefront: {{.*}}auto="no DOALL strategy maps it and no balanced schedule tiles it: scheduled and tiled as poly-schedule{intra-balance=false},poly-tile{sizes=auto} would, block=auto"
// UNBALANCED: check    {{.*}}(bit-exact): passed
// SEQUENTIAL: error: {{.*}}statement S0 would run inside sequential host loops (no parallel loop or tile around it): {{.*}}try poly-schedule{intra-balance=false}, or gpu-map{strategy=auto}, which does
// UNBALANCED-BY-HAND: check    {{.*}}(bit-exact): passed
// TWO: mapping  streaming: {{.*}}auto="3-D DOALL whose applies fuse without recomputed halos
// TWO: check    {{.*}}(bit-exact): passed
// SOR: stencil.gpu_mapping = {auto = "no DOALL strategy maps it (e.g. SOR-like applies): scheduled and tiled as poly-schedule,poly-tile{sizes=auto} would, block=auto", block = [10, 24, 1], {{.*}}model = "thesis", model_chose = "sizes and block", {{.*}}staging = false, strategy = "wavefront", tile = [48, 48, 10]}
// SORSIM: mapping  wavefront: tile=48x48x10 block=10x24x1
// SORSIM: check    against the untransformed program on ref (bit-exact): passed
// SOR-NONE: error: 'stencil.program' op gpu-map{strategy=auto} failed: no strategy maps it: overlapped: {{.*}}DOACROSS{{.*}}; naive: {{.*}}; wavefront (the tile model's tiles): model-driven tile sizes: no tile layout survives the search{{.*}}; wavefront (fixed tiles): shared-memory staging needs {{.*}} above the limit of 16 bytes
stencil.program @jacobi(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, N - 1] {
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %a = arith.addf %n, %s : f64
      %b = arith.addf %a, %e : f64
      stencil.yield %b : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %B[0, 0] : f64
      stencil.yield %c : f64
    }
  }
}
