//! Build script of stencil-driver: the binaries link MLIR through stencil-lowering, and with
//! `MLIR_SYS_LINK_SHARED=1` (.cargo/config.toml) they load `libMLIR.so.22.1` at run time from
//! the LLVM libdir, which is not in ld.so's default search path. stencil-lowering's build script
//! publishes that libdir (its `links` key makes it `DEP_STENCIL_MLIR_LIBDIR` here); record it as
//! the rpath of our binaries, tests and benches so they run without LD_LIBRARY_PATH.

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_STENCIL_MLIR_LIBDIR");
    if let Ok(libdir) = std::env::var("DEP_STENCIL_MLIR_LIBDIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
    }
}
