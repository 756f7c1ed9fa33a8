// stencil-run on affine input: the file's function is raised to a stencil program, which
// runs; its fields are the function's memref arguments (argK), initialised like fields, its
// parameters the integer arguments the loops are bounded by. --check compares with the
// original function, un-raised, on the reference interpreter of the upstream subset.
//
// Arguments that may alias are refused, with the flag that says they do not (C's restrict);
// with it the function raises and runs bit-exact. A function of scf.for loops has nothing to
// raise: a located error that says so.
// RUN: not stencil-run %S/Inputs/affine-may-alias.mlir --param arg0=20 --check 2>&1 | FileCheck %s --check-prefix=ALIAS
// RUN: stencil-run %S/Inputs/affine-may-alias.mlir --param arg0=20 --check --assume-no-alias --target sim --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=PASSED
// RUN: not stencil-run %S/Inputs/affine-scf-loops.mlir --param arg0=20 2>&1 | FileCheck %s --check-prefix=SCF
// A file as Polygeist prints it (a dlti data layout, arrays without llvm.noalias) runs with the
// two flags that say what the front end knows; without them each refusal names its flag.
// RUN: stencil-run %S/Inputs/affine-polygeist.mlir --param arg0=4 --param arg1=20 --check --allow-unregistered-dialect --assume-no-alias --target sim --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=PASSED
// RUN: not stencil-run %S/Inputs/affine-polygeist.mlir --param arg0=4 --param arg1=20 2>&1 | FileCheck %s --check-prefix=DLTI
// DLTI: error: dialect 'dlti' is not registered; use --allow-unregistered-dialect to accept its attributes
// A parameter value that does not fit its i32 argument is refused (the function would truncate it):
// RUN: not stencil-run %S/../../../examples/affine/jacobi-1d.mlir --param arg0=4294967297 --param arg1=30 2>&1 | FileCheck %s --check-prefix=WIDTH
// WIDTH: error: --param arg0=4294967297 does not fit %arg0 of @kernel_jacobi_1d, an i32
// ALIAS: error: stencil-run runs an affine function by raising it to a stencil program, and @mayalias does not raise (above); stencil-run --assume-no-alias gives it the pass's assume-no-alias=true
// SCF: affine-scf-loops.mlir:2:1: error: stencil-run runs an affine function by raising its affine.for loop nests, and @scf has none (scf.for loops are not raised
//
// The six PolyBench-style inputs of examples/affine: raised and checked on the reference
// interpreter, then raised, tiled, mapped to the GPU and checked on the simulator.
// RUN: stencil-run %S/../../../examples/affine/jacobi-1d.mlir --param arg0=5 --param arg1=30 --check | FileCheck %s --check-prefix=J1
// RUN: stencil-run %S/../../../examples/affine/jacobi-1d.mlir --param arg0=5 --param arg1=30 --check --target sim --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=5},gpu-map)' | FileCheck %s --check-prefix=PASSED
// RUN: stencil-run %S/../../../examples/affine/jacobi-2d.mlir --param arg0=4 --param arg1=14 --check | FileCheck %s --check-prefix=PASSED
// RUN: stencil-run %S/../../../examples/affine/jacobi-2d.mlir --param arg0=4 --param arg1=14 --check --target sim --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map)' | FileCheck %s --check-prefix=PASSED
// RUN: stencil-run %S/../../../examples/affine/jacobi-2d.mlir --param arg0=4 --param arg1=14 --check --target sim --pass-pipeline='builtin.module(gpu-map{naive})' | FileCheck %s --check-prefix=PASSED
// RUN: stencil-run %S/../../../examples/affine/seidel-2d.mlir --param arg0=2 --check | FileCheck %s --check-prefix=PASSED
// RUN: stencil-run %S/../../../examples/affine/seidel-2d.mlir --param arg0=2 --check --target sim --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map)' | FileCheck %s --check-prefix=PASSED
// RUN: stencil-run %S/../../../examples/affine/heat-3d.mlir --param arg0=2 --check | FileCheck %s --check-prefix=PASSED
// RUN: stencil-run %S/../../../examples/affine/heat-3d.mlir --param arg0=2 --check --target sim --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map)' | FileCheck %s --check-prefix=PASSED
// RUN: stencil-run %S/../../../examples/affine/fdtd-2d.mlir --param arg0=4 --param arg1=9 --param arg2=11 --check | FileCheck %s --check-prefix=PASSED
// RUN: stencil-run %S/../../../examples/affine/fdtd-2d.mlir --param arg0=4 --param arg1=9 --param arg2=11 --check --target sim --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map)' | FileCheck %s --check-prefix=PASSED
// RUN: stencil-run %S/../../../examples/affine/sor-2d.mlir --param arg0=3 --param arg1=10 --param arg2=12 --scalar arg3=1.25 --check | FileCheck %s --check-prefix=SOR
// RUN: stencil-run %S/../../../examples/affine/sor-2d.mlir --param arg0=3 --param arg1=10 --param arg2=12 --scalar arg3=1.25 --check --target sim --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map)' | FileCheck %s --check-prefix=PASSED
// Precompiled PTX for the MLIR-free runner (a GPU machine with only a driver): stencil-opt
// compiles the raised and mapped kernels at the run's problem sizes (gpu-map{staging=auto} asks
// the tile model about them); the runner raises the same way and matches them.
// RUN: stencil-opt %S/../../../examples/affine/jacobi-2d.mlir --param arg0=4 --param arg1=14 --emit=ptx -o %t.ptx --pass-pipeline='builtin.module(raise-affine-to-stencil,poly-schedule,poly-tile{sizes=4},gpu-map)'
// RUN: %stencil-run-mlir-free %S/../../../examples/affine/jacobi-2d.mlir --param arg0=4 --param arg1=14 --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map)' --ptx %t.ptx --target sim --check | FileCheck %s --check-prefix=PTX
//
// This file's own function: --init, --json and the report.
// RUN: stencil-run %s --param arg0=3 --param arg1=8 --init arg2=const:1 --init arg3=zeros --json | FileCheck %s --check-prefix=JSON
// A nest the raise refuses is an error naming why.
// RUN: not stencil-run %S/Inputs/affine-not-raised.mlir --param arg0=4 2>&1 | FileCheck %s --check-prefix=REFUSED
// An argument that is a bound and a value: the program's scalar takes the parameter's value.
// RUN: stencil-run %S/Inputs/affine-tied.mlir --param arg0=7 --check | FileCheck %s --check-prefix=TIED
// RUN: not stencil-run %S/Inputs/affine-tied.mlir --param arg0=7 --scalar arg0_1=3 2>&1 | FileCheck %s --check-prefix=TIED-ERR
// A field sized by what the loops reach (arg1) where the memref has a static size (20): the
// original function runs on the static memref with the field in its leading corner, bit-exact;
// parameters that reach past the static size are refused.
// RUN: stencil-run %S/Inputs/affine-static-reach.mlir --param arg0=2 --param arg1=10 --check | FileCheck %s --check-prefix=STATIC
// RUN: stencil-run %S/Inputs/affine-static-reach.mlir --param arg0=3 --param arg1=20 --check | FileCheck %s --check-prefix=STATIC
// RUN: not stencil-run %S/Inputs/affine-static-reach.mlir --param arg0=2 --param arg1=21 2>&1 | FileCheck %s --check-prefix=STATIC-ERR
// A bound computed in i8 that wraps past arg1 = 27: there the function runs its own loops, so
// the run is refused rather than differing from it.
// RUN: stencil-run %S/Inputs/affine-computed-bound.mlir --entry narrow --param arg0=2 --param arg1=27 --check | FileCheck %s --check-prefix=PASSED
// RUN: not stencil-run %S/Inputs/affine-computed-bound.mlir --entry narrow --param arg0=2 --param arg1=28 2>&1 | FileCheck %s --check-prefix=WRAPS
// A bound computed in i32 from an argument (C's n - 1) is raised over that argument; one
// computed from two (a product) cannot be bound from the arguments and is refused, naming it.
// RUN: stencil-run %S/Inputs/affine-computed-bound.mlir --entry k --param arg0=3 --param arg1=12 --check | FileCheck %s --check-prefix=COMPUTED
// RUN: not stencil-run %S/Inputs/affine-computed-bound.mlir --entry product --param arg0=3 --param arg1=4 2>&1 | FileCheck %s --check-prefix=PRODUCT
// A whole file with a main the interpreter cannot run: --entry runs the kernel, --check its
// original alone.
// RUN: stencil-run %S/Inputs/affine-with-main.mlir --entry kernel --param arg0=3 --param arg1=16 --check | FileCheck %s --check-prefix=PASSED
// A scratch buffer of the function's own (memref.alloc/dealloc around the loops): a field of
// the program, started at zero; --check compares the function's arguments.
// RUN: stencil-run %S/Inputs/affine-scratch.mlir --param arg0=4 --param arg1_dim0=20 --check | FileCheck %s --check-prefix=SCRATCH
// RUN: stencil-run %S/Inputs/affine-scratch.mlir --param arg0=3 --param arg1_dim0=33 --check --target sim --pass-pipeline='builtin.module(gpu-map{strategy=auto})' | FileCheck %s --check-prefix=PASSED
// RUN: not stencil-run %S/Inputs/affine-scratch.mlir --param arg0=4 --param arg1_dim0=20 --check --init buffer0=const:1 | FileCheck %s --check-prefix=SCRATCH-ONES
// A parameter below the program's minimum is refused (the program needs arg1 >= 3).
// RUN: not stencil-run %s --param arg0=3 --param arg1=2 2>&1 | FileCheck %s --check-prefix=BELOW

