// An experiment input (bench/inputs/README.md): examples/sor-2d-5pt.mlir with a hand-written
// tiling band whose innermost point row moves along the array's rows.
//
// poly-schedule's band for 2-D SOR is (2t+i+j, t+i+j, t+j). Inside an intra-tile wavefront step
// (2t+i+j fixed) consecutive threads (x) step along the last row with the other fixed, by the
// band inverse's last column: (t, i, j) += (0, -1, 1), an address stride of M - 1 elements, so
// tiles on global memory load nothing coalesced (staged tiles copy their boxes row by row).
//
// The band below, (2t+i+j, 2t+j, t+i), is legal (every row is non-negative on the dependences
// (0,1,0), (0,0,1), (1,-1,0), (1,0,-1), (1,0,0); poly-tile checks it), keeps the balanced first
// row and is unimodular (det 1). Its first two rows vanish on (1, 0, -2), so threads step by
// (t, j) += (1, -2): 2 elements apart, the least a balanced first row allows.
// The GPU bundle times both bands with the layout the tile model picks on global memory at
// 16384^2, T=50 for poly-schedule's band (32x32x8 on 8x16x1; tools/gpu-bundle, EXPERIMENTS).
//
// 2-D SOR, 5 points ("2-D SOR-5" of thesis Table 4.1 and Ch. 5; Eq. (6.4) of Ch. 6).
//
// For t = 0 .. T-1, in place, (i, j) lexicographically increasing:
//   S: A[i][j] = (1 - omega) * A[i][j]
//              + (omega / 4) * (A[i-1][j] + A[i][j-1] + A[i+1][j] + A[i][j+1])
//                                          for 1 <= i < N-1, 1 <= j < M-1
// A[i-1][j] and A[i][j-1] are new values of this sweep, A[i+1][j] and A[i][j+1] old ones,
// exactly as thesis Eq. (6.4) prescribes. The boundary of A is fixed (thesis: "the boundary
// condition is set to be 0"; here it is whatever the initial field holds).
//
// Source: seed 003 (P. Di's thesis), Sec. 6.3 Eq. (6.2)-(6.4), Table 4.1, Ch. 5 experiments.
// Dependences: DOACROSS. Flow dependences (0, 1, 0) and (0, 0, 1) within a sweep and (1, -1, 0),
// (1, 0, -1) across sweeps (plus anti and output ones): no loop of the original nest is
// parallel; a wavefront is needed.
stencil.program @sor_2d_5pt(%A: !stencil.field<[N, M] x f64>, %omega: f64)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 10, N = 32, M = 32, omega = 1.5] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] attributes {poly.bands = array<i64: 0, 0, 0>, poly.schedule = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 * 2 + d1 + d2, d0 * 2 + d2, d0 + d1)>} {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %omega, %quarter : f64
      %old = arith.mulf %keep, %c : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %e : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}
