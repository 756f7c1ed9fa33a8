//! Unit tests of the gpu dialect: attribute helpers, builders, and robustness against
//! malformed generic-form ops.

use super::attributes::{check_nvvm_attr, split_top_level};
use super::*;
use stencil_ir::attributes::DialectAttribute;
use stencil_ir::ir::InsertPoint;
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::{Location, Module, SourceFile};

fn parse(text: &str) -> Result<Module, Diagnostic> {
    let registry = crate::registry();
    let source = SourceFile::new("test.mlir", text);
    parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: false })
}

/// Parses, verifies and prints in custom and generic form; none of it may panic.
fn check(text: &str) -> Result<(String, String), Diagnostic> {
    let registry = crate::registry();
    let module = parse(text)?;
    // Printing unverified IR must not panic either.
    let custom = print_op(&module.ir, &registry, module.top, PrintOptions::default());
    let generic =
        print_op(&module.ir, &registry, module.top, PrintOptions { generic: true, ..PrintOptions::default() });
    stencil_ir::verifier::verify(&module.ir, &registry, module.top, false)?;
    Ok((custom, generic))
}

#[test]
fn attributes_read_back() {
    for dim in Dimension::ALL {
        assert_eq!(Dimension::from_attr(&dim.attr()), Some(dim));
    }
    for space in [AddressSpace::Global, AddressSpace::Workgroup, AddressSpace::Private] {
        assert_eq!(AddressSpace::from_attr(&space.attr()), Some(space));
    }
    assert_eq!(Dimension::X.attr().to_string(), "#gpu<dim x>");
    assert_eq!(AddressSpace::Workgroup.attr().to_string(), "#gpu.address_space<workgroup>");
}

#[test]
fn nvvm_target_prints_like_mlir_and_parses() {
    assert_eq!(nvvm_target(2, "sm_50").to_string(), "#nvvm.target");
    let target = nvvm_target(3, "sm_90");
    assert_eq!(target.to_string(), "#nvvm.target<O = 3, chip = \"sm_90\">");
    let header = format!("gpu.module @m [{target}] {{");
    let (custom, _) = check(&format!("{header}\n}}")).expect("valid");
    assert!(custom.contains(&header), "{custom}");
}

#[test]
fn nvvm_target_body_is_split_at_top_level_commas() {
    assert_eq!(
        split_top_level(r#"O = 1, link = ["a,b", "c"], flags = {x, y = 2}"#),
        vec!["O = 1", r#" link = ["a,b", "c"]"#, " flags = {x, y = 2}"]
    );
    let ok = DialectAttribute {
        dialect: "nvvm".into(),
        name: "target".into(),
        body: Some(r#"O = 0, link = ["a,b"], verifyTarget = false"#.into()),
    };
    assert_eq!(check_nvvm_attr(&ok), Ok(()));
}

#[test]
fn launch_func_state_builds_a_valid_launch() {
    let text = "module attributes {gpu.container_module} {\n  gpu.module @kernels {\n    gpu.func @k(%arg0: f32) kernel {\n      gpu.return\n    }\n  }\n  func.func @host(%arg0: index, %arg1: f32) {\n    return\n  }\n}";
    let registry = crate::registry();
    let mut module = parse(text).expect("parses");
    let ir = &mut module.ir;
    let host = ir
        .collect_ops(module.top, stencil_ir::ir::WalkOrder::PreOrder)
        .into_iter()
        .find(|&o| ir.attr(o, "sym_name").and_then(Attribute::as_str) == Some("host"))
        .expect("host");
    let entry = ir.entry_block(ir.region(host, 0)).expect("body");
    let (n, f) = (ir.block_args(entry)[0], ir.block_args(entry)[1]);
    let ret = ir.last_op(entry).expect("return");
    let kernel = Attribute::SymbolRef { root: "kernels".into(), nested: vec!["k".into()] };
    let launch =
        ir.build(InsertPoint::Before(ret), launch_func_state(kernel, [n; 3], [n; 3], vec![f], Location::Unknown));
    stencil_ir::verifier::verify(ir, &registry, module.top, false).expect("verifies");
    let split = LaunchFuncOperands::of(ir, launch).expect("segments");
    assert_eq!(split.kernel_operands, vec![f]);
    assert_eq!(split.grid, [n; 3]);
    let out = print_op(ir, &registry, module.top, PrintOptions::default());
    assert!(out.contains("gpu.launch_func  @kernels::@k blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)  args(%arg1 : f32)"), "{out}");
}

#[test]
fn malformed_generic_ops_are_errors_not_panics() {
    let bodies = [
        r#""gpu.thread_id"() : () -> ()"#,
        r#""gpu.thread_id"(%n) {dimension = #gpu<dim x>} : (index) -> index"#,
        r#""gpu.thread_id"() {dimension = "x"} : () -> (index, index)"#,
        r#""gpu.barrier"() ({ }) : () -> ()"#,
        r#""gpu.return"(%n) : (index) -> ()"#,
        r#""gpu.launch_func"() : () -> ()"#,
        r#""gpu.launch_func"(%n) <{kernel = @m::@k, operandSegmentSizes = array<i32: 1>}> : (index) -> ()"#,
        r#""gpu.launch_func"(%n) <{kernel = @m::@k, operandSegmentSizes = array<i32: 9223372036854775807, 9223372036854775807, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1>}> : (index) -> ()"#,
        r#""gpu.launch_func"(%n, %n, %n, %n, %n, %n, %n) <{kernel = "k", operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index, index) -> ()"#,
        r#""gpu.module"() ({ }, { }) {sym_name = "m"} : () -> ()"#,
        r#""gpu.module"(%n) ({ }) {sym_name = "m"} : (index) -> ()"#,
        r#""gpu.func"() ({ }) {sym_name = "k", function_type = (index) -> ()} : () -> ()"#,
    ];
    for body in bodies {
        let text = format!("module attributes {{gpu.container_module}} {{\n  func.func @f(%n: index) {{\n    {body}\n    return\n  }}\n}}");
        assert!(check(&text).is_err(), "accepted: {body}");
    }
    let in_module = [
        r#""gpu.func"() ({ ^bb0(%a: index): "gpu.return"() : () -> () }) {sym_name = "k", function_type = (index, f32) -> (), workgroup_attributions = 5 : i64} : () -> ()"#,
        r#""gpu.func"() ({ "gpu.return"() : () -> () }) {sym_name = "k", function_type = () -> (), workgroup_attributions = 9223372036854775807 : i64} : () -> ()"#,
        r#""gpu.func"() ({ "gpu.return"() : () -> () }) {sym_name = "k", function_type = () -> (), arg_attrs = [1]} : () -> ()"#,
        r#""gpu.func"() ({ "gpu.return"() : () -> () }) {sym_name = "k", function_type = () -> (), private_attrib_attrs = 1} : () -> ()"#,
    ];
    for body in in_module {
        let text = format!("gpu.module @m {{\n  {body}\n}}");
        assert!(check(&text).is_err(), "accepted: {body}");
    }
}
