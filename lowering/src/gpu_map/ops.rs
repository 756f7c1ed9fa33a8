//! Builders for the structured and `gpu` ops every mapping strategy emits inside kernels:
//! `scf.for`, `scf.if`, `gpu.barrier`, the thread/block id ops and workgroup (shared-memory)
//! buffers. The strategies differ in what they compute, not in how these ops are spelled.

use stencil_dialects::gpu::{AddressSpace, Dimension, WORKGROUP_ATTRIBUTIONS_ATTR};
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::types::{Dim, MemRefType};
use stencil_ir::{Attribute, BlockId, Ir, Location, OpId, Type, ValueId};

/// `scf.for %iv = lo to hi step step {}`; returns the induction variable and where the body
/// goes (before the `scf.yield`).
pub(super) fn scf_for(
    ir: &mut Ir,
    at: InsertPoint,
    lo: ValueId,
    hi: ValueId,
    step: ValueId,
    location: &Location,
) -> (ValueId, InsertPoint) {
    let region = ir.create_region();
    let block = ir.append_block(region, &[Type::Index]);
    let mut s = OperationState::new("scf.for", location.clone());
    s.operands = vec![lo, hi, step];
    s.regions.push(region);
    ir.build(at, s);
    let y = ir.build(InsertPoint::End(block), OperationState::new("scf.yield", location.clone()));
    (ir.block_args(block)[0], InsertPoint::Before(y))
}

/// `scf.if %cond {}` (empty else); returns where the then-body goes.
pub(super) fn scf_if(ir: &mut Ir, at: InsertPoint, cond: ValueId, location: &Location) -> InsertPoint {
    let then_region = ir.create_region();
    let block = ir.append_block(then_region, &[]);
    let else_region = ir.create_region();
    let mut s = OperationState::new("scf.if", location.clone());
    s.operands = vec![cond];
    s.regions = vec![then_region, else_region];
    ir.build(at, s);
    let y = ir.build(InsertPoint::End(block), OperationState::new("scf.yield", location.clone()));
    InsertPoint::Before(y)
}

/// `scf.if %cond {} else {}`; returns where the then-body and the else-body go.
pub(super) fn scf_if_else(
    ir: &mut Ir,
    at: InsertPoint,
    cond: ValueId,
    location: &Location,
) -> (InsertPoint, InsertPoint) {
    let (_, then_block, else_block) = if_with_else(ir, at, cond, vec![], location);
    let then_yield = ir.build(InsertPoint::End(then_block), OperationState::new("scf.yield", location.clone()));
    let else_yield = ir.build(InsertPoint::End(else_block), OperationState::new("scf.yield", location.clone()));
    (InsertPoint::Before(then_yield), InsertPoint::Before(else_yield))
}

/// `gpu.barrier`.
pub(super) fn barrier(ir: &mut Ir, at: InsertPoint, location: &Location) {
    ir.build(at, OperationState::new("gpu.barrier", location.clone()));
}

/// `gpu.thread_id x` (or `block_dim`, `block_id`, `grid_dim`: `op` names which).
pub(super) fn gpu_id(ir: &mut Ir, at: InsertPoint, op: &str, dimension: Dimension, location: &Location) -> ValueId {
    let mut s = OperationState::new(op, location.clone());
    s.add_property("dimension", dimension.attr());
    s.result_types = vec![Type::Index];
    let op = ir.build(at, s);
    ir.result(op, 0)
}

/// A new workgroup attribution of kernel `func` (entry block `entry`) of `extent` elements of
/// `element`: a statically shaped buffer in shared memory, one per block.
pub(super) fn workgroup_buffer(ir: &mut Ir, func: OpId, entry: BlockId, extent: &[i64], element: &Type) -> ValueId {
    let mut ty = MemRefType::new(extent.iter().map(|&e| Dim::Static(e.max(1))).collect(), element.clone());
    ty.memory_space = Some(AddressSpace::Workgroup.attr());
    let buffer = ir.add_block_argument(entry, Type::memref(ty));
    let count = stencil_dialects::gpu::num_workgroup_attributions(ir, func) + 1;
    ir.set_attribute(func, WORKGROUP_ATTRIBUTIONS_ATTR, Attribute::i64(count as i64));
    buffer
}

