// fuzz-pipeline: builtin.module(gpu-map{strategy=streaming tile=32,8 time-tile=9223372036854775807})
// fuzz-flags: split
// Found by fuzz_pipelines (2026-11-26): gpu-map{strategy=streaming} built its schedule of
// time-tile x applies instances before anything bounded it, so a huge time-tile hung; the
// instances are now bounded (at most 256) with a located error.
// 2-D FDTD (finite-difference time-domain, Yee scheme, TE mode) ("2-D FDTD" of thesis
// Table 4.1).
//
// For t = 0 .. T-1, three statements in order:
//   S0: ey[i][j] = ey[i][j] - ce * (hz[i][j] - hz[i-1][j])      for 1 <= i < NX, 0 <= j < NY
//   S1: ex[i][j] = ex[i][j] - ce * (hz[i][j] - hz[i][j-1])      for 0 <= i < NX, 1 <= j < NY
//   S2: hz[i][j] = hz[i][j] - ch * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
//   S2: hz[i][j] = hz[i][j] - ch * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
//                                                               for 0 <= i < NX-1, 0 <= j < NY-1
// The field coefficients ce and ch are scalar arguments (0.5 and 0.7 by default). Unlike
// polybench-fdtd-2d.mlir this version has no excitation source: row 0 of ey keeps its
// initial values.
//
// Source: seed 003 (P. Di's thesis), Table 4.1 (taken from PolyBench there; the thesis gives
// no code, the updates are the standard Yee-scheme differences).
// Dependences: DOALL. Each statement's (i, j) nest is parallel (every statement reads only the
// other fields and its own point); S0, S1 -> S2 and S2 -> next S0, S1 are flow dependences
// carried by the imperfect nest, and the anti dependences between them are the false
// dependences of thesis Sec. 4.2.
stencil.program @fdtd_2d(%ex: !stencil.field<[NX, NY] x f64>, %ey: !stencil.field<[NX, NY] x f64>,
                         %hz: !stencil.field<[NX, NY] x f64>, %ce: f64, %ch: f64)
    params [T >= 1, NX >= 2, NY >= 2] defaults [T = 10, NX = 32, NY = 32, ce = 0.5, ch = 0.7] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %ey over [1, 0] to [NX, NY] {
      %e = stencil.access %ey[0, 0] : f64
      %h = stencil.access %hz[0, 0] : f64
      %hn = stencil.access %hz[-1, 0] : f64
      %d = arith.subf %h, %hn : f64
      %c = arith.mulf %ce, %d : f64
      %v = arith.subf %e, %c : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %ex over [0, 1] to [NX, NY] {
      %e = stencil.access %ex[0, 0] : f64
      %h = stencil.access %hz[0, 0] : f64
      %hw = stencil.access %hz[0, -1] : f64
      %d = arith.subf %h, %hw : f64
      %c = arith.mulf %ce, %d : f64
      %v = arith.subf %e, %c : f64
      stencil.yield %v : f64
    }
    stencil.apply @S2 writes %hz over [0, 0] to [NX - 1, NY - 1] {
      %h = stencil.access %hz[0, 0] : f64
      %x = stencil.access %ex[0, 0] : f64
      %xe = stencil.access %ex[0, 1] : f64
      %y = stencil.access %ey[0, 0] : f64
      %ys = stencil.access %ey[1, 0] : f64
      %dx = arith.subf %xe, %x : f64
      %dy = arith.subf %ys, %y : f64
      %curl = arith.addf %dx, %dy : f64
      %c = arith.mulf %ch, %curl : f64
      %v = arith.subf %h, %c : f64
      stencil.yield %v : f64
    }
  }
}
