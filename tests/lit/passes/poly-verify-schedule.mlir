// poly-verify-schedule (docs/passes.md): the legality checker (thesis Thm 3.1; exact integer
// emptiness per dependence and schedule row) on poly.schedule attributes written by hand.
// Legal schedules are accepted and printed; an illegal one is an error at the target apply
// naming the violated dependence and its smallest instance (parameters, source and target
// iterations, both time stamps), with a note at the source apply.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(poly-verify-schedule)' --test-print-schedule | FileCheck %s

// Thesis Fig. 3.4 with Pluto's schedule (Fig. 4.1) written by hand, dimension and symbol names
// free: accepted.
// CHECK-LABEL: // schedule of @fig_3_4_pluto:
// CHECK-NEXT:  // S0: (t, t + i)
stencil.program @fig_3_4_pluto(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.schedule = affine_map<(t, i)[T, N] -> (t, t + i)>} {
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %c, %e : f64
      stencil.yield %s : f64
    }
  }
}

// -----

// The identity (original order) is legal too.
// CHECK-LABEL: // schedule of @fig_3_4_identity:
// CHECK-NEXT:  // S0: (t, i)
stencil.program @fig_3_4_identity(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.schedule = affine_map<(d0, d1)[s0, s1] -> (d0, d1)>} {
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %c, %e : f64
      stencil.yield %s : f64
    }
  }
}

// -----

// Interchange (i, t) is illegal: the flow dependence of distance (1, -1) (Table 3.1's e2) would
// run backwards. Smallest counter-example: T = 2, N = 4, A[1] written by S0(t = 0, i = 1) at
// time (1, 0) and read by S0(t = 1, i = 0) at time (0, 1).
stencil.program @fig_3_4_interchanged(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    // expected-error@+2 {{schedule violates dependence 1 (flow S0.write0 A[i] -> S0.read1 A[i + 1]): with T = 2, N = 4 the target S0(t = 1, i = 0) at (0, 1) is scheduled before (schedule row 0) the source S0(t = 0, i = 1) at (1, 0)}}
    // expected-note@+1 {{source statement S0 of the dependence}}
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.schedule = affine_map<(t, i)[T, N] -> (i, t)>} {
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %c, %e : f64
      stencil.yield %s : f64
    }
  }
}

// -----

// The identity hyperplanes of SOR-1D (thesis Fig. 3.13) as a *sequential* schedule are legal
// (it is the original order); reversing i is not: the in-place read of A[i - 1] (flow, distance
// (0, 1)) would see the old value.
stencil.program @sor_1d_reversed(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    // expected-error@+2 {{schedule violates dependence 0 (flow S.write0 A[i] -> S.read0 A[i - 1]): with T = 1, N = 4 the target S(t = 0, i = 2) at (0, -2) is scheduled before (schedule row 1) the source S(t = 0, i = 1) at (0, -1)}}
    // expected-note@+1 {{source statement S of the dependence}}
    stencil.apply @S writes %A over [1] to [N - 1] attributes {poly.schedule = affine_map<(t, i)[T, N] -> (t, -i)>} {
      %l = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %c : f64
      %v = arith.addf %s, %r : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// Equal time stamps for dependent instances are a violation too (a schedule that is not
// injective where it must order): everything at time t.
stencil.program @same_time(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    // expected-error@+2 {{at the same time stamp as}}
    // expected-note@+1 {{source statement S0 of the dependence}}
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.schedule = affine_map<(t, i)[T, N] -> (t)>} {
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %c, %e : f64
      stencil.yield %s : f64
    }
  }
}

// -----

// Malformed attributes: wrong arity, not an affine map, partial schedules.
stencil.program @bad_arity(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    // expected-error@+1 {{'poly.schedule' must map the statement's 2 iterator(s) (t, i) and the program's 2 parameter(s) (T, N), got a map with 1 dimension(s) and 0 symbol(s)}}
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.schedule = affine_map<(d0) -> (d0)>} {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

stencil.program @not_a_map(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    // expected-error@+1 {{'poly.schedule' must be an affine_map}}
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.schedule = array<i64: 1, 0>} {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

stencil.program @not_affine(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    // expected-error@+1 {{result 1 of 'poly.schedule' is not an affine form of the iterators and parameters}}
    stencil.apply @S0 writes %A over [0] to [N - 1] attributes {poly.schedule = affine_map<(d0, d1)[s0, s1] -> (d0, d1 mod 2)>} {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

stencil.program @partial(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [0] to [N] attributes {poly.schedule = affine_map<(d0, d1)[s0, s1] -> (d0, d1, 0)>} {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
    // expected-error@+1 {{has no 'poly.schedule' while other applies of the program have one}}
    stencil.apply @S1 writes %A over [0] to [N] {
      %c = stencil.access %B[0] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// poly.bands makes rows a permutable band, checked with thesis Thm 3.3 (every band row
// non-decreasing on every dependence not satisfied before the band). SOR-1D's identity
// hyperplanes (thesis Fig. 3.13) are a legal order but not a tileable band: the flow
// dependence into the read of A[i + 1] (distance (1, -1)) decreases along i.
stencil.program @sor_1d_identity_band(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    // expected-error@+2 {{band 0 (schedule rows 0..2) is not permutable (thesis Thm 3.3): row 1 decreases along dependence 2 (flow S.write0 A[i] -> S.read2 A[i + 1]): with T = 2, N = 4 the source S(t = 0, i = 2) at (0, 2), the target S(t = 1, i = 1) at (1, 1)}}
    // expected-note@+1 {{source statement S of the dependence}}
    stencil.apply @S writes %A over [1] to [N - 1] attributes {poly.bands = array<i64: 0, 0>, poly.schedule = affine_map<(t, i)[T, N] -> (t, i)>} {
      %l = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %c : f64
      %v = arith.addf %s, %r : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// The same rows as two one-row bands (or no poly.bands at all) are accepted, and Pluto's
// skewed band (t, t + i) is permutable.
// CHECK-LABEL: // schedule of @sor_1d_identity_two_bands:
// CHECK-NEXT:  // S: (t, i)
stencil.program @sor_1d_identity_two_bands(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] attributes {poly.bands = array<i64: 0, 1>, poly.schedule = affine_map<(t, i)[T, N] -> (t, i)>} {
      %l = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %c : f64
      %v = arith.addf %s, %r : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// CHECK-LABEL: // schedule of @sor_1d_pluto_band:
// CHECK-NEXT:  // S: (t, t + i)
stencil.program @sor_1d_pluto_band(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] attributes {poly.bands = array<i64: 0, 0>, poly.schedule = affine_map<(t, i)[T, N] -> (t, t + i)>} {
      %l = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %c : f64
      %v = arith.addf %s, %r : f64
      stencil.yield %v : f64
    }
  }
}

// -----

stencil.program @bad_bands(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    // expected-error@+1 {{'poly.bands' must have one entry per schedule row (2), got 3}}
    stencil.apply @S writes %A over [1] to [N - 1] attributes {poly.bands = array<i64: 0, 0, 0>, poly.schedule = affine_map<(t, i)[T, N] -> (t, t + i)>} {
      %c = stencil.access %A[0] : f64
      stencil.yield %c : f64
    }
  }
}
