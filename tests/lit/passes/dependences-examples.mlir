// The dependences of every program in examples/ (stencil-opt --test-print-dependences, direct
// mode), each one checked by hand against the program's sequential semantics: complete lines
// (with the dependence polyhedra) for the seed benchmarks whose polyhedra were checked too,
// kinds, accesses, levels and distance vectors for the others. A NEXT chain ending at `module`
// pins the exact number of dependences.
// RUN: stencil-opt %S/../../../examples/jacobi-1d-3pt.mlir --test-print-dependences | FileCheck %s --check-prefix=JACOBI_1D_3PT
// RUN: stencil-opt %S/../../../examples/sor-1d-3pt.mlir --test-print-dependences | FileCheck %s --check-prefix=SOR_1D_3PT
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --test-print-dependences | FileCheck %s --check-prefix=SOR_2D_5PT
// RUN: stencil-opt %S/../../../examples/ssor-2d-5pt.mlir --test-print-dependences | FileCheck %s --check-prefix=SSOR_2D_5PT
// RUN: stencil-opt %S/../../../examples/polybench-fdtd-2d.mlir --test-print-dependences | FileCheck %s --check-prefix=POLYBENCH_FDTD_2D
// RUN: stencil-opt %S/../../../examples/fdtd-2d.mlir --test-print-dependences | FileCheck %s --check-prefix=FDTD_2D
// RUN: stencil-opt %S/../../../examples/sor-3d-7pt.mlir --test-print-dependences | FileCheck %s --check-prefix=SOR_3D_7PT
// RUN: stencil-opt %S/../../../examples/polybench-seidel-2d.mlir --test-print-dependences | FileCheck %s --check-prefix=POLYBENCH_SEIDEL_2D
// RUN: stencil-opt %S/../../../examples/heat-2d.mlir --test-print-dependences | FileCheck %s --check-prefix=HEAT_2D
// RUN: stencil-opt %S/../../../examples/hhc-gradient-2d.mlir --test-print-dependences | FileCheck %s --check-prefix=HHC_GRADIENT_2D
// RUN: stencil-opt %S/../../../examples/hhc-gradient-3d.mlir --test-print-dependences | FileCheck %s --check-prefix=HHC_GRADIENT_3D
// RUN: stencil-opt %S/../../../examples/hhc-heat-2d.mlir --test-print-dependences | FileCheck %s --check-prefix=HHC_HEAT_2D
// RUN: stencil-opt %S/../../../examples/hhc-heat-3d.mlir --test-print-dependences | FileCheck %s --check-prefix=HHC_HEAT_3D
// RUN: stencil-opt %S/../../../examples/hhc-jacobi-2d.mlir --test-print-dependences | FileCheck %s --check-prefix=HHC_JACOBI_2D
// RUN: stencil-opt %S/../../../examples/hhc-jacobi-3d.mlir --test-print-dependences | FileCheck %s --check-prefix=HHC_JACOBI_3D
// RUN: stencil-opt %S/../../../examples/hhc-laplacian-2d.mlir --test-print-dependences | FileCheck %s --check-prefix=HHC_LAPLACIAN_2D
// RUN: stencil-opt %S/../../../examples/hhc-laplacian-3d.mlir --test-print-dependences | FileCheck %s --check-prefix=HHC_LAPLACIAN_3D
// RUN: stencil-opt %S/../../../examples/jacobi-2d-5pt.mlir --test-print-dependences | FileCheck %s --check-prefix=JACOBI_2D_5PT
// RUN: stencil-opt %S/../../../examples/jacobi-3d-27pt.mlir --test-print-dependences | FileCheck %s --check-prefix=JACOBI_3D_27PT
// RUN: stencil-opt %S/../../../examples/jacobi-3d-7pt.mlir --test-print-dependences | FileCheck %s --check-prefix=JACOBI_3D_7PT
// RUN: stencil-opt %S/../../../examples/polybench-heat-3d.mlir --test-print-dependences | FileCheck %s --check-prefix=POLYBENCH_HEAT_3D
// RUN: stencil-opt %S/../../../examples/polybench-jacobi-1d.mlir --test-print-dependences | FileCheck %s --check-prefix=POLYBENCH_JACOBI_1D
// RUN: stencil-opt %S/../../../examples/polybench-jacobi-2d.mlir --test-print-dependences | FileCheck %s --check-prefix=POLYBENCH_JACOBI_2D

// Thesis Fig. 3.2(a), Jacobi's imperfect nest (B = mean3(A); A = B): S0 -> S1 flow through B in
// the same step (0, 0); S1 -> S0 flow across steps (1, 1), (1, 0), (1, -1); anti S0 -> S1 (S1
// overwrites the A that S0 read, (0, -1), (0, 0), (0, 1)) and S1 -> S0 (1, 0); output (1, 0).
// JACOBI_1D_3PT-LABEL: // dependences of @jacobi_1d_3pt (direct):
// JACOBI_1D_3PT-NEXT:  // dep 0: output S0.write0 B[i] -> S0.write0 B[i]; carried by loop 1; distance (1, 0); [T, N] -> { S0[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// JACOBI_1D_3PT-NEXT:  // dep 1: flow S0.write0 B[i] -> S1.read0 B[i]; loop-independent; distance (0, 0); [T, N] -> { S0[t_s, i_s] -> S1[t_t, i_t] : t_s = t_t and i_s = i_t and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// JACOBI_1D_3PT-NEXT:  // dep 2: anti S0.read0 A[i - 1] -> S1.write0 A[i]; loop-independent; distance (0, -1); [T, N] -> { S0[t_s, i_s] -> S1[t_t, i_t] : t_s = t_t and i_s = i_t + 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 3 }
// JACOBI_1D_3PT-NEXT:  // dep 3: anti S0.read1 A[i] -> S1.write0 A[i]; loop-independent; distance (0, 0); [T, N] -> { S0[t_s, i_s] -> S1[t_t, i_t] : t_s = t_t and i_s = i_t and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// JACOBI_1D_3PT-NEXT:  // dep 4: anti S0.read2 A[i + 1] -> S1.write0 A[i]; loop-independent; distance (0, 1); [T, N] -> { S0[t_s, i_s] -> S1[t_t, i_t] : t_s = t_t and i_s = i_t - 1 and 0 <= t_t <= T - 1 and 2 <= i_t <= N - 2 }
// JACOBI_1D_3PT-NEXT:  // dep 5: flow S1.write0 A[i] -> S0.read0 A[i - 1]; carried by loop 1; distance (1, 1); [T, N] -> { S1[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t - 1 and 1 <= t_t <= T - 1 and 2 <= i_t <= N - 2 }
// JACOBI_1D_3PT-NEXT:  // dep 6: flow S1.write0 A[i] -> S0.read1 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S1[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// JACOBI_1D_3PT-NEXT:  // dep 7: flow S1.write0 A[i] -> S0.read2 A[i + 1]; carried by loop 1; distance (1, -1); [T, N] -> { S1[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t + 1 and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 3 }
// JACOBI_1D_3PT-NEXT:  // dep 8: anti S1.read0 B[i] -> S0.write0 B[i]; carried by loop 1; distance (1, 0); [T, N] -> { S1[t_s, i_s] -> S0[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// JACOBI_1D_3PT-NEXT:  // dep 9: output S1.write0 A[i] -> S1.write0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S1[t_s, i_s] -> S1[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// JACOBI_1D_3PT-NEXT:  module {

// Thesis Fig. 3.2(b), 1-D SOR in place: A[i - 1] is this sweep's value (flow (0, 1), carried by
// the i loop: DOACROSS), A[i] and A[i + 1] the previous sweep's ((1, 0), (1, -1)); each read is
// next overwritten in the next sweep (west, centre) or later in this one (east, (0, 1)).
// SOR_1D_3PT-LABEL: // dependences of @sor_1d_3pt (direct):
// SOR_1D_3PT-NEXT:  // dep 0: flow S.write0 A[i] -> S.read0 A[i - 1]; carried by loop 2; distance (0, 1); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t and i_s = i_t - 1 and 0 <= t_t <= T - 1 and 2 <= i_t <= N - 2 }
// SOR_1D_3PT-NEXT:  // dep 1: flow S.write0 A[i] -> S.read1 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// SOR_1D_3PT-NEXT:  // dep 2: flow S.write0 A[i] -> S.read2 A[i + 1]; carried by loop 1; distance (1, -1); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = i_t + 1 and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 3 }
// SOR_1D_3PT-NEXT:  // dep 3: anti S.read0 A[i - 1] -> S.write0 A[i]; carried by loop 1; distance (1, -1); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = i_t + 1 and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 3 }
// SOR_1D_3PT-NEXT:  // dep 4: anti S.read1 A[i] -> S.write0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// SOR_1D_3PT-NEXT:  // dep 5: anti S.read2 A[i + 1] -> S.write0 A[i]; carried by loop 2; distance (0, 1); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t and i_s = i_t - 1 and 0 <= t_t <= T - 1 and 2 <= i_t <= N - 2 }
// SOR_1D_3PT-NEXT:  // dep 6: output S.write0 A[i] -> S.write0 A[i]; carried by loop 1; distance (1, 0); [T, N] -> { S[t_s, i_s] -> S[t_t, i_t] : t_s = t_t - 1 and i_s = i_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 }
// SOR_1D_3PT-NEXT:  module {

