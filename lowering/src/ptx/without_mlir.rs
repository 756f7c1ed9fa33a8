//! The stand-in for the MLIR session in a build without the `mlir` cargo feature: same
//! interface as `mlir::Session`, and every compile fails with [`PtxError::MlirUnavailable`],
//! so callers need no feature checks of their own.

use super::PtxError;
use stencil_ir::Location;

/// An MLIR session that cannot compile: there is no MLIR in this build.
pub(super) struct Session;

impl Session {
    pub(super) fn new() -> Self {
        Session
    }

    pub(super) fn compile(
        &self,
        module_name: &str,
        _text: &str,
        _pipeline: &str,
        _needs_math_to_funcs: bool,
        location: &Location,
    ) -> Result<String, PtxError> {
        Err(PtxError::MlirUnavailable { module: module_name.to_string(), location: location.clone() })
    }
}
