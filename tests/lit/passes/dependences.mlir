// stencil-opt --test-print-dependences (docs/passes.md): the dependences of every
// stencil.program after the pipeline, in the stable format of docs/poly.md, as comments before
// the IR. Direct dependences by default (thesis Table 3.1), memory-based ones with
// --dependence-mode=memory. Every line below was checked by hand against the programs'
// sequential semantics (docs/dialects/stencil.md); the examples' dependences are in
// dependences-examples.mlir.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --test-print-dependences | FileCheck %s
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --test-print-dependences --dependence-mode=direct --pass-pipeline='builtin.module(stencil-to-poly)' | FileCheck %s
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --test-print-dependences --dependence-mode=memory | FileCheck %s --check-prefix=MEM
// The report is made of comments: the output parses back.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --test-print-dependences | stencil-opt --split-input-file > /dev/null
// RUN: not stencil-opt %s --test-print-dependences --dependence-mode=bogus 2>&1 | FileCheck %s --check-prefix=BADMODE
// BADMODE: invalid value 'bogus' for '--dependence-mode <MODE>'

// Thesis Fig. 3.4, `for t in 0..T: for i in 0..N-1: A[i] = 0.5 * (A[i] + A[i+1])`, and its
// dependences, thesis Table 3.1 (the thesis counts from 1): exactly five, in the order e1, e2,
// e4, e3, e5 — flow (1, 0) and (1, -1), anti (1, 0) and (0, 1), output (1, 0).
// CHECK-LABEL: // dependences of @fig_3_4 (direct):
// CHECK-NEXT:  // dep 0: flow S0.write0 A[i] -> S0.read0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 0 <= i_t <= N - 2 }
// CHECK-NEXT:  // dep 1: flow S0.write0 A[i] -> S0.read1 A[i + 1]; carried by loop 1; distance (1, -1); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t + 1 and 1 <= t_t <= T - 1 and 0 <= i_t <= N - 3 }
// CHECK-NEXT:  // dep 2: anti S0.read0 A[i] -> S0.write0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 0 <= i_t <= N - 2 }
// CHECK-NEXT:  // dep 3: anti S0.read1 A[i + 1] -> S0.write0 A[i]; carried by loop 2; distance (0, 1); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t and i_s = i_t - 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// CHECK-NEXT:  // dep 4: output S0.write0 A[i] -> S0.write0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 0 <= i_t <= N - 2 }
// CHECK-NEXT:  module {
// Memory-based: every conflicting pair; the loop-1 pairs are no longer uniform, and the
// anti dependence of A[i + 1] is carried by both loops.
// MEM-LABEL: // dependences of @fig_3_4 (memory-based):
// MEM-NEXT:  // dep 0: flow S0.write0 A[i] -> S0.read0 A[i]; carried by loop 1; distance non-uniform; [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : i_s = i_t and 0 <= t_s <= t_t - 1 and t_t <= T - 1 and 0 <= i_t <= N - 2 }
// MEM-NEXT:  // dep 1: flow S0.write0 A[i] -> S0.read1 A[i + 1]; carried by loop 1; distance non-uniform; [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : i_s = i_t + 1 and 0 <= t_s <= t_t - 1 and t_t <= T - 1 and 0 <= i_t <= N - 3 }
// MEM-NEXT:  // dep 2: anti S0.read0 A[i] -> S0.write0 A[i]; carried by loop 1; distance non-uniform; [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : i_s = i_t and 0 <= t_s <= t_t - 1 and t_t <= T - 1 and 0 <= i_t <= N - 2 }
// MEM-NEXT:  // dep 3: anti S0.read1 A[i + 1] -> S0.write0 A[i]; carried by loop 1; distance non-uniform; [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : i_s = i_t - 1 and 0 <= t_s <= t_t - 1 and t_t <= T - 1 and 1 <= i_t <= N - 2 }
// MEM-NEXT:  // dep 4: anti S0.read1 A[i + 1] -> S0.write0 A[i]; carried by loop 2; distance (0, 1); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t and i_s = i_t - 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// MEM-NEXT:  // dep 5: output S0.write0 A[i] -> S0.write0 A[i]; carried by loop 1; distance non-uniform; [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : i_s = i_t and 0 <= t_s <= t_t - 1 and t_t <= T - 1 and 0 <= i_t <= N - 2 }
// MEM-NEXT:  module {
stencil.program @fig_3_4(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %c, %e : f64
      %h = arith.constant 0.5 : f64
      %v = arith.mulf %h, %s : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// A reversed sweep (`for i = N-2 downto 1`, schedule row -i): the read of A[i + 1] now sees
// this sweep's value (distance (0, -1), carried by the i loop although it is negative in the
// iterators), the read of A[i - 1] the previous sweep's (1, 1).
// CHECK-LABEL: // dependences of @reverse_sweep (direct):
// CHECK-NEXT:  // dep 0: flow S.write0 A[i] -> S.read0 A[i - 1]; carried by loop 1; distance (1, 1); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = i_t - 1 and 1 <= t_t <= T - 1 and 2 <= i_t <= N - 2 }
// CHECK-NEXT:  // dep 1: flow S.write0 A[i] -> S.read1 A[i + 1]; carried by loop 2; distance (0, -1); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t and i_s = i_t + 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 3 }
// CHECK-NEXT:  // dep 2: anti S.read0 A[i - 1] -> S.write0 A[i]; carried by loop 2; distance (0, -1); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t and i_s = i_t + 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 3 }
// CHECK-NEXT:  // dep 3: anti S.read1 A[i + 1] -> S.write0 A[i]; carried by loop 1; distance (1, 1); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = i_t - 1 and 1 <= t_t <= T - 1 and 2 <= i_t <= N - 2 }
// CHECK-NEXT:  // dep 4: output S.write0 A[i] -> S.write0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// CHECK-NEXT:  module {
stencil.program @reverse_sweep(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] order reverse {
      %w = stencil.access %A[-1] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %w, %e : f64
      stencil.yield %s : f64
    }
  }
}

