//! Compilation of `func.func` bodies into [`Step`] trees: registers assigned to SSA values,
//! constants moved to the frame's initialisation, affine maps turned into linear forms,
//! callees resolved to function numbers.

use super::affine_eval::{CompiledMap, CompiledSet};
use super::steps::{
    AffineBound, Body, Cond, Function, Index, Loop, Reducer, ReductionKind, Site, SiteId, Step, ViewSize,
};
use crate::error::{RuntimeError, RuntimeResult};
use crate::scalar::{constant_bits, is_scalar_op, lower_scalar_op, value_kind, Reg, ValueKind};
use std::collections::HashMap;
use stencil_dialects::gpu::LaunchFuncOperands;
use stencil_ir::types::Dim;
use stencil_ir::{Attribute, BlockId, Ir, OpId, Type, ValueId};

/// `arith::AtomicRMWKind` in the order of its integer encoding (the values stored in
/// `affine.parallel`'s `reductions`), as the affine dialect module lists them.
/// The interpreter's reduction for an `arith::AtomicRMWKind` name.
fn reduction_from_name(name: &str) -> Option<ReductionKind> {
    Some(match name {
        "addf" => ReductionKind::AddF,
        "addi" => ReductionKind::AddI,
        "andi" => ReductionKind::AndI,
        "assign" => ReductionKind::Assign,
        "maximumf" => ReductionKind::MaximumF,
        "maxnumf" => ReductionKind::MaxNumF,
        "maxs" => ReductionKind::MaxS,
        "maxu" => ReductionKind::MaxU,
        "minimumf" => ReductionKind::MinimumF,
        "minnumf" => ReductionKind::MinNumF,
        "mins" => ReductionKind::MinS,
        "minu" => ReductionKind::MinU,
        "mulf" => ReductionKind::MulF,
        "muli" => ReductionKind::MulI,
        "ori" => ReductionKind::OrI,
        "xori" => ReductionKind::XorI,
        _ => return None,
    })
}

/// A kernel a host function may launch with `gpu.launch_func`: its number in the GPU
/// simulator's kernel table and its argument types (checked against the launch operands).
#[derive(Clone, Debug)]
pub(crate) struct KernelSignature {
    /// Position in the simulator's kernel table.
    pub index: usize,
    /// The kernel's argument types.
    pub arg_types: Vec<Type>,
}

/// Compiles one function; `funcs` maps every function name of the module to its number,
/// `kernels` every launchable kernel (`module::kernel`) to its signature (empty outside the
/// GPU simulator, where a launch is then reported as unsupported).
pub(crate) fn compile_function(
    ir: &Ir,
    op: OpId,
    funcs: &HashMap<String, usize>,
    kernels: &HashMap<String, KernelSignature>,
) -> RuntimeResult<Function> {
    let location = ir.location(op).clone();
    let name = ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or("").to_string();
    let fn_type = ir
        .attr(op, "function_type")
        .and_then(Attribute::as_type)
        .and_then(Type::as_function)
        .cloned()
        .ok_or_else(|| RuntimeError::unsupported(&location, format!("function @{name} has no function_type")))?;
    let block = ir.regions(op).first().and_then(|&r| ir.entry_block(r)).ok_or_else(|| {
        RuntimeError::unsupported(&location, format!("function @{name} has no body (declarations cannot run)"))
    })?;
    let mut c = FuncCompiler::new(ir, funcs, kernels);
    let args = ir.block_args(block).iter().map(|&a| c.reg(a)).collect();
    let body = c.body(block)?;
    Ok(Function {
        name,
        location,
        arg_types: fn_type.inputs,
        result_types: fn_type.results,
        num_regs: c.num_regs(),
        constants: c.constants.into(),
        args,
        body,
        sites: c.sites,
    })
}

/// Register assignment, sites and constants of one function being compiled, with the op
/// readers both the step-tree compiler here and the GPU simulator's kernel compiler use.
pub(crate) struct FuncCompiler<'a> {
    pub ir: &'a Ir,
    funcs: &'a HashMap<String, usize>,
    kernels: &'a HashMap<String, KernelSignature>,
    regs: HashMap<ValueId, Reg>,
    /// Registers handed out so far (SSA values and compiler temporaries).
    next_reg: Reg,
    pub sites: Vec<Site>,
    pub constants: Vec<(Reg, u64)>,
}

