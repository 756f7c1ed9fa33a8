//! Pathologically deep input gets a located diagnostic, not a stack overflow.

use stencil_ir::parser::{parse_source, ParserConfig, MAX_NESTING};
use stencil_ir::registry::DialectRegistry;
use stencil_ir::SourceFile;

fn parse_error(text: &str) -> String {
    let registry = DialectRegistry::new();
    let config = ParserConfig { registry: &registry, allow_unregistered: true };
    match parse_source(&SourceFile::new("deep.mlir", text), config) {
        Ok(_) => panic!("accepted pathological input"),
        Err(e) => e.render(),
    }
}

#[test]
fn deep_nesting_of_every_recursive_construct_is_rejected_cleanly() {
    let n = 100_000;
    let cases = [
        format!("\"t.op\"() {{a = {}}} : () -> ()", "[".repeat(n)),
        format!("\"t.op\"() {}", "({\"t.op\"() ".repeat(n)),
        format!("\"t.op\"() {{a = affine_map<(d0) -> ({}d0{})>}} : () -> ()", "(".repeat(n), ")".repeat(n)),
        format!("\"t.op\"(%x) : ({}f32{}) -> ()", "memref<".repeat(n), ">".repeat(n)),
        format!("\"t.op\"() : () -> () loc({}", "fused[".repeat(n)),
        format!("\"t.op\"() : () -> {}", "(".repeat(n)),
    ];
    for text in cases {
        let err = parse_error(&text);
        assert!(err.starts_with("deep.mlir:1:"), "{err}");
        assert!(err.contains(&format!("deeper than {MAX_NESTING} levels")), "{err}");
    }
}
