// Chunks separated by `// -----` are processed independently; the output keeps the separator,
// and a failing chunk does not stop the others (the exit code still reports the failure).
// RUN: stencil-opt %s --split-input-file | FileCheck %s
// RUN: not stencil-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE

// CHECK: func.func private @first()
// CHECK-NEXT: func.func private @same()
// CHECK-NEXT: }
// CHECK-NEXT: // -----
// CHECK: func.func private @second()
// WHOLE: error: redefinition of symbol named 'same'
func.func private @first()
func.func private @same()

// -----

func.func private @second()
func.func private @same()
