// A kernel with a scratch buffer of its own (what linalg lowering and C locals give): the
// raise makes it a field (buffer0); stencil-run starts it at zero, as the allocation starts
// (the first sweep reads it before writing it: started at 1 the check fails), and --check
// compares only the function's arguments (tests/lit/driver/stencil-run-affine.mlir).
func.func @smooth(%steps: index, %A: memref<?xf64> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?xf64>
  %tmp = memref.alloc(%n) : memref<?xf64>
  affine.for %t = 0 to %steps {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %a = affine.load %A[%i - 1] : memref<?xf64>
      %b = affine.load %A[%i + 1] : memref<?xf64>
      %s = arith.addf %a, %b : f64
      // Reads the scratch before the first write: the allocation's zeros, in both runs.
      %old = affine.load %tmp[%i] : memref<?xf64>
      %half = arith.constant 0.5 : f64
      %o = arith.mulf %old, %half : f64
      %n2 = arith.addf %s, %o : f64
      affine.store %n2, %tmp[%i] : memref<?xf64>
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %v = affine.load %tmp[%i] : memref<?xf64>
      affine.store %v, %A[%i] : memref<?xf64>
    }
  }
  memref.dealloc %tmp : memref<?xf64>
  return
}
