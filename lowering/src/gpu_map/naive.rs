//! The `naive` strategy: what a competent engineer writes by hand for a Jacobi-like program,
//! and the baseline every other mapping is measured against.
//!
//! `stencil.iterate` loops stay on the host; every `stencil.apply` is one launch per iteration,
//! over its whole box, **one thread per point**: the innermost box dimension on the block's x
//! (consecutive threads, consecutive addresses: coalesced), the next on y, the next on z, and a
//! grid covering the box (`⌈extent / block⌉` blocks per axis, computed on the host from the
//! parameters). Enough blocks to fill the GPU many times over, so it is bound by memory
//! bandwidth, not by occupancy. If a grid axis would exceed CUDA's limit, threads stride over
//! the rest (the loops below are grid-stride loops that run once per thread otherwise).
//!
//! Only DOALL applies can run this way (their points are independent); an apply that reads the
//! field it writes at another point (SOR) is refused with a hint to tile it instead.

use stencil_ir::affine::AffineExpr;
use stencil_ir::ir::InsertPoint;
use stencil_ir::{Diagnostic, DialectRegistry, Ir, OpId, Type, ValueId};
use stencil_passes::stencil_to_poly::ScopInfo;

use super::arith::{binary, ArithIndexer};
use super::host::{default_block, HostSide, LaunchShape, ThreadIds};
use super::nest::{ApplyBox, NestItem};
use super::{mapping_error, ops, GpuMapOptions, MappingStrategy};
use crate::codegen::statement::copy_statement;

/// See the module documentation.
pub(super) struct Naive;

impl MappingStrategy for Naive {
    fn name(&self) -> &'static str {
        "naive"
    }

    fn map(
        &self,
        ir: &mut Ir,
        registry: &DialectRegistry,
        program: OpId,
        options: &GpuMapOptions,
    ) -> Result<OpId, Diagnostic> {
        let (info, nest) = super::direct_program(ir, registry, program, self.name())?;
        let fail = |ir: &Ir, e: String| mapping_error(ir, program, self.name(), e);
        // Keep the historical wording users and scripts look for ("gpu-map failed: …").
        let located = |e: String| stencil_dialects::support::op_error(ir, program, format!("gpu-map failed: {e}"));
        super::nest::require_doall(&nest, "naive", located)?;
        check_applies(&nest).map_err(located)?;
        let name = info.program_name(ir).to_string();
        let mut host = HostSide::create(ir, program, &name, options).map_err(|e| fail(ir, e))?;
        let mut emitter = NaiveEmitter { info: &info, host: &mut host, block: options.block };
        let at = emitter.host.entry();
        if let Err(e) = emitter.items(ir, &nest, at, &mut vec![]) {
            host.abandon(ir);
            return Err(fail(ir, e));
        }
        let func = host.finish(ir, program);
        let block = options.block.unwrap_or_else(|| default_block(max_rank(&nest)));
        super::record_mapping(
            ir,
            func,
            self.name(),
            vec![("block", super::int_array(&block)), ("points_per_thread", stencil_ir::Attribute::i64(1))],
        );
        Ok(func)
    }
}

/// The largest rank of the applies (what the default block is chosen for).
fn max_rank(items: &[NestItem]) -> usize {
    items
        .iter()
        .map(|item| match item {
            NestItem::Loop(l) => max_rank(&l.body),
            NestItem::Apply(a) => a.rank(),
        })
        .max()
        .unwrap_or(1)
}

/// Every apply must have at most three dimensions (DOALL: [`super::nest::require_doall`]).
fn check_applies(items: &[NestItem]) -> Result<(), String> {
    for item in items {
        match item {
            NestItem::Loop(l) => check_applies(&l.body)?,
            NestItem::Apply(a) if a.rank() > 3 => {
                return Err(format!("{} has {} dimensions; the naive mapping handles up to 3", a.name, a.rank()))
            }
            NestItem::Apply(_) => {}
        }
    }
    Ok(())
}

