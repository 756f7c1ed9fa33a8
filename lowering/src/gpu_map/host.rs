//! The host side of the direct strategies (`naive`, `overlapped`): the lowered `func.func`
//! (the lowered-program convention of `docs/runtime.md`), the `gpu.module` beside it, empty
//! kernels to fill, launches, and the host loops over `stencil.iterate` bounds.

use std::collections::HashMap;

use stencil_dialects::gpu::Dimension;
use stencil_ir::affine::{AffineBinOp, AffineExpr};
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::{Attribute, BlockId, Ir, Location, OpId, Type, ValueId};

use super::arith::{binary, index_constant};
use super::ops;
use crate::affine_build::{affine_apply, affine_for, MapOperands};
use crate::codegen::signature::{create_lowered_func, LoweredFunc};

/// CUDA's largest grid along y and z (x allows 2³¹ − 1).
const MAX_GRID_YZ: i64 = 65_535;
/// CUDA's largest grid along x.
const MAX_GRID_X: i64 = (1 << 31) - 1;

/// The host function being built and the `gpu.module` its kernels go to.
pub(super) struct HostSide {
    /// The lowered function.
    pub func: LoweredFunc,
    gpu_module: OpId,
    module_block: BlockId,
    module_name: String,
    kernel_prefix: String,
    /// Program arguments (fields and scalars) and their host types, in order.
    typed_args: Vec<(ValueId, Type)>,
    kernels: usize,
    /// The program's location.
    pub location: Location,
}

impl HostSide {
    /// The host value (function argument) of program argument `program_arg`.
    pub fn host_arg(&self, program_arg: ValueId) -> Option<ValueId> {
        self.func.args.iter().find(|(p, _)| *p == program_arg).map(|&(_, h)| h)
    }

    /// The host type of program argument `program_arg`.
    pub fn arg_type(&self, program_arg: ValueId) -> Option<&Type> {
        self.typed_args.iter().find(|(p, _)| *p == program_arg).map(|(_, t)| t)
    }
}

/// An empty kernel: its op, where its body goes, and the values standing for the program's
/// arguments, the parameters and the extra arguments it was created with.
pub(super) struct KernelFunc {
    /// The `gpu.func`.
    pub func: OpId,
    /// Its entry block (workgroup buffers are added to it).
    pub entry: BlockId,
    /// Where its body goes (before `gpu.return`).
    pub at: InsertPoint,
    /// Its symbol name.
    pub name: String,
    /// Program argument → kernel argument.
    pub args: HashMap<ValueId, ValueId>,
    /// The parameters, in declaration order.
    pub params: Vec<ValueId>,
    /// The extra arguments.
    pub extra: Vec<ValueId>,
}

impl HostSide {
    /// Creates the host function of `program` (before it) and an empty `gpu.module` after it;
    /// its fields have the problem sizes' static shapes with `gpu-map{static-shapes=true}`.
    pub fn create(
        ir: &mut Ir,
        program: OpId,
        program_name: &str,
        options: &super::GpuMapOptions,
    ) -> Result<HostSide, String> {
        let location = ir.location(program).clone();
        let sizes = super::static_sizes(ir, program, options)?;
        let func = create_lowered_func(ir, program, sizes.as_ref())?;
        let typed_args: Vec<(ValueId, Type)> = func.args.iter().map(|&(p, f)| (p, ir.value_type(f).clone())).collect();
        let module_name = format!("{program_name}_kernels");
        let mut state = OperationState::new("gpu.module", location.clone());
        state.add_property("sym_name", Attribute::string(&module_name));
        let region = ir.create_region();
        let module_block = ir.append_block(region, &[]);
        state.regions.push(region);
        let gpu_module = ir.build(InsertPoint::After(func.func), state);
        Ok(HostSide {
            func,
            gpu_module,
            module_block,
            module_name,
            kernel_prefix: program_name.to_string(),
            typed_args,
            kernels: 0,
            location,
        })
    }

    /// Where the host code goes: before the function's `func.return`.
    pub fn entry(&self) -> InsertPoint {
        InsertPoint::Before(self.func.ret)
    }

    /// Removes what [`HostSide::create`] made (after a failure).
    pub fn abandon(self, ir: &mut Ir) {
        ir.erase_op(self.gpu_module);
        ir.erase_op(self.func.func);
    }

