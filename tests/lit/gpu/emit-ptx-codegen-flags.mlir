// LLVM's code-generator flags (docs/gpu.md, "ptxas"): by default the kernels address shared
// memory with 32-bit pointers (each neighbour's address a load's immediate offset) and LLVM's
// loop strength reduction is off — the fastest measured on an H200. `--short-pointers=false`
// and `--loop-strength-reduction` give LLVM's own defaults; the cost report names what differs
// from the default.
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=64 --param M=64 --pass-pipeline='builtin.module(gpu-map{strategy=auto})' --emit=ptx | FileCheck %s --check-prefix=SHORT
// SHORT: ld.shared.b64 {{.*}}[%r{{[0-9]+}}+{{-?[0-9]+}}]
// SHORT-NOT: ld.shared.b64 {{.*}}[%rd
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --param N=64 --param M=64 --pass-pipeline='builtin.module(gpu-map{strategy=auto})' --emit=ptx --short-pointers=false | FileCheck %s --check-prefix=LONG
// LONG: ld.shared.b64 {{.*}}[%rd{{[0-9]+}}
// LONG-NOT: ld.shared.b64 {{.*}}[%r{{[0-9]+}}{{[]+]}}
//
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=24 --param M=20 --param T=2 --target sim --cost --check --pass-pipeline='builtin.module(gpu-map{strategy=auto})' --short-pointers=false --loop-strength-reduction | FileCheck %s --check-prefix=REPORT
// REPORT: registers from ptxas for sm_90, 32-bit index, PTX compiled by MLIR, 64-bit shared pointers, LLVM loop strength reduction on
// REPORT: check    {{.*}}(bit-exact): passed
//
// A bad value, and the old flag against the new one:
// RUN: not stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --short-pointers=yes 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: invalid value 'yes' for '--short-pointers[=<BOOL>]'
// RUN: not stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --loop-strength-reduction --disable-lsr 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: the argument '--loop-strength-reduction[=<BOOL>]' cannot be used with '--disable-lsr'
//
// Neighbouring global accesses through flat indices (gpu/emit-ptx-flat-addresses.mlir) are a
// default too; turned off, the cost report names it:
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param N=24 --param M=20 --param T=2 --target sim --cost --pass-pipeline='builtin.module(gpu-map{naive})' --flat-addresses=false | FileCheck %s --check-prefix=FLAT
// FLAT: registers from ptxas for sm_90, 32-bit index, PTX compiled by MLIR, accesses indexed per dimension
