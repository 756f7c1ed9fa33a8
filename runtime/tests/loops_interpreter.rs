//! The upstream-subset interpreter: hand-lowered versions of a stencil program must give
//! bit-identical fields (the pattern later issues use to prove transformations correct), and
//! each supported construct computes what MLIR defines.

mod common;

use common::{assert_bits_eq, f64s, parse, random_f64, JACOBI_2D};
use stencil_runtime::loops::{CompiledModule, Memory, Value};
use stencil_runtime::{compare_fields, run_module, ElementType, FieldData, ProgramState};

/// Jacobi-2D lowered by hand: scf loops with memref accesses for the first statement, affine
/// loops for the copy.
const JACOBI_2D_LOOPS: &str = r#"
func.func @jacobi2d(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %T: index, %N: index)
    attributes {stencil.arg_names = ["A", "B"], stencil.param_names = ["T", "N"], stencil.param_mins = [1, 3],
                stencil.defaults = {N = 14 : i64, T = 5 : i64}, stencil.field_types = ["[N, N] x f64", "[N, N] x f64"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 2.000000e-01 : f64
  %n1 = arith.subi %N, %c1 : index
  scf.for %t = %c0 to %T step %c1 {
    scf.for %i = %c1 to %n1 step %c1 {
      scf.for %j = %c1 to %n1 step %c1 {
        %im = arith.subi %i, %c1 : index
        %ip = arith.addi %i, %c1 : index
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %c = memref.load %A[%i, %j] : memref<?x?xf64>
        %w = memref.load %A[%i, %jm] : memref<?x?xf64>
        %e = memref.load %A[%i, %jp] : memref<?x?xf64>
        %s = memref.load %A[%ip, %j] : memref<?x?xf64>
        %n = memref.load %A[%im, %j] : memref<?x?xf64>
        %a1 = arith.addf %c, %w : f64
        %a2 = arith.addf %a1, %e : f64
        %a3 = arith.addf %a2, %s : f64
        %a4 = arith.addf %a3, %n : f64
        %v = arith.mulf %k, %a4 : f64
        memref.store %v, %B[%i, %j] : memref<?x?xf64>
      }
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
        %b = affine.load %B[%i, %j] : memref<?x?xf64>
        affine.store %b, %A[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
"#;

/// Jacobi-2D tiled by hand (4×3 tiles, max/min bounds, affine.apply, loads through maps).
const JACOBI_2D_TILED: &str = r#"
func.func @jacobi2d(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %T: index, %N: index)
    attributes {stencil.arg_names = ["A", "B"], stencil.param_names = ["T", "N"],
                stencil.field_types = ["[N, N] x f64", "[N, N] x f64"]} {
  %k = arith.constant 2.000000e-01 : f64
  affine.for %t = 0 to %T {
    affine.for %ii = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] step 4 {
      affine.for %jj = 0 to affine_map<()[s0] -> ((s0 - 2) ceildiv 3)>()[%N] {
        %j0 = affine.apply affine_map<(d0) -> (d0 * 3 + 1)>(%jj)
        affine.for %i = affine_map<(d0) -> (d0)>(%ii) to min affine_map<(d0)[s0] -> (d0 + 4, s0 - 1)>(%ii)[%N] {
          affine.for %j = max affine_map<(d0) -> (d0, 1)>(%j0) to min affine_map<(d0)[s0] -> (d0 + 3, s0 - 1)>(%j0)[%N] {
            %c = affine.load %A[%i, %j] : memref<?x?xf64>
            %w = affine.load %A[%i, %j - 1] : memref<?x?xf64>
            %e = affine.load %A[%i, %j + 1] : memref<?x?xf64>
            %s = affine.load %A[%i + 1, %j] : memref<?x?xf64>
            %n = affine.load %A[%i - 1, %j] : memref<?x?xf64>
            %a1 = arith.addf %c, %w : f64
            %a2 = arith.addf %a1, %e : f64
            %a3 = arith.addf %a2, %s : f64
            %a4 = arith.addf %a3, %n : f64
            %v = arith.mulf %k, %a4 : f64
            affine.store %v, %B[%i, %j] : memref<?x?xf64>
          }
        }
      }
    }
    affine.parallel (%i, %j) = (1, 1) to (symbol(%N) - 1, symbol(%N) - 1) {
      %b = affine.load %B[%i, %j] : memref<?x?xf64>
      affine.store %b, %A[%i, %j] : memref<?x?xf64>
    }
  }
  return
}
"#;

fn initial_state(n: usize) -> ProgramState {
    ProgramState::new().with_field("A", random_f64(&[n, n], 21)).with_field("B", random_f64(&[n, n], 22))
}

#[test]
fn lowered_jacobi_matches_the_stencil_program_bit_exactly() {
    for (label, lowered) in [("scf+affine", JACOBI_2D_LOOPS), ("tiled affine", JACOBI_2D_TILED)] {
        for (t, n) in [(5, 14), (2, 3), (3, 9)] {
            let mut reference = initial_state(n).with_param("T", t).with_param("N", n as i64);
            let mut transformed = reference.clone();
            let original_stats = run_module(&parse(JACOBI_2D), None, &mut reference).unwrap();
            let lowered_stats = run_module(&parse(lowered), None, &mut transformed).unwrap();
            for name in ["A", "B"] {
                let c = compare_fields(&reference.fields[name], &transformed.fields[name]);
                assert!(c.bit_exact(), "{label}, T={t}, N={n}: field {name} differs: {c:?}");
            }
            assert_eq!(original_stats.point_updates, lowered_stats.field_stores, "{label}: stores into fields");
            assert_eq!(original_stats.point_updates, lowered_stats.point_updates, "{label}: recorded point updates");
        }
    }
}

#[test]
fn lowered_programs_use_their_defaults_and_field_types() {
    let module = parse(JACOBI_2D_LOOPS);
    let interface = stencil_runtime::module_interface(&module, None, &ProgramState::new()).unwrap();
    assert_eq!(interface.params, vec![("T".to_string(), 5), ("N".to_string(), 14)]);
    assert_eq!(interface.fields[1].shape, vec![14, 14]);
    let mut state = ProgramState::new();
    interface.add_missing_fields(&mut state).unwrap();
    run_module(&module, Some("jacobi2d"), &mut state).unwrap();
}

fn call(text: &str, name: &str, args: &[Value], memory: &mut Memory) -> Vec<Value> {
    let module = parse(text);
    let compiled = CompiledModule::new(&module.ir, module.top).unwrap();
    compiled.call(name, args, memory).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn scf_control_flow_reductions_and_calls() {
    let text = r#"
func.func @square(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func @main(%m: memref<4x3xf64>) -> (f64, index, i32, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.000000e+00 : f64
  // Sum of squares with scf.parallel + scf.reduce.
  %sum = scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c3) step (%c1, %c1) init (%zero) -> f64 {
    %v = memref.load %m[%i, %j] : memref<4x3xf64>
    %sq = func.call @square(%v) : (f64) -> f64
    scf.reduce(%sq : f64) {
    ^bb0(%lhs: f64, %rhs: f64):
      %r = arith.addf %lhs, %rhs : f64
      scf.reduce.return %r : f64
    }
  }
  // Count the elements above 0.5 with scf.for + iter_args + scf.if.
  %half = arith.constant 5.000000e-01 : f64
  %count = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {
    %row = scf.for %j = %c0 to %c3 step %c1 iter_args(%a = %acc) -> (index) {
      %v = memref.load %m[%i, %j] : memref<4x3xf64>
      %big = arith.cmpf ogt, %v, %half : f64
      %next = scf.if %big -> (index) {
        %inc = arith.addi %a, %c1 : index
        scf.yield %inc : index
      } else {
        scf.yield %a : index
      }
      scf.yield %next : index
    }
    scf.yield %row : index
  }
  // Collatz steps of 27 with scf.while.
  %start = arith.constant 27 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %z = arith.constant 0 : i32
  %steps:2 = scf.while (%x = %start, %n = %z) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi ne, %x, %one : i32
    scf.condition(%go) %x, %n : i32, i32
  } do {
  ^bb0(%x: i32, %n: i32):
    %r = arith.remui %x, %two : i32
    %even = arith.cmpi eq, %r, %z : i32
    %h = arith.divui %x, %two : i32
    %t = arith.muli %x, %three : i32
    %t1 = arith.addi %t, %one : i32
    %nx = arith.select %even, %h, %t1 : i32
    %n1 = arith.addi %n, %one : i32
    scf.yield %nx, %n1 : i32, i32
  }
  // Copy into a temporary and back, then read the maximum with affine.parallel.
  %tmp = memref.alloc() : memref<4x3xf64>
  memref.copy %m, %tmp : memref<4x3xf64> to memref<4x3xf64>
  %max = affine.parallel (%i, %j) = (0, 0) to (4, 3) reduce ("maximumf") -> (f64) {
    %v = affine.load %tmp[%i, %j] : memref<4x3xf64>
    affine.yield %v : f64
  }
  memref.dealloc %tmp : memref<4x3xf64>
  return %sum, %count, %steps#1, %max : f64, index, i32, f64
}
"#;
    let data = random_f64(&[4, 3], 31);
    let values = f64s(&data).to_vec();
    let mut memory = Memory::new();
    let m = memory.insert_field(data);
    let out = call(text, "main", &[Value::MemRef(m)], &mut memory);
    // scf.parallel runs in lexicographic order, so the sum is the sequential left fold.
    let sum = values.iter().fold(0.0, |acc, v| acc + v * v);
    let count = values.iter().filter(|&&v| v > 0.5).count() as i64;
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(out, vec![Value::F64(sum), Value::Int(count), Value::Int(111), Value::F64(max)]);
    // The argument buffer is untouched and can be taken back.
    assert_eq!(memory.take_field(m).map(|f| f.shape), Some(vec![4, 3]));
}

#[test]
fn affine_if_min_max_and_dynamic_allocation() {
    let text = r#"
func.func @main(%n: index) -> (index, index, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloca(%n) : memref<?xi64>
  %size = memref.dim %buf, %c0 : memref<?xi64>
  affine.for %i = 0 to %n {
    %v = affine.if affine_set<(d0)[s0] : (d0 - 2 >= 0, s0 - d0 - 3 >= 0)>(%i)[%n] -> i64 {
      %ii = arith.index_cast %i : index to i64
      affine.yield %ii : i64
    } else {
      %m = arith.constant -1 : i64
      affine.yield %m : i64
    }
    affine.store %v, %buf[%i] : memref<?xi64>
  }
  %lo = affine.max affine_map<(d0) -> (d0 - 3, 2)>(%n)
  %hi = affine.min affine_map<(d0) -> (d0 floordiv 2, 7)>(%n)
  %total = affine.for %i = 0 to %n iter_args(%s = %c0) -> (index) {
    %s1 = arith.addi %s, %c1 : index
    affine.yield %s1 : index
  }
  %c4 = arith.constant 4 : index
  %last = memref.load %buf[%c4] : memref<?xi64>
  %same = arith.cmpi eq, %total, %size : index
  %fail = arith.constant -100 : i64
  %result = arith.select %same, %last, %fail : i64
  return %lo, %hi, %result : index, index, i64
}
"#;
    let mut memory = Memory::new();
    let out = call(text, "main", &[Value::Int(9)], &mut memory);
    // affine.if: 2 <= i <= n - 3 keeps i; so buf[4] = 4. max(9 - 3, 2) = 6, min(9 floordiv 2, 7) = 4.
    assert_eq!(out, vec![Value::Int(6), Value::Int(4), Value::Int(4)]);
}

#[test]
fn f32_memrefs_and_casts() {
    let text = r#"
func.func @main(%m: memref<3xf32>) -> (f32, f64, i32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %a = memref.load %m[%c0] : memref<3xf32>
  %b = memref.load %m[%c2] : memref<3xf32>
  %p = arith.mulf %a, %b : f32
  %e = arith.extf %p : f32 to f64
  %bits = arith.bitcast %p : f32 to i32
  %s = math.sqrt %p : f32
  memref.store %s, %m[%c0] : memref<3xf32>
  return %p, %e, %bits : f32, f64, i32
}
"#;
    let field = FieldData::new(vec![3], stencil_runtime::FieldValues::F32(vec![1.1, 0.0, 3.3])).unwrap();
    let mut memory = Memory::new();
    let m = memory.insert_field(field);
    let out = call(text, "main", &[Value::MemRef(m)], &mut memory);
    let p = 1.1f32 * 3.3f32;
    assert_eq!(out, vec![Value::F32(p), Value::F64(f64::from(p)), Value::Int(i64::from(p.to_bits() as i32))]);
    let back = memory.take_field(m).unwrap();
    assert_eq!(back.element(), ElementType::F32);
    assert_eq!(back.get(&[0]), Some(f64::from(p.sqrt())));
}

/// `memref.reinterpret_cast` to a flat view of a whole buffer reads and writes the buffer's
/// elements in row-major order, and `memref.dim` sees one dimension; views the simulators do
/// not model, a size that is not the buffer's and freeing a view are errors, not wrong reads.
#[test]
fn flat_views_address_the_buffer_row_major() {
    let text = r#"
func.func @main(%m: memref<?x?xf64>, %n: index) -> (f64, f64, index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %flat = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] : memref<?x?xf64> to memref<?xf64>
  %i = arith.constant 4 : index
  %x = memref.load %flat[%i] : memref<?xf64>
  %y = memref.load %m[%c1, %c1] : memref<?x?xf64>
  memref.store %x, %flat[%c0] : memref<?xf64>
  %d = memref.dim %flat, %c0 : memref<?xf64>
  return %x, %y, %d : f64, f64, index
}
"#;
    let field = |values: Vec<f64>| FieldData::new(vec![2, 3], stencil_runtime::FieldValues::F64(values)).unwrap();
    let mut memory = Memory::new();
    let m = memory.insert_field(field(vec![0.5, 1.5, 2.5, 3.5, 4.5, 5.5]));
    let out = call(text, "main", &[Value::MemRef(m), Value::Int(6)], &mut memory);
    assert_eq!(out, vec![Value::F64(4.5), Value::F64(4.5), Value::Int(6)]);
    assert_eq!(memory.take_field(m).unwrap().get(&[0, 0]), Some(4.5));

    let fails = |text: &str, n: i64| {
        let module = parse(text);
        let mut memory = Memory::new();
        let m = memory.insert_field(field(vec![0.0; 6]));
        match CompiledModule::new(&module.ir, module.top) {
            Err(e) => e.to_string(),
            Ok(compiled) => {
                compiled.call("main", &[Value::MemRef(m), Value::Int(n)], &mut memory).unwrap_err().to_string()
            }
        }
    };
    let wrong_size = fails(text, 5);
    assert!(wrong_size.contains("views a buffer of 6 elements as 5"), "{wrong_size}");
    let strided = text.replace("strides: [1]", "strides: [2]").replace("memref<?xf64>", "memref<?xf64, strided<[2]>>");
    let refused = fails(&strided, 3);
    assert!(refused.contains("'memref.reinterpret_cast'"), "{refused}");
    let freed =
        fails(&text.replace("  %d = memref.dim", "  memref.dealloc %flat : memref<?xf64>\n  %d = memref.dim"), 6);
    assert!(freed.contains("frees a view"), "{freed}");
}

#[test]
fn lowered_sor_runs_in_place_like_the_stencil_program() {
    let stencil = r#"
stencil.program @sor(%A: !stencil.field<[N] x f64>, %w: f64) params [T >= 1, N >= 3] defaults [T = 3, N = 10, w = 1.500000e+00] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1] to [N - 1] {
      %l = stencil.access %A[-1] : f64
      %c = stencil.access %A[0] : f64
      %r = stencil.access %A[1] : f64
      %s = arith.addf %l, %r : f64
      %h = arith.constant 5.000000e-01 : f64
      %m = arith.mulf %s, %h : f64
      %d = arith.subf %m, %c : f64
      %v = math.fma %w, %d, %c : f64
      stencil.yield %v : f64
    }
  }
}
"#;
    let lowered = r#"
func.func @sor(%A: memref<?xf64>, %w: f64, %T: index, %N: index)
    attributes {stencil.arg_names = ["A", "w"], stencil.param_names = ["T", "N"],
                stencil.defaults = {N = 10 : i64, T = 3 : i64, w = 1.500000e+00 : f64}, stencil.field_types = ["[N] x f64"]} {
  %h = arith.constant 5.000000e-01 : f64
  affine.for %t = 0 to %T {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
      %l = affine.load %A[%i - 1] : memref<?xf64>
      %c = affine.load %A[%i] : memref<?xf64>
      %r = affine.load %A[%i + 1] : memref<?xf64>
      %s = arith.addf %l, %r : f64
      %m = arith.mulf %s, %h : f64
      %d = arith.subf %m, %c : f64
      %v = math.fma %w, %d, %c : f64
      affine.store %v, %A[%i] : memref<?xf64>
    }
  }
  return
}
"#;
    let mut a = ProgramState::new().with_field("A", random_f64(&[10], 41));
    let mut b = a.clone();
    run_module(&parse(stencil), None, &mut a).unwrap();
    run_module(&parse(lowered), None, &mut b).unwrap();
    assert_bits_eq(f64s(&b.fields["A"]), f64s(&a.fields["A"]), "A");
}
