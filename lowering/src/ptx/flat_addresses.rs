//! Neighbouring global-memory accesses through one flat index, in the copy of the IR handed to
//! MLIR.
//!
//! A stencil reads `A[i][j][k-1]`, `A[i][j][k]`, `A[i][j][k+1]`, … at every point. MLIR lowers
//! each `memref.load` to `base + (i·s₀ + j·s₁ + k ± 1)` in `index` arithmetic, and with 32-bit
//! `index` that sum is an `i32` the GEP widens to 64 bits. LLVM folds `k - 1` into the sum
//! (dropping the no-wrap flags) and can then no longer move the `± 1` out of the widening, so
//! each neighbour costs an integer add, a widening multiply and a 64-bit add (two SASS
//! instructions) instead of the immediate offset of one shared address (`[%rd+8]`). 3-D SOR's
//! tiles spend about two integer instructions per neighbour on this.
//!
//! Here the accesses of a block to one kernel argument whose indices differ by constants (a
//! *group*: `A[i][j][k+c]`, `A[i+c][j][k]`, … with the same `i`, `j`, `k`) go through a flat view
//! of the argument (`memref.reinterpret_cast` to one dimension, offset 0, stride 1): the row-major
//! index of the base point, `L = Σ idx_d·stride_d`, is computed once, and every access indexes
//! `L + Δ` with `Δ = Σ c_d·stride_d`, a constant or a product of strides. `L + Δ` carries
//! `nsw`, so LLVM's separation of constant offsets from GEPs keeps a static `Δ` as the load's
//! immediate (3-D SOR's global-memory tiles: 43 → 37 SASS instructions per point outside the
//! unrolled loop, 40 → 32 registers; `bench/results/`). The rows above and below (`Δ = ±s`)
//! still take an add and a widening multiply each: their stride is a kernel parameter.
//!
//! Why the flags hold: a group is rewritten only when one of its accesses is at the base point
//! itself (all offsets 0: the stencil's centre), and every access of the group executes when
//! any does (one block). Every access the program makes is in bounds, so `L` and each `L + Δ`
//! are row-major indices of the buffer, in `[0, n)` with `n` its element count, which fits
//! `index` (MLIR's own lowering puts `nsw nuw` on the same sums). `Δ` is the difference of two
//! such indices, so its wrapping computation is exact. Nothing here relies on the program's
//! indices being in range beyond what its accesses already require; a group without its base
//! point (whose index could lie outside the buffer, and overflow `index` for the largest
//! 32-bit fields) is left alone, as are groups of accesses to one element only.
//!
//! Only kernel arguments with the identity layout in global memory are viewed (workgroup
//! buffers get short pointers with immediate offsets already). Our IR, the simulator and the
//! fingerprints keep the multi-dimensional accesses; the PTX computes the same addresses.

use std::collections::HashMap;

use stencil_dialects::arith::flags::FlagKind;
use stencil_ir::ir::{InsertPoint, OperationState, WalkOrder};
use stencil_ir::types::{Dim, MemRefType};
use stencil_ir::{Attribute, BlockId, Ir, Location, OpId, Type, ValueId};

use super::op_with_result;
use crate::gpu_map::arith::{accumulate, binary, index_constant};

/// One access of a group: the op, where its memref and first index are among its operands,
/// and the constant part of each index.
struct Access {
    op: OpId,
    memref_operand: usize,
    offsets: Vec<i64>,
}

/// The accesses of one block to one argument whose indices share their non-constant parts
/// (`bases`), in block order.
struct Group {
    memref: ValueId,
    bases: Vec<ValueId>,
    accesses: Vec<Access>,
}

