//! The API custom op parsers use (MLIR's `OpAsmParser`).

use super::lexer::TokenKind;
use super::{ParseResult, Parser};
use crate::affine::{AffineExpr, AffineMap};
use crate::attributes::{set_named, Attribute, NamedAttribute};
use crate::diagnostics::Diagnostic;
use crate::ir::{OperationState, RegionId, ValueId};
use crate::location::Location;
use crate::types::Type;

/// A use of an SSA value not yet resolved to a [`ValueId`] (its type is not known yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnresolvedOperand {
    /// Name without `%`.
    pub name: String,
    /// Result number (`%x#1`).
    pub number: u32,
    /// Where it was written.
    pub location: Location,
}

/// A region argument written in custom syntax (`%i`, `%arg0: f32 {attrs}`).
#[derive(Clone, Debug)]
pub struct Argument {
    /// The name.
    pub name: UnresolvedOperand,
    /// Its type ([`Type::None`] until set when parsed without type).
    pub ty: Type,
    /// Argument attributes (`{llvm.noalias}`).
    pub attrs: Vec<NamedAttribute>,
    /// Explicit location, if written.
    pub location: Option<Location>,
}

/// Parses the custom syntax of one op: everything after the op name.
pub struct CustomOpParser<'p, 'a> {
    parser: &'p mut Parser<'a>,
    state: OperationState,
    num_result_names: u32,
}

/// SSA operands of an affine map written inline (`%i + 1, symbol(%n)`): dims then symbols.
#[derive(Clone, Debug, Default)]
pub struct AffineOperands {
    /// Operands bound to dimensions, in order.
    pub dims: Vec<UnresolvedOperand>,
    /// Operands bound to symbols, in order.
    pub symbols: Vec<UnresolvedOperand>,
}

impl<'p, 'a> CustomOpParser<'p, 'a> {
    pub(crate) fn new(parser: &'p mut Parser<'a>, state: OperationState, num_result_names: u32) -> Self {
        CustomOpParser { parser, state, num_result_names }
    }

    pub(crate) fn into_state(self) -> OperationState {
        self.state
    }

    /// The op state being built (operands, result types, attributes, regions).
    pub fn state(&mut self) -> &mut OperationState {
        &mut self.state
    }

    /// Number of result values the text binds (`%a, %b = …` → 2), 0 if none.
    pub fn num_result_names(&self) -> u32 {
        self.num_result_names
    }

    /// Location of the op name.
    pub fn op_location(&self) -> Location {
        self.state.location.clone()
    }

    /// Location of the current token.
    pub fn location(&self) -> Location {
        self.parser.location()
    }

    /// An error at the current token.
    pub fn error(&self, msg: impl Into<String>) -> Diagnostic {
        self.parser.error_here(msg)
    }

