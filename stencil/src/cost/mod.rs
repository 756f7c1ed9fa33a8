//! The GPU cost report without a GPU (docs/cost-model.md), what `stencil-run --target sim
//! --cost` prints and [`crate::Compiler::cost`] returns. The simulator counts the work; this
//! module adds what only the compiler side knows — each kernel's registers, spills and shared
//! memory, from ptxas on the kernels' PTX — and hands both to `stencil_runtime::cost`. ptxas is
//! optional: without it (or without PTX) registers are unknown, and the report says so and why.
//! [`CostSummary::render_text`] and [`CostSummary::to_json`] print it as `stencil-run` does.

mod render;

use std::collections::HashMap;
use stencil_ir::DialectRegistry;
use stencil_ir::Module;
use stencil_lowering::ptx::{compile_gpu_modules, PtxError, PtxModule, PtxOptions, DEFAULT_CHIP};
use stencil_lowering::ptxas::Ptxas;
use stencil_runtime::cost::{CostReport, DeviceModel, KernelResources};
use stencil_runtime::gpu_sim::SimReport;

/// What the cost report needs besides the simulation.
#[derive(Clone, Copy)]
pub struct CostRequest<'a> {
    /// Dialects, to compile the kernels to PTX.
    pub dialects: &'a DialectRegistry,
    /// The chip (`--gpu-chip`; default `sm_90`, the H100 the device model describes).
    pub chip: Option<&'a str>,
    /// The width of `index` (`--gpu-index-bitwidth`); `None`: the PTX compiler's default (64).
    /// `stencil-run` passes the width `--target gpu` would compile at
    /// ([`crate::default_index_bitwidth`]).
    pub index_bitwidth: Option<u32>,
    /// Precompiled PTX of the kernels (`stencil-run --ptx FILE`), already matched against the
    /// module (`stencil_lowering::ptx::attach_precompiled`): what a build without MLIR needs.
    pub precompiled: Option<&'a [PtxModule]>,
}

/// Where the kernels' registers came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegisterSource {
    /// ptxas assembled the kernels' PTX.
    Ptxas {
        /// The chip the PTX was compiled and assembled for.
        chip: String,
        /// Width of `index` in the kernels.
        index_bitwidth: u32,
        /// `compiled by MLIR` or `from --ptx FILE`.
        ptx: String,
    },
    /// Registers are unknown; occupancy counts threads, shared memory and blocks only.
    Unknown {
        /// Why (no ptxas, no MLIR in this build, a compilation failure).
        reason: String,
    },
}

/// The cost report and how its registers were obtained.
#[derive(Clone, Debug, PartialEq)]
pub struct CostSummary {
    /// Counters, occupancy and estimate.
    pub report: CostReport,
    /// Where registers came from.
    pub registers: RegisterSource,
}

impl CostSummary {
    /// The report as `stencil-run --cost` prints it: work per kernel, in total and per point
    /// update; resources, occupancy and estimated time per kernel; the estimate.
    pub fn render_text(&self) -> String {
        render::render_text(self)
    }

    /// The report as `stencil-run --cost --json` writes it (`target_stats.sim.cost`).
    pub fn to_json(&self) -> serde_json::Value {
        render::to_json(self)
    }
}

impl std::fmt::Display for CostSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render_text())
    }
}

/// The PTX of the kernels: the `--ptx` file's, or compiled by MLIR; `Err` says why there is
/// none.
fn kernel_ptx(module: &Module, request: &CostRequest<'_>) -> Result<(Vec<PtxModule>, String), String> {
    if let Some(modules) = request.precompiled {
        return Ok((modules.to_vec(), "from the --ptx file".to_string()));
    }
    let defaults = PtxOptions::with_found_libdevice();
    let options = PtxOptions {
        chip: request.chip.unwrap_or(DEFAULT_CHIP).to_string(),
        index_bitwidth: request.index_bitwidth.unwrap_or(defaults.index_bitwidth),
        ..defaults
    };
    match compile_gpu_modules(&module.ir, request.dialects, module.top, &options) {
        Ok(modules) => {
            let flags = stencil_lowering::ptx::llvm_options::current().describe();
            Ok((modules, format!("compiled by MLIR{flags}")))
        }
        Err(PtxError::MlirUnavailable { .. }) => Err(
            "this build has no MLIR to compile the kernels to PTX (pass --ptx FILE, written by `stencil-opt --emit=ptx`)"
                .to_string(),
        ),
        Err(e) => Err(format!("compiling the kernels to PTX failed: {e}")),
    }
}

/// Registers, spills and shared memory of every kernel of `module`, by `module::kernel`.
fn kernel_resources(
    module: &Module,
    request: &CostRequest<'_>,
) -> Result<(HashMap<String, KernelResources>, RegisterSource), String> {
    let (modules, origin) = kernel_ptx(module, request)?;
    let ptxas = Ptxas::find().map_err(|e| format!("no ptxas: {e}"))?;
    let mut resources = HashMap::new();
    let (mut chip, mut index_bitwidth) =
        (request.chip.unwrap_or(DEFAULT_CHIP).to_string(), request.index_bitwidth.unwrap_or(64));
    for m in &modules {
        let report =
            ptxas.assemble(&m.ptx, &m.chip).map_err(|e| format!("ptxas failed on gpu.module @{}: {e}", m.name))?;
        (chip, index_bitwidth) = (m.chip.clone(), m.index_bitwidth);
        for k in &m.kernels {
            let Some(f) = report.kernel(&k.name) else {
                tracing::warn!(module = %m.name, kernel = %k.name, "ptxas reported nothing for this kernel");
                continue;
            };
            let Some(registers) = f.registers else { continue };
            resources.insert(
                format!("{}::{}", m.name, k.name),
                KernelResources {
                    registers,
                    shared_bytes: f.shared_bytes,
                    spill_store_bytes: f.spill_store_bytes,
                    spill_load_bytes: f.spill_load_bytes,
                },
            );
        }
    }
    Ok((resources, RegisterSource::Ptxas { chip, index_bitwidth, ptx: origin }))
}

/// The cost report of simulation `sim` of `module` with `point_updates` point updates, on the
/// default device model (an H100).
pub fn cost_summary(module: &Module, sim: &SimReport, point_updates: u64, request: &CostRequest<'_>) -> CostSummary {
    let (resources, registers) = kernel_resources(module, request).unwrap_or_else(|reason| {
        tracing::info!(%reason, "--cost: kernel registers unknown");
        (HashMap::new(), RegisterSource::Unknown { reason })
    });
    let report = CostReport::new(sim, &resources, &DeviceModel::default(), point_updates);
    CostSummary { report, registers }
}
