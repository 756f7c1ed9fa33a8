// poly-remove-false-deps (docs/passes.md): parallelism-hindering false dependences (thesis
// Def. 4.2, Alg. 4.2) removed by array copying (thesis Fig. 4.4), on the IR (a new field
// argument A0, the copy apply A0 = A right before the reader in each time step, the one-time
// initialisation of the element never written, and the redirected read).
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-remove-false-deps)' | FileCheck %s --check-prefix=IR
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-remove-false-deps)' --test-print-dependences | FileCheck %s --check-prefix=DEPS
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-remove-false-deps,poly-schedule{intra-balance=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=SCHED
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-remove-false-deps,poly-schedule,poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=SCHED
// Executed: the original fields are bit-identical to the untransformed program's (the new
// field A0 is not an argument of the original and is not compared).
// RUN: stencil-run %s --entry fig_3_4 --pass-pipeline='builtin.module(poly-remove-false-deps)' --check --param T=7 --param N=19 | FileCheck %s --check-prefix=EXEC
// RUN: stencil-run %s --entry excitation_1d --pass-pipeline='builtin.module(poly-remove-false-deps)' --check --param T=6 --param N=13 | FileCheck %s --check-prefix=EXEC
// RUN: stencil-run %S/../../../examples/jacobi-1d-3pt.mlir --pass-pipeline='builtin.module(poly-remove-false-deps)' --check | FileCheck %s --check-prefix=EXEC
// Budget: deciding hindrance runs the exact scheduler; over max-statements (default 12, as
// poly-schedule's) the program is left as it is, with a warning.
// RUN: stencil-opt %S/../../../examples/jacobi-1d-3pt.mlir --pass-pipeline='builtin.module(poly-remove-false-deps{max-statements=1})' 2>&1 | FileCheck %s --check-prefix=BUDGET
// BUDGET: jacobi-1d-3pt.mlir:{{[0-9]+}}:1: warning: poly-remove-false-deps: 2 statements exceed the budget of the hindrance analysis (poly-remove-false-deps{max-statements=1}), which runs the exact scheduler; the program is left as it is
// BUDGET:     stencil.program @jacobi_1d_3pt(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params
// BUDGET:     stencil.apply @S0 writes %B
// BUDGET:     stencil.apply @S1 writes %A
// BUDGET-NOT: stencil.apply
// RUN: stencil-run %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(poly-remove-false-deps)' --check | FileCheck %s --check-prefix=EXEC
// RUN: stencil-run %S/../../../examples/jacobi-3d-7pt.mlir --pass-pipeline='builtin.module(poly-remove-false-deps)' --check | FileCheck %s --check-prefix=EXEC
// RUN: stencil-run %S/../../../examples/heat-2d.mlir --pass-pipeline='builtin.module(poly-remove-false-deps)' --check | FileCheck %s --check-prefix=EXEC
// examples/polybench-fdtd-2d.mlir is left unchanged: its excitation is a 1 x NY box of a 2-D
// apply, and no false dependence hinders parallelism there (Def. 4.2; docs/poly.md).
// RUN: stencil-run %S/../../../examples/polybench-fdtd-2d.mlir --pass-pipeline='builtin.module(poly-remove-false-deps)' --check | FileCheck %s --check-prefix=EXEC
// RUN: stencil-run %S/../../../examples/jacobi-3d-27pt.mlir --pass-pipeline='builtin.module(poly-remove-false-deps)' --check | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: A0: identical
// EXEC: check    against the untransformed program on ref (bit-exact): passed
// EXEC-NOT: A0:
// After the copy, Jacobi-style examples lose the 2t skew (thesis Table 4.1's "False Dependence
// Elimination"); every schedule is verified.
// RUN: stencil-opt %S/../../../examples/jacobi-1d-3pt.mlir --pass-pipeline='builtin.module(poly-remove-false-deps,poly-schedule,poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=J1D
// J1D-LABEL: // schedule of @jacobi_1d_3pt:
// J1D-NEXT:  // A0_init: (0, i, 0, 0)
// J1D-NEXT:  // A0_copy: (1, t, t + i, 1)
// J1D-NEXT:  // S0: (1, t, t + i, 2)
// J1D-NEXT:  // S1: (1, t, t + i, 3)
// J1D-NEXT:  module {
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(poly-remove-false-deps,poly-schedule,poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=J2D
// J2D-LABEL: // schedule of @jacobi_2d_5pt:
// J2D-NEXT:  // A0_init: (0, i, j, 0, 0)
// J2D-NEXT:  // A0_copy: (1, t, t + i, t + j, 1)
// J2D-NEXT:  // S0: (1, t, t + i, t + j, 2)
// J2D-NEXT:  // S1: (1, t, t + i, t + j, 3)
// J2D-NEXT:  module {
// Nothing to eliminate for SOR (every anti dependence has a flow twin): unchanged.
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-remove-false-deps)' | FileCheck %s --check-prefix=SOR
// SOR:     stencil.program @sor_2d_5pt(%A: !stencil.field<[N, M] x f64>, %omega: f64)
// SOR-NOT: A0

// Thesis Fig. 3.4: the anti dependence of A[i + 1] (Table 3.1's e3, distance (0, 1)) hinders
// the wavefront; A[N - 1] is read but never written, so it is copied once before the loop.
// IR-LABEL: stencil.program @fig_3_4(%A: !stencil.field<[N] x f64>, %A0: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
// IR-NEXT:    stencil.apply @A0_init writes %A0 over [N - 1] to [N] {
// IR-NEXT:      %0 = stencil.access %A[0] : f64
// IR-NEXT:      stencil.yield %0 : f64
// IR-NEXT:    }
// IR-NEXT:    stencil.iterate %t = 0 to T {
// IR-NEXT:      stencil.apply @A0_copy writes %A0 over [1] to [N - 1] {
// IR-NEXT:        %0 = stencil.access %A[0] : f64
// IR-NEXT:        stencil.yield %0 : f64
// IR-NEXT:      }
// IR-NEXT:      stencil.apply @S0 writes %A over [0] to [N - 1] {
// IR-NEXT:        %0 = stencil.access %A[0] : f64
// IR-NEXT:        %1 = stencil.access %A0[1] : f64
// The eight dependences of thesis Fig. 4.5 (deps 1–8; A0_copy is the thesis' S0, S0 its S1),
// plus the flow from the initialisation.
// DEPS-LABEL: // dependences of @fig_3_4 (direct):
// dependences of @fig_3_4 (direct):
// DEPS-NEXT: // dep 0: flow A0_init.write0 A0[i] -> S0.read1 A0[i + 1]; loop-independent; distance non-uniform;
// DEPS-NEXT: // dep 1: output A0_copy.write0 A0[i] -> A0_copy.write0 A0[i]; carried by loop 1; distance (1, 0);
// DEPS-NEXT: // dep 2: flow A0_copy.write0 A0[i] -> S0.read1 A0[i + 1]; loop-independent; distance (0, -1);
// DEPS-NEXT: // dep 3: anti A0_copy.read0 A[i] -> S0.write0 A[i]; loop-independent; distance (0, 0);
// DEPS-NEXT: // dep 4: flow S0.write0 A[i] -> A0_copy.read0 A[i]; carried by loop 1; distance (1, 0);
// DEPS-NEXT: // dep 5: anti S0.read1 A0[i + 1] -> A0_copy.write0 A0[i]; carried by loop 1; distance (1, 1);
// DEPS-NEXT: // dep 6: flow S0.write0 A[i] -> S0.read0 A[i]; carried by loop 1; distance (1, 0);
// DEPS-NEXT: // dep 7: anti S0.read0 A[i] -> S0.write0 A[i]; carried by loop 1; distance (1, 0);
// DEPS-NEXT: // dep 8: output S0.write0 A[i] -> S0.write0 A[i]; carried by loop 1; distance (1, 0);
// DEPS-NEXT: module {
// Thesis Fig. 4.6: Φ_copy = Φ_S0 = [[1, 0], [1, 1]], S0 shifted by (0, 1); the leading scalar
// row runs the initialisation first, the trailing one orders the copy before the update within
// a wavefront (thesis Fig. 4.7). The same with and without the balance constraint (the first
// hyperplane t already strictly satisfies every self dependence).
// SCHED-LABEL: // schedule of @fig_3_4:
// SCHED-NEXT:  // A0_init: (0, i, 0, 0)
// SCHED-NEXT:  // A0_copy: (1, t, t + i, 1)
// SCHED-NEXT:  // S0: (1, t, t + i + 1, 2)
// SCHED-NEXT:  module {
// An excitation read in its own time step (thesis Table 4.1's FDTD pattern, docs/poly.md
// Limitations): S1 reads A[0], which S0 writes earlier in the same time step and again in the
// next one (an anti dependence carried by t). The copy of A runs once per time step, after S0
// and right before S1 — not once before the loop, which would hide the new value of A[0] —
// and also serves the loop-independent anti dependence of A[i] on S2. The copied program
// computes bit-identical fields (EXEC above).
// XIR-LABEL: stencil.program @excitation_1d(
// XIR:         stencil.iterate %t = 0 to T {
// XIR-NEXT:      stencil.apply @S0 writes %A over [0] to [1] {
// XIR:           stencil.apply @A0_copy writes %A0 over [0] to [N - 1] {
// XIR-NEXT:        %0 = stencil.access %A[0] : f64
// XIR:           stencil.apply @S1 writes %B over [0] to [N - 1] {
// XIR-NEXT:        %0 = stencil.access %A0[0] : f64
// XSCHED-LABEL: // schedule of @excitation_1d:
// XSCHED-NEXT:  // S0: (t, t + i, 0)
// XSCHED-NEXT:  // A0_copy: (t, t + i, 1)
// XSCHED-NEXT:  // S1: (t, t + i, 2)
// XSCHED-NEXT:  // B0_copy: (t, t + i, 3)
// XSCHED-NEXT:  // S2: (t, t + i, 4)
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-remove-false-deps)' | FileCheck %s --check-prefix=XIR
// RUN: stencil-opt %s --pass-pipeline='builtin.module(poly-remove-false-deps,poly-schedule,poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=XSCHED
stencil.program @excitation_1d(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>, %f: !stencil.field<[T] x f64>)
    params [T >= 1, N >= 4] defaults [T = 6, N = 13] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [1] {
      %v = stencil.access %f at [%t] : f64
      stencil.yield %v : f64
    }
    stencil.apply @S1 writes %B over [0] to [N - 1] {
      %a = stencil.access %A[0] : f64
      %b = stencil.access %B[0] : f64
      %c = arith.addf %a, %b : f64
      stencil.yield %c : f64
    }
    stencil.apply @S2 writes %A over [1] to [N] {
      %a = stencil.access %A[0] : f64
      %b = stencil.access %B[-1] : f64
      %half = arith.constant 0.5 : f64
      %d = arith.subf %b, %a : f64
      %c = arith.mulf %half, %d : f64
      %v = arith.addf %a, %c : f64
      stencil.yield %v : f64
    }
  }
}

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
