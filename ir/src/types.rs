//! Builtin and dialect types, printed in MLIR's syntax.

use crate::attributes::Attribute;
use std::fmt;
use std::sync::Arc;

/// A floating-point format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatKind {
    /// IEEE half precision.
    F16,
    /// bfloat16.
    BF16,
    /// IEEE single precision.
    F32,
    /// IEEE double precision.
    F64,
}

impl FloatKind {
    /// Bit width of the format.
    pub fn width(self) -> u32 {
        match self {
            FloatKind::F16 | FloatKind::BF16 => 16,
            FloatKind::F32 => 32,
            FloatKind::F64 => 64,
        }
    }

    /// MLIR's keyword for the format.
    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::F16 => "f16",
            FloatKind::BF16 => "bf16",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
        }
    }
}

/// One dimension of a shaped type: a static size or `?`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A size known at compile time.
    Static(i64),
    /// A size known only at run time (`?`).
    Dynamic,
}

/// A `memref<…>` type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemRefType {
    /// Dimensions; `None` for an unranked memref (`memref<*xf32>`).
    pub shape: Option<Vec<Dim>>,
    /// Element type.
    pub element: Type,
    /// Layout attribute (affine map or `strided<…>`), `None` for the identity layout.
    pub layout: Option<Attribute>,
    /// Memory space (e.g. `3` or `#gpu.address_space<workgroup>`), `None` for the default.
    pub memory_space: Option<Attribute>,
}

impl MemRefType {
    /// A ranked memref with identity layout in the default memory space.
    pub fn new(shape: Vec<Dim>, element: Type) -> Self {
        MemRefType { shape: Some(shape), element, layout: None, memory_space: None }
    }

    /// The rank, `None` when unranked.
    pub fn rank(&self) -> Option<usize> {
        self.shape.as_ref().map(Vec::len)
    }

    /// Number of dynamic dimensions.
    pub fn num_dynamic_dims(&self) -> usize {
        self.shape.as_ref().map_or(0, |s| s.iter().filter(|d| **d == Dim::Dynamic).count())
    }
}

/// A type defined by a dialect, kept as its textual body (as MLIR's opaque types are).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DialectType {
    /// Dialect namespace, e.g. `stencil`.
    pub dialect: Arc<str>,
    /// Type name inside the dialect, e.g. `field` (empty for the `!dialect<…>` form).
    pub name: Arc<str>,
    /// Text between the angle brackets, if any.
    pub body: Option<Arc<str>>,
}

/// An MLIR type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `index`.
    Index,
    /// Signless integer `iN`.
    Integer(u32),
    /// Floating point.
    Float(FloatKind),
    /// `none`.
    None,
    /// `memref<…>`.
    MemRef(Box<MemRefType>),
    /// `(inputs) -> results`.
    Function(Box<FunctionType>),
    /// `!dialect.name<…>`.
    Dialect(Box<DialectType>),
}

/// A function type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct FunctionType {
    /// Argument types.
    pub inputs: Vec<Type>,
    /// Result types.
    pub results: Vec<Type>,
}

impl Type {
    /// `i1`.
    pub const I1: Type = Type::Integer(1);
    /// `i32`.
    pub const I32: Type = Type::Integer(32);
    /// `i64`.
    pub const I64: Type = Type::Integer(64);
    /// `f32`.
    pub const F32: Type = Type::Float(FloatKind::F32);
    /// `f64`.
    pub const F64: Type = Type::Float(FloatKind::F64);

    /// A memref type.
    pub fn memref(m: MemRefType) -> Type {
        Type::MemRef(Box::new(m))
    }

    /// A function type.
    pub fn function(inputs: Vec<Type>, results: Vec<Type>) -> Type {
        Type::Function(Box::new(FunctionType { inputs, results }))
    }

    /// Whether this is `iN` (any width).
    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Integer(_))
    }

    /// Whether this is `iN` or `index`: the types arith's integer ops accept.
    pub fn is_integer_like(&self) -> bool {
        matches!(self, Type::Integer(_) | Type::Index)
    }

    /// Whether this is a floating-point type.
    pub fn is_float(&self) -> bool {
        matches!(self, Type::Float(_))
    }

    /// Whether this is `index`.
    pub fn is_index(&self) -> bool {
        matches!(self, Type::Index)
    }

    /// The memref payload, if this is a memref.
    pub fn as_memref(&self) -> Option<&MemRefType> {
        match self {
            Type::MemRef(m) => Some(m),
            _ => None,
        }
    }

    /// The function payload, if this is a function type.
    pub fn as_function(&self) -> Option<&FunctionType> {
        match self {
            Type::Function(f) => Some(f),
            _ => None,
        }
    }

    /// The dialect payload, if this is a dialect type.
    pub fn as_dialect(&self) -> Option<&DialectType> {
        match self {
            Type::Dialect(d) => Some(d),
            _ => None,
        }
    }

    /// Bit width of integer and float types.
    pub fn bit_width(&self) -> Option<u32> {
        match self {
            Type::Integer(w) => Some(*w),
            Type::Float(k) => Some(k.width()),
            _ => None,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Index => f.write_str("index"),
            Type::Integer(w) => write!(f, "i{w}"),
            Type::Float(k) => f.write_str(k.keyword()),
            Type::None => f.write_str("none"),
            Type::MemRef(m) => {
                f.write_str("memref<")?;
                match &m.shape {
                    None => f.write_str("*x")?,
                    Some(shape) => {
                        for d in shape {
                            match d {
                                Dim::Static(n) => write!(f, "{n}x")?,
                                Dim::Dynamic => f.write_str("?x")?,
                            }
                        }
                    }
                }
                write!(f, "{}", m.element)?;
                if let Some(layout) = &m.layout {
                    write!(f, ", {layout}")?;
                }
                if let Some(space) = &m.memory_space {
                    write!(f, ", {}", space.display_without_integer_type())?;
                }
                f.write_str(">")
            }
            Type::Function(func) => {
                f.write_str("(")?;
                write_list(f, &func.inputs)?;
                f.write_str(") -> ")?;
                write_result_types(f, &func.results)
            }
            Type::Dialect(d) => {
                write!(f, "!{}", d.dialect)?;
                if !d.name.is_empty() {
                    write!(f, ".{}", d.name)?;
                }
                if let Some(body) = &d.body {
                    write!(f, "<{body}>")?;
                }
                Ok(())
            }
        }
    }
}

/// Writes `a, b, c`.
pub fn write_list<T: fmt::Display>(f: &mut impl fmt::Write, items: &[T]) -> fmt::Result {
    for (i, t) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{t}")?;
    }
    Ok(())
}

/// Writes a result type list as MLIR does: a single non-function type bare, otherwise in
/// parentheses.
pub fn write_result_types(f: &mut impl fmt::Write, results: &[Type]) -> fmt::Result {
    match results {
        [single] if !matches!(single, Type::Function(_)) => write!(f, "{single}"),
        _ => {
            f.write_str("(")?;
            write_list(f, results)?;
            f.write_str(")")
        }
    }
}
