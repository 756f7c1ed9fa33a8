//! Issue 17's round trip: every example, lowered by `poly-codegen` without tiling to affine
//! loops (its original loop order) and raised back by `raise-affine-to-stencil`, is the same
//! program up to naming — compared op by op — and gives the same fields bit for bit: the
//! raised program on the reference interpreter, and the original function (now a wrapper
//! calling the program) after tiling and `gpu-map` on the GPU simulator.

mod common;

use std::collections::HashMap;

use common::{examples, parse, registries, run_pipeline};
use stencil_dialects::stencil::ProgramParams;
use stencil_ir::ir::WalkOrder;
use stencil_ir::{Attribute, Ir, Module, OpId, ValueId};
use stencil_runtime::gpu_sim::{run_module_sim, SimOptions};
use stencil_runtime::{compare_fields, module_interface, run_module, FieldData, ProgramState};

/// Small sizes, as the GPU mapping tests use them: time-like parameters 3, the others 10
/// (3-D: 7).
fn params_of(name: &str, text: &str) -> Vec<(String, i64)> {
    let (dialects, _) = registries();
    let Ok(module) = parse(text, &dialects) else { return vec![] };
    let space = if name.contains("3d") { 7 } else { 10 };
    programs(&module)
        .first()
        .map(|&p| ProgramParams::of(&module.ir, p).names)
        .unwrap_or_default()
        .into_iter()
        .map(|p| {
            let v = if p == "T" { 3 } else { space };
            (p, v)
        })
        .collect()
}

fn programs(module: &Module) -> Vec<OpId> {
    module
        .ir
        .collect_ops(module.top, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&o| module.ir.op_name(o) == "stencil.program")
        .collect()
}

fn sym_name(ir: &Ir, op: OpId) -> String {
    ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or_default().to_string()
}

/// The example lowered by `poly-codegen` and raised back.
fn round_trip(text: &str) -> Result<Module, String> {
    round_trip_with(text, "poly-codegen")
}

/// The example lowered by `lowering` (a `poly-codegen` variant) and raised back.
fn round_trip_with(text: &str, lowering: &str) -> Result<Module, String> {
    let (dialects, _) = registries();
    let mut module = parse(text, &dialects)?;
    run_pipeline(&mut module, &format!("builtin.module({lowering})"))?;
    if !programs(&module).is_empty() {
        return Err("poly-codegen left a stencil.program".into());
    }
    run_pipeline(&mut module, "builtin.module(raise-affine-to-stencil{strict=true})")?;
    Ok(module)
}

