//! Unit tests of the affine dialect: printed affine expressions (checked against mlir-opt 22's
//! output) re-parse to the same maps, folders, and robustness on malformed generic ops.

use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::pass::canonicalize::sweep;
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::{Attribute, Module, SourceFile};

fn parse(text: &str) -> Module {
    let registry = crate::registry();
    let source = SourceFile::new("test.mlir", text);
    match parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: true }) {
        Ok(m) => m,
        Err(e) => panic!("{}\n{text}", e.render()),
    }
}

fn print(module: &Module) -> String {
    print_op(&module.ir, &crate::registry(), module.top, PrintOptions::default())
}

fn verify(module: &Module) -> Result<(), String> {
    stencil_ir::verifier::verify(&module.ir, &crate::registry(), module.top, true).map_err(|e| e.render())
}

/// The `map` (or `m`) attributes of all ops, in program order.
fn maps(module: &Module) -> Vec<Attribute> {
    let ir = &module.ir;
    ir.collect_ops(module.top, stencil_ir::ir::WalkOrder::PreOrder)
        .into_iter()
        .filter_map(|op| ir.attr(op, "map").or_else(|| ir.attr(op, "m")).cloned())
        .collect()
}

/// Subscripts with negative coefficients, divisions, nested parentheses and symbols times
/// constants, and the text mlir-opt 22 prints for each (it also reorders dims before
/// symbols and folds `x - (x floordiv 4) * 4` into `x mod 4`).
const TRICKY: [(&str, &str); 10] = [
    ("-%i + 3, %i * -2 + %j * -3", "-%arg1 + 3, %arg1 * -2 - %arg2 * 3"),
    ("(%i + %j) floordiv 4, (%i * 3 - 1) ceildiv 2", "(%arg1 + %arg2) floordiv 4, (%arg1 * 3 - 1) ceildiv 2"),
    ("(%i mod 3) mod 9, ((%i + 1) floordiv 2) * -1", "(%arg1 mod 3) mod 9, -((%arg1 + 1) floordiv 2)"),
    (
        "symbol(%n) * 4 - %i, %j * symbol(%m) + symbol(%n) * -2",
        "-%arg1 + symbol(%arg3) * 4, %arg2 * symbol(%arg4) - symbol(%arg3) * 2",
    ),
    (
        "-(%i - %j) + ((symbol(%n) floordiv 3) mod 4), (-%i) floordiv 2",
        "-(%arg1 - %arg2) + (symbol(%arg3) floordiv 3) mod 4, (-%arg1) floordiv 2",
    ),
    (
        "%i - (%j + symbol(%n)), 2 * (symbol(%m) + 3) - (%i floordiv 2) * 2",
        "%arg1 - (%arg2 + symbol(%arg3)), (%arg1 floordiv 2) * -2 + (symbol(%arg4) + 3) * 2",
    ),
    ("%i - (%i floordiv 4) * 4, %j + %i - %i", "%arg1 mod 4, %arg1 + %arg2 - %arg1"),
    ("%j, %i", "%arg2, %arg1"),
    ("symbol(%n), symbol(%m) + symbol(%n)", "symbol(%arg3), symbol(%arg3) + symbol(%arg4)"),
    // A value first used as a dim stays a dim when later written as a symbol, as in MLIR.
    ("%i, symbol(%i)", "%arg1, %arg1"),
];

#[test]
fn tricky_subscripts_print_like_mlir_and_reparse_to_the_same_maps() {
    let body: String = TRICKY
        .iter()
        .enumerate()
        .map(|(i, (subscripts, _))| format!("  %v{i} = affine.load %A[{subscripts}] : memref<10x10xf32>\n"))
        .collect();
    let text = format!(
        "func.func @f(%A: memref<10x10xf32>, %i: index, %j: index, %n: index, %m: index) {{\n{body}  return\n}}\n"
    );
    let first = parse(&text);
    verify(&first).expect("verifies");
    let printed = print(&first);
    for (i, (_, expected)) in TRICKY.iter().enumerate() {
        let line = format!("%{i} = affine.load %arg0[{expected}] : memref<10x10xf32>");
        assert!(printed.contains(&line), "missing `{line}` in\n{printed}");
    }
    let second = parse(&printed);
    assert_eq!(maps(&first), maps(&second));
    assert_eq!(print(&second), printed);
    // The generic form carries the maps themselves; it re-parses to the same maps too.
    let generic =
        print_op(&first.ir, &crate::registry(), first.top, PrintOptions { generic: true, ..Default::default() });
    assert_eq!(maps(&parse(&generic)), maps(&first));
}

