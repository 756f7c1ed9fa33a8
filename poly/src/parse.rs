//! A small parser for affine forms and constraints over named columns, for tests, examples and
//! tools: `2*i + N - 1`, `0 <= i < N, j = i + 1 and t >= 0`.

use crate::affine::AffineForm;
use crate::error::{PolyError, Result};
use crate::space::Space;

fn err(text: &str, message: impl Into<String>) -> PolyError {
    PolyError::Parse { text: text.to_string(), message: message.into() }
}

/// Parses a sum of terms `[+|-] [int [*]] name | int`.
pub(crate) fn parse_form(space: &Space, text: &str) -> Result<AffineForm> {
    let n = space.n_columns();
    let mut form = AffineForm::zero(n);
    let s = text.trim();
    if s.is_empty() {
        return Err(err(text, "empty expression"));
    }
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut first = true;
    while i < bytes.len() {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut sign = 1i64;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            sign = if bytes[i] == b'-' { -1 } else { 1 };
            i += 1;
        } else if !first {
            return Err(err(text, format!("expected `+` or `-` at offset {i}")));
        }
        first = false;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let number = if i > start {
            Some(s[start..i].parse::<i64>().map_err(|_| err(text, "integer literal out of range"))?)
        } else {
            None
        };
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'*' {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
        }
        let nstart = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'\'') {
            if i == nstart && bytes[i].is_ascii_digit() {
                break;
            }
            i += 1;
        }
        let name = &s[nstart..i];
        let coef = number.unwrap_or(1).checked_mul(sign).ok_or_else(|| err(text, "coefficient out of range"))?;
        if name.is_empty() {
            if number.is_none() {
                return Err(err(text, format!("expected a term at offset {start}")));
            }
            let c = form.constant().checked_add(coef).ok_or_else(|| err(text, "constant out of range"))?;
            form.set_constant(c);
        } else {
            let col =
                space.column_of(name).ok_or_else(|| err(text, format!("unknown name `{name}` (space {space})")))?;
            let c = form.coeff(col).checked_add(coef).ok_or_else(|| err(text, "coefficient out of range"))?;
            form.set_coeff(col, c);
        }
    }
    Ok(form)
}

/// Parses a conjunction of (chained) comparisons into equalities `f = 0` and inequalities
/// `f ≥ 0`.
pub(crate) fn parse_constraints(space: &Space, text: &str) -> Result<(Vec<AffineForm>, Vec<AffineForm>)> {
    let mut eqs = Vec::new();
    let mut ineqs = Vec::new();
    let normalized = text.replace(" and ", ",");
    for clause in normalized.split(',').map(str::trim).filter(|c| !c.is_empty()) {
        // Split into operands and operators.
        let mut operands = Vec::new();
        let mut ops = Vec::new();
        let mut rest = clause;
        loop {
            let found = ["<=", ">=", "==", "<", ">", "="]
                .iter()
                .filter_map(|op| rest.find(op).map(|p| (p, *op)))
                .min_by_key(|&(p, op)| (p, std::cmp::Reverse(op.len())));
            match found {
                Some((p, op)) => {
                    operands.push(&rest[..p]);
                    ops.push(op);
                    rest = &rest[p + op.len()..];
                }
                None => {
                    operands.push(rest);
                    break;
                }
            }
        }
        if ops.is_empty() {
            return Err(err(clause, "expected a comparison (`<=`, `<`, `>=`, `>`, `=`)"));
        }
        let forms = operands.iter().map(|o| parse_form(space, o)).collect::<Result<Vec<_>>>()?;
        for (k, op) in ops.iter().enumerate() {
            let (a, b) = (&forms[k], &forms[k + 1]);
            match *op {
                "<=" => ineqs.push(b.checked_sub(a)?),
                "<" => ineqs.push(b.checked_sub(a)?.checked_add_constant(-1)?),
                ">=" => ineqs.push(a.checked_sub(b)?),
                ">" => ineqs.push(a.checked_sub(b)?.checked_add_constant(-1)?),
                _ => eqs.push(a.checked_sub(b)?),
            }
        }
    }
    Ok((eqs, ineqs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_chains() {
        let s = Space::new(["i", "j"], ["N"]);
        assert_eq!(parse_form(&s, "2*i - j + 3N - 4").unwrap(), AffineForm::new(vec![2, -1, 3], -4));
        assert_eq!(parse_form(&s, "-i").unwrap(), AffineForm::new(vec![-1, 0, 0], 0));
        let (eqs, ineqs) = parse_constraints(&s, "0 <= i < N and j = i + 1").unwrap();
        assert_eq!(eqs, vec![AffineForm::new(vec![-1, 1, 0], -1)]);
        assert_eq!(ineqs, vec![AffineForm::new(vec![1, 0, 0], 0), AffineForm::new(vec![-1, 0, 1], -1)]);
    }

    #[test]
    fn errors_name_the_problem() {
        let s = Space::set(["i"]);
        assert!(matches!(parse_form(&s, "i + k"), Err(PolyError::Parse { .. })));
        assert!(matches!(parse_constraints(&s, "i + 1"), Err(PolyError::Parse { .. })));
        assert!(matches!(parse_form(&s, "99999999999999999999 * i"), Err(PolyError::Parse { .. })));
        assert!(matches!(parse_form(&s, "i i"), Err(PolyError::Parse { .. })));
    }
}
