//! Every example program, lowered to affine loops by `poly-codegen` — with its original
//! schedule, with Pluto's schedule, and tiled with several tile sizes (1, and sizes that do
//! not divide the domain), wavefront choices, and after `poly-remove-false-deps` — gives
//! bit-identical fields with the same number of point updates on the reference interpreter
//! (issue 6's "proven correct by execution").

mod common;

use common::{check_pipeline, check_pipeline_after, examples, parse, random_state, registries};

/// Small parameter values: the declared minimum raised to 3 for time-like parameters (named
/// `T…`) and to 9 for the others, so that tile sizes 2, 3 and 5 do not divide the domains.
fn small_params(text: &str) -> Vec<(String, i64)> {
    let (dialects, _) = registries();
    let module = parse(text, &dialects).unwrap();
    let state = random_state(&module, &[]).unwrap();
    let interface = stencil_runtime::module_interface(&module, None, &state).unwrap();
    let mins = stencil_dialects::stencil::ProgramParams::of(&module.ir, program_op(&module));
    interface
        .params
        .iter()
        .map(|(n, _)| {
            let min = mins.index_of(n).map_or(0, |k| mins.mins[k]);
            (n.clone(), if n.starts_with('T') { min.max(3) } else { min.max(9) })
        })
        .collect()
}

fn program_op(module: &stencil_ir::Module) -> stencil_ir::OpId {
    let ir = &module.ir;
    let block = ir.entry_block(ir.regions(module.top)[0]).unwrap();
    ir.block_op_iter(block).find(|&o| ir.op_name(o) == "stencil.program").unwrap()
}

/// Checks `pipeline` on every example.
fn check_all(pipeline: &str) {
    check_all_after(None, pipeline);
}

/// [`check_all`] comparing with each example after the passes `prefix`.
fn check_all_after(prefix: Option<&str>, pipeline: &str) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, text) in examples() {
        let params = small_params(&text);
        let params: Vec<(&str, i64)> = params.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        match check_pipeline_after(&text, prefix, pipeline, &params) {
            Ok(_) => checked += 1,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{pipeline}:\n{}", failures.join("\n\n"));
    eprintln!("{pipeline}: {checked} examples bit-identical");
}

#[test]
fn original_schedule() {
    check_all("builtin.module(poly-codegen)");
    check_all("builtin.module(poly-codegen{parallel=false})");
}

#[test]
fn pluto_schedule_untiled() {
    check_all("builtin.module(poly-schedule,poly-codegen)");
}

#[test]
fn tiled_size_1() {
    check_all("builtin.module(poly-schedule,poly-tile{sizes=1},poly-codegen)");
}

#[test]
fn tiled_sizes_that_do_not_divide() {
    check_all("builtin.module(poly-schedule,poly-tile{sizes=2},poly-codegen)");
    check_all("builtin.module(poly-schedule,poly-tile{sizes=5},poly-codegen)");
}

#[test]
fn tiled_other_wavefront_choices() {
    check_all("builtin.module(poly-schedule,poly-tile{sizes=3 intra=skew order=innermost},poly-codegen)");
    check_all("builtin.module(poly-schedule,poly-tile{sizes=4 inter=rectangular},poly-codegen)");
}

#[test]
fn array_copied_and_tiled() {
    // The copies must be as correct as the rest: compared with the array-copied program (all
    // fields, point updates of the copy statements included)…
    check_all_after(Some("poly-remove-false-deps"), "builtin.module(poly-schedule,poly-tile{sizes=3},poly-codegen)");
    // …which is itself checked against the original by poly-remove-false-deps' own tests.
}

#[test]
fn ssor_is_scheduled_with_its_backward_sweep_reversed() {
    // The reverse sweep needs negative coefficients: the scheduler renames its iterators
    // (docs/poly.md, "Reversed sweeps"), and the time loop, which no hyperplane shares with the
    // sweeps, goes first; each sweep's band is tiled.
    let (_, text) = examples().into_iter().find(|(n, _)| n == "ssor-2d-5pt").unwrap();
    let printed = check_pipeline(&text, "builtin.module(poly-schedule)", &[("T", 3), ("N", 9), ("M", 7)]).unwrap();
    assert!(
        printed.contains("poly.schedule = affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0, 1, -d1 - d2, -d2)>"),
        "{printed}"
    );
    for sizes in [2, 3, 5] {
        check_pipeline(
            &text,
            &format!("builtin.module(poly-schedule,poly-tile{{sizes={sizes}}},poly-codegen)"),
            &[("T", 3), ("N", 11), ("M", 9)],
        )
        .unwrap();
    }
}
