// What Polygeist prints for PolyBench jacobi-1d: #map aliases, a dlti/llvm data layout on the
// module, llvm.linkage on the function, and no llvm.noalias on the arrays.
#map = affine_map<()[s0] -> (s0 - 1)>
#set = affine_set<()[s0] : (s0 - 3 >= 0)>
module attributes {dlti.dl_spec = #dlti.dl_spec<#dlti.dl_entry<"dlti.endianness", "little">, #dlti.dl_entry<i64, dense<64> : vector<2xi64>>, #dlti.dl_entry<f64, dense<64> : vector<2xi64>>>, llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "polygeist.target-cpu" = "x86-64"} {
  func.func @kernel_jacobi_1d(%arg0: i32, %arg1: i32, %arg2: memref<?xf64>, %arg3: memref<?xf64>) attributes {llvm.linkage = #llvm.linkage<external>} {
    %cst = arith.constant 3.333300e-01 : f64
    %0 = arith.index_cast %arg1 : i32 to index
    %1 = arith.index_cast %arg0 : i32 to index
    affine.for %arg4 = 0 to %1 {
      affine.for %arg5 = 1 to #map()[%0] {
        %2 = affine.load %arg2[%arg5 - 1] : memref<?xf64>
        %3 = affine.load %arg2[%arg5] : memref<?xf64>
        %4 = arith.addf %2, %3 : f64
        %5 = affine.load %arg2[%arg5 + 1] : memref<?xf64>
        %6 = arith.addf %4, %5 : f64
        %7 = arith.mulf %6, %cst : f64
        affine.store %7, %arg3[%arg5] : memref<?xf64>
      }
      affine.for %arg5 = 1 to #map()[%0] {
        %2 = affine.load %arg3[%arg5 - 1] : memref<?xf64>
        %3 = affine.load %arg3[%arg5] : memref<?xf64>
        %4 = arith.addf %2, %3 : f64
        %5 = affine.load %arg3[%arg5 + 1] : memref<?xf64>
        %6 = arith.addf %4, %5 : f64
        %7 = arith.mulf %6, %cst : f64
        affine.store %7, %arg2[%arg5] : memref<?xf64>
      }
    }
    return
  }
}
