//! Emission of a scanned loop nest ([`LoopNest`]) as `affine` IR: loops with `max`/`min`
//! bounds of `ceildiv`/`floordiv` expressions, `affine.parallel` for DOALL loops, `affine.if`
//! guards, and each statement instance as a copy of its `stencil.apply` body with accesses
//! turned into `affine.load` and the yield into `affine.store` at the point the loops compute
//! (thesis §3.2.7: the tiled loop nest runs the original statements with their original
//! iterators expressed in the new loop variables).

use std::collections::HashMap;

use stencil_ir::affine::{AffineBinOp, AffineExpr, SetConstraint};
use stencil_ir::ir::{InsertPoint, ValueMapping};
use stencil_ir::{Attribute, Ir, Location, OpId, ValueId};
use stencil_passes::schedule::{affine_expr_of_form, dim_or_symbol};
use stencil_passes::stencil_to_poly::ScopInfo;
use stencil_poly::codegen::{Bound, Guard, GuardKind, LoopAst, LoopNest};
use stencil_poly::{AffineForm, StatementId};

use super::signature::LoweredFunc;
use crate::affine_build::{
    affine_apply, affine_for, affine_if, affine_load, affine_parallel, affine_store, MapOperands,
};

/// Emits a loop nest into a lowered function.
pub(crate) struct Emitter<'a> {
    ir: &'a mut Ir,
    nest: &'a LoopNest,
    info: &'a ScopInfo,
    /// Program argument → function argument.
    args: HashMap<ValueId, ValueId>,
    /// The parameters' `index` arguments (the symbols of every map).
    params: Vec<ValueId>,
    /// The induction variable of each scanned dimension while inside its loop.
    dims: Vec<Option<ValueId>>,
    /// Whether DOALL loops become `affine.parallel`.
    parallel: bool,
    location: Location,
}

/// `⌈e / d⌉` (`divisor ≥ 1`).
fn ceil_div(e: AffineExpr, divisor: i64) -> AffineExpr {
    if divisor == 1 {
        e
    } else {
        AffineExpr::binary(AffineBinOp::CeilDiv, e, AffineExpr::Constant(divisor))
    }
}

/// `⌊e / d⌋ + 1`: an inclusive floor bound as MLIR's exclusive upper bound.
fn floor_div_plus_one(e: AffineExpr, divisor: i64) -> AffineExpr {
    let q = if divisor == 1 { e } else { AffineExpr::binary(AffineBinOp::FloorDiv, e, AffineExpr::Constant(divisor)) };
    AffineExpr::binary(AffineBinOp::Add, q, AffineExpr::Constant(1))
}

fn plus(e: AffineExpr, c: i64) -> AffineExpr {
    AffineExpr::binary(AffineBinOp::Add, e, AffineExpr::Constant(c))
}

/// Where new ops go inside `block`: before its terminator.
fn before_terminator(ir: &Ir, block: stencil_ir::BlockId) -> InsertPoint {
    ir.last_op(block).map_or(InsertPoint::End(block), InsertPoint::Before)
}

impl<'a> Emitter<'a> {
    /// An emitter of `nest` (scanned from `info`'s SCoP) into `func`.
    pub fn new(ir: &'a mut Ir, nest: &'a LoopNest, info: &'a ScopInfo, func: &LoweredFunc, parallel: bool) -> Self {
        let location = ir.location(func.func).clone();
        Emitter {
            ir,
            nest,
            info,
            args: func.args.iter().copied().collect(),
            params: func.params.clone(),
            dims: vec![None; nest.space.n_dims()],
            parallel,
            location,
        }
    }

    /// Emits the whole nest before `ret` (the function's `func.return`).
    pub fn emit(&mut self, ret: OpId) -> Result<(), String> {
        let root = &self.nest.root;
        self.node(root, InsertPoint::Before(ret))
    }

    /// A form over the scanned dimensions and parameters as an expression over the full
    /// space (`d_k` per dimension, `s_k` per parameter).
    fn expr(&self, form: &AffineForm) -> AffineExpr {
        let nd = self.nest.space.n_dims();
        affine_expr_of_form(form, |c| dim_or_symbol(c, nd))
    }

    fn compact(&self, exprs: &[AffineExpr]) -> Result<MapOperands, String> {
        MapOperands::compact(exprs, &self.dims, &self.params)
    }

    fn node(&mut self, node: &LoopAst, at: InsertPoint) -> Result<(), String> {
        match node {
            LoopAst::For(l) => {
                let lower: Vec<AffineExpr> =
                    l.lower.iter().map(|b: &Bound| ceil_div(self.expr(&b.expr), b.divisor)).collect();
                let upper: Vec<AffineExpr> =
                    l.upper.iter().map(|b: &Bound| floor_div_plus_one(self.expr(&b.expr), b.divisor)).collect();
                let (lo, hi) = (self.compact(&lower)?, self.compact(&upper)?);
                let (_, iv, block) = if l.parallel && self.parallel && l.step == 1 {
                    affine_parallel(self.ir, at, lo, hi, &self.location)
                } else {
                    affine_for(self.ir, at, lo, hi, l.step, &self.location)
                };
                self.dims[l.dim] = Some(iv);
                let inner = before_terminator(self.ir, block);
                let result = self.node(&l.body, inner);
                self.dims[l.dim] = None;
                result
            }
            LoopAst::If { guards, then } => {
                let exprs: Vec<AffineExpr> = guards.iter().map(|g: &Guard| self.expr(&g.expr)).collect();
                let map = self.compact(&exprs)?;
                let constraints = map
                    .map
                    .results
                    .iter()
                    .zip(guards)
                    .map(|(e, g)| SetConstraint { expr: e.clone(), is_equality: g.kind == GuardKind::Zero })
                    .collect();
                let (_, block) = affine_if(self.ir, at, constraints, &map, &self.location);
                let inner = before_terminator(self.ir, block);
                self.node(then, inner)
            }
            LoopAst::Stmt { statement, iter_values } => self.statement(*statement, iter_values, at),
            LoopAst::Seq(items) => items.iter().try_for_each(|x| self.node(x, at)),
        }
    }

