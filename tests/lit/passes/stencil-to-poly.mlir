// The stencil-to-poly pass (docs/passes.md): every stencil.apply gets its statement id and the
// β vector of its original schedule (thesis §3.2.3) as discardable attributes; nothing else
// changes, and the output parses back (RUN lines re-parse it, custom and generic form). Programs
// the polyhedral model cannot represent fail with an error located at the op (checked by
// --verify-diagnostics in the same run).
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --pass-pipeline='builtin.module(stencil-to-poly)' | stencil-opt --split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --pass-pipeline='builtin.module(stencil-to-poly)' --mlir-print-op-generic | stencil-opt --split-input-file --allow-unregistered-dialect | FileCheck %s
// The attributes survive upstream MLIR (generic form, unregistered ops).
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --pass-pipeline='builtin.module(stencil-to-poly)' --mlir-print-op-generic | mlir-opt --split-input-file --allow-unregistered-dialect --mlir-print-op-generic | stencil-opt --split-input-file --allow-unregistered-dialect | FileCheck %s
// Anchored on the programs themselves, the pass does the same.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --pass-pipeline='builtin.module(stencil.program(stencil-to-poly))' | FileCheck %s

// One apply in a time loop (2-D SOR): β = (0, 0, 0, 0), rows (0, t, 0, i, 0, j, 0).
// CHECK-LABEL: stencil.program @sor
// CHECK-NEXT:    stencil.iterate %t = 0 to T {
// CHECK-NEXT:      stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] attributes {poly.beta = array<i64: 0, 0, 0, 0>, poly.statement = 0 : i64} {
// CHECK-NEXT:        %0 = stencil.access %A[0, 0] : f64
// CHECK-NEXT:        %1 = stencil.access %A[-1, 0] : f64
// CHECK-NEXT:        %2 = arith.addf %0, %1 : f64
// CHECK-NEXT:        stencil.yield %2 : f64
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
stencil.program @sor(%A: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = arith.addf %c, %n : f64
      stencil.yield %s : f64
    }
  }
}

// -----

// Jacobi's imperfect nest (thesis Fig. 3.2(a)): the two applies share the time loop and are
// ordered by their textual position in its body.
// CHECK-LABEL: stencil.program @jacobi
// CHECK:         stencil.apply @S0 writes %B over [1] to [N - 1] attributes {poly.beta = array<i64: 0, 0, 0>, poly.statement = 0 : i64} {
// CHECK:         stencil.apply @S1 writes %A over [1] to [N - 1] attributes {poly.beta = array<i64: 0, 1, 0>, poly.statement = 1 : i64} {
stencil.program @jacobi(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1] to [N - 1] {
      %w = stencil.access %A[-1] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %w, %e : f64
      stencil.yield %s : f64
    }
    stencil.apply @S1 writes %A over [1] to [N - 1] {
      %b = stencil.access %B[0] : f64
      stencil.yield %b : f64
    }
  }
}

// -----

// An apply outside any loop, nested iterates, sibling iterates and a reverse apply: one β entry
// per enclosing body (the position of the op in it), then one 0 per point dimension. `order
// reverse` does not show in β: it negates the point rows of the schedule (docs/passes.md).
// CHECK-LABEL: stencil.program @shapes
// CHECK:         stencil.apply @init writes %A over [0] to [N] attributes {poly.beta = array<i64: 0, 0>, poly.statement = 0 : i64} {
// CHECK:         stencil.iterate %t = 0 to T {
// CHECK-NEXT:      stencil.iterate %t_0 = 0 to 2 {
// CHECK-NEXT:        stencil.apply @inner writes %A over [1] to [N - 1] attributes {poly.beta = array<i64: 1, 0, 0, 0>, poly.statement = 1 : i64} {
// CHECK:           stencil.apply @back writes %A over [1] to [N - 1] order reverse attributes {poly.beta = array<i64: 1, 1, 0>, poly.statement = 2 : i64} {
// CHECK:         stencil.iterate %t = 0 to T {
// CHECK-NEXT:      stencil.apply @last writes %A over [1] to [N - 1] attributes {poly.beta = array<i64: 2, 0, 0>, poly.statement = 3 : i64} {
stencil.program @shapes(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.apply @init writes %A over [0] to [N] {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
  stencil.iterate %t = 0 to T {
    stencil.iterate %u = 0 to 2 {
      stencil.apply @inner writes %A over [1] to [N - 1] {
        %c = stencil.access %A[-1] : f64
        stencil.yield %c : f64
      }
    }
    stencil.apply @back writes %A over [1] to [N - 1] order reverse {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
  stencil.iterate %v = 0 to T {
    stencil.apply @last writes %A over [1] to [N - 1] {
      %c = stencil.access %A[1] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// Statement ids are per program; the general access form is modelled (the read of %fict at the
// time iterator, PolyBench fdtd-2d's source row); scalar arguments are no arrays.
// CHECK-LABEL: stencil.program @first
// CHECK:         stencil.apply @S0 writes %ey over [0, 0] to [1, NY] attributes {poly.beta = array<i64: 0, 0, 0, 0>, poly.statement = 0 : i64} {
// CHECK:         stencil.apply @S1 writes %ey over [1, 0] to [NX, NY] attributes {poly.beta = array<i64: 0, 1, 0, 0>, poly.statement = 1 : i64} {
// CHECK-LABEL: stencil.program @second
// CHECK:         stencil.apply @S0 writes %A over [0] to [N] attributes {poly.beta = array<i64: 0, 0>, poly.statement = 0 : i64} {
stencil.program @first(%ey: !stencil.field<[NX, NY] x f64>, %fict: !stencil.field<[T] x f64>, %c: f64)
    params [T >= 1, NX >= 2, NY >= 2] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %ey over [0, 0] to [1, NY] {
      %f = stencil.access %fict at [%t] : f64
      stencil.yield %f : f64
    }
    stencil.apply @S1 writes %ey over [1, 0] to [NX, NY] {
      %e = stencil.access %ey[-1, 0] : f64
      %v = arith.mulf %e, %c : f64
      stencil.yield %v : f64
    }
  }
}
stencil.program @second(%A: !stencil.field<[N] x f64>) params [N >= 1] {
  stencil.apply @S0 writes %A over [0] to [N] {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}

// -----

// An op with memory effects in an apply body cannot be modelled.
stencil.program @effects(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      // expected-error@+1 {{'memref.alloc' op cannot be part of a SCoP: a stencil.apply body may only read fields (stencil.access) and compute with pure ops}}
      %m = memref.alloc() : memref<4xf64>
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// Nor can an op of an unknown dialect, whose effects are unknown.
stencil.program @unknown(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    // expected-error@+1 {{'test.opaque' op cannot be part of a SCoP}}
    %x = "test.opaque"() : () -> f64
    stencil.yield %x : f64
  }
}
