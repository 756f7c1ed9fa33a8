//! The melior side of the PTX bridge: an MLIR 22 context that parses printed `gpu.module`s,
//! runs the GPU pipeline and hands back the PTX, with MLIR's diagnostics captured.

use super::{MlirStage, PtxError};
use melior::diagnostic::{Diagnostic as MlirDiagnostic, DiagnosticHandlerId, DiagnosticSeverity};
use melior::dialect::DialectRegistry as MlirDialectRegistry;
use melior::ir::attribute::AttributeLike;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, Location as MlirLocation, Module, Operation, RegionLike};
use melior::pass::PassManager;
use melior::utility::{
    parse_pass_pipeline, register_all_dialects, register_all_llvm_translations, register_all_passes,
};
use melior::{Context, StringRef};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use stencil_ir::{Diagnostic, Location, Severity};

/// An MLIR context with every dialect, pass and LLVM translation registered, collecting the
/// diagnostics MLIR emits. `!Send`, like the context it holds: one per thread.
pub(super) struct Session {
    context: Context,
    diagnostics: Rc<RefCell<Vec<Diagnostic>>>,
    handler: DiagnosticHandlerId,
}

/// The buffer name of a printed `gpu.module`'s text, which diagnostics about that text (parse
/// errors) carry as their file.
fn printed_text_name(module: &str) -> String {
    format!("<gpu.module @{module} as printed for MLIR>")
}

impl Session {
    /// A fresh context. Threading is off: each context would otherwise start its own thread
    /// pool, and a handful of small `gpu.module`s gain nothing from it.
    pub(super) fn new() -> Self {
        // Once per process (melior guards it): registering twice double-frees in MLIR.
        register_all_passes();
        let registry = MlirDialectRegistry::new();
        register_all_dialects(&registry);
        let context = Context::new_with_registry(&registry, false);
        // gpu-module-to-binary translates the NVVM dialect to LLVM IR.
        register_all_llvm_translations(&context);
        // Our ops may carry attributes of our own dialects (`poly.*`); MLIR must keep them.
        context.set_allow_unregistered_dialects(true);
        let diagnostics = Rc::new(RefCell::new(Vec::new()));
        let sink = Rc::clone(&diagnostics);
        let handler = context.attach_diagnostic_handler(move |diagnostic| {
            sink.borrow_mut().push(convert_diagnostic(&diagnostic));
            // Handled: MLIR must not print it to stderr as well.
            true
        });
        Session { context, diagnostics, handler }
    }

    /// Parses `text` (one `gpu.module` in a container module), lowers it with `pipeline` and
    /// returns the PTX of the resulting `gpu.binary`. `needs_math_to_funcs`: the module holds
    /// `math.ipowi`/`math.fpowi`, which only `convert-math-to-funcs` lowers.
    pub(super) fn compile(
        &self,
        module_name: &str,
        text: &str,
        pipeline: &str,
        needs_math_to_funcs: bool,
        location: &Location,
    ) -> Result<String, PtxError> {
        self.diagnostics.borrow_mut().clear();
        let mlir_error = |stage, diagnostics: Vec<Diagnostic>| PtxError::Mlir {
            module: module_name.to_string(),
            stage,
            diagnostics: if diagnostics.is_empty() {
                vec![Diagnostic::error(location.clone(), format!("MLIR failed to {stage} without a diagnostic"))]
            } else {
                diagnostics
            },
        };
        // MLIR's lexer stops at a NUL; our printer escapes them, so one here is a bug: say so.
        if text.contains('\0') {
            return Err(mlir_error(
                MlirStage::Parse,
                vec![Diagnostic::error(location.clone(), "printed gpu.module contains a NUL byte")],
            ));
        }
        let Some(mut module) = self.parse(text, &printed_text_name(module_name)) else {
            let diagnostics = self.take_diagnostics(module_name, text);
            return Err(mlir_error(MlirStage::Parse, diagnostics));
        };
        if needs_math_to_funcs {
            self.convert_math_to_funcs(&mut module)
                .map_err(|()| mlir_error(MlirStage::Lower, self.take_diagnostics(module_name, text)))?;
        }
        let pass_manager = PassManager::new(&self.context);
        if let Err(e) = parse_pass_pipeline(pass_manager.as_operation_pass_manager(), pipeline) {
            let mut diagnostics = self.take_diagnostics(module_name, text);
            diagnostics.push(Diagnostic::error(Location::Unknown, format!("bad pass pipeline '{pipeline}': {e}")));
            return Err(mlir_error(MlirStage::Lower, diagnostics));
        }
        if pass_manager.run(&mut module).is_err() {
            return Err(mlir_error(MlirStage::Lower, self.take_diagnostics(module_name, text)));
        }
        // Warnings and remarks of a successful run are only worth a log line.
        for diagnostic in self.take_diagnostics(module_name, text) {
            tracing::debug!("MLIR: {}", diagnostic.render());
        }
        extract_ptx(&module).map_err(|reason| PtxError::NoPtx {
            module: module_name.to_string(),
            reason,
            location: location.clone(),
        })
    }

