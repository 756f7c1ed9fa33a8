//! Attribute syntax, including affine maps and integer sets.

use super::lexer::TokenKind;
use super::{ParseResult, Parser};
use crate::affine::{AffineBinOp, AffineExpr, AffineMap, IntegerSet, SetConstraint};
use crate::attributes::{set_named, Attribute, DialectAttribute, NamedAttribute};
use crate::diagnostics::Diagnostic;
use crate::types::{FloatKind, Type};
use std::collections::HashMap;
use std::sync::Arc;

/// Resolves identifiers inside affine expressions: `d0`/`s0` names in maps, SSA values in the
/// custom syntax of affine ops. Returns `None` when the current token is not an identifier
/// it handles.
pub(crate) type AffineAtomResolver<'r> = dyn FnMut(&mut Parser<'_>) -> ParseResult<Option<AffineExpr>> + 'r;

const TYPE_KEYWORDS: &[&str] = &["index", "none", "f16", "bf16", "f32", "f64", "memref"];

fn is_integer_type_keyword(s: &str) -> bool {
    s.strip_prefix('i').is_some_and(|w| !w.is_empty() && w.bytes().all(|c| c.is_ascii_digit()))
}

impl Parser<'_> {
    /// Parses any attribute.
    pub(crate) fn parse_attribute(&mut self) -> ParseResult<Attribute> {
        self.nested(Self::parse_attribute_inner)
    }

    fn parse_attribute_inner(&mut self) -> ParseResult<Attribute> {
        match self.kind() {
            TokenKind::Minus | TokenKind::Integer | TokenKind::Float => self.parse_number_attribute(),
            TokenKind::String => {
                let s = self.parse_string_literal()?;
                if self.kind() == TokenKind::Colon {
                    return Err(self.error_here("typed string attributes are not supported"));
                }
                Ok(Attribute::String(s.into()))
            }
            TokenKind::LSquare => {
                self.advance();
                let mut items = vec![];
                if !self.consume_if(TokenKind::RSquare) {
                    loop {
                        items.push(self.parse_attribute()?);
                        if !self.consume_if(TokenKind::Comma) {
                            break;
                        }
                    }
                    self.expect(TokenKind::RSquare, "',' or ']' in array attribute")?;
                }
                Ok(Attribute::Array(items))
            }
            TokenKind::LBrace => Ok(Attribute::Dictionary(self.parse_dictionary_body()?)),
            TokenKind::AtIdent => {
                let root = self.parse_symbol_name()?;
                let mut nested = vec![];
                while self.consume_if(TokenKind::ColonColon) {
                    nested.push(Arc::from(self.parse_symbol_name()?));
                }
                Ok(Attribute::SymbolRef { root: root.into(), nested })
            }
            TokenKind::HashIdent => self.parse_dialect_or_alias_attribute(),
            TokenKind::LParen | TokenKind::BangIdent => Ok(Attribute::Type(self.parse_type()?)),
            TokenKind::BareIdent => self.parse_keyword_attribute(),
            _ => Err(self.error_here(format!("expected attribute value, found '{}'", self.spelling()))),
        }
    }

    fn parse_keyword_attribute(&mut self) -> ParseResult<Attribute> {
        let text = self.spelling();
        match text {
            "true" | "false" => {
                let b = text == "true";
                self.advance();
                Ok(Attribute::Bool(b))
            }
            "unit" => {
                self.advance();
                Ok(Attribute::Unit)
            }
            "affine_map" => {
                self.advance();
                self.expect(TokenKind::Less, "'<' after 'affine_map'")?;
                let map = self.parse_affine_map_or_set()?;
                self.expect(TokenKind::Greater, "'>' to close affine_map")?;
                match map {
                    MapOrSet::Map(m) => Ok(Attribute::AffineMap(Arc::new(m))),
                    MapOrSet::Set(_) => {
                        Err(self.error_here("expected affine map, found integer set (use affine_set<…>)"))
                    }
                }
            }
            "affine_set" => {
                self.advance();
                self.expect(TokenKind::Less, "'<' after 'affine_set'")?;
                let set = self.parse_affine_map_or_set()?;
                self.expect(TokenKind::Greater, "'>' to close affine_set")?;
                match set {
                    MapOrSet::Set(s) => Ok(Attribute::IntegerSet(Arc::new(s))),
                    MapOrSet::Map(_) => {
                        Err(self.error_here("expected integer set, found affine map (use affine_map<…>)"))
                    }
                }
            }
            "array" => self.parse_dense_array(),
            "dense" => self.parse_dense_int_elements(),
            "strided" => self.parse_strided_layout(),
            "dense_resource" | "sparse" | "distinct" => {
                Err(self.error_here(format!("'{text}' attributes are not supported by stencil-opt")))
            }
            t if TYPE_KEYWORDS.contains(&t) || is_integer_type_keyword(t) => Ok(Attribute::Type(self.parse_type()?)),
            _ => Err(self.error_here(format!("expected attribute value, found '{text}'"))),
        }
    }

    /// `dense<>`, `dense<1>` (splat) or `dense<[1, 2]>`, then `: tensor<NxiW>`: the integer
    /// elements attributes MLIR uses for `affine.parallel`'s bound groups. Only integer
    /// elements and flat lists are supported.
    fn parse_dense_int_elements(&mut self) -> ParseResult<Attribute> {
        let loc = self.location();
        self.advance();
        self.expect(TokenKind::Less, "'<' after 'dense'")?;
        let mut values = vec![];
        let mut splat = false;
        // Float elements (`dense<1.5>`, `dense<[0.5, 2.0]>`) are not supported: say so rather
        // than "expected integer literal".
        let refuse_float = |p: &Self| {
            Diagnostic::error(p.location(), "dense float elements are not supported (only integer tensors are)")
        };
        if self.consume_if(TokenKind::LSquare) {
            if !self.consume_if(TokenKind::RSquare) {
                loop {
                    if self.at_float_literal() {
                        return Err(refuse_float(self));
                    }
                    if self.kind() == TokenKind::LSquare {
                        return Err(self.error_here(
                            "nested dense element lists are not supported (only 1-D lists, or a splat for higher ranks)",
                        ));
                    }
                    values.push(self.parse_i64()?);
                    if !self.consume_if(TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(TokenKind::RSquare, "',' or ']' in dense elements")?;
            }
        } else if self.kind() != TokenKind::Greater {
            if self.at_float_literal() {
                return Err(refuse_float(self));
            }
            values.push(self.parse_i64()?);
            splat = true;
        }
        self.expect(TokenKind::Greater, "'>' to close dense elements")?;
        self.expect(TokenKind::Colon, "':' and the tensor type of dense elements")?;
        if !self.is_keyword("tensor") {
            return Err(
                self.error_here("expected 'tensor<…>' type of dense elements (only integer tensors are supported)")
            );
        }
        self.advance();
        self.expect(TokenKind::Less, "'<' after 'tensor'")?;
        let mut shape = vec![];
        for d in self.parse_dimension_list()? {
            match d {
                crate::types::Dim::Static(n) => shape.push(n),
                crate::types::Dim::Dynamic => {
                    return Err(Diagnostic::error(loc, "dense elements need a statically shaped tensor"))
                }
            }
        }
        let element = self.parse_type()?;
        self.expect(TokenKind::Greater, "'>' to close tensor type")?;
        let Type::Integer(width) = element else {
            return Err(Diagnostic::error(
                loc,
                format!("unsupported dense elements type '{element}' (integer types only)"),
            ));
        };
        let count = shape.iter().try_fold(1i64, |acc, &d| acc.checked_mul(d)).unwrap_or(i64::MAX);
        if splat {
            // A splat stands for every element of the shape.
            let v = values.first().copied().unwrap_or(0);
            if count > 1 << 20 {
                return Err(Diagnostic::error(loc, "dense splat of more than 2^20 elements is not supported"));
            }
            values = vec![v; count as usize];
        } else if shape.len() > 1 {
            return Err(Diagnostic::error(
                loc,
                "only 1-D dense element lists are supported (use a splat for higher ranks)",
            ));
        } else if values.len() as i64 != count {
            return Err(Diagnostic::error(
                loc,
                format!("inferred shape of elements literal ([{}]) does not match type ([{count}])", values.len()),
            ));
        }
        if let Some(v) = values.iter().find(|v| !fits_in_width(i128::from(**v), width)) {
            return Err(Diagnostic::error(
                loc,
                format!("integer constant {v} out of range for element type 'i{width}'"),
            ));
        }
        Ok(Attribute::DenseIntElements { element, shape, values })
    }

    fn parse_dense_array(&mut self) -> ParseResult<Attribute> {
        self.advance();
        self.expect(TokenKind::Less, "'<' after 'array'")?;
        let loc = self.location();
        let element = self.parse_type()?;
        let Type::Integer(width) = element else {
            return Err(Diagnostic::error(
                loc,
                format!("unsupported dense array element type '{element}' (integer types only)"),
            ));
        };
        let mut values = vec![];
        if self.consume_if(TokenKind::Colon) {
            loop {
                let vloc = self.location();
                let v = if self.kind() == TokenKind::BareIdent && matches!(self.spelling(), "true" | "false") {
                    let b = self.spelling() == "true";
                    self.advance();
                    i64::from(b)
                } else {
                    self.parse_i64()?
                };
                if !fits_in_width(i128::from(v), width) {
                    return Err(Diagnostic::error(
                        vloc,
                        format!("integer constant out of range for element type 'i{width}'"),
                    ));
                }
                values.push(v);
                if !self.consume_if(TokenKind::Comma) {
                    break;
                }
            }
        }
        self.expect(TokenKind::Greater, "'>' to close dense array")?;
        Ok(Attribute::DenseArray { element, values })
    }

    fn parse_number_attribute(&mut self) -> ParseResult<Attribute> {
        let loc = self.location();
        let negative = self.kind() == TokenKind::Minus;
        let is_float = {
            let mut look = self.lexer.clone();
            let next = if negative { look.next_token().kind } else { self.kind() };
            next == TokenKind::Float
        };
        if is_float {
            if negative {
                self.advance();
            }
            let text = self.spelling();
            let magnitude: f64 =
                text.parse().map_err(|_| self.error_here(format!("invalid float literal '{text}'")))?;
            self.advance();
            let value = if negative { -magnitude } else { magnitude };
            let kind = self.parse_optional_colon_float_type()?.unwrap_or(FloatKind::F64);
            return Ok(Attribute::float(value, kind));
        }
        let is_hex = {
            let mut look = self.lexer.clone();
            let t = if negative { look.next_token() } else { self.tok };
            self.lexer.source()[t.start..t.end].starts_with("0x")
        };
        let value = self.parse_integer()?;
        if !self.consume_if(TokenKind::Colon) {
            // Untyped: i64, with i64's range and signed value (`0x8000000000000000` is
            // `-9223372036854775808 : i64`, as MLIR reads it), so that it prints as it reparses.
            if !fits_in_width(value, 64) {
                return Err(Diagnostic::error(loc, "integer constant out of range for type 'i64'"));
            }
            return Ok(Attribute::Integer { value: to_signed(value, 64), ty: Type::I64 });
        }
        let ty_loc = self.location();
        let ty = self.parse_type()?;
        match ty {
            Type::Float(kind) => {
                if !is_hex || negative {
                    return Err(Diagnostic::error(ty_loc, "unexpected integer literal for a float type; write a decimal float (1.0) or hexadecimal bits (0x3F800000)"));
                }
                float_from_bits(value, kind)
                    .map(|v| Attribute::Float { value: v, kind })
                    .ok_or_else(|| Diagnostic::error(loc, "hexadecimal float literal does not fit the float type"))
            }
            Type::Integer(1) => match value {
                0 => Ok(Attribute::Bool(false)),
                1 | -1 => Ok(Attribute::Bool(true)),
                _ => Err(Diagnostic::error(loc, "integer constant out of range for type 'i1'")),
            },
            Type::Integer(w) => {
                if !fits_in_width(value, w) {
                    return Err(Diagnostic::error(loc, format!("integer constant out of range for type 'i{w}'")));
                }
                // Signless integers print as signed, as MLIR does (`0xFF : i8` is `-1 : i8`).
                Ok(Attribute::Integer { value: to_signed(value, w), ty })
            }
            Type::Index => {
                if i64::try_from(value).is_err() {
                    return Err(Diagnostic::error(loc, "integer constant out of range for type 'index'"));
                }
                Ok(Attribute::Integer { value, ty })
            }
            other => Err(Diagnostic::error(ty_loc, format!("integer literal not valid for type '{other}'"))),
        }
    }

    fn parse_optional_colon_float_type(&mut self) -> ParseResult<Option<FloatKind>> {
        if !self.consume_if(TokenKind::Colon) {
            return Ok(None);
        }
        let loc = self.location();
        match self.parse_type()? {
            Type::Float(k) => Ok(Some(k)),
            other => Err(Diagnostic::error(loc, format!("floating point value not valid for type '{other}'"))),
        }
    }

    /// `{a = 1, b}` — the entries of a dictionary, sorted by name, duplicates rejected.
    pub(crate) fn parse_dictionary_body(&mut self) -> ParseResult<Vec<NamedAttribute>> {
        self.expect(TokenKind::LBrace, "'{' to begin attribute dictionary")?;
        let mut entries: Vec<NamedAttribute> = vec![];
        if self.consume_if(TokenKind::RBrace) {
            return Ok(entries);
        }
        loop {
            let loc = self.location();
            let name = match self.kind() {
                TokenKind::BareIdent => {
                    let n = self.spelling().to_string();
                    self.advance();
                    n
                }
                TokenKind::String => self.parse_string_literal()?,
                _ => return Err(self.error_here(format!("expected attribute name, found '{}'", self.spelling()))),
            };
            if name.is_empty() {
                return Err(Diagnostic::error(loc, "expected valid attribute name"));
            }
            let value = if self.consume_if(TokenKind::Equal) { self.parse_attribute()? } else { Attribute::Unit };
            if crate::attributes::get_named(&entries, &name).is_some() {
                return Err(Diagnostic::error(loc, format!("duplicate key '{name}' in dictionary attribute")));
            }
            set_named(&mut entries, &name, value);
            if !self.consume_if(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::RBrace, "',' or '}' in attribute dictionary")?;
        Ok(entries)
    }

    fn parse_dialect_or_alias_attribute(&mut self) -> ParseResult<Attribute> {
        let text = self.spelling()[1..].to_string();
        let loc = self.location();
        let (dialect, name) = match text.split_once('.') {
            Some((d, n)) => (d.to_string(), n.to_string()),
            None if self.peek_is_angle() => (text.clone(), String::new()),
            None => {
                let a = self
                    .attr_aliases
                    .get(&text)
                    .cloned()
                    .ok_or_else(|| Diagnostic::error(loc, format!("undefined attribute alias '#{text}'")))?;
                self.advance();
                return Ok(a);
            }
        };
        let body = self.parse_optional_dialect_body()?;
        let attr = DialectAttribute { dialect: dialect.as_str().into(), name: name.into(), body: body.map(Into::into) };
        match self.config.registry.dialect(&dialect) {
            Some(def) => {
                if let Some(check) = def.check_attr {
                    check(&attr).map_err(|msg| Diagnostic::error(loc, msg))?;
                }
            }
            None if self.config.allow_unregistered => {}
            None => {
                return Err(Diagnostic::error(
                    loc,
                    format!(
                    "dialect '{dialect}' is not registered; use --allow-unregistered-dialect to accept its attributes"
                ),
                ))
            }
        }
        Ok(Attribute::Dialect(Box::new(attr)))
    }

    // ----- affine ---------------------------------------------------------------------------

    fn parse_affine_map_or_set(&mut self) -> ParseResult<MapOrSet> {
        let mut names: HashMap<String, AffineExpr> = HashMap::new();
        let num_dims = self.parse_affine_id_list(TokenKind::LParen, TokenKind::RParen, &mut names, AffineExpr::Dim)?;
        let num_symbols = if self.kind() == TokenKind::LSquare {
            self.parse_affine_id_list(TokenKind::LSquare, TokenKind::RSquare, &mut names, AffineExpr::Symbol)?
        } else {
            0
        };
        let mut resolve = |p: &mut Parser<'_>| -> ParseResult<Option<AffineExpr>> {
            if p.kind() != TokenKind::BareIdent {
                return Ok(None);
            }
            let Some(e) = names.get(p.spelling()).cloned() else {
                return Err(
                    p.error_here(format!("use of undeclared identifier '{}' in affine expression", p.spelling()))
                );
            };
            p.advance();
            Ok(Some(e))
        };
        if self.consume_if(TokenKind::Arrow) {
            self.expect(TokenKind::LParen, "'(' to begin affine map results")?;
            let mut results = vec![];
            if !self.consume_if(TokenKind::RParen) {
                loop {
                    results.push(self.parse_affine_expr(&mut resolve)?);
                    if !self.consume_if(TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(TokenKind::RParen, "',' or ')' in affine map results")?;
            }
            return Ok(MapOrSet::Map(AffineMap::new(num_dims, num_symbols, results)));
        }
        self.expect(TokenKind::Colon, "'->' (affine map) or ':' (integer set)")?;
        self.expect(TokenKind::LParen, "'(' to begin integer set constraints")?;
        let mut constraints = vec![];
        loop {
            let lhs = self.parse_affine_expr(&mut resolve)?;
            let is_equality = match self.kind() {
                TokenKind::EqualEqual => true,
                TokenKind::GreaterEqual => false,
                _ => return Err(self.error_here("expected '== 0' or '>= 0' in integer set constraint")),
            };
            let loc = self.location();
            self.advance();
            let rhs = self.parse_affine_expr(&mut resolve)?;
            let expr = lhs.checked_sub(rhs).map_err(|e| Diagnostic::error(loc, e.to_string()))?;
            constraints.push(SetConstraint { expr, is_equality });
            if !self.consume_if(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::RParen, "',' or ')' in integer set")?;
        Ok(MapOrSet::Set(IntegerSet { num_dims, num_symbols, constraints }))
    }

    fn parse_affine_id_list(
        &mut self,
        open: TokenKind,
        close: TokenKind,
        names: &mut HashMap<String, AffineExpr>,
        make: fn(u32) -> AffineExpr,
    ) -> ParseResult<u32> {
        self.expect(open, "identifier list of affine map")?;
        let mut count = 0u32;
        if self.consume_if(close) {
            return Ok(0);
        }
        loop {
            if self.kind() != TokenKind::BareIdent {
                return Err(self.error_here(format!("expected identifier in affine map, found '{}'", self.spelling())));
            }
            let name = self.spelling().to_string();
            if names.insert(name.clone(), make(count)).is_some() {
                return Err(self.error_here(format!("redefinition of identifier '{name}'")));
            }
            self.advance();
            count += 1;
            if !self.consume_if(TokenKind::Comma) {
                break;
            }
        }
        self.expect(close, "',' or the end of the identifier list")?;
        Ok(count)
    }

    /// Parses an affine expression; identifiers go through `resolve`. Every fold is exact: one
    /// whose result leaves `i64` is an error located at its operator.
    pub(crate) fn parse_affine_expr(&mut self, resolve: &mut AffineAtomResolver<'_>) -> ParseResult<AffineExpr> {
        let mut lhs = self.parse_affine_term(resolve)?;
        loop {
            let negate = match self.kind() {
                TokenKind::Plus => false,
                TokenKind::Minus => true,
                _ => return Ok(lhs),
            };
            let loc = self.location();
            self.advance();
            let rhs =
                if negate { self.parse_subtracted_affine_term(resolve)? } else { self.parse_affine_term(resolve)? };
            lhs = lhs.checked_add(rhs).map_err(|e| Diagnostic::error(loc, e.to_string()))?;
        }
    }

    /// The negation of the term after a binary `-`. `x - 9223372036854775808` is how an
    /// expression with the constant `i64::MIN` prints (as MLIR prints it), but the literal
    /// `9223372036854775808` is not an `i64`: when it starts the term and only products follow
    /// (negating a product negates its first factor exactly), the term is parsed with the
    /// sign taken into the literal.
    fn parse_subtracted_affine_term(&mut self, resolve: &mut AffineAtomResolver<'_>) -> ParseResult<AffineExpr> {
        let min_magnitude = i128::from(i64::MIN).unsigned_abs();
        if self.kind() == TokenKind::Integer && self.integer_magnitude() == Some(min_magnitude) {
            let literal = self.location();
            self.advance();
            return self.parse_affine_term_from(AffineExpr::Constant(i64::MIN), resolve, Some(literal));
        }
        let loc = self.location();
        let term = self.parse_affine_term(resolve)?;
        term.checked_neg().map_err(|e| Diagnostic::error(loc, e.to_string()))
    }

    /// The magnitude of the current integer literal token, if it is one that parses.
    fn integer_magnitude(&self) -> Option<u128> {
        let text = self.spelling();
        match text.strip_prefix("0x") {
            Some(hex) => u128::from_str_radix(hex, 16).ok(),
            None => text.parse::<u128>().ok(),
        }
    }

    fn parse_affine_term(&mut self, resolve: &mut AffineAtomResolver<'_>) -> ParseResult<AffineExpr> {
        let first = self.parse_affine_unary(resolve)?;
        self.parse_affine_term_from(first, resolve, None)
    }

    /// The rest of a term (`* …`, `floordiv …`, `ceildiv …`, `mod …`) after its first factor
    /// `lhs`. `negated_literal`: `lhs` is a literal whose sign was taken from a binary `-`
    /// (see [`Self::parse_subtracted_affine_term`]); only `*` may follow it.
    fn parse_affine_term_from(
        &mut self,
        mut lhs: AffineExpr,
        resolve: &mut AffineAtomResolver<'_>,
        negated_literal: Option<crate::location::Location>,
    ) -> ParseResult<AffineExpr> {
        loop {
            let op = match self.kind() {
                TokenKind::Star => AffineBinOp::Mul,
                TokenKind::BareIdent if self.spelling() == "floordiv" => AffineBinOp::FloorDiv,
                TokenKind::BareIdent if self.spelling() == "ceildiv" => AffineBinOp::CeilDiv,
                TokenKind::BareIdent if self.spelling() == "mod" => AffineBinOp::Mod,
                _ => return Ok(lhs),
            };
            if let Some(literal) = negated_literal.clone().filter(|_| op != AffineBinOp::Mul) {
                // -(c floordiv q) is not (-c) floordiv q: the sign cannot move into the literal.
                return Err(Diagnostic::error(
                    literal,
                    "integer 9223372036854775808 does not fit in 64 bits (it may only be subtracted as a constant or a factor)",
                ));
            }
            let loc = self.location();
            self.advance();
            let rhs = self.parse_affine_unary(resolve)?;
            let symbolic = |e: &AffineExpr| e.counts().0 == 0;
            match op {
                AffineBinOp::Mul if !symbolic(&lhs) && !symbolic(&rhs) => {
                    return Err(Diagnostic::error(loc, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"));
                }
                AffineBinOp::FloorDiv | AffineBinOp::CeilDiv | AffineBinOp::Mod if !symbolic(&rhs) => {
                    return Err(Diagnostic::error(loc, "non-affine expression: right operand of floordiv, ceildiv and mod has to be either a constant or symbolic"));
                }
                // MLIR accepts non-positive constant divisors and keeps such expressions as
                // written (division by zero is only an error when evaluated).
                _ => {}
            }
            lhs = AffineExpr::try_binary(op, lhs, rhs).map_err(|e| Diagnostic::error(loc, e.to_string()))?;
        }
    }

    fn parse_affine_unary(&mut self, resolve: &mut AffineAtomResolver<'_>) -> ParseResult<AffineExpr> {
        self.nested(|p| p.parse_affine_unary_inner(resolve))
    }

    fn parse_affine_unary_inner(&mut self, resolve: &mut AffineAtomResolver<'_>) -> ParseResult<AffineExpr> {
        match self.kind() {
            TokenKind::Minus => {
                let loc = self.location();
                if self.peek_kind() == TokenKind::Integer {
                    // `-9223372036854775808` (i64::MIN) is read as one signed literal: its
                    // magnitude alone is not an i64.
                    return Ok(AffineExpr::Constant(self.parse_i64()?));
                }
                self.advance();
                let operand = self.parse_affine_unary(resolve)?;
                operand.checked_neg().map_err(|e| Diagnostic::error(loc, e.to_string()))
            }
            TokenKind::Integer => Ok(AffineExpr::Constant(self.parse_i64()?)),
            TokenKind::LParen => {
                self.advance();
                let e = self.parse_affine_expr(resolve)?;
                self.expect(TokenKind::RParen, "')' in affine expression")?;
                Ok(e)
            }
            _ => match resolve(self)? {
                Some(e) => Ok(e),
                None => Err(self.error_here(format!("expected affine expression, found '{}'", self.spelling()))),
            },
        }
    }
}

enum MapOrSet {
    Map(AffineMap),
    Set(IntegerSet),
}

fn fits_in_width(value: i128, width: u32) -> bool {
    if width >= 64 {
        // Accept both signed and unsigned readings, as MLIR does for signless integers.
        return value >= i128::from(i64::MIN) && value <= i128::from(u64::MAX);
    }
    let w = width as i32;
    value >= -(1i128 << (w - 1)) && value < (1i128 << w)
}

/// Reinterprets `value` (which fits in `width` bits, signed or unsigned) as a signed
/// `width`-bit integer.
pub(crate) fn to_signed(value: i128, width: u32) -> i128 {
    if width == 0 || width >= 128 {
        return value;
    }
    let shift = 128 - width;
    (value << shift) >> shift
}

pub(crate) fn float_from_bits(bits: i128, kind: FloatKind) -> Option<f64> {
    match kind {
        FloatKind::F64 => u64::try_from(bits).ok().map(f64::from_bits),
        _ => u32::try_from(bits).ok().map(|b| f64::from(f32::from_bits(b))),
    }
}
