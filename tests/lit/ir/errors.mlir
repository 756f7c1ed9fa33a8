// Structural and syntax errors are reported with locations and never crash.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @use_before_def() {
  // expected-error@+1 {{operand #0 does not dominate this use}}
  "test.use"(%v) : (i32) -> ()
  // expected-note@+1 {{operand defined here}}
  %v = "test.def"() : () -> i32
  return
}

// -----

func.func @undeclared() {
  // expected-error@+1 {{use of undeclared SSA value name '%nope'}}
  "test.use"(%nope) : (i32) -> ()
  return
}

// -----

// expected-note@+1 {{in this operation}}
func.func @missing_terminator() {
  // expected-error@+1 {{block in region #0 of 'func.func' does not end with a terminator (found 'func.call')}}
  func.call @missing_terminator() : () -> ()
}

// -----

func.func @type_mismatch(%a: i32) {
  // expected-error@+2 {{use of value '%a' expects different type than prior uses: 'f32' vs 'i32'}}
  // expected-note@-2 {{prior use here}}
  "test.use"(%a) : (f32) -> ()
  return
}

// -----

func.func @redefinition() {
  // expected-note@+1 {{previously defined here}}
  %x = "test.def"() : () -> i32
  // expected-error@+1 {{redefinition of SSA value '%x'}}
  %x = "test.def"() : () -> i32
  return
}

// -----

// Names from outside an isolated-from-above op are not visible inside it.
func.func @isolation(%a: i32) {
  func.func @inner() {
    // expected-error@+1 {{use of undeclared SSA value name '%a'}}
    "test.use"(%a) : (i32) -> ()
    return
  }
  return
}

// -----

// expected-error@+1 {{unexpected character or unterminated literal}}
"test.op"() {s = "unterminated} : () -> ()

// -----

// expected-error@+1 {{expected function type for generic operation, found 'i32'}}
"test.op"() : i32

// -----

// expected-error@+1 {{custom op 'bogus' is unknown}}
bogus

// -----

// expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
%a, %b = "test.op"() : () -> i32

// -----

func.func @bad_type() {
  // expected-error@+1 {{unknown or unsupported type 'tensor'}}
  %t = "test.op"() : () -> tensor<4xf32>
  return
}

// -----

// expected-error@+1 {{undefined attribute alias '#missing'}}
"test.op"() {a = #missing} : () -> ()

// -----

// expected-error@+1 {{integer constant out of range for type 'i8'}}
"test.op"() {a = 300 : i8} : () -> ()

// -----

// An integer without a type is an i64, with i64's range.
// expected-error@+1 {{integer constant out of range for type 'i64'}}
"test.op"() {a = 0x10000000000000000} : () -> ()

// -----

// expected-note@+1 {{see existing symbol definition here}}
func.func private @dup()
// expected-error@+1 {{redefinition of symbol named 'dup'}}
func.func private @dup()

// -----

// expected-error@+1 {{region is not closed: expected '}' before end of input}}
func.func @unclosed() {

// -----

func.func @dense_float() {
  // expected-error@+1 {{dense float elements are not supported (only integer tensors are)}}
  %a = arith.constant dense<[0.5, -2.0]> : tensor<2xf64>
  return
}

// -----

func.func @other_dialect() {
  // expected-error@+1 {{custom op 'llvm.mlir.constant' is unknown (an op stencil-opt does not know parses only in its generic form, "op.name"(...), with --allow-unregistered-dialect: print the file with mlir-opt --mlir-print-op-generic)}}
  %z = llvm.mlir.constant(0 : i32) : i32
  return
}

// -----

// expected-error@+1 {{an unranked memref cannot have a layout}}
func.func @unranked_layout(%m: memref<*xf64, strided<[1]>>) {
  return
}

// -----

func.func @nested_dense() {
  // expected-error@+1 {{nested dense element lists are not supported (only 1-D lists, or a splat for higher ranks)}}
  %a = arith.constant dense<[[1, 2]]> : tensor<1x2xi32>
  return
}

// -----

// A view's custom form (what linalg's lowering leaves) says how to fold it away.
func.func @subview(%a: memref<64x64xf64>) {
  // expected-error@+1 {{custom op 'memref.subview' is unknown (views of memrefs are not supported: fold them into the accesses first with mlir-opt --affine-fold-memref-alias-ops}}
  %v = memref.subview %a[1, 1] [62, 62] [1, 1] : memref<64x64xf64> to memref<62x62xf64, strided<[64, 1], offset: 65>>
  return
}
