//! Where NVIDIA's tools are, without a CUDA install: ptxas and libdevice come from the PyPI
//! wheel `nvidia-cuda-nvcc-cu12` that tools/bootstrap installs into python3's user site.
//!
//! Search order for ptxas: the `PTXAS` environment variable, `ptxas` on `PATH`, the wheel
//! (`<wheel>/bin/ptxas`). The wheel is looked for first where `pip install --user` puts it —
//! `$PYTHONUSERBASE` (else `~/.local`) `/lib/python3.N/site-packages/nvidia/cuda_nvcc`, the
//! newest `N` first — and only then asked of Python (`python3 -c 'import nvidia.cuda_nvcc'`),
//! for wheels in a virtual environment or a system site: starting Python through a version
//! manager's shim costs 50–130 ms, more than half of compiling a small module to PTX, and every
//! `--emit=ptx` and GPU run needs libdevice. libdevice lies at `nvvm/libdevice/libdevice.10.bc`
//! beside the `bin/` of whichever ptxas was found (a CUDA toolkit has the same layout as the
//! wheel), or in the wheel. Nothing is configured globally.

use std::env;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// Environment variable naming the ptxas to use.
pub const PTXAS_ENV: &str = "PTXAS";

/// The PyPI wheel that ships ptxas and libdevice.
pub const NVCC_WHEEL: &str = "nvidia-cuda-nvcc-cu12";

/// Where libdevice lies under a CUDA toolkit (or wheel) root.
const LIBDEVICE_IN_TOOLKIT: &str = "nvvm/libdevice/libdevice.10.bc";

/// The wheel's directory (`…/site-packages/nvidia/cuda_nvcc`): in the user site-packages
/// (`wheel_in_user_site`), else asked of `python3` on PATH and then of Debian's
/// `/usr/bin/python3` (tools/bootstrap installs into the user site of the former). Looked for
/// once per process.
pub fn nvcc_wheel_dir() -> Option<PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = wheel_in_user_site(env::var_os("PYTHONUSERBASE"), env::var_os("HOME"))
            .or_else(|| ["python3", "/usr/bin/python3"].iter().find_map(|python| ask_python(python)));
        tracing::debug!(?dir, "{NVCC_WHEEL} wheel");
        dir
    })
    .clone()
}

/// The wheel in the user site-packages `pip install --user` fills, without starting Python:
/// `<base>/lib/python3.N/site-packages/nvidia/cuda_nvcc`, `<base>` being `$PYTHONUSERBASE`,
/// else `$HOME/.local` (Python's own default on POSIX), the newest `N` holding a wheel with
/// ptxas or libdevice first.
fn wheel_in_user_site(user_base: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    let base = match user_base.filter(|v| !v.is_empty()) {
        Some(base) => PathBuf::from(base),
        None => PathBuf::from(home.filter(|v| !v.is_empty())?).join(".local"),
    };
    let lib = base.join("lib");
    let mut sites: Vec<(u32, PathBuf)> = std::fs::read_dir(&lib)
        .ok()?
        .filter_map(|entry| {
            let name = entry.ok()?.file_name();
            let minor = name.to_str()?.strip_prefix("python3.")?.parse().ok()?;
            Some((minor, lib.join(name)))
        })
        .collect();
    sites.sort_by_key(|site| std::cmp::Reverse(site.0));
    sites
        .into_iter()
        .map(|(_, site)| site.join("site-packages/nvidia/cuda_nvcc"))
        .find(|wheel| is_executable(&wheel.join("bin/ptxas")) || wheel.join(LIBDEVICE_IN_TOOLKIT).is_file())
}

fn ask_python(python: &str) -> Option<PathBuf> {
    // nvidia and nvidia.cuda_nvcc are namespace packages: __path__, not __file__.
    let output = Command::new(python)
        .args(["-c", "import nvidia.cuda_nvcc as m; print(list(m.__path__)[0])"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let dir = PathBuf::from(String::from_utf8(output.stdout).ok()?.trim());
    dir.is_dir().then_some(dir)
}

/// How [`find_ptxas`] failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolkitError {
    /// `PTXAS` names something that is not an executable file.
    #[error("PTXAS={0} is not an executable file; point PTXAS at ptxas or unset it")]
    BadPtxasEnv(String),
    /// No ptxas anywhere we look.
    #[error(
        "ptxas not found (looked at $PTXAS, PATH and the {NVCC_WHEEL} wheel of python3): \
         run tools/bootstrap, which installs it, or set PTXAS to a ptxas"
    )]
    PtxasNotFound,
}

/// The ptxas to use, by the search order of this module.
pub fn find_ptxas() -> Result<PathBuf, ToolkitError> {
    find_ptxas_with(env::var_os(PTXAS_ENV), env::var_os("PATH"), nvcc_wheel_dir)
}

