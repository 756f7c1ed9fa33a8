// gpu-map{strategy=streaming} where a ring-only field's last version is read by nothing (it only
// goes back to global memory): B is written by S0, read past its box by S1 (so B is ring-only,
// not loaded), then rewritten by S2 over the same box, and nothing reads S2's version. That last
// version keeps no ring: its instance writes its value straight back, inside B's box, after the
// time loop's last step only. Where the last launch runs fewer steps than `time-tile` (T = 3 with
// two steps per launch, T = 5 with three), the steps it does not run keep the previous version's
// value, and that value goes back too: bit-exact and race-free on the simulator.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=8,16 time-tile=2})' | FileCheck %s --check-prefix=MAP
// MAP: stencil.gpu_mapping = {block = [32, 8, 1], second_buffers = ["A"]
// RUN: stencil-run %s --param T=3 --param N=16 --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=8,16 time-tile=2})' --target sim --check | FileCheck %s
// RUN: stencil-run %s --param T=5 --param N=21 --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=8,8 time-tile=3 block=8,8})' --target sim --check | FileCheck %s
// RUN: stencil-run %s --param T=3 --param N=16 --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=4,8 time-tile=2 block=8,4 prefetch=true})' --target sim --check | FileCheck %s
// RUN: stencil-run %s --param T=4 --param N=16 --pass-pipeline='builtin.module(gpu-map{strategy=streaming tile=8,16 time-tile=2})' --target sim --check | FileCheck %s
// CHECK: sim {{.*}} races 0
// CHECK: check {{.*}}: passed
stencil.program @rot(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 3, N = 16] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[0, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s0 = arith.addf %c, %w : f64
      stencil.yield %s0 : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %B[0, 0] : f64
      %w = stencil.access %B[0, -1] : f64
      %n = stencil.access %B[-1, 0] : f64
      %s0 = arith.addf %c, %w : f64
      %s1 = arith.addf %s0, %n : f64
      stencil.yield %s1 : f64
    }
    stencil.apply @S2 writes %B over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[0, 0] : f64
      %h = arith.constant 0.5 : f64
      %v = arith.mulf %c, %h : f64
      stencil.yield %v : f64
    }
  }
}
