// --verify-diagnostics fails when an expected diagnostic is missing or an unexpected one
// appears, and says which, at the line and column of the expectation or the diagnostic.
// RUN: not stencil-opt %s --split-input-file --verify-diagnostics 2>&1 | FileCheck %s

// CHECK: verify-diagnostics.mlir:[[@LINE+1]]:4: error: expected error "this is never produced" was not produced (expected on line [[@LINE+2]])
// expected-error@+1 {{this is never produced}}
func.func private @fine()

// -----

// CHECK: verify-diagnostics.mlir:[[@LINE+1]]:1: error: unexpected error: custom op 'nope' is unknown
nope

// -----

// CHECK: verify-diagnostics.mlir:[[@LINE+1]]:4: error: expected '}}' to end the expected message
// expected-error@+1 {{never closed

// -----

// An expectation after code on its line is located at its keyword.
// CHECK: verify-diagnostics.mlir:[[@LINE+1]]:35: error: expected warning "not produced either" was not produced (expected on line [[@LINE+1]])
func.func private @also_fine() // expected-warning {{not produced either}}

// -----

// A space before the location is allowed (MLIR's spelling too): the expectation is checked.
// CHECK: verify-diagnostics.mlir:[[@LINE+1]]:4: error: expected error "spaced and never produced" was not produced (expected on line [[@LINE+2]])
// expected-error @+1 {{spaced and never produced}}
func.func private @spaced()

// -----

// expected-error-re: the parts in inner braces are regular expressions, the rest literal.
// The second expectation matches the error (nothing unexpected), the first does not:
// CHECK-NOT: unexpected error
// CHECK: verify-diagnostics.mlir:[[@LINE+1]]:4: error: expected error "custom op {{.*}} is known" was not produced
// expected-error-re @+2 {{custom op {{'[a-z]+'}} is known}}
// expected-error-re @+1 {{custom op {{'[a-z]+'}} is unknown}}
nope

// -----

// CHECK: verify-diagnostics.mlir:[[@LINE+1]]:4: error: invalid regular expression in the expected message
// expected-error-re@+1 {{x {{(}} y}}
nope