    /// Parses `text`, naming the buffer `buffer_name` in diagnostics (`Module::parse` leaves
    /// it as `-`, which could be mistaken for a file of the user's).
    fn parse(&self, text: &str, buffer_name: &str) -> Option<Module<'_>> {
        // SAFETY: the context is live; both string references outlive the call, and MLIR copies
        // what it keeps. A null result (parse failure) becomes `None`.
        let operation = unsafe {
            Operation::from_option_raw(mlir_sys::mlirOperationCreateParse(
                self.context.to_raw(),
                StringRef::new(text).to_raw(),
                StringRef::new(buffer_name).to_raw(),
            ))
        }?;
        Module::from_operation(operation)
    }

    /// `convert-math-to-funcs` writes the software `ipowi`/`fpowi` it generates as `func.func`s
    /// at the top of the *builtin* module (it only runs there), where the calls inside the
    /// `gpu.module` cannot see them. Run it without the verifier, then move the functions into
    /// the `gpu.module` (there is exactly one per compiled text), then verify.
    fn convert_math_to_funcs(&self, module: &mut Module) -> Result<(), ()> {
        let pass_manager = PassManager::new(&self.context);
        pass_manager.enable_verifier(false);
        parse_pass_pipeline(pass_manager.as_operation_pass_manager(), "builtin.module(convert-math-to-funcs)")
            .map_err(|_| ())?;
        pass_manager.run(module).map_err(|_| ())?;
        let body = module.body();
        let mut gpu_module_block = None;
        let mut generated = vec![];
        let mut next = body.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            match op.name().as_string_ref().as_str() {
                Ok("gpu.module") => {
                    gpu_module_block = op.region(0).ok().and_then(|r| r.first_block()).map(|b| b.to_raw())
                }
                Ok("func.func") => generated.push(op.to_raw()),
                _ => {}
            }
        }
        let Some(block) = gpu_module_block else { return Err(()) };
        for op in generated {
            // SAFETY: `op` is a live top-level operation of `module` (collected above, nothing
            // erased since); removing it transfers ownership to us, and appending it hands that
            // ownership to the gpu.module's block, which outlives this call with `module`.
            unsafe {
                mlir_sys::mlirOperationRemoveFromParent(op);
                mlir_sys::mlirBlockAppendOwnedOperation(block, op);
            }
        }
        if module.as_operation().verify() {
            Ok(())
        } else {
            Err(())
        }
    }

    /// The diagnostics collected since the last call. Those located in the printed text (parse
    /// errors) get the offending line as a note, since the user never saw that text.
    fn take_diagnostics(&self, module_name: &str, text: &str) -> Vec<Diagnostic> {
        let name = printed_text_name(module_name);
        std::mem::take(&mut *self.diagnostics.borrow_mut())
            .into_iter()
            .map(|mut diagnostic| {
                if let Some((file, line, _)) = diagnostic.location.file_position() {
                    if file == name {
                        if let Some(source) = text.lines().nth(line.saturating_sub(1) as usize) {
                            let note = format!("in the text given to MLIR: {}", source.trim());
                            diagnostic.notes.push(Diagnostic::note(diagnostic.location.clone(), note));
                        }
                    }
                }
                diagnostic
            })
            .collect()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The handler's closure owns an Rc clone; detach before the context goes away.
        self.context.detach_diagnostic_handler(self.handler);
    }
}

