// Compile-time case (issue 16 item 7): 30 applies in one time loop, a chain of 2-D 5-point
// stencils ping-ponging between A and B. Before the budget work, poly-schedule took 161 s on
// 20 such applies. bench/compile_time.py times it.
stencil.program @chain30(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 2, N = 16, M = 16] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S6 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S7 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S8 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S9 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S10 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S11 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S12 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S13 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S14 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S15 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S16 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S17 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S18 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S19 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S20 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S21 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S22 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S23 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S24 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S25 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S26 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S27 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S28 writes %B over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
    stencil.apply @S29 writes %A over [1, 1] to [N - 1, M - 1] {
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
      %v = arith.mulf %s3, %f : f64
      stencil.yield %v : f64
    }
  }
}
