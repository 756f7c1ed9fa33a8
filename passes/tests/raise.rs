//! `raise-affine-to-stencil` as a library and a pass: what the raised program declares
//! (parameters, minimums, extents, names), when the wrapper keeps the original loops, the
//! roles of the wrapper's arguments, the aliasing rule, refusals as remarks through the pass
//! manager, and the lowering of calls (`lower_stencil_calls`). Execution checks are in
//! `lowering/tests/raise_*.rs` and the lit tests.

mod common;

use stencil_dialects::stencil::{FieldType, ProgramParams};
use stencil_ir::ir::WalkOrder;
use stencil_ir::pass::{PassManager, PassManagerOptions, PassRegistry};
use stencil_ir::{Attribute, Ir, Module, OpId, Severity};
use stencil_passes::raise::{
    argument_roles, lower_stencil_calls, raise_module, ArgumentRole, RaiseOptions, REFUSAL_PREFIX,
};

fn ops_named(ir: &Ir, root: OpId, name: &str) -> Vec<OpId> {
    ir.collect_ops(root, WalkOrder::PreOrder).into_iter().filter(|&o| ir.op_name(o) == name).collect()
}

fn raise(text: &str, options: RaiseOptions) -> (Module, stencil_passes::raise::RaiseReport) {
    let registry = stencil_dialects::registry();
    let mut module = common::parse(text, &registry, true);
    let mut reports =
        raise_module(&mut module.ir, &registry, module.top, &options).unwrap_or_else(|d| panic!("{}", d.render()));
    stencil_ir::verifier::verify(&module.ir, &registry, module.top, false).unwrap_or_else(|d| panic!("{}", d.render()));
    (module, reports.remove(0))
}

fn field_types(ir: &Ir, program: OpId) -> Vec<String> {
    let f =
        ir.attr(program, "function_type").and_then(Attribute::as_type).and_then(|t| t.as_function()).cloned().unwrap();
    f.inputs.iter().filter_map(FieldType::from_type).map(|t| t.body()).collect()
}

const JACOBI: &str = r#"
func.func @jacobi(%tsteps: i32, %n: i32, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}, %w: f64) {
  %nn = arith.index_cast %n : i32 to index
  %t = arith.index_cast %tsteps : i32 to index
  affine.for %s = 0 to %t {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%nn] {
      %a = affine.load %A[%i - 1] : memref<?xf64>
      %b = affine.load %A[%i + 1] : memref<?xf64>
      %c = arith.addf %a, %b : f64
      %v = arith.mulf %c, %w : f64
      affine.store %v, %B[%i] : memref<?xf64>
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%nn] {
      %a = affine.load %B[%i] : memref<?xf64>
      affine.store %a, %A[%i] : memref<?xf64>
    }
  }
  return
}
"#;

#[test]
fn parameters_minimums_extents_and_names_come_from_the_loops() {
    let (module, report) = raise(JACOBI, RaiseOptions::default());
    assert!(report.refused.is_empty(), "{:?}", report.refused);
    let [nest] = report.raised.as_slice() else { panic!("one nest: {:?}", report.raised) };
    assert_eq!(nest.program, "jacobi_stencil");
    // Every statement needs tsteps >= 1 and n >= 3 to run: the guard is exact.
    assert!(!nest.kept_fallback);
    let ir = &module.ir;
    let program = ops_named(ir, module.top, "stencil.program")[0];
    let params = ProgramParams::of(ir, program);
    assert_eq!(params.names, ["arg0", "arg1"]);
    assert_eq!(params.mins, [1, 3]);
    // A is read up to n - 1 and B (written at 1..n-2, read there) up to n - 2.
    assert_eq!(field_types(ir, program), ["[arg1] x f64", "[arg1 - 1] x f64"]);
    let names = stencil_dialects::stencil::program_arg_names(ir, program);
    assert_eq!(names, [Some("arg2".into()), Some("arg3".into()), Some("arg4".into())]);
    // The wrapper: the same function, its loops replaced by the guarded call.
    let func = ops_named(ir, module.top, "func.func")[0];
    assert!(ops_named(ir, func, "affine.for").is_empty());
    let call = ops_named(ir, func, "stencil.call")[0];
    let registry = stencil_dialects::registry();
    let roles = argument_roles(ir, &registry, func, call).unwrap();
    assert_eq!(
        roles,
        [
            ArgumentRole::Param("arg0".into()),
            ArgumentRole::Param("arg1".into()),
            ArgumentRole::Field("arg2".into()),
            ArgumentRole::Field("arg3".into()),
            ArgumentRole::Scalar("arg4".into()),
        ]
    );
}

