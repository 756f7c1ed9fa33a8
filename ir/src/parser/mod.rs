//! Parser for MLIR's textual format: the generic form of any op, the custom forms of
//! registered ops (through their [`crate::registry::ParseFn`]), aliases, regions and blocks.

mod attrs;
mod custom;
pub mod lexer;
mod types;

pub use custom::{AffineOperands, Argument, CustomOpParser, UnresolvedOperand};

use crate::attributes::{Attribute, NamedAttribute};
use crate::diagnostics::Diagnostic;
use crate::ir::{BlockId, InsertPoint, Ir, Module, OpId, OperationState, RegionId, ValueId};
use crate::location::{Location, SourceFile};
use crate::registry::DialectRegistry;
use crate::types::Type;
use lexer::{decode_string, Lexer, Token, TokenKind};
use std::collections::HashMap;
use std::sync::Arc;

/// Result of parsing steps.
pub type ParseResult<T> = Result<T, Diagnostic>;

/// How deeply attributes, types, regions, locations and affine expressions may nest. The
/// parser is recursive: without a limit, a pathological input would overflow the stack
/// instead of getting a diagnostic. Real IR stays far below it.
pub const MAX_NESTING: u32 = 100;

/// Parser settings.
#[derive(Clone, Copy, Debug)]
pub struct ParserConfig<'r> {
    /// Registered dialects and ops.
    pub registry: &'r DialectRegistry,
    /// Accept ops, types and attributes of unregistered dialects (generic form only).
    pub allow_unregistered: bool,
}

/// Parses a whole source buffer into a module. Top-level ops other than a single
/// `builtin.module` are wrapped in an implicit `builtin.module`, as mlir-opt does.
pub fn parse_source(source: &SourceFile, config: ParserConfig<'_>) -> ParseResult<Module> {
    let mut parser = Parser::new(source, config);
    let top = parser.parse_top_level()?;
    Ok(Module { ir: parser.ir, top, source: Some(std::sync::Arc::new(source.clone())) })
}

/// A named SSA value group defined in a scope (`%x` or `%x:2`).
#[derive(Clone, Debug)]
struct ValueEntry {
    values: Vec<ValueId>,
    location: Location,
}

/// A use of a not yet defined value, remembered until the definition appears.
#[derive(Clone, Debug)]
struct ForwardRef {
    placeholder: ValueId,
    location: Location,
}

/// The location aliases of a source buffer (see [`Parser::resolve_location_alias`]).
#[derive(Default, Debug)]
struct LocationAliases {
    /// Byte offset of each definition's `loc` keyword, found by one scan of the buffer's top
    /// level when an alias is first used (`None` before).
    definitions: Option<HashMap<String, usize>>,
    /// Aliases already resolved.
    resolved: HashMap<String, Location>,
    /// Aliases being resolved, innermost last, to refuse a cycle instead of recursing forever.
    resolving: Vec<String>,
    /// Aliases whose definition the top level has parsed, to refuse a second definition.
    defined: std::collections::HashSet<String>,
}

/// Names visible in one region.
#[derive(Default, Debug)]
struct NameScope {
    values: HashMap<String, ValueEntry>,
    forward: HashMap<(String, u32), ForwardRef>,
    /// Whether names of enclosing scopes are invisible (isolated-from-above ops).
    isolated: bool,
}

/// The parser state. Custom op parsers reach it through [`CustomOpParser`].
pub struct Parser<'a> {
    lexer: Lexer<'a>,
    tok: Token,
    source: &'a SourceFile,
    config: ParserConfig<'a>,
    pub(crate) ir: Ir,
    attr_aliases: HashMap<String, Attribute>,
    type_aliases: HashMap<String, Type>,
    /// Location aliases (`#loc3 = loc(...)`), resolved on first use: a file printed with
    /// `--mlir-print-debuginfo` uses them before their definitions at the end of the file.
    loc_aliases: LocationAliases,
    scopes: Vec<NameScope>,
    default_dialects: Vec<Option<&'static str>>,
    /// Symbolic names an enclosing custom op made visible to the custom syntax of the ops in
    /// its regions (e.g. a stencil program's parameter names), innermost last.
    symbolic_names: Vec<std::sync::Arc<[String]>>,
    /// Current recursion depth (see [`MAX_NESTING`]).
    nesting: u32,
}

impl<'a> Parser<'a> {
    fn new(source: &'a SourceFile, config: ParserConfig<'a>) -> Self {
        let mut lexer = Lexer::new(source.text());
        let tok = lexer.next_token();
        Parser {
            lexer,
            tok,
            source,
            config,
            ir: Ir::new(),
            attr_aliases: HashMap::new(),
            type_aliases: HashMap::new(),
            loc_aliases: LocationAliases::default(),
            scopes: vec![NameScope { isolated: true, ..Default::default() }],
            default_dialects: vec![],
            symbolic_names: vec![],
            nesting: 0,
        }
    }

