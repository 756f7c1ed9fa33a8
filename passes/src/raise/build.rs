//! Construction of the raised `stencil.program` from a recognised nest and a plan, and of the
//! call that replaces the nest in the function (guarded by the parameter minimums, with the
//! original loops kept for the other values when they could still do something).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use stencil_dialects::stencil::FieldType;
use stencil_ir::affine::{AffineBinOp, AffineExpr, AffineMap, IntegerSet, SetConstraint};
use stencil_ir::ir::{InsertPoint, OperationState, ValueDef, ValueMapping};
use stencil_ir::types::FloatKind;
use stencil_ir::{Attribute, BlockId, Ir, Location, OpId, Type, ValueId};

use super::lin::{Lin, Var};
use super::nest::{index_form, AccessKind, IndexForm, IndexOperand, Item, Nest, ParamSource, Statement};
use super::plan::{box_bounds, Plan, Slot};

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `Σ c·s_position(p) + constant` over the program's parameters.
fn param_expr(plan: &Plan, e: &Lin) -> AffineExpr {
    let mut terms: Vec<(usize, i64)> = e.params().map(|(p, c)| (plan.position(p), c)).collect();
    terms.sort_unstable();
    let mut expr: Option<AffineExpr> = None;
    for (pos, c) in terms {
        let var = AffineExpr::Symbol(count(pos));
        let term = if c == 1 { var } else { AffineExpr::binary(AffineBinOp::Mul, var, AffineExpr::Constant(c)) };
        expr = Some(match expr {
            None => term,
            Some(x) => AffineExpr::binary(AffineBinOp::Add, x, term),
        });
    }
    match expr {
        None => AffineExpr::Constant(e.constant),
        Some(x) if e.constant == 0 => x,
        Some(x) => AffineExpr::binary(AffineBinOp::Add, x, AffineExpr::Constant(e.constant)),
    }
}

fn params_map(plan: &Plan, exprs: &[Lin]) -> Attribute {
    let results = exprs.iter().map(|e| param_expr(plan, e)).collect();
    Attribute::AffineMap(Arc::new(AffineMap::new(0, count(plan.param_order.len()), results)))
}

/// The element kind of a memref value (the nest checked it is f32 or f64).
fn element_kind(ir: &Ir, memref: ValueId) -> FloatKind {
    match ir.value_type(memref).as_memref().map(|m| &m.element) {
        Some(Type::Float(k)) => *k,
        _ => FloatKind::F64,
    }
}

/// Builds the program named `name` right before `anchor` (the function); returns it.
pub(crate) fn build_program(
    ir: &mut Ir,
    nest: &Nest,
    plan: &Plan,
    name: &str,
    anchor: OpId,
    location: &Location,
) -> Result<OpId, String> {
    let mut arg_types = vec![];
    for (slot, _) in &plan.slots {
        arg_types.push(match slot {
            Slot::Field(f) => {
                let memref = nest.fields[*f].value;
                FieldType {
                    shape: plan.extents[*f].iter().map(|e| plan.param_expr(e)).collect(),
                    element: element_kind(ir, memref),
                }
                .to_type()
            }
            Slot::Scalar(s) => ir.value_type(nest.scalars[*s]).clone(),
        });
    }
    let region = ir.create_region();
    let block = ir.append_block(region, &arg_types);
    let mut state = OperationState::new("stencil.program", location.clone());
    state.add_property("sym_name", Attribute::string(name));
    state.add_property("function_type", Attribute::ty(Type::function(arg_types, vec![])));
    let strings = |v: &[String]| Attribute::Array(v.iter().map(|s| Attribute::string(s)).collect());
    let names: Vec<String> = plan.slots.iter().map(|(_, n)| n.clone()).collect();
    state.add_property("arg_names", strings(&names));
    let param_names: Vec<String> = plan.param_order.iter().map(|&p| plan.param_names[p].clone()).collect();
    state.add_property("param_names", strings(&param_names));
    state.add_property(
        "param_mins",
        Attribute::DenseArray { element: Type::I64, values: plan.param_order.iter().map(|&p| plan.mins[p]).collect() },
    );
    if let Some(defaults) = &plan.defaults {
        let known: Vec<_> = defaults
            .iter()
            .filter(|d| param_names.contains(&d.name.to_string()) || names.contains(&d.name.to_string()))
            .cloned()
            .collect();
        if !known.is_empty() {
            state.add_property("defaults", Attribute::Dictionary(known));
        }
    }
    state.regions.push(region);
    let program = ir.build(InsertPoint::Before(anchor), state);
    let args = ir.block_args(block).to_vec();
    let mut builder = ProgramBuilder {
        nest,
        plan,
        fields: vec![None; nest.fields.len()],
        scalars: vec![None; nest.scalars.len()],
        time_ivs: HashMap::new(),
        next_statement: 0,
    };
    for ((slot, _), &arg) in plan.slots.iter().zip(&args) {
        match slot {
            Slot::Field(f) => builder.fields[*f] = Some(arg),
            Slot::Scalar(s) => builder.scalars[*s] = Some(arg),
        }
    }
    let built = builder.items(ir, &nest.items, block);
    if let Err(e) = built {
        ir.erase_op(program);
        return Err(e);
    }
    Ok(program)
}

