//! PTX for the `gpu.module`s of a module, compiled by real MLIR 22 (DESIGN §7; docs/gpu.md,
//! "PTX").
//!
//! Our IR is not MLIR's, but it prints MLIR 22 text. So each `gpu.module` is printed (with its
//! locations), wrapped in a `builtin.module attributes {gpu.container_module}`, parsed by MLIR
//! through melior, and lowered by MLIR's own GPU pipeline:
//!
//! ```text
//! builtin.module(gpu.module(lower-affine, convert-scf-to-cf, convert-gpu-to-nvvm{index-bitwidth=64},
//!                           convert-math-to-llvm, reconcile-unrealized-casts),
//!                nvvm-attach-target{chip=sm_90 O=3 l=libdevice.10.bc},
//!                gpu-module-to-binary{format=isa})
//! ```
//!
//! The PTX text is read from the `#gpu.object` of the resulting `gpu.binary`. MLIR's
//! diagnostics are captured (never printed) and carry the locations of our input file, because
//! the text handed to MLIR holds our ops' `loc(...)`s.
//!
//! Each kernel comes back with its parameter ABI ([`KernelArgument`]): how MLIR's default
//! memref calling convention expands every argument into PTX parameters, derived from the
//! argument types and checked against the `.entry` of the PTX. The CUDA executor fills its
//! launch parameters from it.

mod abi;
mod constant_division;
mod dynamic_shared;
mod flat_addresses;
mod ieee_math;
pub mod llvm_options;
#[cfg(feature = "mlir")]
mod mlir;
pub mod precompiled;
mod shared_alignment;
pub mod toolkit;
#[cfg(not(feature = "mlir"))]
mod without_mlir;

pub use abi::{KernelArgument, ParamRole, PtxParam};
#[cfg(feature = "mlir")]
use mlir::Session;
pub use precompiled::{attach_precompiled, fingerprint, render_ptx_file, PrecompiledPtx};
#[cfg(not(feature = "mlir"))]
use without_mlir::Session;

/// Whether this build can compile PTX (the `mlir` cargo feature, on by default). Without it,
/// [`compile_gpu_modules`] fails with [`PtxError::MlirUnavailable`] and PTX must come from a
/// file written by a build that has it ([`precompiled`]).
pub const MLIR_AVAILABLE: bool = cfg!(feature = "mlir");

use std::fmt;
use std::path::PathBuf;
use stencil_dialects::gpu::is_kernel;
use stencil_ir::ir::WalkOrder;
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::{Attribute, Diagnostic, DialectRegistry, Ir, Location, OpId, Type};

/// How [`compile_gpu_modules`] compiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxOptions {
    /// The GPU to compile for, as NVIDIA names it (`sm_90`, `sm_80`, `sm_90a`). It also picks
    /// the PTX ISA version: LLVM emits the lowest one that supports the chip (7.8 for `sm_90`,
    /// which every driver since CUDA 11.8 loads); we never ask for a newer one, so the PTX loads
    /// on as many drivers as possible.
    pub chip: String,
    /// Optimisation level of the NVPTX back end, 0 to 3.
    pub opt_level: u8,
    /// Width of `index` in kernels, 64 (MLIR's default) or 32. With 32, index arithmetic — the
    /// loop bounds `gpu-map` computes at every level — takes half the registers (jacobi-3d-7pt
    /// tiled 16: 255 registers with spills → 166 without), and `index` arguments and memref
    /// offsets, sizes and strides become 32-bit parameters (their `ptx_type` says so). Only
    /// for fields of fewer than 2³¹ elements.
    pub index_bitwidth: u32,
    /// `libdevice.10.bc`, NVIDIA's math library as LLVM bitcode. MLIR lowers `math` ops such as
    /// `math.exp` or `math.sqrt` to calls of its `__nv_*` functions, so kernels that use them
    /// need it linked in ([`toolkit::find_libdevice`] finds the copy tools/bootstrap installs).
    /// Without it such kernels are rejected with [`PtxError::MissingLibdevice`].
    pub libdevice: Option<PathBuf>,
}

impl Default for PtxOptions {
    fn default() -> Self {
        PtxOptions { chip: DEFAULT_CHIP.to_string(), opt_level: 3, index_bitwidth: 64, libdevice: None }
    }
}

