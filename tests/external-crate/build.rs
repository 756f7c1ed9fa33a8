//! With `stencil`'s `mlir` feature, the binary loads `libMLIR.so.22.1` from the LLVM libdir,
//! which is not in ld.so's default path: `stencil`'s build script publishes that folder
//! (`DEP_STENCIL_LIBDIR`), and this one makes it the binary's rpath (docs/library.md). Without
//! `mlir` the variable is unset and nothing is added.

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_STENCIL_LIBDIR");
    if let Ok(libdir) = std::env::var("DEP_STENCIL_LIBDIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
    }
}
