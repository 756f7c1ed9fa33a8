//! The parameter ABI of PTX kernels compiled by MLIR: how each `gpu.func` argument becomes PTX
//! `.param`s (docs/gpu.md, "Kernel parameter ABI").
//!
//! `convert-gpu-to-nvvm` uses MLIR's default memref calling convention: a `memref<d0 x … x
//! d(r-1) x T>` argument is passed as its descriptor, flattened into `3 + 2r` parameters —
//! allocated pointer, aligned pointer, offset, the `r` sizes, the `r` strides (sizes, strides
//! and offset are 64-bit integers counted in elements; the pointers are 64-bit generic
//! addresses). Static dimensions are passed too: the kernel ignores them but the parameters
//! exist. Scalars (`index` as 64-bit, `iN`, `fN`) are one parameter each. The roles are derived
//! from the argument types and then checked against the `.entry` MLIR actually produced.

use super::{KernelSignature, PtxError, PtxKernel};
use stencil_dialects::gpu::param_roles;
use stencil_ir::Type;

pub use stencil_dialects::gpu::ParamRole;

/// One PTX `.param` of a kernel `.entry`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxParam {
    /// The parameter's name in the PTX (`jacobi_param_0`).
    pub name: String,
    /// Its PTX type (`.u64`, `.f64`, `.u32`, …; `.b8[2]` for an `f16` passed as bytes).
    pub ptx_type: String,
    /// What it holds.
    pub role: ParamRole,
}

/// One argument of a kernel and the PTX parameters it expands into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArgument {
    /// The argument's type in our IR (`memref<?x?xf64>`, `index`).
    pub ty: Type,
    /// Its parameters, in `.entry` order.
    pub params: Vec<PtxParam>,
}

/// Pairs the expected roles of `signature`'s arguments with the parameters of its `.entry`.
/// Pointers are 64-bit; offsets, sizes and strides are `index_bits` wide (the
/// `index-bitwidth` the kernels were compiled with).
pub(super) fn kernel_abi(ptx: &str, signature: KernelSignature, index_bits: u32) -> Result<PtxKernel, PtxError> {
    let KernelSignature { name, inputs, location } = signature;
    let mismatch = |detail: String| PtxError::AbiMismatch { kernel: name.clone(), detail, location: location.clone() };
    let Some(entry) = entry_params(ptx, &name) else {
        return Err(mismatch(format!("the PTX has no `.entry {name}(…)`")));
    };
    let roles: Vec<Vec<ParamRole>> =
        inputs.iter().map(|ty| param_roles(ty).map_err(&mismatch)).collect::<Result<_, _>>()?;
    let expected: usize = roles.iter().map(Vec::len).sum();
    if expected != entry.len() {
        return Err(mismatch(format!(
            "{} arguments should expand into {expected} parameters, the .entry has {}",
            inputs.len(),
            entry.len()
        )));
    }
    let mut entry = entry.into_iter();
    let mut arguments = Vec::with_capacity(inputs.len());
    for (ty, roles) in inputs.into_iter().zip(roles) {
        let mut params = Vec::with_capacity(roles.len());
        for role in roles {
            // The count check above guarantees a parameter for every role.
            let Some((ptx_type, param_name)) = entry.next() else { break };
            let bits = match role {
                ParamRole::Scalar => None,
                ParamRole::AllocatedPointer | ParamRole::AlignedPointer => Some(64),
                ParamRole::Offset | ParamRole::Size { .. } | ParamRole::Stride { .. } => Some(index_bits),
            };
            if let Some(bits) = bits {
                let widths = [format!(".u{bits}"), format!(".b{bits}"), format!(".s{bits}")];
                if !widths.contains(&ptx_type) {
                    return Err(mismatch(format!(
                        "parameter {param_name} ({role:?} of a {ty}) should be {bits}-bit, the .entry declares {ptx_type}"
                    )));
                }
            }
            params.push(PtxParam { name: param_name, ptx_type, role });
        }
        arguments.push(KernelArgument { ty, params });
    }
    Ok(PtxKernel { name, arguments })
}

/// The `(type, name)` of each parameter of `.entry name(…)`, or `None` when there is no such
/// entry. LLVM prints one parameter per line: `.param .u64 .ptr .align 1 k_param_0,`.
pub(super) fn entry_params(ptx: &str, name: &str) -> Option<Vec<(String, String)>> {
    let header = format!(".entry {name}(");
    let start = ptx.find(&header)? + header.len();
    let len = ptx[start..].find(')')?;
    let params = ptx[start..start + len]
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|param| {
            let tokens: Vec<&str> = param.split_whitespace().collect();
            let mut ptx_type =
                tokens.iter().skip(1).find(|t| is_ptx_value_type(t)).map_or_else(String::new, |t| (*t).to_string());
            // Values without a PTX register type (f16, bf16) are byte arrays: `.b8 k_param_7[2]`.
            let last = tokens.last().copied().unwrap_or_default();
            let (name, array) = last.split_at(last.find('[').unwrap_or(last.len()));
            ptx_type.push_str(array);
            (ptx_type, name.to_string())
        })
        .collect();
    Some(params)
}

