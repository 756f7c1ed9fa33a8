//! Robustness: random, truncated and mutated versions of every lit input and example are fed
//! to the parser and verifier (through the same entry point `stencil-opt` uses). Nothing may
//! panic; every rejected input must come with a located `file:line:col: error:` diagnostic;
//! every accepted input must print to text that parses back and prints identically.

mod common;

use common::mutate::{apply_mutations, Mutation};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use stencil_driver::opt::{run_opt, OptOptions, Registries};

fn collect_mlir(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_mlir(&p, out);
        } else if p.extension().is_some_and(|e| e == "mlir") {
            out.push(p);
        }
    }
}

fn corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = vec![];
    collect_mlir(&root.join("tests/lit"), &mut files);
    collect_mlir(&root.join("examples"), &mut files);
    let texts: Vec<String> = files.iter().filter_map(|f| std::fs::read_to_string(f).ok()).collect();
    assert!(texts.len() >= 10, "expected the lit suite as corpus, found {} files", texts.len());
    texts
}

/// Fragments that stress the grammar when spliced in.
const FRAGMENTS: &[&str] = &[
    "%",
    "%0",
    "%x#7",
    "^bb1:",
    "^bb0(%a: i32):",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    "<{",
    "}>",
    ":",
    "->",
    ",",
    "=",
    "\"",
    "@",
    "@\"q\"",
    "#",
    "#map",
    "!",
    "!foo.bar<",
    "affine_map<(d0) -> (d0)>",
    "memref<?x",
    "x",
    "?",
    "-",
    "0x",
    "1.5e",
    "i0",
    "i99999999",
    "index",
    "loc(",
    "// -----\n",
    "\n",
    " ",
    "\u{1F600}",
    "\\",
    "9223372036854775808",
    "-9223372036854775809",
    "array<i32: ",
    "dense<",
    "scf.yield",
    "func.return",
    "\"builtin.module\"() ({",
    "}) : () -> ()",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, n)| Mutation::DeleteBytes(a, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, w)| Mutation::InsertFragment(a, w)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, n)| Mutation::DuplicateBytes(a, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::ReplaceByte(a, b)),
    ]
}

/// Checks one input under both dialect policies.
fn check_input(text: &str, registries: &Registries) {
    for allow_unregistered in [false, true] {
        let options =
            OptOptions { split_input_file: true, allow_unregistered, verify_each: true, ..OptOptions::default() };
        let outcome = run_opt("fuzz.mlir", text, &options, registries);
        if !outcome.success {
            assert!(
                outcome.messages.lines().any(|l| l.starts_with("fuzz.mlir:")
                    && l.contains(": error: ")
                    && l.split(':').nth(1).is_some_and(|n| n.parse::<u32>().is_ok())),
                "rejected without a located error:\n--- input ---\n{text}\n--- messages ---\n{}",
                outcome.messages
            );
            continue;
        }
        // Accepted: printing is a fixed point of parse+print.
        let again = run_opt("printed.mlir", &outcome.output, &options, registries);
        assert!(
            again.success,
            "printed output does not parse:\n{}\n--- messages ---\n{}",
            outcome.output, again.messages
        );
        assert_eq!(again.output, outcome.output, "print(parse(print(x))) != print(x)");
    }
}

#[test]
fn unmodified_corpus_round_trips_or_fails_cleanly() {
    let registries = Registries::all();
    for text in corpus() {
        check_input(&text, &registries);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_inputs_never_panic(index in any::<usize>(), mutations in proptest::collection::vec(mutation(), 1..4)) {
        let texts = corpus();
        let text = apply_mutations(&texts[index % texts.len()], &mutations, FRAGMENTS);
        check_input(&text, &Registries::all());
    }
}

/// Deeply nested regions of registered ops parse, verify, transform and print within the
/// default 2 MiB stack of a test thread up to the parser's nesting limit, and get a clean
/// error beyond it.
#[test]
fn deep_region_nesting_stays_within_the_stack() {
    let registries = Registries::all();
    let nest = |n: usize| {
        format!(
            "func.func @f(%c: i1, %n: index) {{\n{}{}  return\n}}\n",
            "scf.if %c {\naffine.for %i = 0 to %n {\n".repeat(n / 2),
            "}\n}\n".repeat(n / 2)
        )
    };
    let options = OptOptions {
        pipeline: Some("builtin.module(canonicalize,cse)".into()),
        verify_each: true,
        ..OptOptions::default()
    };
    let limit = stencil_ir::parser::MAX_NESTING as usize;
    let ok = run_opt("deep.mlir", &nest(limit - 4), &options, &registries);
    assert!(ok.success, "{}", ok.messages);
    let too_deep = run_opt("deep.mlir", &nest(limit + 10), &options, &registries);
    assert!(!too_deep.success && too_deep.messages.contains("nests deeper than"), "{}", too_deep.messages);
}
