//! ptxas, NVIDIA's PTX assembler: assembles PTX for a GPU and reports what each function
//! uses — registers, spills, stack, shared memory — as `ptxas -v` prints it. Tests assemble
//! every PTX we generate (DESIGN §7); the numbers feed occupancy reasoning.
//!
//! ptxas is found by [`crate::ptx::toolkit::find_ptxas`] (`PTXAS`, `PATH`, the
//! `nvidia-cuda-nvcc-cu12` wheel that tools/bootstrap installs). No CUDA driver or GPU is
//! needed.

use crate::ptx::toolkit::{find_ptxas, ToolkitError};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A ptxas executable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ptxas {
    path: PathBuf,
}

/// What ptxas reports for one function (`-v`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionResources {
    /// The function's PTX name.
    pub name: String,
    /// Whether it is a kernel (`.entry`) rather than a device function (`.func`).
    pub entry: bool,
    /// Registers per thread (reported for entries only).
    pub registers: Option<u32>,
    /// Named barriers used (reported for entries by recent ptxas versions).
    pub barriers: Option<u32>,
    /// Static shared memory per block, in bytes.
    pub shared_bytes: u64,
    /// Constant bank memory, in bytes (kernel parameters live in `cmem[0]`).
    pub constant_bytes: u64,
    /// Per-thread stack frame, in bytes.
    pub stack_frame_bytes: u64,
    /// Bytes stored to local memory because registers ran out.
    pub spill_store_bytes: u64,
    /// Bytes loaded back from local memory because registers ran out.
    pub spill_load_bytes: u64,
}

impl FunctionResources {
    /// Whether the function spills registers to local memory.
    pub fn spills(&self) -> bool {
        self.spill_store_bytes > 0 || self.spill_load_bytes > 0
    }
}

/// The result of assembling one PTX module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxasReport {
    /// The GPU it was assembled for.
    pub arch: String,
    /// Every function ptxas reported on, entries in the order it compiled them.
    pub functions: Vec<FunctionResources>,
    /// The assembled cubin.
    pub cubin: Vec<u8>,
    /// ptxas's own output (`ptxas info : …` lines and any warnings).
    pub log: String,
}

impl PtxasReport {
    /// The kernel (`.entry`) called `name`.
    pub fn kernel(&self, name: &str) -> Option<&FunctionResources> {
        self.functions.iter().find(|f| f.entry && f.name == name)
    }

    /// The kernels (`.entry` functions).
    pub fn kernels(&self) -> impl Iterator<Item = &FunctionResources> {
        self.functions.iter().filter(|f| f.entry)
    }
}

/// Why ptxas could not assemble.
#[derive(Debug, thiserror::Error)]
pub enum PtxasError {
    /// No ptxas to run.
    #[error(transparent)]
    NotFound(#[from] ToolkitError),
    /// The architecture name would not be a valid `-arch` value.
    #[error("GPU architecture '{0}' is not of the form sm_<number>[letter], e.g. sm_90")]
    InvalidArch(String),
    /// Running ptxas or handling its files failed.
    #[error("{what} ({}): {source}", path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file or executable concerned.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// ptxas ran and rejected the PTX.
    #[error("ptxas rejected the PTX for {arch} ({status}):\n{log}")]
    Rejected {
        /// The architecture it assembled for.
        arch: String,
        /// ptxas's exit status.
        status: String,
        /// What ptxas printed.
        log: String,
    },
}

/// The environment variable that makes a missing ptxas fail the checks that need it
/// ([`Ptxas::find_for_checks`]) instead of skipping them: `make test` sets it to `1`.
pub const REQUIRE_PTXAS_ENV: &str = "STENCIL_REQUIRE_PTXAS";

impl Ptxas {
    /// The ptxas [`find_ptxas`] finds; a [`PtxasError::NotFound`] that says how to install it
    /// otherwise.
    pub fn find() -> Result<Self, PtxasError> {
        Ok(Ptxas { path: find_ptxas()? })
    }

