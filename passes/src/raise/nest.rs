//! Recognition of one affine loop nest as an iterative stencil: which loops are sequential
//! time loops (`stencil.iterate`), which perfect nests are statements (`stencil.apply`), where
//! each statement writes, what it reads, and which values from outside its loops it uses.
//!
//! Nothing here changes the IR: the result is a [`Nest`] the builder turns into a program, or
//! a [`Refusal`] naming the op that does not fit and why.

use std::collections::{HashMap, HashSet};

use stencil_ir::affine::{AffineBinOp, AffineExpr, AffineMap};
use stencil_ir::ir::ValueDef;
use stencil_ir::registry::DialectRegistry;
use stencil_ir::types::Dim;
use stencil_ir::{Attribute, BlockId, Ir, OpId, Type, ValueId};

use super::lin::{Lin, Var};

/// Why (and where) a nest is not raised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// The op that does not fit (the nest's outermost loop for nest-wide reasons).
    pub op: OpId,
    /// What does not fit, and what would.
    pub reason: String,
}

/// Result of the analysis.
pub(crate) type R<T> = Result<T, Refusal>;

/// One loop dimension of the nest: an `affine.for`, or one dimension of an `affine.parallel`.
#[derive(Clone, Debug)]
pub(crate) struct LoopDim {
    /// The induction variable.
    pub iv: ValueId,
    /// The loop op.
    pub op: OpId,
    /// Inclusive lower bound, in the parameters.
    pub lower: Lin,
    /// Exclusive upper bound, in the parameters.
    pub upper: Lin,
}

/// Where a parameter's value comes from at the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ParamSource {
    /// An `index` value that dominates the nest (a function argument, a cast of one, a
    /// `memref.dim`, …).
    Value(ValueId),
    /// The size of dimension `dim` of a field's memref, read with a `memref.dim` the raise
    /// creates before the call (a dynamic dimension the accesses reach only up to a constant).
    Dim {
        /// The memref.
        memref: ValueId,
        /// Its dimension.
        dim: usize,
    },
    /// An integer function argument (`%n: i32`), cast to `index` with an `arith.index_cast`
    /// the raise creates before the call: the parameter of a bound the function computes from
    /// it in its own width (C's `n - 1` in `i32`, then cast), which the raise rewrites over
    /// the argument ([`Nest::conditions`] keep the computation from wrapping).
    Cast {
        /// The argument.
        argument: ValueId,
        /// Its width in bits.
        bits: u32,
    },
}

/// Coordinate `d` of a statement's point as a function of its loops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PointDim {
    /// `sign·x + shift` for the statement's `k`-th space loop `x` (`sign` ±1, the same for
    /// every loop dimension of a statement: −1 runs the box backwards).
    Loop {
        /// Index into [`Statement::space`].
        k: usize,
        /// +1 or −1.
        sign: i64,
        /// Constant part, in the parameters.
        shift: Lin,
    },
    /// A coordinate the loops do not vary: `[e, e + 1)` (`e` in the parameters).
    Fixed(Lin),
}

/// An index operand of a general access or an index value in a statement body.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum IndexOperand {
    /// The induction variable of the enclosing time loop with this loop dimension.
    Time(usize),
    /// Coordinate `d` of the point (`stencil.index d`).
    Coord(usize),
}

/// `constant + Σ c·operand`, an index value of a statement body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct IndexForm {
    /// Constant term.
    pub constant: i64,
    /// Terms, sorted by operand, no zero coefficients.
    pub terms: Vec<(IndexOperand, i64)>,
}

/// How a load reads its field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AccessKind {
    /// At the point plus constant offsets (`stencil.access %F[o…]`).
    Offset(Vec<i64>),
    /// At affine indices of time induction variables and coordinates (`stencil.access %F at
    /// […]`).
    General(Vec<IndexForm>),
}

/// One `affine.load` of a statement, before its store.
#[derive(Clone, Debug)]
pub(crate) struct Access {
    /// The load.
    pub op: OpId,
    /// Index into [`Nest::fields`].
    pub field: usize,
    /// Subscripts over the nest's loops and parameters.
    pub subscripts: Vec<Lin>,
    /// As a stencil access.
    pub kind: AccessKind,
}

/// A perfect loop nest storing one element per iteration: a `stencil.apply`.
#[derive(Clone, Debug)]
pub(crate) struct Statement {
    /// Loop dimensions of the enclosing time loops, outermost first.
    pub outer: Vec<usize>,
    /// Loop dimensions of the space loops, outermost first.
    pub space: Vec<usize>,
    /// Each coordinate of the written field's point.
    pub dims: Vec<PointDim>,
    /// Whether the loops run the box backwards (`order reverse`).
    pub reverse: bool,
    /// Index into [`Nest::fields`] of the written memref.
    pub written: usize,
    /// Subscripts of the store, over the nest's loops and parameters.
    pub store_subscripts: Vec<Lin>,
    /// The innermost loop body.
    pub body: BlockId,
    /// The store.
    pub store: OpId,
    /// The loads before the store, in body order.
    pub accesses: Vec<Access>,
    /// The loop op whose location the apply takes (the outermost space loop).
    pub loop_op: OpId,
}

/// The tree of time loops and statements.
#[derive(Clone, Debug)]
pub(crate) enum Item {
    /// A sequential loop (`stencil.iterate`) over loop dimension `var` around `items`.
    Iterate {
        /// The loop dimension.
        var: usize,
        /// What runs in each iteration, in order.
        items: Vec<Item>,
    },
    /// A statement.
    Apply(Box<Statement>),
}

/// A memref the nest reads or writes.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    /// The memref value.
    pub value: ValueId,
    /// Whether some statement writes it.
    pub written: bool,
}

/// A recognised nest.
#[derive(Clone, Debug)]
pub(crate) struct Nest {
    /// The outermost loop.
    pub root: OpId,
    /// Every loop dimension, by number.
    pub loops: Vec<LoopDim>,
    /// Every parameter, by number.
    pub params: Vec<ParamSource>,
    /// The top-level items (one: the root's).
    pub items: Vec<Item>,
    /// Memrefs, in order of first use (function arguments first when pre-registered).
    pub fields: Vec<Field>,
    /// Function arguments used as values in statement bodies (the program's scalars).
    pub scalars: Vec<ValueId>,
    /// Forms over the parameters that must be non-negative for the raised bounds to equal the
    /// function's: an integer computation of a bound (`n - 1` in `i32`) does not wrap.
    pub conditions: Vec<Lin>,
}

