// --check compares bits, except that two NaNs are equal whatever their sign and payload: IEEE
// 754 leaves those of a NaN an invalid operation produces open, and the host (x86: 0xFFF8…)
// and constant folding (0x7FF8…, as MLIR's APFloat) do differ. ∞ − ∞ folded by canonicalize
// is the same program (a NaN against a number still differs: runtime/src/compare.rs's tests).
// RUN: stencil-run %s -p 'builtin.module(canonicalize)' --check | FileCheck %s
// RUN: stencil-run %s -p 'builtin.module(canonicalize)' --check --json | FileCheck %s --check-prefix=JSON

// (On a host whose ∞ − ∞ is the folder's NaN, aarch64's, the bits agree and nothing is counted.)
// CHECK: check    against the untransformed program on ref (bit-exact): passed
// CHECK-NEXT: A: identical{{( \(2 NaNs with other sign or payload bits, which IEEE 754 leaves open\))?$}}
// JSON: "nan_bits_differing":{{[02]}}
stencil.program @p(%A: !stencil.field<[N] x f64>)
    params [T >= 1, N >= 1] defaults [T = 1, N = 2] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [0] to [N] {
      %a = arith.constant 0x7FF0000000000000 : f64
      %b = arith.constant 0xFFF0000000000000 : f64
      %r = arith.addf %a, %b : f64
      stencil.yield %r : f64
    }
  }
}