/// Bytes of one element of `ty`, if it has a size.
pub(super) fn element_bytes(ty: &Type) -> Option<i64> {
    ty.bit_width().map(|b| i64::from(b.div_ceil(8)))
}

/// Records on kernel `func` the block it is always launched with (`known_block_size`): MLIR's
/// NVVM lowering then folds `gpu.block_dim` to constants, so strides and trip counts that
/// depend on it become constants too. The simulator refuses a launch with another block.
pub(super) fn set_known_block_size(ir: &mut Ir, func: OpId, block: [i64; 3]) {
    ir.set_property(func, "known_block_size", Attribute::dense_i32(&block));
}

/// `scf.for %iv = lo to hi step step iter_args(inits)`: a loop carrying `inits` from one
/// iteration to the next. Returns the induction variable, the carried values inside the body,
/// where the body goes (before the `scf.yield`) and the yield, whose operands — the values for
/// the next iteration — the caller sets once it has built them (`Ir::set_operands`).
#[allow(clippy::too_many_arguments)]
pub(super) fn scf_for_carrying(
    ir: &mut Ir,
    at: InsertPoint,
    lo: ValueId,
    hi: ValueId,
    step: ValueId,
    inits: &[ValueId],
    location: &Location,
) -> (ValueId, Vec<ValueId>, InsertPoint, OpId) {
    let types: Vec<Type> = inits.iter().map(|&v| ir.value_type(v).clone()).collect();
    let region = ir.create_region();
    let mut arg_types = vec![Type::Index];
    arg_types.extend(types.iter().cloned());
    let block = ir.append_block(region, &arg_types);
    let mut s = OperationState::new("scf.for", location.clone());
    s.operands = vec![lo, hi, step];
    s.operands.extend_from_slice(inits);
    s.result_types = types;
    s.regions.push(region);
    ir.build(at, s);
    let mut y = OperationState::new("scf.yield", location.clone());
    y.operands = inits.to_vec();
    let y = ir.build(InsertPoint::End(block), y);
    let args = ir.block_args(block).to_vec();
    (args[0], args[1..].to_vec(), InsertPoint::Before(y), y)
}

/// `%r = scf.if %cond -> (type of then_value) { yield then } else { yield otherwise }` where
/// the then-value is built by `then` inside the then-block (a load that must not run unless
/// `cond` holds); `otherwise` is yielded as is.
pub(super) fn scf_if_value(
    ir: &mut Ir,
    at: InsertPoint,
    cond: ValueId,
    otherwise: ValueId,
    location: &Location,
    then: impl FnOnce(&mut Ir, InsertPoint) -> ValueId,
) -> ValueId {
    let ty = ir.value_type(otherwise).clone();
    let (op, then_block, else_block) = if_with_else(ir, at, cond, vec![ty], location);
    let value = then(ir, InsertPoint::End(then_block));
    let mut y = OperationState::new("scf.yield", location.clone());
    y.operands = vec![value];
    ir.build(InsertPoint::End(then_block), y);
    let mut y = OperationState::new("scf.yield", location.clone());
    y.operands = vec![otherwise];
    ir.build(InsertPoint::End(else_block), y);
    ir.result(op, 0)
}

/// `scf.if %cond -> (results) {} else {}` without terminators: the op and its two blocks.
pub(crate) fn if_with_else(
    ir: &mut Ir,
    at: InsertPoint,
    cond: ValueId,
    results: Vec<Type>,
    location: &Location,
) -> (OpId, BlockId, BlockId) {
    let then_region = ir.create_region();
    let then_block = ir.append_block(then_region, &[]);
    let else_region = ir.create_region();
    let else_block = ir.append_block(else_region, &[]);
    let mut s = OperationState::new("scf.if", location.clone());
    s.operands = vec![cond];
    s.regions = vec![then_region, else_region];
    s.result_types = results;
    (ir.build(at, s), then_block, else_block)
}
