// Input from a file or standard input, output to stdout or -o.
// RUN: stencil-opt %s -o %t && FileCheck %s < %t
// RUN: cat %s | stencil-opt - | FileCheck %s
// RUN: cat %s | stencil-opt | FileCheck %s
// RUN: not stencil-opt %s.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not stencil-opt %s -o %t.dir/does/not/exist 2>&1 | FileCheck %s --check-prefix=BADOUT

// CHECK: func.func private @f(i32) -> i32
// MISSING: stencil-opt: error: cannot open input file '{{.*}}io.mlir.does-not-exist'
// BADOUT: stencil-opt: error: cannot write output file
func.func private @f(i32) -> i32
