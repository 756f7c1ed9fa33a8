// fuzz-pipeline: builtin.module(gpu-map{strategy=overlapped})
// Found by fuzz_pipelines: gpu-map recorded 'stencil.gpu_mapping' with its entries in
// insertion order (strategy first), but a parsed dictionary is sorted by name, so the printed
// program printed differently after a round trip. The dictionary is built sorted now.
stencil.program @heat(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 4, N = 16, M = 16] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s0 = arith.addf %c, %w : f64
      %s1 = arith.addf %s0, %e : f64
      stencil.yield %s1 : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %B[0, 0] : f64
      stencil.yield %c : f64
    }
  }
}
