// gpu-map without grid=… (docs/passes.md): a block per tile of a wavefront and no loop over
// tiles in the kernel. The host launches the blocks of each grid axis in chunks of CUDA's
// limit (2^31 - 1 along x, 65535 along y and z), one chunk unless a wavefront has more tiles
// along an axis, and passes each launch's first tile per axis as the kernel's last arguments.
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map,canonicalize,cse)' | FileCheck %s
// With grid=G the blocks of a capped grid stride over the tiles instead (gpu-map.mlir).
// RUN: stencil-opt %S/../../../examples/sor-2d-5pt.mlir --pass-pipeline='builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map{grid=8},canonicalize,cse)' | FileCheck %s --check-prefix=CAPPED

// CHECK:         affine.for %[[W:.*]] = 0 to
// CHECK:           scf.for %[[OX:.*]] = %c0 to %[[NX:.*]] step %c2147483647 {
// CHECK-NEXT:        %[[LX:.*]] = arith.subi %[[NX]], %[[OX]] : index
// CHECK-NEXT:        %[[GX:.*]] = arith.minsi %[[LX]], %c2147483647 : index
// CHECK-NEXT:        scf.for %[[OY:.*]] = %c0 to %[[NY:.*]] step %c65535 {
// CHECK-NEXT:          %[[LY:.*]] = arith.subi %[[NY]], %[[OY]] : index
// CHECK-NEXT:          %[[GY:.*]] = arith.minsi %[[LY]], %c65535 : index
// CHECK-NEXT:          gpu.launch_func  @sor_2d_5pt_kernels::@sor_2d_5pt_k0 blocks in (%[[GX]], %[[GY]], %c1) threads in (%c16, %c16, %c1)  args(%arg0 : memref<?x?xf64>, %arg1 : f64, %arg2 : index, %arg3 : index, %arg4 : index, %[[W]] : index, %[[OX]] : index, %[[OY]] : index)
// CHECK:         gpu.func @sor_2d_5pt_k0(%arg0: memref<?x?xf64>, %arg1: f64, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %[[KX:.*]]: index, %[[KY:.*]]: index) workgroup(
// CHECK-NOT:       gpu.grid_dim
// The outer tile coordinate: the range's start plus the block id and the launch's offset, up
// to the range's end; the inner one: its exact lower bound given the outer one (or its range's
// start where later: gpu-map-tile-launch-shifted.mlir), plus the block id and the offset, below
// its exact upper bound.
// CHECK:           %[[FY:.*]] = arith.addi %{{.*}}, %block_id_y : index
// CHECK-NEXT:      %[[TY:.*]] = arith.addi %[[FY]], %[[KY]] : index
// CHECK-NEXT:      %[[INY:.*]] = arith.cmpi sle, %[[TY]], %{{.*}} : index
// CHECK-NEXT:      scf.if %[[INY]] {
// CHECK-NOT:         scf.for
// CHECK:             %[[FX:.*]] = arith.addi %{{.*}}, %block_id_x : index
// CHECK-NEXT:        %[[TX:.*]] = arith.addi %[[FX]], %[[KX]] : index
// CHECK-NEXT:        %[[INX:.*]] = arith.cmpi slt, %[[TX]], %{{.*}} : index
// CHECK-NEXT:        scf.if %[[INX]] {

// CAPPED:          %[[GX:.*]] = arith.minsi %{{.*}}, %c8 : index
// CAPPED:          %[[GY:.*]] = arith.minsi %{{.*}}, %c8 : index
// CAPPED-NEXT:     gpu.launch_func  @sor_2d_5pt_kernels::@sor_2d_5pt_k0 blocks in (%[[GX]], %[[GY]], %c1) threads in (%c16, %c16, %c1)  args(%arg0 : memref<?x?xf64>, %arg1 : f64, %arg2 : index, %arg3 : index, %arg4 : index, %{{.*}} : index)
// CAPPED:        gpu.func @sor_2d_5pt_k0(%arg0: memref<?x?xf64>, %arg1: f64, %arg2: index, %arg3: index, %arg4: index, %arg5: index)
// CAPPED:          scf.for %{{.*}} = %{{.*}} to %{{.*}} step %grid_dim_y {
// CAPPED:            scf.for %{{.*}} = %{{.*}} to %{{.*}} step %grid_dim_x {