/// `value` as `base + constant`: peels `arith.addi`/`arith.subi` with an `arith.constant`
/// operand (any depth), the constant summed with checked arithmetic.
fn split_constant(ir: &Ir, value: ValueId) -> (ValueId, i64) {
    let (mut base, mut constant) = (value, 0i64);
    while let Some(op) = ir.defining_op(base) {
        let name = ir.op_name(op);
        if !matches!(name, "arith.addi" | "arith.subi") || ir.operands(op).len() != 2 {
            break;
        }
        let (a, b) = (ir.operands(op)[0], ir.operands(op)[1]);
        let (rest, c) = match (integer_constant(ir, a), integer_constant(ir, b)) {
            (_, Some(c)) if name == "arith.subi" => (a, c.checked_neg()),
            (_, Some(c)) => (a, Some(c)),
            (Some(c), None) if name == "arith.addi" => (b, Some(c)),
            _ => break,
        };
        match c.and_then(|c| constant.checked_add(c)) {
            Some(sum) => (base, constant) = (rest, sum),
            None => break,
        }
    }
    (base, constant)
}

/// The value of an `index` `arith.constant`.
fn integer_constant(ir: &Ir, value: ValueId) -> Option<i64> {
    let op = ir.defining_op(value)?;
    if ir.op_name(op) != "arith.constant" {
        return None;
    }
    ir.attr(op, "value")?.as_i64()
}

/// The memref type of a kernel argument this module views flat: ranked, identity layout,
/// default (global) memory space.
fn viewable(ty: &Type) -> Option<&MemRefType> {
    ty.as_memref()
        .filter(|m| m.shape.as_ref().is_some_and(|s| !s.is_empty()))
        .filter(|m| m.layout.is_none() && m.memory_space.is_none())
}

/// The groups of `kernel` worth rewriting: two or more accesses, not all to one element, one of
/// them at the base point itself (all offsets 0), whose row-major index is then in bounds.
fn groups(ir: &Ir, kernel: OpId) -> Vec<Group> {
    let Some(entry) = ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)) else { return vec![] };
    let arguments: Vec<ValueId> =
        ir.block_args(entry).iter().copied().filter(|&a| viewable(ir.value_type(a)).is_some()).collect();
    let mut found: HashMap<(BlockId, ValueId, Vec<ValueId>), usize> = HashMap::new();
    let mut groups: Vec<Group> = vec![];
    for op in ir.collect_ops(kernel, WalkOrder::PreOrder) {
        let memref_operand = match ir.op_name(op) {
            "memref.load" => 0,
            "memref.store" => 1,
            _ => continue,
        };
        let operands = ir.operands(op);
        let Some(&memref) = operands.get(memref_operand).filter(|m| arguments.contains(m)) else { continue };
        let Some(block) = ir.parent_block(op) else { continue };
        let (bases, offsets): (Vec<ValueId>, Vec<i64>) =
            operands[memref_operand + 1..].iter().map(|&index| split_constant(ir, index)).unzip();
        let at = *found.entry((block, memref, bases.clone())).or_insert_with(|| {
            groups.push(Group { memref, bases, accesses: vec![] });
            groups.len() - 1
        });
        groups[at].accesses.push(Access { op, memref_operand, offsets });
    }
    groups.retain(|g| {
        g.accesses.iter().any(|a| a.offsets != g.accesses[0].offsets)
            && g.accesses.iter().any(|a| a.offsets.iter().all(|&c| c == 0))
    });
    groups
}

/// Whether [`flatten_neighbour_accesses`] would change anything under `gpu_module`.
pub(super) fn has_neighbour_accesses(ir: &Ir, gpu_module: OpId) -> bool {
    super::gpu_funcs(ir, gpu_module).into_iter().any(|kernel| !groups(ir, kernel).is_empty())
}

/// The flat view of one argument and its row-major strides, built at the kernel's start.
struct FlatView {
    view: ValueId,
    strides: Vec<Stride>,
}

/// A stride of a viewed argument: known when compiling, or computed from `memref.dim`s.
#[derive(Copy, Clone)]
enum Stride {
    Static(i64),
    Dynamic(ValueId),
}

/// Rewrites the groups of every kernel under `gpu_module` (module documentation); returns
/// how many accesses now index a flat view.
pub(super) fn flatten_neighbour_accesses(ir: &mut Ir, gpu_module: OpId) -> usize {
    let mut rewritten = 0;
    for kernel in super::gpu_funcs(ir, gpu_module) {
        let groups = groups(ir, kernel);
        let mut views: HashMap<ValueId, Option<FlatView>> = HashMap::new();
        for group in groups {
            let view = views.entry(group.memref).or_insert_with(|| flat_view(ir, kernel, group.memref));
            if let Some(view) = view {
                rewritten += rewrite_group(ir, view, &group);
            }
        }
    }
    rewritten
}