fn is_terminator(name: &str) -> bool {
    matches!(name, "scf.yield" | "affine.yield" | "func.return" | "scf.reduce" | "scf.condition" | "scf.reduce.return")
}

impl<'a> FuncCompiler<'a> {
    /// A compiler with no registers assigned yet.
    pub fn new(ir: &'a Ir, funcs: &'a HashMap<String, usize>, kernels: &'a HashMap<String, KernelSignature>) -> Self {
        FuncCompiler { ir, funcs, kernels, regs: HashMap::new(), next_reg: 0, sites: vec![], constants: vec![] }
    }

    /// The size of the register frame.
    pub fn num_regs(&self) -> usize {
        self.next_reg as usize
    }

    /// The register of SSA value `v`.
    pub fn reg(&mut self, v: ValueId) -> Reg {
        let next = &mut self.next_reg;
        *self.regs.entry(v).or_insert_with(|| {
            *next += 1;
            *next - 1
        })
    }

    /// A register no SSA value uses (loop counters, bounds, parallel-copy temporaries).
    pub fn fresh_reg(&mut self) -> Reg {
        self.next_reg += 1;
        self.next_reg - 1
    }

    /// A register holding `bits` from the frame's creation on.
    pub fn constant_reg(&mut self, bits: u64) -> Reg {
        let r = self.fresh_reg();
        self.constants.push((r, bits));
        r
    }

    /// The registers of `values`.
    pub fn regs_of(&mut self, values: &[ValueId]) -> Box<[Reg]> {
        values.iter().map(|&v| self.reg(v)).collect()
    }

    /// A new site for `op` (its location and name, for errors raised when it runs).
    pub fn site(&mut self, op: OpId) -> SiteId {
        self.sites.push(Site { location: self.ir.location(op).clone(), op: self.ir.op_name(op).to_string() });
        (self.sites.len() - 1) as SiteId
    }

    /// An unsupported-construct error at `op`: `'op.name' message`.
    pub fn error(&self, op: OpId, message: impl Into<String>) -> RuntimeError {
        RuntimeError::unsupported(self.ir.location(op), format!("'{}' {}", self.ir.op_name(op), message.into()))
    }

    /// `memref.reinterpret_cast` as the simulators run it: a flat view of a whole buffer
    /// (offset 0, one size, stride 1: [`Step::FlatView`]); other views are refused here.
    fn flat_view(&mut self, op: OpId, operands: &[ValueId], results: &[ValueId]) -> RuntimeResult<Step> {
        let (&[src, ..], &[r]) = (operands, results) else {
            return Err(self.error(op, "needs a source operand and one result"));
        };
        self.memref_element(op, self.ir.value_type(src))?;
        let list = |name| match self.ir.attr(op, name) {
            Some(Attribute::DenseArray { values, .. }) => values.clone(),
            _ => vec![],
        };
        let (offsets, sizes, strides) = (list("static_offsets"), list("static_sizes"), list("static_strides"));
        let dynamic = stencil_dialects::memref::DYNAMIC;
        if offsets != [0] || strides != [1] || sizes.len() != 1 {
            return Err(self.error(
                op,
                "is supported only as a flat view of a whole buffer (offset: [0], one size, strides: [1])",
            ));
        }
        let size = match sizes[0] {
            n if n == dynamic => {
                let &[_, size] = operands else { return Err(self.error(op, "lacks its size operand")) };
                ViewSize::Dynamic(self.reg(size))
            }
            n => ViewSize::Static(n),
        };
        Ok(Step::FlatView { dst: self.reg(r), src: self.reg(src), size, site: self.site(op) })
    }

    /// Steps of a block and its terminator (if any).
    fn steps(&mut self, block: BlockId) -> RuntimeResult<(Box<[Step]>, Option<OpId>)> {
        let mut steps = vec![];
        let mut terminator = None;
        for op in self.ir.block_op_iter(block) {
            if is_terminator(self.ir.op_name(op)) {
                terminator = Some(op);
            } else if let Some(step) = self.op(op)? {
                steps.push(step);
            }
        }
        Ok((steps.into(), terminator))
    }

    /// A block whose terminator (a yield or return) passes its operands on.
    fn body(&mut self, block: BlockId) -> RuntimeResult<Body> {
        let (steps, terminator) = self.steps(block)?;
        let ir = self.ir;
        let yields = match terminator {
            Some(t) => self.regs_of(ir.operands(t)),
            None => Box::default(),
        };
        Ok(Body { steps, yields })
    }

