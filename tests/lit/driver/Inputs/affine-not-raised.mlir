// An affine function raise-affine-to-stencil refuses (a strided loop): stencil-run cannot
// run it as a stencil program (tests/lit/driver/stencil-run-affine.mlir).
func.func @strided(%arg0: index, %arg1: memref<?xf64>) {
  %c = arith.constant 1.0 : f64
  affine.for %i = 0 to %arg0 step 2 {
    affine.store %c, %arg1[%i] : memref<?xf64>
  }
  return
}
