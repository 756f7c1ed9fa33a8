//! A fuzzing harness over program text and pass pipelines (docs/testing.md, "Fuzzing").
//!
//! Each case takes a seed program (the examples, the lit inputs and the corpus in
//! `driver/tests/fuzz/corpus/`), mutates its text — bytes, lines, identifiers, and numbers
//! replaced by extremes (`i64::MIN`/`MAX`, 0, huge shapes) — and runs it through the same
//! in-process entry point as `stencil-opt` ([`run_opt`]) with a random pass pipeline drawn from
//! the registry (`stencil-opt --list-passes`, random options). It asserts:
//!
//! - no panic (the case runs on its own thread; a panic is caught and reported),
//! - no hang: each case finishes within a budget (`STENCIL_FUZZ_CASE_SECS`, default 60 s),
//! - a rejected input or pipeline gets an `error:` diagnostic, located (`file:line:col:`)
//!   unless it is about the pipeline text itself,
//! - every printed program re-parses and prints identically (print → parse → print is a fixed
//!   point), in custom and generic form.
//!
//! `fuzz_smoke` (in the normal test suite) runs a short deterministic proptest with shrinking.
//! `fuzz_long` (`#[ignore]`) runs for `STENCIL_FUZZ_SECS` seconds, records every distinct
//! finding under `target/fuzz-findings/` instead of stopping at the first, and prints a
//! summary (cases, findings). `fuzz_regressions` replays `driver/tests/fuzz/regressions/`:
//! every input the harness found a bug with, kept after the fix.

mod common;

use common::mutate::{apply_mutations, number_spans, word_spans, Mutation, EXTREMES};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::{Duration, Instant};
use stencil_driver::opt::{run_opt, OptOptions, Registries};

// ----- corpus ---------------------------------------------------------------------------------

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

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

/// Seed programs: `programs` are valid inputs worth running pipelines on (examples, the fuzz
/// corpus), `others` the lit inputs (mostly error cases, good for the parser and verifiers).
struct Corpus {
    programs: Vec<(String, String)>,
    others: Vec<(String, String)>,
}

fn read_all(dirs: &[PathBuf]) -> Vec<(String, String)> {
    let mut files = vec![];
    for d in dirs {
        collect_mlir(d, &mut files);
    }
    let root = repo_root();
    files
        .iter()
        .filter_map(|f| {
            let name = f.strip_prefix(&root).unwrap_or(f).display().to_string();
            std::fs::read_to_string(f).ok().map(|t| (name, t))
        })
        .collect()
}

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let root = repo_root();
        let programs = read_all(&[root.join("examples"), root.join("driver/tests/fuzz/corpus")]);
        let others = read_all(&[root.join("tests/lit")]);
        assert!(programs.len() >= 20, "expected the examples and the fuzz corpus, found {} files", programs.len());
        assert!(others.len() >= 10, "expected the lit suite, found {} files", others.len());
        Corpus { programs, others }
    })
}

fn registries() -> &'static Registries {
    static REGISTRIES: OnceLock<Registries> = OnceLock::new();
    REGISTRIES.get_or_init(Registries::all)
}

// ----- mutations ------------------------------------------------------------------------------

