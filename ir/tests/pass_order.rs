//! Pipeline order checks of the pass manager (`PassContract`): a pass nested on an op it cannot
//! run on, a pass after one that lowered away what it works on, a repeated unique pass, a run
//! that finds nothing to work on, the hint for options separated by commas, and the variants
//! of `PipelineError` a library matches on.

use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::pass::{
    OptionInfo, OptionKind, Pass, PassContext, PassContract, PassInfo, PassManager, PassManagerOptions, PassRegistry,
    PipelineError,
};
use stencil_ir::registry::{DialectDef, DialectRegistry, OpDef, OpTraits};
use stencil_ir::{DiagResult, Ir, OpId, SourceFile};

struct Noop(&'static str);

impl Pass for Noop {
    fn argument(&self) -> &'static str {
        self.0
    }

    fn run(&mut self, _: &mut Ir, _: OpId, _: &PassContext<'_>) -> DiagResult<()> {
        Ok(())
    }
}

fn info(
    argument: &'static str,
    factory: fn(&stencil_ir::pass::PassOptions) -> Result<Box<dyn Pass>, String>,
    contract: PassContract,
) -> PassInfo {
    PassInfo {
        argument,
        summary: "test pass",
        options: vec![
            OptionInfo { name: "sizes", kind: OptionKind::IntList, default: "", description: "a list" },
            OptionInfo { name: "flag", kind: OptionKind::Bool, default: "false", description: "a flag" },
        ],
        factory: stencil_ir::pass::PassFactory::new(factory),
        contract,
    }
}

/// `analyse` works on `test.thing`, `lower` lowers it away, `tile` may appear once.
fn passes() -> PassRegistry {
    let mut r = PassRegistry::with_generic_passes();
    let usage = "run it on test.thing ops, e.g. builtin.module(analyse)";
    let works = PassContract {
        anchors: &["builtin.module", "test.thing"],
        works_on: Some("test.thing"),
        lowers: None,
        unique: false,
        produces: None,
        records: &[],
        discards: &[],
        usage,
    };
    r.register(info("analyse", |_| Ok(Box::new(Noop("analyse"))), works.clone()));
    r.register(info("tile", |_| Ok(Box::new(Noop("tile"))), PassContract { unique: true, ..works.clone() }));
    r.register(info(
        "lower",
        |_| Ok(Box::new(Noop("lower"))),
        PassContract { anchors: &["builtin.module"], lowers: Some("test.thing"), ..works.clone() },
    ));
    r.register(info(
        "lower-other",
        |_| Ok(Box::new(Noop("lower-other"))),
        PassContract { anchors: &["builtin.module"], lowers: Some("test.thing"), ..works },
    ));
    r
}

fn parse_pipeline(text: &str) -> Result<PassManager, String> {
    PassManager::parse(text, &passes(), PassManagerOptions::default()).map_err(|e| e.to_string())
}

#[test]
fn a_pass_after_the_lowering_of_what_it_works_on_is_refused_with_the_order_to_use() {
    let e = parse_pipeline("builtin.module(analyse,lower,tile)").err().expect("refused");
    assert!(e.contains("pass 'tile' cannot come after 'lower': 'lower' lowers every 'test.thing'"), "{e}");
    assert!(e.contains("run 'tile' before 'lower': builtin.module(analyse,tile,lower)"), "{e}");
    let e = parse_pipeline("builtin.module(lower,lower-other)").err().expect("refused");
    assert!(e.contains("both lower every 'test.thing'"), "{e}");
    // Passes that promise nothing (canonicalize) may follow anything.
    assert!(parse_pipeline("builtin.module(analyse,tile,lower,canonicalize,cse)").is_ok());
}

#[test]
fn a_unique_pass_twice_is_refused() {
    let e = parse_pipeline("builtin.module(tile{sizes=4},analyse,tile{sizes=2})").err().expect("refused");
    assert!(e.contains("pass 'tile' appears twice (tile{sizes=4}, then tile{sizes=2})"), "{e}");
    assert!(parse_pipeline("builtin.module(analyse,analyse)").is_ok());
}

#[test]
fn a_pass_nested_on_an_op_it_cannot_run_on_is_refused() {
    let e = parse_pipeline("builtin.module(func.func(analyse))").err().expect("refused");
    assert!(e.contains("pass 'analyse' cannot run nested on 'func.func': it runs on 'builtin.module' or 'test.thing' ops, e.g. builtin.module(analyse)"), "{e}");
    assert!(parse_pipeline("builtin.module(test.thing(analyse))").is_ok());
    assert!(parse_pipeline("builtin.module(test.thing(lower))").is_err());
}

#[test]
fn a_pass_that_drops_what_an_earlier_pass_recorded_is_refused() {
    let mut r = passes();
    let base = PassContract { anchors: &["builtin.module"], usage: "anywhere", ..PassContract::default() };
    r.register(info("record", |_| Ok(Box::new(Noop("record"))), PassContract { records: &["x.plan"], ..base.clone() }));
    r.register(info("drop", |_| Ok(Box::new(Noop("drop"))), PassContract { discards: &["x.plan"], ..base }));
    let parse = |text: &str| PassManager::parse(text, &r, PassManagerOptions::default()).map_err(|e| e.to_string());
    let e = parse("builtin.module(record,cse,drop)").err().expect("refused");
    assert!(
        e.contains("pass 'drop' cannot come after 'record': 'drop' drops the 'x.plan' that 'record' records"),
        "{e}"
    );
    assert!(e.contains("run 'drop' before 'record': builtin.module(drop,record,cse)"), "{e}");
    assert!(parse("builtin.module(drop,record,drop)").is_err(), "a recorder between does not help the later drop");
    assert!(parse("builtin.module(drop,cse,record)").is_ok());
}