/// The chip [`PtxOptions::default`] compiles for: the H100 of DESIGN §7.
pub const DEFAULT_CHIP: &str = "sm_90";

impl PtxOptions {
    /// Default options that link the libdevice found by [`toolkit::find_libdevice`], if any.
    pub fn with_found_libdevice() -> Self {
        PtxOptions { libdevice: toolkit::find_libdevice(), ..PtxOptions::default() }
    }

    /// Checks the options (they are spliced into an MLIR pass pipeline string); a driver can
    /// call it to reject bad flags before doing any work.
    pub fn validate(&self) -> Result<(), PtxError> {
        if !is_chip_name(&self.chip) {
            return Err(PtxError::InvalidOption(format!(
                "GPU chip '{}' is not of the form sm_<number>[letter], e.g. sm_90 or sm_90a",
                self.chip
            )));
        }
        if !KNOWN_CHIPS.contains(&self.chip.as_str()) {
            return Err(PtxError::InvalidOption(format!(
                "GPU chip '{}' is not one LLVM 22's NVPTX back end knows; known chips: {}",
                self.chip,
                KNOWN_CHIPS.join(", ")
            )));
        }
        if self.opt_level > 3 {
            return Err(PtxError::InvalidOption(format!(
                "optimisation level {} is out of range (0 to 3)",
                self.opt_level
            )));
        }
        if self.index_bitwidth != 32 && self.index_bitwidth != 64 {
            return Err(PtxError::InvalidOption(format!(
                "index bit width {} is not supported (32 or 64)",
                self.index_bitwidth
            )));
        }
        if let Some(path) = &self.libdevice {
            // MLIR's pass-option syntax has no escaping we can rely on for these characters.
            let text = path.to_string_lossy();
            if text.is_empty() || text.chars().any(|c| c.is_whitespace() || "{},\"'=".contains(c)) {
                return Err(PtxError::InvalidOption(format!(
                    "libdevice path '{text}' is empty or contains whitespace or one of {{}},\"'= \
                     which MLIR pass options cannot carry; move or link it to a plain path"
                )));
            }
        }
        Ok(())
    }

    /// The MLIR pass pipeline that turns a `gpu.module` into a `gpu.binary` holding PTX.
    ///
    /// `lower-affine` first because kernels may hold `affine.for`/`affine.load`;
    /// `convert-gpu-to-nvvm` maps `math` ops with a libdevice function to `__nv_*` calls and
    /// `convert-math-to-llvm` takes the rest (`math.trunc`, `math.ctpop`, …) to LLVM intrinsics.
    /// The order matters: LLVM intrinsics like `llvm.exp.f64` have no NVPTX instruction.
    pub fn pipeline(&self) -> String {
        let link = match &self.libdevice {
            Some(path) => format!(" l={}", path.display()),
            None => String::new(),
        };
        format!(
            "builtin.module(gpu.module(lower-affine,convert-scf-to-cf,convert-gpu-to-nvvm{{index-bitwidth={}}},\
             convert-math-to-llvm,reconcile-unrealized-casts),\
             nvvm-attach-target{{chip={} O={}{link}}},gpu-module-to-binary{{format=isa}})",
            self.index_bitwidth, self.chip, self.opt_level
        )
    }
}

/// The chips LLVM 22's NVPTX back end compiles for (`llc -march=nvptx64 -mcpu=help`). MLIR
/// passes any other name on, and LLVM only warns ("not a recognized processor") and compiles for
/// a default, so `sm_99999` would silently give PTX for another chip: [`PtxOptions::validate`]
/// refuses names outside this list.
pub const KNOWN_CHIPS: &[&str] = &[
    "sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62",
    "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
    "sm_100f", "sm_101", "sm_101a", "sm_101f", "sm_103", "sm_103a", "sm_103f", "sm_110", "sm_110a", "sm_110f",
    "sm_120", "sm_120a", "sm_120f", "sm_121", "sm_121a", "sm_121f",
];

/// `sm_` followed by digits and at most one lowercase letter (`sm_90a`, `sm_100f`): the form of
/// a chip name, also of chips newer than [`KNOWN_CHIPS`] (a newer ptxas may know them).
pub(crate) fn is_chip_name(chip: &str) -> bool {
    let Some(rest) = chip.strip_prefix("sm_") else { return false };
    let digits = rest.trim_end_matches(|c: char| c.is_ascii_lowercase());
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) && rest.len() - digits.len() <= 1
}