/// [`find_ptxas`] with its inputs given, for tests.
fn find_ptxas_with(
    ptxas_env: Option<OsString>,
    path_env: Option<OsString>,
    wheel_dir: impl FnOnce() -> Option<PathBuf>,
) -> Result<PathBuf, ToolkitError> {
    if let Some(value) = ptxas_env.filter(|v| !v.is_empty()) {
        let path = PathBuf::from(&value);
        return if is_executable(&path) {
            Ok(path)
        } else {
            Err(ToolkitError::BadPtxasEnv(path.display().to_string()))
        };
    }
    if let Some(found) =
        path_env.iter().flat_map(env::split_paths).map(|dir| dir.join("ptxas")).find(|p| is_executable(p))
    {
        return Ok(found);
    }
    wheel_dir().map(|dir| dir.join("bin/ptxas")).filter(|p| is_executable(p)).ok_or(ToolkitError::PtxasNotFound)
}

/// libdevice.10.bc beside the ptxas [`find_ptxas`] finds, or in the wheel; `None` when neither
/// has it.
pub fn find_libdevice() -> Option<PathBuf> {
    let beside_ptxas = find_ptxas()
        .ok()
        .and_then(|ptxas| ptxas.parent().and_then(Path::parent).map(|root| root.join(LIBDEVICE_IN_TOOLKIT)));
    beside_ptxas
        .filter(|p| p.is_file())
        .or_else(|| nvcc_wheel_dir().map(|dir| dir.join(LIBDEVICE_IN_TOOLKIT)).filter(|p| p.is_file()))
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A scratch directory holding a fake toolkit layout (`bin/ptxas`, executable or not).
    fn scratch(name: &str, executable: bool) -> PathBuf {
        let root = env::temp_dir().join(format!("stencil-toolkit-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("bin")).unwrap();
        let ptxas = root.join("bin/ptxas");
        fs::write(&ptxas, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = if executable { 0o755 } else { 0o644 };
            fs::set_permissions(&ptxas, fs::Permissions::from_mode(mode)).unwrap();
        }
        root
    }

    #[test]
    fn the_user_site_wheel_is_found_without_python() {
        let base = env::temp_dir().join(format!("stencil-user-site-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        let wheel = |base: &Path, minor: &str| base.join(format!("lib/python3.{minor}/site-packages/nvidia/cuda_nvcc"));
        let user_base = || Some(OsString::from(&base));
        // No lib/ at all, then Pythons without the wheel, another major version's, and an
        // empty package directory: none is a wheel.
        assert_eq!(wheel_in_user_site(user_base(), None), None);
        fs::create_dir_all(base.join("lib/python3.12/site-packages")).unwrap();
        fs::create_dir_all(base.join("lib/python2.7/site-packages/nvidia/cuda_nvcc/bin")).unwrap();
        fs::create_dir_all(wheel(&base, "9")).unwrap();
        assert_eq!(wheel_in_user_site(user_base(), None), None);
        // A wheel with libdevice only, then a newer Python's with ptxas: the newest first.
        fs::create_dir_all(wheel(&base, "9").join("nvvm/libdevice")).unwrap();
        fs::write(wheel(&base, "9").join(LIBDEVICE_IN_TOOLKIT), b"").unwrap();
        assert_eq!(wheel_in_user_site(user_base(), None), Some(wheel(&base, "9")));
        fs::create_dir_all(wheel(&base, "11").parent().unwrap()).unwrap();
        fs::rename(scratch("user-site-newer", true), wheel(&base, "11")).unwrap();
        assert_eq!(wheel_in_user_site(user_base(), None), Some(wheel(&base, "11")));
        // $PYTHONUSERBASE wins over $HOME/.local; an empty one counts as unset.
        let home = base.join("home");
        fs::create_dir_all(wheel(&home.join(".local"), "10").join("nvvm/libdevice")).unwrap();
        fs::write(wheel(&home.join(".local"), "10").join(LIBDEVICE_IN_TOOLKIT), b"").unwrap();
        let home_env = || Some(OsString::from(&home));
        assert_eq!(wheel_in_user_site(user_base(), home_env()), Some(wheel(&base, "11")));
        assert_eq!(wheel_in_user_site(Some("".into()), home_env()), Some(wheel(&home.join(".local"), "10")));
        assert_eq!(wheel_in_user_site(None, None), None);
        let _ = fs::remove_dir_all(base);
    }

    #[test]
    fn search_order() {
        let on_path = scratch("path", true);
        let wheel = scratch("wheel", true);
        let not_exec = scratch("noexec", false);
        let path_env = Some(env::join_paths([not_exec.join("bin"), on_path.join("bin")]).unwrap());
        // $PTXAS wins, and must be usable.
        let env_ptxas = wheel.join("bin/ptxas");
        assert_eq!(find_ptxas_with(Some(env_ptxas.clone().into()), path_env.clone(), || None), Ok(env_ptxas));
        assert!(matches!(
            find_ptxas_with(Some(not_exec.join("bin/ptxas").into()), path_env.clone(), || None),
            Err(ToolkitError::BadPtxasEnv(_))
        ));
        // Then PATH, skipping non-executables.
        assert_eq!(find_ptxas_with(None, path_env, || None), Ok(on_path.join("bin/ptxas")));
        // Then the wheel.
        assert_eq!(find_ptxas_with(None, None, || Some(wheel.clone())), Ok(wheel.join("bin/ptxas")));
        assert_eq!(find_ptxas_with(None, None, || None), Err(ToolkitError::PtxasNotFound));
        for dir in [on_path, wheel, not_exec] {
            let _ = fs::remove_dir_all(dir);
        }
    }
}