impl Nest {
    /// Every statement, in program order.
    pub fn statements(&self) -> Vec<&Statement> {
        fn walk<'a>(items: &'a [Item], out: &mut Vec<&'a Statement>) {
            for item in items {
                match item {
                    Item::Iterate { items, .. } => walk(items, out),
                    Item::Apply(s) => out.push(s),
                }
            }
        }
        let mut out = vec![];
        walk(&self.items, &mut out);
        out
    }

    /// Loop dimension whose induction variable is `v`.
    pub fn loop_of(&self, v: ValueId) -> Option<usize> {
        self.loops.iter().position(|l| l.iv == v)
    }
}

/// Ops a statement body (and the bodies between its loops) may hold besides accesses: the
/// scalar computations the stencil dialect allows in an apply body.
pub(crate) fn is_computation(ir: &Ir, registry: &DialectRegistry, op: OpId) -> bool {
    let name = ir.op_name(op);
    (name.starts_with("arith.") || name.starts_with("math."))
        && ir.regions(op).is_empty()
        && registry.traits_of(ir, op).pure
}

fn is_loop(ir: &Ir, op: OpId) -> bool {
    matches!(ir.op_name(op), "affine.for" | "affine.parallel")
}

/// The affine form of `expr` with dimension/symbol `k` standing for `operands[k]` (dimensions
/// first); `None` when it is not affine (a product of variables, `floordiv`, `ceildiv` or
/// `mod` of a non-constant).
fn lin_of_expr(expr: &AffineExpr, num_dims: usize, operands: &[Lin]) -> Result<Option<Lin>, String> {
    Ok(match expr {
        AffineExpr::Dim(d) => operands.get(*d as usize).cloned(),
        AffineExpr::Symbol(s) => operands.get(num_dims + *s as usize).cloned(),
        AffineExpr::Constant(c) => Some(Lin::constant(*c)),
        AffineExpr::Binary(op, l, r) => {
            let (Some(a), Some(b)) = (lin_of_expr(l, num_dims, operands)?, lin_of_expr(r, num_dims, operands)?) else {
                return Ok(None);
            };
            match op {
                AffineBinOp::Add => Some(a.add(&b)?),
                AffineBinOp::Mul => match (a.as_constant(), b.as_constant()) {
                    (_, Some(k)) => Some(a.scale(k)?),
                    (Some(k), None) => Some(b.scale(k)?),
                    (None, None) => None,
                },
                AffineBinOp::FloorDiv | AffineBinOp::CeilDiv | AffineBinOp::Mod => {
                    match (a.as_constant(), b.as_constant()) {
                        (Some(x), Some(y)) => {
                            let v = match op {
                                AffineBinOp::FloorDiv => stencil_ir::affine::floor_div(x, y),
                                AffineBinOp::CeilDiv => stencil_ir::affine::ceil_div(x, y),
                                _ => stencil_ir::affine::floor_mod(x, y),
                            };
                            Some(Lin::constant(v.ok_or(super::lin::OVERFLOW)?))
                        }
                        _ => None,
                    }
                }
            }
        }
    })
}

/// The function's facts the analysis starts from.
pub(crate) struct Context<'a> {
    /// The IR.
    pub ir: &'a Ir,
    /// Registered ops.
    pub registry: &'a DialectRegistry,
    /// The function's entry block (its arguments are the function's arguments).
    pub entry: BlockId,
}

/// Builds a [`Nest`] by walking the loops from the root.
pub(crate) struct Analyzer<'a> {
    cx: &'a Context<'a>,
    nest: Nest,
    /// Values already checked to be usable in the body of the statement being analysed.
    checked: HashSet<ValueId>,
    /// Loads outside the statement's innermost body that it uses (found while checking).
    hoisted: Vec<Access>,
}

impl<'a> Analyzer<'a> {
    /// An analyzer of the nest rooted at `root`, with the parameters, fields and scalars
    /// already known (the lowered-program convention declares them, in order).
    pub fn new(
        cx: &'a Context<'a>,
        root: OpId,
        params: Vec<ParamSource>,
        fields: Vec<ValueId>,
        scalars: Vec<ValueId>,
    ) -> Self {
        let fields = fields.into_iter().map(|value| Field { value, written: false }).collect();
        Analyzer {
            cx,
            nest: Nest { root, loops: vec![], params, items: vec![], fields, scalars, conditions: vec![] },
            checked: HashSet::new(),
            hoisted: vec![],
        }
    }

    /// Recognises the nest.
    pub fn run(mut self) -> R<Nest> {
        let root = self.nest.root;
        let item = self.match_loop(root, &[])?;
        self.nest.items = vec![item];
        // A load hoisted out of a statement's loops reads the same value inside them only if
        // no statement writes its memref.
        for s in self.nest.statements() {
            for a in &s.accesses {
                if self.nest.fields[a.field].written && !self.ir().block_op_iter(s.body).any(|o| o == a.op) {
                    return self.refuse(a.op, "a load outside the innermost loop body of a memref the nest writes: moved into the statement it could read another value");
                }
            }
        }
        Ok(self.nest)
    }

