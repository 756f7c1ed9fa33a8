// A lowered program (docs/runtime.md) that frees its field argument %B: the caller owns it, so
// the run is an error at the dealloc, not a success that reports no fields.
func.func @copy(%A: memref<?xf64>, %B: memref<?xf64>, %N: index)
    attributes {stencil.arg_names = ["A", "B"], stencil.param_names = ["N"], stencil.param_mins = [2],
                stencil.defaults = {N = 8 : i64}, stencil.field_types = ["[N] x f64", "[N] x f64"]} {
  %c0 = arith.constant 0 : index
  %v = memref.load %A[%c0] : memref<?xf64>
  memref.store %v, %B[%c0] : memref<?xf64>
  memref.dealloc %B : memref<?xf64>
  return
}