/// Compares two ops and everything nested in them: names, properties and discardable
/// attributes (except the names a raise chooses: symbol and statement names), operands (by
/// the correspondence of the values defined so far), result and block argument types.
fn same_structure(
    a: &Ir,
    x: OpId,
    b: &Ir,
    y: OpId,
    values: &mut HashMap<ValueId, ValueId>,
    path: &str,
) -> Result<(), String> {
    let here = format!("{path}/{}", a.op_name(x));
    if a.op_name(x) != b.op_name(y) {
        return Err(format!("{here}: '{}' instead of '{}'", b.op_name(y), a.op_name(x)));
    }
    let naming = |n: &str| n == "sym_name" || (a.op_name(x) == "stencil.apply" && n == "name");
    let props = |ir: &Ir, o: OpId| -> Vec<(String, Attribute)> {
        ir.properties(o)
            .iter()
            .chain(ir.attributes(o))
            .filter(|p| !naming(&p.name))
            .map(|p| (p.name.to_string(), p.value.clone()))
            .collect()
    };
    if props(a, x) != props(b, y) {
        return Err(format!("{here}: attributes differ:\n  {:?}\n  {:?}", props(a, x), props(b, y)));
    }
    if a.operands(x).len() != b.operands(y).len() {
        return Err(format!("{here}: {} operands instead of {}", b.operands(y).len(), a.operands(x).len()));
    }
    for (k, (&u, &v)) in a.operands(x).iter().zip(b.operands(y)).enumerate() {
        if values.get(&u) != Some(&v) {
            return Err(format!("{here}: operand {k} is not the corresponding value"));
        }
    }
    if a.results(x).len() != b.results(y).len() {
        return Err(format!("{here}: result counts differ"));
    }
    for (&u, &v) in a.results(x).iter().zip(b.results(y)) {
        if a.value_type(u) != b.value_type(v) {
            return Err(format!("{here}: result type '{}' instead of '{}'", b.value_type(v), a.value_type(u)));
        }
        values.insert(u, v);
    }
    if a.regions(x).len() != b.regions(y).len() {
        return Err(format!("{here}: region counts differ"));
    }
    for (&r, &s) in a.regions(x).iter().zip(b.regions(y)) {
        if a.blocks(r).len() != b.blocks(s).len() {
            return Err(format!("{here}: block counts differ"));
        }
        for (&p, &q) in a.blocks(r).iter().zip(b.blocks(s)) {
            if a.block_args(p).len() != b.block_args(q).len() {
                return Err(format!("{here}: block argument counts differ"));
            }
            for (&u, &v) in a.block_args(p).iter().zip(b.block_args(q)) {
                if a.value_type(u) != b.value_type(v) {
                    return Err(format!(
                        "{here}: block argument type '{}' instead of '{}'",
                        b.value_type(v),
                        a.value_type(u)
                    ));
                }
                values.insert(u, v);
            }
            let (ops_a, ops_b) = (a.block_ops(p), b.block_ops(q));
            if ops_a.len() != ops_b.len() {
                return Err(format!("{here}: {} ops instead of {}", ops_b.len(), ops_a.len()));
            }
            for (&o, &t) in ops_a.iter().zip(&ops_b) {
                same_structure(a, o, b, t, values, &here)?;
            }
        }
    }
    Ok(())
}

