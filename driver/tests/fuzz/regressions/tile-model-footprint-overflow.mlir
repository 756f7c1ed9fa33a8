// fuzz-pipeline: builtin.module(poly-schedule,poly-tile{sizes=4294967296},gpu-map{strategy=auto block=auto})
// Found by fuzz_pipelines (2026-11-26): gpu-map{block=auto} searched blocks for tiles of 2^32,
// and the tile model's staged-footprint size multiplied their extents unchecked (a panic in
// debug builds). The footprint arithmetic is checked now: such tiles are pruned or refused.
// PolyBench seidel-2d: 2-D 9-point Gauss-Seidel, in place.
//
// For t = 0 .. T-1, (i, j) lexicographically increasing:
//   S: A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
//               + A[i][j-1]   + A[i][j]   + A[i][j+1]
//               + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9     for 1 <= i < N-1, 1 <= j < N-1
// The row above and the point to the left are new values of this sweep, the rest old ones.
//
// Source: the PolyBench/C stencil kernel seidel-2d, written here from the kernel's definition.
// Dependences: DOACROSS (flow dependences (0, 1, -1), (0, 1, 0), (0, 1, 1), (0, 0, 1) within a
// sweep and their counterparts across sweeps: no loop of the original nest is parallel).
stencil.program @polybench_seidel_2d(%A: !stencil.field<[N, N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 10, N = 32] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, N - 1] {
      %nw = stencil.access %A[-1, -1] : f64
      %n = stencil.access %A[-1, 0] : f64
      %ne = stencil.access %A[-1, 1] : f64
      %w = stencil.access %A[0, -1] : f64
      %c = stencil.access %A[0, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %sw = stencil.access %A[1, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %se = stencil.access %A[1, 1] : f64
      %s0 = arith.addf %nw, %n : f64
      %s1 = arith.addf %s0, %ne : f64
      %s2 = arith.addf %s1, %w : f64
      %s3 = arith.addf %s2, %c : f64
      %s4 = arith.addf %s3, %e : f64
      %s5 = arith.addf %s4, %sw : f64
      %s6 = arith.addf %s5, %s : f64
      %s7 = arith.addf %s6, %se : f64
      %nine = arith.constant 9.0 : f64
      %v = arith.divf %s7, %nine : f64
      stencil.yield %v : f64
    }
  }
}
