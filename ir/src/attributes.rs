//! Builtin and dialect attributes, printed in MLIR's syntax.

use crate::affine::{AffineMap, IntegerSet};
use crate::types::{FloatKind, Type};
use std::fmt;
use std::sync::Arc;

/// An attribute defined by a dialect, kept as its textual body (`#gpu<dim x>`,
/// `#gpu.address_space<workgroup>`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DialectAttribute {
    /// Dialect namespace.
    pub dialect: Arc<str>,
    /// Attribute name inside the dialect (empty for the `#dialect<…>` form).
    pub name: Arc<str>,
    /// Text between the angle brackets, if any.
    pub body: Option<Arc<str>>,
}

/// An MLIR attribute.
#[derive(Clone, Debug)]
pub enum Attribute {
    /// `42 : i32`, `7 : index`.
    Integer {
        /// The value (wide enough for any 64-bit signed or unsigned value).
        value: i128,
        /// Integer or index type.
        ty: Type,
    },
    /// `1.5 : f32`.
    Float {
        /// The value; for narrower formats it is exactly representable in that format.
        value: f64,
        /// The float format.
        kind: FloatKind,
    },
    /// `true` / `false` (an `i1` integer attribute in MLIR).
    Bool(bool),
    /// `"text"`.
    String(Arc<str>),
    /// `unit`.
    Unit,
    /// `[a, b]`.
    Array(Vec<Attribute>),
    /// `{a = 1, b}` (entries sorted by name, as MLIR's DictionaryAttr keeps them).
    Dictionary(Vec<NamedAttribute>),
    /// A type used as an attribute.
    Type(Type),
    /// `@root::@nested`.
    SymbolRef {
        /// Root symbol.
        root: Arc<str>,
        /// Nested references.
        nested: Vec<Arc<str>>,
    },
    /// `affine_map<…>`.
    AffineMap(Arc<AffineMap>),
    /// `affine_set<…>`.
    IntegerSet(Arc<IntegerSet>),
    /// `array<i32: 1, 2>`.
    DenseArray {
        /// Element type (an integer type).
        element: Type,
        /// Values.
        values: Vec<i64>,
    },
    /// `dense<[1, 2]> : tensor<2xi32>`: integer elements of a statically shaped tensor (the
    /// form of `affine.parallel`'s bound groups). A splat prints as `dense<1>`.
    DenseIntElements {
        /// Element type (an integer type).
        element: Type,
        /// Static tensor shape.
        shape: Vec<i64>,
        /// Elements in row-major order (as many as the shape holds).
        values: Vec<i64>,
    },
    /// `#dialect.name<…>`.
    Dialect(Box<DialectAttribute>),
    /// A memref's `strided<[s0, …], offset: o>` layout (`None`: `?`, dynamic). What linalg and
    /// `memref.subview` produce; parsed and printed so such files can be read, while the
    /// passes and runners that need a dense layout refuse it.
    StridedLayout {
        /// Stride per dimension, in elements.
        strides: Vec<Option<i64>>,
        /// Offset of the first element, in elements (0 when not written).
        offset: Option<i64>,
    },
}

impl PartialEq for Attribute {
    fn eq(&self, other: &Self) -> bool {
        use Attribute::*;
        match (self, other) {
            (Integer { value: a, ty: t }, Integer { value: b, ty: u }) => a == b && t == u,
            // Bitwise equality, so that NaN constants are equal to themselves (as in MLIR).
            (Float { value: a, kind: k }, Float { value: b, kind: l }) => a.to_bits() == b.to_bits() && k == l,
            (Bool(a), Bool(b)) => a == b,
            (String(a), String(b)) => a == b,
            (Unit, Unit) => true,
            (Array(a), Array(b)) => a == b,
            (Dictionary(a), Dictionary(b)) => a == b,
            (Type(a), Type(b)) => a == b,
            (SymbolRef { root: a, nested: n }, SymbolRef { root: b, nested: m }) => a == b && n == m,
            (AffineMap(a), AffineMap(b)) => a == b,
            (IntegerSet(a), IntegerSet(b)) => a == b,
            (DenseArray { element: e, values: v }, DenseArray { element: f, values: w }) => e == f && v == w,
            (
                DenseIntElements { element: e, shape: s, values: v },
                DenseIntElements { element: f, shape: t, values: w },
            ) => e == f && s == t && v == w,
            (Dialect(a), Dialect(b)) => a == b,
            (StridedLayout { strides: a, offset: o }, StridedLayout { strides: b, offset: p }) => a == b && o == p,
            _ => false,
        }
    }
}

