// Error paths of the gpu dialect: custom-syntax parse errors, attribute and type checks, and
// the verifiers of gpu.module, gpu.func, gpu.return, the id ops and gpu.launch_func. Messages
// follow mlir-opt 22's where it has one.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics

// ===== parse errors =====

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error@+1 {{expected gpu dimension to be one of: x, y, z, found 'w'}}
    %t = gpu.thread_id w
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error@+1 {{gpu.func requires named arguments (%arg0: type)}}
  gpu.func @k(f32) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error@+1 {{expected gpu dimension to be one of: x, y, z}}
    %t = "gpu.thread_id"() {dimension = #gpu<dim w>} : () -> index
    gpu.return
  }
}

// -----

// expected-error@+1 {{expected gpu address space to be one of: global, workgroup, private}}
func.func @f(%a: memref<4xf32, #gpu.address_space<shared>>) {
  return
}

// -----

// expected-error@+1 {{unknown gpu type 'stream' (stencil-opt knows only !gpu.async.token)}}
func.func @f(%a: !gpu.stream) {
  return
}

// -----

// expected-error@+1 {{The optimization level must be a number between 0 and 3.}}
gpu.module @m [#nvvm.target<O = 5>] {
}

// -----

// expected-error@+1 {{duplicate or unknown struct parameter name: bogus}}
gpu.module @m [#nvvm.target<bogus = 1>] {
}

// -----

// expected-error@+1 {{duplicate or unknown struct parameter name: chip}}
gpu.module @m [#nvvm.target<chip = "sm_80", chip = "sm_90">] {
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index) {
    // expected-error@+1 {{expected 'threads', found 'args'}}
    gpu.launch_func @m::@k blocks in (%n, %n, %n) args()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index) {
    // expected-error@+1 {{expected ','}}
    gpu.launch_func @m::@k blocks in (%n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index) {
    // expected-error@+1 {{expected the kernel symbol reference (@module::@kernel)}}
    gpu.launch_func "k" blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

// ===== gpu.module =====

// expected-error@+1 {{'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements}}
gpu.module @m [] {
}

// -----

// expected-error@+1 {{'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements}}
gpu.module @m [#gpu.address_space<global>] {
}

// -----

// expected-error@+1 {{'gpu.module' op requires attribute 'sym_name'}}
"gpu.module"() ({
}) : () -> ()

// -----

// expected-error@+1 {{'gpu.module' op region should have no arguments}}
"gpu.module"() ({
^bb0(%a: index):
}) {sym_name = "m"} : () -> ()

// -----

// expected-error@+1 {{'gpu.module' op requires 1 region(s), but found 0}}
"gpu.module"() {sym_name = "m"} : () -> ()

// -----

// ===== gpu.func =====

// expected-error@+1 {{'gpu.func' op expects parent op 'gpu.module'}}
gpu.func @k() kernel {
  gpu.return
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op expected void return type for kernel function}}
  gpu.func @k(%a: index) -> index kernel {
    gpu.return %a : index
  }
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op expected memref type in attribution}}
  gpu.func @k(%a: index) workgroup(%w : f32) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op expected memory space workgroup in attribution}}
  gpu.func @k() workgroup(%w : memref<4xf32, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op expected memory space private in attribution}}
  gpu.func @k() private(%w : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // Without workgroup_attributions, extra block arguments are private attributions.
  // expected-error@+1 {{'gpu.func' op expected memory space private in attribution}}
  "gpu.func"() ({
  ^bb0(%w: memref<4xf32, #gpu.address_space<workgroup>>):
    "gpu.return"() : () -> ()
  }) {sym_name = "k", function_type = () -> ()} : () -> ()
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op expected body region argument #0 to be of type 'f32', got 'index'}}
  "gpu.func"() ({
  ^bb0(%a: index):
    "gpu.return"() : () -> ()
  }) {sym_name = "k", function_type = (f32) -> ()} : () -> ()
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op expected at least 2 arguments to body region}}
  "gpu.func"() ({
  ^bb0(%a: index):
    "gpu.return"() : () -> ()
  }) {sym_name = "k", function_type = (index) -> (), workgroup_attributions = 1 : i64} : () -> ()
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op expects 'workgroup_attributions' to be a non-negative integer}}
  "gpu.func"() ({
    "gpu.return"() : () -> ()
  }) {sym_name = "k", function_type = () -> (), workgroup_attributions = -1 : i64} : () -> ()
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op requires string attribute 'sym_name'}}
  "gpu.func"() ({
    "gpu.return"() : () -> ()
  }) {function_type = () -> ()} : () -> ()
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op requires attribute 'function_type'}}
  "gpu.func"() ({
    "gpu.return"() : () -> ()
  }) {sym_name = "k"} : () -> ()
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op attribute 'function_type' failed to satisfy constraint: type attribute of function type}}
  "gpu.func"() ({
    "gpu.return"() : () -> ()
  }) {sym_name = "k", function_type = 3 : i32} : () -> ()
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op expected body with at least one block}}
  "gpu.func"() ({
  }) {sym_name = "k", function_type = () -> ()} : () -> ()
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op requires 1 region(s), but found 0}}
  "gpu.func"() {sym_name = "k", function_type = () -> ()} : () -> ()
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
  gpu.func @k(%a: f32) kernel attributes {arg_attrs = [{gpu.x}, {gpu.y}]} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op arguments may only have dialect attributes}}
  gpu.func @k(%a: f32 {noalias}) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op attribute 'known_block_size' failed to satisfy constraint: i32 dense array attribute with 3 elements (if present)}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error@+1 {{'gpu.func' op gpu.known_grid_size must contain exactly 3 elements}}
  gpu.func @k() kernel attributes {gpu.known_grid_size = array<i32: 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-note@+1 {{in this operation}}
  gpu.func @k() kernel {
    // expected-error@+1 {{block in region #0 of 'gpu.func' does not end with a terminator (found 'gpu.block_dim')}}
    %x = gpu.block_dim x
  }
}

