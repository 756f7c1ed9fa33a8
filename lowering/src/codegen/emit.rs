//! Emission of a scanned loop nest ([`LoopNest`]) as `affine` IR: loops with `max`/`min`
//! bounds of `ceildiv`/`floordiv` expressions, `affine.parallel` for DOALL loops, `affine.if`
//! guards, and each statement instance as a copy of its `stencil.apply` body with accesses
//! turned into `affine.load` and the yield into `affine.store` at the point the loops compute
//! (thesis §3.2.7: the tiled loop nest runs the original statements with their original
//! iterators expressed in the new loop variables).

use std::collections::HashMap;

use stencil_ir::affine::{AffineBinOp, AffineExpr, SetConstraint};
use stencil_ir::ir::InsertPoint;
use stencil_ir::{Ir, Location, OpId, ValueId};
use stencil_passes::schedule::{affine_expr_of_form, dim_or_symbol};
use stencil_passes::stencil_to_poly::ScopInfo;
use stencil_poly::codegen::{Bound, Guard, GuardKind, LoopAst, LoopNest};
use stencil_poly::{AffineForm, StatementId};

use super::signature::LoweredFunc;
use super::statement::{copy_statement, Indexer};
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
    /// Emits some subtrees differently (GPU kernel launches), if set.
    offload: Option<&'a mut dyn Offload>,
}

/// A hook of [`Emitter`]: lets another lowering take over subtrees of the loop nest (the GPU
/// mapping launches kernels for them; the loops around stay host `affine` loops).
pub(crate) trait Offload {
    /// Emits `node` at `at` and returns `true`, or returns `false` to let the emitter emit it.
    /// `dims` are the induction variables in scope per scanned dimension, `params` the
    /// parameters' values, `args` the program arguments' values.
    fn offload(
        &mut self,
        ir: &mut Ir,
        node: &LoopAst,
        at: InsertPoint,
        dims: &[Option<ValueId>],
        params: &[ValueId],
        args: &HashMap<ValueId, ValueId>,
    ) -> Result<bool, String>;
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
            offload: None,
        }
    }

    /// The emitter with `offload` deciding first about every node.
    pub fn with_offload(mut self, offload: &'a mut dyn Offload) -> Self {
        self.offload = Some(offload);
        self
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
        if let Some(offload) = self.offload.as_mut() {
            if offload.offload(self.ir, node, at, &self.dims, &self.params, &self.args)? {
                return Ok(());
            }
        }
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
        let iters: Vec<AffineExpr> = iter_values.iter().map(|f| self.expr(f)).collect();
        let mut indexer = AffineIndexer { dims: &self.dims, params: &self.params };
        copy_statement(self.ir, self.info, statement, &iters, &self.args, at, &mut indexer)
    }
}

/// Indices as affine maps over the enclosing loops' induction variables (dimensions) and the
/// parameters (symbols).
struct AffineIndexer<'d> {
    dims: &'d [Option<ValueId>],
    params: &'d [ValueId],
}

impl Indexer for AffineIndexer<'_> {
    fn load(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        memref: ValueId,
        index: &[AffineExpr],
        element: stencil_ir::Type,
        location: &Location,
    ) -> Result<ValueId, String> {
        let index = MapOperands::compact(index, self.dims, self.params)?;
        Ok(affine_load(ir, at, memref, index, element, location))
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
        let index = MapOperands::compact(index, self.dims, self.params)?;
        affine_store(ir, at, value, memref, index, location);
        Ok(())
    }

    fn index_value(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        expr: &AffineExpr,
        location: &Location,
    ) -> Result<ValueId, String> {
        let m = MapOperands::compact(std::slice::from_ref(expr), self.dims, self.params)?;
        Ok(affine_apply(ir, at, m, location))
    }
}