    /// The entry block of region `i` of `op` and its arguments.
    pub fn region(&mut self, op: OpId, i: usize) -> RuntimeResult<Option<(BlockId, Box<[Reg]>)>> {
        let Some(&region) = self.ir.regions(op).get(i) else {
            return Err(self.error(op, format!("needs region #{i}")));
        };
        Ok(self.ir.entry_block(region).map(|b| {
            let args = self.ir.block_args(b).to_vec();
            (b, self.regs_of(&args))
        }))
    }

    fn region_body(&mut self, op: OpId, i: usize) -> RuntimeResult<(Body, Box<[Reg]>)> {
        match self.region(op, i)? {
            Some((b, args)) => Ok((self.body(b)?, args)),
            None => Ok((Body::default(), Box::default())),
        }
    }

    fn kind_of(&self, op: OpId, ty: &Type) -> RuntimeResult<ValueKind> {
        value_kind(ty).ok_or_else(|| self.error(op, format!("uses type '{ty}', which the interpreter cannot hold")))
    }

    /// The element kind and the static sizes (`None` for `?`) of memref type `ty`.
    pub fn memref_element(&self, op: OpId, ty: &Type) -> RuntimeResult<(ValueKind, Vec<Option<usize>>)> {
        let m = ty.as_memref().ok_or_else(|| self.error(op, format!("expects a memref, found '{ty}'")))?;
        let shape =
            m.shape.as_ref().ok_or_else(|| self.error(op, "uses an unranked memref, which is not supported"))?;
        if m.layout.is_some() {
            return Err(self.error(op, "uses a memref with a non-identity layout, which is not supported"));
        }
        let kind = self.kind_of(op, &m.element)?;
        if kind == ValueKind::MemRef {
            return Err(self.error(op, "uses a memref of memrefs, which is not supported"));
        }
        let dims = shape
            .iter()
            .map(|d| match d {
                Dim::Static(n) => usize::try_from(*n).ok(),
                Dim::Dynamic => None,
            })
            .collect();
        Ok((kind, dims))
    }

    /// The operand ranges of `op`'s `n` groups, from its `operandSegmentSizes`.
    pub fn segments(&self, op: OpId, n: usize) -> RuntimeResult<Vec<std::ops::Range<usize>>> {
        let sizes = self
            .ir
            .attr(op, "operandSegmentSizes")
            .and_then(Attribute::as_dense_array)
            .filter(|s| s.len() == n)
            .ok_or_else(|| self.error(op, format!("needs 'operandSegmentSizes' with {n} entries")))?;
        let mut start = 0;
        let mut out = vec![];
        for &s in sizes {
            let end = start + usize::try_from(s).map_err(|_| self.error(op, "has a negative operand segment"))?;
            out.push(start..end);
            start = end;
        }
        if start != self.ir.operands(op).len() {
            return Err(self.error(op, "has operand segments that do not cover its operands"));
        }
        Ok(out)
    }

    /// The affine map attribute `name` of `op`.
    pub fn map_attr(&self, op: OpId, name: &str) -> RuntimeResult<stencil_ir::affine::AffineMap> {
        self.ir
            .attr(op, name)
            .and_then(Attribute::as_affine_map)
            .cloned()
            .ok_or_else(|| self.error(op, format!("needs an affine map '{name}'")))
    }

    fn compiled_map(&mut self, op: OpId, name: &str, operands: &[ValueId]) -> RuntimeResult<CompiledMap> {
        let map = self.map_attr(op, name)?;
        if map.num_inputs() != operands.len() {
            return Err(
                self.error(op, format!("'{name}' takes {} operands, {} given", map.num_inputs(), operands.len()))
            );
        }
        let regs = operands.iter().map(|&v| self.reg(v)).collect();
        Ok(CompiledMap::new(&map, regs))
    }