/// Fragments of the grammar spliced into the text.
const FRAGMENTS: &[&str] = &[
    "%",
    "%0",
    "%t",
    "^bb1:",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    ":",
    "->",
    ",",
    "=",
    "-",
    "+",
    "*",
    " floordiv 2",
    " mod 0",
    " ceildiv -1",
    "@S",
    "\n",
    " ",
    "// -----\n",
    "stencil.apply @X writes %A over [0] to [1] {\n stencil.yield %c : f64\n}\n",
    "stencil.iterate %t = 0 to T {\n}\n",
    "%q = stencil.index 0\n",
    "%r = stencil.access %A at [%t] : f64\n",
    " order = \"reverse\"",
    "params [N >= 9223372036854775807]",
    "defaults [N = 9223372036854775807]",
    "!stencil.field<[9223372036854775807, 2] x f64>",
    "affine_map<(d0) -> (d0 * 4294967296)>",
    "affine_map<()[s0] -> (s0 * 9223372036854775807 + s0 * 9223372036854775807)>",
    "array<i64: 9223372036854775807, 9223372036854775807, 2>",
    "arith.constant -9223372036854775808 : i64",
    "arith.constant 0 : index",
    "memref<?x?xf64>",
    "memref<9223372036854775807xf64>",
    "gpu.barrier\n",
    "\"builtin.module\"() ({",
    "}) : () -> ()",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => any::<usize>().prop_map(Mutation::Truncate),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, n)| Mutation::DeleteBytes(a, n)),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, w)| Mutation::InsertFragment(a, w)),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, n)| Mutation::DuplicateBytes(a, n)),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::ReplaceByte(a, b)),
        6 => (any::<usize>(), any::<usize>()).prop_map(|(i, v)| Mutation::ReplaceNumber(i, v)),
        2 => any::<usize>().prop_map(Mutation::DuplicateLine),
        2 => any::<usize>().prop_map(Mutation::DeleteLine),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::SwapLines(i, j)),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::ReplaceWord(i, j)),
    ]
}

// ----- pipelines ------------------------------------------------------------------------------

/// Pipelines that reach deep into the compiler on valid programs (random sequences of passes
/// mostly stop at the pass-order checks).
const TEMPLATES: &[&str] = &[
    "canonicalize,cse",
    "stencil-to-poly",
    "poly-schedule",
    "poly-schedule,poly-verify-schedule",
    "poly-remove-false-deps,poly-schedule",
    "poly-schedule,poly-tile{sizes=$S}",
    "poly-schedule,poly-tile{sizes=$S},poly-codegen",
    "poly-schedule,poly-tile{sizes=$S},poly-codegen,canonicalize,cse",
    "poly-schedule,poly-tile{sizes=$S inter=rectangular},poly-codegen{parallel=false}",
    "poly-schedule,poly-codegen",
    "poly-codegen",
    "poly-schedule,poly-tile{sizes=$S},gpu-map{block=$B}",
    "poly-schedule,poly-tile{sizes=$S},gpu-map{block=$B},canonicalize,cse",
    "gpu-map{naive}",
    "gpu-map{strategy=naive block=$B},canonicalize,cse",
    "gpu-map{strategy=overlapped}",
    "gpu-map{strategy=overlapped tile=$B time-tile=$S}",
    "gpu-map{strategy=streaming}",
    "gpu-map{strategy=streaming tile=$B time-tile=$S}",
    "gpu-map{strategy=streaming tile=$B time-tile=$S prefetch=true}",
    "gpu-map{strategy=auto}",
    "poly-schedule,poly-tile{sizes=$S},gpu-map{strategy=auto block=auto}",
    "stencil-recognize-sor",
    "stencil-rbsor",
    "stencil-rbsor,gpu-map{naive}",
    "stencil-mlsor{K=$S P=$S}",
    "raise-affine-to-stencil",
    "raise-affine-to-stencil,canonicalize,cse",
    "raise-affine-to-stencil{strict=true assume-no-alias=true},poly-schedule,poly-tile{sizes=$S},poly-codegen",
    // The tile model's choices and the wavefront kernels' variants.
    "poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto}",
    "poly-schedule,poly-tile{sizes=auto model=prajapati staging=false},gpu-map{block=auto staging=false}",
    "poly-schedule,poly-tile{sizes=auto intra=model},gpu-map{block=auto occupancy=model}",
    "poly-schedule,poly-tile{sizes=auto calibration=h100 shared-memory=98304},gpu-map{block=auto shared-memory=98304}",
    "poly-schedule,poly-tile{sizes=$S intra=skew},gpu-map{block=$B staging=false}",
    "poly-schedule,poly-tile{sizes=$S},gpu-map{block=$B full-tiles=false partial-tiles=general}",
    "poly-schedule,poly-tile{sizes=$S},gpu-map{block=auto grid=$S}",
    "poly-schedule{coalesce=false verify=true},poly-tile{sizes=$S order=per-wavefront},gpu-map",
    "poly-remove-false-deps,poly-schedule,poly-tile{sizes=$S},gpu-map{block=$B}",
    "stencil-mlsor{K=$S P=$S},gpu-map{strategy=mlsor block=$B}",
    "stencil-mlsor,gpu-map{strategy=mlsor tile-threads=$S staging=false}",
];

