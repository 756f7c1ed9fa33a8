//! Process-wide options of the LLVM code generator that [`super::compile_gpu_modules`] runs
//! (through MLIR's `gpu-module-to-binary`), for experiments the kernels' pipeline cannot ask
//! for per compilation.
//!
//! **Loop strength reduction** (LLVM's `LoopStrengthReduce`, an `llc` pass): it turns each
//! address expression affine in a loop's variable into an induction variable of its own, live
//! across the loop. Our kernels have many such expressions (guards, staged buffers, rings of
//! planes), and on sm_90 ptxas then needs far more registers: the streaming kernel of
//! `jacobi-3d-27pt` (32-bit index) 105 with it, 48 without; 2-D SOR's tiles 39 against 31
//! (docs/gpu.md, "ptxas"). Whether the fewer registers (more blocks per SM) outweigh the
//! address arithmetic LSR saves is for a GPU to say, so it stays on by default.
//!
//! LLVM keeps its options in process-global state and exits the process when an option is
//! given twice, so this is a one-shot switch for a process that owns LLVM (our binaries'
//! `--disable-lsr`), not a per-compilation option: a program that sets LLVM options itself
//! must not call it.

#[cfg(feature = "mlir")]
use std::ffi::{c_char, c_int, CString};
use std::sync::OnceLock;

#[cfg(feature = "mlir")]
extern "C" {
    /// LLVM's C API (`llvm-c/Support.h`), in the `libLLVM` the MLIR build links.
    fn LLVMParseCommandLineOptions(argc: c_int, argv: *const *const c_char, overview: *const c_char);
}

/// The option, once given (whatever the later calls).
static DISABLED: OnceLock<bool> = OnceLock::new();

/// Turns LLVM's loop strength reduction off for every later compilation in this process
/// (`-disable-lsr`); calling it again does nothing. `false` in a build without MLIR (there is
/// no LLVM to configure: its PTX comes from a file).
pub fn disable_loop_strength_reduction() -> bool {
    *DISABLED.get_or_init(|| {
        #[cfg(feature = "mlir")]
        {
            let args: Vec<CString> =
                ["stencil", "-disable-lsr"].iter().map(|a| CString::new(*a).unwrap_or_default()).collect();
            let argv: Vec<*const c_char> = args.iter().map(|a| a.as_ptr()).collect();
            let overview = CString::default();
            // SAFETY: `argv` holds two valid NUL-terminated strings that outlive the call, and
            // the option is parsed once per process (the OnceLock), as LLVM requires.
            unsafe { LLVMParseCommandLineOptions(argv.len() as c_int, argv.as_ptr(), overview.as_ptr()) };
            true
        }
        #[cfg(not(feature = "mlir"))]
        {
            false
        }
    })
}

/// Whether [`disable_loop_strength_reduction`] turned it off in this process.
pub fn loop_strength_reduction_disabled() -> bool {
    DISABLED.get().copied().unwrap_or(false)
}