    /// The step of a leaf or structured op (`None` for constants, which go to the frame).
    pub fn op(&mut self, op: OpId) -> RuntimeResult<Option<Step>> {
        let ir = self.ir;
        let name = ir.op_name(op);
        let operands = ir.operands(op).to_vec();
        let results = ir.results(op).to_vec();
        let step = match name {
            "arith.constant" => {
                let &[r] = results.as_slice() else { return Err(self.error(op, "needs one result")) };
                let bits = ir
                    .attr(op, "value")
                    .and_then(|a| constant_bits(a, ir.value_type(r)))
                    .ok_or_else(|| self.error(op, "has an unsupported value (f32, f64 or integers up to 64 bits)"))?;
                let reg = self.reg(r);
                self.constants.push((reg, bits));
                return Ok(None);
            }
            _ if is_scalar_op(name) => {
                for &v in operands.iter().chain(&results) {
                    self.reg(v);
                }
                let regs = &self.regs;
                let insn = lower_scalar_op(ir, op, &|v| regs.get(&v).copied().unwrap_or(0))?;
                Step::Scalar { insn, site: self.site(op) }
            }
            "memref.load" | "affine.load" => {
                let &[r] = results.as_slice() else { return Err(self.error(op, "needs one result")) };
                let (&mem, rest) = operands.split_first().ok_or_else(|| self.error(op, "needs a memref operand"))?;
                self.memref_element(op, ir.value_type(mem))?;
                let index = if name == "affine.load" {
                    Index::Map(self.compiled_map(op, "map", rest)?)
                } else {
                    Index::Regs(self.regs_of(rest))
                };
                Step::Load { dst: self.reg(r), mem: self.reg(mem), index, site: self.site(op) }
            }
            "memref.store" | "affine.store" => {
                let [value, mem, rest @ ..] = operands.as_slice() else {
                    return Err(self.error(op, "needs a value and a memref operand"));
                };
                self.memref_element(op, ir.value_type(*mem))?;
                let index = if name == "affine.store" {
                    Index::Map(self.compiled_map(op, "map", rest)?)
                } else {
                    Index::Regs(self.regs_of(rest))
                };
                Step::Store { value: self.reg(*value), mem: self.reg(*mem), index, site: self.site(op) }
            }
            "affine.apply" | "affine.min" | "affine.max" => {
                let &[r] = results.as_slice() else { return Err(self.error(op, "needs one result")) };
                let map = self.compiled_map(op, "map", &operands)?;
                let fold = match name {
                    "affine.min" => Some(false),
                    "affine.max" => Some(true),
                    _ if map.results.len() == 1 => None,
                    _ => return Err(self.error(op, "needs a single-result map")),
                };
                if map.results.is_empty() {
                    return Err(self.error(op, "needs a map with at least one result"));
                }
                Step::Apply { dst: self.reg(r), map, fold, site: self.site(op) }
            }
            "memref.alloc" | "memref.alloca" => {
                let &[r] = results.as_slice() else { return Err(self.error(op, "needs one result")) };
                let (kind, shape) = self.memref_element(op, ir.value_type(r))?;
                let dynamic = shape.iter().filter(|d| d.is_none()).count();
                let sizes =
                    operands.get(..dynamic).ok_or_else(|| self.error(op, "lacks sizes of dynamic dimensions"))?;
                let sizes = self.regs_of(sizes);
                Step::Alloc {
                    dst: self.reg(r),
                    kind,
                    shape: shape.into(),
                    sizes,
                    stack: name == "memref.alloca",
                    site: self.site(op),
                }
            }
            "memref.dealloc" => {
                let &[mem] = operands.as_slice() else { return Err(self.error(op, "needs one operand")) };
                Step::Dealloc { mem: self.reg(mem), site: self.site(op) }
            }
            "memref.dim" => {
                let (&[mem, dim], &[r]) = (operands.as_slice(), results.as_slice()) else {
                    return Err(self.error(op, "needs a memref and an index operand and one result"));
                };
                Step::Dim { dst: self.reg(r), mem: self.reg(mem), dim: self.reg(dim), site: self.site(op) }
            }
            "memref.copy" => {
                let &[src, dst] = operands.as_slice() else { return Err(self.error(op, "needs two operands")) };
                Step::Copy { src: self.reg(src), dst: self.reg(dst), site: self.site(op) }
            }
            "memref.cast" => {
                let (&[src], &[r]) = (operands.as_slice(), results.as_slice()) else {
                    return Err(self.error(op, "needs one operand and one result"));
                };
                let (_, shape) = self.memref_element(op, ir.value_type(r))?;
                Step::Cast { dst: self.reg(r), src: self.reg(src), shape: shape.into(), site: self.site(op) }
            }
            "memref.reinterpret_cast" => self.flat_view(op, &operands, &results)?,
            "scf.for" => {
                let [lower, upper, step, inits @ ..] = operands.as_slice() else {
                    return Err(self.error(op, "needs lower bound, upper bound and step operands"));
                };
                let width = match self.kind_of(op, ir.value_type(*lower))? {
                    ValueKind::Int(w) => w,
                    _ => return Err(self.error(op, "needs integer or index bounds")),
                };
                let lp = self.loop_parts(op, width, inits, &results)?;
                let unsigned = ir.attr(op, "unsignedCmp").is_some();
                Step::For {
                    lower: self.reg(*lower),
                    upper: self.reg(*upper),
                    step: self.reg(*step),
                    unsigned,
                    lp,
                    site: self.site(op),
                }
            }
            "affine.for" => {
                let seg = self.segments(op, 3)?;
                let lower = self.bound(op, "lowerBoundMap", &operands[seg[0].clone()], None)?;
                let upper = self.bound(op, "upperBoundMap", &operands[seg[1].clone()], None)?;
                let step = ir
                    .attr(op, "step")
                    .and_then(Attribute::as_i64)
                    .filter(|&s| s > 0)
                    .ok_or_else(|| self.error(op, "needs a positive 'step'"))?;
                let lp = self.loop_parts(op, 64, &operands[seg[2].clone()], &results)?;
                Step::AffineFor { lower, upper, step, lp, site: self.site(op) }
            }
            "scf.if" | "affine.if" => {
                let cond = if name == "scf.if" {
                    let &[c] = operands.as_slice() else { return Err(self.error(op, "needs one condition operand")) };
                    Cond::Reg(self.reg(c))
                } else {
                    let set = ir
                        .attr(op, "condition")
                        .and_then(Attribute::as_integer_set)
                        .cloned()
                        .ok_or_else(|| self.error(op, "needs an integer set 'condition'"))?;
                    if (set.num_dims + set.num_symbols) as usize != operands.len() {
                        return Err(self.error(op, "has a condition that does not match its operands"));
                    }
                    let regs = self.regs_of(&operands).into_vec();
                    Cond::Set(CompiledSet::new(&set, regs))
                };
                let (then_body, _) = self.region_body(op, 0)?;
                let (else_body, _) = self.region_body(op, 1)?;
                let results = self.regs_of(&results);
                Step::If { cond, then_body, else_body, results, site: self.site(op) }
            }
            "scf.parallel" => self.scf_parallel(op, &operands, &results)?,
            "affine.parallel" => self.affine_parallel(op, &operands, &results)?,
            "scf.while" => {
                let inits = self.regs_of(&operands);
                let (before_block, before_args) =
                    self.region(op, 0)?.ok_or_else(|| self.error(op, "needs a 'before' block"))?;
                let (after_block, after_args) =
                    self.region(op, 1)?.ok_or_else(|| self.error(op, "needs an 'after' block"))?;
                let before = self.body(before_block)?;
                let after = self.body(after_block)?;
                if before.yields.is_empty() {
                    return Err(self.error(op, "needs its 'before' region to end with scf.condition"));
                }
                let results = self.regs_of(&results);
                Step::While { inits, before_args, before, after_args, after, results }
            }
            "gpu.launch_func" => self.launch(op)?,
            "func.call" => {
                let callee = ir
                    .attr(op, "callee")
                    .and_then(Attribute::as_flat_symbol)
                    .ok_or_else(|| self.error(op, "needs a flat 'callee' symbol"))?;
                let func = *self
                    .funcs
                    .get(callee)
                    .ok_or_else(|| self.error(op, format!("calls @{callee}, which is not a function of the module")))?;
                let args = self.regs_of(&operands);
                let results = self.regs_of(&results);
                Step::Call { func, args, results, site: self.site(op) }
            }
            _ => {
                return Err(self.error(
                    op,
                    format!(
                        "is not supported by the reference interpreter (func, memref, scf and affine ops are, {})",
                        crate::scalar::SUPPORTED_OPS
                    ),
                ))
            }
        };
        Ok(Some(step))
    }

