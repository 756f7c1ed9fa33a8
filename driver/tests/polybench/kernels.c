/* The PolyBench/C 4.2.1 kernels that examples/polybench-*.mlir implement, for
 * driver/tests/polybench_c.rs: each kernel's loops and expressions as PolyBench writes them
 * (DATA_TYPE double, SCALAR_VAL(x) = x), so that the examples can be checked against them
 * bit for bit. Compile with -O0 -ffp-contract=off: a contracted a*b+c (an FMA) rounds once and
 * would not be the same computation.
 *
 * Usage: kernels KERNEL IN OUT PARAMS...
 *   jacobi-1d T N, jacobi-2d T N, seidel-2d T N, heat-3d T N, fdtd-2d T NX NY
 * IN holds the fields' initial values and OUT gets their final values: raw little-endian
 * doubles, row-major, the fields one after the other in the order of the example's
 * arguments (jacobi: A B; seidel: A; heat: A B; fdtd: ex ey hz fict). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void kernel_jacobi_1d(int tsteps, int n, double A[n], double B[n]) {
  int t, i;
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      B[i] = 0.33333 * (A[i-1] + A[i] + A[i + 1]);
    for (i = 1; i < n - 1; i++)
      A[i] = 0.33333 * (B[i-1] + B[i] + B[i + 1]);
  }
}

static void kernel_jacobi_2d(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
  }
}

static void kernel_seidel_2d(int tsteps, int n, double A[n][n]) {
  int t, i, j;
  for (t = 0; t <= tsteps - 1; t++)
    for (i = 1; i <= n - 2; i++)
      for (j = 1; j <= n - 2; j++)
        A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
                   + A[i][j-1] + A[i][j] + A[i][j+1]
                   + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1])/9.0;
}

static void kernel_heat_3d(int tsteps, int n, double A[n][n][n], double B[n][n][n]) {
  int t, i, j, k;
  for (t = 1; t <= tsteps; t++) {
    for (i = 1; i < n-1; i++) {
      for (j = 1; j < n-1; j++) {
        for (k = 1; k < n-1; k++) {
          B[i][j][k] =   0.125 * (A[i+1][j][k] - 2.0 * A[i][j][k] + A[i-1][j][k])
                       + 0.125 * (A[i][j+1][k] - 2.0 * A[i][j][k] + A[i][j-1][k])
                       + 0.125 * (A[i][j][k+1] - 2.0 * A[i][j][k] + A[i][j][k-1])
                       + A[i][j][k];
        }
      }
    }
    for (i = 1; i < n-1; i++) {
      for (j = 1; j < n-1; j++) {
        for (k = 1; k < n-1; k++) {
          A[i][j][k] =   0.125 * (B[i+1][j][k] - 2.0 * B[i][j][k] + B[i-1][j][k])
                       + 0.125 * (B[i][j+1][k] - 2.0 * B[i][j][k] + B[i][j-1][k])
                       + 0.125 * (B[i][j][k+1] - 2.0 * B[i][j][k] + B[i][j][k-1])
                       + B[i][j][k];
        }
      }
    }
  }
}

static void kernel_fdtd_2d(int tmax, int nx, int ny, double ex[nx][ny], double ey[nx][ny],
                           double hz[nx][ny], double _fict_[tmax]) {
  int t, i, j;
  for (t = 0; t < tmax; t++) {
    for (j = 0; j < ny; j++)
      ey[0][j] = _fict_[t];
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5*(hz[i][j]-hz[i-1][j]);
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5*(hz[i][j]-hz[i][j-1]);
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7*  (ex[i][j+1] - ex[i][j] +
                                     ey[i+1][j] - ey[i][j]);
  }
}

static int param(int argc, char **argv, int i) {
  if (i >= argc) {
    fprintf(stderr, "missing parameter %d\n", i - 3);
    exit(2);
  }
  return atoi(argv[i]);
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s KERNEL IN OUT PARAMS...\n", argv[0]);
    return 2;
  }
  const char *kernel = argv[1];
  int t = param(argc, argv, 4), n = param(argc, argv, 5);
  size_t count;
  if (!strcmp(kernel, "jacobi-1d")) count = 2 * (size_t)n;
  else if (!strcmp(kernel, "jacobi-2d")) count = 2 * (size_t)n * n;
  else if (!strcmp(kernel, "seidel-2d")) count = (size_t)n * n;
  else if (!strcmp(kernel, "heat-3d")) count = 2 * (size_t)n * n * n;
  else if (!strcmp(kernel, "fdtd-2d")) count = 3 * (size_t)n * param(argc, argv, 6) + t;
  else {
    fprintf(stderr, "unknown kernel %s\n", kernel);
    return 2;
  }
  double *data = malloc(count * sizeof(double));
  FILE *in = fopen(argv[2], "rb");
  if (!data || !in || fread(data, sizeof(double), count, in) != count || fgetc(in) != EOF) {
    fprintf(stderr, "%s: cannot read %zu doubles\n", argv[2], count);
    return 1;
  }
  fclose(in);
  if (!strcmp(kernel, "jacobi-1d")) {
    kernel_jacobi_1d(t, n, data, data + n);
  } else if (!strcmp(kernel, "jacobi-2d")) {
    kernel_jacobi_2d(t, n, (double (*)[n])data, (double (*)[n])(data + (size_t)n * n));
  } else if (!strcmp(kernel, "seidel-2d")) {
    kernel_seidel_2d(t, n, (double (*)[n])data);
  } else if (!strcmp(kernel, "heat-3d")) {
    kernel_heat_3d(t, n, (double (*)[n][n])data, (double (*)[n][n])(data + (size_t)n * n * n));
  } else {
    int nx = n, ny = param(argc, argv, 6);
    size_t f = (size_t)nx * ny;
    kernel_fdtd_2d(t, nx, ny, (double (*)[ny])data, (double (*)[ny])(data + f),
                   (double (*)[ny])(data + 2 * f), data + 3 * f);
  }
  FILE *out = fopen(argv[3], "wb");
  if (!out || fwrite(data, sizeof(double), count, out) != count || fclose(out) != 0) {
    fprintf(stderr, "%s: cannot write\n", argv[3]);
    return 1;
  }
  free(data);
  return 0;
}
