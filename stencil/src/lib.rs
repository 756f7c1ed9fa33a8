//! # `stencil`: the library front door of stencil-opt
//!
//! One crate and one type, [`Compiler`], for a program that embeds the compiler: a registry
//! with every dialect and pass, then parse and verify, run a pass pipeline, print, compile the
//! GPU kernels to PTX (cargo feature `mlir`), and run on the reference interpreter, the GPU
//! simulator or an NVIDIA GPU. Programs can also be built without text ([`builder`]), and
//! other compilers add their own passes ([`Compiler::register_pass`]) and ops
//! ([`Compiler::dialects_mut`]).
//!
//! ```
//! use stencil::{Compiler, ProgramState, Target};
//!
//! let compiler = Compiler::new();
//! let mut module = compiler.parse("sor.mlir", r#"
//!   stencil.program @sor(%A: !stencil.field<[N] x f64>) params [T >= 1, N >= 3] defaults [T = 4, N = 32] {
//!     stencil.iterate %t = 0 to T {
//!       stencil.apply @S writes %A over [1] to [N - 1] {
//!         %l = stencil.access %A[-1] : f64
//!         %r = stencil.access %A[1] : f64
//!         %s = arith.addf %l, %r : f64
//!         stencil.yield %s : f64
//!       }
//!     }
//!   }"#)?;
//! let original = module.clone();
//! compiler.run_pipeline(&mut module, "builtin.module(poly-schedule,poly-tile{sizes=8},gpu-map)")?;
//! assert!(compiler.print(&module).contains("gpu.launch_func"));
//!
//! // The mapped program on the GPU simulator gives the original's fields, bit for bit: both
//! // start from the same pseudo-random fields (seed 7), the original on the reference
//! // interpreter.
//! let check = compiler.check(&original, &module, None, Target::Simulator, ProgramState::new(), 7)?;
//! assert!(check.bit_exact());
//! # Ok::<(), stencil::Error>(())
//! ```
//!
//! The crates behind it stay available for everything the front door does not cover:
//! [`ir`] (the IR core), [`dialects`], [`poly`] (the polyhedral library), [`passes`],
//! [`lowering`] and [`runtime`]. `docs/library.md` is the guide.

#![warn(missing_docs)]

pub mod cost;
mod error;
pub mod params;

pub use error::{render_with_source, Error};
pub use stencil_dialects as dialects;
pub use stencil_dialects::stencil::builder;
pub use stencil_ir as ir;
pub use stencil_lowering as lowering;
pub use stencil_passes as passes;
pub use stencil_poly as poly;
pub use stencil_runtime as runtime;

pub use stencil_ir::pass::{PassContract, PassInfo, PassRegistry, PipelineError};
pub use stencil_ir::{Diagnostic, DialectRegistry, Module};
pub use stencil_runtime::{FieldComparison, FieldData, ProgramInterface, ProgramState, RunStats, ScalarValue};

use std::collections::BTreeMap;
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::pass::{PassManager, PassManagerOptions};
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::SourceFile;
use stencil_lowering::ptx::PtxModule;
use stencil_runtime::cuda::{CudaOptions, GpuReport, KernelParam, PtxKernelSpec, PtxModuleSpec};
use stencil_runtime::gpu_sim::{run_module_sim, SimOptions, SimReport};

/// Whether this build compiles PTX itself (cargo feature `mlir`); without it, GPU runs take
/// precompiled PTX ([`Compiler::run_gpu_with_ptx`]).
pub const MLIR_AVAILABLE: bool = cfg!(feature = "mlir");

/// Every dialect stencil-opt knows: builtin, func, arith, math, memref, scf, affine, gpu, nvvm
/// and stencil.
pub fn dialect_registry() -> DialectRegistry {
    stencil_dialects::registry()
}

