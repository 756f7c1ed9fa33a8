//! What both tools do the same way at their edges: mlir-opt's command-line spellings, reading
//! the input (with a located error for bytes that are not UTF-8), and writing results so that
//! nothing is half-written or lost — standard output without panicking when it is closed or
//! full, files replaced atomically — and the LLVM code-generator flags both set at start-up.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use stencil_lowering::ptx::llvm_options::CodegenFlags;

/// Rewrites mlir-opt's single-dash long options (`-pass-pipeline=…`, `-split-input-file`) to
/// the double dash clap expects. Only names of `command`'s long options (and their aliases)
/// are rewritten, so `-o FILE`, `-oFILE`, `-p PIPELINE`, `-` (standard input) and whatever
/// follows `--` keep their meaning.
pub fn normalize_args(command: &clap::Command, args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut longs: Vec<String> = vec!["help".into(), "version".into()];
    for arg in command.get_arguments() {
        longs.extend(arg.get_long().map(str::to_string));
        longs.extend(arg.get_all_aliases().unwrap_or_default().into_iter().map(str::to_string));
    }
    let mut out = vec![];
    let mut options_ended = false;
    for (i, arg) in args.into_iter().enumerate() {
        let rewritten = match arg.to_str() {
            Some("--") => {
                options_ended = true;
                None
            }
            Some(text) if i > 0 && !options_ended && text.len() > 2 && !text.starts_with("--") => {
                text.strip_prefix('-').and_then(|rest| {
                    let name = rest.split_once('=').map_or(rest, |(n, _)| n);
                    longs.iter().any(|l| l == name).then(|| OsString::from(format!("-{text}")))
                })
            }
            _ => None,
        };
        out.push(rewritten.unwrap_or(arg));
    }
    out
}

/// Why the input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be opened or read.
    #[error("cannot open input file '{path}': {source}")]
    Open {
        /// The path given.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// Standard input could not be read.
    #[error("cannot read standard input: {0}")]
    Stdin(std::io::Error),
    /// The input is not UTF-8: located at the first byte that is not.
    #[error("{name}:{line}:{column}: error: byte 0x{byte:02x} is not valid UTF-8; the input must be UTF-8 text")]
    NotUtf8 {
        /// The input's name (the path, or `<stdin>`).
        name: String,
        /// 1-based line of the bad byte.
        line: usize,
        /// 1-based column of the bad byte, counting the characters before it on its line.
        column: usize,
        /// The byte.
        byte: u8,
    },
}

impl InputError {
    /// The location (`name`, line, column) when the error is located in the input.
    pub fn location(&self) -> Option<(&str, usize, usize)> {
        match self {
            InputError::NotUtf8 { name, line, column, .. } => Some((name, *line, *column)),
            _ => None,
        }
    }
}

/// Reads `path` (`-`: standard input) as UTF-8 text; returns the name diagnostics use and the
/// text.
pub fn read_input(path: &str) -> Result<(String, String), InputError> {
    let (name, bytes) = if path == "-" {
        let mut bytes = vec![];
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes).map_err(InputError::Stdin)?;
        ("<stdin>".to_string(), bytes)
    } else {
        let bytes = std::fs::read(path).map_err(|source| InputError::Open { path: path.to_string(), source })?;
        (path.to_string(), bytes)
    };
    let text = utf8(&name, bytes)?;
    Ok((name, text))
}

/// `bytes` as text, or the location of the first byte that is not UTF-8.
pub fn utf8(name: &str, bytes: Vec<u8>) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // The prefix is valid UTF-8 by definition of `valid_up_to`.
        let before = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        InputError::NotUtf8 { name: name.to_string(), line, column, byte: bytes[valid] }
    })
}

