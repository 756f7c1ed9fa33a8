//! The scheduling passes over the IR (thesis Ch. 4): `poly-schedule` computes Pluto's tiling
//! hyperplanes with the balanced intra-tile wavefront constraint (thesis Alg. 4.1) and stores
//! them on the applies, `poly-verify-schedule` proves any stored schedule legal (or reports a
//! violated dependence instance), `poly-remove-false-deps` removes parallelism-hindering false
//! dependences by array copying (thesis Alg. 4.2, Fig. 4.4), and [`schedule_report`] is what
//! `stencil-opt --test-print-schedule` prints.
//!
//! **Recorded form** (`docs/passes.md`). Each `stencil.apply` carries two discardable
//! attributes:
//!
//! * `poly.schedule = affine_map<(d0, …)[s0, …] -> (r0, …)>`: the statement's schedule
//!   `Θ_S` (thesis §3.2.3, Ch. 4), one result per schedule row; the dimensions are the
//!   statement's iterators (enclosing `stencil.iterate` induction variables, outermost first,
//!   then the box dimensions `i, j, k`), the symbols the program's parameters in declaration
//!   order. Scalar rows are constants.
//! * `poly.bands = array<i64: …>`: one entry per row, the permutable band (thesis Thm 3.3) of
//!   a loop row (from 0), `-1` for a scalar row.
//!
//! Both may be written by hand; `poly-verify-schedule` and `--test-print-schedule` read any
//! `poly.schedule` and need no `poly.bands`.

mod attr;
mod false_deps;

/// The default `max-statements` of `poly-schedule` and `poly-remove-false-deps`: both run
/// Pluto's integer programs, whose cost grows steeply with the statement count (20 applies in
/// one time loop took 161 s; 16 MLSOR kernels of 3-D SOR, 8 s per run).
const DEFAULT_MAX_STATEMENTS: &str = "12";
mod pass;
mod report;
mod verify;

pub use attr::{
    affine_expr_of_form, dim_or_symbol, read_bands, read_schedule, schedule_attribute, stored_schedules, BANDS_ATTR,
    SCHEDULE_ATTR,
};
pub use false_deps::pass_info as remove_false_deps_pass_info;
pub use pass::{pass_info, schedule_program, ScheduleSettings};
pub use report::schedule_report;
pub use verify::{pass_info as verify_pass_info, verify_schedules};
