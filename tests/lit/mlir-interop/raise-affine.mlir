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
//
// The same inputs as mlir-opt prints them with --mlir-print-debuginfo (location aliases
// defined after the module) raise to the same programs, run bit-exact, and a refusal points
// into the file the locations name.
// RUN: for f in %S/../../../examples/affine/*.mlir; do \
// RUN:   mlir-opt --mlir-print-debuginfo $f > %t.dbg.mlir || exit 1; \
// RUN:   stencil-opt %t.dbg.mlir --pass-pipeline='builtin.module(raise-affine-to-stencil{strict=true})' > %t.dbg.raised.mlir || exit 1; \
// RUN:   stencil-opt $f --pass-pipeline='builtin.module(raise-affine-to-stencil{strict=true})' | diff - %t.dbg.raised.mlir || exit 1; \
// RUN:   echo "debuginfo: $(basename $f)"; done | FileCheck %s --check-prefix=DEBUGINFO
// RUN: mlir-opt --mlir-print-debuginfo %S/../../../examples/affine/jacobi-2d.mlir > %t.j2d.mlir
// RUN: stencil-run %t.j2d.mlir --param arg0=3 --param arg1=20 --check | FileCheck %s --check-prefix=DEBUGINFO-EXEC
// RUN: sed 's/ {llvm.noalias}//g' %t.j2d.mlir > %t.j2d-alias.mlir
// RUN: not stencil-run %t.j2d-alias.mlir --param arg0=3 --param arg1=20 2>&1 | FileCheck %s --check-prefix=DEBUGINFO-ERR

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
// DEBUGINFO-COUNT-6: debuginfo: {{.*}}.mlir
// DEBUGINFO-EXEC: check against the untransformed program on ref (bit-exact): passed
// DEBUGINFO-ERR: examples/affine/jacobi-2d.mlir:16:3: error: affine loop nest not raised to a stencil program: the memref arguments %arg2 and %arg3 may be the same buffer
