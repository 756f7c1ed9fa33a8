// gpu-map (docs/passes.md): a host func.func with one gpu.launch_func per inter-tile wavefront
// (the host loop is the thesis' __syncblocks), and kernels in which each block runs the tile its
// block id names (the grid sized on the host to the wavefront's tiles), each tile is
// staged in workgroup memory (load what it reads, barrier, compute, store back what it
// wrote), each intra-tile wavefront step is followed by a gpu.barrier, and the
// points of a step are distributed over the threads.
// These RUN lines show the general loops every tile runs with full-tiles=false
// partial-tiles=general; the default separates full tiles (gpu-map-full-tiles.mlir).
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8 grid=4 full-tiles=false partial-tiles=general},canonicalize,cse)' | FileCheck %s
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8 grid=4 staging=false full-tiles=false partial-tiles=general},canonicalize,cse)' | FileCheck %s --check-prefix=GLOBAL
// The mapped module compiles to PTX with MLIR 22's GPU pipeline.
// RUN: stencil-opt %s --split-input-file --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map)' | mlir-opt --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,reconcile-unrealized-casts),nvvm-attach-target{chip=sm_90},gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX
// Option errors come before any input is read; mapping errors are located at the program.
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{block=64,64})' 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(gpu-map{grid=-1})' 2>&1 | FileCheck %s --check-prefix=GRID
// BLOCK: option 'block' of pass 'gpu-map': at most 1024 threads per block (CUDA's limit)
// GRID: option 'grid' of pass 'gpu-map': -1 blocks; give at least 1 (or 0: automatic)
// PTX: gpu.binary @fig_3_4_kernels
// PTX: gpu.binary @jacobi_kernels

