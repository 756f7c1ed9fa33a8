//! `extract_scop` and the `stencil-to-poly` pass: statements, domains, β schedules, accesses,
//! the way back to the IR, and the located errors for what the model cannot represent.

mod common;

use stencil_dialects::stencil::ApplyOrder;
use stencil_ir::pass::{PassManager, PassManagerOptions, PassRegistry};
use stencil_ir::{Attribute, DialectRegistry, Ir, OpId};
use stencil_passes::stencil_to_poly::{extract_scop, ScopInfo, BETA_ATTR, STATEMENT_ATTR};
use stencil_poly::{AccessId, AccessRef, Limits, Polyhedron, StatementId};

fn extract(text: &str) -> (stencil_ir::Module, ScopInfo) {
    let registry = stencil_dialects::registry();
    let module = common::parse(text, &registry, true);
    let info =
        extract_scop(&module.ir, &registry, common::program(&module)).unwrap_or_else(|d| panic!("{}", d.render()));
    (module, info)
}

/// Schedule rows of statement `s`, written with its iterator names.
fn rows(info: &ScopInfo, s: usize) -> Vec<String> {
    let st = &info.scop.statements()[s];
    st.schedule().rows().iter().map(|r| r.display(st.space()).to_string()).collect()
}

fn accesses(info: &ScopInfo, s: usize) -> Vec<String> {
    (0..info.scop.statements()[s].accesses().len())
        .map(|a| info.scop.access_text(StatementId(s), AccessId(a)))
        .collect()
}

fn ops_named(ir: &Ir, root: OpId, name: &str) -> Vec<OpId> {
    ir.collect_ops(root, stencil_ir::ir::WalkOrder::PreOrder).into_iter().filter(|&o| ir.op_name(o) == name).collect()
}

const NESTED: &str = r#"
stencil.program @nested(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>, %w: f64,
                        %C: !stencil.field<[T, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] {
  stencil.apply @init writes %B over [0, 0] to [N, M] {
    %c = stencil.access %A[0, 0] : f64
    stencil.yield %c : f64
  }
  stencil.iterate %t = 0 to T {
    stencil.iterate %t_0 = 1 to 2 * T + 1 {
      stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
        %n = stencil.access %A[-1, 0] : f64
        %e = stencil.access %B[0, 1] : f64
        %s = arith.addf %n, %e : f64
        %v = arith.mulf %s, %w : f64
        stencil.yield %v : f64
      }
    }
    stencil.apply @R writes %B over [1, 1] to [N - 1, M - 1] order reverse {
      %j = stencil.index 1
      %x = stencil.access %C at [%t, %j - 1] : f64
      stencil.yield %x : f64
    }
  }
}
"#;