// -----

// An apply before the time loop: its dependences into the loop are loop-independent (textual
// order at the outermost level). Positional distances between statements of different depth
// are non-uniform (docs/poly.md). Only the first sweep's write of A[i] follows I's read
// directly (every later one is preceded by a write of the same element).
// CHECK-LABEL: // dependences of @init_then_sweep (direct):
// CHECK-NEXT:  // dep 0: flow I.write0 B[i] -> S.read0 B[i + 1]; loop-independent; distance non-uniform; [T, N] -> { I[i_s] -> S[t_t, i_t] : i_s = i_t + 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// CHECK-NEXT:  // dep 1: anti I.read0 A[i] -> S.write0 A[i]; loop-independent; distance non-uniform; [T, N] -> { I[i_s] -> S[t_t, i_t] : i_s = i_t and t_t = 0 and 1 <= i_t <= N - 2 }
// CHECK-NEXT:  // dep 2: output S.write0 A[i] -> S.write0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// CHECK-NEXT:  module {
stencil.program @init_then_sweep(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.apply @I writes %B over [0] to [N] {
    %a = stencil.access %A[0] : f64
    stencil.yield %a : f64
  }
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      %b = stencil.access %B[1] : f64
      stencil.yield %b : f64
    }
  }
}

// -----

// A field read at the time iterator and never written (PolyBench fdtd-2d's _fict_[t]): no
// dependence; the only one is the rewrite of A[0] in every step.
// CHECK-LABEL: // dependences of @time_source (direct):
// CHECK-NEXT:  // dep 0: output S.write0 A[i] -> S.write0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = 0 and i_t = 0 and 1 <= t_t <= T - 1 }
// CHECK-NEXT:  module {
stencil.program @time_source(%A: !stencil.field<[N] x f64>, %F: !stencil.field<[T] x f64>) params [T >= 1, N >= 1] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [0] to [1] {
      %f = stencil.access %F at [%t] : f64
      stencil.yield %f : f64
    }
  }
}

// -----

// A written field read at the time iterator: non-uniform dependences, one per carrying loop.
// F[t - 1] is last written in this sweep at point t - 1 when i >= t (loop 2), else in the
// previous sweep (loop 1, from the second sweep on).
// CHECK-LABEL: // dependences of @time_written (direct):
// CHECK-NEXT:  // dep 0: flow S.write0 F[i] -> S.read0 F[t - 1]; carried by loop 1; distance non-uniform; [T] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = t_t - 1 and t_t >= 2 and t_t >= i_t + 1 and t_t <= T - 1 and i_t >= 0 }
// CHECK-NEXT:  // dep 1: flow S.write0 F[i] -> S.read0 F[t - 1]; carried by loop 2; distance non-uniform; [T] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t and i_s = t_t - 1 and 1 <= t_t <= i_t and i_t <= T - 1 }
// CHECK-NEXT:  // dep 2: anti S.read0 F[t - 1] -> S.write0 F[i]; carried by loop 1; distance non-uniform; [T] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = i_t + 1 and t_t = i_t + 2 and i_t <= i_s <= T - 1 and 0 <= i_t <= T - 3 }
// CHECK-NEXT:  // dep 3: anti S.read0 F[t - 1] -> S.write0 F[i]; carried by loop 2; distance non-uniform; [T] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = i_t + 1 and t_t = i_t + 1 and 0 <= i_s <= i_t - 1 and i_t <= T - 2 }
// CHECK-NEXT:  // dep 4: output S.write0 F[i] -> S.write0 F[i]; carried by loop 1; distance (1, 0); [T] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 2 <= t_t <= T - 1 and 0 <= i_t <= T - 1 }
// CHECK-NEXT:  module {
stencil.program @time_written(%F: !stencil.field<[T] x f64>) params [T >= 2] {
  stencil.iterate %t = 1 to T {
    stencil.apply @S writes %F over [0] to [T] {
      %i = stencil.index 0
      %f = stencil.access %F at [%t - 1] : f64
      stencil.yield %f : f64
    }
  }
}

// -----

// No conflicting accesses.
// CHECK-LABEL: // dependences of @independent (direct):
// CHECK-NEXT:  // (none)
// CHECK-NEXT:  module {
stencil.program @independent(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [N >= 1] {
  stencil.apply @S writes %B over [0] to [N] {
    %a = stencil.access %A[0] : f64
    stencil.yield %a : f64
  }
}

// -----

// A program that is not a SCoP: the report fails with the located error.
stencil.program @effects(%A: !stencil.field<[N] x f64>) params [N >= 3] {
  stencil.apply @S writes %A over [1] to [N - 1] {
    // expected-error@+1 {{'memref.alloc' op cannot be part of a SCoP}}
    %m = memref.alloc() : memref<4xf64>
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}
