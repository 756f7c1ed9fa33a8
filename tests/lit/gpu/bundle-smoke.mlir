// The GPU bundle end to end without a GPU (docs/gpu.md, bench/README.md): tools/gpu-bundle with
// this build's binaries (no cargo build) for a 1-D example and an affine input, then the
// bundle's run.py, which finds no driver and runs every check on the simulator — each PTX file
// matched to its mapped module by fingerprint, each run bit-exact against the reference
// interpreter. A bundle whose PTX no longer fits what the runner maps (the 24 stale checks of
// 2026-11-29) fails here instead of on a lent GPU. (No IR here: the scripts are the subject.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/../../../tools/gpu-bundle --stencil-opt %stencil-opt --runner %stencil-run-mlir-free \
// RUN:   --only jacobi-1d-3pt,affine/jacobi-1d --out %t/bundle | FileCheck %s --check-prefix=BUILD
// BUILD: gpu-bundle: compiling {{[1-9][0-9]*}} configurations to PTX for sm_90
// BUILD: gpu-bundle: {{.*}}bundle: {{.*}}; {{[1-9][0-9]*}} checks
// RUN: python3 %t/bundle/run.py %t/results --checks-only --jobs 2 | FileCheck %s --check-prefix=CHECKS
// CHECKS: no NVIDIA driver (libcuda.so.1): checking the bundle on the GPU simulator instead
// CHECKS-NOT: decisions: rows the manifest lacks
// CHECKS: affine/jacobi-1d [as written] {{.*}}: bit-exact
// CHECKS: checks: {{[1-9][0-9]*}} bit-exact, 0 failed
// RUN: test -f %t/results/results.json