#[test]
fn statements_domains_schedules_and_accesses() {
    let (module, info) = extract(NESTED);
    let scop = &info.scop;
    let names: Vec<&str> = scop.statements().iter().map(|s| s.name()).collect();
    assert_eq!(names, ["init", "S", "R"]);
    assert_eq!(scop.params(), ["T", "N", "M"]);
    // The context is the declared minimums, nothing more.
    let context = Polyhedron::parse(scop.param_space().clone(), "T >= 1, N >= 3, M >= 3").unwrap();
    assert!(scop.context().is_equal_set(&context, &Limits::default()).unwrap());
    // Domains: iterates outermost first, then the box.
    let dims: Vec<Vec<String>> = scop.statements().iter().map(|s| s.space().dims().to_vec()).collect();
    assert_eq!(dims, [vec!["i", "j"], vec!["t", "t_0", "i", "j"], vec!["t", "i", "j"]]);
    let s = &scop.statements()[1];
    let want =
        Polyhedron::parse(s.space().clone(), "0 <= t <= T - 1, 1 <= t_0 <= 2T, 1 <= i <= N - 2, 1 <= j <= M - 2")
            .unwrap();
    assert!(s.domain().is_equal_set(&want, &Limits::default()).unwrap(), "{}", s.domain());
    // β: textual positions per body, point dimensions reversed for `order reverse`.
    assert_eq!(
        info.statements.iter().map(|s| s.beta.clone()).collect::<Vec<_>>(),
        [vec![0, 0, 0], vec![1, 0, 0, 0, 0], vec![1, 1, 0, 0]]
    );
    assert_eq!(rows(&info, 0), ["0", "i", "0", "j", "0"]);
    assert_eq!(rows(&info, 1), ["1", "t", "0", "t_0", "0", "i", "0", "j", "0"]);
    assert_eq!(rows(&info, 2), ["1", "t", "1", "-i", "0", "-j", "0"]);
    assert_eq!(info.statements[2].order, ApplyOrder::Reverse);
    // Reads in body order (offset and general forms), then the write; scalars are not arrays.
    assert_eq!(accesses(&info, 0), ["A[i, j]", "B[i, j]"]);
    assert_eq!(accesses(&info, 1), ["A[i - 1, j]", "B[i, j + 1]", "A[i, j]"]);
    assert_eq!(accesses(&info, 2), ["C[t, j - 1]", "B[i, j]"]);
    assert_eq!(scop.arrays().iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["A", "B", "C"]);
    // The way back: applies, iterates, access ops.
    let ir = &module.ir;
    let applies = ops_named(ir, module.top, "stencil.apply");
    let iterates = ops_named(ir, module.top, "stencil.iterate");
    let reads = ops_named(ir, module.top, "stencil.access");
    assert_eq!(info.statements.iter().map(|s| s.apply).collect::<Vec<_>>(), applies);
    assert_eq!(info.statements[1].iterates, iterates);
    assert_eq!(info.statements[2].iterates, iterates[..1]);
    assert_eq!(info.statement_of(applies[2]), Some(StatementId(2)));
    let at = |s: usize, a: usize| info.access_op(AccessRef { statement: StatementId(s), access: AccessId(a) });
    assert_eq!(at(1, 0), Some(reads[1]));
    assert_eq!(at(1, 1), Some(reads[2]));
    assert_eq!(at(1, 2), Some(applies[1]));
    assert_eq!(at(1, 3), None);
    assert_eq!(info.program_name(ir), "nested");
    assert_eq!(info.array_of(ir.operands(applies[0])[0]).map(|a| a.0), Some(1));
    scop.check_schedules(&Limits::default()).unwrap();
}

#[test]
fn iterator_names_avoid_parameter_names() {
    let (_, info) = extract(
        r#"stencil.program @p(%A: !stencil.field<[i] x f64>) params [t >= 1, i >= 3] {
             stencil.iterate %t = 0 to t {
               stencil.apply @S writes %A over [1] to [i - 1] {
                 %c = stencil.access %A[1] : f64
                 stencil.yield %c : f64
               }
             }
           }"#,
    );
    assert_eq!(info.scop.statements()[0].space().dims(), ["t_", "i_"]);
    assert_eq!(accesses(&info, 0), ["A[i_ + 1]", "A[i_]"]);
}

/// The schedule order of a tiny program is its documented execution order: a top-level apply,
/// then per time step a forward apply and a reverse one (written out by hand), and the
/// direct executor agrees.
#[test]
fn schedule_order_is_the_stencil_semantics() {
    let text = r#"
stencil.program @tiny(%A: !stencil.field<[N, N] x f64>) params [T >= 1, N >= 3] {
  stencil.apply @I writes %A over [0, 0] to [1, 2] {
    %c = stencil.access %A[0, 0] : f64
    stencil.yield %c : f64
  }
  stencil.iterate %t = 0 to T {
    stencil.apply @F writes %A over [1, 1] to [N - 1, N - 1] {
      %c = stencil.access %A[-1, 0] : f64
      stencil.yield %c : f64
    }
    stencil.apply @B writes %A over [1, 1] to [N - 1, N - 1] order reverse {
      %c = stencil.access %A[1, 0] : f64
      stencil.yield %c : f64
    }
  }
}"#;
    let (module, info) = extract(text);
    let params = [2, 4];
    let mut scheduled = Vec::new();
    for s in info.scop.statements() {
        for it in s.domain().enumerate(&params, &Limits::default()).unwrap() {
            let point: Vec<i64> = it.iter().chain(&params).copied().collect();
            scheduled.push((s.schedule().eval(&point).unwrap(), s.name().to_string(), it));
        }
    }
    scheduled.sort();
    let order: Vec<(String, Vec<i64>)> = scheduled.into_iter().map(|(_, s, it)| (s, it)).collect();
    let mut expected: Vec<(String, Vec<i64>)> = vec![("I".into(), vec![0, 0]), ("I".into(), vec![0, 1])];
    for t in 0..2 {
        for p in [[1, 1], [1, 2], [2, 1], [2, 2]] {
            expected.push(("F".into(), vec![t, p[0], p[1]]));
        }
        for p in [[2, 2], [2, 1], [1, 2], [1, 1]] {
            expected.push(("B".into(), vec![t, p[0], p[1]]));
        }
    }
    assert_eq!(order, expected);
    let program = common::program(&module);
    let executed: Vec<(String, Vec<i64>)> = common::execute(&module.ir, program, &params)
        .instances
        .into_iter()
        .map(|(apply, it)| (module.ir.attr(apply, "name").and_then(Attribute::as_str).unwrap().to_string(), it))
        .collect();
    assert_eq!(executed, expected);
}

