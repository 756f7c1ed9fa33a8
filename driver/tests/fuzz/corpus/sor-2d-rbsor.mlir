// Fuzz corpus seed: sor-2d-5pt.mlir after builtin.module(stencil-rbsor) (regenerate: stencil-opt examples/sor-2d-5pt.mlir -p 'builtin.module(stencil-rbsor)' )
module {
  stencil.program @sor_2d_5pt(%A: !stencil.field<[N, M] x f64>, %omega: f64, %A_rb: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] defaults [T = 10, N = 32, M = 32, omega = 1.500000e+00] attributes {sor.rewrite = {copy = "A_rb", dependence_preserving = false, method = "rbsor", sweeps_per_step = 1 : i64}} {
    stencil.apply @A_rb_init writes %A_rb over [0, 0] to [N, M] {
      %0 = stencil.access %A[0, 0] : f64
      stencil.yield %0 : f64
    }
    stencil.iterate %t = 0 to T {
      stencil.apply @S_red writes %A_rb over [1, 1] to [N - 1, M - 1] {
        %0 = stencil.access %A[0, 0] : f64
        %1 = stencil.access %A[-1, 0] : f64
        %2 = stencil.access %A[0, -1] : f64
        %3 = stencil.access %A[1, 0] : f64
        %4 = stencil.access %A[0, 1] : f64
        %cst = arith.constant 1.000000e+00 : f64
        %cst_0 = arith.constant 2.500000e-01 : f64
        %5 = arith.subf %cst, %omega : f64
        %6 = arith.mulf %omega, %cst_0 : f64
        %7 = arith.mulf %5, %0 : f64
        %8 = arith.addf %1, %2 : f64
        %9 = arith.addf %8, %3 : f64
        %10 = arith.addf %9, %4 : f64
        %11 = arith.mulf %6, %10 : f64
        %12 = arith.addf %7, %11 : f64
        %i = stencil.index 0
        %j = stencil.index 1
        %13 = arith.addi %i, %j : index
        %c2 = arith.constant 2 : index
        %14 = arith.remsi %13, %c2 : index
        %c0 = arith.constant 0 : index
        %15 = arith.cmpi eq, %14, %c0 : index
        %16 = arith.select %15, %12, %0 : f64
        stencil.yield %16 : f64
      }
      stencil.apply @S_black writes %A over [1, 1] to [N - 1, M - 1] {
        %0 = stencil.access %A_rb[0, 0] : f64
        %1 = stencil.access %A_rb[-1, 0] : f64
        %2 = stencil.access %A_rb[0, -1] : f64
        %3 = stencil.access %A_rb[1, 0] : f64
        %4 = stencil.access %A_rb[0, 1] : f64
        %cst = arith.constant 1.000000e+00 : f64
        %cst_0 = arith.constant 2.500000e-01 : f64
        %5 = arith.subf %cst, %omega : f64
        %6 = arith.mulf %omega, %cst_0 : f64
        %7 = arith.mulf %5, %0 : f64
        %8 = arith.addf %1, %2 : f64
        %9 = arith.addf %8, %3 : f64
        %10 = arith.addf %9, %4 : f64
        %11 = arith.mulf %6, %10 : f64
        %12 = arith.addf %7, %11 : f64
        %i = stencil.index 0
        %j = stencil.index 1
        %13 = arith.addi %i, %j : index
        %c2 = arith.constant 2 : index
        %14 = arith.remsi %13, %c2 : index
        %c1 = arith.constant 1 : index
        %15 = arith.cmpi eq, %14, %c1 : index
        %16 = arith.select %15, %12, %0 : f64
        stencil.yield %16 : f64
      }
    }
  }
}
