//! The bit-enum attributes of arith: `#arith.fastmath<…>` (also used by `math` ops) and
//! `#arith.overflow<…>`. They are stored as dialect attributes whose body is always the
//! canonical spelling MLIR prints (`nnan,ninf`, `nsw, nuw`, `fast`, `none`), so printing and
//! CSE see equal flags as equal text.

use std::fmt::{self, Write};
use stencil_ir::attributes::DialectAttribute;
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{CustomOpParser, ParseResult};
use stencil_ir::printer::OpPrinter;
use stencil_ir::{Attribute, Diagnostic, Ir, OpId, OperationState};

/// Which flag set an attribute holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FlagKind {
    /// Floating-point fast-math flags (`#arith.fastmath<…>`), property `fastmath`.
    FastMath,
    /// Integer overflow flags (`#arith.overflow<…>`), property `overflowFlags`.
    Overflow,
}

const FASTMATH_BITS: &[(&str, u32)] =
    &[("reassoc", 1), ("nnan", 2), ("ninf", 4), ("nsz", 8), ("arcp", 16), ("contract", 32), ("afn", 64)];
const OVERFLOW_BITS: &[(&str, u32)] = &[("nsw", 1), ("nuw", 2)];

impl FlagKind {
    /// The attribute's name in the dialect (`#arith.<name><…>`).
    pub fn attr_name(self) -> &'static str {
        match self {
            FlagKind::FastMath => "fastmath",
            FlagKind::Overflow => "overflow",
        }
    }

    /// The property that holds it on an op.
    pub fn property(self) -> &'static str {
        match self {
            FlagKind::FastMath => "fastmath",
            FlagKind::Overflow => "overflowFlags",
        }
    }

    /// The keyword that introduces it in custom syntax (`fastmath<fast>`, `overflow<nsw>`).
    pub fn keyword(self) -> &'static str {
        self.attr_name()
    }

    fn bits(self) -> &'static [(&'static str, u32)] {
        match self {
            FlagKind::FastMath => FASTMATH_BITS,
            FlagKind::Overflow => OVERFLOW_BITS,
        }
    }

    /// All flags together; fast-math prints this group as `fast`.
    fn all(self) -> u32 {
        self.bits().iter().fold(0, |acc, (_, b)| acc | b)
    }

    /// Separator MLIR's generated printer uses between flags.
    fn separator(self) -> &'static str {
        match self {
            FlagKind::FastMath => ",",
            FlagKind::Overflow => ", ",
        }
    }

    /// The C++ enum name MLIR names in its parse error.
    fn enum_name(self) -> &'static str {
        match self {
            FlagKind::FastMath => "::mlir::arith::FastMathFlags",
            FlagKind::Overflow => "::mlir::arith::IntegerOverflowFlags",
        }
    }

    /// MLIR's description of the attribute, used in verifier messages.
    pub fn description(self) -> &'static str {
        match self {
            FlagKind::FastMath => "Floating point fast math flags",
            FlagKind::Overflow => "Integer overflow arith flags",
        }
    }

    fn choices(self) -> String {
        let mut names = vec!["none"];
        names.extend(self.bits().iter().map(|(n, _)| *n));
        if self == FlagKind::FastMath {
            names.push("fast");
        }
        names.join(", ")
    }

    /// The bits of one flag keyword.
    fn lookup(self, word: &str) -> Result<u32, String> {
        match word {
            "none" => Ok(0),
            "fast" if self == FlagKind::FastMath => Ok(self.all()),
            _ => self
                .bits()
                .iter()
                .find(|(n, _)| *n == word)
                .map(|(_, b)| *b)
                .ok_or_else(|| format!("expected {} to be one of: {}", self.enum_name(), self.choices())),
        }
    }

    /// Parses an attribute body such as `nnan, ninf` into its bits.
    pub fn parse_body(self, body: &str) -> Result<u32, String> {
        body.split(',').map(|w| self.lookup(w.trim())).try_fold(0, |acc, b| b.map(|b| acc | b))
    }

    /// The canonical body for `bits`, as MLIR prints it.
    pub fn body(self, bits: u32) -> String {
        if bits == 0 {
            return "none".into();
        }
        if self == FlagKind::FastMath && bits == self.all() {
            return "fast".into();
        }
        let names: Vec<&str> = self.bits().iter().filter(|(_, b)| bits & b != 0).map(|(n, _)| *n).collect();
        names.join(self.separator())
    }

    /// The attribute holding `bits`.
    pub fn attr(self, bits: u32) -> Attribute {
        Attribute::Dialect(Box::new(DialectAttribute {
            dialect: "arith".into(),
            name: self.attr_name().into(),
            body: Some(self.body(bits).into()),
        }))
    }

    /// The bits of `attr` if it is a valid attribute of this kind.
    pub fn bits_of(self, attr: &Attribute) -> Option<u32> {
        let d = attr.as_dialect()?;
        if &*d.dialect != "arith" || &*d.name != self.attr_name() {
            return None;
        }
        self.parse_body(d.body.as_deref()?).ok()
    }

    /// The flags set on `op` (none when the property is absent or malformed).
    pub fn of_op(self, ir: &Ir, op: OpId) -> u32 {
        ir.attr(op, self.property()).and_then(|a| self.bits_of(a)).unwrap_or(0)
    }
}