#[test]
fn every_example_round_trips_to_the_same_program() {
    let mut failures = vec![];
    let mut checked = 0;
    for (name, text) in examples() {
        let (dialects, _) = registries();
        let original = match parse(&text, &dialects) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        // DOALL loops as affine.parallel (the default) and as affine.for.
        for lowering in ["poly-codegen", "poly-codegen{parallel=false}"] {
            let raised = match round_trip_with(&text, lowering) {
                Ok(m) => m,
                Err(e) => {
                    failures.push(format!("{name} ({lowering}): {e}"));
                    continue;
                }
            };
            let (before, after) = (programs(&original), programs(&raised));
            if before.len() != 1 || after.len() != 1 {
                failures.push(format!(
                    "{name} ({lowering}): {} program(s) before, {} after",
                    before.len(),
                    after.len()
                ));
                continue;
            }
            match same_structure(&original.ir, before[0], &raised.ir, after[0], &mut HashMap::new(), "") {
                Ok(()) => checked += 1,
                Err(e) => failures.push(format!("{name} ({lowering}): {e}")),
            }
        }
        let raised = match round_trip(&text) {
            Ok(m) => m,
            Err(_) => continue,
        };
        let before = programs(&original);
        let after = programs(&raised);
        // The wrapper keeps the lowered function's name and calls the program.
        let wrapper = sym_name(&original.ir, before[0]);
        let program = sym_name(&raised.ir, after[0]);
        assert_eq!(program, format!("{wrapper}_stencil"), "{name}");
        let calls = raised
            .ir
            .collect_ops(raised.top, WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| raised.ir.op_name(o) == "stencil.call")
            .count();
        assert_eq!(calls, 1, "{name}: one call of the program");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!("{checked} (example, lowering) pairs: poly-codegen then raise-affine-to-stencil gives the same program");
}

/// Pseudo-random fields for the entry `entry` of `module` with `params`.
fn state_for(module: &Module, entry: &str, params: &[(String, i64)]) -> Result<ProgramState, String> {
    let mut state = ProgramState::new();
    for (n, v) in params {
        state = state.with_param(n, *v);
    }
    let interface = module_interface(module, Some(entry), &state).map_err(|e| e.to_string())?;
    for (seed, f) in interface.fields.iter().enumerate() {
        let data =
            FieldData::pseudo_random(f.shape.clone(), f.element, 1000 + seed as u64).map_err(|e| e.to_string())?;
        state.fields.insert(f.name.clone(), data);
    }
    Ok(state)
}

fn compare(name: &str, before: &ProgramState, after: &ProgramState, what: &str) -> Result<(), String> {
    for (field, expected) in &before.fields {
        let actual = after.fields.get(field).ok_or_else(|| format!("{name}: {what}: field {field} missing"))?;
        let c = compare_fields(expected, actual);
        if !c.bit_exact() {
            return Err(format!(
                "{name}: {what}: field {field} differs at {} positions, first {:?}",
                c.differing, c.first_difference
            ));
        }
    }
    Ok(())
}

#[test]
fn every_example_round_trip_runs_bit_exact_on_the_reference() {
    let mut failures = vec![];
    for (name, text) in examples() {
        let result = (|| -> Result<(), String> {
            let (dialects, _) = registries();
            let original = parse(&text, &dialects)?;
            let raised = round_trip(&text)?;
            let program = sym_name(&raised.ir, programs(&raised)[0]);
            let wrapper = sym_name(&original.ir, programs(&original)[0]);
            let params = params_of(&name, &text);
            let mut before = state_for(&original, &wrapper, &params)?;
            let mut after = before.clone();
            let runs = (
                run_module(&original, None, &mut before).map_err(|e| e.to_string())?,
                run_module(&raised, Some(&program), &mut after).map_err(|e| e.to_string())?,
            );
            compare(&name, &before, &after, "raised program")?;
            if runs.0.point_updates != runs.1.point_updates {
                return Err(format!(
                    "{name}: {} point updates, {} after the round trip",
                    runs.0.point_updates, runs.1.point_updates
                ));
            }
            // Lowered again, the wrapper (the function callers know) runs the program.
            let mut lowered = raised.clone();
            run_pipeline(&mut lowered, "builtin.module(poly-codegen)")?;
            let mut through_wrapper = state_for(&original, &wrapper, &params)?;
            run_module(&lowered, Some(&wrapper), &mut through_wrapper).map_err(|e| e.to_string())?;
            compare(&name, &before, &through_wrapper, "wrapper after lowering")
        })();
        if let Err(e) = result {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_example_round_trip_runs_bit_exact_on_the_simulator_after_tiling() {
    // SSOR's reverse sweep has no schedule with non-negative coefficients (docs/poly.md).
    let skip = ["ssor-2d-5pt"];
    let mut failures = vec![];
    let mut checked = 0;
    for (name, text) in examples() {
        if skip.contains(&name.as_str()) {
            continue;
        }
        let result = (|| -> Result<(), String> {
            let (dialects, _) = registries();
            let original = parse(&text, &dialects)?;
            let mut mapped = round_trip(&text)?;
            run_pipeline(&mut mapped, "builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=4,2 grid=3})")?;
            let wrapper = sym_name(&original.ir, programs(&original)[0]);
            let params = params_of(&name, &text);
            let mut before = state_for(&original, &wrapper, &params)?;
            let mut after = before.clone();
            run_module(&original, None, &mut before).map_err(|e| e.to_string())?;
            let sim = run_module_sim(&mapped, Some(&wrapper), &mut after, &SimOptions::default())
                .map_err(|e| format!("{name}: {e}"))?;
            if sim.sim.launches.is_empty() {
                return Err(format!("{name}: the wrapper launched no kernel"));
            }
            compare(&name, &before, &after, "wrapper on the simulator")
        })();
        match result {
            Ok(()) => checked += 1,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!("{checked} examples: raised, tiled and mapped, bit-identical on the simulator");
}
