// Loops as scf.for with memref.load/store: nothing for raise-affine-to-stencil to raise.
func.func @scf(%arg0: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  %c1 = arith.constant 1 : index
  %n1 = arith.subi %arg0, %c1 : index
  scf.for %i = %c1 to %n1 step %c1 {
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %0 = memref.load %A[%im] : memref<?xf64>
    %1 = memref.load %A[%ip] : memref<?xf64>
    %2 = arith.addf %0, %1 : f64
    memref.store %2, %B[%i] : memref<?xf64>
  }
  return
}
