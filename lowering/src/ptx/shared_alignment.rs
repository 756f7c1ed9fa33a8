//! Explicit alignment of static workgroup buffers, in the copy of the IR handed to MLIR.
//!
//! `convert-gpu-to-nvvm` turns each workgroup attribution into an `addrspace(3)` global whose
//! alignment is the attribution's `llvm.align`, or none. A global without explicit alignment is
//! treated inconsistently by LLVM 22: the middle end assumes the data layout's *preferred*
//! alignment, which is 16 bytes for any global larger than 16 bytes, and its load/store
//! vectoriser merges, e.g., sixteen `i8` mask stores into one `st.shared.v4.b32`; the NVPTX
//! printer, though, declares the array with the element's ABI alignment (`.shared .align 1`).
//! ptxas may then place the buffer at an odd address and the vector access traps: an H200 run
//! of the staged `polybench-heat-3d` f64 kernel (512³, tiles of 12x12x16) stopped with
//! `CUDA_ERROR_MISALIGNED_ADDRESS` (bench/results/2026-11-27-h200-24d76dc). 229 of the 834
//! PTX files of that bundle had such a pairing; the others ran only because of where the
//! buffers happened to land.
//!
//! So every workgroup attribution gets `llvm.align` = [`WORKGROUP_BUFFER_ALIGNMENT`] (16 bytes,
//! enough for any vector access the backend forms), the same alignment the dynamic-shared-memory
//! layout gives each buffer (`dynamic_shared`). Our own IR, the simulator and the fingerprints
//! keep the attributions as they are.

use stencil_dialects::gpu::{num_workgroup_attributions, WORKGROUP_BUFFER_ALIGNMENT};
use stencil_ir::attributes::set_named;
use stencil_ir::{Attribute, Ir, OpId};

/// The attribute MLIR's GPU-to-LLVM lowering reads for a workgroup global's alignment.
const LLVM_ALIGN: &str = "llvm.align";

/// Sets `llvm.align` on every workgroup attribution of every `gpu.func` under `gpu_module` (see
/// the module documentation), keeping the attributions' other attributes; returns how many
/// attributions it aligned.
pub(super) fn align_workgroup_buffers(ir: &mut Ir, gpu_module: OpId) -> Result<usize, String> {
    let funcs = super::gpu_funcs(ir, gpu_module);
    let alignment = i64::try_from(WORKGROUP_BUFFER_ALIGNMENT).map_err(|e| e.to_string())?;
    let mut aligned = 0;
    for func in funcs {
        let count = num_workgroup_attributions(ir, func);
        if count == 0 {
            continue;
        }
        let mut dicts: Vec<Vec<_>> = match ir.attr(func, "workgroup_attrib_attrs") {
            None => vec![vec![]; count],
            Some(Attribute::Array(items)) if items.len() == count => items
                .iter()
                .map(|item| match item {
                    Attribute::Dictionary(d) => Ok(d.clone()),
                    other => Err(format!("a workgroup attribution's attributes are not a dictionary: {other:?}")),
                })
                .collect::<Result<_, _>>()?,
            Some(_) => {
                return Err(format!(
                    "workgroup_attrib_attrs does not hold one dictionary per workgroup attribution ({count})"
                ))
            }
        };
        for dict in &mut dicts {
            set_named(dict, LLVM_ALIGN, Attribute::i64(alignment));
        }
        ir.set_property(
            func,
            "workgroup_attrib_attrs",
            Attribute::Array(dicts.into_iter().map(Attribute::Dictionary).collect()),
        );
        aligned += count;
    }
    Ok(aligned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stencil_ir::ir::WalkOrder;

    /// A kernel with an `i8` and an `f64` buffer, one of them already carrying an attribute.
    const KERNEL: &str = r#"
gpu.module @m {
  gpu.func @k(%a: memref<4xf64>) workgroup(%w0 : memref<18xi8, #gpu.address_space<workgroup>> {test.keep = 1 : i64}, %w1 : memref<4xf64, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}
"#;

    #[test]
    fn every_workgroup_attribution_is_aligned_and_keeps_its_attributes() {
        let registry = stencil_dialects::registry();
        let source = stencil_ir::SourceFile::new("k.mlir", KERNEL);
        let config = stencil_ir::parser::ParserConfig { registry: &registry, allow_unregistered: true };
        let stencil_ir::Module { mut ir, top: module, .. } =
            stencil_ir::parser::parse_source(&source, config).expect("the test kernel parses");
        let gm = ir
            .collect_ops(module, WalkOrder::PreOrder)
            .into_iter()
            .find(|&op| ir.op_name(op) == "gpu.module")
            .expect("a gpu.module");
        assert_eq!(align_workgroup_buffers(&mut ir, gm), Ok(2));
        let printed = stencil_ir::printer::print_op(&ir, &registry, module, Default::default());
        assert_eq!(align_workgroup_buffers(&mut ir, gm), Ok(2), "aligning twice changes nothing");
        assert_eq!(printed, stencil_ir::printer::print_op(&ir, &registry, module, Default::default()));
        assert!(
            printed.contains("{llvm.align = 16 : i64, test.keep = 1 : i64}"),
            "the i8 buffer keeps its attribute and is aligned: {printed}"
        );
        assert!(
            printed.contains("memref<4xf64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}"),
            "the f64 buffer is aligned: {printed}"
        );
    }
}
