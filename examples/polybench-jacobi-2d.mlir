// PolyBench jacobi-2d: 2-D 5-point Jacobi, ping-pong between A and B.
//
// For t = 0 .. T-1:
//   S0: B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
//   S1: A[i][j] = 0.2 * (B[i][j] + B[i][j-1] + B[i][j+1] + B[i+1][j] + B[i-1][j])
//   both for 1 <= i < N-1, 1 <= j < N-1 (square N x N arrays); the boundary is never written.
//
// Source: the PolyBench/C stencil kernel jacobi-2d (thesis Table 4.1 takes its 1-D and 2-D
// solvers from PolyBench), written here from the kernel's definition.
// Dependences: DOALL (each statement reads only the other array).
stencil.program @polybench_jacobi_2d(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 10, N = 32] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[0, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s = stencil.access %A[1, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s0 = arith.addf %c, %w : f64
      %s1 = arith.addf %s0, %e : f64
      %s2 = arith.addf %s1, %s : f64
      %s3 = arith.addf %s2, %n : f64
      %fifth = arith.constant 0.2 : f64
      %v = arith.mulf %fifth, %s3 : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %B[0, 0] : f64
      %w = stencil.access %B[0, -1] : f64
      %e = stencil.access %B[0, 1] : f64
      %s = stencil.access %B[1, 0] : f64
      %n = stencil.access %B[-1, 0] : f64
      %s0 = arith.addf %c, %w : f64
      %s1 = arith.addf %s0, %e : f64
      %s2 = arith.addf %s1, %s : f64
      %s3 = arith.addf %s2, %n : f64
      %fifth = arith.constant 0.2 : f64
      %v = arith.mulf %fifth, %s3 : f64
      stencil.yield %v : f64
    }
  }
}
