//! The CUDA executor: runs a GPU-mapped program (a host `func.func` that launches `gpu.func`
//! kernels, as `gpu-map` produces) on a real NVIDIA GPU (DESIGN §7).
//!
//! * The host function runs on the loop interpreter ([`crate::loops`]), exactly as on the
//!   [GPU simulator](crate::gpu_sim); each `gpu.launch_func` becomes a kernel launch of the
//!   PTX MLIR compiled for the `gpu.module` (handed over as plain data, [`PtxModuleSpec`]:
//!   the runtime does not depend on the compiler).
//! * Fields stay on the device for the whole run: uploaded once before the host function
//!   starts, downloaded once after it returns. A host function that reads or writes memory
//!   itself is refused, since it would see stale values.
//! * Kernel arguments follow MLIR's memref calling convention (docs/gpu.md: a rank-r memref is
//!   allocated pointer, aligned pointer, offset, r sizes, r strides), checked against the
//!   kernel's argument types before anything runs.
//! * The run is timed with CUDA events around the host function; launch configurations are
//!   checked against the device's queried limits and each kernel's own (registers limit the
//!   threads per block).
//! * Without an NVIDIA driver, [`CudaDevice::open`] returns [`CudaError::NoDriver`] (cudarc
//!   would panic: the driver library is probed first).
//!
//! Documented in `docs/runtime.md` ("CUDA executor").

mod abi;
mod device;
mod error;
mod launcher;

pub use abi::{KernelParam, ParamRole, PtxKernelSpec, PtxModuleSpec};
pub use device::{probe_driver, CudaDevice, DeviceProperties, DRIVER_LIBRARY};
pub use error::CudaError;

use crate::entry::{find_entry, run_lowered_with, Entry};
use crate::error::RuntimeError;
use crate::loops::compile::KernelSignature;
use crate::loops::{CompiledModule, MemRef};
use crate::state::{ProgramState, RunStats};
use cudarc::driver::sys::CUfunction_attribute_enum as FuncAttr;
use cudarc::driver::{CudaFunction, DriverError};
use launcher::DeviceLauncher;
use std::cell::RefCell;
use std::collections::HashMap;
use stencil_ir::attributes::Attribute;
use stencil_ir::ir::WalkOrder;
use stencil_ir::{Ir, Module, OpId, Type};

/// How the executor runs a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CudaOptions {
    /// Wait for every kernel to finish before the host goes on, so that a failing kernel is
    /// reported at its own launch (slower: launches no longer overlap the host's work).
    pub sync_each_launch: bool,
    /// Runs of the host function before the timed one. Each starts from the initial fields
    /// (uploaded again from the host, which still holds them), so the timed run computes the
    /// same result; they absorb one-time costs (module loading, clocks ramping up).
    pub warmup_runs: u32,
}

/// One kernel as loaded on the device, with the resources the driver reports for it and
/// what was launched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelInfo {
    /// `module::kernel`.
    pub name: String,
    /// Registers per thread.
    pub registers: u32,
    /// Static shared memory per block, bytes.
    pub static_shared_bytes: u64,
    /// Local memory per thread (spills, stack), bytes.
    pub local_bytes: u64,
    /// Most threads per block this kernel can be launched with (registers limit it).
    pub max_threads_per_block: u32,
    /// Dynamic shared memory per block, bytes: the workgroup buffers of a kernel that needs
    /// more than CUDA's 48 KiB of static shared memory (the PTX takes them from there).
    pub dynamic_shared_bytes: u64,
    /// Launches in the timed run.
    pub launches: u64,
    /// Blocks launched in the timed run.
    pub blocks: u64,
    /// Threads launched in the timed run.
    pub threads: u64,
}

