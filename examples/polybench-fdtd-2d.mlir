// PolyBench fdtd-2d: 2-D finite-difference time-domain (Yee scheme) with an excitation source.
//
// For t = 0 .. T-1, four statements in order:
//   S0: ey[0][j] = fict[t]                                          for 0 <= j < NY
//   S1: ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i-1][j])        for 1 <= i < NX, 0 <= j < NY
//   S2: ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j-1])        for 0 <= i < NX, 1 <= j < NY
//   S3: hz[i][j] = hz[i][j] - 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j])
//                                                                   for 0 <= i < NX-1, 0 <= j < NY-1
// S3's sum is grouped as C evaluates it, ((ex[i][j+1] - ex[i][j]) + ey[i+1][j]) - ey[i][j],
// so that the results are bit-identical to PolyBench's (driver/tests/polybench_c.rs checks).
// fict (PolyBench's `_fict_`) holds the source value of each time step: S0 reads it at the time
// iterator, the general affine access `%fict at [%t]`.
//
// Source: the PolyBench/C stencil kernel fdtd-2d (also the "2-D FDTD" of thesis Table 4.1,
// see fdtd-2d.mlir), written here from the kernel's definition.
// Dependences: DOALL (every statement's (i, j) nest is parallel; S0..S3 form an imperfect nest
// whose inter-statement flow and anti dependences are carried by t and statement order).
stencil.program @polybench_fdtd_2d(%ex: !stencil.field<[NX, NY] x f64>, %ey: !stencil.field<[NX, NY] x f64>,
                                   %hz: !stencil.field<[NX, NY] x f64>, %fict: !stencil.field<[T] x f64>)
    params [T >= 1, NX >= 2, NY >= 2] defaults [T = 10, NX = 24, NY = 32] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %ey over [0, 0] to [1, NY] {
      %f = stencil.access %fict at [%t] : f64
      stencil.yield %f : f64
    }
    stencil.apply @S1 writes %ey over [1, 0] to [NX, NY] {
      %e = stencil.access %ey[0, 0] : f64
      %h = stencil.access %hz[0, 0] : f64
      %hn = stencil.access %hz[-1, 0] : f64
      %d = arith.subf %h, %hn : f64
      %half = arith.constant 0.5 : f64
      %c = arith.mulf %half, %d : f64
      %v = arith.subf %e, %c : f64
      stencil.yield %v : f64
    }
    stencil.apply @S2 writes %ex over [0, 1] to [NX, NY] {
      %e = stencil.access %ex[0, 0] : f64
      %h = stencil.access %hz[0, 0] : f64
      %hw = stencil.access %hz[0, -1] : f64
      %d = arith.subf %h, %hw : f64
      %half = arith.constant 0.5 : f64
      %c = arith.mulf %half, %d : f64
      %v = arith.subf %e, %c : f64
      stencil.yield %v : f64
    }
    stencil.apply @S3 writes %hz over [0, 0] to [NX - 1, NY - 1] {
      %h = stencil.access %hz[0, 0] : f64
      %x = stencil.access %ex[0, 0] : f64
      %xe = stencil.access %ex[0, 1] : f64
      %y = stencil.access %ey[0, 0] : f64
      %ys = stencil.access %ey[1, 0] : f64
      %dx = arith.subf %xe, %x : f64
      %dxy = arith.addf %dx, %ys : f64
      %curl = arith.subf %dxy, %y : f64
      %coef = arith.constant 0.7 : f64
      %c = arith.mulf %coef, %curl : f64
      %v = arith.subf %h, %c : f64
      stencil.yield %v : f64
    }
  }
}
