// Compile-time case (issue 16 item 7): three nested stencil.iterate loops with applies at
// every level (an imperfect nest of 2-D Jacobi steps). Before the budget work, poly-codegen
// took minutes on three nested iterates. bench/compile_time.py times it.
stencil.program @nested3(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, U >= 1, V >= 1, N >= 3, M >= 3] defaults [T = 2, U = 2, V = 2, N = 16, M = 16] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s0 = arith.addf %n, %s : f64
      %s1 = arith.addf %s0, %w : f64
      %s2 = arith.addf %s1, %e : f64
      %s3 = arith.addf %s2, %c : f64
      %f = arith.constant 0.2 : f64
      %r = arith.mulf %s3, %f : f64
      stencil.yield %r : f64
    }
    stencil.iterate %u = 0 to U {
      stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
        %c = stencil.access %B[0, 0] : f64
        %n = stencil.access %B[-1, 0] : f64
        %s = stencil.access %B[1, 0] : f64
        %w = stencil.access %B[0, -1] : f64
        %e = stencil.access %B[0, 1] : f64
        %s0 = arith.addf %n, %s : f64
        %s1 = arith.addf %s0, %w : f64
        %s2 = arith.addf %s1, %e : f64
        %s3 = arith.addf %s2, %c : f64
        %f = arith.constant 0.2 : f64
        %r = arith.mulf %s3, %f : f64
        stencil.yield %r : f64
      }
      stencil.iterate %v = 0 to V {
        stencil.apply @S2 writes %B over [1, 1] to [N - 1, M - 1] {
          %c = stencil.access %A[0, 0] : f64
          %n = stencil.access %A[-1, 0] : f64
          %s = stencil.access %A[1, 0] : f64
          %w = stencil.access %A[0, -1] : f64
          %e = stencil.access %A[0, 1] : f64
          %s0 = arith.addf %n, %s : f64
          %s1 = arith.addf %s0, %w : f64
          %s2 = arith.addf %s1, %e : f64
          %s3 = arith.addf %s2, %c : f64
          %f = arith.constant 0.2 : f64
          %r = arith.mulf %s3, %f : f64
          stencil.yield %r : f64
        }
        stencil.apply @S3 writes %A over [1, 1] to [N - 1, M - 1] {
          %c = stencil.access %B[0, 0] : f64
          %n = stencil.access %B[-1, 0] : f64
          %s = stencil.access %B[1, 0] : f64
          %w = stencil.access %B[0, -1] : f64
          %e = stencil.access %B[0, 1] : f64
          %s0 = arith.addf %n, %s : f64
          %s1 = arith.addf %s0, %w : f64
          %s2 = arith.addf %s1, %e : f64
          %s3 = arith.addf %s2, %c : f64
          %f = arith.constant 0.2 : f64
          %r = arith.mulf %s3, %f : f64
          stencil.yield %r : f64
        }
      }
      stencil.apply @S4 writes %B over [1, 1] to [N - 1, M - 1] {
        %c = stencil.access %A[0, 0] : f64
        %n = stencil.access %A[-1, 0] : f64
        %s = stencil.access %A[1, 0] : f64
        %w = stencil.access %A[0, -1] : f64
        %e = stencil.access %A[0, 1] : f64
        %s0 = arith.addf %n, %s : f64
        %s1 = arith.addf %s0, %w : f64
        %s2 = arith.addf %s1, %e : f64
        %s3 = arith.addf %s2, %c : f64
        %f = arith.constant 0.2 : f64
        %r = arith.mulf %s3, %f : f64
        stencil.yield %r : f64
      }
    }
    stencil.apply @S5 writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %B[0, 0] : f64
      %n = stencil.access %B[-1, 0] : f64
      %s = stencil.access %B[1, 0] : f64
      %w = stencil.access %B[0, -1] : f64
      %e = stencil.access %B[0, 1] : f64
      %s0 = arith.addf %n, %s : f64
      %s1 = arith.addf %s0, %w : f64
      %s2 = arith.addf %s1, %e : f64
      %s3 = arith.addf %s2, %c : f64
      %f = arith.constant 0.2 : f64
      %r = arith.mulf %s3, %f : f64
      stencil.yield %r : f64
    }
  }
}
