// stencil-run --target sim: a GPU-mapped program runs on the GPU simulator (race detection on)
// and --check compares it bit for bit with the untransformed program on the reference
// interpreter. A tiled SOR (DOACROSS: only the tiled wavefront mapping is legal) and the naive
// Jacobi baseline (one kernel per apply and time step).
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=24 --param M=20 --param T=4 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=16,4 staging=true})' | FileCheck %s --check-prefix=SOR
// The same without shared-memory staging: every access goes to global memory.
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=24 --param M=20 --param T=4 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=16,4 staging=false})' | FileCheck %s --check-prefix=UNSTAGED
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=24 --param M=20 --param T=4 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=JACOBI
// An input already mapped runs on the simulator, but --check has no reference program for it:
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(gpu-map{naive})' -o %t.mapped.mlir
// RUN: stencil-run %t.mapped.mlir --param N=24 --param M=20 --param T=4 --target sim | FileCheck %s --check-prefix=MAPPED
// RUN: not stencil-run %t.mapped.mlir --param N=24 --param M=20 --param T=4 --target sim --check 2>&1 | FileCheck %s --check-prefix=MAPPED-CHECK
// MAPPED: field{{ +}}A
// MAPPED-CHECK: error: --check runs the input program on the reference interpreter, and this input is already mapped to the GPU (it has a gpu.module): give the unmapped program
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=24 --param M=20 --param T=4 --target sim --json \
// RUN:   --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=JSON
// A program that was not mapped to the GPU is refused with the pipeline to use.
// RUN: not stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --target sim 2>&1 | FileCheck %s --check-prefix=UNMAPPED
// RUN: not stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --target sim \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},poly-codegen)' 2>&1 | FileCheck %s --check-prefix=UNMAPPED

// SOR: target   sim
// SOR-NEXT: pipeline builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=16,4 staging=true})
// SOR-NEXT: params   T=4 N=24 M=20
// SOR-NEXT: scalars  omega=1.5
// SOR-NEXT: time {{.*}} 1584 point updates
// How gpu-map mapped it (grid 0: one block per tile of each wavefront).
// SOR-NEXT: mapping  wavefront: tile=8 block=16x4x1 grid=per-tile staging=true shared_memory={{[1-9][0-9]*}}
// Staged tiles load each element they read once and store back each element they wrote once.
// SOR-NEXT: sim      10 launches, {{[0-9]+}} blocks, {{[0-9]+}} threads, {{[1-9][0-9]*}} barriers, {{[0-9]+}} instructions, global memory 10928 B read / 7376 B written, races 0
// SOR-NEXT: field    A [24x20] f64
// SOR-NEXT: check    against the untransformed program on ref (bit-exact): passed
// SOR-NEXT: A: identical

// UNSTAGED: time {{.*}} 1584 point updates
// Tiles on global memory: the only workgroup memory is the 4 words of the tile set-up (the first
// warp finds the tile, then the block reads it).
// UNSTAGED-NEXT: mapping  wavefront: tile=8 block=16x4x1 grid=per-tile staging=false shared_memory=32
// 1584 updates of 5 reads and 1 write each.
// UNSTAGED-NEXT: sim      10 launches, {{[0-9]+}} blocks, {{[0-9]+}} threads, {{[1-9][0-9]*}} barriers, {{[0-9]+}} instructions, global memory 63360 B read / 12672 B written, races 0
// UNSTAGED: check    against the untransformed program on ref (bit-exact): passed

// JACOBI: target   sim
// JACOBI: time {{.*}} 3168 point updates
// JACOBI-NEXT: mapping  naive: block=32x8x1 points_per_thread=1
// Two kernels (B from A, A from B) per time step; no barriers in the naive kernels.
// JACOBI-NEXT: sim      8 launches, {{[0-9]+}} blocks, {{[0-9]+}} threads, 0 barriers, {{[0-9]+}} instructions, global memory 76032 B read / 25344 B written, races 0
// JACOBI: check    against the untransformed program on ref (bit-exact): passed
// JACOBI-NEXT: A: identical
// JACOBI-NEXT: B: identical

// JSON: "target":"sim","target_stats":{"sim":{"barriers":0,"blocks":{{[0-9]+}},"global_bytes_read":76032,"global_bytes_written":25344,"instructions":{{[0-9]+}},"launches":8,"races":0,"threads":{{[0-9]+}}}}

// UNMAPPED: error: --target sim runs programs mapped to the GPU, and this one is not: end --pass-pipeline with gpu-map, e.g. --pass-pipeline='builtin.module(gpu-map{strategy=auto})' (the mapping the GPU measurements favour, any program; 'builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})' for the thesis' wavefront tiles
