// PolyBench heat-3d: 3-D heat equation, explicit finite differences, ping-pong between A and B.
//
// For t = 0 .. T-1:
//   S0: B[i][j][k] = 0.125 * (A[i+1][j][k] - 2 * A[i][j][k] + A[i-1][j][k])
//                  + 0.125 * (A[i][j+1][k] - 2 * A[i][j][k] + A[i][j-1][k])
//                  + 0.125 * (A[i][j][k+1] - 2 * A[i][j][k] + A[i][j][k-1])
//                  + A[i][j][k]
//   S1: A[i][j][k] = the same expression over B
//   both for 1 <= i, j, k < N-1 (cubic N x N x N arrays); the boundary is never written.
//
// Source: the PolyBench/C stencil kernel heat-3d, written here from the kernel's definition.
// Dependences: DOALL (each statement reads only the other array).
stencil.program @polybench_heat_3d(%A: !stencil.field<[N, N, N] x f64>, %B: !stencil.field<[N, N, N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 5, N = 16] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1, 1] to [N - 1, N - 1, N - 1] {
      %c = stencil.access %A[0, 0, 0] : f64
      %ip = stencil.access %A[1, 0, 0] : f64
      %im = stencil.access %A[-1, 0, 0] : f64
      %jp = stencil.access %A[0, 1, 0] : f64
      %jm = stencil.access %A[0, -1, 0] : f64
      %kp = stencil.access %A[0, 0, 1] : f64
      %km = stencil.access %A[0, 0, -1] : f64
      %eighth = arith.constant 0.125 : f64
      %two = arith.constant 2.0 : f64
      %c2 = arith.mulf %two, %c : f64
      %di0 = arith.subf %ip, %c2 : f64
      %di = arith.addf %di0, %im : f64
      %dj0 = arith.subf %jp, %c2 : f64
      %dj = arith.addf %dj0, %jm : f64
      %dk0 = arith.subf %kp, %c2 : f64
      %dk = arith.addf %dk0, %km : f64
      %ti = arith.mulf %eighth, %di : f64
      %tj = arith.mulf %eighth, %dj : f64
      %tk = arith.mulf %eighth, %dk : f64
      %u0 = arith.addf %ti, %tj : f64
      %u1 = arith.addf %u0, %tk : f64
      %v = arith.addf %u1, %c : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1, 1, 1] to [N - 1, N - 1, N - 1] {
      %c = stencil.access %B[0, 0, 0] : f64
      %ip = stencil.access %B[1, 0, 0] : f64
      %im = stencil.access %B[-1, 0, 0] : f64
      %jp = stencil.access %B[0, 1, 0] : f64
      %jm = stencil.access %B[0, -1, 0] : f64
      %kp = stencil.access %B[0, 0, 1] : f64
      %km = stencil.access %B[0, 0, -1] : f64
      %eighth = arith.constant 0.125 : f64
      %two = arith.constant 2.0 : f64
      %c2 = arith.mulf %two, %c : f64
      %di0 = arith.subf %ip, %c2 : f64
      %di = arith.addf %di0, %im : f64
      %dj0 = arith.subf %jp, %c2 : f64
      %dj = arith.addf %dj0, %jm : f64
      %dk0 = arith.subf %kp, %c2 : f64
      %dk = arith.addf %dk0, %km : f64
      %ti = arith.mulf %eighth, %di : f64
      %tj = arith.mulf %eighth, %dj : f64
      %tk = arith.mulf %eighth, %dk : f64
      %u0 = arith.addf %ti, %tj : f64
      %u1 = arith.addf %u0, %tk : f64
      %v = arith.addf %u1, %c : f64
      stencil.yield %v : f64
    }
  }
}
