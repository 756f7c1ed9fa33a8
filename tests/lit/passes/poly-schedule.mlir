// poly-schedule (docs/passes.md): Pluto's tiling hyperplanes with the balanced intra-tile
// wavefront constraint of thesis Ch. 4, stored as poly.schedule / poly.bands on each apply and
// printed by --test-print-schedule. Every schedule printed here is also proved legal by
// poly-verify-schedule in the same pipeline.
// These pin Pluto's bands (`coalesce=false`); poly-schedule-coalesce.mlir checks the
// default, which re-chooses single-statement bands for coalesced GPU threads.
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=PLUTO
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=GPU
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule{intra-balance=true fuse=smart coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=GPU
// The stored attributes (the recorded form), and a round trip: the printed IR re-parses and
// prints the same schedules without rescheduling.
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule{coalesce=false})' | FileCheck %s --check-prefix=ATTR
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule{coalesce=false})' | stencil-opt --split-input-file --pass-pipeline='builtin.module(poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=GPU
// Bad option values are reported before any input is read.
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(poly-schedule{fuse=bogus})' 2>&1 | FileCheck %s --check-prefix=BADFUSE
// BADFUSE: option 'fuse' of pass 'poly-schedule': unknown fusion strategy `bogus`: expected smart, max or none

// Thesis Fig. 3.4, `for t: for i in 0..N-1: A[i] = 0.5 * (A[i] + A[i+1])`. Pluto's
// hyperplanes (thesis Fig. 4.1, Φ = [[1, 0], [1, 1]]): the time loop, then the skewed i loop.
// PLUTO-LABEL: // schedule of @fig_3_4:
// PLUTO-NEXT:  // S0: (t, t + i)
// PLUTO-NEXT:  module {
// With balanced intra-tile wavefronts (thesis Fig. 4.3, Φ = [[2, 1], [1, 1]]): the first
// hyperplane strictly satisfies every self dependence (Eq. 4.1).
// GPU-LABEL: // schedule of @fig_3_4:
// GPU-NEXT:  // S0: (2*t + i, t + i)
// GPU-NEXT:  module {
// ATTR-LABEL: stencil.program @fig_3_4
// ATTR:       stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.bands = array<i64: 0, 0>, poly.schedule = affine_map<(d0, d1)[s0, s1] -> (d0 * 2 + d1, d0 + d1)>}
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

// Two time loops one after the other. The iterate's induction variable is named as the
// printer names it (`t`), whatever its SSA name (%s). Without the balance constraint Pluto
// fuses the two nests along i (S1 shifted by one: it reads B[i - 1]), with a scalar row
// ordering S0 before S1 and t innermost — legal, since S0 has no self dependence and S1's
// (distance (1, 0)) is carried by t.
// PLUTO-LABEL: // schedule of @two_loops:
// PLUTO-NEXT:  // S0: (i, 0, t)
// PLUTO-NEXT:  // S1: (i + 1, 1, t)
// PLUTO-NEXT:  module {
// With it (S1's first hyperplane must strictly satisfy its (1, 0) self dependence), the
// scheduler makes a scalar cut between the nests first and each keeps (t, i).
// GPU-LABEL: // schedule of @two_loops:
// GPU-NEXT:  // S0: (0, t, i)
// GPU-NEXT:  // S1: (1, t, i)
// GPU-NEXT:  module {
// ATTR-LABEL: stencil.program @two_loops
// ATTR:       stencil.apply @S0 {{.*}}attributes {poly.bands = array<i64: -1, 0, 0>, poly.schedule = affine_map<(d0, d1)[s0, s1] -> (0, d0, d1)>}
// ATTR:       stencil.apply @S1 {{.*}}attributes {poly.bands = array<i64: -1, 0, 0>, poly.schedule = affine_map<(d0, d1)[s0, s1] -> (1, d0, d1)>}
stencil.program @two_loops(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1] to [N - 1] {
      %l = stencil.access %A[-1] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %r : f64
      stencil.yield %s : f64
    }
  }
  stencil.iterate %s = 0 to T {
    stencil.apply @S1 writes %A over [1] to [N - 1] {
      %l = stencil.access %B[-1] : f64
      %c = stencil.access %A[0] : f64
      %v = arith.addf %l, %c : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// Nested iterates: the iterators are named as the printer names the induction variables
// (`%u` prints as `%t_0`), outermost first, then the box dimension.
// PLUTO-LABEL: // schedule of @nested:
// PLUTO-NEXT:  // S0: (t, t + t_0, 2*t + t_0 + i)
// PLUTO-NEXT:  module {
// GPU-LABEL: // schedule of @nested:
// GPU-NEXT:  // S0: (4*t + 2*t_0 + i, 2*t + t_0 + i, t + t_0)
// GPU-NEXT:  module {
// ATTR-LABEL: stencil.program @nested
// ATTR:       stencil.iterate %t_0 = 0 to 2 {
stencil.program @nested(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.iterate %u = 0 to 2 {
      stencil.apply @S0 writes %A over [1] to [N - 1] {
        %l = stencil.access %A[-1] : f64
        stencil.yield %l : f64
      }
    }
  }
}
