//! `--out DIR`: every field written as `NAME.npy`, all or nothing.
//!
//! All files are first written into a fresh temporary folder beside or inside `DIR` (the same
//! file system, so renames are atomic). A `DIR` that does not exist yet is then that folder,
//! renamed into place in one step. Into an existing `DIR` each file is renamed over its old
//! version, which is first set aside, and put back if a later rename fails; so a failure at
//! any point leaves `DIR` as it was (short of a crash between two renames).

use super::RunError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use stencil_runtime::FieldData;

/// Writes each field to `dir/NAME.npy`, all or nothing.
pub fn write_fields(dir: &Path, fields: &BTreeMap<String, FieldData>) -> Result<(), RunError> {
    let files: Vec<(String, Vec<u8>)> =
        fields.iter().map(|(name, data)| (format!("{name}.npy"), stencil_runtime::npy::encode_npy(data))).collect();
    write_all_or_nothing(dir, &files, &mut |_| Ok(()))
}

/// Where [`write_all_or_nothing`] is; tests make a step fail to check that nothing stays
/// behind.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// About to write this file into the temporary folder.
    Write(&'a str),
    /// About to rename this file into `dir`.
    Rename(&'a str),
}

/// Writes `files` (`(name, bytes)`) into `dir`, all or nothing; `hook` is called before each
/// step and may fail it (`|_| Ok(())` outside tests).
pub fn write_all_or_nothing(
    dir: &Path,
    files: &[(String, Vec<u8>)],
    hook: &mut dyn FnMut(Step<'_>) -> std::io::Result<()>,
) -> Result<(), RunError> {
    let cannot = |what: &str, path: &Path, e: std::io::Error| {
        RunError::new(format!("--out: cannot {what} '{}': {e}; nothing was written", path.display()))
    };
    let exists = match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => true,
        Ok(_) => return Err(RunError::new(format!("--out: '{}' exists and is not a directory", dir.display()))),
        Err(_) => false,
    };
    if exists {
        // A name taken by something that is not a file cannot be replaced: refuse before
        // writing anything.
        for (name, _) in files {
            let target = dir.join(name);
            if std::fs::symlink_metadata(&target).is_ok_and(|m| !m.is_file()) {
                return Err(RunError::new(format!(
                    "--out: '{}' exists and is not a file; nothing was written",
                    target.display()
                )));
            }
        }
    } else if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| cannot("create", parent, e))?;
    }
    let staging =
        if exists { dir.to_path_buf() } else { dir.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf) };
    let staging = if staging.as_os_str().is_empty() { PathBuf::from(".") } else { staging };
    let tmp = fresh_folder(&staging, dir).map_err(|e| cannot("create a temporary folder in", &staging, e))?;
    let result = (|| {
        for (name, bytes) in files {
            let path = tmp.join(name);
            hook(Step::Write(name))
                .and_then(|()| std::fs::write(&path, bytes))
                .map_err(|e| cannot("write", &dir.join(name), e))?;
        }
        if exists {
            move_into(dir, &tmp, files, hook)
        } else {
            // One rename makes the whole folder appear.
            hook(Step::Rename("")).and_then(|()| std::fs::rename(&tmp, dir)).map_err(|e| cannot("create", dir, e))
        }
    })();
    // After success the temporary folder is gone (renamed) or holds only the set-aside old
    // files; after failure it holds what was written. Either way it goes.
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

