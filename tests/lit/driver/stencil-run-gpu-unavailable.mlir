// stencil-run --target gpu on a machine without an NVIDIA driver: a clear message and a
// non-zero exit, no panic. (On a machine with the driver, stencil-run-gpu.mlir runs instead.)
// UNSUPPORTED: cuda-driver
// RUN: not stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=24 --param M=20 --param T=4 --target gpu --check \
// RUN:   --pass-pipeline='builtin.module(gpu-map{naive})' 2>&1 | FileCheck %s
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --target gpu --json \
// RUN:   --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map{block=16,4})' 2>&1 | FileCheck %s

// CHECK: error: no NVIDIA driver (libcuda.so.1) found: use --target sim
// CHECK-NOT: panicked
