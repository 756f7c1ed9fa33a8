//! What can go wrong on a real GPU: no driver, no device, a driver call that fails, PTX the
//! driver rejects, a kernel parameter list that does not match the launch, or an error of the
//! host program (the loop interpreter's [`RuntimeError`]).

use crate::error::RuntimeError;
use cudarc::driver::DriverError;

/// Every failure of the CUDA executor. The first two are the normal state of a machine
/// without a GPU; callers (tests, `stencil-run --target gpu`) recognise them with
/// [`CudaError::is_unavailable`].
#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    /// `libcuda.so.1` cannot be loaded: no NVIDIA driver is installed.
    #[error("no NVIDIA driver (libcuda.so.1) found: use --target sim (the GPU simulator) instead; loading it failed with: {detail}")]
    NoDriver {
        /// The dynamic loader's message.
        detail: String,
    },
    /// The driver loads but offers no usable device (none installed, or hidden by
    /// `CUDA_VISIBLE_DEVICES`).
    #[error("the NVIDIA driver found no usable GPU ({detail}): use --target sim (the GPU simulator) instead")]
    NoDevice {
        /// The driver's answer.
        detail: String,
    },
    /// A driver call failed.
    #[error("CUDA driver error while {during}: {source}")]
    Driver {
        /// What the executor was doing.
        during: String,
        /// The driver's error code and message.
        source: DriverError,
    },
    /// The driver rejected the PTX of a `gpu.module`.
    #[error("the CUDA driver rejected the PTX of gpu.module @{module}: {source}{hint}")]
    ModuleLoad {
        /// The `gpu.module`.
        module: String,
        /// The driver's error.
        source: DriverError,
        /// What to do about it (empty when we have no advice).
        hint: String,
    },
    /// The kernels the host function launches and the PTX handed to the executor do not
    /// fit together (a kernel without PTX, a parameter list that is not the documented ABI).
    #[error("kernel @{kernel}: {message}")]
    Abi {
        /// The kernel, as `module::kernel`.
        kernel: String,
        /// What does not fit.
        message: String,
    },
    /// The program is outside what the executor supports (say, a host function that reads a
    /// buffer the executor keeps on the device).
    #[error("{0}")]
    Unsupported(String),
    /// An error of the program itself: parameters, fields, the host function's interpretation,
    /// a launch the device cannot run.
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
}

impl CudaError {
    /// Whether the error says that this machine has no GPU to run on (no driver or no
    /// device), as opposed to a failure of the program or of the GPU.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, CudaError::NoDriver { .. } | CudaError::NoDevice { .. })
    }

    /// A [`CudaError::Driver`] for a failed call made while doing `during`.
    pub(crate) fn driver(during: impl Into<String>) -> impl FnOnce(DriverError) -> CudaError {
        let during = during.into();
        move |source| CudaError::Driver { during, source }
    }
}