/// Writes `text` to standard output and flushes it. A closed pipe (`stencil-run … | head -0`)
/// or a full disk is an error the caller reports, never a panic (`print!` panics on both).
pub fn write_stdout(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Writes `text` to standard error, ignoring failures: diagnostics have nowhere else to go,
/// and a closed stderr must not turn into a panic (`eprint!` panics).
pub fn write_stderr(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

/// Replaces the file at `path` with `bytes` atomically: the bytes go to a temporary file in the
/// same folder, which is renamed over `path` only once complete, so a failed or interrupted
/// write leaves the old content intact. A symbolic link is followed (the file it points to is
/// replaced, the link stays), and the old file's permissions are kept. What is not a regular
/// file (`/dev/null`, `/dev/stdout`, a named pipe) cannot be replaced and is written directly.
pub fn write_file_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_files_atomically(&[(path, bytes)]).map_err(|e| e.source)
}

/// Why [`write_files_atomically`] wrote nothing (or undid what it had written).
#[derive(Debug, thiserror::Error)]
#[error("cannot write '{}': {source}", path.display())]
pub struct WriteError {
    /// Which of the files failed (its index in the list given).
    pub index: usize,
    /// Its path.
    pub path: PathBuf,
    /// What the system said.
    #[source]
    pub source: std::io::Error,
}

/// Writes every `(path, bytes)` of `files` as [`write_file_atomically`] writes one, all or
/// nothing: every file is first written completely to a temporary file beside its target, and
/// only when all of them are written are they renamed into place, so a failure to write any
/// (a missing folder, a full disk) leaves every target as it was. Should a rename fail after
/// earlier ones succeeded, those are undone (their old contents, kept as hard links while
/// renaming, are put back; a file that did not exist is removed) as far as the file system
/// allows; no target is ever half-written. Targets that are not regular files (`/dev/null`, a
/// named pipe) are written directly, before the renames. A path given twice gets its last
/// bytes.
pub fn write_files_atomically(files: &[(&Path, &[u8])]) -> Result<(), WriteError> {
    let fail = |index: usize, source: std::io::Error| WriteError { index, path: files[index].0.to_path_buf(), source };
    // (index, temporary file, target)
    let mut staged: Vec<(usize, PathBuf, PathBuf)> = vec![];
    let mut direct: Vec<usize> = vec![];
    let discard = |staged: &[(usize, PathBuf, PathBuf)]| {
        for (_, tmp, _) in staged {
            let _ = std::fs::remove_file(tmp);
        }
    };
    for (index, (path, bytes)) in files.iter().enumerate() {
        match stage(path, bytes) {
            Ok(Some((tmp, target))) => staged.push((index, tmp, target)),
            Ok(None) => direct.push(index),
            Err(e) => {
                discard(&staged);
                return Err(fail(index, e));
            }
        }
    }
    for &index in &direct {
        let (path, bytes) = files[index];
        let written = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut file| file.write_all(bytes).and_then(|()| file.flush()));
        if let Err(e) = written {
            discard(&staged);
            return Err(fail(index, e));
        }
    }
    // (target, the old file's content kept under another name)
    let mut done: Vec<(&Path, Option<PathBuf>)> = vec![];
    for (at, (index, tmp, target)) in staged.iter().enumerate() {
        let backup = if std::fs::symlink_metadata(target).is_ok_and(|m| m.is_file()) {
            fresh_beside(target, "old", |b| std::fs::hard_link(target, b)).ok().map(|(b, ())| b)
        } else {
            None
        };
        if let Err(e) = std::fs::rename(tmp, target) {
            if let Some(b) = backup {
                let _ = std::fs::remove_file(b);
            }
            for (target, backup) in done.iter().rev() {
                let undone = match backup {
                    Some(b) => std::fs::rename(b, target),
                    None => std::fs::remove_file(target),
                };
                if let Err(e) = undone {
                    tracing::error!(file = %target.display(), error = %e, "could not undo a rename");
                }
            }
            discard(&staged[at..]);
            return Err(fail(*index, e));
        }
        done.push((target, backup));
    }
    for (_, backup) in done {
        if let Some(b) = backup {
            let _ = std::fs::remove_file(b);
        }
    }
    Ok(())
}