    /// An error at the op name.
    pub fn op_error(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.state.location.clone(), msg)
    }

    // ----- punctuation and keywords ---------------------------------------------------------

    /// Consumes the token if it is `kind`.
    pub fn consume_if(&mut self, kind: TokenKind) -> bool {
        self.parser.consume_if(kind)
    }

    /// Requires the token `kind`; `what` describes it in the error (e.g. "'('").
    pub fn expect(&mut self, kind: TokenKind, what: &str) -> ParseResult<()> {
        self.parser.expect(kind, what)
    }

    /// Whether the current token is `kind`.
    pub fn at(&self, kind: TokenKind) -> bool {
        self.parser.kind() == kind
    }

    /// Whether the current token is the keyword `kw`.
    pub fn at_keyword(&self, kw: &str) -> bool {
        self.parser.is_keyword(kw)
    }

    /// Consumes keyword `kw` if present.
    pub fn consume_keyword(&mut self, kw: &str) -> bool {
        self.parser.consume_keyword(kw)
    }

    /// Requires keyword `kw`.
    pub fn expect_keyword(&mut self, kw: &str) -> ParseResult<()> {
        if self.parser.consume_keyword(kw) {
            Ok(())
        } else {
            Err(self.error(format!("expected '{kw}', found '{}'", self.parser.spelling())))
        }
    }

    /// Parses any bare keyword and returns it.
    pub fn parse_keyword(&mut self) -> ParseResult<String> {
        if self.parser.kind() != TokenKind::BareIdent {
            return Err(self.error(format!("expected keyword, found '{}'", self.parser.spelling())));
        }
        let kw = self.parser.spelling().to_string();
        self.parser.advance();
        Ok(kw)
    }

    /// Parses one of `choices` and returns its index.
    pub fn parse_keyword_of(&mut self, choices: &[&str]) -> ParseResult<usize> {
        let loc = self.location();
        let kw = self.parse_keyword()?;
        choices.iter().position(|c| *c == kw).ok_or_else(|| {
            Diagnostic::error(
                loc,
                format!(
                    "expected one of [{}], found '{kw}'",
                    choices.iter().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(", ")
                ),
            )
        })
    }

    // ----- literals, symbols, attributes ----------------------------------------------------

    /// A possibly negative integer literal.
    pub fn parse_integer(&mut self) -> ParseResult<i64> {
        self.parser.parse_i64()
    }

    /// A string literal.
    pub fn parse_string(&mut self) -> ParseResult<String> {
        self.parser.parse_string_literal()
    }

    /// `@name`.
    pub fn parse_symbol_name(&mut self) -> ParseResult<String> {
        self.parser.parse_symbol_name()
    }

    /// Any attribute.
    pub fn parse_attribute(&mut self) -> ParseResult<Attribute> {
        self.parser.parse_attribute()
    }

    /// Any attribute, with the number's type given by `ty` when it has no `: type` (as in
    /// `arith.constant 1 : i32`, where the type follows separately). Returns the attribute.
    pub fn parse_attribute_of_type(&mut self, ty: &Type) -> ParseResult<Attribute> {
        // `0x…` where a float is expected is the float's bits, as MLIR reads it (and as the
        // printer writes a float whose decimal form would not round-trip).
        if let Type::Float(kind) = ty {
            if self.parser.kind() == TokenKind::Integer && self.parser.spelling().starts_with("0x") {
                let loc = self.location();
                let bits = self.parser.parse_integer()?;
                return super::attrs::float_from_bits(bits, *kind)
                    .map(|value| Attribute::Float { value, kind: *kind })
                    .ok_or_else(|| Diagnostic::error(loc, "hexadecimal float literal does not fit the float type"));
            }
        }
        let attr = self.parser.parse_attribute()?;
        Ok(match (attr, ty) {
            (Attribute::Integer { value, .. }, Type::Integer(1)) => Attribute::Bool(value != 0),
            (Attribute::Integer { value, .. }, t) if t.is_integer_like() => Attribute::Integer { value, ty: t.clone() },
            (Attribute::Float { value, .. }, Type::Float(k)) => Attribute::Float { value, kind: *k },
            (a, _) => a,
        })
    }

    /// `{…}` if present: attributes are added to the state; names that are inherent to the op
    /// (per its definition) become properties.
    pub fn parse_optional_attr_dict(&mut self) -> ParseResult<()> {
        if self.parser.kind() != TokenKind::LBrace {
            return Ok(());
        }
        let entries = self.parser.parse_dictionary_body()?;
        let inherent = self.parser.config.registry.op(&self.state.name).map(|d| d.inherent_attrs).unwrap_or(&[]);
        for e in entries {
            let list =
                if inherent.contains(&&*e.name) { &mut self.state.properties } else { &mut self.state.attributes };
            set_named(list, &e.name, e.value);
        }
        Ok(())
    }

    /// `attributes {…}` if present.
    pub fn parse_optional_attr_dict_with_keyword(&mut self) -> ParseResult<()> {
        if self.consume_keyword("attributes") {
            if self.parser.kind() != TokenKind::LBrace {
                return Err(self.error("expected '{' after 'attributes'"));
            }
            self.parse_optional_attr_dict()?;
        }
        Ok(())
    }

    /// Parses a dictionary `{…}` and returns its entries (for argument attributes).
    pub fn parse_dictionary(&mut self) -> ParseResult<Vec<NamedAttribute>> {
        self.parser.parse_dictionary_body()
    }

    // ----- types ----------------------------------------------------------------------------

    /// Any type.
    pub fn parse_type(&mut self) -> ParseResult<Type> {
        self.parser.parse_type()
    }

    /// `: type`.
    pub fn parse_colon_type(&mut self) -> ParseResult<Type> {
        self.expect(TokenKind::Colon, "':'")?;
        self.parse_type()
    }

    /// A comma-separated, non-empty type list.
    pub fn parse_type_list(&mut self) -> ParseResult<Vec<Type>> {
        let mut types = vec![self.parse_type()?];
        while self.consume_if(TokenKind::Comma) {
            types.push(self.parse_type()?);
        }
        Ok(types)
    }

    /// `: t1, t2`.
    pub fn parse_colon_type_list(&mut self) -> ParseResult<Vec<Type>> {
        self.expect(TokenKind::Colon, "':'")?;
        self.parse_type_list()
    }

    /// `(t1, t2)` (possibly empty).
    pub fn parse_paren_type_list(&mut self) -> ParseResult<Vec<Type>> {
        self.expect(TokenKind::LParen, "'('")?;
        self.parser.parse_type_list_until(TokenKind::RParen)
    }

    /// After `->`: a single type or a parenthesised list.
    pub fn parse_result_types(&mut self) -> ParseResult<Vec<Type>> {
        self.parser.parse_result_type_list()
    }

    /// `-> types` if present, else nothing.
    pub fn parse_optional_arrow_type_list(&mut self) -> ParseResult<Vec<Type>> {
        if self.consume_if(TokenKind::Arrow) {
            self.parse_result_types()
        } else {
            Ok(vec![])
        }
    }

    /// `(inputs) -> results`.
    pub fn parse_function_type(&mut self) -> ParseResult<Type> {
        self.parser.parse_function_type()
    }

    /// Records the op's result types.
    pub fn add_result_types(&mut self, types: impl IntoIterator<Item = Type>) {
        self.state.result_types.extend(types);
    }

    // ----- operands -------------------------------------------------------------------------

    /// `%x` or `%x#1`.
    pub fn parse_operand(&mut self) -> ParseResult<UnresolvedOperand> {
        self.parser.parse_unresolved_operand()
    }

    /// `%x` if the current token is a value.
    pub fn parse_optional_operand(&mut self) -> ParseResult<Option<UnresolvedOperand>> {
        if self.at(TokenKind::PercentIdent) {
            self.parse_operand().map(Some)
        } else {
            Ok(None)
        }
    }

    /// A possibly empty comma-separated operand list (no delimiters).
    pub fn parse_operand_list(&mut self) -> ParseResult<Vec<UnresolvedOperand>> {
        let mut ops = vec![];
        if !self.at(TokenKind::PercentIdent) {
            return Ok(ops);
        }
        loop {
            ops.push(self.parse_operand()?);
            if !self.consume_if(TokenKind::Comma) {
                return Ok(ops);
            }
        }
    }

    /// An operand list between `open` and `close` (e.g. `(`…`)` or `[`…`]`).
    pub fn parse_delimited_operand_list(
        &mut self,
        open: TokenKind,
        close: TokenKind,
    ) -> ParseResult<Vec<UnresolvedOperand>> {
        self.expect(open, "operand list")?;
        let ops = self.parse_operand_list()?;
        self.expect(close, "',' or the end of the operand list")?;
        Ok(ops)
    }

    /// Resolves an operand with its expected type.
    pub fn resolve_operand(&mut self, operand: &UnresolvedOperand, ty: &Type) -> ParseResult<ValueId> {
        self.parser.resolve_value(operand, ty)
    }

    /// Resolves an operand whose type the syntax does not spell: it must already be defined
    /// (no forward reference). `what` names the expected kind of value in the error.
    pub fn resolve_defined_operand(&mut self, operand: &UnresolvedOperand, what: &str) -> ParseResult<ValueId> {
        self.parser.lookup_defined_value(operand).ok_or_else(|| {
            Diagnostic::error(
                operand.location.clone(),
                format!("use of undeclared SSA value name '%{}': expected {what}", operand.name),
            )
        })
    }

    /// Resolves operands and appends them to the op's operands.
    pub fn add_operands(&mut self, operands: &[UnresolvedOperand], types: &[Type]) -> ParseResult<()> {
        if operands.len() != types.len() {
            let loc = operands.first().map_or_else(|| self.op_location(), |o| o.location.clone());
            return Err(Diagnostic::error(
                loc,
                format!("{} operands present, but expected {} types", operands.len(), types.len()),
            ));
        }
        for (o, t) in operands.iter().zip(types) {
            let v = self.resolve_operand(o, t)?;
            self.state.operands.push(v);
        }
        Ok(())
    }

    /// Resolves operands that all have type `ty` and appends them.
    pub fn add_operands_of_type(&mut self, operands: &[UnresolvedOperand], ty: &Type) -> ParseResult<()> {
        for o in operands {
            let v = self.resolve_operand(o, ty)?;
            self.state.operands.push(v);
        }
        Ok(())
    }

    /// The type of an already resolved value.
    pub fn value_type(&self, v: ValueId) -> Type {
        self.parser.ir.value_type(v).clone()
    }

    // ----- regions --------------------------------------------------------------------------

    /// `%a: t {attrs}` (or just `%a` without `with_type`).
    pub fn parse_argument(&mut self, with_type: bool) -> ParseResult<Argument> {
        self.parser.parse_argument(with_type)
    }

    /// `(%a: t, …)` (possibly empty).
    pub fn parse_argument_list(&mut self, with_type: bool) -> ParseResult<Vec<Argument>> {
        self.expect(TokenKind::LParen, "'(' to begin argument list")?;
        let mut args = vec![];
        if !self.consume_if(TokenKind::RParen) {
            loop {
                args.push(self.parse_argument(with_type)?);
                if !self.consume_if(TokenKind::Comma) {
                    break;
                }
            }
            self.expect(TokenKind::RParen, "',' or ')' in argument list")?;
        }
        Ok(args)
    }

    /// Parses a region; `entry_args` become the entry block's arguments. The region is added
    /// to the op and returned. Name scoping follows the op's `IsolatedFromAbove` trait.
    pub fn parse_region(&mut self, entry_args: &[Argument]) -> ParseResult<RegionId> {
        let def = self.parser.config.registry.op(&self.state.name);
        let isolated = def.is_some_and(|d| d.traits.isolated_from_above);
        let default_dialect = def.and_then(|d| d.default_dialect);
        let region = self.parser.parse_region_with_args(entry_args, isolated, default_dialect)?;
        self.state.regions.push(region);
        Ok(region)
    }

    /// Parses a region while `names` are visible to the custom parsers of nested ops through
    /// [`Self::symbolic_names`] (a program's parameter names, for instance).
    pub fn parse_region_with_names(&mut self, entry_args: &[Argument], names: &[String]) -> ParseResult<RegionId> {
        self.parser.symbolic_names.push(names.to_vec().into());
        let result = self.parse_region(entry_args);
        self.parser.symbolic_names.pop();
        result
    }

    /// The symbolic names made visible by the innermost enclosing op that used
    /// [`Self::parse_region_with_names`], if any.
    pub fn symbolic_names(&self) -> Option<std::sync::Arc<[String]>> {
        self.parser.symbolic_names.last().cloned()
    }

    /// Parses an affine expression in which bare identifiers are the given `names`, bound to
    /// symbols by position (`N - 1` with names `[T, N]` gives `s1 - 1`). Other identifiers are
    /// errors naming the known ones.
    pub fn parse_affine_expr_of_names(&mut self, names: &[String]) -> ParseResult<AffineExpr> {
        let mut resolve = |p: &mut Parser<'_>| -> ParseResult<Option<AffineExpr>> {
            if p.kind() != TokenKind::BareIdent {
                return Ok(None);
            }
            let name = p.spelling();
            let Some(pos) = names.iter().position(|n| n == name) else {
                let known = if names.is_empty() { "none are declared".to_string() } else { names.join(", ") };
                return Err(p.error_here(format!(
                    "unknown parameter '{name}' in affine expression (known parameters: {known})"
                )));
            };
            p.advance();
            Ok(Some(AffineExpr::Symbol(pos as u32)))
        };
        self.parser.parse_affine_expr(&mut resolve)
    }

    /// Parses a region if the current token is `{`.
    pub fn parse_optional_region(&mut self, entry_args: &[Argument]) -> ParseResult<Option<RegionId>> {
        if self.at(TokenKind::LBrace) {
            self.parse_region(entry_args).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Adds an empty region to the op (for optional regions left out in the text).
    pub fn add_empty_region(&mut self) -> RegionId {
        let r = self.parser.ir.create_region();
        self.state.regions.push(r);
        r
    }

    /// Ensures `region` has one block ending with a terminator, adding `terminator` (with no
    /// operands) when it has none: custom forms elide trivial terminators such as `scf.yield`.
    pub fn ensure_terminator(&mut self, region: RegionId, terminator: &str) {
        let ir = &mut self.parser.ir;
        let block = match ir.entry_block(region) {
            Some(b) => b,
            None => ir.append_block(region, &[]),
        };
        // As MLIR's `ensureRegionTerminator`: any registered terminator already there is kept
        // (the op's verifier reports one of the wrong kind); only a missing one is added.
        let registry = self.parser.config.registry;
        let has_terminator =
            ir.last_op(block).is_some_and(|op| ir.op_name(op) == terminator || registry.traits_of(ir, op).terminator);
        if !has_terminator {
            let state = OperationState::new(terminator, self.state.location.clone());
            ir.build(crate::ir::InsertPoint::End(block), state);
        }
    }

    /// Ensures `region` has an entry block (for `NoTerminator` bodies like a module's).
    pub fn ensure_block(&mut self, region: RegionId) {
        if self.parser.ir.entry_block(region).is_none() {
            self.parser.ir.append_block(region, &[]);
        }
    }

    // ----- affine ---------------------------------------------------------------------------

    /// Parses an affine expression list written over SSA values (`%i + 1, symbol(%n) * 2`), as
    /// affine load/store indices: plain values become dims, `symbol(%v)` becomes a symbol.
    /// Stops before the closing delimiter. Returns the map and its operands.
    pub fn parse_affine_exprs_of_ssa_ids(&mut self, close: TokenKind) -> ParseResult<(AffineMap, AffineOperands)> {
        let mut operands = AffineOperands::default();
        let mut results = vec![];
        if self.at(close) {
            return Ok((AffineMap::new(0, 0, vec![]), operands));
        }
        loop {
            let expr = self.parse_affine_expr_of_ssa_ids(&mut operands)?;
            results.push(expr);
            if !self.consume_if(TokenKind::Comma) {
                break;
            }
        }
        let map = AffineMap::new(operands.dims.len() as u32, operands.symbols.len() as u32, results);
        Ok((map, operands))
    }

    /// One affine expression over SSA values; new dims and symbols are appended to
    /// `operands` (a value used twice maps to the same position).
    pub fn parse_affine_expr_of_ssa_ids(&mut self, operands: &mut AffineOperands) -> ParseResult<AffineExpr> {
        let mut resolve = |p: &mut Parser<'_>| -> ParseResult<Option<AffineExpr>> {
            // As in MLIR, the first use of a value decides whether it is a dim or a symbol;
            // later uses of it (plain or in `symbol(...)`) refer to that position.
            if p.kind() == TokenKind::PercentIdent {
                let o = p.parse_unresolved_operand()?;
                if let Some(pos) = position_of(&operands.symbols, &o) {
                    return Ok(Some(AffineExpr::Symbol(pos)));
                }
                let pos = position_or_push(&mut operands.dims, o);
                return Ok(Some(AffineExpr::Dim(pos)));
            }
            if p.is_keyword("symbol") {
                p.advance();
                p.expect(TokenKind::LParen, "'(' after 'symbol'")?;
                let o = p.parse_unresolved_operand()?;
                p.expect(TokenKind::RParen, "')' after symbol operand")?;
                if let Some(pos) = position_of(&operands.dims, &o) {
                    return Ok(Some(AffineExpr::Dim(pos)));
                }
                let pos = position_or_push(&mut operands.symbols, o);
                return Ok(Some(AffineExpr::Symbol(pos)));
            }
            Ok(None)
        };
        self.parser.parse_affine_expr(&mut resolve)
    }
}

fn position_of(list: &[UnresolvedOperand], o: &UnresolvedOperand) -> Option<u32> {
    list.iter().position(|x| x.name == o.name && x.number == o.number).map(|p| p as u32)
}

fn position_or_push(list: &mut Vec<UnresolvedOperand>, o: UnresolvedOperand) -> u32 {
    let pos = list.iter().position(|x| x.name == o.name && x.number == o.number).unwrap_or_else(|| {
        list.push(o);
        list.len() - 1
    });
    pos as u32
}