// J1: program  @kernel_jacobi_1d_stencil raised from @kernel_jacobi_1d ({{.*}}jacobi-1d.mlir)
// J1-NEXT: target   ref
// J1-NEXT: params   arg0=5 arg1=30
// J1: field    arg2 [30] f64
// J1-NEXT: field    arg3 [30] f64
// J1-NEXT: check    against the untransformed program on ref (bit-exact): passed

// PTX: ptx {{.*}} matches @kernel_jacobi_2d_stencil_kernels
// PTX: check    against the untransformed program on ref (bit-exact): passed

// PASSED: check    against the untransformed program on ref (bit-exact): passed

// SOR: params   arg0=3 arg1=10 arg2=12
// SOR-NEXT: scalars  arg3=1.25
// SOR: check    against the untransformed program on ref (bit-exact): passed

// arg3 is only written at 1 <= i < n - 1: sized by its accesses, the field has n - 1 elements.
// JSON: "fields":{"arg2":{{.*}}"shape":[8]},"arg3":{{.*}}"shape":[7]}}{{.*}}"params":{"arg0":3,"arg1":8}{{.*}}"program":"smooth_stencil",{{.*}}"raised_from":"smooth"

// REFUSED: affine-not-raised.mlir:{{[0-9]+}}:{{[0-9]+}}: error: affine loop nest not raised to a stencil program: the loop has step 2
// REFUSED: error: stencil-run runs an affine function by raising it to a stencil program, and @strided does not raise (above)

