//! Compilation of one `stencil.apply` into an [`ApplyKernel`]: its box with parameters
//! bound, a prologue of loop-invariant instructions, and the per-point instruction list.
//!
//! Every value of the body gets a register. Values that do not change from point to point —
//! constants, scalar arguments, `stencil.iterate` induction variables, operations on those
//! only, and affine reads of other fields at invariant indices — are computed once per
//! execution of the apply, in the prologue. Per point only what depends on the point runs:
//! reads at constant offsets (a precomputed linear offset added to the point's position),
//! coordinates, general affine reads, and the arithmetic on them.

use super::bind::eval_bounds;
use crate::error::{Loc, RuntimeError, RuntimeResult};
use crate::field::ElementType;
use crate::scalar::{constant_bits, is_scalar_op, lower_scalar_op, Reg, ScalarInsn};
use crate::state::{ArgSpec, FieldSpec, ProgramInterface};
use std::collections::HashMap;
use stencil_dialects::stencil::linear::linearize;
use stencil_dialects::stencil::ApplyOrder;
use stencil_ir::ir::ValueDef;
use stencil_ir::{Attribute, Ir, Location, OpId, ValueId};

/// Where a field read goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum FieldRef {
    /// The field the apply writes.
    Written,
    /// Another `f64` field: index into the kernel's `f64` read slots.
    F64(u16),
    /// Another `f32` field: index into the kernel's `f32` read slots.
    F32(u16),
}

/// A read at an affine index `c + Σ coeff·reg` per field dimension.
#[derive(Clone, Debug)]
pub(crate) struct AtAccess {
    /// The field read.
    pub field: FieldRef,
    /// Per dimension: constant and `(register, coefficient)` terms.
    pub index: Vec<(i64, Vec<(Reg, i64)>)>,
    /// The field's shape and row-major strides.
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
    /// For error messages.
    pub field_name: String,
}

/// A kernel register: kernels have at most [`KERNEL_REGS`] registers, so a `u16` indexes
/// the fixed-size register file without a bounds check.
pub(crate) type KReg = u16;

/// Size of a kernel's register file.
pub(crate) const KERNEL_REGS: usize = 1 << 16;

/// One kernel instruction. The float operations of typical stencil bodies have their own
/// opcodes, so the per-point loop dispatches once per operation; the rest go through
/// [`ScalarInsn`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum KInsn {
    AddF64 {
        dst: KReg,
        a: KReg,
        b: KReg,
    },
    SubF64 {
        dst: KReg,
        a: KReg,
        b: KReg,
    },
    MulF64 {
        dst: KReg,
        a: KReg,
        b: KReg,
    },
    DivF64 {
        dst: KReg,
        a: KReg,
        b: KReg,
    },
    FmaF64 {
        dst: KReg,
        a: KReg,
        b: KReg,
        c: KReg,
    },
    AddF32 {
        dst: KReg,
        a: KReg,
        b: KReg,
    },
    SubF32 {
        dst: KReg,
        a: KReg,
        b: KReg,
    },
    MulF32 {
        dst: KReg,
        a: KReg,
        b: KReg,
    },
    DivF32 {
        dst: KReg,
        a: KReg,
        b: KReg,
    },
    FmaF32 {
        dst: KReg,
        a: KReg,
        b: KReg,
        c: KReg,
    },
    /// Any other scalar operation.
    Op(ScalarInsn),
    /// Read of the written field at the point's position plus `off`.
    LoadWritten {
        dst: KReg,
        off: isize,
    },
    /// Read of another `f64` field: position in stride group `group` plus `off`.
    LoadF64 {
        dst: KReg,
        slot: u16,
        group: u8,
        off: isize,
    },
    /// Read of another `f32` field.
    LoadF32 {
        dst: KReg,
        slot: u16,
        group: u8,
        off: isize,
    },
    /// General affine read (index into [`ApplyKernel::at_accesses`]).
    LoadAt {
        dst: KReg,
        access: u16,
    },
    /// The point's coordinate along `dim`.
    Index {
        dst: KReg,
        dim: u8,
    },
}

