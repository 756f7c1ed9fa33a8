//! Tokenizer for MLIR's textual format.
//!
//! Tokens are produced on demand so that the parser can re-position the lexer, which MLIR's
//! grammar needs in two places: dimension lists (`4x?xf32` lexes as `4`, `x`, `?`, `xf32` and is
//! split by the parser) and dialect attribute/type bodies (`#gpu<dim x>`), which are taken as
//! balanced raw text.

/// The kind of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// End of input.
    Eof,
    /// A character sequence that is not a token; the message is in the parser's error.
    Error,
    /// `foo`, `f32`, `builtin.module`.
    BareIdent,
    /// `%name` (an SSA value).
    PercentIdent,
    /// `^bb0` (a block label).
    CaretIdent,
    /// `@sym` or `@"quoted sym"`.
    AtIdent,
    /// `#alias`, `#dialect.attr`, or `#3` (a result number).
    HashIdent,
    /// `!alias` or `!dialect.type`.
    BangIdent,
    /// Decimal or hexadecimal integer literal (without sign).
    Integer,
    /// Floating-point literal (without sign).
    Float,
    /// Quoted string literal.
    String,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LSquare,
    /// `]`
    RSquare,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `<`
    Less,
    /// `>`
    Greater,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `::`
    ColonColon,
    /// `=`
    Equal,
    /// `==`
    EqualEqual,
    /// `>=`
    GreaterEqual,
    /// `->`
    Arrow,
    /// `?`
    Question,
    /// `*`
    Star,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `...`
    Ellipsis,
    /// `{-#`
    FileMetadataBegin,
    /// `#-}`
    FileMetadataEnd,
}

/// A token: kind plus byte range in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What kind of token this is.
    pub kind: TokenKind,
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset one past the last character.
    pub end: usize,
}

/// On-demand lexer over a source string.
#[derive(Clone, Debug)]
pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