// TIED: params   arg0=7
// TIED-NEXT: scalars  arg0_1=7
// TIED: check    against the untransformed program on ref (bit-exact): passed
// TIED-ERR: error: scalar arg0_1 is the value of parameter arg0 (the same argument of the function): give --param arg0=… only

// STATIC: field    arg2 [{{[0-9]+}}x{{[0-9]+}}] f64
// STATIC: check    against the untransformed program on ref (bit-exact): passed
// STATIC-ERR: error: at arg0=2, arg1=21 @k does not run the raised program: the guard the raise put around the call fails
// COMPUTED: params   arg0=3 arg1=12
// COMPUTED: field    arg3 [11] f64
// COMPUTED: check    against the untransformed program on ref (bit-exact): passed
// SCRATCH: field    buffer0 [19] f64
// SCRATCH: check    against the untransformed program on ref (bit-exact): passed
// SCRATCH-NEXT: arg1: identical
// SCRATCH-NOT: buffer0: identical
// SCRATCH-ONES: check    against the untransformed program on ref (bit-exact): FAILED
// WRAPS: error: at arg0=2, arg1=28 @narrow does not run the raised program
// PRODUCT: affine-computed-bound.mlir:28:3: error: parameter 'sym' of the program raised from @product is computed by 'arith.muli' in the function, not one of its arguments

// BELOW: error: {{.*}}arg1{{.*}}2{{.*}}minimum{{.*}}3

func.func @smooth(%arg0: i32, %arg1: i32, %arg2: memref<?xf64> {llvm.noalias}, %arg3: memref<?xf64> {llvm.noalias}) {
  %half = arith.constant 5.000000e-01 : f64
  %t = arith.index_cast %arg0 : i32 to index
  %n = arith.index_cast %arg1 : i32 to index
  affine.for %s = 0 to %t {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %l = affine.load %arg2[%i - 1] : memref<?xf64>
      %r = affine.load %arg2[%i + 1] : memref<?xf64>
      %a = arith.addf %l, %r : f64
      %v = arith.mulf %a, %half : f64
      affine.store %v, %arg3[%i] : memref<?xf64>
    }
  }
  return
}
