// stencil-run --target sim --profile (docs/cost-model.md): the simulator's warp-instructions
// per location of the kernel op they were compiled from, the most first, with the share of
// lanes busy in them (thread- over 32 × warp-instructions). Run on the lowered
// file (stencil-opt's output), the locations are its lines: here the naive Jacobi-2D kernel,
// whose hottest ops are inside the guarded point body, not the thread-id reads.
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(gpu-map{naive})' -o %t.mlir
// RUN: stencil-run %t.mlir --param N=24 --param M=20 --param T=4 --target sim --profile | FileCheck %s
// RUN: stencil-run %t.mlir --param N=24 --param M=20 --param T=4 --target sim --profile --json | FileCheck %s --check-prefix=JSON
// RUN: stencil-run %t.mlir --param N=24 --param M=20 --param T=4 --target sim | FileCheck %s --check-prefix=NONE
// RUN: not stencil-run %t.mlir --param N=24 --param M=20 --param T=4 --profile 2>&1 | FileCheck %s --check-prefix=REF
// CHECK: profile  warp-instructions per kernel op and their busy lanes (the 25 most of {{[0-9]+}} locations; --json lists all)
// CHECK-NEXT: {{ +[0-9]+ +[0-9.]+ % +[0-9.]+ % lanes  @jacobi_2d_5pt_kernels::@jacobi_2d_5pt_k[0-9]  .*\.mlir:[0-9]+:[0-9]+}}
// JSON: "profile":[{"kernel":"jacobi_2d_5pt_kernels::jacobi_2d_5pt_k{{[0-9]}}","location":"{{[^"]*}}.mlir:{{[0-9]+}}:{{[0-9]+}}","thread_instructions":{{[1-9][0-9]*}},"warp_instructions":{{[1-9][0-9]*}}}
// NONE: sim {{.*}} races 0
// NONE-NOT: warp-instructions per kernel op
// REF: error: --profile counts the simulator's warp-instructions per kernel op: use it with --target sim, not --target ref

// Per-update figures of a lowered file count the program's point updates, which the lowering
// records (`stencil.point_updates`, docs/runtime.md): a tile staged in shared memory stores
// each element to the field once per tile, not once per update. 2 applies × T × (N − 2) ×
// (M − 2) = 2 × 4 × 22 × 18 = 3168.
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{staging=true})' -o %t.staged.mlir
// RUN: stencil-run %t.staged.mlir --param N=24 --param M=20 --param T=4 --target sim | FileCheck %s --check-prefix=UPDATES
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=24 --param M=20 --param T=4 | FileCheck %s --check-prefix=UPDATES
// UPDATES: time {{.*}}, 3168 point updates