#[test]
fn each_kind_of_refusal_is_its_own_variant() {
    let parse = |text: &str| PassManager::parse(text, &passes(), PassManagerOptions::default()).err();
    match parse("builtin.module(analyse,tile{sizes=4}") {
        Some(PipelineError::Syntax(e)) => assert_eq!(e.position, 36, "the end of the text: {e}"),
        other => panic!("{other:?}"),
    }
    match parse("builtin.module(analyse,nope)") {
        Some(PipelineError::UnknownPass { name, known }) => {
            assert_eq!(name, "nope");
            assert!(known.iter().any(|k| k == "tile"), "{known:?}");
        }
        other => panic!("{other:?}"),
    }
    match parse("builtin.module(tile{nope=1})") {
        Some(PipelineError::Options { pass, message }) => {
            assert_eq!(pass, "tile");
            assert!(message.contains("no such option 'nope'"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(parse("builtin.module(lower,tile)"), Some(PipelineError::Order { .. })));
}

#[test]
fn options_separated_by_commas_get_the_right_syntax() {
    let e = parse_pipeline("builtin.module(tile{sizes=4,8,flag=true})").err().expect("refused");
    assert!(e.contains("option 'sizes' of pass 'tile' got '4,8,flag=true', which holds option 'flag'"), "{e}");
    assert!(e.contains("e.g. tile{sizes=4,8 flag=true}"), "{e}");
    assert!(parse_pipeline("builtin.module(tile{sizes=4,8 flag=true})").is_ok());
}

fn dialects() -> DialectRegistry {
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

#[test]
fn a_run_that_finds_nothing_to_work_on_is_a_located_error() {
    let registry = dialects();
    let config = ParserConfig { registry: &registry, allow_unregistered: true };
    let mut without =
        parse_source(&SourceFile::new("t.mlir", "\"test.other\"() : () -> ()\n"), config).expect("parses");
    let mut pm = parse_pipeline("builtin.module(analyse)").expect("valid");
    let d = pm.run(&mut without.ir, without.top, &registry).expect_err("nothing to work on");
    let text = d.render();
    assert!(text.starts_with("t.mlir:1:1: error: pass 'analyse' found no 'test.thing' to work on in 'builtin.module': run it on test.thing ops"), "{text}");
    let config = ParserConfig { registry: &registry, allow_unregistered: true };
    let mut with = parse_source(&SourceFile::new("t.mlir", "\"test.thing\"() : () -> ()\n"), config).expect("parses");
    pm.run(&mut with.ir, with.top, &registry).expect("works on test.thing");
}

/// Sets the unit attribute named after itself on every op it runs on.
struct Mark(&'static str);

impl Pass for Mark {
    fn argument(&self) -> &'static str {
        self.0
    }

    fn run(&mut self, ir: &mut Ir, op: OpId, _: &PassContext<'_>) -> DiagResult<()> {
        ir.set_attribute(op, self.0, stencil_ir::Attribute::Unit);
        Ok(())
    }
}

#[test]
fn a_run_keeps_the_ir_after_the_first_top_level_pass_asked_for() {
    let mut r = passes();
    let any = PassContract {
        anchors: &["builtin.module", "test.thing"],
        works_on: None,
        lowers: None,
        unique: false,
        produces: None,
        records: &[],
        discards: &[],
        usage: "anywhere",
    };
    r.register(info("first", |_| Ok(Box::new(Mark("first"))), any.clone()));
    r.register(info("second", |_| Ok(Box::new(Mark("second"))), any));
    let registry = dialects();
    let config = ParserConfig { registry: &registry, allow_unregistered: true };
    let source = SourceFile::new("t.mlir", "\"test.thing\"() ({}) : () -> ()\n");
    let mut module = parse_source(&source, config).expect("parses");
    let top = module.top;
    // A nested run of the pass is not the point asked for; the top-level one is, and the kept IR
    // is as it left it: without what the later passes did.
    let mut pm =
        PassManager::parse("builtin.module(test.thing(first),second,first,second)", &r, PassManagerOptions::default())
            .expect("valid");
    assert!(pm.take_kept_ir().is_none(), "nothing asked for");
    pm.keep_ir_after("first");
    assert!(pm.take_kept_ir().is_none(), "nothing run yet");
    pm.run(&mut module.ir, top, &registry).expect("runs");
    let kept = pm.take_kept_ir().expect("kept after the top-level first");
    assert!(kept.attr(top, "first").is_some() && kept.attr(top, "second").is_some());
    assert!(module.ir.attr(top, "first").is_some());
    assert!(pm.take_kept_ir().is_none(), "taken once");
    // Kept before the second `second`: that pass's effect cannot be told apart here, so the
    // point is checked on a pipeline whose later pass is new.
    let mut pm = PassManager::parse("builtin.module(first,second)", &r, PassManagerOptions::default()).expect("valid");
    pm.keep_ir_after("first");
    let mut fresh =
        parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: true }).expect("parses");
    pm.run(&mut fresh.ir, fresh.top, &registry).expect("runs");
    let kept = pm.take_kept_ir().expect("kept");
    assert!(kept.attr(fresh.top, "first").is_some());
    assert!(kept.attr(fresh.top, "second").is_none(), "kept before the later pass ran");
    assert!(fresh.ir.attr(fresh.top, "second").is_some());
    // A pipeline without the pass keeps nothing.
    let mut pm = PassManager::parse("builtin.module(second)", &r, PassManagerOptions::default()).expect("valid");
    pm.keep_ir_after("first");
    pm.run(&mut fresh.ir, fresh.top, &registry).expect("runs");
    assert!(pm.take_kept_ir().is_none());
}
