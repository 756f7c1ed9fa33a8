//! The pass manager: a registry of passes, typed pass options, pipelines in MLIR's syntax,
//! verification after every pass, IR dumps and timing.

pub mod canonicalize;
pub mod cse;
pub mod pipeline;

use crate::diagnostics::{DiagResult, Diagnostic};
use crate::ir::{Ir, OpId};
use crate::location::Location;
use crate::printer::{print_op, PrintOptions};
use crate::registry::DialectRegistry;
use pipeline::{parse_pipeline, PipelineElement};
use std::collections::BTreeMap;
use std::io::Write;
use std::time::{Duration, Instant};

/// Context given to a running pass.
pub struct PassContext<'a> {
    /// Registered ops and dialects.
    pub registry: &'a DialectRegistry,
    /// Diagnostics that do not stop the pipeline (remarks, warnings): a pass that leaves
    /// something untouched says why here, and the tool prints them (or matches them against
    /// `expected-remark` comments) after the pipeline. Interior mutability because passes get
    /// the context by shared reference.
    reported: std::cell::RefCell<Vec<Diagnostic>>,
}

impl<'a> PassContext<'a> {
    /// A context over `registry` with no reported diagnostics.
    pub fn new(registry: &'a DialectRegistry) -> Self {
        PassContext { registry, reported: std::cell::RefCell::new(Vec::new()) }
    }

    /// Reports a diagnostic that does not fail the pass (a remark or a warning; an error that
    /// should stop the pipeline is the pass's `Err` instead).
    pub fn report(&self, diagnostic: Diagnostic) {
        self.reported.borrow_mut().push(diagnostic);
    }

    /// Takes the diagnostics reported so far.
    pub fn take_reported(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut *self.reported.borrow_mut())
    }
}

/// A transformation or analysis over the op it is anchored on.
pub trait Pass {
    /// The pipeline name (`canonicalize`).
    fn argument(&self) -> &'static str;
    /// Runs on `op` (an op of the pipeline's anchor name).
    fn run(&mut self, ir: &mut Ir, op: OpId, cx: &PassContext<'_>) -> DiagResult<()>;
}

/// The type of a pass option.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true`/`false`.
    Bool,
    /// A signed integer.
    Int,
    /// Free text.
    String,
    /// Comma-separated integers (`32,32,8`).
    IntList,
}

/// Declaration of one pass option.
#[derive(Clone, Debug)]
pub struct OptionInfo {
    /// Option name as written in pipelines.
    pub name: &'static str,
    /// Its type.
    pub kind: OptionKind,
    /// Default value, as text.
    pub default: &'static str,
    /// One-line description.
    pub description: &'static str,
}

/// A parsed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// Boolean.
    Bool(bool),
    /// Integer.
    Int(i64),
    /// Text.
    String(String),
    /// Integer list.
    IntList(Vec<i64>),
}

/// Option values of one pass instance, defaults filled in.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    values: BTreeMap<&'static str, OptionValue>,
}

impl PassOptions {
    /// A boolean option.
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.values.get(name), Some(OptionValue::Bool(true)))
    }

    /// An integer option.
    pub fn int(&self, name: &str) -> i64 {
        match self.values.get(name) {
            Some(OptionValue::Int(v)) => *v,
            _ => 0,
        }
    }

    /// A string option.
    pub fn string(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(OptionValue::String(v)) => v,
            _ => "",
        }
    }

    /// An integer-list option.
    pub fn int_list(&self, name: &str) -> &[i64] {
        match self.values.get(name) {
            Some(OptionValue::IntList(v)) => v,
            _ => &[],
        }
    }
}

fn parse_option_value(kind: OptionKind, text: &str) -> Result<OptionValue, String> {
    match kind {
        OptionKind::Bool => match text {
            "true" | "1" => Ok(OptionValue::Bool(true)),
            "false" | "0" => Ok(OptionValue::Bool(false)),
            _ => Err(format!("expected 'true' or 'false', got '{text}'")),
        },
        OptionKind::Int => text.parse().map(OptionValue::Int).map_err(|_| format!("expected an integer, got '{text}'")),
        OptionKind::String => Ok(OptionValue::String(text.to_string())),
        OptionKind::IntList => {
            if text.is_empty() {
                return Ok(OptionValue::IntList(vec![]));
            }
            text.split(',')
                .map(|p| {
                    p.trim()
                        .parse::<i64>()
                        .map_err(|_| format!("expected a comma-separated list of integers, got '{text}'"))
                })
                .collect::<Result<_, _>>()
                .map(OptionValue::IntList)
        }
    }
}