// 2-D SOR-5 in place (thesis Eq. 6.4): flow (0, 1, 0) and (0, 0, 1) within a sweep (the
// DOACROSS dependences of the i and j loops), (1, 0, 0), (1, -1, 0), (1, 0, -1) across sweeps;
// anti dependences mirror them; the polyhedra exclude the boundary rows that are never written
// (2 <= i_t for the north read).
// SOR_2D_5PT-LABEL: // dependences of @sor_2d_5pt (direct):
// SOR_2D_5PT-NEXT:  // dep 0: flow S.write0 A[i, j] -> S.read0 A[i, j]; carried by loop 1; distance (1, 0, 0); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SOR_2D_5PT-NEXT:  // dep 1: flow S.write0 A[i, j] -> S.read1 A[i - 1, j]; carried by loop 2; distance (0, 1, 0); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t and i_s = i_t - 1 and j_s = j_t and 0 <= t_t <= T - 1 and 2 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SOR_2D_5PT-NEXT:  // dep 2: flow S.write0 A[i, j] -> S.read2 A[i, j - 1]; carried by loop 3; distance (0, 0, 1); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t - 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 2 <= j_t <= M - 2 }
// SOR_2D_5PT-NEXT:  // dep 3: flow S.write0 A[i, j] -> S.read3 A[i + 1, j]; carried by loop 1; distance (1, -1, 0); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t + 1 and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 3 and 1 <= j_t <= M - 2 }
// SOR_2D_5PT-NEXT:  // dep 4: flow S.write0 A[i, j] -> S.read4 A[i, j + 1]; carried by loop 1; distance (1, 0, -1); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t + 1 and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 3 }
// SOR_2D_5PT-NEXT:  // dep 5: anti S.read0 A[i, j] -> S.write0 A[i, j]; carried by loop 1; distance (1, 0, 0); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SOR_2D_5PT-NEXT:  // dep 6: anti S.read1 A[i - 1, j] -> S.write0 A[i, j]; carried by loop 1; distance (1, -1, 0); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t + 1 and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 3 and 1 <= j_t <= M - 2 }
// SOR_2D_5PT-NEXT:  // dep 7: anti S.read2 A[i, j - 1] -> S.write0 A[i, j]; carried by loop 1; distance (1, 0, -1); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t + 1 and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 3 }
// SOR_2D_5PT-NEXT:  // dep 8: anti S.read3 A[i + 1, j] -> S.write0 A[i, j]; carried by loop 2; distance (0, 1, 0); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t and i_s = i_t - 1 and j_s = j_t and 0 <= t_t <= T - 1 and 2 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SOR_2D_5PT-NEXT:  // dep 9: anti S.read4 A[i, j + 1] -> S.write0 A[i, j]; carried by loop 3; distance (0, 0, 1); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t - 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 2 <= j_t <= M - 2 }
// SOR_2D_5PT-NEXT:  // dep 10: output S.write0 A[i, j] -> S.write0 A[i, j]; carried by loop 1; distance (1, 0, 0); [T, N, M] -> { S[t_s, i_s, j_s] -> S[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SOR_2D_5PT-NEXT:  module {

// Symmetric SOR: forward sweep F, then reverse sweep B on the same field. B's reads of A[i - 1]
// and A[i, j - 1] see F's values (loop-independent), its reads of A[i + 1] and A[i, j + 1] see
// its own (flow (0, -1, 0), (0, 0, -1): carried by loops 2 and 3, negative in the iterators
// because the loops run backwards); F's reads of the previous step come from B.
// SSOR_2D_5PT-LABEL: // dependences of @ssor_2d_5pt (direct):
// SSOR_2D_5PT-NEXT:  // dep 0: flow F.write0 A[i, j] -> F.read1 A[i - 1, j]; carried by loop 2; distance (0, 1, 0); [T, N, M] -> { F[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t and i_s = i_t - 1 and j_s = j_t and 0 <= t_t <= T - 1 and 2 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 1: flow F.write0 A[i, j] -> F.read2 A[i, j - 1]; carried by loop 3; distance (0, 0, 1); [T, N, M] -> { F[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t - 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 2 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 2: anti F.read3 A[i + 1, j] -> F.write0 A[i, j]; carried by loop 2; distance (0, 1, 0); [T, N, M] -> { F[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t and i_s = i_t - 1 and j_s = j_t and 0 <= t_t <= T - 1 and 2 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 3: anti F.read4 A[i, j + 1] -> F.write0 A[i, j]; carried by loop 3; distance (0, 0, 1); [T, N, M] -> { F[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t - 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 2 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 4: flow F.write0 A[i, j] -> B.read0 A[i, j]; loop-independent; distance (0, 0, 0); [T, N, M] -> { F[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 5: flow F.write0 A[i, j] -> B.read1 A[i - 1, j]; loop-independent; distance (0, 1, 0); [T, N, M] -> { F[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t - 1 and j_s = j_t and 0 <= t_t <= T - 1 and 2 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 6: flow F.write0 A[i, j] -> B.read2 A[i, j - 1]; loop-independent; distance (0, 0, 1); [T, N, M] -> { F[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t - 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 2 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 7: anti F.read0 A[i, j] -> B.write0 A[i, j]; loop-independent; distance (0, 0, 0); [T, N, M] -> { F[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 8: anti F.read1 A[i - 1, j] -> B.write0 A[i, j]; loop-independent; distance (0, -1, 0); [T, N, M] -> { F[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t + 1 and j_s = j_t and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 3 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 9: anti F.read2 A[i, j - 1] -> B.write0 A[i, j]; loop-independent; distance (0, 0, -1); [T, N, M] -> { F[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t + 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 3 }
// SSOR_2D_5PT-NEXT:  // dep 10: output F.write0 A[i, j] -> B.write0 A[i, j]; loop-independent; distance (0, 0, 0); [T, N, M] -> { F[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 11: flow B.write0 A[i, j] -> F.read0 A[i, j]; carried by loop 1; distance (1, 0, 0); [T, N, M] -> { B[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 12: flow B.write0 A[i, j] -> F.read3 A[i + 1, j]; carried by loop 1; distance (1, -1, 0); [T, N, M] -> { B[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t + 1 and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 3 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 13: flow B.write0 A[i, j] -> F.read4 A[i, j + 1]; carried by loop 1; distance (1, 0, -1); [T, N, M] -> { B[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t + 1 and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 3 }
// SSOR_2D_5PT-NEXT:  // dep 14: anti B.read0 A[i, j] -> F.write0 A[i, j]; carried by loop 1; distance (1, 0, 0); [T, N, M] -> { B[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 15: anti B.read3 A[i + 1, j] -> F.write0 A[i, j]; carried by loop 1; distance (1, 1, 0); [T, N, M] -> { B[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t - 1 and j_s = j_t and 1 <= t_t <= T - 1 and 2 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 16: anti B.read4 A[i, j + 1] -> F.write0 A[i, j]; carried by loop 1; distance (1, 0, 1); [T, N, M] -> { B[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t - 1 and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 2 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 17: output B.write0 A[i, j] -> F.write0 A[i, j]; carried by loop 1; distance (1, 0, 0); [T, N, M] -> { B[t_s, i_s, j_s] -> F[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 18: flow B.write0 A[i, j] -> B.read3 A[i + 1, j]; carried by loop 2; distance (0, -1, 0); [T, N, M] -> { B[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t + 1 and j_s = j_t and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 3 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 19: flow B.write0 A[i, j] -> B.read4 A[i, j + 1]; carried by loop 3; distance (0, 0, -1); [T, N, M] -> { B[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t + 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 3 }
// SSOR_2D_5PT-NEXT:  // dep 20: anti B.read1 A[i - 1, j] -> B.write0 A[i, j]; carried by loop 2; distance (0, -1, 0); [T, N, M] -> { B[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t + 1 and j_s = j_t and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 3 and 1 <= j_t <= M - 2 }
// SSOR_2D_5PT-NEXT:  // dep 21: anti B.read2 A[i, j - 1] -> B.write0 A[i, j]; carried by loop 3; distance (0, 0, -1); [T, N, M] -> { B[t_s, i_s, j_s] -> B[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t + 1 and 0 <= t_t <= T - 1 and 1 <= i_t <= N - 2 and 1 <= j_t <= M - 3 }
// SSOR_2D_5PT-NEXT:  module {

