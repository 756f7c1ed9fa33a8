// Fuzz corpus seed: jacobi-2d-5pt.mlir after builtin.module(gpu-map{naive}) (regenerate: stencil-opt examples/jacobi-2d-5pt.mlir -p 'builtin.module(gpu-map{naive})' )
module attributes {gpu.container_module} {
  func.func @jacobi_2d_5pt(%arg0: memref<?x?xf64>, %arg1: memref<?x?xf64>, %arg2: index, %arg3: index, %arg4: index) attributes {stencil.arg_names = ["A", "B"], stencil.defaults = {M = 32 : i64, N = 32 : i64, T = 10 : i64}, stencil.field_types = ["[N, M] x f64", "[N, M] x f64"], stencil.gpu_mapping = {block = [32, 8, 1], points_per_thread = 1 : i64, strategy = "naive"}, stencil.param_mins = [1, 3, 3], stencil.param_names = ["T", "N", "M"]} {
    affine.for %arg5 = 0 to %arg2 {
      %0 = affine.apply affine_map<()[s0] -> ((s0 - 2) ceildiv 8)>()[%arg3]
      %c1 = arith.constant 1 : index
      %c65535 = arith.constant 65535 : index
      %1 = arith.maxsi %0, %c1 : index
      %2 = arith.minsi %1, %c65535 : index
      %3 = affine.apply affine_map<()[s0] -> ((s0 - 2) ceildiv 32)>()[%arg4]
      %c1_0 = arith.constant 1 : index
      %c2147483647 = arith.constant 2147483647 : index
      %4 = arith.maxsi %3, %c1_0 : index
      %5 = arith.minsi %4, %c2147483647 : index
      %c1_1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c8 = arith.constant 8 : index
      %c1_2 = arith.constant 1 : index
      gpu.launch_func  @jacobi_2d_5pt_kernels::@jacobi_2d_5pt_k0 blocks in (%5, %2, %c1_1) threads in (%c32, %c8, %c1_2)  args(%arg0 : memref<?x?xf64>, %arg1 : memref<?x?xf64>, %arg2 : index, %arg3 : index, %arg4 : index, %arg5 : index)
      %6 = affine.apply affine_map<()[s0] -> ((s0 - 2) ceildiv 8)>()[%arg3]
      %c1_3 = arith.constant 1 : index
      %c65535_4 = arith.constant 65535 : index
      %7 = arith.maxsi %6, %c1_3 : index
      %8 = arith.minsi %7, %c65535_4 : index
      %9 = affine.apply affine_map<()[s0] -> ((s0 - 2) ceildiv 32)>()[%arg4]
      %c1_5 = arith.constant 1 : index
      %c2147483647_6 = arith.constant 2147483647 : index
      %10 = arith.maxsi %9, %c1_5 : index
      %11 = arith.minsi %10, %c2147483647_6 : index
      %c1_7 = arith.constant 1 : index
      %c32_8 = arith.constant 32 : index
      %c8_9 = arith.constant 8 : index
      %c1_10 = arith.constant 1 : index
      gpu.launch_func  @jacobi_2d_5pt_kernels::@jacobi_2d_5pt_k1 blocks in (%11, %8, %c1_7) threads in (%c32_8, %c8_9, %c1_10)  args(%arg0 : memref<?x?xf64>, %arg1 : memref<?x?xf64>, %arg2 : index, %arg3 : index, %arg4 : index, %arg5 : index)
    }
    return
  }
  gpu.module @jacobi_2d_5pt_kernels {
    gpu.func @jacobi_2d_5pt_k0(%arg0: memref<?x?xf64>, %arg1: memref<?x?xf64>, %arg2: index, %arg3: index, %arg4: index, %arg5: index) kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %thread_id_x = gpu.thread_id  x
      %thread_id_y = gpu.thread_id  y
      %thread_id_z = gpu.thread_id  z
      %block_dim_x = gpu.block_dim  x
      %block_dim_y = gpu.block_dim  y
      %block_dim_z = gpu.block_dim  z
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %block_id_z = gpu.block_id  z
      %grid_dim_x = gpu.grid_dim  x
      %grid_dim_y = gpu.grid_dim  y
      %grid_dim_z = gpu.grid_dim  z
      %c1 = arith.constant 1 : index
      %c-1 = arith.constant -1 : index
      %0 = arith.addi %arg3, %c-1 : index
      %1 = arith.muli %thread_id_z, %block_dim_y : index
      %2 = arith.addi %1, %thread_id_y : index
      %3 = arith.muli %block_dim_z, %block_dim_y : index
      %4 = arith.muli %block_id_y, %3 : index
      %5 = arith.addi %4, %2 : index
      %6 = arith.addi %c1, %5 : index
      %7 = arith.muli %grid_dim_y, %3 : index
      scf.for %arg6 = %6 to %0 step %7 {
        %c1_0 = arith.constant 1 : index
        %c-1_1 = arith.constant -1 : index
        %8 = arith.addi %arg4, %c-1_1 : index
        %9 = arith.muli %block_id_x, %block_dim_x : index
        %10 = arith.addi %9, %thread_id_x : index
        %11 = arith.addi %c1_0, %10 : index
        %12 = arith.muli %grid_dim_x, %block_dim_x : index
        scf.for %arg7 = %11 to %8 step %12 {
          %13 = memref.load %arg0[%arg6, %arg7] : memref<?x?xf64>
          %c-1_2 = arith.constant -1 : index
          %14 = arith.addi %arg6, %c-1_2 : index
          %15 = memref.load %arg0[%14, %arg7] : memref<?x?xf64>
          %c1_3 = arith.constant 1 : index
          %16 = arith.addi %arg6, %c1_3 : index
          %17 = memref.load %arg0[%16, %arg7] : memref<?x?xf64>
          %c-1_4 = arith.constant -1 : index
          %18 = arith.addi %arg7, %c-1_4 : index
          %19 = memref.load %arg0[%arg6, %18] : memref<?x?xf64>
          %c1_5 = arith.constant 1 : index
          %20 = arith.addi %arg7, %c1_5 : index
          %21 = memref.load %arg0[%arg6, %20] : memref<?x?xf64>
          %22 = arith.addf %13, %15 : f64
          %23 = arith.addf %22, %17 : f64
          %24 = arith.addf %23, %19 : f64
          %25 = arith.addf %24, %21 : f64
          %cst = arith.constant 5.000000e+00 : f64
          %26 = arith.divf %25, %cst : f64
          memref.store %26, %arg1[%arg6, %arg7] : memref<?x?xf64>
        }
      }
      gpu.return
    }
    gpu.func @jacobi_2d_5pt_k1(%arg0: memref<?x?xf64>, %arg1: memref<?x?xf64>, %arg2: index, %arg3: index, %arg4: index, %arg5: index) kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
      %thread_id_x = gpu.thread_id  x
      %thread_id_y = gpu.thread_id  y
      %thread_id_z = gpu.thread_id  z
      %block_dim_x = gpu.block_dim  x
      %block_dim_y = gpu.block_dim  y
      %block_dim_z = gpu.block_dim  z
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %block_id_z = gpu.block_id  z
      %grid_dim_x = gpu.grid_dim  x
      %grid_dim_y = gpu.grid_dim  y
      %grid_dim_z = gpu.grid_dim  z
      %c1 = arith.constant 1 : index
      %c-1 = arith.constant -1 : index
      %0 = arith.addi %arg3, %c-1 : index
      %1 = arith.muli %thread_id_z, %block_dim_y : index
      %2 = arith.addi %1, %thread_id_y : index
      %3 = arith.muli %block_dim_z, %block_dim_y : index
      %4 = arith.muli %block_id_y, %3 : index
      %5 = arith.addi %4, %2 : index
      %6 = arith.addi %c1, %5 : index
      %7 = arith.muli %grid_dim_y, %3 : index
      scf.for %arg6 = %6 to %0 step %7 {
        %c1_0 = arith.constant 1 : index
        %c-1_1 = arith.constant -1 : index
        %8 = arith.addi %arg4, %c-1_1 : index
        %9 = arith.muli %block_id_x, %block_dim_x : index
        %10 = arith.addi %9, %thread_id_x : index
        %11 = arith.addi %c1_0, %10 : index
        %12 = arith.muli %grid_dim_x, %block_dim_x : index
        scf.for %arg7 = %11 to %8 step %12 {
          %13 = memref.load %arg1[%arg6, %arg7] : memref<?x?xf64>
          memref.store %13, %arg0[%arg6, %arg7] : memref<?x?xf64>
        }
      }
      gpu.return
    }
  }
}