impl KInsn {
    /// The kernel form of a scalar instruction (registers already checked to fit).
    fn from_scalar(insn: ScalarInsn) -> KInsn {
        let r = |x: Reg| x as KReg;
        match insn {
            ScalarInsn::AddF64 { dst, a, b } => KInsn::AddF64 { dst: r(dst), a: r(a), b: r(b) },
            ScalarInsn::SubF64 { dst, a, b } => KInsn::SubF64 { dst: r(dst), a: r(a), b: r(b) },
            ScalarInsn::MulF64 { dst, a, b } => KInsn::MulF64 { dst: r(dst), a: r(a), b: r(b) },
            ScalarInsn::DivF64 { dst, a, b } => KInsn::DivF64 { dst: r(dst), a: r(a), b: r(b) },
            ScalarInsn::FmaF64 { dst, a, b, c } => KInsn::FmaF64 { dst: r(dst), a: r(a), b: r(b), c: r(c) },
            ScalarInsn::AddF32 { dst, a, b } => KInsn::AddF32 { dst: r(dst), a: r(a), b: r(b) },
            ScalarInsn::SubF32 { dst, a, b } => KInsn::SubF32 { dst: r(dst), a: r(a), b: r(b) },
            ScalarInsn::MulF32 { dst, a, b } => KInsn::MulF32 { dst: r(dst), a: r(a), b: r(b) },
            ScalarInsn::DivF32 { dst, a, b } => KInsn::DivF32 { dst: r(dst), a: r(a), b: r(b) },
            ScalarInsn::FmaF32 { dst, a, b, c } => KInsn::FmaF32 { dst: r(dst), a: r(a), b: r(b), c: r(c) },
            other => KInsn::Op(other),
        }
    }
}

/// How a register is initialised before the prologue runs.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Preload {
    /// A constant.
    Const { reg: Reg, bits: u64 },
    /// A scalar argument (index into the run's scalar values).
    Scalar { reg: Reg, scalar: usize },
    /// An iterate induction variable (index into the run's induction variables).
    InductionVar { reg: Reg, iv: usize },
}

/// A compiled `stencil.apply`.
#[derive(Clone, Debug)]
pub(crate) struct ApplyKernel {
    /// `@S` name, for logs.
    pub name: String,
    pub location: Location,
    /// The written field (index into the interface's fields) and its element type.
    pub written: usize,
    pub element: ElementType,
    /// The box, lower bounds inclusive, upper exclusive.
    pub lower: Vec<i64>,
    pub upper: Vec<i64>,
    pub reverse: bool,
    /// Row-major strides of each stride group; group 0 is the written field's.
    pub group_strides: Vec<Vec<usize>>,
    /// Fields read through `f64` / `f32` slots (indices into the interface's fields).
    pub f64_reads: Vec<usize>,
    pub f32_reads: Vec<usize>,
    pub at_accesses: Vec<AtAccess>,
    pub num_regs: usize,
    pub preload: Vec<Preload>,
    pub prologue: Vec<KInsn>,
    pub body: Vec<KInsn>,
    /// Location of each prologue and body instruction, for fault messages.
    pub prologue_locs: Vec<(Location, String)>,
    pub body_locs: Vec<(Location, String)>,
    /// The register holding the yielded value.
    pub result: KReg,
    /// Registers that hold the same value at every point (preloaded or computed by the
    /// prologue).
    pub invariant_regs: Vec<KReg>,
    /// Whether a row can be run in batches of points, instruction by instruction: true
    /// unless a point reads the written field where an earlier point of the same row wrote
    /// (an in-row flow dependence, as in SOR's west neighbour).
    pub batchable: bool,
}

impl ApplyKernel {
    /// Number of points in the box.
    pub fn points(&self) -> u64 {
        self.lower.iter().zip(&self.upper).map(|(l, u)| (u - l).max(0) as u64).product()
    }
}

/// Row-major strides of a shape.
pub(crate) fn strides_of(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    strides
}

/// What the compiler knows about the program around an apply.
pub(crate) struct KernelContext<'a> {
    pub ir: &'a Ir,
    pub interface: &'a ProgramInterface,
    /// Parameter values in declaration order.
    pub params: &'a [i64],
    /// Program entry block arguments, in order.
    pub program_args: &'a [ValueId],
    /// Induction variable number of each enclosing iterate's block argument.
    pub ivs: &'a HashMap<ValueId, usize>,
}

struct Builder<'a, 'c> {
    cx: &'c KernelContext<'a>,
    kernel: ApplyKernel,
    regs: HashMap<ValueId, Reg>,
    invariant: HashMap<ValueId, bool>,
}