/// `memref.reinterpret_cast` of `memref` to its element count, with the strides, at the start
/// of `kernel` (a one-dimensional `memref` is used as it is); `None` when the element count
/// does not fit `i64` (a static shape that large cannot be a kernel argument anyway).
fn flat_view(ir: &mut Ir, kernel: OpId, memref: ValueId) -> Option<FlatView> {
    let ty = viewable(ir.value_type(memref))?.clone();
    let shape = ty.shape.clone()?;
    // Every product below is of static sizes or has a dynamic factor: checked here, before
    // anything is built, so that a refusal leaves no dead ops.
    shape.iter().try_fold(1i64, |n, d| match d {
        Dim::Static(s) => n.checked_mul(*s),
        Dim::Dynamic => Some(n),
    })?;
    // A one-dimensional argument is its own flat view.
    if shape.len() == 1 {
        return Some(FlatView { view: memref, strides: vec![Stride::Static(1)] });
    }
    let entry = ir.regions(kernel).first().and_then(|&r| ir.entry_block(r))?;
    let location = ir.location(kernel).clone();
    let at = match ir.first_op(entry) {
        Some(first) => InsertPoint::Before(first),
        None => InsertPoint::End(entry),
    };
    let sizes: Vec<Stride> = shape
        .iter()
        .enumerate()
        .map(|(d, dim)| match dim {
            Dim::Static(n) => Stride::Static(*n),
            Dim::Dynamic => {
                let index = index_constant(ir, at, d as i64, &location);
                let dim = op_with_result(ir, at, "memref.dim", &[memref, index], &Type::Index, &location);
                Stride::Dynamic(ir.result(dim, 0))
            }
        })
        .collect();
    // Row-major: stride[r-1] = 1, stride[d] = stride[d+1] · size[d+1]; the element count is
    // stride[0] · size[0]. Products of sizes of a buffer that exists: no flags needed, and
    // none claimed.
    let mut strides = vec![Stride::Static(1); shape.len()];
    for d in (0..shape.len() - 1).rev() {
        strides[d] = multiply(ir, at, strides[d + 1], sizes[d + 1], &location)?;
    }
    let count = multiply(ir, at, strides[0], sizes[0], &location)?;
    let mut state = OperationState::new("memref.reinterpret_cast", location);
    let (static_size, result_dim) = match count {
        Stride::Static(n) => (n, Dim::Static(n)),
        Stride::Dynamic(v) => {
            state.operands = vec![memref, v];
            (stencil_dialects::memref::DYNAMIC, Dim::Dynamic)
        }
    };
    if state.operands.is_empty() {
        state.operands = vec![memref];
    }
    let dynamic_sizes = state.operands.len() as i64 - 1;
    state.add_property("operandSegmentSizes", Attribute::dense_i32(&[1, 0, dynamic_sizes, 0]));
    state.add_property("static_offsets", Attribute::DenseArray { element: Type::I64, values: vec![0] });
    state.add_property("static_sizes", Attribute::DenseArray { element: Type::I64, values: vec![static_size] });
    state.add_property("static_strides", Attribute::DenseArray { element: Type::I64, values: vec![1] });
    state.result_types = vec![Type::MemRef(Box::new(MemRefType::new(vec![result_dim], ty.element.clone())))];
    let view = ir.build(at, state);
    Some(FlatView { view: ir.result(view, 0), strides })
}

/// `a · b` as a constant when both are, else an `arith.muli` at `at`; `None` on overflow.
fn multiply(ir: &mut Ir, at: InsertPoint, a: Stride, b: Stride, location: &Location) -> Option<Stride> {
    Some(match (a, b) {
        (Stride::Static(x), Stride::Static(y)) => Stride::Static(x.checked_mul(y)?),
        (Stride::Static(1), other) | (other, Stride::Static(1)) => other,
        (x, y) => {
            let (x, y) = (materialize(ir, at, x, location), materialize(ir, at, y, location));
            Stride::Dynamic(arith(ir, at, "arith.muli", x, y, "", location))
        }
    })
}

