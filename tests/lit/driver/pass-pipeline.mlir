// Pass pipelines use MLIR's syntax; unknown passes, unknown options, bad values and syntax
// errors are reported before any input is processed.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(canonicalize, cse)' | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=2}),cse)' | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module()' | FileCheck %s
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(frobnicate)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(canonicalize{bogus=1})' 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=many})' 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=0})' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not stencil-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not stencil-opt %s --pass-pipeline='cse' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not stencil-opt %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=WRONGROOT

// CHECK: func.func private @f()
// UNKNOWN: <pass-pipeline>: error: 'frobnicate' does not refer to a registered pass (known passes: canonicalize, cse
// OPTION: error: no such option 'bogus' for pass 'canonicalize' (valid options: max-iterations)
// VALUE: error: invalid value for option 'max-iterations' of pass 'canonicalize': expected an integer, got 'many'
// RANGE: error: option 'max-iterations' of pass 'canonicalize' must be at least 1
// SYNTAX: error: invalid pass pipeline at character 19: expected ',' or ')' in pass pipeline
// ANCHOR: error: invalid pass pipeline at character 4: expected '(' after 'cse'
// WRONGROOT: error: can't run 'func.func' pass manager on 'builtin.module' op
func.func private @f()
