// Neighbouring global-memory accesses in the kernels' PTX (docs/gpu.md, "ptxas"): the reads of
// one argument at constant offsets from each other index a flat view of it from one row-major
// index, so the ±1 neighbours along the innermost dimension are immediate offsets of the
// centre's address (the rows above and below still take an add and a widening multiply-add each:
// their stride is a kernel parameter). `--flat-addresses=false` indexes
// every access per dimension (each neighbour its own widening multiply). Our IR, the simulator
// and the fingerprints keep the multi-dimensional accesses; the simulator runs the PTX's
// rewrite bit-exact in `cargo test` (lowering, ptx::flat_addresses).
// RUN: stencil-opt %s --param N=64 --param M=48 --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx --gpu-index-bitwidth=32 | FileCheck %s
// CHECK: .entry flat_k0
// CHECK-DAG: ld.global.b64 {{%rd[0-9]+}}, [[[C:%rd[0-9]+]]+-8];
// CHECK-DAG: ld.global.b64 {{%rd[0-9]+}}, [[[C]]+8];
// CHECK: .entry flat_k1
// RUN: stencil-opt %s --param N=64 --param M=48 --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx --gpu-index-bitwidth=32 --flat-addresses=false | FileCheck %s --check-prefix=OFF
// OFF: .entry flat_k0
// OFF-NOT: +8]
// OFF: .entry flat_k1
// With 64-bit index the view is the same (MLIR's own linearization was already foldable there).
// RUN: stencil-opt %s --param N=64 --param M=48 --pass-pipeline='builtin.module(gpu-map{naive})' --emit=ptx --gpu-index-bitwidth=64 | FileCheck %s
// RUN: stencil-opt %s --param N=64 --param M=48 --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=IR
// IR-NOT: memref.reinterpret_cast
// IR: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf64>
// RUN: stencil-run %s --param N=40 --param M=30 --param T=3 --pass-pipeline='builtin.module(gpu-map{naive})' --target sim --check | FileCheck %s --check-prefix=SIM
// SIM: check    {{.*}}(bit-exact): passed
stencil.program @flat(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 4, N = 32, M = 32] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %a = arith.addf %w, %e : f64
      %b = arith.addf %n, %s : f64
      %v = arith.addf %a, %b : f64
      %u = arith.addf %v, %c : f64
      stencil.yield %u : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %B[0, 0] : f64
      stencil.yield %c : f64
    }
  }
}
