//! `--out DIR`: every field written as `NAME.npy`, all or nothing.

use super::RunError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use stencil_runtime::FieldData;

/// Writes each field to `dir/NAME.npy`. Files are first written under temporary names and
/// renamed only when all were written, so a failure leaves no partial output behind.
pub fn write_fields(dir: &Path, fields: &BTreeMap<String, FieldData>) -> Result<(), RunError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| RunError(format!("error: cannot create output directory '{}': {e}", dir.display())))?;
    let mut staged: Vec<(PathBuf, PathBuf)> = vec![];
    let cleanup = |staged: &[(PathBuf, PathBuf)]| {
        for (tmp, _) in staged {
            let _ = std::fs::remove_file(tmp);
        }
    };
    for (name, data) in fields {
        let fin = dir.join(format!("{name}.npy"));
        let tmp = dir.join(format!(".{name}.npy.partial"));
        if let Err(e) = std::fs::write(&tmp, stencil_runtime::npy::encode_npy(data)) {
            cleanup(&staged);
            let _ = std::fs::remove_file(&tmp);
            return Err(RunError(format!("error: cannot write '{}': {e}", fin.display())));
        }
        staged.push((tmp, fin));
    }
    for (i, (tmp, fin)) in staged.iter().enumerate() {
        if let Err(e) = std::fs::rename(tmp, fin) {
            cleanup(&staged[i..]);
            return Err(RunError(format!("error: cannot write '{}': {e}", fin.display())));
        }
    }
    Ok(())
}
