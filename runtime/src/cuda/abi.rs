//! The PTX the executor loads, as plain data. The runtime does not depend on the compiler
//! (DESIGN §8: only `lowering` talks to MLIR), so whoever compiles the `gpu.module`s — the
//! driver, through `stencil_lowering::ptx` — hands over the PTX text and, per kernel, the
//! parameter list MLIR's calling convention gave each argument (docs/gpu.md, "Kernel
//! parameter ABI").

/// What one PTX parameter of a kernel holds: the convention the compiler describes the PTX
/// with, shared with it through the `gpu` dialect.
pub use stencil_dialects::gpu::ParamRole;

/// One PTX `.param` of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelParam {
    /// Its PTX type: `.u64`, `.u32`, `.u16`, `.u8`, `.f32`, `.f64` (`.b8[2]` for 16-bit
    /// floats, which the executor does not pass).
    pub ptx_type: String,
    /// What it holds.
    pub role: ParamRole,
}

/// One kernel: its `.entry` name and, per argument of the `gpu.func`, the parameters the
/// argument expands into, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxKernelSpec {
    /// The kernel's name (the `gpu.func`'s and the `.entry`'s).
    pub name: String,
    /// Per `gpu.func` argument, its PTX parameters.
    pub arguments: Vec<Vec<KernelParam>>,
}

/// The PTX of one `gpu.module` and its kernels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxModuleSpec {
    /// The `gpu.module`'s symbol name (without `@`): launches name kernels
    /// `@module::@kernel`.
    pub name: String,
    /// The PTX text, as `cuModuleLoadData` takes it.
    pub ptx: String,
    /// Its kernels.
    pub kernels: Vec<PtxKernelSpec>,
}

/// One parameter value, in the width its PTX type asks for.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) enum ParamValue {
    U64(u64),
    U32(u32),
    U16(u16),
    U8(u8),
    F32(f32),
    F64(f64),
}

impl ParamValue {
    /// A scalar of PTX type `ptx_type` from its register encoding (integers sign-extended to
    /// 64 bits, `f32` in the low 32 bits, `f64` as its bits); `None` for a type the executor
    /// cannot pass.
    pub fn scalar(ptx_type: &str, bits: u64) -> Option<ParamValue> {
        // Truncation is the point: a `.u32` parameter holds the low 32 bits of an i32.
        Some(match ptx_type {
            ".u64" | ".s64" | ".b64" => ParamValue::U64(bits),
            ".u32" | ".s32" | ".b32" => ParamValue::U32(bits as u32),
            ".u16" | ".s16" | ".b16" => ParamValue::U16(bits as u16),
            ".u8" | ".s8" | ".b8" => ParamValue::U8(bits as u8),
            ".f32" => ParamValue::F32(f32::from_bits(bits as u32)),
            ".f64" => ParamValue::F64(f64::from_bits(bits)),
            _ => return None,
        })
    }

    /// An integer parameter of a memref descriptor of PTX type `ptx_type`: 64-bit, or 32-bit
    /// for offsets, sizes and strides of kernels compiled with a 32-bit index
    /// (`--gpu-index-bitwidth=32`); `None` for another type, a 32-bit pointer or a value that
    /// does not fit.
    pub fn word(ptx_type: &str, role: ParamRole, value: u64) -> Option<ParamValue> {
        let pointer = matches!(role, ParamRole::AllocatedPointer | ParamRole::AlignedPointer);
        match ptx_type {
            ".u64" | ".s64" | ".b64" => Some(ParamValue::U64(value)),
            // Signed in the kernel: at most i32::MAX.
            ".u32" | ".s32" | ".b32" if !pointer => i32::try_from(value).ok().map(|v| ParamValue::U32(v as u32)),
            _ => None,
        }
    }
}