    /// Runs `f` one nesting level deeper, failing cleanly past [`MAX_NESTING`].
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> ParseResult<T>) -> ParseResult<T> {
        if self.nesting >= MAX_NESTING {
            return Err(self.error_here(format!(
                "input nests deeper than {MAX_NESTING} levels; stencil-opt does not accept such input"
            )));
        }
        self.nesting += 1;
        let result = f(self);
        self.nesting -= 1;
        result
    }

    // ----- token helpers --------------------------------------------------------------------

    pub(crate) fn spelling(&self) -> &'a str {
        &self.source_text()[self.tok.start..self.tok.end]
    }

    fn source_text(&self) -> &'a str {
        self.lexer.source()
    }

    pub(crate) fn kind(&self) -> TokenKind {
        self.tok.kind
    }

    pub(crate) fn advance(&mut self) {
        self.tok = self.lexer.next_token();
    }

    /// Whether a float literal starts here (`1.5`, `-1.5`).
    pub(crate) fn at_float_literal(&mut self) -> bool {
        self.tok.kind == TokenKind::Float || (self.tok.kind == TokenKind::Minus && self.peek_kind() == TokenKind::Float)
    }

    /// The kind of the token after the current one, without consuming anything.
    pub(crate) fn peek_kind(&mut self) -> TokenKind {
        let resume = self.lexer.position();
        let next = self.lexer.next_token().kind;
        self.lexer.reset_to(resume);
        next
    }

    /// Re-lexes starting at byte `pos` (used to split dimension lists).
    pub(crate) fn reset_lexer(&mut self, pos: usize) {
        self.lexer.reset_to(pos);
        self.advance();
    }

    pub(crate) fn location(&self) -> Location {
        self.source.location(self.tok.start)
    }

    pub(crate) fn token_start(&self) -> usize {
        self.tok.start
    }

    pub(crate) fn error_here(&self, msg: impl Into<String>) -> Diagnostic {
        let msg = msg.into();
        if self.tok.kind == TokenKind::Error {
            return Diagnostic::error(
                self.location(),
                format!("{msg} (unexpected character or unterminated literal '{}')", self.spelling()),
            );
        }
        Diagnostic::error(self.location(), msg)
    }

    fn describe_token(&self) -> String {
        match self.tok.kind {
            TokenKind::Eof => "end of input".to_string(),
            _ => format!("'{}'", self.spelling()),
        }
    }

    pub(crate) fn consume_if(&mut self, kind: TokenKind) -> bool {
        if self.tok.kind == kind {
            self.advance();
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, kind: TokenKind, what: &str) -> ParseResult<()> {
        if self.consume_if(kind) {
            Ok(())
        } else {
            Err(self.error_here(format!("expected {what}, found {}", self.describe_token())))
        }
    }

    pub(crate) fn is_keyword(&self, kw: &str) -> bool {
        self.tok.kind == TokenKind::BareIdent && self.spelling() == kw
    }

    pub(crate) fn consume_keyword(&mut self, kw: &str) -> bool {
        if self.is_keyword(kw) {
            self.advance();
            true
        } else {
            false
        }
    }

    pub(crate) fn parse_string_literal(&mut self) -> ParseResult<String> {
        if self.tok.kind != TokenKind::String {
            return Err(self.error_here(format!("expected string literal, found {}", self.describe_token())));
        }
        let s = decode_string(self.spelling())
            .ok_or_else(|| self.error_here("invalid escape sequence in string literal"))?;
        self.advance();
        Ok(s)
    }

    /// Parses `@name` or `@"name"` and returns the name.
    pub(crate) fn parse_symbol_name(&mut self) -> ParseResult<String> {
        if self.tok.kind != TokenKind::AtIdent {
            return Err(self.error_here(format!("expected symbol name (@name), found {}", self.describe_token())));
        }
        let text = &self.spelling()[1..];
        let name = if text.starts_with('"') {
            decode_string(text).ok_or_else(|| self.error_here("invalid escape sequence in symbol name"))?
        } else {
            text.to_string()
        };
        self.advance();
        Ok(name)
    }

    /// Parses a possibly negative integer literal.
    pub(crate) fn parse_integer(&mut self) -> ParseResult<i128> {
        let negative = self.consume_if(TokenKind::Minus);
        if self.tok.kind != TokenKind::Integer {
            return Err(self.error_here(format!("expected integer literal, found {}", self.describe_token())));
        }
        let text = self.spelling();
        let magnitude = match text.strip_prefix("0x") {
            Some(hex) => u128::from_str_radix(hex, 16).ok(),
            None => text.parse::<u128>().ok(),
        }
        .and_then(|m| i128::try_from(m).ok())
        .ok_or_else(|| self.error_here(format!("integer literal '{text}' is too large")))?;
        self.advance();
        Ok(if negative { -magnitude } else { magnitude })
    }

    /// Parses an integer literal that must fit in i64.
    pub(crate) fn parse_i64(&mut self) -> ParseResult<i64> {
        let loc = self.location();
        let v = self.parse_integer()?;
        i64::try_from(v).map_err(|_| Diagnostic::error(loc, format!("integer {v} does not fit in 64 bits")))
    }

    // ----- top level ------------------------------------------------------------------------

    fn parse_top_level(&mut self) -> ParseResult<OpId> {
        let region = self.ir.create_region();
        let block = self.ir.append_block(region, &[]);
        let start_loc = self.location();
        loop {
            match self.tok.kind {
                TokenKind::Eof => break,
                TokenKind::HashIdent if self.peek_is_alias_definition() => self.parse_attribute_alias_def()?,
                TokenKind::BangIdent if self.peek_is_alias_definition() => self.parse_type_alias_def()?,
                TokenKind::FileMetadataBegin => self.skip_file_metadata()?,
                _ => {
                    self.parse_operation(block)?;
                }
            }
        }
        self.finish_scope()?;
        let ops = self.ir.block_ops(block);
        if let [single] = ops.as_slice() {
            if self.ir.op_name(*single) == "builtin.module" {
                self.ir.detach(*single);
                return Ok(*single);
            }
        }
        let mut state = OperationState::new("builtin.module", start_loc);
        state.regions.push(region);
        Ok(self.ir.create_op(state))
    }

    fn peek_is_alias_definition(&self) -> bool {
        let mut look = self.lexer.clone();
        look.next_token().kind == TokenKind::Equal
    }

    fn parse_attribute_alias_def(&mut self) -> ParseResult<()> {
        let name = self.spelling()[1..].to_string();
        let loc = self.location();
        self.advance();
        self.expect(TokenKind::Equal, "'='")?;
        if self.is_keyword("loc") {
            return self.parse_location_alias_def(name, loc);
        }
        let value = self.parse_attribute()?;
        if self.attr_aliases.insert(name.clone(), value).is_some() {
            return Err(Diagnostic::error(loc, format!("redefinition of attribute alias '#{name}'")));
        }
        Ok(())
    }

    /// `#name = loc(...)` at the top level, after the `=`.
    fn parse_location_alias_def(&mut self, name: String, at: Location) -> ParseResult<()> {
        if !self.loc_aliases.defined.insert(name.clone()) {
            return Err(Diagnostic::error(at, format!("redefinition of location alias '#{name}'")));
        }
        let value = match self.parse_optional_trailing_location()? {
            Some(value) => value,
            None => unreachable!("the caller saw 'loc'"),
        };
        self.loc_aliases.resolved.entry(name).or_insert(value);
        Ok(())
    }

    /// The location alias `#name` used at `at`, parsed from its definition wherever that is in
    /// the buffer (MLIR prints them after the module).
    fn resolve_location_alias(&mut self, name: &str, at: Location) -> ParseResult<Location> {
        if let Some(known) = self.loc_aliases.resolved.get(name) {
            return Ok(known.clone());
        }
        if self.loc_aliases.resolving.iter().any(|n| n == name) {
            return Err(Diagnostic::error(
                at,
                format!("location alias '#{name}' is defined through itself (a cycle of aliases)"),
            ));
        }
        let definitions =
            self.loc_aliases.definitions.get_or_insert_with(|| scan_location_aliases(self.lexer.source()));
        let Some(&offset) = definitions.get(name) else {
            return Err(Diagnostic::error(at, format!("undefined location alias '#{name}'")));
        };
        let (saved_lexer, saved_tok) = (self.lexer.clone(), self.tok);
        self.lexer.reset_to(offset);
        self.tok = self.lexer.next_token();
        self.loc_aliases.resolving.push(name.to_string());
        let parsed = self.parse_optional_trailing_location();
        self.loc_aliases.resolving.pop();
        self.lexer = saved_lexer;
        self.tok = saved_tok;
        let value = match parsed? {
            Some(value) => value,
            None => unreachable!("the scan found 'loc' at the offset"),
        };
        self.loc_aliases.resolved.insert(name.to_string(), value.clone());
        Ok(value)
    }

    fn parse_type_alias_def(&mut self) -> ParseResult<()> {
        let name = self.spelling()[1..].to_string();
        let loc = self.location();
        self.advance();
        self.expect(TokenKind::Equal, "'='")?;
        let value = self.parse_type()?;
        if self.type_aliases.insert(name.clone(), value).is_some() {
            return Err(Diagnostic::error(loc, format!("redefinition of type alias '!{name}'")));
        }
        Ok(())
    }

    /// Skips `{-# … #-}` (dialect resources), which carry nothing we use.
    fn skip_file_metadata(&mut self) -> ParseResult<()> {
        let loc = self.location();
        while self.tok.kind != TokenKind::FileMetadataEnd {
            if self.tok.kind == TokenKind::Eof {
                return Err(Diagnostic::error(loc, "unterminated file metadata dictionary '{-#'"));
            }
            self.advance();
        }
        self.advance();
        Ok(())
    }

    // ----- values and scopes ----------------------------------------------------------------

    fn push_scope(&mut self, isolated: bool) {
        self.scopes.push(NameScope { isolated, ..Default::default() });
    }

    /// Pops a scope; unresolved forward references move to the parent scope unless the scope
    /// is isolated, where they are errors.
    fn pop_scope(&mut self) -> ParseResult<()> {
        let scope = self.scopes.pop().expect("scope stack underflow");
        if scope.isolated || self.scopes.is_empty() {
            return Self::undeclared_error(scope.forward);
        }
        let parent = self.scopes.last_mut().expect("parent scope");
        for (key, fwd) in scope.forward {
            parent.forward.entry(key).or_insert(fwd);
        }
        Ok(())
    }

    fn finish_scope(&mut self) -> ParseResult<()> {
        let forward = std::mem::take(&mut self.scopes[0].forward);
        Self::undeclared_error(forward)
    }

    fn undeclared_error(forward: HashMap<(String, u32), ForwardRef>) -> ParseResult<()> {
        let first = forward.into_iter().min_by_key(|(_, f)| f.location.file_position().map(|(_, l, c)| (l, c)));
        match first {
            Some(((name, _), fwd)) => {
                Err(Diagnostic::error(fwd.location, format!("use of undeclared SSA value name '%{name}'")))
            }
            None => Ok(()),
        }
    }

    /// Looks up `%name#number`, creating a typed forward reference if it is not defined yet.
    pub(crate) fn resolve_value(&mut self, operand: &UnresolvedOperand, ty: &Type) -> ParseResult<ValueId> {
        for scope in self.scopes.iter().rev() {
            if let Some(entry) = scope.values.get(&operand.name) {
                let Some(&v) = entry.values.get(operand.number as usize) else {
                    return Err(Diagnostic::error(
                        operand.location.clone(),
                        format!(
                            "reference to invalid result number #{} of '%{}', which has {} results",
                            operand.number,
                            operand.name,
                            entry.values.len()
                        ),
                    ));
                };
                let actual = self.ir.value_type(v);
                if actual != ty {
                    return Err(Diagnostic::error(
                        operand.location.clone(),
                        format!(
                            "use of value '%{}' expects different type than prior uses: '{ty}' vs '{actual}'",
                            operand.name
                        ),
                    )
                    .with_note(entry.location.clone(), "prior use here"));
                }
                return Ok(v);
            }
            if scope.isolated {
                break;
            }
        }
        let key = (operand.name.clone(), operand.number);
        for scope in self.scopes.iter().rev() {
            if let Some(fwd) = scope.forward.get(&key) {
                let actual = self.ir.value_type(fwd.placeholder).clone();
                if &actual != ty {
                    return Err(Diagnostic::error(
                        operand.location.clone(),
                        format!(
                            "use of value '%{}' expects different type than prior uses: '{ty}' vs '{actual}'",
                            operand.name
                        ),
                    )
                    .with_note(fwd.location.clone(), "prior use here"));
                }
                return Ok(fwd.placeholder);
            }
            if scope.isolated {
                break;
            }
        }
        let placeholder = self.ir.create_placeholder(ty.clone());
        let scope = self.scopes.last_mut().expect("scope");
        scope.forward.insert(key, ForwardRef { placeholder, location: operand.location.clone() });
        Ok(placeholder)
    }

    /// The value `%name#number` if it is already defined and visible (no forward reference is
    /// created): for custom syntaxes that name a value without spelling its type.
    pub(crate) fn lookup_defined_value(&self, operand: &UnresolvedOperand) -> Option<ValueId> {
        for scope in self.scopes.iter().rev() {
            if let Some(entry) = scope.values.get(&operand.name) {
                return entry.values.get(operand.number as usize).copied();
            }
            if scope.isolated {
                break;
            }
        }
        None
    }

    /// Binds `%name` to `values` in the current scope, resolving forward references.
    fn define_values(&mut self, name: &str, values: Vec<ValueId>, location: Location) -> ParseResult<()> {
        let scope = self.scopes.last_mut().expect("scope");
        if let Some(prev) = scope.values.get(name) {
            return Err(Diagnostic::error(location, format!("redefinition of SSA value '%{name}'"))
                .with_note(prev.location.clone(), "previously defined here"));
        }
        for (i, &v) in values.iter().enumerate() {
            let key = (name.to_string(), i as u32);
            let Some(fwd) = scope.forward.remove(&key) else { continue };
            let expected = self.ir.value_type(fwd.placeholder);
            let actual = self.ir.value_type(v);
            if expected != actual {
                return Err(Diagnostic::error(
                    fwd.location,
                    format!("definition of SSA value '%{name}#{i}' has type '{actual}', but it was used with type '{expected}'"),
                )
                .with_note(location, "defined here"));
            }
            self.ir.replace_all_uses(fwd.placeholder, v);
        }
        let scope = self.scopes.last_mut().expect("scope");
        scope.values.insert(name.to_string(), ValueEntry { values, location });
        Ok(())
    }

    // ----- operations -----------------------------------------------------------------------

    /// Parses one operation (with its result list) and appends it to `block`.
    pub(crate) fn parse_operation(&mut self, block: BlockId) -> ParseResult<OpId> {
        let mut result_names: Vec<(String, u32, Location)> = vec![];
        if self.tok.kind == TokenKind::PercentIdent {
            loop {
                if self.tok.kind != TokenKind::PercentIdent {
                    return Err(self.error_here(format!("expected SSA result name, found {}", self.describe_token())));
                }
                let name = self.spelling()[1..].to_string();
                let loc = self.location();
                self.advance();
                let mut count = 1u32;
                if self.consume_if(TokenKind::Colon) {
                    let n = self.parse_i64()?;
                    count = u32::try_from(n)
                        .ok()
                        .filter(|&c| c > 0)
                        .ok_or_else(|| Diagnostic::error(loc.clone(), "expected positive result group size"))?;
                }
                result_names.push((name, count, loc));
                if !self.consume_if(TokenKind::Comma) {
                    break;
                }
            }
            self.expect(TokenKind::Equal, "'=' after SSA result names")?;
        }
        let expected_results: u32 = result_names.iter().map(|r| r.1).sum();
        let op_loc = self.location();
        let op = match self.tok.kind {
            TokenKind::String => self.parse_generic_operation()?,
            TokenKind::BareIdent => self.parse_custom_operation(expected_results)?,
            _ => return Err(self.error_here(format!("expected operation name, found {}", self.describe_token()))),
        };
        if let Some(loc) = self.parse_optional_trailing_location()? {
            self.ir.set_location(op, loc);
        }
        let results = self.ir.results(op).to_vec();
        if results.len() != expected_results as usize && !result_names.is_empty() {
            return Err(Diagnostic::error(
                op_loc,
                format!("operation defines {} results but was provided {} to bind", results.len(), expected_results),
            ));
        }
        let mut next = 0usize;
        for (name, count, loc) in result_names {
            let group = results[next..next + count as usize].to_vec();
            next += count as usize;
            self.define_values(&name, group, loc)?;
        }
        self.ir.insert(op, InsertPoint::End(block));
        Ok(op)
    }

    /// `loc(...)` after an op or argument.
    pub(crate) fn parse_optional_trailing_location(&mut self) -> ParseResult<Option<Location>> {
        if !self.is_keyword("loc") {
            return Ok(None);
        }
        self.advance();
        self.expect(TokenKind::LParen, "'(' after 'loc'")?;
        let loc = self.parse_location_body()?;
        self.expect(TokenKind::RParen, "')' to close location")?;
        Ok(Some(loc))
    }

    fn parse_location_body(&mut self) -> ParseResult<Location> {
        self.nested(Self::parse_location_body_inner)
    }

    fn parse_location_body_inner(&mut self) -> ParseResult<Location> {
        match self.tok.kind {
            TokenKind::BareIdent if self.spelling() == "unknown" => {
                self.advance();
                Ok(Location::Unknown)
            }
            TokenKind::BareIdent if self.spelling() == "fused" => {
                self.advance();
                let mut metadata = None;
                if self.consume_if(TokenKind::Less) {
                    metadata = Some(self.parse_attribute()?.to_string().into());
                    self.expect(TokenKind::Greater, "'>'")?;
                }
                self.expect(TokenKind::LSquare, "'['")?;
                let mut locs = vec![];
                if !self.consume_if(TokenKind::RSquare) {
                    loop {
                        locs.push(self.parse_location_body()?);
                        if !self.consume_if(TokenKind::Comma) {
                            break;
                        }
                    }
                    self.expect(TokenKind::RSquare, "']'")?;
                }
                Ok(Location::Fused { metadata, locations: locs })
            }
            TokenKind::HashIdent => {
                let name = self.spelling()[1..].to_string();
                let at = self.location();
                self.advance();
                self.resolve_location_alias(&name, at)
            }
            TokenKind::BareIdent if self.spelling() == "callsite" => {
                self.advance();
                self.expect(TokenKind::LParen, "'(' after 'callsite'")?;
                let callee = self.parse_location_body()?;
                if !self.consume_keyword("at") {
                    return Err(self.error_here(format!(
                        "expected 'at' in a call-site location, found {}",
                        self.describe_token()
                    )));
                }
                let caller = self.parse_location_body()?;
                self.expect(TokenKind::RParen, "')' to close the call-site location")?;
                Ok(Location::CallSite { callee: Box::new(callee), caller: Box::new(caller) })
            }
            TokenKind::String => {
                let s = self.parse_string_literal()?;
                if self.consume_if(TokenKind::Colon) {
                    let line = self.parse_i64()?;
                    self.expect(TokenKind::Colon, "':' before column")?;
                    let col = self.parse_i64()?;
                    let file: Arc<str> = s.into();
                    let clamp = |v: i64| u32::try_from(v).unwrap_or(0);
                    return Ok(Location::FileLineCol { file, line: clamp(line), col: clamp(col) });
                }
                let child = if self.consume_if(TokenKind::LParen) {
                    let c = self.parse_location_body()?;
                    self.expect(TokenKind::RParen, "')'")?;
                    c
                } else {
                    Location::Unknown
                };
                Ok(Location::Name { name: s.into(), child: Box::new(child) })
            }
            _ => Err(self.error_here(format!("expected location, found {}", self.describe_token()))),
        }
    }

    fn check_op_name_registered(&self, name: &str, loc: &Location) -> ParseResult<()> {
        if self.config.registry.op(name).is_some() || self.config.allow_unregistered {
            return Ok(());
        }
        let dialect = name.split('.').next().unwrap_or(name);
        if self.config.registry.has_dialect(dialect) {
            Err(Diagnostic::error(loc.clone(), format!("unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations")))
        } else {
            Err(Diagnostic::error(
                loc.clone(),
                format!("operation being parsed with an unregistered dialect ('{dialect}'); use --allow-unregistered-dialect to allow it"),
            ))
        }
    }

    fn parse_generic_operation(&mut self) -> ParseResult<OpId> {
        let loc = self.location();
        let name = self.parse_string_literal()?;
        if name.is_empty() {
            return Err(Diagnostic::error(loc, "empty operation name is invalid"));
        }
        self.check_op_name_registered(&name, &loc)?;
        let def = self.config.registry.op(&name);
        let mut state = OperationState::new(&name, loc.clone());
        self.expect(TokenKind::LParen, "'(' to start operand list")?;
        let mut operands = vec![];
        if self.tok.kind != TokenKind::RParen {
            loop {
                operands.push(self.parse_unresolved_operand()?);
                if !self.consume_if(TokenKind::Comma) {
                    break;
                }
            }
        }
        self.expect(TokenKind::RParen, "')' to end operand list")?;
        if self.tok.kind == TokenKind::LSquare {
            return Err(
                self.error_here("block successors are not supported: stencil-opt IR uses structured control flow only")
            );
        }
        let mut explicit_properties = false;
        if self.tok.kind == TokenKind::Less {
            self.advance();
            let props = self.parse_attribute()?;
            let Attribute::Dictionary(entries) = props else {
                return Err(Diagnostic::error(loc, "expected a dictionary of properties inside '<{...}>'"));
            };
            state.properties = entries;
            explicit_properties = true;
            self.expect(TokenKind::Greater, "'>' to close properties")?;
        }
        if self.tok.kind == TokenKind::LParen {
            self.advance();
            let isolated = def.is_some_and(|d| d.traits.isolated_from_above);
            let default_dialect = def.and_then(|d| d.default_dialect);
            loop {
                let region = self.parse_region_with_args(&[], isolated, default_dialect)?;
                state.regions.push(region);
                if !self.consume_if(TokenKind::Comma) {
                    break;
                }
            }
            self.expect(TokenKind::RParen, "')' to end region list")?;
        }
        if self.tok.kind == TokenKind::LBrace {
            let Attribute::Dictionary(entries) = self.parse_attribute()? else {
                unreachable!("'{{' starts a dictionary")
            };
            for entry in entries {
                // Inherent attributes written in the discardable dictionary become properties,
                // as MLIR accepts for backward compatibility.
                let inherent = !explicit_properties && def.is_some_and(|d| d.is_inherent(&entry.name));
                let list = if inherent { &mut state.properties } else { &mut state.attributes };
                crate::attributes::set_named(list, &entry.name, entry.value);
            }
        }
        if let Some(fill) = def.and_then(|d| d.default_properties) {
            fill(&mut state);
        }
        self.expect(TokenKind::Colon, "':' followed by the operation's function type")?;
        let type_loc = self.location();
        let fn_type = self.parse_type()?;
        let Type::Function(func) = fn_type else {
            return Err(Diagnostic::error(
                type_loc,
                format!("expected function type for generic operation, found '{fn_type}'"),
            ));
        };
        if func.inputs.len() != operands.len() {
            return Err(Diagnostic::error(
                type_loc,
                format!("expected {} operand type(s) but had {}", operands.len(), func.inputs.len()),
            ));
        }
        for (operand, ty) in operands.iter().zip(&func.inputs) {
            state.operands.push(self.resolve_value(operand, ty)?);
        }
        state.result_types = func.results.clone();
        Ok(self.ir.create_op(state))
    }

    fn resolve_custom_op_name(&self, spelled: &str) -> Option<&'static str> {
        let registry = self.config.registry;
        if let Some(def) = registry.op(spelled) {
            return Some(def.name);
        }
        if let Some(def) = registry.op(&format!("builtin.{spelled}")) {
            return Some(def.name);
        }
        if let Some(Some(dialect)) = self.default_dialects.last() {
            if let Some(def) = registry.op(&format!("{dialect}.{spelled}")) {
                return Some(def.name);
            }
        }
        None
    }

    fn parse_custom_operation(&mut self, expected_results: u32) -> ParseResult<OpId> {
        let loc = self.location();
        let spelled = self.spelling();
        let Some(name) = self.resolve_custom_op_name(spelled) else {
            let tried = match self.default_dialects.last() {
                Some(Some(d)) if !spelled.contains('.') => format!(" (tried '{d}.{spelled}' as well)"),
                _ => String::new(),
            };
            // Another dialect's custom syntax cannot be parsed without knowing the op; its
            // generic form can, with --allow-unregistered-dialect.
            let generic = if spelled.starts_with("tensor.") {
                " (tensors are not supported: stencil-opt reads memrefs)"
            } else if matches!(spelled, "memref.subview" | "memref.expand_shape" | "memref.collapse_shape") {
                // Views are what linalg's lowering leaves around affine accesses; folded into
                // the accesses, the nests read the whole arrays, which the raise takes.
                " (views of memrefs are not supported: fold them into the accesses first with mlir-opt --affine-fold-memref-alias-ops, which rewrites affine.load/store of a view into accesses of the whole array)"
            } else if self.config.registry.op(spelled).is_none() && spelled.contains('.') {
                " (an op stencil-opt does not know parses only in its generic form, \"op.name\"(...), with --allow-unregistered-dialect: print the file with mlir-opt --mlir-print-op-generic)"
            } else {
                ""
            };
            return Err(Diagnostic::error(loc, format!("custom op '{spelled}' is unknown{tried}{generic}")));
        };
        let def = self.config.registry.op(name).expect("resolved op is registered");
        let Some(parse) = def.parse else {
            return Err(Diagnostic::error(
                loc,
                format!(
                    "op '{name}' has no custom syntax; write it in generic form (\"{name}\"(...) : (...) -> (...))"
                ),
            ));
        };
        self.advance();
        let state = OperationState::new(name, loc);
        let mut custom = CustomOpParser::new(self, state, expected_results);
        parse(&mut custom)?;
        let mut state = custom.into_state();
        if let Some(fill) = def.default_properties {
            fill(&mut state);
        }
        Ok(self.ir.create_op(state))
    }

    pub(crate) fn parse_unresolved_operand(&mut self) -> ParseResult<UnresolvedOperand> {
        if self.tok.kind != TokenKind::PercentIdent {
            return Err(self.error_here(format!("expected SSA operand, found {}", self.describe_token())));
        }
        let location = self.location();
        let name = self.spelling()[1..].to_string();
        self.advance();
        let mut number = 0;
        if self.tok.kind == TokenKind::HashIdent {
            let text = &self.spelling()[1..];
            number = text.parse::<u32>().map_err(|_| self.error_here("expected result number after '#'"))?;
            self.advance();
        }
        Ok(UnresolvedOperand { name, number, location })
    }

    // ----- regions and blocks ---------------------------------------------------------------

    /// Parses `{ … }` as a region. `entry_args` (from a custom syntax, e.g. a function's
    /// signature) become the entry block's arguments.
    pub(crate) fn parse_region_with_args(
        &mut self,
        entry_args: &[Argument],
        isolated: bool,
        default_dialect: Option<&'static str>,
    ) -> ParseResult<RegionId> {
        self.nested(|p| p.parse_region_nested(entry_args, isolated, default_dialect))
    }

    fn parse_region_nested(
        &mut self,
        entry_args: &[Argument],
        isolated: bool,
        default_dialect: Option<&'static str>,
    ) -> ParseResult<RegionId> {
        let open_loc = self.location();
        self.expect(TokenKind::LBrace, "'{' to begin a region")?;
        self.push_scope(isolated);
        self.default_dialects.push(default_dialect);
        let result = self.parse_region_body(entry_args, open_loc);
        self.default_dialects.pop();
        let scope_result = self.pop_scope();
        let region = result?;
        scope_result?;
        Ok(region)
    }

    fn parse_region_body(&mut self, entry_args: &[Argument], open_loc: Location) -> ParseResult<RegionId> {
        let region = self.ir.create_region();
        let mut labels: HashMap<String, Location> = HashMap::new();
        if self.consume_if(TokenKind::RBrace) {
            if !entry_args.is_empty() {
                let block = self.ir.append_block(region, &[]);
                self.define_block_args(block, entry_args)?;
            }
            return Ok(region);
        }
        let mut first = true;
        loop {
            let block = self.ir.append_block(region, &[]);
            if self.tok.kind == TokenKind::CaretIdent {
                if first && !entry_args.is_empty() {
                    return Err(self.error_here("invalid block name in region with named arguments"));
                }
                let label = self.spelling()[1..].to_string();
                let label_loc = self.location();
                self.advance();
                if let Some(prev) = labels.insert(label.clone(), label_loc.clone()) {
                    return Err(Diagnostic::error(label_loc, format!("redefinition of block '^{label}'"))
                        .with_note(prev, "previously defined here"));
                }
                if self.consume_if(TokenKind::LParen) {
                    if self.tok.kind != TokenKind::RParen {
                        loop {
                            let arg = self.parse_argument(true)?;
                            self.define_block_args(block, std::slice::from_ref(&arg))?;
                            if !self.consume_if(TokenKind::Comma) {
                                break;
                            }
                        }
                    }
                    self.expect(TokenKind::RParen, "')' to end block argument list")?;
                }
                self.expect(TokenKind::Colon, "':' after block label")?;
            } else if first {
                self.define_block_args(block, entry_args)?;
            } else {
                return Err(self.error_here("expected block label ('^bb1:') for a block after the first"));
            }
            first = false;
            while !matches!(self.tok.kind, TokenKind::CaretIdent | TokenKind::RBrace) {
                if self.tok.kind == TokenKind::Eof {
                    return Err(Diagnostic::error(open_loc, "region is not closed: expected '}' before end of input"));
                }
                self.parse_operation(block)?;
            }
            if self.consume_if(TokenKind::RBrace) {
                return Ok(region);
            }
        }
    }

    fn define_block_args(&mut self, block: BlockId, args: &[Argument]) -> ParseResult<()> {
        for arg in args {
            let v = self.ir.add_block_argument(block, arg.ty.clone());
            self.define_values(&arg.name.name, vec![v], arg.name.location.clone())?;
        }
        Ok(())
    }

    /// `%name : type` (`with_type`) or `%name`, plus optional `{attrs}` and `loc(...)`.
    pub(crate) fn parse_argument(&mut self, with_type: bool) -> ParseResult<Argument> {
        let name = self.parse_unresolved_operand()?;
        if name.number != 0 {
            return Err(Diagnostic::error(name.location, "block argument names cannot have a result number"));
        }
        let ty = if with_type {
            self.expect(TokenKind::Colon, "':' and the argument's type")?;
            self.parse_type()?
        } else {
            Type::None
        };
        let attrs = if self.tok.kind == TokenKind::LBrace {
            match self.parse_attribute()? {
                Attribute::Dictionary(d) => d,
                _ => unreachable!("'{{' starts a dictionary"),
            }
        } else {
            vec![]
        };
        let location = self.parse_optional_trailing_location()?;
        Ok(Argument { name, ty, attrs, location })
    }
}

