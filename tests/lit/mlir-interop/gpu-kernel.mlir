// A complete GPU program through real MLIR and back: a host function computing the grid size
// and launching a kernel that stages a tile in workgroup memory, synchronizes with gpu.barrier
// and blurs neighbouring elements (thread ids, memref.load/store on global and workgroup
// memory, arith). Needs the memref and arith dialects besides gpu. The last RUN line lowers the
// kernel with MLIR's convert-gpu-to-nvvm to show that what we print is what MLIR's GPU
// pipeline consumes.
//
// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | mlir-opt --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s | mlir-opt --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' | FileCheck %s --check-prefix=NVVM

// CHECK-LABEL: module attributes {gpu.container_module} {
// CHECK-NEXT:  func.func @host(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: index) {
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c32 = arith.constant 32 : index
// CHECK-NEXT:    %c31 = arith.constant 31 : index
// CHECK-NEXT:    %0 = arith.addi %arg2, %c31 : index
// CHECK-NEXT:    %1 = arith.divui %0, %c32 : index
// CHECK-NEXT:    %c128_i32 = arith.constant 128 : i32
// CHECK-NEXT:    gpu.launch_func  @kernels::@blur blocks in (%1, %c1, %c1) threads in (%c32, %c1, %c1)  dynamic_shared_memory_size %c128_i32 args(%arg0 : memref<?xf32>, %arg1 : memref<?xf32>, %arg2 : index)
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.module @kernels {
// CHECK-NEXT:    gpu.func @blur(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: index) workgroup(%arg3 : memref<32xf32, #gpu.address_space<workgroup>>) kernel {
// CHECK-NEXT:      %c1 = arith.constant 1 : index
// CHECK-NEXT:      %c32 = arith.constant 32 : index
// CHECK-NEXT:      %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %thread_id_x = gpu.thread_id  x
// CHECK-NEXT:      %block_id_x = gpu.block_id  x
// CHECK-NEXT:      %block_dim_x = gpu.block_dim  x
// CHECK-NEXT:      %0 = arith.muli %block_id_x, %block_dim_x : index
// CHECK-NEXT:      %1 = arith.addi %0, %thread_id_x : index
// CHECK-NEXT:      %2 = arith.subi %arg2, %c1 : index
// CHECK-NEXT:      %3 = arith.minui %1, %2 : index
// CHECK-NEXT:      %4 = memref.load %arg0[%3] : memref<?xf32>
// CHECK-NEXT:      memref.store %4, %arg3[%thread_id_x] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %5 = arith.addi %thread_id_x, %c1 : index
// CHECK-NEXT:      %6 = arith.remui %5, %c32 : index
// CHECK-NEXT:      %7 = memref.load %arg3[%6] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %8 = arith.addf %4, %7 : f32
// CHECK-NEXT:      %9 = arith.mulf %8, %cst : f32
// CHECK-NEXT:      memref.store %9, %arg1[%3] : memref<?xf32>
// CHECK-NEXT:      gpu.return
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT: }

// NVVM-LABEL: gpu.module @kernels {
// NVVM:         llvm.mlir.global internal @__wg_blur_0() {addr_space = 3 : i32} : !llvm.array<32 x f32>
// NVVM:         llvm.func @blur({{.*}}) attributes {gpu.kernel, nvvm.kernel} {
// NVVM:           nvvm.read.ptx.sreg.tid.x
// NVVM:           nvvm.barrier0
// NVVM:           llvm.return
module attributes {gpu.container_module} {
  func.func @host(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c31 = arith.constant 31 : index
    %rounded = arith.addi %n, %c31 : index
    %blocks = arith.divui %rounded, %c32 : index
    %shared = arith.constant 128 : i32
    gpu.launch_func @kernels::@blur blocks in (%blocks, %c1, %c1) threads in (%c32, %c1, %c1) dynamic_shared_memory_size %shared args(%in : memref<?xf32>, %out : memref<?xf32>, %n : index)
    return
  }
  gpu.module @kernels {
    gpu.func @blur(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %half = arith.constant 0.5 : f32
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bx, %bdim : index
      %i = arith.addi %base, %tx : index
      %last = arith.subi %n, %c1 : index
      %j = arith.minui %i, %last : index
      %v = memref.load %in[%j] : memref<?xf32>
      memref.store %v, %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %next = arith.addi %tx, %c1 : index
      %nb = arith.remui %next, %c32 : index
      %w = memref.load %tile[%nb] : memref<32xf32, #gpu.address_space<workgroup>>
      %sum = arith.addf %v, %w : f32
      %r = arith.mulf %sum, %half : f32
      memref.store %r, %out[%j] : memref<?xf32>
      gpu.return
    }
  }
}