/// The stride as a value (an `arith.constant` at `at` when static).
fn materialize(ir: &mut Ir, at: InsertPoint, stride: Stride, location: &Location) -> ValueId {
    match stride {
        Stride::Static(n) => index_constant(ir, at, n, location),
        Stride::Dynamic(v) => v,
    }
}

/// An `index` `arith` binary op of `a` and `b` at `at` with the overflow flags `flags` (`""`
/// for none).
fn arith(
    ir: &mut Ir,
    at: InsertPoint,
    name: &str,
    a: ValueId,
    b: ValueId,
    flags: &str,
    location: &Location,
) -> ValueId {
    let value = binary(ir, at, name, a, b, Type::Index, location);
    if !flags.is_empty() {
        if let Some(op) = ir.defining_op(value) {
            let bits = FlagKind::Overflow.parse_body(flags).unwrap_or(0);
            ir.set_property(op, FlagKind::Overflow.property(), FlagKind::Overflow.attr(bits));
        }
    }
    value
}

/// Points every access of `group` at the flat view: the row-major index `L` of the group's base
/// point (the access whose offsets are all 0: [`groups`] keeps only groups that have one)
/// before the group's first access, then `L + Δ` for each access, `Δ` the difference of their
/// row-major indices. Returns how many accesses changed (none when a static `Δ` overflows
/// `i64`, which no buffer allows).
///
/// `L` is computed from the base values themselves, not from an index with a constant part:
/// LLVM would fold `(x + (j - 1)) + 2` into `(x + j) + 1`, dropping the no-wrap flags, and each
/// access would widen its own sum again.
fn rewrite_group(ir: &mut Ir, view: &FlatView, group: &Group) -> usize {
    let first = group.accesses[0].op;
    let location = ir.location(first).clone();
    let at = InsertPoint::Before(first);
    let Some(deltas) = group
        .accesses
        .iter()
        .map(|a| a.offsets.iter().zip(&view.strides).try_fold(Delta::default(), |delta, (&c, &s)| delta.plus(c, s)))
        .collect::<Option<Vec<Delta>>>()
    else {
        return 0;
    };
    // L = Σ base_d · stride_d, the index of an access in bounds: `nsw nuw` as MLIR's own
    // linearization has them.
    let mut linear: Option<ValueId> = None;
    for (&index, &stride) in group.bases.iter().zip(&view.strides) {
        let term = match stride {
            Stride::Static(1) => index,
            stride => {
                let stride = materialize(ir, at, stride, &location);
                arith(ir, at, "arith.muli", index, stride, "nsw, nuw", &location)
            }
        };
        linear = Some(match linear {
            None => term,
            Some(sum) => arith(ir, at, "arith.addi", sum, term, "nsw, nuw", &location),
        });
    }
    let Some(linear) = linear else { return 0 };
    for (access, delta) in group.accesses.iter().zip(deltas) {
        let index = match delta.as_minus_stride() {
            // `L - s` rather than `L + (s · -1)`.
            Some(stride) => arith(ir, at, "arith.subi", linear, stride, "nsw", &location),
            None => match delta.value(ir, at, &location) {
                None => linear,
                Some(delta) => arith(ir, at, "arith.addi", linear, delta, "nsw", &location),
            },
        };
        let mut operands = ir.operands(access.op)[..access.memref_operand].to_vec();
        operands.extend([view.view, index]);
        ir.set_operands(access.op, &operands);
    }
    group.accesses.len()
}

/// `Δ = constant + Σ factor·stride` over the dynamic strides.
#[derive(Default)]
struct Delta {
    constant: i64,
    dynamic: Vec<(i64, ValueId)>,
}

impl Delta {
    /// `self + factor · stride`; `None` when a static part overflows.
    fn plus(mut self, factor: i64, stride: Stride) -> Option<Delta> {
        if factor != 0 {
            match stride {
                Stride::Static(s) => self.constant = self.constant.checked_add(factor.checked_mul(s)?)?,
                Stride::Dynamic(v) => self.dynamic.push((factor, v)),
            }
        }
        Some(self)
    }