impl Eq for Attribute {}

impl std::hash::Hash for Attribute {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Attribute::Integer { value, ty } => (value, ty).hash(state),
            Attribute::Float { value, kind } => (value.to_bits(), kind).hash(state),
            Attribute::Bool(b) => b.hash(state),
            Attribute::String(s) => s.hash(state),
            Attribute::Unit => {}
            Attribute::Array(a) => a.hash(state),
            Attribute::Dictionary(d) => d.hash(state),
            Attribute::Type(t) => t.hash(state),
            Attribute::SymbolRef { root, nested } => (root, nested).hash(state),
            Attribute::AffineMap(m) => m.hash(state),
            Attribute::IntegerSet(s) => s.hash(state),
            Attribute::DenseArray { element, values } => (element, values).hash(state),
            Attribute::DenseIntElements { element, shape, values } => (element, shape, values).hash(state),
            Attribute::Dialect(d) => d.hash(state),
            Attribute::StridedLayout { strides, offset } => (strides, offset).hash(state),
        }
    }
}

/// A `name = value` pair.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NamedAttribute {
    /// The attribute name.
    pub name: Arc<str>,
    /// The value.
    pub value: Attribute,
}

impl NamedAttribute {
    /// Builds a pair.
    pub fn new(name: &str, value: Attribute) -> Self {
        NamedAttribute { name: name.into(), value }
    }
}

/// Inserts or replaces `name` in a name-sorted attribute list.
pub fn set_named(list: &mut Vec<NamedAttribute>, name: &str, value: Attribute) {
    match list.binary_search_by(|a| (*a.name).cmp(name)) {
        Ok(i) => list[i].value = value,
        Err(i) => list.insert(i, NamedAttribute::new(name, value)),
    }
}

/// Looks `name` up in a name-sorted attribute list.
pub fn get_named<'a>(list: &'a [NamedAttribute], name: &str) -> Option<&'a Attribute> {
    list.binary_search_by(|a| (*a.name).cmp(name)).ok().map(|i| &list[i].value)
}

/// Removes `name` from a name-sorted attribute list, returning its value.
pub fn remove_named(list: &mut Vec<NamedAttribute>, name: &str) -> Option<Attribute> {
    list.binary_search_by(|a| (*a.name).cmp(name)).ok().map(|i| list.remove(i).value)
}

impl Attribute {
    /// `value : kind`, rounded to the format (to nearest, overflowing to an infinity) as MLIR
    /// rounds a decimal literal: narrow formats are held as their `f32` values, so that what
    /// is printed parses back to the same attribute.
    pub fn float(value: f64, kind: FloatKind) -> Self {
        let value = match kind {
            FloatKind::F64 => value,
            FloatKind::F32 | FloatKind::F16 | FloatKind::BF16 => f64::from(value as f32),
        };
        Attribute::Float { value, kind }
    }

    /// `value : i64`.
    pub fn i64(value: i64) -> Self {
        Attribute::Integer { value: value.into(), ty: Type::I64 }
    }

    /// `value : index`.
    pub fn index(value: i64) -> Self {
        Attribute::Integer { value: value.into(), ty: Type::Index }
    }

    /// `value : i32`.
    pub fn i32(value: i32) -> Self {
        Attribute::Integer { value: value.into(), ty: Type::I32 }
    }

    /// A string attribute.
    pub fn string(s: &str) -> Self {
        Attribute::String(s.into())
    }