/// Every pass stencil-opt ships: `canonicalize`, `cse`, `loop-invariant-code-motion`; the
/// polyhedral passes (`stencil-to-poly`, `poly-schedule`, `poly-verify-schedule`,
/// `poly-remove-false-deps`, `poly-tile`); the SOR rewrites (`stencil-recognize-sor`,
/// `stencil-rbsor`, `stencil-mlsor`); `raise-affine-to-stencil` (affine loops from another
/// compiler in); and the lowerings (`poly-codegen`, `gpu-map`). [`Compiler::passes`] lists them
/// with their options.
pub fn pass_registry() -> PassRegistry {
    let mut passes = PassRegistry::with_generic_passes();
    stencil_passes::register_passes(&mut passes);
    stencil_lowering::register_passes(&mut passes);
    passes
}

/// Where [`Compiler::run`] runs a program.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The reference interpreter: sequential semantics, the oracle.
    Reference,
    /// The GPU simulator: a program mapped by `gpu-map`, its kernels on the CPU with GPU
    /// semantics; a data race is an error.
    Simulator,
    /// An NVIDIA GPU (GPU 0), kernels compiled by MLIR for its chip (feature `mlir`).
    Gpu,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// Point updates and seconds.
    pub stats: RunStats,
    /// The simulator's launches, traffic and races ([`Target::Simulator`]).
    pub sim: Option<SimReport>,
    /// The GPU's device, kernels and timings ([`Target::Gpu`]).
    pub gpu: Option<GpuReport>,
}

/// The compiler: the dialect and pass registries, and everything done with them.
#[derive(Clone)]
pub struct Compiler {
    dialects: DialectRegistry,
    passes: PassRegistry,
    verify_each: bool,
    allow_unregistered: bool,
    sim_options: SimOptions,
}

impl Default for Compiler {
    fn default() -> Self {
        Self::new()
    }
}

impl Compiler {
    /// A compiler with every dialect ([`dialect_registry`]) and pass ([`pass_registry`]);
    /// pipelines verify the IR after every pass.
    pub fn new() -> Self {
        Compiler {
            dialects: dialect_registry(),
            passes: pass_registry(),
            verify_each: true,
            allow_unregistered: false,
            sim_options: SimOptions::default(),
        }
    }

    /// Whether [`Compiler::parse`] and [`Compiler::verify`] accept ops and attributes of
    /// dialects the registry does not know, kept as they are (off by default; what
    /// `stencil-opt --allow-unregistered-dialect` does): a C front end's module attributes
    /// (Polygeist's `dlti.dl_spec`), or another compiler's ops around the loops it hands over.
    pub fn allow_unregistered(mut self, on: bool) -> Self {
        self.allow_unregistered = on;
        self
    }

    /// The simulator's settings for [`Target::Simulator`] runs (block and thread orders, the
    /// race policy, the instruction limit per thread, the device limits, profiling); the
    /// defaults otherwise.
    pub fn sim_options(mut self, options: SimOptions) -> Self {
        self.sim_options = options;
        self
    }

    /// Whether pipelines verify the IR after every pass (on by default; off saves the time of
    /// the verifier on trusted input).
    pub fn verify_each(mut self, on: bool) -> Self {
        self.verify_each = on;
        self
    }

    /// The dialects and ops.
    pub fn dialects(&self) -> &DialectRegistry {
        &self.dialects
    }

    /// The dialects and ops, to register more (`register_dialect`, `register_op`): ops of
    /// another compiler then parse, print and verify like ours.
    pub fn dialects_mut(&mut self) -> &mut DialectRegistry {
        &mut self.dialects
    }

    /// The passes.
    pub fn passes(&self) -> &PassRegistry {
        &self.passes
    }

    /// Adds a pass: pipelines can name it from then on (a pass of the same name is replaced).
    pub fn register_pass(&mut self, info: PassInfo) -> &mut Self {
        self.passes.register(info);
        self
    }

    /// Parses `text` (named `file` in diagnostics) and verifies it.
    pub fn parse(&self, file: &str, text: &str) -> Result<Module, Error> {
        let source = SourceFile::new(file, text);
        let config = ParserConfig { registry: &self.dialects, allow_unregistered: self.allow_unregistered };
        let module = parse_source(&source, config).map_err(|d| Error::diagnostic(d, Some(&source)))?;
        stencil_ir::verifier::verify(&module.ir, &self.dialects, module.top, self.allow_unregistered)
            .map_err(|d| Error::diagnostic(d, Some(&source)))?;
        Ok(module)
    }

