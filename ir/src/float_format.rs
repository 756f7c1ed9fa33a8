//! Decimal printing of float attributes, digit for digit as MLIR 22 prints them.
//!
//! MLIR's `printFloatValue` first tries LLVM's `APFloat::toString(6, 0, false)` (six digits
//! after the point, always scientific: `1.500000e+00`) and keeps it when it parses back to the
//! same bits; otherwise it uses `APFloat::toString()` with its defaults (just enough digits to
//! round-trip, plain notation for moderate exponents, uppercase `E` otherwise:
//! `0.30000000000000004`, `4.2949673E+9`), and falls back to hexadecimal bits when that form
//! has no '.' (`123456789.0` prints as `0x419D6F3454000000`). Both forms are reproduced here
//! by porting `toStringImpl` from `llvm/lib/Support/APFloat.cpp`, including its quirks (it
//! truncates before it rounds half-up), with a small unsigned big integer in place of `APInt`.

use crate::types::FloatKind;

/// Prints a finite or non-finite value of format `kind` as MLIR does (without the `: type`).
pub fn format_float(value: f64, kind: FloatKind) -> String {
    if value.is_finite() {
        let scientific = apfloat_to_string(value, kind, 6, 0, false);
        if parses_back_to(&scientific, value, kind) {
            return scientific;
        }
        let default = apfloat_to_string(value, kind, 0, 3, true);
        if default.contains('.') {
            return default;
        }
    }
    hex_bits(value, kind)
}

/// The `0x…` form MLIR uses for NaN, infinities and values whose decimal form has no '.'.
fn hex_bits(value: f64, kind: FloatKind) -> String {
    match kind {
        FloatKind::F64 => format!("0x{:016X}", value.to_bits()),
        // Narrow formats are stored rounded to f32 and printed through f32 bits; the parser
        // reads such bits back the same way.
        FloatKind::F32 | FloatKind::F16 | FloatKind::BF16 => format!("0x{:08X}", (value as f32).to_bits()),
    }
}

/// Whether `text` parses (correctly rounded, as `APFloat(semantics, text)`) to `value`.
fn parses_back_to(text: &str, value: f64, kind: FloatKind) -> bool {
    match kind {
        FloatKind::F64 => text.parse::<f64>().is_ok_and(|p| p.to_bits() == value.to_bits()),
        _ => text.parse::<f32>().is_ok_and(|p| p.to_bits() == (value as f32).to_bits()),
    }
}

/// Bits of significand precision of each format (LLVM's `semantics->precision`).
fn precision_bits(kind: FloatKind) -> u32 {
    match kind {
        FloatKind::F16 => 11,
        FloatKind::BF16 => 8,
        FloatKind::F32 => 24,
        FloatKind::F64 => 53,
    }
}

/// `APFloat::toString(Str, FormatPrecision, FormatMaxPadding, TruncateZero)` for a finite
/// value.
fn apfloat_to_string(
    value: f64,
    kind: FloatKind,
    format_precision: u32,
    format_max_padding: u32,
    truncate_zero: bool,
) -> String {
    let mut out = String::new();
    if value.is_sign_negative() {
        out.push('-');
    }
    if value == 0.0 {
        if format_max_padding == 0 {
            if truncate_zero {
                out.push_str("0.0E+0");
            } else {
                out.push_str("0.0");
                for _ in 1..format_precision {
                    out.push('0');
                }
                out.push_str("e+00");
            }
        } else {
            out.push('0');
        }
        return out;
    }
    let (significand, exp) = decompose(value, kind);
    to_string_impl(
        &mut out,
        significand,
        exp,
        precision_bits(kind),
        format_precision,
        format_max_padding,
        truncate_zero,
    );
    out
}

/// `value == significand * 2^exp` with an integer significand, as `IEEEFloat::toString`
/// decomposes it (narrow formats are held as f32 values).
fn decompose(value: f64, kind: FloatKind) -> (u64, i32) {
    if kind == FloatKind::F64 {
        let bits = value.to_bits();
        let field = ((bits >> 52) & 0x7ff) as i32;
        let mantissa = bits & ((1 << 52) - 1);
        if field == 0 {
            (mantissa, -1074)
        } else {
            (mantissa | (1 << 52), field - 1075)
        }
    } else {
        let bits = (value as f32).to_bits();
        let field = ((bits >> 23) & 0xff) as i32;
        let mantissa = u64::from(bits & ((1 << 23) - 1));
        if field == 0 {
            (mantissa, -149)
        } else {
            (mantissa | (1 << 23), field - 150)
        }
    }
}

