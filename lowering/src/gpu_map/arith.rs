//! Index arithmetic with `arith` ops, for GPU kernels: inside a `gpu.func` thread and block ids
//! are not valid affine dimensions or symbols (MLIR's affine scope rules), so kernels compute
//! loop bounds and indices with `arith` (`ceildivsi`/`floordivsi` round as affine `ceildiv`/
//! `floordiv` do) and access memory with `memref.load`/`memref.store`.

use stencil_ir::affine::{AffineBinOp, AffineExpr};
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::{Attribute, Ir, Location, Type, ValueId};

use crate::codegen::statement::Indexer;

/// `arith.constant c : index`.
pub(crate) fn index_constant(ir: &mut Ir, at: InsertPoint, c: i64, location: &Location) -> ValueId {
    let mut state = OperationState::new("arith.constant", location.clone());
    state.add_property("value", Attribute::index(c));
    state.result_types = vec![Type::Index];
    let op = ir.build(at, state);
    ir.result(op, 0)
}

/// `arith.constant 0` of the integer, index or float type `ty`: a placeholder for a value that
/// is never used (the result of a load that did not run).
pub(crate) fn zero_constant(ir: &mut Ir, at: InsertPoint, ty: &Type, location: &Location) -> Result<ValueId, String> {
    let value = match ty {
        Type::Float(kind) => Attribute::Float { value: 0.0, kind: *kind },
        Type::Integer(_) | Type::Index => Attribute::Integer { value: 0, ty: ty.clone() },
        other => return Err(format!("no zero constant of type {other}")),
    };
    let mut state = OperationState::new("arith.constant", location.clone());
    state.add_property("value", value);
    state.result_types = vec![ty.clone()];
    let op = ir.build(at, state);
    Ok(ir.result(op, 0))
}

/// `arith.constant true` (an `i1`): the condition of a test with no terms.
pub(crate) fn true_constant(ir: &mut Ir, at: InsertPoint, location: &Location) -> ValueId {
    let mut state = OperationState::new("arith.constant", location.clone());
    state.add_property("value", Attribute::Bool(true));
    state.result_types = vec![Type::I1];
    let op = ir.build(at, state);
    ir.result(op, 0)
}

/// `name %a, %b` with result type `ty` (an `arith` binary op).
pub(crate) fn binary(
    ir: &mut Ir,
    at: InsertPoint,
    name: &str,
    a: ValueId,
    b: ValueId,
    ty: Type,
    location: &Location,
) -> ValueId {
    let mut state = OperationState::new(name, location.clone());
    state.operands = vec![a, b];
    state.result_types = vec![ty];
    let op = ir.build(at, state);
    ir.result(op, 0)
}

/// `acc = acc op value` at `at` (`value` alone when `acc` is empty): folds a list of terms
/// into one (`arith.andi` of tests, `arith.maxsi` of bounds, …).
pub(crate) fn accumulate(
    ir: &mut Ir,
    at: InsertPoint,
    acc: &mut Option<ValueId>,
    op: &str,
    value: ValueId,
    location: &Location,
) {
    let ty = ir.value_type(value).clone();
    *acc = Some(match *acc {
        Some(a) => binary(ir, at, op, a, value, ty, location),
        None => value,
    });
}

/// `arith.cmpi predicate, %a, %b : index` (MLIR's predicate numbering: eq 0, sge 5, …).
pub(crate) fn compare(
    ir: &mut Ir,
    at: InsertPoint,
    predicate: i64,
    a: ValueId,
    b: ValueId,
    location: &Location,
) -> ValueId {
    let mut state = OperationState::new("arith.cmpi", location.clone());
    state.add_property("predicate", Attribute::i64(predicate));
    state.operands = vec![a, b];
    state.result_types = vec![Type::I1];
    let op = ir.build(at, state);
    ir.result(op, 0)
}

/// `arith.select %cond, %a, %b` (of `a`'s type).
pub(crate) fn select(
    ir: &mut Ir,
    at: InsertPoint,
    cond: ValueId,
    a: ValueId,
    b: ValueId,
    location: &Location,
) -> ValueId {
    let mut state = OperationState::new("arith.select", location.clone());
    let ty = ir.value_type(a).clone();
    state.operands = vec![cond, a, b];
    state.result_types = vec![ty];
    let op = ir.build(at, state);
    ir.result(op, 0)
}

/// `arith.index_cast %value : … to ty` (between `index` and an integer type).
pub(crate) fn index_cast(ir: &mut Ir, at: InsertPoint, value: ValueId, ty: Type, location: &Location) -> ValueId {
    let mut state = OperationState::new("arith.index_cast", location.clone());
    state.operands = vec![value];
    state.result_types = vec![ty];
    let op = ir.build(at, state);
    ir.result(op, 0)
}

/// `memref.load %memref[indices] : element`.
pub(crate) fn load(
    ir: &mut Ir,
    at: InsertPoint,
    memref: ValueId,
    indices: Vec<ValueId>,
    element: Type,
    location: &Location,
) -> ValueId {
    let mut state = OperationState::new("memref.load", location.clone());
    state.operands = std::iter::once(memref).chain(indices).collect();
    state.result_types = vec![element];
    let op = ir.build(at, state);
    ir.result(op, 0)
}