/// Writes `bytes` completely to a new temporary file beside `path` (or beside the file a
/// symbolic link `path` points to) with the old file's permissions; returns it and the file it
/// is to replace, or `None` when `path` is not a regular file and must be written directly.
fn stage(path: &Path, bytes: &[u8]) -> std::io::Result<Option<(PathBuf, PathBuf)>> {
    let metadata = std::fs::metadata(path).ok();
    if metadata.as_ref().is_some_and(|m| !m.is_file()) {
        return Ok(None);
    }
    let target = if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        std::fs::canonicalize(path)?
    } else {
        path.to_path_buf()
    };
    let (tmp, mut file) =
        fresh_beside(&target, "tmp", |tmp| std::fs::OpenOptions::new().write(true).create_new(true).open(tmp))?;
    let written = (|| {
        file.write_all(bytes)?;
        if let Some(m) = &metadata {
            file.set_permissions(m.permissions())?;
        }
        // On disk before the rename, so a crash cannot leave an empty file under the old name.
        file.sync_all()
    })();
    drop(file);
    match written {
        Ok(()) => Ok(Some((tmp, target))),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Makes a new entry beside `target` (same folder, hence same file system, so a rename is
/// atomic) with `create`, named after it, the process, a counter and `suffix`; `create` must
/// fail with `AlreadyExists` when the name is taken.
fn fresh_beside<T>(
    target: &Path,
    suffix: &str,
    create: impl Fn(&Path) -> std::io::Result<T>,
) -> std::io::Result<(PathBuf, T)> {
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target.file_name().map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let mut attempt = 0u32;
    loop {
        let path = folder.join(format!(".{name}.{}.{attempt}.{suffix}", std::process::id()));
        match create(&path) {
            Ok(made) => return Ok((path, made)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 1000 => attempt += 1,
            Err(e) => return Err(e),
        }
    }
}

/// The LLVM code-generator flags of both tools' command lines (`stencil_lowering::ptx::
/// llvm_options`), applied once per process by [`configure_llvm`] before anything is compiled.
/// Unset, each takes [`CodegenFlags::RECOMMENDED`]'s value.
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct CodegenArgs {
    /// 32-bit pointers to shared, local and constant memory, as nvcc compiles (LLVM's
    /// `-nvptx-short-ptr`): on by default (on an H200 1.47× on Jacobi-2D f32's tiles);
    /// `--short-pointers=false` for LLVM's 64-bit ones. Process-wide, as LLVM's options are
    /// (docs/gpu.md, "ptxas").
    #[arg(long = "short-pointers", value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true")]
    pub short_pointers: Option<bool>,
    /// LLVM's loop strength reduction for the kernels compiled to PTX: off by default (fewer
    /// registers; measured no slower on an H200 with short pointers); `--loop-strength-reduction`
    /// turns it on. Process-wide, as LLVM's options are.
    #[arg(long = "loop-strength-reduction", value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true", conflicts_with = "disable_lsr")]
    pub loop_strength_reduction: Option<bool>,
    /// The same as `--loop-strength-reduction=false`, the default (kept for scripts written
    /// when loop strength reduction was on by default).
    #[arg(long = "disable-lsr")]
    pub disable_lsr: bool,
    /// Divisions by constants in the kernels as a multiplication by the rounded reciprocal and
    /// one fused correction (the same, correctly rounded quotients; fewer instructions): on by
    /// default; `--reciprocal-division=false` keeps PTX's `div.rn`. Process-wide.
    #[arg(long = "reciprocal-division", value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true")]
    pub reciprocal_division: Option<bool>,
    /// A kernel's accesses to one argument at constant offsets from each other (a stencil's
    /// neighbours) through one flat index, so that each neighbour's offset is the load's
    /// immediate (the same addresses; fewer integer instructions and registers): on by default;
    /// `--flat-addresses=false` indexes every access per dimension. Process-wide.
    #[arg(long = "flat-addresses", value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_missing_value = "true")]
    pub flat_addresses: Option<bool>,
}

impl CodegenArgs {
    /// The flags to compile with: [`CodegenFlags::RECOMMENDED`] with what the command line set.
    pub fn flags(&self) -> CodegenFlags {
        let recommended = CodegenFlags::RECOMMENDED;
        CodegenFlags {
            short_pointers: self.short_pointers.unwrap_or(recommended.short_pointers),
            loop_strength_reduction: if self.disable_lsr {
                false
            } else {
                self.loop_strength_reduction.unwrap_or(recommended.loop_strength_reduction)
            },
            reciprocal_division: self.reciprocal_division.unwrap_or(recommended.reciprocal_division),
            flat_addresses: self.flat_addresses.unwrap_or(recommended.flat_addresses),
        }
    }

    /// The first flag the command line gave, for the error of a build that has no LLVM.
    fn first_given(&self) -> Option<&'static str> {
        if self.short_pointers.is_some() {
            Some("--short-pointers")
        } else if self.loop_strength_reduction.is_some() {
            Some("--loop-strength-reduction")
        } else if self.disable_lsr {
            Some("--disable-lsr")
        } else if self.reciprocal_division.is_some() {
            Some("--reciprocal-division")
        } else if self.flat_addresses.is_some() {
            Some("--flat-addresses")
        } else {
            None
        }
    }
}

/// Applies `args`' LLVM code-generator flags, once, before anything is compiled. In a build
/// without MLIR (PTX from files) there is nothing to configure: the defaults are fine, and a
/// flag given there is an error naming it.
pub fn configure_llvm(args: &CodegenArgs) -> Result<(), String> {
    if !stencil_lowering::ptx::MLIR_AVAILABLE {
        return match args.first_given() {
            Some(flag) => Err(format!("{flag}: this build has no MLIR (no LLVM to configure)")),
            None => Ok(()),
        };
    }
    stencil_lowering::ptx::llvm_options::configure(args.flags()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, ArgAction, Command};

    fn command() -> Command {
        Command::new("t")
            .arg(Arg::new("pipeline").short('p').long("pass-pipeline"))
            .arg(Arg::new("split").long("split-input-file").action(ArgAction::SetTrue))
            .arg(Arg::new("timing").long("mlir-timing").visible_alias("timing").action(ArgAction::SetTrue))
            .arg(Arg::new("output").short('o'))
            .arg(Arg::new("input"))
    }

    fn normalized(args: &[&str]) -> Vec<String> {
        normalize_args(&command(), args.iter().map(OsString::from))
            .into_iter()
            .map(|a| a.into_string().unwrap_or_default())
            .collect()
    }

    #[test]
    fn single_dash_long_options_become_double_dash() {
        assert_eq!(
            normalized(&["t", "-pass-pipeline=x", "-split-input-file", "-timing", "-o", "out", "-", "-p", "y"]),
            ["t", "--pass-pipeline=x", "--split-input-file", "--timing", "-o", "out", "-", "-p", "y"]
        );
        // Not a long option name: left for clap (a short option with its value, or an error).
        assert_eq!(normalized(&["t", "-oout.mlir", "-bogus"]), ["t", "-oout.mlir", "-bogus"]);
        // After `--` everything is an operand.
        assert_eq!(normalized(&["t", "--", "-timing"]), ["t", "--", "-timing"]);
    }

    #[test]
    fn non_utf8_input_is_located() {
        let e = utf8("f.mlir", b"ab\ncd\xffe".to_vec()).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(e, "f.mlir:2:3: error: byte 0xff is not valid UTF-8; the input must be UTF-8 text");
        let e = utf8("f.mlir", b"\xc3\xa9\xc3(".to_vec()).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.starts_with("f.mlir:1:2: error: byte 0xc3"), "{e}");
    }

    #[test]
    fn atomic_write_replaces_and_keeps_links_and_devices() -> std::io::Result<()> {
        let dir = std::env::temp_dir().join(format!("stencil-cli-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let file = dir.join("out.txt");
        write_file_atomically(&file, b"one")?;
        write_file_atomically(&file, b"two")?;
        assert_eq!(std::fs::read(&file)?, b"two");
        #[cfg(unix)]
        {
            let link = dir.join("link.txt");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&file, &link)?;
            write_file_atomically(&link, b"three")?;
            assert!(std::fs::symlink_metadata(&link)?.file_type().is_symlink());
            assert_eq!(std::fs::read(&file)?, b"three");
            write_file_atomically(Path::new("/dev/null"), b"nothing")?;
            assert!(std::fs::metadata("/dev/null")?.file_type().is_char_device_like());
        }
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(&dir)?.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
        assert!(names.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")), "{names:?}");
        std::fs::remove_dir_all(&dir)
    }

    #[test]
    fn several_files_are_written_all_or_nothing() -> std::io::Result<()> {
        let dir = std::env::temp_dir().join(format!("stencil-cli-test-all-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let (a, b) = (dir.join("a.json"), dir.join("b.svg"));
        std::fs::write(&a, "old a")?;
        std::fs::write(&b, "old b")?;
        // The second file cannot be written (no such folder): the first keeps its old content.
        let missing = dir.join("missing").join("c.mlir");
        let e = write_files_atomically(&[(&a, b"new a"), (&missing, b"c"), (&b, b"new b")]).err();
        assert_eq!(e.map(|e| (e.index, e.path)), Some((1, missing)));
        assert_eq!(std::fs::read(&a)?, b"old a");
        assert_eq!(std::fs::read(&b)?, b"old b");
        // All writable: all replaced; a path given twice gets its last bytes.
        write_files_atomically(&[(&a, b"new a"), (&b, b"first b"), (&b, b"new b")]).map_err(|e| e.source)?;
        assert_eq!(std::fs::read(&a)?, b"new a");
        assert_eq!(std::fs::read(&b)?, b"new b");
        let mut names: Vec<_> = std::fs::read_dir(&dir)?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["a.json", "b.svg"]);
        std::fs::remove_dir_all(&dir)
    }

    /// `/dev/null` must stay a device: replacing it with a file would break the machine.
    trait CharDevice {
        fn is_char_device_like(&self) -> bool;
    }

    impl CharDevice for std::fs::FileType {
        #[cfg(unix)]
        fn is_char_device_like(&self) -> bool {
            std::os::unix::fs::FileTypeExt::is_char_device(self)
        }
        #[cfg(not(unix))]
        fn is_char_device_like(&self) -> bool {
            true
        }
    }
}
