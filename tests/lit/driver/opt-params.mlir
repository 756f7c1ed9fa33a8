// stencil-opt --param is checked as stencil-run checks it: NAME=INT, each name once, a name
// some program of the input declares, a value not below the program's declared minimum.
// With --split-input-file the names of every chunk's programs count.
//
// RUN: stencil-opt %s --split-input-file --param N=5 --param M=4 -o /dev/null
// RUN: not stencil-opt %s --split-input-file --param =3 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: stencil-opt: error: --param expects NAME=VALUE, got '=3'
// RUN: not stencil-opt %s --split-input-file --param N=x 2>&1 | FileCheck %s --check-prefix=NOTINT
// NOTINT: stencil-opt: error: --param N: 'x' is not an integer
// RUN: not stencil-opt %s --split-input-file --param N=5 --param N=6 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: stencil-opt: error: --param N is given twice (5, then 6): give each parameter once
// RUN: not stencil-opt %s --split-input-file --param K=5 -o %t.unknown 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: stencil-opt: error: --param: unknown parameter 'K': the input's programs declare T, N, M
// RUN: not stencil-opt %S/../../../examples/sor-1d-3pt.mlir --param K=5 2>&1 | FileCheck %s --check-prefix=UNKNOWN1
// UNKNOWN1: stencil-opt: error: --param: unknown parameter 'K': the program declares T, N
// An input of affine loops has no program until the pipeline raises one: its values reach the
// raised program's tile model (the problem recorded with the choice), and its names are
// checked against what the pipeline made, at the raised function.
// RUN: stencil-opt %S/../../../examples/affine/jacobi-2d.mlir --param arg0=100 --param arg1=4000 --pass-pipeline='builtin.module(raise-affine-to-stencil,poly-schedule,poly-tile{sizes=auto})' | FileCheck %s --check-prefix=RAISED
// RAISED: problem = "arg0=100,arg1=4000"
// RAISED-NOT: poly.problem_size
// RUN: not stencil-opt %S/../../../examples/affine/jacobi-2d.mlir --param arg0=100 --param n=4000 --pass-pipeline='builtin.module(raise-affine-to-stencil,poly-schedule)' 2>&1 | FileCheck %s --check-prefix=RAISEDUNKNOWN
// RAISEDUNKNOWN: jacobi-2d.mlir:{{[0-9]+}}:{{[0-9]+}}: error: --param: unknown parameter 'n': the program declares arg0, arg1
// Below the minimum: an error at the program that declares it (here the second chunk's).
// RUN: not stencil-opt %s --split-input-file --param M=1 2>&1 | FileCheck %s --check-prefix=BELOW
// BELOW: opt-params.mlir:[[@LINE+13]]:1: error: --param M=1: parameter M = 1 is below its declared minimum 2
// BELOW-NEXT: stencil.program @second

stencil.program @first(%A: !stencil.field<[N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 2, N = 8] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}
// -----
stencil.program @second(%B: !stencil.field<[M] x f64>)
    params [M >= 2] defaults [M = 8] {
  stencil.iterate %t = 0 to 1 {
    stencil.apply @S writes %B over [1] to [M - 1] {
      %c = stencil.access %B[0] : f64
      stencil.yield %c : f64
    }
  }
}
