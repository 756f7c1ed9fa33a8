//! The pass manager: a registry of passes, typed pass options, pipelines in MLIR's syntax,
//! verification after every pass, IR dumps and timing.

pub mod canonicalize;
pub mod cse;
pub mod licm;
pub mod pipeline;

use crate::diagnostics::{DiagResult, Diagnostic};
use crate::ir::{Ir, OpId};
use crate::location::Location;
use crate::printer::{print_op, PrintOptions};
use crate::registry::DialectRegistry;
use pipeline::{parse_pipeline, PipelineElement};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;
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

    /// A string option that is `auto` or a list of integers (e.g. tile or block sizes a model
    /// may choose; [`parse_int_list`]'s forms): `Ok(None)` for `auto`, `Ok(Some(list))` for a
    /// list (empty when the option is unset), `Err(text)` with the option's text when it is
    /// neither, for the pass to say what it expected.
    pub fn auto_or_int_list(&self, name: &str) -> Result<Option<Vec<i64>>, String> {
        let text = self.string(name).trim();
        if text == "auto" {
            return Ok(None);
        }
        if text.is_empty() {
            return Ok(Some(vec![]));
        }
        // Every item an integer: `32,,8`, `32x` or `x` is a mistake to report, not a list to
        // shorten (which silently ran the default block for `block=x`).
        parse_int_list(text).map(Some).ok_or_else(|| text.to_string())
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
            parse_int_list(text)
                .map(OptionValue::IntList)
                .ok_or_else(|| format!("expected a list of integers such as 32,32 or 32x32, got '{text}'"))
        }
    }
}

/// A list of integers separated by commas (`16,4,16,8`, as MLIR writes list options) or by
/// `x` (`16x4x16x8`, as the tile and block sizes are printed in reports, so that a reported
/// choice can be pasted back into a pipeline); `None` unless every item is an integer.
pub fn parse_int_list(text: &str) -> Option<Vec<i64>> {
    list_items(text).map(|p| p.parse::<i64>().ok()).collect()
}

/// The items of a list option, trimmed ([`parse_int_list`]'s separators).
fn list_items(text: &str) -> impl Iterator<Item = &str> {
    text.split([',', 'x']).map(str::trim)
}

/// How to construct a pass from its options: a function or a closure, which may capture state
/// of the program that registers it (a compiler that embeds this one hands its passes an `Arc`
/// of its own tables). An `Err` refuses the options with a message, before anything runs.
#[derive(Clone)]
pub struct PassFactory(Arc<PassConstructor>);

/// The function a [`PassFactory`] holds.
type PassConstructor = dyn Fn(&PassOptions) -> Result<Box<dyn Pass>, String> + Send + Sync;

impl PassFactory {
    /// A factory calling `construct` for each pass instance a pipeline names.
    pub fn new(construct: impl Fn(&PassOptions) -> Result<Box<dyn Pass>, String> + Send + Sync + 'static) -> Self {
        PassFactory(Arc::new(construct))
    }

    /// The pass for `options` (already parsed against the pass's declared options).
    pub fn build(&self, options: &PassOptions) -> Result<Box<dyn Pass>, String> {
        (self.0)(options)
    }
}

impl std::fmt::Debug for PassFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PassFactory(..)")
    }
}