fn is_bare_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_bare_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-')
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Lexer { src, pos: 0 }
    }

    /// The source text.
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// Current byte position (start of the next token or of skipped whitespace).
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Moves the lexer to byte offset `pos`.
    pub fn reset_to(&mut self, pos: usize) {
        self.pos = pos.min(self.src.len());
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.src.as_bytes().get(self.pos + ahead).copied()
    }

    fn skip_trivia(&mut self) {
        let bytes = self.src.as_bytes();
        while self.pos < bytes.len() {
            match bytes[self.pos] {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' if bytes.get(self.pos + 1) == Some(&b'/') => {
                    while self.pos < bytes.len() && bytes[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn token(&self, kind: TokenKind, start: usize) -> Token {
        Token { kind, start, end: self.pos }
    }

    /// Lexes the next token.
    pub fn next_token(&mut self) -> Token {
        self.skip_trivia();
        let start = self.pos;
        let Some(c) = self.peek_byte(0) else {
            return self.token(TokenKind::Eof, start);
        };
        self.pos += 1;
        let kind = match c {
            b'(' => TokenKind::LParen,
            b')' => TokenKind::RParen,
            b'[' => TokenKind::LSquare,
            b']' => TokenKind::RSquare,
            b'{' => {
                if self.src[self.pos..].starts_with("-#") {
                    self.pos += 2;
                    TokenKind::FileMetadataBegin
                } else {
                    TokenKind::LBrace
                }
            }
            b'}' => TokenKind::RBrace,
            b'<' => TokenKind::Less,
            b'>' => {
                if self.peek_byte(0) == Some(b'=') {
                    self.pos += 1;
                    TokenKind::GreaterEqual
                } else {
                    TokenKind::Greater
                }
            }
            b',' => TokenKind::Comma,
            b':' => {
                if self.peek_byte(0) == Some(b':') {
                    self.pos += 1;
                    TokenKind::ColonColon
                } else {
                    TokenKind::Colon
                }
            }
            b'=' => {
                if self.peek_byte(0) == Some(b'=') {
                    self.pos += 1;
                    TokenKind::EqualEqual
                } else {
                    TokenKind::Equal
                }
            }
            b'?' => TokenKind::Question,
            b'*' => TokenKind::Star,
            b'+' => TokenKind::Plus,
            b'-' => {
                if self.peek_byte(0) == Some(b'>') {
                    self.pos += 1;
                    TokenKind::Arrow
                } else {
                    TokenKind::Minus
                }
            }
            b'.' => {
                if self.src[self.pos..].starts_with("..") {
                    self.pos += 2;
                    TokenKind::Ellipsis
                } else {
                    TokenKind::Error
                }
            }
            b'"' => self.lex_string(),
            b'%' => self.lex_prefixed(TokenKind::PercentIdent, false),
            b'^' => self.lex_prefixed(TokenKind::CaretIdent, false),
            b'!' => self.lex_prefixed(TokenKind::BangIdent, false),
            b'#' => {
                if self.src[self.pos..].starts_with("-}") {
                    self.pos += 2;
                    TokenKind::FileMetadataEnd
                } else {
                    self.lex_prefixed(TokenKind::HashIdent, false)
                }
            }
            b'@' => {
                if self.peek_byte(0) == Some(b'"') {
                    self.pos += 1;
                    match self.lex_string() {
                        TokenKind::String => TokenKind::AtIdent,
                        other => other,
                    }
                } else {
                    self.lex_prefixed(TokenKind::AtIdent, true)
                }
            }
            c if c.is_ascii_digit() => self.lex_number(c),
            c if is_bare_start(c) => {
                while self.peek_byte(0).is_some_and(is_bare_continue) {
                    self.pos += 1;
                }
                TokenKind::BareIdent
            }
            _ => {
                // Skip a whole UTF-8 character so that error tokens never split one.
                while !self.src.is_char_boundary(self.pos) {
                    self.pos += 1;
                }
                TokenKind::Error
            }
        };
        self.token(kind, start)
    }

    fn lex_prefixed(&mut self, kind: TokenKind, bare_only: bool) -> TokenKind {
        let first = self.peek_byte(0);
        let ok = match first {
            Some(c) if bare_only => is_bare_start(c),
            Some(c) => c.is_ascii_digit() || is_bare_start(c) || matches!(c, b'$' | b'.' | b'-'),
            None => false,
        };
        if !ok {
            return TokenKind::Error;
        }
        if first.is_some_and(|c| c.is_ascii_digit()) {
            while self.peek_byte(0).is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        } else if bare_only {
            while self.peek_byte(0).is_some_and(is_bare_continue) {
                self.pos += 1;
            }
        } else {
            while self.peek_byte(0).is_some_and(is_suffix_char) {
                self.pos += 1;
            }
        }
        kind
    }

    fn lex_number(&mut self, first: u8) -> TokenKind {
        if first == b'0' && self.peek_byte(0) == Some(b'x') && self.peek_byte(1).is_some_and(|c| c.is_ascii_hexdigit())
        {
            self.pos += 1;
            while self.peek_byte(0).is_some_and(|c| c.is_ascii_hexdigit()) {
                self.pos += 1;
            }
            return TokenKind::Integer;
        }
        while self.peek_byte(0).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.peek_byte(0) != Some(b'.') || self.src[self.pos..].starts_with("...") {
            return TokenKind::Integer;
        }
        self.pos += 1;
        while self.peek_byte(0).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if matches!(self.peek_byte(0), Some(b'e' | b'E')) {
            let sign = usize::from(matches!(self.peek_byte(1), Some(b'+' | b'-')));
            if self.peek_byte(1 + sign).is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1 + sign;
                while self.peek_byte(0).is_some_and(|c| c.is_ascii_digit()) {
                    self.pos += 1;
                }
            }
        }
        TokenKind::Float
    }

    fn lex_string(&mut self) -> TokenKind {
        let bytes = self.src.as_bytes();
        while self.pos < bytes.len() {
            match bytes[self.pos] {
                b'"' => {
                    self.pos += 1;
                    return TokenKind::String;
                }
                b'\n' => return TokenKind::Error,
                b'\\' => self.pos += 2,
                _ => self.pos += 1,
            }
        }
        self.pos = bytes.len();
        TokenKind::Error
    }

    /// Takes raw text up to the `>` that balances an already consumed `<`, honouring nested
    /// `<>`, `()`, `[]`, `{}` and string literals. Returns the body's byte range, and leaves the
    /// lexer after the closing `>`. `None` when the input ends first or brackets mismatch.
    pub fn lex_balanced_angle_body(&mut self) -> Option<(usize, usize)> {
        let bytes = self.src.as_bytes();
        let start = self.pos;
        let mut stack: Vec<u8> = vec![b'>'];
        while self.pos < bytes.len() {
            let c = bytes[self.pos];
            self.pos += 1;
            match c {
                b'<' => stack.push(b'>'),
                b'(' => stack.push(b')'),
                b'[' => stack.push(b']'),
                b'{' => stack.push(b'}'),
                b'"' if self.lex_string() != TokenKind::String => return None,
                b'-' if bytes.get(self.pos) == Some(&b'>') => self.pos += 1,
                b'>' | b')' | b']' | b'}' => {
                    if stack.pop() != Some(c) {
                        return None;
                    }
                    if stack.is_empty() {
                        return Some((start, self.pos - 1));
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// Decodes the body of a string literal token (with quotes) into its value.
/// Supports MLIR's escapes: `\n`, `\t`, `\"`, `\\` and two-digit hex `\XX`.
pub fn decode_string(token_text: &str) -> Option<String> {
    let body = token_text.strip_prefix('"')?.strip_suffix('"')?;
    let mut bytes = Vec::with_capacity(body.len());
    let raw = body.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'\\' {
            bytes.push(raw[i]);
            i += 1;
            continue;
        }
        let next = *raw.get(i + 1)?;
        match next {
            b'n' => bytes.push(b'\n'),
            b't' => bytes.push(b'\t'),
            b'"' => bytes.push(b'"'),
            b'\\' => bytes.push(b'\\'),
            _ => {
                let hex = std::str::from_utf8(raw.get(i + 1..i + 3)?).ok()?;
                bytes.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
                continue;
            }
        }
        i += 2;
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        let mut lx = Lexer::new(src);
        let mut out = vec![];
        loop {
            let t = lx.next_token();
            out.push(t.kind);
            if t.kind == TokenKind::Eof {
                return out;
            }
        }
    }

    #[test]
    fn lexes_operation_line() {
        use TokenKind::*;
        assert_eq!(
            kinds("%0 = \"arith.addi\"(%a, %b#1) : (i32) -> i32 // c"),
            vec![
                PercentIdent,
                Equal,
                String,
                LParen,
                PercentIdent,
                Comma,
                PercentIdent,
                HashIdent,
                RParen,
                Colon,
                LParen,
                BareIdent,
                RParen,
                Arrow,
                BareIdent,
                Eof
            ]
        );
    }

    #[test]
    fn numbers_and_symbols() {
        use TokenKind::*;
        assert_eq!(kinds("1.5e-3 0x1F 42 @f @\"q s\""), vec![Float, Integer, Integer, AtIdent, AtIdent, Eof]);
    }

    #[test]
    fn balanced_body() {
        let mut lx = Lexer::new("<dim <x> \">\"> rest");
        assert_eq!(lx.next_token().kind, TokenKind::Less);
        let (s, e) = lx.lex_balanced_angle_body().unwrap();
        assert_eq!(&lx.source()[s..e], "dim <x> \">\"");
    }

    #[test]
    fn string_escapes() {
        assert_eq!(decode_string(r#""a\n\"\41""#).as_deref(), Some("a\n\"A"));
    }
}
