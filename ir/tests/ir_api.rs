//! Builder/rewriter API behaviour: insertion points, use lists, replace-all-uses, erase,
//! clone, walk, and the print/parse round trip of IR built programmatically.

use stencil_ir::ir::{ValueMapping, WalkOrder};
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::registry::{DialectDef, DialectRegistry, OpDef, OpTraits};
use stencil_ir::verifier::verify;
use stencil_ir::{InsertPoint, Ir, Location, OpId, OperationState, SourceFile, Type};

/// A registry with a module op (so the implicit top-level module is known) and nothing else;
/// tests use unregistered `test.*` ops.
fn registry() -> DialectRegistry {
    let mut r = DialectRegistry::new();
    r.register_dialect(DialectDef::new("builtin"));
    r.register_op(OpDef {
        traits: OpTraits {
            isolated_from_above: true,
            symbol_table: true,
            no_terminator: true,
            single_block: true,
            ..OpTraits::default()
        },
        ..OpDef::new("builtin.module", "module")
    });
    r
}

fn parse(text: &str) -> stencil_ir::Module {
    let r = registry();
    parse_source(&SourceFile::new("t.mlir", text), ParserConfig { registry: &r, allow_unregistered: true })
        .expect("parses")
}

fn print(ir: &Ir, op: OpId) -> String {
    print_op(ir, &registry(), op, PrintOptions { generic: true, debug_info: false })
}

fn state(name: &str, operands: &[stencil_ir::ValueId], results: &[Type]) -> OperationState {
    OperationState {
        operands: operands.to_vec(),
        result_types: results.to_vec(),
        ..OperationState::new(name, Location::Unknown)
    }
}

#[test]
fn build_insert_and_print() {
    let mut ir = Ir::new();
    let region = ir.create_region();
    let block = ir.append_block(region, &[]);
    let a = ir.build(InsertPoint::End(block), state("test.a", &[], &[Type::I32]));
    let av = ir.result(a, 0);
    let c = ir.build(InsertPoint::End(block), state("test.c", &[av], &[]));
    // Insert between a and c.
    let b = ir.build(InsertPoint::Before(c), state("test.b", &[av, av], &[Type::F32]));
    // And one at the very start.
    ir.build(InsertPoint::Start(block), state("test.first", &[], &[]));
    let mut module = OperationState::new("builtin.module", Location::Unknown);
    module.regions.push(region);
    let top = ir.create_op(module);
    assert_eq!(ir.block_ops(block).len(), 4);
    assert_eq!(ir.next_op(a), Some(b));
    assert_eq!(ir.uses(av).len(), 3);
    let text = print(&ir, top);
    let expected = "\"builtin.module\"() ({\n  \"test.first\"() : () -> ()\n  %0 = \"test.a\"() : () -> i32\n  %1 = \"test.b\"(%0, %0) : (i32, i32) -> f32\n  \"test.c\"(%0) : (i32) -> ()\n}) : () -> ()";
    assert_eq!(text, expected);
    verify(&ir, &registry(), top, true).expect("valid");
}

#[test]
fn replace_all_uses_and_erase() {
    let mut m = parse("%a = \"test.a\"() : () -> i32\n%b = \"test.b\"() : () -> i32\n\"test.use\"(%a, %a, %b) : (i32, i32, i32) -> ()\n");
    let ir = &mut m.ir;
    let ops = ir.collect_ops(m.top, WalkOrder::PreOrder);
    let (a, b, user) = (ops[1], ops[2], ops[3]);
    let (av, bv) = (ir.result(a, 0), ir.result(b, 0));
    ir.replace_all_uses(av, bv);
    assert!(ir.is_unused(av));
    assert_eq!(ir.uses(bv).len(), 3);
    assert_eq!(ir.operands(user), &[bv, bv, bv]);
    ir.erase_op(a);
    assert!(!ir.is_alive(a));
    assert_eq!(ir.block_ops(ir.parent_block(b).unwrap()).len(), 2);
    verify(ir, &registry(), m.top, true).expect("still valid");
    // Erasing the definition of a used value leaves an undefined operand: the verifier says so.
    ir.erase_op(b);
    let err = verify(ir, &registry(), m.top, true).unwrap_err();
    assert!(err.message.contains("undefined or erased value"), "{}", err.message);
}

