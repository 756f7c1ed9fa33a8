// --timing times the pass that stops the pipeline too, marked "(failed)": a slow failure is
// what one profiles (a scheduler that gives up after seconds, say), and the report is printed
// with the error.
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir -p 'builtin.module(canonicalize,gpu-map{naive})' --timing -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: 'stencil.program' op gpu-map failed: gpu-map{naive} maps DOALL applies only
// CHECK: Execution time report
// CHECK: canonicalize
// CHECK-NEXT: gpu-map{naive=true} (failed)
// CHECK-NEXT: Total
