// Bad input to stencil-run: a clear error, exit code 1, and no output files left behind.
// RUN: not stencil-run %S/Inputs/no-defaults.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=1 2>&1 | FileCheck %s --check-prefix=BELOW
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=-4 2>&1 | FileCheck %s --check-prefix=BELOW-NEG
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --param M=3 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=x 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --target gpu 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --target tpu 2>&1 | FileCheck %s --check-prefix=TARGET2
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --init C=zeros 2>&1 | FileCheck %s --check-prefix=INITNAME
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --init bogus 2>&1 | FileCheck %s --check-prefix=INITSPEC
// RUN: rm -rf %t && mkdir -p %t
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --init A=%t/missing.npy --out %t/out 2>&1 | FileCheck %s --check-prefix=NPY
// RUN: not ls %t/out
// RUN: printf 'not an npy file' > %t/garbage.npy
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --init A=%t/garbage.npy 2>&1 | FileCheck %s --check-prefix=GARBAGE
// RUN: stencil-run %S/Inputs/no-defaults.mlir --param N=4 --out %t/small
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=5 --init A=%t/small/A.npy --out %t/out2 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not ls %t/out2
// RUN: not stencil-run %s 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not stencil-run %t/nope.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --pass-pipeline='builtin.module(nope)' 2>&1 | FileCheck %s --check-prefix=PIPE
// A lowered program whose recorded point updates are malformed (one map, no upper bound) is refused with its location.
// RUN: stencil-opt %S/Inputs/no-defaults.mlir --param N=4 --pass-pipeline='builtin.module(gpu-map{naive})' | sed -e 's/stencil.point_updates = .*\]\]/stencil.point_updates = [[affine_map<()[s0] -> (0)>]]/' > %t.bad-updates.mlir
// RUN: not stencil-run %t.bad-updates.mlir --param N=4 --target sim 2>&1 | FileCheck %s --check-prefix=UPDATES

// Located at the program, whose params clause declares the parameter:
// MISSING: no-defaults.mlir:2:1: error: missing value for parameter 'N': give it one (stencil-run --param N=…, ProgramState::with_param in the library) or declare a default in the program
// BELOW: no-defaults.mlir:2:1: error: {{.*}}N{{.*}}1{{.*}}minimum{{.*}}2
// BELOW-NEG: error: {{.*}}N{{.*}}-4{{.*}}minimum{{.*}}2
// UNKNOWN: error: unknown parameter 'M': the program declares N
// NOTINT: stencil-run: error: --param N: 'x' is not an integer
// TARGET: error: --target gpu runs programs mapped to the GPU, and this one is not: end --pass-pipeline with gpu-map
// TARGET2: stencil-run: error: unknown target 'tpu': available targets: ref (the reference interpreter), sim (the GPU simulator), gpu (an NVIDIA GPU)
// INITNAME: error: --init names unknown field(s) C: the program's fields are A, B
// INITSPEC: stencil-run: error: invalid --init 'bogus'
// NPY: error: {{.*}}missing.npy
// GARBAGE: error: {{.*}}garbage.npy
// SHAPE: error: field 'A (from {{.*}}small/A.npy)' has shape [4], but the program expects [5] for these parameters
// PARSE: stencil-run-errors.mlir:[[@LINE+1]]:1: error: custom op 'this' is unknown
this is not a program
// NOFILE: stencil-run: error: cannot open input file
// PIPE: error: 'nope' does not refer to a registered pass
// UPDATES: bad-updates.mlir:{{[0-9]+}}:{{[0-9]+}}: error: lowered program @{{.*}}: 'stencil.point_updates' must be an array of arrays of affine maps