    /// Replaces `program` by what was built: the enclosing module becomes a GPU container.
    pub fn finish(self, ir: &mut Ir, program: OpId) -> OpId {
        if let Some(top) = ir.parent_op(program) {
            ir.set_attribute(top, stencil_dialects::gpu::CONTAINER_MODULE_ATTR, Attribute::Unit);
        }
        ir.erase_op(program);
        self.func.func
    }

    /// A new empty kernel taking the program's arguments, the parameters and arguments of the
    /// `extra` types (e.g. host loop variables, or second buffers of fields).
    pub fn new_kernel(&mut self, ir: &mut Ir, extra: &[Type]) -> KernelFunc {
        let name = format!("{}_k{}", self.kernel_prefix, self.kernels);
        self.kernels += 1;
        let mut arg_types: Vec<Type> = self.typed_args.iter().map(|(_, t)| t.clone()).collect();
        arg_types.extend((0..self.func.params.len()).map(|_| Type::Index));
        arg_types.extend(extra.iter().cloned());
        let region = ir.create_region();
        let entry = ir.append_block(region, &arg_types);
        let mut state = OperationState::new("gpu.func", self.location.clone());
        state.add_property("function_type", Attribute::ty(Type::function(arg_types, vec![])));
        state.add_attribute("sym_name", Attribute::string(&name));
        state.add_attribute(stencil_dialects::gpu::KERNEL_ATTR, Attribute::Unit);
        state.regions.push(region);
        let func = ir.build(InsertPoint::End(self.module_block), state);
        let ret = ir.build(InsertPoint::End(entry), OperationState::new("gpu.return", self.location.clone()));
        let kargs = ir.block_args(entry).to_vec();
        let n = self.typed_args.len();
        let p = self.func.params.len();
        KernelFunc {
            func,
            entry,
            at: InsertPoint::Before(ret),
            name,
            args: self.typed_args.iter().map(|(v, _)| *v).zip(kargs[..n].iter().copied()).collect(),
            params: kargs[n..n + p].to_vec(),
            extra: kargs[n + p..].to_vec(),
        }
    }

    /// `gpu.launch_func` of `kernel` at `at` with the host values of the program arguments
    /// (`buffers` overrides some: program argument → host value), the parameters and `extra`.
    pub fn launch(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        kernel: &KernelFunc,
        shape: LaunchShape,
        buffers: &HashMap<ValueId, ValueId>,
        extra: &[ValueId],
    ) {
        let LaunchShape { grid, block } = shape;
        super::ops::set_known_block_size(ir, kernel.func, block);
        let block = block.map(|b| index_constant(ir, at, b, &self.location));
        let mut operands: Vec<ValueId> = self
            .func
            .args
            .iter()
            .map(|&(program_arg, host)| buffers.get(&program_arg).copied().unwrap_or(host))
            .collect();
        operands.extend(&self.func.params);
        operands.extend(extra);
        let symbol =
            Attribute::SymbolRef { root: self.module_name.as_str().into(), nested: vec![kernel.name.as_str().into()] };
        let state = stencil_dialects::gpu::launch_func_state(symbol, grid, block, operands, self.location.clone());
        ir.build(at, state);
    }

    /// `affine.for %iv = lower to upper` on the host (bounds over the parameters); returns the
    /// induction variable and where the body goes.
    pub fn host_loop(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        lower: &AffineExpr,
        upper: &AffineExpr,
    ) -> Result<(ValueId, InsertPoint), String> {
        self.host_loop_step(ir, at, lower, upper, 1)
    }

    /// [`HostSide::host_loop`] with a step.
    pub fn host_loop_step(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        lower: &AffineExpr,
        upper: &AffineExpr,
        step: i64,
    ) -> Result<(ValueId, InsertPoint), String> {
        let lo = MapOperands::compact(std::slice::from_ref(lower), &[], &self.func.params)?;
        let hi = MapOperands::compact(std::slice::from_ref(upper), &[], &self.func.params)?;
        let (_, iv, body) = affine_for(ir, at, lo, hi, step, &self.location);
        let terminator = ir.block_ops(body).last().copied().ok_or("an affine.for without terminator")?;
        Ok((iv, InsertPoint::Before(terminator)))
    }