/// Small and extreme sizes for `$S` (tile sizes, K, P, time tiles) and `$B` (block shapes).
const SIZES: &[&str] =
    &["1", "2", "4", "16", "0", "-1", "3,5", "2,2,2", "9223372036854775807", "4294967296", "1,1,1,1", "65536"];
const BLOCKS: &[&str] = &["32", "32,8", "32,4,2", "1", "0", "1024", "2048", "-1", "4294967296", "8,8,8,8"];

/// Values for string options, by option name; unknown names get a junk value.
fn string_choices(option: &str) -> &'static [&'static str] {
    match option {
        "strategy" => &["wavefront", "naive", "overlapped", "streaming", "auto", "bogus"],
        "fuse" => &["smart", "max", "none", "bogus"],
        "inter" => &["wavefront", "rectangular"],
        "intra" => &["auto", "first-hyperplane", "skew"],
        "order" => &["auto", "per-wavefront", "innermost"],
        "directions" => &["alternate", "forward"],
        "rules" => &["algebra", "ac"],
        "staging" => &["auto", "true", "false", "bogus"],
        "occupancy" => &["model", "ptxas", "bogus"],
        "model" => &["thesis", "prajapati", "bogus"],
        "partial-tiles" => &["guarded", "general", "bogus"],
        "over-budget" => &["fallback", "error", "bogus"],
        "calibration" => &["h100", "h200", "", "/nonexistent/calibration.json"],
        "sizes" => &["auto", "4", "2,3", "0", "-1", "x"],
        "block" => &["auto", "32,8", "0", "1,1,1,1"],
        "min-reuse" => &["", "1", "-1", "nan", "1e308"],
        _ => &["", "x"],
    }
}

/// One pass of a random pipeline: its index in the registry, and for each declared option
/// whether to set it and the choice of value.
#[derive(Clone, Debug)]
struct PassChoice {
    pass: usize,
    options: Vec<(bool, usize)>,
}

#[derive(Clone, Debug)]
enum PipelineChoice {
    None,
    Template {
        which: usize,
        size: usize,
        block: usize,
    },
    Random(Vec<PassChoice>),
    /// A random pipeline nested on `func.func` (most passes refuse that anchor).
    NestedOnFunc(Vec<PassChoice>),
}

fn render_pass(choice: &PassChoice, registry: &Registries) -> String {
    let passes: Vec<_> = registry.passes.iter().collect();
    let info = passes[choice.pass % passes.len()];
    let mut options = vec![];
    for (o, &(set, v)) in info.options.iter().zip(choice.options.iter().cycle()) {
        if !set {
            continue;
        }
        let value = match o.kind {
            stencil_ir::pass::OptionKind::Bool => ["true", "false"][v % 2].to_string(),
            stencil_ir::pass::OptionKind::Int => EXTREMES[v % 21].to_string(),
            stencil_ir::pass::OptionKind::IntList => SIZES[v % SIZES.len()].to_string(),
            stencil_ir::pass::OptionKind::String => {
                let choices = string_choices(o.name);
                choices[v % choices.len()].to_string()
            }
        };
        options.push(format!("{}={value}", o.name));
    }
    if options.is_empty() {
        info.argument.to_string()
    } else {
        format!("{}{{{}}}", info.argument, options.join(" "))
    }
}