/// How to construct a pass from its options.
pub type PassFactory = fn(&PassOptions) -> Result<Box<dyn Pass>, String>;

/// Registration record of a pass.
#[derive(Clone)]
pub struct PassInfo {
    /// Pipeline name.
    pub argument: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// Declared options.
    pub options: Vec<OptionInfo>,
    /// Constructor.
    pub factory: PassFactory,
}

impl PassInfo {
    /// Parses `given` against the declared options (unknown names and bad values are
    /// errors) and fills in defaults.
    pub fn parse_options(&self, given: &[(String, String)]) -> Result<PassOptions, String> {
        let mut values = BTreeMap::new();
        for o in &self.options {
            let v = parse_option_value(o.kind, o.default)
                .map_err(|e| format!("bad default for option '{}': {e}", o.name))?;
            values.insert(o.name, v);
        }
        for (key, text) in given {
            let Some(info) = self.options.iter().find(|o| o.name == key) else {
                let valid: Vec<&str> = self.options.iter().map(|o| o.name).collect();
                let hint = if valid.is_empty() {
                    "it takes no options".to_string()
                } else {
                    format!("valid options: {}", valid.join(", "))
                };
                return Err(format!("no such option '{key}' for pass '{}' ({hint})", self.argument));
            };
            let v = parse_option_value(info.kind, text)
                .map_err(|e| format!("invalid value for option '{key}' of pass '{}': {e}", self.argument))?;
            values.insert(info.name, v);
        }
        Ok(PassOptions { values })
    }
}

/// All known passes.
#[derive(Clone, Default)]
pub struct PassRegistry {
    passes: BTreeMap<&'static str, PassInfo>,
}

impl PassRegistry {
    /// A registry with the generic passes of this crate (`canonicalize`, `cse`).
    pub fn with_generic_passes() -> Self {
        let mut r = PassRegistry::default();
        r.register(canonicalize::info());
        r.register(cse::info());
        r
    }

    /// Adds a pass.
    pub fn register(&mut self, info: PassInfo) {
        self.passes.insert(info.argument, info);
    }

    /// Looks a pass up.
    pub fn get(&self, argument: &str) -> Option<&PassInfo> {
        self.passes.get(argument)
    }

    /// All passes, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = &PassInfo> {
        self.passes.values()
    }
}

/// A pass scheduled on an anchor path (`["func.func"]` for `builtin.module(func.func(p))`).
struct ScheduledPass {
    nesting: Vec<String>,
    pass: Box<dyn Pass>,
    description: String,
}

/// Pass manager settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct PassManagerOptions {
    /// Verify after each pass (on by default in [`PassManager::parse`]).
    pub verify_each: bool,
    /// Print the IR to stderr after each pass.
    pub print_ir_after_all: bool,
    /// Record and report per-pass wall-clock time.
    pub timing: bool,
    /// Accept unregistered ops when verifying.
    pub allow_unregistered: bool,
    /// Print IR dumps in generic form.
    pub generic_dumps: bool,
}

/// Runs a pipeline.
pub struct PassManager {
    anchor: String,
    passes: Vec<ScheduledPass>,
    options: PassManagerOptions,
    timings: Vec<(String, Duration)>,
    /// Non-fatal diagnostics the passes reported, in order (see [`PassContext::report`]).
    reported: Vec<Diagnostic>,
}

impl PassManager {
    /// Builds a pass manager from MLIR pipeline text, checking pass names and options.
    pub fn parse(text: &str, registry: &PassRegistry, options: PassManagerOptions) -> Result<PassManager, String> {
        let spec = parse_pipeline(text).map_err(|e| e.to_string())?;
        let mut passes = vec![];
        Self::schedule(&spec.elements, &mut vec![], registry, &mut passes)?;
        Ok(PassManager { anchor: spec.anchor, passes, options, timings: vec![], reported: vec![] })
    }

    fn schedule(
        elements: &[PipelineElement],
        nesting: &mut Vec<String>,
        registry: &PassRegistry,
        out: &mut Vec<ScheduledPass>,
    ) -> Result<(), String> {
        for e in elements {
            match e {
                PipelineElement::Pass { name, options } => {
                    let Some(info) = registry.get(name) else {
                        let known: Vec<&str> = registry.iter().map(|p| p.argument).collect();
                        return Err(format!(
                            "'{name}' does not refer to a registered pass (known passes: {})",
                            known.join(", ")
                        ));
                    };
                    let opts = info.parse_options(options)?;
                    let pass = (info.factory)(&opts)?;
                    out.push(ScheduledPass { nesting: nesting.clone(), pass, description: e.to_string() });
                }
                PipelineElement::Nested { anchor, elements } => {
                    nesting.push(anchor.clone());
                    Self::schedule(elements, nesting, registry, out)?;
                    nesting.pop();
                }
            }
        }
        Ok(())
    }