struct NaiveEmitter<'a> {
    info: &'a ScopInfo,
    host: &'a mut HostSide,
    block: Option<[i64; 3]>,
}

impl NaiveEmitter<'_> {
    /// Host code for `items` at `at`, inside the host loops whose variables are `ivs`.
    fn items(
        &mut self,
        ir: &mut Ir,
        items: &[NestItem],
        at: InsertPoint,
        ivs: &mut Vec<ValueId>,
    ) -> Result<(), String> {
        for item in items {
            match item {
                NestItem::Loop(l) => {
                    let (iv, body) = self.host.host_loop(ir, at, &l.lower, &l.upper)?;
                    ivs.push(iv);
                    self.items(ir, &l.body, body, ivs)?;
                    ivs.pop();
                }
                NestItem::Apply(apply) => self.apply(ir, apply, at, ivs)?,
            }
        }
        Ok(())
    }

    /// One kernel for `apply` and its launch at `at`.
    fn apply(&mut self, ir: &mut Ir, apply: &ApplyBox, at: InsertPoint, ivs: &[ValueId]) -> Result<(), String> {
        let rank = apply.rank();
        let block = self.block.unwrap_or_else(|| default_block(rank));
        let kernel = self.host.new_kernel(ir, &vec![Type::Index; ivs.len()]);
        let location = apply.location.clone();
        let k_at = kernel.at;
        let ids = ThreadIds::read(ir, k_at, &location);
        // Dimension d of the box (0 = outermost) on axis rank-1-d; the outermost also takes the
        // axes above it, so a 1-D box on a 2-D block leaves no thread idle or duplicated.
        let mut dims: Vec<Option<ValueId>> = kernel.extra.iter().map(|&v| Some(v)).collect();
        let mut body = k_at;
        for d in 0..rank {
            let axis = rank - 1 - d;
            let indexer = ArithIndexer { dims: &[], params: &kernel.params };
            let lo = indexer.value(ir, body, &apply.lower[d], &location)?;
            let hi = indexer.value(ir, body, &apply.upper[d], &location)?;
            let (thread, threads) =
                if d == 0 { ids.linear(ir, body, axis, &location) } else { (ids.tid[axis], ids.bdim[axis]) };
            let first_block = binary(ir, body, "arith.muli", ids.bid[axis], threads, Type::Index, &location);
            let offset = binary(ir, body, "arith.addi", first_block, thread, Type::Index, &location);
            let start = binary(ir, body, "arith.addi", lo, offset, Type::Index, &location);
            let stride = binary(ir, body, "arith.muli", ids.gdim[axis], threads, Type::Index, &location);
            let (p, inner) = ops::scf_for(ir, body, start, hi, stride, &location);
            dims.push(Some(p));
            body = inner;
        }
        let n_outer = ivs.len();
        let iters: Vec<AffineExpr> = (0..n_outer + rank).map(|k| AffineExpr::Dim(k as u32)).collect();
        let mut indexer = ArithIndexer { dims: &dims, params: &kernel.params };
        copy_statement(ir, self.info, apply.statement, &iters, &kernel.args, body, &mut indexer)?;
        // The grid: per axis, the blocks covering the box along the dimension on it.
        let mut grid = [None; 3];
        for d in 0..rank {
            let axis = rank - 1 - d;
            let extent = apply.extent(d)?;
            let per_block: i64 = if d == 0 { block[axis..].iter().product() } else { block[axis] };
            grid[axis] = Some(self.host.grid_size(ir, at, &extent, per_block, axis, ivs)?);
        }
        let one = super::arith::index_constant(ir, at, 1, &location);
        let grid = grid.map(|g| g.unwrap_or(one));
        self.host.launch(ir, at, &kernel, LaunchShape { grid, block }, &Default::default(), ivs);
        tracing::debug!(kernel = %kernel.name, apply = %apply.name, ?block, "gpu-map{{naive}}: kernel");
        Ok(())
    }
}
