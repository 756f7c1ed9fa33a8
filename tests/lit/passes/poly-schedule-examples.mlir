// poly-schedule on the programs of examples/ (docs/passes.md), with Pluto's options
// (intra-balance=false, prefix P_…) and the GPU options (default, balanced intra-tile
// wavefronts of thesis Def. 4.1, prefix G_…); every schedule is proved legal by
// poly-verify-schedule in the same pipeline (`coalesce=false` throughout: these are Pluto's
// bands; poly-schedule-coalesce.mlir checks the default's coalesced ones). Pluto's own results (docs/poly.md, "Results";
// the CHECK lines of Pluto's test/jacobi-1d-imper.c, jacobi-2d-imper.c, seidel.c):
// jacobi-1d-imper (t, 2t+i, 0), (t, 2t+i+1, 1); jacobi-2d-imper (t, 2t+i, 2t+j),
// (t, 2t+i+1, 2t+j+1); seidel (t, t+i, 2t+i+j) — the P_ lines of polybench-jacobi-1d,
// jacobi-1d-3pt, polybench-jacobi-2d, jacobi-2d-5pt and polybench-seidel-2d are exactly these.
// PolyBench fdtd-2d differs from Pluto's printed (t, t+j, t), (t, t+j, t+i)…: here the
// excitation row is a 2-D apply and Pluto's intra-tile permutation is not applied.
// RUN: stencil-opt %S/../../../examples/jacobi-1d-3pt.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_JACOBI_1D_3PT
// RUN: stencil-opt %S/../../../examples/jacobi-1d-3pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_JACOBI_1D_3PT
// RUN: stencil-opt %S/../../../examples/polybench-jacobi-1d.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_POLYBENCH_JACOBI_1D
// RUN: stencil-opt %S/../../../examples/polybench-jacobi-1d.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_POLYBENCH_JACOBI_1D
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_JACOBI_2D_5PT
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_JACOBI_2D_5PT
// RUN: stencil-opt %S/../../../examples/polybench-jacobi-2d.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_POLYBENCH_JACOBI_2D
// RUN: stencil-opt %S/../../../examples/polybench-jacobi-2d.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_POLYBENCH_JACOBI_2D
// RUN: stencil-opt %S/../../../examples/polybench-seidel-2d.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_POLYBENCH_SEIDEL_2D
// RUN: stencil-opt %S/../../../examples/polybench-seidel-2d.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_POLYBENCH_SEIDEL_2D
// RUN: stencil-opt %S/../../../examples/sor-1d-3pt.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_SOR_1D_3PT
// RUN: stencil-opt %S/../../../examples/sor-1d-3pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_SOR_1D_3PT
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_SOR_2D_5PT
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_SOR_2D_5PT
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_SOR_3D_7PT
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_SOR_3D_7PT
// RUN: stencil-opt %S/../../../examples/heat-2d.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_HEAT_2D
// RUN: stencil-opt %S/../../../examples/heat-2d.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_HEAT_2D
// RUN: stencil-opt %S/../../../examples/fdtd-2d.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_FDTD_2D
// RUN: stencil-opt %S/../../../examples/fdtd-2d.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_FDTD_2D
// RUN: stencil-opt %S/../../../examples/polybench-fdtd-2d.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_POLYBENCH_FDTD_2D
// RUN: stencil-opt %S/../../../examples/polybench-fdtd-2d.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_POLYBENCH_FDTD_2D
// RUN: stencil-opt %S/../../../examples/jacobi-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_JACOBI_3D_7PT
// RUN: stencil-opt %S/../../../examples/jacobi-3d-7pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_JACOBI_3D_7PT
// RUN: stencil-opt %S/../../../examples/jacobi-3d-27pt.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_JACOBI_3D_27PT
// RUN: stencil-opt %S/../../../examples/jacobi-3d-27pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_JACOBI_3D_27PT
// RUN: stencil-opt %S/../../../examples/polybench-heat-3d.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=P_POLYBENCH_HEAT_3D
// RUN: stencil-opt %S/../../../examples/polybench-heat-3d.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=G_POLYBENCH_HEAT_3D
// SSOR (a forward then a reversed sweep) needs negative coefficients for its backward sweep:
// the scheduler renames the reversed iterators (docs/poly.md, "Reversed sweeps"). No hyperplane
// fuses the two sweeps, so t comes first, a cut orders them, and each sweep gets its own band —
// balanced (i + j) with the default options, the band after the cut.
// RUN: stencil-opt %S/../../../examples/ssor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule{coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=SSOR
// RUN: stencil-opt %S/../../../examples/ssor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule{intra-balance=false coalesce=false},poly-verify-schedule)' --test-print-schedule | FileCheck %s --check-prefix=SSOR_PLUTO
// SSOR-LABEL: // schedule of @ssor_2d_5pt:
// SSOR-NEXT:  // F: (t, 0, i + j, j)
// SSOR-NEXT:  // B: (t, 1, -i - j, -j)
// SSOR:       poly.bands = array<i64: 0, -1, 1, 1>
// SSOR_PLUTO-LABEL: // schedule of @ssor_2d_5pt:
// SSOR_PLUTO-NEXT:  // F: (t, 0, i, j)
// SSOR_PLUTO-NEXT:  // B: (t, 1, -i, -j)

