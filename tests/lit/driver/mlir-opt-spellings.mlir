// mlir-opt's spellings work: single-dash long options, -p for --pass-pipeline, the --mlir-*
// names of the IR dump and timing switches (the shorter old names stay as aliases), and
// --show-dialects in mlir-opt's format.
// RUN: stencil-opt %s -pass-pipeline='builtin.module(canonicalize)' | FileCheck %s
// RUN: stencil-opt %s -p 'builtin.module(canonicalize)' | FileCheck %s
// RUN: stencil-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: stencil-opt %s -p 'builtin.module(cse)' --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: stencil-opt %s -p 'builtin.module(cse)' -mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: stencil-opt %s -p 'builtin.module(cse)' --print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: stencil-opt %s -p 'builtin.module(cse)' --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: stencil-opt %s -p 'builtin.module(cse)' --timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: stencil-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS
// RUN: stencil-opt -show-dialects | FileCheck %s --check-prefix=DIALECTS
// RUN: stencil-opt --help | FileCheck %s --check-prefix=HELP
// stencil-run takes the same spellings:
// RUN: stencil-run %S/Inputs/no-defaults.mlir -param N=4 -p 'builtin.module(cse)' | FileCheck %s --check-prefix=RUNNER
// Names that are not long options stay what they were (an unknown flag is still an error):
// RUN: not stencil-opt %s -bogus 2>&1 | FileCheck %s --check-prefix=BOGUS

// CHECK: func.func private @f()
// GENERIC: "func.func"()
// DUMP: // -----// IR Dump After cse //----- //
// TIME: Execution time report
// TIME: cse
// DIALECTS: Available Dialects: affine,arith,builtin,func,gpu,math,memref,nvvm,scf,stencil
// HELP: --mlir-print-ir-after-all
// HELP: [alias: --print-ir-after-all]
// HELP: --mlir-timing
// HELP: [alias: --timing]
// HELP: --show-dialects
// RUNNER: pipeline builtin.module(cse)
// BOGUS: error: unexpected argument '-b' found
func.func private @f()
