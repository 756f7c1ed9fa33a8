//! IR building blocks shared by the SOR rewrites: iterates, applies whose body is a clone of a
//! recognised update with a point mask, index arithmetic for the masks, and new field
//! arguments.

use std::sync::Arc;

use stencil_ir::affine::{AffineBinOp, AffineExpr, AffineMap};
use stencil_ir::ir::ValueMapping;
use stencil_ir::{Attribute, BlockId, Ir, Location, OpId, OperationState, Type, ValueId};
use stencil_ir::{Diagnostic, InsertPoint};

use stencil_dialects::support::op_error;

/// `arith.cmpi` predicates (MLIR's enum order).
#[derive(Clone, Copy, Debug)]
pub enum Cmp {
    /// `==`.
    Eq = 0,
    /// `<` (signed).
    Slt = 2,
    /// `>=` (signed).
    Sge = 5,
}

/// Appends ops to one block of an apply body under construction.
pub struct BodyBuilder<'a> {
    /// The IR.
    pub ir: &'a mut Ir,
    /// The block ops are appended to.
    pub block: BlockId,
    /// The location of every new op (the original apply's).
    pub location: Location,
}

impl BodyBuilder<'_> {
    fn op(&mut self, name: &str, operands: Vec<ValueId>, ty: Type, props: &[(&str, Attribute)]) -> ValueId {
        let mut state = OperationState::new(name, self.location.clone());
        state.operands = operands;
        state.result_types = vec![ty];
        for (k, v) in props {
            state.add_property(k, v.clone());
        }
        let op = self.ir.build(InsertPoint::End(self.block), state);
        self.ir.result(op, 0)
    }

    /// `arith.constant c : index`.
    pub fn index(&mut self, c: i64) -> ValueId {
        self.op(
            "arith.constant",
            vec![],
            Type::Index,
            &[("value", Attribute::Integer { value: c.into(), ty: Type::Index })],
        )
    }

    /// `arith.constant b : i1`.
    pub fn boolean(&mut self, b: bool) -> ValueId {
        self.op("arith.constant", vec![], Type::Integer(1), &[("value", Attribute::Bool(b))])
    }

    /// `stencil.index dim`: the current point's coordinate.
    pub fn coordinate(&mut self, dim: usize) -> ValueId {
        self.op("stencil.index", vec![], Type::Index, &[("dim", Attribute::i64(dim as i64))])
    }

    /// An index binary op (`arith.addi`, `subi`, `remsi`).
    pub fn int(&mut self, name: &str, a: ValueId, b: ValueId) -> ValueId {
        self.op(name, vec![a, b], Type::Index, &[])
    }

    /// `arith.cmpi pred, a, b`.
    pub fn cmp(&mut self, pred: Cmp, a: ValueId, b: ValueId) -> ValueId {
        self.op("arith.cmpi", vec![a, b], Type::Integer(1), &[("predicate", Attribute::i64(pred as i64))])
    }

    /// An `i1` binary op (`arith.andi`, `ori`).
    pub fn logic(&mut self, name: &str, a: ValueId, b: ValueId) -> ValueId {
        self.op(name, vec![a, b], Type::Integer(1), &[])
    }

    /// `arith.select c, a, b`.
    pub fn select(&mut self, c: ValueId, a: ValueId, b: ValueId) -> ValueId {
        let ty = self.ir.value_type(a).clone();
        self.op("arith.select", vec![c, a, b], ty, &[])
    }

    /// `stencil.access %field[0, …]`: the current point.
    pub fn centre(&mut self, field: ValueId, rank: usize, elem: Type) -> ValueId {
        self.op(
            "stencil.access",
            vec![field],
            elem,
            &[("offset", Attribute::DenseArray { element: Type::I64, values: vec![0; rank] })],
        )
    }

    /// `stencil.yield v`.
    pub fn yield_value(&mut self, v: ValueId) {
        let mut state = OperationState::new("stencil.yield", self.location.clone());
        state.operands = vec![v];
        self.ir.build(InsertPoint::End(self.block), state);
    }

    /// The conjunction of `conds` (`true` when empty).
    pub fn all(&mut self, conds: &[ValueId]) -> ValueId {
        match conds.split_first() {
            None => self.boolean(true),
            Some((&first, rest)) => rest.iter().fold(first, |acc, &c| self.logic("arith.andi", acc, c)),
        }
    }
}

