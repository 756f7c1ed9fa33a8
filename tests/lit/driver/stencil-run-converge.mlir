// stencil-run --converge: run a program step by step until a norm of a field falls below a
// tolerance; report steps, SOR sweeps (a step of a stencil-rbsor/stencil-mlsor program is worth
// the sweeps_per_step it records), the final norm and the time, in text and JSON.
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=18 --param M=18 --converge 1e-6 --norm residual-max | FileCheck %s --check-prefix=SOR
// RUN: stencil-run %S/../../../examples/ssor-2d-5pt.mlir --param N=18 --param M=18 --converge 1e-3 --relative | FileCheck %s --check-prefix=SSOR
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=18 --param M=18 --converge 1e-6 --norm residual-max --pass-pipeline='builtin.module(stencil-mlsor{K=2 P=4})' 2>/dev/null | FileCheck %s --check-prefix=MLSOR
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=18 --param M=18 --converge 1e-3 --relative --norm change-l2 --json \
// RUN:   --target sim --pass-pipeline='builtin.module(stencil-rbsor,gpu-map{naive})' 2>/dev/null | FileCheck %s --check-prefix=JSON
// A change norm has no value before the first step: its line gives no "initial".
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=18 --param M=18 --converge 1e-3 --relative --norm change-l2 | FileCheck %s --check-prefix=CHANGE
// CHANGE: converge change-l2 of A < {{[^:]+}}: converged after {{[0-9]+}} steps = {{[0-9]+}} sweeps (1 per step), final {{[^ ]+}}, {{.*}} s running
// A run that does not converge within --max-steps fails (exit 1) after its report:
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=18 --param M=18 --converge 1e-30 --max-steps 3 > %t.cap.out 2> %t.cap.err
// RUN: FileCheck %s --check-prefix=CAP < %t.cap.out
// RUN: FileCheck %s --check-prefix=CAP-ERR < %t.cap.err
// --max-steps is exact even when --check-every is larger or does not divide it: the last run
// takes the steps left, and its state is measured (1e-3 is reached at step 30, not at 28).
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=16 --param M=16 --converge 1e-30 --check-every 10000000 --max-steps 10 | FileCheck %s --check-prefix=CAP-EVERY
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=16 --param M=16 --converge 1e-30 --check-every 9223372036854775807 --max-steps 7 | FileCheck %s --check-prefix=CAP-HUGE
// RUN: stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=16 --param M=16 --converge 1e-3 --check-every 7 --max-steps 30 | FileCheck %s --check-prefix=CAP-LAST
// Sweeps past 2^64 - 1 are an error, never a wrapped count; from the flag or the program's record.
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=16 --param M=16 --converge 1e-3 --sweeps-per-step 18446744073709551615 2>&1 | FileCheck %s --check-prefix=SWEEPS
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir -p 'builtin.module(stencil-rbsor)' 2>/dev/null \
// RUN:   | sed 's/sweeps_per_step = 1 : i64/sweeps_per_step = 9223372036854775807 : i64/' > %t.huge.mlir
// RUN: not stencil-run %t.huge.mlir --param N=16 --param M=16 --converge 1e-3 2>&1 | FileCheck %s --check-prefix=SWEEPS-ATTR
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --converge 1e-6 --check 2>&1 | FileCheck %s --check-prefix=CHECK-FLAG
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --converge 1e-6 --norm energy 2>&1 | FileCheck %s --check-prefix=NORM
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --converge 1e-6 --steps-param K 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --converge=-1 2>&1 | FileCheck %s --check-prefix=TOL
// RUN: not stencil-run %S/../../../examples/sor-2d-5pt.mlir --param N=18 --param M=18 --scalar omega=2.5 --converge 1e-6 2>&1 | FileCheck %s --check-prefix=DIVERGE

// SOR: converge residual-max of A < 1e-6: converged after [[N:[0-9]+]] steps = [[N]] sweeps (1 per step), final {{.*}}, {{.*}} s running + {{.*}} s norms
// SSOR: converge residual-l2 of A < {{.*}}: converged after [[M:[0-9]+]] steps = {{[0-9]+}} sweeps (2 per step)
// MLSOR: converge residual-max of A < 1e-6: converged after {{[0-9]+}} steps = {{[0-9]+}} sweeps (4 per step)
// JSON: "convergence":{"converged":true,"field":"A","final":{{.*}},"history":{{\[\[}}1,
// JSON-SAME: "norm":"change-l2",{{.*}}"sweeps_per_step":1,
// JSON-SAME: "races":0
// CAP: converge residual-l2 of A < 1e-30: NOT converged after 3 steps = 3 sweeps (1 per step)
// CAP-ERR: error: --converge: the residual-l2 of A did not fall below 1e-30 in 3 steps (--max-steps); the last was
// CAP-EVERY: NOT converged after 10 steps = 10 sweeps (1 per step)
// CAP-HUGE: NOT converged after 7 steps = 7 sweeps (1 per step)
// CAP-LAST: converged after 30 steps = 30 sweeps (1 per step)
// SWEEPS: error: --converge: 2 steps of 18446744073709551615 sweeps each is more than 18446744073709551615 sweeps, too many to count: --sweeps-per-step is too large
// SWEEPS-NOT: converged after
// SWEEPS-ATTR: error: --converge: 3 steps of 9223372036854775807 sweeps each is more than 18446744073709551615 sweeps, too many to count: the program's sor.rewrite sweeps_per_step is too large
// CHECK-FLAG: error: --converge and --check do not go together
// NORM: error: --norm: unknown norm 'energy': expected one of residual-l2, residual-max, change-l2, change-max
// PARAM: error: --converge runs the program a few steps at a time through its step parameter, and it has no parameter 'K' (choose one with --steps-param)
// TOL: error: --converge must be a positive tolerance, got -1
// DIVERGE: error: --converge: the residual-l2 of A is {{.*}}inf after {{[0-9]+}} steps: the method diverges
