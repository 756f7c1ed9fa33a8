// The affine code poly-codegen emits is plain MLIR 22: mlir-opt parses and verifies it (custom
// and generic form), lowers it to scf/arith (--lower-affine), and what it prints comes back
// through stencil-opt unchanged. The examples cover 1-D to 3-D, several statements, tiling
// with max/min/ceildiv/floordiv bounds, and guards.
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen)' | mlir-opt --verify-each | FileCheck %s --check-prefix=SOR
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen)' --mlir-print-op-generic | mlir-opt --lower-affine | FileCheck %s --check-prefix=LOWERED --implicit-check-not=affine.
// RUN: stencil-opt %S/../../../examples/fdtd-2d.mlir --pass-pipeline='builtin.module(poly-remove-false-deps,poly-schedule,poly-tile{sizes=8},poly-codegen)' | mlir-opt --lower-affine --convert-scf-to-cf | FileCheck %s --check-prefix=FDTD --implicit-check-not=affine.
// RUN: stencil-opt %S/../../../examples/jacobi-3d-27pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen)' > %t.ours.mlir
// RUN: mlir-opt %t.ours.mlir | stencil-opt > %t.roundtrip.mlir
// RUN: stencil-opt %t.ours.mlir | diff - %t.roundtrip.mlir
// RUN: stencil-opt %S/../../../examples/polybench-seidel-2d.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=3},poly-codegen)' | mlir-opt --affine-loop-normalize --canonicalize | FileCheck %s --check-prefix=SEIDEL

// SOR-LABEL: func.func @sor_2d_5pt(
// SOR:         affine.for
// SOR:           affine.parallel
// SOR:             affine.load
// SOR:             affine.store
// LOWERED-LABEL: func.func @sor_2d_5pt(
// LOWERED:       scf.for
// LOWERED:       scf.parallel
// LOWERED:       memref.load
// LOWERED:       memref.store
// FDTD-LABEL: func.func @fdtd_2d(
// FDTD:       cf.cond_br
// SEIDEL-LABEL: func.func @polybench_seidel_2d(
// SEIDEL:       affine.store