fn render_pipeline(choice: &PipelineChoice, registry: &Registries) -> Option<String> {
    let list = |passes: &[PassChoice]| passes.iter().map(|p| render_pass(p, registry)).collect::<Vec<_>>().join(",");
    match choice {
        PipelineChoice::None => None,
        PipelineChoice::Template { which, size, block } => {
            let t = TEMPLATES[which % TEMPLATES.len()]
                .replace("$S", SIZES[size % SIZES.len()])
                .replace("$B", BLOCKS[block % BLOCKS.len()]);
            Some(format!("builtin.module({t})"))
        }
        PipelineChoice::Random(passes) => Some(format!("builtin.module({})", list(passes))),
        PipelineChoice::NestedOnFunc(passes) => Some(format!("builtin.module(func.func({}))", list(passes))),
    }
}

fn pass_choice() -> impl Strategy<Value = PassChoice> {
    (any::<usize>(), proptest::collection::vec((proptest::bool::weighted(0.3), any::<usize>()), 1..8))
        .prop_map(|(pass, options)| PassChoice { pass, options })
}

fn pipeline_choice() -> impl Strategy<Value = PipelineChoice> {
    prop_oneof![
        2 => Just(PipelineChoice::None),
        6 => (any::<usize>(), any::<usize>(), any::<usize>())
            .prop_map(|(which, size, block)| PipelineChoice::Template { which, size, block }),
        3 => proptest::collection::vec(pass_choice(), 1..5).prop_map(PipelineChoice::Random),
        1 => proptest::collection::vec(pass_choice(), 1..3).prop_map(PipelineChoice::NestedOnFunc),
    ]
}

// ----- cases ----------------------------------------------------------------------------------

/// A generated case: a seed, its mutations, a pipeline and the tool's switches.
#[derive(Clone, Debug)]
struct Case {
    /// Whether the seed comes from the valid programs (else the lit inputs).
    program_seed: bool,
    seed: usize,
    mutations: Vec<Mutation>,
    pipeline: PipelineChoice,
    generic: bool,
    split: bool,
    unregistered: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        proptest::bool::weighted(0.8),
        any::<usize>(),
        proptest::collection::vec(mutation(), 0..5),
        pipeline_choice(),
        proptest::bool::weighted(0.15),
        proptest::bool::weighted(0.3),
        proptest::bool::weighted(0.1),
    )
        .prop_map(|(program_seed, seed, mutations, pipeline, generic, split, unregistered)| Case {
            program_seed,
            seed,
            mutations,
            pipeline,
            generic,
            split,
            unregistered,
        })
}

/// The concrete input of a case.
#[derive(Clone, Debug)]
struct Input {
    seed_name: String,
    text: String,
    pipeline: Option<String>,
    generic: bool,
    split: bool,
    unregistered: bool,
}

fn concretize(case: &Case) -> Input {
    let c = corpus();
    let pool = if case.program_seed { &c.programs } else { &c.others };
    let (name, seed) = &pool[case.seed % pool.len()];
    Input {
        seed_name: name.clone(),
        text: apply_mutations(seed, &case.mutations, FRAGMENTS),
        pipeline: render_pipeline(&case.pipeline, registries()),
        generic: case.generic,
        split: case.split,
        unregistered: case.unregistered,
    }
}

/// What went wrong with one input.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Finding {
    Panic(String),
    Hang,
    UnlocatedError(String),
    NotReparsing(String),
    NotFixedPoint,
    GenericMismatch(String),
}

impl Finding {
    /// A short key that groups findings with the same cause (for the long run's summary).
    fn key(&self) -> String {
        let first_line = |m: &str| {
            let line = m.lines().find(|l| l.contains("error") || l.contains("panicked")).unwrap_or("").to_string();
            // Drop the location and numbers so inputs hitting the same bug group together.
            line.split(": error: ")
                .last()
                .unwrap_or("")
                .chars()
                .filter(|c| !c.is_ascii_digit())
                .take(100)
                .collect::<String>()
        };
        match self {
            Finding::Panic(m) => {
                format!("panic: {}", m.lines().next().unwrap_or("").chars().take(160).collect::<String>())
            }
            Finding::Hang => "hang".into(),
            Finding::UnlocatedError(m) => format!("unlocated: {}", first_line(m)),
            Finding::NotReparsing(m) => format!("not reparsing: {}", first_line(m)),
            Finding::NotFixedPoint => "print(parse(print)) != print".into(),
            Finding::GenericMismatch(m) => format!("generic round trip: {}", first_line(m)),
        }
    }
}

