//! A failed `stencil-run`: the text for stderr, with exactly one `error:` prefix
//! (`file:line:col: error: …` when located, `error: …` otherwise), and the same as JSON for
//! `--json` (`{"error": {…}}` on stdout, so a script reads one object whatever happened).

use super::report::RunReport;
use serde_json::{json, Value};
use stencil_ir::{Diagnostic, Location, SourceFile};

/// Where an error points: a file position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorLocation {
    /// File name as given.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl ErrorLocation {
    fn of(location: &Location) -> Option<ErrorLocation> {
        location.file_position().map(|(file, line, column)| ErrorLocation { file: file.to_string(), line, column })
    }

    fn json(&self) -> Value {
        json!({ "file": self.file, "line": self.line, "column": self.column })
    }
}

/// A note attached to an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorNote {
    /// Its text.
    pub message: String,
    /// Where it points, if anywhere.
    pub location: Option<ErrorLocation>,
}

/// A failed run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{text}")]
pub struct RunError {
    /// What stderr shows: `file:line:col: error: …` (with the source line and a caret for
    /// errors in the input), or `error: …`.
    pub text: String,
    /// The message alone, without location and `error:` prefix.
    pub message: String,
    /// Where the error points.
    pub location: Option<ErrorLocation>,
    /// Notes (context, the pass after which the IR became invalid, …).
    pub notes: Vec<ErrorNote>,
    /// The run's report when the run finished but is wrong (a failed `--check`).
    pub report: Option<Box<RunReport>>,
}

impl RunError {
    /// An error without location: `error: {message}`; a message that already carries a
    /// location prefix (`f.mlir:3:5: error: …`, as runtime and CUDA errors about an op do) is
    /// kept as it is, not prefixed twice.
    pub fn new(message: impl Into<String>) -> RunError {
        let message = message.into();
        match split_located(&message) {
            Some((location, rest)) => RunError {
                text: message.clone(),
                message: rest.to_string(),
                location: Some(location),
                notes: vec![],
                report: None,
            },
            None => {
                RunError { text: format!("error: {message}"), message, location: None, notes: vec![], report: None }
            }
        }
    }

    /// An error about the input: rendered with its source line and caret.
    pub fn diagnostic(d: &Diagnostic, source: &SourceFile) -> RunError {
        RunError {
            text: crate::opt::render_with_source(d, source),
            message: d.message.clone(),
            location: ErrorLocation::of(&d.location),
            notes: d
                .notes
                .iter()
                .map(|n| ErrorNote { message: n.message.clone(), location: ErrorLocation::of(&n.location) })
                .collect(),
            report: None,
        }
    }

    /// An invalid `--pass-pipeline`.
    pub fn pipeline(message: impl Into<String>) -> RunError {
        let message = message.into();
        RunError {
            text: format!("<pass-pipeline>: error: {message}"),
            message,
            location: None,
            notes: vec![],
            report: None,
        }
    }

    /// The error as one JSON object, `{"error": {"message", "location", "notes", "text"}}`,
    /// with the run's report beside it when there is one.
    pub fn to_json(&self) -> Value {
        let notes: Vec<Value> = self
            .notes
            .iter()
            .map(|n| json!({ "message": n.message, "location": n.location.as_ref().map(ErrorLocation::json) }))
            .collect();
        let mut out = json!({
            "error": {
                "message": self.message,
                "location": self.location.as_ref().map(ErrorLocation::json),
                "notes": notes,
                "text": self.text,
            }
        });
        if let (Some(report), Some(map)) = (&self.report, out.as_object_mut()) {
            map.insert("report".into(), report.to_json());
        }
        out
    }
}

impl From<stencil_runtime::RuntimeError> for RunError {
    fn from(e: stencil_runtime::RuntimeError) -> Self {
        // Runtime errors about an op print their own `file:line:col: error:` prefix.
        let text = e.to_string();
        match e.location().map(ErrorLocation::of) {
            Some(Some(location)) => {
                let prefix = format!("{}:{}:{}: error: ", location.file, location.line, location.column);
                let message = text.strip_prefix(&prefix).unwrap_or(&text).to_string();
                RunError { text, message, location: Some(location), notes: vec![], report: None }
            }
            // An op without a file position prints `<unknown location>: error: …`.
            Some(None) => RunError::new(text.strip_prefix("<unknown location>: error: ").unwrap_or(&text)),
            None => RunError::new(text),
        }
    }
}

/// `("f.mlir:3:5", "message")` when `text` starts with `FILE:LINE:COL: error: `.
fn split_located(text: &str) -> Option<(ErrorLocation, &str)> {
    let (head, rest) = text.split_once(": error: ")?;
    let mut parts = head.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    let file = parts.next().filter(|f| !f.is_empty() && !f.contains(char::is_whitespace))?;
    Some((ErrorLocation { file: file.to_string(), line, column }, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_error_prefix() {
        let plain = RunError::new("no such thing");
        assert_eq!(plain.to_string(), "error: no such thing");
        let located = RunError::new("prog.mlir:3:5: error: 'memref.load' reads out of bounds");
        assert_eq!(located.to_string(), "prog.mlir:3:5: error: 'memref.load' reads out of bounds");
        assert_eq!(located.message, "'memref.load' reads out of bounds");
        assert_eq!(located.location, Some(ErrorLocation { file: "prog.mlir".into(), line: 3, column: 5 }));
    }

    #[test]
    fn json_has_message_and_location() {
        let e = RunError::new("prog.mlir:3:5: error: boom");
        let v = e.to_json();
        assert_eq!(v["error"]["message"], "boom");
        assert_eq!(v["error"]["location"]["line"], 3);
        assert_eq!(v["error"]["location"]["column"], 5);
        assert_eq!(RunError::new("x").to_json()["error"]["location"], Value::Null);
    }
}
