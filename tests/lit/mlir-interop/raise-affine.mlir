// Every raised-then-lowered result is plain MLIR 22 and round-trips through mlir-opt:
// each example lowered by poly-codegen, raised back and lowered again (untiled, and tiled
// then mapped to the GPU), and each affine input of examples/affine raised and lowered the
// same ways, parses and verifies in mlir-opt, and what mlir-opt prints comes back through
// stencil-opt as the same text. mlir-opt also lowers the untiled results to scf
// (--lower-affine), and takes the raised programs in generic form as unregistered ops. (The
// mapped round trip runs on three examples; lowering/tests/raise_examples.rs maps and runs
// every one on the simulator.)
//
// RUN: for f in %S/../../../examples/*.mlir; do grep -q stencil.program $f || continue; \
// RUN:   stencil-opt $f --pass-pipeline='builtin.module(poly-codegen,raise-affine-to-stencil{strict=true},poly-codegen)' > %t.ours.mlir || exit 1; \
// RUN:   mlir-opt --verify-each %t.ours.mlir | stencil-opt > %t.back.mlir || exit 1; \
// RUN:   stencil-opt %t.ours.mlir | diff - %t.back.mlir || exit 1; \
// RUN:   mlir-opt --lower-affine %t.ours.mlir > /dev/null || exit 1; \
// RUN:   echo "round trip: $(basename $f)"; done | FileCheck %s --check-prefix=EXAMPLES
// RUN: for f in %S/../../../examples/jacobi-2d-5pt.mlir %S/../../../examples/sor-3d-7pt.mlir %S/../../../examples/polybench-fdtd-2d.mlir; do \
// RUN:   stencil-opt $f --pass-pipeline='builtin.module(poly-codegen,raise-affine-to-stencil{strict=true},poly-schedule,poly-tile{sizes=4},gpu-map,canonicalize,cse)' > %t.gpu.mlir || exit 1; \
// RUN:   mlir-opt --verify-each %t.gpu.mlir | stencil-opt > %t.gpu.back.mlir || exit 1; \
// RUN:   stencil-opt %t.gpu.mlir | diff - %t.gpu.back.mlir || exit 1; \
// RUN:   echo "mapped: $(basename $f)"; done | FileCheck %s --check-prefix=MAPPED
// RUN: for f in %S/../../../examples/affine/*.mlir; do \
// RUN:   stencil-opt $f --pass-pipeline='builtin.module(raise-affine-to-stencil{strict=true},poly-codegen)' > %t.a.mlir || exit 1; \
// RUN:   mlir-opt --verify-each %t.a.mlir | stencil-opt > %t.a.back.mlir || exit 1; \
// RUN:   stencil-opt %t.a.mlir | diff - %t.a.back.mlir || exit 1; \
// RUN:   mlir-opt --lower-affine %t.a.mlir > /dev/null || exit 1; \
// RUN:   stencil-opt $f --pass-pipeline='builtin.module(raise-affine-to-stencil{strict=true},poly-schedule,poly-tile{sizes=4},gpu-map,canonicalize,cse)' > %t.ag.mlir || exit 1; \
// RUN:   mlir-opt --verify-each %t.ag.mlir | stencil-opt > %t.ag.back.mlir || exit 1; \
// RUN:   stencil-opt %t.ag.mlir | diff - %t.ag.back.mlir || exit 1; \
// RUN:   stencil-opt $f --pass-pipeline='builtin.module(raise-affine-to-stencil{strict=true})' --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | stencil-opt > /dev/null || exit 1; \
// RUN:   echo "affine input: $(basename $f)"; done | FileCheck %s --check-prefix=AFFINE

// EXAMPLES-COUNT-23: round trip: {{.*}}.mlir
// MAPPED: mapped: jacobi-2d-5pt.mlir
// MAPPED: mapped: sor-3d-7pt.mlir
// MAPPED: mapped: polybench-fdtd-2d.mlir
// AFFINE: affine input: fdtd-2d.mlir
// AFFINE: affine input: heat-3d.mlir
// AFFINE: affine input: jacobi-1d.mlir
// AFFINE: affine input: jacobi-2d.mlir
// AFFINE: affine input: seidel-2d.mlir
// AFFINE: affine input: sor-2d.mlir
