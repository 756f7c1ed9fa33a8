// PolyBench jacobi-1d: 1-D 3-point Jacobi, ping-pong between A and B.
//
// For t = 0 .. T-1:
//   S0: B[i] = 0.33333 * (A[i-1] + A[i] + A[i+1])     for 1 <= i < N-1
//   S1: A[i] = 0.33333 * (B[i-1] + B[i] + B[i+1])     for 1 <= i < N-1
// (0.33333, not 1/3: the benchmark's constant). A[0], A[N-1], B[0], B[N-1] are never written.
//
// Source: the PolyBench/C stencil kernel jacobi-1d (thesis Table 4.1 takes its 1-D and 2-D
// solvers from PolyBench), written here from the kernel's definition.
// Dependences: DOALL (each statement reads only the other array; the imperfect nest S0; S1
// carries the flow dependences B -> S1 and A -> next S0, and false anti dependences).
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