fn to_string_impl(
    out: &mut String,
    significand: u64,
    mut exp: i32,
    semantics_precision: u32,
    format_precision: u32,
    format_max_padding: u32,
    truncate_zero: bool,
) {
    // Enough digits to round-trip (Steele & White), as LLVM chooses when asked for 0.
    let format_precision = if format_precision == 0 { 2 + semantics_precision * 59 / 196 } else { format_precision };

    // Ignore trailing binary zeros, then turn 2^exp into 10^exp: N * 2^-e == N * 5^e * 10^-e.
    let tz = significand.trailing_zeros();
    exp += tz as i32;
    let mut n = BigUint::from_u64(significand >> tz);
    if exp > 0 {
        n.shl(exp.unsigned_abs());
        exp = 0;
    } else {
        for _ in 0..exp.unsigned_abs() {
            n.mul_small(5);
        }
    }

    // AdjustToPrecision(APInt): drop decimal digits that cannot matter (by truncation).
    let bits = n.bit_len();
    let bits_required = (format_precision * 196).div_ceil(59);
    if bits > bits_required {
        let tens_removable = (bits - bits_required) * 59 / 196;
        if tens_removable > 0 {
            exp += tens_removable as i32;
            for _ in 0..tens_removable {
                n.divrem_small(10);
            }
        }
    }

    // Decimal digits, least significant first, without trailing zeros.
    let mut buffer: Vec<u8> = vec![];
    let mut in_trail = true;
    while !n.is_zero() {
        let d = n.divrem_small(10) as u8;
        if in_trail && d == 0 {
            exp += 1;
        } else {
            buffer.push(b'0' + d);
            in_trail = false;
        }
    }

    adjust_buffer_to_precision(&mut buffer, &mut exp, format_precision as usize);
    let n_digits = buffer.len();

    let format_scientific = if format_max_padding == 0 {
        true
    } else if exp >= 0 {
        // 765e3 --> 765000, unless that looks more precise than it is.
        exp as u32 > format_max_padding || n_digits as u32 + exp as u32 > format_precision
    } else {
        let msd = exp + n_digits as i32 - 1;
        msd < 0 && msd.unsigned_abs() > format_max_padding
    };

    let digit = |i: usize| char::from(buffer[i]);
    if format_scientific {
        exp += n_digits as i32 - 1;
        out.push(digit(n_digits - 1));
        out.push('.');
        if n_digits == 1 && truncate_zero {
            out.push('0');
        } else {
            for i in 1..n_digits {
                out.push(digit(n_digits - 1 - i));
            }
        }
        if !truncate_zero && format_precision as usize + 1 > n_digits {
            for _ in 0..(format_precision as usize + 1 - n_digits) {
                out.push('0');
            }
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if exp >= 0 { '+' } else { '-' });
        let magnitude = exp.unsigned_abs().to_string();
        if !truncate_zero && magnitude.len() < 2 {
            out.push('0');
        }
        out.push_str(&magnitude);
        return;
    }

    if exp >= 0 {
        for i in 0..n_digits {
            out.push(digit(n_digits - 1 - i));
        }
        for _ in 0..exp {
            out.push('0');
        }
        return;
    }

    let n_whole = exp + n_digits as i32;
    let mut i = 0usize;
    if n_whole > 0 {
        while i < n_whole as usize {
            out.push(digit(n_digits - 1 - i));
            i += 1;
        }
        out.push('.');
    } else {
        out.push_str("0.");
        for _ in 0..n_whole.unsigned_abs() {
            out.push('0');
        }
    }
    while i < n_digits {
        out.push(digit(n_digits - 1 - i));
        i += 1;
    }
}

