//! Compilation of `gpu.func` kernels into flat [`Insn`] lists.
//!
//! Leaf ops (`arith`, `math`, `memref`, `affine.load/store/apply/min/max`) go through the loop
//! interpreter's compiler, so both interpreters share one translation and one scalar
//! semantics; structured control flow (`scf.for/if/while/parallel`, `affine.for/if/parallel`)
//! is laid out here as jumps with explicit loop counters, which is what lets a thread stop at
//! a barrier inside a loop and resume.

use super::kernel::{Attribution, Insn, Kernel, Label, Special};
use crate::error::{RuntimeError, RuntimeResult};
use crate::loops::affine_eval::CompiledSet;
use crate::loops::compile::{FuncCompiler, KernelSignature};
use crate::loops::steps::Step;
use crate::scalar::{value_kind, Reg, ValueKind};
use std::collections::HashMap;
use stencil_dialects::gpu::{num_workgroup_attributions, Dimension};
use stencil_ir::types::FloatKind;
use stencil_ir::{Attribute, BlockId, Ir, Location, OpId, Type, ValueId};

/// Ops that end a region; their operands are what the region yields.
fn is_terminator(name: &str) -> bool {
    matches!(
        name,
        "scf.yield"
            | "affine.yield"
            | "scf.condition"
            | "scf.reduce"
            | "scf.reduce.return"
            | "gpu.return"
            | "func.return"
    )
}

/// Bytes of one element of a memref of type `ty` on a device (`index` is 64 bits).
fn element_bytes(ty: &Type) -> u32 {
    let element = ty.as_memref().map(|m| &m.element);
    match element {
        Some(Type::Float(FloatKind::F32)) => 4,
        Some(Type::Integer(w)) => w.div_ceil(8),
        _ => 8,
    }
}

/// Compiles kernel `op` of `gpu.module @module`.
pub(crate) fn compile_kernel(ir: &Ir, module: &str, op: OpId) -> RuntimeResult<Kernel> {
    let location = ir.location(op).clone();
    let name = format!("{module}::{}", ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or(""));
    let bad = |m: String| RuntimeError::unsupported(&location, format!("kernel @{}: {m}", name.replace("::", "::@")));
    let fn_type = ir
        .attr(op, "function_type")
        .and_then(Attribute::as_type)
        .and_then(Type::as_function)
        .cloned()
        .ok_or_else(|| bad("has no function_type".into()))?;
    if !fn_type.results.is_empty() {
        return Err(bad("returns values; kernels return nothing".into()));
    }
    let block = ir.regions(op).first().and_then(|&r| ir.entry_block(r)).ok_or_else(|| bad("has no body".into()))?;
    let entry_args = ir.block_args(block);
    let num_inputs = fn_type.inputs.len();
    let num_workgroup = num_workgroup_attributions(ir, op);
    if entry_args.len() < num_inputs + num_workgroup {
        return Err(bad("has fewer entry block arguments than arguments and workgroup attributions".into()));
    }
    let (funcs, kernels) = (HashMap::new(), HashMap::<String, KernelSignature>::new());
    let mut c = KernelCompiler {
        fc: FuncCompiler::new(ir, &funcs, &kernels),
        code: vec![],
        specials: vec![],
        current: location.clone(),
        locations: vec![],
    };
    let args = c.fc.regs_of(&entry_args[..num_inputs]);
    let mut attributions = |values: &[ValueId], what: &str| -> RuntimeResult<Box<[Attribution]>> {
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let ty = ir.value_type(v);
                let (kind, shape) = c.fc.memref_element(op, ty)?;
                let shape: Vec<usize> = shape
                    .into_iter()
                    .collect::<Option<_>>()
                    .ok_or_else(|| bad(format!("{what} attribution #{i} ('{ty}') needs a static shape")))?;
                let elements = crate::field::element_count(&shape)
                    .ok_or_else(|| bad(format!("{what} attribution #{i} ('{ty}') is too large")))?;
                Ok(Attribution { reg: c.fc.reg(v), kind, shape, bytes: elements as u64 * u64::from(element_bytes(ty)) })
            })
            .collect()
    };
    let workgroup = attributions(&entry_args[num_inputs..num_inputs + num_workgroup], "workgroup")?;
    let private = attributions(&entry_args[num_inputs + num_workgroup..], "private")?;
    c.block(block)?;
    if !matches!(c.code.last(), Some(Insn::Return { .. })) {
        let site = c.fc.site(op);
        c.emit(Insn::Return { site });
    }
    tracing::debug!(kernel = %name, instructions = c.code.len(), registers = c.fc.num_regs(), "compiled kernel");
    let (slots, slot_weights) = super::warp::basic_block_slots(&c.code);
    let known_block = match ir.attr(op, "known_block_size") {
        Some(Attribute::DenseArray { values, .. }) if values.len() == 3 => {
            let sizes: Option<Vec<u64>> = values.iter().map(|&v| u64::try_from(v).ok()).collect();
            sizes.map(|s| [s[0], s[1], s[2]])
        }
        _ => None,
    };
    let mut kernel = Kernel {
        known_block,
        name,
        location,
        arg_types: fn_type.inputs,
        args,
        workgroup,
        private,
        specials: c.specials.into(),
        num_regs: c.fc.num_regs(),
        pinned: c.fc.num_regs(),
        constants: std::mem::take(&mut c.fc.constants).into(),
        code: c.code.into_iter().zip(slots.iter().copied()).collect(),
        slot_weights,
        simt: Default::default(),
        sites: std::mem::take(&mut c.fc.sites),
        locations: c.locations.into(),
    };
    // One register per SSA value makes frames as large as the kernel; share registers whose
    // values are never live at once (`regalloc.rs`), so frames stay small and in cache.
    super::regalloc::allocate(&mut kernel);
    let code: Vec<Insn> = kernel.code.iter().map(|(insn, _)| insn.clone()).collect();
    kernel.simt = super::simt::SimtTables::new(&code, kernel.num_regs);
    Ok(kernel)
}

