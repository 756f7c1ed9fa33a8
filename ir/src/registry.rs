//! Op and dialect definitions: what a registered op's traits, syntax, verifier and folder are.

use crate::attributes::{Attribute, DialectAttribute};
use crate::diagnostics::DiagResult;
use crate::ir::{Ir, OpId, OperationState, ValueId};
use crate::location::Location;
use crate::parser::{CustomOpParser, ParseResult};
use crate::printer::OpPrinter;
use crate::types::DialectType;
use crate::types::Type;
use std::collections::HashMap;
use std::fmt;

/// Structural properties of an op (MLIR's traits), used by the verifier and generic passes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct OpTraits {
    /// No side effects: removable when unused, CSE-able.
    pub pure: bool,
    /// Must be the last op of its block.
    pub terminator: bool,
    /// Regions cannot use values defined outside the op.
    pub isolated_from_above: bool,
    /// Regions hold a symbol table (symbol names unique inside).
    pub symbol_table: bool,
    /// Defines a symbol through its `sym_name` attribute.
    pub symbol: bool,
    /// Blocks of its regions have no terminator requirement.
    pub no_terminator: bool,
    /// Each region has at most one block.
    pub single_block: bool,
    /// Operand order does not matter (CSE treats `a+b` and `b+a` as equal).
    pub commutative: bool,
    /// Region bodies may read memory written elsewhere, but the op itself only reads memory;
    /// it is not `pure` yet has no writes (e.g. loads). CSE must not merge these across
    /// writes, so they are treated as impure by the generic passes.
    pub reads_memory: bool,
    /// Produces a constant held in its `value` attribute (MLIR's `ConstantLike`); the folder
    /// reads operand constants through it.
    pub constant_like: bool,
    /// Opens a new scope for affine symbols (MLIR's `AffineScope`): values defined at the top
    /// level of its regions, and its region arguments, are valid symbols for the affine ops
    /// inside (`func.func`, `gpu.launch`). Ops that are isolated from above are treated as
    /// affine scopes too.
    pub affine_scope: bool,
    /// Constants inside this op's regions are hoisted and uniqued no further out than its
    /// entry block (MLIR's `DialectFoldInterface::shouldMaterializeInto`): for ops whose
    /// enclosing region may only hold specific ops, such as `stencil.apply`.
    pub constants_scope: bool,
    /// Its regions run repeatedly with values from outside (MLIR's `LoopLikeOpInterface`):
    /// `loop-invariant-code-motion` moves ops of its body that depend only on such values in
    /// front of it.
    pub loop_like: bool,
    /// Pure, but undefined for some operands (integer division or remainder by zero), so not
    /// speculatable (MLIR's `ConditionallySpeculatable`): never moved where it would run when
    /// it did not before, e.g. out of a loop that may run no iteration.
    pub may_trap: bool,
}

/// Result of folding an op (MLIR's `OpFoldResult` list).
#[derive(Clone, Debug, PartialEq)]
pub enum FoldResult {
    /// Each result folds to a constant attribute.
    Constants(Vec<Attribute>),
    /// Each result folds to an existing value.
    Values(Vec<ValueId>),
}

/// A custom-syntax parser: fills in the op state after the op name has been read.
pub type ParseFn = fn(&mut CustomOpParser<'_, '_>) -> ParseResult<()>;
/// A custom-syntax printer: prints everything after the op name.
pub type PrintFn = fn(&mut OpPrinter<'_>, OpId) -> fmt::Result;
/// A per-op verifier. It gets the registry to look up symbols and other ops' traits.
pub type VerifyFn = fn(&Ir, OpId, &DialectRegistry) -> DiagResult<()>;
/// A folder: given the op and the constant value of each operand (if known).
pub type FoldFn = fn(&Ir, OpId, &[Option<Attribute>]) -> Option<FoldResult>;
/// Suggests a name for result values when printing (`%c0`, `%cst`, `%thread_id_x`).
pub type NameHintFn = fn(&Ir, OpId) -> Option<String>;
/// Suggests names for the entry block arguments of an op's regions (MLIR's
/// `getAsmBlockArgumentNames`): one entry per argument of region 0's entry block.
pub type ArgNameHintFn = fn(&Ir, OpId) -> Vec<Option<String>>;
/// Canonicalization patterns that rewrite the IR in place; returns whether it changed.
pub type CanonicalizeFn = fn(&mut Ir, OpId) -> bool;
/// Fills in default-valued properties the op state lacks.
pub type DefaultPropertiesFn = fn(&mut OperationState);
/// Whether an op that [`may_trap`](OpTraits::may_trap) is defined for every value this instance
/// can see (MLIR's `ConditionallySpeculatable`), e.g. a division by a constant divisor.
pub type SpeculatableFn = fn(&Ir, OpId, &DialectRegistry) -> bool;

/// The definition of a registered op.
#[derive(Clone)]
pub struct OpDef {
    /// Full name, `dialect.op`.
    pub name: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// Traits.
    pub traits: OpTraits,
    /// Names of inherent attributes (MLIR 22 properties), printed in `<{…}>` in generic form.
    pub inherent_attrs: &'static [&'static str],
    /// Custom-syntax parser, if the op has a custom form.
    pub parse: Option<ParseFn>,
    /// Custom-syntax printer, if the op has a custom form.
    pub print: Option<PrintFn>,
    /// Per-op verifier (run after the structural checks).
    pub verify: Option<VerifyFn>,
    /// Constant folder.
    pub fold: Option<FoldFn>,
    /// Canonicalization patterns beyond folding.
    pub canonicalize: Option<CanonicalizeFn>,
    /// Result name suggestion for the printer.
    pub name_hint: Option<NameHintFn>,
    /// Name suggestions for the entry block arguments of region 0.
    pub arg_name_hint: Option<ArgNameHintFn>,
    /// Dialect whose ops may be written without prefix inside this op's regions (as
    /// `return` inside `func.func`).
    pub default_dialect: Option<&'static str>,
    /// Adds default-valued properties missing from a generically parsed op (MLIR fills
    /// `DefaultValuedAttr` properties such as `fastmath = #arith.fastmath<none>` on parse, so
    /// they print in generic form whether or not the input spelled them).
    pub default_properties: Option<DefaultPropertiesFn>,
    /// For an op that may trap: the instances that cannot (speculatable after all).
    pub speculatable: Option<SpeculatableFn>,
}

