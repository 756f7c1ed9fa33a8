//! Build script of stencil-lowering: makes the shared MLIR link (`MLIR_SYS_LINK_SHARED=1` in
//! `.cargo/config.toml`) work with Debian's LLVM/MLIR 22 packages.
//!
//! In shared mode mlir-sys links `-lMLIR -lMLIR-C`. Debian ships `libMLIR.so` (every C++ symbol
//! of MLIR) but no `libMLIR-C.so`: the C API that melior calls exists only as the static
//! archives `libMLIRCAPI*.a`. When the LLVM libdir has no `libMLIR-C.so`, we write one into
//! OUT_DIR that is a GNU ld linker script (as glibc's `libc.so` is): it pulls the C API archives
//! into the binary and resolves everything they use against `libMLIR.so` and `libLLVM.so`. The
//! C API objects are small; the binary stays small and links in seconds.
//!
//! `libMLIR.so.22.1` is not in ld.so's default directories, so binaries also need the libdir as
//! an rpath. `cargo:rustc-link-arg` only reaches this package's own tests; dependents read the
//! libdir from `DEP_STENCIL_MLIR_LIBDIR` (the `links` key) and add the rpath in their own build
//! script (driver/build.rs).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_LINK_SHARED");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    // Without the `mlir` feature nothing links MLIR: no linker script, no rpath (the MLIR-free
    // stencil-run of tools/gpu-bundle must not even mention the LLVM libdir).
    if env::var_os("CARGO_FEATURE_MLIR").is_none() {
        return;
    }
    // Static linking (mlir-sys' default) needs neither the linker script nor an rpath.
    if env::var("MLIR_SYS_LINK_SHARED").as_deref() != Ok("1") {
        return;
    }
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".to_string());
    let libdir = Path::new(&prefix).join("lib");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", libdir.display());
    println!("cargo:libdir={}", libdir.display());
    if libdir.join("libMLIR-C.so").exists() {
        return;
    }
    if let Err(message) = write_mlir_c_script(&libdir) {
        // A build script reports failure by panicking; the message says what to install.
        panic!("stencil-lowering: {message}");
    }
}

/// Writes `$OUT_DIR/libMLIR-C.so`, a linker script standing in for the missing shared C API.
fn write_mlir_c_script(libdir: &Path) -> Result<(), String> {
    let entries = fs::read_dir(libdir).map_err(|e| {
        format!("cannot read {}: {e}; run tools/bootstrap (it installs libmlir-22-dev)", libdir.display())
    })?;
    let mut archives: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("libMLIRCAPI") && name.ends_with(".a"))
        })
        .collect();
    if archives.is_empty() {
        return Err(format!(
            "no libMLIRCAPI*.a in {}: run tools/bootstrap (it installs libmlir-22-dev)",
            libdir.display()
        ));
    }
    // Sorted so the script (and so the build) does not depend on directory order.
    archives.sort();
    let mut inputs: Vec<String> = archives.iter().map(|a| a.display().to_string()).collect();
    inputs.push(libdir.join("libMLIR.so").display().to_string());
    inputs.push(libdir.join("libLLVM.so").display().to_string());
    // GROUP: the archives reference each other, so ld rescans them until nothing new resolves.
    let script = format!(
        "/* Written by stencil-lowering's build.rs: the MLIR C API from the static archives, the rest from libMLIR.so. */\nGROUP ( {} )\n",
        inputs.join(" ")
    );
    let out_dir = PathBuf::from(env::var("OUT_DIR").map_err(|e| format!("OUT_DIR: {e}"))?);
    fs::write(out_dir.join("libMLIR-C.so"), script).map_err(|e| format!("cannot write libMLIR-C.so: {e}"))?;
    println!("cargo:rustc-link-search=native={}", out_dir.display());
    for archive in &archives {
        println!("cargo:rerun-if-changed={}", archive.display());
    }
    Ok(())
}