/// Compiles apply `op`.
pub(crate) fn compile_apply(cx: &KernelContext<'_>, op: OpId) -> RuntimeResult<ApplyKernel> {
    let ir = cx.ir;
    let location = ir.location(op).clone();
    let malformed = |m: &str| RuntimeError::unsupported(&location, format!("malformed stencil.apply: {m}"));
    let written_value = *ir.operands(op).first().ok_or_else(|| malformed("it writes no field"))?;
    let written =
        field_index(cx, written_value).ok_or_else(|| malformed("it writes a value that is not a field argument"))?;
    let spec = &cx.interface.fields[written];
    let lower = eval_bounds(ir, op, "lower_bounds", cx.params, &location)?;
    let upper = eval_bounds(ir, op, "upper_bounds", cx.params, &location)?;
    if lower.len() != spec.shape.len() || upper.len() != spec.shape.len() {
        return Err(malformed("its box rank differs from the written field's rank"));
    }
    let name = ir.attr(op, "name").and_then(Attribute::as_str).unwrap_or("").to_string();
    let kernel = ApplyKernel {
        name,
        location: location.clone(),
        written,
        element: spec.element,
        lower,
        upper,
        reverse: ApplyOrder::of(ir, op) == ApplyOrder::Reverse,
        group_strides: vec![strides_of(&spec.shape)],
        f64_reads: vec![],
        f32_reads: vec![],
        at_accesses: vec![],
        num_regs: 0,
        preload: vec![],
        prologue: vec![],
        body: vec![],
        prologue_locs: vec![],
        body_locs: vec![],
        result: 0,
        invariant_regs: vec![],
        batchable: true,
    };
    let mut b = Builder { cx, kernel, regs: HashMap::new(), invariant: HashMap::new() };
    let block = ir.regions(op).first().and_then(|&r| ir.entry_block(r)).ok_or_else(|| malformed("it has no body"))?;
    let mut yielded = None;
    for inner in ir.block_op_iter(block) {
        if ir.op_name(inner) == "stencil.yield" {
            let &[v] = ir.operands(inner) else { return Err(malformed("stencil.yield must yield one value")) };
            yielded = Some(b.reg(v)?);
        } else {
            b.compile_op(inner)?;
        }
    }
    b.kernel.result = yielded.ok_or_else(|| malformed("its body does not end with stencil.yield"))? as KReg;
    b.kernel.num_regs = b.regs.len();
    if b.kernel.num_regs > KERNEL_REGS {
        return Err(malformed(&format!("its body has more than {KERNEL_REGS} values")));
    }
    Ok(b.kernel)
}

/// The interface field index of a program argument.
fn field_index(cx: &KernelContext<'_>, v: ValueId) -> Option<usize> {
    let arg = cx.program_args.iter().position(|&a| a == v)?;
    match cx.interface.args.get(arg)? {
        ArgSpec::Field(i) => Some(*i),
        ArgSpec::Scalar(_) => None,
    }
}

impl Builder<'_, '_> {
    fn new_reg(&mut self, v: ValueId, invariant: bool) -> Reg {
        let r = self.regs.len() as Reg;
        self.regs.insert(v, r);
        self.invariant.insert(v, invariant);
        if invariant {
            self.kernel.invariant_regs.push(r as KReg);
        }
        r
    }

    /// The register of `v`; values from outside the body (scalar arguments, induction
    /// variables) get a preloaded register on first use.
    fn reg(&mut self, v: ValueId) -> RuntimeResult<Reg> {
        if let Some(&r) = self.regs.get(&v) {
            return Ok(r);
        }
        let ir = self.cx.ir;
        if let Some(&iv) = self.cx.ivs.get(&v) {
            let reg = self.new_reg(v, true);
            self.kernel.preload.push(Preload::InductionVar { reg, iv });
            return Ok(reg);
        }
        if let Some(arg) = self.cx.program_args.iter().position(|&a| a == v) {
            if let Some(ArgSpec::Scalar(scalar)) = self.cx.interface.args.get(arg) {
                let scalar = *scalar;
                let reg = self.new_reg(v, true);
                self.kernel.preload.push(Preload::Scalar { reg, scalar });
                return Ok(reg);
            }
        }
        let location = match ir.value_def(v) {
            ValueDef::Result { op, .. } => ir.location(op).clone(),
            _ => self.kernel.location.clone(),
        };
        Err(RuntimeError::unsupported(
            &location,
            "a value used in a stencil.apply body must be defined in the body, or be a scalar argument or an iterate induction variable",
        ))
    }

    fn is_invariant(&self, v: ValueId) -> bool {
        self.invariant.get(&v).copied().unwrap_or(false)
    }

