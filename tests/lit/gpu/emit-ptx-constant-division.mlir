// Divisions by constants in the kernels' PTX (docs/gpu.md, "ptxas"): `x / 7` becomes
// `x · RN(1/7)` with one fused correction — the correctly rounded quotient, as `div.rn` — where
// |x| lies in the range that keeps every step normal; zeros, subnormals, infinities and NaNs
// take `div.rn` in the other branch. A power of two (`/ 4`), a divisor that is not a constant
// and a division with fast-math flags (`/ 9`, nnan) keep LLVM's own code. `--reciprocal-division=false` keeps `div.rn` everywhere. Our
// IR, and so the simulator and the fingerprints, keep `arith.divf`.
// RUN: stencil-opt %s --param N=64 --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx | FileCheck %s
// CHECK: .entry divisions_k0
// CHECK-DAG: abs.f32
// CHECK-DAG: mul.rn.f32 [[Q:%r[0-9]+]], [[X:%r[0-9]+]], 0f3E124925
// CHECK-DAG: fma.rn.f32 [[E:%r[0-9]+]], [[Q]], 0fC0E00000, [[X]]
// CHECK-DAG: fma.rn.f32 {{%r[0-9]+}}, [[E]], 0f3E124925, [[Q]]
// CHECK-DAG: div.rn.f32 {{%r[0-9]+}}, [[X]], 0f40E00000
// CHECK-DAG: mul.rn.f32 {{.*}}0f3E800000
// CHECK-DAG: div.rn.f32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}
// CHECK-DAG: div.rn.f32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0f41100000
// CHECK-NOT: 0fC1100000
// CHECK: .entry divisions_k1
// RUN: stencil-opt %s --param N=64 --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx --reciprocal-division=false | FileCheck %s --check-prefix=DIV
// DIV-NOT: fma.rn.f32
// DIV: div.rn.f32 {{.*}}0f40E00000
// DIV-NOT: fma.rn.f32
// RUN: stencil-opt %s --param N=64 --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=IR
// IR: arith.divf {{.*}} : f32
// RUN: stencil-run %s --param N=40 --param T=3 --pass-pipeline='builtin.module(gpu-map{naive})' --target sim --check | FileCheck %s --check-prefix=SIM
// SIM: check    {{.*}}(bit-exact): passed
stencil.program @divisions(%A: !stencil.field<[N] x f32>, %B: !stencil.field<[N] x f32>)
    params [T >= 1, N >= 3] defaults [T = 4, N = 32] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1] to [N - 1] {
      %w = stencil.access %A[-1] : f32
      %c = stencil.access %A[0] : f32
      %e = stencil.access %A[1] : f32
      %s = arith.addf %w, %e : f32
      %seven = arith.constant 7.0 : f32
      %four = arith.constant 4.0 : f32
      %q = arith.divf %s, %seven : f32
      %h = arith.divf %c, %four : f32
      %r = arith.divf %q, %c : f32
      %v0 = arith.addf %r, %e : f32
      %nine = arith.constant 9.0 : f32
      %n = arith.divf %v0, %nine fastmath<nnan> : f32
      %v = arith.addf %n, %h : f32
      stencil.yield %v : f32
    }
    stencil.apply @S1 writes %A over [1] to [N - 1] {
      %b = stencil.access %B[0] : f32
      stencil.yield %b : f32
    }
  }
}
