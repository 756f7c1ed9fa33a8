//! Process-wide options of the LLVM code generator that [`super::compile_gpu_modules`] runs
//! (through MLIR's `gpu-module-to-binary`), which the kernels' pipeline cannot ask for per
//! compilation: LLVM keeps them in process-global state, and MLIR creates the NVPTX target
//! machine itself.
//!
//! **Short pointers** (`-nvptx-short-ptr`): pointers to shared, local and constant memory
//! 32 bits wide, as `nvcc` and Triton compile them (those windows are at most a few hundred
//! KiB). Without it every shared-memory address is a 64-bit pair of registers built by a
//! widening multiply and a 64-bit add; with it, one 32-bit register, and each neighbour's
//! address becomes the load's immediate offset (the innermost loops' SASS: Jacobi-2D's
//! overlapped tiles 50 → 35 instructions per point, Jacobi-3D's streaming kernel 77 → 65,
//! `bench/results/2026-11-29-sass-loops-short-pointers.txt`).
//!
//! **Loop strength reduction** (LLVM's `LoopStrengthReduce`, an `llc` pass): it turns each
//! address expression affine in a loop's variable into an induction variable of its own, live
//! across the loop. Our kernels have many such expressions (guards, staged buffers, rings of
//! planes), and ptxas then needs more registers (2-D SOR's tiles 39 against 31) while the
//! addresses it saves are cheap once shared pointers are short.
//!
//! Both choices (short pointers on, loop strength reduction off) are in
//! [`CodegenFlags::RECOMMENDED`], what our binaries compile with by default: on an H200
//! (`bench/results/2026-11-30-h200-82b2037`, every kernel bit-exact) Jacobi-2D f32's overlapped
//! kernel runs 1.47× faster with short pointers (f64 1.12×), Jacobi-3D f32's streaming one
//! 1.12–1.19× with both, and with loop strength reduction off as well no measured kernel is
//! slower than with LLVM's defaults (short pointers alone took 2-D SOR f32's tiles to 0.85×).
//!
//! **Divisions by constants** (ours, `super::constant_division`): `x / c` as `x · RN(1/c)` and
//! one fused correction, the same quotient as `div.rn` (on Jacobi-2D's overlapped f64 kernel
//! about 28 instructions per point on the fast path instead of 36). On by default too
//! (`RECOMMENDED`) before any GPU has run it: it is bit-exact by construction and checked
//! against IEEE division on the CPU; the GPU bundle's checks run every kernel with it first,
//! and its `div-rn` rows time it.
//!
//! **Flat addresses** (ours, `super::flat_addresses`): a kernel's accesses to one argument at
//! constant offsets from each other (a stencil's neighbours) index a flat view of it from one
//! row-major index, so that LLVM keeps each neighbour's offset as the load's immediate (3-D
//! SOR's global-memory tiles: 43 → 37 SASS instructions per point, 40 → 32 registers). On by
//! default before any GPU has run it, like the divisions: the same addresses by construction,
//! the simulator runs the rewritten kernels bit-exact in `cargo test`, and the bundle's
//! `flat-off` rows (`--flat-addresses=false`) time it.
//!
//! LLVM exits the process when an option is given twice, so the flags are applied once per
//! process ([`configure`]), by a program that owns LLVM — our binaries, at start-up. The
//! library never applies them on its own: a program that embeds it compiles with LLVM's
//! defaults ([`CodegenFlags::LLVM_DEFAULTS`], what our binaries compile with
//! `--short-pointers=false --loop-strength-reduction --reciprocal-division=false
//! --flat-addresses=false`) unless it calls
//! `configure(CodegenFlags::RECOMMENDED)` itself, once, and only if it does not set these LLVM
//! options on its own.

#[cfg(feature = "mlir")]
use std::ffi::{c_char, c_int, CString};
use std::sync::OnceLock;

#[cfg(feature = "mlir")]
extern "C" {
    /// LLVM's C API (`llvm-c/Support.h`), in the `libLLVM` the MLIR build links.
    fn LLVMParseCommandLineOptions(argc: c_int, argv: *const *const c_char, overview: *const c_char);
}

/// The code-generator flags [`configure`] applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CodegenFlags {
    /// 32-bit pointers to shared, local and constant memory (`-nvptx-short-ptr`).
    pub short_pointers: bool,
    /// LLVM's loop strength reduction (`false`: `-disable-lsr`).
    pub loop_strength_reduction: bool,
    /// Divisions by constants as a multiplication by the rounded reciprocal and one correction
    /// (the same quotients; `super::constant_division`). Ours, not LLVM's: kept with LLVM's
    /// options so that the binaries, their reports and the library set all of how PTX is
    /// generated in one place.
    pub reciprocal_division: bool,
    /// Neighbouring accesses to a kernel argument through one flat index and constant offsets
    /// (the same addresses; `super::flat_addresses`). Ours, like `reciprocal_division`.
    pub flat_addresses: bool,
}

impl CodegenFlags {
    /// LLVM's own defaults: what a process compiles when nobody called [`configure`].
    pub const LLVM_DEFAULTS: CodegenFlags = CodegenFlags {
        short_pointers: false,
        loop_strength_reduction: true,
        reciprocal_division: false,
        flat_addresses: false,
    };