    /// Verifies `module` (a program made with [`builder`] or changed by hand).
    pub fn verify(&self, module: &Module) -> Result<(), Error> {
        stencil_ir::verifier::verify(&module.ir, &self.dialects, module.top, self.allow_unregistered)
            .map_err(|d| Error::diagnostic(d, module.source.as_deref()))
    }

    /// Runs the pass pipeline `pipeline` (MLIR's syntax, `builtin.module(poly-schedule,…)`) on
    /// `module`, and returns the warnings and remarks the passes reported, in order: a pass
    /// that leaves part of the program as it was says why there (`raise-affine-to-stencil` on
    /// a loop nest it cannot raise, a rewrite that is not dependence-preserving).
    ///
    /// All or nothing: a pipeline that cannot work — its syntax, a pass or option, an order
    /// ([`Error::Pipeline`]) — is refused before it runs, and one that fails while running
    /// leaves `module` as it was before the call.
    pub fn run_pipeline(&self, module: &mut Module, pipeline: &str) -> Result<Vec<Diagnostic>, Error> {
        let options = PassManagerOptions { verify_each: self.verify_each, ..PassManagerOptions::default() };
        let mut pm = PassManager::parse(pipeline, &self.passes, options).map_err(Error::Pipeline)?;
        let mut transformed = module.clone();
        pm.run(&mut transformed.ir, transformed.top, &self.dialects)
            .map_err(|d| Error::diagnostic(d, module.source.as_deref()))?;
        *module = transformed;
        Ok(pm.take_reported())
    }

    /// [`Compiler::run_pipeline`] for a problem of the given sizes (`("N", 4096)`, the programs'
    /// own parameter names), as `stencil-opt --param N=4096` runs it: the choices made for a
    /// problem size — `poly-tile{sizes=auto}`, `gpu-map{block=auto}`, `staging=auto`, the
    /// temporal strategies' default tiles — are made for these sizes instead of the programs'
    /// declared defaults (with [`Compiler::run_pipeline`], a mapping is tuned for those, and
    /// its PTX differs from `stencil-opt --param`'s). Parameters not given keep their declared
    /// defaults. A name no program declares, or a value below a program's declared minimum, is
    /// an error before anything runs. A module of `affine` loops (no program yet: the pipeline
    /// raises them) takes the sizes by the names its raised programs will have (`arg1`, …),
    /// checked after the pipeline (as `stencil-opt --param` does; their minimums are the raised
    /// call's guard, which falls back to the original loops below them).
    pub fn run_pipeline_with_sizes(
        &self,
        module: &mut Module,
        pipeline: &str,
        sizes: &[(&str, i64)],
    ) -> Result<Vec<Diagnostic>, Error> {
        let sizes: Vec<(String, i64)> = sizes.iter().map(|&(n, v)| (n.to_string(), v)).collect();
        if let Some((name, _)) = sizes.iter().enumerate().find_map(|(i, s)| sizes[..i].iter().find(|t| t.0 == s.0)) {
            return Err(Error::ProblemSizes(format!("parameter '{name}' is given more than once")));
        }
        let mut sized = module.clone();
        let mut declared = vec![];
        let programs = params::declared_params(&sized.ir, sized.top, &mut declared);
        if programs == 0 {
            // Affine input: the raise reads the sizes from the module.
            if let Some(attribute) = stencil_passes::tile_model::problem_size_attribute(sizes.iter()) {
                sized.ir.set_attribute(sized.top, stencil_passes::tile_model::PROBLEM_SIZE_ATTR, attribute);
            }
        } else {
            params::check_known(&sizes, &declared, programs).map_err(Error::ProblemSizes)?;
            params::check_minimums(&sized.ir, sized.top, &sizes)
                .map_err(|d| Error::diagnostic(d, module.source.as_deref()))?;
            stencil_passes::tile_model::set_problem_sizes(&mut sized.ir, sized.top, &sizes);
        }
        let reported = self.run_pipeline(&mut sized, pipeline)?;
        if programs == 0 && !sizes.is_empty() {
            // For the pipeline only (as stencil-opt does): the names must be those of what it
            // raised.
            sized.ir.remove_attr(sized.top, stencil_passes::tile_model::PROBLEM_SIZE_ATTR);
            let mut declared = vec![];
            let (made, _) = params::declared_after_pipeline(&sized.ir, sized.top, &mut declared);
            params::check_known(&sizes, &declared, made).map_err(Error::ProblemSizes)?;
        }
        *module = sized;
        Ok(reported)
    }