// P_JACOBI_1D_3PT-LABEL: // schedule of @jacobi_1d_3pt:
// P_JACOBI_1D_3PT-NEXT:  // S0: (t, 2*t + i, 0)
// P_JACOBI_1D_3PT-NEXT:  // S1: (t, 2*t + i + 1, 1)
// P_JACOBI_1D_3PT-NEXT:  module {
// G_JACOBI_1D_3PT-LABEL: // schedule of @jacobi_1d_3pt:
// G_JACOBI_1D_3PT-NEXT:  // S0: (t, 2*t + i, 0)
// G_JACOBI_1D_3PT-NEXT:  // S1: (t, 2*t + i + 1, 1)
// G_JACOBI_1D_3PT-NEXT:  module {

// P_POLYBENCH_JACOBI_1D-LABEL: // schedule of @polybench_jacobi_1d:
// P_POLYBENCH_JACOBI_1D-NEXT:  // S0: (t, 2*t + i, 0)
// P_POLYBENCH_JACOBI_1D-NEXT:  // S1: (t, 2*t + i + 1, 1)
// P_POLYBENCH_JACOBI_1D-NEXT:  module {
// G_POLYBENCH_JACOBI_1D-LABEL: // schedule of @polybench_jacobi_1d:
// G_POLYBENCH_JACOBI_1D-NEXT:  // S0: (t, 2*t + i, 0)
// G_POLYBENCH_JACOBI_1D-NEXT:  // S1: (t, 2*t + i + 1, 1)
// G_POLYBENCH_JACOBI_1D-NEXT:  module {

// P_JACOBI_2D_5PT-LABEL: // schedule of @jacobi_2d_5pt:
// P_JACOBI_2D_5PT-NEXT:  // S0: (t, 2*t + i, 2*t + j)
// P_JACOBI_2D_5PT-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1)
// P_JACOBI_2D_5PT-NEXT:  module {
// G_JACOBI_2D_5PT-LABEL: // schedule of @jacobi_2d_5pt:
// G_JACOBI_2D_5PT-NEXT:  // S0: (t, 2*t + i, 2*t + j)
// G_JACOBI_2D_5PT-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1)
// G_JACOBI_2D_5PT-NEXT:  module {

// P_POLYBENCH_JACOBI_2D-LABEL: // schedule of @polybench_jacobi_2d:
// P_POLYBENCH_JACOBI_2D-NEXT:  // S0: (t, 2*t + i, 2*t + j)
// P_POLYBENCH_JACOBI_2D-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1)
// P_POLYBENCH_JACOBI_2D-NEXT:  module {
// G_POLYBENCH_JACOBI_2D-LABEL: // schedule of @polybench_jacobi_2d:
// G_POLYBENCH_JACOBI_2D-NEXT:  // S0: (t, 2*t + i, 2*t + j)
// G_POLYBENCH_JACOBI_2D-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1)
// G_POLYBENCH_JACOBI_2D-NEXT:  module {

// P_POLYBENCH_SEIDEL_2D-LABEL: // schedule of @polybench_seidel_2d:
// P_POLYBENCH_SEIDEL_2D-NEXT:  // S: (t, t + i, 2*t + i + j)
// P_POLYBENCH_SEIDEL_2D-NEXT:  module {
// G_POLYBENCH_SEIDEL_2D-LABEL: // schedule of @polybench_seidel_2d:
// G_POLYBENCH_SEIDEL_2D-NEXT:  // S: (4*t + 2*i + j, 2*t + i + j, t + i)
// G_POLYBENCH_SEIDEL_2D-NEXT:  module {

// P_SOR_1D_3PT-LABEL: // schedule of @sor_1d_3pt:
// P_SOR_1D_3PT-NEXT:  // S: (t, t + i)
// P_SOR_1D_3PT-NEXT:  module {
// G_SOR_1D_3PT-LABEL: // schedule of @sor_1d_3pt:
// G_SOR_1D_3PT-NEXT:  // S: (2*t + i, t + i)
// G_SOR_1D_3PT-NEXT:  module {

// P_SOR_2D_5PT-LABEL: // schedule of @sor_2d_5pt:
// P_SOR_2D_5PT-NEXT:  // S: (t, t + i, t + j)
// P_SOR_2D_5PT-NEXT:  module {
// G_SOR_2D_5PT-LABEL: // schedule of @sor_2d_5pt:
// G_SOR_2D_5PT-NEXT:  // S: (2*t + i + j, t + i + j, t + j)
// G_SOR_2D_5PT-NEXT:  module {

// P_SOR_3D_7PT-LABEL: // schedule of @sor_3d_7pt:
// P_SOR_3D_7PT-NEXT:  // S: (t, t + i, t + j, t + k)
// P_SOR_3D_7PT-NEXT:  module {
// G_SOR_3D_7PT-LABEL: // schedule of @sor_3d_7pt:
// G_SOR_3D_7PT-NEXT:  // S: (2*t + i + j + k, t + j + k, t + i + j, t + i + k)
// G_SOR_3D_7PT-NEXT:  module {