    /// What `stencil-opt` and `stencil-run` compile with unless told otherwise (module docs):
    /// short pointers and loop strength reduction off, the fastest measured on an H200, and
    /// divisions by constants through the reciprocal and neighbouring accesses through flat
    /// indices — fewer instructions per point, on by default before their first GPU run (the
    /// bundle's checks run them bit-exact first).
    pub const RECOMMENDED: CodegenFlags = CodegenFlags {
        short_pointers: true,
        loop_strength_reduction: false,
        reciprocal_division: true,
        flat_addresses: true,
    };

    /// The LLVM options that differ from [`Self::LLVM_DEFAULTS`].
    fn llvm_arguments(self) -> Vec<&'static str> {
        let mut out = vec![];
        if self.short_pointers {
            out.push("-nvptx-short-ptr");
        }
        if !self.loop_strength_reduction {
            out.push("-disable-lsr");
        }
        out
    }

    /// How the kernels were compiled, for reports, where it differs from [`Self::RECOMMENDED`]
    /// (our binaries' default): `""` for it, else `", 64-bit shared pointers, LLVM loop strength
    /// reduction on"` and the like.
    pub fn describe(self) -> String {
        let mut out = String::new();
        if self.short_pointers != Self::RECOMMENDED.short_pointers {
            out.push_str(if self.short_pointers { ", 32-bit shared pointers" } else { ", 64-bit shared pointers" });
        }
        if self.loop_strength_reduction != Self::RECOMMENDED.loop_strength_reduction {
            out.push_str(if self.loop_strength_reduction {
                ", LLVM loop strength reduction on"
            } else {
                ", LLVM loop strength reduction off"
            });
        }
        if self.reciprocal_division != Self::RECOMMENDED.reciprocal_division {
            out.push_str(if self.reciprocal_division {
                ", divisions by constants through the reciprocal"
            } else {
                ", divisions by constants as div.rn"
            });
        }
        if self.flat_addresses != Self::RECOMMENDED.flat_addresses {
            out.push_str(if self.flat_addresses {
                ", neighbouring accesses through flat indices"
            } else {
                ", accesses indexed per dimension"
            });
        }
        out
    }
}

/// Why [`configure`] refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigureError {
    /// This build compiles no PTX (no MLIR, no LLVM to configure).
    #[error("this build has no MLIR (no LLVM to configure)")]
    NoLlvm,
    /// The process was configured before with other flags (LLVM takes its options once).
    #[error("LLVM's code-generator options were set before in this process ({0:?}); they can be set once")]
    AlreadyConfigured(CodegenFlags),
}

/// The flags applied in this process, once [`configure`] ran.
static APPLIED: OnceLock<CodegenFlags> = OnceLock::new();

/// Applies `flags` to LLVM for every later compilation in this process. Calling it again with
/// the same flags does nothing; with others it is refused (LLVM takes its options once), as is
/// any call in a build without MLIR, where PTX comes from a file.
pub fn configure(flags: CodegenFlags) -> Result<(), ConfigureError> {
    if !cfg!(feature = "mlir") {
        return Err(ConfigureError::NoLlvm);
    }
    let applied = *APPLIED.get_or_init(|| {
        apply(&flags.llvm_arguments());
        flags
    });
    if applied == flags {
        Ok(())
    } else {
        Err(ConfigureError::AlreadyConfigured(applied))
    }
}

/// Parses `arguments` as LLVM's command line (nothing for none).
fn apply(arguments: &[&str]) {
    #[cfg(feature = "mlir")]
    if !arguments.is_empty() {
        let args: Vec<CString> = std::iter::once("stencil")
            .chain(arguments.iter().copied())
            .map(|a| CString::new(a).unwrap_or_default())
            .collect();
        let argv: Vec<*const c_char> = args.iter().map(|a| a.as_ptr()).collect();
        let overview = CString::default();
        // SAFETY: `argv` holds valid NUL-terminated strings that outlive the call, and the
        // options are parsed once per process (`APPLIED`), as LLVM requires.
        unsafe { LLVMParseCommandLineOptions(argv.len() as c_int, argv.as_ptr(), overview.as_ptr()) };
    }
    #[cfg(not(feature = "mlir"))]
    let _ = arguments;
}

/// The flags this process compiles with: those [`configure`] applied, else LLVM's defaults.
pub fn current() -> CodegenFlags {
    APPLIED.get().copied().unwrap_or(CodegenFlags::LLVM_DEFAULTS)
}

#[cfg(test)]
mod tests {
    use super::CodegenFlags;

    #[test]
    fn only_options_that_differ_from_llvm_are_passed() {
        assert!(CodegenFlags::LLVM_DEFAULTS.llvm_arguments().is_empty());
        let short = CodegenFlags { short_pointers: true, ..CodegenFlags::LLVM_DEFAULTS };
        assert_eq!(short.llvm_arguments(), ["-nvptx-short-ptr"]);
        let both = CodegenFlags {
            short_pointers: true,
            loop_strength_reduction: false,
            reciprocal_division: true,
            flat_addresses: true,
        };
        assert_eq!(both.llvm_arguments(), ["-nvptx-short-ptr", "-disable-lsr"]);
        assert_eq!(both, CodegenFlags::RECOMMENDED);
        assert_eq!(CodegenFlags::RECOMMENDED.describe(), "");
        assert_eq!(
            CodegenFlags::LLVM_DEFAULTS.describe(),
            ", 64-bit shared pointers, LLVM loop strength reduction on, divisions by constants as div.rn, accesses \
             indexed per dimension"
        );
    }
}
