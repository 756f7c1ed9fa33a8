// fuzz-pipeline: builtin.module(gpu-map{naive})
// fuzz-flags: generic
// Found by fuzz_pipelines: gpu-map built arith ops without their default-valued
// 'overflowFlags' property, which the parser fills in, so the generic print changed after a
// round trip. The generic printer now prints default-valued properties as parsing fills them.
stencil.program @polybench_jacobi_1d(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 10, N = 64] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1] to [N - 1] {
      %w = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s0 = arith.addf %w, %c : f64
      %s1 = arith.addf %s0, %e : f64
      %third = arith.constant 0.33333 : f64
      %v = arith.mulf %third, %s1 : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1] to [N - 1] {
      %w = stencil.access %B[-1] : f64
      %c = stencil.access %B[0] : f64
      %e = stencil.access %B[1] : f64
      %s0 = arith.addf %w, %c : f64
      %s1 = arith.addf %s0, %e : f64
      %third = arith.constant 0.33333 : f64
      %v = arith.mulf %third, %s1 : f64
      stencil.yield %v : f64
    }
  }
}
