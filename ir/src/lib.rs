//! `stencil-ir`: the MLIR-style core of stencil-opt.
//!
//! Arena-based IR (ops, blocks, regions, values addressed by typed ids), builtin types and
//! attributes, affine maps, a parser and printer for MLIR's textual format (generic form for
//! any op, custom forms through registered hooks), a verifier, a dialect/op registry, and a
//! pass manager with the generic `canonicalize` and `cse` passes. Dialects live in
//! `stencil-dialects`; this crate knows no op by name except `builtin.module`, which the
//! parser creates implicitly around top-level ops.

pub mod affine;
pub mod attributes;
pub mod diagnostics;
pub mod entity;
pub mod float_format;
pub mod ir;
pub mod location;
pub mod parser;
pub mod pass;
pub mod printer;
pub mod registry;
pub mod symbols;
pub mod types;
pub mod verifier;

pub use attributes::{Attribute, NamedAttribute};
pub use diagnostics::{DiagResult, Diagnostic, Diagnostics, Severity};
pub use ir::{BlockId, InsertPoint, Ir, Module, OpId, OperationState, RegionId, ValueId};
pub use location::{Location, SourceFile};
pub use registry::{DialectDef, DialectRegistry, FoldResult, OpDef, OpTraits};
pub use types::Type;
