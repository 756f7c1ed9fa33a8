//! The `poly-codegen` pass: every `stencil.program` becomes a `func.func` over memrefs whose
//! body is the scanned loop nest of its (tiled) schedule, in the `affine` dialect (DESIGN §5
//! "Scanning"; thesis §3.2.7, Figs. 3.16, 4.2, 4.7).
//!
//! The schedule is the one `poly-schedule` stored (`poly.schedule`; the original β schedule
//! when there is none), tiled as `poly-tile` recorded (`poly.tiling`; untiled when absent),
//! scanned by [`stencil_poly::codegen::generate`]; then `emit::Emitter` writes the loops and
//! copies each statement's body. The function follows the lowered-program convention of
//! `docs/runtime.md`, so `stencil-run --check` compares it with the program it came from.

pub(crate) mod emit;
pub(crate) mod signature;
pub(crate) mod statement;

use stencil_dialects::support::op_error;
use stencil_ir::pass::{OptionInfo, OptionKind, Pass, PassContext, PassFactory, PassInfo};
use stencil_ir::{DiagResult, Diagnostic, DialectRegistry, Ir, OpId};
use stencil_passes::tile::tile_program;
use stencil_poly::codegen::{generate, LoopNest, ScanOptions, ScanProblem};

use emit::Emitter;
use signature::create_lowered_func;

/// Options of [`lower_program`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodegenOptions {
    /// Emit DOALL loops as `affine.parallel` (otherwise every loop is an `affine.for`).
    pub parallel: bool,
}

impl Default for CodegenOptions {
    fn default() -> Self {
        CodegenOptions { parallel: true }
    }
}

/// The loop nest `poly-codegen` emits for `program` (its stored schedule and tiling, scanned).
pub fn program_loop_nest(ir: &Ir, registry: &DialectRegistry, program: OpId) -> Result<LoopNest, Diagnostic> {
    let tiled = tile_program(ir, registry, program)?;
    let problem = ScanProblem::from_tiled(&tiled.tiled, &tiled.info.scop)
        .map_err(|e| op_error(ir, program, format!("code generation failed: {e}")))?;
    generate(&problem, &ScanOptions::default())
        .map_err(|e| op_error(ir, program, format!("code generation failed: {e}")))
}

/// Replaces `program` by the `func.func` of the same name that runs its loop nest; returns
/// the function.
pub fn lower_program(
    ir: &mut Ir,
    registry: &DialectRegistry,
    program: OpId,
    options: &CodegenOptions,
) -> Result<OpId, Diagnostic> {
    let tiled = tile_program(ir, registry, program)?;
    let fail = |ir: &Ir, e: String| op_error(ir, program, format!("code generation failed: {e}"));
    let problem = ScanProblem::from_tiled(&tiled.tiled, &tiled.info.scop).map_err(|e| fail(ir, e.to_string()))?;
    let nest = generate(&problem, &ScanOptions::default()).map_err(|e| fail(ir, e.to_string()))?;
    tracing::debug!(program = %tiled.info.program_name(ir), "loop nest:\n{nest}");
    let func = create_lowered_func(ir, program, None).map_err(|e| fail(ir, e))?;
    let emitted = Emitter::new(ir, &nest, &tiled.info, &func, options.parallel).emit(func.ret);
    if let Err(e) = emitted {
        ir.erase_op(func.func);
        return Err(fail(ir, e));
    }
    ir.erase_op(program);
    // Calls of the program (raise-affine-to-stencil's wrappers) now call the function.
    if let Some(scope) = ir.parent_op(func.func) {
        let name = ir.attr(func.func, "sym_name").and_then(stencil_ir::Attribute::as_str).unwrap_or("").to_string();
        stencil_passes::raise::lower_stencil_calls(ir, scope, &name, func.func)
            .map_err(|e| op_error(ir, func.func, format!("poly-codegen: {e}")))?;
    }
    Ok(func.func)
}

/// Registration record of `poly-codegen`.
pub fn pass_info() -> PassInfo {
    PassInfo {
        argument: "poly-codegen",
        summary: "Lower each stencil.program to a func.func over memrefs running the scanned loop nest of its (tiled) schedule in the affine dialect",
        options: vec![OptionInfo {
            name: "parallel",
            kind: OptionKind::Bool,
            default: "true",
            description: "Emit loops that carry no dependence (DOALL) as affine.parallel",
        }],
        factory: PassFactory::new(|opts| Ok(Box::new(PolyCodegen { options: CodegenOptions { parallel: opts.bool("parallel") } }))),
        contract: stencil_passes::contract::lowering_pass(
            "poly-codegen lowers stencil.program ops to affine loops, after poly-schedule and poly-tile (in place of gpu-map), e.g. builtin.module(poly-schedule,poly-tile{sizes=16},poly-codegen)",
        ),
    }
}

/// Lowers every `stencil.program` at or below the anchor with [`lower_program`].
struct PolyCodegen {
    options: CodegenOptions,
}

impl Pass for PolyCodegen {
    fn argument(&self) -> &'static str {
        "poly-codegen"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        for program in stencil_passes::stencil_to_poly::stencil_programs(ir, root) {
            lower_program(ir, cx.registry, program, &self.options)?;
        }
        Ok(())
    }
}