/// A map a pass built unfolded because its fold would leave i64 (`(d0 * 2^32) * 2^32`,
/// which MLIR would fold to `0`) does not verify: no op may stand for a wrapped computation.
#[test]
fn verifier_rejects_pass_built_maps_whose_folds_overflow() {
    use stencil_ir::affine::{AffineExpr, AffineMap};
    let mut module = parse(
        "func.func @f(%i: index) -> index {\n  %v = affine.apply affine_map<(d0) -> (d0 * 4294967296)>(%i)\n  return %v : index\n}\n",
    );
    verify(&module).expect("verifies before the change");
    let apply = module
        .ir
        .collect_ops(module.top, stencil_ir::ir::WalkOrder::PreOrder)
        .into_iter()
        .find(|&op| module.ir.op_name(op) == "affine.apply")
        .expect("an affine.apply");
    let two32 = AffineExpr::Constant(1 << 32);
    let unfolded = AffineExpr::Dim(0) * two32.clone() * two32;
    assert!(matches!(unfolded, AffineExpr::Binary(..)), "kept unfolded, not wrapped to 0: {unfolded}");
    module.ir.set_property(
        apply,
        "map",
        Attribute::AffineMap(std::sync::Arc::new(AffineMap::new(1, 0, vec![unfolded]))),
    );
    let err = verify(&module).unwrap_err();
    assert!(
        err.contains("'affine.apply' op attribute 'map': integer overflow in affine expression: 4294967296 * 4294967296 does not fit in 64 bits"),
        "{err}"
    );
}

/// An op whose map numbers its operands in another order than their first use in the printed
/// text (as a pass may build it) prints as the parser will number them, so print → parse →
/// print is a fixed point (found by the fuzz harness on a `poly-codegen` bound).
#[test]
fn inline_operands_print_in_first_use_order() {
    let text = r#"func.func @f(%A: memref<10x10xf32>, %n: index, %m: index, %i: index) {
  %v = "affine.load"(%A, %n, %m) <{map = affine_map<()[s0, s1] -> (s1, s0 + s1)>}> : (memref<10x10xf32>, index, index) -> f32
  %w = "affine.load"(%A, %i, %n, %m) <{map = affine_map<(d0)[s0, s1] -> (s1 + d0, (s0 + s1) floordiv 2)>}> : (memref<10x10xf32>, index, index, index) -> f32
  return
}
"#;
    let first = parse(text);
    verify(&first).expect("verifies");
    let printed = print(&first);
    // `s0 + s1` over (%n, %m) prints with %m first: %m is the first operand the text uses.
    assert!(printed.contains("affine.load %arg0[symbol(%arg2), symbol(%arg2) + symbol(%arg1)]"), "{printed}");
    assert!(
        printed.contains("affine.load %arg0[%arg3 + symbol(%arg2), (symbol(%arg2) + symbol(%arg1)) floordiv 2]"),
        "{printed}"
    );
    let second = parse(&printed);
    assert_eq!(print(&second), printed);
    // The values computed are the same: (m, n + m) and (i + m, (n + m) floordiv 2).
    let generic =
        print_op(&second.ir, &crate::registry(), second.top, PrintOptions { generic: true, ..Default::default() });
    assert!(
        generic.contains("affine_map<()[s0, s1] -> (s0, s0 + s1)>}> : (memref<10x10xf32>, index, index)"),
        "{generic}"
    );
}

#[test]
fn printed_maps_reparse_to_equal_maps() {
    // Each map prints as mlir-opt 22 prints it, and that text parses back to an equal map.
    let cases = [
        ("(d0, d1) -> (d1 + d0)", "(d0, d1) -> (d0 + d1)"),
        ("(d0)[s0] -> (s0 - d0 - 1)", "(d0)[s0] -> (-d0 + s0 - 1)"),
        ("(d0)[s0, s1] -> (s1 * s0 + 2 * d0)", "(d0)[s0, s1] -> (d0 * 2 + s0 * s1)"),
        ("(d0) -> (-(d0 + 1) floordiv 2)", "(d0) -> ((-(d0 + 1)) floordiv 2)"),
        ("(d0) -> (d0 * 4 mod 2, (d0 * 4 + 3) mod 2, d0 * 128 floordiv 64)", "(d0) -> (0, 1, d0 * 2)"),
        ("(d0, d1) -> ((d0 + d1) + (d1 floordiv 4) * -4)", "(d0, d1) -> (d0 + d1 mod 4)"),
        ("(d0) -> (d0 floordiv -2, 7 floordiv -2, d0 mod 0)", "(d0) -> (d0 floordiv -2, -4, d0 mod 0)"),
        ("(d0)[s0] -> (d0 * (s0 + 2), d0 ceildiv (s0 + 1))", "(d0)[s0] -> (d0 * (s0 + 2), d0 ceildiv (s0 + 1))"),
        ("() -> ()", "() -> ()"),
    ];
    for (input, expected) in cases {
        let module = parse(&format!("\"test.op\"() {{m = affine_map<{input}>}} : () -> ()\n"));
        let printed = print(&module);
        assert!(printed.contains(&format!("affine_map<{expected}>")), "{input}: got\n{printed}");
        assert_eq!(maps(&parse(&printed)), maps(&module), "{input}");
    }
}

