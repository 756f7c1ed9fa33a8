// Fuzz corpus seed: jacobi-2d-5pt.mlir after builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen) (regenerate: stencil-opt examples/jacobi-2d-5pt.mlir -p 'builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen)' )
module {
  func.func @jacobi_2d_5pt(%arg0: memref<?x?xf64>, %arg1: memref<?x?xf64>, %arg2: index, %arg3: index, %arg4: index) attributes {stencil.arg_names = ["A", "B"], stencil.defaults = {M = 32 : i64, N = 32 : i64, T = 10 : i64}, stencil.field_types = ["[N, M] x f64", "[N, M] x f64"], stencil.param_mins = [1, 3, 3], stencil.param_names = ["T", "N", "M"]} {
    affine.for %arg5 = 0 to affine_map<()[s0, s1, s2] -> ((s0 * 5 + s1 + s2 - 7) floordiv 4 + 1)>()[%arg2, %arg3, %arg4] {
      affine.parallel (%arg6) = (max((%arg5 * 4 - symbol(%arg2) * 3 - symbol(%arg4) + 4) ceildiv 4, (%arg5 * 4 - symbol(%arg2) * 2 - symbol(%arg4) + 3) ceildiv 6, (%arg5 * 4 - symbol(%arg4)) ceildiv 10, 0)) to (min((symbol(%arg2) * 2 + symbol(%arg3) - 3) floordiv 4 + 1, %arg5 + 1, (%arg5 * 4 + symbol(%arg3)) floordiv 8 + 1, (%arg5 * 8 + symbol(%arg3) * 3 + 4) floordiv 20 + 1)) {
        affine.parallel (%arg7) = (max((%arg5 * 4 - %arg6 * 4 - symbol(%arg2) + 1) ceildiv 4, (%arg5 * 2 - %arg6 * 2) ceildiv 3, (%arg5 * 2 - %arg6 * 3) ceildiv 2, (%arg6 * 4 - symbol(%arg3)) ceildiv 4)) to (min((symbol(%arg2) * 2 + symbol(%arg4) - 3) floordiv 4 + 1, %arg6 + symbol(%arg4) floordiv 4 + 1, %arg5 - %arg6 + 1, (%arg5 * 8 - %arg6 * 12 + symbol(%arg3) + 5) floordiv 8 + 1, (%arg5 * 8 - %arg6 * 8 + symbol(%arg4) + 5) floordiv 12 + 1)) {
          affine.for %arg8 = max affine_map<(d0, d1, d2)[s0, s1] -> (d0 * 20 - d1 * 20 - d2 * 20 + 2, d0 * 12 - d1 * 8 - d2 * 12 + 1, d0 * 12 - d1 * 12 - d2 * 8 + 1, d0 * 4, (d1 * 20 - s0 * 3 + 7) ceildiv 2, (d1 * 12 + d2 * 8 - s0 + 1) ceildiv 2, (d1 * 8 + d2 * 12 - s1 + 1) ceildiv 2, (d2 * 20 - s1 * 3 + 7) ceildiv 2)>(%arg5, %arg6, %arg7)[%arg3, %arg4] to min affine_map<(d0, d1, d2)[s0, s1, s2] -> (s0 * 5 + s1 + s2 - 6, d2 * 4 + s0 * 3 + s1, d2 * 10 + s1 + 5, d1 * 4 + s0 * 3 + s2, d1 * 4 + d2 * 4 + s0 + 6, d1 * 4 + d2 * 6 + 8, d1 * 6 + d2 * 4 + 8, d1 * 10 + s2 + 5, d0 * 4 + 10, d0 * 12 - d1 * 12 - d2 * 8 + s1 + 12, d0 * 12 - d1 * 8 - d2 * 12 + s2 + 12, d0 * 20 - d1 * 20 - d2 * 20 + s1 + s2 + 14)>(%arg5, %arg6, %arg7)[%arg2, %arg3, %arg4] {
            affine.parallel (%arg9) = (max(%arg5 * 8 - %arg6 * 8 - %arg7 * 8 + 1, %arg6 * 4, (%arg8 * 2 - symbol(%arg4) * 2 + 7) ceildiv 5, %arg8 - symbol(%arg2) * 3 - symbol(%arg4) + 4, %arg7 * -4 + %arg8 - symbol(%arg2) - 2, %arg7 * -6 + %arg8 - 4, (%arg7 * -8 + %arg8 * 2 - 5) ceildiv 3, %arg5 * -4 + %arg6 * 4 + %arg8 - 6, %arg5 * -12 + %arg6 * 12 + %arg7 * 12 + %arg8 - symbol(%arg4) - 8)) to (min(%arg5 * -12 + %arg6 * 12 + %arg7 * 12 + %arg8, %arg5 * -4 + %arg6 * 4 + %arg8 + 1, (%arg7 * -12 + %arg8 * 2 + symbol(%arg4) - 1) floordiv 2 + 1, (%arg7 * -8 + %arg8 * 2 + symbol(%arg3) - 1) floordiv 3 + 1, symbol(%arg2) * 2 + symbol(%arg3) - 2, (%arg8 * 2 + symbol(%arg3) * 3 - 7) floordiv 5 + 1, %arg6 * 4 + 4, %arg5 * 8 - %arg6 * 8 - %arg7 * 8 + symbol(%arg3) + 6)) {
              affine.parallel (%arg10) = (max(%arg7 * 4, (%arg8 * 2 - %arg9 * 2 + 1) ceildiv 3, (%arg8 * 2 - %arg9 * 3 + 1) ceildiv 2, %arg8 - %arg9 - symbol(%arg2) + 1, %arg5 * -4 + %arg6 * 4 + %arg7 * 4 + %arg8 - %arg9 - 3)) to (min(%arg5 * -4 + %arg6 * 4 + %arg7 * 4 + %arg8 - %arg9 + 1, (%arg8 * 2 - %arg9 * 3 + symbol(%arg3) - 1) floordiv 2 + 1, (%arg8 * 2 - %arg9 * 2 + symbol(%arg4) - 1) floordiv 3 + 1, %arg7 * 4 + 4)) {
                affine.if affine_set<(d0, d1, d2)[s0, s1] : (d0 * 2 - d1 * 3 - d2 * 2 + s0 - 2 >= 0, d0 * 2 - d1 * 2 - d2 * 3 + s1 - 2 >= 0)>(%arg8, %arg9, %arg10)[%arg3, %arg4] {
                  %0 = affine.load %arg0[%arg8 * -2 + %arg9 * 3 + %arg10 * 2, %arg8 * -2 + %arg9 * 2 + %arg10 * 3] : memref<?x?xf64>
                  %1 = affine.load %arg0[%arg8 * -2 + %arg9 * 3 + %arg10 * 2 - 1, %arg8 * -2 + %arg9 * 2 + %arg10 * 3] : memref<?x?xf64>
                  %2 = affine.load %arg0[%arg8 * -2 + %arg9 * 3 + %arg10 * 2 + 1, %arg8 * -2 + %arg9 * 2 + %arg10 * 3] : memref<?x?xf64>
                  %3 = affine.load %arg0[%arg8 * -2 + %arg9 * 3 + %arg10 * 2, %arg8 * -2 + %arg9 * 2 + %arg10 * 3 - 1] : memref<?x?xf64>
                  %4 = affine.load %arg0[%arg8 * -2 + %arg9 * 3 + %arg10 * 2, %arg8 * -2 + %arg9 * 2 + %arg10 * 3 + 1] : memref<?x?xf64>
                  %5 = arith.addf %0, %1 : f64
                  %6 = arith.addf %5, %2 : f64
                  %7 = arith.addf %6, %3 : f64
                  %8 = arith.addf %7, %4 : f64
                  %cst = arith.constant 5.000000e+00 : f64
                  %9 = arith.divf %8, %cst : f64
                  affine.store %9, %arg1[%arg8 * -2 + %arg9 * 3 + %arg10 * 2, %arg8 * -2 + %arg9 * 2 + %arg10 * 3] : memref<?x?xf64>
                }
                affine.if affine_set<(d0, d1, d2) : (d0 * -2 + d1 * 3 + d2 * 2 - 2 >= 0, d0 * -2 + d1 * 2 + d2 * 3 - 2 >= 0)>(%arg8, %arg9, %arg10) {
                  %0 = affine.load %arg1[%arg8 * -2 + %arg9 * 3 + %arg10 * 2 - 1, %arg8 * -2 + %arg9 * 2 + %arg10 * 3 - 1] : memref<?x?xf64>
                  affine.store %0, %arg0[%arg8 * -2 + %arg9 * 3 + %arg10 * 2 - 1, %arg8 * -2 + %arg9 * 2 + %arg10 * 3 - 1] : memref<?x?xf64>
                }
              }
            }
          }
        }
      }
    }
    return
  }
}