    fn emit(&mut self, insn: KInsn, invariant: bool, op: OpId) {
        let ir = self.cx.ir;
        let diag = (ir.location(op).clone(), ir.op_name(op).to_string());
        if invariant {
            self.kernel.prologue.push(insn);
            self.kernel.prologue_locs.push(diag);
        } else {
            self.kernel.body.push(insn);
            self.kernel.body_locs.push(diag);
        }
    }

    fn compile_op(&mut self, op: OpId) -> RuntimeResult<()> {
        let ir = self.cx.ir;
        let name = ir.op_name(op);
        let location = ir.location(op);
        match name {
            "arith.constant" => {
                let &[result] = ir.results(op) else {
                    return Err(RuntimeError::unsupported(location, "arith.constant needs one result"));
                };
                let bits =
                    ir.attr(op, "value").and_then(|a| constant_bits(a, ir.value_type(result))).ok_or_else(|| {
                        RuntimeError::unsupported(
                            location,
                            "unsupported constant (f32, f64 and integers up to 64 bits)",
                        )
                    })?;
                let reg = self.new_reg(result, true);
                self.kernel.preload.push(Preload::Const { reg, bits });
            }
            "stencil.index" => {
                let dim = ir.attr(op, "dim").and_then(Attribute::as_i64).and_then(|d| u8::try_from(d).ok());
                let dim = dim
                    .filter(|&d| usize::from(d) < self.kernel.lower.len())
                    .ok_or_else(|| RuntimeError::unsupported(location, "stencil.index dimension out of range"))?;
                let dst = self.new_reg(ir.result(op, 0), false) as KReg;
                self.emit(KInsn::Index { dst, dim }, false, op);
            }
            "stencil.access" => self.compile_access(op)?,
            _ if is_scalar_op(name) => {
                let operands = ir.operands(op).to_vec();
                for &v in &operands {
                    self.reg(v)?;
                }
                let invariant = operands.iter().all(|&v| self.is_invariant(v));
                for &r in ir.results(op) {
                    self.new_reg(r, invariant);
                }
                let regs = &self.regs;
                let insn = lower_scalar_op(ir, op, &|v| regs.get(&v).copied().unwrap_or(0))?;
                self.emit(KInsn::from_scalar(insn), invariant, op);
            }
            _ => {
                return Err(RuntimeError::unsupported(
                    location,
                    format!(
                        "'{name}' is not supported in a stencil.apply body (stencil.access/index/yield, {})",
                        crate::scalar::SUPPORTED_OPS
                    ),
                ))
            }
        }
        Ok(())
    }

    /// The read slot of a field other than the written one (added on first use) and, for a
    /// read at an offset (`grouped`), its stride group. A general read addresses its field
    /// with its own strides ([`AtAccess`]), so a field of another rank than the box (fdtd's
    /// 1-D source in a 2-D or 3-D apply) joins no group: the sweep's per-row bases are over
    /// the box's dimensions.
    fn read_slot(&mut self, field: usize, grouped: bool) -> (FieldRef, u8) {
        if field == self.kernel.written {
            return (FieldRef::Written, 0);
        }
        let spec = &self.cx.interface.fields[field];
        let strides = strides_of(&spec.shape);
        let group = match self.kernel.group_strides.iter().position(|s| *s == strides) {
            Some(g) => g,
            None if !grouped => 0,
            None => {
                self.kernel.group_strides.push(strides);
                self.kernel.group_strides.len() - 1
            }
        };
        let (list, make): (&mut Vec<usize>, fn(u16) -> FieldRef) = match spec.element {
            ElementType::F64 => (&mut self.kernel.f64_reads, FieldRef::F64),
            ElementType::F32 => (&mut self.kernel.f32_reads, FieldRef::F32),
        };
        let slot = match list.iter().position(|&f| f == field) {
            Some(s) => s,
            None => {
                list.push(field);
                list.len() - 1
            }
        };
        (make(slot as u16), group as u8)
    }