/// Renames every file of `tmp` over its name in `dir`, setting old versions aside in `tmp`
/// first; on a failure, undoes the renames done so far.
fn move_into(
    dir: &Path,
    tmp: &Path,
    files: &[(String, Vec<u8>)],
    hook: &mut dyn FnMut(Step<'_>) -> std::io::Result<()>,
) -> Result<(), RunError> {
    // (name, whether an old version was set aside)
    let mut done: Vec<(&str, bool)> = vec![];
    let mut failure = None;
    for (name, _) in files {
        let target = dir.join(name);
        let old = tmp.join(format!("{name}.old"));
        let had_old = target.exists();
        let step = hook(Step::Rename(name))
            .and_then(|()| if had_old { std::fs::rename(&target, &old) } else { Ok(()) })
            .and_then(|()| {
                std::fs::rename(tmp.join(name), &target).inspect_err(|_| {
                    if had_old {
                        let _ = std::fs::rename(&old, &target);
                    }
                })
            });
        match step {
            Ok(()) => done.push((name, had_old)),
            Err(e) => {
                failure = Some(RunError::new(format!(
                    "--out: cannot write '{}': {e}; nothing was written",
                    target.display()
                )));
                break;
            }
        }
    }
    let Some(failure) = failure else { return Ok(()) };
    for (name, had_old) in done.into_iter().rev() {
        let target = dir.join(name);
        let restored = if had_old {
            std::fs::rename(tmp.join(format!("{name}.old")), &target)
        } else {
            std::fs::remove_file(&target)
        };
        if let Err(e) = restored {
            tracing::error!(file = %target.display(), error = %e, "--out: could not undo a rename");
        }
    }
    Err(failure)
}

/// A new folder in `parent`, named after `dir`, the process and a counter.
fn fresh_folder(parent: &Path, dir: &Path) -> std::io::Result<PathBuf> {
    let name = dir.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let mut attempt = 0u32;
    loop {
        let path = parent.join(format!(".{name}.stencil-run.{}.{attempt}.tmp", std::process::id()));
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 1000 => attempt += 1,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("stencil-out-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn files() -> Vec<(String, Vec<u8>)> {
        vec![("A.npy".into(), b"new A".to_vec()), ("B.npy".into(), b"new B".to_vec())]
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    #[test]
    fn a_new_folder_appears_whole_or_not_at_all() -> std::io::Result<()> {
        let root = scratch("new");
        std::fs::create_dir_all(&root)?;
        let dir = root.join("out");
        let e = write_all_or_nothing(&dir, &files(), &mut |s| match s {
            Step::Write("B.npy") => Err(std::io::Error::other("disk full")),
            _ => Ok(()),
        });
        assert!(e.is_err_and(|e| e.to_string().contains("cannot write") && e.to_string().contains("disk full")));
        assert!(!dir.exists());
        assert_eq!(listing(&root), Vec::<String>::new(), "no temporary folder left");
        write_all_or_nothing(&dir, &files(), &mut |_| Ok(())).map_err(std::io::Error::other)?;
        assert_eq!(listing(&dir), ["A.npy", "B.npy"]);
        assert_eq!(listing(&root), ["out"]);
        std::fs::remove_dir_all(&root)
    }

    #[test]
    fn an_existing_folder_keeps_its_old_files_when_a_rename_fails() -> std::io::Result<()> {
        let dir = scratch("existing");
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("A.npy"), b"old A")?;
        std::fs::write(dir.join("other.txt"), b"keep")?;
        // A's rename succeeds, B's fails: A must be put back.
        let e = write_all_or_nothing(&dir, &files(), &mut |s| match s {
            Step::Rename("B.npy") => Err(std::io::Error::other("injected")),
            _ => Ok(()),
        });
        assert!(e.is_err());
        assert_eq!(std::fs::read(dir.join("A.npy"))?, b"old A");
        assert_eq!(listing(&dir), ["A.npy", "other.txt"]);
        write_all_or_nothing(&dir, &files(), &mut |_| Ok(())).map_err(std::io::Error::other)?;
        assert_eq!(std::fs::read(dir.join("A.npy"))?, b"new A");
        assert_eq!(listing(&dir), ["A.npy", "B.npy", "other.txt"]);
        std::fs::remove_dir_all(&dir)
    }

    #[test]
    fn a_name_taken_by_a_folder_is_refused_before_writing() -> std::io::Result<()> {
        let dir = scratch("taken");
        std::fs::create_dir_all(dir.join("B.npy"))?;
        let e = write_all_or_nothing(&dir, &files(), &mut |_| Ok(()));
        assert!(e.is_err_and(|e| e.to_string().contains("B.npy' exists and is not a file")));
        assert_eq!(listing(&dir), ["B.npy"]);
        std::fs::remove_dir_all(&dir)
    }
}
