//! Lowering the calls of a lowered program: once `poly-codegen` or `gpu-map` has replaced a
//! `stencil.program @P` by `func.func @P` (the lowered-program convention, whose arguments are
//! exactly a `stencil.call`'s operands), every `stencil.call @P` becomes `func.call @P`.

use stencil_ir::ir::{InsertPoint, OperationState, WalkOrder};
use stencil_ir::types::Dim;
use stencil_ir::{Attribute, Ir, OpId, Type};

/// Whether a value of memref type `from` can be passed where `to` is expected through a
/// `memref.cast`: same rank, element type, layout and memory space, and every static size of
/// `to` is the same static size in `from` or dynamic there (a function lowered with
/// `gpu-map{static-shapes=true}` takes the problem's static shapes; the cast is checked when it
/// runs, as MLIR's is, and the runtimes check it).
fn castable(from: &Type, to: &Type) -> bool {
    let (Some(a), Some(b)) = (from.as_memref(), to.as_memref()) else { return false };
    let (Some(sa), Some(sb)) = (&a.shape, &b.shape) else { return false };
    sa.len() == sb.len()
        && a.element == b.element
        && a.layout == b.layout
        && a.memory_space == b.memory_space
        && sa.iter().zip(sb).all(|(x, y)| matches!(x, Dim::Dynamic) || matches!(y, Dim::Dynamic) || x == y)
}

/// Turns every `stencil.call @name` nested in `scope` into a `func.call` of `func` (the
/// `func.func @name` the program was lowered to); a memref operand whose sizes are static where
/// the function takes dynamic ones, or the other way round, goes through a `memref.cast`. Returns how many calls changed, or
/// the first operand that does not fit (a call the stencil verifier would have rejected).
pub fn lower_stencil_calls(ir: &mut Ir, scope: OpId, name: &str, func: OpId) -> Result<usize, String> {
    let Some(inputs) = ir
        .attr(func, "function_type")
        .and_then(Attribute::as_type)
        .and_then(Type::as_function)
        .map(|f| f.inputs.clone())
    else {
        return Err(format!("@{name} has no function type"));
    };
    let calls: Vec<OpId> = ir
        .collect_ops(scope, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&op| {
            ir.op_name(op) == "stencil.call" && ir.attr(op, "callee").and_then(Attribute::as_flat_symbol) == Some(name)
        })
        .collect();
    for &call in &calls {
        let operands = ir.operands(call).to_vec();
        if operands.len() != inputs.len() {
            return Err(format!(
                "a stencil.call of @{name} passes {} operands, the lowered function takes {}",
                operands.len(),
                inputs.len()
            ));
        }
        let location = ir.location(call).clone();
        let mut passed = vec![];
        for (k, (&v, to)) in operands.iter().zip(&inputs).enumerate() {
            let from = ir.value_type(v).clone();
            if &from == to {
                passed.push(v);
            } else if castable(&from, to) {
                let mut cast = OperationState::new("memref.cast", location.clone());
                cast.operands = vec![v];
                cast.result_types = vec![to.clone()];
                let cast = ir.build(InsertPoint::Before(call), cast);
                passed.push(ir.result(cast, 0));
            } else {
                return Err(format!(
                    "operand #{k} of a stencil.call of @{name} has type '{from}', which cannot be passed as '{to}'"
                ));
            }
        }
        let mut state = OperationState::new("func.call", location);
        state.add_property("callee", Attribute::symbol(name));
        state.operands = passed;
        ir.build(InsertPoint::Before(call), state);
        ir.erase_op(call);
    }
    Ok(calls.len())
}
