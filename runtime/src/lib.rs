//! `stencil-runtime`: the reference interpreter of stencil-opt.
//!
//! * [`CompiledProgram`] runs a `stencil.program` with its sequential semantics (DESIGN §4):
//!   parameters bound once, every `stencil.apply` body compiled once into register
//!   instructions with precomputed linear offsets, boxes swept with strides.
//! * [`loops`] runs the upstream subset that lowerings produce (`func`, `arith`, `math`,
//!   `memref`, `scf`, `affine`) over buffers, with bounds-checked memory accesses.
//! * [`gpu_sim`] runs host functions that launch `gpu.func` kernels, on the CPU with GPU
//!   semantics (blocks, threads, workgroup memory, barriers), and detects data races.
//! * [`cost`] turns what the simulator counted (warp-instructions, memory accesses, barriers)
//!   and ptxas's register counts into occupancy and an estimated time on a device model.
//! * [`cuda`] runs the same host functions with their kernels (compiled to PTX elsewhere) on
//!   a real NVIDIA GPU through cudarc, and says so cleanly when the machine has none.
//! * [`run_module`] runs either form from a [`ProgramState`] of named fields, scalars and
//!   parameters, so a program can be run before and after any pass pipeline and compared
//!   ([`compare_fields`]).
//!
//! Fields are [`FieldData`] (row-major `f32`/`f64`), readable and writable as `.npy`
//! ([`npy`]). The conventions are documented in `docs/runtime.md`.

#![warn(missing_docs)]

mod compare;
pub mod cost;
pub mod cuda;
mod entry;
mod error;
mod field;
pub mod gpu_sim;
pub mod loops;
pub mod npy;
mod scalar;
mod state;
mod stencil;

pub use compare::{compare_fields, FieldComparison};
pub use entry::{entry_op, module_interface, run_module, run_module_with_progress};
pub use error::{Loc, RuntimeError, RuntimeResult};
pub use field::{element_count, ElementType, FieldData, FieldValues};
pub use state::{ArgSpec, FieldSpec, ProgramInterface, ProgramState, RunStats, ScalarSpec, ScalarType, ScalarValue};
pub use stencil::{CompiledProgram, Progress};
