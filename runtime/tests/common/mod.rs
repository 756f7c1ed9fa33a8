//! Helpers shared by the interpreter tests: parsing (with verification), deterministic
//! inputs, bit-exact comparison.

#![allow(dead_code)]

use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::verifier::verify;
use stencil_ir::{Module, SourceFile};
use stencil_runtime::{FieldData, FieldValues};

/// Parses and verifies `text`; panics with the rendered diagnostic on failure.
pub fn parse(text: &str) -> Module {
    let module = parse_unverified(text);
    let registry = stencil_dialects::registry();
    if let Err(d) = verify(&module.ir, &registry, module.top, false) {
        panic!("verification failed:\n{}", d.render());
    }
    module
}

/// Parses `text` without verifying it (to test the runtime's own checks).
pub fn parse_unverified(text: &str) -> Module {
    let registry = stencil_dialects::registry();
    let source = SourceFile::new("test.mlir", text);
    parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: false })
        .unwrap_or_else(|d| panic!("parse failed:\n{}", d.render()))
}

/// The `f64` values of a field.
pub fn f64s(f: &FieldData) -> &[f64] {
    match &f.values {
        FieldValues::F64(v) => v,
        FieldValues::F32(_) => panic!("expected an f64 field"),
    }
}

/// The `f32` values of a field.
pub fn f32s(f: &FieldData) -> &[f32] {
    match &f.values {
        FieldValues::F32(v) => v,
        FieldValues::F64(_) => panic!("expected an f32 field"),
    }
}

/// Asserts bit-identical `f64` slices, naming the first difference.
pub fn assert_bits_eq(actual: &[f64], expected: &[f64], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: lengths differ");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert_eq!(a.to_bits(), e.to_bits(), "{what}: position {i} differs: {a} vs {e}");
    }
}

/// Asserts bit-identical `f32` slices.
pub fn assert_bits_eq_f32(actual: &[f32], expected: &[f32], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: lengths differ");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert_eq!(a.to_bits(), e.to_bits(), "{what}: position {i} differs: {a} vs {e}");
    }
}

/// A deterministic pseudo-random `f64` field (values in [0, 1)).
pub fn random_f64(shape: &[usize], seed: u64) -> FieldData {
    FieldData::pseudo_random(shape.to_vec(), stencil_runtime::ElementType::F64, seed).unwrap()
}

/// PolyBench-style jacobi-2d as a stencil program (`B = 0.2 * (5 neighbours of A); A = B`),
/// shared by the tests that compare it with hand-written loops and hand-lowered IR.
pub const JACOBI_2D: &str = r#"
stencil.program @jacobi2d(%A: !stencil.field<[N, N] x f64>, %B: !stencil.field<[N, N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 5, N = 14] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S1 writes %B over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[0, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s = stencil.access %A[1, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %a1 = arith.addf %c, %w : f64
      %a2 = arith.addf %a1, %e : f64
      %a3 = arith.addf %a2, %s : f64
      %a4 = arith.addf %a3, %n : f64
      %k = arith.constant 2.000000e-01 : f64
      %v = arith.mulf %k, %a4 : f64
      stencil.yield %v : f64
    }
    stencil.apply @S2 writes %A over [1, 1] to [N - 1, N - 1] {
      %b = stencil.access %B[0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
"#;

/// Reverses each 32-element chunk of `in` through workgroup memory: thread `t` stores element
/// `t` and, after the barrier, loads element `31 - t`, which another thread stored.
pub const REVERSE: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reverse(%in: memref<?xf64>, %out: memref<?xf64>)
        workgroup(%tile : memref<32xf64, #gpu.address_space<workgroup>>) kernel {
      %c31 = arith.constant 31 : index
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %base = arith.muli %bx, %bd : index
      %g = arith.addi %base, %tx : index
      %v = memref.load %in[%g] : memref<?xf64>
      memref.store %v, %tile[%tx] : memref<32xf64, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c31, %tx : index
      %w = memref.load %tile[%r] : memref<32xf64, #gpu.address_space<workgroup>>
      memref.store %w, %out[%g] : memref<?xf64>
      gpu.return
    }
  }
  func.func @run(%in: memref<?xf64>, %out: memref<?xf64>, %blocks: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@reverse blocks in (%blocks, %c1, %c1) threads in (%c32, %c1, %c1) args(%in : memref<?xf64>, %out : memref<?xf64>)
    return
  }
}
"#;

/// [`REVERSE`] with its barrier removed: thread `t` stores element `t` of the tile and loads
/// element `31 - t` with nothing ordering the two (a race in workgroup memory).
pub fn reverse_without_barrier() -> String {
    let text = REVERSE.replacen("      gpu.barrier\n", "", 1);
    assert_ne!(text, REVERSE, "REVERSE has a barrier to remove");
    text
}