/// The top-level location alias definitions of `source` (`#name = loc(...)` outside every
/// brace), each at the byte offset of its `loc`; the first of two definitions of one name.
fn scan_location_aliases(source: &str) -> HashMap<String, usize> {
    let mut lexer = Lexer::new(source);
    let mut definitions = HashMap::new();
    let mut depth = 0usize;
    // The two tokens before the current one, to see `#name = loc` once `loc` is read.
    let mut previous: [Option<Token>; 2] = [None, None];
    loop {
        let tok = lexer.next_token();
        match tok.kind {
            TokenKind::Eof | TokenKind::Error => break,
            TokenKind::LBrace => depth += 1,
            TokenKind::RBrace => depth = depth.saturating_sub(1),
            TokenKind::BareIdent if depth == 0 && &source[tok.start..tok.end] == "loc" => {
                if let [Some(hash), Some(equal)] = previous {
                    if hash.kind == TokenKind::HashIdent && equal.kind == TokenKind::Equal {
                        definitions.entry(source[hash.start + 1..hash.end].to_string()).or_insert(tok.start);
                    }
                }
            }
            _ => {}
        }
        previous = [previous[1], Some(tok)];
    }
    definitions
}

/// Splits a named attribute list into those named in `inherent` and the rest.
pub fn split_inherent(list: Vec<NamedAttribute>, inherent: &[&str]) -> (Vec<NamedAttribute>, Vec<NamedAttribute>) {
    list.into_iter().partition(|a| inherent.contains(&&*a.name))
}