/// What a run on the GPU did.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuReport {
    /// The device.
    pub device: DeviceProperties,
    /// Every kernel of the program, launched or not.
    pub kernels: Vec<KernelInfo>,
    /// Seconds from before the first launch to after the last kernel finished, measured with
    /// CUDA events on the stream (the host function's interpretation overlaps the kernels).
    pub kernel_seconds: f64,
    /// Wall-clock seconds of the host function, including the final synchronisation.
    pub host_seconds: f64,
    /// Seconds spent copying the fields to the device (last upload, before the timed run).
    pub upload_seconds: f64,
    /// Seconds spent copying the fields back.
    pub download_seconds: f64,
    /// Bytes copied to the device (all uploads, warm-up included).
    pub bytes_uploaded: u64,
    /// Bytes copied back.
    pub bytes_downloaded: u64,
    /// Untimed runs before the timed one.
    pub warmup_runs: u32,
}

impl GpuReport {
    /// Kernel launches of the timed run.
    pub fn launches(&self) -> u64 {
        self.kernels.iter().map(|k| k.launches).sum()
    }

    /// Blocks of the timed run.
    pub fn blocks(&self) -> u64 {
        self.kernels.iter().map(|k| k.blocks).sum()
    }

    /// Threads of the timed run.
    pub fn threads(&self) -> u64 {
        self.kernels.iter().map(|k| k.threads).sum()
    }
}

/// What [`run_module_cuda`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct CudaRunStats {
    /// `seconds` is the event-timed [`GpuReport::kernel_seconds`]. `point_updates` counts
    /// only stores the *host* made: stores on the device are not counted (a counter in every
    /// kernel would change what is measured), so callers that want the program's point updates
    /// take them from the program ([`crate::CompiledProgram::total_point_updates`]).
    pub run: RunStats,
    /// Device, kernels, timings and copies.
    pub gpu: GpuReport,
}

/// A kernel loaded on the device.
pub(crate) struct LoadedKernel {
    pub symbol: String,
    pub function: CudaFunction,
    pub spec: PtxKernelSpec,
    pub arg_types: Vec<Type>,
    pub info: KernelInfo,
}

/// A GPU-mapped module loaded on a device: its host functions compiled for the loop
/// interpreter, its kernels loaded from PTX.
pub struct CudaProgram<'d> {
    device: &'d CudaDevice,
    host: CompiledModule,
    kernels: Vec<LoadedKernel>,
}

impl std::fmt::Debug for CudaProgram<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.kernels.iter().map(|k| k.symbol.as_str()).collect();
        f.debug_struct("CudaProgram").field("kernels", &names).finish_non_exhaustive()
    }
}

fn top_ops(ir: &Ir, op: OpId) -> Vec<OpId> {
    ir.regions(op).iter().flat_map(|&r| ir.blocks(r).iter().copied()).flat_map(|b| ir.block_op_iter(b)).collect()
}

/// Every kernel `gpu.func` of the `gpu.module`s directly inside `module`: `module::kernel`
/// and its argument types.
fn kernel_signatures(ir: &Ir, module: OpId) -> Result<Vec<(String, Vec<Type>, u64)>, CudaError> {
    let mut out = vec![];
    for gpu_module in top_ops(ir, module).into_iter().filter(|&o| ir.op_name(o) == "gpu.module") {
        let module_name = ir.attr(gpu_module, "sym_name").and_then(Attribute::as_str).unwrap_or("");
        for func in top_ops(ir, gpu_module) {
            if ir.op_name(func) != "gpu.func" || !stencil_dialects::gpu::is_kernel(ir, func) {
                continue;
            }
            let name =
                format!("{module_name}::{}", ir.attr(func, "sym_name").and_then(Attribute::as_str).unwrap_or(""));
            let fn_type = ir
                .attr(func, "function_type")
                .and_then(Attribute::as_type)
                .and_then(Type::as_function)
                .ok_or_else(|| CudaError::Abi { kernel: name.clone(), message: "has no function_type".into() })?;
            // The same rule as the PTX (stencil-lowering's ptx module): buffers beyond the
            // static limit come from dynamic shared memory, which the launch must request.
            let dynamic = match stencil_dialects::gpu::workgroup_layout(ir, func) {
                // One alignment unit of slack: MLIR's dynamic shared memory symbol is a
                // zero-length static array, which ptxas may place before the dynamic region.
                Some((_, total)) if total > stencil_dialects::gpu::MAX_STATIC_SHARED_MEMORY => {
                    total + stencil_dialects::gpu::WORKGROUP_BUFFER_ALIGNMENT
                }
                Some(_) => 0,
                None => {
                    return Err(CudaError::Abi {
                        kernel: name,
                        message: "has a workgroup buffer that is not a statically shaped memref".into(),
                    })
                }
            };
            out.push((name, fn_type.inputs.clone(), dynamic));
        }
    }
    Ok(out)
}

