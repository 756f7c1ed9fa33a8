//! Attributes and types of the gpu dialect, and the `#nvvm.target` attribute.
//!
//! All are opaque dialect attributes/types (their body text is kept); the check functions
//! here validate the bodies when the parser meets them.

use stencil_ir::attributes::DialectAttribute;
use stencil_ir::types::DialectType;
use stencil_ir::{Attribute, Type};

/// A launch dimension, `#gpu<dim x>`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dimension {
    /// `x`.
    X,
    /// `y`.
    Y,
    /// `z`.
    Z,
}

impl Dimension {
    /// All dimensions, in order.
    pub const ALL: [Dimension; 3] = [Dimension::X, Dimension::Y, Dimension::Z];

    /// The keyword (`x`, `y`, `z`).
    pub fn keyword(self) -> &'static str {
        match self {
            Dimension::X => "x",
            Dimension::Y => "y",
            Dimension::Z => "z",
        }
    }

    pub(super) fn from_keyword(kw: &str) -> Option<Self> {
        Dimension::ALL.into_iter().find(|d| d.keyword() == kw)
    }

    /// The `#gpu<dim x>` attribute.
    pub fn attr(self) -> Attribute {
        gpu_attr("", &format!("dim {}", self.keyword()))
    }

    /// Reads a `#gpu<dim x>` attribute.
    pub fn from_attr(attr: &Attribute) -> Option<Self> {
        let d = attr.as_dialect().filter(|d| &*d.dialect == "gpu" && d.name.is_empty())?;
        parse_dim_body(d.body.as_deref()?)
    }
}

fn parse_dim_body(body: &str) -> Option<Dimension> {
    let mut words = body.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some("dim"), Some(kw), None) => Dimension::from_keyword(kw),
        _ => None,
    }
}

/// A GPU memory space, `#gpu.address_space<workgroup>`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    /// Device memory visible to all work items.
    Global,
    /// Memory shared by the work items of a workgroup (CUDA shared memory).
    Workgroup,
    /// Memory private to one work item.
    Private,
}

impl AddressSpace {
    /// The keyword (`global`, `workgroup`, `private`).
    pub fn keyword(self) -> &'static str {
        match self {
            AddressSpace::Global => "global",
            AddressSpace::Workgroup => "workgroup",
            AddressSpace::Private => "private",
        }
    }

    fn from_keyword(kw: &str) -> Option<Self> {
        [AddressSpace::Global, AddressSpace::Workgroup, AddressSpace::Private].into_iter().find(|a| a.keyword() == kw)
    }

    /// The `#gpu.address_space<…>` attribute (a memref memory space).
    pub fn attr(self) -> Attribute {
        gpu_attr("address_space", self.keyword())
    }

    /// Reads a `#gpu.address_space<…>` attribute.
    pub fn from_attr(attr: &Attribute) -> Option<Self> {
        let d = attr.as_dialect().filter(|d| &*d.dialect == "gpu" && &*d.name == "address_space")?;
        AddressSpace::from_keyword(d.body.as_deref()?.trim())
    }
}

fn gpu_attr(name: &str, body: &str) -> Attribute {
    Attribute::Dialect(Box::new(DialectAttribute { dialect: "gpu".into(), name: name.into(), body: Some(body.into()) }))
}

/// The `!gpu.async.token` type of async dependencies and results.
pub fn async_token_type() -> Type {
    Type::Dialect(Box::new(DialectType { dialect: "gpu".into(), name: "async.token".into(), body: None }))
}

pub(super) fn is_async_token(t: &Type) -> bool {
    *t == async_token_type()
}

pub(super) fn check_gpu_type(t: &DialectType) -> Result<DialectType, String> {
    match (&*t.name, &t.body) {
        ("async.token", None) => Ok(t.clone()),
        _ => Err(format!("unknown gpu type '{}' (stencil-opt knows only !gpu.async.token)", t.name)),
    }
}