/// The PTX of one `gpu.module`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxModule {
    /// The `gpu.module`'s symbol name (without `@`).
    pub name: String,
    /// The chip the PTX targets (`sm_90`).
    pub chip: String,
    /// The width of `index` the kernels were compiled with (32 or 64).
    pub index_bitwidth: u32,
    /// [`fingerprint`] of the `gpu.module` the PTX was compiled from: what ties a PTX file to
    /// exactly the kernels a runner is about to launch.
    pub fingerprint: String,
    /// The PTX text, ready for `cuModuleLoadData` or ptxas.
    pub ptx: String,
    /// The kernels (`gpu.func … kernel`) of the module, in order, with their parameter ABI.
    pub kernels: Vec<PtxKernel>,
}

/// One kernel of a [`PtxModule`]: its `.entry` name and how its arguments become PTX
/// parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxKernel {
    /// The kernel's name, which is also the name of its PTX `.entry`.
    pub name: String,
    /// One entry per argument of the `gpu.func`, in order.
    pub arguments: Vec<KernelArgument>,
}

impl PtxKernel {
    /// All PTX parameters of the `.entry`, in order: what a launch passes.
    pub fn params(&self) -> impl Iterator<Item = &PtxParam> {
        self.arguments.iter().flat_map(|a| a.params.iter())
    }
}

/// Which MLIR step failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MlirStage {
    /// Parsing the printed `gpu.module` (our printer produced something MLIR 22 rejects).
    Parse,
    /// The lowering pipeline (an op MLIR cannot lower for the GPU, or an LLVM error).
    Lower,
}

impl fmt::Display for MlirStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MlirStage::Parse => "parse",
            MlirStage::Lower => "lower to PTX",
        })
    }
}

/// Why [`compile_gpu_modules`] failed.
#[derive(Debug, thiserror::Error)]
pub enum PtxError {
    /// A [`PtxOptions`] field is unusable.
    #[error("{0}")]
    InvalidOption(String),
    /// This build has no MLIR (the `mlir` cargo feature is off), so it cannot compile PTX.
    #[error(
        "gpu.module @{module} cannot be compiled to PTX: this build of stencil-opt has no MLIR \
         (built without the `mlir` cargo feature); compile the PTX with a build that has it \
         (`stencil-opt INPUT --pass-pipeline=... --emit=ptx -o FILE.ptx`) and pass it with --ptx FILE.ptx"
    )]
    MlirUnavailable {
        /// The first `gpu.module` that needed compiling.
        module: String,
        /// Its location.
        location: Location,
    },
    /// A precompiled PTX file (see [`precompiled`]) is malformed or does not belong to the
    /// module it is attached to.
    #[error("{0}")]
    Precompiled(#[from] precompiled::PrecompiledError),
    /// MLIR reported errors; `diagnostics` holds them as MLIR worded them, located in our input
    /// where MLIR knew the op's location.
    #[error("MLIR could not {stage} gpu.module @{module}:\n{}", render(diagnostics))]
    Mlir {
        /// The `gpu.module`.
        module: String,
        /// What failed.
        stage: MlirStage,
        /// MLIR's messages (errors with their notes).
        diagnostics: Vec<Diagnostic>,
    },
    /// The pipeline succeeded but left no PTX where MLIR puts it.
    #[error("MLIR produced no PTX for gpu.module @{module}: {reason}")]
    NoPtx {
        /// The `gpu.module`.
        module: String,
        /// What was missing.
        reason: String,
        /// The `gpu.module`'s location.
        location: Location,
    },
    /// Kernels call libdevice functions and [`PtxOptions::libdevice`] is `None`.
    #[error(
        "gpu.module @{module} uses math functions from NVIDIA's libdevice ({}) but no \
         libdevice.10.bc was found to link: run tools/bootstrap (it installs the \
         nvidia-cuda-nvcc-cu12 wheel that ships it)",
        functions.join(", ")
    )]
    MissingLibdevice {
        /// The `gpu.module`.
        module: String,
        /// The `__nv_*` functions the PTX declares as external.
        functions: Vec<String>,
        /// The `gpu.module`'s location.
        location: Location,
    },
    /// A kernel argument type has no PTX parameter ABI we support.
    #[error("kernel @{kernel}: argument #{index} of type {ty} cannot be passed to a PTX kernel: {reason}")]
    UnsupportedArgument {
        /// The kernel.
        kernel: String,
        /// 0-based argument position.
        index: usize,
        /// The argument type as printed.
        ty: String,
        /// Why.
        reason: String,
        /// The kernel's location.
        location: Location,
    },
    /// The PTX `.entry` does not have the parameters the argument types predict: MLIR's calling
    /// convention changed, or a bug here. Reported rather than returning a wrong ABI.
    #[error("kernel @{kernel}: the PTX .entry does not match the expected parameter ABI: {detail}")]
    AbiMismatch {
        /// The kernel.
        kernel: String,
        /// What differs.
        detail: String,
        /// The kernel's location.
        location: Location,
    },
}

