// A kernel with an op MLIR cannot lower for the GPU (input of emit-ptx-errors.mlir): MLIR's
// error must point here, at the op.
module attributes {gpu.container_module} {
  gpu.module @bad {
    gpu.func @k(%a: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = "test.opaque"() : () -> f32
      memref.store %v, %a[%c0] : memref<?xf32>
      gpu.return
    }
  }
}
