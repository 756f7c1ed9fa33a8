// Ops of unknown dialects need --allow-unregistered-dialect.
// RUN: not stencil-opt %s 2>&1 | FileCheck %s
// RUN: stencil-opt %s --allow-unregistered-dialect | FileCheck %s --check-prefix=ALLOWED

// CHECK: unregistered.mlir:[[@LINE+3]]:1: error: operation being parsed with an unregistered dialect ('foo'); use --allow-unregistered-dialect to allow it
// CHECK-NEXT: "foo.bar"() : () -> ()
// CHECK-NEXT: ^
"foo.bar"() : () -> ()
// ALLOWED: "foo.bar"() : () -> ()
