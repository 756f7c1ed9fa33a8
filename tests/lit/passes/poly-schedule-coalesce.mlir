// poly-schedule{coalesce=true} (docs/passes.md): the band's rows after the first are re-chosen so
// that neighbouring GPU threads of a tile step along the last subscript; checked legal, bit-exact
// after tiling and mapping, and programs it does not cover keep Pluto's band.
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=true})' | FileCheck %s --check-prefix=SOR3D
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=true},poly-verify-schedule)' | FileCheck %s --check-prefix=SOR2D
// RUN: stencil-opt %S/../../../examples/sor-1d-3pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=true})' | FileCheck %s --check-prefix=SOR1D
// RUN: stencil-opt %S/../../../examples/polybench-seidel-2d.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=true})' | FileCheck %s --check-prefix=SEIDEL
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=true})' | FileCheck %s --check-prefix=JACOBI
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --param N=512 --param M=512 --param L=512 --param T=20 --explain-tile-sizes \
// RUN:   --pass-pipeline='builtin.module(poly-schedule{coalesce=true},poly-tile{sizes=3,6,6,6 staging=false},gpu-map{block=8,2,2 staging=false})' | FileCheck %s --check-prefix=THREADS
// RUN: stencil-run %S/../../../examples/sor-3d-7pt.mlir --param N=13 --param M=11 --param L=15 --param T=7 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(poly-schedule{coalesce=true},poly-tile{sizes=3,6,6,6},gpu-map{block=8,2,2 staging=false})' | FileCheck %s --check-prefix=SIM
// A backward sweep (order reverse) gets the mirror image: rows with the first row's signs.
// RUN: sed 's/to \[N - 1, M - 1, L - 1\] {/to [N - 1, M - 1, L - 1] order reverse {/' %S/../../../examples/sor-3d-7pt.mlir > %t.reverse.mlir
// RUN: stencil-opt %t.reverse.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=true},poly-verify-schedule)' | FileCheck %s --check-prefix=REVERSE
// RUN: stencil-run %t.reverse.mlir --param N=13 --param M=11 --param L=15 --param T=7 --target sim --check \
// RUN:   --pass-pipeline='builtin.module(poly-schedule{coalesce=true},poly-tile{sizes=3,6,6,6},gpu-map{block=8,2,2 staging=false})' | FileCheck %s --check-prefix=SIM
// RUN: not stencil-opt %S/../../../examples/sor-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=maybe})' 2>&1 | FileCheck %s --check-prefix=BAD

// SOR3D: poly.schedule = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d0 * 2 + d1 + d2 + d3, d0 * 2 + d3, d0 * 2 + d2 + d3, d0)>
// REVERSE: order reverse
// REVERSE-SAME: poly.schedule = affine_map<(d0, d1, d2, d3)[s0, s1, s2, s3] -> (d0 * 2 - d1 - d2 - d3, d0 * 2 - d3, d0 * 2 - d2 - d3, d0)>
// SOR2D: poly.schedule = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 * 2 + d1 + d2, d0 * 2 + d2, d0)>
// Seidel's first row 4t + 2i + j: threads 4 elements apart.
// SEIDEL: poly.schedule = affine_map<(d0, d1, d2)[s0, s1] -> (d0 * 4 + d1 * 2 + d2, d0 * 4 + d1 + d2, d0)>
// 1-D SOR's threads are 2 elements apart already (the least its first row allows): unchanged.
// SOR1D: poly.schedule = affine_map<(d0, d1)[s0, s1] -> (d0 * 2 + d1, d0 + d1)>
// Two statements: not covered, Pluto's band.
// JACOBI: poly.schedule = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, d0 * 2 + d1, d0 * 2 + d2)>
// THREADS:      //      1  3x6x6x6        8x2x2      {{ *}}{{[0-9.]+}} ms        792   5132819    68%
// THREADS:      // neighbouring threads along x
// THREADS-NEXT: //   S: iterators += (1, 0, 0, -2); A subscripts += (0, 0, -2): elements 2 apart in a row (partly coalesced)
// SIM: mapping  wavefront: tile=3x6x6x6 block=8x2x2 grid=per-tile staging=false
// SIM: races 0
// SIM: check    against the untransformed program on ref (bit-exact): passed
// BAD: coalesce
