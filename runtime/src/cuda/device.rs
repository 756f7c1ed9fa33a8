//! Opening a GPU: probing for the driver library before cudarc touches it (cudarc panics on
//! its first call when libcuda cannot be loaded), creating the context and stream, and
//! querying what the device offers instead of assuming an H100.

use super::error::CudaError;
use cudarc::driver::sys::CUdevice_attribute as Attr;
use cudarc::driver::{CudaContext, CudaStream, DriverError};
use std::fmt;
use std::sync::Arc;

/// The driver library the executor needs: the one every NVIDIA driver installs (the
/// unversioned `libcuda.so` exists only with development packages).
pub const DRIVER_LIBRARY: &str = "libcuda.so.1";

/// Whether an NVIDIA driver library can be loaded on this machine. `Err` carries the
/// dynamic loader's message.
pub fn probe_driver() -> Result<(), CudaError> {
    // SAFETY: loading the driver library runs its initialisers, which is what every CUDA
    // program does; NVIDIA's driver library is made to be dlopen'ed. The handle is dropped at
    // once: cudarc keeps its own.
    match unsafe { libloading::Library::new(DRIVER_LIBRARY) } {
        Ok(_) => Ok(()),
        Err(e) => {
            // libloading keeps the dynamic loader's own words (`cannot open shared object
            // file`) in the error's source.
            let mut detail = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                detail.push_str(&format!(": {s}"));
                source = s.source();
            }
            Err(CudaError::NoDriver { detail })
        }
    }
}

/// What a device offers, queried from the driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceProperties {
    /// Ordinal of the device (`CUDA_VISIBLE_DEVICES` numbering).
    pub ordinal: usize,
    /// Marketing name (`NVIDIA H100 80GB HBM3`).
    pub name: String,
    /// Compute capability, major and minor (9.0 for an H100).
    pub compute_capability: (i32, i32),
    /// Number of streaming multiprocessors.
    pub multiprocessors: u32,
    /// Most threads a block may have.
    pub max_threads_per_block: u32,
    /// Most threads along x, y, z of a block.
    pub max_block_dims: [u32; 3],
    /// Most blocks along x, y, z of a grid.
    pub max_grid_dims: [u32; 3],
    /// Shared memory a block gets without opting in (static shared memory), bytes.
    pub shared_memory_per_block: u64,
    /// Shared memory a block may get after opting in (dynamic shared memory), bytes.
    pub shared_memory_per_block_optin: u64,
    /// Shared memory of one multiprocessor, bytes.
    pub shared_memory_per_multiprocessor: u64,
    /// 32-bit registers one block may use.
    pub registers_per_block: u32,
    /// 32-bit registers of one multiprocessor.
    pub registers_per_multiprocessor: u32,
    /// L2 cache, bytes.
    pub l2_cache_bytes: u64,
    /// Device memory, bytes.
    pub total_memory: u64,
    /// Peak memory clock, kHz (0 when the driver does not say).
    pub memory_clock_khz: u64,
    /// Memory bus width, bits (0 when the driver does not say).
    pub memory_bus_width_bits: u64,
    /// The driver's CUDA version, as `cuDriverGetVersion` gives it (12080 for 12.8).
    pub driver_version: i32,
}

impl DeviceProperties {
    /// `sm_XY`, the chip name PTX targets.
    pub fn chip(&self) -> String {
        format!("sm_{}{}", self.compute_capability.0, self.compute_capability.1)
    }

    /// The driver version as `major.minor`.
    pub fn driver_version_text(&self) -> String {
        format!("{}.{}", self.driver_version / 1000, (self.driver_version % 1000) / 10)
    }

    /// Theoretical peak memory bandwidth in bytes per second (double data rate × bus
    /// width), when the driver reports clock and width.
    pub fn peak_bandwidth(&self) -> Option<f64> {
        (self.memory_clock_khz > 0 && self.memory_bus_width_bits > 0)
            .then(|| 2.0 * self.memory_clock_khz as f64 * 1e3 * self.memory_bus_width_bits as f64 / 8.0)
    }
}