    /// `gpu.launch_func`: a synchronous launch of a kernel the GPU simulator compiled.
    fn launch(&mut self, op: OpId) -> RuntimeResult<Step> {
        let ir = self.ir;
        let launch = LaunchFuncOperands::of(ir, op).map_err(|m| self.error(op, m))?;
        if !launch.async_dependencies.is_empty() || !ir.results(op).is_empty() || launch.async_object.is_some() {
            return Err(
                self.error(op, "is asynchronous, which the GPU simulator does not support (launch synchronously)")
            );
        }
        if launch.cluster.is_some() {
            return Err(self.error(op, "uses thread block clusters, which the GPU simulator does not support"));
        }
        let name = match ir.attr(op, "kernel") {
            Some(Attribute::SymbolRef { root, nested }) if nested.len() == 1 => format!("{root}::{}", nested[0]),
            _ => return Err(self.error(op, "needs a 'kernel' symbol of the form @module::@kernel")),
        };
        let Some(kernel) = self.kernels.get(&name) else {
            let message = if self.kernels.is_empty() {
                "launches a GPU kernel: run the module with the GPU simulator (stencil_runtime::gpu_sim::run_module_sim)"
                    .to_string()
            } else {
                format!("launches @{}, which is not a kernel gpu.func of the module", name.replace("::", "::@"))
            };
            return Err(self.error(op, message));
        };
        let types: Vec<&Type> = launch.kernel_operands.iter().map(|&v| ir.value_type(v)).collect();
        if types.len() != kernel.arg_types.len() || types.iter().zip(&kernel.arg_types).any(|(a, b)| *a != b) {
            return Err(self.error(
                op,
                format!(
                    "passes ({}) to a kernel taking ({})",
                    types.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
                    kernel.arg_types.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        let index = kernel.index;
        Ok(Step::Launch {
            kernel: index,
            grid: launch.grid.map(|v| self.reg(v)),
            block: launch.block.map(|v| self.reg(v)),
            args: self.regs_of(&launch.kernel_operands),
            site: self.site(op),
        })
    }

    /// Induction variable, iter_args and body of `scf.for` / `affine.for`.
    fn loop_parts(&mut self, op: OpId, width: u8, inits: &[ValueId], results: &[ValueId]) -> RuntimeResult<Loop> {
        let (block, args) = self.region(op, 0)?.ok_or_else(|| self.error(op, "needs a body"))?;
        let (&iv, iter_args) = args.split_first().ok_or_else(|| self.error(op, "needs an induction variable"))?;
        if iter_args.len() != inits.len() || results.len() != inits.len() {
            return Err(self.error(op, "needs one iter_arg and one result per initial value"));
        }
        let iter_args: Box<[Reg]> = iter_args.into();
        let body = self.body(block)?;
        if body.yields.len() != inits.len() {
            return Err(self.error(op, "must yield one value per iter_arg"));
        }
        Ok(Loop { iv, width, iter_args, inits: self.regs_of(inits), body, results: self.regs_of(results) })
    }

    /// A bound map over `operands`, folding the results in `group` (all when `None`).
    pub fn bound(
        &mut self,
        op: OpId,
        attr: &str,
        operands: &[ValueId],
        group: Option<std::ops::Range<usize>>,
    ) -> RuntimeResult<AffineBound> {
        let map = self.compiled_map(op, attr, operands)?;
        let range = group.unwrap_or(0..map.results.len());
        if range.is_empty() || range.end > map.results.len() {
            return Err(self.error(op, format!("has an empty or malformed bound in '{attr}'")));
        }
        Ok(AffineBound { map, range })
    }

    fn scf_parallel(&mut self, op: OpId, operands: &[ValueId], results: &[ValueId]) -> RuntimeResult<Step> {
        let seg = self.segments(op, 4)?;
        let (block, ivs) = self.region(op, 0)?.ok_or_else(|| self.error(op, "needs a body"))?;
        let n = ivs.len();
        if seg[0].len() != n || seg[1].len() != n || seg[2].len() != n || seg[3].len() != results.len() {
            return Err(self.error(op, "needs one bound and step per induction variable and one result per init"));
        }
        let (steps, terminator) = self.steps(block)?;
        let mut reducers = vec![];
        if let Some(t) = terminator.filter(|&t| self.ir.op_name(t) == "scf.reduce") {
            let values = self.ir.operands(t).to_vec();
            if values.len() != results.len() || self.ir.regions(t).len() != values.len() {
                return Err(self.error(op, "needs scf.reduce with one operand and one region per result"));
            }
            for (i, &v) in values.iter().enumerate() {
                let (rblock, rargs) = self.region(t, i)?.ok_or_else(|| self.error(t, "needs a reduction block"))?;
                let &[lhs, rhs] = &*rargs else {
                    return Err(self.error(t, "needs reduction blocks with two arguments"));
                };
                let body = self.body(rblock)?;
                if body.yields.len() != 1 {
                    return Err(self.error(t, "needs reduction blocks ending with scf.reduce.return of one value"));
                }
                reducers.push(Reducer { operand: self.reg(v), lhs, rhs, body });
            }
        } else if !results.is_empty() {
            return Err(self.error(op, "has results but no scf.reduce"));
        }
        Ok(Step::Parallel {
            lowers: self.regs_of(&operands[seg[0].clone()]),
            uppers: self.regs_of(&operands[seg[1].clone()]),
            steps: self.regs_of(&operands[seg[2].clone()]),
            ivs,
            inits: self.regs_of(&operands[seg[3].clone()]),
            reducers: reducers.into(),
            body: Body { steps, yields: Box::default() },
            results: self.regs_of(results),
            site: self.site(op),
        })
    }

    fn affine_parallel(&mut self, op: OpId, operands: &[ValueId], results: &[ValueId]) -> RuntimeResult<Step> {
        let ir = self.ir;
        let lower_map = self.map_attr(op, "lowerBoundsMap")?;
        let split = lower_map.num_inputs().min(operands.len());
        let (lower_ops, upper_ops) = operands.split_at(split);
        let groups = |name: &str| -> RuntimeResult<Vec<usize>> {
            ir.attr(op, name)
                .and_then(Attribute::as_dense_int_elements)
                .and_then(|g| g.iter().map(|&x| usize::try_from(x).ok()).collect())
                .ok_or_else(|| self.error(op, format!("needs '{name}'")))
        };
        let (lower_groups, upper_groups) = (groups("lowerBoundsGroups")?, groups("upperBoundsGroups")?);
        let steps: Vec<i64> = match ir.attr(op, "steps") {
            Some(Attribute::Array(items)) => items.iter().map(Attribute::as_i64).collect::<Option<_>>(),
            _ => None,
        }
        .filter(|s: &Vec<i64>| s.iter().all(|&x| x > 0))
        .ok_or_else(|| self.error(op, "needs positive 'steps'"))?;
        let mut bounds = |attr: &str, ops: &[ValueId], sizes: &[usize]| -> RuntimeResult<Box<[AffineBound]>> {
            let mut start = 0;
            let mut out = vec![];
            for &size in sizes {
                out.push(self.bound(op, attr, ops, Some(start..start + size))?);
                start += size;
            }
            Ok(out.into())
        };
        let lowers = bounds("lowerBoundsMap", lower_ops, &lower_groups)?;
        let uppers = bounds("upperBoundsMap", upper_ops, &upper_groups)?;
        let kinds: Vec<ReductionKind> = match ir.attr(op, "reductions") {
            Some(Attribute::Array(items)) => items
                .iter()
                .map(|a| stencil_dialects::affine::reduction_kind(a).and_then(reduction_from_name))
                .collect::<Option<_>>(),
            None => Some(vec![]),
            _ => None,
        }
        .ok_or_else(|| self.error(op, "has unknown 'reductions'"))?;
        if kinds.len() != results.len() {
            return Err(self.error(op, "needs one reduction per result"));
        }
        let reductions = kinds
            .into_iter()
            .zip(results)
            .map(|(k, &r)| Ok((k, self.kind_of(op, ir.value_type(r))?)))
            .collect::<RuntimeResult<Vec<_>>>()?;
        let (body, ivs) = self.region_body(op, 0)?;
        if ivs.len() != steps.len() || lowers.len() != steps.len() || uppers.len() != steps.len() {
            return Err(self.error(op, "needs one bound group and step per induction variable"));
        }
        if body.yields.len() != results.len() {
            return Err(self.error(op, "must yield one value per reduction"));
        }
        Ok(Step::AffineParallel {
            lowers,
            uppers,
            steps: steps.into(),
            ivs,
            reductions: reductions.into(),
            body,
            results: self.regs_of(results),
            site: self.site(op),
        })
    }
}