impl OpDef {
    /// A definition with a name and summary and nothing else; fill the rest with struct
    /// update syntax.
    pub const fn new(name: &'static str, summary: &'static str) -> Self {
        OpDef {
            name,
            summary,
            traits: OpTraits {
                pure: false,
                terminator: false,
                isolated_from_above: false,
                symbol_table: false,
                symbol: false,
                no_terminator: false,
                single_block: false,
                commutative: false,
                reads_memory: false,
                constant_like: false,
                constants_scope: false,
                affine_scope: false,
                loop_like: false,
                may_trap: false,
            },
            inherent_attrs: &[],
            parse: None,
            print: None,
            verify: None,
            fold: None,
            canonicalize: None,
            name_hint: None,
            arg_name_hint: None,
            default_dialect: None,
            default_properties: None,
            speculatable: None,
        }
    }

    /// Whether `name` is one of this op's inherent attributes.
    pub fn is_inherent(&self, name: &str) -> bool {
        self.inherent_attrs.contains(&name)
    }
}

impl fmt::Debug for OpDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpDef").field("name", &self.name).field("traits", &self.traits).finish()
    }
}

/// Checks the body of a dialect type (`!stencil.field<…>`) at parse time; returns the
/// canonical spelling of the type (so equal types compare equal however they were written),
/// or a message on error.
pub type TypeCheckFn = fn(&DialectType) -> Result<DialectType, String>;
/// Checks the body of a dialect attribute (`#gpu<dim x>`); returns a message on error.
pub type AttrCheckFn = fn(&DialectAttribute) -> Result<(), String>;

/// Builds the state of a constant op producing `value` of type `ty` (MLIR's
/// `materializeConstant`), or `None` if the dialect cannot.
pub type MaterializeFn = fn(&Attribute, &Type, Location) -> Option<OperationState>;

/// A dialect: a namespace plus hooks for its types and attributes.
#[derive(Clone, Debug)]
pub struct DialectDef {
    /// Namespace.
    pub name: &'static str,
    /// Validates dialect types at parse time.
    pub check_type: Option<TypeCheckFn>,
    /// Validates dialect attributes at parse time.
    pub check_attr: Option<AttrCheckFn>,
    /// Creates constants for folded values of this dialect's ops.
    pub materialize_constant: Option<MaterializeFn>,
}

impl DialectDef {
    /// A dialect with no hooks.
    pub const fn new(name: &'static str) -> Self {
        DialectDef { name, check_type: None, check_attr: None, materialize_constant: None }
    }
}

/// All registered dialects and ops.
#[derive(Clone, Debug, Default)]
pub struct DialectRegistry {
    ops: HashMap<&'static str, OpDef>,
    dialects: HashMap<&'static str, DialectDef>,
}

impl DialectRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a dialect namespace.
    pub fn register_dialect(&mut self, dialect: DialectDef) {
        self.dialects.insert(dialect.name, dialect);
    }

    /// Registers an op.
    pub fn register_op(&mut self, def: OpDef) {
        self.ops.insert(def.name, def);
    }

    /// Registers many ops.
    pub fn register_ops(&mut self, defs: impl IntoIterator<Item = OpDef>) {
        for d in defs {
            self.register_op(d);
        }
    }

    /// The definition of op `name`.
    pub fn op(&self, name: &str) -> Option<&OpDef> {
        self.ops.get(name)
    }

    /// The dialect `name`.
    pub fn dialect(&self, name: &str) -> Option<&DialectDef> {
        self.dialects.get(name)
    }

    /// Whether dialect `name` is registered.
    pub fn has_dialect(&self, name: &str) -> bool {
        self.dialects.contains_key(name)
    }

    /// All registered dialect names, sorted (`stencil-opt --show-dialects`).
    pub fn dialect_names(&self) -> Vec<&'static str> {
        let mut v: Vec<_> = self.dialects.keys().copied().collect();
        v.sort_unstable();
        v
    }

    /// All registered op names, sorted.
    pub fn op_names(&self) -> Vec<&'static str> {
        let mut v: Vec<_> = self.ops.keys().copied().collect();
        v.sort_unstable();
        v
    }

    /// The definition of `op`'s name in `ir`.
    pub fn def_of(&self, ir: &Ir, op: OpId) -> Option<&OpDef> {
        self.op(ir.op_name(op))
    }

    /// The traits of `op` (default traits for unregistered ops).
    pub fn traits_of(&self, ir: &Ir, op: OpId) -> OpTraits {
        self.def_of(ir, op).map(|d| d.traits).unwrap_or_default()
    }

    /// Whether `op` may run where it did not before (MLIR's speculatability): it does not
    /// trap, or this instance cannot ([`OpDef::speculatable`]). Says nothing of side effects.
    pub fn speculatable(&self, ir: &Ir, op: OpId) -> bool {
        // An unregistered op has no traits: it does not trap (and is not pure either).
        self.def_of(ir, op).is_none_or(|def| !def.traits.may_trap || def.speculatable.is_some_and(|f| f(ir, op, self)))
    }
}
