// PolyBench fdtd-2d as a C front end emits it: sizes as i32 arguments, the fields as
// memref<?x?xf64>, the excitation `_fict_` as memref<?xf64>, and its load hoisted out of the
// j loop by loop-invariant code motion (the raise moves it back: nothing writes `_fict_`).
//
//   for (t = 0; t < tmax; t++) {
//     for (j = 0; j < ny; j++) ey[0][j] = _fict_[t];
//     for (i = 1; i < nx; i++) for (j = 0; j < ny; j++)
//       ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i-1][j]);
//     for (i = 0; i < nx; i++) for (j = 1; j < ny; j++)
//       ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j-1]);
//     for (i = 0; i < nx - 1; i++) for (j = 0; j < ny - 1; j++)
//       hz[i][j] = hz[i][j] - 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j]);
//   }
func.func @kernel_fdtd_2d(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: memref<?x?xf64> {llvm.noalias}, %arg4: memref<?x?xf64> {llvm.noalias}, %arg5: memref<?x?xf64> {llvm.noalias}, %arg6: memref<?xf64> {llvm.noalias}) {
  %cst = arith.constant 5.000000e-01 : f64
  %cst_0 = arith.constant 0.69999999999999996 : f64
  %0 = arith.index_cast %arg2 : i32 to index
  %1 = arith.index_cast %arg1 : i32 to index
  %2 = arith.index_cast %arg0 : i32 to index
  affine.for %arg7 = 0 to %2 {
    %3 = affine.load %arg6[%arg7] : memref<?xf64>
    affine.for %arg8 = 0 to %0 {
      affine.store %3, %arg4[0, %arg8] : memref<?x?xf64>
    }
    affine.for %arg8 = 1 to %1 {
      affine.for %arg9 = 0 to %0 {
        %4 = affine.load %arg4[%arg8, %arg9] : memref<?x?xf64>
        %5 = affine.load %arg5[%arg8, %arg9] : memref<?x?xf64>
        %6 = affine.load %arg5[%arg8 - 1, %arg9] : memref<?x?xf64>
        %7 = arith.subf %5, %6 : f64
        %8 = arith.mulf %7, %cst : f64
        %9 = arith.subf %4, %8 : f64
        affine.store %9, %arg4[%arg8, %arg9] : memref<?x?xf64>
      }
    }
    affine.for %arg8 = 0 to %1 {
      affine.for %arg9 = 1 to %0 {
        %4 = affine.load %arg3[%arg8, %arg9] : memref<?x?xf64>
        %5 = affine.load %arg5[%arg8, %arg9] : memref<?x?xf64>
        %6 = affine.load %arg5[%arg8, %arg9 - 1] : memref<?x?xf64>
        %7 = arith.subf %5, %6 : f64
        %8 = arith.mulf %7, %cst : f64
        %9 = arith.subf %4, %8 : f64
        affine.store %9, %arg3[%arg8, %arg9] : memref<?x?xf64>
      }
    }
    affine.for %arg8 = 0 to affine_map<()[s0] -> (s0 - 1)>()[%1] {
      affine.for %arg9 = 0 to affine_map<()[s0] -> (s0 - 1)>()[%0] {
        %4 = affine.load %arg5[%arg8, %arg9] : memref<?x?xf64>
        %5 = affine.load %arg3[%arg8, %arg9 + 1] : memref<?x?xf64>
        %6 = affine.load %arg3[%arg8, %arg9] : memref<?x?xf64>
        %7 = arith.subf %5, %6 : f64
        %8 = affine.load %arg4[%arg8 + 1, %arg9] : memref<?x?xf64>
        %9 = arith.addf %7, %8 : f64
        %10 = affine.load %arg4[%arg8, %arg9] : memref<?x?xf64>
        %11 = arith.subf %9, %10 : f64
        %12 = arith.mulf %11, %cst_0 : f64
        %13 = arith.subf %4, %12 : f64
        affine.store %13, %arg5[%arg8, %arg9] : memref<?x?xf64>
      }
    }
  }
  return
}