    /// The host value of `e`, an expression over the parameters (symbols) and `dims`.
    pub fn host_value(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        e: &AffineExpr,
        dims: &[ValueId],
    ) -> Result<ValueId, String> {
        let dims: Vec<Option<ValueId>> = dims.iter().map(|&d| Some(d)).collect();
        let value = MapOperands::compact(std::slice::from_ref(e), &dims, &self.func.params)?;
        Ok(affine_apply(ir, at, value, &self.location))
    }

    /// Blocks along grid axis `axis` covering `extent` (over the parameters and `dims`) with
    /// `per_block` points each: `⌈extent / per_block⌉`, at least 1 (an empty box still
    /// launches, and its threads find nothing to do) and at most CUDA's limit (threads then
    /// stride over the rest).
    pub fn grid_size(
        &self,
        ir: &mut Ir,
        at: InsertPoint,
        extent: &AffineExpr,
        per_block: i64,
        axis: usize,
        dims: &[ValueId],
    ) -> Result<ValueId, String> {
        let blocks = AffineExpr::binary(AffineBinOp::CeilDiv, extent.clone(), AffineExpr::Constant(per_block.max(1)));
        let v = self.host_value(ir, at, &blocks, dims)?;
        let one = index_constant(ir, at, 1, &self.location);
        let limit = index_constant(ir, at, if axis == 0 { MAX_GRID_X } else { MAX_GRID_YZ }, &self.location);
        let v = binary(ir, at, "arith.maxsi", v, one, Type::Index, &self.location);
        Ok(binary(ir, at, "arith.minsi", v, limit, Type::Index, &self.location))
    }
}

/// The grid (host values) and block of a launch.
#[derive(Clone, Copy)]
pub(super) struct LaunchShape {
    /// Blocks along x, y, z.
    pub grid: [ValueId; 3],
    /// Threads per block along x, y, z.
    pub block: [i64; 3],
}

/// Thread and block coordinates of a kernel, read once at its start.
pub(super) struct ThreadIds {
    /// `gpu.thread_id` x, y, z.
    pub tid: [ValueId; 3],
    /// `gpu.block_dim` x, y, z.
    pub bdim: [ValueId; 3],
    /// `gpu.block_id` x, y, z.
    pub bid: [ValueId; 3],
    /// `gpu.grid_dim` x, y, z.
    pub gdim: [ValueId; 3],
}

impl ThreadIds {
    /// Reads them at `at`.
    pub fn read(ir: &mut Ir, at: InsertPoint, location: &Location) -> ThreadIds {
        let dims = [Dimension::X, Dimension::Y, Dimension::Z];
        ThreadIds {
            tid: dims.map(|d| ops::gpu_id(ir, at, "gpu.thread_id", d, location)),
            bdim: dims.map(|d| ops::gpu_id(ir, at, "gpu.block_dim", d, location)),
            bid: dims.map(|d| ops::gpu_id(ir, at, "gpu.block_id", d, location)),
            gdim: dims.map(|d| ops::gpu_id(ir, at, "gpu.grid_dim", d, location)),
        }
    }

    /// The thread id linearised over axes `from..3` (x fastest) and the number of threads
    /// there.
    pub fn linear(&self, ir: &mut Ir, at: InsertPoint, from: usize, location: &Location) -> (ValueId, ValueId) {
        let (mut id, mut size) = (self.tid[2], self.bdim[2]);
        for a in (from..2).rev() {
            let scaled = binary(ir, at, "arith.muli", id, self.bdim[a], Type::Index, location);
            id = binary(ir, at, "arith.addi", scaled, self.tid[a], Type::Index, location);
            size = binary(ir, at, "arith.muli", size, self.bdim[a], Type::Index, location);
        }
        (id, size)
    }
}

/// The default block of the direct strategies for boxes of `rank` dimensions: a warp along the
/// innermost dimension (coalesced), 256 threads.
pub(super) fn default_block(rank: usize) -> [i64; 3] {
    match rank {
        0 | 1 => [256, 1, 1],
        2 => [32, 8, 1],
        _ => [32, 4, 2],
    }
}
