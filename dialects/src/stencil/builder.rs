//! Builders for the `stencil` dialect: construct a `stencil.program` from code, without
//! writing or parsing text, the way another compiler hands its stencils to stencil-opt.
//!
//! ```
//! use stencil_dialects::stencil::builder::{ProgramBuilder, Element};
//!
//! let mut p = ProgramBuilder::new("jacobi_1d");
//! p.param("T", 1)?.param("N", 3)?.default_param("T", 10)?.default_param("N", 64)?;
//! let a = p.field("A", &["N"], Element::F64)?;
//! let b = p.field("B", &["N"], Element::F64)?;
//! let module = p.build(|body| {
//!     body.iterate("0", "T", |body, _t| {
//!         body.apply("S0", b, &["1"], &["N - 1"], |s| {
//!             let l = s.access(a, &[-1])?;
//!             let r = s.access(a, &[1])?;
//!             let sum = s.addf(l, r)?;
//!             let half = s.constant(0.5, Element::F64);
//!             s.mulf(sum, half)
//!         })?;
//!         body.apply("S1", a, &["1"], &["N - 1"], |s| s.access(b, &[0]))
//!     })
//! })?;
//! # let _ = module;
//! # Ok::<(), stencil_dialects::stencil::builder::BuildError>(())
//! ```
//!
//! The result is the same IR the parser makes from the text form (it prints as
//! `stencil.program @jacobi_1d(%A: …) params [T >= 1, N >= 3] defaults [T = 10, N = 64] { … }`);
//! it is not verified here: verify it like parsed input (`stencil_ir::verifier::verify`), which
//! checks what only the whole program can show (reads within the fields, …). The builders check
//! what they can see locally: names, expressions over the declared parameters, ranks, types.

use super::field::{parse_param_expr, FieldType, ParamExpr};
use std::collections::BTreeSet;
use std::sync::Arc;
use stencil_ir::affine::{AffineExpr, AffineMap};
use stencil_ir::attributes::set_named;
use stencil_ir::types::FloatKind;
use stencil_ir::{
    Attribute, BlockId, DialectRegistry, InsertPoint, Ir, Location, Module, NamedAttribute, OpId, OperationState, Type,
    ValueId,
};

/// What a builder refuses, before any IR exists that would have to be verified.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// A name is declared twice, or is not an identifier.
    #[error("{0}")]
    Name(String),
    /// An extent or bound is not an affine expression over the declared parameters.
    #[error("{0}")]
    Expression(String),
    /// A value or field is used where it does not fit (rank, type, program).
    #[error("{0}")]
    Use(String),
}

/// The element type of a field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl Element {
    fn kind(self) -> FloatKind {
        match self {
            Element::F32 => FloatKind::F32,
            Element::F64 => FloatKind::F64,
        }
    }

    /// The element's type.
    pub fn ty(self) -> Type {
        Type::Float(self.kind())
    }
}

/// A field argument of the program being built: what applies write and accesses read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Field {
    index: usize,
    rank: usize,
    element: Element,
}

/// A scalar argument of the program being built.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Scalar {
    index: usize,
}

/// Declares a `stencil.program`'s interface — parameters, fields, scalars, defaults — then
/// builds its body with [`ProgramBuilder::build`].
#[derive(Clone, Debug)]
pub struct ProgramBuilder {
    name: String,
    params: Vec<(String, i64)>,
    defaults: Vec<NamedAttribute>,
    args: Vec<(String, Type)>,
    location: Location,
}

fn identifier(kind: &str, name: &str) -> Result<(), BuildError> {
    let ok = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(BuildError::Name(format!("{kind} name '{name}' is not an identifier (letters, digits, '_')")))
    }
}

impl ProgramBuilder {
    /// A program named `name` (the symbol other code calls it by: `@name`).
    pub fn new(name: &str) -> Self {
        ProgramBuilder {
            name: name.to_string(),
            params: vec![],
            defaults: vec![],
            args: vec![],
            location: Location::Unknown,
        }
    }

    /// The location every op gets (a position in the embedding compiler's own source, so
    /// diagnostics point there); unknown by default.
    pub fn location(&mut self, location: Location) -> &mut Self {
        self.location = location;
        self
    }

    fn taken(&self, name: &str) -> bool {
        self.params.iter().any(|(n, _)| n == name) || self.args.iter().any(|(n, _)| n == name)
    }

