//! Workgroup buffers beyond CUDA's static limit: a kernel whose workgroup attributions need
//! more than 48 KiB per block cannot have them as static `.shared` arrays (ptxas refuses), but
//! an H100 block may use up to 227 KiB of *dynamic* shared memory. So, in the copy of the IR
//! handed to MLIR, such a kernel takes every buffer from one `gpu.dynamic_shared_memory` block
//! through `memref.view`s at fixed, aligned offsets ([`stencil_dialects::gpu::workgroup_layout`]),
//! and its attributions go away. The kernel's parameters do not change; the CUDA executor asks
//! for the same number of bytes at each launch (the same layout function decides both sides).
//! Our own IR, the simulator and the fingerprints keep the attributions.

use stencil_dialects::gpu::{workgroup_layout, AddressSpace, MAX_STATIC_SHARED_MEMORY, WORKGROUP_ATTRIBUTIONS_ATTR};
use stencil_ir::ir::{InsertPoint, OperationState};
use stencil_ir::types::{Dim, MemRefType};
use stencil_ir::{Attribute, Ir, OpId, Type};

/// Rewrites every kernel of `gpu_module` whose workgroup buffers exceed the static limit (see
/// the module documentation); returns how many it rewrote.
pub(super) fn use_dynamic_shared_memory(ir: &mut Ir, gpu_module: OpId) -> Result<usize, String> {
    let funcs = super::gpu_funcs(ir, gpu_module);
    let mut rewritten = 0;
    for func in funcs {
        let Some((offsets, total)) = workgroup_layout(ir, func) else { continue };
        if total <= MAX_STATIC_SHARED_MEMORY {
            continue;
        }
        let location = ir.location(func).clone();
        let entry = ir.regions(func).first().and_then(|&r| ir.entry_block(r)).ok_or("a gpu.func without body")?;
        let inputs = ir
            .attr(func, "function_type")
            .and_then(Attribute::as_type)
            .and_then(Type::as_function)
            .map_or(0, |f| f.inputs.len());
        if ir.block_args(entry).len() != inputs + offsets.len() {
            return Err(
                "a kernel with private attributions cannot take its workgroup buffers from dynamic shared memory"
                    .into(),
            );
        }
        let attributions: Vec<_> = ir.block_args(entry)[inputs..].to_vec();
        let mut bytes = MemRefType::new(vec![Dim::Dynamic], Type::Integer(8));
        bytes.memory_space = Some(AddressSpace::Workgroup.attr());
        let mut state = OperationState::new("gpu.dynamic_shared_memory", location.clone());
        state.result_types = vec![Type::memref(bytes)];
        let raw_op = ir.build(InsertPoint::Start(entry), state);
        let raw = ir.result(raw_op, 0);
        let mut at = InsertPoint::After(raw_op);
        for (&buffer, &offset) in attributions.iter().zip(&offsets) {
            let mut constant = OperationState::new("arith.constant", location.clone());
            constant.add_property("value", Attribute::index(i64::try_from(offset).map_err(|e| e.to_string())?));
            constant.result_types = vec![Type::Index];
            let offset_op = ir.build(at, constant);
            let mut view = OperationState::new("memref.view", location.clone());
            view.operands = vec![raw, ir.result(offset_op, 0)];
            view.result_types = vec![ir.value_type(buffer).clone()];
            let view_op = ir.build(InsertPoint::After(offset_op), view);
            ir.replace_all_uses(buffer, ir.result(view_op, 0));
            at = InsertPoint::After(view_op);
        }
        for _ in &attributions {
            ir.pop_block_argument(entry).ok_or("a workgroup buffer is still used after its view replaced it")?;
        }
        ir.set_attribute(func, WORKGROUP_ATTRIBUTIONS_ATTR, Attribute::i64(0));
        ir.remove_attr(func, "workgroup_attrib_attrs");
        tracing::debug!(bytes = total, "kernel takes its workgroup buffers from dynamic shared memory");
        rewritten += 1;
    }
    Ok(rewritten)
}
