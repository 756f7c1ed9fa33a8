// PolyBench seidel-2d (Gauss-Seidel, in place, 9-point mean) as a C front end emits it for
// arrays of a fixed size: memref<32x32xf64>, constant loop bounds, the step count an i32
// argument. DOACROSS: the raised apply reads the values it wrote at (i-1, *) and (i, j-1).
//
//   for (t = 0; t <= tsteps - 1; t++)
//     for (i = 1; i <= 32 - 2; i++)
//       for (j = 1; j <= 32 - 2; j++)
//         A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
//                  + A[i][j-1] + A[i][j] + A[i][j+1]
//                  + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0;
func.func @kernel_seidel_2d(%arg0: i32, %arg1: memref<32x32xf64>) {
  %cst = arith.constant 9.000000e+00 : f64
  %0 = arith.index_cast %arg0 : i32 to index
  affine.for %arg2 = 0 to %0 {
    affine.for %arg3 = 1 to 31 {
      affine.for %arg4 = 1 to 31 {
        %1 = affine.load %arg1[%arg3 - 1, %arg4 - 1] : memref<32x32xf64>
        %2 = affine.load %arg1[%arg3 - 1, %arg4] : memref<32x32xf64>
        %3 = arith.addf %1, %2 : f64
        %4 = affine.load %arg1[%arg3 - 1, %arg4 + 1] : memref<32x32xf64>
        %5 = arith.addf %3, %4 : f64
        %6 = affine.load %arg1[%arg3, %arg4 - 1] : memref<32x32xf64>
        %7 = arith.addf %5, %6 : f64
        %8 = affine.load %arg1[%arg3, %arg4] : memref<32x32xf64>
        %9 = arith.addf %7, %8 : f64
        %10 = affine.load %arg1[%arg3, %arg4 + 1] : memref<32x32xf64>
        %11 = arith.addf %9, %10 : f64
        %12 = affine.load %arg1[%arg3 + 1, %arg4 - 1] : memref<32x32xf64>
        %13 = arith.addf %11, %12 : f64
        %14 = affine.load %arg1[%arg3 + 1, %arg4] : memref<32x32xf64>
        %15 = arith.addf %13, %14 : f64
        %16 = affine.load %arg1[%arg3 + 1, %arg4 + 1] : memref<32x32xf64>
        %17 = arith.addf %15, %16 : f64
        %18 = arith.divf %17, %cst : f64
        affine.store %18, %arg1[%arg3, %arg4] : memref<32x32xf64>
      }
    }
  }
  return
}
