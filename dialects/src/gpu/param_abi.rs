//! The parameter ABI of a `gpu.func` once MLIR compiles it to PTX: how each argument becomes
//! PTX `.param`s under MLIR's default memref calling convention (`convert-gpu-to-nvvm`).
//!
//! A `memref<d0 x … x d(r-1) x T>` argument is passed as its descriptor, flattened into
//! `3 + 2r` parameters — allocated pointer, aligned pointer, offset, the `r` sizes, the `r`
//! strides (sizes, strides and offset are 64-bit integers counted in elements; the pointers are
//! 64-bit generic addresses). Static dimensions are passed too: the kernel ignores them but the
//! parameters exist. Scalars (`index`, `iN`, `fN`) are one parameter each.
//!
//! Both the compiler (which pairs these roles with the `.entry` MLIR produced) and the CUDA
//! executor (which fills the parameters when it launches) read the convention from here, so
//! that the two sides cannot drift apart.

use std::fmt;
use stencil_ir::types::FloatKind;
use stencil_ir::Type;

/// What one PTX parameter of a kernel holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParamRole {
    /// A scalar argument passed by value (`index` at the kernels' index width).
    Scalar,
    /// The memref's `allocatedPtr`: the pointer its buffer was allocated at. Kernels never
    /// dereference it; pass the same pointer as [`ParamRole::AlignedPointer`].
    AllocatedPointer,
    /// The memref's `alignedPtr`: the base the element addresses are computed from.
    AlignedPointer,
    /// Offset, in elements, of the memref's first element from the aligned pointer (0 for a
    /// whole buffer).
    Offset,
    /// The size of dimension `dim` (0-based, outermost first).
    Size {
        /// The dimension.
        dim: usize,
    },
    /// The stride, in elements, of dimension `dim` (row-major: the innermost stride is 1).
    Stride {
        /// The dimension.
        dim: usize,
    },
}

impl fmt::Display for ParamRole {
    /// Short names, as `stencil-opt --emit=ptx` lists them: `allocated`, `aligned`, `offset`,
    /// `size[0]`, `stride[1]`, `scalar`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamRole::Scalar => f.write_str("scalar"),
            ParamRole::AllocatedPointer => f.write_str("allocated"),
            ParamRole::AlignedPointer => f.write_str("aligned"),
            ParamRole::Offset => f.write_str("offset"),
            ParamRole::Size { dim } => write!(f, "size[{dim}]"),
            ParamRole::Stride { dim } => write!(f, "stride[{dim}]"),
        }
    }
}

/// The parameter roles a kernel argument of type `ty` expands into, in `.entry` order, or why
/// it has none.
pub fn param_roles(ty: &Type) -> Result<Vec<ParamRole>, String> {
    match ty {
        Type::Index | Type::Float(FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64) => {
            Ok(vec![ParamRole::Scalar])
        }
        Type::Integer(width) if (1..=64).contains(width) => Ok(vec![ParamRole::Scalar]),
        Type::Integer(width) => Err(format!("{width}-bit integers are wider than any PTX register")),
        Type::MemRef(memref) => {
            let Some(rank) = memref.rank() else {
                return Err("unranked memrefs are passed as a rank and a pointer to a descriptor, \
                            which the CUDA executor does not build; use a ranked memref"
                    .to_string());
            };
            let mut roles = vec![ParamRole::AllocatedPointer, ParamRole::AlignedPointer, ParamRole::Offset];
            roles.extend((0..rank).map(|dim| ParamRole::Size { dim }));
            roles.extend((0..rank).map(|dim| ParamRole::Stride { dim }));
            Ok(roles)
        }
        _ => Err("only index, integer, float and ranked memref arguments have a PTX parameter ABI".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stencil_ir::types::{Dim, MemRefType};

    #[test]
    fn memref_expands_into_its_descriptor() {
        let memref_2d = Type::memref(MemRefType::new(vec![Dim::Dynamic, Dim::Static(8)], Type::F64));
        assert_eq!(
            param_roles(&memref_2d).unwrap(),
            vec![
                ParamRole::AllocatedPointer,
                ParamRole::AlignedPointer,
                ParamRole::Offset,
                ParamRole::Size { dim: 0 },
                ParamRole::Size { dim: 1 },
                ParamRole::Stride { dim: 0 },
                ParamRole::Stride { dim: 1 },
            ]
        );
        assert_eq!(param_roles(&Type::Index).unwrap(), vec![ParamRole::Scalar]);
        assert!(param_roles(&Type::Integer(128)).is_err());
        let unranked = Type::memref(MemRefType { shape: None, element: Type::F32, layout: None, memory_space: None });
        assert!(param_roles(&unranked).is_err());
        let names: Vec<String> = param_roles(&memref_2d).unwrap().iter().map(ToString::to_string).collect();
        assert_eq!(names, ["allocated", "aligned", "offset", "size[0]", "size[1]", "stride[0]", "stride[1]"]);
    }
}
