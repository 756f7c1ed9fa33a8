// gpu-map's shared-memory staging rejects what does not fit, located at the program: a tile
// footprint larger than the shared-memory limit (a tile of 8 of this 2-D Jacobi, skewed in i by
// time, touches 24×8 elements of A and 23×8 of B, 3008 bytes, plus a byte mask per footprint
// base for the exact membership tests: 3776 bytes; with the four words in which the first warp
// sets the tile up for the block, each buffer counted at 16-byte alignment, 3824), naming the
// buffers, under staging=true. The default, staging=auto, maps such tiles on global memory and
// records the reason (AUTO).
// RUN: stencil-opt %s --verify-diagnostics --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{shared-memory=2048 staging=true})'
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{shared-memory=2048})' | FileCheck %s --check-prefixes=AUTO,GLOBAL
// AUTO: stencil.gpu_mapping = {{{.*}}staging = false, staging_refused = "shared-memory staging needs 3824 bytes per block {{.*}} above the limit of 2048 bytes; {{.*}}", strategy = "wavefront"
// Below the first buffer's size the error still sums every buffer of the kernel (3824 bytes: each at 16-byte alignment, not
// the 1536 found before the limit was passed), so one raise of the limit is enough.
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{shared-memory=1024 staging=true})' 2>&1 | FileCheck %s --check-prefix=TOTAL
// TOTAL: needs 3824 bytes per block (tile set-up: 4 × i64 = 32 bytes, A: 24×8 × f64 = 1536 bytes, A mask: 26×8 × i8 = 208 bytes, A mask: 24×8 × i8 = 192 bytes, B: 23×8 × f64 = 1472 bytes, B mask: 23×8 × i8 = 184 bytes, B mask: 23×8 × i8 = 184 bytes; each buffer at 16-byte alignment), above the limit of 1024 bytes
// Raising the limit, or staging off, maps it.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{shared-memory=3824})' | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{shared-memory=2048 staging=false})' | FileCheck %s --check-prefix=GLOBAL
// CHECK: workgroup(%{{.*}} : memref<24x8xf64, #gpu.address_space<workgroup>>, %{{.*}} : memref<26x8xi8, #gpu.address_space<workgroup>>, %{{.*}} : memref<24x8xi8, #gpu.address_space<workgroup>>, %{{.*}} : memref<23x8xf64, #gpu.address_space<workgroup>>, %{{.*}} : memref<23x8xi8, #gpu.address_space<workgroup>>, %{{.*}} : memref<23x8xi8, #gpu.address_space<workgroup>>) kernel
// Staging off, no buffer but the tile set-up's four words.
// GLOBAL: workgroup(%{{.*}} : memref<4xi64, #gpu.address_space<workgroup>>) kernel
// Where those words alone pass the limit, every warp sets its tile up itself and the kernel keeps
// only the staging buffers (3792 bytes), or none on global memory.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{shared-memory=3800})' | FileCheck %s --check-prefix=WORDLESS
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{shared-memory=0 staging=false})' | FileCheck %s --check-prefix=NONE
// WORDLESS: workgroup(%arg{{[0-9]+}} : memref<24x8xf64, #gpu.address_space<workgroup>>,
// WORDLESS-NOT: xi64, #gpu.address_space<workgroup>>
// NONE: gpu.func @jacobi_k0(
// NONE-NOT: workgroup(

// expected-error@+1 {{gpu-map failed: shared-memory staging needs 3824 bytes per block (tile set-up: 4 × i64 = 32 bytes, A: 24×8 × f64 = 1536 bytes, A mask: 26×8 × i8 = 208 bytes, A mask: 24×8 × i8 = 192 bytes, B: 23×8 × f64 = 1472 bytes, B mask: 23×8 × i8 = 184 bytes, B mask: 23×8 × i8 = 184 bytes; each buffer at 16-byte alignment), above the limit of 2048 bytes; choose smaller tile sizes, raise gpu-map{shared-memory=…} for a device with more, or use gpu-map{staging=false}}}
stencil.program @jacobi(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %a = arith.addf %c, %n : f64
      %b = arith.addf %a, %s : f64
      stencil.yield %b : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, N - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
