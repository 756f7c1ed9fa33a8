// Every program in examples/ (see examples/README.md) parses, verifies and round-trips:
//   1. stencil-opt prints it (parse + verify);
//   2. printing that output again gives the same text (custom form -> custom form);
//   3. its generic form parses back to the same custom form;
//   4. so does its generic form after a trip through mlir-opt (as unregistered ops).
// Each stencil program also documents what it computes, where it comes from and its dependence
// character in its header. A failing file is named on stderr.
// RUN: for f in %S/../../../examples/*.mlir; do \
// RUN:   stencil-opt $f > %t.custom || { echo "examples: $f fails to parse or verify" >&2; exit 1; }; \
// RUN:   stencil-opt %t.custom > %t.again && diff %t.custom %t.again > /dev/null || { echo "examples: $f: printing is unstable" >&2; exit 1; }; \
// RUN:   stencil-opt $f --mlir-print-op-generic | stencil-opt > %t.generic && diff %t.custom %t.generic > /dev/null || { echo "examples: $f: the generic form fails to round-trip" >&2; exit 1; }; \
// RUN:   stencil-opt $f --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | stencil-opt > %t.mlir && diff %t.custom %t.mlir > /dev/null || { echo "examples: $f: the round trip through upstream MLIR changes it" >&2; exit 1; }; \
// RUN:   if grep -q "stencil.program" $f; then \
// RUN:     for field in "// Source:" "// Dependences: DO"; do grep -q "$field" $f || { echo "examples: $f: the header lacks a '$field' line" >&2; exit 1; }; done; \
// RUN:   fi; \
// RUN: done

// Every stencil program runs with no flags on the reference interpreter (stencil-run), and
// canonicalize+cse preserve its results bit for bit (--check).
// RUN: for f in %S/../../../examples/*.mlir; do \
// RUN:   if grep -q "stencil.program" $f; then \
// RUN:     stencil-run $f --check --pass-pipeline='builtin.module(canonicalize,cse)' > /dev/null || { echo "examples: $f fails to run or changes under canonicalize,cse" >&2; exit 1; }; \
// RUN:   fi; \
// RUN: done

// The interface of each program (names of fields, scalars and parameters, minimums,
// defaults) is what users pass to stencil-run: pin it.
// RUN: for f in %S/../../../examples/*.mlir; do stencil-opt $f; done | FileCheck %s
// CHECK-DAG: stencil.program @fdtd_2d(%ex: !stencil.field<[NX, NY] x f64>, %ey: !stencil.field<[NX, NY] x f64>, %hz: !stencil.field<[NX, NY] x f64>, %ce: f64, %ch: f64) params [T >= 1, NX >= 2, NY >= 2] defaults [T = 10, NX = 32, NY = 32, ce = 5.000000e-01, ch = 0.69999999999999996] {
// CHECK-DAG: stencil.program @heat_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>, %alpha: f64) params [T >= 1, N >= 3, M >= 3] defaults [T = 10, N = 32, M = 32, alpha = 1.250000e-01] {
// CHECK-DAG: stencil.program @hhc_gradient_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] defaults [T = 5, N = 32, M = 32] {
// CHECK-DAG: stencil.program @hhc_gradient_3d(%A: !stencil.field<[N, M, L] x f64>, %B: !stencil.field<[N, M, L] x f64>) params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 3, N = 16, M = 16, L = 16] {
// CHECK-DAG: stencil.program @hhc_heat_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] defaults [T = 5, N = 32, M = 32] {
// CHECK-DAG: stencil.program @hhc_heat_3d(%A: !stencil.field<[N, M, L] x f64>, %B: !stencil.field<[N, M, L] x f64>) params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 3, N = 16, M = 16, L = 16] {
// CHECK-DAG: stencil.program @hhc_jacobi_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] defaults [T = 5, N = 32, M = 32] {
// CHECK-DAG: stencil.program @hhc_jacobi_3d(%A: !stencil.field<[N, M, L] x f64>, %B: !stencil.field<[N, M, L] x f64>) params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 3, N = 16, M = 16, L = 16] {
// CHECK-DAG: stencil.program @hhc_laplacian_2d(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] defaults [T = 5, N = 32, M = 32] {
// CHECK-DAG: stencil.program @hhc_laplacian_3d(%A: !stencil.field<[N, M, L] x f64>, %B: !stencil.field<[N, M, L] x f64>) params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 3, N = 16, M = 16, L = 16] {
// CHECK-DAG: stencil.program @jacobi_1d_3pt(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] defaults [T = 10, N = 64] {
// CHECK-DAG: stencil.program @jacobi_2d_5pt(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>) params [T >= 1, N >= 3, M >= 3] defaults [T = 10, N = 32, M = 32] {
// CHECK-DAG: stencil.program @jacobi_3d_27pt(%A: !stencil.field<[N, M, L] x f64>, %B: !stencil.field<[N, M, L] x f64>) params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 5, N = 16, M = 16, L = 16] {
// CHECK-DAG: stencil.program @jacobi_3d_7pt(%A: !stencil.field<[N, M, L] x f64>, %B: !stencil.field<[N, M, L] x f64>) params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 5, N = 16, M = 16, L = 16] {
// CHECK-DAG: stencil.program @polybench_fdtd_2d(%ex: !stencil.field<[NX, NY] x f64>, %ey: !stencil.field<[NX, NY] x f64>, %hz: !stencil.field<[NX, NY] x f64>, %fict: !stencil.field<[T] x f64>) params [T >= 1, NX >= 2, NY >= 2] defaults [T = 10, NX = 24, NY = 32] {
// CHECK-DAG: stencil.program @polybench_heat_3d(%A: !stencil.field<[N, N, N] x f64>, %B: !stencil.field<[N, N, N] x f64>) params [T >= 1, N >= 3] defaults [T = 5, N = 16] {
// CHECK-DAG: stencil.program @polybench_jacobi_1d(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] defaults [T = 10, N = 64] {
// CHECK-DAG: stencil.program @polybench_jacobi_2d(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>) params [T >= 1, N >= 3] defaults [T = 10, N = 32] {
// CHECK-DAG: stencil.program @polybench_seidel_2d(%A: !stencil.field<[N, N] x f64>) params [T >= 1, N >= 3] defaults [T = 10, N = 32] {
// CHECK-DAG: stencil.program @sor_1d_3pt(%A: !stencil.field<[N] x f64>, %omega: f64) params [T >= 1, N >= 3] defaults [T = 10, N = 64, omega = 1.500000e+00] {
// CHECK-DAG: stencil.program @sor_2d_5pt(%A: !stencil.field<[N, M] x f64>, %omega: f64) params [T >= 1, N >= 3, M >= 3] defaults [T = 10, N = 32, M = 32, omega = 1.500000e+00] {
// CHECK-DAG: stencil.program @sor_3d_7pt(%A: !stencil.field<[N, M, L] x f64>, %omega: f64) params [T >= 1, N >= 3, M >= 3, L >= 3] defaults [T = 5, N = 16, M = 16, L = 16, omega = 1.500000e+00] {
// CHECK-DAG: stencil.program @ssor_2d_5pt(%A: !stencil.field<[N, M] x f32>, %omega: f32) params [T >= 1, N >= 3, M >= 3] defaults [T = 10, N = 32, M = 32, omega = 1.500000e+00] {
