// PolyBench jacobi-2d as a C front end (Polygeist) emits it: the kernel function with the
// step count and size as i32 arguments, the arrays as memref<?x?xf64>, loop bounds `%n - 1`,
// constants hoisted out of the loops. `raise-affine-to-stencil` turns the time loop into a
// stencil.iterate and each (i, j) nest into a stencil.apply.
//
//   for (t = 0; t < tsteps; t++) {
//     for (i = 1; i < n - 1; i++) for (j = 1; j < n - 1; j++)
//       B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
//     for (i = 1; i < n - 1; i++) for (j = 1; j < n - 1; j++)
//       A[i][j] = 0.2 * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
//   }
func.func @kernel_jacobi_2d(%arg0: i32, %arg1: i32, %arg2: memref<?x?xf64> {llvm.noalias}, %arg3: memref<?x?xf64> {llvm.noalias}) {
  %cst = arith.constant 2.000000e-01 : f64
  %0 = arith.index_cast %arg1 : i32 to index
  %1 = arith.index_cast %arg0 : i32 to index
  affine.for %arg4 = 0 to %1 {
    affine.for %arg5 = 1 to affine_map<()[s0] -> (s0 - 1)>()[%0] {
      affine.for %arg6 = 1 to affine_map<()[s0] -> (s0 - 1)>()[%0] {
        %2 = affine.load %arg2[%arg5, %arg6] : memref<?x?xf64>
        %3 = affine.load %arg2[%arg5, %arg6 - 1] : memref<?x?xf64>
        %4 = arith.addf %2, %3 : f64
        %5 = affine.load %arg2[%arg5, %arg6 + 1] : memref<?x?xf64>
        %6 = arith.addf %4, %5 : f64
        %7 = affine.load %arg2[%arg5 + 1, %arg6] : memref<?x?xf64>
        %8 = arith.addf %6, %7 : f64
        %9 = affine.load %arg2[%arg5 - 1, %arg6] : memref<?x?xf64>
        %10 = arith.addf %8, %9 : f64
        %11 = arith.mulf %cst, %10 : f64
        affine.store %11, %arg3[%arg5, %arg6] : memref<?x?xf64>
      }
    }
    affine.for %arg5 = 1 to affine_map<()[s0] -> (s0 - 1)>()[%0] {
      affine.for %arg6 = 1 to affine_map<()[s0] -> (s0 - 1)>()[%0] {
        %2 = affine.load %arg3[%arg5, %arg6] : memref<?x?xf64>
        %3 = affine.load %arg3[%arg5, %arg6 - 1] : memref<?x?xf64>
        %4 = arith.addf %2, %3 : f64
        %5 = affine.load %arg3[%arg5, %arg6 + 1] : memref<?x?xf64>
        %6 = arith.addf %4, %5 : f64
        %7 = affine.load %arg3[%arg5 + 1, %arg6] : memref<?x?xf64>
        %8 = arith.addf %6, %7 : f64
        %9 = affine.load %arg3[%arg5 - 1, %arg6] : memref<?x?xf64>
        %10 = arith.addf %8, %9 : f64
        %11 = arith.mulf %cst, %10 : f64
        affine.store %11, %arg2[%arg5, %arg6] : memref<?x?xf64>
      }
    }
  }
  return
}
