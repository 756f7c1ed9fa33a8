// The default tiles of overlapped and streaming are sized for large problems. Given the
// problem sizes (--param), a default that leaves the device short of blocks is halved, the
// mapping says why (tile_reason), and the time tile is at most the steps the problem has;
// without --param (declared defaults do not count), and where the default already fills the
// device, the tiles stay as they were. Every run is bit-exact.
// RUN: stencil-run %S/../../../examples/jacobi-3d-7pt.mlir --param N=128 --param M=128 --param L=128 --param T=2 --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=STREAM
// RUN: stencil-opt %S/../../../examples/jacobi-3d-7pt.mlir --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=NOPARAM
// RUN: stencil-opt %S/../../../examples/jacobi-3d-7pt.mlir --param N=512 --param M=512 --param L=512 --param T=20 --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=NOPARAM
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=512 --param M=512 --param T=50 --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=OVER
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=100 --param M=90 --param T=1 --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=overlapped})' | FileCheck %s --check-prefix=ONE-STEP
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=100 --param M=90 --param T=3 --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=overlapped tile=32,64})' | FileCheck %s --check-prefix=GIVEN
// Some parameters given: the others take their declared defaults (T = 10 here).
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=256 --param M=256 --target sim --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=SOME
// A problem smaller than a tile: halving it gives no more blocks, so it stays.
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=3 --param M=3 --param T=1 --target sim --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=TINY

// STREAM: mapping  streaming: tile=8x16x32 {{.*}}tile_reason="the default 64×16×32 gives 64 blocks at the problem sizes; 8×16×32 gives 512 blocks (wanted: 528, 132 SMs x 4)"
// STREAM: check    {{.*}}(bit-exact): passed
// NOPARAM: stencil.gpu_mapping = {{{.*}}tile = [64, 16, 32]
// NOPARAM-NOT: tile_reason
// OVER: mapping  overlapped: tile=16x64 time_tile=8 {{.*}}tile_reason="the default 32×64 gives 128 blocks at the problem sizes; 16×64 gives 256 blocks (wanted: 132, 132 SMs x 1)"
// OVER: check    {{.*}}(bit-exact): passed
// ONE-STEP: mapping  overlapped: tile=8x32 time_tile=1
// ONE-STEP: check    {{.*}}(bit-exact): passed
// GIVEN: mapping  overlapped: tile=32x64 time_tile=3
// GIVEN-NOT: tile_reason
// GIVEN: check    {{.*}}(bit-exact): passed
// SOME: mapping  overlapped: tile=8x32 time_tile=8 {{.*}}tile_reason="the default 32×64 gives 32 blocks
// TINY: mapping  overlapped: tile=32x64 time_tile=1
// TINY-NOT: tile_reason
// TINY: check    {{.*}}(bit-exact): passed
