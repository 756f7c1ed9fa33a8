//! `--verify-diagnostics`: compares produced diagnostics with `// expected-error@+1 {{…}}`
//! comments in the input, as mlir-opt does.
//!
//! Supported forms, as in MLIR 22: `expected-{error,warning,note,remark}`, optionally `-re`,
//! then an optional location (`@+N`, `@-N`, `@N` (absolute line), `@above`, `@below`; spaces
//! before the `@` and the `{{` are allowed) and `{{text}}`. The text must be a substring of the
//! produced message; with `-re`, the parts of the text in inner `{{ }}` are regular
//! expressions and the rest is literal, and the whole must match somewhere in the message.
//! `@above`/`@below` refer to the nearest line above/below that has no expectation of its
//! own, as in MLIR. A mention of `expected-error` not followed by a location or `{{` is prose
//! (a CHECK line quoting one), not an expectation.

use stencil_ir::{Diagnostic, Severity};

/// How an expectation's text is matched against a message.
#[derive(Clone, Debug)]
pub enum Matcher {
    /// A substring of the message.
    Substring(String),
    /// `expected-*-re`: a regular expression (the literal parts escaped), searched in the
    /// message; compiled once, when the expectation is parsed.
    Regex(regex::Regex),
}

impl Matcher {
    /// Whether `message` satisfies it.
    fn matches(&self, message: &str) -> bool {
        match self {
            Matcher::Substring(text) => message.contains(text.as_str()),
            Matcher::Regex(regex) => regex.is_match(message),
        }
    }
}

/// Two matchers are equal when they match by the same text (a regex by its pattern).
impl PartialEq for Matcher {
    fn eq(&self, other: &Matcher) -> bool {
        match (self, other) {
            (Matcher::Substring(a), Matcher::Substring(b)) => a == b,
            (Matcher::Regex(a), Matcher::Regex(b)) => a.as_str() == b.as_str(),
            _ => false,
        }
    }
}

impl Eq for Matcher {}

/// One expectation parsed from a comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// Expected severity.
    pub severity: Severity,
    /// Line (1-based, in the file's numbering) the diagnostic must be reported on.
    pub line: u32,
    /// The expectation's text as written between the outer `{{ }}`.
    pub text: String,
    /// How the text is matched.
    pub matcher: Matcher,
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
            let (is_regex, after) = match after.strip_prefix("-re") {
                Some(a) => (true, a),
                None => (false, after),
            };
            let spaced = after.trim_start_matches(' ');
            let (target, after) = match spaced.strip_prefix('@') {
                None => (comment_line, spaced),
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
            let Some(body) = after.trim_start_matches(' ').strip_prefix("{{") else {
                // Mentions of `expected-error` in prose (or in CHECK lines) are not
                // expectations; mlir-opt only treats `expected-error[-re][@loc] {{` as one.
                rest = after;
                continue;
            };
            let (text, matcher, end) = if is_regex {
                let (regex, end) = regex_body(body).map_err(err)?;
                let text = body[..end].to_string();
                (text, Matcher::Regex(regex), end)
            } else {
                let end = body.find("}}").ok_or_else(|| err("expected '}}' to end the expected message".into()))?;
                let text = body[..end].to_string();
                (text.clone(), Matcher::Substring(text), end)
            };
            out.push(Expectation {
                severity,
                line: target,
                text,
                matcher,
                comment_line,
                comment_column,
                matched: false,
            });
            rest = &body[end + 2..];
        }
    }
    Ok(out)
}

/// The regex of an `expected-*-re` text starting at `body` (after its `{{`): literal parts
/// escaped, inner `{{…}}` parts as written; and where the text ends (its closing `}}`).
fn regex_body(body: &str) -> Result<(regex::Regex, usize), String> {
    let mut pattern = String::new();
    let mut at = 0;
    loop {
        let close = body[at..].find("}}").map(|p| at + p);
        let open = body[at..].find("{{").map(|p| at + p);
        match (open, close) {
            (Some(o), Some(c)) if o < c => {
                pattern.push_str(&regex::escape(&body[at..o]));
                let inner = body[o + 2..].find("}}").map(|p| o + 2 + p).ok_or("expected '}}' to end a regex part")?;
                pattern.push_str(&format!("(?:{})", &body[o + 2..inner]));
                at = inner + 2;
            }
            (_, Some(c)) => {
                pattern.push_str(&regex::escape(&body[at..c]));
                let regex = regex::Regex::new(&pattern)
                    .map_err(|e| format!("invalid regular expression in the expected message: {e}"))?;
                return Ok((regex, c));
            }
            (_, None) => return Err("expected '}}' to end the expected message".into()),
        }
    }
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
            .find(|e| !e.matched && e.severity == d.severity && e.line == line && e.matcher.matches(&d.message));
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
    fn spaces_before_the_location_and_the_text_are_allowed() {
        let e = parse_expectations("f", "// expected-error @+1 {{boom}}\nx\n// expected-warning  {{w}}", 1).unwrap();
        assert_eq!(e.iter().map(|e| (e.line, e.text.as_str())).collect::<Vec<_>>(), vec![(2, "boom"), (3, "w")]);
    }

    #[test]
    fn regex_expectations_match_their_inner_parts_as_regular_expressions() {
        let e = parse_expectations("f", "// expected-error-re @+1 {{tile of {{[0-9]+}} x (a){{.*}}}} x", 1).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].text, "tile of {{[0-9]+}} x (a){{.*}}");
        assert!(e[0].matcher.matches("a tile of 16 x (a) here"));
        assert!(!e[0].matcher.matches("a tile of N x (a) here"), "the number is a regex part");
        assert!(!e[0].matcher.matches("a tile of 16 x a here"), "the parentheses are literal");
        let bad = parse_expectations("f", "// expected-error-re {{x {{(}} y}}", 1).err().map(|e| e.to_string());
        assert!(bad.is_some_and(|m| m.contains("invalid regular expression")));
    }

    #[test]
    fn rejects_malformed() {
        let e = parse_expectations("f", "x // expected-error {{open", 1).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("f:1:6: error: expected '}}' to end the expected message"));
        assert!(parse_expectations("f", "// expected-error@+x {{a}}", 1).is_err());
        assert_eq!(parse_expectations("f", "// prose about expected-error here", 1).unwrap(), vec![]);
    }
}