/// What a pass works on and what it leaves behind. With it the pass manager refuses a pipeline
/// whose order cannot work before any input is read (`poly-codegen,gpu-map`: the first lowers
/// what the second maps), and a run in which the pass finds nothing to work on, instead of
/// letting either succeed silently with no effect. The default promises nothing (any anchor,
/// any IR), which is right for generic passes such as `canonicalize`.
#[derive(Clone, Debug, Default)]
pub struct PassContract {
    /// The op names the pass may be nested on (`builtin.module` for `builtin.module(p)`);
    /// empty: any op.
    pub anchors: &'static [&'static str],
    /// The op the pass works on: it handles every such op at or below its anchor, and a run
    /// that finds none is an error.
    pub works_on: Option<&'static str>,
    /// The op the pass lowers away: none is left after it, so a later pass that works on it
    /// would find nothing.
    pub lowers: Option<&'static str>,
    /// A second instance in one pipeline replaces what the first recorded instead of
    /// composing with it (a second `poly-tile` does not tile the tiles), so a repeat is an
    /// error.
    pub unique: bool,
    /// The op the pass may create (a raising pass creates what a lowering removed): passes
    /// after it may work on that op again.
    pub produces: Option<&'static str>,
    /// The attributes the pass records on the IR for later passes (`poly-schedule`:
    /// `poly.schedule`).
    pub records: &'static [&'static str],
    /// The attributes the pass drops where it changes the IR (`poly-remove-false-deps` drops
    /// the schedules of the programs it rewrites): after a pass that records one of them it
    /// would throw that pass's work away, so that order is an error.
    pub discards: &'static [&'static str],
    /// Where the pass belongs in a pipeline, with an example; ends the errors above.
    pub usage: &'static str,
}

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
    /// What it works on and leaves behind (pipeline order checks).
    pub contract: PassContract,
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
        for (i, (key, text)) in given.iter().enumerate() {
            if let Some(hint) = self.comma_separated_options_hint(key, text, given) {
                return Err(hint);
            }
            // `block=` with nothing after it says nothing: leave the option out for its default
            // (it ran the default silently). A bare `{flag}` arrives as `flag=true`.
            if text.trim().is_empty() {
                return Err(format!(
                    "option '{key}' of pass '{}' is given without a value; leave it out for its default",
                    self.argument
                ));
            }
            // A repeated option is a mistake (which value was meant?), as a repeated --param is.
            if given[..i].iter().any(|(k, _)| k == key) {
                return Err(format!(
                    "option '{key}' of pass '{}' is given more than once; give it once",
                    self.argument
                ));
            }
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

    /// Options separated by commas (`gpu-map{block=32,8,staging=false}`) read as one value that
    /// swallows the next option (`block` = `32,8,staging=false`): MLIR separates options with
    /// spaces, since list values use commas. Recognised when the value holds `,NAME=` for a
    /// declared option, and answered with the pipeline text written the right way.
    fn comma_separated_options_hint(&self, key: &str, text: &str, given: &[(String, String)]) -> Option<String> {
        let swallowed = text.split(',').skip(1).find_map(|part| {
            let (name, _) = part.split_once('=')?;
            self.options.iter().any(|o| o.name == name.trim()).then(|| name.trim().to_string())
        })?;
        let declared =
            |part: &str| part.split_once('=').is_some_and(|(n, _)| self.options.iter().any(|o| o.name == n.trim()));
        let mut fixed: Vec<String> = vec![];
        for (k, v) in given {
            let mut current = format!("{k}=");
            for (i, part) in v.split(',').enumerate() {
                if i > 0 && declared(part) {
                    fixed.push(std::mem::replace(&mut current, part.trim().to_string()));
                } else {
                    if i > 0 {
                        current.push(',');
                    }
                    current.push_str(part);
                }
            }
            fixed.push(current);
        }
        Some(format!(
            "option '{key}' of pass '{}' got '{text}', which holds option '{swallowed}': pass options are separated by spaces (commas separate the items of a list), e.g. {}{{{}}}",
            self.argument,
            self.argument,
            fixed.join(" ")
        ))
    }
}

/// All known passes.
#[derive(Clone, Default)]
pub struct PassRegistry {
    passes: BTreeMap<&'static str, PassInfo>,
}

impl PassRegistry {
    /// A registry with the generic passes of this crate (`canonicalize`, `cse`,
    /// `loop-invariant-code-motion`).
    pub fn with_generic_passes() -> Self {
        let mut r = PassRegistry::default();
        r.register(canonicalize::info());
        r.register(cse::info());
        r.register(licm::info());
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
    contract: PassContract,
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
    /// [`PassManager::keep_ir_after`]: the top-level pass whose result a run keeps, and the IR
    /// kept.
    keep_after: Option<(String, Option<Ir>)>,
}

/// Why [`PassManager::parse`] refused a pipeline, before any IR was touched. Each variant
/// prints as the tools print it (`stencil-opt`: `<pass-pipeline>: error: …`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PipelineError {
    /// The text is not a pipeline in MLIR's syntax (with the position of the error).
    #[error(transparent)]
    Syntax(#[from] pipeline::PipelineSyntaxError),
    /// A pass name no registered pass has.
    #[error("'{name}' does not refer to a registered pass (known passes: {})", known.join(", "))]
    UnknownPass {
        /// The name in the pipeline.
        name: String,
        /// The registered passes' names.
        known: Vec<String>,
    },
    /// The options of a pass: an option it does not have, or a value it does not take.
    #[error("{message}")]
    Options {
        /// The pass whose options were refused.
        pass: String,
        /// What is wrong, naming the option.
        message: String,
    },
    /// Passes in an order that cannot work (their contracts, [`PassContract`]).
    #[error("{message}")]
    Order {
        /// What cannot work and how to reorder the passes.
        message: String,
    },
}

impl PassManager {
    /// Builds a pass manager from MLIR pipeline text, checking pass names, options and order.
    pub fn parse(
        text: &str,
        registry: &PassRegistry,
        options: PassManagerOptions,
    ) -> Result<PassManager, PipelineError> {
        let spec = parse_pipeline(text)?;
        let mut passes = vec![];
        Self::schedule(&spec.elements, &mut vec![], registry, &mut passes)?;
        check_order(&spec.anchor, &passes).map_err(|message| PipelineError::Order { message })?;
        Ok(PassManager { anchor: spec.anchor, passes, options, timings: vec![], reported: vec![], keep_after: None })
    }

