//! Bad input gives a clean error (never a panic) that names the problem, and the op's
//! location when an op is involved.

mod common;

use common::{parse, parse_unverified, random_f64};
use stencil_runtime::loops::{CompiledModule, Memory, Value};
use stencil_runtime::{run_module, ElementType, FieldData, ProgramState, RuntimeError};

const PROGRAM: &str = r#"
stencil.program @p(%A: !stencil.field<[N, M + 1] x f64>, %w: f64) params [T >= 1, N >= 3, M >= 2] defaults [T = 2] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M] {
      %c = stencil.access %A[0, 0] : f64
      %v = arith.mulf %c, %w : f64
      stencil.yield %v : f64
    }
  }
}
"#;

fn run_err(text: &str, state: &mut ProgramState) -> RuntimeError {
    run_module(&parse(text), None, state).expect_err("the run should fail")
}

fn valid_state() -> ProgramState {
    ProgramState::new()
        .with_param("N", 4)
        .with_param("M", 3)
        .with_scalar("w", stencil_runtime::ScalarValue::Float(0.5))
        .with_field("A", random_f64(&[4, 4], 1))
}

#[test]
fn the_valid_state_runs() {
    run_module(&parse(PROGRAM), None, &mut valid_state()).unwrap();
}

#[test]
fn parameters_are_checked() {
    let mut s = valid_state();
    s.params.remove("M");
    let e = run_err(PROGRAM, &mut s);
    assert!(matches!(&e, RuntimeError::MissingParam { name } if name == "M"), "{e}");
    assert!(e.to_string().contains("--param M="), "{e}");

    let e = run_err(PROGRAM, &mut valid_state().with_param("N", 2));
    assert!(matches!(e, RuntimeError::ParamBelowMinimum { value: 2, min: 3, .. }), "{e}");
    assert_eq!(e.to_string(), "parameter N = 2 is below its declared minimum 3");

    let e = run_err(PROGRAM, &mut valid_state().with_param("K", 2));
    assert!(e.to_string().contains("unknown parameter 'K': the program declares T, N, M"), "{e}");
}

#[test]
fn zero_and_negative_extents_are_rejected() {
    // The verifier would reject these extents; the runtime checks them too.
    let text = r#"
stencil.program @p(%A: !stencil.field<[N - 4] x f64>) params [N] {
  stencil.apply @S writes %A over [0] to [N - 4] {
    %c = stencil.access %A[0] : f64
    stencil.yield %c : f64
  }
}
"#;
    let module = parse_unverified(text);
    for (n, shown) in [(4, "is 0"), (1, "is -3")] {
        let mut s = ProgramState::new().with_param("N", n);
        let e = run_module(&module, None, &mut s).unwrap_err();
        assert!(matches!(e, RuntimeError::NonPositiveExtent { dim: 0, .. }), "{e}");
        assert!(e.to_string().contains(&format!("extent 'N - 4' of dimension 0 {shown}")), "{e}");
    }
}

#[test]
fn fields_must_match_the_program() {
    let e = run_err(PROGRAM, &mut valid_state().with_field("A", random_f64(&[4, 5], 2)));
    assert!(
        matches!(&e, RuntimeError::FieldShapeMismatch { expected, found, .. } if expected == &vec![4, 4] && found == &vec![4, 5]),
        "{e}"
    );

    let f32_field = FieldData::zeros(vec![4, 4], ElementType::F32).unwrap();
    let e = run_err(PROGRAM, &mut valid_state().with_field("A", f32_field));
    assert!(matches!(e, RuntimeError::FieldTypeMismatch { .. }), "{e}");

    let mut s = valid_state();
    s.fields.clear();
    let e = run_err(PROGRAM, &mut s);
    assert!(e.to_string().contains("field 'A' has no data: initialise it with shape [4, 4] (f64)"), "{e}");

    let e = run_err(PROGRAM, &mut valid_state().with_field("Z", random_f64(&[1], 3)));
    assert!(e.to_string().contains("unknown field 'Z'"), "{e}");
}

#[test]
fn scalars_need_a_value_of_their_type() {
    let mut s = valid_state();
    s.scalars.clear();
    let e = run_err(PROGRAM, &mut s);
    assert!(matches!(&e, RuntimeError::MissingScalar { name, .. } if name == "w"), "{e}");
}

#[test]
fn fields_survive_a_failed_run() {
    let text = r#"
stencil.program @p(%A: !stencil.field<[4] x f64>, %d: i32) params [] defaults [d = 0] {
  stencil.apply @S writes %A over [0] to [4] {
    %c = stencil.access %A[0] : f64
    %one = arith.constant 1 : i32
    %q = arith.divsi %one, %d : i32
    %f = arith.sitofp %q : i32 to f64
    %v = arith.addf %c, %f : f64
    stencil.yield %v : f64
  }
}
"#;
    let mut s = ProgramState::new().with_field("A", random_f64(&[4], 4));
    let e = run_err(text, &mut s);
    assert!(e.to_string().starts_with("test.mlir:6:10: error: 'arith.divsi' divides by zero"), "{e}");
    assert_eq!(s.fields["A"].shape, vec![4], "the field is back in the state");
}