/// The registers of a counted loop: counter (holding the first value on entry), upper bound,
/// step, induction variable, and how the test compares (`width` bits, unsigned or not).
#[derive(Copy, Clone)]
struct Counted {
    counter: Reg,
    upper: Reg,
    step: Reg,
    iv: Reg,
    width: u8,
    unsigned: bool,
}

struct KernelCompiler<'a> {
    fc: FuncCompiler<'a>,
    code: Vec<Insn>,
    specials: Vec<(Reg, Special)>,
    /// The location of the op being compiled.
    current: Location,
    /// Per instruction of `code`, the location of the op it was compiled from (`--profile`).
    locations: Vec<Location>,
}

impl KernelCompiler<'_> {
    fn here(&self) -> Label {
        self.code.len() as Label
    }

    fn emit(&mut self, insn: Insn) -> usize {
        self.code.push(insn);
        self.locations.push(self.current.clone());
        self.code.len() - 1
    }

    /// Points the jump emitted at `at` to `target`.
    fn patch(&mut self, at: usize, to: Label) {
        match &mut self.code[at] {
            Insn::Jump { target } | Insn::BranchIfFalse { target, .. } | Insn::BranchUnlessSet { target, .. } => {
                *target = to
            }
            Insn::LoopTest { exit, .. } | Insn::LoopNext { exit, .. } => *exit = to,
            _ => {}
        }
    }

    /// `dsts[i] = srcs[i]` for all `i` at once: through temporaries when a destination is
    /// also read (a loop yielding its iter_args swapped).
    fn moves(&mut self, dsts: &[Reg], srcs: &[Reg]) {
        let pairs: Vec<(Reg, Reg)> = dsts.iter().copied().zip(srcs.iter().copied()).filter(|(d, s)| d != s).collect();
        let overlapping = pairs.iter().any(|(d, _)| pairs.iter().any(|(_, s)| s == d));
        if overlapping {
            let temps: Vec<Reg> = pairs.iter().map(|_| self.fc.fresh_reg()).collect();
            for (&t, &(_, s)) in temps.iter().zip(&pairs) {
                self.emit(Insn::Move { dst: t, src: s });
            }
            for (&t, &(d, _)) in temps.iter().zip(&pairs) {
                self.emit(Insn::Move { dst: d, src: t });
            }
        } else {
            for (d, s) in pairs {
                self.emit(Insn::Move { dst: d, src: s });
            }
        }
    }

    /// Compiles the ops of `block`; returns the registers its terminator yields.
    fn block(&mut self, block: BlockId) -> RuntimeResult<Box<[Reg]>> {
        let ir = self.fc.ir;
        for op in ir.block_op_iter(block) {
            let name = ir.op_name(op);
            if name == "gpu.return" {
                let site = self.fc.site(op);
                self.emit(Insn::Return { site });
                return Ok(Box::default());
            }
            if is_terminator(name) {
                return Ok(self.fc.regs_of(ir.operands(op)));
            }
            self.op(op)?;
        }
        Ok(Box::default())
    }

    /// The entry block of region `i` of `op` with its argument registers.
    fn region(&mut self, op: OpId, i: usize) -> RuntimeResult<(Option<BlockId>, Box<[Reg]>)> {
        match self.fc.region(op, i)? {
            Some((b, args)) => Ok((Some(b), args)),
            None => Ok((None, Box::default())),
        }
    }

    fn region_yields(&mut self, block: Option<BlockId>) -> RuntimeResult<Box<[Reg]>> {
        match block {
            Some(b) => self.block(b),
            None => Ok(Box::default()),
        }
    }

    /// Compiles `op`, its instructions located at it (nested ops at their own locations).
    fn op(&mut self, op: OpId) -> RuntimeResult<()> {
        let outer = std::mem::replace(&mut self.current, self.fc.ir.location(op).clone());
        let compiled = self.op_here(op);
        self.current = outer;
        compiled
    }

    fn op_here(&mut self, op: OpId) -> RuntimeResult<()> {
        let ir = self.fc.ir;
        let name = ir.op_name(op);
        let operands = ir.operands(op).to_vec();
        let results = ir.results(op).to_vec();
        match name {
            "gpu.thread_id" | "gpu.block_id" | "gpu.block_dim" | "gpu.grid_dim" => {
                let &[r] = results.as_slice() else { return Err(self.fc.error(op, "needs one result")) };
                let dim = ir
                    .attr(op, "dimension")
                    .and_then(Dimension::from_attr)
                    .and_then(|d| Dimension::ALL.iter().position(|&x| x == d))
                    .ok_or_else(|| self.fc.error(op, "needs a dimension x, y or z"))?;
                let special = match name {
                    "gpu.thread_id" => Special::ThreadId(dim),
                    "gpu.block_id" => Special::BlockId(dim),
                    "gpu.block_dim" => Special::BlockDim(dim),
                    _ => Special::GridDim(dim),
                };
                let reg = self.fc.reg(r);
                self.specials.push((reg, special));
            }
            "gpu.barrier" => {
                let site = self.fc.site(op);
                self.emit(Insn::Barrier { site });
            }
            "scf.for" => self.scf_for(op, &operands, &results)?,
            "affine.for" => self.affine_for(op, &operands, &results)?,
            "scf.if" | "affine.if" => self.if_op(op, &operands, &results)?,
            "scf.while" => self.while_op(op, &operands, &results)?,
            "scf.parallel" | "affine.parallel" => self.parallel(op, &operands, &results)?,
            "func.call" => {
                return Err(self
                    .fc
                    .error(op, "inside a kernel is not supported by the GPU simulator (inline the callee)"))
            }
            "gpu.launch_func" => {
                return Err(self.fc.error(op, "inside a kernel (dynamic parallelism) is not supported"));
            }
            "memref.alloc" | "memref.dealloc" | "memref.copy" => {
                return Err(self.fc.error(
                    op,
                    "inside a kernel is not supported by the GPU simulator (use memory attributions or memref.alloca)",
                ))
            }
            _ => self.leaf(op)?,
        }
        Ok(())
    }

    /// An op without regions, compiled by the loop interpreter's compiler.
    fn leaf(&mut self, op: OpId) -> RuntimeResult<()> {
        let ir = self.fc.ir;
        if !ir.regions(op).is_empty() {
            return Err(self.fc.error(op, "is not supported inside kernels by the GPU simulator"));
        }
        let operand_type = |i: usize| ir.operands(op).get(i).map(|&v| ir.value_type(v));
        let Some(step) = self.fc.op(op)? else { return Ok(()) };
        let insn = match step {
            Step::Scalar { insn, site } => Insn::Scalar { insn, site },
            Step::Load { dst, mem, index, site } => {
                Insn::Load { dst, mem, index, bytes: operand_type(0).map_or(8, element_bytes), site }
            }
            Step::Store { value, mem, index, site } => {
                Insn::Store { value, mem, index, bytes: operand_type(1).map_or(8, element_bytes), site }
            }
            Step::Apply { dst, map, fold, site } => Insn::Apply { dst, map, fold, site },
            Step::Alloc { dst, kind, shape, sizes, stack: true, site } => {
                Insn::Alloca { dst, kind, shape, sizes, site }
            }
            Step::Dim { dst, mem, dim, site } => Insn::Dim { dst, mem, dim, site },
            Step::Cast { dst, src, shape, site } => Insn::Cast { dst, src, shape, site },
            Step::FlatView { dst, src, size, site } => Insn::FlatView { dst, src, size, site },
            _ => return Err(self.fc.error(op, "is not supported inside kernels by the GPU simulator")),
        };
        self.emit(insn);
        Ok(())
    }

    /// The loop skeleton shared by every loop form: `lp.counter` already holds the first
    /// value. Emits head test, body (via `body`), latch.
    fn counted_loop(&mut self, lp: Counted, body: &mut dyn FnMut(&mut Self) -> RuntimeResult<()>) -> RuntimeResult<()> {
        let Counted { counter, upper, step, iv, width, unsigned } = lp;
        let head = self.here();
        let test = self.emit(Insn::LoopTest { counter, upper, iv, width, unsigned, exit: 0 });
        body(self)?;
        let exit = self.here() + 1;
        self.emit(Insn::LoopNext { counter, step, head, exit });
        self.patch(test, exit);
        Ok(())
    }

    /// Induction variable and iter_args of a `for`, checked against inits and results.
    fn for_parts(
        &mut self,
        op: OpId,
        inits: &[ValueId],
        results: &[ValueId],
    ) -> RuntimeResult<(Option<BlockId>, Reg, Box<[Reg]>)> {
        let (block, args) = self.region(op, 0)?;
        let (&iv, iter_args) = args.split_first().ok_or_else(|| self.fc.error(op, "needs an induction variable"))?;
        if iter_args.len() != inits.len() || results.len() != inits.len() {
            return Err(self.fc.error(op, "needs one iter_arg and one result per initial value"));
        }
        Ok((block, iv, iter_args.into()))
    }

    /// The body of a `for`: runs the block, then passes its yields to the iter_args.
    fn for_body(&mut self, op: OpId, block: Option<BlockId>, iter_args: &[Reg]) -> RuntimeResult<()> {
        let yields = self.region_yields(block)?;
        if yields.len() != iter_args.len() {
            return Err(self.fc.error(op, "must yield one value per iter_arg"));
        }
        self.moves(iter_args, &yields);
        Ok(())
    }

    fn scf_for(&mut self, op: OpId, operands: &[ValueId], results: &[ValueId]) -> RuntimeResult<()> {
        let [lower, upper, step, inits @ ..] = operands else {
            return Err(self.fc.error(op, "needs lower bound, upper bound and step operands"));
        };
        let width = match value_kind(self.fc.ir.value_type(*lower)) {
            Some(ValueKind::Int(w)) => w,
            _ => return Err(self.fc.error(op, "needs integer or index bounds")),
        };
        let unsigned = self.fc.ir.attr(op, "unsignedCmp").is_some();
        let (block, iv, iter_args) = self.for_parts(op, inits, results)?;
        let (lower, upper, step) = (self.fc.reg(*lower), self.fc.reg(*upper), self.fc.reg(*step));
        let site = self.fc.site(op);
        self.emit(Insn::CheckStep { step, site });
        let inits = self.fc.regs_of(inits);
        self.moves(&iter_args, &inits);
        let counter = self.fc.fresh_reg();
        self.emit(Insn::Move { dst: counter, src: lower });
        let lp = Counted { counter, upper, step, iv, width, unsigned };
        self.counted_loop(lp, &mut |c| c.for_body(op, block, &iter_args))?;
        let results = self.fc.regs_of(results);
        self.moves(&results, &iter_args);
        Ok(())
    }

    fn affine_for(&mut self, op: OpId, operands: &[ValueId], results: &[ValueId]) -> RuntimeResult<()> {
        let seg = self.fc.segments(op, 3)?;
        let lower = self.fc.bound(op, "lowerBoundMap", &operands[seg[0].clone()], None)?;
        let upper = self.fc.bound(op, "upperBoundMap", &operands[seg[1].clone()], None)?;
        let step = self
            .fc
            .ir
            .attr(op, "step")
            .and_then(Attribute::as_i64)
            .filter(|&s| s > 0)
            .ok_or_else(|| self.fc.error(op, "needs a positive 'step'"))?;
        let (block, iv, iter_args) = self.for_parts(op, &operands[seg[2].clone()], results)?;
        let site = self.fc.site(op);
        let (counter, ub) = (self.fc.fresh_reg(), self.fc.fresh_reg());
        self.emit(Insn::Bound { dst: counter, bound: lower, lower: true, site });
        self.emit(Insn::Bound { dst: ub, bound: upper, lower: false, site });
        let step = self.fc.constant_reg(step as u64);
        let inits = self.fc.regs_of(&operands[seg[2].clone()]);
        self.moves(&iter_args, &inits);
        let lp = Counted { counter, upper: ub, step, iv, width: 64, unsigned: false };
        self.counted_loop(lp, &mut |c| c.for_body(op, block, &iter_args))?;
        let results = self.fc.regs_of(results);
        self.moves(&results, &iter_args);
        Ok(())
    }

    fn if_op(&mut self, op: OpId, operands: &[ValueId], results: &[ValueId]) -> RuntimeResult<()> {
        let ir = self.fc.ir;
        let branch = if ir.op_name(op) == "scf.if" {
            let &[c] = operands else { return Err(self.fc.error(op, "needs one condition operand")) };
            let cond = self.fc.reg(c);
            self.emit(Insn::BranchIfFalse { cond, target: 0 })
        } else {
            let set = ir
                .attr(op, "condition")
                .and_then(Attribute::as_integer_set)
                .cloned()
                .ok_or_else(|| self.fc.error(op, "needs an integer set 'condition'"))?;
            if (set.num_dims + set.num_symbols) as usize != operands.len() {
                return Err(self.fc.error(op, "has a condition that does not match its operands"));
            }
            let regs = self.fc.regs_of(operands).into_vec();
            let site = self.fc.site(op);
            self.emit(Insn::BranchUnlessSet { set: CompiledSet::new(&set, regs), target: 0, site })
        };
        let results = self.fc.regs_of(results);
        let (then_block, _) = self.region(op, 0)?;
        let then_yields = self.region_yields(then_block)?;
        self.moves(&results, &then_yields);
        let skip_else = self.emit(Insn::Jump { target: 0 });
        let else_start = self.here();
        self.patch(branch, else_start);
        let (else_block, _) = self.region(op, 1)?;
        let else_yields = self.region_yields(else_block)?;
        self.moves(&results, &else_yields);
        let end = self.here();
        self.patch(skip_else, end);
        Ok(())
    }

    fn while_op(&mut self, op: OpId, operands: &[ValueId], results: &[ValueId]) -> RuntimeResult<()> {
        let (before_block, before_args) = self.region(op, 0)?;
        let (after_block, after_args) = self.region(op, 1)?;
        let (Some(before_block), Some(after_block)) = (before_block, after_block) else {
            return Err(self.fc.error(op, "needs a 'before' and an 'after' block"));
        };
        let inits = self.fc.regs_of(operands);
        self.moves(&before_args, &inits);
        let head = self.here();
        let condition = self.block(before_block)?;
        let Some((&cond, forwarded)) = condition.split_first() else {
            return Err(self.fc.error(op, "needs its 'before' region to end with scf.condition"));
        };
        let leave = self.emit(Insn::BranchIfFalse { cond, target: 0 });
        self.moves(&after_args, forwarded);
        let yields = self.block(after_block)?;
        self.moves(&before_args, &yields);
        self.emit(Insn::Jump { target: head });
        let exit = self.here();
        self.patch(leave, exit);
        let results = self.fc.regs_of(results);
        self.moves(&results, forwarded);
        Ok(())
    }

    /// `scf.parallel` / `affine.parallel` without reductions, as a loop nest in lexicographic
    /// order (one of their legal executions, the one the loop interpreter uses).
    fn parallel(&mut self, op: OpId, operands: &[ValueId], results: &[ValueId]) -> RuntimeResult<()> {
        if !results.is_empty() {
            return Err(self.fc.error(op, "with reductions is not supported inside kernels by the GPU simulator"));
        }
        let ir = self.fc.ir;
        let (block, ivs) = self.region(op, 0)?;
        let site = self.fc.site(op);
        let mut dims: Vec<(Reg, Reg, Reg)> = vec![];
        if ir.op_name(op) == "scf.parallel" {
            let seg = self.fc.segments(op, 4)?;
            let n = ivs.len();
            if seg[0].len() != n || seg[1].len() != n || seg[2].len() != n {
                return Err(self.fc.error(op, "needs one bound and step per induction variable"));
            }
            let lowers = self.fc.regs_of(&operands[seg[0].clone()]);
            let uppers = self.fc.regs_of(&operands[seg[1].clone()]);
            let steps = self.fc.regs_of(&operands[seg[2].clone()]);
            for &step in steps.iter() {
                self.emit(Insn::CheckStep { step, site });
            }
            for d in 0..n {
                dims.push((lowers[d], uppers[d], steps[d]));
            }
        } else {
            let lower_map = self.fc.map_attr(op, "lowerBoundsMap")?;
            let split = lower_map.num_inputs().min(operands.len());
            let (lower_ops, upper_ops) = operands.split_at(split);
            let groups = |name: &str| -> RuntimeResult<Vec<usize>> {
                ir.attr(op, name)
                    .and_then(Attribute::as_dense_int_elements)
                    .and_then(|g| g.iter().map(|&x| usize::try_from(x).ok()).collect())
                    .ok_or_else(|| self.fc.error(op, format!("needs '{name}'")))
            };
            let (lower_groups, upper_groups) = (groups("lowerBoundsGroups")?, groups("upperBoundsGroups")?);
            let steps: Vec<i64> = match ir.attr(op, "steps") {
                Some(Attribute::Array(items)) => items.iter().map(Attribute::as_i64).collect::<Option<_>>(),
                _ => None,
            }
            .filter(|s: &Vec<i64>| s.iter().all(|&x| x > 0))
            .ok_or_else(|| self.fc.error(op, "needs positive 'steps'"))?;
            if ivs.len() != steps.len() || lower_groups.len() != steps.len() || upper_groups.len() != steps.len() {
                return Err(self.fc.error(op, "needs one bound group and step per induction variable"));
            }
            let (mut lo_start, mut up_start) = (0, 0);
            for d in 0..steps.len() {
                let lower =
                    self.fc.bound(op, "lowerBoundsMap", lower_ops, Some(lo_start..lo_start + lower_groups[d]))?;
                let upper =
                    self.fc.bound(op, "upperBoundsMap", upper_ops, Some(up_start..up_start + upper_groups[d]))?;
                lo_start += lower_groups[d];
                up_start += upper_groups[d];
                let (lb, ub) = (self.fc.fresh_reg(), self.fc.fresh_reg());
                self.emit(Insn::Bound { dst: lb, bound: lower, lower: true, site });
                self.emit(Insn::Bound { dst: ub, bound: upper, lower: false, site });
                let step = self.fc.constant_reg(steps[d] as u64);
                dims.push((lb, ub, step));
            }
        }
        self.nest(block, &ivs, &dims)
    }

    /// Loops over `dims` (first value, upper bound, step registers, all evaluated before the
    /// nest starts, as the loop interpreter does), outermost first, around the body.
    fn nest(&mut self, block: Option<BlockId>, ivs: &[Reg], dims: &[(Reg, Reg, Reg)]) -> RuntimeResult<()> {
        let Some((&(first, upper, step), inner)) = dims.split_first() else {
            self.region_yields(block)?;
            return Ok(());
        };
        let counter = self.fc.fresh_reg();
        self.emit(Insn::Move { dst: counter, src: first });
        let lp = Counted { counter, upper, step, iv: ivs[0], width: 64, unsigned: false };
        self.counted_loop(lp, &mut |c| c.nest(block, &ivs[1..], inner))
    }
}