impl fmt::Display for DeviceProperties {
    /// One line: name, chip, SMs, shared memory, registers, memory, driver.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, {} SMs, {} KiB shared memory per block ({} KiB opt-in), {} K registers per SM, {:.1} GiB, driver {})",
            self.name,
            self.chip(),
            self.multiprocessors,
            self.shared_memory_per_block / 1024,
            self.shared_memory_per_block_optin / 1024,
            self.registers_per_multiprocessor / 1024,
            self.total_memory as f64 / f64::from(1u32 << 30),
            self.driver_version_text()
        )
    }
}

/// An opened GPU: a context (the device's primary context), the stream every copy and
/// launch goes to, and the device's properties.
pub struct CudaDevice {
    pub(super) ctx: Arc<CudaContext>,
    pub(super) stream: Arc<CudaStream>,
    properties: DeviceProperties,
}

impl fmt::Debug for CudaDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CudaDevice").field("properties", &self.properties).finish_non_exhaustive()
    }
}

fn is_no_device(e: &DriverError) -> bool {
    use cudarc::driver::sys::cudaError_enum as E;
    matches!(e.0, E::CUDA_ERROR_NO_DEVICE | E::CUDA_ERROR_INVALID_DEVICE | E::CUDA_ERROR_NOT_INITIALIZED)
}

impl CudaDevice {
    /// Opens device `ordinal`. Without a driver: [`CudaError::NoDriver`]; without a device:
    /// [`CudaError::NoDevice`]; neither panics.
    pub fn open(ordinal: usize) -> Result<CudaDevice, CudaError> {
        probe_driver()?;
        // cudarc resolves each driver symbol on first use and panics when one is missing (a
        // driver older than the API version we build against): turn that into an error too.
        let ctx = std::panic::catch_unwind(|| CudaContext::new(ordinal))
            .map_err(|panic| {
                let detail = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "the CUDA driver library could not be used".into());
                CudaError::NoDriver { detail }
            })?
            .map_err(|e| {
                if is_no_device(&e) {
                    CudaError::NoDevice { detail: e.to_string() }
                } else {
                    CudaError::Driver { during: format!("opening GPU {ordinal}"), source: e }
                }
            })?;
        // Every copy and launch goes to one stream, in order, and launches receive raw device
        // pointers: cudarc's per-buffer event tracking (for multi-stream programs) would only
        // add work to every launch.
        // SAFETY: no buffer of this context exists yet, and all work uses the one stream.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let properties = query_properties(&ctx, ordinal)?;
        tracing::info!(device = %properties, "opened GPU");
        Ok(CudaDevice { ctx, stream, properties })
    }

    /// What the device offers.
    pub fn properties(&self) -> &DeviceProperties {
        &self.properties
    }
}

fn query_properties(ctx: &Arc<CudaContext>, ordinal: usize) -> Result<DeviceProperties, CudaError> {
    let attr = |a: Attr| -> Result<u64, CudaError> {
        let v = ctx.attribute(a).map_err(CudaError::driver(format!("querying {a:?}")))?;
        Ok(u64::try_from(v).unwrap_or(0))
    };
    let attr32 = |a: Attr| -> Result<u32, CudaError> { Ok(u32::try_from(attr(a)?).unwrap_or(u32::MAX)) };
    let mut driver_version = 0i32;
    // SAFETY: cuDriverGetVersion only writes the integer it is given.
    unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut driver_version) }
        .result()
        .map_err(CudaError::driver("querying the driver version"))?;
    Ok(DeviceProperties {
        ordinal,
        name: ctx.name().map_err(CudaError::driver("querying the device name"))?,
        compute_capability: ctx.compute_capability().map_err(CudaError::driver("querying the compute capability"))?,
        multiprocessors: attr32(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        max_threads_per_block: attr32(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
        max_block_dims: [
            attr32(Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)?,
            attr32(Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)?,
            attr32(Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)?,
        ],
        max_grid_dims: [
            attr32(Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
            attr32(Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
            attr32(Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
        ],
        shared_memory_per_block: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
        shared_memory_per_block_optin: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
        shared_memory_per_multiprocessor: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?,
        registers_per_block: attr32(Attr::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)?,
        registers_per_multiprocessor: attr32(Attr::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)?,
        l2_cache_bytes: attr(Attr::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
        total_memory: ctx.total_mem().map_err(CudaError::driver("querying the device memory"))? as u64,
        memory_clock_khz: attr(Attr::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE).unwrap_or(0),
        memory_bus_width_bits: attr(Attr::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH).unwrap_or(0),
        driver_version,
    })
}
