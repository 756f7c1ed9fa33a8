//! The `func.func` a lowered `stencil.program` becomes (the lowered-program convention of
//! `docs/runtime.md`): fields as memrefs and scalars in program argument order, then the
//! parameters as `index` values, with the attributes that let `stencil-run` treat it exactly
//! like the program.

use std::collections::BTreeMap;
use stencil_dialects::stencil::{program_arg_names, updates, FieldType, ParamExpr, ProgramParams};
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::types::{Dim, MemRefType};
use stencil_ir::{Attribute, BlockId, Ir, NamedAttribute, OpId, Type, ValueId};

/// A created function: its op, entry block, and the values standing for the program's
/// arguments and parameters.
pub(crate) struct LoweredFunc {
    /// The `func.func`.
    pub func: OpId,
    /// Per program argument (entry block argument of the program), the function argument.
    pub args: Vec<(ValueId, ValueId)>,
    /// Per parameter, in declaration order, the `index` argument.
    pub params: Vec<ValueId>,
    /// The `func.return`.
    pub ret: OpId,
}

/// The memref type of a field: `memref<?x…xf64>`, static where the extent is a constant, and
/// everywhere when `sizes` gives the parameters' values (`gpu-map{static-shapes=true}`: an
/// extent that does not evaluate to a positive `i64` stays dynamic).
fn memref_of(field: &FieldType, sizes: Option<&BTreeMap<String, i64>>) -> Type {
    let extent = |e: &ParamExpr| -> Option<i64> {
        if e.terms.is_empty() {
            return Some(e.constant);
        }
        let sizes = sizes?;
        e.eval(&|name| sizes.get(name).copied()).filter(|&n| n > 0)
    };
    let shape = field.shape.iter().map(|e| extent(e).map_or(Dim::Dynamic, Dim::Static)).collect();
    Type::memref(MemRefType::new(shape, field.element_type()))
}

/// The program's point updates as a function of its parameters, for `stencil.point_updates`
/// (`stencil_dialects::stencil::updates`): what an SOR rewrite recorded (`sor.rewrite`'s
/// `point_updates`: its masked applies each update part of their box) or else one term per
/// apply. A kernel that stages its tile in shared memory stores to the field once per element
/// and tile, not once per update, so a run of the lowered function cannot count its stores
/// instead.
fn point_update_terms(ir: &Ir, program: OpId, block: BlockId) -> Option<Attribute> {
    updates::rewrite_point_update_terms(ir, program).cloned().or_else(|| updates::point_update_terms(ir, block))
}

/// Creates, right before `program`, the `func.func` of the same name that it lowers to
/// (empty body ending in `func.return`); its fields have static shapes where `sizes` gives the
/// parameters' values ([`memref_of`]).
pub(crate) fn create_lowered_func(
    ir: &mut Ir,
    program: OpId,
    sizes: Option<&BTreeMap<String, i64>>,
) -> Result<LoweredFunc, String> {
    let name = ir.attr(program, "sym_name").and_then(Attribute::as_str).unwrap_or("").to_string();
    let block = ir.regions(program).first().and_then(|&r| ir.entry_block(r)).ok_or("the program has no body")?;
    let program_args: Vec<ValueId> = ir.block_args(block).to_vec();
    let arg_names: Vec<String> = program_arg_names(ir, program)
        .into_iter()
        .enumerate()
        .map(|(i, n)| n.unwrap_or_else(|| format!("arg{i}")))
        .collect();
    let params = ProgramParams::of(ir, program);
    let mut inputs = Vec::with_capacity(program_args.len() + params.names.len());
    let mut field_types = Vec::new();
    for &a in &program_args {
        let ty = ir.value_type(a).clone();
        match FieldType::from_type(&ty) {
            Some(f) => {
                inputs.push(memref_of(&f, sizes));
                field_types.push(Attribute::string(&f.body()));
            }
            None => inputs.push(ty),
        }
    }
    inputs.extend(params.names.iter().map(|_| Type::Index));
    let location = ir.location(program).clone();
    let region = ir.create_region();
    let entry = ir.append_block(region, &inputs);
    let mut state = OperationState::new("func.func", location.clone());
    state.add_property("sym_name", Attribute::string(&name));
    state.add_property("function_type", Attribute::ty(Type::function(inputs.clone(), vec![])));
    let strings = |v: &[String]| Attribute::Array(v.iter().map(|s| Attribute::string(s)).collect());
    state.add_attribute("stencil.arg_names", strings(&arg_names));
    state.add_attribute("stencil.param_names", strings(&params.names));
    state.add_attribute(
        "stencil.param_mins",
        Attribute::Array(params.mins.iter().map(|&m| Attribute::i64(m)).collect()),
    );
    state.add_attribute("stencil.field_types", Attribute::Array(field_types));
    if let Some(terms) = point_update_terms(ir, program, block) {
        state.add_attribute("stencil.point_updates", terms);
    }
    if let Some(Attribute::Dictionary(d)) = ir.attr(program, "defaults") {
        let d: Vec<NamedAttribute> = d.clone();
        state.add_attribute("stencil.defaults", Attribute::Dictionary(d));
    }
    // What a non-dependence-preserving SOR rewrite recorded (`stencil-run --converge` counts
    // sweeps with its `sweeps_per_step`) stays with the lowered function.
    if let Some(rewrite) = ir.attr(program, updates::SOR_REWRITE_ATTR) {
        state.add_attribute(updates::SOR_REWRITE_ATTR, rewrite.clone());
    }
    state.regions.push(region);
    let func = ir.build(InsertPoint::Before(program), state);
    let ret = ir.build(InsertPoint::End(entry), OperationState::new("func.return", location));
    let func_args = ir.block_args(entry).to_vec();
    let n = program_args.len();
    Ok(LoweredFunc {
        func,
        args: program_args.into_iter().zip(func_args[..n].iter().copied()).collect(),
        params: func_args[n..].to_vec(),
        ret,
    })
}
