//! Builders for the `affine` ops the lowerings emit (`affine.for`, `affine.parallel`,
//! `affine.if`, `affine.load`, `affine.store`, `affine.apply`, `affine.yield`), in MLIR 22's
//! generic form with the properties our dialect definitions (and mlir-opt) expect.
//!
//! Expressions are built over a *full* space — every loop dimension as `d_k`, every parameter
//! as `s_k` — and [`MapOperands::compact`] keeps only the variables an op uses, which become its
//! operands: loop induction variables as dimensions and the function's `index` parameters as
//! symbols (both valid in MLIR's affine scope rules).

use std::sync::Arc;

use stencil_ir::affine::{AffineExpr, AffineMap, IntegerSet, SetConstraint};
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::{Attribute, BlockId, Ir, Location, OpId, Type, ValueId};

/// An affine map with the operands it is applied to (dimensions first, then symbols).
#[derive(Debug, Clone)]
pub(crate) struct MapOperands {
    /// The map.
    pub map: AffineMap,
    /// Its operands.
    pub operands: Vec<ValueId>,
}

/// Collects the dimensions and symbols `e` uses.
fn used_vars(e: &AffineExpr, dims: &mut Vec<bool>, symbols: &mut Vec<bool>) {
    match e {
        AffineExpr::Dim(d) => {
            if let Some(x) = dims.get_mut(*d as usize) {
                *x = true;
            }
        }
        AffineExpr::Symbol(s) => {
            if let Some(x) = symbols.get_mut(*s as usize) {
                *x = true;
            }
        }
        AffineExpr::Constant(_) => {}
        AffineExpr::Binary(_, a, b) => {
            used_vars(a, dims, symbols);
            used_vars(b, dims, symbols);
        }
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl MapOperands {
    /// The map of `exprs` (over `dim_values.len()` dimensions and `symbol_values.len()`
    /// symbols) restricted to the variables they use. A used dimension whose value is `None`
    /// (a loop not enclosing the op) is an error naming it.
    pub fn compact(
        exprs: &[AffineExpr],
        dim_values: &[Option<ValueId>],
        symbol_values: &[ValueId],
    ) -> Result<MapOperands, String> {
        let mut dims = vec![false; dim_values.len()];
        let mut symbols = vec![false; symbol_values.len()];
        for e in exprs {
            used_vars(e, &mut dims, &mut symbols);
        }
        let mut operands = Vec::new();
        let mut dim_map = Vec::with_capacity(dims.len());
        for (d, &used) in dims.iter().enumerate() {
            if used {
                let v = dim_values[d].ok_or_else(|| format!("dimension {d} is used outside its loop"))?;
                dim_map.push(AffineExpr::Dim(count(operands.len())));
                operands.push(v);
            } else {
                dim_map.push(AffineExpr::Constant(0));
            }
        }
        let n_dims = operands.len();
        let mut sym_map = Vec::with_capacity(symbols.len());
        for (s, &used) in symbols.iter().enumerate() {
            if used {
                sym_map.push(AffineExpr::Symbol(count(operands.len() - n_dims)));
                operands.push(symbol_values[s]);
            } else {
                sym_map.push(AffineExpr::Constant(0));
            }
        }
        let results = exprs.iter().map(|e| e.replace(&dim_map, &sym_map)).collect();
        Ok(MapOperands { map: AffineMap::new(count(n_dims), count(operands.len() - n_dims), results), operands })
    }
}

/// A region with one block whose arguments have `arg_types`.
fn body_region(ir: &mut Ir, arg_types: &[Type]) -> (stencil_ir::RegionId, BlockId) {
    let region = ir.create_region();
    let block = ir.append_block(region, arg_types);
    (region, block)
}

/// `affine.yield` at the end of `block`.
pub(crate) fn affine_yield(ir: &mut Ir, block: BlockId, location: &Location) {
    ir.build(InsertPoint::End(block), OperationState::new("affine.yield", location.clone()));
}

/// `affine.for %iv = max lower to min upper step step { }` (terminated); returns the op, the
/// induction variable and the body block (insert before its terminator).
pub(crate) fn affine_for(
    ir: &mut Ir,
    at: InsertPoint,
    lower: MapOperands,
    upper: MapOperands,
    step: i64,
    location: &Location,
) -> (OpId, ValueId, BlockId) {
    let mut state = OperationState::new("affine.for", location.clone());
    state.add_property(
        "operandSegmentSizes",
        Attribute::dense_i32(&[lower.operands.len() as i64, upper.operands.len() as i64, 0]),
    );
    state.add_property("lowerBoundMap", Attribute::AffineMap(Arc::new(lower.map)));
    state.add_property("upperBoundMap", Attribute::AffineMap(Arc::new(upper.map)));
    state.add_property("step", Attribute::index(step));
    build_loop(ir, at, state, lower.operands, upper.operands, location)
}

/// `affine.parallel (%iv) = (max lower) to (min upper) { }` (terminated, step 1, no
/// reductions); returns the op, the induction variable and the body block.
pub(crate) fn affine_parallel(
    ir: &mut Ir,
    at: InsertPoint,
    lower: MapOperands,
    upper: MapOperands,
    location: &Location,
) -> (OpId, ValueId, BlockId) {
    let mut state = OperationState::new("affine.parallel", location.clone());
    state.add_property("reductions", Attribute::Array(Vec::new()));
    state.add_property("lowerBoundsGroups", Attribute::dense_i32_elements(&[lower.map.results.len() as i64]));
    state.add_property("upperBoundsGroups", Attribute::dense_i32_elements(&[upper.map.results.len() as i64]));
    state.add_property("lowerBoundsMap", Attribute::AffineMap(Arc::new(lower.map)));
    state.add_property("upperBoundsMap", Attribute::AffineMap(Arc::new(upper.map)));
    state.add_property("steps", Attribute::Array(vec![Attribute::i64(1)]));
    build_loop(ir, at, state, lower.operands, upper.operands, location)
}

/// Builds a loop op from `state` (its bound properties set) with the lower- then upper-bound
/// operands and a terminated one-argument body; returns the op, the induction variable and the
/// body block.
fn build_loop(
    ir: &mut Ir,
    at: InsertPoint,
    mut state: OperationState,
    lower: Vec<ValueId>,
    upper: Vec<ValueId>,
    location: &Location,
) -> (OpId, ValueId, BlockId) {
    let (region, block) = body_region(ir, &[Type::Index]);
    state.operands = lower.into_iter().chain(upper).collect();
    state.regions.push(region);
    let op = ir.build(at, state);
    affine_yield(ir, block, location);
    let iv = ir.block_args(block)[0];
    (op, iv, block)
}

/// `affine.if set(operands) { }` without else (then-block terminated); returns the op and the
/// then block.
pub(crate) fn affine_if(
    ir: &mut Ir,
    at: InsertPoint,
    constraints: Vec<SetConstraint>,
    map: &MapOperands,
    location: &Location,
) -> (OpId, BlockId) {
    let (then_region, block) = body_region(ir, &[]);
    let else_region = ir.create_region();
    let set = IntegerSet { num_dims: map.map.num_dims, num_symbols: map.map.num_symbols, constraints };
    let mut state = OperationState::new("affine.if", location.clone());
    state.add_property("condition", Attribute::IntegerSet(Arc::new(set)));
    state.operands = map.operands.clone();
    state.regions = vec![then_region, else_region];
    let op = ir.build(at, state);
    affine_yield(ir, block, location);
    (op, block)
}

/// `%v = affine.load %memref[map(operands)] : element`.
pub(crate) fn affine_load(
    ir: &mut Ir,
    at: InsertPoint,
    memref: ValueId,
    index: MapOperands,
    element: Type,
    location: &Location,
) -> ValueId {
    let mut state = OperationState::new("affine.load", location.clone());
    state.add_property("map", Attribute::AffineMap(Arc::new(index.map)));
    state.operands = std::iter::once(memref).chain(index.operands).collect();
    state.result_types = vec![element];
    let op = ir.build(at, state);
    ir.result(op, 0)
}

/// `affine.store %value, %memref[map(operands)]`.
pub(crate) fn affine_store(
    ir: &mut Ir,
    at: InsertPoint,
    value: ValueId,
    memref: ValueId,
    index: MapOperands,
    location: &Location,
) -> OpId {
    let mut state = OperationState::new("affine.store", location.clone());
    state.add_property("map", Attribute::AffineMap(Arc::new(index.map)));
    state.operands = [value, memref].into_iter().chain(index.operands).collect();
    ir.build(at, state)
}

/// `%v = affine.apply map(operands)` (a single-result map).
pub(crate) fn affine_apply(ir: &mut Ir, at: InsertPoint, value: MapOperands, location: &Location) -> ValueId {
    let mut state = OperationState::new("affine.apply", location.clone());
    state.add_property("map", Attribute::AffineMap(Arc::new(value.map)));
    state.operands = value.operands;
    state.result_types = vec![Type::Index];
    let op = ir.build(at, state);
    ir.result(op, 0)
}
