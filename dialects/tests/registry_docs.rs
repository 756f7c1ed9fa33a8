//! The dialect reference documents every registered op: a new op without documentation
//! fails this test.

#[test]
fn every_registered_op_is_documented() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let upstream =
        std::fs::read_to_string(root.join("docs/dialects/upstream.md")).expect("docs/dialects/upstream.md exists");
    let stencil = std::fs::read_to_string(root.join("docs/dialects/stencil.md")).unwrap_or_default();
    let registry = stencil_dialects::registry();
    let missing: Vec<&str> = registry
        .op_names()
        .into_iter()
        .filter(|name| {
            let doc = if name.starts_with("stencil.") { &stencil } else { &upstream };
            !doc.contains(&format!("`{name}`"))
        })
        .collect();
    assert!(missing.is_empty(), "ops missing from docs/dialects/*.md: {missing:?}");
}