struct ProgramBuilder<'a> {
    nest: &'a Nest,
    plan: &'a Plan,
    /// Program argument per nest field / scalar.
    fields: Vec<Option<ValueId>>,
    scalars: Vec<Option<ValueId>>,
    /// Induction variable of the iterate made of each time loop dimension.
    time_ivs: HashMap<usize, ValueId>,
    next_statement: usize,
}

impl ProgramBuilder<'_> {
    fn items(&mut self, ir: &mut Ir, items: &[Item], block: BlockId) -> Result<(), String> {
        for item in items {
            match item {
                Item::Iterate { var, items } => {
                    let l = &self.nest.loops[*var];
                    let location = ir.location(l.op).clone();
                    let region = ir.create_region();
                    let body = ir.append_block(region, &[Type::Index]);
                    let mut state = OperationState::new("stencil.iterate", location);
                    state.add_property("lower_bound", params_map(self.plan, std::slice::from_ref(&l.lower)));
                    state.add_property("upper_bound", params_map(self.plan, std::slice::from_ref(&l.upper)));
                    state.regions.push(region);
                    ir.build(InsertPoint::End(block), state);
                    self.time_ivs.insert(*var, ir.block_args(body)[0]);
                    self.items(ir, items, body)?;
                }
                Item::Apply(s) => self.apply(ir, s, block)?,
            }
        }
        Ok(())
    }

    fn apply(&mut self, ir: &mut Ir, s: &Statement, block: BlockId) -> Result<(), String> {
        let mut lower = vec![];
        let mut upper = vec![];
        for d in 0..s.dims.len() {
            let (lb, ub) = box_bounds(self.nest, s, d)?;
            lower.push(lb);
            upper.push(ub);
        }
        let written = self.fields[s.written].ok_or("the written memref is not an argument of the program")?;
        let location = ir.location(s.loop_op).clone();
        let region = ir.create_region();
        let body = ir.append_block(region, &[]);
        let mut state = OperationState::new("stencil.apply", location);
        state.operands = vec![written];
        state.add_property("name", Attribute::string(&format!("S{}", self.next_statement)));
        self.next_statement += 1;
        state.add_property("lower_bounds", params_map(self.plan, &lower));
        state.add_property("upper_bounds", params_map(self.plan, &upper));
        if s.reverse {
            state.add_property("order", Attribute::string("reverse"));
        }
        state.regions.push(region);
        ir.build(InsertPoint::End(block), state);
        let mut body_builder =
            BodyBuilder { program: self, statement: s, block: body, mapping: HashMap::new(), coords: HashMap::new() };
        body_builder.run(ir)
    }
}

/// Copies one statement's innermost loop body into an apply body.
struct BodyBuilder<'p, 'a> {
    program: &'p ProgramBuilder<'a>,
    statement: &'p Statement,
    block: BlockId,
    /// Original value → value in the apply body.
    mapping: HashMap<ValueId, ValueId>,
    /// `stencil.index d` per coordinate, made at first use.
    coords: HashMap<usize, ValueId>,
}

impl BodyBuilder<'_, '_> {
    fn at(&self) -> InsertPoint {
        InsertPoint::End(self.block)
    }

