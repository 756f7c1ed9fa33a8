// stencil-run: a field the program's sizes (here its defaults) make too large to allocate is an
// error located at the program, where the fields and the defaults that size them are declared.
// RUN: not stencil-run %s 2>&1 | FileCheck %s --check-prefix=LARGE
// LARGE: stencil-run-field-size.mlir:[[@LINE+5]]:1: error: field 'A' of shape [9223372036854775807, 16, 16] is too large
// LARGE-NEXT: stencil.program @too_large
// RUN: not stencil-run %s --json | FileCheck %s --check-prefix=JSON
// JSON: "location":{"column":1,"file":"{{.*}}stencil-run-field-size.mlir","line":[[@LINE+2]]}

stencil.program @too_large(%A: !stencil.field<[N, 16, 16] x f64>)
    params [N >= 1] defaults [N = 9223372036854775807] {
  stencil.iterate %t = 0 to 1 {
    stencil.apply @S writes %A over [0, 0, 0] to [N, 16, 16] {
      %c = stencil.access %A[0, 0, 0] : f64
      stencil.yield %c : f64
    }
  }
}