/// Host ops that touch buffer contents: they would read or write the host copy while the
/// current values are on the device.
const HOST_MEMORY_OPS: &[&str] =
    &["memref.load", "memref.store", "memref.copy", "memref.dealloc", "affine.load", "affine.store"];

/// Checks the host functions a run of `entry` can reach (through `func.call`) for ops that
/// touch buffer contents. Functions the run never calls are not checked: e.g. the wrapper that
/// `raise-affine-to-stencil` leaves around a raised program keeps its original loops as a
/// fallback, and a run of the program itself never executes them.
fn check_host_functions(ir: &Ir, module: OpId, entry: OpId) -> Result<(), CudaError> {
    let funcs: HashMap<&str, OpId> = top_ops(ir, module)
        .into_iter()
        .filter(|&o| ir.op_name(o) == "func.func")
        .map(|o| (ir.attr(o, "sym_name").and_then(Attribute::as_str).unwrap_or(""), o))
        .collect();
    let mut pending = vec![entry];
    let mut seen = std::collections::HashSet::from([entry]);
    while let Some(func) = pending.pop() {
        for op in ir.collect_ops(func, WalkOrder::PreOrder) {
            let name = ir.op_name(op);
            if HOST_MEMORY_OPS.contains(&name) {
                let function = ir.attr(func, "sym_name").and_then(Attribute::as_str).unwrap_or("");
                return Err(CudaError::Unsupported(format!(
                    "{}: error: '{name}' in host function @{function}: the CUDA executor keeps buffers on the device for the whole run, so the host may only launch kernels; move the access into a kernel (or use --target sim)",
                    crate::error::Loc::new(ir.location(op))
                )));
            }
            let callee = (name == "func.call")
                .then(|| ir.attr(op, "callee").and_then(Attribute::as_flat_symbol))
                .flatten()
                .and_then(|callee| funcs.get(callee));
            if let Some(&callee) = callee {
                if seen.insert(callee) {
                    pending.push(callee);
                }
            }
        }
    }
    Ok(())
}

fn func_attr(function: &CudaFunction, attr: FuncAttr, kernel: &str) -> Result<u64, CudaError> {
    let v =
        function.get_attribute(attr).map_err(CudaError::driver(format!("querying {attr:?} of kernel @{kernel}")))?;
    Ok(u64::try_from(v).unwrap_or(0))
}

fn load_hint(e: &DriverError, device: &DeviceProperties) -> String {
    use cudarc::driver::sys::cudaError_enum as E;
    match e.0 {
        E::CUDA_ERROR_UNSUPPORTED_PTX_VERSION => format!(
            " (the driver, CUDA {}, is older than the PTX ISA version: update the driver or compile for an older chip)",
            device.driver_version_text()
        ),
        E::CUDA_ERROR_NO_BINARY_FOR_GPU | E::CUDA_ERROR_INVALID_PTX => {
            format!(" (this GPU is {}: compile the PTX for it, e.g. --gpu-chip={})", device.chip(), device.chip())
        }
        _ => String::new(),
    }
}

