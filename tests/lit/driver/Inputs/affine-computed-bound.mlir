// C's `n - 1` computed in i32 before the cast to index (as Polygeist emits it), and a bound
// the function computes from two arguments: the first is raised over %arg1 (the program's
// parameter is arg1, its bounds arg1 - 1), the second stays a parameter of its own
// (tests/lit/driver/stencil-run-affine.mlir).
func.func @k(%arg0: i32, %arg1: i32, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  %c1_i32 = arith.constant 1 : i32
  %nm1 = arith.subi %arg1, %c1_i32 : i32
  %ub = arith.index_cast %nm1 : i32 to index
  %T = arith.index_cast %arg0 : i32 to index
  affine.for %t = 0 to %T {
    affine.for %i = 1 to %ub {
      %a = affine.load %A[%i - 1] : memref<?xf64>
      %b = affine.load %A[%i + 1] : memref<?xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %B[%i] : memref<?xf64>
    }
    affine.for %i = 1 to %ub {
      %a = affine.load %B[%i] : memref<?xf64>
      affine.store %a, %A[%i] : memref<?xf64>
    }
  }
  return
}

func.func @product(%arg0: i32, %arg1: i32, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  %n = arith.muli %arg0, %arg1 : i32
  %ub = arith.index_cast %n : i32 to index
  affine.for %i = 1 to %ub {
    %a = affine.load %A[%i - 1] : memref<?xf64>
    affine.store %a, %B[%i] : memref<?xf64>
  }
  return
}

// `n + 100` in i8: the raise guards the call with n <= 27.
func.func @narrow(%arg0: i32, %arg1: i8, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  %c100 = arith.constant 100 : i8
  %n = arith.addi %arg1, %c100 : i8
  %ub = arith.index_cast %n : i8 to index
  %T = arith.index_cast %arg0 : i32 to index
  affine.for %t = 0 to %T {
    affine.for %i = 1 to %ub {
      %a = affine.load %A[%i - 1] : memref<?xf64>
      affine.store %a, %B[%i] : memref<?xf64>
    }
  }
  return
}