// PolyBench fdtd-2d: S0 (ey[0][j] = fict[t], a 1 x NY box) reads fict, which nothing writes:
// no dependence on it. Its write feeds S3's read of ey[i][j] at row 0; S1 writes the other rows.
// hz flows into the next step's S1/S2 ((1, 0, 0), (1, 1, 0), (1, 0, 1)); ey/ex into S3 in the
// same step.
// POLYBENCH_FDTD_2D-LABEL: // dependences of @polybench_fdtd_2d (direct):
// POLYBENCH_FDTD_2D-NEXT:  // dep 0: output S0.write0 ey[i, j] -> S0.write0 ey[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S0[t_s, i_s, j_s] -> S0[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = 0 and j_s = j_t and i_t = 0 and 1 <= t_t <= T - 1 and 0 <= j_t <= NY - 1 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 1: flow S0.write0 ey[i, j] -> S3.read3 ey[i, j]; loop-independent; distance (0, 0, 0); [T, NX, NY] -> { S0[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t and i_s = 0 and j_s = j_t and i_t = 0 and 0 <= t_t <= T - 1 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 2: flow S1.write0 ey[i, j] -> S1.read0 ey[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S1[t_s, i_s, j_s] -> S1[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= NX - 1 and 0 <= j_t <= NY - 1 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 3: anti S1.read0 ey[i, j] -> S1.write0 ey[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S1[t_s, i_s, j_s] -> S1[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= NX - 1 and 0 <= j_t <= NY - 1 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 4: output S1.write0 ey[i, j] -> S1.write0 ey[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S1[t_s, i_s, j_s] -> S1[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= NX - 1 and 0 <= j_t <= NY - 1 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 5: flow S1.write0 ey[i, j] -> S3.read3 ey[i, j]; loop-independent; distance (0, 0, 0); [T, NX, NY] -> { S1[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t and 0 <= t_t <= T - 1 and 1 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 6: flow S1.write0 ey[i, j] -> S3.read4 ey[i + 1, j]; loop-independent; distance (0, -1, 0); [T, NX, NY] -> { S1[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t and i_s = i_t + 1 and j_s = j_t and 0 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 7: anti S1.read1 hz[i, j] -> S3.write0 hz[i, j]; loop-independent; distance (0, 0, 0); [T, NX, NY] -> { S1[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t and 0 <= t_t <= T - 1 and 1 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 8: anti S1.read2 hz[i - 1, j] -> S3.write0 hz[i, j]; loop-independent; distance (0, -1, 0); [T, NX, NY] -> { S1[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t and i_s = i_t + 1 and j_s = j_t and 0 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 9: flow S2.write0 ex[i, j] -> S2.read0 ex[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S2[t_s, i_s, j_s] -> S2[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 0 <= i_t <= NX - 1 and 1 <= j_t <= NY - 1 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 10: anti S2.read0 ex[i, j] -> S2.write0 ex[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S2[t_s, i_s, j_s] -> S2[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 0 <= i_t <= NX - 1 and 1 <= j_t <= NY - 1 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 11: output S2.write0 ex[i, j] -> S2.write0 ex[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S2[t_s, i_s, j_s] -> S2[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 0 <= i_t <= NX - 1 and 1 <= j_t <= NY - 1 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 12: flow S2.write0 ex[i, j] -> S3.read1 ex[i, j]; loop-independent; distance (0, 0, 0); [T, NX, NY] -> { S2[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t and 0 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 1 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 13: flow S2.write0 ex[i, j] -> S3.read2 ex[i, j + 1]; loop-independent; distance (0, 0, -1); [T, NX, NY] -> { S2[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t + 1 and 0 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 14: anti S2.read1 hz[i, j] -> S3.write0 hz[i, j]; loop-independent; distance (0, 0, 0); [T, NX, NY] -> { S2[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t and 0 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 1 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 15: anti S2.read2 hz[i, j - 1] -> S3.write0 hz[i, j]; loop-independent; distance (0, 0, -1); [T, NX, NY] -> { S2[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t and i_s = i_t and j_s = j_t + 1 and 0 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 16: anti S3.read3 ey[i, j] -> S0.write0 ey[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S0[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = 0 and j_s = j_t and i_t = 0 and 1 <= t_t <= T - 1 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 17: flow S3.write0 hz[i, j] -> S1.read1 hz[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S1[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 18: flow S3.write0 hz[i, j] -> S1.read2 hz[i - 1, j]; carried by loop 1; distance (1, 1, 0); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S1[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t - 1 and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= NX - 1 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 19: anti S3.read3 ey[i, j] -> S1.write0 ey[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S1[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 20: anti S3.read4 ey[i + 1, j] -> S1.write0 ey[i, j]; carried by loop 1; distance (1, 1, 0); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S1[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t - 1 and j_s = j_t and 1 <= t_t <= T - 1 and 1 <= i_t <= NX - 1 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 21: flow S3.write0 hz[i, j] -> S2.read1 hz[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S2[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 1 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 22: flow S3.write0 hz[i, j] -> S2.read2 hz[i, j - 1]; carried by loop 1; distance (1, 0, 1); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S2[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t - 1 and 1 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 1 <= j_t <= NY - 1 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 23: anti S3.read1 ex[i, j] -> S2.write0 ex[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S2[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 1 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 24: anti S3.read2 ex[i, j + 1] -> S2.write0 ex[i, j]; carried by loop 1; distance (1, 0, 1); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S2[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t - 1 and 1 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 1 <= j_t <= NY - 1 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 25: flow S3.write0 hz[i, j] -> S3.read0 hz[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 26: anti S3.read0 hz[i, j] -> S3.write0 hz[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  // dep 27: output S3.write0 hz[i, j] -> S3.write0 hz[i, j]; carried by loop 1; distance (1, 0, 0); [T, NX, NY] -> { S3[t_s, i_s, j_s] -> S3[t_t, i_t, j_t] : t_s = t_t - 1 and i_s = i_t and j_s = j_t and 1 <= t_t <= T - 1 and 0 <= i_t <= NX - 2 and 0 <= j_t <= NY - 2 }
// POLYBENCH_FDTD_2D-NEXT:  module {

// Thesis Table 4.1 FDTD (3 statements, no source): the same structure as PolyBench's without S0.
// FDTD_2D-LABEL: // dependences of @fdtd_2d (direct):
// FDTD_2D-NEXT:  // dep 0: flow S0.write0 ey[i, j] -> S0.read0 ey[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 1: anti S0.read0 ey[i, j] -> S0.write0 ey[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 2: output S0.write0 ey[i, j] -> S0.write0 ey[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 3: flow S0.write0 ey[i, j] -> S2.read3 ey[i, j]; loop-independent; distance (0, 0, 0);
// FDTD_2D-NEXT:  // dep 4: flow S0.write0 ey[i, j] -> S2.read4 ey[i + 1, j]; loop-independent; distance (0, -1, 0);
// FDTD_2D-NEXT:  // dep 5: anti S0.read1 hz[i, j] -> S2.write0 hz[i, j]; loop-independent; distance (0, 0, 0);
// FDTD_2D-NEXT:  // dep 6: anti S0.read2 hz[i - 1, j] -> S2.write0 hz[i, j]; loop-independent; distance (0, -1, 0);
// FDTD_2D-NEXT:  // dep 7: flow S1.write0 ex[i, j] -> S1.read0 ex[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 8: anti S1.read0 ex[i, j] -> S1.write0 ex[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 9: output S1.write0 ex[i, j] -> S1.write0 ex[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 10: flow S1.write0 ex[i, j] -> S2.read1 ex[i, j]; loop-independent; distance (0, 0, 0);
// FDTD_2D-NEXT:  // dep 11: flow S1.write0 ex[i, j] -> S2.read2 ex[i, j + 1]; loop-independent; distance (0, 0, -1);
// FDTD_2D-NEXT:  // dep 12: anti S1.read1 hz[i, j] -> S2.write0 hz[i, j]; loop-independent; distance (0, 0, 0);
// FDTD_2D-NEXT:  // dep 13: anti S1.read2 hz[i, j - 1] -> S2.write0 hz[i, j]; loop-independent; distance (0, 0, -1);
// FDTD_2D-NEXT:  // dep 14: flow S2.write0 hz[i, j] -> S0.read1 hz[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 15: flow S2.write0 hz[i, j] -> S0.read2 hz[i - 1, j]; carried by loop 1; distance (1, 1, 0);
// FDTD_2D-NEXT:  // dep 16: anti S2.read3 ey[i, j] -> S0.write0 ey[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 17: anti S2.read4 ey[i + 1, j] -> S0.write0 ey[i, j]; carried by loop 1; distance (1, 1, 0);
// FDTD_2D-NEXT:  // dep 18: flow S2.write0 hz[i, j] -> S1.read1 hz[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 19: flow S2.write0 hz[i, j] -> S1.read2 hz[i, j - 1]; carried by loop 1; distance (1, 0, 1);
// FDTD_2D-NEXT:  // dep 20: anti S2.read1 ex[i, j] -> S1.write0 ex[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 21: anti S2.read2 ex[i, j + 1] -> S1.write0 ex[i, j]; carried by loop 1; distance (1, 0, 1);
// FDTD_2D-NEXT:  // dep 22: flow S2.write0 hz[i, j] -> S2.read0 hz[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 23: anti S2.read0 hz[i, j] -> S2.write0 hz[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  // dep 24: output S2.write0 hz[i, j] -> S2.write0 hz[i, j]; carried by loop 1; distance (1, 0, 0);
// FDTD_2D-NEXT:  module {

// 3-D SOR-7: flow (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1) within a sweep, (1, 0, 0, 0) and
// (1, -1, 0, 0), (1, 0, -1, 0), (1, 0, 0, -1) across sweeps; anti mirrored.
// SOR_3D_7PT-LABEL: // dependences of @sor_3d_7pt (direct):
// SOR_3D_7PT-NEXT:  // dep 0: flow S.write0 A[i, j, k] -> S.read0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// SOR_3D_7PT-NEXT:  // dep 1: flow S.write0 A[i, j, k] -> S.read1 A[i - 1, j, k]; carried by loop 2; distance (0, 1, 0, 0);
// SOR_3D_7PT-NEXT:  // dep 2: flow S.write0 A[i, j, k] -> S.read2 A[i, j - 1, k]; carried by loop 3; distance (0, 0, 1, 0);
// SOR_3D_7PT-NEXT:  // dep 3: flow S.write0 A[i, j, k] -> S.read3 A[i, j, k - 1]; carried by loop 4; distance (0, 0, 0, 1);
// SOR_3D_7PT-NEXT:  // dep 4: flow S.write0 A[i, j, k] -> S.read4 A[i + 1, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// SOR_3D_7PT-NEXT:  // dep 5: flow S.write0 A[i, j, k] -> S.read5 A[i, j + 1, k]; carried by loop 1; distance (1, 0, -1, 0);
// SOR_3D_7PT-NEXT:  // dep 6: flow S.write0 A[i, j, k] -> S.read6 A[i, j, k + 1]; carried by loop 1; distance (1, 0, 0, -1);
// SOR_3D_7PT-NEXT:  // dep 7: anti S.read0 A[i, j, k] -> S.write0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// SOR_3D_7PT-NEXT:  // dep 8: anti S.read1 A[i - 1, j, k] -> S.write0 A[i, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// SOR_3D_7PT-NEXT:  // dep 9: anti S.read2 A[i, j - 1, k] -> S.write0 A[i, j, k]; carried by loop 1; distance (1, 0, -1, 0);
// SOR_3D_7PT-NEXT:  // dep 10: anti S.read3 A[i, j, k - 1] -> S.write0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, -1);
// SOR_3D_7PT-NEXT:  // dep 11: anti S.read4 A[i + 1, j, k] -> S.write0 A[i, j, k]; carried by loop 2; distance (0, 1, 0, 0);
// SOR_3D_7PT-NEXT:  // dep 12: anti S.read5 A[i, j + 1, k] -> S.write0 A[i, j, k]; carried by loop 3; distance (0, 0, 1, 0);
// SOR_3D_7PT-NEXT:  // dep 13: anti S.read6 A[i, j, k + 1] -> S.write0 A[i, j, k]; carried by loop 4; distance (0, 0, 0, 1);
// SOR_3D_7PT-NEXT:  // dep 14: output S.write0 A[i, j, k] -> S.write0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// SOR_3D_7PT-NEXT:  module {

