// 2-D SOR (thesis Eq. 6.4) with the relaxation factor as an argument, as a C front end emits
// it: in place, DOACROSS, and the loop-invariant parts of the update (`1 - omega`,
// `omega / 4`) hoisted to the top of the function (the raise copies them into the statement).
//
//   void sor(int tsteps, int n, int m, double omega, double A[n][m]) {
//     for (t = 0; t < tsteps; t++)
//       for (i = 1; i < n - 1; i++)
//         for (j = 1; j < m - 1; j++)
//           A[i][j] = (1 - omega) * A[i][j]
//                   + omega / 4 * (A[i-1][j] + A[i][j-1] + A[i+1][j] + A[i][j+1]);
//   }
func.func @sor(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: f64, %arg4: memref<?x?xf64>) {
  %cst = arith.constant 1.000000e+00 : f64
  %cst_0 = arith.constant 4.000000e+00 : f64
  %0 = arith.index_cast %arg2 : i32 to index
  %1 = arith.index_cast %arg1 : i32 to index
  %2 = arith.index_cast %arg0 : i32 to index
  %3 = arith.subf %cst, %arg3 : f64
  %4 = arith.divf %arg3, %cst_0 : f64
  affine.for %arg5 = 0 to %2 {
    affine.for %arg6 = 1 to affine_map<()[s0] -> (s0 - 1)>()[%1] {
      affine.for %arg7 = 1 to affine_map<()[s0] -> (s0 - 1)>()[%0] {
        %5 = affine.load %arg4[%arg6, %arg7] : memref<?x?xf64>
        %6 = arith.mulf %3, %5 : f64
        %7 = affine.load %arg4[%arg6 - 1, %arg7] : memref<?x?xf64>
        %8 = affine.load %arg4[%arg6, %arg7 - 1] : memref<?x?xf64>
        %9 = arith.addf %7, %8 : f64
        %10 = affine.load %arg4[%arg6 + 1, %arg7] : memref<?x?xf64>
        %11 = arith.addf %9, %10 : f64
        %12 = affine.load %arg4[%arg6, %arg7 + 1] : memref<?x?xf64>
        %13 = arith.addf %11, %12 : f64
        %14 = arith.mulf %4, %13 : f64
        %15 = arith.addf %6, %14 : f64
        affine.store %15, %arg4[%arg6, %arg7] : memref<?x?xf64>
      }
    }
  }
  return
}
