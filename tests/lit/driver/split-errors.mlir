// Errors in split chunks are reported with line numbers of the whole file.
// RUN: not stencil-opt %s --split-input-file 2>&1 | FileCheck %s

func.func private @ok()

// -----

// CHECK: split-errors.mlir:[[@LINE+1]]:20: error: custom op 'nope' is unknown (tried 'func.nope' as well)
func.func @bad() { nope }

// -----

// CHECK: split-errors.mlir:[[@LINE+1]]:19: error: expected symbol name (@name), found '('
func.func private (