/// Every kernel `gpu.func` of every `gpu.module` directly inside `module`, compiled, with the
/// signatures host functions check their launches against.
pub(crate) fn compile_kernels(ir: &Ir, module: OpId) -> RuntimeResult<(Vec<Kernel>, HashMap<String, KernelSignature>)> {
    let top_ops = |op: OpId| -> Vec<OpId> {
        ir.regions(op).iter().flat_map(|&r| ir.blocks(r).iter().copied()).flat_map(|b| ir.block_op_iter(b)).collect()
    };
    let mut kernels = vec![];
    let mut signatures = HashMap::new();
    for gpu_module in top_ops(module).into_iter().filter(|&o| ir.op_name(o) == "gpu.module") {
        let module_name = ir.attr(gpu_module, "sym_name").and_then(Attribute::as_str).unwrap_or("");
        for func in top_ops(gpu_module) {
            if ir.op_name(func) != "gpu.func" || !stencil_dialects::gpu::is_kernel(ir, func) {
                continue;
            }
            let kernel = compile_kernel(ir, module_name, func)?;
            signatures.insert(
                kernel.name.clone(),
                KernelSignature { index: kernels.len(), arg_types: kernel.arg_types.clone() },
            );
            kernels.push(kernel);
        }
    }
    Ok((kernels, signatures))
}
