// Demo input for `make run`: canonicalize folds the constants and the always-taken scf.if,
// cse merges the duplicated pure expression. The loop reads and writes memory, so it stays.
//
//   stencil-opt --pass-pipeline='builtin.module(canonicalize,cse)' examples/canonicalize-demo.mlir

func.func @demo(%buf: memref<16xf32>, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index

  // Constant folding: 2.0 * 3.0 becomes a single constant 6.0.
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %six = arith.mulf %two, %three : f32

  // The same pure expression twice: cse keeps one.
  %a = arith.addf %x, %six : f32
  %b = arith.addf %x, %six : f32

  // The condition is a constant true: canonicalize keeps only the then-branch.
  %true = arith.constant true
  %scale = scf.if %true -> (f32) {
    scf.yield %a : f32
  } else {
    scf.yield %b : f32
  }

  // buf[i] = buf[i] * scale for every i.
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %buf[%i] : memref<16xf32>
    %w = arith.mulf %v, %scale : f32
    memref.store %w, %buf[%i] : memref<16xf32>
  }

  %sum = arith.addf %a, %b : f32
  return %sum : f32
}