    /// The stride `s` when `Δ = −s`.
    fn as_minus_stride(&self) -> Option<ValueId> {
        match (self.constant, self.dynamic.as_slice()) {
            (0, &[(-1, stride)]) => Some(stride),
            _ => None,
        }
    }

    /// The value of `Δ` built at `at` (wrapping arithmetic, exact: see the module docs), or
    /// `None` for zero.
    fn value(&self, ir: &mut Ir, at: InsertPoint, location: &Location) -> Option<ValueId> {
        let mut sum = (self.constant != 0).then(|| index_constant(ir, at, self.constant, location));
        for &(factor, stride) in &self.dynamic {
            let term = match factor {
                1 => stride,
                f => {
                    let f = index_constant(ir, at, f, location);
                    arith(ir, at, "arith.muli", stride, f, "", location)
                }
            };
            accumulate(ir, at, &mut sum, "arith.addi", term, location);
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::flatten_neighbour_accesses;
    use stencil_ir::ir::WalkOrder;
    use stencil_ir::parser::{parse_source, ParserConfig};
    use stencil_ir::pass::{PassManager, PassManagerOptions, PassRegistry};
    use stencil_ir::printer::{print_op, PrintOptions};
    use stencil_ir::{Module, SourceFile};
    use stencil_runtime::gpu_sim::{run_module_sim, SimOptions};
    use stencil_runtime::{compare_fields, module_interface, FieldData, ProgramState};

    /// `examples/NAME.mlir` mapped by `pipeline`.
    fn mapped(name: &str, pipeline: &str) -> Module {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../examples/{name}.mlir"));
        mapped_text(name, &std::fs::read_to_string(&path).expect("example"), pipeline)
    }

    /// `text` mapped by `pipeline`.
    fn mapped_text(name: &str, text: &str, pipeline: &str) -> Module {
        let dialects = stencil_dialects::registry();
        let source = SourceFile::new(name, text);
        let mut module = parse_source(&source, ParserConfig { registry: &dialects, allow_unregistered: false })
            .unwrap_or_else(|d| panic!("{}", d.render()));
        let mut passes = PassRegistry::with_generic_passes();
        stencil_passes::register_passes(&mut passes);
        crate::register_passes(&mut passes);
        let mut pm = PassManager::parse(pipeline, &passes, PassManagerOptions::default()).expect("pipeline");
        pm.run(&mut module.ir, module.top, &dialects).unwrap_or_else(|d| panic!("{name}: {}", d.render()));
        module
    }

    /// The module with [`flatten_neighbour_accesses`] applied to each `gpu.module`, verified,
    /// and how many accesses changed.
    fn flattened(module: &Module) -> (Module, usize) {
        let mut copy = module.clone();
        let gpu_modules: Vec<_> = copy
            .ir
            .collect_ops(copy.top, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&op| copy.ir.op_name(op) == "gpu.module")
            .collect();
        let changed = gpu_modules.into_iter().map(|gm| flatten_neighbour_accesses(&mut copy.ir, gm)).sum();
        let dialects = stencil_dialects::registry();
        stencil_ir::verifier::verify(&copy.ir, &dialects, copy.top, true).unwrap_or_else(|d| {
            panic!("{}\n{}", d.render(), print_op(&copy.ir, &dialects, copy.top, PrintOptions::default()))
        });
        (copy, changed)
    }

    /// The fields after running `module` on the GPU simulator with `params` and pseudo-random
    /// fields (the same for every module of the program).
    fn run(module: &Module, params: &[(&str, i64)]) -> ProgramState {
        let mut state = ProgramState::new();
        for &(n, v) in params {
            state = state.with_param(n, v);
        }
        let interface = module_interface(module, None, &state).expect("interface");
        for (seed, f) in interface.fields.iter().enumerate() {
            let data = FieldData::pseudo_random(f.shape.clone(), f.element, 7 + seed as u64).expect("field");
            state.fields.insert(f.name.clone(), data);
        }
        run_module_sim(module, None, &mut state, &SimOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        state
    }

    /// Kernels over global memory — naive, wavefront tiles without staging, 3-D SOR's default —
    /// compute the same fields with their neighbouring accesses flattened, bit for bit, on the
    /// GPU simulator (which runs the flat views); sizes that tiles do not divide.
    #[test]
    fn flattened_kernels_compute_the_same_fields() {
        let naive = "builtin.module(gpu-map{naive})";
        let global = "builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=4,2 staging=false})";
        type Case<'a> = (&'a str, &'a str, &'a [(&'a str, i64)]);
        let cases: &[Case] = &[
            ("jacobi-1d-3pt", naive, &[("T", 3), ("N", 37)]),
            ("jacobi-2d-5pt", naive, &[("T", 3), ("N", 11), ("M", 13)]),
            ("jacobi-3d-27pt", naive, &[("T", 2), ("N", 7), ("M", 6), ("L", 9)]),
            ("fdtd-2d", naive, &[("T", 3), ("NX", 9), ("NY", 10)]),
            ("sor-2d-5pt", global, &[("T", 3), ("N", 11), ("M", 10)]),
            ("sor-3d-7pt", global, &[("T", 2), ("N", 7), ("M", 6), ("L", 9)]),
            (
                "sor-3d-7pt",
                "builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{block=auto})",
                &[("T", 2), ("N", 9), ("M", 7), ("L", 10)],
            ),
        ];
        for &(name, pipeline, params) in cases {
            let module = mapped(name, pipeline);
            let (flat, changed) = flattened(&module);
            assert!(changed > 0, "{name} ({pipeline}): no access flattened");
            let (expected, actual) = (run(&module, params), run(&flat, params));
            for (field, want) in &expected.fields {
                let got = &actual.fields[field];
                assert!(compare_fields(want, got).bit_exact(), "{name} ({pipeline}): field {field} differs");
            }
        }
    }

    /// What the rewrite emits for Jacobi-2D's naive kernel: one flat view of the input at the
    /// kernel's start, the anchor's row-major index with `nsw nuw`, each neighbour `L + Δ` with
    /// `nsw` (`Δ = ±1` a constant, `±M` a stride), the output's lone store left alone.
    #[test]
    fn neighbours_index_the_view_from_one_row_major_index() {
        let module = mapped("jacobi-2d-5pt", "builtin.module(gpu-map{naive})");
        let (flat, changed) = flattened(&module);
        let text = print_op(&flat.ir, &stencil_dialects::registry(), flat.top, PrintOptions::default());
        assert_eq!(changed, 5, "{text}");
        assert_eq!(text.matches("memref.reinterpret_cast").count(), 1, "{text}");
        assert!(text.contains("to offset: [0], sizes: [%"), "{text}");
        assert!(text.contains("overflow<nsw, nuw> : index"), "{text}");
        assert_eq!(text.matches("overflow<nsw> : index").count(), 4, "{text}");
        assert_eq!(text.matches("arith.subi").count(), 1, "the row above: L - M\n{text}");
        assert_eq!(text.matches("] : memref<?xf64>").count(), 5, "{text}");
    }

    /// Reads around a point that is itself not accessed (`A[i][j±1]` only): the base point's
    /// index could lie outside the buffer, so the group is left alone.
    #[test]
    fn groups_without_their_base_point_are_left_alone() {
        let text = r#"
stencil.program @p(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 2, N = 8, M = 8] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %B over [1, 1] to [N - 1, M - 1] {
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %v = arith.addf %w, %e : f64
      stencil.yield %v : f64
    }
  }
}
"#;
        let module = mapped_text("p", text, "builtin.module(gpu-map{naive})");
        assert_eq!(flattened(&module).1, 0);
        let centred = text.replace(
            "%v = arith.addf %w, %e",
            "%c = stencil.access %A[0, 0] : f64\n      %v0 = arith.addf %w, %e : f64\n      %v = arith.addf %v0, %c",
        );
        assert_eq!(flattened(&mapped_text("p", &centred, "builtin.module(gpu-map{naive})")).1, 3);
    }
}
