// Fuzz corpus seed: heat-2d.mlir after builtin.module(gpu-map{strategy=overlapped}) (regenerate: stencil-opt examples/heat-2d.mlir -p 'builtin.module(gpu-map{strategy=overlapped})' )
module attributes {gpu.container_module} {
  func.func @heat_2d(%arg0: memref<?x?xf64>, %arg1: memref<?x?xf64>, %arg2: f64, %arg3: index, %arg4: index, %arg5: index) attributes {stencil.arg_names = ["A", "B", "alpha"], stencil.defaults = {M = 32 : i64, N = 32 : i64, T = 10 : i64, alpha = 1.250000e-01 : f64}, stencil.field_types = ["[N, M] x f64", "[N, M] x f64"], stencil.gpu_mapping = {block = [32, 8, 1], second_buffers = ["A"], shared_memory = 46080 : i64, strategy = "overlapped", tile = [32, 64], time_tile = 4 : i64}, stencil.param_mins = [1, 3, 3], stencil.param_names = ["T", "N", "M"]} {
    %0 = affine.apply affine_map<()[s0] -> (s0)>()[%arg4]
    %1 = affine.apply affine_map<()[s0] -> (s0)>()[%arg5]
    %alloc = memref.alloc(%0, %1) : memref<?x?xf64>
    %2 = affine.apply affine_map<()[s0] -> (s0)>()[%arg4]
    %3 = affine.apply affine_map<()[s0] -> (s0)>()[%arg4]
    %4 = arith.maxsi %2, %3 : index
    %c32 = arith.constant 32 : index
    %5 = arith.ceildivsi %4, %c32 : index
    %c1 = arith.constant 1 : index
    %6 = arith.maxsi %5, %c1 : index
    %7 = affine.apply affine_map<()[s0] -> (s0)>()[%arg5]
    %8 = affine.apply affine_map<()[s0] -> (s0)>()[%arg5]
    %9 = arith.maxsi %7, %8 : index
    %c64 = arith.constant 64 : index
    %10 = arith.ceildivsi %9, %c64 : index
    %c1_0 = arith.constant 1 : index
    %11 = arith.maxsi %10, %c1_0 : index
    %c1_1 = arith.constant 1 : index
    affine.for %arg6 = 0 to affine_map<()[s0] -> ((s0 ceildiv 4) floordiv 2)>()[%arg3] {
      %12 = affine.apply affine_map<(d0) -> (d0 * 8)>(%arg6)
      %c32_2 = arith.constant 32 : index
      %c8 = arith.constant 8 : index
      %c1_3 = arith.constant 1 : index
      gpu.launch_func  @heat_2d_kernels::@heat_2d_k0 blocks in (%11, %6, %c1_1) threads in (%c32_2, %c8, %c1_3)  args(%arg0 : memref<?x?xf64>, %arg1 : memref<?x?xf64>, %arg2 : f64, %arg3 : index, %arg4 : index, %arg5 : index, %alloc : memref<?x?xf64>, %12 : index)
      %13 = affine.apply affine_map<(d0) -> ((d0 * 2 + 1) * 4)>(%arg6)
      %c32_4 = arith.constant 32 : index
      %c8_5 = arith.constant 8 : index
      %c1_6 = arith.constant 1 : index
      gpu.launch_func  @heat_2d_kernels::@heat_2d_k0 blocks in (%11, %6, %c1_1) threads in (%c32_4, %c8_5, %c1_6)  args(%alloc : memref<?x?xf64>, %arg1 : memref<?x?xf64>, %arg2 : f64, %arg3 : index, %arg4 : index, %arg5 : index, %arg0 : memref<?x?xf64>, %13 : index)
    }
    affine.for %arg6 = 0 to min affine_map<()[s0] -> ((s0 ceildiv 4) mod 2, s0 ceildiv 4)>()[%arg3] {
      %12 = affine.apply affine_map<(d0)[s0] -> ((d0 + s0 ceildiv 4 - 1) * 4)>(%arg6)[%arg3]
      %c32_2 = arith.constant 32 : index
      %c8 = arith.constant 8 : index
      %c1_3 = arith.constant 1 : index
      gpu.launch_func  @heat_2d_kernels::@heat_2d_k0 blocks in (%11, %6, %c1_1) threads in (%c32_2, %c8, %c1_3)  args(%arg0 : memref<?x?xf64>, %arg1 : memref<?x?xf64>, %arg2 : f64, %arg3 : index, %arg4 : index, %arg5 : index, %alloc : memref<?x?xf64>, %12 : index)
      %13 = affine.apply affine_map<()[s0, s1] -> ((s0 * s1) ceildiv 256)>()[%arg4, %arg5]
      %c1_4 = arith.constant 1 : index
      %c2147483647 = arith.constant 2147483647 : index
      %14 = arith.maxsi %13, %c1_4 : index
      %15 = arith.minsi %14, %c2147483647 : index
      %c256 = arith.constant 256 : index
      %c1_5 = arith.constant 1 : index
      %c1_6 = arith.constant 1 : index
      gpu.launch_func  @heat_2d_kernels::@heat_2d_k1 blocks in (%15, %c1_1, %c1_1) threads in (%c256, %c1_5, %c1_6)  args(%alloc : memref<?x?xf64>, %arg1 : memref<?x?xf64>, %arg2 : f64, %arg3 : index, %arg4 : index, %arg5 : index, %arg0 : memref<?x?xf64>)
    }
    return
  }
  gpu.module @heat_2d_kernels {
    gpu.func @heat_2d_k0(%arg0: memref<?x?xf64>, %arg1: memref<?x?xf64>, %arg2: f64, %arg3: index, %arg4: index, %arg5: index, %arg6: memref<?x?xf64>, %arg7: index) workgroup(%arg8 : memref<40x72xf64, #gpu.address_space<workgroup>>, %arg9 : memref<40x72xf64, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
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
      %0 = arith.subi %arg3, %arg7 : index
      %c4 = arith.constant 4 : index
      %1 = arith.minsi %0, %c4 : index
      %c32 = arith.constant 32 : index
      %2 = arith.muli %block_id_y, %c32 : index
      %c4_0 = arith.constant 4 : index
      %3 = arith.subi %2, %c4_0 : index
      %c64 = arith.constant 64 : index
      %4 = arith.muli %block_id_x, %c64 : index
      %c4_1 = arith.constant 4 : index
      %5 = arith.subi %4, %c4_1 : index
      %c0 = arith.constant 0 : index
      %c40 = arith.constant 40 : index
      %6 = arith.addi %3, %c40 : index
      %7 = arith.maxsi %3, %c0 : index
      %8 = arith.minsi %6, %arg4 : index
      %c72 = arith.constant 72 : index
      %9 = arith.addi %5, %c72 : index
      %10 = arith.maxsi %5, %c0 : index
      %11 = arith.minsi %9, %arg5 : index
      %12 = arith.muli %thread_id_z, %block_dim_y : index
      %13 = arith.addi %12, %thread_id_y : index
      %14 = arith.muli %block_dim_z, %block_dim_y : index
      %15 = arith.addi %7, %13 : index
      scf.for %arg10 = %15 to %8 step %14 {
        %42 = arith.addi %10, %thread_id_x : index
        scf.for %arg11 = %42 to %11 step %block_dim_x {
          %43 = arith.subi %arg10, %3 : index
          %44 = arith.subi %arg11, %5 : index
          %45 = memref.load %arg0[%arg10, %arg11] : memref<?x?xf64>
          memref.store %45, %arg8[%43, %44] : memref<40x72xf64, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      %c0_2 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %arg10 = %c0_2 to %1 step %c1 {
        %42 = arith.addi %arg7, %arg10 : index
        %43 = arith.subi %1, %c1 : index
        %44 = arith.subi %43, %arg10 : index
        %c1_12 = arith.constant 1 : index
        %c1_13 = arith.constant 1 : index
        %c-1_14 = arith.constant -1 : index
        %45 = arith.addi %arg4, %c-1_14 : index
        %c-1_15 = arith.constant -1 : index
        %46 = arith.addi %arg5, %c-1_15 : index
        %c1_16 = arith.constant 1 : index
        %47 = arith.muli %44, %c1_16 : index
        %c0_17 = arith.constant 0 : index
        %48 = arith.addi %47, %c0_17 : index
        %c1_18 = arith.constant 1 : index
        %49 = arith.muli %44, %c1_18 : index
        %c0_19 = arith.constant 0 : index
        %50 = arith.addi %49, %c0_19 : index
        %51 = arith.subi %2, %48 : index
        %c32_20 = arith.constant 32 : index
        %52 = arith.addi %2, %c32_20 : index
        %53 = arith.addi %52, %50 : index
        %54 = arith.maxsi %51, %c1_12 : index
        %55 = arith.minsi %53, %45 : index
        %c1_21 = arith.constant 1 : index
        %56 = arith.muli %44, %c1_21 : index
        %c0_22 = arith.constant 0 : index
        %57 = arith.addi %56, %c0_22 : index
        %c1_23 = arith.constant 1 : index
        %58 = arith.muli %44, %c1_23 : index
        %c0_24 = arith.constant 0 : index
        %59 = arith.addi %58, %c0_24 : index
        %60 = arith.subi %4, %57 : index
        %c64_25 = arith.constant 64 : index
        %61 = arith.addi %4, %c64_25 : index
        %62 = arith.addi %61, %59 : index
        %63 = arith.maxsi %60, %c1_13 : index
        %64 = arith.minsi %62, %46 : index
        %65 = arith.muli %thread_id_z, %block_dim_y : index
        %66 = arith.addi %65, %thread_id_y : index
        %67 = arith.muli %block_dim_z, %block_dim_y : index
        %68 = arith.addi %54, %66 : index
        scf.for %arg11 = %68 to %55 step %67 {
          %93 = arith.addi %63, %thread_id_x : index
          scf.for %arg12 = %93 to %64 step %block_dim_x {
            %94 = arith.subi %arg11, %3 : index
            %95 = arith.subi %arg12, %5 : index
            %96 = memref.load %arg8[%94, %95] : memref<40x72xf64, #gpu.address_space<workgroup>>
            %c-1_40 = arith.constant -1 : index
            %97 = arith.addi %arg11, %c-1_40 : index
            %98 = arith.subi %97, %3 : index
            %99 = arith.subi %arg12, %5 : index
            %100 = memref.load %arg8[%98, %99] : memref<40x72xf64, #gpu.address_space<workgroup>>
            %c1_41 = arith.constant 1 : index
            %101 = arith.addi %arg11, %c1_41 : index
            %102 = arith.subi %101, %3 : index
            %103 = arith.subi %arg12, %5 : index
            %104 = memref.load %arg8[%102, %103] : memref<40x72xf64, #gpu.address_space<workgroup>>
            %c-1_42 = arith.constant -1 : index
            %105 = arith.addi %arg12, %c-1_42 : index
            %106 = arith.subi %arg11, %3 : index
            %107 = arith.subi %105, %5 : index
            %108 = memref.load %arg8[%106, %107] : memref<40x72xf64, #gpu.address_space<workgroup>>
            %c1_43 = arith.constant 1 : index
            %109 = arith.addi %arg12, %c1_43 : index
            %110 = arith.subi %arg11, %3 : index
            %111 = arith.subi %109, %5 : index
            %112 = memref.load %arg8[%110, %111] : memref<40x72xf64, #gpu.address_space<workgroup>>
            %113 = arith.addf %100, %104 : f64
            %114 = arith.addf %113, %108 : f64
            %115 = arith.addf %114, %112 : f64
            %cst = arith.constant 4.000000e+00 : f64
            %116 = arith.mulf %cst, %96 : f64
            %117 = arith.subf %115, %116 : f64
            %118 = arith.mulf %arg2, %117 : f64
            %119 = arith.addf %96, %118 : f64
            %120 = arith.subi %arg11, %3 : index
            %121 = arith.subi %arg12, %5 : index
            memref.store %119, %arg9[%120, %121] : memref<40x72xf64, #gpu.address_space<workgroup>>
          }
        }
        gpu.barrier
        %c1_26 = arith.constant 1 : index
        %c1_27 = arith.constant 1 : index
        %c-1_28 = arith.constant -1 : index
        %69 = arith.addi %arg4, %c-1_28 : index
        %c-1_29 = arith.constant -1 : index
        %70 = arith.addi %arg5, %c-1_29 : index
        %c1_30 = arith.constant 1 : index
        %71 = arith.muli %44, %c1_30 : index
        %c0_31 = arith.constant 0 : index
        %72 = arith.addi %71, %c0_31 : index
        %c1_32 = arith.constant 1 : index
        %73 = arith.muli %44, %c1_32 : index
        %c0_33 = arith.constant 0 : index
        %74 = arith.addi %73, %c0_33 : index
        %75 = arith.subi %2, %72 : index
        %c32_34 = arith.constant 32 : index
        %76 = arith.addi %2, %c32_34 : index
        %77 = arith.addi %76, %74 : index
        %78 = arith.maxsi %75, %c1_26 : index
        %79 = arith.minsi %77, %69 : index
        %c1_35 = arith.constant 1 : index
        %80 = arith.muli %44, %c1_35 : index
        %c0_36 = arith.constant 0 : index
        %81 = arith.addi %80, %c0_36 : index
        %c1_37 = arith.constant 1 : index
        %82 = arith.muli %44, %c1_37 : index
        %c0_38 = arith.constant 0 : index
        %83 = arith.addi %82, %c0_38 : index
        %84 = arith.subi %4, %81 : index
        %c64_39 = arith.constant 64 : index
        %85 = arith.addi %4, %c64_39 : index
        %86 = arith.addi %85, %83 : index
        %87 = arith.maxsi %84, %c1_27 : index
        %88 = arith.minsi %86, %70 : index
        %89 = arith.muli %thread_id_z, %block_dim_y : index
        %90 = arith.addi %89, %thread_id_y : index
        %91 = arith.muli %block_dim_z, %block_dim_y : index
        %92 = arith.addi %78, %90 : index
        scf.for %arg11 = %92 to %79 step %91 {
          %93 = arith.addi %87, %thread_id_x : index
          scf.for %arg12 = %93 to %88 step %block_dim_x {
            %94 = arith.subi %arg11, %3 : index
            %95 = arith.subi %arg12, %5 : index
            %96 = memref.load %arg9[%94, %95] : memref<40x72xf64, #gpu.address_space<workgroup>>
            %97 = arith.subi %arg11, %3 : index
            %98 = arith.subi %arg12, %5 : index
            memref.store %96, %arg8[%97, %98] : memref<40x72xf64, #gpu.address_space<workgroup>>
          }
        }
        gpu.barrier
      }
      %c0_3 = arith.constant 0 : index
      %c32_4 = arith.constant 32 : index
      %16 = arith.addi %2, %c32_4 : index
      %17 = arith.maxsi %2, %c0_3 : index
      %18 = arith.minsi %16, %arg4 : index
      %c64_5 = arith.constant 64 : index
      %19 = arith.addi %4, %c64_5 : index
      %20 = arith.maxsi %4, %c0_3 : index
      %21 = arith.minsi %19, %arg5 : index
      %22 = arith.muli %thread_id_z, %block_dim_y : index
      %23 = arith.addi %22, %thread_id_y : index
      %24 = arith.muli %block_dim_z, %block_dim_y : index
      %25 = arith.addi %17, %23 : index
      scf.for %arg10 = %25 to %18 step %24 {
        %42 = arith.addi %20, %thread_id_x : index
        scf.for %arg11 = %42 to %21 step %block_dim_x {
          %43 = arith.subi %arg10, %3 : index
          %44 = arith.subi %arg11, %5 : index
          %45 = memref.load %arg8[%43, %44] : memref<40x72xf64, #gpu.address_space<workgroup>>
          memref.store %45, %arg6[%arg10, %arg11] : memref<?x?xf64>
        }
      }
      %c0_6 = arith.constant 0 : index
      %c1_7 = arith.constant 1 : index
      %c1_8 = arith.constant 1 : index
      %c-1 = arith.constant -1 : index
      %26 = arith.addi %arg4, %c-1 : index
      %c-1_9 = arith.constant -1 : index
      %27 = arith.addi %arg5, %c-1_9 : index
      %c32_10 = arith.constant 32 : index
      %28 = arith.addi %2, %c32_10 : index
      %29 = arith.maxsi %2, %c0_6 : index
      %30 = arith.minsi %28, %arg4 : index
      %31 = arith.maxsi %29, %c1_7 : index
      %32 = arith.minsi %30, %26 : index
      %c64_11 = arith.constant 64 : index
      %33 = arith.addi %4, %c64_11 : index
      %34 = arith.maxsi %4, %c0_6 : index
      %35 = arith.minsi %33, %arg5 : index
      %36 = arith.maxsi %34, %c1_8 : index
      %37 = arith.minsi %35, %27 : index
      %38 = arith.muli %thread_id_z, %block_dim_y : index
      %39 = arith.addi %38, %thread_id_y : index
      %40 = arith.muli %block_dim_z, %block_dim_y : index
      %41 = arith.addi %31, %39 : index
      scf.for %arg10 = %41 to %32 step %40 {
        %42 = arith.addi %36, %thread_id_x : index
        scf.for %arg11 = %42 to %37 step %block_dim_x {
          %43 = arith.subi %arg10, %3 : index
          %44 = arith.subi %arg11, %5 : index
          %45 = memref.load %arg9[%43, %44] : memref<40x72xf64, #gpu.address_space<workgroup>>
          memref.store %45, %arg1[%arg10, %arg11] : memref<?x?xf64>
        }
      }
      gpu.return
    }
    gpu.func @heat_2d_k1(%arg0: memref<?x?xf64>, %arg1: memref<?x?xf64>, %arg2: f64, %arg3: index, %arg4: index, %arg5: index, %arg6: memref<?x?xf64>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
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
      %0 = arith.muli %thread_id_z, %block_dim_y : index
      %1 = arith.addi %0, %thread_id_y : index
      %2 = arith.muli %block_dim_z, %block_dim_y : index
      %3 = arith.muli %1, %block_dim_x : index
      %4 = arith.addi %3, %thread_id_x : index
      %5 = arith.muli %2, %block_dim_x : index
      %6 = arith.muli %block_id_x, %5 : index
      %7 = arith.addi %6, %4 : index
      %8 = arith.muli %grid_dim_x, %5 : index
      %9 = arith.muli %arg4, %arg5 : index
      scf.for %arg7 = %7 to %9 step %8 {
        %10 = arith.remui %arg7, %arg5 : index
        %11 = arith.divui %arg7, %arg5 : index
        %12 = memref.load %arg0[%11, %10] : memref<?x?xf64>
        memref.store %12, %arg6[%11, %10] : memref<?x?xf64>
      }
      gpu.return
    }
  }
}
