// Fuzz corpus seed: affine/jacobi-1d.mlir after builtin.module(raise-affine-to-stencil) (regenerate: stencil-opt examples/affine/jacobi-1d.mlir -p 'builtin.module(raise-affine-to-stencil)' )
module {
  stencil.program @kernel_jacobi_1d_stencil(%arg2: !stencil.field<[arg1] x f64>, %arg3: !stencil.field<[arg1] x f64>) params [arg0 >= 1, arg1 >= 3] {
    stencil.iterate %t = 0 to arg0 {
      stencil.apply @S0 writes %arg3 over [1] to [arg1 - 1] {
        %0 = stencil.access %arg2[-1] : f64
        %1 = stencil.access %arg2[0] : f64
        %2 = arith.addf %0, %1 : f64
        %3 = stencil.access %arg2[1] : f64
        %4 = arith.addf %2, %3 : f64
        %cst = arith.constant 3.333300e-01 : f64
        %5 = arith.mulf %4, %cst : f64
        stencil.yield %5 : f64
      }
      stencil.apply @S1 writes %arg2 over [1] to [arg1 - 1] {
        %0 = stencil.access %arg3[-1] : f64
        %1 = stencil.access %arg3[0] : f64
        %2 = arith.addf %0, %1 : f64
        %3 = stencil.access %arg3[1] : f64
        %4 = arith.addf %2, %3 : f64
        %cst = arith.constant 3.333300e-01 : f64
        %5 = arith.mulf %4, %cst : f64
        stencil.yield %5 : f64
      }
    }
  }
  func.func @kernel_jacobi_1d(%arg0: i32, %arg1: i32, %arg2: memref<?xf64> {llvm.noalias}, %arg3: memref<?xf64> {llvm.noalias}) {
    %cst = arith.constant 3.333300e-01 : f64
    %0 = arith.index_cast %arg1 : i32 to index
    %1 = arith.index_cast %arg0 : i32 to index
    affine.if affine_set<()[s0, s1] : (s0 - 1 >= 0, s1 - 3 >= 0)>()[%1, %0] {
      stencil.call @kernel_jacobi_1d_stencil(%arg2, %arg3, %1, %0) : (memref<?xf64>, memref<?xf64>, index, index) -> ()
    }
    return
  }
}
