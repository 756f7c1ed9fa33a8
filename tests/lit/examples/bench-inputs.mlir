// The GPU bundle's experiment inputs (bench/inputs/README.md) stay valid: their hand-written bands
// pass poly-tile's legality check and run bit-exactly on the simulator (sor-3d-7pt-kstride's
// innermost point row is t + i + j: its threads step by (t, k) += (1, -2), as --explain-tile-sizes says).
// RUN: stencil-run %S/../../../bench/inputs/sor-3d-7pt-kstride.mlir --param N=14 --param M=12 --param L=16 --param T=4 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(poly-tile{sizes=3,6,6,6},gpu-map{block=8,2,2 staging=false})' | FileCheck %s
// RUN: stencil-opt %S/../../../bench/inputs/sor-3d-7pt-kstride.mlir | FileCheck %s --check-prefix=BAND
// RUN: stencil-opt %S/../../../bench/inputs/sor-3d-7pt-kstride.mlir --explain-tile-sizes \
// RUN:   --pass-pipeline='builtin.module(poly-tile{sizes=3,6,6,6 staging=false},gpu-map{block=8,2,2 staging=false})' | FileCheck %s --check-prefix=THREADS
// RUN: stencil-run %S/../../../bench/inputs/sor-2d-5pt-jstride.mlir --param N=70 --param M=53 --param T=9 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(poly-tile{sizes=32,32,8},gpu-map{block=8,16 staging=false})' | FileCheck %s --check-prefix=JSTRIDE

// CHECK: mapping  wavefront: tile=3x6x6x6 block=8x2x2 grid=per-tile staging=false
// CHECK: races 0
// CHECK: check    against the untransformed program on ref (bit-exact): passed
// BAND: poly.schedule = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d0 * 2 + d1 + d2 + d3, d0 * 2 + d1 + d3, d0 * 2 + d2 + d3, d0 + d1 + d2)>
// JSTRIDE: mapping  wavefront: tile=32x32x8 block=8x16x1 grid=per-tile staging=false
// JSTRIDE: races 0
// JSTRIDE: check    against the untransformed program on ref (bit-exact): passed
// THREADS: // neighbouring threads along x
// THREADS-NEXT: //   S: iterators += (1, 0, 0, -2); A subscripts += (0, 0, -2): elements 2 apart in a row (partly coalesced)