pub(super) fn check_gpu_attr(a: &DialectAttribute) -> Result<(), String> {
    let body = a.body.as_deref();
    match &*a.name {
        "" => match body {
            Some(b) if b.split_whitespace().next() == Some("dim") => {
                parse_dim_body(b).map(|_| ()).ok_or_else(|| "expected gpu dimension to be one of: x, y, z".to_string())
            }
            _ => Err(format!("unknown gpu attribute '#gpu<{}>' (expected '#gpu<dim x|y|z>')", body.unwrap_or(""))),
        },
        "address_space" => match body.map(str::trim).and_then(AddressSpace::from_keyword) {
            Some(_) => Ok(()),
            None => Err("expected gpu address space to be one of: global, workgroup, private".to_string()),
        },
        // The offloading handler of a gpu.module: an object index or a target attribute.
        "select_object" => match body {
            Some(b) if !b.trim().is_empty() => Ok(()),
            _ => Err("expected '#gpu.select_object<index or target>'".to_string()),
        },
        other => Err(format!("unknown gpu attribute '#gpu.{other}'")),
    }
}

// ----- nvvm target ------------------------------------------------------------------------

/// Parameters of `#nvvm.target<…>`, in the order MLIR prints them.
const NVVM_TARGET_PARAMS: &[&str] = &["O", "triple", "chip", "features", "flags", "link", "verifyTarget"];

/// The `#nvvm.target<…>` attribute for compiling a `gpu.module` with optimization level
/// `opt_level` (0–3) for `chip` (e.g. `sm_90`), printed as MLIR 22 prints it: parameters in
/// declaration order, defaults (`O = 2`, `chip = "sm_50"`) left out.
pub fn nvvm_target(opt_level: u8, chip: &str) -> Attribute {
    let mut params = vec![];
    if opt_level != 2 {
        params.push(format!("O = {opt_level}"));
    }
    if chip != "sm_50" {
        params.push(format!("chip = {}", stencil_ir::printer::QuotedString(chip)));
    }
    let body = (!params.is_empty()).then(|| params.join(", ").into());
    Attribute::Dialect(Box::new(DialectAttribute { dialect: "nvvm".into(), name: "target".into(), body }))
}

/// Checks `#nvvm.target<key = value, …>`: known, unique keys and an optimization level in
/// 0..=3. The body is kept as written (MLIR reorders keys and drops defaults when printing).
pub(super) fn check_nvvm_attr(a: &DialectAttribute) -> Result<(), String> {
    if &*a.name != "target" {
        return Err(format!("unknown nvvm attribute '#nvvm.{}' (stencil-opt knows only #nvvm.target)", a.name));
    }
    let Some(body) = a.body.as_deref().map(str::trim).filter(|b| !b.is_empty()) else { return Ok(()) };
    let mut seen = vec![];
    for param in split_top_level(body) {
        let Some((key, value)) = param.split_once('=') else {
            return Err(format!("expected 'key = value' in #nvvm.target, found '{}'", param.trim()));
        };
        let (key, value) = (key.trim(), value.trim());
        if !NVVM_TARGET_PARAMS.contains(&key) || seen.contains(&key) {
            return Err(format!("duplicate or unknown struct parameter name: {key}"));
        }
        seen.push(key);
        let ok = match key {
            "O" => matches!(value.parse::<u8>(), Ok(0..=3)),
            "triple" | "chip" | "features" => value.len() >= 2 && value.starts_with('"') && value.ends_with('"'),
            "flags" => value.starts_with('{') && value.ends_with('}'),
            "link" => value.starts_with('[') && value.ends_with(']'),
            _ => matches!(value, "true" | "false"),
        };
        if !ok {
            return Err(match key {
                "O" => "The optimization level must be a number between 0 and 3.".to_string(),
                _ => format!("invalid value '{value}' for #nvvm.target parameter '{key}'"),
            });
        }
    }
    Ok(())
}

/// Splits `a = 1, b = [2, 3], c = "x,y"` at the commas outside brackets and strings.
pub(super) fn split_top_level(body: &str) -> Vec<&str> {
    let mut parts = vec![];
    let (mut depth, mut in_string, mut escaped, mut start) = (0i32, false, false, 0);
    for (i, c) in body.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' | '(' | '<' => depth += 1,
            ']' | '}' | ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts
}
