// Error paths of the arith dialect: custom-syntax parse errors, attribute checks, and the
// verifiers (operand/result counts and types, cast compatibility, properties). Messages follow
// mlir-opt 22's where it has one.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics

// ===== parse errors =====

func.func @f(%x: f32, %y: f32) {
  // expected-error@+1 {{expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  %0 = arith.addf %x, %y fastmath<bogus> : f32
  return
}

// -----

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw}}
  %0 = arith.addi %a, %b overflow<fast> : i32
  return
}

// -----

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi foo, %a, %b : i32
  return
}

// -----

func.func @f(%x: f32, %y: f32) {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]}}
  %0 = arith.cmpf eq, %x, %y : f32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{expected ','}}
  %0 = arith.addi %a : i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{expected 'to'}}
  %0 = arith.extsi %a : i32 i64
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op value must be an integer, float, or elements attribute}}
  %0 = arith.constant "text"
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{floating point value not valid for type 'i32'}}
  %0 = arith.constant 1.0 : i32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{integer constant out of range for type 'i8'}}
  %0 = arith.constant 300 : i8
  return
}

// -----

// expected-error@+1 {{expected ::mlir::arith::FastMathFlags to be one of}}
func.func @f() attributes {flags = #arith.fastmath<fastest>} {
  return
}

// -----

// expected-error@+1 {{unknown attribute `foo` in dialect `arith`}}
func.func @f() attributes {flags = #arith.foo<x>} {
  return
}

// -----

func.func @f(%a: i32, %c: i32) {
  // expected-error@+2 {{use of value '%c' expects different type than prior uses: 'i1' vs 'i32'}}
  // expected-note@-2 {{prior use here}}
  %0 = arith.select %c, %a, %a : i32
  return
}

// ===== verifier: types =====

// -----

func.func @f(%x: f32, %y: f32) {
  // expected-error@+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = arith.addi %x, %y : f32
  return
}

// -----

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.addf %a, %b : i32
  return
}

// -----

func.func @f(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{'arith.negf' op requires the same type for all operands and results}}
  %0 = "arith.negf"(%x) : (f32) -> f64
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.addi' op expected 2 operands, but found 1}}
  %0 = "arith.addi"(%a) : (i32) -> i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.addi' op requires one result}}
  %0:2 = "arith.addi"(%a, %a) : (i32, i32) -> (i32, i32)
  return
}

// -----

func.func @f(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = 1 : i64}> : (i32, i64) -> i1
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 1 : i64}> : (i32, i32) -> i32
  return
}

// -----

func.func @f(%a: i32, %b: i64, %c: i1) {
  // expected-error@+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %a, %b) : (i1, i32, i64) -> i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = "arith.select"(%a, %a, %a) : (i32, i32, i32) -> i32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 1 : i64}> : () -> i32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op requires attribute 'value'}}
  %0 = "arith.constant"() : () -> i32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = "text"}> : () -> i32
  return
}

// ===== verifier: casts =====

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  %0 = arith.extsi %a : i32 to i16
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.extui' op operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %a : i32 to i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.trunci %a : i32 to i64
  return
}

// -----

func.func @f(%x: f64) {
  // expected-error@+1 {{'arith.extf' op operand type 'f64' and result type 'f32' are cast incompatible}}
  %0 = arith.extf %x : f64 to f32
  return
}

// -----

func.func @f(%x: f64) {
  // expected-error@+1 {{'arith.truncf' op operand type 'f64' and result type 'f64' are cast incompatible}}
  %0 = arith.truncf %x : f64 to f64
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_cast %a : i32 to i64
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'index'}}
  %0 = arith.sitofp %i : index to f32
  return
}

// -----

func.func @f(%x: f64) {
  // expected-error@+1 {{'arith.fptosi' op result #0 must be signless-fixed-width-integer-like, but got 'index'}}
  %0 = arith.fptosi %x : f64 to index
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.bitcast' op operand type 'i32' and result type 'f64' are cast incompatible}}
  %0 = arith.bitcast %a : i32 to f64
  return
}

// ===== verifier: properties =====

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 42 : i64}> : (i32, i32) -> i1
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op requires attribute 'predicate'}}
  %0 = "arith.cmpi"(%a, %a) : (i32, i32) -> i1
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.addi' op attribute 'overflowFlags' failed to satisfy constraint: Integer overflow arith flags}}
  %0 = "arith.addi"(%a, %a) <{overflowFlags = 1 : i32}> : (i32, i32) -> i32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{'arith.addf' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "arith.addf"(%x, %x) <{fastmath = #arith.overflow<nsw>}> : (f32, f32) -> f32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.divsi' op attribute 'isExact' failed to satisfy constraint: unit attribute}}
  %0 = "arith.divsi"(%a, %a) <{isExact = 1 : i32}> : (i32, i32) -> i32
  return
}

// -----

func.func @f(%x: f64) {
  // expected-error@+1 {{'arith.truncf' op attribute 'roundingmode' failed to satisfy constraint: allowed 32-bit signless integer cases: 0, 1, 2, 3, 4}}
  %0 = "arith.truncf"(%x) <{roundingmode = 9 : i32}> : (f64) -> f32
  return
}
