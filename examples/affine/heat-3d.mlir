// PolyBench heat-3d as a C front end emits it for fixed-size arrays (memref<10x10x10xf64>)
// and PolyBench's 1-based time loop `for (t = 1; t <= tsteps; t++)` (upper bound
// `tsteps + 1`): two 3-D statements in ping-pong, the constants hoisted.
//
//   B[i][j][k] = 0.125 * (A[i+1][j][k] - 2.0 * A[i][j][k] + A[i-1][j][k])
//              + 0.125 * (A[i][j+1][k] - 2.0 * A[i][j][k] + A[i][j-1][k])
//              + 0.125 * (A[i][j][k+1] - 2.0 * A[i][j][k] + A[i][j][k-1])
//              + A[i][j][k];                         (and A from B)
func.func @kernel_heat_3d(%arg0: i32, %arg1: memref<10x10x10xf64> {llvm.noalias}, %arg2: memref<10x10x10xf64> {llvm.noalias}) {
  %cst = arith.constant 1.250000e-01 : f64
  %cst_0 = arith.constant 2.000000e+00 : f64
  %0 = arith.index_cast %arg0 : i32 to index
  affine.for %arg3 = 1 to affine_map<()[s0] -> (s0 + 1)>()[%0] {
    affine.for %arg4 = 1 to 9 {
      affine.for %arg5 = 1 to 9 {
        affine.for %arg6 = 1 to 9 {
          %1 = affine.load %arg1[%arg4 + 1, %arg5, %arg6] : memref<10x10x10xf64>
          %2 = affine.load %arg1[%arg4, %arg5, %arg6] : memref<10x10x10xf64>
          %3 = arith.mulf %2, %cst_0 : f64
          %4 = arith.subf %1, %3 : f64
          %5 = affine.load %arg1[%arg4 - 1, %arg5, %arg6] : memref<10x10x10xf64>
          %6 = arith.addf %4, %5 : f64
          %7 = arith.mulf %6, %cst : f64
          %8 = affine.load %arg1[%arg4, %arg5 + 1, %arg6] : memref<10x10x10xf64>
          %9 = arith.subf %8, %3 : f64
          %10 = affine.load %arg1[%arg4, %arg5 - 1, %arg6] : memref<10x10x10xf64>
          %11 = arith.addf %9, %10 : f64
          %12 = arith.mulf %11, %cst : f64
          %13 = arith.addf %7, %12 : f64
          %14 = affine.load %arg1[%arg4, %arg5, %arg6 + 1] : memref<10x10x10xf64>
          %15 = arith.subf %14, %3 : f64
          %16 = affine.load %arg1[%arg4, %arg5, %arg6 - 1] : memref<10x10x10xf64>
          %17 = arith.addf %15, %16 : f64
          %18 = arith.mulf %17, %cst : f64
          %19 = arith.addf %13, %18 : f64
          %20 = arith.addf %19, %2 : f64
          affine.store %20, %arg2[%arg4, %arg5, %arg6] : memref<10x10x10xf64>
        }
      }
    }
    affine.for %arg4 = 1 to 9 {
      affine.for %arg5 = 1 to 9 {
        affine.for %arg6 = 1 to 9 {
          %1 = affine.load %arg2[%arg4 + 1, %arg5, %arg6] : memref<10x10x10xf64>
          %2 = affine.load %arg2[%arg4, %arg5, %arg6] : memref<10x10x10xf64>
          %3 = arith.mulf %2, %cst_0 : f64
          %4 = arith.subf %1, %3 : f64
          %5 = affine.load %arg2[%arg4 - 1, %arg5, %arg6] : memref<10x10x10xf64>
          %6 = arith.addf %4, %5 : f64
          %7 = arith.mulf %6, %cst : f64
          %8 = affine.load %arg2[%arg4, %arg5 + 1, %arg6] : memref<10x10x10xf64>
          %9 = arith.subf %8, %3 : f64
          %10 = affine.load %arg2[%arg4, %arg5 - 1, %arg6] : memref<10x10x10xf64>
          %11 = arith.addf %9, %10 : f64
          %12 = arith.mulf %11, %cst : f64
          %13 = arith.addf %7, %12 : f64
          %14 = affine.load %arg2[%arg4, %arg5, %arg6 + 1] : memref<10x10x10xf64>
          %15 = arith.subf %14, %3 : f64
          %16 = affine.load %arg2[%arg4, %arg5, %arg6 - 1] : memref<10x10x10xf64>
          %17 = arith.addf %15, %16 : f64
          %18 = arith.mulf %17, %cst : f64
          %19 = arith.addf %13, %18 : f64
          %20 = arith.addf %19, %2 : f64
          affine.store %20, %arg1[%arg4, %arg5, %arg6] : memref<10x10x10xf64>
        }
      }
    }
  }
  return
}