    /// Number of scheduled passes.
    pub fn len(&self) -> usize {
        self.passes.len()
    }

    /// Whether no pass is scheduled.
    pub fn is_empty(&self) -> bool {
        self.passes.is_empty()
    }

    /// Runs every pass in order on `root`, whose name must equal the pipeline anchor.
    pub fn run(&mut self, ir: &mut Ir, root: OpId, registry: &DialectRegistry) -> DiagResult<()> {
        if ir.op_name(root) != self.anchor {
            return Err(Diagnostic::error(
                ir.location(root).clone(),
                format!("can't run '{}' pass manager on '{}' op", self.anchor, ir.op_name(root)),
            ));
        }
        let cx = PassContext::new(registry);
        for scheduled in &mut self.passes {
            let targets = anchored_ops(ir, root, &scheduled.nesting);
            let start = Instant::now();
            let span = tracing::info_span!("pass", name = scheduled.pass.argument());
            let _enter = span.enter();
            for op in targets {
                let result = scheduled.pass.run(ir, op, &cx);
                // Remarks come before the error that stops the pipeline, as the pass made them.
                self.reported.extend(cx.take_reported());
                result?;
            }
            let elapsed = start.elapsed();
            tracing::debug!(pass = scheduled.pass.argument(), ?elapsed, "pass finished");
            if self.options.timing {
                self.timings.push((scheduled.description.clone(), elapsed));
            }
            if self.options.print_ir_after_all {
                let text = print_op(
                    ir,
                    registry,
                    root,
                    PrintOptions { generic: self.options.generic_dumps, debug_info: false },
                );
                let mut err = std::io::stderr().lock();
                let _ = writeln!(err, "// -----// IR Dump After {} //----- //\n{text}\n", scheduled.description);
            }
            if self.options.verify_each {
                crate::verifier::verify(ir, registry, root, self.options.allow_unregistered).map_err(|d| {
                    Diagnostic {
                        notes: [
                            d.notes.clone(),
                            vec![Diagnostic::note(
                                Location::Unknown,
                                format!("the IR became invalid after pass '{}'", scheduled.description),
                            )],
                        ]
                        .concat(),
                        ..d
                    }
                })?;
            }
        }
        Ok(())
    }

    /// Takes the non-fatal diagnostics (remarks, warnings) the passes reported in the runs so
    /// far, in the order they were made; they are kept after a failed run too.
    pub fn take_reported(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.reported)
    }

    /// Per-pass wall-clock times recorded with `timing` on, as MLIR's execution time report.
    pub fn timing_report(&self) -> String {
        let total: Duration = self.timings.iter().map(|(_, d)| *d).sum();
        let mut out = String::from("===-------------------------------------------------------------------------===\n");
        out.push_str("                         ... Execution time report ...\n");
        out.push_str("===-------------------------------------------------------------------------===\n");
        out.push_str(&format!("  Total Execution Time: {:.4} seconds\n\n", total.as_secs_f64()));
        out.push_str("  ----Wall Time----  ----Name----\n");
        for (name, d) in &self.timings {
            let pct = if total.is_zero() { 0.0 } else { 100.0 * d.as_secs_f64() / total.as_secs_f64() };
            out.push_str(&format!("    {:.4} ({pct:5.1}%)  {name}\n", d.as_secs_f64()));
        }
        out.push_str(&format!("    {:.4} (100.0%)  Total\n", total.as_secs_f64()));
        out
    }
}

/// Ops reached from `root` by following `nesting` (each level: ops of that name directly
/// inside the regions of the previous level), as MLIR's nested pass managers do.
fn anchored_ops(ir: &Ir, root: OpId, nesting: &[String]) -> Vec<OpId> {
    let mut current = vec![root];
    for name in nesting {
        let mut next = vec![];
        for op in current {
            for &r in ir.regions(op) {
                for &b in ir.blocks(r) {
                    next.extend(ir.block_op_iter(b).filter(|&o| ir.op_name(o) == name));
                }
            }
        }
        current = next;
    }
    current
}