fn convert_diagnostic(diagnostic: &MlirDiagnostic<'_>) -> Diagnostic {
    let severity = match diagnostic.severity() {
        DiagnosticSeverity::Error => Severity::Error,
        DiagnosticSeverity::Warning => Severity::Warning,
        DiagnosticSeverity::Note => Severity::Note,
        DiagnosticSeverity::Remark => Severity::Remark,
    };
    let notes = (0..diagnostic.note_count())
        .filter_map(|i| diagnostic.note(i).ok())
        .map(|note| convert_diagnostic(&note))
        // MLIR attaches a generic dump of the half-lowered op to pass failures: pages of LLVM
        // dialect IR the user never wrote. Kept in the debug log only.
        .filter(|note| {
            let dump = note.message.starts_with("see current operation:");
            if dump {
                tracing::debug!("MLIR: {}", note.message);
            }
            !dump
        })
        .collect();
    Diagnostic { severity, location: convert_location(&diagnostic.location()), message: diagnostic.to_string(), notes }
}

/// MLIR's location as ours: file/line/column through names, call sites and fusions.
fn convert_location(location: &MlirLocation<'_>) -> Location {
    if location.is_file_line_col_range() {
        let file: Arc<str> = location.file_line_col_range_filename().as_string_ref().as_str().unwrap_or("").into();
        let line = u32::try_from(location.file_line_col_range_start_line()).unwrap_or(u32::MAX);
        let col = u32::try_from(location.file_line_col_range_start_column()).unwrap_or(u32::MAX);
        Location::FileLineCol { file, line, col }
    } else if location.is_name() {
        convert_location(&location.name_child_location())
    } else if location.is_call_site() {
        Location::CallSite {
            callee: Box::new(convert_location(&location.call_site_callee())),
            caller: Box::new(convert_location(&location.call_site_caller())),
        }
    } else if location.is_fused() {
        // (melior does not expose the metadata: diagnostics need only the positions)
        Location::Fused {
            metadata: None,
            locations: (0..location.fused_num_locations())
                .map(|i| convert_location(&location.fused_location(i)))
                .collect(),
        }
    } else {
        Location::Unknown
    }
}

/// The PTX text of the one `#gpu.object` of the one `gpu.binary` in `module`.
fn extract_ptx(module: &Module) -> Result<String, String> {
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() != Ok("gpu.binary") {
            continue;
        }
        let objects = op.attribute("objects").map_err(|e| format!("gpu.binary has no objects: {e}"))?;
        let raw = objects.to_raw();
        // SAFETY: plain queries of a live attribute owned by the context; the string reference
        // returned by mlirGPUObjectAttrGetObject points into that attribute's storage and is
        // copied before the module (and the context) can go away.
        unsafe {
            if !mlir_sys::mlirAttributeIsAArray(raw) || mlir_sys::mlirArrayAttrGetNumElements(raw) != 1 {
                return Err("gpu.binary does not hold exactly one object".to_string());
            }
            let object = mlir_sys::mlirArrayAttrGetElement(raw, 0);
            if !mlir_sys::mlirAttributeIsAGPUObjectAttr(object) {
                return Err("gpu.binary's object is not a #gpu.object".to_string());
            }
            let text = mlir_sys::mlirGPUObjectAttrGetObject(object);
            if text.data.is_null() || text.length == 0 {
                return Err("the #gpu.object is empty".to_string());
            }
            let bytes = std::slice::from_raw_parts(text.data.cast::<u8>(), text.length);
            return String::from_utf8(bytes.to_vec())
                .map_err(|_| "the object is not text (not format=isa?)".to_string());
        }
    }
    Err("the module holds no gpu.binary".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::PtxOptions;

    #[test]
    fn parse_errors_carry_mlir_words_and_the_offending_line() {
        let session = Session::new();
        let text =
            "module attributes {gpu.container_module} {\n  gpu.module @m {\n    %x = arith.constant : i32\n  }\n}\n";
        let pipeline = PtxOptions::default().pipeline();
        let err = session.compile("m", text, &pipeline, false, &Location::Unknown).unwrap_err();
        let PtxError::Mlir { stage: MlirStage::Parse, diagnostics, .. } = &err else { panic!("{err}") };
        let first = &diagnostics[0];
        assert_eq!(first.location.file_position(), Some(("<gpu.module @m as printed for MLIR>", 3, 24)), "{err}");
        assert!(first.notes.iter().any(|n| n.message.contains("%x = arith.constant : i32")), "{err}");
        // The session stays usable after a failure, and diagnostics do not leak into the next run.
        let ok = "module attributes {gpu.container_module} {\n  gpu.module @m {\n    gpu.func @k() kernel {\n      gpu.return\n    }\n  }\n}\n";
        let ptx = session.compile("m", ok, &pipeline, false, &Location::Unknown).unwrap_or_else(|e| panic!("{e}"));
        assert!(ptx.contains(".entry k()"), "{ptx}");
    }
}