    fn compile_access(&mut self, op: OpId) -> RuntimeResult<()> {
        let ir = self.cx.ir;
        let location = ir.location(op).clone();
        let bad = |m: &str| RuntimeError::unsupported(&location, format!("malformed stencil.access: {m}"));
        let operands = ir.operands(op).to_vec();
        let field_value = *operands.first().ok_or_else(|| bad("no field operand"))?;
        let field =
            field_index(self.cx, field_value).ok_or_else(|| bad("it reads a value that is not a field argument"))?;
        let spec = self.cx.interface.fields[field].clone();
        let offsets = ir.attr(op, "offset").and_then(Attribute::as_dense_array);
        let (fref, group) = self.read_slot(field, offsets.is_some());
        let result = ir.result(op, 0);
        if let Some(offsets) = offsets {
            if offsets.len() != spec.shape.len() || spec.shape.len() != self.kernel.lower.len() {
                return Err(bad("the offsets must have the rank of the field and of the box"));
            }
            self.check_offsets_in_bounds(offsets, &spec, &location)?;
            if fref == FieldRef::Written {
                // A read of the written field in the same row, on the side already swept,
                // sees a value written by an earlier point of the row.
                let (inner, outer) = offsets.split_last().map_or((0, &[][..]), |(i, o)| (*i, o));
                let earlier = if self.kernel.reverse { inner > 0 } else { inner < 0 };
                if outer.iter().all(|&o| o == 0) && earlier {
                    self.kernel.batchable = false;
                }
            }
            let strides = &self.kernel.group_strides[usize::from(group)];
            let off = offsets.iter().zip(strides).map(|(&o, &s)| o as isize * s as isize).sum();
            let dst = self.new_reg(result, false) as KReg;
            let insn = match fref {
                FieldRef::Written => KInsn::LoadWritten { dst, off },
                FieldRef::F64(slot) => KInsn::LoadF64 { dst, slot, group, off },
                FieldRef::F32(slot) => KInsn::LoadF32 { dst, slot, group, off },
            };
            self.emit(insn, false, op);
            return Ok(());
        }
        let map = ir
            .attr(op, "map")
            .and_then(Attribute::as_affine_map)
            .ok_or_else(|| bad("it has neither 'offset' nor 'map'"))?;
        let index_operands = &operands[1..];
        if map.num_dims as usize != index_operands.len() || map.results.len() != spec.shape.len() {
            return Err(bad("the map does not match its operands or the field's rank"));
        }
        let mut regs = vec![];
        for &v in index_operands {
            regs.push(self.reg(v)?);
        }
        let mut index = vec![];
        for e in &map.results {
            let l = linearize(e, index_operands.len(), map.num_symbols as usize)
                .filter(|l| l.symbols.iter().all(|&c| c == 0))
                .ok_or_else(|| bad(&format!("index '{e}' is not affine (no floordiv, ceildiv or mod)")))?;
            let terms = regs.iter().zip(&l.dims).filter(|(_, &c)| c != 0).map(|(&r, &c)| (r, c)).collect();
            index.push((l.constant, terms));
        }
        // Reads of another field at indices that do not depend on the point are hoisted;
        // reads of the written field are not, since the apply may change the value read,
        // and they may depend on earlier points of the row.
        let invariant = fref != FieldRef::Written && index_operands.iter().all(|&v| self.is_invariant(v));
        if fref == FieldRef::Written {
            self.kernel.batchable = false;
        }
        self.kernel.at_accesses.push(AtAccess {
            field: fref,
            index,
            strides: strides_of(&spec.shape),
            shape: spec.shape.clone(),
            field_name: spec.name.clone(),
        });
        let access = (self.kernel.at_accesses.len() - 1) as u16;
        let dst = self.new_reg(result, invariant) as KReg;
        self.emit(KInsn::LoadAt { dst, access }, invariant, op);
        Ok(())
    }

    /// Checks once, for the whole box, that a constant-offset read stays inside its field:
    /// per dimension, the box's first and last coordinates plus the offset. (The verifier
    /// proves this for every admissible parameter value; checking here keeps unverified IR
    /// from reading out of bounds.)
    fn check_offsets_in_bounds(&self, offsets: &[i64], spec: &FieldSpec, location: &Location) -> RuntimeResult<()> {
        let k = &self.kernel;
        if k.points() == 0 {
            return Ok(());
        }
        for (d, &o) in offsets.iter().enumerate() {
            let (lo, hi) = (k.lower[d] + o, k.upper[d] - 1 + o);
            if lo < 0 || hi >= spec.shape[d] as i64 {
                let mut index: Vec<i64> = k.lower.iter().zip(offsets).map(|(l, o)| l + o).collect();
                index[d] = if lo < 0 { lo } else { hi };
                return Err(RuntimeError::OutOfBounds {
                    location: Loc::new(location),
                    op: "stencil.access".into(),
                    index,
                    shape: spec.shape.clone(),
                    what: format!("field '{}'", spec.name),
                });
            }
        }
        Ok(())
    }
}