    /// The GPU cost report of a [`Target::Simulator`] run of `module` (`result.sim`) with
    /// `point_updates` point updates (`result.stats.point_updates`): the simulator's counts,
    /// each kernel's registers from ptxas (on PTX compiled by MLIR, or `request.precompiled`),
    /// occupancy and an estimated time on an H100 model — what `stencil-run --target sim
    /// --cost` prints ([`cost::CostSummary::render_text`], `to_json`; docs/cost-model.md).
    /// Without ptxas or PTX the registers are unknown and the summary says why.
    pub fn cost(
        &self,
        module: &Module,
        sim: &SimReport,
        point_updates: u64,
        request: &cost::CostRequest<'_>,
    ) -> cost::CostSummary {
        cost::cost_summary(module, sim, point_updates, request)
    }

    /// `module` in MLIR's textual form, custom syntax.
    pub fn print(&self, module: &Module) -> String {
        print_op(&module.ir, &self.dialects, module.top, PrintOptions::default())
    }

    /// `module` with every op in MLIR's generic form (what `mlir-opt
    /// --allow-unregistered-dialect` reads back even for our own dialects).
    pub fn print_generic(&self, module: &Module) -> String {
        print_op(&module.ir, &self.dialects, module.top, PrintOptions { generic: true, debug_info: false })
    }

    /// The PTX of every `gpu.module` of `module`, compiled by MLIR 22 (docs/gpu.md): each with
    /// its kernels' parameter ABI. A module without GPU kernels is [`Error::NoKernels`], as
    /// `stencil-opt --emit=ptx` refuses it (an empty list would pass for compiled kernels).
    ///
    /// LLVM compiles with the code-generator flags of the process: its own defaults, unless the
    /// program called [`lowering::ptx::llvm_options::configure`] once — with
    /// `CodegenFlags::RECOMMENDED` for the PTX `stencil-opt` writes (32-bit shared pointers, no
    /// loop strength reduction, divisions by constants through the reciprocal: up to 1.47×
    /// faster kernels on an H200).
    #[cfg(feature = "mlir")]
    pub fn ptx(&self, module: &Module, options: &stencil_lowering::ptx::PtxOptions) -> Result<Vec<PtxModule>, Error> {
        if !stencil_lowering::gpu_map::is_gpu_mapped(&module.ir, module.top) {
            return Err(Error::NoKernels);
        }
        Ok(stencil_lowering::ptx::compile_gpu_modules(&module.ir, &self.dialects, module.top, options)?)
    }

    /// The interface of entry point `entry` (or the module's only program) for the parameters in
    /// `state`: parameter values, field shapes, scalars.
    pub fn interface(
        &self,
        module: &Module,
        entry: Option<&str>,
        state: &ProgramState,
    ) -> Result<ProgramInterface, Error> {
        Ok(stencil_runtime::module_interface(module, entry, state)?)
    }

    /// `state` with every field of entry point `entry` that it lacks filled with deterministic
    /// pseudo-random values from `seed` (each field its own stream), ready for [`Compiler::run`].
    pub fn initial_state(
        &self,
        module: &Module,
        entry: Option<&str>,
        mut state: ProgramState,
        seed: u64,
    ) -> Result<ProgramState, Error> {
        let interface = self.interface(module, entry, &state)?;
        for (i, field) in interface.fields.iter().enumerate() {
            if !state.fields.contains_key(&field.name) {
                let data = FieldData::pseudo_random(field.shape.clone(), field.element, seed.wrapping_add(i as u64))?;
                state.fields.insert(field.name.clone(), data);
            }
        }
        Ok(state)
    }