    /// A flat symbol reference `@name`.
    pub fn symbol(name: &str) -> Self {
        Attribute::SymbolRef { root: name.into(), nested: vec![] }
    }

    /// A type attribute.
    pub fn ty(t: Type) -> Self {
        Attribute::Type(t)
    }

    /// An `array<i32: …>` attribute (e.g. `operandSegmentSizes`).
    pub fn dense_i32(values: &[i64]) -> Self {
        Attribute::DenseArray { element: Type::I32, values: values.to_vec() }
    }

    /// The integer value of an integer or bool attribute.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Attribute::Integer { value, .. } => Some(*value),
            Attribute::Bool(b) => Some(i128::from(*b)),
            _ => None,
        }
    }

    /// The integer value of an integer attribute that fits in `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_int().and_then(|v| i64::try_from(v).ok())
    }

    /// The float value of a float attribute.
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Attribute::Float { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The string of a string attribute.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Attribute::String(s) => Some(s),
            _ => None,
        }
    }

    /// The type of a type attribute.
    pub fn as_type(&self) -> Option<&Type> {
        match self {
            Attribute::Type(t) => Some(t),
            _ => None,
        }
    }

    /// The map of an affine map attribute.
    pub fn as_affine_map(&self) -> Option<&AffineMap> {
        match self {
            Attribute::AffineMap(m) => Some(m),
            _ => None,
        }
    }

    /// The set of an integer set attribute.
    pub fn as_integer_set(&self) -> Option<&IntegerSet> {
        match self {
            Attribute::IntegerSet(s) => Some(s),
            _ => None,
        }
    }

    /// The root name of a flat symbol reference.
    pub fn as_flat_symbol(&self) -> Option<&str> {
        match self {
            Attribute::SymbolRef { root, nested } if nested.is_empty() => Some(root),
            _ => None,
        }
    }

    /// A 1-D `dense<…> : tensor<Nxi32>` attribute.
    pub fn dense_i32_elements(values: &[i64]) -> Self {
        Attribute::DenseIntElements { element: Type::I32, shape: vec![values.len() as i64], values: values.to_vec() }
    }

    /// The elements of a dense integer elements attribute.
    pub fn as_dense_int_elements(&self) -> Option<&[i64]> {
        match self {
            Attribute::DenseIntElements { values, .. } => Some(values),
            _ => None,
        }
    }

    /// The values of a dense integer array attribute.
    pub fn as_dense_array(&self) -> Option<&[i64]> {
        match self {
            Attribute::DenseArray { values, .. } => Some(values),
            _ => None,
        }
    }

    /// The dialect payload of a dialect attribute.
    pub fn as_dialect(&self) -> Option<&DialectAttribute> {
        match self {
            Attribute::Dialect(d) => Some(d),
            _ => None,
        }
    }

    /// The type of a typed attribute (integer, float, bool), as MLIR's `TypedAttr`.
    pub fn typed_type(&self) -> Option<Type> {
        match self {
            Attribute::Integer { ty, .. } => Some(ty.clone()),
            Attribute::Float { kind, .. } => Some(Type::Float(*kind)),
            Attribute::Bool(_) => Some(Type::I1),
            _ => None,
        }
    }

    /// Formats as MLIR does inside a memref type, where integer memory spaces drop `: i64`.
    pub fn display_without_integer_type(&self) -> impl fmt::Display + '_ {
        struct NoType<'a>(&'a Attribute);
        impl fmt::Display for NoType<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.0 {
                    Attribute::Integer { value, .. } => write!(f, "{value}"),
                    other => write!(f, "{other}"),
                }
            }
        }
        NoType(self)
    }
}

/// Whether `s` can be printed without quotes as a bare identifier.
pub fn is_bare_identifier(s: &str) -> bool {
    let mut chars = s.bytes();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == b'_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
}

/// Prints a symbol name as `@name` or `@"quoted name"`.
pub struct SymbolName<'a>(pub &'a str);

impl fmt::Display for SymbolName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if is_bare_identifier(self.0) {
            write!(f, "@{}", self.0)
        } else {
            write!(f, "@{}", crate::printer::QuotedString(self.0))
        }
    }
}

