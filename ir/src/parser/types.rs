//! Type syntax: builtin types, function types, memrefs, dialect types and type aliases.

use super::lexer::TokenKind;
use super::{ParseResult, Parser};
use crate::attributes::Attribute;
use crate::diagnostics::Diagnostic;
use crate::types::{DialectType, Dim, FloatKind, MemRefType, Type};

impl Parser<'_> {
    /// Parses any type.
    pub(crate) fn parse_type(&mut self) -> ParseResult<Type> {
        self.nested(Self::parse_type_inner)
    }

    fn parse_type_inner(&mut self) -> ParseResult<Type> {
        match self.kind() {
            TokenKind::LParen => self.parse_function_type(),
            TokenKind::BangIdent => self.parse_dialect_or_alias_type(),
            TokenKind::BareIdent => self.parse_builtin_type(),
            _ => Err(self.error_here(format!("expected type, found '{}'", self.spelling()))),
        }
    }

    /// `(t, …) -> t` or `(t, …) -> (t, …)`.
    pub(crate) fn parse_function_type(&mut self) -> ParseResult<Type> {
        self.expect(TokenKind::LParen, "'(' to begin function type")?;
        let inputs = self.parse_type_list_until(TokenKind::RParen)?;
        self.expect(TokenKind::Arrow, "'->' in function type")?;
        let results = self.parse_result_type_list()?;
        Ok(Type::function(inputs, results))
    }

    /// Types separated by commas, up to and including the closing token.
    pub(crate) fn parse_type_list_until(&mut self, close: TokenKind) -> ParseResult<Vec<Type>> {
        let mut types = vec![];
        if !self.consume_if(close) {
            loop {
                types.push(self.parse_type()?);
                if !self.consume_if(TokenKind::Comma) {
                    break;
                }
            }
            self.expect(close, "',' or the end of the type list")?;
        }
        Ok(types)
    }

    /// A single type, or a parenthesised list, after `->`.
    pub(crate) fn parse_result_type_list(&mut self) -> ParseResult<Vec<Type>> {
        if self.kind() == TokenKind::LParen {
            // `(` may start a parenthesised list or a function type as the single result.
            let mut look = self.lexer.clone();
            let mut depth = 1;
            loop {
                let t = look.next_token();
                match t.kind {
                    TokenKind::LParen => depth += 1,
                    TokenKind::RParen => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    TokenKind::Eof => break,
                    _ => {}
                }
            }
            if look.next_token().kind == TokenKind::Arrow {
                return Ok(vec![self.parse_function_type()?]);
            }
            self.advance();
            return self.parse_type_list_until(TokenKind::RParen);
        }
        Ok(vec![self.parse_type()?])
    }

    fn parse_builtin_type(&mut self) -> ParseResult<Type> {
        let text = self.spelling();
        let ty = match text {
            "index" => Type::Index,
            "none" => Type::None,
            "f16" => Type::Float(FloatKind::F16),
            "bf16" => Type::Float(FloatKind::BF16),
            "f32" => Type::Float(FloatKind::F32),
            "f64" => Type::Float(FloatKind::F64),
            "memref" => {
                self.advance();
                return self.parse_memref_body();
            }
            _ => match text.strip_prefix('i').and_then(|w| w.parse::<u32>().ok()) {
                Some(w) if (1..=(1 << 24)).contains(&w) && !text[1..].starts_with('0') => Type::Integer(w),
                _ => {
                    return Err(self.error_here(format!(
                        "unknown or unsupported type '{text}' (supported: index, iN, f16, bf16, f32, f64, none, memref<…>, function types and dialect types)"
                    )))
                }
            },
        };
        self.advance();
        Ok(ty)
    }

    fn parse_memref_body(&mut self) -> ParseResult<Type> {
        self.expect(TokenKind::Less, "'<' after 'memref'")?;
        let shape = if self.kind() == TokenKind::Star {
            self.advance();
            self.consume_dimension_x()?;
            None
        } else {
            Some(self.parse_dimension_list()?)
        };
        let element = self.parse_type()?;
        if !(element.is_integer_like() || element.is_float() || matches!(element, Type::MemRef(_) | Type::Dialect(_))) {
            return Err(self.error_here(format!("invalid memref element type '{element}'")));
        }
        let mut m = MemRefType { shape, element, layout: None, memory_space: None };
        if self.consume_if(TokenKind::Comma) {
            let at = self.location();
            let attr = self.parse_memref_trailing_attribute()?;
            if let Attribute::StridedLayout { strides, .. } = &attr {
                let Some(shape) = &m.shape else {
                    return Err(crate::Diagnostic::error(at, "an unranked memref cannot have a layout"));
                };
                if strides.len() != shape.len() {
                    return Err(crate::Diagnostic::error(
                        at,
                        format!("a strided layout of {} strides for a memref of rank {}", strides.len(), shape.len()),
                    ));
                }
            }
            let is_layout = matches!(attr, Attribute::AffineMap(_) | Attribute::StridedLayout { .. });
            if is_layout && m.shape.is_some() {
                m.layout = Some(attr);
                if self.consume_if(TokenKind::Comma) {
                    m.memory_space = Some(self.parse_memref_trailing_attribute()?);
                }
            } else {
                m.memory_space = Some(attr);
            }
        }
        self.expect(TokenKind::Greater, "'>' to close memref type")?;
        Ok(Type::memref(m))
    }

    /// A memref layout or memory space; an integer without type means `i64`.
    fn parse_memref_trailing_attribute(&mut self) -> ParseResult<Attribute> {
        if self.kind() == TokenKind::Integer {
            let v = self.parse_integer()?;
            return Ok(Attribute::Integer { value: v, ty: Type::I64 });
        }
        if self.is_keyword("strided") {
            return self.parse_strided_layout();
        }
        self.parse_attribute()
    }

    /// `strided<[s0, …]>` or `strided<[s0, …], offset: o>`, each an integer or `?`.
    pub(crate) fn parse_strided_layout(&mut self) -> ParseResult<Attribute> {
        self.advance();
        self.expect(TokenKind::Less, "'<' after 'strided'")?;
        self.expect(TokenKind::LSquare, "'[' to start the strides")?;
        let mut strides = vec![];
        if !self.consume_if(TokenKind::RSquare) {
            loop {
                strides.push(self.parse_static_or_dynamic()?);
                if !self.consume_if(TokenKind::Comma) {
                    break;
                }
            }
            self.expect(TokenKind::RSquare, "',' or ']' in the strides")?;
        }
        let mut offset = Some(0);
        if self.consume_if(TokenKind::Comma) {
            if !self.consume_keyword("offset") {
                return Err(
                    self.error_here(format!("expected 'offset' in a strided layout, found {}", self.describe_token()))
                );
            }
            self.expect(TokenKind::Colon, "':' after 'offset'")?;
            offset = self.parse_static_or_dynamic()?;
        }
        self.expect(TokenKind::Greater, "'>' to close the strided layout")?;
        Ok(Attribute::StridedLayout { strides, offset })
    }

    /// An integer, or `?` (`None`).
    fn parse_static_or_dynamic(&mut self) -> ParseResult<Option<i64>> {
        if self.consume_if(TokenKind::Question) {
            return Ok(None);
        }
        Ok(Some(self.parse_i64()?))
    }

    /// `4x?x8x` — static sizes or `?`, each followed by `x`, before the element type.
    pub(crate) fn parse_dimension_list(&mut self) -> ParseResult<Vec<Dim>> {
        let mut dims = vec![];
        loop {
            match self.kind() {
                TokenKind::Question => {
                    self.advance();
                    dims.push(Dim::Dynamic);
                }
                TokenKind::Integer => {
                    let v = self.parse_i64()?;
                    if v < 0 {
                        return Err(self.error_here("negative dimension size"));
                    }
                    dims.push(Dim::Static(v));
                }
                _ => return Ok(dims),
            }
            self.consume_dimension_x()?;
        }
    }

    /// Consumes the `x` separator of a dimension list, which the lexer glues to what follows
    /// (`xf32`, `x4`): re-lex from just after the `x`.
    fn consume_dimension_x(&mut self) -> ParseResult<()> {
        if self.kind() == TokenKind::BareIdent && self.spelling().starts_with('x') {
            let pos = self.token_start() + 1;
            self.reset_lexer(pos);
            return Ok(());
        }
        Err(self.error_here("expected 'x' in dimension list"))
    }

    fn parse_dialect_or_alias_type(&mut self) -> ParseResult<Type> {
        let text = &self.spelling()[1..];
        let loc = self.location();
        match text.split_once('.') {
            None if self.peek_is_angle() => self.parse_dialect_type(text.to_string(), String::new()),
            None => {
                let ty = self
                    .type_aliases
                    .get(text)
                    .cloned()
                    .ok_or_else(|| Diagnostic::error(loc, format!("undefined type alias '!{text}'")))?;
                self.advance();
                Ok(ty)
            }
            Some((dialect, name)) => self.parse_dialect_type(dialect.to_string(), name.to_string()),
        }
    }

    /// Whether the character right after the current token is `<`.
    pub(crate) fn peek_is_angle(&self) -> bool {
        self.lexer.source().as_bytes().get(self.lexer.position()) == Some(&b'<')
    }

    /// Reads `<…>` right after a dialect type/attribute name as raw balanced text.
    pub(crate) fn parse_optional_dialect_body(&mut self) -> ParseResult<Option<String>> {
        if !self.peek_is_angle() {
            self.advance();
            return Ok(None);
        }
        let loc = self.location();
        self.advance();
        debug_assert_eq!(self.kind(), TokenKind::Less);
        let Some((start, end)) = self.lexer.lex_balanced_angle_body() else {
            return Err(Diagnostic::error(loc, "unbalanced '<' in dialect type or attribute body"));
        };
        let body = self.lexer.source()[start..end].trim().to_string();
        self.advance();
        Ok(Some(body))
    }

    fn parse_dialect_type(&mut self, dialect: String, name: String) -> ParseResult<Type> {
        let loc = self.location();
        let body = self.parse_optional_dialect_body()?;
        let mut ty = DialectType { dialect: dialect.as_str().into(), name: name.into(), body: body.map(Into::into) };
        match self.config.registry.dialect(&dialect) {
            Some(def) => {
                if let Some(check) = def.check_type {
                    ty = check(&ty).map_err(|msg| Diagnostic::error(loc, msg))?;
                }
            }
            None if self.config.allow_unregistered => {}
            None => {
                return Err(Diagnostic::error(
                    loc,
                    format!(
                        "dialect '{dialect}' is not registered; use --allow-unregistered-dialect to accept its types"
                    ),
                ))
            }
        }
        Ok(Type::Dialect(Box::new(ty)))
    }
}
