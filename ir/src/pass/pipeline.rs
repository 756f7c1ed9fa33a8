//! Textual pass pipelines in MLIR's syntax: `builtin.module(cse,func.func(canonicalize{max-iterations=3}))`.

use std::fmt;

/// One element of a pipeline: a pass with options, or a pipeline nested on ops of a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PipelineElement {
    /// `name{key=value ...}`.
    Pass {
        /// Pass argument name, e.g. `canonicalize`.
        name: String,
        /// Options in the order written.
        options: Vec<(String, String)>,
    },
    /// `op.name(elements)`: run `elements` on every op named `op.name` directly nested in the
    /// current anchor.
    Nested {
        /// The op name to anchor on.
        anchor: String,
        /// The nested elements.
        elements: Vec<PipelineElement>,
    },
}

/// A pipeline anchored on an op name (the outermost `builtin.module(...)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineSpec {
    /// Anchor op name.
    pub anchor: String,
    /// Elements.
    pub elements: Vec<PipelineElement>,
}

/// A syntax error in a pipeline string, with the byte offset where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid pass pipeline at character {}: {message}\n  {text}\n  {caret:>width$}", position + 1, caret = "^", width = position + 1)]
pub struct PipelineSyntaxError {
    /// What is wrong.
    pub message: String,
    /// Byte offset in `text`.
    pub position: usize,
    /// The pipeline text.
    pub text: String,
}

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    fn error(&self, message: impl Into<String>) -> PipelineSyntaxError {
        PipelineSyntaxError { message: message.into(), position: self.pos, text: self.text.to_string() }
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn name(&mut self) -> Result<String, PipelineSyntaxError> {
        self.skip_ws();
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')) {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error("expected a pass or operation name"));
        }
        Ok(self.text[start..self.pos].to_string())
    }

    /// An option value: up to whitespace or the closing `}` at nesting level 0; braces and
    /// quotes nest, so `{a=1 b=2}` and `"x y"` stay whole, and commas belong to the value.
    fn option_value(&mut self) -> Result<String, PipelineSyntaxError> {
        let start = self.pos;
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                b'{' => depth += 1,
                b'}' if depth == 0 => break,
                b'}' => depth -= 1,
                b'"' => {
                    self.pos += 1;
                    while self.peek().is_some_and(|c| c != b'"') {
                        self.pos += 1;
                    }
                    if self.peek().is_none() {
                        return Err(self.error("unterminated string in option value"));
                    }
                }
                c if c.is_ascii_whitespace() && depth == 0 => break,
                _ => {}
            }
            self.pos += 1;
        }
        let raw = &self.text[start..self.pos];
        Ok(raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw).to_string())
    }

    fn options(&mut self) -> Result<Vec<(String, String)>, PipelineSyntaxError> {
        let mut options = vec![];
        loop {
            self.skip_ws();
            if self.eat(b'}') {
                return Ok(options);
            }
            if self.peek().is_none() {
                return Err(self.error("expected '}' to close pass options"));
            }
            let key = self.name()?;
            let value = if self.peek() == Some(b'=') {
                self.pos += 1;
                self.option_value()?
            } else {
                // `{flag}` means `flag=true`, as in MLIR.
                "true".to_string()
            };
            options.push((key, value));
        }
    }

    fn elements(&mut self) -> Result<Vec<PipelineElement>, PipelineSyntaxError> {
        let mut elements = vec![];
        self.skip_ws();
        if self.peek() == Some(b')') {
            return Ok(elements);
        }
        loop {
            let name = self.name()?;
            if self.eat(b'(') {
                let nested = self.elements()?;
                if !self.eat(b')') {
                    return Err(self.error(format!("expected ')' to close the pipeline nested on '{name}'")));
                }
                elements.push(PipelineElement::Nested { anchor: name, elements: nested });
            } else {
                let options = if self.eat(b'{') { self.options()? } else { vec![] };
                elements.push(PipelineElement::Pass { name, options });
            }
            if !self.eat(b',') {
                return Ok(elements);
            }
        }
    }
}

/// Parses `anchor(elements)`.
pub fn parse_pipeline(text: &str) -> Result<PipelineSpec, PipelineSyntaxError> {
    let mut c = Cursor { text, pos: 0 };
    let anchor = c.name()?;
    if !c.eat(b'(') {
        return Err(c.error(format!(
            "expected '(' after '{anchor}': a pipeline must be anchored on an op, e.g. 'builtin.module({anchor})'"
        )));
    }
    let elements = c.elements()?;
    if !c.eat(b')') {
        return Err(c.error("expected ',' or ')' in pass pipeline"));
    }
    c.skip_ws();
    if c.peek().is_some() {
        return Err(c.error("unexpected text after the pass pipeline"));
    }
    Ok(PipelineSpec { anchor, elements })
}

impl fmt::Display for PipelineElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PipelineElement::Pass { name, options } => {
                f.write_str(name)?;
                if !options.is_empty() {
                    let opts: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    write!(f, "{{{}}}", opts.join(" "))?;
                }
                Ok(())
            }
            PipelineElement::Nested { anchor, elements } => {
                let inner: Vec<String> = elements.iter().map(ToString::to_string).collect();
                write!(f, "{anchor}({})", inner.join(","))
            }
        }
    }
}

impl fmt::Display for PipelineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner: Vec<String> = self.elements.iter().map(ToString::to_string).collect();
        write!(f, "{}({})", self.anchor, inner.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_nested_pipeline_with_options() {
        let p = parse_pipeline("builtin.module(cse, func.func(canonicalize{max-iterations=3 x={a b}}))").unwrap();
        assert_eq!(p.anchor, "builtin.module");
        assert_eq!(p.to_string(), "builtin.module(cse,func.func(canonicalize{max-iterations=3 x={a b}}))");
    }

    #[test]
    fn reports_position() {
        let e = parse_pipeline("builtin.module(cse").unwrap_err();
        assert_eq!(e.position, 18);
        assert!(parse_pipeline("cse").is_err());
        assert!(parse_pipeline("builtin.module(cse))").is_err());
    }
}
