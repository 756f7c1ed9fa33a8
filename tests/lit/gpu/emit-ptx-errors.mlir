// stencil-opt --emit=ptx errors: located diagnostics and exit code 1. Errors of our own checks
// are verified with --verify-diagnostics; MLIR's own messages (captured from MLIR's diagnostic
// handler, never printed by MLIR itself) with FileCheck, because they come in a chain.
//
// RUN: stencil-opt %s --emit=ptx --split-input-file --verify-diagnostics --allow-unregistered-dialect
// RUN: not stencil-opt %S/Inputs/unlowerable-op.mlir --emit=ptx --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=MLIR
// RUN: not stencil-opt %S/Inputs/unlowerable-op.mlir --emit=ptx --gpu-chip=sm90 2>&1 | FileCheck %s --check-prefix=CHIP

// MLIR: unlowerable-op.mlir:7:12: error: cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for dialect for op: test.opaque
// MLIR-NEXT: %v = "test.opaque"() : () -> f32
// MLIR-NEXT: ^
// MLIR-NEXT: unlowerable-op.mlir:4:3: error: Failed creating the llvm::Module.
// MLIR-NOT: see current operation

// CHIP: stencil-opt: error: --gpu-chip: GPU chip 'sm90' is not of the form sm_<number>[letter], e.g. sm_90 or sm_90a

// expected-error@+1 {{--emit=ptx: no gpu.module to compile}}
module {
  func.func @f() {
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @wide {
    // expected-error@+1 {{kernel @k: argument #0 of type i128 cannot be passed to a PTX kernel: 128-bit integers are wider than any PTX register}}
    gpu.func @k(%a: i128) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @unranked {
    // expected-error@+1 {{argument #0 of type memref<*xf32> cannot be passed to a PTX kernel: unranked memrefs}}
    gpu.func @k(%a: memref<*xf32>) kernel {
      gpu.return
    }
  }
}