/// Extraction on IR that may not verify (extract_scop must not rely on the verifier).
fn extract_error(text: &str, verified: bool) -> stencil_ir::Diagnostic {
    let registry = stencil_dialects::registry();
    let module = common::parse(text, &registry, verified);
    let program = common::program(&module);
    match extract_scop(&module.ir, &registry, program) {
        Ok(info) => panic!("extracted a SCoP:\n{}", info.scop),
        Err(d) => d,
    }
}

fn line_of(d: &stencil_ir::Diagnostic) -> u32 {
    d.location.file_position().map(|(_, line, _)| line).unwrap_or(0)
}

fn one_apply(body: &str) -> String {
    format!(
        "stencil.program @p(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] {{\n\
         stencil.iterate %t = 0 to T {{\n\
         stencil.apply @S writes %A over [1] to [N - 1] {{\n{body}\n}}\n}}\n}}"
    )
}

#[test]
fn effects_other_than_field_reads_are_errors() {
    let d = extract_error(
        &one_apply("%m = memref.alloc() : memref<4xf64>\n%c = stencil.access %A[0] : f64\nstencil.yield %c : f64"),
        true,
    );
    assert!(d.message.contains("'memref.alloc' op cannot be part of a SCoP"), "{}", d.render());
    assert_eq!(line_of(&d), 4);
    let d = extract_error(
        &one_apply("\"test.effect\"() : () -> ()\n%c = stencil.access %A[0] : f64\nstencil.yield %c : f64"),
        true,
    );
    assert!(d.message.contains("'test.effect' op cannot be part of a SCoP"), "{}", d.render());
}

/// The verifier refuses two applies of one name; extraction refuses them too in IR that did
/// not go through it.
#[test]
fn statement_names_must_be_distinct() {
    let text = one_apply("%c = stencil.access %A[0] : f64\nstencil.yield %c : f64").replace(
        "}\n}\n}",
        "}\nstencil.apply @S writes %A over [1] to [N - 1] {\n%c = stencil.access %A[0] : f64\nstencil.yield %c : f64\n}\n}\n}",
    );
    let d = extract_error(&text, false);
    assert!(d.message.contains("reuses the statement name @S"), "{}", d.render());
    assert_eq!(line_of(&d), 7);
    assert_eq!(d.notes.len(), 1);
    assert_eq!(line_of(&d.notes[0]), 3);
}

