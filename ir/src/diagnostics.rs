//! Located diagnostics (`file:line:col: error: …` with attached notes), as MLIR reports them.

use crate::location::Location;
use std::fmt;

/// How serious a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// Compilation cannot succeed.
    Error,
    /// Suspicious but accepted.
    Warning,
    /// Extra information attached to another diagnostic.
    Note,
    /// Informational remark.
    Remark,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        })
    }
}

/// One message with a location, possibly carrying notes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct Diagnostic {
    /// Severity of the message.
    pub severity: Severity,
    /// Where the problem is.
    pub location: Location,
    /// What is wrong, and ideally what to do about it.
    pub message: String,
    /// Further diagnostics (normally notes) attached to this one.
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    /// An error at `location`.
    pub fn error(location: Location, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, location, message: message.into(), notes: vec![] }
    }

    /// A note at `location`, to be attached with [`Diagnostic::with_note`].
    pub fn note(location: Location, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Note, location, message: message.into(), notes: vec![] }
    }

    /// A warning at `location`.
    pub fn warning(location: Location, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, location, message: message.into(), notes: vec![] }
    }

    /// A remark at `location`: information, not a problem (e.g. what a pass left untouched and
    /// why).
    pub fn remark(location: Location, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Remark, location, message: message.into(), notes: vec![] }
    }

    /// Attaches a note.
    pub fn with_note(mut self, location: Location, message: impl Into<String>) -> Self {
        self.notes.push(Diagnostic::note(location, message));
        self
    }

    /// Renders the diagnostic and its notes as `file:line:col: severity: message` lines.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out);
        out
    }

    fn render_into(&self, out: &mut String) {
        use std::fmt::Write;
        if !out.is_empty() {
            out.push('\n');
        }
        match self.location.file_position() {
            Some((file, line, col)) => {
                let _ = write!(out, "{file}:{line}:{col}: ");
            }
            None => out.push_str("<unknown>: "),
        }
        let _ = write!(out, "{}: {}", self.severity, self.message);
        // Inlined code: where it was called from, as MLIR notes it.
        let mut caller = &self.location;
        while let Location::CallSite { caller: next, .. } = caller {
            if let Some((file, line, col)) = next.file_position() {
                let _ = write!(out, "\n{file}:{line}:{col}: note: called from");
            }
            caller = next;
        }
        for note in &self.notes {
            note.render_into(out);
        }
    }
}

/// A list of diagnostics collected while processing one input.
#[derive(Clone, Debug, Default, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Renders all diagnostics, one per line (notes on their own lines).
    pub fn render(&self) -> String {
        self.0.iter().map(Diagnostic::render).collect::<Vec<_>>().join("\n")
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|d| d.severity == Severity::Error)
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

/// Result type of everything that reports located diagnostics.
pub type DiagResult<T> = Result<T, Diagnostic>;
