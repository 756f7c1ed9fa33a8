// PolyBench-style arrays with a static row length (memref<?x20xf64>) and loops bounded by
// %n: raised with a guard (n <= 20); stencil-run runs the original on the static memref with
// the field in its leading corner (tests/lit/driver/stencil-run-affine.mlir).
func.func @k(%arg0: i32, %arg1: i32, %arg2: memref<?x20xf64> {llvm.noalias}, %arg3: memref<?x20xf64> {llvm.noalias}) {
  %0 = arith.index_cast %arg1 : i32 to index
  %1 = arith.index_cast %arg0 : i32 to index
  affine.for %t = 0 to %1 {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%0] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%0] {
        %2 = affine.load %arg2[%i, %j - 1] : memref<?x20xf64>
        %3 = affine.load %arg2[%i, %j + 1] : memref<?x20xf64>
        %4 = arith.addf %2, %3 : f64
        affine.store %4, %arg3[%i, %j] : memref<?x20xf64>
      }
    }
  }
  return
}
