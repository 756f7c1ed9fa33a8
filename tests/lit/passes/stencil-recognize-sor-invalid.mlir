// stencil-recognize-sor refusals: near-misses of an SOR update, each refused with its reason.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(stencil-recognize-sor)'

// non-Laplacian weight ω/5
// expected-error@+3 {{is not an SOR update: weights the neighbours 0.274 for ω = 1.37, not ω/4 = 0.3425: not a Laplacian weight}}
stencil.program @fifth(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 4, M >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 2, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.2 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %omega, %quarter : f64
      %old = arith.mulf %keep, %c : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %e : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// the (1 − ω) weight on a neighbour: a centre read at an offset
// expected-error@+3 {{is not an SOR update: weights A[0, 1] by 1 - ω and the current point by 0: the relaxation term must read the point being written, not one at an offset}}
stencil.program @centre_at_offset(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 4, M >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 2, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %omega, %quarter : f64
      %old = arith.mulf %keep, %e : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %s : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// a read two points away
// expected-error@+3 {{is not an SOR update: reads A[2, 0], which is not a neighbour of the 5-point Laplacian (offsets ±1 along one dimension)}}
stencil.program @far_read(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 4, M >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 2, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %far = stencil.access %A[2, 0] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %omega, %quarter : f64
      %old = arith.mulf %keep, %c : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2x = arith.addf %s1, %e : f64
      %s2 = arith.addf %s2x, %far : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// unequal neighbour weights
// expected-error@+3 {{is not an SOR update: weights the neighbours differently (A[-1, 0] by 0.685, A[0, 1] by 0.3425); the Laplacian weights every neighbour ω/4}}
stencil.program @lopsided(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 4, M >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 2, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %half = arith.constant 0.5 : f64
      %keep = arith.subf %one, %omega : f64
      %old = arith.mulf %keep, %c : f64
      %relax = arith.mulf %omega, %quarter : f64
      %heavy = arith.mulf %omega, %half : f64
      %a = arith.addf %n, %w : f64
      %an = arith.mulf %heavy, %a : f64
      %b = arith.addf %s, %e : f64
      %bn = arith.mulf %relax, %b : f64
      %sum = arith.addf %an, %bn : f64
      %v = arith.addf %old, %sum : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// Jacobi into another field: reads a field it does not write
// expected-error@+14 {{is not an SOR update: reads field 'B'; an SOR update reads only the field it writes ('A')}}
stencil.program @other_field(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 4, M >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 2, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %omega, %quarter : f64
      %old = arith.mulf %keep, %c : f64
      %b = stencil.access %B[-1, 0] : f64
      %s0 = arith.addf %b, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %e : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// a product of reads
// expected-error@+3 {{is not an SOR update: is not linear in the field values (it multiplies or divides reads)}}
stencil.program @product(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 4, M >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 2, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %omega, %quarter : f64
      %cc = arith.mulf %c, %c : f64
      %old = arith.mulf %keep, %cc : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %e : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// a right-hand side constant
// expected-error@+3 {{is not an SOR update: adds a constant term (0.5); an SOR update of the Laplace equation has none}}
stencil.program @source_term(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 4, M >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 2, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %omega, %quarter : f64
      %old = arith.mulf %keep, %c : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %e : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      %h = arith.constant 0.5 : f64
      %vh = arith.addf %v, %h : f64
      stencil.yield %vh : f64
    }
  }
}

// -----

// a centre weight other than 1 − ω
// expected-error@+3 {{is not an SOR update: weights the current point 0.63, but an SOR update with ω = 1.37 weights it 1 - ω = -0.37}}
stencil.program @centre_weight(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 4, M >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 2, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %omega, %quarter : f64
      %old0 = arith.mulf %keep, %c : f64
      %old = arith.addf %old0, %c : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %e : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// ω depending on the position
// expected-error@+11 {{is not an SOR update: computes with 'arith.sitofp', which is not part of an SOR update (only +, -, *, /, negation and math.fma of field reads, one scalar and constants)}}
stencil.program @position(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 4, M >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 2, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %i = stencil.index 0
      %ii = arith.index_cast %i : index to i64
      %fi = arith.sitofp %ii : i64 to f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %fi, %quarter : f64
      %old = arith.mulf %keep, %c : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %e : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// two scalars
// expected-error@+3 {{is not an SOR update: uses the scalars %omega, %tau; ω must be one scalar argument or a constant}}
stencil.program @two_scalars(%A: !stencil.field<[N, M] x f64>, %omega: f64, %tau: f64) params [T >= 1, N >= 4, M >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 2, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, 1] : f64
      %one = arith.constant 1.0 : f64
      %quarter = arith.constant 0.25 : f64
      %keep = arith.subf %one, %omega : f64
      %relax = arith.mulf %tau, %quarter : f64
      %old = arith.mulf %keep, %c : f64
      %s0 = arith.addf %n, %w : f64
      %s1 = arith.addf %s0, %s : f64
      %s2 = arith.addf %s1, %e : f64
      %new = arith.mulf %relax, %s2 : f64
      %v = arith.addf %old, %new : f64
      stencil.yield %v : f64
    }
  }
}
