// --emit=ptx declares every static workgroup (shared) buffer 16-byte aligned, whatever its
// element type. Without it LLVM 22 vectorises accesses to a byte buffer on the assumption that
// the buffer is 16-byte aligned, while the PTX declares `.align 1`: the kernel below then writes
// its 18 mask bytes with 16-bit stores, and on an H200 such a kernel stopped with
// CUDA_ERROR_MISALIGNED_ADDRESS. The IR itself keeps its attributions as written.
//
// RUN: stencil-opt %s --emit=ptx | FileCheck %s
// RUN: stencil-opt %s | FileCheck %s --check-prefix=IR

// CHECK:     .shared .align 16 .b8 __wg_masks_0[18];
// CHECK:     .shared .align 16 .b8 __wg_masks_1[144];
// CHECK-NOT: .shared .align 1 .b8
// IR:        workgroup(%{{.*}} : memref<18xi8, #gpu.address_space<workgroup>>, %{{.*}} : memref<18xf64, #gpu.address_space<workgroup>>)
// IR-NOT:    llvm.align

module attributes {gpu.container_module} {
  gpu.module @m {
    // One thread sets a row of 18 mask bytes and 18 values, then copies them out.
    gpu.func @masks(%out: memref<18xi8>, %vals: memref<18xf64>) workgroup(%mask : memref<18xi8, #gpu.address_space<workgroup>>, %buf : memref<18xf64, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c18 = arith.constant 18 : index
      %one = arith.constant 1 : i8
      %x = arith.constant 2.0 : f64
      scf.for %i = %c0 to %c18 step %c1 {
        memref.store %one, %mask[%i] : memref<18xi8, #gpu.address_space<workgroup>>
        memref.store %x, %buf[%i] : memref<18xf64, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.for %i = %c0 to %c18 step %c1 {
        %m = memref.load %mask[%i] : memref<18xi8, #gpu.address_space<workgroup>>
        memref.store %m, %out[%i] : memref<18xi8>
        %v = memref.load %buf[%i] : memref<18xf64, #gpu.address_space<workgroup>>
        memref.store %v, %vals[%i] : memref<18xf64>
      }
      gpu.return
    }
  }
}
