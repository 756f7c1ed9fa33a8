//! Helpers shared by the dialects' unit tests.

use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::SourceFile;

/// Wraps each generic-form op of `ops` in `func.func @f(<signature>) { op; return }` and checks
/// that it parses, prints in custom form without panicking, and is rejected by the verifier:
/// malformed ops must be reported, never crash a verifier or printer that indexes operands.
pub(crate) fn assert_rejected_without_panic(signature: &str, ops: &[&str]) {
    let registry = crate::registry();
    for op in ops {
        let text = format!("func.func @f({signature}) {{\n{op}\n  return\n}}\n");
        let source = SourceFile::new("test.mlir", &text);
        let m = parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: false })
            .unwrap_or_else(|e| panic!("did not parse:\n{op}\n{e:?}"));
        let _ = print_op(&m.ir, &registry, m.top, PrintOptions::default());
        assert!(stencil_ir::verifier::verify(&m.ir, &registry, m.top, false).is_err(), "accepted:\n{op}");
    }
}
