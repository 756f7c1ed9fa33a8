//! The one error type of the front door: every failure keeps its own structure (a located
//! diagnostic, a runtime error naming the op, a PTX or GPU error) and prints like the tools
//! print it.

use stencil_ir::{Diagnostic, SourceFile};

/// Why a [`crate::Compiler`] call failed. More variants may come (match with a `_` arm).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Parsing, verification or a pass failed: `file:line:col: error: …`, with the source line
    /// and a caret when the text is at hand (parsing), and notes.
    #[error("{rendered}")]
    Diagnostic {
        /// The diagnostic, with its location and notes.
        diagnostic: Box<Diagnostic>,
        /// How the tools print it.
        rendered: String,
    },
    /// The pass pipeline is not valid: syntax (with the position), an unknown pass, options a
    /// pass does not take, an order that cannot work — one variant of
    /// [`PipelineError`](stencil_ir::pass::PipelineError) each. Refused before the IR is touched.
    #[error("{}", pipeline_message(.0))]
    Pipeline(stencil_ir::pass::PipelineError),
    /// [`crate::Target::Simulator`] or [`crate::Target::Gpu`] on a program without GPU kernels:
    /// `gpu-map` did not run (an unmapped program would run on the CPU, and nothing of a GPU
    /// mapping would be tested).
    #[error("Target::{target:?} runs programs mapped to the GPU, and this one is not: run a pipeline that ends with gpu-map first, e.g. builtin.module(gpu-map{{strategy=auto}}); Target::Reference runs it as it is")]
    NotGpuMapped {
        /// The target asked for.
        target: crate::Target,
    },
    /// [`crate::Compiler::ptx`] on a module without GPU kernels (`gpu-map` did not run), as
    /// `stencil-opt --emit=ptx` refuses it.
    #[error("the module has no GPU kernels to compile to PTX: run a pipeline that ends with gpu-map first, e.g. builtin.module(gpu-map{{strategy=auto}})")]
    NoKernels,
    /// The program failed to run (bad parameters or fields, an error at an op, a data race).
    #[error(transparent)]
    Run(#[from] stencil_runtime::RuntimeError),
    /// Compiling kernels to PTX failed.
    #[error(transparent)]
    Ptx(#[from] stencil_lowering::ptx::PtxError),
    /// The GPU could not be used or a kernel failed on it.
    #[error(transparent)]
    Gpu(#[from] stencil_runtime::cuda::CudaError),
    /// A GPU run that would compile kernels, in a build without the `mlir` feature.
    #[error("this build of `stencil` has no MLIR (cargo feature `mlir`), so it cannot compile kernels: enable the feature (docs/library.md) or run precompiled PTX with Compiler::run_gpu_with_ptx")]
    MlirUnavailable,
    /// Problem sizes a module cannot take ([`crate::Compiler::run_pipeline_with_sizes`]): a
    /// name none of its programs declares, or a name given twice.
    #[error("problem sizes: {0}")]
    ProblemSizes(String),
    /// A builder refused a program ([`crate::builder`]).
    #[error(transparent)]
    Build(#[from] stencil_dialects::stencil::builder::BuildError),
}

/// A pipeline error as the tools print it: a syntax error names its position itself, the
/// others get the prefix.
fn pipeline_message(e: &stencil_ir::pass::PipelineError) -> String {
    match e {
        stencil_ir::pass::PipelineError::Syntax(syntax) => syntax.to_string(),
        other => format!("invalid pass pipeline: {other}"),
    }
}

impl Error {
    /// A diagnostic, rendered with its source line when `source` is the text it points into.
    pub(crate) fn diagnostic(d: Diagnostic, source: Option<&SourceFile>) -> Error {
        let rendered = match source {
            Some(source) => render_with_source(&d, source),
            None => d.render(),
        };
        Error::Diagnostic { diagnostic: Box::new(d), rendered: rendered.trim_end().to_string() }
    }

    /// The located diagnostic, for errors in the IR.
    pub fn as_diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            Error::Diagnostic { diagnostic, .. } => Some(diagnostic),
            _ => None,
        }
    }
}

/// `file:line:col: error: message`, then the source line and a caret under the column, for
/// the diagnostic and each of its notes.
pub fn render_with_source(d: &Diagnostic, source: &SourceFile) -> String {
    let mut out = String::new();
    for one in std::iter::once(d).chain(&d.notes) {
        let single = Diagnostic { notes: vec![], ..one.clone() };
        out.push_str(&single.render());
        out.push('\n');
        if let Some((file, line, col)) = one.location.file_position() {
            if file == &**source.name() {
                if let Some(text) = source.line_text(line) {
                    let (shown, caret) = excerpt(text, col.saturating_sub(1) as usize);
                    out.push_str(&shown);
                    out.push('\n');
                    out.push_str(&" ".repeat(caret));
                    out.push_str("^\n");
                }
            }
        }
    }
    out
}

/// Most characters of a source line a diagnostic shows: a longer one (a lowered function's
/// attribute dictionary runs to a thousand) is cut around the column, with `…` where it is cut.
const EXCERPT_CHARS: usize = 160;

/// The part of `line` to show for a caret at character `col`, and the caret's column in it.
fn excerpt(line: &str, col: usize) -> (String, usize) {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= EXCERPT_CHARS {
        return (line.to_string(), col);
    }
    let start = col.saturating_sub(EXCERPT_CHARS / 3).min(chars.len().saturating_sub(EXCERPT_CHARS));
    let end = (start + EXCERPT_CHARS).min(chars.len());
    let mut shown: String = chars[start..end].iter().collect();
    let mut caret = col - start.min(col);
    if start > 0 {
        shown.insert(0, '…');
        caret += 1;
    }
    if end < chars.len() {
        shown.push('…');
    }
    (shown, caret)
}

#[cfg(test)]
mod tests {
    use super::{excerpt, EXCERPT_CHARS};

    #[test]
    fn long_source_lines_are_cut_around_the_caret() {
        assert_eq!(excerpt("short line", 6), ("short line".to_string(), 6));
        let long: String = (0..1000).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        for col in [0, 5, 300, 999] {
            let (shown, caret) = excerpt(&long, col);
            assert!(shown.chars().count() <= EXCERPT_CHARS + 2, "{col}: {}", shown.len());
            // The caret still points at the same character.
            assert_eq!(shown.chars().nth(caret), long.chars().nth(col), "column {col}");
        }
    }
}