pub use crate::float_format::format_float;

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Attribute::Integer { value, ty } => write!(f, "{value} : {ty}"),
            Attribute::Float { value, kind } => write!(f, "{} : {}", format_float(*value, *kind), kind.keyword()),
            Attribute::Bool(b) => write!(f, "{b}"),
            Attribute::String(s) => write!(f, "{}", crate::printer::QuotedString(s)),
            Attribute::Unit => f.write_str("unit"),
            Attribute::Array(items) => {
                // Inside arrays MLIR elides the type of `i64` integers (`[2, 1]`).
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match item {
                        Attribute::Integer { value, ty: Type::Integer(64) } => write!(f, "{value}")?,
                        other => write!(f, "{other}")?,
                    }
                }
                f.write_str("]")
            }
            Attribute::Dictionary(entries) => {
                f.write_str("{")?;
                write_named_list(f, entries)?;
                f.write_str("}")
            }
            Attribute::Type(t) => write!(f, "{t}"),
            Attribute::SymbolRef { root, nested } => {
                write!(f, "{}", SymbolName(root))?;
                for n in nested {
                    write!(f, "::{}", SymbolName(n))?;
                }
                Ok(())
            }
            Attribute::AffineMap(m) => write!(f, "affine_map<{m}>"),
            Attribute::IntegerSet(s) => write!(f, "affine_set<{s}>"),
            Attribute::DenseIntElements { element, shape, values } => {
                f.write_str("dense<")?;
                match values.as_slice() {
                    [] => {}
                    [first, rest @ ..] if shape.is_empty() || rest.iter().all(|v| v == first) => write!(f, "{first}")?,
                    _ => {
                        f.write_str("[")?;
                        crate::types::write_list(f, values)?;
                        f.write_str("]")?;
                    }
                }
                f.write_str("> : tensor<")?;
                for d in shape {
                    write!(f, "{d}x")?;
                }
                write!(f, "{element}>")
            }
            Attribute::DenseArray { element, values } => {
                write!(f, "array<{element}")?;
                if !values.is_empty() {
                    f.write_str(": ")?;
                    crate::types::write_list(f, values)?;
                }
                f.write_str(">")
            }
            Attribute::Dialect(d) => {
                write!(f, "#{}", d.dialect)?;
                if !d.name.is_empty() {
                    write!(f, ".{}", d.name)?;
                }
                if let Some(body) = &d.body {
                    write!(f, "<{body}>")?;
                }
                Ok(())
            }
            Attribute::StridedLayout { strides, offset } => {
                let one = |v: &Option<i64>| v.map_or_else(|| "?".to_string(), |x| x.to_string());
                write!(f, "strided<[{}]", strides.iter().map(one).collect::<Vec<_>>().join(", "))?;
                // MLIR leaves a zero offset out.
                if *offset != Some(0) {
                    write!(f, ", offset: {}", one(offset))?;
                }
                f.write_str(">")
            }
        }
    }
}

/// Writes `a = 1 : i64, b` (unit attributes as a bare name), as MLIR prints dictionaries.
pub fn write_named_list(f: &mut impl fmt::Write, entries: &[NamedAttribute]) -> fmt::Result {
    for (i, entry) in entries.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        if is_bare_identifier(&entry.name) {
            f.write_str(&entry.name)?;
        } else {
            write!(f, "{}", crate::printer::QuotedString(&entry.name))?;
        }
        if entry.value != Attribute::Unit {
            write!(f, " = {}", entry.value)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_mlir() {
        assert_eq!(format_float(1.5, FloatKind::F32), "1.500000e+00");
        assert_eq!(format_float(1e-10, FloatKind::F64), "1.000000e-10");
        assert_eq!(format_float(1.2345678901, FloatKind::F64), "1.2345678900999999");
        assert_eq!(format_float(f64::INFINITY, FloatKind::F64), "0x7FF0000000000000");
        assert_eq!(format_float(0.1f32 as f64, FloatKind::F32), "1.000000e-01");
    }
}
