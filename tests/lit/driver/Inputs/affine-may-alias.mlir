// A front end's function whose memref arguments carry no {llvm.noalias} (what C without
// `restrict` gives): B is written, so A and B may be the same buffer.
func.func @mayalias(%arg0: index, %A: memref<?xf64>, %B: memref<?xf64>) {
  affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%arg0] {
    %0 = affine.load %A[%i - 1] : memref<?xf64>
    %1 = affine.load %A[%i + 1] : memref<?xf64>
    %2 = arith.addf %0, %1 : f64
    affine.store %2, %B[%i] : memref<?xf64>
  }
  return
}
