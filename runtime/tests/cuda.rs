//! The CUDA executor on the machine at hand: without an NVIDIA driver, opening a device is the
//! clean "no driver" error (cudarc would panic on its first call); with one, the device's
//! properties are queried. Running programs on a GPU is tested in
//! `driver/tests/gpu_examples.rs` (the driver compiles the PTX).

use stencil_runtime::cuda::{probe_driver, CudaDevice, CudaError};

#[test]
fn opening_a_gpu_without_a_driver_is_a_clean_error() {
    let probed = probe_driver();
    let opened = std::panic::catch_unwind(|| CudaDevice::open(0));
    let opened = opened.expect("CudaDevice::open must never panic");
    match probed {
        Err(_) => {
            let e = opened.expect_err("no driver, yet a device opened");
            assert!(matches!(e, CudaError::NoDriver { .. }), "expected the no-driver error, got: {e}");
            assert!(e.is_unavailable());
            let message = e.to_string();
            assert!(
                message.starts_with("no NVIDIA driver (libcuda.so.1) found: use --target sim"),
                "unclear message: {message}"
            );
            eprintln!("GPU checks skipped: no NVIDIA driver ({message})");
        }
        Ok(()) => match opened {
            Ok(device) => {
                let p = device.properties();
                eprintln!("GPU: {p}");
                assert!(p.multiprocessors > 0 && p.max_threads_per_block > 0 && p.registers_per_multiprocessor > 0);
                assert!(p.shared_memory_per_block > 0 && p.total_memory > 0, "{p:?}");
                assert!(p.chip().starts_with("sm_"));
            }
            Err(e) => {
                assert!(e.is_unavailable(), "a driver is installed but opening GPU 0 failed: {e}");
                eprintln!("GPU checks skipped: {e}");
            }
        },
    }
}