// P_HEAT_2D-LABEL: // schedule of @heat_2d:
// P_HEAT_2D-NEXT:  // S0: (t, 2*t + i, 2*t + j)
// P_HEAT_2D-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1)
// P_HEAT_2D-NEXT:  module {
// G_HEAT_2D-LABEL: // schedule of @heat_2d:
// G_HEAT_2D-NEXT:  // S0: (t, 2*t + i, 2*t + j)
// G_HEAT_2D-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1)
// G_HEAT_2D-NEXT:  module {

// P_FDTD_2D-LABEL: // schedule of @fdtd_2d:
// P_FDTD_2D-NEXT:  // S0: (t, t + i, t + j)
// P_FDTD_2D-NEXT:  // S1: (t, t + i, t + j)
// P_FDTD_2D-NEXT:  // S2: (t, t + i + 1, t + j + 1)
// P_FDTD_2D-NEXT:  module {
// G_FDTD_2D-LABEL: // schedule of @fdtd_2d:
// G_FDTD_2D-NEXT:  // S0: (t, t + i, t + j)
// G_FDTD_2D-NEXT:  // S1: (t, t + i, t + j)
// G_FDTD_2D-NEXT:  // S2: (t, t + i + 1, t + j + 1)
// G_FDTD_2D-NEXT:  module {

// P_POLYBENCH_FDTD_2D-LABEL: // schedule of @polybench_fdtd_2d:
// P_POLYBENCH_FDTD_2D-NEXT:  // S0: (t, t + i, t + j)
// P_POLYBENCH_FDTD_2D-NEXT:  // S1: (t, t + i, t + j)
// P_POLYBENCH_FDTD_2D-NEXT:  // S2: (t, t + i, t + j)
// P_POLYBENCH_FDTD_2D-NEXT:  // S3: (t, t + i + 1, t + j + 1)
// P_POLYBENCH_FDTD_2D-NEXT:  module {
// G_POLYBENCH_FDTD_2D-LABEL: // schedule of @polybench_fdtd_2d:
// G_POLYBENCH_FDTD_2D-NEXT:  // S0: (t, t + i, t + j)
// G_POLYBENCH_FDTD_2D-NEXT:  // S1: (t, t + i, t + j)
// G_POLYBENCH_FDTD_2D-NEXT:  // S2: (t, t + i, t + j)
// G_POLYBENCH_FDTD_2D-NEXT:  // S3: (t, t + i + 1, t + j + 1)
// G_POLYBENCH_FDTD_2D-NEXT:  module {

// P_JACOBI_3D_7PT-LABEL: // schedule of @jacobi_3d_7pt:
// P_JACOBI_3D_7PT-NEXT:  // S0: (t, 2*t + i, 2*t + j, 2*t + k)
// P_JACOBI_3D_7PT-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1, 2*t + k + 1)
// P_JACOBI_3D_7PT-NEXT:  module {
// G_JACOBI_3D_7PT-LABEL: // schedule of @jacobi_3d_7pt:
// G_JACOBI_3D_7PT-NEXT:  // S0: (t, 2*t + i, 2*t + j, 2*t + k)
// G_JACOBI_3D_7PT-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1, 2*t + k + 1)
// G_JACOBI_3D_7PT-NEXT:  module {

// P_JACOBI_3D_27PT-LABEL: // schedule of @jacobi_3d_27pt:
// P_JACOBI_3D_27PT-NEXT:  // S0: (t, 2*t + i, 2*t + j, 2*t + k, 0)
// P_JACOBI_3D_27PT-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1, 2*t + k + 1, 1)
// P_JACOBI_3D_27PT-NEXT:  module {
// G_JACOBI_3D_27PT-LABEL: // schedule of @jacobi_3d_27pt:
// G_JACOBI_3D_27PT-NEXT:  // S0: (t, 2*t + i, 2*t + j, 2*t + k, 0)
// G_JACOBI_3D_27PT-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1, 2*t + k + 1, 1)
// G_JACOBI_3D_27PT-NEXT:  module {

// P_POLYBENCH_HEAT_3D-LABEL: // schedule of @polybench_heat_3d:
// P_POLYBENCH_HEAT_3D-NEXT:  // S0: (t, 2*t + i, 2*t + j, 2*t + k)
// P_POLYBENCH_HEAT_3D-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1, 2*t + k + 1)
// P_POLYBENCH_HEAT_3D-NEXT:  module {
// G_POLYBENCH_HEAT_3D-LABEL: // schedule of @polybench_heat_3d:
// G_POLYBENCH_HEAT_3D-NEXT:  // S0: (t, 2*t + i, 2*t + j, 2*t + k)
// G_POLYBENCH_HEAT_3D-NEXT:  // S1: (t, 2*t + i + 1, 2*t + j + 1, 2*t + k + 1)
// G_POLYBENCH_HEAT_3D-NEXT:  module {