    fn run(&mut self, ir: &mut Ir) -> Result<(), String> {
        let s = self.statement;
        let accesses: HashMap<OpId, usize> = s.accesses.iter().enumerate().map(|(k, a)| (a.op, k)).collect();
        for op in ir.block_ops(s.body) {
            if op == s.store {
                let stored = self.value(ir, ir.operand(op, 0))?;
                let mut state = OperationState::new("stencil.yield", ir.location(op).clone());
                state.operands = vec![stored];
                ir.build(self.at(), state);
                return Ok(());
            }
            if let Some(&k) = accesses.get(&op) {
                let v = self.access(ir, k)?;
                self.mapping.insert(ir.result(op, 0), v);
            } else if ir.op_name(op) != "affine.apply" {
                // A computation: its operands first, then a copy.
                let result = ir.results(op).first().copied();
                if let Some(r) = result {
                    self.value(ir, r)?;
                } else {
                    return Err(format!("'{}' without result in a statement body", ir.op_name(op)));
                }
            }
        }
        Err("the statement body has no store".into())
    }

    fn access(&mut self, ir: &mut Ir, k: usize) -> Result<ValueId, String> {
        let a = &self.statement.accesses[k];
        let field = self.program.fields[a.field].ok_or("an accessed memref is not an argument of the program")?;
        let location = ir.location(a.op).clone();
        let element = ir.value_type(ir.result(a.op, 0)).clone();
        let mut state = OperationState::new("stencil.access", location.clone());
        state.result_types = vec![element];
        match &a.kind {
            AccessKind::Offset(offsets) => {
                state.operands = vec![field];
                state.add_property("offset", Attribute::DenseArray { element: Type::I64, values: offsets.clone() });
            }
            AccessKind::General(forms) => {
                let operands: BTreeSet<IndexOperand> = forms.iter().flat_map(|f| f.terms.iter().map(|t| t.0)).collect();
                let operands: Vec<IndexOperand> = operands.into_iter().collect();
                let results = forms.iter().map(|f| form_expr(f, &operands)).collect();
                let mut values = vec![field];
                for &o in &operands {
                    values.push(self.operand(ir, o, &location)?);
                }
                state.operands = values;
                state.add_property(
                    "map",
                    Attribute::AffineMap(Arc::new(AffineMap::new(count(operands.len()), 0, results))),
                );
            }
        }
        let op = ir.build(self.at(), state);
        Ok(ir.result(op, 0))
    }

    /// The value of an index operand: an iterate's induction variable or `stencil.index d`.
    fn operand(&mut self, ir: &mut Ir, o: IndexOperand, location: &Location) -> Result<ValueId, String> {
        match o {
            IndexOperand::Time(k) => {
                self.program.time_ivs.get(&k).copied().ok_or_else(|| "a time loop without iterate".to_string())
            }
            IndexOperand::Coord(d) => {
                if let Some(&v) = self.coords.get(&d) {
                    return Ok(v);
                }
                let mut state = OperationState::new("stencil.index", location.clone());
                state.add_property("dim", Attribute::i64(d as i64));
                state.result_types = vec![Type::Index];
                let op = ir.build(self.at(), state);
                let v = ir.result(op, 0);
                self.coords.insert(d, v);
                Ok(v)
            }
        }
    }

    fn constant_index(&self, ir: &mut Ir, c: i64, location: &Location) -> ValueId {
        let mut state = OperationState::new("arith.constant", location.clone());
        state.add_property("value", Attribute::index(c));
        state.result_types = vec![Type::Index];
        let op = ir.build(self.at(), state);
        ir.result(op, 0)
    }

    fn binary(&self, ir: &mut Ir, name: &str, a: ValueId, b: ValueId, location: &Location) -> ValueId {
        let mut state = OperationState::new(name, location.clone());
        state.operands = vec![a, b];
        state.result_types = vec![Type::Index];
        let op = ir.build(self.at(), state);
        ir.result(op, 0)
    }

    /// An index value of the body: `Σ c·operand + constant` with arith ops (the operand alone
    /// when that is all it is).
    fn index_value(&mut self, ir: &mut Ir, form: &IndexForm, location: &Location) -> Result<ValueId, String> {
        let mut acc: Option<ValueId> = None;
        for &(o, c) in &form.terms {
            let v = self.operand(ir, o, location)?;
            let term = if c == 1 {
                v
            } else {
                let k = self.constant_index(ir, c, location);
                self.binary(ir, "arith.muli", v, k, location)
            };
            acc = Some(match acc {
                None => term,
                Some(a) => self.binary(ir, "arith.addi", a, term, location),
            });
        }
        Ok(match acc {
            None => self.constant_index(ir, form.constant, location),
            Some(a) if form.constant == 0 => a,
            Some(a) => {
                let k = self.constant_index(ir, form.constant, location);
                self.binary(ir, "arith.addi", a, k, location)
            }
        })
    }

