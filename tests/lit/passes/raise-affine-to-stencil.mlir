// raise-affine-to-stencil on the shapes of affine input it takes (docs/passes.md): time loops
// become stencil.iterate, perfect nests stencil.apply, and the nest a guarded stencil.call in
// the original function; the printed result parses again, also in generic form.
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(raise-affine-to-stencil{strict=true})' | stencil-opt --split-input-file | FileCheck %s
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(raise-affine-to-stencil{strict=true})' --mlir-print-op-generic | stencil-opt --split-input-file | FileCheck %s

// A single 1-D nest, static sizes, no time loop.
func.func @static_1d(%A: memref<16xf32>, %B: memref<16xf32> {llvm.noalias}) {
  %half = arith.constant 5.000000e-01 : f32
  affine.for %i = 1 to 15 {
    %l = affine.load %A[%i - 1] : memref<16xf32>
    %r = affine.load %A[%i + 1] : memref<16xf32>
    %s = arith.addf %l, %r : f32
    %v = arith.mulf %s, %half : f32
    affine.store %v, %B[%i] : memref<16xf32>
  }
  return
}

// CHECK-LABEL: stencil.program @static_1d_stencil(%arg0: !stencil.field<[16] x f32>, %arg1: !stencil.field<[16] x f32>) {
// CHECK-NEXT:    stencil.apply @S0 writes %arg1 over [1] to [15] {
// CHECK-NEXT:      %[[L:.*]] = stencil.access %arg0[-1] : f32
// CHECK-NEXT:      %[[R:.*]] = stencil.access %arg0[1] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[L]], %[[R]] : f32
// CHECK-NEXT:      %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[V:.*]] = arith.mulf %[[S]], %[[H]] : f32
// CHECK-NEXT:      stencil.yield %[[V]] : f32
// CHECK:       func.func @static_1d(%arg0: memref<16xf32>, %arg1: memref<16xf32> {llvm.noalias}) {
// CHECK:         stencil.call @static_1d_stencil(%arg0, %arg1) : (memref<16xf32>, memref<16xf32>) -> ()
// CHECK-NEXT:    return

// -----

// A backward sweep written with a negated induction variable (how poly-codegen lowers an
// `order reverse` apply), shifted loops, and the point's coordinate used as a value.
func.func @reverse(%T: index, %N: index, %A: memref<?xf64>) {
  affine.for %t = 0 to %T {
    affine.for %x = affine_map<()[s0] -> (-s0 + 2)>()[%N] to 0 {
      %a = affine.load %A[-%x + 1] : memref<?xf64>
      %c = affine.load %A[-%x] : memref<?xf64>
      %i = arith.index_cast %x : index to i64
      %f = arith.sitofp %i : i64 to f64
      %s = arith.addf %a, %c : f64
      %v = arith.mulf %s, %f : f64
      affine.store %v, %A[-%x] : memref<?xf64>
    }
  }
  return
}

// CHECK-LABEL: stencil.program @reverse_stencil(%arg2: !stencil.field<[arg1] x f64>) params [arg0 >= 1, arg1 >= 3] {
// CHECK-NEXT:    stencil.iterate %t = 0 to arg0 {
// CHECK-NEXT:      stencil.apply @S0 writes %arg2 over [1] to [arg1 - 1] order reverse {
// CHECK-NEXT:        stencil.access %arg2[1] : f64
// CHECK-NEXT:        stencil.access %arg2[0] : f64
// CHECK-NEXT:        %[[I:.*]] = stencil.index 0
// CHECK-NEXT:        %[[M:.*]] = arith.constant -1 : index
// CHECK-NEXT:        %[[X:.*]] = arith.muli %[[I]], %[[M]] : index
// CHECK-NEXT:        arith.index_cast %[[X]] : index to i64
// CHECK:       func.func @reverse(%arg0: index, %arg1: index, %arg2: memref<?xf64>) {
// CHECK-NEXT:    affine.if affine_set<()[s0, s1] : (s0 - 1 >= 0, s1 - 3 >= 0)>()[%arg0, %arg1] {
// CHECK-NEXT:      stencil.call @reverse_stencil(%arg2, %arg0, %arg1) : (memref<?xf64>, index, index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// -----