// Thesis Fig. 3.4 tiled 4x4 with balanced hyperplanes (Fig. 4.3).
// CHECK-LABEL: module attributes {gpu.container_module} {
// CHECK:       func.func @fig_3_4(%arg0: memref<?xf64>, %arg1: index, %arg2: index) attributes {{{.*}}stencil.gpu_mapping = {block = [8, 1, 1], full_tiles = false, grid = 4 : i64, intra = "first-hyperplane", partial_tiles = "general", shared_memory = {{[1-9][0-9]*}} : i64, staging = true, strategy = "wavefront", tile = [4]}
// CHECK:         affine.for %[[W:.*]] = 0 to affine_map<()[s0, s1] -> ((s0 * 3 + s1 * 2 - 7) floordiv 4 + 1)>()[%arg1, %arg2] {
// The grid: one block per tile of the wavefront (the tile loop's range at this wavefront,
// computed on the host), here capped at grid=4.
// CHECK:           %[[N:.*]] = arith.minsi %{{.*}}, %c4 : index
// CHECK-NEXT:      gpu.launch_func  @fig_3_4_kernels::@fig_3_4_k0 blocks in (%[[N]], %c1, %c1) threads in (%c8, %c1, %c1)  args(%arg0 : memref<?xf64>, %arg1 : index, %arg2 : index, %[[W]] : index)
// CHECK-NEXT:    }
// CHECK:       gpu.module @fig_3_4_kernels {
// The block size is known to the kernel (MLIR folds gpu.block_dim to constants).
// The tile's buffer (11 elements at most) and the byte mask of its footprint's base (the box
// grown by the stencil's offsets).
// CHECK-NEXT:    gpu.func @fig_3_4_k0(%arg0: memref<?xf64>, %arg1: index, %arg2: index, %arg3: index) workgroup(%[[SH:.*]] : memref<11xf64, #gpu.address_space<workgroup>>, %[[MASK:.*]] : memref<12xi8, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
// CHECK:           %[[TX:.*]] = gpu.thread_id  x
// CHECK:           %[[BID:.*]] = gpu.block_id  x
// CHECK:           %[[NB:.*]] = gpu.grid_dim  x
// Each block takes the tile at the range's start plus its block id (striding by the grid size
// when there are more tiles than blocks) and checks the tile's exact bounds: no block walks
// the wavefront.
// CHECK-NOT:       memref.alloca
// CHECK:           %[[FIRST:.*]] = arith.addi %[[LO:.*]], %[[BID]] : index
// CHECK-NEXT:      scf.for %[[T2:.*]] = %[[FIRST]] to %{{.*}} step %[[NB]] {
// CHECK:             %[[GE:.*]] = arith.cmpi sge, %[[T2]], %[[LO]] : index
// CHECK-NEXT:        %[[LT:.*]] = arith.cmpi slt, %[[T2]], %{{.*}} : index
// CHECK-NEXT:        %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT:        scf.if %[[IN]] {
// A barrier (the block's previous tile may still read the mask), then the threads set each
// mask slot to whether its element is in the footprint's base (the exact test, once per slot).
// (Threads take segments of a row's slots in turn; a 1-D mask has segments of one slot.)
// CHECK:               gpu.barrier
// CHECK:               scf.for %[[SEG:.*]] = %{{.*}} to %c12 step %{{.*}} {
// CHECK:                 scf.for %[[Z:.*]] = %[[SEG]] to %{{.*}} step %c1 {
// CHECK:                   %[[BIT:.*]] = arith.extui %{{.*}} : i1 to i8
// CHECK-NEXT:              memref.store %[[BIT]], %[[MASK]][%[[Z]]] : memref<12xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT:            }
// CHECK-NEXT:          }
// CHECK-NEXT:          gpu.barrier
// ①: the threads load the elements the tile reads (11 at most), one per thread in turn: an
// element is read when the mask is set at the element minus one of the read offsets.
// CHECK-NEXT:          scf.for %[[L:.*]] = %{{.*}} to %c11 step %{{.*}} {
// CHECK:                 memref.load %[[MASK]]
// CHECK:                 scf.if %{{.*}} {
// CHECK-NEXT:              %[[V:.*]] = memref.load %arg0[%{{.*}}] : memref<?xf64>
// CHECK-NEXT:              memref.store %[[V]], %[[SH]][%[[L]]] : memref<11xf64, #gpu.address_space<workgroup>>
// CHECK-NEXT:            }
// CHECK-NEXT:          }
// CHECK-NEXT:          gpu.barrier
// The intra-tile wavefronts compute in workgroup memory.
// CHECK:               scf.for %[[E1:.*]] = %{{.*}} to %{{.*}} step %c1 {
// (At most 4 points a step for 8 threads: a thread's turn is a test, not a loop.)
// CHECK:                 scf.if %{{.*}} {
// CHECK-NOT:               %arg0
// CHECK:                   memref.load %[[SH]]
// CHECK:                   memref.store %{{.*}}, %[[SH]]
// CHECK-NEXT:            }
// CHECK-NEXT:            gpu.barrier
// CHECK-NEXT:          }
// The last wavefront's barrier is ②; then the elements the tile wrote go back (barrier ③ is
// the one before the next tile's mask).
// CHECK-NEXT:          scf.for %{{.*}} = %{{.*}} to %c11 step %{{.*}} {
// CHECK:                 memref.load %[[MASK]]
// CHECK:                 scf.if %{{.*}} {
// CHECK-NEXT:              %[[W:.*]] = memref.load %[[SH]][%{{.*}}] : memref<11xf64, #gpu.address_space<workgroup>>
// CHECK-NEXT:              memref.store %[[W]], %arg0[%{{.*}}] : memref<?xf64>
// CHECK-NEXT:            }
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.return

// Without staging the tile works on global memory.
// GLOBAL:        gpu.func @fig_3_4_k0(%arg0: memref<?xf64>, %arg1: index, %arg2: index, %arg3: index) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
// GLOBAL:          scf.if %{{.*}} {
// GLOBAL-NEXT:       %{{.*}} = arith.muli
// GLOBAL:            scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 {
// GLOBAL:              scf.if %{{.*}} {
// GLOBAL:                memref.load %arg0
// GLOBAL:                memref.store %{{.*}}, %arg0
// GLOBAL-NEXT:         }
// GLOBAL-NEXT:         gpu.barrier
// GLOBAL-NEXT:       }
// GLOBAL-NEXT:     }
// GLOBAL-NEXT:   }
// GLOBAL-NEXT:   gpu.return
stencil.program @fig_3_4(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 4] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [0] to [N - 1] {
      %c = stencil.access %A[0] : f64
      %e = stencil.access %A[1] : f64
      %s = arith.addf %c, %e : f64
      %h = arith.constant 0.5 : f64
      %v = arith.mulf %s, %h : f64
      stencil.yield %v : f64
    }
  }
}

// -----

// 2-D Jacobi (gpu-map-naive.mlir maps it naively).
// CHECK-LABEL: func.func @jacobi(
stencil.program @jacobi(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>) params [T >= 1, N >= 3] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %B over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %a = arith.addf %c, %n : f64
      %b = arith.addf %a, %s : f64
      stencil.yield %b : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, N - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