fn options_for(input: &Input, pipeline: Option<String>, generic: bool) -> OptOptions {
    OptOptions {
        pipeline,
        split_input_file: input.split,
        allow_unregistered: input.unregistered,
        print_generic: generic,
        verify_each: true,
        ..OptOptions::default()
    }
}

/// Runs one input in-process (on the calling thread) and checks the properties. `Ok(true)`:
/// the tool accepted the input and its output round-trips; `Ok(false)`: it rejected the input
/// with a proper error.
fn check(input: &Input) -> Result<bool, Finding> {
    let regs = registries();
    let first = run_opt("fuzz.mlir", &input.text, &options_for(input, input.pipeline.clone(), input.generic), regs);
    if !first.success {
        let located = first.messages.lines().any(|l| {
            (l.starts_with("fuzz.mlir:")
                && l.contains(": error: ")
                && l.split(':').nth(1).is_some_and(|n| n.parse::<u32>().is_ok())
                && l.split(':').nth(2).is_some_and(|n| n.parse::<u32>().is_ok()))
                || l.starts_with("<pass-pipeline>: error: ")
        });
        return if located { Ok(false) } else { Err(Finding::UnlocatedError(first.messages)) };
    }
    // Printed text parses back (no pipeline: the program as printed) and prints identically.
    let again = run_opt("printed.mlir", &first.output, &options_for(input, None, input.generic), regs);
    if !again.success {
        return Err(Finding::NotReparsing(again.messages));
    }
    if again.output != first.output {
        return Err(Finding::NotFixedPoint);
    }
    // The generic form of a custom-printed program reads back to the same program. (Not the
    // other way round: custom syntax numbers an affine op's dims and symbols by first use, so
    // generic → custom → generic may reorder operands, as in MLIR.)
    if !input.generic {
        let generic = run_opt("printed.mlir", &first.output, &options_for(input, None, true), regs);
        if !generic.success {
            return Err(Finding::GenericMismatch(generic.messages));
        }
        let back = run_opt("generic.mlir", &generic.output, &options_for(input, None, false), regs);
        if !back.success {
            return Err(Finding::GenericMismatch(back.messages));
        }
        if back.output != first.output {
            return Err(Finding::GenericMismatch(format!(
                "differs: error: custom → generic → custom changed the program\n{}",
                back.output
            )));
        }
    }
    Ok(true)
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".into())
}

/// Per-case time budget (`STENCIL_FUZZ_CASE_SECS`, default 60 s of wall-clock time). The
/// harness runs the debug build, often on a machine shared with builds: the slowest legitimate
/// cases (a `gpu-map` refusing a many-statement program it had to scan first) take about 10 s
/// of CPU there and three times that in wall-clock time on a loaded machine. A case past the
/// budget is a hang finding; the long run also lists the slowest cases, hangs or not.
fn case_budget() -> Duration {
    let secs = std::env::var("STENCIL_FUZZ_CASE_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    Duration::from_secs(secs)
}

/// Runs [`check`] on its own thread (8 MiB of stack, as the `stencil-opt` main thread has) and
/// turns a panic or a run past `budget` into a finding. A hung thread cannot be stopped: it is
/// left running, and the caller gives up after a few.
fn check_with_budget(input: &Input, budget: Duration) -> Result<bool, Finding> {
    let (tx, rx) = mpsc::channel();
    let owned = Arc::new(input.clone());
    let spawned = std::thread::Builder::new().stack_size(8 << 20).name("fuzz-case".into()).spawn(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&owned)));
        // The receiver is gone only after a timeout; nobody is left to tell then.
        let _ = tx.send(result.map_err(|p| panic_message(&*p)));
    });
    if let Err(e) = spawned {
        return Err(Finding::Panic(format!("could not start a case thread: {e}")));
    }
    match rx.recv_timeout(budget) {
        Ok(Ok(result)) => result,
        Ok(Err(message)) => Err(Finding::Panic(message)),
        Err(_) => Err(Finding::Hang),
    }
}