    /// Runs entry point `entry` (or the module's only program) of `module` on `target`,
    /// updating the fields of `state` in place. [`Target::Simulator`] and [`Target::Gpu`] need a
    /// program mapped by `gpu-map` ([`Error::NotGpuMapped`] otherwise); [`Target::Gpu`] needs
    /// the `mlir` feature (or use [`Compiler::run_gpu_with_ptx`]) and an NVIDIA driver.
    pub fn run(
        &self,
        module: &Module,
        entry: Option<&str>,
        target: Target,
        state: &mut ProgramState,
    ) -> Result<RunResult, Error> {
        if target != Target::Reference {
            require_gpu_mapped(module, target)?;
        }
        match target {
            Target::Reference => {
                let stats = stencil_runtime::run_module(module, entry, state)?;
                Ok(RunResult { stats, sim: None, gpu: None })
            }
            Target::Simulator => {
                let stats = run_module_sim(module, entry, state, &self.sim_options)?;
                Ok(RunResult { stats: stats.run, sim: Some(stats.sim), gpu: None })
            }
            Target::Gpu => self.run_gpu(module, entry, state),
        }
    }

    #[cfg(feature = "mlir")]
    fn run_gpu(&self, module: &Module, entry: Option<&str>, state: &mut ProgramState) -> Result<RunResult, Error> {
        let device = stencil_runtime::cuda::CudaDevice::open(0)?;
        let options = stencil_lowering::ptx::PtxOptions {
            chip: device.properties().chip(),
            index_bitwidth: default_index_bitwidth(state),
            ..stencil_lowering::ptx::PtxOptions::with_found_libdevice()
        };
        let ptx = self.ptx(module, &options)?;
        self.run_on_device(module, entry, &ptx, state, &device, &CudaOptions::default())
    }

    #[cfg(not(feature = "mlir"))]
    fn run_gpu(&self, _: &Module, _: Option<&str>, _: &mut ProgramState) -> Result<RunResult, Error> {
        Err(Error::MlirUnavailable)
    }

    /// Checks `transformed` (`original` after a pass pipeline) against `original`: both start
    /// from the same fields — those `state` gives, the others pseudo-random from `seed`
    /// ([`Compiler::initial_state`]) — `original` runs on the reference interpreter and
    /// `transformed` on `target`, and each field of `original` is compared
    /// ([`Check::bit_exact`], [`Check::within`]).
    ///
    /// Fields a pass added (the copies `poly-remove-false-deps` makes) start with values of
    /// their own, are not arguments of `original` and are not compared; this is why sharing one
    /// state between both runs does not work for every pipeline.
    pub fn check(
        &self,
        original: &Module,
        transformed: &Module,
        entry: Option<&str>,
        target: Target,
        state: ProgramState,
        seed: u64,
    ) -> Result<Check, Error> {
        let mut transformed_state = self.initial_state(transformed, entry, state, seed)?;
        let original_fields = self.interface(original, entry, &transformed_state)?.fields;
        let mut reference_state = transformed_state.clone();
        reference_state.fields.retain(|name, _| original_fields.iter().any(|f| &f.name == name));
        let reference = self.run(original, entry, Target::Reference, &mut reference_state)?;
        let run = self.run(transformed, entry, target, &mut transformed_state)?;
        let fields = original_fields
            .iter()
            .filter_map(|f| {
                let expected = reference_state.fields.get(&f.name)?;
                let actual = transformed_state.fields.get(&f.name)?;
                Some((f.name.clone(), stencil_runtime::compare_fields(expected, actual)))
            })
            .collect();
        Ok(Check { fields, reference, transformed: run, reference_state, transformed_state })
    }