#[test]
fn loops_that_run_below_the_minimums_stay_in_the_else_branch() {
    // In the first nest the source statement runs for every m (it writes row 0), the second
    // needs m >= 2: below m = 2 only the original loops do the right thing. The second nest
    // runs only when its loops are non-empty, so its guard is exact.
    let text = r#"
func.func @f(%t: index, %n: index, %m: index, %A: memref<?x?xf64>, %B: memref<?xf64>) {
  %c = arith.constant 1.0 : f64
  affine.for %s = 0 to %t {
    affine.for %j = 0 to %n {
      affine.store %c, %A[0, %j] : memref<?x?xf64>
    }
    affine.for %i = 1 to %m {
      affine.for %j = 0 to %n {
        %a = affine.load %A[%i - 1, %j] : memref<?x?xf64>
        affine.store %a, %A[%i, %j] : memref<?x?xf64>
      }
    }
  }
  affine.for %i = 1 to %m {
    %b = affine.load %B[%i - 1] : memref<?xf64>
    affine.store %b, %B[%i] : memref<?xf64>
  }
  return
}
"#;
    let (module, report) = raise(text, RaiseOptions::default());
    assert_eq!(report.raised.iter().map(|r| r.kept_fallback).collect::<Vec<_>>(), [true, false]);
    let ir = &module.ir;
    let first = ops_named(ir, module.top, "stencil.program")[0];
    assert_eq!(ProgramParams::of(ir, first).mins, [1, 1, 2], "t, n, m");
    let ifs = ops_named(ir, module.top, "affine.if");
    assert_eq!(ifs.len(), 2);
    assert_eq!(ops_named(ir, ifs[0], "affine.for").len(), 4, "the else branch holds the original nest");
    assert!(ops_named(ir, ifs[1], "affine.for").is_empty());
    // A dynamic size the loops reach only up to a constant is a memref.dim parameter, and the
    // guard on it is not implied by the loops: the original loops stay.
    let text = r#"
func.func @g(%n: index, %A: memref<?x?xf64>) {
  %c = arith.constant 1.0 : f64
  affine.for %j = 0 to %n {
    affine.store %c, %A[0, %j] : memref<?x?xf64>
  }
  return
}
"#;
    let (module, report) = raise(text, RaiseOptions::default());
    assert!(report.raised[0].kept_fallback);
    let program = ops_named(&module.ir, module.top, "stencil.program")[0];
    assert_eq!(field_types(&module.ir, program), ["[arg1_dim0, arg0] x f64"]);
    assert_eq!(ops_named(&module.ir, module.top, "memref.dim").len(), 1);
}

#[test]
fn memref_arguments_must_be_known_distinct() {
    let text = JACOBI.replace(" {llvm.noalias}", "");
    let (module, report) = raise(&text, RaiseOptions::default());
    assert!(report.raised.is_empty());
    let [remark] = report.refused.as_slice() else { panic!("{:?}", report.refused) };
    assert_eq!(remark.severity, Severity::Remark);
    assert!(remark.message.starts_with(REFUSAL_PREFIX), "{}", remark.message);
    assert!(remark.message.contains("%arg2 and %arg3 may be the same buffer"), "{}", remark.message);
    // Untouched.
    assert_eq!(ops_named(&module.ir, module.top, "affine.for").len(), 3);
    assert!(ops_named(&module.ir, module.top, "stencil.program").is_empty());
    // The front end may vouch for them.
    let (_, report) = raise(&text, RaiseOptions { assume_no_alias: true, ..RaiseOptions::default() });
    assert_eq!(report.raised.len(), 1);
    // strict: an error instead.
    let registry = stencil_dialects::registry();
    let mut module = common::parse(&text, &registry, true);
    let err =
        raise_module(&mut module.ir, &registry, module.top, &RaiseOptions { strict: true, ..RaiseOptions::default() })
            .expect_err("strict refuses");
    assert_eq!(err.severity, Severity::Error);
}