    /// For checks (tests) that need ptxas and pass without it, saying so: the ptxas
    /// [`Ptxas::find`] finds, else `None` after printing `ptxas not found: skipped (why)` on
    /// standard output — unless [`REQUIRE_PTXAS_ENV`] is `1`, which makes a missing ptxas a
    /// panic (a test failure).
    pub fn find_for_checks() -> Option<Self> {
        match Ptxas::find() {
            Ok(ptxas) => Some(ptxas),
            Err(e) if std::env::var(REQUIRE_PTXAS_ENV).as_deref() == Ok("1") => {
                panic!("{REQUIRE_PTXAS_ENV}=1 but {e}")
            }
            Err(e) => {
                println!("ptxas not found: skipped ({e})");
                None
            }
        }
    }

    /// A specific ptxas executable.
    pub fn at(path: impl Into<PathBuf>) -> Self {
        Ptxas { path: path.into() }
    }

    /// The executable.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Assembles `ptx` for `arch` (`sm_90`; [`crate::ptx::DEFAULT_CHIP`] is the usual one) with `-v` and
    /// returns the cubin and the per-function resources.
    pub fn assemble(&self, ptx: &str, arch: &str) -> Result<PtxasReport, PtxasError> {
        if !crate::ptx::is_chip_name(arch) {
            return Err(PtxasError::InvalidArch(arch.to_string()));
        }
        // ptxas reads and writes files only; a private scratch directory per call keeps
        // concurrent callers (parallel tests) apart.
        let scratch = ScratchDir::new()?;
        let input = scratch.0.join("input.ptx");
        let output = scratch.0.join("output.cubin");
        fs::write(&input, ptx).map_err(|source| PtxasError::Io {
            what: "cannot write PTX",
            path: input.clone(),
            source,
        })?;
        let result = Command::new(&self.path)
            .arg(format!("-arch={arch}"))
            .arg("-v")
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .stdin(Stdio::null())
            .output()
            .map_err(|source| PtxasError::Io { what: "cannot run ptxas", path: self.path.clone(), source })?;
        let mut log = String::from_utf8_lossy(&result.stderr).into_owned();
        log.push_str(&String::from_utf8_lossy(&result.stdout));
        if !result.status.success() {
            return Err(PtxasError::Rejected { arch: arch.to_string(), status: result.status.to_string(), log });
        }
        let cubin = fs::read(&output).map_err(|source| PtxasError::Io {
            what: "cannot read the cubin",
            path: output,
            source,
        })?;
        let functions = parse_verbose_output(&log);
        tracing::debug!(arch, functions = functions.len(), "ptxas assembled");
        Ok(PtxasReport { arch: arch.to_string(), functions, cubin, log })
    }
}

/// A temporary directory removed on drop.
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new() -> Result<Self, PtxasError> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("stencil-ptxas-{}-{n}", std::process::id()));
        // A leftover from a killed run with the same pid would otherwise make create_dir fail.
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).map_err(|source| PtxasError::Io {
            what: "cannot create a scratch directory",
            path: dir.clone(),
            source,
        })?;
        Ok(ScratchDir(dir))
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Reads `ptxas -v` output:
///
/// ```text
/// ptxas info    : Compiling entry function 'k' for 'sm_90'
/// ptxas info    : Function properties for k
///     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
/// ptxas info    : Used 4 registers, used 0 barriers, 128 bytes smem, 352 bytes cmem[0]
/// ptxas info    : Function properties for __internal_accurate_pow
///     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
/// ```
///
/// "Used" lines belong to the entry being compiled; stack/spill lines to the function whose
/// properties were announced just before.
fn parse_verbose_output(log: &str) -> Vec<FunctionResources> {
    let mut functions: Vec<FunctionResources> = vec![];
    let mut entry: Option<usize> = None;
    let mut properties: Option<usize> = None;
    let index_of = |functions: &mut Vec<FunctionResources>, name: &str, is_entry: bool| -> usize {
        if let Some(i) = functions.iter().position(|f| f.name == name) {
            functions[i].entry |= is_entry;
            return i;
        }
        functions.push(FunctionResources { name: name.to_string(), entry: is_entry, ..FunctionResources::default() });
        functions.len() - 1
    };
    for line in log.lines() {
        let info =
            line.trim_start().strip_prefix("ptxas info").map(|rest| rest.trim_start().trim_start_matches(':').trim());
        match info {
            Some(info) => {
                if let Some(rest) = info.strip_prefix("Compiling entry function '") {
                    let name = rest.split('\'').next().unwrap_or_default();
                    entry = Some(index_of(&mut functions, name, true));
                } else if let Some(name) = info.strip_prefix("Function properties for ") {
                    properties = Some(index_of(&mut functions, name.trim(), false));
                } else if let Some(rest) = info.strip_prefix("Used ") {
                    if let Some(f) = entry.map(|i| &mut functions[i]) {
                        // "Used 4 registers, used 0 barriers, 128 bytes smem, 352 bytes cmem[0]"
                        for part in rest.split(", ") {
                            let words: Vec<&str> = part.split_whitespace().collect();
                            match words.as_slice() {
                                [n, "registers"] => f.registers = n.parse().ok(),
                                ["used", n, "barriers"] => f.barriers = n.parse().ok(),
                                [n, "bytes", "smem"] => f.shared_bytes = n.parse().unwrap_or(0),
                                [n, "bytes", bank] if bank.starts_with("cmem") => {
                                    f.constant_bytes += n.parse::<u64>().unwrap_or(0)
                                }
                                _ => {}
                            }
                        }
                    }
                }
            }
            None => {
                // "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
                if let Some(f) = properties.map(|i| &mut functions[i]) {
                    for part in line.trim().split(", ") {
                        let words: Vec<&str> = part.split_whitespace().collect();
                        match words.as_slice() {
                            [n, "bytes", "stack", "frame"] => f.stack_frame_bytes = n.parse().unwrap_or(0),
                            [n, "bytes", "spill", "stores"] => f.spill_store_bytes = n.parse().unwrap_or(0),
                            [n, "bytes", "spill", "loads"] => f.spill_load_bytes = n.parse().unwrap_or(0),
                            _ => {}
                        }
                    }
                }
            }
        }
    }
    functions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbose_output_is_parsed_per_function() {
        let log = "\
ptxas info    : 296 bytes gmem
ptxas info    : Compiling entry function 'm' for 'sm_90'
ptxas info    : Function properties for m
    72 bytes stack frame, 8 bytes spill stores, 16 bytes spill loads
ptxas info    : Used 31 registers, used 1 barriers, 128 bytes smem, 72 bytes cumulative stack size, 384 bytes cmem[0]
ptxas info    : Compile time = 48.310 ms
ptxas info    : Function properties for __internal_accurate_pow
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
";
        let functions = parse_verbose_output(log);
        assert_eq!(
            functions[0],
            FunctionResources {
                name: "m".into(),
                entry: true,
                registers: Some(31),
                barriers: Some(1),
                shared_bytes: 128,
                constant_bytes: 384,
                stack_frame_bytes: 72,
                spill_store_bytes: 8,
                spill_load_bytes: 16,
            }
        );
        assert!(functions[0].spills());
        assert_eq!(functions[1].name, "__internal_accurate_pow");
        assert!(!functions[1].entry && !functions[1].spills());
        assert_eq!(functions.len(), 2);
    }

    #[test]
    fn arch_is_checked_before_running() {
        let err = Ptxas::at("/nonexistent/ptxas").assemble("", "sm_90 --foo").unwrap_err();
        assert!(matches!(err, PtxasError::InvalidArch(_)), "{err}");
        let err = Ptxas::at("/nonexistent/ptxas").assemble("", "sm_90").unwrap_err();
        assert!(err.to_string().contains("cannot run ptxas"), "{err}");
    }
}
