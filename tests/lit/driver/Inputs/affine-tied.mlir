// An i32 argument that bounds the loop and scales the values: a parameter (arg0) and a
// scalar (arg0_1) of the raised program, one value (tests/lit/driver/stencil-run-affine.mlir).
func.func @scale(%arg0: i32, %arg1: memref<?xf64> {llvm.noalias}, %arg2: memref<?xf64> {llvm.noalias}) {
  %n = arith.index_cast %arg0 : i32 to index
  %nf = arith.sitofp %arg0 : i32 to f64
  affine.for %i = 0 to %n {
    %a = affine.load %arg1[%i] : memref<?xf64>
    %b = arith.mulf %a, %nf : f64
    affine.store %b, %arg2[%i] : memref<?xf64>
  }
  return
}
