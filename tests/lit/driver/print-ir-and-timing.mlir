// --print-ir-after-all dumps the IR after each pass to stderr; --timing reports pass times.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(canonicalize,cse)' --print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: stencil-opt %s --pass-pipeline='builtin.module(canonicalize,cse)' --timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: stencil-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: stencil-opt %s --log=stencil_ir=debug --pass-pipeline='builtin.module(cse)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOG
// RUN: not stencil-opt %s --log='[' 2>&1 | FileCheck %s --check-prefix=BADLOG

// DUMP: // -----// IR Dump After canonicalize //----- //
// DUMP-NEXT: module {
// DUMP: // -----// IR Dump After cse //----- //
// TIME: Execution time report
// TIME: canonicalize
// TIME: cse
// TIME: Total
// LIST: canonicalize
// LIST-NEXT: max-iterations=int
// LIST: cse
// LOG: cse finished
// BADLOG: stencil-opt: error: invalid --log filter
func.func private @f()