#[test]
fn unverified_out_of_bounds_stencil_reads_are_reported() {
    let text = r#"
stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] defaults [N = 8] {
  stencil.apply @S writes %A over [0] to [N] {
    %c = stencil.access %A[1] : f64
    stencil.yield %c : f64
  }
}
"#;
    let e = run_module(&parse_unverified(text), None, &mut ProgramState::new().with_field("A", random_f64(&[8], 5)))
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("test.mlir:4:10: error: 'stencil.access' accesses index [8] outside field 'A' of shape [8]"),
        "{e}"
    );
}

#[test]
fn unsupported_ops_name_their_location() {
    let text = PROGRAM.replace("%v = arith.mulf %c, %w : f64", "%v = math.erf %c : f64");
    let e = run_err(&text, &mut valid_state());
    assert!(e.to_string().starts_with("test.mlir:6:"), "{e}");
    assert!(e.to_string().contains("math.erf"), "{e}");
}

fn call_err(text: &str, args: &[Value], memory: &mut Memory) -> RuntimeError {
    let module = parse(text);
    let compiled = CompiledModule::new(&module.ir, module.top).unwrap();
    compiled.call("main", args, memory).expect_err("the call should fail")
}

#[test]
fn out_of_bounds_memref_accesses_are_errors() {
    let text = r#"
func.func @main(%m: memref<?x?xf64>, %i: index) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%i, %c0] : memref<?x?xf64>
  affine.store %v, %m[%i - 1, 5] : memref<?x?xf64>
  return %v : f64
}
"#;
    let mut memory = Memory::new();
    let m = memory.insert_field(random_f64(&[3, 4], 6));
    let e = call_err(text, &[Value::MemRef(m), Value::Int(3)], &mut memory);
    assert_eq!(
        e.to_string(),
        "test.mlir:4:8: error: 'memref.load' accesses index [3, 0] outside a memref of shape [3, 4]"
    );
    let e = call_err(text, &[Value::MemRef(m), Value::Int(-1)], &mut memory);
    assert!(e.to_string().contains("index [-1, 0]"), "{e}");
    let e = call_err(text, &[Value::MemRef(m), Value::Int(2)], &mut memory);
    assert_eq!(
        e.to_string(),
        "test.mlir:5:3: error: 'affine.store' accesses index [1, 5] outside a memref of shape [3, 4]"
    );
}

#[test]
fn undefined_behaviour_is_reported() {
    let double_free = r#"
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
"#;
    let e = call_err(double_free, &[], &mut Memory::new());
    assert!(e.to_string().starts_with("test.mlir:5:3: error: 'memref.dealloc' frees a buffer that is not live"), "{e}");

    let recursion = r#"
func.func @main(%x: index) -> index {
  %y = func.call @main(%x) : (index) -> index
  return %y : index
}
"#;
    let e = call_err(recursion, &[Value::Int(1)], &mut Memory::new());
    assert!(e.to_string().contains("nests calls more than 64 deep"), "{e}");

    let huge = r#"
func.func @main(%n: index) {
  %a = memref.alloc(%n, %n) : memref<?x?xf64>
  return
}
"#;
    let e = call_err(huge, &[Value::Int(1 << 31)], &mut Memory::new());
    assert!(e.to_string().contains("which is too large"), "{e}");

    let zero_step = r#"
func.func @main(%s: index) {
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  scf.for %i = %c0 to %c9 step %s {
  }
  return
}
"#;
    let e = call_err(zero_step, &[Value::Int(0)], &mut Memory::new());
    assert!(e.to_string().contains("'scf.for' has step 0"), "{e}");
}

#[test]
fn arguments_are_checked_against_the_signature() {
    let text = r#"
func.func @main(%m: memref<4xf64>, %k: i8) {
  return
}
"#;
    let mut memory = Memory::new();
    let m = memory.insert_field(random_f64(&[5], 7));
    let e = call_err(text, &[Value::MemRef(m), Value::Int(1)], &mut memory);
    assert!(e.to_string().contains("argument #0 of @main (memref<4xf64>): a buffer of shape [5] does not fit"), "{e}");
    let m = memory.insert_field(random_f64(&[4], 8));
    let e = call_err(text, &[Value::MemRef(m), Value::Int(300)], &mut memory);
    assert!(e.to_string().contains("argument #1 of @main (i8)"), "{e}");
}

#[test]
fn entry_points_must_be_unambiguous() {
    let two = format!("{PROGRAM}\n{}", PROGRAM.replace("@p(", "@q("));
    let module = parse(&two);
    let e = run_module(&module, None, &mut valid_state()).unwrap_err();
    assert!(e.to_string().contains("several entry points (@p, @q)"), "{e}");
    let e = run_module(&module, Some("r"), &mut valid_state()).unwrap_err();
    assert!(e.to_string().contains("no stencil.program or lowered program @r"), "{e}");
    run_module(&module, Some("q"), &mut valid_state()).unwrap();
}
