// Pass options are separated by spaces (commas separate list items): options written with
// commas are refused with the pipeline written the right way.
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{block=32,8,staging=false})' 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=naive,block=32})' 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4,4,inter=rectangular})' 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{block=32,8 staging=false})' | FileCheck %s

// LIST: <pass-pipeline>: error: option 'block' of pass 'gpu-map' got '32,8,staging=false', which holds option 'staging': pass options are separated by spaces (commas separate the items of a list), e.g. gpu-map{block=32,8 staging=false}
// STRING: error: option 'strategy' of pass 'gpu-map' got 'naive,block=32', which holds option 'block': {{.*}} e.g. gpu-map{strategy=naive block=32}
// TILE: e.g. poly-tile{sizes=4,4 inter=rectangular}
// CHECK: gpu.module @p_kernels
stencil.program @p(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>) params [N >= 3] defaults [N = 8] {
  stencil.apply @S0 writes %B over [1, 1] to [N - 1, N - 1] {
    %c = stencil.access %A[0, 0] : f64
    stencil.yield %c : f64
  }
}