    fn ir(&self) -> &'a Ir {
        self.cx.ir
    }

    fn refuse<T>(&self, op: OpId, reason: impl Into<String>) -> R<T> {
        Err(Refusal { op, reason: reason.into() })
    }

    fn inside_nest(&self, op: OpId) -> bool {
        self.ir().is_ancestor(self.nest.root, op)
    }

    /// Whether `load` is a load loop-invariant code motion hoisted above the whole nest
    /// (`mlir-opt --affine-loop-invariant-code-motion` moves a coefficient `c[0]` before the
    /// time loop): in the nest's block, before it, with nothing between them that may write
    /// memory, so moving it back into the statements reads the same value there — provided the
    /// nest does not write its memref either ([`Analyzer::run`] refuses that).
    fn hoisted_above_nest(&self, load: OpId) -> bool {
        let ir = self.ir();
        let root = self.nest.root;
        let Some(block) = ir.parent_block(root).filter(|&b| ir.parent_block(load) == Some(b)) else { return false };
        let ops: Vec<OpId> = ir.block_op_iter(block).collect();
        let (Some(at), Some(end)) = (ops.iter().position(|&o| o == load), ops.iter().position(|&o| o == root)) else {
            return false;
        };
        at < end
            && ops[at + 1..end].iter().all(|&o| {
                matches!(ir.op_name(o), "affine.load" | "memref.load" | "memref.dim")
                    || (self.cx.registry.traits_of(ir, o).pure && ir.regions(o).is_empty())
            })
    }

    /// The location-free name of a value for messages: `%argK` for function arguments, else
    /// the defining op.
    fn describe(&self, v: ValueId) -> String {
        match self.ir().value_def(v) {
            ValueDef::BlockArgument { block, index } if block == self.cx.entry => format!("%arg{index}"),
            ValueDef::Result { op, .. } => format!("the result of '{}'", self.ir().op_name(op)),
            _ => "a block argument".to_string(),
        }
    }

    // ----- parameters and index expressions ------------------------------------------------

    fn param(&mut self, source: ParamSource) -> usize {
        let ir = self.ir();
        // `index_cast %n` written by the function and the one the raise would create are one
        // parameter.
        let cast_of = |p: &ParamSource| match p {
            ParamSource::Cast { argument, .. } => Some(*argument),
            ParamSource::Value(v) => ir
                .defining_op(*v)
                .filter(|&op| ir.op_name(op) == "arith.index_cast")
                .map(|op| ir.operand(op, 0))
                .filter(
                    |&a| matches!(ir.value_def(a), ValueDef::BlockArgument { block, .. } if block == self.cx.entry),
                ),
            ParamSource::Dim { .. } => None,
        };
        let same = |p: &ParamSource| *p == source || cast_of(p).is_some_and(|a| cast_of(&source) == Some(a));
        if let Some(k) = self.nest.params.iter().position(same) {
            return k;
        }
        self.nest.params.push(source);
        self.nest.params.len() - 1
    }

    /// The form of an `index` value used as a loop bound or subscript operand: a loop
    /// induction variable, a constant, an affine combination of those (`affine.apply`,
    /// `arith.addi`/`subi`/`muli` by a constant), or — defined outside the nest — a parameter.
    fn index_lin(&mut self, v: ValueId, user: OpId) -> R<Lin> {
        if let Some(k) = self.nest.loop_of(v) {
            return Ok(Lin::var(Var::Loop(k)));
        }
        let ir = self.ir();
        let bad = |e: String| Refusal { op: user, reason: e };
        match ir.value_def(v) {
            ValueDef::Result { op, .. } => {
                let constant = |attr: Option<&Attribute>| attr.and_then(Attribute::as_i64);
                match ir.op_name(op) {
                    "arith.constant" => match constant(ir.attr(op, "value")) {
                        Some(c) => Ok(Lin::constant(c)),
                        None => self.refuse(user, "an index operand is a constant that is not an integer"),
                    },
                    "affine.apply" => {
                        let Some(map) = ir.attr(op, "map").and_then(Attribute::as_affine_map).cloned() else {
                            return self.refuse(op, "affine.apply without a map");
                        };
                        let operands = ir.operands(op).to_vec();
                        let lins = operands.iter().map(|&o| self.index_lin(o, op)).collect::<R<Vec<_>>>()?;
                        let Some(e) = map.results.first() else { return self.refuse(op, "affine.apply without result") };
                        match lin_of_expr(e, map.num_dims as usize, &lins).map_err(bad)? {
                            Some(l) => Ok(l),
                            None => self.refuse(op, format!("the index '{e}' is not affine in the loop variables and symbols (floordiv, ceildiv, mod or a product): the stencil dialect's indices and bounds are affine")),
                        }
                    }
                    "arith.addi" | "arith.subi" | "arith.muli" => {
                        let a = self.index_lin(ir.operand(op, 0), op)?;
                        let b = self.index_lin(ir.operand(op, 1), op)?;
                        let r = match ir.op_name(op) {
                            "arith.addi" => Some(a.add(&b)),
                            "arith.subi" => Some(a.sub(&b)),
                            _ => match (a.as_constant(), b.as_constant()) {
                                (_, Some(k)) => Some(a.scale(k)),
                                (Some(k), None) => Some(b.scale(k)),
                                _ => None,
                            },
                        };
                        match r {
                            Some(r) => r.map_err(bad),
                            None => self.refuse(op, "a product of two variable indices is not affine"),
                        }
                    }
                    "arith.index_cast" | "arith.index_castui" if !self.inside_nest(op) => {
                        let unsigned = ir.op_name(op) == "arith.index_castui";
                        let x = ir.operand(op, 0);
                        let an_argument =
                            matches!(ir.value_def(x), ValueDef::BlockArgument { block, .. } if block == self.cx.entry);
                        if an_argument && !unsigned {
                            // The function's own cast of an argument: the parameter is that value.
                            return Ok(Lin::var(Var::Param(self.param(ParamSource::Value(v)))));
                        }
                        match self.integer_lin(x, unsigned) {
                            Some(l) => Ok(l),
                            None => Ok(Lin::var(Var::Param(self.param(ParamSource::Value(v))))),
                        }
                    }
                    _ if !self.inside_nest(op) && ir.value_type(v).is_index() => {
                        Ok(Lin::var(Var::Param(self.param(ParamSource::Value(v)))))
                    }
                    name => self.refuse(
                        op,
                        format!("the index computed by '{name}' inside the nest is not an affine function of the loop variables"),
                    ),
                }
            }
            ValueDef::BlockArgument { block, .. } if block == self.cx.entry && ir.value_type(v).is_index() => {
                Ok(Lin::var(Var::Param(self.param(ParamSource::Value(v)))))
            }
            _ => self.refuse(
                user,
                format!(
                    "an index operand is {}, neither a loop variable of the nest nor a symbol defined before it",
                    self.describe(v)
                ),
            ),
        }
    }

    /// The value of the integer `x` (defined before the nest, not `index`) cast to `index` —
    /// sign-extended, or zero-extended where `unsigned` — as a form over the function's integer
    /// arguments: constants, arguments, `addi`/`subi`, `muli` by a constant and `extsi`/`extui`
    /// of those. Each result of the computation must stay in its type's range for the form to
    /// be its value (two's complement arithmetic wraps): those ranges become
    /// [`Nest::conditions`], except where an argument's own range implies them. `None` for
    /// any other computation (it stays an opaque parameter).
    fn integer_lin(&mut self, x: ValueId, unsigned: bool) -> Option<Lin> {
        let mut conditions = vec![];
        let known = self.nest.params.len();
        let Some(mut form) = self.integer_form(x, &mut conditions, 0) else {
            // The arguments it met are no parameters of the program after all.
            self.nest.params.truncate(known);
            return None;
        };
        if unsigned {
            match (form.as_constant(), self.ir().value_type(x).bit_width()) {
                // A constant casts to its unsigned value (`-56 : i8` is 200).
                (Some(c), Some(w)) if w < 64 => form = Lin::constant(zero_extended(c, w)),
                // A negative value would cast to a huge index: the form is its value where it
                // is not negative.
                _ => conditions.push(form.clone()),
            }
        }
        for c in conditions {
            if !self.implied_by_argument_ranges(&c) && !self.nest.conditions.contains(&c) {
                self.nest.conditions.push(c);
            }
        }
        Some(form)
    }

    /// [`Analyzer::integer_lin`]'s recursion; `depth` bounds it on long chains.
    fn integer_form(&mut self, x: ValueId, conditions: &mut Vec<Lin>, depth: u32) -> Option<Lin> {
        let ir = self.ir();
        let ty = ir.value_type(x);
        let bits = ty.bit_width().filter(|&b| (2..=64).contains(&b) && ty.is_integer())?;
        if depth > 32 {
            return None;
        }
        let in_range =
            |this: &Self, form: &Lin, conditions: &mut Vec<Lin>| this.range_conditions(form, bits, conditions);
        match ir.value_def(x) {
            ValueDef::BlockArgument { block, .. } if block == self.cx.entry => {
                Some(Lin::var(Var::Param(self.param(ParamSource::Cast { argument: x, bits }))))
            }
            ValueDef::Result { op, .. } if !self.inside_nest(op) => match ir.op_name(op) {
                "arith.constant" => {
                    let c = ir.attr(op, "value").and_then(Attribute::as_i64)?;
                    Some(Lin::constant(c))
                }
                "arith.addi" | "arith.subi" | "arith.muli" => {
                    let a = self.integer_form(ir.operand(op, 0), conditions, depth + 1)?;
                    let b = self.integer_form(ir.operand(op, 1), conditions, depth + 1)?;
                    let form = match ir.op_name(op) {
                        "arith.addi" => a.add(&b).ok()?,
                        "arith.subi" => a.sub(&b).ok()?,
                        _ => match (a.as_constant(), b.as_constant()) {
                            (_, Some(k)) => a.scale(k).ok()?,
                            (Some(k), None) => b.scale(k).ok()?,
                            _ => return None,
                        },
                    };
                    in_range(self, &form, conditions)?;
                    Some(form)
                }
                "arith.extsi" => self.integer_form(ir.operand(op, 0), conditions, depth + 1),
                "arith.extui" => {
                    let inner = ir.operand(op, 0);
                    let form = self.integer_form(inner, conditions, depth + 1)?;
                    // A constant zero-extends to its unsigned value (`-56 : i8` is 200).
                    if let (Some(c), Some(w)) = (form.as_constant(), ir.value_type(inner).bit_width()) {
                        let unsigned = zero_extended(c, w);
                        return (unsigned >= 0).then(|| Lin::constant(unsigned));
                    }
                    conditions.push(form.clone());
                    Some(form)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Adds `low <= form <= high` (the range of a `bits`-bit result) as forms `>= 0`, except
    /// where the arguments' own ranges imply them. The sides are computed wide: `-low` of a
    /// 64-bit range does not fit a form's constant. `None` where a needed side does not fit
    /// either (the computation then stays an opaque parameter).
    fn range_conditions(&self, form: &Lin, bits: u32, conditions: &mut Vec<Lin>) -> Option<()> {
        let (low, high) = signed_range(bits);
        let terms: Vec<(usize, i64)> = form.params().collect();
        let constant = i128::from(form.constant);
        for (sign, bound) in [(1i128, i128::from(low)), (-1i128, i128::from(high))] {
            // sign·(form − bound) >= 0.
            let side_constant = sign * (constant - bound);
            let side_terms: Vec<(usize, i128)> = terms.iter().map(|&(p, c)| (p, sign * i128::from(c))).collect();
            if self.least_over_argument_ranges(side_constant, &side_terms).is_some_and(|least| least >= 0) {
                continue;
            }
            let mut side = Lin::constant(i64::try_from(side_constant).ok()?);
            for (p, c) in side_terms {
                side = side.add_scaled(&Lin::var(Var::Param(p)), i64::try_from(c).ok()?).ok()?;
            }
            conditions.push(side);
        }
        Some(())
    }

    /// The least value of `constant + Σ c·p` over the ranges of the arguments the parameters
    /// are ([`ParamSource::Cast`]); `None` where one is another parameter.
    fn least_over_argument_ranges(&self, constant: i128, terms: &[(usize, i128)]) -> Option<i128> {
        let mut least = constant;
        for &(p, c) in terms {
            let Some(ParamSource::Cast { bits, .. }) = self.nest.params.get(p) else { return None };
            let (low, high) = signed_range(*bits);
            least = least.checked_add(c.checked_mul(i128::from(if c > 0 { low } else { high }))?)?;
        }
        Some(least)
    }

    /// Whether `form >= 0` holds for every value of the arguments it is over (the types'
    /// ranges of [`ParamSource::Cast`] parameters); `false` where it has another parameter.
    fn implied_by_argument_ranges(&self, form: &Lin) -> bool {
        if form.has_loops() {
            return false;
        }
        let terms: Vec<(usize, i128)> = form.params().map(|(p, c)| (p, i128::from(c))).collect();
        self.least_over_argument_ranges(i128::from(form.constant), &terms).is_some_and(|least| least >= 0)
    }

    /// The results of `map` applied to `operands`, as forms.
    fn map_lins(&mut self, map: &AffineMap, operands: &[ValueId], op: OpId) -> R<Vec<Lin>> {
        let lins = operands.iter().map(|&o| self.index_lin(o, op)).collect::<R<Vec<_>>>()?;
        map.results
            .iter()
            .map(|e| match lin_of_expr(e, map.num_dims as usize, &lins) {
                Ok(Some(l)) => Ok(l),
                Ok(None) => self.refuse(op, format!("the index '{e}' is not affine (floordiv, ceildiv, mod or a product of variables): the stencil dialect's accesses and bounds are affine")),
                Err(e) => self.refuse(op, e),
            })
            .collect()
    }

    // ----- loops -----------------------------------------------------------------------------

    /// A bound of a loop: one affine expression in the parameters.
    fn bound(&mut self, op: OpId, map: &AffineMap, operands: &[ValueId], which: &str) -> R<Lin> {
        if map.results.len() != 1 {
            return self.refuse(
                op,
                format!(
                    "the {which} bound is the {} of {} expressions: a stencil box has one affine bound per side",
                    if which == "lower" { "max" } else { "min" },
                    map.results.len()
                ),
            );
        }
        let l = self.map_lins(map, operands, op)?.remove(0);
        if l.has_loops() {
            return self.refuse(op, format!("the {which} bound depends on the induction variable of an enclosing loop: the nest is not rectangular (the stencil dialect's domains are boxes)"));
        }
        Ok(l)
    }

    /// Registers the dimensions of a loop op (with their bounds); returns their numbers.
    fn loop_dims(&mut self, op: OpId) -> R<Vec<usize>> {
        let ir = self.ir();
        let Some(body) = ir.regions(op).first().and_then(|&r| ir.entry_block(r)) else {
            return self.refuse(op, "a loop without a body");
        };
        if !ir.results(op).is_empty() {
            let what = if ir.op_name(op) == "affine.parallel" { "reductions" } else { "iter_args" };
            return self.refuse(op, format!("the loop carries a scalar from one iteration to the next ({what}): a stencil statement stores one element per iteration and carries values only through memory"));
        }
        let map = |name: &str| ir.attr(op, name).and_then(Attribute::as_affine_map).cloned();
        let mut dims = vec![];
        if ir.op_name(op) == "affine.for" {
            let step = ir.attr(op, "step").and_then(Attribute::as_i64).unwrap_or(1);
            if step != 1 {
                return self.refuse(op, format!("the loop has step {step}: stencil loops have unit steps"));
            }
            let (Some(lb), Some(ub)) = (map("lowerBoundMap"), map("upperBoundMap")) else {
                return self.refuse(op, "affine.for without bound maps");
            };
            let sizes = ir.attr(op, "operandSegmentSizes").and_then(Attribute::as_dense_array).unwrap_or(&[]);
            let (nl, nu) = (sizes.first().copied().unwrap_or(0) as usize, sizes.get(1).copied().unwrap_or(0) as usize);
            let operands = ir.operands(op).to_vec();
            if operands.len() < nl + nu {
                return self.refuse(op, "affine.for operands do not match its operandSegmentSizes");
            }
            let lower = self.bound(op, &lb, &operands[..nl], "lower")?;
            let upper = self.bound(op, &ub, &operands[nl..nl + nu], "upper")?;
            let iv = ir
                .block_args(body)
                .first()
                .copied()
                .ok_or(Refusal { op, reason: "a loop without induction variable".into() })?;
            self.nest.loops.push(LoopDim { iv, op, lower, upper });
            dims.push(self.nest.loops.len() - 1);
        } else {
            let steps: Vec<i64> = match ir.attr(op, "steps") {
                Some(Attribute::Array(a)) => a.iter().filter_map(Attribute::as_i64).collect(),
                _ => vec![],
            };
            if let Some(s) = steps.iter().find(|&&s| s != 1) {
                return self.refuse(op, format!("the loop has step {s}: stencil loops have unit steps"));
            }
            let groups = |name: &str| ir.attr(op, name).and_then(Attribute::as_dense_int_elements).map(<[i64]>::to_vec);
            let (Some(lb), Some(ub), Some(lg), Some(ug)) = (
                map("lowerBoundsMap"),
                map("upperBoundsMap"),
                groups("lowerBoundsGroups"),
                groups("upperBoundsGroups"),
            ) else {
                return self.refuse(op, "affine.parallel without bound maps");
            };
            if lg.iter().chain(&ug).any(|&g| g != 1) {
                return self.refuse(op, "a bound of the parallel loop is a max or min of several expressions: a stencil box has one affine bound per side");
            }
            let operands = ir.operands(op).to_vec();
            let nl = lb.num_inputs().min(operands.len());
            let lowers = self.map_lins(&lb, &operands[..nl], op)?;
            let uppers = self.map_lins(&ub, &operands[nl..], op)?;
            let ivs = ir.block_args(body).to_vec();
            if lowers.len() != ivs.len() || uppers.len() != ivs.len() {
                return self.refuse(op, "affine.parallel bounds do not match its induction variables");
            }
            for ((iv, lower), upper) in ivs.into_iter().zip(lowers).zip(uppers) {
                if lower.has_loops() || upper.has_loops() {
                    return self.refuse(op, "a bound depends on the induction variable of an enclosing loop: the nest is not rectangular (the stencil dialect's domains are boxes)");
                }
                self.nest.loops.push(LoopDim { iv, op, lower, upper });
                dims.push(self.nest.loops.len() - 1);
            }
        }
        Ok(dims)
    }

    /// `chain[0]` around `chain[1]` … around `inner`, as nested time loops.
    fn iterates(chain: &[usize], inner: Vec<Item>) -> Vec<Item> {
        chain.iter().rev().fold(inner, |items, &var| vec![Item::Iterate { var, items }])
    }

    /// Recognises the loop `op` (inside the time loops `outer`).
    fn match_loop(&mut self, op: OpId, outer: &[usize]) -> R<Item> {
        let ir = self.ir();
        let mut chain = vec![];
        let mut current = op;
        loop {
            chain.extend(self.loop_dims(current)?);
            let body = ir
                .regions(current)
                .first()
                .and_then(|&r| ir.entry_block(r))
                .ok_or(Refusal { op: current, reason: "a loop without a body".into() })?;
            let ops = ir.block_ops(body);
            let loops: Vec<OpId> = ops.iter().copied().filter(|&o| is_loop(ir, o)).collect();
            if loops.is_empty() {
                let items = self.leaf(&chain, outer, body, current)?;
                return Ok(items);
            }
            // Between loops only computations (cloned into the statements that use them) and
            // loads hoisted out of the inner loops by loop-invariant code motion (moved back
            // into the statements that use them, if nothing in the nest writes their memref).
            for &o in &ops {
                if is_loop(ir, o)
                    || matches!(ir.op_name(o), "affine.yield" | "affine.apply" | "affine.load")
                    || is_computation(ir, self.cx.registry, o)
                {
                    continue;
                }
                let reason = match ir.op_name(o) {
                    "affine.store" | "memref.store" => "a store next to inner loops: only the innermost body of a perfect nest may store (a statement is one store per iteration of its loops)".to_string(),
                    "memref.load" => "memref.load is not an affine access: the raise reads subscripts from affine.load (mlir-opt --affine-raise-from-memref turns affine-indexed memref accesses into affine ones)".to_string(),
                    name => format!("'{name}' between the loops: only loops and arith/math computations may appear there"),
                };
                return self.refuse(o, reason);
            }
            if loops.len() == 1 {
                current = loops[0];
                continue;
            }
            // Several loops in sequence: everything so far is sequential time loops.
            let mut inner_outer = outer.to_vec();
            inner_outer.extend(&chain);
            let items = loops.iter().map(|&l| self.match_loop(l, &inner_outer)).collect::<R<Vec<_>>>()?;
            let mut items = Self::iterates(&chain, items);
            return Ok(items.remove(0));
        }
    }

    /// A memref a statement accesses: a function argument or a local allocation, ranked (1 to
    /// 3 dimensions) with f32/f64 elements, identity layout, default memory space.
    fn field(&mut self, memref: ValueId, user: OpId) -> R<usize> {
        if let Some(k) = self.nest.fields.iter().position(|f| f.value == memref) {
            return Ok(k);
        }
        let ir = self.ir();
        let ty = ir.value_type(memref).clone();
        let Some(m) = ty.as_memref() else { return self.refuse(user, "accesses something that is not a memref") };
        let rank = m.rank().unwrap_or(0);
        if !(1..=3).contains(&rank) {
            return self.refuse(
                user,
                format!("accesses a memref of rank {rank} ('{ty}'): stencil fields have 1 to 3 dimensions"),
            );
        }
        if !m.element.is_float() || !matches!(m.element, Type::Float(k) if k.width() == 32 || k.width() == 64) {
            return self.refuse(user, format!("accesses '{ty}': stencil fields hold f32 or f64"));
        }
        if m.layout.is_some() || m.memory_space.is_some() {
            // A strided layout is a view (linalg's subviews): folded into the accesses it is a
            // plain array again.
            let advice = if matches!(m.layout, Some(Attribute::StridedLayout { .. })) {
                " (a strided view: fold it into the accesses with mlir-opt --affine-fold-memref-alias-ops, or pass the whole array)"
            } else {
                ""
            };
            return self.refuse(
                user,
                format!("accesses '{ty}': only memrefs with the identity layout in the default memory space{advice}"),
            );
        }
        match ir.value_def(memref) {
            ValueDef::BlockArgument { block, .. } if block == self.cx.entry => {}
            ValueDef::Result { op, .. }
                if matches!(ir.op_name(op), "memref.alloc" | "memref.alloca") && !self.inside_nest(op) => {}
            _ => {
                return self.refuse(user, format!("accesses a memref that is {}: fields are the function's memref arguments or its own allocations (memref.alloc/alloca), which are known not to overlap each other", self.describe(memref)));
            }
        }
        self.nest.fields.push(Field { value: memref, written: false });
        Ok(self.nest.fields.len() - 1)
    }

    /// The subscripts of an `affine.load`/`affine.store` (its memref at `memref_index`).
    fn subscripts(&mut self, op: OpId, memref_index: usize) -> R<Vec<Lin>> {
        let ir = self.ir();
        let Some(map) = ir.attr(op, "map").and_then(Attribute::as_affine_map).cloned() else {
            return self.refuse(op, "an affine access without a map");
        };
        let operands = ir.operands(op)[memref_index + 1..].to_vec();
        self.map_lins(&map, &operands, op)
    }

    /// The innermost body of a perfect nest: exactly one store, at the point of the innermost
    /// loops, after the loads and computations of its value.
    fn leaf(&mut self, chain: &[usize], outer: &[usize], body: BlockId, innermost: OpId) -> R<Item> {
        let ir = self.ir();
        let ops = ir.block_ops(body);
        let stores: Vec<OpId> =
            ops.iter().copied().filter(|&o| matches!(ir.op_name(o), "affine.store" | "memref.store")).collect();
        let store = match stores.as_slice() {
            [] => {
                // A store under a guard in the body (`affine.if … { B[i] = … } else { … }`):
                // that region op is what the raise does not take, and where it is.
                let guard = ops.iter().copied().find(|&o| {
                    ir.collect_ops(o, stencil_ir::ir::WalkOrder::PreOrder)
                        .into_iter()
                        .any(|s| s != o && matches!(ir.op_name(s), "affine.store" | "memref.store"))
                });
                if let Some(guard) = guard {
                    let name = ir.op_name(guard).to_string();
                    return self.refuse(guard, format!("the loop body stores only inside '{name}': a guarded store is not a stencil statement (compute the value with arith.select and store it unguarded, or split the loop at the guard)"));
                }
                return self
                    .refuse(innermost, "the innermost loop body stores nothing: there is no statement to raise");
            }
            [s] => *s,
            [_, second, ..] => {
                // A C local that a front end keeps in memory (Polygeist's `memref.alloca` of one
                // element) is the usual second store: upstream MLIR forwards it to registers.
                let scalar_temporary = stores.iter().any(|&s| {
                    let memref = ir.operands(s).get(1).copied();
                    memref.and_then(|m| ir.defining_op(m)).is_some_and(|a| {
                        matches!(ir.op_name(a), "memref.alloca" | "memref.alloc")
                            && ir.value_type(ir.result(a, 0)).as_memref().and_then(|m| m.shape.clone()).is_some_and(
                                |shape| shape.iter().all(|d| matches!(d, stencil_ir::types::Dim::Static(1))),
                            )
                    })
                });
                let advice = if scalar_temporary {
                    "one of them is to a one-element local memref, a scalar temporary: run mlir-opt --affine-scalrep first, which keeps it in a register"
                } else {
                    "split the loop first"
                };
                return self.refuse(
                    *second,
                    format!(
                        "{} stores in one loop body: a stencil statement stores one element per point ({advice})",
                        stores.len()
                    ),
                );
            }
        };
        if ir.op_name(store) == "memref.store" {
            return self
                .refuse(store, "memref.store is not an affine access: the raise reads subscripts from affine.store (mlir-opt --affine-raise-from-memref turns affine-indexed memref accesses into affine ones)");
        }
        let written_value = ir.operand(store, 1);
        let written = self.field(written_value, store)?;
        self.nest.fields[written].written = true;
        let store_subscripts = self.subscripts(store, 1)?;
        let rank = store_subscripts.len();

        // Which loops index the store: they are the statement's space loops.
        let mut referenced = vec![];
        let mut dims = vec![];
        let mut sign = None;
        for (d, s) in store_subscripts.iter().enumerate() {
            let loops: Vec<(usize, i64)> = s.loops().collect();
            match loops.as_slice() {
                [] => dims.push(PointDim::Fixed(s.clone())),
                [(k, c)] if c.abs() == 1 => {
                    if !chain.contains(k) {
                        return self.refuse(store, format!("store index {d} depends on the induction variable of an enclosing loop that is not part of this perfect nest: the element written must be the current point of the statement's own loops"));
                    }
                    if *sign.get_or_insert(*c) != *c {
                        return self.refuse(store, "the store runs some dimensions forwards and others backwards: a stencil statement runs its whole box in one direction");
                    }
                    let mut shift = s.clone();
                    shift.terms.remove(&Var::Loop(*k));
                    referenced.push(*k);
                    dims.push(PointDim::Loop { k: referenced.len() - 1, sign: *c, shift });
                }
                [(_, c)] => {
                    return self.refuse(store, format!("store index {d} scales a loop variable by {c}: a stencil statement writes the point of unit-step loops (a strided write is not a box)"));
                }
                _ => {
                    return self.refuse(store, format!("store index {d} combines several loop variables: the element written must be the current point, one loop per dimension"));
                }
            }
        }
        let m = referenced.len();
        let space_chain = &chain[chain.len() - m.min(chain.len())..];
        if referenced.as_slice() != space_chain {
            let mut a = referenced.clone();
            let mut b = space_chain.to_vec();
            a.sort_unstable();
            b.sort_unstable();
            let reason = if a == b {
                "the store's indices take the loop variables in another order than the loops (a permuted nest): a stencil statement runs its box in the order of the field's dimensions"
            } else {
                "the store does not depend on an inner loop of its nest: every iteration of that loop writes the same element (a reduction or a repeated write, not a stencil statement)"
            };
            return self.refuse(store, reason);
        }
        if rank == 0 {
            return self.refuse(store, "a store into a rank-0 memref: stencil fields have 1 to 3 dimensions");
        }
        let time_chain = &chain[..chain.len() - m];
        let mut statement_outer = outer.to_vec();
        statement_outer.extend_from_slice(time_chain);
        let statement_space = space_chain.to_vec();
        let reverse = sign == Some(-1);

        // Ops before the store: loads become accesses, computations are checked; after the
        // store only ops without effects, which cannot change what is stored.
        let mut accesses = vec![];
        let store_pos = ops.iter().position(|&o| o == store).unwrap_or(ops.len());
        let mut statement = Statement {
            outer: statement_outer,
            space: statement_space,
            dims,
            reverse,
            written,
            store_subscripts,
            body,
            store,
            accesses: vec![],
            loop_op: space_chain.first().map_or(innermost, |&k| self.nest.loops[k].op),
        };
        let mut defined: HashSet<ValueId> = HashSet::new();
        self.checked.clear();
        self.hoisted.clear();
        for &o in &ops[..store_pos] {
            let name = ir.op_name(o);
            match name {
                "affine.load" => {
                    let field = self.field(ir.operand(o, 0), o)?;
                    let subscripts = self.subscripts(o, 0)?;
                    let kind = self.access_kind(&statement, &subscripts, o)?;
                    accesses.push(Access { op: o, field, subscripts, kind });
                }
                "memref.load" => {
                    return self
                        .refuse(o, "memref.load is not an affine access: the raise reads subscripts from affine.load (mlir-opt --affine-raise-from-memref turns affine-indexed memref accesses into affine ones)");
                }
                "affine.apply" => {
                    // Checked where it is used as a value; as a subscript it is composed.
                }
                _ if is_computation(ir, self.cx.registry, o) => {
                    for &v in ir.operands(o) {
                        if !defined.contains(&v) {
                            self.check_value(v, o, &statement)?;
                        }
                    }
                }
                _ => {
                    return self.refuse(o, format!("'{name}' in a statement body: the stencil dialect computes values with arith and math ops only"));
                }
            }
            defined.extend(ir.results(o).iter().copied());
        }
        let stored = ir.operand(store, 0);
        if !defined.contains(&stored) {
            self.check_value(stored, store, &statement)?;
        }
        // affine.apply results used as values (not only as subscripts).
        for &o in &ops[..store_pos] {
            if ir.op_name(o) == "affine.apply" {
                let r = ir.result(o, 0);
                let as_value = ir.uses(r).iter().any(|u| {
                    !matches!(ir.op_name(u.op), "affine.load" | "affine.store" | "affine.apply")
                        || (ir.op_name(u.op) == "affine.store" && u.operand == 0)
                });
                if as_value {
                    self.check_value(r, o, &statement)?;
                }
            }
        }
        for &o in &ops[store_pos + 1..] {
            let name = ir.op_name(o);
            if !(name == "affine.yield"
                || name == "affine.load"
                || name == "affine.apply"
                || is_computation(ir, self.cx.registry, o))
            {
                return self
                    .refuse(o, format!("'{name}' after the store: a stencil statement's only effect is its store"));
            }
        }
        accesses.append(&mut self.hoisted);
        statement.accesses = accesses;
        Ok(Self::iterates(time_chain, vec![Item::Apply(Box::new(statement))]).remove(0))
    }

    /// Coordinate `d` of the point as a form over the loops and parameters.
    fn point(statement: &Statement, d: usize) -> Result<Lin, String> {
        match &statement.dims[d] {
            PointDim::Loop { k, sign, shift } => Lin::var(Var::Loop(statement.space[*k])).scale(*sign)?.add(shift),
            PointDim::Fixed(e) => Ok(e.clone()),
        }
    }

    /// How a load with `subscripts` becomes a stencil access of `statement`.
    fn access_kind(&self, statement: &Statement, subscripts: &[Lin], op: OpId) -> R<AccessKind> {
        let rank = statement.dims.len();
        let bad = |e: String| Refusal { op, reason: e };
        if subscripts.len() == rank {
            let mut offsets = vec![];
            for (d, s) in subscripts.iter().enumerate() {
                match s.sub(&Self::point(statement, d).map_err(bad)?).map_err(bad)?.as_constant() {
                    Some(o) => offsets.push(o),
                    None => break,
                }
            }
            if offsets.len() == rank {
                return Ok(AccessKind::Offset(offsets));
            }
        }
        let forms = subscripts
            .iter()
            .map(|s| index_form(statement, s))
            .collect::<Result<Vec<_>, String>>()
            .map_err(|e| Refusal { op, reason: format!("the load is neither at a constant offset from the point nor at an index the stencil dialect can express: {e}") })?;
        Ok(AccessKind::General(forms))
    }

    /// Checks that `v`, used by `user` in a statement body but not defined in it, can be made
    /// inside the apply body: a loop variable, a function argument of scalar type (a scalar
    /// of the program), or a computation of those (cloned).
    fn check_value(&mut self, v: ValueId, user: OpId, statement: &Statement) -> R<()> {
        if self.checked.contains(&v) {
            return Ok(());
        }
        let ir = self.ir();
        if let Some(k) = self.nest.loop_of(v) {
            index_form(statement, &Lin::var(Var::Loop(k))).map_err(|e| Refusal {
                op: user,
                reason: format!("uses a loop variable as a value that the statement cannot express: {e}"),
            })?;
            self.checked.insert(v);
            return Ok(());
        }
        match ir.value_def(v) {
            ValueDef::BlockArgument { block, .. } if block == self.cx.entry => {
                let ty = ir.value_type(v);
                if !(ty.is_float() || ty.is_integer_like()) {
                    return self.refuse(
                        user,
                        format!(
                            "uses {} of type '{ty}' as a value: program scalars are f32, f64, iN or index",
                            self.describe(v)
                        ),
                    );
                }
                if !self.nest.scalars.contains(&v) {
                    self.nest.scalars.push(v);
                }
            }
            ValueDef::Result { op, .. } if ir.op_name(op) == "affine.apply" => {
                let l = self.index_lin(v, user)?;
                if l.has_params() {
                    return self.refuse(op, "an index computed from a symbol is used as a value: the stencil dialect's parameters appear only in bounds and extents (pass the value as a scalar argument instead)");
                }
                index_form(statement, &l).map_err(|e| Refusal { op, reason: e })?;
            }
            ValueDef::Result { op, .. }
                if ir.op_name(op) == "affine.load" && (self.inside_nest(op) || self.hoisted_above_nest(op)) =>
            {
                let field = self.field(ir.operand(op, 0), op)?;
                let subscripts = self.subscripts(op, 0)?;
                let kind = self.access_kind(statement, &subscripts, op)?;
                self.hoisted.push(Access { op, field, subscripts, kind });
            }
            ValueDef::Result { op, .. } if is_computation(ir, self.cx.registry, op) => {
                if self.inside_nest(op) && ir.block_op_iter(statement.body).any(|o| o == op) {
                    return Ok(());
                }
                for &o in ir.operands(op) {
                    self.check_value(o, op, statement)?;
                }
            }
            ValueDef::Result { op, .. } => {
                return self.refuse(user, format!("uses a value computed by '{}' outside the statement: only constants, scalar arguments and arith/math computations of those can be moved into a stencil statement", ir.op_name(op)));
            }
            ValueDef::BlockArgument { block, .. } => {
                let owner = ir.block_parent_op(block).map_or("?".to_string(), |o| ir.op_name(o).to_string());
                let reason = if owner == "affine.for" || owner == "affine.parallel" {
                    "uses a value carried from one loop iteration to the next (a loop-carried scalar): stencil statements carry values only through memory".to_string()
                } else {
                    format!("uses a block argument of '{owner}': the nest must be at the top level of the function")
                };
                return self.refuse(user, reason);
            }
            ValueDef::Undefined => return self.refuse(user, "uses an undefined value"),
        }
        self.checked.insert(v);
        Ok(())
    }
}

/// A form over the loops as an index value of `statement`'s body: time loops by their
/// induction variables, space loops through the point's coordinates (`x = sign·(p − shift)`).
pub(crate) fn index_form(statement: &Statement, lin: &Lin) -> Result<IndexForm, String> {
    if lin.has_params() {
        return Err("it uses a symbol, and the stencil dialect's general indices are affine in induction variables and coordinates only".into());
    }
    let mut terms: HashMap<IndexOperand, i64> = HashMap::new();
    let mut constant = lin.constant;
    let overflow = || super::lin::OVERFLOW.to_string();
    for (k, c) in lin.loops() {
        if statement.outer.contains(&k) {
            *terms.entry(IndexOperand::Time(k)).or_insert(0) += c;
            continue;
        }
        let Some(pos) = statement.space.iter().position(|&s| s == k) else {
            return Err("it uses a loop that does not enclose the statement".into());
        };
        let Some((d, sign, shift)) = statement.dims.iter().enumerate().find_map(|(d, p)| match p {
            PointDim::Loop { k: kk, sign, shift } if *kk == pos => Some((d, *sign, shift)),
            _ => None,
        }) else {
            return Err("it uses a loop the store does not index".into());
        };
        let Some(shift) = shift.as_constant() else {
            return Err("the loop variable is the point's coordinate minus a symbol".into());
        };
        // c·x = c·sign·(p − shift)
        let cs = c.checked_mul(sign).ok_or_else(overflow)?;
        let entry = terms.entry(IndexOperand::Coord(d)).or_insert(0);
        *entry = entry.checked_add(cs).ok_or_else(overflow)?;
        constant = cs.checked_mul(shift).and_then(|x| constant.checked_sub(x)).ok_or_else(overflow)?;
    }
    let mut terms: Vec<(IndexOperand, i64)> = terms.into_iter().filter(|&(_, c)| c != 0).collect();
    terms.sort();
    Ok(IndexForm { constant, terms })
}

/// The static size of dimension `d` of a memref value, if any.
pub(crate) fn static_size(ir: &Ir, memref: ValueId, d: usize) -> Option<i64> {
    match ir.value_type(memref).as_memref()?.shape.as_ref()?.get(d)? {
        Dim::Static(s) => Some(*s),
        Dim::Dynamic => None,
    }
}

/// The unsigned value of the `bits`-bit integer `c` (`-56 : i8` is 200); a 64-bit one as it
/// is (negative where it does not fit `i64`).
fn zero_extended(c: i64, bits: u32) -> i64 {
    if bits >= 64 {
        c
    } else {
        c.rem_euclid(1i64 << bits)
    }
}

/// The range of a signed integer of `bits` bits (2 to 64).
pub(crate) fn signed_range(bits: u32) -> (i64, i64) {
    let high = if bits >= 64 { i64::MAX } else { (1i64 << (bits - 1)) - 1 };
    (-high - 1, high)
}