/// Writes a finding's input where it can be replayed (`// fuzz-pipeline:` and the switches in
/// a header, as the regression files have), and returns the path.
fn record(input: &Input, finding: &Finding) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo_root().join("target"), PathBuf::from);
    let dir = target.join("fuzz-findings");
    let _ = std::fs::create_dir_all(&dir);
    let mut hash: u64 = 0xcbf29ce484222325;
    for b in input.text.bytes().chain(input.pipeline.clone().unwrap_or_default().bytes()) {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x100000001b3);
    }
    let path = dir.join(format!("{hash:016x}.mlir"));
    let _ = std::fs::write(&path, format!("{}{}", header(input, Some(finding)), input.text));
    path
}

fn header(input: &Input, finding: Option<&Finding>) -> String {
    let mut h = String::new();
    if let Some(f) = finding {
        h.push_str(&format!("// fuzz-finding: {}\n", f.key().replace('\n', " ")));
        h.push_str(&format!("// fuzz-seed: {}\n", input.seed_name));
    }
    if let Some(p) = &input.pipeline {
        h.push_str(&format!("// fuzz-pipeline: {p}\n"));
    }
    let flags: Vec<&str> = [(input.generic, "generic"), (input.split, "split"), (input.unregistered, "unregistered")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| *n)
        .collect();
    if !flags.is_empty() {
        h.push_str(&format!("// fuzz-flags: {}\n", flags.join(" ")));
    }
    h
}

// ----- tests ----------------------------------------------------------------------------------

proptest! {
    // A short run in the normal test suite: deterministic (proptest's default seed handling with
    // no persistence), shrinking to a small input on failure.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("STENCIL_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(96),
        failure_persistence: None,
        max_shrink_iters: 256,
        ..ProptestConfig::default()
    })]

    #[test]
    fn fuzz_smoke(case in case()) {
        let input = concretize(&case);
        if let Err(finding) = check_with_budget(&input, case_budget()) {
            let path = record(&input, &finding);
            prop_assert!(false, "{finding:?}\n(input recorded in {})\n--- input ---\n{}{}", path.display(), header(&input, None), input.text);
        }
    }
}