// -----

// ===== gpu.return =====

// expected-error@+2 {{'gpu.return' op expects parent op 'gpu.func'}}
func.func @f() {
  gpu.return
}

// -----

gpu.module @m {
  // expected-note@+1 {{return type declared here}}
  gpu.func @d(%a: index) -> f32 {
    // expected-error@+1 {{'gpu.return' op expected 1 result operands}}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @d(%a: index) -> f32 {
    // expected-error@+1 {{'gpu.return' op unexpected type `'index'' for operand #0}}
    gpu.return %a : index
  }
}

// -----

// ===== id ops and barrier =====

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error@+1 {{'gpu.thread_id' op requires attribute 'dimension'}}
    %t = "gpu.thread_id"() : () -> index
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error@+1 {{'gpu.block_id' op attribute 'dimension' failed to satisfy constraint: a dimension, either 'x', 'y', or 'z'}}
    %t = "gpu.block_id"() {dimension = #gpu.address_space<workgroup>} : () -> index
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error@+1 {{'gpu.grid_dim' op result #0 must be index, but got 'i32'}}
    %t = "gpu.grid_dim"() {dimension = #gpu<dim x>} : () -> i32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error@+1 {{'gpu.block_dim' op requires 1 result(s), but found 0}}
    "gpu.block_dim"() {dimension = #gpu<dim x>} : () -> ()
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error@+1 {{'gpu.thread_id' op attribute 'upper_bound' failed to satisfy constraint: index attribute}}
    %t = "gpu.thread_id"() {dimension = #gpu<dim x>, upper_bound = 5 : i32} : () -> index
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: index) kernel {
    // expected-error@+1 {{'gpu.barrier' op expected 0 operands, but found 1}}
    "gpu.barrier"(%a) : (index) -> ()
    gpu.return
  }
}

// -----

// ===== gpu.launch_func =====

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @f(%n: index, %i: i32) {
    // expected-error@+1 {{'gpu.launch_func' op type of function argument 0 does not match}}
    gpu.launch_func @m::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%i : i32)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @f(%n: index) {
    // expected-error@+1 {{'gpu.launch_func' op got 0 kernel operands but expected 1}}
    gpu.launch_func @m::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @d() {
      gpu.return
    }
  }
  func.func @f(%n: index) {
    // expected-error@+1 {{'gpu.launch_func' op kernel function is missing the 'gpu.kernel' attribute}}
    gpu.launch_func @m::@d blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
  }
  func.func @f(%n: index) {
    // expected-error@+1 {{'gpu.launch_func' op kernel function '@m::@nope' is undefined}}
    gpu.launch_func @m::@nope blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index) {
    // expected-error@+1 {{'gpu.launch_func' op kernel container 'k' is undefined}}
    gpu.launch_func @k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  module @m {
    func.func @k() attributes {gpu.kernel} {
      return
    }
  }
  func.func @f(%n: index) {
    // expected-error@+1 {{'gpu.launch_func' op kernel module 'm' is undefined}}
    gpu.launch_func @m::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-note@+1 {{see the kernel definition here}}
  gpu.module @m {
  }
  func.func @f(%n: index) {
    // expected-error@+1 {{'gpu.launch_func' op referenced kernel '@m' is not a function}}
    gpu.launch_func @m blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module {
  gpu.module @m {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @f(%n: index) {
    // expected-error@+1 {{'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute}}
    gpu.launch_func @m::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @f(%n: index, %x: f32) {
    // expected-error@+1 {{'gpu.launch_func' op operand count (8) does not match with the total size (7) specified in attribute 'operandSegmentSizes'}}
    "gpu.launch_func"(%n, %n, %n, %n, %n, %n, %x, %x) <{kernel = @m::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0>}> : (index, index, index, index, index, index, f32, f32) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index, %x: f32) {
    // expected-error@+1 {{'gpu.launch_func' op requires attribute 'operandSegmentSizes'}}
    "gpu.launch_func"(%n, %n, %n, %n, %n, %n, %x) <{kernel = @m::@k}> : (index, index, index, index, index, index, f32) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index, %x: f32) {
    // expected-error@+1 {{'gpu.launch_func' op expects exactly one gridSizeY operand, found 0}}
    "gpu.launch_func"(%n, %n, %n, %n, %n, %n, %x) <{kernel = @m::@k, operandSegmentSizes = array<i32: 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>}> : (index, index, index, index, index, index, f32) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index, %x: f32) {
    // expected-error@+1 {{'gpu.launch_func' op requires attribute 'kernel'}}
    "gpu.launch_func"(%n, %n, %n, %n, %n, %n, %x) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0>}> : (index, index, index, index, index, index, f32) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index, %l: i64) {
    // expected-error@+1 {{'gpu.launch_func' op expects grid, block and cluster sizes to all have the same type}}
    "gpu.launch_func"(%n, %n, %n, %n, %n, %l) <{kernel = @m::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, i64) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%x: f32) {
    // expected-error@+1 {{'gpu.launch_func' op grid and block sizes must be of type index, i32 or i64, but got 'f32'}}
    "gpu.launch_func"(%x, %x, %x, %x, %x, %x) <{kernel = @m::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (f32, f32, f32, f32, f32, f32) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index, %s: index) {
    // expected-error@+1 {{'gpu.launch_func' op operand 'dynamicSharedMemorySize' must be i32, but got 'index'}}
    "gpu.launch_func"(%n, %n, %n, %n, %n, %n, %s) <{kernel = @m::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0>}> : (index, index, index, index, index, index, index) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index) {
    // expected-error@+1 {{'gpu.launch_func' op expects no result or one '!gpu.async.token' result (with 'async')}}
    %r = "gpu.launch_func"(%n, %n, %n, %n, %n, %n) <{kernel = @m::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> index
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index) {
    // expected-error@+1 {{'gpu.launch_func' op async dependencies must be of type '!gpu.async.token'}}
    "gpu.launch_func"(%n, %n, %n, %n, %n, %n, %n) <{kernel = @m::@k, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index, index) -> ()
    return
  }
}