/// `memref.store %value, %memref[indices]`.
pub(crate) fn store(
    ir: &mut Ir,
    at: InsertPoint,
    value: ValueId,
    memref: ValueId,
    indices: Vec<ValueId>,
    location: &Location,
) {
    let mut state = OperationState::new("memref.store", location.clone());
    state.operands = [value, memref].into_iter().chain(indices).collect();
    ir.build(at, state);
}

/// `⌈expr / divisor⌉` (`ceil`) or `⌊expr / divisor⌋` of a scanned loop bound, over `nd`
/// dimensions (`d_k`) and the parameters (`s_k`).
pub(crate) fn bound_affine(b: &stencil_poly::codegen::Bound, ceil: bool, nd: usize) -> AffineExpr {
    let e = stencil_passes::schedule::affine_expr_of_form(&b.expr, |c| stencil_passes::schedule::dim_or_symbol(c, nd));
    if b.divisor == 1 {
        e
    } else {
        let op = if ceil { AffineBinOp::CeilDiv } else { AffineBinOp::FloorDiv };
        AffineExpr::binary(op, e, AffineExpr::Constant(b.divisor))
    }
}

/// `arith.cmpi` predicate `eq`.
pub(crate) const EQ: i64 = 0;
/// `arith.cmpi` predicate `sge`.
pub(crate) const SGE: i64 = 5;
/// `arith.cmpi` predicate `sle`.
pub(crate) const SLE: i64 = 3;
/// `arith.cmpi` predicate `ne`.
pub(crate) const NE: i64 = 1;
/// `arith.cmpi` predicate `slt`.
pub(crate) const SLT: i64 = 2;
/// `arith.cmpi` predicate `sgt`.
pub(crate) const SGT: i64 = 4;
/// `arith.cmpi` predicate `ule`.
pub(crate) const ULE: i64 = 7;

/// Values of the loop dimensions (`d_k`, where in scope) and parameters (`s_k`) that index
/// expressions refer to.
pub(crate) struct ArithIndexer<'a> {
    /// Per scanned dimension, its loop variable where in scope.
    pub dims: &'a [Option<ValueId>],
    /// The parameters' `index` values.
    pub params: &'a [ValueId],
}

impl ArithIndexer<'_> {
    /// The value of `e` computed with `arith` ops at `at`.
    pub fn value(&self, ir: &mut Ir, at: InsertPoint, e: &AffineExpr, location: &Location) -> Result<ValueId, String> {
        Ok(match e {
            AffineExpr::Dim(d) => self
                .dims
                .get(*d as usize)
                .copied()
                .flatten()
                .ok_or_else(|| format!("dimension {d} used outside its loop"))?,
            AffineExpr::Symbol(s) => {
                *self.params.get(*s as usize).ok_or_else(|| format!("parameter {s} out of range"))?
            }
            AffineExpr::Constant(c) => index_constant(ir, at, *c, location),
            AffineExpr::Binary(op, a, b) => {
                let (x, y) = (self.value(ir, at, a, location)?, self.value(ir, at, b, location)?);
                match op {
                    AffineBinOp::Add => binary(ir, at, "arith.addi", x, y, Type::Index, location),
                    AffineBinOp::Mul => binary(ir, at, "arith.muli", x, y, Type::Index, location),
                    AffineBinOp::FloorDiv => binary(ir, at, "arith.floordivsi", x, y, Type::Index, location),
                    AffineBinOp::CeilDiv => binary(ir, at, "arith.ceildivsi", x, y, Type::Index, location),
                    AffineBinOp::Mod => {
                        // Affine `mod` is non-negative for a positive divisor: x − ⌊x / y⌋·y.
                        let q = binary(ir, at, "arith.floordivsi", x, y, Type::Index, location);
                        let qy = binary(ir, at, "arith.muli", q, y, Type::Index, location);
                        binary(ir, at, "arith.subi", x, qy, Type::Index, location)
                    }
                }
            }
        })
    }

    /// The maximum (or minimum) of the values of `exprs` (at least one).
    pub fn fold(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        exprs: &[AffineExpr],
        max: bool,
        location: &Location,
    ) -> Result<ValueId, String> {
        let mut acc: Option<ValueId> = None;
        for e in exprs {
            let v = self.value(ir, at, e, location)?;
            acc = Some(match acc {
                None => v,
                Some(a) => binary(ir, at, if max { "arith.maxsi" } else { "arith.minsi" }, a, v, Type::Index, location),
            });
        }
        acc.ok_or_else(|| "a loop without bounds".to_string())
    }

    /// The values of `index`.
    pub fn indices(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        index: &[AffineExpr],
        location: &Location,
    ) -> Result<Vec<ValueId>, String> {
        index.iter().map(|e| self.value(ir, at, e, location)).collect()
    }
}

impl Indexer for ArithIndexer<'_> {
    fn load(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        memref: ValueId,
        index: &[AffineExpr],
        element: Type,
        location: &Location,
    ) -> Result<ValueId, String> {
        let indices = self.indices(ir, at, index, location)?;
        Ok(load(ir, at, memref, indices, element, location))
    }

    fn store(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        value: ValueId,
        memref: ValueId,
        index: &[AffineExpr],
        location: &Location,
    ) -> Result<(), String> {
        let indices = self.indices(ir, at, index, location)?;
        store(ir, at, value, memref, indices, location);
        Ok(())
    }

    fn index_value(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        expr: &AffineExpr,
        location: &Location,
    ) -> Result<ValueId, String> {
        self.value(ir, at, expr, location)
    }
}
