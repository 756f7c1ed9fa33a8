// stencil-run --target sim --cost: the GPU cost report (docs/cost-model.md) — per kernel and in
// total the warp-instructions, lane utilisation, global and shared-memory accesses and
// barriers, the same per point update, then registers, occupancy and the bound model's
// estimate. PTXAS names no file here, so registers are unknown and the report says why
// (driver/tests/cost_report.rs checks the figures ptxas gives).
// RUN: env PTXAS=%t.none stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=24 --param M=20 --param T=4 \
// RUN:   --target sim --cost --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s
// RUN: env PTXAS=%t.none stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=24 --param M=20 --param T=4 \
// RUN:   --target sim --cost --json --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=JSON
// Without --cost there is no cost report; with another target --cost is refused.
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=24 --param M=20 --param T=4 \
// RUN:   --target sim --json --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=NOCOST
// RUN: not stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --cost 2>&1 | FileCheck %s --check-prefix=REF

// CHECK: time {{.*}} 3168 point updates
// CHECK-NEXT: mapping naive: block=32x8x1 points_per_thread=1
// CHECK-NEXT: sim 8 launches
// CHECK-NEXT: cost on NVIDIA H100 SXM5 (model): 132 SMs at 1.755 GHz, DRAM 2990 GB/s, 2 µs per launch (model: docs/cost-model.md)
// CHECK-NEXT: cost registers unknown (no ptxas: PTXAS={{.*}} is not an executable file{{.*}}): occupancy from threads, shared memory and blocks only, an upper bound
// CHECK-NEXT: kernel launches blocks threads warp-instr lane util gl loads gl stores gl B read gl B written DRAM B read DRAM B written shared acc barriers
// CHECK-NEXT: @jacobi_2d_5pt_kernels::@jacobi_2d_5pt_k0 4 {{.*}} % 7920 1584 63360 12672 15360 14080 0 0
// CHECK-NEXT: @jacobi_2d_5pt_kernels::@jacobi_2d_5pt_k1 4 {{.*}} % 1584 1584 12672 12672 14080 14080 0 0
// CHECK-NEXT: total 8 {{[0-9]+}} {{.*}} % 9504 3168 76032 25344 29440 28160 0 0
// Three 8-byte loads and one store per point update (the 5-point update and the copy back);
// DRAM: the distinct 32-byte sectors of each launch. A row of 20 f64 is 5 sectors: the update
// reads all 24 rows of A (120 sectors, 3840 bytes) and writes 22 rows of B (3520 bytes), the copy
// reads and writes 22 rows; the interior rows' partial sectors count whole.
// CHECK-NEXT: per point update {{.*}} - 3.00 1.00 24.00 8.00 9.29 8.89 0 0
// CHECK-NEXT: kernel block regs spill B smem B blocks/SM occupancy limited by busy SMs est. time bound
// Without registers, 256-thread blocks are limited by warps: 8 per SM, an upper bound. The
// 22 x 18 box is 3 blocks of 32 x 8: 3 of the 132 SMs have work.
// CHECK-NEXT: @jacobi_2d_5pt_kernels::@jacobi_2d_5pt_k0 32x8x1 ? ? 0 8 100.0 % (max) warps 3 of 132 {{.*}} launches
// CHECK-NEXT: @jacobi_2d_5pt_kernels::@jacobi_2d_5pt_k1 32x8x1 ? ? 0 8 100.0 % (max) warps
// CHECK-NEXT: estimate {{.*}} ({{.*}} GCells/s for 3168 point updates): launch overhead 16.00 µs, DRAM {{.*}}, issue {{.*}}, barriers 0.00 µs; each launch takes overhead + max(DRAM, issue + barriers)
// CHECK-NEXT: estimate {{.*}} GCells/s in the large-problem limit (the same work per update on a GPU full of blocks, no launch overhead): DRAM {{.*}}, issue {{.*}}, barriers 0.00 µs
// CHECK-NEXT: field A

// JSON: "cost":{
// JSON-SAME: "estimate":{"barrier_s":0.0,
// JSON-SAME: "per_update":{"barriers":0.0,"blocks":{{[0-9.e-]+}},"dram_bytes":{{[0-9.e-]+}},"dram_bytes_read":{{[0-9.e-]+}},"dram_bytes_written":8.88888888888889,"global_bytes":32.0,"global_bytes_read":24.0,"global_bytes_written":8.0,"global_loads":3.0,"global_stores":1.0,
// JSON-SAME: "registers":{"known":false,"reason":"no ptxas:

// NOCOST: "target_stats":{"sim":
// NOCOST-NOT: "cost"

// REF: error: --cost estimates the GPU cost from the simulator's counters: use it with --target sim, not --target ref