fn render(diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(Diagnostic::render).collect::<Vec<_>>().join("\n")
}

impl PtxError {
    /// The error as located diagnostics, for a driver to print with source excerpts: MLIR's own
    /// diagnostics for [`PtxError::Mlir`], otherwise one error at the op it concerns.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        match self {
            PtxError::Mlir { diagnostics, .. } => diagnostics.clone(),
            PtxError::InvalidOption(_) | PtxError::Precompiled(_) => {
                vec![Diagnostic::error(Location::Unknown, self.to_string())]
            }
            PtxError::MlirUnavailable { location, .. } => vec![Diagnostic::error(location.clone(), self.to_string())],
            PtxError::NoPtx { location, .. }
            | PtxError::MissingLibdevice { location, .. }
            | PtxError::UnsupportedArgument { location, .. }
            | PtxError::AbiMismatch { location, .. } => vec![Diagnostic::error(location.clone(), self.to_string())],
        }
    }
}

/// Compiles every `gpu.module` under `module` to PTX, in order. A module without
/// `gpu.module`s gives an empty list.
///
/// Targets the `gpu.module`s already carry (`[#nvvm.target<…>]`) are replaced by the one
/// `options` describes, so the chip is always the caller's. One MLIR context is created per
/// call, on the calling thread (MLIR contexts are `!Send`).
pub fn compile_gpu_modules(
    ir: &Ir,
    registry: &DialectRegistry,
    module: OpId,
    options: &PtxOptions,
) -> Result<Vec<PtxModule>, PtxError> {
    options.validate()?;
    let gpu_modules: Vec<OpId> =
        ir.collect_ops(module, WalkOrder::PreOrder).into_iter().filter(|&op| ir.op_name(op) == "gpu.module").collect();
    if gpu_modules.is_empty() {
        return Ok(vec![]);
    }
    // What MLIR gets differs from the caller's IR in six ways, made on a copy: the old targets
    // are dropped (the chip is the caller's), kernels with more than 48 KiB of workgroup
    // buffers take them from dynamic shared memory (`dynamic_shared`), the other workgroup
    // buffers get an explicit alignment (`shared_alignment`), square roots are built so that
    // they round correctly (`ieee_math`), divisions by constants multiply by the rounded
    // reciprocal with one correction (`constant_division`, the same quotients), and
    // neighbouring accesses to an argument share one flat index (`flat_addresses`, the same
    // addresses). Fingerprints are of the caller's IR, which is what a runner maps.
    let original = ir;
    let has_workgroup_buffers = gpu_modules
        .iter()
        .any(|&gm| gpu_funcs(ir, gm).into_iter().any(|f| stencil_dialects::gpu::num_workgroup_attributions(ir, f) > 0));
    let has_square_roots = gpu_modules.iter().any(|&gm| {
        ir.collect_ops(gm, WalkOrder::PreOrder)
            .into_iter()
            .any(|op| matches!(ir.op_name(op), "math.sqrt" | "math.rsqrt"))
    });
    let flags = llvm_options::current();
    let reciprocal_division = flags.reciprocal_division;
    let has_constant_divisions =
        reciprocal_division && gpu_modules.iter().any(|&gm| constant_division::has_divisions_by_constants(ir, gm));
    let has_neighbour_accesses =
        flags.flat_addresses && gpu_modules.iter().any(|&gm| flat_addresses::has_neighbour_accesses(ir, gm));
    let rewritten;
    let ir = if has_workgroup_buffers
        || has_square_roots
        || has_constant_divisions
        || has_neighbour_accesses
        || gpu_modules.iter().any(|&gm| ir.attr(gm, "targets").is_some())
    {
        let mut copy = ir.clone();
        for &gm in &gpu_modules {
            if copy.remove_attr(gm, "targets").is_some() {
                tracing::debug!(module = symbol_name(ir, gm), chip = %options.chip, "replacing the gpu.module's targets");
            }
            let no_ptx = |reason| PtxError::NoPtx {
                module: symbol_name(ir, gm).to_string(),
                reason,
                location: ir.location(gm).clone(),
            };
            dynamic_shared::use_dynamic_shared_memory(&mut copy, gm).map_err(no_ptx)?;
            shared_alignment::align_workgroup_buffers(&mut copy, gm).map_err(no_ptx)?;
            ieee_math::correctly_rounded_square_roots(&mut copy, gm).map_err(no_ptx)?;
            if reciprocal_division {
                constant_division::rewrite_divisions_by_constants(&mut copy, gm);
            }
            if flags.flat_addresses {
                let accesses = flat_addresses::flatten_neighbour_accesses(&mut copy, gm);
                tracing::debug!(module = symbol_name(ir, gm), accesses, "neighbouring accesses through flat indices");
            }
        }
        rewritten = copy;
        &rewritten
    } else {
        ir
    };
    let pipeline = options.pipeline();
    let session = Session::new();
    let mut compiled = Vec::with_capacity(gpu_modules.len());
    for gm in gpu_modules {
        let name = symbol_name(ir, gm).to_string();
        let _span = tracing::debug_span!("ptx", module = %name, chip = %options.chip).entered();
        let signatures = kernel_signatures(ir, gm)?;
        let text =
            wrap_in_container_module(&print_op(ir, registry, gm, PrintOptions { generic: false, debug_info: true }));
        let needs_math_to_funcs = ir
            .collect_ops(gm, WalkOrder::PreOrder)
            .into_iter()
            .any(|op| matches!(ir.op_name(op), "math.ipowi" | "math.fpowi"));
        let started = std::time::Instant::now();
        let ptx = session.compile(&name, &text, &pipeline, needs_math_to_funcs, ir.location(gm))?;
        let fingerprint = fingerprint(original, registry, gm, options.index_bitwidth);
        tracing::debug!(bytes = ptx.len(), elapsed = ?started.elapsed(), "MLIR produced PTX");
        let missing = abi::undefined_libdevice_functions(&ptx);
        if !missing.is_empty() {
            return Err(PtxError::MissingLibdevice {
                module: name,
                functions: missing,
                location: ir.location(gm).clone(),
            });
        }
        let kernels = signatures
            .into_iter()
            .map(|signature| abi::kernel_abi(&ptx, signature, options.index_bitwidth))
            .collect::<Result<Vec<_>, _>>()?;
        compiled.push(PtxModule {
            name,
            chip: options.chip.clone(),
            index_bitwidth: options.index_bitwidth,
            fingerprint,
            ptx,
            kernels,
        });
    }
    Ok(compiled)
}

