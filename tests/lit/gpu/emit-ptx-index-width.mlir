// The index width --emit=ptx compiles with when --gpu-index-bitwidth is not given: 32 when
// --param gives the problem and every field has fewer than 2^31 elements at it (the rule
// stencil-run applies to the fields it runs), else 64 — the width for any size (docs/gpu.md,
// "Index width").
//
// No --param: the PTX is for any size.
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx | FileCheck %s --check-prefix=ANY
// ANY: // stencil-opt ptx v1: gpu.module @{{[a-z0-9_]+}} chip=sm_90 index-bitwidth=64
// ANY: .u64 size[0]
//
// --param values whose fields fit (a parameter left out takes its declared default):
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=16384 --param M=16384 --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx | FileCheck %s --check-prefix=FITS
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param T=7 --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx | FileCheck %s --check-prefix=FITS
// FITS: // stencil-opt ptx v1: gpu.module @{{[a-z0-9_]+}} chip=sm_90 index-bitwidth=32
// FITS: .u32 size[0]
//
// A field of 2^31 elements or more (46341^2 = 2 147 488 281), or a width asked for, keeps 64.
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=46341 --param M=46341 --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx | FileCheck %s --check-prefix=ANY
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=46340 --param M=46341 --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx | FileCheck %s --check-prefix=FITS
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=64 --gpu-index-bitwidth=64 --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx | FileCheck %s --check-prefix=ANY
//
// affine loops whose programs only the pipeline makes: 64.
// RUN: stencil-opt %S/../../../examples/affine/jacobi-2d.mlir --param arg0=64 --pass-pipeline='builtin.module(raise-affine-to-stencil,gpu-map{naive})' --emit=ptx | FileCheck %s --check-prefix=ANY
