// A 3-D Jacobi step with a source term read through a general index (`src[t]`, a 1-D field no
// apply writes), and a 2-D one with a coefficient read at a fixed element: the temporal tiles
// read such fields in global memory (tests/lit/passes/gpu-map-general-reads.mlir).
stencil.program @source_3d(%A: !stencil.field<[N, N, N] x f64>, %B: !stencil.field<[N, N, N] x f64>, %src: !stencil.field<[T] x f64>)
    params [T >= 1, N >= 3] defaults [T = 4, N = 11] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1, 1] to [N - 1, N - 1, N - 1] {
      %a = stencil.access %A[-1, 0, 0] : f64
      %b = stencil.access %A[0, 1, 0] : f64
      %c = stencil.access %A[0, 0, -1] : f64
      %s = stencil.access %src at [%t] : f64
      %x = arith.addf %a, %b : f64
      %y = arith.addf %x, %c : f64
      %z = arith.addf %y, %s : f64
      stencil.yield %z : f64
    }
    stencil.apply @S1 writes %A over [1, 1, 1] to [N - 1, N - 1, N - 1] {
      %b = stencil.access %B[0, 0, 0] : f64
      stencil.yield %b : f64
    }
  }
}

stencil.program @coefficient_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>, %w: !stencil.field<[4] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 5, N = 13, M = 17] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %a = stencil.access %A[-1, 0] : f64
      %b = stencil.access %A[0, 1] : f64
      %k = stencil.access %w at [2] : f64
      %x = arith.addf %a, %b : f64
      %y = arith.mulf %x, %k : f64
      stencil.yield %y : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}

// A 2-D program reading a 3-D table through a general index: 2-D for strategy=auto (the rank of
// its applies, not of its largest field).
stencil.program @table_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>, %Q: !stencil.field<[2, 3, 4] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 3, N = 9, M = 12] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %a = stencil.access %A[0, -1] : f64
      %q = stencil.access %Q at [1, 2, 3] : f64
      %x = arith.mulf %a, %q : f64
      stencil.yield %x : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