#[test]
fn set_operand_updates_use_lists() {
    let mut m = parse("%a = \"test.a\"() : () -> i32\n%b = \"test.b\"() : () -> i32\n\"test.use\"(%a) : (i32) -> ()\n");
    let ir = &mut m.ir;
    let ops = ir.collect_ops(m.top, WalkOrder::PreOrder);
    let (av, bv, user) = (ir.result(ops[1], 0), ir.result(ops[2], 0), ops[3]);
    ir.set_operand(user, 0, bv);
    assert!(ir.is_unused(av));
    assert_eq!(ir.uses(bv).len(), 1);
    ir.set_operands(user, &[av, bv]);
    assert_eq!((ir.uses(av).len(), ir.uses(bv).len()), (1, 1));
}

#[test]
fn clone_remaps_nested_values() {
    let text = "\"test.loop\"() ({\n^bb0(%i: index):\n  %x = \"test.x\"(%i) : (index) -> f32\n  \"test.y\"(%x) : (f32) -> ()\n}) : () -> ()\n";
    let mut m = parse(text);
    let ir = &mut m.ir;
    let lp = ir.collect_ops(m.top, WalkOrder::PreOrder)[1];
    let mut mapping = ValueMapping::new();
    let copy = ir.clone_op(lp, &mut mapping);
    ir.insert(copy, InsertPoint::After(lp));
    let printed = print(ir, m.top);
    // Both loops print identically (sibling regions reuse names, as in MLIR); the copy's
    // values are its own.
    let body = "({\n  ^bb0(%arg0: index):\n    %0 = \"test.x\"(%arg0) : (index) -> f32\n    \"test.y\"(%0) : (f32) -> ()\n  }) : () -> ()";
    assert_eq!(printed.matches(body).count(), 2, "{printed}");
    let orig_arg = ir.block_args(ir.entry_block(ir.region(lp, 0)).unwrap())[0];
    let copy_arg = ir.block_args(ir.entry_block(ir.region(copy, 0)).unwrap())[0];
    assert_ne!(orig_arg, copy_arg);
    assert_eq!(mapping.lookup(orig_arg), copy_arg);
    verify(ir, &registry(), m.top, true).expect("valid");
}

#[test]
fn walk_orders_and_inline_block() {
    let text = "\"test.outer\"() ({\n  \"test.inner\"() : () -> ()\n}) : () -> ()\n\"test.after\"() : () -> ()\n";
    let mut m = parse(text);
    let ir = &mut m.ir;
    let names =
        |ir: &Ir, order| ir.collect_ops(m.top, order).iter().map(|&o| ir.op_name(o).to_string()).collect::<Vec<_>>();
    assert_eq!(names(ir, WalkOrder::PreOrder), ["builtin.module", "test.outer", "test.inner", "test.after"]);
    assert_eq!(names(ir, WalkOrder::PostOrder), ["test.inner", "test.outer", "test.after", "builtin.module"]);
    let outer = ir.collect_ops(m.top, WalkOrder::PreOrder)[1];
    let body = ir.entry_block(ir.region(outer, 0)).unwrap();
    ir.inline_block(body, InsertPoint::Before(outer), &[]);
    ir.erase_op(outer);
    assert_eq!(names(ir, WalkOrder::PreOrder), ["builtin.module", "test.inner", "test.after"]);
}

#[test]
fn forward_references_resolve_in_graph_like_order() {
    // A use before the definition parses (MLIR allows forward references syntactically) and
    // is then rejected by the verifier's dominance check, not by the parser.
    let m = parse("\"test.use\"(%later) : (i32) -> ()\n%later = \"test.def\"() : () -> i32\n");
    let err = verify(&m.ir, &registry(), m.top, true).unwrap_err();
    assert_eq!(err.message, "operand #0 does not dominate this use");
    assert_eq!(err.location.file_position(), Some(("t.mlir", 1, 1)));
}

#[test]
fn generic_round_trip_is_a_fixed_point() {
    let text = "\"test.a\"() <{p = 1 : i32}> ({\n^bb0(%x: f32):\n  %y:2 = \"test.b\"(%x) : (f32) -> (f32, i1)\n^bb1:\n  \"test.c\"(%y#1) : (i1) -> ()\n}) {d = [affine_map<(d0) -> (d0 mod 4)>]} : () -> ()\n";
    let m1 = parse(text);
    let p1 = print(&m1.ir, m1.top);
    let m2 = parse(&p1);
    let p2 = print(&m2.ir, m2.top);
    assert_eq!(p1, p2);
}