    fn schedule(
        elements: &[PipelineElement],
        nesting: &mut Vec<String>,
        registry: &PassRegistry,
        out: &mut Vec<ScheduledPass>,
    ) -> Result<(), PipelineError> {
        for e in elements {
            match e {
                PipelineElement::Pass { name, options } => {
                    let Some(info) = registry.get(name) else {
                        let known = registry.iter().map(|p| p.argument.to_string()).collect();
                        return Err(PipelineError::UnknownPass { name: name.clone(), known });
                    };
                    let refused = |message: String| PipelineError::Options { pass: name.clone(), message };
                    let opts = info.parse_options(options).map_err(refused)?;
                    let pass = info.factory.build(&opts).map_err(refused)?;
                    out.push(ScheduledPass {
                        nesting: nesting.clone(),
                        pass,
                        description: e.to_string(),
                        contract: info.contract.clone(),
                    });
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

    /// Makes the next [`PassManager::run`] keep a copy of the IR as the first top-level pass
    /// named `argument` leaves it (`poly-tile`), for [`PassManager::take_kept_ir`]: what a
    /// report on that pass's result needs once the later passes have transformed the IR further,
    /// without running the pipeline up to it a second time.
    pub fn keep_ir_after(&mut self, argument: &str) {
        self.keep_after = Some((argument.to_string(), None));
    }

    /// The IR [`PassManager::keep_ir_after`] asked for, once a run has passed that point
    /// (`None` before, or when the pipeline has no such top-level pass).
    pub fn take_kept_ir(&mut self) -> Option<Ir> {
        self.keep_after.as_mut().and_then(|(_, kept)| kept.take())
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
            if let Some(works_on) = scheduled.contract.works_on {
                let found = targets.iter().any(|&t| {
                    let mut any = false;
                    ir.walk(t, crate::ir::WalkOrder::PreOrder, &mut |op| any |= ir.op_name(op) == works_on);
                    any
                });
                if !found {
                    let at = targets.first().copied().unwrap_or(root);
                    return Err(Diagnostic::error(
                        ir.location(at).clone(),
                        format!(
                            "pass '{}' found no '{works_on}' to work on in '{}': {}",
                            scheduled.description,
                            ir.op_name(at),
                            scheduled.contract.usage
                        ),
                    ));
                }
            }
            let start = Instant::now();
            let span = tracing::info_span!("pass", name = scheduled.pass.argument());
            let _enter = span.enter();
            let mut failed = None;
            for op in targets {
                let result = scheduled.pass.run(ir, op, &cx);
                // Remarks come before the error that stops the pipeline, as the pass made them.
                self.reported.extend(cx.take_reported());
                if let Err(e) = result {
                    failed = Some(e);
                    break;
                }
            }
            let elapsed = start.elapsed();
            tracing::debug!(pass = scheduled.pass.argument(), ?elapsed, failed = failed.is_some(), "pass finished");
            if self.options.timing {
                // A pass that fails is timed too: a slow failure is what one profiles.
                let name = match failed {
                    Some(_) => format!("{} (failed)", scheduled.description),
                    None => scheduled.description.clone(),
                };
                self.timings.push((name, elapsed));
            }
            if let Some(e) = failed {
                return Err(e);
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
            if let Some((argument, kept)) = &mut self.keep_after {
                if kept.is_none() && scheduled.nesting.is_empty() && scheduled.pass.argument() == argument.as_str() {
                    *kept = Some(ir.clone());
                }
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

/// Refuses a pipeline whose order cannot work, before any input is read: a pass nested on an
/// op it cannot run on, a pass after one that lowered away what it works on, a repeated pass
/// whose second run would replace the first instead of composing with it.
fn check_order(anchor: &str, passes: &[ScheduledPass]) -> Result<(), String> {
    // The op each earlier pass lowered away, and which pass did it.
    let mut lowered: Vec<(&str, usize)> = vec![];
    for (j, p) in passes.iter().enumerate() {
        let name = p.pass.argument();
        let contract = &p.contract;
        let nested_on = p.nesting.last().map_or(anchor, String::as_str);
        if !contract.anchors.is_empty() && !contract.anchors.contains(&nested_on) {
            let allowed: Vec<String> = contract.anchors.iter().map(|a| format!("'{a}'")).collect();
            return Err(format!(
                "pass '{name}' cannot run nested on '{nested_on}': it runs on {} ops, e.g. {}({name}); {}",
                allowed.join(" or "),
                contract.anchors[0],
                contract.usage
            ));
        }
        if contract.unique {
            if let Some(first) = passes[..j].iter().find(|q| q.pass.argument() == name) {
                return Err(format!(
                    "pass '{name}' appears twice ({}, then {}): a second {name} replaces what the first recorded instead of composing with it; keep one",
                    first.description, p.description
                ));
            }
        }
        if let Some(works_on) = contract.works_on {
            if let Some(&(_, i)) = lowered.iter().find(|(op, _)| *op == works_on) {
                let lowerer = passes[i].pass.argument();
                if contract.lowers == Some(works_on) {
                    return Err(format!(
                        "pass '{name}' cannot come after '{lowerer}': both lower every '{works_on}', so '{name}' would find none left; use one of them ({})",
                        contract.usage
                    ));
                }
                let fix = reordered(anchor, passes, i, j).map(|p| format!(": {p}")).unwrap_or_default();
                return Err(format!(
                    "pass '{name}' cannot come after '{lowerer}': '{lowerer}' lowers every '{works_on}', so '{name}' would find none; run '{name}' before '{lowerer}'{fix}"
                ));
            }
        }
        if let Some((i, attribute)) = passes[..j]
            .iter()
            .enumerate()
            .find_map(|(i, q)| q.contract.records.iter().find(|a| contract.discards.contains(a)).map(|&a| (i, a)))
        {
            let recorder = passes[i].pass.argument();
            let fix = reordered(anchor, passes, i, j).map(|p| format!(": {p}")).unwrap_or_default();
            return Err(format!(
                "pass '{name}' cannot come after '{recorder}': '{name}' drops the '{attribute}' that '{recorder}' records, wherever it changes a program; run '{name}' before '{recorder}'{fix}"
            ));
        }
        if let Some(op) = contract.lowers {
            lowered.push((op, j));
        }
        if let Some(op) = contract.produces {
            lowered.retain(|(gone, _)| *gone != op);
        }
    }
    Ok(())
}

/// The pipeline text with pass `j` moved before pass `i`, when every pass is at the top level
/// (a nested pipeline has no single right place to move a pass to).
fn reordered(anchor: &str, passes: &[ScheduledPass], i: usize, j: usize) -> Option<String> {
    if passes.iter().any(|p| !p.nesting.is_empty()) {
        return None;
    }
    let mut order: Vec<&str> = passes.iter().map(|p| p.description.as_str()).collect();
    let moved = order.remove(j);
    order.insert(i, moved);
    Some(format!("{anchor}({})", order.join(",")))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn with_string(text: &str) -> PassOptions {
        PassOptions { values: BTreeMap::from([("sizes", OptionValue::String(text.to_string()))]) }
    }

    #[test]
    fn auto_or_int_list_tells_auto_a_list_and_neither_apart() {
        assert_eq!(with_string(" auto ").auto_or_int_list("sizes"), Ok(None));
        assert_eq!(with_string("32, 8").auto_or_int_list("sizes"), Ok(Some(vec![32, 8])));
        // An empty item is a mistake, never a shorter list (`block=x` was the default block).
        for bad in ["32, 8,", "32,,8", ",4", "x", ",", "16x", "16xx4"] {
            assert_eq!(with_string(bad).auto_or_int_list("sizes"), Err(bad.to_string()), "{bad}");
        }
        assert_eq!(with_string("").auto_or_int_list("sizes"), Ok(Some(vec![])));
        assert_eq!(with_string("32,y").auto_or_int_list("sizes"), Err("32,y".to_string()));
        // The form reports print tile and block sizes in.
        assert_eq!(with_string("16x4x16x8").auto_or_int_list("sizes"), Ok(Some(vec![16, 4, 16, 8])));
        assert_eq!(with_string("0x10").auto_or_int_list("sizes"), Ok(Some(vec![0, 10])));
        assert_eq!(with_string("automatic").auto_or_int_list("sizes"), Err("automatic".to_string()));
    }
}
