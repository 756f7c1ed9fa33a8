// The gpu dialect in custom form: gpu.module (with targets and an offloading handler),
// gpu.func (kernel and device functions, workgroup/private attributions, argument and result
// attributes), gpu.return, gpu.barrier, the work-item id ops and gpu.launch_func in all its
// shapes. The printed text is MLIR 22's, double spaces included.
// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: module attributes {gpu.container_module} {
// GENERIC-LABEL: "builtin.module"() ({
module attributes {gpu.container_module} {

  // CHECK-LABEL: func.func @launches(
  // CHECK-SAME:      %[[A:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[S:.*]]: i32, %[[T:.*]]: !gpu.async.token, %[[I:.*]]: i32, %[[F:.*]]: f32) {
  // CHECK-NEXT:    gpu.launch_func  @kernels::@k blocks in (%[[N]], %[[N]], %[[N]]) threads in (%[[N]], %[[N]], %[[N]])  args(%[[A]] : memref<?xf32>)
  // CHECK-NEXT:    gpu.launch_func  @kernels::@k blocks in (%[[N]], %[[N]], %[[N]]) threads in (%[[N]], %[[N]], %[[N]])  dynamic_shared_memory_size %[[S]] args(%[[A]] : memref<?xf32>)
  // CHECK-NEXT:    gpu.launch_func  @kernels::@empty blocks in (%[[N]], %[[N]], %[[N]]) threads in (%[[N]], %[[N]], %[[N]])  {{$}}
  // CHECK-NEXT:    %[[T0:.*]] = gpu.launch_func async [%[[T]], %[[T]]] @kernels::@k clusters in (%[[I]], %[[I]], %[[I]]) blocks in (%[[I]], %[[I]], %[[I]]) threads in (%[[I]], %[[I]], %[[I]]) : i32 dynamic_shared_memory_size %[[S]] args(%[[A]] : memref<?xf32>) {note = "async"}
  // CHECK-NEXT:    gpu.launch_func [%[[T0]]] @kernels::@two blocks in (%[[N]], %[[N]], %[[N]]) threads in (%[[N]], %[[N]], %[[N]])  args(%[[A]] : memref<?xf32>, %[[F]] : f32)
  // CHECK-NEXT:    %{{.*}} = gpu.launch_func async @kernels::@empty blocks in (%[[N]], %[[N]], %[[N]]) threads in (%[[N]], %[[N]], %[[N]])  {{$}}
  // CHECK-NEXT:    return
  // GENERIC-LABEL: "func.func"() <{function_type = (memref<?xf32>, index, i32, !gpu.async.token, i32, f32) -> (), sym_name = "launches"}> ({
  // GENERIC-NEXT:  ^bb0(%[[A:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[S:.*]]: i32, %[[T:.*]]: !gpu.async.token, %[[I:.*]]: i32, %[[F:.*]]: f32):
  // GENERIC-NEXT:    "gpu.launch_func"(%[[N]], %[[N]], %[[N]], %[[N]], %[[N]], %[[N]], %[[A]]) <{kernel = @kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0>}> : (index, index, index, index, index, index, memref<?xf32>) -> ()
  // GENERIC-NEXT:    "gpu.launch_func"(%[[N]], %[[N]], %[[N]], %[[N]], %[[N]], %[[N]], %[[S]], %[[A]]) <{kernel = @kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0>}> : (index, index, index, index, index, index, i32, memref<?xf32>) -> ()
  // GENERIC-NEXT:    "gpu.launch_func"(%[[N]], %[[N]], %[[N]], %[[N]], %[[N]], %[[N]]) <{kernel = @kernels::@empty, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> ()
  // GENERIC-NEXT:    %[[T0:.*]] = "gpu.launch_func"(%[[T]], %[[T]], %[[I]], %[[I]], %[[I]], %[[I]], %[[I]], %[[I]], %[[I]], %[[I]], %[[I]], %[[S]], %[[A]]) <{kernel = @kernels::@k, operandSegmentSizes = array<i32: 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0>}> {note = "async"} : (!gpu.async.token, !gpu.async.token, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, memref<?xf32>) -> !gpu.async.token
  // GENERIC-NEXT:    "gpu.launch_func"(%[[T0]], %[[N]], %[[N]], %[[N]], %[[N]], %[[N]], %[[N]], %[[A]], %[[F]]) <{kernel = @kernels::@two, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>}> : (!gpu.async.token, index, index, index, index, index, index, memref<?xf32>, f32) -> ()
  // GENERIC-NEXT:    %{{.*}} = "gpu.launch_func"(%[[N]], %[[N]], %[[N]], %[[N]], %[[N]], %[[N]]) <{kernel = @kernels::@empty, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> !gpu.async.token
  // GENERIC-NEXT:    "func.return"() : () -> ()
  func.func @launches(%a: memref<?xf32>, %n: index, %s: i32, %t: !gpu.async.token, %i: i32, %f: f32) {
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%a : memref<?xf32>)
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) dynamic_shared_memory_size %s args(%a : memref<?xf32>)
    gpu.launch_func @kernels::@empty blocks in (%n, %n, %n) threads in (%n, %n, %n)
    %t0 = gpu.launch_func async [%t, %t] @kernels::@k clusters in (%i, %i, %i) blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32 dynamic_shared_memory_size %s args(%a : memref<?xf32>) {note = "async"}
    gpu.launch_func [%t0] @kernels::@two blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%a : memref<?xf32>, %f : f32)
    %t1 = gpu.launch_func async @kernels::@empty blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }

  // CHECK-LABEL: gpu.module @kernels {
  // GENERIC-LABEL: "gpu.module"() <{sym_name = "kernels"}> ({
  gpu.module @kernels {
    // CHECK-NEXT:  gpu.func @k(%arg0: memref<?xf32>) workgroup(%arg1 : memref<32xf32, #gpu.address_space<workgroup>>) private(%arg2 : memref<4xf32, #gpu.address_space<private>>) kernel attributes {foo = 1 : i32} {
    // CHECK-NEXT:    %thread_id_x = gpu.thread_id  x
    // CHECK-NEXT:    %thread_id_y = gpu.thread_id  y
    // CHECK-NEXT:    %block_id_y = gpu.block_id  y
    // CHECK-NEXT:    %block_dim_z = gpu.block_dim  z
    // CHECK-NEXT:    %grid_dim_x = gpu.grid_dim  x {foo}
    // CHECK-NEXT:    %thread_id_x_0 = gpu.thread_id  x upper_bound 128
    // CHECK-NEXT:    gpu.barrier
    // CHECK-NEXT:    gpu.barrier {bar}
    // CHECK-NEXT:    gpu.return
    // CHECK-NEXT:  }
    // GENERIC-NEXT:  "gpu.func"() <{function_type = (memref<?xf32>) -> ()}> ({
    // GENERIC-NEXT:  ^bb0(%{{.*}}: memref<?xf32>, %{{.*}}: memref<32xf32, #gpu.address_space<workgroup>>, %{{.*}}: memref<4xf32, #gpu.address_space<private>>):
    // GENERIC-NEXT:    %{{.*}} = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
    // GENERIC-NEXT:    %{{.*}} = "gpu.thread_id"() <{dimension = #gpu<dim y>}> : () -> index
    // GENERIC-NEXT:    %{{.*}} = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
    // GENERIC-NEXT:    %{{.*}} = "gpu.block_dim"() <{dimension = #gpu<dim z>}> : () -> index
    // GENERIC-NEXT:    %{{.*}} = "gpu.grid_dim"() <{dimension = #gpu<dim x>}> {foo} : () -> index
    // GENERIC-NEXT:    %{{.*}} = "gpu.thread_id"() <{dimension = #gpu<dim x>, upper_bound = 128 : index}> : () -> index
    // GENERIC-NEXT:    "gpu.barrier"() : () -> ()
    // GENERIC-NEXT:    "gpu.barrier"() {bar} : () -> ()
    // GENERIC-NEXT:    "gpu.return"() : () -> ()
    // GENERIC-NEXT:  }) {foo = 1 : i32, gpu.kernel, sym_name = "k", workgroup_attributions = 1 : i64} : () -> ()
    gpu.func @k(%a: memref<?xf32>) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%p: memref<4xf32, #gpu.address_space<private>>) kernel attributes {foo = 1 : i32} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %by = gpu.block_id y
      %bdz = gpu.block_dim z
      %gdx = gpu.grid_dim x {foo}
      %bounded = gpu.thread_id x upper_bound 128
      gpu.barrier
      gpu.barrier {bar}
      gpu.return
    }

    // CHECK-NEXT:  gpu.func @two(%arg0: memref<?xf32>, %arg1: f32) kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>, known_grid_size = array<i32: 4, 4, 1>} {
    // GENERIC-NEXT:  "gpu.func"() <{function_type = (memref<?xf32>, f32) -> (), known_grid_size = array<i32: 4, 4, 1>}> ({
    // GENERIC:       }) {gpu.kernel, gpu.known_block_size = array<i32: 32, 1, 1>, sym_name = "two", workgroup_attributions = 0 : i64} : () -> ()
    gpu.func @two(%a: memref<?xf32>, %f: f32) kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>, known_grid_size = array<i32: 4, 4, 1>} {
      gpu.return
    }

    // CHECK:       gpu.func @empty() kernel {
    // CHECK-NEXT:    gpu.return
    // CHECK-NEXT:  }
    // GENERIC-NEXT:  "gpu.func"() <{function_type = () -> ()}> ({
    // GENERIC-NEXT:    "gpu.return"() : () -> ()
    // GENERIC-NEXT:  }) {gpu.kernel, sym_name = "empty", workgroup_attributions = 0 : i64} : () -> ()
    gpu.func @empty() kernel {
      gpu.return
    }

    // A device function: results, argument/result/attribution attributes, several private
    // attributions and no workgroup ones.
    // CHECK-NEXT:  gpu.func @device(%arg0: f32 {gpu.arg}, %arg1: index) -> (f32 {gpu.res}, index) private(%arg2 : memref<4xf32, #gpu.address_space<private>> {gpu.p}, %arg3 : memref<2xi32>) attributes {sym_visibility = "private"} {
    // CHECK-NEXT:    gpu.return %arg0, %arg1 : f32, index
    // CHECK-NEXT:  }
    // GENERIC-NEXT:  "gpu.func"() <{arg_attrs = [{gpu.arg}, {}], function_type = (f32, index) -> (f32, index), private_attrib_attrs = [{gpu.p}, {}], res_attrs = [{gpu.res}, {}]}> ({
    // GENERIC-NEXT:  ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: index, %{{.*}}: memref<4xf32, #gpu.address_space<private>>, %{{.*}}: memref<2xi32>):
    // GENERIC-NEXT:    "gpu.return"(%[[X]], %[[Y]]) : (f32, index) -> ()
    // GENERIC-NEXT:  }) {sym_name = "device", sym_visibility = "private", workgroup_attributions = 0 : i64} : () -> ()
    gpu.func @device(%x: f32 {gpu.arg}, %y: index) -> (f32 {gpu.res}, index) private(%p : memref<4xf32, #gpu.address_space<private>> {gpu.p}, %q : memref<2xi32>) attributes {sym_visibility = "private"} {
      gpu.return %x, %y : f32, index
    }

    // Workgroup attributions in a numeric memory space (already lowered for a target).
    // CHECK-NEXT:  gpu.func @single(%arg0: f32) -> f32 workgroup(%arg1 : memref<8xf32, 3>, %arg2 : memref<8xf32, 3> {gpu.w}) {
    // CHECK-NEXT:    gpu.return %arg0 : f32
    // GENERIC-NEXT:  "gpu.func"() <{function_type = (f32) -> f32, workgroup_attrib_attrs = [{}, {gpu.w}]}> ({
    // GENERIC:       }) {sym_name = "single", workgroup_attributions = 2 : i64} : () -> ()
    gpu.func @single(%x: f32) -> f32 workgroup(%w0 : memref<8xf32, 3>, %w1 : memref<8xf32, 3> {gpu.w}) {
      gpu.return %x : f32
    }
  // CHECK:       }
  // GENERIC:     }) : () -> ()
  }

  // CHECK-LABEL: gpu.module @targets [#nvvm.target<O = 3, chip = "sm_90">, #nvvm.target] attributes {foo} {
  // CHECK-NEXT:  }
  // GENERIC-LABEL: "gpu.module"() <{sym_name = "targets", targets = [#nvvm.target<O = 3, chip = "sm_90">, #nvvm.target]}> ({
  // GENERIC-NEXT:  ^bb0:
  // GENERIC-NEXT:  }) {foo} : () -> ()
  gpu.module @targets [#nvvm.target<O = 3, chip = "sm_90">, #nvvm.target] attributes {foo} {
  }

  // CHECK-LABEL: gpu.module @handler<#gpu.select_object<1 : i64>> [#nvvm.target<chip = "sm_80">] {
  // CHECK-NEXT:    func.func @host_side_helper
  // GENERIC-LABEL: "gpu.module"() <{offloadingHandler = #gpu.select_object<1 : i64>, sym_name = "handler", targets = [#nvvm.target<chip = "sm_80">]}> ({
  gpu.module @handler<#gpu.select_object<1 : i64>> [#nvvm.target<chip = "sm_80">] {
    func.func @host_side_helper() {
      return
    }
  }
}
