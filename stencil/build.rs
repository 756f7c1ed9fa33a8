//! Build script of `stencil`: with the `mlir` feature (and `MLIR_SYS_LINK_SHARED=1`, as this
//! workspace's .cargo/config.toml sets) the tests, examples and doc tests load
//! `libMLIR.so.22.1` at run time from the LLVM libdir, which is not in ld.so's default path.
//! stencil-lowering's build script publishes that libdir (`DEP_STENCIL_MLIR_LIBDIR`, from its
//! `links` key); record it as the rpath of this package's binaries, and publish it again
//! (`links = "stencil"` makes it `DEP_STENCIL_LIBDIR`) for crates that depend on `stencil`:
//! cargo passes a build script's link arguments only to the package's own targets, so a
//! dependent's build script adds the rpath to its binaries (docs/library.md).

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_STENCIL_MLIR_LIBDIR");
    if let Ok(libdir) = std::env::var("DEP_STENCIL_MLIR_LIBDIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
        println!("cargo:libdir={libdir}");
    }
}
