// gpu-map with a block per tile (the default, gpu-map-tile-launch.mlir): the host sizes an
// inner grid axis to the tile coordinate's range over the launch, which can hold fewer values
// than the tile loop's own bounds give one outer coordinate. Here two statements with shifted
// schedules share the loop: at some wavefronts its bounds start below the range, at values that
// have no tile. The kernel starts the axis at the later of the two, so no tile at the end of
// the loop is lost (before: "A: 2 values differ"; found by a generator of random programs).
// RUN: stencil-run %s --param T=1 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=1},gpu-map)' --target sim --check | FileCheck %s
// RUN: stencil-run %s --param T=4 --param N=16 --param M=16 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=1},gpu-map{staging=false full-tiles=false})' --target sim --check | FileCheck %s
// RUN: stencil-run %s --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=2},gpu-map{block=1})' --target sim --check | FileCheck %s
// CHECK: races 0
// CHECK: check    against the untransformed program on ref (bit-exact): passed
stencil.program @p(%A: !stencil.field<[N, M] x f32>)
    params [T >= 1, N >= 5, M >= 5] defaults [T = 3, N = 6, M = 9] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [2, 2] to [N - 2, M - 2] {
      %a = stencil.access %A[2, 2] : f32
      stencil.yield %a : f32
    }
    // The unused read shapes the schedule (the shifts of S1's rows).
    stencil.apply @S1 writes %A over [2, 2] to [N - 2, M - 2] {
      %b = stencil.access %A[-1, 2] : f32
      %c = stencil.access %A[2, 1] : f32
      stencil.yield %b : f32
    }
  }
}
