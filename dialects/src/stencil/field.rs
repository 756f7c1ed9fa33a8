//! `!stencil.field<[N, M + 2] x f64>`: a field's rank, element type and shape, each extent an
//! affine expression in the program's parameters.

use std::collections::BTreeMap;
use std::fmt;
use stencil_ir::types::{DialectType, FloatKind};
use stencil_ir::Type;

/// An affine expression in named parameters: `constant + Σ coeff·name`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ParamExpr {
    /// Constant term.
    pub constant: i64,
    /// Coefficient per parameter name (no zero coefficients).
    pub terms: BTreeMap<String, i64>,
}

impl ParamExpr {
    /// A constant.
    pub fn constant(c: i64) -> Self {
        ParamExpr { constant: c, terms: BTreeMap::new() }
    }

    /// Value for the given parameter values; `None` on an unknown name or overflow.
    pub fn eval(&self, value_of: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
        let mut acc = self.constant;
        for (name, c) in &self.terms {
            acc = acc.checked_add(c.checked_mul(value_of(name)?)?)?;
        }
        Some(acc)
    }

    fn add_term(&mut self, name: &str, coeff: i64) -> Option<()> {
        let entry = self.terms.entry(name.to_string()).or_insert(0);
        *entry = entry.checked_add(coeff)?;
        if *entry == 0 {
            self.terms.remove(name);
        }
        Some(())
    }
}

impl fmt::Display for ParamExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (name, &c) in &self.terms {
            let (sign, mag) = if c < 0 { ("-", c.unsigned_abs()) } else { ("+", c.unsigned_abs()) };
            match (first, sign) {
                (true, "-") => f.write_str("-")?,
                (true, _) => {}
                (false, s) => write!(f, " {s} ")?,
            }
            if mag == 1 {
                f.write_str(name)?;
            } else {
                write!(f, "{mag} * {name}")?;
            }
            first = false;
        }
        if first {
            return write!(f, "{}", self.constant);
        }
        match self.constant {
            0 => Ok(()),
            c if c < 0 => write!(f, " - {}", c.unsigned_abs()),
            c => write!(f, " + {c}"),
        }
    }
}

/// The structured content of a `!stencil.field` type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldType {
    /// Extent of each dimension.
    pub shape: Vec<ParamExpr>,
    /// Element type (f32 or f64).
    pub element: FloatKind,
}

impl FieldType {
    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The element type as an IR type.
    pub fn element_type(&self) -> Type {
        Type::Float(self.element)
    }

    /// The IR type for this field.
    pub fn to_type(&self) -> Type {
        Type::Dialect(Box::new(DialectType {
            dialect: "stencil".into(),
            name: "field".into(),
            body: Some(self.body().into()),
        }))
    }

    /// The type's body as written between `<` and `>`: `[N, M + 2] x f64`.
    pub fn body(&self) -> String {
        let dims: Vec<String> = self.shape.iter().map(ToString::to_string).collect();
        format!("[{}] x {}", dims.join(", "), self.element.keyword())
    }

    /// Reads the structured form of a type, if it is a `!stencil.field`.
    pub fn from_type(t: &Type) -> Option<FieldType> {
        let d = t.as_dialect()?;
        if &*d.dialect != "stencil" || &*d.name != "field" {
            return None;
        }
        parse_field_body(d.body.as_deref()?).ok()
    }
}

/// Checks a dialect type of the `stencil` dialect at parse time and returns its canonical
/// spelling.
pub fn check_stencil_type(t: &DialectType) -> Result<DialectType, String> {
    match &*t.name {
        "field" => {
            let body = t
                .body
                .as_deref()
                .ok_or("!stencil.field needs a shape and element type: !stencil.field<[N, M] x f64>")?;
            let field = parse_field_body(body)?;
            Ok(DialectType { body: Some(field.body().into()), ..t.clone() })
        }
        other => Err(format!("unknown stencil type '!stencil.{other}' (the stencil dialect has only !stencil.field)")),
    }
}

/// Parses `[N, M + 2] x f64`.
pub fn parse_field_body(body: &str) -> Result<FieldType, String> {
    let usage = "expected '[extents] x f32|f64', e.g. !stencil.field<[N, M + 2] x f64>";
    let body = body.trim();
    let rest = body.strip_prefix('[').ok_or(usage)?;
    let close = rest.find(']').ok_or(usage)?;
    let dims_text = &rest[..close];
    let after = rest[close + 1..].trim();
    let elem = after.strip_prefix('x').ok_or(usage)?.trim();
    let element = match elem {
        "f32" => FloatKind::F32,
        "f64" => FloatKind::F64,
        other => return Err(format!("field element type must be f32 or f64, found '{other}'")),
    };
    if dims_text.trim().is_empty() {
        return Err("a field needs at least one dimension".to_string());
    }
    let shape = dims_text.split(',').map(parse_param_expr).collect::<Result<Vec<_>, _>>()?;
    if shape.len() > 3 {
        return Err(format!("fields have 1 to 3 dimensions, found {}", shape.len()));
    }
    Ok(FieldType { shape, element })
}

