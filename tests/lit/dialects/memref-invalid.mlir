// Error paths of the memref dialect: custom-syntax parse errors and the verifiers of alloc,
// alloca, dealloc, load, store, dim, copy, cast and reinterpret_cast. Messages follow mlir-opt 22's.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics

// ===== parse errors =====

func.func @f(%i: index) {
  // expected-error@+1 {{invalid kind of type specified: expected builtin.memref, but found 'f32'}}
  %a = memref.alloc(%i) : f32
  return
}

// -----

// expected-error@+1 {{a strided layout of 1 strides for a memref of rank 2}}
func.func @f(%m: memref<4x4xf32, strided<[1]>>) {
  return
}

// -----

// expected-error@+1 {{expected 'offset' in a strided layout, found 'size'}}
func.func @f(%m: memref<4xf32, strided<[1], size: 3>>) {
  return
}

// -----

func.func @f(%m: memref<*xf32>, %i: index) {
  // expected-error@+1 {{invalid kind of type specified: expected builtin.memref, but found 'memref<*xf32>'}}
  %a = memref.load %m[%i] : memref<*xf32>
  return
}

// -----

func.func @f(%v: f32) {
  // expected-error@+1 {{invalid kind of type specified}}
  memref.dealloc %v : f32
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error@+1 {{expected 'to'}}
  memref.copy %m, %m : memref<4xf32>, memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{expected ':'}}
  %a = memref.load %m[%i] memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: i32) {
  // expected-note@-1 {{prior use here}}
  // expected-error@+1 {{use of value '%i' expects different type than prior uses: 'index' vs 'i32'}}
  %a = memref.load %m[%i] : memref<4xf32>
  return
}

// ===== alloc / alloca =====

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloc' op incorrect number of dynamic sizes, has 0, expected 1}}
  %a = memref.alloc() : memref<?xf32>
  return
}

// -----

func.func @f(%n: index) {
  // expected-error@+1 {{'memref.alloca' op incorrect number of dynamic sizes, has 2, expected 1}}
  %a = memref.alloca(%n, %n) : memref<?xf32>
  return
}

// -----

func.func @f(%n: index) {
  // expected-error@+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 0, got 1}}
  %a = memref.alloc(%n)[%n] : memref<?xf32>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 1, got 0}}
  %a = memref.alloc() : memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloc' op result #0 must be memref of any type values, but got 'f32'}}
  %a = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> f32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloc' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %a = memref.alloc() {alignment = 3} : memref<4xf32>
  return
}

// -----

func.func @f(%n: index) {
  // expected-error@+1 {{'memref.alloc' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  %a = "memref.alloc"(%n) : (index) -> memref<?xf32>
  return
}

// -----

func.func @f(%n: index) {
  // expected-error@+1 {{'memref.alloc' op 'operandSegmentSizes' attribute cannot have negative elements}}
  %a = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: -1, 2>}> : (index) -> memref<?xf32>
  return
}

// -----

func.func @f(%n: index) {
  // expected-error@+1 {{'memref.alloc' op 'operandSegmentSizes' attribute must be an array<i32> with 2 elements}}
  %a = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: 1>}> : (index) -> memref<?xf32>
  return
}

// -----

func.func @f(%n: i32) {
  // expected-error@+1 {{'memref.alloc' op operand #0 must be variadic of index, but got 'i32'}}
  %a = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> memref<?xf32>
  return
}

// ===== dealloc =====

// -----

func.func @f(%v: f32) {
  // expected-error@+1 {{'memref.dealloc' op operand #0 must be ranked or unranked memref of any type values, but got 'f32'}}
  "memref.dealloc"(%v) : (f32) -> ()
  return
}

// ===== load / store =====

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{'memref.load' op incorrect number of indices for load, expected 2 but got 1}}
  %a = memref.load %m[%i] : memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error@+1 {{'memref.load' op incorrect number of indices for load, expected 1 but got 0}}
  %a = memref.load %m[] : memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{'memref.load' op failed to verify that result type matches element type of 'memref'}}
  %a = "memref.load"(%m, %i, %i) : (memref<4x4xf32>, index, index) -> i32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.load' op expected 1 or more operands, but found 0}}
  %a = "memref.load"() : () -> f32
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{'memref.load' op attribute 'nontemporal' failed to satisfy constraint: bool attribute}}
  %a = memref.load %m[%i] {nontemporal = 1 : i64} : memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %i: index, %v: f32) {
  // expected-error@+1 {{'memref.store' op store index operand count not equal to memref rank}}
  memref.store %v, %m[%i] : memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index, %v: i32) {
  // expected-error@+1 {{'memref.store' op failed to verify that type of 'value' matches element type of 'memref'}}
  "memref.store"(%v, %m, %i) : (i32, memref<4xf32>, index) -> ()
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: i32, %v: f32) {
  // expected-error@+1 {{'memref.store' op operand #2 must be variadic of index, but got 'i32'}}
  "memref.store"(%v, %m, %i) : (f32, memref<4xf32>, i32) -> ()
  return
}

