// Error paths of the math dialect: custom-syntax parse errors and the verifiers. Messages
// follow mlir-opt 22's.
// RUN: stencil-opt %s --split-input-file --verify-diagnostics

func.func @f(%x: f32) {
  // expected-error@+1 {{expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  %0 = math.sqrt %x fastmath<quick> : f32
  return
}

// -----

func.func @f(%x: f32, %y: f32) {
  // expected-error@+1 {{expected ','}}
  %0 = math.fma %x, %y : f32
  return
}

// -----

func.func @f(%x: f32, %n: i32) {
  // expected-error@+1 {{expected ','}}
  %0 = math.fpowi %x, %n : f32 i32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+2 {{use of value '%x' expects different type than prior uses: 'i32' vs 'f32'}}
  // expected-note@-2 {{prior use here}}
  %0 = math.sqrt %x : i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'math.sqrt' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.sqrt"(%a) : (i32) -> i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'math.fma' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.fma"(%a, %a, %a) : (i32, i32, i32) -> i32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{'math.absi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "math.absi"(%x) : (f32) -> f32
  return
}

// -----

func.func @f(%x: f32, %d: f64) {
  // expected-error@+1 {{'math.powf' op requires the same type for all operands and results}}
  %0 = "math.powf"(%x, %d) : (f32, f64) -> f32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{'math.fma' op expected 3 operands, but found 2}}
  %0 = "math.fma"(%x, %x) : (f32, f32) -> f32
  return
}

// -----

func.func @f(%x: f32, %n: i32) {
  // expected-error@+1 {{'math.fpowi' op failed to verify that all of {lhs, result} have same type}}
  %0 = "math.fpowi"(%x, %n) : (f32, i32) -> f64
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{'math.fpowi' op operand #1 must be signless-integer-like, but got 'f32'}}
  %0 = "math.fpowi"(%x, %x) : (f32, f32) -> f32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{'math.exp' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "math.exp"(%x) <{fastmath = 0 : i32}> : (f32) -> f32
  return
}