    /// Runs `module` on GPU 0 with kernels from precompiled `ptx` (`stencil-opt --emit=ptx`,
    /// read with `stencil_lowering::ptx::PrecompiledPtx` and matched with
    /// `stencil_lowering::ptx::attach_precompiled`): what a build without `mlir` does.
    pub fn run_gpu_with_ptx(
        &self,
        module: &Module,
        entry: Option<&str>,
        ptx: &[PtxModule],
        state: &mut ProgramState,
        options: &CudaOptions,
    ) -> Result<RunResult, Error> {
        require_gpu_mapped(module, Target::Gpu)?;
        let device = stencil_runtime::cuda::CudaDevice::open(0)?;
        self.run_on_device(module, entry, ptx, state, &device, options)
    }

    fn run_on_device(
        &self,
        module: &Module,
        entry: Option<&str>,
        ptx: &[PtxModule],
        state: &mut ProgramState,
        device: &stencil_runtime::cuda::CudaDevice,
        options: &CudaOptions,
    ) -> Result<RunResult, Error> {
        let specs: Vec<PtxModuleSpec> = ptx.iter().map(ptx_spec).collect();
        let stats = stencil_runtime::cuda::run_module_cuda(module, entry, state, &specs, device, options)?;
        Ok(RunResult { stats: stats.run, sim: None, gpu: Some(stats.gpu) })
    }
}

/// The width of `index` in the kernels a GPU run of `state` compiles (what `stencil-run
/// --target gpu` takes without `--gpu-index-bitwidth`): 32 when every field has fewer than 2³¹
/// elements — then every index and linearised offset fits, and index arithmetic takes half the
/// registers and instructions — else 64.
pub fn default_index_bitwidth(state: &ProgramState) -> u32 {
    if state.fields.values().all(|f| i32::try_from(f.len()).is_ok()) {
        32
    } else {
        64
    }
}

/// [`Error::NotGpuMapped`] unless `module` holds GPU kernels.
fn require_gpu_mapped(module: &Module, target: Target) -> Result<(), Error> {
    if stencil_lowering::gpu_map::is_gpu_mapped(&module.ir, module.top) {
        Ok(())
    } else {
        Err(Error::NotGpuMapped { target })
    }
}

/// What [`Compiler::check`] found.
#[derive(Clone, Debug)]
pub struct Check {
    /// Each field of the original program: the transformed run's against the reference run's.
    pub fields: BTreeMap<String, FieldComparison>,
    /// The original program's run on the reference interpreter.
    pub reference: RunResult,
    /// The transformed program's run on the target.
    pub transformed: RunResult,
    /// The fields after the reference run (the original program's only).
    pub reference_state: ProgramState,
    /// The fields after the transformed run (with any the pipeline added).
    pub transformed_state: ProgramState,
}

impl Check {
    /// Whether every compared field is identical bit for bit (what a dependence-preserving
    /// pipeline must give).
    pub fn bit_exact(&self) -> bool {
        self.fields.values().all(FieldComparison::bit_exact)
    }

    /// Whether every compared field is within `tolerance` of the reference (NaNs must meet
    /// NaNs): for a rewrite that is not dependence-preserving, compared after convergence.
    pub fn within(&self, tolerance: f64) -> bool {
        self.fields.values().all(|c| c.within(tolerance))
    }
}

/// The runtime's plain-data view of a compiled `gpu.module` (the compiler and the CUDA
/// executor stay independent crates; the PTX and its parameter roles cross over as data).
pub fn ptx_spec(module: &PtxModule) -> PtxModuleSpec {
    PtxModuleSpec {
        name: module.name.clone(),
        ptx: module.ptx.clone(),
        kernels: module
            .kernels
            .iter()
            .map(|k| PtxKernelSpec {
                name: k.name.clone(),
                arguments: k
                    .arguments
                    .iter()
                    .map(|a| {
                        a.params.iter().map(|p| KernelParam { ptx_type: p.ptx_type.clone(), role: p.role }).collect()
                    })
                    .collect(),
            })
            .collect(),
    }
}