// ===== dim =====

// -----

func.func @f(%m: memref<f32>, %i: index) {
  // expected-error@+1 {{'memref.dim' op operand #0 must be unranked.memref of any type values or non-0-ranked.memref of any type values, but got 'memref<f32>'}}
  %a = memref.dim %m, %i : memref<f32>
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{'memref.dim' op result #0 must be index, but got 'i32'}}
  %a = "memref.dim"(%m, %i) : (memref<4xf32>, index) -> i32
  return
}

// -----

func.func @f(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{'memref.dim' op expected 2 operands, but found 1}}
  %a = "memref.dim"(%m) : (memref<4xf32>) -> index
  return
}

// ===== copy =====

// -----

func.func @f(%a: memref<4x4xf32>, %b: memref<4x8xf32>) {
  // expected-error@+1 {{'memref.copy' op requires the same shape for all operands}}
  memref.copy %a, %b : memref<4x4xf32> to memref<4x8xf32>
  return
}

// -----

func.func @f(%a: memref<4x4xf32>, %b: memref<4x4xi32>) {
  // expected-error@+1 {{'memref.copy' op requires the same element type for all operands}}
  memref.copy %a, %b : memref<4x4xf32> to memref<4x4xi32>
  return
}

// ===== cast =====

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error@+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<5xf32>' are cast incompatible}}
  %a = memref.cast %m : memref<4xf32> to memref<5xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error@+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<?xi32>' are cast incompatible}}
  %a = memref.cast %m : memref<4xf32> to memref<?xi32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error@+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<4xf32, 3>' are cast incompatible}}
  %a = memref.cast %m : memref<4xf32> to memref<4xf32, 3>
  return
}

// -----

func.func @f(%m: memref<*xf32>) {
  // expected-error@+1 {{'memref.cast' op operand type 'memref<*xf32>' and result type 'memref<*xf32>' are cast incompatible}}
  %a = memref.cast %m : memref<*xf32> to memref<*xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op different element types specified for source type 'memref<?x?xf32>' and result memref type 'memref<?xf64>'}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] : memref<?x?xf32> to memref<?xf64>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op different memory spaces specified for source type 'memref<?x?xf32>' and result memref type 'memref<?xf32, 3>'}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] : memref<?x?xf32> to memref<?xf32, 3>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected mixed sizes rank to match mixed strides rank (2 vs 1)}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [%n, 4], strides: [1] : memref<?x?xf32> to memref<?xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type with size = 4 instead of 5 in dim = 0}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [1] : memref<?x?xf32> to memref<5xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type with offset = 1 instead of 0}}
  %a = memref.reinterpret_cast %m to offset: [1], sizes: [%n], strides: [1] : memref<?x?xf32> to memref<?xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type with stride = 2 instead of 1 in dim = 0}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [2] : memref<?x?xf32> to memref<?xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected mixed offsets rank to match mixed sizes rank (2 vs 1)}}
  %a = memref.reinterpret_cast %m to offset: [0, 1], sizes: [%n], strides: [1] : memref<?x?xf32> to memref<?xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected 1 offset values, got 2}}
  %a = memref.reinterpret_cast %m to offset: [0, 1], sizes: [%n, 2], strides: [1, 1] : memref<?x?xf32> to memref<?x2xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected 1 size values, got 2}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [%n, 2], strides: [2, 1] : memref<?x?xf32> to memref<?xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected sizes to be non-negative, but got -3}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [-3], strides: [1] : memref<?x?xf32> to memref<?xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type with size = dynamic instead of 5 in dim = 0}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] : memref<?x?xf32> to memref<5xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type with offset = dynamic instead of 0}}
  %a = memref.reinterpret_cast %m to offset: [%n], sizes: [5], strides: [1] : memref<?x?xf32> to memref<5xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>, %n: index) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type with stride = dynamic instead of 1 in dim = 0}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [5], strides: [%n] : memref<?x?xf32> to memref<5xf32>
  return
}

// -----

func.func @f(%m: memref<?x?xf32>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op expected result type with offset = 0 instead of 3}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [5], strides: [1] : memref<?x?xf32> to memref<5xf32, strided<[2], offset: 3>>
  return
}