    /// The apply-body value standing for `v`: its copy, a scalar argument, an index value, or
    /// a copy of the computation outside the body that defines it.
    fn value(&mut self, ir: &mut Ir, v: ValueId) -> Result<ValueId, String> {
        if let Some(&m) = self.mapping.get(&v) {
            return Ok(m);
        }
        let nest = self.program.nest;
        let location = match ir.value_def(v) {
            ValueDef::Result { op, .. } => ir.location(op).clone(),
            _ => ir.location(self.statement.store).clone(),
        };
        let made = if let Some(k) = nest.loop_of(v) {
            let form = index_form(self.statement, &Lin::var(Var::Loop(k)))?;
            self.index_value(ir, &form, &location)?
        } else if let Some(s) = nest.scalars.iter().position(|&x| x == v) {
            self.program.scalars[s].ok_or("a scalar is not an argument of the program")?
        } else {
            let Some(op) = ir.defining_op(v) else {
                return Err("a block argument that is neither a loop variable nor a scalar".into());
            };
            if let Some(k) = self.statement.accesses.iter().position(|a| a.op == op) {
                // A load hoisted out of the statement's loops: read here.
                self.access(ir, k)?
            } else if ir.op_name(op) == "affine.apply" {
                let lin = self.apply_lin(ir, op)?;
                let form = index_form(self.statement, &lin)?;
                self.index_value(ir, &form, &location)?
            } else {
                let mut vm = ValueMapping::new();
                for o in ir.operands(op).to_vec() {
                    let m = self.value(ir, o)?;
                    vm.map(o, m);
                }
                let copy = ir.clone_op(op, &mut vm);
                ir.insert(copy, self.at());
                for (r, c) in ir.results(op).to_vec().into_iter().zip(ir.results(copy).to_vec()) {
                    self.mapping.insert(r, c);
                }
                return self.mapping.get(&v).copied().ok_or_else(|| "a copied op lost its result".to_string());
            }
        };
        self.mapping.insert(v, made);
        Ok(made)
    }

    /// The form of an `affine.apply` of loop variables and constants (its use as a value was
    /// checked to need no parameter).
    fn apply_lin(&self, ir: &Ir, op: OpId) -> Result<Lin, String> {
        let nest = self.program.nest;
        let map = ir.attr(op, "map").and_then(Attribute::as_affine_map).ok_or("affine.apply without a map")?;
        let mut lins = vec![];
        for &o in ir.operands(op) {
            lins.push(if let Some(k) = nest.loop_of(o) {
                Lin::var(Var::Loop(k))
            } else if let Some(d) = ir.defining_op(o) {
                match ir.op_name(d) {
                    "affine.apply" => self.apply_lin(ir, d)?,
                    "arith.constant" => Lin::constant(
                        ir.attr(d, "value").and_then(Attribute::as_i64).ok_or("a non-integer constant index")?,
                    ),
                    _ => return Err("an affine.apply operand that is not a loop variable or constant".into()),
                }
            } else {
                return Err("an affine.apply operand that is not a loop variable or constant".into());
            });
        }
        let e = map.results.first().ok_or("affine.apply without result")?;
        lin_of(e, map.num_dims as usize, &lins)
    }
}

/// [`super::nest`]'s composition for a map the analysis already accepted.
fn lin_of(e: &AffineExpr, num_dims: usize, operands: &[Lin]) -> Result<Lin, String> {
    match e {
        AffineExpr::Dim(d) => {
            operands.get(*d as usize).cloned().ok_or_else(|| "a map dimension without operand".into())
        }
        AffineExpr::Symbol(s) => {
            operands.get(num_dims + *s as usize).cloned().ok_or_else(|| "a map symbol without operand".into())
        }
        AffineExpr::Constant(c) => Ok(Lin::constant(*c)),
        AffineExpr::Binary(AffineBinOp::Add, l, r) => {
            lin_of(l, num_dims, operands)?.add(&lin_of(r, num_dims, operands)?)
        }
        AffineExpr::Binary(AffineBinOp::Mul, l, r) => {
            let (a, b) = (lin_of(l, num_dims, operands)?, lin_of(r, num_dims, operands)?);
            match (a.as_constant(), b.as_constant()) {
                (_, Some(k)) => a.scale(k),
                (Some(k), None) => b.scale(k),
                _ => Err("a product of variables".into()),
            }
        }
        AffineExpr::Binary(..) => Err("a non-affine index".into()),
    }
}