impl<'d> CudaProgram<'d> {
    /// Loads `module` (the top op `top` of `ir`) on `device` to run its host function `entry`:
    /// checks that the host functions the entry reaches only launch kernels, compiles them,
    /// loads every `gpu.module`'s PTX from `ptx` and checks each kernel's parameter list
    /// against its argument types.
    pub fn load(
        device: &'d CudaDevice,
        ir: &Ir,
        top: OpId,
        entry: OpId,
        ptx: &[PtxModuleSpec],
    ) -> Result<Self, CudaError> {
        let signatures = kernel_signatures(ir, top)?;
        check_host_functions(ir, top, entry)?;
        let table: HashMap<String, KernelSignature> = signatures
            .iter()
            .enumerate()
            .map(|(index, (name, arg_types, _))| {
                (name.clone(), KernelSignature { index, arg_types: arg_types.clone() })
            })
            .collect();
        let host = CompiledModule::with_kernels(ir, top, &table)?;
        let mut loaded_modules = HashMap::new();
        for spec in ptx {
            let module = device.ctx.load_module(cudarc::nvrtc::Ptx::from_src(spec.ptx.clone())).map_err(|source| {
                CudaError::ModuleLoad {
                    module: spec.name.clone(),
                    hint: load_hint(&source, device.properties()),
                    source,
                }
            })?;
            loaded_modules.insert(spec.name.as_str(), (module, spec));
        }
        let mut kernels = vec![];
        for (symbol, arg_types, dynamic_shared_bytes) in signatures {
            let abi = |message: String| CudaError::Abi { kernel: symbol.clone(), message };
            let (module_name, kernel_name) = symbol.split_once("::").unwrap_or(("", symbol.as_str()));
            let (module, module_spec) = loaded_modules
                .get(module_name)
                .ok_or_else(|| abi(format!("no PTX was given for gpu.module @{module_name}")))?;
            let spec = module_spec
                .kernels
                .iter()
                .find(|k| k.name == kernel_name)
                .ok_or_else(|| abi(format!("the PTX of gpu.module @{module_name} has no kernel {kernel_name}")))?;
            if spec.arguments.len() != arg_types.len() {
                return Err(abi(format!(
                    "the PTX description has {} arguments, the gpu.func {}",
                    spec.arguments.len(),
                    arg_types.len()
                )));
            }
            for (i, (params, ty)) in spec.arguments.iter().zip(&arg_types).enumerate() {
                let expected = stencil_dialects::gpu::param_roles(ty)
                    .map_err(|why| abi(format!("argument #{i} ({ty}) has no parameter ABI: {why}")))?;
                let got: Vec<ParamRole> = params.iter().map(|p| p.role).collect();
                if got != expected {
                    return Err(abi(format!(
                        "argument #{i} ({ty}) is described as parameters [{}], not the documented [{}]",
                        got.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
                        expected.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
                    )));
                }
            }
            let function = module
                .load_function(kernel_name)
                .map_err(CudaError::driver(format!("looking up kernel {kernel_name} in the loaded PTX")))?;
            if dynamic_shared_bytes > 0 {
                // More than 48 KiB of dynamic shared memory must be allowed per function first.
                let bytes = i32::try_from(dynamic_shared_bytes).unwrap_or(i32::MAX);
                function
                    .set_attribute(FuncAttr::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes)
                    .map_err(CudaError::driver(format!(
                        "allowing kernel {kernel_name} {dynamic_shared_bytes} bytes of dynamic shared memory (this GPU allows {} per block)",
                        device.properties().shared_memory_per_block_optin
                    )))?;
            }
            let info = KernelInfo {
                name: symbol.clone(),
                registers: func_attr(&function, FuncAttr::CU_FUNC_ATTRIBUTE_NUM_REGS, &symbol)? as u32,
                static_shared_bytes: func_attr(&function, FuncAttr::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &symbol)?,
                local_bytes: func_attr(&function, FuncAttr::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &symbol)?,
                max_threads_per_block: func_attr(&function, FuncAttr::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &symbol)?
                    as u32,
                dynamic_shared_bytes,
                ..KernelInfo::default()
            };
            tracing::debug!(kernel = %symbol, registers = info.registers, local = info.local_bytes, "loaded kernel");
            kernels.push(LoadedKernel { symbol, function, spec: spec.clone(), arg_types, info });
        }
        Ok(CudaProgram { device, host, kernels })
    }

    /// The kernels as loaded (resources from the driver; launch counts are zero).
    pub fn kernels(&self) -> Vec<KernelInfo> {
        self.kernels.iter().map(|k| k.info.clone()).collect()
    }
}