// PolyBench seidel-2d, 9-point Gauss-Seidel in place: the four neighbours before the point in
// lexicographic order are this sweep's ((0, 1, 1), (0, 1, 0), (0, 1, -1), (0, 0, 1)), the
// centre and the four after it the previous sweep's.
// POLYBENCH_SEIDEL_2D-LABEL: // dependences of @polybench_seidel_2d (direct):
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 0: flow S.write0 A[i, j] -> S.read0 A[i - 1, j - 1]; carried by loop 2; distance (0, 1, 1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 1: flow S.write0 A[i, j] -> S.read1 A[i - 1, j]; carried by loop 2; distance (0, 1, 0);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 2: flow S.write0 A[i, j] -> S.read2 A[i - 1, j + 1]; carried by loop 2; distance (0, 1, -1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 3: flow S.write0 A[i, j] -> S.read3 A[i, j - 1]; carried by loop 3; distance (0, 0, 1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 4: flow S.write0 A[i, j] -> S.read4 A[i, j]; carried by loop 1; distance (1, 0, 0);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 5: flow S.write0 A[i, j] -> S.read5 A[i, j + 1]; carried by loop 1; distance (1, 0, -1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 6: flow S.write0 A[i, j] -> S.read6 A[i + 1, j - 1]; carried by loop 1; distance (1, -1, 1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 7: flow S.write0 A[i, j] -> S.read7 A[i + 1, j]; carried by loop 1; distance (1, -1, 0);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 8: flow S.write0 A[i, j] -> S.read8 A[i + 1, j + 1]; carried by loop 1; distance (1, -1, -1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 9: anti S.read0 A[i - 1, j - 1] -> S.write0 A[i, j]; carried by loop 1; distance (1, -1, -1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 10: anti S.read1 A[i - 1, j] -> S.write0 A[i, j]; carried by loop 1; distance (1, -1, 0);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 11: anti S.read2 A[i - 1, j + 1] -> S.write0 A[i, j]; carried by loop 1; distance (1, -1, 1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 12: anti S.read3 A[i, j - 1] -> S.write0 A[i, j]; carried by loop 1; distance (1, 0, -1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 13: anti S.read4 A[i, j] -> S.write0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 14: anti S.read5 A[i, j + 1] -> S.write0 A[i, j]; carried by loop 3; distance (0, 0, 1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 15: anti S.read6 A[i + 1, j - 1] -> S.write0 A[i, j]; carried by loop 2; distance (0, 1, -1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 16: anti S.read7 A[i + 1, j] -> S.write0 A[i, j]; carried by loop 2; distance (0, 1, 0);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 17: anti S.read8 A[i + 1, j + 1] -> S.write0 A[i, j]; carried by loop 2; distance (0, 1, 1);
// POLYBENCH_SEIDEL_2D-NEXT:  // dep 18: output S.write0 A[i, j] -> S.write0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// POLYBENCH_SEIDEL_2D-NEXT:  module {

// Jacobi with a copy-back (B = f(A); A = B): S0 -> S1 flow (0, ...), S1 -> S0 flow (1, -offset),
// anti S0 -> S1 (0, offset) and S1 -> S0 (1, 0, ...); output (1, 0, ...) per statement.
// HEAT_2D-LABEL: // dependences of @heat_2d (direct):
// HEAT_2D-NEXT:  // dep 0: output S0.write0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// HEAT_2D-NEXT:  // dep 1: flow S0.write0 B[i, j] -> S1.read0 B[i, j]; loop-independent; distance (0, 0, 0);
// HEAT_2D-NEXT:  // dep 2: anti S0.read0 A[i, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 0);
// HEAT_2D-NEXT:  // dep 3: anti S0.read1 A[i - 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, -1, 0);
// HEAT_2D-NEXT:  // dep 4: anti S0.read2 A[i + 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 1, 0);
// HEAT_2D-NEXT:  // dep 5: anti S0.read3 A[i, j - 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, -1);
// HEAT_2D-NEXT:  // dep 6: anti S0.read4 A[i, j + 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 1);
// HEAT_2D-NEXT:  // dep 7: flow S1.write0 A[i, j] -> S0.read0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// HEAT_2D-NEXT:  // dep 8: flow S1.write0 A[i, j] -> S0.read1 A[i - 1, j]; carried by loop 1; distance (1, 1, 0);
// HEAT_2D-NEXT:  // dep 9: flow S1.write0 A[i, j] -> S0.read2 A[i + 1, j]; carried by loop 1; distance (1, -1, 0);
// HEAT_2D-NEXT:  // dep 10: flow S1.write0 A[i, j] -> S0.read3 A[i, j - 1]; carried by loop 1; distance (1, 0, 1);
// HEAT_2D-NEXT:  // dep 11: flow S1.write0 A[i, j] -> S0.read4 A[i, j + 1]; carried by loop 1; distance (1, 0, -1);
// HEAT_2D-NEXT:  // dep 12: anti S1.read0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// HEAT_2D-NEXT:  // dep 13: output S1.write0 A[i, j] -> S1.write0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// HEAT_2D-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// HHC_GRADIENT_2D-LABEL: // dependences of @hhc_gradient_2d (direct):
// HHC_GRADIENT_2D-NEXT:  // dep 0: output S0.write0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 1: flow S0.write0 B[i, j] -> S1.read0 B[i, j]; loop-independent; distance (0, 0, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 2: flow S0.write0 B[i, j] -> S1.read1 B[i - 1, j]; loop-independent; distance (0, 1, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 3: flow S0.write0 B[i, j] -> S1.read2 B[i + 1, j]; loop-independent; distance (0, -1, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 4: flow S0.write0 B[i, j] -> S1.read3 B[i, j - 1]; loop-independent; distance (0, 0, 1);
// HHC_GRADIENT_2D-NEXT:  // dep 5: flow S0.write0 B[i, j] -> S1.read4 B[i, j + 1]; loop-independent; distance (0, 0, -1);
// HHC_GRADIENT_2D-NEXT:  // dep 6: anti S0.read0 A[i, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 7: anti S0.read1 A[i - 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, -1, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 8: anti S0.read2 A[i + 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 1, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 9: anti S0.read3 A[i, j - 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, -1);
// HHC_GRADIENT_2D-NEXT:  // dep 10: anti S0.read4 A[i, j + 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 1);
// HHC_GRADIENT_2D-NEXT:  // dep 11: flow S1.write0 A[i, j] -> S0.read0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 12: flow S1.write0 A[i, j] -> S0.read1 A[i - 1, j]; carried by loop 1; distance (1, 1, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 13: flow S1.write0 A[i, j] -> S0.read2 A[i + 1, j]; carried by loop 1; distance (1, -1, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 14: flow S1.write0 A[i, j] -> S0.read3 A[i, j - 1]; carried by loop 1; distance (1, 0, 1);
// HHC_GRADIENT_2D-NEXT:  // dep 15: flow S1.write0 A[i, j] -> S0.read4 A[i, j + 1]; carried by loop 1; distance (1, 0, -1);
// HHC_GRADIENT_2D-NEXT:  // dep 16: anti S1.read0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 17: anti S1.read1 B[i - 1, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, -1, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 18: anti S1.read2 B[i + 1, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 1, 0);
// HHC_GRADIENT_2D-NEXT:  // dep 19: anti S1.read3 B[i, j - 1] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, -1);
// HHC_GRADIENT_2D-NEXT:  // dep 20: anti S1.read4 B[i, j + 1] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 1);
// HHC_GRADIENT_2D-NEXT:  // dep 21: output S1.write0 A[i, j] -> S1.write0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_GRADIENT_2D-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// HHC_GRADIENT_3D-LABEL: // dependences of @hhc_gradient_3d (direct):
// HHC_GRADIENT_3D-NEXT:  // dep 0: output S0.write0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 1: flow S0.write0 B[i, j, k] -> S1.read0 B[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 2: flow S0.write0 B[i, j, k] -> S1.read1 B[i - 1, j, k]; loop-independent; distance (0, 1, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 3: flow S0.write0 B[i, j, k] -> S1.read2 B[i + 1, j, k]; loop-independent; distance (0, -1, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 4: flow S0.write0 B[i, j, k] -> S1.read3 B[i, j - 1, k]; loop-independent; distance (0, 0, 1, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 5: flow S0.write0 B[i, j, k] -> S1.read4 B[i, j + 1, k]; loop-independent; distance (0, 0, -1, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 6: flow S0.write0 B[i, j, k] -> S1.read5 B[i, j, k - 1]; loop-independent; distance (0, 0, 0, 1);
// HHC_GRADIENT_3D-NEXT:  // dep 7: flow S0.write0 B[i, j, k] -> S1.read6 B[i, j, k + 1]; loop-independent; distance (0, 0, 0, -1);
// HHC_GRADIENT_3D-NEXT:  // dep 8: anti S0.read0 A[i, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 9: anti S0.read1 A[i - 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 10: anti S0.read2 A[i + 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 11: anti S0.read3 A[i, j - 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, -1, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 12: anti S0.read4 A[i, j + 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 1, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 13: anti S0.read5 A[i, j, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, -1);
// HHC_GRADIENT_3D-NEXT:  // dep 14: anti S0.read6 A[i, j, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 1);
// HHC_GRADIENT_3D-NEXT:  // dep 15: flow S1.write0 A[i, j, k] -> S0.read0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 16: flow S1.write0 A[i, j, k] -> S0.read1 A[i - 1, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 17: flow S1.write0 A[i, j, k] -> S0.read2 A[i + 1, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 18: flow S1.write0 A[i, j, k] -> S0.read3 A[i, j - 1, k]; carried by loop 1; distance (1, 0, 1, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 19: flow S1.write0 A[i, j, k] -> S0.read4 A[i, j + 1, k]; carried by loop 1; distance (1, 0, -1, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 20: flow S1.write0 A[i, j, k] -> S0.read5 A[i, j, k - 1]; carried by loop 1; distance (1, 0, 0, 1);
// HHC_GRADIENT_3D-NEXT:  // dep 21: flow S1.write0 A[i, j, k] -> S0.read6 A[i, j, k + 1]; carried by loop 1; distance (1, 0, 0, -1);
// HHC_GRADIENT_3D-NEXT:  // dep 22: anti S1.read0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 23: anti S1.read1 B[i - 1, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 24: anti S1.read2 B[i + 1, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 25: anti S1.read3 B[i, j - 1, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, -1, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 26: anti S1.read4 B[i, j + 1, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 1, 0);
// HHC_GRADIENT_3D-NEXT:  // dep 27: anti S1.read5 B[i, j, k - 1] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, -1);
// HHC_GRADIENT_3D-NEXT:  // dep 28: anti S1.read6 B[i, j, k + 1] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 1);
// HHC_GRADIENT_3D-NEXT:  // dep 29: output S1.write0 A[i, j, k] -> S1.write0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_GRADIENT_3D-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// HHC_HEAT_2D-LABEL: // dependences of @hhc_heat_2d (direct):
// HHC_HEAT_2D-NEXT:  // dep 0: output S0.write0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_HEAT_2D-NEXT:  // dep 1: flow S0.write0 B[i, j] -> S1.read0 B[i, j]; loop-independent; distance (0, 0, 0);
// HHC_HEAT_2D-NEXT:  // dep 2: flow S0.write0 B[i, j] -> S1.read1 B[i - 1, j]; loop-independent; distance (0, 1, 0);
// HHC_HEAT_2D-NEXT:  // dep 3: flow S0.write0 B[i, j] -> S1.read2 B[i + 1, j]; loop-independent; distance (0, -1, 0);
// HHC_HEAT_2D-NEXT:  // dep 4: flow S0.write0 B[i, j] -> S1.read3 B[i, j - 1]; loop-independent; distance (0, 0, 1);
// HHC_HEAT_2D-NEXT:  // dep 5: flow S0.write0 B[i, j] -> S1.read4 B[i, j + 1]; loop-independent; distance (0, 0, -1);
// HHC_HEAT_2D-NEXT:  // dep 6: anti S0.read0 A[i, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 0);
// HHC_HEAT_2D-NEXT:  // dep 7: anti S0.read1 A[i - 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, -1, 0);
// HHC_HEAT_2D-NEXT:  // dep 8: anti S0.read2 A[i + 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 1, 0);
// HHC_HEAT_2D-NEXT:  // dep 9: anti S0.read3 A[i, j - 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, -1);
// HHC_HEAT_2D-NEXT:  // dep 10: anti S0.read4 A[i, j + 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 1);
// HHC_HEAT_2D-NEXT:  // dep 11: flow S1.write0 A[i, j] -> S0.read0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_HEAT_2D-NEXT:  // dep 12: flow S1.write0 A[i, j] -> S0.read1 A[i - 1, j]; carried by loop 1; distance (1, 1, 0);
// HHC_HEAT_2D-NEXT:  // dep 13: flow S1.write0 A[i, j] -> S0.read2 A[i + 1, j]; carried by loop 1; distance (1, -1, 0);
// HHC_HEAT_2D-NEXT:  // dep 14: flow S1.write0 A[i, j] -> S0.read3 A[i, j - 1]; carried by loop 1; distance (1, 0, 1);
// HHC_HEAT_2D-NEXT:  // dep 15: flow S1.write0 A[i, j] -> S0.read4 A[i, j + 1]; carried by loop 1; distance (1, 0, -1);
// HHC_HEAT_2D-NEXT:  // dep 16: anti S1.read0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_HEAT_2D-NEXT:  // dep 17: anti S1.read1 B[i - 1, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, -1, 0);
// HHC_HEAT_2D-NEXT:  // dep 18: anti S1.read2 B[i + 1, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 1, 0);
// HHC_HEAT_2D-NEXT:  // dep 19: anti S1.read3 B[i, j - 1] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, -1);
// HHC_HEAT_2D-NEXT:  // dep 20: anti S1.read4 B[i, j + 1] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 1);
// HHC_HEAT_2D-NEXT:  // dep 21: output S1.write0 A[i, j] -> S1.write0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_HEAT_2D-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// HHC_HEAT_3D-LABEL: // dependences of @hhc_heat_3d (direct):
// HHC_HEAT_3D-NEXT:  // dep 0: output S0.write0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 1: flow S0.write0 B[i, j, k] -> S1.read0 B[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 2: flow S0.write0 B[i, j, k] -> S1.read1 B[i - 1, j, k]; loop-independent; distance (0, 1, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 3: flow S0.write0 B[i, j, k] -> S1.read2 B[i + 1, j, k]; loop-independent; distance (0, -1, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 4: flow S0.write0 B[i, j, k] -> S1.read3 B[i, j - 1, k]; loop-independent; distance (0, 0, 1, 0);
// HHC_HEAT_3D-NEXT:  // dep 5: flow S0.write0 B[i, j, k] -> S1.read4 B[i, j + 1, k]; loop-independent; distance (0, 0, -1, 0);
// HHC_HEAT_3D-NEXT:  // dep 6: flow S0.write0 B[i, j, k] -> S1.read5 B[i, j, k - 1]; loop-independent; distance (0, 0, 0, 1);
// HHC_HEAT_3D-NEXT:  // dep 7: flow S0.write0 B[i, j, k] -> S1.read6 B[i, j, k + 1]; loop-independent; distance (0, 0, 0, -1);
// HHC_HEAT_3D-NEXT:  // dep 8: anti S0.read0 A[i, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 9: anti S0.read1 A[i - 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 10: anti S0.read2 A[i + 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 11: anti S0.read3 A[i, j - 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, -1, 0);
// HHC_HEAT_3D-NEXT:  // dep 12: anti S0.read4 A[i, j + 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 1, 0);
// HHC_HEAT_3D-NEXT:  // dep 13: anti S0.read5 A[i, j, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, -1);
// HHC_HEAT_3D-NEXT:  // dep 14: anti S0.read6 A[i, j, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 1);
// HHC_HEAT_3D-NEXT:  // dep 15: flow S1.write0 A[i, j, k] -> S0.read0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 16: flow S1.write0 A[i, j, k] -> S0.read1 A[i - 1, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 17: flow S1.write0 A[i, j, k] -> S0.read2 A[i + 1, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 18: flow S1.write0 A[i, j, k] -> S0.read3 A[i, j - 1, k]; carried by loop 1; distance (1, 0, 1, 0);
// HHC_HEAT_3D-NEXT:  // dep 19: flow S1.write0 A[i, j, k] -> S0.read4 A[i, j + 1, k]; carried by loop 1; distance (1, 0, -1, 0);
// HHC_HEAT_3D-NEXT:  // dep 20: flow S1.write0 A[i, j, k] -> S0.read5 A[i, j, k - 1]; carried by loop 1; distance (1, 0, 0, 1);
// HHC_HEAT_3D-NEXT:  // dep 21: flow S1.write0 A[i, j, k] -> S0.read6 A[i, j, k + 1]; carried by loop 1; distance (1, 0, 0, -1);
// HHC_HEAT_3D-NEXT:  // dep 22: anti S1.read0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 23: anti S1.read1 B[i - 1, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 24: anti S1.read2 B[i + 1, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// HHC_HEAT_3D-NEXT:  // dep 25: anti S1.read3 B[i, j - 1, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, -1, 0);
// HHC_HEAT_3D-NEXT:  // dep 26: anti S1.read4 B[i, j + 1, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 1, 0);
// HHC_HEAT_3D-NEXT:  // dep 27: anti S1.read5 B[i, j, k - 1] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, -1);
// HHC_HEAT_3D-NEXT:  // dep 28: anti S1.read6 B[i, j, k + 1] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 1);
// HHC_HEAT_3D-NEXT:  // dep 29: output S1.write0 A[i, j, k] -> S1.write0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_HEAT_3D-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// HHC_JACOBI_2D-LABEL: // dependences of @hhc_jacobi_2d (direct):
// HHC_JACOBI_2D-NEXT:  // dep 0: output S0.write0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_JACOBI_2D-NEXT:  // dep 1: flow S0.write0 B[i, j] -> S1.read0 B[i, j]; loop-independent; distance (0, 0, 0);
// HHC_JACOBI_2D-NEXT:  // dep 2: flow S0.write0 B[i, j] -> S1.read1 B[i - 1, j]; loop-independent; distance (0, 1, 0);
// HHC_JACOBI_2D-NEXT:  // dep 3: flow S0.write0 B[i, j] -> S1.read2 B[i + 1, j]; loop-independent; distance (0, -1, 0);
// HHC_JACOBI_2D-NEXT:  // dep 4: flow S0.write0 B[i, j] -> S1.read3 B[i, j - 1]; loop-independent; distance (0, 0, 1);
// HHC_JACOBI_2D-NEXT:  // dep 5: flow S0.write0 B[i, j] -> S1.read4 B[i, j + 1]; loop-independent; distance (0, 0, -1);
// HHC_JACOBI_2D-NEXT:  // dep 6: anti S0.read0 A[i, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 0);
// HHC_JACOBI_2D-NEXT:  // dep 7: anti S0.read1 A[i - 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, -1, 0);
// HHC_JACOBI_2D-NEXT:  // dep 8: anti S0.read2 A[i + 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 1, 0);
// HHC_JACOBI_2D-NEXT:  // dep 9: anti S0.read3 A[i, j - 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, -1);
// HHC_JACOBI_2D-NEXT:  // dep 10: anti S0.read4 A[i, j + 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 1);
// HHC_JACOBI_2D-NEXT:  // dep 11: flow S1.write0 A[i, j] -> S0.read0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_JACOBI_2D-NEXT:  // dep 12: flow S1.write0 A[i, j] -> S0.read1 A[i - 1, j]; carried by loop 1; distance (1, 1, 0);
// HHC_JACOBI_2D-NEXT:  // dep 13: flow S1.write0 A[i, j] -> S0.read2 A[i + 1, j]; carried by loop 1; distance (1, -1, 0);
// HHC_JACOBI_2D-NEXT:  // dep 14: flow S1.write0 A[i, j] -> S0.read3 A[i, j - 1]; carried by loop 1; distance (1, 0, 1);
// HHC_JACOBI_2D-NEXT:  // dep 15: flow S1.write0 A[i, j] -> S0.read4 A[i, j + 1]; carried by loop 1; distance (1, 0, -1);
// HHC_JACOBI_2D-NEXT:  // dep 16: anti S1.read0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_JACOBI_2D-NEXT:  // dep 17: anti S1.read1 B[i - 1, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, -1, 0);
// HHC_JACOBI_2D-NEXT:  // dep 18: anti S1.read2 B[i + 1, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 1, 0);
// HHC_JACOBI_2D-NEXT:  // dep 19: anti S1.read3 B[i, j - 1] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, -1);
// HHC_JACOBI_2D-NEXT:  // dep 20: anti S1.read4 B[i, j + 1] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 1);
// HHC_JACOBI_2D-NEXT:  // dep 21: output S1.write0 A[i, j] -> S1.write0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_JACOBI_2D-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// HHC_JACOBI_3D-LABEL: // dependences of @hhc_jacobi_3d (direct):
// HHC_JACOBI_3D-NEXT:  // dep 0: output S0.write0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 1: flow S0.write0 B[i, j, k] -> S1.read0 B[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 2: flow S0.write0 B[i, j, k] -> S1.read1 B[i - 1, j, k]; loop-independent; distance (0, 1, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 3: flow S0.write0 B[i, j, k] -> S1.read2 B[i + 1, j, k]; loop-independent; distance (0, -1, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 4: flow S0.write0 B[i, j, k] -> S1.read3 B[i, j - 1, k]; loop-independent; distance (0, 0, 1, 0);
// HHC_JACOBI_3D-NEXT:  // dep 5: flow S0.write0 B[i, j, k] -> S1.read4 B[i, j + 1, k]; loop-independent; distance (0, 0, -1, 0);
// HHC_JACOBI_3D-NEXT:  // dep 6: flow S0.write0 B[i, j, k] -> S1.read5 B[i, j, k - 1]; loop-independent; distance (0, 0, 0, 1);
// HHC_JACOBI_3D-NEXT:  // dep 7: flow S0.write0 B[i, j, k] -> S1.read6 B[i, j, k + 1]; loop-independent; distance (0, 0, 0, -1);
// HHC_JACOBI_3D-NEXT:  // dep 8: anti S0.read0 A[i, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 9: anti S0.read1 A[i - 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 10: anti S0.read2 A[i + 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 11: anti S0.read3 A[i, j - 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, -1, 0);
// HHC_JACOBI_3D-NEXT:  // dep 12: anti S0.read4 A[i, j + 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 1, 0);
// HHC_JACOBI_3D-NEXT:  // dep 13: anti S0.read5 A[i, j, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, -1);
// HHC_JACOBI_3D-NEXT:  // dep 14: anti S0.read6 A[i, j, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 1);
// HHC_JACOBI_3D-NEXT:  // dep 15: flow S1.write0 A[i, j, k] -> S0.read0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 16: flow S1.write0 A[i, j, k] -> S0.read1 A[i - 1, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 17: flow S1.write0 A[i, j, k] -> S0.read2 A[i + 1, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 18: flow S1.write0 A[i, j, k] -> S0.read3 A[i, j - 1, k]; carried by loop 1; distance (1, 0, 1, 0);
// HHC_JACOBI_3D-NEXT:  // dep 19: flow S1.write0 A[i, j, k] -> S0.read4 A[i, j + 1, k]; carried by loop 1; distance (1, 0, -1, 0);
// HHC_JACOBI_3D-NEXT:  // dep 20: flow S1.write0 A[i, j, k] -> S0.read5 A[i, j, k - 1]; carried by loop 1; distance (1, 0, 0, 1);
// HHC_JACOBI_3D-NEXT:  // dep 21: flow S1.write0 A[i, j, k] -> S0.read6 A[i, j, k + 1]; carried by loop 1; distance (1, 0, 0, -1);
// HHC_JACOBI_3D-NEXT:  // dep 22: anti S1.read0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 23: anti S1.read1 B[i - 1, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 24: anti S1.read2 B[i + 1, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// HHC_JACOBI_3D-NEXT:  // dep 25: anti S1.read3 B[i, j - 1, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, -1, 0);
// HHC_JACOBI_3D-NEXT:  // dep 26: anti S1.read4 B[i, j + 1, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 1, 0);
// HHC_JACOBI_3D-NEXT:  // dep 27: anti S1.read5 B[i, j, k - 1] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, -1);
// HHC_JACOBI_3D-NEXT:  // dep 28: anti S1.read6 B[i, j, k + 1] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 1);
// HHC_JACOBI_3D-NEXT:  // dep 29: output S1.write0 A[i, j, k] -> S1.write0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_JACOBI_3D-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// HHC_LAPLACIAN_2D-LABEL: // dependences of @hhc_laplacian_2d (direct):
// HHC_LAPLACIAN_2D-NEXT:  // dep 0: output S0.write0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 1: flow S0.write0 B[i, j] -> S1.read0 B[i, j]; loop-independent; distance (0, 0, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 2: flow S0.write0 B[i, j] -> S1.read1 B[i - 1, j]; loop-independent; distance (0, 1, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 3: flow S0.write0 B[i, j] -> S1.read2 B[i + 1, j]; loop-independent; distance (0, -1, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 4: flow S0.write0 B[i, j] -> S1.read3 B[i, j - 1]; loop-independent; distance (0, 0, 1);
// HHC_LAPLACIAN_2D-NEXT:  // dep 5: flow S0.write0 B[i, j] -> S1.read4 B[i, j + 1]; loop-independent; distance (0, 0, -1);
// HHC_LAPLACIAN_2D-NEXT:  // dep 6: anti S0.read0 A[i, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 7: anti S0.read1 A[i - 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, -1, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 8: anti S0.read2 A[i + 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 1, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 9: anti S0.read3 A[i, j - 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, -1);
// HHC_LAPLACIAN_2D-NEXT:  // dep 10: anti S0.read4 A[i, j + 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 1);
// HHC_LAPLACIAN_2D-NEXT:  // dep 11: flow S1.write0 A[i, j] -> S0.read0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 12: flow S1.write0 A[i, j] -> S0.read1 A[i - 1, j]; carried by loop 1; distance (1, 1, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 13: flow S1.write0 A[i, j] -> S0.read2 A[i + 1, j]; carried by loop 1; distance (1, -1, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 14: flow S1.write0 A[i, j] -> S0.read3 A[i, j - 1]; carried by loop 1; distance (1, 0, 1);
// HHC_LAPLACIAN_2D-NEXT:  // dep 15: flow S1.write0 A[i, j] -> S0.read4 A[i, j + 1]; carried by loop 1; distance (1, 0, -1);
// HHC_LAPLACIAN_2D-NEXT:  // dep 16: anti S1.read0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 17: anti S1.read1 B[i - 1, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, -1, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 18: anti S1.read2 B[i + 1, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 1, 0);
// HHC_LAPLACIAN_2D-NEXT:  // dep 19: anti S1.read3 B[i, j - 1] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, -1);
// HHC_LAPLACIAN_2D-NEXT:  // dep 20: anti S1.read4 B[i, j + 1] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 1);
// HHC_LAPLACIAN_2D-NEXT:  // dep 21: output S1.write0 A[i, j] -> S1.write0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// HHC_LAPLACIAN_2D-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// HHC_LAPLACIAN_3D-LABEL: // dependences of @hhc_laplacian_3d (direct):
// HHC_LAPLACIAN_3D-NEXT:  // dep 0: output S0.write0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 1: flow S0.write0 B[i, j, k] -> S1.read0 B[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 2: flow S0.write0 B[i, j, k] -> S1.read1 B[i - 1, j, k]; loop-independent; distance (0, 1, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 3: flow S0.write0 B[i, j, k] -> S1.read2 B[i + 1, j, k]; loop-independent; distance (0, -1, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 4: flow S0.write0 B[i, j, k] -> S1.read3 B[i, j - 1, k]; loop-independent; distance (0, 0, 1, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 5: flow S0.write0 B[i, j, k] -> S1.read4 B[i, j + 1, k]; loop-independent; distance (0, 0, -1, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 6: flow S0.write0 B[i, j, k] -> S1.read5 B[i, j, k - 1]; loop-independent; distance (0, 0, 0, 1);
// HHC_LAPLACIAN_3D-NEXT:  // dep 7: flow S0.write0 B[i, j, k] -> S1.read6 B[i, j, k + 1]; loop-independent; distance (0, 0, 0, -1);
// HHC_LAPLACIAN_3D-NEXT:  // dep 8: anti S0.read0 A[i, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 9: anti S0.read1 A[i - 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 10: anti S0.read2 A[i + 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 11: anti S0.read3 A[i, j - 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, -1, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 12: anti S0.read4 A[i, j + 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 1, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 13: anti S0.read5 A[i, j, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, -1);
// HHC_LAPLACIAN_3D-NEXT:  // dep 14: anti S0.read6 A[i, j, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 1);
// HHC_LAPLACIAN_3D-NEXT:  // dep 15: flow S1.write0 A[i, j, k] -> S0.read0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 16: flow S1.write0 A[i, j, k] -> S0.read1 A[i - 1, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 17: flow S1.write0 A[i, j, k] -> S0.read2 A[i + 1, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 18: flow S1.write0 A[i, j, k] -> S0.read3 A[i, j - 1, k]; carried by loop 1; distance (1, 0, 1, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 19: flow S1.write0 A[i, j, k] -> S0.read4 A[i, j + 1, k]; carried by loop 1; distance (1, 0, -1, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 20: flow S1.write0 A[i, j, k] -> S0.read5 A[i, j, k - 1]; carried by loop 1; distance (1, 0, 0, 1);
// HHC_LAPLACIAN_3D-NEXT:  // dep 21: flow S1.write0 A[i, j, k] -> S0.read6 A[i, j, k + 1]; carried by loop 1; distance (1, 0, 0, -1);
// HHC_LAPLACIAN_3D-NEXT:  // dep 22: anti S1.read0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 23: anti S1.read1 B[i - 1, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 24: anti S1.read2 B[i + 1, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 25: anti S1.read3 B[i, j - 1, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, -1, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 26: anti S1.read4 B[i, j + 1, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 1, 0);
// HHC_LAPLACIAN_3D-NEXT:  // dep 27: anti S1.read5 B[i, j, k - 1] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, -1);
// HHC_LAPLACIAN_3D-NEXT:  // dep 28: anti S1.read6 B[i, j, k + 1] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 1);
// HHC_LAPLACIAN_3D-NEXT:  // dep 29: output S1.write0 A[i, j, k] -> S1.write0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// HHC_LAPLACIAN_3D-NEXT:  module {

// Jacobi with a copy-back (B = f(A); A = B): S0 -> S1 flow (0, ...), S1 -> S0 flow (1, -offset),
// anti S0 -> S1 (0, offset) and S1 -> S0 (1, 0, ...); output (1, 0, ...) per statement.
// JACOBI_2D_5PT-LABEL: // dependences of @jacobi_2d_5pt (direct):
// JACOBI_2D_5PT-NEXT:  // dep 0: output S0.write0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// JACOBI_2D_5PT-NEXT:  // dep 1: flow S0.write0 B[i, j] -> S1.read0 B[i, j]; loop-independent; distance (0, 0, 0);
// JACOBI_2D_5PT-NEXT:  // dep 2: anti S0.read0 A[i, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 0);
// JACOBI_2D_5PT-NEXT:  // dep 3: anti S0.read1 A[i - 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, -1, 0);
// JACOBI_2D_5PT-NEXT:  // dep 4: anti S0.read2 A[i + 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 1, 0);
// JACOBI_2D_5PT-NEXT:  // dep 5: anti S0.read3 A[i, j - 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, -1);
// JACOBI_2D_5PT-NEXT:  // dep 6: anti S0.read4 A[i, j + 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 1);
// JACOBI_2D_5PT-NEXT:  // dep 7: flow S1.write0 A[i, j] -> S0.read0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// JACOBI_2D_5PT-NEXT:  // dep 8: flow S1.write0 A[i, j] -> S0.read1 A[i - 1, j]; carried by loop 1; distance (1, 1, 0);
// JACOBI_2D_5PT-NEXT:  // dep 9: flow S1.write0 A[i, j] -> S0.read2 A[i + 1, j]; carried by loop 1; distance (1, -1, 0);
// JACOBI_2D_5PT-NEXT:  // dep 10: flow S1.write0 A[i, j] -> S0.read3 A[i, j - 1]; carried by loop 1; distance (1, 0, 1);
// JACOBI_2D_5PT-NEXT:  // dep 11: flow S1.write0 A[i, j] -> S0.read4 A[i, j + 1]; carried by loop 1; distance (1, 0, -1);
// JACOBI_2D_5PT-NEXT:  // dep 12: anti S1.read0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// JACOBI_2D_5PT-NEXT:  // dep 13: output S1.write0 A[i, j] -> S1.write0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// JACOBI_2D_5PT-NEXT:  module {

// Jacobi with a copy-back (B = f(A); A = B): S0 -> S1 flow (0, ...), S1 -> S0 flow (1, -offset),
// anti S0 -> S1 (0, offset) and S1 -> S0 (1, 0, ...); output (1, 0, ...) per statement.
// JACOBI_3D_27PT-LABEL: // dependences of @jacobi_3d_27pt (direct):
// JACOBI_3D_27PT-NEXT:  // dep 0: output S0.write0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// JACOBI_3D_27PT-NEXT:  // dep 1: flow S0.write0 B[i, j, k] -> S1.read0 B[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// JACOBI_3D_27PT-NEXT:  // dep 2: anti S0.read0 A[i, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// JACOBI_3D_27PT-NEXT:  // dep 3: anti S0.read1 A[i - 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 0, 0);
// JACOBI_3D_27PT-NEXT:  // dep 4: anti S0.read2 A[i, j - 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, -1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 5: anti S0.read3 A[i, j, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, -1);
// JACOBI_3D_27PT-NEXT:  // dep 6: anti S0.read4 A[i, j, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 1);
// JACOBI_3D_27PT-NEXT:  // dep 7: anti S0.read5 A[i, j + 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 8: anti S0.read6 A[i + 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 0, 0);
// JACOBI_3D_27PT-NEXT:  // dep 9: anti S0.read7 A[i - 1, j - 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, -1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 10: anti S0.read8 A[i - 1, j, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 0, -1);
// JACOBI_3D_27PT-NEXT:  // dep 11: anti S0.read9 A[i - 1, j, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 0, 1);
// JACOBI_3D_27PT-NEXT:  // dep 12: anti S0.read10 A[i - 1, j + 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 13: anti S0.read11 A[i, j - 1, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, -1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 14: anti S0.read12 A[i, j - 1, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, -1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 15: anti S0.read13 A[i, j + 1, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 16: anti S0.read14 A[i, j + 1, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 17: anti S0.read15 A[i + 1, j - 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, -1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 18: anti S0.read16 A[i + 1, j, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 0, -1);
// JACOBI_3D_27PT-NEXT:  // dep 19: anti S0.read17 A[i + 1, j, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 0, 1);
// JACOBI_3D_27PT-NEXT:  // dep 20: anti S0.read18 A[i + 1, j + 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 21: anti S0.read19 A[i - 1, j - 1, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, -1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 22: anti S0.read20 A[i - 1, j - 1, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, -1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 23: anti S0.read21 A[i - 1, j + 1, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 24: anti S0.read22 A[i - 1, j + 1, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 25: anti S0.read23 A[i + 1, j - 1, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, -1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 26: anti S0.read24 A[i + 1, j - 1, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, -1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 27: anti S0.read25 A[i + 1, j + 1, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 28: anti S0.read26 A[i + 1, j + 1, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 29: flow S1.write0 A[i, j, k] -> S0.read0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// JACOBI_3D_27PT-NEXT:  // dep 30: flow S1.write0 A[i, j, k] -> S0.read1 A[i - 1, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// JACOBI_3D_27PT-NEXT:  // dep 31: flow S1.write0 A[i, j, k] -> S0.read2 A[i, j - 1, k]; carried by loop 1; distance (1, 0, 1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 32: flow S1.write0 A[i, j, k] -> S0.read3 A[i, j, k - 1]; carried by loop 1; distance (1, 0, 0, 1);
// JACOBI_3D_27PT-NEXT:  // dep 33: flow S1.write0 A[i, j, k] -> S0.read4 A[i, j, k + 1]; carried by loop 1; distance (1, 0, 0, -1);
// JACOBI_3D_27PT-NEXT:  // dep 34: flow S1.write0 A[i, j, k] -> S0.read5 A[i, j + 1, k]; carried by loop 1; distance (1, 0, -1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 35: flow S1.write0 A[i, j, k] -> S0.read6 A[i + 1, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// JACOBI_3D_27PT-NEXT:  // dep 36: flow S1.write0 A[i, j, k] -> S0.read7 A[i - 1, j - 1, k]; carried by loop 1; distance (1, 1, 1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 37: flow S1.write0 A[i, j, k] -> S0.read8 A[i - 1, j, k - 1]; carried by loop 1; distance (1, 1, 0, 1);
// JACOBI_3D_27PT-NEXT:  // dep 38: flow S1.write0 A[i, j, k] -> S0.read9 A[i - 1, j, k + 1]; carried by loop 1; distance (1, 1, 0, -1);
// JACOBI_3D_27PT-NEXT:  // dep 39: flow S1.write0 A[i, j, k] -> S0.read10 A[i - 1, j + 1, k]; carried by loop 1; distance (1, 1, -1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 40: flow S1.write0 A[i, j, k] -> S0.read11 A[i, j - 1, k - 1]; carried by loop 1; distance (1, 0, 1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 41: flow S1.write0 A[i, j, k] -> S0.read12 A[i, j - 1, k + 1]; carried by loop 1; distance (1, 0, 1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 42: flow S1.write0 A[i, j, k] -> S0.read13 A[i, j + 1, k - 1]; carried by loop 1; distance (1, 0, -1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 43: flow S1.write0 A[i, j, k] -> S0.read14 A[i, j + 1, k + 1]; carried by loop 1; distance (1, 0, -1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 44: flow S1.write0 A[i, j, k] -> S0.read15 A[i + 1, j - 1, k]; carried by loop 1; distance (1, -1, 1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 45: flow S1.write0 A[i, j, k] -> S0.read16 A[i + 1, j, k - 1]; carried by loop 1; distance (1, -1, 0, 1);
// JACOBI_3D_27PT-NEXT:  // dep 46: flow S1.write0 A[i, j, k] -> S0.read17 A[i + 1, j, k + 1]; carried by loop 1; distance (1, -1, 0, -1);
// JACOBI_3D_27PT-NEXT:  // dep 47: flow S1.write0 A[i, j, k] -> S0.read18 A[i + 1, j + 1, k]; carried by loop 1; distance (1, -1, -1, 0);
// JACOBI_3D_27PT-NEXT:  // dep 48: flow S1.write0 A[i, j, k] -> S0.read19 A[i - 1, j - 1, k - 1]; carried by loop 1; distance (1, 1, 1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 49: flow S1.write0 A[i, j, k] -> S0.read20 A[i - 1, j - 1, k + 1]; carried by loop 1; distance (1, 1, 1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 50: flow S1.write0 A[i, j, k] -> S0.read21 A[i - 1, j + 1, k - 1]; carried by loop 1; distance (1, 1, -1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 51: flow S1.write0 A[i, j, k] -> S0.read22 A[i - 1, j + 1, k + 1]; carried by loop 1; distance (1, 1, -1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 52: flow S1.write0 A[i, j, k] -> S0.read23 A[i + 1, j - 1, k - 1]; carried by loop 1; distance (1, -1, 1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 53: flow S1.write0 A[i, j, k] -> S0.read24 A[i + 1, j - 1, k + 1]; carried by loop 1; distance (1, -1, 1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 54: flow S1.write0 A[i, j, k] -> S0.read25 A[i + 1, j + 1, k - 1]; carried by loop 1; distance (1, -1, -1, 1);
// JACOBI_3D_27PT-NEXT:  // dep 55: flow S1.write0 A[i, j, k] -> S0.read26 A[i + 1, j + 1, k + 1]; carried by loop 1; distance (1, -1, -1, -1);
// JACOBI_3D_27PT-NEXT:  // dep 56: anti S1.read0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// JACOBI_3D_27PT-NEXT:  // dep 57: output S1.write0 A[i, j, k] -> S1.write0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// JACOBI_3D_27PT-NEXT:  module {

// Jacobi with a copy-back (B = f(A); A = B): S0 -> S1 flow (0, ...), S1 -> S0 flow (1, -offset),
// anti S0 -> S1 (0, offset) and S1 -> S0 (1, 0, ...); output (1, 0, ...) per statement.
// JACOBI_3D_7PT-LABEL: // dependences of @jacobi_3d_7pt (direct):
// JACOBI_3D_7PT-NEXT:  // dep 0: output S0.write0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// JACOBI_3D_7PT-NEXT:  // dep 1: flow S0.write0 B[i, j, k] -> S1.read0 B[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// JACOBI_3D_7PT-NEXT:  // dep 2: anti S0.read0 A[i, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// JACOBI_3D_7PT-NEXT:  // dep 3: anti S0.read1 A[i - 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 0, 0);
// JACOBI_3D_7PT-NEXT:  // dep 4: anti S0.read2 A[i + 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 0, 0);
// JACOBI_3D_7PT-NEXT:  // dep 5: anti S0.read3 A[i, j - 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, -1, 0);
// JACOBI_3D_7PT-NEXT:  // dep 6: anti S0.read4 A[i, j + 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 1, 0);
// JACOBI_3D_7PT-NEXT:  // dep 7: anti S0.read5 A[i, j, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, -1);
// JACOBI_3D_7PT-NEXT:  // dep 8: anti S0.read6 A[i, j, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 1);
// JACOBI_3D_7PT-NEXT:  // dep 9: flow S1.write0 A[i, j, k] -> S0.read0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// JACOBI_3D_7PT-NEXT:  // dep 10: flow S1.write0 A[i, j, k] -> S0.read1 A[i - 1, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// JACOBI_3D_7PT-NEXT:  // dep 11: flow S1.write0 A[i, j, k] -> S0.read2 A[i + 1, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// JACOBI_3D_7PT-NEXT:  // dep 12: flow S1.write0 A[i, j, k] -> S0.read3 A[i, j - 1, k]; carried by loop 1; distance (1, 0, 1, 0);
// JACOBI_3D_7PT-NEXT:  // dep 13: flow S1.write0 A[i, j, k] -> S0.read4 A[i, j + 1, k]; carried by loop 1; distance (1, 0, -1, 0);
// JACOBI_3D_7PT-NEXT:  // dep 14: flow S1.write0 A[i, j, k] -> S0.read5 A[i, j, k - 1]; carried by loop 1; distance (1, 0, 0, 1);
// JACOBI_3D_7PT-NEXT:  // dep 15: flow S1.write0 A[i, j, k] -> S0.read6 A[i, j, k + 1]; carried by loop 1; distance (1, 0, 0, -1);
// JACOBI_3D_7PT-NEXT:  // dep 16: anti S1.read0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// JACOBI_3D_7PT-NEXT:  // dep 17: output S1.write0 A[i, j, k] -> S1.write0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// JACOBI_3D_7PT-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// POLYBENCH_HEAT_3D-LABEL: // dependences of @polybench_heat_3d (direct):
// POLYBENCH_HEAT_3D-NEXT:  // dep 0: output S0.write0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 1: flow S0.write0 B[i, j, k] -> S1.read0 B[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 2: flow S0.write0 B[i, j, k] -> S1.read1 B[i + 1, j, k]; loop-independent; distance (0, -1, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 3: flow S0.write0 B[i, j, k] -> S1.read2 B[i - 1, j, k]; loop-independent; distance (0, 1, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 4: flow S0.write0 B[i, j, k] -> S1.read3 B[i, j + 1, k]; loop-independent; distance (0, 0, -1, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 5: flow S0.write0 B[i, j, k] -> S1.read4 B[i, j - 1, k]; loop-independent; distance (0, 0, 1, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 6: flow S0.write0 B[i, j, k] -> S1.read5 B[i, j, k + 1]; loop-independent; distance (0, 0, 0, -1);
// POLYBENCH_HEAT_3D-NEXT:  // dep 7: flow S0.write0 B[i, j, k] -> S1.read6 B[i, j, k - 1]; loop-independent; distance (0, 0, 0, 1);
// POLYBENCH_HEAT_3D-NEXT:  // dep 8: anti S0.read0 A[i, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 9: anti S0.read1 A[i + 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 1, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 10: anti S0.read2 A[i - 1, j, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, -1, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 11: anti S0.read3 A[i, j + 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 1, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 12: anti S0.read4 A[i, j - 1, k] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, -1, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 13: anti S0.read5 A[i, j, k + 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, 1);
// POLYBENCH_HEAT_3D-NEXT:  // dep 14: anti S0.read6 A[i, j, k - 1] -> S1.write0 A[i, j, k]; loop-independent; distance (0, 0, 0, -1);
// POLYBENCH_HEAT_3D-NEXT:  // dep 15: flow S1.write0 A[i, j, k] -> S0.read0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 16: flow S1.write0 A[i, j, k] -> S0.read1 A[i + 1, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 17: flow S1.write0 A[i, j, k] -> S0.read2 A[i - 1, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 18: flow S1.write0 A[i, j, k] -> S0.read3 A[i, j + 1, k]; carried by loop 1; distance (1, 0, -1, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 19: flow S1.write0 A[i, j, k] -> S0.read4 A[i, j - 1, k]; carried by loop 1; distance (1, 0, 1, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 20: flow S1.write0 A[i, j, k] -> S0.read5 A[i, j, k + 1]; carried by loop 1; distance (1, 0, 0, -1);
// POLYBENCH_HEAT_3D-NEXT:  // dep 21: flow S1.write0 A[i, j, k] -> S0.read6 A[i, j, k - 1]; carried by loop 1; distance (1, 0, 0, 1);
// POLYBENCH_HEAT_3D-NEXT:  // dep 22: anti S1.read0 B[i, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 23: anti S1.read1 B[i + 1, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 1, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 24: anti S1.read2 B[i - 1, j, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, -1, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 25: anti S1.read3 B[i, j + 1, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 1, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 26: anti S1.read4 B[i, j - 1, k] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, -1, 0);
// POLYBENCH_HEAT_3D-NEXT:  // dep 27: anti S1.read5 B[i, j, k + 1] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, 1);
// POLYBENCH_HEAT_3D-NEXT:  // dep 28: anti S1.read6 B[i, j, k - 1] -> S0.write0 B[i, j, k]; carried by loop 1; distance (1, 0, 0, -1);
// POLYBENCH_HEAT_3D-NEXT:  // dep 29: output S1.write0 A[i, j, k] -> S1.write0 A[i, j, k]; carried by loop 1; distance (1, 0, 0, 0);
// POLYBENCH_HEAT_3D-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// POLYBENCH_JACOBI_1D-LABEL: // dependences of @polybench_jacobi_1d (direct):
// POLYBENCH_JACOBI_1D-NEXT:  // dep 0: output S0.write0 B[i] -> S0.write0 B[i]; carried by loop 1; distance (1, 0);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 1: flow S0.write0 B[i] -> S1.read0 B[i - 1]; loop-independent; distance (0, 1);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 2: flow S0.write0 B[i] -> S1.read1 B[i]; loop-independent; distance (0, 0);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 3: flow S0.write0 B[i] -> S1.read2 B[i + 1]; loop-independent; distance (0, -1);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 4: anti S0.read0 A[i - 1] -> S1.write0 A[i]; loop-independent; distance (0, -1);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 5: anti S0.read1 A[i] -> S1.write0 A[i]; loop-independent; distance (0, 0);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 6: anti S0.read2 A[i + 1] -> S1.write0 A[i]; loop-independent; distance (0, 1);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 7: flow S1.write0 A[i] -> S0.read0 A[i - 1]; carried by loop 1; distance (1, 1);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 8: flow S1.write0 A[i] -> S0.read1 A[i]; carried by loop 1; distance (1, 0);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 9: flow S1.write0 A[i] -> S0.read2 A[i + 1]; carried by loop 1; distance (1, -1);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 10: anti S1.read0 B[i - 1] -> S0.write0 B[i]; carried by loop 1; distance (1, -1);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 11: anti S1.read1 B[i] -> S0.write0 B[i]; carried by loop 1; distance (1, 0);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 12: anti S1.read2 B[i + 1] -> S0.write0 B[i]; carried by loop 1; distance (1, 1);
// POLYBENCH_JACOBI_1D-NEXT:  // dep 13: output S1.write0 A[i] -> S1.write0 A[i]; carried by loop 1; distance (1, 0);
// POLYBENCH_JACOBI_1D-NEXT:  module {

// Ping-pong Jacobi (B = f(A); A = f(B)): S0 -> S1 flow through B at distance -offset in the same
// step, S1 -> S0 flow through A at (1, -offset); anti S0 -> S1 at (0, offset) and S1 -> S0 at
// (1, offset); output (1, 0, ...) per statement.
// POLYBENCH_JACOBI_2D-LABEL: // dependences of @polybench_jacobi_2d (direct):
// POLYBENCH_JACOBI_2D-NEXT:  // dep 0: output S0.write0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 1: flow S0.write0 B[i, j] -> S1.read0 B[i, j]; loop-independent; distance (0, 0, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 2: flow S0.write0 B[i, j] -> S1.read1 B[i, j - 1]; loop-independent; distance (0, 0, 1);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 3: flow S0.write0 B[i, j] -> S1.read2 B[i, j + 1]; loop-independent; distance (0, 0, -1);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 4: flow S0.write0 B[i, j] -> S1.read3 B[i + 1, j]; loop-independent; distance (0, -1, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 5: flow S0.write0 B[i, j] -> S1.read4 B[i - 1, j]; loop-independent; distance (0, 1, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 6: anti S0.read0 A[i, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 7: anti S0.read1 A[i, j - 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, -1);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 8: anti S0.read2 A[i, j + 1] -> S1.write0 A[i, j]; loop-independent; distance (0, 0, 1);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 9: anti S0.read3 A[i + 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, 1, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 10: anti S0.read4 A[i - 1, j] -> S1.write0 A[i, j]; loop-independent; distance (0, -1, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 11: flow S1.write0 A[i, j] -> S0.read0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 12: flow S1.write0 A[i, j] -> S0.read1 A[i, j - 1]; carried by loop 1; distance (1, 0, 1);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 13: flow S1.write0 A[i, j] -> S0.read2 A[i, j + 1]; carried by loop 1; distance (1, 0, -1);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 14: flow S1.write0 A[i, j] -> S0.read3 A[i + 1, j]; carried by loop 1; distance (1, -1, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 15: flow S1.write0 A[i, j] -> S0.read4 A[i - 1, j]; carried by loop 1; distance (1, 1, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 16: anti S1.read0 B[i, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 17: anti S1.read1 B[i, j - 1] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, -1);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 18: anti S1.read2 B[i, j + 1] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 0, 1);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 19: anti S1.read3 B[i + 1, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, 1, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 20: anti S1.read4 B[i - 1, j] -> S0.write0 B[i, j]; carried by loop 1; distance (1, -1, 0);
// POLYBENCH_JACOBI_2D-NEXT:  // dep 21: output S1.write0 A[i, j] -> S1.write0 A[i, j]; carried by loop 1; distance (1, 0, 0);
// POLYBENCH_JACOBI_2D-NEXT:  module {