/// The dialect's attribute check: the bodies of `#arith.fastmath<…>` and `#arith.overflow<…>`.
pub fn check_attr(attr: &DialectAttribute) -> Result<(), String> {
    let kind = match &*attr.name {
        "fastmath" => FlagKind::FastMath,
        "overflow" => FlagKind::Overflow,
        name => return Err(format!("unknown attribute `{name}` in dialect `arith`")),
    };
    let Some(body) = attr.body.as_deref() else {
        return Err(format!("expected '<' after '#arith.{}'", kind.attr_name()));
    };
    kind.parse_body(body).map(|_| ())
}

/// Rewrites the `kind` property of a parsed op to its canonical spelling, adding `none` when
/// it is missing and `default` is set (MLIR's `DefaultValuedAttr`).
pub fn complete_property(state: &mut OperationState, kind: FlagKind, default: bool) {
    let current = stencil_ir::attributes::get_named(&state.properties, kind.property());
    let bits = match current {
        Some(a) => match kind.bits_of(a) {
            Some(bits) => bits,
            // Malformed values stay as written for the verifier to report.
            None => return,
        },
        None if default => 0,
        None => return,
    };
    state.add_property(kind.property(), kind.attr(bits));
}

/// Parses `keyword<flag, …>` if the keyword is next, storing the property.
pub fn parse_optional_flags(p: &mut CustomOpParser<'_, '_>, kind: FlagKind) -> ParseResult<()> {
    if !p.consume_keyword(kind.keyword()) {
        return Ok(());
    }
    p.expect(TokenKind::Less, "'<'")?;
    let mut bits = 0;
    loop {
        let loc = p.location();
        let word = p.parse_keyword()?;
        bits |= kind.lookup(&word).map_err(|msg| Diagnostic::error(loc, msg))?;
        if !p.consume_if(TokenKind::Comma) {
            break;
        }
    }
    p.expect(TokenKind::Greater, "'>'")?;
    p.state().add_property(kind.property(), kind.attr(bits));
    Ok(())
}

/// Prints ` keyword<flags>` for the op's `kind` property. `elide_none`: whether `none` is
/// left out (default-valued properties) or printed (optional ones such as `extf`'s).
/// Returns whether the property is accounted for, so the caller elides it from the
/// attribute dictionary; malformed values are left to the dictionary.
pub fn print_flags(pr: &mut OpPrinter<'_>, op: OpId, kind: FlagKind, elide_none: bool) -> Result<bool, fmt::Error> {
    let Some(attr) = pr.ir().attr(op, kind.property()) else { return Ok(true) };
    let Some(bits) = kind.bits_of(attr) else { return Ok(false) };
    if bits != 0 || !elide_none {
        write!(pr, " {}<{}>", kind.keyword(), kind.body(bits))?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_canonical() {
        let fm = FlagKind::FastMath;
        assert_eq!(fm.body(fm.parse_body("ninf , nnan").unwrap()), "nnan,ninf");
        assert_eq!(fm.body(fm.parse_body("reassoc,nnan,ninf,nsz,arcp,contract,afn").unwrap()), "fast");
        assert_eq!(fm.body(fm.parse_body("none, nnan").unwrap()), "nnan");
        assert_eq!(fm.body(fm.parse_body("fast,nnan").unwrap()), "fast");
        let ov = FlagKind::Overflow;
        assert_eq!(ov.body(ov.parse_body("nuw,nsw").unwrap()), "nsw, nuw");
        assert_eq!(ov.body(0), "none");
        assert!(ov.parse_body("fast").is_err());
        assert!(fm.parse_body("").is_err());
    }
}