    /// Declares parameter `name >= min` (`params [T >= 1, …]`), in order.
    pub fn param(&mut self, name: &str, min: i64) -> Result<&mut Self, BuildError> {
        identifier("parameter", name)?;
        if self.taken(name) {
            return Err(BuildError::Name(format!("'{name}' is declared twice")));
        }
        self.params.push((name.to_string(), min));
        Ok(self)
    }

    /// The default value of parameter `name` (`defaults [N = 64]`).
    pub fn default_param(&mut self, name: &str, value: i64) -> Result<&mut Self, BuildError> {
        let Some((_, min)) = self.params.iter().find(|(n, _)| n == name) else {
            return Err(BuildError::Name(format!("default for '{name}', which is not a declared parameter")));
        };
        if value < *min {
            return Err(BuildError::Use(format!("default {name} = {value} is below its minimum {min}")));
        }
        set_named(&mut self.defaults, name, Attribute::i64(value));
        Ok(self)
    }

    fn param_names(&self) -> Vec<String> {
        self.params.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Declares field `name` with one extent per dimension (`"N"`, `"M + 2"`, `"8"`: affine
    /// in the parameters declared so far).
    pub fn field(&mut self, name: &str, extents: &[&str], element: Element) -> Result<Field, BuildError> {
        identifier("field", name)?;
        if self.taken(name) {
            return Err(BuildError::Name(format!("'{name}' is declared twice")));
        }
        if !(1..=3).contains(&extents.len()) {
            return Err(BuildError::Use(format!(
                "field '{name}' has {} dimensions; fields have 1 to 3",
                extents.len()
            )));
        }
        let names = self.param_names();
        let shape = extents
            .iter()
            .map(|e| {
                let expr = parse_param_expr(e).map_err(BuildError::Expression)?;
                match expr.terms.keys().find(|n| !names.contains(n)) {
                    Some(unknown) => Err(BuildError::Expression(format!(
                        "extent '{e}' of field '{name}' uses '{unknown}', which is not a declared parameter"
                    ))),
                    None => Ok(expr),
                }
            })
            .collect::<Result<Vec<ParamExpr>, _>>()?;
        let ty = FieldType { shape, element: element.kind() }.to_type();
        self.args.push((name.to_string(), ty));
        Ok(Field { index: self.args.len() - 1, rank: extents.len(), element })
    }

    /// Declares scalar argument `name` of float type `element`, with an optional default.
    pub fn scalar(&mut self, name: &str, element: Element, default: Option<f64>) -> Result<Scalar, BuildError> {
        identifier("scalar", name)?;
        if self.taken(name) {
            return Err(BuildError::Name(format!("'{name}' is declared twice")));
        }
        if let Some(value) = default {
            set_named(&mut self.defaults, name, Attribute::float(value, element.kind()));
        }
        self.args.push((name.to_string(), element.ty()));
        Ok(Scalar { index: self.args.len() - 1 })
    }

    /// Creates the program — in a `builtin.module` of its own — and lets `body` fill it:
    /// `stencil.iterate`s and `stencil.apply`s in order.
    pub fn build(
        &self,
        body: impl FnOnce(&mut BodyBuilder<'_>) -> Result<(), BuildError>,
    ) -> Result<Module, BuildError> {
        let mut ir = Ir::new();
        let module_region = ir.create_region();
        let module_block = ir.append_block(module_region, &[]);
        let mut module_state = OperationState::new("builtin.module", self.location.clone());
        module_state.regions.push(module_region);
        let top = ir.create_op(module_state);

        let region = ir.create_region();
        let types: Vec<Type> = self.args.iter().map(|(_, t)| t.clone()).collect();
        let entry = ir.append_block(region, &types);
        let mut state = OperationState::new("stencil.program", self.location.clone());
        state.add_property("sym_name", Attribute::string(&self.name));
        state.add_property("function_type", Attribute::ty(Type::function(types, vec![])));
        state
            .add_property("arg_names", Attribute::Array(self.args.iter().map(|(n, _)| Attribute::string(n)).collect()));
        state.add_property(
            "param_names",
            Attribute::Array(self.params.iter().map(|(n, _)| Attribute::string(n)).collect()),
        );
        state.add_property(
            "param_mins",
            Attribute::DenseArray { element: Type::I64, values: self.params.iter().map(|(_, m)| *m).collect() },
        );
        if !self.defaults.is_empty() {
            state.add_property("defaults", Attribute::Dictionary(self.defaults.clone()));
        }
        state.regions.push(region);
        let program = ir.build(InsertPoint::End(module_block), state);
        let args = ir.block_args(entry).to_vec();
        let registry = crate::registry();
        let mut builder = BodyBuilder {
            ir: &mut ir,
            registry: &registry,
            program,
            block: entry,
            args,
            fields: self.args.iter().map(|(_, t)| FieldType::from_type(t)).collect(),
            params: self.param_names(),
            applies: BTreeSet::new(),
            location: self.location.clone(),
        };
        body(&mut builder)?;
        Ok(Module { ir, top, source: None })
    }
}

/// Builds the ops of a program body or of a `stencil.iterate` body.
pub struct BodyBuilder<'a> {
    ir: &'a mut Ir,
    /// For the ops' default properties (`fastmath` of `arith.addf`), which the parser fills in.
    registry: &'a DialectRegistry,
    program: OpId,
    block: BlockId,
    args: Vec<ValueId>,
    fields: Vec<Option<FieldType>>,
    params: Vec<String>,
    /// Apply names used so far (they must be distinct in a program).
    applies: BTreeSet<String>,
    location: Location,
}

impl BodyBuilder<'_> {
    /// `e` over the parameters as an affine expression over the symbols `s_i` (parameter `i`).
    fn bound(&self, text: &str) -> Result<AffineExpr, BuildError> {
        let e = parse_param_expr(text).map_err(BuildError::Expression)?;
        let mut acc = AffineExpr::Constant(e.constant);
        for (name, &c) in &e.terms {
            let Some(i) = self.params.iter().position(|p| p == name) else {
                return Err(BuildError::Expression(format!(
                    "bound '{text}' uses '{name}', which is not a declared parameter ({})",
                    self.params.join(", ")
                )));
            };
            acc = acc + AffineExpr::Constant(c) * AffineExpr::Symbol(i as u32);
        }
        Ok(acc)
    }

    fn bound_map(&self, texts: &[&str]) -> Result<Attribute, BuildError> {
        let exprs = texts.iter().map(|t| self.bound(t)).collect::<Result<Vec<_>, _>>()?;
        Ok(Attribute::AffineMap(Arc::new(AffineMap::new(0, self.params.len() as u32, exprs))))
    }

    /// The program entity of the program being built, for code that wants to add to it.
    pub fn program(&self) -> OpId {
        self.program
    }

    /// `stencil.iterate %t = lower to upper { … }`: a sequential loop; `body` gets a builder
    /// for the loop body and the induction variable (`index`).
    pub fn iterate(
        &mut self,
        lower: &str,
        upper: &str,
        body: impl FnOnce(&mut BodyBuilder<'_>, ValueId) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        let lower = self.bound_map(&[lower])?;
        let upper = self.bound_map(&[upper])?;
        let region = self.ir.create_region();
        let block = self.ir.append_block(region, &[Type::Index]);
        let mut state = OperationState::new("stencil.iterate", self.location.clone());
        state.add_property("lower_bound", lower);
        state.add_property("upper_bound", upper);
        state.regions.push(region);
        self.ir.build(InsertPoint::End(self.block), state);
        let t = self.ir.block_args(block)[0];
        let saved = std::mem::replace(&mut self.block, block);
        let result = body(self, t);
        self.block = saved;
        result
    }

    /// `stencil.apply @name writes %field over [lower…] to [upper…] { … }`: updates `field` at
    /// every point of the box, in lexicographic order; `body` computes the value stored at a
    /// point and returns it.
    pub fn apply(
        &mut self,
        name: &str,
        field: Field,
        lower: &[&str],
        upper: &[&str],
        body: impl FnOnce(&mut ApplyBuilder<'_>) -> Result<ValueId, BuildError>,
    ) -> Result<(), BuildError> {
        self.apply_ordered(name, field, lower, upper, false, body)
    }

    /// [`BodyBuilder::apply`] traversing the box in lexicographically decreasing order
    /// (`order reverse`, the backward sweep of SSOR).
    pub fn apply_reverse(
        &mut self,
        name: &str,
        field: Field,
        lower: &[&str],
        upper: &[&str],
        body: impl FnOnce(&mut ApplyBuilder<'_>) -> Result<ValueId, BuildError>,
    ) -> Result<(), BuildError> {
        self.apply_ordered(name, field, lower, upper, true, body)
    }

    fn apply_ordered(
        &mut self,
        name: &str,
        field: Field,
        lower: &[&str],
        upper: &[&str],
        reverse: bool,
        body: impl FnOnce(&mut ApplyBuilder<'_>) -> Result<ValueId, BuildError>,
    ) -> Result<(), BuildError> {
        identifier("apply", name)?;
        if !self.applies.insert(name.to_string()) {
            return Err(BuildError::Name(format!("two applies are named '{name}'")));
        }
        if lower.len() != field.rank || upper.len() != field.rank {
            return Err(BuildError::Use(format!(
                "apply '{name}' writes a field of rank {} over a box of {} lower and {} upper bounds",
                field.rank,
                lower.len(),
                upper.len()
            )));
        }
        let written = self.field_value(field)?;
        let region = self.ir.create_region();
        let block = self.ir.append_block(region, &[]);
        let mut state = OperationState::new("stencil.apply", self.location.clone());
        state.add_property("name", Attribute::string(name));
        state.add_property("lower_bounds", self.bound_map(lower)?);
        state.add_property("upper_bounds", self.bound_map(upper)?);
        if reverse {
            state.add_property("order", Attribute::string("reverse"));
        }
        state.operands.push(written);
        state.regions.push(region);
        self.ir.build(InsertPoint::End(self.block), state);
        let BodyBuilder { ir, registry, args, fields, location, .. } = self;
        let mut apply = ApplyBuilder { ir, registry, args, fields, location, block, rank: field.rank };
        let value = body(&mut apply)?;
        let ty = self.ir.value_type(value).clone();
        if ty != field.element.ty() {
            return Err(BuildError::Use(format!(
                "apply '{name}' yields a value of type {ty} into a field of {}",
                field.element.ty()
            )));
        }
        let mut yield_state = OperationState::new("stencil.yield", self.location.clone());
        yield_state.operands.push(value);
        self.ir.build(InsertPoint::End(block), yield_state);
        Ok(())
    }

    fn field_value(&self, field: Field) -> Result<ValueId, BuildError> {
        match (self.args.get(field.index), self.fields.get(field.index)) {
            (Some(&v), Some(Some(_))) => Ok(v),
            _ => Err(BuildError::Use("a field of another program".into())),
        }
    }
}

/// Builds the body of one `stencil.apply`: reads, coordinates, constants and arithmetic; the
/// closure returns the value stored at the point.
pub struct ApplyBuilder<'b> {
    ir: &'b mut Ir,
    registry: &'b DialectRegistry,
    args: &'b [ValueId],
    fields: &'b [Option<FieldType>],
    location: &'b Location,
    block: BlockId,
    rank: usize,
}

impl ApplyBuilder<'_> {
    fn build(&mut self, mut state: OperationState) -> ValueId {
        // What the parser adds to an op written without them, so built and parsed IR are equal.
        if let Some(fill) = self.registry.op(&state.name).and_then(|d| d.default_properties) {
            fill(&mut state);
        }
        let op = self.ir.build(InsertPoint::End(self.block), state);
        self.ir.result(op, 0)
    }

    fn field_value(&self, field: Field) -> Result<ValueId, BuildError> {
        match (self.args.get(field.index), self.fields.get(field.index)) {
            (Some(&v), Some(Some(_))) => Ok(v),
            _ => Err(BuildError::Use("a field of another program".into())),
        }
    }

    /// `stencil.access %field[offsets]`: the field's value at the current point plus `offsets`
    /// (one per dimension of the field).
    pub fn access(&mut self, field: Field, offsets: &[i64]) -> Result<ValueId, BuildError> {
        if offsets.len() != field.rank {
            return Err(BuildError::Use(format!(
                "an access of a rank-{} field needs {} offsets, got {offsets:?}",
                field.rank, field.rank
            )));
        }
        let value = self.field_value(field)?;
        let mut state = OperationState::new("stencil.access", self.location.clone());
        state.operands.push(value);
        state.add_property("offset", Attribute::DenseArray { element: Type::I64, values: offsets.to_vec() });
        state.result_types.push(field.element.ty());
        Ok(self.build(state))
    }

    /// `stencil.access %field at [v0 + c0, …]`: the field's value at an index given by `index`
    /// values (an enclosing iterate's induction variable, a [`ApplyBuilder::coordinate`]) plus
    /// constants — `fict[t]`, `A[i][0]`.
    pub fn access_at(&mut self, field: Field, index: &[(ValueId, i64)]) -> Result<ValueId, BuildError> {
        if index.len() != field.rank {
            return Err(BuildError::Use(format!(
                "an access of a rank-{} field needs {} indices, got {}",
                field.rank,
                field.rank,
                index.len()
            )));
        }
        if let Some((v, _)) = index.iter().find(|(v, _)| !self.ir.value_type(*v).is_index()) {
            return Err(BuildError::Use(format!("an access index has type {}, not index", self.ir.value_type(*v))));
        }
        let value = self.field_value(field)?;
        let results =
            index.iter().enumerate().map(|(d, &(_, c))| AffineExpr::Dim(d as u32) + AffineExpr::Constant(c)).collect();
        let mut state = OperationState::new("stencil.access", self.location.clone());
        state.operands.push(value);
        state.operands.extend(index.iter().map(|(v, _)| *v));
        state.add_property("map", Attribute::AffineMap(Arc::new(AffineMap::new(index.len() as u32, 0, results))));
        state.result_types.push(field.element.ty());
        Ok(self.build(state))
    }

    /// `stencil.index dim`: the current point's coordinate along `dim` (an `index`).
    pub fn coordinate(&mut self, dim: usize) -> Result<ValueId, BuildError> {
        if dim >= self.rank {
            return Err(BuildError::Use(format!("coordinate {dim} of a rank-{} box", self.rank)));
        }
        let mut state = OperationState::new("stencil.index", self.location.clone());
        state.add_property("dim", Attribute::i64(dim as i64));
        state.result_types.push(Type::Index);
        Ok(self.build(state))
    }

    /// The value of a scalar argument.
    pub fn scalar(&self, scalar: Scalar) -> Result<ValueId, BuildError> {
        match (self.args.get(scalar.index), self.fields.get(scalar.index)) {
            (Some(&v), Some(None)) => Ok(v),
            _ => Err(BuildError::Use("a scalar of another program".into())),
        }
    }

    /// `arith.constant value : element`.
    pub fn constant(&mut self, value: f64, element: Element) -> ValueId {
        let mut state = OperationState::new("arith.constant", self.location.clone());
        state.add_property("value", Attribute::float(value, element.kind()));
        state.result_types.push(element.ty());
        self.build(state)
    }

    /// A binary float op of `arith` on two values of one float type.
    fn binary(&mut self, name: &str, a: ValueId, b: ValueId) -> Result<ValueId, BuildError> {
        let (ta, tb) = (self.ir.value_type(a).clone(), self.ir.value_type(b).clone());
        if ta != tb || !ta.is_float() {
            return Err(BuildError::Use(format!("{name} needs two operands of one float type, got {ta} and {tb}")));
        }
        Ok(self.op(name, &[a, b], ta))
    }

    /// `arith.addf a, b`.
    pub fn addf(&mut self, a: ValueId, b: ValueId) -> Result<ValueId, BuildError> {
        self.binary("arith.addf", a, b)
    }

    /// `arith.subf a, b`.
    pub fn subf(&mut self, a: ValueId, b: ValueId) -> Result<ValueId, BuildError> {
        self.binary("arith.subf", a, b)
    }

    /// `arith.mulf a, b`.
    pub fn mulf(&mut self, a: ValueId, b: ValueId) -> Result<ValueId, BuildError> {
        self.binary("arith.mulf", a, b)
    }

    /// `arith.divf a, b`.
    pub fn divf(&mut self, a: ValueId, b: ValueId) -> Result<ValueId, BuildError> {
        self.binary("arith.divf", a, b)
    }

    /// Any other pure op with one result (`math.sqrt`, `arith.maximumf`, `arith.index_cast`):
    /// the verifier checks it like parsed input.
    pub fn op(&mut self, name: &str, operands: &[ValueId], result: Type) -> ValueId {
        let mut state = OperationState::new(name, self.location.clone());
        state.operands.extend_from_slice(operands);
        state.result_types.push(result);
        self.build(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stencil_ir::parser::{parse_source, ParserConfig};
    use stencil_ir::printer::{print_op, PrintOptions};
    use stencil_ir::SourceFile;

    fn print(module: &Module) -> String {
        print_op(&module.ir, &crate::registry(), module.top, PrintOptions::default())
    }

    fn print_generic(module: &Module) -> String {
        print_op(&module.ir, &crate::registry(), module.top, PrintOptions { generic: true, debug_info: false })
    }

    fn parse(text: &str) -> Module {
        let registry = crate::registry();
        parse_source(&SourceFile::new("t.mlir", text), ParserConfig { registry: &registry, allow_unregistered: false })
            .unwrap_or_else(|d| panic!("{}", d.render()))
    }

    /// Every construct the builders offer, and the same program written as text: the two
    /// must print identically, and the built one must verify.
    #[test]
    fn builds_what_the_parser_makes_from_the_text() -> Result<(), BuildError> {
        let mut p = ProgramBuilder::new("demo");
        p.param("T", 1)?.param("N", 4)?.default_param("T", 3)?.default_param("N", 16)?;
        let a = p.field("A", &["N", "N + 2"], Element::F64)?;
        let f = p.field("F", &["T"], Element::F64)?;
        let w = p.scalar("w", Element::F64, Some(1.5))?;
        let built = p.build(|body| {
            body.iterate("0", "T", |body, t| {
                body.apply("S0", a, &["1", "1"], &["N - 1", "N + 1"], |s| {
                    let up = s.access(a, &[-1, 0])?;
                    let here = s.access(a, &[0, 0])?;
                    let fict = s.access_at(f, &[(t, 0)])?;
                    let sum = s.addf(up, here)?;
                    let w = s.scalar(w)?;
                    let scaled = s.mulf(sum, w)?;
                    s.addf(scaled, fict)
                })?;
                body.apply_reverse("S1", a, &["1", "1"], &["N - 1", "N + 1"], |s| {
                    let i = s.coordinate(0)?;
                    let j = s.coordinate(1)?;
                    let row = s.access_at(a, &[(i, 0), (j, 1)])?;
                    let half = s.constant(0.5, Element::F64);
                    s.mulf(row, half)
                })
            })
        })?;
        let text = r#"
stencil.program @demo(%A: !stencil.field<[N, N + 2] x f64>, %F: !stencil.field<[T] x f64>, %w: f64) params [T >= 1, N >= 4] defaults [T = 3, N = 16, w = 1.5] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %A over [1, 1] to [N - 1, N + 1] {
      %0 = stencil.access %A[-1, 0] : f64
      %1 = stencil.access %A[0, 0] : f64
      %2 = stencil.access %F at [%t] : f64
      %3 = arith.addf %0, %1 : f64
      %4 = arith.mulf %3, %w : f64
      %5 = arith.addf %4, %2 : f64
      stencil.yield %5 : f64
    }
    stencil.apply @S1 writes %A over [1, 1] to [N - 1, N + 1] order reverse {
      %i = stencil.index 0
      %j = stencil.index 1
      %0 = stencil.access %A at [%i, %j + 1] : f64
      %cst = arith.constant 5.000000e-01 : f64
      %1 = arith.mulf %0, %cst : f64
      stencil.yield %1 : f64
    }
  }
}
"#;
        assert_eq!(print(&built), print(&parse(text)));
        assert_eq!(print_generic(&built), print_generic(&parse(text)));
        stencil_ir::verifier::verify(&built.ir, &crate::registry(), built.top, false)
            .unwrap_or_else(|d| panic!("{}", d.render()));
        Ok(())
    }

    #[test]
    fn refuses_what_it_can_see_is_wrong() -> Result<(), BuildError> {
        let mut p = ProgramBuilder::new("bad");
        p.param("N", 2)?;
        assert!(p.param("N", 1).is_err());
        assert!(p.field("A", &["M"], Element::F64).is_err_and(|e| e.to_string().contains("'M'")));
        assert!(p.field("2x", &["N"], Element::F64).is_err());
        assert!(p.default_param("N", 1).is_err_and(|e| e.to_string().contains("below its minimum")));
        let a = p.field("A", &["N"], Element::F64)?;
        let rank = p.build(|body| body.apply("S", a, &["0", "0"], &["N", "N"], |s| s.access(a, &[0])));
        assert!(rank.is_err_and(|e| e.to_string().contains("rank 1")));
        let offsets = p.build(|body| body.apply("S", a, &["0"], &["N"], |s| s.access(a, &[0, 0])));
        assert!(offsets.is_err_and(|e| e.to_string().contains("needs 1 offsets")));
        let twice = p.build(|body| {
            body.apply("S", a, &["0"], &["N"], |s| s.access(a, &[0]))?;
            body.apply("S", a, &["0"], &["N"], |s| s.access(a, &[0]))
        });
        assert!(twice.is_err_and(|e| e.to_string().contains("two applies are named 'S'")));
        let bound = p.build(|body| body.apply("S", a, &["0"], &["K"], |s| s.access(a, &[0])));
        assert!(bound.is_err_and(|e| e.to_string().contains("'K', which is not a declared parameter")));
        Ok(())
    }
}