/// A kernel's name, argument types and location, read from our IR before compiling.
struct KernelSignature {
    name: String,
    inputs: Vec<Type>,
    location: Location,
}

fn kernel_signatures(ir: &Ir, gpu_module: OpId) -> Result<Vec<KernelSignature>, PtxError> {
    let Some(body) = ir.regions(gpu_module).first().and_then(|&r| ir.entry_block(r)) else {
        return Ok(vec![]);
    };
    let mut kernels = vec![];
    for op in ir.block_ops(body) {
        if ir.op_name(op) != "gpu.func" || !is_kernel(ir, op) {
            continue;
        }
        let inputs = ir
            .attr(op, "function_type")
            .and_then(Attribute::as_type)
            .and_then(Type::as_function)
            .map(|f| f.inputs.clone())
            .unwrap_or_default();
        let name = symbol_name(ir, op).to_string();
        let location = ir.location(op).clone();
        for (index, ty) in inputs.iter().enumerate() {
            if let Err(reason) = stencil_dialects::gpu::param_roles(ty) {
                return Err(PtxError::UnsupportedArgument {
                    kernel: name,
                    index,
                    ty: ty.to_string(),
                    reason,
                    location,
                });
            }
        }
        kernels.push(KernelSignature { name, inputs, location });
    }
    Ok(kernels)
}