#[test]
fn what_the_verifier_rejects_is_an_error_not_a_panic() {
    // A non-affine general index.
    let d = extract_error(
        &one_apply("%i = stencil.index 0\n%c = stencil.access %A at [%i floordiv 2] : f64\nstencil.yield %c : f64"),
        false,
    );
    assert!(d.message.contains("is not affine"), "{}", d.render());
    assert_eq!(line_of(&d), 5);
    // An index operand that is neither an induction variable nor a coordinate.
    let d = extract_error(
        &one_apply("%i = stencil.index 0\n%k = arith.addi %i, %i : index\n%c = stencil.access %A at [%k] : f64\nstencil.yield %c : f64"),
        false,
    );
    assert!(
        d.message.contains("neither an enclosing stencil.iterate induction variable nor a stencil.index"),
        "{}",
        d.render()
    );
    // A non-affine bound.
    let d = extract_error(
        &one_apply("%c = stencil.access %A[0] : f64\nstencil.yield %c : f64")
            .replace("to [N - 1]", "to [N floordiv 2]"),
        false,
    );
    assert!(d.message.contains("is not affine in the parameters"), "{}", d.render());
    assert_eq!(line_of(&d), 3);
    // An op that is neither an iterate nor an apply in a program body.
    let d = extract_error(
        "stencil.program @p(%A: !stencil.field<[N] x f64>) params [N >= 3] {\n%c = arith.constant 1 : index\n}",
        false,
    );
    assert!(d.message.contains("'arith.constant' op cannot be part of a SCoP"), "{}", d.render());
    // An offset access of the wrong rank.
    let d = extract_error(&one_apply("%c = stencil.access %A[0, 1] : f64\nstencil.yield %c : f64"), false);
    assert!(d.message.contains("has 2 offsets on a rank-1 field"), "{}", d.render());
    // Not a program at all.
    let registry = stencil_dialects::registry();
    let module = common::parse("func.func @f() {\n  return\n}", &registry, true);
    let d = extract_scop(&module.ir, &registry, module.top).unwrap_err();
    assert!(d.message.contains("is not a stencil.program"), "{}", d.render());
}

fn pass_manager(registry: &PassRegistry) -> PassManager {
    let options = PassManagerOptions { verify_each: true, ..Default::default() };
    PassManager::parse("builtin.module(stencil-to-poly)", registry, options).unwrap()
}

#[test]
fn the_pass_records_statement_ids_and_betas_idempotently() {
    let dialects: DialectRegistry = stencil_dialects::registry();
    let mut passes = PassRegistry::with_generic_passes();
    stencil_passes::register_passes(&mut passes);
    let mut module = common::parse(NESTED, &dialects, true);
    let mut pm = pass_manager(&passes);
    pm.run(&mut module.ir, module.top, &dialects).unwrap();
    let once = stencil_ir::printer::print_op(&module.ir, &dialects, module.top, Default::default());
    let applies = ops_named(&module.ir, module.top, "stencil.apply");
    let attrs: Vec<(i64, Vec<i64>)> = applies
        .iter()
        .map(|&a| {
            let ir = &module.ir;
            (
                ir.attr(a, STATEMENT_ATTR).and_then(Attribute::as_i64).unwrap(),
                ir.attr(a, BETA_ATTR).and_then(Attribute::as_dense_array).unwrap().to_vec(),
            )
        })
        .collect();
    assert_eq!(attrs, [(0, vec![0, 0, 0]), (1, vec![1, 0, 0, 0, 0]), (2, vec![1, 1, 0, 0])]);
    pm.run(&mut module.ir, module.top, &dialects).unwrap();
    let twice = stencil_ir::printer::print_op(&module.ir, &dialects, module.top, Default::default());
    assert_eq!(once, twice);
    // The annotated program still extracts to the same SCoP.
    let info = extract_scop(&module.ir, &dialects, common::program(&module)).unwrap();
    assert_eq!(info.scop, extract(NESTED).1.scop);
}

#[test]
fn the_pass_fails_with_the_located_error() {
    let dialects = stencil_dialects::registry();
    let mut passes = PassRegistry::with_generic_passes();
    stencil_passes::register_passes(&mut passes);
    let text =
        one_apply("%m = memref.alloc() : memref<4xf64>\n%c = stencil.access %A[0] : f64\nstencil.yield %c : f64");
    let mut module = common::parse(&text, &dialects, true);
    let d = pass_manager(&passes).run(&mut module.ir, module.top, &dialects).unwrap_err();
    assert!(d.message.contains("cannot be part of a SCoP"), "{}", d.render());
    assert_eq!(line_of(&d), 4);
}
