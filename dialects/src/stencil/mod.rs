//! The `stencil` dialect: the high-level input of stencil-opt (DESIGN §4, thesis Fig. 3.2).
//!
//! A `stencil.program` owns fields (arguments of type `!stencil.field<…>`), scalars and
//! symbolic parameters. `stencil.iterate` is a sequential loop; `stencil.apply` runs its body
//! for every point of a box, in lexicographic order (or reverse), and stores the yielded value
//! into the written field at the current point before the next point runs — in place, exactly
//! like the C loop nests of the seeds. The exact semantics are documented in
//! `docs/dialects/stencil.md`.

mod admissible;
pub mod builder;
mod call;
pub mod field;
pub mod linear;
mod ops;
pub mod updates;
mod verify;

pub use field::{FieldType, ParamExpr};
pub use ops::{add_field_argument, enclosing_program, program_arg_names, scalar_default, ApplyOrder, ProgramParams};

use stencil_ir::registry::{DialectDef, DialectRegistry, OpDef, OpTraits};

/// Registers the dialect.
pub fn register(r: &mut DialectRegistry) {
    r.register_dialect(DialectDef { check_type: Some(field::check_stencil_type), ..DialectDef::new("stencil") });
    r.register_op(OpDef {
        traits: OpTraits {
            isolated_from_above: true,
            symbol: true,
            single_block: true,
            no_terminator: true,
            ..OpTraits::default()
        },
        inherent_attrs: &["sym_name", "function_type", "arg_names", "param_names", "param_mins", "defaults"],
        arg_name_hint: Some(ops::program_arg_name_hint),
        parse: Some(ops::parse_program),
        print: Some(ops::print_program),
        verify: Some(verify::verify_program),
        ..OpDef::new("stencil.program", "A stencil program: fields, scalars, parameters and a body of sweeps")
    });
    r.register_op(OpDef {
        traits: OpTraits { single_block: true, no_terminator: true, ..OpTraits::default() },
        inherent_attrs: &["lower_bound", "upper_bound"],
        arg_name_hint: Some(ops::iterate_arg_name_hint),
        parse: Some(ops::parse_iterate),
        print: Some(ops::print_iterate),
        verify: Some(verify::verify_iterate),
        ..OpDef::new(
            "stencil.iterate",
            "A sequential loop over an induction variable with bounds affine in the parameters",
        )
    });
    r.register_op(OpDef {
        // Constants stay in the apply body: program and iterate bodies hold only sweeps.
        traits: OpTraits { single_block: true, constants_scope: true, ..OpTraits::default() },
        inherent_attrs: &["name", "lower_bounds", "upper_bounds", "order"],
        parse: Some(ops::parse_apply),
        print: Some(ops::print_apply),
        verify: Some(verify::verify_apply),
        ..OpDef::new("stencil.apply", "Updates one field at every point of a box, in place, in lexicographic order")
    });
    r.register_op(OpDef {
        traits: OpTraits { reads_memory: true, ..OpTraits::default() },
        inherent_attrs: &["offset", "map"],
        parse: Some(ops::parse_access),
        print: Some(ops::print_access),
        verify: Some(verify::verify_access),
        ..OpDef::new("stencil.access", "Reads a field at an offset from the current point (or at an affine index)")
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, ..OpTraits::default() },
        inherent_attrs: &["dim"],
        parse: Some(ops::parse_index),
        print: Some(ops::print_index),
        verify: Some(verify::verify_index),
        name_hint: Some(ops::index_name_hint),
        ..OpDef::new("stencil.index", "The current point's coordinate along one dimension")
    });
    r.register_op(OpDef {
        inherent_attrs: &["callee"],
        parse: Some(call::parse_call),
        print: Some(call::print_call),
        verify: Some(call::verify_call),
        ..OpDef::new(
            "stencil.call",
            "Runs a stencil.program on memrefs (its arguments in the lowered-program convention)",
        )
    });
    r.register_op(OpDef {
        traits: OpTraits { pure: true, terminator: true, ..OpTraits::default() },
        parse: Some(crate::func::parse_return_like),
        print: Some(crate::func::print_return_like),
        verify: Some(verify::verify_yield),
        ..OpDef::new("stencil.yield", "Yields the value stored at the current point")
    });
}