    /// One instance of `statement` at the iterators `iter_values`: its apply body, copied.
    fn statement(&mut self, statement: StatementId, iter_values: &[AffineForm], at: InsertPoint) -> Result<(), String> {
        let origin =
            self.info.statements.get(statement.0).ok_or_else(|| format!("statement {} is unknown", statement.0))?;
        let apply = origin.apply;
        let n_outer = origin.iterates.len();
        let iters: Vec<AffineExpr> = iter_values.iter().map(|f| self.expr(f)).collect();
        // Index values of the body — enclosing induction variables and stencil.index results —
        // as expressions; they become affine.apply ops only where a copied op uses them.
        let mut index_exprs: HashMap<ValueId, AffineExpr> = HashMap::new();
        for (k, &iterate) in origin.iterates.iter().enumerate() {
            let iv = self
                .ir
                .regions(iterate)
                .first()
                .and_then(|&r| self.ir.entry_block(r))
                .and_then(|b| self.ir.block_args(b).first().copied())
                .ok_or("a stencil.iterate without induction variable")?;
            index_exprs.insert(iv, iters[k].clone());
        }
        let mut mapping = ValueMapping::new();
        for (&from, &to) in &self.args {
            mapping.map(from, to);
        }
        let written = *self.ir.operands(apply).first().ok_or("a stencil.apply without written field")?;
        let body = self
            .ir
            .regions(apply)
            .first()
            .and_then(|&r| self.ir.entry_block(r))
            .ok_or("a stencil.apply without body")?;
        let point: Vec<AffineExpr> = iters[n_outer..].to_vec();
        for op in self.ir.block_ops(body) {
            let location = self.ir.location(op).clone();
            match self.ir.op_name(op) {
                "stencil.access" => {
                    let operands = self.ir.operands(op).to_vec();
                    let field = self.field(operands[0])?;
                    let index: Vec<AffineExpr> = if let Some(map) =
                        self.ir.attr(op, "map").and_then(Attribute::as_affine_map).cloned()
                    {
                        let dims = operands[1..]
                            .iter()
                            .map(|v| index_exprs.get(v).cloned().ok_or("an access index that is not an index value"))
                            .collect::<Result<Vec<_>, _>>()?;
                        map.results.iter().map(|e| e.replace(&dims, &[])).collect()
                    } else {
                        let offsets = self
                            .ir
                            .attr(op, "offset")
                            .and_then(Attribute::as_dense_array)
                            .ok_or("a stencil.access without offsets")?;
                        point.iter().zip(offsets).map(|(e, &o)| plus(e.clone(), o)).collect()
                    };
                    let element = self.ir.value_type(self.ir.result(op, 0)).clone();
                    let index = self.compact(&index)?;
                    let v = affine_load(self.ir, at, field, index, element, &location);
                    mapping.map(self.ir.result(op, 0), v);
                }
                "stencil.index" => {
                    let d = self.ir.attr(op, "dim").and_then(Attribute::as_i64).ok_or("stencil.index without dim")?;
                    let e = usize::try_from(d)
                        .ok()
                        .and_then(|d| point.get(d))
                        .cloned()
                        .ok_or("stencil.index of a dimension the apply does not have")?;
                    index_exprs.insert(self.ir.result(op, 0), e);
                }
                "stencil.yield" => {
                    let value = self.ir.operands(op).first().copied().ok_or("stencil.yield without value")?;
                    let value = self.materialize(value, &index_exprs, &mut mapping, at)?;
                    let field = self.field(written)?;
                    let index = self.compact(&point)?;
                    affine_store(self.ir, at, value, field, index, &location);
                }
                _ => {
                    for v in self.ir.operands(op).to_vec() {
                        self.materialize(v, &index_exprs, &mut mapping, at)?;
                    }
                    let copy = self.ir.clone_op(op, &mut mapping);
                    self.ir.insert(copy, at);
                }
            }
        }
        Ok(())
    }

    /// The memref argument standing for program field `v`.
    fn field(&self, v: ValueId) -> Result<ValueId, String> {
        self.args.get(&v).copied().ok_or_else(|| "an access to a value that is not a program argument".to_string())
    }

    /// The value a copied op uses for `v`: its copy, a function argument, or — for an index
    /// value of the body — an `affine.apply` computing it (made once per statement instance).
    fn materialize(
        &mut self,
        v: ValueId,
        index_exprs: &HashMap<ValueId, AffineExpr>,
        mapping: &mut ValueMapping,
        at: InsertPoint,
    ) -> Result<ValueId, String> {
        if mapping.lookup(v) == v {
            if let Some(e) = index_exprs.get(&v) {
                let m = self.compact(std::slice::from_ref(e))?;
                let value = affine_apply(self.ir, at, m, &self.location);
                mapping.map(v, value);
            }
        }
        Ok(mapping.lookup(v))
    }
}