/// Clones the body of `apply` (all ops but its yield) into `block`, reading `redirect.1`
/// wherever the original read `redirect.0`; returns the clone of the yielded value and of
/// `extra` values of the original body (e.g. its centre read).
pub fn clone_body(
    ir: &mut Ir,
    apply: OpId,
    block: BlockId,
    redirect: Option<(ValueId, ValueId)>,
    extra: &[ValueId],
) -> Result<(ValueId, Vec<ValueId>), Diagnostic> {
    let body = ir.regions(apply).first().and_then(|&r| ir.entry_block(r));
    let Some(body) = body else { return Err(op_error(ir, apply, "has no body")) };
    let ops = ir.block_ops(body);
    let Some((&yield_op, ops)) = ops.split_last() else { return Err(op_error(ir, apply, "has an empty body")) };
    let Some(&yielded) = ir.operands(yield_op).first() else { return Err(op_error(ir, yield_op, "yields nothing")) };
    let mut mapping = ValueMapping::new();
    if let Some((from, to)) = redirect {
        mapping.map(from, to);
    }
    for &op in ops {
        let clone = ir.clone_op(op, &mut mapping);
        ir.insert(clone, InsertPoint::End(block));
    }
    Ok((mapping.lookup(yielded), extra.iter().map(|&v| mapping.lookup(v)).collect()))
}

/// A new `stencil.apply @name writes %field` over the box of `like` (its bounds, order when
/// `reverse`), at `at`, with an empty body block to fill.
pub fn new_apply(
    ir: &mut Ir,
    like: OpId,
    at: InsertPoint,
    name: &str,
    field: ValueId,
    reverse: bool,
) -> (OpId, BlockId) {
    let region = ir.create_region();
    let block = ir.append_block(region, &[]);
    let mut state = OperationState::new("stencil.apply", ir.location(like).clone());
    state.operands = vec![field];
    state.regions = vec![region];
    state.add_property("name", Attribute::String(name.into()));
    for key in ["lower_bounds", "upper_bounds"] {
        if let Some(a) = ir.attr(like, key).cloned() {
            state.add_property(key, a);
        }
    }
    if reverse {
        state.add_property("order", Attribute::String("reverse".into()));
    }
    let op = ir.build(at, state);
    (op, block)
}

/// A new `stencil.iterate %x = lower to upper` at `at` (bounds over the program's `n_params`
/// parameters); returns it, its body block and its induction variable.
pub fn new_iterate(
    ir: &mut Ir,
    location: Location,
    at: InsertPoint,
    lower: AffineExpr,
    upper: AffineExpr,
    n_params: u32,
) -> (OpId, BlockId, ValueId) {
    let region = ir.create_region();
    let block = ir.append_block(region, &[Type::Index]);
    let mut state = OperationState::new("stencil.iterate", location);
    state.regions = vec![region];
    state.add_property("lower_bound", Attribute::AffineMap(Arc::new(AffineMap::new(0, n_params, vec![lower]))));
    state.add_property("upper_bound", Attribute::AffineMap(Arc::new(AffineMap::new(0, n_params, vec![upper]))));
    let op = ir.build(at, state);
    let iv = ir.block_args(block)[0];
    (op, block, iv)
}

/// `e + c`.
pub fn plus(e: &AffineExpr, c: i64) -> AffineExpr {
    AffineExpr::binary(AffineBinOp::Add, e.clone(), AffineExpr::Constant(c))
}

/// The `dim`-th result of the bound map `key` (`lower_bounds`/`upper_bounds`) of `apply`.
pub fn bound(ir: &Ir, apply: OpId, key: &str, dim: usize) -> Result<AffineExpr, Diagnostic> {
    match ir.attr(apply, key) {
        Some(Attribute::AffineMap(m)) => {
            m.results.get(dim).cloned().ok_or_else(|| op_error(ir, apply, format!("'{key}' has no dimension {dim}")))
        }
        _ => Err(op_error(ir, apply, format!("has no '{key}'"))),
    }
}