/// Parses a linear expression over parameter names: `N`, `2 * N - 1`, `N + M + 2`.
pub fn parse_param_expr(text: &str) -> Result<ParamExpr, String> {
    let err = || {
        format!("invalid extent '{}': expected a sum of integers and parameter names with integer factors, e.g. 'N + 2' or '2 * N'", text.trim())
    };
    let mut expr = ParamExpr::default();
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.is_empty() {
        return Err(err());
    }
    // Split into signed terms.
    let mut terms = vec![];
    let mut current = String::new();
    for (i, c) in compact.char_indices() {
        if (c == '+' || c == '-') && i > 0 && !compact[..i].ends_with('*') {
            terms.push(std::mem::take(&mut current));
        }
        current.push(c);
    }
    terms.push(current);
    let overflow = || format!("extent '{}' overflows: its coefficients and constant must fit in 64 bits", text.trim());
    for term in terms {
        // The factors multiply in i128, so that `-9223372036854775808` (how i64::MIN prints:
        // a minus sign and a magnitude that alone is not an i64) reads back exactly.
        let (sign, body) = match term.strip_prefix('-') {
            Some(b) => (-1i128, b),
            None => (1, term.strip_prefix('+').unwrap_or(&term)),
        };
        let factors: Vec<&str> = body.split('*').collect();
        let mut coeff = sign;
        let mut name: Option<&str> = None;
        for f in factors {
            let digits = f.strip_prefix(['-', '+']).unwrap_or(f);
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                // All digits: a failed parse can only mean more digits than even i128 holds.
                let v = f.parse::<i128>().map_err(|_| overflow())?;
                coeff = coeff.checked_mul(v).ok_or_else(overflow)?;
            } else if f.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                if name.replace(f).is_some() {
                    return Err(format!("non-affine extent '{}': products of parameters are not affine", text.trim()));
                }
            } else {
                return Err(err());
            }
        }
        let coeff = i64::try_from(coeff).map_err(|_| overflow())?;
        match name {
            Some(n) => expr.add_term(n, coeff).ok_or_else(overflow)?,
            None => expr.constant = expr.constant.checked_add(coeff).ok_or_else(overflow)?,
        }
    }
    Ok(expr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_field_bodies() {
        let f = parse_field_body("[N, 2*M - 1 + N, 4] x f32").unwrap();
        assert_eq!(f.rank(), 3);
        assert_eq!(f.shape[1].to_string(), "2 * M + N - 1");
        assert_eq!(f.to_type().to_string(), "!stencil.field<[N, 2 * M + N - 1, 4] x f32>");
        assert_eq!(parse_field_body(&f.body()).unwrap(), f);
        assert!(parse_field_body("[N*M] x f64").unwrap_err().contains("non-affine"));
        assert!(parse_field_body("[N] x i32").unwrap_err().contains("f32 or f64"));
        assert!(parse_field_body("[] x f64").is_err());
        assert_eq!(parse_param_expr("-N + 3").unwrap().to_string(), "-N + 3");
    }

    #[test]
    fn i64_min_round_trips_and_overflow_is_an_error() {
        for text in [
            "N - 9223372036854775807 - 1",
            "-9223372036854775808 * N + M",
            "-9223372036854775808",
            "M - 9223372036854775808 * N",
        ] {
            let e = parse_param_expr(text).unwrap();
            assert_eq!(parse_param_expr(&e.to_string()).unwrap(), e, "{text} printed as {e}");
        }
        assert_eq!(parse_param_expr("-9223372036854775808").unwrap().constant, i64::MIN);
        for text in [
            "N + 9223372036854775807 + 1",
            "9223372036854775808",
            "4294967296 * 4294967296 * N",
            "N * 9223372036854775807 + N",
        ] {
            let e = parse_param_expr(text).unwrap_err();
            assert!(e.contains("overflows"), "{text}: {e}");
        }
        // A literal that is not a number at all is still the syntax error, not an overflow.
        assert!(parse_param_expr("N + 1x").unwrap_err().contains("invalid extent"));
    }
}