#[test]
fn reassociated_sums_keep_their_grouping_so_printing_is_a_fixed_point() {
    // MLIR rewrites `(a + b) + (x floordiv q) * c` into `a + (b + (x floordiv q) * c)` when
    // the inner sum simplifies. mlir-opt 22 then prints the inner sum without parentheses, so
    // its output parses to a differently associated sum and changes on a second round. We
    // keep the parentheses of a right-nested sum: the first print is already a fixed point.
    let module = parse("\"test.op\"() {m = affine_map<(d0)[s0] -> ((d0 - s0) - d0 floordiv 3)>} : () -> ()\n");
    let once = print(&module);
    assert!(once.contains("affine_map<(d0)[s0] -> (d0 + (-(d0 floordiv 3) - s0))>"), "{once}");
    assert_eq!(print(&parse(&once)), once);
}

fn canonicalize(text: &str) -> String {
    let registry = crate::registry();
    let mut module = parse(text);
    verify(&module).expect("verifies");
    for _ in 0..10 {
        if !sweep(&mut module.ir, module.top, &registry) {
            break;
        }
    }
    print_op(&module.ir, &registry, module.top, PrintOptions::default())
}

#[test]
fn apply_min_max_fold_constant_operands() {
    let out = canonicalize(
        "func.func @f(%n: index) -> (index, index, index, index) {
  %c2 = arith.constant 2 : index
  %a = affine.apply affine_map<(d0)[s0] -> (d0 * 3 + s0)>(%c2)[%c2]
  %b = affine.min affine_map<(d0) -> (d0, 5, 7)>(%c2)
  %c = affine.max affine_map<(d0) -> (d0, 5, 7)>(%c2)
  %d = affine.apply affine_map<(d0, d1) -> (d0 * 2)>(%c2, %n)
  return %a, %b, %c, %d : index, index, index, index
}",
    );
    for c in
        ["arith.constant 8 : index", "arith.constant 7 : index", "arith.constant 4 : index", "arith.constant 2 : index"]
    {
        assert!(out.contains(c), "missing `{c}` in\n{out}");
    }
    assert!(!out.contains("affine."), "{out}");
}

#[test]
fn apply_and_single_result_min_fold_to_their_operand() {
    let out = canonicalize(
        "func.func @f(%n: index, %m: index) -> (index, index) {
  %a = affine.apply affine_map<(d0)[s0] -> (s0)>(%n)[%m]
  %b = affine.min affine_map<(d0) -> (d0)>(%n)
  return %a, %b : index, index
}",
    );
    assert!(out.contains("return %arg1, %arg0 : index, index"), "{out}");
}

#[test]
fn folding_keeps_division_by_zero_and_unknown_operands() {
    let out = canonicalize(
        "func.func @f(%n: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%c4)[%c0]
  %b = affine.min affine_map<(d0)[s0] -> (d0, s0)>(%c4)[%n]
  return %a, %b : index, index
}",
    );
    assert!(out.contains("affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%c4)[%c0]"), "{out}");
    assert!(out.contains("affine.min affine_map<(d0)[s0] -> (d0, s0)>(%c4)[%arg0]"), "{out}");
}

#[test]
fn malformed_generic_ops_are_reported_not_panicked_on() {
    let ops = [
        "\"affine.for\"() : () -> ()",
        "\"affine.for\"() <{lowerBoundMap = affine_map<() -> (0)>, upperBoundMap = affine_map<() -> (1)>, step = 1 : index, operandSegmentSizes = array<i32: 0, 0, 5>}> ({\n^bb0(%i: index):\n  \"affine.yield\"() : () -> ()\n}) : () -> ()",
        "\"affine.for\"() <{lowerBoundMap = 1, upperBoundMap = affine_map<() -> (1)>, step = 1 : index, operandSegmentSizes = array<i32: 0, 0, 0>}> ({\n}) : () -> ()",
        "\"affine.parallel\"() : () -> ()",
        "\"affine.parallel\"() <{lowerBoundsGroups = dense<3> : tensor<1xi32>, lowerBoundsMap = affine_map<() -> (0)>, reductions = [99], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (10)>}> ({\n^bb0(%i: index):\n  \"affine.yield\"() : () -> ()\n}) : () -> ()",
        "\"affine.if\"() : () -> ()",
        "\"affine.if\"() <{condition = affine_set<(d0) : (d0 == 0)>}> ({\n}, {\n}) : () -> ()",
        "%v = \"affine.load\"() : () -> f32",
        "%v = \"affine.load\"(%arg0) <{map = affine_map<(d0) -> (d0)>}> : (memref<4xf32>) -> f32",
        "\"affine.store\"(%arg0) : (memref<4xf32>) -> ()",
        "%v = \"affine.apply\"() <{map = affine_map<(d0)[s0] -> (d0 + s0)>}> : () -> index",
        "%v = \"affine.min\"() : () -> index",
        "\"affine.yield\"() : () -> ()",
    ];
    crate::testing::assert_rejected_without_panic("%arg0: memref<4xf32>", &ops);
}