#[test]
fn a_lowered_program_is_raised_with_its_declared_names() {
    let text = r#"
func.func @p(%arg0: memref<?xf64>, %arg1: f64, %arg2: index, %arg3: index)
    attributes {stencil.arg_names = ["A", "w"], stencil.param_names = ["T", "N"], stencil.param_mins = [1, 4],
                stencil.field_types = ["[N + 1] x f64"], stencil.defaults = {N = 9 : i64, T = 2 : i64}} {
  affine.for %t = 0 to %arg2 {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%arg3] {
      %a = affine.load %arg0[%i - 1] : memref<?xf64>
      %b = arith.mulf %a, %arg1 : f64
      affine.store %b, %arg0[%i] : memref<?xf64>
    }
  }
  return
}
"#;
    let (module, report) = raise(text, RaiseOptions::default());
    assert_eq!(report.raised.len(), 1);
    let ir = &module.ir;
    let program = ops_named(ir, module.top, "stencil.program")[0];
    let params = ProgramParams::of(ir, program);
    assert_eq!(params.names, ["T", "N"]);
    assert_eq!(params.mins, [1, 4]);
    assert_eq!(params.defaults, [Some(2), Some(9)]);
    assert_eq!(field_types(ir, program), ["[N + 1] x f64"]);
    assert_eq!(stencil_dialects::stencil::program_arg_names(ir, program), [Some("A".into()), Some("w".into())]);
}

#[test]
fn refusals_reach_the_pass_manager_as_remarks() {
    let text = r#"
func.func @f(%n: index, %A: memref<?xf64>) {
  %c = arith.constant 1.0 : f64
  affine.for %i = 0 to %n step 3 {
    affine.store %c, %A[%i] : memref<?xf64>
  }
  return
}
"#;
    let registry = stencil_dialects::registry();
    let mut passes = PassRegistry::with_generic_passes();
    stencil_passes::register_passes(&mut passes);
    let mut module = common::parse(text, &registry, true);
    let mut pm = PassManager::parse(
        "builtin.module(raise-affine-to-stencil)",
        &passes,
        PassManagerOptions { verify_each: true, ..Default::default() },
    )
    .unwrap();
    pm.run(&mut module.ir, module.top, &registry).unwrap();
    let reported = pm.take_reported();
    assert_eq!(reported.len(), 1);
    assert_eq!(reported[0].severity, Severity::Remark);
    assert!(reported[0].message.contains("the loop has step 3"), "{}", reported[0].message);
    assert_eq!(reported[0].location.file_position().map(|p| p.1), Some(4));
    assert!(pm.take_reported().is_empty(), "taken once");
}

#[test]
fn calls_become_func_calls_with_casts_where_the_lowered_signature_is_dynamic() {
    let text = r#"
func.func @lowered(%A: memref<?xf64>, %n: index) {
  return
}
func.func @caller(%A: memref<16xf64>, %n: index) {
  stencil.call @lowered(%A, %n) : (memref<16xf64>, index) -> ()
  return
}
"#;
    // The call above is invalid as written (a static memref where the function takes a dynamic
    // one) only for the verifier; build the situation lowering leaves: the call's operands are
    // those of the program (static), the lowered function's dynamic.
    let registry = stencil_dialects::registry();
    let mut module = common::parse(text, &registry, false);
    let funcs = ops_named(&module.ir, module.top, "func.func");
    let changed = lower_stencil_calls(&mut module.ir, module.top, "lowered", funcs[0]).unwrap();
    assert_eq!(changed, 1);
    let ir = &module.ir;
    assert!(ops_named(ir, module.top, "stencil.call").is_empty());
    let casts = ops_named(ir, module.top, "memref.cast");
    assert_eq!(casts.len(), 1);
    let call = ops_named(ir, module.top, "func.call")[0];
    assert_eq!(ir.operand(call, 0), ir.result(casts[0], 0));
    stencil_ir::verifier::verify(ir, &registry, module.top, false).unwrap_or_else(|d| panic!("{}", d.render()));
    // An operand that no cast can pass is an error.
    let text = r#"
func.func @lowered(%A: memref<?xf32>) {
  return
}
func.func @caller(%A: memref<16xf64>) {
  stencil.call @lowered(%A) : (memref<16xf64>) -> ()
  return
}
"#;
    let mut module = common::parse(text, &registry, false);
    let funcs = ops_named(&module.ir, module.top, "func.func");
    let err = lower_stencil_calls(&mut module.ir, module.top, "lowered", funcs[0]).unwrap_err();
    assert!(err.contains("cannot be passed as 'memref<?xf32>'"), "{err}");
}