/// `Σ c·d_position + constant` of an index form whose operands are `operands`.
fn form_expr(form: &IndexForm, operands: &[IndexOperand]) -> AffineExpr {
    let mut expr: Option<AffineExpr> = None;
    for &(o, c) in &form.terms {
        let pos = operands.iter().position(|&x| x == o).unwrap_or(0);
        let var = AffineExpr::Dim(count(pos));
        let term = if c == 1 { var } else { AffineExpr::binary(AffineBinOp::Mul, var, AffineExpr::Constant(c)) };
        expr = Some(match expr {
            None => term,
            Some(x) => AffineExpr::binary(AffineBinOp::Add, x, term),
        });
    }
    match expr {
        None => AffineExpr::Constant(form.constant),
        Some(x) if form.constant == 0 => x,
        Some(x) => AffineExpr::binary(AffineBinOp::Add, x, AffineExpr::Constant(form.constant)),
    }
}

/// Replaces the nest by a call of `program` (guarded by the plan's condition; the nest moves
/// into the `else` branch when it could still run where the guard fails, and is erased
/// otherwise). Returns the call.
pub(crate) fn replace_nest(ir: &mut Ir, nest: &Nest, plan: &Plan, program: &str) -> OpId {
    let root = nest.root;
    let location = ir.location(root).clone();
    // Parameter values in program order (creating the memref.dim reads the plan asks for).
    let mut param_values = vec![];
    for &p in &plan.param_order {
        let v = match &plan.params[p] {
            ParamSource::Value(v) => *v,
            ParamSource::Cast { argument, .. } => {
                let mut c = OperationState::new("arith.index_cast", location.clone());
                c.operands = vec![*argument];
                c.result_types = vec![Type::Index];
                let c = ir.build(InsertPoint::Before(root), c);
                ir.result(c, 0)
            }
            ParamSource::Dim { memref, dim } => {
                let mut c = OperationState::new("arith.constant", location.clone());
                c.add_property("value", Attribute::index(*dim as i64));
                c.result_types = vec![Type::Index];
                let c = ir.build(InsertPoint::Before(root), c);
                let index = ir.result(c, 0);
                let mut d = OperationState::new("memref.dim", location.clone());
                d.operands = vec![*memref, index];
                d.result_types = vec![Type::Index];
                let d = ir.build(InsertPoint::Before(root), d);
                ir.result(d, 0)
            }
        };
        param_values.push(v);
    }
    let mut operands: Vec<ValueId> = plan
        .slots
        .iter()
        .map(|(slot, _)| match slot {
            Slot::Field(f) => nest.fields[*f].value,
            Slot::Scalar(s) => nest.scalars[*s],
        })
        .collect();
    operands.extend(&param_values);
    let mut call = OperationState::new("stencil.call", location.clone());
    call.add_property("callee", Attribute::symbol(program));
    call.operands = operands;

    let mut constraints: Vec<SetConstraint> = vec![];
    for g in &plan.guard {
        let c = SetConstraint { expr: param_expr(plan, g), is_equality: false };
        if !constraints.contains(&c) {
            constraints.push(c);
        }
    }
    if constraints.is_empty() {
        let call = ir.build(InsertPoint::Before(root), call);
        ir.erase_op(root);
        return call;
    }
    let set = IntegerSet { num_dims: 0, num_symbols: count(param_values.len()), constraints };
    let then_region = ir.create_region();
    let then_block = ir.append_block(then_region, &[]);
    let else_region = ir.create_region();
    let mut state = OperationState::new("affine.if", location.clone());
    state.add_property("condition", Attribute::IntegerSet(Arc::new(set)));
    state.operands = param_values;
    state.regions = vec![then_region, else_region];
    ir.build(InsertPoint::Before(root), state);
    let call = ir.build(InsertPoint::End(then_block), call);
    ir.build(InsertPoint::End(then_block), OperationState::new("affine.yield", location.clone()));
    if plan.exact {
        ir.erase_op(root);
    } else {
        let else_block = ir.append_block(else_region, &[]);
        ir.move_op(root, InsertPoint::End(else_block));
        ir.build(InsertPoint::End(else_block), OperationState::new("affine.yield", location));
    }
    call
}
