// Pass options are separated by spaces (commas separate list items): options written with
// commas are refused with the pipeline written the right way.
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{block=32,8,staging=false})' 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=naive,block=32})' 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4,4,inter=rectangular})' 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{block=32,8 staging=false})' | FileCheck %s
// Lists may also be written as reports print tile and block sizes (16x4x16x8, 32x8), so that a
// reported choice pastes back into a pipeline: the same output as with commas.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4,2},gpu-map{block=32,4})' -o %t.commas
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4x2},gpu-map{block=32x4})' -o %t.times
// RUN: diff %t.commas %t.times
// RUN: FileCheck %s --check-prefix=TIMES < %t.times
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4y2})' 2>&1 | FileCheck %s --check-prefix=BADLIST
// An empty item is refused, not dropped (`block=x` used to run the default block):
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive block=x})' 2>&1 | FileCheck %s --check-prefix=EMPTYITEM
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4,,4})' 2>&1 | FileCheck %s --check-prefix=EMPTYSIZE
// An option given without a value is refused, not the default:
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive block=})' 2>&1 | FileCheck %s --check-prefix=NOVALUE
// A repeated option is refused (which one was meant?), as a repeated --param is:
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive naive=false})' 2>&1 | FileCheck %s --check-prefix=TWICE
// A calibration file that cannot be read is refused where it is named, with given sizes too
// (gpu-map{block=auto} and staging=auto search with it later):
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4 calibration=%t.missing.json})' 2>&1 | FileCheck %s --check-prefix=CALIBRATION
// Blocks CUDA cannot launch are refused where they are written (at most 64 threads along z):
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive block=1,1,128})' 2>&1 | FileCheck %s --check-prefix=BLOCKZ
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{naive block=4294967296,4294967296})' 2>&1 | FileCheck %s --check-prefix=BLOCKBIG

// LIST: <pass-pipeline>: error: option 'block' of pass 'gpu-map' got '32,8,staging=false', which holds option 'staging': pass options are separated by spaces (commas separate the items of a list), e.g. gpu-map{block=32,8 staging=false}
// STRING: error: option 'strategy' of pass 'gpu-map' got 'naive,block=32', which holds option 'block': {{.*}} e.g. gpu-map{strategy=naive block=32}
// TILE: e.g. poly-tile{sizes=4,4 inter=rectangular}
// CHECK: gpu.module @p_kernels
// TIMES: stencil.gpu_mapping = {block = [32, 4, 1]{{.*}}tile = [4, 2]}
// EMPTYITEM: <pass-pipeline>: error: option 'block' of pass 'gpu-map': expected 'auto' or 1 to 3 block sizes such as 32,8 or 32x8, got 'x'
// EMPTYSIZE: error: option 'sizes' of pass 'poly-tile': expected 'auto' or a list of integers such as 32,32 or 32x32, got '4,,4'
// NOVALUE: <pass-pipeline>: error: option 'block' of pass 'gpu-map' is given without a value; leave it out for its default
// TWICE: <pass-pipeline>: error: option 'naive' of pass 'gpu-map' is given more than once; give it once
// CALIBRATION: <pass-pipeline>: error: option 'calibration' of pass 'poly-tile': calibration file {{.*}}missing.json: cannot read it
// BLOCKZ: <pass-pipeline>: error: option 'block' of pass 'gpu-map': at most 64 threads along z (CUDA's limit), got 128
// BLOCKBIG: <pass-pipeline>: error: option 'block' of pass 'gpu-map': at most 1024 threads per block (CUDA's limit)
// BADLIST: error: option 'sizes' of pass 'poly-tile': expected 'auto' or a list of integers such as 32,32 or 32x32, got '4y2'
stencil.program @p(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>) params [N >= 3] defaults [N = 8] {
  stencil.apply @S0 writes %B over [1, 1] to [N - 1, N - 1] {
    %c = stencil.access %A[0, 0] : f64
    stencil.yield %c : f64
  }
}