// The fdtd source statement: it runs for every nx, so for nx below the minimum the wrapper
// keeps running the original loops.
func.func @fallback(%T: index, %NX: index, %NY: index, %ey: memref<?x?xf64> {llvm.noalias}, %fict: memref<?xf64> {llvm.noalias}) {
  affine.for %t = 0 to %T {
    affine.for %j = 0 to %NY {
      %f = affine.load %fict[%t] : memref<?xf64>
      affine.store %f, %ey[0, %j] : memref<?x?xf64>
    }
    affine.for %i = 1 to %NX {
      affine.for %j = 0 to %NY {
        %a = affine.load %ey[%i - 1, %j] : memref<?x?xf64>
        affine.store %a, %ey[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// CHECK-LABEL: stencil.program @fallback_stencil(%arg3: !stencil.field<[arg1, arg2] x f64>, %arg4: !stencil.field<[arg0] x f64>) params [arg0 >= 1, arg1 >= 2, arg2 >= 1] {
// CHECK:           stencil.apply @S0 writes %arg3 over [0, 0] to [1, arg2] {
// CHECK-NEXT:        stencil.access %arg4 at [%t] : f64
// CHECK:           stencil.apply @S1 writes %arg3 over [1, 0] to [arg1, arg2] {
// CHECK-NEXT:        stencil.access %arg3[-1, 0] : f64
// CHECK:       func.func @fallback(
// CHECK-NEXT:    affine.if affine_set<()[s0, s1, s2] : (s0 - 1 >= 0, s1 - 2 >= 0, s2 - 1 >= 0)>()[%arg0, %arg1, %arg2] {
// CHECK-NEXT:      stencil.call @fallback_stencil(%arg3, %arg4, %arg0, %arg1, %arg2)
// CHECK-NEXT:    } else {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to %arg0 {
// CHECK-NEXT:        affine.for %{{.*}} = 0 to %arg2 {

// -----

// A static size with symbolic bounds: the field is what the loops reach, and the call runs
// only where the memref holds it.
func.func @static_size_symbolic_bound(%n: index, %A: memref<16xf64>) {
  affine.for %i = 1 to %n {
    %a = affine.load %A[%i - 1] : memref<16xf64>
    affine.store %a, %A[%i] : memref<16xf64>
  }
  return
}

// CHECK-LABEL: stencil.program @static_size_symbolic_bound_stencil(%arg1: !stencil.field<[arg0] x f64>) params [arg0 >= 2] {
// CHECK-NEXT:    stencil.apply @S0 writes %arg1 over [1] to [arg0] {
// CHECK:       func.func @static_size_symbolic_bound(%arg0: index, %arg1: memref<16xf64>) {
// CHECK-NEXT:    affine.if affine_set<()[s0] : (-s0 + 16 >= 0, s0 - 2 >= 0)>()[%arg0] {
// CHECK-NEXT:      stencil.call @static_size_symbolic_bound_stencil(%arg1, %arg0) : (memref<16xf64>, index) -> ()
// CHECK-NEXT:    } else {
// CHECK-NEXT:      affine.for

// -----

// A dynamic size the loops reach only up to a constant: its extent becomes a parameter read
// with memref.dim, at least that constant.
func.func @dynamic_size_constant_bound(%A: memref<?xf64>) {
  affine.for %i = 1 to 10 {
    %a = affine.load %A[%i - 1] : memref<?xf64>
    affine.store %a, %A[%i] : memref<?xf64>
  }
  return
}

// CHECK-LABEL: stencil.program @dynamic_size_constant_bound_stencil(%arg0: !stencil.field<[arg0_dim0] x f64>) params [arg0_dim0 >= 10] {
// CHECK-NEXT:    stencil.apply @S0 writes %arg0 over [1] to [10] {
// CHECK:       func.func @dynamic_size_constant_bound(%arg0: memref<?xf64>) {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = memref.dim %arg0, %[[C0]] : memref<?xf64>
// CHECK-NEXT:    affine.if affine_set<()[s0] : (s0 - 10 >= 0)>()[%[[D]]] {
// CHECK-NEXT:      stencil.call @dynamic_size_constant_bound_stencil(%arg0, %[[D]]) : (memref<?xf64>, index) -> ()
// CHECK-NEXT:    } else {

// -----

// Bounds by memref.dim: the extent is that parameter.
func.func @dim_bounds(%A: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  %m = memref.dim %A, %c1 : memref<?x?xf64>
  affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
    affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%m] {
      %a = affine.load %A[%i - 1, %j] : memref<?x?xf64>
      %b = affine.load %A[%i, %j - 1] : memref<?x?xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %A[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// CHECK-LABEL: stencil.program @dim_bounds_stencil(%arg0: !stencil.field<[arg0_dim0, arg0_dim1] x f64>) params [arg0_dim0 >= 3, arg0_dim1 >= 3] {
// CHECK-NEXT:    stencil.apply @S0 writes %arg0 over [1, 1] to [arg0_dim0 - 1, arg0_dim1 - 1] {
// CHECK:       func.func @dim_bounds(%arg0: memref<?x?xf64>) {
// CHECK:         %[[N:.*]] = memref.dim %arg0
// CHECK-NEXT:    %[[M:.*]] = memref.dim %arg0
// CHECK-NEXT:    affine.if affine_set<()[s0, s1] : (s0 - 3 >= 0, s1 - 3 >= 0)>()[%[[N]], %[[M]]] {
// CHECK-NEXT:      stencil.call @dim_bounds_stencil(%arg0, %[[N]], %[[M]])
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// -----

// A time-indexed 2-D array read by a 1-D statement (a general access), a local buffer, and
// code around the nest left as it is.
func.func @general_access(%T: index, %N: index, %H: memref<?x?xf64>, %out: memref<?xf64>) {
  %buf = memref.alloc(%N) : memref<?xf64>
  affine.for %t = 0 to %T {
    affine.for %i = 0 to %N {
      %h = affine.load %H[%t, %i] : memref<?x?xf64>
      %b = affine.load %buf[%i] : memref<?xf64>
      %s = arith.addf %h, %b : f64
      affine.store %s, %buf[%i] : memref<?xf64>
    }
  }
  memref.copy %buf, %out : memref<?xf64> to memref<?xf64>
  memref.dealloc %buf : memref<?xf64>
  return
}

// CHECK-LABEL: stencil.program @general_access_stencil(%arg2: !stencil.field<[arg0, arg1] x f64>, %buffer0: !stencil.field<[arg1] x f64>) params [arg0 >= 1, arg1 >= 1] {
// CHECK:           stencil.apply @S0 writes %buffer0 over [0] to [arg1] {
// CHECK-NEXT:        %[[I:.*]] = stencil.index 0
// CHECK-NEXT:        stencil.access %arg2 at [%t, %[[I]]] : f64
// CHECK-NEXT:        stencil.access %buffer0[0] : f64
// CHECK:       func.func @general_access(
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc(%arg1) : memref<?xf64>
// CHECK-NEXT:    affine.if
// CHECK-NEXT:      stencil.call @general_access_stencil(%arg2, %[[BUF]], %arg0, %arg1)
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.copy %[[BUF]], %arg3
// CHECK-NEXT:    memref.dealloc %[[BUF]]

// -----

// Nested time loops around a sequence, and a second nest in the same function: two programs,
// two calls, in order; the store between them stays.
func.func @two_nests(%S: index, %T: index, %N: index, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}, %flag: memref<1xf64>) {
  affine.for %s = 0 to %S {
    affine.for %t = 0 to %T {
      affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
        %a = affine.load %A[%i + 1] : memref<?xf64>
        affine.store %a, %B[%i] : memref<?xf64>
      }
      affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
        %b = affine.load %B[%i - 1] : memref<?xf64>
        affine.store %b, %A[%i] : memref<?xf64>
      }
    }
  }
  %one = arith.constant 1.0 : f64
  affine.store %one, %flag[0] : memref<1xf64>
  affine.for %i = 0 to %N {
    %a = affine.load %A[%i] : memref<?xf64>
    %d = arith.addf %a, %a : f64
    affine.store %d, %B[%i] : memref<?xf64>
  }
  return
}

// CHECK-LABEL: stencil.program @two_nests_stencil(%arg3: !stencil.field<[arg2] x f64>, %arg4: !stencil.field<[arg2 - 1] x f64>) params [arg0 >= 1, arg1 >= 1, arg2 >= 3] {
// CHECK-NEXT:    stencil.iterate %t = 0 to arg0 {
// CHECK-NEXT:      stencil.iterate %t_0 = 0 to arg1 {
// CHECK-NEXT:        stencil.apply @S0 writes %arg4 over [1] to [arg2 - 1] {
// CHECK:             stencil.apply @S1 writes %arg3 over [1] to [arg2 - 1] {
// CHECK-LABEL: stencil.program @two_nests_stencil_1(%arg3: !stencil.field<[arg2] x f64>, %arg4: !stencil.field<[arg2] x f64>) params [arg2 >= 1] {
// CHECK:       func.func @two_nests(
// CHECK-NEXT:    affine.if
// CHECK-NEXT:      stencil.call @two_nests_stencil(%arg3, %arg4, %arg0, %arg1, %arg2)
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:    affine.store %[[ONE]], %arg5[0] : memref<1xf64>
// CHECK-NEXT:    affine.if affine_set<()[s0] : (s0 - 1 >= 0)>()[%arg2] {
// CHECK-NEXT:      stencil.call @two_nests_stencil_1(%arg3, %arg4, %arg2)

// -----

// A coefficient load hoisted above the whole nest (mlir-opt --affine-loop-invariant-code-motion),
// and a bound C computes in i32 (n - 1, then cast): the load moves back into the statement, the
// bound is over the argument, the call guarded as the minimums need.
func.func @hoisted_coefficient(%arg0: i32, %arg1: i32, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}, %C: memref<4xf64> {llvm.noalias}) {
  %c1 = arith.constant 1 : i32
  %nm1 = arith.subi %arg1, %c1 : i32
  %ub = arith.index_cast %nm1 : i32 to index
  %T = arith.index_cast %arg0 : i32 to index
  %k = affine.load %C[2] : memref<4xf64>
  affine.for %t = 0 to %T {
    affine.for %i = 1 to %ub {
      %a = affine.load %A[%i - 1] : memref<?xf64>
      %m = arith.mulf %a, %k : f64
      affine.store %m, %B[%i] : memref<?xf64>
    }
  }
  return
}

// CHECK-LABEL: stencil.program @hoisted_coefficient_stencil(%arg2: !stencil.field<[arg1 - 2] x f64>, %arg3: !stencil.field<[arg1 - 1] x f64>, %arg4: !stencil.field<[4] x f64>) params [arg0 >= 1, arg1 >= 3] {
// CHECK:        stencil.apply @S0 writes %arg3 over [1] to [arg1 - 1] {
// CHECK:          stencil.access %arg4 at [2] : f64
// CHECK:       func.func @hoisted_coefficient(
// CHECK:         %[[N:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK:         stencil.call @hoisted_coefficient_stencil(%arg2, %arg3, %arg4, %{{.*}}, %[[N]])
