// A front end's whole file: the kernel, and a main that allocates, calls it and prints through
// an unranked memref (which the interpreter does not run). stencil-run --entry runs the kernel;
// --check runs the original kernel alone, not main (tests/lit/driver/stencil-run-affine.mlir).
module {
  func.func private @printMemrefF64(memref<*xf64>)
  func.func @kernel(%arg0: i32, %arg1: i32, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
    %T = arith.index_cast %arg0 : i32 to index
    %n = arith.index_cast %arg1 : i32 to index
    affine.for %t = 0 to %T {
      affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %a = affine.load %A[%i - 1] : memref<?xf64>
        %b = affine.load %A[%i + 1] : memref<?xf64>
        %s = arith.addf %a, %b : f64
        affine.store %s, %B[%i] : memref<?xf64>
      }
      affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %b = affine.load %B[%i] : memref<?xf64>
        affine.store %b, %A[%i] : memref<?xf64>
      }
    }
    return
  }
  func.func @main() -> i32 {
    %steps = arith.constant 3 : i32
    %size = arith.constant 16 : i32
    %a = memref.alloc() : memref<16xf64>
    %b = memref.alloc() : memref<16xf64>
    %ad = memref.cast %a : memref<16xf64> to memref<?xf64>
    %bd = memref.cast %b : memref<16xf64> to memref<?xf64>
    call @kernel(%steps, %size, %ad, %bd) : (i32, i32, memref<?xf64>, memref<?xf64>) -> ()
    %u = memref.cast %a : memref<16xf64> to memref<*xf64>
    call @printMemrefF64(%u) : (memref<*xf64>) -> ()
    memref.dealloc %a : memref<16xf64>
    memref.dealloc %b : memref<16xf64>
    %z = arith.constant 0 : i32
    return %z : i32
  }
}