/// The `gpu.func`s under `gpu_module`, in walk order.
fn gpu_funcs(ir: &Ir, gpu_module: OpId) -> Vec<OpId> {
    ir.collect_ops(gpu_module, WalkOrder::PreOrder).into_iter().filter(|&op| ir.op_name(op) == "gpu.func").collect()
}

fn symbol_name(ir: &Ir, op: OpId) -> &str {
    ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or("")
}

/// `gpu-module-to-binary` and the NVVM target attachment run on the module that contains the
/// `gpu.module`, which must be marked as a GPU container.
fn wrap_in_container_module(gpu_module: &str) -> String {
    format!("module attributes {{gpu.container_module}} {{\n{gpu_module}\n}}\n")
}

/// An op `name` of `operands` with one result of type `ty`, built at `at`.
fn op_with_result(
    ir: &mut Ir,
    at: stencil_ir::ir::InsertPoint,
    name: &str,
    operands: &[stencil_ir::ValueId],
    ty: &Type,
    location: &Location,
) -> OpId {
    let mut state = stencil_ir::ir::OperationState::new(name, location.clone());
    state.operands = operands.to_vec();
    state.result_types = vec![ty.clone()];
    ir.build(at, state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chip_names() {
        for ok in ["sm_90", "sm_80", "sm_90a", "sm_100f", "sm_120"] {
            assert!(is_chip_name(ok), "{ok}");
        }
        for bad in ["", "sm_", "sm90", "sm_9x0", "sm_90ab", "sm_90 O=0", "compute_90", "sm_90}"] {
            assert!(!is_chip_name(bad), "{bad}");
        }
    }

    #[test]
    fn unknown_chips_are_refused() {
        for chip in ["sm_90", "sm_80", "sm_90a", "sm_120"] {
            assert!(PtxOptions { chip: chip.into(), ..PtxOptions::default() }.validate().is_ok(), "{chip}");
        }
        let e = PtxOptions { chip: "sm_99999".into(), ..PtxOptions::default() }.validate();
        let text = e.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            text.contains("GPU chip 'sm_99999' is not one LLVM 22's NVPTX back end knows; known chips: sm_20"),
            "{text}"
        );
    }

    #[test]
    fn options_are_validated_before_reaching_the_pipeline_string() {
        let bad_chip = PtxOptions { chip: "sm_90 O=0".into(), ..PtxOptions::default() };
        assert!(matches!(bad_chip.validate(), Err(PtxError::InvalidOption(_))));
        let bad_level = PtxOptions { opt_level: 4, ..PtxOptions::default() };
        assert!(matches!(bad_level.validate(), Err(PtxError::InvalidOption(_))));
        let bad_path = PtxOptions { libdevice: Some("/a b/libdevice.10.bc".into()), ..PtxOptions::default() };
        assert!(matches!(bad_path.validate(), Err(PtxError::InvalidOption(_))));
        assert!(PtxOptions::default().validate().is_ok());
        let bad_width = PtxOptions { index_bitwidth: 16, ..PtxOptions::default() };
        assert!(matches!(bad_width.validate(), Err(PtxError::InvalidOption(_))));
    }

    #[test]
    fn pipeline_string() {
        let options = PtxOptions {
            chip: "sm_80".into(),
            opt_level: 2,
            index_bitwidth: 64,
            libdevice: Some("/x/libdevice.10.bc".into()),
        };
        assert_eq!(
            options.pipeline(),
            "builtin.module(gpu.module(lower-affine,convert-scf-to-cf,convert-gpu-to-nvvm{index-bitwidth=64},\
             convert-math-to-llvm,reconcile-unrealized-casts),nvvm-attach-target{chip=sm_80 O=2 l=/x/libdevice.10.bc},\
             gpu-module-to-binary{format=isa})"
        );
    }
}