/// [`crate::run_module`] on a GPU: runs the lowered, GPU-mapped program `entry` (or the
/// module's only entry point) on `state` (the lowered-program convention of
/// `docs/runtime.md`), the kernels from `ptx` on `device`. Fields are uploaded once,
/// downloaded once, and updated in place in `state` (also when a launch fails, with whatever
/// the device holds then, unless the device itself failed).
pub fn run_module_cuda(
    module: &Module,
    entry: Option<&str>,
    state: &mut ProgramState,
    ptx: &[PtxModuleSpec],
    device: &CudaDevice,
    options: &CudaOptions,
) -> Result<CudaRunStats, CudaError> {
    let func =
        match find_entry(module, entry)? {
            Entry::Lowered(f) => f,
            Entry::Program(_) => return Err(CudaError::Unsupported(
                "the entry point is a stencil.program: map it to the GPU first (end the pass pipeline with gpu-map)"
                    .into(),
            )),
        };
    // Both closures may fail with a CUDA error; RefCells let each record it.
    let failure: RefCell<Option<CudaError>> = RefCell::new(None);
    let report = RefCell::new(None);
    let run = run_lowered_with(
        module,
        func,
        state,
        |ir, top| {
            CudaProgram::load(device, ir, top, func, ptx).map_err(|e| {
                let message = e.to_string();
                *failure.borrow_mut() = Some(e);
                RuntimeError::Entry { message }
            })
        },
        |program, name, values, memory, handles: &[(String, MemRef)]| {
            let mut launcher = DeviceLauncher::new(program, options);
            let result = launcher.run(name, values, memory, handles);
            *report.borrow_mut() = Some(launcher.into_report());
            result.map_err(|e| match e {
                CudaError::Runtime(r) => r,
                other => {
                    let message = other.to_string();
                    *failure.borrow_mut() = Some(other);
                    RuntimeError::Entry { message }
                }
            })
        },
    );
    // The loop interpreter only carries RuntimeErrors: a CUDA failure travelled as its message
    // and is returned as itself here.
    if let Some(e) = failure.into_inner() {
        return Err(e);
    }
    let run = run?;
    let gpu = report.into_inner().ok_or_else(|| CudaError::Unsupported("the host function did not run".into()))?;
    Ok(CudaRunStats { run: RunStats { seconds: gpu.kernel_seconds, ..run }, gpu })
}

#[cfg(test)]
mod tests {
    use super::*;
    use stencil_ir::parser::{parse_source, ParserConfig};
    use stencil_ir::SourceFile;

    /// `@entry` calls `@helper`; `@fallback` (like a raised function's original loops) is never
    /// called. `HELPER` is the body of `@helper`.
    fn module(helper: &str) -> (Module, OpId) {
        let text = format!(
            r#"module {{
  func.func @entry(%m: memref<4xf64>) {{
    func.call @helper(%m) : (memref<4xf64>) -> ()
    return
  }}
  func.func @helper(%m: memref<4xf64>) {{
    {helper}
    return
  }}
  func.func @fallback(%m: memref<4xf64>) {{
    %c0 = arith.constant 0 : index
    %v = memref.load %m[%c0] : memref<4xf64>
    memref.store %v, %m[%c0] : memref<4xf64>
    return
  }}
}}"#
        );
        let registry = stencil_dialects::registry();
        let source = SourceFile::new("host.mlir", &text);
        let module = parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: false })
            .unwrap_or_else(|d| panic!("{}", d.render()));
        let entry = top_ops(&module.ir, module.top)
            .into_iter()
            .find(|&o| module.ir.attr(o, "sym_name").and_then(Attribute::as_str) == Some("entry"))
            .expect("@entry");
        (module, entry)
    }

    #[test]
    fn host_functions_the_run_never_calls_are_not_checked() {
        let (module, entry) = module("");
        check_host_functions(&module.ir, module.top, entry).expect("@fallback is never called");
    }

    #[test]
    fn a_host_memory_access_in_a_called_function_is_refused() {
        let (module, entry) = module("%c0 = arith.constant 0 : index\n    %v = memref.load %m[%c0] : memref<4xf64>");
        let error = check_host_functions(&module.ir, module.top, entry).expect_err("@helper reads the memref");
        let message = error.to_string();
        assert!(message.contains("'memref.load' in host function @helper"), "{message}");
        assert!(message.starts_with("host.mlir:8:10:"), "located at the load: {message}");
    }
}
