// Pipelines that cannot work are refused before any input is read, with the reason and the
// order to use; a pass that finds no stencil.program to work on fails instead of doing nothing.
//
// poly-codegen lowers every stencil.program, so passes after it would find none:
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-codegen,gpu-map)' 2>&1 | FileCheck %s --check-prefix=TWO-LOWERINGS
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-codegen,poly-tile{sizes=4})' 2>&1 | FileCheck %s --check-prefix=TILE-AFTER
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-codegen,poly-schedule)' 2>&1 | FileCheck %s --check-prefix=SCHEDULE-AFTER
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive},stencil-to-poly)' 2>&1 | FileCheck %s --check-prefix=SCOP-AFTER
// poly-remove-false-deps drops the schedules of the programs it rewrites (computed before its
// copies), so after poly-schedule it would throw them away:
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-remove-false-deps,poly-tile{sizes=8},gpu-map)' 2>&1 | FileCheck %s --check-prefix=DROPS
// A second poly-tile replaces the first tiling; it does not tile the tiles:
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},poly-tile{sizes=2})' 2>&1 | FileCheck %s --check-prefix=TWICE
// Stencil passes run on modules or programs, not nested on functions:
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(func.func(poly-schedule))' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(stencil.program(gpu-map))' 2>&1 | FileCheck %s --check-prefix=NESTED-LOWERING
// Input that was lowered already (or holds no program) has nothing for them:
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen)' -o %t.lowered.mlir
// RUN: not stencil-opt %t.lowered.mlir --pass-pipeline='builtin.module(poly-tile{sizes=2})' 2>&1 | FileCheck %s --check-prefix=LOWERED
// RUN: not stencil-opt %t.lowered.mlir --pass-pipeline='builtin.module(gpu-map)' 2>&1 | FileCheck %s --check-prefix=LOWERED-MAP
// The right orders work, and nesting on a program is allowed for passes that keep it:
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map,canonicalize,cse)' | FileCheck %s --check-prefix=OK
// RUN: stencil-opt %s --pass-pipeline='builtin.module(stencil.program(poly-schedule))' | FileCheck %s --check-prefix=OK-NESTED

// TWO-LOWERINGS: <pass-pipeline>: error: pass 'gpu-map' cannot come after 'poly-codegen': both lower every 'stencil.program', so 'gpu-map' would find none left; use one of them (gpu-map lowers stencil.program ops to GPU kernels
// TILE-AFTER: <pass-pipeline>: error: pass 'poly-tile' cannot come after 'poly-codegen': 'poly-codegen' lowers every 'stencil.program', so 'poly-tile' would find none; run 'poly-tile' before 'poly-codegen': builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen)
// SCHEDULE-AFTER: error: pass 'poly-schedule' cannot come after 'poly-codegen'{{.*}}: builtin.module(poly-schedule,poly-codegen)
// SCOP-AFTER: error: pass 'stencil-to-poly' cannot come after 'gpu-map': 'gpu-map' lowers every 'stencil.program'
// DROPS: <pass-pipeline>: error: pass 'poly-remove-false-deps' cannot come after 'poly-schedule': 'poly-remove-false-deps' drops the 'poly.schedule' that 'poly-schedule' records, wherever it changes a program; run 'poly-remove-false-deps' before 'poly-schedule': builtin.module(poly-remove-false-deps,poly-schedule,poly-tile{sizes=8},gpu-map)
// TWICE: <pass-pipeline>: error: pass 'poly-tile' appears twice (poly-tile{sizes=4}, then poly-tile{sizes=2}): a second poly-tile replaces what the first recorded instead of composing with it; keep one
// NESTED: <pass-pipeline>: error: pass 'poly-schedule' cannot run nested on 'func.func': it runs on 'builtin.module' or 'stencil.program' ops, e.g. builtin.module(poly-schedule)
// NESTED-LOWERING: error: pass 'gpu-map' cannot run nested on 'stencil.program': it runs on 'builtin.module' ops, e.g. builtin.module(gpu-map)
// LOWERED: lowered.mlir:1:1: error: pass 'poly-tile{sizes=2}' found no 'stencil.program' to work on in 'builtin.module': poly-tile works on stencil.program ops, after poly-schedule and before poly-codegen or gpu-map lower them
// LOWERED-MAP: error: pass 'gpu-map' found no 'stencil.program' to work on in 'builtin.module': gpu-map lowers stencil.program ops to GPU kernels
// OK: gpu.module @p_kernels
// OK-NESTED: poly.schedule
stencil.program @p(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] defaults [T = 4, N = 16] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [1] to [N - 1] {
      %l = stencil.access %A[-1] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %r : f64
      stencil.yield %s : f64
    }
  }
}