/// AdjustToPrecision(buffer): keeps `precision` significant digits, rounding half up on the
/// first dropped digit and dropping the trailing zeros that rounding leaves.
fn adjust_buffer_to_precision(buffer: &mut Vec<u8>, exp: &mut i32, precision: usize) {
    let n = buffer.len();
    if n <= precision {
        return;
    }
    let mut first_significant = n - precision;
    if buffer[first_significant - 1] < b'5' {
        while first_significant < n && buffer[first_significant] == b'0' {
            first_significant += 1;
        }
        *exp += first_significant as i32;
        buffer.drain(..first_significant);
        return;
    }
    // Add with carry; digits that carry out become trailing zeros and are dropped.
    let mut carried = 0;
    for digit in &mut buffer[first_significant..] {
        if *digit == b'9' {
            carried += 1;
        } else {
            *digit += 1;
            break;
        }
    }
    first_significant += carried;
    if first_significant == n {
        *exp += first_significant as i32;
        buffer.clear();
        buffer.push(b'1');
        return;
    }
    *exp += first_significant as i32;
    buffer.drain(..first_significant);
}

/// Just the unsigned big-integer arithmetic the port needs (little-endian 32-bit limbs).
struct BigUint {
    limbs: Vec<u32>,
}

impl BigUint {
    fn from_u64(v: u64) -> Self {
        let mut b = BigUint { limbs: vec![v as u32, (v >> 32) as u32] };
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    fn bit_len(&self) -> u32 {
        match self.limbs.last() {
            Some(&top) => (self.limbs.len() as u32 - 1) * 32 + (32 - top.leading_zeros()),
            None => 0,
        }
    }

    fn shl(&mut self, bits: u32) {
        let (words, rest) = ((bits / 32) as usize, bits % 32);
        if rest > 0 {
            let mut carry = 0u32;
            for limb in &mut self.limbs {
                let next = *limb >> (32 - rest);
                *limb = (*limb << rest) | carry;
                carry = next;
            }
            if carry != 0 {
                self.limbs.push(carry);
            }
        }
        self.limbs.splice(0..0, std::iter::repeat_n(0, words));
        self.trim();
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.limbs {
            let p = u64::from(*limb) * u64::from(m) + carry;
            *limb = p as u32;
            carry = p >> 32;
        }
        if carry != 0 {
            self.limbs.push(carry as u32);
        }
    }

    /// Divides in place and returns the remainder.
    fn divrem_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.limbs.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / u64::from(d)) as u32;
            rem = cur % u64::from(d);
        }
        self.trim();
        rem as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected strings are mlir-opt 22's output for the same attributes.
    #[test]
    fn matches_mlir_opt() {
        let cases: &[(f64, FloatKind, &str)] = &[
            (1.5, FloatKind::F32, "1.500000e+00"),
            (0.0, FloatKind::F32, "0.000000e+00"),
            (-0.0, FloatKind::F32, "-0.000000e+00"),
            (1e-10, FloatKind::F64, "1.000000e-10"),
            (f64::from(0.1f32), FloatKind::F32, "1.000000e-01"),
            (1.2345678901, FloatKind::F64, "1.2345678900999999"),
            (f64::from(4294967295.0f32), FloatKind::F32, "4.2949673E+9"),
            (0.30000000000000004, FloatKind::F64, "0.30000000000000004"),
            (123456789.0, FloatKind::F64, "0x419D6F3454000000"),
            (0.0001234567891, FloatKind::F64, "1.234567891E-4"),
            (f64::from(12345.678f32), FloatKind::F32, "12345.6777"),
            (1.0e-20, FloatKind::F64, "9.9999999999999995E-21"),
            (1.23456789e20, FloatKind::F64, "1.23456789E+20"),
            (f64::from(3.0e-45f32), FloatKind::F32, "2.802600e-45"),
            (16777216.0, FloatKind::F32, "0x4B800000"),
            (f64::from(0.7f32), FloatKind::F32, "0.699999988"),
            (f64::from(1.234568f32), FloatKind::F32, "1.234568"),
            (f64::from(f32::MIN_POSITIVE), FloatKind::F32, "1.17549435E-38"),
            (f64::from_bits(1), FloatKind::F64, "4.940660e-324"),
            (f64::MAX, FloatKind::F64, "1.7976931348623157E+308"),
            (f64::from(999999.94f32), FloatKind::F32, "999999.937"),
            (f64::INFINITY, FloatKind::F64, "0x7FF0000000000000"),
            (f64::NAN, FloatKind::F32, "0x7FC00000"),
        ];
        for &(value, kind, expected) in cases {
            assert_eq!(format_float(value, kind), expected, "{value:e} as {kind:?}");
        }
    }
}