/// The long run: `STENCIL_FUZZ_SECS` seconds (default 60) of cases from `STENCIL_FUZZ_SEED`
/// (default: from the clock), every distinct finding recorded and summarised, failing at the
/// end if there was any. See docs/testing.md for the command.
#[test]
#[ignore = "long fuzzing run; see docs/testing.md"]
fn fuzz_long() {
    let secs: u64 = std::env::var("STENCIL_FUZZ_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = std::env::var("STENCIL_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
    });
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes));
    let strategy = case();
    let deadline = Instant::now() + Duration::from_secs(secs);
    let budget = case_budget();
    let (mut cases, mut hangs, mut with_pipeline, mut accepted) = (0u64, 0u32, 0u64, 0u64);
    let mut findings: BTreeMap<String, (u64, PathBuf)> = BTreeMap::new();
    let started = Instant::now();
    // The five slowest cases, slowest first.
    let mut slowest: Vec<(Duration, String)> = vec![];
    while Instant::now() < deadline {
        let Ok(tree) = strategy.new_tree(&mut runner) else { continue };
        let input = concretize(&tree.current());
        cases += 1;
        with_pipeline += u64::from(input.pipeline.is_some());
        let t0 = Instant::now();
        let result = check_with_budget(&input, budget);
        let took = t0.elapsed();
        if slowest.len() < 5 || slowest.last().is_some_and(|(t, _)| took > *t) {
            slowest.push((took, format!("{} | {}", input.seed_name, input.pipeline.clone().unwrap_or_default())));
            slowest.sort_by_key(|(t, _)| std::cmp::Reverse(*t));
            slowest.truncate(5);
        }
        match result {
            Ok(true) => accepted += 1,
            Ok(false) => {}
            Err(finding) => {
                let entry = findings.entry(finding.key()).or_insert_with(|| (0, record(&input, &finding)));
                entry.0 += 1;
                if finding == Finding::Hang {
                    hangs += 1;
                    // Each hung case keeps a thread busy: stop before they starve the run.
                    if hangs >= 3 {
                        eprintln!("fuzz: stopping after {hangs} hangs");
                        break;
                    }
                }
            }
        }
        if cases % 500 == 0 {
            eprintln!(
                "fuzz: {cases} cases in {:.0} s, {} distinct findings",
                started.elapsed().as_secs_f64(),
                findings.len()
            );
        }
    }
    eprintln!(
        "fuzz: seed {seed}, {cases} cases ({with_pipeline} with a pipeline; {accepted} accepted and round-tripped, the others rejected with a located error or a finding) in {:.0} s (budget {} s per case); {} distinct findings",
        started.elapsed().as_secs_f64(),
        budget.as_secs(),
        findings.len()
    );
    for (took, what) in &slowest {
        eprintln!("  slow: {:.1} s  {what}", took.as_secs_f64());
    }
    for (key, (count, path)) in &findings {
        eprintln!("  {count:>6} x {key}\n         e.g. {}", path.display());
    }
    assert!(findings.is_empty(), "{} distinct findings (inputs under target/fuzz-findings/)", findings.len());
}

/// Parses a regression file's header back into an input.
fn regression_input(name: &str, text: &str) -> Input {
    let field = |key: &str| text.lines().find_map(|l| l.strip_prefix(key)).map(|v| v.trim().to_string());
    let flags = field("// fuzz-flags:").unwrap_or_default();
    Input {
        seed_name: name.to_string(),
        text: text.to_string(),
        pipeline: field("// fuzz-pipeline:"),
        generic: flags.split_whitespace().any(|f| f == "generic"),
        split: flags.split_whitespace().any(|f| f == "split"),
        unregistered: flags.split_whitespace().any(|f| f == "unregistered"),
    }
}

/// Every input the harness found a bug with (driver/tests/fuzz/regressions/, header lines
/// `// fuzz-pipeline:` and `// fuzz-flags:`) passes the checks now.
#[test]
fn fuzz_regressions() {
    let mut files = vec![];
    collect_mlir(&repo_root().join("driver/tests/fuzz/regressions"), &mut files);
    assert!(!files.is_empty(), "no regression inputs found");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let input = regression_input(&f.display().to_string(), &text);
        if let Err(finding) = check_with_budget(&input, case_budget()) {
            panic!("{}: {finding:?}", f.display());
        }
    }
}

#[test]
fn number_and_word_spans_find_literals_not_identifier_digits() {
    let s = "%c0 = arith.constant -12 : i64\n%x = f(%A[0x1F, 1.5e-3]) @S2";
    let numbers: Vec<&str> = number_spans(s).iter().map(|&(a, b)| &s[a..b]).collect();
    assert_eq!(numbers, ["-12", "0x1F", "1.5e-3"]);
    let words: Vec<&str> = word_spans(s).iter().map(|&(a, b)| &s[a..b]).collect();
    assert!(words.contains(&"%c0") && words.contains(&"arith.constant") && words.contains(&"@S2"), "{words:?}");
    let replaced = apply_mutations(s, &[Mutation::ReplaceNumber(0, 18)], FRAGMENTS);
    assert!(replaced.contains("arith.constant -9223372036854775808 : i64"), "{replaced}");
}
