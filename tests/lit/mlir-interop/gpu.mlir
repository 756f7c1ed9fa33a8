// The gpu dialect through real MLIR and back: our custom and generic output parse in mlir-opt
// 22, mlir-opt's output (custom and generic) parses in stencil-opt, and the result is the same
// program. Also checks that MLIR's own GPU passes accept what we print: nvvm-attach-target adds
// an #nvvm.target we read back, and convert-gpu-to-nvvm lowers our kernels.
// (gpu-kernel.mlir does the same for a kernel with memref and arith ops.)
//
// RUN: stencil-opt %s | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | mlir-opt --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: mlir-opt %s | stencil-opt | FileCheck %s
// RUN: mlir-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | mlir-opt | stencil-opt | FileCheck %s
// RUN: stencil-opt %s | mlir-opt --nvvm-attach-target='chip=sm_90 O=3' | stencil-opt | FileCheck %s --check-prefix=TARGET
// RUN: stencil-opt %s | mlir-opt --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' | FileCheck %s --check-prefix=NVVM

// CHECK-LABEL: module attributes {gpu.container_module} {
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @host(
  // CHECK-SAME:      %[[A:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[ONE:.*]]: index, %[[S:.*]]: i32, %[[F:.*]]: f32) {
  // CHECK-NEXT:    gpu.launch_func  @kernels::@k blocks in (%[[N]], %[[ONE]], %[[ONE]]) threads in (%[[N]], %[[ONE]], %[[ONE]])  args(%[[A]] : memref<?xf32>)
  // CHECK-NEXT:    gpu.launch_func  @kernels::@k blocks in (%[[N]], %[[ONE]], %[[ONE]]) threads in (%[[N]], %[[ONE]], %[[ONE]])  dynamic_shared_memory_size %[[S]] args(%[[A]] : memref<?xf32>)
  // CHECK-NEXT:    gpu.launch_func  @kernels::@scale blocks in (%[[N]], %[[N]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]])  args(%[[A]] : memref<?xf32>, %[[F]] : f32)
  // CHECK-NEXT:    gpu.launch_func  @kernels::@empty clusters in (%[[ONE]], %[[ONE]], %[[ONE]]) blocks in (%[[ONE]], %[[ONE]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]])  {{$}}
  // CHECK-NEXT:    return
  // CHECK-NEXT:  }
  func.func @host(%a: memref<?xf32>, %n: index, %one: index, %s: i32, %f: f32) {
    gpu.launch_func @kernels::@k blocks in (%n, %one, %one) threads in (%n, %one, %one) args(%a : memref<?xf32>)
    gpu.launch_func @kernels::@k blocks in (%n, %one, %one) threads in (%n, %one, %one) dynamic_shared_memory_size %s args(%a : memref<?xf32>)
    gpu.launch_func @kernels::@scale blocks in (%n, %n, %one) threads in (%one, %one, %one) args(%a : memref<?xf32>, %f : f32)
    gpu.launch_func @kernels::@empty clusters in (%one, %one, %one) blocks in (%one, %one, %one) threads in (%one, %one, %one)
    return
  }

  // CHECK-LABEL: gpu.module @kernels {
  // TARGET-LABEL: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90">] {
  // NVVM-LABEL: gpu.module @kernels {
  gpu.module @kernels {
    // CHECK-NEXT:  gpu.func @k(%arg0: memref<?xf32>) workgroup(%arg1 : memref<32xf32, #gpu.address_space<workgroup>>) private(%arg2 : memref<1xf32, #gpu.address_space<private>>) kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
    // CHECK-NEXT:    %thread_id_x = gpu.thread_id  x
    // CHECK-NEXT:    %thread_id_y = gpu.thread_id  y upper_bound 1
    // CHECK-NEXT:    %block_id_x = gpu.block_id  x
    // CHECK-NEXT:    %block_dim_x = gpu.block_dim  x
    // CHECK-NEXT:    %grid_dim_z = gpu.grid_dim  z
    // CHECK-NEXT:    gpu.barrier
    // CHECK-NEXT:    gpu.return
    // CHECK-NEXT:  }
    // TARGET-NEXT: gpu.func @k(%arg0: memref<?xf32>) workgroup(%arg1 : memref<32xf32, #gpu.address_space<workgroup>>) private(%arg2 : memref<1xf32, #gpu.address_space<private>>) kernel
    // NVVM:        llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32} : !llvm.array<32 x f32>
    // NVVM:        llvm.func @k({{.*}}) attributes {gpu.kernel, gpu.known_block_size = array<i32: 32, 1, 1>, nvvm.kernel} {
    // NVVM:          nvvm.barrier0
    gpu.func @k(%a: memref<?xf32>) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y upper_bound 1
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gdz = gpu.grid_dim z
      gpu.barrier
      gpu.return
    }

    // CHECK-NEXT:  gpu.func @scale(%arg0: memref<?xf32>, %arg1: f32) kernel {
    // CHECK-NEXT:    %0 = func.call @device(%arg1) : (f32) -> f32
    // CHECK-NEXT:    gpu.return
    // CHECK-NEXT:  }
    gpu.func @scale(%a: memref<?xf32>, %f: f32) kernel {
      %g = func.call @device(%f) : (f32) -> f32
      gpu.return
    }

    // CHECK-NEXT:  gpu.func @empty() kernel {
    // CHECK-NEXT:    gpu.return
    // CHECK-NEXT:  }
    gpu.func @empty() kernel {
      gpu.return
    }

    // A device function the kernel calls (gpu.func is not callable through func.call, so
    // device helpers are func.func).
    // CHECK-NEXT:  func.func @device(%arg0: f32) -> f32 {
    // CHECK-NEXT:    return %arg0 : f32
    // CHECK-NEXT:  }
    func.func @device(%x: f32) -> f32 {
      return %x : f32
    }

    // CHECK-NEXT:  gpu.func @helper(%arg0: f32 {gpu.arg}) -> (f32 {gpu.res}) workgroup(%arg1 : memref<4xi32, 3>) {
    // CHECK-NEXT:    gpu.return %arg0 : f32
    // CHECK-NEXT:  }
    gpu.func @helper(%x: f32 {gpu.arg}) -> (f32 {gpu.res}) workgroup(%w : memref<4xi32, 3>) {
      gpu.return %x : f32
    }
  // CHECK-NEXT:  }
  }

  // CHECK-NEXT:  gpu.module @targeted [#nvvm.target<O = 3, chip = "sm_90">, #nvvm.target] {
  // CHECK-NEXT:  }
  gpu.module @targeted [#nvvm.target<O = 3, chip = "sm_90">, #nvvm.target] {
  }
// CHECK-NEXT:  }
}
