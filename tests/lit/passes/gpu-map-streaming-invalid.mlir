// gpu-map{strategy=streaming} refuses what it cannot stream, located at the program.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu-map{strategy=streaming})'
// Prefetching loads planes a stream step ahead: only the streaming strategy has planes.
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{strategy=overlapped prefetch=true})' 2>&1 | FileCheck %s --check-prefix=PREFETCH
// PREFETCH: error: option 'prefetch' of pass 'gpu-map': prefetching loads the planes of the streaming strategy; strategy=overlapped has none (use strategy=streaming)

// 1-D applies: nothing to tile beside the stream.
// expected-error@+1 {{gpu-map{strategy=streaming} failed: the applies have 1 dimension(s); streaming needs 2 or 3 (it streams along the outermost and tiles the others): use strategy=overlapped}}
stencil.program @jacobi1d(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1] to [N - 1] {
      %w = stencil.access %A[-1] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %w, %e : f64
      stencil.yield %s : f64
    }
    stencil.apply @S1 writes %A over [1] to [N - 1] {
      %c = stencil.access %B[0] : f64
      stencil.yield %c : f64
    }
  }
}

// -----

// An in-place sweep (Gauss-Seidel, DOACROSS): the stream would reorder its dependences.
// expected-error@+1 {{gpu-map{strategy=streaming} failed: gpu-map{strategy=streaming} maps DOALL applies only, and S reads elements of the field it writes that other points of the same sweep write}}
stencil.program @seidel(%A: !stencil.field<[N, N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, N - 1] {
      // expected-note@+1 {{S reads the field it writes here}}
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %a = arith.addf %n, %s : f64
      stencil.yield %a : f64
    }
  }
}
