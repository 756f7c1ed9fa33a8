//! `stencil-driver`: the command-line tools' logic (`stencil-opt`, `stencil-run`), kept in a library so tests run it
//! in-process. The binaries in `src/bin/` only parse flags and do I/O.

pub mod calibrate;
pub mod cli;
pub mod expected;
pub mod explain;
pub mod logging;
pub mod opt;
pub mod params;
pub mod run;
pub mod split;
