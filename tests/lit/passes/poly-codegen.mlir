// poly-codegen (docs/passes.md): a stencil.program becomes a func.func over memrefs whose
// body scans its (tiled) schedule with affine loops; loops that carry no dependence (DOALL)
// are affine.parallel, the others affine.for. Every pipeline here is also checked by
// execution (stencil-run --check: bit-identical to the program).
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-codegen)' | FileCheck %s --check-prefix=ORIG
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen)' | FileCheck %s --check-prefix=TILED
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen{parallel=false})' | FileCheck %s --check-prefix=SEQ --implicit-check-not=affine.parallel
// RUN: stencil-run %S/../../../examples/sor-1d-3pt.mlir --param T=5 --param N=23 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},poly-codegen)' --check | FileCheck %s --check-prefix=EXEC
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --param T=4 --param N=13 --param M=11 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=3},poly-codegen)' --check | FileCheck %s --check-prefix=EXEC
// RUN: stencil-run %S/../../../examples/fdtd-2d.mlir --param T=4 --pass-pipeline='builtin.module(poly-remove-false-deps,poly-schedule,poly-tile{sizes=5},poly-codegen)' --check | FileCheck %s --check-prefix=EXEC
// EXEC: check against the untransformed program on ref (bit-exact): passed

// Thesis Fig. 3.4, `for t: for i in 0..N-1: A[i] = 0.5 * (A[i] + A[i+1])`: with the original
// schedule the i loop carries the anti dependence A[i+1] -> A[i] of the next time step, so
// both loops are sequential.
// ORIG-LABEL: func.func @fig_3_4(%arg0: memref<?xf64>, %arg1: index, %arg2: index)
// ORIG-SAME:  attributes {stencil.arg_names = ["A"], stencil.field_types = ["[N] x f64"], stencil.param_mins = [1, 4], stencil.param_names = ["T", "N"],
// The program's point updates, T · (N − 1) (docs/runtime.md): an iterate's bounds, then the box's.
// ORIG-SAME:  stencil.point_updates = {{\[\[}}affine_map<()[s0, s1] -> (0)>, affine_map<()[s0, s1] -> (s0)>, affine_map<()[s0, s1] -> (0)>, affine_map<()[s0, s1] -> (s1 - 1)>]]}
// ORIG-NEXT:  affine.for %[[T:.*]] = 0 to %arg1 {
// ORIG-NEXT:    affine.for %[[I:.*]] = 0 to affine_map<()[s0] -> (s0 - 1)>()[%arg2] {
// ORIG-NEXT:      %[[C:.*]] = affine.load %arg0[%[[I]]] : memref<?xf64>
// ORIG-NEXT:      %[[E:.*]] = affine.load %arg0[%[[I]] + 1] : memref<?xf64>
// ORIG-NEXT:      %[[S:.*]] = arith.addf %[[C]], %[[E]] : f64
// ORIG-NEXT:      %[[H:.*]] = arith.constant 5.000000e-01 : f64
// ORIG-NEXT:      %[[V:.*]] = arith.mulf %[[S]], %[[H]] : f64
// ORIG-NEXT:      affine.store %[[V]], %arg0[%[[I]]] : memref<?xf64>
// ORIG-NEXT:    }
// ORIG-NEXT:  }
// ORIG-NEXT:  return
//
// Scheduled with balanced hyperplanes (thesis Fig. 4.3, Φ = [[2, 1], [1, 1]]) and tiled 4×4
// (Fig. 4.2): DOSEQ inter-tile wavefront, DOALL tiles, DOSEQ intra-tile wavefront (the first
// hyperplane), DOALL points; the statement runs at t = e1 - e2, i = 2*e2 - e1.
// TILED-LABEL: func.func @fig_3_4(
// TILED-NEXT:  affine.for %[[W:.*]] = 0 to affine_map<()[s0, s1] -> ((s0 * 3 + s1 * 2 - 7) floordiv 4 + 1)>()[%arg1, %arg2] {
// TILED-NEXT:    affine.parallel (%[[T2:.*]]) = (max(0, {{.*}})) to (min({{.*}})) {
// TILED-NEXT:      affine.for %[[E1:.*]] = max affine_map<{{.*}}>(%[[W]], %[[T2]])[%arg2] to min affine_map<{{.*}}>(%[[W]], %[[T2]])[%arg1, %arg2] {
// TILED-NEXT:        affine.parallel (%[[E2:.*]]) = (max(%[[E1]] - symbol(%arg1) + 1, %[[E1]] ceildiv 2, %[[T2]] * 4)) to (min(%[[E1]] + 1, (%[[E1]] + symbol(%arg2)) floordiv 2, %[[T2]] * 4 + 4)) {
// TILED-NEXT:          affine.load %arg0[-%[[E1]] + %[[E2]] * 2] : memref<?xf64>
// TILED-NEXT:          affine.load %arg0[-%[[E1]] + %[[E2]] * 2 + 1] : memref<?xf64>
// TILED:               affine.store %{{.*}}, %arg0[-%[[E1]] + %[[E2]] * 2] : memref<?xf64>
// SEQ-LABEL: func.func @fig_3_4(
// SEQ-COUNT-4: affine.for
stencil.program @fig_3_4(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %c, %e : f64
      %h = arith.constant 0.5 : f64
      %v = arith.mulf %s, %h : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// Jacobi (two statements, thesis Fig. 3.2(a)) with its original schedule: the point loops are
// DOALL, the time loop is not; stencil.index and scalars become affine.apply and arguments;
// the time-indexed read of a 1-D field becomes a load at the time loop's variable.
// ORIG-LABEL: func.func @jacobi(%arg0: memref<?xf64>, %arg1: memref<?xf64>, %arg2: memref<?xf64>, %arg3: f64, %arg4: index, %arg5: index)
// ORIG-SAME:  stencil.defaults = {N = 16 : i64, T = 3 : i64, w = 2.500000e-01 : f64}
// ORIG-SAME:  stencil.field_types = ["[N] x f64", "[N] x f64", "[T] x f64"]
// ORIG-NEXT:  affine.for %[[T:.*]] = 0 to %arg4 {
// ORIG-NEXT:    affine.parallel (%[[I:.*]]) = (1) to (symbol(%arg5) - 1) {
// ORIG-NEXT:      %[[L:.*]] = affine.load %arg0[%[[I]] - 1] : memref<?xf64>
// ORIG-NEXT:      %[[F:.*]] = affine.load %arg2[%[[T]]] : memref<?xf64>
// ORIG-NEXT:      %[[X:.*]] = affine.apply affine_map<(d0) -> (d0)>(%[[I]])
// ORIG-NEXT:      %[[XI:.*]] = arith.index_cast %[[X]] : index to i64
// ORIG:           affine.store %{{.*}}, %arg1[%[[I]]] : memref<?xf64>
// ORIG-NEXT:    }
// ORIG-NEXT:    affine.parallel (%[[I2:.*]]) = (1) to (symbol(%arg5) - 1) {
// ORIG-NEXT:      %[[B:.*]] = affine.load %arg1[%[[I2]]] : memref<?xf64>
// ORIG-NEXT:      affine.store %[[B]], %arg0[%[[I2]]] : memref<?xf64>
// TILED-LABEL: func.func @jacobi(
// SEQ-LABEL: func.func @jacobi(
stencil.program @jacobi(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>, %F: !stencil.field<[T] x f64>, %w: f64)
    params [T >= 1, N >= 3] defaults [T = 3, N = 16, w = 0.25] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1] to [N - 1] {
      %l = stencil.access %A[-1] : f64
      %f = stencil.access %F at [%t] : f64
      %i = stencil.index 0
      %ii = arith.index_cast %i : index to i64
      %fi = arith.sitofp %ii : i64 to f64
      %a = arith.addf %l, %f : f64
      %b = arith.mulf %a, %w : f64
      %v = arith.addf %b, %fi : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %A over [1] to [N - 1] {
      %b = stencil.access %B[0] : f64
      stencil.yield %b : f64
    }
  }
}
