//! A statement instance as IR: the body of its `stencil.apply` copied at the point a loop nest
//! computes — accesses become loads, the yield a store, `stencil.index` and induction
//! variables index values — with the indexing left to an [`Indexer`] (affine maps for
//! `poly-codegen`, arith for GPU kernels).

use std::collections::HashMap;

use stencil_ir::affine::{AffineBinOp, AffineExpr};
use stencil_ir::ir::{InsertPoint, ValueMapping};
use stencil_ir::{Attribute, Ir, Location, Type, ValueId};
use stencil_passes::stencil_to_poly::ScopInfo;
use stencil_poly::StatementId;

/// How a lowering turns index expressions — over the full space of a loop nest, `d_k` per
/// scanned dimension and `s_k` per parameter — into memory accesses and index values.
pub(crate) trait Indexer {
    /// `memref[index]` with element type `element`.
    fn load(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        memref: ValueId,
        index: &[AffineExpr],
        element: Type,
        location: &Location,
    ) -> Result<ValueId, String>;

    /// `memref[index] = value`.
    fn store(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        value: ValueId,
        memref: ValueId,
        index: &[AffineExpr],
        location: &Location,
    ) -> Result<(), String>;

    /// The `index` value of `expr`.
    fn index_value(
        &mut self,
        ir: &mut Ir,
        at: InsertPoint,
        expr: &AffineExpr,
        location: &Location,
    ) -> Result<ValueId, String>;
}

/// Copies the body of `statement`'s apply at `at` for the instance whose iterators are `iters`
/// (expressions over the loop nest's full space); `args` maps the program's arguments to the
/// values standing for them (memrefs for fields).
pub(crate) fn copy_statement(
    ir: &mut Ir,
    info: &ScopInfo,
    statement: StatementId,
    iters: &[AffineExpr],
    args: &HashMap<ValueId, ValueId>,
    at: InsertPoint,
    indexer: &mut dyn Indexer,
) -> Result<(), String> {
    let origin = info.statements.get(statement.0).ok_or_else(|| format!("statement {} is unknown", statement.0))?;
    let apply = origin.apply;
    let n_outer = origin.iterates.len();
    if iters.len() < n_outer {
        return Err(format!("statement {} has fewer iterators than enclosing iterates", statement.0));
    }
    // Index values of the body — enclosing induction variables and stencil.index results —
    // as expressions; they become index values only where a copied op uses them.
    let mut index_exprs: HashMap<ValueId, AffineExpr> = HashMap::new();
    for (k, &iterate) in origin.iterates.iter().enumerate() {
        let iv = ir
            .regions(iterate)
            .first()
            .and_then(|&r| ir.entry_block(r))
            .and_then(|b| ir.block_args(b).first().copied())
            .ok_or("a stencil.iterate without induction variable")?;
        index_exprs.insert(iv, iters[k].clone());
    }
    let mut mapping = ValueMapping::new();
    for (&from, &to) in args {
        mapping.map(from, to);
    }
    let field = |v: ValueId| args.get(&v).copied().ok_or("an access to a value that is not a program argument");
    let written = *ir.operands(apply).first().ok_or("a stencil.apply without written field")?;
    let body = ir.regions(apply).first().and_then(|&r| ir.entry_block(r)).ok_or("a stencil.apply without body")?;
    let point: Vec<AffineExpr> = iters[n_outer..].to_vec();
    for op in ir.block_ops(body) {
        let location = ir.location(op).clone();
        match ir.op_name(op) {
            "stencil.access" => {
                let operands = ir.operands(op).to_vec();
                let memref = field(operands[0])?;
                let index: Vec<AffineExpr> =
                    if let Some(map) = ir.attr(op, "map").and_then(Attribute::as_affine_map).cloned() {
                        let dims = operands[1..]
                            .iter()
                            .map(|v| index_exprs.get(v).cloned().ok_or("an access index that is not an index value"))
                            .collect::<Result<Vec<_>, _>>()?;
                        map.results.iter().map(|e| e.replace(&dims, &[])).collect()
                    } else {
                        let offsets = ir
                            .attr(op, "offset")
                            .and_then(Attribute::as_dense_array)
                            .ok_or("a stencil.access without offsets")?;
                        point
                            .iter()
                            .zip(offsets)
                            .map(|(e, &o)| AffineExpr::binary(AffineBinOp::Add, e.clone(), AffineExpr::Constant(o)))
                            .collect()
                    };
                let result = ir.result(op, 0);
                let element = ir.value_type(result).clone();
                let v = indexer.load(ir, at, memref, &index, element, &location)?;
                mapping.map(result, v);
            }
            "stencil.index" => {
                let d = ir.attr(op, "dim").and_then(Attribute::as_i64).ok_or("stencil.index without dim")?;
                let e = usize::try_from(d)
                    .ok()
                    .and_then(|d| point.get(d))
                    .cloned()
                    .ok_or("stencil.index of a dimension the apply does not have")?;
                index_exprs.insert(ir.result(op, 0), e);
            }
            "stencil.yield" => {
                let value = ir.operands(op).first().copied().ok_or("stencil.yield without value")?;
                let value = materialize(ir, value, &index_exprs, &mut mapping, at, indexer)?;
                indexer.store(ir, at, value, field(written)?, &point, &location)?;
            }
            _ => {
                for v in ir.operands(op).to_vec() {
                    materialize(ir, v, &index_exprs, &mut mapping, at, indexer)?;
                }
                let copy = ir.clone_op(op, &mut mapping);
                ir.insert(copy, at);
            }
        }
    }
    Ok(())
}

/// The value a copied op uses for `v`: its copy, an argument, or — for an index value of the
/// body — the indexer's value of its expression (made once per statement instance).
fn materialize(
    ir: &mut Ir,
    v: ValueId,
    index_exprs: &HashMap<ValueId, AffineExpr>,
    mapping: &mut ValueMapping,
    at: InsertPoint,
    indexer: &mut dyn Indexer,
) -> Result<ValueId, String> {
    if mapping.lookup(v) == v {
        if let Some(e) = index_exprs.get(&v) {
            let location = ir.defining_op(v).map_or_else(Location::default, |op| ir.location(op).clone());
            let value = indexer.index_value(ir, at, e, &location)?;
            mapping.map(v, value);
        }
    }
    Ok(mapping.lookup(v))
}
