//! `--verify-diagnostics`: compares produced diagnostics with `// expected-error@+1 {{…}}`
//! comments in the input, as mlir-opt does.
//!
//! Supported forms: `expected-{error,warning,note,remark}` followed by an optional
//! location (`@+N`, `@-N`, `@N` (absolute line), `@above`, `@below`) and `{{text}}`; the
//! text must be a substring of the produced message. `@above`/`@below` refer to the nearest
//! line above/below that has no expectation of its own, as in MLIR.

use stencil_ir::{Diagnostic, Severity};

/// One expectation parsed from a comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// Expected severity.
    pub severity: Severity,
    /// Line (1-based, in the file's numbering) the diagnostic must be reported on.
    pub line: u32,
    /// Substring of the message.
    pub text: String,
    /// Line of the comment itself, for error messages.
    pub comment_line: u32,
    /// 1-based column of the `expected-…` keyword on that line, for error messages.
    pub comment_column: u32,
    /// Set once a diagnostic matched it.
    pub matched: bool,
}

/// An ill-formed expectation comment.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: error: {message}")]
pub struct ExpectationSyntaxError {
    /// File name.
    pub file: String,
    /// Line of the comment.
    pub line: u32,
    /// 1-based column of the expectation's keyword.
    pub column: u32,
    /// What is wrong.
    pub message: String,
}

const KINDS: [(&str, Severity); 4] = [
    ("expected-error", Severity::Error),
    ("expected-warning", Severity::Warning),
    ("expected-note", Severity::Note),
    ("expected-remark", Severity::Remark),
];

/// Parses the expectations of a chunk whose first line is `first_line` of file `file`.
pub fn parse_expectations(file: &str, text: &str, first_line: u32) -> Result<Vec<Expectation>, ExpectationSyntaxError> {
    let lines: Vec<&str> = text.lines().collect();
    let has_expectation = |l: &str| KINDS.iter().any(|(k, _)| l.contains(k));
    let mut out = vec![];
    for (i, line) in lines.iter().enumerate() {
        let comment_line = first_line + i as u32;
        let mut rest = *line;
        while let Some((kind_pos, kind, severity)) =
            KINDS.iter().filter_map(|(k, s)| rest.find(k).map(|p| (p, *k, *s))).min_by_key(|x| x.0)
        {
            let byte = line.len() - rest.len() + kind_pos;
            let comment_column = line[..byte].chars().count() as u32 + 1;
            let err = |message: String| ExpectationSyntaxError {
                file: file.to_string(),
                line: comment_line,
                column: comment_column,
                message,
            };
            let after = &rest[kind_pos + kind.len()..];
            if after.starts_with("-re") {
                return Err(
                    err("'expected-*-re' (regex) expectations are not supported; use a plain substring".into()),
                );
            }
            let (target, after) = match after.strip_prefix('@') {
                None => (comment_line, after),
                Some(loc) => {
                    let end = loc.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(loc.len());
                    let spec = &loc[..end];
                    let target = match spec {
                        "above" => (0..i).rev().find(|&j| !has_expectation(lines[j])).map(|j| first_line + j as u32),
                        "below" => {
                            (i + 1..lines.len()).find(|&j| !has_expectation(lines[j])).map(|j| first_line + j as u32)
                        }
                        _ => {
                            if let Some(n) = spec.strip_prefix('+') {
                                n.parse::<u32>().ok().map(|n| comment_line + n)
                            } else if let Some(n) = spec.strip_prefix('-') {
                                n.parse::<u32>().ok().and_then(|n| comment_line.checked_sub(n))
                            } else {
                                spec.parse::<u32>().ok()
                            }
                        }
                    };
                    let target = target.ok_or_else(|| {
                        err(format!("invalid or out-of-range expected diagnostic location '@{spec}'"))
                    })?;
                    (target, &loc[end..])
                }
            };
            let after = after.trim_start();
            let Some(body) = after.strip_prefix("{{") else {
                // Mentions of `expected-error` in prose (or in CHECK lines) are not
                // expectations; mlir-opt only treats `expected-error[@loc] {{` as one.
                rest = after;
                continue;
            };
            let Some(close) = body.find("}}") else {
                return Err(err("expected '}}' to end the expected message".into()));
            };
            out.push(Expectation {
                severity,
                line: target,
                text: body[..close].to_string(),
                comment_line,
                comment_column,
                matched: false,
            });
            rest = &body[close + 2..];
        }
    }
    Ok(out)
}

/// Matches produced diagnostics (and their notes) against expectations. Returns the
/// mismatch messages: unexpected diagnostics and expectations that were not produced.
pub fn check(file: &str, produced: &[Diagnostic], expectations: &mut [Expectation]) -> Vec<String> {
    let mut problems = vec![];
    let mut flat = vec![];
    for d in produced {
        flat.push(d);
        flat.extend(d.notes.iter());
    }
    for d in flat {
        let position = d.location.file_position();
        let Some((_, line, _)) = position else {
            // Notes without a location carry context only (e.g. which pass ran).
            if d.severity != Severity::Note {
                problems.push(format!("{file}: error: unexpected {} without location: {}", d.severity, d.message));
            }
            continue;
        };
        let found = expectations
            .iter_mut()
            .find(|e| !e.matched && e.severity == d.severity && e.line == line && d.message.contains(&e.text));
        match found {
            Some(e) => e.matched = true,
            None => problems.push(format!("{}: error: unexpected {}: {}", render_position(d), d.severity, d.message)),
        }
    }
    for e in expectations.iter().filter(|e| !e.matched) {
        problems.push(format!(
            "{file}:{}:{}: error: expected {} \"{}\" was not produced (expected on line {})",
            e.comment_line, e.comment_column, e.severity, e.text, e.line
        ));
    }
    problems
}

fn render_position(d: &Diagnostic) -> String {
    match d.location.file_position() {
        Some((f, l, c)) => format!("{f}:{l}:{c}"),
        None => "<unknown>".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_relative_and_directional_locations() {
        let text = "a\n// expected-error@+1 {{boom}}\nb\n// expected-note@above {{x}} expected-warning {{y}}\n";
        let e = parse_expectations("f", text, 10).unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!((e[0].line, e[0].text.as_str()), (12, "boom"));
        assert_eq!(e[1].line, 12);
        assert_eq!((e[2].severity, e[2].line), (Severity::Warning, 13));
        assert_eq!((e[0].comment_column, e[1].comment_column, e[2].comment_column), (4, 4, 30));
    }

    #[test]
    fn rejects_malformed() {
        let e = parse_expectations("f", "x // expected-error {{open", 1).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("f:1:6: error: expected '}}' to end the expected message"));
        assert!(parse_expectations("f", "// expected-error@+x {{a}}", 1).is_err());
        assert_eq!(parse_expectations("f", "// prose about expected-error here", 1).unwrap(), vec![]);
    }
}