/// `.u64`, `.s32`, `.f64`, `.b8`, `.pred`: PTX fundamental types (not `.ptr`, `.align`, …).
fn is_ptx_value_type(token: &str) -> bool {
    if token == ".pred" {
        return true;
    }
    let Some(rest) = token.strip_prefix('.') else { return false };
    let mut chars = rest.chars();
    matches!(chars.next(), Some('u' | 's' | 'b' | 'f')) && {
        let bits = chars.as_str();
        !bits.is_empty() && bits.chars().all(|c| c.is_ascii_digit())
    }
}

/// The libdevice functions (`__nv_*`) the PTX declares `.extern` — calls nobody defines,
/// left when MLIR had no libdevice to link. ptxas rejects such PTX.
pub(super) fn undefined_libdevice_functions(ptx: &str) -> Vec<String> {
    let mut functions: Vec<String> = ptx
        .lines()
        .filter(|line| line.trim_start().starts_with(".extern .func"))
        .filter_map(|line| {
            let at = line.find("__nv_")?;
            let name: String = line[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            Some(name)
        })
        .collect();
    functions.sort();
    functions.dedup();
    functions
}

#[cfg(test)]
mod tests {
    use super::*;
    use stencil_ir::types::{Dim, FloatKind, MemRefType};
    use stencil_ir::Location;

    const PTX: &str = "\
.version 7.8
.target sm_90
.address_size 64

.extern .func  (.param .b64 func_retval0) __nv_exp
(
\t.param .b64 __nv_exp_param_0
)
;

.visible .entry k(
\t.param .u64 .ptr .align 1 k_param_0,
\t.param .u64 .ptr .align 1 k_param_1,
\t.param .u64 k_param_2,
\t.param .u64 k_param_3,
\t.param .u64 k_param_4,
\t.param .u64 k_param_5,
\t.param .u64 k_param_6,
\t.param .f64 k_param_7
)
{
\tret;
}

.visible .entry half(
\t.param .align 2 .b8 half_param_0[2]
)
{
\tret;
}

.visible .entry empty()
{
\tret;
}
";

    fn signature(name: &str, inputs: Vec<Type>) -> KernelSignature {
        KernelSignature { name: name.to_string(), inputs, location: Location::Unknown }
    }

    fn memref_2d() -> Type {
        Type::memref(MemRefType::new(vec![Dim::Dynamic, Dim::Static(8)], Type::F64))
    }

    #[test]
    fn entry_parameters_are_paired_with_roles() {
        let kernel = kernel_abi(PTX, signature("k", vec![memref_2d(), Type::F64]), 64).unwrap();
        assert_eq!(kernel.arguments.len(), 2);
        assert_eq!(kernel.arguments[0].params.len(), 7);
        assert_eq!(kernel.arguments[0].params[1].role, ParamRole::AlignedPointer);
        assert_eq!(kernel.arguments[0].params[6].name, "k_param_6");
        assert_eq!(
            kernel.arguments[1].params,
            vec![PtxParam { name: "k_param_7".into(), ptx_type: ".f64".into(), role: ParamRole::Scalar }]
        );
        assert_eq!(kernel.params().count(), 8);
        assert_eq!(kernel_abi(PTX, signature("empty", vec![]), 64).unwrap().arguments, vec![]);
        let half = kernel_abi(PTX, signature("half", vec![Type::Float(FloatKind::F16)]), 64).unwrap();
        assert_eq!(
            half.arguments[0].params,
            vec![PtxParam { name: "half_param_0".into(), ptx_type: ".b8[2]".into(), role: ParamRole::Scalar }]
        );
    }

    #[test]
    fn mismatches_are_errors() {
        let missing = kernel_abi(PTX, signature("nope", vec![]), 64).unwrap_err();
        assert!(missing.to_string().contains("no `.entry nope"), "{missing}");
        let count = kernel_abi(PTX, signature("k", vec![memref_2d()]), 64).unwrap_err();
        assert!(count.to_string().contains("expand into 7 parameters, the .entry has 8"), "{count}");
        let width = kernel_abi(PTX, signature("k", vec![Type::F64, memref_2d()]), 64).unwrap_err();
        assert!(width.to_string().contains("should be 64-bit, the .entry declares .f64"), "{width}");
    }

    #[test]
    fn extern_libdevice_calls_are_found() {
        assert_eq!(undefined_libdevice_functions(PTX), vec!["__nv_exp".to_string()]);
        assert!(undefined_libdevice_functions(".visible .entry k()\n{\n}\n").is_empty());
    }
}
