// stencil-run --target gpu on a real GPU: the kernels compile to PTX for the device's own
// chip, run through the CUDA driver, and match the reference interpreter bit for bit.
// REQUIRES: cuda-driver
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=100 --param M=90 --param T=6 --target gpu --check \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map{block=32,8})' | FileCheck %s --check-prefix=SOR
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=100 --param M=90 --param T=6 --target gpu --check \
// RUN:   --pass-pipeline='builtin.module(gpu-map{naive})' --json | FileCheck %s --check-prefix=JSON

// SOR: target   gpu
// SOR: time {{.*}} 51744 point updates
// SOR-NEXT: device   {{.*}} SMs{{.*}}(PTX for sm_{{[0-9]+[a-z]?}}, {{32|64}}-bit index, compiled by MLIR)
// SOR-NEXT: gpu      {{[1-9][0-9]*}} launches
// SOR: kernel   @sor_2d_5pt_kernels::@
// SOR: check    against the untransformed program on ref (bit-exact): passed
// SOR-NEXT: A: identical

// JSON: "check":{"fields":{"A":{"bit_exact":true,{{.*}}"B":{"bit_exact":true,{{.*}}"passed":true
// JSON-SAME: "target":"gpu","target_stats":{"gpu":{"blocks":
// JSON-SAME: "ptx_codegen":{"flat_addresses":true,"loop_strength_reduction":false,"reciprocal_division":true,"short_pointers":true}
